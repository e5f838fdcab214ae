//! Helpers shared by the tests that run the `tcgsim` binary.

use std::process::{Command, Output};

/// Runs `tcgsim` with `args` from the repository root.
pub fn tcgsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// An empty folder for one test: `tcgsim-<binary>-<pid>-<name>` in the system's temporary folder
/// (the binary's name keeps test binaries that run at once apart; `name` is unique in the suite).
/// It is removed when the test is done with it (issue 30: each test run left 112 folders behind);
/// set `TCGSIM_KEEP_TMP` to keep them for a look.
pub fn tmpdir(name: &str) -> TmpDir {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let d = std::env::temp_dir().join(format!("tcgsim-{binary}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TmpDir(d)
}

/// A test's folder ([`tmpdir`]), removed with everything in it when dropped.
pub struct TmpDir(std::path::PathBuf);

impl std::ops::Deref for TmpDir {
    type Target = std::path::PathBuf;
    fn deref(&self) -> &std::path::PathBuf {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TmpDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl AsRef<std::path::Path> for TmpDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TmpDir {
    fn drop(&mut self) {
        if std::env::var_os("TCGSIM_KEEP_TMP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Plays `n` random actions from a new game of seed `seed` (fewer if it ends); the first player
/// alternates with the seed's parity.
#[allow(dead_code)]
pub fn random_position<G: tcgsim::Game>(g: &G, seed: u64, n: usize) -> G::State {
    use tcgsim::Seat;
    use tcgsim::{Agent, RandomAgent};
    let mut s = g.new_game(seed, Seat::from_index((seed % 2) as usize));
    let mut agents = [RandomAgent::new(seed ^ 11), RandomAgent::new(seed ^ 22)];
    for _ in 0..n {
        let Some(q) = g.to_move(&s) else { break };
        let a = agents[q.index()].choose(g, &s, q);
        g.apply(&mut s, a);
    }
    s
}

/// The game a scenario file is of, as `tcgsim scenario` tells it: its `game:` line, else the
/// registry's first game.
#[allow(dead_code)]
pub fn scenario_game(text: &str) -> String {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("game:"))
        .map(|v| v.split('#').next().unwrap_or("").trim().to_string())
        .unwrap_or_else(|| tcgsim::GAMES[0].name.to_string())
}

/// Copies the result files of `from` into `to` with one field changed: `column` of data line
/// `row` (1 is the first after the header) of `file` set to `value`. Returns the field's old text.
pub fn edited_copy(
    from: &std::path::Path,
    to: &std::path::Path,
    file: &str,
    row: usize,
    column: &str,
    value: &str,
) -> String {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() && p.file_name().unwrap() != "report.html" {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
    let mut r = csv::Reader::from_path(from.join(file)).unwrap();
    let header = r.headers().unwrap().clone();
    let k = header.iter().position(|h| h == column).unwrap();
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_path(to.join(file))
        .unwrap();
    w.write_record(&header).unwrap();
    let mut old = String::new();
    for (i, rec) in r.records().enumerate() {
        let mut rec: Vec<String> = rec.unwrap().iter().map(str::to_string).collect();
        if i + 1 == row {
            old = std::mem::replace(&mut rec[k], value.to_string());
        }
        w.write_record(&rec).unwrap();
    }
    w.flush().unwrap();
    old
}

/// Runs `tcgsim args`, which must succeed.
pub fn run_ok(args: &[&str]) {
    let o = tcgsim(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `report` of each edited copy of `run` exits 2 naming `file:LINE` and the reason, and writes
/// no page. A case is (file, data row, column, value, words of the error).
pub fn each_edit_is_refused(
    run: &std::path::Path,
    root: &std::path::Path,
    cases: &[(&str, usize, &str, &str, &str)],
) {
    let o = tcgsim(&["report", run.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (k, (file, row, column, value, why)) in cases.iter().enumerate() {
        let d = root.join(format!("case{k}"));
        edited_copy(run, &d, file, *row, column, value);
        let o = tcgsim(&["report", d.to_str().unwrap()]);
        let e = String::from_utf8_lossy(&o.stderr);
        let place = format!("{file}:{}: ", row + 1);
        assert_eq!(o.status.code(), Some(2), "case {k} ({file} {column}): {e}");
        assert!(
            e.contains(&place) && e.contains(why),
            "case {k} ({file} {column}): {e}"
        );
        assert!(!d.join("report.html").exists(), "case {k}: wrote a page");
    }
}

/// A CSV file's text as its header's names and its records (panics on a malformed file: the
/// files a test reads are the program's own).
pub fn csv_table(text: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r.records().map(|x| x.unwrap()).collect();
    (head, rows)
}
