//! The TMNT position: a `Copy` value of fixed-size arrays, no heap data, under 1 KiB.
//!
//! Each player owns up to 40 card *instances* (its deck's cards, the i-th from the top at setup
//! being instance i). Hand, Trash, Item Zone and face-up cards are bit masks over the instances;
//! the deck, the four Block Zones and the Attack Zone are ordered. Knowledge is per instance:
//! `known[s]` has a bit for every instance whose identity seat `s` knows (M-INFO-1), which is what
//! determinization keeps.

use super::cards::{CardId, Dest};
use crate::core::{FixedVec, Outcome, Seat};

pub use crate::core::Bits;

/// M-DECK-1: a deck has 40 cards.
pub const DECK: usize = 40;
/// "No instance" / "no card" / "no zone".
pub const NONE: u8 = u8::MAX;
/// Block Zones (M-SETUP-2).
pub const ZONES: usize = 4;
/// The most cards in one Attack Zone: 3 attack cards (M-ATK-3) or 1 counter (M-ATK-7).
pub const ATTACK_ZONE: usize = 3;

/// One player's cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// The card of each instance.
    pub card: [CardId; DECK],
    /// Instances (40 in a game; 10 to 40 in a scenario).
    pub n: u8,
    /// `deck[..deck_len]` is the deck, bottom first (the top is `deck[deck_len - 1]`).
    pub deck: [u8; DECK],
    pub deck_len: u8,
    pub hand: u64,
    /// M-TURN-3: the Trash is a set (no rule reads its order).
    pub trash: u64,
    pub items: u64,
    /// Block Zones 1–4 (index 0 is Block Zone 1, M-SETUP-5): an instance or [`NONE`].
    pub block: [u8; ZONES],
    /// Face-up instances among the Block cards.
    pub up: u64,
    /// The Attack Zone, in the order placed.
    pub attack: [u8; ATTACK_ZONE],
    pub attack_len: u8,
    /// Power changes by effects until the end of the turn (M-ATK-16), per instance.
    pub temp: [i16; DECK],
    /// `bonus` effects: the player's side of this turn's Forward step.
    pub bonus: i16,
    /// M-ATK-14: cards of this player's deck went to its Trash in this Forward step.
    pub trashed: bool,
    /// M-ATK-13: the zone of the character this player keeps, or [`NONE`].
    pub kept: u8,
    /// `known[s]`: instances whose identity seat `s` knows (M-INFO-1).
    pub known: [u64; 2],
    /// Instances sent from the deck straight to the Trash (never in hand or on a Block Zone):
    /// card statistics do not count them as drawn.
    pub milled: u64,
    /// What this turn's texts changed of this player's rules (cleared at the end of the turn).
    pub fx: TurnFx,
}

/// The rule changes of a player's texts that last until the end of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnFx {
    /// `ban`: the classes of cards (`cards::class_of`) the player can't place.
    pub ban: u8,
    /// `excess_cap`: the most cards damage beyond its Block cards sends from its deck
    /// ([`NONE`]: no cap).
    pub cap: u8,
    /// `excess_extra`: cards more its opponent sends by M-ATK-12.
    pub extra: u8,
    /// [`fx::KEEP_ANYWAY`], [`fx::FREE_ITEM`].
    pub rules: u8,
}

impl TurnFx {
    pub const NONE: TurnFx = TurnFx {
        ban: 0,
        cap: NONE,
        extra: 0,
        rules: 0,
    };
}

/// Bits of [`TurnFx::rules`].
pub mod fx {
    /// `keep_anyway`: M-ATK-14 does not forbid this player's keep this turn.
    pub const KEEP_ANYWAY: u8 = 1;
    /// `free_item`: this turn's Item may be placed without a discard (M-ITM-4).
    pub const FREE_ITEM: u8 = 2;
    /// The free Item was placed.
    pub const FREE_USED: u8 = 4;
}

impl Player {
    pub const EMPTY: Player = Player {
        card: [0; DECK],
        n: 0,
        deck: [0; DECK],
        deck_len: 0,
        hand: 0,
        trash: 0,
        items: 0,
        block: [NONE; ZONES],
        up: 0,
        attack: [NONE; ATTACK_ZONE],
        attack_len: 0,
        temp: [0; DECK],
        bonus: 0,
        trashed: false,
        kept: NONE,
        known: [0; 2],
        milled: 0,
        fx: TurnFx::NONE,
    };

    /// The deck, bottom first.
    #[inline]
    pub fn deck(&self) -> &[u8] {
        &self.deck[..self.deck_len as usize]
    }

    /// The deck as a mask.
    pub fn deck_mask(&self) -> u64 {
        self.deck().iter().fold(0, |m, &i| m | 1 << i)
    }

    /// The cards in the Attack Zone, in the order placed.
    #[inline]
    pub fn attack_zone(&self) -> &[u8] {
        &self.attack[..self.attack_len as usize]
    }

    /// The Block cards as a mask.
    pub fn blocks_mask(&self) -> u64 {
        self.block
            .iter()
            .filter(|&&i| i != NONE)
            .fold(0, |m, &i| m | 1 << i)
    }

    /// The face-up cards on Block Zones and in the Attack Zone: the cards `power` targets.
    /// (`up` marks Block cards only, `TmntGame::invariants`.)
    pub fn field_up(&self) -> u64 {
        self.attack_zone().iter().fold(self.up, |m, &i| m | 1 << i)
    }

    /// Empty Block Zones: the bytes of `block` that are [`NONE`], counted four at once.
    #[inline]
    pub fn empty_zones(&self) -> usize {
        let x = !u32::from_ne_bytes(self.block);
        // A high bit in each byte of `x` that is 0 (a zone that is NONE), exactly.
        let zero = !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x | 0x7f7f_7f7f);
        zero.count_ones() as usize
    }

    /// The number of cards in hand.
    #[inline]
    pub fn hand_len(&self) -> u32 {
        self.hand.count_ones()
    }
}

/// The decision that is awaited (or the end).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Step {
    /// M-ADJ-4, `discard` effects: the chooser discards a card.
    #[default]
    Discard,
    /// M-SET-3: a card onto the lowest empty Block Zone.
    Set,
    /// M-EVT-1.
    Event,
    /// M-ITM-1: an Item, then the card paid for it.
    Item,
    Pay,
    /// M-ATK-3.
    Attack,
    /// M-ATK-7.
    Counter,
    /// M-ATK-13.
    Keep,
    /// M-EFFECTS-2.
    Order,
    /// A card for `target … card` (M-EFFECTS-4).
    Choose,
    /// A card of the Trash for `salvage`.
    Salvage,
    /// `choose`: an option (M-EFFECTS-10).
    Mode,
    /// `may`: yes or no (M-EFFECTS-10).
    May,
    /// A card, by card id, for `move`, `search`, `dig` (M-EFFECTS-4).
    Take,
    /// `arrange`: the next card on top.
    Arrange,
    /// M-ACT-1: an `anytime` text, or none.
    Activate,
    Over,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Discard => "discard",
            Step::Set => "set",
            Step::Event => "event",
            Step::Item => "item",
            Step::Pay => "pay",
            Step::Attack => "attack",
            Step::Counter => "counter",
            Step::Keep => "keep",
            Step::Order => "order",
            Step::Choose => "choose",
            Step::Salvage => "salvage",
            Step::Mode => "mode",
            Step::May => "may",
            Step::Take => "take",
            Step::Arrange => "arrange",
            Step::Activate => "activate",
            Step::Over => "over",
        }
    }
}

/// Where the turn stands between decisions: the engine's program counter (`engine::turn`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The turn begins (`start … turn` texts).
    #[default]
    TurnBegin,
    /// The Adjust phase begins (M-ADJ-2; `start … adjust` texts).
    AdjustBegin,
    /// M-ADJ-1 (1).
    Adjust,
    /// M-ADJ-1 (2).
    AdjustDraw,
    /// M-SET-1 (1).
    Shift,
    /// M-SET-1 (2).
    Set,
    Event,
    Item,
    /// M-ITM-2: the card discarded for the Item.
    Pay,
    /// M-FLIP-1.
    Flip,
    /// M-FLIP-1: after the flipped card's text.
    FlipDone,
    /// M-ATK-1: the phase begins.
    AttackBegin,
    /// M-ATK-3: the Attack step begins (`attack` texts, M-WHEN-1).
    AttackStepBegin,
    AttackStep,
    /// M-ATK-7: the Counter step begins (`defend` texts, M-WHEN-2).
    CounterBegin,
    Counter,
    /// The Forward step begins (`start … forward` texts).
    ForwardBegin,
    /// M-ACT-1: the window before the damage is counted.
    Window,
    /// M-ATK-8..10.
    Forward,
    /// M-ATK-11.
    FlipTexts,
    /// M-ATK-12.
    CounterTrash,
    /// M-ATK-13: the Result step begins.
    Result,
    /// M-ACT-1: the window at the start of the Result step.
    ResultWindow,
    /// M-ATK-13: the turn player, then the other player, keep.
    KeepActive,
    KeepOther,
    /// M-REPL-1: `instead` texts of the cards about to go to the Trash.
    Replace,
    /// M-ATK-13: the rest goes to the Trash.
    Cleanup,
    /// After the Result step's moves, while the texts they triggered resolve.
    CleanupDone,
    /// The turn ends (M-ATK-16: power changes end); the next one begins.
    EndTurn,
}

/// A choice a text or the Adjust phase is waiting for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pick {
    #[default]
    None,
    /// M-ADJ-4, `discard`: [`State::discards`] more cards from the chooser's hand.
    Discard,
    /// `target … card`: one of these cards in play (face up on Block or Attack Zones, in Item
    /// Zones, face down on Block Zones), `mask[0]` P1's instances, `mask[1]` P2's; with `opt`,
    /// none may be chosen (`pass`).
    Choose { mask: [u64; 2], opt: bool },
    /// `salvage`: a card of the chooser's Trash matching the current effect's filter.
    Salvage,
    /// `choose`: one of `n` options.
    Mode { n: u8 },
    /// `may`: yes (the next step) or no (jump to `skip`).
    May { skip: u8 },
    /// `left` more cards, by card id, among the instances `mask` of player `seat`, each to
    /// `dest` as it is named; with `opt`, `pass` stops.
    Take {
        seat: u8,
        mask: u64,
        left: u8,
        opt: bool,
        dest: Dest,
    },
    /// `arrange`: the top `n` cards of the chooser's deck are looked at; `placed` of them are
    /// on top in their order, the next one named goes below them.
    Arrange { n: u8, placed: u8 },
    /// M-ACT-1: the chooser may activate an `anytime` text.
    Activate,
}

/// A text being resolved: whose it is, the card it is on, which text, the next step of its
/// program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The text's owner (0 = P1, 1 = P2); [`NONE`] when no text is resolving.
    pub who: u8,
    /// The card's instance (of `who`).
    pub src: u8,
    /// The index of the ability in its card's abilities; with [`LATER`], the delayed text
    /// `text >> 4 & 7` of ability `text & 15`.
    pub text: u8,
    /// The next step of the program.
    pub next: u8,
}

/// [`Frame::text`]: a delayed text (`later`).
pub const LATER: u8 = 0x80;

/// [`Frame::next`] of [`State::later`]: its card went to the Trash while a text was resolving;
/// the delayed text begins when that text is done (M-EFFECTS-12).
pub const READY: u8 = 0x80;

impl Frame {
    /// The start of ability `text` of instance `src` of player `who`.
    pub fn start(who: Seat, src: u8, text: u8) -> Frame {
        Frame {
            who: who.index() as u8,
            src,
            text,
            next: 0,
        }
    }
}

impl Frame {
    pub const IDLE: Frame = Frame {
        who: NONE,
        src: 0,
        text: 0,
        next: 0,
    };

    #[inline]
    pub fn active(&self) -> bool {
        self.who != NONE
    }
}

/// The state fits in 1 KiB (issue 14's bound; `tcgsim bench` prints the size).
const _: () = assert!(std::mem::size_of::<State>() <= 1024);

/// The whole position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub p: [Player; 2],
    pub turn: u16,
    /// Whose turn it is.
    pub active: Seat,
    pub first: Seat,
    /// The decision awaited.
    pub step: Step,
    /// Who decides it.
    pub chooser: Seat,
    /// Where the turn goes on once no text is resolving.
    pub stage: Stage,
    /// The text resolving now.
    pub cur: Frame,
    /// The choice awaited by the text resolving or the Adjust phase.
    pub pick: Pick,
    /// M-EFFECTS-2: "when" texts (by instance, per player) of the group being ordered, and how
    /// many times each was triggered (M-EFFECTS-6).
    pub pending: [u64; 2],
    pub pending_n: [[u8; DECK]; 2],
    /// M-EFFECTS-3: "when" texts triggered since, waiting for the next group, with their counts.
    pub waiting: [u64; 2],
    pub waiting_n: [[u8; DECK]; 2],
    /// The ordered group resolving, the next one first: `times << 8 | seat << 6 | instance`. A
    /// text triggered several times is one entry (M-EFFECTS-6), so a group holds at most the 80
    /// instances of both players.
    pub queue: FixedVec<u16, 80>,
    /// Discards left to choose (M-ADJ-4, `discard`); any card of the hand, in any order
    /// (M-ADJ-4-2).
    pub discards: u8,
    /// M-ITM-2: the Item instance being placed, or [`NONE`].
    pub item: u8,
    /// M-ATK-3: attributes used this Attack step (the character's and the placed cards').
    pub attrs_used: u8,
    /// M-ATK-11: the defender's Block Zones turned face up by this damage, bit per zone.
    pub flipped: u8,
    /// M-ATK-8: the total and counter power of this Forward step.
    pub total: i16,
    pub counter: i16,
    /// M-ATK-14: the Forward step is under way (trashed deck cards forbid keeping).
    pub forward: bool,
    /// Forward steps so far (logs tell one from the next).
    pub forwards: u16,
    /// M-EVT-1: the turn player's Event placed in the Event phase while its text resolves (it
    /// goes to the Trash after), or [`NONE`].
    pub event: u8,
    pub winner: Option<Outcome>,
    // The card language's state (all zero in a game of plain texts):
    /// M-ONCE-1: instances whose once-per-turn text triggered or was activated this turn.
    pub once: [u64; 2],
    /// `those`: the cards of the events that triggered each player's texts that read them.
    pub those: [u64; 2],
    /// `that`: the card last placed (`seat << 6 | instance`), [`NONE`] if none this turn.
    pub that: u8,
    /// `x`: the cards of each player the last effect moved.
    pub x: [u8; 2],
    /// `reduce`: the reduction of this Attack phase's damage (M-DMG-1).
    pub reduce: u8,
    /// `later`: the delayed text waiting for its card to go to the Trash, or [`Frame::IDLE`].
    pub later: Frame,
    /// M-ACT-1: how far the window has asked (0: the turn player next, 1: the other, 2: done).
    pub window: u8,
    /// M-REPL-1: the instances whose `instead` text was offered in this Result step, and
    /// those whose move it prevented.
    pub replaced: [u64; 2],
    pub spared: [u64; 2],
    /// The state of the shuffles of `search` (M-SHUF-1), drawn anew by determinization.
    pub rng: u64,
}

impl State {
    #[inline]
    pub fn pl(&self, s: Seat) -> &Player {
        &self.p[s.index()]
    }

    #[inline]
    pub fn pl_mut(&mut self, s: Seat) -> &mut Player {
        &mut self.p[s.index()]
    }
}
