use super::Agent;
use crate::core::{rng_from_seed, ActionList, Game, GameRng, Seat};
use rand::Rng;

/// Picks a legal action uniformly at random, from its own seeded RNG.
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: rng_from_seed(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &G, state: &G::State, _seat: Seat) -> G::Action {
        let mut list = ActionList::new();
        game.legal_actions(state, &mut list);
        assert!(!list.is_empty(), "choose called with no legal action");
        list[self.rng.gen_range(0..list.len())]
    }
}
