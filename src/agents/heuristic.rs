use super::Agent;
use crate::core::{rng_from_seed, ActionList, GameRng, Policy, Seat};

/// Plays the game's own rule-of-thumb policy ([`Policy::heuristic_action`]): fast and sensible, the
/// default playout policy of the search agents and the default agent of large matrices.
pub struct HeuristicAgent<G: Policy> {
    rng: GameRng,
    /// Reused between decisions, so a choice writes no fresh list.
    list: ActionList<G::Action>,
}

impl<G: Policy> HeuristicAgent<G> {
    pub fn new(seed: u64) -> Self {
        HeuristicAgent {
            rng: rng_from_seed(seed),
            list: ActionList::new(),
        }
    }
}

impl<G: Policy> Agent<G> for HeuristicAgent<G> {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn choose(&mut self, game: &G, state: &G::State, _seat: Seat) -> G::Action {
        game.legal_actions(state, &mut self.list);
        game.heuristic_action(state, &self.list, &mut self.rng)
    }
}
