//! Fire Force scenarios (`docs/scenario.md`, "Fire Force scenarios"): stacked decks, actions in the
//! notation, expectations about the position reached.

use super::cards::{norm, CardDb, CardId};
use super::state::{Bits, State};
use super::FireForceGame;
use crate::core::def::{GameDef, ScenarioReport};
use crate::core::input::{excerpt, parse_int, read_text, strip_comment, MAX_TEXT_BYTES};
use crate::core::{ActionList, Game, Outcome, Seat};
use std::path::Path;

fn problem(file: &str, line: usize, msg: impl std::fmt::Display) -> String {
    format!("{file}:{line}: {msg}")
}

/// `CARD, 3*CARD, …` as card ids.
fn card_list(db: &CardDb, v: &str) -> Result<Vec<CardId>, String> {
    crate::core::input::card_list(v, |name| db.lookup(name))
}

fn seat_word(w: &str) -> Option<Seat> {
    Seat::from_name(w)
}

/// The value of expectation `key` in `s`, or `None` for an unknown key.
fn observe(g: &FireForceGame, s: &State, key: &str) -> Option<String> {
    let words: Vec<&str> = key.split_whitespace().collect();
    let seat = words.last().and_then(|w| seat_word(w));
    let legal = || {
        let mut l = ActionList::new();
        g.legal(s, &mut l);
        l.iter().map(|&a| g.notation(s, a)).collect::<Vec<_>>()
    };
    Some(match (words.as_slice(), seat) {
        (["winner"], _) => match s.winner {
            None => "none".into(),
            Some(Outcome::Draw) => "draw".into(),
            Some(Outcome::Win(w)) => w.to_string(),
        },
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

pub fn run(
    text: &str,
    file: &str,
    dir: &Path,
    cards: Option<CardDb>,
) -> Result<ScenarioReport, String> {
    let lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, strip_comment(l)))
        .filter(|(_, l)| !l.is_empty());
    let mut section = "";
    let mut first = Seat::P1;
    let mut seed = 0u64;
    let mut db = cards;
    let mut decks: [Option<(usize, String)>; 2] = [None, None];
    let mut flames: [Option<(usize, String)>; 2] = [None, None];
    let mut actions: Vec<(usize, String)> = Vec::new();
    let mut expects: Vec<(usize, String, String)> = Vec::new();
    for (n, l) in lines {
        if l.starts_with('[') {
            section = match l {
                "[actions]" => "actions",
                "[expect]" => "expect",
                _ => return Err(problem(file, n, format!("unknown section {}", excerpt(l)))),
            };
            continue;
        }
        if section == "actions" {
            actions.push((n, l.to_string()));
            continue;
        }
        let (k, v) = l.split_once(':').ok_or_else(|| {
            problem(
                file,
                n,
                format!("expected KEY: VALUE, found \"{}\"", excerpt(l)),
            )
        })?;
        let (k, v) = (k.trim(), v.trim());
        if section == "expect" {
            expects.push((n, k.to_string(), v.to_string()));
            continue;
        }
        match k {
            "game" => {}
            "first" => first = seat_word(v).ok_or_else(|| problem(file, n, "first: P1 or P2"))?,
            "seed" => {
                seed = parse_int(v, 0u64, u64::MAX)
                    .map_err(|e| problem(file, n, format!("seed: {e}")))?
            }
            "cards" => {
                if db.is_none() {
                    let path = dir.join(v);
                    let t = read_text(&path, MAX_TEXT_BYTES).map_err(|e| e.to_string())?;
                    db = Some(
                        CardDb::parse(&t, &path.display().to_string())
                            .map_err(|e| e.to_string())?,
                    );
                }
            }
            _ => {
                let words: Vec<&str> = k.split_whitespace().collect();
                let slot = match words.as_slice() {
                    [w] => seat_word(w).map(|q| &mut decks[q.index()]),
                    [w, "flame"] => seat_word(w).map(|q| &mut flames[q.index()]),
                    _ => None,
                }
                .ok_or_else(|| problem(file, n, format!("unknown key \"{}\"", excerpt(k))))?;
                if slot.is_some() {
                    return Err(problem(file, n, format!("{k}: given twice")));
                }
                *slot = Some((n, v.to_string()));
            }
        }
    }
    let db = db.unwrap_or_else(FireForceGame::bundled_cards);
    let mut main: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    let mut flame: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for q in Seat::ALL {
        let k = q.index();
        let (n, v) = decks[k].clone().ok_or_else(|| {
            problem(
                file,
                0,
                format!("{q}: the deck is missing (`{q}: CARD, 3*CARD, …`, top first)"),
            )
        })?;
        main[k] = card_list(&db, &v).map_err(|e| problem(file, n, e))?;
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
        let (n, v) = flames[k].clone().ok_or_else(|| {
            problem(
                file,
                0,
                format!("{q}: the Flame deck is missing (`{q} flame: CARD, …`)"),
            )
        })?;
        flame[k] = card_list(&db, &v).map_err(|e| problem(file, n, e))?;
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
    let mut s = g.setup_stacked(seed, first);
    let illegal = crate::core::def::play_actions(&g, &mut s, &actions, file)?;
    let mut failed = Vec::new();
    if illegal.is_none() {
        let legal: Vec<String> = observe(&g, &s, "legal")
            .expect("a key")
            .split("; ")
            .map(String::from)
            .collect();
        for (n, k, v) in &expects {
            if let Some(r) = crate::core::def::legal_membership(k, v, &legal) {
                if let Err(m) = r {
                    failed.push(format!("line {n}: {m}"));
                }
                continue;
            }
            let got = observe(&g, &s, k).ok_or_else(|| {
                problem(file, *n, format!("unknown expectation \"{}\"", excerpt(k)))
            })?;
            if norm(&got) != norm(v) {
                failed.push(format!("line {n}: {k}: expected {v}, found {got}"));
            }
        }
    }
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
    #[derive(serde::Serialize)]
    struct View {
        turn: u16,
        active: String,
        step: &'static str,
        to_move: Option<String>,
        winner: Option<String>,
        ending: String,
        legal: Vec<String>,
        p1: Side,
        p2: Side,
        checked: usize,
        failed: Vec<String>,
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
    let view = View {
        turn: s.turn,
        active: s.active.to_string(),
        step: FireForceGame::step_label(&s),
        to_move: g.to_move(&s).map(|q| q.to_string()),
        winner: s.winner.map(|o| match o {
            Outcome::Draw => "draw".into(),
            Outcome::Win(w) => w.to_string(),
        }),
        ending: g.ending(&s),
        legal: observe(&g, &s, "legal")
            .unwrap_or_default()
            .split("; ")
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect(),
        p1: side(Seat::P1),
        p2: side(Seat::P2),
        checked: if illegal.is_none() { expects.len() } else { 0 },
        failed: failed.clone(),
    };
    Ok(ScenarioReport {
        json: serde_json::to_string_pretty(&view).map_err(|e| e.to_string())?,
        illegal,
        failed,
    })
}
