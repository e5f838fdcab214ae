//! The Trails TCG (rules: `docs/rules.md`).

pub mod action;
pub mod cards;
pub mod deck;
mod def;
pub mod dsl;
pub mod effects;
pub mod engine;
mod invariants;
mod narrate;
mod notation;
mod observe;
pub mod policy;
pub mod scenario;
pub mod state;

pub use action::Action;
pub use cards::{CardDb, CardId};
pub use engine::TrailsGame;
pub use state::State;

use crate::core::hidden::{first_n, redeal_bytes};
use crate::core::{ActionList, CardUse, Game, GameRng, Outcome, Seat};
use state::Bits;

impl Game for TrailsGame {
    type State = State;
    type Action = Action;
    /// The undo record is a copy of the state: one `memcpy`, exact by construction.
    type Undo = State;

    fn name(&self) -> &'static str {
        "trails"
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
        state.chooser()
    }

    #[inline]
    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.winner
    }

    /// Every instance whose identity `observer` does not know gets a card resampled from the
    /// same owner's unknown cards: the opponent's hand and face-down homebase, both decks below
    /// any known cards. The result depends only on what the observer knows: the unknown card ids
    /// are sorted before the shuffle.
    /// One pool per player (T-INFO-1..3): its instances are interchangeable for the observer
    /// whatever zone they are in.
    fn determinize(&self, state: &State, observer: Seat, rng: &mut GameRng) -> State {
        let mut d = *state;
        let mut dealt = [0; 2];
        for q in Seat::ALL {
            let p = d.pl_mut(q);
            let hidden = first_n(usize::from(p.n_cards)) & !p.known[observer.index()];
            redeal_bytes(&mut p.card, hidden, rng);
            dealt[q.index()] = hidden;
        }
        // Only the dealt instances changed cards.
        self.refresh_kinds_of(&mut d, dealt);
        if self.has_shuffle {
            use rand::Rng;
            d.seed = rng.gen();
        }
        d
    }

    /// Every card out of the deck has been drawn (or put into the homebase from the deck, which
    /// its owner sees).
    fn cards_out_of_deck(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(first_n(usize::from(p.n_cards)) & !p.deck_mask()) {
            f(u32::from(self.card_id(p.card[i as usize])));
        }
    }

    /// T-SETUP-3: the mulligan, the initiative player's first; a seat's opening hand is its cards
    /// out of the deck once it keeps (its replacement cards are drawn then, T-SETUP-4). The
    /// other seat's keep is followed in the same action by the initiative player's draw
    /// (T-PREP-1), never by the other seat's: the first position after a seat keeps holds its
    /// opening hand.
    fn opening_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) -> bool {
        let kept = state.step != state::Step::Mulligan
            || (seat == state.initiative && state.actor != state.initiative);
        if kept {
            self.cards_out_of_deck(state, seat, f);
        }
        kept
    }

    fn cards_in_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(p.hand) {
            f(u32::from(self.card_id(p.card[i as usize])));
        }
    }

    /// Deploying, dispatching, playing an EVENT or arts and turning a BASE face up play the card;
    /// putting it into the homebase (T-PREP-2, T-ICON-DISPATCH) uses it as a resource.
    fn card_use(&self, _state: &State, action: Action) -> Option<(u32, CardUse)> {
        let (id, u) = match action {
            Action::Deploy(id)
            | Action::Dispatch(id)
            | Action::Base(id)
            | Action::Event { card: id, .. }
            | Action::Arts { card: id, .. } => (id, CardUse::Played),
            Action::Homebase(id) | Action::DispatchPut(id) => (id, CardUse::Resource),
            _ => return None,
        };
        Some((u32::from(self.card_id(id)), u))
    }

    fn turn(&self, state: &State) -> u32 {
        u32::from(state.turn)
    }

    fn action_text(&self, state: &State, action: Action) -> String {
        self.action_text_for(state, action, false)
    }
}

/// The version of the rules this engine plays, bumped by every change of the rules that changes
/// games (`docs/rules.md`). It enters the content hash of a run, so that a checkpoint or a shard
/// of games played under other rules is neither resumed nor merged.
pub const RULES_VERSION: u32 = 3;

/// What the content hash of a run covers for one deck: the rules version and every card of the
/// deck as its card file defines it (sorted, one entry per copy).
pub fn deck_content(db: &CardDb, cards: &[CardId]) -> Vec<String> {
    let mut v: Vec<String> = cards
        .iter()
        .map(|&id| {
            let c = db.card(id);
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{:?}|{}",
                c.code,
                c.name,
                c.sub_name,
                c.ctype.name(),
                c.cost,
                c.str,
                c.def,
                db.org_names_of(c.orgs).join(";"),
                c.icons.names().collect::<Vec<_>>().join(";"),
                c.arts_cost,
                c.text
            )
        })
        .collect();
    v.sort();
    v.insert(0, format!("trails rules {RULES_VERSION}"));
    v
}

/// The content hash of a run played with `decks` (`crate::core::content_hash` of their
/// [`deck_content`], in order): it changes with any card of any deck and with the rules' version.
pub fn decks_content_hash(db: &CardDb, decks: &[&[CardId]]) -> String {
    let parts: Vec<String> = decks.iter().flat_map(|d| deck_content(db, d)).collect();
    crate::core::content_hash(parts.iter().map(String::as_str))
}

/// The bundled original sample card pool (`decks/trails/cards.csv`), so the binary works from any
/// directory.
pub const BUNDLED_CARDS: &str = include_str!("../../../decks/trails/cards.csv");

/// Loads the bundled sample pool.
pub fn bundled_cards() -> CardDb {
    CardDb::parse(BUNDLED_CARDS, "decks/trails/cards.csv (bundled)")
        .expect("the bundled card pool parses (checked by the tests)")
}
