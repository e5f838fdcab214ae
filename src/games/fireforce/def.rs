//! The Fire Force TCG as the command line sees it ([`GameDef`]): glue over deck files (`deck.rs`),
//! the action notation (`notation.rs`), logs (`narrate.rs`), invariants (`invariants.rs`) and
//! scenarios (`scenario.rs`); here the view of one seat, card text, sealed pools
//! (`docs/rules-fireforce.md`, `docs/cards.md`, `docs/scenario.md`).

use super::cards::{norm, CardDb, CardId, CardType, Keywords};
use super::deck::{deck_text, parse_deck, FfDeck, Format};
use super::state::{Bits, State, NONE};
use super::{Action, FireForceGame, RULES_VERSION};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::input::{excerpt, parse_int};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::{Error, InputError, InputErrors, Outcome, Reason, Seat};
use std::fmt::Write as _;
use std::path::Path;

impl FireForceGame {
    /// The setup with the decks in the given order (top first) when `shuffle` is false.
    pub fn setup_stacked(&self, seed: u64, first: Seat) -> State {
        let mut s = self.setup_with(seed, first, false);
        self.settle(&mut s);
        s
    }
}

const DECKS: &[&str] = &[
    "adolla_link",
    "aggro_blitz",
    "blocker_wall",
    "pray_ramp",
    "reaction_control",
    "support_defence",
];

impl GameDef for FireForceGame {
    const INFO: GameInfo = GameInfo {
        name: "fireforce",
        title: "Fire Force TCG",
        rule_prefix: "F-",
        rules: "docs/rules-fireforce.md",
        deck_dir: "decks/fireforce",
        deck_ext: "deck",
        card_file: "cards.csv",
        arena_decks: DECKS,
        formats: &["Strategy", "Blitz Shield"],
        filler: "#filler (a vanilla Unit: cost 0, power 0, no Flame; no card file can name it)",
        lang: Some(&super::dsl::VOCAB),
        text_columns: &[("effect", ""), ("trigger", "life: ")],
    };
    /// Card statistics and tuning: every capability.
    const CAPS: crate::core::def::Capabilities = crate::core::def::Capabilities::ALL;
    type Cards = CardDb;
    type Deck = FfDeck;
    const DEFAULT_PACK: &'static str = "nonflame=7,flame=1";

    fn bundled_cards() -> CardDb {
        super::bundled_cards()
    }

    fn parse_cards(text: &str, file: &str) -> Result<CardDb, InputError> {
        CardDb::parse(text, file)
    }

    fn is_card_file(text: &str) -> bool {
        crate::core::input::has_header(text, &super::cards::HEADER)
    }

    fn parse_deck(
        cards: &CardDb,
        text: &str,
        file: &str,
        name: &str,
    ) -> Result<FfDeck, InputErrors> {
        parse_deck(text, file, name, cards)
    }

    fn card_count(cards: &CardDb) -> usize {
        cards.cards.len()
    }

    /// In the main deck or the Flame deck, whichever holds the copies.
    fn replace(deck: &FfDeck, remove: u32, add: u32, copies: usize) -> Option<FfDeck> {
        use crate::core::def::replace_ids;
        let mut d = deck.clone();
        if let Some(main) = replace_ids(&deck.main, remove, add, copies) {
            d.main = main;
        } else {
            d.flame = replace_ids(&deck.flame, remove, add, copies)?;
        }
        Some(d)
    }

    /// F-DECK-2: a Blitz Shield deck holds only cards of its opened packs, which the deck file
    /// does not record.
    fn tunable_deck(deck: &FfDeck) -> Result<(), Reason> {
        if deck.format == Format::BlitzShield {
            return Err("a Blitz Shield deck may hold only the cards of its opened packs (F-DECK-2), which its deck file does not record: tune cannot tell which swaps are legal".into());
        }
        Ok(())
    }

    fn deck_file(cards: &CardDb, deck: &FfDeck, comment: &str) -> String {
        deck_text(cards, &deck.main, &deck.flame, deck.format, comment)
    }

    const TUNABLE: &'static [crate::core::def::Tunable] = &[
        crate::core::def::Tunable::new("cost", 1, 0, 10, false),
        crate::core::def::Tunable::new("power", 1000, 0, 20000, true),
        crate::core::def::Tunable::new("support", 1000, 0, 10000, true),
    ];

    fn deck_name(deck: &FfDeck) -> &str {
        &deck.name
    }

    fn deck_summary(deck: &FfDeck) -> String {
        format!(
            "{} format, {} cards + {} Flame cards",
            deck.format.name(),
            deck.main.len(),
            deck.flame.len()
        )
    }

    fn new_match(cards: &CardDb, decks: [&FfDeck; 2]) -> FireForceGame {
        FireForceGame::new(
            cards.clone(),
            [decks[0].main.clone(), decks[1].main.clone()],
            [decks[0].flame.clone(), decks[1].flame.clone()],
        )
    }

    fn content_hash(cards: &CardDb, decks: &[&FfDeck]) -> String {
        let mut parts = vec![format!("fireforce rules {RULES_VERSION}")];
        let row = |id: &CardId| {
            let c = cards.card(*id);
            format!(
                "{}|{}|{:?}|{}|{}|{}|{}|{}|{}|{}|{}",
                c.number,
                c.name,
                c.ctype,
                c.cost,
                c.power,
                c.support,
                c.flame,
                cards.attr_list(c.attrs).join(";"),
                c.keywords.names().collect::<Vec<_>>().join(";"),
                c.effect_text,
                c.trigger_text
            )
        };
        for d in decks {
            let mut v: Vec<String> = d.main.iter().map(row).collect();
            v.sort();
            parts.extend(v);
            parts.push("[flame]".into());
            let mut v: Vec<String> = d.flame.iter().map(row).collect();
            v.sort();
            parts.extend(v);
        }
        crate::core::content_hash(parts.iter().map(String::as_str))
    }

    fn deck_cards(deck: &FfDeck) -> Vec<(u32, usize)> {
        crate::core::def::distinct_with_copies(deck.main.iter().map(|&c| u32::from(c)))
    }

    fn card_name(cards: &CardDb, id: u32) -> String {
        let c = cards.card(id as CardId);
        format!("{} [{}]", c.name, c.number)
    }

    /// Its type (Unit, Event, Flame) and its cost.
    fn card_class(cards: &CardDb, id: u32) -> Option<(&'static str, i64)> {
        let c = cards.card(id as CardId);
        let t = match c.ctype {
            CardType::Unit => "unit",
            CardType::Event => "event",
            CardType::Flame => "flame",
        };
        Some((t, i64::from(c.cost)))
    }

    /// One copy of a main-deck card replaced by the filler: a vanilla Unit of cost 0 and power 0,
    /// numbered so that no card file can name it (numbers have no `#`).
    fn ablate(cards: &mut CardDb, deck: &FfDeck, id: u32) -> FfDeck {
        const FILLER: &str = "#filler";
        let f = match cards.cards.iter().position(|c| c.number == FILLER) {
            Some(f) => f as CardId,
            None => {
                cards.cards.push(super::cards::Card {
                    number: FILLER.into(),
                    name: FILLER.into(),
                    ctype: CardType::Unit,
                    cost: 0,
                    power: 0,
                    support: 0,
                    flame: false,
                    attrs: 0,
                    keywords: Keywords::default(),
                    abilities: Vec::new(),
                    statics: Vec::new(),
                    cant: Default::default(),
                    life_trigger: None,
                    effect_text: String::new(),
                    trigger_text: String::new(),
                    on: 0,
                    gated: 0,
                });
                cards.derive();
                (cards.cards.len() - 1) as CardId
            }
        };
        let mut d = deck.clone();
        if let Some(k) = d.main.iter().position(|&c| u32::from(c) == id) {
            d.main[k] = f;
        }
        d
    }

    fn match_cards(&self) -> &Self::Cards {
        &self.db
    }

    fn match_deck(&self, seat: Seat) -> Vec<u32> {
        self.main[seat.index()]
            .iter()
            .map(|&c| u32::from(c))
            .chain(self.flame[seat.index()].iter().map(|&c| u32::from(c)))
            .collect()
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, Reason> {
        FireForceGame::parse_action(self, s, text)
    }

    fn narrate(
        &self,
        before: &State,
        seat: Seat,
        a: Action,
        after: &State,
        viewer: Viewer,
    ) -> Vec<String> {
        FireForceGame::narrate(self, before, seat, a, after, viewer)
    }

    fn log_start(&self, s: &State, first: Seat) -> Vec<String> {
        vec![
            format!(
                "{first} goes first (F-SETUP-4); {} redraws or keeps first (F-SETUP-6).",
                first
            ),
            format!(
                "Flame decks: P1 {}; P2 {}",
                self.sorted_names(s, Seat::P1, s.p[0].flame_deck).join(", "),
                self.sorted_names(s, Seat::P2, s.p[1].flame_deck).join(", ")
            ),
        ]
    }

    fn render(&self, s: &State, me: Seat) -> String {
        let mut t = format!(
            "--- turn {} · {} to act ({}) · you are {me} ---\n",
            s.turn,
            s.chooser,
            Self::step_label(s)
        );
        for q in [me.other(), me] {
            let p = s.pl(q);
            let who = if q == me { "you" } else { "opponent" };
            let _ = writeln!(
                t,
                "{q} ({who}): Life {} · deck {} · hand {} · Flame deck: {}",
                p.life_len,
                p.deck_len,
                p.hand.count_ones(),
                self.sorted_names(s, q, p.flame_deck).join(", ")
            );
            let units: Vec<String> = Bits(p.units()).map(|u| self.unit_label(s, q, u)).collect();
            let or_none = |v: Vec<String>, sep: &str| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(sep)
                }
            };
            let _ = writeln!(t, "  Units: {}", or_none(units, " | "));
            let flames: Vec<String> = Bits(p.flame_cards())
                .map(|i| self.flame_label(s, q, i))
                .collect();
            let _ = writeln!(
                t,
                "  Flame ({} with Flame): {}",
                self.with_flame(s, q).count_ones(),
                or_none(flames, " | ")
            );
            let _ = writeln!(
                t,
                "  THE ADOLLA: {}",
                or_none(self.sorted_names(s, q, p.adolla), ", ")
            );
        }
        let hand: Vec<String> = Bits(s.pl(me).hand)
            .map(|i| {
                let c = self.card_of(s, me, i);
                format!(
                    "{} ({:?} {})",
                    self.card_label(s.pl(me).card[i as usize]),
                    c.ctype,
                    c.cost
                )
            })
            .collect();
        let _ = writeln!(t, "your hand: {}", hand.join(", "));
        // F-INFO-6: the cards of the opponent's hand this seat knows, sorted (nothing of their
        // slots shows).
        let o = s.pl(me.other());
        let known = o.hand & o.known[me.index()];
        if known != 0 {
            let _ = writeln!(
                t,
                "{} hand, known to you: {}",
                me.other(),
                self.sorted_names(s, me.other(), known).join(", ")
            );
        }
        // The abilities of every card in view, once each, in plain English (F-INFO-1: the
        // Scene, THE ADOLLA and the Flame decks are public; the own hand and the known cards of
        // the opponent's are the seat's to see).
        let mut seen: Vec<CardId> = Vec::new();
        for q in [me, me.other()] {
            let p = s.pl(q);
            let mut m = p.scene | p.adolla | p.flame_deck | (p.hand & p.known[me.index()]);
            if q == me {
                m |= p.hand;
            }
            for i in Bits(m) {
                let id = p.card[i as usize];
                let c = self.db.card(id);
                let has = !c.effect_text.is_empty() || !c.trigger_text.is_empty();
                if has && !seen.contains(&id) {
                    seen.push(id);
                }
            }
        }
        if !seen.is_empty() {
            t.push_str("abilities in view:\n");
            for id in seen {
                let c = self.db.card(id);
                let mut lines = super::dsl::english(&c.effect_text);
                if !c.trigger_text.is_empty() {
                    lines.extend(super::dsl::english(&format!("life: {}", c.trigger_text)));
                }
                let _ = writeln!(t, "  {}: {}", self.card_label(id), lines.join(" "));
            }
        }
        if s.battle.attacker != NONE {
            let _ = writeln!(
                t,
                "battle: {} ({}) attacks {}",
                self.card_ref(s, s.active, s.battle.attacker),
                self.power(s, s.active, s.battle.attacker),
                if s.battle.on_player {
                    s.active.other().to_string()
                } else if s.battle.target != NONE {
                    format!(
                        "{} ({})",
                        self.card_ref(s, s.active.other(), s.battle.target),
                        self.power(s, s.active.other(), s.battle.target)
                    )
                } else {
                    "—".into()
                }
            );
        }
        t
    }

    fn card_text(cards: &Self::Cards, query: &str) -> Result<String, Reason> {
        let id = cards.lookup(query).or_else(|e| {
            let q = norm(query);
            let hits: Vec<usize> = (0..cards.cards.len())
                .filter(|&i| norm(&cards.cards[i].name).contains(&q))
                .collect();
            match hits.as_slice() {
                [i] => Ok(*i as CardId),
                _ => Err(e),
            }
        })?;
        let c = cards.card(id);
        let mut t = format!("{} {} — {:?}", c.number, c.name, c.ctype);
        if c.ctype != CardType::Flame {
            let _ = write!(t, ", cost {}", c.cost);
        }
        if c.is_unit() {
            let _ = write!(t, ", power {}", c.power);
            if c.support > 0 {
                let _ = write!(t, ", support {}", c.support);
            }
        }
        if c.flame {
            t.push_str(", Flame");
        }
        let attrs = cards.attr_list(c.attrs);
        if !attrs.is_empty() {
            let _ = write!(t, " [{}]", attrs.join(", "));
        }
        let kw: Vec<&str> = c.keywords.names().collect();
        if !kw.is_empty() {
            let _ = write!(t, "\n  keywords: {}", kw.join(", "));
        }
        for line in super::dsl::english(&c.effect_text) {
            let _ = write!(t, "\n  {line}");
        }
        if !c.trigger_text.is_empty() {
            for line in super::dsl::english(&format!("life: {}", c.trigger_text)) {
                let _ = write!(t, "\n  {line}");
            }
        }
        if !c.effect_text.is_empty() {
            let _ = write!(t, "\n  card language: {}", c.effect_text);
        }
        if !c.trigger_text.is_empty() {
            let _ = write!(t, "\n  Life trigger (card language): {}", c.trigger_text);
        }
        Ok(t)
    }

    fn ending(&self, s: &State) -> String {
        let life = format!("Life P1 {}, P2 {}", s.p[0].life_len, s.p[1].life_len);
        match s.winner {
            None => format!("not over; {life}"),
            Some(Outcome::Draw) => format!("drawn; {life}"),
            Some(Outcome::Win(w)) if s.win_reason == 2 => format!(
                "{w} won: {}'s deck reached 0 cards (F-WIN-2); {life}",
                w.other()
            ),
            Some(Outcome::Win(w)) => format!(
                "{w} won: it dealt damage to {} with 0 Life cards (F-WIN-1); {life}",
                w.other()
            ),
        }
    }

    fn info_key(&self, s: &State, seat: Seat) -> String {
        let mut m = *s;
        for p in &mut m.p {
            for i in 0..p.card.len() {
                if p.known[seat.index()] & 1 << i == 0 {
                    p.card[i] = NONE;
                }
            }
        }
        m.seed = 0;
        // Decision F-MAIN-3's record of a long turn's positions is the referee's, not knowledge
        // (its hashes read hidden cards).
        m.seen = [0; super::state::LOOP_SEEN];
        m.seen_at = 0;
        format!("{seat}:{m:?}")
    }

    fn obs_layout(cards: &CardDb) -> ObsLayout {
        super::observe::layout(cards)
    }

    fn observe(&self, s: &State, seat: Seat, out: &mut ObsOut) {
        super::observe::observe(self, s, seat, out)
    }

    fn action_kinds(cards: &CardDb) -> Vec<ActionKind> {
        super::observe::kinds(cards)
    }

    fn action_code(&self, s: &State, a: Action) -> ActionCode {
        super::observe::code(self, s, a)
    }

    fn check_invariants(&self, s: &State) -> Result<(), Reason> {
        FireForceGame::check_invariants(self, s)
    }

    fn run_scenario(
        text: &str,
        file: &str,
        dir: &Path,
        cards: Option<CardDb>,
    ) -> Result<ScenarioReport, Error> {
        Ok(super::scenario::run(text, file, dir, cards)?)
    }

    /// F-DECK-2: `packs` packs (default 5 of 7 non-Flame cards and 1 Flame card, each card drawn
    /// uniformly among the pool's cards of its kind) make a Blitz Shield deck: 35 + 5.
    fn sealed(cards: &CardDb, packs: u64, pack: &str, seed: u64) -> Result<String, Error> {
        use rand::Rng;
        let (mut nonflame, mut flame) = (0u64, 0u64);
        for part in pack.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                Error::usage(format!(
                    "--pack: \"{part}\": expected nonflame=N or flame=N"
                ))
            })?;
            let v: u64 = parse_int(v.trim(), 0u64, 40)
                .map_err(|e| Error::usage(format!("--pack: {k}: {e}")))?;
            match k.trim().to_ascii_lowercase().as_str() {
                "nonflame" => nonflame = v,
                "flame" => flame = v,
                other => {
                    return Err(Error::usage(format!(
                        "--pack: unknown slot \"{}\" (nonflame, flame)",
                        excerpt(other)
                    )))
                }
            }
        }
        let (main_n, flame_n) = (packs * nonflame, packs * flame);
        if main_n != 35 || flame_n != 5 {
            return Err(Error::usage(format!(
                "{packs} packs of {pack} give {main_n} non-Flame and {flame_n} Flame cards; a Blitz Shield deck has 35 and 5 (F-DECK-2)"
            )));
        }
        let kinds = |flame: bool| -> Vec<CardId> {
            (0..cards.cards.len())
                .filter(|&i| {
                    (cards.cards[i].ctype == CardType::Flame) == flame
                        && !cards.cards[i].number.starts_with('#')
                })
                .map(|i| i as CardId)
                .collect()
        };
        let (pool_main, pool_flame) = (kinds(false), kinds(true));
        if pool_main.is_empty() || pool_flame.is_empty() {
            return Err(Error::usage(
                "the card file needs non-Flame and Flame cards for packs",
            ));
        }
        let mut rng = crate::core::rng_from_seed(seed);
        let main: Vec<CardId> = (0..main_n)
            .map(|_| pool_main[rng.gen_range(0..pool_main.len())])
            .collect();
        let flame: Vec<CardId> = (0..flame_n)
            .map(|_| pool_flame[rng.gen_range(0..pool_flame.len())])
            .collect();
        Ok(deck_text(
            cards,
            &main,
            &flame,
            Format::BlitzShield,
            &format!("Blitz Shield sealed pool: {packs} packs of {pack}, seed {seed} (F-DECK-2)"),
        ))
    }

    fn bench_match() -> Result<FireForceGame, Error> {
        let db = super::bundled_cards();
        let deck = |text: &str, name: &str| {
            parse_deck(text, name, name, &db).expect("the bundled decks are valid (tests)")
        };
        let a = deck(
            include_str!("../../../decks/fireforce/aggro_blitz.deck"),
            "aggro_blitz",
        );
        let b = deck(
            include_str!("../../../decks/fireforce/blocker_wall.deck"),
            "blocker_wall",
        );
        Ok(FireForceGame::new_match(&db, [&a, &b]))
    }
}
