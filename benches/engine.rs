//! Engine speed: legal actions, apply/undo, copy and determinize at a fixed mid-game position, and
//! random and heuristic self-play over fixed seeds, with throughput counted in decisions (so
//! criterion's "elem/s" is decisions per second; one over it is the time per decision).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tcgsim::sim::bench::selfplay_game;
use tcgsim::{rng_from_seed, ActionList, Game, Seat};

#[path = "common.rs"]
mod common;

/// Games per self-play measurement: seeds 1..=GAMES, initiative alternating.
const GAMES: u64 = 32;

fn engine(c: &mut Criterion) {
    let (g, s) = common::position("midgame");
    let mut list = ActionList::new();
    c.bench_function("legal_actions midgame", |b| {
        b.iter(|| {
            g.legal_actions(black_box(&s), &mut list);
            list.len()
        })
    });
    g.legal_actions(&s, &mut list);
    let a = list[1];
    c.bench_function("apply+undo midgame", |b| {
        let mut st = s;
        b.iter(|| {
            let u = g.apply(&mut st, black_box(a));
            g.undo(&mut st, u);
        })
    });
    // One copy of the whole state into a fixed place (what `apply` does for its undo record).
    let mut copy = s;
    c.bench_function("state copy", |b| {
        b.iter(|| {
            copy = *black_box(&s);
            black_box(&copy);
        })
    });
    let mut rng = rng_from_seed(1);
    c.bench_function("determinize midgame", |b| {
        b.iter(|| g.determinize(black_box(&s), Seat::P1, &mut rng))
    });

    let game = common::aggro_control();
    let play = |heuristic: bool| {
        (1..=GAMES)
            .map(|seed| {
                let first = Seat::from_index((seed % 2) as usize);
                selfplay_game(&game, black_box(seed), first, heuristic)
            })
            .sum::<u64>()
    };
    for (name, heuristic) in [("random", false), ("heuristic", true)] {
        let decisions = play(heuristic);
        let mut group = c.benchmark_group(format!("{name} self-play aggro-control"));
        group.throughput(Throughput::Elements(decisions));
        group.bench_function(format!("{GAMES} games, {decisions} decisions"), |b| {
            b.iter(|| play(heuristic))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = engine
}
criterion_main!(benches);
