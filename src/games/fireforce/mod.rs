//! The Fire Force TCG (rules: `docs/rules-fireforce.md`, rule IDs `F-…`).

pub mod cards;
pub mod def;
pub mod dsl;
pub mod engine;
pub mod heuristic;
mod scenario;
pub mod state;

pub use cards::{CardDb, CardId};
pub use engine::FireForceGame;
pub use state::State;

use crate::core::hidden::{first_n, redeal};
use crate::core::{ActionList, CardUse, Game, GameRng, Outcome, Seat};
use state::{Bits, Step};

/// Every decision of a Fire Force game, as a small `Copy` value. Cards in hand and in the Flame
/// deck are named by card id (the same action in every determinization, one action per distinct
/// card); cards on the Scene and in THE ADOLLA, which both players see, by instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// No block, no (more) reaction or support, no trigger, no pick.
    #[default]
    Pass,
    /// F-SETUP-2: keep the hand, or return it, shuffle and draw 5.
    Keep,
    Redraw,
    /// F-PREP-5: this Flame card of the Flame deck (setup, preparation, effects).
    Flame(CardId),
    /// F-MAIN-1: dispatch this Unit from hand.
    Dispatch(CardId),
    /// F-MAIN-1: play this non-Reaction Event from hand.
    Play(CardId),
    /// F-KW-ACTIVE, F-KW-REACTION: activate ability `k` of this Unit ([`state::PRAY`] for Pray).
    Activate(u8, u8),
    /// F-BAT-1: attack with this Unit.
    Attack(u8),
    /// F-BAT-2: attack this exhausted Unit, or the player ([`state::NONE`]).
    Target(u8),
    /// F-BAT-4: block with this Unit.
    Block(u8),
    /// F-BAT-5: play this Reaction Event from hand.
    React(CardId),
    /// F-BAT-6: put this Unit with support power from hand into THE ADOLLA.
    Support(CardId),
    /// F-BAT-8: activate the revealed Life card's trigger.
    UseTrigger,
    /// A card an effect or rule asks for: P2's instances are numbered from 64.
    Pick(u8),
    /// A card of a hand, a deck or THE ADOLLA for an effect, by card id (decision F-EFF-10).
    Card(CardId),
    /// `choose`: option `k` (from 0; decision F-EFF-4).
    Mode(u8),
    /// `may`: yes (no is [`Action::Pass`]).
    Yes,
    /// F-MAIN-1: end the main phase.
    End,
    /// Decision F-COST-3: pay with these ready cards with Flame — bit `j` is the chooser's `j`-th
    /// ready card with Flame by instance (`FireForceGame::payment_cards`).
    Pay(u8),
}

impl Game for FireForceGame {
    type State = State;
    type Action = Action;
    /// The undo record is a copy of the state: one `memcpy`, exact by construction.
    type Undo = State;

    fn name(&self) -> &'static str {
        "fireforce"
    }

    fn new_game(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup(seed, first);
        self.settle(&mut s);
        s
    }

    #[inline]
    fn legal_actions(&self, state: &State, out: &mut ActionList<Action>) {
        self.legal(state, out);
    }

    /// Inlined, so that a caller that drops the undo record (self-play) does not copy the state.
    #[inline]
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

    /// F-INFO-3: one pool per player, its main-deck instances whose identity the observer does
    /// not know — for its own cards the deck and the Life cards, for the opponent's also the
    /// hand — dealt again. The Life cards are so resampled for either observer. The shuffles of
    /// play (the redraw) are re-seeded.
    fn determinize(&self, state: &State, observer: Seat, rng: &mut GameRng) -> State {
        use rand::Rng;
        let mut d = *state;
        for q in Seat::ALL {
            let p = d.pl_mut(q);
            let hidden = first_n(usize::from(p.n_main)) & !p.known[observer.index()];
            redeal(&mut p.card, hidden, rng);
        }
        d.seed = rng.gen();
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

    /// Every main-deck card out of the deck and the Life area: in hand, on the Scene, in THE
    /// ADOLLA. A revealed Life card and a milled card reach THE ADOLLA without being drawn; they
    /// count too (their owner has seen them), so IWD counts them as drawn.
    fn cards_out_of_deck(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        let inside = p.deck_mask() | p.life_mask();
        for i in Bits(first_n(usize::from(p.n_main)) & !inside) {
            f(u32::from(p.card[i as usize]));
        }
    }

    fn cards_in_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(p.hand) {
            f(u32::from(p.card[i as usize]));
        }
    }

    /// Dispatching a Unit and playing an Event play the card; support power puts it into THE
    /// ADOLLA as a resource of the battle.
    fn card_use(&self, _state: &State, action: Action) -> Option<(u32, CardUse)> {
        match action {
            Action::Dispatch(id) | Action::Play(id) | Action::React(id) => {
                Some((u32::from(id), CardUse::Played))
            }
            Action::Support(id) => Some((u32::from(id), CardUse::Resource)),
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
/// games (2: F-INFO-5, the known copy is the one played).
pub const RULES_VERSION: u32 = 2;

/// The bundled original sample card pool.
pub const BUNDLED_CARDS: &str = include_str!("../../../decks/fireforce/cards.csv");

/// Loads the bundled sample pool.
pub fn bundled_cards() -> CardDb {
    CardDb::parse(BUNDLED_CARDS, "decks/fireforce/cards.csv (bundled)")
        .expect("the bundled card pool parses (checked by the tests)")
}
