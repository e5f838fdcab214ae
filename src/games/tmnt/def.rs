//! The TMNT TCG as the command line sees it: deck files (M-DECK-1), the action notation, logs,
//! the view of one seat, scenarios (`docs/rules-tmnt.md`, `docs/cards.md`, `docs/scenario.md`).

use super::cards::{norm, CardDb, CardId, CardType, Dest, Kind};
use super::state::{Bits, Pick, State, Step, NONE, ZONES};
use super::{Action, TmntGame, RULES_VERSION};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::input::{content_lines, parse_int};
use crate::core::{Outcome, Seat};
use std::fmt::Write as _;
use std::path::Path;

/// One player's deck.
#[derive(Clone, Debug)]
pub struct TmntDeck {
    pub name: String,
    pub cards: Vec<CardId>,
}

/// M-DECK-1: the deck size and the most cards of one title.
pub const DECK_SIZE: usize = 40;
pub const MAX_TITLE: usize = 3;

/// Parses a deck file's text: every problem as `file:line: reason`.
pub fn parse_deck(text: &str, file: &str, name: &str, db: &CardDb) -> Result<TmntDeck, String> {
    let mut problems: Vec<String> = Vec::new();
    let mut cards: Vec<CardId> = Vec::new();
    let mut first_line: Vec<(u8, usize)> = Vec::new();
    for (n, l) in content_lines(text) {
        if problems.len() >= 50 {
            problems.push(format!("{file}: stopped after 50 problems"));
            break;
        }
        let (count, key) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let count: usize = match parse_int(count, 1u8, 40).map(usize::from) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{file}:{n}: count {e}"));
                continue;
            }
        };
        let key = key.trim();
        if key.is_empty() {
            problems.push(format!("{file}:{n}: missing card after the count {count}"));
            continue;
        }
        let id = match db.lookup(key) {
            Ok(id) => id,
            Err(e) => {
                problems.push(format!("{file}:{n}: {e}"));
                continue;
            }
        };
        // Bounded memory: no deck holds more than 40 cards (M-DECK-1), whatever the file says.
        if cards.len() + count > DECK_SIZE {
            problems.push(format!(
                "{file}:{n}: more than {DECK_SIZE} cards (M-DECK-1)"
            ));
            continue;
        }
        let title = db.card(id).title;
        if !first_line.iter().any(|(t, _)| *t == title) {
            first_line.push((title, n));
        }
        cards.extend(std::iter::repeat_n(id, count));
    }
    for &(t, n) in &first_line {
        let copies = cards.iter().filter(|&&c| db.card(c).title == t).count();
        if copies > MAX_TITLE {
            let c = db
                .cards
                .iter()
                .find(|c| c.title == t)
                .expect("a title of a card");
            problems.push(format!(
                "{file}:{n}: {copies} cards titled \"{}\": a deck has at most {MAX_TITLE} of one title (M-DECK-1)",
                c.name
            ));
        }
    }
    if cards.len() != DECK_SIZE {
        problems.push(format!(
            "{file}: {} cards; a deck has exactly {DECK_SIZE} (M-DECK-1)",
            cards.len()
        ));
    }
    if problems.is_empty() {
        Ok(TmntDeck {
            name: name.to_string(),
            cards,
        })
    } else {
        Err(problems.join("\n"))
    }
}

impl TmntGame {
    /// The name a card is shown by: its title, with its number when another card has that title.
    pub fn card_label(&self, id: CardId) -> String {
        let c = self.db.card(id);
        if self.db.cards.iter().filter(|o| o.title == c.title).count() > 1 {
            format!("{} [{}]", c.name, c.number)
        } else {
            c.name.clone()
        }
    }

    /// Where `q`'s instance `i` is on the field: `block K`, `attack zone` or `items`.
    fn place_of(s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        match p.block.iter().position(|&x| x == i) {
            Some(z) => format!("block {}", z + 1),
            None if p.items & (1 << i) != 0 => "items".into(),
            None => "attack zone".into(),
        }
    }

    /// The notation of an action (`docs/scenario.md`, "TMNT scenarios"), as its chooser writes
    /// it.
    pub fn notation(&self, s: &State, a: Action) -> String {
        let me = s.chooser;
        let l = |id: CardId| self.card_label(id);
        match a {
            Action::Pass if s.step == Step::May => "no".into(),
            Action::Pass => "pass".into(),
            Action::Discard(id) => format!("discard {}", l(id)),
            Action::Set(id) => format!("set {}", l(id)),
            Action::Event(id) => format!("event {}", l(id)),
            Action::Item(id) => format!("item {}", l(id)),
            Action::Pay(id) => format!("pay {}", l(id)),
            Action::Attack(id) => format!("attack {}", l(id)),
            Action::Counter(id) => format!("counter {}", l(id)),
            Action::Keep(z) => {
                let i = s.pl(me).block[z as usize];
                format!("keep {} in block {}", l(s.pl(me).card[i as usize]), z + 1)
            }
            Action::Order(id) => format!("order {}", l(id)),
            Action::Choose(code) => {
                let q = Seat::from_index(usize::from(code >> 6));
                let i = code & 63;
                // A face-down card the chooser does not know is named by its zone only.
                let name = if s.pl(q).known[me.index()] & (1 << i) != 0 {
                    l(s.pl(q).card[i as usize])
                } else {
                    "face-down card".into()
                };
                format!(
                    "choose {} {name} in {}",
                    if q == me { "own" } else { "enemy" },
                    Self::place_of(s, q, i)
                )
            }
            Action::Salvage(id) => format!("salvage {}", l(id)),
            Action::Mode(k) => format!("option {}", k + 1),
            Action::Yes => "yes".into(),
            Action::Take(id) => {
                let verb = match s.pick {
                    Pick::Take {
                        dest: Dest::Bottom, ..
                    } => "bottom",
                    Pick::Take {
                        dest: Dest::Top, ..
                    } => "top",
                    Pick::Take {
                        dest: Dest::Trash, ..
                    } => "trash",
                    Pick::Take {
                        dest: Dest::Zone1Up,
                        ..
                    } => "put",
                    _ => "take",
                };
                format!("{verb} {}", l(id))
            }
            Action::Top(id) => format!("top {}", l(id)),
            Action::Activate(id) => format!("activate {}", l(id)),
        }
    }

    pub fn sorted_names(&self, s: &State, q: Seat, m: u64) -> Vec<String> {
        let mut v: Vec<String> = Bits(m)
            .map(|i| self.card_label(s.pl(q).card[i as usize]))
            .collect();
        v.sort();
        v
    }

    /// A face-up card as logs and views show it: its label, with its power when it has one.
    pub fn up_label(&self, s: &State, q: Seat, i: u8) -> String {
        let c = self.card_of(s, q, i);
        let name = self.card_label(s.pl(q).card[i as usize]);
        if matches!(c.ctype, CardType::Character | CardType::Attack) {
            format!("{name} {}", self.power(s, q, i))
        } else {
            name
        }
    }

    /// Block Zones 1..4 as `docs/scenario.md` writes them; face-down cards by name only when
    /// `sees`.
    pub fn blocks_label(&self, s: &State, q: Seat, sees: bool) -> String {
        let p = s.pl(q);
        (0..ZONES)
            .map(|z| {
                let i = p.block[z];
                if i == NONE {
                    "empty".to_string()
                } else if p.up & (1 << i) != 0 {
                    self.up_label(s, q, i)
                } else if sees {
                    format!("(down) {}", self.card_label(p.card[i as usize]))
                } else {
                    "(down)".to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    pub fn attack_zone_label(&self, s: &State, q: Seat) -> String {
        let v: Vec<String> = s
            .pl(q)
            .attack_zone()
            .iter()
            .map(|&i| self.up_label(s, q, i))
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    }

    /// What the engine did between two decisions, as log lines for `viewer`.
    fn changes(
        &self,
        before: &State,
        after: &State,
        viewer: Viewer,
        placed: [u64; 2],
    ) -> Vec<String> {
        let turns = after.turn != before.turn;
        let (att, def) = (before.active, before.active.other());
        let describe = |q: Seat, i: u8| {
            let c = self.card_of(after, q, i);
            let text = match c.flip_text() {
                Some(_) => format!(" — text: {}", c.effect_text),
                None => String::new(),
            };
            format!(
                "{} ({}){text}",
                self.card_label(c_id(after, q, i)),
                c.describe()
            )
        };
        // Block cards turned face up (M-FLIP-1, M-ATK-9), the turn player's first.
        let flips = |q: Seat| -> Vec<String> {
            let (b, a) = (before.pl(q), after.pl(q));
            let mut v = Vec::new();
            for z in 0..ZONES {
                let i = a.block[z];
                if i != NONE && a.up & (1 << i) != 0 && b.up & (1 << i) == 0 {
                    v.push(format!(
                        "  {q}'s Block Zone {} turns face up: {}",
                        z + 1,
                        describe(q, i)
                    ));
                }
            }
            // Turned face up and gone before the next decision: by the Flip phase (an Event or
            // Item on Block Zone 1), or by damage and then the Result step.
            for i in Bits(a.trash & b.blocks_mask() & !b.up) {
                let z = b.block.iter().position(|&x| x == i).unwrap_or(0);
                let c = self.card_of(after, q, i);
                let flip_phase = q == att
                    && z == 0
                    && !matches!(c.ctype, CardType::Character | CardType::Attack);
                v.push(format!(
                    "  {q}'s Block Zone {} turns face up: {}; to the Trash{}",
                    z + 1,
                    describe(q, i),
                    if flip_phase { " (M-FLIP-1)" } else { "" }
                ));
            }
            v
        };
        let mut out = flips(att);
        // M-ATK-8: the Forward step's powers and damage.
        if after.forwards != before.forwards {
            let dmg = (after.total - after.counter).max(0);
            out.push(format!(
                "  Forward step: {att}'s total power {} − {def}'s counter power {} = damage {dmg}{}",
                after.total,
                after.counter,
                if after.counter > after.total {
                    format!(
                        "; the counter is bigger by {} (M-ATK-12)",
                        after.counter - after.total
                    )
                } else {
                    String::new()
                }
            ));
        }
        out.extend(flips(def));
        let mut next = Vec::new();
        for q in [att, def] {
            let (b, a) = (before.pl(q), after.pl(q));
            // Out of the deck and not straight to the Trash: drawn (then perhaps discarded).
            // Cards the opponent now knows were shown on the way (`search`, the card taken by
            // `dig`): named for every viewer, and not "drawn".
            let left = b.deck_mask() & !a.deck_mask() & !a.milled;
            let shown = left & a.known[q.other().index()] & !b.known[q.other().index()];
            if shown != 0 {
                out.push(format!(
                    "  {q} takes {} from its deck, shown",
                    self.sorted_names(after, q, shown).join(", ")
                ));
            }
            let drawn = left & !shown;
            if drawn != 0 {
                // The new turn's header comes before the new turn player's Adjust draws.
                let out = if turns && q == after.active {
                    &mut next
                } else {
                    &mut out
                };
                let what = if viewer.sees(q) {
                    format!(": {}", self.sorted_names(after, q, drawn).join(", "))
                } else {
                    String::new()
                };
                out.push(format!(
                    "  {q} draws {} card{}{what}",
                    drawn.count_ones(),
                    if drawn.count_ones() == 1 { "" } else { "s" }
                ));
            }
            let milled = a.milled & !b.milled;
            if milled != 0 {
                out.push(format!(
                    "  {q} sends {} card{} from its deck to the Trash: {} (deck {})",
                    milled.count_ones(),
                    if milled.count_ones() == 1 { "" } else { "s" },
                    self.sorted_names(after, q, milled).join(", "),
                    a.deck_len
                ));
            }
            // The Event placed by this action is not discarded (M-EVT-1).
            let discarded = a.trash & b.hand & !placed[q.index()];
            if discarded != 0 {
                out.push(format!(
                    "  {q} discards {}",
                    self.sorted_names(after, q, discarded).join(", ")
                ));
            }
            let salvaged = a.hand & b.trash;
            if salvaged != 0 {
                out.push(format!(
                    "  {q} takes {} from its Trash into its hand",
                    self.sorted_names(after, q, salvaged).join(", ")
                ));
            }
            if a.bonus != b.bonus && !turns {
                out.push(format!("  {q}'s bonus this turn: {:+}", a.bonus));
            }
        }
        // M-ATK-13: face-up cards leave the field only in the Result step.
        for q in [att, def] {
            let (b, a) = (before.pl(q), after.pl(q));
            let zone = b.attack_zone().iter().fold(0, |m, &i| m | 1u64 << i);
            let from_field = a.trash & (b.up & b.blocks_mask() | zone);
            if from_field != 0 {
                out.push(format!(
                    "  Result step: {q}'s {} to the Trash (M-ATK-13)",
                    self.sorted_names(after, q, from_field).join(", ")
                ));
            }
        }
        if turns {
            out.push(format!(
                "--- turn {}: {} (decks {} · {}, hands {} · {}) ---",
                after.turn,
                after.active,
                after.p[0].deck_len,
                after.p[1].deck_len,
                after.p[0].hand_len(),
                after.p[1].hand_len()
            ));
        }
        out.extend(next);
        if after.winner.is_some() {
            out.push(self.ending(after));
        }
        out
    }

    /// The setup with the decks in the given order (top first), advanced to the first decision.
    pub fn setup_stacked(&self, first: Seat) -> State {
        let mut s = self.setup_with(0, first, false);
        self.advance(&mut s);
        s
    }
}

/// The card id of `q`'s instance `i`.
fn c_id(s: &State, q: Seat, i: u8) -> CardId {
    s.pl(q).card[i as usize]
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
    type Cards = CardDb;
    type Deck = TmntDeck;

    fn bundled_cards() -> CardDb {
        super::bundled_cards()
    }

    fn parse_cards(text: &str, file: &str) -> Result<CardDb, String> {
        CardDb::parse(text, file).map_err(|e| e.to_string())
    }

    fn is_card_file(text: &str) -> bool {
        content_lines(text)
            .next()
            .is_some_and(|(_, h)| h.replace(' ', "") == super::cards::HEADER.join(","))
    }

    fn parse_deck(cards: &CardDb, text: &str, file: &str, name: &str) -> Result<TmntDeck, String> {
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

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, String> {
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
        let mut head = format!("{seat}: {}", self.notation(before, a));
        match a {
            // M-INFO-1: a card set face down is hidden from the opponent.
            Action::Set(_) if !viewer.sees(seat) => {
                head = format!("{seat}: set a card");
            }
            Action::Set(_) => {}
            Action::Attack(id) | Action::Counter(id) | Action::Event(id) | Action::Item(id) => {
                let c = self.db.card(id);
                let _ = write!(head, " ({})", c.describe());
                if !c.effect_text.is_empty() {
                    let _ = write!(head, ": {}", c.effect_text);
                }
            }
            Action::Keep(_) => head.push_str(" (M-ATK-13)"),
            // M-INFO-1, M-INFO-5: a card taken, put or arranged that the viewer does not know
            // after the move is not named.
            Action::Take(id) | Action::Top(id) => {
                let shown = match (a, before.pick) {
                    (_, _) if viewer.sees(seat) => true,
                    (Action::Take(_), Pick::Take { seat: q, mask, .. }) => {
                        let q = Seat::from_index(usize::from(q));
                        Self::instance_of(before, q, mask, id).is_some_and(|i| {
                            let known = after.pl(q).known;
                            let k = match viewer {
                                Viewer::Seat(v) => known[v.index()],
                                _ => known[0] & known[1],
                            };
                            viewer == Viewer::All || k & (1 << i) != 0
                        })
                    }
                    _ => false,
                };
                if !shown {
                    let verb = head.split_whitespace().nth(1).unwrap_or("take").to_string();
                    head = format!("{seat}: {verb} a card");
                }
            }
            Action::Activate(id) => {
                let c = self.db.card(id);
                let _ = write!(head, ": {}", c.effect_text);
            }
            Action::Yes | Action::Mode(_) | Action::Pass
                if matches!(before.step, Step::May | Step::Mode) =>
            {
                // The text that asks.
                let q = Seat::from_index(usize::from(before.cur.who));
                let _ = write!(
                    head,
                    " ({})",
                    self.card_label(before.pl(q).card[before.cur.src as usize])
                );
            }
            _ => {}
        }
        if before.step == Step::Keep && a == Action::Pass {
            head = format!("{seat}: keeps nothing (M-ATK-13)");
        }
        // The card this action moves is said by its own line, not again as a discard.
        let mut placed = [0u64; 2];
        let hand = before.pl(seat).hand;
        let moved = match a {
            Action::Event(id) | Action::Discard(id) => Self::instance_of(before, seat, hand, id),
            Action::Pay(id) => Self::instance_of(before, seat, hand & !(1 << before.item), id),
            _ => None,
        };
        if let Some(i) = moved {
            placed[seat.index()] = 1 << i;
        }
        // M-INFO-1: passing says what could have been done (M-TURN-2 asks only when there is a
        // choice), so a viewer who does not see the hand is not told of a pass.
        let hidden_pass = a == Action::Pass
            && matches!(
                before.step,
                Step::Event | Step::Item | Step::Attack | Step::Counter
            )
            && !viewer.sees(seat);
        let mut out = if hidden_pass { Vec::new() } else { vec![head] };
        out.extend(self.changes(before, after, viewer, placed));
        out
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
        // the own Block cards, both players' face-up Block cards, Attack Zones and Item Zones.
        let mut seen: Vec<CardId> = Vec::new();
        for q in [me, me.other()] {
            let p = s.pl(q);
            let mut m = p.up | p.items;
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

    fn card_text(cards: &Self::Cards, query: &str) -> Result<String, String> {
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

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        self.invariants(s)?;
        for q in Seat::ALL {
            let p = s.pl(q);
            let k = q.index();
            let n = usize::from(p.n);
            if n != self.decks[k].len() {
                return Err(format!("{q}: {n} instances"));
            }
            let mut a: Vec<CardId> = p.card[..n].to_vec();
            let mut b = self.decks[k].clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(format!("{q}: the cards are not the deck's"));
            }
        }
        if s.step == Step::Over && s.winner.is_none() {
            return Err("over without a winner".into());
        }
        if s.step != Step::Over && s.pick == Pick::None && s.cur.active() {
            return Err("a decision while a text resolves without a choice".into());
        }
        Ok(())
    }

    fn run_scenario(
        text: &str,
        file: &str,
        dir: &Path,
        cards: Option<CardDb>,
    ) -> Result<ScenarioReport, String> {
        super::scenario::run(text, file, dir, cards)
    }

    fn bench_match() -> TmntGame {
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
        TmntGame::new_match(&db, [&a, &b])
    }
}
