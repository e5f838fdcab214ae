//! Fire Force deck files (F-DECK): one `COUNT NUMBER` per line, `#` comments, a `[flame]` section
//! for the Flame deck, and an optional `# format: blitz` line (default Strategy). Every problem is
//! reported with its line.

use super::cards::{CardDb, CardId, CardType};
use super::state::FLAME_DECK;
use crate::core::input::{content_lines, deck_line, excerpt, InputError, InputErrors};
use std::fmt::Write as _;

/// F-DECK-1, F-DECK-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Strategy,
    BlitzShield,
}

impl Format {
    pub fn size(self) -> usize {
        match self {
            Format::Strategy => 40,
            Format::BlitzShield => 35,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Strategy => "Strategy",
            Format::BlitzShield => "Blitz Shield",
        }
    }
}

/// One player's decks: the main deck and the Flame deck (F-DECK-3).
#[derive(Clone, Debug)]
pub struct FfDeck {
    pub name: String,
    pub format: Format,
    pub main: Vec<CardId>,
    pub flame: Vec<CardId>,
}

/// Parses a deck file's text: every problem as `file:line: reason`.
pub fn parse_deck(text: &str, file: &str, name: &str, db: &CardDb) -> Result<FfDeck, InputErrors> {
    let mut problems: Vec<InputError> = Vec::new();
    let mut format = Format::Strategy;
    for (n, l) in text.lines().enumerate() {
        if let Some(c) = l.trim().strip_prefix('#') {
            if let Some(f) = c.trim().strip_prefix("format:") {
                match f.trim().to_ascii_lowercase().as_str() {
                    "blitz" | "blitz shield" => format = Format::BlitzShield,
                    "strategy" => format = Format::Strategy,
                    other => problems.push(InputError::new(
                        file,
                        n + 1,
                        format!(
                            "unknown format \"{}\" (expected strategy or blitz)",
                            excerpt(other)
                        ),
                    )),
                }
            }
        }
    }
    let mut main = Vec::new();
    let mut flame = Vec::new();
    let mut first_line: Vec<(CardId, usize)> = Vec::new();
    let mut in_flame = false;
    for (n, l) in content_lines(text) {
        if problems.len() >= 50 {
            problems.push(InputError::new(file, 0, "stopped after 50 problems"));
            break;
        }
        if l.starts_with('[') {
            if l.eq_ignore_ascii_case("[flame]") && !in_flame {
                in_flame = true;
            } else {
                problems.push(InputError::new(
                    file,
                    n,
                    format!(
                        "unexpected \"{}\" (a deck has one [flame] section, F-DECK-3)",
                        excerpt(l)
                    ),
                ));
            }
            continue;
        }
        let (count, id) = match deck_line(l, file, n, |key| db.lookup(key)) {
            Ok(x) => x,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let c = db.card(id);
        let is_flame = c.ctype == CardType::Flame;
        if is_flame != in_flame {
            problems.push(InputError::new(
                file,
                n,
                format!(
                    "{} is a {} card: {} (F-DECK-3)",
                    c.name,
                    if is_flame { "Flame" } else { "non-Flame" },
                    if is_flame {
                        "it belongs in the [flame] section"
                    } else {
                        "the [flame] section holds Flame cards only"
                    }
                ),
            ));
            continue;
        }
        if !first_line.iter().any(|(x, _)| *x == id) {
            first_line.push((id, n));
        }
        let to = if in_flame { &mut flame } else { &mut main };
        // Bounded memory: no deck holds more than 40 cards (F-DECK-1), whatever the file says.
        if to.len() + count > 40 {
            problems.push(InputError::new(
                file,
                n,
                format!(
                    "more than 40 cards in the {} (F-DECK-1)",
                    if in_flame { "Flame deck" } else { "deck" }
                ),
            ));
            continue;
        }
        to.extend(std::iter::repeat_n(id, count));
    }
    if format == Format::Strategy {
        for &(id, n) in &first_line {
            let copies = main.iter().filter(|&&x| x == id).count();
            if copies > 2 {
                problems.push(InputError::new(file, n, format!("{copies} copies of {} {}: a Strategy deck has at most 2 of a card number (F-DECK-1)",
                    db.card(id).number,
                    db.card(id).name)));
            }
        }
    }
    if main.len() != format.size() {
        problems.push(InputError::new(
            file,
            0,
            format!(
                "{} cards; a {} deck has exactly {} non-Flame cards ({})",
                main.len(),
                format.name(),
                format.size(),
                if format == Format::Strategy {
                    "F-DECK-1"
                } else {
                    "F-DECK-2"
                }
            ),
        ));
    }
    if flame.len() != FLAME_DECK {
        problems.push(InputError::new(
            file,
            0,
            format!(
                "{} Flame cards; a Flame deck has exactly {FLAME_DECK} (F-DECK-1, F-DECK-2)",
                flame.len()
            ),
        ));
    }
    if problems.is_empty() {
        Ok(FfDeck {
            name: name.to_string(),
            format,
            main,
            flame,
        })
    } else {
        Err(InputErrors(problems))
    }
}

/// A deck file's text for `main` and `flame`, cards grouped and commented.
pub fn deck_text(
    db: &CardDb,
    main: &[CardId],
    flame: &[CardId],
    format: Format,
    plan: &str,
) -> String {
    let mut t = format!("# Plan: {plan}\n");
    if format == Format::BlitzShield {
        t.push_str("# format: blitz\n");
    }
    let group = |ids: &[CardId], t: &mut String| {
        let mut v = crate::core::def::distinct_with_copies(ids.iter().map(|&c| u32::from(c)));
        v.sort_by_key(|&(id, _)| (db.card(id as CardId).cost, id));
        for (id, n) in v {
            let c = db.card(id as CardId);
            let _ = writeln!(t, "{n} {}   # {}", c.number, c.name);
        }
    };
    group(main, &mut t);
    t.push_str("[flame]\n");
    group(flame, &mut t);
    t
}
