//! Playing an action.

use super::super::cards::Op;
use super::*;

impl FireForceGame {
    // ---- playing an action ----

    /// Plays a legal action.
    pub fn play(&self, s: &mut State, a: Action) {
        let me = s.chooser;
        if matches!(s.pick, Pick::None)
            && matches!(
                a,
                Action::Dispatch(_)
                    | Action::Play(_)
                    | Action::React(_)
                    | Action::Activate(..)
                    | Action::Attack(_)
            )
        {
            s.acts[me.index()] = s.acts[me.index()].saturating_add(1);
        }
        match a {
            Action::Pick(code) => {
                let (q, i) = (Seat::ALL[usize::from(code >= 64)], code % 64);
                match s.pick {
                    Pick::Limit => {
                        s.pick = Pick::None;
                        Self::limit_out(s, q, i);
                    }
                    Pick::Link => {
                        // F-KW-ADOLLA-LINK: face down onto the Scene as an exhausted Flame card.
                        s.pick = Pick::None;
                        s.frames.as_mut_slice()[0].pc += 1;
                        let p = s.pl_mut(me);
                        p.adolla &= !(1 << i);
                        p.scene |= 1 << i;
                        p.as_flame |= 1 << i;
                        p.exhausted |= 1 << i;
                        s.flame_check = true;
                        if self.lang.watch {
                            self.flame_put(s, me, i);
                        }
                    }
                    Pick::Unit { .. } => {
                        s.pick = Pick::None;
                        let f = s.frames[0];
                        let done = if f.ability == PRAY_FRAME {
                            // F-KW-PRAY: the chosen Unit is given a Flame card.
                            s.pick = Pick::Flame { to: i };
                            s.chooser = me;
                            false
                        } else {
                            let e = self.frame_effect(s, &f);
                            if e.counts() {
                                s.x = [0; 2];
                            }
                            // Decision F-EFF-8: the chosen card is `that`.
                            s.frames.as_mut_slice()[0].that = code;
                            if e.target().is_some_and(Self::off_unit) {
                                // A Flame card on the Scene (decision F-EFF-10).
                                self.apply_card(s, me, e, q, i)
                            } else {
                                self.apply_to(s, me, e, q, i)
                            }
                        };
                        if done {
                            s.frames.as_mut_slice()[0].pc += 1;
                        }
                        if !s.replacing.is_empty() {
                            self.front_replacements(s);
                        }
                    }
                    _ => unreachable!("a pick action answers a pick"),
                }
            }
            Action::Flame(id) => {
                let i = Self::flame_choices(s, me)
                    .find(|&i| s.pl(me).card[i as usize] == id)
                    .expect("a legal Flame card");
                match s.pick {
                    Pick::Flame { to } => self.choose_flame(s, i, to),
                    _ => self.flame_step(s, i),
                }
            }
            Action::Card(id) if matches!(s.pick, Pick::Name) => {
                // Decision F-EFF-12.
                s.pick = Pick::None;
                s.named = id;
                s.frames.as_mut_slice()[0].pc += 1;
            }
            Action::Card(id) => self.card_chosen(s, me, id),
            Action::Mode(k) => {
                // Decision F-EFF-4: the option's jump follows the choose step.
                s.pick = Pick::None;
                let f = s.frames[0];
                let at = Frame {
                    pc: f.pc + 1 + k,
                    ..f
                };
                let Some(Op::Jump(to)) = self.frame_op(s, &at) else {
                    unreachable!("a choose step is followed by its options' jumps")
                };
                let to = *to;
                s.frames.as_mut_slice()[0].pc = to;
            }
            Action::Yes => {
                s.pick = Pick::None;
                s.frames.as_mut_slice()[0].pc += 1;
            }
            Action::Pass => match s.pick {
                Pick::Cards { .. } => self.cards_passed(s),
                Pick::May { skip } => {
                    s.pick = Pick::None;
                    s.frames.as_mut_slice()[0].pc = skip;
                }
                Pick::Link => {
                    s.pick = Pick::None;
                    s.frames.as_mut_slice()[0].pc += 1;
                }
                Pick::Unit { .. } => {
                    s.pick = Pick::None;
                    s.frames.as_mut_slice()[0].pc += 1;
                }
                _ => match s.step {
                    Step::Block => s.step = Step::Reaction,
                    Step::Reaction => s.step = Step::Support,
                    Step::Support => s.step = Step::Damage,
                    Step::LifeTrigger => s.step = Step::BattleEnd,
                    _ => unreachable!("pass is legal in these steps"),
                },
            },
            Action::Keep | Action::Redraw => {
                if a == Action::Redraw {
                    Self::redraw(s, me);
                }
                s.pl_mut(me).redraw_done = true;
            }
            Action::Dispatch(id) | Action::Play(id) | Action::React(id) => {
                let i = self.hand_instance(s, me, id);
                let cost = if self.lang.costs {
                    self.changed_cost(s, me, i)
                } else {
                    self.db.card(id).cost
                };
                if self.pay_or_ask(s, me, cost, a) {
                    self.go_on(s, me, a, i);
                } else {
                    // The card is shown as its cost is paid (it stays in hand until then).
                    Self::reveal(s, me, i);
                }
            }
            Action::Activate(u, PRAY) => {
                // F-KW-PRAY: exhaust this Unit; choose up to 1 of your Units.
                s.pl_mut(me).exhausted |= 1 << u;
                s.frames.push(Frame::new(me, u, PRAY_FRAME));
            }
            Action::Activate(u, k) => {
                let cost = self.card_of(s, me, u).abilities[k as usize].cost;
                if cost.exhaust {
                    s.pl_mut(me).exhausted |= 1 << u;
                }
                if cost.once {
                    s.pl_mut(me).once |= 1 << u;
                }
                if self.pay_or_ask(s, me, cost.flame, a) {
                    self.go_on(s, me, a, u);
                }
            }
            Action::Pay(m) => self.paid_with(s, me, m),
            Action::Attack(u) => {
                // F-BAT-1.
                s.pl_mut(me).exhausted |= 1 << u;
                s.battle = Battle {
                    attacker: u,
                    ..Battle::NONE
                };
                s.step = Step::Target;
            }
            Action::Target(t) => {
                // F-BAT-2.
                s.battle.target = t;
                s.battle.on_player = t == NONE;
                s.step = Step::Attacking;
            }
            Action::Block(u) => {
                // F-BAT-4, F-BAT-11.
                s.pl_mut(me).exhausted |= 1 << u;
                s.battle.target = u;
                s.battle.on_player = false;
                s.step = Step::Reaction;
                self.push_triggers(s, me, u, Trigger::Blocking);
            }
            Action::Support(id) => {
                // F-BAT-6, F-BAT-10.
                let i = self.hand_instance(s, me, id);
                let p = s.pl_mut(me);
                p.hand &= !(1 << i);
                p.adolla |= 1 << i;
                Self::reveal(s, me, i);
                // F-BAT-15: within ±32,767.
                let t = s.battle.target;
                let b = &mut s.pl_mut(me).power_battle[t as usize];
                *b = b.saturating_add(self.db.card(id).support);
                s.battle.support_last = id;
            }
            Action::UseTrigger => {
                // F-BAT-8.
                s.frames
                    .push(Frame::new(me, s.battle.revealed, LIFE_TRIGGER));
                s.step = Step::BattleEnd;
            }
            Action::End => self.end_main(s, me),
        }
        self.settle(s);
    }

    /// What dispatching, playing or activating does once its cost is paid (F-MAIN-1, F-BAT-5,
    /// F-KW-ACTIVE): `i` is the card played from hand, or the Unit activated.
    #[inline]
    pub(super) fn go_on(&self, s: &mut State, me: Seat, a: Action, i: u8) {
        match a {
            Action::Dispatch(_) => {
                s.pl_mut(me).hand &= !(1 << i);
                self.enter_scene(s, me, i);
                s.pl_mut(me).fresh |= 1 << i;
                Self::reveal(s, me, i);
                // F-KW-TRIGGERS: When Dispatched; F-KW-ADOLLA-LINK after it.
                self.dispatched(s, me, i);
            }
            Action::Play(_) | Action::React(_) => {
                if self.lang.costs && matches!(a, Action::React(_)) {
                    // Decision F-COST-8: `first`.
                    s.pl_mut(me).reacted = true;
                }
                let p = s.pl_mut(me);
                p.hand &= !(1 << i);
                // F-MAIN-2: the Event goes into THE ADOLLA as it resolves.
                p.adolla |= 1 << i;
                Self::reveal(s, me, i);
                s.frames.push(Frame::new(me, i, 0));
                if self.lang.watch {
                    self.watch(s, Trigger::Played, me, i);
                }
            }
            Action::Activate(_, k) => s.frames.push(Frame::new(me, i, k)),
            _ => unreachable!("only a cost is paid for"),
        }
    }

    /// The instance of card `id` in `q`'s hand that is played: a copy the opponent knows, if it
    /// knows one, else the lowest (F-INFO-5: playing the unknown copy would tell the opponent that
    /// the known one is still in hand).
    pub(super) fn hand_instance(&self, s: &State, q: Seat, id: CardId) -> u8 {
        let p = s.pl(q);
        let known = p.hand & p.known[q.other().index()];
        // The lowest known copy, else the lowest copy (then no copy is known): the known cards
        // in hand are few, and the walk stops at the first copy.
        for k in [known, p.hand & !known] {
            if let Some(i) = Bits(k).find(|&i| p.card[i as usize] == id) {
                return i;
            }
        }
        panic!("a legal action names a card in hand")
    }
}
