//! The legal actions of the player who decides: one function per pending choice and per step.
//!
//! **Worst case** (the action list holds `core::MAX_ACTIONS` = 256). A player owns at most 50
//! instances (T-DECK-1), and actions name hidden cards by id, so each of the chooser's instances
//! adds at most: in hand or face down in the homebase, a deployment or dispatch and one "always"
//! action (an EVENT, a BASE or arts: a card is one of the three) — 2; on the field or face up in
//! the homebase, an attack, a join or a support and its crafts — 1 + 4 (decision T-RES-12: at most
//! 4 crafts a card). With the pass: 1 + 50 × 5 = 251 in the steps that offer "always" actions.
//! The others: effect targets ≤ 100 (both fields), a plan ≤ 2 × 50, a rebuild ≤ 50, a group
//! ≤ 50 joins + 50 targets + the player, a fight-back ≤ 50, a cure ≤ 51, the mulligan and the
//! homebase step ≤ 51 (+ "always" actions, within the 251). `tests/suite/engine.rs` builds the
//! 251-action position.

use super::super::action::Action;
use super::super::cards::{CardType, Icons, Prohibition, Trigger};
use super::super::effects::Orgs;
use super::super::state::Lid;
use super::super::state::{
    bit, flag, instances, AttackTarget, Bits, Pending, PlayerState, State, Step, That,
};
use super::{feat, Crafts, HotCard, TrailsGame, MAX_ALWAYS_PER_TURN};
use crate::core::actions::canonical_next;
use crate::core::{ActionList, Seat};

impl TrailsGame {
    /// The legal actions of the player who decides now (none when the game is over), into `out`:
    /// the pending choice if there is one, else the actions of the step.
    ///
    /// No frame of its own: the chooser of a pending choice (a call) is asked in
    /// [`Self::legal_choice`], so every way out here is a jump to the step's or the choice's
    /// function.
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear_scratch();
        if let Pending::None = s.pending {
            // `State::chooser` without a choice: the step's actor, none once the game is over —
            // a winner, or the step `Over`, whose arm of `legal_step` lists nothing.
            if s.winner.is_some() {
                return;
            }
            return self.legal_step(s, s.actor, out);
        }
        self.legal_choice(s, out);
    }

    /// [`Self::legal`] of a choice inside an effect.
    #[inline(never)]
    fn legal_choice(&self, s: &State, out: &mut ActionList<Action>) {
        let Some(me) = s.chooser() else { return };
        match s.pending {
            Pending::Target => self.legal_effect_targets(s, out),
            Pending::Plan { left, fixed } => legal_plan(s, me, left, fixed, out),
            Pending::Rebuild => legal_rebuild(s, me, out),
            Pending::DispatchPut => legal_dispatch_put(s, me, out),
            Pending::Mode { .. } | Pending::May { .. } => legal_step_choice(s.pending, out),
            Pending::Pick { .. } => self.legal_pick(s, out),
            // Decision T-EFF-19: the organizations of the match's cards, two different ones.
            Pending::Orgs { first } => {
                for k in Bits(u64::from(self.match_orgs)) {
                    if k != first {
                        out.push(Action::Mode(k));
                    }
                }
            }
            Pending::Bottom { left } => Self::legal_bottom(s, me, left, out),
            Pending::Discard { .. } => Self::legal_discard(s, me, out),
            // `legal` lists a step's actions itself.
            Pending::None => unreachable!("legal_choice without a pending choice"),
        }
    }

    /// [`Self::legal`] of the step, outside a choice. The list is empty here (`legal` emptied
    /// it): the steps whose list begins with the pass write it with `scratch_one`, no length
    /// read and no capacity test (as the choice of a dispatch's put does).
    #[inline(always)]
    fn legal_step(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        match s.step {
            Step::Mulligan => legal_mulligan(s, me, out),
            Step::Homebase => self.legal_homebase(s, me, out),
            Step::Deploy => self.legal_deploy(s, me, out),
            Step::Propose => self.legal_propose(s, me, out),
            Step::Group => self.legal_group(s, me, out),
            Step::Window => self.legal_window(s, me, out),
            Step::FightBack => legal_fight_back(s, out),
            Step::Cure => self.legal_cure(s, me, out),
            Step::Draw
            | Step::CombatEnd
            | Step::Clash
            | Step::CureCheck
            | Step::Ready
            | Step::Over => {}
        }
    }

    /// The UNITs the effect at the front of the queue may choose.
    fn legal_effect_targets(&self, s: &State, out: &mut ActionList<Action>) {
        let c = s.queue[0];
        let e = self.effect_at(s, &c);
        let t = e.target().expect("pending target on a targeted effect");
        let m = self.choice_targets(s, &c, e, t);
        for q in Seat::ALL {
            for i in Bits(m[q.index()]) {
                out.push(Action::Choose { seat: q, inst: i });
            }
        }
    }

    /// T-PREP-2: a hand card into the homebase, or none; and "always" actions.
    fn legal_homebase(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        out.scratch_one(Action::Pass);
        let mut seen = IdsMet::default();
        let mut w = out.appender();
        for i in instances(p.hand) {
            if seen.first(p, p.hand, i) {
                w.push(Action::Homebase(p.card[i as usize]));
            }
        }
        drop(w);
        self.always_actions(s, me, out);
    }

    /// T-PREP-3: a UNIT or ITEM from hand, or a [Dispatch] UNIT from the homebase, within the CP
    /// (T-ICON-DISPATCH, T-ICON-REINF); ending the step; "always" actions.
    fn legal_deploy(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        out.scratch_one(Action::Pass);
        // `play_cost` asks `has_cost_mods` for each card: asked once here, the printed cost read
        // directly when no card changes costs (decisions T-RES-14, T-RES-15).
        if self.has_cost_mods {
            self.deploy_from_hand(s, me, out, |i| self.play_cost(s, me, i));
        } else {
            self.deploy_from_hand(s, me, out, |i| {
                self.printed_cost[usize::from(p.card[i as usize])]
            });
        }
        // Only UNITs are dispatched (`kinds.unit` is the card type, read ahead of the icons),
        // and only a seat whose deck holds a [Dispatch] card has one.
        let down = p.homebase & !p.face_up();
        let walk = if self.dispatch_seats[me.index()] {
            down & p.kinds.unit
        } else {
            0
        };
        let mut seen = IdsMet::default();
        for i in instances(walk) {
            if self.printed_dispatch[usize::from(p.card[i as usize])]
                && self.play_cost(s, me, i) <= p.cp
                && seen.first(p, down, i)
                && self.reinforcement_ok(s, me, p.card[i as usize])
            {
                out.push(Action::Dispatch(p.card[i as usize]));
            }
        }
        self.always_actions(s, me, out);
    }

    /// The UNITs and ITEMs of `me`'s hand within the CP (T-PREP-3), one action per card, in
    /// instance order (`deployable`: no card type read); `cost` is [`Self::play_cost`].
    #[inline(always)]
    fn deploy_from_hand(
        &self,
        s: &State,
        me: Seat,
        out: &mut ActionList<Action>,
        cost: impl Fn(u8) -> u8,
    ) {
        let p = s.pl(me);
        let mut seen = IdsMet::default();
        for i in instances(p.hand & deployable(p)) {
            if cost(i) <= p.cp
                && seen.first(p, p.hand, i)
                && self.reinforcement_ok(s, me, p.card[i as usize])
            {
                // At most one push an instance, and `instances` walks at most the 50 of
                // `INSTANCES`: with the Pass before it, 51 of the list's 256 (no wrap).
                out.push_wrapping(Action::Deploy(p.card[i as usize]));
            }
        }
    }

    /// T-CURE-2: curing one stunned UNIT, or none; not one that can't be cured (decision
    /// T-EFF-12).
    fn legal_cure(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        out.scratch_one(Action::Pass);
        // Decision T-CURE-6: the second of two cures (`extra_cure`).
        if s.combat.sclm {
            for i in Bits(self.second_cures(s, me, s.combat.fight_back)) {
                out.push(Action::Cure(i));
            }
            return;
        }
        // The stunned field UNITs, read as one mask; with no prohibition in the match, each is
        // pushed with no test.
        let stunned = p.field & p.flagged(flag::STUNNED);
        if self.has_cant {
            for i in Bits(stunned) {
                if !self.prohibited(s, me, i, Prohibition::BeCured) {
                    out.push(Action::Cure(i));
                }
            }
        } else {
            for i in Bits(stunned) {
                out.push(Action::Cure(i));
            }
        }
    }

    /// Whether `me`'s UNIT `i` can't attack (decision T-EFF-12).
    #[inline]
    fn cant_attack(&self, s: &State, me: Seat, i: u8) -> bool {
        self.has_cant && self.prohibited(s, me, i, Prohibition::Attack)
    }

    /// The UNITs of `me` that may join the group `attackers`, whose members share the
    /// organizations `orgs` (T-SCLM-1): ready, sharing one of them, not barred from attacking
    /// (decision T-EFF-12), above the group's highest instance (T-SCLM-4, `canonical_next`).
    /// Whether the group then keeps a legal target (T-SCLM-2) is the caller's to ask.
    ///
    /// Inlined: most groups have no ready UNIT above their highest instance, and then no call is
    /// made; the organizations are read by [`Self::sharing_joiners`], out of line.
    #[inline(always)]
    pub(crate) fn joiners(&self, s: &State, me: Seat, attackers: u64, orgs: Orgs) -> u64 {
        let p = s.pl(me);
        let ready =
            canonical_next(attackers, self.active_units(s, me)) & !p.flagged(flag::ACTIONED);
        if ready == 0 {
            return 0;
        }
        self.sharing_joiners(s, me, ready, orgs)
    }

    /// The UNITs of `ready` (`me`'s) that share one of the organizations `orgs` and are not
    /// barred from attacking: [`Self::joiners`]' walk.
    #[inline(never)]
    fn sharing_joiners(&self, s: &State, me: Seat, ready: u64, orgs: Orgs) -> u64 {
        instances(ready)
            .filter(|&i| self.orgs(s, me, i) & orgs != 0 && !self.cant_attack(s, me, i))
            .fold(0, |m, i| m | bit(i))
    }

    /// T-COMBAT-2, step I: a ready UNIT attacks, or the player passes; "always" actions.
    fn legal_propose(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        out.scratch_one(Action::Pass);
        let ready = self.active_units(s, me) & !p.flagged(flag::ACTIONED);
        let mut w = out.appender();
        // No card of the match has a prohibition: every ready UNIT may attack, with no test
        // an instance (`cant_attack` is false).
        if self.has_cant {
            for i in Bits(ready) {
                if !self.cant_attack(s, me, i) {
                    w.push(Action::Attack(i));
                }
            }
        } else {
            for i in Bits(ready) {
                w.push(Action::Attack(i));
            }
        }
        drop(w);
        self.always_actions(s, me, out);
    }

    /// Step I goes on: another UNIT joins the group, or the group names its target.
    fn legal_group(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        // T-SCLM-1: ready UNITs sharing an organization with every member; added in increasing
        // instance order so each group is built one way (T-SCLM-4, `canonical_next`). A member
        // joins only if the group keeps a legal target (T-SCLM-2).
        let joiners = self.joiners(s, me, s.combat.attackers, s.combat.group_orgs);
        // No active opposing UNIT: no group has a UNIT target, so every group may attack the
        // player (T-COMBAT-2, decision T-SCLM-2: `group_targets` gives `(0, true)`), and no
        // marks are read.
        if self.active_units(s, me.other()) == 0 {
            for i in Bits(joiners) {
                out.push(Action::Join(i));
            }
            out.push(Action::TargetPlayer);
            return;
        }
        // Legal targets depend on icons only ([Covert], [Hate]).
        let m = self.group_marks(s, me, s.combat.attackers | joiners);
        for i in Bits(joiners) {
            let (units, player) = self.group_targets(&m, me, s.combat.attackers | bit(i));
            if units != 0 || player {
                out.push(Action::Join(i));
            }
        }
        let (units, player) = self.group_targets(&m, me, s.combat.attackers);
        for i in Bits(units) {
            out.push(Action::TargetUnit(i));
        }
        if player {
            out.push(Action::TargetPlayer);
        }
    }

    /// The window after an attack is declared (T-RES-6): passing, the defender's support, "always"
    /// actions.
    fn legal_window(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        let p = s.pl(me);
        out.scratch_one(Action::Pass);
        // Decision T-RES-8: support is offered to the defending player (not the attacker), for
        // the defending UNIT only, once (`SUPPORTED`), and within the cap on "always" actions.
        if let AttackTarget::Unit(d) = s.combat.target {
            if me != s.combat.attacker
                && s.always_used[me.index()] < MAX_ALWAYS_PER_TURN
                && !p.has(d, flag::SUPPORTED)
                && self.active_units(s, me) & bit(d) != 0
            {
                for i in Bits(self.supporters(s, me, d)) {
                    out.push(Action::Support(i));
                }
            }
        }
        self.always_actions(s, me, out);
    }

    /// T-SCLM-3: the UNITs of `me` that may support `me`'s UNIT `d`: another ready UNIT
    /// sharing an organization with it; when `d` has [Covert], one with [Covert]. The icons
    /// (a walk of the static grants) are read only when some UNIT shares an organization
    /// (`supporters_clear` in the tests is the clear form).
    fn supporters(&self, s: &State, me: Seat, d: u8) -> u64 {
        let p = s.pl(me);
        let dorgs = self.orgs(s, me, d);
        let ready = self.active_units(s, me) & !p.flagged(flag::ACTIONED) & !bit(d);
        let sharing = instances(ready)
            .filter(|&i| self.orgs(s, me, i) & dorgs != 0)
            .fold(0, |m, i| m | bit(i));
        if sharing == 0 || !self.icons(s, me, d).has(Icons::COVERT) {
            return sharing;
        }
        instances(sharing)
            .filter(|&i| self.icons(s, me, i).has(Icons::COVERT))
            .fold(0, |m, i| m | bit(i))
    }

    /// T-RES-6: playing EVENTs, arts and BASEs, and crafts with a cost. Inlined into the four
    /// steps that offer them (a call each decision saved).
    #[inline(always)]
    fn always_actions(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        self.always_list(s, me, out);
        // Decision T-EFF-17: plays a ban forbids (the deployment step's too, listed before).
        if !s.bans.is_empty() {
            self.drop_banned(s, me, out);
        }
    }

    /// The "always" actions themselves (T-RES-2 to T-RES-5), up to their cap.
    #[inline(always)]
    fn always_list(&self, s: &State, me: Seat, out: &mut ActionList<Action>) {
        if s.always_used[me.index()] >= MAX_ALWAYS_PER_TURN {
            return;
        }
        let p = s.pl(me);
        let up = p.face_up();
        let down = p.homebase & !up;
        // The cards that may give an action: in hand and face down in the homebase, EVENTs,
        // BASEs and cards with arts; face up in the homebase and on the field (not stunned),
        // cards with crafts.
        let (hand, home) = (
            p.hand & p.kinds.play,
            (up & p.kinds.craft) | (down & p.kinds.play),
        );
        let field = p.field & p.kinds.craft & !p.flagged(flag::STUNNED);
        if hand | home | field == 0 {
            return;
        }
        // Counting bits is a dozen instructions on the baseline x86-64 target (no `popcnt`):
        // the EP only when a card may use it, the homebase size only for a BASE.
        let ep = play_ep(p.ep_available());
        let mut seen = IdsMet::default();
        for i in instances(hand) {
            let id = p.card[i as usize];
            // `hand_plays`' cost test, read from the byte table (one load, no scaling of the id).
            if self.hand_ep[usize::from(id)] > ep {
                continue;
            }
            let c = self.hot(id);
            let (mut event, mut arts) = hand_play_kinds(c);
            // One action per card, whatever the copies (actions name cards by id).
            if !seen.first(p, p.hand, i) {
                continue;
            }
            if c.feat & feat::GATED != 0 {
                event &= self.play_gate(s, me, i, Trigger::Event);
                arts &= self.play_gate(s, me, i, Trigger::Arts);
            }
            if event {
                out.push(Action::Event {
                    card: id,
                    from_homebase: false,
                });
            }
            if arts {
                out.push(Action::Arts {
                    card: id,
                    from_homebase: false,
                });
            }
        }
        let mut seen = IdsMet::default();
        // Only cards that can give an action, still in instance order.
        for i in instances(home) {
            let id = p.card[i as usize];
            let c = self.hot(id);
            if up & bit(i) != 0 {
                // T-RES-5: face-up non-BASE cards in the homebase have no crafts (the loop
                // visits face-up cards with crafts only). A card none of whose crafts the
                // player can afford adds nothing.
                let k = &self.crafts[id];
                if k.min_ep > ep {
                    continue;
                }
                if c.ctype == CardType::Base {
                    self.craft_actions(s, me, i, k, ep, out);
                } else if k.homebase != 0 {
                    // Decision T-RES-5-2: a craft whose text says it works here.
                    self.gated_craft_actions(s, me, i, ep, k.homebase, out);
                }
                continue;
            }
            // An EVENT and arts as from the hand (`hand_plays`: one of the two when it gives
            // any); a BASE, which no EP plays from the hand, within the homebase's size. A card
            // that gives none is left at once.
            let (mut event, base, mut arts) = match hand_plays(c, ep) {
                Some((event, arts)) => (event, false, arts),
                None if c.ctype == CardType::Base && u32::from(c.cost) <= p.homebase_count() => {
                    (false, true, false)
                }
                None => continue,
            };
            debug_assert!(event || base || arts);
            if !seen.first(p, down, i) {
                continue;
            }
            if c.feat & feat::GATED != 0 {
                event &= self.play_gate(s, me, i, Trigger::Event);
                arts &= self.play_gate(s, me, i, Trigger::Arts);
            }
            if event {
                out.push(Action::Event {
                    card: id,
                    from_homebase: true,
                });
            }
            if base {
                out.push(Action::Base(id));
            }
            if arts {
                out.push(Action::Arts {
                    card: id,
                    from_homebase: true,
                });
            }
        }
        for i in instances(field) {
            // A card none of whose crafts the player can afford adds nothing.
            let k = &self.crafts[p.card[i as usize]];
            if k.min_ep <= ep {
                self.craft_actions(s, me, i, k, ep, out);
            }
        }
    }

    /// The crafts `k` of `me`'s card `i` that `ep` pays for (T-RES-5).
    #[inline(always)]
    fn craft_actions(
        &self,
        s: &State,
        me: Seat,
        i: u8,
        k: &Crafts,
        ep: u8,
        out: &mut ActionList<Action>,
    ) {
        let p = s.pl(me);
        if k.gated != 0 {
            return self.gated_craft_actions(s, me, i, ep, !0, out);
        }
        let ready = !p.has(i, flag::ACTIONED);
        for j in 0..k.n as usize {
            if k.ep[j] <= ep && (ready || k.self_action & (1 << j) == 0) {
                out.push(Action::Craft {
                    inst: i,
                    ability: k.ability[j],
                });
            }
        }
    }

    /// [`Self::craft_actions`] for a card with a craft gated beyond its cost (`[once]`, a head's
    /// condition): each such craft asks its gate.
    #[cold]
    #[inline(never)]
    fn gated_craft_actions(
        &self,
        s: &State,
        me: Seat,
        i: u8,
        ep: u8,
        only: u8,
        out: &mut ActionList<Action>,
    ) {
        let p = s.pl(me);
        let k = &self.crafts[p.card[i as usize]];
        let ready = !p.has(i, flag::ACTIONED);
        for j in 0..k.n as usize {
            if only & (1 << j) != 0
                && k.ep[j] <= ep
                && (ready || k.self_action & (1 << j) == 0)
                && (k.gated & (1 << j) == 0 || self.craft_gate(s, me, i, k.ability[j]))
            {
                out.push(Action::Craft {
                    inst: i,
                    ability: k.ability[j],
                });
            }
        }
    }

    /// Whether `me`'s card `i`'s gated craft (its ability `ability`) may be activated now.
    fn craft_gate(&self, s: &State, me: Seat, i: u8, ability: u8) -> bool {
        let ab = &self.card(s.pl(me).card[i as usize]).abilities[ability as usize];
        self.gate_open(s, me, i, ab, That::NONE)
    }

    /// Whether `me`'s card `i`'s way of playing `trigger` (an EVENT, arts) is open: its head's
    /// condition ("play only if") holds.
    #[cold]
    #[inline(never)]
    fn play_gate(&self, s: &State, me: Seat, i: u8, trigger: Trigger) -> bool {
        match self.card(s.pl(me).card[i as usize]).ability(trigger) {
            Some((_, ab)) => !ab.gated() || self.gate_open(s, me, i, ab, That::NONE),
            None => false,
        }
    }

    /// T-ICON-REINF: a [Reinforcement] card is played as a UNIT only while its player controls a
    /// UNIT sharing one of its organizations.
    #[inline]
    fn reinforcement_ok(&self, s: &State, me: Seat, id: Lid) -> bool {
        let c = self.hot(id);
        !c.icons.has(Icons::REINFORCEMENT)
            || c.ctype != CardType::Unit
            || self.reinforcement_linked(s, me, id)
    }

    /// Whether `me` controls an active UNIT sharing an organization with card `id`.
    #[inline(never)]
    fn reinforcement_linked(&self, s: &State, me: Seat, id: Lid) -> bool {
        // Decision T-TERM-LINK-3: the card in hand or homebase has its linked organizations too.
        let own = self.linked(s, me, self.hot(id).orgs);
        instances(self.active_units(s, me)).any(|i| self.orgs(s, me, i) & own != 0)
    }
}

/// T-SCLM-1: the attacker of a SCLM group that the defending UNIT fights back. Out of line, so that
/// [`TrailsGame::legal`] keeps no frame for its loop.
#[inline(never)]
fn legal_fight_back(s: &State, out: &mut ActionList<Action>) {
    for i in Bits(s.combat.attackers) {
        out.push(Action::FightBack(i));
    }
}

/// The looked-at cards of a plan, each to the top or the bottom (T-TERM-PLAN).
fn legal_plan(s: &State, me: Seat, left: u8, fixed: u8, out: &mut ActionList<Action>) {
    let p = s.pl(me);
    let top = p.deck_len as usize - fixed as usize;
    // Actions name cards by id: the first copy of a card among the looked-at cards gives its two
    // actions, a seen-set in the walk's order (no search of the list; `legal_plan_clear` is the
    // clear form).
    let mut seen = IdsMet::default();
    let mut w = out.appender();
    for &i in &p.deck[top - left as usize..top] {
        let id = p.card[i as usize];
        if seen.new_id(id) {
            w.push(Action::PlanTop(id));
            w.push(Action::PlanBottom(id));
        }
    }
}

/// [`legal_plan`] as the list's own search ([`push_unique`]) for each action: what the seen-set
/// is checked against.
#[cfg(test)]
fn legal_plan_clear(s: &State, me: Seat, left: u8, fixed: u8, out: &mut ActionList<Action>) {
    let p = s.pl(me);
    let top = p.deck_len as usize - fixed as usize;
    for &i in &p.deck[top - left as usize..top] {
        let id = p.card[i as usize];
        push_unique(out, Action::PlanTop(id));
        push_unique(out, Action::PlanBottom(id));
    }
}

/// The homebase cards a rebuild may destroy (T-TERM-REBUILD).
fn legal_rebuild(s: &State, me: Seat, out: &mut ActionList<Action>) {
    let p = s.pl(me);
    let up = p.face_up();
    // Actions name cards by id and face: the first copy of a card face up, and the first face
    // down, each give one, a seen-set for each face in the walk's order (no search of the list;
    // `legal_rebuild_clear` is the clear form).
    let mut seen = [IdsMet::default(), IdsMet::default()];
    for i in instances(p.homebase) {
        let face_up = up & bit(i) != 0;
        let card = p.card[i as usize];
        if seen[usize::from(face_up)].new_id(card) {
            out.push(Action::Rebuild { card, face_up });
        }
    }
}

/// [`legal_rebuild`] as the list's own search ([`push_unique`]) for each action: what the
/// seen-sets are checked against.
#[cfg(test)]
fn legal_rebuild_clear(s: &State, me: Seat, out: &mut ActionList<Action>) {
    let p = s.pl(me);
    for i in Bits(p.homebase) {
        push_unique(
            out,
            Action::Rebuild {
                card: p.card[i as usize],
                face_up: p.has(i, flag::FACE_UP),
            },
        );
    }
}

/// After a dispatch: a hand card into the homebase, or none (T-ICON-DISPATCH).
fn legal_dispatch_put(s: &State, me: Seat, out: &mut ActionList<Action>) {
    out.scratch_one(Action::Pass);
    let p = s.pl(me);
    let mut seen = IdsMet::default();
    for i in instances(p.hand) {
        if seen.first(p, p.hand, i) {
            out.push(Action::DispatchPut(p.card[i as usize]));
        }
    }
}

/// T-SETUP-3: a hand card to the bottom of the deck, or keeping the hand.
fn legal_mulligan(s: &State, me: Seat, out: &mut ActionList<Action>) {
    let p = s.pl(me);
    out.scratch_one(Action::Pass);
    let mut seen = IdsMet::default();
    for i in instances(p.hand) {
        // T-SETUP-4: one card at a time, in the order the player chooses (each order
        // of a set is one sequence of actions; copies of a card are one action).
        if seen.first(p, p.hand, i) {
            out.push(Action::Mulligan(p.card[i as usize]));
        }
    }
}

/// The card ids met in one walk of a zone in increasing instance order, so that only a card's first
/// copy adds its actions (actions name cards by id). [`IdsMet::first`] must be asked of every
/// instance of the zone whose card passes the walk's tests before it (tests of the card alone, the
/// same for every copy), so a card's first copy is the first one asked about.
#[derive(Default)]
struct IdsMet([u64; 4]);

impl IdsMet {
    /// Whether instance `i` is the first (lowest) of its card in `zone` (the zone's walk asks of
    /// every instance in order).
    #[inline]
    fn first(&mut self, p: &PlayerState, _zone: u64, i: u8) -> bool {
        self.new_id(p.card[i as usize])
    }

    /// Whether card `id` is met for the first time (it is met from now on).
    #[inline]
    fn new_id(&mut self, id: Lid) -> bool {
        let (w, b) = ((id >> 6) as usize, 1u64 << (id & 63));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }
}

/// The EP that [`hand_plays`] compares with a card's cost, from the EP available (a `u32`: the
/// pool, at most 255, plus the ready homebase cards): capped at 254, below `u8::MAX` that marks
/// the cards with no EVENT or arts, and above every cost a card file may print (at most 20,
/// `cards.rs`), so that every cost within the EP available stays within it.
#[inline(always)]
fn play_ep(available: u32) -> u8 {
    available.min(u32::from(u8::MAX - 1)) as u8
}

/// Whether card `c`, in the hand or face down in the homebase, gives an EVENT or an arts action
/// with `ep` EP (T-RES-2, T-RES-3), before its gates; `None` for neither (a BASE's play, T-RES-4,
/// is the caller's). `hand_ep` is an EVENT's cost (EVENTs have no arts) or a UNIT's
/// arts cost (only UNITs have arts), and `u8::MAX` for the others, which no EP reaches (`ep` is
/// below it): within it, an EVENT is played as one and any other card uses its arts, with no cost
/// read again.
#[inline(always)]
fn hand_plays(c: &HotCard, ep: u8) -> Option<(bool, bool)> {
    debug_assert!(ep < u8::MAX, "{ep} EP");
    if c.hand_ep > ep {
        return None;
    }
    Some(hand_play_kinds(c))
}

/// What an affordable card of the hand may be played as (T-RES-2, T-RES-3): (as an EVENT, as
/// arts). `hand_ep` is an EVENT's cost and a UNIT's arts cost, so it is one or the other; shared
/// by [`hand_plays`] and the "always" hand walk, which tests the cost off its byte table.
#[inline(always)]
fn hand_play_kinds(c: &HotCard) -> (bool, bool) {
    let event = c.ctype == CardType::Event;
    (event, !event)
}

/// The instances of `p` whose card is a UNIT or an ITEM (T-PREP-3), from the card-kind masks: a
/// UNIT is in `kinds.unit`; a card outside `kinds.play` is no EVENT and no BASE, so a UNIT or an
/// ITEM; a card in `kinds.play` outside `kinds.unit` is an EVENT, a BASE or a card with arts, and
/// only UNITs have arts (the card file refuses arts on any other card), so it is never an ITEM.
#[inline(always)]
fn deployable(p: &PlayerState) -> u64 {
    p.kinds.unit | !p.kinds.play
}

/// Whether instance `i` is the first (lowest) of its card in `zone`: actions name cards by id, so
/// only the first copy adds them (the rescan [`IdsMet`] is checked against).
#[cfg(test)]
fn first_of_card(p: &PlayerState, zone: u64, i: u8) -> bool {
    let id = p.card[i as usize];
    !Bits(zone & (bit(i) - 1)).any(|j| p.card[j as usize] == id)
}

#[cfg(test)]
fn push_unique(out: &mut ActionList<Action>, a: Action) {
    if !out.contains(&a) {
        out.push(a);
    }
}

/// The options of a program's step that asks its controller (decision T-EFF-4): `option N` for
/// each option of a choose, `yes` and `no` for a may. Off the hot path.
#[cold]
#[inline(never)]
fn legal_step_choice(pending: Pending, out: &mut ActionList<Action>) {
    match pending {
        Pending::Mode { n } => {
            for k in 0..n {
                out.push(Action::Mode(k));
            }
        }
        Pending::May { .. } => {
            out.push(Action::Yes);
            out.push(Action::Pass);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, RandomAgent};
    use crate::core::{Game, GameDef};
    use crate::games::trails::state::{INSTANCES, MAX_CARDS};

    /// `IdsMet::first` answers as `first_of_card` (a rescan of the lower instances) for every walk of
    /// a hand and a homebase in random games.
    #[test]
    fn the_seen_set_finds_the_first_copy_as_a_rescan_does() {
        let g = TrailsGame::bench_match().expect("the bench match");
        let mut checked = 0;
        crate::games::trails::walk_test_games_p1_first(
            std::slice::from_ref(&g),
            30,
            1,
            |_, s, _, _| {
                for p in &s.p {
                    for zone in [p.hand, p.homebase, p.homebase & !p.face_up()] {
                        let mut seen = IdsMet::default();
                        for i in Bits(zone) {
                            assert_eq!(seen.first(p, zone, i), first_of_card(p, zone, i));
                            checked += 1;
                        }
                    }
                }
            },
        );
        assert!(checked > 100_000, "{checked}");
    }

    /// The actions of a group's step (T-SCLM-1, T-SCLM-2, T-COMBAT-2) are those of the clear
    /// form: each joiner whose group keeps a target, then the group's targets, by
    /// `group_targets` of the group's marks, with or without active opposing UNITs; in every
    /// position of a group's step of random games of several deck pairs.
    #[test]
    fn group_actions_are_the_group_targets() {
        use crate::games::trails::deck::Deck;
        let db = crate::games::trails::bundled_cards();
        let decks = [
            include_str!("../../../../decks/trails/aggro.deck"),
            include_str!("../../../../decks/trails/covert.deck"),
            include_str!("../../../../decks/trails/hate_wall.deck"),
            include_str!("../../../../decks/trails/control.deck"),
            include_str!("../../../../decks/trails/blitz.deck"),
        ]
        .map(|text| {
            Deck::parse(text, "deck", "deck", &db)
                .expect("a bundled deck")
                .cards
        });
        let mut checked = [0; 2];
        for k in 0..decks.len() {
            let (a, b) = (&decks[k], &decks[(k + 1) % decks.len()]);
            let g = TrailsGame::new(db.clone(), a.clone(), b.clone());
            for seed in 0..12 {
                let mut s = g.new_game(seed, Seat::P1);
                let mut ag = [RandomAgent::new(seed), RandomAgent::new(seed + 1)];
                while let Some(q) = g.to_move(&s) {
                    if s.step == Step::Group && matches!(s.pending, Pending::None) {
                        let at = s.combat.attackers;
                        let joiners = g.joiners(&s, q, at, s.combat.group_orgs);
                        let m = g.group_marks(&s, q, at | joiners);
                        let mut clear = ActionList::new();
                        for i in Bits(joiners) {
                            let (units, player) = g.group_targets(&m, q, at | bit(i));
                            if units != 0 || player {
                                clear.push(Action::Join(i));
                            }
                        }
                        let (units, player) = g.group_targets(&m, q, at);
                        for i in Bits(units) {
                            clear.push(Action::TargetUnit(i));
                        }
                        if player {
                            clear.push(Action::TargetPlayer);
                        }
                        let mut out = ActionList::new();
                        g.legal(&s, &mut out);
                        assert_eq!(out.as_slice(), clear.as_slice(), "seed {seed}");
                        checked[usize::from(g.active_units(&s, q.other()) == 0)] += 1;
                    }
                    let act = ag[q.index()].choose(&g, &s, q);
                    g.apply(&mut s, act);
                }
            }
        }
        assert!(checked[0] > 1_000 && checked[1] > 150, "{checked:?}");
    }

    /// `deployable` (the card-kind masks) holds exactly the UNITs and ITEMs (the card type, the
    /// clear form): for every card of the bundled card file, and for both players' instances in
    /// every position of random games of the bench match.
    #[test]
    fn deployable_cards_are_the_units_and_items() {
        use crate::games::trails::cards::CardId;
        let is_deployable = |t: CardType| matches!(t, CardType::Unit | CardType::Item);
        let db = crate::games::trails::bundled_cards();
        let ids: Vec<CardId> = (0..db.len() as CardId).collect();
        let (mut cards, mut kinds) = (0, [0; 2]);
        for pair in ids.chunks(100) {
            let (a, b) = pair.split_at(pair.len().min(50));
            let g = TrailsGame::new(db.clone(), a.to_vec(), b.to_vec());
            for l in g.lids() {
                let mut p = PlayerState::default();
                p.kinds.add_tag(0, g.kind_tag(l));
                let yes = is_deployable(g.hot(l).ctype);
                assert_eq!(deployable(&p) & 1 != 0, yes, "{}", g.card(l).name);
                cards += 1;
                kinds[usize::from(yes)] += 1;
            }
        }
        assert_eq!(cards, db.len());
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
        let g = TrailsGame::bench_match().expect("the bench match");
        let mut checked = 0;
        crate::games::trails::walk_test_games_p1_first(
            std::slice::from_ref(&g),
            20,
            1,
            |g, s, _, _| {
                for p in &s.p {
                    let all = (1u64 << p.n_cards) - 1;
                    let clear = Bits(all)
                        .filter(|&i| is_deployable(g.hot(p.card[i as usize]).ctype))
                        .fold(0, |m, i| m | bit(i));
                    assert_eq!(deployable(p) & all, clear);
                    checked += 1;
                }
            },
        );
        assert!(checked > 10_000, "{checked}");
    }

    /// `hand_plays` answers as the clear form (an EVENT within its cost, arts within their cost;
    /// neither: no action) for every card of the bundled card file and every EP below 255.
    #[test]
    fn hand_plays_are_the_affordable_events_and_arts() {
        use crate::games::trails::cards::CardId;
        let db = crate::games::trails::bundled_cards();
        let ids: Vec<CardId> = (0..db.len() as CardId).collect();
        let mut plays = [0; 4];
        for pair in ids.chunks(100) {
            let (a, b) = pair.split_at(pair.len().min(50));
            let g = TrailsGame::new(db.clone(), a.to_vec(), b.to_vec());
            for l in g.lids() {
                let c = g.hot(l);
                for ep in 0..u8::MAX {
                    let event = c.ctype == CardType::Event && c.cost <= ep;
                    let arts = c.arts.is_some_and(|a| a <= ep);
                    let clear = (event || arts).then_some((event, arts));
                    assert_eq!(hand_plays(c, ep), clear, "{} at {ep} EP", g.card(l).name);
                    plays[usize::from(event) + 2 * usize::from(arts)] += 1;
                }
            }
        }
        assert!(
            plays[..3].iter().all(|&n| n > 0) && plays[3] == 0,
            "{plays:?}"
        );
    }

    /// `hand_plays` at the EP [`play_ep`] makes of the EP available answers as the clear form
    /// with the whole EP available (a `u32`): for every card of the bundled card file and every
    /// EP up to 600, past the pool's 255 (a card with no EVENT or arts gets no action at 255, and
    /// 258 is not read as 2).
    #[test]
    fn hand_plays_at_any_ep_available_are_the_affordable_events_and_arts() {
        use crate::games::trails::cards::CardId;
        let db = crate::games::trails::bundled_cards();
        let ids: Vec<CardId> = (0..db.len() as CardId).collect();
        let mut checked = 0u32;
        for pair in ids.chunks(100) {
            let (a, b) = pair.split_at(pair.len().min(50));
            let g = TrailsGame::new(db.clone(), a.to_vec(), b.to_vec());
            for l in g.lids() {
                let (c, card) = (g.hot(l), g.card(l));
                for ep in 0..=600u32 {
                    let event = card.ctype == CardType::Event && u32::from(card.cost) <= ep;
                    let arts = card.arts_cost.is_some_and(|a| u32::from(a) <= ep);
                    let clear = (event || arts).then_some((event, arts));
                    assert_eq!(
                        hand_plays(c, play_ep(ep)),
                        clear,
                        "{} at {ep} EP",
                        card.name
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// `legal_plan` (a seen-set) lists what `legal_plan_clear` (the list searched for each action)
    /// does, in the same order: for both players of every position of random games of the bench
    /// match, for each number of looked-at cards up to 5 and each number of them already placed.
    #[test]
    fn plan_actions_are_those_of_the_searched_list() {
        let g = TrailsGame::bench_match().expect("the bench match");
        let (mut checked, mut with_copies) = (0, 0);
        let (mut fast, mut clear) = (ActionList::new(), ActionList::new());
        crate::games::trails::walk_test_games_p1_first(
            std::slice::from_ref(&g),
            20,
            1,
            |_, s, _, _| {
                for me in Seat::ALL {
                    let n = s.pl(me).deck_len.min(5);
                    for left in 1..=n {
                        for fixed in 0..=n - left {
                            fast.clear();
                            clear.clear();
                            legal_plan(s, me, left, fixed, &mut fast);
                            legal_plan_clear(s, me, left, fixed, &mut clear);
                            assert_eq!(fast.as_slice(), clear.as_slice());
                            checked += 1;
                            with_copies += usize::from(fast.len() < 2 * usize::from(left));
                        }
                    }
                }
            },
        );
        assert!(
            checked > 100_000 && with_copies > 1_000,
            "{checked} {with_copies}"
        );
    }

    /// `legal_rebuild` (a seen-set for each face) lists what `legal_rebuild_clear` (the list
    /// searched for each action) does, in the same order: for both players of every position of
    /// random games (5 seeds) of the bench match and of the 36 pairs of the bundled decks.
    #[test]
    fn rebuild_actions_are_those_of_the_searched_list() {
        let (mut checked, mut with_copies, mut both_faces) = (0, 0, 0);
        let (mut fast, mut clear) = (ActionList::new(), ActionList::new());
        let games = crate::games::trails::test_games(true);
        crate::games::trails::walk_test_games_p1_first(&games, 5, 1, |_, s, _, _| {
            for me in Seat::ALL {
                fast.clear();
                clear.clear();
                legal_rebuild(s, me, &mut fast);
                legal_rebuild_clear(s, me, &mut clear);
                assert_eq!(fast.as_slice(), clear.as_slice());
                checked += 1;
                let p = s.pl(me);
                with_copies += usize::from(fast.len() < p.homebase.count_ones() as usize);
                // A card with a copy face up and a copy face down: one action each.
                let ids = |m: u64| {
                    Bits(m).fold([0u64; 4], |mut w, i| {
                        let id = p.card[i as usize];
                        w[usize::from(id >> 6)] |= 1 << (id & 63);
                        w
                    })
                };
                let (up, down) = (ids(p.face_up()), ids(p.homebase & !p.face_up()));
                both_faces += usize::from((0..4).any(|w| up[w] & down[w] != 0));
            }
        });
        eprintln!(
            "rebuild: {checked} lists, {with_copies} with copies, {both_faces} a card both faces"
        );
        assert!(
            checked > 100_000 && with_copies > 10_000 && both_faces > 1_000,
            "{checked} {with_copies} {both_faces}"
        );
    }

    /// The supporters (T-SCLM-3) as the loop that listed them before: every active UNIT of the
    /// seat other than the defender, ready, sharing an organization, with [Covert] when the
    /// defender has it, its icons read first.
    fn supporters_clear(g: &TrailsGame, s: &State, me: Seat, d: u8) -> u64 {
        let p = s.pl(me);
        let dorgs = g.orgs(s, me, d);
        let covert = g.icons(s, me, d).has(Icons::COVERT);
        Bits(g.active_units(s, me))
            .filter(|&i| {
                i != d
                    && !p.has(i, flag::ACTIONED)
                    && g.orgs(s, me, i) & dorgs != 0
                    && (!covert || g.icons(s, me, i).has(Icons::COVERT))
            })
            .fold(0, |m, i| m | bit(i))
    }

    /// `supporters` equals the clear form for every active UNIT of both seats at every
    /// position of random games (3 seeds) of the bench match and of the 36 pairs of the
    /// bundled decks (among them [Covert] defenders with and without [Covert] supporters).
    #[test]
    fn supporters_are_those_of_the_clear_loop() {
        let games = crate::games::trails::test_games(true);
        let (mut checked, mut some, mut covert) = (0, 0, 0);
        crate::games::trails::walk_test_games_p1_first(&games, 3, 1, |g, s, _, seed| {
            for me in Seat::ALL {
                for d in Bits(g.active_units(s, me)) {
                    let m = g.supporters(s, me, d);
                    assert_eq!(m, supporters_clear(g, s, me, d), "seed {seed} {me:?} {d}");
                    checked += 1;
                    some += usize::from(m != 0);
                    // A [Covert] defender with a UNIT that shares an organization
                    // but lacks [Covert]: the case the icons decide.
                    let p = s.pl(me);
                    let ready = g.active_units(s, me) & !p.flagged(flag::ACTIONED) & !bit(d);
                    let sharing = Bits(ready)
                        .filter(|&i| g.orgs(s, me, i) & g.orgs(s, me, d) != 0)
                        .fold(0, |m, i| m | bit(i));
                    covert +=
                        usize::from(g.icons(s, me, d).has(Icons::COVERT) && sharing & !m != 0);
                }
            }
        });
        eprintln!(
            "supporters: {checked} defenders, {some} with supporters, {covert} [Covert] deciding"
        );
        assert!(
            checked > 100_000 && some > 10_000 && covert > 1_000,
            "{checked} {some} {covert}"
        );
    }

    /// The dispatches of a deployment step (T-ICON-DISPATCH, T-PREP-3) are those of the clear
    /// walk of every face-down UNIT of the homebase, whatever `dispatch_seats` says of the seat:
    /// at every deployment step (with no ban) of random games (12 seeds) of the bench match and
    /// the 36 pairs of the bundled decks; and no instance of a seat whose deck has no [Dispatch]
    /// card ever has one, at every position.
    #[test]
    fn dispatches_are_those_of_the_walk_of_every_face_down_unit() {
        let games = crate::games::trails::test_games(true);
        let (mut steps, mut with, mut positions) = (0, 0, 0);
        let mut out = ActionList::new();
        crate::games::trails::walk_test_games_p1_first(&games, 12, 1, |g, s, _, seed| {
            for me in Seat::ALL {
                let p = s.pl(me);
                if !g.dispatch_seats[me.index()] {
                    assert!(
                        Bits(p.hand | p.homebase | p.field | p.trail)
                            .all(|i| !g.hot(p.card[i as usize]).icons.has(Icons::DISPATCH)),
                        "seed {seed} {me:?}"
                    );
                }
            }
            positions += 1;
            if s.step == Step::Deploy && s.pending == Pending::None && s.bans.is_empty() {
                let me = s.actor;
                let p = s.pl(me);
                let down = p.homebase & !p.face_up();
                let mut clear = Vec::new();
                for i in Bits(down & p.kinds.unit) {
                    let id = p.card[i as usize];
                    if g.hot(id).icons.has(Icons::DISPATCH)
                        && g.play_cost(s, me, i) <= p.cp
                        && first_of_card(p, down, i)
                        && g.reinforcement_ok(s, me, id)
                    {
                        clear.push(Action::Dispatch(id));
                    }
                }
                g.legal(s, &mut out);
                let listed: Vec<Action> = out
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Dispatch(_)))
                    .collect();
                assert_eq!(listed, clear, "seed {seed} {me:?}");
                steps += 1;
                with += usize::from(!clear.is_empty());
            }
        });
        eprintln!("dispatches: {positions} positions, {steps} deployment steps, {with} with one");
        assert!(steps > 20_000 && with > 1_000, "{steps} {with}");
    }

    /// The byte tables of `TrailsGame` (`hand_ep`, `printed_cost`, `printed_dispatch`) hold the
    /// `HotCard` fields they copy (the clear form, read by id) for every id of every match of the
    /// bundled decks (the bench match and the 36 pairs), the ids of no card among them.
    #[test]
    fn the_byte_tables_hold_the_hot_cards_fields() {
        let games = crate::games::trails::test_games(true);
        let mut cards = 0;
        for g in &games {
            for k in 0..=u8::MAX {
                let c = g.hot(k);
                assert_eq!(g.hand_ep[usize::from(k)], c.hand_ep, "hand_ep {k}");
                assert_eq!(g.printed_cost[usize::from(k)], c.cost, "cost {k}");
                assert_eq!(
                    g.printed_dispatch[usize::from(k)],
                    c.icons.has(Icons::DISPATCH),
                    "dispatch {k}"
                );
                cards += usize::from(c.hand_ep < u8::MAX);
            }
        }
        assert!(games.len() == 37 && cards > 100, "{} {cards}", games.len());
    }

    /// `instances(m)` walks the instances `Bits(m)` walks (the clear form) for every mask the
    /// walks of the legal actions and `marks_of` read (the zones, the card-kind masks, every
    /// flag, the static sources, the deployable cards, the active UNITs, the attackers), for
    /// both seats at every position of random games (3 seeds) of the bench match and the 36
    /// pairs of the bundled decks: no mask of the state has an instance at or above
    /// [`MAX_CARDS`]. And the highest instance, `MAX_CARDS - 1` (a 50-card deck's last), is in
    /// some zone at many of them, so that [`INSTANCES`] one instance short is seen to be wrong.
    #[test]
    fn instance_walks_are_the_walks_of_the_masks() {
        let games = crate::games::trails::test_games(true);
        let (mut masks, mut positions, mut last) = (0usize, 0usize, 0usize);
        crate::games::trails::walk_test_games(&games, 3, 1, |g, s, _, seed| {
            positions += 1;
            for q in Seat::ALL {
                let p = s.pl(q);
                let mut all = vec![
                    p.hand,
                    p.homebase,
                    p.field,
                    p.trail,
                    p.kinds.play,
                    p.kinds.craft,
                    p.kinds.unit,
                    p.static_src,
                    p.face_up(),
                    deployable(p) & p.hand,
                    g.active_units(s, q),
                    s.combat.attackers,
                ];
                all.extend(Bits(u64::from(flag::ALL)).map(|f| p.flagged(1 << f)));
                for m in all {
                    assert!(
                        instances(m).eq(Bits(m)),
                        "seed {seed} {q:?}: {m:#x} outside {INSTANCES:#x}"
                    );
                    masks += 1;
                }
                let top = 1u64 << (MAX_CARDS - 1);
                last += usize::from((p.hand | p.homebase | p.field) & top != 0);
            }
        });
        eprintln!("instances: {masks} masks at {positions} positions, the last instance in play at {last}");
        assert!(positions > 10_000 && last > 1_000, "{positions} {last}");
    }

    /// `Crafts::min_ep` is the least EP cost of a card's crafts (`act` abilities, T-RES-5), read
    /// here off the card's abilities, and `u8::MAX` for a card without crafts: the "always"
    /// actions skip a card whose `min_ep` is above the EP available, so a value too high would
    /// drop legal crafts. Every card of the bundled card file is checked (matches of 50 + 50 of
    /// them).
    #[test]
    fn the_least_craft_cost_is_the_cheapest_craft_of_the_card() {
        use crate::games::trails::cards::{CardId, Trigger};
        let db = crate::games::trails::bundled_cards();
        let ids: Vec<CardId> = (0..db.len() as CardId).collect();
        let (mut cards, mut with_crafts) = (0, 0);
        for pair in ids.chunks(100) {
            let (a, b) = pair.split_at(pair.len().min(50));
            let g = TrailsGame::new(db.clone(), a.to_vec(), b.to_vec());
            for l in g.lids() {
                let costs: Vec<u8> = g
                    .card(l)
                    .abilities
                    .iter()
                    .filter(|ab| ab.trigger == Trigger::Act)
                    .map(|ab| ab.cost.ep)
                    .collect();
                let cheapest = costs.iter().copied().min().unwrap_or(u8::MAX);
                assert_eq!(g.crafts[l].min_ep, cheapest, "{}", g.card(l).name);
                cards += 1;
                with_crafts += usize::from(!costs.is_empty());
            }
        }
        assert_eq!(cards, db.len());
        assert!(with_crafts > 0, "no bundled card has a craft");
        // No bundled card has two crafts of different costs: a hand-built one, its dearer craft
        // first, whose least cost is 1 (the first craft's 3 and the greater 3 are both wrong).
        let text = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n\
                    X-1,Twin Craft,,UNIT,2,2,2,bracer,,,\"act[self_action, ep 3]: plan 2 | act[self_action, ep 1]: plan 1\"\n";
        let db = crate::games::trails::cards::CardDb::parse(text, "twin.csv").expect("card file");
        let g = TrailsGame::new(db, vec![0; 50], vec![0; 50]);
        let l = g.lids().next().expect("an instance");
        assert_eq!(g.crafts[l].n, 2);
        assert_eq!(g.crafts[l].min_ep, 1);
    }
}
