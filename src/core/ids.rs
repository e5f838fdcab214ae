//! [`ids!`]: a module of `u8` ids numbered from 0 in the order written, for the tables of the
//! card language's words (heads, events, verbs, zones …) that each game's vocabulary numbers.

/// `ids! { mod v { DRAW, MILL } }` declares `mod v { pub const DRAW: u8 = 0; pub const MILL: u8 =
/// 1; }`; attributes and a visibility before `mod` are kept.
macro_rules! ids {
    ($(#[$m:meta])* $vis:vis mod $name:ident { $($id:ident),* $(,)? }) => {
        $(#[$m])*
        $vis mod $name {
            $crate::core::ids::ids!(@ 0u8; $($id),*);
        }
    };
    (@ $n:expr; $id:ident $(, $rest:ident)*) => {
        pub const $id: u8 = $n;
        $crate::core::ids::ids!(@ $n + 1; $($rest),*);
    };
    (@ $n:expr;) => {};
}
pub(crate) use ids;
