//! TMNT deck files (M-DECK-1): one `COUNT NUMBER` per line, `#` comments. Every problem is
//! reported with its line.

use super::cards::{CardDb, CardId};
use crate::core::input::{content_lines, deck_line, InputError, InputErrors};

/// One player's deck.
#[derive(Clone, Debug)]
pub struct TmntDeck {
    pub name: String,
    pub cards: Vec<CardId>,
}

/// M-DECK-1: the deck size and the most cards of one title.
pub const DECK_SIZE: usize = 40;
pub const MAX_TITLE: usize = 3;

/// Parses a deck file's text: every problem as `file:line: reason`.
pub fn parse_deck(
    text: &str,
    file: &str,
    name: &str,
    db: &CardDb,
) -> Result<TmntDeck, InputErrors> {
    let mut problems: Vec<InputError> = Vec::new();
    let mut cards: Vec<CardId> = Vec::new();
    let mut first_line: Vec<(u8, usize)> = Vec::new();
    for (n, l) in content_lines(text) {
        if problems.len() >= 50 {
            problems.push(InputError::new(file, 0, "stopped after 50 problems"));
            break;
        }
        let (count, id) = match deck_line(l, file, n, |key| db.lookup(key)) {
            Ok(x) => x,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        // Bounded memory: no deck holds more than 40 cards (M-DECK-1), whatever the file says.
        if cards.len() + count > DECK_SIZE {
            problems.push(InputError::new(
                file,
                n,
                format!("more than {DECK_SIZE} cards (M-DECK-1)"),
            ));
            continue;
        }
        let title = db.card(id).title;
        if !first_line.iter().any(|(t, _)| *t == title) {
            first_line.push((title, n));
        }
        cards.extend(std::iter::repeat_n(id, count));
    }
    for &(t, n) in &first_line {
        let copies = cards.iter().filter(|&&c| db.card(c).title == t).count();
        if copies > MAX_TITLE {
            let c = db
                .cards
                .iter()
                .find(|c| c.title == t)
                .expect("a title of a card");
            problems.push(InputError::new(file, n, format!("{copies} cards titled \"{}\": a deck has at most {MAX_TITLE} of one title (M-DECK-1)",
                c.name)));
        }
    }
    if cards.len() != DECK_SIZE {
        problems.push(InputError::new(
            file,
            0,
            format!(
                "{} cards; a deck has exactly {DECK_SIZE} (M-DECK-1)",
                cards.len()
            ),
        ));
    }
    if problems.is_empty() {
        Ok(TmntDeck {
            name: name.to_string(),
            cards,
        })
    } else {
        Err(InputErrors(problems))
    }
}
