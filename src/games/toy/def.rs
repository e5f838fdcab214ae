//! High Card as the command line sees it: card file, decks, text, scenarios (`docs/toy.md`).

use super::{bits, CardId, Play, ToyCards, ToyDeck, ToyGame, ToyState, DECK_SIZE};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::input::{content_lines, excerpt, parse_int};
use crate::core::tensor::{ActionCode, ActionKind, ObsLayout, ObsOut};
use crate::core::{content_hash, Error, InputError, InputErrors, Outcome, Reason, Seat};
use std::fmt::Write as _;
use std::path::Path;

const HEADER: &str = "name,value";
/// The most cards of a card file (ids fit a byte, and card statistics' 64-card index).
const MAX_CARDS: usize = 64;
/// The longest card name.
const MAX_NAME: usize = 40;
/// The version of these rules, in the content hash.
const RULES_VERSION: u32 = 1;

const BUNDLED: &str = include_str!("../../../decks/toy/cards.csv");

impl GameDef for ToyGame {
    const INFO: GameInfo = GameInfo {
        name: "toy",
        title: "High Card (toy game)",
        rule_prefix: "X-",
        rules: "docs/toy.md",
        deck_dir: "decks/toy",
        deck_ext: "deck",
        card_file: "cards.csv",
        arena_decks: &["high", "low"],
        formats: &["8 cards"],
        filler: "#blank (value 0: it never wins a round; no card file can name it)",
        lang: None,
        text_columns: &[],
    };
    /// Card statistics and tuning: every capability.
    const CAPS: crate::core::def::Capabilities = crate::core::def::Capabilities::ALL;
    type Cards = ToyCards;
    type Deck = ToyDeck;

    fn bundled_cards() -> ToyCards {
        Self::parse_cards(BUNDLED, "decks/toy/cards.csv (bundled)")
            .expect("the bundled toy cards parse (tests)")
    }

    /// X-CARDS-1: a header `name,value`, then one card a line (`core::input::csv_rows`: `#` lines
    /// are comments); names unique (case-insensitive), values 1 to 99.
    fn parse_cards(text: &str, file: &str) -> Result<ToyCards, InputError> {
        let rows = crate::core::input::csv_rows(text, &["name", "value"])
            .map_err(|(n, column, msg)| InputError::new(file, n, format!("{column}: {msg}")))?;
        let mut c = ToyCards::default();
        for (n, rec) in rows {
            let (name, value) = (&rec[0], &rec[1]);
            if name.is_empty() || name.chars().count() > MAX_NAME {
                return Err(InputError::new(
                    file,
                    n,
                    format!("a card name has 1 to {MAX_NAME} characters"),
                ));
            }
            // Deck and scenario lines cut at `#` (comments) and split at `,`.
            if name.contains(['#', ',']) {
                return Err(InputError::new(
                    file,
                    n,
                    format!("\"{name}\": a card name has no '#' or ','"),
                ));
            }
            if c.lookup(name).is_some() {
                return Err(InputError::new(
                    file,
                    n,
                    format!("\"{name}\" is defined twice"),
                ));
            }
            let v: u8 = parse_int(value, 1, 99)
                .map_err(|e| InputError::new(file, n, format!("value: {e}")))?;
            if c.names.len() == MAX_CARDS {
                return Err(InputError::new(
                    file,
                    n,
                    format!("more than {MAX_CARDS} cards"),
                ));
            }
            c.names.push(name.to_string());
            c.values.push(v);
        }
        if c.names.is_empty() {
            return Err(InputError::new(file, 0, "no cards"));
        }
        Ok(c)
    }

    fn is_card_file(text: &str) -> bool {
        content_lines(text)
            .next()
            .is_some_and(|(_, h)| h.replace(' ', "") == HEADER)
    }

    /// X-DECK-1: `COUNT NAME` lines, exactly 8 cards.
    fn parse_deck(
        cards: &ToyCards,
        text: &str,
        file: &str,
        name: &str,
    ) -> Result<ToyDeck, InputErrors> {
        let file = file.to_string();
        let mut deck = ToyDeck {
            name: name.to_string(),
            cards: Vec::new(),
        };
        for (n, l) in content_lines(text) {
            let (count, name) = l.split_once(' ').unwrap_or((l, ""));
            let count = usize::from(
                parse_int(count, 1u8, DECK_SIZE as u8)
                    .map_err(|e| InputError::new(&file, n, format!("count: {e}")))?,
            );
            let id = cards.lookup(name).ok_or_else(|| {
                InputError::new(&file, n, format!("unknown card \"{}\"", excerpt(name)))
            })?;
            if deck.cards.len() + count > DECK_SIZE {
                return Err(
                    InputError::new(&file, n, format!("more than {DECK_SIZE} cards")).into(),
                );
            }
            deck.cards.extend(std::iter::repeat_n(id, count));
        }
        if deck.cards.len() != DECK_SIZE {
            return Err(InputError::new(
                &file,
                0,
                format!(
                    "{} cards; a deck has exactly {DECK_SIZE} (X-DECK-1)",
                    deck.cards.len()
                ),
            )
            .into());
        }
        Ok(deck)
    }

    fn card_count(cards: &ToyCards) -> usize {
        cards.names.len()
    }

    fn replace(deck: &ToyDeck, remove: u32, add: u32, copies: usize) -> Option<ToyDeck> {
        let cards = crate::core::def::replace_ids(&deck.cards, remove, add, copies)?;
        Some(ToyDeck {
            name: deck.name.clone(),
            cards,
        })
    }

    fn deck_file(cards: &ToyCards, deck: &ToyDeck, comment: &str) -> String {
        let lines = crate::core::def::deck_lines(deck.cards.iter().map(|&c| u32::from(c)), |id| {
            cards.names[id as usize].clone()
        });
        format!("# {comment}\n{lines}")
    }

    const TUNABLE: &'static [crate::core::def::Tunable] =
        &[crate::core::def::Tunable::new("value", 1, 1, 99, true)];

    fn deck_name(deck: &ToyDeck) -> &str {
        &deck.name
    }

    fn new_match(cards: &ToyCards, decks: [&ToyDeck; 2]) -> ToyGame {
        ToyGame {
            cards: cards.clone(),
            decks: [decks[0].cards.clone(), decks[1].cards.clone()],
        }
    }

    fn content_hash(cards: &ToyCards, decks: &[&ToyDeck]) -> String {
        let mut parts = vec![format!("toy rules {RULES_VERSION}")];
        for d in decks {
            let mut v: Vec<String> = d
                .cards
                .iter()
                .map(|&c| format!("{}|{}", cards.names[c as usize], cards.values[c as usize]))
                .collect();
            v.sort();
            parts.extend(v);
        }
        content_hash(parts.iter().map(String::as_str))
    }

    fn deck_cards(deck: &ToyDeck) -> Vec<(u32, usize)> {
        crate::core::def::distinct_with_copies(deck.cards.iter().map(|&c| u32::from(c)))
    }

    fn card_name(cards: &ToyCards, id: u32) -> String {
        cards.names[id as usize].clone()
    }

    /// One copy replaced by the filler: a card of value 0, named so that no card file can name it
    /// (card names have no `#`, X-CARDS-1), added once.
    fn ablate(cards: &mut ToyCards, deck: &ToyDeck, id: u32) -> ToyDeck {
        const FILLER: &str = "#blank";
        let blank = match cards.names.iter().position(|n| n == FILLER) {
            Some(b) => b as CardId,
            None => {
                cards.names.push(FILLER.into());
                cards.values.push(0);
                (cards.names.len() - 1) as CardId
            }
        };
        let mut d = deck.clone();
        if let Some(k) = d.cards.iter().position(|&c| u32::from(c) == id) {
            d.cards[k] = blank;
        }
        d
    }

    fn match_cards(&self) -> &Self::Cards {
        &self.cards
    }

    fn match_deck(&self, seat: Seat) -> Vec<u32> {
        self.decks[seat.index()]
            .iter()
            .map(|&c| u32::from(c))
            .collect()
    }

    fn parse_action(&self, s: &ToyState, text: &str) -> Result<Play, Reason> {
        let name = text
            .trim()
            .strip_prefix("play ")
            .ok_or_else(|| format!("\"{}\": expected play NAME", excerpt(text)))?;
        let id = self
            .cards
            .lookup(name)
            .ok_or_else(|| format!("unknown card \"{}\"", excerpt(name)))?;
        let mut legal = crate::core::ActionList::new();
        crate::core::Game::legal_actions(self, s, &mut legal);
        if legal.contains(&Play(id)) {
            Ok(Play(id))
        } else {
            Err(format!("{} is not in hand", self.cards.names[id as usize]).into())
        }
    }

    fn narrate(
        &self,
        before: &ToyState,
        seat: Seat,
        a: Play,
        after: &ToyState,
        viewer: Viewer,
    ) -> Vec<String> {
        let name = |id: CardId| self.cards.names[id as usize].clone();
        let mut out = Vec::new();
        if before.led.is_none() {
            let card = if viewer.sees(seat) {
                name(a.0)
            } else {
                "a card".into()
            };
            out.push(format!("{seat}: leads {card} face down"));
            return out;
        }
        let leader = before.leader;
        let led = before.p[leader.index()].card[before.led.expect("answered a lead") as usize];
        let (lv, av) = (self.value(led), self.value(a.0));
        let result = if lv > av {
            format!("{leader} scores")
        } else if av > lv {
            format!("{seat} scores")
        } else {
            "tie, nobody scores".into()
        };
        out.push(format!(
            "{seat}: answers {}; {leader}'s lead was {} — {result} (X-ROUND-2); points P1 {}, P2 {}",
            name(a.0),
            name(led),
            after.p[0].points,
            after.p[1].points
        ));
        out
    }

    fn render(&self, s: &ToyState, me: Seat) -> String {
        let p = &s.p[me.index()];
        let o = &s.p[me.other().index()];
        let hand: Vec<String> = bits(p.hand)
            .map(|i| {
                let c = p.card[i as usize];
                format!("{} ({})", self.cards.names[c as usize], self.value(c))
            })
            .collect();
        let mut t = format!(
            "--- round {} · you are {me} · points {me} {}, {} {} ---\n",
            s.round,
            p.points,
            me.other(),
            o.points
        );
        let _ = writeln!(t, "your hand: {}", hand.join(", "));
        let _ = writeln!(
            t,
            "{}: hand {} · deck {}; your deck {}",
            me.other(),
            o.hand.count_ones(),
            o.deck_len,
            p.deck_len
        );
        match s.led {
            Some(i) if s.leader == me => {
                let _ = writeln!(
                    t,
                    "you led {} face down",
                    self.cards.names[p.card[i as usize] as usize]
                );
            }
            Some(_) => {
                let _ = writeln!(t, "{} led a card face down", s.leader);
            }
            None => {}
        }
        t
    }

    fn card_text(cards: &Self::Cards, query: &str) -> Result<String, Reason> {
        let id = cards
            .lookup(query)
            .ok_or_else(|| format!("unknown card \"{}\"", excerpt(query)))?;
        Ok(format!(
            "{} — value {}",
            cards.names[id as usize], cards.values[id as usize]
        ))
    }

    fn ending(&self, s: &ToyState) -> String {
        let pts = format!("points P1 {}, P2 {}", s.p[0].points, s.p[1].points);
        match s.winner {
            None => format!("not over; {pts}"),
            Some(Outcome::Draw) => format!("drawn on points (X-END-1); {pts}"),
            Some(Outcome::Win(w)) => format!("{w} won on points (X-END-1); {pts}"),
        }
    }

    fn info_key(&self, s: &ToyState, seat: Seat) -> String {
        let mut m = *s;
        for p in &mut m.p {
            for i in 0..DECK_SIZE {
                if p.known[seat.index()] & (1 << i) == 0 {
                    p.card[i] = CardId::MAX;
                }
            }
        }
        format!("{seat}:{m:?}")
    }

    fn obs_layout(cards: &ToyCards) -> ObsLayout {
        super::observe::layout(cards)
    }

    fn observe(&self, s: &ToyState, seat: Seat, out: &mut ObsOut) {
        super::observe::observe(self, s, seat, out)
    }

    fn action_kinds(cards: &ToyCards) -> Vec<ActionKind> {
        super::observe::kinds(cards)
    }

    fn action_code(&self, _s: &ToyState, a: Play) -> ActionCode {
        super::observe::code(a)
    }

    fn check_invariants(&self, s: &ToyState) -> Result<(), Reason> {
        for q in Seat::ALL {
            let p = &s.p[q.index()];
            let n = self.decks[q.index()].len();
            let all = ((1u32 << n) - 1) as u16;
            let mut deck = 0u16;
            for &i in &p.deck[..p.deck_len as usize] {
                if deck & (1 << i) != 0 {
                    return Err(format!("{q}: instance {i} twice in the deck").into());
                }
                deck |= 1 << i;
            }
            let led = match s.led {
                Some(i) if s.leader == q => 1u16 << i,
                _ => 0,
            };
            let zones = [deck, p.hand, p.used, led];
            let sum: u32 = zones.iter().map(|z| z.count_ones()).sum();
            if zones.iter().fold(0, |a, z| a | z) != all || sum != n as u32 {
                return Err(format!("{q}: the zones do not partition the instances").into());
            }
            if p.hand.count_ones() > super::HAND_SIZE {
                return Err(format!("{q}: {} cards in hand", p.hand.count_ones()).into());
            }
            if p.known[q.index()] & p.hand != p.hand || p.known[q.index()] & led != led {
                return Err(format!("{q}: does not know its own hand").into());
            }
            if p.known[q.other().index()] & (p.hand | deck | led) != 0 {
                return Err(format!("{q}: the opponent knows a hidden card").into());
            }
            // Determinization permutes the cards among instances: the multiset is what holds.
            if !crate::core::def::same_multiset(&p.card[..n], &self.decks[q.index()]) {
                return Err(format!("{q}: the cards are not the deck's").into());
            }
        }
        let played = u32::from(s.round - 1);
        if u32::from(s.p[0].points) + u32::from(s.p[1].points) > played {
            return Err("more points than rounds played".into());
        }
        Ok(())
    }

    /// The scenario format of `docs/toy.md`: `first:`, `P1:` and `P2:` (each deck, top first),
    /// `[actions]`, `[expect]` with `points: A B`, `winner: P1|P2|draw|none` and `rounds: N`.
    fn run_scenario(
        text: &str,
        file: &str,
        _dir: &Path,
        cards: Option<ToyCards>,
    ) -> Result<ScenarioReport, Error> {
        let cards = cards.unwrap_or_else(Self::bundled_cards);
        let mut first = Seat::P1;
        let mut decks: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
        let mut actions: Vec<(usize, String)> = Vec::new();
        let mut expects: Vec<(usize, String, String)> = Vec::new();
        let mut section = "";
        for (n, l) in content_lines(text) {
            if l.starts_with('[') {
                section = match l {
                    "[actions]" => "actions",
                    "[expect]" => "expect",
                    _ => {
                        return Err(InputError::new(
                            file,
                            n,
                            format!("unknown section {}", excerpt(l)),
                        )
                        .into())
                    }
                };
                continue;
            }
            match section {
                "actions" => actions.push((n, l.to_string())),
                _ => {
                    let (k, v) = l.split_once(':').ok_or_else(|| {
                        InputError::new(
                            file,
                            n,
                            format!("expected KEY: VALUE, found \"{}\"", excerpt(l)),
                        )
                    })?;
                    let (k, v) = (k.trim(), v.trim());
                    if section == "expect" {
                        expects.push((n, k.to_string(), v.to_string()));
                        continue;
                    }
                    match k {
                        "game" => {}
                        "first" => {
                            first = match v {
                                "P1" => Seat::P1,
                                "P2" => Seat::P2,
                                _ => return Err(InputError::new(file, n, "first: P1 or P2").into()),
                            }
                        }
                        "P1" | "P2" => {
                            let seat = usize::from(k == "P2");
                            if !decks[seat].is_empty() {
                                return Err(InputError::new(
                                    file,
                                    n,
                                    format!("{k}: the deck is given twice"),
                                )
                                .into());
                            }
                            for name in v.split(',') {
                                let id = cards.lookup(name).ok_or_else(|| {
                                    InputError::new(
                                        file,
                                        n,
                                        format!("unknown card \"{}\"", excerpt(name.trim())),
                                    )
                                })?;
                                decks[seat].push(id);
                            }
                            if decks[seat].len() != DECK_SIZE {
                                return Err(InputError::new(
                                    file,
                                    n,
                                    format!("a deck has exactly {DECK_SIZE} cards (X-DECK-1)"),
                                )
                                .into());
                            }
                        }
                        _ => {
                            return Err(InputError::new(
                                file,
                                n,
                                format!("unknown key \"{}\"", excerpt(k)),
                            )
                            .into())
                        }
                    }
                }
            }
        }
        if decks.iter().any(Vec::is_empty) {
            return Err(InputError::new(file, 0, "both decks are needed (P1: …, P2: …)").into());
        }
        let game = ToyGame { cards, decks };
        let mut s = game.deal(first, [&game.decks[0], &game.decks[1]]);
        let mut illegal = None;
        for (k, (n, a)) in actions.iter().enumerate() {
            match game.parse_action(&s, a) {
                Ok(act) => {
                    crate::core::Game::apply(&game, &mut s, act);
                }
                Err(e) => {
                    illegal = Some(format!(
                        "{file}:{n}: action {} \"{}\" is illegal: {e}",
                        k + 1,
                        excerpt(a)
                    ));
                    break;
                }
            }
        }
        let mut failed = Vec::new();
        if illegal.is_none() {
            for (n, k, v) in &expects {
                let got = match k.as_str() {
                    "points" => format!("{} {}", s.p[0].points, s.p[1].points),
                    "winner" => match s.winner {
                        None => "none".into(),
                        Some(Outcome::Draw) => "draw".into(),
                        Some(Outcome::Win(w)) => w.to_string(),
                    },
                    "rounds" => (s.round - 1).to_string(),
                    _ => {
                        return Err(InputError::new(
                            file,
                            *n,
                            format!("unknown expectation \"{}\"", excerpt(k)),
                        )
                        .into())
                    }
                };
                if &got != v {
                    failed.push(format!("line {n}: {k}: expected {v}, found {got}"));
                }
            }
        }
        #[derive(serde::Serialize)]
        struct View {
            round: u8,
            leader: String,
            points: [u8; 2],
            hands: [Vec<String>; 2],
            winner: Option<String>,
            checked: usize,
            failed: Vec<String>,
        }
        let hands = [0, 1].map(|k| {
            bits(s.p[k].hand)
                .map(|i| game.cards.names[s.p[k].card[i as usize] as usize].clone())
                .collect()
        });
        let view = View {
            round: s.round,
            leader: s.leader.to_string(),
            points: [s.p[0].points, s.p[1].points],
            hands,
            winner: s.winner.map(|o| match o {
                Outcome::Draw => "draw".into(),
                Outcome::Win(w) => w.to_string(),
            }),
            checked: if illegal.is_none() { expects.len() } else { 0 },
            failed: failed.clone(),
        };
        Ok(ScenarioReport {
            json: serde_json::to_string_pretty(&view).expect("a view of plain fields serializes"),
            illegal,
            failed,
        })
    }

    /// The bench match, built into the binary: a descending ladder of ranks against four Fives
    /// and four Sixes (`bench` needs no deck file).
    fn bench_match() -> Result<ToyGame, crate::core::Error> {
        let cards = Self::bundled_cards();
        let deck = |names: &[&str]| -> Vec<CardId> {
            names
                .iter()
                .map(|n| cards.lookup(n).expect("a bundled card"))
                .collect()
        };
        let a = deck(&[
            "Nine", "Eight", "Seven", "Six", "Five", "Four", "Three", "Two",
        ]);
        let b = deck(&["Five", "Five", "Five", "Five", "Six", "Six", "Six", "Six"]);
        Ok(ToyGame {
            cards,
            decks: [a, b],
        })
    }
}
