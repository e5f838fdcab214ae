//! `tcgsim pool`: the planted cards first and last with intervals apart from the middle; the
//! regression checked against an independent computation on the same seeded games; the coverage of
//! its intervals; the same `pool.csv` on any thread count and after an interruption; bad input.

use crate::common::{tcgsim, tmpdir};
use std::collections::BTreeMap;
use tcgsim::sim::files::pool::{read, Row};
use tcgsim::sim::pool::{GameData, Source, POOL_KEY};
use tcgsim::sim::schedule;
use tcgsim::{
    rank_pool, run_pool_chunks, AgentSpec, Entrant, GameDef, PoolDecks, PoolPlan, Seat, ToyGame,
};

/// Runs `tcgsim pool ARGS --out DIR -q`, which must succeed; `pool.csv` read back checked.
fn pool_csv(dir: &std::path::Path, args: &[&str]) -> (String, Vec<Row>) {
    let mut a = vec!["pool", "--out", dir.to_str().unwrap(), "-q"];
    a.extend_from_slice(args);
    let o = tcgsim(&a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(dir.join("pool.csv")).unwrap();
    let rows = read(&text, "pool.csv", None).unwrap();
    (text, rows)
}

const PLANTED: [&str; 4] = [
    "--cards",
    "tests/data/planted/cards.csv",
    "tests/data/planted/planted.deck",
    "tests/data/planted/plain.deck",
];

/// Runs `pool` (more `args`) into a fresh folder named `name`, then checks that `strong` ranks
/// first and `useless` last, each with an interval excluding the value of every card between them
/// (the acceptance of issue 31), and that the report shows the ranking.
fn planted_first_and_last(name: &str, args: &[&str], strong: &str, useless: &str) {
    let out = tmpdir(name);
    let (text, rows) = pool_csv(&out, args);
    let ranked: Vec<&Row> = rows.iter().filter(|r| r.rank.is_some()).collect();
    let n = ranked.len();
    assert_eq!(ranked[0].card, strong, "{text}");
    assert_eq!(ranked[n - 1].card, useless, "{text}");
    for r in &ranked[1..n - 1] {
        assert!(ranked[0].lo > r.value, "{text}");
        assert!(ranked[n - 1].hi < r.value, "{text}");
    }
    assert!(ranked[0].lo > 0.0 && ranked[n - 1].hi < 0.0, "{text}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("The pool ranked") && html.contains(strong));
}

/// The planted pool of issue 11 (Trails: Titan overpowered, Dud useless, plain units and fodder
/// between), 4,000 games of walks from its two decks.
#[test]
fn planted_cards_rank_first_and_last_with_intervals_apart() {
    let mut args = PLANTED.to_vec();
    args.extend(["--games", "4000"]);
    planted_first_and_last(
        "pool-planted",
        &args,
        "Titan / Overpowered",
        "Dud / Useless",
    );
}

/// The planted pools of issue 31 (`tests/data/planted31/GAME`, their READMEs say which card is
/// which), every game that has card statistics: 5,000 games of walks from the studied, prey and
/// other decks; the strong card first, the useless card last.
#[test]
fn planted31_pools_rank_the_strong_card_first_and_the_useless_last() {
    for (game, strong, useless) in [
        (
            "trails",
            "Gilded Colossus / Planted Strong",
            "Hollow Effigy / Planted Useless",
        ),
        (
            "fireforce",
            "Gilded Salamander [PF-90]",
            "Hollow Lantern [PF-91]",
        ),
        ("tmnt", "Gilded Titan [TP-90]", "Hollow Effigy [TP-91]"),
    ] {
        let dir = format!("tests/data/planted31/{game}");
        let (cards, decks) = (
            format!("{dir}/cards.csv"),
            ["studied", "prey", "other"].map(|d| format!("{dir}/{d}.deck")),
        );
        let mut args = vec!["--game", game, "--cards", &cards, "--games", "5000"];
        args.extend(decks.iter().map(String::as_str));
        planted_first_and_last(&format!("pool-planted31-{game}"), &args, strong, useless);
    }
}

/// The same `pool.csv` on 1 and 2 threads, and from a run interrupted after some chunks (its
/// checkpoint cut short, the last line torn) and resumed; a resumed run of other flags is refused.
#[test]
fn pool_csv_is_the_same_on_any_threads_and_after_resume() {
    let root = tmpdir("pool-resume");
    let mut args = PLANTED.to_vec();
    args.extend(["--games", "900", "--chunk", "100"]);
    let one = root.join("one");
    let cp = root.join("cp");
    let mut a1 = args.clone();
    a1.extend(["--threads", "1", "--checkpoint", cp.to_str().unwrap()]);
    let (t1, _) = pool_csv(&one, &a1);
    let mut a2 = args.clone();
    a2.extend(["--threads", "2"]);
    let (t2, _) = pool_csv(&root.join("two"), &a2);
    assert_eq!(t1, t2);
    // Keep the header and 4 chunks, and half of a fifth line.
    let file = cp.join("pool_chunks.csv");
    let full = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 10);
    let cut = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..10]);
    std::fs::write(&file, cut).unwrap();
    let mut a3 = args.clone();
    a3.extend(["--checkpoint", cp.to_str().unwrap(), "--resume"]);
    let (t3, _) = pool_csv(&root.join("three"), &a3);
    assert_eq!(t1, t3);
    let info = std::fs::read_to_string(root.join("three").join("run.json")).unwrap();
    assert!(info.contains("\"games_resumed\": 400"), "{info}");
    // Another run's flags (the seed) on this checkpoint: refused, naming its first line.
    let mut a4 = args.clone();
    a4.extend([
        "--seed",
        "2",
        "--checkpoint",
        cp.to_str().unwrap(),
        "--resume",
    ]);
    let four = root.join("four");
    a4.extend(["--out", four.to_str().unwrap()]);
    let mut cmd = vec!["pool"];
    cmd.extend(a4);
    let o = tcgsim(&cmd);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("pool_chunks.csv:1: the checkpoint of another run"),
        "{e}"
    );
}

/// Bad input: exit code 2 with the file, line or flag and the reason.
#[test]
fn bad_input_is_refused_with_its_reason() {
    let root = tmpdir("pool-bad");
    let bad_cards = root.join("cards.csv");
    let good = std::fs::read_to_string("tests/data/planted/cards.csv").unwrap();
    std::fs::write(
        &bad_cards,
        good.replace("P-02,Guard,Plain,UNIT,2", "P-02,Guard,Plain,UNIT,x"),
    )
    .unwrap();
    let cp = root.join("cp");
    std::fs::create_dir_all(&cp).unwrap();
    std::fs::write(cp.join("pool_chunks.csv"), "chunk,scores,sum # run 0\n").unwrap();
    let out = root.join("out");
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--game", "trails", "--source", "draft"],
            "--source draft: unknown source (random, sealed or both)".into(),
        ),
        (
            vec!["--game", "tmnt", "--source", "sealed"],
            "the TMNT TCG has no sealed format".into(),
        ),
        (
            vec![
                "--cards",
                bad_cards.to_str().unwrap(),
                "tests/data/planted/planted.deck",
            ],
            format!("{}:", bad_cards.display()),
        ),
        (
            vec![
                "--cards",
                "tests/data/planted/cards.csv",
                "tests/data/planted/planted.deck",
                "--checkpoint",
                cp.to_str().unwrap(),
                "--resume",
            ],
            "pool_chunks.csv:1: the checkpoint of another run".into(),
        ),
        (
            vec![
                "--cards",
                "tests/data/planted/cards.csv",
                "tests/data/planted/planted.deck",
                "--checkpoint",
                cp.to_str().unwrap(),
            ],
            "a checkpoint exists; add --resume".into(),
        ),
        // Review: 50 games of a 92-card pool gave an exact fit, every interval of width 0.
        (
            vec!["--game", "tmnt"],
            "--games 40: too few to rank a pool of 92 cards".into(),
        ),
    ];
    for (args, want) in cases {
        let mut a = vec!["pool", "--games", "40", "--out", o, "-q"];
        a.extend(&args);
        let r = tcgsim(&a);
        let e = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(&want), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

/// The toy game's plan of `games` games from its bundled decks.
fn toy_plan(games: u64, seed: u64) -> PoolPlan {
    PoolPlan {
        game: "toy".into(),
        content: String::new(),
        agent: "heuristic".into(),
        source: Source::Random,
        starts: vec!["high".into(), "ladder".into(), "low".into()],
        walk: 20,
        packs: 1,
        pack: String::new(),
        games,
        seed,
        chunk: 500,
    }
}

/// The toy game's data of `plan`'s games (library calls, as `pool` makes them).
fn toy_data(plan: &PoolPlan) -> (Vec<GameData>, Vec<String>) {
    let cards = ToyGame::bundled_cards();
    let starts: Vec<_> = plan
        .starts
        .iter()
        .map(|n| {
            ToyGame::load_deck(&cards, std::path::Path::new(&format!("decks/toy/{n}.deck")))
                .unwrap()
        })
        .collect();
    let decks = PoolDecks::<ToyGame> {
        cards: &cards,
        starts: &starts,
        plan,
    };
    let spec = Entrant::new(AgentSpec::parse("heuristic").unwrap());
    let todo: Vec<u64> = (0..plan.chunks()).collect();
    let data = run_pool_chunks(
        &decks,
        &spec,
        &todo,
        &BTreeMap::new(),
        &|_, _| Ok(()),
        &|_| {},
    )
    .unwrap()
    .unwrap();
    let names = (0..ToyGame::card_count(&cards) as u32)
        .map(|id| ToyGame::card_name(&cards, id))
        .collect();
    (data, names)
}

/// Solves `a x = b` (dense, `n × n`) by Gaussian elimination with partial pivoting.
#[allow(clippy::needless_range_loop)] // matrix code reads best with its indices
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

/// The regression checked against an independent computation on the same seeded games: every
/// game replayed here from the schedule's words (its decks dealt again, each deck's copies counted
/// from its card list, the game played again with agents seeded from the deal) gives the data the
/// runner recorded, and the counts of games each card was present in and varied in; then ordinary least squares with the last card as the reference (no
/// pseudo-inverse: the decks' fixed size makes the last card's column the others' negative sum, so
/// it is dropped), solved by Gaussian elimination, its HC1 covariance by the textbook formula, the
/// values centred by hand, match `rank_pool` to 1e-9.
#[test]
#[allow(clippy::needless_range_loop)] // matrix code reads best with its indices
fn the_regression_matches_an_independent_computation() {
    let plan = toy_plan(3000, 11);
    let (data, names) = toy_data(&plan);
    // Every game's initiative is the schedule's: P1 on even games.
    for (k, g) in data.iter().enumerate() {
        assert_eq!(g.first, if k % 2 == 0 { Seat::P1 } else { Seat::P2 });
    }
    let cards = ToyGame::bundled_cards();
    let starts: Vec<_> = plan
        .starts
        .iter()
        .map(|n| {
            ToyGame::load_deck(&cards, std::path::Path::new(&format!("decks/toy/{n}.deck")))
                .unwrap()
        })
        .collect();
    let decks = PoolDecks::<ToyGame> {
        cards: &cards,
        starts: &starts,
        plan: &plan,
    };
    let spec = AgentSpec::parse("heuristic").unwrap();
    let (mut present, mut varied) = (vec![0u64; names.len()], vec![0u64; names.len()]);
    for k in 0..3000u64 {
        let d = [decks.deck(k, 0).unwrap(), decks.deck(k, 1).unwrap()];
        let mut diff: BTreeMap<u32, i32> = BTreeMap::new();
        for (id, c) in ToyGame::deck_cards(&d[0]) {
            *diff.entry(id).or_default() += c as i32;
        }
        for (id, c) in ToyGame::deck_cards(&d[1]) {
            *diff.entry(id).or_default() -= c as i32;
        }
        for (&id, &v) in &diff {
            present[id as usize] += 1;
            varied[id as usize] += u64::from(v != 0);
        }
        diff.retain(|_, v| *v != 0);
        let deal = schedule::deal(plan.seed, &[POOL_KEY], k, false);
        let game = ToyGame::new_match(&cards, [&d[0], &d[1]]);
        let mut a = spec.build::<ToyGame>(deal.agent_seeds[0]);
        let mut b = spec.build::<ToyGame>(deal.agent_seeds[1]);
        let (rec, _) = tcgsim::play_game_to_end(
            &game,
            deal.seed,
            deal.first,
            [a.as_mut(), b.as_mut()],
            |_, _, _, _| {},
        );
        let g = &data[k as usize];
        assert_eq!(g.diff, diff.into_iter().collect::<Vec<_>>(), "game {k}");
        assert_eq!(
            f64::from(g.half_points),
            2.0 * rec.outcome.score(Seat::P1),
            "game {k}"
        );
        assert_eq!(g.first, deal.first);
    }
    let ranking = rank_pool(&data, &names, Source::Random);
    for r in &ranking.cards {
        assert_eq!(
            (r.present, r.varied),
            (present[r.id as usize], varied[r.id as usize]),
            "{}",
            r.name
        );
    }
    let m = names.len();
    // Columns: 1, f, x_0 … x_{m-2} (x_{m-1} dropped: every toy deck has the same size).
    let p = m + 1;
    let rows: Vec<(Vec<f64>, f64)> = data
        .iter()
        .map(|g| {
            let mut x = vec![0.0; p];
            x[0] = 1.0;
            x[1] = if g.first == Seat::P1 { 1.0 } else { -1.0 };
            for &(id, d) in &g.diff {
                if (id as usize) < m - 1 {
                    x[2 + id as usize] = f64::from(d);
                }
            }
            (x, f64::from(g.half_points) / 2.0)
        })
        .collect();
    let mut xtx = vec![vec![0.0; p]; p];
    let mut xty = vec![0.0; p];
    for (x, y) in &rows {
        for i in 0..p {
            xty[i] += x[i] * y;
            for j in 0..p {
                xtx[i][j] += x[i] * x[j];
            }
        }
    }
    let beta = solve(xtx.clone(), xty);
    let inv: Vec<Vec<f64>> = (0..p)
        .map(|i| {
            let mut e = vec![0.0; p];
            e[i] = 1.0;
            solve(xtx.clone(), e)
        })
        .collect(); // columns of the inverse (symmetric)
    let mut meat = vec![vec![0.0; p]; p];
    for (x, y) in &rows {
        let e = y - x.iter().zip(&beta).map(|(a, b)| a * b).sum::<f64>();
        for i in 0..p {
            for j in 0..p {
                meat[i][j] += e * e * x[i] * x[j];
            }
        }
    }
    let n = rows.len() as f64;
    let cov = |v: &[f64]| {
        let a: Vec<f64> = (0..p)
            .map(|i| (0..p).map(|j| inv[i][j] * v[j]).sum())
            .collect();
        let q: f64 = (0..p)
            .map(|i| (0..p).map(|j| a[i] * meat[i][j] * a[j]).sum::<f64>())
            .sum();
        q * n / (n - p as f64)
    };
    // Card c's value: β_c − mean over the m cards (β_{m−1} = 0), as a vector on the columns.
    for c in 0..m {
        let mut v = vec![0.0; p];
        for k in 0..m - 1 {
            v[2 + k] -= 1.0 / m as f64;
        }
        if c < m - 1 {
            v[2 + c] += 1.0;
        }
        let value: f64 = v.iter().zip(&beta).map(|(a, b)| a * b).sum();
        let se = cov(&v).sqrt();
        let row = ranking.cards.iter().find(|r| r.id == c as u32).unwrap();
        assert!(
            (row.value - value).abs() < 1e-9,
            "{}: {} {}",
            names[c],
            row.value,
            value
        );
        let half = tcgsim::stats::Z95 * se;
        assert!((row.hi - row.lo - 2.0 * half).abs() < 1e-9, "{}", names[c]);
    }
    // The seat and the initiative: the same in either parametrisation (the card columns add up
    // to 0, so the reference card moves nothing into them).
    for (term, k) in [(ranking.seat, 0), (ranking.initiative, 1)] {
        let mut v = vec![0.0; p];
        v[k] = 1.0;
        let half = tcgsim::stats::Z95 * cov(&v).sqrt();
        assert!((term.0 - beta[k]).abs() < 1e-9, "{term:?} {}", beta[k]);
        assert!((term.2 - term.1 - 2.0 * half).abs() < 1e-9, "{term:?}");
    }
    // The toy game's cards win by their rank: Nine is worth most, One least.
    assert_eq!(ranking.cards[0].name, "Nine");
    assert_eq!(ranking.cards[m - 1].name, "One");
}

/// Coverage: 60 seeded runs of 600 toy games; each card's 95% interval covers the value of one
/// long run (40,000 games, another seed) in at least 93% of the 540 cases.
#[test]
fn pool_intervals_cover_the_value_of_a_long_run() {
    let (long, names) = toy_data(&toy_plan(40_000, 1_000));
    let truth = rank_pool(&long, &names, Source::Random);
    let value = |id: u32| truth.cards.iter().find(|r| r.id == id).unwrap().value;
    let (mut covered, mut cases) = (0, 0);
    for seed in 0..60 {
        let (d, _) = toy_data(&toy_plan(600, seed));
        for r in rank_pool(&d, &names, Source::Random).cards {
            if r.rank.is_some() {
                cases += 1;
                covered += usize::from(r.lo <= value(r.id) && value(r.id) <= r.hi);
            }
        }
    }
    assert!(cases >= 500, "{cases}");
    assert!(covered * 100 >= cases * 93, "{covered} of {cases}");
}

/// Shards: three parts of a run (`--shard I/3`; the report of a part says it is one), merged
/// (`--merge`), give the `pool.csv` of the run played whole; a missing part, a part given twice, a part of another run and an `--out` that is a part's folder are refused.
#[test]
fn merged_shards_give_the_whole_runs_pool_csv() {
    let root = tmpdir("pool-shards");
    let mut args = PLANTED.to_vec();
    args.extend(["--games", "600", "--chunk", "100"]);
    let (whole, _) = pool_csv(&root.join("whole"), &args);
    let parts: Vec<String> = (1..=3)
        .map(|i| root.join(format!("part{i}")).display().to_string())
        .collect();
    let shards: Vec<String> = (1..=3).map(|i| format!("{i}/3")).collect();
    for (p, s) in parts.iter().zip(&shards) {
        let mut a = vec!["pool", "--out", p, "-q", "--shard", s];
        a.extend(&args);
        let o = tcgsim(&a);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!std::path::Path::new(p).join("pool.csv").exists());
    }
    // A shard's folder has a page that says what it is.
    crate::common::run_ok(&["report", &parts[0]]);
    let page = std::fs::read_to_string(root.join("part1").join("report.html")).unwrap();
    assert!(page.contains("Shard 1 of 3: 2 chunks"), "{page}");
    let merged = root.join("merged");
    let mut a = args.clone();
    for p in &parts {
        a.extend(["--merge", p]);
    }
    let (text, _) = pool_csv(&merged, &a);
    assert_eq!(text, whole);
    let refused = |extra: Vec<&str>, want: &str| {
        let mut a = vec!["pool", "--out", merged.to_str().unwrap(), "-q"];
        a.extend(extra);
        let o = tcgsim(&a);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains(want), "{e}");
    };
    let mut missing = args.clone();
    missing.extend(["--merge", &parts[0], "--merge", &parts[1]]);
    refused(missing, "is in none of the parts: a shard is missing");
    let mut twice = args.clone();
    twice.extend(["--merge", &parts[0], "--merge", &parts[0]]);
    refused(twice, "is in another part too");
    let mut other = args.clone();
    other.extend(["--seed", "9", "--merge", &parts[0]]);
    refused(other, "pool_chunks.csv:1: the checkpoint of another run");
    // An --out that is one of the shards' folders (here through a link) is refused before
    // anything is written: the merged run's run.json would replace the shard's, which a later
    // merge checks.
    let link = root.join("link");
    std::os::unix::fs::symlink(&parts[1], &link).unwrap();
    let before = std::fs::read(root.join("part2").join("run.json")).unwrap();
    let mut a = vec!["pool", "--out", link.to_str().unwrap(), "-q"];
    a.extend(&args);
    for p in &parts {
        a.extend(["--merge", p]);
    }
    let o = tcgsim(&a);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(&format!(
            "--out {}: it is the folder of shard {}",
            link.display(),
            parts[1]
        )),
        "{e}"
    );
    assert_eq!(
        std::fs::read(root.join("part2").join("run.json")).unwrap(),
        before
    );
    assert!(!root.join("part2").join("pool.csv").exists());
}

/// The report reads `pool.csv` back checked: each edit no run can write is refused with the
/// file, line and reason (exit code 2), and no page is written.
#[test]
fn the_report_refuses_an_edited_pool_csv() {
    let root = tmpdir("pool-report-edits");
    let run = root.join("run");
    pool_csv(&run, &["--game", "toy", "--games", "300"]);
    crate::common::each_edit_is_refused(
        &run,
        &root,
        &[
            (
                "pool.csv",
                1,
                "value",
                "99.0000",
                "is not inside its interval",
            ),
            ("pool.csv", 2, "rank", "5", "rank 5 where 2 was expected"),
            ("pool.csv", 1, "note", "odd", "is not `within its group`"),
            (
                "pool.csv",
                1,
                "lo",
                "x",
                "column `lo`: \"x\" is not a number",
            ),
            ("pool.csv", 9, "id", "8", "card id 8 is given twice"),
            (
                "pool.csv",
                1,
                "present",
                "301",
                "not counts of the run's games",
            ),
        ],
    );
}

/// Sealed pools: Trails' packs fix how many cards of each type a pool holds, so every value is
/// against the average card of its type (`within its group`); Fire Force's pools with random
/// decks (`both`) rank the pool as a whole.
#[test]
fn sealed_pools_are_ranked_within_their_groups() {
    let root = tmpdir("pool-sealed");
    let (text, rows) = pool_csv(
        &root.join("trails"),
        &["--game", "trails", "--source", "sealed", "--games", "600"],
    );
    let ranked: Vec<&Row> = rows.iter().filter(|r| r.rank.is_some()).collect();
    assert!(ranked.len() > 100, "{text}");
    assert!(
        ranked.iter().all(|r| r.note == "within its group"),
        "{text}"
    );
    let (text, rows) = pool_csv(
        &root.join("fireforce"),
        &["--game", "fireforce", "--source", "both", "--games", "600"],
    );
    assert!(
        rows.iter().filter(|r| r.rank.is_some()).count() > 50,
        "{text}"
    );
    assert!(rows.iter().all(|r| r.note != "within its group"), "{text}");
}

/// Review of issue 31: random decks that never leave their start decks (`--walk 0`: two fixed
/// decks) tell the games only one difference between decks, so no card can be told apart from the
/// others: every card is `not separable` (or `never varies`), none ranked — before, every card was
/// given a value and a tight interval, noted `within its group` as if a sealed pack's slots were
/// at work.
#[test]
fn fixed_decks_give_no_card_a_value() {
    let out = tmpdir("pool-walk0");
    let o = tcgsim(&[
        "pool",
        "--cards",
        "tests/data/planted/cards.csv",
        "tests/data/planted/planted.deck",
        "tests/data/planted/plain.deck",
        "--walk",
        "0",
        "--games",
        "400",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("pool.csv")).unwrap();
    // Read through the file's checked reader.
    let rows: Vec<Row> = read(&csv, "pool.csv", Some(400)).unwrap();
    assert_eq!(rows.len(), 7, "{csv}");
    for row in &rows {
        assert!(
            row.note == "not separable" || row.note == "never varies",
            "{csv}"
        );
        assert_eq!(row.rank, None, "{csv}");
    }
}
