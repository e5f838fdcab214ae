//! Heuristic or random self-play of a game's bench match (`GameDef::bench_match`), for profiling
//! (perf, callgrind): `cargo run --release --features tools --example selfplay -- [GAME] heuristic|random N`.
//! GAME defaults to `trails` (aggro vs control); games are seeded 0..N, first player alternating.
use tcgsim::core::{GameDef, Seat};
use tcgsim::games::{visit, Visit};
use tcgsim::sim::bench::selfplay_game;

struct Run {
    heuristic: bool,
    n: u64,
}

impl Visit for Run {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let g = G::bench_match().expect("the bench match");
        let t = std::time::Instant::now();
        let decisions: u64 = (0..self.n)
            .map(|seed| {
                selfplay_game(
                    &g,
                    seed,
                    Seat::from_index((seed % 2) as usize),
                    self.heuristic,
                )
            })
            .sum();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{} games, {decisions} decisions, {:.0} ns/decision, {:.0} games/s",
            self.n,
            secs * 1e9 / decisions as f64,
            self.n as f64 / secs
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let game = if args
        .first()
        .is_some_and(|a| a != "heuristic" && a != "random")
    {
        args.remove(0)
    } else {
        "trails".into()
    };
    let heuristic = args.first().map(|s| s == "heuristic").unwrap_or(true);
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    visit(&game, Run { heuristic, n }).unwrap_or_else(|| panic!("no game named {game}"));
}
