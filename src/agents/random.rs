use super::Agent;
use crate::core::{below, rng_from_seed, ActionList, Game, GameRng, Seat};

/// Picks a legal action uniformly at random, from its own seeded RNG (Lemire's draw,
/// [`below`]).
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    /// Reused between decisions, so a choice writes no fresh list.
    list: ActionList<G::Action>,
}

impl<G: Game> RandomAgent<G> {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: rng_from_seed(seed),
            list: ActionList::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &G, state: &G::State, _seat: Seat) -> G::Action {
        game.legal_actions(state, &mut self.list);
        assert!(!self.list.is_empty(), "choose called with no legal action");
        self.list[below(&mut self.rng, self.list.len())]
    }
}
