//! Win-rate matrices: every deck against every deck, in chunks of games that run in parallel,
//! can be checkpointed and resumed, and split into shards whose counts merge exactly.
//!
//! Game `k` of the matchup (row deck, column deck) is a deal of its own, seeded from (master seed,
//! both deck names, `k`): the row deck is seat P1 with agent A, the column deck seat P2 with agent
//! B, and the turn-1 initiative alternates game by game (the row deck has it on even games). So the
//! games of a matchup are independent, and the Wilson interval of the win rate is valid
//! (`docs/statistics.md`). Results are sums of counts, so they do not depend on the thread count,
//! the order chunks finish in, interruptions or shards.

use super::play_game_to_end;
use super::schedule::{self, Deal};
use super::Entrant;
use crate::core::{fnv1a, Game, GameDef, Outcome, Seat};
use rayon::prelude::*;

/// The bins of a game-length histogram: games of 1, 2, …, `LENGTH_BINS - 1` turns, and a last
/// bin of `LENGTH_BINS` turns or more. 64 holds every game of the three games: a deck-out ends
/// each (Trails games last 4–24 turns, TMNT 4–19, Fire Force, whose decks hold 29 cards after
/// setup, 5–56 in 100-game matrices of the bundled decks with either agent).
pub const LENGTH_BINS: usize = 64;

/// A histogram of game lengths in turns ([`LENGTH_BINS`]): bin `k` counts the games of `k + 1`
/// turns, the last one those of `LENGTH_BINS` turns or more. A fixed array, so counting a game
/// allocates nothing and counts stay `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths(pub [u64; LENGTH_BINS]);

impl Default for Lengths {
    fn default() -> Self {
        Lengths([0; LENGTH_BINS])
    }
}

impl Lengths {
    /// The bin of a game of `turns` turns (a game lasts at least one turn).
    pub fn bin(turns: u64) -> usize {
        (turns.clamp(1, LENGTH_BINS as u64) - 1) as usize
    }

    /// The turns bin `k` counts (the last: at least that many).
    pub fn turns_of(k: usize) -> u64 {
        k as u64 + 1
    }

    /// The label of bin `k` in `lengths.csv`: its turns, with `+` on the last bin.
    pub fn label(k: usize) -> String {
        if k + 1 == LENGTH_BINS {
            format!("{LENGTH_BINS}+")
        } else {
            (k + 1).to_string()
        }
    }

    /// The bin of a label written by [`Lengths::label`].
    pub fn parse_label(s: &str) -> Option<usize> {
        match s.strip_suffix('+') {
            Some(n) => (n.parse::<usize>().ok()? == LENGTH_BINS).then_some(LENGTH_BINS - 1),
            None => {
                let t: usize = s.parse().ok()?;
                // Canonical only: no sign, no leading zero.
                (t.to_string() == s && (1..LENGTH_BINS).contains(&t)).then(|| t - 1)
            }
        }
    }

    pub fn add(&mut self, o: &Lengths) {
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            *a += b;
        }
    }

    /// The number of games (saturating).
    pub fn games(&self) -> u64 {
        self.0.iter().fold(0u64, |s, &x| s.saturating_add(x))
    }

    /// The nonzero bins, in order: (bin, games).
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| (k, c))
    }
}

/// Counts of one ordered matchup, from the row deck's side. Everything a report needs, and
/// enough to merge shards exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Games won by the seat with the turn-1 initiative.
    pub first_player_wins: u64,
    /// Sum of game lengths in turns.
    pub turns: u64,
    /// Sum of decisions.
    pub decisions: u64,
    /// The games by length in turns.
    pub lengths: Lengths,
}

/// Counts that no games can give (a checkpoint line or a shard's row edited or cut short): the
/// reason. The reader that found them names the file and the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImpossibleCounts(pub String);

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
        self.first_player_wins += o.first_player_wins;
        self.turns += o.turns;
        self.decisions += o.decisions;
        self.lengths.add(&o.lengths);
    }

    /// Whether these counts can be those of `games` games: every game won, lost or drawn once, no
    /// more first-player wins than decided games, every game at least one turn long, no game
    /// longer than a game record can count, and the game-length histogram that of those games.
    /// What is read back (a checkpoint line, a shard's row) is checked with this before it is
    /// used.
    pub fn check(&self, games: u64) -> Result<(), ImpossibleCounts> {
        self.check_totals(games)?;
        self.check_lengths(games)
    }

    /// [`Counts::check`] without the histogram (`matchups.csv` has none): the games, the
    /// outcomes, the first player's wins, the turns and the decisions. Decisions have no lower
    /// bound: an agent that fails at its first decision forfeits a game of none
    /// (`sim::play_game_to_end`), and a game of one turn is counted (a forfeit's turns are at
    /// least 1).
    pub fn check_totals(&self, games: u64) -> Result<(), ImpossibleCounts> {
        if self.games != games {
            return Err(ImpossibleCounts(format!(
                "{} games where {games} were played",
                self.games
            )));
        }
        if self
            .wins
            .checked_add(self.losses)
            .and_then(|x| x.checked_add(self.draws))
            != Some(games)
        {
            return Err(ImpossibleCounts(format!(
                "wins {} + losses {} + draws {} differ from {games} games",
                self.wins, self.losses, self.draws
            )));
        }
        if self.first_player_wins > self.wins + self.losses {
            return Err(ImpossibleCounts(format!(
                "{} first-player wins in {} decided games",
                self.first_player_wins,
                self.wins + self.losses
            )));
        }
        // A game lasts at least one turn, and at most u32::MAX turns and decisions (the widths of
        // `GameRecord`): so sums over a run's games cannot overflow.
        let most = games.saturating_mul(u64::from(u32::MAX));
        if self.turns < games || self.turns > most {
            return Err(ImpossibleCounts(format!(
                "{} turns in {games} games",
                self.turns
            )));
        }
        if self.decisions > most {
            return Err(ImpossibleCounts(format!(
                "{} decisions in {games} games",
                self.decisions
            )));
        }
        Ok(())
    }

    /// The histogram part of [`Counts::check`].
    fn check_lengths(&self, games: u64) -> Result<(), ImpossibleCounts> {
        // The histogram holds every game once, and its games' turns add up to `turns` (at
        // least, when some are in the open last bin).
        let h = self.lengths.games();
        if h != games {
            return Err(ImpossibleCounts(format!(
                "the game-length histogram holds {h} games where {games} were played"
            )));
        }
        let least: u128 = self
            .lengths
            .nonzero()
            .map(|(k, c)| u128::from(c) * u128::from(Lengths::turns_of(k)))
            .sum();
        let open = self.lengths.0[LENGTH_BINS - 1] > 0;
        let turns = u128::from(self.turns);
        if turns < least || (!open && turns != least) {
            return Err(ImpossibleCounts(format!(
                "the game-length histogram's games last {}{least} turns, not {}",
                if open { "at least " } else { "" },
                self.turns
            )));
        }
        Ok(())
    }

    /// Adds one game of seat P1 (the row deck), in which `first` had the turn-1 initiative.
    pub fn record(&mut self, rec: &crate::sim::GameRecord, first: Seat) {
        self.games += 1;
        self.turns += u64::from(rec.turns);
        self.decisions += u64::from(rec.decisions);
        self.lengths.0[Lengths::bin(u64::from(rec.turns))] += 1;
        match rec.outcome {
            Outcome::Win(w) => {
                if w == Seat::P1 {
                    self.wins += 1;
                } else {
                    self.losses += 1;
                }
                self.first_player_wins += u64::from(w == first);
            }
            Outcome::Draw => self.draws += 1,
        }
    }

    /// The row deck's score rate (draws half).
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            return f64::NAN;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }

    /// Wilson 95% interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        crate::stats::wilson(
            self.wins as f64 + 0.5 * self.draws as f64,
            self.games as f64,
            crate::stats::Z95,
        )
    }
}

/// What a matrix run is: enough to reproduce it, and to refuse merging or resuming different runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The game (its registry name).
    pub game: String,
    pub deck_names: Vec<String>,
    /// A hash of what the games are played with, beyond the names: the rules' version and every
    /// card of every deck, as `content_hash` makes it (16 hex digits).
    pub content: String,
    pub agent_a: String,
    pub agent_b: String,
    pub games: u64,
    pub seed: u64,
    /// Games per chunk (the unit of parallel work, checkpoints and shards).
    pub chunk: u64,
}

/// One unit of work: a chunk of one matchup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Task {
    pub row: usize,
    pub col: usize,
    pub chunk: u64,
}

/// The most chunks one run may have (over all its matchups): each is a unit of work, a checkpoint
/// line and a share of a shard. `matrix` refuses more (raise `--chunk`), and so does a plan read
/// back.
pub const MAX_TASKS: u64 = 1_000_000;

impl Plan {
    /// A one-line canonical description, written with every output and checkpoint
    /// ([`crate::sim::fingerprint::matrix`]).
    pub fn fingerprint(&self) -> String {
        crate::sim::fingerprint::matrix(self)
    }

    /// Reads a fingerprint back (the plan line of a `matchups.csv`;
    /// [`crate::sim::fingerprint::parse_matrix`]).
    pub fn from_fingerprint(line: &str) -> Result<Plan, crate::core::input::Reason> {
        crate::sim::fingerprint::parse_matrix(line)
    }

    /// The number of tasks, checked against [`MAX_TASKS`].
    pub fn check_size(&self) -> Result<u64, crate::core::input::Reason> {
        let n = self.deck_names.len() as u64;
        let tasks = (n * n).saturating_mul(self.chunks());
        if tasks > MAX_TASKS {
            return Err(format!(
                "--games {} in chunks of {} is {tasks} chunks for {n} decks; at most {MAX_TASKS} (raise --chunk)",
                self.games, self.chunk
            )
            .into());
        }
        Ok(tasks)
    }

    /// The number of chunks of one matchup.
    pub fn chunks(&self) -> u64 {
        self.games.div_ceil(self.chunk)
    }

    /// The number of games of a chunk of a matchup.
    pub fn chunk_games(&self, chunk: u64) -> u64 {
        (self.games - chunk * self.chunk).min(self.chunk)
    }

    /// The games task `t` plays, or `None` when `t` is not a task of this plan.
    pub fn task_games(&self, t: Task) -> Option<u64> {
        let n = self.deck_names.len();
        (t.row < n && t.col < n && t.chunk < self.chunks()).then(|| self.chunk_games(t.chunk))
    }

    /// Every task, in a fixed order.
    pub fn tasks(&self) -> Vec<Task> {
        let n = self.deck_names.len();
        let chunks = self.chunks();
        let mut v = Vec::new();
        for row in 0..n {
            for col in 0..n {
                for chunk in 0..chunks {
                    v.push(Task { row, col, chunk });
                }
            }
        }
        v
    }

    /// The tasks of shard `(i, n)`, or every task without a shard.
    pub fn tasks_of(&self, shard: Option<(u64, u64)>) -> Vec<Task> {
        match shard {
            Some((i, n)) => self.shard_tasks(i, n),
            None => self.tasks(),
        }
    }

    /// The fingerprint a checkpoint of shard `(i, n)` is bound to
    /// ([`crate::sim::fingerprint::with_shard`]).
    pub fn shard_fingerprint(&self, shard: Option<(u64, u64)>) -> String {
        crate::sim::fingerprint::with_shard(self.fingerprint(), shard)
    }

    /// The tasks of shard `i` of `n` (1-based): every n-th task, so shards are balanced.
    pub fn shard_tasks(&self, i: u64, n: u64) -> Vec<Task> {
        self.tasks()
            .into_iter()
            .enumerate()
            .filter(|(k, _)| *k as u64 % n == i - 1)
            .map(|(_, t)| t)
            .collect()
    }

    /// A deck name's part of a game's seed (FNV-1a of the name alone, no separator: the seeds
    /// of every recorded matrix depend on it).
    fn name_hash(name: &str) -> u64 {
        fnv1a(name.bytes())
    }

    /// Game `k` of a matchup (`sim::schedule`: every game its own deal, keyed by the two decks'
    /// names).
    pub fn deal(&self, row: usize, col: usize, k: u64) -> Deal {
        let key = [
            Self::name_hash(&self.deck_names[row]),
            Self::name_hash(&self.deck_names[col]),
        ];
        schedule::deal(self.seed, &key, k, false)
    }
}

/// One finished game of a matrix run, for per-game records: its task, its index within the
/// matchup, the seeds of its deal and of the two agents, who moved first, the result and the final
/// state.
pub struct Played<'a, G: Game> {
    pub task: Task,
    pub index: u64,
    pub seed: u64,
    pub agent_seeds: [u64; 2],
    pub first: Seat,
    pub record: crate::sim::GameRecord,
    pub end: &'a G::State,
}

/// Plays the games of one task. `game` is the match of the row deck (seat P1) against the column
/// deck (seat P2).
pub fn run_task<G: GameDef>(
    plan: &Plan,
    game: &G,
    spec_a: &Entrant,
    spec_b: &Entrant,
    task: Task,
) -> Counts {
    run_task_with(plan, game, spec_a, spec_b, task, &mut |_| {})
}

/// [`run_task`], showing every finished game to `each` (in game order).
pub fn run_task_with<G: GameDef>(
    plan: &Plan,
    game: &G,
    spec_a: &Entrant,
    spec_b: &Entrant,
    task: Task,
    each: &mut dyn FnMut(&Played<G>),
) -> Counts {
    let mut c = Counts::default();
    let start = task.chunk * plan.chunk;
    let end = (start + plan.chunk).min(plan.games);
    for k in start..end {
        // Every game its own deal, so the games are independent. (Replaying a deal with the
        // initiative swapped correlates the two games, ρ ≈ 0.6, and narrows nothing: the rate's
        // variance grows by 1 + ρ.) The row deck has the turn-1 initiative on even games.
        let Deal {
            seed,
            first,
            agent_seeds,
            ..
        } = plan.deal(task.row, task.col, k);
        let mut a = spec_a.build::<G>(agent_seeds[0]);
        let mut b = spec_b.build::<G>(agent_seeds[1]);
        let (rec, last) =
            play_game_to_end(game, seed, first, [a.as_mut(), b.as_mut()], |_, _, _, _| {});
        if rec.aborted() {
            // An agent failed and the run is stopping: the task is not finished
            // (`run_tasks` drops it).
            break;
        }
        each(&Played {
            task,
            index: k,
            seed,
            agent_seeds,
            first,
            record: rec,
            end: &last,
        });
        c.record(&rec, first);
    }
    c
}

/// What a matrix run records of each game, if anything: a function from a finished game to its
/// line.
pub type RecordFn<'a, G> = Option<&'a (dyn Fn(&Played<G>) -> String + Sync)>;

/// Runs `tasks` in parallel; `done` is called (from any thread) with each finished task, its
/// counts and, with `record`, the lines of its games (in game order), e.g. to checkpoint it.
/// Returns the counts per task. A task during which an agent failed under `--on-agent-error
/// abort` is neither returned nor shown to `done`, and no task starts after it. No task starts
/// either once `stop` says so (a checkpoint that cannot be written).
#[allow(clippy::too_many_arguments)]
pub fn run_tasks<G: GameDef>(
    plan: &Plan,
    games: &[G],
    spec_a: &Entrant,
    spec_b: &Entrant,
    tasks: &[Task],
    record: RecordFn<G>,
    done: &(dyn Fn(Task, &Counts, &[String]) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Vec<(Task, Counts)> {
    let n = plan.deck_names.len();
    let stopping = || spec_a.aborted() || spec_b.aborted();
    tasks
        .par_iter()
        .filter_map(|&t| {
            if stopping() || stop() {
                return None;
            }
            let mut lines = Vec::new();
            let g = &games[t.row * n + t.col];
            let c = match record {
                Some(f) => run_task_with(plan, g, spec_a, spec_b, t, &mut |p| lines.push(f(p))),
                None => run_task(plan, g, spec_a, spec_b, t),
            };
            if stopping() {
                return None;
            }
            done(t, &c, &lines);
            Some((t, c))
        })
        .collect()
}

/// Sums task counts into a row-major n×n matrix of matchups.
pub fn totals(n: usize, results: &[(Task, Counts)]) -> Vec<Counts> {
    let mut m = vec![Counts::default(); n * n];
    for (t, c) in results {
        m[t.row * n + t.col].add(c);
    }
    m
}

/// Each deck's counts against the others, both directions of each pair pooled ([`pooled`]; a lone
/// deck against itself), strongest first (by win rate; ties in deck order).
pub fn strength(m: &[Counts], n: usize) -> Vec<(usize, Counts)> {
    let mut v: Vec<(usize, Counts)> = (0..n)
        .map(|r| {
            let mut tot = Counts::default();
            for c in 0..n {
                if c != r || n == 1 {
                    tot.add(&pooled(m, n, r, c));
                }
            }
            (r, tot)
        })
        .collect();
    v.sort_by(|a, b| {
        b.1.win_rate()
            .total_cmp(&a.1.win_rate())
            .then(a.0.cmp(&b.0))
    });
    v
}

/// The counts of deck `r` against deck `c` over both directions of the pair, from `r`'s side: the
/// games of the matchup (r, c), where `r` is the row deck, and those of (c, r), where it is the
/// column deck (its wins there are the row deck's losses). The two are independent samples of the
/// same question, so they add up.
pub fn pooled(m: &[Counts], n: usize, r: usize, c: usize) -> Counts {
    let mut t = m[r * n + c];
    if r != c {
        let x = &m[c * n + r];
        t.add(&Counts {
            wins: x.losses,
            losses: x.wins,
            ..*x
        });
    }
    t
}

/// The game of every ordered matchup of `decks`, row-major: the row deck is seat P1.
pub fn matches<G: GameDef>(cards: &G::Cards, decks: &[G::Deck]) -> Vec<G> {
    let mut games = Vec::with_capacity(decks.len() * decks.len());
    for r in decks {
        for c in decks {
            games.push(G::new_match(cards, [r, c]));
        }
    }
    games
}
