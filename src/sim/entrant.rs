//! An agent entered in a run: its spec, and the count of its failures in this run. The spec is a
//! plain value parsed once; the runner that plays it keeps the tally (a `process:` agent's
//! forfeits, whether one stopped the run) and builds every agent of it through this.

use crate::agents::process::Supervisor;
use crate::agents::{Agent, AgentSpec};
use crate::core::GameDef;
use std::sync::Arc;

/// An agent spec in one run, with that run's failure tally (shared by every agent built from it,
/// on every thread).
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The agent's spec.
    pub spec: AgentSpec,
    tally: Arc<Supervisor>,
}

impl From<AgentSpec> for Entrant {
    fn from(spec: AgentSpec) -> Self {
        Entrant::new(spec)
    }
}

impl Entrant {
    /// `spec`, entered in a run: no failure yet.
    pub fn new(spec: AgentSpec) -> Self {
        Entrant {
            spec,
            tally: Arc::default(),
        }
    }

    /// Builds one of its agents, seeded, its failures counted in this entrant's tally.
    pub fn build<G: GameDef>(&self, seed: u64) -> Box<dyn Agent<G>> {
        self.spec.build_supervised(seed, &self.tally)
    }

    /// Whether one of its agents failed and the run must stop (`--on-agent-error abort`).
    pub fn aborted(&self) -> bool {
        self.tally.aborted()
    }

    /// The games its agents forfeited so far in this run, and the first failure's message
    /// (always none but for `process:` agents).
    pub fn failures(&self) -> (u64, Option<String>) {
        self.tally.failures()
    }
}
