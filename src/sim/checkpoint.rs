//! Checkpoints of a long run: every finished chunk of games is appended (and flushed) to
//! `DIR/chunks.csv` (a header line, then one line a chunk), so an interrupted run loses no
//! finished work; `--resume` reads them back. `DIR/run.txt` holds the run's fingerprint: a
//! checkpoint is only ever resumed by the same run. Each chunk's line ends with a check sum of
//! the line and the run's tag ([`line_in`]), so an edited or damaged line is refused, not resumed.

use super::fingerprint::run_tag;
use super::matrix::{Counts, Lengths, Task, LENGTH_BINS};
use crate::core::input::{read_text, Reason, MAX_CHECKPOINT_BYTES, MAX_TEXT_BYTES};
use crate::core::{Error, InputError};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// The first failed write (issue 30: a full disk once gave a warning a chunk and exit 0):
    /// nothing more is written, and the run stops ([`Checkpoint::failed`]).
    failure: Mutex<Option<crate::core::WriteError>>,
    /// The run's tag ([`run_tag`]): every line's check sum includes it.
    tag: String,
}

/// Makes `--checkpoint`'s folder `dir` (and its parents) if missing. An error names the flag and
/// the reason, an input error (exit 2): a file of that name, or a folder that cannot be made.
pub fn make_checkpoint_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| {
        let why = if dir.exists() && !dir.is_dir() {
            crate::core::input::names_a_folder("--checkpoint")
        } else {
            format!("cannot make the folder: {e}")
        };
        Error::input(format!("--checkpoint {}", dir.display()), 0, why)
    })
}

impl Checkpoint {
    /// Opens the checkpoint of the run described by `fingerprint` (one canonical line: a matrix
    /// plan's, a duel's) in `dir`. Without `resume` the folder must hold no checkpoint yet; with
    /// it, the recorded chunks of the same run are returned, each checked: `games_of(task)` is
    /// the number of games of a task of this run (`None`: not a task of this run), and a line
    /// whose task is foreign, recorded twice, or whose counts are impossible is an error naming
    /// the file and line. Only a last line cut short by an interruption is dropped (that chunk
    /// runs again).
    pub fn open(
        dir: &Path,
        fingerprint: &str,
        resume: bool,
        games_of: &dyn Fn(Task) -> Option<u64>,
    ) -> Result<(Checkpoint, Vec<(Task, Counts)>), Error> {
        // A folder or file that cannot be made is an input error (exit code 2), as it always was.
        let fail =
            |p: &Path, e: std::io::Error| Error::input(p.display().to_string(), 0, e.to_string());
        make_checkpoint_dir(dir)?;
        let path = dir.join("chunks.csv");
        let run = dir.join("run.txt");
        let mut done = Vec::new();
        let head = format!("{}\n", chunk_head(fingerprint));
        if path.exists() {
            if !resume {
                return Err(Error::input(
                    path.display().to_string(),
                    0,
                    "a checkpoint exists; add --resume to continue it, or remove it",
                ));
            }
            let text = read_own_checkpoint(dir, fingerprint)?;
            done = parse_checkpoint(&text, &path.display().to_string(), games_of)?;
            // Rewrite without a torn last line, so appends start on a fresh line.
            let mut clean = head.clone();
            for (t, c) in &done {
                clean.push_str(&line_in(&run_tag(fingerprint), *t, c));
            }
            std::fs::write(&path, clean).map_err(|e| fail(&path, e))?;
        } else {
            if resume {
                return Err(Error::input(
                    path.display().to_string(),
                    0,
                    "no checkpoint to resume",
                ));
            }
            std::fs::write(&run, format!("{fingerprint}\n")).map_err(|e| fail(&run, e))?;
            std::fs::write(&path, &head).map_err(|e| fail(&path, e))?;
        }
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| fail(&path, e))?;
        Ok((
            Checkpoint {
                path,
                file: Mutex::new(file),
                failure: Mutex::new(None),
                tag: run_tag(fingerprint),
            },
            done,
        ))
    }

    /// Records a finished chunk: one line, written and flushed at once. A failed write is kept
    /// (the first one) and nothing is written after it: the runner stops starting chunks
    /// ([`Checkpoint::failed`]) and the command ends with the error ([`Checkpoint::take_failure`]);
    /// the chunks recorded before it stay (a torn last line is dropped on `--resume`).
    pub fn record(&self, t: Task, c: &Counts) {
        let mut failure = self.failure.lock().expect("checkpoint lock");
        if failure.is_some() {
            return;
        }
        let line = line_in(&self.tag, t, c);
        let mut f = self.file.lock().expect("checkpoint lock");
        if let Err(e) = f.write_all(line.as_bytes()).and_then(|_| f.flush()) {
            *failure = Some(crate::core::WriteError::new(
                format!("{}: cannot record a chunk", self.path.display()),
                e,
            ));
        }
    }

    /// Whether a chunk could not be recorded: the run must stop.
    pub fn failed(&self) -> bool {
        self.failure.lock().expect("checkpoint lock").is_some()
    }

    /// The failed write, if any (once).
    pub fn take_failure(&self) -> Option<crate::core::WriteError> {
        self.failure.lock().expect("checkpoint lock").take()
    }
}

/// The text of the checkpoint `dir/chunks.csv` of the run `fingerprint`, once it is known to be
/// this run's ([`Checkpoint::open`] with `--resume`): `run.txt` beside it records this
/// fingerprint, and the header carries this run's tag; a checkpoint of an older format, of
/// another run, or not a checkpoint at all is an error saying which.
fn read_own_checkpoint(dir: &Path, fingerprint: &str) -> Result<String, InputError> {
    let path = dir.join("chunks.csv");
    let file = path.display().to_string();
    let run = dir.join("run.txt");
    if !run.exists() {
        return Err(InputError::new(
            dir.display().to_string(),
            0,
            "no run.txt beside chunks.csv: a checkpoint of an older tcgsim, whose games were dealt differently; remove the folder and run again",
        ));
    }
    let text = read_text(&path, MAX_CHECKPOINT_BYTES)?;
    // A checkpoint of an older format first: its fingerprint differs too, but the reason
    // is its format, not another run.
    let first = text.lines().next().unwrap_or("");
    if !first.starts_with(CHUNK_HEADER) && first.starts_with("row,col,chunk,") {
        // What the older format lacks: the check sums (2026-11-26), or the histograms too.
        let lacks = if first.contains(",lengths") {
            "its lines have no check sum"
        } else {
            "its chunks have no game-length histogram"
        };
        return Err(InputError::new(
            file,
            1,
            format!(
                "a checkpoint of an older tcgsim (header `{first}`; this one writes `{CHUNK_HEADER}`): {lacks} and cannot be resumed; remove the folder and run again"
            ),
        ));
    }
    let recorded = read_text(&run, MAX_TEXT_BYTES)?;
    if recorded.trim_end_matches('\n') != fingerprint {
        return Err(InputError::new(
            dir.display().to_string(),
            0,
            format!(
                "the checkpoint belongs to a different run (game, decks, cards, rules, agents, games, seed, chunk or shard differ):\n  recorded: {}\n  this run: {fingerprint}",
                recorded.lines().next().unwrap_or("")
            ),
        ));
    }
    // The chunks are bound to their run (issue 30: another seed's chunks.csv under an
    // intact run.txt was resumed).
    if first != chunk_head(fingerprint) {
        let msg = match first.strip_prefix(CHUNK_HEADER) {
            Some("") => "a checkpoint of an older tcgsim (its chunks are not bound to their run); remove the folder and run again".to_string(),
            Some(tag) if tag.starts_with(RUN_TAG) => format!(
                "the chunks belong to another run than this one (their tag `{}`, this run's `{}`): chunks.csv and run.txt do not go together; remove the folder and run again",
                tag.trim_start_matches(RUN_TAG),
                run_tag(fingerprint)
            ),
            _ => format!(
                "expected the header `{}` (not a tcgsim checkpoint)",
                chunk_head(fingerprint)
            ),
        };
        return Err(InputError::new(file, 1, msg));
    }
    Ok(text)
}

/// The chunks a checkpoint's text records, each checked ([`Checkpoint::open`]): its fields, its
/// check sum (under the tag of the header line; a header without a tag is read with an empty
/// tag), its task and its counts; `file` names it in errors.
pub fn parse_checkpoint(
    text: &str,
    file: &str,
    games_of: &dyn Fn(Task) -> Option<u64>,
) -> Result<Vec<(Task, Counts)>, InputError> {
    let mut lines = text.lines();
    let tag = header_tag(lines.next().unwrap_or(""), file)?;
    let count = text.lines().count();
    let mut done = Vec::new();
    let mut first_line: HashMap<Task, usize> = HashMap::new();
    for (k, line) in lines.enumerate() {
        let at = k + 2;
        let bad = |msg: String| InputError::new(file, at, msg);
        // A last line without its line break was cut short by an interruption (a chunk's line is
        // written whole, break included): that chunk runs again, even where what is left parses.
        if at == count && !text.ends_with('\n') {
            break;
        }
        let (t, c) = parse_chunk_line(tag, line).map_err(|r| bad(r.0))?;
        let games = games_of(t).ok_or_else(|| {
            bad(format!(
                "chunk {} of matchup ({}, {}) is not a task of this run",
                t.chunk, t.row, t.col
            ))
        })?;
        c.check(games)
            .map_err(|m| bad(format!("impossible counts: {m}")))?;
        if let Some(first) = first_line.insert(t, at) {
            return Err(bad(format!(
                "chunk {} of matchup ({}, {}) is recorded twice (first on line {first})",
                t.chunk, t.row, t.col
            )));
        }
        done.push((t, c));
    }
    Ok(done)
}

/// The run's tag a checkpoint's first line carries (empty for a header without one); a line
/// that is not a checkpoint's header is an error naming `file`.
fn header_tag<'a>(first: &'a str, file: &str) -> Result<&'a str, InputError> {
    if first != CHUNK_HEADER
        && !first
            .strip_prefix(CHUNK_HEADER)
            .is_some_and(|tag| tag.starts_with(RUN_TAG))
    {
        return Err(InputError::new(
            file,
            1,
            format!(
                "expected the header `{CHUNK_HEADER}` (not a tcgsim checkpoint, or one of an older version)"
            ),
        ));
    }
    Ok(first
        .strip_prefix(CHUNK_HEADER)
        .and_then(|t| t.strip_prefix(RUN_TAG))
        .unwrap_or(""))
}

/// One chunk's line ([`line_in`]) read back under the run's `tag`: its check sum verified, its
/// task and counts (not yet checked against the run); the error says what is wrong with it.
fn parse_chunk_line(tag: &str, line: &str) -> Result<(Task, Counts), Reason> {
    let Some((body, sum)) = line.rsplit_once(',') else {
        return Err("malformed checkpoint line".into());
    };
    if sum != line_sum(tag, body) {
        return Err(
            "the line's check sum does not match it: the line was edited or damaged; remove the folder and run again".into(),
        );
    }
    let parsed = body.rsplit_once(',').and_then(|(nums, lengths)| {
        let f = nums
            .split(',')
            .map(str::parse)
            .collect::<Result<Vec<u64>, _>>()
            .ok()?;
        (f.len() == 10).then_some(())?;
        Some((f, parse_lengths(lengths)?))
    });
    let Some((f, lengths)) = parsed else {
        return Err("malformed checkpoint line".into());
    };
    let t = Task {
        row: usize::try_from(f[0]).unwrap_or(usize::MAX),
        col: usize::try_from(f[1]).unwrap_or(usize::MAX),
        chunk: f[2],
    };
    let c = Counts {
        games: f[3],
        wins: f[4],
        losses: f[5],
        draws: f[6],
        first_player_wins: f[7],
        turns: f[8],
        decisions: f[9],
        lengths,
    };
    Ok((t, c))
}

/// The header of `chunks.csv`.
/// What follows the header on a checkpoint's first line: the run's tag ([`chunk_head`]).
const RUN_TAG: &str = " # run ";

/// The first line of the checkpoint of the run `fingerprint`: the header and the run's tag, so a
/// chunks.csv is resumed only by the run that wrote it, whatever run.txt says.
pub fn chunk_head(fingerprint: &str) -> String {
    format!("{CHUNK_HEADER}{RUN_TAG}{}", run_tag(fingerprint))
}

pub const CHUNK_HEADER: &str =
    "row,col,chunk,games,wins,losses,draws,first_player_wins,turns,decisions,lengths,sum";

/// A line's check sum: a 64-bit FNV-1a hash, in hex, of the run's tag, a comma and the line's
/// fields before the sum (issue 30: lines with an edited `decisions` or `first_player_wins` were
/// resumed). It guards against edits and damage, not against someone who recomputes it.
pub fn line_sum(tag: &str, body: &str) -> String {
    let bytes = tag.bytes().chain(std::iter::once(b',')).chain(body.bytes());
    format!("{:016x}", crate::core::fnv1a(bytes))
}

/// A histogram as a checkpoint writes it: its nonzero bins in order, `TURNS:GAMES` separated by
/// spaces (the last bin's turns are [`LENGTH_BINS`], meaning that many or more).
pub fn lengths_field(h: &Lengths) -> String {
    h.nonzero()
        .map(|(k, c)| format!("{}:{c}", Lengths::turns_of(k)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads [`lengths_field`] back; only its canonical form (bins in increasing order, each once,
/// no zero count) is accepted.
pub fn parse_lengths(s: &str) -> Option<Lengths> {
    let mut h = Lengths::default();
    let mut last: Option<usize> = None;
    for part in s.split(' ').filter(|_| !s.is_empty()) {
        let (t, c) = part.split_once(':')?;
        let t: usize = t.parse().ok()?;
        let c: u64 = c.parse().ok()?;
        if !(1..=LENGTH_BINS).contains(&t) || c == 0 || last.is_some_and(|l| l >= t - 1) {
            return None;
        }
        h.0[t - 1] = c;
        last = Some(t - 1);
    }
    Some(h)
}

/// The checkpoint line of a finished task in a checkpoint whose header has no run tag (as
/// [`line_in`] with an empty tag).
pub fn line_of(t: Task, c: &Counts) -> String {
    line_in("", t, c)
}

/// The checkpoint line of a finished task of the run tagged `tag`: `row,col,chunk,games,wins,
/// losses,draws,first_player_wins,turns,decisions,lengths,sum` ([`lengths_field`], [`line_sum`]).
pub fn line_in(tag: &str, t: Task, c: &Counts) -> String {
    let body = format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        t.row,
        t.col,
        t.chunk,
        c.games,
        c.wins,
        c.losses,
        c.draws,
        c.first_player_wins,
        c.turns,
        c.decisions,
        lengths_field(&c.lengths)
    );
    let sum = line_sum(tag, &body);
    format!("{body},{sum}\n")
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
/// tasks `all` ([`Checkpoint::open`]; `games_of` gives each task's games), and splits `all` into
/// what is done and what is left. A recorded task outside `all` is an error.
pub fn resume_run(
    dir: Option<&Path>,
    fingerprint: &str,
    resume: bool,
    all: &[Task],
    games_of: &dyn Fn(Task) -> u64,
) -> Result<Resumed, Error> {
    let wanted: HashMap<Task, u64> = all.iter().map(|&t| (t, games_of(t))).collect();
    let (checkpoint, done) = match dir {
        Some(dir) => {
            let (c, done) =
                Checkpoint::open(dir, fingerprint, resume, &|t| wanted.get(&t).copied())?;
            (Some(c), done)
        }
        None => (None, Vec::new()),
    };
    let seen: HashSet<Task> = done.iter().map(|(t, _)| *t).collect();
    let todo = all.iter().filter(|t| !seen.contains(t)).copied().collect();
    Ok(Resumed {
        checkpoint,
        done,
        todo,
    })
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

/// Parses `I/N` (1 ≤ I ≤ N ≤ [`MAX_SHARDS`]).
/// The error is a [`Reason`] (a usage error: [`Error::Usage`] once converted).
pub fn parse_shard(s: &str) -> Result<(u64, u64), Reason> {
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
        return Err(format!("--shard {i}/{n}: need 1 ≤ I ≤ N").into());
    }
    if n > MAX_SHARDS {
        return Err(format!("--shard {i}/{n}: at most {MAX_SHARDS} shards").into());
    }
    Ok((i, n))
}

/// The shard from the environment of a cluster job, when `--shard` is not given: Slurm array jobs
/// (`SLURM_ARRAY_TASK_ID` counting from 0 or 1 as `SLURM_ARRAY_TASK_MIN` says,
/// `SLURM_ARRAY_TASK_COUNT`; a stepped array is refused), or Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX` from 0, with
/// `shards` given by `--shards`).
pub fn shard_from_env(
    get: impl Fn(&str) -> Option<String>,
    shards: Option<u64>,
) -> Result<Option<(u64, u64)>, Reason> {
    let num = |k: &str| -> Result<Option<u64>, Reason> {
        match get(k) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| Reason(format!("{k}=\"{v}\" is not a whole number"))),
        }
    };
    if let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?) {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        // A stepped array (`--array=1-9:2`) numbers its tasks 1, 3, 5…: ID − MIN + 1 would name
        // shards that do not exist and leave others unplayed.
        if let Some(step) = num("SLURM_ARRAY_TASK_STEP")?.filter(|&s| s != 1) {
            return Err(format!(
                "SLURM_ARRAY_TASK_STEP={step}: a stepped Slurm array cannot number the shards; submit a contiguous one (--array=1-N) or give --shard I/N"
            )
            .into());
        }
        let i = id.checked_sub(min).ok_or(Reason::new(
            "SLURM_ARRAY_TASK_ID below SLURM_ARRAY_TASK_MIN",
        ))? + 1;
        return parse_shard(&format!("{i}/{count}")).map(Some);
    }
    if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
        let n = shards.ok_or(Reason::new(
            "JOB_COMPLETION_INDEX is set: give the number of shards with --shards N",
        ))?;
        return parse_shard(&format!("{}/{n}", idx + 1)).map(Some);
    }
    if let Some(n) = shards {
        // Running every shard in every pod would silently repeat the whole run N times.
        return Err(format!(
            "--shards {n} needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or Slurm's \
             SLURM_ARRAY_TASK_ID; on one machine use --shard I/{n}"
        )
        .into());
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

    /// Slurm arrays: ID − MIN + 1 of COUNT; a stepped array (IDs 1, 3, 5) is refused, since it
    /// would run shards 1, 3, 5 of 3 (two of which do not exist) and never shard 2.
    #[test]
    fn slurm_arrays_name_their_shard_and_stepped_ones_are_refused() {
        fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<String> + 'a {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        }
        let plain = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
        ];
        assert_eq!(shard_from_env(env(&plain), None), Ok(Some((3, 4))));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        let e = shard_from_env(env(&stepped), None).unwrap_err();
        assert!(
            e.starts_with("SLURM_ARRAY_TASK_STEP=2: a stepped Slurm array"),
            "{e}"
        );
    }

    /// A checkpoint of another run, or of an older tcgsim (no run.txt), is not resumed.
    #[test]
    fn a_checkpoint_of_another_run_is_refused() {
        let dir = std::env::temp_dir().join(format!("tcgsim-other-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let all: Vec<Task> = (0..2).map(task).collect();
        drop(resume_run(Some(&dir), "run A", false, &all, &|_| 5).unwrap());
        let e = resume_run(Some(&dir), "run B", true, &all, &|_| 5)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("belongs to a different run") && e.contains("this run: run B"),
            "{e}"
        );
        // Run B's run.txt over run A's chunks: the chunks' tag says whose they are.
        std::fs::write(dir.join("run.txt"), "run B\n").unwrap();
        let e = resume_run(Some(&dir), "run B", true, &all, &|_| 5)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains(":1: the chunks belong to another run")
                && e.contains(&run_tag("run A"))
                && e.contains(&run_tag("run B")),
            "{e}"
        );
        // A header without a tag: an older checkpoint.
        std::fs::write(dir.join("run.txt"), "run A\n").unwrap();
        std::fs::write(dir.join("chunks.csv"), format!("{CHUNK_HEADER}\n")).unwrap();
        let e = resume_run(Some(&dir), "run A", true, &all, &|_| 5)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not bound to their run"), "{e}");
        std::fs::remove_file(dir.join("run.txt")).unwrap();
        let e = resume_run(Some(&dir), "run A", true, &all, &|_| 5)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("a checkpoint of an older tcgsim"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn resume_run_checks_every_recorded_chunk() {
        let all: Vec<Task> = (0..5).map(task).collect();
        let five = |_: Task| 5;
        let r = resume_run(None, "run", false, &all, &five).unwrap();
        assert!(r.checkpoint.is_none() && r.done.is_empty());
        assert_eq!(r.todo, all);

        let dir = std::env::temp_dir().join(format!("tcgsim-resume-{}", std::process::id()));
        let c = |wins| Counts {
            games: 5,
            wins,
            losses: 5 - wins,
            turns: 40,
            lengths: {
                let mut h = Lengths::default();
                h.0[7] = 5;
                h
            },
            ..Default::default()
        };
        let record = |lines: &[(u64, Counts)]| {
            let _ = std::fs::remove_dir_all(&dir);
            let (ck, _) = Checkpoint::open(&dir, "run", false, &|_| Some(5)).unwrap();
            for (t, n) in lines {
                ck.record(task(*t), n);
            }
        };
        record(&[(3, c(1)), (1, c(3))]);
        let r = resume_run(Some(&dir), "run", true, &all, &five).unwrap();
        assert_eq!(r.done, vec![(task(3), c(1)), (task(1), c(3))]);
        assert_eq!(r.todo, vec![task(0), task(2), task(4)]);
        // A chunk recorded twice, a chunk of another run (or shard), impossible counts.
        let path = dir.join("chunks.csv");
        for (lines, why) in [
            (
                vec![(3, c(1)), (1, c(3)), (3, c(1))],
                ":4: chunk 3 of matchup (0, 1) is recorded twice (first on line 2)",
            ),
            (
                vec![(9, c(1))],
                ":2: chunk 9 of matchup (0, 1) is not a task of this run",
            ),
            (
                vec![(
                    2,
                    Counts {
                        draws: 65536,
                        ..c(5)
                    },
                )],
                ":2: impossible counts: wins 5 + losses 0 + draws 65536 differ from 5 games",
            ),
            (
                vec![(2, Counts { games: 4, ..c(4) })],
                ":2: impossible counts: 4 games where 5 were played",
            ),
            (
                vec![(
                    2,
                    Counts {
                        decisions: u64::MAX,
                        ..c(5)
                    },
                )],
                ":2: impossible counts: 18446744073709551615 decisions in 5 games",
            ),
            (
                vec![(2, Counts { turns: 4, ..c(5) })],
                ":2: impossible counts: 4 turns in 5 games",
            ),
            (
                vec![(2, Counts { turns: 41, ..c(5) })],
                ":2: impossible counts: the game-length histogram's games last 40 turns, not 41",
            ),
            (
                vec![(
                    2,
                    Counts {
                        lengths: Lengths::default(),
                        ..c(5)
                    },
                )],
                ":2: impossible counts: the game-length histogram holds 0 games where 5 were played",
            ),
        ] {
            record(&lines);
            let e = resume_run(Some(&dir), "run", true, &all, &five)
                .err()
                .unwrap().to_string();
            assert_eq!(e, format!("{}{why}", path.display()));
        }
        // A line whose histogram is not canonical (bins out of order) is malformed.
        record(&[]);
        let tag = run_tag("run");
        let body = line_in(&tag, task(1), &c(3));
        let body = body.rsplit_once(',').unwrap().0.replace(",8:5", ",9:0 8:5");
        let line = format!("{body},{}\n", line_sum(&tag, &body));
        std::fs::write(&path, format!("{}\n{line}", chunk_head("run"))).unwrap();
        let e = resume_run(Some(&dir), "run", true, &all, &five)
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            e,
            format!("{}:2: malformed checkpoint line", path.display())
        );
        // Issue 30: a line with an edited count that is still possible (decisions, first-player
        // wins) is refused by its check sum; the same line unedited is resumed.
        record(&[(1, c(3))]);
        let good = std::fs::read_to_string(&path).unwrap();
        assert!(resume_run(Some(&dir), "run", true, &all, &five).is_ok());
        for (from, to) in [(",0,40,0,", ",0,40,7,"), (",2,0,0,40,", ",2,0,1,40,")] {
            assert!(good.contains(from), "{good}");
            std::fs::write(&path, good.replacen(from, to, 1)).unwrap();
            let e = resume_run(Some(&dir), "run", true, &all, &five)
                .err()
                .unwrap()
                .to_string();
            assert_eq!(
                e,
                format!(
                    "{}:2: the line's check sum does not match it: the line was edited or damaged; remove the folder and run again",
                    path.display()
                )
            );
        }
        // The same lines under another run's tag (header edited to match run.txt) fail too.
        let other = good.replacen(&run_tag("run"), &run_tag("other"), 1);
        assert!(parse_checkpoint(&other, "f", &|_| Some(5))
            .unwrap_err()
            .to_string()
            .contains("check sum"));
        // A checkpoint of the format before histograms: refused for its format.
        let old = "row,col,chunk,games,wins,losses,draws,first_player_wins,turns,decisions";
        std::fs::write(&path, format!("{old}\n0,1,1,5,3,2,0,0,40,0\n")).unwrap();
        let e = resume_run(Some(&dir), "other run", true, &all, &five)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "{}:1: a checkpoint of an older tcgsim",
                path.display()
            )) && e.contains("no game-length histogram"),
            "{e}"
        );
        // Another run's checkpoint is refused.
        record(&[]);
        let e = resume_run(Some(&dir), "other run", true, &all, &five)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("belongs to a different run"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 30: a checkpoint that cannot be written (a full disk) keeps its first error, writes
    /// nothing after it and says the run must stop; before, each chunk printed a warning and the
    /// run ended with exit 0.
    #[test]
    fn a_failed_checkpoint_write_is_kept_and_stops_the_run() {
        let dev_full = std::path::Path::new("/dev/full");
        if !dev_full.exists() {
            return; // not Linux: nothing to write to that always fails
        }
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(dev_full)
            .unwrap();
        let ck = Checkpoint {
            path: dev_full.to_path_buf(),
            file: Mutex::new(file),
            failure: Mutex::new(None),
            tag: run_tag("run"),
        };
        assert!(!ck.failed());
        let t = Task {
            row: 0,
            col: 0,
            chunk: 0,
        };
        ck.record(t, &Counts::default());
        assert!(ck.failed());
        ck.record(t, &Counts::default());
        let e = ck.take_failure().expect("the first failure is kept");
        assert_eq!(e.what, "/dev/full: cannot record a chunk");
        assert_eq!(e.source.raw_os_error(), Some(28), "ENOSPC: {}", e.source);
        assert!(ck.take_failure().is_none());
    }
}
