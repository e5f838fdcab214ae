//! Flat Monte Carlo over determinizations (Perfect Information Monte Carlo): sample `dets`
//! determinizations of what the player cannot see; in each, spread `iters` playouts round-robin
//! over the legal actions; play the action with the best average result.

use super::playout::{playout, Policy};
use super::Agent;
use crate::core::{mix_seed, rng_from_seed, ActionList, Game, Seat};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PimcConfig {
    pub dets: u32,
    /// Playouts per determinization.
    pub iters: u32,
    pub playout: Policy,
    /// Chance of a random action at each playout decision of the heuristic policy (ε-greedy).
    pub eps: f64,
    pub depth: u32,
}

impl Default for PimcConfig {
    fn default() -> Self {
        PimcConfig {
            dets: 16,
            iters: 64,
            playout: Policy::Heuristic,
            eps: super::mcts::DEFAULT_EPS,
            depth: 0,
        }
    }
}

pub struct PimcAgent<G: Game> {
    cfg: PimcConfig,
    seed: u64,
    decisions: u64,
    sums: Vec<(f64, u32)>,
    list: ActionList<G::Action>,
    scratch: ActionList<G::Action>,
}

impl<G: Game> PimcAgent<G> {
    pub fn new(cfg: PimcConfig, seed: u64) -> Self {
        PimcAgent {
            cfg,
            seed,
            decisions: 0,
            sums: Vec::new(),
            list: ActionList::new(),
            scratch: ActionList::new(),
        }
    }
}

impl<G: crate::core::Policy> Agent<G> for PimcAgent<G> {
    fn name(&self) -> String {
        "pimc".into()
    }

    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action {
        game.legal_actions(state, &mut self.list);
        if self.list.len() == 1 {
            return self.list[0];
        }
        self.decisions += 1;
        let mut rng = rng_from_seed(mix_seed(&[self.seed, self.decisions]));
        self.sums.clear();
        self.sums.resize(self.list.len(), (0.0, 0));
        for _ in 0..self.cfg.dets {
            let det = game.determinize(state, seat, &mut rng);
            for j in 0..self.cfg.iters as usize {
                let k = j % self.list.len();
                let mut s = det;
                game.apply(&mut s, self.list[k]);
                let (r, _) = playout(
                    game,
                    &mut s,
                    self.cfg.playout,
                    self.cfg.eps,
                    self.cfg.depth,
                    &mut self.scratch,
                    &mut rng,
                );
                self.sums[k].0 += r[seat.index()];
                self.sums[k].1 += 1;
            }
        }
        let mean = |(sum, n): (f64, u32)| {
            if n == 0 {
                f64::NEG_INFINITY
            } else {
                sum / f64::from(n)
            }
        };
        let mut best = 0;
        for k in 1..self.list.len() {
            if mean(self.sums[k]) > mean(self.sums[best]) {
                best = k;
            }
        }
        self.list[best]
    }
}
