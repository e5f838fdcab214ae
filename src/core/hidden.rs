//! Hidden cards: what each seat knows of a player's card instances, and dealing again what an
//! observer does not know (the heart of every game's `Game::determinize`).
//!
//! A game numbers each player's card instances (at most 64, so a zone or a knowledge set is one
//! `u64`) and keeps, per player and seat, the mask of the instances whose identity that seat knows. Determinizing for an observer deals the identities of the instances it does not know
//! again, pool by pool: a **pool** is a set of instances whose identities are interchangeable for
//! that observer (often all of a player's unknown instances — hand, face-down cards, deck; a game
//! with face-down cards of a known kind makes one pool per kind of constraint, and cards hidden
//! from both players are unknown to either observer). [`redeal`] sorts the pool's identities before
//! shuffling, so the result depends only on what the observer knows, never on which instance holds
//! which hidden card.
//!
//! **Random state inside a state.** A game whose rules shuffle during play may keep an RNG (or its
//! seed) in its `State`; then `determinize` must re-seed it from its `rng` argument, or a search
//! would know every future shuffle. The games so far keep all chance in the deck order fixed at
//! setup, which determinization deals again.

use super::{FixedVec, GameRng};

/// The mask of instances `0..n` (n ≤ 64).
#[inline]
pub fn first_n(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Deals the identities of the instances in `pool` (bits over `ids`, which holds each instance's
/// card) again at random among those instances: the identities are sorted, then shuffled, then
/// dealt in instance order. Allocation-free.
pub fn redeal<T: Copy + Ord + Default>(ids: &mut [T], pool: u64, rng: &mut GameRng) {
    use rand::seq::SliceRandom;
    let mut v: FixedVec<T, 64> = FixedVec::new();
    let mut m = pool;
    while m != 0 {
        v.push(ids[m.trailing_zeros() as usize]);
        m &= m - 1;
    }
    v.as_mut_slice().sort_unstable();
    v.as_mut_slice().shuffle(rng);
    deal_back(ids, pool, v.as_slice());
}

/// Puts `v`'s identities back on the instances in `pool`, in instance order (the last step of
/// [`redeal`] and [`redeal_bytes`]).
#[inline(always)]
fn deal_back<T: Copy>(ids: &mut [T], pool: u64, v: &[T]) {
    let mut m = pool;
    let mut k = 0;
    while m != 0 {
        ids[m.trailing_zeros() as usize] = v[k];
        k += 1;
        m &= m - 1;
    }
}

/// [`redeal`] for one-byte identities (Trails' local card ids): the same deal for the same random
/// numbers — the pool's identities in increasing order, shuffled by the same [`SliceRandom::shuffle`]
/// on a slice of the same length, dealt in instance order — with the sort done by counting (a
/// pool's multiset has one increasing order, so any correct sort gives the same slice).
/// Allocation-free.
///
/// [`SliceRandom::shuffle`]: rand::seq::SliceRandom::shuffle
pub fn redeal_bytes(ids: &mut [u8], pool: u64, rng: &mut GameRng) {
    use rand::seq::SliceRandom;
    // How many instances of the pool hold each identity (at most 64: a byte), and which
    // identities occur, as a 256-bit set walked in increasing order.
    let mut count = [0u8; 256];
    let mut met = [0u64; 4];
    let mut m = pool;
    while m != 0 {
        let id = ids[m.trailing_zeros() as usize];
        count[usize::from(id)] += 1;
        met[usize::from(id >> 6)] |= 1 << (id & 63);
        m &= m - 1;
    }
    let mut v = [0u8; 64];
    let mut n = 0;
    for (w, &word) in met.iter().enumerate() {
        let mut b = word;
        while b != 0 {
            let id = (w << 6) as u8 | b.trailing_zeros() as u8;
            for _ in 0..count[usize::from(id)] {
                v[n] = id;
                n += 1;
            }
            b &= b - 1;
        }
    }
    v[..n].shuffle(rng);
    deal_back(ids, pool, &v[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn redeal_keeps_what_is_outside_the_pool_and_the_multiset_inside() {
        let mut rng = rng_from_seed(1);
        let start = [5u16, 1, 4, 1, 5, 9, 2, 6];
        let pool = 0b1011_0110;
        for _ in 0..100 {
            let mut ids = start;
            redeal(&mut ids, pool, &mut rng);
            for i in 0..8 {
                if pool & (1 << i) == 0 {
                    assert_eq!(ids[i], start[i]);
                }
            }
            let mut a: Vec<u16> = (0..8)
                .filter(|i| pool & (1 << i) != 0)
                .map(|i| ids[i])
                .collect();
            let mut b: Vec<u16> = (0..8)
                .filter(|i| pool & (1 << i) != 0)
                .map(|i| start[i])
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }

    /// The result depends only on the pool's multiset: two deals that differ in which instance
    /// holds which hidden card come out the same for the same random numbers.
    #[test]
    fn redeal_forgets_which_instance_held_which_card() {
        let pool = 0b1111;
        let mut a = [1u8, 2, 3, 4, 9];
        let mut b = [4u8, 3, 1, 2, 9];
        redeal(&mut a, pool, &mut rng_from_seed(7));
        redeal(&mut b, pool, &mut rng_from_seed(7));
        assert_eq!(a, b);
    }

    /// Uniform: each of the 3! = 6 arrangements of three distinct cards comes up about 1/6 of the
    /// time (6,000 deals: each count within 1000 ± 150, over 4.5 standard deviations).
    #[test]
    fn redeal_is_uniform() {
        let mut rng = rng_from_seed(3);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..6000 {
            let mut ids = [1u8, 2, 3];
            redeal(&mut ids, 0b111, &mut rng);
            *counts.entry(ids).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6);
        assert!(
            counts.values().all(|&c| (850..=1150).contains(&c)),
            "{counts:?}"
        );
    }

    /// [`redeal_bytes`] deals as [`redeal`] (whose sort is the standard library's) for the same
    /// random numbers: random pools of up to 64 instances over ids with many copies, ids spread
    /// over all four 64-id words, and the empty and full pools; the random numbers left after
    /// each deal are the same too.
    #[test]
    fn redeal_bytes_deals_as_redeal() {
        use rand::Rng;
        let mut gen = rng_from_seed(11);
        for case in 0..3000u64 {
            let len = gen.gen_range(1..=64usize);
            // Few distinct ids (many copies) or ids over the whole byte.
            let top = if case % 2 == 0 { 6u16 } else { 256 };
            let start: Vec<u8> = (0..len).map(|_| gen.gen_range(0..top) as u8).collect();
            let pool = match case % 7 {
                0 => 0,
                1 => first_n(len),
                _ => gen.gen::<u64>() & first_n(len),
            };
            let (mut a, mut b) = (start.clone(), start.clone());
            let (mut ra, mut rb) = (rng_from_seed(case), rng_from_seed(case));
            redeal(&mut a, pool, &mut ra);
            redeal_bytes(&mut b, pool, &mut rb);
            assert_eq!(a, b, "case {case}: {start:?} pool {pool:#x}");
            assert_eq!(ra.gen::<u64>(), rb.gen::<u64>(), "case {case}: the stream");
        }
    }

    #[test]
    fn first_n_masks() {
        assert_eq!(first_n(0), 0);
        assert_eq!(first_n(6), 0b11_1111);
        assert_eq!(first_n(64), u64::MAX);
    }
}
