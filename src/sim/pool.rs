//! The whole pool ranked (`tcgsim pool`, `docs/statistics.md`, "The whole pool ranked"): games
//! between decks drawn from the pool, and a regression of each game's result on the difference of
//! the two decks' copies of every card.
//!
//! - **Decks.** Each side of game `k` gets a deck of its own, drawn from a generator seeded by
//!   (master seed, [`POOL_KEY`], `k`, side) alone, so the games are independent and the same on
//!   any number of threads, chunks or interruptions. A *random* deck is a walk of `walk` legal
//!   single-copy swaps ([`crate::sim::tune::swap`]: the deck written and read back by the game's
//!   own deck reader) from a start deck drawn uniformly; each step removes one copy of a card of
//!   the deck (uniform over its distinct cards) for a card of the pool (uniform over the card
//!   file); a step whose deck is illegal is drawn again (at most `20 · walk` tries). A *sealed*
//!   deck is the game's sealed pool ([`GameDef::sealed`]) of `packs` packs. With both sources,
//!   each deck is one or the other by a fair coin.
//! - **Games.** Game `k` is the deal `schedule::deal(seed, [POOL_KEY], k)`: the first deck is seat
//!   P1, the turn-1 initiative alternates (P1 on even `k`), one agent plays both seats.
//! - **The model** (a linear probability model): P1's score (1, ½, 0) is `a + b·f + Σ_c β_c
//!   (n_c(P1) − n_c(P2))`, `f` = +1 when P1 has the initiative, −1 when P2 has it, `n_c` the copies
//!   of card `c` in a deck. The card terms are antisymmetric in the two decks, so each card is
//!   measured with the opponent's cards held fixed; `a` is the seat, `b` the initiative. Fitted
//!   by least squares with HC1 sandwich intervals ([`crate::stats::ols`]).
//! - **A card's value** is `β_c − mean(β)` over the cards whose difference ever varies: the score,
//!   per game, of one more copy of the card in place of a copy of the pool's average card (decks
//!   of a fixed size make only such differences estimable). Where the decks fix the total copies
//!   of a group of cards (a sealed pack's slots fix the copies of each card type), the value is the
//!   estimable contrast nearest to that ([`crate::stats::ols::Fit::project`]): against the average
//!   card of its group. Cards that never vary get no value; nor do cards whose contrast the decks
//!   cannot tell at all.

use super::schedule;
use super::tune::{swap, Swap};
use super::Entrant;
use crate::core::input::Reason;
use crate::core::{mix_seed, rng_from_seed, Error, GameDef, InputError, Result, Seat};
use crate::stats::ols::{Fit, Obs};
use rand::Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The first word of every pool deal's key (so no other command's games share a deal).
pub const POOL_KEY: u64 = 0x706f_6f6c; // "pool"

/// The most games of a run (every game's cards are kept for the regression).
pub const MAX_GAMES: u64 = 2_000_000;

/// The most tries of the random walk per swap it makes.
const TRIES_PER_SWAP: u64 = 20;

/// Where the decks come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Random legal constructed decks: walks of card swaps from the start decks.
    Random,
    /// The game's sealed pools.
    Sealed,
    /// Each deck one or the other, by a fair coin.
    Both,
}

impl Source {
    /// The name on the command line and in the fingerprint.
    pub fn name(self) -> &'static str {
        match self {
            Source::Random => "random",
            Source::Sealed => "sealed",
            Source::Both => "both",
        }
    }

    /// `random`, `sealed` or `both`.
    pub fn parse(s: &str) -> std::result::Result<Source, Reason> {
        match s {
            "random" => Ok(Source::Random),
            "sealed" => Ok(Source::Sealed),
            "both" => Ok(Source::Both),
            _ => Err(Reason(format!(
                "--source {s}: unknown source (random, sealed or both)"
            ))),
        }
    }
}

/// What a pool run is: enough to reproduce it, and to refuse resuming a different run.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The game (its registry name).
    pub game: String,
    /// The content hash of the card file and the start decks ([`GameDef::content_hash`]).
    pub content: String,
    pub agent: String,
    pub source: Source,
    /// The start decks' names (random decks).
    pub starts: Vec<String>,
    /// Swaps per random deck.
    pub walk: u64,
    /// Packs per sealed pool, and the pack's notation.
    pub packs: u64,
    pub pack: String,
    pub games: u64,
    pub seed: u64,
    /// Games per chunk (the unit of parallel work and of checkpoints).
    pub chunk: u64,
}

impl Plan {
    /// A one-line canonical description, written with every output and checkpoint.
    pub fn fingerprint(&self) -> String {
        format!(
            "tcgsim-pool v1 game={} content={} agent={} source={} starts={} walk={} packs={} pack={} games={} seed={} chunk={}",
            self.game,
            self.content,
            self.agent,
            self.source.name(),
            self.starts.join(";"),
            self.walk,
            self.packs,
            self.pack,
            self.games,
            self.seed,
            self.chunk
        )
    }

    /// The number of chunks.
    pub fn chunks(&self) -> u64 {
        self.games.div_ceil(self.chunk)
    }

    /// The games of chunk `c`.
    pub fn chunk_games(&self, c: u64) -> std::ops::Range<u64> {
        let start = c * self.chunk;
        start..(start + self.chunk).min(self.games)
    }
}

/// The decks of a run: the card file, the start decks and the plan.
pub struct Decks<'a, G: GameDef> {
    pub cards: &'a G::Cards,
    pub starts: &'a [G::Deck],
    pub plan: &'a Plan,
}

impl<G: GameDef> Decks<'_, G> {
    /// Checks that the plan's source can deal decks: random decks need start decks that may be
    /// changed by swaps, sealed ones a game with a sealed format (its error, exit code 2).
    pub fn check(&self) -> Result<()> {
        if self.plan.source != Source::Sealed {
            if self.starts.is_empty() {
                return Err(Error::usage("random decks need at least one start deck"));
            }
            for d in self.starts {
                G::tunable_deck(d).map_err(|r| {
                    Error::usage(format!(
                        "{}: cannot start random decks: {}",
                        G::deck_name(d),
                        r.0
                    ))
                })?;
            }
        }
        if self.plan.source != Source::Random {
            G::sealed(self.cards, self.plan.packs, &self.plan.pack, self.plan.seed)?;
        }
        // The first game's decks: a source that cannot deal says so before any game.
        self.deck(0, 0)?;
        self.deck(0, 1)?;
        // The regression's unknowns: a value per card, the seat, the initiative. Its sandwich
        // intervals need games well beyond them (with as many games as unknowns the fit is exact
        // and every interval has width 0).
        let unknowns = G::card_count(self.cards) as u64 + 2;
        if self.plan.games < 2 * unknowns {
            return Err(Error::usage(format!(
                "--games {}: too few to rank a pool of {} cards: the regression has up to {unknowns} unknowns (a value per card, the seat, the initiative), and its intervals need at least twice as many games ({} or more; thousands for intervals a designer can use)",
                self.plan.games,
                unknowns - 2,
                2 * unknowns
            )));
        }
        Ok(())
    }

    /// The deck of side `side` (0: seat P1, 1: seat P2) of game `k` (module doc).
    pub fn deck(&self, k: u64, side: u64) -> Result<G::Deck> {
        let plan = self.plan;
        let mut rng = rng_from_seed(mix_seed(&[plan.seed, POOL_KEY, k, 3 + side]));
        let sealed = match plan.source {
            Source::Random => false,
            Source::Sealed => true,
            Source::Both => rng.gen::<bool>(),
        };
        if sealed {
            let s: u64 = rng.gen();
            let text = G::sealed(self.cards, plan.packs, &plan.pack, s)?;
            let name = format!("sealed-{s}");
            return G::parse_deck(self.cards, &text, &name, &name).map_err(|e| {
                Error::usage(format!(
                    "--packs {} --pack {}: the sealed pool is not a legal deck of the {}: {e}",
                    plan.packs,
                    if plan.pack.is_empty() {
                        "(default)"
                    } else {
                        &plan.pack
                    },
                    G::INFO.title
                ))
            });
        }
        let mut deck = self.starts[rng.gen_range(0..self.starts.len())].clone();
        let n = G::card_count(self.cards) as u32;
        let (mut made, mut tries) = (0, 0);
        while made < plan.walk && tries < TRIES_PER_SWAP * plan.walk && n > 1 {
            tries += 1;
            let held = G::deck_cards(&deck);
            if held.is_empty() {
                break;
            }
            let remove = held[rng.gen_range(0..held.len())].0;
            let add = rng.gen_range(0..n);
            if add == remove {
                continue;
            }
            let s = Swap {
                remove,
                add,
                copies: 1,
            };
            if let Ok(d) = swap::<G>(self.cards, &deck, s) {
                deck = d;
                made += 1;
            }
        }
        Ok(deck)
    }
}

/// The decks of `decks` that random walks may start from (those swaps may change: not a sealed
/// deck, [`GameDef::tunable_deck`]), and the names of the others.
pub fn startable<G: GameDef>(decks: Vec<G::Deck>) -> (Vec<G::Deck>, Vec<String>) {
    let (ok, not): (Vec<G::Deck>, Vec<G::Deck>) =
        decks.into_iter().partition(|d| G::tunable_deck(d).is_ok());
    (
        ok,
        not.iter().map(|d| G::deck_name(d).to_string()).collect(),
    )
}

/// One game's data for the regression: P1's copies of each card less P2's (the cards where they
/// differ), P2's and P1's distinct cards, who had the initiative, and P1's score in half points.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    pub diff: Vec<(u32, i32)>,
    pub present: Vec<u32>,
    pub first: Seat,
    pub half_points: u8,
}

/// The cards of game `k`'s two decks as [`GameData`], with the score still to be filled in.
fn game_data<G: GameDef>(decks: [&G::Deck; 2], first: Seat) -> GameData {
    let mut counts: BTreeMap<u32, (i32, i32)> = BTreeMap::new();
    for (side, d) in decks.iter().enumerate() {
        for (id, c) in G::deck_cards(d) {
            let e = counts.entry(id).or_default();
            if side == 0 {
                e.0 += c as i32;
            } else {
                e.1 += c as i32;
            }
        }
    }
    GameData {
        diff: counts
            .iter()
            .filter(|(_, (a, b))| a != b)
            .map(|(&id, (a, b))| (id, a - b))
            .collect(),
        present: counts.keys().copied().collect(),
        first,
        half_points: 0,
    }
}

/// Plays chunk `c`: every game's data, in game order; `None` when an agent failed and the run is
/// stopping (the chunk is not finished).
pub fn play_chunk<G: GameDef>(
    decks: &Decks<G>,
    spec: &Entrant,
    c: u64,
) -> Result<Option<Vec<GameData>>> {
    let plan = decks.plan;
    let mut out = Vec::new();
    for k in plan.chunk_games(c) {
        let deal = schedule::deal(plan.seed, &[POOL_KEY], k, false);
        let d = [decks.deck(k, 0)?, decks.deck(k, 1)?];
        let game = G::new_match(decks.cards, [&d[0], &d[1]]);
        let mut a = spec.build::<G>(deal.agent_seeds[0]);
        let mut b = spec.build::<G>(deal.agent_seeds[1]);
        let (rec, _) = super::play_game_to_end(
            &game,
            deal.seed,
            deal.first,
            [a.as_mut(), b.as_mut()],
            |_, _, _, _| {},
        );
        if rec.aborted() {
            return Ok(None);
        }
        let mut g = game_data::<G>([&d[0], &d[1]], deal.first);
        g.half_points = (rec.outcome.score(Seat::P1) * 2.0).round() as u8;
        out.push(g);
    }
    Ok(Some(out))
}

/// The data of chunk `c` played before (a checkpoint's line): its decks dealt again, with the
/// scores recorded.
pub fn replay_chunk<G: GameDef>(decks: &Decks<G>, c: u64, scores: &[u8]) -> Result<Vec<GameData>> {
    let plan = decks.plan;
    plan.chunk_games(c)
        .zip(scores)
        .map(|(k, &s)| {
            let deal = schedule::deal(plan.seed, &[POOL_KEY], k, false);
            let d = [decks.deck(k, 0)?, decks.deck(k, 1)?];
            let mut g = game_data::<G>([&d[0], &d[1]], deal.first);
            g.half_points = s;
            Ok(g)
        })
        .collect()
}

/// A chunk and its games' data.
type Chunk = (u64, Vec<GameData>);

/// Plays the chunks of `todo` in parallel (the others are in `done`, from a checkpoint: their
/// decks dealt again); `finished` sees each chunk played (from any thread: a checkpoint line; an
/// error stops the run), `progress` its games. Returns every game's data in game order, or
/// `None` when an agent failed under `--on-agent-error abort`.
pub fn run_chunks<G: GameDef>(
    decks: &Decks<G>,
    spec: &Entrant,
    todo: &[u64],
    done: &BTreeMap<u64, Vec<u8>>,
    finished: &(dyn Fn(u64, &[u8]) -> Result<()> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Option<Vec<GameData>>> {
    // After a failure (a checkpoint line not written, a deck not dealt) no chunk starts.
    let failed = std::sync::atomic::AtomicBool::new(false);
    let played: Vec<Result<Option<Chunk>>> = todo
        .par_iter()
        .map(|&c| {
            if spec.aborted() || failed.load(std::sync::atomic::Ordering::Relaxed) {
                return Ok(None);
            }
            let one = || -> Result<Option<Chunk>> {
                let Some(v) = play_chunk(decks, spec, c)? else {
                    return Ok(None);
                };
                let scores: Vec<u8> = v.iter().map(|g| g.half_points).collect();
                finished(c, &scores)?;
                progress(v.len() as u64);
                Ok(Some((c, v)))
            };
            one().inspect_err(|_| failed.store(true, std::sync::atomic::Ordering::Relaxed))
        })
        .collect();
    let replayed: Vec<Result<(u64, Vec<GameData>)>> = done
        .par_iter()
        .map(|(&c, s)| Ok((c, replay_chunk(decks, c, s)?)))
        .collect();
    let mut all: BTreeMap<u64, Vec<GameData>> = BTreeMap::new();
    let mut stopped = false;
    for r in played {
        match r? {
            Some((c, v)) => {
                all.insert(c, v);
            }
            None => stopped = true,
        }
    }
    if stopped {
        return Ok(None);
    }
    for r in replayed {
        let (c, v) = r?;
        all.insert(c, v);
    }
    Ok(Some(all.into_values().flatten().collect()))
}

/// Why a card has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoValue {
    /// Its copies are the same in both decks of every game (absent from every deck, or in every
    /// deck alike).
    NeverVaries,
    /// The decks drawn cannot separate its effect from other cards' at all.
    NotSeparable,
}

impl NoValue {
    /// The words of `pool.csv`'s `note` column.
    pub fn text(self) -> &'static str {
        match self {
            NoValue::NeverVaries => "never varies",
            NoValue::NotSeparable => "not separable",
        }
    }
}

/// One card's row of the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct CardValue {
    pub id: u32,
    pub name: String,
    /// Games in which at least one of the two decks held it.
    pub present: u64,
    /// Games in which the two decks held different numbers of it.
    pub varied: u64,
    /// Its value per copy (score per game, a fraction) and the 95% interval; NaN without one.
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    /// 1 for the best card; `None` without a value.
    pub rank: Option<u64>,
    pub none: Option<NoValue>,
    /// The value is against the average card of its group, not of the pool: the decks fix the
    /// total copies of a group of cards (a sealed pack's slot of one card type), so the games
    /// tell only differences within it.
    pub within: bool,
}

/// A term of the model with its 95% interval: `(estimate, lo, hi)`.
pub type Term = (f64, f64, f64);

/// What the regression says.
#[derive(Clone, Debug)]
pub struct Ranking {
    pub games: u64,
    /// P1's mean score.
    pub p1_rate: f64,
    /// `a`: P1's expected score when the decks are alike and the initiative is balanced.
    pub seat: Term,
    /// `b`: half the initiative's advantage in score (the first player scores `a + b` as P1).
    pub initiative: Term,
    /// Every card of the card file: those with a value best first, then the others by id.
    pub cards: Vec<CardValue>,
}

/// The regression of the module doc on the games' data (summed in game order: the same games
/// give the same bits). `names` are the card file's names, by id.
pub fn rank(data: &[GameData], names: &[String], source: Source) -> Ranking {
    let m = names.len();
    let p = 2 + m;
    let obs: Vec<Obs> = data
        .iter()
        .map(|g| {
            let f = if g.first == Seat::P1 { 1.0 } else { -1.0 };
            let mut x = vec![(0u32, 1.0), (1u32, f)];
            x.extend(g.diff.iter().map(|&(id, d)| (id + 2, f64::from(d))));
            Obs {
                x,
                y: f64::from(g.half_points) / 2.0,
            }
        })
        .collect();
    let fit = Fit::new(p, &obs);
    let mut present = vec![0u64; m];
    let mut varied = vec![0u64; m];
    for g in data {
        for &id in &g.present {
            present[id as usize] += 1;
        }
        for &(id, _) in &g.diff {
            varied[id as usize] += 1;
        }
    }
    let z = crate::stats::Z95;
    let term = |k: usize| {
        let mut v = vec![0.0; p];
        v[k] = 1.0;
        let (e, se) = fit.contrast(&v);
        (e, e - z * se, e + z * se)
    };
    let varying: Vec<usize> = (0..m).filter(|&c| varied[c] > 0).collect();
    let mut cards: Vec<CardValue> = (0..m)
        .map(|c| {
            let mut row = CardValue {
                id: c as u32,
                name: names[c].clone(),
                present: present[c],
                varied: varied[c],
                value: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
                rank: None,
                none: None,
                within: false,
            };
            if varied[c] == 0 {
                row.none = Some(NoValue::NeverVaries);
                return row;
            }
            let mut v = vec![0.0; p];
            for &s in &varying {
                v[s + 2] -= 1.0 / varying.len() as f64;
            }
            v[c + 2] += 1.0;
            // Against the pool's average card where the games tell that; else the nearest
            // contrast they tell (sealed pools' fixed slots: against the average card of its
            // slot).
            let w = fit.project(&v);
            let norm = |x: &[f64]| x.iter().map(|a| a * a).sum::<f64>().sqrt();
            if norm(&w) <= 1e-6 * norm(&v) {
                row.none = Some(NoValue::NotSeparable);
                return row;
            }
            // Only sealed pools fix group totals (a pack's slots); elsewhere a contrast the games
            // cannot tell (too few distinct decks: `--walk 0`) gets no value.
            if !fit.estimable(&v) {
                if source != Source::Sealed {
                    row.none = Some(NoValue::NotSeparable);
                    return row;
                }
                row.within = true;
            }
            let (e, se) = fit.contrast(&w);
            (row.value, row.lo, row.hi) = (e, e - z * se, e + z * se);
            row
        })
        .collect();
    cards.sort_by(|a, b| {
        let key = |r: &CardValue| {
            if r.value.is_nan() {
                f64::NEG_INFINITY
            } else {
                r.value
            }
        };
        key(b)
            .total_cmp(&key(a))
            .then(a.none.is_some().cmp(&b.none.is_some()))
            .then(a.id.cmp(&b.id))
    });
    let mut r = 0;
    for c in &mut cards {
        if c.none.is_none() {
            r += 1;
            c.rank = Some(r);
        }
    }
    let n = data.len() as u64;
    let p1: f64 = data.iter().map(|g| f64::from(g.half_points)).sum::<f64>() / 2.0;
    Ranking {
        games: n,
        p1_rate: if n == 0 { f64::NAN } else { p1 / n as f64 },
        seat: term(0),
        initiative: term(1),
        cards,
    }
}

// ---- the checkpoint: a line per finished chunk ----

/// The checkpoint's file, in the `--checkpoint` folder.
pub const CHECKPOINT_FILE: &str = "pool_chunks.csv";

/// The run's tag ([`super::fingerprint::run_tag`] of its fingerprint).
pub fn run_tag(plan: &Plan) -> String {
    super::fingerprint::run_tag(&plan.fingerprint())
}

/// The checkpoint's first line: its header and the run's tag.
pub fn checkpoint_header(plan: &Plan) -> String {
    format!("chunk,scores,sum # run {}", run_tag(plan))
}

/// The check sum of a line's fields under the run's tag ([`super::checkpoint::line_sum`], as
/// `matrix`'s checkpoint lines).
fn line_sum(tag: &str, chunk: u64, scores: &str) -> String {
    super::checkpoint::line_sum(tag, &format!("{chunk},{scores}"))
}

/// A checkpoint line: the chunk, its games' scores for P1 in half points (one digit, 0–2, a game),
/// and the check sum.
pub fn checkpoint_line(plan: &Plan, chunk: u64, scores: &[u8]) -> String {
    let s: String = scores.iter().map(|&x| char::from(b'0' + x)).collect();
    format!("{chunk},{s},{}", line_sum(&run_tag(plan), chunk, &s))
}

/// Reads a checkpoint of `plan` (`file` names it): the scores of each chunk it holds. A
/// checkpoint of another run (its tag), a line whose sum does not match it, a chunk that is not
/// the plan's, given twice or with a wrong number of games is an error naming the file and line.
pub fn read_checkpoint(
    text: &str,
    file: &str,
    plan: &Plan,
) -> std::result::Result<BTreeMap<u64, Vec<u8>>, InputError> {
    let tag = run_tag(plan);
    let mut lines = text.lines();
    let head = lines.next().unwrap_or("");
    if head != checkpoint_header(plan) {
        let why = if head.starts_with("chunk,scores,sum # run ") {
            "the checkpoint of another run (its tag differs: other flags, cards or decks); remove the folder or give the run's own flags"
        } else {
            "not a pool checkpoint (expected `chunk,scores,sum # run TAG`)"
        };
        return Err(InputError::new(file, 1, why));
    }
    let mut out = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        let at = |m: String| InputError::new(file, i + 2, m);
        let f: Vec<&str> = line.split(',').collect();
        let [c, s, sum] = f[..] else {
            return Err(at("expected 3 fields: chunk,scores,sum".into()));
        };
        let chunk: u64 = c
            .parse()
            .map_err(|_| at(format!("chunk \"{c}\" is not a count")))?;
        if sum != line_sum(&tag, chunk, s) {
            return Err(at(
                "the check sum does not match the line (edited or damaged); remove the folder and run again".into(),
            ));
        }
        if chunk >= plan.chunks() {
            return Err(at(format!(
                "chunk {chunk} is not one of the run's {}",
                plan.chunks()
            )));
        }
        let want = plan.chunk_games(chunk).count();
        let scores: Vec<u8> = s.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        if scores.len() != want || scores.iter().any(|&x| x > 2) {
            return Err(at(format!(
                "chunk {chunk}: expected {want} scores of 0, 1 or 2"
            )));
        }
        if out.insert(chunk, scores).is_some() {
            return Err(at(format!("chunk {chunk} is given twice")));
        }
    }
    Ok(out)
}

/// The chunks of shard `i` of `n` (1-based): every `n`-th chunk, so shards are balanced.
pub fn shard_chunks(plan: &Plan, shard: Option<(u64, u64)>) -> Vec<u64> {
    (0..plan.chunks())
        .filter(|c| shard.is_none_or(|(i, n)| c % n == i - 1))
        .collect()
}

/// Reads the shards' chunk files (`PART/pool_chunks.csv`, written by `--shard`) of `plan`: the
/// scores of every chunk. A part of another run, a chunk in two parts, or a chunk in none (a
/// missing shard) is an error naming the file (and line).
pub fn read_parts(parts: &[std::path::PathBuf], plan: &Plan) -> Result<BTreeMap<u64, Vec<u8>>> {
    let mut all: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    for d in parts {
        let path = d.join(CHECKPOINT_FILE);
        let name = path.display().to_string();
        if !path.is_file() {
            return Err(Error::input(
                name,
                0,
                "no such file: not a pool shard's folder",
            ));
        }
        let text = crate::core::input::read_text(&path, 1 << 36)?;
        for (c, s) in read_checkpoint(&text, &name, plan)? {
            if all.insert(c, s).is_some() {
                return Err(Error::input(
                    name,
                    0,
                    format!("chunk {c} is in another part too: each shard once"),
                ));
            }
        }
    }
    if let Some(c) = (0..plan.chunks()).find(|c| !all.contains_key(c)) {
        return Err(Error::usage(format!(
            "chunk {c} of {} is in none of the parts: a shard is missing",
            plan.chunks()
        )));
    }
    Ok(all)
}

/// A pool run's checkpoint (`--checkpoint DIR`): [`CHECKPOINT_FILE`], a line appended per
/// finished chunk.
pub struct Checkpoint {
    path: std::path::PathBuf,
    file: std::sync::Mutex<std::fs::File>,
    plan: Plan,
}

impl Checkpoint {
    /// Opens the checkpoint of `plan` in `dir` (made if missing): a new one, or with `resume` the
    /// one there, whose chunks are returned (a last line cut short by an interruption is dropped).
    /// A checkpoint that exists without `resume`, none to resume, or another run's is an input
    /// error naming the file (exit code 2).
    pub fn open(
        dir: &std::path::Path,
        plan: &Plan,
        resume: bool,
    ) -> Result<(Checkpoint, BTreeMap<u64, Vec<u8>>)> {
        let fail = |p: &std::path::Path, e: std::io::Error| {
            Error::input(p.display().to_string(), 0, e.to_string())
        };
        crate::sim::checkpoint::make_checkpoint_dir(dir)?;
        let path = dir.join(CHECKPOINT_FILE);
        let name = path.display().to_string();
        let mut done = BTreeMap::new();
        if path.exists() {
            if !resume {
                return Err(Error::input(
                    name,
                    0,
                    "a checkpoint exists; add --resume to continue it, or remove it",
                ));
            }
            let text = crate::core::input::read_text(&path, 1 << 36)?;
            let whole = match text.rfind('\n') {
                Some(i) => &text[..=i],
                None => "",
            };
            done = read_checkpoint(whole, &name, plan)?;
        } else if resume {
            return Err(Error::input(name, 0, "no checkpoint to resume"));
        }
        let mut clean = format!("{}\n", checkpoint_header(plan));
        for (c, s) in &done {
            clean += &checkpoint_line(plan, *c, s);
            clean.push('\n');
        }
        std::fs::write(&path, clean).map_err(|e| fail(&path, e))?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| fail(&path, e))?;
        Ok((
            Checkpoint {
                path,
                file: std::sync::Mutex::new(file),
                plan: plan.clone(),
            },
            done,
        ))
    }

    /// Appends chunk `c`'s line; a failed write is an [`Error::Write`] (exit code 1).
    pub fn record(&self, c: u64, scores: &[u8]) -> Result<()> {
        use std::io::Write as _;
        let line = format!("{}\n", checkpoint_line(&self.plan, c, scores));
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(line.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| {
                Error::from(crate::core::WriteError::new(
                    format!("{}: cannot write", self.path.display()),
                    e,
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            game: "toy".into(),
            content: "0".into(),
            agent: "heuristic".into(),
            source: Source::Random,
            starts: vec!["a".into()],
            walk: 3,
            packs: 5,
            pack: String::new(),
            games: 5,
            seed: 1,
            chunk: 2,
        }
    }

    /// A checkpoint reads back what was written; another run's, an edited line, a chunk of the
    /// wrong size are refused with their line.
    #[test]
    fn a_checkpoint_reads_back_checked() {
        let p = plan();
        let text = format!(
            "{}\n{}\n{}\n",
            checkpoint_header(&p),
            checkpoint_line(&p, 2, &[1]),
            checkpoint_line(&p, 0, &[2, 0])
        );
        let back = read_checkpoint(&text, "c.csv", &p).unwrap();
        assert_eq!(back[&0], vec![2, 0]);
        assert_eq!(back[&2], vec![1]);
        let other = Plan { seed: 2, ..plan() };
        let e = read_checkpoint(&text, "c.csv", &other)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("c.csv:1: the checkpoint of another run"),
            "{e}"
        );
        let edited = text.replace(",20,", ",21,");
        let e = read_checkpoint(&edited, "c.csv", &p)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.csv:3: the check sum"), "{e}");
        let short = format!(
            "{}\n{}\n",
            checkpoint_header(&p),
            checkpoint_line(&p, 0, &[2])
        );
        let e = read_checkpoint(&short, "c.csv", &p)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.csv:2: chunk 0: expected 2 scores"), "{e}");
    }
}
