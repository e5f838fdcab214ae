//! `matchups.csv`: one row per ordered matchup of a matrix run with its counts — enough to merge
//! shards and to compute every rate again — and the rates and intervals those counts give. What
//! run it belongs to is in `run.json` beside it ([`super::run_json::RunInfo`]).

use super::{read_table, write_table, Column, Fields, Kind, Value};
use crate::core::InputError;
use crate::sim::matrix::{Counts, Plan};

/// One line of `matchups.csv`: the row deck, the column deck, and the row deck's counts (no
/// game-length histogram: that is `lengths.csv`'s).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matchup {
    pub row: String,
    pub col: String,
    pub counts: Counts,
}

impl Matchup {
    /// `v` per game, NaN when no game was played.
    fn per_game(&self, v: u64) -> f64 {
        if self.counts.games == 0 {
            f64::NAN
        } else {
            v as f64 / self.counts.games as f64
        }
    }

    /// The Wilson 95% interval of the win rate, NaN when no game was played.
    fn interval(&self) -> (f64, f64) {
        if self.counts.games == 0 {
            (f64::NAN, f64::NAN)
        } else {
            self.counts.interval()
        }
    }
}

/// The columns of `matchups.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Matchup>; 14] = [
    Column::new("row_deck", Kind::Text, |m| Value::Text(m.row.clone())),
    Column::new("col_deck", Kind::Text, |m| Value::Text(m.col.clone())),
    Column::new("games", Kind::Count, |m| Value::Count(Some(m.counts.games))),
    Column::new("wins", Kind::Count, |m| Value::Count(Some(m.counts.wins))),
    Column::new("losses", Kind::Count, |m| {
        Value::Count(Some(m.counts.losses))
    }),
    Column::new("draws", Kind::Count, |m| Value::Count(Some(m.counts.draws))),
    Column::new("win_rate", Kind::Rate, |m| Value::Num(m.counts.win_rate())),
    Column::new("ci_low", Kind::Rate, |m| Value::Num(m.interval().0)),
    Column::new("ci_high", Kind::Rate, |m| Value::Num(m.interval().1)),
    Column::new("first_player_wins", Kind::Count, |m| {
        Value::Count(Some(m.counts.first_player_wins))
    }),
    Column::new("first_player_win_rate", Kind::Rate, |m| {
        Value::Num(m.per_game(m.counts.first_player_wins))
    }),
    Column::new("turns", Kind::Count, |m| Value::Count(Some(m.counts.turns))),
    Column::new("mean_turns", Kind::Mean, |m| {
        Value::Num(m.per_game(m.counts.turns))
    }),
    Column::new("decisions", Kind::Count, |m| {
        Value::Count(Some(m.counts.decisions))
    }),
];

/// The header line of `matchups.csv`.
pub fn header() -> String {
    super::header(&COLUMNS)
}

/// One row per ordered matchup of `plan` (row deck major), with the counts of `m` (row-major).
pub fn write(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let rows: Vec<Matchup> = (0..n * n)
        .map(|k| Matchup {
            row: plan.deck_names[k / n].clone(),
            col: plan.deck_names[k % n].clone(),
            counts: Counts {
                lengths: Default::default(),
                ..m[k]
            },
        })
        .collect();
    write_table(&COLUMNS, &rows)
}

/// A line read back: where it was, its fields as written, and the matchup they give.
pub struct Line {
    pub fields: Fields,
    pub matchup: Matchup,
}

impl Line {
    /// The line number in the file.
    pub fn line(&self) -> usize {
        self.fields.line
    }
}

/// Reads a `matchups.csv`: the exact header, then one row per matchup whose every value is
/// checked — counts whole, wins + losses + draws = games, first-player wins at most the decided
/// games, turns and decisions within what that many games can give ([`Counts::check_totals`]),
/// and every rate and interval what the counts give to its 4 decimals. Errors name `file` and the
/// line.
pub fn read(text: &str, file: &str) -> Result<Vec<Line>, InputError> {
    let mut out = Vec::new();
    for fields in read_table(text, file, &COLUMNS)? {
        let c = |k: &str| fields.count(k);
        let counts = Counts {
            games: c("games"),
            wins: c("wins"),
            losses: c("losses"),
            draws: c("draws"),
            first_player_wins: c("first_player_wins"),
            turns: c("turns"),
            decisions: c("decisions"),
            lengths: Default::default(),
        };
        counts
            .check_totals(counts.games)
            .map_err(|e| fields.at(format!("impossible counts: {e}")))?;
        let matchup = Matchup {
            row: fields.text("row_deck").to_string(),
            col: fields.text("col_deck").to_string(),
            counts,
        };
        fields.check_derived(&COLUMNS, &matchup)?;
        out.push(Line { fields, matchup });
    }
    Ok(out)
}

/// The lines of a `matchups.csv` laid out on a grid of `names` (row-major): the line of each cell,
/// each matchup exactly once. `None` in `names`' place: the decks in the order the file first
/// names them. Errors name `file` and the line.
pub fn grid<'a>(
    lines: &'a [Line],
    names: Option<&[String]>,
    file: &str,
) -> Result<(Vec<String>, Vec<&'a Line>), InputError> {
    let names: Vec<String> = match names {
        Some(n) => n.to_vec(),
        None => {
            let mut v: Vec<String> = Vec::new();
            for l in lines {
                for d in [&l.matchup.row, &l.matchup.col] {
                    if !v.contains(d) {
                        v.push(d.clone());
                    }
                }
            }
            v
        }
    };
    let n = names.len();
    let mut cells: Vec<Option<&Line>> = vec![None; n * n];
    for l in lines {
        let (r, c) = (&l.matchup.row, &l.matchup.col);
        let pos = |d: &String| names.iter().position(|x| x == d);
        let (Some(ri), Some(ci)) = (pos(r), pos(c)) else {
            return Err(l
                .fields
                .at(format!("matchup {r} vs {c} is not in the plan")));
        };
        if let Some(first) = cells[ri * n + ci] {
            return Err(l.fields.at(format!(
                "matchup {r} vs {c} is given twice (first on line {})",
                first.line()
            )));
        }
        cells[ri * n + ci] = Some(l);
    }
    if let Some(cell) = cells.iter().position(Option::is_none) {
        return Err(InputError::new(
            file,
            0,
            format!(
                "matchup {} vs {} is missing",
                names[cell / n],
                names[cell % n]
            ),
        ));
    }
    Ok((
        names,
        cells.into_iter().map(|c| c.expect("checked")).collect(),
    ))
}
