//! What Fire Force card abilities are made of (`docs/cards.md`, "Fire Force TCG"): filters,
//! targets, effects, triggers, costs, abilities and static effects. The effect language
//! ([`super::dsl`]) compiles into these types and the card database ([`super::cards`], which
//! re-exports them) stores them.

use super::cards::*;
use crate::core::lang::Side;

/// Conditions on a card (all must hold). The printed ones ([`Filter::card_ok`]) read the card;
/// the others the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub power_min: Option<i16>,
    pub power_max: Option<i16>,
    pub cost_min: Option<u8>,
    pub cost_max: Option<u8>,
    /// One of these attributes (0 = any).
    pub attrs: Attrs,
    /// All of these keywords (printed, or granted for a card on the Scene).
    pub keywords: Keywords,
    /// Has Flame (printed): `Some(true)` `flame`, `Some(false)` `not_flame`.
    pub flame: Option<bool>,
    /// `Some(true)` ready only, `Some(false)` exhausted only.
    pub ready: Option<bool>,
    /// Not the card the ability belongs to.
    pub other: bool,
    /// The kinds of card ([`CardType::bit`]), 0 for any (`card`).
    pub types: u8,
    /// A Reaction Event (printed).
    pub reaction: bool,
    /// Given a Flame card (`given`, `not_given`): of a Unit, that it has been given one; of a
    /// Flame card, that it is given to a Unit.
    pub given: Option<bool>,
    /// The attacking Unit, the attacked Unit of the current battle (or not).
    pub attacking: Option<bool>,
    pub attacked: Option<bool>,
    /// `named`: the card has the name the ability named (`name_card`, decision F-EFF-12); read
    /// off the Scene only.
    pub named: bool,
}

impl Filter {
    /// Whether the filter reads anything of the position beyond ready and `other` (the cold part
    /// of [`super::FireForceGame::matches`]).
    #[inline]
    pub fn has_state_extras(&self) -> bool {
        self.given.is_some() || self.attacking.is_some() || self.attacked.is_some()
    }
}

/// Where the cards of a target are (`in ZONE`; the Scene when none is written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Zone {
    #[default]
    Scene,
    Hand,
    Deck,
    Life,
    Adolla,
    FlameDeck,
}

/// How a target picks its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `self`: the card the ability belongs to, on the Scene.
    This,
    /// `target …`: exactly 1, chosen by the controller as the effect resolves (automatically when
    /// only one qualifies, F-EFF-1).
    Choose,
    /// `up_to 1 …`: 0 or 1, chosen (decision F-EFF-7: always asked, "none" offered).
    UpTo,
    /// `all …`: every match.
    All,
    /// A description (`count`, `any`, `no`, a trigger's subject): every match.
    Each,
    /// `that`: the card of the triggering event, or the card chosen last (decision F-EFF-8).
    That,
    /// The attacking Unit, the attacked Unit of the current battle.
    Attacker,
    Attacked,
    /// The Unit the ability's Flame card is given to.
    Bearer,
}

/// What an effect acts on, or what a condition or value looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub mode: Mode,
    pub side: Side,
    pub zone: Zone,
    pub filter: Filter,
}

impl Target {
    pub const SELF: Target = Target {
        mode: Mode::This,
        side: Side::Own,
        zone: Zone::Scene,
        filter: Filter {
            power_min: None,
            power_max: None,
            cost_min: None,
            cost_max: None,
            attrs: 0,
            keywords: Keywords(0),
            flame: None,
            ready: None,
            other: false,
            types: CardType::UNIT_BIT,
            reaction: false,
            given: None,
            attacking: None,
            attacked: None,
            named: false,
        },
    };

    /// `target …` or `up_to 1 …`: the controller chooses.
    #[inline]
    pub fn chosen(&self) -> bool {
        matches!(self.mode, Mode::Choose | Mode::UpTo)
    }
}

/// How long a change lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    EndOfTurn,
    /// "during this battle" (F-BAT-9); outside a battle, until end of turn.
    EndOfBattle,
    /// "until the end of the next turn" (decision F-DUR-1).
    NextTurn,
    /// "until the end of your next turn": the controller's next turn (decision F-DUR-2).
    OwnNextTurn,
}

/// An amount: written, or counted as the effect resolves ([`Ability::values`]`[k]`, decision
/// F-EFF-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Num(i16),
    /// The `k`-th counted value of the ability; `up` when it counts up (`+N per …`).
    Val {
        k: u8,
        up: bool,
    },
}

impl Amount {
    /// Whether the amount is a gain (a positive number, or counted up).
    #[inline]
    pub fn positive(self) -> bool {
        match self {
            Amount::Num(n) => n > 0,
            Amount::Val { up, .. } => up,
        }
    }
}

/// Where `move` puts a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Hand,
    Adolla,
    DeckBottom,
    /// Face down on top of the Life area.
    Life,
}

/// One effect primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Draw(u8),
    /// `draw [enemy] AMOUNT`: a counted draw, or the opponent's.
    DrawOf {
        enemy: bool,
        n: Amount,
    },
    /// Draw until the hand holds N cards.
    DrawTo(u8),
    Remove(Target),
    Exhaust(Target),
    Ready(Target),
    Bounce(Target),
    Power(Target, Amount, Until),
    /// Give 1 exhausted Flame card from the Flame deck (F-KW-PRAY's effect).
    Give(Target),
    /// Put up to N Flame cards from the Flame deck onto the Scene, exhausted.
    Flame(u8),
    /// Top N deck cards face down onto the Life area.
    Life(u8),
    /// The opponent's top N deck cards into its THE ADOLLA.
    Mill(u8),
    /// `choose …`: the card becomes `that` (decision F-EFF-8).
    Pick(Target),
    /// `move CARDS to ZONE`: cards of a hand, THE ADOLLA or the Scene (a Flame card) elsewhere.
    Move(Target, Dest),
    /// `discard [enemy] N`: that player puts N cards of its choice from its hand into THE ADOLLA.
    Discard {
        enemy: bool,
        n: u8,
    },
    /// `dispatch CARDS`: a Unit card from THE ADOLLA onto the Scene, ready, without its cost.
    Dispatch(Target),
    /// `search CARDS to hand`: from the deck, revealed; then the deck is shuffled.
    Search(Target, Dest),
    /// `dig N CARDS to hand`: among the top N cards of the deck; the rest to its bottom.
    Dig(u8, Target, Dest),
    /// `look enemy hand`: the controller sees the opponent's hand.
    Look,
    /// `grant CARDS blitz|blocker [next_turn]`: the Units gain the keyword until end of turn, or
    /// until the end of the next turn (decision F-KW-GRANT).
    Grant(Target, Keywords, bool),
    /// `end_battle`: the battle goes straight to its end, step 9 (decision F-BAT-16).
    EndBattle,
    /// `redirect CARDS`: the attacked player's Unit becomes the new target of the attack; not a
    /// block (decision F-BAT-17).
    Redirect(Target),
    /// `guard_life battle`: during this battle the attacked player's Life is not revealed and
    /// the attack can't make it lose (decision F-BAT-18).
    GuardLife,
    /// `cant CARDS be_readied next_turn`: the Units stay exhausted in their owner's next
    /// Preparation phase (decision F-PREP-6).
    Stay(Target),
    /// `name_card`: the controller names a card (decision F-EFF-12).
    NameCard,
    /// `ban own|enemy cards named next_turn`: that player can't dispatch or play the named card
    /// from hand until the end of the next turn (decision F-EFF-12).
    Ban {
        enemy: bool,
    },
    /// `prevent` in an `instead` text; compiled away (a jump past [`Effect::Removal`]).
    Prevent,
    /// The last step of an `instead removed self` text (decision F-EFF-13): the removal it
    /// replaced happens, unless `prevent` jumped past it.
    Removal,
}

impl Effect {
    pub fn target(&self) -> Option<&Target> {
        match self {
            Effect::Remove(t)
            | Effect::Exhaust(t)
            | Effect::Ready(t)
            | Effect::Bounce(t)
            | Effect::Power(t, _, _)
            | Effect::Give(t)
            | Effect::Pick(t)
            | Effect::Move(t, _)
            | Effect::Dispatch(t)
            | Effect::Redirect(t)
            | Effect::Stay(t)
            | Effect::Grant(t, ..) => Some(t),
            _ => None,
        }
    }

    /// Whether the effect records `x`, the cards it acted on (decision F-EFF-9).
    #[inline]
    pub fn counts(&self) -> bool {
        matches!(
            self,
            Effect::Remove(_)
                | Effect::Exhaust(_)
                | Effect::Ready(_)
                | Effect::Bounce(_)
                | Effect::Move(..)
                | Effect::Dispatch(_)
        )
    }
}

/// When an ability applies (F-KW-TRIGGERS, F-KW-ACTIVE, F-KW-REACTION, F-MAIN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    Dispatched,
    Removed,
    Attacking,
    Blocking,
    BattleEnd,
    TurnEnd,
    Active,
    Reaction,
    /// A non-Reaction Event played in the main phase.
    Main,
    /// Another card is removed (`removed SUBJECT`, [`Ability::subject`]).
    OtherRemoved,
    /// An Event is played (`played SUBJECT`).
    Played,
    /// A Flame card is put onto the Scene: this one (a Flame card's own `put to scene`) or, with
    /// a subject, another.
    Put,
    /// The start of a player's Main phase (`start own main`, `start enemy main`;
    /// [`Ability::side`]).
    StartMain,
    /// `instead removed self`: the Unit would be removed (decision F-EFF-13).
    Instead,
}

impl Trigger {
    pub const NAMES: [(&'static str, Trigger); 14] = [
        ("dispatched", Trigger::Dispatched),
        ("removed", Trigger::Removed),
        ("attacking", Trigger::Attacking),
        ("blocking", Trigger::Blocking),
        ("battle_end", Trigger::BattleEnd),
        ("turn_end", Trigger::TurnEnd),
        ("active", Trigger::Active),
        ("reaction", Trigger::Reaction),
        ("main", Trigger::Main),
        ("other_removed", Trigger::OtherRemoved),
        ("played", Trigger::Played),
        ("put", Trigger::Put),
        ("start_main", Trigger::StartMain),
        ("instead", Trigger::Instead),
    ];

    pub fn name(self) -> &'static str {
        Trigger::NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map(|(n, _)| *n)
            .expect("every trigger is named")
    }
}

/// The cost of an activated ability (`active[…]`, `reaction[…]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbilityCost {
    /// Exhaust this ready Unit.
    pub exhaust: bool,
    /// Cards with Flame to exhaust (F-COST-1).
    pub flame: u8,
    /// Once Per Turn (F-KW-ONCE).
    pub once: bool,
}

/// An ability's body: its effects and the control flow between them
/// (`crate::core::lang::program`).
pub type Program = crate::core::lang::program::Program<Effect, Target, ()>;
/// One step of a [`Program`].
pub type Op = crate::core::lang::program::Op<Effect, Target>;
/// A condition over card sets compiled as [`Target`]s.
pub type Cond = crate::core::lang::ast::Cond<Target>;
/// A counted amount over card sets compiled as [`Target`]s.
pub type Value = crate::core::lang::ast::Value<Target>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    /// What another card's event must be about (a trigger about another card: the side is from
    /// the ability's controller), `None` for the card itself.
    pub subject: Option<Target>,
    /// Whose phase a phase trigger waits for (`start own main`).
    pub side: Side,
    pub cost: AbilityCost,
    /// The head's condition: when the Event may be played, the ability activated, the trigger
    /// trigger (decision F-EFF-6).
    pub cond: Option<Cond>,
    /// The body.
    pub program: Program,
    /// The counted amounts of the body ([`Amount::Val`]).
    pub values: Vec<Value>,
    /// The effects of the body in order, as [`Program::effects`] lists them (what the heuristic
    /// reads).
    pub effects: Vec<Effect>,
}

impl Ability {
    /// An ability of plain effects, unconditioned.
    pub fn plain(trigger: Trigger, cost: AbilityCost, effects: Vec<Effect>) -> Ability {
        Ability {
            trigger,
            subject: None,
            side: Side::Own,
            cost,
            cond: None,
            program: Program {
                ops: effects.iter().map(|&e| Op::Do(e)).collect(),
                later: Vec::new(),
            },
            values: Vec::new(),
            effects,
        }
    }

    /// Whether the ability is gated beyond its cost: a condition in its head.
    #[inline]
    pub fn gated(&self) -> bool {
        self.cond.is_some()
    }
}

/// Who a static's power change reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every Unit of the side that passes the filter.
    All,
    /// The card itself (`self`).
    This,
    /// The Unit the Flame card is given to (`bearer`).
    Bearer,
}

/// A continuous power change of a card on the Scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Static {
    pub side: Side,
    pub scope: Scope,
    pub filter: Filter,
    pub power: i16,
    /// `static if COND`: it applies while the condition holds (decision F-STATIC-1).
    pub cond: Option<Box<Cond>>,
    /// Derived by [`CardDb::derive`]: the card ids (a bit each) whose printed fields pass
    /// `filter` ([`Filter::printed_ok`]); the rest of the filter (ready, other) is the state's.
    pub hits: [u64; 4],
    /// Derived by [`CardDb::derive`]: [`Static::is_plain`].
    pub plain: bool,
    /// Derived by [`CardDb::derive`]: [`Static::gate_bits`], `side` and the filter's `ready`
    /// in one byte (one test a static on the hot path of [`super::FireForceGame::power`]).
    pub gate: u8,
}

impl Static {
    /// Whether card `id` passes the printed part of the filter (from [`Static::hits`]).
    #[inline]
    pub fn hits(&self, id: CardId) -> bool {
        self.hits[usize::from(id / 64)] & 1 << (id % 64) != 0
    }

    /// Whether this static (of the plain kinds) counts toward the power of a Unit of card `id`
    /// whose [`Static::gate_bit`] is `gate`; `this` when the Unit is the static's own card (an
    /// `other` static skips it). The derived test `FireForceGame::power` checks, in debug builds,
    /// against the filter read in full.
    #[inline]
    pub fn reaches(&self, gate: u8, id: CardId, this: bool) -> bool {
        self.gate & gate != 0 && self.hits(id) && !(self.filter.other && this)
    }

    /// The bit of [`Static::gate`] for a Unit of the static's controller (`reach` 0) or of
    /// its opponent (1), ready or not.
    #[inline]
    pub fn gate_bit(reach: usize, ready: bool) -> u8 {
        1 << Self::gate_index(reach, ready)
    }

    /// The index of [`Static::gate_bit`]: 0–3.
    #[inline]
    pub fn gate_index(reach: usize, ready: bool) -> usize {
        2 * reach + usize::from(!ready)
    }

    /// [`Static::gate`]: the bit [`Static::gate_bit`] of each Unit the static's side reaches
    /// (the controller's for `own`, the opponent's for `enemy`) and its filter's `ready` lets
    /// pass.
    pub fn gate_bits(&self) -> u8 {
        let sides = match self.side {
            Side::Own => [true, false],
            Side::Enemy => [false, true],
            Side::Any => [true, true],
        };
        let mut g = 0;
        for (reach, reached) in sides.into_iter().enumerate() {
            for ready in [true, false] {
                if reached && self.filter.ready.is_none_or(|r| r == ready) {
                    g |= Self::gate_bit(reach, ready);
                }
            }
        }
        g
    }

    /// A static of the first kind: `all` Units of a side, no condition, a filter of printed
    /// fields, ready and `other` (the hot path of [`super::FireForceGame::power`]).
    pub fn is_plain(&self) -> bool {
        self.scope == Scope::All && self.cond.is_none() && !self.filter.has_state_extras()
    }
}
