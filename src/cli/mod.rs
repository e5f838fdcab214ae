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
mod human;
mod matrix;
mod out;
mod play;
mod progress;
mod report;
mod serve;
mod tune;

pub use out::{emit, note, set_quiet, WriteError};

use crate::agents::AgentSpec;
use crate::core::input::{read_text, MAX_TEXT_BYTES};
use crate::core::{GameDef, Seat};
use crate::games::{self, Visit};
use crate::sim::checkpoint::{resume_run, Resumed};
use crate::sim::matrix::{Counts, Task};
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

/// `--on-agent-error`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnAgentError {
    Loss,
    Abort,
}

impl AgentArgs {
    /// Makes `--move-timeout` and `--on-agent-error` those of the `process:` specs parsed from
    /// now on.
    fn apply(&self) {
        use crate::agents::process::{set_defaults, OnError};
        set_defaults(
            std::time::Duration::from_millis(self.move_timeout),
            match self.on_agent_error {
                OnAgentError::Loss => OnError::Loss,
                OnAgentError::Abort => OnError::Abort,
            },
        );
    }
}

/// After a run: says how many games `process:` agents forfeited (counted as losses); an error
/// when one failed under `--on-agent-error abort` (the run stopped; what it finished is kept
/// where the command keeps it, e.g. its checkpoint).
fn agent_failures(specs: &[&AgentSpec], kept: &str) -> Result<()> {
    for spec in specs {
        let (n, first) = spec.failures();
        let Some(first) = first else { continue };
        if spec.aborted() {
            bail!("{first}\nthe run stopped; {kept}");
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
    Matrix {
        /// Decks (default: every deck in the game's bundled deck folder).
        decks: Vec<PathBuf>,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        agents: AgentArgs,
        /// Games per ordered matchup (the default plays 640,000 games for the 8 bundled Trails
        /// decks, about 35 s on 2 cores: README.md).
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
        /// Also write one JSON line per game to records.jsonl (replay any with `tcgsim replay`).
        #[arg(long)]
        records: bool,
    },
    /// Add up the counts of shard outputs and recompute every rate and interval.
    #[command(mut_arg("out", |a| a.default_value("results/merge")))]
    Merge {
        /// Output folders of the shards (each with matchups.csv and run.json).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        #[command(flatten)]
        out: OutArg,
        #[command(flatten)]
        quiet: QuietArg,
    },
    /// Rank the cards of decks by win contribution (drawn vs not seen, and ablation). One --agent
    /// plays both seats. Also: `cards show CARD`, `cards words`, `cards migrate FILE` (the card
    /// language, docs/cards.md).
    #[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
    #[command(mut_arg("out", |a| a.default_value("results/cards")))]
    Cards {
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
        #[arg(long)]
        no_ablation: bool,
        /// Print the first N cards of each ranking (all of them in cards.csv).
        #[arg(long, value_name = "N")]
        top: Option<usize>,
    },
    /// Improve a deck by card swaps against a gauntlet: a race of every legal swap each round,
    /// the gain re-measured on fresh deals at the end (docs/tuning.md).
    #[command(mut_arg("out", |a| a.default_value("results/tune")))]
    Tune {
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
    },
    /// Propose single-card changes (one step of a cost, a power, a defence) that flatten the
    /// matrix of decks: screened by card statistics, raced on paired deals, the best re-measured
    /// on fresh deals (docs/tuning.md).
    #[command(mut_arg("out", |a| a.default_value("results/balance")))]
    Balance {
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
    },
    /// Round robin of agents (paired games, seats swapped) with Bradley–Terry Elo ratings, or a
    /// two-agent SPRT. Give --agent once per agent (at least two).
    #[command(mut_arg("out", |a| a.default_value("results/arena")))]
    Arena {
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
    },
    /// Head-to-head: the first --agent against the second, seats swapped every other game.
    #[command(mut_arg("out", |a| a.default_value("results/duel")))]
    Duel {
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
    },
    /// Play one game between two agents and print the winner and why the game ended. The first
    /// --agent plays P1, the second P2 (one: both seats; none: heuristic).
    Play {
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
    },
    /// Serve the game as a model to other programs' search (OpenSpiel): JSON requests on standard
    /// input (new, apply, legal, info, view, resample, choose, free, retain), one answer a line
    /// (docs/protocol.md, "The model server").
    Serve {
        /// The deck of P1, then the deck of P2.
        #[arg(num_args = 2, required = true, value_names = ["DECK1", "DECK2"])]
        decks: Vec<PathBuf>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Play a recorded game again from its actions (a record of `play --out`), printing its log.
    Replay {
        /// A records file (`record.jsonl`: one JSON line per game).
        record: PathBuf,
        /// Which record of the file (1 is the first).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        index: u64,
        /// Show hidden cards in the log.
        #[arg(long)]
        reveal: bool,
    },
    /// One self-contained HTML page (report.html) from run folders: run.json and the CSV files of
    /// matrix, cards, arena, tune, balance or duel; no server, no network (docs/cli.md).
    Report {
        /// Run folders (each with run.json), one part of the page each.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// The page to write (default: report.html in the first folder).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Check deck files against their format; every problem with its file and line.
    Validate {
        /// Deck files.
        #[arg(required = true)]
        decks: Vec<PathBuf>,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Apply a scenario's actions to its position and print the resulting state as JSON.
    Scenario {
        /// Scenario file (docs/scenario.md); its `game:` line names the game.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
    },
    /// Open a random sealed pool of the game's packs and print it as a deck file.
    Sealed {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        seed: SeedArg,
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
    },
    /// A quick speed measurement of this machine (about 25 s): self-play and ISMCTS.
    Bench {
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
    },
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
    match e.downcast_ref::<WriteError>() {
        Some(w) if w.is_broken_pipe() => ExitCode::from(1),
        Some(_) => {
            out::error(&format!("error: {e:#}"));
            ExitCode::from(1)
        }
        None => {
            out::error(&format!("error: {e:#}"));
            ExitCode::from(2)
        }
    }
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

fn run(cli: Cli) -> Result<ExitCode> {
    let quiet = match &cli.command {
        Command::Matrix { quiet, .. }
        | Command::Merge { quiet, .. }
        | Command::Cards { quiet, .. }
        | Command::Tune { quiet, .. }
        | Command::Balance { quiet, .. }
        | Command::Arena { quiet, .. }
        | Command::Duel { quiet, .. }
        | Command::Play { quiet, .. } => quiet.quiet,
        _ => false,
    };
    set_quiet(quiet);
    match &cli.command {
        Command::Matrix { agents, .. }
        | Command::Cards { agents, .. }
        | Command::Tune { agents, .. }
        | Command::Balance { agents, .. }
        | Command::Arena { agents, .. }
        | Command::Duel { agents, .. }
        | Command::Play { agents, .. } => agents.apply(),
        _ => {}
    }
    let game = match &cli.command {
        Command::Merge { parts, out, .. } => return matrix::merge(parts, &out.out),
        Command::Cards {
            tool: Some(tool), ..
        } => match tool {
            CardTool::Show { game, .. } => choose_game(game, &[], None)?,
            CardTool::Words { game } => choose_game(
                &GameArgs {
                    game: game.clone(),
                    cards: None,
                },
                &[],
                None,
            )?,
            CardTool::Migrate { file, game, .. } => choose_game(
                &GameArgs {
                    game: game.clone(),
                    cards: Some(file.clone()),
                },
                &[],
                None,
            )?,
        },
        Command::Report { dirs, out } => return report::report(dirs, out.as_deref()),
        Command::Matrix { decks, game, .. }
        | Command::Balance { decks, game, .. }
        | Command::Cards { decks, game, .. }
        | Command::Arena { decks, game, .. }
        | Command::Duel { decks, game, .. }
        | Command::Play { decks, game, .. }
        | Command::Serve { decks, game }
        | Command::Validate { decks, game } => choose_game(game, decks, None)?,
        Command::Scenario { file, game } => {
            let text = read_text(file, MAX_TEXT_BYTES)?;
            choose_game(game, &[], Some((file, &text)))?
        }
        Command::Sealed { game, .. } => choose_game(game, &[], None)?,
        Command::Tune {
            deck, game, pool, ..
        } => choose_game(
            &GameArgs {
                game: game.clone(),
                cards: pool.clone(),
            },
            std::slice::from_ref(deck),
            None,
        )?,
        Command::Replay { record, index, .. } => {
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
        Command::Bench { game, .. } => choose_game(
            &GameArgs {
                game: game.clone(),
                cards: None,
            },
            &[],
            None,
        )?,
    };
    games::visit(game, Run(&cli.command)).expect("choose_game returns a registered game")
}

/// Runs the command for game `G`.
fn run_game<G: GameDef>(cmd: &Command) -> Result<ExitCode> {
    match cmd {
        Command::Matrix {
            decks,
            game,
            agents,
            games,
            seed,
            threads,
            out,
            checkpoint,
            resume,
            shard,
            shards,
            chunk,
            records,
            ..
        } => matrix::matrix::<G>(matrix::MatrixOpts {
            decks: decks.clone(),
            cards: game.cards.clone(),
            agents: agents.agents.clone(),
            games: *games,
            seed: seed.seed,
            threads: threads.threads,
            out: out.out.clone(),
            checkpoint: checkpoint.clone(),
            resume: *resume,
            shard: shard.clone(),
            shards: *shards,
            chunk: *chunk,
            records: *records,
        }),
        Command::Cards {
            tool: Some(tool), ..
        } => cards::tool::<G>(match tool {
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
        }),
        Command::Cards {
            decks,
            game,
            agents,
            gauntlet,
            games,
            seed,
            threads,
            out,
            no_ablation,
            top,
            ..
        } => cards::cards::<G>(cards::CardsOpts {
            decks: decks.clone(),
            gauntlet: gauntlet.clone(),
            agent: one_agent(agents)?,
            games: *games,
            seed: seed.seed,
            threads: threads.threads,
            out: out.out.clone(),
            ablation: !no_ablation,
            cards: game.cards.clone(),
            top: *top,
        }),
        Command::Balance {
            decks,
            game,
            agents,
            candidates,
            games,
            max_games,
            check_games,
            budget,
            seed,
            threads,
            out,
            ..
        } => balance::balance::<G>(balance::BalanceOpts {
            decks: decks.clone(),
            cards: game.cards.clone(),
            agent: one_agent(agents)?,
            candidates: *candidates as usize,
            games: *games,
            max_games: *max_games,
            check_games: *check_games,
            budget: *budget,
            seed: seed.seed,
            threads: threads.threads,
            out: out.out.clone(),
        }),
        Command::Tune {
            deck,
            pool,
            gauntlet,
            agents,
            time,
            rounds,
            check_games,
            seed,
            threads,
            out,
            checkpoint,
            resume,
            ..
        } => tune::tune::<G>(tune::TuneOpts {
            deck: deck.clone(),
            gauntlet: gauntlet.clone(),
            pool: pool.clone(),
            agent: one_agent(agents)?,
            time: *time,
            rounds: *rounds,
            check_games: *check_games,
            seed: seed.seed,
            threads: threads.threads,
            out: out.out.clone(),
            checkpoint: checkpoint.clone(),
            resume: *resume,
        }),
        Command::Arena {
            decks,
            game,
            agents,
            games,
            seed,
            threads,
            out,
            sprt,
            max_games,
            ..
        } => arena::arena::<G>(arena::ArenaOpts {
            agents: agents.agents.clone(),
            decks: decks.clone(),
            games: *games,
            seed: seed.seed,
            threads: threads.threads,
            out: out.out.clone(),
            sprt: sprt.clone(),
            max_games: *max_games,
            cards: game.cards.clone(),
        }),
        Command::Duel {
            decks,
            game,
            agents,
            games,
            seed,
            threads,
            out,
            checkpoint,
            resume,
            one_at_a_time,
            ..
        } => duel::<G>(DuelOpts {
            agents: two_agents(agents, true)?,
            decks,
            games: *games,
            seed: seed.seed,
            threads: threads.threads,
            out: &out.out,
            checkpoint: checkpoint.as_deref(),
            resume: *resume,
            cards: game.cards.as_deref(),
            one_at_a_time: *one_at_a_time,
        }),
        Command::Play {
            decks,
            game,
            agents,
            seed,
            first,
            log,
            reveal,
            human,
            out,
            quiet: _,
        } => play::play::<G>(play::PlayOpts {
            decks: [decks[0].clone(), decks[1].clone()],
            seed: seed.seed,
            agents: two_agents(agents, false)?,
            first: Seat::from_index(*first as usize - 1),
            log: *log,
            reveal: *reveal,
            human: human.map(|h| Seat::from_index(h as usize - 1)),
            cards: game.cards.clone(),
            out: out.clone(),
        }),
        Command::Serve { decks, game } => serve::serve::<G>(serve::ServeOpts {
            decks: [decks[0].clone(), decks[1].clone()],
            cards: game.cards.clone(),
        }),
        Command::Validate { decks, game } => validate::<G>(decks, game.cards.as_deref()),
        Command::Scenario { file, game } => scenario::<G>(file, game.cards.as_deref()),
        Command::Sealed {
            game,
            seed,
            packs,
            pack,
            out,
        } => sealed::<G>(
            seed.seed,
            *packs,
            pack.as_deref(),
            game.cards.as_deref(),
            out.as_deref(),
        ),
        Command::Bench {
            seconds,
            csv,
            threads,
            ..
        } => bench::<G>(*seconds, *csv, threads.threads),
        Command::Replay {
            record,
            index,
            reveal,
        } => play::replay::<G>(record, *index as usize, *reveal),
        Command::Merge { .. } | Command::Report { .. } => {
            unreachable!("merge and report name no game: run() handles them")
        }
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
    let mut evidence: Vec<(&'static str, String)> = Vec::new();
    for d in decks {
        // The folder the deck is in (`decks/<game>/x.deck`), not any folder above it.
        let folder = d.parent().and_then(Path::file_name);
        if let Some(g) = games::GAMES
            .iter()
            .find(|g| folder.is_some_and(|f| f == g.name))
        {
            evidence.push((g.name, format!("{} is in a {} folder", d.display(), g.name)));
        }
    }
    let card_file = args.cards.clone().or_else(|| {
        decks.first().and_then(|d| {
            let dir = d.parent()?;
            games::GAMES
                .iter()
                .map(|g| dir.join(g.card_file))
                .find(|p| p.is_file())
        })
    });
    if let Some(f) = &card_file {
        let text = read_text(f, MAX_TEXT_BYTES)?;
        let of: Vec<&'static str> = games::GAMES
            .iter()
            .filter(|g| games::visit(g.name, IsCardFile(&text)) == Some(true))
            .map(|g| g.name)
            .collect();
        match of.as_slice() {
            [g] => evidence.push((g, format!("{} is a {g} card file", f.display()))),
            [] if args.cards.is_some() => bail!(
                "{}: not a card file of any game (available: {}; docs/cards.md)",
                f.display(),
                games::names()
            ),
            _ => {}
        }
    }
    // Last: decks outside a game's folder with no card file to tell, read as each game's deck
    // against its bundled pool (issue 30: `sealed --game fireforce --out my_decks` wrote a deck
    // read as Trails). A deck no game reads says nothing; one that two games read is ambiguous.
    if args.game.is_none() && evidence.is_empty() {
        for d in decks {
            let Ok(text) = read_text(d, MAX_TEXT_BYTES) else {
                continue; // the deck's own reading reports it
            };
            let of: Vec<&'static str> = games::GAMES
                .iter()
                .filter(|g| games::visit(g.name, ReadsAsDeck(&text)) == Some(true))
                .map(|g| g.name)
                .collect();
            match of.as_slice() {
                [g] => evidence.push((g, format!("{} is a {g} deck", d.display()))),
                [] => {}
                _ => bail!(
                    "{}: reads as a deck of {} (its folder does not say which game); give --game",
                    d.display(),
                    of.join(" and ")
                ),
            }
        }
    }
    if let Some((file, text)) = scenario {
        if let Some(v) = text.lines().find_map(|l| l.trim().strip_prefix("game:")) {
            let v = v.split('#').next().unwrap_or("").trim();
            match games::info(v) {
                Some(g) => evidence.push((g.name, format!("{} says game: {v}", file.display()))),
                None => bail!(
                    "{}: game: {v}: unknown game (available: {})",
                    file.display(),
                    games::names()
                ),
            }
        }
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

/// Whether a text is game `G`'s card file.
struct IsCardFile<'a>(&'a str);

impl Visit for IsCardFile<'_> {
    type Out = bool;
    fn visit<G: GameDef>(self) -> bool {
        G::is_card_file(self.0)
    }
}

/// Whether a deck file's text is a valid deck of game `G`'s bundled pool.
struct ReadsAsDeck<'a>(&'a str);

impl Visit for ReadsAsDeck<'_> {
    type Out = bool;
    fn visit<G: GameDef>(self) -> bool {
        G::parse_deck(&G::bundled_cards(), self.0, "", "deck").is_ok()
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
                out::error(&e);
            }
        }
    }
    if bad > 0 {
        out::error(&format!("{bad} of {} decks invalid", decks.len()));
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
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
/// run's `--out` folder all at once at the end); a failure is a [`WriteError`]. A tune checkpoint
/// goes in place at once, whatever its folder.
fn write_file(path: &Path, text: &str) -> Result<(), WriteError> {
    let now = path.file_name().is_some_and(|n| n == tune::STATE_FILE);
    out::write_result(path, text, now)
}

/// Checks, before any game is played, that result files can be written into `dir` (creating it):
/// a run must not play for hours and then fail to save. An error here is bad input (exit code 2).
fn check_out_dir(dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".tcgsim-write-check-{}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&probe, b""))
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| anyhow!("--out {}: cannot write there: {e}", dir.display()))?;
    out::stage(dir);
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

struct DuelOpts<'a> {
    agents: [String; 2],
    decks: &'a [PathBuf],
    games: u64,
    seed: u64,
    threads: Option<u64>,
    out: &'a Path,
    checkpoint: Option<&'a Path>,
    resume: bool,
    cards: Option<&'a Path>,
    one_at_a_time: bool,
}

fn duel<G: GameDef>(o: DuelOpts) -> Result<ExitCode> {
    let [a, b] = &o.agents;
    let spec_a = AgentSpec::parse(a).map_err(|e| anyhow!("--agent {a}: {e}"))?;
    let spec_b = AgentSpec::parse(b).map_err(|e| anyhow!("--agent {b}: {e}"))?;
    let games = even_games(o.games);
    let seed = o.seed;
    let db = load_cards::<G>(o.cards, Some(&o.decks[0]))?;
    let decks = load_decks::<G>(&db, o.decks, false)?;
    let (d1, d2) = (&decks[0], &decks[1]);
    let (n1, n2) = (G::deck_name(d1), G::deck_name(d2));
    // Each finished game is one checkpoint line: chunk = game index (row and column 0). The
    // content hash ties the checkpoint to the game, the decks' cards and the rules' version.
    let content = G::content_hash(&db, &[d1, d2]);
    let fingerprint = format!(
        "tcgsim-duel v3; game={}; decks={n1},{n2}; content={content}; agent_a={a}; agent_b={b}; games={games}; seed={seed}",
        G::INFO.name
    );
    check_out_dir(o.out)?;
    let game = G::new_match(&db, [d1, d2]);
    let all: Vec<Task> = (0..games)
        .map(|chunk| Task {
            row: 0,
            col: 0,
            chunk,
        })
        .collect();
    let Resumed {
        checkpoint: ckpt,
        done,
        todo,
    } = resume_run(o.checkpoint, &fingerprint, o.resume, &all, &|_| 1).map_err(|e| anyhow!(e))?;
    let mut r = Counts::default();
    for (_, c) in &done {
        r.add(c);
    }
    let todo: Vec<u64> = todo.iter().map(|t| t.chunk).collect();
    if !done.is_empty() {
        note(&format!(
            "resuming: {} of {games} games already done",
            r.games
        ));
    }
    let pool = thread_pool(o.threads)?;
    let pb = Progress::new(games, "games").resumed(r.games);
    let start = std::time::Instant::now();
    let on_game = |k: u64, c: &Counts| {
        if let Some(ck) = &ckpt {
            ck.record(
                Task {
                    row: 0,
                    col: 0,
                    chunk: k,
                },
                c,
            );
        }
        pb.inc(1);
    };
    let played = pool.install(|| {
        if o.one_at_a_time {
            let mut sum = Counts::default();
            for k in &todo {
                sum.add(&crate::sim::duel(
                    &game,
                    &spec_a,
                    &spec_b,
                    std::slice::from_ref(k),
                    seed,
                    &on_game,
                ));
            }
            sum
        } else {
            crate::sim::duel(&game, &spec_a, &spec_b, &todo, seed, &on_game)
        }
    });
    pb.finish();
    if let Some(e) = ckpt.as_ref().and_then(|ck| ck.take_failure()) {
        // One message, exit 1 (a write failure); the games recorded before it are kept.
        return Err(anyhow::Error::new(e).context(
            "the duel's checkpoint could not be written: the games recorded before this are kept (--resume continues them)",
        ));
    }
    r.add(&played);
    agent_failures(
        &[&spec_a, &spec_b],
        &match &o.checkpoint {
            Some(dir) => format!(
                "{} finished games are recorded in {} (--resume continues them)",
                r.games,
                dir.display()
            ),
            None => format!(
                "{} games finished: A won {}, B won {}, {} draws (not written)",
                r.games, r.wins, r.losses, r.draws
            ),
        },
    )?;
    let secs = start.elapsed().as_secs_f64();
    let (lo, hi) = r.interval();
    let text = format!(
        "{a} vs {b} on {n1} / {n2}: {} games, seed {seed}\n\
         A wins {} · B wins {} · draws {} · A win rate {:.1}% (95% CI {:.1}–{:.1}%)\n\
         first player won {:.1}% · {:.1} turns and {:.0} decisions per game · {} games/s ({} threads, {:.0} s)\n",
        r.games,
        r.wins,
        r.losses,
        r.draws,
        100.0 * r.win_rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 * r.first_player_wins as f64 / r.games as f64,
        r.turns as f64 / r.games as f64,
        r.decisions as f64 / r.games as f64,
        rate_text(played.games as f64 / secs.max(1e-9)),
        pool.current_num_threads(),
        secs
    );
    let csv = crate::sim::output::duel_csv(a, b, n1, n2, &r);
    write_file(&o.out.join("duel.csv"), &csv)?;
    let meta = crate::sim::output::RunInfo {
        command: "duel".into(),
        args: std::env::args().skip(1).collect(),
        game: G::INFO.name.into(),
        decks: vec![n1.to_string(), n2.to_string()],
        agents: vec![a.clone(), b.clone()],
        content,
        games,
        seed,
        fingerprint,
        shard: None,
        games_played: played.games,
        seconds: secs,
        ..Default::default()
    };
    write_file(&o.out.join("run.json"), &meta.to_json())?;
    emit(&text)?;
    note(&format!("wrote {}", o.out.join("duel.csv").display()));
    // The folder's report follows its run.json, so an older run's page never stays beside it.
    report::after_run(o.out)?;
    Ok(ExitCode::SUCCESS)
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
    let game = G::bench_match();
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
