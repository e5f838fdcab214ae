//! Deck tuning (`tcgsim tune`, `docs/tuning.md`): a steepest-ascent local search over card swaps,
//! each round a race of every legal swap of the incumbent deck against it on the same deals.
//!
//! - **Moves**: `copies` copies of one card of the deck replaced, where they stand, by another card
//!   of the pool, for `copies` = 1 and = all the copies the deck holds. A move is kept only if the
//!   deck it makes is legal: [`swap`] writes it as a deck file and reads it back with the game's
//!   own deck reader, which checks every format rule.
//! - **Evaluation**: game `k` of round `r` is played against gauntlet deck `o = k mod m` on the
//!   deal `schedule::deal(seed, [TUNE, r, o], k div m)`: the studied deck is seat P1 and the turn-1
//!   initiative alternates. Every candidate of a round and the incumbent play the same deals
//!   (common random numbers): a candidate's measure is its paired difference with the incumbent.
//!   Each round has deals of its own, so no round's choice is tuned to another round's deals.
//! - **Racing** (`stats::racing`): a round looks at its candidates after `n0`, `2·n0`, `4·n0`, …
//!   games each, up to `n_max`. At each look a candidate shown worse is dropped; the best candidate
//!   shown better is accepted and ends the round; otherwise the better half (by mean) goes on, so
//!   the games go to the promising swaps (successive halving: a budget rule, not a claim).
//! - **State**: everything a round has learnt is in [`Search`], which is written (atomically) after
//!   every look: a run killed at any moment resumes from its last look and reaches the same deck.
//!
//! The parts: this file holds the moves, the deals, the race's state and one look ([`step`]);
//! [`run`] the whole search as one call (a [`Plan`] in, an [`Outcome`] out, the state file kept);
//! [`files`] the result files made of its outcome.

pub mod files;
mod run;

pub use run::{budget, pct, rate_ci, run, swap_text, Outcome, Plan, DEFAULT_TIME, STATE_FILE};

use super::play_game_to_end;
use super::schedule::{self, Deal};
use super::Entrant;
use crate::core::{Error, GameDef, Result, Seat};
use crate::stats::racing::{Arm, Race, Verdict};
use rayon::prelude::*;

/// The first word of every tuning deal's key (so no other command's games share a deal).
const TUNE_KEY: u64 = 0x7475_6e65; // "tune"
/// The round number of the fresh deals of the final measurement: no round of a search uses it.
pub const FRESH_ROUND: u64 = u64::MAX;

/// Why a tune state read back does not hang together (its race, its rounds, a candidate or an
/// accepted swap): the reason. [`Search::parse`] names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Inconsistent(pub String);

/// One move: `copies` copies of card `remove` replaced by card `add`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Swap {
    pub remove: u32,
    pub add: u32,
    pub copies: usize,
}

/// The deck `s` makes of `deck`, if it is legal: the game's [`GameDef::replace`], then written as
/// a deck file and read back by the game's deck reader (every format rule), which must give the
/// same cards.
pub fn swap<G: GameDef>(cards: &G::Cards, deck: &G::Deck, s: Swap) -> Result<G::Deck> {
    if s.remove == s.add {
        return Err(Error::usage("a card swapped for itself"));
    }
    let n = G::card_count(cards) as u32;
    if s.remove >= n || s.add >= n {
        return Err(Error::usage(format!(
            "card id {} is not in the card file ({n} cards)",
            s.remove.max(s.add)
        )));
    }
    G::tunable_deck(deck)?;
    let d = G::replace(deck, s.remove, s.add, s.copies)
        .ok_or_else(|| Error::usage(format!("the deck holds fewer than {} copies", s.copies)))?;
    let name = G::deck_name(deck);
    let back = G::parse_deck(cards, &G::deck_file(cards, &d, name), name, name)?;
    let sorted = |x: &G::Deck| {
        let mut v = G::deck_cards(x);
        v.sort_unstable();
        v
    };
    if sorted(&back) != sorted(&d) {
        return Err(Error::usage(
            "the deck file does not read back to the same cards",
        ));
    }
    Ok(d)
}

/// Every legal move of `deck` with a card of `pool`, in a fixed order (the deck's cards in deck
/// order; one copy, then every copy; the pool in id order), with the deck each makes.
pub fn neighbours<G: GameDef>(
    cards: &G::Cards,
    deck: &G::Deck,
    pool: &[u32],
) -> Vec<(Swap, G::Deck)> {
    let mut v = Vec::new();
    for (remove, held) in G::deck_cards(deck) {
        let mut counts = vec![1];
        if held > 1 {
            counts.push(held);
        }
        for copies in counts {
            for &add in pool {
                let s = Swap {
                    remove,
                    add,
                    copies,
                };
                if let Ok(d) = swap::<G>(cards, deck, s) {
                    v.push((s, d));
                }
            }
        }
    }
    v
}

/// The card ids a swap may add: every card of the card database.
pub fn pool<G: GameDef>(cards: &G::Cards) -> Vec<u32> {
    (0..G::card_count(cards) as u32).collect()
}

/// What the games are played with: the cards, the gauntlet, the agent (both seats) and the
/// master seed.
pub struct Gauntlet<'a, G: GameDef> {
    pub cards: &'a G::Cards,
    pub opponents: Vec<&'a G::Deck>,
    pub spec: &'a Entrant,
    pub seed: u64,
}

impl<G: GameDef> Gauntlet<'_, G> {
    /// Game `k` of round `round` (module doc): the opponent's index and the deal.
    pub fn deal(&self, round: u64, k: u64) -> (usize, Deal) {
        let m = self.opponents.len() as u64;
        let o = k % m;
        (
            o as usize,
            schedule::deal(self.seed, &[TUNE_KEY, round, o], k / m, false),
        )
    }

    /// The scores of each deck of `decks` in games `from..to` of `round`, in half points (2 a
    /// win, 1 a draw), in game order. Games run in parallel, in blocks; `progress` sees each
    /// finished block's games.
    pub fn scores(
        &self,
        decks: &[&G::Deck],
        round: u64,
        from: u64,
        to: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<Vec<u8>> {
        const BLOCK: u64 = 192;
        let jobs: Vec<(usize, u64)> = (0..decks.len())
            .flat_map(|d| (from..to).step_by(BLOCK as usize).map(move |b| (d, b)))
            .collect();
        let done: Vec<(usize, u64, Vec<u8>)> = jobs
            .par_iter()
            .map(|&(d, b)| {
                let matches: Vec<G> = self
                    .opponents
                    .iter()
                    .map(|o| G::new_match(self.cards, [decks[d], o]))
                    .collect();
                let end = (b + BLOCK).min(to);
                let v: Vec<u8> = (b..end)
                    .map(|k| {
                        let (o, deal) = self.deal(round, k);
                        let mut a = self.spec.build::<G>(deal.agent_seeds[0]);
                        let mut z = self.spec.build::<G>(deal.agent_seeds[1]);
                        let (rec, _) = play_game_to_end(
                            &matches[o],
                            deal.seed,
                            deal.first,
                            [a.as_mut(), z.as_mut()],
                            |_, _, _, _| {},
                        );
                        (rec.outcome.score(Seat::P1) * 2.0).round() as u8
                    })
                    .collect();
                progress(end - b);
                (d, b, v)
            })
            .collect();
        let mut out = vec![Vec::with_capacity((to - from) as usize); decks.len()];
        // `par_iter().collect()` keeps the jobs' order: deck, then block.
        for (d, _, v) in done {
            out[d].extend(v);
        }
        out
    }
}

/// How a search races its candidates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Params {
    /// Games per candidate at a round's first look (a multiple of twice the gauntlet's size, so
    /// every opponent is met with and without the initiative equally often).
    pub n0: u64,
    /// Games per candidate at the last look of the first round; a round that accepts nothing
    /// doubles it for the next.
    pub n_max: u64,
    /// The chance a round accepts a swap that is not better (all its candidates together).
    pub alpha: f64,
    /// The chance the race drops a given swap that is not worse.
    pub beta: f64,
    /// The largest `n_max` may grow to.
    pub n_cap: u64,
}

impl Params {
    /// The default race for a gauntlet of `m` decks.
    pub fn for_gauntlet(m: u64) -> Params {
        let unit = 2 * m.max(1);
        Params {
            n0: unit * 2,
            n_max: unit * 2 * 256,
            alpha: 0.05,
            beta: 0.05,
            n_cap: unit * 2 * 4096,
        }
    }

    /// The one-line description written with every checkpoint.
    pub fn text(&self) -> String {
        format!(
            "n0={}; n_max={}; alpha={}; beta={}; n_cap={}",
            self.n0, self.n_max, self.alpha, self.beta, self.n_cap
        )
    }
}

/// A candidate still in the race: its index in the round's [`neighbours`], its paired
/// differences, and its own score (half points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Alive {
    pub index: usize,
    pub arm: Arm,
    pub score: u64,
}

/// An accepted swap: one row of `tune.csv`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Accepted {
    pub round: u64,
    pub swap: Swap,
    /// Games each of the incumbent and the candidate played in the round.
    pub games: u64,
    /// Their scores on those games, half points.
    pub before: u64,
    pub after: u64,
    /// The paired differences.
    pub arm: Arm,
    /// Games played in the round by every candidate and the incumbent.
    pub spent: u64,
    /// Candidates raced in the round.
    pub candidates: u64,
}

/// A point of the win rate over time: after `games` games of the search in all, the incumbent
/// scored `score` half points in `n` games of a round.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    pub games: u64,
    pub round: u64,
    pub n: u64,
    pub score: u64,
}

/// The whole state of a search, written after every look.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Search {
    /// The run's fingerprint: a state with another is never resumed.
    pub fingerprint: String,
    pub params: Params,
    /// The accepted swaps, in order: the incumbent is the starting deck with them applied.
    pub accepted: Vec<Accepted>,
    /// The incumbent's win rate, round by round.
    pub points: Vec<Point>,
    /// The current round, its `n_max`, the games each alive candidate has played in it, the
    /// incumbent's score on them, the candidates it started with, and the games it has spent.
    pub round: u64,
    pub n_max: u64,
    pub games: u64,
    pub incumbent_score: u64,
    pub candidates: u64,
    pub spent: u64,
    /// The candidates still in the round's race; `None` before the round's first look.
    pub alive: Option<Vec<Alive>>,
    /// Games played by the search in all.
    pub total_games: u64,
    /// Candidates raced in all.
    pub tried: u64,
}

impl Search {
    /// A new search.
    pub fn new(fingerprint: String, params: Params) -> Search {
        Search {
            fingerprint,
            params,
            accepted: Vec::new(),
            points: Vec::new(),
            round: 0,
            n_max: params.n_max,
            games: 0,
            incumbent_score: 0,
            candidates: 0,
            spent: 0,
            alive: None,
            total_games: 0,
            tried: 0,
        }
    }

    /// The incumbent: `start` with the accepted swaps applied.
    pub fn incumbent<G: GameDef>(&self, cards: &G::Cards, start: &G::Deck) -> Result<G::Deck> {
        let mut d = start.clone();
        for a in &self.accepted {
            d = swap::<G>(cards, &d, a.swap).map_err(|e| {
                Error::usage(format!(
                    "accepted swap of round {} does not apply: {e}",
                    a.round
                ))
            })?;
        }
        Ok(d)
    }

    /// Reads a state back, checking that it is this run's and that its numbers hang together.
    pub fn parse(text: &str, file: &str, fingerprint: &str) -> Result<Search> {
        let bad = |msg: String| Error::input(file, 0, msg);
        let s: Search =
            serde_json::from_str(text).map_err(|e| bad(format!("not a tcgsim tune state: {e}")))?;
        if s.fingerprint != fingerprint {
            return Err(bad(format!(
                "written by another run (its fingerprint: {}; this run's: {fingerprint}); \
                 use another --checkpoint folder or leave out --resume",
                s.fingerprint
            )));
        }
        s.check().map_err(|m| bad(m.0))?;
        Ok(s)
    }

    /// Whether the numbers of a state read back hang together: its race's sizes, its rounds, its
    /// candidates and its accepted swaps. The error names what does not.
    fn check(&self) -> Result<(), Inconsistent> {
        self.check_race()?;
        self.check_rounds()?;
        self.check_arms()
    }

    /// The race's sizes: in range, and on the doubling grid from `n0`.
    fn check_race(&self) -> Result<(), Inconsistent> {
        let p = &self.params;
        if p.n0 == 0 || self.n_max < p.n0 || self.n_max > p.n_cap.max(p.n_max) {
            return Err(Inconsistent("its race sizes are out of range".into()));
        }
        if self.incumbent_score > 2 * self.games || self.games > self.n_max {
            return Err(Inconsistent(format!(
                "incumbent score {} in {} games",
                self.incumbent_score, self.games
            )));
        }
        let on_grid = |n: u64| n >= p.n0 && n.is_multiple_of(p.n0) && (n / p.n0).is_power_of_two();
        if !on_grid(self.n_max) || (self.games != 0 && !on_grid(self.games)) || p.n_cap > 1 << 40 {
            return Err(Inconsistent(format!(
                "{} games of a race up to {} are off its looks",
                self.games, self.n_max
            )));
        }
        Ok(())
    }

    /// One point per finished round, in order; the accepted swaps in increasing rounds; the
    /// round in progress with candidates and games, or none in progress (no games, or the last
    /// finished round's).
    fn check_rounds(&self) -> Result<(), Inconsistent> {
        if self.points.len() as u64 != self.round
            || self
                .points
                .iter()
                .enumerate()
                .any(|(k, p)| p.round != k as u64 || p.n == 0 || p.score > 2 * p.n)
            || self.accepted.windows(2).any(|w| w[0].round >= w[1].round)
            || self.accepted.iter().any(|a| a.round >= self.round)
        {
            return Err(Inconsistent("its rounds do not add up".into()));
        }
        match &self.alive {
            Some(alive) => {
                if alive.is_empty() || self.games == 0 {
                    return Err(Inconsistent(
                        "a round in progress with no candidates or no games".into(),
                    ));
                }
                if alive.windows(2).any(|w| w[0].index >= w[1].index) {
                    return Err(Inconsistent(
                        "its candidates are not listed once each, in order".into(),
                    ));
                }
            }
            // Between rounds: `games` and `incumbent_score` still hold the finished round's last
            // look (saved at the round's end; `begin_look` resets them), so they must be its point.
            None if self.games != 0 => {
                let last = self.points.last();
                if last.is_none_or(|p| p.n != self.games || p.score != self.incumbent_score) {
                    return Err(Inconsistent("games of a round with no candidates".into()));
                }
            }
            None => {}
        }
        Ok(())
    }

    /// Every candidate's and accepted swap's paired differences agree with its scores and games.
    fn check_arms(&self) -> Result<(), Inconsistent> {
        for a in self.alive.iter().flatten() {
            a.arm
                .check()
                .map_err(|e| Inconsistent(format!("candidate {}: {e}", a.index)))?;
            if a.arm.n != self.games
                || a.score > 2 * self.games
                || a.index as u64 >= self.candidates
                || a.score as i64 - self.incumbent_score as i64 != a.arm.sum
            {
                return Err(Inconsistent(format!(
                    "candidate {} does not fit the round",
                    a.index
                )));
            }
        }
        for a in &self.accepted {
            a.arm
                .check()
                .map_err(|e| Inconsistent(format!("round {}: {e}", a.round)))?;
            if a.games == 0
                || a.before > 2 * a.games
                || a.after > 2 * a.games
                || a.arm.n != a.games
                || a.after as i64 - a.before as i64 != a.arm.sum
            {
                return Err(Inconsistent(format!(
                    "accepted swap of round {} does not add up",
                    a.round
                )));
            }
        }
        Ok(())
    }
}

/// What a look tells the caller (progress lines).
pub struct Look<'a> {
    pub search: &'a Search,
    /// Candidates alive after the look.
    pub alive: usize,
    /// The best alive candidate's swap and its mean difference, if any.
    pub best: Option<(Swap, f64)>,
    /// The swap accepted at this look.
    pub accepted: Option<&'a Accepted>,
    /// Whether the round ended.
    pub round_over: bool,
}

/// The incumbent and its moves, kept between the looks of a round (`Default` to start).
pub struct Moves<G: GameDef> {
    /// The number of accepted swaps the incumbent was made with.
    made_with: Option<usize>,
    incumbent: Option<G::Deck>,
    list: Vec<(Swap, G::Deck)>,
}

impl<G: GameDef> Default for Moves<G> {
    fn default() -> Self {
        Moves {
            made_with: None,
            incumbent: None,
            list: Vec::new(),
        }
    }
}

impl<G: GameDef> Moves<G> {
    /// The incumbent of `search` and its moves, made again only when a swap was accepted since.
    pub fn update(
        &mut self,
        search: &Search,
        cards: &G::Cards,
        start: &G::Deck,
        pool: &[u32],
    ) -> Result<&[(Swap, G::Deck)]> {
        if self.made_with != Some(search.accepted.len()) {
            let inc = search.incumbent::<G>(cards, start)?;
            self.list = neighbours::<G>(cards, &inc, pool);
            self.incumbent = Some(inc);
            self.made_with = Some(search.accepted.len());
        }
        Ok(&self.list)
    }
}

impl Accepted {
    /// The incumbent's and the candidate's rates on the round's games (draws half).
    pub fn rates(&self) -> (f64, f64) {
        let g = (2 * self.games) as f64;
        (self.before as f64 / g, self.after as f64 / g)
    }
}

/// Runs one look of the current round of `search` (starting the round if it has not started),
/// playing the games it needs. `moves` keeps the round's move list between looks. Returns after
/// the look; the caller saves the state and decides whether to go on.
#[allow(clippy::too_many_arguments)]
pub fn step<G: GameDef>(
    search: &mut Search,
    g: &Gauntlet<G>,
    start: &G::Deck,
    pool: &[u32],
    moves: &mut Moves<G>,
    progress: &(dyn Fn(u64) + Sync),
    look: &mut dyn FnMut(&Look),
) -> Result<()> {
    moves.update(search, g.cards, start, pool)?;
    let incumbent = moves.incumbent.as_ref().expect("made by update");
    let cands = &moves.list;
    if cands.is_empty() {
        return Err(Error::usage("the deck has no legal swap with the pool"));
    }
    let mut alive = search.begin_look(cands.len())?;
    let mut decks: Vec<&G::Deck> = vec![incumbent];
    decks.extend(alive.iter().map(|a| &cands[a.index].1));
    search.play_look(g, &decks, &mut alive, progress);
    let swaps: Vec<Swap> = cands.iter().map(|c| c.0).collect();
    search.end_look(alive, &swaps, look);
    Ok(())
}

impl Search {
    /// The candidates of the look to play: the round's still in the race, or, when a round
    /// begins, all `candidates` moves (the round's counts reset).
    fn begin_look(&mut self, candidates: usize) -> Result<Vec<Alive>> {
        let alive = match self.alive.take() {
            Some(a) => a,
            None => {
                self.candidates = candidates as u64;
                self.tried += candidates as u64;
                self.games = 0;
                self.incumbent_score = 0;
                self.spent = 0;
                (0..candidates)
                    .map(|index| Alive {
                        index,
                        arm: Arm::default(),
                        score: 0,
                    })
                    .collect()
            }
        };
        if self.candidates != candidates as u64 {
            return Err(Error::usage(format!(
                "round {} had {} candidates and now has {candidates}: the cards or decks changed",
                self.round, self.candidates
            )));
        }
        Ok(alive)
    }

    /// Plays the look's games: the incumbent (`decks[0]`) and the candidates alive (the rest,
    /// in the order of `alive`) up to the next look's size, adding them to the counts.
    fn play_look<G: GameDef>(
        &mut self,
        g: &Gauntlet<G>,
        decks: &[&G::Deck],
        alive: &mut [Alive],
        progress: &(dyn Fn(u64) + Sync),
    ) {
        let from = self.games;
        let to = if from == 0 {
            self.params.n0
        } else {
            (2 * from).min(self.n_max)
        };
        let scores = g.scores(decks, self.round, from, to, progress);
        let played = (to - from) * decks.len() as u64;
        self.spent += played;
        self.total_games += played;
        self.incumbent_score += scores[0].iter().map(|&x| u64::from(x)).sum::<u64>();
        for (a, s) in alive.iter_mut().zip(&scores[1..]) {
            for (&c, &i) in s.iter().zip(&scores[0]) {
                a.arm.push(i64::from(c) - i64::from(i));
                a.score += u64::from(c);
            }
        }
        self.games = to;
    }

    /// The race's verdicts after a look: the candidates shown worse dropped, the others best
    /// first (mean difference, then the lower order of the move list); the first shown better,
    /// if any.
    fn judge(&self, alive: &mut Vec<Alive>) -> Option<Alive> {
        let p = self.params;
        let race = Race {
            alpha: p.alpha,
            beta: p.beta,
            candidates: self.candidates,
            looks: looks(p.n0, self.n_max),
        };
        alive.retain(|a| race.verdict(&a.arm) != Verdict::Worse);
        alive.sort_by(|a, b| {
            b.arm
                .mean()
                .total_cmp(&a.arm.mean())
                .then(a.index.cmp(&b.index))
        });
        alive
            .iter()
            .find(|a| race.verdict(&a.arm) == Verdict::Better)
            .copied()
    }

    /// Ends a look: accepts the winner (ending the round), ends the round when nothing can be
    /// shown better at this size (a finer race next round), or keeps the better half; then shows
    /// the look to `look`. `swaps` are the round's moves.
    fn end_look(&mut self, mut alive: Vec<Alive>, swaps: &[Swap], look: &mut dyn FnMut(&Look)) {
        let winner = self.judge(&mut alive);
        let best = alive.first().map(|a| (swaps[a.index], a.arm.mean()));
        let point = Point {
            games: self.total_games,
            round: self.round,
            n: self.games,
            score: self.incumbent_score,
        };
        let n_alive = alive.len();
        let round_over = winner.is_some() || alive.is_empty() || self.games >= self.n_max;
        if let Some(w) = winner {
            self.accepted.push(Accepted {
                round: self.round,
                swap: swaps[w.index],
                games: self.games,
                before: self.incumbent_score,
                after: w.score,
                arm: w.arm,
                spent: self.spent,
                candidates: self.candidates,
            });
        } else if round_over {
            // Nothing shown better: a finer race next round.
            self.n_max = (2 * self.n_max).min(self.params.n_cap);
        }
        if round_over {
            self.points.push(point);
            self.round += 1;
            self.alive = None;
        } else {
            // Successive halving: the better half goes on.
            alive.truncate(alive.len().div_ceil(2).max(1));
            alive.sort_by_key(|a| a.index);
            self.alive = Some(alive);
        }
        look(&Look {
            search: self,
            alive: match &self.alive {
                Some(a) => a.len(),
                None => n_alive,
            },
            best,
            accepted: winner.and(self.accepted.last()),
            round_over,
        });
    }
}

/// The looks of a round from `n0` to `n_max` games, doubling: 1 + ⌈log2(n_max / n0)⌉.
pub fn looks(n0: u64, n_max: u64) -> u64 {
    let mut n = n0.max(1);
    let mut k = 1;
    while n < n_max {
        n *= 2;
        k += 1;
    }
    k
}

/// The final, honest measurement: `start` and `tuned` on `games` fresh deals (never used by a
/// round), paired. Returns (start's score, tuned's score, the paired differences), half points.
pub fn fresh<G: GameDef>(
    g: &Gauntlet<G>,
    start: &G::Deck,
    tuned: &G::Deck,
    games: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> (u64, u64, Arm) {
    let s = g.scores(&[start, tuned], FRESH_ROUND, 0, games, progress);
    let mut arm = Arm::default();
    for (&a, &b) in s[0].iter().zip(&s[1]) {
        arm.push(i64::from(b) - i64::from(a));
    }
    let sum = |v: &[u8]| v.iter().map(|&x| u64::from(x)).sum::<u64>();
    (sum(&s[0]), sum(&s[1]), arm)
}
