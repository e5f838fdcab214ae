//! The game-agnostic core: the [`Game`] trait every card game implements, and the small types all
//! games share (seats, outcomes, fixed-capacity lists, seeded random numbers).
//!
//! The trait is the one seam between rules and search. It is modelled on OpenSpiel's game/state
//! split, made allocation-free: the state is a `Copy` value, legal actions are written into a
//! caller-owned list, and `apply` returns an undo record.

pub mod actions;
mod bits;
pub mod def;
mod draw;
mod error;
mod fixed;
pub(crate) mod glue;
pub mod hidden;
pub(crate) mod ids;
pub mod input;
pub mod lang;
mod perft;
pub mod scenario;
mod seat;
mod table;
pub mod tensor;
#[cfg(test)]
pub(crate) mod testing;
mod write;

pub use bits::Bits;
pub use def::{GameDef, GameInfo, ScenarioReport, Viewer};
pub use draw::below;
pub use error::{Error, Result};
pub use fixed::FixedVec;
pub use input::{InputError, InputErrors, Reason};
pub use perft::perft;
pub use seat::{Outcome, Seat};
pub use table::ByteTable;
pub use write::WriteError;

use std::fmt::Debug;
use std::hash::Hash;

/// The random number generator used everywhere: small, fast, seedable and portable.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// Capacity of an [`ActionList`]. Each game documents why its worst case fits.
pub const MAX_ACTIONS: usize = 256;

/// The caller-owned list legal actions are written into.
pub type ActionList<A> = FixedVec<A, MAX_ACTIONS>;

/// Builds the crate's RNG from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    use rand::SeedableRng;
    GameRng::seed_from_u64(seed)
}

/// Mixes several 64-bit words into one seed (SplitMix64 finaliser over each word), so that
/// per-game seeds derived from (master seed, matchup, index) are independent of thread count.
pub fn mix_seed(words: &[u64]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &w in words {
        h ^= w
            .wrapping_add(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(h << 6)
            .wrapping_add(h >> 2);
        h = splitmix64(h);
    }
    h
}

/// FNV-1a over `bytes`: stable across platforms and releases.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// FNV-1a over `parts`, each followed by a separator byte (0xff, never in UTF-8), as 16 hex
/// digits: the content hash of a run's fingerprint.
pub fn content_hash<'a>(parts: impl IntoIterator<Item = &'a str>) -> String {
    let h = fnv1a(
        parts
            .into_iter()
            .flat_map(|p| p.bytes().chain(std::iter::once(0xff))),
    );
    format!("{h:016x}")
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What an action does with a card, for card statistics ([`Game::card_use`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardUse {
    /// Played for its own sake: deployed, cast, turned face up.
    Played,
    /// Put into a resource zone (where any card serves the same way).
    Resource,
}

/// A two-player game with hidden information, as search sees it.
///
/// The implementing type holds the immutable context of a match (the card database, the decks);
/// all that changes during play lives in `State`.
pub trait Game: Sync {
    /// The whole position. `Copy` guarantees a bit-for-bit copy with no heap data behind it.
    type State: Copy + Debug + Send + Sync + PartialEq;
    /// One decision of one player. Names hidden cards by card id, not by slot, so the same action
    /// means the same thing in every determinization.
    type Action: Copy + Debug + Eq + Hash + Default + Send + Sync;
    /// What `undo` needs to restore the state exactly.
    type Undo: Copy;

    /// A short name for logs and file headers (the registry's name).
    fn name(&self) -> &'static str;

    /// The starting position of a new game: decks shuffled from `seed`, `first` holds the
    /// initiative (or moves first) on turn 1.
    fn new_game(&self, seed: u64, first: Seat) -> Self::State;

    /// Writes every legal action of the player to move into `out` (cleared first). Empty when the
    /// game is over.
    fn legal_actions(&self, state: &Self::State, out: &mut ActionList<Self::Action>);

    /// Plays `action`, which must be legal, and returns what undoes it.
    fn apply(&self, state: &mut Self::State, action: Self::Action) -> Self::Undo;

    /// Restores the state that `apply` changed.
    fn undo(&self, state: &mut Self::State, undo: Self::Undo);

    /// The player who decides next, or `None` when the game is over.
    fn to_move(&self, state: &Self::State) -> Option<Seat>;

    /// The result once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// A full state consistent with everything `observer` knows in `state`: every card the
    /// observer cannot see is resampled from the cards it knows to be unaccounted for
    /// ([`hidden::redeal`], pool by pool). Random state kept inside a `State` (an RNG for shuffles
    /// during play) must be re-seeded from `rng` here, or search would know the future
    /// (`core::hidden`).
    fn determinize(&self, state: &Self::State, observer: Seat, rng: &mut GameRng) -> Self::State;

    /// Prepares `prep` for [`Game::determinize_in_place`] on `state` for `observer`: what every
    /// determinization of this position deals (a search's root, once per search). Default:
    /// nothing prepared.
    fn prepare_determinize(
        &self,
        _state: &Self::State,
        _observer: Seat,
        prep: &mut hidden::Prepared,
    ) {
        prep.ready = false;
    }

    /// `*state = self.determinize(state, observer, rng)`: the same state from the same random
    /// numbers, and the same numbers used. `prep` comes from [`Game::prepare_determinize`] on
    /// this very state (a copy of the position it was prepared for) and observer; a game that
    /// prepares something may deal from it without reading the state's hidden cards again.
    /// Default: [`Game::determinize`].
    fn determinize_in_place(
        &self,
        state: &mut Self::State,
        observer: Seat,
        _prep: &hidden::Prepared,
        rng: &mut GameRng,
    ) {
        *state = self.determinize(state, observer, rng);
    }

    /// Card statistics: calls `f` with the card id (an index into the game's card list) of every
    /// card of `seat` that is out of its deck in `state` (in hand, in play, in a resource zone,
    /// discarded — anywhere its owner has drawn or taken it to), once per copy. Card statistics
    /// collect these ids over a game: they speak card ids, never instance numbers, which mean
    /// nothing outside one game. A game that does not track it calls `f` never.
    fn cards_out_of_deck(&self, _state: &Self::State, _seat: Seat, _f: &mut dyn FnMut(u32)) {}

    /// Card statistics: `seat`'s opening hand — its cards out of the deck once its setup is over
    /// (its mulligan or redraw done), before any draw of play. While a setup decision of the
    /// seat is still to come or under way in `state`, returns false and calls `f` never; else
    /// calls `f` with the card id of every card of the opening hand, once per copy, and returns
    /// true. Card statistics ask each position of a game in turn, from the first, and keep the
    /// first answer (`docs/statistics.md`, opening-hand win rate). A game needs its own answer
    /// when its setup takes decisions (Trails' mulligan, T-SETUP-3) or when its first position
    /// may follow a draw of play (TMNT, M-ADJ-2: the second player may draw before the first
    /// decision). Default: the cards out of the deck ([`Game::cards_out_of_deck`]) in the first
    /// position, for a game whose setup takes no decision and whose first position precedes
    /// every draw of play (the toy game).
    fn opening_hand(&self, state: &Self::State, seat: Seat, f: &mut dyn FnMut(u32)) -> bool {
        self.cards_out_of_deck(state, seat, f);
        true
    }

    /// Card statistics: calls `f` with the card id of every card in `seat`'s hand, once per copy.
    fn cards_in_hand(&self, _state: &Self::State, _seat: Seat, _f: &mut dyn FnMut(u32)) {}

    /// Card statistics: what `action`, legal in `state`, does with a card of the player who takes
    /// it: the card's id and whether it is played (cast, deployed, turned face up) or put into a
    /// resource zone. `None` for an action that does neither.
    fn card_use(&self, _state: &Self::State, _action: Self::Action) -> Option<(u32, CardUse)> {
        None
    }

    /// The turn number (for reports and limits).
    fn turn(&self, state: &Self::State) -> u32;

    /// A readable text for an action, in the notation the game's logs and scenarios use.
    fn action_text(&self, state: &Self::State, action: Self::Action) -> String;
}

/// A game's own play, beside its rules: the fast rule of thumb of the heuristic agent and of
/// playouts, and the static evaluation that ends a playout cut off early. Kept out of [`Game`] so
/// that the rules (and the card database) never depend on the AI; each game implements it in its
/// `policy.rs` (the toy game in its `mod.rs`). Search and the heuristic agent bound on it;
/// [`GameDef`] requires it.
pub trait Policy: Game {
    /// The game's fast rule-of-thumb choice among `legal` (non-empty), for the heuristic agent
    /// and for playouts. It must read only what the player to move may see.
    fn heuristic_action(
        &self,
        state: &Self::State,
        legal: &ActionList<Self::Action>,
        rng: &mut GameRng,
    ) -> Self::Action;

    /// A static estimate in [0, 1] that `seat` wins (1 won, 0 lost), for playouts cut off early.
    fn evaluate(&self, state: &Self::State, seat: Seat) -> f64;
}
