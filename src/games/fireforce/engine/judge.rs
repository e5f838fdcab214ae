//! What the card language asks of a Fire Force position while an ability resolves or is checked
//! (`crate::core::lang::eval::Judge`): how many cards match a set, a player's quantities, the
//! condition words, a card's stats, and `x`.

use super::super::cards::{CardType, Mode, Target, Zone};
use super::super::dsl::{cond_word, quantity, stat};
use super::*;
use crate::core::lang::ast::Id;
use crate::core::lang::eval::Judge;

/// A position seen from an ability of `me`'s card `src`, with its `that` card.
pub(crate) struct Ctx<'a> {
    pub g: &'a FireForceGame,
    pub s: &'a State,
    pub me: Seat,
    pub src: u8,
    pub that: u8,
    /// Read power without static abilities (a static's condition: decision F-STATIC-1, so
    /// statics never depend on each other).
    pub printed: bool,
}

impl FireForceGame {
    /// The judge of an ability of `me`'s card `src`.
    pub(crate) fn judge<'a>(&'a self, s: &'a State, me: Seat, src: u8, that: u8) -> Ctx<'a> {
        Ctx {
            g: self,
            s,
            me,
            src,
            that,
            printed: false,
        }
    }

    /// The judge of a static's condition on `me`'s card `src` (decision F-STATIC-1).
    pub(crate) fn printed_judge<'a>(&'a self, s: &'a State, me: Seat, src: u8) -> Ctx<'a> {
        Ctx {
            printed: true,
            ..self.judge(s, me, src, NONE)
        }
    }

    /// The cards of `q` in `zone` of the kinds `types` (0: every kind).
    pub(crate) fn zone_cards(s: &State, q: Seat, zone: Zone, types: u8) -> u64 {
        let p = s.pl(q);
        match zone {
            Zone::Scene => {
                let mut m = 0;
                if types == 0 || types & CardType::UNIT_BIT != 0 {
                    m |= p.units();
                }
                if types == 0 || types & CardType::FLAME_BIT != 0 {
                    m |= p.flame_cards();
                }
                m
            }
            Zone::Hand => p.hand,
            Zone::Deck => p.deck_mask(),
            Zone::Life => p.life_mask(),
            Zone::Adolla => p.adolla,
            Zone::FlameDeck => p.flame_deck,
        }
    }

    /// Whether `q`'s card `i`, in `t`'s zone, passes `t`'s filter for an ability of `who`'s card
    /// `src`: on the Scene with the position (power with statics unless `printed`), elsewhere on
    /// the printed card.
    pub(crate) fn card_matches(
        &self,
        s: &State,
        q: Seat,
        i: u8,
        t: &Target,
        (who, src): (Seat, u8),
        printed: bool,
    ) -> bool {
        let f = &t.filter;
        let c = self.card_of(s, q, i);
        let on_scene = s.pl(q).scene & 1 << i != 0;
        if !on_scene {
            return f.printed_ok(c)
                && !(f.other && q == who && i == src)
                && (!f.named || self.name_of[s.pl(q).card[i as usize] as usize] == s.named);
        }
        if c.is_unit() && s.pl(q).as_flame & 1 << i == 0 {
            if !printed {
                return self.matches(s, q, i, f, who, src);
            }
            let p = s.pl(q);
            let (ready, this) = (p.exhausted & 1 << i == 0, q == who && i == src);
            return f.card_ok(c)
                && Self::state_filter(f, ready, this)
                && (!f.has_state_extras() || self.extras_ok(s, q, i, f))
                && self.power_ok(f, self.base_power(s, q, i));
        }
        // A Flame card (or a card put as one): ready, given, `other`.
        let p = s.pl(q);
        let ready = p.exhausted & 1 << i == 0;
        let given = i as usize >= FLAME_BASE && p.given_to[i as usize - FLAME_BASE] != NONE;
        (f.types == 0 || f.types & CardType::FLAME_BIT != 0)
            && (f.attrs == 0 || c.attrs & f.attrs != 0)
            && f.flame.is_none_or(|x| x)
            && f.ready.is_none_or(|r| r == ready)
            && f.given.is_none_or(|g| g == given)
            && !(f.other && q == who && i == src)
    }

    /// The cards `t` names as a description (what `count`, `any` and `no` look at), a mask per
    /// seat.
    pub(crate) fn described(
        &self,
        s: &State,
        me: Seat,
        src: u8,
        that: u8,
        t: &Target,
        printed: bool,
    ) -> [u64; 2] {
        let mut out = [0u64; 2];
        let mut one = |q: Seat, i: u8| {
            let in_zone = Self::zone_cards(s, q, t.zone, 0) & 1 << i != 0;
            if in_zone && self.card_matches(s, q, i, t, (me, src), printed) {
                out[q.index()] |= 1 << i;
            }
        };
        match t.mode {
            Mode::This => one(me, src),
            Mode::That => {
                if let Some((q, i)) = that_card(that) {
                    one(q, i)
                }
            }
            Mode::Attacker => {
                let a = s.battle.attacker;
                if a != NONE && s.step != Step::Main {
                    one(s.active, a)
                }
            }
            Mode::Attacked => {
                // Decision F-BAT-19: once the damage step is over, the Unit attacked there
                // (also when it left the Scene).
                let b = if matches!(s.step, Step::BattleEnd | Step::BattleOver) {
                    s.battle.hit
                } else {
                    s.battle.target
                };
                if b != NONE && !s.battle.on_player {
                    one(s.active.other(), b)
                }
            }
            Mode::Bearer => {
                if src as usize >= FLAME_BASE && (src as usize) < FLAME_BASE + FLAME_DECK {
                    let u = s.pl(me).given_to[src as usize - FLAME_BASE];
                    if u != NONE {
                        one(me, u)
                    }
                }
            }
            Mode::Choose | Mode::UpTo | Mode::All | Mode::Each => {
                for q in Seat::ALL {
                    if side_ok(t.side, me, q) {
                        for i in Bits(Self::zone_cards(s, q, t.zone, t.filter.types)) {
                            one(q, i);
                        }
                    }
                }
            }
        }
        out
    }
}

impl Ctx<'_> {
    fn seat(&self, side: crate::core::lang::Side) -> Seat {
        if side == crate::core::lang::Side::Enemy {
            self.me.other()
        } else {
            self.me
        }
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
        let c = self.g.card_of(self.s, q, i);
        let on_scene = c.is_unit() && self.s.pl(q).units() & 1 << i != 0;
        match k {
            stat::COST => i32::from(c.cost),
            stat::POWER if on_scene && self.printed => self.g.base_power(self.s, q, i),
            stat::POWER if on_scene => self.g.power(self.s, q, i),
            stat::POWER => i32::from(c.power),
            _ => i32::from(c.support),
        }
    }

    fn quantity(&self, k: Id, side: crate::core::lang::Side) -> i32 {
        let p = self.s.pl(self.seat(side));
        match k {
            quantity::HAND => p.hand.count_ones() as i32,
            quantity::DECK => i32::from(p.deck_len),
            quantity::LIFE => i32::from(p.life_len),
            quantity::ADOLLA => p.adolla.count_ones() as i32,
            _ => unreachable!("every quantity is answered"),
        }
    }

    fn word(&self, w: Id, side: crate::core::lang::Side) -> bool {
        let q = self.seat(side);
        let s = self.s;
        match w {
            cond_word::OWN_TURN => s.active == self.me,
            cond_word::PREPARATION => s.step == Step::PrepFlame && s.active == q,
            cond_word::PLAYER_ATTACKED => {
                s.battle.on_player
                    && s.battle.attacker != NONE
                    && q == s.active.other()
                    && !matches!(s.step, Step::Main | Step::End)
            }
            _ => unreachable!("every condition word is answered"),
        }
    }

    fn x(&self, side: crate::core::lang::Side) -> i32 {
        let own = i32::from(self.s.x[self.me.index()]);
        let enemy = i32::from(self.s.x[self.me.other().index()]);
        match side {
            crate::core::lang::Side::Own => own,
            crate::core::lang::Side::Enemy => enemy,
            crate::core::lang::Side::Any => own + enemy,
        }
    }
}
