//! Shared set-up of the benches: the bundled decks and the fixed positions in `benches/positions`.
//! (Each bench uses part of it.)
#![allow(dead_code)]

use std::path::PathBuf;
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::scenario::Scenario;
use tcgsim::games::trails::{bundled_cards, State};
use tcgsim::TrailsGame;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Aggro (P1) against control (P2), the pairing of `tcgsim bench`.
pub fn aggro_control() -> TrailsGame {
    let db = bundled_cards();
    let a = Deck::load(&root().join("decks/trails/aggro.deck"), &db).unwrap();
    let b = Deck::load(&root().join("decks/trails/control.deck"), &db).unwrap();
    TrailsGame::new(db, a.cards, b.cards)
}

/// A fixed position from `benches/positions/NAME.scn`, with its game.
pub fn position(name: &str) -> (TrailsGame, State) {
    let path = root().join(format!("benches/positions/{name}.scn"));
    let text = std::fs::read_to_string(&path).unwrap();
    let sc = Scenario::parse(&text, &path.display().to_string(), bundled_cards()).unwrap();
    let (s, err) = sc.run();
    assert!(err.is_none());
    (sc.game, s)
}
