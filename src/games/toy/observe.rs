//! Tensors for learning agents (`docs/observation.md`): what a seat sees of High Card as a vector,
//! and its one kind of action. The model of a game's `observe.rs`: the layout, then `observe`
//! writing the same slots in the same order, then the action codes.
//!
//! X-INFO-1/2: a seat sees its own hand, both players' used cards (face up), the points, who
//! leads, and whether a card was led face down — not which card.

use super::{bits, CardId, Play, ToyCards, ToyGame, ToyState, DECK_SIZE};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::Seat;

/// Points a player can hold: one per round, at most a deck's worth of rounds.
const MAX_POINTS: f32 = DECK_SIZE as f32;

pub fn layout(cards: &ToyCards) -> ObsLayout {
    let n = cards.names.len();
    let copies = DECK_SIZE as f32;
    let mut l = ObsLayout::new();
    l.slot("hand", n, 0.0, copies, "copies of each card id in my hand")
        .slot(
            "my_used",
            n,
            0.0,
            copies,
            "copies of each card id I played in finished rounds (face up)",
        )
        .slot(
            "opp_used",
            n,
            0.0,
            copies,
            "copies of each card id the opponent played in finished rounds (face up)",
        )
        .slot("my_deck", 1, 0.0, copies, "cards in my deck")
        .slot("opp_deck", 1, 0.0, copies, "cards in the opponent's deck")
        .slot("opp_hand", 1, 0.0, copies, "cards in the opponent's hand")
        .slot(
            "points",
            2,
            0.0,
            MAX_POINTS,
            "my points, then the opponent's (X-ROUND-2)",
        )
        .slot(
            "i_lead",
            1,
            0.0,
            1.0,
            "1 when I lead this round (X-ROUND-1)",
        )
        .slot(
            "led",
            1,
            0.0,
            1.0,
            "1 when the leader's card lies face down, waiting for the answer",
        )
        .slot("round", 1, 0.0, 16.0, "the round, from 1");
    l
}

pub fn observe(g: &ToyGame, s: &ToyState, me: Seat, o: &mut ObsOut) {
    let (mine, opp) = (&s.p[me.index()], &s.p[me.other().index()]);
    let ids = |p: &super::Player, mask: u16| {
        let card = p.card;
        bits(mask).map(move |i| usize::from(card[usize::from(i)]))
    };
    o.count("hand", ids(mine, mine.hand));
    o.count("my_used", ids(mine, mine.used));
    o.count("opp_used", ids(opp, opp.used));
    o.scalar("my_deck", f32::from(mine.deck_len));
    o.scalar("opp_deck", f32::from(opp.deck_len));
    o.scalar("opp_hand", opp.hand.count_ones() as f32);
    let p = o.slot("points");
    p[0] = f32::from(mine.points);
    p[1] = f32::from(opp.points);
    o.scalar("i_lead", f32::from(u8::from(s.leader == me)));
    o.scalar("led", f32::from(u8::from(s.led.is_some())));
    o.scalar("round", f32::from(s.round));
    let _ = g;
}

pub fn kinds(cards: &ToyCards) -> Vec<ActionKind> {
    vec![ActionKind {
        name: "play",
        args: cards.names.len() as u32,
        doc: "play a card of this card id from hand (X-ROUND-1)",
    }]
}

pub fn code(a: Play) -> ActionCode {
    let Play(id): Play = a;
    ActionCode {
        kind: 0,
        arg: u32::from(id as CardId),
        card: Some(u32::from(id)),
        target: None,
    }
}
