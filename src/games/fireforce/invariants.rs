//! Invariants of a Fire Force position, checked after every action by the conformance tests and
//! the scenarios.

use super::cards::{Keywords, Trigger};
use super::state::{Bits, Pick, State, Step, FLAME_BASE, FLAME_MASK, NONE};
use super::{Action, FireForceGame};
use crate::core::lang::Side;
use crate::core::Seat;

impl FireForceGame {
    /// Every invariant of `s`, or the first one broken.
    pub fn check_invariants(&self, s: &State) -> Result<(), crate::core::Reason> {
        for q in Seat::ALL {
            let p = s.pl(q);
            let k = q.index();
            let n = usize::from(p.n_main);
            if n != self.main[k].len() || n > FLAME_BASE {
                return Err(format!("{q}: {n} main instances").into());
            }
            if usize::from(p.deck_len) + usize::from(p.life_len) > n {
                return Err(format!("{q}: deck and Life overlap").into());
            }
            let main_all = crate::core::hidden::first_n(n);
            let (deck, life) = (p.deck_mask(), p.life_mask());
            if deck.count_ones() != u32::from(p.deck_len)
                || life.count_ones() != u32::from(p.life_len)
            {
                return Err(format!("{q}: an instance twice in the deck or the Life area").into());
            }
            let main_scene = p.scene & main_all;
            let zones = [deck, life, p.hand, main_scene, p.adolla];
            let sum: u32 = zones.iter().map(|z| z.count_ones()).sum();
            if zones.iter().fold(0, |a, z| a | z) != main_all || sum != n as u32 {
                return Err(
                    format!("{q}: the main-deck zones do not partition the instances").into(),
                );
            }
            let flame_all =
                FLAME_MASK & crate::core::hidden::first_n(FLAME_BASE + self.flame[k].len());
            if (p.flame_deck | (p.scene & FLAME_MASK)) != flame_all || p.flame_deck & p.scene != 0 {
                return Err(format!(
                    "{q}: the Flame cards are not in the Flame deck or on the Scene"
                )
                .into());
            }
            let flamey = Bits(p.units())
                .filter(|&u| self.card_of(s, q, u).flame)
                .fold(0, |m, u| m | 1u64 << u);
            let statics = [Side::Own, Side::Enemy].map(|reach| {
                Bits(p.units() | (p.scene & FLAME_MASK))
                    .filter(|&i| {
                        let c = self.card_of(s, q, i);
                        c.statics
                            .iter()
                            .any(|st| st.side == reach || st.side == Side::Any)
                    })
                    .fold(0, |m, i| m | 1u64 << i)
            });
            // The Units with Pray or an Active ability, from the whole card (not the brief).
            let acting = Bits(p.units())
                .filter(|&u| {
                    let c = self.card_of(s, q, u);
                    c.keywords.has(Keywords::PRAY) || c.on(Trigger::Active) != 0
                })
                .fold(0, |m, u| m | 1u64 << u);
            let guards = Bits(p.units())
                .filter(|&u| self.card_of(s, q, u).keywords.has(Keywords::BLOCKER))
                .fold(0, |m, u| m | 1u64 << u);
            if p.flamey != flamey
                || p.statics != statics
                || p.acting.get() != acting
                || p.guards.get() != guards
            {
                return Err(format!("{q}: the derived masks of the Scene are stale").into());
            }
            if p.as_flame & !(p.scene & main_all) != 0 {
                return Err(format!("{q}: a card put as Flame is not on the Scene").into());
            }
            if p.exhausted & !p.scene != 0
                || (p.fresh | p.blocker[0] | p.blocker[1]) & !p.units() != 0
                || p.once & !p.units() != 0
            {
                return Err(format!("{q}: a state flag on a card off the Scene").into());
            }
            for (j, &g) in p.given_to.iter().enumerate() {
                if g != NONE {
                    if p.units() & 1 << g == 0 {
                        return Err(
                            format!("{q}: Flame card {j} given to a Unit off the Scene").into()
                        );
                    }
                    if p.scene & 1 << (FLAME_BASE + j) == 0 {
                        return Err(format!("{q}: a given Flame card is not on the Scene").into());
                    }
                }
            }
            let public = p.scene | p.adolla | p.flame_deck;
            if p.known[0] & public != public || p.known[1] & public != public {
                return Err(format!("{q}: a public card is not known to both").into());
            }
            if p.known[k] & p.hand != p.hand {
                return Err(format!("{q}: does not know its own hand").into());
            }
            // F-INFO-6: a player searching or digging its deck knows the cards it looks at.
            let looking = self.looking(s, q) & deck;
            if (p.known[0] | p.known[1]) & (deck | life) & !looking != 0
                || p.known[k ^ 1] & looking != 0
            {
                return Err(format!("{q}: a deck or Life card is known (F-INFO-1)").into());
            }
            if self.with_flame(s, q).count_ones() > super::state::FLAME_LIMIT
                && s.pick != Pick::Limit
            {
                return Err(format!("{q}: more than 8 cards with Flame (F-COST-2)").into());
            }
            if !crate::core::def::same_multiset(&p.card[..n], &self.main[k]) {
                return Err(format!("{q}: the cards are not the deck's").into());
            }
        }
        if s.step == Step::Over && s.winner.is_none() {
            return Err("over without a winner".into());
        }
        if let Pick::Pay { n, then, classes } = s.pick {
            // Decision F-COST-3: a payment is asked for only where it is a choice, among the
            // classes of the position.
            let payers = self.ready_payers(s, s.chooser).count_ones();
            if n == 0 || payers <= u32::from(n) || payers > super::engine::MAX_PAYERS {
                return Err(format!("a payment of {n} among {payers} cards with Flame").into());
            }
            if classes != self.pay_classes(s, s.chooser) || classes[1] == 0 {
                return Err(format!("a payment's classes {classes:?} are stale").into());
            }
            if !matches!(
                then,
                Action::Dispatch(_) | Action::Play(_) | Action::React(_) | Action::Activate(..)
            ) {
                return Err(format!("a payment for {then:?}").into());
            }
        }
        Ok(())
    }
}
