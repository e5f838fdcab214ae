//! The games, one folder each, and the registry: the one place that lists them.
//!
//! Every game implements [`crate::core::Game`] (what search needs) and [`GameDef`] (files,
//! matches, text, checks) on one type. The command line, the simulator and the tests reach a game
//! only through [`visit`]: they write their work once, generic over `G: GameDef`, as a
//! [`Visit`], and the registry calls it with the game a name selects — the way OpenSpiel's
//! registered games or shakmaty's variants are chosen by name.

use crate::core::{GameDef, GameInfo};

/// Work generic over the game, run by [`visit`] for the game a name selects.
pub trait Visit {
    type Out;
    fn visit<G: GameDef>(self) -> Self::Out;
}

/// Declares the registered games, one line each (`folder::Type`): the line declares the game's
/// module (`src/games/<folder>/`) and puts its type in [`GAMES`] and [`visit`].
macro_rules! registry {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Every registered game's constants, in registry order.
        pub const GAMES: &[GameInfo] = &[$(<$module::$game as GameDef>::INFO),+];

        /// Runs `work` for the game named `name`; `None` when no game has that name.
        pub fn visit<V: Visit>(name: &str, work: V) -> Option<V::Out> {
            $(
                if name == <$module::$game as GameDef>::INFO.name {
                    return Some(work.visit::<$module::$game>());
                }
            )+
            None
        }
    };
}

registry! {
    trails::TrailsGame,
    toy::ToyGame,
    fireforce::FireForceGame,
    tmnt::TmntGame,
}

/// The constants of the game named `name`.
pub fn info(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.name == name)
}

/// The registered games' names, for messages ("trails, toy").
pub fn names() -> String {
    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
}
