//! What TMNT card texts are made of (`docs/cards.md`, "TMNT TCG"): zones and destinations,
//! filters, targets, effects, triggers and their moments, phases, abilities. The effect language
//! ([`super::dsl`]) compiles into these types and the card database ([`super::cards`], which
//! re-exports them) stores them.

use super::cards::*;
use crate::core::lang::{Side, TargetMode};

/// Where a card set looks (`docs/cards.md`, "TMNT TCG", zones): the zone words of the card
/// language in their table's order, and [`zone::PLAY`] for a set written without `in ZONE` (the
/// face-up cards on Block Zones and in Attack Zones).
pub mod zone {
    pub const BLOCKS: u8 = 0;
    pub const TRASH: u8 = 1;
    pub const HAND: u8 = 2;
    pub const DECK: u8 = 3;
    pub const ZONE1: u8 = 4;
    pub const ITEMS: u8 = 5;
    pub const ATTACK_ZONE: u8 = 6;
    /// No zone written: a face-up card on a Block Zone or in an Attack Zone.
    pub const PLAY: u8 = 7;
}

/// Where a moved card goes (`move … to ZONE [top|bottom|face_up]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    Hand,
    Trash,
    /// The bottom of its owner's deck.
    Bottom,
    /// The top of its owner's deck.
    Top,
    /// Face up on its owner's Block Zone 1 (empty).
    Zone1Up,
}

/// Conditions on a card (all must hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// One of these types, as bits `1 << CardType as u8` (0 = any).
    pub types: u8,
    /// One of these attributes, bit `k` for [`ATTRIBUTES`]`[k]` (0 = any).
    pub attrs: u8,
    pub power_min: Option<i16>,
    pub power_max: Option<i16>,
    /// Not the card the text is on.
    pub other: bool,
    /// Of one of these kinds, bits `1 << Kind as u8` (`counter`, `forceful_counter`,
    /// `forceful`; 0 = any), and of none of `not_kinds`.
    pub kinds: u8,
    pub not_kinds: u8,
    /// `face_up` (1) / `face_down` (2), 0 = either (docs/cards.md: a card in the Trash, an Item
    /// Zone or an Attack Zone is face up, one in a hand or a deck face down).
    pub face: u8,
    /// `attacking` (`Some(true)`) / `not_attacking`: the attacking card (M-ATK-2).
    pub attacking: Option<bool>,
    /// `name='…'` filters (alternatives): title indices, [`NO_TITLE`] after the last.
    pub titles: [u8; MAX_NAMES],
    /// `those`: among the cards of the event that triggered the text.
    pub those: bool,
}

/// The most `name=` filters of one card set.
pub const MAX_NAMES: usize = 4;
/// No title (an unused slot of [`Filter::titles`]).
pub const NO_TITLE: u8 = u8::MAX;

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            types: 0,
            attrs: 0,
            power_min: None,
            power_max: None,
            other: false,
            kinds: 0,
            not_kinds: 0,
            face: 0,
            attacking: None,
            titles: [NO_TITLE; MAX_NAMES],
            those: false,
        }
    }
}

impl Filter {
    /// Whether the filter asks only what [`CardDb::matching`] answers from the printed card
    /// (type, attribute, printed power, kind, title).
    #[inline]
    pub fn has_titles(&self) -> bool {
        self.titles[0] != NO_TITLE
    }
}

/// A set of cards a text names: how it picks (`self`, `target`, `up_to N`, `N`, `all`, a
/// description, `that`, a role), whose, which ones, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub mode: TargetMode,
    pub side: Side,
    pub filter: Filter,
    /// A [`zone`] id.
    pub zone: u8,
    /// For [`TargetMode::Choose`]: the fewest and the most cards picked.
    pub min: u8,
    pub max: u8,
}

impl Target {
    /// The set `mode side filter` among the face-up cards in play.
    pub fn in_play(mode: TargetMode, side: Side, filter: Filter) -> Target {
        Target {
            mode,
            side,
            filter,
            zone: zone::PLAY,
            min: 1,
            max: 1,
        }
    }
}

/// What an amount counts: cards, a quantity of a player, or `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    Cards(Target),
    /// A quantity word (`hand`, `deck`, `trash`, `blocks`) of a player.
    Quantity(u8, Side),
    X(Side),
}

/// An amount: written, or counted as the effect resolves (`N per …`, `count …`, `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Num(i16),
    /// `each` for each counted thing, at most `max` in all (for a negative `each`, at least
    /// `-max`).
    Per {
        each: i16,
        of: Counted,
        max: Option<i16>,
    },
}

impl Amount {
    /// The number when it is written as one.
    #[inline]
    pub fn fixed(self) -> Option<i16> {
        match self {
            Amount::Num(n) => Some(n),
            Amount::Per { .. } => None,
        }
    }
}

/// One effect primitive (`docs/cards.md`, "TMNT TCG").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Draw(Amount),
    /// `draw_to N`: draw until the hand holds N cards.
    DrawTo(u8),
    /// `mill own N` (`false`) / `mill enemy N` (`true`).
    Trash {
        enemy: bool,
        n: Amount,
    },
    Discard {
        enemy: bool,
        n: u8,
    },
    /// `move target own CARD … in trash to hand` (the older `salvage`).
    Salvage(Filter),
    /// Every other `move`.
    Move(Target, Dest),
    Power(Target, Amount),
    Bonus(i16),
    /// `look own|enemy hand`.
    Look {
        enemy: bool,
    },
    /// `peek CARDS`: face-down Block cards.
    Peek(Target),
    /// `search CARDS to hand`.
    Search(Target),
    /// `dig N CARDS to hand`.
    Dig(u8, Target),
    /// `arrange N`.
    Arrange(u8),
    /// `ban own|enemy DESCRIPTION`: the player can't place cards of these classes
    /// ([`class_of`]).
    Ban {
        enemy: bool,
        classes: u8,
    },
    Prevent,
    Reduce(u8),
    ExcessCap(u8),
    ExcessExtra(u8),
    KeepAnyway,
    FreeItem,
    // Statics only:
    /// `also_titled self as …`: the titles the card also counts as for combos (M-ATK-4).
    AlsoTitled([u8; MAX_NAMES]),
    ItemAnyAttribute,
}

/// The classes of cards a player places (`ban`): a normal, Forceful, Counter or Forceful
/// Counter Attack card, an Event, an Item (bits `1 << class`).
pub fn class_of(c: &Card) -> u8 {
    match (c.ctype, c.kind) {
        (CardType::Attack, Kind::Normal) => 1,
        (CardType::Attack, Kind::Forceful) => 2,
        (CardType::Attack, Kind::Counter) => 4,
        (CardType::Attack, Kind::ForcefulCounter) => 8,
        (CardType::Event, _) => 16,
        (CardType::Item, _) => 32,
        _ => 0,
    }
}

/// A condition of the card language, its card sets compiled.
pub type Cond = crate::core::lang::ast::Cond<Target>;
/// A step of a text's program.
pub type Op = crate::core::lang::program::Op<Effect, Target>;
/// A text's program: its steps and the programs of its delayed triggers (`later leaves to
/// trash`, the only delayed trigger played: the unit type names it).
pub type Program = crate::core::lang::program::Program<Effect, Target, ()>;

/// When a text resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    Play,
    Flip,
    PlayFlip,
    Static,
    /// A "…, when …" text (M-EFFECTS).
    When(When),
    /// `instead leaves to trash`: a replacement of the card's own move (M-REPL-1).
    Instead,
    /// `anytime[trash_self]`: a text its owner activates (M-ACT-1).
    Anytime,
}

/// The "when" clauses of the effect language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// `start own attack`.
    Attack,
    /// `start enemy attack`.
    Defend,
    Damaged,
    /// `milled own`.
    Trash,
    /// `start result`.
    Result,
    /// `attack`: this card attacks (the start of the Attack step, on Block Zone 1).
    Attacks,
    /// `defend`: the opponent's Counter step begins.
    Defends,
    /// `hit`: a point of damage is counted on this card.
    Hit,
    /// `flipped SUBJECT`.
    Flipped,
    /// `placed SUBJECT`.
    Placed,
    /// `leaves SUBJECT [to ZONE]`.
    Leaves,
    /// `start [own|enemy] PHASE` for the phases and steps not above.
    Start,
    /// `milled enemy`.
    MilledEnemy,
}

impl When {
    pub const ALL: [When; WHENS] = [
        When::Attack,
        When::Defend,
        When::Damaged,
        When::Trash,
        When::Result,
        When::Attacks,
        When::Defends,
        When::Hit,
        When::Flipped,
        When::Placed,
        When::Leaves,
        When::Start,
        When::MilledEnemy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            When::Attack => "attack",
            When::Defend => "defend",
            When::Damaged => "damaged",
            When::Trash => "trash",
            When::Result => "result",
            When::Attacks => "attacks",
            When::Defends => "defends",
            When::Hit => "hit",
            When::Flipped => "flipped",
            When::Placed => "placed",
            When::Leaves => "leaves",
            When::Start => "start",
            When::MilledEnemy => "milled enemy",
        }
    }
}

/// The number of "when" clauses.
pub const WHENS: usize = 13;

/// The phases and steps of `start PHASE` (the vocabulary's phase table, in its order).
pub mod phase {
    pub const ATTACK: u8 = 0;
    pub const RESULT: u8 = 1;
    pub const TURN: u8 = 2;
    pub const ADJUST: u8 = 3;
    pub const SET: u8 = 4;
    pub const EVENT: u8 = 5;
    pub const ITEM: u8 = 6;
    pub const FLIP: u8 = 7;
    pub const ATTACK_STEP: u8 = 8;
    pub const COUNTER: u8 = 9;
    pub const FORWARD: u8 = 10;
}

/// What a "when" clause is about beyond its kind: the subject of `flipped`, `placed` and
/// `leaves` (its side from the text owner's view), the destination of `leaves`, the phase and
/// side of `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    pub subject: Option<Target>,
    /// A [`zone`] id, [`zone::PLAY`] for any.
    pub to: u8,
    pub phase: u8,
    pub side: Side,
}

impl Default for Moment {
    fn default() -> Moment {
        Moment {
            subject: None,
            to: zone::PLAY,
            phase: 0,
            side: Side::Any,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    /// `if COND` in the head: when the card can be placed (M-EFFECTS-9), the text triggers and
    /// resolves (M-EFFECTS-8), the static applies (M-STATIC-1) or the text can be activated.
    pub cond: Option<Cond>,
    /// `[once]`: once per turn (M-ONCE-1).
    pub once: bool,
    /// `[trash_self]`: activating it sends the card to the Trash (M-ACT-1).
    pub trash_self: bool,
    pub moment: Moment,
    pub program: Program,
    /// The effects of the program, in order (all of them, whichever branch).
    pub effects: Vec<Effect>,
}

impl Ability {
    /// An ability of plain effects (tests, the filler card).
    pub fn plain(trigger: Trigger, effects: Vec<Effect>) -> Ability {
        Ability {
            trigger,
            cond: None,
            once: false,
            trash_self: false,
            moment: Moment::default(),
            program: Program {
                ops: effects.iter().map(|&e| Op::Do(e)).collect(),
                later: Vec::new(),
            },
            effects,
        }
    }
}
