//! Resolving abilities (F-EFF): frames step through their ability's program (effects, and the
//! jumps of `if`, `choose` and `may`: decision F-EFF-4), effects pick their targets, Flame cards
//! for effects.

use super::super::cards::{Ability, Amount, Mode, Op};
use super::*;
use crate::core::lang::eval;

impl FireForceGame {
    // ---- effects ----

    /// The ability a frame resolves: a card's ability or its Life trigger.
    #[inline]
    pub(super) fn frame_ability(&self, s: &State, f: &Frame) -> &Ability {
        let c = self.card_of(s, Seat::ALL[f.who as usize], f.src);
        if f.ability == LIFE_TRIGGER {
            c.life_trigger
                .as_deref()
                .expect("a Life trigger frame is queued for a card with one")
        } else {
            &c.abilities[f.ability as usize]
        }
    }

    /// The step of a frame's program at its program counter.
    #[inline]
    pub(super) fn frame_op(&self, s: &State, f: &Frame) -> Option<&Op> {
        self.frame_ability(s, f).program.ops.get(f.pc as usize)
    }

    /// The effect at a frame's program counter (a pick answers it).
    pub(super) fn frame_effect(&self, s: &State, f: &Frame) -> Effect {
        match self.frame_op(s, f) {
            Some(Op::Do(e)) => *e,
            op => unreachable!("an effect at the program counter, found {op:?}"),
        }
    }

    /// Resolves the first frame as far as it goes. Returns false when it waits for a decision
    /// (the settle loop then sees the pick). Out of line: the settle loop runs a frame in about
    /// one of its twelve passes, and inlined, its loads were hoisted to every `settle` call.
    #[inline(never)]
    pub(super) fn run_frame(&self, s: &mut State) -> bool {
        let f = s.frames[0];
        let who = Seat::ALL[f.who as usize];
        if f.ability == PRAY_FRAME || f.ability == LINK_FRAME {
            if f.pc > 0 {
                s.frames.remove(0);
                return true;
            }
            s.chooser = who;
            if f.ability == PRAY_FRAME {
                // F-KW-PRAY: up to 1 of your Units (the Flame card follows, `play`).
                let mut mask = [0u64; 2];
                mask[who.index()] = s.pl(who).units();
                s.pick = Pick::Unit {
                    mask,
                    optional: true,
                };
                return false;
            }
            // F-KW-ADOLLA-LINK: up to 1 [THE ADOLLA BURST] card of THE ADOLLA.
            if self.link_cards(s, who) != 0 {
                s.pick = Pick::Link;
                return false;
            }
            s.frames.remove(0);
            return true;
        }
        // The frame at the front stays there until its program ends (triggers queue behind it).
        let ops = &self.frame_ability(s, &f).program.ops;
        loop {
            let f = s.frames[0];
            let Some(op) = ops.get(f.pc as usize) else {
                s.frames.remove(0);
                // Decision F-EFF-13: after a replacement, the ability it interrupted goes on
                // with its `x`.
                s.x = if f.done == super::later::INSTEAD {
                    s.x_kept
                } else {
                    [0; 2]
                };
                return true;
            };
            let pc = match op {
                Op::Do(e) => {
                    if !self.resolve(s, who, f.src, *e) {
                        return false;
                    }
                    if !s.replacing.is_empty() {
                        s.frames.as_mut_slice()[0].pc = f.pc + 1;
                        self.front_replacements(s);
                        return true;
                    }
                    f.pc + 1
                }
                // Decision F-EFF-4: "if" is read as its step resolves.
                Op::Unless(c, to) => {
                    if eval::cond(&self.judge(s, who, f.src, f.that), c) {
                        f.pc + 1
                    } else {
                        *to
                    }
                }
                Op::Jump(to) => *to,
                Op::Choose(n) => {
                    s.pick = Pick::Mode { n: *n };
                    s.chooser = who;
                    return false;
                }
                Op::May(skip) => {
                    // Decision F-EFF-4: asked only when its first step has something to act on.
                    if self.may_act(s, &f) {
                        s.pick = Pick::May { skip: *skip };
                        s.chooser = who;
                        return false;
                    }
                    *skip
                }
                // Decision F-BAT-17: the delayed body follows the ability's own steps (`dsl`).
                Op::Later(pc) => {
                    Self::set_up_later(s, f, *pc);
                    f.pc + 1
                }
            };
            s.frames.as_mut_slice()[0].pc = pc;
            if s.winner.is_some() {
                return true;
            }
        }
    }

    /// Whether the first step of a `may` (after the step at the frame's program counter) has
    /// something to act on, as its chooser sees it.
    fn may_act(&self, s: &State, f: &Frame) -> bool {
        let who = Seat::ALL[f.who as usize];
        match self.frame_ability(s, f).program.ops.get(f.pc as usize + 1) {
            Some(Op::Do(e)) => match e.target() {
                Some(t) if t.chosen() => {
                    // Cards that are not Units on the Scene: the cards the target describes.
                    let c = if Self::off_unit(t) {
                        self.described(s, who, f.src, f.that, t, false)
                    } else {
                        self.candidates(s, t, who, f.src, f.that)
                    };
                    c != [0; 2]
                }
                // "you may put 1 card from your hand …": only with the cards to put.
                None => match e {
                    Effect::Discard { enemy: false, n } => {
                        s.pl(who).hand.count_ones() >= u32::from(*n)
                    }
                    _ => true,
                },
                _ => true,
            },
            _ => true,
        }
    }

    /// An amount now: written, or counted for the frame's ability (decision F-EFF-9).
    pub(super) fn amount(&self, s: &State, n: Amount) -> i32 {
        match n {
            Amount::Num(n) => i32::from(n),
            Amount::Val { k, .. } => {
                let f = s.frames[0];
                let v = &self.frame_ability(s, &f).values[k as usize];
                eval::value(&self.judge(s, Seat::ALL[f.who as usize], f.src, f.that), v)
            }
        }
    }

    /// One effect (F-EFF-1: in order, each as far as it can; `target` chosen by the controller,
    /// automatically when only one Unit qualifies; `up_to 1` always asked, decision F-EFF-7;
    /// nothing without a target). Returns false when it waits for a pick (the pick's action
    /// finishes it).
    pub(super) fn resolve(&self, s: &mut State, who: Seat, src: u8, e: Effect) -> bool {
        match e {
            Effect::Draw(n) => Self::draw(s, who, n),
            Effect::DrawOf { enemy, n } => {
                let q = if enemy { who.other() } else { who };
                let n = self.amount(s, n).clamp(0, 40) as u8;
                if n > 0 {
                    Self::draw(s, q, n);
                }
            }
            Effect::DrawTo(n) => {
                // Draw until the hand holds n cards (F-WIN-3: an empty deck loses at once).
                let have = s.pl(who).hand.count_ones() as u8;
                if have < n {
                    Self::draw(s, who, n - have);
                }
            }
            Effect::Mill(n) => Self::mill(s, who.other(), n),
            Effect::Life(n) => Self::life(s, who, n),
            Effect::Flame(n) => {
                // One card at a time, so that the Flame limit is applied at once after each
                // (F-COST-2); `Frame::done` counts them.
                let f = &mut s.frames.as_mut_slice()[0];
                if f.done < n && s.pl(who).flame_deck != 0 {
                    s.pick = Pick::Flame { to: NONE };
                    s.chooser = who;
                    return false;
                }
                s.frames.as_mut_slice()[0].done = 0;
            }
            Effect::Discard { enemy, n } => return self.discard(s, who, enemy, n),
            Effect::Search(..) | Effect::Dig(..) => return self.look_for(s, who, src, e),
            Effect::Look => Self::look(s, who),
            Effect::GuardLife => Self::guard_life(s),
            Effect::Removal => self.replaced_removal(s, who, src),
            Effect::Prevent => unreachable!("`prevent` is compiled into a jump"),
            Effect::NameCard => {
                // Decision F-EFF-12.
                s.pick = Pick::Name;
                s.chooser = who;
                return false;
            }
            Effect::Ban { enemy } => Self::ban(s, if enemy { who.other() } else { who }),
            Effect::EndBattle => {
                // Decision F-BAT-16: steps 4 to 8 left are skipped; outside a battle, nothing.
                if matches!(
                    s.step,
                    Step::Block | Step::Reaction | Step::Support | Step::Damage
                ) {
                    s.step = Step::BattleEnd;
                }
            }
            Effect::Move(ref t, _) | Effect::Dispatch(ref t) => {
                s.x = [0; 2];
                return self.resolve_cards(s, who, src, e, t);
            }
            _ => {
                let t = e.target().expect("the other effects have a target");
                if e.counts() {
                    s.x = [0; 2];
                }
                // `ready` also reaches Flame cards (the other effects here: Units on the Scene).
                if matches!(e, Effect::Ready(_)) && Self::off_unit(t) {
                    return self.resolve_cards(s, who, src, e, t);
                }
                let that = s.frames[0].that;
                let c = self.candidates(s, t, who, src, that);
                let n = c[0].count_ones() + c[1].count_ones();
                if (t.mode == Mode::Choose && n > 1) || (t.mode == Mode::UpTo && n > 0) {
                    s.pick = Pick::Unit {
                        mask: c,
                        optional: t.mode == Mode::UpTo,
                    };
                    s.chooser = who;
                    return false;
                }
                if self.lang.watch && t.mode == Mode::Each && matches!(e, Effect::Remove(_)) {
                    self.remove_each(s, c);
                    return true;
                }
                for q in Seat::ALL {
                    for u in Bits(c[q.index()]) {
                        if t.mode == Mode::Choose {
                            // Decision F-EFF-8: the chosen card is `that`.
                            s.frames.as_mut_slice()[0].that = that_code(q, u);
                        }
                        if !self.apply_to(s, who, e, q, u) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// `grant`: Unit `u` of `q` gains Blitz or Blocker (decision F-KW-GRANT).
    #[cold]
    fn grant(s: &mut State, q: Seat, u: u8, k: Keywords, next: bool) {
        let p = s.pl_mut(q);
        let bit = 1u64 << u;
        if k.has(Keywords::BLITZ) {
            // It attacks as if not dispatched this turn (F-BAT-1).
            p.fresh &= !bit;
        } else {
            p.blocker[0] |= bit;
            if next {
                p.blocker[1] |= bit;
            }
        }
    }

    /// An effect on Unit `u` of `q` (still on the Scene). False when it waits for a pick (Give).
    pub(super) fn apply_to(&self, s: &mut State, who: Seat, e: Effect, q: Seat, u: u8) -> bool {
        if s.pl(q).units() & 1 << u == 0 {
            return true;
        }
        if e.counts() {
            s.x[q.index()] = s.x[q.index()].saturating_add(1);
        }
        match e {
            Effect::Remove(_) => {
                if !self.remove(s, q, u) {
                    // Decision F-EFF-13: not removed (yet).
                    s.x[q.index()] = s.x[q.index()].saturating_sub(1);
                }
            }
            Effect::Exhaust(_) => s.pl_mut(q).exhausted |= 1 << u,
            Effect::Ready(_) => s.pl_mut(q).exhausted &= !(1 << u),
            Effect::Grant(_, k, next) => Self::grant(s, q, u, k, next),
            Effect::Bounce(_) => {
                Self::leave_scene(s, q, u);
                s.pl_mut(q).hand |= 1 << u;
            }
            Effect::Power(_, n, until) => {
                let n = match n {
                    Amount::Num(n) => n,
                    n => self.amount(s, n).clamp(-32767, 32767) as i16,
                };
                if matches!(until, Until::NextTurn | Until::OwnNextTurn) {
                    Self::power_lasting(s, who, q, u, n, until);
                    return true;
                }
                // F-BAT-14: "during this battle" outside a battle does nothing (the glossary:
                // "Effects that are activated during battle do not activate outside of battle").
                let battle = until == Until::EndOfBattle;
                if battle
                    && matches!(
                        s.step,
                        Step::Main | Step::End | Step::Redraw | Step::SetupFlame | Step::PrepFlame
                    )
                {
                    return true;
                }
                let p = s.pl_mut(q);
                let t = if battle {
                    &mut p.power_battle[u as usize]
                } else {
                    &mut p.power_turn[u as usize]
                };
                *t = t.saturating_add(n);
            }
            Effect::Give(_) => {
                debug_assert_eq!(q, who);
                if s.pl(q).flame_deck != 0 {
                    s.pick = Pick::Flame { to: u };
                    s.chooser = q;
                    return false;
                }
            }
            Effect::Pick(_) => {}
            Effect::Redirect(_) => self.redirect(s, q, u),
            Effect::Stay(_) => s.pl_mut(q).stilled.insert(u),
            _ => unreachable!("effects without a target"),
        }
        true
    }

    /// F-PREP-5: the distinct cards of `q`'s Flame deck, one instance each (lowest).
    pub fn flame_choices(s: &State, q: Seat) -> impl Iterator<Item = u8> + '_ {
        let p = s.pl(q);
        Bits(p.flame_deck).filter(move |&i| {
            Bits(p.flame_deck & ((1u64 << i) - 1)).all(|j| p.card[j as usize] != p.card[i as usize])
        })
    }

    /// The first two Flame choices of the chooser (is there a choice at all?).
    pub(super) fn first_two(s: &State) -> (Option<u8>, Option<u8>) {
        let mut c = Self::flame_choices(s, s.chooser);
        (c.next(), c.next())
    }

    /// Puts Flame instance `i` of `q` from the Flame deck onto the Scene (F-PREP-3, F-SETUP-5,
    /// F-KW-PRAY): exhausted or ready, given to Unit `to` or to none.
    pub(super) fn place_flame(&self, s: &mut State, q: Seat, i: u8, exhausted: bool, to: u8) {
        self.enter_scene(s, q, i);
        let p = s.pl_mut(q);
        let bit = 1u64 << i;
        p.flame_deck &= !bit;
        if exhausted {
            p.exhausted |= bit;
        }
        p.given_to[i as usize - FLAME_BASE] = if to != NONE && p.units() & 1 << to != 0 {
            to
        } else {
            NONE
        };
        if self.lang.watch {
            self.flame_put(s, q, i);
        }
    }
}
