//! The integration tests, one module per subject, built as one test binary: the release profile
//! links each test binary with fat LTO, which took most of a fresh `cargo test --release` when every
//! file was its own binary. `cargo test --release --test suite matrix::` runs one module's tests;
//! `cargo test --release --test suite -- --list` names them all.
//!
//! The modules share a process: `alloc` counts only the allocations of the thread it measures, and
//! `fuzz` silences panics only on the thread that runs a target, so neither touches the others.

mod common;

mod agents;
mod alloc;
mod cardlang;
mod cli;
mod conformance;
mod engine;
mod fireforce;
mod formats;
mod fuzz;
mod inputs;
mod layers;
mod matrix;
mod process;
mod report;
mod rule_ids;
mod scenarios;
mod statistics;
mod tmnt;
mod toy;
mod tune;
