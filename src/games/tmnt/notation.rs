//! The text notation of TMNT actions (`docs/scenario.md`, "TMNT scenarios"), shared by logs,
//! scenarios and the human player, and the labels of cards, Block Zones and the Attack Zone that
//! logs and views show.

use super::cards::{CardId, CardType, Dest};
use super::state::{Bits, Pick, State, Step, NONE, ZONES};
use super::{Action, TmntGame};
use crate::core::Seat;

impl TmntGame {
    /// The name a card is shown by: its title, with its number when another card has that title.
    pub fn card_label(&self, id: CardId) -> String {
        let c = self.db.card(id);
        if self.db.cards.iter().filter(|o| o.title == c.title).count() > 1 {
            format!("{} [{}]", c.name, c.number)
        } else {
            c.name.clone()
        }
    }

    /// Where `q`'s instance `i` is on the field: `block K`, `attack zone` or `items`.
    fn place_of(s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        match p.block.iter().position(|&x| x == i) {
            Some(z) => format!("block {}", z + 1),
            None if p.items & (1 << i) != 0 => "items".into(),
            None => "attack zone".into(),
        }
    }

    /// The notation of an action (`docs/scenario.md`, "TMNT scenarios"), as its chooser writes
    /// it.
    pub fn notation(&self, s: &State, a: Action) -> String {
        let me = s.chooser;
        let l = |id: CardId| self.card_label(id);
        match a {
            Action::Pass if s.step == Step::May => "no".into(),
            Action::Pass => "pass".into(),
            Action::Discard(id) => format!("discard {}", l(id)),
            Action::Set(id) => format!("set {}", l(id)),
            Action::Event(id) => format!("event {}", l(id)),
            Action::Item(id) => format!("item {}", l(id)),
            Action::Pay(id) => format!("pay {}", l(id)),
            Action::Attack(id) => format!("attack {}", l(id)),
            Action::Counter(id) => format!("counter {}", l(id)),
            Action::Keep(z) => {
                let i = s.pl(me).block[z as usize];
                format!("keep {} in block {}", l(s.pl(me).card[i as usize]), z + 1)
            }
            Action::Order(id) => format!("order {}", l(id)),
            Action::Choose(code) => {
                let q = Seat::from_index(usize::from(code >> 6));
                let i = code & 63;
                // A face-down card the chooser does not know is named by its zone only.
                let name = if s.pl(q).known[me.index()] & (1 << i) != 0 {
                    l(s.pl(q).card[i as usize])
                } else {
                    "face-down card".into()
                };
                format!(
                    "choose {} {name} in {}",
                    if q == me { "own" } else { "enemy" },
                    Self::place_of(s, q, i)
                )
            }
            Action::Salvage(id) => format!("salvage {}", l(id)),
            Action::Mode(k) => format!("option {}", k + 1),
            Action::Yes => "yes".into(),
            Action::Take(id) => {
                let verb = match s.pick {
                    Pick::Take {
                        dest: Dest::Bottom, ..
                    } => "bottom",
                    Pick::Take {
                        dest: Dest::Top, ..
                    } => "top",
                    Pick::Take {
                        dest: Dest::Trash, ..
                    } => "trash",
                    Pick::Take {
                        dest: Dest::Zone1Up,
                        ..
                    } => "put",
                    _ => "take",
                };
                format!("{verb} {}", l(id))
            }
            Action::Top(id) => format!("top {}", l(id)),
            Action::Activate(id) => format!("activate {}", l(id)),
        }
    }

    pub fn sorted_names(&self, s: &State, q: Seat, m: u64) -> Vec<String> {
        let mut v: Vec<String> = Bits(m)
            .map(|i| self.card_label(s.pl(q).card[i as usize]))
            .collect();
        v.sort();
        v
    }

    /// A face-up card as logs and views show it: its label, with its power when it has one.
    pub fn up_label(&self, s: &State, q: Seat, i: u8) -> String {
        let c = self.card_of(s, q, i);
        let name = self.card_label(s.pl(q).card[i as usize]);
        if matches!(c.ctype, CardType::Character | CardType::Attack) {
            format!("{name} {}", self.power(s, q, i))
        } else {
            name
        }
    }

    /// Block Zones 1..4 as `docs/scenario.md` writes them; face-down cards by name only when
    /// `sees`.
    pub fn blocks_label(&self, s: &State, q: Seat, sees: bool) -> String {
        let p = s.pl(q);
        (0..ZONES)
            .map(|z| {
                let i = p.block[z];
                if i == NONE {
                    "empty".to_string()
                } else if p.up & (1 << i) != 0 {
                    self.up_label(s, q, i)
                } else if sees {
                    format!("(down) {}", self.card_label(p.card[i as usize]))
                } else {
                    "(down)".to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    pub fn attack_zone_label(&self, s: &State, q: Seat) -> String {
        let v: Vec<String> = s
            .pl(q)
            .attack_zone()
            .iter()
            .map(|&i| self.up_label(s, q, i))
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    }
}
