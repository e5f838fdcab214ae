//! Resolving abilities (F-EFF): frames, effects and their targets, Flame cards for effects.

use super::*;

impl FireForceGame {
    // ---- effects ----

    /// The effects of a frame's ability.
    pub(super) fn frame_effects(&self, s: &State, f: &Frame) -> &[Effect] {
        let c = self.card_of(s, Seat::ALL[f.who as usize], f.src);
        if f.ability == LIFE_TRIGGER {
            &c.life_trigger
        } else {
            &c.abilities[f.ability as usize].effects
        }
    }

    /// Resolves the first frame as far as it goes. Returns false when it waits for a pick (the
    /// settle loop then sees the pick).
    pub(super) fn run_frame(&self, s: &mut State) -> bool {
        let f = s.frames[0];
        let who = Seat::ALL[f.who as usize];
        if f.ability == PRAY_FRAME || f.ability == LINK_FRAME {
            if f.next > 0 {
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
        loop {
            let f = s.frames[0];
            let who = Seat::ALL[f.who as usize];
            let effects = self.frame_effects(s, &f);
            let Some(&e) = effects.get(f.next as usize) else {
                s.frames.remove(0);
                return true;
            };
            if !self.resolve(s, who, f.src, e) {
                return false;
            }
            s.frames.as_mut_slice()[0].next += 1;
            if s.winner.is_some() {
                return true;
            }
        }
    }

    /// One effect (F-EFF-1: in order, each as far as it can; `target` chosen by the controller,
    /// automatically when only one Unit qualifies; nothing without a target). Returns false when
    /// it waits for a pick (the pick's action finishes it).
    pub(super) fn resolve(&self, s: &mut State, who: Seat, src: u8, e: Effect) -> bool {
        match e {
            Effect::Draw(n) => Self::draw(s, who, n),
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
            _ => {
                let t = e.target().expect("the other effects have a target");
                let c = self.candidates(s, t, who, src);
                let choose = matches!(
                    t,
                    Target::Units {
                        mode: TargetMode::Choose,
                        ..
                    }
                );
                let n = c[0].count_ones() + c[1].count_ones();
                if choose && n > 1 {
                    s.pick = Pick::Unit {
                        mask: c,
                        optional: false,
                    };
                    s.chooser = who;
                    return false;
                }
                for q in Seat::ALL {
                    for u in Bits(c[q.index()]) {
                        if !self.apply_to(s, who, e, q, u) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// An effect on Unit `u` of `q` (still on the Scene). False when it waits for a pick (Give).
    pub(super) fn apply_to(&self, s: &mut State, who: Seat, e: Effect, q: Seat, u: u8) -> bool {
        if s.pl(q).units() & 1 << u == 0 {
            return true;
        }
        match e {
            Effect::Remove(_) => self.remove(s, q, u),
            Effect::Exhaust(_) => s.pl_mut(q).exhausted |= 1 << u,
            Effect::Ready(_) => s.pl_mut(q).exhausted &= !(1 << u),
            Effect::Bounce(_) => {
                Self::leave_scene(s, q, u);
                s.pl_mut(q).hand |= 1 << u;
            }
            Effect::Power(_, n, Until::EndOfTurn) => {
                let t = &mut s.pl_mut(q).power_turn[u as usize];
                *t = t.saturating_add(n);
            }
            Effect::Power(_, n, Until::EndOfBattle) => {
                // F-BAT-14: outside a battle, until end of turn.
                let in_battle = !matches!(
                    s.step,
                    Step::Main | Step::End | Step::Redraw | Step::SetupFlame | Step::PrepFlame
                );
                if in_battle {
                    s.pl_mut(q).power_battle[u as usize] += i32::from(n);
                } else {
                    let t = &mut s.pl_mut(q).power_turn[u as usize];
                    *t = t.saturating_add(n);
                }
            }
            Effect::Give(_) => {
                debug_assert_eq!(q, who);
                if s.pl(q).flame_deck != 0 {
                    s.pick = Pick::Flame { to: u };
                    s.chooser = q;
                    return false;
                }
            }
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
    }
}
