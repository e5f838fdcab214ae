//! The Fire Force TCG as the command line sees it: deck files (F-DECK), the action notation, logs,
//! the view of one seat, scenarios, sealed pools (`docs/rules-fireforce.md`, `docs/cards.md`,
//! `docs/scenario.md`).

use super::cards::{norm, CardDb, CardId, CardType, Keywords};
use super::state::{Bits, Pick, State, Step, FLAME_BASE, FLAME_DECK, FLAME_MASK, NONE, PRAY};
use super::{Action, FireForceGame, RULES_VERSION};
use crate::core::def::{GameDef, GameInfo, ScenarioReport, Viewer};
use crate::core::input::{content_lines, excerpt, parse_int};
use crate::core::lang::Side;
use crate::core::{Outcome, Seat};
use std::fmt::Write as _;
use std::path::Path;

/// F-DECK-1, F-DECK-2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Strategy,
    BlitzShield,
}

impl Format {
    pub fn size(self) -> usize {
        match self {
            Format::Strategy => 40,
            Format::BlitzShield => 35,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Strategy => "Strategy",
            Format::BlitzShield => "Blitz Shield",
        }
    }
}

/// One player's decks: the main deck and the Flame deck (F-DECK-3).
#[derive(Clone, Debug)]
pub struct FfDeck {
    pub name: String,
    pub format: Format,
    pub main: Vec<CardId>,
    pub flame: Vec<CardId>,
}

/// Parses a deck file's text: every problem as `file:line: reason`.
pub fn parse_deck(text: &str, file: &str, name: &str, db: &CardDb) -> Result<FfDeck, String> {
    let mut problems: Vec<String> = Vec::new();
    let mut format = Format::Strategy;
    for (n, l) in text.lines().enumerate() {
        if let Some(c) = l.trim().strip_prefix('#') {
            if let Some(f) = c.trim().strip_prefix("format:") {
                match f.trim().to_ascii_lowercase().as_str() {
                    "blitz" | "blitz shield" => format = Format::BlitzShield,
                    "strategy" => format = Format::Strategy,
                    other => problems.push(format!(
                        "{file}:{}: unknown format \"{}\" (expected strategy or blitz)",
                        n + 1,
                        excerpt(other)
                    )),
                }
            }
        }
    }
    let mut main = Vec::new();
    let mut flame = Vec::new();
    let mut first_line: Vec<(CardId, usize)> = Vec::new();
    let mut in_flame = false;
    for (n, l) in content_lines(text) {
        if problems.len() >= 50 {
            problems.push(format!("{file}: stopped after 50 problems"));
            break;
        }
        if l.starts_with('[') {
            if l.eq_ignore_ascii_case("[flame]") && !in_flame {
                in_flame = true;
            } else {
                problems.push(format!(
                    "{file}:{n}: unexpected \"{}\" (a deck has one [flame] section, F-DECK-3)",
                    excerpt(l)
                ));
            }
            continue;
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
        let c = db.card(id);
        let is_flame = c.ctype == CardType::Flame;
        if is_flame != in_flame {
            problems.push(format!(
                "{file}:{n}: {} is a {} card: {} (F-DECK-3)",
                c.name,
                if is_flame { "Flame" } else { "non-Flame" },
                if is_flame {
                    "it belongs in the [flame] section"
                } else {
                    "the [flame] section holds Flame cards only"
                }
            ));
            continue;
        }
        if !first_line.iter().any(|(x, _)| *x == id) {
            first_line.push((id, n));
        }
        let to = if in_flame { &mut flame } else { &mut main };
        // Bounded memory: no deck holds more than 40 cards (F-DECK-1), whatever the file says.
        if to.len() + count > 40 {
            problems.push(format!(
                "{file}:{n}: more than 40 cards in the {} (F-DECK-1)",
                if in_flame { "Flame deck" } else { "deck" }
            ));
            continue;
        }
        to.extend(std::iter::repeat_n(id, count));
    }
    if format == Format::Strategy {
        for &(id, n) in &first_line {
            let copies = main.iter().filter(|&&x| x == id).count();
            if copies > 2 {
                problems.push(format!(
                    "{file}:{n}: {copies} copies of {} {}: a Strategy deck has at most 2 of a card number (F-DECK-1)",
                    db.card(id).number,
                    db.card(id).name
                ));
            }
        }
    }
    if main.len() != format.size() {
        problems.push(format!(
            "{file}: {} cards; a {} deck has exactly {} non-Flame cards ({})",
            main.len(),
            format.name(),
            format.size(),
            if format == Format::Strategy {
                "F-DECK-1"
            } else {
                "F-DECK-2"
            }
        ));
    }
    if flame.len() != FLAME_DECK {
        problems.push(format!(
            "{file}: {} Flame cards; a Flame deck has exactly {FLAME_DECK} (F-DECK-1, F-DECK-2)",
            flame.len()
        ));
    }
    if problems.is_empty() {
        Ok(FfDeck {
            name: name.to_string(),
            format,
            main,
            flame,
        })
    } else {
        Err(problems.join("\n"))
    }
}

/// A deck file's text for `main` and `flame`, cards grouped and commented.
pub fn deck_text(
    db: &CardDb,
    main: &[CardId],
    flame: &[CardId],
    format: Format,
    plan: &str,
) -> String {
    let mut t = format!("# Plan: {plan}\n");
    if format == Format::BlitzShield {
        t.push_str("# format: blitz\n");
    }
    let group = |ids: &[CardId], t: &mut String| {
        let mut v = crate::core::def::distinct_with_copies(ids.iter().map(|&c| u32::from(c)));
        v.sort_by_key(|&(id, _)| (db.card(id as CardId).cost, id));
        for (id, n) in v {
            let c = db.card(id as CardId);
            let _ = writeln!(t, "{n} {}   # {}", c.number, c.name);
        }
    };
    group(main, &mut t);
    t.push_str("[flame]\n");
    group(flame, &mut t);
    t
}

impl FireForceGame {
    /// The name a card is shown by: its name, with its number when another card has that name.
    pub fn card_label(&self, id: CardId) -> String {
        let c = self.db.card(id);
        if self.db.cards.iter().filter(|o| o.name == c.name).count() > 1 {
            format!("{} [{}]", c.name, c.number)
        } else {
            c.name.clone()
        }
    }

    /// `q`'s instance `i` on the Scene or in THE ADOLLA: its label, with `#k` (the k-th of that
    /// card in its zone, by instance) when the zone holds several.
    pub fn card_ref(&self, s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        let zone = [p.scene, p.adolla, p.hand, p.flame_deck]
            .into_iter()
            .find(|z| z & 1 << i != 0)
            .unwrap_or(0);
        let id = p.card[i as usize];
        let same: Vec<u8> = Bits(zone).filter(|&j| p.card[j as usize] == id).collect();
        let label = self.card_label(id);
        if same.len() > 1 {
            let k = same.iter().position(|&j| j == i).unwrap_or(0) + 1;
            format!("{label}#{k}")
        } else {
            label
        }
    }

    /// Decision F-COST-3: a payment written with its cards in any order, each as the notation
    /// names it (`Flame Card#2`) or by its name alone (the lowest ready one not yet named), read
    /// as the legal payment it is equivalent to; `None` if it names no legal payment.
    fn parse_payment(&self, s: &State, text: &str) -> Option<Action> {
        use crate::core::input::norm;
        let me = s.chooser;
        let list = text.trim().strip_prefix("pay")?;
        let payers = self.ready_payers(s, me);
        let mut cards = 0u64;
        for name in list.split(',') {
            let want = norm(name);
            let i = Bits(payers & !cards)
                .find(|&i| norm(&self.card_ref(s, me, i)) == want)
                .or_else(|| {
                    Bits(payers & !cards)
                        .find(|&i| norm(&self.card_label(s.pl(me).card[i as usize])) == want)
                })?;
            cards |= 1 << i;
        }
        let a = Action::Pay(self.payment_of(s, me, cards)?);
        let mut legal = crate::core::ActionList::new();
        self.legal(s, &mut legal);
        legal.contains(&a).then_some(a)
    }

    /// The notation of an action (`docs/scenario.md`), as its chooser writes it.
    pub fn notation(&self, s: &State, a: Action) -> String {
        let me = s.chooser;
        let unit = |q: Seat, u: u8| self.card_ref(s, q, u);
        match a {
            Action::Pass if matches!(s.pick, Pick::May { .. }) => "no".into(),
            Action::Pass => "pass".into(),
            Action::Mode(k) => format!("option {}", k + 1),
            Action::Card(id) => format!("choose {}", self.card_label(id)),
            Action::Yes => "yes".into(),
            Action::Keep => "keep".into(),
            Action::Redraw => "redraw".into(),
            Action::Flame(id) => format!("flame {}", self.card_label(id)),
            Action::Dispatch(id) => format!("dispatch {}", self.card_label(id)),
            Action::Play(id) => format!("play {}", self.card_label(id)),
            Action::React(id) => format!("react {}", self.card_label(id)),
            Action::Support(id) => format!("support {}", self.card_label(id)),
            Action::Activate(u, PRAY) => format!("pray {}", unit(me, u)),
            Action::Activate(u, k) => format!("activate {} ability {}", unit(me, u), k + 1),
            Action::Attack(u) => format!("attack with {}", unit(me, u)),
            Action::Target(NONE) => "target player".into(),
            Action::Target(u) => format!("target {}", unit(me.other(), u)),
            Action::Block(u) => format!("block with {}", unit(me, u)),
            Action::UseTrigger => "use trigger".into(),
            Action::End => "end".into(),
            Action::Pay(m) => {
                let cards: Vec<String> = Bits(self.payment_cards(s, me, m))
                    .map(|i| self.card_ref(s, me, i))
                    .collect();
                format!("pay {}", cards.join(", "))
            }
            Action::Pick(code) => {
                let q = Seat::ALL[usize::from(code >= 64)];
                let i = code % 64;
                match s.pick {
                    Pick::Limit => format!("limit {}", unit(q, i)),
                    Pick::Link => format!("link {}", unit(q, i)),
                    _ => format!(
                        "choose {} {}",
                        if q == me { "own" } else { "enemy" },
                        unit(q, i)
                    ),
                }
            }
        }
    }

    pub fn step_label(s: &State) -> &'static str {
        match s.pick {
            Pick::Unit { .. } => return "choose",
            Pick::Flame { .. } => return "flame",
            Pick::Limit => return "limit",
            Pick::Link => return "link",
            Pick::Cards { .. } => return "choose card",
            Pick::Mode { .. } => return "option",
            Pick::Name => return "name",
            Pick::May { .. } => return "may",
            Pick::Pay { .. } => return "pay",
            Pick::None => {}
        }
        match s.step {
            Step::Redraw => "redraw",
            Step::SetupFlame => "setup flame",
            Step::PrepFlame => "prep flame",
            Step::Main => "main",
            Step::Target => "target",
            Step::Attacking => "attacking",
            Step::Block => "block",
            Step::Reaction => "reaction",
            Step::Support => "support",
            Step::Damage => "damage",
            Step::LifeTrigger => "life trigger",
            Step::BattleEnd | Step::BattleOver => "battle end",
            Step::End => "end",
            Step::Over => "over",
        }
    }

    pub fn sorted_names(&self, s: &State, q: Seat, m: u64) -> Vec<String> {
        let mut v: Vec<String> = Bits(m)
            .map(|i| self.card_label(s.pl(q).card[i as usize]))
            .collect();
        v.sort();
        v
    }

    /// A Unit as a log or view shows it: name, power, state.
    pub fn unit_label(&self, s: &State, q: Seat, u: u8) -> String {
        let p = s.pl(q);
        let mut t = format!("{} {}", self.card_ref(s, q, u), self.power(s, q, u));
        if p.exhausted & 1 << u != 0 {
            t.push_str(" exhausted");
        }
        if p.is_given(u) {
            t.push_str(" +Flame");
        }
        t
    }

    pub fn flame_label(&self, s: &State, q: Seat, i: u8) -> String {
        let p = s.pl(q);
        let mut t = self.card_ref(s, q, i);
        if p.as_flame & 1 << i != 0 {
            t.push_str(" (face down)");
        }
        if p.exhausted & 1 << i != 0 {
            t.push_str(" exhausted");
        }
        if i as usize >= FLAME_BASE {
            let g = p.given_to[i as usize - FLAME_BASE];
            if g != NONE {
                t.push_str(&format!(" given to {}", self.card_ref(s, q, g)));
            }
        }
        t
    }

    /// What the engine did between two decisions, as log lines for `viewer`.
    fn changes(&self, before: &State, after: &State, viewer: Viewer) -> Vec<String> {
        // A new turn's header comes after what the turn before did and before what the new turn
        // player's preparation did (its draw, its Flame card).
        let new_turn = after.turn != before.turn;
        let mut out = Vec::new();
        let mut next = Vec::new();
        for q in Seat::ALL {
            let out = if new_turn && q == after.active {
                &mut next
            } else {
                &mut out
            };
            let (b, a) = (before.pl(q), after.pl(q));
            for u in Bits(b.units() & !a.scene) {
                let name = self.card_ref(before, q, u);
                if a.hand & 1 << u != 0 {
                    out.push(format!("  {q}'s {name} returns to its hand"));
                } else if after.removed[q.index()] & 1 << u != 0
                    || self.removed_now(before, after, q, u)
                {
                    out.push(format!("  {q}'s {name} is removed into THE ADOLLA"));
                } else {
                    out.push(format!("  {q}'s {name} goes into THE ADOLLA"));
                }
            }
            if a.life_len < b.life_len && a.adolla & !b.adolla != 0 {
                for i in Bits(a.adolla & !b.adolla & b.life_mask()) {
                    out.push(format!(
                        "  {q} reveals the Life card {} into THE ADOLLA ({} Life left)",
                        self.card_label(a.card[i as usize]),
                        a.life_len
                    ));
                }
            }
            // Cards the opponent now knows were shown on the way (`search`, the card taken by
            // `dig`): named for every viewer, and not "drawn".
            let moved = a.hand & !b.hand & b.deck_mask();
            let shown = moved & a.known[q.other().index()] & !b.known[q.other().index()];
            if shown != 0 {
                out.push(format!(
                    "  {q} takes {} from its deck into its hand, shown",
                    self.sorted_names(after, q, shown).join(", ")
                ));
            }
            let drawn = moved & !shown;
            if drawn != 0 {
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
            let milled = a.adolla & !b.adolla & b.deck_mask();
            if milled != 0 {
                out.push(format!(
                    "  {q} puts {} from its deck into THE ADOLLA",
                    self.sorted_names(after, q, milled).join(", ")
                ));
            }
            let to_life = a.life_len.saturating_sub(b.life_len);
            if to_life > 0 && before.step != Step::Redraw {
                out.push(format!(
                    "  {q} puts {to_life} card(s) from its deck onto its Life area"
                ));
            }
            for i in Bits(a.flame_cards() & !b.flame_cards()) {
                out.push(format!(
                    "  {q}: {} onto the Scene",
                    self.flame_label(after, q, i)
                ));
            }
            for i in Bits(b.flame_cards() & !a.flame_cards() & FLAME_MASK) {
                out.push(format!(
                    "  {q}: {} back to the Flame deck (Flame limit, F-COST-2)",
                    self.card_ref(before, q, i)
                ));
            }
        }
        // F-BAT-7: an attacked Unit that holds is said so (a removed one is said above).
        let (att, tgt) = (before.battle.attacker, before.battle.target);
        if att != NONE
            && tgt != NONE
            && !before.battle.on_player
            && after.battle.attacker != att
            && after.pl(before.active.other()).units() & 1 << tgt != 0
            && before.pl(before.active).units() & 1 << att != 0
        {
            let (a, d) = (before.active, before.active.other());
            out.push(format!(
                "  {d}'s {} ({}) holds against {} ({}): nothing happens (F-BAT-7)",
                self.card_ref(before, d, tgt),
                self.power(before, d, tgt),
                self.card_ref(before, a, att),
                self.power(before, a, att)
            ));
        }
        if new_turn {
            out.push(format!(
                "--- turn {}: {} (Life {} · {}, decks {} · {}) ---",
                after.turn,
                after.active,
                after.p[0].life_len,
                after.p[1].life_len,
                after.p[0].deck_len,
                after.p[1].deck_len
            ));
        }
        out.extend(next);
        if after.winner.is_some() {
            out.push(self.ending(after));
        }
        out
    }

    fn removed_now(&self, before: &State, after: &State, q: Seat, u: u8) -> bool {
        // A Unit that left for THE ADOLLA while the Flame limit was not being resolved.
        before.pick != Pick::Limit && after.pl(q).adolla & 1 << u != 0
    }

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
    type Cards = CardDb;
    type Deck = FfDeck;
    const DEFAULT_PACK: &'static str = "nonflame=7,flame=1";

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

    fn parse_deck(cards: &CardDb, text: &str, file: &str, name: &str) -> Result<FfDeck, String> {
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
    fn tunable_deck(deck: &FfDeck) -> Result<(), String> {
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

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, String> {
        match crate::core::def::action_by_text(self, s, text) {
            Err(e) if matches!(s.pick, Pick::Pay { .. }) => self.parse_payment(s, text).ok_or(e),
            r => r,
        }
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
            Action::Target(t) => {
                let att = before.battle.attacker;
                let _ = write!(
                    head,
                    " — {} ({}) attacks {}",
                    self.card_ref(before, seat, att),
                    self.power(before, seat, att),
                    if t == NONE {
                        format!(
                            "{} (Life {})",
                            seat.other(),
                            before.pl(seat.other()).life_len
                        )
                    } else {
                        format!(
                            "{}'s {} ({})",
                            seat.other(),
                            self.card_ref(before, seat.other(), t),
                            self.power(before, seat.other(), t)
                        )
                    }
                );
            }
            Action::Block(u) => {
                let _ = write!(
                    head,
                    " (power {}) — it becomes the target",
                    self.power(before, seat, u)
                );
                // The battle may end within this action (nothing more to decide): say how.
                let att = before.battle.attacker;
                let over = after.battle.attacker == NONE && after.step != Step::Over;
                if over
                    && after.pl(seat).units() & 1 << u != 0
                    && after.pl(before.active).units() & 1 << att != 0
                {
                    let mut out = vec![head];
                    out.push(format!(
                        "  {seat}'s {} holds against {}: nothing happens (F-BAT-7)",
                        self.card_ref(after, seat, u),
                        self.card_ref(after, before.active, att)
                    ));
                    out.extend(self.changes(before, after, viewer));
                    return out;
                }
            }
            Action::Support(id) => {
                let t = before.battle.target;
                let _ = write!(
                    head,
                    " — +{} to {} (power {})",
                    self.db.card(id).support,
                    self.card_ref(before, seat, t),
                    self.power(before, seat, t) + i32::from(self.db.card(id).support)
                );
            }
            Action::UseTrigger => {
                let _ = write!(
                    head,
                    " of {}: {}",
                    self.card_label(before.pl(seat).card[before.battle.revealed as usize]),
                    self.card_of(before, seat, before.battle.revealed)
                        .trigger_text
                );
            }
            Action::Redraw => {
                let p = after.pl(seat);
                let _ = write!(
                    head,
                    " — the hand goes back, the deck is shuffled, 5 drawn (F-SETUP-2)"
                );
                if viewer.sees(seat) {
                    let _ = write!(
                        head,
                        ": {}",
                        self.sorted_names(after, seat, p.hand).join(", ")
                    );
                }
                let mut out = vec![head];
                out.extend(
                    self.changes(before, after, viewer)
                        .into_iter()
                        .filter(|l| !l.contains(" draws ")),
                );
                return out;
            }
            _ => {}
        }
        // F-INFO-4: the attacked player is asked to react or support only when its hand holds a
        // card it could play (F-BAT-10), so its pass there says so; a viewer who does not see
        // that hand is not told of the pass.
        let hidden_pass = a == Action::Pass
            && matches!(before.step, Step::Reaction | Step::Support)
            && !viewer.sees(seat);
        let mut out = if hidden_pass { Vec::new() } else { vec![head] };
        out.extend(self.changes(before, after, viewer));
        out
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

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        for q in Seat::ALL {
            let p = s.pl(q);
            let k = q.index();
            let n = usize::from(p.n_main);
            if n != self.main[k].len() || n > FLAME_BASE {
                return Err(format!("{q}: {n} main instances"));
            }
            if usize::from(p.deck_len) + usize::from(p.life_len) > n {
                return Err(format!("{q}: deck and Life overlap"));
            }
            let main_all = crate::core::hidden::first_n(n);
            let (deck, life) = (p.deck_mask(), p.life_mask());
            if deck.count_ones() != u32::from(p.deck_len)
                || life.count_ones() != u32::from(p.life_len)
            {
                return Err(format!(
                    "{q}: an instance twice in the deck or the Life area"
                ));
            }
            let main_scene = p.scene & main_all;
            let zones = [deck, life, p.hand, main_scene, p.adolla];
            let sum: u32 = zones.iter().map(|z| z.count_ones()).sum();
            if zones.iter().fold(0, |a, z| a | z) != main_all || sum != n as u32 {
                return Err(format!(
                    "{q}: the main-deck zones do not partition the instances"
                ));
            }
            let flame_all =
                FLAME_MASK & crate::core::hidden::first_n(FLAME_BASE + self.flame[k].len());
            if (p.flame_deck | (p.scene & FLAME_MASK)) != flame_all || p.flame_deck & p.scene != 0 {
                return Err(format!(
                    "{q}: the Flame cards are not in the Flame deck or on the Scene"
                ));
            }
            let flamey = Bits(p.units())
                .filter(|&u| self.card_of(s, q, u).flame)
                .fold(0, |m, u| m | 1u64 << u);
            let statics = [Side::Own, Side::Enemy].map(|reach| {
                Bits(p.units() | (p.scene & FLAME_MASK))
                    .filter(|&i| {
                        let c = self.card_of(s, q, i);
                        c.statics
                            .iter()
                            .any(|st| st.side == reach || st.side == Side::Any)
                    })
                    .fold(0, |m, i| m | 1u64 << i)
            });
            if p.flamey != flamey || p.statics != statics {
                return Err(format!("{q}: the derived masks of the Scene are stale"));
            }
            if p.as_flame & !(p.scene & main_all) != 0 {
                return Err(format!("{q}: a card put as Flame is not on the Scene"));
            }
            if p.exhausted & !p.scene != 0
                || (p.fresh | p.blocker[0] | p.blocker[1]) & !p.units() != 0
                || p.once & !p.units() != 0
            {
                return Err(format!("{q}: a state flag on a card off the Scene"));
            }
            for (j, &g) in p.given_to.iter().enumerate() {
                if g != NONE {
                    if p.units() & 1 << g == 0 {
                        return Err(format!("{q}: Flame card {j} given to a Unit off the Scene"));
                    }
                    if p.scene & 1 << (FLAME_BASE + j) == 0 {
                        return Err(format!("{q}: a given Flame card is not on the Scene"));
                    }
                }
            }
            let public = p.scene | p.adolla | p.flame_deck;
            if p.known[0] & public != public || p.known[1] & public != public {
                return Err(format!("{q}: a public card is not known to both"));
            }
            if p.known[k] & p.hand != p.hand {
                return Err(format!("{q}: does not know its own hand"));
            }
            // F-INFO-6: a player searching or digging its deck knows the cards it looks at.
            let looking = self.looking(s, q) & deck;
            if (p.known[0] | p.known[1]) & (deck | life) & !looking != 0
                || p.known[k ^ 1] & looking != 0
            {
                return Err(format!("{q}: a deck or Life card is known (F-INFO-1)"));
            }
            if self.with_flame(s, q).count_ones() > super::state::FLAME_LIMIT
                && s.pick != Pick::Limit
            {
                return Err(format!("{q}: more than 8 cards with Flame (F-COST-2)"));
            }
            let mut a: Vec<CardId> = p.card[..n].to_vec();
            let mut b = self.main[k].clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(format!("{q}: the cards are not the deck's"));
            }
        }
        if s.step == Step::Over && s.winner.is_none() {
            return Err("over without a winner".into());
        }
        if let Pick::Pay { n, then, classes } = s.pick {
            // Decision F-COST-3: a payment is asked for only where it is a choice, among the
            // classes of the position.
            let payers = self.ready_payers(s, s.chooser).count_ones();
            if n == 0 || payers <= u32::from(n) || payers > super::engine::MAX_PAYERS {
                return Err(format!("a payment of {n} among {payers} cards with Flame"));
            }
            if classes != self.pay_classes(s, s.chooser) || classes[1] == 0 {
                return Err(format!("a payment's classes {classes:?} are stale"));
            }
            if !matches!(
                then,
                Action::Dispatch(_) | Action::Play(_) | Action::React(_) | Action::Activate(..)
            ) {
                return Err(format!("a payment for {then:?}"));
            }
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

    /// F-DECK-2: `packs` packs (default 5 of 7 non-Flame cards and 1 Flame card, each card drawn
    /// uniformly among the pool's cards of its kind) make a Blitz Shield deck: 35 + 5.
    fn sealed(cards: &CardDb, packs: u64, pack: &str, seed: u64) -> Result<String, String> {
        use rand::Rng;
        let (mut nonflame, mut flame) = (0u64, 0u64);
        for part in pack.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--pack: \"{part}\": expected nonflame=N or flame=N"))?;
            let v: u64 = parse_int(v.trim(), 0u64, 40).map_err(|e| format!("--pack: {k}: {e}"))?;
            match k.trim().to_ascii_lowercase().as_str() {
                "nonflame" => nonflame = v,
                "flame" => flame = v,
                other => {
                    return Err(format!(
                        "--pack: unknown slot \"{}\" (nonflame, flame)",
                        excerpt(other)
                    ))
                }
            }
        }
        let (main_n, flame_n) = (packs * nonflame, packs * flame);
        if main_n != 35 || flame_n != 5 {
            return Err(format!(
                "{packs} packs of {pack} give {main_n} non-Flame and {flame_n} Flame cards; a Blitz Shield deck has 35 and 5 (F-DECK-2)"
            ));
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
            return Err("the card file needs non-Flame and Flame cards for packs".into());
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

    fn bench_match() -> FireForceGame {
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
        FireForceGame::new_match(&db, [&a, &b])
    }
}
