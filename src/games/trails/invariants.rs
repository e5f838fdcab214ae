//! Invariants of a Trails position, checked after every action by the conformance tests.

use super::cards::CardType;
use super::engine::{TrailsGame, MAX_BOND};
use super::state::{bit, flag, Bits, Pending, State, Step};
use crate::core::Seat;

impl TrailsGame {
    /// Every card in exactly one zone, cards conserved, no stunned card ready, bond ≤ 40, flags
    /// only where they mean something, knowledge consistent with the zones.
    pub fn check_invariants(&self, s: &State) -> Result<(), crate::core::Reason> {
        for q in Seat::ALL {
            let p = s.pl(q);
            let n = p.n_cards as usize;
            if n != self.decks[q.index()].len() && !self.decks[q.index()].is_empty() {
                return Err(
                    format!("{q}: {n} cards, deck has {}", self.decks[q.index()].len()).into(),
                );
            }
            let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            let deck = p.deck_mask();
            if deck.count_ones() != u32::from(p.deck_len) {
                return Err(format!("{q}: a card appears twice in the deck order").into());
            }
            let zones = [deck, p.hand, p.homebase, p.field, p.trail];
            let mut union = 0u64;
            let mut total = 0u32;
            for z in zones {
                union |= z;
                total += z.count_ones();
            }
            if union != all || total != n as u32 {
                return Err(format!(
                    "{q}: zones do not partition the {n} cards (union {union:#x}, total {total})"
                )
                .into());
            }
            if p.kinds != self.card_kinds(s, q) {
                return Err(format!("{q}: card-kind masks do not match the cards").into());
            }
            if p.bond > MAX_BOND {
                return Err(format!("{q}: bond {} above 40 (T-WIN-1)", p.bond).into());
            }
            // T-RES-1, T-RES-7: the pool holds EP of this phase only, from the player's own
            // homebase cards; the cards that paid EP are actioned homebase cards.
            if usize::from(p.ep) > n {
                return Err(format!("{q}: {} EP in the pool from {n} cards", p.ep).into());
            }
            if matches!(s.step, Step::Mulligan | Step::Cure) && (p.ep != 0 || p.ep_paid != 0) {
                return Err(
                    format!("{q}: EP of a phase left over in the {:?} step", s.step).into(),
                );
            }
            if p.ep_paid & !(p.homebase & p.flagged(flag::ACTIONED)) != 0 {
                return Err(
                    format!("{q}: a card that paid EP is not an actioned homebase card").into(),
                );
            }
            for i in Bits(all) {
                if (p.static_src & bit(i) != 0) != self.static_active(s, q, i) {
                    return Err(format!("{q}: static source mask wrong for card {i}").into());
                }
                let f = p.flags_of(i);
                let b = bit(i);
                if f & flag::STUNNED != 0 {
                    if p.field & b == 0 {
                        return Err(format!("{q}: stunned card {i} off the field").into());
                    }
                    if f & flag::ACTIONED == 0 {
                        return Err(format!("{q}: stunned UNIT {i} is ready (T-STATE-2)").into());
                    }
                    if self.ctype(s, q, i) != CardType::Unit {
                        return Err(format!("{q}: stunned non-UNIT {i}").into());
                    }
                }
                if f & flag::FACE_UP != 0 && p.homebase & b == 0 {
                    return Err(
                        format!("{q}: face-up flag on card {i} outside the homebase").into(),
                    );
                }
                if (p.deck_mask() | p.hand | p.trail) & b != 0 && f != 0 {
                    return Err(
                        format!("{q}: card {i} keeps flags {f:#x} outside field/homebase").into(),
                    );
                }
                if (p.field | p.trail) & b != 0 && p.known[0] & p.known[1] & b == 0 {
                    return Err(format!("{q}: public card {i} not known to both players").into());
                }
                if (p.hand | p.homebase) & b != 0 && p.known[q.index()] & b == 0 {
                    return Err(
                        format!("{q}: own card {i} in hand/homebase unknown to its owner").into(),
                    );
                }
                if p.homebase & b != 0
                    && f & flag::FACE_UP != 0
                    && p.known[q.other().index()] & b == 0
                {
                    return Err(
                        format!("{q}: face-up homebase card {i} hidden from the opponent").into(),
                    );
                }
            }
        }
        if s.winner.is_none() {
            if s.step == Step::Over {
                return Err("step Over without a winner".into());
            }
            if !matches!(s.pending, Pending::None | Pending::DispatchPut) && s.queue.is_empty() {
                return Err(format!("{:?} is pending with nothing resolving", s.pending).into());
            }
            if s.step == Step::CombatEnd && s.pending == Pending::None && s.queue.is_empty() {
                return Err("the end of a combat waits with nothing resolving".into());
            }
            if s.pending == Pending::None && !s.queue.is_empty() {
                return Err("abilities queued while a step decision is awaited".into());
            }
            // Decision T-COMBAT-11: who decides in these combat steps follows from the combat
            // (T-COMBAT-2, T-SCLM-1), and the attacking group is the attacker's active UNITs.
            let attacker = s.combat.attacker;
            let group_or_fb = matches!(s.step, Step::Group | Step::FightBack);
            if s.pending == Pending::None && s.step == Step::Group && s.actor != attacker {
                return Err(format!(
                    "the group step is the attacker's ({attacker}), not {}'s",
                    s.actor
                )
                .into());
            }
            if s.pending == Pending::None && s.step == Step::FightBack && s.actor == attacker {
                return Err(format!(
                    "the fight-back choice is the defender's, not the attacker's ({attacker})"
                )
                .into());
            }
            if group_or_fb && s.combat.attackers & !self.active_units(s, attacker) != 0 {
                return Err("an attacking card is not an active UNIT of the attacker".into());
            }
        }
        Ok(())
    }
}
