//! The TMNT TCG as the command line sees it ([`GameDef`]): glue over deck files (`deck.rs`), the
//! action notation (`notation.rs`), logs (`narrate.rs`), invariants (`invariants.rs`) and
//! scenarios (`scenario.rs`); here the view of one seat and card text (`docs/rules-tmnt.md`,
//! `docs/cards.md`, `docs/scenario.md`).

use super::cards::{norm, CardDb, CardId, CardType, Kind};
use super::deck::{parse_deck, TmntDeck};
use super::state::{Bits, State, NONE};
use super::{Action, TmntGame, RULES_VERSION};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::{Error, InputError, InputErrors, Outcome, Reason, Seat};
use std::fmt::Write as _;
use std::path::Path;

impl TmntGame {
    /// The setup with the decks in the given order (top first), advanced to the first decision.
    pub fn setup_stacked(&self, first: Seat) -> State {
        let mut s = self.setup_with(0, first, false);
        self.advance(&mut s);
        s
    }
}

const DECKS: &[&str] = &[
    "starter_east",
    "starter_north",
    "mountain_brawlers",
    "wind_tempo",
    "forest_counter",
    "fire_burn",
];

impl GameDef for TmntGame {
    const INFO: GameInfo = GameInfo {
        name: "tmnt",
        title: "TMNT TCG",
        rule_prefix: "M-",
        rules: "docs/rules-tmnt.md",
        deck_dir: "decks/tmnt",
        deck_ext: "deck",
        card_file: "cards.csv",
        arena_decks: DECKS,
        formats: &["Standard"],
        filler:
            "#filler (a vanilla character of power 0 and no attribute; no card file can name it)",
        lang: Some(&super::dsl::VOCAB),
        text_columns: &[("effect", "")],
    };
    /// Card statistics, tuning and tensors: every capability.
    const CAPS: crate::core::def::Capabilities = crate::core::def::Capabilities::ALL;
    type Cards = CardDb;
    type Deck = TmntDeck;

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
    ) -> Result<TmntDeck, InputErrors> {
        parse_deck(text, file, name, cards)
    }

    fn card_count(cards: &CardDb) -> usize {
        cards.cards.len()
    }

    fn replace(deck: &TmntDeck, remove: u32, add: u32, copies: usize) -> Option<TmntDeck> {
        let cards = crate::core::def::replace_ids(&deck.cards, remove, add, copies)?;
        Some(TmntDeck {
            name: deck.name.clone(),
            cards,
        })
    }

    /// One line per card number, `COUNT NUMBER   # name`.
    fn deck_file(cards: &CardDb, deck: &TmntDeck, comment: &str) -> String {
        let lines = crate::core::def::deck_lines(deck.cards.iter().map(|&c| u32::from(c)), |id| {
            let c = &cards.cards[id as usize];
            format!("{}   # {}", c.number, c.name)
        });
        format!("# {comment}\n{lines}")
    }

    const TUNABLE: &'static [crate::core::def::Tunable] =
        &[crate::core::def::Tunable::new("power", 1, 0, 99, true)];

    fn deck_name(deck: &TmntDeck) -> &str {
        &deck.name
    }

    fn deck_summary(deck: &TmntDeck) -> String {
        format!("{} cards", deck.cards.len())
    }

    fn new_match(cards: &CardDb, decks: [&TmntDeck; 2]) -> TmntGame {
        let mut db = cards.clone();
        let ids: Vec<CardId> = decks.iter().flat_map(|d| d.cards.iter().copied()).collect();
        db.narrow_to(&ids);
        TmntGame {
            db,
            decks: [decks[0].cards.clone(), decks[1].cards.clone()],
        }
    }

    fn content_hash(cards: &CardDb, decks: &[&TmntDeck]) -> String {
        let mut parts = vec![format!("tmnt rules {RULES_VERSION}")];
        let row = |id: &CardId| {
            let c = cards.card(*id);
            let combo: Vec<&str> = c
                .combo
                .iter()
                .map(|&t| cards.titles[t as usize].as_str())
                .collect();
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}",
                c.number,
                c.name,
                c.ctype.name(),
                c.kind.name(),
                c.power,
                c.attr_name(),
                combo.join("/"),
                c.effect_text
            )
        };
        for d in decks {
            let mut v: Vec<String> = d.cards.iter().map(row).collect();
            v.sort();
            parts.extend(v);
            parts.push("[deck]".into());
        }
        crate::core::content_hash(parts.iter().map(String::as_str))
    }

    fn deck_cards(deck: &TmntDeck) -> Vec<(u32, usize)> {
        crate::core::def::distinct_with_copies(deck.cards.iter().map(|&c| u32::from(c)))
    }

    fn card_name(cards: &CardDb, id: u32) -> String {
        let c = cards.card(id as CardId);
        format!("{} [{}]", c.name, c.number)
    }

    /// Its type with its kind (an attack card's normal / forceful / counter, an Event's <Play> /
    /// <Flip>; M-DECK-4) and its power: TMNT cards have no cost (M-DECK-4), and power is what
    /// sets a character or an attack card apart from its like cards.
    fn card_class(cards: &CardDb, id: u32) -> Option<(&'static str, i64)> {
        let c = cards.card(id as CardId);
        let label = match (c.ctype, c.kind) {
            (CardType::Character, _) => "character",
            (CardType::Item, _) => "item",
            (CardType::Attack, Kind::Forceful) => "attack forceful",
            (CardType::Attack, Kind::Counter) => "attack counter",
            (CardType::Attack, Kind::ForcefulCounter) => "attack forceful_counter",
            (CardType::Attack, _) => "attack normal",
            (CardType::Event, Kind::Flip) => "event flip",
            (CardType::Event, Kind::PlayFlip) => "event play_flip",
            (CardType::Event, _) => "event play",
        };
        Some((label, i64::from(c.power)))
    }

    /// One copy of a card replaced by the filler: a vanilla character of power 0 with no
    /// attribute (so it never blocks an attack card's attribute, M-ATK-3), numbered so that no
    /// card file can name it (numbers have no `#`).
    fn ablate(cards: &mut CardDb, deck: &TmntDeck, id: u32) -> TmntDeck {
        const FILLER: &str = "#filler";
        let f = match cards.cards.iter().position(|c| c.number == FILLER) {
            Some(f) => f as CardId,
            None => {
                cards.titles.push(FILLER.into());
                cards.cards.push(super::cards::Card {
                    number: FILLER.into(),
                    name: FILLER.into(),
                    title: (cards.titles.len() - 1) as u8,
                    ctype: CardType::Character,
                    kind: Kind::None,
                    power: 0,
                    attr: super::cards::NO_ATTR,
                    combo: Vec::new(),
                    ..super::cards::Card::blank()
                });
                cards.derive_sets();
                (cards.cards.len() - 1) as CardId
            }
        };
        let mut d = deck.clone();
        if let Some(k) = d.cards.iter().position(|&c| u32::from(c) == id) {
            d.cards[k] = f;
        }
        d
    }

    fn match_cards(&self) -> &Self::Cards {
        &self.db
    }

    fn match_deck(&self, seat: Seat) -> Vec<u32> {
        self.decks[seat.index()]
            .iter()
            .map(|&c| u32::from(c))
            .collect()
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, Reason> {
        crate::core::def::action_by_text(self, s, text)
    }

    fn narrate(
        &self,
        before: &State,
        seat: Seat,
        a: Action,
        after: &State,
        viewer: Viewer,
    ) -> Vec<String> {
        TmntGame::narrate(self, before, seat, a, after, viewer)
    }

    fn log_start(&self, s: &State, first: Seat) -> Vec<String> {
        // What happened before the first decision: the deal again from the same cards (instance
        // i is the i-th card from the top), then the difference to `s`.
        let n = |q: usize| usize::from(s.p[q].n);
        let dealt = self.deal(
            [&s.p[0].card[..n(0)], &s.p[1].card[..n(1)]],
            0,
            first,
            false,
        );
        let mut v = vec![
            format!("{first} goes first (M-SETUP-1) and skips its first Adjust phase (M-ADJ-2)."),
            format!(
                "Each player drew 5 and set 4 face-down Block cards (M-SETUP-2); decks {} · {}.",
                s.p[0].deck_len, s.p[1].deck_len
            ),
        ];
        v.extend(self.changes(&dealt, s, Viewer::Public, [0, 0]));
        v
    }

    fn render(&self, s: &State, me: Seat) -> String {
        let mut t = format!(
            "--- turn {} · {} to act ({}) · you are {me} ---\n",
            s.turn,
            s.chooser,
            s.step.name()
        );
        for q in [me.other(), me] {
            let p = s.pl(q);
            let who = if q == me { "you" } else { "opponent" };
            let _ = writeln!(
                t,
                "{q} ({who}): deck {} · hand {} · Trash {}",
                p.deck_len,
                p.hand_len(),
                p.trash.count_ones()
            );
            let _ = writeln!(t, "  Block Zones: {}", self.blocks_label(s, q, q == me));
            let _ = writeln!(t, "  Attack Zone: {}", self.attack_zone_label(s, q));
            // M-INFO-1: the Trashes are public: every card named, sorted.
            let trash = self.sorted_names(s, q, p.trash);
            let _ = writeln!(
                t,
                "  Trash: {}",
                if trash.is_empty() {
                    "none".into()
                } else {
                    trash.join(", ")
                }
            );
            // M-INFO-2, M-INFO-5: the cards of the opponent's hand this seat knows, sorted.
            if q != me && p.hand & p.known[me.index()] != 0 {
                let known = self.sorted_names(s, q, p.hand & p.known[me.index()]);
                let _ = writeln!(t, "  hand, known to you: {}", known.join(", "));
            }
            let items = self.sorted_names(s, q, p.items);
            let _ = writeln!(
                t,
                "  Items: {}",
                if items.is_empty() {
                    "none".into()
                } else {
                    items.join(", ")
                }
            );
        }
        let hand: Vec<String> = Bits(s.pl(me).hand)
            .map(|i| {
                let c = self.card_of(s, me, i);
                format!(
                    "{} ({})",
                    self.card_label(s.pl(me).card[i as usize]),
                    c.describe()
                )
            })
            .collect();
        let _ = writeln!(t, "your hand: {}", hand.join(", "));
        // The text of every card in view that has one, once each, in plain English: the hand,
        // the own Block cards, both players' face-up Block cards, Attack Zones, Item Zones and
        // Trashes, and the known cards of the opponent's hand.
        let mut seen: Vec<CardId> = Vec::new();
        for q in [me, me.other()] {
            let p = s.pl(q);
            let mut m = p.up | p.items | p.trash | (p.hand & p.known[me.index()]);
            for &i in p.attack_zone() {
                m |= 1 << i;
            }
            if q == me {
                m |= p.hand | p.blocks_mask();
            }
            for i in Bits(m) {
                let id = p.card[i as usize];
                if !self.db.card(id).effect_text.is_empty() && !seen.contains(&id) {
                    seen.push(id);
                }
            }
        }
        if !seen.is_empty() {
            t.push_str("texts in view:\n");
            for id in seen {
                let lines = super::dsl::english(&self.db.card(id).effect_text);
                let _ = writeln!(t, "  {}: {}", self.card_label(id), lines.join(" "));
            }
        }
        if s.pl(s.active).attack_len > 0 || s.pl(s.active.other()).attack_len > 0 {
            let (total, counter) = self.attack_powers(s);
            let _ = writeln!(t, "attack: total power {total}, counter power {counter}");
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
        let mut t = format!("{} {} — {}", c.number, c.name, c.describe());
        if !c.combo.is_empty() {
            let combo: Vec<&str> = c
                .combo
                .iter()
                .filter_map(|&k| cards.cards.iter().find(|x| x.title == k))
                .map(|x| x.name.as_str())
                .collect();
            let _ = write!(t, "\n  combo: {}", combo.join(" / "));
        }
        for line in super::dsl::english(&c.effect_text) {
            let _ = write!(t, "\n  {line}");
        }
        if !c.effect_text.is_empty() {
            let _ = write!(t, "\n  card language: {}", c.effect_text);
        }
        Ok(t)
    }

    fn ending(&self, s: &State) -> String {
        let decks = format!("decks P1 {}, P2 {}", s.p[0].deck_len, s.p[1].deck_len);
        match s.winner {
            None => format!("not over; {decks}"),
            Some(Outcome::Draw) => format!("drawn; {decks}"),
            Some(Outcome::Win(w)) => format!(
                "{w} won on turn {}: {}'s deck ran out (M-WIN-1, M-WIN-2); {decks}",
                s.turn,
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
        // M-SHUF-1: nobody knows the outcome of a later shuffle.
        m.rng = 0;
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
        super::observe::code(s, a)
    }

    fn check_invariants(&self, s: &State) -> Result<(), Reason> {
        TmntGame::check_invariants(self, s)
    }

    fn run_scenario(
        text: &str,
        file: &str,
        dir: &Path,
        cards: Option<CardDb>,
    ) -> Result<ScenarioReport, Error> {
        Ok(super::scenario::run(text, file, dir, cards)?)
    }

    fn bench_match() -> Result<TmntGame, Error> {
        let db = super::bundled_cards();
        let deck = |text: &str, name: &str| {
            parse_deck(text, name, name, &db).expect("the bundled decks are valid (tests)")
        };
        let a = deck(
            include_str!("../../../decks/tmnt/starter_north.deck"),
            "starter_north",
        );
        let b = deck(
            include_str!("../../../decks/tmnt/starter_east.deck"),
            "starter_east",
        );
        Ok(TmntGame::new_match(&db, [&a, &b]))
    }
}
