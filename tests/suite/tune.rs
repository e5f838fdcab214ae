//! `tcgsim tune` (`docs/tuning.md`): the legality of every move, the race's error rates on arms
//! with known means, resuming a killed search, and a planted card the search must find.

use crate::common::{tcgsim, tmpdir};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::HashMap;
use tcgsim::sim::tune::{neighbours, pool, swap, Swap};
use tcgsim::stats::racing::{Arm, Race, Verdict};
use tcgsim::{FireForceGame, GameDef, TmntGame, ToyGame, TrailsGame};

/// The bundled decks of a game, read with its bundled cards.
fn bundled<G: GameDef>() -> (G::Cards, Vec<G::Deck>) {
    let cards = G::bundled_cards();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(G::INFO.deck_dir);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == G::INFO.deck_ext))
        .collect();
    paths.sort();
    let decks = paths
        .iter()
        .map(|p| G::load_deck(&cards, p).unwrap())
        .collect();
    (cards, decks)
}

/// Every move of random decks of `G` makes a deck that (1) the game's own reader accepts from the
/// file `deck_file` writes, (2) holds the cards of the move, no more and no less, and (3) passes
/// `legal`, the format's rules written again here from the rules documents. Random decks: each
/// bundled deck after a random walk of accepted random swaps.
fn every_move_is_legal<G: GameDef>(legal: impl Fn(&G::Cards, &G::Deck) -> Result<(), String>) {
    let (cards, decks) = bundled::<G>();
    let ids = pool::<G>(&cards);
    let mut rng = Pcg64::seed_from_u64(15);
    let mut checked = 0;
    for start in &decks {
        let mut deck = start.clone();
        for walk in 0..3 {
            for (s, d) in neighbours::<G>(&cards, &deck, &ids) {
                let name = G::deck_name(&d).to_string();
                let text = G::deck_file(&cards, &d, "a move");
                let back = G::parse_deck(&cards, &text, "move.deck", &name)
                    .unwrap_or_else(|e| panic!("{name}: {s:?} read back: {e}"));
                let count =
                    |x: &G::Deck| -> HashMap<u32, usize> { G::deck_cards(x).into_iter().collect() };
                let (before, after) = (count(&deck), count(&back));
                let mut want = before.clone();
                *want.get_mut(&s.remove).unwrap() -= s.copies;
                *want.entry(s.add).or_insert(0) += s.copies;
                want.retain(|_, n| *n > 0);
                assert_eq!(after, want, "{name}: {s:?}");
                legal(&cards, &back).unwrap_or_else(|e| panic!("{name}: {s:?}: {e}"));
                checked += 1;
            }
            // A random legal step: the deck of the next walk.
            for _ in 0..200 {
                let held = G::deck_cards(&deck);
                let (remove, n) = held[rng.gen_range(0..held.len())];
                let s = Swap {
                    remove,
                    add: ids[rng.gen_range(0..ids.len())],
                    copies: rng.gen_range(1..=n),
                };
                if let Ok(d) = swap::<G>(&cards, &deck, s) {
                    deck = d;
                    break;
                }
            }
            let _ = walk;
        }
    }
    assert!(checked > 1000, "{}: {checked} moves", G::INFO.name);
}

/// Copies per key of a deck's cards.
fn per_key(list: &[(u32, usize)], key: impl Fn(u32) -> String) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for &(id, n) in list {
        *m.entry(key(id)).or_insert(0) += n;
    }
    m
}

/// T-DECK-1 (50 cards, at most 4 of a name and sub-name unless "General") or T-DECK-2 (40 cards,
/// any copies): the bundled Blitz deck is the only 40-card one.
#[test]
fn every_trails_move_is_legal_t_deck_1() {
    every_move_is_legal::<TrailsGame>(|cards, deck| {
        let list = &<TrailsGame as GameDef>::deck_cards(deck);
        let total: usize = list.iter().map(|x| x.1).sum();
        match total {
            50 => {
                for (name, n) in per_key(list, |id| <TrailsGame as GameDef>::card_name(cards, id)) {
                    if n > 4 && !name.ends_with("/ General") {
                        return Err(format!("{n} copies of {name}"));
                    }
                }
                Ok(())
            }
            // T-DECK-2: a Blitz Shield deck (40 cards) has no moves at all (`tunable_deck`).
            t => Err(format!("{t} cards")),
        }
    });
}

/// F-DECK-1: 40 main-deck cards, at most 2 per card number, and 5 Flame cards (numbers `FF-F…`).
/// F-DECK-2: a Blitz Shield deck has 35, any copies. (Moves change the main deck only: `deck_cards` lists
/// it; the Flame deck stays as it is.)
#[test]
fn every_fire_force_move_is_legal_f_deck_1() {
    every_move_is_legal::<FireForceGame>(|cards, deck| {
        let name = |id: u8| <FireForceGame as GameDef>::card_name(cards, u32::from(id));
        let flame = |id: u8| name(id).contains("[FF-F");
        // F-DECK-2: a Blitz Shield deck has 35 main cards, any copies.
        let blitz = deck.main.len() == 35;
        if !(deck.main.len() == 40 || blitz) || deck.main.iter().any(|&c| flame(c)) {
            return Err(format!(
                "a main deck of {} cards, or with a Flame card",
                deck.main.len()
            ));
        }
        if deck.flame.len() != 5 || !deck.flame.iter().all(|&c| flame(c)) {
            return Err(format!(
                "a Flame deck of {} cards, or with a main card",
                deck.flame.len()
            ));
        }
        let list = tcgsim::core::def::distinct_with_copies(deck.main.iter().map(|&c| u32::from(c)));
        match list.iter().find(|x| x.1 > 2 && !blitz) {
            Some((id, n)) => Err(format!("{n} copies of {}", name(*id as u8))),
            None => Ok(()),
        }
    });
}

/// M-DECK-1: 40 cards, at most 3 of one title (a title printed under two numbers counts once).
#[test]
fn every_tmnt_move_is_legal_m_deck_1() {
    every_move_is_legal::<TmntGame>(|cards, deck| {
        let list = &<TmntGame as GameDef>::deck_cards(deck);
        let total: usize = list.iter().map(|x| x.1).sum();
        if total != 40 {
            return Err(format!("{total} cards"));
        }
        let title = |id| {
            let n = <TmntGame as GameDef>::card_name(cards, id);
            n[..n.rfind(" [").unwrap()].to_lowercase()
        };
        match per_key(list, title).into_iter().find(|x| x.1 > 3) {
            Some((t, n)) => Err(format!("{n} copies of the title {t}")),
            None => Ok(()),
        }
    });
}

/// X-DECK-1: 8 cards, any copies.
#[test]
fn every_toy_move_is_legal_x_deck_1() {
    let (cards, decks) = bundled::<ToyGame>();
    let ids = pool::<ToyGame>(&cards);
    for d in &decks {
        let moves = neighbours::<ToyGame>(&cards, d, &ids);
        // Every other card for one copy and for all copies of each distinct card.
        let distinct = ToyGame::deck_cards(d);
        let want: usize = distinct
            .iter()
            .map(|&(_, n)| if n > 1 { 2 } else { 1 } * (ids.len() - 1))
            .sum();
        assert_eq!(moves.len(), want, "{}", ToyGame::deck_name(d));
        for (_, m) in moves {
            assert_eq!(m.cards.len(), 8);
        }
    }
}

/// Runs the race on arms with known means: each game the candidate scores 1 with probability
/// `pc`, the incumbent with probability `pi`, independently; looks at 24, 48, … 6,144 games as
/// `tune` does. Returns how many of `runs` races accepted and how many dropped the candidate.
fn race_outcomes(pc: f64, pi: f64, runs: u64, seed: u64) -> (u64, u64) {
    let race = Race {
        alpha: 0.05,
        beta: 0.05,
        candidates: 1,
        looks: tcgsim::sim::tune::looks(24, 6144),
    };
    assert_eq!(race.looks, 9);
    let mut rng = Pcg64::seed_from_u64(seed);
    let (mut acc, mut drop) = (0, 0);
    for _ in 0..runs {
        let mut arm = Arm::default();
        let mut n = 24;
        loop {
            while arm.n < n {
                let c = i64::from(rng.gen_bool(pc)) * 2;
                let i = i64::from(rng.gen_bool(pi)) * 2;
                arm.push(c - i);
            }
            match race.verdict(&arm) {
                Verdict::Better => {
                    acc += 1;
                    break;
                }
                Verdict::Worse => {
                    drop += 1;
                    break;
                }
                Verdict::Open if n >= 6144 => break,
                Verdict::Open => n *= 2,
            }
        }
    }
    (acc, drop)
}

/// The stated error rates hold: α = 5% (accepting a candidate no better than the incumbent) and
/// β = 5% (dropping one no worse), each exceeded by no more than three standard errors of the
/// estimated rate over 2,000 races. And the race decides: a candidate 20 points better is
/// accepted, one 20 points worse dropped, in at least 95% of races by 6,144 games (so the test
/// cannot pass by a race that never decides).
#[test]
fn the_race_keeps_its_stated_error_rates_on_bernoulli_arms() {
    let runs = 2000;
    let limit = |p: f64| (p + 3.0 * (p * (1.0 - p) / runs as f64).sqrt()) * runs as f64;
    // Equal arms: neither side may be declared.
    let (acc, drop) = race_outcomes(0.5, 0.5, runs, 1);
    assert!(
        (acc as f64) <= limit(0.05),
        "accepted {acc} of {runs} equal arms"
    );
    assert!(
        (drop as f64) <= limit(0.05),
        "dropped {drop} of {runs} equal arms"
    );
    // A slightly better candidate is not dropped more often than β; a slightly worse one is not
    // accepted more often than α.
    let (_, drop) = race_outcomes(0.55, 0.5, runs, 2);
    assert!(
        (drop as f64) <= limit(0.05),
        "dropped {drop} of {runs} better arms"
    );
    let (acc, _) = race_outcomes(0.45, 0.5, runs, 3);
    assert!(
        (acc as f64) <= limit(0.05),
        "accepted {acc} of {runs} worse arms"
    );
    // Power.
    let (acc, _) = race_outcomes(0.7, 0.5, 400, 4);
    assert!(acc >= 380, "accepted {acc} of 400 arms 20 points better");
    let (_, drop) = race_outcomes(0.3, 0.5, 400, 5);
    assert!(drop >= 380, "dropped {drop} of 400 arms 20 points worse");
}

/// The arguments of a small Trails tune: the planted pool, a gauntlet of two decks.
fn planted_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "tune",
        "decks/trails/academy_swarm.deck",
        "--pool",
        "tests/data/tune/trails_cards.csv",
        "--gauntlet",
        "decks/trails/covert.deck",
        "--gauntlet",
        "decks/trails/aggro.deck",
        "--check-games",
        "200",
        "--quiet",
        "--out",
        out,
    ];
    v.extend_from_slice(extra);
    v
}

/// Issue 30: when the time is up without `--checkpoint`, tune says the round in progress is not
/// kept (it said "kept in the checkpoint" with no checkpoint).
#[test]
fn tune_without_a_checkpoint_does_not_promise_one() {
    let dir = tmpdir("tune-no-checkpoint");
    let out = dir.display().to_string();
    let mut args: Vec<&str> = planted_args(&out, &["--time", "1s"]);
    args.retain(|a| *a != "--quiet");
    let r = tcgsim(&args);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(err.contains("time is up"), "{err}");
    assert!(!err.contains("kept in the checkpoint"), "{err}");
    assert!(err.contains("--checkpoint would keep it"), "{err}");
}

/// A search that ends no round writes `tune_progress.csv` as its header alone: it wrote none (and
/// said it had), so an earlier run's rounds in the same `--out` were shown in this run's report.
#[test]
fn a_tune_that_ends_no_round_leaves_no_earlier_rounds() {
    let dir = tmpdir("tune-no-round");
    let out = dir.display().to_string();
    let header = "round,games,n,score,win_rate,ci_low,ci_high,accepted";
    std::fs::write(
        dir.join("tune_progress.csv"),
        format!("{header}\n0,57840,512,538,0.5254,0.4821,0.5683,1\n"),
    )
    .unwrap();
    // The whole bundled gauntlet: its first round takes more than 10 s on one core.
    let r = tcgsim(&[
        "tune",
        "decks/trails/academy_swarm.deck",
        "--time",
        "1s",
        "--check-games",
        "100",
        "--threads",
        "1",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let progress = std::fs::read_to_string(dir.join("tune_progress.csv")).unwrap();
    assert_eq!(progress.trim_end(), header);
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        !page.contains("while the search ran"),
        "the report shows rounds"
    );
    assert!(page.contains("No swap was accepted."));
}

/// A pool with one card far better than any other (Planted Titan: cost 1, STR 9, DEF 9): the
/// first round's accepted swap adds it, and the fresh re-measurement shows the gain.
#[test]
fn tune_finds_the_planted_card() {
    let dir = tmpdir("tune-planted");
    let out = dir.display().to_string();
    let r = tcgsim(&planted_args(&out, &["--rounds", "1"]));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let csv = std::fs::read_to_string(dir.join("tune.csv")).unwrap();
    let row: Vec<&str> = csv
        .lines()
        .nth(1)
        .expect("one accepted swap")
        .split(',')
        .collect();
    assert_eq!(row[2], "Planted Titan / Test Card", "{csv}");
    let deck = std::fs::read_to_string(dir.join("academy_swarm_tuned.deck")).unwrap();
    assert!(deck.contains("Planted Titan"), "{deck}");
    // The gain on fresh deals is stated, and positive beyond its interval.
    let text = String::from_utf8_lossy(&r.stdout);
    let gain = text
        .lines()
        .find(|l| l.contains("gain:"))
        .expect("a gain line");
    let lo: f64 = gain
        .split("interval ")
        .nth(1)
        .and_then(|x| x.split(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{gain}"));
    assert!(lo > 0.0, "{gain}");
}

/// A search killed in the middle of a round and resumed reaches the same deck, with the same
/// accepted swaps, as one never interrupted; a checkpoint of another run is refused.
#[test]
fn a_killed_tune_resumes_to_the_same_deck() {
    let dir = tmpdir("tune-resume");
    let whole = dir.join("whole").display().to_string();
    let r = tcgsim(&planted_args(&whole, &["--rounds", "2", "--seed", "4"]));
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));

    let cut = dir.join("cut").display().to_string();
    let ck = dir.join("ck").display().to_string();
    let state = dir.join("ck").join("tune-state.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(planted_args(
            &cut,
            &["--rounds", "2", "--seed", "4", "--checkpoint", &ck],
        ))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has saved a look (the state file is replaced whole, never half-written).
    let t0 = std::time::Instant::now();
    while !state.exists() && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    assert!(state.exists(), "no state saved in 120 s");
    let killed = std::fs::read_to_string(&state).unwrap();
    let resumed = tcgsim(&planted_args(
        &cut,
        &[
            "--rounds",
            "2",
            "--seed",
            "4",
            "--checkpoint",
            &ck,
            "--resume",
        ],
    ));
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for f in ["academy_swarm_tuned.deck", "tune.csv"] {
        assert_eq!(
            std::fs::read_to_string(dir.join("whole").join(f)).unwrap(),
            std::fs::read_to_string(dir.join("cut").join(f)).unwrap(),
            "{f} differs after a resume from {killed}"
        );
    }
    // The same checkpoint under another seed is another run: refused, exit code 2.
    let other = tcgsim(&planted_args(
        &cut,
        &[
            "--rounds",
            "2",
            "--seed",
            "5",
            "--checkpoint",
            &ck,
            "--resume",
        ],
    ));
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("written by another run"));
    // Without --resume an existing checkpoint is not overwritten.
    let again = tcgsim(&planted_args(
        &cut,
        &["--rounds", "2", "--seed", "4", "--checkpoint", &ck],
    ));
    assert_eq!(again.status.code(), Some(2));
    // The same deck with its lines in another order is another run (the order decides the moves
    // and the deals): refused.
    let re = dir.join("re");
    std::fs::create_dir_all(&re).unwrap();
    let text = std::fs::read_to_string("decks/trails/academy_swarm.deck").unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    std::fs::write(re.join("academy_swarm.deck"), lines.join("\n")).unwrap();
    let re_deck = re.join("academy_swarm.deck").display().to_string();
    let mut args = planted_args(
        &cut,
        &[
            "--rounds",
            "2",
            "--seed",
            "4",
            "--checkpoint",
            &ck,
            "--resume",
        ],
    );
    args[1] = &re_deck;
    let reordered = tcgsim(&args);
    assert_eq!(reordered.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&reordered.stderr).contains("written by another run"));
    // A state whose numbers were edited is refused: its race parameters, its rounds.
    let good = std::fs::read_to_string(&state).unwrap();
    for (from, to) in [
        ("\"alpha\":0.05", "\"alpha\":0.99"),
        ("\"round\":2", "\"round\":1"),
    ] {
        assert!(good.contains(from), "{from} in {good}");
        std::fs::write(&state, good.replace(from, to)).unwrap();
        let r = tcgsim(&planted_args(
            &cut,
            &[
                "--rounds",
                "2",
                "--seed",
                "4",
                "--checkpoint",
                &ck,
                "--resume",
            ],
        ));
        assert_eq!(
            r.status.code(),
            Some(2),
            "{to}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    // A damaged state file is an error naming it, not a panic.
    std::fs::write(&state, "{\"fingerprint\": 3").unwrap();
    let bad = tcgsim(&planted_args(
        &cut,
        &[
            "--rounds",
            "2",
            "--seed",
            "4",
            "--checkpoint",
            &ck,
            "--resume",
        ],
    ));
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("tune-state.json"));
}

/// Bad arguments: clear errors, exit code 2.
#[test]
fn tune_refuses_bad_arguments() {
    for (args, says) in [
        (
            vec!["tune", "decks/trails/aggro.deck", "--time", "8x"],
            "duration",
        ),
        (
            vec!["tune", "decks/trails/aggro.deck", "--rounds", "0"],
            "rounds",
        ),
        (vec!["tune", "decks/trails/nothing.deck"], "nothing.deck"),
        (
            vec!["tune", "decks/trails/aggro.deck", "--resume"],
            "checkpoint",
        ),
        (
            vec!["tune", "decks/trails/blitz.deck", "--rounds", "1"],
            "T-DECK-2",
        ),
        (
            vec![
                "tune",
                "--game",
                "fireforce",
                "decks/fireforce/blitz_shield.deck",
                "--rounds",
                "1",
            ],
            "F-DECK-2",
        ),
    ] {
        let r = tcgsim(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&r.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

/// The bootstrap intervals of `balance` cover the truth: a matrix of four decks with known
/// chances (row deck's win chance per ordered matchup), 400 games a matchup; a second card file
/// that changes two matchups, its games paired with the first's by one uniform draw per game.
/// Over 300 simulated runs the 95% intervals of the spread, of the changed spread and of their
/// difference each contain the true value at least 90% of the time (95% less three standard
/// errors of 300 runs, 3.8 points), and not 100% of the time by being vacuous (mean width under
/// 12 points); the difference's interval is under 0.6 times as wide as on unpaired games.
#[test]
fn balance_intervals_cover_the_true_spread() {
    use tcgsim::sim::balance::{bootstrap, deck_means, spread, Games};
    let n = 4;
    let p = |r: usize, c: usize, changed: bool| -> f64 {
        let strength = [0.70, 0.55, 0.45, 0.30];
        let mut x: f64 = 0.5 + strength[r] - strength[c];
        if changed && (r == 0 || c == 0) && r != c {
            // The strongest deck made weaker by 10 points against everyone.
            x += if r == 0 { -0.10 } else { 0.10 };
        }
        x.clamp(0.02, 0.98)
    };
    let truth = |changed: bool| {
        let mut sum = vec![0u64; n * n];
        let mut games = vec![0u64; n * n];
        for r in 0..n {
            for c in (0..n).filter(|&c| c != r) {
                // Expected half points over 1,000,000 games, exactly.
                sum[r * n + c] = (2.0 * 1e6 * p(r, c, changed)).round() as u64;
                games[r * n + c] = 1_000_000;
            }
        }
        spread(&deck_means(n, &sum, &games))
    };
    let (t0, t1) = (truth(false), truth(true));
    let mut rng = Pcg64::seed_from_u64(99);
    let runs = 300;
    let (mut cover, mut width, mut unpaired) = ([0u32; 3], [0.0f64; 3], 0.0);
    for run in 0..runs {
        let (mut a, mut b) = (Games::default(), Games::default());
        a.scores = vec![Vec::new(); n * n];
        b.scores = vec![Vec::new(); n * n];
        for r in 0..n {
            for c in (0..n).filter(|&c| c != r) {
                for _ in 0..400 {
                    let u: f64 = rng.gen();
                    a.scores[r * n + c].push(if u < p(r, c, false) { 2 } else { 0 });
                    b.scores[r * n + c].push(if u < p(r, c, true) { 2 } else { 0 });
                }
            }
        }
        let est = bootstrap(n, &a, &b, 300, run);
        // The same changed card file on games of their own (not paired with `a`).
        let mut c = Games {
            scores: vec![Vec::new(); n * n],
            ..Default::default()
        };
        for r in 0..n {
            for q in (0..n).filter(|&q| q != r) {
                for _ in 0..400 {
                    let u: f64 = rng.gen();
                    c.scores[r * n + q].push(if u < p(r, q, true) { 2 } else { 0 });
                }
            }
        }
        let e = bootstrap(n, &a, &c, 300, run);
        unpaired += (e[2].hi - e[2].lo) / runs as f64;
        for (k, t) in [t0, t1, t0 - t1].into_iter().enumerate() {
            cover[k] += u32::from(est[k].lo <= t && t <= est[k].hi);
            width[k] += (est[k].hi - est[k].lo) / runs as f64;
        }
    }
    // Pairing by deal narrows the difference's interval: on unpaired games it is far wider.
    assert!(
        width[2] < 0.6 * unpaired,
        "paired width {} against unpaired {unpaired}",
        width[2]
    );
    for k in 0..3 {
        assert!(
            cover[k] >= 270,
            "interval {k}: covered {} of {runs}",
            cover[k]
        );
        assert!(width[k] < 0.12, "interval {k}: mean width {}", width[k]);
    }
}

/// `balance` on the toy decks: the patched card file differs from the original in exactly the one
/// field `balance.csv` names, and the fresh spread before the change agrees with the spread of an
/// independent `matrix` run of the same decks (other deals, 6,000 games a matchup) within
/// sampling error (4 points: both sides' standard errors are under 1 point).
#[test]
fn balance_patches_one_field_and_its_spread_agrees_with_matrix() {
    let dir = tmpdir("balance-toy");
    let out = dir.display().to_string();
    let r = tcgsim(&[
        "balance",
        "--game",
        "toy",
        "--candidates",
        "6",
        "--games",
        "100",
        "--max-games",
        "800",
        "--check-games",
        "3000",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let csv = std::fs::read_to_string(dir.join("balance.csv")).unwrap();
    let fresh: Vec<&str> = csv
        .lines()
        .find(|l| l.contains(",fresh,"))
        .expect("a fresh row")
        .split(',')
        .collect();
    let (card, column, from, to) = (fresh[1], fresh[2], fresh[3], fresh[4]);
    assert_eq!(column, "value");
    let orig = std::fs::read_to_string("decks/toy/cards.csv").unwrap();
    let new = std::fs::read_to_string(dir.join("cards_balanced.csv")).unwrap();
    let diff: Vec<(&str, &str)> = orig
        .lines()
        .zip(new.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(orig.lines().count(), new.lines().count());
    assert_eq!(
        diff,
        vec![(&*format!("{card},{from}"), &*format!("{card},{to}"))]
    );
    let spread_before: f64 = fresh[8].parse().unwrap();

    let m = tcgsim(&[
        "matrix",
        "--game",
        "toy",
        "--games",
        "6000",
        "--quiet",
        "--out",
        &dir.join("m").display().to_string(),
    ]);
    assert!(m.status.success());
    let text = String::from_utf8_lossy(&m.stdout);
    let means: Vec<f64> = text
        .lines()
        .skip(1)
        .take(3)
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .trim_end_matches('%')
                .parse::<f64>()
                .unwrap()
                / 100.0
        })
        .collect();
    let spread = means.iter().cloned().fold(f64::MIN, f64::max)
        - means.iter().cloned().fold(f64::MAX, f64::min);
    assert!(
        (spread - spread_before).abs() < 0.04,
        "balance {spread_before}, matrix {spread}\n{text}"
    );
}

/// The rates `tune` reports after its fresh games agree with an independent computation: `matrix`
/// of the starting deck, and of the tuned deck file it wrote, against the gauntlet (other deals,
/// 6,000 games each way), within 2 points (each side's standard error is under 0.5 points).
#[test]
fn tune_fresh_rates_agree_with_matrix() {
    let dir = tmpdir("tune-vs-matrix");
    let out = dir.display().to_string();
    let r = tcgsim(&[
        "tune",
        "--game",
        "toy",
        "tests/data/tune/weak.deck",
        "--gauntlet",
        "tests/data/tune/mixed.deck",
        "--rounds",
        "1",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout).to_string();
    let rate_after = |label: &str| -> f64 {
        let l = text
            .lines()
            .find(|l| l.starts_with(&format!("  {label}")))
            .unwrap_or_else(|| panic!("{label} in {text}"));
        l.split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches('%')
            .parse::<f64>()
            .unwrap()
            / 100.0
    };
    let (start, tuned) = (rate_after("weak:"), rate_after("tuned:"));
    let matrix_rate = |deck: &str, name: &str| -> f64 {
        let m = tcgsim(&[
            "matrix",
            "--game",
            "toy",
            deck,
            "tests/data/tune/mixed.deck",
            "--games",
            "6000",
            "--quiet",
            "--out",
            &dir.join(format!("m-{name}")).display().to_string(),
        ]);
        assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
        let s = String::from_utf8_lossy(&m.stdout).to_string();
        let l = s
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{s}"));
        l.split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches('%')
            .parse::<f64>()
            .unwrap()
            / 100.0
    };
    let m0 = matrix_rate("tests/data/tune/weak.deck", "weak ");
    let tuned_file = dir.join("weak_tuned.deck").display().to_string();
    let m1 = matrix_rate(&tuned_file, "weak_tuned");
    assert!((start - m0).abs() < 0.02, "tune {start}, matrix {m0}");
    assert!((tuned - m1).abs() < 0.02, "tune {tuned}, matrix {m1}");
    assert!(m1 > m0 + 0.5, "the tuned deck {m1} against the start {m0}");
}

/// Issue 30: `tune` and `balance` are library calls — a plan and a progress sink in, the outcome
/// out — and the files made of their outcome (`sim::tune::files`, `sim::balance::files`) are the
/// files the commands write for the same arguments.
#[test]
fn tune_and_balance_run_without_the_command_line() {
    use tcgsim::sim::{balance, tune};
    use tcgsim::{run_balance, run_tune, AgentSpec, BalancePlan, Silent, TunePlan};
    let dir = tmpdir("runners-as-library");
    let text = std::fs::read_to_string("decks/toy/cards.csv").unwrap();
    let cards = ToyGame::parse_cards(&text, "decks/toy/cards.csv").unwrap();
    let deck = |n: &str| {
        ToyGame::load_deck(&cards, std::path::Path::new(&format!("decks/toy/{n}.deck"))).unwrap()
    };
    let (high, ladder, low) = (deck("high"), deck("ladder"), deck("low"));
    let spec = tcgsim::Entrant::new(AgentSpec::parse("heuristic").unwrap());
    let read = |d: &std::path::Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();

    let plan = TunePlan::<ToyGame> {
        cards: &cards,
        start: &low,
        opponents: vec![&high],
        spec: &spec,
        agent: "heuristic".into(),
        seed: 9,
        files: 0,
        pool_hash: String::new(),
        rounds: Some(1),
        budget: None,
        check_games: 200,
        state: None,
        resume: false,
    };
    let got = run_tune(&plan, &Silent).unwrap();
    let out = dir.join("tune");
    let r = tcgsim(&[
        "tune",
        "--game",
        "toy",
        "decks/toy/low.deck",
        "--gauntlet",
        "decks/toy/high.deck",
        "--agent",
        "heuristic",
        "--rounds",
        "1",
        "--check-games",
        "200",
        "--seed",
        "9",
        "--quiet",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(got.search.round, 1);
    assert_eq!(
        read(&out, "tune.csv"),
        tune::files::tune_csv::<ToyGame>(&cards, &got.search)
    );
    assert_eq!(
        read(&out, "tune_fresh.csv"),
        tune::files::fresh_csv(&plan, &got)
    );

    let names = ["high", "ladder", "low"].map(String::from).to_vec();
    let plan = BalancePlan::<ToyGame> {
        text: &text,
        cards: &cards,
        file: "decks/toy/cards.csv".into(),
        decks: vec![&high, &ladder, &low],
        names,
        spec: &spec,
        agent: "heuristic".into(),
        seed: 3,
        candidates: 3,
        games: 50,
        max_games: 100,
        check_games: 100,
        budget: None,
    };
    let got = run_balance(&plan, &Silent).unwrap();
    let out = dir.join("balance");
    let r = tcgsim(&[
        "balance",
        "--game",
        "toy",
        "decks/toy/high.deck",
        "decks/toy/ladder.deck",
        "decks/toy/low.deck",
        "--agent",
        "heuristic",
        "--candidates",
        "3",
        "--games",
        "50",
        "--max-games",
        "100",
        "--check-games",
        "100",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &out.display().to_string(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(got.rows.len(), 3);
    assert_eq!(
        read(&out, "balance.csv"),
        balance::files::balance_csv(&plan, &got)
    );
    let fresh = got.fresh.as_ref().expect("a change survives");
    assert_eq!(read(&out, "cards_balanced.csv"), fresh.patched);
}

/// A state saved at the end of a round resumes (issue 30: it was refused with "games of a round
/// with no candidates"): `--rounds 1` then `--rounds 2 --resume` on the same checkpoint gives the
/// tune.csv and tuned deck of one uninterrupted `--rounds 2` run.
#[test]
fn a_tune_saved_at_a_round_end_resumes() {
    let dir = tmpdir("tune-round-end");
    let args = |out: &str, rounds: &str, extra: &[&str]| {
        let mut v: Vec<String> = [
            "tune",
            "--game",
            "toy",
            "decks/toy/low.deck",
            "--gauntlet",
            "decks/toy/high.deck",
            "--gauntlet",
            "decks/toy/ladder.deck",
            "--check-games",
            "200",
            "--seed",
            "13",
            "--quiet",
            "--rounds",
            rounds,
            "--out",
            out,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |v: Vec<String>| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        let r = tcgsim(&refs);
        assert!(
            r.status.success(),
            "{refs:?}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    };
    let whole = dir.join("whole").display().to_string();
    let cut = dir.join("cut").display().to_string();
    let ck = dir.join("ck").display().to_string();
    run(args(&whole, "2", &[]));
    run(args(&cut, "1", &["--checkpoint", &ck]));
    run(args(&cut, "2", &["--checkpoint", &ck, "--resume"]));
    for f in ["low_tuned.deck", "tune.csv"] {
        assert_eq!(
            std::fs::read_to_string(dir.join("whole").join(f)).unwrap(),
            std::fs::read_to_string(dir.join("cut").join(f)).unwrap(),
            "{f} differs after resuming at a round's end"
        );
    }
}
