//! Card rankings by win contribution (method and biases: `docs/statistics.md`).
//!
//! - From self-play records, per card of the studied deck: the win rate in games where a copy was
//!   drawn (GIH WR), where none was seen (GNS WR), and their difference (IWD) — 17lands'
//!   definitions, adapted to simulated games — with how the agent used the card.
//! - By ablation: one copy of the card replaced by a neutral filler, played on the same deals
//!   against the same gauntlet; the paired change in win rate is the causal measure.
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

/// The set bits of a mask, lowest first.
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let k = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            k
        })
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
            for k in Bits64(open) {
                self.rec.first_turn[k] = 0;
            }
            self.timed = open;
        }
        let new = out & !self.timed;
        if new != 0 {
            let turn = game.turn(s).min(u32::from(NEVER) - 1) as u8;
            for k in Bits64(new) {
                self.rec.first_turn[k] = turn;
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
    let jobs: Vec<(usize, u64)> = (0..gauntlet.len())
        .flat_map(|o| (0..games).map(move |k| (o, k)))
        .collect();
    jobs.par_iter()
        .map(|&(o, k)| {
            let g = &gauntlet[o];
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

/// Whether two measures of a card agree on its sign: `yes` when their verdicts are the same,
/// `no` when one is clearly positive and the other clearly negative, `partly` when one is clear
/// and the other is not; empty when either is missing.
pub fn agreement(a: Option<char>, b: Option<char>) -> &'static str {
    match (a, b) {
        (Some(x), Some(y)) if x == y => "yes",
        (Some('+'), Some('-')) | (Some('-'), Some('+')) => "no",
        (Some(_), Some(_)) => "partly",
        _ => "",
    }
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
    pub iwd: (f64, f64, f64),
    /// The ablation value and its paired 95% interval (`None` without ablation).
    pub abl: Option<(f64, f64, f64)>,
}

impl CardRow {
    /// The ranking key: the ablation value, or IWD without ablation.
    pub fn key(&self) -> f64 {
        self.abl.map_or(self.iwd.0, |a| a.0)
    }

    /// Whether ablation and IWD agree on the card's sign (empty without ablation).
    pub fn agree(&self) -> &'static str {
        let abl = self.abl.and_then(|(_, lo, hi)| verdict(lo, hi));
        agreement(abl, verdict(self.iwd.1, self.iwd.2))
    }

    /// `rarely played` ([`Usage::rarely_played`]) or empty.
    pub fn flag(&self) -> &'static str {
        if self.usage.rarely_played() {
            "rarely played"
        } else {
            ""
        }
    }
}

/// A deck's cards ranked: best first, a card without a value (IWD of a card drawn in every game)
/// last; with the deck's games and win rate in the baseline run.
pub struct Ranking {
    pub rows: Vec<CardRow>,
    pub games: u64,
    pub win_rate: f64,
}

/// Ranks the cards of `deck` against `opponents` (`games` games against each): drawn/not-seen
/// statistics from the baseline run, and with `ablation` one run per distinct card with one copy
/// replaced by the game's filler, on the same deals. `progress` sees each finished game.
#[allow(clippy::too_many_arguments)]
pub fn rank_deck<G: crate::core::GameDef>(
    cards: &mut G::Cards,
    deck: &G::Deck,
    opponents: &[&G::Deck],
    spec: &Entrant,
    games: u64,
    seed: u64,
    ablation: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> crate::core::Result<Ranking> {
    let ids: Vec<(u32, usize)> = G::deck_cards(deck);
    let index = CardIndex::new(&ids.iter().map(|&(i, _)| i).collect::<Vec<_>>())?;
    let matches = |cards: &G::Cards, d: &G::Deck| -> Vec<G> {
        opponents
            .iter()
            .map(|o| G::new_match(cards, [d, o]))
            .collect()
    };
    let base = play_records(&matches(cards, deck), &index, spec, games, seed, progress);
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
        let abl = if ablation {
            let variant = G::ablate(cards, deck, id);
            let recs = play_records(
                &matches(cards, &variant),
                &index,
                spec,
                games,
                seed,
                progress,
            );
            // Value of the card: baseline minus the deck without one copy, same deals.
            Some(paired_difference(&base, &recs))
        } else {
            None
        };
        rows.push(CardRow {
            id,
            copies,
            gih,
            gns,
            usage: Usage::of(k, &base),
            iwd,
            abl,
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

/// The games [`rank_deck`] plays for `deck`: `games` against each of `opponents` opponents, once
/// for the deck and, with `ablation`, once more per distinct card.
pub fn deck_games<G: crate::core::GameDef>(
    deck: &G::Deck,
    ablation: bool,
    games: u64,
    opponents: usize,
) -> u64 {
    let distinct = G::deck_cards(deck).len() as u64;
    let runs = 1 + if ablation { distinct } else { 0 };
    runs * games * opponents as u64
}
