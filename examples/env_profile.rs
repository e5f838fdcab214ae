//! Steps 64 single-agent environments against random with random actions (the Python package's
//! `VecEnv.step(None)`, `docs/python.md`), for profiles and instruction counts:
//!
//!     cargo build --profile profiling --examples
//!     valgrind --tool=callgrind target/profiling/examples/env_profile tmnt 100000
//!
//! Prints the environment steps taken (every row's, summed) and the games finished.

use std::path::Path;
use tcgsim::games;
use tcgsim::sim::env::{EnvSpec, Outputs, SeatChoice, Source, VecEnv};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("trails", String::as_str);
    let steps: usize = args
        .get(2)
        .map_or(100_000, |s| s.parse().expect("a number of steps"));
    let info = games::info(game).expect("a registered game");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(info.deck_dir);
    let deck =
        |k: usize| Source::File(dir.join(format!("{}.{}", info.arena_decks[k], info.deck_ext)));
    let spec = EnvSpec {
        game: game.into(),
        cards: None,
        decks: [deck(0), deck(1)],
        opponent: Some("random".into()),
        seat: SeatChoice::Random,
        first: SeatChoice::Random,
    };
    let n = 64;
    let mut v = VecEnv::new(&spec, n, 1).expect("the bench decks");
    let (l, a) = (v.first().layout().len(), v.first().space().len());
    let (mut obs, mut mask, mut reward, mut term, mut bad) = (
        vec![0f32; n * l],
        vec![0u8; n * a],
        vec![0f32; n],
        vec![0u8; n],
        vec![0u8; n],
    );
    macro_rules! out {
        () => {
            Outputs {
                obs: &mut obs,
                mask: &mut mask,
                reward: &mut reward,
                terminated: &mut term,
                illegal: &mut bad,
                final_obs: None,
            }
        };
    }
    v.reset(out!());
    let (mut taken, mut ended) = (0, 0usize);
    while taken < steps {
        v.step(None, out!());
        taken += n;
        ended += term.iter().filter(|&&t| t == 1).count();
    }
    println!("{game}: {taken} environment steps, {ended} games finished");
}
