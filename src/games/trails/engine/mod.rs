//! The Trails rules: legal actions and their effects. Every function cites the rule it implements.
//!
//! After each action, [`TrailsGame::settle`] runs everything that needs no decision (draws, queued
//! abilities without choices, step changes) until a player must decide or the game is over.
//!
//! The methods of [`TrailsGame`] are split by concern, one `impl` block per file:
//! - this file: the match's immutable context ([`TrailsGame`] and its per-card cache
//!   `HotCard`), setup, and playing an action ([`TrailsGame::play`], then the settle loop);
//! - `legal.rs`: the legal actions, one function per pending choice and per step;
//! - `turn.rs`: what an action does in its step, and the steps and phases of a turn;
//! - `combat.rs`: attack targets, declaring an attack, the end of its window, [`Clash`] and
//!   combat resolution;
//! - `resolve.rs`: abilities: triggers, the queue, effect targets, effects on UNITs, and the
//!   choices effects leave pending;
//! - `zones.rs`: cards changing zones, stuns, bond and EP;
//! - `trace.rs`: the cause of every bond change, for the log;
//! - `views.rs`: effective characteristics (STR/DEF, icons, organizations, static effects), and
//!   the [`FieldView`] and [`Marks`] that combat and attack targets read.

mod bans;
mod combat;
mod cure;
mod events;
mod judge;
mod legal;
mod picks;
mod replace;
mod resolve;
pub mod trace;
mod turn;
mod views;
mod zones;

pub use combat::Clash;
pub use views::{FieldView, Marks};

use super::action::Action;
use super::cards::{
    CardDb, CardId, CardType, Effect, Icons, Op, Orgs, Phase, StaticEffect, Trigger, MAX_CRAFTS,
};
use super::state::{flag, Lid, Pending, State, Step, MAX_CARDS};
use crate::core::{ByteTable, Seat};

/// Decision T-RES-10: the most "always" actions (events, arts, BASEs, crafts, support) a player
/// may take in one turn — a guard against endless loops such as two UNITs readying each other.
pub const MAX_ALWAYS_PER_TURN: u8 = 40;

/// T-WIN-1: starting (and highest) bond.
pub const MAX_BOND: i16 = 40;

/// What the rules read of a card most often, packed into 14 bytes and stored densely by card id:
/// the full [`super::cards::Card`] keeps names and effect lists on the heap, one pointer away.
/// Aligned to 16 bytes, so that a lookup scales the id by one shift (14 took a shift and two
/// subtractions, at each of the several lookups of a decision).
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
pub(crate) struct HotCard {
    pub ctype: CardType,
    pub cost: u8,
    pub str: i8,
    pub def: i8,
    pub icons: Icons,
    /// [`feat`] bits.
    pub feat: u8,
    pub orgs: Orgs,
    /// Arts cost, when the card has arts.
    pub arts: Option<u8>,
    /// The least EP that plays the card from hand (T-RES-2 an EVENT's cost, T-RES-3 its arts
    /// cost), `u8::MAX` when it cannot be played from hand: one test skips the cards the player
    /// cannot afford.
    pub hand_ep: u8,
    /// The id of the card's name in the database (`name=` filters).
    pub name: u16,
}

/// The crafts with a cost of a card (T-RES-5), read by the legal actions without walking the card's
/// abilities: for each, its ability index, its EP cost and whether it actions the UNIT itself.
/// Decision T-RES-12 bounds them to [`MAX_CRAFTS`] a card. 13 bytes, aligned to 16 as
/// [`HotCard`] is (a lookup by id is one shift).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
pub(crate) struct Crafts {
    pub n: u8,
    pub ability: [u8; MAX_CRAFTS],
    pub ep: [u8; MAX_CRAFTS],
    /// Bit `j`: craft `j` costs "action this ready UNIT".
    pub self_action: u8,
    /// Bit `j`: craft `j` is gated beyond its cost ([`super::cards::Ability::gated`]).
    pub gated: u8,
    /// Bit `j`: craft `j` works face up in the homebase by its text (decision T-RES-5-2).
    pub homebase: u8,
    /// The least EP cost of the crafts (`u8::MAX` for none): one compare skips a card none of
    /// whose crafts the player can afford.
    pub min_ep: u8,
}

impl Crafts {
    fn of(c: &super::cards::Card) -> Crafts {
        let mut k = Crafts {
            min_ep: u8::MAX,
            ..Crafts::default()
        };
        for (a, ab) in c.abilities.iter().enumerate() {
            if ab.trigger == Trigger::Act {
                let j = k.n as usize;
                // The card file was refused with more (decision T-RES-12).
                assert!(j < MAX_CRAFTS, "decision T-RES-12");
                k.ability[j] = a as u8;
                k.ep[j] = ab.cost.ep;
                k.self_action |= u8::from(ab.cost.self_action) << j;
                k.gated |= u8::from(ab.gated()) << j;
                k.homebase |= u8::from(ab.in_homebase()) << j;
                k.min_ep = k.min_ep.min(ab.cost.ep);
                k.n += 1;
            }
        }
        k
    }
}

/// Feature bits of a [`HotCard`].
pub(crate) mod feat {
    /// A UNIT.
    pub const UNIT: u8 = 1;
    /// Has static effects with a condition (decision T-STATIC-2). Their kinds are not among its
    /// [`STATS`], [`GRANT`] and [`LINK`] bits: the walks over unconditional statics skip the card
    /// and a cold walk reads its conditions.
    pub const COND_STATICS: u8 = 2;
    /// Has a craft with a cost (an ability triggered by the player, T-RES-5).
    pub const ACT: u8 = 4;
    /// Has an ability gated beyond its cost (`[once]` or a head's condition): legal actions ask
    /// the gate.
    pub const GATED: u8 = 8;
    /// Has static effects that change STR/DEF.
    pub const STATS: u8 = 16;
    /// An EVENT, a BASE or a card with arts: may give an "always" action from the hand or face
    /// down in the homebase (T-RES-2, T-RES-3, T-RES-4).
    pub const PLAY: u8 = 32;
    /// Has static effects that grant icons.
    pub const GRANT: u8 = 64;
    /// Has static effects that link organizations (T-TERM-LINK).
    pub const LINK: u8 = 128;
    /// Has static effects of any kind.
    pub const STATICS: u8 = STATS | GRANT | LINK | COND_STATICS;
}

impl HotCard {
    /// The entry of a local id no card has (never read).
    const BLANK: HotCard = HotCard {
        ctype: CardType::Unit,
        cost: 0,
        str: 0,
        def: 0,
        icons: Icons::NONE,
        feat: 0,
        orgs: 0,
        arts: None,
        hand_ep: u8::MAX,
        name: 0,
    };

    fn of(c: &super::cards::Card) -> HotCard {
        let mut f = 0;
        if c.ctype == CardType::Unit {
            f |= feat::UNIT;
        }
        if matches!(c.ctype, CardType::Event | CardType::Base) || c.arts_cost.is_some() {
            f |= feat::PLAY;
        }
        if c.abilities.iter().any(|a| a.trigger == Trigger::Act) {
            f |= feat::ACT;
        }
        if c.abilities.iter().any(|a| a.gated()) {
            f |= feat::GATED;
        }
        // Prohibitions are read by the cold walk over conditional statics (decision T-EFF-12).
        if c.static_conds.iter().any(Option::is_some)
            || c.statics.iter().any(|st| {
                matches!(
                    st,
                    StaticEffect::Cant { .. }
                        | StaticEffect::CostSelf(_)
                        | StaticEffect::CostAll { .. }
                        | StaticEffect::ExtraCure { .. }
                )
            })
        {
            f |= feat::COND_STATICS;
        } else {
            for st in &c.statics {
                f |= match st {
                    StaticEffect::Stats { .. } => feat::STATS,
                    StaticEffect::Grant { .. } => feat::GRANT,
                    StaticEffect::Link(_) => feat::LINK,
                    StaticEffect::Cant { .. }
                    | StaticEffect::CostSelf(_)
                    | StaticEffect::CostAll { .. }
                    | StaticEffect::ExtraCure { .. } => {
                        unreachable!("a cold static")
                    }
                };
            }
        }
        HotCard {
            ctype: c.ctype,
            cost: c.cost,
            str: c.str,
            def: c.def,
            icons: c.icons,
            feat: f,
            orgs: c.orgs,
            arts: c.arts_cost,
            hand_ep: match (c.ctype, c.arts_cost) {
                (CardType::Event, a) => c.cost.min(a.unwrap_or(u8::MAX)),
                (_, Some(a)) => a,
                (_, None) => u8::MAX,
            },
            name: c.name_id,
        }
    }
}

/// The immutable context of a Trails match: the card database and the two decks.
#[derive(Clone, Debug)]
pub struct TrailsGame {
    pub db: CardDb,
    /// The card ids of each seat's deck (T-DECK).
    pub decks: [Vec<CardId>; 2],
    /// The heuristic policy's weights.
    pub weights: Weights,
    /// Whether any card of either deck links organizations by a static effect (T-TERM-LINK):
    /// when none does, organizations need no look at the statics (links until end of turn, made
    /// by effects, are read off the state).
    has_static_links: bool,
    /// Whether a card of the two decks has a static with a condition (decision T-STATIC-2).
    has_cond_statics: bool,
    /// The triggers ([`Trigger::bit`]) some card of the two decks has an ability of its own for,
    /// among those the engine asks only when a card has one (`stunned`, `leaves`, `played`,
    /// `put`).
    self_events: u16,
    /// The triggers some card of the two decks listens for (about other cards or phases).
    listens: u16,
    /// The triggers an event ([`Self::happen`]) may queue an ability for: `self_events` and
    /// `listens` together, one test on every event.
    event_mask: u16,
    /// The triggers a phase event ([`Self::phase_event`]) may queue an ability for: `listens`,
    /// or all when a card of the two decks sets up delayed triggers (`later`).
    phase_mask: u16,
    /// The triggers each card ([`Lid`]) listens for.
    listen_of: ByteTable<u16>,
    /// The triggers each card ([`Lid`]) has an ability of its own for ([`Trigger::bit`]): most
    /// cards have none for most events, and a card's abilities are a walk away.
    own_of: ByteTable<u16>,
    /// Whether a card of the two decks shuffles a deck during play (`search`): then
    /// determinization draws the state's shuffle seed anew.
    pub(crate) has_shuffle: bool,
    /// Whether any card of either deck grants icons statically; likewise stat changes.
    has_static_icons: bool,
    has_static_stats: bool,
    /// Whether a card of the two decks has a prohibition (`cant`, decision T-EFF-12).
    pub(crate) has_cant: bool,
    /// Whether a card of the two decks changes its own cost (decision T-RES-14).
    has_cost_mods: bool,
    /// The organizations of the cards of the two decks (what `link_chosen` offers, decision
    /// T-EFF-19).
    pub(crate) match_orgs: super::cards::Orgs,
    /// Whether a card of the two decks changes the cost of other cards (`cost all …`, decision
    /// T-RES-15): then every play's cost asks the active static sources.
    has_cost_all: bool,
    /// Whether such a change is for the `first` card played in a deployment step: then every
    /// play is recorded (`State::firsts`).
    has_first: bool,
    /// Whether a card of the two decks allows a second cure (decision T-CURE-6).
    has_extra_cure: bool,
    /// Whether a card of the two decks has a replacement (`instead stunned …`, decision
    /// T-REPL-1): only then do stuns look for one.
    pub(crate) has_instead: bool,
    /// The card of each [`Lid`]: the distinct cards of the two decks, in increasing card id
    /// (so that an order of local ids is the order of card ids, and determinization sorts alike).
    ids: ByteTable<CardId>,
    /// [`Self::decks`] in local ids.
    deck_lids: [Vec<Lid>; 2],
    /// [`HotCard`] of every card of the match, by [`Lid`] (a [`ByteTable`]: read without a
    /// bounds check, many times a decision).
    hot: ByteTable<HotCard>,
    /// [`Crafts`] of every card of the match, by [`Lid`].
    crafts: ByteTable<Crafts>,
    /// [`views::QuickStatic`] of every card of the match, by [`Lid`]: the one static effect of
    /// the cards whose statics the walk reads without the card ([`Self::for_static_mods`]).
    quick: ByteTable<views::QuickStatic>,
    /// For each seat, whether its deck holds a card with [Dispatch] (T-ICON-DISPATCH): the
    /// deployment step walks the face-down homebase UNITs for one only then. A seat's instances
    /// are always cards of its own deck (the deal, redeals, scenarios).
    dispatch_seats: [bool; 2],
    /// [`HotCard::hand_ep`] of every card, by [`Lid`] (`u8::MAX` for every id of no card, `Lid::MAX`
    /// among them): a byte table in the game itself, so that the "always" hand walk reads a card's
    /// least play cost with one load, without scaling the id by [`HotCard`]'s 16 bytes.
    hand_ep: [u8; 256],
    /// [`HotCard::cost`] of every card, by [`Lid`] (0 for every id of no card): the deployment
    /// step's hand walk reads a card's printed cost with one load.
    printed_cost: [u8; 256],
    /// Whether each card, by [`Lid`], has a printed [Dispatch] (false for every id of no card):
    /// the deployment step's [Dispatch] walk reads it with one load.
    printed_dispatch: [bool; 256],
}

/// Every tunable number of the heuristic policy (`super::policy`), in one place. Each
/// [`TrailsGame`] carries its own; they are defined here, beside it, so that the rules do not
/// depend on the policy (which re-exports them as `policy::Weights`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Mulligan a UNIT/ITEM whose CP cost is at least this.
    pub mulligan_cost: u8,
    /// Stop putting cards into the homebase at this size.
    pub homebase_target: u32,
    /// Value of 1 bond of damage to the opponent (and of 1 saved for us).
    pub bond: f32,
    /// Value of stunning an opposing UNIT, per CP of its cost (besides the stun damage).
    pub board_per_cost: f32,
    /// Least score for an attack to be made rather than passing.
    pub attack_threshold: f32,
    /// Support the defender when the overkill prevented is at least this.
    pub support_overkill: i16,
    /// Chance of a uniformly random legal action (breaks ties, varies playouts).
    pub noise: f64,
    /// Evaluation: weight of the bond difference, of board strength, of hand and homebase size.
    pub eval_bond: f32,
    pub eval_board: f32,
    pub eval_cards: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            mulligan_cost: 4,
            homebase_target: 7,
            bond: 1.0,
            board_per_cost: 1.0,
            attack_threshold: 0.5,
            support_overkill: 2,
            noise: 0.0,
            eval_bond: 0.12,
            eval_board: 0.04,
            eval_cards: 0.03,
        }
    }
}

impl TrailsGame {
    pub fn new(db: CardDb, deck_a: Vec<CardId>, deck_b: Vec<CardId>) -> TrailsGame {
        assert!(deck_a.len() <= MAX_CARDS && deck_b.len() <= MAX_CARDS);
        let any = |pred: fn(&StaticEffect) -> bool| {
            deck_a
                .iter()
                .chain(&deck_b)
                .any(|&id| db.card(id).statics.iter().any(pred))
        };
        let has_cond_statics = deck_a
            .iter()
            .chain(&deck_b)
            .any(|&id| db.card(id).static_conds.iter().any(Option::is_some));
        let has_cant = any(|st| matches!(st, StaticEffect::Cant { .. }))
            || deck_a.iter().chain(&deck_b).any(|&id| {
                db.card(id).abilities.iter().any(|a| {
                    a.program
                        .ops
                        .iter()
                        .chain(a.program.later.iter().flat_map(|l| l.1.iter()))
                        .any(|op| matches!(op, Op::Do(Effect::Cant(..))))
                })
            });
        let has_cost_all = any(|st| matches!(st, StaticEffect::CostAll { .. }));
        let has_first = any(|st| matches!(st, StaticEffect::CostAll { first: true, .. }));
        let has_cost_mods = has_cost_all || any(|st| matches!(st, StaticEffect::CostSelf(_)));
        let has_extra_cure = any(|st| matches!(st, StaticEffect::ExtraCure { .. }));
        let has_cond_statics = has_cond_statics || has_cant || has_cost_mods || has_extra_cure;
        let has_static_links = any(|st| matches!(st, StaticEffect::Link(_)));
        let has_static_icons = any(|st| matches!(st, StaticEffect::Grant { .. }));
        let has_static_stats = any(|st| matches!(st, StaticEffect::Stats { .. }));
        let mut ids: Vec<CardId> = deck_a.iter().chain(&deck_b).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        assert!(
            ids.len() <= usize::from(Lid::MAX),
            "two decks hold at most 100 cards"
        );
        let hot: Vec<HotCard> = ids.iter().map(|&id| HotCard::of(db.card(id))).collect();
        let match_orgs = hot.iter().fold(0, |m, c| m | c.orgs);
        let listen_of: Vec<u16> = ids
            .iter()
            .map(|&id| {
                db.card(id)
                    .abilities
                    .iter()
                    .filter(|a| a.listens())
                    .fold(0, |m, a| m | a.trigger.bit())
            })
            .collect();
        let listens = listen_of.iter().fold(0, |m, &x| m | x);
        let own_of: Vec<u16> = ids
            .iter()
            .map(|&id| {
                db.card(id)
                    .abilities
                    .iter()
                    .filter(|a| !a.listens())
                    .fold(0, |m, a| m | a.trigger.bit())
            })
            .collect();
        let has_shuffle = ids.iter().any(|&id| {
            db.card(id).abilities.iter().any(|a| {
                a.program
                    .ops
                    .iter()
                    .chain(a.program.later.iter().flat_map(|l| l.1.iter()))
                    .any(|o| matches!(o, super::cards::Op::Do(super::cards::Effect::Search(..))))
            })
        });
        let self_events = ids
            .iter()
            .flat_map(|&id| db.card(id).abilities.iter())
            .filter(|a| {
                !a.listens()
                    && matches!(
                        a.trigger,
                        Trigger::Stunned | Trigger::Leaves | Trigger::Played | Trigger::Put
                    )
            })
            .fold(0, |m, a| m | a.trigger.bit());
        let has_later = ids.iter().any(|&id| {
            db.card(id).abilities.iter().any(|a| {
                !a.program.later.is_empty()
                    || a.program.ops.iter().any(|o| matches!(o, Op::Later(_)))
            })
        });
        let event_mask = self_events | listens;
        let phase_mask = if has_later { u16::MAX } else { listens };
        let has_instead = ids.iter().any(|&id| {
            db.card(id)
                .abilities
                .iter()
                .any(|a| a.trigger == Trigger::Instead)
        });
        let crafts = ByteTable::new(
            Crafts::default(),
            ids.iter().map(|&id| Crafts::of(db.card(id))),
        );
        let quick = ByteTable::new(
            views::QuickStatic::NONE,
            ids.iter().map(|&id| views::QuickStatic::of(db.card(id))),
        );
        let hot = ByteTable::new(HotCard::BLANK, hot);
        let local = |d: &[CardId]| -> Vec<Lid> {
            d.iter()
                .map(|id| ids.binary_search(id).expect("a deck's card") as Lid)
                .collect()
        };
        let deck_lids = [local(&deck_a), local(&deck_b)];
        let dispatch_seats = deck_lids
            .each_ref()
            .map(|d| d.iter().any(|&l| hot[l].icons.has(Icons::DISPATCH)));
        let hand_ep = std::array::from_fn(|k| hot[k as Lid].hand_ep);
        let printed_cost = std::array::from_fn(|k| hot[k as Lid].cost);
        let printed_dispatch = std::array::from_fn(|k| hot[k as Lid].icons.has(Icons::DISPATCH));
        TrailsGame {
            dispatch_seats,
            printed_dispatch,
            hand_ep,
            printed_cost,
            deck_lids,
            ids: ByteTable::new(0, ids),
            hot,
            crafts,
            quick,
            db,
            decks: [deck_a, deck_b],
            weights: Default::default(),
            has_static_links,
            has_cond_statics,
            self_events,
            listens,
            event_mask,
            phase_mask,
            listen_of: ByteTable::new(0, listen_of),
            own_of: ByteTable::new(0, own_of),
            has_shuffle,
            has_static_icons,
            has_static_stats,
            has_cant,
            has_cost_mods,
            has_cost_all,
            has_first,
            has_extra_cure,
            match_orgs,
            has_instead,
        }
    }

    #[inline]
    pub(crate) fn cid(&self, s: &State, q: Seat, i: u8) -> Lid {
        s.pl(q).card[i as usize]
    }

    /// The card of the match with local id `l`.
    #[inline]
    pub fn card(&self, l: Lid) -> &super::cards::Card {
        self.db.card(self.ids[l])
    }

    /// The card-file id of local id `l`.
    #[inline]
    pub fn card_id(&self, l: Lid) -> CardId {
        self.ids[l]
    }

    /// The local id of card `id`, if either deck holds it.
    pub fn lid(&self, id: CardId) -> Option<Lid> {
        self.ids.items().binary_search(&id).ok().map(|k| k as Lid)
    }

    /// The local ids of the cards of the match.
    pub fn lids(&self) -> impl Iterator<Item = Lid> {
        0..self.ids.items().len() as Lid
    }

    #[inline]
    pub(crate) fn ctype(&self, s: &State, q: Seat, i: u8) -> CardType {
        self.hot(self.cid(s, q, i)).ctype
    }

    #[inline]
    pub(crate) fn hot(&self, id: Lid) -> &HotCard {
        &self.hot[id]
    }

    /// A new game: each deck shuffled by the RNG of `seed`, 4 cards drawn (T-SETUP-2), the
    /// mulligan of the turn-1 initiative player next (T-SETUP-3).
    pub fn setup(&self, seed: u64, first: Seat) -> State {
        use rand::seq::SliceRandom;
        let mut rng = crate::core::rng_from_seed(seed);
        let mut s = State::empty(first, Step::Mulligan);
        for q in Seat::ALL {
            let deck = &self.deck_lids[q.index()];
            let p = s.pl_mut(q);
            let n = deck.len();
            p.n_cards = n as u8;
            p.card[..n].copy_from_slice(deck);
            // Cards are dealt to instances at random, so an instance number says nothing about
            // which card it is (no agent can read a hidden card off the deck list), and the deck
            // order is shuffled (no allocation).
            p.card[..n].shuffle(&mut rng);
            for (k, slot) in p.deck[..n].iter_mut().enumerate() {
                *slot = k as u8;
            }
            p.deck[..n].shuffle(&mut rng);
            p.deck_len = n as u8;
        }
        self.refresh_kinds(&mut s);
        // The seed of shuffles during play, apart from the deal's random stream.
        s.seed = crate::core::mix_seed(&[seed, 0x5eed]);
        for q in Seat::ALL {
            for _ in 0..4 {
                self.draw(&mut s, q);
            }
        }
        s
    }

    /// Plays `a`, a legal action of the player who decides, then runs everything that follows
    /// without a decision ([`Self::settle`]).
    pub fn play(&self, s: &mut State, a: Action) {
        if let Pending::None = s.pending {
            // The actor decides a step's action ([`State::chooser`]); on a finished game (step
            // `Over`) `play_step` refuses every action.
            debug_assert!(s.winner.is_none(), "play on a finished game");
            let me = s.actor;
            if !self.play_step(s, me, a) {
                // A quiet action: nothing to settle.
                return;
            }
        } else {
            let me = s.chooser().expect("play on a finished game");
            self.play_choice(s, me, a);
            // A choice that was its body's last step (a plan's last card, a rebuild) leaves the
            // body at its end: ended here, as the settle loop's first call would end it (nothing
            // pending, no winner), and most often the queue is then empty and the step waits.
            if matches!(s.pending, Pending::None) && s.winner.is_none() && !s.queue.is_empty() {
                let c = s.queue[0];
                if self.op_at(s, &c).is_none() {
                    Self::end_front(s);
                }
            }
        }
        self.settle(s);
    }

    /// Runs everything that needs no decision, until a decision or the end of the game.
    #[inline]
    pub fn settle(&self, s: &mut State) {
        // Most actions leave a decision of a step that waits for one and nothing queued: the
        // loop's first turn returns at once (its tests are the ones a test ahead of it made, and
        // inlined it needs no call).
        self.settle_loop::<true>(s);
    }

    /// [`Self::settle`]'s loop. `END`: [`Self::resolve_front`] ends a body after its last step
    /// (the engine's form); without it, the loop's next turn ends it (the clear form, kept for
    /// the test that compares the two; it also leaves the steps that wait to the `match`, without
    /// the [`WAITING_STEPS`] test). Inlined into [`Self::play`], whose frame it shares: out of
    /// line its entry and exit (five pushes and pops, the call) cost ~13 instructions on each of
    /// its ~40,000 calls in 400 random games.
    #[inline(always)]
    fn settle_loop<const END: bool>(&self, s: &mut State) {
        loop {
            if s.winner.is_some() {
                s.step = Step::Over;
                s.pending = Pending::None;
                s.queue.clear();
                return;
            }
            if !matches!(s.pending, Pending::None) {
                return;
            }
            if !s.queue.is_empty() {
                self.resolve_front::<END>(s);
                continue;
            }
            // The steps that always wait for a decision (most turns of the loop end here): one
            // test of a mask, where the step's jump table took seven instructions to return.
            // The clear form (`END` false) leaves them to the `match`'s `_ => return`, so that
            // the test comparing the two forms checks the mask.
            if END && WAITING_STEPS & (1 << s.step as u16) != 0 {
                return;
            }
            match s.step {
                Step::Draw => {
                    // T-PREP-1: draw 2, on turn 1 too.
                    let me = s.actor;
                    self.draw(s, me);
                    self.draw(s, me);
                    s.step = Step::Homebase;
                    self.phase_event(s, Trigger::End, Phase::Draw, me);
                    self.phase_event(s, Trigger::Start, Phase::Homebase, me);
                }
                Step::CureCheck => self.cure_check(s),
                Step::CombatEnd => self.finish_combat(s),
                Step::Ready => self.end_turn(s),
                Step::Cure => {
                    // No stunned field card (T-CURE-2): one test of the masks.
                    let p = s.pl(s.actor);
                    if p.field & p.flagged(flag::STUNNED) == 0 {
                        self.next_cure(s);
                    } else {
                        return;
                    }
                }
                Step::Clash => self.clash_again(s),
                Step::FightBack if s.combat.attackers.count_ones() == 1 => {
                    s.combat.fight_back = s.combat.attackers.trailing_zeros() as u8;
                    self.resolve_combat(s);
                }
                _ => return,
            }
        }
    }
}

/// The steps [`TrailsGame::settle`]'s loop always stops at (its `match`'s `_ => return` for
/// them): each waits for an action of the actor. `FightBack` and `Cure` wait only in some states,
/// and the others run without a decision.
const WAITING_STEPS: u16 = 1 << Step::Mulligan as u16
    | 1 << Step::Homebase as u16
    | 1 << Step::Deploy as u16
    | 1 << Step::Propose as u16
    | 1 << Step::Group as u16
    | 1 << Step::Window as u16
    | 1 << Step::Over as u16;

// The mask's test shifts by the step's number: every step must have a bit of the `u16`. `Clash`
// is the last of `Step`; a step added after it must keep this true (or widen the mask).
const _: () = assert!((Step::Clash as u16) < u16::BITS as u16);

#[cfg(test)]
mod tests {
    use super::*;

    /// `play` (a step's quiet actions without the settle test, a step's action played as the
    /// actor's, a queued body ended by its last step or by the choice that was its last step)
    /// leaves the state that the clear form leaves: the chooser's action, then the settle loop
    /// run whatever was played, each body ended by a call of its own (`settle_loop::<false>`).
    /// Every legal action at every position of random games of every pair of bundled decks.
    #[test]
    fn play_leaves_what_play_then_settle_leaves() {
        let (mut quiet, mut other, mut queued) = (0u32, 0u32, 0u32);
        let mut list = crate::core::ActionList::new();
        let games = crate::games::trails::test_games(false);
        crate::games::trails::walk_test_games(&games, 2, 11, |g, s, _, seed| {
            g.legal(s, &mut list);
            for &a in list.iter() {
                let mut fast = *s;
                g.play(&mut fast, a);
                let mut clear = *s;
                let me = clear.chooser().unwrap();
                if let Pending::None = clear.pending {
                    g.play_step(&mut clear, me, a);
                } else {
                    g.play_choice(&mut clear, me, a);
                }
                queued += u32::from(!clear.queue.is_empty());
                g.settle_loop::<false>(&mut clear);
                assert_eq!(fast, clear, "seed {seed}, {a:?}");
                let was_quiet = matches!(s.pending, Pending::None)
                    && clear.queue.is_empty()
                    && clear.step == s.step;
                if was_quiet {
                    quiet += 1;
                } else {
                    other += 1;
                }
            }
        });
        assert!(
            quiet > 10_000 && other > 10_000 && queued > 5_000,
            "{quiet} {other} {queued}"
        );
    }

    /// The per-card tables' entries are 16 bytes, so that a lookup by id scales it by one shift
    /// (the fields fit: 14 and 13 bytes).
    #[test]
    fn card_table_entries_are_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<HotCard>(), 16);
        assert_eq!(std::mem::size_of::<Crafts>(), 16);
    }
}
