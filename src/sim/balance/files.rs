//! The result files of a balancing run (`docs/cli.md`, `tcgsim balance`): `balance.csv`, the
//! matchups before and after the best change (in the format of `matchups.csv`) and `balance.svg`,
//! made of an [`Outcome`]. `balance.csv`'s columns are one table here, which the writer and the
//! report's reader both use.

use super::run::{describe, Fresh, Outcome, Plan};
use super::{means_of, ssd, Change, Est, Games};
use crate::core::GameDef;
use crate::sim::columns::{header, num, text, Column};
use crate::sim::files::{matrix::svg as matrix_svg, Table};

/// `balance.csv`: one row per raced change, best first, then the best change's fresh row.
pub const BALANCE: &[Column] = &[
    num("rank"),
    text("card"),
    text("column"),
    num("from"),
    num("to"),
    num("screen_score"),
    text("measure"),
    num("games_per_matchup"),
    num("spread_before"),
    num("spread_before_lo"),
    num("spread_before_hi"),
    num("spread_after"),
    num("spread_after_lo"),
    num("spread_after_hi"),
    num("reduction"),
    num("reduction_lo"),
    num("reduction_hi"),
    num("ssd_before"),
    num("ssd_after"),
    text("status"),
];

/// `balance.csv`.
pub fn balance_csv<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    let n = plan.decks.len();
    let mut csv = Table::new(&header(BALANCE));
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
        csv_row(
            &mut csv,
            [
                (rank + 1).to_string(),
                G::card_name(plan.cards, r.change.card),
            ],
            &r.change,
            (r.screen, "race", r.per_matchup),
            &e,
            (
                ssd(&base_means(n, &o.base, r.per_matchup)),
                ssd(&means_of(n, &r.games)),
            ),
            &r.status,
        );
    }
    if let (Some(b), Some(f)) = (o.best, &o.fresh) {
        let r = &o.rows[b];
        csv_row(
            &mut csv,
            [String::new(), G::card_name(plan.cards, r.change.card)],
            &r.change,
            (r.screen, "fresh", plan.check_games),
            &f.est,
            (ssd(&means_of(n, &f.before)), ssd(&means_of(n, &f.after))),
            "best, re-measured on fresh deals",
        );
    }
    csv.finish()
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
fn csv_row(
    csv: &mut Table,
    [rank, card]: [String; 2],
    c: &Change,
    (screen, measure, games): (f64, &str, u64),
    e: &[Est; 3],
    (ssd_before, ssd_after): (f64, f64),
    status: &str,
) {
    let f4 = |x: f64| format!("{x:.4}");
    let mut v = vec![
        rank,
        card,
        c.column.to_string(),
        c.from.to_string(),
        c.to.to_string(),
        format!("{screen:.5}"),
        measure.to_string(),
        games.to_string(),
    ];
    for x in e {
        v.extend([f4(x.value), f4(x.lo), f4(x.hi)]);
    }
    v.extend([f4(ssd_before), f4(ssd_after), status.to_string()]);
    csv.row(v);
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
