//! Engine-level tests: setup (T-SETUP-1, T-SETUP-2), the state's size (perft regression: the
//! generic conformance suite, `tests/suite/conformance.rs`), the field
//! view against the per-card answers, and
//! determinization (T-STATE-3, T-INFO-1, T-INFO-2, T-INFO-3).

use crate::common::random_position;
use std::path::PathBuf;
use tcgsim::games::trails::bundled_cards;
use tcgsim::games::trails::cards::Icons;
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::scenario::Scenario;
use tcgsim::games::trails::state::{flag, Bits, State, Step};
use tcgsim::{rng_from_seed, Agent, Game, RandomAgent, Seat, TrailsGame};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn game(a: &str, b: &str) -> TrailsGame {
    let db = bundled_cards();
    let da = Deck::load(&root().join(format!("decks/trails/{a}.deck")), &db).unwrap();
    let dbb = Deck::load(&root().join(format!("decks/trails/{b}.deck")), &db).unwrap();
    TrailsGame::new(db, da.cards, dbb.cards)
}

#[test]
fn state_is_copy_and_at_most_one_kib() {
    let size = std::mem::size_of::<State>();
    eprintln!("size_of::<State>() = {size}");
    assert!(size <= 1024, "State is {size} bytes");
}

#[test]
fn setup_draws_four_each_and_first_seat_has_initiative_t_setup_1_t_setup_2() {
    let g = game("aggro", "control");
    for first in Seat::ALL {
        let s = g.new_game(5, first);
        // T-SETUP-1: the initiative of turn 1 is a parameter.
        assert_eq!(s.initiative, first);
        assert_eq!(g.to_move(&s), Some(first));
        assert_eq!(s.step, Step::Mulligan);
        for q in Seat::ALL {
            // T-SETUP-2: shuffle and draw 4; T-WIN-1: 40 bond.
            assert_eq!(s.pl(q).hand.count_ones(), 4);
            assert_eq!(s.pl(q).deck_len, 46);
            assert_eq!(s.pl(q).bond, 40);
        }
    }
    // Different seeds shuffle differently; the same seed the same way.
    assert_eq!(g.new_game(5, Seat::P1), g.new_game(5, Seat::P1));
    assert_ne!(
        g.new_game(5, Seat::P1).p[0].deck,
        g.new_game(6, Seat::P1).p[0].deck
    );
}

/// What an observer sees of a state: everything but the identity of the instances it does not
/// know.
fn public_view(s: &State, o: Seat) -> Vec<u64> {
    let mut v = vec![
        s.turn as u64,
        s.step as u64,
        s.actor as u64,
        s.initiative as u64,
    ];
    for q in Seat::ALL {
        let p = s.pl(q);
        v.extend([
            p.hand,
            p.homebase,
            p.field,
            p.trail,
            p.known[0],
            p.known[1],
            p.deck_len as u64,
        ]);
        v.extend(p.deck[..p.deck_len as usize].iter().map(|&i| i as u64));
        v.extend((0..5).map(|k| p.flagged(1 << k)));
        v.push(p.bond as u64);
        for i in Bits(p.known[o.index()]) {
            v.push(((i as u64) << 32) | p.card[i as usize] as u64);
        }
    }
    v
}

fn multiset(s: &State, q: Seat) -> Vec<u8> {
    let p = s.pl(q);
    let mut v = p.card[..p.n_cards as usize].to_vec();
    v.sort();
    v
}

#[test]
fn determinization_keeps_what_the_observer_sees_and_conserves_cards_t_state_3_t_info_1() {
    let g = game("control", "covert");
    let mut changed = 0;
    for seed in 0..300u64 {
        let s = random_position(&g, seed, (seed as usize * 7) % 200);
        for o in Seat::ALL {
            let d = g.determinize(&s, o, &mut rng_from_seed(seed));
            // T-STATE-3: public zones and everything o knows are untouched.
            assert_eq!(public_view(&s, o), public_view(&d, o), "seed {seed}");
            // T-INFO-1: hidden cards are resampled from the owner's own deck list.
            for q in Seat::ALL {
                assert_eq!(multiset(&s, q), multiset(&d, q));
            }
            g.check_invariants(&d).unwrap();
            let opp = o.other();
            changed += usize::from(s.pl(opp).card != d.pl(opp).card);
        }
    }
    assert!(
        changed > 300,
        "determinization rarely resamples anything ({changed})"
    );
}

#[test]
fn states_differing_only_in_hidden_cards_determinize_identically() {
    let g = game("academy_swarm", "martial_arts");
    for seed in 0..300u64 {
        let s = random_position(&g, seed, (seed as usize * 13) % 250);
        for o in Seat::ALL {
            // Another world consistent with o's information.
            let other = g.determinize(&s, o, &mut rng_from_seed(seed + 1_000_000));
            let a = g.determinize(&s, o, &mut rng_from_seed(seed));
            let b = g.determinize(&other, o, &mut rng_from_seed(seed));
            assert!(a == b, "seed {seed} observer {o}");
        }
    }
}

fn scenario(text: &str) -> (TrailsGame, State) {
    let sc = Scenario::parse(text, "inline.scn", bundled_cards()).unwrap();
    let (s, err) = sc.run();
    assert!(err.is_none(), "{err:?}");
    (sc.game, s)
}

#[test]
fn a_card_returned_to_hand_stays_known_until_hidden_again_t_info_3() {
    // P2's Regroup returns its Patrol Officer from the field to hand: P1 saw it on the field,
    // so P1 keeps knowing it in P2's hand, and P1's determinizations keep it.
    let (g, s) = scenario(
        "step: propose\ninitiative: P2\n[P1]\nfield: Jaeger Raider\nhand: 3x Academy Student\ndeck: 6x Patrol Officer\n\
         [P2]\nhand: Regroup, 2x Academy Student\nhomebase: Academy Student\nfield: Patrol Officer\ndeck: 6x Academy Student\n\
         [actions]\nevent Regroup\n",
    );
    let p2 = s.pl(Seat::P2);
    let officer = p2.hand & p2.known[0];
    assert_eq!(
        officer.count_ones(),
        1,
        "the bounced card is known to the opponent"
    );
    let id = p2.card[officer.trailing_zeros() as usize];
    for k in 0..50 {
        let d = g.determinize(&s, Seat::P1, &mut rng_from_seed(k));
        assert_eq!(d.pl(Seat::P2).card[officer.trailing_zeros() as usize], id);
    }
    // The same card put face down into the homebase is no longer known to the opponent.
    let (_, s2) = scenario(
        "step: homebase\ninitiative: P2\nactor: P2\n[P1]\ndeck: 6x Patrol Officer\n\
         [P2]\nhand: Patrol Officer (known), 3x Academy Student\ndeck: 6x Academy Student\n\
         [actions]\nhomebase Patrol Officer\n",
    );
    let p2 = s2.pl(Seat::P2);
    assert_eq!(p2.homebase.count_ones(), 1);
    assert_eq!(
        p2.homebase & p2.known[0],
        0,
        "face down: hidden from P1 again"
    );
    assert_eq!(
        p2.homebase & p2.known[1],
        p2.homebase,
        "still known to its owner"
    );
}

#[test]
fn owner_knows_own_face_down_homebase_and_mulligan_bottom_t_info_2() {
    let g = game("aggro", "control");
    let mut s = g.new_game(9, Seat::P1);
    // P1 puts two cards on the bottom and keeps.
    let mut list = tcgsim::ActionList::new();
    for _ in 0..2 {
        g.legal_actions(&s, &mut list);
        let a = *list
            .iter()
            .find(|a| matches!(a, tcgsim::games::trails::Action::Mulligan(_)))
            .unwrap();
        g.apply(&mut s, a);
    }
    let bottom: Vec<u8> = s.p[0].deck[..2].to_vec();
    let ids: Vec<u8> = bottom.iter().map(|&i| s.p[0].card[i as usize]).collect();
    for k in 0..50 {
        let d = g.determinize(&s, Seat::P1, &mut rng_from_seed(k));
        let got: Vec<u8> = d.p[0].deck[..2]
            .iter()
            .map(|&i| d.p[0].card[i as usize])
            .collect();
        assert_eq!(got, ids, "the owner knows its bottom cards");
    }
    // Play on until P1 has face-down homebase cards; they survive P1's determinizations.
    let mut agents = [RandomAgent::new(1), RandomAgent::new(2)];
    while s.pl(Seat::P1).homebase == 0 {
        let q = g.to_move(&s).unwrap();
        let a = agents[q.index()].choose(&g, &s, q);
        g.apply(&mut s, a);
    }
    let hb = s.pl(Seat::P1).homebase;
    for k in 0..50 {
        let d = g.determinize(&s, Seat::P1, &mut rng_from_seed(k));
        for i in Bits(hb) {
            assert_eq!(d.p[0].card[i as usize], s.p[0].card[i as usize]);
            assert!(!d.p[0].has(i, flag::FACE_UP) || s.p[0].has(i, flag::FACE_UP));
        }
    }
}

#[test]
fn cards_are_dealt_to_instances_at_random_t_info_4() {
    // T-INFO-4: an instance number must say nothing about which card it holds, or an agent could read
    // the opponent's hidden hand off the public deck list.
    let g = game("aggro", "control");
    let firsts: std::collections::HashSet<u8> = (0..40)
        .map(|seed| g.new_game(seed, Seat::P1).p[1].card[0])
        .collect();
    assert!(
        firsts.len() > 3,
        "instance 0 holds the same few cards: {firsts:?}"
    );
    for seed in 0..40 {
        let s = g.new_game(seed, Seat::P1);
        let mut dealt: Vec<u16> = s.p[1].card[..50].iter().map(|&l| g.card_id(l)).collect();
        let mut list = g.decks[1].clone();
        dealt.sort();
        list.sort();
        assert_eq!(dealt, list, "every card of the deck list is dealt once");
    }
}

/// The field view sums static effects source by source for speed; it must give exactly what the
/// per-card questions give (`stats`, `icons`), and its masks what the rules' own scans give, at
/// every decision of games over every bundled deck.
#[test]
fn field_view_equals_the_per_card_answers() {
    use tcgsim::HeuristicAgent;
    let mut marked = 0u64;
    let decks = [
        "aggro",
        "academy_swarm",
        "blitz",
        "control",
        "covert",
        "hate_wall",
        "martial_arts",
    ];
    let mut checked = 0u32;
    for (k, a) in decks.iter().enumerate() {
        let b = decks[(k + 3) % decks.len()];
        let g = game(a, b);
        for seed in 0..6u64 {
            let mut s = g.new_game(seed, Seat::from_index((seed % 2) as usize));
            let mut agents: [Box<dyn Agent<TrailsGame>>; 2] = if seed % 2 == 0 {
                [
                    Box::new(HeuristicAgent::new(seed)),
                    Box::new(HeuristicAgent::new(seed + 7)),
                ]
            } else {
                [
                    Box::new(RandomAgent::new(seed)),
                    Box::new(RandomAgent::new(seed + 7)),
                ]
            };
            while let Some(q) = g.to_move(&s) {
                let v = g.field_view(&s);
                let field = [s.p[0].field, s.p[1].field];
                let m = g.marks_of(&s, field);
                for p in Seat::ALL {
                    let k = p.index();
                    let (mut covert, mut hate) = (0, 0);
                    for i in Bits(field[k]) {
                        assert_eq!(v.stats(p, i), g.stats(&s, p, i), "{a}/{b} seed {seed}");
                        let icons = g.icons(&s, p, i);
                        assert_eq!(v.icons(p, i), icons, "{a}/{b} seed {seed}");
                        covert |= u64::from(icons.has(Icons::COVERT)) << i;
                        hate |= u64::from(icons.has(Icons::HATE)) << i;
                        checked += 1;
                    }
                    // The cheap marks of the field, and the view's, are the per-card answers.
                    assert_eq!(m.covert[k], covert, "{a}/{b} seed {seed}");
                    assert_eq!(m.hate[k], hate, "{a}/{b} seed {seed}");
                    assert_eq!(m.active[k], g.active_units(&s, p), "{a}/{b} seed {seed}");
                    let supported = Bits(field[k]).filter(|&i| s.pl(p).has(i, flag::SUPPORTED));
                    assert_eq!(m.supported[k], supported.fold(0, |a, i| a | 1 << i));
                    marked += u64::from((covert | hate) != 0);
                }
                // The view also covers a combat's cards that left the field (a bounced target):
                // on the field, its marks are the cheap ones.
                for (k, on_field) in field.iter().enumerate() {
                    assert_eq!(
                        v.marks().covert[k] & on_field,
                        m.covert[k],
                        "{a}/{b} seed {seed}"
                    );
                    assert_eq!(
                        v.marks().hate[k] & on_field,
                        m.hate[k],
                        "{a}/{b} seed {seed}"
                    );
                }
                let a = agents[q.index()].choose(&g, &s, q);
                g.apply(&mut s, a);
            }
        }
    }
    assert!(checked > 10_000, "only {checked} cards checked");
    assert!(
        marked > 1_000,
        "only {marked} fields with [Covert] or [Hate] checked"
    );
}

/// Plays a scenario's actions and returns the game's `ending` line.
fn ending_of(text: &str) -> String {
    use tcgsim::GameDef;
    let sc = Scenario::parse(text, "inline.scn", bundled_cards()).unwrap();
    let (s, illegal) = sc.run();
    assert!(illegal.is_none());
    sc.game.ending(&s)
}

/// Why a game ended, as `play` and the records say it: the bond check of the cure phase
/// (T-CURE-1) or a draw from an empty deck (T-WIN-3).
#[test]
fn the_ending_names_the_bond_check_or_the_empty_deck_t_cure_1_t_win_3() {
    // P2 at 2 bond takes 3 and is at -1 when the cure phase starts.
    let bond = ending_of(
        "step: propose\ninitiative: P1\n[P1]\nfield: Police Detective\ndeck: 5x Academy Student\n\
         [P2]\nbond: 2\ndeck: 5x Academy Student\n[actions]\nattack Police Detective\n\
         target player\npass\npass\npass\npass\n",
    );
    assert_eq!(
        bond,
        "P1 won the bond check (T-CURE-1); final bond P1 40, P2 -1"
    );
    // P1 draws 2 (T-PREP-1) from a deck of 1.
    let deck = ending_of(
        "step: draw\ninitiative: P1\n[P1]\ndeck: Academy Student\n[P2]\ndeck: 5x Academy Student\n",
    );
    assert_eq!(
        deck,
        "P2 won: P1 had to draw from an empty deck (T-WIN-3); final bond P1 40, P2 40"
    );
}

/// A card with `crafts` crafts (`act[self_action]: bond self +1`), as a one-card card file.
fn crafty_cards(crafts: usize) -> Result<tcgsim::games::trails::CardDb, String> {
    let effect = vec!["act[self_action]: bond self +1"; crafts].join(" | ");
    let text = format!(
        "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n\
         TX-1,Crafty,General,UNIT,0,1,1,guild,,,{effect}\n"
    );
    tcgsim::games::trails::CardDb::parse(&text, "crafty.csv").map_err(|e| e.to_string())
}

/// Decision T-RES-12: at most 4 crafts a card, so that the longest list of legal actions — step I
/// with 50 ready UNITs on the field, each with 4 crafts: a pass, 50 attacks, 200 crafts — is 251,
/// within the action list's capacity (`core::MAX_ACTIONS`, 256; the derivation is in
/// `engine/legal.rs`). The card file refuses a fifth craft.
#[test]
fn the_longest_action_list_fits_t_res_12() {
    let e = crafty_cards(5).unwrap_err();
    assert!(e.contains("more than 4 crafts"), "{e}");
    let db = crafty_cards(4).unwrap();
    let sc = Scenario::parse(
        "step: propose\ninitiative: P1\n[P1]\nfield: 50x Crafty\n[P2]\n",
        "inline.scn",
        db,
    )
    .unwrap();
    let (s, _) = sc.run();
    let mut list = tcgsim::ActionList::new();
    sc.game.legal_actions(&s, &mut list);
    assert_eq!(list.len(), 1 + 50 + 50 * 4);
    assert!(list.len() <= tcgsim::core::MAX_ACTIONS);
}

/// Every bond change in a log says its cause, and the causes add up to the change (the change is
/// read from the states, the causes from the engine's trace): 300 games of random and heuristic
/// play over the bundled decks, every narrated bond change checked.
#[test]
fn every_bond_change_in_the_log_says_why_and_adds_up() {
    use tcgsim::HeuristicAgent;
    use tcgsim::{GameDef, Viewer};
    let names = [
        "aggro",
        "control",
        "covert",
        "hate_wall",
        "academy_swarm",
        "martial_arts",
    ];
    let mut checked = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for k in 0..300u64 {
        let g = game(names[(k % 6) as usize], names[((k / 6) % 6) as usize]);
        let mut s = g.new_game(k, Seat::from_index((k % 2) as usize));
        let mut agents: [Box<dyn Agent<TrailsGame>>; 2] = if k % 2 == 0 {
            [
                Box::new(RandomAgent::new(k)),
                Box::new(RandomAgent::new(k + 1)),
            ]
        } else {
            [
                Box::new(HeuristicAgent::new(k)),
                Box::new(HeuristicAgent::new(k + 1)),
            ]
        };
        while let Some(q) = g.to_move(&s) {
            let a = agents[q.index()].choose(&g, &s, q);
            let before = s;
            g.apply(&mut s, a);
            for line in GameDef::narrate(&g, &before, q, a, &s, Viewer::All) {
                for part in line
                    .split("; ")
                    .filter(|p| p.contains(" bond ") && p.contains(" → "))
                {
                    let part = part.rsplit(": ").next().unwrap().trim_start_matches("— ");
                    let (head, causes) = part.split_once(" (").expect("a cause");
                    let nums: Vec<i32> = head.split(' ').filter_map(|w| w.parse().ok()).collect();
                    let (from, to) = (nums[nums.len() - 2], nums[nums.len() - 1]);
                    let mut sum = 0;
                    for c in causes.trim_end_matches(')').split(", ") {
                        // The signed amount: the word that starts with + or -.
                        let v: i32 = c
                            .split_whitespace()
                            .find(|w| w.starts_with(['+', '-']))
                            .and_then(|w| w.trim_start_matches('+').parse().ok())
                            .unwrap_or_else(|| panic!("no amount in \"{c}\" of \"{line}\""));
                        sum += v;
                        kinds.insert(c.split(' ').next().unwrap().to_string());
                    }
                    assert_eq!(from + sum, to, "{line}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} bond changes");
    for want in ["overkill", "attack", "stun"] {
        assert!(kinds.contains(want), "no {want} in {kinds:?}");
    }
    assert!(
        kinds.iter().any(|k| k.ends_with("'s")),
        "no effect in {kinds:?}"
    );
}

/// T-INFO (T-EFF-11, decision): a card taken from the deck by `search` is shown, so the log names
/// it for every viewer and does not call it a draw.
#[test]
fn the_log_names_a_searched_card_for_the_opponent_and_not_as_a_draw() {
    use tcgsim::GameDef;
    use tcgsim::Viewer;
    let dir = root().join("tests/data/designer");
    let db = tcgsim::games::trails::CardDb::parse(
        &std::fs::read_to_string(dir.join("trails.played.csv")).unwrap(),
        "trails.played.csv",
    )
    .unwrap();
    let text =
        "step: deploy\n[P1]\ncp: 5\nfield: Tobias Wren\nhand: Renna Valcourt / Senior Bracer\n\
                deck: Garrison Rifleman, Renna Valcourt / Junior Bracer, Garrison Rifleman\n\
                [P2]\ndeck: 5x Garrison Rifleman\n[actions]\n";
    let sc = Scenario::parse(text, "inline.scn", db).unwrap();
    let g = &sc.game;
    let mut s = sc.state;
    let deploy = g
        .parse_action(&s, "deploy Renna Valcourt / Senior Bracer")
        .unwrap();
    g.play(&mut s, deploy);
    let before = s;
    let take = g
        .parse_action(&s, "choose P1 Renna Valcourt / Junior Bracer")
        .unwrap();
    g.play(&mut s, take);
    let log = GameDef::narrate(g, &before, Seat::P1, take, &s, Viewer::Seat(Seat::P2)).join("\n");
    assert!(
        log.contains("P1 takes Renna Valcourt / Junior Bracer from its deck into its hand, shown"),
        "{log}"
    );
    assert!(!log.contains("draws"), "{log}");
}
