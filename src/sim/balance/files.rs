//! The result files of a balancing run (`docs/cli.md`, `tcgsim balance`): `balance.csv`, the
//! matchups before and after the best change (in the format of `matchups.csv`) and `balance.svg`,
//! made of an [`Outcome`]. `balance.csv`'s columns are one table here ([`BALANCE`]), of which both
//! its writer and its checked reader ([`read`]) are made.

use super::run::{describe, Fresh, Outcome, Plan};
use super::{means_of, ssd, Change, Est, Games};
use crate::core::GameDef;
use crate::core::InputError;
use crate::sim::files::{matrix::svg as matrix_svg, read_table, write_table};
use crate::sim::files::{Column, Fields, Kind, Value};

/// A row of `balance.csv`: a raced change (its rank, best first; none on the best change's
/// fresh row), its card, the card file's column and its values before and after, the screening
/// score, the measure (`race` or `fresh`) and its games a matchup, the spread of the decks' mean
/// win rates before and after and the reduction (each value, low, high), the sums of squared
/// deviations before and after, and the change's status.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BalanceRow {
    pub rank: Option<u64>,
    pub card: String,
    pub column: String,
    pub from: i64,
    pub to: i64,
    pub screen: f64,
    pub measure: String,
    pub games: u64,
    pub spread_before: [f64; 3],
    pub spread_after: [f64; 3],
    pub reduction: [f64; 3],
    pub ssd: [f64; 2],
    pub status: String,
}

/// `balance.csv`'s columns, in order: one row per raced change, best first, then the best
/// change's fresh row.
pub const BALANCE: [Column<BalanceRow>; 20] = [
    Column::new("rank", Kind::OptCount, |r| Value::Count(r.rank)),
    Column::new("card", Kind::Text, |r| Value::Text(r.card.clone())),
    Column::new("column", Kind::Text, |r| Value::Text(r.column.clone())),
    Column::new("from", Kind::Int, |r| Value::Int(r.from)),
    Column::new("to", Kind::Int, |r| Value::Int(r.to)),
    Column::new("screen_score", Kind::Real5, |r| Value::Num(r.screen)),
    Column::new("measure", Kind::Text, |r| Value::Text(r.measure.clone())),
    Column::new("games_per_matchup", Kind::Count, |r| {
        Value::Count(Some(r.games))
    }),
    Column::new("spread_before", Kind::Rate, |r| {
        Value::Num(r.spread_before[0])
    }),
    Column::new("spread_before_lo", Kind::Rate, |r| {
        Value::Num(r.spread_before[1])
    }),
    Column::new("spread_before_hi", Kind::Rate, |r| {
        Value::Num(r.spread_before[2])
    }),
    Column::new("spread_after", Kind::Rate, |r| {
        Value::Num(r.spread_after[0])
    }),
    Column::new("spread_after_lo", Kind::Rate, |r| {
        Value::Num(r.spread_after[1])
    }),
    Column::new("spread_after_hi", Kind::Rate, |r| {
        Value::Num(r.spread_after[2])
    }),
    Column::new("reduction", Kind::Diff, |r| Value::Num(r.reduction[0])),
    Column::new("reduction_lo", Kind::Diff, |r| Value::Num(r.reduction[1])),
    Column::new("reduction_hi", Kind::Diff, |r| Value::Num(r.reduction[2])),
    Column::new("ssd_before", Kind::Mean, |r| Value::Num(r.ssd[0])),
    Column::new("ssd_after", Kind::Mean, |r| Value::Num(r.ssd[1])),
    Column::new("status", Kind::Text, |r| Value::Text(r.status.clone())),
];

/// `balance.csv`.
pub fn balance_csv<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    let n = plan.decks.len();
    let mut rows = Vec::new();
    // The furthest in the race first; among them, the largest reduction.
    let mut order: Vec<usize> = (0..o.rows.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&o.rows[a], &o.rows[b]);
        y.per_matchup
            .cmp(&x.per_matchup)
            .then(y.est.unwrap()[2].value.total_cmp(&x.est.unwrap()[2].value))
    });
    for (rank, &i) in order.iter().enumerate() {
        let r = &o.rows[i];
        let e = r.est.expect("every candidate played a stage");
        rows.push(row(
            (
                Some(rank as u64 + 1),
                G::card_name(plan.cards, r.change.card),
            ),
            &r.change,
            (r.screen, "race", r.per_matchup),
            &e,
            [
                ssd(&base_means(n, &o.base, r.per_matchup)),
                ssd(&means_of(n, &r.games)),
            ],
            &r.status,
        ));
    }
    if let (Some(b), Some(f)) = (o.best, &o.fresh) {
        let r = &o.rows[b];
        rows.push(row(
            (None, G::card_name(plan.cards, r.change.card)),
            &r.change,
            (r.screen, "fresh", plan.check_games),
            &f.est,
            [ssd(&means_of(n, &f.before)), ssd(&means_of(n, &f.after))],
            "best, re-measured on fresh deals",
        ));
    }
    write_table(&BALANCE, &rows)
}

/// Reads a `balance.csv`: the exact header, then rows whose every value is checked — the spreads
/// and their intervals rates in [0, 1], the reduction and its interval in [−1, 1], the squared
/// deviations 0 or more, the measure `race` (ranked 1, 2, … in order) or `fresh` (unranked), at
/// least one game a matchup, and the change a change (`from` ≠ `to`). A file of no row is an
/// error too. Errors name `file` and the line.
pub fn read(text: &str, file: &str) -> Result<Vec<Fields>, InputError> {
    let rows = read_table(text, file, &BALANCE)?;
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    let mut ranked = 0;
    for f in &rows {
        match (f.text("measure"), f.opt_count("rank")) {
            ("race", Some(k)) if k == ranked + 1 => ranked = k,
            ("race", _) => {
                return Err(f.at(format!(
                    "column `rank`: \"{}\" is not the next rank, {}",
                    f.text("rank"),
                    ranked + 1
                )))
            }
            ("fresh", None) => {}
            ("fresh", Some(_)) => return Err(f.at("column `rank`: a fresh row has no rank")),
            (m, _) => {
                return Err(f.at(format!(
                    "column `measure`: \"{m}\" is neither race nor fresh"
                )))
            }
        }
        if f.count("games_per_matchup") == 0 {
            return Err(f.at("column `games_per_matchup`: 0 games measure nothing"));
        }
        if f.int("from") == f.int("to") {
            return Err(f.at(format!(
                "columns `from` and `to`: {} → {} changes nothing",
                f.int("from"),
                f.int("to")
            )));
        }
    }
    Ok(rows)
}

/// The unchanged cards' deck means on the first `games` games of each matchup (the games a
/// candidate that stopped there played).
fn base_means(n: usize, base: &Games, games: u64) -> Vec<f64> {
    let mut g = base.clone();
    for s in g.scores.iter_mut() {
        s.truncate(games as usize);
    }
    means_of(n, &g)
}

/// One row of `balance.csv`: its rank and card, the change, its screening score, measure and
/// games a matchup, its estimates, the squared deviations before and after, its status.
fn row(
    (rank, card): (Option<u64>, String),
    c: &Change,
    (screen, measure, games): (f64, &str, u64),
    e: &[Est; 3],
    ssd: [f64; 2],
    status: &str,
) -> BalanceRow {
    let three = |x: &Est| [x.value, x.lo, x.hi];
    BalanceRow {
        rank,
        card,
        column: c.column.to_string(),
        from: c.from,
        to: c.to,
        screen,
        measure: measure.to_string(),
        games,
        spread_before: three(&e[0]),
        spread_after: three(&e[1]),
        reduction: three(&e[2]),
        ssd,
        status: status.to_string(),
    }
}

/// The fresh games' matrix as `matrix` writes one (for `matchups.csv` and the heatmaps).
fn matrix_plan<G: GameDef>(plan: &Plan<G>) -> crate::sim::matrix::Plan {
    crate::sim::matrix::Plan {
        game: G::INFO.name.into(),
        deck_names: plan.names.clone(),
        agent_a: plan.agent.clone(),
        agent_b: plan.agent.clone(),
        games: plan.check_games,
        seed: plan.seed,
        ..Default::default()
    }
}

/// `balance_before_matchups.csv` and `balance_after_matchups.csv`: the fresh games' matchups
/// with the unchanged and with the changed cards.
pub fn matchups<G: GameDef>(plan: &Plan<G>, f: &Fresh) -> (String, String) {
    let m = matrix_plan(plan);
    (
        crate::sim::files::matchups::write(&m, &f.before.counts),
        crate::sim::files::matchups::write(&m, &f.after.counts),
    )
}

/// `balance.svg`: the fresh matrices before and after the best change, side by side.
pub fn chart<G: GameDef>(plan: &Plan<G>, change: &Change, f: &Fresh) -> String {
    let m = matrix_plan(plan);
    side_by_side(
        &matrix_svg(&m, &f.before.counts),
        &matrix_svg(&m, &f.after.counts),
        &format!("before: {}", plan.file),
        &format!("after: {}", describe::<G>(plan.cards, change)),
    )
}

/// Two heatmaps in one picture, side by side, each under its title.
fn side_by_side(a: &str, b: &str, ta: &str, tb: &str) -> String {
    let size = |s: &str| -> (f64, f64) {
        let num = |k: &str| {
            s.split(&format!("{k}=\""))
                .nth(1)
                .and_then(|x| x.split('"').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(600.0)
        };
        (num("width"), num("height"))
    };
    let ((wa, ha), (wb, hb)) = (size(a), size(b));
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    // The second map's pattern and gradient ids are renamed so that each map keeps its own.
    let b = b
        .replace("id=\"mirror\"", "id=\"mirror-b\"")
        .replace("url(#mirror)", "url(#mirror-b)")
        .replace("id=\"scale\"", "id=\"scale-b\"")
        .replace("url(#scale)", "url(#scale-b)");
    let inner = |s: &str, x: f64| s.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"30\" "), 1);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"15\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\">{}</text><text x=\"{:.0}\" y=\"20\">{}</text>\n{}{}</svg>\n",
        wa + wb + 20.0,
        ha.max(hb) + 30.0,
        esc(ta),
        wa + 30.0,
        esc(tb),
        inner(a, 0.0),
        inner(&b, wa + 20.0)
    )
}
