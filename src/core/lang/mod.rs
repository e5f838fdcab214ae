//! The card language every game shares (`docs/cards.md`, "The card language").
//!
//! A card's abilities are written in one grammar: abilities separated by `|`; an ability is
//! `HEAD[COSTS] [if COND]: BODY`, the head a way to play the card, an activated ability, `static`,
//! an event (a triggered ability) or `instead EVENT` (a replacement); the body effects separated
//! by `;`, with `if … then … else …`, `choose (…) or (…)` and `may (…) then (…)`; card sets
//! (`self`, `that`, `target own unit cost<=2`, `all enemy units`, `up_to 2 own cards in trail`),
//! values (`2`, `count own units org=police`, `+1000 per own cards in adolla`), conditions and
//! durations are the same in every game. Each game gives the words ([`vocab::Vocab`]): its
//! triggers, zones, nouns, stats, keywords and verbs, each verb with one pattern for its arguments,
//! so the same idea is spelled the same way in all three games.
//!
//! - [`lex`] splits a cell into words; [`parse`] reads them into the tree of [`ast`] with errors
//!   that name the word, what could stand there and the likely misspelling ([`suggest`]);
//! - [`render`] writes a tree back in the canonical form (parsed again, it gives the same tree: the
//!   round trip every card of every pool is tested with) and in plain English;
//! - each game compiles the tree into its engine's compact types, refusing what its engine does
//!   not play with a reason.

pub mod ast;
pub mod doc;
pub mod eval;
pub mod lex;
pub mod migrate;
pub mod parse;
pub mod program;
pub mod render;
pub mod suggest;
pub mod vocab;

pub use ast::*;
pub use parse::{parse, Error};
pub use render::{canonical, english};
