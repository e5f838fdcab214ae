//! The layer rule (issue 30), from the ground up: `core` and `stats` → `games` and `agents` →
//! `sim` (the runners and their result files) → `report` → `cli`. A top-level module of `src/`
//! may import only from itself and from the layers below it — not upward, and not sideways (two
//! modules of one layer stay independent, so no import cycle can form between modules). Unit-test
//! modules (`#[cfg(test)]`, at the end of a file) are not the library's structure and are not
//! read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module and its layer.
const LAYERS: [(&str, u8); 7] = [
    ("core", 0),
    ("stats", 0),
    ("games", 1),
    ("agents", 1),
    ("sim", 2),
    ("report", 3),
    ("cli", 4),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its unit tests and without comments (line comments and doc
/// comments; the crate writes no block comments).
fn code_of(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a piece of code names through `crate::` (`crate::sim::…` and
/// `crate::{sim, report::x}` alike).
fn crate_modules(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Each item of the group begins a path: the first name after `{` or `,`.
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

/// For each top-level module, the modules its files import, with one file that does.
fn imports(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let Some(top) = rel.components().next() else {
            continue;
        };
        let top = top
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if layer(&top).is_none() {
            continue; // lib.rs, main.rs: the crate's roots
        }
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        for m in crate_modules(&code) {
            if m != top && layer(&m).is_some() {
                out.entry(top.clone())
                    .or_default()
                    .entry(m)
                    .or_insert_with(|| rel.display().to_string());
            }
        }
    }
    out
}

/// Every import that points up or sideways, as "FILE: FROM (layer) imports TO (layer)".
fn violations(src: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    for (from, to) in imports(src) {
        for (m, file) in to {
            let (a, b) = (layer(&from).unwrap(), layer(&m).unwrap());
            if b >= a {
                bad.push(format!(
                    "{file}: {from} (layer {a}) imports {m} (layer {b})"
                ));
            }
        }
    }
    bad
}

#[test]
fn no_module_imports_a_layer_above_or_beside_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let map = imports(&src);
    for (from, to) in &map {
        eprintln!(
            "{from} imports {}",
            to.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let bad = violations(&src);
    assert!(
        bad.is_empty(),
        "imports against the layer rule:\n{}",
        bad.join("\n")
    );
}

/// The reader of imports sees what it must: hand-written code with known answers.
#[test]
fn the_layer_check_reads_paths_groups_and_skips_comments_and_tests() {
    let code = code_of(
        "use crate::core::Seat;\nuse crate::{sim::x, report};\n// crate::cli::no\nfn f() { crate::stats::y(); }\n#[cfg(test)]\nmod tests { use crate::cli::z; }\n",
    );
    let got: Vec<String> = crate_modules(&code).into_iter().collect();
    assert_eq!(got, ["core", "report", "sim", "stats"]);
}
