//! The Fire Force TCG beyond its scenarios (`tests/scenarios/ff_*.scn`): deck files (F-DECK), the
//! shuffle against the hypergeometric distribution (F-SETUP-1), the first player (F-SETUP-4),
//! what each player knows and what determinization resamples (F-INFO), sealed pools, the card
//! documentation, and the command line on this game.

use crate::common::{tcgsim, tmpdir};
use std::path::PathBuf;
use tcgsim::games::fireforce::cards::CardType;
use tcgsim::games::fireforce::state::{Bits, Step, FLAME_MASK};
use tcgsim::games::fireforce::{bundled_cards, Action, CardDb};
use tcgsim::{
    rng_from_seed, ActionList, Agent, FireForceGame, Game, GameDef, HeuristicAgent, Seat,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn deck(name: &str) -> tcgsim::games::fireforce::deck::FfDeck {
    FireForceGame::load_deck(
        &bundled_cards(),
        &root().join(format!("decks/fireforce/{name}.deck")),
    )
    .unwrap()
}

fn game(a: &str, b: &str) -> FireForceGame {
    FireForceGame::new_match(&bundled_cards(), [&deck(a), &deck(b)])
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes a deck file and runs `validate --game fireforce` on it.
fn validate(name: &str, text: &str) -> std::process::Output {
    let d = tmpdir(&format!("ffdeck-{name}"));
    let p = d.join(format!("{name}.deck"));
    std::fs::write(&p, text).unwrap();
    tcgsim(&["validate", "--game", "fireforce", p.to_str().unwrap()])
}

/// A deck text: `main` lines, then `[flame]` and `flame` lines.
fn deck_text(main: &[(usize, &str)], flame: &[(usize, &str)], head: &str) -> String {
    let mut t = format!("# Plan: a test deck\n{head}");
    for (n, c) in main {
        t.push_str(&format!("{n} {c}\n"));
    }
    t.push_str("[flame]\n");
    for (n, c) in flame {
        t.push_str(&format!("{n} {c}\n"));
    }
    t
}

/// 20 distinct Unit/Event numbers of the bundled pool, two copies each: a legal Strategy deck.
fn twenty_numbers(db: &CardDb) -> Vec<String> {
    db.cards
        .iter()
        .filter(|c| c.ctype != CardType::Flame)
        .take(20)
        .map(|c| c.number.clone())
        .collect()
}

/// F-DECK-1 (40 cards, at most 2 per number, 5 Flame cards), F-DECK-2 (Blitz Shield: 35, any
/// copies), F-DECK-3 (the `[flame]` section): each problem is reported with its file and line,
/// exit code 2.
#[test]
fn deck_files_follow_f_deck_1_f_deck_2_f_deck_3() {
    let db = bundled_cards();
    let nums = twenty_numbers(&db);
    let main: Vec<(usize, &str)> = nums.iter().map(|n| (2, n.as_str())).collect();
    let ok = validate("ok", &deck_text(&main, &[(5, "FF-F01")], ""));
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        String::from_utf8_lossy(&ok.stdout).contains("Strategy format, 40 cards + 5 Flame cards")
    );

    // A third copy of one number: its line (line 2 is the first card line).
    let mut three = main.clone();
    three[0].0 = 3;
    three[1].0 = 1;
    let o = validate("three", &deck_text(&three, &[(5, "FF-F01")], ""));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("three.deck:2: 3 copies of") && stderr(&o).contains("F-DECK-1"),
        "{}",
        stderr(&o)
    );
    // 39 cards; 4 Flame cards.
    let mut short = main.clone();
    short[0].0 = 1;
    let o = validate("short", &deck_text(&short, &[(4, "FF-F01")], ""));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("39 cards; a Strategy deck has exactly 40"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("4 Flame cards"), "{}", stderr(&o));
    // F-DECK-3: a Flame card among the main deck's lines, a Unit in the [flame] section.
    let mut mixed = main.clone();
    mixed[19] = (2, "FF-F01");
    let o = validate(
        "mixed",
        &deck_text(&mixed, &[(4, "FF-F01"), (1, &nums[0])], ""),
    );
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("mixed.deck:21:") && e.contains("belongs in the [flame] section"),
        "{e}"
    );
    assert!(
        e.contains("mixed.deck:24:") && e.contains("Flame cards only"),
        "{e}"
    );
    // A name two numbers share must be given by number.
    let shared = db
        .cards
        .iter()
        .find(|c| db.cards.iter().filter(|o| o.name == c.name).count() > 1)
        .expect("the bundled pool has a shared name (docs/cards.md)");
    let mut named = main.clone();
    named[19] = (2, shared.name.as_str());
    let o = validate("named", &deck_text(&named, &[(5, "FF-F01")], ""));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("name it by its number"),
        "{}",
        stderr(&o)
    );
    // Memory stays bounded whatever the counts: past 40 cards a line is refused with its line.
    let huge = (0..1000)
        .map(|_| format!("40 {}\n", nums[0]))
        .collect::<String>();
    let o = validate("huge", &format!("{huge}[flame]\n5 FF-F01\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("huge.deck:2: more than 40 cards in the deck"),
        "{}",
        stderr(&o)
    );
    // F-DECK-2: Blitz Shield, 35 cards with any number of copies.
    let blitz = [(20, nums[0].as_str()), (15, nums[1].as_str())];
    let o = validate(
        "blitz",
        &deck_text(&blitz, &[(5, "FF-F02")], "# format: blitz\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Blitz Shield format, 35 cards"));
    let o = validate(
        "blitz40",
        &deck_text(&main, &[(5, "FF-F02")], "# format: blitz\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exactly 35"), "{}", stderr(&o));
}

/// F-SETUP-1, F-SETUP-2: the deck is shuffled, then 5 are drawn. A card with 2 copies in a
/// 40-card deck is in the opening hand k times with the hypergeometric probabilities
/// C(2,k)·C(38,5−k)/C(40,5): 0.76282, 0.22436, 0.01282. Over 6000 seeded deals the counts pass a
/// chi-square test with 2 degrees of freedom at the 0.1% level (critical value 13.82).
#[test]
fn opening_hands_are_hypergeometric_f_setup_1() {
    let g = game("aggro_blitz", "blocker_wall");
    let probe = g.main[0][0];
    let copies = g.main[0].iter().filter(|&&c| c == probe).count();
    assert_eq!(copies, 2, "the probe card has two copies");
    let c = |n: u64, k: u64| -> f64 { (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product() };
    let p = [0, 1, 2].map(|k| c(2, k) * c(38, 5 - k) / c(40, 5));
    assert!((p[0] - 0.76282).abs() < 1e-4 && (p[2] - 0.01282).abs() < 1e-4);
    let n = 6000;
    let mut counts = [0u64; 3];
    for seed in 0..n {
        let s = g.new_game(seed, Seat::P1);
        assert_eq!(s.step, Step::Redraw);
        let p1 = s.pl(Seat::P1);
        assert_eq!(p1.hand.count_ones(), 5);
        assert_eq!(p1.deck_len, 35);
        let k = Bits(p1.hand)
            .filter(|&i| p1.card[i as usize] == probe)
            .count();
        counts[k] += 1;
    }
    let chi: f64 = (0..3)
        .map(|k| {
            let e = p[k] * n as f64;
            (counts[k] as f64 - e).powi(2) / e
        })
        .sum();
    assert!(chi < 13.82, "chi-square {chi:.2} for counts {counts:?}");
    // And a deal is a function of its seed.
    assert_eq!(g.new_game(5, Seat::P1), g.new_game(5, Seat::P1));
    assert_ne!(g.new_game(5, Seat::P1), g.new_game(6, Seat::P1));
}

/// F-SETUP-4: the first player is a parameter; the other player gets the exhausted Flame card
/// (F-SETUP-5), and the first player's turn 1 follows.
#[test]
fn the_first_player_is_a_parameter_f_setup_4() {
    let g = game("aggro_blitz", "pray_ramp");
    for first in Seat::ALL {
        let mut s = g.new_game(3, first);
        assert_eq!(g.to_move(&s), Some(first));
        g.apply(&mut s, Action::Keep);
        assert_eq!(g.to_move(&s), Some(first.other()));
        g.apply(&mut s, Action::Keep);
        if s.step == Step::SetupFlame {
            let mut l = ActionList::new();
            g.legal_actions(&s, &mut l);
            g.apply(&mut s, l[0]);
        }
        assert_eq!((s.turn, s.active), (1, first));
        let second = s.pl(first.other());
        assert_eq!((second.scene & FLAME_MASK).count_ones(), 1);
        assert_eq!(second.exhausted & FLAME_MASK, second.scene & FLAME_MASK);
        assert_eq!(s.pl(first).life_len, 5);
        assert_eq!(second.life_len, 5);
    }
}

/// F-INFO-1: the Life cards are known to nobody, the hand to its owner, the Scene, THE ADOLLA and
/// the Flame decks to both. F-INFO-2: a redraw forgets where the returned cards went. F-INFO-3:
/// determinization keeps every known card and resamples the rest — the Life cards for either
/// observer, the opponent's hand — within each player's own cards.
#[test]
fn determinization_resamples_life_cards_for_both_f_info_1_f_info_2_f_info_3() {
    let g = game("support_defence", "adolla_link");
    // F-INFO-2.
    let mut s = g.new_game(8, Seat::P1);
    let old = s.pl(Seat::P1).hand;
    g.apply(&mut s, Action::Redraw);
    let p1 = s.pl(Seat::P1);
    assert_eq!(
        p1.known[0] & !FLAME_MASK,
        p1.hand,
        "P1 knows exactly its new hand"
    );
    assert!(p1.known[0] & old & !p1.hand == 0);
    // A position in the middle of a game, no card being paid for (seed 22 since the random
    // agent's draw became Lemire's: seed 21 now stops while a played card's cost is asked, the
    // card shown but still in hand).
    let s = crate::common::random_position(&g, 22, 60);
    assert!(s.turn >= 2 && s.winner.is_none(), "turn {}", s.turn);
    let mut rng = rng_from_seed(4);
    for observer in Seat::ALL {
        let me = s.pl(observer);
        let opp = s.pl(observer.other());
        // F-INFO-1.
        assert_eq!(me.known[observer.index()] & me.life_mask(), 0);
        assert_eq!(
            opp.known[observer.index()] & (opp.hand | opp.life_mask()),
            0
        );
        let mut life_changed = [false; 2];
        let mut hand_changed = false;
        for _ in 0..200 {
            let d = g.determinize(&s, observer, &mut rng);
            g.check_invariants(&d).unwrap();
            assert_eq!(g.info_key(&d, observer), g.info_key(&s, observer));
            for q in Seat::ALL {
                let (a, b) = (s.pl(q), d.pl(q));
                for i in Bits(a.scene | a.adolla | a.flame_deck) {
                    assert_eq!(a.card[i as usize], b.card[i as usize]);
                }
                if a.life()
                    .iter()
                    .any(|&i| a.card[i as usize] != b.card[i as usize])
                {
                    life_changed[q.index()] = true;
                }
            }
            let (a, b) = (s.pl(observer), d.pl(observer));
            for i in Bits(a.hand) {
                assert_eq!(a.card[i as usize], b.card[i as usize], "own hand kept");
            }
            let (a, b) = (s.pl(observer.other()), d.pl(observer.other()));
            if Bits(a.hand).any(|i| a.card[i as usize] != b.card[i as usize]) {
                hand_changed = true;
            }
        }
        assert!(
            life_changed[0] && life_changed[1],
            "{observer}: Life cards resampled"
        );
        assert!(hand_changed, "{observer}: the opponent's hand resampled");
    }
}

/// F-DECK-2: `sealed --game fireforce` opens 5 packs of 7 non-Flame cards and 1 Flame card into a
/// Blitz Shield deck that validates; the same seed gives the same pool. Each card is drawn
/// uniformly among the pool's cards of its kind: over 200 pools the counts of the non-Flame cards
/// pass a chi-square test at the 0.1% level (df = cards − 1).
#[test]
fn sealed_pools_are_blitz_shield_decks_f_deck_2() {
    let db = bundled_cards();
    let text = FireForceGame::sealed(&db, 5, FireForceGame::DEFAULT_PACK, 9).unwrap();
    assert_eq!(
        text,
        FireForceGame::sealed(&db, 5, FireForceGame::DEFAULT_PACK, 9).unwrap()
    );
    let d = tcgsim::games::fireforce::deck::parse_deck(&text, "sealed", "sealed", &db).unwrap();
    assert_eq!((d.main.len(), d.flame.len()), (35, 5));
    assert!(
        FireForceGame::sealed(&db, 4, FireForceGame::DEFAULT_PACK, 9)
            .unwrap_err()
            .to_string()
            .contains("F-DECK-2")
    );
    let kinds: Vec<usize> = (0..db.cards.len())
        .filter(|&i| db.cards[i].ctype != CardType::Flame)
        .collect();
    let mut counts = vec![0u64; db.cards.len()];
    let pools = 200u64;
    for seed in 0..pools {
        let t = FireForceGame::sealed(&db, 5, FireForceGame::DEFAULT_PACK, seed).unwrap();
        let d = tcgsim::games::fireforce::deck::parse_deck(&t, "s", "s", &db).unwrap();
        for c in d.main {
            counts[c as usize] += 1;
        }
    }
    let e = (pools * 35) as f64 / kinds.len() as f64;
    let chi: f64 = kinds
        .iter()
        .map(|&k| (counts[k] as f64 - e).powi(2) / e)
        .sum();
    // Wilson–Hilferty approximation of the 99.9% quantile of chi-square(df).
    let df = (kinds.len() - 1) as f64;
    let q = df * (1.0 - 2.0 / (9.0 * df) + 3.090 * (2.0 / (9.0 * df)).sqrt()).powi(3);
    assert!(chi < q, "chi-square {chi:.1} ≥ {q:.1} (df {df})");
    // The command line writes it and `validate` accepts it.
    let dir = tmpdir("ffsealed");
    let o = tcgsim(&[
        "sealed",
        "--game",
        "fireforce",
        "--seed",
        "9",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = tcgsim(&[
        "validate",
        "--game",
        "fireforce",
        dir.join("sealed-9.deck").to_str().unwrap(),
    ]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(String::from_utf8_lossy(&v.stdout)
        .contains("Blitz Shield format, 35 cards + 5 Flame cards"));
}

/// Every effect example of the Fire Force part of `docs/cards.md` parses with the Fire Force
/// words (and the Trails part with the Trails words: `formats.rs`).
#[test]
fn every_fire_force_example_in_docs_cards_md_parses() {
    let doc = std::fs::read_to_string(root().join("docs/cards.md")).unwrap();
    let doc = doc
        .split("## Fire Force TCG")
        .nth(1)
        .expect("a Fire Force part");
    let doc = doc.split("## TMNT TCG").next().unwrap_or(doc);
    let unit = [
        "enter:",
        "dispatched:",
        "removed:",
        "attack:",
        "attacking:",
        "block:",
        "blocking:",
        "battle_end:",
        "end own turn:",
        "turn_end:",
        "active[",
        "reaction[",
        "static:",
        "static if",
        "attack if",
        "attack [",
        "block if",
    ];
    let event = ["main:", "reaction:", "main if", "reaction if"];
    let mut n = 0;
    for span in doc.split('`').skip(1).step_by(2) {
        let ctype = if span.contains(" bearer ") && span.starts_with("static") {
            CardType::Flame
        } else if unit.iter().any(|t| span.starts_with(t)) {
            CardType::Unit
        } else if event.iter().any(|t| span.starts_with(t)) {
            CardType::Event
        } else {
            continue;
        };
        if !span.contains(": ") {
            continue;
        }
        tcgsim::games::fireforce::dsl::effects(&mut CardDb::default(), span, ctype)
            .unwrap_or_else(|e| panic!("docs/cards.md example `{span}`: {e}"));
        n += 1;
    }
    assert!(n >= 18, "only {n} examples");
}

/// Bad Fire Force inputs name what is wrong: a card file's unknown keyword its line and column, a
/// scenario's unknown card its line. (That every game's damaged files exit 2 naming file and line
/// is checked for every game by `commands.rs`.)
#[test]
fn bad_fire_force_files_name_the_unknown_keyword_and_card() {
    let good = std::fs::read_to_string(root().join("decks/fireforce/cards.csv")).unwrap();
    let bad = good.replacen(",blitz,", ",blitzz,", 1);
    let line = bad
        .lines()
        .position(|l| l.contains(",blitzz,"))
        .expect("a blitz card")
        + 1;
    let e = CardDb::parse(&bad, "cards.csv").unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "cards.csv:{line}: column keywords: unknown keyword \"blitzz\""
        )),
        "{e}"
    );
    let e = FireForceGame::run_scenario(
        "game: fireforce\nP1: 20*Spark Cadet\nP1 flame: 5*Red Flame\nP2: 20*Spark Kadet\nP2 flame: 5*Red Flame\n",
        "bad.scn",
        &root(),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("bad.scn:4: unknown card \"Spark Kadet\""), "{e}");
}

/// Perft from the start, counted by hand: each player keeps or redraws (F-SETUP-2: 2 × 2), then
/// the second player chooses its Flame card among the distinct cards of its Flame deck (F-SETUP-5,
/// F-PREP-5): aggro_blitz's Flame deck holds Brigade Flame and Red Flame, 2 choices — 8 leaves at
/// depth 3; blocker_wall's (Bulwark Flame, White Flame) also 2.
#[test]
fn perft_from_the_start_is_counted_by_hand() {
    let g = game("aggro_blitz", "blocker_wall");
    for first in Seat::ALL {
        let mut s = g.new_game(1, first);
        assert_eq!(tcgsim::perft(&g, &mut s, 1), 2);
        assert_eq!(tcgsim::perft(&g, &mut s, 2), 4);
        assert_eq!(tcgsim::perft(&g, &mut s, 3), 8);
    }
}

/// A game log says how each battle ended (F-BAT-7): in the logged game of seed 2, a 4000 attacker
/// blocked by an 8000 Blocker, the battle over within the block, is said to hold; 4000 + 3000 +
/// 2000 of reactions against 8000 holds; in that of seed 39 (since the heuristic of issue 33), a
/// 5000 Unit supported by 1000 against 6000 is removed (equal power removes).
#[test]
fn the_log_tells_each_battle_f_bat_7() {
    let play = |seed: &str| {
        let o = tcgsim(&[
            "play",
            "--seed",
            seed,
            "--log",
            "decks/fireforce/blocker_wall.deck",
            "decks/fireforce/reaction_control.deck",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let log = play("2");
    let lines: Vec<&str> = log.lines().collect();
    let after = |needle: &str| {
        let k = lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in\n{log}"));
        lines[k + 1]
    };
    assert!(log.contains("P2: target player — Raging Infernal (4000) attacks P1 (Life 5)"));
    assert_eq!(
        after("P1: block with Bastion Gatekeeper (power 8000)"),
        "  P1's Bastion Gatekeeper holds against Raging Infernal: nothing happens (F-BAT-7)"
    );
    assert!(log.contains(
        "  P2's Raging Infernal (7000) holds against Wardline Sentry (6000): nothing happens (F-BAT-7)"
    ));
    assert!(log.contains("P2: use trigger of Flashover Trap"));
    let log = play("39");
    let lines: Vec<&str> = log.lines().collect();
    let k = lines
        .iter()
        .position(|l| *l == "P2: support Field Researcher — +1000 to Lab Overseer#1 (power 6000)")
        .unwrap_or_else(|| panic!("no support line in\n{log}"));
    assert_eq!(
        lines[k - 1],
        "P1: target Lab Overseer#1 — Ironclad Engineer (7000) attacks P2's Lab Overseer#1 (5000)"
    );
    assert_eq!(
        lines[k + 1],
        "  P2's Lab Overseer#1 is removed into THE ADOLLA"
    );
}

/// Card statistics (`tcgsim cards`) read `cards_out_of_deck`, `cards_in_hand` and `card_use`.
/// With stacked decks the answer is known by hand: after setup and P1's first draw, P1 has taken
/// out of its deck its top 5 cards and its 11th (cards 6 to 10 are face-down Life cards, not
/// drawn: F-SETUP-3); a dispatch plays a card, support power uses one as a resource.
#[test]
fn card_statistics_see_what_left_the_deck() {
    use tcgsim::CardUse;
    let db = bundled_cards();
    let ids: Vec<u8> = (0..db.cards.len() as u8)
        .filter(|&i| db.card(i).ctype != CardType::Flame)
        .take(20)
        .collect();
    let flame: Vec<u8> = (0..db.cards.len() as u8)
        .filter(|&i| db.card(i).ctype == CardType::Flame)
        .take(1)
        .collect();
    let g = FireForceGame::new(
        db.clone(),
        [ids.clone(), ids.clone()],
        [vec![flame[0]; 5], vec![flame[0]; 5]],
    );
    let mut s = g.setup_stacked(0, Seat::P1);
    g.apply(&mut s, Action::Keep);
    g.apply(&mut s, Action::Keep);
    assert_eq!((s.turn, s.active, s.step), (1, Seat::P1, Step::Main));
    let mut out = Vec::new();
    g.cards_out_of_deck(&s, Seat::P1, &mut |c| out.push(c as u8));
    out.sort_unstable();
    let mut want: Vec<u8> = ids[..5].to_vec();
    want.push(ids[10]);
    want.sort_unstable();
    assert_eq!(out, want);
    let mut hand = Vec::new();
    g.cards_in_hand(&s, Seat::P1, &mut |c| hand.push(c as u8));
    hand.sort_unstable();
    assert_eq!(hand, want);
    let mut p2 = Vec::new();
    g.cards_out_of_deck(&s, Seat::P2, &mut |c| p2.push(c as u8));
    assert_eq!(p2.len(), 5, "P2 has drawn its opening hand only");
    assert_eq!(
        g.card_use(&s, Action::Dispatch(ids[0])),
        Some((u32::from(ids[0]), CardUse::Played))
    );
    assert_eq!(
        g.card_use(&s, Action::Support(ids[1])),
        Some((u32::from(ids[1]), CardUse::Resource))
    );
    assert_eq!(g.card_use(&s, Action::End), None);
}

/// The heuristic's Life triggers watch the deck (issue 33, F-BAT-8, F-WIN-2): P1's Spark Cadet
/// (Blitz, Flame) attacks P2 on turn 1 and reveals a Hose Runner, whose trigger draws 1. With
/// P2's deck no longer than P1's and 4 Life cards left, the game is a race to an empty deck and
/// the draw a step nearer losing it: the heuristic passes. With a deck 19 cards longer than
/// P1's, it draws. It used to use every trigger.
#[test]
fn the_heuristic_declines_a_life_trigger_draw_in_a_deck_race() {
    let db = bundled_cards();
    let id = |n: &str| db.lookup(n).unwrap();
    let choice = |p1_extra: usize, p2_extra: usize| {
        let p1: Vec<_> = std::iter::once(id("Spark Cadet"))
            .chain(std::iter::repeat_n(
                id("Great Conflagration"),
                10 + p1_extra,
            ))
            .collect();
        let p2: Vec<_> = std::iter::repeat_n(id("Great Conflagration"), 5)
            .chain(std::iter::repeat_n(id("Hose Runner"), 5))
            .chain(std::iter::repeat_n(id("Great Conflagration"), 1 + p2_extra))
            .collect();
        let flame = vec![id("Red Flame"); 5];
        let g = FireForceGame::new(db.clone(), [p1, p2], [flame.clone(), flame]);
        let mut s = g.setup_stacked(0, Seat::P1);
        for text in [
            "keep",
            "keep",
            "dispatch Spark Cadet",
            "attack with Spark Cadet",
        ] {
            let mut legal = ActionList::new();
            g.legal(&s, &mut legal);
            let a = *legal
                .iter()
                .find(|&&a| g.action_text(&s, a) == text)
                .unwrap_or_else(|| panic!("{text} is not legal"));
            g.apply(&mut s, a);
        }
        let mut legal = ActionList::new();
        g.legal(&s, &mut legal);
        if let Some(&a) = legal
            .iter()
            .find(|&&a| g.action_text(&s, a) == "target player")
        {
            g.apply(&mut s, a);
        }
        assert_eq!(s.step, Step::LifeTrigger);
        assert_eq!(g.to_move(&s), Some(Seat::P2));
        let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P2);
        g.action_text(&s, a)
    };
    // Decks left: P1's 11 + extra - 5 in hand - 5 Life - 1 drawn; P2's 11 + extra - 10.
    assert_eq!(
        choice(10, 9),
        "pass",
        "10 cards against 10: a draw in a deck race"
    );
    assert_eq!(choice(10, 29), "use trigger", "30 cards against 10");
}

/// The heuristic never empties its own deck (issue 33, F-WIN-2: a player whose deck reaches 0
/// cards loses at once): P2 goes first, and its Spark Cadet (Blitz, Flame) takes one of P1's Life
/// cards on turns 1 and 3. On turn 4, P1 (3 Life cards, 1 card left in its deck after its draw, 3
/// ready Flame cards) holds Sister of the Hearth, whose `dispatched: life 1` puts the deck's last
/// card into the Life area. The engine says that dispatch loses the game; the heuristic ends its
/// turn. It used to dispatch it (at 3 Life cards a Life card was worth more than the short deck
/// cost it).
#[test]
fn the_heuristic_never_dispatches_a_unit_that_empties_its_own_deck() {
    let db = bundled_cards();
    let id = |n: &str| db.lookup(n).unwrap();
    // Hand, Life area, deck (top first): 5 + 5 + 3 cards.
    let p1: Vec<_> = std::iter::once(id("Sister of the Hearth"))
        .chain(std::iter::repeat_n(id("Great Conflagration"), 12))
        .collect();
    let p2: Vec<_> = std::iter::once(id("Spark Cadet"))
        .chain(std::iter::repeat_n(id("Great Conflagration"), 20))
        .collect();
    let flame = vec![id("Red Flame"); 5];
    let g = FireForceGame::new(db.clone(), [p1, p2], [flame.clone(), flame]);
    let mut s = g.setup_stacked(0, Seat::P2);
    let play = |s: &mut tcgsim::games::fireforce::state::State, text: &str| play_text(&g, s, text);
    for text in [
        "keep",
        "keep",
        "dispatch Spark Cadet",
        "attack with Spark Cadet",
        "target player",
        "end",
        "end",
        "attack with Spark Cadet",
        "target player",
        "end",
    ] {
        play(&mut s, text);
    }
    assert_eq!(s.step, Step::Main);
    assert_eq!(g.to_move(&s), Some(Seat::P1));
    assert_eq!(s.pl(Seat::P1).life_len, 3);
    assert_eq!(s.pl(Seat::P1).deck_len, 1);
    // The engine: dispatching Sister of the Hearth loses the game (F-WIN-2).
    let mut lost = s;
    play(&mut lost, "dispatch Sister of the Hearth");
    assert_eq!(lost.winner, Some(tcgsim::Outcome::Win(Seat::P2)));
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "end");
}

/// At 0 Life cards a hit on the player ends the game (F-WIN-1), whatever else is exhausted: the
/// heuristic's reaction (F-BAT-5) must stop this attack, not the next one (issue 33). P2 goes
/// first; its two Spark Cadets (Blitz, Flame) take P1's 5 Life cards on turns 1, 3 and 5. On
/// turn 7 one attacks P1 (0 Life cards, 4 ready Flame cards) while the other stands ready. P1's
/// hand lists Flashover Trap (exhaust a ready enemy Unit: at 1 Life card, an attack on the player
/// fewer this turn) before Counterflame (remove the attacker, FF-068): the engine lists reactions
/// in hand order (after a shuffle, any order). The heuristic plays Counterflame; it used to count
/// Flashover Trap as stopping the attack at 0 Life cards too, and played it, and lost.
#[test]
fn the_heuristic_stops_the_attack_that_ends_the_game_at_0_life_cards() {
    let db = bundled_cards();
    let id = |n: &str| db.lookup(n).unwrap();
    // Hand (Flashover Trap first), Life area, deck (top first): 5 + 5 + 10 cards, no Life
    // trigger among them.
    let p1: Vec<_> = [id("Flashover Trap"), id("Counterflame")]
        .into_iter()
        .chain(std::iter::repeat_n(id("Great Conflagration"), 18))
        .collect();
    let p2: Vec<_> = [id("Spark Cadet"), id("Spark Cadet")]
        .into_iter()
        .chain(std::iter::repeat_n(id("Great Conflagration"), 18))
        .collect();
    let flame = vec![id("Red Flame"); 5];
    let g = FireForceGame::new(db.clone(), [p1, p2], [flame.clone(), flame]);
    let mut s = g.setup_stacked(0, Seat::P2);
    let play = |s: &mut tcgsim::games::fireforce::state::State, text: &str| play_text(&g, s, text);
    let mut script = vec!["keep", "keep", "dispatch Spark Cadet"];
    script.extend(["attack with Spark Cadet", "target player", "end", "end"]);
    script.extend(["dispatch Spark Cadet", "pay Red Flame#1"]);
    // P1's Flame cards pay for Flashover Trap from turn 3 on: P1 passes.
    for _ in 0..2 {
        script.extend(["attack with Spark Cadet#1", "target player", "pass"]);
        script.extend(["attack with Spark Cadet#2", "target player", "pass"]);
        script.extend(["end", "end"]);
    }
    script.extend(["attack with Spark Cadet#1", "target player"]);
    for text in script {
        play(&mut s, text);
    }
    assert_eq!(s.step, Step::Reaction);
    assert_eq!(g.to_move(&s), Some(Seat::P1));
    assert_eq!(s.pl(Seat::P1).life_len, 0);
    let mut legal = ActionList::new();
    g.legal(&s, &mut legal);
    let texts: Vec<_> = legal.iter().map(|&a| g.action_text(&s, a)).collect();
    assert_eq!(
        texts[..2],
        ["react Flashover Trap", "react Counterflame"],
        "{texts:?}"
    );
    // The engine: Flashover Trap leaves the attack to end the game (F-WIN-1); Counterflame
    // removes the attacker and P1 plays on.
    let resolve = |s: &mut tcgsim::games::fireforce::state::State, text: &str| {
        play(s, text);
        // P1 passes the rest of the battle (its targets: the only legal one).
        while s.winner.is_none() && g.to_move(s) == Some(Seat::P1) {
            let mut legal = ActionList::new();
            g.legal(s, &mut legal);
            let pass = legal.iter().find(|&&a| g.action_text(s, a) == "pass");
            g.apply(s, *pass.unwrap_or(&legal[0]));
        }
    };
    let mut trap = s;
    resolve(&mut trap, "react Flashover Trap");
    assert_eq!(trap.winner, Some(tcgsim::Outcome::Win(Seat::P2)));
    let mut counter = s;
    resolve(&mut counter, "react Counterflame");
    assert_eq!(counter.winner, None);
    assert_eq!((counter.step, counter.active), (Step::Main, Seat::P2));
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "react Counterflame");
}

/// Plays `script` (action texts) from a stacked start (no shuffle, the first card on top) of
/// decks `p1` and `p2` (names), Red Flame decks, `first` moving first.
fn stacked_after(
    g: &FireForceGame,
    first: Seat,
    script: &[&str],
) -> tcgsim::games::fireforce::state::State {
    let mut s = g.setup_stacked(0, first);
    for text in script {
        play_text(g, &mut s, text);
    }
    s
}

/// Plays the legal action whose text is `text`; panics with the legal texts when none is.
fn play_text(g: &FireForceGame, s: &mut tcgsim::games::fireforce::state::State, text: &str) {
    let mut legal = ActionList::new();
    g.legal(s, &mut legal);
    let a = *legal
        .iter()
        .find(|&&a| g.action_text(s, a) == text)
        .unwrap_or_else(|| {
            let all: Vec<_> = legal.iter().map(|&a| g.action_text(s, a)).collect();
            panic!("{text} is not legal: {all:?}")
        });
    g.apply(s, a);
}

/// A stacked match: each hand (top of the list first) then filler cards without a Life trigger.
fn stacked_game(p1: &[&str], p2: &[&str]) -> FireForceGame {
    let db = bundled_cards();
    let id = |n: &str| db.lookup(n).unwrap();
    let deck = |hand: &[&str]| -> Vec<_> {
        hand.iter()
            .map(|n| id(n))
            .chain(std::iter::repeat_n(
                id("Great Conflagration"),
                20 - hand.len(),
            ))
            .collect()
    };
    let flame = vec![id("Red Flame"); 5];
    FireForceGame::new(db.clone(), [deck(p1), deck(p2)], [flame.clone(), flame])
}

/// The heuristic's attacks (issue 33, F-BAT-2, F-BAT-7): on turn 3, P2's Spark Cadet (1000) is
/// exhausted from its attack; P1 has Hose Runner (1000, no Flame) and a Blazing Rookie just
/// dispatched (2000, Blitz, Flame). Either removes the Spark Cadet; the Hose Runner does it and
/// the Blazing Rookie, which may attack the player, stays for the player. It used to attack with
/// the strongest Unit first.
#[test]
fn the_heuristic_removes_an_exhausted_unit_with_its_weakest_attacker() {
    let g = stacked_game(&["Hose Runner", "Blazing Rookie"], &["Spark Cadet"]);
    let s = stacked_after(
        &g,
        Seat::P1,
        &[
            "keep",
            "keep",
            "dispatch Hose Runner",
            "end",
            "dispatch Spark Cadet",
            "attack with Spark Cadet",
            "target player",
            "end",
            "dispatch Blazing Rookie",
        ],
    );
    assert_eq!((s.step, g.to_move(&s)), (Step::Main, Some(Seat::P1)));
    // The engine: the Hose Runner's attack removes the exhausted Spark Cadet (F-BAT-7).
    let mut after = s;
    for text in ["attack with Hose Runner", "target Spark Cadet"] {
        play_text(&g, &mut after, text);
    }
    assert_eq!(after.pl(Seat::P2).units(), 0);
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "attack with Hose Runner");
}

/// The heuristic's exhaust on its own turn (issue 33, F-BAT-2: only an exhausted Unit may be
/// attacked): on turn 5 P1 (Hose Runner, 1000, ready) dispatches Flicker Pyro, whose
/// `dispatched` text exhausts an enemy Unit of cost 2 or less. P2 has Spark Cadet (1000) and
/// Blazing Rookie (2000) ready. The heuristic exhausts the Spark Cadet, which the Hose Runner can
/// then attack and remove (F-BAT-7); it used to exhaust the strongest, the Blazing Rookie.
#[test]
fn the_heuristic_exhausts_an_enemy_unit_its_attackers_can_remove() {
    let g = stacked_game(
        &["Hose Runner", "Flicker Pyro"],
        &["Spark Cadet", "Blazing Rookie"],
    );
    let s = stacked_after(
        &g,
        Seat::P1,
        &[
            "keep",
            "keep",
            "dispatch Hose Runner",
            "end",
            "dispatch Spark Cadet",
            "end",
            "end",
            "dispatch Blazing Rookie",
            "pay Red Flame#1, Red Flame#2",
            "end",
            "dispatch Flicker Pyro",
        ],
    );
    assert_eq!(g.to_move(&s), Some(Seat::P1));
    let mut legal = ActionList::new();
    g.legal(&s, &mut legal);
    let texts: Vec<_> = legal.iter().map(|&a| g.action_text(&s, a)).collect();
    assert!(
        texts.contains(&"choose enemy Blazing Rookie".to_string()),
        "{texts:?}"
    );
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "choose enemy Spark Cadet");
    // The engine: the Spark Cadet is exhausted and the Hose Runner removes it (F-BAT-7).
    let mut s = s;
    g.apply(&mut s, a);
    for text in ["attack with Hose Runner", "target Spark Cadet"] {
        play_text(&g, &mut s, text);
    }
    assert_eq!(s.pl(Seat::P2).units().count_ones(), 1);
}

/// A stacked match of decks of different lengths: each list (top first) then filler cards
/// without a Life trigger up to `len` cards (5 in hand, 5 Life cards, the rest the deck).
fn stacked_game_of(p1: &[&str], len1: usize, p2: &[&str], len2: usize) -> FireForceGame {
    let db = bundled_cards();
    let id = |n: &str| db.lookup(n).unwrap();
    let deck = |hand: &[&str], len: usize| -> Vec<_> {
        hand.iter()
            .map(|n| id(n))
            .chain(std::iter::repeat_n(
                id("Great Conflagration"),
                len - hand.len(),
            ))
            .collect()
    };
    let flame = vec![id("Red Flame"); 5];
    FireForceGame::new(
        db.clone(),
        [deck(p1, len1), deck(p2, len2)],
        [flame.clone(), flame],
    )
}

/// The heuristic's decoy (issue 33, fourth round; F-BAT-2: the opponent attacks the player or
/// an exhausted Unit, F-WIN-1): P2 goes first; its Blazing Rookie (Blitz, Flame) takes P1 to 2
/// Life cards by turn 5, its Spark Cadet (Flame) stands ready. On turn 6 P1's Hose Runner (1000,
/// no Flame) removes nothing (the exhausted Blazing Rookie has 2000) and may not attack the
/// player; P1's hand holds nothing it can pay for. The heuristic attacks the Blazing Rookie
/// anyway: the exhausted Hose Runner is then a target P2's attacks may take instead of P1's
/// last Life cards. It used to end the turn.
#[test]
fn the_heuristic_exhausts_a_decoy_at_2_life_cards() {
    let g = stacked_game(&["Hose Runner"], &["Spark Cadet", "Blazing Rookie"]);
    let s = stacked_after(
        &g,
        Seat::P2,
        &[
            "keep",
            "keep",
            "dispatch Spark Cadet",
            "attack with Spark Cadet",
            "target player",
            "end",
            "dispatch Hose Runner",
            "end",
            "dispatch Blazing Rookie",
            "pay Red Flame#1, Red Flame#2",
            "attack with Blazing Rookie",
            "target player",
            "end",
            "end",
            "attack with Blazing Rookie",
            "target player",
            "end",
        ],
    );
    assert_eq!((s.step, g.to_move(&s)), (Step::Main, Some(Seat::P1)));
    assert_eq!(s.pl(Seat::P1).life_len, 2);
    // The engine: the attack removes nothing (F-BAT-7), and the exhausted Hose Runner is then a
    // target of P2's next attack (F-BAT-2).
    let mut after = s;
    for text in ["attack with Hose Runner", "target Blazing Rookie", "end"] {
        play_text(&g, &mut after, text);
    }
    assert_eq!(after.pl(Seat::P2).units().count_ones(), 2);
    play_text(&g, &mut after, "attack with Spark Cadet");
    let mut legal = ActionList::new();
    g.legal(&after, &mut legal);
    let texts: Vec<_> = legal.iter().map(|&a| g.action_text(&after, a)).collect();
    assert!(
        texts.contains(&"target Hose Runner".to_string()),
        "{texts:?}"
    );
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "attack with Hose Runner");
}

/// The heuristic's stall (issue 33, fourth round): P2's deck (20 cards) ends before P1's (30) —
/// F-PREP-2, F-WIN-2 — so P1 wins by lasting. P2 goes first; by turn 5 its Blazing Rookie takes
/// P1 to 2 Life cards, and three of its Units may attack the player (F-BAT-2). On turn 6 P1
/// holds Counterflame (4, remove the attacker) and 4 ready Flame cards, and could dispatch Lab
/// Assistant (1): it keeps the 4 Flame cards ready for Counterflame instead (the opponent's three
/// attackers outnumber its 2 Life cards, F-WIN-1). On turn 7, with P2's Spark Cadet attacking
/// P1's exhausted Hose Runner, it keeps Counterflame for an attack on the player rather than
/// save the Unit. It used to dispatch, and to play Counterflame for the Hose Runner.
#[test]
fn the_heuristic_keeps_counterflame_for_the_player_in_a_stall() {
    let g = stacked_game_of(
        &["Hose Runner", "Counterflame", "Lab Assistant"],
        30,
        &["Spark Cadet", "Blazing Rookie", "Spark Cadet"],
        20,
    );
    let s = stacked_after(
        &g,
        Seat::P2,
        &[
            "keep",
            "keep",
            "dispatch Spark Cadet",
            "attack with Spark Cadet",
            "target player",
            "end",
            "dispatch Hose Runner",
            "end",
            "dispatch Blazing Rookie",
            "pay Red Flame#1, Red Flame#2",
            "attack with Blazing Rookie",
            "target player",
            "end",
            "end",
            "dispatch Spark Cadet",
            "pay Red Flame#1",
            "attack with Blazing Rookie",
            "target player",
            "end",
        ],
    );
    assert_eq!((s.step, g.to_move(&s)), (Step::Main, Some(Seat::P1)));
    let (p1, p2) = (s.pl(Seat::P1), s.pl(Seat::P2));
    assert_eq!(p1.life_len, 2);
    assert!(
        p2.deck_len < p1.deck_len && p2.deck_len <= 12,
        "{} {}",
        p2.deck_len,
        p1.deck_len
    );
    assert_eq!((p1.flame_cards() & !p1.exhausted).count_ones(), 4);
    let mut legal = ActionList::new();
    g.legal(&s, &mut legal);
    let texts: Vec<_> = legal.iter().map(|&a| g.action_text(&s, a)).collect();
    assert!(
        texts.contains(&"dispatch Lab Assistant".to_string()),
        "{texts:?}"
    );
    let mut agent = HeuristicAgent::new(1);
    // The Hose Runner is a decoy (2 Life cards); then the turn ends, the 4 Flame cards ready.
    // Each choice is asked on a scripted position, so that each is checked on its own.
    let a = agent.choose(&g, &s, Seat::P1);
    let first = g.action_text(&s, a);
    let mut s = s;
    for text in ["attack with Hose Runner", "target Blazing Rookie"] {
        play_text(&g, &mut s, text);
    }
    let a = agent.choose(&g, &s, Seat::P1);
    let then = g.action_text(&s, a);
    for text in ["end", "attack with Spark Cadet#1", "target Hose Runner"] {
        play_text(&g, &mut s, text);
    }
    assert_eq!((s.step, g.to_move(&s)), (Step::Reaction, Some(Seat::P1)));
    // The engine: Counterflame would remove the attacker and save the Hose Runner (F-BAT-7).
    let mut saved = s;
    play_text(&g, &mut saved, "react Counterflame");
    for text in ["pass", "pass"] {
        if saved.winner.is_none() && g.to_move(&saved) == Some(Seat::P1) {
            let mut legal = ActionList::new();
            g.legal(&saved, &mut legal);
            if legal.iter().any(|&a| g.action_text(&saved, a) == text) {
                play_text(&g, &mut saved, text);
            }
        }
    }
    assert_eq!(saved.pl(Seat::P1).units().count_ones(), 1);
    let a = agent.choose(&g, &s, Seat::P1);
    let react = g.action_text(&s, a);
    assert_eq!(
        (first.as_str(), then.as_str(), react.as_str()),
        ("attack with Hose Runner", "end", "pass")
    );
}

/// The heuristic's bounce (issue 33, sixth round; F-KW-BLITZ, F-BAT-1, F-BAT-2): a Unit returned
/// to its owner's hand comes back for its cost, and one with Blitz may attack again on the turn
/// it comes back, so bouncing it holds off no attack. P2 goes first; its Cinder Imp (1000, Flame,
/// no Blitz) and Blazing Rookie (2000, Flame, Blitz) may both attack the player. On turn 4 P1
/// dispatches Field Researcher ("bounce target enemy unit cost<=2"): the heuristic bounces the
/// Cinder Imp, which cannot attack on the turn it is dispatched again. It used to bounce the
/// stronger Blazing Rookie.
#[test]
fn the_heuristic_bounces_a_unit_without_blitz() {
    let g = stacked_game(&["Field Researcher"], &["Cinder Imp", "Blazing Rookie"]);
    let s = stacked_after(
        &g,
        Seat::P2,
        &[
            "keep",
            "keep",
            "dispatch Cinder Imp",
            "end",
            "end",
            "dispatch Blazing Rookie",
            "pay Red Flame#1, Red Flame#2",
            "end",
            "dispatch Field Researcher",
        ],
    );
    assert_eq!(g.to_move(&s), Some(Seat::P1));
    // The engine (F-KW-BLITZ, F-BAT-1): each bounced and dispatched again on P2's turn 5 — the
    // Blazing Rookie may attack at once, the Cinder Imp may not.
    let again = |pick: &str, unit: &str, pay: &str| {
        let mut t = s;
        for text in [pick, "end", &format!("dispatch {unit}"), pay] {
            play_text(&g, &mut t, text);
        }
        let mut legal = ActionList::new();
        g.legal(&t, &mut legal);
        legal
            .iter()
            .any(|&a| g.action_text(&t, a) == format!("attack with {unit}"))
    };
    assert!(again(
        "choose enemy Blazing Rookie",
        "Blazing Rookie",
        "pay Red Flame#1, Red Flame#2"
    ));
    assert!(!again(
        "choose enemy Cinder Imp",
        "Cinder Imp",
        "pay Red Flame#1"
    ));
    let a = HeuristicAgent::new(1).choose(&g, &s, Seat::P1);
    assert_eq!(g.action_text(&s, a), "choose enemy Cinder Imp");
}
