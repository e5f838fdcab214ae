//! The report of a pool run: every card of the pool ranked by its value per copy, with 95%
//! intervals — read from `pool.csv` through its module ([`crate::sim::files::pool`]), which checks
//! every value.

use super::{src, svg, table, td, td_num, Section};
use crate::core::InputError;
use crate::sim::files::pool::{self, Row};
use crate::sim::files::read_file;
use std::path::Path;

const NAME: &str = "pool.csv";

/// A number in points, signed, with one decimal and a minus sign.
fn signed(x: f64) -> String {
    format!("{x:+.1}").replace('-', "−")
}

/// The ranking of `dir/pool.csv` (`games` and `shard`: the run's, from `run.json`): nothing when
/// there is no such file, a note for a shard's folder.
pub(super) fn pool_section(
    dir: &Path,
    id: &str,
    games: u64,
    shard: Option<(u64, u64)>,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    let Some((text, file)) = read_file(dir, NAME)? else {
        // A shard (`--shard`) ranks nothing: its chunks wait for `--merge`.
        if let (Some((i, n)), Some((chunks, _))) =
            (shard, read_file(dir, crate::sim::pool::CHECKPOINT_FILE)?)
        {
            let lines = chunks.lines().count().saturating_sub(1);
            out.push(Section {
                id: format!("{id}-pool"),
                title: tag("A shard of a pool run"),
                html: format!(
                    "<p>Shard {i} of {n}: {lines} chunks of games in <code>pool_chunks.csv</code>, no ranking. <code>tcgsim pool</code> with the run's own flags and <code>--merge</code> with every shard's folder ranks the pool (<code>docs/cli.md</code>).</p>\n"
                ),
            });
        }
        return Ok(());
    };
    let rows = pool::read(&text, &file, Some(games))?;
    let ranked: Vec<(usize, &Row)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.rank.is_some())
        .collect();
    let mut html = String::from("<p>Each card's value: the score per game of one more copy of it in place of a copy of the pool's average card, in percentage points of win rate, with its 95% interval — from a regression of every game's result on the two decks' copies of each card, the seat and the initiative (<code>docs/statistics.md</code>, \"The whole pool ranked\"). Cards without a value never varied between the two decks of a game, or could not be separated from other cards.</p>\n");
    if rows
        .iter()
        .any(|r| r.note == crate::sim::files::pool::WITHIN)
    {
        html += "<p>Cards noted <em>within its group</em> are valued against the average card of their group, not of the pool: the decks fix how many cards of a group they hold (a sealed pack's slots fix each card type's count), so the games tell only differences within a group. Compare such a card only with cards of its group.</p>\n";
    }
    let irows: Vec<svg::IRow> = ranked
        .iter()
        .map(|(_, r)| svg::IRow {
            label: r.card.clone(),
            marks: vec![(r.value / 100.0, r.lo / 100.0, r.hi / 100.0)],
            text: None,
        })
        .collect();
    if !irows.is_empty() {
        let span = svg::centred_span(&irows, 0.05);
        html += &svg::intervals(
            "Card values",
            &irows,
            (-span, span),
            100.0,
            "",
            Some(0.0),
            false,
            &["value, pts"],
        );
    }
    let trs: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let n = k + 2;
            let value = if r.value.is_nan() {
                "–".to_string()
            } else {
                format!("{} ({} … {})", signed(r.value), signed(r.lo), signed(r.hi))
            };
            format!(
                "{}{}{}{}{}{}",
                td_num(
                    &src(NAME, n, "rank"),
                    r.rank.map_or(f64::NAN, |x| x as f64),
                    &r.rank.map_or("–".into(), |x| x.to_string())
                ),
                td(&r.card),
                td_num(&src(NAME, n, "value lo hi"), r.value, &value),
                td_num(
                    &src(NAME, n, "present"),
                    r.present as f64,
                    &r.present.to_string()
                ),
                td_num(
                    &src(NAME, n, "varied"),
                    r.varied as f64,
                    &r.varied.to_string()
                ),
                td(&r.note),
            )
        })
        .collect();
    html += &table(
        "Every card of the pool, best first",
        &["#", "card", "value, pts (95%)", "present", "varied", "note"],
        &trs,
    );
    out.push(Section {
        id: format!("{id}-pool"),
        title: tag("The pool ranked"),
        html,
    });
    Ok(())
}
