//! Agent spec strings, used everywhere on the command line: `name[:key=value,...]`, e.g.
//! `random`, `heuristic`, `pimc:dets=16,iters=64`, `ismcts:iters=2000,c=0.7,playout=heuristic`,
//! `ismcts:ms=50`, `cheat:iters=2000`.

use super::mcts::{MctsAgent, MctsConfig};
use super::pimc::{PimcAgent, PimcConfig};
use super::playout::Policy;
use super::{Agent, HeuristicAgent, RandomAgent};
use crate::core::Game;
use std::time::Duration;

/// A validated agent spec.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Heuristic,
    Pimc(PimcConfig),
    /// ISMCTS (`determinize`) or the cheating MCTS.
    Mcts(MctsConfig),
}

/// The agents and the keys each accepts.
pub const KINDS: [(&str, &[&str]); 5] = [
    ("random", &[]),
    ("heuristic", &[]),
    ("pimc", &["dets", "iters", "playout", "eps", "depth"]),
    (
        "ismcts",
        &["iters", "ms", "c", "playout", "eps", "depth", "threads"],
    ),
    (
        "cheat",
        &["iters", "ms", "c", "playout", "eps", "depth", "threads"],
    ),
];

fn num<T: std::str::FromStr>(k: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{k}={v}: \"{v}\" is not a valid number"))
}

impl AgentSpec {
    pub fn parse(text: &str) -> Result<AgentSpec, String> {
        let (kind, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => (text.trim(), ""),
        };
        let Some((_, keys)) = KINDS.iter().find(|(k, _)| *k == kind) else {
            return Err(format!(
                "unknown agent \"{kind}\" (expected one of: {})",
                KINDS.map(|(k, _)| k).join(", ")
            ));
        };
        let mut params = Vec::new();
        for kv in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("agent \"{text}\": expected key=value, found \"{kv}\""))?;
            let k = k.trim();
            if !keys.contains(&k) {
                return Err(format!(
                    "agent \"{kind}\" has no key \"{k}\" (valid keys: {})",
                    if keys.is_empty() {
                        "none".to_string()
                    } else {
                        keys.join(", ")
                    }
                ));
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
                        "dets" => c.dets = num(k, v)?,
                        "iters" => c.iters = num(k, v)?,
                        "playout" => c.playout = Policy::parse(v)?,
                        "eps" => c.eps = num(k, v)?,
                        _ => c.depth = num(k, v)?,
                    }
                }
                if c.dets == 0 || c.iters == 0 {
                    return Err("pimc: dets and iters must be at least 1".into());
                }
                if !(0.0..=1.0).contains(&c.eps) {
                    return Err(format!("pimc: eps={} must be between 0 and 1", c.eps));
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
                        "iters" => c.iterations = num(k, v)?,
                        "ms" => c.time = Some(Duration::from_millis(num(k, v)?)),
                        "c" => c.c = num(k, v)?,
                        "playout" => c.playout = Policy::parse(v)?,
                        "eps" => c.eps = num(k, v)?,
                        "depth" => c.depth = num(k, v)?,
                        _ => c.trees = num(k, v)?,
                    }
                }
                if c.iterations == 0 || c.trees == 0 || c.c.is_nan() || c.c < 0.0 {
                    return Err(format!(
                        "{kind}: iters and threads must be at least 1, c at least 0"
                    ));
                }
                if !(0.0..=1.0).contains(&c.eps) {
                    return Err(format!("{kind}: eps={} must be between 0 and 1", c.eps));
                }
                Ok(AgentSpec::Mcts(c))
            }
        }
    }

    /// Builds the agent, seeded.
    pub fn build<G: Game + 'static>(&self, seed: u64) -> Box<dyn Agent<G>> {
        match *self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Heuristic => Box::new(HeuristicAgent::new(seed)),
            AgentSpec::Pimc(c) => Box::new(PimcAgent::<G>::new(c, seed)),
            AgentSpec::Mcts(c) => Box::new(MctsAgent::<G>::new(c, seed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs_and_rejects_bad_ones_with_the_valid_keys() {
        assert_eq!(AgentSpec::parse("random"), Ok(AgentSpec::Random));
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
        let e = AgentSpec::parse("genius").unwrap_err();
        assert!(
            e.contains("expected one of: random, heuristic, pimc, ismcts, cheat"),
            "{e}"
        );
        let e = AgentSpec::parse("random:iters=5").unwrap_err();
        assert!(e.contains("no key \"iters\" (valid keys: none)"), "{e}");
        let e = AgentSpec::parse("ismcts:budget=5").unwrap_err();
        assert!(
            e.contains("valid keys: iters, ms, c, playout, eps, depth, threads"),
            "{e}"
        );
        let e = AgentSpec::parse("ismcts:iters=lots").unwrap_err();
        assert!(e.contains("not a valid number"), "{e}");
        let e = AgentSpec::parse("ismcts:playout=smart").unwrap_err();
        assert!(e.contains("expected random or heuristic"), "{e}");
        assert!(AgentSpec::parse("ismcts:iters=0").is_err());
        let AgentSpec::Mcts(c) = AgentSpec::parse("cheat:eps=0.25").unwrap() else {
            panic!()
        };
        assert_eq!(c.eps, 0.25);
        for bad in ["cheat:eps=1.5", "ismcts:eps=-0.1", "pimc:eps=nan"] {
            let e = AgentSpec::parse(bad).unwrap_err();
            assert!(e.contains("must be between 0 and 1"), "{bad}: {e}");
        }
        assert!(AgentSpec::parse("pimc:dets").is_err());
    }
}
