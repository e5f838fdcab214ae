//! The AI arena: agents play each other in pairs of games on the same deal with the seats swapped,
//! over a set of decks; pair results feed Bradley–Terry ratings and the SPRT.

use super::play_game;
use super::Entrant;
use crate::core::{GameDef, Seat};
use rayon::prelude::*;

/// The result of one pair of games of agents `a` and `b` from `a`'s side, in half points (0..=4):
/// games `2r` and `2r + 1` of `sim::schedule` under `key`, one deal played from both seats.
/// `None` when an agent failed and the run is stopping (the pair is not counted).
pub fn play_pair<G: GameDef>(
    game: &G,
    a: &Entrant,
    b: &Entrant,
    master: u64,
    key: &[u64],
    r: u64,
) -> Option<usize> {
    let mut half = 0usize;
    for k in [2 * r, 2 * r + 1] {
        if a.aborted() || b.aborted() {
            return None;
        }
        let d = super::schedule::deal(master, key, k, true);
        let mut aa = a.build::<G>(d.agent_seeds[0]);
        let mut bb = b.build::<G>(d.agent_seeds[1]);
        let a_seat = d.seat_of_a();
        let agents: [&mut dyn crate::agents::Agent<G>; 2] = if a_seat == Seat::P2 {
            [bb.as_mut(), aa.as_mut()]
        } else {
            [aa.as_mut(), bb.as_mut()]
        };
        let rec = play_game(game, d.seed, d.first, agents, |_, _, _, _| {});
        if rec.aborted() {
            return None;
        }
        half += (rec.outcome.score(a_seat) * 2.0).round() as usize;
    }
    Some(half)
}

/// Pair `p` of agents `ids` over `matches` deck pairs: deck pair `m = p mod matches`, played for
/// the `r = p / matches`-th time, keyed `[i, j, m]`, so that each deck pair's deals alternate the
/// first player (the schedule's parity of `r`) — a key without the deck pair would give one deck
/// of a pair the initiative every time when the number of deck pairs is even.
pub fn pair_slot(ids: (usize, usize), p: u64, matches: usize) -> ([u64; 3], u64) {
    let m = p % matches as u64;
    ([ids.0 as u64, ids.1 as u64, m], p / matches as u64)
}

/// Plays pairs `range` of agents (a, b) ([`pair_slot`], [`play_pair`]). Returns the pentanomial
/// counts (of the pairs played to the end: none after an agent failed under
/// `--on-agent-error abort`).
pub fn play_pairs<G: GameDef>(
    games: &[G],
    specs: (&Entrant, &Entrant),
    ids: (usize, usize),
    seed: u64,
    range: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> [u64; 5] {
    range
        .into_par_iter()
        .map(|p| {
            let (key, r) = pair_slot(ids, p, games.len());
            let g = &games[key[2] as usize];
            let mut c = [0u64; 5];
            if let Some(h) = play_pair(g, specs.0, specs.1, seed, &key, r) {
                progress(2);
                c[h] = 1;
            }
            c
        })
        .reduce(|| [0; 5], |a, b| std::array::from_fn(|i| a[i] + b[i]))
}

/// What a round robin of agents measured: for every two agents `i < j`, `pairs` pairs of games
/// ([`play_pairs`]); scores in points from the row agent's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Pairs of games per two agents.
    pub pairs: u64,
    /// `score[i][j]`: agent `i`'s points against agent `j`.
    pub score: Vec<Vec<f64>>,
    /// `played[i][j]`: games of agents `i` and `j`.
    pub played: Vec<Vec<f64>>,
    /// `(i, j, counts)` for `i < j` in play order: the pentanomial counts of the pairs (0, ½, 1,
    /// 1½, 2 points for `i`).
    pub pentanomial: Vec<(usize, usize, [u64; 5])>,
}

/// Bradley–Terry ratings of [`Standings`] (`stats::bradley_terry`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo, centred on a mean of 0.
    pub elo: Vec<f64>,
    /// Standard errors, in Elo.
    pub se: Vec<f64>,
    /// The agents, best first (ties by index).
    pub order: Vec<usize>,
}

/// The games of a round robin of `agents` agents, `pairs` pairs per two agents.
pub fn round_robin_games(agents: usize, pairs: u64) -> u64 {
    pairs * 2 * (agents * agents.saturating_sub(1) / 2) as u64
}

impl Standings {
    /// The games the round robin was planned to play ([`round_robin_games`]).
    pub fn games(&self) -> u64 {
        round_robin_games(self.score.len(), self.pairs)
    }

    /// The ratings; the order puts the best first.
    pub fn ratings(&self) -> Ratings {
        let (elo, se) = crate::stats::bradley_terry(&self.score, &self.played);
        let mut order: Vec<usize> = (0..elo.len()).collect();
        order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]).then(a.cmp(&b)));
        Ratings { elo, se, order }
    }
}

/// Points (half points / 2) of pentanomial counts.
pub fn points(counts: &[u64; 5]) -> f64 {
    counts
        .iter()
        .enumerate()
        .map(|(k, &x)| x as f64 * k as f64 / 2.0)
        .sum()
}

/// The round robin: every two agents `i < j` of `specs`, in order, play `pairs` pairs of games
/// over the deck pairs `games` ([`play_pairs`]); `progress` sees each finished game. Stops
/// starting agent pairs once an agent failed under `--on-agent-error abort` (the caller then
/// reports the failure: the standings are incomplete).
pub fn round_robin<G: GameDef>(
    games: &[G],
    specs: &[Entrant],
    seed: u64,
    pairs: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Standings {
    let n = specs.len();
    let mut st = Standings {
        pairs,
        score: vec![vec![0.0; n]; n],
        played: vec![vec![0.0; n]; n],
        pentanomial: Vec::new(),
    };
    for i in 0..n {
        for j in i + 1..n {
            if specs.iter().any(Entrant::aborted) {
                break;
            }
            let c = play_pairs(
                games,
                (&specs[i], &specs[j]),
                (i, j),
                seed,
                0..pairs,
                progress,
            );
            let s = points(&c);
            st.score[i][j] = s;
            st.score[j][i] = 2.0 * pairs as f64 - s;
            st.played[i][j] = 2.0 * pairs as f64;
            st.played[j][i] = 2.0 * pairs as f64;
            st.pentanomial.push((i, j, c));
        }
    }
    st
}

/// A sequential probability ratio test of two agents (fishtest's GSPRT on pairs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands: pairs played, their pentanomial counts, the log-likelihood ratio and its
/// bounds, and the verdict once the LLR crossed one (`H1`: the first agent is stronger by elo1;
/// `H0`: it is not stronger by elo1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub pairs: u64,
    pub counts: [u64; 5],
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Option<&'static str>,
}

impl SprtState {
    /// The pairs the test is expected to play from here until the LLR leaves its bounds: Wald's
    /// average sample number under the current estimate, `None` before there is one (fewer than
    /// two pairs, or pairs that all scored the same) and `Some(0.0)` once decided.
    ///
    /// Why this and not the games still allowed (`--max-games`, what the plain progress line
    /// shows: 13 hours for a 155-second run, issue 30) nor the drift alone: the GSPRT's LLR after
    /// `n` pairs of mean score `m` and variance `v` is a sum of per-pair steps
    /// `z = (s1 − s0)(2x − s0 − s1) / 2v` of mean `d = LLR / n` and variance
    /// `σ² = (s1 − s0)² / v`. A random walk of drift `d` and variance `σ²` between `a = lower − LLR`
    /// and `b = upper − LLR` (Brownian approximation, no overshoot) leaves at `b` with
    /// probability `P = (1 − e^(−θa)) / (e^(−θb) − e^(−θa))`, `θ = 2d/σ²`, after
    /// `E[N] = (a(1 − P) + bP) / d` steps on average; as `d → 0` that tends to `−ab/σ²`. The drift
    /// alone (`(bound − LLR)/d`) says "never" for two equal agents, whose test does end (by
    /// diffusion) in about `−ab/σ²` pairs; Wald's formula covers both. The estimate moves with
    /// `m` and `v`, so the ETA is a forecast, refreshed after every batch.
    pub fn expected_pairs_left(&self, test: &Sprt) -> Option<f64> {
        if self.verdict.is_some() {
            return Some(0.0);
        }
        let n: u64 = self.counts.iter().sum();
        if n < 2 {
            return None;
        }
        let s = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (s(test.elo0), s(test.elo1));
        let x = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| self.counts[k] as f64 * x(k)).sum::<f64>() / n as f64;
        let var = (0..5)
            .map(|k| self.counts[k] as f64 * (x(k) - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        if var <= 0.0 {
            return None;
        }
        let d = (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let sigma2 = (s1 - s0).powi(2) / var;
        let (a, b) = (self.lower - self.llr, self.upper - self.llr);
        let theta = 2.0 * d / sigma2;
        let pairs = if (theta * (b - a)).abs() < 1e-6 {
            -a * b / sigma2
        } else {
            let p = (1.0 - (-theta * a).exp()) / ((-theta * b).exp() - (-theta * a).exp());
            (a * (1.0 - p) + b * p) / d
        };
        Some(pairs.max(0.0))
    }
}

/// Plays batches of `batch` pairs of agents `specs` (as [`play_pairs`], agents 0 and 1) until the
/// LLR leaves its bounds or `max_pairs` pairs are played; `on_batch` sees the state after each
/// batch, `progress` each finished game. The pairs are those of [`play_pairs`], so a test is
/// reproduced by its seed.
#[allow(clippy::too_many_arguments)]
pub fn run_sprt<G: GameDef>(
    games: &[G],
    specs: (&Entrant, &Entrant),
    seed: u64,
    test: Sprt,
    max_pairs: u64,
    batch: u64,
    progress: &(dyn Fn(u64) + Sync),
    on_batch: &mut dyn FnMut(&SprtState),
) -> SprtState {
    let (lower, upper) = crate::stats::sprt_bounds(test.alpha, test.beta);
    let mut st = SprtState {
        pairs: 0,
        counts: [0; 5],
        llr: 0.0,
        lower,
        upper,
        verdict: None,
    };
    while st.pairs < max_pairs {
        let end = (st.pairs + batch.max(1)).min(max_pairs);
        let b = play_pairs(games, specs, (0, 1), seed, st.pairs..end, progress);
        for (c, x) in st.counts.iter_mut().zip(b) {
            *c += x;
        }
        st.pairs = end;
        st.llr = crate::stats::sprt_llr(&st.counts, test.elo0, test.elo1);
        if st.llr >= upper {
            st.verdict = Some("H1");
        } else if st.llr <= lower {
            st.verdict = Some("H0");
        }
        on_batch(&st);
        if st.verdict.is_some() || specs.0.aborted() || specs.1.aborted() {
            break;
        }
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With 2 decks (4 ordered deck pairs) and 40 pairs of agents, every deck pair is played 10
    /// times, 5 of them with P1 (its first deck) moving first — the first player never follows
    /// the deck pair, as it did when both cycled with the pair's parity.
    #[test]
    fn every_deck_pair_alternates_the_first_player() {
        let mut p1_first = [0u32; 4];
        let mut played = [0u32; 4];
        for p in 0..40 {
            let (key, r) = pair_slot((0, 1), p, 4);
            let d = crate::sim::schedule::deal(9, &key, 2 * r, true);
            played[key[2] as usize] += 1;
            p1_first[key[2] as usize] += u32::from(d.first == Seat::P1);
        }
        assert_eq!(played, [10; 4]);
        assert_eq!(p1_first, [5; 4]);
    }

    fn state(counts: [u64; 5], test: &Sprt) -> SprtState {
        let (lower, upper) = crate::stats::sprt_bounds(test.alpha, test.beta);
        SprtState {
            pairs: counts.iter().sum(),
            counts,
            llr: crate::stats::sprt_llr(&counts, test.elo0, test.elo1),
            lower,
            upper,
            verdict: None,
        }
    }

    /// By hand: H0 Elo 0 (s0 = ½), H1 Elo 400·log10 3 (s1 = ¾), α = β = 0.05 (bounds ±ln 19 =
    /// ±2.9444). One pair of 1 point (x = ½) and one of 2 (x = 1): m = ¾, v = 1/16, so the step's
    /// drift d = (¼)(3/2 − 5/4)/(1/8) = ½, its variance σ² = (1/16)/(1/16) = 1 and LLR = 2d = 1.
    /// a = −3.9444, b = 1.9444, θ = 2d/σ² = 1: P = (1 − e^3.9444)/(e^−1.9444 − e^3.9444)
    /// = (1 − 51.647)/(0.14307 − 51.647) = 0.98336, E[N] = (a·0.01664 + b·0.98336)/½
    /// = (−0.06563 + 1.91208)·2 = 3.6929 pairs.
    #[test]
    fn expected_pairs_left_is_wald_s_asn_by_hand() {
        let test = Sprt {
            elo0: 0.0,
            elo1: 400.0 * 3f64.log10(),
            alpha: 0.05,
            beta: 0.05,
        };
        // The LLR itself is that of the regularised counts (`stats::sprt_llr`: each empty count
        // is 0.001), 0.99155583 instead of 1: a = −3.93600, b = 1.95288, P = 0.98320,
        // E[N] = 3.7079 pairs (the drift and variance above, of the counts as played).
        let st = state([0, 0, 1, 0, 1], &test);
        assert!((st.llr - 0.99155583).abs() < 1e-7, "{}", st.llr);
        let left = st.expected_pairs_left(&test).unwrap();
        assert!((left - 3.7079).abs() < 1e-3, "{left}");
        // No drift (equal agents, a symmetric test): −ab/σ². s1 = 1/(1 + 10^(−1/40)) = 0.514387,
        // s1 − s0 = 0.028774; pairs of 0 and 2 points: m = ½, v = ¼, σ² = 0.0033118; LLR 0,
        // bounds ±2.9444: 2.9444²/0.0033118 = 2617.8 pairs.
        let test = Sprt {
            elo0: -10.0,
            elo1: 10.0,
            ..test
        };
        let st = state([1, 0, 0, 0, 1], &test);
        assert!(st.llr.abs() < 1e-12);
        let left = st.expected_pairs_left(&test).unwrap();
        assert!((left - 2617.8).abs() < 0.5, "{left}");
        // No estimate yet, and none needed once decided.
        assert_eq!(
            state([0, 0, 1, 0, 0], &test).expected_pairs_left(&test),
            None
        );
        assert_eq!(
            state([0, 0, 2, 0, 0], &test).expected_pairs_left(&test),
            None
        );
        let decided = SprtState {
            verdict: Some("H1"),
            ..st
        };
        assert_eq!(decided.expected_pairs_left(&test), Some(0.0));
    }
}
