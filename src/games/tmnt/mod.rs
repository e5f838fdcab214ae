//! The TMNT TCG (rules: `docs/rules-tmnt.md`, rule IDs `M-…`).

pub mod cards;
pub mod def;
pub mod dsl;
pub mod engine;
pub mod heuristic;
mod scenario;
pub mod state;

pub use cards::{CardDb, CardId};
pub use engine::TmntGame;
pub use state::State;

use crate::core::hidden::{first_n, redeal};
use crate::core::{ActionList, CardUse, Game, GameRng, Outcome, Seat};
use state::{Bits, Step};

/// Every decision of a TMNT game, as a small `Copy` value. Cards in a hand, the Trash or the
/// pending texts are named by card id (the same action in every determinization, one action per
/// distinct card); a card for `target … card` by seat and instance (`seat << 6 | instance`); a
/// kept character by its Block Zone (0 is Block Zone 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// No Event, no Item, no more attack cards, no counter, keep nothing.
    #[default]
    Pass,
    /// M-ADJ-4, `discard`.
    Discard(CardId),
    /// M-SET-3.
    Set(CardId),
    /// M-EVT-1.
    Event(CardId),
    /// M-ITM-1, M-ITM-2: the Item, then the card paid for it.
    Item(CardId),
    Pay(CardId),
    /// M-ATK-3.
    Attack(CardId),
    /// M-ATK-7.
    Counter(CardId),
    /// M-ATK-13.
    Keep(u8),
    /// M-EFFECTS-2.
    Order(CardId),
    /// `target … card`.
    Choose(u8),
    /// `salvage`.
    Salvage(CardId),
    /// `choose`: an option (0 is the first).
    Mode(u8),
    /// `may`: yes (`Pass` is no).
    Yes,
    /// A card by id for `move`, `search`, `dig`.
    Take(CardId),
    /// `arrange`: the next card on top.
    Top(CardId),
    /// M-ACT-1: an `anytime` text of an Item.
    Activate(CardId),
}

impl Game for TmntGame {
    type State = State;
    type Action = Action;
    /// The undo record is a copy of the state: one `memcpy`, exact by construction.
    type Undo = State;

    fn name(&self) -> &'static str {
        "tmnt"
    }

    fn new_game(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup(seed, first);
        self.advance(&mut s);
        s
    }

    #[inline]
    fn legal_actions(&self, state: &State, out: &mut ActionList<Action>) {
        self.legal(state, out);
    }

    fn apply(&self, state: &mut State, action: Action) -> State {
        let undo = *state;
        self.play(state, action);
        undo
    }

    #[inline]
    fn undo(&self, state: &mut State, undo: State) {
        *state = undo;
    }

    #[inline]
    fn to_move(&self, state: &State) -> Option<Seat> {
        if state.step == Step::Over {
            None
        } else {
            Some(state.chooser)
        }
    }

    #[inline]
    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.winner
    }

    /// M-INFO-3: per player, the instances whose identity the observer does not know — its own
    /// deck; the opponent's hand, face-down Block cards and deck — dealt again. There is no
    /// chance during play (no shuffle after setup), so there is no seed to draw anew.
    fn determinize(&self, state: &State, observer: Seat, rng: &mut GameRng) -> State {
        let mut d = *state;
        for q in Seat::ALL {
            let p = d.pl_mut(q);
            let hidden = first_n(usize::from(p.n)) & !p.known[observer.index()];
            redeal(&mut p.card, hidden, rng);
        }
        if self.db.sets.hooks & cards::hook::SHUFFLE != 0 {
            // M-SHUF-1: the outcome of a later shuffle is unknown to the observer.
            d.rng = rand::Rng::gen(rng);
        }
        d
    }

    fn heuristic_action(
        &self,
        state: &State,
        legal: &ActionList<Action>,
        rng: &mut GameRng,
    ) -> Action {
        self.heuristic_choice(state, legal, rng)
    }

    fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        self.estimate(state, seat)
    }

    /// Every card its player got to use: out of the deck by a draw or onto a Block Zone (in hand,
    /// on the Block Zones, in the Attack and Item Zones, or in the Trash after one of those).
    /// Cards sent from the deck straight to the Trash (damage, `trash`) are not counted: a deck
    /// that runs out loses (M-WIN-1), so counting them would make every card of a lost game
    /// "drawn" and IWD a measure of losing.
    fn cards_out_of_deck(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(first_n(usize::from(p.n)) & !p.deck_mask() & !p.milled) {
            f(u32::from(p.card[i as usize]));
        }
    }

    fn cards_in_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(p.hand) {
            f(u32::from(p.card[i as usize]));
        }
    }

    /// Events, Items, attack cards and counters placed from hand are played; a card set on a
    /// Block Zone or paid for an Item is a resource.
    fn card_use(&self, _state: &State, action: Action) -> Option<(u32, CardUse)> {
        match action {
            Action::Event(id) | Action::Item(id) | Action::Attack(id) | Action::Counter(id) => {
                Some((u32::from(id), CardUse::Played))
            }
            Action::Set(id) | Action::Pay(id) => Some((u32::from(id), CardUse::Resource)),
            _ => None,
        }
    }

    fn turn(&self, state: &State) -> u32 {
        u32::from(state.turn)
    }

    fn action_text(&self, state: &State, action: Action) -> String {
        self.notation(state, action)
    }
}

/// The version of these rules, in the content hash of a run: bumped by every change that changes
/// games (2: M-INFO-4, the known copy is the one played).
pub const RULES_VERSION: u32 = 2;

/// The bundled original sample card pool.
pub const BUNDLED_CARDS: &str = include_str!("../../../decks/tmnt/cards.csv");

/// Loads the bundled sample pool.
pub fn bundled_cards() -> CardDb {
    CardDb::parse(BUNDLED_CARDS, "decks/tmnt/cards.csv (bundled)")
        .expect("the bundled card pool parses (checked by the tests)")
}
