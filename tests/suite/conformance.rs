//! The generic conformance suite: every check here is written once, generic over the game, and
//! `per_game!` makes it one test per registered game (`conformance::tmnt::perft_counts_match_...`),
//! so a new game is checked by adding its registry line and its line in `per_game!`.
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
use tcgsim::{
    mix_seed, perft, rng_from_seed, ActionList, Agent, AgentSpec, GameDef, HeuristicAgent,
    RandomAgent, Seat, GAMES,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

per_game!(
    random_games_keep_invariants_undo_exactly_and_end,
    heuristic_games_keep_invariants_and_end,
    determinization_stays_inside_the_information_set,
    decisions_do_not_depend_on_unseen_cards,
    perft_counts_match_the_stored_regression_data,
    files_are_what_the_registry_entry_says,
    card_statistics_stay_within_the_deck,
    playthrough_matches_the_stored_transcript,
    observations_fit_their_layout_and_actions_have_stable_ids,
    observations_do_not_depend_on_unseen_cards,
);

/// The suite's list of games (`per_game!` in `main.rs`) is the registry's, in its order: a game
/// registered and not listed would go untested.
#[test]
fn the_suite_runs_every_registered_game() {
    let registered: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    assert_eq!(registered, per_game!(@games));
    assert!(GAMES.len() >= 2, "the suite runs on at least two games");
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

/// Random games over every pairing of the bundled decks: invariants after every action,
/// apply/undo exact, every game ends, the notation round-trips. At least 10,000 games a game.
fn random_games_keep_invariants_undo_exactly_and_end<G: GameDef>() {
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

/// The heuristic policy against itself and against random play: the same invariants, and every
/// game ends (a policy that loops, e.g. on crafts that ready each other, is caught here).
fn heuristic_games_keep_invariants_and_end<G: GameDef>() {
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

/// Determinization keeps the observer's information set (T-INFO-1, T-INFO-2, T-INFO-3 for
/// Trails; X-INFO-1 for the toy game) and yields valid states.
fn determinization_stays_inside_the_information_set<G: GameDef>() {
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

/// No agent peeks: the same seeded agent makes the same decision in two states that differ only
/// in cards its player cannot see.
fn decisions_do_not_depend_on_unseen_cards<G: GameDef>() {
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

/// Perft counts from fixed seeds and positions, stored in `tests/data/<game>.perft`
/// (`deck_a deck_b seed prefix depth nodes`; the cases are the file's lines). Set
/// `TCGSIM_BLESS=1` to rewrite the counts after an intended change of the rules.
fn perft_counts_match_the_stored_regression_data<G: GameDef>() {
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

/// What every game declares in its `GameInfo` is true of its files.
fn files_are_what_the_registry_entry_says<G: GameDef>() {
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
        let t = std::fs::read_to_string(root().join(other.deck_dir).join(other.card_file)).unwrap();
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
    let g = G::bench_match().expect("the bench match");
    assert!(g.to_move(&g.new_game(1, Seat::P1)).is_some());
    assert!(info.rule_prefix.ends_with('-') && info.rule_prefix.len() == 2);
    // The state is a small Copy value (a memcpy per undo, per search node).
    assert!(
        std::mem::size_of::<G::State>() <= 1024,
        "{}: State too big",
        info.name
    );
}

/// The decisions a playthrough transcript records at most (the rest of the game is not written).
const PLAYTHROUGH_STEPS: usize = 120;

/// An information key as a transcript writes it: itself up to [`KEY_CHARS`] characters, else its
/// FNV-1a hash and length (the games' keys are their states' debug text, several KiB each).
fn short_key(key: &str) -> String {
    if key.len() <= KEY_CHARS {
        key.to_string()
    } else {
        format!(
            "fnv1a {:016x}, {} characters",
            tcgsim::core::fnv1a(key.bytes()),
            key.len()
        )
    }
}

/// The longest information key a transcript writes out.
const KEY_CHARS: usize = 500;

/// The transcript of one seeded game of `G` (see [`playthrough_matches_the_stored_transcript`]).
fn playthrough<G: GameDef>() -> String {
    use std::fmt::Write;
    use tcgsim::core::def::legal_texts;
    use tcgsim::Viewer;
    let info = G::INFO;
    let (cards, decks) = bundled::<G>();
    let deck = |n: &str| {
        &decks
            .iter()
            .find(|(m, _)| m == n)
            .expect("an arena deck is bundled")
            .1
    };
    let (a, b) = (info.arena_decks[0], info.arena_decks[1]);
    let game = G::new_match(&cards, [deck(a), deck(b)]);
    let seed = 1;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# The {} played by two random agents (seeds 2 and 3): {a} (P1, first) against {b} (P2),",
        info.title
    );
    let _ = writeln!(
        t,
        "# game seed {seed}, at most {PLAYTHROUGH_STEPS} decisions. Each decision: both seats' information keys"
    );
    let _ = writeln!(
        t,
        "# (GameDef::info_key; one of over {KEY_CHARS} characters as its FNV-1a hash and length), the legal"
    );
    let _ = writeln!(
        t,
        "# actions' texts, the chosen action's text and its narration"
    );
    let _ = writeln!(
        t,
        "# (with every card seen; `public:` lines only where the public log says otherwise)."
    );
    let _ = writeln!(
        t,
        "# Written by tests/suite/conformance.rs; TCGSIM_BLESS=1 rewrites it after an intended change."
    );
    let mut s = game.new_game(seed, Seat::P1);
    for l in game.log_start(&s, Seat::P1) {
        let _ = writeln!(t, "start: {l}");
    }
    let mut agents = [RandomAgent::new(2), RandomAgent::new(3)];
    let mut step = 0;
    while let Some(seat) = game.to_move(&s) {
        if step == PLAYTHROUGH_STEPS {
            let _ = writeln!(t, "(stopped after {PLAYTHROUGH_STEPS} decisions)");
            return t;
        }
        step += 1;
        let _ = writeln!(t, "\n{step}: {seat} to move, turn {}", game.turn(&s));
        for q in Seat::ALL {
            let _ = writeln!(t, "key {q}: {}", short_key(&game.info_key(&s, q)));
        }
        for l in legal_texts(&game, &s) {
            let _ = writeln!(t, "legal: {l}");
        }
        let action = agents[seat.index()].choose(&game, &s, seat);
        let _ = writeln!(t, "chose: {}", game.action_text(&s, action));
        let before = s;
        game.apply(&mut s, action);
        let all = game.narrate(&before, seat, action, &s, Viewer::All);
        for l in &all {
            let _ = writeln!(t, "log: {l}");
        }
        let public = game.narrate(&before, seat, action, &s, Viewer::Public);
        if public != all {
            for l in &public {
                let _ = writeln!(t, "public: {l}");
            }
        }
    }
    let _ = writeln!(t, "\nend: {}", game.ending(&s));
    t
}

/// A playthrough transcript per game, `tests/data/<game>.playthrough`: a seeded game of the arena's
/// first two decks between random agents with, at every decision, both seats' information keys,
/// the legal actions' texts, the chosen action's text and the narration. A change of the notation,
/// the narration or the information key fails here, naming the first line that differs (perft
/// does not see them). Set `TCGSIM_BLESS=1` to rewrite the file after an intended change.
fn playthrough_matches_the_stored_transcript<G: GameDef>() {
    let path = root().join(format!("tests/data/{}.playthrough", G::INFO.name));
    let got = playthrough::<G>();
    if std::env::var("TCGSIM_BLESS").is_ok() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} exists (the playthrough transcript; TCGSIM_BLESS=1 writes it)",
            path.display()
        )
    });
    let (mut got_lines, mut want_lines) = (got.lines(), want.lines());
    for n in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => break,
            (w, g) if w == g => {}
            (w, g) => panic!(
                "{}:{n}: the playthrough differs (TCGSIM_BLESS=1 rewrites it if intended)\n  stored: {}\n  now:    {}",
                path.display(),
                w.unwrap_or("(end of file)"),
                g.unwrap_or("(end of transcript)")
            ),
        }
    }
}

/// Card statistics (`tcgsim cards`) read `cards_out_of_deck`, `cards_in_hand` and `card_use`.
/// At positions along random games of every pairing, each seat's cards in hand are among its cards
/// out of its deck, and those among the cards of its deck (copies counted: no card is out of the
/// deck more often than the deck holds it); a card a legal action uses is a card of the database;
/// and the game reports some of each.
/// (The games' own tests check known answers on stacked decks.)
fn card_statistics_stay_within_the_deck<G: GameDef>() {
    use std::collections::HashMap;
    fn count(ids: impl IntoIterator<Item = u32>) -> HashMap<u32, usize> {
        let mut m = HashMap::new();
        for id in ids {
            *m.entry(id).or_insert(0) += 1;
        }
        m
    }
    fn within(part: &HashMap<u32, usize>, whole: &HashMap<u32, usize>) -> bool {
        part.iter()
            .all(|(id, n)| whole.get(id).is_some_and(|m| n <= m))
    }
    let all = matches::<G>();
    let mut list = ActionList::new();
    let (mut seen_out, mut seen_hand, mut seen_use) = (0, 0, 0);
    for (m, s) in positions(&all, 400) {
        let game = &all[m];
        for seat in Seat::ALL {
            let deck = count(game.match_deck(seat));
            let mut out = Vec::new();
            game.cards_out_of_deck(&s, seat, &mut |c| out.push(c));
            let mut hand = Vec::new();
            game.cards_in_hand(&s, seat, &mut |c| hand.push(c));
            seen_out += out.len();
            seen_hand += hand.len();
            let (out, hand) = (count(out), count(hand));
            assert!(
                within(&out, &deck),
                "{}: {seat}'s cards out of its deck {out:?} are not among its deck's {deck:?}",
                G::INFO.name
            );
            assert!(
                within(&hand, &out),
                "{}: {seat}'s cards in hand {hand:?} are not among its cards out of its deck {out:?}",
                G::INFO.name
            );
        }
        game.legal_actions(&s, &mut list);
        for &a in list.iter() {
            if let Some((id, _)) = game.card_use(&s, a) {
                seen_use += 1;
                assert!(
                    (id as usize) < G::card_count(game.match_cards()),
                    "{}: {a:?} uses card {id}, which the database does not hold",
                    G::INFO.name
                );
            }
        }
    }
    eprintln!(
        "{}: {seen_out} cards out of a deck, {seen_hand} in hand, {seen_use} uses",
        G::INFO.name
    );
    // The game reports them at all (the trait's defaults report nothing).
    assert!(
        seen_out > 0 && seen_hand > 0 && seen_use > 0,
        "{}: card statistics see nothing",
        G::INFO.name
    );
}

/// Tensors (`docs/observation.md`): at every decision of random games of every bundled and
/// designer match, each seat's observation fills every slot of the layout in order, within the
/// slot's bounds; each legal action has a stable id in the action space, no two legal actions of a
/// position share one, and an action's `card` is the card id `card_use` names where it names one.
fn observations_fit_their_layout_and_actions_have_stable_ids<G: GameDef>() {
    use tcgsim::core::tensor::{ActionSpace, ObsOut};
    if !G::CAPS.tensors {
        return;
    }
    let all = matches::<G>();
    let mut legal = ActionList::new();
    let mut seen_kinds = std::collections::BTreeSet::new();
    for (k, game) in all.iter().enumerate().take(40) {
        let layout = G::obs_layout(game.match_cards());
        assert!(!layout.is_empty(), "{}: an empty layout", G::INFO.name);
        let space = ActionSpace::new(G::action_kinds(game.match_cards()));
        let mut v = vec![0f32; layout.len()];
        for g in 0..3u64 {
            let seed = mix_seed(&[k as u64, g, 41]);
            let mut s = game.new_game(seed, Seat::from_index((g % 2) as usize));
            let mut agents = [RandomAgent::new(seed ^ 1), RandomAgent::new(seed ^ 2)];
            loop {
                for seat in Seat::ALL {
                    let mut o = ObsOut::checked(&layout, &mut v);
                    game.observe(&s, seat, &mut o);
                    assert!(o.done(), "{}: observe left slots unwritten", G::INFO.name);
                    if let Some((slot, i, x)) = layout.out_of_bounds(&v) {
                        panic!(
                            "{}: slot {slot}[{i}] = {x} is out of its bounds in {s:?}",
                            G::INFO.name
                        );
                    }
                }
                let Some(q) = game.to_move(&s) else { break };
                game.legal_actions(&s, &mut legal);
                let mut ids = std::collections::BTreeMap::new();
                for &a in legal.iter() {
                    let c = game.action_code(&s, a);
                    let id = space.id(c).unwrap_or_else(|| {
                        panic!(
                            "{}: {} has code {c:?}, outside the action space",
                            G::INFO.name,
                            game.action_text(&s, a)
                        )
                    });
                    seen_kinds.insert(c.kind);
                    if let Some(prev) = ids.insert(id, a) {
                        panic!(
                            "{}: {} and {} share the stable id {id}",
                            G::INFO.name,
                            game.action_text(&s, prev),
                            game.action_text(&s, a)
                        );
                    }
                    if let Some((card, _)) = game.card_use(&s, a) {
                        assert_eq!(
                            c.card,
                            Some(card),
                            "{}: {}'s card feature is not the card it uses",
                            G::INFO.name,
                            game.action_text(&s, a)
                        );
                    }
                }
                let a = agents[q.index()].choose(game, &s, q);
                game.apply(&mut s, a);
            }
        }
    }
    assert!(
        seen_kinds.len() > 1 || G::action_kinds(all[0].match_cards()).len() == 1,
        "{}: random games used one kind of action only",
        G::INFO.name
    );
}

/// No peeking (the tensors): a seat's observation vector, and the codes of its legal actions when
/// it is to move, are byte-identical in every determinization for that seat (every card it cannot
/// see redealt). The control: redealing for the *other* seat (which redeals this seat's own hidden
/// cards) changes this seat's vector somewhere, so the test can see a peek.
fn observations_do_not_depend_on_unseen_cards<G: GameDef>() {
    use tcgsim::core::tensor::ObsOut;
    if !G::CAPS.tensors {
        return;
    }
    let all = matches::<G>();
    let mut rng = rng_from_seed(29);
    let layouts: Vec<_> = all.iter().map(|g| G::obs_layout(g.match_cards())).collect();
    let observe = |m: usize, s: &G::State, seat: Seat| {
        let mut v = vec![0f32; layouts[m].len()];
        all[m].observe(s, seat, &mut ObsOut::checked(&layouts[m], &mut v));
        v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>()
    };
    let codes = |m: usize, s: &G::State| {
        let mut legal = ActionList::new();
        all[m].legal_actions(s, &mut legal);
        legal
            .iter()
            .map(|&a| all[m].action_code(s, a))
            .collect::<Vec<_>>()
    };
    let (mut redealt, mut control) = (0, 0);
    for (m, s) in positions(&all, 300) {
        for seat in Seat::ALL {
            let want = observe(m, &s, seat);
            for _ in 0..2 {
                let d = all[m].determinize(&s, seat, &mut rng);
                redealt += usize::from(d != s);
                assert!(
                    observe(m, &d, seat) == want,
                    "{}: {seat}'s observation changed when only cards it cannot see were redealt",
                    G::INFO.name
                );
                if all[m].to_move(&s) == Some(seat) {
                    assert_eq!(
                        codes(m, &d),
                        codes(m, &s),
                        "{}: {seat}'s action codes changed when only unseen cards were redealt",
                        G::INFO.name
                    );
                }
            }
            let other = all[m].determinize(&s, seat.other(), &mut rng);
            control += usize::from(observe(m, &other, seat) != want);
        }
    }
    assert!(redealt > 0, "{}: no position hid anything", G::INFO.name);
    assert!(
        control > 0,
        "{}: redealing the seat's own cards never changed its observation",
        G::INFO.name
    );
}
