//! Agent spec strings, used everywhere on the command line: `name[:key=value,...]`.

use super::{Agent, HeuristicAgent, RandomAgent};
use crate::core::Game;

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub kind: String,
    pub params: Vec<(String, String)>,
}

/// The agents and the keys each accepts.
pub const KINDS: [(&str, &[&str]); 2] = [("random", &[]), ("heuristic", &[])];

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
            if !keys.contains(&k.trim()) {
                return Err(format!(
                    "agent \"{kind}\" has no key \"{k}\" (valid keys: {})",
                    if keys.is_empty() {
                        "none".to_string()
                    } else {
                        keys.join(", ")
                    }
                ));
            }
            params.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(AgentSpec {
            kind: kind.to_string(),
            params,
        })
    }

    /// Builds the agent, seeded.
    pub fn build<G: Game + 'static>(&self, seed: u64) -> Box<dyn Agent<G>> {
        match self.kind.as_str() {
            "random" => Box::new(RandomAgent::new(seed)),
            "heuristic" => Box::new(HeuristicAgent::new(seed)),
            other => unreachable!("spec kind {other} was validated"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_unknown_agents_and_keys_with_the_valid_ones() {
        assert!(AgentSpec::parse("random").is_ok());
        let e = AgentSpec::parse("genius").unwrap_err();
        assert!(e.contains("expected one of: random, heuristic"), "{e}");
        let e = AgentSpec::parse("random:iters=5").unwrap_err();
        assert!(e.contains("no key \"iters\""), "{e}");
    }
}
