//! Tensors for learning agents (`docs/observation.md`, "Fire Force TCG"): what a seat sees of a
//! Fire Force position as a vector of named slots, and its actions as stable ids. The layout, then
//! `observe` writing the same slots in the same order, then the action kinds and codes (the toy
//! game's `observe.rs` is the model).
//!
//! F-INFO-1: a seat sees its own hand, both Scenes (Units, Flame cards, their marks and powers),
//! both THE ADOLLAs, both Flame decks (F-PREP-5), the counts of every hidden zone (decks, Life
//! areas, the opponent's hand), and the cards of a hidden zone it knows: a card of the opponent's
//! hand it saw go back there (F-INFO-5) or looked at (`look enemy hand`, F-INFO-6), the cards of its
//! own deck it is looking at in a `search` or a `dig` (F-INFO-6). Never a card it does not know: a
//! card id is written only for an instance in `known[seat]` (what [`Game::determinize`]
//! keeps, F-INFO-3), and nothing is read of the seed of play or of the referee's loop record
//! (decision F-MAIN-3), which `info_key` leaves out too.
//!
//! Instances: each player's main-deck cards are instances `0..40` and its Flame cards `40..45`
//! ([`FLAME_BASE`]); the per-Unit slots have one entry per main-deck instance and the per-Flame
//! slots one per Flame instance, so an action's `target` (an instance: the mover's own
//! `0..45`, the opponent's `45..90`) points into them. Both are written and read allocation-free:
//! bit walks over the state's masks and array writes.
//!
//! [`Game::determinize`]: crate::core::Game::determinize

use super::cards::{CardDb, MAX_ABILITIES};
use super::state::{
    Bits, Pick, Player, State, Step, FLAME_BASE, FLAME_DECK, FLAME_MASK, MAX_INST, NONE, PRAY,
};
use super::{Action, FireForceGame};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::Seat;

/// F-DECK-1, F-DECK-2: a main deck has at most 40 cards, so no zone holds more copies of a card,
/// and no count of main-deck cards (hand, deck, Life area) exceeds it.
const MAX_MAIN: f32 = FLAME_BASE as f32;
/// F-COST-2: at most 8 cards with Flame on a Scene, 9 while the Flame limit's choice (F-COST-4)
/// is pending.
const MAX_WITH_FLAME: f32 = 9.0;
/// Powers are written in thousands, clamped to this bound (decision F-BAT-15: the engine's
/// stores saturate at ±32,767 each; a printed power is at most 20,000).
const POWER_CAP: f32 = 64.0;
/// The turn number is written capped here (a 40-card deck runs out, F-WIN-2, by turn 62 unless
/// effects put cards back into it).
const TURN_CAP: u16 = 64;
/// Decision F-MAIN-3: the actions a player may take in one turn.
const MAX_ACTS: u8 = super::state::MAX_ACTS;
/// The steps of [`Step`], in declaration order (`Redraw` … `Over`).
const STEPS: usize = Step::Over as usize + 1;
/// The kinds of pending choice of [`Pick`], in declaration order (`None` … `Pay`).
const PICKS: usize = 10;
/// Decision F-EFF-4 (`choose (A) or (B) …`): at most 4 options (the card language's parser).
const MAX_MODES: u32 = 4;
/// Activated abilities a Unit's action may name: its abilities `0..MAX_ABILITIES`, then Pray.
const ABILITY_ARGS: u32 = MAX_ABILITIES as u32 + 1;

/// The observation's slots for matches of `cards` (`docs/observation.md`, "Fire Force TCG").
pub fn layout(cards: &CardDb) -> ObsLayout {
    let n = cards.cards.len();
    let ids = n as f32;
    let units = FLAME_BASE;
    let mut l = ObsLayout::new();
    l.slot(
        "hand",
        n,
        0.0,
        MAX_MAIN,
        "copies of each card id in my hand (F-INFO-1)",
    )
    .slot(
        "my_deck_seen",
        n,
        0.0,
        MAX_MAIN,
        "copies of each card id of my deck that I am looking at in a search or a dig (F-INFO-6)",
    )
    .slot(
        "opp_hand_known",
        n,
        0.0,
        MAX_MAIN,
        "copies of each card id of the opponent's hand that I know (F-INFO-5, F-INFO-6)",
    )
    .slot(
        "my_adolla",
        n,
        0.0,
        MAX_MAIN,
        "copies of each card id in my THE ADOLLA (public, F-INFO-1)",
    )
    .slot(
        "opp_adolla",
        n,
        0.0,
        MAX_MAIN,
        "copies of each card id in the opponent's THE ADOLLA (public, F-INFO-1)",
    );
    for (names, who) in SIDE_SLOTS.iter().zip(["my", "the opponent's"]) {
        let [unit, power, exhausted, fresh, given, blocker, flame, flame_scene, flame_exhausted] =
            *names;
        l.slot(
            unit,
            units,
            0.0,
            ids,
            format!(
                "per main-deck instance: card id + 1 of {who} Unit on the Scene there, 0 if none"
            ),
        )
        .slot(
            power,
            units,
            -POWER_CAP,
            POWER_CAP,
            format!(
                "per instance: {who} Unit's power in thousands, printed + changes + statics \
                 (F-BAT-7, F-STATIC-1), clamped to ±64; 0 if none"
            ),
        )
        .slot(
            exhausted,
            units,
            0.0,
            1.0,
            format!("per instance: 1 when {who} Unit there is exhausted (F-PREP-1, F-BAT-2)"),
        )
        .slot(
            fresh,
            units,
            0.0,
            1.0,
            format!("per instance: 1 when {who} Unit there was dispatched this turn (F-BAT-1)"),
        )
        .slot(
            given,
            units,
            0.0,
            1.0,
            format!(
                "per instance: 1 when {who} Unit there was given a Flame card (F-KW-PRAY, F-BAT-2)"
            ),
        )
        .slot(
            blocker,
            units,
            0.0,
            1.0,
            format!(
                "per instance: 1 when {who} Unit there has Blocker, printed or granted \
                 (F-KW-BLOCKER, F-KW-GRANT)"
            ),
        )
        .slot(
            flame,
            FLAME_DECK,
            0.0,
            ids,
            format!(
                "per Flame instance: card id + 1 of {who} Flame card there (the Flame deck is \
                 public, F-PREP-5), 0 if the Flame deck has fewer"
            ),
        )
        .slot(
            flame_scene,
            FLAME_DECK,
            0.0,
            1.0,
            format!(
                "per Flame instance: 1 when {who} Flame card is on the Scene, 0 in the Flame deck \
                 (F-PREP-3, F-COST-2)"
            ),
        )
        .slot(
            flame_exhausted,
            FLAME_DECK,
            0.0,
            1.0,
            format!(
                "per Flame instance: 1 when {who} Flame card is on the Scene, exhausted (F-COST-1)"
            ),
        );
    }
    let pair = "mine, then the opponent's";
    l.slot(
        "life",
        2,
        0.0,
        MAX_MAIN,
        format!("Life cards, {pair} (F-SETUP-3, F-BAT-8)"),
    )
    .slot(
        "deck",
        2,
        0.0,
        MAX_MAIN,
        format!("cards in the deck, {pair} (F-WIN-2)"),
    )
    .slot(
        "hand_size",
        2,
        0.0,
        MAX_MAIN,
        format!("cards in hand, {pair} (F-INFO-1)"),
    )
    .slot(
        "with_flame",
        2,
        0.0,
        MAX_WITH_FLAME,
        format!(
            "cards with Flame on the Scene, {pair} (F-COST-2; 9 only while F-COST-4's choice \
             waits)"
        ),
    )
    .slot(
        "flame_ready",
        2,
        0.0,
        MAX_WITH_FLAME,
        format!("ready cards with Flame, what can pay a cost, {pair} (F-COST-1)"),
    )
    .slot(
        "face_down",
        2,
        0.0,
        MAX_WITH_FLAME,
        format!("cards put face down as Flame cards, {pair} (F-KW-ADOLLA-LINK)"),
    )
    .slot(
        "acts",
        2,
        0.0,
        f32::from(MAX_ACTS),
        format!("actions taken this turn, {pair} (decision F-MAIN-3)"),
    )
    .slot(
        "reacted",
        2,
        0.0,
        1.0,
        format!("1 when a Reaction Event was played this turn, {pair} (decision F-COST-8)"),
    )
    .slot(
        "redraw_done",
        2,
        0.0,
        1.0,
        format!("1 once the redraw decision is taken, {pair} (F-SETUP-2)"),
    )
    .slot(
        "banned",
        2,
        0.0,
        ids,
        format!(
            "card id + 1 of the name that may not be dispatched or played from hand, 0 if none, \
             {pair} (decision F-EFF-12)"
        ),
    )
    .slot(
        "turn",
        1,
        0.0,
        f32::from(TURN_CAP),
        "the turn number, capped at 64 (0 during setup)",
    )
    .slot(
        "my_turn",
        1,
        0.0,
        1.0,
        "1 when it is my turn (F-END-1; I am the attacker in a battle)",
    )
    .slot("first", 1, 0.0, 1.0, "1 when I went first (F-SETUP-4)")
    .slot("to_move", 1, 0.0, 1.0, "1 when I decide now")
    .slot(
        "step",
        STEPS,
        0.0,
        1.0,
        "one-hot: the step of the turn — redraw, setup Flame, preparation Flame, main, target, \
         attacking, block, reaction, support, damage, Life trigger, battle end, battle over, end, \
         over (F-SETUP-2, F-SETUP-5, F-PREP-3, F-MAIN-1, F-BAT-2 to F-BAT-9, F-END-1)",
    )
    .slot(
        "pick",
        PICKS,
        0.0,
        1.0,
        "one-hot: the choice pending inside the step — none, a Unit, a Flame card, the Flame \
         limit, Adolla Link, a card of a zone, a name, an option, may, a payment (F-EFF-1, \
         F-PREP-5, F-COST-4, F-KW-ADOLLA-LINK, F-EFF-10, F-EFF-12, F-EFF-4, F-COST-3)",
    )
    .slot(
        "battle_units",
        2,
        0.0,
        MAX_MAIN,
        "instance + 1 of the attacking Unit (the turn player's), then of the attacked Unit (the \
         other player's); 0 if none (F-BAT-1, F-BAT-2, F-BAT-4)",
    )
    .slot(
        "battle_power",
        2,
        -POWER_CAP,
        POWER_CAP,
        "the attacking Unit's power, then the attacked Unit's, in thousands, clamped (F-BAT-7)",
    )
    .slot(
        "on_player",
        1,
        0.0,
        1.0,
        "1 when the attack is on the player (F-BAT-2, F-BAT-8)",
    )
    .slot(
        "revealed",
        1,
        0.0,
        ids,
        "card id + 1 of the Life card revealed in this battle, 0 if none (F-BAT-8)",
    )
    .slot(
        "resolving",
        1,
        0.0,
        ids,
        "card id + 1 of the card whose ability is resolving, 0 if none (F-EFF-2)",
    )
    .slot(
        "resolving_mine",
        1,
        0.0,
        1.0,
        "1 when the ability resolving is mine (F-EFF-2)",
    );
    l
}

/// The per-instance slots of each side, mine then the opponent's, in the layout's order:
/// unit, power, exhausted, fresh, given, blocker, flame, flame_scene, flame_exhausted.
const SIDE_SLOTS: [[&str; 9]; 2] = [
    [
        "my_unit",
        "my_power",
        "my_exhausted",
        "my_fresh",
        "my_given",
        "my_blocker",
        "my_flame",
        "my_flame_scene",
        "my_flame_exhausted",
    ],
    [
        "opp_unit",
        "opp_power",
        "opp_exhausted",
        "opp_fresh",
        "opp_given",
        "opp_blocker",
        "opp_flame",
        "opp_flame_scene",
        "opp_flame_exhausted",
    ],
];

/// Card id + 1 of `p`'s instance `i` when `seat` knows it (F-INFO-1), else 0.
#[inline]
fn known_card(p: &Player, i: u8, seat: Seat) -> f32 {
    if usize::from(i) < MAX_INST && p.known[seat.index()] & 1 << i != 0 {
        f32::from(p.card[usize::from(i)]) + 1.0
    } else {
        0.0
    }
}

/// A power in thousands, clamped to the slot's bounds.
#[inline]
fn thousands(power: i32) -> f32 {
    (power as f32 / 1000.0).clamp(-POWER_CAP, POWER_CAP)
}

/// Writes what `me` sees of `s` (every slot of [`layout`], in order).
pub fn observe(g: &FireForceGame, s: &State, me: Seat, o: &mut ObsOut) {
    let (mine, opp) = (s.pl(me), s.pl(me.other()));
    let count = |o: &mut ObsOut, name: &str, p: &Player, mask: u64| {
        o.count(
            name,
            Bits(mask).map(|i| usize::from(p.card[usize::from(i)])),
        );
    };
    // F-INFO-1: my hand is mine to see; F-INFO-6: the cards of my deck I am looking at; F-INFO-5,
    // F-INFO-6: the opponent's hand cards I know. Each mask is of known instances only.
    count(o, "hand", mine, mine.hand & mine.known[me.index()]);
    // Known cards of mine outside my hand and the public zones are cards of my deck I look at
    // (F-INFO-6; Life cards are known to nobody): the deck is walked only when there are some.
    let looked = mine.known[me.index()] & !(mine.hand | mine.scene | mine.adolla | FLAME_MASK);
    let seen = if looked == 0 {
        0
    } else {
        mine.deck_mask() & looked
    };
    count(o, "my_deck_seen", mine, seen);
    count(o, "opp_hand_known", opp, opp.hand & opp.known[me.index()]);
    count(o, "my_adolla", mine, mine.adolla & mine.known[me.index()]);
    count(o, "opp_adolla", opp, opp.adolla & opp.known[me.index()]);
    for (q, names) in [me, me.other()].into_iter().zip(&SIDE_SLOTS) {
        let [unit, power, exhausted, fresh, given, blocker, flame, flame_scene, flame_exhausted] =
            *names;
        let p = s.pl(q);
        let units = p.units();
        let v = o.slot(unit);
        for u in Bits(units) {
            v[usize::from(u)] = known_card(p, u, me);
        }
        let v = o.slot(power);
        let mut powers = [0; FLAME_BASE];
        g.powers(s, q, units, &mut powers);
        for u in Bits(units) {
            v[usize::from(u)] = thousands(powers[usize::from(u)]);
        }
        let mut flags = |name: &str, mask: u64| {
            let v = o.slot(name);
            for u in Bits(mask) {
                v[usize::from(u)] = 1.0;
            }
        };
        flags(exhausted, units & p.exhausted);
        flags(fresh, units & p.fresh);
        let given_mask = p
            .given_to
            .iter()
            .filter(|&&u| u != NONE)
            .fold(0u64, |m, &u| m | 1 << u);
        flags(given, units & given_mask);
        // F-BAT-4 reads the printed keyword (the Units with Blocker, kept per player: `guards`)
        // and what was granted (`blockers`).
        flags(blocker, units & (p.guards.get() | p.blocker[0]));
        let flames = p.flame_deck | p.scene;
        let v = o.slot(flame);
        for i in Bits(flames & FLAME_MASK) {
            v[usize::from(i) - FLAME_BASE] = known_card(p, i, me);
        }
        let mut flame_flags = |name: &str, mask: u64| {
            let v = o.slot(name);
            for i in Bits(mask >> FLAME_BASE) {
                v[usize::from(i)] = 1.0;
            }
        };
        flame_flags(flame_scene, p.scene);
        flame_flags(flame_exhausted, p.scene & p.exhausted);
    }
    o.pair("life", [me, me.other()], |q| f32::from(s.pl(q).life_len));
    o.pair("deck", [me, me.other()], |q| f32::from(s.pl(q).deck_len));
    o.pair("hand_size", [me, me.other()], |q| {
        s.pl(q).hand.count_ones() as f32
    });
    o.pair("with_flame", [me, me.other()], |q| {
        g.with_flame(s, q).count_ones() as f32
    });
    o.pair("flame_ready", [me, me.other()], |q| {
        g.can_pay(s, q, 0) as f32
    });
    o.pair("face_down", [me, me.other()], |q| {
        s.pl(q).as_flame.count_ones() as f32
    });
    o.pair("acts", [me, me.other()], |q| {
        f32::from(s.acts[q.index()].min(MAX_ACTS))
    });
    o.pair("reacted", [me, me.other()], |q| {
        f32::from(u8::from(s.pl(q).reacted))
    });
    o.pair("redraw_done", [me, me.other()], |q| {
        f32::from(u8::from(s.pl(q).redraw_done))
    });
    o.pair("banned", [me, me.other()], |q| {
        let b = s.pl(q).banned;
        if b == NONE {
            0.0
        } else {
            f32::from(b) + 1.0
        }
    });
    o.scalar("turn", f32::from(s.turn.min(TURN_CAP)));
    o.scalar("my_turn", f32::from(u8::from(s.active == me)));
    o.scalar("first", f32::from(u8::from(s.first == me)));
    let deciding = s.step != Step::Over && s.chooser == me;
    o.scalar("to_move", f32::from(u8::from(deciding)));
    o.slot("step")[s.step as usize] = 1.0;
    o.slot("pick")[pick_index(&s.pick)] = 1.0;
    let b = &s.battle;
    let (att, def) = (s.active, s.active.other());
    let v = o.slot("battle_units");
    if usize::from(b.attacker) < FLAME_BASE {
        v[0] = f32::from(b.attacker) + 1.0;
    }
    if usize::from(b.target) < FLAME_BASE {
        v[1] = f32::from(b.target) + 1.0;
    }
    let v = o.slot("battle_power");
    if usize::from(b.attacker) < FLAME_BASE && s.pl(att).units() & 1 << b.attacker != 0 {
        v[0] = thousands(g.power(s, att, b.attacker));
    }
    if usize::from(b.target) < FLAME_BASE && s.pl(def).units() & 1 << b.target != 0 {
        v[1] = thousands(g.power(s, def, b.target));
    }
    o.scalar("on_player", f32::from(u8::from(b.on_player)));
    o.scalar("revealed", known_card(s.pl(def), b.revealed, me));
    let (src, who) = match s.frames.iter().next() {
        Some(f) => (
            known_card(s.pl(Seat::ALL[usize::from(f.who)]), f.src, me),
            f32::from(u8::from(usize::from(f.who) == me.index())),
        ),
        None => (0.0, 0.0),
    };
    o.scalar("resolving", src);
    o.scalar("resolving_mine", who);
}

/// The place of a pending choice in the `pick` one-hot.
fn pick_index(p: &Pick) -> usize {
    match p {
        Pick::None => 0,
        Pick::Unit { .. } => 1,
        Pick::Flame { .. } => 2,
        Pick::Limit => 3,
        Pick::Link => 4,
        Pick::Cards { .. } => 5,
        Pick::Name => 6,
        Pick::Mode { .. } => 7,
        Pick::May { .. } => 8,
        Pick::Pay { .. } => 9,
    }
}

/// The kinds of action, one per variant of [`Action`], in its order (`docs/observation.md`).
pub fn kinds(cards: &CardDb) -> Vec<ActionKind> {
    let n = cards.cards.len() as u32;
    let units = FLAME_BASE as u32;
    let k = |name, args, doc| ActionKind { name, args, doc };
    vec![
        k("pass", 1, "no block, reaction, support, trigger or pick; \"no\" to a may"),
        k("keep", 1, "keep the opening hand (F-SETUP-2)"),
        k("redraw", 1, "return the hand, shuffle, draw 5 (F-SETUP-2)"),
        k(
            "flame",
            n,
            "this card id of my Flame deck, onto the Scene or given (F-PREP-5)",
        ),
        k("dispatch", n, "dispatch a Unit of this card id from hand (F-MAIN-1)"),
        k(
            "play",
            n,
            "play a non-Reaction Event of this card id from hand (F-MAIN-1)",
        ),
        k(
            "activate",
            units * ABILITY_ARGS,
            "my Unit at instance u, ability k: 4u + k, k = 3 for Pray (F-KW-ACTIVE, F-KW-REACTION, \
             F-KW-PRAY)",
        ),
        k("attack", units, "attack with my Unit at this instance (F-BAT-1)"),
        k(
            "target",
            units + 1,
            "attack the opponent's Unit at this instance, or 40: the opponent (F-BAT-2)",
        ),
        k("block", units, "block with my Unit at this instance (F-BAT-4)"),
        k(
            "react",
            n,
            "play a Reaction Event of this card id from hand (F-BAT-5)",
        ),
        k(
            "support",
            n,
            "put a Unit of this card id from hand into THE ADOLLA for its support power (F-BAT-6)",
        ),
        k(
            "use_trigger",
            1,
            "activate the revealed Life card's trigger (F-BAT-8)",
        ),
        k(
            "pick",
            2 * MAX_INST as u32,
            "a card on a Scene or in THE ADOLLA for an effect or a rule: my instance i, or 45 + \
             the opponent's instance i (F-EFF-1, F-COST-4, F-KW-ADOLLA-LINK)",
        ),
        k(
            "card",
            n,
            "a card of this card id of a hand, a deck or THE ADOLLA, or a name as its lowest card \
             id (F-EFF-10, decision F-EFF-12)",
        ),
        k(
            "mode",
            MAX_MODES,
            "option k of a \"choose one\" (decision F-EFF-4)",
        ),
        k("yes", 1, "yes to a \"you may\" (decision F-EFF-4)"),
        k("end", 1, "end the main phase (F-MAIN-1)"),
        k(
            "pay",
            1 << 8,
            "pay with these ready cards with Flame: bit j is my j-th ready card with Flame by \
             instance (decision F-COST-3)",
        ),
    ]
}

/// What `a`, legal in `s`, is for a learning agent (`docs/observation.md`): its kind (the order
/// of [`kinds`]), its argument, the card id it involves and the instance it acts with or on (the
/// mover's own `0..45`, the opponent's `45..90`: the per-instance slots' numbering). Only what the
/// mover sees: instances on a Scene or in THE ADOLLA are public, cards in its hand its own.
pub fn code(_g: &FireForceGame, s: &State, a: Action) -> ActionCode {
    let me = s.chooser;
    let card_of = |q: Seat, i: u8| {
        let p = s.pl(q);
        (usize::from(i) < MAX_INST && p.known[me.index()] & 1 << i != 0)
            .then(|| u32::from(p.card[usize::from(i)]))
    };
    let own = |i: u8| Some(u32::from(i));
    let c = |kind: u16, arg: u32, card: Option<u32>, target: Option<u32>| ActionCode {
        kind,
        arg,
        card,
        target,
    };
    let id = |x: u8| Some(u32::from(x));
    match a {
        Action::Pass => c(0, 0, None, None),
        Action::Keep => c(1, 0, None, None),
        Action::Redraw => c(2, 0, None, None),
        Action::Flame(x) => c(3, u32::from(x), id(x), None),
        Action::Dispatch(x) => c(4, u32::from(x), id(x), None),
        Action::Play(x) => c(5, u32::from(x), id(x), None),
        Action::Activate(u, k) => {
            let k = if k == PRAY {
                MAX_ABILITIES as u32
            } else {
                u32::from(k)
            };
            c(6, u32::from(u) * ABILITY_ARGS + k, card_of(me, u), own(u))
        }
        Action::Attack(u) => c(7, u32::from(u), card_of(me, u), own(u)),
        Action::Target(u) if u == NONE => c(8, FLAME_BASE as u32, None, None),
        Action::Target(u) => c(
            8,
            u32::from(u),
            card_of(me.other(), u),
            Some(MAX_INST as u32 + u32::from(u)),
        ),
        Action::Block(u) => c(9, u32::from(u), card_of(me, u), own(u)),
        Action::React(x) => c(10, u32::from(x), id(x), None),
        Action::Support(x) => c(11, u32::from(x), id(x), None),
        Action::UseTrigger => c(12, 0, card_of(s.active.other(), s.battle.revealed), None),
        Action::Pick(code) => {
            let (q, i) = (Seat::ALL[usize::from(code >= 64)], code % 64);
            let arg = if q == me {
                u32::from(i)
            } else {
                MAX_INST as u32 + u32::from(i)
            };
            c(13, arg, card_of(q, i), Some(arg))
        }
        Action::Card(x) => c(14, u32::from(x), id(x), None),
        Action::Mode(k) => c(15, u32::from(k), None, None),
        Action::Yes => c(16, 0, None, None),
        Action::End => c(17, 0, None, None),
        Action::Pay(m) => {
            // The card being paid for (F-COST-3: shown to both players as its cost is paid).
            let card = match s.pick {
                Pick::Pay { then, .. } => match then {
                    Action::Dispatch(x) | Action::Play(x) | Action::React(x) => id(x),
                    Action::Activate(u, _) => card_of(me, u),
                    _ => None,
                },
                _ => None,
            };
            c(18, u32::from(m), card, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tensor::ActionSpace;
    use crate::core::{ActionList, Game};

    /// The bundled card file's ids of the cards these tests use (`decks/fireforce/cards.csv`:
    /// a card's id is its row among the cards, from 0).
    const SPARK_CADET: u8 = 2; // FF-003: Unit, cost 1, 1000, Flame, Blitz
    const BASTION_RECRUIT: u8 = 4; // FF-005: Unit, cost 1, 2000, support 2000, Blocker
    const RED_FLAME: u8 = 72; // FF-F01
    const WHITE_FLAME: u8 = 73; // FF-F02
    const N: usize = 92; // cards in the bundled file

    /// The stacked match of `docs/scenario.md`'s example (`tests/scenarios/ff_doc_example.scn`):
    /// P1 25 Spark Cadets and 5 Red Flames, P2 25 Bastion Recruits and 5 White Flames, P1 first.
    fn doc_match() -> (FireForceGame, State) {
        let db = crate::games::fireforce::bundled_cards();
        assert_eq!(db.cards.len(), N);
        for (id, number) in [
            (SPARK_CADET, "FF-003"),
            (BASTION_RECRUIT, "FF-005"),
            (RED_FLAME, "FF-F01"),
            (WHITE_FLAME, "FF-F02"),
        ] {
            assert_eq!(db.card(id).number, number);
        }
        let g = FireForceGame::new(
            db,
            [vec![SPARK_CADET; 25], vec![BASTION_RECRUIT; 25]],
            [vec![RED_FLAME; 5], vec![WHITE_FLAME; 5]],
        );
        let s = g.setup_stacked(0, Seat::P1);
        (g, s)
    }

    fn play(g: &FireForceGame, s: &mut State, moves: &[&str]) {
        for m in moves {
            let a = g.parse_action(s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            g.apply(s, a);
        }
    }

    /// Turn 3, P1's main phase: the doc example's first two turns (turn 1: Spark Cadet, Blitz,
    /// attacks P2, who loses a Life card; turn 2: P2 dispatches two Bastion Recruits).
    fn turn_three() -> (FireForceGame, State) {
        let (g, mut s) = doc_match();
        play(
            &g,
            &mut s,
            &[
                "keep",
                "keep",
                "dispatch Spark Cadet",
                "attack with Spark Cadet",
                "target player",
                "end",
                "dispatch Bastion Recruit",
                "dispatch Bastion Recruit",
                "end",
            ],
        );
        assert_eq!((s.turn, s.active, s.step), (3, Seat::P1, Step::Main));
        (g, s)
    }

    /// `powers` (one walk for all Units) equals `power` (one Unit) for every Unit of both seats at
    /// every decision of random games of every bundled deck against the next one.
    #[test]
    fn powers_of_all_units_equal_each_units_power() {
        use crate::games::fireforce::deck::parse_deck;
        use rand::{Rng, SeedableRng};
        let db = crate::games::fireforce::bundled_cards();
        let decks: Vec<_> = [
            include_str!("../../../decks/fireforce/adolla_link.deck"),
            include_str!("../../../decks/fireforce/aggro_blitz.deck"),
            include_str!("../../../decks/fireforce/blitz_shield.deck"),
            include_str!("../../../decks/fireforce/blocker_wall.deck"),
            include_str!("../../../decks/fireforce/ember_relay.deck"),
            include_str!("../../../decks/fireforce/pray_ramp.deck"),
            include_str!("../../../decks/fireforce/reaction_control.deck"),
            include_str!("../../../decks/fireforce/support_defence.deck"),
        ]
        .iter()
        .map(|t| parse_deck(t, "bundled", "bundled", &db).expect("a bundled deck"))
        .collect();
        let mut rng = crate::core::GameRng::seed_from_u64(5);
        let mut checked = 0;
        for k in 0..decks.len() {
            let (a, b) = (&decks[k], &decks[(k + 1) % decks.len()]);
            let g = FireForceGame::new(
                db.clone(),
                [a.main.clone(), b.main.clone()],
                [a.flame.clone(), b.flame.clone()],
            );
            for seed in 0..4 {
                let mut s = g.setup(seed, Seat::P1);
                let mut legal = ActionList::new();
                while g.to_move(&s).is_some() {
                    for q in Seat::ALL {
                        let units = s.pl(q).units();
                        let mut all = [0; FLAME_BASE];
                        g.powers(&s, q, units, &mut all);
                        for u in Bits(units) {
                            assert_eq!(all[usize::from(u)], g.power(&s, q, u));
                            checked += 1;
                        }
                    }
                    g.legal_actions(&s, &mut legal);
                    let a = legal[rng.gen_range(0..legal.len())];
                    g.apply(&mut s, a);
                }
            }
        }
        assert!(checked > 10_000, "{checked} powers checked");
    }

    fn observed(g: &FireForceGame, s: &State, seat: Seat) -> (ObsLayout, Vec<f32>) {
        let l = layout(&g.db);
        let mut v = vec![f32::NAN; l.len()];
        let mut o = ObsOut::new(&l, &mut v);
        observe(g, s, seat, &mut o);
        assert!(o.done());
        (l, v)
    }

    /// The ids of the legal actions as (id, card, target), sorted by id.
    fn ids(g: &FireForceGame, s: &State) -> Vec<(u32, Option<u32>, Option<u32>)> {
        let space = ActionSpace::new(kinds(&g.db));
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        let mut v: Vec<_> = legal
            .iter()
            .map(|&a| {
                let c = code(g, s, a);
                (space.id(c).expect("in the action space"), c.card, c.target)
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_vector_and_the_action_space_have_the_documented_lengths() {
        let (g, _) = doc_match();
        // 5 card-id zones, 6 per-Unit slots of 40 and 3 per-Flame slots of 5 per side, 57
        // counters and flags (docs/observation.md).
        assert_eq!(layout(&g.db).len(), 5 * N + 2 * 6 * 40 + 2 * 3 * 5 + 57);
        assert_eq!(layout(&g.db).len(), 1027);
        // 6 kinds by card id, activate 160, attack 40, target 41, block 40, pick 90, mode 4,
        // pay 256, and 6 kinds of one id.
        assert_eq!(ActionSpace::new(kinds(&g.db)).len(), 6 * N + 631 + 6);
    }

    /// F-MAIN-1, decision F-COST-3: P1's main phase on turn 3 offers dispatching Spark Cadet
    /// (one action for the card id), attacking with the Spark Cadet of instance 0 (dispatched on
    /// turn 1, F-BAT-1) and ending; dispatching asks which card with Flame pays 1 among the
    /// ready Spark Cadet (instance 0) and two interchangeable Red Flames (instances 40, 41).
    #[test]
    fn main_phase_and_payment_actions_have_the_ids_worked_out_by_hand() {
        let (g, mut s) = turn_three();
        let n = N as u32;
        // Offsets: pass 0, keep 1, redraw 2, flame 3, dispatch 3 + n, play 3 + 2n, activate
        // 3 + 3n, attack 163 + 3n, target 203 + 3n, block 244 + 3n, react 284 + 3n, support
        // 284 + 4n, use_trigger 284 + 5n, pick 285 + 5n, card 375 + 5n, mode 375 + 6n, yes
        // 379 + 6n, end 380 + 6n, pay 381 + 6n.
        let card = Some(u32::from(SPARK_CADET));
        assert_eq!(
            ids(&g, &s),
            vec![
                (3 + n + u32::from(SPARK_CADET), card, None),
                (163 + 3 * n, card, Some(0)),
                (380 + 6 * n, None, None),
            ]
        );
        play(&g, &mut s, &["dispatch Spark Cadet"]);
        assert!(matches!(s.pick, Pick::Pay { n: 1, .. }));
        // Bit j: the j-th ready card with Flame by instance: Spark Cadet (0), Red Flame (40),
        // Red Flame (41); the Red Flames are one class, so its lowest member stands for it.
        assert_eq!(
            ids(&g, &s),
            vec![
                (381 + 6 * n + 0b001, card, None),
                (381 + 6 * n + 0b010, card, None)
            ]
        );
    }

    /// Turn 3: P1 dispatches a second Spark Cadet (instance 1; paying with the Red Flame of
    /// instance 40) and attacks P2 with the first (instance 0). P2 decides its block (F-BAT-4)
    /// with two ready Bastion Recruits (instances 0 and 1, dispatched on turn 2). Every slot of
    /// both views, worked out from the rules.
    #[test]
    fn a_block_decision_is_observed_as_worked_out_by_hand() {
        let (g, mut s) = turn_three();
        play(&g, &mut s, &["dispatch Spark Cadet"]);
        g.apply(&mut s, Action::Pay(0b010));
        play(&g, &mut s, &["attack with Spark Cadet#1", "target player"]);
        assert_eq!((s.step, s.chooser), (Step::Block, Seat::P2));

        let (l, v) = observed(&g, &s, Seat::P2);
        let mut want = vec![0f32; l.len()];
        let mut set = |slot: &str, i: usize, x: f32| {
            let sl = l.get(slot).unwrap_or_else(|| panic!("no slot {slot}"));
            assert!(i < sl.len, "{slot}[{i}]");
            want[sl.offset + i] = x;
        };
        let (spark, bastion) = (usize::from(SPARK_CADET), usize::from(BASTION_RECRUIT));
        // P2 drew 5 + 1 (turn 2), dispatched 2: 4 Bastion Recruits in hand (F-PREP-2).
        set("hand", bastion, 4.0);
        // The Life card revealed on turn 1 is in P2's THE ADOLLA (F-BAT-8).
        set("my_adolla", bastion, 1.0);
        // P2's Units: the lowest copies in hand, instances 0 and 1: ready, not dispatched this
        // turn, printed Blocker, power 2000.
        for u in 0..2 {
            set("my_unit", u, (bastion + 1) as f32);
            set("my_power", u, 2.0);
            set("my_blocker", u, 1.0);
        }
        // P2's Flame cards: 5 White Flames; one put at F-SETUP-5, one at F-PREP-3 of turn 2,
        // both exhausted paying for the two Bastion Recruits (F-COST-1).
        for j in 0..5 {
            set("my_flame", j, f32::from(WHITE_FLAME) + 1.0);
            set("opp_flame", j, f32::from(RED_FLAME) + 1.0);
        }
        for j in 0..2 {
            set("my_flame_scene", j, 1.0);
            set("my_flame_exhausted", j, 1.0);
            set("opp_flame_scene", j, 1.0);
        }
        // P1's Red Flame of instance 40 paid for the second Spark Cadet.
        set("opp_flame_exhausted", 0, 1.0);
        // P1's Units: Spark Cadet 0 attacking (exhausted, F-BAT-1), Spark Cadet 1 dispatched
        // this turn.
        for u in 0..2 {
            set("opp_unit", u, (spark + 1) as f32);
            set("opp_power", u, 1.0);
        }
        set("opp_exhausted", 0, 1.0);
        set("opp_fresh", 1, 1.0);
        // Mine, then P1's.
        set("life", 0, 4.0);
        set("life", 1, 5.0);
        // 25 - 5 hand - 5 Life - 1 draw; 25 - 5 - 5 - 2 draws.
        set("deck", 0, 14.0);
        set("deck", 1, 13.0);
        // P1: 5 + 1 - 1 + 1 - 1.
        set("hand_size", 0, 4.0);
        set("hand_size", 1, 5.0);
        // P2: 2 Flame cards, both exhausted; P1: 2 Red Flames and 2 Spark Cadets (Flame), of
        // which the Red Flame 41 and Spark Cadet 1 are ready (F-COST-1, F-COST-2).
        set("with_flame", 0, 2.0);
        set("with_flame", 1, 4.0);
        set("flame_ready", 1, 2.0);
        // P1 dispatched and attacked (decision F-MAIN-3: the payment and the target are parts
        // of those actions).
        set("acts", 1, 2.0);
        set("redraw_done", 0, 1.0);
        set("redraw_done", 1, 1.0);
        set("turn", 0, 3.0);
        set("to_move", 0, 1.0);
        set("step", Step::Block as usize, 1.0);
        assert_eq!(Step::Block as usize, 6);
        set("pick", 0, 1.0);
        // Spark Cadet 0 attacks the player (instance + 1; no attacked Unit).
        set("battle_units", 0, 1.0);
        set("battle_power", 0, 1.0);
        set("on_player", 0, 1.0);
        for sl in l.slots() {
            assert_eq!(
                &v[sl.range()],
                &want[sl.range()],
                "P2's slot {} differs",
                sl.name
            );
        }

        // P1's view: its 5 Spark Cadets, nothing of P2's hand, its turn, its decision not.
        let (_, w) = observed(&g, &s, Seat::P1);
        let at = |slot: &str, i: usize| w[l.get(slot).unwrap().offset + i];
        let range = |slot: &str| l.get(slot).unwrap().range();
        assert_eq!(at("hand", spark), 5.0);
        assert_eq!(w[range("hand")].iter().sum::<f32>(), 5.0);
        assert!(w[range("opp_hand_known")].iter().all(|&x| x == 0.0));
        assert_eq!(at("opp_adolla", bastion), 1.0);
        assert_eq!((at("my_unit", 0), at("opp_unit", 1)), (3.0, 5.0));
        assert_eq!((at("my_exhausted", 0), at("my_fresh", 1)), (1.0, 1.0));
        assert_eq!((at("life", 0), at("life", 1)), (5.0, 4.0));
        assert_eq!((at("acts", 0), at("acts", 1)), (2.0, 0.0));
        assert_eq!(
            (at("my_turn", 0), at("first", 0), at("to_move", 0)),
            (1.0, 1.0, 0.0)
        );

        // F-BAT-4: P2 blocks with either Bastion Recruit (instances 0, 1) or passes.
        let n = N as u32;
        let card = Some(u32::from(BASTION_RECRUIT));
        assert_eq!(
            ids(&g, &s),
            vec![
                (0, None, None),
                (244 + 3 * n, card, Some(0)),
                (244 + 3 * n + 1, card, Some(1)),
            ]
        );
    }

    /// F-INFO-5: a card of P1's hand that P2 knows (as a scenario's `(known)` mark writes it) is
    /// in P2's `opp_hand_known` and nowhere else; P1's own view does not change. (Whether a
    /// known card survives determinization is the conformance test's, on varied decks: here
    /// every card is a Spark Cadet.)
    #[test]
    fn a_known_card_of_the_opponents_hand_is_seen_f_info_5() {
        let (g, mut s) = turn_three();
        let (l, before) = observed(&g, &s, Seat::P2);
        let (_, p1_before) = observed(&g, &s, Seat::P1);
        // P1's hand: instances 1 to 4 and 10 to 11 (0 was dispatched on turn 1), all Spark
        // Cadets.
        let i = Bits(s.p[0].hand).next().expect("a card in hand");
        assert_eq!(i, 1);
        s.p[0].known[1] |= 1 << i;
        g.check_invariants(&s).expect("a position the rules allow");
        let (_, after) = observed(&g, &s, Seat::P2);
        let at = l.get("opp_hand_known").unwrap().offset + usize::from(SPARK_CADET);
        for (k, (&x, &y)) in before.iter().zip(&after).enumerate() {
            assert_eq!(y, if k == at { 1.0 } else { x }, "entry {k}");
        }
        assert_eq!(observed(&g, &s, Seat::P1).1, p1_before);
    }

    /// `docs/observation.md` ("Fire Force TCG") names every slot and kind in order, with its
    /// length (or ids) and bounds: the tables are the layout's.
    #[test]
    fn the_documentation_tables_are_the_layout_and_the_kinds() {
        let doc = include_str!("../../../docs/observation.md");
        let from = doc
            .find("<!-- fireforce -->")
            .expect("the Fire Force section");
        let to = from + doc[from..].find("<!-- tmnt -->").expect("the next section");
        let rows: Vec<Vec<&str>> = doc[from..to]
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| {
                l.split(" | ")
                    .map(|c| c.trim_matches(['|', ' ', '`']))
                    .collect()
            })
            .collect();
        let (g, _) = doc_match();
        let number = |x: f32| {
            if x == N as f32 {
                "cards".to_string()
            } else {
                format!("{x}").replace('-', "\u{2212}")
            }
        };
        let l = layout(&g.db);
        let kinds = kinds(&g.db);
        assert_eq!(rows.len(), l.slots().len() + kinds.len());
        for (row, sl) in rows.iter().zip(l.slots()) {
            let len = if sl.len == N {
                "cards".to_string()
            } else {
                sl.len.to_string()
            };
            let bounds = format!("{}\u{2013}{}", number(sl.low), number(sl.high));
            assert_eq!(
                (row[0], row[1], row[2]),
                (sl.name, len.as_str(), bounds.as_str()),
                "the row of slot {}",
                sl.name
            );
        }
        for (row, k) in rows[l.slots().len()..].iter().zip(&kinds) {
            let ids = if k.args == N as u32 {
                "cards".to_string()
            } else {
                k.args.to_string()
            };
            assert_eq!((row[0], row[1]), (k.name, ids.as_str()), "kind {}", k.name);
        }
    }
}
