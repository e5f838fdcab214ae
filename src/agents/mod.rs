//! Players, generic over [`crate::core::Game`]. An agent sees the state only through what its
//! player may know: search agents determinize before they look.

mod heuristic;
pub mod mcts;
pub mod pimc;
pub mod playout;
pub mod process;
mod random;
mod spec;

pub use heuristic::HeuristicAgent;
pub use random::RandomAgent;
pub use spec::AgentSpec;

use crate::core::{Game, Seat};

/// Why an agent could not choose (a process agent that exited, wrote garbage, answered an illegal
/// action or timed out): its game ends as a forfeit (`sim::play_game_to_end`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, naming the agent and the seat.
    pub message: String,
    /// Whether the run must stop (`--on-agent-error abort`): the forfeited game is then not
    /// counted.
    pub abort: bool,
}

/// A player of game `G`.
pub trait Agent<G: Game> {
    /// A short name for reports.
    fn name(&self) -> String;
    /// Chooses one of the legal actions for `seat` in `state`.
    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action;
    /// [`Agent::choose`] for an agent that can fail: an error ends the game as a forfeit. Called
    /// instead of `choose` only for [`Agent::supervised`] agents.
    fn try_choose(&mut self, game: &G, state: &G::State, seat: Seat) -> Result<G::Action, Failure> {
        Ok(self.choose(game, state, seat))
    }
    /// Whether the agent may fail ([`Agent::try_choose`]) or wants to see every action of its
    /// games ([`Agent::observe`]). Asked once a game: a game of agents that are not supervised
    /// runs the plain loop (`choose` only), so the built-in agents pay nothing for either.
    fn supervised(&self) -> bool {
        false
    }
    /// Sees `action` by `actor` from `before` to `after`, as the agent of seat `me` (called only
    /// when [`Agent::supervised`]). It must use only what `me` may see of it.
    #[allow(clippy::too_many_arguments)]
    fn observe(
        &mut self,
        _game: &G,
        _me: Seat,
        _before: &G::State,
        _actor: Seat,
        _action: G::Action,
        _after: &G::State,
    ) {
    }
}
