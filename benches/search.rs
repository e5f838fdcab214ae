//! Search speed: ISMCTS iterations from the fixed mid-game position, random and heuristic playouts.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::playout::Policy;
use tcgsim::core::{rng_from_seed, Game};
use tcgsim::games::trails::TrailsGame;

#[path = "common.rs"]
mod common;

fn search(c: &mut Criterion) {
    let (g, s) = common::position("midgame");
    let me = g.to_move(&s).unwrap();
    let mut group = c.benchmark_group("ismcts 200 iterations midgame");
    group.throughput(Throughput::Elements(200));
    for policy in [Policy::Random, Policy::Heuristic] {
        let cfg = MctsConfig {
            iterations: 200,
            playout: policy,
            ..MctsConfig::default()
        };
        let mut tree: Tree<TrailsGame> = Tree::default();
        let mut out = Vec::new();
        let mut rng = rng_from_seed(7);
        group.bench_function(policy.name(), |b| {
            b.iter(|| {
                tree.search(&g, &s, me, &cfg, &mut rng, &mut out);
                tree.playout_decisions
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(4));
    targets = search
}
criterion_main!(benches);
