//! The command line: exit codes and messages for good and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common;
use common::tcgsim;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcgsim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn validate_accepts_the_bundled_decks() {
    let mut args = vec!["validate"];
    let decks: Vec<String> =
        std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("decks/trails"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "deck"))
            .map(|p| p.display().to_string())
            .collect();
    args.extend(decks.iter().map(String::as_str));
    let o = tcgsim(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().filter(|l| l.ends_with("cards)")).count(),
        decks.len()
    );
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

#[test]
fn bad_input_exits_2_without_panicking() {
    for args in [
        vec!["play", "decks/trails/nope.deck", "decks/trails/aggro.deck"],
        vec![
            "play",
            "--agent-a",
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args([
            "play",
            "--human",
            "1",
            "--seed",
            "3",
            "decks/trails/covert.deck",
            "decks/trails/hate_wall.deck",
        ])
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

#[test]
fn sealed_writes_a_valid_blitz_deck() {
    let out = std::env::temp_dir().join(format!("tcgsim-sealed-{}.deck", std::process::id()));
    let o = tcgsim(&["sealed", "--seed", "9", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = tcgsim(&["validate", out.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(stdout(&v).contains("Blitz Shield format, 40 cards"));
}
