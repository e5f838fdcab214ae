//! Damaged and hostile inputs: each case found by fuzzing the binary (issue 11) exits 2 with a
//! one-line reason naming the file, line or flag (1 when output cannot be written), without a
//! panic, and without playing a game first.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::{tcgsim, tmpdir};
use tcgsim::sim::checkpoint::line_sum;

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code 2, no panic, and a message containing `want`.
#[track_caller]
fn refused(o: &Output, want: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(e.contains(want), "expected \"{want}\" in: {e}");
}

const DECKS: [&str; 2] = ["decks/trails/aggro.deck", "decks/trails/control.deck"];

fn matrix(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["matrix", DECKS[0], DECKS[1]];
    args.extend(["--games", "10", "--chunk", "5", "--seed", "3", "--out"]);
    args.push(out.to_str().unwrap());
    args.extend(extra);
    tcgsim(&args)
}

#[test]
fn a_checkpoint_line_with_impossible_counts_is_refused() {
    let d = tmpdir("ckpt");
    let cp = d.join("cp");
    let out = d.join("out");
    let o = matrix(&out, &["--checkpoint", cp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(cp.join("chunks.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 8, "plan line and 4 matchups × 2 chunks");
    let write_back = |rows: &[String]| {
        let mut t = lines[0].to_string() + "\n";
        for r in rows {
            t += r;
            t += "\n";
        }
        std::fs::write(cp.join("chunks.csv"), t).unwrap();
    };
    let resume = || matrix(&out, &["--checkpoint", cp.to_str().unwrap(), "--resume"]);
    // A forged line carries the check sum of its fields under the run's tag, so the counts, not
    // the sum, are what is refused.
    let tag = lines[0].rsplit_once(" # run ").unwrap().1;
    let signed = |body: String| format!("{body},{}", line_sum(tag, &body));
    // A 5-game chunk with 65,536 draws.
    let f: Vec<&str> = lines[1].split(',').collect();
    let forged = signed(format!(
        "{},{},{},5,0,0,65536,0,{},{},{}",
        f[0], f[1], f[2], f[8], f[9], f[10]
    ));
    write_back(&[forged]);
    refused(
        &resume(),
        "chunks.csv:2: impossible counts: wins 0 + losses 0 + draws 65536 differ from 5 games",
    );
    // Issue 30: the same line with its decisions edited to another possible count, unsigned.
    let (body, sum) = lines[1].rsplit_once(',').unwrap();
    let (nums, lengths) = body.rsplit_once(',').unwrap();
    let (head, decisions) = nums.rsplit_once(',').unwrap();
    let more: u64 = decisions.parse::<u64>().unwrap() + 1;
    write_back(&[format!("{head},{more},{lengths},{sum}")]);
    refused(
        &resume(),
        "chunks.csv:2: the line's check sum does not match it",
    );
    // The same chunk twice.
    write_back(&[lines[1].into(), lines[2].into(), lines[1].into()]);
    refused(&resume(), "chunks.csv:4: chunk");
    assert!(stderr(&resume()).contains("is recorded twice (first on line 2)"));
    // A chunk the plan does not have.
    write_back(&[signed("0,0,7,5,2,3,0,1,40,400,8:5".into())]);
    refused(&resume(), "is not a task of this run");
    // A checkpoint of another shard of the run is not resumed by this one.
    let cp2 = d.join("cp2");
    let o = matrix(
        &d.join("s1"),
        &["--shard", "1/2", "--checkpoint", cp2.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0));
    let o = matrix(
        &d.join("s2"),
        &[
            "--shard",
            "2/2",
            "--checkpoint",
            cp2.to_str().unwrap(),
            "--resume",
        ],
    );
    refused(&o, "belongs to a different run");
    // Nothing finished was lost: the intact checkpoint resumes to the uninterrupted result.
    write_back(&lines[1..].iter().map(|l| l.to_string()).collect::<Vec<_>>());
    let o = resume();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming: 8 of 8 chunks already done"));
}

/// `merge s1 s2 --out s1` would replace shard s1's files by the merge's and remove its
/// `records.jsonl`: refused up front (exit 2, naming `--out` and the shard), however the folder
/// is written (`./s1`, `s1/`, a link to it), and s1 is left as it was. Before, the merge ran and
/// removed s1's records.
#[test]
fn merge_refuses_an_out_that_is_one_of_its_shards() {
    let d = tmpdir("merge-into-shard");
    let s1 = d.join("s1");
    let s2 = d.join("s2");
    assert_eq!(
        matrix(&s1, &["--shard", "1/2", "--records"]).status.code(),
        Some(0)
    );
    assert_eq!(matrix(&s2, &["--shard", "2/2"]).status.code(), Some(0));
    let link = d.join("link");
    std::os::unix::fs::symlink(&s1, &link).unwrap();
    let files = |dir: &Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = files(&s1);
    assert!(before.iter().any(|(n, _)| n == "records.jsonl"));
    let s1_dot = format!("{}/./", s1.display());
    for (out, named) in [
        (s1.display().to_string(), s1.display().to_string()),
        (s1_dot.clone(), s1.display().to_string()),
        (link.display().to_string(), s1.display().to_string()),
        (s2.display().to_string(), s2.display().to_string()),
    ] {
        let o = tcgsim(&["merge", &s1_dot, s2.to_str().unwrap(), "--out", &out]);
        let want = format!("--out {out}: it is the folder of shard ");
        refused(&o, &want);
        let named = if named == s1.display().to_string() {
            s1_dot.clone()
        } else {
            named
        };
        assert!(
            stderr(&o).contains(&format!("shard {named}")),
            "{}",
            stderr(&o)
        );
        assert_eq!(files(&s1), before, "shard s1 changed by --out {out}");
    }
    let o = tcgsim(&[
        "merge",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--out",
        d.join("merged").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files(&s1), before);
}

#[test]
fn merge_refuses_duplicated_missing_and_impossible_rows() {
    let d = tmpdir("merge");
    let s1 = d.join("s1");
    let s2 = d.join("s2");
    assert_eq!(matrix(&s1, &["--shard", "1/2"]).status.code(), Some(0));
    assert_eq!(matrix(&s2, &["--shard", "2/2"]).status.code(), Some(0));
    let good = std::fs::read_to_string(s1.join("matchups.csv")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let merge = || {
        tcgsim(&[
            "merge",
            s1.to_str().unwrap(),
            s2.to_str().unwrap(),
            "--out",
            d.join("merged").to_str().unwrap(),
        ])
    };
    assert_eq!(merge().status.code(), Some(0), "{}", stderr(&merge()));
    let set = |rows: Vec<&str>| std::fs::write(s1.join("matchups.csv"), rows.join("\n") + "\n");
    // A matchup row given twice.
    let mut dup = lines.clone();
    dup.push(lines[1]);
    set(dup).unwrap();
    refused(&merge(), "matchups.csv:6: matchup");
    assert!(stderr(&merge()).contains("is given twice (first on line 2)"));
    // A missing row.
    let mut missing = lines.clone();
    missing.remove(2);
    set(missing).unwrap();
    refused(&merge(), "is missing");
    // A row whose games are not the shard's.
    let f: Vec<&str> = lines[1].split(',').collect();
    let mut forged_row: Vec<String> = f.iter().map(|x| x.to_string()).collect();
    forged_row[2] = (f[2].parse::<u64>().unwrap() + 2).to_string();
    forged_row[4] = (f[4].parse::<u64>().unwrap() + 2).to_string();
    let forged_row = forged_row.join(",");
    let mut forged = lines.clone();
    forged[1] = &forged_row;
    set(forged).unwrap();
    refused(&merge(), "matchups.csv:2: column `win_rate`");
    set(lines.clone()).unwrap();
    // A run written by the earlier engine (plan v1) is refused with the reason.
    let run = std::fs::read_to_string(s1.join("run.json")).unwrap();
    std::fs::write(
        s1.join("run.json"),
        run.replace("tcgsim-matrix v4", "tcgsim-matrix v2"),
    )
    .unwrap();
    refused(&merge(), "written by another version of tcgsim");
    // A run.json whose words disagree with its fingerprint (another seed) is refused.
    std::fs::write(
        s1.join("run.json"),
        run.replace("\"seed\": 3,", "\"seed\": 4,"),
    )
    .unwrap();
    refused(&merge(), "disagree with its fingerprint");
    // A CSV with a comment line before its header is not a matchups.csv.
    std::fs::write(s1.join("run.json"), &run).unwrap();
    set([vec!["# a comment"], lines.clone()].concat()).unwrap();
    refused(&merge(), "matchups.csv:1: expected the header");
}

#[test]
fn unbounded_numbers_are_refused_at_once() {
    let d = tmpdir("bounds");
    let duel = |extra: &[&str]| {
        let mut a = vec![
            "duel", DECKS[0], DECKS[1], "--agent", "random", "--agent", "random",
        ];
        a.extend(extra);
        tcgsim(&a)
    };
    refused(
        &duel(&["--games", "4294967296"]),
        "4294967296 is not in 1..=1000000",
    );
    refused(
        &duel(&["--threads", "18446744073709551615"]),
        "18446744073709551615 is not in 1..=1024",
    );
    for (spec, why) in [
        (
            "ismcts:threads=4294967295",
            "threads: 4294967295 is out of range 1..=256",
        ),
        (
            "ismcts:ms=18446744073709551615",
            "ms: 18446744073709551615 is out of range 1..=3600000",
        ),
    ] {
        let o = tcgsim(&[
            "duel", DECKS[0], DECKS[1], "--agent", spec, "--agent", "random",
        ]);
        refused(&o, why);
    }
    let big = write(&d, "big.deck", "100000000 Academy Student\n");
    refused(
        &tcgsim(&["validate", &big]),
        "big.deck:1: count 100000000 is out of range 1..=50",
    );
    let scn = write(
        &d,
        "big.scn",
        "[P1]\ndeck: 100000000x Academy Student\n[P2]\n",
    );
    refused(
        &tcgsim(&["scenario", &scn]),
        "big.scn:2: count 100000000 is out of range 1..=50",
    );
    // 300 lines of a 45,000-character card name: refused after 50 problems, at once (the
    // suggestions' edit distance used to be quadratic in the name's length, per line).
    let long = format!("4 Guild Junior Bracer{}\n", " / Rookie".repeat(5000)).repeat(300);
    let path = write(&d, "long.deck", long);
    let o = tcgsim(&["validate", &path]);
    refused(&o, "no card has a name that long");
    assert!(stderr(&o).contains("long.deck:51: stopped after 50 problems"));
    refused(
        &tcgsim(&["sealed", "--pack", "UNIT=99999999"]),
        "pack slot \"UNIT=99999999\": 99999999 is out of range 0..=100",
    );
    refused(
        &tcgsim(&["sealed", "--packs", "1000000000"]),
        "1000000000 is not in 1..=100",
    );
    refused(
        &tcgsim(&["matrix", DECKS[0], "--games", "1000000000", "--chunk", "1"]),
        "chunks for 1 decks; at most 1000000 (raise --chunk)",
    );
}

#[test]
fn output_that_cannot_be_written_exits_1_without_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    if full().is_err() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    for args in [
        vec!["validate", DECKS[0]],
        vec!["scenario", "tests/scenarios/combat_overkill.scn"],
        vec!["sealed"],
        vec!["play", "--log", DECKS[0], DECKS[1]],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full().unwrap())
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(
            e.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {e}"
        );
    }
    // A reader that has gone away (`tcgsim … | head -1` once head has exited): exit 1, and
    // nothing on stderr. The pipe's reading end is closed before the command writes.
    for args in [vec!["play", "--log", DECKS[0], DECKS[1]], vec!["sealed"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(writer)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

#[test]
fn flags_are_checked_before_any_game() {
    let d = tmpdir("flags");
    // A negative elo0 right after --sprt is a value, not a flag.
    let o = tcgsim(&[
        "arena",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--sprt",
        "-50,0",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("H0 Elo -50, H1 Elo 0"), "{out}");
    // An output folder that cannot be written is found before the first game.
    let blocker = write(&d, "file", "not a folder");
    let unwritable = format!("{blocker}/results");
    for args in [
        vec!["matrix", "--games", "5000", "--out", &unwritable],
        vec!["cards", DECKS[0], "--out", &unwritable],
        vec![
            "arena",
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--out",
            &unwritable,
        ],
    ] {
        let o = tcgsim(&args);
        refused(&o, "--out");
        assert!(stderr(&o).contains("cannot write there"), "{}", stderr(&o));
        assert!(!stderr(&o).contains("games played"), "{}", stderr(&o));
    }
    // --shards without an index would run the whole matrix in every pod.
    let o = Command::new(env!("CARGO_BIN_EXE_tcgsim"))
        .args(["matrix", DECKS[0], "--games", "2", "--shards", "2", "--out"])
        .arg(d.join("sh"))
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    refused(&o, "--shards 2 needs JOB_COMPLETION_INDEX");
}

#[test]
fn messages_say_what_is_wrong_and_where() {
    let d = tmpdir("messages");
    let head = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n";
    for (row, why) in [
        (
            "A,X,Y,UNIT,-1,1,1,a,,,",
            "column cost: -1 is out of range 0..=20",
        ),
        (
            "A,X,Y,UNIT,1,300,1,a,,,",
            "column str: 300 is out of range 0..=99",
        ),
        (
            "A,X,Y,UNIT,1,1,70000,a,,,",
            "column def: 70000 is out of range 0..=99",
        ),
    ] {
        let cards = write(&d, "cards.csv", format!("{head}{row}\n"));
        refused(
            &tcgsim(&["validate", "--cards", &cards, DECKS[0]]),
            &format!("cards.csv:2: {why}"),
        );
    }
    let scn = |name: &str, text: &[u8]| write(&d, name, text);
    refused(
        &tcgsim(&[
            "scenario",
            &scn("turn.scn", b"turn: 12345678901234567890\n[P1]\n[P2]\n"),
        ]),
        "turn.scn:1: turn: 12345678901234567890 is out of range 1..=65535",
    );
    // Not UTF-8: the line is named, in every kind of file.
    let deck_dir = tmpdir("messages-deck");
    let bad = write(&deck_dir, "bad.deck", b"4 Academy Student\n4 Acad\xffemy\n");
    refused(&tcgsim(&["validate", &bad]), "bad.deck:2: not valid UTF-8");
    let bad_cards = write(&d, "bad.csv", [head.as_bytes(), b"A,X\xff,Y\n"].concat());
    refused(
        &tcgsim(&["validate", "--cards", &bad_cards, DECKS[0]]),
        "bad.csv:2: not valid UTF-8",
    );
    refused(
        &tcgsim(&["scenario", &scn("bad.scn", b"[P1]\n[P2]\nhand: \xff\n")]),
        "bad.scn:3: not valid UTF-8",
    );
    // Too many cards: the line where the count passes 50.
    refused(
        &tcgsim(&[
            "scenario",
            &scn(
                "many.scn",
                b"[P1]\ndeck: 30x Academy Student\nhand: 30x Academy Student\n[P2]\n",
            ),
        ]),
        "many.scn:3: P1 has 60 cards; at most 50",
    );
    // A malformed expectation is bad input (2), not a failed expectation (1).
    refused(
        &tcgsim(&[
            "scenario",
            &scn(
                "bond.scn",
                b"[P1]\ndeck: 3x Academy Student\n[P2]\ndeck: 3x Academy Student\n[expect]\nP2.bond: thirty\n",
            ),
        ]),
        "bond.scn:6: P2.bond: \"thirty\" is not a whole number",
    );
    refused(
        &tcgsim(&["scenario", &scn("empty.scn", b"")]),
        "empty.scn: no position: a scenario needs a [P1] and a [P2] section",
    );
}

/// Each game: its name, one of its bundled decks, and a head of an ability in its card language.
const GAMES: [(&str, &str, &str); 3] = [
    ("trails", "decks/trails/aggro.deck", "enter"),
    ("fireforce", "decks/fireforce/blocker_wall.deck", "main"),
    ("tmnt", "decks/tmnt/wind_tempo.deck", "flip"),
];

/// `validate` of the game's deck with its bundled card file, `from` replaced by `to` in the row of
/// card `id`, written to `dir/name`.
fn validate_cards_with(dir: &Path, game: usize, name: &str, edit: [&str; 3]) -> Output {
    let (game, deck, _) = GAMES[game];
    let [id, from, to] = edit;
    let pool = std::fs::read_to_string(format!(
        "{}/decks/{game}/cards.csv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let row = pool
        .lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap();
    assert!(row.contains(from), "{row}");
    let cards = write(dir, name, pool.replace(row, &row.replacen(from, to, 1)));
    tcgsim(&["validate", "--game", game, "--cards", &cards, deck])
}

/// `validate` of the game's deck with a card file of one made-up card whose effect cell is
/// `effect`.
fn validate_effect(dir: &Path, game: usize, effect: &str) -> Output {
    let (name, deck, _) = GAMES[game];
    let file = match name {
        "trails" => format!(
            "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n\
             TS-999,X,Y,UNIT,1,1,1,bracer,,,{effect}\n"
        ),
        "fireforce" => format!(
            "number,name,type,cost,power,support,flame,attributes,keywords,effect,trigger\n\
             FF-999,X,EVENT,1,,,,lab,,{effect},\n"
        ),
        _ => format!(
            "number,name,type,kind,power,attribute,combo,effect\n\
             TM-999,X,character,,2,wind,,{effect}\n"
        ),
    };
    let cards = write(dir, &format!("{name}.csv"), file);
    tcgsim(&["validate", "--game", name, "--cards", &cards, deck])
}

#[test]
fn card_text_mistakes_name_the_file_line_column_word_and_likely_word() {
    let d = tmpdir("card-text");
    // (game, [card, its text, the text with a mistake], what the message says)
    let cases: [(usize, [&str; 3], &str); 9] = [
        (
            0,
            ["TS-002", "enter: draw 1", "enter: darw 1"],
            "darw.csv:5: column effect: ability 1: at \"darw\": unknown effect (expected `draw`, `draw_to`, `plan`,",
        ),
        (
            0,
            ["TS-002", "enter: draw 1", "entr: draw 1"],
            "entr.csv:5: column effect: ability 1: at \"entr\": unknown trigger (expected `event`, `arts`, `act`, `static`, `enter`,",
        ),
        (
            0,
            ["TS-003", "act[self_action]:", "act[self_action:"],
            "bracket.csv:6: column effect: ability 1: at \":\": missing `]` after the cost (expected `]`)",
        ),
        (
            1,
            ["FF-007", "dispatched: draw 1", "dispatched: darw 1"],
            "darw.csv:11: column effect: ability 1: at \"darw\": unknown effect (expected `draw`, `draw_to`, `remove`,",
        ),
        (
            1,
            ["FF-004", "attacking:", "atack:"],
            "entr.csv:8: column effect: ability 1: at \"atack\": unknown trigger (expected `main`, `reaction`, `active`,",
        ),
        (
            1,
            ["FF-017", "reaction[exhaust]:", "reaction[exhaust:"],
            "bracket.csv:21: column effect: ability 1: at \":\": missing `]` after the cost (expected `]`)",
        ),
        (
            2,
            ["TM-002", "flip: discard enemy 1", "flip: discrd enemy 1"],
            "darw.csv:7: column effect: ability 1: at \"discrd\": unknown effect (expected `draw`, `draw_to`, `mill`, `discard`,",
        ),
        (
            2,
            ["TM-001", "flip:", "flpi:"],
            "entr.csv:6: column effect: ability 1: at \"flpi\": unknown trigger (expected `play`, `flip`,",
        ),
        (
            2,
            ["TM-002", "flip:", "flip[once:"],
            "bracket.csv:7: column effect: ability 1: at \":\": missing `]` after the cost (expected `]`)",
        ),
    ];
    for (game, edit, want) in cases {
        let name = want.split(':').next().unwrap();
        let o = validate_cards_with(&d, game, name, edit);
        refused(&o, want);
        let e = stderr(&o);
        let likely = match edit[2] {
            t if t.contains("darw") => "; did you mean \"draw\"?)",
            t if t.contains("discrd") => "; did you mean \"discard\"?)",
            t if t.contains("entr:") => "; did you mean \"enter\"?)",
            t if t.contains("atack") => "; did you mean \"attack\"?)",
            t if t.contains("flpi") => "; did you mean \"flip\"?)",
            // A missing bracket has no likely word: `:` is no misspelt `]`.
            _ => "(expected `]`)\n",
        };
        assert!(
            e.contains(likely),
            "{}: expected \"{likely}\" in: {e}",
            GAMES[game].0
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // A Fire Force Life trigger cell is named as the column `trigger` (it has one ability).
    let o = validate_cards_with(&d, 1, "trigger.csv", ["FF-001", ",,,draw 1", ",,,darw 1"]);
    refused(
        &o,
        "trigger.csv:5: column trigger: at \"darw\": unknown effect (expected `draw`,",
    );
    assert!(
        stderr(&o).contains("did you mean \"draw\"?"),
        "{}",
        stderr(&o)
    );
}

/// Found by hand while fuzzing the card language (the card-text targets of `fuzz` now nest texts
/// too): a card text nested 100,000 deep (`may (may (…`, `if not not …`, `if ((…`) overflowed
/// the parser's stack and aborted the process; the parser now stops at 16 levels, and says so.
#[test]
fn deeply_nested_card_text_is_refused_without_overflowing_the_stack() {
    let d = tmpdir("card-nesting");
    let n = 100_000;
    for (game, &(name, _, head)) in GAMES.iter().enumerate() {
        for body in [
            format!("{}draw 1{}", "may (".repeat(n), ")".repeat(n)),
            format!("{}draw 1", "may ".repeat(n)),
            format!("if {}x>1 then draw 1", "not ".repeat(n)),
            format!("if {}x>1{} then draw 1", "(".repeat(n), ")".repeat(n)),
            format!("choose ({}draw 1) or (draw 1)", "if x>1 then ".repeat(n)),
        ] {
            let o = validate_effect(&d, game, &format!("{head}: {body}"));
            refused(&o, "column effect: ability 1: at \"");
            let e = stderr(&o);
            assert!(
                e.contains("nested too deeply: at most 16 levels of `if`, `choose`, `may`, `later`, `not` and parentheses"),
                "{name}: {e}"
            );
        }
    }
}

/// Found by `fuzz::fuzz_*_card_text`'s glued-word mutation: an unknown word of millions of
/// letters was quoted whole in the message (and, found by hand then, measured against every
/// expected word for a "did you mean": 12 s for a word of 5 MB); it is now quoted by its start
/// and length, and words whose lengths differ by more than a suggestion allows are not measured.
#[test]
fn a_card_text_word_megabytes_long_is_quoted_by_its_start() {
    let d = tmpdir("card-long-word");
    let long = "draw".repeat(1_000_000);
    for (game, &(name, _, head)) in GAMES.iter().enumerate() {
        for text in [
            format!("{head}: {long} 1"),
            format!("{long}: draw 1"),
            format!("{head}: draw 1 {long}"),
            format!("{head}: draw 1{long}"),
            format!("{head}: draw {}", "9".repeat(4_000_000)),
        ] {
            let o = validate_effect(&d, game, &text);
            refused(&o, "column effect: ");
            let e = stderr(&o);
            assert!(e.contains(" characters)"), "{name}: {e:.300}");
            assert!(e.len() < 1000, "{name}: {} bytes: {e:.300}", e.len());
        }
    }
}

/// A line a megabyte long in a Trails scenario, a card file's header or a game record's action
/// is quoted by its start and length, as card text is (above): a key, a value, a mark, a section
/// header or an action was copied whole into the message — a megabyte of standard error for a
/// one-line reason.
#[test]
fn a_line_megabytes_long_is_quoted_by_its_start_everywhere() {
    let d = tmpdir("long-lines");
    let big = "A".repeat(1_000_000);
    let scenario = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/combat_overkill.scn"),
    )
    .unwrap();
    // (file, the line after which the long line goes, the long line with `BIG`, exit code, reason)
    let cases = [
        ("key", "step: propose", "BIG: 1", 2, "unknown key"),
        ("value", "step: propose", "step: BIG", 2, "unknown step"),
        (
            "seat",
            "step: propose",
            "initiative: BIG",
            2,
            "is not a player",
        ),
        ("line", "step: propose", "BIG", 2, "expected `key: value`"),
        (
            "header",
            "step: propose",
            "[BIG",
            2,
            "malformed section header",
        ),
        ("pkey", "[P1]", "BIG: 1", 2, "unknown key"),
        (
            "mark",
            "[P1]",
            "field: Police Detective (BIG)",
            2,
            "unknown mark",
        ),
        (
            "paren",
            "[P1]",
            "field: Police Detective (BIG",
            2,
            "missing `)`",
        ),
        ("action", "[actions]", "BIG", 1, "is illegal"),
    ];
    for (name, after, line, code, want) in cases {
        let line = line.replace("BIG", &big);
        let text = scenario.replacen(after, &format!("{after}\n{line}"), 1);
        let file = write(&d, &format!("{name}.scn"), text);
        let o = tcgsim(&["scenario", &file]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{file}: {e:.300}");
        assert!(e.contains(want), "{file}: {e:.300}");
        assert!(e.contains(" characters)"), "{file}: {e:.300}");
        assert!(e.len() < 2000, "{file}: {} bytes: {e:.300}", e.len());
    }
    // A card file whose header is one long line.
    let cards = write(&d, "cards.csv", format!("id,name\n{big}"));
    let cards_big = write(&d, "cards-big.csv", &big);
    for c in [&cards, &cards_big] {
        let o = tcgsim(&["validate", "--game", "trails", "--cards", c, DECKS[0]]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e:.300}");
        assert!(e.len() < 2000, "{c}: {} bytes: {e:.300}", e.len());
    }
    // A game record whose action is one long line.
    let out = d.join("game");
    let o = tcgsim(&[
        "play",
        DECKS[0],
        DECKS[1],
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record = std::fs::read_to_string(out.join("record.jsonl")).unwrap();
    let edited = record.replacen(
        "\"actions\":[\"keep\"",
        &format!("\"actions\":[\"{big}\""),
        1,
    );
    assert_ne!(edited, record);
    let o = tcgsim(&["replay", &write(&d, "record.jsonl", edited)]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e:.300}");
    assert!(e.contains("is not a legal action"), "{e:.300}");
    assert!(e.len() < 2000, "{} bytes: {e:.300}", e.len());
}

/// Found by `fuzz::fuzz_tmnt_card_text`: TMNT's bare noun filters (`all own cards character fire
/// character`) were kept in the order read, but written back nouns first (`characters/characters
/// attr=fire`), which read back in another order: a text's canonical form read differently. Nouns
/// as filters are now alternatives in one order, each once; nouns as filters of another noun are
/// written as bare words.
#[test]
fn card_sets_with_nouns_as_filters_write_back_as_they_read() {
    use tcgsim::core::lang;
    use tcgsim::games::tmnt::dsl::VOCAB;
    for (text, canonical) in [
        (
            "static: power +2 all own cards character fire character",
            "static: power all own characters attr=fire +2",
        ),
        (
            "static: power +2 all own cards fire attack character",
            "static: power all own attacks/characters attr=fire +2",
        ),
        (
            "static: power +2 all own characters fire attack item",
            "static: power all own characters attack item attr=fire +2",
        ),
    ] {
        let tree = lang::parse(&VOCAB, text).unwrap();
        let canon = lang::canonical(&VOCAB, &tree);
        assert_eq!(canon, canonical, "{text}");
        assert_eq!(lang::parse(&VOCAB, &canon).unwrap(), tree, "{text}");
    }
}

/// A Fire Force or TMNT scenario whose expectation has a value it can never take (`winner: P3`,
/// `turn: soon`, a megabyte-long `winner`) is bad input, as in Trails: exit 2, the file and the
/// line, the value quoted by its start when long. It was a failed expectation (exit 1) that
/// echoed the value twice.
#[test]
fn a_malformed_expectation_is_bad_input_in_every_game() {
    let d = tmpdir("bad-expect");
    let big = "A".repeat(1_000_000);
    for (game, scn) in [
        ("ff", "tests/scenarios/ff_bat13_no_block_after_leave.scn"),
        ("tmnt", "tests/scenarios/tmnt_adj1_draw_up_to_five.scn"),
    ] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // The copy is read from another folder: its card file by its absolute path.
        let text = std::fs::read_to_string(root.join(scn)).unwrap().replacen(
            "cards: ../data/",
            &format!("cards: {}/", root.join("tests/data").display()),
            1,
        );
        let line = text.lines().position(|l| l == "[expect]").unwrap() + 2;
        for (name, bad, want) in [
            (
                "seat",
                "winner: P3".to_string(),
                "is not one of P1, P2, none, draw",
            ),
            ("turn", "turn: soon".to_string(), "is not a whole number"),
            ("long", format!("winner: {big}"), " characters)"),
        ] {
            let file = write(
                &d,
                &format!("{game}-{name}.scn"),
                text.replacen("[expect]\n", &format!("[expect]\n{bad}\n"), 1),
            );
            let o = tcgsim(&["scenario", &file]);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{file}: {e:.300}");
            assert!(e.contains(&format!("{file}:{line}")), "{file}: {e:.300}");
            assert!(e.contains(want), "{file}: {e:.300}");
            assert!(e.len() < 2000, "{file}: {} bytes", e.len());
        }
    }
}

/// An expectation that no game can meet — a value outside the game's own set (a TMNT `reason:
/// life`: its games end only by a deck-out; a `step` of the other game) or a misspelt card name in
/// a key that names cards (`hand`, `blocks`, `attack zone`, `units`, `flame`, …) — is bad input
/// when the file is read: exit 2, the file and line, the name quoted, and the nearest card's
/// name. Before, each ran and failed as a wrong expectation (exit 1). A key the game does not
/// know is refused before the game is played too, and a misspelt name in a deck line names the
/// nearest card.
#[test]
fn an_expectation_no_game_can_meet_is_bad_input() {
    let d = tmpdir("impossible-expect");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Each game: its scenario, and bad expectation lines with what the error says.
    type Cases<'a> = [(&'a str, &'a str, &'a [(&'a str, &'a str)]); 2];
    let cases: Cases = [
        (
            "tmnt",
            "tests/scenarios/tmnt_adj1_draw_up_to_five.scn",
            &[
                ("reason: life", "reason: \"life\" is not one of deck, none"),
                ("step: main", "step: \"main\" is not one of discard, set,"),
                (
                    "hand P1: Drift Leaf, Drift Leef",
                    "hand P1: unknown card \"Drift Leef\"; did you mean \"Drift Leaf\"?",
                ),
                (
                    "blocks P2: Drift Leaf 2 | (down) Drift Lef | empty",
                    "blocks P2: unknown card \"Drift Lef\"; did you mean \"Drift Leaf\"?",
                ),
                (
                    "attack zone P1: Vine Lash 2, Flare Kik 3",
                    "attack zone P1: unknown card \"Flare Kik\"; did you mean \"Flare Kick\"?",
                ),
                (
                    "known deck P2 by P2: Zzzzz",
                    "known deck P2 by P2: unknown card \"Zzzzz\"",
                ),
            ],
        ),
        (
            "ff",
            "tests/scenarios/ff_bat13_no_block_after_leave.scn",
            &[
                (
                    "reason: fire",
                    "reason: \"fire\" is not one of life, deck, none",
                ),
                ("step: set", "step: \"set\" is not one of choose, flame,"),
                (
                    "units P2: Wal 5000",
                    "units P2: unknown card \"Wal\"; did you mean \"Wall\"?",
                ),
                (
                    "hand P1: Filer, Torch",
                    "hand P1: unknown card \"Filer\"; did you mean \"Filler\"?",
                ),
                (
                    "flame P1: Plain Flame exhausted given to Bouncr#1",
                    "flame P1: unknown card \"Bouncr\"; did you mean \"Bouncer\"?",
                ),
                (
                    "deck top P1: Tourch",
                    "deck top P1: unknown card \"Tourch\"",
                ),
            ],
        ),
    ];
    for (game, scn, bad) in cases {
        // The copy is read from another folder: its card file by its absolute path.
        let text = std::fs::read_to_string(root.join(scn)).unwrap().replacen(
            "cards: ../data/",
            &format!("cards: {}/", root.join("tests/data").display()),
            1,
        );
        let line = text.lines().position(|l| l == "[expect]").unwrap() + 2;
        for (k, (bad, want)) in bad.iter().enumerate() {
            let file = write(
                &d,
                &format!("{game}-{k}.scn"),
                text.replacen("[expect]\n", &format!("[expect]\n{bad}\n"), 1),
            );
            refused(
                &tcgsim(&["scenario", &file]),
                &format!("{file}:{line}: {want}"),
            );
        }
        // A key the game does not know is refused before the game is played, even after an
        // illegal action (which stops the checking of the expectations: before, exit 1).
        let file = write(
            &d,
            &format!("{game}-key.scn"),
            text.replacen("[expect]\n", "fly away\n[expect]\nhand P3: none\n", 1),
        );
        refused(
            &tcgsim(&["scenario", &file]),
            &format!("{file}:{}: unknown expectation \"hand P3\"", line + 1),
        );
        // A deck line: the nearest card named too.
        let (n, deck) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.starts_with("P2: "))
            .unwrap();
        let misspelt = deck
            .replacen("Drift Leaf", "Drift Leef", 1)
            .replacen("Wall", "Wal", 1);
        let file = write(
            &d,
            &format!("{game}-deck.scn"),
            text.replacen(deck, &misspelt, 1),
        );
        refused(
            &tcgsim(&["scenario", &file]),
            &format!("{file}:{}: ", n + 1),
        );
        refused(&tcgsim(&["scenario", &file]), "; did you mean \"");
    }
}

/// `--checkpoint FILE` where FILE is a file, not a folder: the error names the flag and says why
/// (exit 2), for every command that keeps a checkpoint; it was `FILE: File exists (os error 17)`
/// (or, in `tune`, named `--out`).
#[test]
fn a_checkpoint_that_is_a_file_is_named_as_the_flag() {
    let d = tmpdir("checkpoint-file");
    let file = write(&d, "not-a-folder", "x");
    let out = d.join("out").display().to_string();
    let deck = ["decks/trails/aggro.deck", "decks/trails/control.deck"];
    let runs: [Vec<&str>; 4] = [
        vec!["matrix", deck[0], deck[1], "--games", "2"],
        vec![
            "duel", deck[0], deck[1], "--agent", "random", "--agent", "random", "--games", "2",
        ],
        vec!["pool", "--games", "300"],
        vec!["tune", deck[0], "--rounds", "1"],
    ];
    for mut args in runs {
        args.extend(["--checkpoint", &file, "--out", &out]);
        let o = tcgsim(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains(&format!("--checkpoint {file}: a file of that name exists")),
            "{args:?}: {e}"
        );
    }
}
