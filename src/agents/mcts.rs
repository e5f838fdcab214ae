//! Single-observer Information Set MCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo
//! Tree Search", IEEE TCIAIG 4(2), 2012), and the same search on the true state ("cheat").
//!
//! Each iteration samples a determinization of everything the observer cannot see
//! ([`Game::determinize`]); selection uses UCB over the children legal in that determinization,
//! with **availability counts** (the parent term counts the iterations in which the child was
//! available); one untried legal action is expanded; a playout scores the leaf; every node on the
//! path adds the result of the player who chose its action. The final move is the most visited.
//! The tree lives in an arena reused between decisions: no allocation per iteration once warm.
//!
//! **Tree reuse** (`reuse`): after a decision the tree keeps following the game along the edges of
//! what its player sees happen — its own actions, and the opponent's actions it sees whole — and
//! the next search starts from the node it reached, with the statistics below it, instead of an
//! empty tree. An opponent action it sees only in part (a card put face down) loses the tree; one it
//! does not see at all (Fire Force's hidden pass, F-INFO-4) changes nothing it knows, so the tree
//! stays where it was. What the player sees is the game's own log for that player
//! ([`crate::core::GameDef::narrate`]), so the choice to reuse reads nothing hidden.

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
    /// Keep the part of the tree that still applies from one decision to the next (module
    /// documentation): the iterations of a decision are added to those kept.
    pub reuse: bool,
    /// Weight of the heuristic's prior (progressive bias, issue 33): at each tree node the game's
    /// heuristic names its action in that iteration's determinization; that action is expanded
    /// first, and its child's selection value gains `prior / (visits + 1)`. 0: off.
    pub prior: f64,
    /// How the move is chosen after the search: 0 the most visited root action; 1 the best value
    /// among the root actions with at least a quarter of the most visits; 2 the best lower bound,
    /// value − c/√visits (secure child). Issue 33.
    pub final_move: u8,
    /// Weight of the game's static evaluation of the leaf (where the tree stops, before the
    /// playout) in an iteration's result: `(1 − blend)·playout + blend·evaluate`. 0: off.
    pub blend: f64,
    /// Mixmax backup of the player's own decisions (issue 33): a node's value is
    /// `(1 − mix)·mean + mix·best`, where `best` is the best value of its children that are the
    /// observer's own decisions with at least 8 visits. 0: plain means.
    pub mix: f64,
    /// Random playout actions (ε) only in the first `eps_depth` playout decisions; 0: in all.
    pub eps_depth: u32,
    /// Sequential halving at the root (issue 33; Karnin, Koren & Somekh 2013, as the root of
    /// H-MCTS, Pepels et al. 2014): the iteration budget is split into ⌈log2 K⌉ rounds over the K
    /// root actions; in each round every surviving action gets the same number of iterations,
    /// each action of a step in the same determinization (common random numbers, as PIMC), and
    /// the better half by mean result survives. Below the root, UCB as usual. The move is the
    /// best mean among the last survivors. Needs an iteration budget (with `ms`: off).
    pub halving: bool,
    /// The opponent is no part of the tree (issue 33): at its decisions inside the tree it plays
    /// the playout policy (ε-greedy heuristic), and the observer's next decision hangs below its
    /// previous one, whatever the opponent did (open loop), so hidden opponent moves do not split
    /// the observer's statistics.
    pub opp_policy: bool,
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
            reuse: false,
            prior: 0.0,
            final_move: 0,
            blend: 0.0,
            mix: 0.0,
            eps_depth: 0,
            halving: false,
            opp_policy: false,
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
    /// The mover's value of the node: the mean result, or with `mix` the mixmax value.
    value: f64,
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
    /// Where the game is in this tree after the actions seen since the last search (the root
    /// right after a search), or `NONE` when the tree no longer applies.
    cursor: u32,
    /// The arena a kept subtree is copied into, and the copy's work list.
    spare: Vec<Node<G::Action>>,
    stack: Vec<(u32, u32)>,
    /// Tree nodes kept from earlier decisions at the start of the last search.
    pub kept: u64,
    /// Sequential halving: the surviving root actions, with their mean result.
    arms: crate::core::FixedVec<(G::Action, f64), { crate::core::MAX_ACTIONS }>,
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
            cursor: NONE,
            spare: Vec::new(),
            stack: Vec::new(),
            kept: 0,
            arms: Default::default(),
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
            value: 0.0,
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

    /// The root's children after a search: (action, visits, value of the player to move), the
    /// value being the mean result or, with `mix`, the mixmax value.
    pub fn root_values(&self) -> impl Iterator<Item = (G::Action, u32, f64)> + '_ {
        let mut c = self.nodes.first().map_or(NONE, |n| n.first_child);
        std::iter::from_fn(move || {
            if c == NONE {
                return None;
            }
            let n = &self.nodes[c as usize];
            c = n.next_sibling;
            Some((n.action, n.visits, n.value))
        })
    }

    /// Follows `action` by `mover` from where the game is in the tree; the tree no longer applies
    /// when the search never tried it there.
    pub fn advance(&mut self, action: G::Action, mover: Seat) {
        if self.cursor == NONE {
            return;
        }
        let mut c = self.nodes[self.cursor as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.action == action && n.mover == mover {
                self.cursor = c;
                return;
            }
            c = n.next_sibling;
        }
        self.cursor = NONE;
    }

    /// The tree no longer applies (an action seen only in part).
    pub fn forget(&mut self) {
        self.cursor = NONE;
    }

    /// Makes the node `root` the root: its subtree is copied to the front of a fresh arena, in the
    /// same sibling order, without the root's children of another mover than `observer` (what the
    /// opponent did at once in some determinizations, where it did not in this game).
    fn reroot(&mut self, root: u32, observer: Seat) {
        self.spare.clear();
        self.stack.clear();
        let mut r = self.nodes[root as usize];
        r.first_child = NONE;
        r.next_sibling = NONE;
        self.spare.push(r);
        self.stack.push((root, 0));
        while let Some((old, new)) = self.stack.pop() {
            let mut prev = NONE;
            let mut c = self.nodes[old as usize].first_child;
            while c != NONE {
                let n = self.nodes[c as usize];
                if new != 0 || n.mover == observer {
                    let id = self.spare.len() as u32;
                    self.spare.push(Node {
                        first_child: NONE,
                        next_sibling: NONE,
                        ..n
                    });
                    if prev == NONE {
                        self.spare[new as usize].first_child = id;
                    } else {
                        self.spare[prev as usize].next_sibling = id;
                    }
                    prev = id;
                    self.stack.push((c, id));
                }
                c = n.next_sibling;
            }
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
    }
}

/// The search itself plays out with the game's policy (its heuristic and evaluation).
impl<G: crate::core::Policy> Tree<G> {
    /// Runs a search from `root` for `observer` and returns the visit count of each root action
    /// (written into `out` as (action, visits)). With `cfg.reuse`, the part of the last search's
    /// tree where the game now is ([`Tree::advance`]) is kept and the iterations are added to it.
    pub fn search(
        &mut self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
        out: &mut Vec<(G::Action, u32)>,
    ) {
        let cap = u64::from(MAX_TREE_NODES / cfg.trees.max(1));
        // A kept tree above half the cap would leave too little room to search.
        if cfg.reuse
            && self.cursor != NONE
            && self.cursor != 0
            && (self.nodes.len() as u64) < cap / 2
        {
            self.reroot(self.cursor, observer);
        } else {
            self.nodes.clear();
        }
        self.kept = self.nodes.len() as u64;
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
        if self.nodes.is_empty() {
            self.push(G::Action::default(), observer, NONE);
        }
        self.cursor = 0;
        let deadline = cfg.time.map(|t| Instant::now() + t);
        let mut it = 0u32;
        let halving = cfg.halving && cfg.time.is_none();
        if halving {
            it = self.halve(game, root, observer, cfg, rng);
        }
        loop {
            if halving {
                break;
            }
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
            if self.nodes.len() as u64 >= cap {
                break;
            }
            let s = self.world(game, root, observer, cfg, rng);
            self.iterate(game, s, observer, cfg, None, rng);
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

    /// The world of one iteration: a determinization, or the true state for the cheat.
    fn world(
        &self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
    ) -> G::State {
        if cfg.determinize {
            game.determinize(root, observer, rng)
        } else {
            *root
        }
    }

    /// Sequential halving over the root actions ([`MctsConfig::halving`]): spends the whole
    /// iteration budget (fewer when the tree reaches its cap).
    fn halve(
        &mut self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
    ) -> u32 {
        game.legal_actions(root, &mut self.list);
        self.arms.clear();
        for &a in self.list.iter() {
            self.arms.push((a, 0.0));
        }
        let k = self.arms.len().max(1) as u32;
        let rounds = (32 - (k - 1).leading_zeros()).max(1);
        let budget = cfg.iterations;
        let cap = MAX_TREE_NODES / cfg.trees.max(1);
        let mut used = 0u32;
        for r in 0..rounds {
            let n = self.arms.len() as u32;
            // This round's share of what is left, evenly over the survivors (at least one each).
            let share = (budget - used) / (rounds - r);
            let each = (share / n).max(1);
            for _ in 0..each {
                if used + n > budget || self.nodes.len() as u32 + n >= cap {
                    break;
                }
                let s = self.world(game, root, observer, cfg, rng);
                for i in 0..self.arms.len() {
                    let a = self.arms[i].0;
                    self.iterate(game, s, observer, cfg, Some(a), rng);
                }
                used += n;
            }
            // Keep the better half by mean result (ties: the earlier legal action).
            for i in 0..self.arms.len() {
                let a = self.arms[i].0;
                let mut q = f64::NEG_INFINITY;
                let mut c = self.nodes[0].first_child;
                while c != NONE {
                    let m = &self.nodes[c as usize];
                    if m.action == a && m.visits > 0 {
                        q = m.reward / f64::from(m.visits);
                    }
                    c = m.next_sibling;
                }
                self.arms[i].1 = q;
            }
            if r + 1 < rounds {
                // A stable order without allocating: insertion sort (K ≤ MAX_ACTIONS).
                let v = self.arms.as_mut_slice();
                for i in 1..v.len() {
                    let mut j = i;
                    while j > 0 && v[j - 1].1 < v[j].1 {
                        v.swap(j - 1, j);
                        j -= 1;
                    }
                }
                let keep = n.div_ceil(2) as usize;
                while self.arms.len() > keep {
                    self.arms.pop();
                }
            }
        }
        // What is left of the budget (rounding) goes to the survivors in turn.
        let mut i = 0;
        while used < budget && (self.nodes.len() as u32) < cap && !self.arms.is_empty() {
            let s = self.world(game, root, observer, cfg, rng);
            let a = self.arms[i % self.arms.len()].0;
            self.iterate(game, s, observer, cfg, Some(a), rng);
            used += 1;
            i += 1;
        }
        used
    }

    /// The action sequential halving chose in the last search: the best mean among the root
    /// actions that survived every round.
    pub fn halving_choice(&self) -> Option<(G::Action, f64)> {
        let mut best: Option<(G::Action, f64)> = None;
        for &(a, _) in self.arms.iter() {
            let mut c = self.nodes.first().map_or(NONE, |n| n.first_child);
            while c != NONE {
                let m = &self.nodes[c as usize];
                if m.action == a && m.visits > 0 {
                    let q = m.reward / f64::from(m.visits);
                    if best.is_none_or(|b| q > b.1) {
                        best = Some((a, q));
                    }
                }
                c = m.next_sibling;
            }
        }
        best
    }

    /// One iteration in the world `s`; `forced`: the root action to take when it is legal there.
    fn iterate(
        &mut self,
        game: &G,
        mut s: G::State,
        observer: Seat,
        cfg: &MctsConfig,
        forced: Option<G::Action>,
        rng: &mut GameRng,
    ) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(mover) = game.to_move(&s) {
            game.legal_actions(&s, &mut self.list);
            if cfg.opp_policy && mover != observer {
                let a = if cfg.playout == Policy::Random
                    || (cfg.eps > 0.0 && rng.gen::<f64>() < cfg.eps)
                {
                    self.list[rng.gen_range(0..self.list.len())]
                } else {
                    game.heuristic_action(&s, &self.list, rng)
                };
                game.apply(&mut s, a);
                continue;
            }
            // The heuristic's choice here, in this determinization (progressive bias).
            let hint = if cfg.prior > 0.0 {
                Some(game.heuristic_action(&s, &self.list, rng))
            } else {
                None
            };
            // Children legal here gain availability; untried actions are the legal ones with no
            // child yet.
            self.untried.clear_scratch();
            for &a in self.list.iter() {
                self.untried.push(a);
            }
            let force = if node == 0 {
                forced.filter(|a| self.list.contains(a))
            } else {
                None
            };
            let mut forced_child = NONE;
            let mut best = NONE;
            let mut best_ucb = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let a = self.nodes[c as usize].action;
                if force == Some(a) {
                    forced_child = c;
                }
                if let Some(k) = self.untried.iter().position(|&x| x == a) {
                    self.untried.remove(k);
                    let n = &mut self.nodes[c as usize];
                    n.avail += 1;
                    let q = if cfg.mix > 0.0 {
                        n.value
                    } else {
                        n.reward / f64::from(n.visits)
                    };
                    let mut ucb =
                        q + cfg.c * (f64::from(n.avail).ln() / f64::from(n.visits)).sqrt();
                    if hint == Some(a) {
                        ucb += cfg.prior / f64::from(n.visits + 1);
                    }
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                c = self.nodes[c as usize].next_sibling;
            }
            if let Some(f) = force {
                if forced_child != NONE {
                    best = forced_child;
                } else {
                    let child = self.push(f, mover, node);
                    self.nodes[child as usize].avail = 1;
                    game.apply(&mut s, f);
                    self.path.push(child);
                    break;
                }
            } else if !self.untried.is_empty() {
                let a = match hint {
                    Some(h) if self.untried.contains(&h) => h,
                    _ => self.untried[rng.gen_range(0..self.untried.len())],
                };
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
        // The leaf's static value, before the playout moves on from it.
        let leaf = if cfg.blend > 0.0 && game.to_move(&s).is_some() {
            Some(game.evaluate(&s, Seat::P1))
        } else {
            None
        };
        // Playout.
        let (mut result, n) = playout(
            game,
            &mut s,
            cfg.playout,
            cfg.eps,
            cfg.eps_depth,
            cfg.depth,
            &mut self.list,
            rng,
        );
        if let Some(v) = leaf {
            let b = cfg.blend;
            result = [
                (1.0 - b) * result[0] + b * v,
                (1.0 - b) * result[1] + b * (1.0 - v),
            ];
        }
        self.playout_decisions += u64::from(n);
        // Backpropagation: each node adds the result of the player who chose its action.
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += result[n.mover.index()];
            n.value = n.reward / f64::from(n.visits);
        }
        if cfg.mix > 0.0 {
            // Mixmax, from the leaf up: a node's value mixes its mean with the best value of
            // its children that are the observer's own decisions (well visited).
            for k in (0..self.path.len()).rev() {
                let id = self.path[k];
                let mut best = f64::NEG_INFINITY;
                let mut c = self.nodes[id as usize].first_child;
                while c != NONE {
                    let n = &self.nodes[c as usize];
                    if n.mover == observer && n.visits >= 8 && n.value > best {
                        best = n.value;
                    }
                    c = n.next_sibling;
                }
                if best > f64::NEG_INFINITY {
                    let n = &mut self.nodes[id as usize];
                    let ext = if n.mover == observer {
                        best
                    } else {
                        1.0 - best
                    };
                    n.value = (1.0 - cfg.mix) * n.value + cfg.mix * ext;
                }
            }
        }
    }
}

/// How much of an opponent's action a player sees, for tree reuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Nothing: the player's log has no line for it.
    Not,
    /// All of it: the player's log says what a log that reveals every card says.
    Whole,
    /// Some of it (a card it cannot see moved).
    Part,
}

/// What `me` sees of `action` by `actor` from `before` to `after`: the game's log for that seat
/// against the log that reveals everything (`GameDef::narrate`, whose views are tested for
/// no-peek).
pub fn seen_by<G: crate::core::GameDef>(
    game: &G,
    before: &G::State,
    actor: Seat,
    action: G::Action,
    after: &G::State,
    me: Seat,
) -> Seen {
    use crate::core::Viewer;
    let mine = game.narrate(before, actor, action, after, Viewer::Seat(me));
    if mine.is_empty() {
        Seen::Not
    } else if mine == game.narrate(before, actor, action, after, Viewer::All) {
        Seen::Whole
    } else {
        Seen::Part
    }
}

/// What a player sees of an opponent's action ([`seen_by`] for a game with logs).
pub type Sees<G> =
    fn(&G, &<G as Game>::State, Seat, <G as Game>::Action, &<G as Game>::State, Seat) -> Seen;

/// The ISMCTS agent (or, with `determinize: false`, the cheating MCTS).
pub struct MctsAgent<G: Game> {
    cfg: MctsConfig,
    seed: u64,
    decisions: u64,
    trees: Vec<Tree<G>>,
    counts: Vec<(G::Action, u32)>,
    scratch: Vec<Vec<(G::Action, u32)>>,
    /// What the player sees of the opponent's actions; tree reuse needs it.
    sees: Option<Sees<G>>,
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
            sees: None,
        }
    }

    /// The agent with what its player sees of opponents' actions ([`seen_by`]), so that `reuse`
    /// can follow the game between decisions. Without it the tree is never kept.
    pub fn with_sight(mut self, sees: Sees<G>) -> Self {
        self.sees = Some(sees);
        self
    }

    fn advance(&mut self, action: G::Action, mover: Seat) {
        for t in &mut self.trees {
            t.advance(action, mover);
        }
    }

    /// Iterations and playout decisions of the last decision, summed over trees.
    pub fn last_work(&self) -> (u64, u64) {
        self.trees.iter().fold((0, 0), |(i, p), t| {
            (i + t.iterations, p + t.playout_decisions)
        })
    }
}

impl<G: crate::core::Policy> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        if self.cfg.determinize {
            "ismcts".into()
        } else {
            "cheat".into()
        }
    }

    fn supervised(&self) -> bool {
        // Reuse follows the game through `observe`.
        self.cfg.reuse && self.sees.is_some()
    }

    fn observe(
        &mut self,
        game: &G,
        me: Seat,
        before: &G::State,
        actor: Seat,
        action: G::Action,
        after: &G::State,
    ) {
        // Its own actions were followed when chosen.
        if actor == me {
            return;
        }
        match self.sees.map(|f| f(game, before, actor, action, after, me)) {
            Some(Seen::Not) => {}
            Some(Seen::Whole) => self.advance(action, actor),
            _ => self.trees.iter_mut().for_each(Tree::forget),
        }
    }

    fn choose(&mut self, game: &G, state: &G::State, seat: Seat) -> G::Action {
        let mut list = ActionList::new();
        game.legal_actions(state, &mut list);
        if list.len() == 1 {
            if self.supervised() {
                self.advance(list[0], seat);
            }
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
        if cfg.halving && cfg.time.is_none() {
            // The best mean among the survivors, over the trees (each tree's own survivors).
            let mut top = f64::NEG_INFINITY;
            for t in &self.trees {
                if let Some((a, q)) = t.halving_choice() {
                    if q > top {
                        top = q;
                        best = self
                            .counts
                            .iter()
                            .copied()
                            .find(|c| c.0 == a)
                            .unwrap_or(best);
                    }
                }
            }
        } else if cfg.final_move > 0 {
            // By value: each action's value, weighted by visits over the trees.
            let most = best.1;
            let mut top = f64::NEG_INFINITY;
            for &(a, v) in &self.counts {
                if v == 0 || (cfg.final_move == 1 && 4 * v < most) {
                    continue;
                }
                let sum: f64 = self
                    .trees
                    .iter()
                    .flat_map(|t| t.root_values())
                    .filter(|(x, _, _)| *x == a)
                    .map(|(_, n, q)| f64::from(n) * q)
                    .sum();
                let mut q = sum / f64::from(v);
                if cfg.final_move == 2 {
                    q -= cfg.c / f64::from(v).sqrt();
                }
                if q > top {
                    top = q;
                    best = (a, v);
                }
            }
        }
        if self.supervised() {
            self.advance(best.0, seat);
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, HeuristicAgent};
    use crate::core::GameDef;
    use crate::games::trails::TrailsGame;

    /// A node and everything below it, read recursively (apart from `reroot`'s loop): (action,
    /// mover, visits, availability, reward, children in sibling order).
    #[derive(Debug, PartialEq)]
    struct Sub<A>(A, Seat, u32, u32, u64, Vec<Sub<A>>);

    fn read<G: Game>(t: &Tree<G>, id: u32) -> Sub<G::Action> {
        let n = &t.nodes[id as usize];
        let mut kids = Vec::new();
        let mut c = n.first_child;
        while c != NONE {
            kids.push(read(t, c));
            c = t.nodes[c as usize].next_sibling;
        }
        Sub(
            n.action,
            n.mover,
            n.visits,
            n.avail,
            n.reward.to_bits(),
            kids,
        )
    }

    fn size<A>(s: &Sub<A>) -> usize {
        1 + s.5.iter().map(size).sum::<usize>()
    }

    /// With `prior`, the first action a node expands is the heuristic's (issue 33). On the toy
    /// game, whose heuristic reads no random number, the choice is worked out here from its rule
    /// (X-ROUND-1: the leader leads; the heuristic leads its highest card by value, then card id,
    /// and answers with the middle one): after one iteration the root's only child is that action.
    /// Without the prior the expansion is uniform and picks another in some of the positions.
    #[test]
    fn the_prior_expands_the_heuristics_action_first() {
        use crate::games::toy::{Play, ToyGame};
        let cards = ToyGame::bundled_cards();
        let deck = |n: &str| {
            ToyGame::load_deck(&cards, std::path::Path::new(&format!("decks/toy/{n}.deck")))
                .expect("a bundled toy deck")
        };
        let g = ToyGame::new_match(&cards, [&deck("ladder"), &deck("high")]);
        let with = MctsConfig {
            iterations: 1,
            prior: 1.0,
            ..MctsConfig::default()
        };
        let plain = MctsConfig { prior: 0.0, ..with };
        let (mut checked, mut other) = (0, 0);
        let mut t: Tree<ToyGame> = Tree::default();
        let mut out = Vec::new();
        let mut list = ActionList::new();
        for seed in 0..60u64 {
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let mut rng = rng_from_seed(seed);
            for _ in 0..seed % 5 {
                if g.to_move(&s).is_none() {
                    break;
                }
                g.legal_actions(&s, &mut list);
                let a = list[rng.gen_range(0..list.len())];
                g.apply(&mut s, a);
            }
            let Some(me) = g.to_move(&s) else { continue };
            g.legal_actions(&s, &mut list);
            if list.len() < 2 {
                continue;
            }
            let mut v: Vec<Play> = list.iter().copied().collect();
            v.sort_by_key(|a| (g.value(a.0), a.0));
            let want = if s.led.is_none() {
                v[v.len() - 1]
            } else {
                v[v.len() / 2]
            };
            t.search(&g, &s, me, &with, &mut rng, &mut out);
            assert_eq!(out, vec![(want, 1)], "seed {seed}");
            t.search(&g, &s, me, &plain, &mut rng, &mut out);
            other += usize::from(out[0].0 != want);
            checked += 1;
        }
        assert!(checked >= 40, "{checked} positions");
        assert!(other > 0, "uniform expansion never differed");
    }

    /// Sequential halving (issue 33) spends the root's budget by its schedule, worked out here on
    /// its own: ⌈log2 K⌉ rounds, each the remaining budget over the rounds left, evenly over the
    /// surviving actions, the better half surviving; and the move is the best mean among the
    /// last survivors. On the toy game the root actions are the distinct cards in the player's
    /// hand, legal in every determinization, so every planned iteration runs. For K = 5 and 1,024
    /// iterations the visits are 68, 68, 182, 353 and 353. Plain UCB gives other counts.
    #[test]
    fn halving_spends_the_budget_by_its_schedule() {
        use crate::games::toy::ToyGame;
        // (visits per action, in the order eliminated, survivors last) for K actions, N iterations.
        fn schedule(k: u32, n: u32) -> Vec<u32> {
            let rounds = (1..).find(|r| 1u32 << r >= k).unwrap_or(1).max(1);
            let (mut alive, mut used, mut visits) = (k, 0, Vec::new());
            let mut acc = vec![0u32; k as usize];
            for r in 0..rounds {
                let each = ((n - used) / (rounds - r) / alive).max(1);
                for v in acc.iter_mut().take(alive as usize) {
                    *v += each;
                }
                used += each * alive;
                if r + 1 < rounds {
                    let keep = alive.div_ceil(2);
                    for i in (keep..alive).rev() {
                        visits.push(acc[i as usize]);
                    }
                    alive = keep;
                }
            }
            for i in 0..(n - used) {
                acc[(i % alive) as usize] += 1;
            }
            visits.extend(acc.iter().take(alive as usize).rev());
            visits
        }
        assert_eq!(schedule(5, 1024), vec![68, 68, 182, 353, 353]);
        let cards = ToyGame::bundled_cards();
        let deck = |n: &str| {
            ToyGame::load_deck(&cards, std::path::Path::new(&format!("decks/toy/{n}.deck")))
                .expect("a bundled toy deck")
        };
        let g = ToyGame::new_match(&cards, [&deck("ladder"), &deck("ladder")]);
        let cfg = MctsConfig {
            iterations: 1024,
            halving: true,
            ..MctsConfig::default()
        };
        let mut list = ActionList::new();
        let mut checked = 0;
        for seed in 0..30u64 {
            let s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let Some(me) = g.to_move(&s) else { continue };
            g.legal_actions(&s, &mut list);
            let k = list.len() as u32;
            if k < 3 {
                continue;
            }
            let mut t: Tree<ToyGame> = Tree::default();
            let mut out = Vec::new();
            t.search(&g, &s, me, &cfg, &mut rng_from_seed(seed), &mut out);
            let mut got: Vec<u32> = out.iter().map(|x| x.1).collect();
            got.sort_unstable();
            let mut want = schedule(k, 1024);
            want.sort_unstable();
            assert_eq!(got, want, "seed {seed}, {k} actions");
            assert_eq!(t.iterations, 1024);
            // The move: a best mean among the last two survivors (⌈log2 K⌉ − 1 halvings leave
            // two), the two most visited.
            let mut stats: Vec<_> = t.root_stats().collect();
            stats.sort_by_key(|x| std::cmp::Reverse(x.1));
            let top = stats[..2].iter().map(|x| x.2).fold(f64::MIN, f64::max);
            let (a, q) = t.halving_choice().expect("a choice");
            assert!(stats[..2].iter().any(|x| x.0 == a));
            assert_eq!(q, top, "seed {seed}");
            checked += 1;
        }
        assert!(checked >= 20, "{checked} positions");
    }

    /// Tree reuse keeps exactly the subtree below the path the game took: every node, its
    /// statistics and its children's order, less the new root's children of the other player.
    #[test]
    fn a_kept_tree_is_the_subtree_of_the_path_taken() {
        let g = TrailsGame::bench_match().expect("the bench match");
        let (mut checked, mut kept) = (0, 0);
        for (start, plies) in [
            (20, 1),
            (40, 1),
            (70, 1),
            (100, 1),
            (20, 2),
            (40, 2),
            (70, 2),
        ] {
            let mut s = g.new_game(3, Seat::P1);
            let mut h = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
            for _ in 0..start {
                let Some(q) = g.to_move(&s) else { break };
                let a = h[q.index()].choose(&g, &s, q);
                g.apply(&mut s, a);
            }
            let Some(me) = g.to_move(&s) else { continue };
            let cfg = MctsConfig {
                iterations: 400,
                reuse: true,
                depth: 20,
                ..MctsConfig::default()
            };
            let mut t: Tree<TrailsGame> = Tree::default();
            let mut out = Vec::new();
            let mut rng = rng_from_seed(start);
            t.search(&g, &s, me, &cfg, &mut rng, &mut out);
            // Down the most visited line, wherever it leads.
            let mut path = Vec::new();
            let mut id = 0u32;
            for _ in 0..plies {
                let mut best = NONE;
                let mut c = t.nodes[id as usize].first_child;
                while c != NONE {
                    if best == NONE || t.nodes[c as usize].visits > t.nodes[best as usize].visits {
                        best = c;
                    }
                    c = t.nodes[c as usize].next_sibling;
                }
                if best == NONE {
                    break;
                }
                path.push((t.nodes[best as usize].action, t.nodes[best as usize].mover));
                id = best;
            }
            let mut want = read(&t, id);
            want.5.retain(|k| k.1 == me);
            for &(a, m) in &path {
                t.advance(a, m);
            }
            // No iterations: the search only re-roots.
            let zero = MctsConfig {
                iterations: 0,
                ..cfg
            };
            t.search(&g, &s, me, &zero, &mut rng, &mut out);
            let got = read(&t, 0);
            assert_eq!(got, want, "start {start}, {plies} plies");
            assert_eq!(t.kept as usize, size(&want));
            assert_eq!(t.nodes.len(), size(&want));
            kept += size(&want);
            // An edge the tree does not have (the new root's children are all `me`'s) loses it.
            t.advance(path[0].0, me.other());
            t.search(&g, &s, me, &zero, &mut rng, &mut out);
            assert_eq!(t.nodes.len(), 1);
            checked += 1;
        }
        assert_eq!(checked, 7);
        // Subtrees worth keeping (341 nodes in all when written; a line that ends the turn keeps
        // only its root).
        assert!(kept > 200, "{kept} nodes kept in all");
    }
}
