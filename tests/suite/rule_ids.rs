//! Every rule ID of every game's rules document (`GameInfo::rules`: `docs/rules.md` for the Trails
//! TCG's `T-` IDs, `docs/toy.md` for the toy game's `X-` IDs, …) is named by at least one test that
//! runs: a scenario under `tests/` (anywhere in the file, its `#` header included: the scenario
//! runs as a whole), or a Rust test file's code outside comments: a string literal (an assertion
//! message such as "T-SETUP-2: …"), other code, or a function name that spells the ID in snake case
//! (`fn draws_four_t_setup_1()` names T-SETUP-1). An ID named only in a `//`, `///`, `//!` or
//! `/* */` comment is not tested by that comment, and a rule without a test fails this test.

use std::path::{Path, PathBuf};

/// The rule IDs of every registered game.
fn ids_in_rules() -> Vec<String> {
    let mut ids = Vec::new();
    for g in tcgsim::GAMES {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(g.rules))
            .unwrap_or_else(|_| panic!("{} exists", g.rules));
        let before = ids.len();
        for part in text.split("**").skip(1).step_by(2) {
            if part.starts_with(g.rule_prefix)
                && !part.contains(' ')
                && !ids.contains(&part.to_string())
            {
                ids.push(part.to_string());
            }
        }
        assert!(
            ids.len() > before,
            "{}: no {} rule IDs",
            g.rules,
            g.rule_prefix
        );
    }
    ids
}

/// A test file's text that runs: a scenario's whole text, a Rust file's text without comments.
struct TestText {
    path: PathBuf,
    /// The text in which an ID counts as written (`T-SETUP-1`).
    code: String,
    /// Whether function names count in snake case (`t_setup_1`): Rust files.
    rust: bool,
}

fn test_texts() -> Vec<TestText> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "rule_ids.rs") {
                // This file names IDs in its own checks of the scanner.
            } else if p.extension().is_some_and(|x| x == "scn") {
                let code = std::fs::read_to_string(&p).unwrap();
                out.push(TestText {
                    path: p,
                    code,
                    rust: false,
                });
            } else if p.extension().is_some_and(|x| x == "rs") {
                let code = strip_comments(&std::fs::read_to_string(&p).unwrap());
                out.push(TestText {
                    path: p,
                    code,
                    rust: true,
                });
            }
        }
    }
    out
}

/// Rust source without its comments (`//`, `///`, `//!`, nested `/* */`), each replaced by a
/// space: string literals (plain, byte, raw `r"…"`/`r#"…"#`) and character literals are kept
/// whole, so a `//` or `/*` inside them (a URL) is not a comment.
fn strip_comments(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied();
        match c[i] {
            '/' if at(i + 1) == Some('/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
                out.push(' ');
            }
            '/' if at(i + 1) == Some('*') => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && at(i + 1) == Some('*') {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && at(i + 1) == Some('/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            // A raw string: `r` (or `br`) not ending an identifier, hashes, a quote.
            'r' if !(i > 0
                && ident(c[i - 1])
                && !(c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
                && {
                    let mut k = i + 1;
                    while at(k) == Some('#') {
                        k += 1;
                    }
                    at(k) == Some('"')
                } =>
            {
                let mut hashes = 0;
                let mut k = i + 1;
                while c[k] == '#' {
                    hashes += 1;
                    k += 1;
                }
                k += 1; // the opening quote
                loop {
                    if k >= c.len() {
                        break;
                    }
                    if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == Some('#')) {
                        k += 1 + hashes;
                        break;
                    }
                    k += 1;
                }
                out.extend(&c[i..k.min(c.len())]);
                i = k;
            }
            '"' => {
                let mut k = i + 1;
                while k < c.len() && c[k] != '"' {
                    k += if c[k] == '\\' { 2 } else { 1 };
                }
                let end = (k + 1).min(c.len());
                out.extend(&c[i..end]);
                i = end;
            }
            // A character literal ('"', '\'', '\u{2f}'); a lifetime or label ('a) is code.
            '\'' if at(i + 1) == Some('\\') || at(i + 2) == Some('\'') => {
                let mut k = i + 1;
                if c[k] == '\\' {
                    k += 2;
                }
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                let end = (k + 1).min(c.len());
                out.extend(&c[i..end]);
                i = end;
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// Whether `text` names `id` as a whole word (T-COMBAT-1 is not named by T-COMBAT-10, nor
/// T-RES-5 by T-RES-5-2).
fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(k, _)| {
        let before = text[..k].chars().next_back();
        let next = text[k + id.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Whether a function name in `code` spells `id` in snake case as a whole word: lowercase, `-` as
/// `_` (`fn setup_t_setup_1_t_setup_2()` names T-SETUP-1 and T-SETUP-2, not T-SETUP-10, and
/// `t_res_5_2` names T-RES-5-2, not T-RES-5).
fn names_in_fn_name(code: &str, id: &str) -> bool {
    let snake = id.to_ascii_lowercase().replace('-', "_");
    let mut rest = code;
    while let Some(k) = rest.find("fn ") {
        let whole_word = rest[..k]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        rest = &rest[k + 3..];
        let name_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        if whole_word
            && name.match_indices(&snake).any(|(s, _)| {
                let before = name[..s].chars().next_back();
                let after = &name[s + snake.len()..];
                !before.is_some_and(|c| c.is_ascii_alphanumeric())
                    && !after.starts_with(|c: char| c.is_ascii_alphanumeric())
                    && !after
                        .strip_prefix('_')
                        .is_some_and(|a| a.starts_with(|c: char| c.is_ascii_digit()))
            })
        {
            return true;
        }
    }
    false
}

/// Whether a test file names `id` in text that runs.
fn named_by(t: &TestText, id: &str) -> bool {
    names(&t.code, id) || (t.rust && names_in_fn_name(&t.code, id))
}

fn rust(src: &str) -> TestText {
    TestText {
        path: PathBuf::from("x.rs"),
        code: strip_comments(src),
        rust: true,
    }
}

#[test]
fn rules_document_has_ids() {
    let ids = ids_in_rules();
    assert!(ids.len() >= 46, "only {} IDs in docs/rules.md", ids.len());
    assert!(names("x T-COMBAT-1.", "T-COMBAT-1"));
    assert!(!names("T-COMBAT-10", "T-COMBAT-1"));
    assert!(!names("T-RES-5-2", "T-RES-5"));
    assert!(names("T-RES-5-2", "T-RES-5-2"));
}

#[test]
fn the_scanner_counts_code_strings_and_fn_names_not_comments() {
    let id = "T-SETUP-1";
    // Comments do not name a rule.
    for src in [
        "// T-SETUP-1\nfn f() {}",
        "/// T-SETUP-1\nfn f() {}",
        "//! T-SETUP-1\nfn f() {}",
        "fn f() {} /* T-SETUP-1 */",
        "/* a /* nested */ T-SETUP-1 */ fn f() {}",
        "/* t_setup_1 */ fn f() {}",
        "// fn draws_t_setup_1() {}",
        "fn f() { let u = \"http://x\"; } // T-SETUP-1",
        "fn f() { let u = r#\"a\"b\"#; } // T-SETUP-1",
        "fn f() { let q = '\"'; } // T-SETUP-1 \"",
        "fn f<'a>(x: &'a str) {} // T-SETUP-1",
        "fn draws_t_setup_10() {}",
        "fn draws_at_setup_1() {}",
        "fn f() { T-SETUP-10 }",
    ] {
        assert!(!named_by(&rust(src), id), "{src:?} names {id}");
    }
    // Strings, code and function names do.
    for src in [
        "fn f() { assert!(ok, \"T-SETUP-1: four cards\"); }",
        "fn f() { let u = \"http://x T-SETUP-1\"; }",
        "fn f() { let u = r\"//T-SETUP-1\"; }",
        "fn f() { let u = r#\"\"// T-SETUP-1\"#; }",
        "fn f() { let s = \"a\\\"// T-SETUP-1\"; }",
        "fn f() { let q = '/'; let s = \"T-SETUP-1\"; }",
        "fn f() { check(\"T-SETUP-1\") } /* other */",
        "fn setup_draws_four_t_setup_1_t_setup_2() {}",
        "fn setup_draws_four_t_setup_2_t_setup_1() {}",
        "pub fn t_setup_1() {}",
    ] {
        assert!(named_by(&rust(src), id), "{src:?} does not name {id}");
    }
    assert!(named_by(
        &rust("fn setup_t_setup_1_t_setup_2() {}"),
        "T-SETUP-2"
    ));
    assert!(!named_by(&rust("fn res_t_res_5_2() {}"), "T-RES-5"));
    assert!(named_by(&rust("fn res_t_res_5_2() {}"), "T-RES-5-2"));
    // A scenario names a rule anywhere, its `#` header included.
    let scn = TestText {
        path: PathBuf::from("x.scn"),
        code: "# T-SETUP-1: four cards each\nturn: 1\n".into(),
        rust: false,
    };
    assert!(named_by(&scn, id));
    // A snake-case spelling counts only in a Rust function name.
    let scn = TestText {
        path: PathBuf::from("x.scn"),
        code: "# t_setup_1\n".into(),
        rust: false,
    };
    assert!(!named_by(&scn, id));
}

#[test]
fn every_rule_id_is_named_by_a_test() {
    let texts = test_texts();
    let missing: Vec<String> = ids_in_rules()
        .into_iter()
        .filter(|id| !texts.iter().any(|t| named_by(t, id)))
        .collect();
    assert!(
        missing.is_empty(),
        "{} rule IDs named by no test that runs (a comment does not count): {}",
        missing.len(),
        missing.join(", ")
    );
    // Every test file is read.
    assert!(texts.iter().any(|t| t.path.ends_with("scenarios.rs")));
}
