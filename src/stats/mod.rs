//! Statistics as small pure functions, each citing its method.

pub mod logistic;
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

/// The standard normal quantile Φ⁻¹(p) for `p` in (0, 1): P. J. Acklam's rational approximation
/// (2003; relative error below 1.15e-9); NaN outside (0, 1).
pub fn normal_quantile(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

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

    /// Tabled quantiles of the standard normal (Abramowitz & Stegun, table 26.5): 0.975 → 1.959964,
    /// 0.995 → 2.575829, 0.9995 → 3.290527, 0.999995 → 4.417173; 0.5 → 0; symmetric; NaN
    /// outside (0, 1).
    #[test]
    fn normal_quantile_matches_the_tables() {
        for (p, z) in [
            (0.975, 1.959_963_985),
            (0.995, 2.575_829_304),
            (0.9995, 3.290_526_731),
            (0.999_995, 4.417_173_413),
            (0.8, 0.841_621_234),
        ] {
            assert!((normal_quantile(p) - z).abs() < 1e-8, "{p}");
            assert!((normal_quantile(1.0 - p) + z).abs() < 1e-8, "{p}");
        }
        assert!(normal_quantile(0.5).abs() < 1e-12);
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-8);
        assert!(normal_quantile(0.0).is_nan() && normal_quantile(1.0).is_nan());
    }

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
