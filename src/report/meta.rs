//! The report's metagame section: `meta.csv` of a matrix run (`sim::files::meta`), read back
//! checked — the mix of decks a field of rational players would bring, each deck's score against
//! it, and how sure the counts make it.

use super::{esc, pct, pts, src, table, td, td_num, Matchups, Section};
use crate::core::InputError;
use crate::sim::files::meta::read;
use crate::sim::files::meta::Row;
use std::fmt::Write as _;
use std::path::Path;

const NAME: &str = "meta.csv";

/// The section of `dir`'s `meta.csv`; `None` when the folder has none (a run of an older tcgsim).
/// Its weights and payoffs must be the equilibrium of the matchups beside it (`mu`), solved again
/// here, to their 4 decimals: a `meta.csv` of another matrix, or edited, is an error naming the
/// line.
pub(super) fn meta_section(
    dir: &Path,
    mu: &Matchups,
    id: &str,
    tag: &dyn Fn(&str) -> String,
) -> Result<Option<Section>, InputError> {
    let path = dir.join(NAME);
    // A `meta.csv` of an earlier run that its `run.json` does not list is not read (`docs/cli.md`,
    // "One folder, one run").
    if !path.exists() || !crate::sim::files::of_the_run(dir, NAME) {
        return Ok(None);
    }
    let file = path.display().to_string();
    let text = crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES)?;
    let rows = read(&text, &file)?;
    check_against(&rows, mu, &file)?;
    // Line 1 is the header: row k is on line k + 2.
    let played: Vec<String> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.weight > 0.0)
        .map(|(k, r)| {
            format!(
                "{} <span{}>{}</span>",
                esc(&r.deck),
                src(NAME, k + 2, "weight"),
                esc(&pct(r.weight, 1))
            )
        })
        .collect();
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<p class=\"lead\">A field of players who know this matrix would bring: {} (the Nash equilibrium of the win rates, both seats of every pair pooled; docs/statistics.md).</p>",
        played.join(", ")
    );
    let trs: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let l = k + 2;
            format!(
                "{}{}{}{}{}",
                td(&r.deck),
                td_num(&src(NAME, l, "weight"), r.weight, &pct(r.weight, 1)),
                td_num(
                    &format!("{} data-u=\"pts\"", src(NAME, l, "payoff")),
                    r.payoff,
                    &pts(r.payoff)
                ),
                td_num(
                    &src(NAME, l, "in_support"),
                    r.in_support,
                    &pct(r.in_support, 1)
                ),
                td_num(
                    &src(NAME, l, "mean_weight"),
                    r.mean_weight,
                    &pct(r.mean_weight, 1)
                ),
            )
        })
        .collect();
    html += &table(
        "Each deck in the metagame: its share of the equilibrium, its score against it above or below 50% (in points: 0 for the decks it plays), and over matrices resampled from the counts, how often it is in the equilibrium and its mean share",
        &[
            "deck",
            "share of the field",
            "against the field (points)",
            "in the equilibrium (of resamples)",
            "mean share (resamples)",
        ],
        &trs,
    );
    Ok(Some(Section {
        id: format!("{id}-meta"),
        title: tag("Metagame"),
        html,
    }))
}

/// `rows` (of `file`) against the equilibrium of `mu`: the same decks, and each deck's weight and
/// payoff what the solver gives, within half a unit of their 4th decimal.
fn check_against(rows: &[Row], mu: &Matchups, file: &str) -> Result<(), InputError> {
    let n = mu.n();
    let eq = crate::sim::meta::equilibrium(n, &mu.m);
    let mut seen = vec![false; n];
    for (k, r) in rows.iter().enumerate() {
        let at = |msg: String| InputError::new(file, k + 2, msg);
        let Some(d) = mu.names.iter().position(|x| *x == r.deck) else {
            return Err(at(format!(
                "deck {} is not a deck of {} beside it",
                r.deck, mu.file
            )));
        };
        seen[d] = true;
        for (what, got, want) in [
            ("weight", r.weight, eq.mix[d]),
            ("payoff", r.payoff, eq.payoffs[d]),
        ] {
            if (got - want).abs() > 0.5e-4 + 1e-9 {
                return Err(at(format!(
                    "{what} {got:.4} of {} is not what {} gives ({want:.4})",
                    r.deck, mu.file
                )));
            }
        }
    }
    if let Some(d) = seen.iter().position(|s| !s) {
        return Err(InputError::new(
            file,
            0,
            format!("deck {} of {} is missing", mu.names[d], mu.file),
        ));
    }
    Ok(())
}
