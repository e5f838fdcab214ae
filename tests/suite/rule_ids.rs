//! Every rule ID of every game's rules document (`GameInfo::rules`: `docs/rules.md` for the Trails
//! TCG's `T-` IDs, `docs/toy.md` for the toy game's `X-` IDs, …) is named by at least one test (a
//! Rust test under `tests/` or a scenario of `tests/scenarios/`). A rule without a test fails this
//! test.

use std::path::{Path, PathBuf};

/// The rule IDs of every registered game.
fn ids_in_rules() -> Vec<String> {
    let mut ids = Vec::new();
    for g in tcgsim::games::GAMES {
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

fn test_texts() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs" || x == "scn")
                && p.file_name().is_some_and(|n| n != "rule_ids.rs")
            {
                out.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out
}

/// Whether `text` names `id` as a whole word (T-COMBAT-1 is not named by T-COMBAT-10).
fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(k, _)| {
        let next = text[k + id.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

#[test]
fn rules_document_has_ids() {
    let ids = ids_in_rules();
    assert!(ids.len() >= 46, "only {} IDs in docs/rules.md", ids.len());
    assert!(names("x T-COMBAT-1.", "T-COMBAT-1"));
    assert!(!names("T-COMBAT-10", "T-COMBAT-1"));
}

#[test]
fn every_rule_id_is_named_by_a_test() {
    let texts = test_texts();
    let missing: Vec<String> = ids_in_rules()
        .into_iter()
        .filter(|id| !texts.iter().any(|(_, t)| names(t, id)))
        .collect();
    assert!(
        missing.is_empty(),
        "rule IDs without a test: {}",
        missing.join(", ")
    );
}
