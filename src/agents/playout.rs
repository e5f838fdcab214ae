//! Playouts shared by the search agents: a policy plays on from a state to the end of the game, or
//! to a depth where the game's evaluation takes over (the game's [`crate::core::Policy`]).

use crate::core::{below, ActionList, Error, GameRng, Result, Seat};
use rand::Rng;

/// The policy that plays out a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Random,
    Heuristic,
}

impl Policy {
    /// The policy named `s` (`random` or `heuristic`); a [`Error::Usage`] error otherwise.
    pub fn parse(s: &str) -> Result<Policy> {
        match s {
            "random" => Ok(Policy::Random),
            "heuristic" => Ok(Policy::Heuristic),
            _ => Err(Error::usage(format!(
                "playout \"{s}\": expected random or heuristic"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Heuristic => "heuristic",
        }
    }
}

/// Plays `state` on with `policy` for at most `depth` decisions (0: to the end) and returns each
/// seat's score in [0, 1]: the outcome, or the game's evaluation when cut off. Also returns the
/// number of decisions played. With the heuristic policy, `eps` is the chance of a uniformly
/// random legal action at each decision instead (ε-greedy), so that playouts from one state differ
/// (`docs/agents.md`); with `eps` = 0 the random number generator is not read for it.
pub fn playout<G: crate::core::Policy>(
    game: &G,
    state: &mut G::State,
    policy: Policy,
    eps: f64,
    depth: u32,
    list: &mut ActionList<G::Action>,
    rng: &mut GameRng,
) -> ([f64; 2], u32) {
    let mut n = 0u32;
    while game.to_move(state).is_some() {
        if depth > 0 && n >= depth {
            let v = game.evaluate(state, Seat::P1);
            return ([v, 1.0 - v], n);
        }
        game.legal_actions(state, list);
        let a = match policy {
            Policy::Random => list[below(rng, list.len())],
            Policy::Heuristic if eps > 0.0 && rng.gen::<f64>() < eps => {
                list[below(rng, list.len())]
            }
            Policy::Heuristic => game.heuristic_action(state, list, rng),
        };
        game.apply(state, a);
        n += 1;
    }
    let o = game.outcome(state).expect("finished game");
    ([o.score(Seat::P1), o.score(Seat::P2)], n)
}
