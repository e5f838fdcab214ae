//! **High Card**, a toy game of hidden information (rules: `docs/toy.md`, rule IDs `X-…`).
//!
//! It is here to prove the seams: it is the second game of the registry, so the command line, the
//! simulator and the generic conformance suite (`tests/suite/conformance.rs`) run on two games, and it is
//! small enough to read in one sitting as the model of a new game folder. Each player has an
//! 8-card deck of numbered cards and a hand of 3; a round's leader plays a card face down, the
//! other answers face up, the higher card scores a point. Hidden: hands, deck order, the card led
//! face down.

mod def;
mod observe;

use crate::core::hidden::{first_n, redeal};
use crate::core::{ActionList, CardUse, FixedVec, Game, GameRng, Outcome, Policy, Seat};

/// Cards in a deck (X-DECK-1).
pub const DECK_SIZE: usize = 8;
/// Cards in a hand after drawing (X-SETUP-1).
pub const HAND_SIZE: u32 = 3;

/// A card id: an index into the card file's list.
pub type CardId = u8;

/// The card database: names and values.
#[derive(Clone, Debug, Default)]
pub struct ToyCards {
    pub names: Vec<String>,
    pub values: Vec<u8>,
}

impl ToyCards {
    /// The card called `name` (case-insensitive).
    pub fn lookup(&self, name: &str) -> Option<CardId> {
        let want = name.trim().to_lowercase();
        self.names
            .iter()
            .position(|n| n.to_lowercase() == want)
            .map(|i| i as CardId)
    }
}

/// A validated deck: its name and its cards in file order.
#[derive(Clone, Debug)]
pub struct ToyDeck {
    pub name: String,
    pub cards: Vec<CardId>,
}

/// One player's cards: instance `i` is card `card[i]`; zones are bit masks over instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Player {
    pub card: [CardId; DECK_SIZE],
    /// Deck order of instances: `deck[deck_len - 1]` is the top.
    pub deck: [u8; DECK_SIZE],
    pub deck_len: u8,
    pub hand: u16,
    /// Cards of finished rounds, face up.
    pub used: u16,
    /// `known[s]`: instances whose card seat `s` knows.
    pub known: [u16; 2],
    pub points: u8,
}

/// The whole position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToyState {
    pub p: [Player; 2],
    /// The leader of the current round.
    pub leader: Seat,
    /// The leader's card, face down, once led.
    pub led: Option<u8>,
    pub round: u8,
    pub winner: Option<Outcome>,
}

/// Play the lowest-numbered instance in hand of this card (cards are named by id, so the same
/// action means the same in every determinization).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Play(pub CardId);

/// A match: the card database and both decks.
#[derive(Clone, Debug)]
pub struct ToyGame {
    pub cards: ToyCards,
    pub decks: [Vec<CardId>; 2],
}

fn bits(m: u16) -> impl Iterator<Item = u8> {
    (0..16u8).filter(move |i| m & (1 << i) != 0)
}

impl ToyGame {
    /// X-SETUP-1 with the decks in a given order: `decks[k]` is seat `k`'s deck from the top down.
    /// Instance `i` is the `i`-th card from the top (X-INFO-2: as the order is random, an instance
    /// number says nothing of its card). Three cards each are drawn; `first` leads.
    pub fn deal(&self, first: Seat, decks: [&[CardId]; 2]) -> ToyState {
        let mut s = ToyState {
            p: [Player::default(); 2],
            leader: first,
            led: None,
            round: 1,
            winner: None,
        };
        for q in Seat::ALL {
            let p = &mut s.p[q.index()];
            let deck = decks[q.index()];
            let n = deck.len();
            for (i, &c) in deck.iter().enumerate() {
                p.card[i] = c;
                // deck[n - 1] is the top: instance 0.
                p.deck[n - 1 - i] = i as u8;
            }
            p.deck_len = n as u8;
            for _ in 0..HAND_SIZE {
                Self::draw(&mut s, q);
            }
        }
        s
    }

    pub fn value(&self, id: CardId) -> u8 {
        self.cards.values[id as usize]
    }

    /// X-ROUND-3: a player draws the top card of its deck, if any.
    fn draw(s: &mut ToyState, q: Seat) {
        let p = &mut s.p[q.index()];
        if p.deck_len > 0 {
            p.deck_len -= 1;
            let i = p.deck[p.deck_len as usize];
            p.hand |= 1 << i;
            p.known[q.index()] |= 1 << i;
        }
    }

    /// The instance in `q`'s hand holding card `id`.
    fn instance(s: &ToyState, q: Seat, id: CardId) -> Option<u8> {
        let p = &s.p[q.index()];
        bits(p.hand).find(|&i| p.card[i as usize] == id)
    }

    /// X-ROUND-2: both cards face up, the higher scores; X-ROUND-3: draws; X-END-1: the end.
    fn finish_round(&self, s: &mut ToyState, answer: u8) {
        let leader = s.leader;
        let led = s.led.take().expect("a round ends after its lead");
        let l = &mut s.p[leader.index()];
        l.used |= 1 << led;
        l.known = [l.known[0] | 1 << led, l.known[1] | 1 << led];
        let (lv, av) = (
            self.value(s.p[leader.index()].card[led as usize]),
            self.value(s.p[leader.other().index()].card[answer as usize]),
        );
        if lv > av {
            s.p[leader.index()].points += 1;
        } else if av > lv {
            s.p[leader.other().index()].points += 1;
            s.leader = leader.other();
        }
        s.round += 1;
        for q in [s.leader, s.leader.other()] {
            Self::draw(s, q);
        }
        if s.p[0].hand == 0 && s.p[1].hand == 0 {
            let (a, b) = (s.p[0].points, s.p[1].points);
            s.winner = Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Win(Seat::P1),
                std::cmp::Ordering::Less => Outcome::Win(Seat::P2),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
    }
}

impl Game for ToyGame {
    type State = ToyState;
    type Action = Play;
    type Undo = ToyState;

    fn name(&self) -> &'static str {
        "toy"
    }

    /// X-SETUP-1: decks shuffled from the seed, three cards each, `first` leads round 1.
    fn new_game(&self, seed: u64, first: Seat) -> ToyState {
        use rand::seq::SliceRandom;
        let mut rng = crate::core::rng_from_seed(seed);
        // X-SETUP-1, X-INFO-2: each deck shuffled, then dealt to instances from the top down. No
        // allocation: the decks live on the stack (tests/suite/alloc.rs).
        let mut decks = [[0 as CardId; DECK_SIZE]; 2];
        for (k, d) in decks.iter_mut().enumerate() {
            let n = self.decks[k].len();
            d[..n].copy_from_slice(&self.decks[k]);
            d[..n].shuffle(&mut rng);
        }
        let n = [self.decks[0].len(), self.decks[1].len()];
        self.deal(first, [&decks[0][..n[0]], &decks[1][..n[1]]])
    }

    /// One action per distinct card in the mover's hand: at most 3 (X-SETUP-1), far within
    /// `core::MAX_ACTIONS`.
    fn legal_actions(&self, s: &ToyState, out: &mut ActionList<Play>) {
        out.clear();
        let Some(q) = self.to_move(s) else { return };
        let p = &s.p[q.index()];
        for i in bits(p.hand) {
            let a = Play(p.card[i as usize]);
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }

    fn apply(&self, s: &mut ToyState, a: Play) -> ToyState {
        let undo = *s;
        let q = self.to_move(s).expect("the game is not over");
        let i = Self::instance(s, q, a.0).expect("a legal action plays a card in hand");
        s.p[q.index()].hand &= !(1 << i);
        if s.led.is_none() {
            // X-ROUND-1: the lead is face down: only its owner knows it.
            s.led = Some(i);
        } else {
            // X-ROUND-1: the answer is face up.
            let p = &mut s.p[q.index()];
            p.used |= 1 << i;
            p.known = [p.known[0] | 1 << i, p.known[1] | 1 << i];
            self.finish_round(s, i);
        }
        undo
    }

    fn undo(&self, s: &mut ToyState, undo: ToyState) {
        *s = undo;
    }

    fn to_move(&self, s: &ToyState) -> Option<Seat> {
        if s.winner.is_some() {
            None
        } else if s.led.is_none() {
            Some(s.leader)
        } else {
            Some(s.leader.other())
        }
    }

    fn outcome(&self, s: &ToyState) -> Option<Outcome> {
        s.winner
    }

    /// The cards `observer` does not know (the opponent's hand and lead, both decks) are dealt
    /// again among the same owner's unknown instances (`core::hidden::redeal`).
    /// X-INFO-1: one pool per player (hand, lead and deck are interchangeable for the observer).
    fn determinize(&self, s: &ToyState, observer: Seat, rng: &mut GameRng) -> ToyState {
        let mut d = *s;
        for q in Seat::ALL {
            let p = &mut d.p[q.index()];
            let n = self.decks[q.index()].len();
            let hidden = first_n(n) & !u64::from(p.known[observer.index()]);
            redeal(&mut p.card, hidden, rng);
        }
        d
    }

    fn cards_out_of_deck(&self, s: &ToyState, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = &s.p[seat.index()];
        let n = self.decks[seat.index()].len();
        for i in 0..n {
            if !p.deck[..p.deck_len as usize].contains(&(i as u8)) {
                f(u32::from(p.card[i]));
            }
        }
    }

    fn cards_in_hand(&self, s: &ToyState, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = &s.p[seat.index()];
        for i in bits(p.hand) {
            f(u32::from(p.card[i as usize]));
        }
    }

    fn card_use(&self, _s: &ToyState, a: Play) -> Option<(u32, CardUse)> {
        Some((u32::from(a.0), CardUse::Played))
    }

    /// The round being played, or the rounds played once the game is over.
    fn turn(&self, s: &ToyState) -> u32 {
        u32::from(s.round) - u32::from(s.winner.is_some())
    }

    fn action_text(&self, _s: &ToyState, a: Play) -> String {
        format!("play {}", self.cards.names[a.0 as usize])
    }
}

/// The toy game's policy, small enough to stay beside its rules.
impl Policy for ToyGame {
    /// The leader leads its highest card; the answer, not seeing the lead, plays its middle one.
    fn heuristic_action(&self, s: &ToyState, legal: &ActionList<Play>, _rng: &mut GameRng) -> Play {
        let mut v: FixedVec<Play, DECK_SIZE> = FixedVec::new();
        for &a in legal.iter() {
            v.push(a);
        }
        v.as_mut_slice().sort_by_key(|a| (self.value(a.0), a.0));
        if s.led.is_none() {
            v[v.len() - 1]
        } else {
            v[v.len() / 2]
        }
    }

    fn evaluate(&self, s: &ToyState, seat: Seat) -> f64 {
        if let Some(o) = s.winner {
            return o.score(seat);
        }
        let d = f64::from(s.p[seat.index()].points) - f64::from(s.p[seat.other().index()].points);
        (0.5 + d / 16.0).clamp(0.0, 1.0)
    }
}
