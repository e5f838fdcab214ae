//! The combat phase (T-COMBAT, T-SCLM): legal attack targets, declaring an attack, the end of its
//! window, predicting a clash and resolving it.

use super::super::cards::{Icons, Phase, Trigger};
use super::super::state::instances;
use super::super::state::{bit, flag, AttackTarget, Bits, State, Step, That};
use super::events::Ev;
use super::views::{FieldView, Marks};
use super::TrailsGame;
use crate::core::Seat;

/// The result of a combat against a UNIT, before it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The attacking STR (group total, with [Martial Arts]).
    pub str_total: i16,
    pub stuns_defender: bool,
    /// The defender's STR reaches the fight-back target's DEF.
    pub stuns_attacker: bool,
    /// Overkill damage (0 when none).
    pub overkill: i16,
}

impl TrailsGame {
    /// The legal targets of a group: the opposing UNITs it may attack, and whether it may attack
    /// the player — only when no member could attack any opposing UNIT on its own (T-COMBAT-2,
    /// decision T-SCLM-2), so a group never dodges a UNIT (or [Hate]) that a member must face.
    pub fn group_targets(&self, m: &Marks, me: Seat, attackers: u64) -> (u64, bool) {
        let units = self.attack_targets(m, me, attackers);
        let player = units == 0 && Bits(attackers).all(|a| self.attack_targets(m, me, bit(a)) == 0);
        (units, player)
    }

    /// The opposing UNITs a group may target (T-COMBAT-2, T-ICON-COVERT, T-SCLM-2, T-COMBAT-6).
    /// `m` must cover the attackers (as [`Self::marks_of`] the field, or a field view, do).
    pub fn attack_targets(&self, m: &Marks, me: Seat, attackers: u64) -> u64 {
        let opp = me.other();
        let covert = m.covert[me.index()];
        // Decision T-ICON-COVERT-2: `sees_covert` attacks [Covert] UNITs as a [Covert] UNIT
        // does, and the others as it always could.
        let covert_all = attackers & !(covert | m.sees[me.index()]) == 0;
        let covert_none = attackers & covert == 0;
        // T-ICON-COVERT: covert attacks only covert, covert is attacked only by covert; a
        // group needs every member able to attack the UNIT (T-SCLM-2).
        let defenders = m.active[opp.index()];
        let mut legal = 0u64;
        if covert_all {
            legal |= defenders & m.covert[opp.index()];
        }
        if covert_none {
            legal |= defenders & !m.covert[opp.index()];
        }
        // T-COMBAT-6: a legal target with [Hate] must be chosen over the others.
        let hate = legal & m.hate[opp.index()];
        if hate != 0 {
            hate
        } else {
            legal
        }
    }

    /// T-COMBAT-3 (first sentence, decision T-COMBAT-7): the attackers are actioned as the attack
    /// is declared; attack and defend abilities queue; the window of T-RES-6 (c) opens.
    pub(super) fn declare(&self, s: &mut State, me: Seat, target: AttackTarget) {
        s.combat.target = target;
        s.combat.sclm = s.combat.attackers.count_ones() >= 2;
        s.combat.passes.act();
        s.combat.window_passes.act();
        let mut orgs = 0;
        for a in instances(s.combat.attackers) {
            orgs |= self.orgs(s, me, a);
            let p = s.pl_mut(me);
            p.set(a, flag::ACTIONED | flag::ATTACKED);
        }
        // T-ICON-ATTRIB: cards with [Attribution] gain the attackers' organizations this turn.
        s.pl_mut(me).attribution_orgs |= orgs;
        for a in instances(s.combat.attackers) {
            self.queue_trigger(s, me, a, Trigger::Attack);
        }
        if let AttackTarget::Unit(d) = target {
            self.queue_trigger(s, me.other(), d, Trigger::Defend);
        }
        if self.listens != 0 {
            self.declared_events(s, me, target);
        }
        s.step = Step::Window;
        s.actor = me.other();
    }

    /// The events of a declared attack for the abilities that listen (decision T-EFF-6): each
    /// attacker attacks, the defender is attacked, the combat starts.
    #[cold]
    #[inline(never)]
    fn declared_events(&self, s: &mut State, me: Seat, target: AttackTarget) {
        for a in Bits(s.combat.attackers) {
            self.happen(s, Ev::card(Trigger::Attack, me, a));
        }
        if let AttackTarget::Unit(d) = target {
            self.happen(s, Ev::card(Trigger::Defend, me.other(), d));
        }
        self.phase_event(s, Trigger::Start, Phase::Combat, me);
    }

    /// After the window: the attack goes on, or stops (T-COMBAT-5).
    pub(super) fn end_window(&self, s: &mut State) {
        let me = s.combat.attacker;
        let alive = s.combat.attackers & self.active_units(s, me);
        // An attack on a UNIT reads the icons of the remaining attackers and the defender here
        // and their STR/DEF in the clash: one view of those cards serves both (nothing changes
        // in between), where the icons alone took a static walk each. Likewise an attack on the
        // player facing active UNITs: the group's marks here, its STR below.
        let mut slot = None;
        // Decision T-COMBAT-10: the target must still be one the remaining attackers may attack
        // ([Covert] gained or lost in the window counts); [Hate] chose it and is not asked again.
        let target_ok = match s.combat.target {
            AttackTarget::Unit(d) => {
                alive != 0 && self.active_units(s, me.other()) & bit(d) != 0 && {
                    let v = self.view_of_in(s, Self::clash_cards(me, alive, d), &mut slot);
                    let covert = v.icons(me.other(), d).has(Icons::COVERT);
                    let sees = Icons(Icons::COVERT.0 | Icons::SEES_COVERT.0);
                    instances(alive).all(|a| {
                        let icons = v.icons(me, a);
                        if covert {
                            icons.has(sees)
                        } else {
                            !icons.has(Icons::COVERT)
                        }
                    })
                }
            }
            // Decision T-COMBAT-12: the player stays a legal target only while no remaining
            // attacker could attack an opposing UNIT ([Covert] gained or lost in the window).
            AttackTarget::Player => self.player_still_target(s, me, alive, &mut slot),
            AttackTarget::None => true,
        };
        s.combat.attackers = alive;
        if alive == 0 || !target_ok {
            // T-COMBAT-5: back to step I; non-stunned attacking UNITs are readied.
            let p = s.pl_mut(me);
            for a in Bits(alive) {
                p.clear(a, flag::ACTIONED);
            }
            self.end_combat(s, me);
            return;
        }
        match (s.combat.target, &slot) {
            (AttackTarget::Unit(_), _) if alive.count_ones() >= 2 => {
                s.step = Step::FightBack;
                s.actor = me.other();
            }
            // The view read above, of the state the combat resolves in.
            (AttackTarget::Unit(d), Some(v)) => {
                let fb = alive.trailing_zeros() as u8;
                s.combat.fight_back = fb;
                let c = self.clash(v, me, alive, d, fb, s.combat.sclm);
                self.resolve_clash(s, &c, d);
            }
            (AttackTarget::Player, Some(v)) => {
                s.combat.fight_back = alive.trailing_zeros() as u8;
                let str_sum = instances(alive).map(|a| v.stats(me, a).0).sum();
                self.hit_player(s, str_sum);
            }
            _ => {
                s.combat.fight_back = alive.trailing_zeros() as u8;
                self.resolve_combat(s);
            }
        }
    }

    /// The cards of a combat of `me`'s `attackers` against the UNIT `d`, as a mask per seat.
    #[inline]
    fn clash_cards(me: Seat, attackers: u64, d: u8) -> [u64; 2] {
        let mut cards = [0; 2];
        cards[me.index()] = attackers;
        cards[me.other().index()] = bit(d);
        cards
    }

    /// Decision T-COMBAT-12: whether the player is still a legal target of `me`'s remaining
    /// attackers `alive`: none remains, or none could attack an opposing UNIT
    /// ([`Self::group_targets`] of their [`Self::group_marks`]). With no active opposing UNIT
    /// none could ([`Self::attack_targets`] is empty), and the marks are not read. Otherwise the
    /// marks are those of a view of the group and the opposing active UNITs, built in `slot`
    /// (the marks of a view are [`Self::marks_of`] the same cards; the attack reads the group's
    /// STR off it).
    #[inline]
    fn player_still_target(
        &self,
        s: &State,
        me: Seat,
        alive: u64,
        slot: &mut Option<FieldView>,
    ) -> bool {
        alive == 0 || self.active_units(s, me.other()) == 0 || {
            let mut cards = [0; 2];
            cards[me.index()] = alive & s.pl(me).field;
            cards[me.other().index()] = self.active_units(s, me.other());
            let v = self.view_of_in(s, cards, slot);
            self.group_targets(v.marks(), me, alive).1
        }
    }

    /// T-ICON-MA: +1/+1 per combating opposing UNIT without [Martial Arts].
    fn martial_arts_bonus(v: &FieldView, q: Seat, i: u8, opponents: u64, opp: Seat) -> i16 {
        if !v.icons(q, i).has(Icons::MARTIAL_ARTS) {
            return 0;
        }
        Bits(opponents)
            .filter(|&o| !v.icons(opp, o).has(Icons::MARTIAL_ARTS))
            .count() as i16
    }

    /// What a combat between `me`'s `attackers` and `opp`'s UNIT `d` would do now, the
    /// defender fighting back `fb` (T-COMBAT-3, T-SCLM-1, T-ICON-MA); `sclm` when it was declared as
    /// a SCLM attack. Used by resolution and by agents that look ahead.
    /// `v` is a view of the state that covers the attackers and `d` ([`Self::field_view`]).
    /// Inlined: the heuristic asks it for every target and fight-back it weighs.
    #[inline(always)]
    pub fn clash(
        &self,
        v: &FieldView,
        me: Seat,
        attackers: u64,
        d: u8,
        fb: u8,
        sclm: bool,
    ) -> Clash {
        let opp = me.other();
        let dmask = bit(d);
        let mut str_total = 0i16;
        for a in instances(attackers) {
            str_total += v.stats(me, a).0 + Self::martial_arts_bonus(v, me, a, dmask, opp);
        }
        let d_bonus = Self::martial_arts_bonus(v, opp, d, attackers, me);
        let (dstr, ddef) = v.stats(opp, d);
        let (dstr, ddef) = (dstr + d_bonus, ddef + d_bonus);
        let fb_def = v.stats(me, fb).1 + Self::martial_arts_bonus(v, me, fb, dmask, opp);
        // Overkill: not a SCLM attack (even one reduced to a single UNIT, T-COMBAT-8), no
        // support, STR > DEF (T-COMBAT-3, T-SCLM-1, T-SCLM-3).
        let overkill = if !sclm && v.marks().supported[opp.index()] & dmask == 0 && str_total > ddef
        {
            str_total - ddef
        } else {
            0
        };
        Clash {
            str_total,
            stuns_defender: str_total >= ddef,
            stuns_attacker: dstr >= fb_def,
            overkill,
        }
    }

    /// T-COMBAT-3: combat resolution.
    pub(super) fn resolve_combat(&self, s: &mut State) {
        let me = s.combat.attacker;
        let attackers = s.combat.attackers;
        match s.combat.target {
            AttackTarget::Unit(d) => {
                let fb = s.combat.fight_back;
                let mut slot = None;
                let v = self.view_of_in(s, Self::clash_cards(me, attackers, d), &mut slot);
                let c = self.clash(v, me, attackers, d, fb, s.combat.sclm);
                self.resolve_clash(s, &c, d);
            }
            AttackTarget::Player => {
                let mut str_sum = 0i16;
                for a in Bits(attackers) {
                    str_sum += self.stats(s, me, a).0;
                }
                self.hit_player(s, str_sum);
            }
            AttackTarget::None => unreachable!(),
        }
    }

    /// T-COMBAT-3: the resolution of the current attack on the player, its attackers' STR summing
    /// to `str_sum`.
    fn hit_player(&self, s: &mut State, str_sum: i16) {
        let opp = s.combat.attacker.other();
        // Overkill on the player: bond loss equal to the attacking STR (group total).
        s.pl_mut(opp).bond -= str_sum.max(0);
        super::trace::bond(opp, super::trace::BondCause::Attack, -str_sum.max(0));
        s.combat.passes.act();
        self.end_combat(s, opp);
    }

    /// T-COMBAT-3: the resolution of clash `c` of the current attack against the UNIT `d`, the
    /// fight-back target chosen.
    fn resolve_clash(&self, s: &mut State, c: &Clash, d: u8) {
        let me = s.combat.attacker;
        let opp = me.other();
        let attackers = s.combat.attackers;
        let fb = s.combat.fight_back;
        // Decision T-REPL-1: replacements of its stuns are offered first.
        if self.has_instead && self.clash_offers(s, c, d, fb) {
            return;
        }
        let (stun_d, stun_fb) = (c.stuns_defender, c.stuns_attacker);
        // Both stuns happen together (T-COMBAT-3), each with its stun damage; the abilities they
        // trigger are read after both (decision T-EFF-6).
        let new_d = stun_d && self.stun_quiet(s, opp, d);
        let new_fb = stun_fb && self.stun_quiet(s, me, fb);
        s.pl_mut(opp).bond -= c.overkill;
        super::trace::bond(opp, super::trace::BondCause::Overkill, -c.overkill);
        if new_d {
            self.happen(s, Ev::card(Trigger::Stunned, opp, d));
        }
        if new_fb {
            self.happen(s, Ev::card(Trigger::Stunned, me, fb));
        }
        if self.has_instead {
            Self::finish_offers(s);
        }
        // Decision T-REPL-1: a UNIT that was not stunned (a shield, a replacement) was not
        // stunned by the combat.
        if new_d {
            for a in Bits(attackers) {
                if !s.pl(me).has(a, flag::STUNNED) {
                    let that = That::of(opp, d);
                    self.queue_trigger_that(s, me, a, Trigger::Stuns, that);
                    if self.listens & Trigger::Stuns.bit() != 0 {
                        self.happen(
                            s,
                            Ev {
                                that,
                                ..Ev::card(Trigger::Stuns, me, a)
                            },
                        );
                    }
                }
            }
        }
        if new_fb && !s.pl(opp).has(d, flag::STUNNED) {
            let that = That::of(me, fb);
            self.queue_trigger_that(s, opp, d, Trigger::Stuns, that);
            if self.listens & Trigger::Stuns.bit() != 0 {
                self.happen(
                    s,
                    Ev {
                        that,
                        ..Ev::card(Trigger::Stuns, opp, d)
                    },
                );
            }
        }
        s.combat.passes.act();
        self.end_combat(s, opp);
    }

    /// The attack is over (resolved or stopped): abilities "at the end of this combat" trigger
    /// and resolve while the attack's UNITs are still its (decision T-EFF-10); then
    /// [`Self::finish_combat`] hands step I to `next`.
    pub(super) fn end_combat(&self, s: &mut State, next: Seat) {
        s.step = Step::CombatEnd;
        s.actor = next;
        let me = s.combat.attacker;
        self.phase_event(s, Trigger::End, Phase::Combat, me);
        if s.queue.is_empty() {
            self.finish_combat(s);
        }
    }

    /// After the abilities at the end of a combat: the changes "during this combat" end
    /// (decision T-EFF-10) and step I comes back, to `actor`.
    pub(super) fn finish_combat(&self, s: &mut State) {
        if !s.combat_mods.is_empty() {
            self.undo_combat_mods(s);
        }
        if !s.bans.is_empty() {
            Self::end_combat_bans(s);
        }
        s.combat.attackers = 0;
        s.combat.target = AttackTarget::None;
        s.step = Step::Propose;
    }

    /// Takes back the STR/DEF changes "during this combat" of the UNITs still on the field.
    #[cold]
    #[inline(never)]
    fn undo_combat_mods(&self, s: &mut State) {
        for k in 0..s.combat_mods.len() {
            let m = s.combat_mods.as_slice()[k];
            let (q, i) = (m.card.seat(), m.card.inst());
            let p = s.pl_mut(q);
            p.str_mod[i as usize] = p.str_mod[i as usize].wrapping_sub(m.str);
            p.def_mod[i as usize] = p.def_mod[i as usize].wrapping_sub(m.def);
        }
        s.combat_mods.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::trails::walk_test_games;

    /// The bundled decks, every pair of which the tests below play.
    fn bundled_games() -> Vec<TrailsGame> {
        crate::games::trails::test_games(false)
    }

    /// `player_still_target` (which skips the marks when the opponent has no active UNIT) says
    /// what the group's targets from its marks say (decision T-COMBAT-12), for every seat and
    /// every group of one or all of its active UNITs, at every position of random games of every
    /// pair of bundled decks.
    #[test]
    fn the_player_stays_a_target_as_the_group_targets_say() {
        let (mut short, mut read) = (0u32, 0u32);
        walk_test_games(&bundled_games(), 4, 11, |g, s, _, seed| {
            for me in Seat::ALL {
                let units = g.active_units(s, me);
                let groups = Bits(units).map(bit).chain([units, 0]);
                for alive in groups {
                    let clear = alive == 0 || {
                        let m = g.group_marks(s, me, alive);
                        g.group_targets(&m, me, alive).1
                    };
                    assert_eq!(
                        g.player_still_target(s, me, alive, &mut None),
                        clear,
                        "seed {seed}, {me:?}, group {alive:#x}"
                    );
                    if alive != 0 {
                        if g.active_units(s, me.other()) == 0 {
                            short += 1;
                        } else {
                            read += 1;
                        }
                    }
                }
            }
        });
        eprintln!("player target: {short} short, {read} read");
        assert!(short > 10_000 && read > 10_000, "{short} {read}");
    }

    impl TrailsGame {
        /// [`TrailsGame::end_window`] as it was before it shared one view: the icons read card
        /// by card (`icons`, a static walk each) and the clash's view built again by
        /// `resolve_combat`; for an attack on the player, the group's marks (`group_marks`) and
        /// then its STR card by card (`stats`).
        fn end_window_clear(&self, s: &mut State) {
            let me = s.combat.attacker;
            let alive = s.combat.attackers & self.active_units(s, me);
            let target_ok = match s.combat.target {
                AttackTarget::Unit(d) => {
                    self.active_units(s, me.other()) & bit(d) != 0 && {
                        let covert = self.icons(s, me.other(), d).has(Icons::COVERT);
                        let sees = Icons(Icons::COVERT.0 | Icons::SEES_COVERT.0);
                        Bits(alive).all(|a| {
                            let icons = self.icons(s, me, a);
                            if covert {
                                icons.has(sees)
                            } else {
                                !icons.has(Icons::COVERT)
                            }
                        })
                    }
                }
                AttackTarget::Player => {
                    alive == 0 || self.active_units(s, me.other()) == 0 || {
                        let m = self.group_marks(s, me, alive);
                        self.group_targets(&m, me, alive).1
                    }
                }
                AttackTarget::None => true,
            };
            s.combat.attackers = alive;
            if alive == 0 || !target_ok {
                let p = s.pl_mut(me);
                for a in Bits(alive) {
                    p.clear(a, flag::ACTIONED);
                }
                self.end_combat(s, me);
                return;
            }
            if matches!(s.combat.target, AttackTarget::Unit(_)) && alive.count_ones() >= 2 {
                s.step = Step::FightBack;
                s.actor = me.other();
            } else {
                s.combat.fight_back = alive.trailing_zeros() as u8;
                self.resolve_combat(s);
            }
        }
    }

    /// `end_window` (one view of the remaining attackers and the defender for the target test
    /// and the clash; one of the group and the opposing active UNITs for the marks and the STR of
    /// an attack on the player) leaves the state the clear form leaves (`end_window_clear`), at
    /// every position of the window step of random games of every pair of bundled decks.
    #[test]
    fn the_window_ends_as_the_clear_form_ends_it() {
        let (mut clash, mut other) = (0u32, 0u32);
        walk_test_games(&bundled_games(), 8, 5, |g, s, _, seed| {
            if s.step == Step::Window && matches!(s.pending, super::super::Pending::None) {
                let (mut fast, mut clear) = (*s, *s);
                g.end_window(&mut fast);
                g.end_window_clear(&mut clear);
                assert_eq!(fast, clear, "seed {seed}, turn {}", s.turn);
                let alive = s.combat.attackers & g.active_units(s, s.combat.attacker);
                if matches!(s.combat.target, AttackTarget::Unit(_)) && alive.count_ones() == 1 {
                    clash += 1;
                } else {
                    other += 1;
                }
            }
        });
        eprintln!("end of window: {clash} clashes, {other} other");
        assert!(clash > 2_000 && other > 2_000, "{clash} {other}");
    }
}
