//! The command line: clap arguments, turned into calls of the library. No game logic here, and
//! no game named: every command is written once, generic over `G: GameDef`, and run through the
//! registry (`crate::games::visit`) for the game `--game` names or the decks imply.
//!
//! The conventions (`docs/cli.md`): decks are positional in every command; agents are `--agent
//! SPEC`, once per agent, never a list that could swallow a deck; the default agent is
//! `heuristic` wherever one may be left out; results go to `--out DIR`; `--seed`, `--threads`,
//! `--cards`, `--game`, `--out` and `--quiet` are defined once, here.

mod arena;
mod balance;
mod cards;
mod duel;
mod human;
mod matrix;
mod out;
mod play;
mod pool;
mod progress;
mod report;
mod serve;
mod sink;
mod tune;

pub use out::{emit, note, set_quiet};

use crate::agents::process::{OnError, ProcessOptions};
use crate::agents::AgentSpec;
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::{Error, GameDef, Seat};
use crate::games::{self, Visit};
use crate::sim::Entrant;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub use progress::Progress;

#[derive(Parser, Debug)]
#[command(
    name = "tcgsim",
    version,
    about = "Monte Carlo AI and deck-strength simulator for two-player trading card games",
    long_about = "tcgsim plays the real rules of trading card games between agents, ranks decks, \
                  cards and agents, and settles rule questions with scenario files (--game: the \
                  registered games). The command line's conventions: docs/cli.md."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--game` and `--cards`: which game, and its card file.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// The game. Default: the game its inputs show (a deck's folder or contents, the card file, a
    /// scenario's `game:` line), else the first game listed.
    #[arg(long, value_name = "GAME", value_parser = game_names())]
    pub game: Option<String>,
    /// Card file (default: the card file beside the first deck, or a scenario's `cards:` line,
    /// else the game's bundled pool).
    #[arg(long, value_name = "FILE")]
    pub cards: Option<PathBuf>,
}

/// `--seed`.
#[derive(Args, Debug, Clone)]
pub struct SeedArg {
    /// Master seed: the same seed gives the same games, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `--threads`.
#[derive(Args, Debug, Clone)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=limits::THREADS as u64))]
    pub threads: Option<u64>,
}

/// `--out`.
#[derive(Args, Debug, Clone)]
pub struct OutArg {
    /// Output folder: result files and run.json (created if missing).
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
}

/// `--quiet`.
#[derive(Args, Debug, Clone)]
pub struct QuietArg {
    /// No progress and no notes on standard error (errors are still reported).
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--agent`, one per agent.
#[derive(Args, Debug, Clone)]
pub struct AgentArgs {
    /// An agent spec (`heuristic`, `random`, `ismcts:iters=500`; docs/agents.md). Give the flag
    /// once per agent; left out: `heuristic` in matrix, cards, tune, balance and play (duel and
    /// arena need theirs named).
    #[arg(long = "agent", value_name = "SPEC")]
    pub agents: Vec<String>,
    /// `process:` agents: the longest wait for one decision, in milliseconds (docs/protocol.md).
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub move_timeout: u64,
    /// `process:` agents: what a failure (the program exits, writes garbage, answers an illegal
    /// action or times out) does: its game counts as a loss, or the run stops (finished games
    /// are kept).
    #[arg(long, value_enum, value_name = "WHAT", default_value = "loss")]
    pub on_agent_error: OnAgentError,
}

/// `cards --versus`: what ablation replaces a card by.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum VersusArg {
    Typical,
    Blank,
    Both,
}

/// The flags of a run played in chunks (`matrix`, `pool`): its checkpoint, its chunks, its shards.
#[derive(Args, Debug)]
struct ChunkArgs {
    /// Record finished chunks here, so an interrupted run can be resumed.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// Continue the run recorded in --checkpoint.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Run only part I of N (default from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Number of shards, with Kubernetes' JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// Games per chunk (the unit of parallel work, checkpoints and shards).
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..))]
    chunk: u64,
}

/// `--on-agent-error`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnAgentError {
    Loss,
    Abort,
}

impl AgentArgs {
    /// `--move-timeout` and `--on-agent-error`: the options of the `process:` agents, parsed
    /// into their specs ([`entrant`]).
    fn process(&self) -> ProcessOptions {
        ProcessOptions {
            timeout: std::time::Duration::from_millis(self.move_timeout),
            on_error: match self.on_agent_error {
                OnAgentError::Loss => OnError::Loss,
                OnAgentError::Abort => OnError::Abort,
            },
        }
    }
}

/// An `--agent` spec, parsed (the one place the command line parses one) with the options of
/// `process:` agents, and entered in a run (its failures counted there, [`Entrant`]).
fn entrant(text: &str, process: &ProcessOptions) -> Result<Entrant> {
    AgentSpec::parse_with(text, process)
        .map(Entrant::new)
        .map_err(|e| anyhow::Error::new(e).context(format!("--agent {text}")))
}

/// After a run: says how many games `process:` agents forfeited (counted as losses); an error
/// when one failed under `--on-agent-error abort` (the run stopped; what it finished is kept
/// where the command keeps it, e.g. its checkpoint).
fn agent_failures(specs: &[&Entrant], kept: &str) -> crate::core::Result<()> {
    for spec in specs {
        let (n, first) = spec.failures();
        let Some(first) = first else { continue };
        if spec.aborted() {
            return Err(Error::Agent(format!("{first}\nthe run stopped; {kept}")));
        }
        out::error(&format!(
            "warning: {n} game{} forfeited by a failing agent, counted as losses (--on-agent-error loss); the first: {first}",
            if n == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// The card language's tools (`tcgsim cards …`; docs/cards.md).
#[derive(Subcommand, Debug)]
enum CardTool {
    /// A card's printed fields and abilities, in plain English and in the card language.
    Show {
        /// The card: its name, `Name / Sub-name`, its id or number, or part of its name.
        card: String,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Every word of a game's card language, as markdown tables.
    Words {
        /// The game (default: the first game listed).
        #[arg(long, value_name = "GAME", value_parser = game_names())]
        game: Option<String>,
    },
    /// Rewrite a card file's card texts in the canonical form of the card language (older
    /// spellings keep loading; everything else of the file is kept as it is).
    Migrate {
        /// The card file.
        file: PathBuf,
        /// The game (default: the game whose card file it is).
        #[arg(long, value_name = "GAME", value_parser = game_names())]
        game: Option<String>,
        /// Write here instead of standard output.
        #[arg(long, value_name = "FILE", conflicts_with = "in_place")]
        out: Option<PathBuf>,
        /// Rewrite the file itself.
        #[arg(long)]
        in_place: bool,
    },
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Every deck against every deck: win-rate matrix, matchup counts, heatmap, summary. One
    /// --agent plays both decks; two are the row deck's and the column deck's.
    #[command(mut_arg("out", |a| a.default_value("results/matrix")))]
    Matrix(MatrixArgs),
    /// Add up the counts of shard outputs and recompute every rate and interval.
    #[command(mut_arg("out", |a| a.default_value("results/merge")))]
    Merge(MergeArgs),
    /// The metagame of a matrix run's folder: the Nash equilibrium of its win rates (which decks
    /// a field of rational players would bring), each deck's payoff against it, how sure the
    /// counts make it, and how exploitable an even field is; written to meta.csv
    /// (docs/statistics.md, "The metagame of a matrix").
    Meta(MetaArgs),
    /// Rank the cards of decks by win contribution (drawn vs not seen; ablation against a typical
    /// card of the pool, value over replacement, and against a blank filler). One --agent
    /// plays both seats. Also: `cards show CARD`, `cards words`, `cards migrate FILE` (the card
    /// language, docs/cards.md).
    #[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
    #[command(mut_arg("out", |a| a.default_value("results/cards")))]
    Cards(CardsArgs),
    /// Rank every card of the pool: games between decks drawn from it (random legal decks, sealed
    /// pools), and a regression of each result on the two decks' copies of every card, with
    /// intervals (docs/statistics.md, "The whole pool ranked"). One --agent plays both seats.
    #[command(mut_arg("out", |a| a.default_value("results/pool")))]
    Pool(PoolArgs),
    /// Improve a deck by card swaps against a gauntlet: a race of every legal swap each round,
    /// the gain re-measured on fresh deals at the end (docs/tuning.md).
    #[command(mut_arg("out", |a| a.default_value("results/tune")))]
    Tune(TuneArgs),
    /// Propose single-card changes (one step of a cost, a power, a defence) that flatten the
    /// matrix of decks: screened by card statistics, raced on paired deals, the best re-measured
    /// on fresh deals (docs/tuning.md).
    #[command(mut_arg("out", |a| a.default_value("results/balance")))]
    Balance(BalanceArgs),
    /// Round robin of agents (paired games, seats swapped) with Bradley–Terry Elo ratings, or a
    /// two-agent SPRT. Give --agent once per agent (at least two).
    #[command(mut_arg("out", |a| a.default_value("results/arena")))]
    Arena(ArenaArgs),
    /// Head-to-head: the first --agent against the second, seats swapped every other game.
    #[command(mut_arg("out", |a| a.default_value("results/duel")))]
    Duel(DuelArgs),
    /// Play one game between two agents and print the winner and why the game ended. The first
    /// --agent plays P1, the second P2 (one: both seats; none: heuristic).
    Play(PlayArgs),
    /// Serve the game as a model to other programs' search (OpenSpiel): JSON requests on standard
    /// input (hello, new, apply, resample, legal, info, view, choose, card_text, free, retain), one
    /// answer a line (docs/protocol.md, "The model server").
    Serve(ServeArgs),
    /// Play a recorded game again and print its log: a record of `play --out` from its actions, one
    /// of `matrix --records` by its agents rebuilt with their seeds.
    Replay(ReplayArgs),
    /// One self-contained HTML page (report.html) from run folders: run.json and the CSV files of
    /// matrix, cards, arena, tune, balance or duel; no server, no network (docs/cli.md).
    Report(ReportArgs),
    /// Check deck files against their format; every problem with its file and line.
    Validate(ValidateArgs),
    /// Apply a scenario's actions to its position and print the resulting state as JSON.
    Scenario(ScenarioArgs),
    /// Open a random sealed pool of the game's packs and print it as a deck file.
    Sealed(SealedArgs),
    /// A quick speed measurement of this machine (about 25 s): self-play and ISMCTS.
    Bench(BenchArgs),
}

/// `tcgsim matrix`'s arguments.
#[derive(Args, Debug)]
struct MatrixArgs {
    /// Decks (default: every deck in the game's bundled deck folder).
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// Games per ordered matchup (the default plays 640,000 games for the 8 bundled Trails
    /// decks, 20–45 s on 2 cores as the host is busy: README.md).
    #[arg(long, default_value_t = 10000, value_parser = clap::value_parser!(u64).range(1..=limits::MATRIX_GAMES))]
    games: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    #[command(flatten)]
    chunks: ChunkArgs,
    /// Also write one JSON line per game to records.jsonl (replay any with `tcgsim replay`).
    #[arg(long)]
    records: bool,
}

/// `tcgsim pool`'s arguments.
#[derive(Args, Debug)]
struct PoolArgs {
    /// Start decks of the random decks (default: the game's bundled decks).
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// Where the decks come from: random legal decks (walks of card swaps from the start decks),
    /// the game's sealed pools, or both (each deck by a fair coin).
    #[arg(long, value_name = "SOURCE", default_value = "random")]
    source: String,
    /// Games in all, each between two decks of their own.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=crate::sim::pool::MAX_GAMES))]
    games: u64,
    /// Card swaps per random deck (its walk from a start deck).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=1000))]
    walk: u64,
    /// Packs per sealed pool.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=limits::PACKS))]
    packs: u64,
    /// Pack composition of the sealed pools, in the game's notation (default: the game's
    /// standard pack; docs/cards.md).
    #[arg(long)]
    pack: Option<String>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Checkpoint, chunks and shards (a shard writes its chunks, pool_chunks.csv, for --merge).
    #[command(flatten)]
    chunks: ChunkArgs,
    /// Print the first and the last N cards (pool.csv has them all).
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// A shard's folder (with pool_chunks.csv), once per shard: rank the pool from the shards'
    /// chunks, given with the run's own flags; every chunk in exactly one part.
    #[arg(long, value_name = "PART", conflicts_with_all = ["checkpoint", "shard"])]
    merge: Vec<PathBuf>,
}

/// `tcgsim merge`'s arguments.
#[derive(Args, Debug)]
struct MergeArgs {
    /// Output folders of the shards (each with matchups.csv and run.json).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// `tcgsim meta`'s arguments.
#[derive(Args, Debug)]
struct MetaArgs {
    /// A matrix run's folder (run.json and matchups.csv: a whole run, or a merge of its shards).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The folder to write meta.csv into (default: DIR).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `tcgsim cards`'s arguments.
#[derive(Args, Debug)]
struct CardsArgs {
    #[command(subcommand)]
    tool: Option<CardTool>,
    /// Decks whose cards to rank.
    #[arg(required = true)]
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// An opponent deck; give the flag once per deck (default: the other bundled decks).
    #[arg(long = "gauntlet", value_name = "DECK")]
    gauntlet: Vec<PathBuf>,
    /// Games against each gauntlet deck, per variant of the deck.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=limits::CARDS_GAMES))]
    games: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Skip the ablation runs (only drawn/not-seen statistics).
    #[arg(long, conflicts_with = "versus")]
    no_ablation: bool,
    /// What a card is replaced by in ablation: `typical` (value over replacement: a legal card
    /// of the pool of its type and cost), `blank` (the game's neutral filler) or `both`.
    #[arg(long, value_enum, value_name = "WHAT", default_value = "both")]
    versus: VersusArg,
    /// Print the first N cards of each ranking (all of them in cards.csv).
    #[arg(long, value_name = "N")]
    top: Option<usize>,
}

/// `tcgsim tune`'s arguments.
#[derive(Args, Debug)]
struct TuneArgs {
    /// The deck to tune.
    deck: PathBuf,
    /// The game (default: the game of the deck's folder or card file).
    #[arg(long, value_name = "GAME", value_parser = game_names())]
    game: Option<String>,
    /// The card file: the deck, the gauntlet and every card a swap may add (default: the card
    /// file beside the deck, else the game's bundled pool).
    #[arg(long, alias = "cards", value_name = "FILE")]
    pool: Option<PathBuf>,
    /// An opponent deck; give the flag once per deck (default: the other bundled decks).
    #[arg(long = "gauntlet", value_name = "DECK")]
    gauntlet: Vec<PathBuf>,
    #[command(flatten)]
    agents: AgentArgs,
    /// Stop starting new looks after this long (90s, 8m, 1h30m, 10h). Default 10m when
    /// --rounds is not given either.
    #[arg(long, value_name = "DURATION", value_parser = tune::parse_duration)]
    time: Option<std::time::Duration>,
    /// Stop after this many rounds (each accepts at most one swap).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    rounds: Option<u64>,
    /// Games of the final measurement on fresh deals (each deck; rounded up to whole laps of
    /// the gauntlet with and without the initiative).
    #[arg(long, default_value_t = 12000, value_parser = clap::value_parser!(u64).range(2..=limits::CARDS_GAMES))]
    check_games: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Keep the search's state here after every look, so a killed run can be resumed.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// Continue the search recorded in --checkpoint.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
}

/// `tcgsim balance`'s arguments.
#[derive(Args, Debug)]
struct BalanceArgs {
    /// Decks (default: every deck in the game's bundled deck folder).
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// Changes raced after screening (the most promising first).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=1000))]
    candidates: u64,
    /// Games per ordered matchup at the race's first stage (and per deck pair for screening);
    /// each stage doubles them.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..=limits::CARDS_GAMES))]
    games: u64,
    /// The most games per ordered matchup a stage may reach.
    #[arg(long, default_value_t = 3200, value_parser = clap::value_parser!(u64).range(10..=limits::CARDS_GAMES))]
    max_games: u64,
    /// Games per ordered matchup of the final measurement on fresh deals.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(10..=limits::CARDS_GAMES))]
    check_games: u64,
    /// Stop the race after the stage that passes this time (90s, 8m, 10h); default none.
    #[arg(long, alias = "time", value_name = "DURATION", value_parser = tune::parse_duration)]
    budget: Option<std::time::Duration>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// `tcgsim arena`'s arguments.
#[derive(Args, Debug)]
struct ArenaArgs {
    /// Decks played, every ordered pair in turn (default: the game's arena decks).
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// Games per pair of agents (played in pairs: an odd number is rounded up, and said).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=limits::ARENA_GAMES))]
    games: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Sequential test of two agents: elo0,elo1[,alpha,beta] (fishtest's GSPRT on pairs);
    /// writes sprt.csv. A negative elo0 may follow the flag (`--sprt -50,0`).
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// With --sprt: stop after this many games without a decision.
    #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u64).range(2..=limits::ARENA_GAMES))]
    max_games: u64,
}

/// `tcgsim duel`'s arguments.
#[derive(Args, Debug)]
struct DuelArgs {
    /// The two decks (each deal is played from both sides).
    #[arg(num_args = 2, required = true, value_names = ["DECK1", "DECK2"])]
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    /// Number of games (played in pairs: an odd number is rounded up, and said).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=limits::DUEL_GAMES))]
    games: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    out: OutArg,
    #[command(flatten)]
    quiet: QuietArg,
    /// Record every finished game here, so an interrupted duel can be resumed.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// Continue the duel recorded in --checkpoint.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Play one game at a time, each agent's search using every worker thread: for agents
    /// with a time budget and threads (`ismcts:ms=100,threads=4`), which would otherwise share
    /// the cores with the games beside them. The games and counts are the same either way.
    #[arg(long)]
    one_at_a_time: bool,
}

/// `tcgsim play`'s arguments.
#[derive(Args, Debug)]
struct PlayArgs {
    /// The deck of P1, then the deck of P2.
    #[arg(num_args = 2, required = true, value_names = ["DECK1", "DECK2"])]
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    agents: AgentArgs,
    #[command(flatten)]
    seed: SeedArg,
    /// Who moves first (has the initiative) on turn 1: 1 or 2.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    first: u8,
    /// Print a play-by-play.
    #[arg(long)]
    log: bool,
    /// Show hidden cards in the log.
    #[arg(long)]
    reveal: bool,
    /// A person plays this seat (1 or 2) in the terminal.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    human: Option<u8>,
    /// Also write the game's record (record.jsonl) and its log (log.txt) into this folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    quiet: QuietArg,
}

/// `tcgsim serve`'s arguments.
#[derive(Args, Debug)]
struct ServeArgs {
    /// The deck of P1, then the deck of P2.
    #[arg(num_args = 2, required = true, value_names = ["DECK1", "DECK2"])]
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
}

/// `tcgsim replay`'s arguments.
#[derive(Args, Debug)]
struct ReplayArgs {
    /// A records file (`record.jsonl` of `play --out`, `records.jsonl` of `matrix --records`: one
    /// JSON line per game).
    record: PathBuf,
    /// Which record of the file (1 is the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    index: u64,
    /// Show hidden cards in the log.
    #[arg(long)]
    reveal: bool,
}

/// `tcgsim report`'s arguments.
#[derive(Args, Debug)]
struct ReportArgs {
    /// Run folders (each with run.json), one part of the page each; or one folder of run folders
    /// (`results`), whose runs each get their page and the folder an index page of them.
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The page to write (default: report.html in the first folder).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `tcgsim validate`'s arguments.
#[derive(Args, Debug)]
struct ValidateArgs {
    /// Deck files.
    #[arg(required = true)]
    decks: Vec<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
}

/// `tcgsim scenario`'s arguments.
#[derive(Args, Debug)]
struct ScenarioArgs {
    /// Scenario file (docs/scenario.md); its `game:` line names the game.
    file: PathBuf,
    #[command(flatten)]
    game: GameArgs,
}

/// `tcgsim sealed`'s arguments.
#[derive(Args, Debug)]
struct SealedArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed of the pool: the same seed (with the same cards, --packs and --pack) opens the same
    /// packs, so gives the same deck; it also names the file --out writes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of packs.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=limits::PACKS))]
    packs: u64,
    /// Pack composition, in the game's notation (default: the game's standard pack;
    /// docs/cards.md).
    #[arg(long)]
    pack: Option<String>,
    /// Write the deck as DIR/sealed-SEED.deck instead of printing it.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `tcgsim bench`'s arguments.
#[derive(Args, Debug)]
struct BenchArgs {
    /// The game (default: the first game listed).
    #[arg(long, value_name = "GAME", value_parser = game_names())]
    game: Option<String>,
    /// Total time budget in seconds (split over the measurements).
    #[arg(long, default_value_t = 24.0)]
    seconds: f64,
    /// Print CSV instead of a table.
    #[arg(long)]
    csv: bool,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// `--game`'s values: the registered games, in registry order.
fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(games::GAMES.iter().map(|g| g.name))
}

/// The bounds of the command line's numbers (README, "Limits"): enough for any real run, small
/// enough that no flag exhausts memory or runs for days before saying so. (The chunks of a
/// matrix run are bounded by `crate::sim::matrix::MAX_TASKS`, agent specs by
/// `agents::spec::limits`.)
pub mod limits {
    /// `matrix --games` per matchup.
    pub const MATRIX_GAMES: u64 = 1_000_000_000;
    /// `cards --games` per gauntlet deck (every game's record is kept).
    pub const CARDS_GAMES: u64 = 1_000_000;
    /// `arena --games` per pair of agents, and `--max-games`.
    pub const ARENA_GAMES: u64 = 100_000_000;
    /// `duel --games` (a checkpoint line each).
    pub const DUEL_GAMES: u64 = 1_000_000;
    /// `--threads`.
    pub const THREADS: usize = 1024;
    /// `bench --seconds`.
    pub const BENCH_SECONDS: f64 = 3600.0;
    /// `sealed --packs`.
    pub const PACKS: u64 = 100;
    /// `--agent` flags of one command.
    pub const AGENTS: usize = 64;
}

/// The exit code of a failed command, after its message: 1 when its output could not be written
/// (nothing is said when the reader closed the pipe), 2 for bad input (the message names the
/// file, line or flag and the reason).
fn failure(e: anyhow::Error) -> ExitCode {
    if kind_of(&e).is_some_and(Error::is_broken_pipe) {
        return ExitCode::from(1);
    }
    out::error(&format!("error: {e:#}"));
    ExitCode::from(exit_code_of(&e))
}

/// The library's error in `e`'s chain (under a context or not): the failure's kind.
fn kind_of(e: &anyhow::Error) -> Option<&Error> {
    e.chain().find_map(|c| c.downcast_ref::<Error>())
}

/// The exit code of `e`: its kind's ([`Error::exit_code`], `docs/cli.md`, "Exit codes"); 2 for
/// an error with no kind (a message of the command line's own: a flag that does not fit).
fn exit_code_of(e: &anyhow::Error) -> u8 {
    kind_of(e).map_or(2, Error::exit_code)
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // The output folder's files go in place after the command, even after another error (what
    // was finished stays finished), unless writing one of them failed (`out::write_result`).
    let code = match run(cli).and_then(|code| Ok(out::commit().map(|_| code)?)) {
        Ok(code) => code,
        Err(e) => {
            let _ = out::commit();
            failure(e)
        }
    };
    // `process:` agents' programs: their input closed, a moment to exit, then stopped.
    crate::agents::process::shutdown();
    code
}

/// The command, run for one game.
struct Run<'a>(&'a Command);

impl Visit for Run<'_> {
    type Out = Result<ExitCode>;
    fn visit<G: GameDef>(self) -> Result<ExitCode> {
        run_game::<G>(self.0)
    }
}

impl Command {
    /// `--quiet`, for the commands that have it.
    fn quiet(&self) -> bool {
        match self {
            Command::Matrix(MatrixArgs { quiet, .. })
            | Command::Merge(MergeArgs { quiet, .. })
            | Command::Cards(CardsArgs { quiet, .. })
            | Command::Pool(PoolArgs { quiet, .. })
            | Command::Tune(TuneArgs { quiet, .. })
            | Command::Balance(BalanceArgs { quiet, .. })
            | Command::Arena(ArenaArgs { quiet, .. })
            | Command::Duel(DuelArgs { quiet, .. })
            | Command::Play(PlayArgs { quiet, .. }) => quiet.quiet,
            _ => false,
        }
    }

    /// The game the command runs ([`choose_game`]); `None` for the commands that name no game
    /// (`merge`, `report`).
    fn game(&self) -> Result<Option<&'static str>> {
        let only = |game: &Option<String>, cards: Option<&PathBuf>| GameArgs {
            game: game.clone(),
            cards: cards.cloned(),
        };
        Ok(Some(match self {
            Command::Merge(_) | Command::Meta(_) | Command::Report(_) => return Ok(None),
            Command::Cards(CardsArgs {
                tool: Some(tool), ..
            }) => match tool {
                CardTool::Show { game, .. } => choose_game(game, &[], None)?,
                CardTool::Words { game } => choose_game(&only(game, None), &[], None)?,
                CardTool::Migrate { file, game, .. } => {
                    choose_game(&only(game, Some(file)), &[], None)?
                }
            },
            Command::Matrix(MatrixArgs { decks, game, .. })
            | Command::Balance(BalanceArgs { decks, game, .. })
            | Command::Cards(CardsArgs { decks, game, .. })
            | Command::Pool(PoolArgs { decks, game, .. })
            | Command::Arena(ArenaArgs { decks, game, .. })
            | Command::Duel(DuelArgs { decks, game, .. })
            | Command::Play(PlayArgs { decks, game, .. })
            | Command::Serve(ServeArgs { decks, game })
            | Command::Validate(ValidateArgs { decks, game }) => choose_game(game, decks, None)?,
            Command::Scenario(ScenarioArgs { file, game }) => {
                let text = read_text(file, MAX_TEXT_BYTES)?;
                choose_game(game, &[], Some((file, &text)))?
            }
            Command::Sealed(SealedArgs { game, .. }) => choose_game(game, &[], None)?,
            Command::Tune(TuneArgs {
                deck, game, pool, ..
            }) => choose_game(&only(game, pool.as_ref()), std::slice::from_ref(deck), None)?,
            Command::Replay(ReplayArgs { record, index, .. }) => {
                let g = play::record_game(record, *index as usize)?;
                match games::info(&g) {
                    Some(i) => i.name,
                    None => bail!(
                        "{}: game \"{g}\" is not one of this tcgsim's games ({})",
                        record.display(),
                        games::names()
                    ),
                }
            }
            Command::Bench(BenchArgs { game, .. }) => choose_game(&only(game, None), &[], None)?,
        }))
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    set_quiet(cli.command.quiet());
    if let Command::Validate(a) = &cli.command {
        if a.game.game.is_none() && a.game.cards.is_none() {
            return validate_each(&a.decks);
        }
    }
    match (&cli.command, cli.command.game()?) {
        (Command::Merge(a), _) => matrix::merge(&a.parts, &a.out.out),
        (Command::Meta(a), _) => matrix::meta(&a.dir, a.out.as_deref()),
        (Command::Report(a), _) => report::report(&a.dirs, a.out.as_deref()),
        (cmd, Some(game)) => {
            games::visit(game, Run(cmd)).expect("choose_game returns a registered game")
        }
        (_, None) => unreachable!("only merge, meta and report name no game"),
    }
}

/// Runs the command for game `G`: its arguments made into the command's options.
fn run_game<G: GameDef>(cmd: &Command) -> Result<ExitCode> {
    match cmd {
        Command::Matrix(a) => matrix::matrix::<G>(a.opts()),
        Command::Cards(CardsArgs {
            tool: Some(tool), ..
        }) => cards::tool::<G>(tool.tool()),
        Command::Cards(a) => cards::cards::<G>(a.opts()?),
        Command::Pool(a) => pool::pool::<G>(a.opts()?),
        Command::Balance(a) => balance::balance::<G>(a.opts()?),
        Command::Tune(a) => tune::tune::<G>(a.opts()?),
        Command::Arena(a) => arena::arena::<G>(a.opts()),
        Command::Duel(a) => duel::duel::<G>(a.opts()?),
        Command::Play(a) => play::play::<G>(a.opts()?),
        Command::Serve(ServeArgs { decks, game }) => serve::serve::<G>(serve::ServeOpts {
            decks: [decks[0].clone(), decks[1].clone()],
            cards: game.cards.clone(),
        }),
        Command::Validate(ValidateArgs { decks, game }) => {
            validate::<G>(decks, game.cards.as_deref())
        }
        Command::Scenario(ScenarioArgs { file, game }) => {
            scenario::<G>(file, game.cards.as_deref())
        }
        Command::Sealed(a) => sealed::<G>(
            a.seed,
            a.packs,
            a.pack.as_deref(),
            a.game.cards.as_deref(),
            a.out.as_deref(),
        ),
        Command::Bench(a) => bench::<G>(a.seconds, a.csv, a.threads.threads),
        Command::Replay(a) => play::replay::<G>(&a.record, a.index as usize, a.reveal),
        Command::Merge(_) | Command::Meta(_) | Command::Report(_) => {
            unreachable!("merge, meta and report name no game: run() handles them")
        }
    }
}

impl MatrixArgs {
    fn opts(&self) -> matrix::MatrixOpts {
        matrix::MatrixOpts {
            decks: self.decks.clone(),
            cards: self.game.cards.clone(),
            agents: self.agents.agents.clone(),
            games: self.games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: self.out.out.clone(),
            checkpoint: self.chunks.checkpoint.clone(),
            resume: self.chunks.resume,
            shard: self.chunks.shard.clone(),
            shards: self.chunks.shards,
            chunk: self.chunks.chunk,
            process: self.agents.process(),
            records: self.records,
        }
    }
}

impl CardTool {
    fn tool(&self) -> cards::Tool {
        match self {
            CardTool::Show { card, game } => cards::Tool::Show {
                card: card.clone(),
                cards: game.cards.clone(),
            },
            CardTool::Words { .. } => cards::Tool::Words,
            CardTool::Migrate {
                file,
                out,
                in_place,
                ..
            } => cards::Tool::Migrate {
                file: file.clone(),
                out: if *in_place {
                    Some(file.clone())
                } else {
                    out.clone()
                },
            },
        }
    }
}

impl CardsArgs {
    fn opts(&self) -> Result<cards::CardsOpts> {
        Ok(cards::CardsOpts {
            decks: self.decks.clone(),
            gauntlet: self.gauntlet.clone(),
            agent: one_agent(&self.agents)?,
            games: self.games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: self.out.out.clone(),
            versus: if self.no_ablation {
                crate::sim::cards::Versus::NONE
            } else {
                crate::sim::cards::Versus {
                    typical: self.versus != VersusArg::Blank,
                    blank: self.versus != VersusArg::Typical,
                }
            },
            cards: self.game.cards.clone(),
            process: self.agents.process(),
            top: self.top,
        })
    }
}

impl PoolArgs {
    fn opts(&self) -> Result<pool::PoolOpts> {
        Ok(pool::PoolOpts {
            decks: self.decks.clone(),
            cards: self.game.cards.clone(),
            agent: one_agent(&self.agents)?,
            source: self.source.clone(),
            walk: self.walk,
            packs: self.packs,
            pack: self.pack.clone(),
            games: self.games,
            seed: self.seed.seed,
            chunk: self.chunks.chunk,
            threads: self.threads.threads,
            out: self.out.out.clone(),
            checkpoint: self.chunks.checkpoint.clone(),
            resume: self.chunks.resume,
            top: self.top,
            shard: self.chunks.shard.clone(),
            shards: self.chunks.shards,
            merge: self.merge.clone(),
            process: self.agents.process(),
        })
    }
}

impl BalanceArgs {
    fn opts(&self) -> Result<balance::BalanceOpts> {
        Ok(balance::BalanceOpts {
            decks: self.decks.clone(),
            cards: self.game.cards.clone(),
            agent: one_agent(&self.agents)?,
            candidates: self.candidates as usize,
            games: self.games,
            max_games: self.max_games,
            check_games: self.check_games,
            budget: self.budget,
            seed: self.seed.seed,
            threads: self.threads.threads,
            process: self.agents.process(),
            out: self.out.out.clone(),
        })
    }
}

impl TuneArgs {
    fn opts(&self) -> Result<tune::TuneOpts> {
        Ok(tune::TuneOpts {
            deck: self.deck.clone(),
            gauntlet: self.gauntlet.clone(),
            pool: self.pool.clone(),
            agent: one_agent(&self.agents)?,
            time: self.time,
            rounds: self.rounds,
            check_games: self.check_games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: self.out.out.clone(),
            checkpoint: self.checkpoint.clone(),
            process: self.agents.process(),
            resume: self.resume,
        })
    }
}

impl ArenaArgs {
    fn opts(&self) -> arena::ArenaOpts {
        arena::ArenaOpts {
            agents: self.agents.agents.clone(),
            decks: self.decks.clone(),
            games: self.games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: self.out.out.clone(),
            sprt: self.sprt.clone(),
            max_games: self.max_games,
            process: self.agents.process(),
            cards: self.game.cards.clone(),
        }
    }
}

impl DuelArgs {
    fn opts(&self) -> Result<duel::DuelOpts<'_>> {
        Ok(duel::DuelOpts {
            agents: two_agents(&self.agents, true)?,
            decks: &self.decks,
            games: self.games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            out: &self.out.out,
            checkpoint: self.checkpoint.as_deref(),
            resume: self.resume,
            cards: self.game.cards.as_deref(),
            process: self.agents.process(),
            one_at_a_time: self.one_at_a_time,
        })
    }
}

impl PlayArgs {
    fn opts(&self) -> Result<play::PlayOpts> {
        Ok(play::PlayOpts {
            decks: [self.decks[0].clone(), self.decks[1].clone()],
            seed: self.seed.seed,
            agents: two_agents(&self.agents, false)?,
            first: Seat::from_index(self.first as usize - 1),
            log: self.log,
            reveal: self.reveal,
            human: self.human.map(|h| Seat::from_index(h as usize - 1)),
            cards: self.game.cards.clone(),
            process: self.agents.process(),
            out: self.out.clone(),
        })
    }
}

/// The agent of a command that takes one (`cards`): the one `--agent`, else heuristic.
fn one_agent(a: &AgentArgs) -> Result<String> {
    match a.agents.as_slice() {
        [] => Ok("heuristic".into()),
        [x] => Ok(x.clone()),
        v => bail!("--agent: this command takes one agent, {} given", v.len()),
    }
}

/// The two agents of `play` (left out: heuristic; one: both seats) or `duel` (`required`: both
/// must be given).
fn two_agents(a: &AgentArgs, required: bool) -> Result<[String; 2]> {
    match a.agents.as_slice() {
        [] if !required => Ok(["heuristic".into(), "heuristic".into()]),
        [x] if !required => Ok([x.clone(), x.clone()]),
        [x, y] => Ok([x.clone(), y.clone()]),
        v => bail!(
            "--agent: this command takes {}two agents (--agent A --agent B), {} given",
            if required { "" } else { "one or " },
            v.len()
        ),
    }
}

/// The game a command runs: `--game`, or the game its inputs show (a deck in a game's deck
/// folder, a card file with a game's header, a scenario's `game:` line), else the first game of
/// the registry. Inputs that point at two games, or at another game than `--game`, are an error.
fn choose_game(
    args: &GameArgs,
    decks: &[PathBuf],
    scenario: Option<(&Path, &str)>,
) -> Result<&'static str> {
    if let Some(g) = &args.game {
        if games::info(g).is_none() {
            bail!("--game {g}: unknown game (available: {})", games::names());
        }
    }
    // (game, why) for every input that shows a game.
    let mut evidence = folder_evidence(decks);
    evidence.extend(card_file_evidence(args, decks)?);
    if args.game.is_none() && evidence.is_empty() {
        evidence.extend(content_evidence(decks)?);
    }
    if let Some((file, text)) = scenario {
        evidence.extend(scenario_evidence(file, text)?);
    }
    let chosen = match &args.game {
        Some(g) => games::info(g).expect("checked above").name,
        None => evidence.first().map_or(games::GAMES[0].name, |(g, _)| *g),
    };
    if let Some((g, why)) = evidence.iter().find(|(g, _)| *g != chosen) {
        let because = match &args.game {
            Some(_) => format!("--game {chosen}"),
            None => evidence
                .iter()
                .find(|(x, _)| *x == chosen)
                .map_or_else(String::new, |(_, w)| w.clone()),
        };
        bail!("the inputs are of two games: {because}, but {why} (game {g}); give matching --game, --cards and decks");
    }
    Ok(chosen)
}

/// A game an input shows, and why ("x.deck is in a fireforce folder").
type Evidence = Vec<(&'static str, String)>;

/// The game of each deck's own folder (`decks/<game>/x.deck`; not any folder above it).
fn folder_evidence(decks: &[PathBuf]) -> Evidence {
    let mut evidence = Vec::new();
    for d in decks {
        let folder = d.parent().and_then(Path::file_name);
        if let Some(g) = games::GAMES
            .iter()
            .find(|g| folder.is_some_and(|f| f == g.name))
        {
            evidence.push((g.name, format!("{} is in a {} folder", d.display(), g.name)));
        }
    }
    evidence
}

/// The game of the card file: `--cards`, else a game's card file beside the first deck. A
/// `--cards` file of no game is an error.
fn card_file_evidence(args: &GameArgs, decks: &[PathBuf]) -> Result<Evidence> {
    let card_file = args.cards.clone().or_else(|| {
        decks.first().and_then(|d| {
            let dir = d.parent()?;
            games::GAMES
                .iter()
                .map(|g| dir.join(g.card_file))
                .find(|p| p.is_file())
        })
    });
    let Some(f) = &card_file else {
        return Ok(Vec::new());
    };
    let text = read_text(f, MAX_TEXT_BYTES)?;
    let of: Vec<&'static str> = games::GAMES
        .iter()
        .filter(|g| games::visit(g.name, IsCardFile(&text)) == Some(true))
        .map(|g| g.name)
        .collect();
    match of.as_slice() {
        [g] => Ok(vec![(g, format!("{} is a {g} card file", f.display()))]),
        [] if args.cards.is_some() => bail!(
            "{}: not a card file of any game (available: {}; docs/cards.md)",
            f.display(),
            games::names()
        ),
        _ => Ok(Vec::new()),
    }
}

/// Decks outside a game's folder with no card file to tell (issue 30: `sealed --game fireforce
/// --out my_decks` wrote a deck read as Trails): each is read as every game's deck against its
/// bundled pool. The one game it is a valid deck of is its game (two are ambiguous: an error);
/// else the one game whose pool knows the most of its cards (a deck with one wrong count or one
/// misspelt card is still its game's, and `validate` then says what is wrong); else nothing.
fn content_evidence(decks: &[PathBuf]) -> Result<Evidence> {
    let mut evidence = Vec::new();
    for d in decks {
        let Ok(text) = read_text(d, MAX_TEXT_BYTES) else {
            continue; // the deck's own reading reports it
        };
        let reads: Vec<(&'static str, DeckReading)> = games::GAMES
            .iter()
            .filter_map(|g| Some((g.name, games::visit(g.name, ReadDeck(&text))?)))
            .collect();
        let valid: Vec<&str> = reads
            .iter()
            .filter(|(_, r)| r.valid)
            .map(|(g, _)| *g)
            .collect();
        if let [a, b, ..] = valid.as_slice() {
            bail!(
                "{}: reads as a deck of {a} and of {b} (its folder does not say which game); give --game",
                d.display()
            );
        }
        if let [g] = valid.as_slice() {
            evidence.push((*g, format!("{} is a {g} deck", d.display())));
            continue;
        }
        let most = reads.iter().map(|(_, r)| r.known).max().unwrap_or(0);
        let best: Vec<&str> = reads
            .iter()
            .filter(|(_, r)| r.known == most)
            .map(|(g, _)| *g)
            .collect();
        if let ([g], true) = (best.as_slice(), most > 0) {
            let why = format!("{} names {most} cards of the {g} pool", d.display());
            evidence.push((*g, why));
        }
    }
    Ok(evidence)
}

/// The game a scenario's `game:` line names (an unknown game is an error).
fn scenario_evidence(file: &Path, text: &str) -> Result<Evidence> {
    let Some(v) = text.lines().find_map(|l| l.trim().strip_prefix("game:")) else {
        return Ok(Vec::new());
    };
    let v = v.split('#').next().unwrap_or("").trim();
    match games::info(v) {
        Some(g) => Ok(vec![(g.name, format!("{} says game: {v}", file.display()))]),
        None => bail!(
            "{}: game: {v}: unknown game (available: {})",
            file.display(),
            games::names()
        ),
    }
}

/// Whether a text is game `G`'s card file.
struct IsCardFile<'a>(&'a str);

impl Visit for IsCardFile<'_> {
    type Out = bool;
    fn visit<G: GameDef>(self) -> bool {
        G::is_card_file(self.0)
    }
}

/// A deck file's text read as a deck of game `G`'s bundled pool ([`ReadDeck`]).
struct DeckReading {
    /// It is a valid deck of the game.
    valid: bool,
    /// Its `COUNT CARD` lines whose card the pool knows (by number or name).
    known: usize,
}

/// Reads a deck file's text as a deck of game `G`'s bundled pool.
struct ReadDeck<'a>(&'a str);

impl Visit for ReadDeck<'_> {
    type Out = DeckReading;
    fn visit<G: GameDef>(self) -> DeckReading {
        let cards = G::bundled_cards();
        let known = self
            .0
            .lines()
            .filter_map(|l| {
                let l = l.split('#').next().unwrap_or("").trim();
                let (count, name) = l.split_once(char::is_whitespace)?;
                count.parse::<u32>().ok()?;
                Some(name.trim())
            })
            .filter(|name| !name.is_empty() && G::card_text(&cards, name).is_ok())
            .count();
        DeckReading {
            valid: G::parse_deck(&cards, self.0, "", "deck").is_ok(),
            known,
        }
    }
}

/// The card file for a set of decks: `--cards`, else the game's card file beside the first deck,
/// else (`None`) the game's bundled pool.
fn card_source<G: GameDef>(cards: Option<&Path>, first_deck: Option<&Path>) -> Option<PathBuf> {
    if let Some(c) = cards {
        return Some(c.to_path_buf());
    }
    let beside = first_deck.and_then(Path::parent)?.join(G::INFO.card_file);
    beside.is_file().then_some(beside)
}

/// The cards of [`card_source`].
fn load_cards<G: GameDef>(cards: Option<&Path>, first_deck: Option<&Path>) -> Result<G::Cards> {
    read_cards::<G>(card_source::<G>(cards, first_deck).as_deref())
}

/// The cards of a card file, or the bundled pool.
fn read_cards<G: GameDef>(file: Option<&Path>) -> Result<G::Cards> {
    match file {
        Some(p) => {
            let text = read_text(p, MAX_TEXT_BYTES)?;
            G::parse_cards(&text, &p.display().to_string()).map_err(|e| anyhow!(e))
        }
        None => Ok(G::bundled_cards()),
    }
}

/// Loads decks; with `unique`, deck names (file stems) must differ and be plain (they key result
/// rows and fingerprints).
fn load_decks<G: GameDef>(
    cards: &G::Cards,
    paths: &[PathBuf],
    unique: bool,
) -> Result<Vec<G::Deck>> {
    let mut decks: Vec<G::Deck> = Vec::new();
    for p in paths {
        let d = G::load_deck(cards, p).map_err(|e| anyhow!(e))?;
        if unique {
            let name = G::deck_name(&d);
            if name.contains([',', ';']) {
                bail!(
                    "{}: a deck name (the file stem) may not contain ',' or ';'",
                    p.display()
                );
            }
            if decks.iter().any(|x| G::deck_name(x) == name) {
                bail!(
                    "{}: two decks are named \"{name}\"; deck names (file stems) must differ",
                    p.display()
                );
            }
        }
        decks.push(d);
    }
    Ok(decks)
}

/// Every deck in the game's bundled deck folder, sorted.
fn bundled_decks<G: GameDef>() -> Result<Vec<PathBuf>> {
    let dir = Path::new(G::INFO.deck_dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| {
            format!(
                "no decks given and {} cannot be read (run from the repository, or name decks)",
                dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == G::INFO.deck_ext))
        .collect();
    v.sort();
    if v.is_empty() {
        bail!("no decks given and none in {}", dir.display());
    }
    Ok(v)
}

fn validate<G: GameDef>(decks: &[PathBuf], cards: Option<&Path>) -> Result<ExitCode> {
    let bad = validate_decks::<G>(decks, cards)?;
    validated(bad, decks.len())
}

/// `validate` without `--game` and `--cards`: each deck checked as a deck of its own game (its
/// folder, the card file beside it, or its contents: [`choose_game`]), so the decks of several
/// games are checked in one call (the README's two `sealed` decks in one folder).
fn validate_each(decks: &[PathBuf]) -> Result<ExitCode> {
    let mut bad = 0;
    for d in decks {
        let one = std::slice::from_ref(d);
        let g = choose_game(&GameArgs::default(), one, None)?;
        bad += games::visit(g, ValidateDecks(one)).expect("a registered game")?;
    }
    validated(bad, decks.len())
}

/// Checks deck files of game `G` (a registered game's [`validate_decks`]).
struct ValidateDecks<'a>(&'a [PathBuf]);

impl Visit for ValidateDecks<'_> {
    type Out = Result<usize>;
    fn visit<G: GameDef>(self) -> Result<usize> {
        validate_decks::<G>(self.0, None)
    }
}

/// The end of `validate`: exit code 2 when `bad` of the `n` decks were invalid.
fn validated(bad: usize, n: usize) -> Result<ExitCode> {
    if bad > 0 {
        out::error(&format!("{bad} of {n} decks invalid"));
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks each deck, printing `ok` with its summary or its errors; how many were invalid.
fn validate_decks<G: GameDef>(decks: &[PathBuf], cards: Option<&Path>) -> Result<usize> {
    let db = load_cards::<G>(cards, decks.first().map(PathBuf::as_path))?;
    let mut bad = 0;
    for path in decks {
        match G::load_deck(&db, path) {
            Ok(d) => emit(&format!(
                "{}: ok ({})\n",
                path.display(),
                G::deck_summary(&d)
            ))?,
            Err(e) => {
                bad += 1;
                out::error(&e.to_string());
            }
        }
    }
    Ok(bad)
}

fn scenario<G: GameDef>(file: &Path, cards: Option<&Path>) -> Result<ExitCode> {
    let text = read_text(file, MAX_TEXT_BYTES)?;
    let db = match cards {
        Some(c) => Some(load_cards::<G>(Some(c), None)?),
        None => None,
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    let r = G::run_scenario(&text, &file.display().to_string(), dir, db).map_err(|e| anyhow!(e))?;
    emit(&format!("{}\n", r.json))?;
    if let Some(m) = r.illegal {
        out::error(&m);
        return Ok(ExitCode::from(1));
    }
    if !r.failed.is_empty() {
        for f in &r.failed {
            out::error(&format!("{}: expectation failed: {f}", file.display()));
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn sealed<G: GameDef>(
    seed: u64,
    packs: u64,
    pack: Option<&str>,
    cards: Option<&Path>,
    out: Option<&Path>,
) -> Result<ExitCode> {
    let db = load_cards::<G>(cards, None)?;
    let text =
        G::sealed(&db, packs, pack.unwrap_or(G::DEFAULT_PACK), seed).map_err(|e| anyhow!(e))?;
    match out {
        Some(dir) => {
            check_out_dir(dir)?;
            let p = dir.join(format!("sealed-{seed}.{}", G::INFO.deck_ext));
            write_file(&p, &text)?;
            note(&format!("wrote {}", p.display()));
        }
        None => emit(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes a result file (through a temporary file and a rename, [`out::write_result`]: in the
/// run's `--out` folder all at once at the end); a failure is an [`Error::Write`]. A tune checkpoint
/// goes in place at once, whatever its folder.
fn write_file(path: &Path, text: &str) -> crate::core::Result<()> {
    let now = path
        .file_name()
        .is_some_and(|n| n == crate::sim::tune::STATE_FILE);
    out::write_result(path, text, now)
}

/// Checks, before any game is played, that result files can be written into `dir` (creating it):
/// a run must not play for hours and then fail to save. An error here is bad input (exit code 2).
fn check_out_dir(dir: &Path) -> Result<()> {
    check_dir_of("--out", dir)?;
    out::stage(dir);
    Ok(())
}

/// Checks that folder `dir` of flag `flag` (`--out`, `--checkpoint`) can be written into (making
/// it); the error names the flag. Only [`check_out_dir`] makes the folder the run's output folder.
fn check_dir_of(flag: &str, dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".tcgsim-write-check-{}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&probe, b""))
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            if dir.exists() && !dir.is_dir() {
                anyhow!(
                    "{flag} {}: {}",
                    dir.display(),
                    crate::core::input::names_a_folder(flag)
                )
            } else {
                anyhow!("{flag} {}: cannot write there: {e}", dir.display())
            }
        })?;
    Ok(())
}

/// A rate with enough digits to be read (3 significant digits below 100).
fn rate_text(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

fn thread_pool(threads: Option<u64>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t as usize);
    }
    Ok(b.build()?)
}

/// `games` rounded up to whole pairs, saying so when it changes.
fn even_games(games: u64) -> u64 {
    if games % 2 == 1 {
        note(&format!(
            "--games {games} rounded up to {} (games are played in pairs, seats swapped)",
            games + 1
        ));
    }
    games + games % 2
}

/// A fixed mid-game position of the game's bench match (60 heuristic decisions from seed 1, or
/// half of that game if it is shorter), then the measurements of `sim::bench`.
fn bench<G: GameDef>(seconds: f64, csv: bool, threads: Option<u64>) -> Result<ExitCode> {
    use crate::agents::{Agent, HeuristicAgent};
    if !(seconds > 0.0 && seconds <= limits::BENCH_SECONDS) {
        bail!(
            "--seconds {seconds}: must be above 0 and at most {}",
            limits::BENCH_SECONDS
        );
    }
    let game = G::bench_match()?;
    // The game's length with these agents, then the position 60 decisions in (or half-way).
    let play = |n: usize| {
        let mut h = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
        let mut s = game.new_game(1, Seat::P1);
        let mut k = 0;
        while let Some(q) = game.to_move(&s) {
            if k == n {
                break;
            }
            let act = h[q.index()].choose(&game, &s, q);
            game.apply(&mut s, act);
            k += 1;
        }
        (s, k)
    };
    let (_, length) = play(usize::MAX);
    let (s, _) = play(60.min(length / 2));
    let pool = thread_pool(threads)?;
    let budget = std::time::Duration::from_secs_f64(seconds / 6.0);
    let rows = pool.install(|| crate::sim::bench::run_bench(&game, &s, budget));
    let bytes = std::mem::size_of::<G::State>();
    if csv {
        emit(&crate::sim::bench::csv(&rows, bytes))?;
    } else {
        emit(&crate::sim::bench::table(&rows, bytes))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::WriteError;

    /// docs/cli.md, "Exit codes": the kind of the library's error decides, wherever it is in the
    /// chain; a write failure under a context is still 1.
    #[test]
    fn the_exit_code_is_the_kind_of_the_error_in_the_chain() {
        let write = || {
            Error::from(WriteError::new(
                "out.csv: cannot write",
                std::io::Error::other("full"),
            ))
        };
        assert_eq!(exit_code_of(&anyhow::Error::new(write())), 1);
        let under = anyhow::Error::new(write()).context("the run stopped");
        assert_eq!(exit_code_of(&under), 1);
        assert_eq!(
            format!("{under:#}"),
            "the run stopped: out.csv: cannot write: full"
        );
        let spec = AgentSpec::parse("genius").unwrap_err();
        assert_eq!(
            exit_code_of(&anyhow::Error::new(spec).context("--agent genius")),
            2
        );
        assert_eq!(
            exit_code_of(&Error::input("d.deck", 3, "no such card").into()),
            2
        );
        assert_eq!(exit_code_of(&Error::Agent("exited".into()).into()), 2);
        assert_eq!(exit_code_of(&anyhow!("--games must be at least 1")), 2);
        let pipe = Error::from(WriteError::new(
            "stdout",
            std::io::ErrorKind::BrokenPipe.into(),
        ));
        assert!(kind_of(&anyhow::Error::new(pipe)).is_some_and(Error::is_broken_pipe));
    }
}
