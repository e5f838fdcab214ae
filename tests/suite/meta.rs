//! The metagame of a matrix (`stats::nash`): hand-built games with equilibria known by algebra,
//! to 1e-6; exploitability and best responses; random games (seeded) whose solutions must be
//! exact; the resampled support on clear cases, and its determinism under a seed and any thread
//! count; and a real `matchups.csv` (`docs/matchups-million.csv`).

use rand::{Rng, SeedableRng};
use tcgsim::stats::nash::{resample, Game, Score};

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "weight {k}: {g} vs {w} ({got:?})");
    }
}

/// The antisymmetric game of the upper triangle `up` (row-major pairs i < j).
fn game(n: usize, up: &[(usize, usize, f64)]) -> Game {
    let mut a = vec![0.0; n * n];
    for &(i, j, x) in up {
        a[i * n + j] = x;
        a[j * n + i] = -x;
    }
    Game::new(n, &a).unwrap()
}

/// Rock–paper–scissors with unequal margins: paper beats rock by `x`, rock beats scissors by `y`,
/// scissors beat paper by `z` (payoffs; win rates 1/2 + margin). Rows R, P, S:
///
/// ```text
///   R: [ 0, −x,  y]
///   P: [ x,  0, −z]
///   S: [−y,  z,  0]
/// ```
///
/// The equilibrium `m = (r, p, s)` makes every row 0 (a deck the mix plays earns the value, and
/// all three must be played: a mix missing one is beaten by another): row R, `−x·p + y·s = 0`, so
/// `p/s = y/x`; row P, `x·r − z·s = 0`, so `r/s = z/x`; row S, `−y·r + z·p = −yz + zy = 0` holds.
/// So `m ∝ (z, y, x)`: each deck's weight is the margin of the matchup it is not in. With x = 0.1,
/// y = 0.2, z = 0.3: m = (0.3, 0.2, 0.1)/0.6 = (1/2, 1/3, 1/6).
fn rps() -> Game {
    game(3, &[(0, 1, -0.1), (0, 2, 0.2), (1, 2, -0.3)])
}

#[test]
fn rock_paper_scissors_with_unequal_margins() {
    let e = rps().solve();
    close(&e.mix, &[0.5, 1.0 / 3.0, 1.0 / 6.0], 1e-9);
    assert!(e.value.abs() < 1e-12, "value {}", e.value);
    assert!(e.exploitability.abs() <= 1e-9, "{}", e.exploitability);
    close(&e.payoffs, &[0.0, 0.0, 0.0], 1e-9);
    // Every deck is a best response to the equilibrium (each earns the value).
    assert_eq!(rps().best_responses(&e.mix), vec![0, 1, 2]);
}

/// The same game from win rates: P beats R 60%, R beats S 70%, S beats P 80%, each measured from
/// both seats with some noise that the coin-flip game averages out: (w[i][j] − w[j][i])/2.
#[test]
fn rock_paper_scissors_from_win_rates() {
    #[rustfmt::skip]
    let w = [
        0.52, 0.41, 0.71,
        0.61, 0.49, 0.18,
        0.31, 0.82, 0.50,
    ];
    // (0.41 − 0.61)/2 = −0.1, (0.71 − 0.31)/2 = 0.2, (0.18 − 0.82)/2 = −0.32: m ∝ (0.32, 0.2, 0.1).
    let e = Game::from_rates(3, &w).solve();
    close(&e.mix, &[0.32 / 0.62, 0.2 / 0.62, 0.1 / 0.62], 1e-9);
    assert!(e.exploitability.abs() <= 1e-9);
}

/// Uniform play of the unequal RPS: payoffs against (1/3, 1/3, 1/3) are the row sums over 3:
/// R (−0.1 + 0.2)/3 = 1/30, P (0.1 − 0.3)/3 = −1/15, S (−0.2 + 0.3)/3 = 1/30. Exploitability 1/30,
/// rock and scissors the best responses.
#[test]
fn exploitability_and_best_responses_of_uniform_play() {
    let g = rps();
    let u = [1.0 / 3.0; 3];
    close(
        &g.payoffs_against(&u),
        &[1.0 / 30.0, -1.0 / 15.0, 1.0 / 30.0],
        1e-12,
    );
    assert!((g.exploitability(&u) - 1.0 / 30.0).abs() < 1e-12);
    assert_eq!(g.best_responses(&u), vec![0, 2]);
    // Pure rock: paper's 0.1 exploits it, and paper alone.
    assert!((g.exploitability(&[1.0, 0.0, 0.0]) - 0.1).abs() < 1e-12);
    assert_eq!(g.best_responses(&[1.0, 0.0, 0.0]), vec![1]);
}

/// RPS plus a deck D that is rock made 0.05 worse against everything (a[D][j] = a[R][j] − 0.05,
/// so a[R][D] = 0.05): D is strictly dominated by rock (worse against every deck, itself
/// included), so no equilibrium plays it, and the RPS mix with D at 0 is the equilibrium (D earns
/// 1/2·(−0.05) + 1/3·(−0.15) + 1/6·0.15 = −0.05 against it). D gets weight 0 though it beats
/// scissors (0.15).
#[test]
fn a_dominated_deck_gets_no_weight() {
    let g = game(
        4,
        &[
            (0, 1, -0.1),
            (0, 2, 0.2),
            (1, 2, -0.3),
            (0, 3, 0.05),
            (1, 3, 0.15),
            (2, 3, -0.15),
        ],
    );
    let e = g.solve();
    close(&e.mix, &[0.5, 1.0 / 3.0, 1.0 / 6.0, 0.0], 1e-9);
    assert!((e.payoffs[3] + 0.05).abs() < 1e-9);
    assert!(e.exploitability <= 1e-9);
    assert_eq!(g.best_responses(&e.mix), vec![0, 1, 2]);
}

/// Deck 2 beats all four others (by 0.05 to 0.3), whatever they do among themselves: the pure
/// equilibrium plays it alone, and every other deck's payoff against it is minus its margin.
#[test]
fn a_deck_that_beats_all_is_a_pure_equilibrium() {
    let g = game(
        5,
        &[
            (0, 1, 0.2),
            (0, 2, -0.05),
            (0, 3, -0.3),
            (0, 4, 0.1),
            (1, 2, -0.3),
            (1, 3, 0.25),
            (1, 4, -0.2),
            (2, 3, 0.1),
            (2, 4, 0.2),
            (3, 4, 0.3),
        ],
    );
    let e = g.solve();
    close(&e.mix, &[0.0, 0.0, 1.0, 0.0, 0.0], 1e-12);
    close(&e.payoffs, &[-0.05, -0.3, 0.0, -0.1, -0.2], 1e-12);
    assert!(e.exploitability.abs() <= 1e-12);
    assert_eq!(g.best_responses(&e.mix), vec![2]);
}

/// Decks 0 and 1 are even with each other and each beats decks 2, 3 and 4, which play a cycle
/// among themselves. A deck the equilibrium plays earns exactly the value 0 against it (`m·A·m =
/// 0` for antisymmetric A, and no term is positive), so the support {0, 1} needs their matchup
/// even; and any weight on 2, 3 or 4 gives 0 or 1 a positive payoff. So the optimal mixes are
/// exactly (p, 1 − p, 0, 0, 0) for p in [0, 1], and the documented choice (the mean of the vertices
/// found, largest support) is (1/2, 1/2, 0, 0, 0): both decks played, as the largest support asks.
#[test]
fn two_even_decks_that_beat_the_rest_share_the_equilibrium() {
    let g = game(
        5,
        &[
            (0, 1, 0.0),
            (0, 2, 0.1),
            (0, 3, 0.2),
            (0, 4, 0.05),
            (1, 2, 0.3),
            (1, 3, 0.02),
            (1, 4, 0.15),
            (2, 3, 0.2),
            (2, 4, -0.25),
            (3, 4, 0.1),
        ],
    );
    let e = g.solve();
    close(&e.mix, &[0.5, 0.5, 0.0, 0.0, 0.0], 1e-9);
    assert!(e.exploitability.abs() <= 1e-9);
    close(&e.payoffs[2..], &[-0.2, -0.11, -0.1], 1e-9);
    assert_eq!(g.best_responses(&e.mix), vec![0, 1]);
    // Every mix of the two is an equilibrium too.
    assert!(g.exploitability(&[0.9, 0.1, 0.0, 0.0, 0.0]).abs() <= 1e-12);
}

/// A matrix of even matchups: every mix is an equilibrium; the documented choice is uniform.
#[test]
fn an_all_even_matrix_gives_the_uniform_mix() {
    let e = Game::from_rates(4, &[0.5; 16]).solve();
    close(&e.mix, &[0.25; 4], 1e-12);
}

/// The same matrix gives the same mix, bit for bit (the solver has no randomness; a check that
/// nothing like a hash order crept in).
#[test]
fn the_solution_is_deterministic() {
    let g = random_game(&mut rand_pcg::Pcg64Mcg::seed_from_u64(3), 40);
    assert_eq!(g.solve(), g.solve());
}

/// An antisymmetric matrix of `n` decks with payoffs uniform in [−1/2, 1/2]; one pair in five even
/// and one deck in six a copy of the deck before it (ties and degenerate programs, which the
/// simplex must survive).
fn random_game(rng: &mut impl Rng, n: usize) -> Game {
    random_game_with_copies(rng, n).0
}

/// [`random_game`] and its copies: `k` where deck `k` is a copy of deck `k − 1`.
fn random_game_with_copies(rng: &mut impl Rng, n: usize) -> (Game, Vec<usize>) {
    let mut copies = Vec::new();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let x = if rng.gen_range(0..5) == 0 {
                0.0
            } else {
                rng.gen_range(-0.5..0.5)
            };
            a[i * n + j] = x;
            a[j * n + i] = -x;
        }
    }
    // Copies: deck k plays as deck k − 1 against every other deck, and even against it.
    for k in 1..n {
        if rng.gen_range(0..6) == 0 {
            for j in 0..n {
                if j != k && j != k - 1 {
                    a[k * n + j] = a[(k - 1) * n + j];
                    a[j * n + k] = -a[k * n + j];
                }
            }
            a[k * n + k - 1] = 0.0;
            a[(k - 1) * n + k] = 0.0;
            copies.push(k);
        }
    }
    (Game::new(n, &a).unwrap(), copies)
}

/// 600 random games of 1 to 40 decks (seeded): every solution is a distribution (weights ≥ 0,
/// summing to 1 within 1e-12) that no deck beats by more than 1e-9, and the value is 0. A copy
/// of a deck (interchangeable with it: whatever weight one gets, the other could have) is played
/// exactly when the deck is: the largest support.
#[test]
fn random_games_are_solved_exactly() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(31);
    let mut copies_played = 0;
    for case in 0..600 {
        let n = 1 + case % 40;
        let (g, copies) = random_game_with_copies(&mut rng, n);
        let e = g.solve();
        assert!(e.mix.iter().all(|&m| m >= 0.0), "case {case}");
        assert!(
            (e.mix.iter().sum::<f64>() - 1.0).abs() <= 1e-12,
            "case {case}"
        );
        assert!(
            e.exploitability <= 1e-9,
            "case {case}: {}",
            e.exploitability
        );
        assert!(e.value.abs() <= 1e-9, "case {case}: value {}", e.value);
        assert!((g.exploitability(&e.mix) - e.exploitability).abs() < 1e-15);
        for k in copies {
            let played = |d: usize| e.mix[d] > 1e-6;
            assert_eq!(
                played(k),
                played(k - 1),
                "case {case}: copy {k} {:?}",
                e.mix
            );
            copies_played += usize::from(played(k));
        }
    }
    // Not vacuous: some copies are played.
    assert!(copies_played >= 50, "{copies_played}");
}

/// 2,000 matrices of rates of 1 to 60 decks, each rate a multiple of 1/10 (as from 10 games a
/// direction: many exact ties, even pairs and degenerate programs), seeded: every solution a
/// distribution that no deck beats by more than 1e-9. (A 20,000-case run of this and of
/// `random_games_are_solved_exactly` found at most 1.4e-14.)
#[test]
fn random_rate_matrices_with_ties_are_solved_exactly() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(10);
    for case in 0..2000 {
        let n = 1 + case % 60;
        let w: Vec<f64> = (0..n * n)
            .map(|_| f64::from(rng.gen_range(0..=10u8)) / 10.0)
            .collect();
        let e = Game::from_rates(n, &w).solve();
        assert!(e.mix.iter().all(|&m| m >= 0.0), "case {case}");
        assert!(
            (e.mix.iter().sum::<f64>() - 1.0).abs() <= 1e-12,
            "case {case}"
        );
        assert!(
            e.exploitability <= 1e-9,
            "case {case}: {}",
            e.exploitability
        );
    }
}

/// The largest matrix the docs promise: 256 decks, in well under a second in release.
#[test]
fn a_256_deck_game_is_solved_exactly() {
    let g = random_game(&mut rand_pcg::Pcg64Mcg::seed_from_u64(256), 256);
    let t = std::time::Instant::now();
    let e = g.solve();
    let took = t.elapsed();
    assert!(e.exploitability <= 1e-9, "{}", e.exploitability);
    assert!((e.mix.iter().sum::<f64>() - 1.0).abs() <= 1e-12);
    eprintln!(
        "256 decks: {} played, {took:?}",
        e.mix.iter().filter(|&&m| m > 1e-6).count()
    );
}

/// Counts of `games` games per ordered matchup at score rate `w[i][j]` (rounded to whole wins).
fn scores(w: &[f64], games: u64) -> Vec<Score> {
    w.iter()
        .map(|&r| Score {
            games,
            wins: (r * games as f64).round() as u64,
            draws: 0,
        })
        .collect()
}

/// Four decks, 400 games a matchup: deck 0 wins 75% against each other deck, deck 3 loses 70%
/// to each other deck, decks 1 and 2 are even. Deck 0 is the pure equilibrium in every plausible
/// matrix (its margins are 12 standard errors from even); deck 3 never played.
#[test]
fn the_resampled_support_is_sure_of_a_clear_case() {
    #[rustfmt::skip]
    let w = [
        0.50, 0.75, 0.75, 0.75,
        0.25, 0.50, 0.50, 0.70,
        0.25, 0.50, 0.50, 0.70,
        0.25, 0.30, 0.30, 0.50,
    ];
    let s = resample(4, &scores(&w, 400), 200, 9);
    assert_eq!(s.resamples, 200);
    assert_eq!(s.in_support, vec![1.0, 0.0, 0.0, 0.0]);
    close(&s.mean_weight, &[1.0, 0.0, 0.0, 0.0], 1e-9);
}

/// The RPS of `rock_paper_scissors_with_unequal_margins` plus a dominated copy of rock, 2,000 games
/// a matchup: the three are played in (nearly) every draw and the copy, 0.05 below rock everywhere
/// (4.5 standard errors a matchup), in (nearly) none; the mean weights are near (1/2, 1/3, 1/6).
/// Same seed, same numbers, on 1 thread or 4; another seed, other numbers.
#[test]
fn the_resampled_support_of_rps_with_a_dominated_deck() {
    #[rustfmt::skip]
    let w = [
        0.50, 0.40, 0.70, 0.55,
        0.60, 0.50, 0.20, 0.65,
        0.30, 0.80, 0.50, 0.35,
        0.45, 0.35, 0.65, 0.50,
    ];
    let counts = scores(&w, 2000);
    let run = |threads: usize, seed: u64| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| resample(4, &counts, 300, seed))
    };
    let s = run(1, 5);
    for k in 0..3 {
        assert!(s.in_support[k] >= 0.97, "{s:?}");
    }
    assert!(s.in_support[3] <= 0.05, "{s:?}");
    close(&s.mean_weight, &[0.5, 1.0 / 3.0, 1.0 / 6.0, 0.0], 0.05);
    assert_eq!(run(4, 5), s);
    assert_ne!(run(4, 6).mean_weight, s.mean_weight);
}

/// A real matrix: the 64 matchups of `docs/matchups-million.csv` (8 Trails decks, 15,625 games
/// each), read with the csv crate: the equilibrium is exact, and its resampled support is
/// reproducible.
#[test]
fn the_metagame_of_a_real_matrix() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/matchups-million.csv");
    let mut names: Vec<String> = Vec::new();
    let mut rows: Vec<(String, String, Score)> = Vec::new();
    for r in csv::Reader::from_path(path).unwrap().records() {
        let r = r.unwrap();
        let count = |k: usize| r[k].parse::<u64>().unwrap();
        for d in [&r[0], &r[1]] {
            if !names.iter().any(|n| n == d) {
                names.push(d.to_string());
            }
        }
        rows.push((
            r[0].to_string(),
            r[1].to_string(),
            Score {
                games: count(2),
                wins: count(3),
                draws: count(5),
            },
        ));
    }
    let n = names.len();
    let at = |d: &str| names.iter().position(|x| x == d).unwrap();
    let mut grid = vec![Score::default(); n * n];
    for (r, c, s) in rows {
        grid[at(&r) * n + at(&c)] = s;
    }
    let g = Game::from_scores(n, &grid);
    let e = g.solve();
    assert!(e.exploitability <= 1e-9);
    assert!((e.mix.iter().sum::<f64>() - 1.0).abs() <= 1e-12);
    let s = resample(n, &grid, 50, 1);
    assert_eq!(s, resample(n, &grid, 50, 1));
    eprintln!("{names:?}\nmix {:?}\nsupport {:?}", e.mix, s.in_support);
}

/// The CSV rows of `path`, by column name.
fn csv_rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// `tcgsim matrix` writes `meta.csv` and `tcgsim meta DIR` writes the same file, on 1 or 2
/// threads; its mix is an equilibrium of the win rates of `matchups.csv`, computed here from that
/// file alone: against the mix, every deck scores at most 1/2 (both seats pooled) and the decks the
/// mix plays score 1/2 — to the rounding of the files' 4 decimals. A shard alone and a damaged
/// `matchups.csv` are refused with exit code 2 and the reason.
#[test]
fn meta_of_a_matrix_folder_is_an_equilibrium_of_its_matchups() {
    use crate::common::{tcgsim, tmpdir};
    let root = tmpdir("meta-cli");
    let run = |threads: &str, out: &std::path::Path| {
        let o = tcgsim(&[
            "matrix",
            "--game",
            "trails",
            "--games",
            "60",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
            "--out",
            &out.display().to_string(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let (one, two) = (root.join("one"), root.join("two"));
    let summary = run("1", &one);
    run("2", &two);
    let meta = std::fs::read_to_string(one.join("meta.csv")).unwrap();
    assert_eq!(meta, std::fs::read_to_string(two.join("meta.csv")).unwrap());
    assert!(summary.contains("metagame (Nash equilibrium"), "{summary}");
    let again = root.join("again");
    let o = tcgsim(&[
        "meta",
        &one.display().to_string(),
        "--out",
        &again.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        meta,
        std::fs::read_to_string(again.join("meta.csv")).unwrap()
    );

    // The equilibrium property, from matchups.csv's counts alone.
    let weight: std::collections::HashMap<String, f64> = csv_rows(&one.join("meta.csv"))
        .iter()
        .map(|r| (r["deck"].clone(), r["weight"].parse().unwrap()))
        .collect();
    let mut score: std::collections::HashMap<(String, String), (f64, f64)> = Default::default();
    for r in csv_rows(&one.join("matchups.csv")) {
        let (games, wins, draws): (f64, f64, f64) = (
            r["games"].parse().unwrap(),
            r["wins"].parse().unwrap(),
            r["draws"].parse().unwrap(),
        );
        score.insert(
            (r["row_deck"].clone(), r["col_deck"].clone()),
            (wins + draws / 2.0, games),
        );
    }
    let total: f64 = weight.values().sum();
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    let mut best = f64::MIN;
    for d in weight.keys() {
        // Against the mix: each opponent's pooled score (both seats), weighted.
        let against: f64 = weight
            .iter()
            .map(|(e, w)| {
                let (s1, g1) = score[&(d.clone(), e.clone())];
                let (s2, g2) = score[&(e.clone(), d.clone())];
                let pooled = if d == e {
                    0.5
                } else {
                    0.5 * (s1 / g1 + (g2 - s2) / g2)
                };
                w * pooled
            })
            .sum();
        best = best.max(against);
        if weight[d] > 1e-3 {
            assert!(
                (against - 0.5).abs() < 2e-3,
                "{d} plays and scores {against}"
            );
        }
        assert!(
            against < 0.5 + 2e-3,
            "{d} scores {against} against the equilibrium"
        );
    }
    assert!((best - 0.5).abs() < 2e-3, "{best}");

    // The report shows it, and refuses a meta.csv whose weights are not the matchups'
    // equilibrium (the two heaviest decks' weights swapped: still adding up to 1).
    let o = tcgsim(&["report", &one.display().to_string()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(one.join("report.html")).unwrap();
    assert!(page.contains("Metagame</h2>"), "no metagame section");
    let lines: Vec<&str> = meta.lines().collect();
    let (a, b): (Vec<&str>, Vec<&str>) =
        (lines[1].split(',').collect(), lines[2].split(',').collect());
    assert_ne!(a[1], b[1], "two different weights to swap: {meta}");
    let swapped = meta
        .replacen(lines[1], &[a[0], b[1], a[2], a[3], a[4]].join(","), 1)
        .replacen(lines[2], &[b[0], a[1], b[2], b[3], b[4]].join(","), 1);
    std::fs::write(one.join("meta.csv"), swapped).unwrap();
    let o = tcgsim(&["report", &one.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("meta.csv:2: weight") && e.contains("is not what matchups.csv gives"),
        "{e}"
    );
    std::fs::write(one.join("meta.csv"), &meta).unwrap();

    // A shard alone; a damaged matchups.csv.
    let shard = root.join("shard");
    let o = tcgsim(&[
        "matrix",
        "--game",
        "trails",
        "--games",
        "20",
        "--shard",
        "1/2",
        "--quiet",
        "--out",
        &shard.display().to_string(),
    ]);
    assert!(o.status.success());
    let o = tcgsim(&["meta", &shard.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("not a whole matrix run") && e.contains("merge its shards first"),
        "{e}"
    );
    let text = std::fs::read_to_string(one.join("matchups.csv")).unwrap();
    let line2 = text.lines().nth(1).unwrap();
    let bad = line2.replacen(",60,", ",61,", 1);
    assert_ne!(bad, line2);
    std::fs::write(one.join("matchups.csv"), text.replacen(line2, &bad, 1)).unwrap();
    let o = tcgsim(&["meta", &one.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("matchups.csv:2"), "{e}");
}
