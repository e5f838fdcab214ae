//! `tcgsim report DIR…`: one self-contained HTML page from run folders (`crate::report`); and the
//! report every result command writes at its end (`results/report.html`).

use super::note;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tcgsim report`: the page of `dirs`, written to `out` (default: `report.html` in the first
/// folder).
pub fn report(dirs: &[PathBuf], out: Option<&Path>) -> Result<ExitCode> {
    let out = out.map_or_else(|| dirs[0].join("report.html"), Path::to_path_buf);
    crate::report::write(dirs, &out)?;
    note(&format!("wrote {}", out.display()));
    Ok(ExitCode::SUCCESS)
}

/// The report a command writes beside its results: `dir/report.html`.
pub fn after_run(dir: &Path) -> Result<()> {
    let out = dir.join("report.html");
    crate::report::write(&[dir.to_path_buf()], &out)?;
    note(&format!("wrote {}", out.display()));
    Ok(())
}
