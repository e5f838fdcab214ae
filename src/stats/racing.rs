//! Racing: a sequential test that drops a candidate as soon as it is shown worse than the
//! incumbent, and accepts one only when it is shown better (`docs/tuning.md`, "Racing").
//!
//! A candidate is measured by paired differences `d_i = score(candidate) − score(incumbent)` on the
//! same deals, each in `[-1, 1]` (a game's score is 1, ½ or 0). At each look (a stage of the
//! race) the mean of the `d_i` is bounded by the empirical Bernstein inequality (A. Maurer and
//! M. Pontil, "Empirical Bernstein bounds and sample variance penalization", COLT 2009, Theorem 4):
//! for `n` independent values in a range of width `R`, with probability at least `1 − δ`,
//!
//! `E[d] ≤ mean + sqrt(2·V·ln(2/δ)/n) + 7·R·ln(2/δ)/(3·(n − 1))`,
//!
//! `V` the sample variance (divisor `n − 1`), and the same below. The bound holds at a fixed `n`;
//! a race looks at most `looks` times, so each look spends `δ/looks` (a union bound): the stated
//! error rates then hold whenever the race stops, whatever it saw before.

/// The half-width of the empirical Bernstein bound on a mean of `n` values of sample variance `var`
/// in a range of width `range`, at confidence `1 − delta` (one side). Infinite below 2 values.
pub fn bernstein_radius(n: u64, var: f64, range: f64, delta: f64) -> f64 {
    if n < 2 {
        return f64::INFINITY;
    }
    let l = (2.0 / delta).ln();
    let n = n as f64;
    (2.0 * var.max(0.0) * l / n).sqrt() + 7.0 * range * l / (3.0 * (n - 1.0))
}

/// The running sums of one candidate's paired differences, in half points (each `d_i` is one of
/// −2, −1, 0, 1, 2 half points), so that they are exact and can be written and read back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    pub n: u64,
    /// Sum of the differences, half points.
    pub sum: i64,
    /// Sum of their squares, quarter points.
    pub sumsq: i64,
}

impl Arm {
    /// Adds one paired difference, in half points (−2..=2).
    pub fn push(&mut self, half_points: i64) {
        debug_assert!((-2..=2).contains(&half_points));
        self.n += 1;
        self.sum += half_points;
        self.sumsq += half_points * half_points;
    }

    /// Adds another arm's sums (games played apart, on other deals).
    pub fn add(&mut self, o: &Arm) {
        self.n += o.n;
        self.sum += o.sum;
        self.sumsq += o.sumsq;
    }

    /// The mean difference, in points (NaN with no games).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            return f64::NAN;
        }
        self.sum as f64 / (2.0 * self.n as f64)
    }

    /// The sample variance of the differences, in points² (divisor `n − 1`; 0 below 2 values).
    pub fn var(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let (s, q) = (self.sum as f64 / 2.0, self.sumsq as f64 / 4.0);
        ((q - s * s / n) / (n - 1.0)).max(0.0)
    }

    /// The 95% normal interval of the mean difference (for reports, not for the race's
    /// decisions): mean ± 1.96·s/√n.
    pub fn interval(&self) -> (f64, f64) {
        let m = self.mean();
        let h = super::Z95 * (self.var() / self.n.max(1) as f64).sqrt();
        (m - h, m + h)
    }

    /// Whether the sums can be those of `n` differences of −2..=2 half points.
    pub fn check(&self) -> Result<(), ImpossibleSums> {
        let n = self.n as i64;
        if self.n > 1 << 40
            || self.sum.abs() > 2 * n
            || self.sumsq > 4 * n
            || self.sumsq < self.sum.abs()
        {
            return Err(ImpossibleSums {
                sum: self.sum,
                sumsq: self.sumsq,
                n: self.n,
            });
        }
        Ok(())
    }
}

/// An [`Arm`]'s sums that no `n` paired differences can give (a tune checkpoint edited or cut
/// short). The reader that found them names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sums {sum} and {sumsq} cannot come from {n} games")]
pub struct ImpossibleSums {
    pub sum: i64,
    pub sumsq: i64,
    pub n: u64,
}

/// What a look at a candidate decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Shown better than the incumbent: accept it.
    Better,
    /// Shown worse: drop it.
    Worse,
    /// Not yet shown either way.
    Open,
}

/// The race's error rates and how often it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Race {
    /// The chance that a race accepts any candidate that is not better than the incumbent (mean
    /// difference ≤ 0), over all its `candidates` together.
    pub alpha: f64,
    /// The chance that the race drops a given candidate that is not worse (mean difference ≥ 0).
    pub beta: f64,
    /// The candidates raced together (the accept side's union bound).
    pub candidates: u64,
    /// The most looks at one candidate.
    pub looks: u64,
}

/// The width of the range of a paired difference of two scores in `[0, 1]`.
const RANGE: f64 = 2.0;

impl Race {
    /// The confidence spent by one look on the accept side.
    fn delta_accept(&self) -> f64 {
        self.alpha / (self.candidates.max(1) * self.looks.max(1)) as f64
    }

    /// The confidence spent by one look on the drop side.
    fn delta_drop(&self) -> f64 {
        self.beta / self.looks.max(1) as f64
    }

    /// The lower bound of the mean difference used to accept.
    pub fn lower(&self, a: &Arm) -> f64 {
        a.mean() - bernstein_radius(a.n, a.var(), RANGE, self.delta_accept())
    }

    /// The upper bound of the mean difference used to drop.
    pub fn upper(&self, a: &Arm) -> f64 {
        a.mean() + bernstein_radius(a.n, a.var(), RANGE, self.delta_drop())
    }

    /// The verdict on `a` at this look.
    pub fn verdict(&self, a: &Arm) -> Verdict {
        if a.n < 2 {
            Verdict::Open
        } else if self.lower(a) > 0.0 {
            Verdict::Better
        } else if self.upper(a) < 0.0 {
            Verdict::Worse
        } else {
            Verdict::Open
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Maurer and Pontil's bound computed by hand: n = 100, V = 0.25, R = 2, δ = 0.05:
    /// ln 40 = 3.688879; sqrt(2·0.25·3.688879/100) = 0.135810; 7·2·3.688879/(3·99) = 0.173888;
    /// sum 0.309698.
    #[test]
    fn the_bernstein_radius_is_maurer_and_pontils() {
        let r = bernstein_radius(100, 0.25, 2.0, 0.05);
        assert!((r - 0.309_698).abs() < 1e-5, "{r}");
        assert!(bernstein_radius(1, 0.0, 2.0, 0.05).is_infinite());
    }

    /// The union bounds, by hand: 60 games won by the candidate alone and 40 equal (mean 0.6,
    /// variance 24/99 = 0.242424), 10 candidates, 4 looks. Accept side δ = 0.05/(10·4) = 0.00125:
    /// ln(1600) = 7.377759, radius sqrt(2·0.242424·7.377759/100) + 14·7.377759/297 = 0.536905,
    /// lower 0.063095. Drop side δ = 0.05/4 = 0.0125: ln(160) = 5.075174, radius 0.396100,
    /// upper 0.996100.
    #[test]
    fn the_race_spends_alpha_over_candidates_and_looks_and_beta_over_looks() {
        let mut a = Arm::default();
        for k in 0..100 {
            a.push(if k < 60 { 2 } else { 0 });
        }
        let race = Race {
            alpha: 0.05,
            beta: 0.05,
            candidates: 10,
            looks: 4,
        };
        assert!(
            (race.lower(&a) - 0.063_095).abs() < 1e-5,
            "{}",
            race.lower(&a)
        );
        assert!(
            (race.upper(&a) - 0.996_100).abs() < 1e-5,
            "{}",
            race.upper(&a)
        );
        assert_eq!(race.verdict(&a), Verdict::Better);
        // With 100 candidates the accept side needs more: ln(16000) = 9.680344 → lower < 0.
        let many = Race {
            candidates: 100,
            ..race
        };
        assert_eq!(many.verdict(&a), Verdict::Open);
    }

    /// Sums in half points give the mean and variance of the values in points: 1, ½, 0, −1 →
    /// mean 1/8, variance ((1 − .125)² + (.5 − .125)² + .125² + (1.125)²)/3 = 2.1875/3 = 0.729167.
    #[test]
    fn arm_sums_give_the_mean_and_variance() {
        let mut a = Arm::default();
        for h in [2, 1, 0, -2] {
            a.push(h);
        }
        assert_eq!(a.mean(), 0.125);
        assert!((a.var() - 0.729_167).abs() < 1e-6, "{}", a.var());
        assert!(a.check().is_ok());
        // The report interval: 0.125 ± 1.959964·sqrt(0.729167/4) = 0.125 ± 0.836819.
        let (lo, hi) = a.interval();
        assert!(
            (lo + 0.711_819).abs() < 1e-5 && (hi - 0.961_819).abs() < 1e-5,
            "{lo} {hi}"
        );
        assert!(Arm {
            n: 1,
            sum: 3,
            sumsq: 9
        }
        .check()
        .is_err());
        assert!(Arm {
            n: 2,
            sum: 2,
            sumsq: 1
        }
        .check()
        .is_err());
    }
}
