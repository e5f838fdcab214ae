//! Self-play: running games between agents.

pub mod arena;
pub mod balance;
pub mod bench;
pub mod cards;
pub mod checkpoint;
mod duel;
pub mod matrix;
pub mod output;
pub mod record;
pub mod schedule;
pub mod tune;

pub use duel::{duel, duel_game};

use crate::agents::Agent;
use crate::core::{Game, Outcome, Seat};

/// What one game produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub outcome: Outcome,
    pub turns: u32,
    pub decisions: u32,
}

/// Plays one game to its end. `observe` sees every action with the state before and after it.
pub fn play_game<G: Game>(
    game: &G,
    seed: u64,
    first: Seat,
    agents: [&mut dyn Agent<G>; 2],
    observe: impl FnMut(&G::State, Seat, G::Action, &G::State),
) -> GameRecord {
    play_game_to_end(game, seed, first, agents, observe).0
}

/// [`play_game`], also returning the final state.
pub fn play_game_to_end<G: Game>(
    game: &G,
    seed: u64,
    first: Seat,
    agents: [&mut dyn Agent<G>; 2],
    mut observe: impl FnMut(&G::State, Seat, G::Action, &G::State),
) -> (GameRecord, G::State) {
    let mut s = game.new_game(seed, first);
    let mut decisions = 0u32;
    while let Some(seat) = game.to_move(&s) {
        let a = agents[seat.index()].choose(game, &s, seat);
        let before = s;
        game.apply(&mut s, a);
        observe(&before, seat, a, &s);
        decisions += 1;
    }
    let rec = GameRecord {
        outcome: game.outcome(&s).expect("a finished game has an outcome"),
        turns: game.turn(&s),
        decisions,
    };
    (rec, s)
}
