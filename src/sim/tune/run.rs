//! The search as one call (`tcgsim tune`): a [`Plan`] in, an [`Outcome`] out. The rounds, the
//! budget, the checkpoint (the state file, read back on `--resume` and written after every look)
//! and the fresh measurement are here; the result files are made of the outcome by
//! [`super::files`] and written by the caller.

use super::{fresh, pool, step, Gauntlet, Look, Moves, Params, Search, Swap};
use crate::core::input::{read_text, MAX_CHECKPOINT_BYTES};
use crate::core::{Error, GameDef, Result, WriteError};
use crate::sim::sink::Sink;
use crate::sim::within;
use crate::sim::Entrant;
use crate::stats::racing::Arm;
use crate::stats::{wilson, Z95};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The state file in a `--checkpoint` folder.
pub const STATE_FILE: &str = "tune-state.json";
/// The budget when neither a time nor a number of rounds is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(600);

/// What to tune, against what, and for how long.
pub struct Plan<'a, G: GameDef> {
    /// The card database: the decks' cards and every card a swap may add.
    pub cards: &'a G::Cards,
    /// The deck to tune.
    pub start: &'a G::Deck,
    /// The gauntlet, in order.
    pub opponents: Vec<&'a G::Deck>,
    /// The agent of both seats.
    pub spec: &'a Entrant,
    /// The agent as written (the fingerprint and the notes name it).
    pub agent: String,
    /// The master seed.
    pub seed: u64,
    /// The hash of the deck files as written: the order of their cards decides the move list and
    /// the deals (the content hash does not see order).
    pub files: u64,
    /// The card file's hash, or `bundled-VERSION` for the bundled cards.
    pub pool_hash: String,
    /// Stop once this many rounds are over …
    pub rounds: Option<u64>,
    /// … or once this time is spent (checked before every look; [`budget`]).
    pub budget: Option<Duration>,
    /// Games of the fresh measurement (rounded up to whole rounds of the gauntlet, both seats).
    pub check_games: u64,
    /// The state file (`DIR/`[`STATE_FILE`] of `--checkpoint DIR`), if the search keeps one.
    pub state: Option<PathBuf>,
    /// Continue the state file (it must exist and be this run's).
    pub resume: bool,
}

/// The budget of a search given `time` and `rounds`: [`DEFAULT_TIME`] when neither is given.
pub fn budget(time: Option<Duration>, rounds: Option<u64>) -> Option<Duration> {
    match (time, rounds) {
        (None, None) => Some(DEFAULT_TIME),
        (t, _) => t,
    }
}

impl<'a, G: GameDef> Plan<'a, G> {
    /// The tuned deck's name.
    pub fn name(&self) -> &'a str {
        G::deck_name(self.start)
    }

    /// The gauntlet's deck names, in order.
    pub fn gauntlet_names(&self) -> Vec<&'a str> {
        self.opponents.iter().map(|d| G::deck_name(d)).collect()
    }

    /// Every deck of the run: the tuned one first, then the gauntlet.
    pub fn decks(&self) -> Vec<&'a G::Deck> {
        let mut all = vec![self.start];
        all.extend(&self.opponents);
        all
    }

    /// The content hash of the cards and the decks.
    pub fn content(&self) -> String {
        G::content_hash(self.cards, &self.decks())
    }

    /// The race's parameters for this gauntlet.
    pub fn params(&self) -> Params {
        Params::for_gauntlet(self.opponents.len() as u64)
    }

    /// Games of the fresh measurement: `check_games` rounded up to a multiple of twice the
    /// gauntlet's size (every opponent met as often with and without the initiative).
    pub fn check(&self) -> u64 {
        let m = self.opponents.len() as u64;
        self.check_games.div_ceil(2 * m) * 2 * m
    }

    /// The run's fingerprint ([`crate::sim::fingerprint::tune`]): a state file of another run
    /// is never resumed.
    pub fn fingerprint(&self) -> String {
        crate::sim::fingerprint::tune(
            &[
                ("game", G::INFO.name.to_string()),
                ("deck", self.name().to_string()),
                ("gauntlet", self.gauntlet_names().join(",")),
                ("content", self.content()),
                ("files", format!("{:016x}", self.files)),
                ("pool", self.pool_hash.clone()),
                ("agent", self.agent.clone()),
                ("seed", self.seed.to_string()),
            ],
            &self.params().text(),
        )
    }

    fn gauntlet(&self) -> Gauntlet<'a, G> {
        Gauntlet {
            cards: self.cards,
            opponents: self.opponents.clone(),
            spec: self.spec,
            seed: self.seed,
        }
    }
}

/// What a search found and measured: everything its result files and its summary say.
pub struct Outcome<G: GameDef> {
    /// The search's state at its end (its accepted swaps, its rounds' points).
    pub search: Search,
    /// The tuned deck: the starting deck with the accepted swaps.
    pub tuned: G::Deck,
    /// Games of the fresh measurement, of each deck.
    pub check: u64,
    /// The starting deck's score on the fresh deals, in half points.
    pub start_score: u64,
    /// The tuned deck's score on the same deals, in half points.
    pub tuned_score: u64,
    /// The paired differences, tuned minus start, game by game.
    pub gain: Arm,
    /// Games this process played: the search's since it started (or resumed), and the fresh ones.
    pub games_played: u64,
    /// The search's games of an earlier process (a resumed search), not played by this one.
    pub games_resumed: u64,
    /// When the search's clock (the budget's) started.
    pub clock: Instant,
}

impl<G: GameDef> Outcome<G> {
    /// The starting deck's fresh win rate with its 95% interval.
    pub fn start_rate(&self) -> (f64, f64, f64) {
        rate_ci(self.start_score, self.check)
    }

    /// The tuned deck's fresh win rate with its 95% interval.
    pub fn tuned_rate(&self) -> (f64, f64, f64) {
        rate_ci(self.tuned_score, self.check)
    }
}

/// The win rate of `score` half points in `n` games, with its 95% Wilson interval.
pub fn rate_ci(score: u64, n: u64) -> (f64, f64, f64) {
    let s = score as f64 / 2.0;
    let (lo, hi) = wilson(s, n as f64, Z95);
    (s / n.max(1) as f64, lo, hi)
}

/// A rate as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A swap as the notes and the summary write it: `2×Old → New`.
pub fn swap_text<G: GameDef>(cards: &G::Cards, sw: &Swap) -> String {
    format!(
        "{}×{} → {}",
        sw.copies,
        G::card_name(cards, sw.remove),
        G::card_name(cards, sw.add)
    )
}

/// Runs the search of `plan` (resuming its state file if asked), then measures the starting and
/// the tuned deck on fresh deals. Call it inside the thread pool the games should use. Writes the
/// state file after every look, and nothing else.
pub fn run<G: GameDef>(plan: &Plan<G>, sink: &dyn Sink) -> Result<Outcome<G>> {
    if plan.opponents.is_empty() {
        return Err(Error::usage(format!(
            "{}: the gauntlet is empty",
            plan.name()
        )));
    }
    let mut search = open(plan, sink)?;
    let pool = pool::<G>(plan.cards);
    let mut moves = Moves::<G>::default();
    let swaps = moves.update(&search, plan.cards, plan.start, &pool)?.len();
    sink.note(&opening(plan, swaps));
    let clock = Instant::now();
    let games_before = search.total_games;
    let g = plan.gauntlet();
    rounds(plan, &g, &mut search, &pool, &mut moves, clock, sink)?;
    let tuned = search.incumbent::<G>(plan.cards, plan.start)?;
    // The honest measure: fresh deals, never used by a round.
    let check = plan.check();
    let (start_score, tuned_score, gain) =
        fresh::<G>(&g, plan.start, &tuned, check, &|n| sink.games(n));
    sink.after_games("nothing was written")?;
    Ok(Outcome {
        games_played: search.total_games - games_before + 2 * check,
        games_resumed: games_before,
        search,
        tuned,
        check,
        start_score,
        tuned_score,
        gain,
        clock,
    })
}

/// The search to run: a new one, or the state file's when resuming (checked to be this run's).
fn open<G: GameDef>(plan: &Plan<G>, sink: &dyn Sink) -> Result<Search> {
    let (params, fingerprint) = (plan.params(), plan.fingerprint());
    let Some(p) = &plan.state else {
        return Ok(Search::new(fingerprint, params));
    };
    if !p.exists() {
        if plan.resume {
            return Err(Error::input(
                p.display().to_string(),
                0,
                "no tuning checkpoint to resume",
            ));
        }
        return Ok(Search::new(fingerprint, params));
    }
    if !plan.resume {
        return Err(Error::usage(format!(
            "{}: a tuning checkpoint exists; add --resume to continue it, or remove it",
            p.display()
        )));
    }
    let text = read_text(p, MAX_CHECKPOINT_BYTES)?;
    let s = Search::parse(&text, &p.display().to_string(), &fingerprint)?;
    if s.params != params {
        return Err(Error::input(
            p.display().to_string(),
            0,
            format!(
                "its race parameters ({}) are not this run's ({})",
                s.params.text(),
                params.text()
            ),
        ));
    }
    s.incumbent::<G>(plan.cards, plan.start)
        .map_err(|e| within(&p.display().to_string(), e))?;
    sink.note(&format!(
        "resuming {}: round {}, {} swaps accepted, {} games played",
        p.display(),
        s.round,
        s.accepted.len(),
        s.total_games
    ));
    Ok(s)
}

/// The first note: what is tuned against what, and the budget.
fn opening<G: GameDef>(plan: &Plan<G>, swaps: usize) -> String {
    format!(
        "tuning {} ({}) against {} with {}: {swaps} candidate swaps a round; budget {}",
        plan.name(),
        G::INFO.title,
        plan.gauntlet_names().join(", "),
        plan.agent,
        match (plan.budget, plan.rounds) {
            (Some(t), Some(r)) => format!("{}s or {r} rounds", t.as_secs()),
            (Some(t), None) => format!("{}s", t.as_secs()),
            (None, Some(r)) => format!("{r} rounds"),
            (None, None) => "none".into(),
        }
    )
}

/// The looks, until the rounds or the time are spent; the state file written after each.
fn rounds<G: GameDef>(
    plan: &Plan<G>,
    g: &Gauntlet<G>,
    search: &mut Search,
    pool: &[u32],
    moves: &mut Moves<G>,
    clock: Instant,
    sink: &dyn Sink,
) -> Result<()> {
    // A look an agent failed in is not saved: the checkpoint keeps the look before it.
    let kept = match plan.state {
        Some(_) => "the checkpoint holds the last look before the failure (--resume goes on)",
        None => "nothing was written",
    };
    loop {
        if plan.rounds.is_some_and(|r| search.round >= r) {
            return Ok(());
        }
        if plan.budget.is_some_and(|b| clock.elapsed() >= b) {
            sink.note(match plan.state {
                Some(_) => {
                    "time is up: the round in progress is kept in the checkpoint (--resume goes on)"
                }
                None => {
                    "time is up: the round in progress is not finished (--checkpoint would keep it)"
                }
            });
            return Ok(());
        }
        step::<G>(
            search,
            g,
            plan.start,
            pool,
            moves,
            &|n| sink.games(n),
            &mut |l| sink.note(&look_line::<G>(plan.cards, l, clock)),
        )
        .map_err(|e| within(plan.name(), e))?;
        sink.after_games(kept)?;
        if let Some(p) = &plan.state {
            save(p, search)?;
        }
    }
}

/// Writes the state file whole (a run killed at any moment leaves the last look's).
fn save(path: &Path, search: &Search) -> Result<(), WriteError> {
    let text = serde_json::to_string(search).expect("the state serializes");
    crate::sim::files::write_atomic(path, &text)
        .map_err(|e| WriteError::new(format!("{}: cannot write", path.display()), e))
}

/// The note after a look: what it decided, and the search so far.
fn look_line<G: GameDef>(cards: &G::Cards, l: &Look, clock: Instant) -> String {
    let s = l.search;
    let swap = |sw: &Swap| swap_text::<G>(cards, sw);
    let best = l.best.map_or(String::new(), |(sw, d)| {
        format!("; best {} ({:+.1} pts)", swap(&sw), 100.0 * d)
    });
    let head = match (l.accepted, l.round_over) {
        (Some(a), _) => format!(
            "round {} accepts {}: {} → {} on {} games",
            a.round,
            swap(&a.swap),
            pct(a.rates().0),
            pct(a.rates().1),
            a.games
        ),
        (None, true) => format!(
            "round {} accepts nothing (incumbent {} on {} games); next round races up to {} games",
            s.round - 1,
            pct(s
                .points
                .last()
                .map_or(f64::NAN, |p| p.score as f64 / (2 * p.n) as f64)),
            s.points.last().map_or(0, |p| p.n),
            s.n_max
        ),
        (None, false) => format!(
            "round {}: {} of {} swaps alive after {} games each{best}",
            s.round, l.alive, s.candidates, s.games
        ),
    };
    format!(
        "{head} · {} accepted, {} swaps tried, {} games, {:.0}s",
        s.accepted.len(),
        s.tried,
        s.total_games,
        clock.elapsed().as_secs_f64()
    )
}
