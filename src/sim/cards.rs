//! Card rankings by win contribution (method and biases: `docs/statistics.md`).
//!
//! - From self-play records, per card of the studied deck: the win rate in games where a copy was
//!   drawn (GIH WR), where none was seen (GNS WR), and their difference (IWD) — 17lands'
//!   definitions, adapted to simulated games.
//! - By ablation: one copy of the card replaced by a neutral filler, played on the same deals
//!   against the same gauntlet; the paired change in win rate is the causal measure.

use super::play_game;
use crate::agents::AgentSpec;
use crate::core::{mix_seed, Game, Seat};
use rayon::prelude::*;

/// One game of the studied deck (seat P1): which of its distinct cards were drawn (bit k: card
/// `ids[k]` of [`play_records`]), and its score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    pub drawn: u64,
    pub score: f64,
}

/// Plays `games` games of the studied deck (seat P1 of each game of `gauntlet`) against each
/// opponent, on deals seeded from (seed, opponent, deal); the initiative alternates. `ids` are the
/// deck's distinct cards (at most 64). Returns one record per game, in a fixed order.
pub fn play_records<G: Game + 'static>(
    gauntlet: &[G],
    ids: &[u32],
    spec: &AgentSpec,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Record> {
    assert!(ids.len() <= 64, "at most 64 distinct cards");
    let jobs: Vec<(usize, u64)> = (0..gauntlet.len())
        .flat_map(|o| (0..games).map(move |k| (o, k)))
        .collect();
    jobs.par_iter()
        .map(|&(o, k)| {
            let g = &gauntlet[o];
            let deal_seed = mix_seed(&[seed, o as u64, k]);
            let first = Seat::from_index((k % 2) as usize);
            let mut a = spec.build::<G>(mix_seed(&[deal_seed, k, 1]));
            let mut b = spec.build::<G>(mix_seed(&[deal_seed, k, 2]));
            let mut drawn = 0u64;
            let rec = play_game(
                g,
                deal_seed,
                first,
                [a.as_mut(), b.as_mut()],
                |before, _, _, after| {
                    drawn |= g.drawn_mask(before, Seat::P1) | g.drawn_mask(after, Seat::P1);
                },
            );
            progress(1);
            Record {
                drawn,
                score: rec.outcome.score(Seat::P1),
            }
        })
        .collect()
}

/// Score sums for a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    pub score: f64,
}

impl Tally {
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            f64::NAN
        } else {
            self.score / self.games as f64
        }
    }

    pub fn interval(&self) -> (f64, f64) {
        crate::stats::wilson(self.score, self.games as f64, crate::stats::Z95)
    }
}

/// GIH and GNS tallies of the `k`-th distinct card over the records.
pub fn drawn_tallies(k: usize, records: &[Record]) -> (Tally, Tally) {
    let mask = 1u64 << k;
    let mut gih = Tally::default();
    let mut gns = Tally::default();
    for r in records {
        let t = if r.drawn & mask != 0 {
            &mut gih
        } else {
            &mut gns
        };
        t.games += 1;
        t.score += r.score;
    }
    (gih, gns)
}

/// The paired difference of two runs on the same deals: mean of `a − b` and its 95% normal
/// interval from the standard error of the per-deal differences.
pub fn paired_difference(a: &[Record], b: &[Record]) -> (f64, f64, f64) {
    assert_eq!(a.len(), b.len());
    let n = a.len() as f64;
    if a.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x.score - y.score).collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = if a.len() > 1 {
        d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = crate::stats::Z95 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}
