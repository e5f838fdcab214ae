//! The TMNT TCG beyond its scenarios (`tests/scenarios/tmnt_*.scn`): deck files (M-DECK-1), the
//! shuffle and the Block cards against the hypergeometric distribution (M-SETUP-1, M-SETUP-2),
//! the first player (M-SETUP-3, M-ADJ-2), what each player knows and what determinization
//! resamples (M-INFO), the card documentation, perft counted by hand, the log, card statistics,
//! and the command line on this game.

use crate::common::{tcgsim, tmpdir};
use std::path::PathBuf;
use tcgsim::games::tmnt::cards::CardType;
use tcgsim::games::tmnt::state::{Bits, Step, NONE};
use tcgsim::games::tmnt::{bundled_cards, Action, CardDb};
use tcgsim::{rng_from_seed, ActionList, Game, GameDef, Seat, TmntGame};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn deck(name: &str) -> tcgsim::games::tmnt::deck::TmntDeck {
    TmntGame::load_deck(
        &bundled_cards(),
        &root().join(format!("decks/tmnt/{name}.deck")),
    )
    .unwrap()
}

fn game(a: &str, b: &str) -> TmntGame {
    TmntGame::new_match(&bundled_cards(), [&deck(a), &deck(b)])
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A small card file written here, so the answers below are known by hand.
const POOL: &str = "number,name,type,kind,power,attribute,combo,effect
T-1,Plain Brawler,character,,2,mountain,,
T-2,Other Brawler,character,,3,wind,,
T-3,Twin Print,character,,1,fire,,
T-4,Twin Print,character,,1,fire,,flip: draw 1
T-5,Big Brawler,character,,6,mountain,,
";

fn pool() -> CardDb {
    CardDb::parse(POOL, "pool").unwrap()
}

/// Writes a deck file and runs `validate --game tmnt` on it.
fn validate(name: &str, text: &str) -> std::process::Output {
    let d = tmpdir(&format!("tmdeck-{name}"));
    let p = d.join(format!("{name}.deck"));
    std::fs::write(&p, text).unwrap();
    tcgsim(&["validate", "--game", "tmnt", p.to_str().unwrap()])
}

/// M-DECK-1: exactly 40 cards, at most 3 of one title — also when two card numbers share the
/// title. Each problem names its file and line; exit code 2.
#[test]
fn deck_files_follow_m_deck_1() {
    let db = bundled_cards();
    // Two numbers with one title in the bundled pool (a second print).
    let (a, b) = (0..db.cards.len())
        .flat_map(|i| (i + 1..db.cards.len()).map(move |j| (i, j)))
        .find(|&(i, j)| db.cards[i].title == db.cards[j].title)
        .expect("the pool has a title printed twice");
    let (na, nb) = (db.cards[a].number.clone(), db.cards[b].number.clone());
    let others: Vec<String> = db
        .cards
        .iter()
        .filter(|c| c.title != db.cards[a].title)
        .take(13)
        .map(|c| c.number.clone())
        .collect();
    let mut ok = String::from("# Plan: a test deck\n");
    for n in &others {
        ok.push_str(&format!("3 {n}\n"));
    }
    ok.push_str(&format!("1 {na}\n"));
    let o = validate("ok", &ok);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 2 + 2 of one title in two numbers: 4 > 3.
    let mut four = String::from("# Plan: a test deck\n");
    for n in &others[..12] {
        four.push_str(&format!("3 {n}\n"));
    }
    four.push_str(&format!("2 {na}\n2 {nb}\n"));
    let o = validate("four", &four);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("four.deck:14: 4 cards titled") && e.contains("(M-DECK-1)"),
        "{e}"
    );
    // 39 cards; an unknown card; a bad count.
    let short = ok.replacen(&format!("1 {na}\n"), "", 1) + "\n";
    let o = validate("short", &short);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("short.deck: 39 cards; a deck has exactly 40 (M-DECK-1)"));
    let o = validate("unknown", &(ok.clone() + "1 No Such Card\n"));
    assert!(
        stderr(&o).contains("unknown.deck:16: unknown card \"No Such Card\""),
        "{}",
        stderr(&o)
    );
    let o = validate("count", "# Plan: x\nx TM-001\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("count.deck:2: count"), "{}", stderr(&o));
}

/// M-SETUP-1, M-SETUP-2: the deck is shuffled, 5 cards drawn, the next 4 set face down on Block
/// Zones 1–4. A card with 3 copies in a 40-card deck is in the hand k times with probability
/// C(3,k)·C(37,5−k)/C(40,5) (0.66245, 0.30111, 0.03543, 0.00101) and on the Block Zones k times
/// with C(3,k)·C(37,4−k)/C(40,4) (0.72267, 0.25506, 0.02186, 0.00040). Over 6000 seeded deals
/// each count passes a chi-square test (0.1% level; df 2, the last two cells pooled: 13.82).
#[test]
fn hands_and_block_cards_are_hypergeometric_m_setup_1_m_setup_2() {
    let g = game("starter_north", "starter_east");
    let probe = *g.decks[0]
        .iter()
        .find(|&&c| g.decks[0].iter().filter(|&&x| x == c).count() == 3)
        .expect("a card with 3 copies");
    let c = |n: u64, k: u64| -> f64 { (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product() };
    let hand_p = [0, 1, 2, 3].map(|k| c(3, k) * c(37, 5 - k) / c(40, 5));
    let block_p = [0, 1, 2, 3].map(|k| c(3, k) * c(37, 4 - k) / c(40, 4));
    assert!((hand_p[0] - 0.66245).abs() < 1e-5 && (block_p[1] - 0.25506).abs() < 1e-5);
    let n = 6000;
    let (mut hand, mut block) = ([0u64; 4], [0u64; 4]);
    for seed in 0..n {
        let s = g.setup(seed, Seat::P1);
        let p = s.pl(Seat::P1);
        assert_eq!((p.hand.count_ones(), p.deck_len), (5, 31));
        hand[Bits(p.hand)
            .filter(|&i| p.card[i as usize] == probe)
            .count()] += 1;
        block[p
            .block
            .iter()
            .filter(|&&i| p.card[i as usize] == probe)
            .count()] += 1;
    }
    let chi = |counts: [u64; 4], p: [f64; 4]| -> f64 {
        let obs = [counts[0], counts[1], counts[2] + counts[3]];
        let exp = [p[0], p[1], p[2] + p[3]].map(|x| x * n as f64);
        (0..3)
            .map(|k| (obs[k] as f64 - exp[k]).powi(2) / exp[k])
            .sum()
    };
    assert!(chi(hand, hand_p) < 13.82, "hand {hand:?}");
    assert!(chi(block, block_p) < 13.82, "blocks {block:?}");
    assert_eq!(g.setup(5, Seat::P1), g.setup(5, Seat::P1));
    assert_ne!(g.setup(5, Seat::P1), g.setup(6, Seat::P1));
}

/// M-SETUP-2, M-SETUP-4, M-SETUP-5: with the deck stacked, the hand is the top 5 cards and Block
/// Zone z (1 to 4) holds the (5 + z)-th card, face down, known to its owner only; the 10th card is
/// the top of the deck. M-SETUP-3, M-ADJ-2: the first player is a parameter and skips its first
/// Adjust phase: with zones full it neither draws nor sets on turn 1.
#[test]
fn setup_deals_hand_then_blocks_and_the_first_player_skips_adjust() {
    let db = pool();
    // Instances are dealt from the top: the deck lists card ids top first.
    let list: Vec<u8> = (0..40).map(|k| [0u8, 1, 2][k % 3]).collect();
    let g = TmntGame {
        db,
        decks: [list.clone(), list.clone()],
    };
    for first in Seat::ALL {
        let s = g.setup_with(0, first, false);
        for q in Seat::ALL {
            let p = s.pl(q);
            let hand: Vec<u8> = Bits(p.hand).map(|i| p.card[i as usize]).collect();
            let mut want = list[..5].to_vec();
            want.sort_unstable();
            let mut got = hand.clone();
            got.sort_unstable();
            assert_eq!(got, want);
            for z in 0..4 {
                assert_eq!(p.card[p.block[z] as usize], list[5 + z], "zone {}", z + 1);
                assert_eq!(p.up & (1 << p.block[z]), 0, "face down");
                assert_ne!(
                    p.known[q.index()] & (1 << p.block[z]),
                    0,
                    "its owner knows it"
                );
                assert_eq!(p.known[q.other().index()] & (1 << p.block[z]), 0);
            }
            assert_eq!(p.card[p.deck[p.deck_len as usize - 1] as usize], list[9]);
        }
        let s = g.new_game(0, first);
        assert_eq!((s.turn, s.active), (1, first));
        let p = s.pl(first);
        assert_eq!(
            (p.hand.count_ones(), p.deck_len),
            (5, 31),
            "no Adjust draw on turn 1"
        );
    }
}

/// M-INFO-1: each hand and face-down Block card is hidden from the opponent; deck order from both.
/// M-INFO-3: determinization keeps every card the observer knows (its hand, its own face-down
/// Block cards, everything face up) and resamples the rest — the opponent's hand and face-down
/// Block cards, both decks — within each player's own cards.
#[test]
fn determinization_keeps_own_blocks_and_resamples_the_opponent_s_m_info_1_m_info_3() {
    let g = game("mountain_brawlers", "forest_counter");
    let s = crate::common::random_position(&g, 7, 25);
    assert!(s.winner.is_none(), "turn {}", s.turn);
    let mut rng = rng_from_seed(4);
    for observer in Seat::ALL {
        let me = s.pl(observer);
        let opp = s.pl(observer.other());
        let my_down = me.blocks_mask() & !me.up;
        let opp_down = opp.blocks_mask() & !opp.up;
        assert_eq!(opp.known[observer.index()] & opp_down, 0);
        // Hand cards the observer knows are public cards salvaged into the hand (M-INFO-2).
        assert_eq!(
            opp.known[observer.index()] & opp.hand & !s.pl(observer.other()).hand,
            0
        );
        let (mut hand_changed, mut blocks_changed) = (false, false);
        for _ in 0..300 {
            let d = g.determinize(&s, observer, &mut rng);
            g.check_invariants(&d).unwrap();
            assert_eq!(g.info_key(&d, observer), g.info_key(&s, observer));
            for q in Seat::ALL {
                let (a, b) = (s.pl(q), d.pl(q));
                let public = a.trash | a.items | (a.up & a.blocks_mask());
                for i in Bits(public) {
                    assert_eq!(a.card[i as usize], b.card[i as usize]);
                }
            }
            let (a, b) = (s.pl(observer), d.pl(observer));
            for i in Bits(a.hand | my_down) {
                assert_eq!(a.card[i as usize], b.card[i as usize], "own cards kept");
            }
            let (a, b) = (s.pl(observer.other()), d.pl(observer.other()));
            hand_changed |= Bits(a.hand).any(|i| a.card[i as usize] != b.card[i as usize]);
            blocks_changed |= Bits(opp_down).any(|i| a.card[i as usize] != b.card[i as usize]);
        }
        assert!(hand_changed, "{observer}: the opponent's hand resampled");
        if opp_down != 0 {
            assert!(
                blocks_changed,
                "{observer}: the opponent's Block cards resampled"
            );
        }
    }
}

/// Every effect example of the TMNT part of `docs/cards.md` parses with the TMNT words.
#[test]
fn every_tmnt_example_in_docs_cards_md_parses() {
    let doc = std::fs::read_to_string(root().join("docs/cards.md")).unwrap();
    let doc = doc.split("## TMNT TCG").nth(1).expect("a TMNT part");
    // `name=` filters name titles of a card file: the examples' titles are the designer set's.
    let designer =
        std::fs::read_to_string(root().join("tests/data/designer/tmnt.played.csv")).unwrap();
    let titles = CardDb::parse(&designer, "designer").unwrap().titles;
    let mut n = 0;
    for span in doc.split('`').skip(1).step_by(2) {
        let ctype = if span.starts_with("static:")
            || span.starts_with("when ")
            || span.starts_with("start ")
            || span.starts_with("damaged:")
            || span.starts_with("milled ")
        {
            CardType::Item
        } else if span.starts_with("play:")
            || span.starts_with("flip:")
            || span.starts_with("play_flip:")
        {
            CardType::Event
        } else {
            continue;
        };
        if !span.contains(": ") {
            continue;
        }
        tcgsim::games::tmnt::dsl::effects_in(span, ctype, &titles)
            .unwrap_or_else(|e| panic!("docs/cards.md example `{span}`: {e}"));
        n += 1;
    }
    assert!(n >= 8, "only {n} examples");
    // The example rows parse as a card file.
    let rows = doc
        .split("```text\n")
        .nth(2)
        .and_then(|b| b.split("```").next())
        .expect("the example rows");
    let db = CardDb::parse(&format!("{}\n{rows}", POOL.lines().next().unwrap()), "rows");
    assert!(db.is_ok(), "{:?}", db.err());
}

/// Bad TMNT inputs name what is wrong: a card file's bad attribute, a forceful attack card without
/// its combo, a combo naming no character, an event's bad effect, each with its line; a
/// scenario's unknown card its line. (That every game's damaged files exit 2 naming file and line
/// is checked for every game by `commands.rs`.)
#[test]
fn bad_tmnt_files_name_the_bad_value_and_card() {
    let good = std::fs::read_to_string(root().join("decks/tmnt/cards.csv")).unwrap();
    let bad = good.replacen(",mountain,", ",mountian,", 1);
    let line = bad.lines().position(|l| l.contains(",mountian,")).unwrap() + 1;
    let e = CardDb::parse(&bad, "cards.csv").unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "cards.csv:{line}: column attribute: \"mountian\": expected wind, forest, fire or mountain"
        )),
        "{e}"
    );
    // A forceful attack card without a combo, and a combo naming no character.
    for (row, want) in [
        (
            "X-1,Lone Smash,attack,forceful,4,fire,,",
            "column combo: a forceful attack card names its combo",
        ),
        (
            "X-1,Lone Smash,attack,forceful,4,fire,Nobody,",
            "column combo: \"Nobody\" is not the title of a character",
        ),
        ("X-1,Odd Event,event,,,,,static: draw 1", "column effect"),
    ] {
        let e = CardDb::parse(
            &format!("{}\n{row}\n", POOL.lines().next().unwrap()),
            "x.csv",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("x.csv:2:") && e.contains(want), "{e}");
    }
    let e = TmntGame::run_scenario(
        "game: tmnt\nP1: 20*TM-001\nP2: 20*No Such Card\n",
        "bad.scn",
        &root(),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("bad.scn:3: unknown card \"No Such Card\""),
        "{e}"
    );
}

/// Perft counted by hand, on decks of one vanilla character of power 2 (M-TURN-2: decisions with
/// one legal action are not asked). Turn 1: P1's Block Zone 1 flips (M-FLIP-1), no attack card
/// is placeable, damage 2 flips P2's Block Zones 1 and 2 (M-ATK-9). Result step (M-ATK-13): P1
/// keeps its character or none (2); P2 has two face-up copies side by side, so only Block Zone 1
/// is offered, or none (M-ATK-15): 2. Turn 2 is the same with the seats swapped: 8, then 16.
#[test]
fn perft_of_vanilla_decks_is_counted_by_hand() {
    let g = TmntGame {
        db: pool(),
        decks: [vec![0; 40], vec![0; 40]],
    };
    for first in Seat::ALL {
        let mut s = g.new_game(1, first);
        assert_eq!((s.step, s.chooser), (Step::Keep, first));
        let mut l = ActionList::new();
        g.legal_actions(&s, &mut l);
        assert_eq!(l.as_slice(), &[Action::Pass, Action::Keep(0)]);
        for (depth, n) in [(1, 2), (2, 4), (3, 8), (4, 16)] {
            assert_eq!(tcgsim::perft(&g, &mut s, depth), n, "depth {depth}");
        }
    }
}

/// Issue 31: what setting a card on a Block Zone (M-SET-1) is, for card statistics. Played when
/// setting is how the card comes into play or acts — a Character (M-FLIP-1: it stays on Block
/// Zone 1), a card with a `flip:` text (a <Flip> Event, an Attack card's flip text: it resolves
/// when flipped, M-FLIP-1, M-FLIP-3); a resource otherwise (an Attack card without a flip text, a
/// <Play> Event, an Item: any card fills a Block Zone). Placing an attack card or an Event from
/// hand is played.
#[test]
fn setting_a_card_is_played_only_where_it_acts() {
    use tcgsim::CardUse;
    let db = CardDb::parse(
        "number,name,type,kind,power,attribute,combo,effect
S-1,Set Brawler,character,,2,mountain,,
S-2,Flip Jab,attack,normal,2,mountain,,flip: draw 1
S-3,Plain Jab,attack,normal,2,mountain,,
S-4,Flip Trick,event,,,,,flip: discard enemy 1
S-5,Play Trick,event,,,,,play: draw 1
S-6,Plain Charm,item,,,mountain,,
",
        "set-pool",
    )
    .unwrap();
    let g = TmntGame {
        db,
        decks: [vec![0; 40], vec![0; 40]],
    };
    let s = g.new_game(1, Seat::P1);
    let used = |id: u8| g.card_use(&s, Action::Set(id)).map(|(_, u)| u);
    assert_eq!(used(0), Some(CardUse::Played), "a Character");
    assert_eq!(
        used(1),
        Some(CardUse::Played),
        "an attack card with a flip text"
    );
    assert_eq!(used(2), Some(CardUse::Resource), "a plain attack card");
    assert_eq!(used(3), Some(CardUse::Played), "a <Flip> Event");
    assert_eq!(used(4), Some(CardUse::Resource), "a <Play> Event");
    assert_eq!(used(5), Some(CardUse::Resource), "an Item");
    assert_eq!(
        g.card_use(&s, Action::Attack(2)).map(|(_, u)| u),
        Some(CardUse::Played)
    );
}

/// Card statistics read `cards_out_of_deck`, `cards_in_hand` and `card_use`. With stacked decks
/// the answer is known by hand: on turn 1 P1 has taken its top 9 cards out of its deck (5 in hand,
/// 4 on Block Zones; turn 1 has no Adjust draw, M-ADJ-2) and holds the top 5 minus none.
#[test]
fn card_statistics_see_what_left_the_deck() {
    use tcgsim::CardUse;
    let db = pool();
    let list: Vec<u8> = (0..40).map(|k| [0u8, 1, 2, 3][k % 4]).collect();
    let g = TmntGame {
        db,
        decks: [list.clone(), list.clone()],
    };
    let s = g.setup_stacked(Seat::P1);
    let mut out = Vec::new();
    g.cards_out_of_deck(&s, Seat::P1, &mut |c| out.push(c as u8));
    out.sort_unstable();
    let mut want = list[..9].to_vec();
    want.sort_unstable();
    assert_eq!(out, want);
    let mut hand = Vec::new();
    g.cards_in_hand(&s, Seat::P1, &mut |c| hand.push(c as u8));
    hand.sort_unstable();
    let mut want = list[..5].to_vec();
    want.sort_unstable();
    assert_eq!(hand, want);
    assert_eq!(
        g.card_use(&s, Action::Attack(1)),
        Some((1, CardUse::Played))
    );
    // A Character set on a Block Zone is played: setting is how it comes into play (M-SET-1,
    // M-FLIP-1; issue 31 — it was a resource, and every Character was flagged `rarely played`).
    assert_eq!(g.card_use(&s, Action::Set(2)), Some((2, CardUse::Played)));
    assert_eq!(g.card_use(&s, Action::Keep(0)), None);
    assert!(s.pl(Seat::P1).block.iter().all(|&i| i != NONE));
    // Cards sent from the deck straight to the Trash are not drawn: P1's Big Brawler (6) deals 6
    // damage on turn 1, P2's 4 Block cards turn face up and 2 cards go from its deck to the Trash
    // (M-ATK-10). P2 has 11 cards out of its deck; 9 of them (hand and Block cards) were drawn.
    let g = TmntGame {
        db: pool(),
        decks: [vec![4; 40], vec![4; 40]],
    };
    let s = g.new_game(3, Seat::P1);
    assert_eq!((s.step, s.chooser), (Step::Keep, Seat::P1));
    assert_eq!(s.pl(Seat::P2).deck_len, 40 - 11);
    let mut n = 0;
    g.cards_out_of_deck(&s, Seat::P2, &mut |c| {
        assert_eq!(c, 4);
        n += 1;
    });
    assert_eq!(n, 9);
}

/// The log of a game shows an attack with three attack cards and a counter, checked against the
/// cards' printed powers (M-ATK-3, M-ATK-7, M-ATK-8): the Forward step's total is the attacking
/// character's power plus the three attack cards' (no effect in this attack changes a power), the
/// damage flips the defender's Block cards and the rest goes from its deck (M-ATK-9, M-ATK-10),
/// and the Result step sends the face-up cards to the Trash (M-ATK-13). The game is seed 45 of
/// wind_tempo against forest_counter.
#[test]
fn the_log_shows_a_three_card_attack_a_counter_and_overflow_m_atk() {
    let o = tcgsim(&[
        "play",
        "--seed",
        "45",
        "--log",
        "decks/tmnt/wind_tempo.deck",
        "decks/tmnt/forest_counter.deck",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = log.lines().collect();
    // "(attack normal 3 fire)" -> 3; "(character 5 forest)" -> 5.
    let power = |l: &str| -> i32 {
        let inner = l.split('(').nth(1).unwrap().split(')').next().unwrap();
        let w: Vec<&str> = inner.split_whitespace().collect();
        w[w.len() - 2].parse().unwrap()
    };
    let k = (0..lines.len() - 4)
        .find(|&k| {
            (0..3).all(|j| lines[k + j].starts_with("P2: attack "))
                && lines[k + 3].starts_with("P1: counter ")
        })
        .unwrap_or_else(|| panic!("no attack of three cards and a counter in\n{log}"));
    let character = lines[..k]
        .iter()
        .rev()
        .find(|l| l.contains("P2's Block Zone 1 turns face up:") || l.contains("P2: keep "))
        .unwrap();
    assert!(character.contains("(character "), "{character}");
    let total = power(character) + (0..3).map(|j| power(lines[k + j])).sum::<i32>();
    let counter = power(lines[k + 3]);
    let dmg = total - counter;
    assert_eq!(
        lines[k + 4],
        format!("  Forward step: P2's total power {total} − P1's counter power {counter} = damage {dmg}")
    );
    let flipped = lines[k + 5..]
        .iter()
        .take_while(|l| l.starts_with("  P1's Block Zone"))
        .count() as i32;
    assert_eq!(
        flipped, 3,
        "three face-down Block cards (Block Zone 1 was empty)"
    );
    let overflow = lines[k + 5..]
        .iter()
        .find(|l| l.starts_with("  P1 sends "))
        .expect("overflow to the deck");
    assert!(
        overflow.starts_with(&format!("  P1 sends {} cards from its deck", dmg - flipped)),
        "{overflow}"
    );
    assert!(lines[k..]
        .iter()
        .any(|l| l.starts_with("  Result step: P1's ")));
}

/// The example of `docs/scenario.md` ("TMNT scenarios") is `tests/scenarios/tmnt_doc_example.scn`
/// word for word (the scenario suite runs it).
#[test]
fn the_scenario_doc_example_is_the_test_file() {
    let doc = std::fs::read_to_string(root().join("docs/scenario.md")).unwrap();
    let part = doc.split("## TMNT scenarios").nth(1).unwrap();
    let block = part
        .split("```text\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let file =
        std::fs::read_to_string(root().join("tests/scenarios/tmnt_doc_example.scn")).unwrap();
    assert_eq!(block, file);
}

/// M-SET-4: should the hand hold fewer cards than empty Block Zones, the zones are filled from the
/// lowest as far as the hand goes and the rest stay empty. Play never reaches it (the Adjust phase
/// leaves at least 6 + E cards, and nothing happens between it and the Set phase), so the state is
/// built by hand: P1's Block Zones 2 and 4 emptied, one card left in hand, the turn at M-SET-1 (1).
#[test]
fn set_phase_fills_what_the_hand_allows_m_set_4() {
    use tcgsim::games::tmnt::state::Stage;
    let g = TmntGame {
        db: pool(),
        decks: [vec![1; 40], vec![1; 40]],
    };
    let mut s = g.setup_with(0, Seat::P1, false);
    let p = s.pl_mut(Seat::P1);
    let (b1, b2, b3, b4) = (p.block[0], p.block[1], p.block[2], p.block[3]);
    let kept = Bits(p.hand).next().unwrap();
    let gone = (p.hand & !(1 << kept)) | 1 << b2 | 1 << b4;
    p.block[1] = NONE;
    p.block[3] = NONE;
    p.hand = 1 << kept;
    p.trash |= gone;
    p.known = [p.known[0] | gone, p.known[1] | gone];
    s.stage = Stage::Shift;
    g.check_invariants(&s).unwrap();
    g.advance(&mut s);
    g.check_invariants(&s).unwrap();
    let p = s.pl(Seat::P1);
    assert_eq!(
        p.block,
        [b1, b3, kept, NONE],
        "shifted, then one zone filled"
    );
    assert_eq!(p.hand, 0);
    assert_eq!(
        (s.step, s.chooser),
        (Step::Keep, Seat::P1),
        "the turn went on"
    );
}

/// M-INFO-2: a card the opponent knows in a hand (salvaged from the public Trash) is known no more
/// once its owner sets a card face down from that hand — the opponent cannot tell which card went
/// to the Block Zone. Over random games of salvaging decks, after every Set the opponent knows
/// none of the setter's hand and none of its face-down Block cards.
#[test]
fn a_set_card_hides_which_card_left_the_hand_m_info_2() {
    use tcgsim::{Agent, RandomAgent};
    let g = game("fire_burn", "items_engine");
    let (mut sets, mut known_before) = (0, 0);
    for seed in 0..300 {
        let mut s = g.new_game(seed, Seat::from_index((seed % 2) as usize));
        let mut agents = [RandomAgent::new(seed), RandomAgent::new(seed + 1000)];
        while let Some(q) = g.to_move(&s) {
            let a = agents[q.index()].choose(&g, &s, q);
            let opp = q.other().index();
            let trash = s.pl(q).trash;
            if matches!(a, Action::Set(_)) {
                known_before += usize::from(s.pl(q).known[opp] & s.pl(q).hand != 0);
            }
            g.apply(&mut s, a);
            // (A salvage later in the same stretch makes a hand card known again: skip those.)
            if matches!(a, Action::Set(_)) && trash & !s.pl(q).trash == 0 {
                sets += 1;
                let p = s.pl(q);
                let down = p.blocks_mask() & !p.up;
                assert_eq!(p.known[opp] & (p.hand | down), 0, "seed {seed}");
            }
        }
    }
    assert!(
        sets > 1000 && known_before > 10,
        "{sets} sets, {known_before} with a known card"
    );
}

/// M-INFO-1, M-TURN-2: a pass is asked only when something else was possible, so a log for a
/// viewer who does not see the hand never shows a pass in the Event, Item, Attack or Counter step
/// (with `--reveal` it does).
#[test]
fn a_public_log_does_not_tell_of_passes() {
    let mut revealed = 0;
    for seed in ["1", "2", "3"] {
        let args = [
            "play",
            "--seed",
            seed,
            "--log",
            "decks/tmnt/forest_counter.deck",
            "decks/tmnt/wind_tempo.deck",
        ];
        let public = String::from_utf8_lossy(&tcgsim(&args).stdout).into_owned();
        assert!(!public.lines().any(|l| l.ends_with(": pass")), "{public}");
        let mut all = args.to_vec();
        all.push("--reveal");
        let shown = String::from_utf8_lossy(&tcgsim(&all).stdout).into_owned();
        revealed += shown.lines().filter(|l| l.ends_with(": pass")).count();
        assert_eq!(public.lines().last(), shown.lines().last(), "the same game");
    }
    assert!(revealed > 0, "no pass at all in three games");
}

/// `play --human` and the protocol's view show the texts of the cards in view in plain English
/// (issue 28): the designer set's decks, the seat's own hand and Block cards.
#[test]
fn the_view_shows_the_texts_of_the_cards_in_view() {
    let dir = root().join("tests/data/designer");
    let text = std::fs::read_to_string(dir.join("tmnt.played.csv")).unwrap();
    let cards = CardDb::parse(&text, "played").unwrap();
    let deck = |n: &str| TmntGame::load_deck(&cards, &dir.join(n)).unwrap();
    let g = TmntGame::new_match(
        &cards,
        [&deck("tmnt_ninja.deck"), &deck("tmnt_brutes.deck")],
    );
    let s = g.new_game(5, Seat::P1);
    let view = g.render(&s, Seat::P1);
    let (_, texts) = view.split_once("texts in view:\n").expect("a texts part");
    assert!(!texts.trim().is_empty(), "{view}");
    // Every line is a card's title and its text in English, not the card language.
    for line in texts.lines() {
        assert!(line.starts_with("  ") && line.contains(": "), "{line}");
        assert!(!line.contains(" self ") && !line.contains("_"), "{line}");
    }
    // The opponent's face-down Block cards and hand stay out of it.
    let opp = g.render(&s, Seat::P2);
    assert_ne!(view, opp);
}

/// M-INFO-5, M-SHUF-1, M-INFO-3: in games of the designer set's decks, the player to move has
/// the same legal actions in every determinization for it — a choice by card id (`search`,
/// `dig`, a card of the opponent's hand, the Trash) names only cards the chooser sees.
#[test]
fn the_chooser_sees_every_card_it_chooses_among() {
    let dir = root().join("tests/data/designer");
    let text = std::fs::read_to_string(dir.join("tmnt.played.csv")).unwrap();
    let cards = CardDb::parse(&text, "played").unwrap();
    let deck = |n: &str| TmntGame::load_deck(&cards, &dir.join(n)).unwrap();
    let (a, b) = (deck("tmnt_ninja.deck"), deck("tmnt_brutes.deck"));
    let mut rng = rng_from_seed(41);
    let mut steps = std::collections::HashMap::new();
    for (k, g) in [
        TmntGame::new_match(&cards, [&a, &b]),
        TmntGame::new_match(&cards, [&b, &a]),
    ]
    .iter()
    .enumerate()
    {
        for seed in 0..300u64 {
            let mut s = g.new_game(seed * 2 + k as u64, Seat::from_index((seed % 2) as usize));
            let mut pick = tcgsim::RandomAgent::new(seed);
            while let Some(q) = g.to_move(&s) {
                let mut l = ActionList::new();
                g.legal_actions(&s, &mut l);
                for _ in 0..2 {
                    let d = g.determinize(&s, q, &mut rng);
                    let mut m = ActionList::new();
                    g.legal_actions(&d, &mut m);
                    assert_eq!(
                        l.as_slice(),
                        m.as_slice(),
                        "{q} at {:?}: legal actions depend on cards it does not see",
                        s.step
                    );
                }
                *steps.entry(s.step.name()).or_insert(0u32) += 1;
                let act = tcgsim::Agent::choose(&mut pick, g, &s, q);
                g.apply(&mut s, act);
            }
        }
    }
    // The choices by card id of the card language were met.
    for step in ["take", "mode", "may", "activate"] {
        assert!(steps.get(step).is_some_and(|&n| n > 0), "{step}: {steps:?}");
    }
}

/// M-INFO-1, M-INFO-5: the public log does not name a card arranged on a deck or taken from a
/// deck into a hand (`dig`); the player's own log does.
#[test]
fn the_public_log_does_not_name_hidden_cards_of_the_card_language() {
    use tcgsim::Viewer;
    let dir = root().join("tests/data/designer");
    let text = std::fs::read_to_string(dir.join("tmnt.played.csv")).unwrap();
    let cards = CardDb::parse(&text, "played").unwrap();
    let deck = |n: &str| TmntGame::load_deck(&cards, &dir.join(n)).unwrap();
    let g = TmntGame::new_match(
        &cards,
        [&deck("tmnt_ninja.deck"), &deck("tmnt_brutes.deck")],
    );
    let (mut hidden, mut own) = (0, 0);
    for seed in 0..400u64 {
        let mut s = g.new_game(seed, Seat::from_index((seed % 2) as usize));
        let mut pick = tcgsim::RandomAgent::new(seed);
        while let Some(q) = g.to_move(&s) {
            let act = tcgsim::Agent::choose(&mut pick, &g, &s, q);
            let before = s;
            g.apply(&mut s, act);
            let dig = matches!(act, Action::Take(_))
                && matches!(
                    g.current_effect(&before),
                    Some(tcgsim::games::tmnt::cards::Effect::Dig(..))
                );
            if matches!(act, Action::Top(_)) || dig {
                let public = g.narrate(&before, q, act, &s, Viewer::Public);
                let mine = g.narrate(&before, q, act, &s, Viewer::Seat(q));
                assert!(!mine[0].ends_with(" a card"), "{}", mine[0]);
                if public[0].ends_with(" a card") {
                    hidden += 1;
                } else {
                    // Named: a card the opponent knows (a public card put back into the deck).
                    let (Action::Take(id) | Action::Top(id)) = act else {
                        unreachable!()
                    };
                    let p = s.pl(q);
                    let seen = p.known[q.other().index()] & (p.hand | p.deck_mask());
                    assert!(
                        Bits(seen).any(|i| p.card[i as usize] == id),
                        "{}",
                        public[0]
                    );
                }
            }
            own += 1;
        }
    }
    assert!(hidden > 0 && own > 0, "no arrange or dig met");
}
