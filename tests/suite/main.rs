//! The integration tests, one module per subject, built as one test binary: each test binary is
//! linked on its own, which took most of a fresh `cargo test --release` (fat LTO) when every file
//! was its own binary. `cargo test --profile ci --test suite matrix::` runs one module's tests;
//! `cargo test --profile ci --test suite -- --list` names them all (`--release` works as well: the
//! same tests, built as the simulator is).
//!
//! The modules share a process: `alloc` counts only the allocations of the thread it measures, and
//! `fuzz` silences panics only on the thread that runs a target, so neither touches the others.
//!
//! Checks that hold for every game are written once, generic over `G: GameDef`, and [`per_game!`]
//! makes one test of each per registered game: `conformance::fireforce::undo_restores_the_state`,
//! so the first failing game hides no other and the name says which. `cargo test --profile ci --test
//! suite ::tmnt::` runs every generic check on one game.

/// One `#[test]` per (game, check): `per_game!(check_a, check_b)` in a module that defines
/// `fn check_a<G: GameDef>()` and `fn check_b<G: GameDef>()` adds a module per game (named as the
/// game is on the command line) holding a test per check that runs `check::<ThatGame>()`.
///
/// The games are the registry's (`src/games/mod.rs`), in its order;
/// `conformance::the_suite_runs_every_registered_game` fails when a game is registered and not
/// listed here, or a module's name is not its game's name.
macro_rules! per_game {
    // The games, the one list of them here: `module Type`, as `src/games/mod.rs` registers them.
    (@list $($then:tt)*) => {
        per_game! {
            @with [trails TrailsGame, toy ToyGame, fireforce FireForceGame, tmnt TmntGame] $($then)*
        }
    };
    // `per_game!(@games)`: the games' names, in order.
    (@games) => {
        per_game! { @list @names }
    };
    (@with [$($module:ident $game:ident),+] @names) => {
        [$(stringify!($module)),+]
    };
    (@with [$($module:ident $game:ident),+] @checks $checks:tt) => {
        $(per_game!(@game $module $game $checks);)+
    };
    (@game $module:ident $game:ident [$($check:ident),+]) => {
        mod $module {
            $(
                #[test]
                fn $check() {
                    type G = tcgsim::games::$module::$game;
                    assert_eq!(
                        <G as tcgsim::GameDef>::INFO.name,
                        stringify!($module),
                        "the test module of a game is named as the game"
                    );
                    super::$check::<G>();
                }
            )+
        }
    };
    ($($check:ident),+ $(,)?) => {
        per_game!(@list @checks [$($check),+]);
    };
}

mod common;

mod agents;
mod alloc;
mod cardlang;
mod cli;
mod commands;
mod conformance;
mod draws;
mod engine;
mod fireforce;
mod formats;
mod fuzz;
mod inputs;
mod layers;
mod matrix;
mod meta;
mod pool;
mod process;
mod python;
mod report;
mod result_files;
mod rule_ids;
mod scenarios;
mod statistics;
mod tmnt;
mod toy;
mod tune;
