//! Players, generic over [`crate::core::Game`]. An agent sees the state only through what its
//! player may know: search agents determinize before they look.

mod heuristic;
pub mod mcts;
pub mod pimc;
pub mod playout;
mod random;
mod spec;

pub use heuristic::HeuristicAgent;
pub use random::RandomAgent;
pub use spec::AgentSpec;

use crate::core::{Game, Seat};

/// A player of game `G`.
pub trait Agent<G: Game> {
    /// A short name for reports.
    fn name(&self) -> String;
    /// Chooses one of the legal actions for `seat` in `state`.
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action;
}
