//! `tcgsim matrix` and `tcgsim merge`: reproducible to the byte whatever the threads, shards or
//! interruptions; bad input is a clear error with exit code 2.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::{tcgsim, tmpdir};

const DECKS: [&str; 3] = [
    "decks/trails/aggro.deck",
    "decks/trails/control.deck",
    "decks/trails/covert.deck",
];

fn run(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["matrix"];
    args.extend(DECKS);
    args.extend([
        "--games",
        "24",
        "--chunk",
        "5",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(extra);
    let o = tcgsim(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap()
}

#[test]
fn one_and_two_threads_give_identical_files() {
    let a = tmpdir("t1");
    let b = tmpdir("t2");
    run(&a, &["--threads", "1"]);
    run(&b, &["--threads", "2"]);
    for f in ["matchups.csv", "lengths.csv", "matrix.csv", "matrix.svg"] {
        assert_eq!(read(&a, f), read(&b, f), "{f} differs");
    }
    let m = read(&a, "matchups.csv");
    assert_eq!(m.lines().count(), 1 + 9, "header, 9 matchups");
    assert!(m
        .lines()
        .next()
        .unwrap()
        .starts_with("row_deck,col_deck,games,"));
    assert!(m.lines().nth(1).unwrap().starts_with("aggro,aggro,24,"));
    assert!(read(&a, "matrix.svg").starts_with("<svg"));
}

#[test]
fn merged_shards_equal_the_full_run() {
    let full = tmpdir("full");
    run(&full, &[]);
    let mut parts = Vec::new();
    for i in 1..=3 {
        let d = tmpdir(&format!("shard{i}"));
        run(&d, &["--shard", &format!("{i}/3")]);
        let info: serde_json::Value = serde_json::from_str(&read(&d, "run.json")).unwrap();
        assert_eq!(info["shard"], serde_json::json!([i, 3]));
        parts.push(d);
    }
    let merged = tmpdir("merged");
    let mut args = vec!["merge"];
    let ps: Vec<String> = parts.iter().map(|p| p.display().to_string()).collect();
    args.extend(ps.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let o = tcgsim(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in ["matchups.csv", "lengths.csv", "matrix.csv", "matrix.svg"] {
        assert_eq!(read(&full, f), read(&merged, f), "{f} differs");
    }
    // Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX from 0 with --shards.
    let k = tmpdir("k8s");
    run_with_env(&k, &["--shards", "3"], &[("JOB_COMPLETION_INDEX", "1")]);
    assert_eq!(read(&k, "matchups.csv"), read(&parts[1], "matchups.csv"));
    assert_eq!(read(&k, "lengths.csv"), read(&parts[1], "lengths.csv"));
    // Slurm arrays: SLURM_ARRAY_TASK_ID within SLURM_ARRAY_TASK_MIN.. and _COUNT.
    let s = tmpdir("slurm");
    run_with_env(
        &s,
        &[],
        &[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    assert_eq!(read(&s, "matchups.csv"), read(&parts[2], "matchups.csv"));
}

/// `run`, with environment variables set (as a cluster scheduler would).
fn run_with_env(out: &Path, extra: &[&str], env: &[(&str, &str)]) {
    let mut args: Vec<&str> = vec!["matrix"];
    args.extend(DECKS);
    args.extend([
        "--games",
        "24",
        "--chunk",
        "5",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(&args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn resume_after_an_interruption_equals_the_uninterrupted_run() {
    let full = tmpdir("uninterrupted");
    run(&full, &[]);
    // An interrupted run: its checkpoint holds some finished chunks and a torn last line.
    let cp = tmpdir("cp");
    let done = tmpdir("partial-out");
    run(&done, &["--checkpoint", cp.to_str().unwrap()]);
    let text = read(&cp, "chunks.csv");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 9 * 5, "plan line and 45 chunks");
    let keep = lines[..20].join("\n") + "\n" + &lines[20][..5];
    std::fs::write(cp.join("chunks.csv"), keep).unwrap();
    let resumed = tmpdir("resumed");
    let o = run(
        &resumed,
        &["--checkpoint", cp.to_str().unwrap(), "--resume"],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("resuming: 19 of 45 chunks already done"));
    for f in ["matchups.csv", "lengths.csv", "matrix.csv", "matrix.svg"] {
        assert_eq!(read(&full, f), read(&resumed, f), "{f} differs");
    }
    // Issue 30: the resumed run's run.json and page count the games its checkpoint held (the
    // games field of the 19 kept chunk lines), beside the games this process played.
    let kept: u64 = lines[1..20]
        .iter()
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    let total: u64 = lines[1..]
        .iter()
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    let json = |d: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&read(d, "run.json")).unwrap()
    };
    let (r, f) = (json(&resumed), json(&full));
    assert_eq!(r["games_resumed"], kept);
    assert_eq!(r["games_played"], total - kept);
    assert_eq!(f["games_played"], total);
    assert!(f.get("games_resumed").is_none(), "written only when not 0");
    assert!(read(&resumed, "report.html")
        .contains(&format!("{kept} (from its checkpoint, played earlier)")));
    // A finished checkpoint is not silently overwritten.
    let o = tcgsim(&[
        "matrix",
        DECKS[0],
        "--games",
        "24",
        "--chunk",
        "5",
        "--seed",
        "4",
        "--checkpoint",
        cp.to_str().unwrap(),
        "--out",
        done.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_inputs_are_clear_errors_with_exit_code_2() {
    let out = tmpdir("bad");
    let o = tcgsim(&[
        "matrix",
        "decks/trails/nope.deck",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.deck"));
    let o = tcgsim(&[
        "matrix",
        DECKS[0],
        "--shard",
        "3/2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("need 1 ≤ I ≤ N"));
    let o = tcgsim(&[
        "matrix",
        DECKS[0],
        "--resume",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Parts from different seeds do not merge.
    let a = tmpdir("seed4");
    let b = tmpdir("seed5");
    run(&a, &["--shard", "1/2"]);
    let mut args: Vec<&str> = vec!["matrix"];
    args.extend(DECKS);
    args.extend([
        "--games",
        "24",
        "--chunk",
        "5",
        "--seed",
        "5",
        "--shard",
        "2/2",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert_eq!(tcgsim(&args).status.code(), Some(0));
    let o = tcgsim(&[
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("different run"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A missing shard is reported.
    let o = tcgsim(&["merge", a.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shards 2 of 2 are missing"));
    // The same shard twice.
    let o = tcgsim(&[
        "merge",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The planted-card check: in a pool with one overpowered card (Titan, 1 copy) and one useless
/// card (Dud, which costs its player 5 bond), both rankings — ablation (the one printed) and IWD —
/// put them first and last; the two agree on both; Rock, homebase fodder that can never be played,
/// is flagged, its usage read "played 0%, homebase 100%".
#[test]
fn planted_cards_rank_first_and_last() {
    let out = tmpdir("planted");
    let o = tcgsim(&[
        "cards",
        "tests/data/planted/planted.deck",
        "--gauntlet",
        "tests/data/planted/plain.deck",
        "--games",
        "1500",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = read(&out, "cards.csv");
    let (head, rows) = common::csv_table(&csv);
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.len(), 7, "{csv}");
    // The printed ranking (ablation).
    assert_eq!(&rows[0][col("card")], "Titan / Overpowered", "{csv}");
    assert_eq!(&rows[6][col("card")], "Dud / Useless", "{csv}");
    let num = |row: &csv::StringRecord, c: &str| row[col(c)].parse::<f64>().unwrap_or(f64::NAN);
    assert!(num(&rows[0], "ablation_lo") > 0.0, "{csv}");
    assert!(num(&rows[6], "ablation_hi") < 0.0, "{csv}");
    // IWD alone, among the cards that have one: Titan first, Dud last.
    let mut by_iwd: Vec<&csv::StringRecord> =
        rows.iter().filter(|r| !num(r, "iwd").is_nan()).collect();
    by_iwd.sort_by(|a, b| num(b, "iwd").total_cmp(&num(a, "iwd")));
    assert_eq!(&by_iwd[0][col("card")], "Titan / Overpowered", "{csv}");
    assert_eq!(
        &by_iwd[by_iwd.len() - 1][col("card")],
        "Dud / Useless",
        "{csv}"
    );
    for row in [&rows[0], &rows[6]] {
        assert_eq!(&row[col("agree")], "yes", "{csv}");
    }
    assert_eq!(&rows[0][col("flag")], "", "{csv}");
    // Issue 31: Dud is worse than any card of the pool that may stand in its slot.
    assert_eq!(&rows[6][col("flag")], "no better than replacement", "{csv}");
    assert!(num(&rows[6], "vor_hi") < 0.0, "{csv}");
    let rock = rows
        .iter()
        .find(|r| &r[col("card")] == "Rock / General")
        .unwrap();
    assert!(rock[col("flag")].ends_with("rarely played"), "{csv}");
    assert_eq!(num(rock, "played_rate"), 0.0, "{csv}");
    assert_eq!(num(rock, "resource_rate"), 1.0, "{csv}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains(".!Rock / General"), "{stdout}");
    assert!(
        stdout.contains("rarely played: played in under 5%"),
        "{stdout}"
    );
}

/// Issue 31's acceptance, every game: a planted pool of each game (`tests/data/planted31/GAME`,
/// its README says what each card is) with a strong card, a useless card (never worth playing,
/// but doing a blank filler's job) and a situational card (strong against the `prey` archetype
/// only). Ranked by value over replacement against both archetypes (800 games each): the strong
/// card first and the useless one last, both intervals clear of zero, the useless one flagged `no
/// better than replacement`, the situational one flagged `situational` and clearly positive
/// against `prey` alone, the strong one not situational. Measured with the blank-filler ablation
/// alone on the same games (`--versus blank`): Fire Force's useless card is −0.4 points
/// (−1.4…+0.5), indistinguishable from a blank, and before issue 31 no flag said a card was worse
/// than its alternatives or situational.
#[test]
fn planted_pools_rank_by_value_over_replacement_in_every_game() {
    for (game, strong, useless, situational) in [
        (
            "trails",
            "Gilded Colossus / Planted Strong",
            "Hollow Effigy / Planted Useless",
            "Thornbane Warden / Planted Situational",
        ),
        (
            "fireforce",
            "Gilded Salamander [PF-90]",
            "Hollow Lantern [PF-91]",
            "Ashbane Warden [PF-92]",
        ),
        (
            "tmnt",
            "Gilded Titan [TP-90]",
            "Hollow Effigy [TP-91]",
            "Ashbane Gust [TP-92]",
        ),
    ] {
        let dir = format!("tests/data/planted31/{game}");
        let out = tmpdir(&format!("planted31-{game}"));
        let o = tcgsim(&[
            "cards",
            &format!("{dir}/studied.deck"),
            "--gauntlet",
            &format!("{dir}/prey.deck"),
            "--gauntlet",
            &format!("{dir}/other.deck"),
            "--games",
            "800",
            "--versus",
            "typical",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{game}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let csv = read(&out, "cards.csv");
        let (head, rows) = common::csv_table(&csv);
        let col = |name: &str| head.iter().position(|h| h == name).unwrap();
        let num = |row: &csv::StringRecord, c: &str| row[col(c)].parse::<f64>().unwrap();
        let last = rows.len() - 1;
        assert_eq!(&rows[0][col("card")], strong, "{game}: {csv}");
        assert_eq!(&rows[last][col("card")], useless, "{game}: {csv}");
        assert!(num(&rows[0], "vor_lo") > 0.0, "{game}: {csv}");
        assert!(num(&rows[last], "vor_hi") < 0.0, "{game}: {csv}");
        assert!(
            rows[last][col("flag")].contains("no better than replacement"),
            "{game}: {csv}"
        );
        assert!(
            !rows[0][col("flag")].contains("situational"),
            "{game}: {csv}"
        );
        let sit = rows
            .iter()
            .find(|r| &r[col("card")] == situational)
            .unwrap();
        assert!(sit[col("flag")].contains("situational"), "{game}: {csv}");
        // The summary names its value against each opponent: above zero against prey.
        let stdout = String::from_utf8_lossy(&o.stdout);
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("  ! {situational}: ")))
            .unwrap_or_else(|| panic!("{game}: {stdout}"));
        let prey = line.split("vs prey ").nth(1).unwrap();
        let lo: f64 = prey.split(['(', '…']).nth(1).unwrap().parse().unwrap();
        assert!(lo > 0.0, "{game}: {line}");
        // Every card's `situational` flag recomputed here from card_matchups.csv (its value
        // against prey and against other): best interval above 0, worst not, and the gap's
        // interval (z = 1.96 for one pair of matchups, independent games) above 0.
        let mtext = read(&out, "card_matchups.csv");
        let (_, by) = common::csv_table(&mtext);
        for row in &rows {
            let card = &row[col("card")];
            let v: Vec<(f64, f64, f64)> = by
                .iter()
                .filter(|x| &x[1] == card)
                .map(|x| {
                    (
                        x[5].parse().unwrap(),
                        x[6].parse().unwrap(),
                        x[7].parse().unwrap(),
                    )
                })
                .collect();
            assert_eq!(v.len(), 2, "{game}: {card}: {mtext}");
            let (best, worst) = if v[0].0 >= v[1].0 {
                (v[0], v[1])
            } else {
                (v[1], v[0])
            };
            let se = |x: (f64, f64, f64)| (x.2 - x.1) / (2.0 * 1.959_964);
            let gap = best.0 - worst.0 - 1.959_964 * (se(best).powi(2) + se(worst).powi(2)).sqrt();
            let want = best.1 > 0.0 && worst.1 <= 0.0 && gap > 0.0;
            assert_eq!(
                row[col("flag")].contains("situational"),
                want,
                "{game}: {card}: {v:?}"
            );
        }
    }
}

#[test]
fn arena_ratings_are_reproducible_and_sprt_decides() {
    let a = tmpdir("arena1");
    let b = tmpdir("arena2");
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        let o = tcgsim(&[
            "arena",
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--games",
            "40",
            "--threads",
            threads,
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(read(&a, "arena.csv"), read(&b, "arena.csv"));
    assert_eq!(read(&a, "arena_pairs.csv"), read(&b, "arena_pairs.csv"));
    let top = read(&a, "arena.csv").lines().nth(1).unwrap().to_string();
    assert!(top.starts_with("heuristic,"), "{top}");
    let o = tcgsim(&[
        "arena",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--sprt",
        "0,50",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("accepted H1"));
    // The SPRT writes sprt.csv and removes the round robin's arena.csv and arena_pairs.csv,
    // another run's (docs/cli.md, "One folder, one run").
    assert!(read(&a, "sprt.csv").contains(",H1,"));
    assert!(!a.join("arena.csv").exists() && !a.join("arena_pairs.csv").exists());
    for bad in ["50,0", "0", "0,50,0.7,0.05", "x,50"] {
        let o = tcgsim(&[
            "arena",
            "--agent",
            "heuristic",
            "--agent",
            "random",
            "--sprt",
            bad,
            "--out",
            a.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "--sprt {bad}");
    }
    let o = tcgsim(&[
        "arena",
        "--agent",
        "heuristic",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// An SPRT whose every pair has the same score (random loses every pair to heuristic, 2–0) decides
/// after its first batch: the empty pentanomial counts are regularised as fishtest does
/// (`stats::sprt_llr`), where the variance of 0 used to leave the LLR at 0 and the test undecided.
/// A score of 0% is far below H0's 50%, so the test accepts H0.
#[test]
fn sprt_decides_when_every_pair_scores_the_same() {
    let dir = tmpdir("sprt-same");
    let o = tcgsim(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--sprt",
        "0,50",
        "--max-games",
        "64",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("after 32 pairs (64 games)"), "{out}");
    assert!(out.contains("[32, 0, 0, 0, 0]"), "{out}");
    assert!(out.contains("accepted H0"), "{out}");
    assert!(read(&dir, "sprt.csv").contains(",H0"));
}

/// A real interruption: the run is killed while it plays; the same command with `--resume`
/// finishes it, and its files equal an uninterrupted run's.
#[test]
fn killed_run_resumes_to_identical_files() {
    let args = |out: &Path| -> Vec<String> {
        let mut v: Vec<String> = vec!["matrix".into()];
        v.extend(DECKS.iter().map(|s| s.to_string()));
        v.extend(
            [
                "--games",
                "600",
                "--chunk",
                "20",
                "--seed",
                "9",
                "--threads",
                "1",
                "--out",
            ]
            .map(String::from),
        );
        v.push(out.display().to_string());
        v
    };
    let full = tmpdir("kill-full");
    let o = tcgsim(&args(&full).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0));
    let out = tmpdir("kill-out");
    let cp = tmpdir("kill-cp");
    let mut a = args(&out);
    a.extend(["--checkpoint".to_string(), cp.display().to_string()]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(&a)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some chunks are recorded, then kill it (SIGKILL: no chance to clean up).
    let chunks = cp.join("chunks.csv");
    let start = std::time::Instant::now();
    loop {
        let n = std::fs::read_to_string(&chunks)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > 10 || start.elapsed() > std::time::Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let recorded = std::fs::read_to_string(&chunks).unwrap().lines().count() - 1;
    assert!(
        recorded > 0 && recorded < 9 * 30,
        "killed after {recorded} chunks: too late to test"
    );
    assert!(
        !out.join("matchups.csv").exists(),
        "no output before the run finishes"
    );
    let mut r = a.clone();
    r.push("--resume".into());
    let o = tcgsim(&r.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in ["matchups.csv", "lengths.csv", "matrix.csv", "matrix.svg"] {
        assert_eq!(read(&full, f), read(&out, f), "{f} differs after resume");
    }
}

/// The result lines of a duel (without the timing line).
fn duel_result(agents: [&str; 2], args: &[&str]) -> (Option<i32>, String, String) {
    // Each call its own output folder: never the working tree's results/, which tests running
    // beside it would write at the same time.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = tmpdir(&format!("duel-out-{k}"));
    let out = out.display().to_string();
    let mut all = vec![
        "duel", DECKS[0], DECKS[1], "--agent", agents[0], "--agent", agents[1], "--games", "30",
        "--seed", "8", "--out", &out,
    ];
    all.extend_from_slice(args);
    let o = tcgsim(&all);
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().take(2).collect();
    (
        o.status.code(),
        lines.join("\n"),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const HR: [&str; 2] = ["heuristic", "random"];

#[test]
fn an_interrupted_duel_resumes_to_the_same_result() {
    let (code, full, _) = duel_result(HR, &[]);
    assert_eq!(code, Some(0));
    assert!(full.contains("30 games, seed 8"), "{full}");
    let cp = tmpdir("duel-cp");
    let cps = cp.to_str().unwrap();
    let (code, with_cp, _) = duel_result(HR, &["--checkpoint", cps]);
    assert_eq!((code, &with_cp), (Some(0), &full));
    let text = read(&cp, "chunks.csv");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 30, "header line and one line per game");
    assert!(lines[0].starts_with(tcgsim::sim::checkpoint::CHUNK_HEADER));
    assert!(read(&cp, "run.txt")
        .starts_with("tcgsim-duel v3; game=trails; decks=aggro,control; content="));
    // Interrupted: 11 games recorded, the 12th line torn.
    let keep = lines[..12].join("\n") + "\n" + &lines[12][..3];
    std::fs::write(cp.join("chunks.csv"), keep).unwrap();
    let (code, resumed, err) = duel_result(HR, &["--checkpoint", cps, "--resume"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("resuming: 11 of 30 games already done"),
        "{err}"
    );
    assert_eq!(resumed, full);
    // Not overwritten without --resume; not resumed by a different duel.
    let (code, _, err) = duel_result(HR, &["--checkpoint", cps]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a checkpoint exists"), "{err}");
    let (code, _, err) = duel_result(["random", "heuristic"], &["--checkpoint", cps, "--resume"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("belongs to a different run"), "{err}");
}

/// `--one-at-a-time` plays the same games (one after another, each search with every worker
/// thread): the same counts with two trees a decision and tree reuse, checkpointed game by game.
#[test]
fn a_duel_one_game_at_a_time_plays_the_same_games() {
    let agents = ["ismcts:iters=30,depth=10,threads=2,reuse=1", "heuristic"];
    let (code, full, err) = duel_result(agents, &["--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let cp = tmpdir("duel-one");
    let cps = cp.to_str().unwrap();
    let (code, one, err) = duel_result(
        agents,
        &["--threads", "2", "--one-at-a-time", "--checkpoint", cps],
    );
    assert_eq!((code, &one), (Some(0), &full), "{err}");
    assert_eq!(read(&cp, "chunks.csv").lines().count(), 1 + 30);
}

/// Results must not change unless the rules or the agents do: two fixed-seed matrices (49
/// matchups × 100 games, heuristic and random agents), recorded in `tests/data/golden/` by the
/// engine as of its last deliberate change, are reproduced byte for byte. The decision
/// column makes any change of play visible, not only changes of winner. (A deliberate change of
/// rules or of the heuristic re-records them with `scripts/rerecord_golden.sh`, and says so in
/// its commit.)
///
/// Trails' files are `heuristic-…` and `random-…`; Fire Force's and TMNT's carry the game's name
/// in front (`fireforce-heuristic-matchups.csv`), recorded since issue 29.
#[test]
fn fixed_seed_matrices_match_the_recorded_ones() {
    for (game, agent, seed, file) in [
        ("trails", "heuristic", "2026", "heuristic-matchups.csv"),
        ("trails", "random", "2027", "random-matchups.csv"),
        (
            "fireforce",
            "heuristic",
            "2026",
            "fireforce-heuristic-matchups.csv",
        ),
        (
            "fireforce",
            "random",
            "2027",
            "fireforce-random-matchups.csv",
        ),
        ("tmnt", "heuristic", "2026", "tmnt-heuristic-matchups.csv"),
        ("tmnt", "random", "2027", "tmnt-random-matchups.csv"),
    ] {
        let out = tmpdir(&format!("golden-{game}-{agent}"));
        let o = tcgsim(&[
            "matrix",
            "--game",
            game,
            "--agent",
            agent,
            "--games",
            "100",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0));
        let want = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/golden")
                .join(file),
        )
        .unwrap();
        assert!(
            read(&out, "matchups.csv") == want,
            "`tcgsim matrix --game {game} --agent {agent} --games 100 --seed {seed}` no longer writes tests/data/golden/{file}"
        );
        // The run's fingerprint, with the content hash of the decks' cards and the rules.
        let info: serde_json::Value = serde_json::from_str(&read(&out, "run.json")).unwrap();
        let fp = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/golden")
                .join(file.replace("matchups.csv", "fingerprint.txt")),
        )
        .unwrap();
        assert_eq!(info["fingerprint"].as_str(), Some(fp.trim_end()));
    }
}

/// `lengths.csv` as this test reads it: (row deck, column deck) → turns label → games.
fn lengths_of(dir: &Path) -> std::collections::BTreeMap<(String, String), Vec<(String, u64)>> {
    let mut out: std::collections::BTreeMap<(String, String), Vec<(String, u64)>> =
        Default::default();
    let mut r = csv::Reader::from_path(dir.join("lengths.csv")).unwrap();
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        ["row_deck", "col_deck", "turns", "games"]
    );
    for rec in r.records() {
        let rec = rec.unwrap();
        out.entry((rec[0].to_string(), rec[1].to_string()))
            .or_default()
            .push((rec[2].to_string(), rec[3].parse().unwrap()));
    }
    out
}

/// The game-length histogram of `lengths.csv` is the one the games' own records give: counted
/// here from `records.jsonl` (each game's deck names and turns), bins of 1..63 turns and `64+`.
/// Each matchup's histogram adds up to its games in `matchups.csv`, and its mean to the mean
/// length written there.
#[test]
fn lengths_csv_is_the_histogram_of_the_records() {
    let out = tmpdir("lengths-records");
    run(&out, &["--records", "--threads", "2"]);
    let mut want: std::collections::BTreeMap<(String, String), Vec<(String, u64)>> =
        Default::default();
    let mut games = 0;
    for line in read(&out, "records.jsonl").lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let key = (
            r["deck_names"][0].as_str().unwrap().to_string(),
            r["deck_names"][1].as_str().unwrap().to_string(),
        );
        let t = r["turns"].as_u64().unwrap();
        let label = if t >= 64 {
            "64+".to_string()
        } else {
            t.to_string()
        };
        let bins = want.entry(key).or_default();
        match bins.iter_mut().find(|(l, _)| *l == label) {
            Some(b) => b.1 += 1,
            None => bins.push((label, 1)),
        }
        games += 1;
    }
    assert_eq!(games, 9 * 24);
    for bins in want.values_mut() {
        bins.sort_by_key(|(l, _)| l.trim_end_matches('+').parse::<u64>().unwrap());
    }
    let got = lengths_of(&out);
    assert_eq!(got, want, "lengths.csv differs from the records' histogram");
    // Against matchups.csv: the games, and the mean length to its 4 decimals.
    let mut r = csv::Reader::from_path(out.join("matchups.csv")).unwrap();
    let mut rows = 0;
    for rec in r.deserialize::<std::collections::HashMap<String, String>>() {
        let rec = rec.unwrap();
        let bins = &got[&(rec["row_deck"].clone(), rec["col_deck"].clone())];
        let n: u64 = bins.iter().map(|b| b.1).sum();
        assert_eq!(n.to_string(), rec["games"]);
        assert!(
            bins.iter().all(|(l, _)| !l.ends_with('+')),
            "no game of 64+ turns here"
        );
        let sum: u64 = bins
            .iter()
            .map(|(l, g)| l.parse::<u64>().unwrap() * g)
            .sum();
        assert_eq!(sum.to_string(), rec["turns"]);
        assert_eq!(format!("{:.4}", sum as f64 / n as f64), rec["mean_turns"]);
        rows += 1;
    }
    assert_eq!(rows, 9);
}

/// A shard or checkpoint written before the histograms (format v3) is refused with exit code 2,
/// naming the file and the reason, never merged or resumed without its lengths.
#[test]
fn old_format_shards_and_checkpoints_are_refused() {
    let a = tmpdir("old-shard1");
    let b = tmpdir("old-shard2");
    run(&a, &["--shard", "1/2"]);
    run(&b, &["--shard", "2/2"]);
    let merged = tmpdir("old-merged");
    let merge = || {
        tcgsim(&[
            "merge",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ])
    };
    let fails = |o: Output, want: &[&str]| {
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{e}");
        for w in want {
            assert!(e.contains(w), "{w:?} not in {e}");
        }
    };
    // A shard of the old format: its fingerprint says v3 and it has no lengths.csv.
    let run_json = read(&a, "run.json");
    let lengths = read(&a, "lengths.csv");
    std::fs::write(
        a.join("run.json"),
        run_json.replace("tcgsim-matrix v4", "tcgsim-matrix v3"),
    )
    .unwrap();
    std::fs::remove_file(a.join("lengths.csv")).unwrap();
    fails(
        merge(),
        &[
            &format!("{}/run.json: written by an older version", a.display()),
            "no game-length histogram (lengths.csv)",
        ],
    );
    // A shard of this format without its lengths.csv.
    std::fs::write(a.join("run.json"), &run_json).unwrap();
    fails(merge(), &[&format!("{}/lengths.csv: missing", a.display())]);
    // A lengths.csv that disagrees with matchups.csv (one game more of some length).
    let mut lines: Vec<String> = lengths.lines().map(str::to_string).collect();
    let f: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    let g: u64 = f[3].parse().unwrap();
    lines[1] = format!("{},{},{},{}", f[0], f[1], f[2], g + 1);
    std::fs::write(a.join("lengths.csv"), lines.join("\n") + "\n").unwrap();
    fails(
        merge(),
        &[
            &format!("{}/matchups.csv:2: matchup", a.display()),
            "game-length histogram",
        ],
    );
    std::fs::write(a.join("lengths.csv"), &lengths).unwrap();
    let o = merge();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!read(&merged, "lengths.csv").is_empty());

    // A checkpoint of the old format: the old header and lines, the v3 fingerprint.
    let cp = tmpdir("old-cp");
    let out = tmpdir("old-cp-out");
    run(&out, &["--checkpoint", cp.to_str().unwrap()]);
    let chunks = read(&cp, "chunks.csv");
    let old: String = chunks
        .lines()
        .map(|l| l.rsplitn(3, ',').nth(2).unwrap().to_string() + "\n")
        .take(10)
        .collect();
    assert!(old
        .starts_with("row,col,chunk,games,wins,losses,draws,first_player_wins,turns,decisions\n"));
    std::fs::write(cp.join("chunks.csv"), old).unwrap();
    std::fs::write(
        cp.join("run.txt"),
        read(&cp, "run.txt").replace("tcgsim-matrix v4", "tcgsim-matrix v3"),
    )
    .unwrap();
    let mut args: Vec<&str> = vec!["matrix"];
    args.extend(DECKS);
    args.extend(["--games", "24", "--chunk", "5", "--seed", "4", "--resume"]);
    args.extend([
        "--out",
        out.to_str().unwrap(),
        "--checkpoint",
        cp.to_str().unwrap(),
    ]);
    fails(
        tcgsim(&args),
        &[
            &format!(
                "{}:1: a checkpoint of an older tcgsim",
                cp.join("chunks.csv").display()
            ),
            "no game-length histogram",
        ],
    );
}

/// Issue 30: `merge` reads a shard's `matchups.csv` through its module, which checks every value
/// — a rate or interval that is not what the row's counts give, a rate outside [0, 1] — and names
/// the file, the line and the column. Before, merge read the counts by position and passed the
/// rates by.
#[test]
fn merge_refuses_rates_that_disagree_with_the_counts() {
    let d = tmpdir("merge-rates");
    let (a, b) = (d.join("s1"), d.join("s2"));
    run(&a, &["--shard", "1/2"]);
    run(&b, &["--shard", "2/2"]);
    let good = read(&a, "matchups.csv");
    let merge = || {
        tcgsim(&[
            "merge",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            d.join("merged").to_str().unwrap(),
        ])
    };
    // (column, its index, a value) on line 2
    for (name, col, value) in [
        ("win_rate", 6, "0.9999"),
        ("win_rate", 6, "7.5"),
        ("ci_high", 8, "0.0001"),
        ("first_player_win_rate", 10, "0.9999"),
        ("mean_turns", 12, "99.0000"),
    ] {
        let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
        let mut f: Vec<String> = lines[1].split(',').map(str::to_string).collect();
        assert_ne!(f[col], value);
        f[col] = value.into();
        lines[1] = f.join(",");
        std::fs::write(a.join("matchups.csv"), lines.join("\n") + "\n").unwrap();
        let o = merge();
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{name} {value}: {e}");
        let place = format!("{}/matchups.csv:2: column `{name}`", a.display());
        assert!(e.contains(&place), "{name} {value}: {e}");
    }
    std::fs::write(a.join("matchups.csv"), &good).unwrap();
    assert_eq!(merge().status.code(), Some(0));
}

/// `--records` keeps the promise of the other result files: `records.jsonl` is put in place with
/// them at the end, so a run that fails at the end (here `matrix.svg` cannot be written) leaves
/// the previous run's `records.jsonl` as it was, and no temporary file.
#[test]
fn a_failed_records_run_keeps_the_previous_records() {
    let out = tmpdir("records-kept");
    run(&out, &["--records", "--quiet"]);
    let before = std::fs::read(out.join("records.jsonl")).unwrap();
    assert!(!before.is_empty());
    std::fs::remove_file(out.join("matrix.svg")).unwrap();
    std::fs::create_dir(out.join("matrix.svg")).unwrap();
    let mut args = vec!["matrix"];
    args.extend(DECKS);
    let o = out.to_str().unwrap();
    args.extend([
        "--games",
        "12",
        "--seed",
        "5",
        "--records",
        "--quiet",
        "--out",
        o,
    ]);
    let r = tcgsim(&args);
    assert_eq!(
        r.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let after = std::fs::read(out.join("records.jsonl")).unwrap();
    assert!(after == before, "records.jsonl is not the previous run's");
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".records"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}
