//! tcgsim: a Monte Carlo AI and deck-strength simulator for two-player trading card games.
//!
//! - [`core`]: the [`core::Game`] trait and what every game shares.
//! - [`games`]: the rules of each game (the Trails TCG first).
//! - [`agents`]: players generic over the trait.

pub mod agents;
pub mod cli;
pub mod core;
pub mod games;
pub mod report;
pub mod sim;
pub mod stats;
