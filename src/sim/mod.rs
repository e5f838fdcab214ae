//! Self-play: running games between agents.

pub mod arena;
pub mod balance;
pub mod bench;
pub mod cards;
pub mod checkpoint;
pub mod draws;
mod duel;
mod entrant;
pub mod env;
pub mod files;
pub mod fingerprint;
pub mod matrix;
pub mod merge;
pub mod meta;
pub mod pool;
pub mod record;
pub mod schedule;
pub mod sink;
pub mod svg;
pub mod tune;

pub use duel::{duel, duel_game, duel_task, run_duel, DuelPlan};
pub use entrant::Entrant;

/// `e` with `what` before its message (`what: message`), of the same kind; a write failure
/// stays as it is.
pub(crate) fn within(what: &str, e: Error) -> Error {
    match e {
        Error::Usage(m) => Error::Usage(format!("{what}: {m}")),
        Error::Agent(m) => Error::Agent(format!("{what}: {m}")),
        Error::Input(i) => Error::Input(crate::core::InputError {
            file: format!("{what}: {}", i.file),
            ..i
        }),
        Error::Write(w) => Error::Write(w),
    }
}

use crate::agents::Agent;
use crate::core::{Error, Game, Outcome, Seat};

/// What one game produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub outcome: Outcome,
    pub turns: u32,
    pub decisions: u32,
    /// The game ended because this seat's agent failed ([`crate::agents::Failure`]): the outcome
    /// is the other seat's win.
    pub forfeit: Option<Forfeit>,
}

/// A game lost by an agent's failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub seat: Seat,
    /// The run must stop, and this game is not counted (`--on-agent-error abort`).
    pub abort: bool,
}

impl GameRecord {
    /// Whether the game must not be counted: its agent failed and the run is stopping.
    pub fn aborted(&self) -> bool {
        self.forfeit.is_some_and(|f| f.abort)
    }
}

/// Plays one game to its end. `observe` sees every action with the state before and after it.
pub fn play_game<G: Game>(
    game: &G,
    seed: u64,
    first: Seat,
    agents: [&mut dyn Agent<G>; 2],
    observe: impl FnMut(&G::State, Seat, G::Action, &G::State),
) -> GameRecord {
    play_game_to_end(game, seed, first, agents, observe).0
}

/// [`play_game`], also returning the final state. An agent that fails
/// ([`Agent::try_choose`]) forfeits: the game ends there, won by the other seat, and the record
/// says so ([`GameRecord::forfeit`]); the final state is the state it failed in.
pub fn play_game_to_end<G: Game>(
    game: &G,
    seed: u64,
    first: Seat,
    agents: [&mut dyn Agent<G>; 2],
    mut observe: impl FnMut(&G::State, Seat, G::Action, &G::State),
) -> (GameRecord, G::State) {
    let mut s = game.new_game(seed, first);
    let mut decisions = 0u32;
    let supervised = [agents[0].supervised(), agents[1].supervised()];
    if supervised == [false, false] {
        // The plain loop: agents that cannot fail and watch nothing (every built-in agent).
        while let Some(seat) = game.to_move(&s) {
            let a = agents[seat.index()].choose(game, &s, seat);
            let before = s;
            game.apply(&mut s, a);
            observe(&before, seat, a, &s);
            decisions += 1;
        }
    } else {
        while let Some(seat) = game.to_move(&s) {
            let a = match agents[seat.index()].try_choose(game, &s, seat) {
                Ok(a) => a,
                Err(f) => {
                    let rec = GameRecord {
                        outcome: Outcome::Win(seat.other()),
                        // At least one turn, as every game counts (`Counts::check`).
                        turns: game.turn(&s).max(1),
                        decisions,
                        forfeit: Some(Forfeit {
                            seat,
                            abort: f.abort,
                        }),
                    };
                    return (rec, s);
                }
            };
            let before = s;
            game.apply(&mut s, a);
            observe(&before, seat, a, &s);
            for q in Seat::ALL {
                if supervised[q.index()] {
                    agents[q.index()].observe(game, q, &before, seat, a, &s);
                }
            }
            decisions += 1;
        }
    }
    let rec = GameRecord {
        outcome: game.outcome(&s).expect("a finished game has an outcome"),
        turns: game.turn(&s),
        decisions,
        forfeit: None,
    };
    (rec, s)
}
