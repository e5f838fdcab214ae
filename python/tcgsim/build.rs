//! Bundles the repository's deck files (`decks/<game>/*`) into the module, so that an installed
//! package plays the bundled decks by name (`decks=("aggro", "control")`) from any folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../decks");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut out = String::from("/// Every bundled deck: (game folder, deck name, text).\n");
    out.push_str("pub const BUNDLED_DECKS: &[(&str, &str, &str)] = &[\n");
    let mut games: Vec<_> = std::fs::read_dir(&root)
        .expect("the repository's decks folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    games.sort();
    for g in games {
        println!("cargo:rerun-if-changed={}", g.display());
        let mut files: Vec<_> = std::fs::read_dir(&g)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "deck"))
            .collect();
        files.sort();
        for f in files {
            writeln!(
                out,
                "    ({:?}, {:?}, include_str!({:?})),",
                g.file_name().unwrap().to_str().unwrap(),
                f.file_stem().unwrap().to_str().unwrap(),
                f.canonicalize().unwrap().display().to_string()
            )
            .unwrap();
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled.rs");
    std::fs::write(dest, out).unwrap();
}
