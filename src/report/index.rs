//! `tcgsim report DIR` on a folder that holds run folders rather than being one (`results/`, with
//! `results/matrix/`, `results/arena/` … below it, each command's default `--out`): the run
//! folders found below it, and one index page linking each run folder's own report.

use super::{esc, CSS, ERRORS_JS, SORT_JS};
use crate::core::Error;
use crate::sim::files::run_json::RunInfo;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How deep below the folder run folders are looked for (`results/shards/shard-1` is 2).
const MAX_DEPTH: usize = 3;

/// The most run folders one index lists.
const MAX_RUNS: usize = 1000;

/// Whether `dir` is a run folder (it holds `run.json`).
pub fn is_run_folder(dir: &Path) -> bool {
    dir.join("run.json").is_file()
}

/// The run folders below `dir` (which is not one), sorted by path: each folder holding `run.json`,
/// searched [`MAX_DEPTH`] levels down, not below a run folder; hidden folders are skipped. An
/// unreadable folder is an [`Error::Input`] naming it; more than [`MAX_RUNS`] run folders an
/// [`Error::Usage`].
pub fn run_folders(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut found = Vec::new();
    let mut todo = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = todo.pop() {
        let unreadable =
            |e: std::io::Error| Error::input(d.display().to_string(), 0, e.to_string());
        for e in std::fs::read_dir(&d).map_err(unreadable)? {
            let e = e.map_err(unreadable)?;
            let p = e.path();
            let hidden = e.file_name().to_string_lossy().starts_with('.');
            if hidden || !p.is_dir() {
                continue;
            }
            if is_run_folder(&p) {
                found.push(p);
                if found.len() > MAX_RUNS {
                    return Err(Error::usage(format!(
                        "{}: more than {MAX_RUNS} run folders below it; name the ones to report",
                        dir.display()
                    )));
                }
            } else if depth + 1 < MAX_DEPTH {
                todo.push((p, depth + 1));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// A path as a URL path: each byte outside the unreserved characters and `/` percent-encoded.
fn href(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut o = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            o.push(b as char);
        } else {
            let _ = write!(o, "%{b:02X}");
        }
    }
    o
}

/// The index page of `root`: a row per run folder of `runs` (each with its `run.json` read), a
/// link to its `report.html` (`link` gives the link's target for a run folder).
pub fn page(root: &Path, runs: &[(PathBuf, RunInfo)], link: &dyn Fn(&Path) -> PathBuf) -> String {
    let title = format!("tcgsim report — {} runs in {}", runs.len(), root.display());
    let mut rows = String::new();
    for (dir, i) in runs {
        let name = dir.strip_prefix(root).unwrap_or(dir);
        let _ = writeln!(
            rows,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1} s</td></tr>",
            esc(&href(&link(dir))),
            esc(&name.display().to_string()),
            esc(&i.command),
            esc(&i.game),
            esc(&i.decks.join(", ")),
            esc(&i.agents.join(", ")),
            i.games,
            i.seed,
            i.seconds
        );
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<script>{ERRORS_JS}</script>\n<style>{CSS}</style>\n</head>\n<body>\n<header><h1>{}</h1><p class=\"note\">Written by tcgsim {} from the run folders below {}: each links its own report (its run.json's command, game, decks, agents, games, seed and time). Click a header to sort.</p></header>\n<main>\n<table class=\"sortable\"><caption>Run folders</caption><thead><tr><th scope=\"col\">report</th><th scope=\"col\">command</th><th scope=\"col\">game</th><th scope=\"col\">decks</th><th scope=\"col\">agents</th><th scope=\"col\">games</th><th scope=\"col\">seed</th><th scope=\"col\">time</th></tr></thead><tbody>\n{rows}</tbody></table>\n</main>\n<script>{SORT_JS}</script>\n</body>\n</html>\n",
        esc(&title),
        esc(&title),
        env!("CARGO_PKG_VERSION"),
        esc(&root.display().to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::href;
    use std::path::Path;

    #[test]
    fn links_are_percent_encoded() {
        assert_eq!(href(Path::new("matrix/report.html")), "matrix/report.html");
        assert_eq!(
            href(Path::new("my runs/#1?/report.html")),
            "my%20runs/%231%3F/report.html"
        );
    }
}
