//! Deck files: one `COUNT NAME[ / SUB-NAME]` per line, `#` comments, and an optional
//! `# format: blitz` line (default Strategy). Validated against T-DECK; every problem is reported
//! with its line.

use super::cards::{CardDb, CardId};
use std::fmt;
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

/// One problem in a deck file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckProblem {
    pub file: String,
    /// 0 when the problem is about the whole deck.
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for DeckProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

/// All the problems of a deck file.
#[derive(Debug, Clone, thiserror::Error)]
pub struct DeckError(pub Vec<DeckProblem>);

impl fmt::Display for DeckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, p) in self.0.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

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
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            DeckError(vec![DeckProblem {
                file: file.clone(),
                line: 0,
                msg: format!("cannot read: {e}"),
            }])
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.clone());
        Deck::parse(&text, &file, &name, db)
    }

    /// Parses and validates deck text; `file` names it in problems.
    pub fn parse(text: &str, file: &str, name: &str, db: &CardDb) -> Result<Deck, DeckError> {
        let mut problems = Vec::new();
        let mut problem = |line: usize, msg: String| {
            problems.push(DeckProblem {
                file: file.to_string(),
                line,
                msg,
            })
        };
        let mut format = Format::Strategy;
        // With an unresolved name, the count would only repeat the error.
        let mut unknown = false;
        let mut description = String::new();
        let mut cards = Vec::new();
        // (card, total copies, first line)
        let mut counts: Vec<(CardId, usize, usize)> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
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
            let count: usize = match count.trim_end_matches(['x', 'X']).parse() {
                Ok(c) if c > 0 => c,
                _ => {
                    problem(
                        line,
                        format!(
                            "expected `COUNT NAME`, found \"{body}\" (COUNT is a whole number ≥ 1)"
                        ),
                    );
                    continue;
                }
            };
            if card.is_empty() {
                problem(line, format!("missing card name after the count {count}"));
                continue;
            }
            match db.lookup(card) {
                Ok(id) => {
                    cards.extend(std::iter::repeat_n(id, count));
                    match counts.iter_mut().find(|(c, _, _)| *c == id) {
                        Some(e) => e.1 += count,
                        None => counts.push((id, count, line)),
                    }
                }
                Err(e) => {
                    unknown = true;
                    problem(line, format!("\"{card}\": {e}"));
                }
            }
        }
        if format == Format::Strategy {
            for &(id, n, line) in &counts {
                let c = db.card(id);
                // T-DECK-1: at most 4 copies, unless the sub-name is "General".
                if n > 4 && !c.is_general() {
                    problem(
                        line,
                        format!(
                            "{n} copies of \"{}\": a Strategy deck allows at most 4 (T-DECK-1)",
                            c.full_name()
                        ),
                    );
                }
            }
        }
        if cards.len() != format.size() && !unknown {
            problem(
                0,
                format!(
                    "{} cards: a {} deck has exactly {} (T-DECK-{})",
                    cards.len(),
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
pub fn parse_pack(text: &str) -> Result<Vec<PackSlot>, String> {
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
                ))
            }
        };
        let count = v
            .trim()
            .parse()
            .map_err(|_| format!("pack slot \"{part}\": \"{v}\" is not a whole number"))?;
        out.push(PackSlot { ctype, count });
    }
    if out.iter().map(|s| s.count).sum::<usize>() == 0 {
        return Err("a pack needs at least one card".into());
    }
    Ok(out)
}

/// T-DECK-2 (decision): a sealed pool opened from `packs` random packs of the card pool. Each slot
/// draws uniformly among the cards of its type (the sample pool has no rarity data).
pub fn sealed_pool(
    db: &CardDb,
    packs: usize,
    slots: &[PackSlot],
    rng: &mut crate::core::GameRng,
) -> Result<Vec<CardId>, String> {
    use rand::Rng;
    let mut out = Vec::new();
    for _ in 0..packs {
        for slot in slots {
            let pool: Vec<CardId> = (0..db.len() as CardId)
                .filter(|&i| slot.ctype.is_none_or(|t| db.card(i).ctype == t))
                .collect();
            if pool.is_empty() {
                return Err(format!(
                    "the card pool has no {:?} card for a pack slot",
                    slot.ctype
                ));
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
    let mut counts: Vec<(CardId, usize)> = Vec::new();
    for &c in cards {
        match counts.iter_mut().find(|(id, _)| *id == c) {
            Some(e) => e.1 += 1,
            None => counts.push((c, 1)),
        }
    }
    let mut s = format!("# {comment}\n");
    if format == Format::Blitz {
        s.push_str("# format: blitz\n");
    }
    for (id, n) in counts {
        s.push_str(&format!("{n} {}\n", db.card(id).full_name()));
    }
    s
}
