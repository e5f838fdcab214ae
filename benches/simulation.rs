//! Simulation speed: heuristic self-play games, and a matrix chunk.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcgsim::{run_task, AgentSpec, Entrant, MatrixPlan, Task};

#[path = "common.rs"]
mod common;

fn simulation(c: &mut Criterion) {
    let game = common::aggro_control();
    let plan = MatrixPlan {
        deck_names: vec!["aggro".into(), "control".into()],
        agent_a: "heuristic".into(),
        agent_b: "heuristic".into(),
        games: 50,
        seed: 1,
        chunk: 50,
        ..MatrixPlan::default()
    };
    let h = Entrant::new(AgentSpec::Heuristic);
    let r = Entrant::new(AgentSpec::Random);
    let mut group = c.benchmark_group("50 games aggro-control");
    group.throughput(Throughput::Elements(50));
    let task = Task {
        row: 0,
        col: 1,
        chunk: 0,
    };
    group.bench_function("heuristic", |b| {
        b.iter(|| run_task(&plan, &game, &h, &h, task))
    });
    group.bench_function("random", |b| {
        b.iter(|| run_task(&plan, &game, &r, &r, task))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = simulation
}
criterion_main!(benches);
