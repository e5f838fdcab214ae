//! Search speed: ISMCTS from the fixed mid-game position, random and heuristic playouts. Every
//! run starts from the same seed, so it does the same work: throughput is counted in iterations,
//! and the bench name gives the playout decisions of one run (time per run / that number = time
//! per playout decision).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcgsim::agents::mcts::Tree;
use tcgsim::{rng_from_seed, Game, MctsConfig, Playout, TrailsGame};

#[path = "common.rs"]
mod common;

const ITERATIONS: u32 = 200;

fn search(c: &mut Criterion) {
    let (g, s) = common::position("midgame");
    let me = g.to_move(&s).unwrap();
    let mut group = c.benchmark_group(format!("ismcts {ITERATIONS} iterations midgame"));
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    for policy in [Playout::Random, Playout::Heuristic] {
        let cfg = MctsConfig {
            iterations: ITERATIONS,
            playout: policy,
            // As recorded in docs/performance.md: the heuristic policy alone.
            eps: 0.0,
            ..MctsConfig::default()
        };
        let mut tree: Tree<TrailsGame> = Tree::default();
        let mut out = Vec::new();
        let mut run = || {
            tree.search(&g, &s, me, &cfg, &mut rng_from_seed(7), &mut out);
            tree.playout_decisions
        };
        let decisions = run();
        group.bench_function(
            format!("{} playouts, {decisions} playout decisions", policy.name()),
            |b| b.iter(&mut run),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(4));
    targets = search
}
criterion_main!(benches);
