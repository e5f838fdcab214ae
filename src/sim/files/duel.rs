//! `duel.csv`: the one row of a duel (`tcgsim duel`), from agent A's side — the agents, the decks,
//! the counts, and the rates and means they give. What run it belongs to is in `run.json` beside
//! it ([`super::run_json::RunInfo`]).

use super::{read_table, write_table, Column, Fields, Kind, Value};
use crate::core::InputError;
use crate::sim::matrix::Counts;

/// The row of `duel.csv`: the agents and decks, agent A's counts (games, wins, losses, draws,
/// first-player wins), and the games' mean length in turns and decisions (the file keeps the
/// means, not the sums, so they are fields of their own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Duel {
    pub agent_a: String,
    pub agent_b: String,
    pub deck1: String,
    pub deck2: String,
    pub counts: Counts,
    pub mean_turns: f64,
    pub mean_decisions: f64,
}

impl Duel {
    /// The row of a duel's counts `r`: the means per game (0 when no game was played).
    pub fn new(a: &str, b: &str, deck1: &str, deck2: &str, r: &Counts) -> Duel {
        let mean = |x: u64| x as f64 / r.games.max(1) as f64;
        Duel {
            agent_a: a.to_string(),
            agent_b: b.to_string(),
            deck1: deck1.to_string(),
            deck2: deck2.to_string(),
            counts: Counts {
                lengths: Default::default(),
                ..*r
            },
            mean_turns: mean(r.turns),
            mean_decisions: mean(r.decisions),
        }
    }
}

/// The columns of `duel.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Duel>; 14] = [
    Column::new("agent_a", Kind::Text, |d| Value::Text(d.agent_a.clone())),
    Column::new("agent_b", Kind::Text, |d| Value::Text(d.agent_b.clone())),
    Column::new("deck1", Kind::Text, |d| Value::Text(d.deck1.clone())),
    Column::new("deck2", Kind::Text, |d| Value::Text(d.deck2.clone())),
    Column::new("games", Kind::Count, |d| Value::Count(Some(d.counts.games))),
    Column::new("wins_a", Kind::Count, |d| Value::Count(Some(d.counts.wins))),
    Column::new("wins_b", Kind::Count, |d| {
        Value::Count(Some(d.counts.losses))
    }),
    Column::new("draws", Kind::Count, |d| Value::Count(Some(d.counts.draws))),
    Column::new("win_rate_a", Kind::Rate, |d| {
        Value::Num(d.counts.win_rate())
    }),
    Column::new("ci_low", Kind::Rate, |d| Value::Num(d.counts.interval().0)),
    Column::new("ci_high", Kind::Rate, |d| Value::Num(d.counts.interval().1)),
    Column::new("first_player_wins", Kind::Count, |d| {
        Value::Count(Some(d.counts.first_player_wins))
    }),
    Column::new("mean_turns", Kind::Mean, |d| Value::Num(d.mean_turns)),
    Column::new("mean_decisions", Kind::Mean, |d| {
        Value::Num(d.mean_decisions)
    }),
];

/// The text of `duel.csv`: its header and the one row of agent `a` against agent `b` on decks
/// `deck1` and `deck2`, with A's counts `r`.
pub fn write(a: &str, b: &str, deck1: &str, deck2: &str, r: &Counts) -> String {
    write_table(&COLUMNS, [&Duel::new(a, b, deck1, deck2, r)])
}

/// A line read back: where it was, its fields as written, and the row they give.
pub struct Line {
    pub fields: Fields,
    pub duel: Duel,
}

/// Reads a `duel.csv`: the exact header, then rows whose every value is checked — counts whole,
/// wins + losses + draws = games, first-player wins at most the decided games, the mean turns at
/// least 1 and the means at most a game's most (`u32::MAX`, as [`Counts::check_totals`]), both 0
/// when no game was played, and the win rate and its interval what the counts give to their 4
/// decimals. Errors name `file` and the line.
pub fn read(text: &str, file: &str) -> Result<Vec<Line>, InputError> {
    let mut out = Vec::new();
    for fields in read_table(text, file, &COLUMNS)? {
        let c = |k: &str| fields.count(k);
        let counts = Counts {
            games: c("games"),
            wins: c("wins_a"),
            losses: c("wins_b"),
            draws: c("draws"),
            first_player_wins: c("first_player_wins"),
            ..Counts::default()
        };
        let games = counts.games;
        if counts
            .wins
            .checked_add(counts.losses)
            .and_then(|x| x.checked_add(counts.draws))
            != Some(games)
        {
            return Err(fields.at(format!(
                "impossible counts: wins_a {} + wins_b {} + draws {} differ from {games} games",
                counts.wins, counts.losses, counts.draws
            )));
        }
        if counts.first_player_wins > counts.wins + counts.losses {
            return Err(fields.at(format!(
                "impossible counts: {} first-player wins in {} decided games",
                counts.first_player_wins,
                counts.wins + counts.losses
            )));
        }
        let most = f64::from(u32::MAX);
        let (turns, decisions) = (fields.num("mean_turns"), fields.num("mean_decisions"));
        for (name, x, lo) in [
            ("mean_turns", turns, 1.0),
            ("mean_decisions", decisions, 0.0),
        ] {
            let ok = if games == 0 {
                x == 0.0
            } else {
                (lo..=most).contains(&x)
            };
            if !ok {
                return Err(fields.at(format!(
                    "column `{name}`: \"{}\" is not a mean a game of {games} games can give",
                    fields.text(name)
                )));
            }
        }
        let duel = Duel {
            agent_a: fields.text("agent_a").to_string(),
            agent_b: fields.text("agent_b").to_string(),
            deck1: fields.text("deck1").to_string(),
            deck2: fields.text("deck2").to_string(),
            counts,
            mean_turns: turns,
            mean_decisions: decisions,
        };
        fields.check_derived(&COLUMNS, &duel)?;
        out.push(Line { fields, duel });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts() -> Counts {
        Counts {
            games: 10,
            wins: 6,
            losses: 3,
            draws: 1,
            first_player_wins: 5,
            turns: 123,
            decisions: 456,
            ..Counts::default()
        }
    }

    /// What the writer writes reads back to the same row; an edited count or rate is refused,
    /// naming the file and the line.
    #[test]
    fn duel_csv_reads_back_what_it_writes() {
        let text = write("heuristic", "random", "a", "b, c", &counts());
        assert_eq!(
            text.lines().next().unwrap(),
            "agent_a,agent_b,deck1,deck2,games,wins_a,wins_b,draws,win_rate_a,ci_low,ci_high,\
             first_player_wins,mean_turns,mean_decisions"
        );
        let back = read(&text, "duel.csv").unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].duel.deck2, "b, c");
        assert_eq!(back[0].duel.counts.wins, 6);
        assert_eq!(back[0].duel.mean_turns, 12.3);
        let row = text.lines().nth(1).unwrap();
        let head = text.lines().next().unwrap();
        for (from, to, why) in [
            (",10,6,3,1,", ",10,7,3,1,", "differ from 10 games"),
            (",0.6500,", ",0.7500,", "column `win_rate_a`"),
            (",5,12.3000,", ",11,12.3000,", "first-player wins"),
            (",12.3000,", ",0.5000,", "column `mean_turns`"),
        ] {
            assert!(row.contains(from), "{from} in {row}");
            let bad = format!("{head}\n{}\n", row.replace(from, to));
            let e = read(&bad, "duel.csv").err().unwrap().to_string();
            assert!(e.starts_with("duel.csv:2: "), "{e}");
            assert!(e.contains(why), "{why}: {e}");
        }
    }
}
