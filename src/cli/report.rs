//! `tcgsim report DIR…`: one self-contained HTML page from run folders (`crate::report`), or, for
//! a folder that holds run folders (`results/`, each command's default `--out` below it), each
//! run folder's page and an index linking them; and the report every result command writes at its
//! end (`results/<command>/report.html`).

use super::note;
use crate::report::index;
use crate::sim::files::run_json::RunInfo;
use anyhow::{anyhow, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tcgsim report`: the page of `dirs`, written to `out` (default: `report.html` in the first
/// folder). One folder that is no run folder but holds some: [`index`].
pub fn report(dirs: &[PathBuf], out: Option<&Path>) -> Result<ExitCode> {
    let out = out.map_or_else(|| dirs[0].join("report.html"), Path::to_path_buf);
    if let [dir] = dirs {
        if dir.is_dir() && !index::is_run_folder(dir) {
            let runs = index::run_folders(dir).map_err(|e| anyhow!(e))?;
            if !runs.is_empty() {
                return self::index(dir, &runs, &out);
            }
        }
    }
    crate::report::write(dirs, &out).map_err(lift)?;
    note(&format!("wrote {}", out.display()));
    Ok(ExitCode::SUCCESS)
}

/// `tcgsim report DIR` for a folder of run folders: each run folder's `report.html` written
/// again, then an index page at `out` linking them (issue 30: `report results` showed only the
/// last command's run).
fn index(dir: &Path, runs: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let mut read = Vec::new();
    for r in runs {
        after_run(r)?;
        let file = r.join("run.json");
        let text = crate::core::input::read_text(&file, crate::core::input::MAX_TEXT_BYTES)?;
        let info = RunInfo::parse(&text, &file.display().to_string())?;
        read.push((r.clone(), info));
    }
    // Links relative to the index where it lies in `dir`, else to where the reports are.
    let beside = out.parent().is_some_and(|p| same_folder(p, dir));
    let link = |run: &Path| -> PathBuf {
        let page = run.join("report.html");
        match (beside, page.strip_prefix(dir)) {
            (true, Ok(rel)) => rel.to_path_buf(),
            _ => std::path::absolute(&page).unwrap_or(page),
        }
    };
    let html = index::page(dir, &read, &link);
    super::write_file(out, &html)?;
    note(&format!(
        "wrote {} (an index of {} run folders)",
        out.display(),
        runs.len()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Whether two paths name the same folder (`results` and `./results/`).
fn same_folder(a: &Path, b: &Path) -> bool {
    let a = if a.as_os_str().is_empty() {
        Path::new(".")
    } else {
        a
    };
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// The report a command writes beside its results: `dir/report.html`.
pub fn after_run(dir: &Path) -> Result<()> {
    super::out::commit()?;
    let out = dir.join("report.html");
    crate::report::write(&[dir.to_path_buf()], &out).map_err(lift)?;
    note(&format!("wrote {}", out.display()));
    Ok(())
}

/// The report's error as the command line's: a failed write stays a [`crate::core::WriteError`]
/// (exit code 1), anything else is bad input (exit code 2).
fn lift(e: crate::core::Error) -> anyhow::Error {
    match e {
        crate::core::Error::Write(w) => w.into(),
        e => e.into(),
    }
}
