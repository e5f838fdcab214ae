//! The command line: exit codes and messages for good and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common;
use common::{tcgsim, tmpdir};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A file `name` holding `text`, in a folder of its own removed with it ([`tmpdir`]).
fn tmp(name: &str, text: &str) -> TmpFile {
    let dir = tmpdir(&format!("cli-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    TmpFile { _dir: dir, path }
}

/// A test's file ([`tmp`]); its folder goes when it is dropped.
struct TmpFile {
    _dir: common::TmpDir,
    path: PathBuf,
}

impl std::ops::Deref for TmpFile {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

/// Issue 30: a card file and a deck saved with a UTF-8 byte-order mark (as Windows editors save
/// them) read as without it — they were "not a card file of any game" and `count "\u{feff}" is
/// not a whole number`.
#[test]
fn files_with_a_byte_order_mark_read_as_without() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bom = |name: &str, from: &str| {
        let text = std::fs::read_to_string(root.join(from)).unwrap();
        tmp(name, &format!("\u{feff}{text}"))
    };
    let cards = bom("bom-cards.csv", "decks/fireforce/cards.csv");
    let deck = bom("bom-aggro.deck", "decks/fireforce/aggro_blitz.deck");
    let o = tcgsim(&[
        "validate",
        "--game",
        "fireforce",
        "--cards",
        cards.to_str().unwrap(),
        deck.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The card file alone tells its game, as it does without the mark.
    let o = tcgsim(&[
        "validate",
        "--cards",
        cards.to_str().unwrap(),
        root.join("decks/fireforce/aggro_blitz.deck")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 30: `play` takes `-q` as the other commands do (it had none): no notes on standard
/// error, the same output files.
#[test]
fn play_quiet_says_nothing_on_standard_error() {
    let dir = tmpdir("play-quiet");
    let out = dir.display().to_string();
    let args = [
        "play",
        "decks/trails/aggro.deck",
        "decks/trails/control.deck",
        "--out",
        &out,
    ];
    let o = tcgsim(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote"), "{}", stderr(&o));
    let mut quiet = args.to_vec();
    quiet.push("-q");
    let q = tcgsim(&quiet);
    assert_eq!(q.status.code(), Some(0), "{}", stderr(&q));
    assert_eq!(stderr(&q), "");
    assert_eq!(stdout(&q), stdout(&o));
    assert!(dir.join("record.jsonl").is_file());
}

#[test]
fn validate_rejects_typo_51_cards_and_5_copies_with_lines() {
    let typo = tmp(
        "typo.deck",
        "# plan\n4 Guild Junor Bracer\n46 Academy Student\n",
    );
    let big = tmp("big.deck", "4 Guild Junior Bracer\n47 Academy Student\n");
    let copies = tmp("copies.deck", "5 Guild Junior Bracer\n45 Academy Student\n");
    let o = tcgsim(&[
        "validate",
        typo.to_str().unwrap(),
        big.to_str().unwrap(),
        copies.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("typo.deck:2: \"Guild Junor Bracer\": unknown card (did you mean \"Guild Junior Bracer / Rookie\"?)"), "{e}");
    assert!(
        e.contains("big.deck: 51 cards: a Strategy deck has exactly 50"),
        "{e}"
    );
    assert!(e.contains("copies.deck:1: 5 copies"), "{e}");
    assert!(e.contains("3 of 3 decks invalid"), "{e}");
}

/// A count of only the `x` that may follow it (`x Jaeger Scout`, `X …`) is no `COUNT NAME` line:
/// it was reported as `count "" is not a whole number`, quoting a count the line does not hold.
#[test]
fn a_lone_x_for_a_count_is_quoted_as_written() {
    for x in ["x", "X"] {
        let deck = tmp(
            &format!("lone-{x}.deck"),
            &format!("{x} Guild Junior Bracer\n46 Academy Student\n"),
        );
        let o = tcgsim(&["validate", "--game", "trails", deck.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        let e = stderr(&o);
        assert!(
            e.contains(&format!(
                ":1: expected `COUNT NAME`, found \"{x} Guild Junior Bracer\""
            )),
            "{e}"
        );
        assert!(!e.contains("count \"\""), "{e}");
    }
}

#[test]
fn bad_input_exits_2_without_panicking() {
    for args in [
        vec!["play", "decks/trails/nope.deck", "decks/trails/aggro.deck"],
        vec![
            "play",
            "--agent",
            "genius",
            "decks/trails/aggro.deck",
            "decks/trails/control.deck",
        ],
        vec![
            "play",
            "--game",
            "chess",
            "decks/trails/aggro.deck",
            "decks/trails/control.deck",
        ],
        vec![
            "play",
            "--human",
            "3",
            "decks/trails/aggro.deck",
            "decks/trails/control.deck",
        ],
        vec![
            "play",
            "--seed",
            "x",
            "decks/trails/aggro.deck",
            "decks/trails/control.deck",
        ],
        vec!["validate", "--cards", "nope.csv", "decks/trails/aggro.deck"],
        vec!["scenario", "nope.scn"],
        vec!["sealed", "--pack", "WIZARD=3"],
        vec!["frobnicate"],
    ] {
        let o = tcgsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn play_prints_winner_turns_and_bonds_and_is_reproducible() {
    let args = [
        "play",
        "--seed",
        "7",
        "decks/trails/aggro.deck",
        "decks/trails/control.deck",
    ];
    let a = tcgsim(&args);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let out = stdout(&a);
    assert!(out.starts_with("winner: P"), "{out}");
    assert!(
        out.contains("turns") && out.contains("final bond P1"),
        "{out}"
    );
    assert_eq!(stdout(&tcgsim(&args)), out, "same seed, same game");
}

#[test]
fn play_log_hides_hidden_cards_unless_revealed() {
    let base = [
        "play",
        "--seed",
        "7",
        "--log",
        "decks/trails/aggro.deck",
        "decks/trails/control.deck",
    ];
    let hidden = stdout(&tcgsim(&base));
    assert!(hidden.contains("== Turn 1 (initiative P1)"), "{hidden}");
    assert!(hidden.contains("homebase a card"), "{hidden}");
    let mut rev = base.to_vec();
    rev.push("--reveal");
    let shown = stdout(&tcgsim(&rev));
    assert!(!shown.contains("a card"), "--reveal still hides cards");
    // Same game either way: the same winner line.
    assert_eq!(hidden.lines().last(), shown.lines().last());
}

#[test]
fn human_seat_plays_a_full_game_from_stdin() {
    use std::io::Write;
    // Trails, the Fire Force TCG (whose redraw decision is also written `keep`), and the TMNT
    // TCG (where `keep` is not a legal first action: it is asked again).
    for decks in [
        ["decks/trails/covert.deck", "decks/trails/hate_wall.deck"],
        FIREFORCE,
        TMNT,
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
            .args(["play", "--human", "1", "--seed", "3", decks[0], decks[1]])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            // Always the first legal action, typed as a number; once by text.
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(b"keep\n");
            for _ in 0..2000 {
                let _ = stdin.write_all(b"1\n");
            }
        }
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(out.contains("you are P1") && out.contains("P1> "), "{out}");
        assert!(out.lines().last().unwrap().starts_with("winner: "), "{out}");
    }
}

#[test]
fn human_seat_with_closed_input_stops_cleanly() {
    let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args([
            "play",
            "--human",
            "2",
            "decks/trails/covert.deck",
            "decks/trails/hate_wall.deck",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("input closed"));
}

#[test]
fn scenario_errors_malformed_file_2_illegal_action_1() {
    let bad = tmp("bad.scn", "step: propose\n[P1]\nfield: Nobody Special\n");
    let o = tcgsim(&["scenario", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.scn:3: \"Nobody Special\": unknown card"),
        "{}",
        stderr(&o)
    );
    let illegal = tmp(
        "illegal.scn",
        "step: propose\n[P1]\nfield: Patrol Officer\ndeck: 4x Academy Student\n[P2]\ndeck: 4x Academy Student\n[actions]\nattack Patrol Officer\ntarget Academy Student\n",
    );
    let o = tcgsim(&["scenario", illegal.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("illegal.scn:9: action 2 \"target Academy Student\" is illegal; legal actions: target player"), "{e}");
    // The JSON of the state reached is still printed.
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["step"], "group");
    let failing = tmp(
        "failing.scn",
        "step: propose\n[P1]\ndeck: 4x Academy Student\n[P2]\ndeck: 4x Academy Student\n[expect]\nP1.bond: 12\n",
    );
    let o = tcgsim(&["scenario", failing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("P1.bond: expected 12, got 40"),
        "{}",
        stderr(&o)
    );
}

/// A `[position]` the rules refuse, or that names cards its deck list lacks, is malformed input
/// (exit 2, `file:line` and the reason), in Fire Force and TMNT alike (docs/scenario.md).
#[test]
fn scenario_position_errors_exit_2_with_file_and_line() {
    const FF: &str = "game: fireforce\nP1: 25*Spark Cadet\nP1 flame: 5*Red Flame\nP2: 25*Bastion Recruit\nP2 flame: 5*White Flame\n[position]\nstep: main\n";
    for (name, position, want) in [
        // F-COST-2: 4 Units with Flame and 5 Flame cards are 9 cards with Flame.
        (
            "ff_nine.scn",
            "units P1: 4*Spark Cadet\nflame P1: 5*Red Flame\n",
            "ff_nine.scn:6: the [position] breaks a rule of the game: P1: more than 8 cards with Flame (F-COST-2)",
        ),
        (
            "ff_card.scn",
            "units P1: Bastion Recruit\n",
            "ff_card.scn:8: units P1: one Bastion Recruit more than P1's deck list has for its zones (0 in the list)",
        ),
        (
            "ff_mark.scn",
            "units P1: Spark Cadet (tapped)\n",
            "ff_mark.scn:8: units P1: unknown mark \"tapped\"",
        ),
        (
            "ff_rest.scn",
            "hand P1: none\ndeck P1: 24*Spark Cadet\n",
            "ff_rest.scn:9: P1: cards of its deck list are in no zone: Spark Cadet",
        ),
        (
            "ff_key.scn",
            "tokens P1: 3\n",
            "ff_key.scn:8: unknown position key \"tokens P1\"",
        ),
        // A key given twice, a turn past the written range (65535 wrapped to 0 at its end).
        ("ff_twice.scn", "step: main\n", "ff_twice.scn:8: step: given twice"),
        (
            "ff_turn.scn",
            "turn: 65535\nactive: P1\n",
            "ff_turn.scn:8: turn: 65535 is out of range 1..=10000",
        ),
    ] {
        let f = tmp(name, &format!("{FF}{position}[actions]\nend\n"));
        let o = tcgsim(&["scenario", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{name}: {}", stderr(&o));
    }
    let f = tmp(
        "tmnt_blocks.scn",
        "game: tmnt\nP1: 30*Grove Warden\nP2: 30*Kite Dancer\n[position]\nturn: 2\nblocks P1: Grove Warden | Grove Warden | Grove Warden | Grove Warden | Grove Warden\n",
    );
    let o = tcgsim(&["scenario", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let twice = tmp(
        "tmnt_twice.scn",
        "game: tmnt\nP1: 30*Grove Warden\nP2: 30*Kite Dancer\n[position]\nturn: 2\nturn: 3\n",
    );
    let t = tcgsim(&["scenario", twice.to_str().unwrap()]);
    assert_eq!(t.status.code(), Some(2));
    assert!(
        stderr(&t).contains("tmnt_twice.scn:6: turn: given twice"),
        "{}",
        stderr(&t)
    );
    assert!(
        stderr(&o).contains("tmnt_blocks.scn:6: blocks P1: 4 Block Zones at most"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sealed_writes_a_valid_blitz_deck() {
    let dir = tmpdir("sealed");
    let o = tcgsim(&["sealed", "--seed", "9", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.join("sealed-9.deck");
    let v = tcgsim(&["validate", out.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(stdout(&v).contains("Blitz Shield format, 40 cards"));
}

const TRAILS: [&str; 2] = ["decks/trails/aggro.deck", "decks/trails/control.deck"];
const TOY: [&str; 2] = ["decks/toy/high.deck", "decks/toy/low.deck"];
const FIREFORCE: [&str; 2] = [
    "decks/fireforce/aggro_blitz.deck",
    "decks/fireforce/reaction_control.deck",
];
const TMNT: [&str; 2] = ["decks/tmnt/fire_burn.deck", "decks/tmnt/items_engine.deck"];

/// docs/cli.md: decks are positional and `--agent` takes one value, so agents may come before or
/// after the decks, and no agent is ever read as a deck.
#[test]
fn agents_and_decks_in_any_order() {
    let before = tcgsim(&[
        "duel",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        TRAILS[0],
        TRAILS[1],
        "--games",
        "6",
        "--quiet",
        "--out",
        tmpdir("order1").to_str().unwrap(),
    ]);
    let after = tcgsim(&[
        "duel",
        TRAILS[0],
        TRAILS[1],
        "--games",
        "6",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--quiet",
        "--out",
        tmpdir("order2").to_str().unwrap(),
    ]);
    assert_eq!(before.status.code(), Some(0), "{}", stderr(&before));
    let line = |o: &Output| stdout(o).lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(line(&before), line(&after));
    assert!(stdout(&before).starts_with("random vs heuristic on aggro / control: 6 games"));
    // Arena: decks positional, agents flagged; an agent name is never taken for a deck.
    let o = tcgsim(&[
        "arena",
        TRAILS[0],
        TRAILS[1],
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "4",
        "--out",
        tmpdir("order3").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tcgsim(&[
        "arena",
        TRAILS[0],
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("random: cannot read"), "{}", stderr(&o));
    // The wrong number of agents is said, not guessed.
    let o = tcgsim(&["duel", TRAILS[0], TRAILS[1], "--agent", "random"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("two agents (--agent A --agent B), 1 given"),
        "{}",
        stderr(&o)
    );
    let o = tcgsim(&["cards", TRAILS[0], "--agent", "random", "--agent", "random"]);
    assert!(
        stderr(&o).contains("takes one agent, 2 given"),
        "{}",
        stderr(&o)
    );
}

/// `--games` means games everywhere; games played in pairs round an odd number up and say so.
#[test]
fn odd_games_are_rounded_up_aloud() {
    let o = tcgsim(&[
        "arena",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "3",
        "--out",
        tmpdir("odd").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--games 3 rounded up to 4"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("over 4 games"), "{}", stdout(&o));
}

/// The game is inferred from the deck folder (or card file); inputs of two games are refused.
#[test]
fn the_game_follows_the_decks_and_a_mismatch_exits_2() {
    let o = tcgsim(&["validate", TOY[0], TOY[1]]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("high.deck: ok (8 cards)"),
        "{}",
        stdout(&o)
    );
    for args in [
        vec!["play", "--game", "toy", TRAILS[0], TRAILS[1]],
        vec!["play", TOY[0], TRAILS[1]],
        vec!["validate", "--cards", "decks/toy/cards.csv", TRAILS[0]],
        vec!["matrix", "--game", "chess"],
    ] {
        let o = tcgsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("two games") || stderr(&o).contains("invalid value 'chess'"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // Only the deck's own folder counts: a Trails deck somewhere below a folder named `toy` is a
    // Trails deck.
    let toy = tmpdir("toy");
    let d = toy.join("mine");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(TRAILS[0], d.join("aggro.deck")).unwrap();
    let o = tcgsim(&["validate", d.join("aggro.deck").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tcgsim(&["play", "--game", "toy", TOY[0], TOY[1]]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("on points (X-END-1)"), "{}", stdout(&o));
}

/// Every CSV a command writes starts with its header line, and every row has the header's fields;
/// each command writes run.json beside its results.
#[test]
fn every_csv_starts_with_its_header() {
    let d = tmpdir("csv");
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "matrix",
            vec!["matrix", TRAILS[0], TRAILS[1], "--games", "20"],
        ),
        ("cards", vec!["cards", TOY[0], "--games", "20"]),
        (
            "arena",
            vec![
                "arena",
                "--agent",
                "random",
                "--agent",
                "heuristic",
                "--games",
                "4",
            ],
        ),
        (
            "sprt",
            vec![
                "arena",
                "--agent",
                "heuristic",
                "--agent",
                "random",
                "--sprt",
                "0,50",
            ],
        ),
        (
            "duel",
            vec![
                "duel",
                TOY[0],
                TOY[1],
                "--agent",
                "random",
                "--agent",
                "heuristic",
                "--games",
                "8",
            ],
        ),
    ];
    let mut files = 0;
    for (name, mut args) in runs {
        let out = d.join(name);
        let out_s = out.display().to_string();
        args.extend(["--out", &out_s, "--quiet"]);
        let o = tcgsim(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let info: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        assert_eq!(info["tool"], "tcgsim");
        for e in std::fs::read_dir(&out).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "csv") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&p).unwrap();
            assert!(!text.starts_with('#'), "{}", p.display());
            let mut r = csv::Reader::from_reader(text.as_bytes());
            let width = r.headers().unwrap().len();
            assert!(width > 1, "{}", p.display());
            let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
            assert!(!rows.is_empty(), "{}", p.display());
            assert!(rows.iter().all(|x| x.len() == width), "{}", p.display());
        }
    }
    assert!(files >= 6, "{files} CSV files");
}

/// `replay` plays a recorded game again from its actions and prints the log `play --log` printed,
/// byte for byte (Trails, the toy game, the Fire Force TCG, the TMNT TCG).
#[test]
fn replay_reproduces_the_log_byte_for_byte() {
    for (k, decks) in [TRAILS, TOY, FIREFORCE, TMNT].iter().enumerate() {
        let d = tmpdir(&format!("replay{k}"));
        let ds = d.display().to_string();
        let played = tcgsim(&[
            "play", decks[0], decks[1], "--agent", "random", "--seed", "11", "--log", "--out", &ds,
        ]);
        assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
        assert_eq!(
            std::fs::read_to_string(d.join("log.txt")).unwrap(),
            stdout(&played)
        );
        let rec = d.join("record.jsonl");
        let replayed = tcgsim(&["replay", rec.to_str().unwrap()]);
        assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
        assert_eq!(stdout(&replayed), stdout(&played));
        // A record whose actions were tampered with is refused.
        let text = std::fs::read_to_string(&rec).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut v2 = v.clone();
        let acts = v2["actions"].as_array_mut().unwrap();
        let last = acts.len() - 1;
        acts.swap(0, last);
        std::fs::write(&rec, serde_json::to_string(&v2).unwrap()).unwrap();
        let o = tcgsim(&["replay", rec.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("record.jsonl:1: action"),
            "{}",
            stderr(&o)
        );
    }
}

/// With standard error in a file (an overnight run), progress comes as plain lines.
#[test]
fn progress_lines_when_stderr_is_not_a_terminal() {
    let d = tmpdir("progress");
    let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args([
            "matrix",
            TRAILS[0],
            TRAILS[1],
            "--games",
            "400",
            "--chunk",
            "50",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&d)
        .env("TCGSIM_PROGRESS_SECONDS", "0")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(lines.len() >= 4, "{e}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("/1600 games (") && l.contains("games/s") && l.contains("ETA")),
        "{e}"
    );
    // --quiet: nothing but errors.
    let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(["matrix", TRAILS[0], "--games", "50", "--quiet", "--out"])
        .arg(&d)
        .env("TCGSIM_PROGRESS_SECONDS", "0")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
}

/// The long flags in `text` (`--name`), without `--help` and `--version`.
fn flags_in(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let b = text.as_bytes();
    let mut k = 0;
    while let Some(at) = text[k..].find("--") {
        let start = k + at + 2;
        let mut end = start;
        while end < b.len() && (b[end].is_ascii_lowercase() || b[end] == b'-') {
            end += 1;
        }
        let name = &text[start..end];
        if !name.is_empty() && !name.starts_with('-') && name != "help" && name != "version" {
            out.insert(format!("--{}", name.trim_end_matches('-')));
        }
        k = end.max(start);
    }
    out
}

/// docs/cli.md and every `--help` agree: each command has its section, and the section names
/// exactly the flags the command's `--help` lists.
#[test]
fn docs_cli_md_matches_every_help() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md"))
            .unwrap();
    let help = stdout(&tcgsim(&["--help"]));
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 11, "{commands:?}");
    let mut problems = Vec::new();
    for c in &commands {
        let head = format!("### `tcgsim {c}");
        let Some(at) = doc.find(&head) else {
            problems.push(format!("docs/cli.md has no section {head}"));
            continue;
        };
        let rest = &doc[at + head.len()..];
        let section = &rest[..rest.find("\n### ").unwrap_or(rest.len())];
        let h = stdout(&tcgsim(&[c, "--help"]));
        // The options of the help: lines that start with a flag.
        let listed: String = h
            .split("Options:")
            .nth(1)
            .unwrap_or("")
            .lines()
            .map(|l| l.trim_start())
            .filter(|l| l.starts_with('-'))
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let want = flags_in(&listed);
        let have = flags_in(section);
        if want != have {
            problems.push(format!(
                "{c}: in --help only {:?}; in docs/cli.md only {:?}",
                want.difference(&have).collect::<Vec<_>>(),
                have.difference(&want).collect::<Vec<_>>()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `matrix --records`: one line per game; any line replays (by its agents and seeds) to the
/// recorded end; a resumed run keeps the records of the chunks its checkpoint holds — once each,
/// and only its own games — and records the rest once.
#[test]
fn matrix_records_replay_and_survive_a_resume() {
    let d = tmpdir("records");
    let (out, cp) = (d.join("out"), d.join("cp"));
    let run = |extra: &[&str]| {
        let mut a = vec![
            "matrix",
            TRAILS[0],
            TRAILS[1],
            "--games",
            "12",
            "--chunk",
            "4",
            "--records",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--checkpoint",
            cp.to_str().unwrap(),
        ];
        a.extend(extra);
        tcgsim(&a)
    };
    assert_eq!(run(&[]).status.code(), Some(0));
    let rec = out.join("records.jsonl");
    let all = std::fs::read_to_string(&rec).unwrap();
    let key = |l: &str| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        (v["deck_names"].to_string(), v["index"].as_u64().unwrap())
    };
    let mut keys: Vec<_> = all.lines().map(key).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 4 * 12);
    assert_eq!(all.lines().count(), 4 * 12);
    for n in ["1", "17", "48"] {
        let o = tcgsim(&["replay", rec.to_str().unwrap(), "--index", n]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let line: serde_json::Value =
            serde_json::from_str(all.lines().nth(n.parse::<usize>().unwrap() - 1).unwrap())
                .unwrap();
        let last = stdout(&o).lines().last().unwrap().to_string();
        assert!(last.ends_with(line["ending"].as_str().unwrap()), "{last}");
        assert!(
            last.contains(&format!("{} decisions", line["decisions"])),
            "{last}"
        );
    }
    // An interruption after 3 of 12 chunks, with a torn record line of a chunk never finished.
    let ck = std::fs::read_to_string(cp.join("chunks.csv")).unwrap();
    let kept: Vec<&str> = ck.lines().take(4).collect();
    std::fs::write(cp.join("chunks.csv"), kept.join("\n") + "\n").unwrap();
    // Also a game recorded twice, and one of another run (another seed) for a finished chunk.
    let first = all.lines().next().unwrap();
    let mut foreign: serde_json::Value = serde_json::from_str(first).unwrap();
    foreign["seed"] = serde_json::json!(12345);
    let damaged = format!("{all}{first}\n{foreign}\n{{\"game\":\"tra");
    std::fs::write(&rec, damaged).unwrap();
    assert_eq!(run(&["--resume"]).status.code(), Some(0));
    let again = std::fs::read_to_string(&rec).unwrap();
    let mut k2: Vec<_> = again.lines().map(key).collect();
    assert_eq!(k2.len(), 4 * 12, "each game recorded once");
    k2.sort();
    assert_eq!(k2, keys);
    let mut a: Vec<&str> = all.lines().collect();
    let mut b: Vec<&str> = again.lines().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same records, whatever ran when");
}

/// `tcgsim` run from `dir` (for the default `--out`, which is relative to it).
fn tcgsim_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A bundled file's absolute path.
fn bundled(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// Issue 30: each command's default output folder is its own (`results/<command>/`): the
/// README's commands in a row left one `results/run.json` and report, the last command's, beside
/// the matrix's CSV files.
#[test]
fn each_command_writes_to_its_own_default_folder() {
    let dir = tmpdir("cli-default-out");
    let (a, b) = (bundled(TRAILS[0]), bundled(TRAILS[1]));
    let o = tcgsim_in(&dir, &["matrix", &a, &b, "--games", "2", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tcgsim_in(
        &dir,
        &[
            "duel", &a, &b, "--agent", "random", "--agent", "random", "--games", "2", "--quiet",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let results = dir.join("results");
    for (command, file) in [("matrix", "matrix.csv"), ("duel", "duel.csv")] {
        for f in [file, "run.json", "report.html"] {
            assert!(results.join(command).join(f).is_file(), "{command}: {f}");
        }
        let run = std::fs::read_to_string(results.join(command).join("run.json")).unwrap();
        assert!(
            run.contains(&format!("\"command\": \"{command}\"")),
            "{run}"
        );
    }
    assert!(!results.join("run.json").exists());
    // Every result command's help names its folder.
    for command in [
        "matrix", "merge", "cards", "tune", "balance", "arena", "duel",
    ] {
        let help = stdout(&tcgsim(&[command, "--help"]));
        assert!(
            help.contains(&format!("[default: results/{command}]")),
            "{command}: {help}"
        );
    }
}

/// Issue 30: a deck outside `decks/<game>/` with no card file beside it is read as the game whose
/// deck it is (it was read as Trails: `sealed --game fireforce --out my_decks` wrote a deck that
/// `validate` rejected with 30 errors); decks of two games are refused.
#[test]
fn a_decks_game_is_inferred_from_its_contents() {
    let dir = tmpdir("cli-deck-game");
    let d = dir.to_str().unwrap();
    for args in [
        ["sealed", "--game", "fireforce", "--seed", "7", "--out", d],
        ["sealed", "--game", "trails", "--seed", "3", "--out", d],
    ] {
        let o = tcgsim(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let ff = dir.join("sealed-7.deck").display().to_string();
    let trails = dir.join("sealed-3.deck").display().to_string();
    let o = tcgsim(&["validate", &ff]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Blitz Shield format, 35 cards + 5 Flame cards"));
    // Bundled decks copied out of their folders, each alone beside no card file.
    for (deck, summary) in [
        (FIREFORCE[0], "+ 5 Flame cards"),
        (TMNT[0], "(40 cards)"),
        (TOY[0], "(8 cards)"),
    ] {
        let copy = dir.join("copy.deck");
        std::fs::copy(bundled(deck), &copy).unwrap();
        let o = tcgsim(&["validate", copy.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{deck}: {}", stderr(&o));
        assert!(stdout(&o).contains(summary), "{deck}: {}", stdout(&o));
    }
    let o = tcgsim(&["validate", &trails]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // validate checks each deck as its own game's (review: the README's two sealed decks in one
    // folder were refused as "inputs of two games"); a command that plays them together refuses.
    let o = tcgsim(&["validate", &trails, &ff]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("sealed-3.deck: ok") && stdout(&o).contains("sealed-7.deck: ok"));
    let o = tcgsim(&[
        "duel", &trails, &ff, "--agent", "random", "--agent", "random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is a trails deck") && stderr(&o).contains("is a fireforce deck"),
        "{}",
        stderr(&o)
    );
    // A deck that is not valid (one count changed, one card misspelt) is still its game's: the
    // game whose pool knows the most of its cards, so validate says what is wrong in that game's
    // terms (review: it fell back to Trails and listed every line as an unknown card).
    let text = std::fs::read_to_string(bundled(FIREFORCE[0])).unwrap();
    let first = text.lines().find(|l| l.starts_with("2 ")).unwrap();
    let bad = dir.join("bad.deck");
    std::fs::write(&bad, text.replacen(first, &first.replacen('2', "1", 1), 1)).unwrap();
    let o = tcgsim(&["validate", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("(F-DECK-1)"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("unknown card"), "{}", stderr(&o));
}

/// Issue 30: the help texts are true. `--agent` said agents default to `heuristic` in `duel` and
/// `arena`, which refuse to run without them; `--game` and `--cards` spoke of decks in commands
/// without any.
#[test]
fn help_texts_say_what_the_commands_do() {
    for command in ["duel", "arena"] {
        let help = stdout(&tcgsim(&[command, "--help"]));
        assert!(!help.contains("left out, agents are"), "{command}: {help}");
        let o = tcgsim(&[command, TRAILS[0], TRAILS[1], "--games", "2", "--quiet"]);
        assert_eq!(o.status.code(), Some(2), "{command} without agents");
    }
    let help = stdout(&tcgsim(&["scenario", "--help"]));
    assert!(help.contains("scenario's `game:` line"), "{help}");
    // Walkthrough: replay's help named only `play --out` records and serve's left out two of the
    // requests docs/cli.md lists.
    let help = stdout(&tcgsim(&["replay", "--help"]));
    assert!(help.contains("matrix --records"), "{help}");
    let help = stdout(&tcgsim(&["serve", "--help"]));
    assert!(
        help.contains("hello") && help.contains("card_text"),
        "{help}"
    );
    // `sealed` plays no games: its seed fixes the packs opened, not "the same games".
    let help = stdout(&tcgsim(&["sealed", "--help"]));
    assert!(!help.contains("same games"), "{help}");
    assert!(help.contains("same packs"), "{help}");
    // matrix's default: the range README.md measured, not one figure of a slow hour.
    let help = stdout(&tcgsim(&["matrix", "--help"]));
    assert!(help.contains("20–45 s on 2 cores"), "{help}");
    assert!(!help.contains("35 s"), "{help}");
}

/// Issue 30: a resumed run's progress counts the games its checkpoint holds (it counted only the
/// resuming process's: `progress: 50/250 games` for a run of 400 games).
#[test]
fn a_resumed_runs_progress_counts_the_resumed_games() {
    let d = tmpdir("cli-progress-resume");
    let (out, cp) = (d.join("out"), d.join("cp"));
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tcgsim"))
            .args([
                "matrix", TRAILS[0], TRAILS[1], "--games", "100", "--chunk", "50",
            ])
            .args(["--threads", "1", "--out"])
            .arg(&out)
            .arg("--checkpoint")
            .arg(&cp)
            .args(extra)
            .env("TCGSIM_PROGRESS_SECONDS", "0")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    assert_eq!(run(&["--quiet"]).status.code(), Some(0));
    // An interruption after 3 of the 8 chunks (150 of 400 games).
    let ck = std::fs::read_to_string(cp.join("chunks.csv")).unwrap();
    let kept: Vec<&str> = ck.lines().take(4).collect();
    std::fs::write(cp.join("chunks.csv"), kept.join("\n") + "\n").unwrap();
    let o = run(&["--resume"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(!lines.is_empty(), "{e}");
    for l in &lines {
        let done: u64 = l["progress: ".len()..]
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(done > 150 && l.contains("/400 games ("), "{e}");
    }
}

/// Issue 30: `report DIR` on a folder of run folders (`results/`, each command's default `--out`
/// below it) writes each run folder's report and an index page linking them; it failed ("no
/// run.json") — and before each command had its own folder, showed only the last run. A run folder
/// itself still gets its own page.
#[test]
fn report_of_a_folder_of_runs_is_an_index() {
    let dir = tmpdir("cli-report-index");
    let (a, b) = (bundled(TRAILS[0]), bundled(TRAILS[1]));
    let results = dir.join("results");
    let r = results.display().to_string();
    let m = format!("{r}/matrix");
    let d = format!("{r}/more/duel");
    for args in [
        vec!["matrix", &a, &b, "--games", "2", "--quiet", "--out", &m],
        vec![
            "duel", &a, &b, "--agent", "random", "--agent", "random", "--games", "2", "--quiet",
            "--out", &d,
        ],
    ] {
        let o = tcgsim(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    std::fs::remove_file(results.join("matrix/report.html")).unwrap();
    let o = tcgsim(&["report", &r]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("an index of 2 run folders"),
        "{}",
        stderr(&o)
    );
    let page = std::fs::read_to_string(results.join("report.html")).unwrap();
    for link in [
        "href=\"matrix/report.html\"",
        "href=\"more/duel/report.html\"",
    ] {
        assert!(page.contains(link), "{link}: {page}");
    }
    assert!(results.join("matrix/report.html").is_file());
    // A run folder: its own page, as before.
    let o = tcgsim(&["report", &m]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(results.join("matrix/report.html")).unwrap();
    assert!(page.contains("tcgsim matrix"), "{page}");

    // An index written elsewhere links relatively (it was given absolute paths), and the links
    // lead to the pages.
    let elsewhere = dir.join("pages");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let o = tcgsim(&[
        "report",
        &r,
        "--out",
        &elsewhere.join("index.html").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(elsewhere.join("index.html")).unwrap();
    for link in [
        "../results/matrix/report.html",
        "../results/more/duel/report.html",
    ] {
        assert!(page.contains(&format!("href=\"{link}\"")), "{link}: {page}");
        assert!(elsewhere.join(link).is_file(), "{link}");
    }

    // One bad run folder does not stop the others: its error is printed, the index lists the
    // others, and the command ends with exit code 2 (it stopped at the first bad folder).
    std::fs::write(results.join("matrix/matchups.csv"), "not,a,matchups,file\n").unwrap();
    std::fs::remove_file(results.join("more/duel/report.html")).unwrap();
    let o = tcgsim(&["report", &r]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("matchups.csv:1"), "{e}");
    assert!(e.contains("1 of 2 run folders"), "{e}");
    assert!(results.join("more/duel/report.html").is_file(), "{e}");
    let page = std::fs::read_to_string(results.join("report.html")).unwrap();
    assert!(page.contains("more/duel/report.html") && !page.contains("\"matrix/report.html"));
}

/// A report that cannot be written is exit code 1 (a failed write), not 2 (bad input): the
/// command line takes the code from the error's kind (`docs/cli.md`, "Exit codes").
#[test]
fn a_report_that_cannot_be_written_is_exit_code_1() {
    let dir = tmpdir("cli-report-unwritable");
    let run = dir.join("run").display().to_string();
    let (a, b) = (bundled(TRAILS[0]), bundled(TRAILS[1]));
    let o = tcgsim(&["matrix", &a, &b, "--games", "2", "--quiet", "--out", &run]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A file stands where the page's folder should be.
    let blocker = dir.join("blocker");
    std::fs::write(&blocker, "a file").unwrap();
    let out = blocker.join("report.html").display().to_string();
    let o = tcgsim(&["report", &run, "--out", &out]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
}

/// Issue 30: a result file that cannot be written leaves no half-written `--out` folder: exit 1,
/// one message naming the file, and the folder as the previous run left it (the files written
/// before the failure went in place, with a temporary file beside them).
#[test]
fn a_failed_write_leaves_the_out_folder_as_it_was() {
    let dir = tmpdir("cli-out-failed-write");
    let out = dir.join("out");
    let o_s = out.display().to_string();
    let run = |games: &str| {
        tcgsim(&[
            "matrix", TRAILS[0], TRAILS[1], "--games", games, "--quiet", "--out", &o_s,
        ])
    };
    assert_eq!(run("4").status.code(), Some(0));
    let files = |names: &[&str]| -> Vec<Vec<u8>> {
        names
            .iter()
            .map(|n| std::fs::read(out.join(n)).unwrap())
            .collect()
    };
    let names = [
        "matchups.csv",
        "lengths.csv",
        "matrix.csv",
        "meta.csv",
        "run.json",
        "report.html",
    ];
    let before = files(&names);
    // matrix.svg, the fourth file written, cannot be: a folder with a file in it stands there.
    std::fs::remove_file(out.join("matrix.svg")).unwrap();
    std::fs::create_dir_all(out.join("matrix.svg/in-the-way")).unwrap();
    let o = run("6");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("matrix.svg: cannot write"), "{e}");
    assert_eq!(files(&names), before, "the previous run's files, unchanged");
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "lengths.csv",
            "matchups.csv",
            "matrix.csv",
            "matrix.svg",
            "meta.csv",
            "report.html",
            "run.json"
        ]
    );
}

/// An unreadable `TCGSIM_PROGRESS_SECONDS` is said once (it was ignored silently) and the run
/// goes on with the default interval.
#[test]
fn a_bad_progress_interval_is_said_once() {
    let dir = tmpdir("cli-progress-env");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(["matrix", "--games", "4", "--out"])
        .arg(dir.join("out"))
        .env("TCGSIM_PROGRESS_SECONDS", "ten")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(
        e.matches("TCGSIM_PROGRESS_SECONDS=\"ten\"").count(),
        1,
        "{e}"
    );
}

/// `replay` run from another folder than the one the game was played in: the record's relative
/// deck and card paths are read from the current directory (as docs/cli.md says), and the error
/// names the record and which of its paths could not be read (exit 2), not the path alone.
#[test]
fn replay_errors_name_the_record() {
    let d = tmpdir("replay-elsewhere");
    let ds = d.display().to_string();
    let played = tcgsim(&[
        "play", TRAILS[0], TRAILS[1], "--agent", "random", "--seed", "3", "--out", &ds,
    ]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    let rec = d.join("record.jsonl").display().to_string();
    let o = tcgsim_in(&d, &["replay", &rec]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains(&format!("{rec}:1: the record's ")), "{e}");
    assert!(e.contains("(read from the current directory)"), "{e}");
    assert!(e.contains("cannot read"), "{e}");
}
