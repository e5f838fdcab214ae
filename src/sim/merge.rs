//! The runner of `tcgsim merge`: adds up the shards of one matrix run, read through their result
//! files' modules ([`super::files`]); it writes nothing.

use super::checkpoint::MAX_SHARDS;
use super::files::run_json::RunInfo;
use super::files::{lengths, matchups};
use super::matrix::{Counts, Lengths, Plan};
use crate::core::{Error, Result};

/// One part of a merge: a shard's folder name, its `run.json`, its `matchups.csv` and its
/// `lengths.csv` (`None`: the folder has none).
pub struct Part {
    pub name: String,
    pub run_json: String,
    pub matchups: String,
    pub lengths: Option<String>,
}

/// Adds up the shards of one run. Every part is checked before anything is added: the same plan
/// (game, decks, cards, rules, agents, games, seed, chunk: the fingerprint in `run.json`), each
/// shard once, no shard missing, every matchup exactly once per file with every value valid
/// ([`matchups::read`]), and each matchup's counts and game-length histogram (`lengths.csv`)
/// those of exactly the games the shard played ([`Counts::check`]). An error names the file and
/// line.
pub fn merge_matchups(parts: &[Part]) -> Result<(Plan, Vec<Counts>)> {
    let mut plan: Option<(Plan, String)> = None;
    let mut seen: Vec<(u64, u64)> = Vec::new();
    let mut m: Vec<Counts> = Vec::new();
    for part in parts {
        let (info, p) = part_plan(part)?;
        match &plan {
            None => {
                m = vec![Counts::default(); p.deck_names.len() * p.deck_names.len()];
                plan = Some((p.clone(), part.name.clone()));
            }
            Some((q, first)) if *q != p => {
                return Err(Error::usage(format!(
                    "{} comes from a different run than {first} (game, decks, cards, rules, agents, games, seed or chunk differ):\n  {}\n  {}",
                    part.name,
                    p.fingerprint(),
                    q.fingerprint()
                )))
            }
            _ => {}
        }
        let sh = shard_of(part, &info, &seen)?;
        seen.push(sh);
        add_part(part, &p, sh, &mut m)?;
    }
    let Some((plan, _)) = plan else {
        return Err(Error::usage("nothing to merge"));
    };
    let k = seen[0].1;
    let missing: Vec<String> = (1..=k)
        .filter(|i| !seen.iter().any(|s| s.0 == *i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Error::usage(format!(
            "shards {} of {k} are missing",
            missing.join(", ")
        )));
    }
    Ok((plan, m))
}

/// A part's `run.json` and the plan of its fingerprint: a matrix run whose words agree with it.
fn part_plan(part: &Part) -> Result<(RunInfo, Plan)> {
    let json_name = format!("{}/run.json", part.name);
    let info = RunInfo::parse(&part.run_json, &json_name)?;
    if info.command != "matrix" {
        return Err(Error::input(
            json_name,
            0,
            format!("a {} run, not a matrix run", info.command),
        ));
    }
    let p = Plan::from_fingerprint(&info.fingerprint)
        .map_err(|e| Error::input(&json_name, 0, e.to_string()))?;
    // What run.json says of the run in words must be what its fingerprint says.
    if (
        &info.game,
        &info.decks,
        &info.content,
        info.games,
        info.seed,
    ) != (&p.game, &p.deck_names, &p.content, p.games, p.seed)
        || info.agents != [p.agent_a.clone(), p.agent_b.clone()]
    {
        return Err(Error::input(
            json_name,
            0,
            "its game, decks, content, agents, games or seed disagree with its fingerprint",
        ));
    }
    Ok((info, p))
}

/// The shard a part is (`run.json`'s, 1 of 1 when none): a shard, not given before, of as many
/// as the shards before it.
fn shard_of(part: &Part, info: &RunInfo, seen: &[(u64, u64)]) -> Result<(u64, u64)> {
    let sh = info.shard.unwrap_or((1, 1));
    let (i, k) = sh;
    if !(1..=k).contains(&i) || k > MAX_SHARDS {
        return Err(Error::input(
            format!("{}/run.json", part.name),
            0,
            format!("shard {i}/{k} is not a shard (need 1 ≤ I ≤ N ≤ {MAX_SHARDS})"),
        ));
    }
    if seen.contains(&sh) {
        return Err(Error::usage(format!(
            "{}: shard {i}/{k} is given twice",
            part.name
        )));
    }
    if let Some(&(_, first)) = seen.first() {
        if first != k {
            return Err(Error::usage(format!(
                "{}: shard {i}/{k} does not belong with shards of {first}",
                part.name
            )));
        }
    }
    Ok(sh)
}

/// Reads a part's `matchups.csv` and `lengths.csv` and adds its counts to `m`: every matchup of
/// the plan exactly once, each with the counts and histogram of the games shard `(i, k)` played.
fn add_part(part: &Part, p: &Plan, (i, k): (u64, u64), m: &mut [Counts]) -> Result<()> {
    let name = format!("{}/matchups.csv", part.name);
    let rows = matchups::read(&part.matchups, &name)?;
    let lengths_name = format!("{}/lengths.csv", part.name);
    let Some(lengths) = &part.lengths else {
        return Err(Error::input(
            lengths_name,
            0,
            "missing: every matrix run of this tcgsim writes its game-length histograms there; run the shard again",
        ));
    };
    let lengths = lengths::read(lengths, &lengths_name)?;
    // The games each matchup of this shard played.
    let n = p.deck_names.len();
    let mut expected = vec![0u64; n * n];
    for t in p.shard_tasks(i, k) {
        expected[t.row * n + t.col] += p.chunk_games(t.chunk);
    }
    let mut hist = vec![Lengths::default(); n * n];
    for (line, r, c, h) in &lengths {
        let pos = |d: &String| p.deck_names.iter().position(|x| x == d);
        let (Some(ri), Some(ci)) = (pos(r), pos(c)) else {
            return Err(Error::input(
                &lengths_name,
                *line,
                format!("matchup {r} vs {c} is not in the plan"),
            ));
        };
        hist[ri * n + ci] = *h;
    }
    let (_, cells) = matchups::grid(&rows, Some(&p.deck_names), &name)?;
    for (cell, l) in cells.iter().enumerate() {
        let (r, c) = (&l.matchup.row, &l.matchup.col);
        let counts = Counts {
            lengths: hist[cell],
            ..l.matchup.counts
        };
        counts.check(expected[cell]).map_err(|e| {
            Error::input(
                &name,
                l.fields.line,
                format!("matchup {r} vs {c}: impossible counts (with {lengths_name}): {e}"),
            )
        })?;
        m[cell].add(&counts);
    }
    Ok(())
}
