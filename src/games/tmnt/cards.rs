//! The TMNT card file (`decks/tmnt/cards.csv`, documented in `docs/cards.md`, "TMNT TCG"): card
//! types and kinds, the effect language's TMNT words, and the card database. Parsing happens once
//! at load; the engine only sees the compact types here.

use crate::core::input::{csv_rows, excerpt, parse_int, InputError};
use crate::core::lang::TargetMode;
use crate::core::Bits;
use crate::core::Reason;

/// An index into [`CardDb::cards`] (its row in the card file).
pub type CardId = u8;

pub use crate::core::input::MAX_POOL;
/// The most abilities of a card and effects of an ability.
pub const MAX_ABILITIES: usize = 2;
pub const MAX_EFFECTS: usize = 8;
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

pub use super::effects::*;

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
    /// resolves when placed / when turned face up, its "when" clause, a plain `static` text
    /// (`power all own CARDS ±N` of an Item, read by the hot path).
    pub play: bool,
    pub flip: bool,
    pub when: Option<When>,
    pub has_static: bool,
    /// The index in `abilities` of the text placing it resolves, of its <Flip> text, its
    /// "when" text, its `instead` text, its `anytime` text, its `static` text ([`NO_AB`] if
    /// none).
    pub play_ab: u8,
    pub flip_ab: u8,
    pub when_ab: u8,
    pub instead_ab: u8,
    pub anytime_ab: u8,
    pub static_ab: u8,
    /// Its "when" text has a condition or `[once]` (checked as it triggers, M-EFFECTS-8,
    /// M-ONCE-1).
    pub gated: bool,
    /// Its static is more than `power all own CARDS ±N` on an Item (a condition, Block Zone 1,
    /// a Character's own power, another static effect): read by the cold paths.
    pub static_cold: bool,
    /// Placing it has a condition (`play if …`, M-EFFECTS-9).
    pub play_cond: bool,
    /// A text of it reads `those` cards.
    pub reads_those: bool,
    /// The text as written, for display.
    pub effect_text: String,
}

/// No ability (an unused index of [`Card::play_ab`] and the like).
pub const NO_AB: u8 = u8::MAX;

impl Card {
    /// A character of power 0, no attribute, no text (the fields a card file fills are set by
    /// the caller; [`Card::derive`] sets the rest).
    pub fn blank() -> Card {
        Card {
            number: String::new(),
            name: String::new(),
            title: 0,
            ctype: CardType::Character,
            kind: Kind::None,
            power: 0,
            attr: NO_ATTR,
            combo: Vec::new(),
            abilities: Vec::new(),
            play: false,
            flip: false,
            when: None,
            has_static: false,
            play_ab: NO_AB,
            flip_ab: NO_AB,
            when_ab: NO_AB,
            instead_ab: NO_AB,
            anytime_ab: NO_AB,
            static_ab: NO_AB,
            gated: false,
            static_cold: false,
            play_cond: false,
            reads_those: false,
            effect_text: String::new(),
        }
    }

    /// Sets the derived fields from `abilities`.
    pub fn derive(&mut self) {
        let find = |f: &dyn Fn(Trigger) -> bool| {
            self.abilities
                .iter()
                .position(|a| f(a.trigger))
                .map_or(NO_AB, |k| k as u8)
        };
        self.play_ab = find(&|t| matches!(t, Trigger::Play | Trigger::PlayFlip));
        self.flip_ab = find(&|t| matches!(t, Trigger::Flip | Trigger::PlayFlip));
        self.when_ab = find(&|t| matches!(t, Trigger::When(_)));
        self.instead_ab = find(&|t| t == Trigger::Instead);
        self.anytime_ab = find(&|t| t == Trigger::Anytime);
        self.static_ab = find(&|t| t == Trigger::Static);
        self.play = self.play_ab != NO_AB;
        self.flip = self.flip_ab != NO_AB;
        self.when = self.when().map(|(w, _)| w);
        self.gated = self
            .ability(self.when_ab)
            .is_some_and(|a| a.once || a.cond.is_some());
        self.play_cond = self.ability(self.play_ab).is_some_and(|a| a.cond.is_some());
        self.static_cold = self.ability(self.static_ab).is_some_and(|a| {
            self.ctype != CardType::Item
                || a.cond.is_some()
                || a.effects.iter().any(|e| match e {
                    Effect::Power(t, _) => t.zone != zone::PLAY,
                    _ => true,
                })
        });
        // The hot path reads the plain statics; the cold one the others.
        self.has_static = self.static_ab != NO_AB && !self.static_cold;
        let those = |t: &Target| t.filter.those;
        self.reads_those = self.abilities.iter().any(|a| {
            a.effects.iter().any(|e| match e {
                Effect::Move(t, _) | Effect::Power(t, _) | Effect::Peek(t) => those(t),
                _ => false,
            })
        });
    }

    /// Whether every text of the card is of the plainest kinds, the engine played before the
    /// card language: <Play>, <Flip>, statics of Items and the five first "when" clauses, as
    /// lists of fixed effects on cards in play or the Trash.
    pub fn plain(&self) -> bool {
        let plain_target = |t: &Target| {
            matches!(
                t.mode,
                TargetMode::This | TargetMode::All | TargetMode::Choose
            ) && t.zone == zone::PLAY
                && t.filter.kinds | t.filter.not_kinds | t.filter.face == 0
                && t.filter.attacking.is_none()
                && !t.filter.those
                && !t.filter.has_titles()
        };
        self.abilities.iter().all(|a| {
            let trigger = match a.trigger {
                Trigger::Play | Trigger::Flip | Trigger::PlayFlip => true,
                Trigger::Static => self.ctype == CardType::Item,
                Trigger::When(w) => (w as usize) < 5,
                Trigger::Instead | Trigger::Anytime => false,
            };
            trigger
                && a.cond.is_none()
                && !a.once
                && a.program.is_plain()
                && a.program.later.is_empty()
                && a.effects.iter().all(|e| match e {
                    Effect::Draw(n) | Effect::Trash { n, .. } => n.fixed().is_some(),
                    Effect::Discard { .. } | Effect::Salvage(_) | Effect::Bonus(_) => true,
                    Effect::Power(t, n) => plain_target(t) && n.fixed().is_some(),
                    _ => false,
                })
        })
    }

    /// The ability at index `k`, if there is one.
    #[inline]
    pub fn ability(&self, k: u8) -> Option<&Ability> {
        self.abilities.get(usize::from(k))
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
        self.ability(self.play_ab).map(|a| a.effects.as_slice())
    }

    /// The effects that resolve when the card is turned face up on a Block Zone.
    pub fn flip_text(&self) -> Option<&[Effect]> {
        self.ability(self.flip_ab).map(|a| a.effects.as_slice())
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
    pub when_chars: [IdSet; WHENS],
    pub when_items: [IdSet; WHENS],
    /// Cards whose "when" text has a condition or `[once]` ([`Card::gated`]), whose placing has
    /// a condition ([`Card::play_cond`]), with a cold static ([`Card::static_cold`]), an
    /// `anytime` text, an `instead` text.
    pub gated: IdSet,
    pub play_cond: IdSet,
    pub static_cold: IdSet,
    pub anytime: IdSet,
    pub instead: IdSet,
    /// What the card file's texts need of the engine beyond the plainest texts: bit `When as
    /// usize` for each "when" clause some card has, and the [`hook`] bits. The engine's hot
    /// paths test one bit and skip the rest for a card file without them.
    pub hooks: u32,
    /// The phases and steps (bit per [`phase`] id) some `start` text names.
    pub starts: u16,
    /// Some card has a static the cold path reads ([`Card::static_cold`]).
    pub static_cold_any: bool,
    /// Some card is an Item (M-ITM-1): without one (narrowed to a match's decks, as the bench
    /// match), no hand holds an Item and the Item step's only action is `pass`, taken without a
    /// walk of the hand (`TmntGame::item_in_hand`).
    pub item_any: bool,
    /// Some card's text is more than the plainest texts ([`Card::plain`]): the engine goes
    /// through the card language's stages and state (a card file of plain texts plays exactly
    /// as before the card language).
    pub lang: bool,
    /// The policy's worth of each card id (`hand_value`, `set_value`): `[in hand, set on a Block
    /// Zone]`, read by id without a look at the card.
    pub worth: Worths,
}

/// The [`CardSets::hooks`] bits above the "when" clauses.
pub mod hook {
    /// Every "when" clause's bit (`1 << When as u32`): some card of the match has a "when" text.
    pub const WHENS: u32 = (1u32 << super::WHENS) - 1;
    const _: () = assert!(WHENS < GATED);
    /// A "when" text with a condition or `[once]`.
    pub const GATED: u32 = 1 << 16;
    /// A static the cold path reads.
    pub const STATIC_COLD: u32 = 1 << 17;
    /// A card placed only if a condition holds.
    pub const PLAY_COND: u32 = 1 << 18;
    pub const ANYTIME: u32 = 1 << 19;
    pub const INSTEAD: u32 = 1 << 20;
    /// A text reads `those` cards.
    pub const THOSE: u32 = 1 << 21;
    /// `item_any_attribute` or `free_item`: the Item phase's rule changes.
    pub const ITEM_RULE: u32 = 1 << 22;
    /// `search`: a deck is shuffled during play.
    pub const SHUFFLE: u32 = 1 << 23;
    /// `later`: a delayed text.
    pub const LATER: u32 = 1 << 24;
    /// `ban`.
    pub const BAN: u32 = 1 << 25;
    /// `reduce`, `excess_cap`, `excess_extra`, `keep_anyway`: the Attack phase's rules change.
    pub const ATTACK_RULE: u32 = 1 << 26;
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
            sets.item_any |= c.ctype == CardType::Item;
            put(&mut sets.attacks, c.ctype == CardType::Attack);
            put(
                &mut sets.counters,
                matches!(c.kind, Kind::Counter | Kind::ForcefulCounter),
            );
            put(&mut sets.attrs[usize::from(c.attr.min(NO_ATTR))], true);
            put(&mut sets.types[c.ctype as usize], true);
            sets.worth.0[usize::from(id)] = [hand_value(c), set_value(c)];
            if let Some(w) = c.when {
                put(
                    &mut sets.when_chars[w as usize],
                    c.ctype == CardType::Character,
                );
                put(&mut sets.when_items[w as usize], c.ctype == CardType::Item);
                sets.hooks |= 1 << w as u32;
                if w == When::Start {
                    let a = c.ability(c.when_ab).expect("a when text");
                    sets.starts |= 1 << a.moment.phase;
                }
            }
            put(&mut sets.gated, c.gated);
            put(&mut sets.play_cond, c.play_cond);
            put(&mut sets.static_cold, c.static_cold);
            sets.static_cold_any |= c.static_cold;
            put(&mut sets.anytime, c.anytime_ab != NO_AB);
            put(&mut sets.instead, c.instead_ab != NO_AB);
            let flags = [
                (c.gated, hook::GATED),
                (c.static_cold, hook::STATIC_COLD),
                (c.play_cond, hook::PLAY_COND),
                (c.anytime_ab != NO_AB, hook::ANYTIME),
                (c.instead_ab != NO_AB, hook::INSTEAD),
                (c.reads_those, hook::THOSE),
            ];
            for (yes, bit) in flags {
                if yes {
                    sets.hooks |= bit;
                }
            }
            if !c.plain() {
                sets.lang = true;
            }
            for a in &c.abilities {
                if !a.program.later.is_empty() {
                    sets.hooks |= hook::LATER;
                }
                for e in &a.effects {
                    sets.hooks |= match e {
                        Effect::ItemAnyAttribute | Effect::FreeItem => hook::ITEM_RULE,
                        Effect::Search(_) => hook::SHUFFLE,
                        Effect::Ban { .. } => hook::BAN,
                        Effect::Reduce(_)
                        | Effect::ExcessCap(_)
                        | Effect::ExcessExtra(_)
                        | Effect::KeepAnyway => hook::ATTACK_RULE,
                        _ => 0,
                    };
                }
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

    /// Narrows the flags the engine's hot paths test ([`CardSets::hooks`], `starts`,
    /// `static_cold_any`, `item_any`, `lang`) to the cards `ids` (a match's two decks): a card of the file
    /// that is in neither deck never plays, so its texts must not cost the match anything. The
    /// per-card sets are kept.
    pub fn narrow_to(&mut self, ids: &[CardId]) {
        let mut sub = self.clone();
        let mut seen: Vec<CardId> = ids.to_vec();
        seen.sort_unstable();
        seen.dedup();
        sub.cards = seen.iter().map(|&id| self.card(id).clone()).collect();
        sub.derive_sets();
        self.sets.hooks = sub.sets.hooks;
        self.sets.starts = sub.sets.starts;
        self.sets.static_cold_any = sub.sets.static_cold_any;
        self.sets.item_any = sub.sets.item_any;
        self.sets.lang = sub.sets.lang;
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
        if f.kinds | f.not_kinds != 0 || f.has_titles() {
            m = m.and(&self.ids_where(|c| Self::kind_and_title_ok(c, f)));
        }
        m
    }

    /// The kind and title tests of `f` on card `c` (docs/cards.md: flags and `name=`).
    pub fn kind_and_title_ok(c: &Card, f: &Filter) -> bool {
        let k = 1u8 << c.kind as u8;
        (f.kinds == 0 || f.kinds & k != 0)
            && f.not_kinds & k == 0
            && (!f.has_titles() || f.titles.contains(&c.title))
    }

    /// A card by number, or by a title only one number has. `Err` says why not.
    pub fn lookup(&self, key: &str) -> Result<CardId, Reason> {
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
        // Every title first, in the order the rows give them (the titles' indices), so that a
        // text's `name=` may name a card further down.
        for (_, r) in rows.iter().take(MAX_POOL) {
            let k = norm(r.get(1).unwrap_or("").trim());
            if !db.titles.contains(&k) {
                db.titles.push(k);
            }
        }
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
            parse_int(col(4), 0i16, MAX_POWER).map_err(|e| ("power", e.0))?
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
        let abilities =
            super::dsl::effects_in(col(7), ctype, &self.titles).map_err(|e| ("effect", e.0))?;
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
            effect_text: col(7).to_string(),
            ..Card::blank()
        };
        card.derive();
        Ok(card)
    }
}

/// What a card is worth kept in hand (to attack, counter, play): a card fact the policy reads
/// by id ([`CardSets::worth`]).
pub(crate) fn hand_value(c: &Card) -> i32 {
    let text = i32::from(c.play);
    match (c.ctype, c.kind) {
        (CardType::Attack, Kind::Counter) => 3 * i32::from(c.power) + 3 + text,
        (CardType::Attack, Kind::ForcefulCounter) => 3 * i32::from(c.power) + 1 + text,
        (CardType::Attack, _) => 3 * i32::from(c.power) + 2 + text,
        (CardType::Event, Kind::Play | Kind::PlayFlip) => 6,
        (CardType::Item, _) => 5,
        _ => 1,
    }
}

/// What a card is worth set face down on a Block Zone (flipped in its owner's Flip phase or by
/// damage).
pub(crate) fn set_value(c: &Card) -> i32 {
    let text = i32::from(c.flip) * 3;
    match (c.ctype, c.kind) {
        (CardType::Character, _) => 3 * i32::from(c.power) + 4 + text,
        (CardType::Attack, Kind::ForcefulCounter) => text,
        (CardType::Attack, _) => 3 * i32::from(c.power) + text,
        (CardType::Event, Kind::Flip | Kind::PlayFlip) => 5,
        _ => 0,
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
                assert_eq!(s.worth.of(id), [super::hand_value(c), super::set_value(c)]);
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
