//! [`copy_state_game!`]: the items of a [`super::Game`] impl that every game whose state is a
//! `Copy` value writes alike, so that a game's `impl Game` holds only what is its own.

/// Expands, inside `impl Game for G`, to the associated types (`State`, `Action`, and `Undo` = the
/// state: one `memcpy`, exact by construction) and the methods that only forward to `G`'s own:
/// `legal_actions` → `G::legal`, `apply` → `G::play` (the undo record is the state before; the
/// attributes given after the types go on `apply`, e.g. `#[inline]`), `undo`, `action_text` →
/// `G::notation`. (The heuristic and the evaluation are the game's [`super::Policy`], in its
/// `policy.rs`.)
macro_rules! copy_state_game {
    ($state:ty, $action:ty $(, #[$apply:meta])*) => {
        type State = $state;
        type Action = $action;
        type Undo = $state;

        #[inline]
        fn legal_actions(&self, state: &$state, out: &mut $crate::core::ActionList<$action>) {
            self.legal(state, out);
        }

        $(#[$apply])*
        fn apply(&self, state: &mut $state, action: $action) -> $state {
            let undo = *state;
            self.play(state, action);
            undo
        }

        #[inline]
        fn undo(&self, state: &mut $state, undo: $state) {
            *state = undo;
        }

        fn action_text(&self, state: &$state, action: $action) -> String {
            self.notation(state, action)
        }
    };
}
pub(crate) use copy_state_game;
