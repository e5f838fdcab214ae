//! Invariants of a TMNT position, checked after every action by the conformance tests and the
//! scenarios.

use super::state::{Pick, State, Step, NONE};
use super::TmntGame;
use crate::core::Seat;

impl TmntGame {
    /// Every invariant of `s` ([`TmntGame::invariants`] and the match's decks), or the first one
    /// broken.
    pub fn check_invariants(&self, s: &State) -> Result<(), crate::core::Reason> {
        self.invariants(s)?;
        for q in Seat::ALL {
            let p = s.pl(q);
            let k = q.index();
            let n = usize::from(p.n);
            if n != self.decks[k].len() {
                return Err(format!("{q}: {n} instances").into());
            }
            if !crate::core::def::same_multiset(&p.card[..n], &self.decks[k]) {
                return Err(format!("{q}: the cards are not the deck's").into());
            }
        }
        if s.step == Step::Over && s.winner.is_none() {
            return Err("over without a winner".into());
        }
        if s.step != Step::Over && s.pick == Pick::None && s.cur.active() {
            return Err("a decision while a text resolves without a choice".into());
        }
        Ok(())
    }

    /// The invariants of a reachable state: every instance in exactly one zone, face-up cards on
    /// Block Zones only, known instances consistent with the zones.
    pub fn invariants(&self, s: &State) -> Result<(), crate::core::Reason> {
        for q in Seat::ALL {
            let p = s.pl(q);
            let all = crate::core::hidden::first_n(p.n as usize);
            let mut seen = 0u64;
            let mut add = |m: u64, what: &str| -> Result<(), crate::core::Reason> {
                if seen & m != 0 {
                    return Err(format!("{q}: an instance is twice ({what})").into());
                }
                seen |= m;
                Ok(())
            };
            add(p.deck_mask(), "deck")?;
            add(p.hand, "hand")?;
            add(p.trash, "trash")?;
            add(p.items, "items")?;
            add(p.blocks_mask(), "blocks")?;
            let az = p.attack_zone().iter().fold(0, |m, &i| m | 1u64 << i);
            add(az, "attack zone")?;
            // M-EVT-1: the Event placed, its text resolving, belongs to the turn player.
            if s.event != NONE && q == s.active {
                add(1u64 << s.event, "the Event resolving")?;
            }
            if seen != all {
                return Err(format!("{q}: instances {seen:#x} != {all:#x}").into());
            }
            if p.up & !p.blocks_mask() != 0 {
                return Err(format!("{q}: a face-up mark off the Block Zones").into());
            }
            let mut public = p.trash | p.items | az | p.up;
            if s.event != NONE && q == s.active {
                public |= 1u64 << s.event;
            }
            for s2 in 0..2 {
                if public & !p.known[s2] != 0 {
                    return Err(format!("{q}: a public card unknown to seat {s2}").into());
                }
            }
            let own = p.hand | p.blocks_mask() | public;
            if own & !p.known[q.index()] != 0 {
                return Err(format!("{q}: a card of its hand or Block Zones unknown to it").into());
            }
            // A face-down Block card known to the opponent only by a `peek` (M-INFO-5), a deck
            // card known only by the card language's moves and looks.
            if !self.db.sets.lang {
                if p.known[q.other().index()] & (p.blocks_mask() & !p.up) != 0 {
                    return Err(format!("{q}: a face-down Block card known to the opponent").into());
                }
                if p.deck_mask() & (p.known[0] | p.known[1]) != 0 {
                    return Err(format!("{q}: a deck card is known").into());
                }
            }
            if p.milled & !p.trash != 0 {
                return Err(format!("{q}: a card milled from the deck is not in the Trash").into());
            }
        }
        Ok(())
    }
}
