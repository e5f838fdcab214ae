//! Helpers shared by the tests that run the `tcgsim` binary.

use std::process::{Command, Output};

/// Runs `tcgsim` with `args` from the repository root.
pub fn tcgsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}
