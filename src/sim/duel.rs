//! Head-to-head: agent A against agent B on two decks, each deal played from both sides, games in
//! parallel with rayon. Each game's seed comes from (master seed, deal), so the result does not
//! depend on the thread count, nor on which games an interrupted run had already finished.

use super::matrix::{Counts, Task};
use super::play_game;
use super::Entrant;
use crate::core::{GameDef, Outcome, Seat};
use rayon::prelude::*;

/// Plays game `k` of a duel: game `k` is deal `k / 2`; A plays seat P1 on even games and P2 on
/// odd ones, so both sides of each deal are played. The turn-1 initiative alternates by deal.
/// Counted from A's side: A's wins are `wins`, B's are `losses`. `None` when an agent failed and
/// the run is stopping (the game is not counted).
pub fn duel_game<G: GameDef>(
    game: &G,
    a: &Entrant,
    b: &Entrant,
    k: u64,
    seed: u64,
) -> Option<Counts> {
    // sim::schedule: deals played from both sides, keyed by nothing but the master seed.
    let d = super::schedule::deal(seed, &[], k, true);
    let (a_seat, first, game_seed) = (d.seat_of_a(), d.first, d.seed);
    let mut agent_a = a.build::<G>(d.agent_seeds[0]);
    let mut agent_b = b.build::<G>(d.agent_seeds[1]);
    let agents: [&mut dyn crate::agents::Agent<G>; 2] = if a_seat == Seat::P1 {
        [agent_a.as_mut(), agent_b.as_mut()]
    } else {
        [agent_b.as_mut(), agent_a.as_mut()]
    };
    let rec = play_game(game, game_seed, first, agents, |_, _, _, _| {});
    if rec.aborted() {
        return None;
    }
    let mut r = Counts {
        games: 1,
        turns: u64::from(rec.turns),
        decisions: u64::from(rec.decisions),
        ..Default::default()
    };
    r.lengths.0[super::matrix::Lengths::bin(u64::from(rec.turns))] += 1;
    match rec.outcome {
        Outcome::Win(w) => {
            if w == a_seat {
                r.wins = 1;
            } else {
                r.losses = 1;
            }
            r.first_player_wins = u64::from(w == first);
        }
        Outcome::Draw => r.draws = 1,
    }
    Some(r)
}

/// Plays the games `todo` (indices as in [`duel_game`]) and sums them; `on_game` sees each
/// finished game as it ends (for progress and checkpoints). A game an agent failed under
/// `--on-agent-error abort` is neither counted nor shown, and no game starts after it.
pub fn duel<G: GameDef>(
    game: &G,
    a: &Entrant,
    b: &Entrant,
    todo: &[u64],
    seed: u64,
    on_game: &(dyn Fn(u64, &Counts) + Sync),
) -> Counts {
    todo.par_iter()
        .map(|&k| {
            if a.aborted() || b.aborted() {
                return Counts::default();
            }
            let Some(r) = duel_game(game, a, b, k, seed) else {
                return Counts::default();
            };
            on_game(k, &r);
            r
        })
        .reduce(Counts::default, |mut a, b| {
            a.add(&b);
            a
        })
}

/// What a duel plays: agent A against agent B on two decks of one game, `games` games from the
/// master seed `seed`. Its [`DuelPlan::fingerprint`] binds a checkpoint to it.
#[derive(Clone, Debug, PartialEq)]
pub struct DuelPlan {
    /// The game's name.
    pub game: String,
    /// The decks' names (P1's deck of the match first).
    pub decks: [String; 2],
    /// The content hash of the decks' cards and the rules (`GameDef::content_hash`).
    pub content: String,
    /// A's and B's specs, as written.
    pub agents: [String; 2],
    /// Games, a whole number of pairs.
    pub games: u64,
    pub seed: u64,
}

impl DuelPlan {
    /// The line a checkpoint of this duel starts with ([`crate::sim::fingerprint::duel`]): a
    /// checkpoint of another duel is refused.
    pub fn fingerprint(&self) -> String {
        crate::sim::fingerprint::duel(self)
    }

    /// The duel's units of work and of checkpointing: game `k` is chunk `k` of matchup (0, 0),
    /// one checkpoint line each.
    pub fn tasks(&self) -> Vec<Task> {
        (0..self.games).map(duel_task).collect()
    }
}

/// The [`Task`] of game `k` of a duel ([`DuelPlan::tasks`]).
pub fn duel_task(k: u64) -> Task {
    Task {
        row: 0,
        col: 0,
        chunk: k,
    }
}

/// The duel's runner: plays games `todo` of `plan` (those a resumed run has not finished) and
/// sums them, as [`duel`]; with `one_at_a_time` one game after the other, each agent's search
/// free to use every worker thread (the games and counts are the same either way).
pub fn run_duel<G: GameDef>(
    game: &G,
    (a, b): (&Entrant, &Entrant),
    plan: &DuelPlan,
    todo: &[u64],
    one_at_a_time: bool,
    on_game: &(dyn Fn(u64, &Counts) + Sync),
) -> Counts {
    if !one_at_a_time {
        return duel(game, a, b, todo, plan.seed, on_game);
    }
    let mut sum = Counts::default();
    for k in todo {
        sum.add(&duel(
            game,
            a,
            b,
            std::slice::from_ref(k),
            plan.seed,
            on_game,
        ));
    }
    sum
}
