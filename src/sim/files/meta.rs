//! `meta.csv`: the metagame of a matrix ([`crate::sim::meta`]) — one row per deck, in the order
//! of the summary (the equilibrium's decks heaviest first, then the others, least bad first): its
//! weight in the Nash equilibrium of the win rates, its payoff against that mix (its score against
//! the field, less 1/2: 0 for the decks the mix plays, below 0 for the others), and over the
//! matrices resampled from the counts, how often it was in the equilibrium and its mean weight.

use super::{read_table, write_table, Column, Kind, Value};
use crate::core::InputError;
use crate::sim::meta::Metagame;

/// One row of `meta.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub deck: String,
    pub weight: f64,
    pub payoff: f64,
    pub in_support: f64,
    pub mean_weight: f64,
}

/// The columns of `meta.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Row>; 5] = [
    Column::new("deck", Kind::Text, |r| Value::Text(r.deck.clone())),
    Column::new("weight", Kind::Rate, |r| Value::Num(r.weight)),
    Column::new("payoff", Kind::Diff, |r| Value::Num(r.payoff)),
    Column::new("in_support", Kind::Rate, |r| Value::Num(r.in_support)),
    Column::new("mean_weight", Kind::Rate, |r| Value::Num(r.mean_weight)),
];

/// The rows of a metagame, in its summary's order.
pub fn rows(meta: &Metagame) -> Vec<Row> {
    meta.order()
        .into_iter()
        .map(|k| Row {
            deck: meta.names[k].clone(),
            weight: meta.eq.mix[k],
            payoff: meta.eq.payoffs[k],
            in_support: meta.support.in_support[k],
            mean_weight: meta.support.mean_weight[k],
        })
        .collect()
}

/// The text of `meta.csv`.
pub fn write(meta: &Metagame) -> String {
    write_table(&COLUMNS, &rows(meta))
}

/// Reads `meta.csv` back, checked: every value of its kind, each deck once, the weights (and the
/// mean weights) adding up to 1 within the rounding of their 4 decimals, no payoff above 0 (the
/// equilibrium is a best response to itself) and a payoff of 0 for every deck the mix plays. An
/// error names `file` and the line.
pub fn read(text: &str, file: &str) -> Result<Vec<Row>, InputError> {
    let fields = read_table(text, file, &COLUMNS)?;
    let mut rows: Vec<Row> = Vec::new();
    // Half a unit of the 4th decimal, plus what the solver's rounding may add.
    let unit = 0.5e-4 + 1e-9;
    for f in &fields {
        let row = Row {
            deck: f.text("deck").to_string(),
            weight: f.num("weight"),
            payoff: f.num("payoff"),
            in_support: f.num("in_support"),
            mean_weight: f.num("mean_weight"),
        };
        if [row.weight, row.payoff, row.in_support, row.mean_weight]
            .iter()
            .any(|x| x.is_nan())
        {
            return Err(f.at("every column of a deck has a value"));
        }
        if rows.iter().any(|r| r.deck == row.deck) {
            return Err(f.at(format!("deck {} is given twice", row.deck)));
        }
        if row.payoff > unit {
            return Err(f.at(format!(
                "payoff {:.4} is above 0: nothing gains against an equilibrium",
                row.payoff
            )));
        }
        if row.weight > unit && row.payoff < -unit {
            return Err(f.at(format!(
                "a deck the equilibrium plays scores 1/2 against it, not {:+.4}",
                row.payoff
            )));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(InputError::new(file, 0, "no deck"));
    }
    let slack = unit * rows.len() as f64;
    for (what, sum) in [
        ("weights", rows.iter().map(|r| r.weight).sum::<f64>()),
        (
            "mean weights",
            rows.iter().map(|r| r.mean_weight).sum::<f64>(),
        ),
    ] {
        if (sum - 1.0).abs() > slack {
            return Err(InputError::new(
                file,
                0,
                format!("its {what} add up to {sum:.4}, not 1"),
            ));
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "deck,weight,payoff,in_support,mean_weight\n\
                        rock,0.5000,0.0000,1.0000,0.4900\n\
                        paper,0.5000,0.0000,1.0000,0.4900\n\
                        dud,0.0000,-0.2000,0.0200,0.0200\n";

    /// A file the writer could write is read back; each kind of impossible value is refused with
    /// its line.
    #[test]
    fn meta_csv_is_read_back_checked() {
        let rows = read(GOOD, "meta.csv").unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].payoff, -0.2);
        for (from, to, want) in [
            (
                "dud,0.0000,-0.2000",
                "dud,0.0000,0.2000",
                "meta.csv:4: payoff 0.2000",
            ),
            (
                "paper,0.5000,0.0000",
                "paper,0.5000,-0.1000",
                "meta.csv:3: a deck the",
            ),
            (
                "paper,0.5000",
                "paper,0.4000",
                "meta.csv: its weights add up to 0.9000",
            ),
            (
                "dud,0.0000,-0.2000,0.0200,0.0200",
                "dud,0.0000,-0.2000,0.0200,0.1200",
                "mean weights",
            ),
            (
                "dud,0.0000,-0.2000,0.0200",
                "dud,0.0000,-0.2000,1.0200",
                "meta.csv:4: column",
            ),
            ("dud,", "rock,", "meta.csv:4: deck rock is given twice"),
        ] {
            let bad = GOOD.replace(from, to);
            let e = read(&bad, "meta.csv").unwrap_err().to_string();
            assert!(e.contains(want), "{to}: {e}");
        }
    }
}
