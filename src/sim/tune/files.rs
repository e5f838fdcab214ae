//! The result files of a search (`docs/cli.md`, `tcgsim tune`): the tuned deck, `tune.csv`,
//! `tune_progress.csv`, `tune_fresh.csv` and `tune.svg`, made of an [`Outcome`]. Each CSV's
//! columns are one table here ([`crate::sim::files::Column`]), of which both its writer and its
//! checked reader are made (`report` reads the files only through [`read_swaps`],
//! [`read_progress`] and [`read_fresh`]).

use super::run::{pct, rate_ci, Outcome, Plan};
use super::Search;
use crate::core::GameDef;
use crate::core::InputError;
use crate::sim::files::{read_table, write_table, Column, Fields, Kind, Value};

/// A row of `tune.csv`: an accepted swap, the rates (value, low, high) the search measured before
/// and after it on the round's games, the gain's mean and interval, the next round's measure of
/// the new deck (rate and games), and the games and candidates the round spent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SwapRow {
    pub round: u64,
    pub removed: String,
    pub added: String,
    pub copies: u64,
    pub games: u64,
    pub before: [f64; 3],
    pub after: [f64; 3],
    pub gain: [f64; 3],
    pub remeasured: (f64, Option<u64>),
    pub spent: u64,
    pub candidates: u64,
}

/// `tune.csv`'s columns, in order: one row per accepted swap.
pub const TUNE: [Column<SwapRow>; 18] = [
    Column::new("round", Kind::Count, |r| Value::Count(Some(r.round))),
    Column::new("removed", Kind::Text, |r| Value::Text(r.removed.clone())),
    Column::new("added", Kind::Text, |r| Value::Text(r.added.clone())),
    Column::new("copies", Kind::Count, |r| Value::Count(Some(r.copies))),
    Column::new("games", Kind::Count, |r| Value::Count(Some(r.games))),
    Column::new("before", Kind::Rate, |r| Value::Num(r.before[0])),
    Column::new("before_lo", Kind::Rate, |r| Value::Num(r.before[1])),
    Column::new("before_hi", Kind::Rate, |r| Value::Num(r.before[2])),
    Column::new("after", Kind::Rate, |r| Value::Num(r.after[0])),
    Column::new("after_lo", Kind::Rate, |r| Value::Num(r.after[1])),
    Column::new("after_hi", Kind::Rate, |r| Value::Num(r.after[2])),
    Column::new("gain", Kind::Diff, |r| Value::Num(r.gain[0])),
    Column::new("gain_lo", Kind::Real, |r| Value::Num(r.gain[1])),
    Column::new("gain_hi", Kind::Real, |r| Value::Num(r.gain[2])),
    Column::new("remeasured_next_round", Kind::Rate, |r| {
        Value::Num(r.remeasured.0)
    }),
    Column::new("remeasured_games", Kind::OptCount, |r| {
        Value::Count(r.remeasured.1)
    }),
    Column::new("games_spent", Kind::Count, |r| Value::Count(Some(r.spent))),
    Column::new("candidates", Kind::Count, |r| {
        Value::Count(Some(r.candidates))
    }),
];

/// A row of `tune_progress.csv`: after `games` games of the search in all, the incumbent scored
/// `score` half points in the `n` games of round `round`; `accepted`: the round accepted a swap.
/// Its rate and interval are those of its counts ([`rate_ci`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProgressRow {
    pub round: u64,
    pub games: u64,
    pub n: u64,
    pub score: u64,
    pub accepted: bool,
}

/// `tune_progress.csv`'s columns, in order: the incumbent's win rate at each round's end.
pub const PROGRESS: [Column<ProgressRow>; 8] = [
    Column::new("round", Kind::Count, |r| Value::Count(Some(r.round))),
    Column::new("games", Kind::Count, |r| Value::Count(Some(r.games))),
    Column::new("n", Kind::Count, |r| Value::Count(Some(r.n))),
    Column::new("score", Kind::Count, |r| Value::Count(Some(r.score))),
    Column::new("win_rate", Kind::Rate, |r| {
        Value::Num(rate_ci(r.score, r.n).0)
    }),
    Column::new("ci_low", Kind::Rate, |r| {
        Value::Num(rate_ci(r.score, r.n).1)
    }),
    Column::new("ci_high", Kind::Rate, |r| {
        Value::Num(rate_ci(r.score, r.n).2)
    }),
    Column::new("accepted", Kind::Count, |r| {
        Value::Count(Some(u64::from(r.accepted)))
    }),
];

/// A row of `tune_fresh.csv`: a measure (`start`, `tuned` or `gain`), its deck (none for the
/// gain), the fresh games and the value with its interval.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FreshRow {
    pub measure: String,
    pub deck: String,
    pub games: u64,
    pub value: [f64; 3],
}

/// `tune_fresh.csv`'s columns, in order: the fresh measurement of the starting and the tuned
/// deck, and the gain.
pub const FRESH: [Column<FreshRow>; 6] = [
    Column::new("measure", Kind::Text, |r| Value::Text(r.measure.clone())),
    Column::new("deck", Kind::Text, |r| Value::Text(r.deck.clone())),
    Column::new("games", Kind::Count, |r| Value::Count(Some(r.games))),
    Column::new("value", Kind::Real, |r| Value::Num(r.value[0])),
    Column::new("lo", Kind::Real, |r| Value::Num(r.value[1])),
    Column::new("hi", Kind::Real, |r| Value::Num(r.value[2])),
];

/// The tuned deck's file stem: `NAME_tuned`.
pub fn stem<G: GameDef>(plan: &Plan<G>) -> String {
    format!("{}_tuned", plan.name())
}

/// The tuned deck's file, with a comment saying how it was made.
pub fn deck_file<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    let comment = format!(
        "{} tuned by tcgsim tune against {} ({}, seed {}): {} swaps; {} → {} on {} fresh games",
        plan.name(),
        plan.gauntlet_names().join(", "),
        plan.agent,
        plan.seed,
        o.search.accepted.len(),
        pct(o.start_rate().0),
        pct(o.tuned_rate().0),
        o.check
    );
    G::deck_file(plan.cards, &o.tuned, &comment)
}

/// `tune.csv`.
pub fn tune_csv<G: GameDef>(cards: &G::Cards, search: &Search) -> String {
    let rows: Vec<SwapRow> = search
        .accepted
        .iter()
        .map(|a| {
            let (b, blo, bhi) = rate_ci(a.before, a.games);
            let (f, flo, fhi) = rate_ci(a.after, a.games);
            let (glo, ghi) = a.arm.interval();
            let next = search.points.iter().find(|p| p.round == a.round + 1);
            SwapRow {
                round: a.round,
                removed: G::card_name(cards, a.swap.remove),
                added: G::card_name(cards, a.swap.add),
                copies: a.swap.copies as u64,
                games: a.games,
                before: [b, blo, bhi],
                after: [f, flo, fhi],
                gain: [a.arm.mean(), glo, ghi],
                remeasured: next.map_or((f64::NAN, None), |p| {
                    (p.score as f64 / (2 * p.n) as f64, Some(p.n))
                }),
                spent: a.spent,
                candidates: a.candidates,
            }
        })
        .collect();
    write_table(&TUNE, &rows)
}

/// `tune_progress.csv`, for the report (and any reader); only the header when no round ended
/// (as `tune.csv` when no swap was accepted), so that a run never leaves an earlier run's rounds
/// in its folder.
pub fn progress_csv(search: &Search) -> String {
    let rows: Vec<ProgressRow> = search
        .points
        .iter()
        .map(|p| ProgressRow {
            round: p.round,
            games: p.games,
            n: p.n,
            score: p.score,
            accepted: search.accepted.iter().any(|a| a.round == p.round),
        })
        .collect();
    write_table(&PROGRESS, &rows)
}

/// `tune_fresh.csv`.
pub fn fresh_csv<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    let (dlo, dhi) = o.gain.interval();
    let rows: Vec<FreshRow> = [
        ("start", plan.name().to_string(), o.start_rate()),
        ("tuned", stem(plan), o.tuned_rate()),
        ("gain", String::new(), (o.gain.mean(), dlo, dhi)),
    ]
    .into_iter()
    .map(|(measure, deck, (v, lo, hi))| FreshRow {
        measure: measure.to_string(),
        deck,
        games: o.check,
        value: [v, lo, hi],
    })
    .collect();
    write_table(&FRESH, &rows)
}

/// Half a unit of the 4th decimal: how far a value read back may be from what was written.
const HALF: f64 = 0.5e-4 + 1e-9;

/// Whether `v` lies inside `[lo, hi]` to the 4 decimals written (an empty value does).
fn inside(v: f64, lo: f64, hi: f64) -> bool {
    v.is_nan() || (lo <= v + HALF && v <= hi + HALF)
}

/// Reads a `tune.csv` (a file of only its header: no swap was accepted): the exact header, every
/// value of its kind (rates in [0, 1], the gain in [−1, 1]), and each row possible — at least one
/// copy swapped, the round's games at most the games it spent, each rate inside its interval and
/// a score of whole half points on the round's games, the next round's measure given with its
/// games or not at all. Errors name `file` and the line.
pub fn read_swaps(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &TUNE)?;
    for f in &rows {
        let games = f.count("games");
        if f.count("copies") == 0 {
            return Err(f.at("column `copies`: a swap of 0 copies"));
        }
        if games == 0 || games > f.count("games_spent") {
            return Err(f.at(format!(
                "column `games`: {games} games, not between 1 and the round's games_spent {}",
                f.count("games_spent")
            )));
        }
        for m in ["before", "after", "gain"] {
            let [v, lo, hi] = [m, &format!("{m}_lo"), &format!("{m}_hi")].map(|c| f.num(c));
            if !inside(v, lo, hi) {
                return Err(f.at(format!(
                    "column `{m}`: {v} is not inside its interval {lo} … {hi}"
                )));
            }
        }
        for m in ["before", "after"] {
            whole_score(f, m, games)?;
        }
        match (
            f.num("remeasured_next_round"),
            f.opt_count("remeasured_games"),
        ) {
            (x, None) if x.is_nan() => {}
            (x, Some(n)) if !x.is_nan() && n > 0 => whole_score(f, "remeasured_next_round", n)?,
            _ => {
                return Err(f.at(
                    "columns `remeasured_next_round` and `remeasured_games`: one without the other",
                ))
            }
        }
    }
    Ok(rows)
}

/// Column `col`'s rate is a score of whole half points on `games` games (to its 4 decimals).
fn whole_score(f: &Fields, col: &str, games: u64) -> Result<(), InputError> {
    let half_points = f.num(col) * 2.0 * games as f64;
    if (half_points - half_points.round()).abs() > HALF * 2.0 * games as f64 {
        return Err(f.at(format!(
            "column `{col}`: \"{}\" is not a score of whole half points on {games} games",
            f.text(col)
        )));
    }
    Ok(())
}

/// Reads a `tune_progress.csv`: the exact header, then rows whose every value is checked — the
/// round's score at most 2 half points a game, its games at most the search's so far, `accepted`
/// 0 or 1, and the win rate and its interval what the score gives to their 4 decimals
/// ([`rate_ci`]). A file of no row is a search that ended no round. Errors name `file` and the
/// line.
pub fn read_progress(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &PROGRESS)?;
    for f in &rows {
        let row = ProgressRow {
            round: f.count("round"),
            games: f.count("games"),
            n: f.count("n"),
            score: f.count("score"),
            accepted: f.count("accepted") == 1,
        };
        if row.n == 0 || row.n > row.games {
            return Err(f.at(format!(
                "column `n`: {} games, not between 1 and the search's {} games so far",
                row.n, row.games
            )));
        }
        if row.score > 2 * row.n {
            return Err(f.at(format!(
                "impossible counts: a score of {} half points in {} games",
                row.score, row.n
            )));
        }
        if f.count("accepted") > 1 {
            return Err(f.at(format!(
                "column `accepted`: \"{}\" is not 0 or 1",
                f.text("accepted")
            )));
        }
        f.check_derived(&PROGRESS, &row)?;
    }
    Ok(rows)
}

/// Reads a `tune_fresh.csv`: the exact header, then rows within what they can be (issue 30: a
/// rate of 7.5 was shown as "750.0%"): the decks' win rates and their intervals in [0, 1], the
/// gain (a difference of two rates) in [−1, 1], each value inside its interval (to the 4
/// decimals written), at least one game. A file of no row is an error too. Errors name `file`
/// and the line.
pub fn read_fresh(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &FRESH)?;
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    for f in &rows {
        if f.count("games") == 0 {
            return Err(f.at("column `games`: 0 games measure nothing"));
        }
        let gain = f.text("measure") == "gain";
        let low = if gain { -1.0 } else { 0.0 };
        let [v, lo, hi] = ["value", "lo", "hi"].map(|c| f.num(c));
        for (c, x) in [("value", v), ("lo", lo), ("hi", hi)] {
            if !x.is_nan() && !(low..=1.0).contains(&x) {
                return Err(f.at(format!(
                    "column `{c}`: {x} is outside [{low}, 1], which a {} cannot leave",
                    if gain {
                        "difference of two win rates"
                    } else {
                        "win rate"
                    }
                )));
            }
        }
        if !inside(v, lo, hi) {
            return Err(f.at(format!(
                "column `value`: {v} is not inside its interval {lo} … {hi}"
            )));
        }
    }
    Ok(rows)
}

/// `tune.svg`.
pub fn chart<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    crate::sim::svg::tune(
        plan.name(),
        &o.search.points,
        &o.search.accepted,
        o.start_rate(),
        o.tuned_rate(),
    )
}
