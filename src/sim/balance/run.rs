//! Balancing as one call (`tcgsim balance`): a [`Plan`] in, an [`Outcome`] out. The three steps of
//! the module doc — screening, the race, the fresh re-measurement — are here; the result files are
//! made of the outcome by [`super::files`] and written by the caller.

use super::{apply, bootstrap, changes, Change, Est, Games, Matrix, FRESH_ROUND};
use crate::core::{Error, GameDef, Result};
use crate::sim::cards::rank_deck;
use crate::sim::sink::Sink;
use crate::sim::{within, Entrant};
use std::time::{Duration, Instant};

/// Bootstrap resamples of every interval.
const REPS: usize = 400;

/// What to balance, and how hard to look.
pub struct Plan<'a, G: GameDef> {
    /// The card file's text (the changes patch it).
    pub text: &'a str,
    /// Its cards.
    pub cards: &'a G::Cards,
    /// The card file's name, for messages.
    pub file: String,
    /// The decks of the matrix.
    pub decks: Vec<&'a G::Deck>,
    /// Their names, in the same order.
    pub names: Vec<String>,
    /// The agent of both seats.
    pub spec: &'a Entrant,
    /// The agent as written (the matchups files name it).
    pub agent: String,
    /// The master seed.
    pub seed: u64,
    /// Changes raced (the best of the screening).
    pub candidates: usize,
    /// Games per ordered matchup at the race's first stage (and of the screening, 100 at least).
    pub games: u64,
    /// Games per ordered matchup at the race's last stage, at most.
    pub max_games: u64,
    /// Games per ordered matchup of the fresh re-measurement.
    pub check_games: u64,
    /// The race stops at the next stage once this time is spent.
    pub budget: Option<Duration>,
}

impl<'a, G: GameDef> Plan<'a, G> {
    fn n(&self) -> usize {
        self.decks.len()
    }

    /// The games of the matrix of these decks.
    fn matrix(&self) -> Matrix<'a, G> {
        Matrix {
            decks: self.decks.clone(),
            names: self.names.clone(),
            spec: self.spec,
            seed: self.seed,
        }
    }
}

/// A change raced: how the screening scored it, what it played, how it ended.
pub struct Candidate<C> {
    pub change: Change,
    /// The screening's score (higher: more promising).
    pub screen: f64,
    /// Its games (with the changed cards).
    pub games: Games,
    /// The changed cards.
    pub cards: C,
    /// `best`, `finalist`, or why it left the race.
    pub status: String,
    /// The spread before, after, and its reduction, at its last stage.
    pub est: Option<[Est; 3]>,
    /// Games per ordered matchup it played.
    pub per_matchup: u64,
}

/// The best change measured again on fresh deals.
pub struct Fresh {
    /// The games with the unchanged cards.
    pub before: Games,
    /// The games with the changed cards, on the same deals.
    pub after: Games,
    /// The spread before, after, and its reduction.
    pub est: [Est; 3],
    /// The card file with the change.
    pub patched: String,
}

/// What a balancing run found: everything its result files and its summary say.
pub struct Outcome<G: GameDef> {
    /// Changes screened.
    pub screened: usize,
    /// The cards of the decks, which the changes change.
    pub used: usize,
    /// The raced changes, in screening order.
    pub rows: Vec<Candidate<G::Cards>>,
    /// The unchanged cards' games of the race.
    pub base: Games,
    /// The index in `rows` of the best change, if one survived.
    pub best: Option<usize>,
    /// Its fresh re-measurement.
    pub fresh: Option<Fresh>,
    /// Games played in all.
    pub games_played: u64,
    /// When the run's clock (the budget's) started.
    pub clock: Instant,
}

/// A change as the notes and the summary write it: `Card: cost 3 → 2`.
pub fn describe<G: GameDef>(cards: &G::Cards, c: &Change) -> String {
    format!(
        "{}: {} {} → {}",
        G::card_name(cards, c.card),
        c.column,
        c.from,
        c.to
    )
}

/// Screens the changes, races the most promising and measures the best again on fresh deals.
/// Call it inside the thread pool the games should use. Writes nothing.
pub fn run<G: GameDef>(plan: &Plan<G>, sink: &dyn Sink) -> Result<Outcome<G>> {
    let clock = Instant::now();
    if plan.n() < 2 {
        return Err(Error::usage("balance needs at least two decks"));
    }
    let used = used_cards(plan);
    let all = changes(plan.text, G::TUNABLE, &used);
    if all.is_empty() {
        return Err(Error::input(
            &plan.file,
            0,
            format!(
                "no card of the decks has a number in a column balance may change ({})",
                G::TUNABLE
                    .iter()
                    .map(|t| t.column)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let screen_games = plan.games.max(100);
    sink.note(&format!(
        "screening {} changes of {} cards: card statistics of {} decks ({} games each against each other deck)",
        all.len(),
        used.len(),
        plan.n(),
        screen_games
    ));
    let (stats, mut played) = card_stats(plan, screen_games, sink)?;
    let screened = all.len();
    let mut rows = candidates(plan, scored(&stats, all, plan.candidates))?;
    let (base, alive, race_games) = race(plan, &mut rows, clock, sink)?;
    played += race_games;
    let best = alive.first().copied();
    if let Some(b) = best {
        rows[b].status = "best".into();
    }
    for &i in alive.iter().skip(1) {
        rows[i].status = "finalist".into();
    }
    let fresh = match best {
        Some(b) => Some(remeasure(plan, &rows[b], sink)?),
        None => None,
    };
    if fresh.is_some() {
        played += plan.check_games * (plan.n() * (plan.n() - 1)) as u64 * 2;
    }
    Ok(Outcome {
        screened,
        used: used.len(),
        rows,
        base,
        best,
        fresh,
        games_played: played,
        clock,
    })
}

/// The cards the decks hold, in id order.
fn used_cards<G: GameDef>(plan: &Plan<G>) -> Vec<u32> {
    let mut used: Vec<u32> = Vec::new();
    for d in &plan.decks {
        for (id, _) in G::deck_cards(d) {
            if !used.contains(&id) {
                used.push(id);
            }
        }
    }
    used.sort_unstable();
    used
}

/// The screening's card statistics: each deck's mean win rate against the others, and every
/// card's `(id, copies, IWD)` in each deck.
struct Stats {
    means: Vec<f64>,
    iwd: Vec<Vec<(u32, usize, f64)>>,
}

/// Plays the screening: the card statistics of every deck against the others. Returns them and
/// the games played.
fn card_stats<G: GameDef>(plan: &Plan<G>, games: u64, sink: &dyn Sink) -> Result<(Stats, u64)> {
    let mut stats = Stats {
        means: Vec::new(),
        iwd: Vec::new(),
    };
    let mut played = 0;
    for d in &plan.decks {
        let opponents: Vec<&G::Deck> = plan
            .decks
            .iter()
            .copied()
            .filter(|x| G::deck_name(x) != G::deck_name(d))
            .collect();
        let mut c = plan.cards.clone();
        let rank = crate::sim::cards::RankPlan::<G> {
            deck: d,
            opponents: &opponents,
            spec: plan.spec,
            games,
            seed: plan.seed,
            versus: crate::sim::cards::Versus::NONE,
            pool: &[],
        };
        let r = rank_deck::<G>(&mut c, &rank, &|n| sink.games(n))
            .map_err(|e| within(G::deck_name(d), e))?;
        sink.after_games("nothing was written")?;
        played += r.games;
        stats.means.push(r.win_rate);
        stats.iwd.push(
            r.rows
                .iter()
                .map(|x| (x.id, x.copies, if x.iwd.0.is_nan() { 0.0 } else { x.iwd.0 }))
                .collect(),
        );
    }
    Ok((stats, played))
}

/// The `keep` most promising changes of `all`, with their screening scores, best first: a change
/// that helps a card's owner scores where the card sits in decks below the average, one that
/// hinders it where they are above, each deck weighted by the card's copies and IWD there.
fn scored(stats: &Stats, all: Vec<Change>, keep: usize) -> Vec<(f64, Change)> {
    let avg = stats.means.iter().sum::<f64>() / stats.means.len() as f64;
    let score = |c: &Change| -> f64 {
        let h = if c.helps { 1.0 } else { -1.0 };
        let mut s = 0.0;
        for (d, rows) in stats.iwd.iter().enumerate() {
            if let Some(&(_, copies, v)) = rows.iter().find(|x| x.0 == c.card) {
                s += copies as f64 * (stats.means[d] - avg) * (v.max(0.0) + 0.02);
            }
        }
        -h * s
    };
    let mut scored: Vec<(f64, Change)> = all.into_iter().map(|c| (score(&c), c)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.card.cmp(&b.1.card)));
    scored.truncate(keep);
    scored
}

/// The raced changes: each applied to the card file, every deck checked still legal with it.
fn candidates<G: GameDef>(
    plan: &Plan<G>,
    scored: Vec<(f64, Change)>,
) -> Result<Vec<Candidate<G::Cards>>> {
    let mut rows = Vec::new();
    for (s, c) in scored {
        let (_, cards) = apply::<G>(plan.text, plan.cards, &c, &plan.file)?;
        for d in &plan.decks {
            let nm = G::deck_name(d);
            G::parse_deck(&cards, &G::deck_file(&cards, d, nm), nm, nm)
                .map_err(|e| Error::usage(format!("{}: {e}", describe::<G>(plan.cards, &c))))?;
        }
        rows.push(Candidate {
            change: c,
            screen: s,
            games: Games::default(),
            cards,
            status: String::new(),
            est: None,
            per_matchup: 0,
        });
    }
    Ok(rows)
}

/// The race: games per matchup doubling from stage to stage; a change shown to widen the spread
/// is dropped, the better half goes on. Returns the unchanged cards' games, the changes still in
/// the race (best first) and the games played.
fn race<G: GameDef>(
    plan: &Plan<G>,
    rows: &mut [Candidate<G::Cards>],
    clock: Instant,
    sink: &dyn Sink,
) -> Result<(Games, Vec<usize>, u64)> {
    let mut base = Games::default();
    let mut alive: Vec<usize> = (0..rows.len()).collect();
    let (mut from, mut to, mut stage, mut played) = (0, plan.games, 0u64, 0);
    loop {
        played += play_stage(plan, rows, &alive, &mut base, from, to, sink)?;
        for &i in &alive {
            let est = bootstrap(
                plan.n(),
                &base,
                &rows[i].games,
                REPS,
                plan.seed ^ (stage + 1),
            );
            rows[i].est = Some(est);
        }
        let before = alive.len();
        cull(rows, &mut alive, to);
        let lead = alive.first().map(|&i| {
            format!(
                "; best {} (spread −{:.1} pts)",
                describe::<G>(plan.cards, &rows[i].change),
                100.0 * rows[i].est.unwrap()[2].value
            )
        });
        sink.note(&format!(
            "stage {stage}: {to} games a matchup; {} of {before} changes go on{} · {:.0}s",
            alive.len(),
            lead.unwrap_or_default(),
            clock.elapsed().as_secs_f64()
        ));
        let out_of_time = plan.budget.is_some_and(|b| clock.elapsed() >= b);
        if alive.len() <= 1 || 2 * to > plan.max_games || out_of_time {
            if out_of_time {
                sink.note("--budget is spent: the race stops here");
            }
            return Ok((base, alive, played));
        }
        let keep = alive.len().div_ceil(2);
        for &i in &alive[keep..] {
            rows[i].status = format!("halved out at {to} games a matchup");
        }
        alive.truncate(keep);
        from = to;
        to *= 2;
        stage += 1;
    }
}

/// Plays games `from..to` of every matchup with the unchanged cards and each change in `alive`,
/// adding them to `base` and to the changes' games. Returns the games played.
fn play_stage<G: GameDef>(
    plan: &Plan<G>,
    rows: &mut [Candidate<G::Cards>],
    alive: &[usize],
    base: &mut Games,
    from: u64,
    to: u64,
    sink: &dyn Sink,
) -> Result<u64> {
    let owned: Vec<G::Cards> = alive.iter().map(|&i| rows[i].cards.clone()).collect();
    let mut variants: Vec<&G::Cards> = vec![plan.cards];
    variants.extend(owned.iter());
    let mut into = vec![Games::default(); variants.len()];
    into[0] = std::mem::take(base);
    for (k, &i) in alive.iter().enumerate() {
        into[k + 1] = std::mem::take(&mut rows[i].games);
    }
    let games = (to - from) * (plan.n() * (plan.n() - 1)) as u64 * variants.len() as u64;
    sink.begin(games);
    plan.matrix()
        .play(&variants, 0, from, to, &mut into, &|k| sink.games(k));
    sink.end();
    sink.after_games("nothing was written")?;
    *base = std::mem::take(&mut into[0]);
    for (k, &i) in alive.iter().enumerate() {
        rows[i].games = std::mem::take(&mut into[k + 1]);
        rows[i].per_matchup = to;
    }
    Ok(games)
}

/// Drops the changes of `alive` shown to widen the spread (at `to` games a matchup), and sorts
/// the others best first (the largest reduction; then the screening's order).
fn cull<C>(rows: &mut [Candidate<C>], alive: &mut Vec<usize>, to: u64) {
    for &i in alive.iter() {
        if rows[i].est.expect("estimated")[2].hi < 0.0 {
            rows[i].status = format!("dropped at {to} games a matchup: shown to widen the spread");
        }
    }
    alive.retain(|&i| rows[i].status.is_empty());
    alive.sort_by(|&a, &b| {
        let (x, y) = (rows[a].est.unwrap()[2].value, rows[b].est.unwrap()[2].value);
        y.total_cmp(&x).then(a.cmp(&b))
    });
}

/// The best change measured again with the unchanged cards on fresh deals.
fn remeasure<G: GameDef>(
    plan: &Plan<G>,
    best: &Candidate<G::Cards>,
    sink: &dyn Sink,
) -> Result<Fresh> {
    let mut into = vec![Games::default(), Games::default()];
    let matchups = (plan.n() * (plan.n() - 1)) as u64;
    sink.begin(plan.check_games * matchups * 2);
    plan.matrix().play(
        &[plan.cards, &best.cards],
        FRESH_ROUND,
        0,
        plan.check_games,
        &mut into,
        &|k| sink.games(k),
    );
    sink.end();
    sink.after_games("nothing was written")?;
    let est = bootstrap(plan.n(), &into[0], &into[1], REPS, plan.seed ^ 0xf5e5);
    let after = into.pop().expect("two");
    let before = into.pop().expect("two");
    let (patched, _) = apply::<G>(plan.text, plan.cards, &best.change, &plan.file)?;
    Ok(Fresh {
        before,
        after,
        est,
        patched,
    })
}
