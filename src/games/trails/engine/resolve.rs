//! Abilities (T-EFF): triggers queue them, the settle loop resolves the front one effect by
//! effect, an effect picks its targets and acts on UNITs; plan, rebuild and effect targets become
//! choices of the controller.

use super::super::action::Action;
use super::super::cards::{kind, Amount, Dur, Zone};
use super::super::cards::{
    Ability, CardType, Effect, Filter, Icons, Op, Prohibition, Side, Target, TargetMode, Trigger,
};
use super::super::effects::mark;
use super::super::state::{
    bit, flag, AttackTarget, Bits, CombatMod, Cursor, Lid, Pending, State, That,
};
use super::events::Ev;
use super::views::{bounds_ok, ready_ok, side_matches};
use super::TrailsGame;
use crate::core::lang::eval;
use crate::core::Seat;

impl TrailsGame {
    /// Queues the ability of `q`'s card `i` that `trigger` starts, if the card has one, its
    /// condition holds and, for a once-per-turn ability, it has not triggered this turn.
    #[inline(always)]
    pub(super) fn queue_trigger(&self, s: &mut State, q: Seat, i: u8, trigger: Trigger) {
        self.queue_trigger_that(s, q, i, trigger, That::NONE);
    }

    /// [`Self::queue_trigger`] with `that` card for the ability (`stuns`: the one stunned).
    #[inline(always)]
    pub(super) fn queue_trigger_that(
        &self,
        s: &mut State,
        q: Seat,
        i: u8,
        trigger: Trigger,
        that: That,
    ) {
        // Most cards have no ability for most triggers: one test of a per-card mask.
        if self.own_of[self.cid(s, q, i)] & trigger.bit() != 0 {
            self.queue_own_trigger(s, q, i, trigger, that);
        }
    }

    /// [`Self::queue_trigger_that`] for a card that has an ability for `trigger`.
    #[inline(never)]
    fn queue_own_trigger(&self, s: &mut State, q: Seat, i: u8, trigger: Trigger, that: That) {
        let id = self.cid(s, q, i);
        if let Some((k, ab)) = self.card(id).ability(trigger) {
            if ab.gated() && !self.gate_open(s, q, i, ab, that) {
                return;
            }
            if ab.once {
                s.pl_mut(q).once |= bit(i);
            }
            Self::push_cursor(s, Cursor::new(q, i, k as u8, that));
        }
    }

    /// Whether a gated ability of `q`'s card `i` may be used now: its once-per-turn use is left
    /// (decision T-ONCE-1) and its head's condition holds (decision T-EFF-5).
    pub(super) fn gate_open(&self, s: &State, q: Seat, i: u8, ab: &Ability, that: That) -> bool {
        if ab.once && s.pl(q).once & bit(i) != 0 {
            return false;
        }
        // A cost of cards from the hand needs them there.
        if s.pl(q).hand.count_ones() < u32::from(ab.cost.discard) {
            return false;
        }
        match &ab.cond {
            Some(c) => eval::cond(&self.judge(s, q, i, that), c),
            None => true,
        }
    }

    /// The step of the program at the front's program counter.
    #[inline]
    pub(super) fn op_at(&self, s: &State, c: &Cursor) -> Option<&Op> {
        self.ops(s, c).get(c.pc as usize)
    }

    /// The steps of the body a cursor runs: its ability's, or one of its delayed triggers'.
    #[inline]
    pub(crate) fn ops(&self, s: &State, c: &Cursor) -> &[Op] {
        let program = &self.card(self.cursor_card(s, c)).abilities[c.ability as usize].program;
        match c.later {
            0 => &program.ops,
            k => &program.later[k as usize - 1].1,
        }
    }

    /// The card of a cursor's ability: its source's.
    #[inline]
    pub(crate) fn cursor_card(&self, s: &State, c: &Cursor) -> Lid {
        s.pl(c.controller()).card[c.source() as usize]
    }

    pub(crate) fn effect_at(&self, s: &State, c: &Cursor) -> &Effect {
        match self.op_at(s, c) {
            Some(Op::Do(e)) => e,
            op => unreachable!("an effect at the program counter, found {op:?}"),
        }
    }

    /// Resolves the front ability of the queue as far as it goes without a decision: one step
    /// of its program (an effect, or a jump of `if`/`choose`/`may`: decision T-EFF-4).
    #[inline(never)]
    pub(super) fn resolve_front<const END: bool>(&self, s: &mut State) {
        // The loop calls with a queue that is not empty: its front with no length read and no
        // bounds test.
        debug_assert!(!s.queue.is_empty(), "resolve_front on an empty queue");
        let c = s.queue.first_slot();
        let ops = self.ops(s, &c);
        let Some(op) = ops.get(c.pc as usize) else {
            Self::end_front(s);
            return;
        };
        // Whether this is the body's last step (read below).
        let last = c.pc as usize + 1 == ops.len();
        // The effect is read in place (a reference into the card's program): a copy of it took
        // ~12 instructions, twice an effect.
        let e: &Effect = match op {
            Op::Do(e) => e,
            Op::Unless(cond, to) => {
                let holds = eval::cond(&self.judge(s, c.controller(), c.source(), c.that), cond);
                s.queue[0].pc = if holds { c.pc + 1 } else { *to };
                return;
            }
            Op::Jump(to) => {
                s.queue[0].pc = *to;
                return;
            }
            Op::Choose(n) => {
                s.pending = Pending::Mode { n: *n };
                return;
            }
            Op::May(skip) => {
                s.pending = Pending::May { skip: *skip };
                return;
            }
            Op::Later(k) => {
                // Decision T-EFF-10: set up until it triggers or the turn ends; at most 4 wait.
                let k = *k;
                let later = Cursor {
                    later: k + 1,
                    pc: 0,
                    ..c
                };
                if s.later.len() < s.later.capacity() {
                    s.later.push(later);
                }
                s.queue[0].pc += 1;
                return;
            }
        };
        let counted;
        let e: &Effect = if matches!(
            e,
            Effect::Buff(_, Amount::Counted(_), _, _)
                | Effect::Buff(_, _, Amount::Counted(_), _)
                | Effect::DrawCounted(_)
                | Effect::Prevent
        ) {
            if let Effect::Prevent = e {
                // Decision T-REPL-1: it reads what the step before did.
                return self.prevent(s);
            }
            counted = self.counted(s, &c, *e);
            &counted
        } else {
            e
        };
        // `x` is what this effect does (counted amounts above read the last one's).
        s.x = [0; 2];
        let me = c.controller();
        match *e {
            Effect::Draw(k) => {
                for _ in 0..k {
                    self.draw(s, me);
                }
                s.x[me.index()] = k;
            }
            Effect::DrawEnemy(k) => {
                for _ in 0..k {
                    self.draw(s, me.other());
                }
                s.x[me.other().index()] = k;
            }
            Effect::DrawCounted(_) => unreachable!("counted above"),
            Effect::Look => {
                // Decision T-INFO-6: the controller knows the opponent's hand as it is now.
                let opp = s.pl_mut(me.other());
                opp.known[me.index()] |= opp.hand;
            }
            Effect::Discard { enemy, n } => {
                s.queue[0].pc += 1;
                self.start_discard(s, n, enemy);
                return;
            }
            Effect::Plan(k) => {
                let p = s.pl_mut(me);
                let k = k.min(p.deck_len);
                if k > 0 {
                    // T-TERM-PLAN: the owner looks at the top k cards.
                    let top = p.deck_len as usize;
                    for &i in &p.deck[top - k as usize..top] {
                        p.known[me.index()] |= bit(i);
                    }
                    s.queue[0].pc += 1;
                    s.pending = Pending::Plan { left: k, fixed: 0 };
                    return;
                }
            }
            Effect::Rebuild => {
                if s.pl(me).homebase != 0 {
                    s.queue[0].pc += 1;
                    s.pending = Pending::Rebuild;
                    // Rebuild is the controller's choice, made as `actor` would be: record the
                    // chooser through the queue front (see State::chooser).
                    return;
                }
            }
            Effect::HomebaseTop => {
                self.top_to_homebase(s, me);
            }
            Effect::DrawTo(n) => {
                while s.pl(me).hand.count_ones() < u32::from(n) && s.winner.is_none() {
                    self.draw(s, me);
                }
            }
            Effect::Ban { .. } => self.make_ban(s, &c, e),
            // Decision T-EFF-19: the controller names two organizations, one at a time.
            Effect::LinkChosen => {
                if self.match_orgs.count_ones() >= 2 {
                    s.pending = Pending::Orgs { first: u8::MAX };
                    return;
                }
            }
            // Decision T-EFF-13: at most two links until end of turn a player; a third is not
            // made.
            Effect::Link(bits) => {
                let p = s.pl_mut(me);
                if let Some(k) = p.links_eot.iter().position(|&l| l == 0 || l == bits) {
                    p.links_eot[k] = bits;
                }
            }
            // Decision T-RES-13: EP into the pool, CP into the deployment step's.
            Effect::Gain { cp, n } => {
                let p = s.pl_mut(me);
                if cp {
                    p.cp = p.cp.saturating_add(n);
                } else {
                    p.ep = p.ep.saturating_add(n);
                }
            }
            Effect::Bond { side, delta } => {
                let q = if side == Side::Enemy { me.other() } else { me };
                Self::gain_bond(s, q, i16::from(delta), self.cursor_card(s, &c));
            }
            _ if !e.target().is_some_and(|t| {
                t.is_unit_target()
                    || (t.zone.is_none()
                        && t.filter.kinds & !kind::UNIT == 0
                        && t.mode != TargetMode::Choose
                        && !matches!(e, Effect::Move(..) | Effect::Pick(_)))
            }) =>
            {
                let t = *e.target().expect("an effect on cards");
                return self.card_effect(s, *e, t);
            }
            _ => {
                let t = *e.target().expect("targeted effect");
                // Decision T-REPL-1: stuns wait for the replacements a card may offer.
                if self.has_instead && matches!(e, Effect::Stun(_)) {
                    return self.stun_effect(s, c, *e, t);
                }
                match t.mode {
                    TargetMode::This => {
                        if self.active_units(s, me) & bit(c.source()) != 0
                            && self.ctype(s, me, c.source()) == CardType::Unit
                        {
                            self.apply_to_unit(s, e, me, c.source());
                        }
                    }
                    TargetMode::All => {
                        let m = self.effect_targets(s, me, &t, c.source());
                        for q in Seat::ALL {
                            for i in Bits(m[q.index()]) {
                                self.apply_to_unit(s, e, q, i);
                            }
                        }
                    }
                    TargetMode::Choose => {
                        let m = self.choice_targets(s, &c, e, &t);
                        let n = Seat::count_in(m);
                        if n > 1 {
                            s.pending = Pending::Target;
                            return;
                        }
                        if let (1, Some((q, i))) = (n, Seat::first_in(m)) {
                            // The card chosen becomes `that` for the steps after it.
                            s.queue[0].that = That::of(q, i);
                            self.apply_to_unit(s, e, q, i);
                        }
                    }
                    TargetMode::That | TargetMode::Role(_) => {
                        // One card, if it is an active UNIT the filter still matches.
                        let m = self.described(s, me, c.source(), c.that, &t, false);
                        for q in Seat::ALL {
                            let m = m[q.index()] & self.active_units(s, q);
                            if let Some(i) = Bits(m).next() {
                                self.apply_to_unit(s, e, q, i);
                            }
                        }
                    }
                }
            }
        }
        s.queue[0].pc += 1;
        // After the body's last step, the settle loop would call again at once (nothing
        // pending, no winner) only to end it: ended here. The front is still this body (its
        // card, ability and step; a stun's replacement may queue one before it).
        if END && last && s.winner.is_none() && matches!(s.pending, Pending::None) {
            let f = s.queue[0];
            if (f.ability, f.later, f.pc, f.src) == (c.ability, c.later, c.pc + 1, c.src) {
                Self::end_front(s);
            }
        }
    }

    /// The front ability's body has ended: it leaves the queue and `x` (what its last effect
    /// did) is reset.
    #[inline]
    pub(super) fn end_front(s: &mut State) {
        // The same bytes as `remove(0)` (a `memmove` call) when it is the only one.
        if s.queue.len() == 1 {
            s.queue.pop();
        } else {
            s.queue.remove(0);
        }
        s.x = [0; 2];
    }

    /// Whether the current attack has been declared and not yet resolved or stopped.
    #[inline]
    pub(crate) fn in_attack(&self, s: &State) -> bool {
        s.combat.target != AttackTarget::None
    }

    /// The card of a role now (`attacker`: the lowest attacking UNIT; `defender`: the UNIT the
    /// attack targets), if the current attack has one.
    pub(crate) fn role(&self, s: &State, r: u8) -> Option<(Seat, u8)> {
        if !self.in_attack(s) {
            return None;
        }
        let a = s.combat.attacker;
        match r {
            super::super::dsl::role::ATTACKER => Bits(s.combat.attackers).next().map(|i| (a, i)),
            _ => match s.combat.target {
                AttackTarget::Unit(d) => Some((a.other(), d)),
                _ => None,
            },
        }
    }

    /// The cards of `q` a filter looks among: the active UNITs (T-STATE-2), or the stunned ones
    /// when it asks for stunned cards.
    #[inline]
    pub(crate) fn candidates(&self, s: &State, q: Seat, f: &Filter) -> u64 {
        if f.need & mark::STUNNED != 0 {
            let p = s.pl(q);
            p.field & p.flagged(flag::STUNNED) & p.kinds.unit
        } else {
            self.active_units(s, q)
        }
    }

    /// Whether `q`'s card `i` matches a filter of an ability of `source`, on current values.
    #[inline]
    pub(crate) fn card_matches(
        &self,
        s: &State,
        q: Seat,
        i: u8,
        f: &Filter,
        source: (Seat, u8),
    ) -> bool {
        if f.other && source == (q, i) {
            return false;
        }
        let p = s.pl(q);
        let c = self.hot(p.card[i as usize]);
        if f.org != 0 && self.orgs(s, q, i) & f.org == 0 {
            return false;
        }
        if f.icon != Icons::NONE && !self.icons(s, q, i).has(f.icon) {
            return false;
        }
        if !ready_ok(f, p.has(i, flag::ACTIONED)) {
            return false;
        }
        if !f.name_ok(c.name) {
            return false;
        }
        if (f.need | f.deny) != 0 {
            let mut marks = self.marks(s, q, i);
            // Decision T-REPL-2: asked only here (it reads icons, whose statics read marks).
            if (f.need | f.deny) & mark::ATTACKABLE != 0 && self.attackable(s, q, i) {
                marks |= mark::ATTACKABLE;
            }
            if marks & f.need != f.need || marks & f.deny != 0 {
                return false;
            }
        }
        let (st, df) = if f.str_min.is_some()
            || f.str_max.is_some()
            || f.def_min.is_some()
            || f.def_max.is_some()
        {
            let (st, df) = self.stats(s, q, i);
            (st.clamp(-128, 127) as i8, df.clamp(-128, 127) as i8)
        } else {
            (0, 0)
        };
        bounds_ok(f, c.cost, st, df)
    }

    /// The [`mark`]s of `q`'s card `i` now.
    pub(crate) fn marks(&self, s: &State, q: Seat, i: u8) -> u8 {
        let p = s.pl(q);
        let mut m = 0;
        if p.has(i, flag::STUNNED) {
            m |= mark::STUNNED;
        }
        if p.has(i, flag::SUPPORTED) {
            m |= mark::SUPPORTED;
        }
        if p.homebase & bit(i) != 0 && p.has(i, flag::FACE_UP) {
            m |= mark::FACE_UP;
        }
        if self.in_attack(s) {
            if q == s.combat.attacker && s.combat.attackers & bit(i) != 0 {
                m |= mark::ATTACKING;
            }
            if q != s.combat.attacker && s.combat.target == AttackTarget::Unit(i) {
                m |= mark::DEFENDER;
            }
        }
        m
    }

    /// The UNITs an effect of `controller` may pick (T-STATE-2: stunned UNITs are not there,
    /// unless the effect looks for stunned ones).
    /// The UNITs the choice of effect `e` (target `t`) of cursor `c` may name: its targets,
    /// less those a prohibition protects (decision T-EFF-12).
    pub(crate) fn choice_targets(&self, s: &State, c: &Cursor, e: &Effect, t: &Target) -> [u64; 2] {
        let m = self.effect_targets(s, c.controller(), t, c.source());
        if !self.has_cant {
            return m;
        }
        let mut m = self.targetable(s, c, m);
        if let Effect::Cure(_) = e {
            for q in Seat::ALL {
                for i in Bits(m[q.index()]) {
                    if self.prohibited(s, q, i, Prohibition::BeCured) {
                        m[q.index()] &= !bit(i);
                    }
                }
            }
        }
        m
    }

    pub fn effect_targets(&self, s: &State, controller: Seat, t: &Target, source: u8) -> [u64; 2] {
        let f = &t.filter;
        // A filter that asks only for the card's cost, its ready state and that it is not the
        // source (most targeted effects' filters): `card_matches`' tests as masks, the cost
        // read card by card; the other tests of `card_matches` hold for every card.
        if by_masks(f) {
            let mut out = [0u64; 2];
            for q in Seat::ALL {
                if !side_matches(t.side, controller, q) {
                    continue;
                }
                let p = s.pl(q);
                let mut m = self.candidates(s, q, f);
                if f.other && q == controller && source < 64 {
                    m &= !bit(source);
                }
                match f.ready {
                    Some(true) => m &= !p.flagged(flag::ACTIONED),
                    Some(false) => m &= p.flagged(flag::ACTIONED),
                    None => {}
                }
                if f.cost_min.is_some() || f.cost_max.is_some() {
                    // `bounds_ok` with no STR or DEF bound: the cost within [min, max], an
                    // absent bound the whole range of a `u8`.
                    let (lo, hi) = (f.cost_min.unwrap_or(0), f.cost_max.unwrap_or(u8::MAX));
                    let mut within = 0;
                    for i in Bits(m) {
                        let cost = self.hot(p.card[i as usize]).cost;
                        within |= u64::from(lo <= cost && cost <= hi) << i;
                    }
                    m = within;
                }
                out[q.index()] = m;
            }
            return out;
        }
        self.effect_targets_clear(s, controller, t, source)
    }

    /// [`Self::effect_targets`] card by card ([`Self::card_matches`]): the form for every
    /// filter.
    #[inline(never)]
    fn effect_targets_clear(
        &self,
        s: &State,
        controller: Seat,
        t: &Target,
        source: u8,
    ) -> [u64; 2] {
        let mut out = [0u64; 2];
        for q in Seat::ALL {
            if !side_matches(t.side, controller, q) {
                continue;
            }
            for i in Bits(self.candidates(s, q, &t.filter)) {
                if self.card_matches(s, q, i, &t.filter, (controller, source)) {
                    out[q.index()] |= bit(i);
                }
            }
        }
        out
    }

    pub(crate) fn apply_to_unit(&self, s: &mut State, e: &Effect, q: Seat, i: u8) {
        match *e {
            Effect::Stun(_) => self.stun(s, q, i),
            Effect::Ko(_) => self.to_trail(s, q, i),
            Effect::Ready(_) => s.pl_mut(q).clear(i, flag::ACTIONED),
            Effect::Action(_) => s.pl_mut(q).set(i, flag::ACTIONED),
            Effect::Support(_) => s.pl_mut(q).set(i, flag::SUPPORTED),
            Effect::Cant(_, what) => {
                // Decision T-EFF-15: until end of turn; at most 4 wait (a fifth is not made).
                let x = (That::of(q, i), what);
                if !s.cant_eot.contains(&x) && s.cant_eot.len() < 4 {
                    s.cant_eot.push(x);
                }
            }
            Effect::Redirect(_) => self.redirect(s, q, i),
            Effect::Shield(_) => {
                let that = That::of(q, i);
                if !s.shields.contains(&that) && !s.shields.is_full() {
                    s.shields.push(that);
                }
            }
            Effect::Cure(_) => {
                // Decision T-CURE-5: as T-CURE-2's cure, face up and actioned; decision
                // T-EFF-12: not a UNIT that can't be cured.
                if self.has_cant && self.prohibited(s, q, i, Prohibition::BeCured) {
                    return;
                }
                let p = s.pl_mut(q);
                if p.has(i, flag::STUNNED) {
                    p.clear(i, flag::STUNNED);
                    p.set(i, flag::ACTIONED);
                    self.refresh_static(s, q, i);
                }
            }
            Effect::Bounce(_) => {
                // Back to its owner's hand; the opponent saw it and keeps knowing it (T-INFO-3).
                let p = s.pl_mut(q);
                p.field &= !bit(i);
                p.hand |= bit(i);
                p.reset_instance(i);
                self.reveal(s, q, i);
                self.refresh_static(s, q, i);
                if !s.combat_mods.is_empty() {
                    Self::forget_combat_mods(s, q, i);
                }
                if Self::marked_eot(s) {
                    Self::forget_turn_marks(s, q, i);
                }
                self.happen(s, Ev::card(Trigger::Leaves, q, i).to(Zone::Hand));
            }
            Effect::Buff(_, ds, dd, dur) => {
                // Counted amounts were counted as the effect began to resolve.
                let (ds, dd) = (ds.fixed().unwrap_or(0), dd.fixed().unwrap_or(0));
                if dur == Dur::Combat {
                    return self.combat_buff(s, q, i, ds, dd);
                }
                let p = s.pl_mut(q);
                p.str_mod[i as usize] = p.str_mod[i as usize].saturating_add(ds);
                p.def_mod[i as usize] = p.def_mod[i as usize].saturating_add(dd);
            }
            Effect::Grant(_, icon) => {
                let p = s.pl_mut(q);
                p.icons_eot[i as usize] = p.icons_eot[i as usize].union(icon);
            }
            _ => unreachable!("not a UNIT effect"),
        }
    }

    /// Decision T-EFF-10: +STR/+DEF "during this combat" lasts until the attack ends, and
    /// outside an attack does nothing; at most 8 such changes at once (a ninth is not made).
    #[cold]
    #[inline(never)]
    fn combat_buff(&self, s: &mut State, q: Seat, i: u8, ds: i8, dd: i8) {
        if !self.in_attack(s) || s.combat_mods.len() == s.combat_mods.capacity() {
            return;
        }
        let p = s.pl_mut(q);
        let (s0, d0) = (p.str_mod[i as usize], p.def_mod[i as usize]);
        p.str_mod[i as usize] = s0.saturating_add(ds);
        p.def_mod[i as usize] = d0.saturating_add(dd);
        let (str, def) = (
            p.str_mod[i as usize].wrapping_sub(s0),
            p.def_mod[i as usize].wrapping_sub(d0),
        );
        s.combat_mods.push(CombatMod {
            card: That::of(q, i),
            str,
            def,
        });
    }

    /// `q`'s card `i` leaves the field: its changes "during this combat" went with it.
    pub(super) fn forget_combat_mods(s: &mut State, q: Seat, i: u8) {
        let that = That::of(q, i);
        s.combat_mods.retain(|m| m.card != that);
    }

    /// The effect with its counted amounts counted now (`1 per attackers`), for the ability at
    /// the front.
    #[cold]
    #[inline(never)]
    fn counted(&self, s: &State, c: &Cursor, e: Effect) -> Effect {
        let values = &self.card(self.cursor_card(s, c)).values;
        let j = self.judge(s, c.controller(), c.source(), c.that);
        let n = |a: Amount| match a {
            Amount::Counted(k) => {
                Amount::Num(eval::value(&j, &values[k as usize]).clamp(-99, 99) as i8)
            }
            a => a,
        };
        match e {
            Effect::Buff(t, a, b, d) => Effect::Buff(t, n(a), n(b), d),
            Effect::DrawCounted(k) => match n(Amount::Counted(k)) {
                Amount::Num(k) => Effect::Draw(k.max(0) as u8),
                _ => unreachable!("counted"),
            },
            e => e,
        }
    }

    /// A choice left pending by an effect (a target, plan placement, the card to rebuild), or the
    /// card put into the homebase after a dispatch (T-ICON-DISPATCH).
    pub(super) fn play_choice(&self, s: &mut State, me: Seat, a: Action) {
        match (s.pending, a) {
            (Pending::Target, Action::Choose { seat, inst }) => {
                let c = s.queue[0];
                let e = *self.effect_at(s, &c);
                let e = if matches!(
                    e,
                    Effect::Buff(_, Amount::Counted(_), _, _)
                        | Effect::Buff(_, _, Amount::Counted(_), _)
                ) {
                    self.counted(s, &c, e)
                } else {
                    e
                };
                s.pending = Pending::None;
                s.queue[0].that = That::of(seat, inst);
                if self.has_instead && matches!(e, Effect::Stun(_)) {
                    // Decision T-REPL-1: the stun of the UNIT chosen waits for its
                    // replacements (the effect resolves again, on this UNIT).
                    s.repl.chosen = That::of(seat, inst);
                    return;
                }
                self.apply_to_unit(s, &e, seat, inst);
                s.queue[0].pc += 1;
            }
            (Pending::Mode { n }, Action::Mode(k)) if k < n => {
                // `choose`: the option's jump follows the Choose step.
                s.pending = Pending::None;
                let c = s.queue[0];
                let jump = c.pc + 1 + k;
                let Some(Op::Jump(to)) = self.op_at(s, &Cursor { pc: jump, ..c }) else {
                    unreachable!("a choose step is followed by its options' jumps")
                };
                s.queue[0].pc = *to;
            }
            (Pending::May { .. }, Action::Yes) => {
                s.pending = Pending::None;
                s.queue[0].pc += 1;
            }
            (Pending::Orgs { first }, Action::Mode(k)) => {
                if first == u8::MAX {
                    s.pending = Pending::Orgs { first: k };
                    return;
                }
                s.pending = Pending::None;
                let bits = (1 << first) | (1 << k);
                // Decision T-EFF-13: at most two links until end of turn a player.
                let p = s.pl_mut(me);
                if let Some(j) = p.links_eot.iter().position(|&l| l == 0 || l == bits) {
                    p.links_eot[j] = bits;
                }
                s.queue[0].pc += 1;
            }
            (Pending::May { skip }, Action::Pass) => {
                s.pending = Pending::None;
                s.queue[0].pc = skip;
            }
            (Pending::Plan { left, fixed }, Action::PlanTop(id) | Action::PlanBottom(id)) => {
                let p = s.pl_mut(me);
                let top = p.deck_len as usize - fixed as usize;
                let lo = top - left as usize;
                let k = (lo..top)
                    .find(|&k| p.card[p.deck[k] as usize] == id)
                    .expect("plan card among the looked-at cards");
                let inst = p.deck[k];
                if matches!(a, Action::PlanTop(_)) {
                    // Move it to the top of the looked-at segment, just below the fixed cards.
                    p.deck.copy_within(k + 1..top, k);
                    p.deck[top - 1] = inst;
                    s.pending = Pending::Plan {
                        left: left - 1,
                        fixed: fixed + 1,
                    };
                } else {
                    p.deck.copy_within(0..k, 1);
                    p.deck[0] = inst;
                    s.pending = Pending::Plan {
                        left: left - 1,
                        fixed,
                    };
                }
                if left == 1 {
                    s.pending = Pending::None;
                }
            }
            (Pending::Rebuild, Action::Rebuild { card, face_up }) => {
                s.pending = Pending::None;
                let p = s.pl(me);
                // Of equal cards, the actioned one is destroyed: it is worth no EP this turn.
                let pick = |want_actioned: bool| {
                    Bits(p.homebase).find(|&i| {
                        p.card[i as usize] == card
                            && p.has(i, flag::FACE_UP) == face_up
                            && p.has(i, flag::ACTIONED) == want_actioned
                    })
                };
                let i = pick(true)
                    .or_else(|| pick(false))
                    .expect("rebuild card in homebase");
                self.leaving_homebase(s, me, i);
                self.to_trail(s, me, i);
                // T-TERM-REBUILD: the top card of the deck into the homebase, face down, actioned.
                self.top_to_homebase(s, me);
            }
            (Pending::DispatchPut, Action::DispatchPut(id)) => {
                s.pending = Pending::None;
                let p = s.pl(me);
                let i = p.find(p.hand, id).expect("card in hand");
                self.hand_to_homebase(s, me, i, true);
            }
            (Pending::DispatchPut, Action::Pass) => s.pending = Pending::None,
            (Pending::Pick { .. }, _) => self.play_pick(s, a),
            (Pending::Bottom { left }, Action::PlanBottom(id)) => {
                Self::play_bottom(s, me, left, id)
            }
            (Pending::Discard { .. }, Action::Pick { card, .. }) => self.play_discard(s, me, card),
            (p, a) => panic!("illegal action {a:?} while {p:?} is pending"),
        }
    }
}

/// Whether a filter asks only for a card's cost, its ready state and that it is not the source
/// (no organization, icon, name, mark, STR or DEF): [`TrailsGame::effect_targets`] reads it as
/// masks.
/// Every field is named, so that a field added to [`Filter`] (which `card_matches` would test)
/// fails to compile here until it is sorted into the masks' part or the rest.
#[inline]
fn by_masks(f: &Filter) -> bool {
    let Filter {
        // Read as masks (cost from the card table), or tested by neither form.
        cost_min: _,
        cost_max: _,
        ready: _,
        other: _,
        itself: _,
        kinds: _,
        // Card by card.
        str_min,
        str_max,
        def_min,
        def_max,
        org,
        icon,
        names,
        need,
        deny,
    } = *f;
    org == 0
        && icon == Icons::NONE
        && names[0] == 0
        && (need | deny) == 0
        && str_min.is_none()
        && str_max.is_none()
        && def_min.is_none()
        && def_max.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `effect_targets` (a filter of costs, ready state and `other` read as masks) gives what the
    /// card-by-card form gives (`effect_targets_clear`, `card_matches` for each candidate): every
    /// target of every ability of the match's cards (and its filter with each ready state, with and
    /// without `other`), for either controller and every source on
    /// its field (and one not on it), at every position of random games of the 36 pairs of the
    /// bundled decks. Counts the cases where each mask test removes a card, so that each is seen.
    #[test]
    fn mask_targets_are_the_card_by_card_targets() {
        use crate::agents::{Agent, RandomAgent};
        use crate::core::lang::program::Op;
        use crate::core::Game;
        let db = super::super::super::bundled_cards();
        let decks = crate::core::testing::folder_decks::<TrailsGame>(
            &db,
            &crate::games::trails::TEST_DECKS,
        );
        let (mut masks, mut cut_cost, mut cut_ready, mut cut_other) = (0u64, 0u64, 0u64, 0u64);
        // Cards left out by a least cost alone.
        let mut cut_low = 0u64;
        for (k, da) in decks.iter().enumerate() {
            for db_ in &decks[k..] {
                let g = TrailsGame::new(db.clone(), da.cards.clone(), db_.cards.clone());
                let mut targets: Vec<Target> = Vec::new();
                for l in g.lids() {
                    for a in &g.card(l).abilities {
                        let later = a.program.later.iter().flat_map(|x| x.1.iter());
                        for op in a.program.ops.iter().chain(later) {
                            if let Op::Do(e) = op {
                                let Some(t) = e.target() else { continue };
                                // Its filter with each ready state and with and without
                                // `other` as well (the bundled filters lack some of them).
                                for ready in [None, Some(true), Some(false)] {
                                    for other in [false, true] {
                                        let mut t = *t;
                                        t.filter.ready = ready;
                                        t.filter.other = other;
                                        if !targets.contains(&t) {
                                            targets.push(t);
                                        }
                                    }
                                }
                                // And with a least cost, alone and with a greatest (the
                                // bundled filters have only `cost<=`).
                                for (lo, hi) in [(2, None), (1, Some(3)), (3, Some(3))] {
                                    let mut t = *t;
                                    t.filter.cost_min = Some(lo);
                                    t.filter.cost_max = hi;
                                    if !targets.contains(&t) {
                                        targets.push(t);
                                    }
                                }
                            }
                        }
                    }
                }
                let mut s = g.new_game(3, Seat::P1);
                let mut r = [RandomAgent::new(3), RandomAgent::new(14)];
                while let Some(q) = g.to_move(&s) {
                    for t in &targets {
                        for c in Seat::ALL {
                            let p = s.pl(c);
                            let off = (0..p.n_cards).find(|&i| p.field & bit(i) == 0);
                            for src in Bits(p.field).chain(off) {
                                let fast = g.effect_targets(&s, c, t, src);
                                let clear = g.effect_targets_clear(&s, c, t, src);
                                assert_eq!(fast, clear, "{t:?} {c:?} {src}");
                                if !by_masks(&t.filter) {
                                    continue;
                                }
                                masks += 1;
                                let f = t.filter;
                                for d in Seat::ALL {
                                    if !side_matches(t.side, c, d) {
                                        continue;
                                    }
                                    let cands = g.candidates(&s, d, &f);
                                    let pd = s.pl(d);
                                    let left = cands & !clear[d.index()];
                                    for i in Bits(left) {
                                        if f.other && (d, i) == (c, src) {
                                            cut_other += 1;
                                        } else if !ready_ok(&f, pd.has(i, flag::ACTIONED)) {
                                            cut_ready += 1;
                                        } else {
                                            cut_cost += 1;
                                            if f.cost_min.is_some() && f.cost_max.is_none() {
                                                cut_low += 1;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    let act = r[q.index()].choose(&g, &s, q);
                    g.apply(&mut s, act);
                }
            }
        }
        assert!(
            masks > 100_000
                && cut_cost > 1_000
                && cut_low > 1_000
                && cut_ready > 1_000
                && cut_other > 1_000,
            "{masks} {cut_cost} {cut_low} {cut_ready} {cut_other}"
        );
    }
}
