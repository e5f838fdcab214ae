//! The report's sections of an `arena` run: the agents' ratings (`arena.csv`), every two agents'
//! score (`arena_pairs.csv`) and, with `--sprt`, the sequential test (`sprt.csv`).

use super::read::Csv;
use super::{minus, pct, pct_ci, src, svg, table, td, td_num, Section};
use std::path::Path;

/// The sections of the arena run in `dir`: those of the files it holds.
pub(super) fn arena_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    if let Some(c) = Csv::read(
        dir,
        "arena.csv",
        &["agent"],
        &["elo", "elo_lo", "elo_hi", "games", "score", "score_rate"],
    )? {
        let mut html = ratings(&c);
        if let Some(p) = Csv::read(
            dir,
            "arena_pairs.csv",
            &["agent_a", "agent_b"],
            &["games", "rate_a", "ci_low", "ci_high"],
        )? {
            html += &pairs(&p);
        }
        out.push(Section {
            id: format!("{id}-arena"),
            title: tag("Agent ratings"),
            html,
        });
    }
    if let Some(c) = Csv::read(
        dir,
        "sprt.csv",
        &["agent_a", "agent_b", "verdict"],
        &[
            "elo0", "elo1", "alpha", "beta", "pairs", "llr", "lower", "upper",
        ],
    )? {
        out.push(Section {
            id: format!("{id}-sprt"),
            title: tag("Sequential test"),
            html: sprt(&c),
        });
    }
    Ok(())
}

/// The ratings of `arena.csv`: a chart of the intervals, then the table.
fn ratings(c: &Csv) -> String {
    let f = &c.name;
    let rows: Vec<svg::IRow> = (0..c.len())
        .map(|r| svg::IRow {
            label: c.text(r, "agent").to_string(),
            marks: vec![(c.num(r, "elo"), c.num(r, "elo_lo"), c.num(r, "elo_hi"))],
            text: Some((
                src(f, c.line(r), "elo elo_lo elo_hi"),
                minus(format!(
                    "{:.0} ({:.0} … {:.0})",
                    c.num(r, "elo"),
                    c.num(r, "elo_lo"),
                    c.num(r, "elo_hi")
                )),
            )),
        })
        .collect();
    let lo = (0..c.len()).map(|r| c.num(r, "elo_lo")).fold(0.0, f64::min);
    let hi = (0..c.len()).map(|r| c.num(r, "elo_hi")).fold(0.0, f64::max);
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
fn ratings_table(c: &Csv) -> String {
    let f = &c.name;
    let trs: Vec<String> = (0..c.len())
        .map(|r| {
            let l = c.line(r);
            format!(
                "{}{}{}{}{}",
                td(c.text(r, "agent")),
                td_num(
                    &src(f, l, "elo"),
                    c.num(r, "elo"),
                    &minus(format!("{:.1}", c.num(r, "elo")))
                ),
                td_num(
                    &src(f, l, "elo_lo elo_hi"),
                    c.num(r, "elo_lo"),
                    &minus(format!(
                        "{:.1} … {:.1}",
                        c.num(r, "elo_lo"),
                        c.num(r, "elo_hi")
                    ))
                ),
                td_num(&src(f, l, "games"), c.num(r, "games"), c.text(r, "games")),
                td_num(
                    &src(f, l, "score_rate"),
                    c.num(r, "score_rate"),
                    &pct(c.num(r, "score_rate"), 1)
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
fn pairs(p: &Csv) -> String {
    let f = &p.name;
    let trs: Vec<String> = (0..p.len())
        .map(|r| {
            let l = p.line(r);
            format!(
                "{}{}{}{}",
                td(p.text(r, "agent_a")),
                td(p.text(r, "agent_b")),
                td_num(
                    &src(f, l, "rate_a ci_low ci_high"),
                    p.num(r, "rate_a"),
                    &pct_ci(p.num(r, "rate_a"), p.num(r, "ci_low"), p.num(r, "ci_high"))
                ),
                td_num(&src(f, l, "games"), p.num(r, "games"), p.text(r, "games")),
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
fn sprt(c: &Csv) -> String {
    let f = &c.name;
    let trs: Vec<String> = (0..c.len())
        .map(|r| {
            let l = c.line(r);
            let n = |k: &str| td_num(&src(f, l, k), c.num(r, k), &minus(c.text(r, k).to_string()));
            format!(
                "{}{}{}{}{}{}{}{}{}",
                td(c.text(r, "agent_a")),
                td(c.text(r, "agent_b")),
                n("elo0"),
                n("elo1"),
                n("pairs"),
                n("llr"),
                n("lower"),
                n("upper"),
                td(c.text(r, "verdict")),
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
