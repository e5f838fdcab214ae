//! Play-by-play text for TMNT logs: the action in the notation, then what it changed, as the
//! viewer may see it (M-INFO).

use super::cards::{CardId, CardType};
use super::state::{Bits, Pick, State, Step, NONE, ZONES};
use super::{Action, TmntGame};
use crate::core::def::{GameDef, Viewer};
use crate::core::Seat;
use std::fmt::Write as _;

impl TmntGame {
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
            // M-INFO-1: a card set face down is hidden from the opponent.
            Action::Set(_) if !viewer.sees(seat) => {
                head = format!("{seat}: set a card");
            }
            Action::Set(_) => {}
            Action::Attack(id) | Action::Counter(id) | Action::Event(id) | Action::Item(id) => {
                let c = self.db.card(id);
                let _ = write!(head, " ({})", c.describe());
                if !c.effect_text.is_empty() {
                    let _ = write!(head, ": {}", c.effect_text);
                }
            }
            Action::Keep(_) => head.push_str(" (M-ATK-13)"),
            // M-INFO-1, M-INFO-5: a card taken, put or arranged that the viewer does not know
            // after the move is not named.
            Action::Take(id) | Action::Top(id) => {
                let shown = match (a, before.pick) {
                    (_, _) if viewer.sees(seat) => true,
                    (Action::Take(_), Pick::Take { seat: q, mask, .. }) => {
                        let q = Seat::from_index(usize::from(q));
                        Self::instance_of(before, q, mask, id).is_some_and(|i| {
                            let known = after.pl(q).known;
                            let k = match viewer {
                                Viewer::Seat(v) => known[v.index()],
                                _ => known[0] & known[1],
                            };
                            viewer == Viewer::All || k & (1 << i) != 0
                        })
                    }
                    _ => false,
                };
                if !shown {
                    let verb = head.split_whitespace().nth(1).unwrap_or("take").to_string();
                    head = format!("{seat}: {verb} a card");
                }
            }
            Action::Activate(id) => {
                let c = self.db.card(id);
                let _ = write!(head, ": {}", c.effect_text);
            }
            Action::Yes | Action::Mode(_) | Action::Pass
                if matches!(before.step, Step::May | Step::Mode) =>
            {
                // The text that asks.
                let q = Seat::from_index(usize::from(before.cur.who));
                let _ = write!(
                    head,
                    " ({})",
                    self.card_label(before.pl(q).card[before.cur.src as usize])
                );
            }
            _ => {}
        }
        if before.step == Step::Keep && a == Action::Pass {
            head = format!("{seat}: keeps nothing (M-ATK-13)");
        }
        // The card this action moves is said by its own line, not again as a discard.
        let mut placed = [0u64; 2];
        let hand = before.pl(seat).hand;
        let moved = match a {
            Action::Event(id) | Action::Discard(id) => Self::instance_of(before, seat, hand, id),
            Action::Pay(id) => Self::instance_of(before, seat, hand & !(1 << before.item), id),
            _ => None,
        };
        if let Some(i) = moved {
            placed[seat.index()] = 1 << i;
        }
        // M-INFO-1: passing says what could have been done (M-TURN-2 asks only when there is a
        // choice), so a viewer who does not see the hand is not told of a pass.
        let hidden_pass = a == Action::Pass
            && matches!(
                before.step,
                Step::Event | Step::Item | Step::Attack | Step::Counter
            )
            && !viewer.sees(seat);
        let mut out = if hidden_pass { Vec::new() } else { vec![head] };
        out.extend(self.changes(before, after, viewer, placed));
        out
    }

    /// What the engine did between two decisions, as log lines for `viewer`.
    pub(super) fn changes(
        &self,
        before: &State,
        after: &State,
        viewer: Viewer,
        placed: [u64; 2],
    ) -> Vec<String> {
        let turns = after.turn != before.turn;
        let (att, def) = (before.active, before.active.other());
        let describe = |q: Seat, i: u8| {
            let c = self.card_of(after, q, i);
            let text = match c.flip_text() {
                Some(_) => format!(" — text: {}", c.effect_text),
                None => String::new(),
            };
            format!(
                "{} ({}){text}",
                self.card_label(c_id(after, q, i)),
                c.describe()
            )
        };
        // Block cards turned face up (M-FLIP-1, M-ATK-9), the turn player's first.
        let flips = |q: Seat| -> Vec<String> {
            let (b, a) = (before.pl(q), after.pl(q));
            let mut v = Vec::new();
            for z in 0..ZONES {
                let i = a.block[z];
                if i != NONE && a.up & (1 << i) != 0 && b.up & (1 << i) == 0 {
                    v.push(format!(
                        "  {q}'s Block Zone {} turns face up: {}",
                        z + 1,
                        describe(q, i)
                    ));
                }
            }
            // Turned face up and gone before the next decision: by the Flip phase (an Event or
            // Item on Block Zone 1), or by damage and then the Result step.
            for i in Bits(a.trash & b.blocks_mask() & !b.up) {
                let z = b.block.iter().position(|&x| x == i).unwrap_or(0);
                let c = self.card_of(after, q, i);
                let flip_phase = q == att
                    && z == 0
                    && !matches!(c.ctype, CardType::Character | CardType::Attack);
                v.push(format!(
                    "  {q}'s Block Zone {} turns face up: {}; to the Trash{}",
                    z + 1,
                    describe(q, i),
                    if flip_phase { " (M-FLIP-1)" } else { "" }
                ));
            }
            v
        };
        let mut out = flips(att);
        // M-ATK-8: the Forward step's powers and damage.
        if after.forwards != before.forwards {
            let dmg = (after.total - after.counter).max(0);
            out.push(format!(
                "  Forward step: {att}'s total power {} − {def}'s counter power {} = damage {dmg}{}",
                after.total,
                after.counter,
                if after.counter > after.total {
                    format!(
                        "; the counter is bigger by {} (M-ATK-12)",
                        after.counter - after.total
                    )
                } else {
                    String::new()
                }
            ));
        }
        out.extend(flips(def));
        let mut next = Vec::new();
        for q in [att, def] {
            let (b, a) = (before.pl(q), after.pl(q));
            // Out of the deck and not straight to the Trash: drawn (then perhaps discarded).
            // Cards the opponent now knows were shown on the way (`search`, the card taken by
            // `dig`): named for every viewer, and not "drawn".
            let left = b.deck_mask() & !a.deck_mask() & !a.milled;
            let shown = left & a.known[q.other().index()] & !b.known[q.other().index()];
            if shown != 0 {
                out.push(format!(
                    "  {q} takes {} from its deck, shown",
                    self.sorted_names(after, q, shown).join(", ")
                ));
            }
            let drawn = left & !shown;
            if drawn != 0 {
                // The new turn's header comes before the new turn player's Adjust draws.
                let out = if turns && q == after.active {
                    &mut next
                } else {
                    &mut out
                };
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
            let milled = a.milled & !b.milled;
            if milled != 0 {
                out.push(format!(
                    "  {q} sends {} card{} from its deck to the Trash: {} (deck {})",
                    milled.count_ones(),
                    if milled.count_ones() == 1 { "" } else { "s" },
                    self.sorted_names(after, q, milled).join(", "),
                    a.deck_len
                ));
            }
            // The Event placed by this action is not discarded (M-EVT-1).
            let discarded = a.trash & b.hand & !placed[q.index()];
            if discarded != 0 {
                out.push(format!(
                    "  {q} discards {}",
                    self.sorted_names(after, q, discarded).join(", ")
                ));
            }
            let salvaged = a.hand & b.trash;
            if salvaged != 0 {
                out.push(format!(
                    "  {q} takes {} from its Trash into its hand",
                    self.sorted_names(after, q, salvaged).join(", ")
                ));
            }
            if a.bonus != b.bonus && !turns {
                out.push(format!("  {q}'s bonus this turn: {:+}", a.bonus));
            }
        }
        // M-ATK-13: face-up cards leave the field only in the Result step.
        for q in [att, def] {
            let (b, a) = (before.pl(q), after.pl(q));
            let zone = b.attack_zone().iter().fold(0, |m, &i| m | 1u64 << i);
            let from_field = a.trash & (b.up & b.blocks_mask() | zone);
            if from_field != 0 {
                out.push(format!(
                    "  Result step: {q}'s {} to the Trash (M-ATK-13)",
                    self.sorted_names(after, q, from_field).join(", ")
                ));
            }
        }
        if turns {
            out.push(format!(
                "--- turn {}: {} (decks {} · {}, hands {} · {}) ---",
                after.turn,
                after.active,
                after.p[0].deck_len,
                after.p[1].deck_len,
                after.p[0].hand_len(),
                after.p[1].hand_len()
            ));
        }
        out.extend(next);
        if after.winner.is_some() {
            out.push(self.ending(after));
        }
        out
    }
}

/// The card id of `q`'s instance `i`.
fn c_id(s: &State, q: Seat, i: u8) -> CardId {
    s.pl(q).card[i as usize]
}
