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
    /// The root's determinization, prepared once a search ([`Game::prepare_determinize`]).
    prep: crate::core::hidden::Prepared,
    /// `ln[k]` is `(k as f64).ln()`, the same value UCB's exploration term would compute: filled
    /// once for the counts a search can reach (`search`), so that an iteration reads it instead
    /// of calling `ln` for every child it scans; a count past the table computes `ln` itself.
    ln: Vec<f64>,
    /// The most entries `ln` may hold (65,536; the tests set 0 to compute every `ln`).
    ln_cap: usize,
    /// Tests: select with the untried actions in a copy of the legal list
    /// ([`Tree::select_by_untried_list`], the code before the list itself was used).
    #[cfg(test)]
    by_untried_list: bool,
    #[cfg(test)]
    untried: ActionList<G::Action>,
}

impl<G: Game> Default for Tree<G> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            path: Vec::new(),
            list: ActionList::new(),
            playout_decisions: 0,
            iterations: 0,
            cursor: NONE,
            spare: Vec::new(),
            stack: Vec::new(),
            kept: 0,
            prep: Default::default(),
            ln: Vec::new(),
            ln_cap: 1 << 16,
            #[cfg(test)]
            by_untried_list: false,
            #[cfg(test)]
            untried: ActionList::new(),
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
        // The logarithms of the availability counts this search can reach, at most `ln_cap` of
        // them: a child is available only in iterations through its parent, so no count exceeds
        // the root's visits (those of a kept tree included) plus this search's iterations. The
        // table only grows, to a power of two, so a search of the same size as the last, or a
        // little larger, allocates nothing.
        let want = match cfg.time {
            None => (self.nodes[0].visits as usize)
                .saturating_add(cfg.iterations as usize)
                .saturating_add(1)
                .next_power_of_two(),
            Some(_) => 4096,
        }
        .min(self.ln_cap);
        while self.ln.len() < want {
            let k = self.ln.len();
            self.ln.push((k as f64).ln());
        }
        self.cursor = 0;
        if cfg.determinize {
            game.prepare_determinize(root, observer, &mut self.prep);
        }
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
            if self.nodes.len() as u64 >= cap {
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

    /// Child `c`, found legal in this iteration's determinization: its availability grows by
    /// one, and its selection value is returned: UCB1 with availability counts, `mean +
    /// c·sqrt(ln(avail)/visits)`, plus the prior's bias `prior / (visits + 1)` when its action is
    /// the heuristic's `hint`.
    #[inline(always)]
    fn available_ucb(&mut self, c: u32, hint: Option<G::Action>, cfg: &MctsConfig) -> f64 {
        let n = &mut self.nodes[c as usize];
        n.avail += 1;
        let ln_avail = match self.ln.get(n.avail as usize) {
            Some(&l) => l,
            None => f64::from(n.avail).ln(),
        };
        let mut ucb =
            n.reward / f64::from(n.visits) + cfg.c * (ln_avail / f64::from(n.visits)).sqrt();
        if hint == Some(n.action) {
            ucb += cfg.prior / f64::from(n.visits + 1);
        }
        ucb
    }

    /// The selection step of `iterate` in its clear form, the tests' reference (the code before
    /// `iterate` removed the children's actions from the legal list itself): the untried actions
    /// are a copy of the legal list from which each child's action is removed; the children
    /// found gain availability and the best by UCB is `Ok`, unless an untried action is left,
    /// which is `Err` (the hint's when untried, else one drawn at random).
    #[cfg(test)]
    fn select_by_untried_list(
        &mut self,
        node: u32,
        hint: Option<G::Action>,
        cfg: &MctsConfig,
        rng: &mut GameRng,
    ) -> Result<u32, G::Action> {
        self.untried.clear_scratch();
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
                let ucb = self.available_ucb(c, hint, cfg);
                if ucb > best_ucb {
                    best_ucb = ucb;
                    best = c;
                }
            }
            c = self.nodes[c as usize].next_sibling;
        }
        if !self.untried.is_empty() {
            return Err(match hint {
                Some(h) if self.untried.contains(&h) => h,
                _ => self.untried[rng.gen_range(0..self.untried.len())],
            });
        }
        Ok(best)
    }

    fn iterate(
        &mut self,
        game: &G,
        root: &G::State,
        observer: Seat,
        cfg: &MctsConfig,
        rng: &mut GameRng,
    ) {
        let mut s = *root;
        if cfg.determinize {
            game.determinize_in_place(&mut s, observer, &self.prep, rng);
        }
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(mover) = game.to_move(&s) {
            game.legal_actions(&s, &mut self.list);
            // The heuristic's choice here, in this determinization (progressive bias).
            let hint = if cfg.prior > 0.0 {
                Some(game.heuristic_action(&s, &self.list, rng))
            } else {
                None
            };
            // Children legal here gain availability; untried actions are the legal ones with no
            // child yet: the legal list itself, from which each child's action is removed (it is
            // scratch, read again only by this selection; `Tree::select_by_untried_list`, the
            // tests' reference, copies it first as this code did).
            #[cfg(test)]
            if self.by_untried_list {
                match self.select_by_untried_list(node, hint, cfg, rng) {
                    Ok(best) => {
                        let a = self.nodes[best as usize].action;
                        game.apply(&mut s, a);
                        self.path.push(best);
                        node = best;
                        continue;
                    }
                    Err(a) => {
                        let child = self.push(a, mover, node);
                        self.nodes[child as usize].avail = 1;
                        game.apply(&mut s, a);
                        self.path.push(child);
                        break;
                    }
                }
            }
            let mut best = NONE;
            let mut best_ucb = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let a = self.nodes[c as usize].action;
                if let Some(k) = self.list.iter().position(|&x| x == a) {
                    self.list.remove(k);
                    let ucb = self.available_ucb(c, hint, cfg);
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                c = self.nodes[c as usize].next_sibling;
            }
            if !self.list.is_empty() {
                let a = match hint {
                    Some(h) if self.list.contains(&h) => h,
                    _ => self.list[rng.gen_range(0..self.list.len())],
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

    /// The step of the tests that search every decision with two kinds of tree per seat: the
    /// most visited root action of `counts` that is legal in the game (a kept root may hold
    /// others), which each seat's trees follow (the mover's advance into it, the other seat's
    /// forget theirs, as the agent does), played.
    fn follow(
        g: &TrailsGame,
        s: &mut <TrailsGame as Game>::State,
        me: Seat,
        counts: &[(<TrailsGame as Game>::Action, u32)],
        list: &mut ActionList<<TrailsGame as Game>::Action>,
        kinds: [&mut [Tree<TrailsGame>; 2]; 2],
    ) {
        g.legal_actions(s, list);
        let a = counts
            .iter()
            .filter(|x| list.contains(&x.0))
            .max_by_key(|x| x.1)
            .map_or(list[0], |x| x.0);
        for trees in kinds {
            for q in Seat::ALL {
                if q == me {
                    trees[q.index()].advance(a, me);
                } else {
                    trees[q.index()].forget();
                }
            }
        }
        g.apply(s, a);
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

    /// The table of logarithms UCB reads (`Tree::ln`) holds `ln k` at every entry `k`, bit for
    /// bit, and covers every availability count of the tree; a search that reads it builds the
    /// same tree, node for node (visits, availability, reward bits, sibling order), as one that
    /// computes every `ln` (`ln_cap` 0), with the same random stream, over whole Trails games of
    /// ISMCTS decisions with tree reuse, and with a time budget once.
    #[test]
    fn the_logarithm_table_searches_as_computing_ln() {
        let g = TrailsGame::bench_match().expect("the bench match");
        let cfg = MctsConfig {
            iterations: 150,
            playout: Policy::Random,
            reuse: true,
            ..MctsConfig::default()
        };
        let (mut checked, mut reused) = (0, 0);
        let mut list = ActionList::new();
        for seed in 0..3u64 {
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            // One tree of each kind per seat, as the agent keeps them: a tree follows its seat's
            // own actions and forgets the tree at the opponent's.
            let mut table: [Tree<TrailsGame>; 2] = Default::default();
            let mut computed: [Tree<TrailsGame>; 2] = Default::default();
            for t in &mut computed {
                t.ln_cap = 0;
            }
            let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
            let (mut o1, mut o2) = (Vec::new(), Vec::new());
            let mut ply = 0u64;
            while let Some(me) = g.to_move(&s) {
                let k = me.index();
                table[k].search(&g, &s, me, &cfg, &mut r1, &mut o1);
                computed[k].search(&g, &s, me, &cfg, &mut r2, &mut o2);
                assert!(computed[k].ln.is_empty());
                assert_eq!(
                    read(&table[k], 0),
                    read(&computed[k], 0),
                    "seed {seed}, ply {ply}"
                );
                assert_eq!(o1, o2);
                if table[k].kept > 1 {
                    reused += 1;
                }
                let t = &table[k];
                let most = t.nodes.iter().map(|n| n.avail).max().unwrap_or(0);
                assert!((most as usize) < t.ln.len(), "{most} {}", t.ln.len());
                for (i, l) in t.ln.iter().enumerate() {
                    assert_eq!(l.to_bits(), (i as f64).ln().to_bits(), "entry {i}");
                }
                follow(&g, &mut s, me, &o1, &mut list, [&mut table, &mut computed]);
                ply += 1;
                checked += 1;
            }
            assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "the stream after");
        }
        assert!(checked > 100, "{checked} searches");
        // Searches that started from a kept tree (more than its root), whose counts the table
        // must cover too.
        assert!(reused > 20, "{reused} searches from a kept tree");
        // A time budget fills the first 4,096 entries.
        let s = g.new_game(7, Seat::P1);
        let mut t: Tree<TrailsGame> = Tree::default();
        let timed = MctsConfig {
            time: Some(Duration::from_millis(5)),
            ..cfg
        };
        let me = g.to_move(&s).expect("a decision");
        t.search(&g, &s, me, &timed, &mut rng_from_seed(7), &mut Vec::new());
        assert_eq!(t.ln.len(), 4096);
    }

    /// The selection that removes the children's actions from the legal list itself searches as
    /// its clear form, a copy of the list taken apart ([`Tree::select_by_untried_list`]): whole
    /// Trails games of the bench match, every decision searched by a tree of each kind per seat
    /// with tree reuse (random playouts; heuristic playouts with the heuristic's prior, whose hint
    /// is looked up among the untried actions), give trees equal node for node (actions, movers,
    /// visits, availability, reward bits, sibling order) and the same root counts, and leave the
    /// random stream in the same place.
    #[test]
    fn selection_on_the_legal_list_searches_as_on_a_copy() {
        let g = TrailsGame::bench_match().expect("the bench match");
        let random = MctsConfig {
            iterations: 120,
            playout: Policy::Random,
            reuse: true,
            ..MctsConfig::default()
        };
        let prior = MctsConfig {
            iterations: 60,
            playout: Policy::Heuristic,
            prior: 0.5,
            reuse: true,
            ..MctsConfig::default()
        };
        let (mut checked, mut expanded, mut hinted) = (0u64, 0u64, 0u64);
        let mut list = ActionList::new();
        for (seed, cfg) in [(0u64, random), (1, random), (2, prior)] {
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let mut marks: [Tree<TrailsGame>; 2] = Default::default();
            let mut copies: [Tree<TrailsGame>; 2] = Default::default();
            for t in &mut copies {
                t.by_untried_list = true;
            }
            let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
            let (mut o1, mut o2) = (Vec::new(), Vec::new());
            let mut ply = 0u64;
            while let Some(me) = g.to_move(&s) {
                let k = me.index();
                marks[k].search(&g, &s, me, &cfg, &mut r1, &mut o1);
                copies[k].search(&g, &s, me, &cfg, &mut r2, &mut o2);
                let (a, b) = (read(&marks[k], 0), read(&copies[k], 0));
                assert_eq!(a, b, "seed {seed}, ply {ply}");
                assert_eq!(o1, o2, "seed {seed}, ply {ply}");
                expanded += size(&a) as u64;
                if cfg.prior > 0.0 {
                    hinted += 1;
                }
                follow(&g, &mut s, me, &o1, &mut list, [&mut marks, &mut copies]);
                ply += 1;
                checked += 1;
            }
            assert_eq!(
                r1.gen::<u64>(),
                r2.gen::<u64>(),
                "seed {seed}: the stream after"
            );
        }
        assert!(checked > 150, "{checked} searches");
        assert!(hinted > 40, "{hinted} searches with the prior");
        assert!(expanded > 20_000, "{expanded} nodes compared");
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
