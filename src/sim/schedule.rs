//! The one schedule by which every command deals its games (`docs/statistics.md`, "Seeds and
//! reproducibility"): game `k` of a pairing, named by a `key` (the matchup's decks, the gauntlet
//! deck, the pair of agents) under the master seed `M`.
//!
//! - **Deal**: `d = k` when every game is a deal of its own (`matrix`, `cards`), `d = k / 2` when
//!   each deal is played from both sides (`duel`, `arena`); the deal's seed (both shuffles) is
//!   `mix(M, key…, d)`.
//! - **Seats**: on a paired deal, its second game (`k` odd) swaps the agents' seats.
//! - **First player**: the seat with the turn-1 initiative alternates by deal: P1 on even `d`.
//! - **Agents**: side A's agent (the row deck's, the studied deck's, agent A, the pair's first
//!   agent) is seeded `mix(M, key…, k, 1)`, side B's `mix(M, key…, k, 2)`.
//!
//! Every seed comes from words that name the game, never from the order games ran in, so the same
//! command gives the same games on any number of threads, shards or machines.

use crate::core::{mix_seed, FixedVec, Seat};

/// What game `k` of a pairing is: the seed of its deal, who moves first, whether side A plays seat
/// P2 (a paired deal's second game), and the seeds of side A's and side B's agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    pub seed: u64,
    pub first: Seat,
    pub swapped: bool,
    pub agent_seeds: [u64; 2],
}

impl Deal {
    /// The seat side A plays.
    pub fn seat_of_a(&self) -> Seat {
        if self.swapped {
            Seat::P2
        } else {
            Seat::P1
        }
    }
}

/// The most words of a key.
pub const MAX_KEY: usize = 4;

/// Game `k` of the pairing `key` under master seed `master`; `paired` plays each deal twice, the
/// seats swapped.
pub fn deal(master: u64, key: &[u64], k: u64, paired: bool) -> Deal {
    assert!(key.len() <= MAX_KEY, "a key of at most {MAX_KEY} words");
    let d = if paired { k / 2 } else { k };
    let mut w: FixedVec<u64, { MAX_KEY + 3 }> = FixedVec::new();
    w.push(master);
    for &x in key {
        w.push(x);
    }
    w.push(d);
    let seed = mix_seed(w.as_slice());
    w.pop();
    w.push(k);
    w.push(1);
    let a = mix_seed(w.as_slice());
    w.pop();
    w.push(2);
    let b = mix_seed(w.as_slice());
    Deal {
        seed,
        first: Seat::from_index((d % 2) as usize),
        swapped: paired && k % 2 == 1,
        agent_seeds: [a, b],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule as `docs/statistics.md` writes it, word for word.
    #[test]
    fn the_schedule_is_the_documented_one() {
        let d = deal(7, &[3, 4], 5, false);
        assert_eq!(d.seed, mix_seed(&[7, 3, 4, 5]));
        assert_eq!(
            d.agent_seeds,
            [mix_seed(&[7, 3, 4, 5, 1]), mix_seed(&[7, 3, 4, 5, 2])]
        );
        assert_eq!((d.first, d.swapped), (Seat::P2, false));
        // Paired: games 4 and 5 are deal 2, the second with the seats swapped; P1 first.
        let (e, o) = (deal(7, &[], 4, true), deal(7, &[], 5, true));
        assert_eq!((e.seed, o.seed), (mix_seed(&[7, 2]), mix_seed(&[7, 2])));
        assert_eq!((e.first, o.first), (Seat::P1, Seat::P1));
        assert_eq!((e.seat_of_a(), o.seat_of_a()), (Seat::P1, Seat::P2));
        assert_eq!(o.agent_seeds, [mix_seed(&[7, 5, 1]), mix_seed(&[7, 5, 2])]);
    }
}
