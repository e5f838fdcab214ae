//! Runs every scenario of `tests/scenarios/` through `tcgsim scenario` and checks its exit code
//! (0 unless the file says `# expect-exit: N`). The scenarios name the rule IDs they check.

use std::path::PathBuf;
use std::process::Command;

/// The rule scenarios, and the fixed positions of the benches (which must stay legal).
fn scenario_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<PathBuf> = ["tests/scenarios", "benches/positions"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_scenario_runs_as_its_file_expects() {
    let files = scenario_files();
    assert!(files.len() >= 20, "only {} scenarios", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let want: i32 = text
            .lines()
            .find_map(|l| l.strip_prefix("# expect-exit:"))
            .map(|v| v.trim().parse().expect("expect-exit is a number"))
            .unwrap_or(0);
        let out = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
            .arg("scenario")
            .arg(f)
            .output()
            .unwrap();
        let code = out.status.code().unwrap_or(-1);
        if code != want {
            failures.push(format!(
                "{}: exit {code}, expected {want}\n{}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        // Every scenario names at least one rule it checks.
        if !tcgsim::GAMES.iter().any(|g| text.contains(g.rule_prefix)) {
            failures.push(format!("{}: names no rule ID", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
