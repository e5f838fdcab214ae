//! The AI arena: agents play each other in pairs of games on the same deal with the seats swapped,
//! over a set of decks; pair results feed Bradley–Terry ratings and the SPRT.

use super::play_game;
use crate::agents::AgentSpec;
use crate::core::{GameDef, Seat};
use rayon::prelude::*;

/// The result of one pair of games of agents `a` and `b` from `a`'s side, in half points (0..=4):
/// games `2r` and `2r + 1` of `sim::schedule` under `key`, one deal played from both seats.
/// `None` when an agent failed and the run is stopping (the pair is not counted).
pub fn play_pair<G: GameDef>(
    game: &G,
    a: &AgentSpec,
    b: &AgentSpec,
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
    specs: (&AgentSpec, &AgentSpec),
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
pub fn run_sprt<G: GameDef>(
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
}
