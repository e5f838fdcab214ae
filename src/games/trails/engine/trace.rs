//! Why bond changed: the engine reports every bond change with its cause here, and the log
//! (`narrate`) collects them by playing an action again on a copy of the state with tracing on.
//! Off (always, except inside [`traced`]), a report costs one thread-local read and allocates
//! nothing; the state carries nothing.

use super::super::cards::CardId;
use crate::core::Seat;
use std::cell::RefCell;

/// The cause of one bond change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BondCause {
    /// T-STATE-2: a UNIT of the player was stunned; its printed cost is lost.
    StunDamage { unit: CardId },
    /// T-COMBAT-4: the attacking STR beyond the defender's DEF.
    Overkill,
    /// An attack on the player: the attacking STR.
    Attack,
    /// A `bond` effect of a card's ability.
    Effect { card: CardId },
}

/// One bond change: whose, why, by how much (after the cap of T-WIN-1).
pub type BondEvent = (Seat, BondCause, i16);

thread_local! {
    static TRACE: RefCell<Option<Vec<BondEvent>>> = const { RefCell::new(None) };
}

/// Reports a bond change (a no-op unless inside [`traced`]).
#[inline]
pub(crate) fn bond(q: Seat, cause: BondCause, delta: i16) {
    if delta == 0 {
        return;
    }
    TRACE.with(|t| {
        if let Some(v) = t.borrow_mut().as_mut() {
            v.push((q, cause, delta));
        }
    });
}

/// Runs `f` with tracing on and returns the bond changes it reported, in order.
pub fn traced(f: impl FnOnce()) -> Vec<BondEvent> {
    TRACE.with(|t| *t.borrow_mut() = Some(Vec::new()));
    f();
    TRACE.with(|t| t.borrow_mut().take().unwrap_or_default())
}
