//! The files of a run under their older paths. Each result file of matrix and cards has its own
//! module in [`super::files`] (its column table, its writer and its checked reader); the names
//! below keep the callers of this module (the other commands' files, the tests) working. What is
//! left here is `duel.csv`'s writer.

pub use super::files::lengths::{read as read_lengths, write as lengths_csv, LengthRows};
pub use super::files::matrix::{csv as matrix_csv, summary, svg as matrix_svg};
pub use super::files::run_json::RunInfo;
pub use super::files::{rate, write_atomic, Table};
use super::matrix::Counts;
pub use super::matrix::{pooled, strength};
pub use super::merge::{merge_matchups, Part};

/// `matchups.csv`'s text ([`super::files::matchups::write`]).
pub fn matchups_csv(plan: &super::matrix::Plan, m: &[Counts]) -> String {
    super::files::matchups::write(plan, m)
}

/// The one-row `duel.csv` of a duel, from agent A's side.
pub fn duel_csv(a: &str, b: &str, deck1: &str, deck2: &str, r: &Counts) -> String {
    let (lo, hi) = r.interval();
    let mean = |x: u64| rate(x as f64 / r.games.max(1) as f64);
    let mut t = Table::new(&[
        "agent_a",
        "agent_b",
        "deck1",
        "deck2",
        "games",
        "wins_a",
        "wins_b",
        "draws",
        "win_rate_a",
        "ci_low",
        "ci_high",
        "first_player_wins",
        "mean_turns",
        "mean_decisions",
    ]);
    t.row([
        a.to_string(),
        b.to_string(),
        deck1.to_string(),
        deck2.to_string(),
        r.games.to_string(),
        r.wins.to_string(),
        r.losses.to_string(),
        r.draws.to_string(),
        rate(r.win_rate()),
        rate(lo),
        rate(hi),
        r.first_player_wins.to_string(),
        mean(r.turns),
        mean(r.decisions),
    ]);
    t.finish()
}
