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
    fn org_bit(&mut self, word: &str) -> Result<Orgs, String>;
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub mode: TargetMode,
    pub side: Side,
    pub filter: Filter,
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
    /// +STR/+DEF until end of turn.
    Buff(Target, i8, i8),
    /// An icon until end of turn.
    Grant(Target, Icons),
}

impl Effect {
    pub fn target(&self) -> Option<&Target> {
        match self {
            Effect::Stun(t)
            | Effect::Ko(t)
            | Effect::Ready(t)
            | Effect::Action(t)
            | Effect::Support(t)
            | Effect::Bounce(t)
            | Effect::Buff(t, _, _)
            | Effect::Grant(t, _) => Some(t),
            _ => None,
        }
    }
}

/// A continuous effect of a card while it is on the field (or face up in the homebase, a BASE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticEffect {
    /// UNITs of `side` matching `filter` get +STR/+DEF.
    Stats {
        side: Side,
        filter: Filter,
        str: i8,
        def: i8,
    },
    /// UNITs of `side` matching `filter` have the icons.
    Grant {
        side: Side,
        filter: Filter,
        icons: Icons,
    },
    /// T-TERM-LINK: UNITs of either organization have both.
    Link(Orgs),
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
}

/// The cost of a craft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CraftCost {
    /// "Action this ready UNIT".
    pub self_action: bool,
    pub ep: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    pub cost: CraftCost,
    pub effects: Vec<Effect>,
}
