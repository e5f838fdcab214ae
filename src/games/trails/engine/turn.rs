//! What an action does in its step, and the steps and phases of a turn (T-TURN): the mulligan
//! (T-SETUP), the preparation phase (T-PREP), "always" actions (T-RES), the combat phase's steps
//! (T-COMBAT-1) and the cure phase (T-CURE).

use super::super::action::Action;
use super::super::cards::{Icons, Phase, Trigger};
use super::super::state::{
    bit, flag, AttackTarget, Bits, Combat, Cursor, Pending, PlayerState, State, Step, That,
    MAX_CARDS,
};
use super::events::Ev;
use super::TrailsGame;
use crate::core::{Outcome, Seat};

/// Decision T-CURE-4: the STR/DEF changes and icons until end of turn end. Only UNITs on the
/// field have any (effects change active UNITs only, and a card leaving the field loses them:
/// `reset_instance`), so the three arrays are cleared whole: a few wide stores, where the
/// clear form ([`end_turn_changes_clear`], kept for the test) stores three bytes for each card
/// on the field and in the homebase.
#[inline]
fn end_turn_changes(p: &mut PlayerState) {
    p.str_mod = [0; MAX_CARDS];
    p.def_mod = [0; MAX_CARDS];
    p.icons_eot = [Icons::NONE; MAX_CARDS];
}

/// [`end_turn_changes`], card by card over the field and the homebase.
#[cfg(test)]
fn end_turn_changes_clear(p: &mut PlayerState) {
    for i in Bits(p.field | p.homebase) {
        p.str_mod[i as usize] = 0;
        p.def_mod[i as usize] = 0;
        p.icons_eot[i as usize] = Icons::NONE;
    }
}

impl TrailsGame {
    /// Plays `a` in the current step (no choice is pending). Returns `false` after the quiet
    /// actions, after which nothing runs without a decision: a mulligan card, an attack begun, a
    /// UNIT joining the group, a support, the first pass of step I (T-COMBAT-1) or of the
    /// window. They change the cards, the combat's record and who acts, queue nothing, end no
    /// game and leave a step that waits for a decision ([`Self::settle`] would return at once).
    pub(super) fn play_step(&self, s: &mut State, me: Seat, a: Action) -> bool {
        match (s.step, a) {
            (Step::Mulligan, Action::Mulligan(id)) => {
                let p = s.pl_mut(me);
                let i = p.find(p.hand, id).expect("mulligan card in hand");
                p.known[me.other().index()] &= !p.hand;
                p.hand &= !bit(i);
                p.push_bottom(i);
                s.mulligan_count += 1;
                return false;
            }
            (Step::Mulligan, Action::Pass) => {
                // T-SETUP-3: draw as many as were put on the bottom.
                for _ in 0..s.mulligan_count {
                    self.draw(s, me);
                }
                s.mulligan_count = 0;
                if me == s.initiative {
                    s.actor = me.other();
                } else {
                    s.actor = s.initiative;
                    self.start_prep(s);
                }
            }
            (Step::Homebase, Action::Homebase(id)) => {
                let p = s.pl(me);
                let i = p.find(p.hand, id).expect("homebase card in hand");
                // T-PREP-2: face down and ready.
                self.hand_to_homebase(s, me, i, false);
                self.start_deploy(s);
            }
            (Step::Homebase, Action::Pass) => self.start_deploy(s),
            (Step::Deploy, Action::Deploy(id)) => {
                let i = self.hand_copy(s, me, id);
                let cost = self.play_cost(s, me, i);
                s.pl_mut(me).cp -= cost;
                self.note_played(s, id);
                self.enter_field(s, me, i);
                self.happen(s, Ev::card(Trigger::Played, me, i));
            }
            (Step::Deploy, Action::Dispatch(id)) => {
                let p = s.pl(me);
                let m = p.homebase & !p.face_up();
                let i = p.find(m, id).expect("dispatch card face down in homebase");
                let cost = self.play_cost(s, me, i);
                let p = s.pl_mut(me);
                p.cp -= cost;
                self.note_played(s, id);
                self.leaving_homebase(s, me, i);
                // Decision T-EFF-16: its `enter` and `played` abilities read `dispatched`.
                s.dispatching = That::of(me, i);
                self.enter_field(s, me, i);
                self.happen(s, Ev::card(Trigger::Played, me, i));
                s.dispatching = That::NONE;
                s.pending = Pending::DispatchPut;
            }
            (Step::Deploy, Action::Pass) => {
                // T-PREP-3: unspent CP disappears. The initiative player's preparation is
                // followed by the other player's; then the combat phase (T-PREP, T-COMBAT-1).
                s.pl_mut(me).cp = 0;
                self.phase_event(s, Trigger::End, Phase::Deployment, me);
                self.phase_event(s, Trigger::End, Phase::Preparation, me);
                if me == s.initiative {
                    s.actor = me.other();
                    self.start_prep(s);
                } else {
                    // The preparation phase ends: its EP is gone (T-RES-1).
                    Self::end_phase_ep(s);
                    s.actor = s.initiative;
                    s.step = Step::Propose;
                    s.combat = Combat::default();
                    self.phase_event(s, Trigger::Start, Phase::CombatPhase, s.initiative);
                }
            }
            (Step::Propose, Action::Pass) => {
                if s.combat.passes.pass() {
                    // T-COMBAT-1: two consecutive passes end the combat phase.
                    self.start_cure(s);
                } else {
                    s.actor = me.other();
                    return false;
                }
            }
            (Step::Propose, Action::Attack(i)) => {
                s.combat.attackers = bit(i);
                s.combat.group_orgs = self.orgs(s, me, i);
                s.combat.attacker = me;
                s.step = Step::Group;
                return false;
            }
            (Step::Group, Action::Join(i)) => {
                s.combat.attackers |= bit(i);
                s.combat.group_orgs &= self.orgs(s, me, i);
                return false;
            }
            (Step::Group, Action::TargetUnit(d)) => self.declare(s, me, AttackTarget::Unit(d)),
            (Step::Group, Action::TargetPlayer) => self.declare(s, me, AttackTarget::Player),
            (Step::Window, Action::Pass) => {
                if s.combat.window_passes.pass() {
                    self.end_window(s);
                } else {
                    s.actor = me.other();
                    return false;
                }
            }
            (Step::Window, Action::Support(i)) => {
                s.combat.window_passes.act();
                s.always_used[me.index()] += 1;
                let AttackTarget::Unit(d) = s.combat.target else {
                    unreachable!("support needs a defending UNIT")
                };
                let p = s.pl_mut(me);
                p.set(i, flag::ACTIONED);
                p.set(d, flag::SUPPORTED);
                return false;
            }
            (Step::FightBack, Action::FightBack(i)) => {
                s.combat.fight_back = i;
                self.resolve_combat(s);
            }
            (Step::Cure, Action::Cure(i)) => {
                // T-CURE-2: turn it face up, actioned (T-CURE-3 readies it right after).
                let p = s.pl_mut(me);
                p.clear(i, flag::STUNNED);
                p.set(i, flag::ACTIONED);
                self.refresh_static(s, me, i);
                // Decision T-CURE-6: a second cure, the same player acting again.
                if self.has_extra_cure && self.offer_second_cure(s, me, i) {
                    return true;
                }
                self.next_cure(s);
            }
            (Step::Cure, Action::Pass) => self.next_cure(s),
            (
                Step::Homebase | Step::Deploy | Step::Propose | Step::Window,
                Action::Event { .. } | Action::Arts { .. } | Action::Base(_) | Action::Craft { .. },
            ) => {
                match s.step {
                    Step::Window => s.combat.window_passes.act(),
                    // Decision T-RES-11: an "always" action at the start of step I is something
                    // happening, as an attack is: the passes before it no longer count, so the
                    // other player gets a step I to answer before the phase can end.
                    Step::Propose => s.combat.passes.act(),
                    _ => {}
                }
                s.always_used[me.index()] += 1;
                self.play_always(s, me, a);
            }
            (step, a) => panic!("illegal action {a:?} in step {step:?}"),
        }
        true
    }

    /// T-RES-2 to T-RES-5 and crafts.
    fn play_always(&self, s: &mut State, me: Seat, a: Action) {
        match a {
            Action::Event {
                card,
                from_homebase,
            }
            | Action::Arts {
                card,
                from_homebase,
            } => {
                let c = self.card(card);
                let (trigger, cost) = if matches!(a, Action::Event { .. }) {
                    (Trigger::Event, c.cost)
                } else {
                    (Trigger::Arts, c.arts_cost.expect("arts cost"))
                };
                let p = s.pl(me);
                let i = if from_homebase {
                    p.find(p.homebase & !p.face_up(), card)
                        .expect("played card face down in the homebase")
                } else {
                    self.hand_copy(s, me, card)
                };
                self.pay_ep(s, me, cost);
                if from_homebase {
                    // T-RES-5: it stays in the homebase in its current state, now face up.
                    s.pl_mut(me).set(i, flag::FACE_UP);
                    self.reveal(s, me, i);
                } else {
                    self.to_trail(s, me, i);
                }
                let (k, _) = c.ability(trigger).expect("ability of the played card");
                Self::push_cursor(s, Cursor::new(me, i, k as u8, That::NONE));
                self.happen(
                    s,
                    Ev {
                        arts: trigger == Trigger::Arts,
                        ..Ev::card(Trigger::Played, me, i)
                    },
                );
            }
            Action::Base(card) => {
                let p = s.pl(me);
                let i = p
                    .find(p.homebase & !p.face_up(), card)
                    .expect("face-down BASE");
                s.pl_mut(me).set(i, flag::FACE_UP);
                self.reveal(s, me, i);
                self.refresh_static(s, me, i);
                self.queue_trigger(s, me, i, Trigger::Enter);
                self.happen(s, Ev::card(Trigger::Played, me, i));
            }
            Action::Craft { inst, ability } => {
                let ab = &self.card(self.cid(s, me, inst)).abilities[ability as usize];
                let cost = ab.cost;
                if cost.self_action {
                    s.pl_mut(me).set(inst, flag::ACTIONED);
                }
                if ab.once {
                    s.pl_mut(me).once |= bit(inst);
                }
                self.pay_ep(s, me, cost.ep);
                Self::push_cursor(s, Cursor::new(me, inst, ability, That::NONE));
                if cost.discard > 0 {
                    // The rest of the cost: the player chooses the cards as the craft begins.
                    s.pending = Pending::Discard {
                        left: cost.discard,
                        enemy: false,
                    };
                }
            }
            _ => unreachable!(),
        }
    }

    fn start_deploy(&self, s: &mut State) {
        // T-PREP-3: 1 CP per homebase card, face up or down.
        let me = s.actor;
        let p = s.pl_mut(me);
        p.cp = p.homebase_count() as u8;
        s.step = Step::Deploy;
        // Decision T-RES-15: no card played yet in this step.
        s.firsts = 0;
        self.phase_event(s, Trigger::End, Phase::Homebase, me);
        self.phase_event(s, Trigger::Start, Phase::Deployment, me);
    }

    /// The combat phase ends and the cure phase begins: abilities "at the end of the combat
    /// phase" and "at the start of the cure phase" trigger and resolve before the win check
    /// (decision T-EFF-8).
    fn start_cure(&self, s: &mut State) {
        // The combat phase ends: its EP is gone (T-RES-1).
        Self::end_phase_ep(s);
        s.step = Step::CureCheck;
        s.actor = s.initiative;
        s.combat = Combat::default();
        self.phase_event(s, Trigger::End, Phase::CombatPhase, s.initiative);
        self.phase_event(s, Trigger::Start, Phase::Cure, s.initiative);
        if s.queue.is_empty() {
            self.cure_check(s);
        }
    }

    /// T-CURE-1: the win check comes first in the cure phase; then the cures (T-CURE-2).
    pub(super) fn cure_check(&self, s: &mut State) {
        s.step = Step::Cure;
        s.actor = s.initiative;
        let b0 = s.p[0].bond;
        let b1 = s.p[1].bond;
        if b0 <= 0 || b1 <= 0 {
            let w = if b0 <= 0 && b1 > 0 {
                Seat::P2
            } else if b1 <= 0 && b0 > 0 {
                Seat::P1
            } else if b0 != b1 {
                if b0 > b1 {
                    Seat::P1
                } else {
                    Seat::P2
                }
            } else {
                s.initiative.other()
            };
            s.winner = Some(Outcome::Win(w));
        }
    }

    pub(super) fn next_cure(&self, s: &mut State) {
        s.combat.sclm = false;
        if s.actor == s.initiative {
            s.actor = s.initiative.other();
        } else {
            self.rest(s);
        }
    }

    /// T-CURE-2 (rest): every other stunned UNIT goes to its owner's trail (abilities on leaving
    /// the field trigger); then the cure phase and the turn end (decision T-EFF-8).
    pub(super) fn rest(&self, s: &mut State) {
        for q in [s.initiative, s.initiative.other()] {
            self.rest_stunned(s, q);
        }
        s.step = Step::Ready;
        self.phase_event(s, Trigger::End, Phase::Cure, s.initiative);
        self.phase_event(s, Trigger::End, Phase::Turn, s.initiative);
        // What triggered resolves first (the settle loop comes back to the step).
        if s.queue.is_empty() {
            self.end_turn(s);
        }
    }

    /// [`Self::rest`] for `q`: its stunned field cards to its trail, read as one mask (a card
    /// going to the trail changes no other card's zone or flags; its abilities are only queued).
    #[inline]
    fn rest_stunned(&self, s: &mut State, q: Seat) {
        let p = s.pl(q);
        for i in Bits(p.field & p.flagged(flag::STUNNED)) {
            self.to_trail(s, q, i);
        }
    }

    /// T-CURE-3: everything readied, end-of-turn effects end (decision T-CURE-4), initiative
    /// passes and the next turn begins.
    pub(super) fn end_turn(&self, s: &mut State) {
        for q in Seat::ALL {
            let p = s.pl_mut(q);
            // Only field and homebase cards have flags (an invariant).
            p.clear_all(flag::ACTIONED | flag::SUPPORTED | flag::ATTACKED);
            // Decision T-EFF-13: links until end of turn end.
            p.links_eot = [0; 2];
            end_turn_changes(p);
            p.attribution_orgs = 0;
            p.once = 0;
        }
        s.always_used = [0; 2];
        // Decision T-EFF-10: a delayed trigger that has not triggered by now is gone.
        s.later.clear();
        s.shields.clear();
        s.cant_eot.clear();
        s.bans.clear();
        s.initiative = s.initiative.other();
        s.turn += 1;
        s.actor = s.initiative;
        self.start_prep(s);
    }

    /// A player's preparation phase begins (decision T-EFF-8): the turn's first one starts the
    /// turn too.
    pub(super) fn start_prep(&self, s: &mut State) {
        let me = s.actor;
        s.step = Step::Draw;
        if me == s.initiative {
            self.phase_event(s, Trigger::Start, Phase::Turn, me);
        }
        self.phase_event(s, Trigger::Start, Phase::Preparation, me);
        self.phase_event(s, Trigger::Start, Phase::Draw, me);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of turn's whole-array clear ([`end_turn_changes`]) leaves what the clear form
    /// (the field and homebase cards' entries) leaves: no card outside the field has a change.
    /// Both players at every position of random games of every pair of the bundled decks.
    #[test]
    fn end_turn_clears_what_the_card_walk_clears() {
        use crate::games::trails::walk_test_games;
        let (mut positions, mut changed) = (0u32, 0u32);
        walk_test_games(
            &crate::games::trails::test_games(false),
            4,
            7,
            |_, s, _, seed| {
                for p in &s.p {
                    let (mut fast, mut clear) = (*p, *p);
                    end_turn_changes(&mut fast);
                    end_turn_changes_clear(&mut clear);
                    assert_eq!(fast, clear, "seed {seed}, turn {}", s.turn);
                    positions += 1;
                    changed += u32::from(fast != *p);
                }
            },
        );
        eprintln!("end of turn: {positions} positions, {changed} changed");
        assert!(
            positions > 50_000 && changed > 1_000,
            "{positions} {changed}"
        );
    }

    /// `rest_stunned` (the stunned field cards read as one mask) leaves what the card walk of
    /// T-CURE-2 leaves (each field card tested as the walk reaches it, after the cards before it
    /// went to the trail): for both seats at every position of random games (4 seeds) of the 36
    /// pairs of the bundled decks, counting the cases with one and with several stunned cards.
    #[test]
    fn rest_moves_what_the_card_walk_moves() {
        use crate::games::trails::walk_test_games;
        let (mut one, mut several) = (0u32, 0u32);
        walk_test_games(
            &crate::games::trails::test_games(false),
            4,
            7,
            |g, s, _, seed| {
                for c in Seat::ALL {
                    let p = s.pl(c);
                    let n = (p.field & p.flagged(flag::STUNNED)).count_ones();
                    if n == 0 {
                        continue;
                    }
                    let (mut fast, mut clear) = (*s, *s);
                    g.rest_stunned(&mut fast, c);
                    for i in Bits(clear.pl(c).field) {
                        if clear.pl(c).has(i, flag::STUNNED) {
                            g.to_trail(&mut clear, c, i);
                        }
                    }
                    assert_eq!(fast, clear, "seed {seed}, turn {}", s.turn);
                    if n == 1 {
                        one += 1;
                    } else {
                        several += 1;
                    }
                }
            },
        );
        eprintln!("rest: {one} with one stunned, {several} with several");
        assert!(one > 1_000 && several > 1_000, "{one} {several}");
    }
}
