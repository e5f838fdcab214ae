//! The legal actions of the decision awaited: `pass` first where passing is allowed, then card
//! ids in increasing order (the engine's order, `docs/scenario.md`).

use super::super::cards::Effect;
use super::super::Action;
use super::{for_ids, TmntGame};
use crate::core::ActionList;
use crate::games::tmnt::state::*;

impl TmntGame {
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear_scratch();
        if s.step == Step::Set {
            // M-SET-3: `each_legal`'s Set arm, the most frequent decision, apart from the
            // whole match (whose frame costs more than this arm).
            let q = s.chooser;
            for_ids!(Self::ids_of(s, q, s.pl(q).hand), |id| {
                out.push(Action::Set(id));
            });
            return;
        }
        self.legal_other(s, out);
    }

    #[inline(never)]
    fn legal_other(&self, s: &State, out: &mut ActionList<Action>) {
        self.each_legal(s, |a| {
            out.push(a);
            true
        });
    }

    /// A legal action and whether there is another (M-TURN-2), without a list: when it is the
    /// only one, the action; when there are more, the first one or another legal one.
    ///
    /// For the decision [`TmntGame::advance`] was just asked (`next` returned `true`): the steps
    /// that `stage` asks only when an action besides `pass` exists — Event, Attack and Counter
    /// in a card file of plain texts, Keep in every file (`hand_has`, `any_placeable`,
    /// `any_keepable`; else it takes them itself) — have two or more actions, and are not
    /// walked again.
    #[inline(always)]
    pub(super) fn single_legal(&self, s: &State) -> (Option<Action>, bool) {
        // M-SET-3, M-ADJ-4-2: one action per distinct card id in hand, so more than one as soon
        // as two cards of the hand differ (nearly always at the second card).
        if matches!(s.step, Step::Set | Step::Discard) {
            let p = s.pl(s.chooser);
            let mut hand = Bits(p.hand);
            if let Some(i) = hand.next() {
                let id = p.card[i as usize];
                let more = hand.any(|j| p.card[j as usize] != id);
                let a = if s.step == Step::Set {
                    Action::Set(id)
                } else {
                    Action::Discard(id)
                };
                return (Some(a), more);
            }
        }
        // M-EVT-1, M-ATK-3, M-ATK-7, M-ATK-13: asked by `stage` with an action besides `pass`.
        let asked_with_more = match s.step {
            Step::Keep => true,
            Step::Event | Step::Attack | Step::Counter => !self.db.sets.lang,
            _ => false,
        };
        if asked_with_more {
            // The precondition (only `stage` asks, and only with an action besides `pass`),
            // checked in every game of the tests' `ci` profile.
            debug_assert!(self.first_two(s).1, "{:?} asked with pass alone", s.step);
            return (Some(Action::Pass), true);
        }
        self.first_two(s)
    }

    /// [`TmntGame::single_legal`] by the walk of the legal actions, stopping at the second.
    /// Out of line: inlined, its steps' card-id sets (`play_events`, `items`, `attacks`,
    /// `counters`, read by value) were copied onto the stack at every entry of `advance_in`,
    /// whose loop it is in (the compiler hoists the loads out of the loop), some 16
    /// instructions a decision for walks made in few of them (Item, Pay, the texts' steps).
    #[inline(never)]
    fn first_two(&self, s: &State) -> (Option<Action>, bool) {
        let (mut first, mut more) = (None, false);
        self.each_legal(s, |a| {
            if first.is_none() {
                first = Some(a);
                true
            } else {
                more = true;
                false
            }
        });
        (first, more)
    }

    /// Calls `f` with each legal action in the engine's order until it returns `false`.
    #[inline(always)]
    pub fn each_legal(&self, s: &State, mut f: impl FnMut(Action) -> bool) {
        macro_rules! emit {
            ($a:expr) => {
                if !f($a) {
                    return;
                }
            };
        }
        let q = s.chooser;
        let p = s.pl(q);
        match s.step {
            Step::Over => {}
            // M-ADJ-4, M-ADJ-4-2: any card of the hand, by id, in any order.
            Step::Discard => {
                for_ids!(Self::ids_of(s, q, p.hand), |id| {
                    emit!(Action::Discard(id));
                });
            }
            // M-SET-3: any card, by id.
            Step::Set => {
                for_ids!(Self::ids_of(s, q, p.hand), |id| {
                    emit!(Action::Set(id));
                });
            }
            // M-EVT-1, M-EVT-2: a <Play> or <Play & Flip> Event.
            Step::Event => {
                emit!(Action::Pass);
                let ids = Self::ids_of(s, q, p.hand).and(&self.db.sets.play_events);
                let lang = self.db.sets.lang;
                for_ids!(ids, |id| {
                    if !lang || self.may_place(s, q, id) {
                        emit!(Action::Event(id));
                    }
                });
            }
            // M-ITM-1, M-ITM-2: an Item with another card of its attribute in hand.
            Step::Item => {
                emit!(Action::Pass);
                let items = Self::ids_of(s, q, p.hand).and(&self.db.sets.items);
                let lang = self.db.sets.lang;
                for_ids!(items, |id| {
                    if lang {
                        // M-ITM-4, M-ITM-5, M-BAN-1.
                        if self.may_place(s, q, id) && self.item_payable(s, q, id) {
                            emit!(Action::Item(id));
                        }
                        continue;
                    }
                    let attr = self.db.card(id).attr;
                    let same = Bits(p.hand)
                        .filter(|&i| self.db.card(p.card[i as usize]).attr == attr)
                        .count();
                    if same >= 2 {
                        emit!(Action::Item(id));
                    }
                });
            }
            Step::Pay => {
                let id = p.card[s.item as usize];
                let hand = p.hand & !(1 << s.item);
                if self.db.sets.lang {
                    // M-ITM-4: a free Item needs no discard.
                    if p.fx.rules & fx::FREE_ITEM != 0 && p.fx.rules & fx::FREE_USED == 0 {
                        emit!(Action::Pass);
                    }
                    for_ids!(self.pay_ids(s, q, id, hand), |id| {
                        emit!(Action::Pay(id));
                    });
                    return;
                }
                let attr = self.card_of(s, q, s.item).attr;
                let ids = Self::ids_of(s, q, hand).and(&self.db.sets.attrs[usize::from(attr)]);
                for_ids!(ids, |id| {
                    emit!(Action::Pay(id));
                });
            }
            // M-ATK-3, M-ATK-4, M-ATK-6.
            Step::Attack => {
                emit!(Action::Pass);
                let ids = Self::ids_of(s, q, p.hand).and(&self.db.sets.attacks);
                let lang = self.db.sets.lang;
                for_ids!(ids, |id| {
                    // M-BAN-1, M-EFFECTS-9: the card language's rules of placing.
                    if self.placeable(s, q, id) && (!lang || self.may_place(s, q, id)) {
                        emit!(Action::Attack(id));
                    }
                });
            }
            // M-ATK-7: a Counter or Forceful Counter Attack card.
            Step::Counter => {
                emit!(Action::Pass);
                let ids = Self::ids_of(s, q, p.hand).and(&self.db.sets.counters);
                let lang = self.db.sets.lang;
                for_ids!(ids, |id| {
                    if !lang || self.may_place(s, q, id) {
                        emit!(Action::Counter(id));
                    }
                });
            }
            // M-ATK-13, M-ATK-15.
            Step::Keep => {
                emit!(Action::Pass);
                for z in 0..ZONES {
                    let i = p.block[z];
                    if !self.keepable(s, q, i) {
                        continue;
                    }
                    // The same card id lower, with no face-down card between: the same result.
                    let mut twin = false;
                    for y in (0..z).rev() {
                        let j = p.block[y];
                        if j == NONE {
                            continue;
                        }
                        if p.up & (1 << j) == 0 {
                            break;
                        }
                        if p.card[j as usize] == p.card[i as usize] {
                            twin = true;
                            break;
                        }
                    }
                    if !twin {
                        emit!(Action::Keep(z as u8));
                    }
                }
            }
            // M-EFFECTS-2.
            Step::Order => {
                for_ids!(Self::ids_of(s, q, s.pending[q.index()]), |id| {
                    emit!(Action::Order(id));
                });
            }
            Step::Choose => {
                if let Pick::Choose { mask, opt } = s.pick {
                    if opt {
                        emit!(Action::Pass);
                    }
                    for (k, m) in mask.iter().enumerate() {
                        for i in Bits(*m) {
                            emit!(Action::Choose((k as u8) << 6 | i));
                        }
                    }
                }
            }
            // M-EFFECTS-10.
            Step::Mode => {
                if let Pick::Mode { n } = s.pick {
                    for k in 0..n {
                        emit!(Action::Mode(k));
                    }
                }
            }
            Step::May => {
                emit!(Action::Pass);
                emit!(Action::Yes);
            }
            Step::Take => {
                if let Pick::Take {
                    seat, mask, opt, ..
                } = s.pick
                {
                    if opt {
                        emit!(Action::Pass);
                    }
                    let owner = crate::core::Seat::from_index(usize::from(seat));
                    for_ids!(Self::ids_of(s, owner, mask), |id| {
                        emit!(Action::Take(id));
                    });
                }
            }
            Step::Arrange => {
                for_ids!(Self::arrange_ids(s, q), |id| {
                    emit!(Action::Top(id));
                });
            }
            // M-ACT-1.
            Step::Activate => {
                emit!(Action::Pass);
                for_ids!(self.activatable(s, q), |id| {
                    emit!(Action::Activate(id));
                });
            }
            Step::Salvage => {
                if let Some(Effect::Salvage(f)) = self.current_effect(s) {
                    for_ids!(self.salvage_ids(s, q, &f), |id| {
                        emit!(Action::Salvage(id));
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// M-ADJ-4, M-ADJ-4-2: every distinct card id of the hand, by a walk of the hand per id
    /// (whatever was discarded before and however many discards are left).
    fn reference_discards(s: &State) -> Vec<Action> {
        let p = s.pl(s.chooser);
        (0..=255u8)
            .filter(|&id| Bits(p.hand).any(|i| p.card[i as usize] == id))
            .map(Action::Discard)
            .collect()
    }

    /// Random games of every pair of bundled decks (and determinizations of their positions):
    /// at every Discard step, and at made-up ones (every hand, every count of discards left),
    /// the list is every card id of the hand, in increasing id (M-ADJ-4-2: no floor).
    #[test]
    fn discards_offer_every_card_id_of_the_hand() {
        let (mut real, mut made) = (0usize, 0usize);
        let mut list = ActionList::new();
        super::super::walk_bundled_positions(23, 4, 29, |g, states, rng| {
            for mut t in states {
                if t.step == Step::Discard {
                    real += 1;
                } else if t.pl(t.chooser).hand != 0 {
                    // A Discard step made up from this hand.
                    t.step = Step::Discard;
                    t.discards = rng.gen_range(0..=t.pl(t.chooser).hand.count_ones() as u8 + 1);
                    made += 1;
                } else {
                    continue;
                }
                g.legal(&t, &mut list);
                assert_eq!(list.as_slice(), reference_discards(&t).as_slice());
            }
        });
        assert!(real > 300 && made > 5_000, "{real} {made}");
    }
}
