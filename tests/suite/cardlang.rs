//! The card language (`docs/cards.md`, "The card language"): every card of every bundled pool and
//! designer set (`tests/data/designer/`) reads in the shared grammar and writes back in the
//! canonical form, which reads back into the same abilities.

use std::path::Path;
use tcgsim::core::lang;
use tcgsim::core::lang::vocab::Vocab;

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

/// The word tables of `docs/cards.md` are what `tcgsim cards words` prints: the documentation
/// cannot drift from the parser.
#[test]
fn the_word_tables_of_docs_cards_md_are_the_vocabularies() {
    use tcgsim::games::{fireforce, tmnt, trails};
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cards.md"))
        .unwrap();
    for (game, v) in [
        ("trails", &trails::dsl::VOCAB),
        ("fireforce", &fireforce::dsl::VOCAB),
        ("tmnt", &tmnt::dsl::VOCAB),
    ] {
        let start = format!("<!-- words: {game} ");
        let block = doc
            .split(&start)
            .nth(1)
            .unwrap_or_else(|| panic!("docs/cards.md has no `{start}` block"));
        let block = block.split_once("-->").unwrap().1;
        let block = block.split("<!-- /words -->").next().unwrap();
        assert_eq!(
            block.trim(),
            lang::doc::tables(v).trim(),
            "docs/cards.md: the {game} word tables differ from `tcgsim cards words --game {game}`"
        );
    }
}

/// Every example of the shared chapter of `docs/cards.md` ("The card language") reads with the
/// words of a game (its examples span the games; which engine plays what is each game's part).
#[test]
fn every_example_of_the_card_language_chapter_reads() {
    use tcgsim::games::{fireforce, tmnt, trails};
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cards.md"))
        .unwrap();
    let chapter = doc
        .split("## The card language")
        .nth(1)
        .unwrap()
        .split("## Trails TCG")
        .next()
        .unwrap();
    let vocabs = [
        &trails::dsl::VOCAB,
        &fireforce::dsl::VOCAB,
        &tmnt::dsl::VOCAB,
    ];
    let mut n = 0;
    for span in chapter.split('`').skip(1).step_by(2) {
        // Placeholders (`if CONDITION`, `draw N`) are grammar, not examples.
        let placeholder = span
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        if span.contains('…') || !span.contains(' ') || placeholder {
            continue;
        }
        let first = span.split([':', '[', ' ']).next().unwrap_or("");
        let is_head = vocabs.iter().any(|v| {
            v.heads.iter().any(|h| h.word.is(first)) || v.events.iter().any(|e| e.word.is(first))
        }) || first == "instead";
        let is_step = ["if", "choose", "may", "later"].contains(&first)
            || vocabs
                .iter()
                .any(|v| v.verbs.iter().chain(v.statics).any(|x| x.name == first));
        let texts: Vec<String> = if is_head && span.contains(": ") {
            vec![span.to_string()]
        } else if is_step {
            // A body: under each game's first way to play a card, or as a static.
            vocabs
                .iter()
                .flat_map(|v| {
                    [
                        format!("{}: {span}", v.heads[0].word.name),
                        format!("static: {span}"),
                    ]
                })
                .collect()
        } else {
            continue;
        };
        let reads = vocabs
            .iter()
            .any(|v| texts.iter().any(|t| lang::parse(v, t).is_ok()));
        assert!(reads, "docs/cards.md example `{span}` reads in no game");
        n += 1;
    }
    assert!(n >= 15, "only {n} examples");
}

/// The cards of a designer set (`tests/data/designer/<game>.csv`) each game's engine plays: each
/// row compiled in a file where every other row keeps its printed fields and loses its text (so
/// `name=` filters find their cards). Returns the ids played and the others with the reason.
pub fn designer_played(game: &str) -> (Vec<String>, Vec<(String, String)>) {
    use tcgsim::GameDef;
    let path = format!("tests/data/designer/{game}.csv");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let header = body[0];
    let cols: Vec<&str> = header.split(',').collect();
    let text_cols: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == "effect" || **c == "trigger")
        .map(|(k, _)| k)
        .collect();
    let rows: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
        .from_reader(body.join("\n").as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    // Another row keeps a text its type needs, the plainest there is.
    let col = |name: &str| cols.iter().position(|c| *c == name);
    let (ty, arts) = (col("type").unwrap(), col("arts_cost"));
    let plain = |r: &csv::StringRecord| -> &'static str {
        let event = r[ty].eq_ignore_ascii_case("event");
        match game {
            "trails" if event => "event: draw 1",
            "trails" if arts.is_some_and(|a| !r[a].is_empty()) => "arts: draw 1",
            "fireforce" if event => "main: draw 1",
            "tmnt" if event => "play: draw 1",
            _ => "",
        }
    };
    let blank = |r: &csv::StringRecord| -> csv::StringRecord {
        r.iter()
            .enumerate()
            .map(|(k, f)| {
                if text_cols.contains(&k) {
                    if cols[k] == "effect" {
                        plain(r)
                    } else {
                        ""
                    }
                } else {
                    f
                }
            })
            .collect()
    };
    let mut played = Vec::new();
    let mut refused = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        w.write_record(header.split(',')).unwrap();
        for (j, r) in rows.iter().enumerate() {
            w.write_record(if j == k { r.clone() } else { blank(r) }.iter())
                .unwrap();
        }
        let file = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let ok = match game {
            "trails" => tcgsim::TrailsGame::parse_cards(&file, &path).map(|_| ()),
            "fireforce" => tcgsim::FireForceGame::parse_cards(&file, &path).map(|_| ()),
            _ => tcgsim::TmntGame::parse_cards(&file, &path).map(|_| ()),
        };
        match ok {
            Ok(()) => played.push(row[0].to_string()),
            Err(e) => refused.push((row[0].to_string(), e.to_string())),
        }
    }
    (played, refused)
}

/// How many cards of each designer set the engines play (printed with `--nocapture`); the
/// counts only go up.
#[test]
fn designer_cards_the_engines_play() {
    let mut short = Vec::new();
    for (game, least) in [("trails", 61), ("fireforce", 53), ("tmnt", 50)] {
        let (played, refused) = designer_played(game);
        eprintln!("{game}: {} played, {} not yet", played.len(), refused.len());
        for (id, why) in &refused {
            eprintln!("  {id}: {why}");
        }
        if played.len() < least {
            short.push(format!("{game}: {} played, expected {least}", played.len()));
        }
    }
    assert!(short.is_empty(), "{short:?}");
}

/// `tests/data/designer/<game>.played.csv` — the designer set as a card file scenarios and games
/// can load: the cards the engine plays as written, the others with their texts left out (a
/// comment line before each says so), so that every name a text names is still there. It must be
/// exactly that; `TCGSIM_BLESS=1` rewrites it after an engine learns more words.
#[test]
fn the_played_designer_card_files_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in ["trails", "fireforce", "tmnt"] {
        let (played, refused) = designer_played(game);
        let text =
            std::fs::read_to_string(root.join(format!("tests/data/designer/{game}.csv"))).unwrap();
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let joined = body.join("\n");
        let mut r = csv::ReaderBuilder::new().from_reader(joined.as_bytes());
        let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        let ty = header.iter().position(|h| h == "type").unwrap();
        let arts = header.iter().position(|h| h == "arts_cost");
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        w.write_record(&header).unwrap();
        let mut out = format!(
            "# The designer set tests/data/designer/{game}.csv as the {game} engine plays it today: {} of {} cards\n# as written; the others without their texts. Written by tests/suite/cardlang.rs (TCGSIM_BLESS=1).\n",
            played.len(),
            played.len() + refused.len()
        );
        let flush = |w: csv::Writer<Vec<u8>>, out: &mut String| {
            out.push_str(&String::from_utf8(w.into_inner().unwrap()).unwrap());
        };
        flush(w, &mut out);
        for rec in r.records() {
            let rec = rec.unwrap();
            let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
            if played.iter().any(|p| p == &rec[0]) {
                w.write_record(&rec).unwrap();
            } else {
                out.push_str(&format!(
                    "# {}: not played yet; its text is left out here\n",
                    &rec[0]
                ));
                let event = rec[ty].eq_ignore_ascii_case("event");
                let plain = match game {
                    "trails" if event => "event: draw 1",
                    "trails" if arts.is_some_and(|a| !rec[a].is_empty()) => "arts: draw 1",
                    "fireforce" if event => "main: draw 1",
                    "tmnt" if event => "play: draw 1",
                    _ => "",
                };
                let fields: Vec<&str> = rec
                    .iter()
                    .zip(&header)
                    .map(|(f, h)| match h.as_str() {
                        "effect" => plain,
                        "trigger" => "",
                        _ => f,
                    })
                    .collect();
                w.write_record(&fields).unwrap();
            }
            flush(w, &mut out);
        }
        let path = root.join(format!("tests/data/designer/{game}.played.csv"));
        if std::env::var("TCGSIM_BLESS").is_ok() {
            std::fs::write(&path, &out).unwrap();
        }
        let got = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            got,
            out,
            "{}: stale (TCGSIM_BLESS=1 rewrites it)",
            path.display()
        );
    }
}

/// The English of a card says what a designer reads on the printed card: a condition on the
/// card's own zone names the zone, several names are one group ("named A, B or C"), "a unit" takes
/// "a", and `also_titled` reads "also counts as a Character named …". Hand-written answers.
#[test]
fn card_english_names_zones_and_name_groups() {
    use tcgsim::games::{tmnt, trails};
    let en = |v: &Vocab, text: &str| lang::english(v, &lang::parse(v, text).unwrap()).join(" | ");
    assert_eq!(
        en(
            &tmnt::dsl::VOCAB,
            "static if self in zone1: also_titled self as characters name='Kazan' name='Riku' name='Tomo'"
        ),
        "While this card is in the 1st Block Zone, this card also counts as a Character named \
         Kazan, Riku or Tomo for combos."
    );
    let t = en(
        &trails::dsl::VOCAB,
        "event if any own unit name='Renna Valcourt' name='Orrin Vale': draw 1",
    );
    assert!(
        t.starts_with("Only if there is a unit you control named Renna Valcourt or Orrin Vale."),
        "{t}"
    );
    // A resource reads as one (it read "gain 1 [Reinforcement]", the keyword of the same index).
    let t = en(&trails::dsl::VOCAB, "event: gain cp 1");
    assert_eq!(t, "Gain 1 CP.");
}

/// The English of the designer cards reads like their printed texts (tests/data/designer/*.md):
/// "an" before a vowel of any case, two kinds as "X or Y", a duration instead of the default one,
/// what an amount counts after the amount's phrase, a role as one card, cards in a deck without
/// "you control", a player's own hand and deck as theirs. Hand-written answers.
#[test]
fn card_english_reads_like_the_printed_cards() {
    use tcgsim::games::{fireforce, tmnt, trails};
    let en = |v: &Vocab, text: &str| lang::english(v, &lang::parse(v, text).unwrap()).join(" | ");
    let (tr, ff, tm) = (
        &trails::dsl::VOCAB,
        &fireforce::dsl::VOCAB,
        &tmnt::dsl::VOCAB,
    );

    // Articles and alternatives (TR-D33 Ilvane Morrow, TM-D07 Vigilante Dex, TR-D21 Odile Fairn).
    assert_eq!(
        en(tr, "played enemy event/arts [once]: draw 1"),
        "When an EVENT or arts card your opponent controls is played (once per turn), draw 1 card."
    );
    assert_eq!(
        en(tm, "placed enemy attack if own_turn and self in zone1: power that -2 phase"),
        "When an Attack card your opponent controls is placed, if it is your turn and this card is \
         in the 1st Block Zone, that card gets -2 power until the end of this Attack phase."
    );
    assert_eq!(
        en(tr, "start own deployment if any own unit org=army other: gain cp 1"),
        "At the start of your deployment step, if there is another army unit you control, gain 1 CP."
    );

    // A duration replaces the default one (FF-D02, FF-D29, FF-D38, TR-D46 Hit and Run).
    assert_eq!(
        en(ff, "attack: power self +1000 battle"),
        "When this unit attacks, this unit gets +1000 power during this battle."
    );
    assert_eq!(
        en(
            ff,
            "enter: may discard 1 then power self +2000 own_next_turn"
        ),
        "When this unit is dispatched, you may put 1 card from your hand into THE ADOLLA; if you \
         do, this unit gets +2000 power until the end of your next turn."
    );
    assert_eq!(
        en(
            ff,
            "active[flame 1, once]: grant target own unit blocker next_turn"
        ),
        "Active [1 Flame] (once per turn): Target unit you control gains Blocker until the end of \
         the next turn."
    );
    assert_eq!(
        en(tr, "event: buff attacker +1/+0 combat"),
        "The attacking unit gets +1/+0 during this combat."
    );
    assert_eq!(
        en(tr, "event: buff target own unit +2/+0"),
        "Target unit you control gets +2/+0 until end of turn."
    );

    // What an amount counts follows the amount's phrase (FF-D28, FF-D52, TR-D43 Greta Voss,
    // TR-D25 Yselle Roan, TM-D01 Kazan, TM-D26 Brute Rampage, FF-D45 Great Cataclysm).
    assert_eq!(
        en(ff, "enter: look enemy hand; may power target own unit +1000 per enemy events in hand"),
        "When this unit is dispatched, look at your opponent's hand; then you may have target unit \
         you control get +1000 power for each Event in your opponent's hand until end of turn."
    );
    assert_eq!(
        en(
            ff,
            "block: power self +1000 per own units attr=white_clad in adolla max 3000 battle"
        ),
        "When this unit blocks, this unit gets +1000 power for each white_clad unit in your THE \
         ADOLLA (at most 3000) during this battle."
    );
    assert_eq!(
        en(tr, "static: buff self +1 per own units org=jaeger other/+0"),
        "This unit gets +1/+0 for each other jaeger unit you control."
    );
    assert_eq!(
        en(tr, "attack if attackers >= 2: buff all own units attacking +1 per attackers/+0 combat"),
        "When this unit attacks, if the number of attacking units is 2 or more, all your attacking \
         units get +1/+0 for each attacking unit during this combat."
    );
    assert_eq!(
        en(tm, "start own forward if self in zone1: power self +1 per own attacks in attack_zone phase"),
        "At the start of your Forward step, if this card is in the 1st Block Zone, this card gets \
         +1 power for each Attack card in your Attack Zone until the end of this Attack phase."
    );
    assert_eq!(
        en(tm, "play: mill enemy 1 per own characters name='Tusk Brute' name='Horn Brute' in trash max 2"),
        "<Play>: Your opponent sends the top card of their deck to the Trash for each Character named \
         Tusk Brute or Horn Brute in your Trash (at most 2)."
    );
    assert_eq!(
        en(
            ff,
            "main: remove all units power<=4000; draw x own; draw enemy x enemy"
        ),
        "Remove all units with power 4000 or less; then draw 1 card for each of your cards among \
         those; then your opponent draws 1 card for each of their cards among those."
    );

    // A role is one card (TM-D28 Shadow Step, FF-D18 Sacred Flame).
    assert_eq!(
        en(tm, "play: if counter_step then power attacker -1 phase"),
        "<Play>: If this card was placed in the Counter step, the attacking card gets -1 power \
         until the end of this Attack phase."
    );
    assert_eq!(
        en(ff, "static: power bearer +1000"),
        "The unit this Flame card is given to gets +1000 power."
    );

    // Cards in a deck are yours, not "you control" (FF-D23, FF-D22, TR-D02, TR-D50 Theo
    // Marchand).
    assert_eq!(
        en(ff, "main: search up_to 1 own unit attr=company_8 cost<=2 to hand"),
        "Search your deck for up to 1 company_8 unit with cost 2 or less, reveal it and put it into \
         its owner's hand, then shuffle your deck."
    );
    assert_eq!(
        en(ff, "enter: dig 3 up_to 1 own card to hand"),
        "When this unit is dispatched, look at the top 3 cards of your deck, put up to 1 card among \
         them into its owner's hand, and the rest on the bottom of your deck in any order."
    );
    assert_eq!(
        en(tr, "enter: dig 3 up_to 1 own event to hand"),
        "When this card is put on the field, look at the top 3 cards of your deck, reveal up to 1 \
         EVENT among them and put it into its owner's hand, and the rest on the bottom of your deck \
         in any order."
    );

    // A flag said as a phrase, whose phase, a player's own cards (FF-D51, FF-D37, FF-D52, TM-D10,
    // TM-D08, TM-D11).
    assert_eq!(
        en(
            ff,
            "put to scene if preparation own and count own cards flame >= 5: draw 1"
        ),
        "When this card is put into the Scene, if it is your Preparation phase and the number of \
         cards you control with Flame is 5 or more, draw 1 card."
    );
    assert_eq!(
        en(
            ff,
            "block if attacker not_flame: power attacker -2000 battle"
        ),
        "When this unit blocks, if the attacking unit is a unit without Flame, the attacking unit \
         gets -2000 power during this battle."
    );
    assert_eq!(
        en(tm, "attack: may discard 1 then power self +2 phase"),
        "When this card attacks (the start of your Attack step, face up on your Block Zone 1), you \
         may discard 1 card from your hand; if you do, this card gets +2 power until the end of \
         this Attack phase."
    );
    assert_eq!(
        en(tm, "hit: mill enemy 1"),
        "When a point of damage is counted on this card, your opponent sends the top card of their \
         deck to the Trash."
    );
    // Cards moved together go to their owner's zone (TM-D44 Last Stand).
    assert_eq!(
        en(tm, "play: move up_to 3 own cards in trash to deck bottom"),
        "<Play>: Put up to 3 cards in your Trash on the bottom of their owner's deck."
    );
    assert_eq!(
        en(tm, "hit: discard enemy 1"),
        "When a point of damage is counted on this card, your opponent discards 1 card of their \
         choice from their hand."
    );
}
