//! The Fire Force position: a `Copy` value of fixed-size arrays, no heap data, under 1 KiB.
//!
//! Each player owns up to 45 card *instances*: its main deck's at `0..n_main` (40 or 35) and its
//! Flame deck's at [`FLAME_BASE`]`..FLAME_BASE + 5`. Zones are bit masks over the instances,
//! except the deck and the Life area, which are ordered and share one array (the deck grows from
//! the bottom of it, the Life area from the top). Knowledge is per instance: `known[s]` has a bit
//! for every instance whose identity seat `s` knows, which is what determinization keeps.

use super::cards::CardId;
use crate::core::{FixedVec, Outcome, Seat};

/// The first Flame instance; Flame instances are `FLAME_BASE..FLAME_BASE + FLAME_DECK`.
pub const FLAME_BASE: usize = 40;
/// F-DECK-1: a Flame deck has 5 cards.
pub const FLAME_DECK: usize = 5;
/// Instances of one player.
pub const MAX_INST: usize = FLAME_BASE + FLAME_DECK;
/// The Flame instances as a mask.
pub const FLAME_MASK: u64 = ((1u64 << FLAME_DECK) - 1) << FLAME_BASE;
/// "No instance" / "no card".
pub const NONE: u8 = u8::MAX;
/// F-COST-2: the Flame limit.
pub const FLAME_LIMIT: u32 = 8;
/// The ability index of the Pray keyword in [`super::Action::Activate`].
pub const PRAY: u8 = 9;
/// Decision F-MAIN-3: from this many actions of a player in a turn on, a position that repeats
/// one of the last [`LOOP_SEEN`] of that player's main-phase (or reaction) decisions ends the
/// loop.
pub const LOOP_CHECK: u8 = 40;
/// Decision F-MAIN-3: the positions a long turn remembers.
pub const LOOP_SEEN: usize = 7;
/// Decision F-MAIN-3: the last resort: after this many main-phase actions (or reactions) of a
/// player in one turn, only "end" (or "pass") is offered.
pub const MAX_ACTS: u8 = 250;

pub use crate::core::Bits;

/// A mask of main-deck instances (below [`FLAME_BASE`] = 40: the Units are among them) in 5
/// bytes, little-endian: what a `u64` of them holds, in less room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mask40([u8; 5]);

impl Mask40 {
    pub const EMPTY: Mask40 = Mask40([0; 5]);

    /// The mask as a `u64`.
    #[inline(always)]
    pub fn get(self) -> u64 {
        let a = self.0;
        u64::from(u32::from_le_bytes([a[0], a[1], a[2], a[3]])) | u64::from(a[4]) << 32
    }

    /// Adds instance `i` (below [`FLAME_BASE`]): one byte written.
    #[inline(always)]
    pub fn insert(&mut self, i: u8) {
        self.0[usize::from(i / 8)] |= 1 << (i % 8);
    }

    /// Takes instance `i` out (below [`FLAME_BASE`]): one byte written.
    #[inline(always)]
    pub fn remove(&mut self, i: u8) {
        self.0[usize::from(i / 8)] &= !(1 << (i % 8));
    }
}

/// One player's cards. (`Debug` by hand: see the `impl`.)
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Player {
    /// The card of each instance.
    pub card: [CardId; MAX_INST],
    /// Main-deck instances (40 Strategy, 35 Blitz Shield).
    pub n_main: u8,
    /// `pile[..deck_len]` is the deck, bottom first (the top is `pile[deck_len - 1]`);
    /// `pile[FLAME_BASE - life_len..]` is the Life area, its top card at `FLAME_BASE - life_len`.
    pub pile: [u8; FLAME_BASE],
    pub deck_len: u8,
    pub life_len: u8,
    pub hand: u64,
    /// Units, Flame cards and [THE ADOLLA BURST] cards put as Flame cards (F-KW-ADOLLA-LINK).
    pub scene: u64,
    pub adolla: u64,
    pub flame_deck: u64,
    pub exhausted: u64,
    /// Units dispatched this turn (F-BAT-1).
    pub fresh: u64,
    /// Cards whose Once Per Turn ability was used this turn (F-KW-ONCE).
    pub once: u64,
    /// Units granted Blocker: `[0]` now, `[1]` until the end of the next turn (F-KW-GRANT).
    pub blocker: [u64; 2],
    /// Main-deck cards on the Scene as Flame cards (F-KW-ADOLLA-LINK).
    pub as_flame: u64,
    /// Derived, kept by every move onto or off the Scene (checked by the invariants): the Units
    /// on the Scene that have Flame, and the cards on the Scene with a static ability by the side
    /// it reaches: `statics[0]` a static on their controller's Units (`own` or `any`),
    /// `statics[1]` on the opponent's (`enemy` or `any`).
    pub flamey: u64,
    pub statics: [u64; 2],
    /// Derived like `flamey`: the Units on the Scene with Pray or an Active ability (their
    /// brief's [`super::cards::Brief::PRAY`] or `active`), the only Units whose main-phase
    /// actions are more than an attack (F-MAIN-1), and the Units on the Scene with Blocker
    /// (F-KW-BLOCKER). Masks of Units, in 5 bytes each ([`Mask40`]), as `stilled`: the three
    /// fill what was the padding of the struct, and the state keeps its size.
    pub acting: Mask40,
    pub guards: Mask40,
    /// The Unit each Flame instance is given to (F-KW-PRAY), or [`NONE`].
    pub given_to: [u8; FLAME_DECK],
    /// Power changes until end of turn and during this battle (support power among them), each
    /// saturating at ±32,767 (decision F-BAT-15), per main instance.
    pub power_turn: [i16; FLAME_BASE],
    pub power_battle: [i16; FLAME_BASE],
    /// `known[s]`: instances whose identity seat `s` knows (F-INFO-1).
    pub known: [u64; 2],
    /// Units that do not become ready in this player's next Preparation phase (decision
    /// F-PREP-6).
    pub stilled: Mask40,
    /// F-SETUP-2: the redraw decision has been taken.
    pub redraw_done: bool,
    /// The player has played a Reaction Event this turn (decision F-COST-8's `first`).
    pub reacted: bool,
    /// The name (its first card id, `FireForceGame::name_of`) this player can't dispatch or play
    /// from hand, [`NONE`] if none, and how many more ends of turn the ban survives (decision
    /// F-EFF-12).
    pub banned: u8,
    pub ban_ends: u8,
}

/// As `derive(Debug)` wrote it before the 5-byte masks (`stilled` as a `u64`), without the
/// masks derived from the Scene's cards (`acting`, `guards`: both seats know every card on the
/// Scene, F-INFO): the information-set keys (`GameDef::info_key`, a `Debug` of the state) and
/// the transcripts that record them stay as they were.
impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Every field named (no `..`): a field added to `Player` fails to compile here until
        // it is printed or, if derived from printed ones, left out on purpose.
        let Player {
            card,
            n_main,
            pile,
            deck_len,
            life_len,
            hand,
            scene,
            adolla,
            flame_deck,
            exhausted,
            fresh,
            once,
            blocker,
            as_flame,
            flamey,
            statics,
            given_to,
            power_turn,
            power_battle,
            known,
            stilled,
            redraw_done,
            reacted,
            banned,
            ban_ends,
            acting: _,
            guards: _,
        } = self;
        f.debug_struct("Player")
            .field("card", card)
            .field("n_main", n_main)
            .field("pile", pile)
            .field("deck_len", deck_len)
            .field("life_len", life_len)
            .field("hand", hand)
            .field("scene", scene)
            .field("adolla", adolla)
            .field("flame_deck", flame_deck)
            .field("exhausted", exhausted)
            .field("fresh", fresh)
            .field("once", once)
            .field("blocker", blocker)
            .field("as_flame", as_flame)
            .field("flamey", flamey)
            .field("statics", statics)
            .field("given_to", given_to)
            .field("power_turn", power_turn)
            .field("power_battle", power_battle)
            .field("known", known)
            .field("stilled", &stilled.get())
            .field("redraw_done", redraw_done)
            .field("reacted", reacted)
            .field("banned", banned)
            .field("ban_ends", ban_ends)
            .finish()
    }
}

impl Player {
    pub const EMPTY: Player = Player {
        card: [0; MAX_INST],
        n_main: 0,
        pile: [0; FLAME_BASE],
        deck_len: 0,
        life_len: 0,
        hand: 0,
        scene: 0,
        adolla: 0,
        flame_deck: 0,
        exhausted: 0,
        fresh: 0,
        blocker: [0; 2],
        once: 0,
        as_flame: 0,
        flamey: 0,
        statics: [0; 2],
        acting: Mask40::EMPTY,
        guards: Mask40::EMPTY,
        given_to: [NONE; FLAME_DECK],
        power_turn: [0; FLAME_BASE],
        power_battle: [0; FLAME_BASE],
        known: [0; 2],
        stilled: Mask40::EMPTY,
        redraw_done: false,
        reacted: false,
        banned: NONE,
        ban_ends: 0,
    };

    /// The deck, bottom first.
    #[inline]
    pub fn deck(&self) -> &[u8] {
        &self.pile[..self.deck_len as usize]
    }

    /// The Life area, top first.
    #[inline]
    pub fn life(&self) -> &[u8] {
        &self.pile[FLAME_BASE - self.life_len as usize..]
    }

    /// Takes the top card of the deck, if any.
    #[inline]
    pub fn pop_deck(&mut self) -> Option<u8> {
        if self.deck_len == 0 {
            return None;
        }
        self.deck_len -= 1;
        Some(self.pile[self.deck_len as usize])
    }

    /// The deck as a mask.
    pub fn deck_mask(&self) -> u64 {
        self.deck().iter().fold(0, |m, &i| m | 1 << i)
    }

    /// The Life area as a mask.
    pub fn life_mask(&self) -> u64 {
        self.life().iter().fold(0, |m, &i| m | 1 << i)
    }

    /// Units on the Scene (not Flame cards, not cards put as Flame cards).
    #[inline]
    pub fn units(&self) -> u64 {
        self.scene & !FLAME_MASK & !self.as_flame
    }

    /// Flame cards on the Scene and cards put there as Flame cards.
    #[inline]
    pub fn flame_cards(&self) -> u64 {
        self.scene & (FLAME_MASK | self.as_flame)
    }

    /// Whether Unit `u` has been given a Flame card.
    #[inline]
    pub fn is_given(&self, u: u8) -> bool {
        self.given_to.contains(&u)
    }
}

/// The step of the turn, or the decision that is awaited (F-SETUP, F-TURN, F-BAT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Step {
    /// F-SETUP-2: the seat keeps or redraws.
    #[default]
    Redraw,
    /// F-SETUP-5: the second player chooses its exhausted Flame card.
    SetupFlame,
    /// F-PREP-3: the turn player chooses the Flame card for the Scene.
    PrepFlame,
    /// F-MAIN-1.
    Main,
    /// F-BAT-2: the attacker chooses the target.
    Target,
    /// F-BAT-3: "when attacking" (automatic).
    Attacking,
    /// F-BAT-4: the attacked player may block.
    Block,
    /// F-BAT-5: the attacked player may react.
    Reaction,
    /// F-BAT-6: the attacked player may support.
    Support,
    /// F-BAT-7 and F-BAT-8 (automatic).
    Damage,
    /// F-BAT-8: the attacked player may activate the revealed Life card's trigger.
    LifeTrigger,
    /// F-BAT-9 (automatic): end-of-battle triggers.
    BattleEnd,
    /// F-BAT-9 (automatic): "during this battle" effects end.
    BattleOver,
    /// F-END-1 (automatic), then the next turn's preparation.
    End,
    Over,
}

/// The current battle (F-BAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    /// The attacking Unit (the turn player's), [`NONE`] once it left the Scene.
    pub attacker: u8,
    /// The attacked Unit (the other player's), or [`NONE`] when the player is attacked.
    pub target: u8,
    /// The attack is on the player.
    pub on_player: bool,
    /// F-BAT-10: support cards are chosen in increasing card id; the last one chosen.
    pub support_last: CardId,
    /// The Life card revealed at F-BAT-8, [`NONE`] if none.
    pub revealed: u8,
    /// The Unit attacked at F-BAT-7 (what `attacked` names once the damage step is over,
    /// decision F-BAT-19), [`NONE`] if none.
    pub hit: u8,
    /// `guard_life` (decision F-BAT-18): the attacked player's Life is not revealed.
    pub guard: bool,
}

impl Battle {
    pub const NONE: Battle = Battle {
        attacker: NONE,
        target: NONE,
        on_player: false,
        support_last: 0,
        revealed: NONE,
        hit: NONE,
        guard: false,
    };
}

/// An ability being resolved: whose it is, the card it comes from and which step of its program
/// is next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The controller (0 = P1, 1 = P2).
    pub who: u8,
    /// The source instance (of `who`).
    pub src: u8,
    /// The ability's index in the card's abilities, or [`LIFE_TRIGGER`].
    pub ability: u8,
    /// The program counter: the next step of the ability's program.
    pub pc: u8,
    /// Flame cards the `flame N` effect being resolved has put so far.
    pub done: u8,
    /// The `that` card ([`that_code`]): the card of the triggering event, or the card chosen
    /// last (decision F-EFF-8); [`NONE`] if none.
    pub that: u8,
}

impl Frame {
    /// Ability `ability` of `who`'s card `src`, from its first step.
    #[inline]
    pub fn new(who: Seat, src: u8, ability: u8) -> Frame {
        Frame {
            who: who.index() as u8,
            src,
            ability,
            pc: 0,
            done: 0,
            that: NONE,
        }
    }
}

/// A power change that outlasts the turn (decision F-DUR-2): the Unit ([`that_code`]), the
/// change, and how many more ends of turn it survives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lasting {
    pub unit: u8,
    pub ends: u8,
    pub n: i16,
}

/// A card as [`Frame::that`] and [`super::Action::Pick`] name it: P2's instances from 64.
#[inline]
pub fn that_code(q: Seat, i: u8) -> u8 {
    q.index() as u8 * 64 + i
}

/// The seat and instance of a [`that_code`].
#[inline]
pub fn that_card(code: u8) -> Option<(Seat, u8)> {
    (code != NONE).then(|| (Seat::ALL[usize::from(code >= 64)], code % 64))
}

/// The state fits in 1 KiB (issue 13's bound; `tcgsim bench` prints the size).
const _: () = assert!(std::mem::size_of::<State>() <= 1024);

/// The three 5-byte masks of a [`Player`] (`acting`, `guards`, `stilled`) fill what was its
/// padding: a player is 392 bytes, as when `stilled` was a `u64` and the other two did not exist
/// (and the state 1,016 bytes: a determinization copies no more).
const _: () = assert!(std::mem::size_of::<Player>() == 392);

/// [`Frame::ability`] of a Life trigger (F-BAT-8).
pub const LIFE_TRIGGER: u8 = 0xFE;

/// A choice an effect is waiting for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pick {
    #[default]
    None,
    /// One Unit among `mask[0]` (P1's instances) and `mask[1]` (P2's), for the current frame's
    /// effect; `optional` offers "none".
    Unit { mask: [u64; 2], optional: bool },
    /// A Flame card of the chooser's Flame deck: given to Unit `to` (or onto the Scene when `to`
    /// is [`NONE`], one card of the `flame N` effect).
    Flame { to: u8 },
    /// F-COST-4: a card with Flame of the chooser goes into THE ADOLLA.
    Limit,
    /// F-KW-ADOLLA-LINK: an [ADOLLA BURST] card of THE ADOLLA, or none.
    Link,
    /// A card of `q`'s hand, deck or THE ADOLLA among `mask`, chosen by card id (the same
    /// choice in every determinization; decision F-EFF-10), for the current frame's effect;
    /// `optional` offers "none".
    Cards { q: u8, mask: u64, optional: bool },
    /// `name_card`: a card name, one of `FireForceGame::names` (decision F-EFF-12).
    Name,
    /// `choose (A) or (B) …`: one of `n` options (decision F-EFF-4).
    Mode { n: u8 },
    /// `may (A) then (B)`: yes (go on) or no (jump to `skip`) (decision F-EFF-4).
    May { skip: u8 },
    /// Decision F-COST-3: which ready cards with Flame pay `n` for action `then` (dispatching,
    /// playing or activating), which goes on once they are exhausted. `classes`: the ready cards
    /// with Flame's classes of interchangeable cards, as masks over their positions by instance
    /// (at least two; 0 after the last).
    Pay {
        n: u8,
        then: super::Action,
        classes: [u8; 8],
    },
}

/// The whole position.
#[derive(Clone, Copy, Debug, PartialEq, Hash)]
pub struct State {
    pub p: [Player; 2],
    pub turn: u16,
    /// Whose turn it is (the first player before turn 1 begins).
    pub active: Seat,
    pub first: Seat,
    pub step: Step,
    /// Who decides a pick ([`State::pick`]) or the redraw.
    pub chooser: Seat,
    pub pick: Pick,
    pub battle: Battle,
    /// Abilities being resolved, the first one now. At most 6 are queued at once: the
    /// end-of-battle abilities of two Units (3 abilities a card, `cards::MAX_ABILITIES`); a
    /// dispatch queues at most 3 and Adolla Link. When Removed abilities wait in `removed` (any
    /// number of them).
    pub frames: FixedVec<Frame, 8>,
    /// `x`: the cards the last counting step acted on, per seat (decision F-EFF-9); 0 once the
    /// ability is done.
    pub x: [u8; 2],
    /// Instances whose When Removed ability waits (F-KW-TRIGGERS), per player.
    pub removed: [u64; 2],
    /// F-MAIN-3: actions each player has taken this turn (main-phase actions, reactions).
    pub acts: [u8; 2],
    /// Decision F-MAIN-3: hashes of the last [`LOOP_SEEN`] main-phase or reaction decisions of
    /// this turn taken after [`LOOP_CHECK`] actions (0: none), and the slot written last, from 1
    /// (0: none this turn).
    pub seen: [u64; LOOP_SEEN],
    pub seen_at: u8,
    /// F-END-1: the turn player's Units whose end-of-turn ability has yet to resolve.
    pub ends: u64,
    pub winner: Option<Outcome>,
    /// Why the game ended: 1 damage with no Life (F-WIN-1), 2 deck out (F-WIN-2).
    pub win_reason: u8,
    /// Derived: a card with Flame may have arrived on a Scene since the Flame limit (F-COST-2)
    /// was last found kept; only an arrival can break it (`enter_scene`, the Link pick).
    pub flame_check: bool,
    /// Delayed end-of-battle abilities set up during this battle (`later end battle: …`,
    /// decision F-BAT-17): frames whose program counter is the delayed body's first step.
    pub later: FixedVec<Frame, 2>,
    /// Power changes that outlast this turn (decision F-DUR-2), kept in `power_turn` anew at
    /// each end of turn they survive.
    pub lasting: FixedVec<Lasting, 4>,
    /// Replacements of a removal waiting to go in front of the ability being resolved (decision
    /// F-EFF-13), and the `x` of that ability, kept while they resolve.
    pub replacing: FixedVec<Frame, 2>,
    pub x_kept: [u8; 2],
    /// The name the ability being resolved named last (its first card id), [`NONE`] if none
    /// (decision F-EFF-12).
    pub named: u8,
    /// The seed of shuffles during play (F-SETUP-2's redraw); determinization draws it anew
    /// (`core::hidden`: a search must not know future shuffles).
    pub seed: u64,
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
