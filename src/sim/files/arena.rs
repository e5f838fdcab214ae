//! The result files of an arena (`tcgsim arena`): `arena.csv` (the agents' Bradley–Terry ratings,
//! best first), `arena_pairs.csv` (every two agents' score, with its interval and pentanomial
//! counts) and, with `--sprt`, `sprt.csv` (the sequential test and where it ended). Each file's
//! columns are one table here, of which its writer and its checked reader are made.

use super::{read_table, write_table, Column, Fields, Kind, Value};
use crate::core::InputError;
use crate::sim::arena::points;
use crate::stats::{sprt_bounds, wilson, Z95};

/// A row of `arena.csv`: an agent, its rating in Elo (value, low, high), its games and its score
/// in points (a draw is half a point).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rating {
    pub agent: String,
    pub elo: [f64; 3],
    pub games: f64,
    pub score: f64,
}

/// `arena.csv`'s columns, in order.
pub const RATINGS: [Column<Rating>; 7] = [
    Column::new("agent", Kind::Text, |r| Value::Text(r.agent.clone())),
    Column::new("elo", Kind::Real1, |r| Value::Num(r.elo[0])),
    Column::new("elo_lo", Kind::Real1, |r| Value::Num(r.elo[1])),
    Column::new("elo_hi", Kind::Real1, |r| Value::Num(r.elo[2])),
    Column::new("games", Kind::Points, |r| Value::Num(r.games)),
    Column::new("score", Kind::Points, |r| Value::Num(r.score)),
    Column::new("score_rate", Kind::Rate, |r| Value::Num(r.score / r.games)),
];

/// The text of `arena.csv`: its header and a row per agent, in the order given (best first).
pub fn write_ratings(rows: &[Rating]) -> String {
    write_table(&RATINGS, rows)
}

/// A row of `arena_pairs.csv`: two agents, the pairs of games they played and the pentanomial
/// counts of those pairs (0, ½, 1, 1½, 2 points for `agent_a`); every other column is made of
/// them (games, A's score, its rate and Wilson interval).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    pub agent_a: String,
    pub agent_b: String,
    pub pairs: u64,
    pub counts: [u64; 5],
}

impl Pair {
    /// The games of the pairs.
    fn games(&self) -> f64 {
        2.0 * self.pairs as f64
    }
}

/// `arena_pairs.csv`'s columns, in order.
pub const PAIRS: [Column<Pair>; 13] = [
    Column::new("agent_a", Kind::Text, |r| Value::Text(r.agent_a.clone())),
    Column::new("agent_b", Kind::Text, |r| Value::Text(r.agent_b.clone())),
    Column::new("pairs", Kind::Count, |r| Value::Count(Some(r.pairs))),
    Column::new("games", Kind::Points, |r| Value::Num(r.games())),
    Column::new("score_a", Kind::Points, |r| Value::Num(points(&r.counts))),
    Column::new("rate_a", Kind::Rate, |r| {
        Value::Num(points(&r.counts) / r.games())
    }),
    Column::new("ci_low", Kind::Rate, |r| {
        Value::Num(wilson(points(&r.counts), r.games(), Z95).0)
    }),
    Column::new("ci_high", Kind::Rate, |r| {
        Value::Num(wilson(points(&r.counts), r.games(), Z95).1)
    }),
    Column::new("pairs_0", Kind::Count, |r| Value::Count(Some(r.counts[0]))),
    Column::new("pairs_half", Kind::Count, |r| {
        Value::Count(Some(r.counts[1]))
    }),
    Column::new("pairs_1", Kind::Count, |r| Value::Count(Some(r.counts[2]))),
    Column::new("pairs_1half", Kind::Count, |r| {
        Value::Count(Some(r.counts[3]))
    }),
    Column::new("pairs_2", Kind::Count, |r| Value::Count(Some(r.counts[4]))),
];

/// The text of `arena_pairs.csv`: its header and a row per two agents, in play order.
pub fn write_pairs(rows: &[Pair]) -> String {
    write_table(&PAIRS, rows)
}

/// A row of `sprt.csv`: the two agents, the test (H0's and H1's Elo, alpha, beta), the pairs
/// played and their pentanomial counts, the log-likelihood ratio where the test ended and the
/// verdict (`H0`, `H1` or `none`). The bounds are made of alpha and beta.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SprtRow {
    pub agent_a: String,
    pub agent_b: String,
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub pairs: u64,
    pub llr: f64,
    pub verdict: String,
    pub counts: [u64; 5],
}

/// `sprt.csv`'s columns, in order.
pub const SPRT: [Column<SprtRow>; 16] = [
    Column::new("agent_a", Kind::Text, |r| Value::Text(r.agent_a.clone())),
    Column::new("agent_b", Kind::Text, |r| Value::Text(r.agent_b.clone())),
    Column::new("elo0", Kind::Plain, |r| Value::Num(r.elo0)),
    Column::new("elo1", Kind::Plain, |r| Value::Num(r.elo1)),
    Column::new("alpha", Kind::Plain, |r| Value::Num(r.alpha)),
    Column::new("beta", Kind::Plain, |r| Value::Num(r.beta)),
    Column::new("pairs", Kind::Count, |r| Value::Count(Some(r.pairs))),
    Column::new("llr", Kind::Real, |r| Value::Num(r.llr)),
    Column::new("lower", Kind::Real, |r| {
        Value::Num(sprt_bounds(r.alpha, r.beta).0)
    }),
    Column::new("upper", Kind::Real, |r| {
        Value::Num(sprt_bounds(r.alpha, r.beta).1)
    }),
    Column::new("verdict", Kind::Text, |r| Value::Text(r.verdict.clone())),
    Column::new("pairs_0", Kind::Count, |r| Value::Count(Some(r.counts[0]))),
    Column::new("pairs_half", Kind::Count, |r| {
        Value::Count(Some(r.counts[1]))
    }),
    Column::new("pairs_1", Kind::Count, |r| Value::Count(Some(r.counts[2]))),
    Column::new("pairs_1half", Kind::Count, |r| {
        Value::Count(Some(r.counts[3]))
    }),
    Column::new("pairs_2", Kind::Count, |r| Value::Count(Some(r.counts[4]))),
];

/// The text of `sprt.csv`: its header and the test's one row.
pub fn write_sprt(row: &SprtRow) -> String {
    write_table(&SPRT, [row])
}

/// The five pentanomial counts of a row of `arena_pairs.csv` or `sprt.csv`; their sum must be
/// the row's pairs.
fn counts(f: &Fields) -> Result<[u64; 5], InputError> {
    let c = ["pairs_0", "pairs_half", "pairs_1", "pairs_1half", "pairs_2"].map(|k| f.count(k));
    let pairs = f.count("pairs");
    if c.iter().try_fold(0u64, |a, &x| a.checked_add(x)) != Some(pairs) {
        return Err(f.at(format!(
            "impossible counts: the pentanomial counts {c:?} do not add up to {pairs} pairs"
        )));
    }
    Ok(c)
}

/// Reads an `arena.csv`: the exact header, then rows whose every value is checked — at least one
/// game, a score of whole half points at most the games, its rate what they give (to its 4
/// decimals), the rating inside its interval (to the decimal written). A file of no row is an
/// error too. Errors name `file` and the line.
pub fn read_ratings(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &RATINGS)?;
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    for f in &rows {
        let (games, score) = (f.num("games"), f.num("score"));
        if !(games >= 1.0 && games.fract() == 0.0) {
            return Err(f.at(format!(
                "column `games`: \"{}\" is not a number of games",
                f.text("games")
            )));
        }
        if (2.0 * score).fract() != 0.0 || score > games {
            return Err(f.at(format!(
                "impossible counts: a score of {} points in {games} games",
                f.text("score")
            )));
        }
        let [v, lo, hi] = ["elo", "elo_lo", "elo_hi"].map(|c| f.num(c));
        if !(lo <= v + 0.05 + 1e-9 && v <= hi + 0.05 + 1e-9) {
            return Err(f.at(format!(
                "column `elo`: {v} is not inside its interval {lo} … {hi}"
            )));
        }
        let row = Rating {
            agent: f.text("agent").to_string(),
            elo: [v, lo, hi],
            games,
            score,
        };
        f.check_derived(&RATINGS, &row)?;
    }
    Ok(rows)
}

/// Reads an `arena_pairs.csv`: the exact header, then rows whose every value is what the row's
/// pairs and pentanomial counts give — the counts adding up to the pairs, the games twice the
/// pairs, A's score their points, its rate and Wilson interval (to their 4 decimals). A file of
/// no row is an error too. Errors name `file` and the line.
pub fn read_pairs(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &PAIRS)?;
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    for f in &rows {
        let row = Pair {
            agent_a: f.text("agent_a").to_string(),
            agent_b: f.text("agent_b").to_string(),
            pairs: f.count("pairs"),
            counts: counts(f)?,
        };
        if row.pairs == 0 {
            return Err(f.at("column `pairs`: 0 pairs measure nothing"));
        }
        f.check_derived(&PAIRS, &row)?;
    }
    Ok(rows)
}

/// `arena.csv` against the `arena_pairs.csv` beside it (`pairs_file` names it): each agent's
/// games and score are the sums of its pairs' (its own score as agent A, the rest as agent B),
/// and the two files name the same agents (unless an agent was entered twice, whose rows cannot be
/// told apart). The error names the rating's line.
pub fn check_ratings_against_pairs(
    ratings: &[Fields],
    pairs: &[Fields],
    pairs_file: &str,
) -> Result<(), InputError> {
    let names: Vec<&str> = ratings.iter().map(|r| r.text("agent")).collect();
    if (1..names.len()).any(|k| names[..k].contains(&names[k])) {
        // An agent entered twice (`--agent heuristic --agent heuristic`): its rows cannot be
        // told apart, so their sums cannot be attributed.
        return Ok(());
    }
    for r in ratings {
        let agent = r.text("agent");
        let (mut games, mut score) = (0.0, 0.0);
        for p in pairs {
            let g = p.num("games");
            if p.text("agent_a") == agent {
                games += g;
                score += p.num("score_a");
            } else if p.text("agent_b") == agent {
                games += g;
                score += g - p.num("score_a");
            }
        }
        if games != r.num("games") || score != r.num("score") {
            return Err(r.at(format!(
                "agent {agent}: {} points in {} games, where {pairs_file} gives {score} in {games}",
                r.text("score"),
                r.text("games")
            )));
        }
    }
    for p in pairs {
        for a in [p.text("agent_a"), p.text("agent_b")] {
            if !ratings.iter().any(|r| r.text("agent") == a) {
                return Err(p.at(format!("agent {a} has no rating in arena.csv")));
            }
        }
    }
    Ok(())
}

/// Reads a `sprt.csv`: the exact header, then rows whose every value is checked — alpha and beta
/// in (0, 1), the pentanomial counts adding up to the pairs, the bounds what alpha and beta give
/// (to their 4 decimals), and the verdict what the LLR says (to its 4 decimals): `H1` at or
/// above the upper bound, `H0` at or below the lower one, `none` between them. A file of no row is an error too. Errors
/// name `file` and the line.
pub fn read_sprt(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &SPRT)?;
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    for f in &rows {
        for c in ["alpha", "beta"] {
            let x = f.num(c);
            if !(x > 0.0 && x < 1.0) {
                return Err(f.at(format!("column `{c}`: \"{}\" is not in (0, 1)", f.text(c))));
            }
        }
        let row = SprtRow {
            agent_a: f.text("agent_a").to_string(),
            agent_b: f.text("agent_b").to_string(),
            elo0: f.num("elo0"),
            elo1: f.num("elo1"),
            alpha: f.num("alpha"),
            beta: f.num("beta"),
            pairs: f.count("pairs"),
            llr: f.num("llr"),
            verdict: f.text("verdict").to_string(),
            counts: counts(f)?,
        };
        f.check_derived(&SPRT, &row)?;
        // To the 4 decimals written: an LLR written equal to a bound may have been either side.
        let (llr, lo, hi) = (f.num("llr"), f.num("lower"), f.num("upper"));
        let half = Kind::Real.half_unit();
        let ok = match row.verdict.as_str() {
            "H1" => llr >= hi - 2.0 * half,
            "H0" => llr <= lo + 2.0 * half,
            "none" => lo - 2.0 * half < llr && llr < hi + 2.0 * half,
            _ => false,
        };
        if !ok {
            return Err(f.at(format!(
                "column `verdict`: \"{}\" is not what an LLR of {llr} between the bounds {lo} and {hi} gives (H0 at or below the lower, H1 at or above the upper, none between)",
                row.verdict
            )));
        }
    }
    Ok(rows)
}
