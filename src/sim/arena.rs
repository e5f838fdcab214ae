//! The AI arena: agents play each other in pairs of games on the same deal with the seats swapped,
//! over a set of decks; pair results feed Bradley–Terry ratings and the SPRT.

use super::play_game;
use crate::agents::AgentSpec;
use crate::core::{mix_seed, Game, Seat};
use rayon::prelude::*;

/// The result of one pair of games from agent `a`'s side: its points in half points (0..=4).
pub fn play_pair<G: Game + 'static>(game: &G, a: &AgentSpec, b: &AgentSpec, seed: u64) -> usize {
    let mut half = 0usize;
    for swap in [false, true] {
        let mut aa = a.build::<G>(mix_seed(&[seed, 1, swap as u64]));
        let mut bb = b.build::<G>(mix_seed(&[seed, 2, swap as u64]));
        let (agents, a_seat): ([&mut dyn crate::agents::Agent<G>; 2], Seat) = if swap {
            ([bb.as_mut(), aa.as_mut()], Seat::P2)
        } else {
            ([aa.as_mut(), bb.as_mut()], Seat::P1)
        };
        let rec = play_game(game, seed, Seat::P1, agents, |_, _, _, _| {});
        half += (rec.outcome.score(a_seat) * 2.0).round() as usize;
    }
    half
}

/// Plays pairs `from..to` of agents (a, b): pair k uses deck pair `k % games.len()` and the seed
/// from (seed, a, b, k). Returns the pentanomial counts.
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
        .map(|k| {
            let g = &games[(k % games.len() as u64) as usize];
            let h = play_pair(
                g,
                specs.0,
                specs.1,
                mix_seed(&[seed, ids.0 as u64, ids.1 as u64, k]),
            );
            progress(2);
            let mut c = [0u64; 5];
            c[h] = 1;
            c
        })
        .reduce(|| [0; 5], |a, b| std::array::from_fn(|i| a[i] + b[i]))
}
