//! Issue 30: every result file `report` reads is read through its module's checked reader, and
//! `run.json` is checked against the files beside it. For each file, a hand-edited value — a
//! rate disagreeing with its counts, counts that do not add up, a number outside what it can be,
//! a `run.json` of another run — makes `report` exit 2 naming the file, the line and the reason,
//! and write no page. Before, `report` read the tune, balance and arena files only as "numbers",
//! and never compared `run.json` with them.

use crate::common::{each_edit_is_refused, edited_copy, run_ok, tcgsim, tmpdir};

#[test]
fn report_checks_the_tune_files() {
    let root = tmpdir("files-tune");
    let t = root.join("tune");
    run_ok(&[
        "tune",
        "decks/toy/low.deck",
        "--gauntlet",
        "decks/toy/high.deck",
        "--gauntlet",
        "decks/toy/ladder.deck",
        "--rounds",
        "1",
        "--check-games",
        "200",
        "--seed",
        "13",
        "--out",
        t.to_str().unwrap(),
        "--quiet",
    ]);
    each_edit_is_refused(
        &t,
        &root,
        &[
            ("tune.csv", 1, "after", "7.5", "column `after`"),
            ("tune.csv", 1, "before", "0.7000", "not inside its interval"),
            (
                "tune.csv",
                1,
                "before",
                "0.5590",
                "not a score of whole half points",
            ),
            ("tune.csv", 1, "games", "100000", "column `games`"),
            (
                "tune_progress.csv",
                1,
                "win_rate",
                "0.6000",
                "column `win_rate`",
            ),
            ("tune_progress.csv", 1, "score", "999", "impossible counts"),
            ("tune_progress.csv", 1, "accepted", "2", "column `accepted`"),
            (
                "tune_fresh.csv",
                1,
                "games",
                "300",
                "run.json's games is 200",
            ),
        ],
    );
}

#[test]
fn report_checks_the_balance_file() {
    let root = tmpdir("files-balance");
    let b = root.join("balance");
    run_ok(&[
        "balance",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/ladder.deck",
        "decks/toy/low.deck",
        "--candidates",
        "4",
        "--games",
        "100",
        "--max-games",
        "200",
        "--check-games",
        "200",
        "--seed",
        "17",
        "--out",
        b.to_str().unwrap(),
        "--quiet",
    ]);
    each_edit_is_refused(
        &b,
        &root,
        &[
            (
                "balance.csv",
                1,
                "spread_before",
                "1.5",
                "column `spread_before`",
            ),
            ("balance.csv", 1, "reduction", "-2", "column `reduction`"),
            ("balance.csv", 2, "rank", "7", "column `rank`"),
            ("balance.csv", 1, "measure", "maybe", "column `measure`"),
            ("balance.csv", 1, "to", "1", "changes nothing"),
            ("balance.csv", 1, "games_per_matchup", "0", "0 games"),
        ],
    );
}

#[test]
fn report_checks_the_arena_files() {
    let root = tmpdir("files-arena");
    let a = root.join("arena");
    run_ok(&[
        "arena",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/low.deck",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--agent",
        "ismcts:iters=20",
        "--games",
        "40",
        "--seed",
        "9",
        "--out",
        a.to_str().unwrap(),
        "--quiet",
    ]);
    each_edit_is_refused(
        &a,
        &root,
        &[
            (
                "arena.csv",
                1,
                "score_rate",
                "0.9999",
                "column `score_rate`",
            ),
            ("arena.csv", 1, "score", "7.5", "column `score_rate`"),
            ("arena.csv", 1, "score", "700", "impossible counts"),
            ("arena.csv", 1, "elo", "900.0", "not inside its interval"),
            ("arena.csv", 1, "agent", "someone", "arena_pairs.csv gives"),
            ("arena_pairs.csv", 1, "rate_a", "7.5", "column `rate_a`"),
            ("arena_pairs.csv", 1, "pairs_0", "99", "impossible counts"),
            ("arena_pairs.csv", 1, "ci_low", "0.0001", "column `ci_low`"),
            ("arena_pairs.csv", 1, "score_a", "1", "column `score_a`"),
        ],
    );
    // The ratings against the pairs: an agent's games and score are the sums of its pairs'.
    let d = root.join("sums");
    edited_copy(&a, &d, "arena_pairs.csv", 1, "agent_b", "ismcts:iters=20");
    let o = tcgsim(&["report", d.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("arena.csv:") && e.contains("arena_pairs.csv gives"),
        "{e}"
    );
}

#[test]
fn report_checks_the_sprt_file() {
    let root = tmpdir("files-sprt");
    let s = root.join("sprt");
    run_ok(&[
        "arena",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/low.deck",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--sprt",
        "0,50",
        "--max-games",
        "400",
        "--seed",
        "9",
        "--out",
        s.to_str().unwrap(),
        "--quiet",
    ]);
    each_edit_is_refused(
        &s,
        &root,
        &[
            ("sprt.csv", 1, "verdict", "H1", "column `verdict`"),
            ("sprt.csv", 1, "upper", "9.9", "column `upper`"),
            ("sprt.csv", 1, "pairs_2", "40", "impossible counts"),
            ("sprt.csv", 1, "alpha", "2", "column `alpha`"),
        ],
    );
}

/// `run.json` of another run beside a matrix's or a duel's files is refused: its decks, agents
/// or games are not those of the files.
#[test]
fn report_checks_run_json_against_the_files_beside_it() {
    let root = tmpdir("files-run-json");
    let m = root.join("matrix");
    run_ok(&[
        "matrix",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/low.deck",
        "--games",
        "50",
        "--seed",
        "3",
        "--out",
        m.to_str().unwrap(),
        "--quiet",
    ]);
    let d = root.join("duel");
    run_ok(&[
        "duel",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/low.deck",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--games",
        "30",
        "--seed",
        "3",
        "--out",
        d.to_str().unwrap(),
        "--quiet",
    ]);
    for (k, (run, from, to, why)) in [
        (
            &m,
            "\"low\"",
            "\"ladder\"",
            "matchups.csv: its decks (high, low) are not run.json's",
        ),
        (
            &m,
            "\"games\": 50",
            "\"games\": 20",
            "more than run.json's 20",
        ),
        (
            &d,
            "\"random\"",
            "\"greedy\"",
            "duel.csv: its agents (heuristic, random)",
        ),
        (
            &d,
            "\"games\": 30",
            "\"games\": 29",
            "more than run.json's 29",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let c = root.join(format!("case{k}"));
        std::fs::create_dir_all(&c).unwrap();
        for e in std::fs::read_dir(run).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() && p.file_name().unwrap() != "report.html" {
                std::fs::copy(&p, c.join(p.file_name().unwrap())).unwrap();
            }
        }
        let json = std::fs::read_to_string(c.join("run.json")).unwrap();
        let edited = json.replace(from, to);
        assert_ne!(json, edited, "case {k}: {from} in run.json");
        std::fs::write(c.join("run.json"), edited).unwrap();
        let o = tcgsim(&["report", c.to_str().unwrap()]);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "case {k}: {e}");
        assert!(
            e.contains(why) && e.contains("different runs"),
            "case {k}: {e}"
        );
        assert!(!c.join("report.html").exists(), "case {k}: wrote a page");
    }
}

/// The files of `dir`, sorted (dot files, a run's temporary and set-aside files, left out).
fn files_of(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    v.sort();
    v
}

/// Files of a user's in a run folder, which no run removes: their names are none of tcgsim's
/// result files (and `log.txt`, `play`'s, which a run keeps too).
fn user_files(dir: &std::path::Path) {
    for (name, text) in [
        ("notes.txt", "mine\n"),
        ("my_arena.csv", "x\n"),
        ("log.txt", "a log\n"),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

fn user_files_kept(dir: &std::path::Path) {
    for name in ["notes.txt", "my_arena.csv", "log.txt"] {
        assert!(dir.join(name).is_file(), "{name} removed");
    }
}

/// An arena of three agents, then an SPRT of two in the same `--out` (the walkthrough's repro):
/// the SPRT run removes the arena's `arena.csv` and `arena_pairs.csv`, which it does not write,
/// so neither its own page nor `tcgsim report` shows the first run's ratings (of an agent,
/// `ismcts:iters=300`, its `run.json` does not name) beside its `sprt.csv`. Before, both pages
/// showed them and `report` exited 0. A user's files in the folder stay.
#[test]
fn a_run_removes_the_result_files_of_an_earlier_run_it_does_not_write() {
    let root = tmpdir("files-stale-arena");
    let d = root.join("arena");
    let ds = d.to_str().unwrap();
    run_ok(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "ismcts:iters=300",
        "--games",
        "10",
        "--out",
        ds,
        "--quiet",
    ]);
    assert!(d.join("arena.csv").is_file());
    user_files(&d);
    run_ok(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--sprt",
        "0,50",
        "--out",
        ds,
        "--quiet",
    ]);
    user_files_kept(&d);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(
        !page.contains("ismcts"),
        "the run's page shows the arena's agent"
    );
    let o = tcgsim(&["report", ds]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(!page.contains("ismcts"), "report shows the arena's agent");
    assert!(!page.contains("arena.csv"), "report shows arena.csv");
    assert!(page.contains("sprt.csv"));
    assert_eq!(
        files_of(&d),
        [
            "log.txt",
            "my_arena.csv",
            "notes.txt",
            "report.html",
            "run.json",
            "sprt.csv"
        ],
        "the folder after the SPRT"
    );
}

/// `matrix --records` then `matrix` without it, into one `--out`: the second run removes the
/// first's `records.jsonl` (before, it stayed beside the second run's `run.json`, and the report
/// of a folder without `lengths.csv` reads it); then a duel into the same folder leaves none of
/// the matrix's files (`docs/cli.md`: one folder, one run), and a matrix after it none of the
/// duel's. A user's files stay throughout.
#[test]
fn a_run_without_an_optional_file_removes_an_earlier_runs() {
    let root = tmpdir("files-stale-records");
    let d = root.join("shared");
    let ds = d.to_str().unwrap();
    let matrix = |records: bool| {
        let mut a = vec![
            "matrix",
            "--game",
            "toy",
            "decks/toy/high.deck",
            "decks/toy/low.deck",
            "--games",
            "20",
            "--out",
            ds,
            "--quiet",
        ];
        if records {
            a.push("--records");
        }
        run_ok(&a);
    };
    let matrix_files = [
        "cards.csv",
        "lengths.csv",
        "log.txt",
        "matchups.csv",
        "matrix.csv",
        "matrix.svg",
        "meta.csv",
        "my_arena.csv",
        "notes.txt",
        "report.html",
        "run.json",
    ];
    // A card file of the user's beside the results (the folder of their decks): `cards.csv` is
    // also the name of `cards`' result file, and no run of another command removes it.
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("cards.csv"), "the user's card file\n").unwrap();
    matrix(true);
    assert!(d.join("records.jsonl").is_file());
    user_files(&d);
    matrix(false);
    assert_eq!(files_of(&d), matrix_files, "the folder after matrix");
    run_ok(&[
        "duel",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/low.deck",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--games",
        "10",
        "--out",
        ds,
        "--quiet",
    ]);
    // Another command's run removes nothing of the matrix's: `report` reads only the duel's
    // files beside the duel's `run.json`.
    let with_duel: Vec<&str> = {
        let mut v = matrix_files.to_vec();
        v.push("duel.csv");
        v.sort_unstable();
        v
    };
    assert_eq!(files_of(&d), with_duel, "the folder after duel");
    // Nor does a matrix after the duel (the folder's run.json was the duel's).
    matrix(false);
    assert_eq!(files_of(&d), with_duel, "the folder after duel and matrix");
    assert_eq!(
        std::fs::read_to_string(d.join("cards.csv")).unwrap(),
        "the user's card file\n"
    );
    user_files_kept(&d);
    // Nothing set aside is left behind (`.NAME.oldPID`, `.NAME.tmpPID`).
    let hidden: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "left behind: {hidden:?}");
}

/// A result file of an earlier run of the command left beside a run's files (one that could not
/// be set aside: `cli::out`'s unit test makes one) is not shown as the run's: the run's
/// `run.json` lists its files, and `report` reads no other. Here an SPRT after an arena, then the
/// arena's `arena.csv` put back beside the SPRT's files: `report` shows only the `sprt.csv`.
/// Before, it showed the arena's ratings (of `ismcts:iters=300`, an agent of no run.json there).
#[test]
fn report_reads_only_the_files_run_json_lists() {
    let root = tmpdir("files-listed");
    let d = root.join("arena");
    let ds = d.to_str().unwrap();
    run_ok(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "ismcts:iters=300",
        "--games",
        "10",
        "--out",
        ds,
        "--quiet",
    ]);
    let arena = std::fs::read(d.join("arena.csv")).unwrap();
    run_ok(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--sprt",
        "0,50",
        "--out",
        ds,
        "--quiet",
    ]);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["files"], serde_json::json!(["run.json", "sprt.csv"]));
    std::fs::write(d.join("arena.csv"), arena).unwrap();
    let o = tcgsim(&["report", ds]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(!page.contains("ismcts"), "report shows the arena's agent");
    assert!(page.contains("sprt.csv"));
    // A run.json without the list (an older tcgsim's) reads every file, as before.
    let mut old = run.clone();
    old.as_object_mut().unwrap().remove("files");
    std::fs::write(d.join("run.json"), old.to_string()).unwrap();
    std::fs::remove_file(d.join("arena.csv")).unwrap();
    let o = tcgsim(&["report", ds]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A `meta.csv` and a `records.jsonl` of an earlier matrix run, left beside a shard's files (as
/// a file that could not be set aside is left), are not read by the report: the shard's
/// `run.json` does not list them. Before, the report read both directly and refused the folder
/// (the earlier `meta.csv` is not the equilibrium of the shard's matchups).
#[test]
fn report_reads_no_meta_or_records_its_run_json_does_not_list() {
    let root = tmpdir("files-listed-meta");
    let d = root.join("m");
    let ds = d.to_str().unwrap();
    let matrix = |extra: &[&str]| {
        let mut a = vec![
            "matrix",
            "--game",
            "toy",
            "decks/toy/high.deck",
            "decks/toy/low.deck",
            "decks/toy/ladder.deck",
            "--games",
            "20",
            "--out",
            ds,
            "--quiet",
        ];
        a.extend(extra);
        run_ok(&a);
    };
    matrix(&["--records"]);
    let meta = std::fs::read(d.join("meta.csv")).unwrap();
    let records = std::fs::read(d.join("records.jsonl")).unwrap();
    matrix(&["--shard", "1/2"]);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap()).unwrap();
    assert_eq!(
        run["files"],
        serde_json::json!(["lengths.csv", "matchups.csv", "run.json"])
    );
    std::fs::write(d.join("meta.csv"), meta).unwrap();
    std::fs::write(d.join("records.jsonl"), records).unwrap();
    // Without lengths.csv the report would take the games' lengths from records.jsonl.
    std::fs::remove_file(d.join("lengths.csv")).unwrap();
    let o = tcgsim(&["report", ds]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(
        !page.contains("meta.csv"),
        "the report read the earlier meta.csv"
    );
    assert!(
        !page.contains("records.jsonl"),
        "the report read the earlier records.jsonl"
    );
}

/// Files set aside by a commit killed before it ended (`.NAME.oldPID`, PID a process that is not
/// running) are removed by the next commit into the folder; a file of another name, one of a
/// running process (this test's: its commit may be under way) and a folder of such a name stay.
/// Before, nothing ever removed them.
#[test]
fn a_commit_removes_what_a_killed_commit_set_aside() {
    let root = tmpdir("files-set-aside");
    let d = root.join("m");
    let ds = d.to_str().unwrap();
    let matrix = || {
        run_ok(&[
            "matrix",
            "--game",
            "toy",
            "decks/toy/high.deck",
            "decks/toy/low.deck",
            "--games",
            "10",
            "--out",
            ds,
            "--quiet",
        ])
    };
    matrix();
    let dead = 4_000_000_000u32; // above any process id Linux gives (at most 2^22)
    let me = std::process::id();
    let removed = [
        format!(".matchups.csv.old{dead}"),
        format!(".run.json.old{dead}"),
        format!(".high_tuned.deck.old{dead}"),
    ];
    let kept = [
        format!(".notes.txt.old{dead}"),
        format!(".matchups.csv.old{me}"),
        format!("matchups.csv.old{dead}"),
        format!(".matchups.csv.tmp{dead}"),
    ];
    for n in removed.iter().chain(&kept) {
        std::fs::write(d.join(n), "left\n").unwrap();
    }
    let folder = d.join(format!(".lengths.csv.old{dead}"));
    std::fs::create_dir_all(&folder).unwrap();
    matrix();
    for n in &removed {
        assert!(!d.join(n).exists(), "{n} left");
    }
    for n in &kept {
        assert!(d.join(n).is_file(), "{n} removed");
    }
    assert!(folder.is_dir());
}

/// `docs/cli.md`'s "One folder, one run" names every file of the code's list: those a run
/// removes, in the list before "(one list in the code", exactly; those it keeps, after it.
#[test]
fn the_docs_name_the_result_files_a_run_removes() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let start = docs
        .find("**One folder, one run.**")
        .expect("the convention");
    let rule = &docs[start..];
    let rule = &rule[..rule.find("\n- **").unwrap_or(rule.len())];
    let rule = rule.split_whitespace().collect::<Vec<_>>().join(" ");
    let (listed, rest) = rule.split_once("(one list in the code").unwrap();
    let listed = &listed[listed.find("does not write itself:").unwrap()..];
    let mut named: Vec<&str> = listed.split('`').skip(1).step_by(2).collect();
    let mut removed: Vec<&str> = tcgsim::sim::files::RESULT_FILES
        .iter()
        .filter(|(_, r)| *r)
        .map(|(n, _)| *n)
        .collect();
    named.sort_unstable();
    removed.sort_unstable();
    assert_eq!(named, removed);
    for (name, _) in tcgsim::sim::files::RESULT_FILES.iter().filter(|(_, r)| !r) {
        assert!(
            rest.contains(&format!("`{name}`")),
            "{name} not in the docs"
        );
    }
}
