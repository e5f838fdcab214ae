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

use super::cards::{Brief, CardDb, MAX_ABILITIES};
use super::state::{Bits, Pick, Player, State, Step, FLAME_BASE, FLAME_DECK, MAX_INST, NONE, PRAY};
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
    for (side, who) in [("my", "my"), ("opp", "the opponent's")] {
        let name = |s: &str| -> &'static str { slot_name(side, s) };
        l.slot(
            name("unit"),
            units,
            0.0,
            ids,
            format!(
                "per main-deck instance: card id + 1 of {who} Unit on the Scene there, 0 if none"
            ),
        )
        .slot(
            name("power"),
            units,
            -POWER_CAP,
            POWER_CAP,
            format!(
                "per instance: {who} Unit's power in thousands, printed + changes + statics \
                 (F-BAT-7, F-STATIC-1), clamped to ±64; 0 if none"
            ),
        )
        .slot(
            name("exhausted"),
            units,
            0.0,
            1.0,
            format!("per instance: 1 when {who} Unit there is exhausted (F-PREP-1, F-BAT-2)"),
        )
        .slot(
            name("fresh"),
            units,
            0.0,
            1.0,
            format!("per instance: 1 when {who} Unit there was dispatched this turn (F-BAT-1)"),
        )
        .slot(
            name("given"),
            units,
            0.0,
            1.0,
            format!(
                "per instance: 1 when {who} Unit there was given a Flame card (F-KW-PRAY, F-BAT-2)"
            ),
        )
        .slot(
            name("blocker"),
            units,
            0.0,
            1.0,
            format!(
                "per instance: 1 when {who} Unit there has Blocker, printed or granted \
                 (F-KW-BLOCKER, F-KW-GRANT)"
            ),
        )
        .slot(
            name("flame"),
            FLAME_DECK,
            0.0,
            ids,
            format!(
                "per Flame instance: card id + 1 of {who} Flame card there (the Flame deck is \
                 public, F-PREP-5), 0 if the Flame deck has fewer"
            ),
        )
        .slot(
            name("flame_scene"),
            FLAME_DECK,
            0.0,
            1.0,
            format!(
                "per Flame instance: 1 when {who} Flame card is on the Scene, 0 in the Flame deck \
                 (F-PREP-3, F-COST-2)"
            ),
        )
        .slot(
            name("flame_exhausted"),
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
        format!("cards with Flame on the Scene, {pair} (F-COST-2)"),
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
        "1 when it is my turn (F-TURN; I am the attacker in a battle)",
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

/// The name `my_…` or `opp_…` of a per-instance slot (the slot names are `'static`).
fn slot_name(side: &str, s: &str) -> &'static str {
    const MY: [&str; 9] = [
        "my_unit",
        "my_power",
        "my_exhausted",
        "my_fresh",
        "my_given",
        "my_blocker",
        "my_flame",
        "my_flame_scene",
        "my_flame_exhausted",
    ];
    const OPP: [&str; 9] = [
        "opp_unit",
        "opp_power",
        "opp_exhausted",
        "opp_fresh",
        "opp_given",
        "opp_blocker",
        "opp_flame",
        "opp_flame_scene",
        "opp_flame_exhausted",
    ];
    let names = if side == "my" { &MY } else { &OPP };
    names
        .iter()
        .find(|x| x.split_once('_').map(|(_, t)| t) == Some(s))
        .copied()
        .unwrap_or_else(|| panic!("no per-instance slot {side}_{s}"))
}

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
        let v = o.slot(name);
        for i in Bits(mask) {
            v[usize::from(p.card[usize::from(i)])] += 1.0;
        }
    };
    // F-INFO-1: my hand is mine to see; F-INFO-6: the cards of my deck I am looking at; F-INFO-5,
    // F-INFO-6: the opponent's hand cards I know. Each mask is of known instances only.
    count(o, "hand", mine, mine.hand & mine.known[me.index()]);
    count(
        o,
        "my_deck_seen",
        mine,
        mine.deck_mask() & mine.known[me.index()],
    );
    count(o, "opp_hand_known", opp, opp.hand & opp.known[me.index()]);
    count(o, "my_adolla", mine, mine.adolla & mine.known[me.index()]);
    count(o, "opp_adolla", opp, opp.adolla & opp.known[me.index()]);
    for (q, side) in [(me, "my"), (me.other(), "opp")] {
        let p = s.pl(q);
        let units = p.units();
        let v = o.slot(slot_name(side, "unit"));
        for u in Bits(units) {
            v[usize::from(u)] = known_card(p, u, me);
        }
        let v = o.slot(slot_name(side, "power"));
        for u in Bits(units) {
            v[usize::from(u)] = thousands(g.power(s, q, u));
        }
        let mut flags = |name: &str, mask: u64| {
            let v = o.slot(slot_name(side, name));
            for u in Bits(mask) {
                v[usize::from(u)] = 1.0;
            }
        };
        flags("exhausted", units & p.exhausted);
        flags("fresh", units & p.fresh);
        let given = p
            .given_to
            .iter()
            .filter(|&&u| u != NONE)
            .fold(0u64, |m, &u| m | 1 << u);
        flags("given", units & given);
        // F-BAT-4 reads the printed keyword and what was granted (`blockers`).
        let printed = Bits(units)
            .filter(|&u| g.db.brief(p.card[usize::from(u)]).has(Brief::BLOCKER))
            .fold(0u64, |m, u| m | 1 << u);
        flags("blocker", units & (printed | p.blocker[0]));
        let flames = p.flame_deck | p.scene;
        let v = o.slot(slot_name(side, "flame"));
        for j in 0..FLAME_DECK {
            let i = (FLAME_BASE + j) as u8;
            if flames & 1 << i != 0 {
                v[j] = known_card(p, i, me);
            }
        }
        let mut flame_flags = |name: &str, mask: u64| {
            let v = o.slot(slot_name(side, name));
            for i in Bits(mask >> FLAME_BASE) {
                v[usize::from(i)] = 1.0;
            }
        };
        flame_flags("flame_scene", p.scene);
        flame_flags("flame_exhausted", p.scene & p.exhausted);
    }
    let pair = |o: &mut ObsOut, name: &str, f: &dyn Fn(Seat) -> f32| {
        let v = o.slot(name);
        v[0] = f(me);
        v[1] = f(me.other());
    };
    pair(o, "life", &|q| f32::from(s.pl(q).life_len));
    pair(o, "deck", &|q| f32::from(s.pl(q).deck_len));
    pair(o, "hand_size", &|q| s.pl(q).hand.count_ones() as f32);
    pair(o, "with_flame", &|q| g.with_flame(s, q).count_ones() as f32);
    pair(o, "flame_ready", &|q| g.can_pay(s, q, 0) as f32);
    pair(o, "face_down", &|q| s.pl(q).as_flame.count_ones() as f32);
    pair(o, "acts", &|q| f32::from(s.acts[q.index()].min(MAX_ACTS)));
    pair(o, "reacted", &|q| f32::from(u8::from(s.pl(q).reacted)));
    pair(o, "redraw_done", &|q| {
        f32::from(u8::from(s.pl(q).redraw_done))
    });
    pair(o, "banned", &|q| {
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
