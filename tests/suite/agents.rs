//! Agents: no peeking, determinism, and tactics (issue: agents).

use std::path::PathBuf;
use tcgsim::games::trails::deck::Deck;
use tcgsim::games::trails::scenario::Scenario;
use tcgsim::games::trails::{bundled_cards, State};
use tcgsim::{
    rng_from_seed, Agent, AgentSpec, Entrant, Game, HeuristicAgent, MctsAgent, MctsConfig,
    PimcAgent, PimcConfig, Playout, RandomAgent, Seat, TrailsGame,
};

fn game(a: &str, b: &str) -> TrailsGame {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let db = bundled_cards();
    let da = Deck::load(&root.join(format!("decks/trails/{a}.deck")), &db).unwrap();
    let dbb = Deck::load(&root.join(format!("decks/trails/{b}.deck")), &db).unwrap();
    TrailsGame::new(db, da.cards, dbb.cards)
}

/// Mid-game positions where the player to move has a real choice.
fn positions(g: &TrailsGame, n: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        seed += 1;
        let mut s = g.new_game(seed, Seat::P1);
        let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 99)];
        let stop = 30 + (seed as usize * 17) % 120;
        for _ in 0..stop {
            let Some(q) = g.to_move(&s) else { break };
            let a = agents[q.index()].choose(g, &s, q);
            g.apply(&mut s, a);
        }
        let mut list = tcgsim::ActionList::new();
        g.legal_actions(&s, &mut list);
        if g.to_move(&s).is_some() && list.len() > 2 {
            out.push(s);
        }
    }
    out
}

/// A named way to build a seeded agent.
type MakeAgent = (&'static str, Box<dyn Fn(u64) -> Box<dyn Agent<TrailsGame>>>);

fn agents_under_test() -> Vec<MakeAgent> {
    vec![
        ("random", Box::new(|s| Box::new(RandomAgent::new(s)))),
        ("heuristic", Box::new(|s| Box::new(HeuristicAgent::new(s)))),
        (
            "pimc",
            Box::new(|s| {
                Box::new(PimcAgent::new(
                    PimcConfig {
                        dets: 3,
                        iters: 12,
                        playout: Playout::Heuristic,
                        eps: 0.1,
                        depth: 30,
                    },
                    s,
                ))
            }),
        ),
        (
            "ismcts",
            Box::new(|s| {
                Box::new(MctsAgent::new(
                    MctsConfig {
                        iterations: 60,
                        depth: 30,
                        ..MctsConfig::default()
                    },
                    s,
                ))
            }),
        ),
    ]
}

#[test]
fn no_agent_peeks_at_hidden_cards() {
    let g = game("control", "covert");
    for (name, make) in agents_under_test() {
        for (k, s) in positions(&g, 12).into_iter().enumerate() {
            let me = g.to_move(&s).unwrap();
            // A world that differs only in what `me` cannot see.
            let other = g.determinize(&s, me, &mut rng_from_seed(1000 + k as u64));
            assert!(other != s || k > 100, "the worlds should differ");
            let a = make(7 + k as u64).choose(&g, &s, me);
            let b = make(7 + k as u64).choose(&g, &other, me);
            assert_eq!(
                a, b,
                "{name} decided differently on hidden information (position {k})"
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_decision_and_game() {
    let g = game("aggro", "hate_wall");
    for (name, make) in agents_under_test() {
        for s in positions(&g, 4) {
            let me = g.to_move(&s).unwrap();
            assert_eq!(
                make(5).choose(&g, &s, me),
                make(5).choose(&g, &s, me),
                "{name}"
            );
        }
    }
    let spec = Entrant::new(AgentSpec::parse("ismcts:iters=40,depth=20").unwrap());
    let h = Entrant::new(AgentSpec::Heuristic);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| tcgsim::duel(&g, &spec, &h, &[0, 1, 2, 3, 4, 5], 3, &|_, _| {}))
    };
    assert_eq!(run(1), run(2), "a duel must not depend on the thread count");
    // With tree reuse and two trees a decision: a duel's games and counts do not depend on the
    // thread count either, and keeping the tree changes the games.
    let reuse =
        Entrant::new(AgentSpec::parse("ismcts:iters=40,depth=20,threads=2,reuse=1").unwrap());
    let fresh = Entrant::new(AgentSpec::parse("ismcts:iters=40,depth=20,threads=2").unwrap());
    let run = |threads: usize, spec: &Entrant| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| tcgsim::duel(&g, spec, &h, &[0, 1, 2, 3, 4, 5], 3, &|_, _| {}))
    };
    let kept = run(1, &reuse);
    assert_eq!(kept, run(2, &reuse), "tree reuse across thread counts");
    assert_ne!(
        format!("{kept:?}"),
        format!("{:?}", run(1, &fresh)),
        "reuse must change the search"
    );
}

/// Tree reuse follows an opponent's action only as far as its player sees it
/// (`agents::mcts::seen_by`): what it sees (nothing, all, or part of the action) must be the same
/// for every action the opponent could have taken that reads the same in its log, in every
/// determinization of what it knew before, and an action it sees whole must be that action — else
/// keeping or losing the tree, or the edge it follows, would tell it something hidden. Random
/// games of every game with hidden cards.
#[test]
fn tree_reuse_follows_only_what_the_player_sees() {
    use tcgsim::agents::mcts::{seen_by, Seen};
    use tcgsim::{visit, Visit};
    use tcgsim::{GameDef, Viewer};
    struct Check;
    impl Visit for Check {
        type Out = [usize; 4];
        fn visit<G: GameDef>(self) -> [usize; 4] {
            let g = G::bench_match().expect("the bench match");
            let mut n = [0usize; 4];
            let mut rng = rng_from_seed(11);
            let mut list = tcgsim::ActionList::new();
            for seed in 0..40 {
                let mut s = g.new_game(seed, Seat::from_index(seed as usize % 2));
                let mut ag = [RandomAgent::new(seed), RandomAgent::new(seed + 50)];
                while let Some(q) = g.to_move(&s) {
                    let a = ag[q.index()].choose(&g, &s, q);
                    let before = s;
                    g.apply(&mut s, a);
                    let me = q.other();
                    let seen = seen_by(&g, &before, q, a, &s, me);
                    n[seen as usize] += 1;
                    let mine = g.narrate(&before, q, a, &s, Viewer::Seat(me));
                    for _ in 0..3 {
                        let d = g.determinize(&before, me, &mut rng);
                        if g.to_move(&d) != Some(q) {
                            continue;
                        }
                        g.legal_actions(&d, &mut list);
                        for &x in list.iter() {
                            let mut e = d;
                            g.apply(&mut e, x);
                            if g.narrate(&d, q, x, &e, Viewer::Seat(me)) != mine {
                                continue;
                            }
                            let what = g.action_text(&d, x);
                            assert_eq!(seen_by(&g, &d, q, x, &e, me), seen, "{what}");
                            if seen == Seen::Whole {
                                assert_eq!(x, a, "{what} reads as {:?}", mine);
                            }
                            n[3] += 1;
                        }
                    }
                }
            }
            n
        }
    }
    for game in ["trails", "fireforce", "tmnt"] {
        let [not, whole, part, checked] = visit(game, Check).unwrap();
        eprintln!("{game}: {not} unseen, {whole} whole, {part} in part; {checked} alternatives");
        assert!(whole > 100 && part > 100 && checked > 1000, "{game}");
        if game != "trails" {
            assert!(not > 5, "{game}: the hidden passes (F-INFO-4, M-INFO-1)");
        }
    }
}

#[test]
fn root_parallel_search_does_not_depend_on_the_thread_count() {
    let g = game("academy_swarm", "martial_arts");
    let cfg = MctsConfig {
        iterations: 80,
        depth: 20,
        trees: 3,
        ..MctsConfig::default()
    };
    for s in positions(&g, 4) {
        let me = g.to_move(&s).unwrap();
        let pick = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| MctsAgent::new(cfg, 9).choose(&g, &s, me))
        };
        assert_eq!(pick(1), pick(2));
    }
}

fn scenario(text: &str) -> (TrailsGame, State) {
    let sc = Scenario::parse(text, "tactic.scn", bundled_cards()).unwrap();
    let (s, err) = sc.run();
    assert!(err.is_none(), "{err:?}");
    (sc.game, s)
}

/// Plays on with `agent` for `me` and the heuristic for the opponent to the end of the turn.
fn finish_turn(g: &TrailsGame, mut s: State, me: Seat, agent: &mut dyn Agent<TrailsGame>) -> State {
    let turn = s.turn;
    let mut other = HeuristicAgent::new(1);
    while let Some(q) = g.to_move(&s) {
        if s.turn != turn {
            break;
        }
        let a = if q == me {
            agent.choose(g, &s, q)
        } else {
            other.choose(g, &s, q)
        };
        g.apply(&mut s, a);
    }
    s
}

fn ismcts(seed: u64) -> MctsAgent<TrailsGame> {
    MctsAgent::new(
        MctsConfig {
            iterations: 400,
            ..MctsConfig::default()
        },
        seed,
    )
}

#[test]
fn search_finds_lethal_on_board() {
    // P2 is at 4 bond with a 1/2 Guild Junior Bracer. Jaeger Raider is [Covert]: it cannot attack
    // the Bracer, so it may attack P2 for 3 + 1 (its attack trigger) = 4: lethal at the cure phase.
    // Police Detective could instead stun the Bracer (1 stun damage + 1 overkill), which is not.
    // P1's deck is empty: if the game goes on, P1 loses at its next draw (T-WIN-3).
    let (g, s) = scenario(
        "step: propose\n[P1]\nfield: Jaeger Raider, Police Detective\n\
         [P2]\nbond: 4\nfield: Guild Junior Bracer\ndeck: 6x Academy Student\n",
    );
    for seed in 0..5 {
        let end = finish_turn(&g, s, Seat::P1, &mut ismcts(seed));
        assert_eq!(
            end.winner,
            Some(tcgsim::Outcome::Win(Seat::P1)),
            "seed {seed}"
        );
    }
}

#[test]
fn search_supports_the_unit_whose_overkill_would_lose_the_game() {
    // P1's Tank Commander (6 STR, +1 when attacking) attacks P2's Guild Staff Bracer (1/4, cost 2)
    // with P2 at 4 bond: stun damage 2 + overkill 7 − 4 = 3 takes P2 to −1. Guild Liaison can
    // support the Bracer (both bracer): no overkill, P2 ends at 2, and wins when P1, whose deck is
    // empty, must draw next turn.
    let (g, s) = scenario(
        "step: window\nattacker: P1\nattackers: Tank Commander\ntarget: Guild Staff Bracer\n\
         [P1]\nfield: Tank Commander (actioned, attacked, +1/+0)\n\
         [P2]\nbond: 4\nfield: Guild Staff Bracer, Guild Liaison\ndeck: 6x Academy Student\n",
    );
    // (Guild Liaison's craft "support target own unit other" gives the same support.)
    for seed in 0..5 {
        let end = finish_turn(&g, s, Seat::P2, &mut ismcts(seed));
        assert_eq!(end.winner, None, "seed {seed}: P2 lost at the cure phase");
        assert_eq!(end.p[1].bond, 2, "seed {seed}");
    }
}

#[test]
fn search_does_not_walk_into_an_avoidable_deck_out() {
    // P1's deck is empty and P2 will lose at the cure phase (bond −3). Hymn of the Order
    // ("plan 3; draw 1") would make P1 draw from an empty deck and lose at once (T-WIN-3).
    // The trap is a legal play (a random playout takes it); the search must not, and since
    // issue 33 the heuristic, whose draws count against a short deck, does not either.
    let text = "step: propose\n[P1]\nhand: Hymn of the Order\nhomebase: 2x Academy Student\n\
                [P2]\nbond: -3\ndeck: 6x Academy Student\n";
    let (g, s) = scenario(text);
    let mut legal = tcgsim::ActionList::new();
    g.legal(&s, &mut legal);
    assert!(
        legal
            .iter()
            .any(|&a| g.action_text(&s, a) == "event Hymn of the Order"),
        "the trap must be a legal play"
    );
    let mut h = HeuristicAgent::new(1);
    let heuristic_pick = g.action_text(&s, h.choose(&g, &s, Seat::P1));
    assert_ne!(
        heuristic_pick, "event Hymn of the Order",
        "the heuristic draws from an empty deck"
    );
    for seed in 0..5 {
        let end = finish_turn(&g, s, Seat::P1, &mut ismcts(seed));
        assert_eq!(
            end.winner,
            Some(tcgsim::Outcome::Win(Seat::P1)),
            "seed {seed}"
        );
    }
}

/// A wall the heuristic breaks with a group (issue 33): P2's Riot Squad Officer (2/5, [Hate])
/// draws every attack to it (T-COMBAT-6) and no single Military Academy Cadet (2/3) stuns it, but
/// three of them, sharing their organizations (T-SCLM-1), do (6 ≥ 5). The heuristic used to score
/// each attacker alone and pass; it now proposes the attack and builds the group of three.
#[test]
fn the_heuristic_breaks_a_wall_with_a_group() {
    let text = "step: propose\n[P1]\nfield: 3x Military Academy Cadet\n\
                deck: 10x Academy Student\n[P2]\nfield: Riot Squad Officer\n\
                deck: 10x Academy Student\n";
    let (g, mut s) = scenario(text);
    let mut h = HeuristicAgent::new(1);
    let mut said = Vec::new();
    while g.to_move(&s) == Some(Seat::P1)
        && s.combat.target == tcgsim::games::trails::state::AttackTarget::None
    {
        let a = h.choose(&g, &s, Seat::P1);
        said.push(g.action_text(&s, a));
        g.apply(&mut s, a);
        if said.len() > 10 || said.last().is_some_and(|t| t == "pass") {
            break;
        }
    }
    assert_eq!(s.combat.attackers.count_ones(), 3, "{said:?}");
    assert!(
        said.last()
            .is_some_and(|t| t.contains("Riot Squad Officer")),
        "{said:?}"
    );
}

/// The heuristic plays a redirect (designer card TR-D19 Decoy Maneuver, decision T-REPL-2) when
/// moving the attack saves a unit, and keeps it when the only unit it could move the attack to
/// would be stunned in the defender's place: the event is worth its best choice, not its support.
#[test]
fn the_heuristic_redirects_an_attack_only_when_it_saves_a_unit() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let db = tcgsim::games::trails::CardDb::parse(
        &std::fs::read_to_string(root.join("tests/data/designer/trails.played.csv")).unwrap(),
        "trails.played.csv",
    )
    .unwrap();
    // Dariel Foss (4/5) attacks; P2 has Garrison Rifleman (1/2) and Ardith Kell (3/5), 2 EP.
    let choice = |target: &str| {
        let text = format!(
            "step: propose\n[P1]\nfield: Dariel Foss\ndeck: 5x Garrison Rifleman\n[P2]\n\
             field: Garrison Rifleman, Ardith Kell\nhomebase: 2x Garrison Rifleman\n\
             hand: Decoy Maneuver\ndeck: 5x Garrison Rifleman\n[actions]\nattack Dariel Foss\n\
             target {target}\n"
        );
        let sc = Scenario::parse(&text, "redirect.scn", db.clone()).unwrap();
        let (s, err) = sc.run();
        assert!(err.is_none(), "{err:?}");
        let g = &sc.game;
        let mut legal = tcgsim::ActionList::new();
        g.legal(&s, &mut legal);
        let w = tcgsim::games::trails::policy::Weights {
            noise: 0.0,
            ..Default::default()
        };
        let a = g.heuristic_choice(&s, &legal, &w, &mut rng_from_seed(1));
        g.action_text(&s, a)
    };
    // The Rifleman would be stunned (4 >= 2): the attack is moved to Ardith Kell (4 < 5).
    assert_eq!(choice("Garrison Rifleman"), "event Decoy Maneuver");
    // Ardith Kell holds (4 < 5); the Rifleman, the only other unit, would not: no redirect.
    assert_eq!(choice("Ardith Kell"), "pass");
}
