//! A uniform index below `n` from the crate's RNG, by Lemire's nearly-divisionless method
//! (D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019).
//!
//! A 64-bit word `x` times `n` is a 128-bit product; its high word is the draw and its low word
//! decides rejection. Of the 2^64 words, each high word `h < n` comes from `⌈(h+1)·2^64/n⌉ −
//! ⌈h·2^64/n⌉` of them, `⌊2^64/n⌋` or one more; rejecting the words whose low word is below
//! `t = 2^64 mod n` leaves exactly `⌊2^64/n⌋` for each. Since `t < n`, a low word of at least
//! `n` is accepted without computing `t`, so the division is paid only on the rare words whose
//! low word is below `n` (probability `n/2^64`). rand's `gen_range` instead tests every word
//! against a zone `(n << lz(n)) − 1` that rejects up to half of the words.

use super::GameRng;
use rand::RngCore;

/// A uniform index in `0..n` (`n ≥ 1`) drawn from `rng`: one word almost always, one multiply.
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    debug_assert!(n > 0, "a draw below 0");
    lemire::<64>(|| rng.next_u64(), n as u64) as usize
}

/// Lemire's draw on `BITS`-bit words (`next` returns words below `2^BITS`, `1 ≤ n ≤ 2^BITS`):
/// [`below`] is `BITS = 64`; the tests count all words of a small `BITS` exactly.
#[inline(always)]
fn lemire<const BITS: u32>(mut next: impl FnMut() -> u64, n: u64) -> u64 {
    let mask = u64::MAX >> (64 - BITS);
    let mut m = u128::from(next()) * u128::from(n);
    if (m as u64 & mask) < n {
        // 2^BITS mod n, computed as (2^BITS − n) mod n, which fits the word: `mask − (n − 1)`
        // cannot overflow, even for n = 2^BITS (where it is 0).
        let t = (mask - (n - 1)) % n;
        while (m as u64 & mask) < t {
            m = u128::from(next()) * u128::from(n);
        }
    }
    (m >> BITS) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 10-bit word as the first word, for every `n` up to 2^10 (powers of two or not):
    /// the accepted words give each value in `0..n` exactly `⌊2^10/n⌋` times (the count a
    /// uniform draw must have, computed here, not the draw's own threshold), and exactly
    /// `2^10 mod n` words are rejected (a rejected word is seen as a second call).
    #[test]
    fn lemire_draw_is_exactly_uniform_over_all_small_words() {
        const BITS: u32 = 10;
        let words = 1u64 << BITS;
        for n in 1..=words {
            let mut counts = vec![0u64; n as usize];
            let mut rejected = 0u64;
            for x in 0..words {
                let mut calls = 0;
                let v = lemire::<BITS>(
                    || {
                        calls += 1;
                        // After a rejection: the largest word, whose low word 2^10 − n (0
                        // for n = 2^10) is never below 2^10 mod n, so it ends the draw.
                        if calls == 1 {
                            x
                        } else {
                            words - 1
                        }
                    },
                    n,
                );
                assert!(v < n, "n {n}, word {x}: drew {v}");
                if calls == 1 {
                    counts[v as usize] += 1;
                } else {
                    rejected += 1;
                }
            }
            let each = words / n;
            for (v, &c) in counts.iter().enumerate() {
                assert_eq!(c, each, "n {n}: value {v} drawn by {c} words, not {each}");
            }
            assert_eq!(rejected, words % n, "n {n}: rejected words");
        }
    }

    /// The 64-bit draw from a fixed seed: a chi-square over 600,000 draws for several `n` not
    /// powers of two stays below a loose bound (the 99.99th percentile of chi-square with
    /// `n − 1` degrees of freedom, by the Wilson–Hilferty approximation), and every value is
    /// reached.
    #[test]
    fn below_is_uniform_by_chi_square() {
        let mut rng = crate::core::rng_from_seed(33);
        for n in [2usize, 3, 5, 7, 10, 37, 100, 255] {
            let draws = 600_000u64;
            let mut counts = vec![0u64; n];
            for _ in 0..draws {
                counts[below(&mut rng, n)] += 1;
            }
            let e = draws as f64 / n as f64;
            let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
            let k = (n - 1) as f64;
            // z = 3.719 is the 99.99th percentile of the standard normal.
            let bound = k * (1.0 - 2.0 / (9.0 * k) + 3.719 * (2.0 / (9.0 * k)).sqrt()).powi(3);
            assert!(chi < bound, "n {n}: chi-square {chi:.1} ≥ {bound:.1}");
            assert!(counts.iter().all(|&c| c > 0), "n {n}: a value never drawn");
        }
    }
}
