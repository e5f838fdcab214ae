//! The TMNT policy ([`Policy`]): the heuristic, a fast rule of thumb for the heuristic agent and
//! for playouts, with weights of its own, and the static evaluation. It reads only what the player
//! to move may see: its hand and Block cards, the public zones, the counts of hidden ones. The
//! card worths it reads are the card database's (`cards::hand_value`,
//! `cards::set_value`): the policy imports the cards, never the reverse.

use super::cards::{Amount, CardType, Dest, Effect, Kind, Op};
use super::state::{Bits, Pick, State, Step, NONE};
use super::{Action, TmntGame};
use crate::core::lang::{Side, TargetMode};
use crate::core::{ActionList, GameRng, Policy, Seat};
use rand::Rng;

/// The action of `legal` with the highest value under `f` (the last of equal ones, as
/// `Iterator::max_by_key`), among those `f` values.
fn best_of(legal: &ActionList<Action>, f: impl Fn(Action) -> Option<i32>) -> Option<Action> {
    let mut best: Option<(i32, Action)> = None;
    for &a in legal.iter() {
        if let Some(v) = f(a) {
            if best.is_none_or(|(b, _)| v >= b) {
                best = Some((v, a));
            }
        }
    }
    best.map(|(_, a)| a)
}

impl TmntGame {
    /// The card language's decisions (cold): `choose` options and `may` by the worth of their
    /// effects, cards for `move`, `search`, `dig` and `arrange` by their worth where they go,
    /// `anytime` texts when they help now.
    #[inline(never)]
    fn language_choice(&self, s: &State, legal: &ActionList<Action>) -> Option<Action> {
        let me = s.chooser;
        let worth = &self.db.sets.worth;
        let ops = self.frame_ops(s, s.cur);
        let pc = usize::from(s.cur.next);
        let value = |from: usize, to: usize| -> i32 {
            let to = to.min(ops.len());
            ops[from.min(to)..to]
                .iter()
                .filter_map(|o| match o {
                    Op::Do(e) => Some(self.effect_worth(s, me, *e)),
                    _ => None,
                })
                .sum()
        };
        match s.pick {
            Pick::Mode { n } => {
                let start = |k: u8| match ops.get(pc + 1 + usize::from(k)) {
                    Some(Op::Jump(t)) => usize::from(*t),
                    _ => ops.len(),
                };
                // The end of the last option: where the first option's closing jump goes.
                let end = match ops.get(start(1).saturating_sub(1)) {
                    Some(Op::Jump(t)) => usize::from(*t),
                    _ => ops.len(),
                };
                best_of(legal, |a| match a {
                    Action::Mode(k) => {
                        let to = if k + 1 < n { start(k + 1) } else { end };
                        Some(value(start(k), to.saturating_sub(1)))
                    }
                    _ => None,
                })
            }
            Pick::May { skip } => {
                let v = value(pc + 1, usize::from(skip));
                Some(if v >= 0 { Action::Yes } else { Action::Pass })
            }
            Pick::Take { seat, dest, .. } => {
                let mine = usize::from(seat) == me.index();
                best_of(legal, |a| match a {
                    Action::Take(id) => {
                        let [hand, set] = worth.of(id);
                        let c = self.db.card(id);
                        Some(match dest {
                            Dest::Hand | Dest::Top => hand.max(set),
                            // Out of own hand: the least worth; an enemy's: the most.
                            Dest::Trash if !mine => hand.max(set),
                            Dest::Zone1Up => i32::from(c.power) * 3,
                            _ => -hand.max(set),
                        })
                    }
                    _ => None,
                })
            }
            // The cards worth most in hand come first (the Adjust phase draws them).
            Pick::Arrange { .. } => best_of(legal, |a| match a {
                Action::Top(id) => Some(worth.of(id)[0]),
                _ => None,
            }),
            Pick::Activate => best_of(legal, |a| match a {
                Action::Activate(id) => {
                    let c = self.db.card(id);
                    let ab = c.ability(c.anytime_ab)?;
                    let v: i32 = ab
                        .effects
                        .iter()
                        .map(|&e| self.effect_worth(s, me, e))
                        .sum();
                    (v > 0).then_some(v)
                }
                _ => None,
            }),
            _ => None,
        }
    }

    /// A rough worth of effect `e` of a text of `me` resolving now (positive: good for `me`).
    fn effect_worth(&self, s: &State, me: Seat, e: Effect) -> i32 {
        let who = Seat::from_index(usize::from(s.cur.who));
        let src = s.cur.src;
        let n = |a: Amount| i32::from(self.amount(s, who, src, a));
        // The deck is the clock (M-WIN-1): a card of the opponent's deck gone is worth most.
        match e {
            Effect::Draw(k) => n(k).min(i32::from(s.pl(me).deck_len) - 3),
            Effect::DrawTo(k) => (i32::from(k) - s.pl(me).hand_len() as i32).max(0),
            Effect::Trash { enemy: true, n: k } => 4 * n(k),
            Effect::Trash { enemy: false, n: k } => -4 * n(k),
            Effect::Discard { enemy: true, n: k } => 2 * i32::from(k),
            Effect::Discard { enemy: false, n: k } => -2 * i32::from(k),
            Effect::Salvage(_) => 3,
            Effect::Move(t, dest) => {
                let (q, m) = self.move_candidates(s, who, src, &t, dest);
                if m == 0 {
                    return if t.mode == TargetMode::This { -3 } else { 0 };
                }
                match (q == me, dest) {
                    (true, Dest::Hand) => 3,
                    (true, Dest::Bottom | Dest::Top) => 3,
                    (true, Dest::Trash) => -3,
                    (true, Dest::Zone1Up) => 5,
                    (false, _) => 3,
                }
            }
            Effect::Power(t, v) => {
                let v = n(v);
                let mine = match t.side {
                    Side::Enemy => false,
                    Side::Own => true,
                    Side::Any => !matches!(t.mode, TargetMode::Role(_)) || s.active == me,
                };
                let attacking = s.active == me;
                if mine == attacking {
                    2 * v
                } else {
                    -2 * v
                }
            }
            Effect::Bonus(v) => 2 * i32::from(v),
            Effect::Reduce(k) => {
                let (total, counter) = self.attack_powers(s);
                if total - counter > 0 {
                    3 * i32::from(k)
                } else {
                    0
                }
            }
            Effect::KeepAnyway => {
                let p = s.pl(me);
                let chars = Bits(p.up)
                    .filter(|&i| self.card_of(s, me, i).ctype == CardType::Character)
                    .count();
                if p.trashed && chars > 0 {
                    3
                } else {
                    -1
                }
            }
            Effect::Look { .. } | Effect::Peek(_) | Effect::Arrange(_) => 1,
            Effect::Search(_) | Effect::Dig(..) => 2,
            Effect::Ban { .. } | Effect::ExcessCap(_) | Effect::ExcessExtra(_) => 3,
            Effect::FreeItem => 1,
            _ => 0,
        }
    }

    /// A card in play for a `move` or `peek` (cold): the enemy's best card, or none when the
    /// choice may be passed and every card is one's own.
    #[inline(never)]
    fn choose_other(&self, s: &State, legal: &ActionList<Action>) -> Option<Action> {
        let me = s.chooser;
        best_of(legal, |a| match a {
            Action::Choose(code) => {
                let q = Seat::from_index(usize::from(code >> 6));
                let i = code & 63;
                let c = self.card_of(s, q, i);
                let v = i32::from(c.power) + self.db.sets.worth.of(s.pl(q).card[i as usize])[0];
                Some(if q == me { -v } else { v })
            }
            _ => None,
        })
    }
}

impl Policy for TmntGame {
    /// The heuristic's choice among `legal` (non-empty).
    fn heuristic_action(&self, s: &State, legal: &ActionList<Action>, rng: &mut GameRng) -> Action {
        let me = s.chooser;
        let card = |id: u8| self.db.card(id);
        let worth = &self.db.sets.worth;
        let pick = match s.step {
            // Discard what is worth least in hand and on a Block Zone.
            // (Worths by id: `CardSets::worth`, derived from `hand_value` and `set_value`.)
            Step::Discard => best_of(legal, |a| match a {
                Action::Discard(id) => {
                    let [hand, set] = worth.of(id);
                    Some(-hand.max(set))
                }
                _ => None,
            }),
            // Set what is worth more on a Block Zone than in hand.
            Step::Set => best_of(legal, |a| match a {
                Action::Set(id) => {
                    let [hand, set] = worth.of(id);
                    Some(set - hand)
                }
                _ => None,
            }),
            Step::Event | Step::Item => legal.iter().copied().find(|&a| a != Action::Pass),
            Step::Pay => best_of(legal, |a| match a {
                Action::Pay(id) => Some(-worth.of(id)[0]),
                _ => None,
            }),
            // Attack with the strongest card; keep counters for defence unless two are held.
            Step::Attack => {
                // The hand's counters, counted only for a Counter card among the actions (most
                // Attack steps offer none).
                let two_counters = || {
                    Bits(s.pl(me).hand)
                        .filter(|&i| self.card_of(s, me, i).kind == Kind::Counter)
                        .count()
                        >= 2
                };
                best_of(legal, |a| match a {
                    Action::Attack(id) => {
                        let c = card(id);
                        if c.kind == Kind::Counter && !two_counters() {
                            None
                        } else {
                            Some(i32::from(c.power) * 2 + i32::from(c.play))
                        }
                    }
                    _ => None,
                })
            }
            // Counter with the strongest counter when the damage would reach the deck or flip
            // most of the Block cards.
            Step::Counter => {
                let (total, counter) = self.attack_powers(s);
                let blocks = s.pl(me).block.iter().filter(|&&i| i != NONE).count() as i32;
                if total - counter >= blocks.min(3) {
                    best_of(legal, |a| match a {
                        Action::Counter(id) => Some(i32::from(card(id).power)),
                        _ => None,
                    })
                } else {
                    None
                }
            }
            // Keep the strongest character.
            Step::Keep => best_of(legal, |a| match a {
                Action::Keep(z) => {
                    let i = s.pl(me).block[z as usize];
                    Some(self.power(s, me, i))
                }
                _ => None,
            }),
            // A power change: raise an own card, lower an enemy's.
            Step::Choose if !matches!(self.current_effect(s), Some(Effect::Power(..))) => {
                self.choose_other(s, legal)
            }
            Step::Choose => {
                let who = Seat::from_index(usize::from(s.cur.who));
                let up = matches!(self.current_effect(s), Some(Effect::Power(_, v))
                    if self.amount(s, who, s.cur.src, v) > 0);
                best_of(legal, |a| match a {
                    Action::Choose(code) => {
                        let q = Seat::from_index(usize::from(code >> 6));
                        let i = code & 63;
                        let on_block1 = i32::from(s.pl(q).block[0] == i) * 10;
                        let p = self.power(s, q, i);
                        Some(if (q == me) == up {
                            on_block1 + p
                        } else {
                            -100 - p
                        })
                    }
                    _ => None,
                })
            }
            Step::Salvage => best_of(legal, |a| match a {
                Action::Salvage(id) => Some(worth.of(id)[0]),
                _ => None,
            }),
            Step::Mode | Step::May | Step::Take | Step::Arrange | Step::Activate => {
                self.language_choice(s, legal)
            }
            Step::Order | Step::Over => None,
        };
        match pick {
            Some(a) => a,
            None if legal.contains(&Action::Pass) => Action::Pass,
            None => legal[rng.gen_range(0..legal.len())],
        }
    }

    /// A static estimate that `seat` wins: the decks are the clock (M-WIN-1), so the share of
    /// the cards left in both decks, sharpened.
    fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        if let Some(o) = s.winner {
            return o.score(seat);
        }
        let mine = f64::from(s.pl(seat).deck_len) + 1.0;
        let theirs = f64::from(s.pl(seat.other()).deck_len) + 1.0;
        let x = (mine - theirs) / 6.0;
        1.0 / (1.0 + (-x).exp())
    }
}
