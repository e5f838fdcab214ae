//! Single-observer Information Set MCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo
//! Tree Search", IEEE TCIAIG 4(2), 2012), and the same search on the true state ("cheat").
//!
//! Each iteration samples a determinization of everything the observer cannot see
//! ([`Game::determinize`]); selection uses UCB over the children legal in that determinization,
//! with **availability counts** (the parent term counts the iterations in which the child was
//! available); one untried legal action is expanded; a playout scores the leaf; every node on the
//! path adds the result of the player who chose its action. The final move is the most visited.
//! The tree lives in an arena reused between decisions: no allocation per iteration once warm.

use super::playout::{playout, Policy};
use super::Agent;
use crate::core::{mix_seed, rng_from_seed, ActionList, Game, GameRng, Seat};
use rand::Rng;
use std::time::{Duration, Instant};

/// The default chance of a random action in a heuristic playout (ε-greedy, `docs/agents.md`):
/// playouts that always follow the heuristic make the search on a known state read the same
/// result for every action in 42% of positions, and cost ISMCTS strength too.
pub const DEFAULT_EPS: f64 = 0.25;

/// Settings of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision (per tree), unless `time` is set.
    pub iterations: u32,
    /// Time per decision instead of iterations.
    pub time: Option<Duration>,
    /// UCB exploration constant.
    pub c: f64,
    pub playout: Policy,
    /// Chance of a random action at each playout decision of the heuristic policy (ε-greedy).
    pub eps: f64,
    /// Playout cut-off in decisions (0: play to the end), scored by the game's evaluation.
    pub depth: u32,
    /// Independent trees for one decision (root parallelism); visit counts are summed.
    pub trees: u32,
    /// `false`: search the true state (the cheating yardstick).
    pub determinize: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 2000,
            time: None,
            c: 0.7,
            playout: Policy::Heuristic,
            eps: DEFAULT_EPS,
            depth: 0,
            trees: 1,
            determinize: true,
        }
    }
}

const NONE: u32 = u32::MAX;

/// The most tree nodes of one decision, over all its trees (16,777,216, about 800 MB): an
/// iteration budget may not ask for more (`iters × threads`), and a time budget stops there.
pub const MAX_TREE_NODES: u32 = 1 << 24;

#[derive(Clone, Copy, Debug)]
struct Node<A> {
    /// The action that leads here from the parent.
    action: A,
    /// Who chose that action.
    mover: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Iterations in which this node was available for selection.
    avail: u32,
    /// Sum of the mover's results.
    reward: f64,
}

/// One search tree in a reusable arena.
pub struct Tree<G: Game> {
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    list: ActionList<G::Action>,
    untried: ActionList<G::Action>,
    /// Playout decisions made in the last search (for throughput figures).
    pub playout_decisions: u64,
    /// Iterations run in the last search.
    pub iterations: u64,
}

impl<G: Game> Default for Tree<G> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            path: Vec::new(),
            list: ActionList::new(),
            untried: ActionList::new(),
            playout_decisions: 0,
            iterations: 0,
        }
    }
}

impl<G: Game> Tree<G> {
    fn push(&mut self, action: G::Action, mover: Seat, parent: u32) -> u32 {
        let id = self.nodes.len() as u32;
        let sibling = if parent == NONE {
            NONE
        } else {
            self.nodes[parent as usize].first_child
        };
        self.nodes.push(Node {
            action,
            mover,
            first_child: NONE,
            next_sibling: sibling,
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
        if parent != NONE {
            self.nodes[parent as usize].first_child = id;
        }
        id
    }

    /// The root's children after a search: (action, visits, mean result of the player to move).
    pub fn root_stats(&self) -> impl Iterator<Item = (G::Action, u32, f64)> + '_ {
        let mut c = self.nodes.first().map_or(NONE, |n| n.first_child);
        std::iter::from_fn(move || {
            if c == NONE {
                return None;
            }
            let n = &self.nodes[c as usize];
            c = n.next_sibling;
            Some((n.action, n.visits, n.reward / f64::from(n.visits.max(1))))
        })
    }

    /// Runs a search from `root` for `observer` and returns the visit count of each root action
    /// (written into `out` as (action, visits)).
    pub fn search(
        &mut self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
        out: &mut Vec<(G::Action, u32)>,
    ) {
        self.nodes.clear();
        // Room for any path and root the first search will ever need, so that later searches
        // never allocate (a tree deeper than 1,024 plies would grow it once).
        self.path.clear();
        self.path.reserve(1024);
        out.clear();
        out.reserve(crate::core::MAX_ACTIONS);
        // An iteration adds at most one node: with an iteration budget the tree never outgrows
        // this (a search that reached the end of the game in its tree added fewer).
        if cfg.time.is_none() {
            self.nodes.reserve(cfg.iterations as usize + 1);
        }
        self.playout_decisions = 0;
        self.iterations = 0;
        self.push(G::Action::default(), observer, NONE);
        let deadline = cfg.time.map(|t| Instant::now() + t);
        let mut it = 0u32;
        loop {
            match deadline {
                Some(d) => {
                    // Check the clock every 16 iterations.
                    if it.is_multiple_of(16) && Instant::now() >= d && it > 0 {
                        break;
                    }
                }
                None => {
                    if it >= cfg.iterations {
                        break;
                    }
                }
            }
            if self.nodes.len() as u64 >= u64::from(MAX_TREE_NODES / cfg.trees.max(1)) {
                break;
            }
            self.iterate(game, root, observer, cfg, rng);
            it += 1;
        }
        self.iterations = u64::from(it);
        out.clear();
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            out.push((n.action, n.visits));
            c = n.next_sibling;
        }
    }

    fn iterate(
        &mut self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
    ) {
        let mut s = if cfg.determinize {
            game.determinize(root, observer, rng)
        } else {
            *root
        };
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(mover) = game.to_move(&s) {
            game.legal_actions(&s, &mut self.list);
            // Children legal here gain availability; untried actions are the legal ones with no
            // child yet.
            self.untried.clear();
            for &a in self.list.iter() {
                self.untried.push(a);
            }
            let mut best = NONE;
            let mut best_ucb = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let a = self.nodes[c as usize].action;
                if let Some(k) = self.untried.iter().position(|&x| x == a) {
                    self.untried.remove(k);
                    let n = &mut self.nodes[c as usize];
                    n.avail += 1;
                    let ucb = n.reward / f64::from(n.visits)
                        + cfg.c * (f64::from(n.avail).ln() / f64::from(n.visits)).sqrt();
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                c = self.nodes[c as usize].next_sibling;
            }
            if !self.untried.is_empty() {
                let a = self.untried[rng.gen_range(0..self.untried.len())];
                let child = self.push(a, mover, node);
                self.nodes[child as usize].avail = 1;
                game.apply(&mut s, a);
                self.path.push(child);
                break;
            }
            let a = self.nodes[best as usize].action;
            game.apply(&mut s, a);
            self.path.push(best);
            node = best;
        }
        // Playout.
        let (result, n) = playout(
            game,
            &mut s,
            cfg.playout,
            cfg.eps,
            cfg.depth,
            &mut self.list,
            rng,
        );
        self.playout_decisions += u64::from(n);
        // Backpropagation: each node adds the result of the player who chose its action.
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += result[n.mover.index()];
        }
    }
}

/// The ISMCTS agent (or, with `determinize: false`, the cheating MCTS).
pub struct MctsAgent<G: Game> {
    cfg: MctsConfig,
    seed: u64,
    decisions: u64,
    trees: Vec<Tree<G>>,
    counts: Vec<(G::Action, u32)>,
    scratch: Vec<Vec<(G::Action, u32)>>,
}

impl<G: Game> MctsAgent<G> {
    pub fn new(cfg: MctsConfig, seed: u64) -> Self {
        let k = cfg.trees.max(1) as usize;
        MctsAgent {
            cfg,
            seed,
            decisions: 0,
            trees: (0..k).map(|_| Tree::default()).collect(),
            counts: Vec::new(),
            scratch: vec![Vec::new(); k],
        }
    }

    /// Iterations and playout decisions of the last decision, summed over trees.
    pub fn last_work(&self) -> (u64, u64) {
        self.trees.iter().fold((0, 0), |(i, p), t| {
            (i + t.iterations, p + t.playout_decisions)
        })
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        if self.cfg.determinize {
            "ismcts".into()
        } else {
            "cheat".into()
        }
    }

    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action {
        let mut list = ActionList::new();
        game.legal_actions(state, &mut list);
        if list.len() == 1 {
            return list[0];
        }
        self.decisions += 1;
        let cfg = self.cfg;
        let base = mix_seed(&[self.seed, self.decisions]);
        if self.trees.len() == 1 {
            let mut rng = rng_from_seed(base);
            self.trees[0].search(game, state, seat, &cfg, &mut rng, &mut self.scratch[0]);
        } else {
            use rayon::prelude::*;
            self.trees
                .par_iter_mut()
                .zip(self.scratch.par_iter_mut())
                .enumerate()
                .for_each(|(k, (t, out))| {
                    let mut rng = rng_from_seed(mix_seed(&[base, k as u64]));
                    t.search(game, state, seat, &cfg, &mut rng, out);
                });
        }
        // Sum visits per action over trees, in the order of the legal list (deterministic).
        self.counts.clear();
        for &a in list.iter() {
            let v: u32 = self
                .scratch
                .iter()
                .flat_map(|o| o.iter())
                .filter(|(x, _)| *x == a)
                .map(|(_, v)| *v)
                .sum();
            self.counts.push((a, v));
        }
        let mut best = self.counts[0];
        for &c in &self.counts[1..] {
            if c.1 > best.1 {
                best = c;
            }
        }
        best.0
    }
}
