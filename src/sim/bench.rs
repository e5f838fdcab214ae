//! `tcgsim bench`: a quick measurement a user can run on their own machine — self-play speed on
//! one thread and on all threads, ISMCTS throughput, and the state's size.

use crate::agents::mcts::{MctsConfig, Tree};
use crate::agents::playout::Policy;
use crate::agents::{HeuristicAgent, RandomAgent};
use crate::core::{mix_seed, rng_from_seed, Seat};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// One line of the report.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub what: String,
    pub threads: usize,
    pub games_per_s: f64,
    pub decisions_per_game: f64,
    pub ns_per_decision: f64,
    /// For search rows: iterations per second and playout decisions per second.
    pub iterations_per_s: f64,
    pub playout_decisions_per_s: f64,
}

/// Plays one self-play game from `seed` (seat `first` holding the initiative) with the random or
/// the heuristic agent in both seats, and returns its number of decisions. The unit of every
/// self-play speed figure (`tcgsim bench`, the criterion benches, the profiling example).
pub fn selfplay_game<G: crate::core::Policy>(
    game: &G,
    seed: u64,
    first: Seat,
    heuristic: bool,
) -> u64 {
    let no_observer = |_: &G::State, _, _, _: &G::State| {};
    let rec = if heuristic {
        let [mut a, mut b] = [HeuristicAgent::new(seed), HeuristicAgent::new(seed ^ 1)];
        super::play_game(game, seed, first, [&mut a, &mut b], no_observer)
    } else {
        let [mut a, mut b] = [RandomAgent::new(seed), RandomAgent::new(seed ^ 1)];
        super::play_game(game, seed, first, [&mut a, &mut b], no_observer)
    };
    u64::from(rec.decisions)
}

/// Plays self-play games for about `budget` and reports (games, decisions, seconds).
fn selfplay<G: crate::core::Policy>(
    game: &G,
    heuristic: bool,
    threads: usize,
    budget: Duration,
) -> (u64, u64, f64) {
    let start = Instant::now();
    let per_batch = 256u64;
    let mut games = 0u64;
    let mut decisions = 0u64;
    let mut batch = 0u64;
    while start.elapsed() < budget {
        let run = |k: u64| {
            let seed = mix_seed(&[batch, k]);
            selfplay_game(game, seed, Seat::from_index((k % 2) as usize), heuristic)
        };
        let d: u64 = if threads == 1 {
            (0..per_batch).map(run).sum()
        } else {
            (0..per_batch * threads as u64)
                .into_par_iter()
                .map(run)
                .sum()
        };
        games += per_batch * threads as u64;
        decisions += d;
        batch += 1;
    }
    (games, decisions, start.elapsed().as_secs_f64())
}

/// Runs the benchmark with `budget` per measurement on `game`, starting ISMCTS from `mid`.
pub fn run_bench<G: crate::core::Policy>(
    game: &G,
    mid: &G::State,
    budget: Duration,
) -> Vec<BenchRow> {
    let all = rayon::current_num_threads();
    let mut rows = Vec::new();
    for (name, heuristic) in [("random self-play", false), ("heuristic self-play", true)] {
        for threads in [1, all] {
            if threads == all && all == 1 && rows.iter().any(|r: &BenchRow| r.what == name) {
                continue;
            }
            let (g, d, secs) = if threads == 1 {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("pool")
                    .install(|| selfplay(game, heuristic, 1, budget))
            } else {
                selfplay(game, heuristic, threads, budget)
            };
            rows.push(BenchRow {
                what: name.into(),
                threads,
                games_per_s: g as f64 / secs,
                decisions_per_game: d as f64 / g as f64,
                ns_per_decision: secs * 1e9 / d as f64 * threads as f64,
                iterations_per_s: f64::NAN,
                playout_decisions_per_s: f64::NAN,
            });
        }
    }
    let me = game.to_move(mid).expect("a position to search");
    for policy in [Policy::Random, Policy::Heuristic] {
        let cfg = MctsConfig {
            iterations: 500,
            playout: policy,
            // The figures of docs/performance.md: the heuristic policy alone, no random moves.
            eps: 0.0,
            ..MctsConfig::default()
        };
        let mut tree: Tree<G> = Tree::default();
        let mut out = Vec::new();
        let mut rng = rng_from_seed(1);
        let start = Instant::now();
        let (mut it, mut pd) = (0u64, 0u64);
        while start.elapsed() < budget {
            tree.search(game, mid, me, &cfg, &mut rng, &mut out);
            it += tree.iterations;
            pd += tree.playout_decisions;
        }
        let secs = start.elapsed().as_secs_f64();
        rows.push(BenchRow {
            what: format!("ISMCTS, {} playouts", policy.name()),
            threads: 1,
            games_per_s: f64::NAN,
            decisions_per_game: f64::NAN,
            // A position whose playouts end at once has no playout decisions to time.
            ns_per_decision: if pd == 0 {
                f64::NAN
            } else {
                secs * 1e9 / pd as f64
            },
            iterations_per_s: it as f64 / secs,
            playout_decisions_per_s: pd as f64 / secs,
        });
    }
    rows
}

fn f(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "—".into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// The report as a table.
pub fn table(rows: &[BenchRow], state_bytes: usize) -> String {
    let mut s = format!(
        "{:<26} {:>7} {:>11} {:>10} {:>9} {:>12} {:>16}\n",
        "measurement", "threads", "games/s", "dec/game", "ns/dec", "iterations/s", "playout dec/s"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<26} {:>7} {:>11} {:>10} {:>9} {:>12} {:>16}\n",
            r.what,
            r.threads,
            f(r.games_per_s, 0),
            f(r.decisions_per_game, 1),
            f(r.ns_per_decision, 0),
            f(r.iterations_per_s, 0),
            f(r.playout_decisions_per_s, 0)
        ));
    }
    s.push_str(&format!("state size: {state_bytes} bytes\n"));
    s
}

/// The report as CSV (RFC 4180: a measurement's name such as "ISMCTS, random playouts" is quoted).
pub fn csv(rows: &[BenchRow], state_bytes: usize) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let g = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            format!("{x:.1}")
        }
    };
    w.write_record([
        "measurement",
        "threads",
        "games_per_s",
        "decisions_per_game",
        "ns_per_decision",
        "iterations_per_s",
        "playout_decisions_per_s",
        "state_bytes",
    ])
    .expect("CSV into memory");
    for r in rows {
        w.write_record([
            r.what.clone(),
            r.threads.to_string(),
            g(r.games_per_s),
            g(r.decisions_per_game),
            g(r.ns_per_decision),
            g(r.iterations_per_s),
            g(r.playout_decisions_per_s),
            state_bytes.to_string(),
        ])
        .expect("CSV into memory");
    }
    String::from_utf8(w.into_inner().expect("CSV into memory")).expect("UTF-8 CSV")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_names_with_commas_and_leaves_missing_figures_empty() {
        let row = |what: &str, games: f64, iters: f64| BenchRow {
            what: what.into(),
            threads: 1,
            games_per_s: games,
            decisions_per_game: 274.75,
            ns_per_decision: 212.0,
            iterations_per_s: iters,
            playout_decisions_per_s: f64::NAN,
        };
        let rows = [
            row("random self-play", 17100.66, f64::NAN),
            row("ISMCTS, random playouts", f64::NAN, 25035.1),
        ];
        let text = csv(&rows, 1016);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(r.headers().unwrap().len(), 8);
        let recs: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(
            recs[0].iter().collect::<Vec<_>>(),
            [
                "random self-play",
                "1",
                "17100.7",
                "274.8",
                "212.0",
                "",
                "",
                "1016"
            ]
        );
        assert_eq!(&recs[1][0], "ISMCTS, random playouts");
        assert_eq!((&recs[1][2], &recs[1][5]), ("", "25035.1"));
    }
}
