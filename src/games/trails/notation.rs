//! The text notation of actions, shared by logs, scenarios and the human player. Cards in hand or
//! homebase are named by name; cards on the field by name, with `#k` (the k-th of that name in its
//! zone, by instance order) when the player has several. In the homebase, face-up and face-down
//! cards are numbered apart (T-INFO-5: a face-up card's label must not tell the opponent that a
//! face-down copy lies beside it).

use super::action::Action;
use super::engine::TrailsGame;
use super::state::{flag, Bits, Lid, Pending, State, Step};
use crate::core::Seat;

impl TrailsGame {
    /// The name a card is shown by: the bare name when it is unique in the database.
    pub fn card_name(&self, id: Lid) -> String {
        let c = self.card(id);
        if self.db.cards.iter().filter(|o| o.name == c.name).count() > 1 {
            c.full_name()
        } else {
            c.name.clone()
        }
    }

    /// `q`'s instance `i`, named within its zone (`Name` or `Name#k`).
    pub fn card_ref(&self, s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        let bit = 1u64 << i;
        let zone = [p.field, p.homebase, p.hand, p.trail]
            .into_iter()
            .find(|z| z & bit != 0)
            .unwrap_or(0);
        let id = p.card[i as usize];
        // Numbered among the cards of its zone that the same players see (T-INFO-5).
        let up = |j: u8| zone == p.homebase && p.has(j, flag::FACE_UP);
        let same: Vec<u8> = Bits(zone)
            .filter(|&j| p.card[j as usize] == id && up(j) == up(i))
            .collect();
        let name = self.card_name(id);
        if same.len() > 1 {
            let k = same.iter().position(|&j| j == i).unwrap_or(0) + 1;
            format!("{name}#{k}")
        } else {
            name
        }
    }

    /// The text of an action in the current state. With `hide`, the identity of a card that
    /// the other player would not see is replaced by "a card".
    pub fn action_text_for(&self, s: &State, a: Action, hide: bool) -> String {
        let me = s.chooser().unwrap_or(s.actor);
        let hidden = |id: Lid| {
            if hide {
                "a card".to_string()
            } else {
                self.card_name(id)
            }
        };
        match a {
            Action::Mode(k) if matches!(s.pending, Pending::Orgs { .. }) => format!(
                "organization {}",
                self.db
                    .org_names
                    .get(k as usize)
                    .map_or("?", |n| n.as_str())
            ),
            Action::Mode(k) => format!("option {}", k + 1),
            Action::Yes => "yes".into(),
            Action::Pass => match (s.pending, s.step) {
                (Pending::DispatchPut, _) => "skip".into(),
                (Pending::May { .. }, _) => "no".into(),
                (Pending::Pick { .. }, _) => "done".into(),
                (_, Step::Mulligan) => "keep".into(),
                (_, Step::Homebase) => "skip".into(),
                (_, Step::Deploy) => "end".into(),
                (_, Step::Cure) => "no cure".into(),
                _ => "pass".into(),
            },
            Action::Mulligan(id) => format!("mulligan {}", hidden(id)),
            Action::Homebase(id) => format!("homebase {}", hidden(id)),
            Action::Deploy(id) => format!("deploy {}", self.card_name(id)),
            Action::Dispatch(id) => format!("dispatch {}", self.card_name(id)),
            Action::DispatchPut(id) => format!("put {}", hidden(id)),
            Action::Event {
                card,
                from_homebase,
            } => format!(
                "event {}{}",
                self.card_name(card),
                if from_homebase { " from homebase" } else { "" }
            ),
            Action::Arts {
                card,
                from_homebase,
            } => format!(
                "arts {}{}",
                self.card_name(card),
                if from_homebase { " from homebase" } else { "" }
            ),
            Action::Base(id) => format!("base {}", self.card_name(id)),
            Action::Craft { inst, ability } => {
                let c = self.card(s.pl(me).card[inst as usize]);
                let acts: Vec<usize> = c
                    .abilities
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.trigger == super::cards::Trigger::Act)
                    .map(|(k, _)| k)
                    .collect();
                let r = self.card_ref(s, me, inst);
                if acts.len() > 1 {
                    let n = acts
                        .iter()
                        .position(|&k| k == ability as usize)
                        .unwrap_or(0)
                        + 1;
                    format!("craft {r} {n}")
                } else {
                    format!("craft {r}")
                }
            }
            Action::Attack(i) => format!("attack {}", self.card_ref(s, me, i)),
            Action::Join(i) => format!("join {}", self.card_ref(s, me, i)),
            Action::TargetUnit(i) => format!("target {}", self.card_ref(s, me.other(), i)),
            Action::TargetPlayer => "target player".into(),
            Action::Support(i) => format!("support with {}", self.card_ref(s, me, i)),
            Action::FightBack(i) => format!("fight back {}", self.card_ref(s, me.other(), i)),
            Action::Cure(i) => format!("cure {}", self.card_ref(s, me, i)),
            Action::Choose { seat, inst } => {
                format!("choose {seat} {}", self.card_ref(s, seat, inst))
            }
            Action::Pick { seat, card, up } => format!(
                "choose {seat} {}{}",
                if up { "face-up " } else { "" },
                if seat == me {
                    hidden(card)
                } else {
                    self.card_name(card)
                }
            ),
            Action::PlanTop(id) => format!("plan top {}", hidden(id)),
            Action::PlanBottom(id) => format!("plan bottom {}", hidden(id)),
            Action::Rebuild { card, face_up } => format!(
                "rebuild {}{}",
                if face_up { "face-up " } else { "" },
                self.card_name(card)
            ),
        }
    }

    /// Whether the action names a card the opponent does not see.
    pub fn action_hides_card(&self, a: Action) -> bool {
        matches!(
            a,
            Action::Mulligan(_)
                | Action::Homebase(_)
                | Action::DispatchPut(_)
                | Action::PlanTop(_)
                | Action::PlanBottom(_)
        )
    }

    /// Finds the legal action whose text is `text` (case and spacing ignored; `pass` stands for
    /// any passing action). Errors list the legal actions.
    pub fn parse_action(&self, s: &State, text: &str) -> Result<Action, crate::core::Reason> {
        let norm = |t: &str| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let want = norm(text);
        let mut list = crate::core::ActionList::new();
        self.legal(s, &mut list);
        for &a in list.iter() {
            if norm(&self.action_text_for(s, a, false)) == want
                || (want == "pass" && a == Action::Pass)
            {
                return Ok(a);
            }
        }
        Err(crate::core::Reason(format!(
            "\"{}\" is not a legal action here; legal: {}",
            crate::core::input::excerpt(text),
            self.legal_texts(s).join(" | ")
        )))
    }

    pub fn legal_texts(&self, s: &State) -> Vec<String> {
        let mut list = crate::core::ActionList::new();
        self.legal(s, &mut list);
        list.iter()
            .map(|&a| self.action_text_for(s, a, false))
            .collect()
    }

    /// Marks for a card's state, as used in scenario files and views.
    pub fn state_marks(&self, s: &State, q: Seat, i: u8) -> Vec<&'static str> {
        let p = s.pl(q);
        let mut m = Vec::new();
        if p.has(i, flag::STUNNED) {
            m.push("stunned");
        } else if p.has(i, flag::ACTIONED) {
            m.push("actioned");
        }
        if p.homebase & (1 << i) != 0 && p.has(i, flag::FACE_UP) {
            m.push("up");
        }
        if p.has(i, flag::SUPPORTED) {
            m.push("supported");
        }
        if p.has(i, flag::ATTACKED) {
            m.push("attacked");
        }
        m
    }
}
