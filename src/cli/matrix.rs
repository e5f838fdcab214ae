//! `tcgsim matrix`, `tcgsim merge` and `tcgsim meta`: argument checking and files; the work is in
//! `sim`.

use super::{
    bundled_decks, card_source, check_out_dir, emit, load_decks, note, read_cards, thread_pool,
    write_file, Progress,
};
use crate::agents::process::ProcessOptions;
use crate::core::{Error, GameDef};
use crate::sim::checkpoint::{parse_shard, resume_run, shard_from_env, Resumed};
use crate::sim::files::run_json::RunInfo;
use crate::sim::files::{lengths, matchups, matrix as views, meta as meta_csv};
use crate::sim::matrix::{matches, run_tasks, totals, Counts, Plan, Played, Task};
use crate::sim::merge::{merge_matchups, Part};
use crate::sim::meta::{metagame, Metagame};
use crate::sim::record::GameLine;
use crate::sim::Entrant;
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
    pub records: bool,
    /// The options of `process:` agents (`--move-timeout`, `--on-agent-error`).
    pub process: crate::agents::process::ProcessOptions,
}

/// `tcgsim matrix`: the plan from the arguments, the chunks a checkpoint has not finished run
/// ([`run_tasks`]), then the result files, the summary and the report ([`finish`]).
pub fn matrix<G: GameDef>(o: MatrixOpts) -> Result<ExitCode> {
    let (texts, [spec_a, spec_b]) = agents(&o.agents, &o.process)?;
    let shard = match &o.shard {
        Some(s) => Some(parse_shard(s).map_err(Error::from)?),
        None => shard_from_env(|k| std::env::var(k).ok(), o.shards).map_err(Error::from)?,
    };
    let (paths, source, db, decks) = inputs::<G>(&o)?;
    let plan = plan_of::<G>(&o, texts, &db, &decks)?;
    let games = matches::<G>(&db, &decks);
    check_out_dir(&o.out)?;
    let Resumed {
        checkpoint,
        done: mut results,
        todo,
    } = resume(&o, &plan, shard)?;
    let total_games: u64 = todo.iter().map(|t| plan.chunk_games(t.chunk)).sum();
    let records = if o.records {
        Some(open_records(
            &o.out.join("records.jsonl"),
            &plan,
            &results,
            checkpoint.is_some(),
        )?)
    } else {
        None
    };
    let record_of = record_line::<G>(&db, &decks, &paths, source.as_deref(), &plan, &games);
    let pool = thread_pool(o.threads)?;
    let resumed: u64 = results.iter().map(|(_, c)| c.games).sum();
    let pb = Progress::new(resumed + total_games, "games").resumed(resumed);
    let start = std::time::Instant::now();
    let new = pool.install(|| {
        run_tasks(
            &plan,
            &games,
            &spec_a,
            &spec_b,
            &todo,
            records.as_ref().map(|_| &record_of as _),
            &|t, c: &Counts, lines: &[String]| {
                // A chunk's records before its checkpoint line: a resumed run keeps only the
                // records of the chunks its checkpoint has.
                // A chunk whose records could not be written is not recorded: the run stops.
                if records.as_ref().is_some_and(|r| !r.append(lines)) {
                    return;
                }
                if let Some(cp) = &checkpoint {
                    cp.record(t, c);
                }
                pb.inc(c.games);
            },
            &|| {
                checkpoint.as_ref().is_some_and(|cp| cp.failed())
                    || records.as_ref().is_some_and(|r| r.failed())
            },
        )
    });
    pb.finish();
    stopped(
        checkpoint.as_ref(),
        records.as_ref(),
        &[&spec_a, &spec_b],
        results.len() + new.len(),
    )?;
    if let Some(r) = &records {
        r.stage()?;
    }
    let secs = start.elapsed().as_secs_f64();
    results.extend(new);
    let m = totals(decks.len(), &results);
    let shard = shard.filter(|&(_, k)| k > 1);
    let threads = pool.current_num_threads();
    finish(&o.out, &plan, &m, shard, (total_games, secs, threads))
}

/// The run's plan: its game, decks, content hash, agents, games, seed and chunk size, checked.
fn plan_of<G: GameDef>(
    o: &MatrixOpts,
    [agent_a, agent_b]: [String; 2],
    db: &G::Cards,
    decks: &[G::Deck],
) -> Result<Plan> {
    let plan = Plan {
        game: G::INFO.name.into(),
        deck_names: decks.iter().map(|d| G::deck_name(d).to_string()).collect(),
        content: G::content_hash(db, &decks.iter().collect::<Vec<_>>()),
        agent_a,
        agent_b,
        games: o.games,
        seed: o.seed,
        chunk: o.chunk,
    };
    plan.check_size().map_err(Error::from)?;
    Ok(plan)
}

/// The chunks of the run (of its shard) that the checkpoint has finished and those left to play;
/// says so when some are finished.
fn resume(o: &MatrixOpts, plan: &Plan, shard: Option<(u64, u64)>) -> Result<Resumed> {
    let all = plan.tasks_of(shard);
    let r = resume_run(
        o.checkpoint.as_deref(),
        &plan.shard_fingerprint(shard),
        o.resume,
        &all,
        &|t| plan.chunk_games(t.chunk),
    )?;
    if !r.done.is_empty() {
        note(&format!(
            "resuming: {} of {} chunks already done",
            r.done.len(),
            all.len()
        ));
    }
    Ok(r)
}

/// The decks' files (default: the game's bundled decks), the card file, the cards and the decks.
#[allow(clippy::type_complexity)]
fn inputs<G: GameDef>(
    o: &MatrixOpts,
) -> Result<(Vec<PathBuf>, Option<PathBuf>, G::Cards, Vec<G::Deck>)> {
    let paths = if o.decks.is_empty() {
        bundled_decks::<G>()?
    } else {
        o.decks.clone()
    };
    let source = card_source::<G>(o.cards.as_deref(), paths.first().map(PathBuf::as_path));
    let db = read_cards::<G>(source.as_deref())?;
    let decks = load_decks::<G>(&db, &paths, true)?;
    Ok((paths, source, db, decks))
}

/// The agents' specs as given (one: both decks; none: `heuristic`) and parsed.
fn agents(given: &[String], process: &ProcessOptions) -> Result<([String; 2], [Entrant; 2])> {
    let texts = match given {
        [] => ["heuristic".to_string(), "heuristic".to_string()],
        [a] => [a.clone(), a.clone()],
        [a, b] => [a.clone(), b.clone()],
        v => bail!(
            "--agent: matrix takes one agent (both decks) or two (row deck, column deck), {} given",
            v.len()
        ),
    };
    let specs = [
        super::entrant(&texts[0], process)?,
        super::entrant(&texts[1], process)?,
    ];
    Ok((texts, specs))
}

/// How a record line of a game is made: what `records.jsonl` says of each game played.
fn record_line<'a, G: GameDef>(
    db: &G::Cards,
    decks: &[G::Deck],
    paths: &'a [PathBuf],
    source: Option<&'a Path>,
    plan: &'a Plan,
    games: &'a [G],
) -> impl Fn(&Played<G>) -> String + Sync + 'a {
    let n = decks.len();
    // What a record says of each matchup: the content hash of its two decks.
    let contents: Vec<String> = (0..n * n)
        .map(|i| G::content_hash(db, &[&decks[i / n], &decks[i % n]]))
        .collect();
    move |p: &Played<G>| -> String {
        let (r, c) = (p.task.row, p.task.col);
        let g = &games[r * n + c];
        GameLine {
            game: G::INFO.name.into(),
            content: contents[r * n + c].clone(),
            cards: source.map(|f| f.display().to_string()),
            decks: [&paths[r], &paths[c]].map(|d| d.display().to_string()),
            deck_names: [r, c].map(|d| plan.deck_names[d].clone()),
            agents: [plan.agent_a.clone(), plan.agent_b.clone()],
            seed: p.seed,
            agent_seeds: p.agent_seeds,
            index: Some(p.index),
            first: p.first.to_string(),
            winner: match p.record.outcome {
                crate::core::Outcome::Win(w) => w.to_string(),
                crate::core::Outcome::Draw => "draw".into(),
            },
            ending: match p.record.forfeit {
                Some(f) => format!("{} forfeited: its agent failed", f.seat),
                None => g.ending(p.end),
            },
            turns: p.record.turns,
            decisions: p.record.decisions,
            actions: Vec::new(),
        }
        .to_line()
    }
}

/// Stops the run with its error when a checkpoint write failed (exit 1; the chunks recorded
/// before it are kept) or an agent failed the run (`finished` chunks done).
fn stopped(
    checkpoint: Option<&crate::sim::checkpoint::Checkpoint>,
    records: Option<&Records>,
    specs: &[&Entrant],
    finished: usize,
) -> Result<()> {
    if let Some(e) = records.and_then(|r| r.take_failure()) {
        // One message, exit 1, like a failed checkpoint write.
        return Err(match checkpoint {
            Some(_) => anyhow::Error::new(Error::from(e)).context(
                "the run stopped: the chunks recorded before this are kept (--resume continues them)",
            ),
            None => Error::from(e).into(),
        });
    }
    if let Some(e) = checkpoint.and_then(|cp| cp.take_failure()) {
        // One message, exit 1 (a write failure); the chunks recorded before it are kept.
        return Err(anyhow::Error::new(Error::from(e)).context(
            "the run stopped: the chunks recorded before this are kept (--resume continues them)",
        ));
    }
    Ok(super::agent_failures(
        specs,
        &match checkpoint {
            Some(_) => format!(
                "{finished} finished chunks are recorded in the checkpoint (--resume continues them)"
            ),
            None => format!("{finished} chunks were finished (not written; --checkpoint keeps them)"),
        },
    )?)
}

/// The end of a matrix run: its files, and unless it is one shard of several, the summary and
/// the report; then a note of what was played (`played`: games, seconds, threads).
fn finish(
    out: &Path,
    plan: &Plan,
    m: &[Counts],
    shard: Option<(u64, u64)>,
    (total_games, secs, threads): (u64, f64, usize),
) -> Result<ExitCode> {
    let mut info = run_info(plan, shard, total_games, secs);
    // What the results hold beyond this process's games came from the checkpoint.
    info.games_resumed = m.iter().map(|c| c.games).sum::<u64>() - total_games;
    let meta = write_outputs(out, plan, m, &info)?;
    if let Some(meta) = meta {
        emit(&views::summary(plan, m))?;
        emit(&meta.summary())?;
        super::report::after_run(out)?;
    }
    let played: u64 = m.iter().map(|c| c.games).sum();
    let decisions: u64 = m.iter().map(|c| c.decisions).sum();
    note(&format!(
        "{total_games} games played in {secs:.1} s ({:.0} games/s, {:.0} decisions per game, {threads} threads); {played} games in the results; wrote {}",
        total_games as f64 / secs.max(1e-9),
        decisions as f64 / played.max(1) as f64,
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The `run.json` of a matrix run (or of a merge: no games played by it).
fn run_info(plan: &Plan, shard: Option<(u64, u64)>, played: u64, seconds: f64) -> RunInfo {
    RunInfo {
        command: "matrix".into(),
        args: std::env::args().skip(1).collect(),
        game: plan.game.clone(),
        decks: plan.deck_names.clone(),
        agents: vec![plan.agent_a.clone(), plan.agent_b.clone()],
        content: plan.content.clone(),
        games: plan.games,
        seed: plan.seed,
        fingerprint: plan.fingerprint(),
        shard,
        games_played: played,
        seconds,
        ..Default::default()
    }
}

/// The result files of a matrix run or a merge; a whole run's (not a shard's) also has its views
/// and its metagame, which is returned for the summary.
fn write_outputs(
    out: &Path,
    plan: &Plan,
    m: &[Counts],
    info: &RunInfo,
) -> Result<Option<Metagame>> {
    let w = |name: &str, text: String| write_file(&out.join(name), &text);
    w("matchups.csv", matchups::write(plan, m))?;
    w("lengths.csv", lengths::write(plan, m))?;
    let meta = if info.shard.is_none() {
        w("matrix.csv", views::csv(plan, m))?;
        w("matrix.svg", views::svg(plan, m))?;
        let meta = metagame(&plan.deck_names, m, plan.seed);
        w("meta.csv", meta_csv::write(&meta))?;
        Some(meta)
    } else {
        None
    };
    w("run.json", info.to_json())?;
    Ok(meta)
}

/// `tcgsim merge`: reads the parts' `run.json`, `matchups.csv` and `lengths.csv`, checks and adds them up
/// ([`merge_matchups`]), and writes the merged outputs.
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<ExitCode> {
    super::out::refuse_out_among_parts(parts, out)?;
    let files = parts
        .iter()
        .map(|d| read_part(d))
        .collect::<Result<Vec<Part>>>()?;
    let (plan, m) = merge_matchups(&files)?;
    check_out_dir(out)?;
    let info = run_info(&plan, None, 0, 0.0);
    let meta = write_outputs(out, &plan, &m, &info)?.expect("a merge is a whole run");
    emit(&views::summary(&plan, &m))?;
    emit(&meta.summary())?;
    super::report::after_run(out)?;
    note(&format!(
        "merged {} parts into {}",
        parts.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// A matrix folder's `run.json`, `matchups.csv` and `lengths.csv` (if it has one), as a part of a
/// merge.
fn read_part(dir: &Path) -> Result<Part> {
    use crate::core::input::{read_text, MAX_TEXT_BYTES};
    let lengths = dir.join("lengths.csv");
    Ok(Part {
        name: dir.display().to_string(),
        run_json: read_text(&dir.join("run.json"), MAX_TEXT_BYTES)?,
        matchups: read_text(&dir.join("matchups.csv"), MAX_TEXT_BYTES)?,
        lengths: if lengths.exists() {
            Some(read_text(&lengths, MAX_TEXT_BYTES)?)
        } else {
            None
        },
    })
}

/// `tcgsim meta DIR`: the metagame of a whole matrix run's folder (read and checked as `merge`
/// reads its parts: a shard alone is refused), printed and written to `meta.csv` in `out` (the
/// folder itself by default). The resampling's seed is the run's, so it is the `meta.csv` the
/// matrix run wrote.
pub fn meta(dir: &Path, out: Option<&Path>) -> Result<ExitCode> {
    let (plan, m) = merge_matchups(&[read_part(dir)?]).map_err(|e| match e {
        Error::Usage(msg) => Error::usage(format!(
            "{}: not a whole matrix run ({msg}): merge its shards first",
            dir.display()
        )),
        e => e,
    })?;
    let meta = metagame(&plan.deck_names, &m, plan.seed);
    let out = out.unwrap_or(dir);
    check_out_dir(out)?;
    write_file(&out.join("meta.csv"), &meta_csv::write(&meta))?;
    emit(&meta.summary())?;
    note(&format!("wrote {}", out.join("meta.csv").display()));
    Ok(ExitCode::SUCCESS)
}

/// `records.jsonl` while a run plays: written into a temporary file beside it
/// (`.records.jsonl.tmpPID`), put in place with the other result files at the end
/// ([`Records::stage`], `out::commit`), so the folder keeps the previous run's records until then.
/// With a checkpoint, the temporary file stays when the run stops before that (a `--resume` reads
/// it again); without, it is removed.
struct Records {
    path: PathBuf,
    tmp: PathBuf,
    file: std::sync::Mutex<std::fs::File>,
    failure: std::sync::Mutex<Option<crate::core::WriteError>>,
    keep: bool,
    staged: std::sync::atomic::AtomicBool,
}

/// The temporary files of `records.jsonl` in its folder: this process's, and those a stopped
/// run left (`.records.jsonl.tmpPID`).
fn records_temps(path: &Path) -> Vec<PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let prefix = format!(".{name}.tmp");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Opens `records.jsonl` for a run: empty for a new run; for a resumed one, with only the records
/// of the chunks its checkpoint holds, each once, and only those that are this run's games (the
/// deal's seed the plan gives that game; a chunk that ran again, or a file of another run in the
/// same folder, would otherwise add games). Read from `records.jsonl` and from the temporary
/// files a stopped run left, a line at a time, into this run's temporary file (`keep`: a
/// checkpoint is written, see [`Records`]).
fn open_records(path: &Path, plan: &Plan, done: &[(Task, Counts)], keep: bool) -> Result<Records> {
    use crate::core::input::{for_each_line, MAX_TEXT_BYTES};
    use std::collections::HashSet;
    use std::io::Write;
    let cannot = |e: std::io::Error| anyhow!("{}: cannot write: {e}", path.display());
    let tmp = crate::sim::files::write_temp(path, "").map_err(cannot)?;
    let left: Vec<PathBuf> = records_temps(path)
        .into_iter()
        .filter(|t| *t != tmp)
        .collect();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&tmp)
        .map_err(cannot);
    let file = match file {
        Ok(f) => f,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    // From here on, a failure removes the temporary file (the drop of `r`).
    let r = Records {
        path: path.to_path_buf(),
        tmp: tmp.clone(),
        file: std::sync::Mutex::new(file),
        failure: std::sync::Mutex::new(None),
        keep: false,
        staged: std::sync::atomic::AtomicBool::new(false),
    };
    if !done.is_empty() {
        let mut file = r.file.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = std::io::BufWriter::new(&mut *file);
        let done: HashSet<Task> = done.iter().map(|(t, _)| *t).collect();
        let mut seen: HashSet<(usize, usize, u64)> = HashSet::new();
        let pos = |name: &str| plan.deck_names.iter().position(|d| d == name);
        let mut failed = None;
        let sources = std::iter::once(path.to_path_buf()).chain(left.iter().cloned());
        for source in sources.filter(|p| p.is_file()) {
            for_each_line(&source, MAX_TEXT_BYTES, |_, line| {
                // A line cut short by the interruption does not parse: its chunk runs again.
                let Ok(g) = serde_json::from_str::<GameLine>(line) else {
                    return Ok(true);
                };
                let (Some(row), Some(col), Some(k)) =
                    (pos(&g.deck_names[0]), pos(&g.deck_names[1]), g.index)
                else {
                    return Ok(true);
                };
                let chunk = k / plan.chunk;
                let ours = k < plan.games && g.seed == plan.deal(row, col, k).seed;
                if ours && done.contains(&Task { row, col, chunk }) && seen.insert((row, col, k)) {
                    if let Err(e) = writeln!(out, "{line}") {
                        failed = Some(e);
                        return Ok(false);
                    }
                }
                Ok(true)
            })?;
            if let Some(e) = failed {
                return Err(cannot(e));
            }
        }
        out.flush().map_err(cannot)?;
    }
    // What a stopped run left is in this run's file now (or, for a new run, not wanted).
    for t in left {
        let _ = std::fs::remove_file(t);
    }
    let mut r = r;
    r.keep = keep;
    Ok(r)
}

impl Records {
    /// Appends a chunk's record lines and flushes them; false if they could not be written (the
    /// first failure is kept for [`Records::take_failure`]; no more is written after it).
    fn append(&self, lines: &[String]) -> bool {
        use std::io::Write;
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if failure.is_some() {
            return false;
        }
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let text: String = lines.concat();
        if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
            *failure = Some(self.cannot(e));
            return false;
        }
        true
    }

    fn cannot(&self, e: std::io::Error) -> crate::core::WriteError {
        crate::core::WriteError::new(format!("{}: cannot write", self.path.display()), e)
    }

    /// Whether a write failed.
    fn failed(&self) -> bool {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// The failed write, if any (once).
    fn take_failure(&self) -> Option<crate::core::WriteError> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// The run is over: the file is synced and staged, to go in place with the other result files.
    fn stage(&self) -> crate::core::Result<()> {
        let f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.sync_all().map_err(|e| self.cannot(e))?;
        super::out::stage_temp(&self.tmp, &self.path, self.keep);
        self.staged.store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

impl Drop for Records {
    /// A run that stopped before its files were staged: its temporary file is removed, unless a
    /// checkpoint needs it.
    fn drop(&mut self) {
        if !self.keep && !self.staged.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
