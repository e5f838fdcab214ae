//! Tensors for learning agents (`docs/observation.md`, "TMNT TCG"): what a seat sees of a TMNT
//! position as a vector, and the stable ids of its actions. The layout, then `observe` writing
//! the same slots in the same order, then the action kinds and codes.
//!
//! What a seat sees (M-INFO-1, M-INFO-2, M-INFO-5, M-TURN-3): its own hand and its own Block
//! cards, face up or down (M-SETUP-4); both players' face-up Block cards, Attack Zones, Item Zones
//! and Trashes; the number of cards in each hand and deck and which Block Zones hold a face-down
//! card; and the opponent's cards it was shown (a hand it looked at, a face-down Block card it
//! peeked at). A card's identity is written only where the seat knows its instance
//! (`Player::known`, the very knowledge determinization keeps, M-INFO-3), so the vector cannot
//! depend on a card the seat cannot see. Everything is "mine" and "the opponent's" from the
//! observing seat.
//!
//! Writing is allocation-free: bit walks over the zone masks and array writes.

use super::cards::{Card, CardDb, CardId, CardType, Kind, ATTRIBUTES};
use super::deck::{DECK_SIZE, MAX_TITLE};
use super::state::{fx, Bits, Pick, Player, Stage, State, Step, ATTACK_ZONE, NONE, ZONES};
use super::{Action, TmntGame};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::Seat;

/// M-DECK-1: at most 3 cards of one title in a deck, so at most 3 of one card id in a zone.
const COPIES: f32 = MAX_TITLE as f32;
/// M-DECK-1: a deck has 40 cards, so no zone holds more.
const CARDS: f32 = DECK_SIZE as f32;
/// M-DECK-5: the largest printed power; a power changed by effects is capped here (and a
/// negative one counts as 0, M-DECK-5).
const MAX_POWER: f32 = 99.0;
/// The turn number's cap: M-WIN-4 ends a game without effects that return cards to a deck by
/// turn 62.
const MAX_TURN: f32 = 100.0;
/// `bonus` (a player's side of the Forward step) is capped to `-MAX_BONUS..=MAX_BONUS`.
const MAX_BONUS: f32 = 99.0;
/// The attack's total and counter power (M-ATK-8) are capped to this range.
const ATTACK_LOW: f32 = -100.0;
const ATTACK_HIGH: f32 = 500.0;

/// The classes of a card (its type and kind, M-DECK-4), in one-hot order.
pub const CLASSES: [&str; 9] = [
    "character",
    "attack normal",
    "attack forceful",
    "attack counter",
    "attack forceful_counter",
    "item",
    "event play",
    "event flip",
    "event play_flip",
];
/// Features of one Block Zone in `my_blocks` / `opp_blocks`: present, face up, kept, the class
/// one-hot, the attribute one-hot.
const BLOCK_FEATS: usize = 3 + CLASSES.len() + ATTRIBUTES.len();
/// Features of one Attack Zone place: the attack kind one-hot (normal, forceful, counter,
/// forceful counter), the attribute one-hot.
const ATTACK_FEATS: usize = 4 + ATTRIBUTES.len();
/// The phases of a turn (M-TURN-1, M-ATK-1's steps) in `phase`.
pub const PHASES: [&str; 9] = [
    "adjust", "set", "event", "item", "flip", "attack", "counter", "forward", "result",
];
/// The decisions (`Step`, in its order) in `decision`.
pub const STEPS: [Step; 17] = [
    Step::Discard,
    Step::Set,
    Step::Event,
    Step::Item,
    Step::Pay,
    Step::Attack,
    Step::Counter,
    Step::Keep,
    Step::Order,
    Step::Choose,
    Step::Salvage,
    Step::Mode,
    Step::May,
    Step::Take,
    Step::Arrange,
    Step::Activate,
    Step::Over,
];
/// The classes `ban` forbids (`effects::class_of`'s bits, M-BAN-1).
const BANS: [&str; 6] = [
    "attack normal",
    "attack forceful",
    "attack counter",
    "attack forceful_counter",
    "event",
    "item",
];
/// Targets of one player in action features and `choose` arguments: Block Zones 1–4, the
/// Attack Zone's 3 places, and up to 40 Items (in card-id order).
const SIDE_TARGETS: u32 = (ZONES + ATTACK_ZONE + DECK_SIZE) as u32;
/// `choose` (M-EFFECTS-10) has at most 4 options (the card language's limit).
const MODES: u32 = 4;

/// The class of card `c` (an index into [`CLASSES`]).
fn class(c: &Card) -> usize {
    match (c.ctype, c.kind) {
        (CardType::Character, _) => 0,
        (CardType::Attack, Kind::Forceful) => 2,
        (CardType::Attack, Kind::Counter) => 3,
        (CardType::Attack, Kind::ForcefulCounter) => 4,
        (CardType::Attack, _) => 1,
        (CardType::Item, _) => 5,
        (CardType::Event, Kind::Flip) => 7,
        (CardType::Event, Kind::PlayFlip) => 8,
        (CardType::Event, _) => 6,
    }
}

/// The phase of a stage (an index into [`PHASES`]).
fn phase(st: Stage) -> usize {
    match st {
        Stage::TurnBegin | Stage::AdjustBegin | Stage::Adjust | Stage::AdjustDraw => 0,
        Stage::Shift | Stage::Set => 1,
        Stage::Event => 2,
        Stage::Item | Stage::Pay => 3,
        Stage::Flip | Stage::FlipDone | Stage::AttackBegin => 4,
        Stage::AttackStepBegin | Stage::AttackStep => 5,
        Stage::CounterBegin | Stage::Counter => 6,
        Stage::ForwardBegin
        | Stage::Window
        | Stage::Forward
        | Stage::FlipTexts
        | Stage::CounterTrash => 7,
        Stage::Result
        | Stage::ResultWindow
        | Stage::KeepActive
        | Stage::KeepOther
        | Stage::Replace
        | Stage::Cleanup
        | Stage::CleanupDone
        | Stage::EndTurn => 8,
    }
}

/// The slots of TMNT observations of matches of `cards` (`docs/observation.md`).
pub fn layout(cards: &CardDb) -> ObsLayout {
    let n = cards.cards.len();
    let mut l = ObsLayout::new();
    let block_doc = |who: &str| {
        format!(
            "{who} Block Zones 1–4 (M-SETUP-5), {BLOCK_FEATS} flags each: a card is there, it is \
             face up, it is the kept Character (M-ATK-13), its class one-hot ({}), its attribute \
             one-hot ({}); class and attribute only where I know the card",
            CLASSES.join(", "),
            ATTRIBUTES.join(", ")
        )
    };
    let attack_doc = |who: &str| {
        format!(
            "{who} Attack Zone's 3 places in the order placed (M-ATK-3, M-ATK-7), {ATTACK_FEATS} \
             flags each: the attack kind one-hot (normal, forceful, counter, forceful_counter), \
             the attribute one-hot ({}); all 0 for an empty place",
            ATTRIBUTES.join(", ")
        )
    };
    l.slot(
        "hand",
        n,
        0.0,
        COPIES,
        "copies of each card id in my hand",
    )
    .slot(
        "my_field",
        n,
        0.0,
        COPIES,
        "copies of each card id on my Block Zones (face up or down: I know them, M-SETUP-4) and \
         in my Attack Zone",
    )
    .slot(
        "opp_field",
        n,
        0.0,
        COPIES,
        "copies of each card id on the opponent's Block Zones and in its Attack Zone that I know: \
         the face-up ones (M-INFO-1) and face-down ones I peeked at (M-INFO-5)",
    )
    .slot(
        "my_items",
        n,
        0.0,
        COPIES,
        "copies of each card id in my Item Zone (M-ITM-1)",
    )
    .slot(
        "opp_items",
        n,
        0.0,
        COPIES,
        "copies of each card id in the opponent's Item Zone",
    )
    .slot(
        "my_trash",
        n,
        0.0,
        COPIES,
        "copies of each card id in my Trash (public, M-TURN-3)",
    )
    .slot(
        "opp_trash",
        n,
        0.0,
        COPIES,
        "copies of each card id in the opponent's Trash",
    )
    .slot(
        "opp_hand_known",
        n,
        0.0,
        COPIES,
        "copies of each card id in the opponent's hand that I know (shown to me, M-INFO-2, \
         M-INFO-5)",
    )
    .slot("my_blocks", ZONES * BLOCK_FEATS, 0.0, 1.0, block_doc("my"))
    .slot(
        "my_block_power",
        ZONES,
        0.0,
        MAX_POWER,
        "the power of the card on each of my Block Zones: now (effects and Items counted, \
         M-ITM-3) when face up, printed when face down; 0 for none; capped at 99",
    )
    .slot("my_attack", ATTACK_ZONE * ATTACK_FEATS, 0.0, 1.0, attack_doc("my"))
    .slot(
        "my_attack_power",
        ATTACK_ZONE,
        0.0,
        MAX_POWER,
        "the power now of each card in my Attack Zone; capped at 99",
    )
    .slot(
        "opp_blocks",
        ZONES * BLOCK_FEATS,
        0.0,
        1.0,
        block_doc("the opponent's"),
    )
    .slot(
        "opp_block_power",
        ZONES,
        0.0,
        MAX_POWER,
        "the power of the card on each of the opponent's Block Zones: now when face up, printed \
         when face down and known to me, else 0; capped at 99",
    )
    .slot(
        "opp_attack",
        ATTACK_ZONE * ATTACK_FEATS,
        0.0,
        1.0,
        attack_doc("the opponent's"),
    )
    .slot(
        "opp_attack_power",
        ATTACK_ZONE,
        0.0,
        MAX_POWER,
        "the power now of each card in the opponent's Attack Zone; capped at 99",
    )
    .slot("my_deck", 1, 0.0, CARDS, "cards in my deck (M-INFO-1)")
    .slot("opp_deck", 1, 0.0, CARDS, "cards in the opponent's deck")
    .slot("opp_hand", 1, 0.0, CARDS, "cards in the opponent's hand")
    .slot(
        "bonus",
        2,
        -MAX_BONUS,
        MAX_BONUS,
        "my `bonus`, then the opponent's: each side's addition to this Forward step (M-ATK-8); \
         capped to ±99",
    )
    .slot(
        "attack_power",
        2,
        ATTACK_LOW,
        ATTACK_HIGH,
        "the turn player's total power, then the other player's counter power, as M-ATK-8 \
         counts them now (the Block Zone 1 card only when face up; M-ATK-2); capped to \
         −100..500",
    )
    .slot(
        "reduce",
        1,
        0.0,
        MAX_POWER,
        "this turn's reduction of the Forward step's damage (M-DMG-1); capped at 99",
    )
    .slot(
        "trashed",
        2,
        0.0,
        1.0,
        "1 when cards of my deck, then of the opponent's, went to the Trash in this Forward \
         step: that player keeps none (M-ATK-14)",
    )
    .slot(
        "bans",
        2 * BANS.len(),
        0.0,
        1.0,
        format!(
            "the classes I, then the opponent, can't place this turn (M-BAN-1): {}",
            BANS.join(", ")
        ),
    )
    .slot(
        "free_item",
        2,
        0.0,
        1.0,
        "1 when I, then the opponent, may still place this turn's Item without a discard \
         (M-ITM-4)",
    )
    .slot(
        "attrs_used",
        ATTRIBUTES.len(),
        0.0,
        1.0,
        format!(
            "the attributes used in this (or the last) Attack step: the Character's and the \
             placed cards' (M-ATK-3): {}",
            ATTRIBUTES.join(", ")
        ),
    )
    .slot(
        "paying",
        ATTRIBUTES.len(),
        0.0,
        1.0,
        "the attribute one-hot of the Item being placed, while its discard is chosen (M-ITM-1, \
         M-ITM-2), where I know the card",
    )
    .slot("turn", 1, 0.0, MAX_TURN, "the turn, from 1, capped at 100 (M-WIN-4)")
    .slot("my_turn", 1, 0.0, 1.0, "1 when it is my turn (M-TURN-1)")
    .slot("i_first", 1, 0.0, 1.0, "1 when I went first (M-SETUP-1)")
    .slot(
        "phase",
        PHASES.len(),
        0.0,
        1.0,
        format!(
            "the phase or Attack-phase step one-hot (M-TURN-1, M-ATK-1): {}",
            PHASES.join(", ")
        ),
    )
    .slot(
        "decision",
        STEPS.len(),
        0.0,
        1.0,
        format!(
            "the decision awaited one-hot: {}",
            STEPS.map(Step::name).join(", ")
        ),
    )
    .slot(
        "i_decide",
        1,
        0.0,
        1.0,
        "1 when I am the one to decide now (M-TURN-2)",
    )
    .slot(
        "pick_count",
        1,
        0.0,
        CARDS,
        "for the decision awaited: discards left (M-ADJ-4), options of a `choose`, cards left to \
         take or to put on top (M-EFFECTS-10); else 0",
    )
    .slot(
        "pick_optional",
        1,
        0.0,
        1.0,
        "1 when the card choice awaited may be declined (`pass`: an `up_to` choice)",
    );
    l
}

/// The card ids of `p`'s instances in `mask` that `me` knows, once per copy.
#[inline]
fn known(p: &Player, mask: u64, me: Seat) -> impl Iterator<Item = usize> + '_ {
    Bits(mask & p.known[me.index()]).map(move |i| usize::from(p.card[i as usize]))
}

/// A power, capped to the slot's bounds (M-DECK-5: negative counts as 0).
#[inline]
fn power(v: i32) -> f32 {
    (v as f32).clamp(0.0, MAX_POWER)
}

/// The Block Zones of `q` as `me` sees them: the flags, then the powers.
fn blocks(g: &TmntGame, s: &State, q: Seat, me: Seat, flags: &mut [f32], pow: &mut [f32]) {
    let p = s.pl(q);
    for z in 0..ZONES {
        let i = p.block[z];
        if i == NONE {
            continue;
        }
        let f = &mut flags[z * BLOCK_FEATS..(z + 1) * BLOCK_FEATS];
        let up = p.up & (1 << i) != 0;
        f[0] = 1.0;
        f[1] = f32::from(u8::from(up));
        f[2] = f32::from(u8::from(p.kept == z as u8));
        if p.known[me.index()] & (1 << i) == 0 {
            continue;
        }
        let c = g.card_of(s, q, i);
        f[3 + class(c)] = 1.0;
        // An Event (and the ablation filler) has no attribute (M-DECK-2): no flag.
        if usize::from(c.attr) < ATTRIBUTES.len() {
            f[3 + CLASSES.len() + usize::from(c.attr)] = 1.0;
        }
        pow[z] = if up {
            power(g.power(s, q, i))
        } else {
            power(i32::from(c.power))
        };
    }
}

/// The Attack Zone of `q` (public, M-INFO-1): the flags, then the powers.
fn attack(g: &TmntGame, s: &State, q: Seat, flags: &mut [f32], pow: &mut [f32]) {
    for (k, &i) in s.pl(q).attack_zone().iter().enumerate() {
        let c = g.card_of(s, q, i);
        let f = &mut flags[k * ATTACK_FEATS..(k + 1) * ATTACK_FEATS];
        // Classes 1..=4 are the attack kinds; an Attack Zone holds attack cards only.
        if let 1..=4 = class(c) {
            f[class(c) - 1] = 1.0;
        }
        if usize::from(c.attr) < ATTRIBUTES.len() {
            f[4 + usize::from(c.attr)] = 1.0;
        }
        pow[k] = power(g.power(s, q, i));
    }
}

/// M-ATK-8 as the seat sees it: the turn player's total power (its Block Zone 1 card counted
/// only when face up, M-ATK-2) and the other player's counter power.
fn attack_powers(g: &TmntGame, s: &State) -> (i32, i32) {
    let a = s.active;
    let pa = s.pl(a);
    let b1 = pa.block[0];
    let mut total = i32::from(pa.bonus);
    if b1 != NONE && pa.up & (1 << b1) != 0 {
        total += g.attacking_power(s, a);
    }
    for &i in pa.attack_zone() {
        total += g.power(s, a, i);
    }
    let pd = s.pl(a.other());
    let mut counter = i32::from(pd.bonus);
    for &i in pd.attack_zone() {
        counter += g.power(s, a.other(), i);
    }
    (total, counter)
}

/// Writes what `me` may see of `s` (every slot of [`layout`], in order).
pub fn observe(g: &TmntGame, s: &State, me: Seat, o: &mut ObsOut) {
    let (mine, opp) = (s.pl(me), s.pl(me.other()));
    let field = |p: &Player| p.blocks_mask() | p.field_up();
    o.count("hand", known(mine, mine.hand, me));
    o.count("my_field", known(mine, field(mine), me));
    o.count("opp_field", known(opp, field(opp), me));
    o.count("my_items", known(mine, mine.items, me));
    o.count("opp_items", known(opp, opp.items, me));
    o.count("my_trash", known(mine, mine.trash, me));
    o.count("opp_trash", known(opp, opp.trash, me));
    o.count("opp_hand_known", known(opp, opp.hand, me));
    for q in [me, me.other()] {
        let (b, bp, a, ap) = if q == me {
            (
                "my_blocks",
                "my_block_power",
                "my_attack",
                "my_attack_power",
            )
        } else {
            (
                "opp_blocks",
                "opp_block_power",
                "opp_attack",
                "opp_attack_power",
            )
        };
        let mut pow = [0f32; ZONES];
        blocks(g, s, q, me, o.slot(b), &mut pow);
        o.slot(bp).copy_from_slice(&pow);
        let mut pow = [0f32; ATTACK_ZONE];
        attack(g, s, q, o.slot(a), &mut pow);
        o.slot(ap).copy_from_slice(&pow);
    }
    o.scalar("my_deck", f32::from(mine.deck_len));
    o.scalar("opp_deck", f32::from(opp.deck_len));
    o.scalar("opp_hand", opp.hand_len() as f32);
    let v = o.slot("bonus");
    v[0] = f32::from(mine.bonus).clamp(-MAX_BONUS, MAX_BONUS);
    v[1] = f32::from(opp.bonus).clamp(-MAX_BONUS, MAX_BONUS);
    let (total, counter) = attack_powers(g, s);
    let v = o.slot("attack_power");
    v[0] = (total as f32).clamp(ATTACK_LOW, ATTACK_HIGH);
    v[1] = (counter as f32).clamp(ATTACK_LOW, ATTACK_HIGH);
    o.scalar("reduce", f32::from(s.reduce).min(MAX_POWER));
    let v = o.slot("trashed");
    v[0] = f32::from(u8::from(mine.trashed));
    v[1] = f32::from(u8::from(opp.trashed));
    let v = o.slot("bans");
    for (k, p) in [mine, opp].into_iter().enumerate() {
        for b in 0..BANS.len() {
            v[k * BANS.len() + b] = f32::from(p.fx.ban >> b & 1);
        }
    }
    let v = o.slot("free_item");
    for (k, p) in [mine, opp].into_iter().enumerate() {
        let free = p.fx.rules & fx::FREE_ITEM != 0 && p.fx.rules & fx::FREE_USED == 0;
        v[k] = f32::from(u8::from(free));
    }
    let v = o.slot("attrs_used");
    for (a, x) in v.iter_mut().enumerate() {
        *x = f32::from(s.attrs_used >> a & 1);
    }
    let v = o.slot("paying");
    if s.step == Step::Pay && s.item != NONE {
        let p = s.pl(s.chooser);
        if p.known[me.index()] & (1 << s.item) != 0 {
            let attr = usize::from(g.card_of(s, s.chooser, s.item).attr);
            if attr < v.len() {
                v[attr] = 1.0;
            }
        }
    }
    o.scalar("turn", f32::from(s.turn).min(MAX_TURN));
    o.scalar("my_turn", f32::from(u8::from(s.active == me)));
    o.scalar("i_first", f32::from(u8::from(s.first == me)));
    o.slot("phase")[phase(s.stage)] = 1.0;
    o.slot("decision")[s.step as usize] = 1.0;
    let decides = s.step != Step::Over && s.chooser == me;
    o.scalar("i_decide", f32::from(u8::from(decides)));
    let (n, opt) = match (s.step, s.pick) {
        (Step::Discard, _) => (s.discards, false),
        (Step::Mode, Pick::Mode { n }) => (n, false),
        (Step::Take, Pick::Take { left, opt, .. }) => (left, opt),
        (Step::Arrange, Pick::Arrange { n, placed }) => (n.saturating_sub(placed), false),
        (Step::Choose, Pick::Choose { opt, .. }) => (0, opt),
        _ => (0, false),
    };
    o.scalar("pick_count", f32::from(n).min(CARDS));
    o.scalar("pick_optional", f32::from(u8::from(opt)));
}

/// The kinds of TMNT actions: one per variant of [`Action`], in its order; a card id's
/// kinds have one id per card of the file.
pub fn kinds(cards: &CardDb) -> Vec<ActionKind> {
    let n = cards.cards.len() as u32;
    let k = |name, args, doc| ActionKind { name, args, doc };
    vec![
        k(
            "pass",
            1,
            "no Event, no Item, no (more) attack cards, no counter, keep nothing, no, stop, \
             no `anytime` text (the decision one-hot says which)",
        ),
        k(
            "discard",
            n,
            "discard a card of this card id from hand (M-ADJ-4, `discard`)",
        ),
        k(
            "set",
            n,
            "set a card of this card id face down on the lowest empty Block Zone (M-SET-3)",
        ),
        k("event", n, "place the Event of this card id (M-EVT-1)"),
        k(
            "item",
            n,
            "place the Item of this card id (M-ITM-1, M-ITM-2)",
        ),
        k(
            "pay",
            n,
            "discard a card of this card id for the Item (M-ITM-2)",
        ),
        k(
            "attack",
            n,
            "place the attack card of this card id (M-ATK-3)",
        ),
        k("counter", n, "place the counter of this card id (M-ATK-7)"),
        k(
            "keep",
            ZONES as u32,
            "keep the Character on this Block Zone, 0 for Block Zone 1 (M-ATK-13, M-ATK-15)",
        ),
        k(
            "order",
            n,
            "resolve next the pending text of this card id (M-EFFECTS-2)",
        ),
        k(
            "choose",
            2 * SIDE_TARGETS,
            "the card in play of a `target … card` (M-EFFECTS-4), a target number: 0–3 my \
             Block Zones 1–4, 4–6 my Attack Zone's places, 7–46 my Items in card-id order, \
             47–93 the same of the opponent's",
        ),
        k(
            "salvage",
            n,
            "take a card of this card id from my Trash (`salvage`)",
        ),
        k(
            "mode",
            MODES,
            "the option of a `choose`, 0 first (M-EFFECTS-10)",
        ),
        k("yes", 1, "yes to a `may` (M-EFFECTS-10)"),
        k(
            "take",
            n,
            "a card of this card id for `move`, `search`, `dig` (M-EFFECTS-4)",
        ),
        k(
            "top",
            n,
            "put a card of this card id next on top (`arrange`)",
        ),
        k(
            "activate",
            n,
            "activate the `anytime` text of my Item of this card id (M-ACT-1)",
        ),
    ]
}

/// The target number of `q`'s instance `i` in play for the mover `me`: 0–3 a Block Zone, 4–6 an
/// Attack Zone place, 7–46 an Item (its rank in card-id order, then instance order), plus 47 for
/// the opponent's. `None` when the card is not in play.
fn target(s: &State, me: Seat, q: Seat, i: u8) -> Option<u32> {
    let p = s.pl(q);
    let side = if q == me { 0 } else { SIDE_TARGETS };
    let slot = if let Some(z) = p.block.iter().position(|&b| b == i) {
        z
    } else if let Some(k) = p.attack_zone().iter().position(|&b| b == i) {
        ZONES + k
    } else if p.items & (1 << i) != 0 {
        let key = |j: u8| (p.card[j as usize], j);
        let rank = Bits(p.items).filter(|&j| key(j) < key(i)).count();
        ZONES + ATTACK_ZONE + rank
    } else {
        return None;
    };
    Some(side + slot as u32)
}

/// What `a`, legal in `s`, is for a learning agent: its kind (the order of [`kinds`]) and
/// argument, the card id it involves and the target it acts on (numbered as `choose`'s
/// argument). Depends only on what the mover sees.
pub fn code(s: &State, a: Action) -> ActionCode {
    let me = s.chooser;
    let card = |kind: u16, id: CardId| ActionCode {
        kind,
        arg: u32::from(id),
        card: Some(u32::from(id)),
        target: None,
    };
    let plain = |kind: u16, arg: u32| ActionCode {
        kind,
        arg,
        card: None,
        target: None,
    };
    match a {
        Action::Pass => plain(0, 0),
        Action::Discard(id) => card(1, id),
        // M-SET-3: onto the lowest empty Block Zone.
        Action::Set(id) => ActionCode {
            target: s
                .pl(me)
                .block
                .iter()
                .position(|&b| b == NONE)
                .map(|z| z as u32),
            ..card(2, id)
        },
        Action::Event(id) => card(3, id),
        Action::Item(id) => card(4, id),
        Action::Pay(id) => card(5, id),
        // M-ATK-3, M-ATK-7: into the next place of the mover's Attack Zone.
        Action::Attack(id) => ActionCode {
            target: Some((ZONES + usize::from(s.pl(me).attack_len)).min(ZONES + 2) as u32),
            ..card(6, id)
        },
        Action::Counter(id) => ActionCode {
            target: Some((ZONES + usize::from(s.pl(me).attack_len)).min(ZONES + 2) as u32),
            ..card(7, id)
        },
        // M-ATK-13: a face-up Character, public.
        Action::Keep(z) => {
            let p = s.pl(me);
            let i = p.block[usize::from(z) % ZONES];
            ActionCode {
                kind: 8,
                arg: u32::from(z),
                card: (i != NONE).then(|| u32::from(p.card[i as usize])),
                target: Some(u32::from(z)),
            }
        }
        Action::Order(id) => card(9, id),
        Action::Choose(x) => {
            let q = Seat::from_index(usize::from(x >> 6 & 1));
            let i = x & 63;
            let p = s.pl(q);
            let t = target(s, me, q, i).unwrap_or(2 * SIDE_TARGETS - 1);
            ActionCode {
                kind: 10,
                arg: t,
                card: (p.known[me.index()] & (1 << i) != 0).then(|| u32::from(p.card[i as usize])),
                target: Some(t),
            }
        }
        Action::Salvage(id) => card(11, id),
        Action::Mode(k) => plain(12, u32::from(k).min(MODES - 1)),
        Action::Yes => plain(13, 0),
        Action::Take(id) => card(14, id),
        Action::Top(id) => card(15, id),
        Action::Activate(id) => card(16, id),
    }
}

#[cfg(test)]
mod tests {
    //! Hand-built positions (stacked decks of the scenario test pool `tests/data/tmnt_cards.csv`,
    //! as `docs/scenario.md` stacks them: top first, 5 to the hand, 4 to the Block Zones), their
    //! slots and action codes worked out by hand from the rules.
    use super::*;
    use crate::core::tensor::ActionSpace;
    use crate::core::{ActionList, Game, GameDef};

    /// The test pool's ids (the row, 0 first) of the cards used below.
    const GALE_RUNNER: u8 = 1; // character, 2, wind
    const MOSS_WARDEN: u8 = 2; // character, 3, forest
    const EMBER_BRUTE: u8 = 3; // character, 4, fire
    const GRANITE_MONK: u8 = 4; // character, 5, mountain
    const WIND_JAB: u8 = 11; // attack normal, 1, wind
    const VINE_LASH: u8 = 12; // attack normal, 2, forest
    const FLARE_KICK: u8 = 13; // attack normal, 3, fire
    const ROCK_SLAM: u8 = 14; // attack normal, 4, mountain
    const PARRY: u8 = 18; // attack counter, 3, forest
    const RIPOSTE: u8 = 19; // attack counter, 2, wind
    const IRON_WALL: u8 = 20; // attack forceful_counter, 8, mountain
    const HEX_COUNTER: u8 = 22; // attack counter, 0, fire; play: power -5 target enemy card
    const QUICK_STUDY: u8 = 31; // event play; play: draw 2

    /// P1 (first): hand Rock Slam, Wind Jab, Gale Runner, Ember Brute, Granite Monk; Block Zones
    /// Moss Warden, Gale Runner, Ember Brute, Granite Monk; 11 in the deck. P2: hand Hex Counter,
    /// Parry, Iron Wall, Riposte, Quick Study; Block Zones Gale Runner, Moss Warden, Ember Brute,
    /// Granite Monk; 11 in the deck. At most 3 of a card id per player (M-DECK-1).
    fn game() -> TmntGame {
        let text = include_str!("../../../tests/data/tmnt_cards.csv");
        let db = CardDb::parse(text, "tests/data/tmnt_cards.csv").unwrap();
        assert_eq!(db.cards.len(), 41);
        let p1 = [
            ROCK_SLAM,
            WIND_JAB,
            GALE_RUNNER,
            EMBER_BRUTE,
            GRANITE_MONK,
            MOSS_WARDEN,
            GALE_RUNNER,
            EMBER_BRUTE,
            GRANITE_MONK,
            GALE_RUNNER,
            EMBER_BRUTE,
            GRANITE_MONK,
            MOSS_WARDEN,
            MOSS_WARDEN,
            VINE_LASH,
            VINE_LASH,
            VINE_LASH,
            FLARE_KICK,
            FLARE_KICK,
            FLARE_KICK,
        ];
        let p2 = [
            HEX_COUNTER,
            PARRY,
            IRON_WALL,
            RIPOSTE,
            QUICK_STUDY,
            GALE_RUNNER,
            MOSS_WARDEN,
            EMBER_BRUTE,
            GRANITE_MONK,
            GALE_RUNNER,
            MOSS_WARDEN,
            EMBER_BRUTE,
            GRANITE_MONK,
            GALE_RUNNER,
            MOSS_WARDEN,
            EMBER_BRUTE,
            GRANITE_MONK,
            WIND_JAB,
            WIND_JAB,
            WIND_JAB,
        ];
        TmntGame {
            db,
            decks: [p1.to_vec(), p2.to_vec()],
        }
    }

    fn obs(g: &TmntGame, s: &State, me: Seat) -> (ObsLayout, Vec<f32>) {
        let l = TmntGame::obs_layout(&g.db);
        let mut v = vec![0f32; l.len()];
        let mut o = ObsOut::new(&l, &mut v);
        g.observe(s, me, &mut o);
        assert!(o.done());
        assert_eq!(l.out_of_bounds(&v), None);
        (l, v)
    }

    /// The slot `name` of `v`.
    fn at<'a>(l: &ObsLayout, v: &'a [f32], name: &str) -> &'a [f32] {
        &v[l.get(name).unwrap().range()]
    }

    /// A vector of `len` zeros with `ones` set to the given values.
    fn with(len: usize, ones: &[(usize, f32)]) -> Vec<f32> {
        let mut v = vec![0.0; len];
        for &(i, x) in ones {
            v[i] = x;
        }
        v
    }

    /// The flags of one Block Zone: present, face up, kept, class, attribute (-1: unknown).
    fn block(present: bool, up: bool, class: usize, attr: isize) -> Vec<f32> {
        let mut f = vec![0.0; BLOCK_FEATS];
        f[0] = f32::from(u8::from(present));
        f[1] = f32::from(u8::from(up));
        if class < CLASSES.len() {
            f[3 + class] = 1.0;
        }
        if attr >= 0 {
            f[3 + CLASSES.len() + attr as usize] = 1.0;
        }
        f
    }

    fn apply(g: &TmntGame, s: &mut State, a: Action) {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        assert!(legal.iter().any(|&b| b == a), "{a:?} is not legal");
        g.apply(s, a);
    }

    const NO: usize = usize::MAX;
    const WIND: isize = 0;
    const FOREST: isize = 1;
    const FIRE: isize = 2;
    const MOUNTAIN: isize = 3;

    #[test]
    fn the_first_decision_seen_by_both_seats() {
        let g = game();
        let s = g.setup_stacked(Seat::P1);
        // M-ADJ-2: P1 skips its first Adjust phase; M-SET-1: its zones are full; M-EVT-1,
        // M-ITM-1: nothing to place (M-TURN-2: not asked); M-FLIP-1: Moss Warden is flipped
        // and stays; M-ATK-3: P1 may place Wind Jab or Rock Slam (not forest).
        assert_eq!((s.step, s.chooser, s.turn), (Step::Attack, Seat::P1, 1));
        let n = 41;
        let (l, v) = obs(&g, &s, Seat::P1);
        let ids = |v: &[(u8, f32)]| {
            with(
                n,
                &v.iter()
                    .map(|&(i, x)| (usize::from(i), x))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            at(&l, &v, "hand"),
            ids(&[
                (ROCK_SLAM, 1.0),
                (WIND_JAB, 1.0),
                (GALE_RUNNER, 1.0),
                (EMBER_BRUTE, 1.0),
                (GRANITE_MONK, 1.0)
            ])
        );
        // M-SETUP-4: P1 knows its own face-down Block cards.
        assert_eq!(
            at(&l, &v, "my_field"),
            ids(&[
                (MOSS_WARDEN, 1.0),
                (GALE_RUNNER, 1.0),
                (EMBER_BRUTE, 1.0),
                (GRANITE_MONK, 1.0)
            ])
        );
        // M-INFO-1: P2's Block cards are all face down; its hand is hidden.
        for z in [
            "opp_field",
            "my_items",
            "opp_items",
            "my_trash",
            "opp_trash",
            "opp_hand_known",
        ] {
            assert_eq!(at(&l, &v, z), vec![0.0; n], "{z}");
        }
        let mine: Vec<f32> = [
            block(true, true, 0, FOREST),
            block(true, false, 0, WIND),
            block(true, false, 0, FIRE),
            block(true, false, 0, MOUNTAIN),
        ]
        .concat();
        assert_eq!(at(&l, &v, "my_blocks"), mine);
        assert_eq!(at(&l, &v, "my_block_power"), [3.0, 2.0, 4.0, 5.0]);
        let theirs = block(true, false, NO, -1).repeat(4);
        assert_eq!(at(&l, &v, "opp_blocks"), theirs);
        assert_eq!(at(&l, &v, "opp_block_power"), [0.0; 4]);
        assert_eq!(at(&l, &v, "my_attack"), vec![0.0; 3 * ATTACK_FEATS]);
        // 20 cards, 9 dealt (M-SETUP-1, M-SETUP-2).
        assert_eq!(at(&l, &v, "my_deck"), [11.0]);
        assert_eq!(at(&l, &v, "opp_deck"), [11.0]);
        assert_eq!(at(&l, &v, "opp_hand"), [5.0]);
        // M-ATK-8: Moss Warden's 3, nothing placed yet.
        assert_eq!(at(&l, &v, "attack_power"), [3.0, 0.0]);
        assert_eq!(at(&l, &v, "attrs_used"), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(at(&l, &v, "turn"), [1.0]);
        assert_eq!(at(&l, &v, "my_turn"), [1.0]);
        assert_eq!(at(&l, &v, "i_first"), [1.0]);
        assert_eq!(at(&l, &v, "phase"), with(9, &[(5, 1.0)]));
        assert_eq!(at(&l, &v, "decision"), with(17, &[(5, 1.0)]));
        assert_eq!(at(&l, &v, "i_decide"), [1.0]);
        assert_eq!(
            v.len(),
            8 * n
                + 2 * (4 * 16 + 4 + 3 * 8 + 3)
                + 3
                + 2
                + 2
                + 1
                + 2
                + 12
                + 2
                + 4
                + 4
                + 3
                + 9
                + 17
                + 3
        );

        // P2 sees the same position from the other side.
        let (l, w) = obs(&g, &s, Seat::P2);
        assert_eq!(
            at(&l, &w, "hand"),
            ids(&[
                (HEX_COUNTER, 1.0),
                (PARRY, 1.0),
                (IRON_WALL, 1.0),
                (RIPOSTE, 1.0),
                (QUICK_STUDY, 1.0)
            ])
        );
        assert_eq!(at(&l, &w, "opp_field"), ids(&[(MOSS_WARDEN, 1.0)]));
        let seen: Vec<f32> = [
            block(true, true, 0, FOREST),
            block(true, false, NO, -1),
            block(true, false, NO, -1),
            block(true, false, NO, -1),
        ]
        .concat();
        assert_eq!(at(&l, &w, "opp_blocks"), seen);
        assert_eq!(at(&l, &w, "opp_block_power"), [3.0, 0.0, 0.0, 0.0]);
        assert_eq!(at(&l, &w, "opp_hand_known"), vec![0.0; n]);
        assert_eq!(at(&l, &w, "attack_power"), [3.0, 0.0]);
        assert_eq!(at(&l, &w, "my_turn"), [0.0]);
        assert_eq!(at(&l, &w, "i_first"), [0.0]);
        assert_eq!(at(&l, &w, "decision"), with(17, &[(5, 1.0)]));
        assert_eq!(at(&l, &w, "i_decide"), [0.0]);
    }

    /// The stable id of a code on the test pool (41 cards): the kinds' blocks in order — pass 1,
    /// discard … counter 41 each, keep 4, order 41, choose 94, …
    fn id(c: ActionCode) -> u32 {
        ActionSpace::new(kinds(&game().db)).id(c).unwrap()
    }

    fn codes(g: &TmntGame, s: &State) -> Vec<(ActionCode, u32)> {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        legal
            .iter()
            .map(|&a| {
                let c = g.action_code(s, a);
                (c, id(c))
            })
            .collect()
    }

    fn code(kind: u16, arg: u32, card: Option<u8>, target: Option<u32>) -> ActionCode {
        ActionCode {
            kind,
            arg,
            card: card.map(u32::from),
            target,
        }
    }

    #[test]
    fn an_attack_a_counter_a_target_and_a_keep_have_the_ids_worked_out_by_hand() {
        let g = game();
        let n = 41u32;
        assert_eq!(
            ActionSpace::new(kinds(&g.db)).len() as u32,
            1 + 12 * n + 4 + 94 + 4 + 1
        );
        let mut s = g.setup_stacked(Seat::P1);
        // M-ATK-3: pass, then Wind Jab and Rock Slam (card ids 11 and 14) into Attack Zone
        // place 0 (target 4); the attack block starts at 1 + 5 * 41 = 206.
        assert_eq!(
            codes(&g, &s),
            [
                (code(0, 0, None, None), 0),
                (code(6, 11, Some(WIND_JAB), Some(4)), 206 + 11),
                (code(6, 14, Some(ROCK_SLAM), Some(4)), 206 + 14),
            ]
        );
        apply(&g, &mut s, Action::Attack(ROCK_SLAM));
        // Wind Jab is still placeable (wind: neither forest nor mountain), into place 1.
        assert_eq!(
            codes(&g, &s),
            [
                (code(0, 0, None, None), 0),
                (code(6, 11, Some(WIND_JAB), Some(5)), 206 + 11),
            ]
        );
        apply(&g, &mut s, Action::Pass);
        // M-ATK-7: P2 may counter with Parry, Riposte, Iron Wall or Hex Counter (any attribute);
        // the counter block starts at 1 + 6 * 41 = 247.
        assert_eq!((s.step, s.chooser), (Step::Counter, Seat::P2));
        assert_eq!(
            codes(&g, &s),
            [
                (code(0, 0, None, None), 0),
                (code(7, 18, Some(PARRY), Some(4)), 247 + 18),
                (code(7, 19, Some(RIPOSTE), Some(4)), 247 + 19),
                (code(7, 20, Some(IRON_WALL), Some(4)), 247 + 20),
                (code(7, 22, Some(HEX_COUNTER), Some(4)), 247 + 22),
            ]
        );
        let (l, v) = obs(&g, &s, Seat::P2);
        assert_eq!(at(&l, &v, "phase"), with(9, &[(6, 1.0)]));
        assert_eq!(at(&l, &v, "decision"), with(17, &[(6, 1.0)]));
        assert_eq!(at(&l, &v, "i_decide"), [1.0]);
        // P1's Rock Slam, public in its Attack Zone: normal, mountain, 4 (M-INFO-1).
        assert_eq!(
            at(&l, &v, "opp_attack"),
            with(24, &[(0, 1.0), (4 + 3, 1.0)])
        );
        assert_eq!(at(&l, &v, "opp_attack_power"), [4.0, 0.0, 0.0]);
        assert_eq!(at(&l, &v, "attack_power"), [7.0, 0.0]);
        assert_eq!(at(&l, &v, "attrs_used"), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(at(&l, &v, "opp_hand"), [4.0]);
        apply(&g, &mut s, Action::Counter(HEX_COUNTER));
        // Hex Counter's `power -5 target enemy card` (M-EFFECTS-4): P2 chooses one of P1's
        // face-up cards — Rock Slam (instance 0, the opponent's Attack Zone place 0: target
        // 47 + 4) or Moss Warden (instance 5, the opponent's Block Zone 1: target 47). The choose
        // block starts at 1 + 7 * 41 + 4 + 41 = 333.
        assert_eq!((s.step, s.chooser), (Step::Choose, Seat::P2));
        assert_eq!(
            codes(&g, &s),
            [
                (code(10, 51, Some(ROCK_SLAM), Some(51)), 333 + 51),
                (code(10, 47, Some(MOSS_WARDEN), Some(47)), 333 + 47),
            ]
        );
        apply(&g, &mut s, Action::Choose(0));
        // M-ATK-8: total 3 + max(4 - 5, 0) = 3, counter 0; M-ATK-9: P2's Block Zones 1–3 are
        // flipped; M-ATK-13: P1 keeps first, Moss Warden (Block Zone 1) or none.
        assert_eq!((s.step, s.chooser), (Step::Keep, Seat::P1));
        assert_eq!(
            codes(&g, &s),
            [
                (code(0, 0, None, None), 0),
                (code(8, 0, Some(MOSS_WARDEN), Some(0)), 1 + 7 * 41),
            ]
        );
        let (l, v) = obs(&g, &s, Seat::P1);
        assert_eq!(at(&l, &v, "phase"), with(9, &[(8, 1.0)]));
        assert_eq!(at(&l, &v, "decision"), with(17, &[(7, 1.0)]));
        assert_eq!(at(&l, &v, "my_attack_power"), [0.0, 0.0, 0.0]);
        // P2's Hex Counter: counter, fire, 0.
        assert_eq!(
            at(&l, &v, "opp_attack"),
            with(24, &[(2, 1.0), (4 + 2, 1.0)])
        );
        assert_eq!(at(&l, &v, "attack_power"), [3.0, 0.0]);
        let seen: Vec<f32> = [
            block(true, true, 0, WIND),
            block(true, true, 0, FOREST),
            block(true, true, 0, FIRE),
            block(true, false, NO, -1),
        ]
        .concat();
        assert_eq!(at(&l, &v, "opp_blocks"), seen);
        assert_eq!(at(&l, &v, "opp_block_power"), [2.0, 3.0, 4.0, 0.0]);
        let ids = [
            (GALE_RUNNER, 1.0),
            (MOSS_WARDEN, 1.0),
            (EMBER_BRUTE, 1.0),
            (HEX_COUNTER, 1.0),
        ];
        let want = with(41, &ids.map(|(i, x)| (usize::from(i), x)));
        assert_eq!(at(&l, &v, "opp_field"), want);
        assert_eq!(at(&l, &v, "trashed"), [0.0, 0.0]);
    }

    /// `docs/observation.md` ("TMNT TCG") lists every slot and every kind, in order, with its
    /// length ("cards" for one per card id) and bounds, and the bundled file's sizes.
    #[test]
    fn the_docs_table_is_the_layout_and_the_kinds() {
        let doc = include_str!("../../../docs/observation.md");
        let start = doc.find("## TMNT TCG").unwrap();
        let end = start + doc[start..].find("<!--").unwrap();
        let rows: Vec<Vec<&str>> = doc[start..end]
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| l.split(" | ").collect())
            .collect();
        let db = crate::games::tmnt::bundled_cards();
        let n = db.cards.len();
        let len = |k: usize| {
            if k == n {
                "cards".to_string()
            } else {
                k.to_string()
            }
        };
        let num = |x: f32| format!("{x}").replace('-', "\u{2212}");
        let l = layout(&db);
        let ks = kinds(&db);
        assert_eq!(rows.len(), l.slots().len() + ks.len());
        for (r, s) in rows.iter().zip(l.slots()) {
            assert_eq!(r[0], format!("| `{}`", s.name));
            assert_eq!(r[1], len(s.len), "{}", s.name);
            assert_eq!(
                r[2],
                format!("{}\u{2013}{}", num(s.low), num(s.high)),
                "{}",
                s.name
            );
        }
        for (r, k) in rows[l.slots().len()..].iter().zip(&ks) {
            assert_eq!(r[0], format!("| `{}`", k.name));
            assert_eq!(r[1], len(k.args as usize), "{}", k.name);
        }
        assert_eq!((n, l.len(), ActionSpace::new(ks).len()), (92, 990, 1208));
        assert!(
            doc[start..end].contains("(92 cards) the vector has 990 values and there are 1,208")
        );
    }
}
