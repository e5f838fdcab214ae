//! `tcgsim report DIR…`: one self-contained HTML page from run folders (`crate::report`), or, for
//! a folder that holds run folders (`results/`, each command's default `--out` below it), each
//! run folder's page and an index linking them; and the report every result command writes at its
//! end (`results/<command>/report.html`).

use super::note;
use crate::report::index;
use crate::sim::files::run_json::RunInfo;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tcgsim report`: the page of `dirs`, written to `out` (default: `report.html` in the first
/// folder). One folder that is no run folder but holds some: [`index`].
pub fn report(dirs: &[PathBuf], out: Option<&Path>) -> Result<ExitCode> {
    let out = out.map_or_else(|| dirs[0].join("report.html"), Path::to_path_buf);
    if let [dir] = dirs {
        if dir.is_dir() && !index::is_run_folder(dir) {
            let runs = index::run_folders(dir)?;
            if !runs.is_empty() {
                return self::index(dir, &runs, &out);
            }
        }
    }
    crate::report::write(dirs, &out)?;
    note(&format!("wrote {}", out.display()));
    Ok(ExitCode::SUCCESS)
}

/// `tcgsim report DIR` for a folder of run folders: each run folder's `report.html` written
/// again, then an index page at `out` linking them (issue 30: `report results` showed only the
/// last command's run). A run folder whose report cannot be made (a bad file, a run of an older
/// tcgsim) does not stop the others: its error is printed, it is left out of the index, and the
/// command ends with exit code 2 after writing the index of the rest.
fn index(dir: &Path, runs: &[PathBuf], out: &Path) -> Result<ExitCode> {
    let mut read = Vec::new();
    let mut bad = 0;
    for r in runs {
        match report_one(r) {
            Ok(info) => read.push((r.clone(), info)),
            // A failed write stops everything (exit code 1); a bad folder only itself.
            Err(e) if e.is_broken_pipe() || matches!(e, crate::core::Error::Write(_)) => {
                return Err(e.into())
            }
            Err(e) => {
                super::out::error(&format!("error: {e}"));
                bad += 1;
            }
        }
    }
    let base = out.parent().filter(|p| !p.as_os_str().is_empty());
    let base = base.unwrap_or(Path::new("."));
    let link = |run: &Path| relative(base, &run.join("report.html"));
    let html = index::page(dir, &read, &link);
    super::write_file(out, &html)?;
    note(&format!(
        "wrote {} (an index of {} run folders)",
        out.display(),
        read.len()
    ));
    if bad > 0 {
        bail!(
            "{bad} of {} run folders in {} could not be reported (above); the index lists the others",
            runs.len(),
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// One run folder of an index: its report written again, and its `run.json`.
fn report_one(run: &Path) -> crate::core::Result<RunInfo> {
    let file = run.join("run.json");
    let text = crate::core::input::read_text(&file, crate::core::input::MAX_TEXT_BYTES)?;
    let info = RunInfo::parse(&text, &file.display().to_string())?;
    let page = run.join("report.html");
    crate::report::write(&[run.to_path_buf()], &page)?;
    note(&format!("wrote {}", page.display()));
    Ok(info)
}

/// The path of `to` as a link from a page in folder `from`: relative (`../results/matrix/…`),
/// so the index works wherever the folders are moved together; absolute only where the two share
/// no root (another drive).
fn relative(from: &Path, to: &Path) -> PathBuf {
    let abs = |p: &Path| {
        p.canonicalize()
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    // `to` may not exist yet: canonicalize its folder.
    let to_abs = match (to.parent(), to.file_name()) {
        (Some(d), Some(f)) => abs(if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        })
        .join(f),
        _ => abs(to),
    };
    let from_abs = abs(from);
    let (a, b): (Vec<_>, Vec<_>) = (
        from_abs.components().collect(),
        to_abs.components().collect(),
    );
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return to_abs;
    }
    let mut rel = PathBuf::new();
    for _ in common..a.len() {
        rel.push("..");
    }
    for c in &b[common..] {
        rel.push(c);
    }
    rel
}

/// The report a command writes beside its results: `dir/report.html`.
pub fn after_run(dir: &Path) -> Result<()> {
    super::out::commit()?;
    let out = dir.join("report.html");
    crate::report::write(&[dir.to_path_buf()], &out)?;
    note(&format!("wrote {}", out.display()));
    Ok(())
}
