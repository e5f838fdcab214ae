//! Engine speed of every registered game, one generic bench run through the registry
//! (`tcgsim::visit`), so a new game is measured by adding its registry line: legal actions,
//! apply/undo, copy and determinize at a mid-game position, random and heuristic self-play of 32
//! fixed games, and 1,000 ISMCTS iterations. The match is the game's bench match
//! (`GameDef::bench_match`); the position is some random decisions into its game of seed 7
//! ([`decisions_into`]). Bench names start with the game's name: `cargo bench --bench games --
//! tmnt` measures one game. (Trails' criterion figures in `docs/performance.md` come from
//! `benches/engine.rs`, which starts from the fixed position `benches/positions/midgame.scn`.)

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tcgsim::agents::mcts::Tree;
use tcgsim::sim::bench::selfplay_game;
use tcgsim::{
    rng_from_seed, visit, ActionList, Agent, GameDef, MctsConfig, RandomAgent, Seat, Visit, GAMES,
};

/// Games per self-play measurement: seeds 1..=GAMES, initiative alternating.
const GAMES_PLAYED: u64 = 32;

/// How many random decisions into the game of seed 7 the bench position is: 60 (Fire Force and
/// the others), 30 for TMNT, whose games are shorter, and 6 for the toy game's 16 decisions.
fn decisions_into(game: &str) -> usize {
    match game {
        "tmnt" => 30,
        "toy" => 6,
        _ => 60,
    }
}

/// The benches of one game.
struct Bench<'a>(&'a mut Criterion);

impl Visit for Bench<'_> {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let c = self.0;
        let name = G::INFO.name;
        let g = G::bench_match().expect("the bench match");
        let mut s = g.new_game(7, Seat::P1);
        let mut agents = [RandomAgent::new(1), RandomAgent::new(2)];
        for _ in 0..decisions_into(name) {
            let Some(q) = g.to_move(&s) else { break };
            let a = agents[q.index()].choose(&g, &s, q);
            g.apply(&mut s, a);
        }
        assert!(g.to_move(&s).is_some(), "the bench position is not over");
        let mut list = ActionList::new();
        c.bench_function(&format!("{name} legal_actions midgame"), |b| {
            b.iter(|| {
                g.legal_actions(black_box(&s), &mut list);
                list.len()
            })
        });
        g.legal_actions(&s, &mut list);
        let a = list[0];
        c.bench_function(&format!("{name} apply+undo midgame"), |b| {
            let mut st = s;
            b.iter(|| {
                let u = g.apply(&mut st, black_box(a));
                g.undo(&mut st, u);
            })
        });
        let mut copy = s;
        c.bench_function(&format!("{name} state copy"), |b| {
            b.iter(|| {
                copy = *black_box(&s);
                black_box(&copy);
            })
        });
        let mut rng = rng_from_seed(1);
        c.bench_function(&format!("{name} determinize midgame"), |b| {
            b.iter(|| g.determinize(black_box(&s), Seat::P1, &mut rng))
        });
        let play = |heuristic: bool| {
            (1..=GAMES_PLAYED)
                .map(|seed| {
                    let first = Seat::from_index((seed % 2) as usize);
                    selfplay_game(&g, black_box(seed), first, heuristic)
                })
                .sum::<u64>()
        };
        for (kind, heuristic) in [("random", false), ("heuristic", true)] {
            let decisions = play(heuristic);
            let mut group = c.benchmark_group(format!("{name} {kind} self-play"));
            group.throughput(Throughput::Elements(decisions));
            group.bench_function(
                format!("{GAMES_PLAYED} games, {decisions} decisions"),
                |b| b.iter(|| play(heuristic)),
            );
            group.finish();
        }
        let me = g.to_move(&s).expect("not over");
        if G::CAPS.tensors {
            env_benches::<G>(c, &g, &s, me);
        }
        let cfg = MctsConfig {
            iterations: 1000,
            ..MctsConfig::default()
        };
        let mut tree: Tree<G> = Tree::default();
        let mut out = Vec::new();
        let mut rng = rng_from_seed(9);
        let mut group = c.benchmark_group(format!("{name} ISMCTS midgame"));
        group.throughput(Throughput::Elements(1000));
        group.bench_function("1000 iterations", |b| {
            b.iter(|| tree.search(&g, &s, me, &cfg, &mut rng, &mut out))
        });
        group.finish();
    }
}

/// The tensors and the environments (`docs/python.md`): one observation written at the bench
/// position, and a step of 64 single-agent games against random with random actions (each row's
/// observation and mask written), per environment step.
fn env_benches<G: GameDef>(c: &mut Criterion, g: &G, s: &G::State, me: Seat) {
    use tcgsim::core::tensor::ObsOut;
    use tcgsim::sim::env::{Buffers, EnvSpec, VecEnv};
    let name = G::INFO.name;
    let layout = G::obs_layout(g.match_cards());
    let mut v = vec![0f32; layout.len()];
    c.bench_function(&format!("{name} observe midgame"), |b| {
        b.iter(|| g.observe(black_box(s), me, &mut ObsOut::new(&layout, &mut v)))
    });
    let n = 64;
    let mut venv = VecEnv::new(&EnvSpec::bench(&G::INFO, "random"), n, 1).expect("the bench decks");
    let mut out = Buffers::new(&venv);
    venv.reset(out.outputs(false));
    let mut group = c.benchmark_group(format!("{name} VecEnv"));
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("step x{n}, random actions"), |b| {
        b.iter(|| venv.step(None, out.outputs(false)))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    for game in GAMES {
        visit(game.name, Bench(c)).expect("a registered game");
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = games
}
criterion_main!(benches);
