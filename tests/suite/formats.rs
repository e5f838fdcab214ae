//! Card file and deck file parsing: every error path, with the reported line. T-DECK-1, T-DECK-2.

use tcgsim::games::trails::cards::CardType;
use tcgsim::games::trails::deck::{Deck, Format};
use tcgsim::games::trails::{bundled_cards, CardDb};

const HEADER: &str = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect\n";

fn card_err(rows: &str) -> String {
    CardDb::parse(&format!("{HEADER}{rows}"), "pool.csv")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_else(|| panic!("expected an error for {rows:?}"))
}

#[test]
fn bundled_pool_meets_the_sample_pool_requirements() {
    let db = bundled_cards();
    assert!(db.len() >= 60, "{} cards", db.len());
    assert!(db.org_names.len() >= 6);
    for t in [
        CardType::Unit,
        CardType::Item,
        CardType::Event,
        CardType::Base,
    ] {
        assert!(db.cards.iter().any(|c| c.ctype == t), "no {t:?}");
    }
    for (name, icon) in tcgsim::games::trails::cards::Icons::NAMES {
        assert!(
            db.cards.iter().any(|c| c.icons.has(icon)),
            "no card with {name}"
        );
    }
    let text: String = db.cards.iter().map(|c| c.text.clone() + " ").collect();
    for word in [
        "draw",
        "plan",
        "rebuild",
        "homebase_top",
        "bond",
        "stun",
        "ko",
        "ready",
        "action",
        "support",
        "bounce",
        "buff",
        "grant",
        "link",
        "static",
        "enter",
        "attack",
        "defend",
        "stuns",
        "event",
        "arts",
        "act[",
    ] {
        assert!(text.contains(word), "no card uses {word}");
    }
}

#[test]
fn card_file_errors_name_line_column_and_reason() {
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,,\nX-2,B,,WIZARD,1,1,1,bracer,,,\n");
    assert!(
        e.starts_with("pool.csv:3: column type:") && e.contains("unknown type \"WIZARD\""),
        "{e}"
    );
    let e = card_err("X-1,A,,UNIT,one,1,1,bracer,,,\n");
    assert!(
        e.contains("pool.csv:2: column cost") && e.contains("not a whole number"),
        "{e}"
    );
    let e = card_err("X-1,A,,UNIT,1,,1,bracer,,,\n");
    assert!(e.contains("column str") && e.contains("needs STR"), "{e}");
    let e = card_err("X-1,A,,EVENT,1,2,1,,,,event: draw 1\n");
    assert!(e.contains("only UNITs have STR/DEF"), "{e}");
    let e = card_err("X-1,A,,UNIT,1,1,1,,,,\n");
    assert!(
        e.contains("column orgs") && e.contains("at least one organization"),
        "{e}"
    );
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,sneaky,,\n");
    assert!(
        e.contains("column icons") && e.contains("unknown icon \"sneaky\""),
        "{e}"
    );
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,2,\n");
    assert!(e.contains("arts_cost exactly when"), "{e}");
    let e = card_err("X-1,A,,ITEM,1,,,,,2,\n");
    assert!(
        e.contains("column arts_cost") && e.contains("only UNITs have arts"),
        "{e}"
    );
    let e = card_err("X-1,A,,EVENT,1,,,,,,\n");
    assert!(e.contains("needs an `event:` ability"), "{e}");
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,,enter: fly 3\n");
    assert!(
        e.contains("column effect") && e.contains("\"fly\": unknown effect"),
        "{e}"
    );
    let e = card_err("X-1,A,,BASE,1,,,,,,act[self_action]: draw 1\n");
    assert!(e.contains("a BASE craft can only cost EP"), "{e}");
    // T-TERM-ENTER: "action this ready UNIT" is a UNIT's cost; T-ICON: icon crafts are a UNIT's;
    // T-STATIC-1: no static grants [Attribution].
    // Decision T-TERM-ENTER-3: an ITEM may action itself as a craft's cost.
    assert!(CardDb::parse(
        &format!("{HEADER}X-1,A,,ITEM,1,,,,,,act[self_action]: draw 1\n"),
        "pool.csv"
    )
    .is_ok());
    let e = card_err("X-1,A,,ITEM,1,,,,dispatch,,\n");
    assert!(
        e.contains("only a UNIT has icon crafts (dispatch on an ITEM)"),
        "{e}"
    );
    let e = card_err("X-1,A,,BASE,1,,,,covert;hate,,\n");
    assert!(e.contains("(covert, hate on a BASE)"), "{e}");
    let e = card_err("X-1,A,,ITEM,1,,,,,,static: own units attribution\n");
    assert!(e.contains("a static cannot grant [Attribution]"), "{e}");
    let e = card_err("X-1,A,,EVENT,1,,,,,,event: ready self\n");
    assert!(e.contains("cannot target `self`"), "{e}");
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,,enter: draw 1 | enter: draw 2\n");
    assert!(e.contains("more than one `enter:`"), "{e}");
    // Decision T-RES-15: a cost change reads the cards as printed, of UNITs or ITEMs; at most 8
    // different card sets of `first` changes in a card file, the ninth refused on its line.
    let e = card_err("X-1,A,,BASE,1,,,,,,static: cost all own units ready -1\n");
    assert!(
        e.contains("column effect") && e.contains("as printed"),
        "{e}"
    );
    let e = card_err("X-1,A,,BASE,1,,,,,,static: cost all own events -1\n");
    assert!(e.contains("`units` or `items`"), "{e}");
    let rows: String = (1..=9)
        .map(|k| format!("X-{k},A{k},,BASE,1,,,,,,static: cost all own units cost<={k} first -1\n"))
        .collect();
    let e = card_err(&rows);
    assert!(
        e.starts_with("pool.csv:10: column effect:") && e.contains("more than 8 different"),
        "{e}"
    );
    assert!(CardDb::parse(
        &format!(
            "{HEADER}{}",
            rows.lines().take(8).collect::<Vec<_>>().join("\n")
        ),
        "pool.csv"
    )
    .is_ok());
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,,\nX-2,A,,UNIT,2,2,2,bracer,,,\n");
    assert!(
        e.contains("pool.csv:3: column name") && e.contains("already defined on line 2"),
        "{e}"
    );
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer,,,\nX-1,B,,UNIT,2,2,2,bracer,,,\n");
    assert!(e.contains("id \"X-1\" is already used on line 2"), "{e}");
    let e = card_err("X-1,A,,UNIT,1,1,1,bracer\n");
    assert!(e.contains("expected 11 columns, found 8"), "{e}");
    let e = CardDb::parse("id,name\nX,A\n", "pool.csv")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("expected the header"), "{e}");
    let e = CardDb::parse(HEADER, "pool.csv").err().unwrap().to_string();
    assert!(e.contains("no cards"), "{e}");
    let orgs: Vec<String> = (0..17)
        .map(|k| format!("X-{k},N{k},,UNIT,1,1,1,org{k},,,"))
        .collect();
    let e = card_err(&(orgs.join("\n") + "\n"));
    assert!(e.contains("more than 16 organizations"), "{e}");
}

#[test]
fn comment_lines_and_quoted_effects_parse() {
    let db = CardDb::parse(
        &format!("# a comment\n{HEADER}# another\nX-1,\"A, the First\",Sub,UNIT,1,1,1,\"bracer;police\",covert,,\"enter: draw 1; plan 2\"\n"),
        "pool.csv",
    )
    .unwrap();
    assert_eq!(db.cards[0].name, "A, the First");
    assert_eq!(db.cards[0].orgs.count_ones(), 2);
    assert_eq!(db.cards[0].line, 4);
}

fn deck(text: &str) -> Result<Deck, Vec<String>> {
    Deck::parse(text, "my.deck", "my", &bundled_cards())
        .map_err(|e| e.0.iter().map(|p| p.to_string()).collect())
}

#[test]
fn bundled_decks_validate() {
    let db = bundled_cards();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("decks/trails");
    let mut n = 0;
    let mut blitz = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "deck") {
            let d = Deck::load(&p, &db).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !d.description.is_empty(),
                "{} has no plan comment",
                p.display()
            );
            n += 1;
            blitz += usize::from(d.format == Format::Blitz);
        }
    }
    assert!(n >= 7 && blitz >= 1, "{n} decks, {blitz} blitz");
}

#[test]
fn strategy_deck_needs_exactly_50_t_deck_1() {
    let ok = deck("# plan\n4 Guild Junior Bracer\n46 Academy Student / General\n").unwrap();
    assert_eq!(ok.cards.len(), 50);
    assert_eq!(ok.format, Format::Strategy);
    let e = deck("4 Guild Junior Bracer\n47 Academy Student / General\n").unwrap_err();
    assert_eq!(
        e,
        vec!["my.deck: 51 cards: a Strategy deck has exactly 50 (T-DECK-1)"]
    );
    let e = deck("4 Guild Junior Bracer\n45 Academy Student / General\n").unwrap_err();
    assert!(e[0].contains("49 cards"), "{e:?}");
}

#[test]
fn at_most_four_copies_except_general_t_deck_1() {
    let e = deck("5 Guild Junior Bracer\n45 Academy Student\n").unwrap_err();
    assert_eq!(
        e,
        vec!["my.deck:1: 5 copies of \"Guild Junior Bracer / Rookie\": a Strategy deck allows at most 4 (T-DECK-1)"]
    );
    // Copies on several lines add up; the first line is reported.
    let e = deck("3 Guild Junior Bracer\n2 Guild Junior Bracer\n45 Academy Student\n").unwrap_err();
    assert!(e[0].starts_with("my.deck:1: 5 copies"), "{e:?}");
    // "General" cards are unlimited.
    assert!(deck("50 Academy Student\n").is_ok());
}

#[test]
fn blitz_deck_has_40_any_copies_t_deck_2() {
    let d = deck("# format: blitz\n10 Guild Junior Bracer\n30 Academy Student\n").unwrap();
    assert_eq!(d.format, Format::Blitz);
    let e = deck("# format: blitz\n10 Guild Junior Bracer\n31 Academy Student\n").unwrap_err();
    assert!(
        e[0].contains("41 cards: a Blitz Shield deck has exactly 40 (T-DECK-2)"),
        "{e:?}"
    );
}

#[test]
fn deck_errors_are_all_reported_with_lines_and_suggestions() {
    let e = deck(
        "4 Guild Junor Bracer\nfour Academy Student\n4\n# format: sealed\n46 Academy Student\n",
    )
    .unwrap_err();
    assert_eq!(e.len(), 4, "{e:?}");
    assert_eq!(
        e[0],
        "my.deck:1: \"Guild Junor Bracer\": unknown card (did you mean \"Guild Junior Bracer / Rookie\"?)"
    );
    assert!(
        e[1].starts_with("my.deck:2: expected `COUNT NAME`"),
        "{e:?}"
    );
    assert!(e[2].starts_with("my.deck:3: missing card name"), "{e:?}");
    assert!(
        e[3].starts_with("my.deck:4: unknown format \"sealed\""),
        "{e:?}"
    );
    let e = deck("4 Zzzzzzzzzzzzzz\n46 Academy Student\n").unwrap_err();
    assert_eq!(e, vec!["my.deck:1: \"Zzzzzzzzzzzzzz\": unknown card"]);
}

#[test]
fn names_resolve_by_full_name_bare_name_or_id() {
    let db = bundled_cards();
    let a = db.lookup("Guild Junior Bracer").unwrap();
    assert_eq!(db.lookup("guild  junior bracer / ROOKIE").unwrap(), a);
    assert_eq!(db.lookup(&db.card(a).code).unwrap(), a);
    assert!(db.lookup("Guild Junior Bracer / Veteran").is_err());
}

#[test]
fn every_effect_example_in_docs_cards_md_parses() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cards.md"),
    )
    .unwrap();
    // The Trails part of the document (the Fire Force part is checked in `fireforce.rs`, the shared
    // chapter's examples, which no single engine plays all of, in `cardlang.rs`).
    let doc = doc.split("## Trails TCG").nth(1).expect("a Trails part");
    let doc = doc.split("## Fire Force TCG").next().unwrap();
    let triggers = [
        "enter:", "attack:", "defend:", "stuns:", "event:", "arts:", "act[", "static:",
    ];
    let mut n = 0;
    for span in doc.split('`').skip(1).step_by(2) {
        if triggers.iter().any(|t| span.starts_with(t)) && span.contains(": ") {
            let mut db = CardDb::default();
            tcgsim::games::trails::dsl::parse_effects(span, &mut db)
                .unwrap_or_else(|e| panic!("docs/cards.md example `{span}`: {e}"));
            n += 1;
        }
    }
    assert!(n >= 15, "only {n} examples found");
}

#[test]
fn sealed_pool_is_a_valid_blitz_deck_and_seeded_t_deck_2() {
    use tcgsim::games::trails::deck::{deck_text, parse_pack, sealed_pool};
    let db = bundled_cards();
    let slots = parse_pack("UNIT=5,ITEM=1,EVENT=1,BASE=1").unwrap();
    let a = sealed_pool(&db, 5, &slots, &mut tcgsim::rng_from_seed(3)).unwrap();
    let b = sealed_pool(&db, 5, &slots, &mut tcgsim::rng_from_seed(3)).unwrap();
    let c = sealed_pool(&db, 5, &slots, &mut tcgsim::rng_from_seed(4)).unwrap();
    assert_eq!(a.len(), 40);
    assert_eq!(a, b);
    assert_ne!(a, c);
    // Each pack follows the composition.
    for pack in a.chunks(8) {
        let units = pack
            .iter()
            .filter(|&&i| db.card(i).ctype == CardType::Unit)
            .count();
        assert_eq!(units, 5);
        assert_eq!(db.card(pack[7]).ctype, CardType::Base);
    }
    let text = deck_text(&db, &a, Format::Blitz, "sealed");
    let d = Deck::parse(&text, "sealed.deck", "sealed", &db).unwrap();
    assert_eq!(d.format, Format::Blitz);
    assert_eq!(d.cards.len(), 40);
    assert!(parse_pack("UNIT=x")
        .unwrap_err()
        .contains("not a whole number"));
    assert!(parse_pack("WIZARD=1").unwrap_err().contains("expected ANY"));
}
