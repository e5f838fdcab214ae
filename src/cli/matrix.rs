//! `tcgsim matrix` and `tcgsim merge`: argument checking and files; the work is in `sim`.

use super::{
    bundled_decks, check_out_dir, emit, load_cards, load_decks, note, thread_pool, write_file,
    Progress,
};
use crate::agents::AgentSpec;
use crate::core::GameDef;
use crate::sim::checkpoint::{parse_shard, resume_run, shard_from_env, Resumed};
use crate::sim::matrix::{run_tasks, totals, Counts, Plan};
use crate::sim::output::{
    matchups_csv, matrix_csv, matrix_svg, merge_matchups, summary, Part, RunInfo,
};
use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct MatrixOpts {
    pub decks: Vec<PathBuf>,
    pub cards: Option<PathBuf>,
    pub agents: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<u64>,
    pub out: PathBuf,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<String>,
    pub shards: Option<u64>,
    pub chunk: u64,
}

pub fn matrix<G: GameDef>(o: MatrixOpts) -> Result<ExitCode> {
    let (spec_a_text, spec_b_text) = match o.agents.as_slice() {
        [] => ("heuristic".to_string(), "heuristic".to_string()),
        [a] => (a.clone(), a.clone()),
        [a, b] => (a.clone(), b.clone()),
        v => bail!(
            "--agent: matrix takes one agent (both decks) or two (row deck, column deck), {} given",
            v.len()
        ),
    };
    let spec_a =
        AgentSpec::parse(&spec_a_text).map_err(|e| anyhow!("--agent {spec_a_text}: {e}"))?;
    let spec_b =
        AgentSpec::parse(&spec_b_text).map_err(|e| anyhow!("--agent {spec_b_text}: {e}"))?;
    let shard = match &o.shard {
        Some(s) => Some(parse_shard(s).map_err(|e| anyhow!(e))?),
        None => shard_from_env(|k| std::env::var(k).ok(), o.shards).map_err(|e| anyhow!(e))?,
    };
    let paths = if o.decks.is_empty() {
        bundled_decks::<G>()?
    } else {
        o.decks.clone()
    };
    let db = load_cards::<G>(o.cards.as_deref(), paths.first().map(PathBuf::as_path))?;
    let decks = load_decks::<G>(&db, &paths, true)?;
    let plan = Plan {
        game: G::INFO.name.into(),
        deck_names: decks.iter().map(|d| G::deck_name(d).to_string()).collect(),
        content: G::content_hash(&db, &decks.iter().collect::<Vec<_>>()),
        agent_a: spec_a_text.clone(),
        agent_b: spec_b_text.clone(),
        games: o.games,
        seed: o.seed,
        chunk: o.chunk,
    };
    let n = decks.len();
    plan.check_size().map_err(|e| anyhow!(e))?;
    let mut games = Vec::with_capacity(n * n);
    for r in &decks {
        for c in &decks {
            games.push(G::new_match(&db, [r, c]));
        }
    }
    check_out_dir(&o.out)?;
    let all = match shard {
        Some((i, k)) => plan.shard_tasks(i, k),
        None => plan.tasks(),
    };
    // A shard's checkpoint is its own: it never resumes another shard.
    let fingerprint = match shard {
        Some((i, k)) => format!("{}; shard={i}/{k}", plan.fingerprint()),
        None => plan.fingerprint(),
    };
    let Resumed {
        checkpoint,
        done: mut results,
        todo,
    } = resume_run(
        o.checkpoint.as_deref(),
        &fingerprint,
        o.resume,
        &all,
        &|t| plan.chunk_games(t.chunk),
    )
    .map_err(|e| anyhow!(e))?;
    let total_games: u64 = todo.iter().map(|t| plan.chunk_games(t.chunk)).sum();
    if !results.is_empty() {
        note(&format!(
            "resuming: {} of {} chunks already done",
            results.len(),
            all.len()
        ));
    }
    let pool = thread_pool(o.threads)?;
    let pb = Progress::new(total_games, "games");
    let start = std::time::Instant::now();
    let new = pool.install(|| {
        run_tasks(&plan, &games, &spec_a, &spec_b, &todo, &|t, c: &Counts| {
            if let Some(cp) = &checkpoint {
                cp.record(t, c);
            }
            pb.inc(c.games);
        })
    });
    pb.finish();
    let secs = start.elapsed().as_secs_f64();
    results.extend(new);
    let m = totals(n, &results);
    let played: u64 = m.iter().map(|c| c.games).sum();
    let shard_tag = shard.filter(|&(_, k)| k > 1);
    let info = RunInfo {
        command: "matrix".into(),
        args: std::env::args().skip(1).collect(),
        game: plan.game.clone(),
        decks: plan.deck_names.clone(),
        agents: vec![plan.agent_a.clone(), plan.agent_b.clone()],
        content: plan.content.clone(),
        games: plan.games,
        seed: plan.seed,
        fingerprint: plan.fingerprint(),
        shard: shard_tag,
        games_played: total_games,
        seconds: secs,
        ..Default::default()
    };
    write_outputs(&o.out, &plan, &m, &info)?;
    if shard_tag.is_none() {
        emit(&summary(&plan, &m))?;
    }
    let decisions: u64 = m.iter().map(|c| c.decisions).sum();
    note(&format!(
        "{total_games} games played in {secs:.1} s ({:.0} games/s, {:.0} decisions per game, {} threads); {played} games in the results; wrote {}",
        total_games as f64 / secs.max(1e-9),
        decisions as f64 / played.max(1) as f64,
        pool.current_num_threads(),
        o.out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

fn write_outputs(out: &Path, plan: &Plan, m: &[Counts], info: &RunInfo) -> Result<()> {
    let w = |name: &str, text: String| write_file(&out.join(name), &text);
    w("matchups.csv", matchups_csv(plan, m))?;
    if info.shard.is_none() {
        w("matrix.csv", matrix_csv(plan, m))?;
        w("matrix.svg", matrix_svg(plan, m))?;
    }
    w("run.json", info.to_json())?;
    Ok(())
}

/// `tcgsim merge`: reads the parts' `run.json` and `matchups.csv`, checks and adds them up
/// ([`merge_matchups`]), and writes the merged outputs.
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    use crate::core::input::{read_text, MAX_TEXT_BYTES};
    let mut files = Vec::new();
    for dir in parts {
        files.push(Part {
            name: dir.display().to_string(),
            run_json: read_text(&dir.join("run.json"), MAX_TEXT_BYTES)?,
            matchups: read_text(&dir.join("matchups.csv"), MAX_TEXT_BYTES)?,
        });
    }
    let (plan, m) = merge_matchups(&files).map_err(|e| anyhow!(e))?;
    check_out_dir(out)?;
    let info = RunInfo {
        command: "matrix".into(),
        args: std::env::args().skip(1).collect(),
        game: plan.game.clone(),
        decks: plan.deck_names.clone(),
        agents: vec![plan.agent_a.clone(), plan.agent_b.clone()],
        content: plan.content.clone(),
        games: plan.games,
        seed: plan.seed,
        fingerprint: plan.fingerprint(),
        shard: None,
        games_played: 0,
        seconds: 0.0,
        ..Default::default()
    };
    write_outputs(out, &plan, &m, &info)?;
    emit(&summary(&plan, &m))?;
    note(&format!(
        "merged {} parts into {}",
        parts.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}
