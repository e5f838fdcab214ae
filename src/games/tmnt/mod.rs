//! The TMNT TCG (rules: `docs/rules-tmnt.md`, rule IDs `M-…`).

pub mod action;
pub mod cards;
pub mod deck;
pub mod def;
pub mod dsl;
pub mod effects;
pub mod engine;
mod invariants;
mod narrate;
mod notation;
mod observe;
pub mod policy;
mod scenario;
pub mod state;

pub use action::Action;
pub use cards::{CardDb, CardId};
pub use engine::TmntGame;
pub use state::State;

use crate::core::glue::copy_state_game;
use crate::core::hidden::{first_n, redeal};
use crate::core::{CardUse, Game, GameRng, Outcome, Seat};
use cards::CardType;
use state::{Bits, Step};

impl Game for TmntGame {
    copy_state_game!(State, Action);

    fn name(&self) -> &'static str {
        "tmnt"
    }

    fn new_game(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup(seed, first);
        self.advance(&mut s);
        s
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

    /// M-SETUP-1, M-SETUP-2: the 5 cards of the hand and the 4 Block cards, the first 9 dealt
    /// from the top of the shuffled deck, which are its instances 0 to 8 (setup deals instances
    /// from the top down, and nothing renumbers them). There is no mulligan (M-SETUP-4), but the
    /// first position may already follow the second player's first draws (M-ADJ-2: when the
    /// first player's turn 1 takes no decision), so the opening hand is read from the instances,
    /// not from the cards out of the deck.
    fn opening_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) -> bool {
        let p = state.pl(seat);
        for i in 0..usize::from(p.n).min(5 + state::ZONES) {
            f(u32::from(p.card[i]));
        }
        true
    }

    fn cards_in_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(p.hand) {
            f(u32::from(p.card[i as usize]));
        }
    }

    /// Events, Items, attack cards and counters placed from hand are played. A card set on a
    /// Block Zone (M-SET-1) is played when setting is how it comes into play or acts — a
    /// Character (it stays on Block Zone 1 when flipped, M-FLIP-1) or any card with a <Flip> text
    /// (a <Flip> or <Play & Flip> Event, a Character's or Attack card's `flip:` text: it resolves
    /// when flipped, M-FLIP-1, M-FLIP-3) — and a resource otherwise (any card fills a Block Zone);
    /// a card paid for an Item is a resource (`docs/statistics.md`, card rankings).
    fn card_use(&self, _state: &State, action: Action) -> Option<(u32, CardUse)> {
        match action {
            Action::Event(id) | Action::Item(id) | Action::Attack(id) | Action::Counter(id) => {
                Some((u32::from(id), CardUse::Played))
            }
            Action::Set(id) => {
                let c = self.db.card(id);
                let played = c.ctype == CardType::Character || c.flip;
                let used = if played {
                    CardUse::Played
                } else {
                    CardUse::Resource
                };
                Some((u32::from(id), used))
            }
            Action::Pay(id) => Some((u32::from(id), CardUse::Resource)),
            _ => None,
        }
    }

    fn turn(&self, state: &State) -> u32 {
        u32::from(state.turn)
    }
}

/// The version of these rules, in the content hash of a run: bumped by every change that changes
/// games (2: M-INFO-4, the known copy is the one played).
pub const RULES_VERSION: u32 = 2;

/// The bundled original sample card pool.
pub const BUNDLED_CARDS: &str = include_str!("../../../decks/tmnt/cards.csv");

/// The bundled decks, all of them (`decks/tmnt/NAME.deck`; grove_recall's cards are in the card
/// language, the others' plain texts): what the engine's tests, the leaf evaluation's tests and
/// `examples/eval_data.rs` play. A test checks the list against the folder.
pub const BUNDLED_DECKS: [&str; 9] = [
    "fire_burn",
    "flip_tricks",
    "forest_counter",
    "grove_recall",
    "items_engine",
    "mountain_brawlers",
    "starter_east",
    "starter_north",
    "wind_tempo",
];

/// Loads the bundled sample pool.
pub fn bundled_cards() -> CardDb {
    CardDb::parse(BUNDLED_CARDS, "decks/tmnt/cards.csv (bundled)")
        .expect("the bundled card pool parses (checked by the tests)")
}

#[cfg(test)]
mod tests {
    /// [`super::BUNDLED_DECKS`] names every deck of `decks/tmnt/`, each once, in order.
    #[test]
    fn the_bundled_decks_are_the_folders() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/decks/tmnt");
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let n = e.unwrap().file_name().into_string().unwrap();
                n.strip_suffix(".deck").map(str::to_string)
            })
            .collect();
        v.sort();
        assert_eq!(v, super::BUNDLED_DECKS);
    }
}
