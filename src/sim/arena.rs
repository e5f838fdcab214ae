//! The AI arena: agents play each other in pairs of games on the same deal with the seats swapped,
//! over a set of decks; pair results feed Bradley–Terry ratings and the SPRT.

use super::play_game;
use crate::agents::AgentSpec;
use crate::core::{Game, Seat};
use rayon::prelude::*;

/// The result of pair `p` of agents `a` and `b` (keyed `key`: their indices) from `a`'s side, in
/// half points (0..=4): games `2p` and `2p + 1` of `sim::schedule`, one deal played from both
/// seats.
pub fn play_pair<G: Game + 'static>(
    game: &G,
    a: &AgentSpec,
    b: &AgentSpec,
    master: u64,
    key: &[u64],
    p: u64,
) -> usize {
    let mut half = 0usize;
    for k in [2 * p, 2 * p + 1] {
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
        half += (rec.outcome.score(a_seat) * 2.0).round() as usize;
    }
    half
}

/// Plays pairs `range` of agents (a, b): pair `p` uses deck pair `p % games.len()` and the deal of
/// games `2p` and `2p + 1` keyed by the agents' indices ([`play_pair`]). Returns the pentanomial
/// counts.
pub fn play_pairs<G: Game + 'static>(
    games: &[G],
    specs: (&AgentSpec, &AgentSpec),
    ids: (usize, usize),
    seed: u64,
    range: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> [u64; 5] {
    range
        .into_par_iter()
        .map(|p| {
            let g = &games[(p % games.len() as u64) as usize];
            let key = [ids.0 as u64, ids.1 as u64];
            let h = play_pair(g, specs.0, specs.1, seed, &key, p);
            progress(2);
            let mut c = [0u64; 5];
            c[h] = 1;
            c
        })
        .reduce(|| [0; 5], |a, b| std::array::from_fn(|i| a[i] + b[i]))
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

/// Plays batches of `batch` pairs of agents `specs` (as [`play_pairs`], agents 0 and 1) until the
/// LLR leaves its bounds or `max_pairs` pairs are played; `on_batch` sees the state after each
/// batch, `progress` each finished game. The pairs are those of [`play_pairs`], so a test is
/// reproduced by its seed.
#[allow(clippy::too_many_arguments)]
pub fn run_sprt<G: Game + 'static>(
    games: &[G],
    specs: (&AgentSpec, &AgentSpec),
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
        if st.verdict.is_some() {
            break;
        }
    }
    st
}
