//! Whether a target finds any Unit on each side: what the heuristic (`policy.rs`) asks of a
//! target, never the Units themselves. [`FireForceGame::candidates`] builds the whole mask, with
//! a bounded filter's `power` for every Unit; here a side stops at its first Unit and a side not
//! asked for is not looked at.

use super::*;

impl FireForceGame {
    /// Whether `candidates(s, t, who, src, that)[q.index()]` is not empty: the same questions
    /// as [`FireForceGame::candidates`] for `q`'s side only, in the same order, stopped at the
    /// first Unit that passes (the test `target_hit_is_the_candidates_not_empty`).
    pub(crate) fn target_hit(
        &self,
        s: &State,
        t: &Target,
        who: Seat,
        (src, that): (u8, u8),
        q: Seat,
    ) -> bool {
        if !matches!(t.mode, Mode::Choose | Mode::UpTo | Mode::All | Mode::Each) {
            return self.candidates(s, t, who, src, that)[q.index()] != 0;
        }
        let f = &t.filter;
        if !f.units_pass() || !side_ok(t.side, who, q) {
            return false;
        }
        let p = s.pl(q);
        let mut m = match f.ready {
            Some(true) => p.units() & !p.exhausted,
            Some(false) => p.units() & p.exhausted,
            None => p.units(),
        };
        if f.other && q == who && src < 64 {
            m &= !(1 << src);
        }
        if self.lang.cant && q != who && matches!(t.mode, Mode::Choose | Mode::UpTo) {
            m &= !self.unchoosable(s, q);
        }
        let (reads, extras) = (f.reads_unit(), f.has_state_extras());
        let bounds = f.power_min.is_some() || f.power_max.is_some();
        if !(reads || extras || bounds) {
            return m != 0;
        }
        Bits(m).any(|u| {
            (!reads
                || f.unit_ok(self.db.card(p.card[u as usize]))
                || (self.lang.grant && self.granted_ok(s, q, u, f)))
                && (!extras || self.extras_ok(s, q, u, f))
                && (!bounds || self.power_ok(f, self.power_inlined(s, q, u)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{rng_from_seed, Game, GameDef};
    use rand::Rng;

    /// [`FireForceGame::target_hit`] is `candidates(..)[q] != 0`, for every target of every
    /// effect of the bundled cards (abilities and Life triggers), both seats as `who` and as `q`,
    /// at every position of random games of every pair of `TEST_DECKS`
    /// (2 seeds each). It asks for more than 10,000 positions, and for more than 100,000 cases of
    /// a bounded filter (power bounds) where the answer is yes and as many where it is no.
    #[test]
    fn target_hit_is_the_candidates_not_empty() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let mut targets: Vec<Target> = Vec::new();
        for c in &db.cards {
            let abilities = c.abilities.iter().chain(c.life_trigger.as_deref());
            for e in abilities.flat_map(|a| a.effects.iter()) {
                if let Some(t) = e.target() {
                    if !targets.contains(t) {
                        targets.push(*t);
                    }
                }
            }
        }
        let bounded = |t: &Target| t.filter.power_min.is_some() || t.filter.power_max.is_some();
        assert!(targets.iter().filter(|t| bounded(t)).count() >= 3);
        let mut rng = rng_from_seed(10);
        let (mut positions, mut yes, mut no) = (0usize, 0usize, 0usize);
        for (k, a) in decks.iter().enumerate() {
            for b in &decks {
                let g = FireForceGame::new_match(&db, [a, b]);
                for seed in 0..2u64 {
                    let mut s = g.new_game(seed * 41 + k as u64, Seat::ALL[(seed % 2) as usize]);
                    let mut list = ActionList::new();
                    while g.to_move(&s).is_some() {
                        for t in &targets {
                            for who in Seat::ALL {
                                let c = g.candidates(&s, t, who, NONE, NONE);
                                for q in Seat::ALL {
                                    let got = g.target_hit(&s, t, who, (NONE, NONE), q);
                                    let want = c[q.index()] != 0;
                                    assert_eq!(got, want, "{t:?} for {who}, {q}\n{s:?}");
                                }
                                if bounded(t) {
                                    for m in c {
                                        if m != 0 {
                                            yes += 1;
                                        } else {
                                            no += 1;
                                        }
                                    }
                                }
                            }
                        }
                        positions += 1;
                        g.legal_actions(&s, &mut list);
                        let pick = list.as_slice()[rng.gen_range(0..list.len())];
                        g.apply(&mut s, pick);
                    }
                }
            }
        }
        eprintln!("target_hit: {positions} positions, bounded {yes} yes, {no} no");
        assert!(
            positions > 10_000 && yes > 100_000 && no > 100_000,
            "{positions} {yes} {no}"
        );
    }
}
