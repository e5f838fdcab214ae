//! Belief (issue 33): an opponent's past decision recast into a determinization of a later
//! position ([`crate::core::Game::recast`]), so that search can weigh each world by how likely
//! the opponent's play would have been in it.
//!
//! There is no chance after setup (no shuffle, M-INFO-3, unless a card text shuffles: M-SHUF-1)
//! and every card instance keeps its identity for the whole game, so a world — the identities of
//! the instances the observer does not know, dealt again — fixes the identity of every card the
//! opponent held at every earlier decision: the world's version of an earlier position is that
//! position with each identity the observer did not know then replaced by the world's. The
//! instances themselves (which zone holds which instance, the deck's order by instance) are what
//! determinization keeps, so they read nothing hidden.

use super::state::{Bits, State};
use super::{Action, TmntGame};
use crate::core::hidden::first_n;
use crate::core::Seat;

impl TmntGame {
    /// [`crate::core::Game::recast`] for TMNT. The action:
    /// - `set` (M-SET-1): the card goes face down and the observer follows the zone, not the card
    ///   (M-INFO-2); the world's version sets the identity the world gives the instance that
    ///   left the hand for a Block Zone (read from the instances of `before` and `after`);
    /// - `take` and `top` (M-INFO-1, M-INFO-5: a card taken or arranged may stay unseen): `None`;
    /// - every other action names only cards the observer sees as they are played, discarded or
    ///   paid (M-INFO-1: the log names them), or no card: the same action.
    pub(super) fn recast_in(
        &self,
        before: &State,
        actor: Seat,
        action: Action,
        after: &State,
        world: &State,
        observer: Seat,
    ) -> Option<(State, Action)> {
        let mut s = *before;
        for q in Seat::ALL {
            let p = s.pl_mut(q);
            let hidden = first_n(usize::from(p.n)) & !p.known[observer.index()];
            let w = world.pl(q);
            for i in Bits(hidden) {
                p.card[i as usize] = w.card[i as usize];
            }
        }
        // M-SHUF-1: the seed of later shuffles is the world's (determinization draws it anew).
        s.rng = world.rng;
        let a = match action {
            Action::Set(_) => {
                let (b, f) = (before.pl(actor), after.pl(actor));
                let i = Bits(b.hand & !f.hand & f.blocks_mask()).next()?;
                // The world's identity, or the one the observer knew then (a salvaged card it
                // saw enter the hand, M-INFO-2).
                Action::Set(s.pl(actor).card[i as usize])
            }
            Action::Take(_) | Action::Top(_) => return None,
            a => a,
        };
        Some((s, a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, HeuristicAgent};
    use crate::core::{rng_from_seed, ActionList, Game, GameDef};

    fn game() -> TmntGame {
        let cards = super::super::bundled_cards();
        let deck = |n: &str| {
            TmntGame::load_deck(
                &cards,
                std::path::Path::new(&format!("decks/tmnt/{n}.deck")),
            )
            .expect("a bundled deck")
        };
        TmntGame::new_match(&cards, [&deck("starter_north"), &deck("starter_east")])
    }

    /// In heuristic games, every decision of P2 recast into a determinization for P1 of the
    /// position after it: the recast position has the world's identity exactly where P1 did not
    /// know the card before the decision, the true one elsewhere, and a `set` names the identity
    /// the world gives the instance found on the Block Zone that was empty before (read here
    /// from the zones, not from the hand); the other actions are unchanged.
    #[test]
    fn recast_takes_the_worlds_identities_where_the_observer_did_not_know() {
        let g = game();
        let (me, opp) = (Seat::P1, Seat::P2);
        let (mut sets, mut others) = (0, 0);
        let mut list = ActionList::new();
        for seed in 0..6u64 {
            let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
            let mut h = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 9)];
            let mut rng = rng_from_seed(seed);
            while let Some(q) = g.to_move(&s) {
                let a = h[q.index()].choose(&g, &s, q);
                let before = s;
                g.apply(&mut s, a);
                if q != opp {
                    continue;
                }
                let world = g.determinize(&s, me, &mut rng);
                let got = g.recast(&before, q, a, &s, &world, me);
                if matches!(a, Action::Take(_) | Action::Top(_)) {
                    assert_eq!(got, None);
                    continue;
                }
                let (b, wa) = got.expect("a recast decision");
                for p in Seat::ALL {
                    let (x, y, w) = (before.pl(p), b.pl(p), world.pl(p));
                    for i in 0..usize::from(x.n) {
                        let want = if x.known[me.index()] >> i & 1 == 1 {
                            x.card[i]
                        } else {
                            w.card[i]
                        };
                        assert_eq!(y.card[i], want, "seed {seed}, {p:?} instance {i}");
                    }
                }
                match a {
                    Action::Set(_) => {
                        let z = (0..4)
                            .find(|&z| {
                                before.pl(opp).block[z] == super::super::state::NONE
                                    && s.pl(opp).block[z] != super::super::state::NONE
                            })
                            .expect("a zone filled");
                        let i = s.pl(opp).block[z];
                        assert_eq!(wa, Action::Set(b.pl(opp).card[i as usize]));
                        if before.pl(opp).known[me.index()] >> i & 1 == 0 {
                            assert_eq!(wa, Action::Set(world.pl(opp).card[i as usize]));
                        }
                        // And it is legal there.
                        g.legal_actions(&b, &mut list);
                        assert!(list.contains(&wa), "seed {seed}");
                        sets += 1;
                    }
                    _ => {
                        assert_eq!(wa, a);
                        others += 1;
                    }
                }
            }
        }
        assert!(sets > 50 && others > 50, "{sets} sets, {others} others");
    }
}
