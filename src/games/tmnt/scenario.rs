//! TMNT scenarios (`docs/scenario.md`, "TMNT scenarios"): stacked decks, actions in the
//! notation, expectations about the position reached.

use super::cards::{CardDb, CardId};
use super::state::State;
use super::TmntGame;
use crate::core::def::{take_listed, unplaced_cards, GameDef, ScenarioReport, MAX_POSITION_TURN};
use crate::core::input::excerpt;
use crate::core::scenario::{
    listed, load_cards, name_list, play_and_check, problem, put_line, read_sections, report,
    winner_text, with_power, CardForms, ExpectRules,
};
use crate::core::InputError;
use crate::core::{Game, Seat};
use std::path::Path;

fn seat_word(w: &str) -> Option<Seat> {
    Seat::from_name(w)
}

/// The values of the `reason` expectation: a TMNT game ends only by a deck-out here (M-WIN-1),
/// so [`observe`] says `deck` or `none`.
const REASONS: &[&str] = &["deck", "none"];

/// The values of the `step` expectation: every name of a decision's step ([`observe`], the
/// state's `Step::name`).
const STEPS: &[&str] = &[
    "discard", "set", "event", "item", "pay", "attack", "counter", "keep", "order", "choose",
    "salvage", "mode", "may", "take", "arrange", "activate", "over",
];

/// The cards that the value `v` of expectation key `words` names, as [`observe`] writes them
/// ([`ExpectRules::names`]); `None` for a key that names none.
fn names_in(words: &[&str], v: &str) -> Option<CardForms> {
    let seat = |w: &str| seat_word(w).is_some();
    let items = |sep: char| {
        v.split(sep)
            .map(str::trim)
            .filter(|x| {
                !x.is_empty()
                    && !x.eq_ignore_ascii_case("none")
                    && !x.eq_ignore_ascii_case("empty")
                    && !x.eq_ignore_ascii_case("(down)")
            })
            .map(|x| {
                let x = match x.get(..6) {
                    Some(d) if d.eq_ignore_ascii_case("(down)") => x[6..].trim(),
                    _ => x,
                };
                with_power(x)
            })
            .collect()
    };
    Some(match words {
        ["hand" | "trash" | "items", w] | ["deck", "cards", w] | ["known", w] if seat(w) => {
            name_list(v)
        }
        ["known", _, w] | ["known", _, w, "by", _] if seat(w) => name_list(v),
        // `NAME POWER` face up, `(down) NAME` face down, `empty`.
        ["blocks", w] if seat(w) => items('|'),
        ["attack", "zone", w] if seat(w) => items(','),
        _ => return None,
    })
}

/// The value of expectation `key` in `s`, or `None` for an unknown key.
fn observe(g: &TmntGame, s: &State, key: &str) -> Option<String> {
    let words: Vec<&str> = key.split_whitespace().collect();
    let seat = words.last().and_then(|w| seat_word(w));
    let legal = || crate::core::def::legal_texts(g, s);
    let names = |q: Seat, m: u64| {
        let v = g.sorted_names(s, q, m);
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    Some(match (words.as_slice(), seat) {
        (["winner"], _) => winner_text(s.winner),
        (["reason"], _) => match s.winner {
            None => "none".into(),
            _ => "deck".into(),
        },
        (["turn"], _) => s.turn.to_string(),
        (["active"], _) => s.active.to_string(),
        (["to", "move"], _) => g.to_move(s).map_or("none".into(), |q| q.to_string()),
        (["step"], _) => s.step.name().into(),
        (["legal"], _) => legal().join("; "),
        (["deck", _], Some(q)) => s.pl(q).deck_len.to_string(),
        // The deck, top first.
        (["deck", "cards", _], Some(q)) => {
            let p = s.pl(q);
            let v: Vec<String> = p
                .deck()
                .iter()
                .rev()
                .map(|&i| g.card_label(p.card[i as usize]))
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        }
        // `known ZONE P1 [by P2]`: the cards of P1's hand, face-down Block cards or deck that a
        // seat (by default P1's opponent) knows, sorted (M-INFO-1, M-INFO-5).
        (["known", zone, w], _) | (["known", zone, w, "by", _], _) if *zone != "by" => {
            let q = seat_word(w)?;
            let by = match words.as_slice() {
                [_, _, _, _, b] => seat_word(b)?,
                _ => q.other(),
            };
            let p = s.pl(q);
            let m = match *zone {
                "hand" => p.hand,
                "blocks" => p.blocks_mask() & !p.up,
                "deck" => p.deck_mask(),
                _ => return None,
            };
            names(q, m & p.known[by.index()])
        }
        // The cards of the player's hand, face-down Block cards and deck its opponent knows.
        (["known", _], Some(q)) => {
            let p = s.pl(q);
            let hidden = p.hand | (p.blocks_mask() & !p.up) | p.deck_mask();
            names(q, hidden & p.known[q.other().index()])
        }
        (["hand", "count", _], Some(q)) => s.pl(q).hand.count_ones().to_string(),
        (["trash", "count", _], Some(q)) => s.pl(q).trash.count_ones().to_string(),
        (["hand", _], Some(q)) => names(q, s.pl(q).hand),
        (["trash", _], Some(q)) => names(q, s.pl(q).trash),
        (["items", _], Some(q)) => names(q, s.pl(q).items),
        (["blocks", _], Some(q)) => g.blocks_label(s, q, true),
        (["attack", "zone", _], Some(q)) => g.attack_zone_label(s, q),
        _ => return None,
    })
}

/// Plays a TMNT scenario: its header (`cards`, each seat's deck `P1: …`, on the frame of
/// [`crate::core::scenario`]), actions, `[position]` and expectations.
pub fn run(
    text: &str,
    file: &str,
    dir: &Path,
    cards: Option<CardDb>,
) -> Result<ScenarioReport, InputError> {
    let mut db = cards;
    let mut decks: [Option<(usize, String)>; 2] = [None, None];
    let sc = read_sections(text, file, |n, k, v| {
        if k == "cards" {
            return load_cards(&mut db, dir, v, CardDb::parse);
        }
        let words: Vec<&str> = k.split_whitespace().collect();
        let slot = match words.as_slice() {
            [w] => seat_word(w).map(|q| &mut decks[q.index()]),
            _ => None,
        };
        put_line(slot, file, n, k, v)
    })?;
    let db = db.unwrap_or_else(TmntGame::bundled_cards);
    let mut decks_ids: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for q in Seat::ALL {
        let k = q.index();
        let n;
        (n, decks_ids[k]) = listed(
            &decks[k],
            file,
            || format!("{q}: the deck is missing (`{q}: CARD, 3*CARD, …`, top first)"),
            |name| db.lookup(name),
        )?;
        if !(10..=40).contains(&decks_ids[k].len()) {
            return Err(problem(
                file,
                n,
                format!(
                    "{q}: a scenario deck has 10 to 40 cards (5 in hand, 4 Block cards, 1 to draw)"
                ),
            ));
        }
    }
    let mut db = db;
    let ids: Vec<CardId> = decks_ids.iter().flatten().copied().collect();
    db.narrow_to(&ids);
    let g = TmntGame {
        db,
        decks: decks_ids,
    };
    // The actions before `[position]`, the position written (at the start of a turn: then the
    // engine goes on to the first decision), the actions after it.
    let mut s = if sc.position.is_some_and(|x| x.1 == 0) {
        g.setup_with(0, sc.first, false)
    } else {
        g.setup_stacked(sc.first)
    };
    let edit = |s: &mut State, head| {
        edit_position(&g, s, &sc.pos, file, head)?;
        g.advance(s);
        Ok(())
    };
    let lookup = |name: &str| g.db.lookup(name);
    let rules = ExpectRules {
        reasons: REASONS,
        steps: STEPS,
        names: &names_in,
        lookup: &lookup,
    };
    let (illegal, failed) = play_and_check(&g, &mut s, &sc, file, &rules, edit, |s, k| {
        observe(&g, s, k)
    })?;
    /// One seat in the report.
    #[derive(serde::Serialize)]
    struct Side {
        deck: u8,
        hand: Vec<String>,
        blocks: String,
        attack_zone: String,
        items: Vec<String>,
        trash: Vec<String>,
    }
    let side = |q: Seat| {
        let p = s.pl(q);
        Side {
            deck: p.deck_len,
            hand: g.sorted_names(&s, q, p.hand),
            blocks: g.blocks_label(&s, q, true),
            attack_zone: g.attack_zone_label(&s, q),
            items: g.sorted_names(&s, q, p.items),
            trash: g.sorted_names(&s, q, p.trash),
        }
    };
    let head = (s.turn, s.active, s.step.name());
    Ok(report(&g, &s, head, side, &sc, illegal, failed))
}

/// The zones a `[position]` writes, in the order their cards are taken from the deck list.
const ZONE_KEYS: [&str; 5] = ["hand", "blocks", "items", "trash", "deck"];

const POSITION_KEYS: &str = "turn, active, or hand, blocks, items, trash, deck + P1/P2";

/// Edits `s` as the `[position]` lines `pos` (line, key, value) say (`docs/scenario.md`, "TMNT
/// positions"): the position at the start of turn `turn` of `active`, before its Adjust phase;
/// the caller then advances. `head` is the line of the section, which an invariant's error names.
fn edit_position(
    g: &TmntGame,
    s: &mut State,
    pos: &[(usize, String, String)],
    file: &str,
    head: usize,
) -> Result<(), InputError> {
    use super::state::{Bits, Frame, Pick, Stage, Step, TurnFx, DECK, NONE, ZONES};
    // Each written zone: its line and its cards (card, face up) in order; Block Zones may be
    // empty (`None`).
    type Written = (usize, Vec<Option<(CardId, bool)>>);
    let mut zones: [[Option<Written>; 5]; 2] = Default::default();
    let mut once = std::collections::BTreeSet::new();
    for (n, k, v) in pos {
        let n = *n;
        let words: Vec<&str> = k.split_whitespace().collect();
        match words.as_slice() {
            [key @ ("turn" | "active")] if !once.insert(*key) => {
                return Err(problem(file, n, format!("{key}: given twice")));
            }
            ["turn"] => {
                s.turn = crate::core::input::parse_int(v, 1u16, MAX_POSITION_TURN)
                    .map_err(|e| problem(file, n, format!("turn: {e}")))?
            }
            ["active"] => {
                s.active = seat_word(v).ok_or_else(|| problem(file, n, "active: P1 or P2"))?
            }
            [zone, w] if seat_word(w).is_some() => {
                let q = seat_word(w).expect("a seat");
                let z = ZONE_KEYS.iter().position(|x| x == zone).ok_or_else(|| {
                    problem(
                        file,
                        n,
                        format!("unknown position key \"{}\" ({POSITION_KEYS})", excerpt(k)),
                    )
                })?;
                let mut cards = Vec::new();
                if z == 1 {
                    // `NAME` face up, `(down) NAME` face down, `empty`; Block Zone 1 first.
                    let parts: Vec<&str> = v.split('|').map(str::trim).collect();
                    if parts.len() > ZONES {
                        return Err(problem(file, n, format!("{k}: 4 Block Zones at most")));
                    }
                    for part in parts {
                        if part.eq_ignore_ascii_case("empty") || part.is_empty() {
                            cards.push(None);
                            continue;
                        }
                        let (name, up) = match part.strip_prefix("(down)") {
                            Some(x) => (x.trim(), false),
                            None => (part, true),
                        };
                        let id = g.db.lookup(name).map_err(|e| problem(file, n, e))?;
                        cards.push(Some((id, up)));
                    }
                } else {
                    let list =
                        crate::core::input::marked_list(v).map_err(|e| problem(file, n, e))?;
                    for (name, marks) in list {
                        let id = g.db.lookup(&name).map_err(|e| problem(file, n, e))?;
                        let ok: &[&str] = if z == 0 { &["known"] } else { &[] };
                        if let Some(m) = marks.iter().find(|m| !ok.contains(&m.as_str())) {
                            return Err(problem(
                                file,
                                n,
                                format!(
                                    "{k}: unknown mark \"{}\" (here: {})",
                                    excerpt(m),
                                    if ok.is_empty() { "none" } else { "known" }
                                ),
                            ));
                        }
                        // `known` rides on the face-up flag: the opponent knows this hand card.
                        cards.push(Some((id, !marks.is_empty())));
                    }
                }
                let slot = &mut zones[q.index()][z];
                if slot.is_some() {
                    return Err(problem(file, n, format!("{k}: given twice")));
                }
                *slot = Some((n, cards));
            }
            _ => {
                return Err(problem(
                    file,
                    n,
                    format!("unknown position key \"{}\" ({POSITION_KEYS})", excerpt(k)),
                ))
            }
        }
    }
    // The start of a turn: nothing placed, resolving or pending; this turn's changes gone.
    for q in Seat::ALL {
        let p = s.pl_mut(q);
        let az = p.attack_zone().iter().fold(0u64, |m, &i| m | 1u64 << i);
        // Cards in the Attack Zone go to the Trash, as at the end of a Result step.
        p.trash |= az;
        p.known = p.known.map(|m| m | az);
        p.attack = [NONE; super::state::ATTACK_ZONE];
        p.attack_len = 0;
        p.temp = [0; DECK];
        p.bonus = 0;
        p.trashed = false;
        p.kept = NONE;
        p.fx = TurnFx::NONE;
    }
    if s.event != NONE {
        let (q, b) = (s.active, 1u64 << s.event);
        let p = s.pl_mut(q);
        p.trash |= b;
        p.known = p.known.map(|m| m | b);
        s.event = NONE;
    }
    for q in Seat::ALL {
        let k = q.index();
        let written = &zones[k];
        if written.iter().all(Option::is_none) {
            continue;
        }
        let p = *s.pl(q);
        let all = crate::core::hidden::first_n(usize::from(p.n));
        let current = [p.hand, p.blocks_mask(), p.items, p.trash, p.deck_mask()];
        let mut free = all;
        for z in 0..4 {
            if written[z].is_none() {
                free &= !current[z];
            }
        }
        let mut got: [Vec<Option<(u8, bool)>>; 5] = Default::default();
        for z in 0..5 {
            let Some((n, cards)) = &written[z] else {
                continue;
            };
            for c in cards {
                let Some((id, flag)) = c else {
                    got[z].push(None);
                    continue;
                };
                let i = take_listed(
                    &p.card[..usize::from(p.n)],
                    &mut free,
                    *id,
                    ZONE_KEYS[z],
                    q,
                    &g.card_label(*id),
                )
                .map_err(|e| problem(file, *n, e))?;
                got[z].push(Some((i, *flag)));
            }
        }
        let deck: Vec<u8> = match &written[4] {
            Some((n, _)) => {
                if free != 0 {
                    return Err(problem(
                        file,
                        *n,
                        unplaced_cards(q, &g.sorted_names(s, q, free)),
                    ));
                }
                got[4].iter().flatten().map(|x| x.0).collect()
            }
            None => Bits(free).collect(),
        };
        if deck.is_empty() {
            let n = written[4].as_ref().map_or(head, |x| x.0);
            return Err(problem(
                file,
                n,
                format!(
                    "{q}: an empty deck loses at once (M-WIN-1): a position's deck holds a card"
                ),
            ));
        }
        let mask = |v: &[Option<(u8, bool)>], f: Option<bool>| {
            v.iter()
                .flatten()
                .filter(|x| f.is_none_or(|f| x.1 == f))
                .fold(0u64, |m, x| m | 1u64 << x.0)
        };
        let pm = s.pl_mut(q);
        if written[0].is_some() {
            pm.hand = mask(&got[0], None);
        }
        if written[1].is_some() {
            pm.block = [NONE; ZONES];
            for (z, c) in got[1].iter().enumerate() {
                pm.block[z] = c.map_or(NONE, |x| x.0);
            }
            pm.up = mask(&got[1], Some(true));
        }
        if written[2].is_some() {
            pm.items = mask(&got[2], None);
        }
        if written[3].is_some() {
            pm.trash = mask(&got[3], None);
        }
        pm.milled &= pm.trash;
        pm.deck = [0; DECK];
        pm.deck_len = deck.len() as u8;
        for (j, &i) in deck.iter().rev().enumerate() {
            pm.deck[j] = i;
        }
        // Knowledge (M-INFO-1): the Trash, Item Zone and face-up Block cards are public; a hand
        // and the Block cards are known to their owner (M-SETUP-4), a hand card to the opponent
        // where written `known` (or as it was); the deck to nobody.
        let public = pm.trash | pm.items | pm.up;
        let seen = match &written[0] {
            Some(_) => mask(&got[0], Some(true)),
            None => p.known[k ^ 1] & pm.hand,
        };
        pm.known[k] = public | pm.hand | pm.blocks_mask();
        pm.known[k ^ 1] = public | seen;
    }
    s.stage = if g.db.sets.lang {
        Stage::TurnBegin
    } else {
        Stage::Adjust
    };
    s.step = Step::Set;
    s.chooser = s.active;
    s.cur = Frame::IDLE;
    s.pick = Pick::None;
    s.pending = [0; 2];
    s.pending_n = [[0; DECK]; 2];
    s.waiting = [0; 2];
    s.waiting_n = [[0; DECK]; 2];
    s.queue.clear();
    s.discards = 0;
    s.item = NONE;
    s.attrs_used = 0;
    s.flipped = 0;
    s.total = 0;
    s.counter = 0;
    s.forward = false;
    s.once = [0; 2];
    s.those = [0; 2];
    s.that = NONE;
    s.x = [0; 2];
    s.reduce = 0;
    s.later = Frame::IDLE;
    s.window = 0;
    s.replaced = [0; 2];
    s.spared = [0; 2];
    g.check_invariants(s).map_err(|e| {
        problem(
            file,
            head,
            format!("the [position] breaks a rule of the game: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scenario::observed_values_pass;

    /// Every value TMNT's view writes for the keys the read-time check knows (fixed sets, card
    /// names) passes it, over random games of bundled decks to their ends: the check refuses no
    /// expectation a game can meet; and the games reach the steps and reasons listed.
    #[test]
    fn every_value_the_view_writes_passes_the_read_time_check() {
        let db = super::super::bundled_cards();
        let decks = crate::core::testing::folder_decks::<TmntGame>(
            &db,
            &[
                "starter_north",
                "items_engine",
                "flip_tricks",
                "grove_recall",
            ],
        );
        let lookup = |n: &str| db.lookup(n);
        let rules = ExpectRules {
            reasons: REASONS,
            steps: STEPS,
            names: &names_in,
            lookup: &lookup,
        };
        let keys = [
            "winner",
            "reason",
            "step",
            "turn",
            "active",
            "to move",
            "deck P1",
            "hand count P2",
            "trash count P1",
            "hand P1",
            "trash P2",
            "items P1",
            "items P2",
            "blocks P1",
            "blocks P2",
            "attack zone P1",
            "attack zone P2",
            "deck cards P2",
            "known P1",
            "known hand P2",
            "known blocks P1 by P1",
            "known deck P2 by P2",
        ];
        let seen = observed_values_pass(&db, &decks, 6, &keys, &rules, |g: &TmntGame, s, k| {
            observe(g, s, k)
        });
        assert_eq!(seen["reason"].len(), REASONS.len(), "{:?}", seen["reason"]);
        for step in ["set", "attack", "counter", "keep", "over"] {
            assert!(seen["step"].contains(step), "{step}: {:?}", seen["step"]);
        }
    }
}
