//! Ratings of players from pairwise results: Bradley–Terry by maximum likelihood, on the Elo scale.

/// Bradley–Terry (R. A. Bradley & M. E. Terry, Biometrika 39, 1952) fitted by the MM algorithm of
/// D. R. Hunter ("MM algorithms for generalized Bradley–Terry models", Annals of Statistics 32,
/// 2004). `score[i][j]` is what player i scored against j (draws count half), `games[i][j]` how
/// many games they played. Returns Elo ratings (mean 0) and their standard errors from the observed
/// Fisher information (pseudo-inverse of the weighted Laplacian, the sum-to-zero constraint).
pub fn bradley_terry(score: &[Vec<f64>], games: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let n = score.len();
    let mut r = vec![1.0f64; n];
    let wins: Vec<f64> = (0..n).map(|i| score[i].iter().sum()).collect();
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        let mut change = 0.0f64;
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (r[i] + r[j]))
                .sum();
            // A player with no win (or no loss) has no finite estimate: keep it bounded.
            next[i] = if denom > 0.0 {
                (wins[i].max(1e-3)) / denom
            } else {
                r[i]
            };
        }
        // Normalise to geometric mean 1.
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
        for i in 0..n {
            next[i] /= g;
            change = change.max((next[i] / r[i]).ln().abs());
        }
        r = next;
        if change < 1e-12 {
            break;
        }
    }
    let k = 400.0 / std::f64::consts::LN_10;
    let theta: Vec<f64> = r.iter().map(|x| x.ln()).collect();
    // Weighted Laplacian L (the negative Hessian of the log-likelihood in θ = ln r).
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let w = games[i][j] * p * (1.0 - p);
                l[i][j] -= w;
                l[i][i] += w;
            }
        }
    }
    // L⁺ = (L + J/n)⁻¹ − J/n for a connected comparison graph.
    let mut m = l.clone();
    for row in m.iter_mut() {
        for x in row.iter_mut() {
            *x += 1.0 / n as f64;
        }
    }
    let inv = invert(&m);
    let se: Vec<f64> = (0..n)
        .map(|i| match &inv {
            Some(inv) => (inv[i][i] - 1.0 / n as f64).max(0.0).sqrt() * k,
            None => f64::INFINITY,
        })
        .collect();
    (theta.iter().map(|t| t * k).collect(), se)
}

/// Gauss–Jordan inverse with partial pivoting; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let d = m[c][c];
        for x in m[c].iter_mut() {
            *x /= d;
        }
        let pivot = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c];
                if f != 0.0 {
                    for (x, p) in row.iter_mut().zip(&pivot) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// The generalized SPRT on game pairs as fishtest runs it, with the normal approximation of the
/// log-likelihood ratio (M. Van den Bergh, "Comments on Normalized Elo" and the fishtest
/// `stat_util` GSPRT): `pairs[k]` counts the pairs in which the tested player scored k half points
/// of 2 (k = 0..4). LLR = N·(s1 − s0)·(2·x̄ − s0 − s1) / (2·σ²), with x̄ and σ² the mean and
/// variance of the per-pair score in [0, 1] and s0, s1 the scores of logistic Elo `elo0`, `elo1`.
/// Returns the LLR of H1 against H0.
///
/// Like fishtest (`LLRcalc.regularize`, used by its `results_to_pdf`), every count of 0 is first
/// replaced by 0.001 ([`SPRT_EMPTY_COUNT`]), so N, x̄ and σ² are those of the regularised counts.
/// Without it a run whose every pair has the same score has σ² = 0 and no LLR at all, and the test
/// could not decide however one-sided the pairs were (`docs/statistics.md`). Fewer than 2 pairs
/// give 0.
pub fn sprt_llr(pairs: &[u64; 5], elo0: f64, elo1: f64) -> f64 {
    if pairs.iter().sum::<u64>() < 2 {
        return 0.0;
    }
    let c = pairs.map(|c| if c == 0 { SPRT_EMPTY_COUNT } else { c as f64 });
    let n: f64 = c.iter().sum();
    let s = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (s0, s1) = (s(elo0), s(elo1));
    // Per-pair score in [0, 1].
    let mean: f64 = c
        .iter()
        .enumerate()
        .map(|(k, &c)| c * k as f64 / 4.0)
        .sum::<f64>()
        / n;
    let var: f64 = c
        .iter()
        .enumerate()
        .map(|(k, &c)| c * (k as f64 / 4.0 - mean).powi(2))
        .sum::<f64>()
        / n;
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The count [`sprt_llr`] puts in place of an empty pentanomial count (fishtest's epsilon).
pub const SPRT_EMPTY_COUNT: f64 = 1e-3;

/// SPRT bounds (A, B) = (ln(β/(1−α)), ln((1−β)/α)): accept H0 at LLR ≤ A, H1 at LLR ≥ B (A. Wald,
/// "Sequential tests of statistical hypotheses", Ann. Math. Stat. 16, 1945).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bradley_terry_two_players_by_hand() {
        // A scores 75 of 100 against B: θA − θB = ln 3, Elo difference 400·log10 3 = 190.85.
        // Var(θA − θB) = 1/(100·0.75·0.25) = 0.05333; with mean zero each θ has a quarter of it:
        // SE(θA) = 0.11547 → 0.11547 · 400/ln 10 = 20.06 Elo.
        let (elo, se) = bradley_terry(
            &[vec![0.0, 75.0], vec![25.0, 0.0]],
            &[vec![0.0, 100.0], vec![100.0, 0.0]],
        );
        assert!((elo[0] - elo[1] - 190.85).abs() < 0.01, "{elo:?}");
        assert!((elo[0] + elo[1]).abs() < 1e-9);
        assert!((se[0] - 20.06).abs() < 0.01, "{se:?}");
    }

    #[test]
    fn bradley_terry_solves_the_score_equations() {
        // At the maximum, each player's expected score equals its observed score.
        let score = vec![
            vec![0.0, 60.0, 70.0],
            vec![40.0, 0.0, 55.0],
            vec![30.0, 45.0, 0.0],
        ];
        let games = vec![
            vec![0.0, 100.0, 100.0],
            vec![100.0, 0.0, 100.0],
            vec![100.0, 100.0, 0.0],
        ];
        let (elo, _) = bradley_terry(&score, &games);
        for i in 0..3 {
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| games[i][j] / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0)))
                .sum();
            let observed: f64 = score[i].iter().sum();
            assert!(
                (expected - observed).abs() < 1e-6,
                "{i}: {expected} vs {observed}"
            );
        }
        assert!(elo[0] > elo[1] && elo[1] > elo[2]);
    }

    #[test]
    fn sprt_llr_by_hand() {
        // 100 pairs: 10 at 0, 20 at ½, 40 at 1, 20 at 1½, 10 at 2 points → per-pair scores
        // 0, .25, .5, .75, 1: mean 0.5, variance (10·.25 + 20·.0625·2 + 10·.25)/100 = 0.075.
        // H0 = 0 Elo (s0 = 0.5), H1 = 10 Elo (s1 = 0.514387):
        // LLR = 100 · 0.014387 · (1 − 1.014387) / (2 · 0.075) = −0.13799.
        let llr = sprt_llr(&[10, 20, 40, 20, 10], 0.0, 10.0);
        assert!((llr - (-0.13799)).abs() < 1e-4, "{llr}");
        // A clearly better player: the LLR grows with the number of pairs.
        let a = sprt_llr(&[2, 5, 20, 30, 43], 0.0, 10.0);
        let b = sprt_llr(&[4, 10, 40, 60, 86], 0.0, 10.0);
        assert!(a > 0.0 && (b / a - 2.0).abs() < 1e-9);
        // Wald's bounds at α = β = 0.05: ±ln 19 = ±2.9444.
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944439).abs() < 1e-6 && (hi - 2.944439).abs() < 1e-6);
    }

    #[test]
    fn sprt_llr_regularises_empty_counts() {
        // Each count of 0 becomes 0.001 (fishtest's `regularize`). 2 pairs of 0 points:
        // c = (2, .001, .001, .001, .001), N = 2.004, x̄ = .001·(.25 + .5 + .75 + 1)/2.004
        // = 0.00124750; σ² = [2·x̄² + .001·((.25 − x̄)² + (.5 − x̄)² + (.75 − x̄)² + (1 − x̄)²)]/2.004
        // = 0.00093407; H0 0 Elo (s0 = ½), H1 50 Elo (s1 = 0.571463):
        // LLR = 2.004 · 0.071463 · (0.0024950 − 1.071463) / (2 · 0.00093407) = −81.947.
        // The figures below by a separate Python computation:
        //   L = lambda e: 1 / (1 + 10 ** (-e / 400))
        //   def llr(c, e0, e1):
        //       c = [x if x else 1e-3 for x in c]; n = sum(c)
        //       m = sum(x * k / 4 for k, x in enumerate(c)) / n
        //       v = sum(x * (k / 4 - m) ** 2 for k, x in enumerate(c)) / n
        //       return n * (L(e1) - L(e0)) * (2 * m - L(e0) - L(e1)) / (2 * v)
        //   [2,0,0,0,0] 0,50 → −81.94714982; [0,0,0,0,2] 0,50 → 70.99041734;
        //   [32,0,0,0,0] 0,50 → −20913.09670; [0,0,1,0,1] 0,400·log10 3 → 0.99155583.
        let llr = sprt_llr(&[2, 0, 0, 0, 0], 0.0, 50.0);
        assert!((llr - (-81.94715)).abs() < 1e-4, "{llr}");
        let llr = sprt_llr(&[0, 0, 0, 0, 2], 0.0, 50.0);
        assert!((llr - 70.99042).abs() < 1e-4, "{llr}");
        let llr = sprt_llr(&[32, 0, 0, 0, 0], 0.0, 50.0);
        assert!((llr - (-20913.0967)).abs() < 1e-3, "{llr}");
        let llr = sprt_llr(&[0, 0, 1, 0, 1], 0.0, 400.0 * 3f64.log10());
        assert!((llr - 0.99155583).abs() < 1e-7, "{llr}");
        // Every pair lost decides H0 and every pair won H1 at once (bounds ±2.9444); a single pair
        // decides nothing.
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(sprt_llr(&[2, 0, 0, 0, 0], 0.0, 50.0) <= lo);
        assert!(sprt_llr(&[0, 0, 0, 0, 2], 0.0, 50.0) >= hi);
        assert_eq!(sprt_llr(&[0, 0, 0, 0, 1], 0.0, 50.0), 0.0);
    }
}
