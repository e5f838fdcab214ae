//! Tensors for learning agents (`docs/observation.md`): what a seat sees of a Trails position as
//! a vector, and the stable ids of its actions. The layout, then `observe` writing the same slots
//! in the same order, then the action kinds and codes.
//!
//! What a seat sees (T-STATE-3, T-INFO-1..6): its own hand and its own face-down homebase cards
//! (T-INFO-2), every public zone of both players (field, face-up homebase cards, trail), the sizes
//! of the hidden zones (decks, the opponent's hand, face-down homebase cards), the opponent's
//! cards in hidden zones that it knows (T-INFO-3, T-INFO-6), the top cards of its own deck when it
//! knows them (T-INFO-2: a plan), the counters (bond, CP, EP) and the turn structure. Never the
//! identity of a card it cannot see: the conformance suite's no-peek test redeals those.
//!
//! The field is written per slot: a player's cards on the field in increasing instance order (the
//! instance numbers are random at setup, T-INFO-4, and never change while the card stays), the
//! first [`FIELD_SLOTS`] of them. Actions on a field card take its place in that order as their
//! argument, so an action's id points at the observation's slot.
//!
//! Everything here is allocation-free: bit walks over the zone masks and writes into the slots.

use super::cards::{CardDb, Icons, Trigger, MAX_CRAFTS, MAX_ORGS};
use super::engine::{FieldView, MAX_ALWAYS_PER_TURN};
use super::state::{flag, AttackTarget, Bits, Pending, PlayerState, State, Step, MAX_CARDS};
use super::{Action, TrailsGame};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::Seat;

/// Field slots written per player: the first cards on the field in instance order. A field
/// holds up to 50 cards in principle; the cards beyond the twelfth are counted in `field_size`
/// and have action ids, but no slot. Measured in 200 games of the bench match (aggro against
/// control) each: a field of more than 12 cards in 0.45% of the positions of random play and
/// 2.1% of the heuristic's (more than 8: 10.5% and 17.6%).
pub const FIELD_SLOTS: usize = 12;

/// The flags written per field slot, in order (see [`layout`]).
const STATUS: usize = 11;

/// The most instances a player owns (T-DECK-1: 50), the bound of every card count.
const CARDS: f32 = MAX_CARDS as f32;

/// T-WIN-1: bond starts at 40, its cap; it has no floor: written clamped at this.
const BOND_FLOOR: f32 = -999.0;

/// STR and DEF: printed 0..99 (the card file's bounds), changed by effects: written clamped.
const STAT_LOW: f32 = -128.0;
const STAT_HIGH: f32 = 255.0;

/// The turn is written capped at this (T-WIN-3: both players draw 2 a turn from decks of at most
/// 50 cards, so a game ends near turn 24 unless effects give cards back).
const TURN_CAP: f32 = 60.0;

/// CP and EP are written capped at this (T-PREP-3: 1 CP per homebase card; T-RES-1: 1 EP per
/// ready homebase card; effects may add more).
const POOL_CAP: f32 = 99.0;

/// The steps of the one-hot `step`, in [`Step`]'s order.
const STEPS: usize = 14;

/// The pending choices of the one-hot `pending`, in [`Pending`]'s order.
const PENDINGS: usize = 11;

/// Options of a `choose` (the card language allows at most 4).
const MODES: u32 = 4;

/// The slots of the vector for the card file `cards`: its length is `7 × cards + 396`.
pub fn layout(cards: &CardDb) -> ObsLayout {
    let n = cards.len();
    let f = FIELD_SLOTS;
    let mut l = ObsLayout::new();
    l.slot("hand", n, 0.0, CARDS, "copies of each card id in my hand")
        .slot(
            "my_homebase",
            n,
            0.0,
            CARDS,
            "copies of each card id face down in my homebase (T-INFO-2: I may look at them)",
        )
        .slot(
            "my_face_up",
            n,
            0.0,
            CARDS,
            "copies of each card id face up in my homebase: used EVENTs and arts, BASEs (T-RES-2..5)",
        )
        .slot(
            "opp_face_up",
            n,
            0.0,
            CARDS,
            "copies of each card id face up in the opponent's homebase (public, T-STATE-3)",
        )
        .slot(
            "my_trail",
            n,
            0.0,
            CARDS,
            "copies of each card id in my trail (public, T-STATE-3)",
        )
        .slot(
            "opp_trail",
            n,
            0.0,
            CARDS,
            "copies of each card id in the opponent's trail (public, T-STATE-3)",
        )
        .slot(
            "opp_known",
            n,
            0.0,
            CARDS,
            "copies of each card id in the opponent's hidden zones (hand, deck, face down) that I know (T-INFO-3, T-INFO-6)",
        )
        .slot(
            "my_deck_top",
            2,
            0.0,
            n as f32,
            "card id + 1 of the top and of the second card of my deck when I know it (T-INFO-2: a plan), else 0",
        );
    for (card, str_, def, status, who) in [
        (
            "my_field_card",
            "my_field_str",
            "my_field_def",
            "my_field_status",
            "my",
        ),
        (
            "opp_field_card",
            "opp_field_str",
            "opp_field_def",
            "opp_field_status",
            "the opponent's",
        ),
    ] {
        l.slot(
            card,
            f,
            0.0,
            n as f32,
            format!("card id + 1 of each of {who} first {f} field cards in instance order, 0 for an empty slot"),
        )
        .slot(
            str_,
            f,
            STAT_LOW,
            STAT_HIGH,
            format!("STR of each of {who} field slots now (printed, until end of turn and static changes; 0 for an ITEM or none), clamped"),
        )
        .slot(
            def,
            f,
            STAT_LOW,
            STAT_HIGH,
            format!("DEF of each of {who} field slots now, as STR"),
        )
        .slot(
            status,
            f * STATUS,
            0.0,
            1.0,
            format!("per field slot of {who}, 11 flags: UNIT, actioned (T-STATE-1), stunned (T-STATE-2), supported (T-SCLM-3), attacked this turn, in the combat (attacking or defending), [Covert], [Hate], [Martial Arts], sees [Covert] (T-ICON-COVERT-2), its once-a-turn craft used"),
        );
    }
    l.slot(
        "bond",
        2,
        BOND_FLOOR,
        40.0,
        "my bond, then the opponent's (T-WIN-1: 40 at most, no floor; clamped at −999)",
    )
    .slot(
        "deck_size",
        2,
        0.0,
        CARDS,
        "cards in my deck, then in the opponent's",
    )
    .slot(
        "hand_size",
        2,
        0.0,
        CARDS,
        "cards in my hand, then in the opponent's",
    )
    .slot(
        "homebase_size",
        2,
        0.0,
        CARDS,
        "cards in my homebase, then in the opponent's, face up and down (the CP of T-PREP-3)",
    )
    .slot(
        "ready_homebase",
        2,
        0.0,
        CARDS,
        "ready cards in my homebase, then in the opponent's (the EP they can still gain, T-RES-1)",
    )
    .slot(
        "field_size",
        2,
        0.0,
        CARDS,
        "cards on my field, then on the opponent's (slots or not)",
    )
    .slot(
        "cp",
        2,
        0.0,
        POOL_CAP,
        "my CP, then the opponent's (T-PREP-3), capped at 99",
    )
    .slot(
        "ep",
        2,
        0.0,
        POOL_CAP,
        "my EP pool, then the opponent's (decision T-RES-7), capped at 99",
    )
    .slot(
        "always_used",
        2,
        0.0,
        f32::from(MAX_ALWAYS_PER_TURN),
        "\"always\" actions taken this turn, mine then the opponent's (decision T-RES-10: 40 at most)",
    )
    .slot(
        "opp_knows_my_hand",
        1,
        0.0,
        CARDS,
        "cards of my hand the opponent knows (T-INFO-3)",
    )
    .slot(
        "turn",
        1,
        0.0,
        TURN_CAP,
        "the turn, from 1, capped at 60",
    )
    .slot(
        "i_have_initiative",
        1,
        0.0,
        1.0,
        "1 when I am this turn's initiative player (T-TURN)",
    )
    .slot(
        "i_decide",
        1,
        0.0,
        1.0,
        "1 when the decision now is mine",
    )
    .slot(
        "step",
        STEPS,
        0.0,
        1.0,
        "one-hot: mulligan, draw, homebase, deploy, propose (step I), group, window, fight-back, combat end, cure check, cure, ready, over, clash",
    )
    .slot(
        "pending",
        PENDINGS,
        0.0,
        1.0,
        "one-hot, the choice asked inside an effect: none, target, plan, rebuild, dispatch put, mode, may, pick, bottom, organizations, discard",
    )
    .slot(
        "choice_left",
        2,
        0.0,
        CARDS,
        "of the pending choice: how many more at most (plan, pick, bottom, discard; options of a mode), then how many more at least (pick), capped at 50",
    )
    .slot(
        "resolving",
        2,
        0.0,
        n as f32,
        "card id + 1 of the ability resolving first (0 for none), then 1 when it is mine",
    )
    .slot(
        "combat",
        4,
        0.0,
        1.0,
        "1 when I am the attacking player of the combat phase's current attack; 1 when it has attackers; 1 when it targets a player; 1 when it is a SCLM attack (T-SCLM-1)",
    )
    .slot(
        "passes",
        2,
        0.0,
        2.0,
        "passes in a row in step I (two end the combat phase, T-COMBAT-1), then in the window (T-RES-9)",
    )
    .slot(
        "mulligan_count",
        1,
        0.0,
        CARDS,
        "cards put on the bottom in the mulligan so far (T-SETUP-3)",
    );
    l
}

/// The instances of `p` among the first `n_cards`.
#[inline]
fn all(p: &PlayerState) -> u64 {
    crate::core::hidden::first_n(usize::from(p.n_cards))
}

/// The place of instance `i` in the field of `p` (instance order): its slot when below
/// [`FIELD_SLOTS`].
#[inline]
fn rank(p: &PlayerState, i: u8) -> u32 {
    (p.field & ((1u64 << i) - 1)).count_ones()
}

/// The place of instance `i` among the face-up homebase cards of `p`.
#[inline]
fn up_rank(p: &PlayerState, i: u8) -> u32 {
    (p.face_up() & ((1u64 << i) - 1)).count_ones()
}

/// Writes what `me` may see of `s`: every slot of [`layout`], in order.
pub fn observe(g: &TrailsGame, s: &State, me: Seat, o: &mut ObsOut) {
    let (mine, opp) = (s.pl(me), s.pl(me.other()));
    let id = |p: &PlayerState, i: u8| usize::from(g.card_id(p.card[i as usize]));
    let count = |o: &mut ObsOut, name: &str, p: &PlayerState, mask: u64| {
        o.count(name, Bits(mask).map(|i| id(p, i)));
    };
    count(o, "hand", mine, mine.hand);
    count(o, "my_homebase", mine, mine.homebase & !mine.face_up());
    count(o, "my_face_up", mine, mine.face_up());
    count(o, "opp_face_up", opp, opp.face_up());
    count(o, "my_trail", mine, mine.trail);
    count(o, "opp_trail", opp, opp.trail);
    // T-INFO-3, T-INFO-6: the opponent's cards out of sight that this seat knows.
    let hidden = all(opp) & !(opp.field | opp.face_up() | opp.trail);
    count(o, "opp_known", opp, hidden & opp.known[me.index()]);
    let top = o.slot("my_deck_top");
    let d = usize::from(mine.deck_len);
    for (k, v) in top.iter_mut().enumerate() {
        if k < d {
            let i = mine.deck[d - 1 - k];
            if mine.known[me.index()] & (1u64 << i) != 0 {
                *v = id(mine, i) as f32 + 1.0;
            }
        }
    }
    // STR, DEF and icons of the slotted UNITs, one pass over the static effects for all.
    let slotted = [slotted(s.pl(Seat::P1)), slotted(s.pl(Seat::P2))];
    let units = [
        slotted[0] & s.p[0].kinds.unit,
        slotted[1] & s.p[1].kinds.unit,
    ];
    let view = g.stats_view(s, units);
    for (q, names) in [
        (
            me,
            [
                "my_field_card",
                "my_field_str",
                "my_field_def",
                "my_field_status",
            ],
        ),
        (
            me.other(),
            [
                "opp_field_card",
                "opp_field_str",
                "opp_field_def",
                "opp_field_status",
            ],
        ),
    ] {
        field(g, s, (&view, q, slotted[q.index()]), names, o);
    }
    o.pair("bond", [mine, opp], |p| f32::from(p.bond).max(BOND_FLOOR));
    o.pair("deck_size", [mine, opp], |p| f32::from(p.deck_len));
    o.pair("hand_size", [mine, opp], |p| p.hand.count_ones() as f32);
    o.pair("homebase_size", [mine, opp], |p| {
        p.homebase.count_ones() as f32
    });
    o.pair("ready_homebase", [mine, opp], |p| p.ready_homebase() as f32);
    o.pair("field_size", [mine, opp], |p| p.field.count_ones() as f32);
    o.pair("cp", [mine, opp], |p| f32::from(p.cp).min(POOL_CAP));
    o.pair("ep", [mine, opp], |p| f32::from(p.ep).min(POOL_CAP));
    let v = o.slot("always_used");
    v[0] = f32::from(s.always_used[me.index()]);
    v[1] = f32::from(s.always_used[me.other().index()]);
    o.scalar(
        "opp_knows_my_hand",
        (mine.hand & mine.known[me.other().index()]).count_ones() as f32,
    );
    o.scalar("turn", f32::from(s.turn).min(TURN_CAP));
    o.scalar("i_have_initiative", flag01(s.initiative == me));
    o.scalar("i_decide", flag01(s.chooser() == Some(me)));
    o.slot("step")[s.step as usize] = 1.0;
    let (k, left, need) = match s.pending {
        Pending::None => (0, 0, 0),
        Pending::Target => (1, 0, 0),
        Pending::Plan { left, .. } => (2, left, 0),
        Pending::Rebuild => (3, 0, 0),
        Pending::DispatchPut => (4, 0, 0),
        Pending::Mode { n } => (5, n, 0),
        Pending::May { .. } => (6, 0, 0),
        Pending::Pick { left, need, .. } => (7, left, need),
        Pending::Bottom { left } => (8, left, 0),
        Pending::Orgs { .. } => (9, 0, 0),
        Pending::Discard { left, .. } => (10, left, 0),
    };
    o.slot("pending")[k] = 1.0;
    let v = o.slot("choice_left");
    v[0] = f32::from(left).min(CARDS);
    v[1] = f32::from(need).min(CARDS);
    let v = o.slot("resolving");
    if let Some(c) = s.queue.as_slice().first() {
        // The source of an ability is always public (its card was played or is in view).
        v[0] = f32::from(g.card_id(g.cursor_card(s, c))) + 1.0;
        v[1] = flag01(c.controller() == me);
    }
    let c = &s.combat;
    let in_combat = matches!(
        s.step,
        Step::Group | Step::Window | Step::FightBack | Step::Clash | Step::CombatEnd
    );
    // The attack's record outlives it until the next one (its SCLM mark), so each flag asks
    // for a live attack.
    let live = c.attackers != 0;
    let v = o.slot("combat");
    v[0] = flag01(in_combat && c.attacker == me);
    v[1] = flag01(live);
    v[2] = flag01(live && c.target == AttackTarget::Player);
    v[3] = flag01(live && c.sclm);
    let v = o.slot("passes");
    v[0] = f32::from(c.passes.0.min(2));
    v[1] = f32::from(c.window_passes.0.min(2));
    o.scalar("mulligan_count", f32::from(s.mulligan_count).min(CARDS));
}

#[inline]
fn flag01(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// The first [`FIELD_SLOTS`] cards of `p`'s field, in instance order.
#[inline]
fn slotted(p: &PlayerState) -> u64 {
    Bits(p.field)
        .take(FIELD_SLOTS)
        .fold(0u64, |m, i| m | 1u64 << i)
}

/// Four flags as values 0 or 1, indexed by their bits (bit 0 first).
const FLAGS4: [[f32; 4]; 16] = {
    let mut t = [[0.0; 4]; 16];
    let mut b = 0;
    while b < 16 {
        let mut k = 0;
        while k < 4 {
            t[b][k] = ((b >> k) & 1) as f32;
            k += 1;
        }
        b += 1;
    }
    t
};

/// The field slots of player `q` (`slotted`: its slotted cards): card, STR, DEF and the status
/// flags of each, in the order of [`layout`]'s `*_field_*` slots, in one walk.
fn field(
    g: &TrailsGame,
    s: &State,
    (view, q, slotted): (&FieldView, Seat, u64),
    names: [&str; 4],
    o: &mut ObsOut,
) {
    let p = s.pl(q);
    let [cards, strs, defs, status] = o.slots(names);
    let units = slotted & p.kinds.unit;
    let clamp = |x: i16| f32::from(x).clamp(STAT_LOW, STAT_HIGH);
    let fighting = if s.combat.attacker == q {
        s.combat.attackers
    } else if let AttackTarget::Unit(d) = s.combat.target {
        1u64 << d
    } else {
        0
    };
    // The flags in the slot's order, one mask each (bit `i`: instance `i`).
    let masks = [
        units,
        p.flagged(flag::ACTIONED),
        p.flagged(flag::STUNNED),
        p.flagged(flag::SUPPORTED),
        p.flagged(flag::ATTACKED),
        fighting,
    ];
    for (k, i) in Bits(slotted).enumerate() {
        cards[k] = f32::from(g.card_id(p.card[i as usize])) + 1.0;
        let mut bits = 0usize;
        for (j, m) in masks.iter().enumerate() {
            bits |= (((m >> i) & 1) as usize) << j;
        }
        // An ITEM, or an empty slot, has STR and DEF 0 (the buffer's zeros) and no icons.
        if units & (1u64 << i) != 0 {
            let (st, df) = view.stats(q, i);
            strs[k] = clamp(st);
            defs[k] = clamp(df);
            let icons = view.icons(q, i);
            for (j, icon) in [
                Icons::COVERT,
                Icons::HATE,
                Icons::MARTIAL_ARTS,
                Icons::SEES_COVERT,
            ]
            .into_iter()
            .enumerate()
            {
                bits |= usize::from(icons.has(icon)) << (6 + j);
            }
        }
        bits |= (((p.once >> i) & 1) as usize) << 10;
        let f = &mut status[k * STATUS..(k + 1) * STATUS];
        f[..4].copy_from_slice(&FLAGS4[bits & 15]);
        f[4..8].copy_from_slice(&FLAGS4[(bits >> 4) & 15]);
        f[8..].copy_from_slice(&FLAGS4[bits >> 8][..3]);
    }
}

/// The kinds of action, one per [`Action`] variant, split where a variant means two things
/// (a choice of the player's own or of the opponent's cards; a `choose` option or an
/// organization): `18 × cards + 823` ids in all.
pub fn kinds(cards: &CardDb) -> Vec<ActionKind> {
    let n = cards.len() as u32;
    let f = MAX_CARDS as u32;
    let k = |name, args, doc| ActionKind { name, args, doc };
    vec![
        k("pass", 1, "pass, keep, skip, end the step, cure nothing or say no, by the step"),
        k("yes", 1, "say yes to a `may` of the ability resolving"),
        k("mulligan", n, "put a card of this card id from my hand on the bottom of my deck (T-SETUP-3)"),
        k("homebase", n, "put a card of this card id from my hand into my homebase (T-PREP-2)"),
        k("deploy", n, "play a UNIT or ITEM of this card id from my hand (T-PREP-3)"),
        k("dispatch", n, "play a face-down UNIT of this card id from my homebase (T-ICON-DISPATCH)"),
        k("dispatch_put", n, "after a dispatch, put a card of this card id from my hand into my homebase (T-ICON-DISPATCH)"),
        k("event", 2 * n, "play an EVENT of card id `a` from my hand (`a`) or face down from my homebase (`cards + a`) (T-RES-2)"),
        k("arts", 2 * n, "play the arts of a UNIT of card id `a` from my hand (`a`) or face down from my homebase (`cards + a`) (T-RES-3)"),
        k("base", n, "turn a face-down BASE of this card id face up (T-RES-4)"),
        k("craft", 2 * f * MAX_CRAFTS as u32, "craft `j` (0..3, among the card's crafts) of my field card in place `r` (`4r + j`), or of my face-up homebase card in place `r` among them (`200 + 4r + j`) (T-RES-5, T-RES-5-2)"),
        k("attack", f, "propose my field card in this place as the attacker (T-COMBAT-2)"),
        k("join", f, "my field card in this place joins the attacking group (T-SCLM-1)"),
        k("target_unit", f, "the attack targets the opponent's field card in this place (T-COMBAT-2)"),
        k("target_player", 1, "the attack targets the opponent (T-COMBAT-2)"),
        k("support", f, "my field card in this place supports the defending UNIT (T-SCLM-3)"),
        k("fight_back", f, "the defender fights back the attacking field card in this place of the opponent's field (T-SCLM-1)"),
        k("cure", f, "cure my stunned field card in this place (T-CURE-2)"),
        k("choose_mine", f, "choose my field card in this place for the effect resolving"),
        k("choose_opp", f, "choose the opponent's field card in this place for the effect resolving"),
        k("plan_top", n, "put a looked-at card of this card id on top of my deck (T-TERM-PLAN)"),
        k("plan_bottom", n, "put a looked-at card of this card id on the bottom of my deck (T-TERM-PLAN, `dig`)"),
        k("rebuild", 2 * n, "destroy a card of card id `a` of my homebase, face down (`a`) or face up (`cards + a`) (T-TERM-REBUILD)"),
        k("mode", MODES, "option `k` of the `choose` resolving"),
        k("organization", MAX_ORGS as u32, "name organization `k` of the card file (decision T-EFF-19)"),
        k("pick_mine", 2 * n, "choose or discard a card of card id `a` of mine outside the field: face down or hidden (`a`), face up in my homebase (`cards + a`) (decision T-EFF-11)"),
        k("pick_opp", 2 * n, "choose a card of card id `a` of the opponent's outside the field: hidden but known, or in the trail (`a`), face up in the homebase (`cards + a`) (decision T-EFF-11)"),
    ]
}

/// What `a`, legal in `s`, is for a learning agent: its kind and argument (see [`kinds`]), the
/// card id it involves and the field place it acts with or on. It reads only what the player to
/// move may see: its own cards, public ones, and cards named in the action by card id.
pub fn code(g: &TrailsGame, s: &State, a: Action) -> ActionCode {
    let n = g.db.len() as u32;
    let me = s.chooser().unwrap_or(s.actor);
    let (mine, opp) = (s.pl(me), s.pl(me.other()));
    let cid = |l: u8| u32::from(g.card_id(l));
    let inst = |p: &PlayerState, i: u8| u32::from(g.card_id(p.card[i as usize]));
    let plain = |kind: u16, arg: u32, card: Option<u32>| ActionCode {
        kind,
        arg,
        card,
        target: None,
    };
    // A field card: its place is the argument and the target.
    let at = |kind: u16, p: &PlayerState, i: u8| {
        let r = rank(p, i);
        ActionCode {
            kind,
            arg: r,
            card: Some(inst(p, i)),
            target: Some(r),
        }
    };
    match a {
        Action::Pass => plain(0, 0, None),
        Action::Yes => plain(1, 0, None),
        Action::Mulligan(l) => plain(2, cid(l), Some(cid(l))),
        Action::Homebase(l) => plain(3, cid(l), Some(cid(l))),
        Action::Deploy(l) => plain(4, cid(l), Some(cid(l))),
        Action::Dispatch(l) => plain(5, cid(l), Some(cid(l))),
        Action::DispatchPut(l) => plain(6, cid(l), Some(cid(l))),
        Action::Event {
            card,
            from_homebase,
        } => plain(7, cid(card) + n * u32::from(from_homebase), Some(cid(card))),
        Action::Arts {
            card,
            from_homebase,
        } => plain(8, cid(card) + n * u32::from(from_homebase), Some(cid(card))),
        Action::Base(l) => plain(9, cid(l), Some(cid(l))),
        Action::Craft { inst: i, ability } => {
            // The craft's place among the card's crafts (decision T-RES-12: at most 4).
            let abilities = &g.card(mine.card[i as usize]).abilities;
            let j = abilities[..usize::from(ability)]
                .iter()
                .filter(|ab| ab.trigger == Trigger::Act)
                .count() as u32;
            let on_field = mine.field & (1u64 << i) != 0;
            let (place, target) = if on_field {
                (rank(mine, i), Some(rank(mine, i)))
            } else {
                (MAX_CARDS as u32 + up_rank(mine, i), None)
            };
            ActionCode {
                kind: 10,
                arg: place * MAX_CRAFTS as u32 + j,
                card: Some(inst(mine, i)),
                target,
            }
        }
        Action::Attack(i) => at(11, mine, i),
        Action::Join(i) => at(12, mine, i),
        Action::TargetUnit(i) => at(13, opp, i),
        Action::TargetPlayer => plain(14, 0, None),
        Action::Support(i) => at(15, mine, i),
        Action::FightBack(i) => at(16, opp, i),
        Action::Cure(i) => at(17, mine, i),
        Action::Choose { seat, inst: i } if seat == me => at(18, mine, i),
        Action::Choose { inst: i, .. } => at(19, opp, i),
        Action::PlanTop(l) => plain(20, cid(l), Some(cid(l))),
        Action::PlanBottom(l) => plain(21, cid(l), Some(cid(l))),
        Action::Rebuild { card, face_up } => {
            plain(22, cid(card) + n * u32::from(face_up), Some(cid(card)))
        }
        Action::Mode(k) if matches!(s.pending, Pending::Orgs { .. }) => {
            plain(24, u32::from(k), None)
        }
        Action::Mode(k) => plain(23, u32::from(k), None),
        Action::Pick { seat, card, up } => plain(
            if seat == me { 25 } else { 26 },
            cid(card) + n * u32::from(up),
            Some(cid(card)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tensor::ActionSpace;
    use crate::core::{ActionList, Game};
    use crate::games::trails::scenario::Scenario;

    /// The position of a scenario (bundled cards), after its actions.
    fn position(text: &str) -> (TrailsGame, State) {
        let sc = Scenario::parse(text, "observe-test", crate::games::trails::bundled_cards())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let (s, illegal) = sc.run();
        assert!(illegal.is_none(), "{illegal:?}");
        (sc.game, s)
    }

    /// Seat `me`'s observation as a slot lookup.
    fn observed(g: &TrailsGame, s: &State, me: Seat) -> (ObsLayout, Vec<f32>) {
        let l = layout(&g.db);
        let mut v = vec![0f32; l.len()];
        let mut o = ObsOut::new(&l, &mut v);
        observe(g, s, me, &mut o);
        assert!(o.done());
        assert_eq!(l.out_of_bounds(&v), None);
        (l, v)
    }

    fn slot<'a>(l: &ObsLayout, v: &'a [f32], name: &str) -> &'a [f32] {
        &v[l.get(name)
            .unwrap_or_else(|| panic!("no slot {name}"))
            .range()]
    }

    /// The non-zero entries of a card-count slot, as (card-file code, count).
    fn counts(g: &TrailsGame, l: &ObsLayout, v: &[f32], name: &str) -> Vec<(String, f32)> {
        slot(l, v, name)
            .iter()
            .enumerate()
            .filter(|(_, &x)| x != 0.0)
            .map(|(id, &x)| (g.db.card(id as u16).code.clone(), x))
            .collect()
    }

    fn codes(list: &[(&str, f32)]) -> Vec<(String, f32)> {
        list.iter().map(|&(c, x)| (c.to_string(), x)).collect()
    }

    /// Card codes TS-001.. are card ids 0.. in the bundled file (its rows in order).
    const POSITION: &str = "
turn: 3
initiative: P1
step: propose
[P1]
bond: 30
ep: 1
hand: Jaeger Scout, Ambush, Ambush (known)
homebase: Old Library (up), 2x Academy Student (actioned), Patrol Officer
field: Jaeger Raider, Jaeger Captain (actioned, +1/+0), Border Guard (stunned)
trail: Syndicate Thug
deck: Patrol Officer (known), 10x Academy Student
[P2]
bond: 35
hand: Jaeger Scout (known), Police Detective
homebase: Ambush (up), Academy Student
field: Guild Junior Bracer (supported), Police Detective (attacked)
trail: 2x Syndicate Thug
deck: 12x Academy Student
";

    /// A hand-built position: every slot's value worked out from the scenario text and the rules.
    #[test]
    fn a_hand_built_position_gives_the_slots_worked_out_by_hand() {
        let (g, s) = position(POSITION);
        assert_eq!(g.db.len(), 117, "the bundled card file");
        let (l, v) = observed(&g, &s, Seat::P1);
        // 7 card-count zones of 117, 2 deck tops, 2 × 12 × (3 + 11) field values, 58 others.
        assert_eq!(l.len(), 7 * 117 + 2 + 2 * 12 * 14 + 58);
        assert_eq!(l.len(), 1215);
        // TS-050 Jaeger Scout, TS-078 Ambush (T-STATE-3: my hand is mine to see).
        assert_eq!(
            counts(&g, &l, &v, "hand"),
            codes(&[("TS-050", 1.0), ("TS-078", 2.0)])
        );
        // T-INFO-2: my face-down homebase: TS-023 Patrol Officer, 2× TS-040 Academy Student.
        assert_eq!(
            counts(&g, &l, &v, "my_homebase"),
            codes(&[("TS-023", 1.0), ("TS-040", 2.0)])
        );
        assert_eq!(counts(&g, &l, &v, "my_face_up"), codes(&[("TS-094", 1.0)]));
        assert_eq!(counts(&g, &l, &v, "opp_face_up"), codes(&[("TS-078", 1.0)]));
        assert_eq!(counts(&g, &l, &v, "my_trail"), codes(&[("TS-057", 1.0)]));
        assert_eq!(counts(&g, &l, &v, "opp_trail"), codes(&[("TS-057", 2.0)]));
        // T-INFO-3: the one card of P2's hand P1 knows; P2's Police Detective in hand is not
        // counted, though a copy of it is in view on P2's field.
        assert_eq!(counts(&g, &l, &v, "opp_known"), codes(&[("TS-050", 1.0)]));
        // T-INFO-2: the top card is known (TS-023, id 22), the second is not.
        assert_eq!(slot(&l, &v, "my_deck_top"), [23.0, 0.0]);
        // My field in the order written: TS-053 Jaeger Raider, TS-055 Jaeger Captain, TS-032
        // Border Guard; empty slots 0.
        assert_eq!(
            slot(&l, &v, "my_field_card"),
            [53.0, 55.0, 32.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
        // Raider 3/2 and Captain 4/3 printed; the Captain's static gives own jaeger UNITs +1/+0
        // (itself too: no `other`), the Captain has +1/+0 until end of turn; the stunned Border
        // Guard (army) keeps its printed 1/4.
        assert_eq!(slot(&l, &v, "my_field_str")[..3], [4.0, 6.0, 1.0]);
        assert_eq!(slot(&l, &v, "my_field_def")[..3], [2.0, 3.0, 4.0]);
        let st = slot(&l, &v, "my_field_status");
        // unit, actioned, stunned, supported, attacked, combat, covert, hate, martial arts,
        // sees covert, once.
        assert_eq!(st[..11], [1., 0., 0., 0., 0., 0., 1., 0., 0., 0., 0.]);
        assert_eq!(st[11..22], [1., 1., 0., 0., 0., 0., 0., 0., 1., 0., 0.]);
        // T-STATE-2: stunned is face down and actioned, and has no icons ([Hate] is gone).
        assert_eq!(st[22..33], [1., 1., 1., 0., 0., 0., 0., 0., 0., 0., 0.]);
        assert!(st[33..].iter().all(|&x| x == 0.0));
        assert_eq!(
            slot(&l, &v, "opp_field_card"),
            [1.0, 26.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(slot(&l, &v, "opp_field_str")[..3], [1.0, 3.0, 0.0]);
        assert_eq!(slot(&l, &v, "opp_field_def")[..3], [2.0, 3.0, 0.0]);
        let st = slot(&l, &v, "opp_field_status");
        assert_eq!(st[..11], [1., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0.]);
        assert_eq!(st[11..22], [1., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0.]);
        let expect: [(&str, &[f32]); 21] = [
            ("bond", &[30.0, 35.0]),
            ("deck_size", &[11.0, 12.0]),
            ("hand_size", &[3.0, 2.0]),
            ("homebase_size", &[4.0, 2.0]),
            // T-RES-1: Old Library and Patrol Officer are ready; both of P2's.
            ("ready_homebase", &[2.0, 2.0]),
            ("field_size", &[3.0, 2.0]),
            ("cp", &[0.0, 0.0]),
            ("ep", &[1.0, 0.0]),
            ("always_used", &[0.0, 0.0]),
            ("opp_knows_my_hand", &[1.0]),
            ("turn", &[3.0]),
            ("i_have_initiative", &[1.0]),
            ("i_decide", &[1.0]),
            // Step I (propose) is the fifth step.
            (
                "step",
                &[0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
            ),
            ("pending", &[1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]),
            ("choice_left", &[0.0, 0.0]),
            ("resolving", &[0.0, 0.0]),
            ("combat", &[0.0, 0.0, 0.0, 0.0]),
            ("passes", &[0.0, 0.0]),
            ("mulligan_count", &[0.0]),
            ("my_deck_top", &[23.0, 0.0]),
        ];
        for (name, want) in expect {
            assert_eq!(slot(&l, &v, name), want, "{name}");
        }

        // The other seat: the same position from P2, "my" and "opp" swapped.
        let (l, w) = observed(&g, &s, Seat::P2);
        assert_eq!(
            counts(&g, &l, &w, "hand"),
            codes(&[("TS-026", 1.0), ("TS-050", 1.0)])
        );
        assert_eq!(counts(&g, &l, &w, "my_homebase"), codes(&[("TS-040", 1.0)]));
        // T-INFO-3: P2 knows one Ambush of P1's hand; not P1's deck card (T-INFO-2: P1's).
        assert_eq!(counts(&g, &l, &w, "opp_known"), codes(&[("TS-078", 1.0)]));
        assert_eq!(slot(&l, &w, "my_deck_top"), [0.0, 0.0]);
        assert_eq!(slot(&l, &w, "bond"), [35.0, 30.0]);
        assert_eq!(slot(&l, &w, "opp_knows_my_hand"), [1.0]);
        assert_eq!(slot(&l, &w, "i_have_initiative"), [0.0]);
        assert_eq!(slot(&l, &w, "i_decide"), [0.0]);
        assert_eq!(slot(&l, &w, "my_field_card")[..2], [1.0, 26.0]);
        assert_eq!(slot(&l, &w, "opp_field_str")[..3], [4.0, 6.0, 1.0]);
    }

    /// The codes of the legal actions of a position, sorted by stable id, with their features.
    fn legal_codes(g: &TrailsGame, s: &State) -> Vec<(u32, ActionCode)> {
        let space = ActionSpace::new(kinds(&g.db));
        let mut list = ActionList::new();
        g.legal_actions(s, &mut list);
        let mut v: Vec<(u32, ActionCode)> = list
            .iter()
            .map(|&a| {
                let c = code(g, s, a);
                (space.id(c).expect("in the space"), c)
            })
            .collect();
        v.sort_by_key(|x| x.0);
        v
    }

    fn ac(kind: u16, arg: u32, card: Option<u32>, target: Option<u32>) -> ActionCode {
        ActionCode {
            kind,
            arg,
            card,
            target,
        }
    }

    /// Step I of the hand-built position: pass, attack with the ready Jaeger Raider (T-COMBAT-2;
    /// the Captain is actioned, the Border Guard stunned), the EVENT Ambush from hand (2 EP of
    /// the 3 available: the pool's 1 and two ready homebase cards, T-RES-2, T-RES-7), and the
    /// face-up BASE Old Library's craft (1 EP, T-RES-5).
    #[test]
    fn the_actions_of_a_hand_built_position_have_the_ids_worked_out_by_hand() {
        let (g, s) = position(POSITION);
        let n = 117;
        // The blocks: pass 1, yes 1, mulligan n, homebase n, deploy n, dispatch n, dispatch_put
        // n, event 2n, arts 2n, base n, craft 400, attack 50, ...
        let event = 2 + 5 * n;
        let craft = 2 + 10 * n;
        let attack = craft + 400;
        // The whole space: 18 blocks of card ids (5 + 2 + 2 + 1 + 1 + 1 + 2 + 2 + 2) and
        // 2 + 400 + 8 × 50 + 1 + 4 + 16 ids more.
        assert_eq!(ActionSpace::new(kinds(&g.db)).len(), 18 * 117 + 823);
        assert_eq!(
            legal_codes(&g, &s),
            vec![
                (0, ac(0, 0, None, None)),
                // TS-078 Ambush is card id 77.
                (event + 77, ac(7, 77, Some(77), None)),
                // Old Library (TS-094, id 93), the first face-up homebase card, craft 0.
                (craft + 200, ac(10, 200, Some(93), None)),
                // The Raider (TS-053, id 52) is my field's first card.
                (attack, ac(11, 0, Some(52), Some(0))),
            ]
        );
    }

    /// The group step of an attack by P1's Jaeger Raider ([Covert]): it may attack only P2's
    /// [Covert] Jaeger Scout (T-ICON-COVERT), the second card of P2's field, not the player
    /// (T-COMBAT-2); P1's Jaeger Scout, jaeger and [Covert], may join (T-SCLM-1, T-SCLM-5), the
    /// Police Detective may not (no shared organization).
    #[test]
    fn the_opponents_field_cards_are_numbered_as_their_slots() {
        let (g, s) = position(
            "
turn: 2
initiative: P1
step: group
attacker: P1
attackers: Jaeger Raider
[P1]
field: Police Detective, Jaeger Raider (actioned), Jaeger Scout
deck: 5x Academy Student
[P2]
field: Guild Junior Bracer, Jaeger Scout
deck: 5x Academy Student
",
        );
        let n = 117;
        let attack = 2 + 10 * n + 400;
        let (join, target_unit) = (attack + 50, attack + 100);
        assert_eq!(
            legal_codes(&g, &s),
            vec![
                // My Jaeger Scout (TS-050, id 49) is my field's third card.
                (join + 2, ac(12, 2, Some(49), Some(2))),
                // P2's Jaeger Scout is P2's second.
                (target_unit + 1, ac(13, 1, Some(49), Some(1))),
            ]
        );
        let (l, v) = observed(&g, &s, Seat::P1);
        // The group step: I attack with one UNIT (in the combat), against no target yet.
        assert_eq!(slot(&l, &v, "combat"), [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(slot(&l, &v, "my_field_status")[11 + 5], 1.0);
        assert_eq!(slot(&l, &v, "step")[5], 1.0);
    }

    /// A choice inside an effect: the Police Detective's craft (`act[self_action]: action
    /// target enemy unit cost<=3`, T-RES-5) asks P1 for a UNIT of P2 of cost 3 or less: the Guild
    /// Junior Bracer (cost 1) and the Border Guard (cost 2), P2's first and second field cards,
    /// not the Jaeger Captain (cost 4).
    #[test]
    fn an_effects_choice_is_a_pending_target_with_the_opponents_places() {
        let (g, s) = position(
            "
turn: 2
initiative: P1
step: propose
[P1]
field: Police Detective
deck: 5x Academy Student
[P2]
field: Guild Junior Bracer, Border Guard, Jaeger Captain
deck: 5x Academy Student
[actions]
craft Police Detective
",
        );
        let n = 117;
        let choose_opp = 2 + 10 * n + 400 + 351;
        assert_eq!(
            legal_codes(&g, &s),
            vec![
                // TS-001 Guild Junior Bracer (id 0), TS-032 Border Guard (id 31).
                (choose_opp, ac(19, 0, Some(0), Some(0))),
                (choose_opp + 1, ac(19, 1, Some(31), Some(1))),
            ]
        );
        let (l, v) = observed(&g, &s, Seat::P1);
        // Pending: a target (the second of the one-hot); resolving: TS-026 (id 25), mine.
        assert_eq!(
            slot(&l, &v, "pending"),
            [0., 1., 0., 0., 0., 0., 0., 0., 0., 0., 0.]
        );
        assert_eq!(slot(&l, &v, "resolving"), [26.0, 1.0]);
        assert_eq!(slot(&l, &v, "i_decide"), [1.0]);
        // T-RES-10: a craft is an "always" action; its cost actioned the Detective.
        assert_eq!(slot(&l, &v, "always_used"), [1.0, 0.0]);
        assert_eq!(slot(&l, &v, "my_field_status")[1], 1.0);
        let (l, w) = observed(&g, &s, Seat::P2);
        assert_eq!(slot(&l, &w, "resolving"), [26.0, 0.0]);
        assert_eq!(slot(&l, &w, "i_decide"), [0.0]);
    }

    /// `docs/observation.md` stays true: its Trails tables name every slot and every kind of
    /// action in order, with their lengths and bounds (`cards` is the card file's size).
    #[test]
    fn the_documented_tables_are_the_layout_and_the_kinds() {
        let doc = include_str!("../../../docs/observation.md");
        let start = doc.find("## Trails TCG").expect("the Trails section");
        let end = start + doc[start..].find("<!--").expect("the next section");
        let cards = crate::games::trails::bundled_cards();
        let n = cards.len() as f32;
        let num = |x: &str| -> f32 {
            let x = x.trim().replace('−', "-");
            x.split(" × ")
                .map(|f| {
                    if f == "cards" {
                        n
                    } else {
                        f.parse::<f32>().unwrap_or_else(|_| panic!("{x}"))
                    }
                })
                .product()
        };
        let mut slots = Vec::new();
        let mut ids = Vec::new();
        for row in doc[start..end].lines().filter(|l| l.starts_with("| `")) {
            let cols: Vec<&str> = row.split(" | ").collect();
            let name = cols[0]
                .trim_start_matches("| `")
                .trim_end_matches('`')
                .to_string();
            if cols.len() == 4 {
                // A slot: name, length, bounds `low–high`, what.
                let (lo, hi) = cols[2].rsplit_once('–').expect("bounds low–high");
                slots.push((name, num(cols[1]), num(lo), num(hi)));
            } else {
                ids.push((name, num(cols[1])));
            }
        }
        let l = layout(&cards);
        let want: Vec<(String, f32, f32, f32)> = l
            .slots()
            .iter()
            .map(|s| (s.name.to_string(), s.len as f32, s.low, s.high))
            .collect();
        assert_eq!(slots, want);
        let want: Vec<(String, f32)> = kinds(&cards)
            .iter()
            .map(|k| (k.name.to_string(), k.args as f32))
            .collect();
        assert_eq!(ids, want);
    }
}
