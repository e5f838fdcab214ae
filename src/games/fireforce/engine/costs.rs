//! Costs changed by cards (`static: cost …`, decision F-COST-8), off the hot path: read only when
//! a deck holds such a card ([`Lang::costs`]).

use super::*;
use crate::core::lang::eval;

impl FireForceGame {
    /// The cost to dispatch or play `q`'s card `i` from hand now: printed, or changed by cards
    /// (decision F-COST-8); more than any player can pay when its name is banned (decision
    /// F-EFF-12).
    #[inline]
    pub(crate) fn hand_cost(&self, s: &State, q: Seat, i: u8) -> u8 {
        if self.lang.costs {
            self.changed_cost(s, q, i)
        } else {
            self.card_of(s, q, i).cost
        }
    }

    /// Decision F-COST-8: the printed cost of `q`'s card `i` in hand, with its own `cost self in
    /// hand ±N` and the `cost all SIDE CARDS in hand ±N` of the Units on both Scenes whose
    /// condition holds (read as a static's, decision F-STATIC-1); never below 0.
    #[cold]
    pub(super) fn changed_cost(&self, s: &State, q: Seat, i: u8) -> u8 {
        let c = self.card_of(s, q, i);
        let p = s.pl(q);
        if p.banned != NONE && self.name_of[p.card[i as usize] as usize] == p.banned {
            return u8::MAX;
        }
        let mut n = i32::from(c.cost);
        for m in &c.cant.costs {
            if m.this
                && m.cond
                    .as_deref()
                    .is_none_or(|k| eval::cond(&self.printed_judge(s, q, i), k))
            {
                n += i32::from(m.n);
            }
        }
        for w in [q, q.other()] {
            for u in Bits(s.pl(w).units()) {
                let src = self.card_of(s, w, u);
                for m in &src.cant.costs {
                    if !m.this
                        && side_ok(m.side, w, q)
                        && m.filter.printed_ok(c)
                        && !(m.first && s.pl(q).reacted)
                        && m.cond
                            .as_deref()
                            .is_none_or(|k| eval::cond(&self.printed_judge(s, w, u), k))
                    {
                        n += i32::from(m.n);
                    }
                }
            }
        }
        n.clamp(0, 100) as u8
    }

    /// `ban`: `q` can't dispatch or play the name named last until the end of the next turn
    /// (decision F-EFF-12).
    #[cold]
    pub(super) fn ban(s: &mut State, q: Seat) {
        let named = s.named;
        if named != NONE {
            let p = s.pl_mut(q);
            p.banned = named;
            p.ban_ends = 1;
        }
    }

    /// F-END-1: a ban that has lasted its turns ends; a new turn's first Reaction Event is to come
    /// (`first`).
    #[cold]
    pub(super) fn age_bans(s: &mut State) {
        for p in &mut s.p {
            p.reacted = false;
            if p.banned != NONE {
                if p.ban_ends == 0 {
                    p.banned = NONE;
                } else {
                    p.ban_ends -= 1;
                }
            }
        }
    }
}
