//! `tcgsim matrix` and `tcgsim merge`: argument checking and files; the work is in `sim`.

use super::{card_db, progress, thread_pool};
use crate::agents::AgentSpec;
use crate::games::trails::deck::Deck;
use crate::games::trails::TrailsGame;
use crate::sim::checkpoint::{parse_shard, resume_run, shard_from_env, Resumed};
use crate::sim::matrix::{run_tasks, totals, Counts, Plan};
use crate::sim::output::{
    matchups_csv, matrix_csv, matrix_svg, read_matchups, summary, write_atomic,
};
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
    if o.games == 0 {
        bail!("--games must be at least 1");
    }
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
        deck_names: decks.iter().map(|d| d.name.clone()).collect(),
        agent_a: spec_a_text.clone(),
        agent_b: spec_b_text.clone(),
        games: o.games,
        seed: o.seed,
        chunk: o.chunk,
    };
    let n = decks.len();
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
    let all = match shard {
        Some((i, k)) => plan.shard_tasks(i, k),
        None => plan.tasks(),
    };
    let Resumed {
        checkpoint,
        done: mut results,
        todo,
    } = resume_run(o.checkpoint.as_deref(), &plan.fingerprint(), o.resume, &all)
        .map_err(|e| anyhow!(e))?;
    let total_games: u64 = todo
        .iter()
        .map(|t| (plan.games - t.chunk * plan.chunk).min(plan.chunk))
        .sum();
    if !results.is_empty() {
        eprintln!(
            "resuming: {} of {} chunks already done",
            results.len(),
            all.len()
        );
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
        print!("{}", summary(&plan, &m));
    }
    let decisions: u64 = m.iter().map(|c| c.decisions).sum();
    eprintln!(
        "{total_games} games played in {secs:.1} s ({:.0} games/s, {:.0} decisions per game, {} threads); {played} games in the results; wrote {}",
        total_games as f64 / secs.max(1e-9),
        decisions as f64 / played.max(1) as f64,
        pool.current_num_threads(),
        o.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn write_outputs(out: &Path, plan: &Plan, m: &[Counts], shard: Option<(u64, u64)>) -> Result<()> {
    let w = |name: &str, text: String| {
        let p = out.join(name);
        write_atomic(&p, &text).with_context(|| format!("{}: cannot write", p.display()))
    };
    w("matchups.csv", matchups_csv(plan, m, shard))?;
    if shard.is_none() {
        w("matrix.csv", matrix_csv(plan, m))?;
        w("matrix.svg", matrix_svg(plan, m))?;
    }
    Ok(())
}

/// Parses a plan line back (for merge).
fn plan_of(fingerprint: &str) -> Result<Plan, String> {
    let mut plan = Plan {
        deck_names: Vec::new(),
        agent_a: String::new(),
        agent_b: String::new(),
        games: 0,
        seed: 0,
        chunk: 0,
    };
    for part in fingerprint.split("; ").skip(1) {
        let (k, v) = part.split_once('=').ok_or("malformed plan line")?;
        match k {
            "decks" => plan.deck_names = v.split(',').map(str::to_string).collect(),
            "agent_a" => plan.agent_a = v.to_string(),
            "agent_b" => plan.agent_b = v.to_string(),
            "games" => plan.games = v.parse().map_err(|_| "malformed plan line")?,
            "seed" => plan.seed = v.parse().map_err(|_| "malformed plan line")?,
            "chunk" => plan.chunk = v.parse().map_err(|_| "malformed plan line")?,
            _ => return Err(format!("unknown plan key \"{k}\"")),
        }
    }
    if plan.fingerprint() != fingerprint {
        return Err("malformed plan line".into());
    }
    Ok(plan)
}

pub fn merge(parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let mut plan: Option<(Plan, String)> = None;
    let mut seen: Vec<(u64, u64)> = Vec::new();
    let mut m: Vec<Counts> = Vec::new();
    for dir in parts {
        let file = dir.join("matchups.csv");
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("{}: cannot read", file.display()))?;
        let f = read_matchups(&text, &file.display().to_string()).map_err(|e| anyhow!(e))?;
        let p = plan_of(&f.fingerprint).map_err(|e| anyhow!("{}: {e}", file.display()))?;
        match &plan {
            None => {
                m = vec![Counts::default(); p.deck_names.len() * p.deck_names.len()];
                plan = Some((p.clone(), file.display().to_string()));
            }
            Some((q, first)) if *q != p => bail!(
                "{} comes from a different run than {} (decks, agents, games or seed differ):\n  {}\n  {}",
                file.display(),
                first,
                f.fingerprint,
                q.fingerprint()
            ),
            _ => {}
        }
        let sh = f.shard.unwrap_or((1, 1));
        if seen.contains(&sh) {
            bail!("{}: shard {}/{} is given twice", file.display(), sh.0, sh.1);
        }
        if let Some(&(_, k)) = seen.first() {
            if k != sh.1 {
                bail!(
                    "{}: shard {}/{} does not belong with shards of {k}",
                    file.display(),
                    sh.0,
                    sh.1
                );
            }
        }
        seen.push(sh);
        let names = &plan.as_ref().expect("set above").0.deck_names;
        let n = names.len();
        for (r, c, counts) in &f.rows {
            let ri = names.iter().position(|x| x == r);
            let ci = names.iter().position(|x| x == c);
            match (ri, ci) {
                (Some(ri), Some(ci)) => m[ri * n + ci].add(counts),
                _ => bail!("{}: matchup {r} vs {c} is not in the plan", file.display()),
            }
        }
    }
    let Some((plan, _)) = plan else {
        bail!("nothing to merge")
    };
    let k = seen[0].1;
    let missing: Vec<String> = (1..=k)
        .filter(|i| !seen.iter().any(|s| s.0 == *i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        bail!("shards {} of {k} are missing", missing.join(", "));
    }
    write_outputs(out, &plan, &m, None)?;
    print!("{}", summary(&plan, &m));
    eprintln!("merged {} parts into {}", parts.len(), out.display());
    Ok(ExitCode::SUCCESS)
}
