//! The turn and the battle as the engine advances them (F-PREP, F-BAT, F-END): the settle loop. A
//! battle's Blockers, support and damage are `battle.rs`.

use super::*;

impl FireForceGame {
    // ---- the turn (F-PREP, F-END) ----

    /// F-MAIN-1: `q` ends its main phase (its end-of-turn abilities wait in `ends`).
    pub(super) fn end_main(&self, s: &mut State, q: Seat) {
        s.step = Step::End;
        s.ends = Bits(s.pl(q).units())
            .filter(|&u| self.card_of(s, q, u).on(Trigger::TurnEnd) != 0)
            .fold(0, |m, u| m | 1 << u);
    }

    /// Decision F-MAIN-3: whether this decision's position (everything but the action counts
    /// and this record) is one of the last [`LOOP_SEEN`] recorded this turn; if not, it is
    /// recorded. Read only after [`LOOP_CHECK`] actions of the player in the turn.
    #[cold]
    fn repeated(&self, s: &mut State) -> bool {
        use std::hash::{Hash, Hasher};
        let mut key = *s;
        key.acts = [0; 2];
        key.seen = [0; LOOP_SEEN];
        key.seen_at = 0;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        key.hash(&mut h);
        // 0 marks an empty slot.
        let h = h.finish().max(1);
        if s.seen.contains(&h) {
            return true;
        }
        // `seen_at` is the last slot written, from 1 (0: none yet this turn).
        let slot = s.seen_at as usize % LOOP_SEEN;
        s.seen[slot] = h;
        s.seen_at = slot as u8 + 1;
        false
    }

    /// F-PREP-1..3 of `q`'s turn.
    pub(super) fn begin_turn(&self, s: &mut State, q: Seat) {
        s.active = q;
        s.turn += 1;
        s.acts = [0; 2];
        if s.seen_at != 0 {
            s.seen = [0; LOOP_SEEN];
            s.seen_at = 0;
        }
        // F-PREP-1: exhausted cards, and Flame cards given to Units, become ready (decision
        // F-PREP-6: but the Units an effect keeps exhausted).
        let p = s.pl_mut(q);
        p.exhausted &= p.stilled.get();
        p.stilled = Mask40::EMPTY;
        // F-PREP-2 (F-PREP-4: on turn 1 too).
        Self::draw(s, q, 1);
        // F-PREP-3.
        s.step = if s.pl(q).flame_deck != 0 {
            Step::PrepFlame
        } else {
            Step::Main
        };
        s.chooser = q;
        if s.step == Step::Main && self.lang.start_main {
            self.start_main(s);
        }
    }

    /// The abilities at the start of the turn player's Main phase (`start own main` of its cards,
    /// `start enemy main` of its opponent's), the turn player's first, lowest instance first.
    #[cold]
    fn start_main(&self, s: &mut State) {
        for w in [s.active, s.active.other()] {
            for u in Bits(s.pl(w).scene) {
                let c = self.card_of(s, w, u);
                for k in Bits(c.on(Trigger::StartMain)) {
                    let a = &c.abilities[k as usize];
                    if side_ok(a.side, w, s.active)
                        && (c.gated & 1 << k == 0 || self.trigger_gate(s, w, u, k))
                    {
                        Self::queue(s, Frame::new(w, u, k));
                    }
                }
            }
        }
    }

    /// Queues a triggered ability about another card or a phase. Decision F-EFF-3: at most
    /// `State::frames`' capacity of abilities wait at once; a trigger that finds the queue full
    /// is lost.
    #[inline]
    pub(super) fn queue(s: &mut State, f: Frame) {
        if !s.frames.is_full() {
            s.frames.push(f);
        }
    }

    /// The abilities about another card's event `t` (decision F-EFF-11): `q`'s card `i` was
    /// removed, played, or put onto the Scene. The cards on the Scene whose subject `i` passes
    /// trigger, the turn player's first, lowest instance first; `that` is `i`.
    #[cold]
    pub(super) fn watch(&self, s: &mut State, t: Trigger, q: Seat, i: u8) {
        self.watch_with(s, t, q, i, [0; 2]);
    }

    /// [`FireForceGame::watch`], where the cards of `also` (removed by the same effect, decision
    /// F-EFF-11) watch as if still on the Scene.
    #[cold]
    pub(super) fn watch_with(&self, s: &mut State, t: Trigger, q: Seat, i: u8, also: [u64; 2]) {
        for w in [s.active, s.active.other()] {
            for u in Bits(s.pl(w).scene | also[w.index()]) {
                let c = self.card_of(s, w, u);
                for k in Bits(c.on(t)) {
                    let a = &c.abilities[k as usize];
                    let Some(subject) = &a.subject else {
                        continue;
                    };
                    if side_ok(subject.side, w, q)
                        && self.card_matches(s, q, i, subject, (w, u), false)
                        && (c.gated & 1 << k == 0 || self.trigger_gate(s, w, u, k))
                    {
                        Self::queue(
                            s,
                            Frame {
                                that: that_code(q, i),
                                ..Frame::new(w, u, k)
                            },
                        );
                    }
                }
            }
        }
    }

    /// A Flame card (or a card put as one) of `q`'s arrived on the Scene: its own `put to scene`
    /// abilities, then those about it (decision F-EFF-11).
    #[cold]
    pub(super) fn flame_put(&self, s: &mut State, q: Seat, i: u8) {
        let c = self.card_of(s, q, i);
        for k in Bits(c.on(Trigger::Put)) {
            if c.abilities[k as usize].subject.is_none()
                && (c.gated & 1 << k == 0 || self.trigger_gate(s, q, i, k))
            {
                Self::queue(s, Frame::new(q, i, k));
            }
        }
        self.watch(s, Trigger::Put, q, i);
    }

    /// F-END-1 (after the end-of-turn abilities): "until end of turn" ends, the turn passes. No
    /// card is discarded: there is no hand limit (F-END-2).
    pub(super) fn end_turn(&self, s: &mut State) {
        for p in &mut s.p {
            p.power_turn = [0; FLAME_BASE];
            p.fresh = 0;
            p.once = 0;
            p.blocker = [p.blocker[1], 0];
        }
        if self.lang.costs {
            Self::age_bans(s);
        }
        if !s.lasting.is_empty() {
            Self::keep_lasting(s);
        }
        self.begin_turn(s, s.active.other());
    }

    /// Advances until a player must decide or the game is over.
    pub fn settle(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                s.pick = Pick::None;
                s.frames.clear();
                return;
            }
            // F-COST-2: at once, whatever else is going on (checked again only once a card with
            // Flame has arrived on a Scene: nothing else adds to the count).
            if matches!(s.pick, Pick::None) && s.flame_check {
                for q in [s.active, s.active.other()] {
                    if self.with_flame(s, q).count_ones() > FLAME_LIMIT {
                        s.pick = Pick::Limit;
                        s.chooser = q;
                        return;
                    }
                }
                s.flame_check = false;
            }
            if !matches!(s.pick, Pick::None) {
                if let Pick::Flame { to } = s.pick {
                    // A Flame choice with one distinct card is no choice.
                    let two = Self::first_two(s);
                    if let (Some(i), None) = two {
                        self.choose_flame(s, i, to);
                        continue;
                    }
                }
                return;
            }
            if !s.frames.is_empty() {
                // A frame waiting for a pick goes round once more: the pick may need no decision.
                self.run_frame(s);
                continue;
            }
            // F-EFF-2: once the resolving ability is done, When Removed abilities, the turn
            // player's first, lowest instance first.
            if let Some(q) = (s.removed != [0; 2])
                .then(|| {
                    [s.active, s.active.other()]
                        .into_iter()
                        .find(|q| s.removed[q.index()] != 0)
                })
                .flatten()
            {
                let u = s.removed[q.index()].trailing_zeros() as u8;
                s.removed[q.index()] &= !(1 << u);
                self.push_triggers(s, q, u, Trigger::Removed);
                continue;
            }
            match s.step {
                Step::Redraw => {
                    if let Some(q) = [s.first, s.first.other()]
                        .into_iter()
                        .find(|q| !s.pl(*q).redraw_done)
                    {
                        s.chooser = q;
                        return;
                    }
                    // F-SETUP-3.
                    for q in Seat::ALL {
                        Self::life(s, q, 5);
                    }
                    s.step = Step::SetupFlame;
                    s.chooser = s.first.other();
                    if s.pl(s.chooser).flame_deck == 0 {
                        self.begin_turn(s, s.first);
                    }
                }
                Step::SetupFlame | Step::PrepFlame => {
                    s.chooser = if s.step == Step::SetupFlame {
                        s.first.other()
                    } else {
                        s.active
                    };
                    match Self::first_two(s) {
                        (Some(i), None) => self.flame_step(s, i),
                        (None, _) => s.step = Step::Main,
                        _ => return,
                    }
                }
                Step::Main | Step::Target => {
                    s.chooser = s.active;
                    if s.step == Step::Main
                        && s.acts[s.active.index()] >= LOOP_CHECK
                        && self.repeated(s)
                    {
                        // Decision F-MAIN-3: the position came back; the main phase ends.
                        self.end_main(s, s.active);
                        continue;
                    }
                    return;
                }
                Step::LifeTrigger => {
                    s.chooser = s.active.other();
                    return;
                }
                Step::Attacking => {
                    // F-BAT-3.
                    let a = s.battle.attacker;
                    s.step = Step::Block;
                    if a != NONE {
                        self.push_triggers(s, s.active, a, Trigger::Attacking);
                    }
                }
                Step::Block => {
                    // F-BAT-13: nothing to block once the attacker or the attacked Unit left.
                    if !self.battle_on(s) || self.blockers(s) == 0 {
                        s.step = Step::Reaction;
                        continue;
                    }
                    s.chooser = s.active.other();
                    return;
                }
                Step::Reaction => {
                    if !self.battle_on(s) || !self.any_reaction(s) {
                        s.step = Step::Support;
                        continue;
                    }
                    s.chooser = s.active.other();
                    if s.acts[s.chooser.index()] >= LOOP_CHECK && self.repeated(s) {
                        // Decision F-MAIN-3: the position came back; no more reactions.
                        s.step = Step::Support;
                        continue;
                    }
                    return;
                }
                Step::Support => {
                    if !self.battle_on(s) || s.battle.on_player || self.support_cards(s) == 0 {
                        s.step = Step::Damage;
                        continue;
                    }
                    s.chooser = s.active.other();
                    return;
                }
                Step::Damage => self.damage(s),
                Step::BattleEnd => {
                    // F-BAT-9: end-of-battle abilities of the Units that took part.
                    s.step = Step::BattleOver;
                    let (a, t) = (s.battle.attacker, s.battle.target);
                    if a != NONE {
                        self.push_triggers(s, s.active, a, Trigger::BattleEnd);
                    }
                    if t != NONE && !s.battle.on_player {
                        self.push_triggers(s, s.active.other(), t, Trigger::BattleEnd);
                    }
                    if !s.later.is_empty() {
                        Self::release_later(s);
                    }
                }
                Step::BattleOver => {
                    for p in &mut s.p {
                        p.power_battle = [0; FLAME_BASE];
                    }
                    s.battle = Battle::NONE;
                    s.step = Step::Main;
                    s.chooser = s.active;
                }
                Step::End => {
                    // F-END-1: end-of-turn abilities, lowest instance first.
                    let units = s.pl(s.active).units();
                    let next = Bits(s.ends & units).next();
                    match next {
                        Some(u) => {
                            s.ends &= !(1 << u);
                            self.push_triggers(s, s.active, u, Trigger::TurnEnd);
                        }
                        None => {
                            s.ends = 0;
                            self.end_turn(s);
                        }
                    }
                }
                Step::Over => return,
            }
        }
    }

    /// Queues `q`'s Unit `u`'s abilities with trigger `t` (decision F-EFF-6: a head's condition
    /// is read as the ability triggers; decision F-KW-ONCE-3: a Once Per Turn ability triggers
    /// once a turn).
    #[inline(always)]
    pub(super) fn push_triggers(&self, s: &mut State, q: Seat, u: u8, t: Trigger) {
        let c = self.card_of(s, q, u);
        let on = c.on(t);
        if on == 0 {
            return;
        }
        if c.gated == 0 {
            for k in Bits(on) {
                s.frames.push(Frame::new(q, u, k));
            }
        } else {
            self.push_gated(s, q, u, on);
        }
    }

    /// [`FireForceGame::push_triggers`] of a card with a gated ability.
    #[cold]
    fn push_gated(&self, s: &mut State, q: Seat, u: u8, on: u64) {
        let gated = self.card_of(s, q, u).gated;
        for k in Bits(on) {
            if gated & 1 << k != 0 && !self.trigger_gate(s, q, u, k) {
                continue;
            }
            s.frames.push(Frame::new(q, u, k));
        }
    }

    /// Whether ability `k` of `q`'s card `u`, gated, triggers now; marks its Once Per Turn use.
    #[cold]
    pub(super) fn trigger_gate(&self, s: &mut State, q: Seat, u: u8, k: u8) -> bool {
        let a = &self.card_of(s, q, u).abilities[k as usize];
        let bit = 1u64 << u;
        if a.cost.once && s.pl(q).once & bit != 0 {
            return false;
        }
        if let Some(c) = &a.cond {
            if !crate::core::lang::eval::cond(&self.judge(s, q, u, NONE), c) {
                return false;
            }
        }
        if a.cost.once && s.pl(q).units() & bit != 0 {
            s.pl_mut(q).once |= bit;
        }
        true
    }

    /// A Flame card chosen at setup or in preparation.
    pub(super) fn flame_step(&self, s: &mut State, i: u8) {
        if s.step == Step::SetupFlame {
            // F-SETUP-5: exhausted.
            self.place_flame(s, s.chooser, i, true, NONE);
            self.begin_turn(s, s.first);
        } else {
            // F-PREP-3: ready.
            self.place_flame(s, s.active, i, false, NONE);
            s.step = Step::Main;
            if self.lang.start_main {
                self.start_main(s);
            }
        }
    }

    /// A Flame card chosen for an effect (`give`, `flame N`, Pray): placed exhausted.
    /// The `flame N` effect counts the card and asks again (`resolve`); `give` and Pray are done.
    pub(super) fn choose_flame(&self, s: &mut State, i: u8, to: u8) {
        let q = s.chooser;
        self.place_flame(s, q, i, true, to);
        s.pick = Pick::None;
        if let Some(f) = s.frames.as_mut_slice().first_mut() {
            if to == NONE {
                f.done += 1;
            } else {
                f.pc += 1;
            }
        }
    }
}
