use super::Agent;
use crate::core::{rng_from_seed, ActionList, Game, GameRng, Seat};

/// Plays the game's own rule-of-thumb policy ([`Game::heuristic_action`]): fast and sensible, the
/// default playout policy of the search agents and the default agent of large matrices.
pub struct HeuristicAgent {
    rng: GameRng,
}

impl HeuristicAgent {
    pub fn new(seed: u64) -> Self {
        HeuristicAgent {
            rng: rng_from_seed(seed),
        }
    }
}

impl<G: Game> Agent<G> for HeuristicAgent {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn choose(&mut self, game: &G, state: &G::State, _seat: Seat) -> G::Action {
        let mut list = ActionList::new();
        game.legal_actions(state, &mut list);
        game.heuristic_action(state, &list, &mut self.rng)
    }
}
