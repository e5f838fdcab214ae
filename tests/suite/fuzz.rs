//! A seeded mutation fuzzer, one target per parser of user input. Every game's parsers, one test
//! per (game, parser) (`fuzz::tmnt::decks`): its card files (seeded with the bundled pool, the
//! designer set and the other card files of `tests/data/` it reads), its decks, its scenarios
//! (parsed, then played with their actions and expectations), its action notation, and its card
//! language; then agent specs, checkpoints and merge inputs. Each target mutates valid seed inputs
//! (bytes flipped, inserted or deleted; lines duplicated, dropped or swapped; tokens that broke
//! parsers before — huge or negative numbers, bad UTF-8, separators, the card language's symbols
//! and words) and checks that the parser never panics, that an error names the input's file (an
//! action text, which has no file, must read as a legal action or not at all) and that no input
//! takes over 5 s (loose for a loaded machine: a parser that loops or is quadratic). The card
//! language's grammar is also fuzzed on its own, with each game's words, on the card texts of that
//! game's files mutated word by word: what reads writes back in the canonical form that reads into
//! the same tree, and an error says where it is. A failing input is written to
//! `target/fuzz-failures/` and its path printed.
//!
//! `TCGSIM_FUZZ_CASES=N cargo test --profile ci --test suite fuzz:: -- --nocapture` runs N cases per
//! target (default 2,000, a few seconds in all) and prints each target's cases and time.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use tcgsim::core::lang;
use tcgsim::core::lang::vocab::Vocab;
use tcgsim::sim::checkpoint::{line_of, parse_checkpoint, CHUNK_HEADER};
use tcgsim::sim::files::lengths::write as lengths_csv;
use tcgsim::sim::files::matchups::write as matchups_csv;
use tcgsim::sim::files::run_json::RunInfo;
use tcgsim::{merge_matchups, rng_from_seed, AgentSpec, GameDef, GameRng, MatrixPlan, Part, Task};

use rand::Rng;

per_game!(card_files, card_text, decks, scenarios, action_texts);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> u64 {
    std::env::var("TCGSIM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// Tokens that broke parsers, or might.
const TOKENS: &[&[u8]] = &[
    b"-1",
    b"0",
    b"300",
    b"70000",
    b"4294967296",
    b"18446744073709551615",
    b"100000000",
    b"99999999999999999999999999",
    b"\xff",
    b"\xe3\x81",
    b",",
    b";",
    b"\n",
    b"\r\n",
    b"#",
    b"(",
    b")",
    b"[",
    b"]",
    b":",
    b"=",
    b"/",
    b" / ",
    b"x",
    b"50x ",
    b"\"",
    b"[P1]\n",
    b"[P2]\n",
    b"[actions]\n",
    b"[expect]\n",
    b"nan",
    b"inf",
    b"-50",
    // The card language (`docs/cards.md`): its symbols, its grammar's words, and numbers at the
    // edges of its ranges (a number is at most 7 characters; amounts are `i16`).
    b"|",
    b" | ",
    b"; ",
    b": ",
    b"'",
    b"<=",
    b">=",
    b"!=",
    b"<",
    b">",
    b"*",
    b" if ",
    b" then ",
    b" else ",
    b" choose ",
    b" or ",
    b" and ",
    b" not ",
    b" may ",
    b" later ",
    b" per ",
    b" max ",
    b" target ",
    b" all ",
    b" up_to ",
    b" self ",
    b" that ",
    b" x ",
    b" count ",
    b" any ",
    b" no ",
    b" in ",
    b" by ",
    b" to ",
    b" own ",
    b" enemy ",
    b" instead ",
    b"[once]",
    b"static: ",
    b" name=",
    b"+1/+0",
    b"+32767",
    b"-32768",
    b"9999999",
    b"+999999",
    b"12345678",
];

/// One mutation of `seed`, 1 to 4 edits.
fn mutate(seed: &[u8], rng: &mut GameRng) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let at = if v.is_empty() {
            0
        } else {
            rng.gen_range(0..=v.len())
        };
        match rng.gen_range(0..8) {
            0 if !v.is_empty() => {
                let k = rng.gen_range(0..v.len());
                v[k] ^= 1 << rng.gen_range(0..8);
            }
            1 => {
                let t = TOKENS[rng.gen_range(0..TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.gen_range(1..16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 => v.truncate(at),
            4 | 5 => {
                // Line edits: duplicate, drop or swap whole lines.
                let mut lines: Vec<Vec<u8>> =
                    v.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                let (i, j) = (rng.gen_range(0..n), rng.gen_range(0..n));
                match rng.gen_range(0..3) {
                    0 => {
                        let l = lines[i].clone();
                        lines.insert(j, l);
                    }
                    1 if n > 1 => {
                        lines.remove(i);
                    }
                    _ => lines.swap(i, j),
                }
                v = lines.join(&b'\n');
            }
            6 => {
                // Replace a number with a token.
                if let Some(k) = (at..v.len()).find(|&k| v[k].is_ascii_digit()) {
                    let end = (k..v.len())
                        .find(|&e| !v[e].is_ascii_digit())
                        .unwrap_or(v.len());
                    let t = TOKENS[rng.gen_range(0..8)];
                    v.splice(k..end, t.iter().copied());
                }
            }
            _ => {
                let b = rng.gen::<u8>();
                v.insert(at, b);
            }
        }
    }
    v
}

thread_local! {
    /// Whether a panic on this thread is silent: a fuzz target's, caught and reported by [`fuzz`].
    static SILENT: Cell<bool> = const { Cell::new(false) };
}

/// Silences the panics of this thread (`on`) or lets them speak again. The panic hook is global and
/// the suite's other tests share the process, so the hook, installed once, stays the previous one
/// for every thread that is not silenced.
fn silence_panics(on: bool) {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !SILENT.try_with(Cell::get).unwrap_or(false) {
                previous(info)
            }
        }));
    });
    SILENT.with(|s| s.set(on));
}

/// The longest one fuzz case may take.
const CASE_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs `target` on `cases()` mutations of the seeds; a panic, an error that does not start with
/// the file's name, or a case over [`CASE_TIME_LIMIT`] fails the test with the input saved for
/// replay.
fn fuzz(name: &str, seeds: &[Vec<u8>], target: impl FnMut(&[u8]) -> Result<(), String>) {
    fuzz_named(name, &[name], seeds, target)
}

/// [`fuzz`], where an error may start with any of `names` (a merge names the file at fault).
fn fuzz_named(
    name: &str,
    names: &[&str],
    seeds: &[Vec<u8>],
    target: impl FnMut(&[u8]) -> Result<(), String>,
) {
    fuzz_with(name, names, seeds, mutate, target)
}

/// [`fuzz_named`] with its own mutator.
fn fuzz_with(
    name: &str,
    names: &[&str],
    seeds: &[Vec<u8>],
    mut mutate: impl FnMut(&[u8], &mut GameRng) -> Vec<u8>,
    mut target: impl FnMut(&[u8]) -> Result<(), String>,
) {
    let n = cases();
    let mut rng = rng_from_seed(0xF022 ^ name.len() as u64);
    let start = std::time::Instant::now();
    let mut rejected = 0u64;
    silence_panics(true);
    for k in 0..n {
        let seed = &seeds[k as usize % seeds.len()];
        let input = if k < seeds.len() as u64 {
            seed.clone()
        } else {
            mutate(seed, &mut rng)
        };
        let case_start = std::time::Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let took = case_start.elapsed();
        let problem = match r {
            // Bounded time: one input is read (and a scenario played) in well under a second; the
            // bound is loose for a loaded machine, and catches a parser that loops or is quadratic.
            _ if took > CASE_TIME_LIMIT => Some(format!("it took {:.1} s", took.as_secs_f64())),
            Ok(Ok(())) => None,
            Ok(Err(e)) if names.iter().any(|n| e.starts_with(n)) => {
                rejected += 1;
                None
            }
            Ok(Err(e)) => Some(format!("the error does not name the file: {e}")),
            Err(p) => Some(format!(
                "panic: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        };
        if let Some(problem) = problem {
            silence_panics(false);
            let dir = root().join("target/fuzz-failures");
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{}-{k}", name.replace('/', "_")));
            std::fs::write(&path, &input).unwrap();
            panic!(
                "{name}, case {k}: {problem}; input saved in {}",
                path.display()
            );
        }
    }
    silence_panics(false);
    eprintln!(
        "fuzz {name}: {n} cases ({rejected} rejected with an error) in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap()
}

fn text(bytes: &[u8], name: &str) -> Result<String, String> {
    tcgsim::core::input::text_of(bytes.to_vec(), name).map_err(|e| e.to_string())
}

/// A card file's rows as card files of one card each (its comment lines, its header and the row):
/// a designer set, whole, is refused at its first card an engine does not play yet, so each of
/// its cards is also a seed of its own.
fn one_card_each(path: &str) -> Vec<Vec<u8>> {
    let text = String::from_utf8(read(path)).unwrap();
    let mut lines = text.lines();
    let mut head = String::new();
    for l in lines.by_ref() {
        head += l;
        head += "\n";
        if !l.starts_with('#') {
            break;
        }
    }
    lines
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| format!("{head}{l}\n").into_bytes())
        .collect()
}

/// A game's card files as seeds: the bundled pool, the designer set and each designer card alone
/// (where the game has one), and the other card files of `tests/data/` the game recognises.
fn card_file_seeds<G: GameDef>() -> Vec<Vec<u8>> {
    let info = G::INFO;
    let mut seeds = vec![read(&format!("{}/{}", info.deck_dir, info.card_file))];
    let designer = format!("tests/data/designer/{}.csv", info.name);
    if root().join(&designer).is_file() {
        seeds.push(read(&designer));
        seeds.extend(one_card_each(&designer));
    }
    seeds.extend(data_card_files::<G>().iter().map(|p| read(p)));
    seeds
}

/// The card files of `tests/data/` (`*.csv` and `*/cards.csv`) that `G` recognises as its own,
/// in name order, relative to the repository root.
fn data_card_files<G: GameDef>() -> Vec<String> {
    let data = root().join("tests/data");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .flat_map(|p| {
            if p.is_dir() {
                vec![p.join("cards.csv")]
            } else {
                vec![p]
            }
        })
        .filter(|p| p.extension().is_some_and(|x| x == "csv") && p.is_file())
        .filter(|p| G::is_card_file(&std::fs::read_to_string(p).unwrap_or_default()))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect()
}

/// Every game's card files: never a panic; an error names the file.
fn card_files<G: GameDef>() {
    fuzz_named(
        &format!("{} cards.csv", G::INFO.name),
        &["cards.csv"],
        &card_file_seeds::<G>(),
        |b| {
            let t = text(b, "cards.csv")?;
            G::parse_cards(&t, "cards.csv").map_err(|e| e.to_string())?;
            Ok(())
        },
    );
}

/// The card-text cells of a card file, read as the card language reads them: each `effect` cell,
/// and each Fire Force `trigger` cell as the ability `life: TEXT` (as its parser reads it).
fn text_cells(path: &str) -> Vec<Vec<u8>> {
    let text = String::from_utf8(read(path)).unwrap();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let body = body.join("\n");
    let mut r = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        for (k, cell) in rec.iter().enumerate() {
            match header[k].as_str() {
                "effect" if !cell.trim().is_empty() => out.push(cell.as_bytes().to_vec()),
                "trigger" if !cell.trim().is_empty() => {
                    out.push(format!("life: {cell}").into_bytes())
                }
                _ => {}
            }
        }
    }
    out
}

/// Card text as pieces to mutate: words and numbers (a sign stays with its number), names in
/// quotes, and runs of symbols (`<=`, `]:`).
fn pieces(text: &[u8]) -> Vec<Vec<u8>> {
    let word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+');
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if word(c) {
            while i < text.len() && word(text[i]) {
                i += 1;
            }
        } else if c == b'\'' {
            i += 1;
            while i < text.len() && text[i] != b'\'' {
                i += 1;
            }
            i = (i + 1).min(text.len());
        } else {
            while i < text.len()
                && !word(text[i])
                && !text[i].is_ascii_whitespace()
                && text[i] != b'\''
            {
                i += 1;
            }
        }
        out.push(text[start..i].to_vec());
    }
    out
}

/// The words worth writing in a game's card text: the grammar's own, every word of the game's
/// vocabulary (canonical and older spellings), and every piece of the seeds.
fn card_words(v: &Vocab, seeds: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut w: Vec<String> = [
        "if",
        "then",
        "else",
        "choose",
        "or",
        "and",
        "not",
        "may",
        "later",
        "per",
        "max",
        "target",
        "all",
        "up_to",
        "self",
        "that",
        "x",
        "count",
        "any",
        "no",
        "in",
        "by",
        "to",
        "top",
        "bottom",
        "once",
        "instead",
        "other",
        "named",
        "same_name",
        "those",
        "name",
        "not_has",
        "(",
        ")",
        "[",
        "]",
        ":",
        ";",
        "|",
        ",",
        "/",
        "=",
        "<",
        ">",
        "<=",
        ">=",
        "!=",
        "*",
        "'",
        "0",
        "1",
        "40",
        "41",
        "+1",
        "-1",
        "32000",
        "-32000",
        "+32001",
        "9999999",
    ]
    .map(String::from)
    .to_vec();
    let mut words = |t: &[lang::vocab::Word]| {
        for x in t {
            w.push(x.name.into());
            w.extend(x.aliases.iter().map(|a| a.to_string()));
        }
    };
    words(&v.heads.iter().map(|h| h.word).collect::<Vec<_>>());
    words(&v.events.iter().map(|e| e.word).collect::<Vec<_>>());
    words(&v.costs.iter().map(|c| c.word).collect::<Vec<_>>());
    for t in [
        v.phases,
        v.zones,
        v.placements,
        v.resources,
        v.stats,
        v.flags,
        v.keywords,
        v.quantities,
        v.conds,
        v.durations,
        v.prohibitions,
        v.roles,
    ] {
        words(t);
    }
    w.extend(v.nouns.iter().flat_map(|n| [n.one.into(), n.many.into()]));
    w.extend(v.verbs.iter().chain(v.statics).map(|x| x.name.into()));
    w.extend(v.keyword_keys.iter().map(|k| k.to_string()));
    w.extend(v.bare_traits.iter().map(|k| k.to_string()));
    w.push(v.trait_key.into());
    for (old, new) in v.head_aliases {
        w.extend(old.split(' ').chain(new.split(' ')).map(String::from));
    }
    let mut out: Vec<Vec<u8>> = w
        .into_iter()
        .filter(|x| !x.is_empty())
        .map(String::into_bytes)
        .collect();
    out.extend(seeds.iter().flat_map(|s| pieces(s)));
    out.sort();
    out.dedup();
    out
}

/// Card text that opens a nested statement or condition.
const NESTING: &[&[u8]] = &[
    b"not",
    b"(",
    b"may",
    b"may (",
    b"if x>1 then",
    b"if not",
    b"if (",
    b"choose (",
    b"later end:",
];

/// One mutation of card text: a byte-level one ([`mutate`]) or, more often, 1 to 3 edits of its
/// pieces — one replaced, inserted, dropped or swapped with words of the language; a run of
/// pieces repeated; a piece written many times over, apart, glued (a word thousands of letters
/// long), or nesting (`not not …`, `may (may (…`).
fn mutate_card_text(seed: &[u8], rng: &mut GameRng, words: &[Vec<u8>]) -> Vec<u8> {
    if rng.gen_range(0..10) < 3 {
        return mutate(seed, rng);
    }
    let mut p = pieces(seed);
    for _ in 0..[1, 1, 2, 3][rng.gen_range(0..4)] {
        let at = rng.gen_range(0..=p.len());
        let word = words[rng.gen_range(0..words.len())].clone();
        match rng.gen_range(0..12) {
            0..=2 if at < p.len() => p[at] = word,
            3 if at < p.len() => {
                p.remove(at);
            }
            4 if p.len() > 1 => {
                let (i, j) = (rng.gen_range(0..p.len()), rng.gen_range(0..p.len()));
                p.swap(i, j);
            }
            5 if !p.is_empty() => {
                let i = rng.gen_range(0..p.len());
                let j = (i + rng.gen_range(1..8)).min(p.len());
                let run = p[i..j].to_vec();
                let k = rng.gen_range(0..=p.len());
                p.splice(k..k, run);
            }
            6 => {
                let n = 10usize.pow(rng.gen_range(1..5));
                let many = match rng.gen_range(0..3) {
                    0 => vec![word.repeat(n)],
                    1 => vec![word; n],
                    _ => {
                        let w = NESTING[rng.gen_range(0..NESTING.len())];
                        vec![w.to_vec(); n]
                    }
                };
                p.splice(at..at, many);
            }
            _ => p.insert(at, word),
        }
    }
    p.join(&b' ')
}

/// Fuzzes the shared grammar with one game's words on mutations of its card texts: it never
/// panics; a text that reads writes back (canonical) into text that reads into the same tree and
/// has an English; an error says where: its ability (when the text splits into abilities) and
/// the word it stopped at, with the byte offset in the text, in a message of bounded length.
fn fuzz_card_text(v: &'static Vocab, files: &[&str]) {
    let seeds: Vec<Vec<u8>> = files.iter().flat_map(|f| text_cells(f)).collect();
    assert!(seeds.len() > 20, "{}: {} cells", v.game, seeds.len());
    let words = card_words(v, &seeds);
    let name = format!("{}/effect", v.game);
    let mutator = |s: &[u8], rng: &mut GameRng| mutate_card_text(s, rng, &words);
    fuzz_with(&name, &[&name], &seeds, mutator, |b| {
        let cell = String::from_utf8_lossy(b);
        match lang::parse(v, &cell) {
            Ok(tree) => {
                let canon = lang::canonical(v, &tree);
                let again = lang::parse(v, &canon).unwrap_or_else(|e| {
                    panic!("the canonical form does not read: {e}\n  {cell}\n  {canon}")
                });
                assert_eq!(
                    again, tree,
                    "the canonical form reads differently:\n  {cell}\n  {canon}"
                );
                assert_eq!(lang::canonical(v, &again), canon, "{cell}");
                let english = lang::english(v, &tree);
                assert_eq!(english.len(), tree.len(), "{cell}");
                Ok(())
            }
            Err(e) => {
                let m = e.to_string();
                let at = match e.ability {
                    0 => m.as_str(),
                    k => m
                        .strip_prefix(&format!("ability {k}: "))
                        .unwrap_or_else(|| panic!("ability {k} is not named: {m}")),
                };
                assert!(
                    at.starts_with("at \"") || at.starts_with("at the end: "),
                    "the message does not say where: {m}\n  {cell}"
                );
                assert!(e.ability <= cell.matches('|').count() + 1, "{m}\n  {cell}");
                assert!(e.at <= cell.len(), "offset {} past the end: {m}", e.at);
                assert!(m.len() <= 2000, "a message of {} bytes: {m:.300}", m.len());
                Err(format!("{name}: {m}"))
            }
        }
    });
}

/// Every game's card language ([`fuzz_card_text`]) on the card texts of its card files; a game
/// whose cards have no text (`GameInfo::lang` is `None`) has nothing to fuzz.
fn card_text<G: GameDef>() {
    let Some(v) = G::INFO.lang else {
        return;
    };
    let mut files = vec![format!("{}/{}", G::INFO.deck_dir, G::INFO.card_file)];
    let designer = format!("tests/data/designer/{}.csv", G::INFO.name);
    if root().join(&designer).is_file() {
        files.push(designer);
    }
    files.extend(data_card_files::<G>());
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    fuzz_card_text(v, &files);
}

/// Every game's deck files, seeded with its bundled decks: never a panic; an error names the file.
fn decks<G: GameDef>() {
    let info = G::INFO;
    let cards = G::bundled_cards();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(info.deck_dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == info.deck_ext))
        .collect();
    paths.sort();
    let seeds: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    fuzz_named(&format!("{} x.deck", info.name), &["x.deck"], &seeds, |b| {
        let t = text(b, "x.deck")?;
        G::parse_deck(&cards, &t, "x.deck", "x").map_err(|e| e.to_string())?;
        Ok(())
    });
}

/// Every game's scenario files, seeded with its scenarios of `tests/scenarios/` (those with their
/// own card file left out: it would have to stand beside them): a scenario that parses is played,
/// its actions and its expectations. Never a panic; an error names the file.
fn scenarios<G: GameDef>() {
    let dir = root().join("tests/scenarios");
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|t| crate::common::scenario_game(t) == G::INFO.name && !t.contains("cards:"))
        .map(String::into_bytes)
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "{}: no scenario", G::INFO.name);
    // The bundled cards, read once: what a scenario without a card file plays with.
    let cards = G::bundled_cards();
    fuzz_named(
        &format!("{} x.scn", G::INFO.name),
        &["x.scn"],
        &seeds,
        |b| {
            let t = text(b, "x.scn")?;
            G::run_scenario(&t, "x.scn", &dir, Some(cards.clone())).map_err(|e| e.to_string())?;
            Ok(())
        },
    );
}

/// Every game's action notation (`GameDef::parse_action`, what `play --human`, scenarios and
/// process agents read), seeded with the texts of the legal actions at positions along random
/// games of the bench match: never a panic, and a text that parses is a legal action. A seed is
/// `position<TAB>text`; a mutated position number picks a position modulo their count.
fn action_texts<G: GameDef>() {
    use tcgsim::ActionList;
    let g = G::bench_match().expect("the bench match");
    let positions: Vec<G::State> = (0..24)
        .map(|k| crate::common::random_position(&g, 100 + k, 5 * k as usize))
        .filter(|s| g.to_move(s).is_some())
        .collect();
    assert!(!positions.is_empty());
    let mut seeds = Vec::new();
    for (k, s) in positions.iter().enumerate() {
        for t in tcgsim::core::def::legal_texts(&g, s) {
            seeds.push(format!("{k}\t{t}").into_bytes());
        }
    }
    let mut list = ActionList::new();
    fuzz_named(&format!("{} action", G::INFO.name), &[""], &seeds, |b| {
        let t = String::from_utf8_lossy(b);
        let (k, t) = t.split_once('\t').unwrap_or(("0", &t));
        let s = &positions[k.parse::<usize>().unwrap_or(0) % positions.len()];
        if let Ok(a) = g.parse_action(s, t) {
            g.legal_actions(s, &mut list);
            assert!(
                list.contains(&a),
                "{t:?} reads as an action that is not legal"
            );
        }
        Ok(())
    });
}

#[test]
fn fuzz_agent_specs() {
    let seeds: Vec<Vec<u8>> = [
        "random",
        "heuristic",
        "pimc:dets=16,iters=64,playout=heuristic,eps=0.1,depth=30",
        "ismcts:iters=2000,c=0.7,playout=heuristic,eps=0.25,depth=0,threads=2",
        "ismcts:ms=50",
        "cheat:iters=500,playout=random",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("spec", &seeds, |b| {
        let t = String::from_utf8_lossy(b);
        let spec = AgentSpec::parse(&t).map_err(|e| format!("spec: {e}"))?;
        // Whatever parses can be built (bounded: no spec asks for unbounded memory).
        let _agent = spec.build::<tcgsim::TrailsGame>(1);
        Ok(())
    });
}

fn plan() -> MatrixPlan {
    MatrixPlan {
        game: "trails".into(),
        deck_names: vec!["a".into(), "b".into(), "c".into()],
        content: "0123456789abcdef".into(),
        agent_a: "heuristic".into(),
        agent_b: "heuristic".into(),
        games: 24,
        seed: 4,
        chunk: 5,
    }
}

fn counts(games: u64, k: u64) -> tcgsim::Counts {
    let wins = k % (games + 1);
    tcgsim::Counts {
        games,
        wins,
        losses: games - wins,
        draws: 0,
        first_player_wins: wins / 2,
        turns: games * 7,
        decisions: games * 200,
        lengths: {
            let mut h = tcgsim::sim::matrix::Lengths::default();
            h.0[6] = games;
            h
        },
    }
}

#[test]
fn fuzz_checkpoints() {
    let p = plan();
    let tasks = p.tasks();
    let mut seed = format!("{CHUNK_HEADER}\n");
    for (k, t) in tasks.iter().enumerate() {
        seed.push_str(&line_of(*t, &counts(p.chunk_games(t.chunk), k as u64)));
    }
    let games_of = |t: Task| p.task_games(t);
    assert_eq!(
        parse_checkpoint(&seed, "chunks.csv", &games_of)
            .unwrap()
            .len(),
        tasks.len()
    );
    fuzz("chunks.csv", &[seed.into_bytes()], |b| {
        let t = text(b, "chunks.csv")?;
        let done = parse_checkpoint(&t, "chunks.csv", &games_of).map_err(|e| e.to_string())?;
        // What is accepted is consistent with the plan.
        for (task, c) in done {
            assert_eq!(Some(c.games), p.task_games(task));
            assert_eq!(c.wins + c.losses + c.draws, c.games);
        }
        Ok(())
    });
}

#[test]
fn fuzz_merge_inputs() {
    let p = plan();
    let n = p.deck_names.len();
    let shard = |i: u64| {
        let mut m = vec![tcgsim::Counts::default(); n * n];
        for (k, t) in p.shard_tasks(i, 2).into_iter().enumerate() {
            m[t.row * n + t.col].add(&counts(p.chunk_games(t.chunk), k as u64));
        }
        (matchups_csv(&p, &m), lengths_csv(&p, &m))
    };
    let run = |i: u64| {
        RunInfo {
            command: "matrix".into(),
            game: p.game.clone(),
            decks: p.deck_names.clone(),
            agents: vec![p.agent_a.clone(), p.agent_b.clone()],
            content: p.content.clone(),
            games: p.games,
            seed: p.seed,
            fingerprint: p.fingerprint(),
            shard: Some((i, 2)),
            ..Default::default()
        }
        .to_json()
    };
    let ((one, one_len), (two, two_len)) = (shard(1), shard(2));
    let files_with = |json: String, csv: String, lengths: String| {
        vec![
            Part {
                name: "s1".into(),
                run_json: json,
                matchups: csv,
                lengths: Some(lengths),
            },
            Part {
                name: "s2".into(),
                run_json: run(2),
                matchups: two.clone(),
                lengths: Some(two_len.clone()),
            },
        ]
    };
    let files = |json: String, csv: String| files_with(json, csv, one_len.clone());
    let (merged, m) = merge_matchups(&files(run(1), one.clone())).unwrap();
    assert_eq!(merged, p);
    assert!(m.iter().all(|c| c.games == p.games));
    let names = ["s1/matchups.csv", "s2", "shards "];
    fuzz_named(
        "s1/matchups.csv",
        &names,
        &[one.clone().into_bytes()],
        |b| {
            let t = text(b, "s1/matchups.csv")?;
            let (_, m) = merge_matchups(&files(run(1), t)).map_err(|e| e.to_string())?;
            // A merge that is accepted has every game of the plan, once.
            assert!(m.iter().all(|c| c.games == p.games));
            Ok(())
        },
    );
    let names = ["s1/run.json", "s1/matchups.csv", "s2", "shards "];
    fuzz_named("s1/run.json", &names, &[run(1).into_bytes()], |b| {
        let t = text(b, "s1/run.json")?;
        let (_, m) = merge_matchups(&files(t, one.clone())).map_err(|e| e.to_string())?;
        assert!(m.iter().all(|c| c.games == p.games));
        Ok(())
    });
    let names = ["s1/lengths.csv", "s1/matchups.csv", "s2", "shards "];
    fuzz_named(
        "s1/lengths.csv",
        &names,
        &[one_len.clone().into_bytes()],
        |b| {
            let t = text(b, "s1/lengths.csv")?;
            let (_, m) =
                merge_matchups(&files_with(run(1), one.clone(), t)).map_err(|e| e.to_string())?;
            // An accepted histogram holds every game once, 7 turns long on average.
            assert!(m.iter().all(|c| c.lengths.games() == p.games
                && c.lengths
                    .nonzero()
                    .map(|(k, g)| (k as u64 + 1) * g)
                    .sum::<u64>()
                    == 7 * p.games));
            Ok(())
        },
    );
}
