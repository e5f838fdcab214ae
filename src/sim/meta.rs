//! The metagame of a matrix run (`docs/statistics.md`, "The metagame of a matrix"): which decks a
//! field of rational players would bring — the Nash equilibrium of the symmetric zero-sum game of
//! the win rates ([`crate::stats::nash`]) — how much the best deck against a field of every deck
//! in equal shares gains, each deck's payoff against the equilibrium, and how sure the counts
//! make us (how often each deck is in the equilibrium of matrices resampled from the counts).
//! `matrix` and `merge` print it and write `meta.csv`; `tcgsim meta DIR` computes it from any
//! matrix folder.

use crate::core::mix_seed;
use crate::sim::matrix::Counts;
use crate::stats::nash::{resample, Equilibrium, Game, Score, Support, SUPPORT_WEIGHT};
use std::fmt::Write as _;

/// How many matrices are drawn from the counts to say how sure the equilibrium is.
pub const RESAMPLES: usize = 1000;

/// The metagame of a matrix.
#[derive(Clone, Debug)]
pub struct Metagame {
    /// The decks, in the matrix's order.
    pub names: Vec<String>,
    /// The equilibrium of the observed win rates.
    pub eq: Equilibrium,
    /// How often each deck is in the equilibrium of a matrix drawn from the counts.
    pub support: Support,
    /// How much the best response gains against a field playing every deck equally often (the
    /// uniform mix's exploitability, as a score above 1/2), and the decks that gain it.
    pub uniform_exploitability: f64,
    pub uniform_best: Vec<usize>,
}

/// The metagame of the `n × n` matrix `m` (row-major counts of the row deck, `n = names.len()`).
/// `seed` (the run's seed) decides the resampled matrices, the same whatever the thread count.
pub fn metagame(names: &[String], m: &[Counts], seed: u64) -> Metagame {
    let n = names.len();
    assert_eq!(m.len(), n * n, "a {n}×{n} matrix of counts");
    let scores = scores(m);
    let game = Game::from_scores(n, &scores);
    let uniform = vec![1.0 / n.max(1) as f64; n];
    Metagame {
        names: names.to_vec(),
        eq: solve(&game),
        // "meta" in ASCII: the resampling's own stream of the run's seed.
        support: resample(n, &scores, RESAMPLES, mix_seed(&[seed, 0x6d65_7461])),
        uniform_exploitability: game.exploitability(&uniform),
        uniform_best: game.best_responses(&uniform),
    }
}

/// Each ordered matchup's score counts, row-major: the game's input.
fn scores(m: &[Counts]) -> Vec<Score> {
    m.iter()
        .map(|c| Score {
            games: c.games,
            wins: c.wins,
            draws: c.draws,
        })
        .collect()
}

/// The equilibrium of `game`, the played decks' payoffs (0 up to the solver's rounding) written
/// as 0, not -0.0000.
fn solve(game: &Game) -> Equilibrium {
    let mut eq = game.solve();
    for p in &mut eq.payoffs {
        if p.abs() < 1e-12 {
            *p = 0.0;
        }
    }
    eq
}

/// The equilibrium of the `n × n` matrix `m` alone (no resampling): what `meta.csv`'s weights and
/// payoffs are (the report checks them against it).
pub fn equilibrium(n: usize, m: &[Counts]) -> Equilibrium {
    solve(&Game::from_scores(n, &scores(m)))
}

impl Metagame {
    /// The decks in the equilibrium (weight above [`SUPPORT_WEIGHT`]), heaviest first, then the
    /// others by their payoff against it (least bad first); ties (to 1e-9) in the matrix's order.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        let inside = |k: usize| self.eq.mix[k] > SUPPORT_WEIGHT;
        // Weights and payoffs equal up to the solver's rounding tie.
        let grid = |x: f64| (x * 1e9).round() as i64;
        order.sort_by_key(|&k| {
            (
                !inside(k),
                -grid(self.eq.mix[k]),
                -grid(self.eq.payoffs[k]),
                k,
            )
        });
        order
    }

    /// The terminal summary's lines: the equilibrium's decks with their weights and how often
    /// each is in it, the decks left out with their payoff against it, and the uniform field's
    /// exploitability.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "metagame (Nash equilibrium of the win rates, both seats pooled; {} resamples of the counts):",
            self.support.resamples
        );
        let (inside, outside): (Vec<usize>, Vec<usize>) = self
            .order()
            .into_iter()
            .partition(|&k| self.eq.mix[k] > SUPPORT_WEIGHT);
        for k in inside {
            let _ = writeln!(
                s,
                "  {}: {:.1}% of the field (in the equilibrium in {}% of resamples)",
                self.names[k],
                100.0 * self.eq.mix[k],
                share_pct(self.support.in_support[k])
            );
        }
        for k in outside {
            let _ = writeln!(
                s,
                "  {}: not played (scores {:.1}% against the equilibrium; in it in {}% of resamples)",
                self.names[k],
                100.0 * (0.5 + self.eq.payoffs[k]),
                share_pct(self.support.in_support[k])
            );
        }
        let best: Vec<&str> = self
            .uniform_best
            .iter()
            .map(|&k| self.names[k].as_str())
            .collect();
        let _ = writeln!(
            s,
            "  a field of every deck in equal shares is exploitable by {:.1} points (best response: {})",
            100.0 * self.uniform_exploitability,
            best.join(", ")
        );
        s
    }
}

/// A fraction `x` in [0, 1] as a percentage for the summary: whole percents, with as many more
/// decimals as it takes (up to 6) for a fraction that is not exactly 0 or 1 not to read as 0% or
/// 100% (0.999 is 99.9, 0.0004 is 0.04).
fn share_pct(x: f64) -> String {
    let p = 100.0 * x;
    let mut d = 0;
    loop {
        let t = format!("{p:.d$}");
        let shown: f64 = t.parse().unwrap_or(p);
        if d >= 6 || (shown == 0.0) == (x <= 0.0) && (shown == 100.0) == (x >= 1.0) {
            return t;
        }
        d += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// meta.csv's 0.9990 was printed "in 100% of resamples".
    #[test]
    fn a_share_short_of_all_or_none_never_reads_as_100_or_0() {
        let cases = [
            (1.0, "100"),
            (0.0, "0"),
            (0.999, "99.9"),
            (0.9996, "99.96"),
            (0.994, "99"),
            (0.5, "50"),
            (0.004, "0.4"),
            (0.0004, "0.04"),
            (0.006, "1"),
        ];
        for (x, want) in cases {
            assert_eq!(share_pct(x), want, "{x}");
        }
    }

    fn counts(games: u64, wins: u64) -> Counts {
        Counts {
            games,
            wins,
            losses: games - wins,
            ..Counts::default()
        }
    }

    /// Rock–paper–scissors with equal margins, each direction 100 games: the equilibrium is
    /// (1/3, 1/3, 1/3); a fourth deck losing 30–70 to each is not played, at 0.5 − 0.7 = −0.2 (its
    /// score 0.3 against every deck, as a payoff 0.3 − 1/2, both seats pooled). The uniform field
    /// of the four is worked out below.
    #[test]
    fn metagame_of_a_hand_built_matrix() {
        let names: Vec<String> = ["rock", "paper", "scissors", "dud"]
            .map(String::from)
            .to_vec();
        // Row beats column with these wins out of 100.
        let wins = [
            [50, 30, 70, 70],
            [70, 50, 30, 70],
            [30, 70, 50, 70],
            [30, 30, 30, 50],
        ];
        let m: Vec<Counts> = wins.iter().flatten().map(|&w| counts(100, w)).collect();
        let meta = metagame(&names, &m, 7);
        for k in 0..3 {
            assert!(
                (meta.eq.mix[k] - 1.0 / 3.0).abs() < 1e-9,
                "{:?}",
                meta.eq.mix
            );
        }
        assert!(meta.eq.mix[3].abs() < 1e-12);
        assert!((meta.eq.payoffs[3] - (0.3 - 0.5)).abs() < 1e-9);
        assert_eq!(meta.order(), vec![0, 1, 2, 3]);
        // Against the uniform field (1/4 each): rock scores (0.5 + 0.3 + 0.7 + 0.7)/4 = 0.55,
        // and so do paper and scissors; the dud 0.3·3/4 + 0.5/4 = 0.35. Exploitability 0.05.
        assert!((meta.uniform_exploitability - 0.05).abs() < 1e-9);
        assert_eq!(meta.uniform_best, vec![0, 1, 2]);
        let text = meta.summary();
        assert!(text.contains("  rock: 33.3% of the field"), "{text}");
        assert!(
            text.contains("  dud: not played (scores 30.0% against"),
            "{text}"
        );
        assert!(text.contains("exploitable by 5.0 points (best response: rock, paper, scissors)"));
        // The same seed gives the same resampling.
        assert_eq!(metagame(&names, &m, 7).support, meta.support);
    }
}
