//! The legal actions of the decision awaited: `pass` first where passing is allowed, then card
//! ids in increasing order (the engine's order, `docs/scenario.md`).

use super::super::cards::{CardType, Effect, Kind};
use super::super::Action;
use super::TmntGame;
use crate::core::ActionList;
use crate::games::tmnt::state::*;

impl TmntGame {
    pub fn legal(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear();
        let q = s.chooser;
        let p = s.pl(q);
        match s.step {
            Step::Over => {}
            // M-ADJ-4: discarded ids never decrease, so an id is offered only while enough
            // cards of it and higher ids remain for the discards left.
            Step::Discard => {
                let floor = s.discard_floor;
                let left = usize::from(s.discards);
                for id in self.ids_in(s, q, p.hand, |_| true).ids() {
                    let enough = Bits(p.hand)
                        .filter(|&i| p.card[i as usize] >= id)
                        .count()
                        >= left;
                    if id >= floor && enough {
                        out.push(Action::Discard(id));
                    }
                }
            }
            // M-SET-3: any card, by id.
            Step::Set => {
                for id in self.ids_in(s, q, p.hand, |_| true).ids() {
                    out.push(Action::Set(id));
                }
            }
            // M-EVT-1, M-EVT-2: a <Play> or <Play & Flip> Event.
            Step::Event => {
                out.push(Action::Pass);
                let ids = self.ids_in(s, q, p.hand, |c| {
                    c.ctype == CardType::Event && matches!(c.kind, Kind::Play | Kind::PlayFlip)
                });
                for id in ids.ids() {
                    out.push(Action::Event(id));
                }
            }
            // M-ITM-1, M-ITM-2: an Item with another card of its attribute in hand.
            Step::Item => {
                out.push(Action::Pass);
                let items = self.ids_in(s, q, p.hand, |c| c.ctype == CardType::Item);
                for id in items.ids() {
                    let attr = self.db.card(id).attr;
                    let same = Bits(p.hand)
                        .filter(|&i| self.db.card(p.card[i as usize]).attr == attr)
                        .count();
                    if same >= 2 {
                        out.push(Action::Item(id));
                    }
                }
            }
            Step::Pay => {
                let attr = self.card_of(s, q, s.item).attr;
                let hand = p.hand & !(1 << s.item);
                for id in self.ids_in(s, q, hand, |c| c.attr == attr).ids() {
                    out.push(Action::Pay(id));
                }
            }
            // M-ATK-3, M-ATK-4, M-ATK-6.
            Step::Attack => {
                out.push(Action::Pass);
                for id in self.ids_in(s, q, p.hand, |c| c.ctype == CardType::Attack).ids() {
                    if self.placeable(s, q, id) {
                        out.push(Action::Attack(id));
                    }
                }
            }
            // M-ATK-7: a Counter or Forceful Counter Attack card.
            Step::Counter => {
                out.push(Action::Pass);
                let ids = self.ids_in(s, q, p.hand, |c| {
                    matches!(c.kind, Kind::Counter | Kind::ForcefulCounter)
                });
                for id in ids.ids() {
                    out.push(Action::Counter(id));
                }
            }
            // M-ATK-13, M-ATK-15.
            Step::Keep => {
                out.push(Action::Pass);
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
                        out.push(Action::Keep(z as u8));
                    }
                }
            }
            // M-EFFECTS-2.
            Step::Order => {
                for id in self.ids_in(s, q, s.pending[q.index()], |_| true).ids() {
                    out.push(Action::Order(id));
                }
            }
            Step::Choose => {
                if let Pick::Choose { mask } = s.pick {
                    for (k, m) in mask.iter().enumerate() {
                        for i in Bits(*m) {
                            out.push(Action::Choose((k as u8) << 6 | i));
                        }
                    }
                }
            }
            Step::Salvage => {
                if let Some(Effect::Salvage(f)) = self.current_effect(s) {
                    for id in self.salvage_ids(s, q, &f).ids() {
                        out.push(Action::Salvage(id));
                    }
                }
            }
        }
    }
}
