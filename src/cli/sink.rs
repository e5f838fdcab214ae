//! The command line's [`Sink`] for the runners that take one (`tune`, `balance`): their notes on
//! standard error, a progress bar per batch of games where the command shows one, and the agents'
//! failures checked after every batch.

use super::out::note;
use super::Progress;
use crate::sim::sink::Sink;
use crate::sim::Entrant;
use std::sync::Mutex;

/// Notes, failures and (with `bars`) a progress bar per batch.
pub struct Shown<'a> {
    spec: &'a Entrant,
    bars: bool,
    bar: Mutex<Option<Progress>>,
}

impl<'a> Shown<'a> {
    /// Notes and failures only: no progress bar (`tune`, whose notes after every look are its
    /// progress).
    pub fn notes(spec: &'a Entrant) -> Self {
        Shown {
            spec,
            bars: false,
            bar: Mutex::new(None),
        }
    }

    /// Notes, failures and a progress bar of games per batch (`balance`).
    pub fn bars(spec: &'a Entrant) -> Self {
        Shown {
            bars: true,
            ..Self::notes(spec)
        }
    }
}

impl Sink for Shown<'_> {
    fn begin(&self, games: u64) {
        if self.bars {
            *self.bar.lock().expect("the bar's lock") = Some(Progress::new(games, "games"));
        }
    }

    fn games(&self, n: u64) {
        if let Some(b) = self.bar.lock().expect("the bar's lock").as_ref() {
            b.inc(n);
        }
    }

    fn end(&self) {
        if let Some(b) = self.bar.lock().expect("the bar's lock").take() {
            b.finish();
        }
    }

    fn note(&self, text: &str) {
        note(text);
    }

    fn after_games(&self, kept: &str) -> crate::core::Result<()> {
        super::agent_failures(&[self.spec], kept)
    }
}
