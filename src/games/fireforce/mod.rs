//! The Fire Force TCG (rules: `docs/rules-fireforce.md`, rule IDs `F-…`).

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
pub use engine::FireForceGame;
pub use state::State;

use crate::core::glue::copy_state_game;
use crate::core::hidden::{first_n, redeal_bytes};
use crate::core::{CardUse, Game, GameRng, Outcome, Seat};
use state::{Bits, Step};

impl Game for FireForceGame {
    // `apply` inlined, so that a caller that drops the undo record (self-play) does not copy the
    // state.
    copy_state_game!(State, Action, #[inline]);

    fn name(&self) -> &'static str {
        "fireforce"
    }

    fn new_game(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup(seed, first);
        self.settle(&mut s);
        s
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
            // Card ids are bytes: the same deal as `redeal` for the same random numbers.
            redeal_bytes(&mut p.card, hidden, rng);
        }
        d.seed = rng.gen();
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

    /// F-SETUP-2, F-SETUP-6: the redraw decisions, the first player's first; a seat's opening
    /// hand is its 5 cards once it has kept or redrawn (the Life cards, F-SETUP-3, stay out of
    /// it as they stay out of [`Game::cards_out_of_deck`]). The first draw of play is the first
    /// player's (F-PREP-4), after both decisions.
    fn opening_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) -> bool {
        let done = state.step != Step::Redraw || state.pl(seat).redraw_done;
        if done {
            self.cards_out_of_deck(state, seat, f);
        }
        done
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

/// The eight bundled decks, whose 64 pairs the unit tests' random-game walks play (the
/// brief-based legal actions, the kept Unit masks, the heuristic's dispatch choice).
#[cfg(test)]
pub(crate) const TEST_DECKS: [&str; 8] = [
    "aggro_blitz",
    "adolla_link",
    "blitz_shield",
    "blocker_wall",
    "ember_relay",
    "pray_ramp",
    "reaction_control",
    "support_defence",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, RandomAgent};
    use crate::core::hidden::redeal;
    use crate::core::{rng_from_seed, GameDef};
    use rand::Rng;

    /// F-INFO-3: `determinize` deals (with `redeal_bytes`) the cards and the seed that the
    /// general `redeal` deals for the same random numbers — written out here as `determinize`
    /// was before — and leaves the random stream where it leaves it, at positions of random
    /// games of the bench match, for both observers.
    #[test]
    fn determinize_deals_as_the_general_redeal() {
        let g = FireForceGame::bench_match().expect("the bench match");
        let mut positions = 0;
        for seed in 0..20u64 {
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let mut a = [RandomAgent::new(seed), RandomAgent::new(seed + 100)];
            while let Some(q) = g.to_move(&s) {
                for observer in Seat::ALL {
                    let mut r1 = rng_from_seed(seed * 1_000 + positions);
                    let mut r2 = r1.clone();
                    let d = g.determinize(&s, observer, &mut r1);
                    let mut want = s;
                    for p in Seat::ALL {
                        let p = want.pl_mut(p);
                        let hidden = first_n(usize::from(p.n_main)) & !p.known[observer.index()];
                        redeal(&mut p.card, hidden, &mut r2);
                    }
                    want.seed = r2.gen();
                    assert!(d == want, "seed {seed}, position {positions}");
                    assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "the stream after");
                    positions += 1;
                }
                let act = a[q.index()].choose(&g, &s, q);
                g.apply(&mut s, act);
            }
        }
        assert!(positions > 1_000, "{positions}");
    }
}
