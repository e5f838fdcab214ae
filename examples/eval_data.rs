//! Data for TMNT's leaf evaluation and its fit (issue 33, docs/agents.md, "Sixth round: a learned
//! leaf evaluation"): plays games over every ordered pair of the bundled TMNT decks (each deal
//! once with either seat first), samples positions, and writes one CSV row per position — the
//! leaf features (`TmntGame::leaf_features`) from one seat's view and that seat's final score;
//! then fits a logistic regression to such a file and scores it, and the old evaluation, on
//! another.
//!
//! `cargo run --release --features tools --example eval_data -- gen AGENT SEED GAMES PROB OUT.csv [THREADS]`
//!   AGENT is `eps` (the heuristic with ε = 0.25: the playouts' policy) or an agent spec
//!   (`ismcts:iters=200`), playing both seats; GAMES games a deck pair, game `i` of pair `k`
//!   dealt with seed SEED + k·GAMES + i, the first player alternating; each decision is kept with
//!   chance PROB, from a seat drawn at random.
//!
//! `cargo run --release --features tools --example eval_data -- fit TRAIN.csv TEST.csv [L2]`
//!   prints the fitted weights (as the `LEAF_WEIGHTS` constant), and on TEST the log-loss, Brier
//!   score and a 10-bin calibration table of the old evaluation (a logistic of the deck
//!   difference / 6) and of the new weights.
//!
//! `... -- score WEIGHTS.csv TEST.csv`: the same figures for weights given as one CSV line.
//!
//! `... -- search AGENT SEED GAMES PROB SEARCH OUT.csv [THREADS]`: as `gen`, but each kept
//!   position is seen by the player to move, and its label is a search's value of it instead of
//!   the final score: SEARCH (an `ismcts:` or `cheat:` spec, `ismcts:iters=1000,prior=1`) is run
//!   from the position for that player, and the label is the mean result of the root action it
//!   visited most (the value of the move it would play). A soft label in [0, 1] for `fit`
//!   (docs/agents.md, "Sixth round", "(b) Fitted to search values").
use rand::Rng;
use std::io::Write;
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::{Agent, AgentSpec};
use tcgsim::core::{rng_from_seed, ActionList, Game, GameDef, GameRng, Policy, Seat};
use tcgsim::games::tmnt::policy::{LEAF_FEATURES, LEAF_FEATURE_NAMES, LEAF_WEIGHTS};
use tcgsim::games::tmnt::{bundled_cards, State, TmntGame, BUNDLED_DECKS as DECKS};
use tcgsim::stats::logistic::fit as fit_logistic;

/// The heuristic with a uniformly random legal action with chance `eps` (the playouts' policy).
struct EpsHeuristic {
    eps: f64,
    rng: GameRng,
    list: ActionList<<TmntGame as Game>::Action>,
}

impl Agent<TmntGame> for EpsHeuristic {
    fn name(&self) -> String {
        format!("heuristic eps {}", self.eps)
    }
    fn choose(&mut self, g: &TmntGame, s: &State, _seat: Seat) -> <TmntGame as Game>::Action {
        g.legal_actions(s, &mut self.list);
        if self.rng.gen::<f64>() < self.eps {
            self.list[self.rng.gen_range(0..self.list.len())]
        } else {
            g.heuristic_action(s, &self.list, &mut self.rng)
        }
    }
}

fn agent(spec: &str, seed: u64) -> Box<dyn Agent<TmntGame>> {
    if spec == "eps" {
        Box::new(EpsHeuristic {
            eps: 0.25,
            rng: rng_from_seed(seed),
            list: ActionList::new(),
        })
    } else {
        AgentSpec::parse(spec).expect("an agent spec").build(seed)
    }
}

/// The rows of `games` games of `g` (pair `k`). With `search`, each kept position is the player
/// to move's, labelled with the search's value of it (`search` mode) instead of the final score,
/// and the sum of (value − score)² over the rows is added to `brier`.
fn play(
    g: &TmntGame,
    spec: &str,
    base: u64,
    games: u64,
    prob: f64,
    search: Option<&MctsConfig>,
    brier: &mut f64,
) -> Vec<String> {
    let mut rows = Vec::new();
    let mut tree: Tree<TmntGame> = Tree::default();
    let mut visits = Vec::new();
    for i in 0..games {
        let seed = base + i;
        let mut s = g.new_game(seed, Seat::ALL[(i % 2) as usize]);
        let mut agents = [agent(spec, seed ^ 0x5eed), agent(spec, seed ^ 0xbeef)];
        let mut pick = rng_from_seed(seed ^ 0xda7a);
        let mut searcher = rng_from_seed(seed ^ 0x5ea7c4);
        let mut kept: Vec<(Seat, u32, [f64; LEAF_FEATURES], f64)> = Vec::new();
        let mut n = 0u32;
        while let Some(q) = g.to_move(&s) {
            if pick.gen::<f64>() < prob {
                if let Some(cfg) = search {
                    tree.search(g, &s, q, cfg, &mut searcher, &mut visits);
                    // The most visited root action's mean (the first of equals).
                    let (mut best, mut value) = (0, 0.0);
                    for (_, v, m) in tree.root_stats() {
                        if v > best {
                            (best, value) = (v, m);
                        }
                    }
                    kept.push((q, n, g.leaf_features(&s, q), value));
                } else {
                    let seat = Seat::ALL[pick.gen_range(0..2)];
                    kept.push((seat, n, g.leaf_features(&s, seat), f64::NAN));
                }
            }
            let a = agents[q.index()].choose(g, &s, q);
            g.apply(&mut s, a);
            n += 1;
        }
        let o = g.outcome(&s).expect("a finished game");
        for (seat, at, f, value) in kept {
            let mut row = format!("{seed},{at},{n}");
            for v in f {
                row.push_str(&format!(",{v}"));
            }
            if search.is_some() {
                *brier += (value - o.score(seat)).powi(2);
                row.push_str(&format!(",{value}"));
            } else {
                row.push_str(&format!(",{}", o.score(seat)));
            }
            rows.push(row);
        }
    }
    rows
}

/// `gen` (`search` None) and `search` (the search's settings).
fn gen(args: &[String], search: Option<&MctsConfig>) {
    let spec = args[0].as_str();
    let seed: u64 = args[1].parse().expect("SEED");
    let games: u64 = args[2].parse().expect("GAMES");
    let prob: f64 = args[3].parse().expect("PROB");
    let out = &args[4];
    let threads: usize = args.get(5).map_or(1, |t| t.parse().expect("THREADS"));
    let db = bundled_cards();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/decks/tmnt/");
    let decks: Vec<_> = DECKS
        .iter()
        .map(|n| TmntGame::load_deck(&db, format!("{root}{n}.deck").as_ref()).expect("a deck"))
        .collect();
    let mut pairs = Vec::new();
    for a in &decks {
        for b in &decks {
            pairs.push(TmntGame::new_match(&db, [a, b]));
        }
    }
    // Pair k on thread k % threads; the rows in pair order whatever the threads.
    let mut by_pair: Vec<Vec<String>> = vec![Vec::new(); pairs.len()];
    let mut brier = 0.0;
    std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let pairs = &pairs;
                sc.spawn(move || {
                    (t..pairs.len())
                        .step_by(threads)
                        .map(|k| {
                            let base = seed + k as u64 * games;
                            let mut b = 0.0;
                            let rows = play(&pairs[k], spec, base, games, prob, search, &mut b);
                            (k, rows, b)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (k, rows, b) in h.join().expect("a thread") {
                by_pair[k] = rows;
                brier += b;
            }
        }
    });
    let mut f = std::io::BufWriter::new(std::fs::File::create(out).expect("OUT"));
    write!(f, "seed,decision,decisions").unwrap();
    for n in LEAF_FEATURE_NAMES {
        write!(f, ",{n}").unwrap();
    }
    writeln!(f, ",score").unwrap();
    let mut count = 0;
    for rows in by_pair {
        for r in rows {
            writeln!(f, "{r}").unwrap();
            count += 1;
        }
    }
    eprintln!("{count} rows, {} games", games * pairs.len() as u64);
    if search.is_some() {
        eprintln!(
            "the search values' Brier score on the final scores: {:.4}",
            brier / f64::from(count)
        );
    }
}

/// The features and labels of a CSV of `gen`.
fn read(path: &str) -> (Vec<f64>, Vec<f64>) {
    let text = std::fs::read_to_string(path).expect("a CSV");
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for line in text.lines().skip(1) {
        let v: Vec<f64> = line
            .split(',')
            .map(|t| t.parse().expect("a number"))
            .collect();
        assert_eq!(v.len(), 3 + LEAF_FEATURES + 1, "a row of gen");
        xs.extend_from_slice(&v[3..3 + LEAF_FEATURES]);
        ys.push(v[3 + LEAF_FEATURES]);
    }
    (xs, ys)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Log-loss, Brier score and the calibration table of predictions `p` against labels `y`.
fn report(name: &str, p: &[f64], y: &[f64]) {
    let n = p.len() as f64;
    let eps = 1e-12;
    let ll = -p
        .iter()
        .zip(y)
        .map(|(&p, &y)| y * p.max(eps).ln() + (1.0 - y) * (1.0 - p).max(eps).ln())
        .sum::<f64>()
        / n;
    let brier = p.iter().zip(y).map(|(p, y)| (p - y).powi(2)).sum::<f64>() / n;
    println!(
        "{name}: log-loss {ll:.4}, Brier {brier:.4}, {} rows",
        p.len()
    );
    println!("  bin, rows, mean predicted, observed");
    for b in 0..10 {
        let (lo, hi) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
        let (mut k, mut sp, mut sy) = (0usize, 0.0, 0.0);
        for (&p, &y) in p.iter().zip(y) {
            if p >= lo && (p < hi || (b == 9 && p <= 1.0)) {
                k += 1;
                sp += p;
                sy += y;
            }
        }
        if k > 0 {
            println!(
                "  {lo:.1}-{hi:.1}, {k}, {:.3}, {:.3}",
                sp / k as f64,
                sy / k as f64
            );
        } else {
            println!("  {lo:.1}-{hi:.1}, 0, -, -");
        }
    }
}

fn predict(xs: &[f64], w: &[f64]) -> Vec<f64> {
    xs.chunks_exact(LEAF_FEATURES)
        .map(|x| sigmoid(x.iter().zip(w).map(|(a, b)| a * b).sum()))
        .collect()
}

fn score(w: &[f64], test: &str) {
    let (xt, yt) = read(test);
    // The old evaluation: a logistic of the deck difference / 6 (feature 0).
    let mut old = [0.0; LEAF_FEATURES];
    old[0] = 1.0 / 6.0;
    report("old (deck difference / 6)", &predict(&xt, &old), &yt);
    report("new", &predict(&xt, w), &yt);
    report("built in (LEAF_WEIGHTS)", &predict(&xt, &LEAF_WEIGHTS), &yt);
}

fn fit(args: &[String]) {
    let (xs, ys) = read(&args[0]);
    let l2: f64 = args.get(2).map_or(1.0, |t| t.parse().expect("L2"));
    let w = fit_logistic(&xs, &ys, LEAF_FEATURES, l2);
    println!("{} training rows, L2 {l2}", ys.len());
    for (n, v) in LEAF_FEATURE_NAMES.iter().zip(&w) {
        println!("  {n:>18} {v:+.6}");
    }
    let line: Vec<String> = w.iter().map(|v| format!("{v:.6}")).collect();
    println!("weights: {}", line.join(","));
    report("new, on the training rows", &predict(&xs, &w), &ys);
    score(&w, &args[1]);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => gen(&args[1..], None),
        Some("search") => {
            let Ok(AgentSpec::Mcts(cfg)) = AgentSpec::parse(&args[5]) else {
                panic!("SEARCH: an ismcts: or cheat: spec");
            };
            let mut rest = args[1..5].to_vec();
            rest.extend_from_slice(&args[6..]);
            gen(&rest, Some(&cfg));
        }
        Some("fit") => fit(&args[1..]),
        Some("score") => {
            let text = std::fs::read_to_string(&args[1]).expect("WEIGHTS.csv");
            let w: Vec<f64> = text
                .trim()
                .split(',')
                .map(|t| t.trim().parse().expect("a weight"))
                .collect();
            assert_eq!(w.len(), LEAF_FEATURES);
            score(&w, &args[2]);
        }
        _ => eprintln!("usage: eval_data gen AGENT SEED GAMES PROB OUT.csv [THREADS] | fit TRAIN.csv TEST.csv [L2] | score WEIGHTS.csv TEST.csv | search AGENT SEED GAMES PROB SEARCH OUT.csv [THREADS]"),
    }
}
