//! What a search learns at the root: for positions of heuristic self-play games (aggro vs
//! control), runs the cheating MCTS (true state) and ISMCTS with the same budget and reports how
//! far apart the root actions' mean results are, and how often every root action reads the same
//! result ("saturated": all means ≥ 0.98 or all ≤ 0.02, so the search cannot tell actions apart).
//! This is the diagnosis of `docs/agents.md`, "What hidden information costs".
//!
//! `cargo run --release --features tools --example root_values -- [POSITIONS] [ITERATIONS]`
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::playout::Policy;
use tcgsim::agents::{Agent, HeuristicAgent};
use tcgsim::core::{rng_from_seed, ActionList, Game, Seat};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{bundled_cards, State, TrailsGame};

fn positions(g: &TrailsGame, n: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        seed += 1;
        let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
        let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 99)];
        let stop = 20 + (seed as usize * 37) % 160;
        for _ in 0..stop {
            let Some(q) = g.to_move(&s) else { break };
            let a = agents[q.index()].choose(g, &s, q);
            g.apply(&mut s, a);
        }
        let mut list = ActionList::new();
        g.legal_actions(&s, &mut list);
        if g.to_move(&s).is_some() && list.len() >= 2 {
            out.push(s);
        }
    }
    out
}

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/decks/trails/");
    let db = bundled_cards();
    let a = Deck::load(format!("{root}aggro.deck").as_ref(), &db).unwrap();
    let b = Deck::load(format!("{root}control.deck").as_ref(), &db).unwrap();
    let g = TrailsGame::new(db, a.cards, b.cards);
    let args: Vec<String> = std::env::args().collect();
    let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let iterations = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(500);
    let states = positions(&g, n);
    println!("{n} positions, {iterations} iterations; per search: spread = max - min mean result over root actions with >= 10 visits");
    println!("search,playout,eps,saturated,mean spread,median spread");
    for (playout, eps) in [
        (Policy::Heuristic, 0.0),
        (Policy::Heuristic, 0.1),
        (Policy::Heuristic, 0.25),
        (Policy::Random, 0.0),
    ] {
        for determinize in [false, true] {
            let cfg = MctsConfig {
                iterations,
                playout,
                eps,
                determinize,
                ..MctsConfig::default()
            };
            let mut tree: Tree<TrailsGame> = Tree::default();
            let mut out = Vec::new();
            let mut saturated = 0;
            let mut spreads = Vec::new();
            for (k, s) in states.iter().enumerate() {
                let me = g.to_move(s).unwrap();
                tree.search(&g, s, me, &cfg, &mut rng_from_seed(k as u64), &mut out);
                let means: Vec<f64> = tree
                    .root_stats()
                    .filter(|&(_, v, _)| v >= 10)
                    .map(|(_, _, m)| m)
                    .collect();
                if means.is_empty() {
                    continue;
                }
                let hi = means.iter().cloned().fold(f64::MIN, f64::max);
                let lo = means.iter().cloned().fold(f64::MAX, f64::min);
                if lo >= 0.98 || hi <= 0.02 {
                    saturated += 1;
                }
                spreads.push(hi - lo);
            }
            spreads.sort_by(f64::total_cmp);
            println!(
                "{},{},{eps},{:.2},{:.3},{:.3}",
                if determinize { "ismcts" } else { "cheat" },
                playout.name(),
                saturated as f64 / spreads.len() as f64,
                spreads.iter().sum::<f64>() / spreads.len() as f64,
                spreads[spreads.len() / 2]
            );
        }
    }
}
