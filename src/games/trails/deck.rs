//! Deck files: one `COUNT NAME[ / SUB-NAME]` per line, `#` comments, and an optional
//! `# format: blitz` line (default Strategy). Validated against T-DECK; every problem is reported
//! with its line.

use super::cards::{CardDb, CardId};
use crate::core::input::{excerpt, parse_int};
use crate::core::Reason;
use std::path::Path;

/// The deck formats of T-DECK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// T-DECK-1: exactly 50 cards, at most 4 of a (name, sub-name) unless "General".
    Strategy,
    /// T-DECK-2: exactly 40 cards, any copies.
    Blitz,
}

impl Format {
    pub fn size(self) -> usize {
        match self {
            Format::Strategy => 50,
            Format::Blitz => 40,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Strategy => "Strategy",
            Format::Blitz => "Blitz Shield",
        }
    }
}

/// One problem in a deck file: the file, the line (0 when it is about the whole deck) and the
/// reason.
pub type DeckProblem = crate::core::input::InputError;

/// All the problems of a deck file (the library's list of a file's problems).
pub use crate::core::input::InputErrors as DeckError;

/// The most copies one deck line may name (no deck holds more cards: T-DECK-1).
pub const MAX_LINE_COUNT: usize = 50;

/// The longest card name a deck line may give (longer names match no card).
pub const MAX_NAME_CHARS: usize = 200;

/// The most problems reported for one deck file; parsing stops after them.
pub const MAX_PROBLEMS: usize = 50;

/// The most packs of a sealed pool, and the most cards of one pack.
pub const MAX_PACKS: u64 = 100;
pub const MAX_PACK_CARDS: usize = 100;

/// A validated deck.
#[derive(Debug, Clone)]
pub struct Deck {
    pub name: String,
    pub format: Format,
    /// Every card, one entry per copy, in file order.
    pub cards: Vec<CardId>,
    /// The first comment line (the deck's plan), if any.
    pub description: String,
}

impl Deck {
    pub fn load(path: &Path, db: &CardDb) -> Result<Deck, DeckError> {
        use crate::core::input::{read_text, MAX_TEXT_BYTES};
        let file = path.display().to_string();
        let text = read_text(path, MAX_TEXT_BYTES).map_err(|e| DeckError(vec![e]))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.clone());
        Deck::parse(&text, &file, &name, db)
    }

    /// Parses and validates deck text; `file` names it in problems.
    pub fn parse(text: &str, file: &str, name: &str, db: &CardDb) -> Result<Deck, DeckError> {
        let mut problems = Vec::new();
        let problem = |problems: &mut Vec<DeckProblem>, line: usize, msg: String| {
            problems.push(DeckProblem {
                file: file.to_string(),
                line,
                msg,
            })
        };
        let mut format = Format::Strategy;
        // With a line that did not resolve, the total would only repeat the error.
        let mut incomplete = false;
        let mut description = String::new();
        let mut cards = Vec::new();
        let mut total = 0usize;
        // (card, total copies, first line)
        let mut counts: Vec<(CardId, usize, usize)> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            if problems.len() >= MAX_PROBLEMS {
                problem(
                    &mut problems,
                    line,
                    format!("stopped after {MAX_PROBLEMS} problems"),
                );
                break;
            }
            let (body, comment) = match raw.split_once('#') {
                Some((b, c)) => (b.trim(), Some(c.trim())),
                None => (raw.trim(), None),
            };
            if let Some(c) = comment {
                if let Some(f) = c.strip_prefix("format:") {
                    match f.trim().to_ascii_lowercase().as_str() {
                        "blitz" | "blitz shield" => format = Format::Blitz,
                        "strategy" => format = Format::Strategy,
                        other => problem(
                            &mut problems,
                            line,
                            format!("unknown format \"{other}\" (expected strategy or blitz)"),
                        ),
                    }
                } else if description.is_empty() && body.is_empty() && !c.is_empty() {
                    description = c.to_string();
                }
            }
            if body.is_empty() {
                continue;
            }
            let (count, card) = match body.split_once(char::is_whitespace) {
                Some((c, rest)) => (c, rest.trim()),
                None => (body, ""),
            };
            let count = count.strip_suffix(['x', 'X']).unwrap_or(count);
            let count: usize = match parse_int(count, 1, MAX_LINE_COUNT as u64) {
                Ok(c) => c as usize,
                Err(e) if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) => {
                    incomplete = true;
                    problem(
                        &mut problems,
                        line,
                        format!("count {e} (copies of one card in one line)"),
                    );
                    continue;
                }
                Err(_) => {
                    problem(
                        &mut problems,
                        line,
                        format!(
                            "expected `COUNT NAME`, found \"{}\" (COUNT is a whole number ≥ 1)",
                            excerpt(body)
                        ),
                    );
                    continue;
                }
            };
            if card.is_empty() {
                problem(
                    &mut problems,
                    line,
                    format!("missing card name after the count {count}"),
                );
                continue;
            }
            if card.chars().count() > MAX_NAME_CHARS {
                incomplete = true;
                problem(
                    &mut problems,
                    line,
                    format!(
                        "\"{}\": no card has a name that long (over {MAX_NAME_CHARS} characters)",
                        excerpt(card)
                    ),
                );
                continue;
            }
            match db.lookup(card) {
                Ok(id) => {
                    // More than a deck holds is reported below; do not store millions of copies.
                    if cards.len() <= 2 * MAX_LINE_COUNT {
                        cards.extend(std::iter::repeat_n(id, count));
                    }
                    total += count;
                    match counts.iter_mut().find(|(c, _, _)| *c == id) {
                        Some(e) => e.1 += count,
                        None => counts.push((id, count, line)),
                    }
                }
                Err(e) => {
                    incomplete = true;
                    problem(&mut problems, line, format!("\"{card}\": {e}"));
                }
            }
        }
        if format == Format::Strategy {
            for &(id, n, line) in &counts {
                let c = db.card(id);
                // T-DECK-1: at most 4 copies, unless the sub-name is "General".
                if n > 4 && !c.is_general() {
                    problem(
                        &mut problems,
                        line,
                        format!(
                            "{n} copies of \"{}\": a Strategy deck allows at most 4 (T-DECK-1)",
                            c.full_name()
                        ),
                    );
                }
            }
        }
        if total != format.size() && !incomplete {
            problem(
                &mut problems,
                0,
                format!(
                    "{total} cards: a {} deck has exactly {} (T-DECK-{})",
                    format.name(),
                    format.size(),
                    if format == Format::Strategy { 1 } else { 2 }
                ),
            );
        }
        if problems.is_empty() {
            Ok(Deck {
                name: name.to_string(),
                format,
                cards,
                description,
            })
        } else {
            Err(DeckError(problems))
        }
    }
}

/// One slot kind of a booster pack: how many cards of a type (any type when `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackSlot {
    pub ctype: Option<super::cards::CardType>,
    pub count: usize,
}

/// Parses a pack composition like `UNIT=5,ITEM=1,EVENT=1,BASE=1` or `ANY=8`.
pub fn parse_pack(text: &str) -> Result<Vec<PackSlot>, Reason> {
    use super::cards::CardType;
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("pack slot \"{part}\": expected TYPE=COUNT"))?;
        let ctype = match k.trim().to_ascii_uppercase().as_str() {
            "ANY" => None,
            "UNIT" => Some(CardType::Unit),
            "ITEM" => Some(CardType::Item),
            "EVENT" => Some(CardType::Event),
            "BASE" => Some(CardType::Base),
            other => {
                return Err(format!(
                    "pack slot \"{other}\": expected ANY, UNIT, ITEM, EVENT or BASE"
                )
                .into())
            }
        };
        let count = parse_int(v, 0, MAX_PACK_CARDS as u64)
            .map_err(|e| format!("pack slot \"{}\": {e}", excerpt(part)))?
            as usize;
        out.push(PackSlot { ctype, count });
    }
    let size = out.iter().map(|s| s.count).sum::<usize>();
    if size == 0 {
        return Err("a pack needs at least one card".into());
    }
    if size > MAX_PACK_CARDS {
        return Err(format!("{size} cards a pack; at most {MAX_PACK_CARDS}").into());
    }
    Ok(out)
}

/// T-DECK-2 (decision): a sealed pool opened from `packs` random packs of the card pool. Each slot
/// draws uniformly among the cards of its type (the sample pool has no rarity data).
pub fn sealed_pool(
    db: &CardDb,
    packs: u64,
    slots: &[PackSlot],
    rng: &mut crate::core::GameRng,
) -> Result<Vec<CardId>, Reason> {
    use rand::Rng;
    if !(1..=MAX_PACKS).contains(&packs) {
        return Err(format!("{packs} packs: out of range 1..={MAX_PACKS}").into());
    }
    let mut out = Vec::new();
    for _ in 0..packs {
        for slot in slots {
            let pool: Vec<CardId> = (0..db.len() as CardId)
                .filter(|&i| slot.ctype.is_none_or(|t| db.card(i).ctype == t))
                .collect();
            if pool.is_empty() {
                return Err(
                    format!("the card pool has no {:?} card for a pack slot", slot.ctype).into(),
                );
            }
            for _ in 0..slot.count {
                out.push(pool[rng.gen_range(0..pool.len())]);
            }
        }
    }
    Ok(out)
}

/// A deck file for `cards` (one line per distinct card, in first-seen order).
pub fn deck_text(db: &CardDb, cards: &[CardId], format: Format, comment: &str) -> String {
    let mut s = format!("# {comment}\n");
    if format == Format::Blitz {
        s.push_str("# format: blitz\n");
    }
    s.push_str(&crate::core::def::deck_lines(
        cards.iter().map(|&c| u32::from(c)),
        |id| db.card(id as CardId).full_name(),
    ));
    s
}
