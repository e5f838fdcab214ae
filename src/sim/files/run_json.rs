//! `run.json`: what a run was (command, game, decks, agents, the content hash of the cards and
//! rules, games, seed, fingerprint, shard), by which tcgsim, and how long it took. Its "columns"
//! are the fields of [`RunInfo`], written and read by serde.

use crate::core::InputError;

/// The metadata of a run, written as `run.json` beside its results: what was run (command, game,
/// decks, agents, the content hash of the cards and rules, games, seed), by which tcgsim, and how
/// long it took. `fingerprint` is the canonical line that `merge` and `--resume` compare; `shard`
/// is the part of a sharded run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunInfo {
    pub tool: String,
    pub version: String,
    pub command: String,
    /// The arguments the command was given.
    pub args: Vec<String>,
    pub game: String,
    pub decks: Vec<String>,
    pub agents: Vec<String>,
    pub content: String,
    pub games: u64,
    pub seed: u64,
    pub fingerprint: String,
    pub shard: Option<(u64, u64)>,
    /// Games played by this command (a resumed run played fewer than it reports).
    pub games_played: u64,
    /// Games a resumed run took from its checkpoint, played by an earlier process (issue 30: a
    /// resumed run's page counted only its own games). Written only when not 0, so the
    /// `run.json` of a run that resumed nothing is as before.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub games_resumed: u64,
    pub seconds: f64,
    /// The result files this run put in place in its folder with this `run.json` (their names,
    /// sorted; `cli::out::commit` fills it in), which `report` reads, and no other result file
    /// of the folder: a file of an earlier run that could not be removed is left beside them,
    /// and never shown as this run's. `None` in a `run.json` of an older tcgsim (every file
    /// read, as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl RunInfo {
    /// Pretty JSON, with the tool's name and version filled in.
    pub fn to_json(&self) -> String {
        let mut r = self.clone();
        r.tool = "tcgsim".into();
        r.version = env!("CARGO_PKG_VERSION").into();
        let mut s = serde_json::to_string_pretty(&r).expect("RunInfo serializes");
        s.push('\n');
        s
    }

    /// Reads a `run.json`; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<RunInfo, InputError> {
        let r: RunInfo = serde_json::from_str(text)
            .map_err(|e| InputError::new(file, 0, format!("not a tcgsim run.json: {e}")))?;
        if r.tool != "tcgsim" {
            return Err(InputError::new(file, 0, "not a tcgsim run.json"));
        }
        Ok(r)
    }
}
