//! `tcgsim matrix` and `tcgsim merge`: argument checking and files; the work is in `sim`.

use super::{card_db, check_out_dir, emit, note, progress, thread_pool, write_file};
use crate::agents::AgentSpec;
use crate::games::trails::deck::Deck;
use crate::games::trails::decks_content_hash;
use crate::games::trails::TrailsGame;
use crate::sim::checkpoint::{parse_shard, resume_run, shard_from_env, Resumed};
use crate::sim::matrix::{run_tasks, totals, Counts, Plan};
use crate::sim::output::{matchups_csv, matrix_csv, matrix_svg, merge_matchups, summary};
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct MatrixOpts {
    pub decks: Vec<PathBuf>,
    pub agent: String,
    pub agent_a: Option<String>,
    pub agent_b: Option<String>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub out: PathBuf,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<String>,
    pub shards: Option<u64>,
    pub cards: Option<PathBuf>,
    pub chunk: u64,
}

/// The bundled decks, when no deck is given.
fn default_decks() -> Result<Vec<PathBuf>> {
    let dir = Path::new("decks/trails");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| {
            format!(
                "no decks given and {} cannot be read (run from the repository, or name decks)",
                dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "deck"))
        .collect();
    v.sort();
    if v.is_empty() {
        bail!("no decks given and none in {}", dir.display());
    }
    Ok(v)
}

pub fn matrix(o: MatrixOpts) -> Result<ExitCode> {
    let spec_a_text = o.agent_a.clone().unwrap_or_else(|| o.agent.clone());
    let spec_b_text = o.agent_b.clone().unwrap_or_else(|| o.agent.clone());
    let spec_a = AgentSpec::parse(&spec_a_text).map_err(|e| anyhow!("--agent-a: {e}"))?;
    let spec_b = AgentSpec::parse(&spec_b_text).map_err(|e| anyhow!("--agent-b: {e}"))?;
    if o.resume && o.checkpoint.is_none() {
        bail!("--resume needs --checkpoint DIR");
    }
    let shard = match &o.shard {
        Some(s) => Some(parse_shard(s).map_err(|e| anyhow!(e))?),
        None => shard_from_env(|k| std::env::var(k).ok(), o.shards).map_err(|e| anyhow!(e))?,
    };
    let paths = if o.decks.is_empty() {
        default_decks()?
    } else {
        o.decks.clone()
    };
    let db = card_db(o.cards.as_deref(), paths.first().map(PathBuf::as_path))?;
    let mut decks = Vec::new();
    for p in &paths {
        let d = Deck::load(p, &db).map_err(|e| anyhow!("{e}"))?;
        if d.name.contains([',', ';']) {
            bail!(
                "{}: a deck name (the file stem) may not contain ',' or ';'",
                p.display()
            );
        }
        if decks.iter().any(|x: &Deck| x.name == d.name) {
            bail!(
                "{}: two decks are named \"{}\"; deck names (file stems) must differ",
                p.display(),
                d.name
            );
        }
        decks.push(d);
    }
    let plan = Plan {
        game: "trails".into(),
        deck_names: decks.iter().map(|d| d.name.clone()).collect(),
        content: decks_content_hash(
            &db,
            &decks.iter().map(|d| d.cards.as_slice()).collect::<Vec<_>>(),
        ),
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
            games.push(TrailsGame::new(
                db.clone(),
                r.cards.clone(),
                c.cards.clone(),
            ));
        }
    }
    check_out_dir(&o.out, "--out")?;
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
    let pb = progress(total_games);
    let start = std::time::Instant::now();
    let new = pool.install(|| {
        run_tasks(&plan, &games, &spec_a, &spec_b, &todo, &|t, c: &Counts| {
            if let Some(cp) = &checkpoint {
                cp.record(t, c);
            }
            pb.inc(c.games);
        })
    });
    pb.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    results.extend(new);
    let m = totals(n, &results);
    let played: u64 = m.iter().map(|c| c.games).sum();
    let shard_tag = shard.filter(|&(_, k)| k > 1);
    write_outputs(&o.out, &plan, &m, shard_tag)?;
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

fn write_outputs(out: &Path, plan: &Plan, m: &[Counts], shard: Option<(u64, u64)>) -> Result<()> {
    let w = |name: &str, text: String| write_file(&out.join(name), &text);
    w("matchups.csv", matchups_csv(plan, m, shard))?;
    if shard.is_none() {
        w("matrix.csv", matrix_csv(plan, m))?;
        w("matrix.svg", matrix_svg(plan, m))?;
    }
    Ok(())
}

/// `tcgsim merge`: reads the parts' `matchups.csv`, checks and adds them up
/// ([`merge_matchups`]), and writes the merged outputs.
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    use crate::core::input::{read_text, MAX_TEXT_BYTES};
    let mut files = Vec::new();
    for dir in parts {
        let file = dir.join("matchups.csv");
        files.push((
            file.display().to_string(),
            read_text(&file, MAX_TEXT_BYTES)?,
        ));
    }
    let (plan, m) = merge_matchups(&files).map_err(|e| anyhow!(e))?;
    check_out_dir(out, "--out")?;
    write_outputs(out, &plan, &m, None)?;
    emit(&summary(&plan, &m))?;
    note(&format!(
        "merged {} parts into {}",
        parts.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}
