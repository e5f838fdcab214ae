//! Steps 64 (or the third argument's number of) single-agent environments against random with random actions (the Python package's
//! `VecEnv.step(None)`, `docs/python.md`), for profiles and instruction counts:
//!
//!     cargo build --profile profiling --features tools --examples
//!     valgrind --tool=callgrind target/profiling/examples/env_profile tmnt 100000
//!
//! Prints the environment steps taken (every row's, summed) and the games finished.

use tcgsim::games;
use tcgsim::sim::env::{Buffers, EnvSpec, VecEnv};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("trails", String::as_str);
    let steps: usize = args
        .get(2)
        .map_or(100_000, |s| s.parse().expect("a number of steps"));
    let info = games::info(game).expect("a registered game");
    let n: usize = args
        .get(3)
        .map_or(64, |s| s.parse().expect("a number of rows"));
    let mut v = VecEnv::new(&EnvSpec::bench(info, "random"), n, 1).expect("the bench decks");
    let mut out = Buffers::new(&v);
    v.reset(out.outputs(false));
    let (mut taken, mut ended) = (0, 0usize);
    while taken < steps {
        v.step(None, out.outputs(false));
        taken += n;
        ended += out.terminated.iter().filter(|&&t| t == 1).count();
    }
    println!("{game}: {taken} environment steps, {ended} games finished");
}
