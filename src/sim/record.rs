//! Game records: one JSON line per game (`play --out`, `matrix --records`), enough to replay the
//! game exactly — its game, card file and decks (with their content hash), the seeds of the deal
//! and of the agents, who moved first, the result and why the game ended, and for `play` every
//! action in the game's notation — the way chess engine testers keep PGN. `tcgsim replay` plays
//! the recorded actions again, or, for a record without them, the recorded agents with their
//! seeds, and checks that the game ends as recorded.

use crate::core::{Error, Result};
use serde::{Deserialize, Serialize};

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's registry name.
    pub game: String,
    /// The content hash of the decks' cards and the rules (`GameDef::content_hash`): a replay with
    /// other cards or rules is refused.
    pub content: String,
    /// The card file the game was played with (`None`: the game's bundled pool).
    pub cards: Option<String>,
    /// The deck files of P1 and P2, as given.
    pub decks: [String; 2],
    pub deck_names: [String; 2],
    pub agents: [String; 2],
    /// The seed of the deal.
    pub seed: u64,
    /// The seeds of P1's and P2's agents.
    pub agent_seeds: [u64; 2],
    /// The game's index within its matchup (`matrix --records`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// `P1` or `P2`.
    pub first: String,
    /// `P1`, `P2` or `draw`.
    pub winner: String,
    /// Why the game ended (`GameDef::ending`).
    pub ending: String,
    pub turns: u32,
    pub decisions: u32,
    /// Every action, in order, in the game's notation (`play`); empty when the record is replayed
    /// by its agents (`matrix --records`).
    #[serde(default)]
    pub actions: Vec<String>,
}

impl GameLine {
    /// One JSON line, with its line break.
    pub fn to_line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("a record serializes");
        s.push('\n');
        s
    }

    /// A record's line (line `line_no` of `file`), checked; the error names the file and line.
    pub fn parse(line: &str, file: &str, line_no: usize) -> Result<GameLine> {
        let bad = |msg: String| Error::input(file, line_no, msg);
        let r: GameLine =
            serde_json::from_str(line).map_err(|e| bad(format!("not a game record: {e}")))?;
        if !matches!(r.first.as_str(), "P1" | "P2") {
            return Err(bad("first: expected P1 or P2".into()));
        }
        if !r.actions.is_empty() && r.actions.len() != r.decisions as usize {
            return Err(bad(format!(
                "{} actions for {} decisions",
                r.actions.len(),
                r.decisions
            )));
        }
        Ok(r)
    }

    /// Record `n` (1-based, blank lines not counted) of a records file, read a line at a time: a
    /// run's records may be far larger than memory should hold. Errors name the file and line.
    pub fn from_file(path: &std::path::Path, n: usize) -> Result<GameLine> {
        use crate::core::input::{for_each_line, MAX_TEXT_BYTES};
        let file = path.display().to_string();
        let mut seen = 0;
        let mut found = None;
        for_each_line(path, MAX_TEXT_BYTES, |line_no, line| {
            if line.trim().is_empty() {
                return Ok(true);
            }
            seen += 1;
            if seen == n {
                found = Some((line_no, line.to_string()));
                return Ok(false);
            }
            Ok(true)
        })?;
        match found {
            Some((line_no, line)) => GameLine::parse(&line, &file, line_no),
            None => Err(Error::input(
                file,
                0,
                format!("no record {n} (the file holds {seen} records)"),
            )),
        }
    }
}
