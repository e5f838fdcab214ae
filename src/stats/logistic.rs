//! Logistic regression by Newton's method (iteratively reweighted least squares: P. McCullagh &
//! J. A. Nelder, *Generalized Linear Models*, 2nd ed., 1989, §2.5), with an L2 penalty, for
//! fitting a game's leaf evaluation to the results of played positions (`docs/agents.md`,
//! "Sixth round: a learned leaf evaluation").

/// A logistic regression fitted by Newton's method (iteratively reweighted least squares) with an
/// L2 penalty `l2` on every weight and no intercept: the weights `w` that maximise
/// Σ y·ln σ(w·x) + (1 − y)·ln(1 − σ(w·x)) − l2/2·|w|² over the rows `x` of `xs` (row-major, `k`
/// columns) and labels `ys` in [0, 1]. Used by `examples/eval_data.rs` to fit TMNT's leaf
/// evaluation (`crate::games::tmnt::policy::LEAF_WEIGHTS`); not on any hot path.
pub fn fit(xs: &[f64], ys: &[f64], k: usize, l2: f64) -> Vec<f64> {
    assert_eq!(xs.len(), ys.len() * k, "rows of k columns, one label each");
    let mut w = vec![0.0; k];
    for _ in 0..100 {
        // The gradient and the Hessian of the penalised log-likelihood (negated).
        let mut g: Vec<f64> = w.iter().map(|v| -l2 * v).collect();
        let mut h = vec![0.0; k * k];
        for d in 0..k {
            h[d * k + d] = l2;
        }
        for (x, &y) in xs.chunks_exact(k).zip(ys) {
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let r = p * (1.0 - p);
            for i in 0..k {
                g[i] += (y - p) * x[i];
                for j in 0..k {
                    h[i * k + j] += r * x[i] * x[j];
                }
            }
        }
        let step = solve(h, g, k);
        let big = step.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (a, d) in w.iter_mut().zip(&step) {
            *a += d;
        }
        if big < 1e-10 {
            break;
        }
    }
    w
}

/// The solution of `a·x = b` (`a` is `k`×`k`, row-major, positive definite here) by Gaussian
/// elimination with partial pivoting.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, k: usize) -> Vec<f64> {
    for c in 0..k {
        let piv = (c..k)
            .max_by(|&i, &j| a[i * k + c].abs().total_cmp(&a[j * k + c].abs()))
            .expect("a row");
        if piv != c {
            for j in 0..k {
                a.swap(c * k + j, piv * k + j);
            }
            b.swap(c, piv);
        }
        let d = a[c * k + c];
        for r in c + 1..k {
            let m = a[r * k + c] / d;
            if m == 0.0 {
                continue;
            }
            for j in c..k {
                a[r * k + j] -= m * a[c * k + j];
            }
            b[r] -= m * b[c];
        }
    }
    let mut x = vec![0.0; k];
    for c in (0..k).rev() {
        let mut v = b[c];
        for j in c + 1..k {
            v -= a[c * k + j] * x[j];
        }
        x[c] = v / a[c * k + c];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The fit recovers the weights of a known logistic model from 40,000 rows drawn from it,
    /// and with a large L2 penalty shrinks them toward 0.
    #[test]
    fn the_fit_recovers_a_known_logistic_model() {
        let truth = [0.8, -1.5, 0.3, 0.0, 2.0];
        let k = truth.len();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(42);
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for _ in 0..40_000 {
            let x: Vec<f64> = (0..k).map(|_| rng.gen_range(-2.0..2.0)).collect();
            let z: f64 = x.iter().zip(&truth).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            ys.push(if rng.gen::<f64>() < p { 1.0 } else { 0.0 });
            xs.extend(x);
        }
        let w = fit(&xs, &ys, k, 1e-6);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 0.06, "{w:?} against {truth:?}");
        }
        // The penalised optimum: the gradient vanishes there.
        let l2 = 1000.0;
        let w = fit(&xs, &ys, k, l2);
        let mut g: Vec<f64> = w.iter().map(|v| -l2 * v).collect();
        for (x, &y) in xs.chunks_exact(k).zip(&ys) {
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            for i in 0..k {
                g[i] += (y - p) * x[i];
            }
        }
        assert!(g.iter().all(|v| v.abs() < 1e-6), "{g:?}");
        assert!(w[4] < 2.0 * 0.9, "{w:?}");
    }
}
