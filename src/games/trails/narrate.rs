//! Play-by-play text for logs: the action in the notation, then what it changed.

use super::action::Action;
use super::engine::TrailsGame;
use super::state::{flag, AttackTarget, Bits, State, Step};
use crate::core::Seat;

impl TrailsGame {
    /// Lines describing `action` by `seat` from `before` to `after`. Card identities the
    /// spectator cannot see are hidden unless `reveal`; `viewer` (a human's seat) sees its own.
    pub fn narrate(
        &self,
        before: &State,
        seat: Seat,
        action: Action,
        after: &State,
        reveal: bool,
        viewer: Option<Seat>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let sees = |q: Seat| reveal || viewer == Some(q);
        let hide = !sees(seat) && self.action_hides_card(action);
        let text = self.action_text_for(before, action, hide);
        let mut line = format!("{seat}: {text}");
        let mut notes = Vec::new();
        // T-PREP-1: a draw step ran after the action when the next player reaches the homebase
        // step; its draws get their own line, after any turn header.
        let draw_step = (after.step == Step::Homebase
            && (before.step != Step::Homebase || before.actor != after.actor))
            .then_some(after.actor);
        let mut draw_line = None;
        let mut bond_events: Option<Vec<super::engine::trace::BondEvent>> = None;
        let mut drawn_in_step = 0u8;
        for q in Seat::ALL {
            let (b, a) = (before.pl(q), after.pl(q));
            // Cards drawn: hand grew from the deck. Those the opponent now knows were shown on the
            // way (`search`, the card taken by `dig`): named for every viewer, and not "drawn".
            let moved = a.hand & !b.hand & b.deck_mask();
            let shown = moved & a.known[q.other().index()] & !b.known[q.other().index()];
            if shown != 0 {
                let names: Vec<String> = Bits(shown)
                    .map(|i| self.card_name(a.card[i as usize]))
                    .collect();
                notes.push(format!(
                    "{q} takes {} from its deck into its hand, shown",
                    names.join(", ")
                ));
            }
            let drawn = moved & !shown;
            if drawn != 0 {
                let names: Vec<String> = Bits(drawn)
                    .map(|i| self.card_name(a.card[i as usize]))
                    .collect();
                let note = if sees(q) {
                    format!("{q} draws {}", names.join(", "))
                } else {
                    format!("{q} draws {}", plural(names.len(), "card"))
                };
                if draw_step == Some(q) {
                    draw_line = Some(format!("{note} (draw step)"));
                    drawn_in_step = drawn.count_ones() as u8;
                } else {
                    notes.push(note);
                }
            }
            for i in Bits(a.field) {
                if a.has(i, flag::STUNNED) && !b.has(i, flag::STUNNED) && b.field & (1 << i) != 0 {
                    notes.push(format!(
                        "{q}'s {} is stunned ({} stun damage)",
                        self.card_ref(after, q, i),
                        self.card(a.card[i as usize]).cost
                    ));
                }
                let (ds, dd) = (
                    a.str_mod[i as usize] - b.str_mod[i as usize],
                    a.def_mod[i as usize] - b.def_mod[i as usize],
                );
                if b.field & (1 << i) != 0 && (ds != 0 || dd != 0) && after.turn == before.turn {
                    notes.push(format!(
                        "{q}'s {} gets {ds:+}/{dd:+} until end of turn",
                        self.card_ref(after, q, i)
                    ));
                }
                let gained = a.icons_eot[i as usize].0 & !b.icons_eot[i as usize].0;
                if gained != 0 && b.field & (1 << i) != 0 {
                    let names: Vec<&str> = super::cards::Icons(gained).names().collect();
                    notes.push(format!(
                        "{q}'s {} gains [{}] until end of turn",
                        self.card_ref(after, q, i),
                        names.join(", ")
                    ));
                }
                if a.has(i, flag::SUPPORTED) && !b.has(i, flag::SUPPORTED) {
                    notes.push(format!("{q}'s {} has support", self.card_ref(after, q, i)));
                }
                if b.has(i, flag::STUNNED) && !a.has(i, flag::STUNNED) {
                    notes.push(format!("{q}'s {} is cured", self.card_ref(after, q, i)));
                }
            }
            for i in Bits(a.trail & !b.trail) {
                let from = if b.field & (1 << i) != 0 {
                    "field"
                } else if b.homebase & (1 << i) != 0 {
                    "homebase"
                } else {
                    "hand"
                };
                if from != "hand" || !matches!(action, Action::Event { .. } | Action::Arts { .. }) {
                    notes.push(format!(
                        "{q}'s {} goes from the {from} to the trail",
                        self.card_name(a.card[i as usize])
                    ));
                }
            }
            for i in Bits(a.hand & b.field) {
                notes.push(format!(
                    "{q}'s {} returns to hand",
                    self.card_name(a.card[i as usize])
                ));
            }
            let new_hb = a.homebase & !b.homebase & b.deck_mask();
            if new_hb != 0 {
                notes.push(format!(
                    "{q} puts {} from the deck into the homebase",
                    plural(new_hb.count_ones() as usize, "card")
                ));
            }
            if a.bond != b.bond {
                // Every bond change with its cause: the action played again with the engine's
                // trace on (engine/trace.rs).
                let events = bond_events.get_or_insert_with(|| {
                    super::engine::trace::traced(|| {
                        let mut t = *before;
                        self.play(&mut t, action);
                    })
                });
                let causes: Vec<String> = events
                    .iter()
                    .filter(|(who, _, _)| *who == q)
                    .map(|&(_, cause, delta)| self.bond_cause(cause, delta))
                    .collect();
                notes.push(format!(
                    "{q} bond {} → {} ({})",
                    b.bond,
                    a.bond,
                    causes.join(", ")
                ));
            }
        }
        // Decision T-REPL-2: the attack now goes against another UNIT.
        if let (AttackTarget::Unit(x), AttackTarget::Unit(y)) =
            (before.combat.target, after.combat.target)
        {
            if x != y && before.combat.attacker == after.combat.attacker {
                let q = after.combat.attacker.other();
                notes.push(format!(
                    "{q}'s {} becomes the defending unit",
                    self.card_ref(after, q, y)
                ));
            }
        }
        if before.pending != after.pending {
            if let super::state::Pending::Plan { left, .. } = after.pending {
                if before.pending == super::state::Pending::None {
                    notes.push(format!(
                        "{} looks at the top {}",
                        after.queue[0].controller(),
                        plural(left as usize, "card")
                    ));
                }
            }
        }
        if !notes.is_empty() {
            // The last pass of a window resolves the attack (T-COMBAT-3).
            line.push_str(
                if before.step == Step::Window && after.step != Step::Window {
                    " — attack resolves: "
                } else {
                    " — "
                },
            );
            line.push_str(&notes.join("; "));
        }
        out.push(line);
        let started = before.step == Step::Mulligan && after.step != Step::Mulligan;
        if (after.turn != before.turn || started) && after.winner.is_none() {
            // The header shows the turn as it starts, before the draw step's cards.
            out.push(self.turn_header_before_draw(after, draw_step.map(|q| (q, drawn_in_step))));
        }
        out.extend(draw_line);
        if before.step != Step::Propose
            && after.step == Step::Propose
            && after.combat.passes.passes() == 0
            && before.step == Step::Deploy
        {
            out.push("-- combat phase --".into());
        }
        if before.step != Step::Cure && after.step == Step::Cure {
            out.push("-- cure phase --".into());
        }
        out
    }

    /// One cause of a bond change, as the log says it: `overkill -3`, `attack -5`,
    /// `stun damage -2 (Jaeger Scout)`, `Syndicate Courier's effect -2`.
    fn bond_cause(&self, cause: super::engine::trace::BondCause, delta: i16) -> String {
        use super::engine::trace::BondCause;
        match cause {
            BondCause::StunDamage { unit } => {
                format!("stun damage {delta:+} ({})", self.card_name(unit))
            }
            BondCause::Overkill => format!("overkill {delta:+}"),
            BondCause::Attack => format!("attack {delta:+}"),
            BondCause::Effect { card } => format!("{}'s effect {delta:+}", self.card_name(card)),
        }
    }

    /// The header of a turn: bonds, then each player's field and homebase size.
    pub fn turn_header(&self, s: &State) -> String {
        self.turn_header_before_draw(s, None)
    }

    /// The header of `s`, counting `drawn` cards of that player as still in the deck.
    fn turn_header_before_draw(&self, s: &State, drawn: Option<(Seat, u8)>) -> String {
        let mut h = format!(
            "== Turn {} (initiative {}) — bond P1 {}, P2 {} ==",
            s.turn, s.initiative, s.p[0].bond, s.p[1].bond
        );
        for q in Seat::ALL {
            let p = s.pl(q);
            let field: Vec<String> = Bits(p.field)
                .map(|i| {
                    let c = self.card(p.card[i as usize]);
                    if c.ctype == super::cards::CardType::Unit {
                        let (st, df) = self.stats(s, q, i);
                        format!("{} {st}/{df}", self.card_ref(s, q, i))
                    } else {
                        self.card_ref(s, q, i)
                    }
                })
                .collect();
            let up = Bits(p.homebase)
                .filter(|&i| p.has(i, flag::FACE_UP))
                .count();
            let back = match drawn {
                Some((d, n)) if d == q => u32::from(n),
                _ => 0,
            };
            h.push_str(&format!(
                "\n   {q}: homebase {} ({up} face up), hand {}, deck {}; field: {}",
                p.homebase.count_ones(),
                p.hand.count_ones() - back,
                u32::from(p.deck_len) + back,
                if field.is_empty() {
                    "—".to_string()
                } else {
                    field.join(", ")
                }
            ));
        }
        h
    }
}

fn plural(n: usize, w: &str) -> String {
    if n == 1 {
        format!("1 {w}")
    } else {
        format!("{n} {w}s")
    }
}
