//! The Attack phase (M-ATK, `docs/rules-tmnt.md`): which attack cards may be placed (M-ATK-3,
//! M-ATK-4, M-ATK-6), placing them, and the forward — the damage, the flips of the Block cards, the
//! overflow to the deck (M-ATK-8..10) and the texts a damage triggers. The stages themselves are
//! advanced by `turn.rs`.

use super::super::cards::{CardType, Kind, When};
use super::TmntGame;
use crate::core::Seat;
use crate::games::tmnt::state::*;

impl TmntGame {
    /// M-ATK-8..10: the damage, the flips, the overflow to the deck; `when damaged` triggers.
    pub(super) fn forward<const L: bool>(&self, s: &mut State) {
        let a = s.active;
        let d = a.other();
        s.forward = true;
        s.forwards = s.forwards.wrapping_add(1);
        let (total, counter) = self.attack_powers(s);
        s.total = total.clamp(-9999, 9999) as i16;
        s.counter = counter.clamp(-9999, 9999) as i16;
        s.flipped = 0;
        s.stage = Stage::FlipTexts;
        let mut dmg = total - counter;
        if dmg > 0 && s.reduce > 0 {
            // M-DMG-1: a reduction never makes the damage less than 0.
            dmg = (dmg - i32::from(s.reduce)).max(0);
        }
        if dmg <= 0 {
            return;
        }
        // M-ATK-9: Block cards from Block Zone 1, face up or down, one point each; empty zones
        // are skipped.
        let mut left = dmg;
        let mut hit = 0u64;
        for z in 0..ZONES {
            if left == 0 {
                break;
            }
            let i = s.pl(d).block[z];
            if i == NONE {
                continue;
            }
            left -= 1;
            hit |= 1 << i;
            if s.pl(d).up & (1 << i) == 0 {
                s.pl_mut(d).up |= 1 << i;
                Self::reveal(s, d, i);
                s.flipped |= 1 << z;
            }
        }
        self.trigger_one(s, d, When::Damaged);
        if L {
            self.damage_texts(s, d, hit);
            // M-DMG-2: `excess_cap` of the defender's texts.
            left = left.min(i32::from(s.pl(d).fx.cap));
        }
        // M-ATK-10: the rest from the deck.
        if left > 0 {
            self.trash_top(s, d, left as u32);
        }
    }

    /// The card language's texts of a damage to `d`: `hit` on the cards a point was counted
    /// on (M-WHEN-3), `flipped` on the cards it turned face up.
    #[inline(never)]
    pub(super) fn damage_texts(&self, s: &mut State, d: Seat, hit: u64) {
        let hooks = self.db.sets.hooks;
        if hooks & 1 << When::Hit as u32 != 0 {
            let set = &self.db.sets.when_chars[When::Hit as usize];
            let p = s.pl(d);
            let m = Bits(hit).fold(0u64, |m, i| {
                m | u64::from(set.contains(p.card[i as usize])) << i
            });
            if m != 0 {
                self.wait(s, d, m);
            }
        }
        if hooks & 1 << When::Flipped as u32 != 0 {
            let p = s.pl(d);
            let m = (0..ZONES)
                .filter(|z| s.flipped & (1 << z) != 0)
                .fold(0u64, |m, z| m | 1 << p.block[z]);
            self.fire_flipped(s, d, m);
        }
    }

    /// Places `q`'s hand card `i` in its Attack Zone, face up (M-ATK-3, M-ATK-7).
    pub(super) fn place(s: &mut State, q: Seat, i: u8) {
        Self::reveal(s, q, i);
        let p = s.pl_mut(q);
        p.hand &= !(1 << i);
        p.attack[p.attack_len as usize] = i;
        p.attack_len += 1;
    }

    /// Whether `q`'s Character `ch` counts as a title of `combo` by an `also_titled` static
    /// (M-ATK-4, M-STATIC-1).
    #[inline(never)]
    pub(super) fn also_combo(&self, s: &State, q: Seat, ch: u8, combo: &[u8]) -> bool {
        combo.iter().any(|&t| self.also_titled(s, q, ch, t))
    }

    /// Whether `q` may place attack card `id` from hand now (M-ATK-3, M-ATK-4, M-ATK-6; in any
    /// order, M-ATK-6-2).
    #[inline(always)]
    pub(super) fn placeable(&self, s: &State, q: Seat, id: u8) -> bool {
        let c = self.db.card(id);
        if c.ctype != CardType::Attack || s.attrs_used & (1 << c.attr) != 0 {
            return false;
        }
        let ok_kind = match c.kind {
            Kind::Normal | Kind::Counter => true,
            Kind::Forceful => {
                let ch = s.pl(q).block[0];
                ch != NONE
                    && (c.combo.contains(&self.card_of(s, q, ch).title)
                        || self.card_of(s, q, ch).static_cold
                            && self.also_combo(s, q, ch, &c.combo))
            }
            _ => false,
        };
        ok_kind
    }
}
