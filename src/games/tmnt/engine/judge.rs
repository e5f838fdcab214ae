//! What the card language asks of a TMNT position while a text resolves, triggers or applies
//! (`crate::core::lang::eval::Judge`): which cards a set names, a player's quantities, the
//! condition words, `x`. Cold code: a card file of plain texts never comes here.

use super::super::cards::{zone, Card, Filter, Target};
use super::super::dsl::{cond_word, quantity, role};
use super::{side_ok, TmntGame};
use crate::core::lang::ast::{Id, Side};
use crate::core::lang::eval::Judge;
use crate::core::lang::TargetMode;
use crate::core::Seat;
use crate::games::tmnt::state::*;

/// A position seen from a text of `me`'s card `src`.
pub(crate) struct Ctx<'a> {
    pub g: &'a TmntGame,
    pub s: &'a State,
    pub me: Seat,
    pub src: u8,
    /// Read cards on printed powers (a static's condition: M-STATIC-1, so statics never depend
    /// on each other).
    pub printed: bool,
}

impl TmntGame {
    /// The judge of a text of `me`'s card `src`.
    pub(crate) fn judge<'a>(&'a self, s: &'a State, me: Seat, src: u8) -> Ctx<'a> {
        Ctx {
            g: self,
            s,
            me,
            src,
            printed: false,
        }
    }

    /// Whether `c` holds for a text of `me`'s card `src`.
    #[inline(never)]
    pub(crate) fn holds(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        c: &super::super::cards::Cond,
    ) -> bool {
        crate::core::lang::eval::cond(&self.judge(s, me, src), c)
    }

    /// Whether a static's condition holds (M-STATIC-1: on printed powers).
    #[inline(never)]
    pub(crate) fn static_holds(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        c: &super::super::cards::Cond,
    ) -> bool {
        let j = Ctx {
            printed: true,
            ..self.judge(s, me, src)
        };
        crate::core::lang::eval::cond(&j, c)
    }

    /// Whether the Attack phase is under way (its attacking card is `attacker`).
    pub(crate) fn in_attack(s: &State) -> bool {
        matches!(
            s.stage,
            Stage::AttackBegin
                | Stage::AttackStepBegin
                | Stage::AttackStep
                | Stage::CounterBegin
                | Stage::Counter
                | Stage::ForwardBegin
                | Stage::Window
                | Stage::Forward
                | Stage::FlipTexts
                | Stage::CounterTrash
                | Stage::Result
                | Stage::ResultWindow
                | Stage::KeepActive
                | Stage::KeepOther
                | Stage::Replace
                | Stage::Cleanup
        )
    }

    /// The card of a role now: `attacker`, the face-up card on the turn player's Block Zone 1
    /// in its Attack phase (M-ATK-2); `counter`, the card in the defender's Attack Zone.
    pub(crate) fn role_card(&self, s: &State, r: u8) -> Option<(Seat, u8)> {
        if !Self::in_attack(s) {
            return None;
        }
        let a = s.active;
        match r {
            role::ATTACKER => {
                let i = s.pl(a).block[0];
                (i != NONE && s.pl(a).up & (1 << i) != 0).then_some((a, i))
            }
            _ => s
                .pl(a.other())
                .attack_zone()
                .first()
                .map(|&i| (a.other(), i)),
        }
    }

    /// The instances of `q` in zone `z` (a [`zone`] id).
    pub(crate) fn zone_mask(s: &State, q: Seat, z: u8) -> u64 {
        let p = s.pl(q);
        match z {
            zone::BLOCKS => p.blocks_mask(),
            zone::TRASH => p.trash,
            zone::HAND => p.hand,
            zone::DECK => p.deck_mask(),
            zone::ZONE1 => {
                let i = p.block[0];
                if i == NONE {
                    0
                } else {
                    1 << i
                }
            }
            zone::ITEMS => p.items,
            zone::ATTACK_ZONE => p.attack_zone().iter().fold(0, |m, &i| m | 1 << i),
            _ => p.field_up(),
        }
    }

    /// Whether `q`'s instance `i` passes `f` for a text of `me`'s card `src` (power: the
    /// current one of a face-up card in play, else printed; or printed when `printed`).
    pub(crate) fn passes(
        &self,
        s: &State,
        q: Seat,
        i: u8,
        f: &Filter,
        (me, src): (Seat, u8),
        printed: bool,
    ) -> bool {
        if f.other && q == me && i == src {
            return false;
        }
        let p = s.pl(q);
        let c: &Card = self.card_of(s, q, i);
        let bit = 1u64 << i;
        let in_play = p.field_up() & bit != 0;
        let power = if in_play && !printed {
            self.power(s, q, i)
        } else {
            i32::from(c.power)
        };
        if !Self::matches_card(c, f, power) || !super::super::cards::CardDb::kind_and_title_ok(c, f)
        {
            return false;
        }
        if f.face != 0 {
            let up =
                (p.up | p.trash | p.items | Self::zone_mask(s, q, zone::ATTACK_ZONE)) & bit != 0;
            if up != (f.face == 1) {
                return false;
            }
        }
        if let Some(want) = f.attacking {
            let is = self.role_card(s, role::ATTACKER) == Some((q, i));
            if is != want {
                return false;
            }
        }
        if f.those && s.those[q.index()] & bit == 0 {
            return false;
        }
        true
    }

    /// The cards set `t` names for a text of `me`'s card `src`: a mask per seat.
    pub(crate) fn described(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        t: &Target,
        printed: bool,
    ) -> [u64; 2] {
        let mut out = [0u64; 2];
        let mut one = |q: Seat, i: u8| {
            if Self::zone_mask(s, q, t.zone) & (1 << i) != 0
                && self.passes(s, q, i, &t.filter, (me, src), printed)
            {
                out[q.index()] |= 1 << i;
            }
        };
        match t.mode {
            TargetMode::This => one(me, src),
            TargetMode::That => {
                if s.that != NONE {
                    one(Seat::from_index(usize::from(s.that >> 6)), s.that & 63)
                }
            }
            TargetMode::Role(r) => {
                if let Some((q, i)) = self.role_card(s, r) {
                    one(q, i)
                }
            }
            TargetMode::All | TargetMode::Choose => {
                for q in Seat::ALL {
                    if side_ok(t.side, me, q) {
                        for i in Bits(Self::zone_mask(s, q, t.zone)) {
                            one(q, i);
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
        let m = self.g.described(self.s, self.me, self.src, t, self.printed);
        Seat::count_in(m) as i32
    }

    fn stat(&self, _: Id, t: &Target) -> i32 {
        let m = self.g.described(self.s, self.me, self.src, t, self.printed);
        let Some((q, i)) = Seat::first_in(m) else {
            return 0;
        };
        if self.printed {
            i32::from(self.g.card_of(self.s, q, i).power)
        } else {
            self.g.power(self.s, q, i)
        }
    }

    fn quantity(&self, k: Id, side: Side) -> i32 {
        let q = if side == Side::Enemy {
            self.me.other()
        } else {
            self.me
        };
        let p = self.s.pl(q);
        match k {
            quantity::HAND => p.hand.count_ones() as i32,
            quantity::DECK => i32::from(p.deck_len),
            quantity::TRASH => p.trash.count_ones() as i32,
            _ => p.blocks_mask().count_ones() as i32,
        }
    }

    fn word(&self, w: Id, _: Side) -> bool {
        let s = self.s;
        match w {
            cond_word::OWN_TURN => s.active == self.me,
            // This card was placed in the Counter step: the defender places only there
            // (M-ATK-7), so its card in its Attack Zone.
            cond_word::COUNTER_STEP => {
                self.me != s.active
                    && TmntGame::zone_mask(s, self.me, zone::ATTACK_ZONE) & (1 << self.src) != 0
            }
            // This card was flipped on Block Zone 1 in its owner's Flip phase: its <Flip> text
            // resolves there now (M-FLIP-1).
            cond_word::FLIP_PHASE => {
                s.stage == Stage::FlipDone
                    && self.me == s.active
                    && s.pl(self.me).block[0] == self.src
            }
            cond_word::RESULT_STEP => matches!(
                s.stage,
                Stage::Result
                    | Stage::ResultWindow
                    | Stage::KeepActive
                    | Stage::KeepOther
                    | Stage::Replace
                    | Stage::Cleanup
                    | Stage::CleanupDone
            ),
            cond_word::BEFORE_DAMAGE => matches!(
                s.stage,
                Stage::AttackBegin
                    | Stage::AttackStepBegin
                    | Stage::AttackStep
                    | Stage::CounterBegin
                    | Stage::Counter
                    | Stage::ForwardBegin
                    | Stage::Window
            ),
            _ => unreachable!("the card file refuses the words the engine does not answer"),
        }
    }

    fn x(&self, side: Side) -> i32 {
        let own = i32::from(self.s.x[self.me.index()]);
        let enemy = i32::from(self.s.x[self.me.other().index()]);
        match side {
            Side::Own => own,
            Side::Enemy => enemy,
            Side::Any => own + enemy,
        }
    }
}
