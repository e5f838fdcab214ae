//! ISMCTS from the bench position, for profiling:
//! `cargo run --release --features tools --example search_profile -- [ITERATIONS] [heuristic|random]`.
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::playout::Policy;
use tcgsim::core::{rng_from_seed, Game};
use tcgsim::games::trails::scenario::Scenario;
use tcgsim::games::trails::{bundled_cards, TrailsGame};
fn main() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/positions/midgame.scn"
    ))
    .unwrap();
    let sc = Scenario::parse(&text, "midgame", bundled_cards()).unwrap();
    let g = &sc.game;
    let s = sc.state;
    let me = g.to_move(&s).unwrap();
    let args: Vec<String> = std::env::args().collect();
    let iterations = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let playout = Policy::parse(args.get(2).map_or("heuristic", |s| s.as_str())).unwrap();
    let cfg = MctsConfig {
        iterations,
        playout,
        // As scripts/instructions.sh has always counted: the heuristic policy alone.
        eps: 0.0,
        ..MctsConfig::default()
    };
    let mut tree: Tree<TrailsGame> = Tree::default();
    let mut out = Vec::new();
    let t = std::time::Instant::now();
    tree.search(g, &s, me, &cfg, &mut rng_from_seed(1), &mut out);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} iterations, {} playout decisions in {secs:.2} s: {:.0} it/s, {:.0} ns/decision",
        tree.iterations,
        tree.playout_decisions,
        tree.iterations as f64 / secs,
        secs * 1e9 / tree.playout_decisions as f64
    );
}
