//! The games, one folder each, and the registry: the one place that lists them.
//!
//! Every game implements [`crate::core::Game`] (what search needs) and [`GameDef`] (files,
//! matches, text, checks) on one type. The command line, the simulator and the tests reach a game
//! only through [`visit`]: they write their work once, generic over `G: GameDef`, as a
//! [`Visit`], and the registry calls it with the game a name selects — the way OpenSpiel's
//! registered games or shakmaty's variants are chosen by name.

pub mod toy;
pub mod trails;

use crate::core::{GameDef, GameInfo};

/// Work generic over the game, run by [`visit`] for the game a name selects.
pub trait Visit {
    type Out;
    fn visit<G: GameDef>(self) -> Self::Out;
}

/// Declares the registered games: one line each.
macro_rules! registry {
    ($($game:ty),+ $(,)?) => {
        /// Every registered game's constants, in registry order.
        pub const GAMES: &[GameInfo] = &[$(<$game as GameDef>::INFO),+];

        /// Runs `work` for the game named `name`; `None` when no game has that name.
        pub fn visit<V: Visit>(name: &str, work: V) -> Option<V::Out> {
            $(
                if name == <$game as GameDef>::INFO.name {
                    return Some(work.visit::<$game>());
                }
            )+
            None
        }
    };
}

registry! {
    trails::TrailsGame,
    toy::ToyGame,
}

/// The constants of the game named `name`.
pub fn info(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.name == name)
}

/// The registered games' names, for messages ("trails, toy").
pub fn names() -> String {
    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
}
