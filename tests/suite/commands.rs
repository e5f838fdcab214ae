//! The command line on every registered game, one test per (game, check) (`per_game!`):
//! `validate` accepts the bundled decks, `matrix` is the same with 1 and 2 threads byte for byte,
//! and a damaged card file, deck or scenario exits 2 with an error naming its file and line.
//! What a game's own formats say beyond this (its messages, its rules) is in the game's module.

use crate::common::{scenario_game, tcgsim, tmpdir};
use std::path::{Path, PathBuf};
use std::process::Output;
use tcgsim::GameDef;

per_game!(
    validate_accepts_the_bundled_decks,
    matrix_is_thread_independent,
    a_bad_card_file_exits_2_naming_its_file_and_line,
    a_bad_deck_exits_2_naming_its_file_and_line,
    a_bad_scenario_exits_2_naming_its_file_and_line,
);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The bundled decks of `G` (`decks/<game>/*.<ext>`), in file-name order.
fn bundled_decks<G: GameDef>() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(G::INFO.deck_dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == G::INFO.deck_ext))
        .collect();
    v.sort();
    v
}

/// `validate --game G` on every bundled deck: exit 0, a line per deck.
fn validate_accepts_the_bundled_decks<G: GameDef>() {
    let decks: Vec<String> = bundled_decks::<G>()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["validate", "--game", G::INFO.name];
    args.extend(decks.iter().map(String::as_str));
    let o = tcgsim(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), decks.len(), "{out}");
}

/// `matrix --game G` of the bundled decks gives the same files with 1 and 2 threads, byte for
/// byte: a matchup row per ordered pair of decks.
fn matrix_is_thread_independent<G: GameDef>() {
    let name = G::INFO.name;
    let run = |t: &str| {
        let d = tmpdir(&format!("matrix-threads-{name}-{t}"));
        let o = tcgsim(&[
            "matrix",
            "--game",
            name,
            "--games",
            "24",
            "--threads",
            t,
            "--quiet",
            "--out",
            d.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        d
    };
    let (a, b) = (run("1"), run("2"));
    for f in ["matchups.csv", "lengths.csv", "matrix.csv", "matrix.svg"] {
        let read = |d: &Path| std::fs::read_to_string(d.join(f)).unwrap();
        assert_eq!(read(&a), read(&b), "{name}: {f} differs");
    }
    let m = std::fs::read_to_string(a.join("matchups.csv")).unwrap();
    let n = bundled_decks::<G>().len();
    assert_eq!(
        m.lines().count(),
        1 + n * n,
        "header and {n} × {n} matchups"
    );
}

/// The bundled card file with its third card row cut to its first column: `validate` exits 2 and
/// the error names the file and the row's line.
fn a_bad_card_file_exits_2_naming_its_file_and_line<G: GameDef>() {
    let info = G::INFO;
    let good = std::fs::read_to_string(root().join(info.deck_dir).join(info.card_file)).unwrap();
    let rows: Vec<usize> = good
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(k, _)| k)
        .collect();
    let cut = rows[3]; // rows[0] is the header
    let bad: String = good
        .lines()
        .enumerate()
        .map(|(k, l)| {
            if k == cut {
                format!("{}\n", l.split(',').next().unwrap())
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let d = tmpdir(&format!("bad-cards-{}", info.name));
    let cards = d.join("cards.csv");
    std::fs::write(&cards, bad).unwrap();
    let deck = &bundled_decks::<G>()[0];
    let o = tcgsim(&[
        "validate",
        "--game",
        info.name,
        "--cards",
        cards.to_str().unwrap(),
        deck.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let want = format!("cards.csv:{}: ", cut + 1);
    assert!(
        stderr(&o).contains(&want) && stderr(&o).contains("found 1"),
        "{}: wanted {want:?} and a count of columns: {}",
        info.name,
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}

/// A bundled deck with a line naming no card added at its end: `validate` exits 2 and the error
/// names the file, the line and the card.
fn a_bad_deck_exits_2_naming_its_file_and_line<G: GameDef>() {
    let info = G::INFO;
    let good = std::fs::read_to_string(&bundled_decks::<G>()[0]).unwrap();
    let d = tmpdir(&format!("bad-deck-{}", info.name));
    let deck = d.join(format!("typo.{}", info.deck_ext));
    std::fs::write(&deck, format!("{good}1 No Such Card\n")).unwrap();
    let line = good.lines().count() + 1;
    let o = tcgsim(&["validate", "--game", info.name, deck.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    let want = format!("typo.{}:{line}: ", info.deck_ext);
    assert!(
        e.contains(&want) && e.contains("unknown card") && e.contains("No Such Card"),
        "{}: wanted {want:?} and the unknown card: {e}",
        info.name
    );
    assert!(!e.contains("panicked"));
}

/// The first scenario of the game in `tests/scenarios/` (by file name, one that plays to its end
/// with the bundled cards) with a line of an unknown key before its first line that is not a
/// comment: `scenario` exits 2 and the error names the file and that line.
fn a_bad_scenario_exits_2_naming_its_file_and_line<G: GameDef>() {
    let info = G::INFO;
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    files.sort();
    let text = files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|t| {
            scenario_game(t) == info.name && !t.contains("expect-exit") && !t.contains("cards:")
        })
        .unwrap_or_else(|| panic!("a scenario of {}", info.name));
    let at = text
        .lines()
        .position(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(at, "frobnicate: 7");
    let bad = lines.join("\n") + "\n";
    let d = tmpdir(&format!("bad-scenario-{}", info.name));
    let scn = d.join("bad.scn");
    std::fs::write(&scn, bad).unwrap();
    let o = tcgsim(&["scenario", scn.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let want = format!("bad.scn:{}: unknown key \"frobnicate\"", at + 1);
    assert!(stderr(&o).contains(&want), "{}: {}", info.name, stderr(&o));
}
