//! The result files of a search (`docs/cli.md`, `tcgsim tune`): the tuned deck, `tune.csv`,
//! `tune_progress.csv`, `tune_fresh.csv` and `tune.svg`, made of an [`Outcome`]. Each CSV's
//! columns are one table here, which the writer and the report's reader both use.

use super::run::{pct, rate_ci, Outcome, Plan};
use super::Search;
use crate::core::GameDef;
use crate::sim::columns::{header, num, text, Column};
use crate::sim::files::Table;

/// `tune.csv`: one row per accepted swap.
pub const TUNE: &[Column] = &[
    num("round"),
    text("removed"),
    text("added"),
    num("copies"),
    num("games"),
    num("before"),
    num("before_lo"),
    num("before_hi"),
    num("after"),
    num("after_lo"),
    num("after_hi"),
    num("gain"),
    num("gain_lo"),
    num("gain_hi"),
    num("remeasured_next_round"),
    num("remeasured_games"),
    num("games_spent"),
    num("candidates"),
];

/// `tune_progress.csv`: the incumbent's win rate at each round's end.
pub const PROGRESS: &[Column] = &[
    num("round"),
    num("games"),
    num("n"),
    num("score"),
    num("win_rate"),
    num("ci_low"),
    num("ci_high"),
    num("accepted"),
];

/// `tune_fresh.csv`: the fresh measurement of the starting and the tuned deck, and the gain.
pub const FRESH: &[Column] = &[
    text("measure"),
    text("deck"),
    num("games"),
    num("value"),
    num("lo"),
    num("hi"),
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
    let mut csv = Table::new(&header(TUNE));
    let f4 = |x: f64| format!("{x:.4}");
    for a in &search.accepted {
        let (b, blo, bhi) = rate_ci(a.before, a.games);
        let (f, flo, fhi) = rate_ci(a.after, a.games);
        let (glo, ghi) = a.arm.interval();
        let next = search.points.iter().find(|p| p.round == a.round + 1);
        csv.row([
            a.round.to_string(),
            G::card_name(cards, a.swap.remove),
            G::card_name(cards, a.swap.add),
            a.swap.copies.to_string(),
            a.games.to_string(),
            f4(b),
            f4(blo),
            f4(bhi),
            f4(f),
            f4(flo),
            f4(fhi),
            f4(a.arm.mean()),
            f4(glo),
            f4(ghi),
            next.map_or(String::new(), |p| f4(p.score as f64 / (2 * p.n) as f64)),
            next.map_or(String::new(), |p| p.n.to_string()),
            a.spent.to_string(),
            a.candidates.to_string(),
        ]);
    }
    csv.finish()
}

/// `tune_progress.csv`, for the report (and any reader); `None` when no round ended.
pub fn progress_csv(search: &Search) -> Option<String> {
    if search.points.is_empty() {
        return None;
    }
    let mut prog = Table::new(&header(PROGRESS));
    for p in &search.points {
        let (v, lo, hi) = rate_ci(p.score, p.n);
        let accepted = search.accepted.iter().any(|a| a.round == p.round);
        prog.row([
            p.round.to_string(),
            p.games.to_string(),
            p.n.to_string(),
            p.score.to_string(),
            format!("{v:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            u8::from(accepted).to_string(),
        ]);
    }
    Some(prog.finish())
}

/// `tune_fresh.csv`.
pub fn fresh_csv<G: GameDef>(plan: &Plan<G>, o: &Outcome<G>) -> String {
    let mut csv = Table::new(&header(FRESH));
    let (dlo, dhi) = o.gain.interval();
    for (measure, deck, (v, lo, hi)) in [
        ("start", plan.name().to_string(), o.start_rate()),
        ("tuned", stem(plan), o.tuned_rate()),
        ("gain", String::new(), (o.gain.mean(), dlo, dhi)),
    ] {
        csv.row([
            measure.to_string(),
            deck,
            o.check.to_string(),
            format!("{v:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
        ]);
    }
    csv.finish()
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
