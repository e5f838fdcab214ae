//! The report of a `tune` run: the fresh measurement (`tune_fresh.csv`), the win rate while the
//! search ran (`tune_progress.csv`) and the accepted swaps (`tune.csv`). The files are read
//! through the column tables their writer uses (`sim::tune::files`).

use super::{pct_ci, pts_ci, src, svg, table, td, td_num, Section};
use crate::core::InputError;
use crate::sim::files::{read_file, Fields};
use crate::sim::tune::files::{read_fresh, read_progress, read_swaps};
use std::path::Path;

/// `dir/name` read through `read` (`Ok(None)` when the file is absent).
fn read(
    dir: &Path,
    name: &str,
    read: fn(&str, &str) -> Result<Vec<Fields>, InputError>,
) -> Result<Option<Vec<Fields>>, InputError> {
    match read_file(dir, name)? {
        Some((text, file)) => read(&text, &file).map(Some),
        None => Ok(None),
    }
}

/// The tuning section of the page, when the run folder holds any of the tune files.
pub(super) fn tune_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    // A search that ended no round writes only the header.
    let progress = read(dir, "tune_progress.csv", read_progress)?.filter(|p| !p.is_empty());
    // A run that accepted no swap writes only the header.
    let swaps = read(dir, "tune.csv", read_swaps)?.filter(|c| !c.is_empty());
    let fresh = read(dir, "tune_fresh.csv", read_fresh)?;
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
        html += &progress_chart(p, fresh.as_deref());
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

/// `tune_fresh.csv` as a table: the starting and the tuned deck's rates, and the gain.
fn fresh_table(fr: &[Fields]) -> String {
    let f = "tune_fresh.csv";
    let trs: Vec<String> = fr
        .iter()
        .map(|r| {
            let l = r.line;
            let m = r.text("measure");
            let (v, lo, hi) = (r.num("value"), r.num("lo"), r.num("hi"));
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
                td_num(&src(f, l, "games"), r.num("games"), r.text("games"))
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
fn progress_chart(p: &[Fields], fresh: Option<&[Fields]>) -> String {
    let f = "tune_progress.csv";
    let pts: Vec<svg::LPoint> = p
        .iter()
        .map(|r| {
            let l = r.line;
            svg::LPoint {
                x: r.num("games"),
                v: r.num("win_rate"),
                lo: r.num("ci_low"),
                hi: r.num("ci_high"),
                title: (
                    src(f, l, "round win_rate ci_low ci_high n"),
                    format!(
                        "round {}: {} on {} games",
                        r.text("round"),
                        pct_ci(r.num("win_rate"), r.num("ci_low"), r.num("ci_high")),
                        r.text("n")
                    ),
                ),
                marked: r.num("accepted") > 0.0,
            }
        })
        .collect();
    let refs: Vec<(f64, String)> = fresh
        .map(|fr| {
            fr.iter()
                .filter(|r| r.text("measure") != "gain")
                .map(|r| {
                    (
                        r.num("value"),
                        format!("{}, fresh deals", r.text("measure")),
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
fn progress_table(p: &[Fields]) -> String {
    let f = "tune_progress.csv";
    let trs: Vec<String> = p
        .iter()
        .map(|r| {
            let l = r.line;
            format!(
                "{}{}{}{}{}",
                td_num(&src(f, l, "round"), r.num("round"), r.text("round")),
                td_num(&src(f, l, "games"), r.num("games"), r.text("games")),
                td_num(
                    &src(f, l, "win_rate ci_low ci_high"),
                    r.num("win_rate"),
                    &pct_ci(r.num("win_rate"), r.num("ci_low"), r.num("ci_high"))
                ),
                td_num(&src(f, l, "n"), r.num("n"), r.text("n")),
                td(if r.num("accepted") > 0.0 {
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
fn swaps_table(s: &[Fields]) -> String {
    let f = "tune.csv";
    let trs: Vec<String> = s
        .iter()
        .map(|r| {
            let l = r.line;
            let ci = |a: &str, b: &str, c: &str| {
                td_num(
                    &src(f, l, &format!("{a} {b} {c}")),
                    r.num(a),
                    &pct_ci(r.num(a), r.num(b), r.num(c)),
                )
            };
            format!(
                "{}{}{}{}{}{}{}",
                td_num(&src(f, l, "round"), r.num("round"), r.text("round")),
                td_num(&src(f, l, "copies"), r.num("copies"), r.text("copies")),
                td(r.text("removed")),
                td(r.text("added")),
                ci("before", "before_lo", "before_hi"),
                ci("after", "after_lo", "after_hi"),
                td_num(
                    &format!("{} data-u=\"pts\"", src(f, l, "gain gain_lo gain_hi")),
                    r.num("gain"),
                    &pts_ci(r.num("gain"), r.num("gain_lo"), r.num("gain_hi"))
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
