//! MAST, the Move-Average Sampling Technique (Finnsson & Björnsson, "Simulation-Based Approach to
//! General Game Playing", AAAI 2008; ε-greedy MAST: Tak, Winands & Björnsson, "N-Grams and the
//! Last-Good-Reply Policy Applied in General Game Playing", IEEE TCIAIG 4(2), 2012): a table of the
//! mean result each player got in the iterations in which it took an action, whatever the state,
//! learnt during a search and used to choose playout actions (issue 33).
//!
//! The table is keyed by the action alone (actions name cards by card id, so an action means the
//! same in every determinization) and holds each seat's (reward sum, count). It is a fixed
//! open-addressing table, allocated once and cleared per search by a generation stamp, so a warm
//! table allocates nothing.

use crate::core::{below, GameRng, Seat};
use rand::Rng;
use std::hash::{Hash, Hasher};

/// Slots of the table (a power of two). When three quarters are in use, new actions are not
/// recorded (their mean reads as unseen).
const SLOTS: usize = 1 << 12;
const BITS: u32 = 12;
const FULL: usize = SLOTS / 4 * 3;

/// Multiply-rotate hashing (the Fx hash of rustc), cheap on the small actions of the games.
struct Fx(u64);

impl Fx {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.add(x as u64);
    }
}

/// The MAST table of one search, and the actions of the iteration under way.
#[derive(Debug, Default)]
pub struct Mast<A> {
    keys: Vec<A>,
    /// A slot is in use when its stamp is the current generation.
    stamp: Vec<u32>,
    sum: Vec<[f64; 2]>,
    n: Vec<[f64; 2]>,
    gen: u32,
    len: usize,
    /// The actions each seat took in the iteration under way (tree and playout).
    moves: Vec<(Seat, A)>,
}

impl<A: Copy + Eq + Hash + Default> Mast<A> {
    /// Starts a search: the table is emptied, or with `keep` > 0 every statistic is multiplied by
    /// `keep` (what earlier searches learnt, decayed). Allocates only the first time.
    pub fn start(&mut self, keep: f64) {
        if self.keys.is_empty() {
            self.keys = vec![A::default(); SLOTS];
            self.stamp = vec![0; SLOTS];
            self.sum = vec![[0.0; 2]; SLOTS];
            self.n = vec![[0.0; 2]; SLOTS];
            self.moves.reserve(4096);
            self.gen = 1;
            self.len = 0;
        } else if keep > 0.0 {
            for i in 0..SLOTS {
                if self.stamp[i] == self.gen {
                    for s in 0..2 {
                        self.sum[i][s] *= keep;
                        self.n[i][s] *= keep;
                    }
                }
            }
        } else {
            if self.gen == u32::MAX {
                self.stamp.iter_mut().for_each(|s| *s = 0);
                self.gen = 0;
            }
            self.gen += 1;
            self.len = 0;
        }
        self.moves.clear();
    }

    /// The slot of `a`: in use, or (with `insert`, when there is room) newly taken.
    fn slot(&mut self, a: A, insert: bool) -> Option<usize> {
        let mut h = Fx(0);
        a.hash(&mut h);
        let mut i = (h.0 >> (64 - BITS)) as usize;
        loop {
            if self.stamp[i] != self.gen {
                if !insert || self.len >= FULL {
                    return None;
                }
                self.stamp[i] = self.gen;
                self.keys[i] = a;
                self.sum[i] = [0.0; 2];
                self.n[i] = [0.0; 2];
                self.len += 1;
                return Some(i);
            }
            if self.keys[i] == a {
                return Some(i);
            }
            i = (i + 1) & (SLOTS - 1);
        }
    }

    /// Notes that `seat` took `a` in the iteration under way.
    #[inline]
    pub fn record(&mut self, seat: Seat, a: A) {
        self.moves.push((seat, a));
    }

    /// Ends the iteration: each recorded action adds its seat's `result` to its statistics (an
    /// action taken twice counts twice).
    pub fn update(&mut self, result: [f64; 2]) {
        let mut moves = std::mem::take(&mut self.moves);
        for &(seat, a) in &moves {
            if let Some(i) = self.slot(a, true) {
                self.sum[i][seat.index()] += result[seat.index()];
                self.n[i][seat.index()] += 1.0;
            }
        }
        moves.clear();
        self.moves = moves;
    }

    /// `seat`'s mean result over the iterations in which it took `a`, or `None` if it never did
    /// (in this table).
    pub fn mean(&mut self, seat: Seat, a: A) -> Option<f64> {
        let i = self.slot(a, false)?;
        let n = self.n[i][seat.index()];
        (n > 0.0).then(|| self.sum[i][seat.index()] / n)
    }

    /// A MAST choice for `seat` among `list` (not empty): with `tau` = 0 the action of best mean
    /// (ties broken uniformly at random), else one drawn with probability ∝ exp(mean / `tau`)
    /// (Gibbs). An action never seen counts as the mean `unseen`.
    pub fn choose(
        &mut self,
        seat: Seat,
        list: &[A],
        tau: f64,
        unseen: f64,
        rng: &mut GameRng,
    ) -> A {
        if tau <= 0.0 {
            let mut best = list[0];
            let mut best_q = f64::NEG_INFINITY;
            let mut ties = 0usize;
            for &a in list {
                let q = self.mean(seat, a).unwrap_or(unseen);
                if q > best_q {
                    best_q = q;
                    best = a;
                    ties = 1;
                } else if q == best_q {
                    ties += 1;
                    if below(rng, ties) == 0 {
                        best = a;
                    }
                }
            }
            best
        } else {
            let mut top = f64::NEG_INFINITY;
            for &a in list {
                top = top.max(self.mean(seat, a).unwrap_or(unseen));
            }
            let mut total = 0.0;
            for &a in list {
                total += ((self.mean(seat, a).unwrap_or(unseen) - top) / tau).exp();
            }
            let mut r = rng.gen::<f64>() * total;
            for &a in list {
                r -= ((self.mean(seat, a).unwrap_or(unseen) - top) / tau).exp();
                if r < 0.0 {
                    return a;
                }
            }
            list[list.len() - 1]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use std::collections::HashMap;

    /// The table's means are those of an independent count (a `HashMap` of sums and counts per
    /// seat and action) over 3,000 iterations of random actions from 2,000 values (many sharing
    /// a first slot), and a hand-computed case.
    #[test]
    fn the_table_holds_each_seats_mean_per_action() {
        let mut m: Mast<u32> = Mast::default();
        m.start(0.0);
        // By hand: P1 takes 7 twice in an iteration it wins (1.0), P2 takes 7 once there (0.0);
        // P1 takes 7 again in one it scores 0.25; P2 takes 9 in one it scores 0.75.
        m.record(Seat::P1, 7);
        m.record(Seat::P2, 7);
        m.record(Seat::P1, 7);
        m.update([1.0, 0.0]);
        m.record(Seat::P1, 7);
        m.record(Seat::P2, 9);
        m.update([0.25, 0.75]);
        assert_eq!(m.mean(Seat::P1, 7), Some(2.25 / 3.0));
        assert_eq!(m.mean(Seat::P2, 7), Some(0.0));
        assert_eq!(m.mean(Seat::P2, 9), Some(0.75));
        assert_eq!(m.mean(Seat::P1, 9), None);
        assert_eq!(m.mean(Seat::P1, 8), None);
        // A new search forgets; one that keeps halves sums and counts alike (the same means).
        m.start(0.5);
        assert_eq!(m.mean(Seat::P1, 7), Some(2.25 / 3.0));
        m.start(0.0);
        assert_eq!(m.mean(Seat::P1, 7), None);

        let mut rng = rng_from_seed(5);
        let mut want: HashMap<(usize, u32), (f64, u32)> = HashMap::new();
        for _ in 0..3000 {
            let r = f64::from(rng.gen_range(0..5u32)) / 4.0;
            for _ in 0..rng.gen_range(1..12) {
                let seat = Seat::from_index(rng.gen_range(0..2));
                let a = rng.gen_range(0..2000u32) * 4096;
                m.record(seat, a);
                let s = if seat == Seat::P1 { r } else { 1.0 - r };
                let e = want.entry((seat.index(), a)).or_insert((0.0, 0));
                e.0 += s;
                e.1 += 1;
            }
            m.update([r, 1.0 - r]);
        }
        let mut seen = 0;
        for a in 0..2000u32 {
            for seat in [Seat::P1, Seat::P2] {
                let got = m.mean(seat, a * 4096);
                match want.get(&(seat.index(), a * 4096)) {
                    Some(&(s, n)) => {
                        let got = got.expect("a seen action has a mean");
                        assert!((got - s / f64::from(n)).abs() < 1e-9, "{a} {seat:?}");
                        seen += 1;
                    }
                    None => assert_eq!(got, None),
                }
            }
        }
        assert!(seen > 3000, "{seen}");
    }

    /// The choice: the best mean (an unseen action counts as `unseen`); Gibbs draws in proportion
    /// to exp(mean / τ), checked against the hand-computed probabilities.
    #[test]
    fn mast_chooses_by_the_means() {
        let mut m: Mast<u32> = Mast::default();
        m.start(0.0);
        let mut rng = rng_from_seed(1);
        for (a, r) in [(1u32, 0.2), (2, 0.8), (3, 0.5)] {
            m.record(Seat::P1, a);
            m.update([r, 1.0 - r]);
        }
        assert_eq!(m.choose(Seat::P1, &[1, 2, 3], 0.0, 0.5, &mut rng), 2);
        assert_eq!(m.choose(Seat::P1, &[1, 3, 4], 0.0, 0.6, &mut rng), 4);
        assert_eq!(m.choose(Seat::P1, &[1, 3, 4], 0.0, 0.4, &mut rng), 3);
        // P2 took none of them: all count as unseen, and the ties are broken uniformly.
        let mut ties = [0u32; 3];
        for _ in 0..3000 {
            ties[m.choose(Seat::P2, &[1, 2, 3], 0.0, 0.5, &mut rng) as usize - 1] += 1;
        }
        assert!(ties.iter().all(|&k| (900..1100).contains(&k)), "{ties:?}");
        let mut hits = [0u32; 3];
        for _ in 0..20_000 {
            let a = m.choose(Seat::P1, &[1, 2, 3], 0.2, 0.5, &mut rng);
            hits[a as usize - 1] += 1;
        }
        // exp(0.2/0.2) : exp(0.8/0.2) : exp(0.5/0.2) = e : e^4 : e^2.5.
        let w = [1f64.exp(), 4f64.exp(), 2.5f64.exp()];
        let t: f64 = w.iter().sum();
        for k in 0..3 {
            let p = w[k] / t;
            let got = f64::from(hits[k]) / 20_000.0;
            assert!((got - p).abs() < 0.015, "{k}: {got} against {p}");
        }
    }
}
