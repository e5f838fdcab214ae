//! The report's sections of an `arena` run: the agents' ratings (`arena.csv`), every two agents'
//! score (`arena_pairs.csv`) and, with `--sprt`, the sequential test (`sprt.csv`).

use super::{minus, pct, pct_ci, src, svg, table, td, td_num, Section};
use crate::core::InputError;
use crate::sim::files::arena::{check_ratings_against_pairs, read_pairs, read_ratings, read_sprt};
use crate::sim::files::{read_file, Fields};
use std::path::Path;

/// The sections of the arena run in `dir`: those of the files it holds, each read through its
/// module ([`crate::sim::files::arena`]), which checks every value; the ratings are checked
/// against the pairs beside them.
pub(super) fn arena_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "arena.csv")? {
        let c = read_ratings(&text, &file)?;
        let mut html = ratings(&c);
        if let Some((text, pfile)) = read_file(dir, "arena_pairs.csv")? {
            let p = read_pairs(&text, &pfile)?;
            check_ratings_against_pairs(&c, &p, &pfile)?;
            html += &pairs(&p);
        }
        out.push(Section {
            id: format!("{id}-arena"),
            title: tag("Agent ratings"),
            html,
        });
    }
    if let Some((text, file)) = read_file(dir, "sprt.csv")? {
        let c = read_sprt(&text, &file)?;
        out.push(Section {
            id: format!("{id}-sprt"),
            title: tag("Sequential test"),
            html: sprt(&c),
        });
    }
    Ok(())
}

/// The ratings of `arena.csv`: a chart of the intervals, then the table.
fn ratings(c: &[Fields]) -> String {
    let f = "arena.csv";
    let rows: Vec<svg::IRow> = c
        .iter()
        .map(|r| svg::IRow {
            label: r.text("agent").to_string(),
            marks: vec![(r.num("elo"), r.num("elo_lo"), r.num("elo_hi"))],
            text: Some((
                src(f, r.line, "elo elo_lo elo_hi"),
                minus(format!(
                    "{:.0} ({:.0} … {:.0})",
                    r.num("elo"),
                    r.num("elo_lo"),
                    r.num("elo_hi")
                )),
            )),
        })
        .collect();
    let lo = c.iter().map(|r| r.num("elo_lo")).fold(0.0, f64::min);
    let hi = c.iter().map(|r| r.num("elo_hi")).fold(0.0, f64::max);
    let lo = (lo / 100.0).floor() * 100.0;
    let hi = ((hi / 100.0).ceil() * 100.0).max(lo + 100.0);
    let mut html = String::from("<p>Bradley–Terry ratings in Elo, centred so that their mean is 0 (<code>docs/statistics.md</code>), with 95% intervals.</p>\n");
    html += &svg::intervals(
        "Agent ratings",
        &rows,
        (lo, hi),
        1.0,
        "",
        Some(0.0),
        false,
        &[],
    );
    html += &ratings_table(c);
    html
}

/// The table of `arena.csv`.
fn ratings_table(c: &[Fields]) -> String {
    let f = "arena.csv";
    let trs: Vec<String> = c
        .iter()
        .map(|r| {
            let l = r.line;
            format!(
                "{}{}{}{}{}",
                td(r.text("agent")),
                td_num(
                    &src(f, l, "elo"),
                    r.num("elo"),
                    &minus(format!("{:.1}", r.num("elo")))
                ),
                td_num(
                    &src(f, l, "elo_lo elo_hi"),
                    r.num("elo_lo"),
                    &minus(format!("{:.1} … {:.1}", r.num("elo_lo"), r.num("elo_hi")))
                ),
                td_num(&src(f, l, "games"), r.num("games"), r.text("games")),
                td_num(
                    &src(f, l, "score_rate"),
                    r.num("score_rate"),
                    &pct(r.num("score_rate"), 1)
                ),
            )
        })
        .collect();
    table(
        "Ratings",
        &["agent", "Elo", "95% interval", "games", "score"],
        &trs,
    )
}

/// The table of `arena_pairs.csv`: each pair of agents, the first one's score.
fn pairs(p: &[Fields]) -> String {
    let f = "arena_pairs.csv";
    let trs: Vec<String> = p
        .iter()
        .map(|r| {
            let l = r.line;
            format!(
                "{}{}{}{}",
                td(r.text("agent_a")),
                td(r.text("agent_b")),
                td_num(
                    &src(f, l, "rate_a ci_low ci_high"),
                    r.num("rate_a"),
                    &pct_ci(r.num("rate_a"), r.num("ci_low"), r.num("ci_high"))
                ),
                td_num(&src(f, l, "games"), r.num("games"), r.text("games")),
            )
        })
        .collect();
    table(
        "Each pair of agents: the first agent's score",
        &["agent A", "agent B", "A's score (95%)", "games"],
        &trs,
    )
}

/// The table of `sprt.csv`: the test, where it ended and its verdict.
fn sprt(c: &[Fields]) -> String {
    let f = "sprt.csv";
    let trs: Vec<String> = c
        .iter()
        .map(|r| {
            let l = r.line;
            let n = |k: &str| td_num(&src(f, l, k), r.num(k), &minus(r.text(k).to_string()));
            format!(
                "{}{}{}{}{}{}{}{}{}",
                td(r.text("agent_a")),
                td(r.text("agent_b")),
                n("elo0"),
                n("elo1"),
                n("pairs"),
                n("llr"),
                n("lower"),
                n("upper"),
                td(r.text("verdict")),
            )
        })
        .collect();
    table(
        "SPRT of two agents",
        &[
            "agent A",
            "agent B",
            "H0 Elo",
            "H1 Elo",
            "pairs",
            "LLR",
            "lower bound",
            "upper bound",
            "verdict",
        ],
        &trs,
    )
}
