//! Conformance over random games: invariants after every action, apply/undo exact, every game
//! ends (issue: engine). Runs at least 10,000 games.

use std::path::PathBuf;
use tcgsim::agents::{Agent, HeuristicAgent, RandomAgent};
use tcgsim::core::{mix_seed, ActionList, Game, Seat};
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::{CardDb, TrailsGame};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bundled() -> (CardDb, Vec<Deck>) {
    let db = CardDb::load(&root().join("decks/trails/cards.csv")).expect("card pool loads");
    let mut decks = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(root().join("decks/trails"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "deck"))
        .collect();
    paths.sort();
    for p in paths {
        decks.push(Deck::load(&p, &db).unwrap_or_else(|e| panic!("{e}")));
    }
    (db, decks)
}

#[test]
fn random_games_keep_invariants_undo_exactly_and_end() {
    let (db, decks) = bundled();
    let games: u64 = std::env::var("TCGSIM_CONFORMANCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let n = decks.len();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in 0..n {
            pairs.push((a, b));
        }
    }
    let mut total_actions = 0u64;
    let mut list = ActionList::new();
    let mut g = 0u64;
    while g < games {
        let (a, b) = pairs[(g as usize) % pairs.len()];
        let game = TrailsGame::new(db.clone(), decks[a].cards.clone(), decks[b].cards.clone());
        // Play a block of games with this pairing to amortise the clone.
        for k in 0..50u64 {
            if g >= games {
                break;
            }
            let seed = mix_seed(&[g, k]);
            let first = Seat::from_index((g % 2) as usize);
            let mut s = game.new_game(seed, first);
            let mut agents = [RandomAgent::new(seed ^ 1), RandomAgent::new(seed ^ 2)];
            let mut steps = 0;
            while let Some(seat) = game.to_move(&s) {
                game.legal_actions(&s, &mut list);
                assert!(!list.is_empty(), "no legal action for {seat} at {s:?}");
                let action = agents[seat.index()].choose(&game, &s, seat);
                let before = s;
                let undo = game.apply(&mut s, action);
                if let Err(e) = game.check_invariants(&s) {
                    panic!("game {g} seed {seed}: after {action:?}: {e}");
                }
                let after = s;
                game.undo(&mut s, undo);
                assert!(s == before, "undo did not restore the state");
                s = after;
                steps += 1;
                assert!(steps < 20_000, "game {g} does not end");
            }
            assert!(game.outcome(&s).is_some());
            total_actions += steps;
            g += 1;
        }
    }
    eprintln!("{games} games, {total_actions} actions");
}

/// The heuristic policy against itself and against random play: the same invariants, and every
/// game ends (a policy that loops, e.g. on crafts that ready each other, is caught here).
#[test]
fn heuristic_games_keep_invariants_and_end() {
    let (db, decks) = bundled();
    let n = decks.len();
    let mut list = ActionList::new();
    for g in 0..2_000u64 {
        let (a, b) = ((g as usize) % n, (g as usize / n) % n);
        let game = TrailsGame::new(db.clone(), decks[a].cards.clone(), decks[b].cards.clone());
        let seed = mix_seed(&[7, g]);
        let mut s = game.new_game(seed, Seat::from_index((g % 2) as usize));
        let mut agents: [Box<dyn Agent<TrailsGame>>; 2] = if g % 3 == 0 {
            [
                Box::new(HeuristicAgent::new(seed)),
                Box::new(RandomAgent::new(seed ^ 5)),
            ]
        } else {
            [
                Box::new(HeuristicAgent::new(seed)),
                Box::new(HeuristicAgent::new(seed ^ 5)),
            ]
        };
        let mut steps = 0;
        while let Some(seat) = game.to_move(&s) {
            game.legal_actions(&s, &mut list);
            let action = agents[seat.index()].choose(&game, &s, seat);
            assert!(list.contains(&action), "illegal choice {action:?}");
            game.apply(&mut s, action);
            if let Err(e) = game.check_invariants(&s) {
                panic!("game {g}: after {action:?}: {e}");
            }
            steps += 1;
            assert!(steps < 20_000, "game {g} does not end");
        }
    }
}
