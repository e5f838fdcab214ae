//! What the card language asks of a Trails position while an ability resolves or is checked
//! (`crate::core::lang::eval::Judge`): how many cards match a set, a player's quantities, the
//! condition words, a card's stats, and `x`.

use super::super::cards::{Target, TargetMode, Zone};
use super::super::dsl::{cond_word, quantity, stat};
use super::super::state::{bit, flag, Bits, State, That};
use super::views::side_matches;
use super::TrailsGame;
use crate::core::lang::ast::{Id, Side};
use crate::core::lang::eval::Judge;
use crate::core::Seat;

/// A position seen from an ability of `me`'s card `src`, with its `that` card.
pub(crate) struct Ctx<'a> {
    pub g: &'a TrailsGame,
    pub s: &'a State,
    pub me: Seat,
    pub src: u8,
    pub that: That,
    /// Read cards on printed values and end-of-turn changes, without static effects (a static's
    /// condition: decision T-STATIC-2, so statics never depend on each other).
    pub printed: bool,
}

impl TrailsGame {
    /// The judge of an ability of `me`'s card `src`.
    pub(crate) fn judge<'a>(&'a self, s: &'a State, me: Seat, src: u8, that: That) -> Ctx<'a> {
        Ctx {
            g: self,
            s,
            me,
            src,
            that,
            printed: false,
        }
    }

    /// The judge of a static's condition on `me`'s card `src` (decision T-STATIC-2).
    pub(crate) fn printed_judge<'a>(&'a self, s: &'a State, me: Seat, src: u8) -> Ctx<'a> {
        Ctx {
            printed: true,
            ..self.judge(s, me, src, That::NONE)
        }
    }

    /// The cards `t` names as a description (what `count`, `any` and `no` look at): a mask per
    /// seat.
    pub(crate) fn described(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        that: That,
        t: &Target,
        printed: bool,
    ) -> [u64; 2] {
        let mut out = [0u64; 2];
        let one = |out: &mut [u64; 2], q: Seat, i: u8, printed: bool| {
            // `self in homebase`, `that in field`: the card must be there.
            if let Some(z) = t.zone {
                let p = s.pl(q);
                let zone = match z {
                    Zone::Field => p.field,
                    Zone::Hand => p.hand,
                    Zone::Deck => p.deck_mask(),
                    Zone::Homebase => p.homebase,
                    Zone::Trail => p.trail,
                };
                if zone & bit(i) == 0 {
                    return;
                }
            }
            if t.filter.kinds != 0 && self.kinds_of(s.pl(q).card[i as usize]) & t.filter.kinds == 0
            {
                return;
            }
            let ok = if printed {
                self.card_matches_printed(s, q, i, &t.filter, (me, src))
            } else {
                self.card_matches(s, q, i, &t.filter, (me, src))
            };
            if ok {
                out[q.index()] |= bit(i);
            }
        };
        match t.mode {
            TargetMode::This => one(&mut out, me, src, printed),
            TargetMode::That => {
                if let Some((q, i)) = that.get() {
                    // Decision T-EFF-18: `that` card stunned (the one a `stuns` or `stunned`
                    // event is about) has lost its icons (T-STATE-2); a filter asks what is
                    // printed on it, as on a card off the field.
                    let stunned = s.pl(q).has(i, flag::STUNNED);
                    one(&mut out, q, i, printed || stunned)
                }
            }
            TargetMode::Role(r) => {
                if let Some((q, i)) = self.role(s, r) {
                    one(&mut out, q, i, printed)
                }
            }
            TargetMode::Choose | TargetMode::All => {
                for q in Seat::ALL {
                    if side_matches(t.side, me, q) {
                        let cards = match t.zone {
                            None => self.candidates(s, q, &t.filter),
                            Some(_) => self.zone_cards(s, me, q, t),
                        };
                        for i in Bits(cards) {
                            one(&mut out, q, i, printed);
                        }
                    }
                }
            }
        }
        out
    }
}

impl Judge<Target> for Ctx<'_> {
    fn count(&self, t: &Target) -> i32 {
        let m = self
            .g
            .described(self.s, self.me, self.src, self.that, t, self.printed);
        Seat::count_in(m) as i32
    }

    fn stat(&self, k: Id, t: &Target) -> i32 {
        let m = self
            .g
            .described(self.s, self.me, self.src, self.that, t, self.printed);
        let Some((q, i)) = Seat::first_in(m) else {
            return 0;
        };
        let (st, df) = if self.printed {
            self.g.printed_stats(self.s, q, i)
        } else {
            self.g.stats(self.s, q, i)
        };
        match k {
            stat::COST => i32::from(self.g.hot(self.s.pl(q).card[i as usize]).cost),
            stat::STR => i32::from(st),
            _ => i32::from(df),
        }
    }

    fn quantity(&self, k: Id, side: Side) -> i32 {
        let q = if side == Side::Enemy {
            self.me.other()
        } else {
            self.me
        };
        let p = self.s.pl(q);
        i32::from(match k {
            quantity::HAND => p.hand.count_ones() as i16,
            quantity::DECK => i16::from(p.deck_len),
            quantity::BOND => p.bond,
            quantity::HOMEBASE => p.homebase.count_ones() as i16,
            quantity::TRAIL => p.trail.count_ones() as i16,
            _ => self.s.combat.attackers.count_ones() as i16,
        })
    }

    fn word(&self, w: Id, side: Side) -> bool {
        let q = if side == Side::Enemy {
            self.me.other()
        } else {
            self.me
        };
        match w {
            cond_word::ATTACKING => self.g.in_attack(self.s) && self.s.combat.attacker == q,
            cond_word::DEFENDING => self.g.in_attack(self.s) && self.s.combat.attacker != q,
            cond_word::INITIATIVE => self.s.initiative == q,
            // Decision T-EFF-16: the card itself is being played with [Dispatch].
            cond_word::DISPATCHED => self.s.dispatching == That::of(self.me, self.src),
            // Decision T-REPL-2: the current attack was declared as a SCLM attack (T-COMBAT-8).
            cond_word::SCLM => self.g.in_attack(self.s) && self.s.combat.sclm,
            _ => unreachable!("the card file refuses the words the engine does not answer"),
        }
    }

    fn x(&self, side: Side) -> i32 {
        let [own, enemy] = match self.me {
            Seat::P1 => self.s.x,
            Seat::P2 => [self.s.x[1], self.s.x[0]],
        };
        i32::from(match side {
            Side::Own => own,
            Side::Enemy => enemy,
            Side::Any => own + enemy,
        })
    }
}
