//! Writing what a command prints. A closed pipe (`tcgsim … | head`) or a full disk is an error
//! with exit code 1 — never a panic, as `print!` would be.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::core::WriteError;

/// Writes `text` to standard output and flushes it.
pub fn emit(text: &str) -> Result<(), WriteError> {
    let mut o = std::io::stdout().lock();
    o.write_all(text.as_bytes())
        .and_then(|_| o.flush())
        .map_err(|e| WriteError::new("cannot write to standard output", e))
}

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no progress and no notes from now on (errors are still written).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note on standard error (what was written, a resumed run), unless `--quiet`. Its failure is
/// ignored: a message must never stop a run.
pub fn note(text: &str) {
    if !quiet() {
        let _ = writeln!(std::io::stderr().lock(), "{text}");
    }
}

/// An error message on standard error, even with `--quiet`.
pub fn error(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}
