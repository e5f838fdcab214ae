//! The report of a `tune` run: the fresh measurement (`tune_fresh.csv`), the win rate while the
//! search ran (`tune_progress.csv`) and the accepted swaps (`tune.csv`). The files are read
//! through the column tables their writer uses (`sim::tune::files`).

use super::read::Csv;
use super::{pct_ci, pts_ci, src, svg, table, td, td_num, Section};
use crate::sim::columns::{of_kind, Column, Kind};
use crate::sim::tune::files::{FRESH, PROGRESS, TUNE};
use std::path::Path;

/// `dir/name` read with the columns of `cols` required (`Ok(None)` when the file is absent);
/// `maybe_empty`: a file of only its header is a table of no rows.
fn read(dir: &Path, name: &str, cols: &[Column], maybe_empty: bool) -> Result<Option<Csv>, String> {
    let (text, nums) = (of_kind(cols, Kind::Text), of_kind(cols, Kind::Num));
    if maybe_empty {
        Csv::read_maybe_empty(dir, name, &text, &nums)
    } else {
        Csv::read(dir, name, &text, &nums)
    }
}

/// The tuning section of the page, when the run folder holds any of the tune files.
pub(super) fn tune_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let progress = read(dir, "tune_progress.csv", PROGRESS, false)?;
    // A run that accepted no swap writes only the header.
    let swaps = read(dir, "tune.csv", TUNE, true)?.filter(|c| !c.is_empty());
    let fresh = read(dir, "tune_fresh.csv", FRESH, false)?;
    if let Some(fr) = &fresh {
        check_fresh(fr)?;
    }
    if progress.is_none() && swaps.is_none() && fresh.is_none() {
        return Ok(());
    }
    let mut html = String::new();
    if let Some(fr) = &fresh {
        html += "<p>The honest measure: the starting and the tuned deck on fresh deals no round used (the gain in points, paired interval).</p>\n";
        html += &fresh_table(fr);
    }
    if let Some(p) = &progress {
        html += "<p>The deck's win rate against the gauntlet while the search ran (each round re-measures the current deck on its own deals):</p>\n";
        html += &progress_chart(p, fresh.as_ref());
        html += &progress_table(p);
    }
    match &swaps {
        Some(s) => html += &swaps_table(s),
        None => html += "<p>No swap was accepted.</p>\n",
    }
    out.push(Section {
        id: format!("{id}-tune"),
        title: tag("Tuning"),
        html,
    });
    Ok(())
}

/// `tune_fresh.csv`'s values within what they can be (issue 30: a rate of 7.5 was shown as
/// "750.0%"): the decks' win rates and their intervals in [0, 1], the gain (a difference of two
/// rates) in [−1, 1], each value inside its interval (to the 4 decimals written), whole games.
fn check_fresh(fr: &Csv) -> Result<(), String> {
    const HALF: f64 = 0.5e-4 + 1e-9;
    for r in 0..fr.len() {
        let at = format!("{}:{}", fr.name, fr.line(r));
        let games = fr.num(r, "games");
        if !(games >= 0.0 && games.fract() == 0.0) {
            return Err(format!(
                "{at}: column `games`: {games} is not a number of games"
            ));
        }
        let low = if fr.text(r, "measure") == "gain" {
            -1.0
        } else {
            0.0
        };
        let [v, lo, hi] = ["value", "lo", "hi"].map(|c| fr.num(r, c));
        for (c, x) in [("value", v), ("lo", lo), ("hi", hi)] {
            if !x.is_nan() && !(low..=1.0).contains(&x) {
                return Err(format!(
                    "{at}: column `{c}`: {x} is outside [{low}, 1], which a {} cannot leave",
                    if low < 0.0 {
                        "difference of two win rates"
                    } else {
                        "win rate"
                    }
                ));
            }
        }
        let inside = lo <= v + HALF && v <= hi + HALF;
        if !(v.is_nan() || inside) {
            return Err(format!(
                "{at}: column `value`: {v} is not inside its interval {lo} … {hi}"
            ));
        }
    }
    Ok(())
}

/// `tune_fresh.csv` as a table: the starting and the tuned deck's rates, and the gain.
fn fresh_table(fr: &Csv) -> String {
    let f = &fr.name;
    let trs: Vec<String> = (0..fr.len())
        .map(|r| {
            let l = fr.line(r);
            let m = fr.text(r, "measure");
            let (v, lo, hi) = (fr.num(r, "value"), fr.num(r, "lo"), fr.num(r, "hi"));
            let cell = if m == "gain" {
                td_num(
                    &format!("{} data-u=\"pts\"", src(f, l, "value lo hi")),
                    v,
                    &pts_ci(v, lo, hi),
                )
            } else {
                td_num(&src(f, l, "value lo hi"), v, &pct_ci(v, lo, hi))
            };
            format!(
                "{}{cell}{}",
                td(m),
                td_num(&src(f, l, "games"), fr.num(r, "games"), fr.text(r, "games"))
            )
        })
        .collect();
    table(
        "Fresh measurement",
        &["deck", "win rate (95%), gain in pts", "games"],
        &trs,
    )
}

/// The win rate at each round's end against the games played, with the fresh measurements as
/// reference lines.
fn progress_chart(p: &Csv, fresh: Option<&Csv>) -> String {
    let f = &p.name;
    let pts: Vec<svg::LPoint> = (0..p.len())
        .map(|r| {
            let l = p.line(r);
            svg::LPoint {
                x: p.num(r, "games"),
                v: p.num(r, "win_rate"),
                lo: p.num(r, "ci_low"),
                hi: p.num(r, "ci_high"),
                title: (
                    src(f, l, "round win_rate ci_low ci_high n"),
                    format!(
                        "round {}: {} on {} games",
                        p.text(r, "round"),
                        pct_ci(
                            p.num(r, "win_rate"),
                            p.num(r, "ci_low"),
                            p.num(r, "ci_high")
                        ),
                        p.text(r, "n")
                    ),
                ),
                marked: p.num(r, "accepted") > 0.0,
            }
        })
        .collect();
    let refs: Vec<(f64, String)> = fresh
        .map(|fr| {
            (0..fr.len())
                .filter(|&r| fr.text(r, "measure") != "gain")
                .map(|r| {
                    (
                        fr.num(r, "value"),
                        format!("{}, fresh deals", fr.text(r, "measure")),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    svg::line(
        "Win rate while tuning",
        "games played by the search",
        &pts,
        &refs,
    )
}

/// `tune_progress.csv` as a table: the search round by round.
fn progress_table(p: &Csv) -> String {
    let f = &p.name;
    let trs: Vec<String> = (0..p.len())
        .map(|r| {
            let l = p.line(r);
            format!(
                "{}{}{}{}{}",
                td_num(&src(f, l, "round"), p.num(r, "round"), p.text(r, "round")),
                td_num(&src(f, l, "games"), p.num(r, "games"), p.text(r, "games")),
                td_num(
                    &src(f, l, "win_rate ci_low ci_high"),
                    p.num(r, "win_rate"),
                    &pct_ci(
                        p.num(r, "win_rate"),
                        p.num(r, "ci_low"),
                        p.num(r, "ci_high")
                    )
                ),
                td_num(&src(f, l, "n"), p.num(r, "n"), p.text(r, "n")),
                td(if p.num(r, "accepted") > 0.0 {
                    "accepted a swap"
                } else {
                    ""
                }),
            )
        })
        .collect();
    table(
        "The search, round by round",
        &[
            "round",
            "games so far",
            "win rate (95%)",
            "games of the round",
            "",
        ],
        &trs,
    )
}

/// `tune.csv` as a table: the accepted swaps with the search's own estimates.
fn swaps_table(s: &Csv) -> String {
    let f = &s.name;
    let trs: Vec<String> = (0..s.len())
        .map(|r| {
            let l = s.line(r);
            let ci = |a: &str, b: &str, c: &str| {
                td_num(
                    &src(f, l, &format!("{a} {b} {c}")),
                    s.num(r, a),
                    &pct_ci(s.num(r, a), s.num(r, b), s.num(r, c)),
                )
            };
            format!(
                "{}{}{}{}{}{}{}",
                td_num(&src(f, l, "round"), s.num(r, "round"), s.text(r, "round")),
                td_num(
                    &src(f, l, "copies"),
                    s.num(r, "copies"),
                    s.text(r, "copies")
                ),
                td(s.text(r, "removed")),
                td(s.text(r, "added")),
                ci("before", "before_lo", "before_hi"),
                ci("after", "after_lo", "after_hi"),
                td_num(
                    &format!("{} data-u=\"pts\"", src(f, l, "gain gain_lo gain_hi")),
                    s.num(r, "gain"),
                    &pts_ci(s.num(r, "gain"), s.num(r, "gain_lo"), s.num(r, "gain_hi"))
                ),
            )
        })
        .collect();
    table(
        "Accepted swaps (the search's own estimates, biased up: docs/tuning.md)",
        &[
            "round",
            "copies",
            "removed",
            "added",
            "before (95%)",
            "after (95%)",
            "gain, pts (95%)",
        ],
        &trs,
    )
}
