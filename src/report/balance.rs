//! The report of a `balance` run: the raced changes (`balance.csv`, read through the column table
//! its writer uses, `sim::balance::files`) and the fresh matrices before and after the best change
//! (`balance_before_matchups.csv`, `balance_after_matchups.csv`).

use super::{der, heatmap_of, pct_ci, pts_ci, read_matchups, src, table, td, td_num};
use super::{Matchups, Section};
use crate::core::InputError;
use crate::sim::balance::files;
use crate::sim::files::{read_file, Fields};
use crate::sim::matrix::Counts;
use std::path::Path;

/// The balance section of the page, when the run folder holds `balance.csv`.
pub(super) fn balance_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    let Some((text, file)) = read_file(dir, "balance.csv")? else {
        return Ok(());
    };
    let c = files::read(&text, &file)?;
    let mut html = String::from("<p>Single-card changes raced to flatten the matrix: the spread of the decks' mean win rates before and after each change, in points (the last row, <em>fresh</em>, re-measures the best change on deals the race never used).</p>\n");
    html += &proposals(&c);
    let before = read_matchups(dir, "balance_before_matchups.csv")?;
    let after = read_matchups(dir, "balance_after_matchups.csv")?;
    if let (Some(b), Some(a)) = (&before, &after) {
        html += &deck_means(b, a);
        html +=
            "<div class=\"pair\"><div><h3>The matrix on the fresh deals, before the change</h3>";
        html += &heatmap_of(b, &format!("{id}-before"), "Before the change");
        html += "</div><div><h3>After the change</h3>";
        html += &heatmap_of(a, &format!("{id}-after"), "After the change");
        html += "</div></div>\n";
    }
    out.push(Section {
        id: format!("{id}-balance"),
        title: tag("Balance proposals"),
        html,
    });
    Ok(())
}

/// `balance.csv` as a table: each change with the spread before and after it.
fn proposals(c: &[Fields]) -> String {
    let f = "balance.csv";
    let trs: Vec<String> = c
        .iter()
        .map(|r| {
            let l = r.line;
            let ptsc = |a: &str| {
                td_num(
                    &format!(
                        "{} data-u=\"pts\"",
                        src(f, l, &format!("{a} {a}_lo {a}_hi"))
                    ),
                    r.num(a),
                    &pts_ci(
                        r.num(a),
                        r.num(&format!("{a}_lo")),
                        r.num(&format!("{a}_hi")),
                    ),
                )
            };
            format!(
                "{}{}{}{}{}{}{}{}",
                td(r.text("card")),
                td(&format!(
                    "{}: {} → {}",
                    r.text("column"),
                    r.text("from"),
                    r.text("to")
                )),
                td(r.text("measure")),
                td_num(
                    &src(f, l, "games_per_matchup"),
                    r.num("games_per_matchup"),
                    r.text("games_per_matchup")
                ),
                ptsc("spread_before"),
                ptsc("spread_after"),
                ptsc("reduction"),
                td(r.text("status")),
            )
        })
        .collect();
    table(
        "Balance proposals",
        &[
            "card",
            "change",
            "measure",
            "games a matchup",
            "spread before, pts",
            "spread after, pts",
            "reduction, pts",
            "status",
        ],
        &trs,
    )
}

/// Each deck's mean win rate on the fresh deals before (`b`) and after (`a`) the best change.
fn deck_means(b: &Matchups, a: &Matchups) -> String {
    let trs: Vec<String> = b
        .strength()
        .iter()
        .map(|(d, t)| {
            let name = &b.names[*d];
            let ta = a.names.iter().position(|x| x == name).map(|k| {
                a.strength()
                    .into_iter()
                    .find(|x| x.0 == k)
                    .expect("every deck")
                    .1
            });
            let cell = |mu: &Matchups, t: Option<&Counts>| match t {
                Some(t) => {
                    let (lo, hi) = t.interval();
                    td_num(
                        &der("deck-mean", &mu.file, name, "rate lo hi"),
                        t.win_rate(),
                        &pct_ci(t.win_rate(), lo, hi),
                    )
                }
                None => "<td>–</td>".into(),
            };
            format!("{}{}{}", td(name), cell(b, Some(t)), cell(a, ta.as_ref()))
        })
        .collect();
    table(
        "Each deck's mean win rate on the fresh deals, before and after the best change",
        &["deck", "before (95%)", "after (95%)"],
        &trs,
    )
}
