//! TMNT scenarios (`docs/scenario.md`, "TMNT scenarios"): stacked decks, actions in the
//! notation, expectations about the position reached.

use super::cards::{norm, CardDb, CardId};
use super::state::State;
use super::TmntGame;
use crate::core::def::{GameDef, ScenarioReport};
use crate::core::input::{excerpt, read_text, strip_comment, MAX_TEXT_BYTES};
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
fn observe(g: &TmntGame, s: &State, key: &str) -> Option<String> {
    let words: Vec<&str> = key.split_whitespace().collect();
    let seat = words.last().and_then(|w| seat_word(w));
    let legal = || {
        let mut l = ActionList::new();
        g.legal(s, &mut l);
        l.iter().map(|&a| g.notation(s, a)).collect::<Vec<_>>()
    };
    let names = |q: Seat, m: u64| {
        let v = g.sorted_names(s, q, m);
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    Some(match (words.as_slice(), seat) {
        (["winner"], _) => match s.winner {
            None => "none".into(),
            Some(Outcome::Draw) => "draw".into(),
            Some(Outcome::Win(w)) => w.to_string(),
        },
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
    let mut db = cards;
    let mut decks: [Option<(usize, String)>; 2] = [None, None];
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
    let db = db.unwrap_or_else(TmntGame::bundled_cards);
    let mut decks_ids: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for q in Seat::ALL {
        let k = q.index();
        let (n, v) = decks[k].clone().ok_or_else(|| {
            problem(
                file,
                0,
                format!("{q}: the deck is missing (`{q}: CARD, 3*CARD, …`, top first)"),
            )
        })?;
        decks_ids[k] = card_list(&db, &v).map_err(|e| problem(file, n, e))?;
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
    let mut s = g.setup_stacked(first);
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
        deck: u8,
        hand: Vec<String>,
        blocks: String,
        attack_zone: String,
        items: Vec<String>,
        trash: Vec<String>,
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
            deck: p.deck_len,
            hand: g.sorted_names(&s, q, p.hand),
            blocks: g.blocks_label(&s, q, true),
            attack_zone: g.attack_zone_label(&s, q),
            items: g.sorted_names(&s, q, p.items),
            trash: g.sorted_names(&s, q, p.trash),
        }
    };
    let view = View {
        turn: s.turn,
        active: s.active.to_string(),
        step: s.step.name(),
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
