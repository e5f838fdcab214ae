//! Checkpoints of a long run: every finished chunk of games is appended (and flushed) to
//! `DIR/chunks.csv`, so an interrupted run loses no finished work; `--resume` reads them back.

use super::matrix::{Counts, Task};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl Checkpoint {
    /// Opens the checkpoint of the run described by `fingerprint` (one canonical line: a matrix
    /// plan's, a duel's) in `dir`. Without `resume` the folder must hold no checkpoint yet; with
    /// it, the recorded chunks of the same run are returned.
    pub fn open(
        dir: &Path,
        fingerprint: &str,
        resume: bool,
    ) -> Result<(Checkpoint, Vec<(Task, Counts)>), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join("chunks.csv");
        let mut done = Vec::new();
        let head = format!("# {fingerprint}\n");
        if path.exists() {
            if !resume {
                return Err(format!(
                    "{}: a checkpoint exists; add --resume to continue it, or remove it",
                    path.display()
                ));
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut lines = text.lines();
            if lines.next().map(|l| format!("{l}\n")) != Some(head.clone()) {
                return Err(format!(
                    "{}: the checkpoint belongs to a different run (decks, agents, games or seed differ)",
                    path.display()
                ));
            }
            for (k, line) in lines.enumerate() {
                let f: Vec<u64> = match line
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<Vec<u64>, _>>()
                {
                    Ok(f) if f.len() == 10 => f,
                    // A line cut short by an interruption: that chunk runs again.
                    _ if k + 2 == text.lines().count() && !text.ends_with('\n') => break,
                    _ => {
                        return Err(format!(
                            "{}:{}: malformed checkpoint line",
                            path.display(),
                            k + 2
                        ))
                    }
                };
                done.push((
                    Task {
                        row: f[0] as usize,
                        col: f[1] as usize,
                        chunk: f[2],
                    },
                    Counts {
                        games: f[3],
                        wins: f[4],
                        losses: f[5],
                        draws: f[6],
                        first_player_wins: f[7],
                        turns: f[8],
                        decisions: f[9],
                    },
                ));
            }
            // Rewrite without a torn last line, so appends start on a fresh line.
            let mut clean = head.clone();
            for (t, c) in &done {
                clean.push_str(&line_of(*t, c));
            }
            std::fs::write(&path, clean).map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            if resume {
                return Err(format!("{}: no checkpoint to resume", path.display()));
            }
            std::fs::write(&path, &head).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((
            Checkpoint {
                path,
                file: Mutex::new(file),
            },
            done,
        ))
    }

    /// Records a finished chunk: one line, written and flushed at once.
    pub fn record(&self, t: Task, c: &Counts) {
        let line = line_of(t, c);
        let mut f = self.file.lock().expect("checkpoint lock");
        if let Err(e) = f.write_all(line.as_bytes()).and_then(|_| f.flush()) {
            eprintln!(
                "warning: {}: cannot record a chunk: {e}",
                self.path.display()
            );
        }
    }
}

fn line_of(t: Task, c: &Counts) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{}\n",
        t.row,
        t.col,
        t.chunk,
        c.games,
        c.wins,
        c.losses,
        c.draws,
        c.first_player_wins,
        c.turns,
        c.decisions
    )
}

/// Where a run of the tasks `all` starts: its checkpoint when one is asked for, the tasks of `all`
/// that checkpoint records as done (each once, with its counts), and the tasks left to play, in
/// the order of `all`.
pub struct Resumed {
    pub checkpoint: Option<Checkpoint>,
    pub done: Vec<(Task, Counts)>,
    pub todo: Vec<Task>,
}

/// Opens the checkpoint in `dir` (none when `dir` is `None`) of the run `fingerprint` made of the
/// tasks `all` ([`Checkpoint::open`]), and splits `all` into what is done and what is left.
pub fn resume_run(
    dir: Option<&Path>,
    fingerprint: &str,
    resume: bool,
    all: &[Task],
) -> Result<Resumed, String> {
    let (checkpoint, recorded) = match dir {
        Some(dir) => {
            let (c, done) = Checkpoint::open(dir, fingerprint, resume)?;
            (Some(c), done)
        }
        None => (None, Vec::new()),
    };
    let wanted: HashSet<Task> = all.iter().copied().collect();
    let mut seen = HashSet::new();
    let done: Vec<(Task, Counts)> = recorded
        .into_iter()
        .filter(|(t, _)| wanted.contains(t) && seen.insert(*t))
        .collect();
    let todo = all.iter().filter(|t| !seen.contains(t)).copied().collect();
    Ok(Resumed {
        checkpoint,
        done,
        todo,
    })
}

/// Parses `I/N` (1 ≤ I ≤ N).
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("--shard \"{s}\": expected I/N, e.g. 2/8"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("--shard \"{s}\": I is not a whole number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("--shard \"{s}\": N is not a whole number"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("--shard {i}/{n}: need 1 ≤ I ≤ N"));
    }
    Ok((i, n))
}

/// The shard from the environment of a cluster job, when `--shard` is not given: Slurm array jobs
/// (`SLURM_ARRAY_TASK_ID` counting from 0 or 1 as `SLURM_ARRAY_TASK_MIN` says,
/// `SLURM_ARRAY_TASK_COUNT`), or Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX` from 0, with
/// `shards` given by `--shards`).
pub fn shard_from_env(
    get: impl Fn(&str) -> Option<String>,
    shards: Option<u64>,
) -> Result<Option<(u64, u64)>, String> {
    let num = |k: &str| -> Result<Option<u64>, String> {
        match get(k) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("{k}=\"{v}\" is not a whole number")),
        }
    };
    if let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?) {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let i = id
            .checked_sub(min)
            .ok_or("SLURM_ARRAY_TASK_ID below SLURM_ARRAY_TASK_MIN")?
            + 1;
        return parse_shard(&format!("{i}/{count}")).map(Some);
    }
    if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
        let n = shards
            .ok_or("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N")?;
        return parse_shard(&format!("{}/{n}", idx + 1)).map(Some);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(chunk: u64) -> Task {
        Task {
            row: 0,
            col: 1,
            chunk,
        }
    }

    #[test]
    fn resume_run_keeps_each_recorded_task_of_the_run_once_and_leaves_the_rest_in_order() {
        let all: Vec<Task> = (0..5).map(task).collect();
        let r = resume_run(None, "run", false, &all).unwrap();
        assert!(r.checkpoint.is_none() && r.done.is_empty());
        assert_eq!(r.todo, all);

        let dir = std::env::temp_dir().join(format!("tcgsim-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let c = |games| Counts {
            games,
            ..Default::default()
        };
        let (ck, _) = Checkpoint::open(&dir, "run", false).unwrap();
        // Task 3 twice, and a task of another shard (chunk 9) that this run does not play.
        for (t, n) in [(3, 1), (9, 2), (1, 3), (3, 4)] {
            ck.record(task(t), &c(n));
        }
        drop(ck);
        let r = resume_run(Some(&dir), "run", true, &all).unwrap();
        assert_eq!(r.done, vec![(task(3), c(1)), (task(1), c(3))]);
        assert_eq!(r.todo, vec![task(0), task(2), task(4)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
