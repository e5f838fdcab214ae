//! tcgsim: a Monte Carlo AI and deck-strength simulator for two-player trading card games.
//!
//! The modules, from the ground up (no import points up: `tests/suite/layers.rs`):
//!
//! - [`core`]: the [`Game`] trait and what every game shares; [`stats`]: the statistics.
//! - [`games`]: the rules of each game (the Trails TCG first), and the registry of games.
//! - [`agents`]: players generic over the trait.
//! - [`sim`]: the runners — each command's algorithm as a library call (a plan in, an outcome out,
//!   no file written) — and their result files.
//! - [`report`]: the HTML report of run folders; [`cli`]: the command line.
//!
//! # The flat API
//!
//! What a library user (and the tests and benches) needs is re-exported here, so that
//! `use tcgsim::{GameDef, AgentSpec, Entrant, play_game};` is enough:
//!
//! - **Games**: the traits [`Game`] (what search needs), [`Policy`] (a game's heuristic and
//!   evaluation) and [`GameDef`] (files, text, checks); [`Seat`], [`Outcome`], [`ActionList`],
//!   [`CardUse`], [`Viewer`], [`GameInfo`]; seeds ([`GameRng`], [`rng_from_seed`], [`mix_seed`]);
//!   [`perft`]. The registry: [`GAMES`], and [`visit`] with a [`Visit`] to run generic code for a
//!   game named at run time. The games: [`TrailsGame`], [`FireForceGame`], [`TmntGame`],
//!   [`ToyGame`].
//! - **Errors**: [`Error`], the library's error by kind (bad input, a usage problem, a failed
//!   agent, a failed write; [`Error::exit_code`]), [`Result`], and the kinds' own types
//!   [`InputError`] (file, line, reason) and [`WriteError`].
//! - **Agents**: [`Agent`]; [`AgentSpec`], an agent spec parsed once ([`AgentSpec::parse`],
//!   [`AgentSpec::parse_with`] with the [`ProcessOptions`] of `process:` agents and their
//!   [`OnError`]) that makes its agent ([`AgentSpec::build`]); the agents [`RandomAgent`],
//!   [`HeuristicAgent`], [`MctsAgent`] ([`MctsConfig`]), [`PimcAgent`] ([`PimcConfig`]) and the
//!   playout policy [`Playout`].
//! - **Runners**: one game ([`play_game`], [`play_game_to_end`], its [`GameRecord`]); an agent
//!   entered in a run, counting its failures ([`Entrant`]); a progress sink ([`Sink`], [`Silent`]).
//!   `matrix`: [`MatrixPlan`], [`Task`], [`run_task`], [`run_tasks`], [`Counts`], and
//!   [`merge_matchups`] of the shards' [`Part`]s; `duel`: [`run_duel`] with its [`DuelPlan`],
//!   [`duel`], [`duel_game`]; `arena`: [`round_robin`] ([`Standings`], [`Ratings`]) and
//!   [`run_sprt`] ([`Sprt`]); `cards`: [`rank_deck`] ([`RankPlan`], [`Versus`], [`Ranking`]); `tune`: [`run_tune`]
//!   ([`TunePlan`] in, [`TuneOutcome`] out); `balance`: [`run_balance`] ([`BalancePlan`],
//!   [`BalanceOutcome`]); the metagame of a matrix: [`metagame`] ([`Metagame`]); `pool`:
//!   [`PoolPlan`], [`PoolDecks`], [`run_pool_chunks`] and [`rank_pool`] ([`PoolRanking`]).

pub mod agents;
pub mod cli;
pub mod core;
pub mod games;
pub mod report;
pub mod sim;
pub mod stats;

pub use crate::agents::mcts::{MctsAgent, MctsConfig};
pub use crate::agents::pimc::{PimcAgent, PimcConfig};
pub use crate::agents::playout::Policy as Playout;
pub use crate::agents::process::{OnError, ProcessOptions};
pub use crate::agents::{Agent, AgentSpec, HeuristicAgent, RandomAgent};
pub use crate::core::{
    mix_seed, perft, rng_from_seed, ActionList, CardUse, Error, Game, GameDef, GameInfo, GameRng,
    InputError, Outcome, Policy, Result, Seat, Viewer, WriteError,
};
pub use crate::games::fireforce::FireForceGame;
pub use crate::games::tmnt::TmntGame;
pub use crate::games::toy::ToyGame;
pub use crate::games::trails::TrailsGame;
pub use crate::games::{visit, Visit, GAMES};
pub use crate::sim::arena::{round_robin, run_sprt, Ratings, Sprt, Standings};
pub use crate::sim::balance::{run as run_balance, Outcome as BalanceOutcome, Plan as BalancePlan};
pub use crate::sim::cards::{rank_deck, RankPlan, Ranking, Versus};
pub use crate::sim::matrix::{run_task, run_tasks, Counts, Plan as MatrixPlan, Task};
pub use crate::sim::merge::{merge_matchups, Part};
pub use crate::sim::meta::{metagame, Metagame};
pub use crate::sim::pool::{
    rank as rank_pool, run_chunks as run_pool_chunks, Decks as PoolDecks, Plan as PoolPlan,
    Ranking as PoolRanking,
};
pub use crate::sim::sink::{Silent, Sink};
pub use crate::sim::tune::{run as run_tune, Outcome as TuneOutcome, Plan as TunePlan};
pub use crate::sim::{
    duel, duel_game, play_game, play_game_to_end, run_duel, DuelPlan, Entrant, GameRecord,
};
