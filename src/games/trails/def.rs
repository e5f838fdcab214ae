//! The Trails TCG as the command line sees it ([`GameDef`]): card file, decks, matches, text,
//! views, scenarios, sealed pools.

use super::cards::{CardDb, CardId, CardType};
use super::deck::{deck_text, parse_pack, sealed_pool, Deck, Format};
use super::engine::TrailsGame;
use super::scenario::{step_name, RunError, Scenario};
use super::state::{flag, Bits, Lid, State};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::{Error, InputError, InputErrors, Outcome, Reason, Seat};
use std::fmt::Write as _;
use std::path::Path;

/// The header line of a Trails card file.
const CARD_HEADER: &str = "id,name,sub_name,type,cost,str,def,orgs,icons,arts_cost,effect";

impl GameDef for TrailsGame {
    const INFO: GameInfo = GameInfo {
        name: "trails",
        title: "Trails TCG",
        rule_prefix: "T-",
        rules: "docs/rules.md",
        deck_dir: "decks/trails",
        deck_ext: "deck",
        card_file: "cards.csv",
        arena_decks: &["aggro", "control"],
        formats: &["Strategy", "Blitz Shield"],
        filler:
            "Blank Card / Filler (a UNIT no deck can deploy: it only serves as a homebase card)",
        lang: Some(&super::dsl::VOCAB),
        text_columns: &[("effect", "")],
    };
    const DEFAULT_PACK: &'static str = "UNIT=5,ITEM=1,EVENT=1,BASE=1";
    /// Card statistics and tuning: every capability.
    const CAPS: crate::core::def::Capabilities = crate::core::def::Capabilities::ALL;
    type Cards = CardDb;
    type Deck = Deck;

    fn bundled_cards() -> CardDb {
        super::bundled_cards()
    }

    fn parse_cards(text: &str, file: &str) -> Result<CardDb, InputError> {
        CardDb::parse(text, file).map_err(InputError::from)
    }

    fn is_card_file(text: &str) -> bool {
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.replace(' ', "").starts_with(CARD_HEADER))
    }

    fn parse_deck(cards: &CardDb, text: &str, file: &str, name: &str) -> Result<Deck, InputErrors> {
        Deck::parse(text, file, name, cards)
    }

    fn card_count(cards: &CardDb) -> usize {
        cards.len()
    }

    fn replace(deck: &Deck, remove: u32, add: u32, copies: usize) -> Option<Deck> {
        let mut d = deck.clone();
        d.cards = crate::core::def::replace_ids(&deck.cards, remove, add, copies)?;
        Some(d)
    }

    /// T-DECK-2: a Blitz Shield deck holds only cards of its opened packs, which the deck file
    /// does not record.
    fn tunable_deck(deck: &Deck) -> Result<(), Reason> {
        if deck.format == super::deck::Format::Blitz {
            return Err("a Blitz Shield deck may hold only the cards of its opened packs (T-DECK-2), which its deck file does not record: tune cannot tell which swaps are legal".into());
        }
        Ok(())
    }

    fn deck_file(cards: &CardDb, deck: &Deck, comment: &str) -> String {
        super::deck::deck_text(cards, &deck.cards, deck.format, comment)
    }

    const TUNABLE: &'static [crate::core::def::Tunable] = &[
        crate::core::def::Tunable::new("cost", 1, 0, 20, false),
        crate::core::def::Tunable::new("str", 1, 0, 99, true),
        crate::core::def::Tunable::new("def", 1, 0, 99, true),
    ];

    fn deck_name(deck: &Deck) -> &str {
        &deck.name
    }

    fn deck_summary(deck: &Deck) -> String {
        format!("{} format, {} cards", deck.format.name(), deck.cards.len())
    }

    fn new_match(cards: &CardDb, decks: [&Deck; 2]) -> TrailsGame {
        TrailsGame::new(
            cards.clone(),
            decks[0].cards.clone(),
            decks[1].cards.clone(),
        )
    }

    fn content_hash(cards: &CardDb, decks: &[&Deck]) -> String {
        let lists: Vec<&[CardId]> = decks.iter().map(|d| d.cards.as_slice()).collect();
        super::decks_content_hash(cards, &lists)
    }

    fn deck_cards(deck: &Deck) -> Vec<(u32, usize)> {
        crate::core::def::distinct_with_copies(deck.cards.iter().map(|&c| u32::from(c)))
    }

    fn card_name(cards: &CardDb, id: u32) -> String {
        cards.card(id as CardId).full_name()
    }

    /// Its type and its cost (CP for a UNIT or ITEM, EP for an EVENT, the level of a BASE).
    fn card_class(cards: &CardDb, id: u32) -> Option<(&'static str, i64)> {
        let c = cards.card(id as CardId);
        Some((c.ctype.name(), i64::from(c.cost)))
    }

    /// One copy replaced by `Blank Card / Filler` ([`CardDb::filler`]).
    fn ablate(cards: &mut CardDb, deck: &Deck, id: u32) -> Deck {
        let filler = cards.filler();
        let mut d = deck.clone();
        if let Some(k) = d.cards.iter().position(|&c| u32::from(c) == id) {
            d.cards[k] = filler;
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

    fn parse_action(&self, state: &State, text: &str) -> Result<super::Action, Reason> {
        TrailsGame::parse_action(self, state, text)
    }

    fn narrate(
        &self,
        before: &State,
        seat: Seat,
        action: super::Action,
        after: &State,
        viewer: Viewer,
    ) -> Vec<String> {
        let (reveal, seat_view) = match viewer {
            Viewer::All => (true, None),
            Viewer::Public => (false, None),
            Viewer::Seat(s) => (false, Some(s)),
        };
        TrailsGame::narrate(self, before, seat, action, after, reveal, seat_view)
    }

    fn log_start(&self, _s: &State, first: Seat) -> Vec<String> {
        vec![
            format!("{first} has the initiative on turn 1."),
            "-- mulligan --".into(),
        ]
    }

    fn render(&self, s: &State, me: Seat) -> String {
        let opp = me.other();
        let (p, o) = (s.pl(me), s.pl(opp));
        let hidden_hb = Bits(o.homebase)
            .filter(|&i| !o.has(i, flag::FACE_UP))
            .count();
        let up_hb: u64 = Bits(o.homebase)
            .filter(|&i| o.has(i, flag::FACE_UP))
            .fold(0, |m, i| m | (1 << i));
        let mut t = format!(
            "--- turn {} · {} · initiative {} · you are {me} ---\n",
            s.turn,
            step_name(s.step),
            s.initiative
        );
        let _ = writeln!(
            t,
            "{opp}: bond {} · deck {} · hand {} · homebase {} face down, {}",
            o.bond,
            o.deck_len,
            o.hand.count_ones(),
            hidden_hb,
            self.unit_line(s, opp, up_hb)
        );
        let _ = writeln!(
            t,
            "{opp} field: {}\n{me} field: {}\n{me} homebase: {}\n{me} hand: {}",
            self.unit_line(s, opp, o.field),
            self.unit_line(s, me, p.field),
            self.unit_line(s, me, p.homebase),
            self.unit_line(s, me, p.hand)
        );
        // T-STATE-3: each trail is public, face up and unordered: every card named, sorted.
        // T-INFO-3, T-INFO-6: the cards of the opponent's hand this seat knows, sorted (so
        // nothing of their slots shows).
        let names = |q: Seat, m: u64| {
            let mut v: Vec<String> = Bits(m)
                .map(|i| self.card_name(s.pl(q).card[i as usize]))
                .collect();
            v.sort();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        let _ = writeln!(
            t,
            "{opp} trail ({}): {}\n{me} trail ({}): {}",
            o.trail.count_ones(),
            names(opp, o.trail),
            p.trail.count_ones(),
            names(me, p.trail)
        );
        let known = o.hand & o.known[me.index()];
        if known != 0 {
            let _ = writeln!(t, "{opp} hand, known to you: {}", names(opp, known));
        }
        let _ = writeln!(
            t,
            "{me}: bond {} · deck {} · CP {} · EP available {}",
            p.bond,
            p.deck_len,
            p.cp,
            p.ep_available()
        );
        // The text of every card in view that has an effect, once each.
        let mut seen: Vec<Lid> = Vec::new();
        for (q, m) in [(me, p.hand | p.field | p.homebase), (opp, o.field | up_hb)] {
            for i in Bits(m) {
                let id = s.pl(q).card[i as usize];
                let c = self.card(id);
                if !c.text.is_empty() && !seen.contains(&id) {
                    seen.push(id);
                }
            }
        }
        if !seen.is_empty() {
            t.push_str("effects in view:\n");
            for id in seen {
                let c = self.card(id);
                let _ = writeln!(t, "  {}: {}", c.full_name(), c.text);
            }
        }
        // Decision T-REPL-1: a replacement being decided says what it would replace.
        if let (Some((q, i)), Some(c)) = (s.repl.unit.get(), s.queue.as_slice().first()) {
            let card = self.card(self.cursor_card(s, c));
            if card.abilities[c.ability as usize].trigger == super::cards::Trigger::Instead {
                let _ = writeln!(
                    t,
                    "deciding: {} would become stunned; instead, {}: {}",
                    self.card_ref(s, q, i),
                    card.full_name(),
                    card.text
                );
            }
        }
        t
    }

    fn card_text(cards: &Self::Cards, query: &str) -> Result<String, Reason> {
        let id = cards
            .lookup(query)
            .map_err(|e| Reason(format!("\"{}\": {e}", query.trim())))?;
        let c = cards.card(id);
        let mut t = format!("{} — {}", c.full_name(), c.ctype.name());
        let _ = match c.ctype {
            CardType::Event => write!(t, ", cost {} EP", c.cost),
            CardType::Base => write!(t, ", level {}", c.cost),
            _ => write!(t, ", cost {} CP", c.cost),
        };
        if c.ctype == CardType::Unit {
            let _ = write!(t, ", STR {} DEF {}", c.str, c.def);
        }
        let orgs = cards.org_names_of(c.orgs);
        if !orgs.is_empty() {
            let _ = write!(t, "\norganizations: {}", orgs.join(", "));
        }
        let icons: Vec<&str> = c.icons.names().collect();
        if !icons.is_empty() {
            let _ = write!(t, "\nicons: {}", icons.join(", "));
        }
        if let Some(a) = c.arts_cost {
            let _ = write!(t, "\narts cost: {a} EP");
        }
        if c.text.is_empty() {
            t.push_str("\n(no abilities)");
        }
        for line in super::dsl::english(&c.text) {
            let _ = write!(t, "\n{line}");
        }
        if !c.text.is_empty() {
            let _ = write!(t, "\ncard language: {}", c.text);
        }
        Ok(t)
    }

    /// A game ends by the cure phase's bond check when a bond is at 0 or below (T-CURE-1), or by
    /// a draw from an empty deck (T-WIN-3), which the state tells apart.
    fn ending(&self, s: &State) -> String {
        let bonds = format!("final bond P1 {}, P2 {}", s.p[0].bond, s.p[1].bond);
        let low = s.p.iter().any(|p| p.bond <= 0);
        match s.winner {
            None => format!("not over; {bonds}"),
            Some(Outcome::Draw) => format!("drawn; {bonds}"),
            Some(Outcome::Win(w)) => {
                let empty = s.pl(w.other()).deck_len == 0;
                match (low, empty) {
                    (true, false) => format!("{w} won the bond check (T-CURE-1); {bonds}"),
                    (false, true) => format!(
                        "{w} won: {} had to draw from an empty deck (T-WIN-3); {bonds}",
                        w.other()
                    ),
                    _ => format!(
                        "{w} won ({}'s deck is empty and a bond is at 0 or below); {bonds}",
                        w.other()
                    ),
                }
            }
        }
    }

    /// The state with every card identity `seat` does not know blanked (and the masks derived
    /// from identities restricted to what it knows): the order of unknown instances in a deck,
    /// which instance numbers carry, is random (T-INFO-4) and says nothing.
    fn info_key(&self, state: &State, seat: Seat) -> String {
        let mut m = *state;
        for q in Seat::ALL {
            let p = m.pl_mut(q);
            let known = p.known[seat.index()];
            for i in 0..p.card.len() {
                if known & (1u64 << i) == 0 {
                    p.card[i] = Lid::MAX;
                }
            }
            p.kinds.play &= known;
            p.kinds.craft &= known;
            p.kinds.unit &= known;
        }
        // The seed of the shuffles to come (`search`) is known to no player: determinization draws
        // it anew, so it is no part of what a seat knows.
        m.seed = 0;
        format!("{seat}:{m:?}")
    }

    fn obs_layout(cards: &CardDb) -> crate::core::tensor::ObsLayout {
        super::observe::layout(cards)
    }

    fn observe(&self, s: &State, seat: Seat, out: &mut crate::core::tensor::ObsOut) {
        super::observe::observe(self, s, seat, out)
    }

    fn action_kinds(cards: &CardDb) -> Vec<crate::core::tensor::ActionKind> {
        super::observe::kinds(cards)
    }

    fn action_code(&self, s: &State, a: super::Action) -> crate::core::tensor::ActionCode {
        super::observe::code(self, s, a)
    }

    fn check_invariants(&self, state: &State) -> Result<(), Reason> {
        TrailsGame::check_invariants(self, state)
    }

    fn run_scenario(
        text: &str,
        file: &str,
        dir: &Path,
        cards: Option<CardDb>,
    ) -> Result<ScenarioReport, Error> {
        // The generic `game:` line is the command line's; the Trails format does not know it.
        // It is blanked, so line numbers stay those of the file.
        let text: String = text
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("game:") {
                    ""
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let db = match (cards, super::scenario::cards_line(&text)) {
            (Some(c), _) => c,
            (None, Some(rel)) => CardDb::load(&dir.join(rel)).map_err(InputError::from)?,
            (None, None) => super::bundled_cards(),
        };
        let sc = Scenario::parse(&text, file, db)?;
        let (state, illegal) = sc.run();
        let failed = if illegal.is_none() {
            sc.failures(&state)
        } else {
            Vec::new()
        };
        #[derive(serde::Serialize)]
        struct Checked<'a> {
            checked: usize,
            failed: &'a [String],
        }
        #[derive(serde::Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            view: super::scenario::StateView,
            #[serde(skip_serializing_if = "Option::is_none")]
            expect: Option<Checked<'a>>,
        }
        let out = Out {
            view: sc.game.view(&state),
            expect: (!sc.expects.is_empty() && illegal.is_none()).then_some(Checked {
                checked: sc.expects.len(),
                failed: &failed,
            }),
        };
        let json = serde_json::to_string_pretty(&out).expect("a view of plain fields serializes");
        let illegal = illegal.map(
            |RunError::Illegal {
                 index,
                 line,
                 text,
                 legal,
             }| {
                format!(
                    "{file}:{line}: action {index} \"{}\" is illegal; legal actions: {}",
                    crate::core::input::excerpt(&text),
                    legal.join(" | ")
                )
            },
        );
        Ok(ScenarioReport {
            json,
            illegal,
            failed,
        })
    }

    /// T-DECK-2: a Blitz Shield pool from random packs.
    fn sealed(cards: &CardDb, packs: u64, pack: &str, seed: u64) -> Result<String, Error> {
        let slots = parse_pack(pack).map_err(|e| Error::usage(format!("--pack: {e}")))?;
        let mut rng = crate::core::rng_from_seed(seed);
        let pool = sealed_pool(cards, packs, &slots, &mut rng).map_err(Error::usage)?;
        let format = if pool.len() == Format::Blitz.size() {
            Format::Blitz
        } else {
            Format::Strategy
        };
        Ok(deck_text(
            cards,
            &pool,
            format,
            &format!(
                "Sealed pool: {packs} packs of {pack}, seed {seed} ({} cards)",
                pool.len()
            ),
        ))
    }

    /// The bundled aggro and control decks.
    fn bench_match() -> Result<TrailsGame, Error> {
        let db = super::bundled_cards();
        let deck = |text: &str, name: &str| {
            Deck::parse(text, name, name, &db).expect("the bundled decks are valid (tests)")
        };
        let a = deck(include_str!("../../../decks/trails/aggro.deck"), "aggro");
        let b = deck(
            include_str!("../../../decks/trails/control.deck"),
            "control",
        );
        Ok(TrailsGame::new(db.clone(), a.cards, b.cards))
    }
}

impl TrailsGame {
    /// The cards of `m` (instances of `q`) as a person reads them: names, costs in hand, STR/DEF
    /// and icons of UNITs, states.
    fn unit_line(&self, s: &State, q: Seat, m: u64) -> String {
        let p = s.pl(q);
        let items: Vec<String> = Bits(m)
            .map(|i| {
                let c = self.card(p.card[i as usize]);
                let in_hand = p.hand & (1 << i) != 0;
                let mut t = if in_hand {
                    self.card_name(p.card[i as usize])
                } else {
                    self.card_ref(s, q, i)
                };
                if in_hand {
                    let cost = match c.ctype {
                        CardType::Event => format!("{} EP", c.cost),
                        CardType::Base => format!("level {}", c.cost),
                        _ => format!("{} CP", c.cost),
                    };
                    let _ = write!(t, " ({} {cost})", c.ctype.name());
                }
                if c.ctype == CardType::Unit {
                    let (st, df) = self.stats(s, q, i);
                    let _ = write!(t, " STR {st} DEF {df}");
                    let icons: Vec<&str> = self.icons(s, q, i).names().collect();
                    if !icons.is_empty() {
                        let _ = write!(t, " [{}]", icons.join(", "));
                    }
                }
                let marks = self.state_marks(s, q, i);
                if !marks.is_empty() {
                    let _ = write!(t, " ({})", marks.join(", "));
                }
                t
            })
            .collect();
        if items.is_empty() {
            "—".into()
        } else {
            items.join(" · ")
        }
    }
}
