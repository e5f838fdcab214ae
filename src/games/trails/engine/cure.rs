//! A second cure in the cure phase (`extra_cure`, decision T-CURE-6): "you may cure up to two
//! stunned units you control instead of one; if you cure two, at least one of them must be a
//! church unit". The cure step keeps its actor after a first cure while a second one is allowed;
//! the combat's fields, unused in the cure phase, remember it: `sclm` says a first cure of two was
//! made, `fight_back` which UNIT.

use super::super::cards::{Prohibition, StaticEffect};
use super::super::state::{flag, Bits, State};
use super::TrailsGame;
use crate::core::Seat;

impl TrailsGame {
    /// Whether `me` may cure `j` after curing `first` this cure phase: an active `extra_cure`
    /// static of `me` (a stunned source gives none) whose UNITs include one of the two.
    fn second_cure_ok(&self, s: &State, me: Seat, first: u8, j: u8) -> bool {
        let p = s.pl(me);
        Bits(p.static_src).any(|src| {
            let card = self.card(p.card[src as usize]);
            card.statics
                .iter()
                .zip(&card.static_conds)
                .any(|(st, cond)| {
                    let StaticEffect::ExtraCure { filter } = st else {
                        return false;
                    };
                    self.static_on(s, me, src, cond)
                        && (self.card_matches_printed(s, me, first, filter, (me, src))
                            || self.card_matches_printed(s, me, j, filter, (me, src)))
                })
        })
    }

    /// The UNITs `me` may cure as a second cure after `first` (decision T-CURE-6).
    pub(super) fn second_cures(&self, s: &State, me: Seat, first: u8) -> u64 {
        let p = s.pl(me);
        let mut m = 0;
        for j in Bits(p.field & p.flagged(flag::STUNNED)) {
            if !(self.has_cant && self.prohibited(s, me, j, Prohibition::BeCured))
                && self.second_cure_ok(s, me, first, j)
            {
                m |= 1u64 << j;
            }
        }
        m
    }

    /// After `me` cured `first`: a second cure is offered when one is allowed (decision T-CURE-6);
    /// whether it is.
    #[cold]
    #[inline(never)]
    pub(super) fn offer_second_cure(&self, s: &mut State, me: Seat, first: u8) -> bool {
        if s.combat.sclm || self.second_cures(s, me, first) == 0 {
            return false;
        }
        s.combat.sclm = true;
        s.combat.fight_back = first;
        true
    }
}
