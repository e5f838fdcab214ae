//! Ordinary least squares with heteroskedasticity-robust (sandwich) standard errors, for the
//! regression of `tcgsim pool` (`docs/statistics.md`, "The whole pool ranked").
//!
//! **The fit.** `β̂ = (X'X)⁺ X'y`, with `(X'X)⁺` the Moore–Penrose pseudo-inverse from the
//! eigendecomposition of `X'X` (cyclic Jacobi rotations: C. G. J. Jacobi, Crelle's Journal 30,
//! 1846; G. H. Golub & C. F. Van Loan, *Matrix Computations*, 4th ed., 2013, §8.5), eigenvalues
//! below `RANK_TOLERANCE` times the largest counted as zero. With `X` of full column rank this is
//! the least-squares solution; where columns are collinear it is the minimum-norm one, and only
//! the *estimable* combinations `v'β` (those with `v` in the row space of `X`, [`Fit::estimable`])
//! have a meaning (C. R. Rao, *Linear Statistical Inference*, 2nd ed., 1973, §4a).
//!
//! **The covariance** is White's heteroskedasticity-consistent sandwich (H. White,
//! Econometrica 48, 1980) with the degrees-of-freedom correction HC1 (J. G. MacKinnon & H. White,
//! J. Econometrics 29, 1985): `V = n/(n − r) · (X'X)⁺ (Σ eᵢ² xᵢxᵢ') (X'X)⁺`, `r` the rank. It needs
//! no assumption on the variance of the errors (a win-or-loss outcome's variance `p(1 − p)`
//! differs from game to game), only that the observations are independent.
//!
//! Observations are sparse rows (`(column, value)` pairs), as a game's card counts are.

/// Eigenvalues below this fraction of the largest are zero: the rank's tolerance.
pub const RANK_TOLERANCE: f64 = 1e-10;

/// One observation: the nonzero entries of its row of `X` (`(column, value)`, each column at most
/// once) and its response.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Obs {
    pub x: Vec<(u32, f64)>,
    pub y: f64,
}

/// A fitted regression: the coefficients, their sandwich covariance, and the row space of `X`.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The number of columns.
    pub p: usize,
    /// The number of observations.
    pub n: u64,
    /// The rank of `X`.
    pub rank: usize,
    /// The (minimum-norm) least-squares coefficients.
    pub beta: Vec<f64>,
    /// The HC1 sandwich covariance of `beta`, row-major `p × p`.
    pub cov: Vec<f64>,
    /// An orthonormal basis of the row space of `X` (the eigenvectors of `X'X` of nonzero
    /// eigenvalue), each of length `p`.
    basis: Vec<Vec<f64>>,
}

/// The eigenvalues and eigenvectors of a symmetric `p × p` matrix (row-major), by cyclic Jacobi
/// rotations: `(values, vectors)`, vector `k` the `k`-th column of the returned row-major matrix.
pub fn symmetric_eigen(a: &[f64], p: usize) -> (Vec<f64>, Vec<f64>) {
    assert_eq!(a.len(), p * p, "a p × p matrix");
    let mut a = a.to_vec();
    let mut v = vec![0.0; p * p];
    for i in 0..p {
        v[i * p + i] = 1.0;
    }
    let norm: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..100 {
        let off: f64 = (0..p)
            .flat_map(|i| (0..p).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * p + j] * a[i * p + j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-15 * norm || off == 0.0 {
            break;
        }
        for i in 0..p {
            for j in i + 1..p {
                let aij = a[i * p + j];
                if aij.abs() <= 1e-300 {
                    continue;
                }
                let (aii, ajj) = (a[i * p + i], a[j * p + j]);
                let theta = (ajj - aii) / (2.0 * aij);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                // A ← JᵀAJ, on rows and columns i and j.
                for k in 0..p {
                    let (aki, akj) = (a[k * p + i], a[k * p + j]);
                    a[k * p + i] = c * aki - s * akj;
                    a[k * p + j] = s * aki + c * akj;
                }
                for k in 0..p {
                    let (aik, ajk) = (a[i * p + k], a[j * p + k]);
                    a[i * p + k] = c * aik - s * ajk;
                    a[j * p + k] = s * aik + c * ajk;
                }
                for k in 0..p {
                    let (vki, vkj) = (v[k * p + i], v[k * p + j]);
                    v[k * p + i] = c * vki - s * vkj;
                    v[k * p + j] = s * vki + c * vkj;
                }
            }
        }
    }
    ((0..p).map(|i| a[i * p + i]).collect(), v)
}

/// Adds `w · x xᵀ` of a sparse row to the dense `p × p` matrix `m` (row-major).
fn add_outer(m: &mut [f64], p: usize, x: &[(u32, f64)], w: f64) {
    for &(i, xi) in x {
        for &(j, xj) in x {
            m[i as usize * p + j as usize] += w * xi * xj;
        }
    }
}

impl Fit {
    /// Least squares of `y` on the `p` columns of the observations, with the HC1 sandwich
    /// covariance. The observations are summed in their order (the same order gives the same
    /// bits). Fewer observations than the rank leave the covariance undefined (NaN).
    pub fn new(p: usize, obs: &[Obs]) -> Fit {
        let mut xtx = vec![0.0; p * p];
        let mut xty = vec![0.0; p];
        for o in obs {
            add_outer(&mut xtx, p, &o.x, 1.0);
            for &(i, xi) in &o.x {
                xty[i as usize] += xi * o.y;
            }
        }
        let (values, vectors) = symmetric_eigen(&xtx, p);
        let top = values.iter().cloned().fold(0.0, f64::max);
        let kept: Vec<usize> = (0..p)
            .filter(|&k| top > 0.0 && values[k] > RANK_TOLERANCE * top)
            .collect();
        let basis: Vec<Vec<f64>> = kept
            .iter()
            .map(|&k| (0..p).map(|i| vectors[i * p + k]).collect())
            .collect();
        // (X'X)⁺ = Σ q qᵀ / λ over the kept eigenpairs.
        let mut pinv = vec![0.0; p * p];
        for (q, &k) in basis.iter().zip(&kept) {
            let w = 1.0 / values[k];
            for i in 0..p {
                for j in 0..p {
                    pinv[i * p + j] += w * q[i] * q[j];
                }
            }
        }
        let beta: Vec<f64> = (0..p)
            .map(|i| (0..p).map(|j| pinv[i * p + j] * xty[j]).sum())
            .collect();
        let mut meat = vec![0.0; p * p];
        for o in obs {
            let fitted: f64 = o.x.iter().map(|&(i, xi)| xi * beta[i as usize]).sum();
            let e = o.y - fitted;
            add_outer(&mut meat, p, &o.x, e * e);
        }
        let n = obs.len() as u64;
        let rank = kept.len();
        let scale = if (n as usize) > rank {
            n as f64 / (n as usize - rank) as f64
        } else {
            f64::NAN
        };
        let pm = mul(&pinv, &meat, p);
        let mut cov = mul(&pm, &pinv, p);
        for c in &mut cov {
            *c *= scale;
        }
        Fit {
            p,
            n,
            rank,
            beta,
            cov,
            basis,
        }
    }

    /// Whether `v'β` is estimable: `v` lies in the row space of `X` (within `1e-7` of its length).
    pub fn estimable(&self, v: &[f64]) -> bool {
        let mut r = v.to_vec();
        for q in &self.basis {
            let d: f64 = q.iter().zip(v).map(|(a, b)| a * b).sum();
            for (ri, qi) in r.iter_mut().zip(q) {
                *ri -= d * qi;
            }
        }
        let len = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        r.iter().map(|x| x * x).sum::<f64>().sqrt() <= 1e-7 * len.max(1e-300)
    }

    /// `v` projected onto the row space of `X`: the estimable function nearest to `v'β`. Where
    /// `v'β` is estimable it is `v` itself; else the part of `v` orthogonal to the directions the
    /// data cannot tell apart (e.g. the coefficients of columns whose sum is fixed in every row
    /// lose their common mean).
    pub fn project(&self, v: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; v.len()];
        for q in &self.basis {
            let d: f64 = q.iter().zip(v).map(|(a, b)| a * b).sum();
            for (o, qi) in out.iter_mut().zip(q) {
                *o += d * qi;
            }
        }
        out
    }

    /// `v'β` and its standard error `√(v'Vv)`.
    pub fn contrast(&self, v: &[f64]) -> (f64, f64) {
        let p = self.p;
        let est: f64 = v.iter().zip(&self.beta).map(|(a, b)| a * b).sum();
        let mut var = 0.0;
        for i in 0..p {
            if v[i] == 0.0 {
                continue;
            }
            for j in 0..p {
                var += v[i] * self.cov[i * p + j] * v[j];
            }
        }
        (est, var.max(0.0).sqrt())
    }
}

/// The product of two dense `p × p` matrices (row-major).
fn mul(a: &[f64], b: &[f64], p: usize) -> Vec<f64> {
    let mut c = vec![0.0; p * p];
    for i in 0..p {
        for k in 0..p {
            let aik = a[i * p + k];
            if aik == 0.0 {
                continue;
            }
            for j in 0..p {
                c[i * p + j] += aik * b[k * p + j];
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn dense(rows: &[(&[f64], f64)]) -> Vec<Obs> {
        rows.iter()
            .map(|(x, y)| Obs {
                x: x.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(i, &v)| (i as u32, v))
                    .collect(),
                y: *y,
            })
            .collect()
    }

    /// A symmetric matrix's eigenpairs reassemble it; a known 2 × 2 case exactly.
    #[test]
    fn jacobi_finds_the_eigenpairs() {
        let (l, v) = symmetric_eigen(&[2.0, 1.0, 1.0, 2.0], 2);
        let mut s = l.clone();
        s.sort_by(f64::total_cmp);
        assert!(
            (s[0] - 1.0).abs() < 1e-12 && (s[1] - 3.0).abs() < 1e-12,
            "{l:?}"
        );
        let a = [4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 5.0];
        let (l, v3) = symmetric_eigen(&a, 3);
        for i in 0..3 {
            for j in 0..3 {
                let back: f64 = (0..3).map(|k| v3[i * 3 + k] * l[k] * v3[j * 3 + k]).sum();
                assert!((back - a[i * 3 + j]).abs() < 1e-12);
            }
        }
        assert_eq!(v.len(), 4);
    }

    /// Data that a linear model fits exactly: the coefficients exactly, standard errors 0.
    #[test]
    fn an_exact_fit_is_recovered() {
        let beta = [0.5, -2.0, 3.0];
        let xs: [[f64; 3]; 5] = [
            [1.0, 0.0, 1.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 5.0],
            [1.0, -1.0, 2.0],
            [1.0, 3.0, -1.0],
        ];
        let rows: Vec<(&[f64], f64)> = xs
            .iter()
            .map(|x| {
                let y = x.iter().zip(&beta).map(|(a, b)| a * b).sum();
                (&x[..], y)
            })
            .collect();
        let f = Fit::new(3, &dense(&rows));
        assert_eq!(f.rank, 3);
        for k in 0..3 {
            assert!((f.beta[k] - beta[k]).abs() < 1e-10, "{:?}", f.beta);
            let mut e = [0.0; 3];
            e[k] = 1.0;
            assert!(f.estimable(&e));
            assert!(f.contrast(&e).1 < 1e-7);
        }
    }

    /// Simple regression by hand: y = (1, 3, 2, 5) on x = (0, 1, 2, 3) with an intercept. Slope
    /// Sxy/Sxx = 5.5/5 = 1.1, intercept ȳ − 1.1·x̄ = 2.75 − 1.65 = 1.1; residuals (−0.1, 0.8,
    /// −1.3, 0.6); HC0 variance of the slope Σ(xᵢ − x̄)²eᵢ²/Sxx² = (2.25·0.01 + 0.25·0.64 +
    /// 0.25·1.69 + 2.25·0.36)/25 = 1.415/25, HC1 times n/(n − 2) = 2.
    #[test]
    fn a_simple_regression_matches_the_hand_computation() {
        let rows: Vec<(&[f64], f64)> = vec![
            (&[1.0, 0.0], 1.0),
            (&[1.0, 1.0], 3.0),
            (&[1.0, 2.0], 2.0),
            (&[1.0, 3.0], 5.0),
        ];
        let f = Fit::new(2, &dense(&rows));
        assert!((f.beta[0] - 1.1).abs() < 1e-12 && (f.beta[1] - 1.1).abs() < 1e-12);
        let (slope, se) = f.contrast(&[0.0, 1.0]);
        assert!((slope - 1.1).abs() < 1e-12);
        assert!((se * se - 2.0 * 1.415 / 25.0).abs() < 1e-12, "{}", se * se);
    }

    /// Columns that add up to 0 in every row (a deck of a fixed size: one card more is another
    /// less): the coefficients are known only up to a common constant. The minimum-norm fit
    /// recovers the centred ones; a single coefficient is not estimable, a difference is.
    #[test]
    fn collinear_columns_give_their_estimable_contrasts() {
        let truth = [0.3, -0.1, -0.2];
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let obs: Vec<Obs> = (0..50)
            .map(|_| {
                let a: f64 = rng.gen_range(-2..=2) as f64;
                let b: f64 = rng.gen_range(-2..=2) as f64;
                let x = [a, b, -a - b];
                let y = x.iter().zip(&truth).map(|(u, v)| u * v).sum::<f64>() + 0.7;
                Obs {
                    x: x.iter()
                        .enumerate()
                        .filter(|(_, v)| **v != 0.0)
                        .map(|(i, &v)| (i as u32, v))
                        .chain([(3, 1.0)])
                        .collect(),
                    y,
                }
            })
            .collect();
        let f = Fit::new(4, &obs);
        assert_eq!(f.rank, 3);
        assert!(!f.estimable(&[1.0, 0.0, 0.0, 0.0]));
        // Projected, a single coefficient becomes the centred one.
        let pr = f.project(&[1.0, 0.0, 0.0, 0.0]);
        for (a, b) in pr.iter().zip([2.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0, 0.0]) {
            assert!((a - b).abs() < 1e-10, "{pr:?}");
        }
        assert!(f.estimable(&[1.0, -1.0, 0.0, 0.0]));
        let c = [2.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0, 0.0];
        assert!(f.estimable(&c));
        assert!((f.contrast(&c).0 - 0.3).abs() < 1e-10);
        assert!((f.beta[3] - 0.7).abs() < 1e-10);
    }

    /// Coverage: 400 data sets of a linear probability model with known coefficients and
    /// Bernoulli outcomes (heteroskedastic by nature); the 95% intervals of three coefficients
    /// cover the truth in at least 93% of the 1,200 cases.
    #[test]
    fn sandwich_intervals_cover_a_known_model() {
        let truth = [0.5, 0.08, -0.05, 0.0];
        let mut covered = 0;
        let mut cases = 0;
        for run in 0..400u64 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(run);
            let obs: Vec<Obs> = (0..300)
                .map(|_| {
                    let x = [
                        1.0,
                        rng.gen_range(-2..=2) as f64,
                        rng.gen_range(-2..=2) as f64,
                        rng.gen_range(-1..=1) as f64,
                    ];
                    let p: f64 = x.iter().zip(&truth).map(|(a, b)| a * b).sum();
                    let y = if rng.gen::<f64>() < p { 1.0 } else { 0.0 };
                    Obs {
                        x: x.iter()
                            .enumerate()
                            .filter(|(_, v)| **v != 0.0)
                            .map(|(i, &v)| (i as u32, v))
                            .collect(),
                        y,
                    }
                })
                .collect();
            let f = Fit::new(4, &obs);
            for k in 1..4 {
                let mut e = [0.0; 4];
                e[k] = 1.0;
                let (b, se) = f.contrast(&e);
                cases += 1;
                covered += usize::from((b - truth[k]).abs() <= 1.959_964 * se);
            }
        }
        assert!(covered * 100 >= cases * 93, "{covered} of {cases}");
    }
}
