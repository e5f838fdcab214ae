//! Card rankings by win contribution (method and biases: `docs/statistics.md`).
//!
//! - From self-play records, per card of the studied deck: the win rate in games where a copy was
//!   drawn (GIH WR), where none was seen (GNS WR), and their difference (IWD) — 17lands'
//!   definitions, adapted to simulated games — with how the agent used the card.
//! - By ablation, the causal measures: one copy of the card replaced, on the same deals against
//!   the same gauntlet, and the paired change in win rate. *Value over replacement* replaces it by
//!   a typical legal card of the pool of its type and cost ([`replacements`]): what a designer
//!   would otherwise put there; the *blank-filler* ablation by the game's neutral filler: what
//!   the card adds over nothing. Per opponent, the same differences say whether a card is
//!   situational ([`situational`]).
//!
//! Everything here speaks card ids (indices into the game's card list), which the game reports
//! through [`Game::cards_out_of_deck`], [`Game::cards_in_hand`] and [`Game::card_use`]; instance
//! numbers never leave the game.

use super::play_game_to_end;
use super::Entrant;
use crate::core::{CardUse, Game, Seat};
use rayon::prelude::*;

/// The most distinct cards a studied deck may have (one bit each in a [`Record`]).
pub const MAX_DISTINCT: usize = 64;

/// [`Record::first_turn`] of a card no copy of which left the deck after setup.
pub const NEVER: u8 = u8::MAX;

/// One game of the studied deck (seat P1): for each of its distinct cards (bit `k` for the `k`-th
/// card of the [`CardIndex`]), whether a copy was drawn (left the deck: drawn into the hand,
/// including the opening hand and mulligans, or taken from the deck into a resource zone), played,
/// put into a resource zone, and still in hand when the game ended; and the deck's score.
/// With when the cards were drawn (`sim::draws`): which were in the opening hand, the turn each
/// first left the deck after setup, and the game's last turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    pub drawn: u64,
    pub played: u64,
    pub resource: u64,
    pub in_hand: u64,
    pub score: f64,
    /// The opening hand ([`Game::opening_hand`]: the cards out of the deck once the seat's
    /// mulligan or redraw is done, before any draw of play). Empty when the game ended before
    /// (a forfeit during setup).
    pub opening: u64,
    /// `first_turn[k]`: 0 for a card of the opening hand; else the turn ([`Game::turn`], at most
    /// 254) of the first position, from the one in which the opening hand was known on, in which
    /// a copy was out of the deck;
    /// [`NEVER`] when none was.
    pub first_turn: [u8; MAX_DISTINCT],
    /// The turn of the final position ([`Game::turn`]).
    pub turns: u32,
}

impl Default for Record {
    /// No card drawn, a score of 0, turn 0.
    fn default() -> Self {
        Record {
            drawn: 0,
            played: 0,
            resource: 0,
            in_hand: 0,
            score: 0.0,
            opening: 0,
            first_turn: [NEVER; MAX_DISTINCT],
            turns: 0,
        }
    }
}

/// The studied deck's distinct cards, in order, and the bit of each card id.
#[derive(Clone, Debug)]
pub struct CardIndex {
    ids: Vec<u32>,
    /// `bit_of[id]`: the card's position among `ids`, or `u8::MAX` for a card not in the deck.
    bit_of: Vec<u8>,
}

impl CardIndex {
    /// The index of `ids`, distinct card ids (at most [`MAX_DISTINCT`]).
    pub fn new(ids: &[u32]) -> crate::core::Result<CardIndex> {
        if ids.len() > MAX_DISTINCT {
            return Err(crate::core::Error::usage(format!(
                "{} distinct cards; card statistics handle at most {MAX_DISTINCT}",
                ids.len()
            )));
        }
        let top = ids.iter().max().map_or(0, |&m| m as usize + 1);
        let mut bit_of = vec![u8::MAX; top];
        for (k, &id) in ids.iter().enumerate() {
            if bit_of[id as usize] != u8::MAX {
                return Err(crate::core::Error::usage(format!(
                    "card id {id} is listed twice"
                )));
            }
            bit_of[id as usize] = k as u8;
        }
        Ok(CardIndex {
            ids: ids.to_vec(),
            bit_of,
        })
    }

    /// The distinct cards, in bit order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The bit of card `id` (0 for a card not in the deck).
    #[inline]
    pub fn bit(&self, id: u32) -> u64 {
        match self.bit_of.get(id as usize) {
            Some(&k) if k != u8::MAX => 1u64 << k,
            _ => 0,
        }
    }
}

/// Builds the [`Record`] of one game of seat `seat` from what the game reports as it goes.
pub struct Tracker<'a> {
    index: &'a CardIndex,
    seat: Seat,
    rec: Record,
    /// Whether the opening position has been seen ([`Record::opening`]).
    opened: bool,
    /// The cards whose [`Record::first_turn`] is set.
    timed: u64,
}

impl<'a> Tracker<'a> {
    /// Starts from the game's first position (the opening hand is drawn).
    pub fn new<G: Game>(game: &G, index: &'a CardIndex, seat: Seat, start: &G::State) -> Self {
        let mut t = Tracker {
            index,
            seat,
            rec: Record::default(),
            opened: false,
            timed: 0,
        };
        t.see(game, start);
        t
    }

    fn see<G: Game>(&mut self, game: &G, s: &G::State) {
        let index = self.index;
        let mut out = 0u64;
        game.cards_out_of_deck(s, self.seat, &mut |id| out |= index.bit(id));
        self.rec.drawn |= out;
        if !self.opened {
            let mut open = 0u64;
            if !game.opening_hand(s, self.seat, &mut |id| open |= index.bit(id)) {
                return;
            }
            self.opened = true;
            self.rec.opening = open;
            for k in crate::core::Bits(open) {
                self.rec.first_turn[usize::from(k)] = 0;
            }
            self.timed = open;
        }
        let new = out & !self.timed;
        if new != 0 {
            let turn = game.turn(s).min(u32::from(NEVER) - 1) as u8;
            for k in crate::core::Bits(new) {
                self.rec.first_turn[usize::from(k)] = turn;
            }
            self.timed |= new;
        }
    }

    /// One action of `by` from `before`, reaching `after`.
    pub fn observe<G: Game>(
        &mut self,
        game: &G,
        before: &G::State,
        by: Seat,
        action: G::Action,
        after: &G::State,
    ) {
        if by == self.seat {
            match game.card_use(before, action) {
                Some((id, CardUse::Played)) => self.rec.played |= self.index.bit(id),
                Some((id, CardUse::Resource)) => self.rec.resource |= self.index.bit(id),
                None => {}
            }
        }
        self.see(game, after);
    }

    /// The record, from the final state and the seat's score.
    pub fn finish<G: Game>(mut self, game: &G, end: &G::State, score: f64) -> Record {
        let (index, in_hand) = (self.index, &mut self.rec.in_hand);
        game.cards_in_hand(end, self.seat, &mut |id| *in_hand |= index.bit(id));
        self.rec.score = score;
        self.rec.turns = game.turn(end);
        self.rec
    }
}

/// Game `k` against gauntlet deck `o` (`sim::schedule`: its own deal, keyed by the opponent's
/// index; the studied deck, side A, has the turn-1 initiative on even games).
pub fn deal(seed: u64, o: usize, k: u64) -> super::schedule::Deal {
    super::schedule::deal(seed, &[o as u64], k, false)
}

/// Plays `games` games of the studied deck (seat P1 of each game of `gauntlet`) against each
/// opponent, each game a deal of its own ([`deal`]); the initiative alternates. Returns one
/// record per game, in a fixed order (opponent, then game).
pub fn play_records<G: crate::core::GameDef>(
    gauntlet: &[G],
    index: &CardIndex,
    spec: &Entrant,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Record> {
    play_records_with(
        gauntlet.len(),
        &|o, _| &gauntlet[o],
        index,
        spec,
        games,
        seed,
        progress,
    )
}

/// [`play_records`] where game `k` against opponent `o` is played in the match `match_of(o, k)`
/// (value over replacement: the studied deck with the replacement card of deal `k`), on the same
/// deals.
pub fn play_records_with<'g, G: crate::core::GameDef>(
    opponents: usize,
    match_of: &(dyn Fn(usize, u64) -> &'g G + Sync),
    index: &CardIndex,
    spec: &Entrant,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Record> {
    let jobs: Vec<(usize, u64)> = (0..opponents)
        .flat_map(|o| (0..games).map(move |k| (o, k)))
        .collect();
    jobs.par_iter()
        .map(|&(o, k)| {
            let g = match_of(o, k);
            let d = deal(seed, o, k);
            let (game_seed, first) = (d.seed, d.first);
            let mut a = spec.build::<G>(d.agent_seeds[0]);
            let mut b = spec.build::<G>(d.agent_seeds[1]);
            let mut tracker: Option<Tracker> = None;
            let (rec, end) = play_game_to_end(
                g,
                game_seed,
                first,
                [a.as_mut(), b.as_mut()],
                |before, by, action, after| {
                    tracker
                        .get_or_insert_with(|| Tracker::new(g, index, Seat::P1, before))
                        .observe(g, before, by, action, after);
                },
            );
            progress(1);
            let score = rec.outcome.score(Seat::P1);
            let t = tracker.unwrap_or_else(|| Tracker::new(g, index, Seat::P1, &end));
            t.finish(g, &end, score)
        })
        .collect()
}

/// Score sums for a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    pub score: f64,
}

impl Tally {
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            f64::NAN
        } else {
            self.score / self.games as f64
        }
    }

    pub fn interval(&self) -> (f64, f64) {
        crate::stats::wilson(self.score, self.games as f64, crate::stats::Z95)
    }
}

/// GIH and GNS tallies of the `k`-th distinct card over the records.
pub fn drawn_tallies(k: usize, records: &[Record]) -> (Tally, Tally) {
    let mask = 1u64 << k;
    let mut gih = Tally::default();
    let mut gns = Tally::default();
    for r in records {
        let t = if r.drawn & mask != 0 {
            &mut gih
        } else {
            &mut gns
        };
        t.games += 1;
        t.score += r.score;
    }
    (gih, gns)
}

/// How the agent used the `k`-th distinct card, over the games in which it was drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// Games in which a copy was drawn.
    pub drawn: u64,
    /// Of those, games in which a copy was played, put into a resource zone, or still in hand at
    /// the end.
    pub played: u64,
    pub resource: u64,
    pub in_hand: u64,
}

impl Usage {
    /// The usage of the `k`-th distinct card over the records.
    pub fn of(k: usize, records: &[Record]) -> Usage {
        let mask = 1u64 << k;
        let mut u = Usage::default();
        for r in records.iter().filter(|r| r.drawn & mask != 0) {
            u.drawn += 1;
            u.played += u64::from(r.played & mask != 0);
            u.resource += u64::from(r.resource & mask != 0);
            u.in_hand += u64::from(r.in_hand & mask != 0);
        }
        u
    }

    /// `n` as a fraction of the games in which the card was drawn (NaN when never drawn).
    pub fn rate(&self, n: u64) -> f64 {
        if self.drawn == 0 {
            f64::NAN
        } else {
            n as f64 / self.drawn as f64
        }
    }

    /// Whether the agent (almost) never plays the card: drawn in at least 20 games, played in
    /// under 5% of them. Its ablation value then measures it only as a resource, as the filler.
    pub fn rarely_played(&self) -> bool {
        self.drawn >= 20 && (self.played as f64) < 0.05 * self.drawn as f64
    }
}

/// The paired difference of two runs on the same deals: mean of `a − b` and its 95% normal
/// interval from the standard error of the per-deal differences.
pub fn paired_difference(a: &[Record], b: &[Record]) -> (f64, f64, f64) {
    assert_eq!(a.len(), b.len());
    let n = a.len() as f64;
    if a.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x.score - y.score).collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = if a.len() > 1 {
        d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = crate::stats::Z95 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

/// The quantile of Student's t with 7 degrees of freedom at 0.975 (tables: 2.364624): the
/// interval of value over replacement when its replacements are [`MAX_REPLACEMENTS`] = 8 cards
/// drawn from a larger tier.
pub const T7_975: f64 = 2.364_624;

/// Value over replacement from the deck's records `a` and the replaced deck's `b` (the same
/// deals, in the order opponent, then game, `games` games per opponent), deal `k` played with
/// the `k mod n`-th of `n` replacements drawn from a tier of `tier` cards: the mean paired
/// difference and its 95% interval by two-stage sampling (W. G. Cochran, *Sampling Techniques*,
/// 3rd ed., 1977, §10.2 and §11.8, eq. 10.19): replacements (the first stage, a fraction
/// `f = n/tier` of the tier), then deals. Its variance is `(1 − f)·s_b²/n + f·W`: `s_b²` the
/// variance between the replacements' mean differences (which carries the deals' noise too),
/// `W = Σ_r (m_r/M)²·s_r²/m_r` the deals' variance within each replacement (`m_r` of the `M`
/// deals played with replacement `r`). With the whole tier (`f = 1`)
/// the first term vanishes: the value is that of the tier's cards, an average over fixed strata,
/// with a normal interval; with a sample of it, the first term counts which cards were drawn, and
/// the interval takes Student's t with `n − 1` degrees of freedom ([`T7_975`]).
pub fn replacement_difference(
    a: &[Record],
    b: &[Record],
    games: u64,
    n: usize,
    tier: usize,
) -> Interval {
    assert_eq!(a.len(), b.len());
    if a.is_empty() || n == 0 || games == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    // Per replacement: deals, the sum of differences and of their squares.
    let mut m = vec![0f64; n];
    let mut sum = vec![0f64; n];
    let mut sq = vec![0f64; n];
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let r = ((i as u64 % games) % n as u64) as usize;
        let d = x.score - y.score;
        m[r] += 1.0;
        sum[r] += d;
        sq[r] += d * d;
    }
    let total: f64 = m.iter().sum();
    let mean = sum.iter().sum::<f64>() / total;
    let mut within = 0.0;
    let mut means = Vec::with_capacity(n);
    for r in 0..n {
        if m[r] == 0.0 {
            continue;
        }
        let mr = sum[r] / m[r];
        means.push(mr);
        if m[r] > 1.0 {
            let s2 = ((sq[r] - m[r] * mr * mr) / (m[r] - 1.0)).max(0.0);
            within += (m[r] / total).powi(2) * s2 / m[r];
        }
    }
    let f = n as f64 / tier.max(n) as f64;
    let (between, z) = if f < 1.0 && means.len() > 1 {
        let k = means.len() as f64;
        let mb = means.iter().sum::<f64>() / k;
        let sb2 = means.iter().map(|x| (x - mb) * (x - mb)).sum::<f64>() / (k - 1.0);
        let z = if means.len() == MAX_REPLACEMENTS {
            T7_975
        } else {
            crate::stats::Z95
        };
        ((1.0 - f) * sb2 / k, z)
    } else {
        (0.0, crate::stats::Z95)
    };
    let half = z * (between + f * within).sqrt();
    (mean, mean - half, mean + half)
}

/// What a 95% interval says about the sign of an effect: `+` above zero, `-` below, `0` either.
pub fn verdict(lo: f64, hi: f64) -> Option<char> {
    if lo.is_nan() || hi.is_nan() {
        None
    } else if lo > 0.0 {
        Some('+')
    } else if hi < 0.0 {
        Some('-')
    } else {
        Some('0')
    }
}

/// Whether two measures of a card agree, read from their 95% intervals ([`verdict`]): `yes` when
/// both intervals lie on the same side of zero or both contain it, `no` when one lies above zero
/// and the other below, `partly` when one is clear and the other contains zero; empty when
/// either is missing.
pub fn agreement(a: Option<char>, b: Option<char>) -> &'static str {
    match (a, b) {
        (Some(x), Some(y)) if x == y => "yes",
        (Some('+'), Some('-')) | (Some('-'), Some('+')) => "no",
        (Some(_), Some(_)) => "partly",
        _ => "",
    }
}

/// What a card is measured against by ablation (`docs/statistics.md`, "Ablation").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versus {
    /// Value over replacement: a copy replaced by a typical legal card of the pool
    /// ([`replacements`]).
    pub typical: bool,
    /// The blank-filler ablation: a copy replaced by the game's neutral filler.
    pub blank: bool,
}

impl Versus {
    /// No ablation: drawn / not-seen statistics only.
    pub const NONE: Versus = Versus {
        typical: false,
        blank: false,
    };
    /// Both ablations.
    pub const BOTH: Versus = Versus {
        typical: true,
        blank: true,
    };

    /// The ablation runs per distinct card.
    pub fn runs(self) -> u64 {
        u64::from(self.typical) + u64::from(self.blank)
    }
}

/// The most replacement cards value over replacement samples for one card.
pub const MAX_REPLACEMENTS: usize = 8;

/// How like the card they replace a card's replacements are (the first of these that has a
/// legal card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Likeness {
    /// The same type (and kind), cost (or the game's number, [`GameDef::card_class`]) within one.
    TypeAndCost,
    /// The same type, any cost.
    Type,
    /// Any legal card of the pool (no card of its type is legal, or the game has no classes).
    Any,
}

impl Likeness {
    /// The words `cards.csv` and the summary use.
    pub fn text(self) -> &'static str {
        match self {
            Likeness::TypeAndCost => "same type and cost",
            Likeness::Type => "same type",
            Likeness::Any => "any legal card",
        }
    }
}

/// The cards that stand in for a card in value over replacement, and how like it they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacements {
    /// Card ids, ascending; deal `k` uses `ids[k % ids.len()]`.
    pub ids: Vec<u32>,
    pub likeness: Likeness,
    /// The cards of the tier `ids` were drawn from (`ids.len()` when all of them are used).
    pub tier: usize,
}

/// The replacements of one copy of card `id` of `deck`: the cards of `pool` (the card file's)
/// other than `id` that may take its place in a legal deck ([`crate::sim::tune::swap`]: every
/// format rule), the likest tier of them ([`Likeness`]), and of that tier at most
/// [`MAX_REPLACEMENTS`], drawn without replacement from a seed of `seed` and the card. `None`
/// when no card of the pool may take its place (a sealed deck: no card may be added).
pub fn replacements<G: crate::core::GameDef>(
    cards: &G::Cards,
    deck: &G::Deck,
    id: u32,
    pool: &[u32],
    seed: u64,
) -> Option<Replacements> {
    use crate::sim::tune::{swap, Swap};
    let legal: Vec<u32> = pool
        .iter()
        .copied()
        .filter(|&add| {
            add != id
                && swap::<G>(
                    cards,
                    deck,
                    Swap {
                        remove: id,
                        add,
                        copies: 1,
                    },
                )
                .is_ok()
        })
        .collect();
    if legal.is_empty() {
        return None;
    }
    let class = G::card_class(cards, id);
    let like = |y: u32, cost: bool| match (class, G::card_class(cards, y)) {
        (Some((l, c)), Some((m, d))) => l == m && (!cost || (c - d).abs() <= 1),
        _ => false,
    };
    let tier =
        |cost: bool| -> Vec<u32> { legal.iter().copied().filter(|&y| like(y, cost)).collect() };
    let (mut ids, likeness) = match (tier(true), tier(false)) {
        (t, _) if !t.is_empty() => (t, Likeness::TypeAndCost),
        (_, t) if !t.is_empty() => (t, Likeness::Type),
        _ => (legal, Likeness::Any),
    };
    let tier = ids.len();
    if ids.len() > MAX_REPLACEMENTS {
        // A partial Fisher–Yates shuffle: the first MAX_REPLACEMENTS of a uniform permutation.
        let mut rng = crate::core::rng_from_seed(crate::core::mix_seed(&[
            seed,
            0x564f_5220, // "VOR "
            u64::from(id),
        ]));
        for i in 0..MAX_REPLACEMENTS {
            let j = rand::Rng::gen_range(&mut rng, i..ids.len());
            ids.swap(i, j);
        }
        ids.truncate(MAX_REPLACEMENTS);
    }
    ids.sort_unstable();
    Some(Replacements {
        ids,
        likeness,
        tier,
    })
}

/// One measured difference: the value and its 95% interval.
pub type Interval = (f64, f64, f64);

/// Whether a card is *situational*: strong in some matchups, weak in others. `by_opponent` holds
/// its value against each opponent (paired differences with 95% normal intervals, [`paired_difference`]).
/// It is when its best matchup's interval lies above zero (strong there), its worst matchup's
/// does not (not shown to be strong there: a card strong everywhere, more so against some, is not
/// situational), and the best and the worst matchups differ by more than chance allows: the interval of their difference, `z` from a Bonferroni
/// correction over the m(m−1)/2 pairs of matchups (two-sided 5% in all), excludes zero. Never with
/// fewer than two opponents.
pub fn situational(by_opponent: &[Interval]) -> bool {
    let m = by_opponent.len();
    if m < 2 || by_opponent.iter().any(|v| v.0.is_nan() || v.1.is_nan()) {
        return false;
    }
    let by = |a: &&Interval, b: &&Interval| a.0.total_cmp(&b.0);
    let best = by_opponent.iter().max_by(by).expect("two matchups");
    let worst = by_opponent.iter().min_by(by).expect("two matchups");
    let se = |v: &Interval| (v.2 - v.1) / (2.0 * crate::stats::Z95);
    if by_opponent.iter().any(|v| se(v) <= 0.0) {
        // An interval of width 0 (a few games that all went alike) says nothing of the spread.
        return false;
    }
    let pairs = (m * (m - 1) / 2) as f64;
    let z = crate::stats::normal_quantile(1.0 - 0.025 / pairs);
    let gap = best.0 - worst.0;
    let strong_somewhere = best.1 > 0.0;
    let weak_elsewhere = worst.1 <= 0.0;
    strong_somewhere
        && weak_elsewhere
        && gap - z * (se(best).powi(2) + se(worst).powi(2)).sqrt() > 0.0
}

/// One card's figures in a deck's ranking.
#[derive(Clone, Debug)]
pub struct CardRow {
    /// The card's id.
    pub id: u32,
    pub copies: usize,
    pub gih: Tally,
    pub gns: Tally,
    pub usage: Usage,
    /// IWD and its 95% Newcombe interval.
    pub iwd: Interval,
    /// Games with a copy in the opening hand (OH) and drawn later (GD), and the landmark IWD
    /// (`sim::draws`).
    pub oh: Tally,
    pub gd: Tally,
    pub liwd: Interval,
    /// The blank-filler ablation value and its paired 95% interval (`None` when not measured).
    pub abl: Option<Interval>,
    /// Value over replacement and its paired 95% interval (`None` when not measured; NaN when no
    /// card may replace it), with the replacement cards.
    pub vor: Option<Interval>,
    pub replacements: Option<Replacements>,
    /// The ranking measure ([`CardRow::measure`]) against each opponent, in gauntlet order
    /// (empty without ablation).
    pub by_opponent: Vec<Interval>,
}

impl CardRow {
    /// The measure the ranking is by: value over replacement where it was measured, else the
    /// blank-filler ablation, else the landmark IWD (free of IWD's length bias).
    pub fn measure(&self) -> Interval {
        self.ablation().unwrap_or(self.liwd)
    }

    /// The ablation measure ([`ablation_measure`]).
    pub fn ablation(&self) -> Option<Interval> {
        ablation_measure(self.vor, self.abl)
    }

    /// The ranking key ([`CardRow::measure`]'s value).
    pub fn key(&self) -> f64 {
        self.measure().0
    }

    /// Whether the ablation measure and the landmark IWD agree, by their intervals
    /// ([`agreement`]; empty without ablation). The landmark IWD, not IWD: IWD's length bias
    /// makes it negative for most cards of a deck that wins fast, which would set it against
    /// every helpful card.
    pub fn agree(&self) -> &'static str {
        match self.ablation() {
            Some((_, lo, hi)) => agreement(verdict(lo, hi), verdict(self.liwd.1, self.liwd.2)),
            None => "",
        }
    }

    /// Whether the card is situational ([`situational`]).
    pub fn situational(&self) -> bool {
        situational(&self.by_opponent)
    }

    /// The flags a designer can act on, `; `-separated, in this order: `no better than
    /// replacement` (value over replacement's interval lies below zero: a typical card of its
    /// type and cost would win more), `situational` ([`situational`]), `rarely played`
    /// ([`Usage::rarely_played`]); empty when none applies.
    pub fn flag(&self) -> String {
        let mut f: Vec<&str> = Vec::new();
        if self.vor.is_some_and(worse_than_replacement) {
            f.push(FLAG_WORSE);
        }
        if self.situational() {
            f.push(FLAG_SITUATIONAL);
        }
        if self.usage.rarely_played() {
            f.push(FLAG_RARELY);
        }
        f.join("; ")
    }
}

/// A card's ablation measure: value over replacement where it was measured (a card with
/// replacements), else the blank-filler ablation; `None` without either.
pub fn ablation_measure(vor: Option<Interval>, blank: Option<Interval>) -> Option<Interval> {
    match (vor, blank) {
        (Some(v), _) if !v.0.is_nan() => Some(v),
        (_, a) => a,
    }
}

/// Whether value over replacement says a card is worse than its replacements: its interval lies
/// below zero and has a width (an interval of width 0, from a few games that all went alike, says
/// nothing).
pub fn worse_than_replacement(v: Interval) -> bool {
    v.2 < 0.0 && v.2 > v.1
}

/// The flags of [`CardRow::flag`].
pub const FLAG_WORSE: &str = "no better than replacement";
pub const FLAG_SITUATIONAL: &str = "situational";
pub const FLAG_RARELY: &str = "rarely played";

/// A deck's cards ranked: best first, a card without a value (IWD of a card drawn in every game)
/// last; with the deck's games and win rate in the baseline run.
pub struct Ranking {
    pub rows: Vec<CardRow>,
    pub games: u64,
    pub win_rate: f64,
}

/// What [`rank_deck`] ranks: a deck, its opponents, the agent of both seats, the games against
/// each opponent, the master seed, the ablations, and the cards replacements are drawn from.
pub struct RankPlan<'a, G: crate::core::GameDef> {
    pub deck: &'a G::Deck,
    pub opponents: &'a [&'a G::Deck],
    pub spec: &'a Entrant,
    pub games: u64,
    pub seed: u64,
    pub versus: Versus,
    /// The card file's cards, taken before any filler was added to the cards
    /// ([`crate::sim::tune::pool`]).
    pub pool: &'a [u32],
}

/// Per opponent (records in the order opponent, then game; `games` each), the paired difference
/// of `a` and `b`.
fn per_opponent(a: &[Record], b: &[Record], games: u64) -> Vec<Interval> {
    let g = games.max(1) as usize;
    a.chunks(g)
        .zip(b.chunks(g))
        .map(|(x, y)| paired_difference(x, y))
        .collect()
}

/// Ranks the cards of the plan's deck: drawn/not-seen statistics from the baseline run, and per
/// distinct card the ablations of [`Versus`] on the same deals — value over replacement (deal `k`
/// with one copy replaced by the card's `k`-th replacement, cyclically) and the blank filler.
/// `progress` sees each finished game.
pub fn rank_deck<G: crate::core::GameDef>(
    cards: &mut G::Cards,
    plan: &RankPlan<G>,
    progress: &(dyn Fn(u64) + Sync),
) -> crate::core::Result<Ranking> {
    let (deck, games, seed) = (plan.deck, plan.games, plan.seed);
    let ids: Vec<(u32, usize)> = G::deck_cards(deck);
    let index = CardIndex::new(&ids.iter().map(|&(i, _)| i).collect::<Vec<_>>())?;
    // Replacements first: the blank filler may add a card to `cards`.
    let subs: Vec<Option<Replacements>> = if plan.versus.typical {
        ids.iter()
            .map(|&(id, _)| replacements::<G>(cards, deck, id, plan.pool, seed))
            .collect()
    } else {
        vec![None; ids.len()]
    };
    let matches = |cards: &G::Cards, d: &G::Deck| -> Vec<G> {
        plan.opponents
            .iter()
            .map(|o| G::new_match(cards, [d, o]))
            .collect()
    };
    let n_opp = plan.opponents.len();
    let base = play_records(
        &matches(cards, deck),
        &index,
        plan.spec,
        games,
        seed,
        progress,
    );
    let mut rows = Vec::new();
    for (k, &(id, copies)) in ids.iter().enumerate() {
        let (gih, gns) = drawn_tallies(k, &base);
        let iwd = if gih.games > 0 && gns.games > 0 {
            crate::stats::newcombe_difference(
                gih.score,
                gih.games as f64,
                gns.score,
                gns.games as f64,
                crate::stats::Z95,
            )
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        };
        let mut by_opponent = Vec::new();
        let vor = if plan.versus.typical {
            Some(match &subs[k] {
                Some(r) => {
                    let sets: Vec<Vec<G>> = r
                        .ids
                        .iter()
                        .map(|&add| {
                            let d = G::replace(deck, id, add, 1).expect("a legal replacement");
                            matches(cards, &d)
                        })
                        .collect();
                    let recs = play_records_with(
                        n_opp,
                        &|o, k| &sets[(k % sets.len() as u64) as usize][o],
                        &index,
                        plan.spec,
                        games,
                        seed,
                        progress,
                    );
                    by_opponent = per_opponent(&base, &recs, games);
                    // Value of the card: the deck minus the deck with a typical card instead.
                    replacement_difference(&base, &recs, games, r.ids.len(), r.tier)
                }
                None => {
                    // No card may replace it: its games count as done ([`deck_games`]).
                    progress(games * n_opp as u64);
                    (f64::NAN, f64::NAN, f64::NAN)
                }
            })
        } else {
            None
        };
        let abl = if plan.versus.blank {
            let variant = G::ablate(cards, deck, id);
            let recs = play_records(
                &matches(cards, &variant),
                &index,
                plan.spec,
                games,
                seed,
                progress,
            );
            if by_opponent.is_empty() {
                by_opponent = per_opponent(&base, &recs, games);
            }
            // Value of the card: baseline minus the deck without one copy, same deals.
            Some(paired_difference(&base, &recs))
        } else {
            None
        };
        let (oh, gd) = super::draws::opening_tallies(k, &base);
        rows.push(CardRow {
            id,
            copies,
            gih,
            gns,
            usage: Usage::of(k, &base),
            iwd,
            oh,
            gd,
            liwd: super::draws::landmark_iwd(k, &base),
            abl,
            vor,
            replacements: subs[k].clone(),
            by_opponent,
        });
    }
    rows.sort_by(|a, b| {
        a.key()
            .is_nan()
            .cmp(&b.key().is_nan())
            .then(b.key().total_cmp(&a.key()))
            .then(a.id.cmp(&b.id))
    });
    let n = base.len() as u64;
    Ok(Ranking {
        rows,
        games: n,
        win_rate: base.iter().map(|r| r.score).sum::<f64>() / n.max(1) as f64,
    })
}

/// The opponents of `deck` in `gauntlet`: all of them, or, when the gauntlet is the game's
/// bundled decks (`skip_self`), all but the deck of the same name.
pub fn opponents<'a, G: crate::core::GameDef>(
    deck: &G::Deck,
    gauntlet: &'a [G::Deck],
    skip_self: bool,
) -> Vec<&'a G::Deck> {
    let name = G::deck_name(deck);
    gauntlet
        .iter()
        .filter(|g| !skip_self || G::deck_name(g) != name)
        .collect()
}

/// The games [`rank_deck`] counts for `plan` (its progress's total): `games` against each
/// opponent, once for the deck and once more per distinct card and ablation of [`Versus`] (a card
/// without replacements counts its value over replacement's games as done at once).
pub fn deck_games<G: crate::core::GameDef>(plan: &RankPlan<G>) -> u64 {
    let distinct = G::deck_cards(plan.deck).len() as u64;
    (1 + distinct * plan.versus.runs()) * plan.games * plan.opponents.len() as u64
}
