//! The Trails TCG's [`Policy`]: a fast rule of thumb and a static evaluation, used by the
//! heuristic agent and as the playout policy of the search agents.
//!
//! It reads only what the player to move may see: its own cards, the public zones and the sizes of
//! the opponent's hidden zones — never the identity of the opponent's hidden cards (tested by the
//! agents' no-peeking test).

use super::action::Action;
use super::cards::{CardType, Effect, Icons, Op, Prohibition, Side, TargetMode, Trigger};
use super::engine::{FieldView, TrailsGame};
use super::state::Lid;
use super::state::{bit, AttackTarget, Bits, Pending, State, Step};
use crate::core::{ActionList, GameRng, Policy, Seat};
use rand::Rng;

/// The heuristic's tunable numbers, defined beside the [`TrailsGame`] that carries them.
pub use super::engine::Weights;

impl TrailsGame {
    /// The heuristic's choice among `legal` (non-empty).
    pub fn heuristic_choice(
        &self,
        s: &State,
        legal: &ActionList<Action>,
        w: &Weights,
        rng: &mut GameRng,
    ) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if w.noise > 0.0 && rng.gen_bool(w.noise) {
            return legal[rng.gen_range(0..legal.len())];
        }
        let me = s.chooser().expect("a decision");
        // Combat predictions read a view once for all the actions they score, of the cards they
        // read only.
        let mut slot = None;
        let view = self
            .combat_cards(s, legal)
            .map(|cards| self.view_of_in(s, cards, &mut slot));
        // What is pending is asked once a decision, not once an action.
        if let Pending::None = s.pending {
            best_scored(legal, rng, |a| self.step_score(s, view, me, a, w))
        } else {
            best_scored(legal, rng, |a| self.choice_score(s, view, me, a, w))
        }
    }

    /// The cards (a mask per seat) whose STR, DEF, icons and marks the combat predictions of the
    /// actions in `legal` read, or `None` when none of them is a combat action: the attack's
    /// members and its target (a `Support` or `FightBack` weighs that one clash), and every active
    /// UNIT of both seats besides when an action weighs targets and groups (`Attack`, `Join`,
    /// `TargetUnit`, `TargetPlayer`: the members, the UNITs that may join, the targets and the
    /// [Covert] and [Hate] marks that make them targets, T-COMBAT-2, T-COMBAT-6, T-ICON-COVERT,
    /// T-SCLM-1). A card's values in a view do not depend on the other cards of the view, so these
    /// are the values the whole field's view ([`TrailsGame::field_view`]) gives them; stunned
    /// UNITs and ITEMs, which no prediction reads, are left out.
    #[inline]
    fn combat_cards(&self, s: &State, legal: &ActionList<Action>) -> Option<[u64; 2]> {
        // Only the combat steps offer combat actions, and no choice does ([`TrailsGame::legal`]):
        // the other decisions skip the walk.
        if !matches!(s.pending, Pending::None)
            || !matches!(
                s.step,
                Step::Propose | Step::Group | Step::Window | Step::FightBack
            )
        {
            return None;
        }
        let (mut combat, mut wide) = (false, false);
        for a in legal.iter() {
            match a {
                Action::Attack(_)
                | Action::Join(_)
                | Action::TargetUnit(_)
                | Action::TargetPlayer => {
                    wide = true;
                    break;
                }
                Action::Support(_) | Action::FightBack(_) => combat = true,
                _ => {}
            }
        }
        if !(combat | wide) {
            return None;
        }
        let mut cards = [0; 2];
        if wide {
            cards = Seat::ALL.map(|q| self.active_units(s, q));
        }
        cards[s.combat.attacker.index()] |= s.combat.attackers;
        if let AttackTarget::Unit(d) = s.combat.target {
            cards[s.combat.attacker.other().index()] |= bit(d);
        }
        Some(cards)
    }

    /// Value of a card in hand for playing it from hand (higher: keep in hand).
    fn hand_value(&self, s: &State, me: Seat, id: Lid) -> f32 {
        let c = self.hot(id);
        let hb = s.pl(me).homebase_count() as f32;
        match c.ctype {
            // A BASE only works from the homebase.
            CardType::Base => -5.0,
            CardType::Unit | CardType::Item => {
                // Cheap now, worth keeping; far out of reach, a good homebase card.
                let reach = c.cost as f32 - (hb + 1.0);
                if reach > 2.0 {
                    -1.0 - reach
                } else {
                    1.0 + f32::from(c.str + c.def) * 0.2
                }
            }
            CardType::Event => 0.5,
        }
    }

    /// `v` is a view of `s`'s combat cards (`combat_cards`: the cards the combat arms below
    /// read, not the whole field), present whenever `a` is a combat action. An arm that reads
    /// another card must widen `combat_cards` with it (the test
    /// `the_combat_cards_score_as_the_whole_field` compares the two views).
    ///
    /// [`Self::heuristic_choice`] asks what is pending once a decision and calls
    /// [`Self::step_score`] or [`Self::choice_score`] itself; the tests call this.
    #[cfg(test)]
    fn score(&self, s: &State, v: Option<&FieldView>, me: Seat, a: Action, w: &Weights) -> f32 {
        if let Pending::None = s.pending {
            self.step_score(s, v, me, a, w)
        } else {
            self.choice_score(s, v, me, a, w)
        }
    }

    /// [`Self::score`] inside an effect's choice (`s.pending` is not `None`): the choice's own
    /// actions, and any other as [`Self::step_score`] scores it.
    #[inline(always)]
    fn choice_score(
        &self,
        s: &State,
        v: Option<&FieldView>,
        me: Seat,
        a: Action,
        w: &Weights,
    ) -> f32 {
        let p = s.pl(me);
        match (s.pending, a) {
            (Pending::Target, Action::Choose { seat, inst }) => {
                let e = self.pending_effect(s);
                if let Effect::Redirect(_) = e {
                    return self.redirect_gain(s, me, inst, w);
                }
                let harmful = matches!(
                    e,
                    Effect::Stun(_)
                        | Effect::Ko(_)
                        | Effect::Bounce(_)
                        | Effect::Action(_)
                        | Effect::Cant(_, Prohibition::Attack | Prohibition::BeCured)
                ) || matches!(e, Effect::Buff(_, x, y, _) if x.fixed().unwrap_or(1) + y.fixed().unwrap_or(1) < 0);
                let c = self.hot(s.pl(seat).card[inst as usize]);
                let (st, df) = self.stats(s, seat, inst);
                let value = f32::from(c.cost) * 2.0 + f32::from(st + df) * 0.3;
                let mine = seat == me;
                match (harmful, mine) {
                    (true, false) | (false, true) => value,
                    _ => -value,
                }
            }
            (Pending::Pick { .. }, Action::Choose { seat, inst }) => {
                self.pick_value(s, me, seat, s.pl(seat).card[inst as usize], inst)
            }
            (Pending::Pick { .. }, Action::Pick { seat, card, .. }) => {
                self.pick_value(s, me, seat, card, u8::MAX)
            }
            // Stopping a choice: worth a little less than a good card.
            (Pending::Pick { .. }, Action::Pass) => 0.5,
            // The looked-at cards of `dig` go to the bottom: the least playable first.
            (Pending::Bottom { .. }, Action::PlanBottom(id)) => -self.hand_value(s, me, id),
            // Discarding: the card worth least in hand.
            (Pending::Discard { .. }, Action::Pick { card, .. }) => -self.hand_value(s, me, card),
            (Pending::Plan { .. }, Action::PlanTop(id)) => {
                // Playable soon: keep on top.
                if self.hot(id).cost as u32 <= p.homebase_count() + 2 {
                    1.0
                } else {
                    -1.0
                }
            }
            (Pending::Plan { .. }, Action::PlanBottom(id)) => {
                if self.hot(id).cost as u32 <= p.homebase_count() + 2 {
                    -1.0
                } else {
                    1.0
                }
            }
            (Pending::Rebuild, Action::Rebuild { card, face_up }) => {
                // Destroy a used (face-up non-BASE) card first, else the cheapest.
                let c = self.hot(card);
                if face_up && c.ctype != CardType::Base {
                    10.0
                } else if c.ctype == CardType::Base {
                    -10.0
                } else {
                    -f32::from(c.cost)
                }
            }
            (Pending::DispatchPut, Action::DispatchPut(id)) => -self.hand_value(s, me, id),
            (Pending::DispatchPut, Action::Pass) => -0.5,
            (Pending::Mode { n }, Action::Mode(k)) => {
                // An option runs from its jump's target to the next option's (or the end).
                let c = s.queue[0];
                let ops = self.ops(s, &c);
                let start = |k: u8| match ops.get((c.pc + 1 + k) as usize) {
                    Some(Op::Jump(t)) => *t,
                    _ => ops.len() as u8,
                };
                // Each option ends with a jump past the last one: where option 0's jump goes.
                let after = match ops.get(start(1) as usize - 1) {
                    Some(Op::Jump(t)) => *t,
                    _ => ops.len() as u8,
                };
                let end = if k + 1 < n { start(k + 1) } else { after };
                self.steps_value(s, me, start(k), end, w)
            }
            (Pending::May { skip }, Action::Yes) => {
                if self.front_is_instead(s) {
                    return self.replacement_value(s, skip, w);
                }
                self.steps_value(s, me, s.queue[0].pc + 1, skip, w)
            }
            (Pending::May { .. }, Action::Pass) => 0.0,
            // Decision T-EFF-19: the organizations of most of our units, on the field first.
            (Pending::Orgs { .. }, Action::Mode(k)) => {
                let p = s.pl(me);
                let bit = 1 << k;
                let count =
                    |m: u64| Bits(m).filter(|&i| self.orgs(s, me, i) & bit != 0).count() as f32;
                count(self.active_units(s, me)) + 0.3 * count(p.hand & p.kinds.unit)
            }
            _ => self.step_score(s, v, me, a, w),
        }
    }

    /// [`Self::score`] of a step's actions, whatever is pending.
    #[inline(always)]
    fn step_score(
        &self,
        s: &State,
        v: Option<&FieldView>,
        me: Seat,
        a: Action,
        w: &Weights,
    ) -> f32 {
        let p = s.pl(me);
        let view = || v.expect("combat actions are scored with a view of the combat cards");
        let opp = me.other();
        match a {
            Action::Pass => match s.step {
                Step::Mulligan => 0.0,
                Step::Homebase => {
                    if p.homebase_count() >= w.homebase_target {
                        1.0
                    } else {
                        -10.0
                    }
                }
                Step::Cure => -1.0,
                _ => 0.0,
            },
            Action::Mulligan(id) => {
                let c = self.hot(id);
                if c.ctype != CardType::Base
                    && c.ctype != CardType::Event
                    && c.cost >= w.mulligan_cost
                {
                    1.0
                } else {
                    -1.0
                }
            }
            Action::Homebase(id) => -self.hand_value(s, me, id),
            Action::Deploy(id) | Action::Dispatch(id) => {
                let c = self.hot(id);
                2.0 + f32::from(c.cost)
                    + f32::from(c.str + c.def) * 0.1
                    + self.enter_draw_cost(s, me, id)
            }
            Action::Base(id) => 5.0 + self.enter_draw_cost(s, me, id),
            Action::Event {
                card,
                from_homebase,
            } => {
                let c = self.card(card);
                self.ability_value(s, me, c.ability(Trigger::Event).map(|x| x.1), w)
                    - f32::from(c.cost) * 0.3
                    + if from_homebase { 0.2 } else { 0.0 }
            }
            Action::Arts { card, .. } => {
                let c = self.card(card);
                self.ability_value(s, me, c.ability(Trigger::Arts).map(|x| x.1), w)
                    - f32::from(c.arts_cost.unwrap_or(0)) * 0.3
                    - 0.5
            }
            Action::Craft { inst, ability } => {
                let c = self.card(p.card[inst as usize]);
                let ab = &c.abilities[ability as usize];
                let mut v = self.ability_value(s, me, Some(ab), w) - f32::from(ab.cost.ep) * 0.3;
                if s.step == Step::Window {
                    v += self.redirect_self_gain(s, me, inst, ab, w);
                }
                if ab.cost.self_action && s.step != Step::Window {
                    // Actioning a UNIT costs its attack.
                    v -= f32::from(self.stats(s, me, inst).0) * 0.3;
                }
                v
            }
            Action::Attack(i) => self.plan_score(s, view(), me, bit(i), w),
            // Compared with naming a target now (`TargetUnit`, `TargetPlayer`): joining is worth
            // what the group can then reach, a little less.
            Action::Join(i) => self.plan_score(s, view(), me, s.combat.attackers | bit(i), w) - 0.1,
            Action::TargetUnit(d) => {
                self.attack_score(s, view(), me, s.combat.attackers, Some(d), w)
            }
            Action::TargetPlayer => self.attack_score(s, view(), me, s.combat.attackers, None, w),
            Action::Support(_) => {
                let AttackTarget::Unit(d) = s.combat.target else {
                    return -1.0;
                };
                let c = self.clash(
                    view(),
                    opp,
                    s.combat.attackers,
                    d,
                    s.combat.attackers.trailing_zeros() as u8,
                    s.combat.sclm,
                );
                if c.overkill >= w.support_overkill {
                    f32::from(c.overkill)
                } else {
                    -1.0
                }
            }
            Action::FightBack(i) => {
                let AttackTarget::Unit(d) = s.combat.target else {
                    return 0.0;
                };
                let c = self.clash(view(), opp, s.combat.attackers, d, i, s.combat.sclm);
                if c.stuns_attacker {
                    f32::from(self.hot(s.pl(opp).card[i as usize]).cost) + 1.0
                } else {
                    0.0
                }
            }
            Action::Cure(i) => f32::from(self.hot(p.card[i as usize]).cost) + 1.0,
            _ => 0.0,
        }
    }

    /// The value of choosing `seat`'s card `id` (instance `inst`, or `u8::MAX` for a card named
    /// by id) for the effect pending: gains for `me`'s cards it helps and the opponent's it
    /// harms, a card's worth otherwise.
    fn pick_value(&self, s: &State, me: Seat, seat: Seat, id: Lid, inst: u8) -> f32 {
        let e = self.pending_effect(s);
        let c = self.hot(id);
        let worth = f32::from(c.cost) + 1.0;
        let mine = seat == me;
        let harmful = match e {
            Effect::Stun(_) | Effect::Ko(_) | Effect::Bounce(_) | Effect::Action(_) => true,
            Effect::Move(_, to, _) => {
                // Into the hand or onto the field helps its owner; away from them does not.
                !matches!(to, super::cards::Zone::Hand | super::cards::Zone::Field)
            }
            Effect::Buff(_, x, y, _) => x.fixed().unwrap_or(1) + y.fixed().unwrap_or(1) < 0,
            _ => false,
        };
        let v = if inst != u8::MAX && s.pl(seat).field & (1 << inst) != 0 {
            let (st, df) = self.stats(s, seat, inst);
            worth * 2.0 + f32::from(st + df) * 0.3
        } else if let Effect::Move(_, super::cards::Zone::Deck | super::cards::Zone::Homebase, _) =
            e
        {
            // Own cards sent away from the hand: the least playable first.
            -self.hand_value(s, me, id)
        } else {
            worth
        };
        if harmful == mine
            && !matches!(
                e,
                Effect::Move(
                    _,
                    super::cards::Zone::Deck | super::cards::Zone::Homebase,
                    _
                )
            )
        {
            -v
        } else {
            v
        }
    }

    fn pending_effect(&self, s: &State) -> Effect {
        let c = s.queue[0];
        *self.effect_at(s, &c)
    }

    /// A rough value of resolving an ability now.
    fn ability_value(
        &self,
        s: &State,
        me: Seat,
        ab: Option<&super::cards::Ability>,
        w: &Weights,
    ) -> f32 {
        let Some(ab) = ab else { return -1.0 };
        self.effects_value(s, me, ab.effects.iter(), w)
    }

    /// The value of the steps `from..to` of the front ability's program (an option of `choose`,
    /// the part of `may`): its effects, valued as [`Self::ability_value`] values an ability's.
    fn steps_value(&self, s: &State, me: Seat, from: u8, to: u8, w: &Weights) -> f32 {
        let c = s.queue[0];
        let ops = self.ops(s, &c);
        let effects = ops[from as usize..(to as usize).min(ops.len())]
            .iter()
            .filter_map(|o| match o {
                Op::Do(e) => Some(e),
                _ => None,
            });
        self.effects_value(s, me, effects, w)
    }

    /// A rough value of resolving effects now.
    fn effects_value<'e>(
        &self,
        s: &State,
        me: Seat,
        effects: impl Iterator<Item = &'e Effect>,
        w: &Weights,
    ) -> f32 {
        let mut v = 0.0;
        for e in effects {
            v += self.effect_value(s, me, e, w);
        }
        v
    }

    /// The value of one effect of [`Self::effects_value`]. Out of line: most abilities have one
    /// or two effects, and with the arms inlined in the loop every call read ahead of the first
    /// effect what any arm reads (~60 instructions a call).
    #[inline(never)]
    fn effect_value(&self, s: &State, me: Seat, e: &Effect, w: &Weights) -> f32 {
        let opp = me.other();
        let friends = || self.active_units(s, me);
        let in_combat = matches!(s.step, Step::Window);
        // Effects are read in place: an effect is several words, most arms read one field.
        match *e {
            Effect::Draw(n) => self.draw_worth(s, me) * f32::from(n),
            Effect::DrawEnemy(n) => -f32::from(n),
            Effect::DrawCounted(_) => self.draw_worth(s, me),
            Effect::Move(t, to, _) => match (t.side == Side::Enemy, to) {
                (false, super::cards::Zone::Hand | super::cards::Zone::Field) => 1.5,
                (true, super::cards::Zone::Deck | super::cards::Zone::Trail) => 1.0,
                (false, super::cards::Zone::Homebase) => 0.8,
                _ => 0.1,
            },
            // A card from the deck into the hand: a draw, chosen.
            Effect::Search(..) | Effect::Dig(..) => 0.5 + self.draw_worth(s, me),
            Effect::Discard { enemy, n } => {
                if enemy {
                    f32::from(n)
                } else {
                    -0.8 * f32::from(n)
                }
            }
            Effect::Look => 0.3,
            // A link lets more units attack together (T-SCLM-1) or meet a filter.
            Effect::Link(_) | Effect::LinkChosen => 0.3,
            Effect::Shield(_) => 0.5,
            Effect::Ban { t, .. } => {
                if t.side == Side::Enemy {
                    0.5
                } else {
                    -0.5
                }
            }
            // Decision T-EFF-15: keeping an opposing unit from attacking this turn is worth
            // most before the combat phase.
            Effect::Cant(t, what) => match (what, t.side) {
                (Prohibition::Attack, Side::Enemy) if s.step == Step::Deploy => 0.8,
                _ => 0.2,
            },
            // A redirect to a chosen unit is worth the best choice's `redirect_gain` (the
            // choice itself is scored by it); a craft redirecting to its own unit is valued by
            // `redirect_self_gain`, a replacement's `may` as a whole (`replacement_value`).
            Effect::Redirect(t) if t.mode != TargetMode::This => {
                self.best_redirect_gain(s, me, &t, w)
            }
            Effect::Redirect(_) | Effect::Prevent => 0.0,
            Effect::Pick(_) => 0.1,
            Effect::DrawTo(n) => {
                (f32::from(n) - s.pl(me).hand.count_ones() as f32).max(0.0)
                    * self.draw_worth(s, me).min(1.0)
                    - 0.1
            }
            Effect::Gain { cp, n } => {
                // CP is worth something in the deployment step only; EP lapses at the end of
                // the phase.
                if cp && s.step != Step::Deploy {
                    -0.5
                } else {
                    0.6 * f32::from(n)
                }
            }
            Effect::Cure(t) => {
                let m = self.effect_targets(s, me, &t, 0);
                if m[me.index()] != 0 {
                    1.5
                } else {
                    -1.0
                }
            }
            Effect::Plan(_) => 0.3,
            // Both take the deck's top card (into the homebase).
            Effect::Rebuild => 0.2 + (self.draw_worth(s, me) - 1.0).min(0.0),
            Effect::HomebaseTop => self.draw_worth(s, me),
            Effect::Bond { side, delta } => {
                let sign = if side == Side::Enemy { -1.0 } else { 1.0 };
                let room = if side == Side::Own {
                    f32::from((40 - s.pl(me).bond).max(0) as i8).min(f32::from(delta))
                } else {
                    f32::from(delta)
                };
                sign * room * w.bond
            }
            Effect::Stun(t) | Effect::Ko(t) | Effect::Bounce(t) => {
                let m = self.effect_targets(s, me, &t, 0);
                let best = Bits(m[opp.index()])
                    .map(|i| self.hot(s.pl(opp).card[i as usize]).cost)
                    .max()
                    .unwrap_or(0);
                let own_hit = m[me.index()].count_ones() as f32;
                if t.mode == TargetMode::All {
                    let total: f32 = Bits(m[opp.index()])
                        .map(|i| f32::from(self.hot(s.pl(opp).card[i as usize]).cost))
                        .sum();
                    total * (w.board_per_cost + w.bond) - own_hit * 3.0
                } else if best > 0 {
                    f32::from(best) * (w.board_per_cost + w.bond)
                } else {
                    -2.0
                }
            }
            Effect::Action(t) => {
                let m = self.effect_targets(s, me, &t, 0);
                if m[opp.index()] & !s.pl(opp).field_actioned() != 0 && !in_combat {
                    1.0
                } else {
                    -1.0
                }
            }
            Effect::Ready(_) => {
                if friends() & s.pl(me).field_actioned() != 0 && s.step == Step::Propose {
                    1.5
                } else {
                    -1.0
                }
            }
            Effect::Buff(t, a, b, _) => {
                // A counted amount is valued as 1.
                let (a, b) = (a.fixed().unwrap_or(1), b.fixed().unwrap_or(0));
                // Worth it in combat, for our combatant (or against theirs).
                if in_combat && (t.side != Side::Enemy) == (a + b > 0) {
                    f32::from(a + b) * 0.8
                } else if t.mode == TargetMode::All && s.step == Step::Propose && a > 0 {
                    f32::from(a) * friends().count_ones() as f32 * 0.3
                } else {
                    -1.0
                }
            }
            Effect::Grant(..) => {
                if s.step == Step::Propose {
                    0.3
                } else {
                    -0.5
                }
            }
            Effect::Support(_) => {
                if in_combat && s.combat.attacker != me {
                    1.0
                } else {
                    -1.0
                }
            }
        }
    }

    /// A craft that redirects the attack to its own UNIT `inst` (`redirect self`): what that
    /// gains, in the window (0 for any other craft).
    #[cold]
    #[inline(never)]
    fn redirect_self_gain(
        &self,
        s: &State,
        me: Seat,
        inst: u8,
        ab: &super::cards::Ability,
        w: &Weights,
    ) -> f32 {
        if ab
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Redirect(t) if t.mode == TargetMode::This))
        {
            self.redirect_gain(s, me, inst, w)
        } else {
            0.0
        }
    }

    /// The most a redirect to one of `t`'s units gains `me` now ([`Self::redirect_gain`]); -1
    /// when there is none. Off the hot path: only redirect cards ask.
    #[cold]
    #[inline(never)]
    fn best_redirect_gain(
        &self,
        s: &State,
        me: Seat,
        t: &super::cards::Target,
        w: &Weights,
    ) -> f32 {
        let m = self.effect_targets(s, me, t, 0);
        Bits(m[me.index()])
            .map(|i| self.redirect_gain(s, me, i, w))
            .fold(-1.0, f32::max)
    }

    /// Whether the ability resolving is a replacement (`instead …`, decision T-REPL-1).
    #[inline(never)]
    fn front_is_instead(&self, s: &State) -> bool {
        let c = s.queue[0];
        self.card(self.cursor_card(s, &c)).abilities[c.ability as usize].trigger == Trigger::Instead
    }

    /// Saying yes to a replacement of a stun (decision T-REPL-1): the stun damage and the UNIT
    /// kept, less what the replacement costs — an EP's worth for a homebase card actioned, the
    /// card's worth for a card K.O.'d — and, once per turn, the chance kept for a later stun.
    #[cold]
    #[inline(never)]
    fn replacement_value(&self, s: &State, skip: u8, w: &Weights) -> f32 {
        let c = s.queue[0];
        let Some((q, i)) = s.repl.unit.get() else {
            return -1.0;
        };
        let unit = f32::from(self.hot(s.pl(q).card[i as usize]).cost);
        let mut v = unit * (w.bond + w.board_per_cost);
        let ops = self.ops(s, &c);
        for op in &ops[(c.pc + 1) as usize..(skip as usize).min(ops.len())] {
            let Op::Do(e) = op else { continue };
            v -= match e {
                Effect::Prevent => 0.0,
                Effect::Action(t) | Effect::Ready(t) if t.zone.is_some() => 0.6,
                Effect::Ko(t) if t.mode == TargetMode::This => {
                    f32::from(self.hot(self.cursor_card(s, &c)).cost) * w.board_per_cost + 0.5
                }
                // Anything else a replacement does instead: a little.
                _ => 0.5,
            };
        }
        let ab = &self.card(self.cursor_card(s, &c)).abilities[c.ability as usize];
        if ab.once {
            v -= 1.0;
        }
        v
    }

    /// What `me`, defending, gains when its UNIT `to` becomes the defending unit of the current
    /// attack instead of the one attacked now (decision T-REPL-2): the loss the combat would
    /// cause now less the loss it would cause against `to` (stun damage and the UNIT, overkill;
    /// the attacker's stun a gain). A rough clash on current STR/DEF ([Martial Arts] left out):
    /// the combat's own prediction (`clash` on a field view) stays with the hot paths that
    /// inline it.
    #[cold]
    #[inline(never)]
    fn redirect_gain(&self, s: &State, me: Seat, to: u8, w: &Weights) -> f32 {
        let AttackTarget::Unit(d) = s.combat.target else {
            return -1.0;
        };
        if s.combat.attacker == me || to == d {
            return -1.0;
        }
        let opp = me.other();
        let attackers = s.combat.attackers;
        let str_total: i16 = Bits(attackers).map(|a| self.stats(s, opp, a).0).sum();
        let loss = |def: u8| {
            let (dstr, ddef) = self.stats(s, me, def);
            let dcost = f32::from(self.hot(s.pl(me).card[def as usize]).cost);
            let mut l = 0.0;
            if str_total >= ddef {
                l += dcost * (w.bond + w.board_per_cost);
            }
            if !s.combat.sclm
                && str_total > ddef
                && !s.pl(me).has(def, super::state::flag::SUPPORTED)
            {
                l += f32::from(str_total - ddef) * w.bond;
            }
            // The defender fights back the attacker it stuns that is worth most.
            let back = Bits(attackers)
                .filter(|&a| dstr >= self.stats(s, opp, a).1)
                .map(|a| f32::from(self.hot(s.pl(opp).card[a as usize]).cost))
                .fold(0.0, f32::max);
            l - back * (w.bond + w.board_per_cost)
        };
        // A little less than nothing when nothing changes: a card is spent.
        loss(d) - loss(to) - 0.5
    }

    /// The worth of taking one card from the deck now (a draw, or a card into the homebase):
    /// the deck is also a clock — a player who must draw from an empty deck loses (T-WIN-3), and
    /// both draw 2 a turn — so a card taken early when the deck is no longer than the
    /// opponent's brings that loss a step nearer; a full hand needs cards little.
    fn draw_worth(&self, s: &State, me: Seat) -> f32 {
        let p = s.pl(me);
        let (deck, theirs) = (i32::from(p.deck_len), i32::from(s.pl(me.other()).deck_len));
        if deck <= theirs + 2 && deck <= 14 {
            -2.0
        } else if deck <= theirs && deck <= 26 {
            0.0
        } else if p.hand.count_ones() >= 6 {
            0.3
        } else {
            1.0
        }
    }

    /// What the draws of card `id`'s `enter` ability cost when the deck runs short
    /// ([`Self::draw_worth`] below 0; nothing otherwise).
    fn enter_draw_cost(&self, s: &State, me: Seat, id: Lid) -> f32 {
        // Asked first: while the deck is not short, no card's draws cost anything.
        let worth = self.draw_worth(s, me);
        if worth >= 0.0 {
            return 0.0;
        }
        let Some((_, ab)) = self.card(id).ability(Trigger::Enter) else {
            return 0.0;
        };
        let n: u8 = ab
            .effects
            .iter()
            .map(|e| match *e {
                Effect::Draw(n) => n,
                Effect::HomebaseTop | Effect::Rebuild => 1,
                _ => 0,
            })
            .sum();
        if n == 0 {
            return 0.0;
        }
        2.0 * f32::from(n) * worth
    }

    /// The best score `attackers` (a group being built, its members added in increasing
    /// instance order) could reach: naming a target now, or first joined by more of `me`'s
    /// ready UNITs that share an organization with all of them (T-SCLM-1) — the strongest
    /// first — until their total STR reaches the DEF of a target none of them stuns now. So a
    /// wall (high DEF, [Hate] drawing every attack to it, T-COMBAT-6) is broken by a group
    /// rather than left standing while its owner's bond is out of reach.
    fn plan_score(&self, s: &State, v: &FieldView, me: Seat, attackers: u64, w: &Weights) -> f32 {
        // The targets are read once, for naming one now and for planning a larger group.
        let (targets, player) = self.group_targets(v.marks(), me, attackers);
        let now = self.best_attack_score(s, v, me, attackers, (targets, player), w);
        let opp = me.other();
        let str_now: i16 = Bits(attackers).map(|a| v.stats(me, a).0).sum();
        // Only a target the group does not stun yet is planned for: with none, the joiners are
        // not asked.
        let short = Bits(targets)
            .filter(|&d| str_now < v.stats(opp, d).1)
            .fold(0u64, |m, d| m | bit(d));
        if short == 0 {
            return now;
        }
        let orgs = Bits(attackers).fold(!0, |o, a| o & self.orgs(s, me, a));
        let cands = self.joiners(s, me, attackers, orgs);
        if cands == 0 {
            return now;
        }
        let mut best = now;
        for d in Bits(short) {
            let ddef = v.stats(opp, d).1;
            let (mut group, mut go, mut st, mut left) = (attackers, orgs, str_now, cands);
            while st < ddef {
                // The strongest candidate that keeps an organization shared and `d` a target.
                let mut pick: Option<(u8, i16)> = None;
                for c in Bits(left) {
                    let cs = v.stats(me, c).0;
                    if cs > 0
                        && pick.is_none_or(|(_, ps)| cs > ps)
                        && self.orgs(s, me, c) & go != 0
                        && self.attack_targets(v.marks(), me, group | bit(c)) & bit(d) != 0
                    {
                        pick = Some((c, cs));
                    }
                }
                let Some((c, cs)) = pick else { break };
                group |= bit(c);
                go &= self.orgs(s, me, c);
                st += cs;
                left &= !bit(c);
            }
            if group != attackers && st >= ddef {
                best = best.max(self.attack_score(s, v, me, group, Some(d), w));
            }
        }
        best
    }

    /// The best score this group could get by naming a target now: one of `targets`, or the
    /// player when `player` (its [`TrailsGame::group_targets`]). The most of
    /// [`Self::attack_score`] over them, with what does not depend on the target read once for
    /// all the targets: the members' STR and their [Martial Arts] (T-ICON-MA: +1/+1 against a
    /// defender without it; the defender's +1/+1 for each member without it), as
    /// [`TrailsGame::clash`] sums them, one target at a time.
    fn best_attack_score(
        &self,
        s: &State,
        v: &FieldView,
        me: Seat,
        attackers: u64,
        (targets, player): (u64, bool),
        w: &Weights,
    ) -> f32 {
        let opp = me.other();
        let (mut str_base, mut members, mut ma) = (0i16, 0i16, 0i16);
        for a in Bits(attackers) {
            str_base += v.stats(me, a).0;
            members += 1;
            ma += i16::from(v.icons(me, a).has(Icons::MARTIAL_ARTS));
        }
        let sclm = members >= 2;
        let supported = v.marks().supported[opp.index()];
        let mut best = f32::NEG_INFINITY;
        for d in Bits(targets) {
            let d_ma = v.icons(opp, d).has(Icons::MARTIAL_ARTS);
            let (str_total, d_bonus) = if d_ma {
                (str_base, members - ma)
            } else {
                (str_base + ma, 0)
            };
            let (dstr, ddef) = v.stats(opp, d);
            let (dstr, ddef) = (dstr + d_bonus, ddef + d_bonus);
            let overkill = if !sclm && supported & bit(d) == 0 && str_total > ddef {
                str_total - ddef
            } else {
                0
            };
            let dcost = f32::from(self.hot(s.pl(opp).card[d as usize]).cost);
            // The defender picks the fight-back target that hurts us most.
            let mut worst = f32::INFINITY;
            for fb in Bits(attackers) {
                let fb_ma = !d_ma && v.icons(me, fb).has(Icons::MARTIAL_ARTS);
                let fb_def = v.stats(me, fb).1 + i16::from(fb_ma);
                let fcost = f32::from(self.hot(s.pl(me).card[fb as usize]).cost);
                let mut x = f32::from(overkill) * w.bond;
                if str_total >= ddef {
                    x += dcost * (w.bond + w.board_per_cost);
                }
                if dstr >= fb_def {
                    x -= fcost * (w.bond + w.board_per_cost);
                }
                worst = worst.min(x);
            }
            // Every extra attacker is actioned: a small cost per member.
            best = best.max(worst - w.attack_threshold * members as f32);
        }
        if player {
            best.max(self.attack_score(s, v, me, attackers, None, w))
        } else {
            best
        }
    }

    /// The value of `attackers` attacking `target` (None: the player), from `me`'s side.
    fn attack_score(
        &self,
        s: &State,
        v: &FieldView,
        me: Seat,
        attackers: u64,
        target: Option<u8>,
        w: &Weights,
    ) -> f32 {
        let opp = me.other();
        // The members counted in the walk: `count_ones` is a dozen instructions on the baseline
        // x86-64 target.
        let (str_total, members) =
            Bits(attackers).fold((0i16, 0u32), |(t, n), a| (t + v.stats(me, a).0, n + 1));
        let score = match target {
            None => f32::from(str_total) * w.bond,
            Some(d) => {
                // The defender picks the fight-back target that hurts us most.
                let mut worst = f32::INFINITY;
                let dcost = f32::from(self.hot(s.pl(opp).card[d as usize]).cost);
                for fb in Bits(attackers) {
                    let c = self.clash(v, me, attackers, d, fb, members >= 2);
                    let fcost = f32::from(self.hot(s.pl(me).card[fb as usize]).cost);
                    let mut v = f32::from(c.overkill) * w.bond;
                    if c.stuns_defender {
                        v += dcost * (w.bond + w.board_per_cost);
                    }
                    if c.stuns_attacker {
                        v -= fcost * (w.bond + w.board_per_cost);
                    }
                    worst = worst.min(v);
                }
                worst
            }
        };
        // Every extra attacker is actioned: a small cost per member.
        score - w.attack_threshold * members as f32
    }

    /// A static estimate in [0, 1] that `seat` wins, from public information and its own cards.
    pub fn heuristic_eval(&self, s: &State, seat: Seat, w: &Weights) -> f64 {
        if let Some(o) = s.winner {
            return o.score(seat);
        }
        let side = |q: Seat| {
            let p = s.pl(q);
            let board: i16 = Bits(self.active_units(s, q))
                .map(|i| {
                    let (a, b) = self.stats(s, q, i);
                    a + b
                })
                .sum();
            (
                f32::from(p.bond),
                f32::from(board),
                (p.hand.count_ones() + p.homebase_count()) as f32,
            )
        };
        let (b1, f1, c1) = side(seat);
        let (b2, f2, c2) = side(seat.other());
        let x = w.eval_bond * (b1 - b2) + w.eval_board * (f1 - f2) + w.eval_cards * (c1 - c2);
        1.0 / (1.0 + (-f64::from(x)).exp())
    }
}

/// The action of `legal` (non-empty) that `score` rates highest, a little noise added to each
/// score (one draw of `rng` an action, in order) so that equal choices do not always go to the
/// first.
#[inline(always)]
fn best_scored(
    legal: &ActionList<Action>,
    rng: &mut GameRng,
    score: impl Fn(Action) -> f32,
) -> Action {
    let mut best = legal[0];
    let mut best_score = f32::NEG_INFINITY;
    for &a in legal.iter() {
        let sc = score(a) + rng.gen::<f32>() * 1e-3;
        if sc > best_score {
            best_score = sc;
            best = a;
        }
    }
    best
}

impl Policy for TrailsGame {
    fn heuristic_action(
        &self,
        state: &State,
        legal: &ActionList<Action>,
        rng: &mut GameRng,
    ) -> Action {
        self.heuristic_choice(state, legal, &self.weights, rng)
    }

    fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        self.heuristic_eval(state, seat, &self.weights)
    }
}

#[cfg(test)]
mod tests {
    use super::super::deck::Deck;
    use super::*;
    use crate::agents::{Agent, HeuristicAgent, RandomAgent};
    use crate::core::Game;

    /// The heuristic's combat predictions read a view of [`TrailsGame::combat_cards`] only: every
    /// combat decision's every action scores the same, bit for bit, with it as with the whole
    /// field's view ([`TrailsGame::field_view`]), in games of every pair of bundled decks played
    /// by the heuristic (and by the random agent, for positions the heuristic avoids).
    #[test]
    fn the_combat_cards_score_as_the_whole_field() {
        let db = super::super::bundled_cards();
        let decks: Vec<Deck> = crate::core::testing::folder_decks::<TrailsGame>(
            &db,
            &crate::games::trails::TEST_DECKS,
        );
        let (mut checked, mut narrow, mut groups, mut scanned) = (0u32, 0u32, 0u32, 0u32);
        let mut legal = ActionList::new();
        for (k, a) in decks.iter().enumerate() {
            for b in &decks[k..] {
                let g = TrailsGame::new(db.clone(), a.cards.clone(), b.cards.clone());
                let w = &g.weights;
                for seed in 0..6u64 {
                    let mut s = g.new_game(seed, Seat::ALL[(seed % 2) as usize]);
                    let mut h = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 7)];
                    let mut r = RandomAgent::new(seed);
                    while let Some(q) = g.to_move(&s) {
                        g.legal(&s, &mut legal);
                        // The steps and choices `combat_cards` skips offer no combat action.
                        assert_eq!(
                            g.combat_cards(&s, &legal),
                            combat_cards_by_scan(&g, &s, &legal),
                            "{:?} {:?} seed {seed}",
                            s.step,
                            s.pending
                        );
                        scanned += 1;
                        if let Some(cards) = g.combat_cards(&s, &legal) {
                            let full = g.field_view(&s);
                            let mut slot = None;
                            let v = g.view_of_in(&s, cards, &mut slot);
                            narrow +=
                                u32::from(cards[0] != s.p[0].field || cards[1] != s.p[1].field);
                            for &act in legal.iter() {
                                let (x, y) = (
                                    g.score(&s, Some(&full), q, act, w),
                                    g.score(&s, Some(v), q, act, w),
                                );
                                assert_eq!(x.to_bits(), y.to_bits(), "{act:?} seed {seed}");
                                checked += 1;
                                // A group's best target, from `attack_score` target by target.
                                let group = match act {
                                    Action::Attack(i) | Action::Join(i) => {
                                        s.combat.attackers | bit(i)
                                    }
                                    Action::TargetUnit(_) => s.combat.attackers,
                                    _ => continue,
                                };
                                let targets = g.group_targets(full.marks(), q, group);
                                let mut each = Bits(targets.0)
                                    .map(|d| g.attack_score(&s, &full, q, group, Some(d), w))
                                    .fold(f32::NEG_INFINITY, f32::max);
                                if targets.1 {
                                    each = each.max(g.attack_score(&s, &full, q, group, None, w));
                                }
                                let best = g.best_attack_score(&s, &full, q, group, targets, w);
                                assert_eq!(best.to_bits(), each.to_bits(), "{act:?} seed {seed}");
                                groups += 1;
                            }
                        }
                        let act = if seed % 3 == 2 {
                            r.choose(&g, &s, q)
                        } else {
                            h[q.index()].choose(&g, &s, q)
                        };
                        g.apply(&mut s, act);
                    }
                }
            }
        }
        assert!(
            checked > 50_000 && narrow > 5_000 && groups > 20_000 && scanned > 50_000,
            "{checked} {narrow} {groups} {scanned}"
        );
    }

    /// [`TrailsGame::combat_cards`] as it was before it skipped the steps without combat
    /// actions: every action of `legal` looked at.
    fn combat_cards_by_scan(
        g: &TrailsGame,
        s: &State,
        legal: &ActionList<Action>,
    ) -> Option<[u64; 2]> {
        let wide = legal.iter().any(|a| {
            matches!(
                a,
                Action::Attack(_) | Action::Join(_) | Action::TargetUnit(_) | Action::TargetPlayer
            )
        });
        let combat = legal
            .iter()
            .any(|a| matches!(a, Action::Support(_) | Action::FightBack(_)));
        if !(combat | wide) {
            return None;
        }
        let mut cards = [0; 2];
        if wide {
            cards = Seat::ALL.map(|q| g.active_units(s, q));
        }
        cards[s.combat.attacker.index()] |= s.combat.attackers;
        if let AttackTarget::Unit(d) = s.combat.target {
            cards[s.combat.attacker.other().index()] |= bit(d);
        }
        Some(cards)
    }
}
