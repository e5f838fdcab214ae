//! Replacements and redirection (decisions T-REPL-1 and T-REPL-2): a stun that an `instead
//! stunned …` text may replace waits while the text is offered to its controller ("you may …
//! instead"), and a `redirect` makes another UNIT the defending unit of the current attack.
//!
//! Everything here is cold: a stun looks for replacements only when a card of the two decks has
//! one ([`TrailsGame::has_instead`]), and a redirect or an `attackable` filter only runs for the
//! cards that say so.

use super::super::cards::{kind, Effect, Icons, Op, Target, TargetMode, Trigger};
use super::super::state::{bit, flag, AttackTarget, Bits, Cursor, Pending, State, Step, That};
use super::events::Ev;
use super::views::side_matches;
use super::{Clash, TrailsGame};
use crate::core::Seat;

impl TrailsGame {
    /// Decision T-REPL-1: offers the next replacement for the stuns about to happen to `units`
    /// (a mask per seat), caused by `cause` (whose card and its [`kind`]s; `None` for a
    /// combat). The replacement's ability goes to the front of the queue with `that` the UNIT,
    /// and the stuns wait; whether one was offered. Each (replacement, UNIT) is offered once;
    /// a UNIT whose next stun does not happen anyway (a shield, a replacement that prevented it)
    /// is offered nothing.
    #[cold]
    #[inline(never)]
    pub(super) fn offer_stuns(
        &self,
        s: &mut State,
        units: [u64; 2],
        cause: Option<(Seat, u8)>,
    ) -> bool {
        if s.repl.offered.is_full() || s.queue.is_full() || s.shields.is_full() {
            return false;
        }
        for q in [s.initiative, s.initiative.other()] {
            for i in Bits(units[q.index()]) {
                let that = That::of(q, i);
                if s.shields.contains(&that) {
                    continue;
                }
                for l in [s.initiative, s.initiative.other()] {
                    for src in Bits(self.ability_sources(s, l)) {
                        let id = self.cid(s, l, src);
                        if self.listen_of[id] & Trigger::Instead.bit() == 0 {
                            continue;
                        }
                        let card = self.card(id);
                        let Some(k) = card
                            .abilities
                            .iter()
                            .position(|a| a.trigger == Trigger::Instead)
                        else {
                            continue;
                        };
                        let ab = &card.abilities[k];
                        let by_ok = match (ab.about.by, cause) {
                            (None, _) => true,
                            (Some((side, kinds)), Some((cq, ck))) => {
                                side_matches(side, l, cq) && (kinds == 0 || kinds & ck != 0)
                            }
                            (Some(_), None) => false,
                        };
                        let offer = (That::of(l, src), that);
                        if !by_ok
                            || s.repl.offered.contains(&offer)
                            || !self.about_ok(
                                s,
                                l,
                                src,
                                &ab.about,
                                &Ev::card(Trigger::Instead, q, i),
                            )
                            || (ab.gated() && !self.gate_open(s, l, src, ab, that))
                        {
                            continue;
                        }
                        let cursor = Cursor::new(l, src, k as u8, that);
                        if !self.payable(s, &cursor) {
                            continue;
                        }
                        // Decision T-ONCE-1: offering is triggering.
                        if ab.once {
                            s.pl_mut(l).once |= bit(src);
                        }
                        s.repl.offered.push(offer);
                        s.repl.unit = that;
                        s.queue.insert(0, cursor);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether what a replacement does instead of the stun can be done now: each card its
    /// steps before `prevent` must name is there (decision T-REPL-1: "you may <cost> instead" is
    /// offered only when the cost can be paid).
    fn payable(&self, s: &State, c: &Cursor) -> bool {
        for op in self.ops(s, c) {
            let Op::Do(e) = op else { continue };
            if let Effect::Prevent = e {
                return true;
            }
            let Some(t) = e.target() else { continue };
            let needs = match t.mode {
                TargetMode::Choose => t.min > 0,
                TargetMode::All => false,
                _ => true,
            };
            if needs && Seat::count_in(self.named_cards(s, c, t)) == 0 {
                return false;
            }
        }
        true
    }

    /// The stuns of a combat about to be resolved (T-COMBAT-3) wait for their replacements:
    /// whether one was offered (the combat is resolved again, [`Self::clash_again`], when the
    /// replacements have resolved).
    #[cold]
    #[inline(never)]
    pub(super) fn clash_offers(&self, s: &mut State, c: &Clash, d: u8, fb: u8) -> bool {
        let me = s.combat.attacker;
        let mut units = [0u64; 2];
        if c.stuns_defender {
            units[me.other().index()] |= bit(d);
        }
        if c.stuns_attacker {
            units[me.index()] |= bit(fb);
        }
        if units == [0; 2] || !self.offer_stuns(s, units, None) {
            return false;
        }
        s.step = Step::Clash;
        true
    }

    /// Step [`Step::Clash`]: the replacements have resolved; the combat is resolved with its
    /// UNITs as they are now (T-COMBAT-5 if one of them has gone: decision T-REPL-1).
    pub(super) fn clash_again(&self, s: &mut State) {
        let me = s.combat.attacker;
        let alive = s.combat.attackers & self.active_units(s, me);
        let target_ok = match s.combat.target {
            AttackTarget::Unit(d) => self.active_units(s, me.other()) & bit(d) != 0,
            _ => true,
        };
        if alive == 0 || !target_ok {
            let p = s.pl_mut(me);
            for a in Bits(alive) {
                p.clear(a, flag::ACTIONED);
            }
            s.combat.attackers = alive;
            Self::finish_offers(s);
            return self.end_combat(s, me);
        }
        s.combat.attackers = alive;
        if alive & bit(s.combat.fight_back) == 0 {
            s.combat.fight_back = alive.trailing_zeros() as u8;
        }
        self.resolve_combat(s);
    }

    /// The stuns waited for are done: the replacements offered are forgotten, and so is a
    /// prevention its stun did not use up (the stun no longer happened).
    pub(super) fn finish_offers(s: &mut State) {
        for k in 0..s.repl.offered.len() {
            let unit = s.repl.offered.as_slice()[k].1;
            if let Some(j) = s.shields.as_slice().iter().position(|&t| t == unit) {
                s.shields.remove(j);
            }
        }
        s.repl = Default::default();
    }

    /// `stun …` (T-TERM-STUN) when a card of the match has a replacement (decision T-REPL-1):
    /// the UNITs it would stun are found first; while replacements are offered for them, the
    /// program counter stays on the effect (a chosen target is kept in [`State::repl`]), and
    /// the stuns happen once none is left to offer.
    #[cold]
    #[inline(never)]
    pub(super) fn stun_effect(&self, s: &mut State, c: Cursor, e: Effect, t: Target) {
        let me = c.controller();
        let mut units = [0u64; 2];
        match t.mode {
            TargetMode::This => {
                if self.active_units(s, me) & bit(c.source()) != 0
                    && self.hot(self.cid(s, me, c.source())).ctype
                        == super::super::cards::CardType::Unit
                {
                    units[me.index()] = bit(c.source());
                }
            }
            TargetMode::All => units = self.effect_targets(s, me, &t, c.source()),
            TargetMode::Choose => {
                let one = match s.repl.chosen.get() {
                    Some(u) => Some(u),
                    None => {
                        let m = self.choice_targets(s, &c, &e, &t);
                        let n = Seat::count_in(m);
                        if n > 1 {
                            s.pending = Pending::Target;
                            return;
                        }
                        Seat::first_in(m)
                    }
                };
                if let Some((q, i)) = one {
                    if self.active_units(s, q) & bit(i) != 0 {
                        units[q.index()] = bit(i);
                    }
                    s.repl.chosen = That::of(q, i);
                    s.queue[0].that = That::of(q, i);
                }
            }
            TargetMode::That | TargetMode::Role(_) => {
                let m = self.described(s, me, c.source(), c.that, &t, false);
                for q in Seat::ALL {
                    if let Some(i) = Bits(m[q.index()] & self.active_units(s, q)).next() {
                        units[q.index()] = bit(i);
                        break;
                    }
                }
            }
        }
        // What stuns: the ability's card, an EVENT or arts as it was played.
        let src_kind =
            match self.card(self.cursor_card(s, &c)).abilities[c.ability as usize].trigger {
                Trigger::Event => kind::EVENT,
                Trigger::Arts => kind::ARTS,
                _ => self.kinds_of(self.cursor_card(s, &c)) & !kind::ARTS,
            };
        if self.offer_stuns(s, units, Some((me, src_kind))) {
            return;
        }
        for q in Seat::ALL {
            for i in Bits(units[q.index()]) {
                self.apply_to_unit(s, &e, q, i);
            }
        }
        Self::finish_offers(s);
        s.queue[0].pc += 1;
    }

    /// `prevent` (decision T-REPL-1): the stun the replacement resolving now replaces does not
    /// happen — if the step before it did something ("if you do"), or if it is the text's first
    /// step after its `may`.
    #[cold]
    #[inline(never)]
    pub(super) fn prevent(&self, s: &mut State) {
        let c = s.queue[0];
        let did = match c.pc.checked_sub(1).map(|k| &self.ops(s, &c)[k as usize]) {
            Some(Op::Do(_)) => s.x != [0; 2],
            _ => true,
        };
        let unit = s.repl.unit;
        if did && unit != That::NONE && !s.shields.contains(&unit) && !s.shields.is_full() {
            s.shields.push(unit);
        }
        s.x = [0; 2];
        s.queue[0].pc += 1;
    }

    /// `redirect` (decision T-REPL-2): `q`'s UNIT `i` becomes the defending unit of the current
    /// attack, if that attack targets one of `q`'s UNITs.
    pub(super) fn redirect(&self, s: &mut State, q: Seat, i: u8) {
        if q != s.combat.attacker && matches!(s.combat.target, AttackTarget::Unit(_)) {
            s.combat.target = AttackTarget::Unit(i);
        }
    }

    /// Whether the current attack's attacking UNITs could attack `q`'s UNIT `i` under the
    /// [Covert] rules (T-ICON-COVERT, [Hate] not asked): the `attackable` filter (decision
    /// T-REPL-2).
    #[cold]
    #[inline(never)]
    pub(crate) fn attackable(&self, s: &State, q: Seat, i: u8) -> bool {
        let me = s.combat.attacker;
        if q == me || s.combat.attackers == 0 || !self.in_attack(s) {
            return false;
        }
        let covert = self.icons(s, q, i).has(Icons::COVERT);
        Bits(s.combat.attackers).all(|a| self.icons(s, me, a).has(Icons::COVERT) == covert)
    }
}
