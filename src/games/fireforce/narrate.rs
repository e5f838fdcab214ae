//! Play-by-play text for Fire Force logs: the action in the notation, then what it changed, as
//! the viewer may see it (F-INFO).

use super::state::{Bits, Pick, State, Step, FLAME_MASK, NONE};
use super::{Action, FireForceGame};
use crate::core::def::{GameDef, Viewer};
use crate::core::Seat;
use std::fmt::Write as _;

impl FireForceGame {
    /// The log lines of `seat`'s action `a` from `before` to `after`, for `viewer`.
    pub fn narrate(
        &self,
        before: &State,
        seat: Seat,
        a: Action,
        after: &State,
        viewer: Viewer,
    ) -> Vec<String> {
        let mut head = format!("{seat}: {}", self.notation(before, a));
        match a {
            Action::Target(t) => {
                let att = before.battle.attacker;
                let _ = write!(
                    head,
                    " — {} ({}) attacks {}",
                    self.card_ref(before, seat, att),
                    self.power(before, seat, att),
                    if t == NONE {
                        format!(
                            "{} (Life {})",
                            seat.other(),
                            before.pl(seat.other()).life_len
                        )
                    } else {
                        format!(
                            "{}'s {} ({})",
                            seat.other(),
                            self.card_ref(before, seat.other(), t),
                            self.power(before, seat.other(), t)
                        )
                    }
                );
            }
            Action::Block(u) => {
                let _ = write!(
                    head,
                    " (power {}) — it becomes the target",
                    self.power(before, seat, u)
                );
                // The battle may end within this action (nothing more to decide): say how.
                let att = before.battle.attacker;
                let over = after.battle.attacker == NONE && after.step != Step::Over;
                if over
                    && after.pl(seat).units() & 1 << u != 0
                    && after.pl(before.active).units() & 1 << att != 0
                {
                    let mut out = vec![head];
                    out.push(format!(
                        "  {seat}'s {} holds against {}: nothing happens (F-BAT-7)",
                        self.card_ref(after, seat, u),
                        self.card_ref(after, before.active, att)
                    ));
                    out.extend(self.changes(before, after, viewer));
                    return out;
                }
            }
            Action::Support(id) => {
                let t = before.battle.target;
                let _ = write!(
                    head,
                    " — +{} to {} (power {})",
                    self.db.card(id).support,
                    self.card_ref(before, seat, t),
                    self.power(before, seat, t) + i32::from(self.db.card(id).support)
                );
            }
            Action::UseTrigger => {
                let _ = write!(
                    head,
                    " of {}: {}",
                    self.card_label(before.pl(seat).card[before.battle.revealed as usize]),
                    self.card_of(before, seat, before.battle.revealed)
                        .trigger_text
                );
            }
            Action::Redraw => {
                let p = after.pl(seat);
                let _ = write!(
                    head,
                    " — the hand goes back, the deck is shuffled, 5 drawn (F-SETUP-2)"
                );
                if viewer.sees(seat) {
                    let _ = write!(
                        head,
                        ": {}",
                        self.sorted_names(after, seat, p.hand).join(", ")
                    );
                }
                let mut out = vec![head];
                out.extend(
                    self.changes(before, after, viewer)
                        .into_iter()
                        .filter(|l| !l.contains(" draws ")),
                );
                return out;
            }
            _ => {}
        }
        // F-INFO-4: the attacked player is asked to react or support only when its hand holds a
        // card it could play (F-BAT-10), so its pass there says so; a viewer who does not see
        // that hand is not told of the pass.
        let hidden_pass = a == Action::Pass
            && matches!(before.step, Step::Reaction | Step::Support)
            && !viewer.sees(seat);
        let mut out = if hidden_pass { Vec::new() } else { vec![head] };
        out.extend(self.changes(before, after, viewer));
        out
    }

    /// What the engine did between two decisions, as log lines for `viewer`.
    fn changes(&self, before: &State, after: &State, viewer: Viewer) -> Vec<String> {
        // A new turn's header comes after what the turn before did and before what the new turn
        // player's preparation did (its draw, its Flame card).
        let new_turn = after.turn != before.turn;
        let mut out = Vec::new();
        let mut next = Vec::new();
        for q in Seat::ALL {
            let out = if new_turn && q == after.active {
                &mut next
            } else {
                &mut out
            };
            let (b, a) = (before.pl(q), after.pl(q));
            for u in Bits(b.units() & !a.scene) {
                let name = self.card_ref(before, q, u);
                if a.hand & 1 << u != 0 {
                    out.push(format!("  {q}'s {name} returns to its hand"));
                } else if after.removed[q.index()] & 1 << u != 0
                    || self.removed_now(before, after, q, u)
                {
                    out.push(format!("  {q}'s {name} is removed into THE ADOLLA"));
                } else {
                    out.push(format!("  {q}'s {name} goes into THE ADOLLA"));
                }
            }
            if a.life_len < b.life_len && a.adolla & !b.adolla != 0 {
                for i in Bits(a.adolla & !b.adolla & b.life_mask()) {
                    out.push(format!(
                        "  {q} reveals the Life card {} into THE ADOLLA ({} Life left)",
                        self.card_label(a.card[i as usize]),
                        a.life_len
                    ));
                }
            }
            // Cards the opponent now knows were shown on the way (`search`, the card taken by
            // `dig`): named for every viewer, and not "drawn".
            let moved = a.hand & !b.hand & b.deck_mask();
            let shown = moved & a.known[q.other().index()] & !b.known[q.other().index()];
            if shown != 0 {
                out.push(format!(
                    "  {q} takes {} from its deck into its hand, shown",
                    self.sorted_names(after, q, shown).join(", ")
                ));
            }
            let drawn = moved & !shown;
            if drawn != 0 {
                let what = if viewer.sees(q) {
                    format!(": {}", self.sorted_names(after, q, drawn).join(", "))
                } else {
                    String::new()
                };
                out.push(format!(
                    "  {q} draws {} card{}{what}",
                    drawn.count_ones(),
                    if drawn.count_ones() == 1 { "" } else { "s" }
                ));
            }
            let milled = a.adolla & !b.adolla & b.deck_mask();
            if milled != 0 {
                out.push(format!(
                    "  {q} puts {} from its deck into THE ADOLLA",
                    self.sorted_names(after, q, milled).join(", ")
                ));
            }
            let to_life = a.life_len.saturating_sub(b.life_len);
            if to_life > 0 && before.step != Step::Redraw {
                out.push(format!(
                    "  {q} puts {to_life} card(s) from its deck onto its Life area"
                ));
            }
            for i in Bits(a.flame_cards() & !b.flame_cards()) {
                out.push(format!(
                    "  {q}: {} onto the Scene",
                    self.flame_label(after, q, i)
                ));
            }
            for i in Bits(b.flame_cards() & !a.flame_cards() & FLAME_MASK) {
                out.push(format!(
                    "  {q}: {} back to the Flame deck (Flame limit, F-COST-2)",
                    self.card_ref(before, q, i)
                ));
            }
        }
        // F-BAT-7: an attacked Unit that holds is said so (a removed one is said above).
        let (att, tgt) = (before.battle.attacker, before.battle.target);
        if att != NONE
            && tgt != NONE
            && !before.battle.on_player
            && after.battle.attacker != att
            && after.pl(before.active.other()).units() & 1 << tgt != 0
            && before.pl(before.active).units() & 1 << att != 0
        {
            let (a, d) = (before.active, before.active.other());
            out.push(format!(
                "  {d}'s {} ({}) holds against {} ({}): nothing happens (F-BAT-7)",
                self.card_ref(before, d, tgt),
                self.power(before, d, tgt),
                self.card_ref(before, a, att),
                self.power(before, a, att)
            ));
        }
        if new_turn {
            out.push(format!(
                "--- turn {}: {} (Life {} · {}, decks {} · {}) ---",
                after.turn,
                after.active,
                after.p[0].life_len,
                after.p[1].life_len,
                after.p[0].deck_len,
                after.p[1].deck_len
            ));
        }
        out.extend(next);
        if after.winner.is_some() {
            out.push(self.ending(after));
        }
        out
    }

    fn removed_now(&self, before: &State, after: &State, q: Seat, u: u8) -> bool {
        // A Unit that left for THE ADOLLA while the Flame limit was not being resolved.
        before.pick != Pick::Limit && after.pl(q).adolla & 1 << u != 0
    }
}
