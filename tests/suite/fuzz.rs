//! A seeded mutation fuzzer, one target per parser of user input: card files, decks, scenarios
//! (parsed, then played with their actions and expectations), agent specs, checkpoints and merge
//! inputs. Each target mutates valid seed inputs (bytes flipped, inserted or deleted; lines
//! duplicated, dropped or swapped; tokens that broke parsers before — huge or negative numbers,
//! bad UTF-8, separators) and checks that the parser never panics and that an error names the
//! input's file. A failing input is written to `target/fuzz-failures/` and its path printed.
//!
//! `TCGSIM_FUZZ_CASES=N cargo test --release --test suite fuzz:: -- --nocapture` runs N cases per
//! target (default 2,000, a few seconds in all) and prints each target's cases and time.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use tcgsim::agents::AgentSpec;
use tcgsim::core::{rng_from_seed, GameRng};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::scenario::Scenario;
use tcgsim::games::trails::{bundled_cards, CardDb};
use tcgsim::sim::checkpoint::{line_of, parse_checkpoint, CHUNK_HEADER};
use tcgsim::sim::matrix::{Plan, Task};
use tcgsim::sim::output::{lengths_csv, matchups_csv, merge_matchups, Part, RunInfo};

use rand::Rng;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> u64 {
    std::env::var("TCGSIM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// Tokens that broke parsers, or might.
const TOKENS: &[&[u8]] = &[
    b"-1",
    b"0",
    b"300",
    b"70000",
    b"4294967296",
    b"18446744073709551615",
    b"100000000",
    b"99999999999999999999999999",
    b"\xff",
    b"\xe3\x81",
    b",",
    b";",
    b"\n",
    b"\r\n",
    b"#",
    b"(",
    b")",
    b"[",
    b"]",
    b":",
    b"=",
    b"/",
    b" / ",
    b"x",
    b"50x ",
    b"\"",
    b"[P1]\n",
    b"[P2]\n",
    b"[actions]\n",
    b"[expect]\n",
    b"nan",
    b"inf",
    b"-50",
];

/// One mutation of `seed`, 1 to 4 edits.
fn mutate(seed: &[u8], rng: &mut GameRng) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let at = if v.is_empty() {
            0
        } else {
            rng.gen_range(0..=v.len())
        };
        match rng.gen_range(0..8) {
            0 if !v.is_empty() => {
                let k = rng.gen_range(0..v.len());
                v[k] ^= 1 << rng.gen_range(0..8);
            }
            1 => {
                let t = TOKENS[rng.gen_range(0..TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.gen_range(1..16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 => v.truncate(at),
            4 | 5 => {
                // Line edits: duplicate, drop or swap whole lines.
                let mut lines: Vec<Vec<u8>> =
                    v.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                let (i, j) = (rng.gen_range(0..n), rng.gen_range(0..n));
                match rng.gen_range(0..3) {
                    0 => {
                        let l = lines[i].clone();
                        lines.insert(j, l);
                    }
                    1 if n > 1 => {
                        lines.remove(i);
                    }
                    _ => lines.swap(i, j),
                }
                v = lines.join(&b'\n');
            }
            6 => {
                // Replace a number with a token.
                if let Some(k) = (at..v.len()).find(|&k| v[k].is_ascii_digit()) {
                    let end = (k..v.len())
                        .find(|&e| !v[e].is_ascii_digit())
                        .unwrap_or(v.len());
                    let t = TOKENS[rng.gen_range(0..8)];
                    v.splice(k..end, t.iter().copied());
                }
            }
            _ => {
                let b = rng.gen::<u8>();
                v.insert(at, b);
            }
        }
    }
    v
}

thread_local! {
    /// Whether a panic on this thread is silent: a fuzz target's, caught and reported by [`fuzz`].
    static SILENT: Cell<bool> = const { Cell::new(false) };
}

/// Silences the panics of this thread (`on`) or lets them speak again. The panic hook is global and
/// the suite's other tests share the process, so the hook, installed once, stays the previous one
/// for every thread that is not silenced.
fn silence_panics(on: bool) {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !SILENT.try_with(Cell::get).unwrap_or(false) {
                previous(info)
            }
        }));
    });
    SILENT.with(|s| s.set(on));
}

/// Runs `target` on `cases()` mutations of the seeds; a panic, or an error that does not start
/// with the file's name, fails the test with the input saved for replay.
fn fuzz(name: &str, seeds: &[Vec<u8>], target: impl FnMut(&[u8]) -> Result<(), String>) {
    fuzz_named(name, &[name], seeds, target)
}

/// [`fuzz`], where an error may start with any of `names` (a merge names the file at fault).
fn fuzz_named(
    name: &str,
    names: &[&str],
    seeds: &[Vec<u8>],
    mut target: impl FnMut(&[u8]) -> Result<(), String>,
) {
    let n = cases();
    let mut rng = rng_from_seed(0xF022 ^ name.len() as u64);
    let start = std::time::Instant::now();
    let mut rejected = 0u64;
    silence_panics(true);
    for k in 0..n {
        let seed = &seeds[k as usize % seeds.len()];
        let input = if k < seeds.len() as u64 {
            seed.clone()
        } else {
            mutate(seed, &mut rng)
        };
        let r = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let problem = match r {
            Ok(Ok(())) => None,
            Ok(Err(e)) if names.iter().any(|n| e.starts_with(n)) => {
                rejected += 1;
                None
            }
            Ok(Err(e)) => Some(format!("the error does not name the file: {e}")),
            Err(p) => Some(format!(
                "panic: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        };
        if let Some(problem) = problem {
            silence_panics(false);
            let dir = root().join("target/fuzz-failures");
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{}-{k}", name.replace('/', "_")));
            std::fs::write(&path, &input).unwrap();
            panic!(
                "{name}, case {k}: {problem}; input saved in {}",
                path.display()
            );
        }
    }
    silence_panics(false);
    eprintln!(
        "fuzz {name}: {n} cases ({rejected} rejected with an error) in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap()
}

fn text(bytes: &[u8], name: &str) -> Result<String, String> {
    tcgsim::core::input::text_of(bytes.to_vec(), name).map_err(|e| e.to_string())
}

#[test]
fn fuzz_card_files() {
    let seeds = vec![
        read("decks/trails/cards.csv"),
        read("tests/data/planted/cards.csv"),
        read("tests/data/identical/cards.csv"),
    ];
    fuzz("cards.csv", &seeds, |b| {
        let t = text(b, "cards.csv")?;
        CardDb::parse(&t, "cards.csv").map_err(|e| e.to_string())?;
        Ok(())
    });
}

#[test]
fn fuzz_decks() {
    let db = bundled_cards();
    let seeds: Vec<Vec<u8>> = std::fs::read_dir(root().join("decks/trails"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "deck"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    fuzz("x.deck", &seeds, |b| {
        let t = text(b, "x.deck")?;
        Deck::parse(&t, "x.deck", "x", &db).map_err(|e| e.to_string())?;
        Ok(())
    });
}

#[test]
fn fuzz_scenarios() {
    let db = bundled_cards();
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .filter(|p| {
            // Scenarios with their own card file need it beside them.
            !std::fs::read_to_string(p).unwrap().contains("cards:")
        })
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    seeds.sort();
    fuzz("x.scn", &seeds, |b| {
        let t = text(b, "x.scn")?;
        let sc = Scenario::parse(&t, "x.scn", db.clone()).map_err(|e| e.to_string())?;
        // A position that parses is played: its actions, then its expectations.
        let (s, _) = sc.run();
        let _ = sc.failures(&s);
        Ok(())
    });
}

#[test]
fn fuzz_agent_specs() {
    let seeds: Vec<Vec<u8>> = [
        "random",
        "heuristic",
        "pimc:dets=16,iters=64,playout=heuristic,eps=0.1,depth=30",
        "ismcts:iters=2000,c=0.7,playout=heuristic,eps=0.25,depth=0,threads=2",
        "ismcts:ms=50",
        "cheat:iters=500,playout=random",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("spec", &seeds, |b| {
        let t = String::from_utf8_lossy(b);
        let spec = AgentSpec::parse(&t).map_err(|e| format!("spec: {e}"))?;
        // Whatever parses can be built (bounded: no spec asks for unbounded memory).
        let _agent = spec.build::<tcgsim::games::trails::TrailsGame>(1);
        Ok(())
    });
}

fn plan() -> Plan {
    Plan {
        game: "trails".into(),
        deck_names: vec!["a".into(), "b".into(), "c".into()],
        content: "0123456789abcdef".into(),
        agent_a: "heuristic".into(),
        agent_b: "heuristic".into(),
        games: 24,
        seed: 4,
        chunk: 5,
    }
}

fn counts(games: u64, k: u64) -> tcgsim::sim::matrix::Counts {
    let wins = k % (games + 1);
    tcgsim::sim::matrix::Counts {
        games,
        wins,
        losses: games - wins,
        draws: 0,
        first_player_wins: wins / 2,
        turns: games * 7,
        decisions: games * 200,
        lengths: {
            let mut h = tcgsim::sim::matrix::Lengths::default();
            h.0[6] = games;
            h
        },
    }
}

#[test]
fn fuzz_checkpoints() {
    let p = plan();
    let tasks = p.tasks();
    let mut seed = format!("{CHUNK_HEADER}\n");
    for (k, t) in tasks.iter().enumerate() {
        seed.push_str(&line_of(*t, &counts(p.chunk_games(t.chunk), k as u64)));
    }
    let games_of = |t: Task| p.task_games(t);
    assert_eq!(
        parse_checkpoint(&seed, "chunks.csv", &games_of)
            .unwrap()
            .len(),
        tasks.len()
    );
    fuzz("chunks.csv", &[seed.into_bytes()], |b| {
        let t = text(b, "chunks.csv")?;
        let done = parse_checkpoint(&t, "chunks.csv", &games_of)?;
        // What is accepted is consistent with the plan.
        for (task, c) in done {
            assert_eq!(Some(c.games), p.task_games(task));
            assert_eq!(c.wins + c.losses + c.draws, c.games);
        }
        Ok(())
    });
}

#[test]
fn fuzz_merge_inputs() {
    let p = plan();
    let n = p.deck_names.len();
    let shard = |i: u64| {
        let mut m = vec![tcgsim::sim::matrix::Counts::default(); n * n];
        for (k, t) in p.shard_tasks(i, 2).into_iter().enumerate() {
            m[t.row * n + t.col].add(&counts(p.chunk_games(t.chunk), k as u64));
        }
        (matchups_csv(&p, &m), lengths_csv(&p, &m))
    };
    let run = |i: u64| {
        RunInfo {
            command: "matrix".into(),
            game: p.game.clone(),
            decks: p.deck_names.clone(),
            agents: vec![p.agent_a.clone(), p.agent_b.clone()],
            content: p.content.clone(),
            games: p.games,
            seed: p.seed,
            fingerprint: p.fingerprint(),
            shard: Some((i, 2)),
            ..Default::default()
        }
        .to_json()
    };
    let ((one, one_len), (two, two_len)) = (shard(1), shard(2));
    let files_with = |json: String, csv: String, lengths: String| {
        vec![
            Part {
                name: "s1".into(),
                run_json: json,
                matchups: csv,
                lengths: Some(lengths),
            },
            Part {
                name: "s2".into(),
                run_json: run(2),
                matchups: two.clone(),
                lengths: Some(two_len.clone()),
            },
        ]
    };
    let files = |json: String, csv: String| files_with(json, csv, one_len.clone());
    let (merged, m) = merge_matchups(&files(run(1), one.clone())).unwrap();
    assert_eq!(merged, p);
    assert!(m.iter().all(|c| c.games == p.games));
    let names = ["s1/matchups.csv", "s2", "shards "];
    fuzz_named(
        "s1/matchups.csv",
        &names,
        &[one.clone().into_bytes()],
        |b| {
            let t = text(b, "s1/matchups.csv")?;
            let (_, m) = merge_matchups(&files(run(1), t))?;
            // A merge that is accepted has every game of the plan, once.
            assert!(m.iter().all(|c| c.games == p.games));
            Ok(())
        },
    );
    let names = ["s1/run.json", "s1/matchups.csv", "s2", "shards "];
    fuzz_named("s1/run.json", &names, &[run(1).into_bytes()], |b| {
        let t = text(b, "s1/run.json")?;
        let (_, m) = merge_matchups(&files(t, one.clone()))?;
        assert!(m.iter().all(|c| c.games == p.games));
        Ok(())
    });
    let names = ["s1/lengths.csv", "s1/matchups.csv", "s2", "shards "];
    fuzz_named(
        "s1/lengths.csv",
        &names,
        &[one_len.clone().into_bytes()],
        |b| {
            let t = text(b, "s1/lengths.csv")?;
            let (_, m) = merge_matchups(&files_with(run(1), one.clone(), t))?;
            // An accepted histogram holds every game once, 7 turns long on average.
            assert!(m.iter().all(|c| c.lengths.games() == p.games
                && c.lengths
                    .nonzero()
                    .map(|(k, g)| (k as u64 + 1) * g)
                    .sum::<u64>()
                    == 7 * p.games));
            Ok(())
        },
    );
}
