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
/// [`redeal`]).
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

/// [`redeal`] for one-byte identities (Fire Force's card ids; Trails deals through [`BytePool`],
/// prepared once a search): the same deal for the
/// same random numbers — the pool's identities in increasing order, shuffled as rand's
/// [`SliceRandom::shuffle`] shuffles a slice of the same length, dealt in instance order — with
/// the sort done by counting (a pool's multiset has one increasing order, so any correct sort
/// gives the same slice). Allocation-free. [`BytePool`] prepares the sort once for many deals.
///
/// [`SliceRandom::shuffle`]: rand::seq::SliceRandom::shuffle
pub fn redeal_bytes(ids: &mut [u8], pool: u64, rng: &mut GameRng) {
    BytePool::new(ids, pool, |_| 0).deal(rng, |i, id, _| ids[i] = id);
}

/// The pool of [`redeal_bytes`] prepared once for many deals of one position (a search deals the
/// same root again at every iteration): its instances in increasing order and their identities
/// sorted, each with a byte the caller derives from the identity (a *tag*: Trails' card kinds),
/// which travels with it. [`BytePool::deal`] then costs the shuffle and the stores only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytePool {
    /// The pool's instances (a mask over the ids).
    pub mask: u64,
    n: u8,
    /// The pool's instances, increasing (`n` of them).
    at: [u8; 64],
    /// Their identities in increasing order, each with its tag in the high byte.
    ids: [u16; 64],
}

impl Default for BytePool {
    fn default() -> Self {
        BytePool {
            mask: 0,
            n: 0,
            at: [0; 64],
            ids: [0; 64],
        }
    }
}

impl BytePool {
    /// The instances of `pool` (a mask over `ids`, the card of each instance) and their
    /// identities, sorted by counting, each with `tag(identity)`.
    pub fn new(ids: &[u8], pool: u64, tag: impl Fn(u8) -> u8) -> BytePool {
        // How many instances of the pool hold each identity (at most 64: a byte), and which
        // identities occur, as a 256-bit set walked in increasing order.
        let mut count = [0u8; 256];
        let mut met = [0u64; 4];
        let mut at = [0u8; 64];
        let mut n = 0;
        let mut m = pool;
        while m != 0 {
            let i = m.trailing_zeros() as u8;
            let id = ids[usize::from(i)];
            at[n] = i;
            n += 1;
            count[usize::from(id)] += 1;
            met[usize::from(id >> 6)] |= 1 << (id & 63);
            m &= m - 1;
        }
        let mut v = [0u16; 64];
        let mut k = 0;
        for (w, &word) in met.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let id = (w << 6) as u8 | b.trailing_zeros() as u8;
                let tagged = u16::from(id) | u16::from(tag(id)) << 8;
                for _ in 0..count[usize::from(id)] {
                    v[k] = tagged;
                    k += 1;
                }
                b &= b - 1;
            }
        }
        BytePool {
            mask: pool,
            n: n as u8,
            at,
            ids: v,
        }
    }

    /// Deals the pool again: calls `put(instance, identity, tag)` once for each of its instances,
    /// with the identities [`redeal_bytes`] would give them for the same random numbers (the
    /// sorted identities shuffled by rand 0.8's Fisher–Yates `SliceRandom::shuffle`, which
    /// fixes the last place first, so each place is dealt as soon as it is fixed), and uses the
    /// same random numbers.
    ///
    /// Indices are masked to 64 places (`& 63`: they are below 64 already), so the loop has no
    /// bounds check that could panic and keeps the generator's state in registers.
    #[inline]
    pub fn deal(&self, rng: &mut GameRng, mut put: impl FnMut(usize, u8, u8)) {
        let n = usize::from(self.n);
        if n == 0 {
            return;
        }
        let mut v = self.ids;
        for i in (1..n).rev() {
            let i = i & 63;
            let j = shuffle_index(rng, i) & 63;
            // The swap of places `i` and `j`, less the store into place `i`, which no later
            // step reads (the places fixed so far are above `i`): place `i` is dealt `v[j]`.
            let [id, tag] = v[j].to_le_bytes();
            v[j] = v[i];
            put(usize::from(self.at[i]), id, tag);
        }
        let [id, tag] = v[0].to_le_bytes();
        put(usize::from(self.at[0]), id, tag);
    }
}

/// rand 0.8's `gen_range(0..i + 1 as u32)` as its `SliceRandom::shuffle` draws it for place `i`
/// (`gen_index`, `i < 64`): a 32-bit word (the low half of the generator's next 64-bit word)
/// times `i + 1`, whose high half is the draw, rejected while its low half is above the zone
/// `(n << lz(n)) − 1` of `n = i + 1` (read from a table here). The same words give the same
/// draws.
#[inline(always)]
fn shuffle_index(rng: &mut GameRng, i: usize) -> usize {
    use rand::RngCore;
    let range = i as u64 + 1;
    let zone = SHUFFLE_ZONES[i & 63];
    loop {
        let m = u64::from(rng.next_u32()) * range;
        if m as u32 <= zone {
            return (m >> 32) as usize;
        }
    }
}

/// rand 0.8's rejection zone of `gen_range(0..n as u32)`, `(n << n.leading_zeros()) − 1`, for
/// `n = i + 1` at entry `i` (`i < 64`).
const SHUFFLE_ZONES: [u32; 64] = {
    let mut z = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        let n = i as u32 + 1;
        z[i] = (n << n.leading_zeros()).wrapping_sub(1);
        i += 1;
    }
    z
};

/// What a game prepares once to determinize one position for one observer many times (a
/// search's iterations): [`super::Game::prepare_determinize`] fills it,
/// [`super::Game::determinize_in_place`] reads it. A game that prepares nothing leaves it
/// unready.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prepared {
    /// Whether the game filled it.
    pub ready: bool,
    /// One pool per player (for games whose identities are bytes).
    pub pools: [BytePool; 2],
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

    /// A [`BytePool`] prepared once and dealt again and again (a search's iterations) gives, from
    /// one random stream, the deals that [`redeal`] (the standard library's sort, rand's
    /// `SliceRandom::shuffle`) gives on a fresh copy of the ids each time, and leaves the stream
    /// where it does: pools of up to 64 instances, few or many distinct ids, empty and full.
    #[test]
    fn a_prepared_pool_deals_as_redeal_again_and_again() {
        use rand::Rng;
        let mut gen = rng_from_seed(12);
        for case in 0..1000u64 {
            let len = gen.gen_range(1..=64usize);
            let top = if case % 2 == 0 { 4u16 } else { 256 };
            let start: Vec<u8> = (0..len).map(|_| gen.gen_range(0..top) as u8).collect();
            let pool = match case % 5 {
                0 => 0,
                1 => first_n(len),
                _ => gen.gen::<u64>() & first_n(len),
            };
            let tag = |id: u8| id.wrapping_mul(37) ^ 0x5a;
            let prep = BytePool::new(&start, pool, tag);
            assert_eq!(prep.mask, pool);
            let (mut ra, mut rb) = (rng_from_seed(case), rng_from_seed(case));
            for deal in 0..4 {
                let mut a = start.clone();
                redeal(&mut a, pool, &mut ra);
                let mut b = start.clone();
                let mut dealt = 0u64;
                prep.deal(&mut rb, |i, id, t| {
                    b[i] = id;
                    assert_eq!(t, tag(id), "case {case}: the tag of {id}");
                    assert_eq!(dealt & 1 << i, 0, "case {case}: instance {i} dealt twice");
                    dealt |= 1 << i;
                });
                assert_eq!(dealt, pool, "case {case}, deal {deal}: the instances dealt");
                assert_eq!(a, b, "case {case}, deal {deal}: {start:?} pool {pool:#x}");
            }
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
