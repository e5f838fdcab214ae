//! Fire Force scenarios (`docs/scenario.md`, "Fire Force scenarios"): stacked decks, actions in the
//! notation, expectations about the position reached.

use super::cards::{CardDb, CardId};
use super::state::{Bits, Mask40, State};
use super::FireForceGame;
use crate::core::def::{take_listed, unplaced_cards, GameDef, ScenarioReport, MAX_POSITION_TURN};
use crate::core::input::{excerpt, parse_int};
use crate::core::scenario::{
    listed, load_cards, name_list, play_and_check, problem, put_line, read_sections, report,
    strip_word, winner_text, with_power, CardForms, ExpectRules,
};
use crate::core::InputError;
use crate::core::{Game, Seat};
use std::path::Path;

fn seat_word(w: &str) -> Option<Seat> {
    Seat::from_name(w)
}

/// The values of the `reason` expectation ([`observe`]): `life` (F-WIN-1), `deck` (F-WIN-2).
const REASONS: &[&str] = &["life", "deck", "none"];

/// The values of the `step` expectation: every name `FireForceGame::step_label` gives.
const STEPS: &[&str] = &[
    "choose",
    "flame",
    "limit",
    "link",
    "choose card",
    "option",
    "name",
    "may",
    "pay",
    "redraw",
    "setup flame",
    "prep flame",
    "main",
    "target",
    "attacking",
    "block",
    "reaction",
    "support",
    "damage",
    "life trigger",
    "battle end",
    "end",
    "over",
];

/// The cards that the value `v` of expectation key `words` names, as [`observe`] writes them
/// ([`ExpectRules::names`]); `None` for a key that names none.
fn names_in(words: &[&str], v: &str) -> Option<CardForms> {
    let seat = |w: &str| seat_word(w).is_some();
    let labels = || {
        v.split('|')
            .map(str::trim)
            .filter(|x| !x.is_empty() && !x.eq_ignore_ascii_case("none"))
    };
    let cut = |x: &str, words: &[&str]| {
        words
            .iter()
            .fold(x.to_string(), |x, w| strip_word(&x, w).unwrap_or(x))
    };
    Some(match words {
        ["hand" | "adolla", w]
        | ["flame", "deck", w]
        | ["seen", "hand", w]
        | ["deck", "top" | "bottom", w]
            if seat(w) =>
        {
            name_list(v)
        }
        ["known", _, w] | ["known", _, w, "by", _] if seat(w) => name_list(v),
        // `UNIT POWER`, then `exhausted` and `+Flame` when so.
        ["units", w] if seat(w) => labels()
            .map(|x| with_power(&cut(x, &["+Flame", "exhausted"])))
            .collect(),
        // `CARD`, then `(face down)`, `exhausted`, `given to UNIT` when so.
        ["flame", w] if seat(w) => labels()
            .flat_map(|x| {
                let lower = x.to_ascii_lowercase();
                let (card, unit) = match lower.find(" given to ") {
                    Some(k) => (&x[..k], Some(x[k + 10..].trim())),
                    None => (x, None),
                };
                let card = cut(card, &["exhausted", "(face down)"]);
                std::iter::once(vec![card]).chain(unit.map(|u| vec![u.to_string()]))
            })
            .collect(),
        _ => return None,
    })
}

/// The value of expectation `key` in `s`, or `None` for an unknown key.
fn observe(g: &FireForceGame, s: &State, key: &str) -> Option<String> {
    let words: Vec<&str> = key.split_whitespace().collect();
    let seat = words.last().and_then(|w| seat_word(w));
    let legal = || crate::core::def::legal_texts(g, s);
    Some(match (words.as_slice(), seat) {
        (["winner"], _) => winner_text(s.winner),
        (["reason"], _) => match (s.winner, s.win_reason) {
            (None, _) => "none".into(),
            (_, 2) => "deck".into(),
            _ => "life".into(),
        },
        (["turn"], _) => s.turn.to_string(),
        (["active"], _) => s.active.to_string(),
        (["to", "move"], _) => g.to_move(s).map_or("none".into(), |q| q.to_string()),
        (["step"], _) => FireForceGame::step_label(s).into(),
        (["legal"], _) => legal().join("; "),
        (["life", _], Some(q)) => s.pl(q).life_len.to_string(),
        (["deck", _], Some(q)) => s.pl(q).deck_len.to_string(),
        (["hand", "count", _], Some(q)) => s.pl(q).hand.count_ones().to_string(),
        (["hand", _], Some(q)) => g.sorted_names(s, q, s.pl(q).hand).join(", "),
        (["seen", "hand", _], Some(q)) => {
            let p = s.pl(q);
            g.sorted_names(s, q, p.hand & p.known[q.other().index()])
                .join(", ")
        }
        // `known ZONE P1 [by P2]`: the cards of P1's hidden zone that a seat (by default P1's
        // opponent) knows, sorted (F-INFO-1, F-INFO-5, F-INFO-6).
        (["known", zone, w], _) | (["known", zone, w, "by", _], _) => {
            let q = seat_word(w)?;
            let by = match words.as_slice() {
                [_, _, _, _, b] => seat_word(b)?,
                _ => q.other(),
            };
            let p = s.pl(q);
            let m = match *zone {
                "hand" => p.hand,
                "deck" => p.deck_mask(),
                "life" => p.life_mask(),
                _ => return None,
            };
            let v = g.sorted_names(s, q, m & p.known[by.index()]);
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        }
        (["deck", "top", _], Some(q)) => s
            .pl(q)
            .deck()
            .last()
            .map_or("none".into(), |&i| g.card_label(s.pl(q).card[i as usize])),
        (["deck", "bottom", _], Some(q)) => s
            .pl(q)
            .deck()
            .first()
            .map_or("none".into(), |&i| g.card_label(s.pl(q).card[i as usize])),
        (["adolla", _], Some(q)) => g.sorted_names(s, q, s.pl(q).adolla).join(", "),
        (["flame", "deck", _], Some(q)) => g.sorted_names(s, q, s.pl(q).flame_deck).join(", "),
        (["with", "flame", _], Some(q)) => g.with_flame(s, q).count_ones().to_string(),
        (["units", _], Some(q)) => {
            let mut v: Vec<String> = Bits(s.pl(q).units())
                .map(|u| g.unit_label(s, q, u))
                .collect();
            v.sort();
            v.join(" | ")
        }
        (["flame", _], Some(q)) => {
            let mut v: Vec<String> = Bits(s.pl(q).flame_cards())
                .map(|i| g.flame_label(s, q, i))
                .collect();
            v.sort();
            v.join(" | ")
        }
        _ => return None,
    })
}

/// Plays a Fire Force scenario: its header (`seed`, `cards`, each seat's deck `P1: …` and Flame
/// deck `P1 flame: …`, on the frame of [`crate::core::scenario`]), actions, `[position]` and
/// expectations.
pub fn run(
    text: &str,
    file: &str,
    dir: &Path,
    cards: Option<CardDb>,
) -> Result<ScenarioReport, InputError> {
    let mut seed = 0u64;
    let mut db = cards;
    let mut decks: [Option<(usize, String)>; 2] = [None, None];
    let mut flames: [Option<(usize, String)>; 2] = [None, None];
    let sc = read_sections(text, file, |n, k, v| {
        match k {
            "seed" => {
                seed = parse_int(v, 0u64, u64::MAX)
                    .map_err(|e| problem(file, n, format!("seed: {e}")))?
            }
            "cards" => load_cards(&mut db, dir, v, CardDb::parse)?,
            _ => {
                let words: Vec<&str> = k.split_whitespace().collect();
                let slot = match words.as_slice() {
                    [w] => seat_word(w).map(|q| &mut decks[q.index()]),
                    [w, "flame"] => seat_word(w).map(|q| &mut flames[q.index()]),
                    _ => None,
                };
                put_line(slot, file, n, k, v)?;
            }
        }
        Ok(())
    })?;
    let db = db.unwrap_or_else(FireForceGame::bundled_cards);
    let mut main: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    let mut flame: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for q in Seat::ALL {
        let k = q.index();
        let n;
        (n, main[k]) = listed(
            &decks[k],
            file,
            || format!("{q}: the deck is missing (`{q}: CARD, 3*CARD, …`, top first)"),
            |name| db.lookup(name),
        )?;
        if !(11..=40).contains(&main[k].len()) {
            return Err(problem(
                file,
                n,
                format!("{q}: a scenario deck has 11 to 40 cards (5 in hand, 5 Life, 1 to draw)"),
            ));
        }
        if let Some(i) = main[k]
            .iter()
            .position(|&c| db.card(c).ctype == super::cards::CardType::Flame)
        {
            return Err(problem(
                file,
                n,
                format!("{q}: card {} is a Flame card (F-DECK-3)", i + 1),
            ));
        }
        let n;
        (n, flame[k]) = listed(
            &flames[k],
            file,
            || format!("{q}: the Flame deck is missing (`{q} flame: CARD, …`)"),
            |name| db.lookup(name),
        )?;
        if flame[k].len() > super::state::FLAME_DECK
            || flame[k]
                .iter()
                .any(|&c| db.card(c).ctype != super::cards::CardType::Flame)
        {
            return Err(problem(
                file,
                n,
                format!("{q}: a Flame deck holds at most 5 Flame cards"),
            ));
        }
    }
    let g = FireForceGame::new(db, main, flame);
    let mut s = g.setup_stacked(seed, sc.first);
    let lookup = |name: &str| g.db.lookup(name);
    let rules = ExpectRules {
        reasons: REASONS,
        steps: STEPS,
        names: &names_in,
        lookup: &lookup,
    };
    let (illegal, failed) = play_and_check(
        &g,
        &mut s,
        &sc,
        file,
        &rules,
        |s, head| edit_position(&g, s, &sc.pos, file, head),
        |s, k| observe(&g, s, k),
    )?;
    /// One seat in the report.
    #[derive(serde::Serialize)]
    struct Side {
        life: u8,
        deck: u8,
        hand: Vec<String>,
        units: Vec<String>,
        flame: Vec<String>,
        adolla: Vec<String>,
        flame_deck: Vec<String>,
    }
    let side = |q: Seat| {
        let p = s.pl(q);
        Side {
            life: p.life_len,
            deck: p.deck_len,
            hand: g.sorted_names(&s, q, p.hand),
            units: Bits(p.units()).map(|u| g.unit_label(&s, q, u)).collect(),
            flame: Bits(p.flame_cards())
                .map(|i| g.flame_label(&s, q, i))
                .collect(),
            adolla: g.sorted_names(&s, q, p.adolla),
            flame_deck: g.sorted_names(&s, q, p.flame_deck),
        }
    };
    let head = (s.turn, s.active, FireForceGame::step_label(&s));
    Ok(report(&g, &s, head, side, &sc, illegal, failed))
}

/// The main-deck zones a `[position]` writes, in the order their cards are taken from the deck
/// list.
const MAIN_ZONES: [&str; 5] = ["hand", "units", "adolla", "life", "deck"];

const POSITION_KEYS: &str = "turn, active, step, or hand, units, adolla, life, deck, flame + P1/P2";

/// One written zone: the line, and each card with its marks.
type Written = (usize, Vec<(CardId, Vec<String>)>);

/// Edits `s` as the `[position]` lines `pos` (line, key, value) say (`docs/scenario.md`, "Fire
/// Force positions"); the position must keep the game's invariants. `head` is the line of the
/// section, which an invariant's error names.
fn edit_position(
    g: &FireForceGame,
    s: &mut State,
    pos: &[(usize, String, String)],
    file: &str,
    head: usize,
) -> Result<(), InputError> {
    use super::state::{Battle, Pick, Step, FLAME_BASE, FLAME_MASK, NONE};
    let mut turn = None;
    let mut active = None;
    let mut main_step = None;
    let mut zones: [[Option<Written>; 5]; 2] = Default::default();
    let mut flame: [Option<Written>; 2] = [None, None];
    for (n, k, v) in pos {
        let n = *n;
        let words: Vec<&str> = k.split_whitespace().collect();
        match words.as_slice() {
            [key @ ("turn" | "active" | "step")]
                if match *key {
                    "turn" => turn.is_some(),
                    "active" => active.is_some(),
                    _ => main_step.is_some(),
                } =>
            {
                return Err(problem(file, n, format!("{key}: given twice")));
            }
            ["turn"] => {
                turn = Some(
                    parse_int(v, 1u16, MAX_POSITION_TURN)
                        .map_err(|e| problem(file, n, format!("turn: {e}")))?,
                )
            }
            ["active"] => {
                active = Some(seat_word(v).ok_or_else(|| problem(file, n, "active: P1 or P2"))?)
            }
            ["step"] => {
                if !v.eq_ignore_ascii_case("main") {
                    return Err(problem(
                        file,
                        n,
                        format!("step: only `main` can be written, found \"{}\"", excerpt(v)),
                    ));
                }
                main_step = Some(n);
            }
            [zone, w] if seat_word(w).is_some() => {
                let q = seat_word(w).expect("a seat");
                if *zone != "flame" && !MAIN_ZONES.contains(zone) {
                    return Err(problem(
                        file,
                        n,
                        format!("unknown position key \"{}\" ({POSITION_KEYS})", excerpt(k)),
                    ));
                }
                let list = crate::core::input::marked_list(v).map_err(|e| problem(file, n, e))?;
                let allowed: &[&str] = match *zone {
                    "hand" => &["known"],
                    "units" => &["exhausted", "ready", "dispatched"],
                    "flame" => &["exhausted", "ready"],
                    _ => &[],
                };
                let mut cards = Vec::new();
                for (name, marks) in list {
                    let id = g.db.lookup(&name).map_err(|e| problem(file, n, e))?;
                    if let Some(m) = marks.iter().find(|m| !allowed.contains(&m.as_str())) {
                        return Err(problem(
                            file,
                            n,
                            format!(
                                "{k}: unknown mark \"{}\" (here: {})",
                                excerpt(m),
                                if allowed.is_empty() {
                                    "none".into()
                                } else {
                                    allowed.join(", ")
                                }
                            ),
                        ));
                    }
                    cards.push((id, marks));
                }
                let slot = if *zone == "flame" {
                    &mut flame[q.index()]
                } else {
                    // A zone of MAIN_ZONES: the key was checked on entering this arm.
                    let z = MAIN_ZONES.iter().position(|z| z == zone).unwrap_or(0);
                    &mut zones[q.index()][z]
                };
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
    if main_step.is_none() && (turn.is_some() || active.is_some()) {
        let n = pos
            .iter()
            .find(|(_, k, _)| k == "turn" || k == "active")
            .map_or(head, |x| x.0);
        return Err(problem(
            file,
            n,
            "`turn` and `active` are written with `step: main`",
        ));
    }
    for q in Seat::ALL {
        let k = q.index();
        let written = &zones[k];
        let touched = written.iter().any(Option::is_some) || flame[k].is_some();
        if written.iter().any(Option::is_some) {
            let p = *s.pl(q);
            let n_main = usize::from(p.n_main);
            let all = crate::core::hidden::first_n(n_main);
            let current = [p.hand, p.units(), p.adolla, p.life_mask(), p.deck_mask()];
            // Unwritten zones (but the deck) keep their cards; written zones take theirs from
            // the rest, the lowest instance of each card first.
            let mut free = all;
            for z in 0..4 {
                if written[z].is_none() {
                    free &= !current[z];
                }
            }
            if written[1].is_none() {
                free &= !(p.scene & all);
            }
            let mut got: [Vec<(u8, Vec<String>)>; 5] = Default::default();
            for z in 0..5 {
                let Some((n, cards)) = &written[z] else {
                    continue;
                };
                for (id, marks) in cards {
                    let i = take_listed(
                        &p.card[..n_main],
                        &mut free,
                        *id,
                        MAIN_ZONES[z],
                        q,
                        &g.card_label(*id),
                    )
                    .map_err(|e| problem(file, *n, e))?;
                    got[z].push((i, marks.clone()));
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
                    got[4].iter().map(|x| x.0).collect()
                }
                None => Bits(free).collect(),
            };
            if deck.is_empty() {
                let n = written[4].as_ref().map_or(head, |x| x.0);
                return Err(problem(
                    file,
                    n,
                    format!("{q}: an empty deck loses at once (F-WIN-2): a position's deck holds a card"),
                ));
            }
            let mask = |v: &[(u8, Vec<String>)]| v.iter().fold(0u64, |m, x| m | 1u64 << x.0);
            let marked = |v: &[(u8, Vec<String>)], w: &str| {
                v.iter()
                    .filter(|x| x.1.iter().any(|m| m == w))
                    .fold(0u64, |m, x| m | 1u64 << x.0)
            };
            let pm = s.pl_mut(q);
            if written[0].is_some() {
                pm.hand = mask(&got[0]);
            }
            if written[1].is_some() {
                let units = mask(&got[1]);
                let flames = pm.scene & FLAME_MASK;
                pm.scene = flames | units;
                pm.as_flame = 0;
                pm.exhausted = (pm.exhausted & FLAME_MASK) | marked(&got[1], "exhausted");
                pm.fresh = marked(&got[1], "dispatched");
                pm.once = 0;
                pm.blocker = [0; 2];
                pm.stilled = Mask40::EMPTY;
                pm.power_turn = [0; FLAME_BASE];
                pm.power_battle = [0; FLAME_BASE];
                pm.given_to = [NONE; super::state::FLAME_DECK];
                s.lasting
                    .retain(|l| super::state::that_card(l.unit).is_none_or(|(w, _)| w != q));
            }
            let pm = s.pl_mut(q);
            if written[2].is_some() {
                pm.adolla = mask(&got[2]);
            }
            let life: Vec<u8> = if written[3].is_some() {
                got[3].iter().map(|x| x.0).collect()
            } else {
                p.life().to_vec()
            };
            pm.pile = [0; FLAME_BASE];
            pm.life_len = life.len() as u8;
            pm.pile[FLAME_BASE - life.len()..].copy_from_slice(&life);
            pm.deck_len = deck.len() as u8;
            for (j, &i) in deck.iter().rev().enumerate() {
                pm.pile[j] = i;
            }
            // Knowledge (F-INFO-1): the Scene and THE ADOLLA are public, a hand is known to its
            // owner (and to the opponent where written `known`, or as it was), deck and Life to
            // nobody.
            let public = (pm.scene & all) | pm.adolla;
            let seen = match &written[0] {
                Some(_) => marked(&got[0], "known"),
                None => p.known[k ^ 1] & pm.hand,
            };
            let flames = pm.known.map(|m| m & FLAME_MASK);
            pm.known[k] = flames[k] | public | pm.hand;
            pm.known[k ^ 1] = flames[k ^ 1] | public | seen;
        }
        if let Some((n, cards)) = &flame[k] {
            let len = g.flame[k].len();
            let pm = s.pl_mut(q);
            for j in 0..len {
                let i = FLAME_BASE + j;
                pm.scene &= !(1u64 << i);
                pm.exhausted &= !(1u64 << i);
                pm.given_to[j] = NONE;
                pm.flame_deck |= 1u64 << i;
            }
            for (id, marks) in cards {
                let i = Bits(pm.flame_deck)
                    .find(|&i| pm.card[i as usize] == *id)
                    .ok_or_else(|| {
                        problem(
                            file,
                            *n,
                            format!(
                                "flame {q}: one {} more than {q}'s Flame deck has",
                                g.card_label(*id)
                            ),
                        )
                    })?;
                pm.flame_deck &= !(1u64 << i);
                pm.scene |= 1u64 << i;
                if marks.iter().any(|m| m == "exhausted") {
                    pm.exhausted |= 1u64 << i;
                }
            }
        }
        if touched {
            // The derived masks, as a card's arrival on the Scene keeps them.
            let p = s.pl_mut(q);
            p.flamey = 0;
            p.acting = Mask40::EMPTY;
            p.guards = Mask40::EMPTY;
            p.statics = [0; 2];
            let on = p.units() | (p.scene & FLAME_MASK);
            for i in Bits(on) {
                g.enter_scene(s, q, i);
            }
        }
    }
    if main_step.is_some() {
        if let Some(t) = turn {
            s.turn = t;
        } else if s.turn == 0 {
            s.turn = 1;
        }
        if let Some(a) = active {
            s.active = a;
        }
        s.step = Step::Main;
        s.pick = Pick::None;
        s.chooser = s.active;
        s.battle = Battle::NONE;
        s.frames.clear();
        s.later.clear();
        s.replacing.clear();
        s.removed = [0; 2];
        s.ends = 0;
        s.x = [0; 2];
        s.named = NONE;
        for q in Seat::ALL {
            s.pl_mut(q).redraw_done = true;
        }
    }
    s.flame_check = true;
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

    /// Every value Fire Force's view writes for the keys the read-time check knows (fixed sets, card
    /// names) passes it, over random games of bundled decks to their ends: the check refuses no
    /// expectation a game can meet; and the games reach the steps and reasons listed.
    #[test]
    fn every_value_the_view_writes_passes_the_read_time_check() {
        let db = super::super::bundled_cards();
        let decks = crate::core::testing::folder_decks::<FireForceGame>(
            &db,
            &[
                "aggro_blitz",
                "adolla_link",
                "reaction_control",
                "support_defence",
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
            "life P1",
            "deck P2",
            "hand count P1",
            "with flame P2",
            "hand P1",
            "hand P2",
            "adolla P1",
            "flame deck P2",
            "seen hand P1",
            "known hand P2",
            "known deck P1 by P1",
            "known life P2",
            "deck top P1",
            "deck bottom P2",
            "units P1",
            "units P2",
            "flame P1",
            "flame P2",
        ];
        let seen =
            observed_values_pass(&db, &decks, 6, &keys, &rules, |g: &FireForceGame, s, k| {
                observe(g, s, k)
            });
        assert!(seen["reason"].len() >= 2, "{:?}", seen["reason"]);
        for step in ["main", "target", "block", "support", "over"] {
            assert!(seen["step"].contains(step), "{step}: {:?}", seen["step"]);
        }
    }
}
