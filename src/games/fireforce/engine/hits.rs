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
        let m = self.side_units(s, t, who, src, q);
        let asks = Asks::of(f);
        if !asks.any() {
            return m != 0;
        }
        Bits(m).any(|u| self.unit_passes(s, f, asks, q, u, || self.power_inlined(s, q, u)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::walk_random_games;
    use crate::core::{rng_from_seed, GameDef};
    use rand::Rng;

    /// [`FireForceGame::target_hit`] is `candidates(..)[q] != 0`, for every target of every
    /// effect of the cards (abilities and Life triggers), both seats as `who` and as `q`, with
    /// the ability's source both none and a Unit of `who` (for `other`), at every position of
    /// random games: of every pair of `TEST_DECKS` (2 seeds each), and of the designer pool's
    /// two decks (`tests/data/designer/fireforce.csv`, 8 seeds each), whose cards say `cant …
    /// be_chosen` (decision F-CANT-1), grant keywords (F-KW-GRANT) and filter by state. It asks
    /// for more than 10,000 positions of the bundled decks and 1,000 of the designer's, and for
    /// more than 100,000 cases of a bounded filter (power bounds) where the answer is yes and as
    /// many where it is no.
    #[test]
    fn target_hit_is_the_candidates_not_empty() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let (positions, yes, no, _) = compare(&db, &decks, 2);
        eprintln!("target_hit: {positions} positions, bounded {yes} yes, {no} no");
        assert!(
            positions > 10_000 && yes > 100_000 && no > 100_000,
            "{positions} {yes} {no}"
        );
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/designer/");
        let text = std::fs::read_to_string(format!("{dir}fireforce.csv")).unwrap();
        let db = <FireForceGame as GameDef>::parse_cards(&text, "fireforce.csv").unwrap();
        let decks: Vec<_> = ["fireforce_company8", "fireforce_white_clad"]
            .iter()
            .map(|n| {
                let text = std::fs::read_to_string(format!("{dir}{n}.deck")).unwrap();
                <FireForceGame as GameDef>::parse_deck(&db, &text, n, n).unwrap()
            })
            .collect();
        let (positions, yes, no, sourced) = compare(&db, &decks, 8);
        eprintln!(
            "target_hit, designer pool: {positions} positions, bounded {yes} yes, {no} no, \
             {sourced} asked with a source"
        );
        assert!(
            positions > 1_000 && sourced > 10_000,
            "{positions} {sourced}"
        );
    }

    /// Compares `target_hit` with `candidates` over random games of every pair of `decks`:
    /// (positions, bounded yes, bounded no, cases asked with a Unit as the source).
    fn compare(
        db: &CardDb,
        decks: &[<FireForceGame as GameDef>::Deck],
        seeds: u64,
    ) -> (usize, usize, usize, usize) {
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
        let mut rng = rng_from_seed(10);
        let (mut positions, mut yes, mut no, mut sourced) = (0usize, 0usize, 0usize, 0usize);
        walk_random_games(
            db,
            decks,
            seeds,
            41,
            &mut rng,
            |g: &FireForceGame, s, _, rng| {
                for t in &targets {
                    for who in Seat::ALL {
                        // No source, or one of `who`'s Units at random.
                        let units = s.pl(who).units();
                        let src = if units != 0 && rng.gen_bool(0.5) {
                            let j = rng.gen_range(0..units.count_ones() as usize);
                            Bits(units).nth(j).unwrap()
                        } else {
                            NONE
                        };
                        sourced += usize::from(src != NONE);
                        let c = g.candidates(s, t, who, src, NONE);
                        for q in Seat::ALL {
                            let got = g.target_hit(s, t, who, (src, NONE), q);
                            let want = c[q.index()] != 0;
                            assert_eq!(got, want, "{t:?} for {who} from {src}, {q}\n{s:?}");
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
            },
        );
        (positions, yes, no, sourced)
    }
}
