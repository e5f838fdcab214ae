//! The command line: clap arguments, turned into calls of the library. No game logic here.

mod arena;
mod cards;
mod human;
mod matrix;
mod out;

pub use out::{emit, note, WriteError};

use crate::agents::{Agent, AgentSpec};
use crate::core::{mix_seed, Outcome, Seat};
use crate::games::trails::deck::Deck;
use crate::games::trails::scenario::{RunError, Scenario};
use crate::games::trails::{bundled_cards, CardDb, TrailsGame};
use crate::sim::checkpoint::{resume_run, Resumed};
use crate::sim::matrix::{Counts, Task};
use crate::sim::play_game;
use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "tcgsim",
    version,
    about = "Monte Carlo AI and deck-strength simulator for two-player trading card games",
    long_about = "tcgsim plays the real rules of the Trails TCG between agents, checks decks, and \
                  settles rule questions with scenario files. Formats: docs/cards.md (card file), \
                  docs/scenario.md (scenarios and the action notation), docs/rules.md (rules)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check deck files against their format (T-DECK); every problem with its line.
    Validate {
        /// Deck files (`COUNT NAME[ / SUB-NAME]` per line).
        #[arg(required = true)]
        decks: Vec<PathBuf>,
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
    /// Play one game between two agents and print the winner, turns and final bonds.
    Play {
        /// Deck of player 1.
        deck_a: PathBuf,
        /// Deck of player 2.
        deck_b: PathBuf,
        /// The game (only `trails` for now).
        #[arg(long, default_value = "trails")]
        game: String,
        /// Seed of the game (deck shuffles and agents).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Agent of player 1 (spec string, e.g. `random`).
        #[arg(long, default_value = "random")]
        agent_a: String,
        /// Agent of player 2.
        #[arg(long, default_value = "random")]
        agent_b: String,
        /// Who has the initiative on turn 1 (1 or 2).
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
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
    /// Every deck against every deck: win-rate matrix, matchup counts, heatmap, summary.
    Matrix {
        /// Decks (default: every deck in decks/trails).
        decks: Vec<PathBuf>,
        /// Agent of both seats.
        #[arg(long, default_value = "heuristic")]
        agent: String,
        /// Agent of the row deck (overrides --agent).
        #[arg(long)]
        agent_a: Option<String>,
        /// Agent of the column deck (overrides --agent).
        #[arg(long)]
        agent_b: Option<String>,
        /// Games per ordered matchup (the default runs in about 30 seconds on 2 cores).
        #[arg(long, default_value_t = 10000, value_parser = clap::value_parser!(u64).range(1..=limits::MATRIX_GAMES))]
        games: u64,
        /// Master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Output folder.
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Record finished chunks here, so an interrupted run can be resumed.
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Continue the run recorded in --checkpoint.
        #[arg(long)]
        resume: bool,
        /// Run only part I of N (default from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX).
        #[arg(long)]
        shard: Option<String>,
        /// Number of shards, with Kubernetes' JOB_COMPLETION_INDEX.
        #[arg(long)]
        shards: Option<u64>,
        /// Games per chunk (the unit of parallel work, checkpoints and shards).
        #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..))]
        chunk: u64,
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
    /// Rank the cards of decks by win contribution (drawn vs not seen, and ablation).
    Cards {
        /// Decks whose cards to rank.
        #[arg(required = true)]
        decks: Vec<PathBuf>,
        /// Opponent decks (default: the other bundled decks).
        #[arg(long, num_args = 1..)]
        gauntlet: Vec<PathBuf>,
        /// Agent of both seats.
        #[arg(long, default_value = "heuristic")]
        agent: String,
        /// Games against each gauntlet deck, per variant of the deck.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=limits::CARDS_GAMES))]
        games: u64,
        /// Master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Output folder (writes cards.csv).
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Skip the ablation runs (only drawn/not-seen statistics).
        #[arg(long)]
        no_ablation: bool,
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
    /// Round robin of agents (paired games, seats swapped) with Bradley–Terry Elo ratings, or a
    /// two-agent SPRT.
    Arena {
        /// Agent specs.
        #[arg(required = true)]
        agents: Vec<String>,
        /// Decks played (every ordered pair of them in turn; default: aggro and control).
        #[arg(long, num_args = 1..)]
        decks: Vec<PathBuf>,
        /// Games per pair of agents (in pairs).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=limits::ARENA_GAMES))]
        games: u64,
        /// Master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Output folder (writes arena.csv, arena_pairs.csv).
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Sequential test of two agents: elo0,elo1[,alpha,beta] (fishtest's GSPRT on pairs);
        /// a negative elo0 may follow the flag (`--sprt -50,0`).
        #[arg(long, allow_hyphen_values = true)]
        sprt: Option<String>,
        /// With --sprt: stop after this many games without a decision.
        #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u64).range(2..=limits::ARENA_GAMES))]
        max_games: u64,
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
    /// A quick speed measurement of this machine (about 25 s): self-play and ISMCTS.
    Bench {
        /// Total time budget in seconds (split over the measurements).
        #[arg(long, default_value_t = 24.0)]
        seconds: f64,
        /// Print CSV instead of a table.
        #[arg(long)]
        csv: bool,
        /// Threads for the all-threads rows (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Add up the counts of shard outputs and recompute every rate and interval.
    Merge {
        /// Output folders of the shards.
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// Where to write the merged results.
        #[arg(long, default_value = "results")]
        out: PathBuf,
    },
    /// Head-to-head: AGENT_A against AGENT_B, seats and decks swapped every other game.
    Duel {
        /// Spec of agent A (e.g. `heuristic`, `random`).
        agent_a: String,
        /// Spec of agent B.
        agent_b: String,
        /// The two decks (each deal is played from both sides).
        #[arg(long, num_args = 2, required = true, value_names = ["DECK1", "DECK2"])]
        decks: Vec<PathBuf>,
        /// Number of games (rounded up to an even number).
        #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=limits::DUEL_GAMES))]
        games: u64,
        /// Master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Card file (default: cards.csv beside the first deck, else the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
        /// Record every finished game here, so an interrupted duel can be resumed.
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Continue the duel recorded in --checkpoint.
        #[arg(long, requires = "checkpoint")]
        resume: bool,
    },
    /// Open a random sealed pool (Blitz Shield, T-DECK-2) and write it as a deck file.
    Sealed {
        /// Seed of the packs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of packs.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=limits::PACKS))]
        packs: u64,
        /// Pack composition, e.g. `UNIT=5,ITEM=1,EVENT=1,BASE=1` or `ANY=8`.
        #[arg(long, default_value = "UNIT=5,ITEM=1,EVENT=1,BASE=1")]
        pack: String,
        /// Card file (default: the bundled sample pool).
        #[arg(long)]
        cards: Option<PathBuf>,
        /// Write the deck here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Apply a scenario's actions to its position and print the resulting state as JSON.
    Scenario {
        /// Scenario file (docs/scenario.md).
        file: PathBuf,
        /// Card file (overrides the scenario's `cards:` line).
        #[arg(long)]
        cards: Option<PathBuf>,
    },
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
}

/// The exit code of a failed command, after its message: 1 when its output could not be written
/// (nothing is said when the reader closed the pipe), 2 for bad input (the message names the
/// file, line or flag and the reason).
fn failure(e: anyhow::Error) -> ExitCode {
    match e.downcast_ref::<WriteError>() {
        Some(w) if w.is_broken_pipe() => ExitCode::from(1),
        Some(_) => {
            note(&format!("error: {e:#}"));
            ExitCode::from(1)
        }
        None => {
            note(&format!("error: {e:#}"));
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
    match run(cli) {
        Ok(code) => code,
        Err(e) => failure(e),
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Validate { decks, cards } => validate(&decks, cards.as_deref()),
        Command::Play {
            deck_a,
            deck_b,
            game,
            seed,
            agent_a,
            agent_b,
            first,
            log,
            reveal,
            human,
            cards,
        } => {
            if game != "trails" {
                bail!("unknown game \"{game}\" (available: trails)");
            }
            play(PlayOpts {
                decks: [deck_a, deck_b],
                seed,
                agents: [agent_a, agent_b],
                first: Seat::from_index(first as usize - 1),
                log,
                reveal,
                human: human.map(|h| Seat::from_index(h as usize - 1)),
                cards,
            })
        }
        Command::Scenario { file, cards } => scenario(&file, cards.as_deref()),
        Command::Matrix {
            decks,
            agent,
            agent_a,
            agent_b,
            games,
            seed,
            threads,
            out,
            checkpoint,
            resume,
            shard,
            shards,
            chunk,
            cards,
        } => matrix::matrix(matrix::MatrixOpts {
            decks,
            agent,
            agent_a,
            agent_b,
            games,
            seed,
            threads,
            out,
            checkpoint,
            resume,
            shard,
            shards,
            cards,
            chunk,
        }),
        Command::Merge { parts, out } => matrix::merge(&parts, &out),
        Command::Bench {
            seconds,
            csv,
            threads,
        } => bench(seconds, csv, threads),
        Command::Arena {
            agents,
            decks,
            games,
            seed,
            threads,
            out,
            sprt,
            max_games,
            cards,
        } => arena::arena(arena::ArenaOpts {
            agents,
            decks,
            games,
            seed,
            threads,
            out,
            sprt,
            max_games,
            cards,
        }),
        Command::Cards {
            decks,
            gauntlet,
            agent,
            games,
            seed,
            threads,
            out,
            no_ablation,
            cards,
        } => cards::cards(cards::CardsOpts {
            decks,
            gauntlet,
            agent,
            games,
            seed,
            threads,
            out,
            ablation: !no_ablation,
            cards,
        }),
        Command::Duel {
            agent_a,
            agent_b,
            decks,
            games,
            seed,
            threads,
            cards,
            checkpoint,
            resume,
        } => duel(
            &agent_a,
            &agent_b,
            &decks,
            games,
            seed,
            threads,
            checkpoint.as_deref(),
            resume,
            cards.as_deref(),
        ),
        Command::Sealed {
            seed,
            packs,
            pack,
            cards,
            out,
        } => sealed(seed, packs, &pack, cards.as_deref(), out.as_deref()),
    }
}

/// The card file for a set of decks: `--cards`, else `cards.csv` beside the first deck, else the
/// bundled sample pool.
fn card_db(cards: Option<&Path>, first_deck: Option<&Path>) -> Result<CardDb> {
    if let Some(c) = cards {
        return Ok(CardDb::load(c)?);
    }
    if let Some(dir) = first_deck.and_then(Path::parent) {
        let beside = dir.join("cards.csv");
        if beside.is_file() {
            return Ok(CardDb::load(&beside)?);
        }
    }
    Ok(bundled_cards())
}

fn validate(decks: &[PathBuf], cards: Option<&Path>) -> Result<ExitCode> {
    let db = card_db(cards, decks.first().map(PathBuf::as_path))?;
    let mut bad = 0;
    for path in decks {
        match Deck::load(path, &db) {
            Ok(d) => emit(&format!(
                "{}: ok ({} format, {} cards)\n",
                path.display(),
                d.format.name(),
                d.cards.len()
            ))?,
            Err(e) => {
                bad += 1;
                note(&e.to_string());
            }
        }
    }
    if bad > 0 {
        note(&format!("{bad} of {} decks invalid", decks.len()));
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

struct PlayOpts {
    decks: [PathBuf; 2],
    seed: u64,
    agents: [String; 2],
    first: Seat,
    log: bool,
    reveal: bool,
    human: Option<Seat>,
    cards: Option<PathBuf>,
}

fn play(o: PlayOpts) -> Result<ExitCode> {
    let db = card_db(o.cards.as_deref(), Some(&o.decks[0]))?;
    let da = Deck::load(&o.decks[0], &db).map_err(|e| anyhow!("{e}"))?;
    let db_b = &db;
    let dbk = Deck::load(&o.decks[1], db_b).map_err(|e| anyhow!("{e}"))?;
    let specs = [
        AgentSpec::parse(&o.agents[0]).map_err(|e| anyhow!("--agent-a: {e}"))?,
        AgentSpec::parse(&o.agents[1]).map_err(|e| anyhow!("--agent-b: {e}"))?,
    ];
    let game = TrailsGame::new(db, da.cards.clone(), dbk.cards.clone());
    let mut built: Vec<Box<dyn Agent<TrailsGame>>> = Vec::new();
    for (k, spec) in specs.iter().enumerate() {
        let seat = Seat::from_index(k);
        if o.human == Some(seat) {
            built.push(Box::new(human::HumanAgent::new()));
        } else {
            built.push(spec.build::<TrailsGame>(mix_seed(&[o.seed, k as u64 + 1])));
        }
    }
    let names = [&da, &dbk].map(|d| d.name.clone());
    let log = o.log || o.human.is_some();
    if log {
        let mut head = format!("tcgsim play — Trails TCG — seed {}\n", o.seed);
        for (k, d) in [&da, &dbk].iter().enumerate() {
            let who = if o.human == Some(Seat::from_index(k)) {
                "human".to_string()
            } else {
                built[k].name()
            };
            let _ = writeln!(
                head,
                "P{}: {} ({}) — {}",
                k + 1,
                d.name,
                o.decks[k].display(),
                who
            );
        }
        let _ = writeln!(head, "{} has the initiative on turn 1.", o.first);
        head.push_str("-- mulligan --\n");
        emit(&head)?;
    }
    let (a0, a1) = built.split_at_mut(1);
    let agents: [&mut dyn Agent<TrailsGame>; 2] = [a0[0].as_mut(), a1[0].as_mut()];
    let mut final_bond = [40i16; 2];
    // A log that cannot be written (a closed pipe) stops being written; the error ends the command
    // once the game is over.
    let mut failed: Option<WriteError> = None;
    let rec = play_game(&game, o.seed, o.first, agents, |before, seat, a, after| {
        final_bond = [after.p[0].bond, after.p[1].bond];
        if !log || failed.is_some() {
            return;
        }
        let mut text = String::new();
        for l in game.narrate(before, seat, a, after, o.reveal, o.human) {
            text.push_str(&l);
            text.push('\n');
        }
        if let Err(e) = emit(&text) {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let Outcome::Win(w) = rec.outcome else {
        unreachable!("Trails has no draws")
    };
    emit(&format!(
        "winner: {w} ({}) after {} turns, {} decisions; final bond P1 {}, P2 {}\n",
        names[w.index()],
        rec.turns,
        rec.decisions,
        final_bond[0],
        final_bond[1]
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn scenario(file: &Path, cards: Option<&Path>) -> Result<ExitCode> {
    use crate::core::input::{read_text, MAX_TEXT_BYTES};
    let text = read_text(file, MAX_TEXT_BYTES)?;
    let db = match (cards, crate::games::trails::scenario::cards_line(&text)) {
        (Some(c), _) => CardDb::load(c)?,
        (None, Some(rel)) => {
            let base = file.parent().unwrap_or(Path::new("."));
            CardDb::load(&base.join(rel))?
        }
        (None, None) => bundled_cards(),
    };
    let sc = Scenario::parse(&text, &file.display().to_string(), db)?;
    let (state, illegal) = sc.run();
    let failures = if illegal.is_none() {
        sc.failures(&state)
    } else {
        Vec::new()
    };
    #[derive(serde::Serialize)]
    struct Checked<'a> {
        checked: usize,
        failed: &'a [String],
    }
    #[derive(serde::Serialize)]
    struct Out<'a> {
        #[serde(flatten)]
        view: crate::games::trails::scenario::StateView,
        #[serde(skip_serializing_if = "Option::is_none")]
        expect: Option<Checked<'a>>,
    }
    let out = Out {
        view: sc.game.view(&state),
        expect: (!sc.expects.is_empty() && illegal.is_none()).then_some(Checked {
            checked: sc.expects.len(),
            failed: &failures,
        }),
    };
    emit(&format!("{}\n", serde_json::to_string_pretty(&out)?))?;
    if let Some(RunError::Illegal {
        index,
        line,
        text,
        legal,
    }) = illegal
    {
        note(&format!(
            "{}:{line}: action {index} \"{text}\" is illegal; legal actions: {}",
            file.display(),
            legal.join(" | ")
        ));
        return Ok(ExitCode::from(1));
    }
    if !failures.is_empty() {
        for f in &failures {
            note(&format!("{}: expectation failed: {f}", file.display()));
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn sealed(
    seed: u64,
    packs: u64,
    pack: &str,
    cards: Option<&Path>,
    out: Option<&Path>,
) -> Result<ExitCode> {
    use crate::games::trails::deck::{deck_text, parse_pack, sealed_pool, Format};
    let db = card_db(cards, None)?;
    let slots = parse_pack(pack).map_err(|e| anyhow!("--pack: {e}"))?;
    let pool = sealed_pool(&db, packs, &slots, &mut crate::core::rng_from_seed(seed))
        .map_err(|e| anyhow!("{e}"))?;
    let format = if pool.len() == Format::Blitz.size() {
        Format::Blitz
    } else {
        Format::Strategy
    };
    let text = deck_text(
        &db,
        &pool,
        format,
        &format!(
            "Sealed pool: {packs} packs of {pack}, seed {seed} ({} cards)",
            pool.len()
        ),
    );
    match out {
        Some(p) => write_file(p, &text)?,
        None => emit(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes a result file (through a temporary file and a rename); a failure is a [`WriteError`].
fn write_file(path: &Path, text: &str) -> Result<(), WriteError> {
    crate::sim::output::write_atomic(path, text)
        .map_err(|e| WriteError::new(format!("{}: cannot write", path.display()), e))
}

/// Checks, before any game is played, that result files can be written into `dir` (creating it):
/// a run must not play for hours and then fail to save. An error here is bad input (exit code 2).
fn check_out_dir(dir: &Path, flag: &str) -> Result<()> {
    let probe = dir.join(format!(".tcgsim-write-check-{}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&probe, b""))
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| anyhow!("{flag} {}: cannot write there: {e}", dir.display()))
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

/// A progress bar on stderr, hidden when stderr is not a terminal.
fn progress(len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games · {per_sec} · ETA {eta}",
        )
        .expect("valid template"),
    );
    pb
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if !(1..=limits::THREADS).contains(&t) {
            bail!("--threads {t}: out of range 1..={}", limits::THREADS);
        }
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

#[allow(clippy::too_many_arguments)]
fn duel(
    a: &str,
    b: &str,
    decks: &[PathBuf],
    games: u64,
    seed: u64,
    threads: Option<usize>,
    checkpoint: Option<&Path>,
    resume: bool,
    cards: Option<&Path>,
) -> Result<ExitCode> {
    let spec_a = AgentSpec::parse(a).map_err(|e| anyhow!("agent A: {e}"))?;
    let spec_b = AgentSpec::parse(b).map_err(|e| anyhow!("agent B: {e}"))?;
    let games = games + games % 2;
    let db = card_db(cards, Some(&decks[0]))?;
    let d1 = Deck::load(&decks[0], &db).map_err(|e| anyhow!("{e}"))?;
    let d2 = Deck::load(&decks[1], &db).map_err(|e| anyhow!("{e}"))?;
    // Each finished game is one checkpoint line: chunk = game index (row and column 0). The
    // content hash ties the checkpoint to the decks' cards and the rules' version.
    let content = crate::games::trails::decks_content_hash(&db, &[&d1.cards, &d2.cards]);
    let fingerprint = format!(
        "tcgsim-duel v2; game=trails; decks={},{}; content={content}; agent_a={}; agent_b={}; games={games}; seed={seed}",
        d1.name, d2.name, a, b
    );
    let game = TrailsGame::new(db, d1.cards.clone(), d2.cards.clone());
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
    } = resume_run(checkpoint, &fingerprint, resume, &all, &|_| 1).map_err(|e| anyhow!(e))?;
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
    let pool = thread_pool(threads)?;
    let pb = progress(todo.len() as u64);
    let start = std::time::Instant::now();
    let played = pool.install(|| {
        crate::sim::duel(&game, &spec_a, &spec_b, &todo, seed, &|k, c| {
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
        })
    });
    pb.finish_and_clear();
    r.add(&played);
    let secs = start.elapsed().as_secs_f64();
    let (lo, hi) = r.interval();
    emit(&format!(
        "{a} vs {b} on {} / {}: {} games, seed {seed}\n\
         A wins {} · B wins {} · draws {} · A win rate {:.1}% (95% CI {:.1}–{:.1}%)\n\
         first player won {:.1}% · {:.1} turns and {:.0} decisions per game · {} games/s ({} threads, {:.0} s)\n",
        d1.name,
        d2.name,
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
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The bundled aggro and control decks, and a fixed mid-game position (60 heuristic decisions
/// from seed 1).
fn bench(seconds: f64, csv: bool, threads: Option<usize>) -> Result<ExitCode> {
    use crate::agents::HeuristicAgent;
    use crate::core::Game;
    if !(seconds > 0.0 && seconds <= limits::BENCH_SECONDS) {
        bail!(
            "--seconds {seconds}: must be above 0 and at most {}",
            limits::BENCH_SECONDS
        );
    }
    let db = bundled_cards();
    let deck =
        |text: &str, name: &str| Deck::parse(text, name, name, &db).map_err(|e| anyhow!("{e}"));
    let a = deck(include_str!("../../decks/trails/aggro.deck"), "aggro")?;
    let b = deck(include_str!("../../decks/trails/control.deck"), "control")?;
    let game = TrailsGame::new(db.clone(), a.cards, b.cards);
    let mut s = game.new_game(1, Seat::P1);
    let mut h = [HeuristicAgent::new(1), HeuristicAgent::new(2)];
    for _ in 0..60 {
        let q = game.to_move(&s).expect("the bench game lasts 60 decisions");
        let act = h[q.index()].choose(&game, &s, q);
        game.apply(&mut s, act);
    }
    let pool = thread_pool(threads)?;
    let budget = std::time::Duration::from_secs_f64(seconds / 6.0);
    let rows = pool.install(|| crate::sim::bench::run_bench(&game, &s, budget));
    let bytes = std::mem::size_of::<crate::games::trails::State>();
    if csv {
        emit(&crate::sim::bench::csv(&rows, bytes))?;
    } else {
        emit(&crate::sim::bench::table(&rows, bytes))?;
    }
    Ok(ExitCode::SUCCESS)
}
