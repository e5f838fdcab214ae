//! Reading a run folder's game records for the report (`records.jsonl`); its CSV files are read
//! through their modules (`crate::sim::files`), each checked before anything is written.

use crate::core::input::{for_each_line, MAX_TEXT_BYTES};
use crate::core::InputError;
use std::path::Path;

/// The turns of every game of `dir/records.jsonl`, when the run wrote one (`matrix --records`).
pub fn record_turns(dir: &Path) -> Result<Option<Vec<u64>>, InputError> {
    #[derive(serde::Deserialize)]
    struct Turns {
        turns: u64,
    }
    let path = dir.join("records.jsonl");
    // Not one of an earlier run that the folder's `run.json` does not list (`docs/cli.md`, "One
    // folder, one run").
    if !path.is_file() || !crate::sim::files::of_the_run(dir, "records.jsonl") {
        return Ok(None);
    }
    let file = path.display().to_string();
    let mut turns = Vec::new();
    let mut bad = None;
    for_each_line(&path, MAX_TEXT_BYTES, |n, line| {
        if line.trim().is_empty() {
            return Ok(true);
        }
        match serde_json::from_str::<Turns>(line) {
            Ok(t) => {
                turns.push(t.turns);
                Ok(true)
            }
            Err(e) => {
                bad = Some(InputError::new(&file, n, format!("not a game record: {e}")));
                Ok(false)
            }
        }
    })?;
    match bad {
        Some(e) => Err(e),
        None => Ok(Some(turns)),
    }
}
