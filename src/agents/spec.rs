//! Agent spec strings, used everywhere on the command line: `name[:key=value,...]`, e.g.
//! `random`, `heuristic`, `pimc:dets=16,iters=64`, `ismcts:iters=2000,c=0.7,playout=heuristic`,
//! `ismcts:ms=50`, `cheat:iters=2000`, `process:python3 bot.py` (another program:
//! `docs/protocol.md`).

use super::mcts::{MctsAgent, MctsConfig, MAX_TREE_NODES};
use super::pimc::{PimcAgent, PimcConfig};
use super::playout::Policy;
use super::process::{ProcessAgent, ProcessOptions, ProcessSpec, Supervisor};
use super::{Agent, HeuristicAgent, RandomAgent};
use crate::core::{Error, GameDef, Result};
use std::sync::Arc;
use std::time::Duration;

/// A validated agent spec: a plain value, parsed once from its text (with the options of
/// `process:` agents, [`AgentSpec::parse_with`]). A run counts its agents' failures apart
/// (`sim::Entrant`).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Heuristic,
    Pimc(PimcConfig),
    /// ISMCTS (`determinize`) or the cheating MCTS.
    Mcts(MctsConfig),
    /// Another program, over the process protocol.
    Process(ProcessSpec),
}

/// The agents and the keys each accepts.
pub const KINDS: [(&str, &[&str]); 5] = [
    ("random", &[]),
    ("heuristic", &[]),
    ("pimc", &["dets", "iters", "playout", "eps", "depth"]),
    (
        "ismcts",
        &[
            "iters", "ms", "c", "playout", "eps", "depth", "threads", "reuse", "prior",
        ],
    ),
    (
        "cheat",
        &[
            "iters", "ms", "c", "playout", "eps", "depth", "threads", "reuse", "prior",
        ],
    ),
];

/// The bounds of every number in a spec (`docs/agents.md`): enough for any real use, small enough
/// that no spec exhausts memory or runs for days per decision.
pub mod limits {
    /// `iters` of ismcts/cheat (per tree).
    pub const MCTS_ITERS: u32 = 10_000_000;
    /// `threads` of ismcts/cheat (trees per decision).
    pub const MCTS_TREES: u32 = 256;
    /// `ms` of ismcts/cheat: one hour per decision.
    pub const MCTS_MS: u64 = 3_600_000;
    /// `c`, the exploration constant.
    pub const C: f64 = 100.0;
    /// `depth` of every search agent.
    pub const DEPTH: u32 = 1_000_000;
    /// `dets` and `iters` of pimc, and their product.
    pub const PIMC_DETS: u32 = 100_000;
    pub const PIMC_ITERS: u32 = 1_000_000;
    pub const PIMC_PLAYOUTS: u64 = 100_000_000;
}

fn num<T>(k: &str, v: &str, min: T, max: T) -> Result<T>
where
    T: TryFrom<i128> + Into<i128> + Copy + std::fmt::Display,
{
    crate::core::input::parse_int(v, min, max).map_err(|e| Error::usage(format!("{k}: {e}")))
}

fn real(k: &str, v: &str, min: f64, max: f64) -> Result<f64> {
    crate::core::input::parse_float(v, min, max).map_err(|e| Error::usage(format!("{k}: {e}")))
}

impl AgentSpec {
    /// Parses a spec; a `process:` agent gets the default options (a 10 s move timeout, a failed
    /// game is a loss).
    pub fn parse(text: &str) -> Result<AgentSpec> {
        AgentSpec::parse_with(text, &ProcessOptions::default())
    }

    /// Parses a spec; a `process:` agent gets the options `process` (`--move-timeout`,
    /// `--on-agent-error`).
    pub fn parse_with(text: &str, process: &ProcessOptions) -> Result<AgentSpec> {
        let (kind, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => (text.trim(), ""),
        };
        if kind == "process" {
            // Everything after the colon is the command, commas and all.
            return ProcessSpec::parse(rest, process).map(AgentSpec::Process);
        }
        let Some((_, keys)) = KINDS.iter().find(|(k, _)| *k == kind) else {
            return Err(Error::usage(format!(
                "unknown agent \"{kind}\" (expected one of: {}, process:COMMAND)",
                KINDS.map(|(k, _)| k).join(", ")
            )));
        };
        let mut params = Vec::new();
        for kv in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                Error::usage(format!(
                    "agent \"{text}\": expected key=value, found \"{kv}\""
                ))
            })?;
            let k = k.trim();
            if !keys.contains(&k) {
                return Err(Error::usage(format!(
                    "agent \"{kind}\" has no key \"{k}\" (valid keys: {})",
                    if keys.is_empty() {
                        "none".to_string()
                    } else {
                        keys.join(", ")
                    }
                )));
            }
            if params.iter().any(|(p, _)| p == k) {
                return Err(Error::usage(format!(
                    "agent \"{kind}\": key \"{k}\" given twice (each key at most once)"
                )));
            }
            params.push((k.to_string(), v.trim().to_string()));
        }
        match kind {
            "random" => Ok(AgentSpec::Random),
            "heuristic" => Ok(AgentSpec::Heuristic),
            "pimc" => {
                let mut c = PimcConfig::default();
                for (k, v) in &params {
                    match k.as_str() {
                        "dets" => c.dets = num(k, v, 1, limits::PIMC_DETS)?,
                        "iters" => c.iters = num(k, v, 1, limits::PIMC_ITERS)?,
                        "playout" => c.playout = Policy::parse(v)?,
                        "eps" => c.eps = real(k, v, 0.0, 1.0)?,
                        _ => c.depth = num(k, v, 0, limits::DEPTH)?,
                    }
                }
                if u64::from(c.dets) * u64::from(c.iters) > limits::PIMC_PLAYOUTS {
                    return Err(Error::usage(format!(
                        "pimc: dets × iters = {} playouts per decision; at most {}",
                        u64::from(c.dets) * u64::from(c.iters),
                        limits::PIMC_PLAYOUTS
                    )));
                }
                Ok(AgentSpec::Pimc(c))
            }
            _ => {
                let mut c = MctsConfig {
                    determinize: kind == "ismcts",
                    ..MctsConfig::default()
                };
                for (k, v) in &params {
                    match k.as_str() {
                        "iters" => c.iterations = num(k, v, 1, limits::MCTS_ITERS)?,
                        "ms" => {
                            c.time = Some(Duration::from_millis(num(k, v, 1, limits::MCTS_MS)?))
                        }
                        "c" => c.c = real(k, v, 0.0, limits::C)?,
                        "playout" => c.playout = Policy::parse(v)?,
                        "eps" => c.eps = real(k, v, 0.0, 1.0)?,
                        "depth" => c.depth = num(k, v, 0, limits::DEPTH)?,
                        "reuse" => c.reuse = num::<u8>(k, v, 0, 1)? == 1,
                        "prior" => c.prior = real(k, v, 0.0, limits::C)?,
                        _ => c.trees = num(k, v, 1, limits::MCTS_TREES)?,
                    }
                }
                let nodes = u64::from(c.iterations) * u64::from(c.trees);
                if c.time.is_none() && nodes > u64::from(MAX_TREE_NODES) {
                    return Err(Error::usage(format!(
                        "{kind}: iters × threads = {nodes} tree nodes per decision; at most {MAX_TREE_NODES}"
                    )));
                }
                Ok(AgentSpec::Mcts(c))
            }
        }
    }

    /// Builds the agent, seeded, on its own: the failures of a `process:` agent are counted
    /// nowhere else (a run's agents are built by its runner, `sim::Entrant`, through
    /// [`AgentSpec::build_supervised`]).
    pub fn build<G: GameDef>(&self, seed: u64) -> Box<dyn Agent<G>> {
        self.build_supervised(seed, &Arc::default())
    }

    /// Builds the agent, seeded; a `process:` agent counts its failures in `supervisor`, shared
    /// by the agents of this spec in one run.
    pub fn build_supervised<G: GameDef>(
        &self,
        seed: u64,
        supervisor: &Arc<Supervisor>,
    ) -> Box<dyn Agent<G>> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Heuristic => Box::new(HeuristicAgent::new(seed)),
            AgentSpec::Pimc(c) => Box::new(PimcAgent::<G>::new(*c, seed)),
            AgentSpec::Mcts(c) => {
                Box::new(MctsAgent::<G>::new(*c, seed).with_sight(super::mcts::seen_by::<G>))
            }
            AgentSpec::Process(p) => Box::new(ProcessAgent::<G>::new(
                p.clone(),
                seed,
                Arc::clone(supervisor),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs_and_rejects_bad_ones_with_the_valid_keys() {
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
        let AgentSpec::Mcts(c) =
            AgentSpec::parse("ismcts:iters=500,c=1.2,playout=random,depth=30,threads=2").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (
                c.iterations,
                c.c,
                c.playout,
                c.depth,
                c.trees,
                c.determinize
            ),
            (500, 1.2, Policy::Random, 30, 2, true)
        );
        let AgentSpec::Mcts(c) = AgentSpec::parse("cheat:ms=50").unwrap() else {
            panic!()
        };
        assert_eq!(
            (c.time, c.determinize),
            (Some(Duration::from_millis(50)), false)
        );
        let AgentSpec::Pimc(p) = AgentSpec::parse("pimc:dets=4,iters=8").unwrap() else {
            panic!()
        };
        assert_eq!((p.dets, p.iters), (4, 8));
        let e = AgentSpec::parse("genius").unwrap_err().to_string();
        assert!(
            e.contains("expected one of: random, heuristic, pimc, ismcts, cheat, process:COMMAND"),
            "{e}"
        );
        let e = AgentSpec::parse("random:iters=5").unwrap_err().to_string();
        assert!(e.contains("no key \"iters\" (valid keys: none)"), "{e}");
        let e = AgentSpec::parse("ismcts:budget=5").unwrap_err().to_string();
        assert!(
            e.contains("valid keys: iters, ms, c, playout, eps, depth, threads"),
            "{e}"
        );
        let e = AgentSpec::parse("ismcts:iters=lots")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "iters: \"lots\" is not a whole number");
        let e = AgentSpec::parse("ismcts:playout=smart")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected random or heuristic"), "{e}");
        // A key given twice was read as its last value, silently.
        let e = AgentSpec::parse("ismcts:iters=5,c=1,iters=6")
            .unwrap_err()
            .to_string();
        assert!(e.contains("key \"iters\" given twice"), "{e}");
        assert!(AgentSpec::parse("ismcts:iters=0").is_err());
        let AgentSpec::Mcts(c) = AgentSpec::parse("cheat:eps=0.25").unwrap() else {
            panic!()
        };
        assert_eq!(c.eps, 0.25);
        for (bad, why) in [
            ("cheat:eps=1.5", "eps: 1.5 is out of range 0..=1"),
            ("ismcts:eps=-0.1", "eps: -0.1 is out of range 0..=1"),
            ("pimc:eps=nan", "eps: nan is out of range 0..=1"),
            ("ismcts:c=inf", "c: inf is out of range 0..=100"),
            (
                "ismcts:threads=4294967295",
                "threads: 4294967295 is out of range 1..=256",
            ),
            (
                "ismcts:ms=18446744073709551615",
                "ms: 18446744073709551615 is out of range 1..=3600000",
            ),
            (
                "cheat:iters=4294967296",
                "iters: 4294967296 is out of range 1..=10000000",
            ),
            (
                "ismcts:iters=10000000,threads=2",
                "ismcts: iters × threads = 20000000 tree nodes per decision; at most 16777216",
            ),
            (
                "pimc:dets=100000,iters=1000000",
                "pimc: dets × iters = 100000000000 playouts per decision; at most 100000000",
            ),
            ("pimc:depth=-1", "depth: -1 is out of range 0..=1000000"),
        ] {
            assert_eq!(AgentSpec::parse(bad).unwrap_err().to_string(), why, "{bad}");
        }
        assert!(AgentSpec::parse("pimc:dets").is_err());
    }
}
