//! Statistics as small pure functions, each citing its method.

pub mod nash;
pub mod ols;
pub mod racing;
mod rating;

pub use rating::{bradley_terry, sprt_bounds, sprt_llr};

/// The Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the law
/// of succession, and statistical inference", JASA 22, 1927): `(low, high)` for `successes` out of
/// `n` at normal quantile `z` (1.96 for 95%). Draws may be counted as half successes.
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The interval of a difference of two independent proportions `p1 − p2` from their Wilson
/// intervals: Newcombe's hybrid score method (R. G. Newcombe, "Interval estimation for the
/// difference between independent proportions: comparison of eleven methods", Statistics in
/// Medicine 17, 1998, method 10).
pub fn newcombe_difference(s1: f64, n1: f64, s2: f64, n2: f64, z: f64) -> (f64, f64, f64) {
    let p1 = s1 / n1;
    let p2 = s2 / n2;
    let (l1, u1) = wilson(s1, n1, z);
    let (l2, u2) = wilson(s2, n2, z);
    let d = p1 - p2;
    (
        d,
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    )
}

/// 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that a score rate `r` (0..1, half a point a draw) corresponds to under the
/// logistic model: `-400·log10(1/r − 1)`, clamped to ±2400 at a rate of 0 or 1.
pub fn elo_from_score(r: f64) -> f64 {
    -400.0 * (1.0 / r.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10()
}

#[cfg(test)]
mod tests {
    /// Hand-computed: 50% is 0; 1/(1 + 10^(-100/400)) = 0.64006 is +100; 75% is
    /// 400·log10(3) = 190.85; symmetric below 50%.
    #[test]
    fn elo_from_score_inverts_the_logistic_curve() {
        assert_eq!(super::elo_from_score(0.5), 0.0);
        assert!((super::elo_from_score(0.640_065) - 100.0).abs() < 0.01);
        assert!((super::elo_from_score(0.75) - 190.848_5).abs() < 1e-3);
        assert!((super::elo_from_score(0.25) + 190.848_5).abs() < 1e-3);
        assert!((super::elo_from_score(1.0) - 2400.0).abs() < 0.01);
    }

    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 8 of 10: p = 0.8, z = 1.96 → centre (0.8 + 0.19208)/1.38416 = 0.71678,
        // half = 1.96·sqrt(0.016 + 0.0096040)/1.38416 = 0.22657 → (0.4902, 0.9433).
        let (lo, hi) = wilson(8.0, 10.0, 1.96);
        assert!((lo - 0.4902).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-3, "{hi}");
        // 0 of 10: lower bound 0, upper z²/(n+z²) = 3.8416/13.8416 = 0.2775.
        let (lo, hi) = wilson(0.0, 10.0, 1.96);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        // Symmetric around one half.
        let (lo, hi) = wilson(50.0, 100.0, Z95);
        assert!((lo + hi - 1.0).abs() < 1e-12);
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // Newcombe (1998), Table II example (a): 56/70 vs 48/80, difference 0.2 with the hybrid
        // score interval 0.0524 to 0.3339.
        let (d, lo, hi) = newcombe_difference(56.0, 70.0, 48.0, 80.0, Z95);
        assert!((d - 0.2).abs() < 1e-12);
        assert!((lo - 0.0524).abs() < 5e-4, "{lo}");
        assert!((hi - 0.3339).abs() < 5e-4, "{hi}");
    }
}
