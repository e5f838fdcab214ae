//! The Trails TCG (rules: `docs/rules.md`).

pub mod action;
pub mod cards;
pub mod deck;
mod def;
pub mod dsl;
pub mod effects;
pub mod engine;
mod invariants;
mod narrate;
mod notation;
mod observe;
pub mod policy;
pub mod scenario;
pub mod state;

pub use action::Action;
pub use cards::{CardDb, CardId};
pub use engine::TrailsGame;
pub use state::State;

use crate::core::hidden::{first_n, BytePool, Prepared};
use crate::core::{ActionList, CardUse, Game, GameRng, Outcome, Seat};
use state::Bits;

impl Game for TrailsGame {
    type State = State;
    type Action = Action;
    /// The undo record is a copy of the state: one `memcpy`, exact by construction.
    type Undo = State;

    fn name(&self) -> &'static str {
        "trails"
    }

    fn new_game(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup(seed, first);
        self.settle(&mut s);
        s
    }

    #[inline]
    fn legal_actions(&self, state: &State, out: &mut ActionList<Action>) {
        self.legal(state, out);
    }

    #[inline]
    fn apply(&self, state: &mut State, action: Action) -> State {
        let undo = *state;
        self.play(state, action);
        undo
    }

    #[inline]
    fn undo(&self, state: &mut State, undo: State) {
        *state = undo;
    }

    #[inline]
    fn to_move(&self, state: &State) -> Option<Seat> {
        state.chooser()
    }

    #[inline]
    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.winner
    }

    /// Every instance whose identity `observer` does not know gets a card resampled from the
    /// same owner's unknown cards: the opponent's hand and face-down homebase, both decks below
    /// any known cards. The result depends only on what the observer knows: the unknown card ids
    /// are sorted before the shuffle.
    /// One pool per player (T-INFO-1..3): its instances are interchangeable for the observer
    /// whatever zone they are in.
    fn determinize(&self, state: &State, observer: Seat, rng: &mut GameRng) -> State {
        let mut prep = Prepared::default();
        self.prepare_determinize(state, observer, &mut prep);
        let mut d = *state;
        self.determinize_in_place(&mut d, observer, &prep, rng);
        d
    }

    /// The pool of each player: its instances whose card `observer` does not know, with their
    /// cards sorted (`BytePool`), which every determinization of `state` deals again.
    fn prepare_determinize(&self, state: &State, observer: Seat, prep: &mut Prepared) {
        for q in Seat::ALL {
            let p = state.pl(q);
            let hidden = first_n(usize::from(p.n_cards)) & !p.known[observer.index()];
            prep.pools[q.index()] = BytePool::new(&p.card, hidden, |id| self.kind_tag(id));
        }
        prep.ready = true;
    }

    /// Deals the prepared pools (the cards of `redeal_bytes` on each player's pool, the first
    /// player's first), derives the card-kind masks of the dealt instances (the others keep
    /// their cards and so their bits), and draws the seed of shuffles during play anew when a
    /// card of the match can shuffle.
    fn determinize_in_place(
        &self,
        state: &mut State,
        observer: Seat,
        prep: &Prepared,
        rng: &mut GameRng,
    ) {
        if !prep.ready {
            *state = self.determinize(state, observer, rng);
            return;
        }
        // `prep` was prepared on this position for this observer (checked in every search of
        // the tests' `ci` profile): the same instances hidden.
        debug_assert!(Seat::ALL.iter().all(|&q| {
            let p = state.pl(q);
            prep.pools[q.index()].mask
                == first_n(usize::from(p.n_cards)) & !p.known[observer.index()]
        }));
        self.deal_pools(state, &prep.pools, rng);
        if self.has_shuffle {
            use rand::Rng;
            state.seed = rng.gen();
        }
    }

    /// Every card out of the deck has been drawn (or put into the homebase from the deck, which
    /// its owner sees).
    fn cards_out_of_deck(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(first_n(usize::from(p.n_cards)) & !p.deck_mask()) {
            f(u32::from(self.card_id(p.card[i as usize])));
        }
    }

    /// T-SETUP-3: the mulligan, the initiative player's first; a seat's opening hand is its cards
    /// out of the deck once it keeps (its replacement cards are drawn then, T-SETUP-4). The
    /// other seat's keep is followed in the same action by the initiative player's draw
    /// (T-PREP-1), never by the other seat's: the first position after a seat keeps holds its
    /// opening hand.
    fn opening_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) -> bool {
        let kept = state.step != state::Step::Mulligan
            || (seat == state.initiative && state.actor != state.initiative);
        if kept {
            self.cards_out_of_deck(state, seat, f);
        }
        kept
    }

    fn cards_in_hand(&self, state: &State, seat: Seat, f: &mut dyn FnMut(u32)) {
        let p = state.pl(seat);
        for i in Bits(p.hand) {
            f(u32::from(self.card_id(p.card[i as usize])));
        }
    }

    /// Deploying, dispatching, playing an EVENT or arts and turning a BASE face up play the card;
    /// putting it into the homebase (T-PREP-2, T-ICON-DISPATCH) uses it as a resource.
    fn card_use(&self, _state: &State, action: Action) -> Option<(u32, CardUse)> {
        let (id, u) = match action {
            Action::Deploy(id)
            | Action::Dispatch(id)
            | Action::Base(id)
            | Action::Event { card: id, .. }
            | Action::Arts { card: id, .. } => (id, CardUse::Played),
            Action::Homebase(id) | Action::DispatchPut(id) => (id, CardUse::Resource),
            _ => return None,
        };
        Some((u32::from(self.card_id(id)), u))
    }

    fn turn(&self, state: &State) -> u32 {
        u32::from(state.turn)
    }

    fn action_text(&self, state: &State, action: Action) -> String {
        self.action_text_for(state, action, false)
    }
}

/// The version of the rules this engine plays, bumped by every change of the rules that changes
/// games (`docs/rules.md`). It enters the content hash of a run, so that a checkpoint or a shard
/// of games played under other rules is neither resumed nor merged.
pub const RULES_VERSION: u32 = 3;

/// What the content hash of a run covers for one deck: the rules version and every card of the
/// deck as its card file defines it (sorted, one entry per copy).
pub fn deck_content(db: &CardDb, cards: &[CardId]) -> Vec<String> {
    let mut v: Vec<String> = cards
        .iter()
        .map(|&id| {
            let c = db.card(id);
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{:?}|{}",
                c.code,
                c.name,
                c.sub_name,
                c.ctype.name(),
                c.cost,
                c.str,
                c.def,
                db.org_names_of(c.orgs).join(";"),
                c.icons.names().collect::<Vec<_>>().join(";"),
                c.arts_cost,
                c.text
            )
        })
        .collect();
    v.sort();
    v.insert(0, format!("trails rules {RULES_VERSION}"));
    v
}

/// The content hash of a run played with `decks` (`crate::core::content_hash` of their
/// [`deck_content`], in order): it changes with any card of any deck and with the rules' version.
pub fn decks_content_hash(db: &CardDb, decks: &[&[CardId]]) -> String {
    let parts: Vec<String> = decks.iter().flat_map(|d| deck_content(db, d)).collect();
    crate::core::content_hash(parts.iter().map(String::as_str))
}

/// The bundled original sample card pool (`decks/trails/cards.csv`), so the binary works from any
/// directory.
pub const BUNDLED_CARDS: &str = include_str!("../../../decks/trails/cards.csv");

/// Loads the bundled sample pool.
pub fn bundled_cards() -> CardDb {
    CardDb::parse(BUNDLED_CARDS, "decks/trails/cards.csv (bundled)")
        .expect("the bundled card pool parses (checked by the tests)")
}

/// The eight bundled decks, whose 36 pairs (each deck also against itself) the unit tests'
/// games play (the combat targets, the static walk, the heuristic's combat view, `play`).
#[cfg(test)]
pub(crate) const TEST_DECKS: [&str; 8] = [
    "aggro",
    "control",
    "academy_swarm",
    "blitz",
    "covert",
    "hate_wall",
    "joint_task_force",
    "martial_arts",
];

/// The unit tests' matches: the bench match (`GameDef::bench_match`: aggro against control) when
/// `bench`, then the 36 pairs of [`TEST_DECKS`] (each deck also against itself).
#[cfg(test)]
pub(crate) fn test_games(bench: bool) -> Vec<TrailsGame> {
    use crate::core::GameDef;
    let db = bundled_cards();
    let decks = crate::core::testing::folder_decks::<TrailsGame>(&db, &TEST_DECKS);
    let mut games = Vec::new();
    if bench {
        games.push(TrailsGame::bench_match().expect("the bench match"));
    }
    for (k, a) in decks.iter().enumerate() {
        for b in &decks[k..] {
            games.push(TrailsGame::new(
                db.clone(),
                a.cards.clone(),
                b.cards.clone(),
            ));
        }
    }
    games
}

/// Random games for the engine's tests: `seeds` games of each match of `games`, game `seed` dealt
/// with `seed` and begun by P1 for an even seed, P2 for an odd one, the seats moved by
/// [`crate::agents::RandomAgent`]s of seeds `seed` and `seed + other`. `each` gets the match,
/// every position before its move, the seat to move and the game's seed.
#[cfg(test)]
pub(crate) fn walk_test_games(
    games: &[TrailsGame],
    seeds: u64,
    other: u64,
    each: impl FnMut(&TrailsGame, &State, Seat, u64),
) {
    walk_games_begun_by(
        games,
        seeds,
        other,
        |seed| Seat::ALL[(seed % 2) as usize],
        each,
    );
}

/// [`walk_test_games`] with every game begun by P1.
#[cfg(test)]
pub(crate) fn walk_test_games_p1_first(
    games: &[TrailsGame],
    seeds: u64,
    other: u64,
    each: impl FnMut(&TrailsGame, &State, Seat, u64),
) {
    walk_games_begun_by(games, seeds, other, |_| Seat::P1, each);
}

/// The random-game walk of [`walk_test_games`], game `seed` begun by `first(seed)`.
#[cfg(test)]
fn walk_games_begun_by(
    games: &[TrailsGame],
    seeds: u64,
    other: u64,
    first: impl Fn(u64) -> Seat,
    mut each: impl FnMut(&TrailsGame, &State, Seat, u64),
) {
    use crate::agents::{Agent, RandomAgent};
    use crate::core::Game;
    for g in games {
        for seed in 0..seeds {
            let mut s = g.new_game(seed, first(seed));
            let mut r = [RandomAgent::new(seed), RandomAgent::new(seed + other)];
            while let Some(q) = g.to_move(&s) {
                each(g, &s, q, seed);
                let act = r[q.index()].choose(g, &s, q);
                g.apply(&mut s, act);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, RandomAgent};
    use crate::core::hidden::redeal;
    use crate::core::{rng_from_seed, GameDef};
    use rand::Rng;

    /// `want` for `determinize(state, observer)` as it was before the deal was prepared, from
    /// the general [`redeal`] (the standard library's sort, rand's shuffle): each player's pool
    /// (the instances whose card `observer` does not know) dealt again, the first player's
    /// first, the card-kind masks derived afresh for every instance, the seed of shuffles
    /// during play drawn anew when a card of the match can shuffle.
    fn by_redeal(g: &TrailsGame, state: &State, observer: Seat, rng: &mut GameRng) -> State {
        let mut want = *state;
        for q in Seat::ALL {
            let p = want.pl_mut(q);
            let hidden = first_n(usize::from(p.n_cards)) & !p.known[observer.index()];
            redeal(&mut p.card, hidden, rng);
        }
        g.refresh_kinds(&mut want);
        if g.has_shuffle {
            want.seed = rng.gen();
        }
        want
    }

    /// A card file whose first card shuffles its owner's deck (`search`, T-EFF-11).
    const SHUFFLING: &str = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n\
        S-1,Scout,,UNIT,1,1,1,army,,,enter: search up_to 1 own unit name='Grunt' to hand\n\
        S-2,Grunt,,UNIT,1,2,1,army,,,\n\
        S-3,Brute,,UNIT,2,3,2,army,,,\n\
        S-4,Cleric,,UNIT,2,1,3,church,,,\n";

    /// T-INFO-1..3: a search prepares its root once and determinizes it again at every
    /// iteration (`prepare_determinize`, `determinize_in_place`); deal after deal from one
    /// random stream that gives the states [`by_redeal`] gives, and leaves the stream where it
    /// leaves it; so does `determinize`. At positions of random games of the bench match (no
    /// card of which shuffles) and of a match whose decks shuffle during play, for both
    /// observers, three deals each.
    #[test]
    fn prepared_determinizations_deal_as_the_general_redeal() {
        let bench = TrailsGame::bench_match().expect("the bench match");
        assert!(!bench.has_shuffle);
        let db = CardDb::parse(SHUFFLING, "shuffling.csv").expect("card file");
        let deck = |ids: &[u16]| -> Vec<u16> { (0..40).map(|k| ids[k % ids.len()]).collect() };
        let shuffling = TrailsGame::new(db, deck(&[0, 1, 2]), deck(&[0, 1, 3]));
        assert!(shuffling.has_shuffle);
        let mut positions = 0u64;
        for g in [&bench, &shuffling] {
            for seed in 0..12u64 {
                let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
                let mut a = [RandomAgent::new(seed), RandomAgent::new(seed + 100)];
                while let Some(q) = g.to_move(&s) {
                    for observer in Seat::ALL {
                        let mut prep = Prepared::default();
                        g.prepare_determinize(&s, observer, &mut prep);
                        let mut r1 = rng_from_seed(seed * 1_000 + positions);
                        let mut r2 = r1.clone();
                        for deal in 0..3 {
                            let mut d = s;
                            g.determinize_in_place(&mut d, observer, &prep, &mut r1);
                            let want = by_redeal(g, &s, observer, &mut r2);
                            assert!(d == want, "seed {seed}, position {positions}, deal {deal}");
                        }
                        assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "the stream after");
                        let d = g.determinize(&s, observer, &mut r1);
                        assert!(d == by_redeal(g, &s, observer, &mut r2), "determinize");
                        assert_eq!(r1.gen::<u64>(), r2.gen::<u64>(), "the stream after");
                        positions += 1;
                    }
                    let act = a[q.index()].choose(g, &s, q);
                    g.apply(&mut s, act);
                }
            }
        }
        assert!(positions > 2_000, "{positions}");
    }
}
