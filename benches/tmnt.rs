//! TMNT TCG engine speed, beside Trails' (`benches/engine.rs`): legal actions, apply/undo,
//! copy and determinize at a mid-game position, random and heuristic self-play, and ISMCTS
//! iterations. The match is the game's bench match (starter_north against starter_east); the
//! position is 30 random decisions into the game of seed 7.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tcgsim::agents::mcts::{MctsConfig, Tree};
use tcgsim::agents::{Agent, RandomAgent};
use tcgsim::core::{rng_from_seed, ActionList, Game, GameDef, Seat};
use tcgsim::games::tmnt::TmntGame;
use tcgsim::sim::bench::selfplay_game;

const GAMES: u64 = 32;

fn tmnt(c: &mut Criterion) {
    let g = TmntGame::bench_match();
    let mut s = g.new_game(7, Seat::P1);
    let mut agents = [RandomAgent::new(1), RandomAgent::new(2)];
    for _ in 0..30 {
        let Some(q) = g.to_move(&s) else { break };
        let a = agents[q.index()].choose(&g, &s, q);
        g.apply(&mut s, a);
    }
    assert!(g.to_move(&s).is_some(), "the bench position is not over");
    let mut list = ActionList::new();
    c.bench_function("tmnt legal_actions midgame", |b| {
        b.iter(|| {
            g.legal_actions(black_box(&s), &mut list);
            list.len()
        })
    });
    g.legal_actions(&s, &mut list);
    let a = list[0];
    c.bench_function("tmnt apply+undo midgame", |b| {
        let mut st = s;
        b.iter(|| {
            let u = g.apply(&mut st, black_box(a));
            g.undo(&mut st, u);
        })
    });
    let mut copy = s;
    c.bench_function("tmnt state copy", |b| {
        b.iter(|| {
            copy = *black_box(&s);
            black_box(&copy);
        })
    });
    let mut rng = rng_from_seed(1);
    c.bench_function("tmnt determinize midgame", |b| {
        b.iter(|| g.determinize(black_box(&s), Seat::P1, &mut rng))
    });
    let play = |heuristic: bool| {
        (1..=GAMES)
            .map(|seed| {
                let first = Seat::from_index((seed % 2) as usize);
                selfplay_game(&g, black_box(seed), first, heuristic)
            })
            .sum::<u64>()
    };
    for (name, heuristic) in [("random", false), ("heuristic", true)] {
        let decisions = play(heuristic);
        let mut group = c.benchmark_group(format!("tmnt {name} self-play"));
        group.throughput(Throughput::Elements(decisions));
        group.bench_function(format!("{GAMES} games, {decisions} decisions"), |b| {
            b.iter(|| play(heuristic))
        });
        group.finish();
    }
    let me = g.to_move(&s).expect("not over");
    let cfg = MctsConfig {
        iterations: 1000,
        ..MctsConfig::default()
    };
    let mut tree: Tree<TmntGame> = Tree::default();
    let mut out = Vec::new();
    let mut rng = rng_from_seed(9);
    let mut group = c.benchmark_group("tmnt ISMCTS midgame");
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000 iterations", |b| {
        b.iter(|| tree.search(&g, &s, me, &cfg, &mut rng, &mut out))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = tmnt
}
criterion_main!(benches);
