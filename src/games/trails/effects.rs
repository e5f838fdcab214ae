//! What card abilities are made of: triggers and costs, effect primitives with their targets and
//! filters, static effects, and the icons and organizations they name. The effect language
//! ([`super::dsl`]) parses into these types and the card database ([`super::cards`]) stores them;
//! this module uses neither.

/// A set of organizations as bits; the database names at most 16.
pub type Orgs = u16;

/// Turns organization names into their bits, adding a name the first time it is met: the card
/// database ([`super::cards::CardDb`]) as the effect language reads it.
pub trait OrgNames {
    /// The bit of an organization, adding it when new.
    fn org_bit(&mut self, word: &str) -> Result<Orgs, crate::core::Reason>;
    /// The id of a card name a filter names (`name='…'`), adding it when new; the database checks
    /// at the end of its file that a card has it.
    fn name_id(&mut self, name: &str) -> u16;
}

/// The icon crafts (T-ICON) as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Icons(pub u8);

impl Icons {
    pub const NONE: Icons = Icons(0);
    pub const COVERT: Icons = Icons(1);
    pub const REINFORCEMENT: Icons = Icons(2);
    pub const ATTRIBUTION: Icons = Icons(4);
    pub const DISPATCH: Icons = Icons(8);
    pub const MARTIAL_ARTS: Icons = Icons(16);
    pub const HATE: Icons = Icons(32);
    /// Not an icon of the rules: "can attack units with [Covert] as though it had [Covert]"
    /// (`sees_covert`, decision T-ICON-COVERT-2), granted by a static like an icon and never
    /// printed, named or shown.
    pub const SEES_COVERT: Icons = Icons(64);
    /// Names as written in the card file, in bit order.
    pub const NAMES: [(&'static str, Icons); 6] = [
        ("covert", Icons::COVERT),
        ("reinforcement", Icons::REINFORCEMENT),
        ("attribution", Icons::ATTRIBUTION),
        ("dispatch", Icons::DISPATCH),
        ("martial_arts", Icons::MARTIAL_ARTS),
        ("hate", Icons::HATE),
    ];

    #[inline]
    pub fn has(self, other: Icons) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    pub fn union(self, other: Icons) -> Icons {
        Icons(self.0 | other.0)
    }

    pub fn parse(word: &str) -> Option<Icons> {
        Icons::NAMES
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, i)| *i)
    }

    /// The names of the icons in the set, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Icons::NAMES
            .iter()
            .filter(move |(_, i)| self.has(*i))
            .map(|(n, _)| *n)
    }
}

pub use crate::core::lang::{Side, TargetMode};

/// Conditions on a UNIT (all must hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Filter {
    pub cost_min: Option<u8>,
    pub cost_max: Option<u8>,
    pub str_min: Option<i8>,
    pub str_max: Option<i8>,
    pub def_min: Option<i8>,
    pub def_max: Option<i8>,
    /// The unit must have one of these organizations (0 = any).
    pub org: Orgs,
    /// The unit must have this icon (NONE = any).
    pub icon: Icons,
    /// `Some(true)` ready only, `Some(false)` actioned only.
    pub ready: Option<bool>,
    /// Excludes the card the effect comes from.
    pub other: bool,
    /// Only the card the effect comes from (a static on `self`).
    pub itself: bool,
    /// The card's name is one of these (ids of the database's names, from 1; 0 is unused).
    pub names: [u16; 2],
    /// The [`mark`]s the card must have and must not have.
    pub need: u8,
    pub deny: u8,
    /// The card must be of one of these [`kind`]s (0 = any card).
    pub kinds: u8,
}

/// Kinds of cards a filter may ask for ([`Filter::kinds`]): the card types, and `ARTS` for a
/// card played as arts (only an event about playing a card has that).
pub mod kind {
    pub const UNIT: u8 = 1;
    pub const ITEM: u8 = 2;
    pub const EVENT: u8 = 4;
    pub const BASE: u8 = 8;
    pub const ARTS: u8 = 16;
}

/// States of a card a filter may ask for beyond ready/actioned ([`Filter::need`]).
pub mod mark {
    /// T-STATE-2: stunned (face down on the field).
    pub const STUNNED: u8 = 1;
    /// Attacking (one of the current attack's UNITs).
    pub const ATTACKING: u8 = 2;
    /// The defending UNIT of the current attack.
    pub const DEFENDER: u8 = 4;
    /// Has support until end of turn (T-SCLM-3).
    pub const SUPPORTED: u8 = 8;
    /// Face up in the homebase (T-RES-4).
    pub const FACE_UP: u8 = 16;
    /// A UNIT the current attack's attacking UNITs could attack under the [Covert] rules
    /// (T-ICON-COVERT; [Hate] not asked): where an attack may be redirected (decision T-REPL-2).
    pub const ATTACKABLE: u8 = 32;
}

impl Filter {
    /// Whether the filter names cards (`name='…'`), and whether `name` is one of them.
    #[inline]
    pub fn name_ok(&self, name: u16) -> bool {
        self.names[0] == 0 || self.names.contains(&name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub mode: TargetMode,
    pub side: Side,
    pub filter: Filter,
    /// Where the cards are, when written (`in trail`); otherwise in play: UNITs (and ITEMs when
    /// the filter's kinds name them) on the field, and `self`, `that` or a role wherever it is.
    pub zone: Option<Zone>,
    /// How many a choice takes (`target`: 1 and 1, `up_to N`: 0 and N, `N`: N and N).
    pub min: u8,
    pub max: u8,
}

impl Target {
    /// Whether it is the one-UNIT-on-the-field `target` of T-EFF-1 (chosen as a
    /// [`super::action::Action::Choose`], picked without a decision when only one matches).
    #[inline]
    pub fn is_unit_target(&self) -> bool {
        self.mode == TargetMode::Choose
            && self.zone.is_none()
            && self.min == 1
            && self.max == 1
            && self.filter.kinds & !kind::UNIT == 0
    }
}

/// How a moved card lies in its new zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The zone's usual way: a hand; the field face up and ready; the deck's top; the homebase
    /// face down and ready; the trail.
    Usual,
    Top,
    Bottom,
    Actioned,
    FaceUp,
}

/// One effect primitive (T-TERM and the glossary of the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Draw(u8),
    /// T-TERM-PLAN
    Plan(u8),
    /// T-TERM-REBUILD
    Rebuild,
    /// Put the top card of the deck into the homebase face-down and actioned.
    HomebaseTop,
    /// Bond change of the controller (`Own`) or the opponent (`Enemy`).
    Bond {
        side: Side,
        delta: i8,
    },
    /// T-TERM-STUN
    Stun(Target),
    /// T-TERM-KO
    Ko(Target),
    Ready(Target),
    Action(Target),
    /// Gives support (T-SCLM-3) until end of turn.
    Support(Target),
    /// Returns a UNIT to its owner's hand.
    Bounce(Target),
    /// +STR/+DEF until end of turn, or during this combat.
    Buff(Target, Amount, Amount, Dur),
    /// An icon until end of turn.
    Grant(Target, Icons),
    /// Draw until the hand holds this many cards.
    DrawTo(u8),
    /// The next time the UNIT would become stunned this turn, it isn't (decision T-EFF-14).
    Shield(Target),
    /// T-TERM-LINK until end of turn, for the controller's units: the two organizations
    /// (decision T-EFF-13).
    Link(Orgs),
    /// Choose two organizations: T-TERM-LINK until end of turn for the controller's units
    /// (decisions T-EFF-13, T-EFF-19).
    LinkChosen,
    /// Gain EP into the pool (T-RES-1) or CP for the deployment step (T-PREP-3).
    Gain {
        cp: bool,
        n: u8,
    },
    /// T-CURE-2's cure by an effect: a stunned UNIT turns face up, actioned (decision T-CURE-5).
    Cure(Target),
    /// The opponent draws.
    DrawEnemy(u8),
    /// Draw a counted number of cards (`draw x`): the card's value.
    DrawCounted(u8),
    /// Put the chosen cards into a zone (decision T-EFF-11).
    Move(Target, Zone, Place),
    /// Search the deck for the chosen cards, reveal them and put them into a zone, then shuffle.
    Search(Target, Zone, Place),
    /// Look at the top N cards of the deck, reveal the chosen ones among them and put them into
    /// a zone, the rest on the bottom in any order.
    Dig(u8, Target, Zone, Place),
    /// The controller (or the opponent) puts N cards of their choice from their hand into their
    /// trail.
    Discard {
        enemy: bool,
        n: u8,
    },
    /// The controller looks at the opponent's hand (decision T-INFO-6).
    Look,
    /// The controller chooses cards: the last becomes `that`.
    Pick(Target),
    /// The UNITs can't do `what` until end of turn (decision T-EFF-15).
    Cant(Target, Prohibition),
    /// A player can't play the cards `t` describes (its side: whose; kinds 0: any way of
    /// playing), with the name of `that` card when `same_name`, until end of turn or of the
    /// combat (decision T-EFF-17).
    Ban {
        t: Target,
        same_name: bool,
        dur: Dur,
    },
    /// The UNIT becomes the defending unit of the current attack instead (decision T-REPL-2).
    Redirect(Target),
    /// In an `instead` text: the event replaced does not happen, if the step before did
    /// something ("if you do", decision T-REPL-1).
    Prevent,
}

/// The cards an effect acts on, one list for [`Effect::target`] and [`Effect::target_mut`] (the
/// binding mode follows the reference matched). A `ban`'s description is not such a set.
macro_rules! effect_target {
    ($e:expr) => {
        match $e {
            Effect::Stun(t)
            | Effect::Ko(t)
            | Effect::Ready(t)
            | Effect::Action(t)
            | Effect::Support(t)
            | Effect::Bounce(t)
            | Effect::Buff(t, _, _, _)
            | Effect::Grant(t, _)
            | Effect::Cure(t)
            | Effect::Move(t, _, _)
            | Effect::Search(t, _, _)
            | Effect::Dig(_, t, _, _)
            | Effect::Pick(t)
            | Effect::Cant(t, _)
            | Effect::Redirect(t)
            | Effect::Shield(t) => Some(t),
            _ => None,
        }
    };
}

impl Effect {
    pub fn target(&self) -> Option<&Target> {
        effect_target!(self)
    }

    /// The cards of the effect, to change (see [`Effect::target`]).
    pub fn target_mut(&mut self) -> Option<&mut Target> {
        effect_target!(self)
    }
}

/// A number of an effect: as written, or counted when the effect resolves (a static's, when it is
/// read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Num(i8),
    /// The card's [`Values`]`[k]`.
    Counted(u8),
}

impl Amount {
    /// The number as written, when it is one.
    pub fn fixed(self) -> Option<i8> {
        match self {
            Amount::Num(n) => Some(n),
            Amount::Counted(_) => None,
        }
    }
}

/// The counted numbers of a card's text (`1 per own units org=jaeger`, `x`, `attackers`), over
/// card sets compiled as [`Target`]s.
pub type Value = crate::core::lang::ast::Value<Target>;

/// How long an effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dur {
    /// Until end of turn (T-CURE-4).
    Turn,
    /// During this combat: until the attack is resolved or stops (decision T-EFF-10).
    Combat,
}

/// A continuous effect of a card while it is on the field (or face up in the homebase, a BASE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticEffect {
    /// UNITs of `side` matching `filter` get +STR/+DEF.
    Stats {
        side: Side,
        filter: Filter,
        str: Amount,
        def: Amount,
    },
    /// UNITs of `side` matching `filter` have the icons.
    Grant {
        side: Side,
        filter: Filter,
        icons: Icons,
    },
    /// T-TERM-LINK: UNITs of either organization have both.
    Link(Orgs),
    /// The card itself costs `n` CP more (less, negative) to play from the hand or the homebase,
    /// to a minimum of 0 (decision T-RES-14): `cost self -2`, read while it is in the hand or
    /// the homebase, with its condition.
    CostSelf(i8),
    /// Cards of `side` matching `filter` (their printed characteristics; `kinds` the card types)
    /// cost `n` CP more (less, negative) to play from the zones of `from` ([`cost_from`]), to a
    /// minimum of 0 (decision T-RES-15): `cost all own units org=army -1`. With `first`, only
    /// the first card matching `filter` that its player plays in a deployment step.
    CostAll {
        side: Side,
        filter: Filter,
        n: i8,
        first: bool,
        from: u8,
    },
    /// Its controller may cure two stunned UNITs in the cure phase, one of them matching
    /// `filter` (decision T-CURE-6).
    ExtraCure { filter: Filter },
    /// UNITs of `side` matching `filter` can't do `what` (decision T-EFF-12).
    Cant {
        side: Side,
        filter: Filter,
        what: Prohibition,
    },
}

/// Where a cost change of other cards ([`StaticEffect::CostAll`]) reads the cards played.
pub mod cost_from {
    /// Deployed from the hand (T-PREP-3).
    pub const HAND: u8 = 1;
    /// Dispatched from the homebase (T-ICON-DISPATCH).
    pub const HOMEBASE: u8 = 2;
}

/// What a prohibition (`cant`) forbids (decision T-EFF-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Prohibition {
    /// Attack (be declared as an attacker or join an attack).
    #[default]
    Attack,
    /// Be chosen as the target of the opponent's EVENTs, arts or crafts.
    BeTargeted,
    /// Be cured (in the cure phase or by an effect).
    BeCured,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// T-TERM-ENTER: put on the field (UNIT/ITEM) or turned face up (BASE).
    Enter,
    Attack,
    Defend,
    Stuns,
    Event,
    Arts,
    /// A craft with a cost ("• (Cost): (Text)").
    Act,
    /// Becomes stunned (T-STATE-2).
    Stunned,
    /// Leaves the field (to [`About::to`] when set).
    Leaves,
    /// Is played: a UNIT or ITEM deployed or dispatched, an EVENT or arts played, a BASE turned
    /// face up (T-RES).
    Played,
    /// Is put into a zone ([`About::to`]): the homebase.
    Put,
    /// The start of a phase or step ([`About::phase`]).
    Start,
    /// The end of a phase or step ([`About::phase`]).
    End,
    /// A replacement (`instead stunned SUBJECT [by CARDS]`): a UNIT the subject names would
    /// become stunned (decision T-REPL-1).
    Instead,
}

impl Trigger {
    /// The bit of the trigger in a set of triggers.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A zone of the game, as an event names it (`leaves to trail`, `put … to homebase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Field,
    Hand,
    Deck,
    Homebase,
    Trail,
}

/// A phase or step, as `start`/`end` events name them (decision T-EFF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The whole turn.
    Turn,
    /// A player's preparation phase (T-PREP).
    Preparation,
    Draw,
    Homebase,
    Deployment,
    /// One combat: an attack from its declaration to its resolution (T-COMBAT-3) or its stop
    /// (T-COMBAT-5).
    Combat,
    /// The combat phase (T-COMBAT-1).
    CombatPhase,
    /// The cure phase (T-CURE).
    Cure,
}

/// What a triggered ability's event is about beyond the card itself (`docs/cards.md`, events).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct About {
    /// The cards the event may happen to, when not the card itself: a side (relative to the
    /// ability's controller) and a filter.
    pub subject: Option<(Side, Filter)>,
    /// `to ZONE`: where the card goes.
    pub to: Option<Zone>,
    /// `start`/`end`: the phase or step, and whose (`Side::Any`: either player's).
    pub phase: Option<(Phase, Side)>,
    /// `by CARDS`: what causes the event — whose (relative to the ability's controller) and
    /// which [`kind`]s (`by enemy event/arts`; decision T-REPL-1).
    pub by: Option<(Side, u8)>,
}

/// The cost of a craft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CraftCost {
    /// "Action this ready UNIT".
    pub self_action: bool,
    pub ep: u8,
    /// "Put N cards from your hand into your trail" (the player chooses them as the craft is
    /// activated).
    pub discard: u8,
}

/// An ability's body: its effects and the control flow between them (`crate::core::lang::program`).
pub type Program = crate::core::lang::program::Program<Effect, Target, (Trigger, About)>;
/// One step of a [`Program`].
pub type Op = crate::core::lang::program::Op<Effect, Target>;
/// A condition, over card sets compiled as [`Target`]s.
pub type Cond = crate::core::lang::ast::Cond<Target>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    /// What the event is about, beyond the card itself.
    pub about: About,
    pub cost: CraftCost,
    /// `[once]`: once per turn (decision T-ONCE-1: at most one such ability a card).
    pub once: bool,
    /// The head's condition: when the card may be played, the craft activated, the trigger
    /// trigger, the static apply.
    pub cond: Option<Cond>,
    /// The body.
    pub program: Program,
    /// The effects of the body in order, as [`Program::effects`] lists them (what checks of a
    /// card and the heuristic read).
    pub effects: Vec<Effect>,
}

impl Ability {
    /// Whether the ability is gated beyond its cost: a condition or once per turn.
    pub fn gated(&self) -> bool {
        self.once || self.cond.is_some() || self.cost.discard > 0
    }

    /// Whether the head's condition asks for the card itself in the homebase (`if self face_up in
    /// homebase`): a craft that, by its text, works there (decision T-RES-5-2).
    pub fn in_homebase(&self) -> bool {
        fn asks(c: &Cond) -> bool {
            match c {
                crate::core::lang::ast::Cond::Any(t) => {
                    t.mode == TargetMode::This && t.zone == Some(Zone::Homebase)
                }
                crate::core::lang::ast::Cond::And(v) => v.iter().any(asks),
                _ => false,
            }
        }
        self.cond.as_ref().is_some_and(asks)
    }

    /// Whether the ability triggers on events of other cards or of the game (a subject, or a
    /// phase) rather than on the card's own events.
    pub fn listens(&self) -> bool {
        self.about.subject.is_some() || self.about.phase.is_some()
    }
}
