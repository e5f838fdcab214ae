//! Writing what a command prints. A closed pipe (`tcgsim … | head`) or a full disk is an error
//! with exit code 1 — never a panic, as `print!` would be.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::{Error, Result, WriteError};

/// Writes `text` to standard output and flushes it. A failure is an [`Error::Write`].
pub fn emit(text: &str) -> Result<()> {
    let mut o = std::io::stdout().lock();
    o.write_all(text.as_bytes())
        .and_then(|_| o.flush())
        .map_err(|e| WriteError::new("cannot write to standard output", e).into())
}

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no progress and no notes from now on (errors are still written).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note on standard error (what was written, a resumed run), unless `--quiet`. Its failure is
/// ignored: a message must never stop a run.
pub fn note(text: &str) {
    if !quiet() {
        let _ = writeln!(std::io::stderr().lock(), "{text}");
    }
}

/// An error message on standard error, even with `--quiet`.
pub fn error(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Result files written but not yet in place: the run's output folder (the first `--out` checked,
/// [`stage`]) and, for each file written into it, its temporary file and its place.
#[derive(Default)]
struct Staged {
    dir: Option<std::path::PathBuf>,
    pending: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    /// Temporary files that stay when the files are dropped ([`stage_temp`]).
    keep: Vec<std::path::PathBuf>,
}

static STAGED: std::sync::Mutex<Staged> = std::sync::Mutex::new(Staged {
    dir: None,
    pending: Vec::new(),
    keep: Vec::new(),
});

fn staged() -> std::sync::MutexGuard<'static, Staged> {
    STAGED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes `dir` the run's output folder, unless one was named before (a checkpoint folder checked
/// after `--out` is not one): the result files written into it wait, each complete in a
/// temporary file, until [`commit`] puts them all in place together (issue 30: a full `--out`
/// left a half-written folder).
pub fn stage(dir: &std::path::Path) {
    let mut s = staged();
    if s.dir.is_none() {
        s.dir = Some(dir.to_path_buf());
    }
}

/// Writes a result file: into a temporary file beside it (`.NAME.tmpPID`, removed if the write
/// fails), then in its place — at once, or, in the run's output folder, at [`commit`]. A failure
/// names the file; the files of the output folder written before it are dropped, so the folder
/// keeps the previous run's files.
pub fn write_result(path: &std::path::Path, text: &str, now: bool) -> Result<()> {
    let cannot = |e| {
        Error::from(WriteError::new(
            format!("{}: cannot write", path.display()),
            e,
        ))
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let tmp = match crate::sim::files::write_temp(path, text) {
        Ok(tmp) => tmp,
        Err(e) => {
            discard();
            return Err(cannot(e));
        }
    };
    let mut s = staged();
    if !now && s.dir.as_deref() == Some(dir) {
        if !s.pending.iter().any(|(_, p)| p == path) {
            s.pending.push((tmp, path.to_path_buf()));
        }
        return Ok(());
    }
    drop(s);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        cannot(e)
    })
}

/// Stages a result file already written complete into the temporary file `tmp` beside `path`
/// (`matrix --records`): it goes in place with the others at [`commit`]. With `keep`, `tmp` is
/// not removed if the files are dropped (a `--resume` reads it again).
pub fn stage_temp(tmp: &std::path::Path, path: &std::path::Path, keep: bool) {
    let mut s = staged();
    s.pending.retain(|(_, p)| p != path);
    s.pending.push((tmp.to_path_buf(), path.to_path_buf()));
    if keep {
        s.keep.push(tmp.to_path_buf());
    }
}

/// Puts the output folder's written files in place. If one cannot be, those already moved are
/// moved back (each file it replaced was kept as `.NAME.oldPID` until then) and the error names
/// it.
///
/// The commit that puts a run's `run.json` in place first removes from the folder every tcgsim
/// result file that the run did not write ([`stale`]; `docs/cli.md`, "One folder, one run"):
/// each is moved aside as `.NAME.oldPID` before the run's files go in place, put back if they
/// cannot, and removed once they are. One that cannot be moved aside is left in place, with a
/// warning naming it: the run's files still go in place, and its `run.json` lists them
/// (`files`), so `report` does not read the file left. A commit that puts files in the folder
/// first removes the files that an earlier commit there, killed before it ended, left set aside
/// ([`crate::sim::files::set_aside_leftovers`]).
pub fn commit() -> Result<()> {
    let (dir, pending, keep) = {
        let mut s = staged();
        (
            s.dir.clone(),
            std::mem::take(&mut s.pending),
            std::mem::take(&mut s.keep),
        )
    };
    for (p, e) in put_in_place(dir.as_deref(), &pending, &keep)? {
        error(&format!(
            "warning: {}: a result file of an earlier run, left in place: it cannot be set aside ({e}); this run's run.json does not list it, so `tcgsim report` does not read it",
            p.display()
        ));
    }
    Ok(())
}

/// [`commit`] of the files `pending` (temporary file, place) into the output folder `dir`, the
/// temporary files `keep` kept if they are dropped: the stale files that could not be set aside,
/// each with its error, when the run's files are in place.
fn put_in_place(
    dir: Option<&std::path::Path>,
    pending: &[(std::path::PathBuf, std::path::PathBuf)],
    keep: &[std::path::PathBuf],
) -> Result<Vec<(std::path::PathBuf, std::io::Error)>> {
    let old = |p: &std::path::Path| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        p.with_file_name(format!(".{name}.old{}", std::process::id()))
    };
    let dir = dir.filter(|d| pending.iter().any(|(_, p)| p.parent() == Some(*d)));
    if let Some(d) = dir {
        for p in crate::sim::files::set_aside_leftovers(d) {
            if std::fs::remove_file(&p).is_ok() {
                note(&format!(
                    "removed {}, set aside by an interrupted run",
                    p.display()
                ));
            }
        }
    }
    let stale = dir.map_or_else(Vec::new, |d| list_and_find_stale(d, pending));
    let mut aside: Vec<&std::path::PathBuf> = Vec::new();
    let mut left = Vec::new();
    let mut done: Vec<(&std::path::PathBuf, bool)> = Vec::new();
    // Every move undone, the temporary files dropped, and the error naming `path`.
    let undo = |aside: Vec<&std::path::PathBuf>,
                done: Vec<(&std::path::PathBuf, bool)>,
                what: String,
                e: std::io::Error| {
        for (p, kept) in done {
            let _ = if kept {
                std::fs::rename(old(p), p)
            } else {
                std::fs::remove_file(p)
            };
        }
        for p in aside {
            let _ = std::fs::rename(old(p), p);
        }
        for (tmp, _) in pending.iter().filter(|(t, _)| !keep.contains(t)) {
            let _ = std::fs::remove_file(tmp);
        }
        Err(WriteError::new(what, e).into())
    };
    for p in &stale {
        match std::fs::rename(p, old(p)) {
            Ok(()) => aside.push(p),
            Err(e) => left.push((p.clone(), e)),
        }
    }
    for (tmp, path) in pending {
        let kept = path.is_file() && std::fs::hard_link(path, old(path)).is_ok();
        if let Err(e) = std::fs::rename(tmp, path) {
            if kept {
                let _ = std::fs::remove_file(old(path));
            }
            return undo(aside, done, format!("{}: cannot write", path.display()), e);
        }
        done.push((path, kept));
    }
    for (p, kept) in done {
        if kept {
            let _ = std::fs::remove_file(old(p));
        }
    }
    for p in aside {
        let _ = std::fs::remove_file(old(p));
    }
    Ok(left)
}

/// The files of the output folder `dir` that a run's commit removes: when `pending` (the files
/// this commit puts in place) holds the folder's `run.json`, those
/// [`crate::sim::files::stale_result_files`] names for the command of that `run.json` — the
/// result files of an earlier run of the same command that this run does not write; otherwise
/// (`meta`, `play`, a run that failed before its `run.json`, the report a run writes after its
/// files) none. Before that, the staged `run.json` is given the list of the files this commit
/// puts in the folder ([`crate::sim::files::list_run_files`]).
fn list_and_find_stale(
    dir: &std::path::Path,
    pending: &[(std::path::PathBuf, std::path::PathBuf)],
) -> Vec<std::path::PathBuf> {
    let in_dir = || pending.iter().filter(|(_, p)| p.parent() == Some(dir));
    let Some((tmp, path)) = in_dir().find(|(_, p)| p.file_name() == Some("run.json".as_ref()))
    else {
        return Vec::new();
    };
    let files = in_dir()
        .filter_map(|(_, p)| p.file_name()?.to_str().map(str::to_string))
        .collect();
    match crate::sim::files::list_run_files(tmp, path, files) {
        Some(command) => crate::sim::files::stale_result_files(dir, &command, |name| {
            in_dir().any(|(_, p)| p.file_name() == Some(name))
        }),
        None => Vec::new(),
    }
}

/// Drops the output folder's written files (their temporary files are removed).
pub fn discard() {
    let mut s = staged();
    let (pending, keep) = (std::mem::take(&mut s.pending), std::mem::take(&mut s.keep));
    for (tmp, _) in pending.into_iter().filter(|(t, _)| !keep.contains(t)) {
        let _ = std::fs::remove_file(tmp);
    }
}

/// Refuses (bad input, exit code 2) a merge (`merge`, `pool --merge`) whose `--out` is one of its
/// shard folders `parts`: its commit would replace the shard's files (`merge` would remove its
/// `records.jsonl`, `pool` its `run.json` that a later merge checks; `docs/cli.md`, "One
/// folder, one run"). The folders are compared as canonical paths, so `./s1`, `s1/` or a link
/// to `s1` is `s1`; an `--out` that does not exist yet is no shard.
pub fn refuse_out_among_parts(parts: &[std::path::PathBuf], out: &std::path::Path) -> Result<()> {
    let Ok(out_c) = out.canonicalize() else {
        return Ok(());
    };
    for p in parts {
        if p.canonicalize().is_ok_and(|c| c == out_c) {
            return Err(Error::usage(format!(
                "--out {}: it is the folder of shard {}; a merge writes its files into another folder (its --out replaces the files of the run there)",
                out.display(),
                p.display()
            ))
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::files::run_json::RunInfo;

    /// A stale file that cannot be set aside (a folder of its set-aside name, `.arena.csv.oldPID`,
    /// holds a file) does not stop the run: its files go in place, the stale file is left, the
    /// other stale file is removed, and the new `run.json` lists the run's files, so the file
    /// left is not read as the run's. Before, the commit failed and dropped the run's files.
    #[test]
    fn a_stale_file_that_cannot_be_set_aside_is_left_and_not_listed() {
        let dir = std::env::temp_dir().join(format!("tcgsim-out-left-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let json = |command: &str| {
            RunInfo {
                command: command.into(),
                ..Default::default()
            }
            .to_json()
        };
        std::fs::write(dir.join("run.json"), json("arena")).unwrap();
        std::fs::write(dir.join("arena.csv"), "the earlier arena\n").unwrap();
        std::fs::write(dir.join("arena_pairs.csv"), "the earlier pairs\n").unwrap();
        let blocker = dir.join(format!(".arena.csv.old{}", std::process::id()));
        std::fs::create_dir_all(&blocker).unwrap();
        std::fs::write(blocker.join("x"), "").unwrap();

        stage(&dir);
        write_result(&dir.join("sprt.csv"), "the new sprt\n", false).unwrap();
        write_result(&dir.join("run.json"), &json("arena --sprt"), false).unwrap();
        commit().unwrap();

        let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
        assert_eq!(read("sprt.csv"), "the new sprt\n");
        assert_eq!(read("arena.csv"), "the earlier arena\n", "the file left");
        assert!(!dir.join("arena_pairs.csv").exists(), "a stale file kept");
        let info = RunInfo::parse(&read("run.json"), "run.json").unwrap();
        assert_eq!(info.command, "arena --sprt");
        assert_eq!(
            info.files,
            Some(vec!["run.json".to_string(), "sprt.csv".to_string()])
        );
        assert!(crate::sim::files::read_file(&dir, "arena.csv")
            .unwrap()
            .is_none());
        assert!(crate::sim::files::read_file(&dir, "sprt.csv")
            .unwrap()
            .is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
