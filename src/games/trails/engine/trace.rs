//! Why bond changed: the engine reports every bond change with its cause here, and the log
//! (`narrate`) collects them by playing an action again on a copy of the state with tracing on.
//! Off (always, except inside [`traced`]), a report costs one read of a global count of the
//! traces running on any thread (`TRACING`; the thread-local is read only while one runs) and
//! allocates nothing; the state carries nothing.

use super::super::state::Lid;
use crate::core::Seat;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The cause of one bond change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BondCause {
    /// T-STATE-2: a UNIT of the player was stunned; its printed cost is lost.
    StunDamage { unit: Lid },
    /// T-COMBAT-4: the attacking STR beyond the defender's DEF.
    Overkill,
    /// An attack on the player: the attacking STR.
    Attack,
    /// A `bond` effect of a card's ability.
    Effect { card: Lid },
}

/// One bond change: whose, why, by how much (after the cap of T-WIN-1).
pub type BondEvent = (Seat, BondCause, i16);

thread_local! {
    static TRACE: RefCell<Option<Vec<BondEvent>>> = const { RefCell::new(None) };
}

/// How many [`traced`] calls are running, on all threads: while it is 0 no thread traces, and a
/// report returns without reading the thread-local (whose access checks its lazy state, ~15
/// instructions). A thread's own `traced` raises it before its `f` runs and lowers it after, so
/// inside `f` it is never 0.
static TRACING: AtomicUsize = AtomicUsize::new(0);

/// Reports a bond change (a no-op unless inside [`traced`]).
#[inline]
pub(crate) fn bond(q: Seat, cause: BondCause, delta: i16) {
    if delta == 0 || TRACING.load(Ordering::Relaxed) == 0 {
        return;
    }
    TRACE.with(|t| {
        if let Some(v) = t.borrow_mut().as_mut() {
            v.push((q, cause, delta));
        }
    });
}

/// Runs `f` with tracing on and returns the bond changes it reported, in order. The previous
/// trace (none, or an outer `traced`'s) is restored afterwards, also if `f` panics.
pub fn traced(f: impl FnOnce()) -> Vec<BondEvent> {
    /// The previous trace, put back when dropped; the count is raised by `new` and lowered by
    /// `drop`, so it stays raised exactly while a `Restore` lives (a panic included).
    struct Restore(Option<Vec<BondEvent>>);
    impl Restore {
        fn new() -> Restore {
            let prev = TRACE.with(|t| t.borrow_mut().replace(Vec::new()));
            TRACING.fetch_add(1, Ordering::Relaxed);
            Restore(prev)
        }
    }
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            TRACE.with(|t| *t.borrow_mut() = prev);
            TRACING.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let restore = Restore::new();
    f();
    let events = TRACE.with(|t| t.borrow_mut().take().unwrap_or_default());
    drop(restore);
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Off outside `traced`; nested traces keep their own events; a panic inside leaves tracing
    /// off again.
    #[test]
    fn traces_nest_and_end_even_on_a_panic() {
        bond(Seat::P1, BondCause::Attack, -1);
        let outer = traced(|| {
            bond(Seat::P1, BondCause::Attack, -2);
            let inner = traced(|| bond(Seat::P2, BondCause::Overkill, -3));
            assert_eq!(inner, vec![(Seat::P2, BondCause::Overkill, -3)]);
            bond(Seat::P1, BondCause::Attack, -4);
        });
        assert_eq!(
            outer,
            vec![
                (Seat::P1, BondCause::Attack, -2),
                (Seat::P1, BondCause::Attack, -4)
            ]
        );
        let r = std::panic::catch_unwind(|| traced(|| panic!("inside")));
        assert!(r.is_err());
        assert!(TRACE.with(|t| t.borrow().is_none()), "tracing left on");
    }
}
