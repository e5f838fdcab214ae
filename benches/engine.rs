//! Engine speed: legal actions, apply/undo, copy, determinize, and whole random games.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use tcgsim::agents::{Agent, RandomAgent};
use tcgsim::core::{rng_from_seed, ActionList, Game, Seat};

#[path = "common.rs"]
mod common;

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
    c.bench_function("state copy", |b| b.iter(|| black_box(black_box(s))));
    let mut rng = rng_from_seed(1);
    c.bench_function("determinize midgame", |b| {
        b.iter(|| g.determinize(black_box(&s), Seat::P1, &mut rng))
    });
    let game = common::aggro_control();
    let mut seed = 0u64;
    c.bench_function("random game aggro-control", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |seed| {
                let mut st = game.new_game(seed, Seat::P1);
                let mut ag = [RandomAgent::new(seed), RandomAgent::new(seed + 1)];
                let mut n = 0u32;
                while let Some(q) = game.to_move(&st) {
                    let a = ag[q.index()].choose(&game, &st, q);
                    game.apply(&mut st, a);
                    n += 1;
                }
                n
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = engine
}
criterion_main!(benches);
