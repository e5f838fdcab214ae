//! The generic conformance suite: every registered game (`tcgsim::games::GAMES`) runs every check
//! here through the registry, so a new game is checked by adding its registry line.
//!
//! - Random games: invariants after every action, apply/undo exact, every game ends; the action
//!   notation round-trips (`parse_action(action_text(a)) == a` for every legal action).
//! - Heuristic games end and keep the invariants.
//! - Determinization stays inside the observer's information set (`info_key` unchanged), keeps
//!   the invariants, and resamples what the observer does not know.
//! - No peeking: a decision does not change when only cards its player cannot see change.
//! - Perft counts against `tests/data/<game>.perft` (`TCGSIM_BLESS=1` rewrites them).

use crate::common::random_position;
use std::path::{Path, PathBuf};
use tcgsim::agents::{Agent, AgentSpec, HeuristicAgent, RandomAgent};
use tcgsim::core::{mix_seed, perft, rng_from_seed, ActionList, GameDef, Seat};
use tcgsim::games::{visit, Visit, GAMES};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `work` for every registered game.
fn for_every_game<V: Visit<Out = ()> + Clone>(work: V) {
    assert!(GAMES.len() >= 2, "the suite runs on at least two games");
    for g in GAMES {
        eprintln!("-- {}", g.name);
        visit(g.name, work.clone()).expect("a registered game");
    }
}

/// The bundled card pool and decks of `G`, in file-name order.
fn bundled<G: GameDef>() -> (G::Cards, Vec<(String, G::Deck)>) {
    let cards = G::bundled_cards();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(G::INFO.deck_dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == G::INFO.deck_ext))
        .collect();
    paths.sort();
    let decks = paths
        .iter()
        .map(|p| {
            let d = G::load_deck(&cards, p).unwrap_or_else(|e| panic!("{e}"));
            (G::deck_name(&d).to_string(), d)
        })
        .collect();
    (cards, decks)
}

/// Every ordered pair of bundled decks as matches, and every ordered pair of the designer-set
/// decks (`tests/data/designer/<game>_*.<ext>`, with the cards the engine plays of the designer set,
/// `<game>.played.csv`): the cards of the card language are played under the same checks.
fn matches<G: GameDef>() -> Vec<G> {
    let (cards, decks) = bundled::<G>();
    let mut v = Vec::new();
    for (_, a) in &decks {
        for (_, b) in &decks {
            v.push(G::new_match(&cards, [a, b]));
        }
    }
    let (dcards, ddecks) = designer::<G>();
    for a in &ddecks {
        for b in &ddecks {
            v.push(G::new_match(&dcards, [a, b]));
        }
    }
    v
}

/// The designer set's played cards and decks of `G` (none for a game without them).
fn designer<G: GameDef>() -> (G::Cards, Vec<G::Deck>) {
    let dir = root().join("tests/data/designer");
    let file = dir.join(format!("{}.played.csv", G::INFO.name));
    let Ok(text) = std::fs::read_to_string(&file) else {
        return (G::bundled_cards(), Vec::new());
    };
    let cards =
        G::parse_cards(&text, &file.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == G::INFO.deck_ext)
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{}_", G::INFO.name)))
        })
        .collect();
    paths.sort();
    let decks = paths
        .iter()
        .map(|p| G::load_deck(&cards, p).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    (cards, decks)
}

fn games_to_play() -> u64 {
    std::env::var("TCGSIM_CONFORMANCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[derive(Clone)]
struct RandomGames;

impl Visit for RandomGames {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let games = games_to_play();
        let all = matches::<G>();
        let mut list = ActionList::new();
        let mut total_actions = 0u64;
        for g in 0..games {
            let game = &all[(g as usize) % all.len()];
            let seed = mix_seed(&[g, 50]);
            let first = Seat::from_index((g % 2) as usize);
            let mut s = game.new_game(seed, first);
            game.check_invariants(&s)
                .unwrap_or_else(|e| panic!("{}: game {g}: after setup: {e}", G::INFO.name));
            let mut agents = [RandomAgent::new(seed ^ 1), RandomAgent::new(seed ^ 2)];
            let mut steps = 0;
            while let Some(seat) = game.to_move(&s) {
                game.legal_actions(&s, &mut list);
                assert!(!list.is_empty(), "no legal action for {seat} at {s:?}");
                // The notation round-trips, in one game of 50 (it allocates strings).
                if g % 50 == 0 {
                    for &a in list.iter() {
                        let text = game.action_text(&s, a);
                        assert_eq!(
                            game.parse_action(&s, &text),
                            Ok(a),
                            "{}: \"{text}\" does not parse back",
                            G::INFO.name
                        );
                    }
                }
                let action = agents[seat.index()].choose(game, &s, seat);
                let before = s;
                let undo = game.apply(&mut s, action);
                if let Err(e) = game.check_invariants(&s) {
                    panic!(
                        "{}: game {g} seed {seed}: after {action:?}: {e}",
                        G::INFO.name
                    );
                }
                let after = s;
                game.undo(&mut s, undo);
                assert!(
                    s == before,
                    "{}: undo did not restore the state",
                    G::INFO.name
                );
                s = after;
                steps += 1;
                assert!(steps < 20_000, "{}: game {g} does not end", G::INFO.name);
            }
            assert!(game.outcome(&s).is_some());
            total_actions += steps;
        }
        eprintln!("{}: {games} games, {total_actions} actions", G::INFO.name);
    }
}

/// Random games over every pairing of the bundled decks: invariants after every action,
/// apply/undo exact, every game ends, the notation round-trips. At least 10,000 games a game.
#[test]
fn random_games_keep_invariants_undo_exactly_and_end() {
    for_every_game(RandomGames);
}

#[derive(Clone)]
struct HeuristicGames;

impl Visit for HeuristicGames {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let all = matches::<G>();
        let mut list = ActionList::new();
        for g in 0..2_000u64 {
            let game = &all[(g as usize * 7) % all.len()];
            let seed = mix_seed(&[7, g]);
            let mut s = game.new_game(seed, Seat::from_index((g % 2) as usize));
            let mut agents: [Box<dyn Agent<G>>; 2] = if g % 3 == 0 {
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
                let action = agents[seat.index()].choose(game, &s, seat);
                assert!(list.contains(&action), "illegal choice {action:?}");
                game.apply(&mut s, action);
                if let Err(e) = game.check_invariants(&s) {
                    panic!("{}: game {g}: after {action:?}: {e}", G::INFO.name);
                }
                steps += 1;
                assert!(steps < 20_000, "{}: game {g} does not end", G::INFO.name);
            }
        }
    }
}

/// The heuristic policy against itself and against random play: the same invariants, and every
/// game ends (a policy that loops, e.g. on crafts that ready each other, is caught here).
#[test]
fn heuristic_games_keep_invariants_and_end() {
    for_every_game(HeuristicGames);
}

/// Positions along random games of every pairing: `(match index, state)`.
fn positions<G: GameDef>(all: &[G], n: usize) -> Vec<(usize, G::State)> {
    let mut out = Vec::new();
    let mut k = 0u64;
    while out.len() < n {
        let m = (k as usize) % all.len();
        let game = &all[m];
        let mut s = game.new_game(mix_seed(&[k, 99]), Seat::from_index((k % 2) as usize));
        let mut agents = [RandomAgent::new(k ^ 3), RandomAgent::new(k ^ 4)];
        let mut step = 0u64;
        while let Some(q) = game.to_move(&s) {
            if step % 9 == (k % 9) {
                out.push((m, s));
            }
            let a = agents[q.index()].choose(game, &s, q);
            game.apply(&mut s, a);
            step += 1;
        }
        k += 1;
    }
    out.truncate(n);
    out
}

#[derive(Clone)]
struct Determinization;

impl Visit for Determinization {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let all = matches::<G>();
        let mut rng = rng_from_seed(17);
        let mut changed = 0u64;
        let mut checked = 0u64;
        for (m, s) in positions(&all, 400) {
            let game = &all[m];
            for observer in Seat::ALL {
                let key = game.info_key(&s, observer);
                for _ in 0..3 {
                    let d = game.determinize(&s, observer, &mut rng);
                    checked += 1;
                    // Inside the observer's information set: what it knows is kept.
                    assert_eq!(
                        game.info_key(&d, observer),
                        key,
                        "{}: a determinization for {observer} changed what it knows",
                        G::INFO.name
                    );
                    game.check_invariants(&d).unwrap_or_else(|e| {
                        panic!(
                            "{}: a determinization breaks an invariant: {e}",
                            G::INFO.name
                        )
                    });
                    assert_eq!(game.to_move(&d), game.to_move(&s));
                    changed += u64::from(d != s);
                }
            }
        }
        // It does resample: most positions hide something from someone.
        assert!(
            changed * 2 > checked,
            "{}: only {changed} of {checked} determinizations changed anything",
            G::INFO.name
        );
    }
}

/// Determinization keeps the observer's information set (T-INFO-1, T-INFO-2, T-INFO-3 for
/// Trails; X-INFO-1 for the toy game) and yields valid states.
#[test]
fn determinization_stays_inside_the_information_set() {
    for_every_game(Determinization);
}

#[derive(Clone)]
struct NoPeek;

impl Visit for NoPeek {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let all = matches::<G>();
        let mut rng = rng_from_seed(23);
        let specs = [
            "heuristic",
            "pimc:dets=2,iters=8,depth=20",
            "ismcts:iters=40,eps=0.25",
        ]
        .map(|t| AgentSpec::parse(t).unwrap());
        // The cheat sees every card: it must decide differently somewhere, or this test could
        // not catch an agent that peeks.
        let cheat = AgentSpec::parse("cheat:iters=60").unwrap();
        let mut cheat_differs = 0;
        let mut differing = 0;
        for (k, (m, s)) in positions(&all, 60).into_iter().enumerate() {
            let game = &all[m];
            let seat = game.to_move(&s).expect("a position to decide");
            // The same position with the cards the player to move cannot see dealt again.
            let d = game.determinize(&s, seat, &mut rng);
            assert_eq!(game.info_key(&d, seat), game.info_key(&s, seat));
            differing += usize::from(d != s);
            for spec in &specs {
                let seed = mix_seed(&[k as u64, 5]);
                let a = spec.build::<G>(seed).choose(game, &s, seat);
                let b = spec.build::<G>(seed).choose(game, &d, seat);
                assert_eq!(
                    a,
                    b,
                    "{}: {spec:?} decides differently when only unseen cards differ",
                    G::INFO.name
                );
            }
            let seed = mix_seed(&[k as u64, 6]);
            cheat_differs += usize::from(
                cheat.build::<G>(seed).choose(game, &s, seat)
                    != cheat.build::<G>(seed).choose(game, &d, seat),
            );
        }
        assert!(differing > 0, "{}: no position hid anything", G::INFO.name);
        assert!(
            cheat_differs > 0,
            "{}: even the cheat never peeked",
            G::INFO.name
        );
    }
}

/// No agent peeks: the same seeded agent makes the same decision in two states that differ only
/// in cards its player cannot see.
#[test]
fn decisions_do_not_depend_on_unseen_cards() {
    for_every_game(NoPeek);
}

#[derive(Clone)]
struct Perft;

impl Visit for Perft {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let path = root().join(format!("tests/data/{}.perft", G::INFO.name));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{} exists (perft regression data)", path.display()));
        let (cards, decks) = bundled::<G>();
        let deck = |n: &str| {
            &decks
                .iter()
                .find(|(m, _)| m == n)
                .expect("a bundled deck")
                .1
        };
        let mut head = String::new();
        let mut got = String::new();
        let mut want = String::new();
        for l in text.lines() {
            if l.starts_with('#') {
                head = format!("{l}\n");
                continue;
            }
            let f: Vec<&str> = l.split_whitespace().collect();
            let (a, b) = (f[0], f[1]);
            let (seed, prefix, depth): (u64, usize, u32) = (
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            );
            let g = G::new_match(&cards, [deck(a), deck(b)]);
            let mut s = random_position(&g, seed, prefix);
            let n = perft(&g, &mut s, depth);
            got.push_str(&format!("{a} {b} {seed} {prefix} {depth} {n}\n"));
            want.push_str(&format!("{l}\n"));
        }
        if std::env::var("TCGSIM_BLESS").is_ok() {
            std::fs::write(&path, format!("{head}{got}")).unwrap();
            return;
        }
        assert_eq!(
            got,
            want,
            "{}: perft counts changed: the legal-action tree is different",
            G::INFO.name
        );
    }
}

/// Perft counts from fixed seeds and positions, stored in `tests/data/<game>.perft`
/// (`deck_a deck_b seed prefix depth nodes`; the cases are the file's lines). Set
/// `TCGSIM_BLESS=1` to rewrite the counts after an intended change of the rules.
#[test]
fn perft_counts_match_the_stored_regression_data() {
    for_every_game(Perft);
}

#[derive(Clone)]
struct Files;

impl Visit for Files {
    type Out = ();
    fn visit<G: GameDef>(self) {
        let info = G::INFO;
        let dir = Path::new(info.deck_dir);
        // The bundled pool is the card file of the deck folder, and is recognised as the game's.
        let text = std::fs::read_to_string(root().join(dir).join(info.card_file)).unwrap();
        assert!(
            G::is_card_file(&text),
            "{}: its card file is not recognised",
            info.name
        );
        assert!(G::parse_cards(&text, "cards").is_ok());
        for other in GAMES.iter().filter(|g| g.name != info.name) {
            let t =
                std::fs::read_to_string(root().join(other.deck_dir).join(other.card_file)).unwrap();
            assert!(
                !G::is_card_file(&t),
                "{} takes {}'s card file",
                info.name,
                other.name
            );
        }
        // The arena's decks exist, the bench match plays, rules IDs have the game's prefix.
        let (_, decks) = bundled::<G>();
        for a in info.arena_decks {
            assert!(
                decks.iter().any(|(n, _)| n == a),
                "{}: no deck {a}",
                info.name
            );
        }
        let g = G::bench_match();
        assert!(g.to_move(&g.new_game(1, Seat::P1)).is_some());
        assert!(info.rule_prefix.ends_with('-') && info.rule_prefix.len() == 2);
        // The state is a small Copy value (a memcpy per undo, per search node).
        assert!(
            std::mem::size_of::<G::State>() <= 1024,
            "{}: State too big",
            info.name
        );
    }
}

/// What every game declares in its `GameInfo` is true of its files.
#[test]
fn every_game_s_files_are_what_its_registry_entry_says() {
    for_every_game(Files);
}
