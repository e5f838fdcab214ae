//! `lengths.csv`: each matchup's game-length histogram, long and tidy — one row per matchup and
//! length with at least one game (`turns` is a whole number, the last bin's `64+`: that many
//! turns or more), matchups in the order of `matchups.csv`, lengths increasing. A matchup's rows
//! add up to its games; enough to merge.

use super::{read_table, write_table, Column, Kind, Value};
use crate::core::InputError;
use crate::sim::matrix::{Lengths, Plan, LENGTH_BINS};
use std::collections::HashMap;

/// One line of `lengths.csv`: a matchup, a bin of lengths ([`Lengths::label`]) and its games.
pub struct Bin {
    pub row: String,
    pub col: String,
    pub bin: usize,
    pub games: u64,
}

/// The columns of `lengths.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Bin>; 4] = [
    Column::new("row_deck", Kind::Text, |b| Value::Text(b.row.clone())),
    Column::new("col_deck", Kind::Text, |b| Value::Text(b.col.clone())),
    Column::new("turns", Kind::Text, |b| Value::Text(Lengths::label(b.bin))),
    Column::new("games", Kind::Count, |b| Value::Count(Some(b.games))),
];

/// The header line of `lengths.csv`.
pub fn header() -> String {
    super::header(&COLUMNS)
}

/// The histograms of `m` (row-major over `plan`'s decks).
pub fn write(plan: &Plan, m: &[crate::sim::matrix::Counts]) -> String {
    let n = plan.deck_names.len();
    let mut rows = Vec::new();
    for (k, c) in m.iter().enumerate().take(n * n) {
        for (bin, games) in c.lengths.nonzero() {
            rows.push(Bin {
                row: plan.deck_names[k / n].clone(),
                col: plan.deck_names[k % n].clone(),
                bin,
                games,
            });
        }
    }
    write_table(&COLUMNS, &rows)
}

/// The histograms of a parsed `lengths.csv`, by (row, col) name, with the first line of each.
pub type LengthRows = Vec<(usize, String, String, Lengths)>;

/// Reads a `lengths.csv`: its header, then rows whose lengths are bins of this tcgsim, each
/// (matchup, length) once and with at least one game. Errors name `file` and the line.
pub fn read(text: &str, file: &str) -> Result<LengthRows, InputError> {
    let mut out: LengthRows = Vec::new();
    // The row of each matchup in `out`, and the line of each (matchup, length).
    let mut at_row: HashMap<(String, String), usize> = HashMap::new();
    let mut seen: HashMap<(String, String, usize), usize> = HashMap::new();
    for f in read_table(text, file, &COLUMNS)? {
        let turns = f.text("turns");
        let bin = Lengths::parse_label(turns).ok_or_else(|| {
            f.at(format!(
                "turns \"{turns}\" is not a length (1 to {} or {}+)",
                LENGTH_BINS - 1,
                LENGTH_BINS
            ))
        })?;
        let games = f.count("games");
        if games == 0 {
            return Err(f.at("games \"0\" is not a count above 0"));
        }
        let (r, c) = (
            f.text("row_deck").to_string(),
            f.text("col_deck").to_string(),
        );
        if let Some(first) = seen.insert((r.clone(), c.clone(), bin), f.line) {
            return Err(f.at(format!(
                "matchup {r} vs {c}, {turns} turns, is given twice (first on line {first})"
            )));
        }
        let k = *at_row.entry((r.clone(), c.clone())).or_insert_with(|| {
            out.push((f.line, r, c, Lengths::default()));
            out.len() - 1
        });
        out[k].3 .0[bin] = games;
    }
    Ok(out)
}

/// The histogram of every matchup of a `lengths.csv` pooled: the (turns, games) of each bin with
/// games, the open last bin as its least turns, in order of turns. An error names `file` (and the
/// line of a bad row), or the file when its games are not `games` (those of `matchups.csv`).
pub fn read_pooled(text: &str, file: &str, games: u64) -> Result<Vec<(u64, u64)>, InputError> {
    let mut all = Lengths::default();
    for (_, _, _, h) in read(text, file)? {
        for (a, b) in all.0.iter_mut().zip(h.0) {
            *a = a.saturating_add(b);
        }
    }
    let total = all.0.iter().fold(0u64, |a, &b| a.saturating_add(b));
    if total != games {
        return Err(InputError::new(
            file,
            0,
            format!("its histograms hold {total} games where the matchups hold {games}"),
        ));
    }
    Ok(all
        .nonzero()
        .map(|(k, g)| (Lengths::turns_of(k), g))
        .collect())
}
