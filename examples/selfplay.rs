//! Heuristic or random self-play for profiling: `cargo run --release --example selfplay -- heuristic 2000`.
use std::path::PathBuf;
use tcgsim::agents::{Agent, HeuristicAgent, RandomAgent};
use tcgsim::core::{Game, Seat};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{bundled_cards, TrailsGame};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let heuristic = args.get(1).map(|s| s == "heuristic").unwrap_or(true);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let db = bundled_cards();
    let a = Deck::load(&root.join("decks/trails/aggro.deck"), &db).unwrap();
    let b = Deck::load(&root.join("decks/trails/control.deck"), &db).unwrap();
    let g = TrailsGame::new(db, a.cards, b.cards);
    let mut decisions = 0u64;
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut s = g.new_game(seed, Seat::from_index((seed % 2) as usize));
        let mut h = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 1)];
        let mut r = [RandomAgent::new(seed), RandomAgent::new(seed + 1)];
        while let Some(q) = g.to_move(&s) {
            let act = if heuristic {
                h[q.index()].choose(&g, &s, q)
            } else {
                r[q.index()].choose(&g, &s, q)
            };
            g.apply(&mut s, act);
            decisions += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{n} games, {decisions} decisions, {:.0} ns/decision, {:.0} games/s",
        secs * 1e9 / decisions as f64,
        n as f64 / secs
    );
}
