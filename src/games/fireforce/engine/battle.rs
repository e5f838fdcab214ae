//! A battle (F-BAT, `docs/rules-fireforce.md`): who may block — the Blockers (F-BAT-4,
//! F-KW-BLOCKER, decision F-CANT-1) —, the support cards (F-BAT-6), whether the battle goes on
//! (F-BAT-13) and its damage (F-BAT-7, F-BAT-8). The steps themselves are advanced by the settle
//! loop (`turn.rs`), their legal actions listed in `legal.rs` and played in `play.rs`.

use super::*;

impl FireForceGame {
    /// F-BAT-4, F-KW-BLOCKER: the attacked player's ready Units with Blocker.
    pub fn blockers(&self, s: &State) -> u64 {
        let d = s.pl(s.active.other());
        // The Units with Blocker are kept in `guards` (as `flamey`, by every move onto or off
        // the Scene; checked by the invariants).
        let m = d.units() & !d.exhausted & d.guards.get();
        let m = if self.lang.grant {
            m | d.blocker[0] & d.units() & !d.exhausted
        } else {
            m
        };
        if self.lang.cant && m != 0 {
            m & !self.barred_blockers(s, m)
        } else {
            m
        }
    }

    /// The Blockers of `m` that may not block the attacking Unit (decision F-CANT-1): all of them
    /// if it `cant self be_blocked`, those described if `… by UNITS`.
    #[cold]
    pub(crate) fn barred_blockers(&self, s: &State, m: u64) -> u64 {
        let a = s.battle.attacker;
        if a == NONE {
            return 0;
        }
        let cant = &self.card_of(s, s.active, a).cant;
        if !cant.unblockable {
            return 0;
        }
        let Some(by) = &cant.blocked_by else {
            return m;
        };
        let d = s.active.other();
        Bits(m)
            .filter(|&u| self.card_matches(s, d, u, by, (s.active, a), false))
            .fold(0, |acc, u| acc | 1 << u)
    }

    /// F-BAT-6: the attacked player's hand cards with support power, of card id at least the last
    /// one used (F-BAT-10).
    pub fn support_cards(&self, s: &State) -> u64 {
        let d = s.pl(s.active.other());
        let last = s.battle.support_last;
        Bits(d.hand)
            .filter(|&i| {
                let id = d.card[i as usize];
                id >= last && self.db.brief(id).has(Brief::SUPPORT)
            })
            .fold(0, |m, u| m | 1 << u)
    }

    /// Whether the battle goes on: the attacker and (for an attack on a Unit) the attacked Unit
    /// are still on the Scene (F-BAT-13).
    pub(super) fn battle_on(&self, s: &State) -> bool {
        s.battle.attacker != NONE && (s.battle.on_player || s.battle.target != NONE)
    }

    /// F-BAT-7, F-BAT-8. Out of line (once a battle; see `run_frame`).
    #[inline(never)]
    pub(super) fn damage(&self, s: &mut State) {
        s.step = Step::BattleEnd;
        if !self.battle_on(s) {
            return;
        }
        let (att, def) = (s.active, s.active.other());
        if s.battle.on_player {
            if s.battle.guard {
                // Decision F-BAT-18: no Life revealed, no loss.
                return;
            }
            let p = s.pl_mut(def);
            if p.life_len == 0 {
                // F-WIN-1.
                s.winner = Some(Outcome::Win(att));
                s.win_reason = 1;
                return;
            }
            let i = p.pile[FLAME_BASE - p.life_len as usize];
            p.life_len -= 1;
            p.adolla |= 1 << i;
            Self::reveal(s, def, i);
            s.battle.revealed = i;
            if self.card_of(s, def, i).life_trigger.is_some() {
                s.step = Step::LifeTrigger;
                s.chooser = def;
            }
        } else {
            let t = s.battle.target;
            s.battle.hit = t;
            // Decision F-EFF-13: a replacement resolves before step 9.
            if self.power(s, att, s.battle.attacker) >= self.power(s, def, t)
                && !self.remove(s, def, t)
            {
                self.front_replacements(s);
            }
        }
    }
}
