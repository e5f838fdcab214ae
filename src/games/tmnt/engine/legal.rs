//! The legal actions of the decision awaited: `pass` first where passing is allowed, then card
//! ids in increasing order (the engine's order, `docs/scenario.md`).

use super::super::cards::{CardType, Effect};
use super::super::Action;
use super::{for_ids, TmntGame};
use crate::core::ActionList;
use crate::games::tmnt::state::*;

impl TmntGame {
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear_scratch();
        self.each_legal(s, |a| {
            out.push(a);
            true
        });
    }

    /// A legal action and whether there is another (M-TURN-2), without a list: when it is the
    /// only one, the action; when there are more, the first one or another legal one.
    pub fn single_legal(&self, s: &State) -> (Option<Action>, bool) {
        if s.step == Step::Set {
            // M-SET-3: one action per distinct card id in hand, so more than one as soon as two
            // cards of the hand differ (nearly always at the second card).
            let p = s.pl(s.chooser);
            let mut hand = Bits(p.hand);
            if let Some(i) = hand.next() {
                let id = p.card[i as usize];
                let more = hand.any(|j| p.card[j as usize] != id);
                return (Some(Action::Set(id)), more);
            }
        }
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
            // M-ADJ-4: discarded ids never decrease, so an id is offered only while enough
            // cards of it and higher ids remain for the discards left.
            Step::Discard => {
                let floor = s.discard_floor;
                let left = usize::from(s.discards);
                for_ids!(Self::ids_of(s, q, p.hand), |id| {
                    let enough = Bits(p.hand)
                        .filter(|&i| p.card[i as usize] >= id)
                        .count()
                        >= left;
                    if id >= floor && enough {
                        emit!(Action::Discard(id));
                    }
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
                for_ids!(ids, |id| {
                    emit!(Action::Event(id));
                });
            }
            // M-ITM-1, M-ITM-2: an Item with another card of its attribute in hand.
            Step::Item => {
                emit!(Action::Pass);
                let items = Self::ids_of(s, q, p.hand).and(&self.db.sets.items);
                for_ids!(items, |id| {
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
                let attr = self.card_of(s, q, s.item).attr;
                let hand = p.hand & !(1 << s.item);
                let ids = Self::ids_of(s, q, hand).and(&self.db.sets.attrs[usize::from(attr)]);
                for_ids!(ids, |id| {
                    emit!(Action::Pay(id));
                });
            }
            // M-ATK-3, M-ATK-4, M-ATK-6.
            Step::Attack => {
                emit!(Action::Pass);
                let ids = Self::ids_of(s, q, p.hand).and(&self.db.sets.attacks);
                for_ids!(ids, |id| {
                    if self.placeable(s, q, id) {
                        emit!(Action::Attack(id));
                    }
                });
            }
            // M-ATK-7: a Counter or Forceful Counter Attack card.
            Step::Counter => {
                emit!(Action::Pass);
                let ids = Self::ids_of(s, q, p.hand).and(&self.db.sets.counters);
                for_ids!(ids, |id| {
                    emit!(Action::Counter(id));
                });
            }
            // M-ATK-13, M-ATK-15.
            Step::Keep => {
                emit!(Action::Pass);
                for z in 0..ZONES {
                    let i = p.block[z];
                    if i == NONE
                        || p.up & (1 << i) == 0
                        || self.card_of(s, q, i).ctype != CardType::Character
                    {
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
                if let Pick::Choose { mask } = s.pick {
                    for (k, m) in mask.iter().enumerate() {
                        for i in Bits(*m) {
                            emit!(Action::Choose((k as u8) << 6 | i));
                        }
                    }
                }
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
