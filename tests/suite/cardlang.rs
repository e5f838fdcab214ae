//! The card language (`docs/cards.md`, "The card language"): every card of every bundled pool and
//! designer set (`tests/data/designer/`) reads in the shared grammar and writes back in the
//! canonical form, which reads back into the same abilities.

use std::path::Path;
use tcgsim::core::lang::{self, vocab::Vocab};

/// Every effect cell (and, for Fire Force, trigger cell) of a card file: (line, column, text).
fn cells(path: &str, columns: &[&str]) -> Vec<(usize, String, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let body: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with('#') {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut r = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let line = rec.position().unwrap().line() as usize;
        for c in columns {
            let k = header.iter().position(|h| h == c).unwrap();
            out.push((line, c.to_string(), rec[k].to_string()));
        }
    }
    out
}

/// Parses every cell of `path` with `v`, and checks the canonical round trip; returns how many
/// cells held text.
fn round_trip(v: &Vocab, path: &str, columns: &[&str], prefix: &str) -> usize {
    let mut n = 0;
    for (line, col, text) in cells(path, columns) {
        if text.trim().is_empty() {
            continue;
        }
        let text = if col == "trigger" {
            format!("{prefix}{text}")
        } else {
            text
        };
        let tree = lang::parse(v, &text)
            .unwrap_or_else(|e| panic!("{path}:{line}: column {col}: {e}\n  {text}"));
        let canon = lang::canonical(v, &tree);
        let again = lang::parse(v, &canon).unwrap_or_else(|e| {
            panic!("{path}:{line}: the canonical form does not read: {e}\n  {canon}")
        });
        assert_eq!(
            again, tree,
            "{path}:{line}: the canonical form reads differently:\n  {text}\n  {canon}"
        );
        assert_eq!(
            lang::canonical(v, &again),
            canon,
            "{path}:{line}: canonical form not stable"
        );
        let en = lang::english(v, &tree);
        assert_eq!(en.len(), tree.len(), "{path}:{line}");
        assert!(
            en.iter().all(|s| !s.contains('{') && !s.contains('}')),
            "{path}:{line}: English with a hole: {en:?}"
        );
        n += 1;
    }
    n
}

#[test]
fn every_card_of_every_pool_and_designer_set_reads_and_round_trips() {
    use tcgsim::games::{fireforce, tmnt, trails};
    let t = &trails::dsl::VOCAB;
    let f = &fireforce::dsl::VOCAB;
    let m = &tmnt::dsl::VOCAB;
    assert!(round_trip(t, "decks/trails/cards.csv", &["effect"], "") > 50);
    assert!(round_trip(t, "tests/data/designer/trails.csv", &["effect"], "") >= 58);
    assert!(
        round_trip(
            f,
            "decks/fireforce/cards.csv",
            &["effect", "trigger"],
            "life: "
        ) > 40
    );
    assert!(
        round_trip(
            f,
            "tests/data/designer/fireforce.csv",
            &["effect", "trigger"],
            "life: "
        ) >= 45
    );
    assert!(round_trip(m, "decks/tmnt/cards.csv", &["effect"], "") > 30);
    assert!(round_trip(m, "tests/data/designer/tmnt.csv", &["effect"], "") >= 45);
}
