//! What a long run (`tune`, `balance`) tells its caller while it runs, and why it stops early.
//! The runner plays and decides; the caller shows: the command line implements [`Sink`] with its
//! progress bar and notes on standard error, a library caller may use [`Silent`].

use crate::core::Result;

/// Where a runner reports its progress. Every method has a default that shows nothing.
pub trait Sink: Sync {
    /// A batch of `games` games begins (a progress bar's length).
    fn begin(&self, _games: u64) {}
    /// `n` more games of the batch are played (called from any thread).
    fn games(&self, _n: u64) {}
    /// The batch is done.
    fn end(&self) {}
    /// A line about how the run goes (a look, a stage, a resumed state).
    fn note(&self, _text: &str) {}
    /// Called after every batch of games: the agents' failures so far. `Err` (an
    /// [`crate::core::Error::Agent`]) stops the run; `kept` says what the run keeps when it stops
    /// there.
    fn after_games(&self, _kept: &str) -> Result<()> {
        Ok(())
    }
}

/// A sink that shows nothing and never stops a run.
pub struct Silent;

impl Sink for Silent {}
