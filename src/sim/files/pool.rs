//! `pool.csv`: the whole pool ranked ([`crate::sim::pool`]) — one row per card of the card file,
//! the cards with a value best first (`rank` 1, 2, …), then those without one by id: its name, its
//! id, the games in which either deck held it (`present`) and in which the two decks held
//! different numbers of it (`varied`), its value per copy in win-rate points with the 95%
//! interval (`value`, `lo`, `hi`: the P1 score per game of one more copy in place of the pool's
//! average card, ×100), and a note: `within its group` for a card valued against the average card
//! of its group (the decks fix the group's total copies: a sealed pack's slot), and, without a
//! value, why (`never varies`, `not separable`).

use super::{read_table, write_table, Column, Kind, Value};
use crate::core::InputError;
use crate::sim::pool::{CardValue, NoValue, Ranking};

/// The note of a card valued against the average card of its group, not of the pool.
pub const WITHIN: &str = "within its group";

/// One row of `pool.csv` (values in points).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub card: String,
    pub id: u64,
    pub present: u64,
    pub varied: u64,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub rank: Option<u64>,
    pub note: String,
}

/// The columns of `pool.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Row>; 9] = [
    Column::new("card", Kind::Text, |r| Value::Text(r.card.clone())),
    Column::new("id", Kind::Count, |r| Value::Count(Some(r.id))),
    Column::new("present", Kind::Count, |r| Value::Count(Some(r.present))),
    Column::new("varied", Kind::Count, |r| Value::Count(Some(r.varied))),
    Column::new("value", Kind::Real, |r| Value::Num(r.value)),
    Column::new("lo", Kind::Real, |r| Value::Num(r.lo)),
    Column::new("hi", Kind::Real, |r| Value::Num(r.hi)),
    Column::new("rank", Kind::OptCount, |r| Value::Count(r.rank)),
    Column::new("note", Kind::Text, |r| Value::Text(r.note.clone())),
];

impl Row {
    /// The row of a card of the ranking.
    pub fn of(c: &CardValue) -> Row {
        Row {
            card: c.name.clone(),
            id: u64::from(c.id),
            present: c.present,
            varied: c.varied,
            value: 100.0 * c.value,
            lo: 100.0 * c.lo,
            hi: 100.0 * c.hi,
            rank: c.rank,
            note: match (c.none, c.within) {
                (Some(n), _) => n.text(),
                (None, true) => WITHIN,
                (None, false) => "",
            }
            .to_string(),
        }
    }
}

/// The text of `pool.csv`.
pub fn write(r: &Ranking) -> String {
    let rows: Vec<Row> = r.cards.iter().map(Row::of).collect();
    write_table(&COLUMNS, &rows)
}

/// Reads `pool.csv` back, checked: every value of its kind; each id once; a card has a value, an
/// interval around it and a rank exactly when it has no note, and its note is one of the two;
/// `varied` at most `present`, both at most `games` (when given); the ranked cards first, ranked
/// 1, 2, … in order of value (best first). An error names `file` and the line.
pub fn read(text: &str, file: &str, games: Option<u64>) -> Result<Vec<Row>, InputError> {
    let fields = read_table(text, file, &COLUMNS)?;
    let mut rows: Vec<Row> = Vec::new();
    let unit = Kind::Real.half_unit();
    for f in &fields {
        let row = Row {
            card: f.text("card").to_string(),
            id: f.count("id"),
            present: f.count("present"),
            varied: f.count("varied"),
            value: f.num("value"),
            lo: f.num("lo"),
            hi: f.num("hi"),
            rank: f.opt_count("rank"),
            note: f.text("note").to_string(),
        };
        if rows.iter().any(|r| r.id == row.id) {
            return Err(f.at(format!("card id {} is given twice", row.id)));
        }
        if row.varied > row.present || games.is_some_and(|g| row.present > g) {
            return Err(f.at(format!(
                "varied {} and present {} are not counts of the run's games (varied ≤ present ≤ games)",
                row.varied, row.present
            )));
        }
        let valued = !row.value.is_nan();
        let whole = valued && !row.lo.is_nan() && !row.hi.is_nan() && row.rank.is_some();
        let none = row.value.is_nan() && row.lo.is_nan() && row.hi.is_nan() && row.rank.is_none();
        if row.note.is_empty() || row.note == WITHIN {
            if !whole {
                return Err(f.at(
                    "a card without a note (or `within its group`) has a value, an interval and a rank",
                ));
            }
            if row.lo > row.value + unit || row.value > row.hi + unit {
                return Err(f.at(format!(
                    "value {} is not inside its interval ({}, {})",
                    row.value, row.lo, row.hi
                )));
            }
            let want = rows.len() as u64 + 1;
            if row.rank != Some(want) {
                return Err(f.at(format!(
                    "rank {} where {want} was expected (ranked cards come first, in order)",
                    row.rank.unwrap_or(0)
                )));
            }
            if let Some(prev) = rows.last() {
                if row.value > prev.value + 2.0 * unit {
                    return Err(f.at(format!(
                        "value {} above the card ranked before it ({})",
                        row.value, prev.value
                    )));
                }
            }
        } else {
            if ![NoValue::NeverVaries, NoValue::NotSeparable]
                .iter()
                .any(|n| n.text() == row.note)
            {
                return Err(f.at(format!(
                    "note \"{}\" is not `within its group`, `never varies` or `not separable`",
                    row.note
                )));
            }
            if !none {
                return Err(f.at("a card with a note has no value, interval or rank"));
            }
            if row.note == NoValue::NeverVaries.text() && row.varied > 0 {
                return Err(f.at(format!("`never varies` but varied in {} games", row.varied)));
            }
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no card"));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "card,id,present,varied,value,lo,hi,rank,note\n\
                        Titan,5,90,80,12.0000,9.0000,15.0000,1,\n\
                        Knight,3,99,90,0.5000,-1.0000,2.0000,2,\n\
                        Dud,6,50,40,-8.0000,-11.0000,-5.0000,3,\n\
                        Rock,4,100,0,,,,,never varies\n";

    /// A file the writer could write is read back; each kind of impossible row is refused with
    /// its line.
    #[test]
    fn pool_csv_is_read_back_checked() {
        let rows = read(GOOD, "pool.csv", Some(100)).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[2].rank, Some(3));
        assert!(rows[3].value.is_nan());
        for (from, to, want) in [
            (
                "Knight,3",
                "Knight,5",
                "pool.csv:3: card id 5 is given twice",
            ),
            (
                "0.5000,-1.0000",
                "2.5000,-1.0000",
                "pool.csv:3: value 2.5 is not inside",
            ),
            (",2,\n", ",3,\n", "pool.csv:3: rank 3 where 2"),
            (
                "Rock,4,100,0,,,,,never varies",
                "Rock,4,100,0,,,,,odd",
                "pool.csv:5: note",
            ),
            (
                "Rock,4,100,0,,,,,",
                "Rock,4,100,0,1.0000,0.0000,2.0000,4,",
                "pool.csv:5: a card with a note",
            ),
            (
                "Dud,6,50,40,-8.0000,-11.0000,-5.0000,3,",
                "Dud,6,50,40,,,,,",
                "pool.csv:4: a card without a note",
            ),
            (
                "Titan,5,90,80",
                "Titan,5,190,80",
                "pool.csv:2: varied 80 and present 190",
            ),
            (
                "Rock,4,100,0",
                "Rock,4,100,3",
                "pool.csv:5: `never varies` but varied in 3 games",
            ),
        ] {
            let bad = GOOD.replace(from, to);
            let e = read(&bad, "pool.csv", Some(100)).unwrap_err().to_string();
            assert!(e.contains(want), "{to}: {e}");
        }
        let swapped = GOOD.replace(
            "Knight,3,99,90,0.5000,-1.0000,2.0000,2",
            "Knight,3,99,90,13.0000,12.0000,14.0000,2",
        );
        let e = read(&swapped, "pool.csv", None).unwrap_err().to_string();
        assert!(e.contains("pool.csv:3: value 13 above"), "{e}");
    }
}
