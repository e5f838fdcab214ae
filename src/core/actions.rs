//! Shapes of decisions that several games share, as small helpers with one meaning each.
//!
//! - [`PassCount`]: a priority window in which the players take turns to act or pass, closing when
//!   both pass in succession (combat steps where either player may act, blocker, reaction and
//!   support windows, counter steps).
//! - [`canonical_next`]: choosing a set one member at a time in increasing order, so that each set
//!   is built one way and a search does not see the k! orders of one set as k! choices (attack
//!   groups, discards of several cards).
//!
//! **Action-list capacity.** Legal actions go into [`super::ActionList`], a fixed list of
//! [`super::MAX_ACTIONS`] entries. Each game writes down its worst case beside its `legal_actions`
//! (with the card-file limits that bound it) and tests it against the capacity.

/// Passes in succession in a priority window: any action other than a pass resets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PassCount(pub u8);

impl PassCount {
    /// A pass. Returns whether the window closes now: both players have passed in succession.
    /// Otherwise priority goes to the other player.
    #[inline]
    pub fn pass(&mut self) -> bool {
        self.0 = self.0.saturating_add(1);
        self.0 >= 2
    }

    /// Something happened (an action that is not a pass): the passes before it no longer count,
    /// so the other player may answer before the window can close.
    #[inline]
    pub fn act(&mut self) {
        self.0 = 0;
    }

    /// Passes since the last action.
    #[inline]
    pub fn passes(self) -> u8 {
        self.0
    }
}

/// Of `candidates` (a mask), those that may join a set built one member at a time in increasing
/// order when `chosen` is chosen so far: the candidates above its highest member (all of them when
/// nothing is chosen).
#[inline]
pub fn canonical_next(chosen: u64, candidates: u64) -> u64 {
    if chosen == 0 {
        candidates
    } else {
        let last = 63 - chosen.leading_zeros();
        if last == 63 {
            0
        } else {
            candidates & !((2u64 << last) - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_closes_on_two_passes_in_a_row() {
        let mut w = PassCount::default();
        assert!(!w.pass());
        w.act();
        assert_eq!(w.passes(), 0);
        assert!(!w.pass());
        assert!(w.pass());
    }

    /// Building every set of k members of n one at a time in increasing order reaches each of the
    /// C(n, k) sets exactly once: the number of paths equals the binomial coefficient.
    #[test]
    fn canonical_picks_build_each_set_once() {
        fn paths(chosen: u64, candidates: u64, left: u32) -> u64 {
            if left == 0 {
                return 1;
            }
            let mut n = 0;
            let mut m = canonical_next(chosen, candidates);
            while m != 0 {
                let i = m.trailing_zeros();
                n += paths(chosen | 1 << i, candidates, left - 1);
                m &= m - 1;
            }
            n
        }
        let all = (1u64 << 7) - 1;
        let binomial = [1, 7, 21, 35, 35, 21, 7, 1];
        for (k, &want) in binomial.iter().enumerate() {
            assert_eq!(paths(0, all, k as u32), want, "k = {k}");
        }
        // Candidates with gaps, and the top bit.
        assert_eq!(canonical_next(0b100, 0b1_0110), 0b1_0000);
        assert_eq!(canonical_next(1 << 63, u64::MAX), 0);
    }
}
