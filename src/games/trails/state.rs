//! The Trails position: a `Copy` value of fixed-size arrays, with no heap data.
//!
//! Each player owns up to [`MAX_CARDS`] card *instances*, numbered for the whole game. An instance
//! holds a card id, a few state bits and end-of-turn modifiers; the zones are bit masks over the
//! instances, except the deck, which is ordered. Knowledge is tracked per instance: `known[s]` has a
//! bit for every instance whose identity seat `s` knows, which is exactly what determinization keeps.

use super::cards::{Icons, Orgs};
use super::effects::Prohibition;

/// A card of the match: an index into the cards of its two decks ([`super::TrailsGame::card`]),
/// in increasing card-file order. A byte, so the position stays within 1 KiB whatever the size of
/// the card file (a file may hold thousands of cards; a match uses at most 100 of them).
pub type Lid = u8;
use crate::core::actions::PassCount;
use crate::core::{FixedVec, Outcome, Seat};

/// The most cards a player owns (T-DECK-1: a Strategy deck has 50).
pub const MAX_CARDS: usize = 50;

/// Every instance a player may own: the bits below [`MAX_CARDS`]. No mask of the state has a bit
/// above them (instances are numbered below the player's `n_cards`, at most [`MAX_CARDS`]).
pub(crate) const INSTANCES: u64 = (1 << MAX_CARDS) - 1;

/// The instances of mask `m`, lowest first, as [`Bits`] walks them: `m` is a mask of one
/// player's instances, so the same instances. Walked within [`INSTANCES`], each instance is known
/// to be below [`MAX_CARDS`], so reading its card (`p.card[i]`) needs no bounds test (one `and` a
/// walk instead of a compare and a branch an instance).
#[inline(always)]
pub(crate) fn instances(m: u64) -> Bits {
    Bits(m & INSTANCES)
}

/// Instance flags, as sets of bits for [`PlayerState::has`], [`PlayerState::set`] and
/// [`PlayerState::clear`]. They are stored as one mask per flag ([`Flags`]), so that "the ready
/// cards of the homebase" or "the active UNITs" is a handful of instructions.
pub mod flag {
    /// T-STATE-1: turned sideways.
    pub const ACTIONED: u8 = 1;
    /// Face up in the homebase (field cards are face up unless stunned).
    pub const FACE_UP: u8 = 2;
    /// T-STATE-2: face down and actioned on the field.
    pub const STUNNED: u8 = 4;
    /// T-SCLM-3: has support until end of turn.
    pub const SUPPORTED: u8 = 8;
    /// Has attacked this turn.
    pub const ATTACKED: u8 = 16;
    /// All of them.
    pub const ALL: u8 = ACTIONED | FACE_UP | STUNNED | SUPPORTED | ATTACKED;
}

/// The instance flags of one player: a mask per [`flag`] (mask `k` for the flag `1 << k`; bit `i`
/// for instance `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags([u64; 5]);

impl Flags {
    /// The instances with any flag of `f`.
    #[inline]
    pub fn mask(&self, f: u8) -> u64 {
        Bits(u64::from(f)).fold(0, |m, k| m | self.0[k as usize])
    }

    /// Applies `op` to the mask of every flag of `f`.
    #[inline]
    fn update(&mut self, f: u8, op: impl Fn(&mut u64)) {
        for k in Bits(u64::from(f)) {
            op(&mut self.0[k as usize]);
        }
    }
}

/// One player's cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerState {
    /// The card of each instance.
    pub card: [Lid; MAX_CARDS],
    pub flags: Flags,
    /// "+STR/+DEF until end of turn" (T-CURE-3 clears them).
    pub str_mod: [i8; MAX_CARDS],
    pub def_mod: [i8; MAX_CARDS],
    /// Icons gained until end of turn.
    pub icons_eot: [Icons; MAX_CARDS],
    /// Deck order: `deck[0]` is the bottom, `deck[deck_len - 1]` the top.
    pub deck: [u8; MAX_CARDS],
    pub deck_len: u8,
    /// How many instances this player owns (40 or 50).
    pub n_cards: u8,
    pub hand: u64,
    pub homebase: u64,
    pub field: u64,
    pub trail: u64,
    /// `known[s]`: instances whose identity seat `s` knows (T-STATE-3).
    pub known: [u64; 2],
    pub bond: i16,
    /// CP of the current deployment step.
    pub cp: u8,
    /// T-ICON-ATTRIB: organizations of the UNITs that attacked this turn.
    pub attribution_orgs: Orgs,
    /// Links until end of turn made by effects (decision T-EFF-13): two organizations each, 0
    /// for none.
    pub links_eot: [Orgs; 2],
    /// Instances whose static effects are active now (non-stunned UNITs and ITEMs on the field,
    /// face-up BASEs): kept up to date on every change, so statics cost nothing when there are none.
    pub static_src: u64,
    /// Homebase cards actioned to pay EP in the current phase (decision T-RES-7: one of them is
    /// readied again when a ready card that could have paid instead leaves the homebase).
    pub ep_paid: u64,
    /// T-RES-1, decision T-RES-7: EP gained and not yet spent in this phase (the pool).
    pub ep: u8,
    /// Instances whose once-per-turn ability (`[once]`, decision T-ONCE-1) was used this turn.
    pub once: u64,
    /// Masks derived from the card of each instance.
    pub kinds: Kinds,
}

/// Masks derived from the card of each instance, so refreshed wherever instances change cards
/// (setup, determinization, scenarios) and checked by the invariants. They let legal-move
/// generation skip the cards that cannot give an action. Never read for an opponent's hidden
/// cards: they follow the true cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kinds {
    /// EVENTs, BASEs and cards with arts: may give an "always" action from the hand or face down
    /// in the homebase (T-RES-2, T-RES-3, T-RES-4).
    pub play: u64,
    /// Cards with a craft that has a cost (T-RES-5).
    pub craft: u64,
    /// UNITs.
    pub unit: u64,
}

impl Kinds {
    /// These masks with the bits of the instances in `m` cleared.
    #[inline(always)]
    pub fn without(self, m: u64) -> Kinds {
        Kinds {
            play: self.play & !m,
            craft: self.craft & !m,
            unit: self.unit & !m,
        }
    }

    /// Sets instance `i`'s bits from its card's tag (`TrailsGame::kind_tag`: bit 0 `play`,
    /// bit 1 `craft`, bit 2 `unit`); its bits must be clear.
    #[inline(always)]
    pub fn add_tag(&mut self, i: u32, tag: u8) {
        let t = u64::from(tag);
        self.play |= (t & 1) << i;
        self.craft |= (t >> 1 & 1) << i;
        self.unit |= (t >> 2) << i;
    }
}

impl Default for PlayerState {
    fn default() -> Self {
        PlayerState {
            card: [0; MAX_CARDS],
            flags: Flags::default(),
            str_mod: [0; MAX_CARDS],
            def_mod: [0; MAX_CARDS],
            icons_eot: [Icons::NONE; MAX_CARDS],
            deck: [0; MAX_CARDS],
            deck_len: 0,
            n_cards: 0,
            hand: 0,
            homebase: 0,
            field: 0,
            trail: 0,
            known: [0; 2],
            bond: 40,
            cp: 0,
            attribution_orgs: 0,
            links_eot: [0; 2],
            static_src: 0,
            ep_paid: 0,
            ep: 0,
            once: 0,
            kinds: Kinds::default(),
        }
    }
}

pub use crate::core::Bits;

#[inline]
pub fn bit(i: u8) -> u64 {
    1u64 << i
}

impl PlayerState {
    #[inline]
    pub fn deck_mask(&self) -> u64 {
        let mut m = 0;
        for &i in &self.deck[..self.deck_len as usize] {
            m |= bit(i);
        }
        m
    }

    /// Cards in the homebase (face up and face down alike), T-PREP-3.
    #[inline]
    pub fn homebase_count(&self) -> u32 {
        self.homebase.count_ones()
    }

    /// Ready homebase cards: the EP this player can still gain (T-RES-1).
    #[inline]
    pub fn ready_homebase(&self) -> u32 {
        (self.homebase & !self.flagged(flag::ACTIONED)).count_ones()
    }

    /// The EP this player can pay now: the pool and the ready homebase cards (T-RES-7).
    #[inline]
    pub fn ep_available(&self) -> u32 {
        u32::from(self.ep) + self.ready_homebase()
    }

    /// Face-up homebase cards (used cards and flipped BASEs, T-RES-4).
    #[inline]
    pub fn face_up(&self) -> u64 {
        self.homebase & self.flagged(flag::FACE_UP)
    }

    /// Actioned cards on the field.
    #[inline]
    pub fn field_actioned(&self) -> u64 {
        self.field & self.flagged(flag::ACTIONED)
    }

    /// The instances with any flag of `f`.
    #[inline]
    pub fn flagged(&self, f: u8) -> u64 {
        self.flags.mask(f)
    }

    /// Whether instance `i` has any flag of `f`.
    #[inline]
    pub fn has(&self, i: u8, f: u8) -> bool {
        self.flagged(f) & bit(i) != 0
    }

    /// Gives instance `i` the flags of `f`.
    #[inline]
    pub fn set(&mut self, i: u8, f: u8) {
        self.flags.update(f, |m| *m |= bit(i));
    }

    /// Takes the flags of `f` from instance `i`.
    #[inline]
    pub fn clear(&mut self, i: u8, f: u8) {
        self.flags.update(f, |m| *m &= !bit(i));
    }

    /// Takes the flags of `f` from every instance.
    #[inline]
    pub fn clear_all(&mut self, f: u8) {
        self.flags.update(f, |m| *m = 0);
    }

    /// The flags of instance `i`, as a set of [`flag`] bits.
    pub fn flags_of(&self, i: u8) -> u8 {
        Bits(u64::from(flag::ALL))
            .map(|k| 1 << k)
            .filter(|&f| self.has(i, f))
            .fold(0, |a, f| a | f)
    }

    /// The top card of the deck, if any.
    #[inline]
    pub fn top(&self) -> Option<u8> {
        if self.deck_len == 0 {
            None
        } else {
            Some(self.deck[self.deck_len as usize - 1])
        }
    }

    /// Removes and returns the top card of the deck.
    pub fn pop_top(&mut self) -> Option<u8> {
        let i = self.top()?;
        self.deck_len -= 1;
        self.deck[self.deck_len as usize] = 0;
        Some(i)
    }

    /// Puts an instance on the bottom of the deck.
    pub fn push_bottom(&mut self, i: u8) {
        let n = self.deck_len as usize;
        self.deck.copy_within(0..n, 1);
        self.deck[0] = i;
        self.deck_len += 1;
    }

    /// Clears the per-instance state a card loses when it changes zone.
    pub fn reset_instance(&mut self, i: u8) {
        self.clear(i, flag::ALL);
        // A card that paid EP is an actioned homebase card: wherever it goes, it is no longer one.
        self.ep_paid &= !bit(i);
        let i = i as usize;
        self.str_mod[i] = 0;
        self.def_mod[i] = 0;
        self.icons_eot[i] = Icons::NONE;
    }

    /// The first instance (lowest index) in `mask` whose card is `id`, walked within
    /// [`INSTANCES`] so that each card is read with no bounds test (a compare and a branch an
    /// instance).
    #[inline(always)]
    pub fn find(&self, mask: u64, id: Lid) -> Option<u8> {
        instances(mask).find(|&i| self.card[i as usize] == id)
    }
}

/// The step the game is in (T-TURN). Steps marked *auto* never wait for a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Step {
    /// T-SETUP-3: `actor` puts cards on the bottom, one action each, then keeps.
    #[default]
    Mulligan,
    /// T-PREP-1 (auto): `actor` draws 2, after the abilities "at the start of" the turn (the
    /// initiative player's), the preparation phase and the draw step (decision T-EFF-8).
    Draw,
    /// T-PREP-2: `actor` may put a card into the homebase.
    Homebase,
    /// T-PREP-3: `actor` deploys with CP.
    Deploy,
    /// T-COMBAT-2: `actor` proposes an attack or passes.
    Propose,
    /// T-COMBAT-2 / T-SCLM-1: `actor` adds group members or names the target.
    Group,
    /// T-RES-6 (c): the window after an attack is declared; `actor` acts or passes.
    Window,
    /// T-SCLM-1: the defender (`actor`) chooses the attacker that takes the fight-back.
    FightBack,
    /// (auto) An attack was resolved or stopped: the abilities "at the end of this combat"
    /// resolve while its attacking UNITs and defender are still its (decision T-EFF-10); then
    /// back to step I (`actor` proposes).
    CombatEnd,
    /// T-CURE-1 (auto): the win check, after the abilities "at the start of the cure phase"
    /// (decision T-EFF-8).
    CureCheck,
    /// T-CURE-2: `actor` may cure one stunned UNIT.
    Cure,
    /// T-CURE-3 (auto): everything is readied, end-of-turn effects end, initiative passes; after
    /// the abilities that T-CURE-2's stunned UNITs going to the trail and the end of the cure
    /// phase and of the turn trigger (decision T-EFF-8).
    Ready,
    /// The game is over.
    Over,
    /// (auto) T-COMBAT-3's resolution, once the replacements its stuns offered have resolved
    /// (decision T-REPL-1).
    Clash,
}

/// What an attack targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AttackTarget {
    #[default]
    None,
    Unit(u8),
    Player,
}

/// The combat phase's bookkeeping (T-COMBAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Combat {
    /// The player whose attack this is (the proposer of step I).
    pub attacker: Seat,
    /// Consecutive passes in step I (two end the phase: T-COMBAT-1).
    pub passes: PassCount,
    /// Consecutive passes in the window (two end it: T-RES-6).
    pub window_passes: PassCount,
    /// The attacking UNITs (instances of the attacker).
    pub attackers: u64,
    /// Organizations every member shares (T-SCLM-1).
    pub group_orgs: Orgs,
    pub target: AttackTarget,
    /// The attacker the defender fights back (T-SCLM-1).
    pub fight_back: u8,
    /// Declared as a SCLM attack (two or more UNITs); stays one if members drop out (T-COMBAT-8).
    pub sclm: bool,
}

/// Where an ability being resolved comes from. Five bytes: the queue holds sixteen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cursor {
    /// The ability of the source's card.
    pub ability: u8,
    /// Which body: 0 the ability's own, `k + 1` its `k`-th delayed trigger's (`later`).
    pub later: u8,
    /// The next step of the body to resolve.
    pub pc: u8,
    /// The source: its controller (its owner) and instance, for `self` and `other`; its card is
    /// the ability's card (a source is always public, so determinization never changes it).
    pub src: That,
    /// `that` card ([`That`]): the card of the triggering event, or the card chosen last.
    pub that: That,
}

impl Cursor {
    /// The start of ability `ability` of `q`'s card `i`, with `that` card.
    pub fn new(q: Seat, i: u8, ability: u8, that: That) -> Cursor {
        Cursor {
            ability,
            later: 0,
            pc: 0,
            src: That::of(q, i),
            that,
        }
    }

    /// The source's controller.
    #[inline]
    pub fn controller(&self) -> Seat {
        self.src.seat()
    }

    /// The source's instance.
    #[inline]
    pub fn source(&self) -> u8 {
        self.src.inst()
    }
}

/// A STR/DEF change of one UNIT "during this combat": what it added, to take back when the attack
/// ends (decision T-EFF-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CombatMod {
    pub card: That,
    pub str: i8,
    pub def: i8,
}

/// A card of either player, or none: `that` card of an ability (`docs/cards.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct That(pub u8);

impl That {
    pub const NONE: That = That(u8::MAX);

    pub fn of(q: Seat, i: u8) -> That {
        That((q.index() as u8) << 7 | i)
    }

    /// The card's owner (of a card, not [`That::NONE`]).
    #[inline]
    pub fn seat(self) -> Seat {
        Seat::from_index((self.0 >> 7) as usize)
    }

    /// The card's instance (of a card, not [`That::NONE`]).
    #[inline]
    pub fn inst(self) -> u8 {
        self.0 & 0x7F
    }

    /// The card's owner and instance.
    #[inline]
    pub fn get(self) -> Option<(Seat, u8)> {
        (self != That::NONE).then(|| (Seat::from_index((self.0 >> 7) as usize), self.0 & 0x7F))
    }
}

impl Default for That {
    fn default() -> That {
        That::NONE
    }
}

/// A play forbidden by an effect (`ban`, decision T-EFF-17): where its `ban` effect stands in
/// its card's text (the card is public: its source was played), who can't play, until when, and
/// the card whose name is banned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ban {
    /// The card of the ability.
    pub card: Lid,
    /// The ability, its body ([`Cursor::later`]) and the step of the `ban` effect.
    pub ability: u8,
    pub later: u8,
    pub pc: u8,
    /// Bit 0: the seat that can't play (its index); bit 1: it ends with the combat.
    pub bits: u8,
    /// `same_name`: the card whose name can't be played; `u8::MAX` for none.
    pub name: Lid,
}

impl Ban {
    pub const COMBAT: u8 = 2;

    /// The player who can't play.
    #[inline]
    pub fn seat(&self) -> Seat {
        Seat::from_index(usize::from(self.bits & 1))
    }
}

/// A decision inside the resolution of an effect (or a step's follow-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pending {
    #[default]
    None,
    /// Choose the UNIT for the effect at the front of the queue.
    Target,
    /// T-TERM-PLAN: `left` looked-at cards remain to be placed; they sit on top of the deck
    /// below the `fixed` cards already put on top.
    Plan { left: u8, fixed: u8 },
    /// T-TERM-REBUILD: choose the homebase card to destroy.
    Rebuild,
    /// T-ICON-DISPATCH: may put a card from hand into the homebase, actioned.
    DispatchPut,
    /// `choose`: the controller of the ability at the front picks one of `n` options.
    Mode { n: u8 },
    /// `may`: the controller says yes (go on) or no (the program jumps to `skip`).
    May { skip: u8 },
    /// The controller chooses the cards of the effect at the front, one at a time (decision
    /// T-EFF-11): `left` more at most, `need` more at least; `after` keeps the choices of an
    /// effect that leaves the cards where they are in increasing instance order (one card is
    /// never chosen twice), and for `dig` counts the looked-at cards still on top.
    Pick { left: u8, need: u8, after: u8 },
    /// The looked-at cards of `dig` on top of the controller's deck go to its bottom, one at a
    /// time in the order chosen; `left` of them remain.
    Bottom { left: u8 },
    /// `link_chosen` (decision T-EFF-19): the controller names an organization (as
    /// [`super::action::Action::Mode`] of its bit), `first` the one named first (`u8::MAX`:
    /// none yet).
    Orgs { first: u8 },
    /// A player puts `left` more cards of their choice from their hand into their trail: the
    /// controller of the ability at the front, or with `enemy` its opponent (`discard`, or a
    /// craft's cost).
    Discard { left: u8, enemy: bool },
}

/// The replacements (`instead stunned …`, decision T-REPL-1) offered for the stuns one combat
/// (T-COMBAT-3) or one stun effect is about to make: each is offered once, one at a time, before
/// any of those stuns happens; then the stuns happen, less the prevented ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Repl {
    /// The replacements offered so far: the card of each and the UNIT it was offered for.
    pub offered: FixedVec<(That, That), 2>,
    /// The UNIT whose stun the replacement resolving now replaces (`prevent`).
    pub unit: That,
    /// The UNIT a `stun target …` chose, while its stun waits for the replacements.
    pub chosen: That,
}

/// Queued abilities awaiting resolution. Capacity: one deployment or combat produces at most the
/// triggers of the cards involved (a SCLM group's attack triggers plus the defender's), and effects
/// resolve before the next decision; 16 leaves a wide margin.
pub type Queue = FixedVec<Cursor, 16>;

/// The whole game. `Copy` guarantees a bit-for-bit copy (the undo record is a copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub p: [PlayerState; 2],
    pub turn: u16,
    /// T-TURN: the initiative player of this turn.
    pub initiative: Seat,
    pub step: Step,
    /// Who acts in the current step (when no choice is pending).
    pub actor: Seat,
    pub combat: Combat,
    pub pending: Pending,
    pub queue: Queue,
    /// Delayed triggers set up by `later` and not yet triggered (decision T-EFF-10): each a
    /// cursor at the start of its body.
    pub later: FixedVec<Cursor, 4>,
    /// STR/DEF changes "during this combat", undone when the attack ends (decision T-EFF-10).
    pub combat_mods: FixedVec<CombatMod, 8>,
    /// UNITs that are not stunned the next time they would become stunned this turn (`shield`,
    /// decision T-EFF-14), and the UNITs whose stun a replacement prevents (decision T-REPL-1:
    /// used up by that stun at once; none is offered while 4 wait).
    pub shields: FixedVec<That, 4>,
    /// UNITs that can't do something until end of turn (`cant … turn`, decision T-EFF-15).
    pub cant_eot: FixedVec<(That, Prohibition), 4>,
    /// Plays forbidden by effects (`ban`, decision T-EFF-17): at most 2 at once.
    pub bans: FixedVec<Ban, 2>,
    /// The UNIT being played from the homebase with [Dispatch] right now, while its `enter` and
    /// `played` abilities queue (the condition `dispatched`, decision T-EFF-16); else
    /// [`That::NONE`].
    pub dispatching: That,
    /// The replacements offered for the stuns a combat or an effect is about to make (decision
    /// T-REPL-1).
    pub repl: Repl,
    /// Mulligan bookkeeping: cards put on the bottom so far (T-SETUP-3).
    pub mulligan_count: u8,
    /// The `first` cost changes' filters (bit `k`: the card file's `first_filters[k]`) that a
    /// card played in the current deployment step matched (decision T-RES-15); cleared as each
    /// deployment step starts.
    pub firsts: u8,
    /// "Always" actions each player took this turn (decision T-RES-10 caps them).
    pub always_used: [u8; 2],
    /// The seed of the shuffles during play (`search`); determinization draws it anew when a card
    /// of the match can shuffle (`core::hidden`: a search must not know future shuffles).
    pub seed: u64,
    /// `x` of the ability resolving: the cards of each seat its last effect affected.
    pub x: [u8; 2],
    pub winner: Option<Outcome>,
}

impl State {
    /// A state with no cards: turn 1, `first` holding the initiative, at `step`, bonds 40.
    pub fn empty(first: Seat, step: Step) -> State {
        State {
            p: Default::default(),
            turn: 1,
            initiative: first,
            step,
            actor: first,
            combat: Combat::default(),
            pending: Pending::None,
            queue: Default::default(),
            later: Default::default(),
            combat_mods: Default::default(),
            shields: Default::default(),
            cant_eot: Default::default(),
            bans: Default::default(),
            dispatching: That::NONE,
            repl: Repl::default(),
            seed: 0,
            mulligan_count: 0,
            firsts: 0,
            always_used: [0; 2],
            x: [0; 2],
            winner: None,
        }
    }

    #[inline]
    pub fn pl(&self, s: Seat) -> &PlayerState {
        &self.p[s.index()]
    }

    #[inline]
    pub fn pl_mut(&mut self, s: Seat) -> &mut PlayerState {
        &mut self.p[s.index()]
    }

    /// Who decides now: the chooser of a pending choice, else the step's actor.
    #[inline(always)]
    pub fn chooser(&self) -> Option<Seat> {
        if self.winner.is_some() || self.step == Step::Over {
            None
        } else if let Pending::None = self.pending {
            Some(self.actor)
        } else {
            Some(self.choice_chooser())
        }
    }

    /// Who makes the pending choice. A choice inside an effect (every one but the put after a
    /// dispatch) has its effect at the front of the queue, read with no length test
    /// (`first_slot`).
    #[inline(always)]
    fn choice_chooser(&self) -> Seat {
        let c = self.queue.first_slot().controller();
        match self.pending {
            Pending::None | Pending::DispatchPut => self.actor,
            // `discard enemy`: the opponent chooses what they discard.
            Pending::Discard { enemy: true, .. } => c.other(),
            // Choices inside an effect belong to the effect's controller.
            Pending::Target
            | Pending::Plan { .. }
            | Pending::Rebuild
            | Pending::Mode { .. }
            | Pending::Orgs { .. }
            | Pending::Pick { .. }
            | Pending::Bottom { .. }
            | Pending::Discard { enemy: false, .. }
            | Pending::May { .. } => {
                debug_assert!(!self.queue.is_empty(), "a choice with no effect queued");
                c
            }
        }
    }
}
