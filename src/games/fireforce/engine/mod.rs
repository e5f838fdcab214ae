//! The Fire Force rules (`docs/rules-fireforce.md`): setup, the turn, costs and Flame, battles,
//! effects. Each rule's ID is cited where it is implemented.
//!
//! The engine advances on its own ([`FireForceGame::settle`], `turn.rs`) until a player must decide; the
//! decision is the pair (`State::step`, `State::pick`), and [`FireForceGame::legal`] (`legal.rs`)
//! lists its actions; `play.rs` plays one, `resolve.rs` resolves abilities' effects, `battle.rs`
//! holds a battle's Blockers, support and damage (F-BAT). This file holds the match, setup, the
//! zones, costs and power.
//!
//! **Action-list capacity.** A player owns at most 45 instances. In the main phase each card in
//! hand gives at most one action (dispatch or play, by distinct card id) and each Unit on the Scene
//! at most 4 (attack, Pray, at most [`super::cards::MAX_ACTIVATED`] = 2 activated abilities): at
//! most 40 · 4 + 1 = 161 actions. A target is one of at most 40 Units or the player (41); a block
//! 40 + 1; a reaction 40 · 2 + 1; support 40 + 1; a pick at most 2 · 45 + 1 = 91; a Flame card 5.
//! All within `core::MAX_ACTIONS` (256); `legal` asserts it in debug builds.

use super::cards::{
    Brief, Card, CardDb, CardId, Effect, Filter, Keywords, Mode, Scope, Static, Target, Trigger,
    Until,
};
use super::state::*;
use super::Action;
use crate::core::lang::Side;
use crate::core::{ActionList, ByteTable, Outcome, Seat};
use rand::seq::SliceRandom;
use std::sync::Arc;

/// A match: the card database and both players' decks (main deck and Flame deck, card ids), and
/// what the decks' card texts need of the engine ([`Lang`]).
#[derive(Clone, Debug)]
pub struct FireForceGame {
    pub db: CardDb,
    pub main: [Vec<CardId>; 2],
    pub flame: [Vec<CardId>; 2],
    pub lang: Lang,
    /// Decision F-EFF-12: the names `name_card` offers (the names of both main decks' cards, as
    /// their lowest card id, in card id order), and each card id's name as its lowest card id.
    pub names: Vec<CardId>,
    pub name_of: Vec<CardId>,
    /// The static abilities of each card id, in a [`ByteTable`]: `power` reads a static source's
    /// by its one-byte id without a bounds check, several times a call.
    statics_of: ByteTable<Vec<Static>>,
    /// The statics' power by source card and reached card, summed once per card file:
    /// `power` reads one entry per static source instead of testing its statics one by one.
    static_sums: StaticSums,
}

/// The power the statics of one source card give a Unit, by gate bit ([`Static::gate_bit`])
/// and reached card id, for every source card, derived from the same tests as
/// [`Static::reaches`]: `rows[src][g][id]` adds the power of the statics of `src` whose gate
/// has bit `g` and whose filter's printed part `id` passes; `own[id][g]` is the part of it that
/// an `other` static of card `id` gives its own card, taken off when the Unit is the source
/// itself. A card without statics shares one block of zeros. Each block is a fixed-size array
/// reached through a [`ByteTable`], so `power` reads an entry with no bounds check.
#[derive(Clone, Debug)]
struct StaticSums {
    rows: ByteTable<Arc<StaticBlock>>,
    own: ByteTable<[i32; 4]>,
    /// Whether the match's power is the plain sum of its own side's sources: no static of the
    /// later kinds ([`Lang::rich_statics`]) and no static that reaches the opponent's Units in
    /// the decks (then `statics[1]` stays empty). Else `power` takes its cold path.
    own_only: bool,
}

/// A source card's sums: by gate index, then by reached card id.
type StaticBlock = [[i32; 256]; 4];

impl StaticSums {
    fn of(db: &CardDb, own_only: bool) -> StaticSums {
        let n = db.cards.len();
        let zeros = Arc::new([[0; 256]; 4]);
        let mut rows = Vec::with_capacity(n);
        let mut own = Vec::with_capacity(n);
        for (src, c) in db.cards.iter().enumerate() {
            if c.statics.is_empty() {
                rows.push(Arc::clone(&zeros));
                own.push([0; 4]);
                continue;
            }
            let mut block: StaticBlock = [[0; 256]; 4];
            let mut mine = [0; 4];
            for g in 0..4u8 {
                for (id, x) in block[usize::from(g)].iter_mut().enumerate().take(n) {
                    *x = c
                        .statics
                        .iter()
                        .filter(|st| st.reaches(1 << g, id as CardId, false))
                        .map(|st| i32::from(st.power))
                        .sum();
                }
                mine[usize::from(g)] = c
                    .statics
                    .iter()
                    .filter(|st| {
                        st.reaches(1 << g, src as CardId, false)
                            && !st.reaches(1 << g, src as CardId, true)
                    })
                    .map(|st| i32::from(st.power))
                    .sum();
            }
            rows.push(Arc::new(block));
            own.push(mine);
        }
        StaticSums {
            rows: ByteTable::new(zeros, rows),
            own: ByteTable::new([0; 4], own),
            own_only,
        }
    }
}

/// Which of the card language's later constructs the match's decks hold: the engine walks their
/// cold paths only when they do, so that the bundled decks play at their old speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lang {
    /// A static on `self` or a `bearer`, with a condition, or a filter on the position.
    pub rich_statics: bool,
    /// A static that reaches the opponent's Units (side `enemy` or `any`, F-STATIC-1): the
    /// opponent's sources count in `power` ([`StaticSums::own_only`]).
    pub enemy_statics: bool,
    /// An ability about another card's event, or a Flame card's own `put to scene`.
    pub watch: bool,
    /// An ability at the start of a Main phase.
    pub start_main: bool,
    /// A prohibition (`static: cant …`) that blocking or choosing must read.
    pub cant: bool,
    /// A Unit that `cant self attack_player`.
    pub no_face: bool,
    /// An ability that grants Blocker (decision F-KW-GRANT).
    pub grant: bool,
    /// A cost change (decision F-COST-8) or a ban (decision F-EFF-12): a card's cost or whether
    /// it may be dispatched or played is read anew.
    pub costs: bool,
    /// A replacement of a removal (`instead removed self`, decision F-EFF-13).
    pub instead: bool,
}

impl Lang {
    /// What the cards `ids` of `db` need.
    pub fn of(db: &CardDb, ids: impl Iterator<Item = CardId>) -> Lang {
        let mut l = Lang::default();
        for id in ids {
            let c = db.card(id);
            l.rich_statics |= c.statics.iter().any(|st| !st.plain);
            l.enemy_statics |= c.statics.iter().any(|st| st.side != Side::Own);
            l.cant |= c.cant.unblockable || c.cant.chosen || c.cant.bearer_chosen;
            l.no_face |= c.cant.attack_player;
            l.costs |= !c.cant.costs.is_empty();
            let effects = c.abilities.iter().chain(c.life_trigger.as_deref());
            l.grant |= effects
                .flat_map(|a| a.program.effects())
                .any(|e| matches!(e, Effect::Grant(_, k, _) if k.has(Keywords::BLOCKER)));
            l.costs |= c
                .abilities
                .iter()
                .flat_map(|a| a.program.effects())
                .any(|e| matches!(e, Effect::Ban { .. }));
            for a in &c.abilities {
                l.watch |= matches!(
                    a.trigger,
                    Trigger::OtherRemoved | Trigger::Played | Trigger::Put
                );
                l.start_main |= a.trigger == Trigger::StartMain;
                l.instead |= a.trigger == Trigger::Instead;
            }
        }
        l
    }
}

/// The side of `q` as seen by controller `who`.
#[inline]
fn side_ok(side: Side, who: Seat, q: Seat) -> bool {
    match side {
        Side::Own => q == who,
        Side::Enemy => q != who,
        Side::Any => true,
    }
}

mod battle;
mod costs;
mod hits;
mod judge;
mod later;
pub(crate) use later::INSTEAD;
mod legal;
mod moves;
mod pay;
pub use pay::MAX_PAYERS;
mod play;
mod resolve;
mod turn;

impl FireForceGame {
    /// A match of `db`'s cards: each player's main deck and Flame deck.
    pub fn new(db: CardDb, main: [Vec<CardId>; 2], flame: [Vec<CardId>; 2]) -> FireForceGame {
        let ids = main.iter().chain(&flame).flatten().copied();
        let lang = Lang::of(&db, ids);
        let own_only = !lang.rich_statics && !lang.enemy_statics;
        let name_of: Vec<CardId> = (0..db.cards.len())
            .map(|k| {
                let name = &db.cards[k].name;
                db.cards.iter().position(|c| &c.name == name).unwrap_or(k) as CardId
            })
            .collect();
        let mut names: Vec<CardId> = main
            .iter()
            .flatten()
            .map(|&id| name_of[id as usize])
            .collect();
        names.sort_unstable();
        names.dedup();
        FireForceGame {
            static_sums: StaticSums::of(&db, own_only),
            statics_of: ByteTable::new(Vec::new(), db.cards.iter().map(|c| c.statics.clone())),
            db,
            main,
            flame,
            lang,
            names,
            name_of,
        }
    }

    /// The card of `q`'s instance `i`.
    #[inline]
    pub fn card_of(&self, s: &State, q: Seat, i: u8) -> &super::cards::Card {
        self.db.card(s.pl(q).card[i as usize])
    }

    // ---- setup (F-SETUP) ----

    /// F-SETUP-1, F-SETUP-2: decks shuffled from `seed` and dealt to instances from the top down
    /// (instance numbers carry no identity, F-INFO-1), 5 cards drawn; the redraw decisions follow.
    pub fn setup(&self, seed: u64, first: Seat) -> State {
        self.setup_with(seed, first, true)
    }

    /// [`FireForceGame::setup`]; without `shuffle` the decks keep their order, the first card on
    /// top (scenarios stack decks this way).
    pub fn setup_with(&self, seed: u64, first: Seat, shuffle: bool) -> State {
        let mut rng = crate::core::rng_from_seed(seed);
        let mut s = State {
            p: [Player::EMPTY; 2],
            turn: 0,
            active: first,
            first,
            step: Step::Redraw,
            chooser: first,
            pick: Pick::None,
            battle: Battle::NONE,
            frames: Default::default(),
            removed: [0; 2],
            ends: 0,
            acts: [0; 2],
            seen: [0; LOOP_SEEN],
            seen_at: 0,
            x: [0; 2],
            winner: None,
            win_reason: 0,
            flame_check: true,
            later: Default::default(),
            lasting: Default::default(),
            named: NONE,
            replacing: Default::default(),
            x_kept: [0; 2],
            seed: 0,
        };
        for q in Seat::ALL {
            let k = q.index();
            let main = &self.main[k];
            let n = main.len();
            let p = &mut s.p[k];
            p.n_main = n as u8;
            // Instance i holds the i-th card from the top; the deck array is bottom first.
            p.card[..n].copy_from_slice(main);
            if shuffle {
                p.card[..n].shuffle(&mut rng);
            }
            for k in 0..n {
                p.pile[k] = (n - 1 - k) as u8;
            }
            p.deck_len = n as u8;
            // F-SETUP-1: the Flame deck is public (F-INFO-1).
            for (j, &c) in self.flame[k].iter().enumerate() {
                p.card[FLAME_BASE + j] = c;
                p.flame_deck |= 1 << (FLAME_BASE + j);
            }
            p.known = [FLAME_MASK; 2];
            Self::draw_raw(&mut s, q, 5);
        }
        use rand::Rng;
        s.seed = rng.gen();
        s
    }

    /// Draws `n` cards without the deck-out check (setup).
    fn draw_raw(s: &mut State, q: Seat, n: u8) {
        let p = s.pl_mut(q);
        for _ in 0..n {
            let Some(i) = p.pop_deck() else { return };
            p.hand |= 1 << i;
            p.known[q.index()] |= 1 << i;
        }
    }

    /// F-SETUP-2, F-INFO-2: the whole hand back into the deck, shuffled, 5 drawn.
    fn redraw(s: &mut State, q: Seat) {
        let mut rng =
            crate::core::rng_from_seed(crate::core::mix_seed(&[s.seed, q.index() as u64]));
        let p = s.pl_mut(q);
        let hand = p.hand;
        for i in Bits(hand) {
            p.pile[p.deck_len as usize] = i;
            p.deck_len += 1;
        }
        p.hand = 0;
        p.known[q.index()] &= !hand;
        let n = p.deck_len as usize;
        p.pile[..n].shuffle(&mut rng);
        Self::draw_raw(s, q, 5);
    }

    // ---- zones ----

    /// F-WIN-2, F-WIN-3: a player whose deck is empty loses at once.
    pub(super) fn check_deck(s: &mut State, q: Seat) {
        if s.pl(q).deck_len == 0 && s.winner.is_none() {
            s.winner = Some(Outcome::Win(q.other()));
            s.win_reason = 2;
        }
    }

    fn draw(s: &mut State, q: Seat, n: u8) {
        Self::draw_raw(s, q, n);
        Self::check_deck(s, q);
    }

    /// Makes instance `i` of `q` public (it is on the Scene or in THE ADOLLA, face up).
    #[inline]
    pub(super) fn reveal(s: &mut State, q: Seat, i: u8) {
        s.pl_mut(q).known = s.pl(q).known.map(|k| k | 1 << i);
    }

    /// The top deck card into THE ADOLLA (`mill`).
    fn mill(s: &mut State, q: Seat, n: u8) {
        for _ in 0..n {
            let Some(i) = s.pl_mut(q).pop_deck() else {
                break;
            };
            s.pl_mut(q).adolla |= 1 << i;
            Self::reveal(s, q, i);
        }
        Self::check_deck(s, q);
    }

    /// Top deck cards face down onto the Life area (`life`).
    fn life(s: &mut State, q: Seat, n: u8) {
        for _ in 0..n {
            let p = s.pl_mut(q);
            let Some(i) = p.pop_deck() else { break };
            p.life_len += 1;
            p.pile[FLAME_BASE - p.life_len as usize] = i;
        }
        Self::check_deck(s, q);
    }

    /// Unit `u` of `q` leaves the Scene (to THE ADOLLA or the hand): its flags and changes go;
    /// F-COST-6: a Flame card given to it stays on the Scene, exhausted, given to nobody.
    fn leave_scene(s: &mut State, q: Seat, u: u8) {
        let p = s.pl_mut(q);
        let bit = 1u64 << u;
        p.scene &= !bit;
        p.flamey &= !bit;
        p.statics = p.statics.map(|m| m & !bit);
        p.exhausted &= !bit;
        p.fresh &= !bit;
        p.once &= !bit;
        p.blocker = p.blocker.map(|m| m & !bit);
        if (u as usize) < FLAME_BASE {
            p.acting.remove(u);
            p.guards.remove(u);
            p.stilled.remove(u);
            p.power_turn[u as usize] = 0;
            p.power_battle[u as usize] = 0;
        }
        if !s.lasting.is_empty() {
            Self::forget_lasting(s, q, u);
        }
        let p = s.pl_mut(q);
        for k in 0..FLAME_DECK {
            if p.given_to[k] == u {
                p.given_to[k] = NONE;
                p.exhausted |= 1 << (FLAME_BASE + k);
            }
        }
        if q == s.active && s.battle.attacker == u {
            s.battle.attacker = NONE;
        }
        if q != s.active && !s.battle.on_player && s.battle.target == u {
            s.battle.target = NONE;
        }
    }

    /// F-BAT-7, glossary "Remove": Unit `u` into its owner's THE ADOLLA; its When Removed
    /// ability waits (F-KW-TRIGGERS).
    /// False when a replacement waits instead (decision F-EFF-13).
    fn remove(&self, s: &mut State, q: Seat, u: u8) -> bool {
        if self.lang.instead && self.replaced(s, q, u) {
            return false;
        }
        self.remove_now(s, q, u);
        true
    }

    /// [`FireForceGame::remove`] without replacement (decision F-EFF-13).
    fn remove_now(&self, s: &mut State, q: Seat, u: u8) {
        self.remove_quietly(s, q, u);
        if self.lang.watch {
            self.watch(s, Trigger::OtherRemoved, q, u);
        }
    }

    /// [`FireForceGame::remove`] without the abilities about another card's removal.
    #[inline(always)]
    fn remove_quietly(&self, s: &mut State, q: Seat, u: u8) {
        Self::leave_scene(s, q, u);
        s.pl_mut(q).adolla |= 1 << u;
        if self.card_of(s, q, u).on(Trigger::Removed) != 0 {
            s.removed[q.index()] |= 1 << u;
        }
    }

    /// `remove all …` where abilities watch removals (decision F-EFF-11): the Units leave the
    /// Scene together, then each removal is seen, also by the Units removed with it.
    #[cold]
    pub(super) fn remove_each(&self, s: &mut State, c: [u64; 2]) {
        let mut gone = [0u64; 2];
        for q in Seat::ALL {
            for u in Bits(c[q.index()] & s.pl(q).units()) {
                if self.lang.instead && self.replaced(s, q, u) {
                    continue;
                }
                s.x[q.index()] = s.x[q.index()].saturating_add(1);
                self.remove_quietly(s, q, u);
                gone[q.index()] |= 1 << u;
            }
        }
        for q in Seat::ALL {
            for u in Bits(gone[q.index()]) {
                self.watch_with(s, Trigger::OtherRemoved, q, u, gone);
            }
        }
    }

    /// F-COST-2: a card with Flame into THE ADOLLA — not a removal, so no When Removed (F-COST-7).
    /// A Flame card returns to the Flame deck; a card put as a Flame card goes back to THE ADOLLA.
    pub(super) fn limit_out(s: &mut State, q: Seat, i: u8) {
        let bit = 1u64 << i;
        if bit & FLAME_MASK != 0 {
            let p = s.pl_mut(q);
            p.scene &= !bit;
            p.statics = p.statics.map(|m| m & !bit);
            p.exhausted &= !bit;
            p.given_to[i as usize - FLAME_BASE] = NONE;
            p.flame_deck |= bit;
        } else if s.pl(q).as_flame & bit != 0 {
            let p = s.pl_mut(q);
            p.scene &= !bit;
            p.exhausted &= !bit;
            p.as_flame &= !bit;
            p.adolla |= bit;
        } else {
            Self::leave_scene(s, q, i);
            s.pl_mut(q).adolla |= bit;
        }
    }

    /// Units of `q` on the Scene that have Flame.
    #[inline]
    pub fn flame_units(&self, s: &State, q: Seat) -> u64 {
        s.pl(q).flamey
    }

    /// Card `i` of `q` arrives on the Scene (a Unit dispatched, a Flame card put there): the
    /// derived masks follow.
    pub(super) fn enter_scene(&self, s: &mut State, q: Seat, i: u8) {
        let c = self.card_of(s, q, i);
        let flame = c.is_unit() && c.flame;
        let b = self.db.brief(s.pl(q).card[i as usize]);
        let unit = (i as usize) < FLAME_BASE && c.is_unit();
        let acting = unit && (b.has(Brief::PRAY) || b.active != 0);
        let guard = unit && b.has(Brief::BLOCKER);
        let own = c.statics.iter().any(|st| st.side != Side::Enemy);
        let enemy = c.statics.iter().any(|st| st.side != Side::Own);
        s.flame_check = true;
        let p = s.pl_mut(q);
        let bit = 1u64 << i;
        p.scene |= bit;
        if flame {
            p.flamey |= bit;
        }
        if acting {
            p.acting.insert(i);
        }
        if guard {
            p.guards.insert(i);
        }
        if own {
            p.statics[0] |= bit;
        }
        if enemy {
            p.statics[1] |= bit;
        }
    }

    /// F-COST-2: cards with Flame on `q`'s Scene: Flame cards (given or not, F-COST-5), cards put
    /// as Flame cards, Units with Flame.
    pub fn with_flame(&self, s: &State, q: Seat) -> u64 {
        s.pl(q).flame_cards() | self.flame_units(s, q)
    }

    /// How many cards with Flame `q` can exhaust, not counting `except`: the ready cards with
    /// Flame.
    pub fn can_pay(&self, s: &State, q: Seat, except: u64) -> u32 {
        let p = s.pl(q);
        ((p.flame_cards() | self.flame_units(s, q)) & !p.exhausted & !except).count_ones()
    }

    // ---- power and filters ----

    /// A Unit's power: printed, changes until end of turn and during this battle (support power
    /// among them), and the static abilities of cards on both Scenes; below 0 included (F-BAT-7: the
    /// guide sets no floor).
    pub fn power(&self, s: &State, q: Seat, u: u8) -> i32 {
        self.power_inlined(s, q, u)
    }

    /// [`FireForceGame::power`] inlined at the call: the heuristic's calls (`policy.rs`), where
    /// a call costs ~20 instructions of its ~110 in pushes, pops and arguments. (Inlined into
    /// the engine's callers as well, the random self-play bench went 808 → 814 instructions a
    /// decision; the heuristic's gained 1,399 → 1,379.)
    #[inline(always)]
    pub(crate) fn power_inlined(&self, s: &State, q: Seat, u: u8) -> i32 {
        let t = &self.static_sums;
        if !t.own_only {
            return self.power_cold(s, q, u);
        }
        let v = self.own_power(s, q, u);
        debug_assert_eq!(
            v,
            {
                let mut one = [0; FLAME_BASE];
                self.powers(s, q, 1 << u, &mut one);
                one[usize::from(u)]
            },
            "StaticSums is stale"
        );
        v
    }

    /// The printed power of `q`'s Unit `u` with the sums of `q`'s own static sources
    /// ([`StaticSums`]; F-STATIC-1): all of [`FireForceGame::power`] when only own statics are in
    /// the decks (`own_only`), the start of [`Self::power_cold`] otherwise.
    #[inline(always)]
    fn own_power(&self, s: &State, q: Seat, u: u8) -> i32 {
        let t = &self.static_sums;
        let p = s.pl(q);
        let id = p.card[u as usize];
        let mut v = self.base_power(s, q, u);
        let g = Static::gate_index(0, p.exhausted & 1 << u == 0);
        // The filter's `ready` of each static in the gate index; each source adds its card's sum
        // for the Unit's card id, one table read.
        let mine = p.statics[0];
        for i in Bits(mine) {
            v += t.rows[p.card[i as usize]][g][usize::from(id)];
        }
        // "other": not the static's own card (the Unit is at most one of the sources).
        if mine & 1 << u != 0 {
            v -= t.own[id][g];
        }
        v
    }

    /// [`FireForceGame::power`] when the decks hold statics of the later kinds or statics that
    /// reach the opponent's Units: the opponent's sources too, from the same tables (F-STATIC-1:
    /// a static changes the power of `all own|enemy units …`).
    #[cold]
    #[inline(never)]
    fn power_cold(&self, s: &State, q: Seat, u: u8) -> i32 {
        if self.lang.rich_statics {
            return self.rich_power(s, q, u);
        }
        let p = s.pl(q);
        let id = p.card[u as usize];
        let mut v = self.own_power(s, q, u);
        let ready = p.exhausted & 1 << u == 0;
        let (t, o) = (&self.static_sums, s.pl(q.other()));
        let g = Static::gate_index(1, ready);
        for i in Bits(o.statics[1]) {
            v += t.rows[o.card[i as usize]][g][usize::from(id)];
        }
        v
    }

    /// [`FireForceGame::power`] of each of `q`'s Units in `units` (below [`FLAME_BASE`]), into
    /// `out` by instance: one walk over the static sources for all of them (the observation
    /// tensors). The same sums as `power`, added in another order.
    pub fn powers(&self, s: &State, q: Seat, units: u64, out: &mut [i32; FLAME_BASE]) {
        if self.lang.rich_statics {
            for u in Bits(units) {
                out[usize::from(u)] = self.rich_power(s, q, u);
            }
            return;
        }
        let p = s.pl(q);
        for u in Bits(units) {
            out[usize::from(u)] = self.base_power(s, q, u);
        }
        for (owner, reach) in [(q, 0), (q.other(), 1)] {
            let o = s.pl(owner);
            for i in Bits(o.statics[reach]) {
                for st in self.statics_of[o.card[i as usize]].iter() {
                    for u in Bits(units) {
                        let ready = p.exhausted & 1 << u == 0;
                        let this = owner == q && i == u;
                        let id = p.card[usize::from(u)];
                        let hit = st.reaches(Static::gate_bit(reach, ready), id, this);
                        debug_assert_eq!(
                            hit,
                            side_ok(st.side, owner, q)
                                && Self::static_filter(st, id, self.db.card(id), ready, this),
                            "CardDb::derive is stale"
                        );
                        if hit {
                            out[usize::from(u)] += i32::from(st.power);
                        }
                    }
                }
            }
        }
    }

    /// [`FireForceGame::power`] when the decks hold statics of the later kinds (on `self`, on
    /// the bearer, with a condition or a filter on the position: decision F-STATIC-1).
    #[cold]
    fn rich_power(&self, s: &State, q: Seat, u: u8) -> i32 {
        let p = s.pl(q);
        let id = p.card[u as usize];
        let c = self.db.card(id);
        let mut v = self.base_power(s, q, u);
        let ready = p.exhausted & 1 << u == 0;
        for (owner, reach) in [(q, 0), (q.other(), 1)] {
            let o = s.pl(owner);
            for i in Bits(o.statics[reach]) {
                let src = self.db.card(o.card[i as usize]);
                let this = owner == q && i == u;
                for st in &src.statics {
                    if !side_ok(st.side, owner, q) {
                        continue;
                    }
                    let hit = if st.plain {
                        Self::static_filter(st, id, c, ready, this)
                    } else {
                        self.static_applies(s, st, (owner, i), (q, u), id, c, ready)
                    };
                    if hit {
                        v += i32::from(st.power);
                    }
                }
            }
        }
        v
    }

    /// A Unit's power without static abilities: printed, until end of turn, during this battle.
    #[inline]
    pub fn base_power(&self, s: &State, q: Seat, u: u8) -> i32 {
        let p = s.pl(q);
        // The printed power through the brief (a table by `u8` id, no bounds check).
        i32::from(self.db.brief(p.card[u as usize]).power)
            + i32::from(p.power_turn[u as usize])
            + i32::from(p.power_battle[u as usize])
    }

    /// Whether a static of the later kinds (on `self`, on the bearer, with a condition or a
    /// `given` filter) of `owner`'s card `i` reaches `q`'s Unit `u` (decision F-STATIC-1).
    #[allow(clippy::too_many_arguments)]
    fn static_applies(
        &self,
        s: &State,
        st: &Static,
        (owner, i): (Seat, u8),
        (q, u): (Seat, u8),
        id: CardId,
        c: &Card,
        ready: bool,
    ) -> bool {
        let hit = match st.scope {
            Scope::All => {
                Self::static_filter(st, id, c, ready, owner == q && i == u)
                    && (!st.filter.has_state_extras() || self.extras_ok(s, q, u, &st.filter))
            }
            Scope::This => owner == q && i == u,
            Scope::Bearer => {
                owner == q
                    && (i as usize) >= FLAME_BASE
                    && s.pl(q).given_to[i as usize - FLAME_BASE] == u
            }
        };
        hit && st
            .cond
            .as_ref()
            .is_none_or(|k| crate::core::lang::eval::cond(&self.printed_judge(s, owner, i), k))
    }

    /// A static's filter on a Unit of card `id` (`c`), ready or not, the static's own card or
    /// not: on printed power (no static reads another's result), which [`Static::hits`] holds.
    #[inline]
    fn static_filter(st: &Static, id: CardId, c: &Card, ready: bool, this: bool) -> bool {
        debug_assert_eq!(
            st.hits(id),
            st.filter.printed_ok(c),
            "CardDb::derive is stale"
        );
        st.hits(id) && Self::state_filter(&st.filter, ready, this)
    }

    /// The state's part of a filter: ready or exhausted, not the ability's own card.
    #[inline]
    fn state_filter(f: &Filter, ready: bool, this: bool) -> bool {
        f.ready.is_none_or(|r| ready == r) && !(f.other && this)
    }

    /// The rest of the state's part of a filter on `q`'s Unit `u`: given a Flame card,
    /// attacking, attacked.
    #[cold]
    fn extras_ok(&self, s: &State, q: Seat, u: u8, f: &Filter) -> bool {
        let b = &s.battle;
        let in_battle = b.attacker != NONE && !matches!(s.step, Step::Main | Step::End);
        let attacking = in_battle && q == s.active && b.attacker == u;
        let attacked = in_battle && q != s.active && !b.on_player && b.target == u;
        f.given.is_none_or(|g| s.pl(q).is_given(u) == g)
            && f.attacking.is_none_or(|a| a == attacking)
            && f.attacked.is_none_or(|a| a == attacked)
    }

    /// `has=blocker` of a Unit granted Blocker (decision F-KW-GRANT): the filter's printed
    /// part passes with the granted keyword (read only when the printed card fails it).
    #[cold]
    fn granted_ok(&self, s: &State, q: Seat, u: u8, f: &Filter) -> bool {
        f.keywords.has(Keywords::BLOCKER)
            && s.pl(q).blocker[0] & 1 << u != 0
            && Filter {
                keywords: Keywords(f.keywords.0 & !Keywords::BLOCKER.0),
                ..*f
            }
            .unit_ok(self.db.card(s.pl(q).card[u as usize]))
    }

    /// The power bounds of a filter.
    #[inline]
    fn power_ok(&self, f: &Filter, v: i32) -> bool {
        f.power_min.is_none_or(|m| v >= i32::from(m))
            && f.power_max.is_none_or(|m| v <= i32::from(m))
    }

    /// Whether Unit `u` of `q` matches `f` for an ability of `who`'s card `src`.
    #[inline]
    pub fn matches(&self, s: &State, q: Seat, u: u8, f: &Filter, who: Seat, src: u8) -> bool {
        let p = s.pl(q);
        let (ready, this) = (p.exhausted & 1 << u == 0, q == who && u == src);
        if !Self::state_filter(f, ready, this)
            || (f.reads_unit()
                && !f.unit_ok(self.db.card(p.card[u as usize]))
                && !(self.lang.grant && self.granted_ok(s, q, u, f)))
            || !f.units_pass()
        {
            return false;
        }
        if f.has_state_extras() && !self.extras_ok(s, q, u, f) {
            return false;
        }
        if f.power_min.is_some() || f.power_max.is_some() {
            self.power_ok(f, self.power(s, q, u))
        } else {
            true
        }
    }

    /// The Units a target acts on, per seat, for an ability of `who`'s card `src` with its
    /// `that` card. `target_hit` (hits.rs) asks the same questions of one side for the
    /// heuristic, through the same [`Self::side_units`] and [`Self::unit_passes`].
    pub fn candidates(&self, s: &State, t: &Target, who: Seat, src: u8, that: u8) -> [u64; 2] {
        let mut out = [0u64; 2];
        match t.mode {
            Mode::Attacker => {
                let a = s.battle.attacker;
                if a != NONE && s.step != Step::Main {
                    out[s.active.index()] = 1 << a;
                }
            }
            Mode::Attacked => {
                let b = s.battle.target;
                if b != NONE && !s.battle.on_player {
                    out[s.active.other().index()] = 1 << b;
                }
            }
            Mode::This => {
                if src < 64 && s.pl(who).units() & 1 << src != 0 {
                    out[who.index()] = 1 << src;
                }
            }
            Mode::That | Mode::Bearer => {
                out = self.described(s, who, src, that, t, false);
                for q in Seat::ALL {
                    out[q.index()] &= s.pl(q).units();
                }
            }
            Mode::Choose | Mode::UpTo | Mode::All | Mode::Each => {
                // `matches` for each Unit, with the filter's questions asked once.
                let f = &t.filter;
                if !f.units_pass() {
                    return out;
                }
                let asks = Asks::of(f);
                for q in Seat::ALL {
                    if !side_ok(t.side, who, q) {
                        continue;
                    }
                    let mut m = self.side_units(s, t, who, src, q);
                    if asks.any() {
                        m = Bits(m)
                            .filter(|&u| self.unit_passes(s, f, asks, q, u, || self.power(s, q, u)))
                            .fold(0, |m, u| m | 1 << u);
                    }
                    out[q.index()] = m;
                }
            }
        }
        out
    }
}

/// Which of a filter's questions need each Unit's card or state (`Choose`, `UpTo`, `All`,
/// `Each` targets): [`FireForceGame::candidates`] and `target_hit` (hits.rs) ask them alike.
#[derive(Clone, Copy)]
pub(crate) struct Asks {
    reads: bool,
    extras: bool,
    bounds: bool,
}

impl Asks {
    #[inline(always)]
    pub(crate) fn of(f: &Filter) -> Asks {
        Asks {
            reads: f.reads_unit(),
            extras: f.has_state_extras(),
            bounds: f.power_min.is_some() || f.power_max.is_some(),
        }
    }

    /// Whether any Unit must be looked at one by one.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self.reads || self.extras || self.bounds
    }
}

impl FireForceGame {
    /// `q`'s Units a `Choose`/`UpTo`/`All`/`Each` target of `who`'s card `src` starts from,
    /// before the questions of [`Asks`]: by the filter's `ready`, without `src` itself for
    /// `other`, without the Units the opponent's effects cannot choose (decision F-CANT-1).
    #[inline(always)]
    pub(crate) fn side_units(&self, s: &State, t: &Target, who: Seat, src: u8, q: Seat) -> u64 {
        let (f, p) = (&t.filter, s.pl(q));
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
        m
    }

    /// Whether `q`'s Unit `u` answers the filter's questions `asks`; `power` gives its power,
    /// called only for a bounded filter.
    #[inline(always)]
    pub(crate) fn unit_passes(
        &self,
        s: &State,
        f: &Filter,
        asks: Asks,
        q: Seat,
        u: u8,
        power: impl FnOnce() -> i32,
    ) -> bool {
        (!asks.reads
            || f.unit_ok(self.db.card(s.pl(q).card[u as usize]))
            || (self.lang.grant && self.granted_ok(s, q, u, f)))
            && (!asks.extras || self.extras_ok(s, q, u, f))
            && (!asks.bounds || self.power_ok(f, power()))
    }
}

impl FireForceGame {
    /// `q`'s Units the opponent's effects do not choose (decision F-CANT-1): `cant self
    /// be_chosen`, or given a Flame card with `cant bearer be_chosen`.
    #[cold]
    pub(crate) fn unchoosable(&self, s: &State, q: Seat) -> u64 {
        let p = s.pl(q);
        let mut m = 0;
        for u in Bits(p.units()) {
            if self.card_of(s, q, u).cant.chosen {
                m |= 1 << u;
            }
        }
        for i in Bits(p.scene & FLAME_MASK) {
            let to = p.given_to[i as usize - FLAME_BASE];
            if to != NONE && self.card_of(s, q, i).cant.bearer_chosen {
                m |= 1 << to;
            }
        }
        m
    }
}

/// [`Frame::ability`] of F-KW-PRAY's resolution (the Unit pick, then the Flame card).
pub const PRAY_FRAME: u8 = 0xFC;
/// [`Frame::ability`] of F-KW-ADOLLA-LINK's resolution (the [ADOLLA BURST] pick).
pub const LINK_FRAME: u8 = 0xFD;

#[cfg(test)]
mod power_tests {
    use super::*;
    use crate::core::testing::walk_random_games;
    use crate::core::{rng_from_seed, GameDef};

    /// F-STATIC-1: `power` (the tables of [`StaticSums`], the opponent's sources only off the `own_only`
    /// path) equals [`FireForceGame::rich_power`], the walk of every static of every source with
    /// its filter asked (the clear form), for every Unit of both seats at every position of
    /// random games of every pair of `TEST_DECKS` (2 seeds each). `adolla_link` holds Ash Flame
    /// (`static: enemy units exhausted -1000`), so its matches take the cold path; the test asks
    /// for Units reached by an opponent's static and for sources that are Units themselves
    /// (`other`).
    #[test]
    fn power_is_the_walk_of_the_statics() {
        let db = crate::games::fireforce::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &crate::games::fireforce::TEST_DECKS,
        );
        let mut rng = rng_from_seed(12);
        let (mut checked, mut cold, mut enemy, mut other) = (0usize, 0usize, 0usize, 0usize);
        walk_random_games(
            &db,
            &decks,
            2,
            29,
            &mut rng,
            |g: &FireForceGame, s, _, _| {
                for q in Seat::ALL {
                    let p = s.pl(q);
                    for u in Bits(p.units()) {
                        assert_eq!(g.power(s, q, u), g.rich_power(s, q, u), "{q} {u}\n{s:?}");
                        checked += 1;
                        cold += usize::from(!g.static_sums.own_only);
                        enemy += usize::from(s.pl(q.other()).statics[1] != 0);
                        other += usize::from(p.statics[0] & 1 << u != 0);
                    }
                }
            },
        );
        let plain_matches = (decks.iter())
            .flat_map(|a| decks.iter().map(move |b| [a, b]))
            .filter(|&pair| FireForceGame::new_match(&db, pair).static_sums.own_only)
            .count();
        eprintln!(
            "power: {checked} powers, {cold} cold, {enemy} with an enemy source, {other} sources \
             themselves; {plain_matches} of 64 matches own_only"
        );
        assert!(
            checked > 100_000 && cold > 10_000 && enemy > 1_000 && other > 1_000,
            "{checked} {cold} {enemy} {other}"
        );
        assert!(plain_matches > 0 && plain_matches < 64);
    }
}
