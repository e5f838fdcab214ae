//! The text notation of Fire Force actions, shared by logs, scenarios and the human player, and
//! the labels of cards, Units and Flame cards that logs and views show. Cards on the Scene and in
//! THE ADOLLA are named with `#k` (the k-th of that card in its zone) when the zone holds several.

use super::cards::CardId;
use super::state::{Bits, Pick, State, Step, FLAME_BASE, NONE, PRAY};
use super::{Action, FireForceGame};
use crate::core::Seat;

impl FireForceGame {
    /// The name a card is shown by: its name, with its number when another card has that name.
    pub fn card_label(&self, id: CardId) -> String {
        let c = self.db.card(id);
        if self.db.cards.iter().filter(|o| o.name == c.name).count() > 1 {
            format!("{} [{}]", c.name, c.number)
        } else {
            c.name.clone()
        }
    }

    /// `q`'s instance `i` on the Scene or in THE ADOLLA: its label, with `#k` (the k-th of that
    /// card in its zone, by instance) when the zone holds several.
    pub fn card_ref(&self, s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        let zone = [p.scene, p.adolla, p.hand, p.flame_deck]
            .into_iter()
            .find(|z| z & 1 << i != 0)
            .unwrap_or(0);
        let id = p.card[i as usize];
        let same: Vec<u8> = Bits(zone).filter(|&j| p.card[j as usize] == id).collect();
        let label = self.card_label(id);
        if same.len() > 1 {
            let k = same.iter().position(|&j| j == i).unwrap_or(0) + 1;
            format!("{label}#{k}")
        } else {
            label
        }
    }

    /// Decision F-COST-3: a payment written with its cards in any order, each as the notation
    /// names it (`Flame Card#2`) or by its name alone (the lowest ready one not yet named), read
    /// as the legal payment it is equivalent to; `None` if it names no legal payment.
    fn parse_payment(&self, s: &State, text: &str) -> Option<Action> {
        use crate::core::input::norm;
        let me = s.chooser;
        let list = text.trim().strip_prefix("pay")?;
        let payers = self.ready_payers(s, me);
        let mut cards = 0u64;
        for name in list.split(',') {
            let want = norm(name);
            let i = Bits(payers & !cards)
                .find(|&i| norm(&self.card_ref(s, me, i)) == want)
                .or_else(|| {
                    Bits(payers & !cards)
                        .find(|&i| norm(&self.card_label(s.pl(me).card[i as usize])) == want)
                })?;
            cards |= 1 << i;
        }
        let a = Action::Pay(self.payment_of(s, me, cards)?);
        let mut legal = crate::core::ActionList::new();
        self.legal(s, &mut legal);
        legal.contains(&a).then_some(a)
    }

    /// The notation of an action (`docs/scenario.md`), as its chooser writes it.
    pub fn notation(&self, s: &State, a: Action) -> String {
        let me = s.chooser;
        let unit = |q: Seat, u: u8| self.card_ref(s, q, u);
        match a {
            Action::Pass if matches!(s.pick, Pick::May { .. }) => "no".into(),
            Action::Pass => "pass".into(),
            Action::Mode(k) => format!("option {}", k + 1),
            Action::Card(id) => format!("choose {}", self.card_label(id)),
            Action::Yes => "yes".into(),
            Action::Keep => "keep".into(),
            Action::Redraw => "redraw".into(),
            Action::Flame(id) => format!("flame {}", self.card_label(id)),
            Action::Dispatch(id) => format!("dispatch {}", self.card_label(id)),
            Action::Play(id) => format!("play {}", self.card_label(id)),
            Action::React(id) => format!("react {}", self.card_label(id)),
            Action::Support(id) => format!("support {}", self.card_label(id)),
            Action::Activate(u, PRAY) => format!("pray {}", unit(me, u)),
            Action::Activate(u, k) => format!("activate {} ability {}", unit(me, u), k + 1),
            Action::Attack(u) => format!("attack with {}", unit(me, u)),
            Action::Target(NONE) => "target player".into(),
            Action::Target(u) => format!("target {}", unit(me.other(), u)),
            Action::Block(u) => format!("block with {}", unit(me, u)),
            Action::UseTrigger => "use trigger".into(),
            Action::End => "end".into(),
            Action::Pay(m) => {
                let cards: Vec<String> = Bits(self.payment_cards(s, me, m))
                    .map(|i| self.card_ref(s, me, i))
                    .collect();
                format!("pay {}", cards.join(", "))
            }
            Action::Pick(code) => {
                let q = Seat::ALL[usize::from(code >= 64)];
                let i = code % 64;
                match s.pick {
                    Pick::Limit => format!("limit {}", unit(q, i)),
                    Pick::Link => format!("link {}", unit(q, i)),
                    _ => format!(
                        "choose {} {}",
                        if q == me { "own" } else { "enemy" },
                        unit(q, i)
                    ),
                }
            }
        }
    }

    pub fn step_label(s: &State) -> &'static str {
        match s.pick {
            Pick::Unit { .. } => return "choose",
            Pick::Flame { .. } => return "flame",
            Pick::Limit => return "limit",
            Pick::Link => return "link",
            Pick::Cards { .. } => return "choose card",
            Pick::Mode { .. } => return "option",
            Pick::Name => return "name",
            Pick::May { .. } => return "may",
            Pick::Pay { .. } => return "pay",
            Pick::None => {}
        }
        match s.step {
            Step::Redraw => "redraw",
            Step::SetupFlame => "setup flame",
            Step::PrepFlame => "prep flame",
            Step::Main => "main",
            Step::Target => "target",
            Step::Attacking => "attacking",
            Step::Block => "block",
            Step::Reaction => "reaction",
            Step::Support => "support",
            Step::Damage => "damage",
            Step::LifeTrigger => "life trigger",
            Step::BattleEnd | Step::BattleOver => "battle end",
            Step::End => "end",
            Step::Over => "over",
        }
    }

    pub fn sorted_names(&self, s: &State, q: Seat, m: u64) -> Vec<String> {
        let mut v: Vec<String> = Bits(m)
            .map(|i| self.card_label(s.pl(q).card[i as usize]))
            .collect();
        v.sort();
        v
    }

    /// A Unit as a log or view shows it: name, power, state.
    pub fn unit_label(&self, s: &State, q: Seat, u: u8) -> String {
        let p = s.pl(q);
        let mut t = format!("{} {}", self.card_ref(s, q, u), self.power(s, q, u));
        if p.exhausted & 1 << u != 0 {
            t.push_str(" exhausted");
        }
        if p.is_given(u) {
            t.push_str(" +Flame");
        }
        t
    }

    pub fn flame_label(&self, s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        let mut t = self.card_ref(s, q, i);
        if p.as_flame & 1 << i != 0 {
            t.push_str(" (face down)");
        }
        if p.exhausted & 1 << i != 0 {
            t.push_str(" exhausted");
        }
        if i as usize >= FLAME_BASE {
            let g = p.given_to[i as usize - FLAME_BASE];
            if g != NONE {
                t.push_str(&format!(" given to {}", self.card_ref(s, q, g)));
            }
        }
        t
    }

    pub fn parse_action(&self, s: &State, text: &str) -> Result<Action, crate::core::Reason> {
        match crate::core::def::action_by_text(self, s, text) {
            Err(e) if matches!(s.pick, Pick::Pay { .. }) => self.parse_payment(s, text).ok_or(e),
            r => r,
        }
    }
}
