//! Heuristic or random self-play for profiling (perf, callgrind):
//! `cargo run --release --example selfplay -- heuristic 2000`.
use std::path::PathBuf;
use tcgsim::core::Seat;
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{bundled_cards, TrailsGame};
use tcgsim::sim::bench::selfplay_game;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let heuristic = args.get(1).map(|s| s == "heuristic").unwrap_or(true);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let db = bundled_cards();
    let a = Deck::load(&root.join("decks/trails/aggro.deck"), &db).unwrap();
    let b = Deck::load(&root.join("decks/trails/control.deck"), &db).unwrap();
    let g = TrailsGame::new(db, a.cards, b.cards);
    let t = std::time::Instant::now();
    let decisions: u64 = (0..n)
        .map(|seed| selfplay_game(&g, seed, Seat::from_index((seed % 2) as usize), heuristic))
        .sum();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{n} games, {decisions} decisions, {:.0} ns/decision, {:.0} games/s",
        secs * 1e9 / decisions as f64,
        n as f64 / secs
    );
}
