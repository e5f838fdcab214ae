//! The TMNT rules (`docs/rules-tmnt.md`): setup, the six phases, the Attack phase's four steps,
//! texts and their timing. Each rule's ID is cited where it is implemented.
//!
//! The engine advances on its own ([`TmntGame::advance`], `turn.rs`) until a player must decide;
//! the decision is `State::step` (with `State::chooser`), and [`TmntGame::legal`] (`legal.rs`)
//! lists its actions. A decision with exactly one legal action is taken without asking
//! (M-TURN-2). Texts resolve in `resolve.rs`; the Attack phase's placing and forward are
//! `attack.rs` (M-ATK). This file holds the match, setup, the zones and power.
//!
//! **Action-list capacity.** Hidden cards are named by card id, so a decision over a hand, the
//! Trash or pending texts lists at most 40 card ids (plus `pass`); a `target … card` choice at
//! most 2 · (4 + 3) = 14 cards; a Result-step choice 4 + 1. All far within `core::MAX_ACTIONS`.

pub use super::cards::IdSet;
use super::cards::{Card, CardDb, CardId, CardType, Filter, Kind, When, NO_ATTR};
use super::state::*;
use crate::core::lang::Side;
use crate::core::{Outcome, Seat};
use rand::seq::SliceRandom;

mod attack;
mod judge;
mod legal;
mod resolve;
mod turn;

#[cfg(test)]
use super::BUNDLED_DECKS;

/// The card files and decks the engine's tests play: the bundled pool with
/// [`BUNDLED_DECKS`], and the designer set (`tests/data/designer/tmnt.played.csv`, cards in the
/// card language) with its two decks.
#[cfg(test)]
fn test_deck_sets() -> [(CardDb, Vec<crate::games::tmnt::deck::TmntDeck>); 2] {
    use crate::core::GameDef;
    let db = crate::games::tmnt::bundled_cards();
    let decks = crate::core::testing::folder_decks::<TmntGame>(&db, &BUNDLED_DECKS);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/designer");
    let text = std::fs::read_to_string(dir.join("tmnt.played.csv")).expect("the designer set");
    let designer = CardDb::parse(&text, "tmnt.played.csv").expect("the designer set parses");
    let designer_decks = ["tmnt_ninja.deck", "tmnt_brutes.deck"]
        .iter()
        .map(|n| TmntGame::load_deck(&designer, &dir.join(n)).expect("a designer deck"))
        .collect();
    [(db, decks), (designer, designer_decks)]
}

/// Test walker shared by the engine's tests: random games of every pair of the nine bundled
/// decks ([`BUNDLED_DECKS`]), then of every pair of the designer set's two decks
/// (`tests/data/designer/tmnt.played.csv`, cards in the card language, whose texts the stage
/// machine takes other paths for), `games` games a pair (game `i` of the `k`-th row deck dealt
/// with seed `i·mul + k`, the first player alternating), random moves; at each position `each`
/// gets the position and, one time in five, a determinization of it for a random seat, and the
/// walk's random numbers.
#[cfg(test)]
fn walk_bundled_positions(
    seed: u64,
    games: u64,
    mul: u64,
    mut each: impl FnMut(&TmntGame, Vec<State>, &mut crate::core::GameRng),
) {
    use crate::core::{rng_from_seed, ActionList, Game, GameDef};
    use rand::Rng;
    let [(db, decks), (designer, designer_decks)] = test_deck_sets();
    // Every match with the place `k` of its row deck (the designer set's rows after the bundled).
    let mut matches = Vec::new();
    for (first, set, cards) in [(0, &decks, &db), (decks.len(), &designer_decks, &designer)] {
        for (k, a) in set.iter().enumerate() {
            for b in set {
                matches.push((TmntGame::new_match(cards, [a, b]), first + k));
            }
        }
    }
    let mut rng = rng_from_seed(seed);
    let mut list = ActionList::new();
    for (g, k) in &matches {
        for i in 0..games {
            let mut s = g.new_game(i * mul + *k as u64, Seat::ALL[(i % 2) as usize]);
            while g.to_move(&s).is_some() {
                let mut states = vec![s];
                if rng.gen_range(0..5) == 0 {
                    let q = Seat::ALL[rng.gen_range(0..2)];
                    states.push(g.determinize(&s, q, &mut rng));
                }
                each(g, states, &mut rng);
                g.legal(&s, &mut list);
                let pick = list.as_slice()[rng.gen_range(0..list.len())];
                g.apply(&mut s, pick);
            }
        }
    }
}

/// A match: the card database and both players' decks (card ids).
#[derive(Clone, Debug)]
pub struct TmntGame {
    pub db: CardDb,
    pub decks: [Vec<CardId>; 2],
}

/// The side of `q` as seen by the text's owner `who`.
#[inline]
fn side_ok(side: Side, who: Seat, q: Seat) -> bool {
    match side {
        Side::Own => q == who,
        Side::Enemy => q != who,
        Side::Any => true,
    }
}

/// Runs `$body` with `$id` bound to each id of the [`IdSet`] `$set`, in increasing order, as
/// plain loops (so that `return` in the body leaves the enclosing function).
macro_rules! for_ids {
    ($set:expr, |$id:ident| $body:block) => {
        let set: $crate::games::tmnt::engine::IdSet = $set;
        for w in 0..4 {
            let mut m = set.0[w];
            while m != 0 {
                let $id = (w as u8) << 6 | m.trailing_zeros() as u8;
                m &= m - 1;
                $body
            }
        }
    };
}
pub(crate) use for_ids;

impl TmntGame {
    /// The card of `q`'s instance `i`.
    #[inline]
    pub fn card_of(&self, s: &State, q: Seat, i: u8) -> &Card {
        self.db.card(s.pl(q).card[i as usize])
    }

    // ---- setup (M-SETUP) ----

    /// M-SETUP-1..4: decks shuffled from `seed` (M-SETUP-3: the shuffle and the cut are one
    /// uniform shuffle) and dealt to instances from the top down (instance numbers carry no
    /// identity, M-INFO-1); 5 cards drawn, 4 face down onto the Block Zones; turn 1 begins.
    pub fn setup(&self, seed: u64, first: Seat) -> State {
        self.setup_with(seed, first, true)
    }

    /// [`TmntGame::setup`]; without `shuffle` the decks keep their order, the first card on top
    /// (scenarios stack decks this way). The state returned has not advanced to a decision.
    pub fn setup_with(&self, seed: u64, first: Seat, shuffle: bool) -> State {
        self.deal([&self.decks[0], &self.decks[1]], seed, first, shuffle)
    }

    /// The setup of `decks` (top first unless `shuffle`).
    pub fn deal(&self, decks: [&[CardId]; 2], seed: u64, first: Seat, shuffle: bool) -> State {
        let mut rng = crate::core::rng_from_seed(seed);
        let mut s = State {
            p: [Player::EMPTY; 2],
            turn: 1,
            active: first,
            first,
            step: Step::Set,
            chooser: first,
            stage: if self.db.sets.lang {
                Stage::TurnBegin
            } else {
                Stage::Adjust
            },
            cur: Frame::IDLE,
            pick: Pick::None,
            pending: [0; 2],
            pending_n: [[0; DECK]; 2],
            waiting: [0; 2],
            waiting_n: [[0; DECK]; 2],
            queue: Default::default(),
            discards: 0,
            item: NONE,
            attrs_used: 0,
            flipped: 0,
            total: 0,
            counter: 0,
            forward: false,
            forwards: 0,
            event: NONE,
            winner: None,
            once: [0; 2],
            those: [0; 2],
            that: NONE,
            x: [0; 2],
            reduce: 0,
            later: Frame::IDLE,
            window: 0,
            replaced: [0; 2],
            spared: [0; 2],
            rng: 0,
        };
        for q in Seat::ALL {
            let k = q.index();
            let deck = decks[k];
            let n = deck.len().min(DECK);
            let p = &mut s.p[k];
            p.n = n as u8;
            p.card[..n].copy_from_slice(&deck[..n]);
            if shuffle {
                p.card[..n].shuffle(&mut rng);
            }
            for j in 0..n {
                p.deck[j] = (n - 1 - j) as u8;
            }
            p.deck_len = n as u8;
            // M-SETUP-1: 5 cards; M-SETUP-2: the next 4 onto Block Zones 1..4.
            for _ in 0..5 {
                if let Some(i) = pop(p) {
                    p.hand |= 1 << i;
                    p.known[k] |= 1 << i;
                }
            }
            for z in 0..ZONES {
                if let Some(i) = pop(p) {
                    p.block[z] = i;
                    // M-SETUP-4: the owner looks at its Block cards.
                    p.known[k] |= 1 << i;
                }
            }
        }
        if self.db.sets.hooks & super::cards::hook::SHUFFLE != 0 {
            // M-SHUF-1: the generator of the shuffles during play.
            s.rng = rand::Rng::gen(&mut rng);
        }
        s
    }

    // ---- zones ----

    /// M-WIN-1, M-WIN-2: the player whose deck reached 0 loses at once.
    #[inline]
    fn check_deck(s: &mut State, q: Seat) {
        if s.pl(q).deck_len == 0 && s.winner.is_none() {
            s.winner = Some(Outcome::Win(q.other()));
            s.step = Step::Over;
        }
    }

    /// `q` draws one card (M-ADJ-3: one at a time); false when the game is over.
    fn draw(s: &mut State, q: Seat) -> bool {
        Self::draw_n(s, q, 1)
    }

    /// `q` draws `n` cards one at a time (M-ADJ-3), M-WIN-2 after each: false when the game is
    /// over (the deck ran out, or it was over already). As `n` calls of [`TmntGame::draw`],
    /// with one deck check, not one per card: only the last card can empty the deck, and a
    /// deck that runs out first ends the game at its last card (the test
    /// `engine::turn::tests::draw_n_and_trash_top_are_moves_one_at_a_time` checks it).
    #[inline(always)]
    fn draw_n(s: &mut State, q: Seat, n: u32) -> bool {
        if n == 0 {
            return true;
        }
        if s.winner.is_some() {
            return false;
        }
        let p = s.pl_mut(q);
        let k = n.min(u32::from(p.deck_len));
        let m = take_top(p, k);
        p.hand |= m;
        p.known[q.index()] |= m;
        if k > 0 {
            Self::check_deck(s, q);
        }
        k == n && s.winner.is_none()
    }

    /// `q` sends the top `n` cards of its deck to its Trash, one at a time (M-WIN-2 after each);
    /// the cards moved. Triggers `when trash`; in the Forward step it forbids keeping (M-ATK-14).
    /// The cards are taken at once: only the last can empty the deck, and then the game is over
    /// and the rest stay (`engine::turn::tests::draw_n_and_trash_top_are_moves_one_at_a_time`
    /// checks it against the one-at-a-time rule).
    fn trash_top(&self, s: &mut State, q: Seat, n: u32) -> u32 {
        if s.winner.is_some() {
            return 0;
        }
        let p = s.pl_mut(q);
        let moved = n.min(u32::from(p.deck_len));
        if moved == 0 {
            return 0;
        }
        let mask = take_top(p, moved);
        p.trash |= mask;
        p.milled |= mask;
        p.known = [p.known[0] | mask, p.known[1] | mask];
        Self::check_deck(s, q);
        if s.forward {
            s.pl_mut(q).trashed = true;
        }
        if self.db.sets.lang {
            self.milled_texts(s, q, mask);
        }
        self.trigger_one(s, q, When::Trash);
        moved
    }

    /// Makes instance `i` of `q` public (M-INFO-1: a card turned face up or put into a public
    /// zone).
    #[inline]
    fn reveal(s: &mut State, q: Seat, i: u8) {
        let p = s.pl_mut(q);
        p.known = [p.known[0] | 1 << i, p.known[1] | 1 << i];
    }

    /// Sends `q`'s instance `i`, from wherever it is (hand, Block Zone, Attack Zone, Item Zone),
    /// to the Trash, face up.
    fn to_trash(s: &mut State, q: Seat, i: u8) {
        Self::reveal(s, q, i);
        let p = s.pl_mut(q);
        let bit = 1u64 << i;
        p.hand &= !bit;
        p.items &= !bit;
        p.up &= !bit;
        for z in &mut p.block {
            if *z == i {
                *z = NONE;
            }
        }
        if let Some(k) = p.attack_zone().iter().position(|&x| x == i) {
            p.attack.copy_within(k + 1.., k);
            p.attack_len -= 1;
            p.attack[p.attack_len as usize] = NONE;
        }
        p.trash |= bit;
    }

    /// Sends the instances in `gone` (on Block Zones or in the Attack Zone, already taken off
    /// them) to the Trash, face up: [`TmntGame::to_trash`] for several cards at once.
    #[inline]
    fn all_to_trash(p: &mut Player, gone: u64) {
        p.known = [p.known[0] | gone, p.known[1] | gone];
        p.hand &= !gone;
        p.items &= !gone;
        p.up &= !gone;
        p.trash |= gone;
    }

    /// The instance of card `id` among `mask`'s instances of `q` that an action names: a copy the
    /// opponent knows, if it knows one, else the lowest (M-INFO-4: moving the unknown copy out of
    /// a hidden zone would tell the opponent that the known one is still there).
    pub fn instance_of(s: &State, q: Seat, mask: u64, id: CardId) -> Option<u8> {
        let p = s.pl(q);
        let known = mask & p.known[q.other().index()];
        // The lowest known copy, else the lowest copy (then none is known).
        for k in [known, mask & !known] {
            if let Some(i) = Bits(k).find(|&i| p.card[i as usize] == id) {
                return Some(i);
            }
        }
        None
    }

    /// The distinct card ids of `q`'s instances in `mask`.
    #[inline]
    pub fn ids_of(s: &State, q: Seat, mask: u64) -> IdSet {
        let p = s.pl(q);
        let mut set = IdSet::default();
        for i in Bits(mask) {
            set.insert(p.card[i as usize]);
        }
        set
    }

    // ---- power (M-DECK-5, M-ATK-8, M-ITM-3) ----

    /// The power of `q`'s face-up card `i` now: printed, with the statics of `q`'s Items
    /// (continuous texts, M-ITM-3, M-EFFECTS-1) and the changes of effects; a negative power
    /// counts as 0 (M-DECK-5).
    ///
    /// Without Items on `q`'s side and without cold statics in the match, it is the printed
    /// power and the changes alone (inlined); the rest is [`TmntGame::power_with_statics`].
    #[inline(always)]
    pub fn power(&self, s: &State, q: Seat, i: u8) -> i32 {
        let p = s.pl(q);
        if p.items == 0 && !self.db.sets.static_cold_any {
            let c = self.db.card(p.card[i as usize]);
            return (i32::from(c.power) + i32::from(p.temp[i as usize])).max(0);
        }
        self.power_with_statics(s, q, i)
    }

    /// [`TmntGame::power`] with the statics of `q`'s Items and the cold statics.
    #[inline(never)]
    fn power_with_statics(&self, s: &State, q: Seat, i: u8) -> i32 {
        let p = s.pl(q);
        let c = self.db.card(p.card[i as usize]);
        let mut v = i32::from(c.power) + i32::from(p.temp[i as usize]);
        for it in Bits(p.items) {
            let item = self.db.card(p.card[it as usize]);
            if !item.has_static {
                continue;
            }
            if let Some(effs) = item.text(super::cards::Trigger::Static) {
                for e in effs {
                    if let super::cards::Effect::Power(t, super::cards::Amount::Num(n)) = e {
                        // A static's own filter reads the printed power (docs/cards.md).
                        if Self::matches_printed(c, &t.filter) {
                            v += i32::from(*n);
                        }
                    }
                }
            }
        }
        if self.db.sets.static_cold_any {
            v += self.cold_statics(s, q, i);
        }
        v.max(0)
    }

    fn matches_printed(c: &Card, f: &Filter) -> bool {
        Self::matches_card(c, f, i32::from(c.power))
    }

    /// Whether card `c` with power `power` passes the filter's type, attribute and power tests.
    pub fn matches_card(c: &Card, f: &Filter, power: i32) -> bool {
        (f.types == 0 || f.types & (1 << c.ctype as u8) != 0)
            && (f.attrs == 0 || (c.attr != NO_ATTR && f.attrs & (1 << c.attr) != 0))
            && f.power_min.is_none_or(|m| power >= i32::from(m))
            && f.power_max.is_none_or(|m| power <= i32::from(m))
    }

    /// Whether `q`'s face-up card `i` matches `f` for a text on `who`'s card `src`.
    fn matches(&self, s: &State, q: Seat, i: u8, f: &Filter, who: Seat, src: u8) -> bool {
        if f.other && q == who && i == src {
            return false;
        }
        let c = self.card_of(s, q, i);
        Self::matches_card(c, f, self.power(s, q, i))
    }

    /// M-ATK-2: the attacking card's power — a Forceful Counter Attack card attacks with 0.
    pub fn attacking_power(&self, s: &State, q: Seat) -> i32 {
        let i = s.pl(q).block[0];
        if i == NONE {
            return 0;
        }
        if self.card_of(s, q, i).kind == Kind::ForcefulCounter {
            0
        } else {
            self.power(s, q, i)
        }
    }

    /// M-ATK-8: the attacker's total power and the defender's counter power now.
    pub fn attack_powers(&self, s: &State) -> (i32, i32) {
        let a = s.active;
        let d = a.other();
        let pa = s.pl(a);
        let mut total = self.attacking_power(s, a) + i32::from(pa.bonus);
        for &i in pa.attack_zone() {
            total += self.power(s, a, i);
        }
        let pd = s.pl(d);
        let mut counter = i32::from(pd.bonus);
        for &i in pd.attack_zone() {
            counter += self.power(s, d, i);
        }
        (total, counter)
    }

    /// Whether `q`'s face-up Block Zone 1 card makes an Attack phase (M-ATK-1).
    pub fn attack_card_on_block1(&self, s: &State, q: Seat) -> Option<CardType> {
        let p = s.pl(q);
        let i = p.block[0];
        if i == NONE || p.up & (1 << i) == 0 {
            return None;
        }
        let t = self.card_of(s, q, i).ctype;
        matches!(t, CardType::Character | CardType::Attack).then_some(t)
    }
}

/// Takes the top `k` cards of the deck (`k` at most its length): their instances.
#[inline(always)]
fn take_top(p: &mut Player, k: u32) -> u64 {
    let top = usize::from(p.deck_len);
    let rest = top - k as usize;
    p.deck_len = rest as u8;
    p.deck[rest..top].iter().fold(0, |m, &i| m | 1 << i)
}

/// Takes the top card of the deck, if any.
#[inline]
fn pop(p: &mut Player) -> Option<u8> {
    if p.deck_len == 0 {
        return None;
    }
    p.deck_len -= 1;
    Some(p.deck[p.deck_len as usize])
}
