//! The TMNT card file (`decks/tmnt/cards.csv`, documented in `docs/cards.md`, "TMNT TCG"): card
//! types and kinds, the effect language's TMNT words, and the card database. Parsing happens once
//! at load; the engine only sees the compact types here.

use crate::core::input::{csv_rows, excerpt, parse_int, InputError};
use crate::core::lang::{Side, TargetMode};
use crate::core::Bits;

/// An index into [`CardDb::cards`] (its row in the card file).
pub type CardId = u8;

/// The most cards of a card file (card ids fit a byte; 255 is "no card").
pub const MAX_POOL: usize = 250;
/// The most abilities of a card and effects of an ability.
pub const MAX_ABILITIES: usize = 2;
pub const MAX_EFFECTS: usize = 4;
/// The highest printed power (a card's power is 0 to 99).
pub const MAX_POWER: i16 = 99;
/// The most titles a Forceful Attack card's combo names.
pub const MAX_COMBO: usize = 4;

pub const HEADER: [&str; 8] = [
    "number",
    "name",
    "type",
    "kind",
    "power",
    "attribute",
    "combo",
    "effect",
];

/// M-DECK-3: the four attributes, in this order.
pub const ATTRIBUTES: [&str; 4] = ["wind", "forest", "fire", "mountain"];
/// "No attribute" (an Event, M-DECK-2).
pub const NO_ATTR: u8 = 4;

/// M-DECK-4: the four card types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    Character,
    Attack,
    Item,
    Event,
}

impl CardType {
    pub fn name(self) -> &'static str {
        match self {
            CardType::Character => "character",
            CardType::Attack => "attack",
            CardType::Item => "item",
            CardType::Event => "event",
        }
    }
}

/// M-DECK-4: the kinds of attack cards, and of Events (<Play>, <Flip>, <Play & Flip>).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    None,
    Normal,
    Forceful,
    Counter,
    ForcefulCounter,
    Play,
    Flip,
    PlayFlip,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::None => "",
            Kind::Normal => "normal",
            Kind::Forceful => "forceful",
            Kind::Counter => "counter",
            Kind::ForcefulCounter => "forceful_counter",
            Kind::Play => "play",
            Kind::Flip => "flip",
            Kind::PlayFlip => "play_flip",
        }
    }
}

/// Conditions on a card (all must hold).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// One of these types, as bits `1 << CardType as u8` (0 = any).
    pub types: u8,
    /// One of these attributes, bit `k` for [`ATTRIBUTES`]`[k]` (0 = any).
    pub attrs: u8,
    pub power_min: Option<i16>,
    pub power_max: Option<i16>,
    /// Not the card the text is on.
    pub other: bool,
}

/// What a `power` effect acts on: face-up cards on Block Zones and in Attack Zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub mode: TargetMode,
    pub side: Side,
    pub filter: Filter,
}

/// One effect primitive (`docs/cards.md`, "TMNT TCG").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Draw(u8),
    /// `trash own N` (`false`) / `trash enemy N` (`true`).
    Trash {
        enemy: bool,
        n: u8,
    },
    Discard {
        enemy: bool,
        n: u8,
    },
    Salvage(Filter),
    Power(Target, i16),
    Bonus(i16),
}

/// When a text resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    Play,
    Flip,
    PlayFlip,
    Static,
    /// A "…, when …" text (M-EFFECTS).
    When(When),
}

/// The "when" clauses of the effect language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    Attack,
    Defend,
    Damaged,
    Trash,
    Result,
}

impl When {
    pub const ALL: [When; 5] = [
        When::Attack,
        When::Defend,
        When::Damaged,
        When::Trash,
        When::Result,
    ];

    pub fn name(self) -> &'static str {
        match self {
            When::Attack => "attack",
            When::Defend => "defend",
            When::Damaged => "damaged",
            When::Trash => "trash",
            When::Result => "result",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub number: String,
    pub name: String,
    /// The title's index among the file's distinct titles (M-DECK-1 counts by title).
    pub title: u8,
    pub ctype: CardType,
    pub kind: Kind,
    pub power: i16,
    /// Index into [`ATTRIBUTES`], [`NO_ATTR`] for an Event.
    pub attr: u8,
    /// Title indices of a Forceful Attack card's combo (M-ATK-4).
    pub combo: Vec<u8>,
    pub abilities: Vec<Ability>,
    /// Derived from `abilities` at load, for the engine's hot paths: the card has a text that
    /// resolves when placed / when turned face up, its "when" clause, a `static` text.
    pub play: bool,
    pub flip: bool,
    pub when: Option<When>,
    pub has_static: bool,
    /// The text as written, for display.
    pub effect_text: String,
}

impl Card {
    /// Sets the derived fields from `abilities`.
    pub fn derive(&mut self) {
        self.play = self.play_text().is_some();
        self.flip = self.flip_text().is_some();
        self.when = self.when().map(|(w, _)| w);
        self.has_static = self.text(Trigger::Static).is_some();
    }

    /// The effects of the ability with this trigger, if the card has one.
    pub fn text(&self, t: Trigger) -> Option<&[Effect]> {
        self.abilities
            .iter()
            .find(|a| a.trigger == t)
            .map(|a| a.effects.as_slice())
    }

    /// The effects that resolve when the card is placed (M-EVT-1, M-ATK-3, M-ATK-7).
    pub fn play_text(&self) -> Option<&[Effect]> {
        self.text(Trigger::Play)
            .or_else(|| self.text(Trigger::PlayFlip))
    }

    /// The effects that resolve when the card is turned face up on a Block Zone.
    pub fn flip_text(&self) -> Option<&[Effect]> {
        self.text(Trigger::Flip)
            .or_else(|| self.text(Trigger::PlayFlip))
    }

    /// The card's "when" ability.
    pub fn when(&self) -> Option<(When, &[Effect])> {
        self.abilities.iter().find_map(|a| match a.trigger {
            Trigger::When(w) => Some((w, a.effects.as_slice())),
            _ => None,
        })
    }

    pub fn attr_name(&self) -> &'static str {
        ATTRIBUTES.get(self.attr as usize).copied().unwrap_or("")
    }

    /// A short description: `character 5 mountain`, `attack forceful 5 fire`, `event flip`.
    pub fn describe(&self) -> String {
        let mut s = self.ctype.name().to_string();
        if self.kind != Kind::None {
            s.push(' ');
            s.push_str(self.kind.name());
        }
        if matches!(self.ctype, CardType::Character | CardType::Attack) {
            s.push_str(&format!(" {}", self.power));
        }
        if self.attr != NO_ATTR {
            s.push(' ');
            s.push_str(self.attr_name());
        }
        s
    }
}

/// A set of card ids (a `u8` each), for listing distinct ids in increasing order without a heap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdSet(pub [u64; 4]);

impl IdSet {
    #[inline]
    pub fn insert(&mut self, id: CardId) {
        self.0[id as usize >> 6] |= 1 << (id & 63);
    }

    #[inline]
    pub fn contains(&self, id: CardId) -> bool {
        self.0[id as usize >> 6] & (1 << (id & 63)) != 0
    }

    /// The ids in increasing order.
    pub fn ids(self) -> impl Iterator<Item = CardId> {
        (0..4).flat_map(move |w| Bits(self.0[w]).map(move |b| (w as u8) << 6 | b))
    }

    /// The ids in either set.
    #[inline]
    pub fn or(self, o: &IdSet) -> IdSet {
        IdSet(std::array::from_fn(|w| self.0[w] | o.0[w]))
    }

    /// The ids in both sets.
    #[inline]
    pub fn and(self, o: &IdSet) -> IdSet {
        IdSet(std::array::from_fn(|w| self.0[w] & o.0[w]))
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// Card ids by the properties that the engine's hot paths ask, derived from the cards by
/// [`CardDb::derive_sets`] (so a legal-action list is one mask operation, not a look at each card).
#[derive(Clone, Debug, Default)]
pub struct CardSets {
    /// M-EVT-1, M-EVT-2: Events with a <Play> or <Play & Flip> text.
    pub play_events: IdSet,
    /// M-ITM-1.
    pub items: IdSet,
    /// M-ATK-3.
    pub attacks: IdSet,
    /// M-ATK-7: Counter and Forceful Counter Attack cards.
    pub counters: IdSet,
    /// By attribute (index into [`ATTRIBUTES`], [`NO_ATTR`] last).
    pub attrs: [IdSet; 5],
    /// By card type (`CardType as usize`).
    pub types: [IdSet; 4],
    /// `power_le[k]`: printed power at most `k`; `power_ge[k]`: at least `k` (`k` in 0..=99, the
    /// powers a card file allows).
    pub power_le: Vec<IdSet>,
    pub power_ge: Vec<IdSet>,
    /// By "when" clause (`When as usize`): the Characters and the Items with that text.
    pub when_chars: [IdSet; 5],
    pub when_items: [IdSet; 5],
    /// The heuristic's worth of each card id (`super::heuristic`): `[in hand, set on a Block
    /// Zone]`, read by id without a look at the card.
    pub worth: Worths,
}

/// [`CardSets::worth`]: a pair for every `u8` id (zero past the file's cards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worths(pub Box<[[i32; 2]; 256]>);

impl Default for Worths {
    fn default() -> Worths {
        Worths(Box::new([[0; 2]; 256]))
    }
}

impl Worths {
    /// `[in hand, set on a Block Zone]` of card `id`.
    #[inline]
    pub fn of(&self, id: CardId) -> [i32; 2] {
        self.0[usize::from(id)]
    }
}

/// The card database of one card file.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    pub cards: Vec<Card>,
    /// The distinct titles, normalised ([`norm`]), indexed by [`Card::title`].
    pub titles: Vec<String>,
    /// Derived from `cards` ([`CardDb::derive_sets`]).
    pub sets: CardSets,
}

/// Lookups ignore case and runs of spaces.
pub use crate::core::input::norm;

impl CardDb {
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id as usize]
    }

    /// Sets [`CardDb::sets`] from the cards (after every change of `cards`).
    pub fn derive_sets(&mut self) {
        let mut sets = CardSets::default();
        for (k, c) in self.cards.iter().enumerate() {
            let id = k as CardId;
            let put = |set: &mut IdSet, yes: bool| {
                if yes {
                    set.insert(id);
                }
            };
            put(
                &mut sets.play_events,
                c.ctype == CardType::Event && matches!(c.kind, Kind::Play | Kind::PlayFlip),
            );
            put(&mut sets.items, c.ctype == CardType::Item);
            put(&mut sets.attacks, c.ctype == CardType::Attack);
            put(
                &mut sets.counters,
                matches!(c.kind, Kind::Counter | Kind::ForcefulCounter),
            );
            put(&mut sets.attrs[usize::from(c.attr.min(NO_ATTR))], true);
            put(&mut sets.types[c.ctype as usize], true);
            sets.worth.0[usize::from(id)] = [
                super::heuristic::hand_value(c),
                super::heuristic::set_value(c),
            ];
            if let Some(w) = c.when {
                put(
                    &mut sets.when_chars[w as usize],
                    c.ctype == CardType::Character,
                );
                put(&mut sets.when_items[w as usize], c.ctype == CardType::Item);
            }
        }
        sets.power_le = (0..=MAX_POWER)
            .map(|k| self.ids_where(|c| c.power <= k))
            .collect();
        sets.power_ge = (0..=MAX_POWER)
            .map(|k| self.ids_where(|c| c.power >= k))
            .collect();
        self.sets = sets;
    }

    fn ids_where(&self, ok: impl Fn(&Card) -> bool) -> IdSet {
        let mut set = IdSet::default();
        for (k, c) in self.cards.iter().enumerate() {
            if ok(c) {
                set.insert(k as CardId);
            }
        }
        set
    }

    /// The card ids that pass `f`'s type, attribute and printed-power tests
    /// ([`crate::games::tmnt::TmntGame::matches_card`] with the printed power), by set
    /// operations.
    pub fn matching(&self, f: &Filter) -> IdSet {
        let sets = &self.sets;
        let union = |bits: u8, of: &[IdSet]| {
            let mut u = IdSet::default();
            for (k, set) in of.iter().enumerate() {
                if bits & (1 << k) != 0 {
                    u = u.or(set);
                }
            }
            u
        };
        let mut m = if f.types == 0 {
            IdSet([u64::MAX; 4])
        } else {
            union(f.types, &sets.types)
        };
        if f.attrs != 0 {
            // An Event (no attribute) never matches an attribute test.
            m = m.and(&union(f.attrs, &sets.attrs[..NO_ATTR as usize]));
        }
        if let Some(lo) = f.power_min {
            if lo > MAX_POWER {
                return IdSet::default();
            }
            if lo > 0 {
                m = m.and(&sets.power_ge[lo as usize]);
            }
        }
        if let Some(hi) = f.power_max {
            if hi < 0 {
                return IdSet::default();
            }
            if hi < MAX_POWER {
                m = m.and(&sets.power_le[hi as usize]);
            }
        }
        m
    }

    /// A card by number, or by a title only one number has. `Err` says why not.
    pub fn lookup(&self, key: &str) -> Result<CardId, String> {
        let cards = self
            .cards
            .iter()
            .map(|c| (c.number.as_str(), c.name.as_str()));
        crate::core::input::lookup_card(key, cards).map(|i| i as CardId)
    }

    /// Parses a card file; the error names the file, line, column and reason.
    pub fn parse(text: &str, file: &str) -> Result<CardDb, InputError> {
        let err = |line: usize, msg: String| InputError {
            file: file.to_string(),
            line,
            msg,
        };
        let rows = csv_rows(text, &HEADER).map_err(|(n, c, m)| err(n, format!("{c}: {m}")))?;
        let mut db = CardDb::default();
        let mut combos: Vec<(usize, usize, String)> = Vec::new();
        for (n, r) in rows {
            if db.cards.len() == MAX_POOL {
                return Err(err(n, format!("more than {MAX_POOL} cards")));
            }
            let card = db
                .parse_row(&r)
                .map_err(|(col, m)| err(n, format!("column {col}: {m}")))?;
            if db
                .cards
                .iter()
                .any(|c| norm(&c.number) == norm(&card.number))
            {
                return Err(err(
                    n,
                    format!("column number: \"{}\" is defined twice", card.number),
                ));
            }
            let combo = r.get(6).unwrap_or("").trim().to_string();
            if !combo.is_empty() {
                combos.push((n, db.cards.len(), combo));
            }
            db.cards.push(card);
        }
        if db.cards.is_empty() {
            return Err(err(0, "no cards".into()));
        }
        // M-ATK-4: the combo names character titles of the file (read after every row, so a
        // combo may name a character further down).
        for (n, i, combo) in combos {
            let mut titles = Vec::new();
            for t in combo.split('/').map(str::trim) {
                let k = norm(t);
                let found = db
                    .cards
                    .iter()
                    .find(|c| c.ctype == CardType::Character && norm(&c.name) == k);
                match found {
                    Some(c) if !titles.contains(&c.title) => titles.push(c.title),
                    Some(_) => {}
                    None => {
                        return Err(err(
                            n,
                            format!(
                                "column combo: \"{}\" is not the title of a character of the file",
                                excerpt(t)
                            ),
                        ))
                    }
                }
            }
            if titles.len() > MAX_COMBO {
                return Err(err(n, format!("column combo: at most {MAX_COMBO} titles")));
            }
            db.cards[i].combo = titles;
        }
        db.derive_sets();
        Ok(db)
    }

    fn parse_row(&mut self, r: &csv::StringRecord) -> Result<Card, (&'static str, String)> {
        let col = |k: usize| r.get(k).unwrap_or("").trim();
        let number = col(0);
        if number.is_empty()
            || number.len() > 20
            || !number
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return Err((
                "number",
                format!("\"{}\": 1 to 20 letters, digits or '-'", excerpt(number)),
            ));
        }
        let name = col(1);
        if name.is_empty()
            || name.chars().count() > 60
            || name.contains(['#', ',', '[', ']', '@', '/'])
        {
            return Err((
                "name",
                "1 to 60 characters, no '#', ',', '[', ']', '@' or '/'".to_string(),
            ));
        }
        let ctype = match col(2).to_ascii_lowercase().as_str() {
            "character" => CardType::Character,
            "attack" => CardType::Attack,
            "item" => CardType::Item,
            "event" => CardType::Event,
            other => {
                return Err((
                    "type",
                    format!(
                        "\"{}\": expected character, attack, item or event",
                        excerpt(other)
                    ),
                ))
            }
        };
        let mut kind = match (ctype, col(3).to_ascii_lowercase().as_str()) {
            (CardType::Attack, "normal") => Kind::Normal,
            (CardType::Attack, "forceful") => Kind::Forceful,
            (CardType::Attack, "counter") => Kind::Counter,
            (CardType::Attack, "forceful_counter") => Kind::ForcefulCounter,
            (CardType::Attack, other) => {
                return Err((
                    "kind",
                    format!(
                        "\"{}\": an attack card's kind is normal, forceful, counter or forceful_counter",
                        excerpt(other)
                    ),
                ))
            }
            (_, "") => Kind::None,
            (_, _) => return Err(("kind", "only an attack card has a kind".into())),
        };
        let powered = matches!(ctype, CardType::Character | CardType::Attack);
        let power = if powered {
            parse_int(col(4), 0i16, MAX_POWER).map_err(|e| ("power", e))?
        } else if !col(4).is_empty() {
            return Err(("power", "only a character or attack card has one".into()));
        } else {
            0
        };
        let attr = match (ctype, col(5).to_ascii_lowercase().as_str()) {
            (CardType::Event, "") => NO_ATTR,
            (CardType::Event, _) => {
                return Err(("attribute", "an event has no attribute (M-DECK-2)".into()))
            }
            (_, a) => match ATTRIBUTES.iter().position(|x| *x == a) {
                Some(k) => k as u8,
                None => {
                    return Err((
                        "attribute",
                        format!(
                            "\"{}\": expected wind, forest, fire or mountain (M-DECK-2)",
                            excerpt(a)
                        ),
                    ))
                }
            },
        };
        match (kind, col(6).is_empty()) {
            (Kind::Forceful, true) => return Err((
                "combo",
                "a forceful attack card names its combo: character titles, `/`-separated (M-ATK-4)"
                    .into(),
            )),
            (Kind::Forceful, false) | (_, true) => {}
            (_, false) => return Err(("combo", "only a forceful attack card has one".into())),
        }
        let abilities = super::dsl::effects(col(7), ctype).map_err(|e| ("effect", e))?;
        if ctype == CardType::Event {
            kind = match abilities.first().map(|a| a.trigger) {
                Some(Trigger::Play) => Kind::Play,
                Some(Trigger::Flip) => Kind::Flip,
                Some(Trigger::PlayFlip) => Kind::PlayFlip,
                _ => unreachable!("dsl::effects requires one play, flip or play_flip text"),
            };
        }
        let k = norm(name);
        let title = match self.titles.iter().position(|t| *t == k) {
            Some(t) => t,
            None => {
                self.titles.push(k);
                self.titles.len() - 1
            }
        };
        let mut card = Card {
            number: number.to_string(),
            name: name.to_string(),
            title: title as u8,
            ctype,
            kind,
            power,
            attr,
            combo: Vec::new(),
            abilities,
            play: false,
            flip: false,
            when: None,
            has_static: false,
            effect_text: col(7).to_string(),
        };
        card.derive();
        Ok(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every derived card-id set holds exactly the cards its property names, read from each card
    /// here, for the bundled card file and after `ablate` added its filler card (a stale set would
    /// change legal actions, triggers and salvage).
    #[test]
    fn the_card_id_sets_hold_the_cards_of_their_property() {
        use crate::core::GameDef;
        use crate::games::tmnt::TmntGame;
        let check = |db: &CardDb| {
            let s = &db.sets;
            for (k, c) in db.cards.iter().enumerate() {
                let id = k as CardId;
                let event = c.ctype == CardType::Event;
                assert_eq!(
                    s.play_events.contains(id),
                    event && matches!(c.kind, Kind::Play | Kind::PlayFlip)
                );
                assert_eq!(s.items.contains(id), c.ctype == CardType::Item);
                assert_eq!(s.attacks.contains(id), c.ctype == CardType::Attack);
                assert_eq!(
                    s.counters.contains(id),
                    matches!(c.kind, Kind::Counter | Kind::ForcefulCounter)
                );
                for a in 0..5 {
                    assert_eq!(
                        s.attrs[a].contains(id),
                        usize::from(c.attr.min(NO_ATTR)) == a
                    );
                }
                for t in 0..4 {
                    assert_eq!(s.types[t].contains(id), c.ctype as usize == t);
                }
                for p in 0..=MAX_POWER {
                    assert_eq!(s.power_le[p as usize].contains(id), c.power <= p);
                    assert_eq!(s.power_ge[p as usize].contains(id), c.power >= p);
                }
                assert_eq!(
                    s.worth.of(id),
                    [
                        super::super::heuristic::hand_value(c),
                        super::super::heuristic::set_value(c)
                    ]
                );
                for w in 0..5 {
                    let has = c.when.is_some_and(|x| x as usize == w);
                    assert_eq!(
                        s.when_chars[w].contains(id),
                        has && c.ctype == CardType::Character
                    );
                    assert_eq!(
                        s.when_items[w].contains(id),
                        has && c.ctype == CardType::Item
                    );
                }
            }
        };
        let mut db = crate::games::tmnt::bundled_cards();
        check(&db);
        let text = include_str!("../../../decks/tmnt/starter_north.deck");
        let deck = TmntGame::parse_deck(&db, text, "starter_north", "starter_north").unwrap();
        let before = db.cards.len();
        let id = TmntGame::deck_cards(&deck)[0].0;
        TmntGame::ablate(&mut db, &deck, id);
        assert_eq!(db.cards.len(), before + 1, "ablate adds its filler card");
        check(&db);
    }
}
