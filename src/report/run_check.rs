//! `run.json` against the result files beside it (issue 30: a folder reused by several runs kept
//! one run's `run.json` beside another's CSV files): the decks, agents and games the files name
//! must be those `run.json` describes. Each file is read through its module, which has checked
//! its values; an error names the file (and the line) and the disagreement.

use crate::core::InputError;
use crate::sim::files::run_json::RunInfo;
use crate::sim::files::{arena, cards, duel, matchups, read_file};
use std::path::Path;

/// The message's end: what the disagreement means.
const OTHER_RUN: &str = "run.json and the files beside it are of different runs";

/// Checks the files of the run `info` (read from `dir/run.json`) that `dir` holds against it.
pub(super) fn check(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    match info.command.as_str() {
        "matrix" => check_matrix(dir, info),
        "balance" => check_balance(dir, info),
        "duel" => check_duel(dir, info),
        "cards" => check_cards(dir, info),
        "arena" => check_arena(dir, info),
        "arena --sprt" => check_sprt(dir, info),
        "tune" => check_tune(dir, info),
        _ => Ok(()),
    }
}

/// A matrix run's `matchups.csv`: its decks run.json's, no matchup of more games than run.json's.
fn check_matrix(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "matchups.csv")? {
        let lines = matchups::read(&text, &file)?;
        let (names, cells) = matchups::grid(&lines, None, &file)?;
        same(&file, "decks", &names, &info.decks)?;
        for c in cells {
            at_most(&file, c.line(), c.matchup.counts.games, "a matchup", info)?;
        }
    }
    Ok(())
}

/// A balance run's `balance_before_matchups.csv`: its decks run.json's.
fn check_balance(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "balance_before_matchups.csv")? {
        let lines = matchups::read(&text, &file)?;
        let (names, _) = matchups::grid(&lines, None, &file)?;
        same(&file, "decks", &names, &info.decks)?;
    }
    Ok(())
}

/// A duel's `duel.csv`: its decks and agents run.json's, no more games than run.json's.
fn check_duel(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "duel.csv")? {
        for l in duel::read(&text, &file)? {
            let d = &l.duel;
            let decks = [d.deck1.clone(), d.deck2.clone()];
            same(&file, "decks", &decks, &info.decks)?;
            same(
                &file,
                "agents",
                &[d.agent_a.clone(), d.agent_b.clone()],
                &info.agents,
            )?;
            at_most(&file, l.fields.line, d.counts.games, "the duel", info)?;
        }
    }
    Ok(())
}

/// A cards run's `cards.csv`: every deck one of run.json's.
fn check_cards(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "cards.csv")? {
        for l in cards::read(&text, &file)? {
            if !info.decks.contains(&l.card.deck) {
                return Err(l.fields.at(format!(
                    "deck {} is none of run.json's decks ({}): {OTHER_RUN}",
                    l.card.deck,
                    info.decks.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// An arena's `arena.csv` and `arena_pairs.csv`: its agents run.json's, no pair of more games than run.json's.
fn check_arena(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "arena.csv")? {
        let rows = arena::read_ratings(&text, &file)?;
        let mut agents: Vec<String> = rows.iter().map(|r| r.text("agent").to_string()).collect();
        let mut want = info.agents.clone();
        agents.sort();
        want.sort();
        same(&file, "agents", &agents, &want)?;
    }
    if let Some((text, file)) = read_file(dir, "arena_pairs.csv")? {
        for p in arena::read_pairs(&text, &file)? {
            at_most(&file, p.line, 2 * p.count("pairs"), "two agents", info)?;
        }
    }
    Ok(())
}

/// An SPRT's `sprt.csv`: its agents run.json's, its pairs run.json's games played.
fn check_sprt(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "sprt.csv")? {
        for r in arena::read_sprt(&text, &file)? {
            let agents = [r.text("agent_a").to_string(), r.text("agent_b").to_string()];
            same(&file, "agents", &agents, &info.agents)?;
            let games = 2 * r.count("pairs");
            at_most(&file, r.line, games, "the test", info)?;
            if games != info.games_played {
                return Err(r.at(format!(
                    "column `pairs`: {} pairs are {games} games, where run.json's games_played is {}: {OTHER_RUN}",
                    r.count("pairs"),
                    info.games_played
                )));
            }
        }
    }
    Ok(())
}

/// A tune run's `tune_fresh.csv`: its fresh games run.json's games, its start deck run.json's deck.
fn check_tune(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if let Some((text, file)) = read_file(dir, "tune_fresh.csv")? {
        for r in crate::sim::tune::files::read_fresh(&text, &file)? {
            if r.count("games") != info.games {
                return Err(r.at(format!(
                    "column `games`: {} fresh games, where run.json's games is {}: {OTHER_RUN}",
                    r.count("games"),
                    info.games
                )));
            }
            if r.text("measure") == "start"
                && info.decks.first().map(String::as_str) != Some(r.text("deck"))
            {
                return Err(r.at(format!(
                    "column `deck`: {} is not run.json's tuned deck ({}): {OTHER_RUN}",
                    r.text("deck"),
                    info.decks.first().map_or("none", String::as_str)
                )));
            }
        }
    }
    Ok(())
}

/// The `what` (decks, agents) the file names are run.json's.
fn same(file: &str, what: &str, found: &[String], json: &[String]) -> Result<(), InputError> {
    if found == json {
        return Ok(());
    }
    Err(InputError::new(
        file,
        0,
        format!(
            "its {what} ({}) are not run.json's ({}): {OTHER_RUN}",
            found.join(", "),
            json.join(", ")
        ),
    ))
}

/// A row's games (of `of`: a matchup, the duel, …) are at most the games run.json says the run
/// played of it.
fn at_most(
    file: &str,
    line: usize,
    games: u64,
    of: &str,
    info: &RunInfo,
) -> Result<(), InputError> {
    if games <= info.games {
        return Ok(());
    }
    Err(InputError::new(
        file,
        line,
        format!(
            "column `games`: {games} games of {of}, more than run.json's {}: {OTHER_RUN}",
            info.games
        ),
    ))
}
