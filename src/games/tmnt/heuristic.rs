//! The TMNT heuristic: a fast rule of thumb for the heuristic agent and for playouts, with weights
//! of its own. It reads only what the player to move may see: its hand and Block cards, the
//! public zones, the counts of hidden ones.

use super::cards::{Card, CardType, Effect, Kind};
use super::state::{Bits, State, Step, NONE};
use super::{Action, TmntGame};
use crate::core::{ActionList, GameRng, Seat};
use rand::Rng;

/// What a card is worth kept in hand (to attack, counter, play).
pub(crate) fn hand_value(c: &Card) -> i32 {
    let text = i32::from(c.play);
    match (c.ctype, c.kind) {
        (CardType::Attack, Kind::Counter) => 3 * i32::from(c.power) + 3 + text,
        (CardType::Attack, Kind::ForcefulCounter) => 3 * i32::from(c.power) + 1 + text,
        (CardType::Attack, _) => 3 * i32::from(c.power) + 2 + text,
        (CardType::Event, Kind::Play | Kind::PlayFlip) => 6,
        (CardType::Item, _) => 5,
        _ => 1,
    }
}

/// What a card is worth set face down on a Block Zone (flipped in its owner's Flip phase or by
/// damage).
pub(crate) fn set_value(c: &Card) -> i32 {
    let text = i32::from(c.flip) * 3;
    match (c.ctype, c.kind) {
        (CardType::Character, _) => 3 * i32::from(c.power) + 4 + text,
        (CardType::Attack, Kind::ForcefulCounter) => text,
        (CardType::Attack, _) => 3 * i32::from(c.power) + text,
        (CardType::Event, Kind::Flip | Kind::PlayFlip) => 5,
        _ => 0,
    }
}

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
    /// The heuristic's choice among `legal` (non-empty).
    pub fn heuristic_choice(
        &self,
        s: &State,
        legal: &ActionList<Action>,
        rng: &mut GameRng,
    ) -> Action {
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
                let counters = Bits(s.pl(me).hand)
                    .filter(|&i| self.card_of(s, me, i).kind == Kind::Counter)
                    .count();
                best_of(legal, |a| match a {
                    Action::Attack(id) => {
                        let c = card(id);
                        if c.kind == Kind::Counter && counters < 2 {
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
            Step::Choose => {
                let up = matches!(self.current_effect(s), Some(Effect::Power(_, v)) if v > 0);
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
    pub fn estimate(&self, s: &State, seat: Seat) -> f64 {
        if let Some(o) = s.winner {
            return o.score(seat);
        }
        let mine = f64::from(s.pl(seat).deck_len) + 1.0;
        let theirs = f64::from(s.pl(seat.other()).deck_len) + 1.0;
        let x = (mine - theirs) / 6.0;
        1.0 / (1.0 + (-x).exp())
    }
}
