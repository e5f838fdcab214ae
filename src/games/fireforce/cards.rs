//! The Fire Force card file (`decks/fireforce/cards.csv`, documented in `docs/cards.md`): card
//! types, the effect language's Fire Force words, and the card database. Parsing happens once at
//! load; the engine only sees the compact types here.

use crate::core::input::{csv_rows, excerpt, parse_int, InputError};
use crate::core::lang::Side;
use crate::core::Reason;

/// An index into [`CardDb::cards`].
pub type CardId = u8;
/// A set of attributes as bits; a card file names at most [`MAX_ATTRS`] (real cards carry
/// traits, organizations and factions, so a set of real cards names dozens).
pub type Attrs = u64;
/// The most distinct attributes of a card file.
pub const MAX_ATTRS: usize = 64;

pub use crate::core::input::MAX_POOL;
/// The most abilities of a card, effects of an ability, and activated abilities of a Unit (they
/// bound the legal-action lists, `engine::legal`).
pub const MAX_ABILITIES: usize = 3;
pub const MAX_EFFECTS: usize = 8;
pub const MAX_ACTIVATED: usize = 2;

pub const HEADER: [&str; 11] = [
    "number",
    "name",
    "type",
    "cost",
    "power",
    "support",
    "flame",
    "attributes",
    "keywords",
    "effect",
    "trigger",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    Unit,
    Event,
    Flame,
}

impl CardType {
    pub const UNIT_BIT: u8 = 1;
    pub const EVENT_BIT: u8 = 2;
    pub const FLAME_BIT: u8 = 4;

    /// The bit of the type in [`Filter::types`].
    #[inline]
    pub fn bit(self) -> u8 {
        match self {
            CardType::Unit => CardType::UNIT_BIT,
            CardType::Event => CardType::EVENT_BIT,
            CardType::Flame => CardType::FLAME_BIT,
        }
    }
}

/// The keywords as bits (F-KEYWORDS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Keywords(pub u8);

impl Keywords {
    pub const BLITZ: Keywords = Keywords(1);
    pub const BLOCKER: Keywords = Keywords(2);
    pub const PRAY: Keywords = Keywords(4);
    pub const ADOLLA_LINK: Keywords = Keywords(8);
    pub const NAMES: [(&'static str, Keywords); 4] = [
        ("blitz", Keywords::BLITZ),
        ("blocker", Keywords::BLOCKER),
        ("pray", Keywords::PRAY),
        ("adolla_link", Keywords::ADOLLA_LINK),
    ];

    #[inline]
    pub fn has(self, k: Keywords) -> bool {
        self.0 & k.0 != 0
    }

    pub fn parse(w: &str) -> Option<Keywords> {
        Keywords::NAMES
            .iter()
            .find(|(n, _)| *n == w)
            .map(|(_, k)| *k)
    }

    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Keywords::NAMES
            .iter()
            .filter(move |(_, k)| self.has(*k))
            .map(|(n, _)| *n)
    }
}

pub use super::effects::*;

impl Filter {
    /// The conditions on a card's printed fields, but power: kind, attributes, keywords, Flame,
    /// cost, Reaction.
    #[inline]
    pub fn card_ok(&self, c: &Card) -> bool {
        self.unit_ok(c)
            && (self.types == 0 || self.types & c.ctype.bit() != 0)
            && (!self.reaction || c.is_reaction_event())
    }

    /// [`Filter::card_ok`] of a card known to be a Unit: attributes, keywords, Flame, cost.
    #[inline]
    pub fn unit_ok(&self, c: &Card) -> bool {
        (self.attrs == 0 || c.attrs & self.attrs != 0)
            && c.keywords.0 & self.keywords.0 == self.keywords.0
            && self.flame.is_none_or(|f| c.flame == f)
            && self.cost_min.is_none_or(|m| c.cost >= m)
            && self.cost_max.is_none_or(|m| c.cost <= m)
    }

    /// Whether a Unit may pass the filter at all (its kinds name Units, it asks for no Event).
    #[inline]
    pub fn units_pass(&self) -> bool {
        (self.types == 0 || self.types & CardType::UNIT_BIT != 0) && !self.reaction
    }

    /// Whether [`Filter::unit_ok`] reads the card at all.
    #[inline]
    pub fn reads_unit(&self) -> bool {
        self.attrs != 0
            || self.keywords.0 != 0
            || self.flame.is_some()
            || self.cost_min.is_some()
            || self.cost_max.is_some()
    }

    /// [`Filter::card_ok`] and the power bounds on printed power (a static's filter: no static
    /// reads another's result).
    pub fn printed_ok(&self, c: &Card) -> bool {
        self.card_ok(c)
            && self.power_min.is_none_or(|m| c.power >= m)
            && self.power_max.is_none_or(|m| c.power <= m)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub number: String,
    pub name: String,
    pub ctype: CardType,
    pub cost: u8,
    pub power: i16,
    pub support: i16,
    /// The card has Flame (every Flame card; some Units).
    pub flame: bool,
    pub attrs: Attrs,
    pub keywords: Keywords,
    pub abilities: Vec<Ability>,
    pub statics: Vec<Static>,
    /// Its prohibitions (`static: cant …`, decision F-CANT-1).
    pub cant: Cant,
    /// The Life trigger ability (F-BAT-8), if any.
    pub life_trigger: Option<Box<Ability>>,
    /// The text as written, for display.
    pub effect_text: String,
    pub trigger_text: String,
    /// Derived by [`CardDb::derive`]: bit `3 * t + k` for each ability `k` with trigger `t`
    /// ([`Card::on`]).
    pub on: u64,
    /// Derived by [`CardDb::derive`]: bit `k` for each ability `k` gated when it triggers (a
    /// condition in its head, or Once Per Turn).
    pub gated: u8,
}

impl Card {
    pub fn is_unit(&self) -> bool {
        self.ctype == CardType::Unit
    }

    /// A Reaction Event (F-KW-REACTION).
    #[inline]
    pub fn is_reaction_event(&self) -> bool {
        self.ctype == CardType::Event && self.on(Trigger::Reaction) != 0
    }

    /// The indices of the abilities with this trigger, as a mask (from [`Card::on`]).
    #[inline]
    pub fn on(&self, t: Trigger) -> u64 {
        self.on >> (3 * t as u32) & 7
    }

    /// The abilities with this trigger, with their index.
    pub fn abilities_on(&self, t: Trigger) -> impl Iterator<Item = (usize, &Ability)> {
        self.abilities
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.trigger == t)
    }

    pub fn adolla_burst(&self, db: &CardDb) -> bool {
        db.adolla_burst != 0 && self.attrs & db.adolla_burst != 0
    }
}

/// The card database of one card file.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    pub cards: Vec<Card>,
    /// Attribute names, bit `k` for `attr_names[k]`.
    pub attr_names: Vec<String>,
    /// The bit of `adolla_burst` ([THE ADOLLA BURST]), 0 if the file never names it.
    pub adolla_burst: Attrs,
    /// Derived by [`CardDb::derive`]: each card id's facts that legal actions read, a few bytes a
    /// card in one table indexed by the `u8` id (no bounds check, no walk of the whole `Card`).
    pub brief: Briefs,
}

/// A card's prohibitions (`static: cant …`, decision F-CANT-1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cant {
    /// `cant self attack_player`: this Unit attacks only the opponent's Units.
    pub attack_player: bool,
    /// `cant self be_blocked [by UNITS]`: no Blocker blocks this Unit, or, with `by`, none of
    /// those described ([`Cant::blocked_by`]).
    pub unblockable: bool,
    pub blocked_by: Option<Box<Target>>,
    /// `cant self be_chosen`: the opponent's effects do not choose this Unit.
    pub chosen: bool,
    /// `cant bearer be_chosen` (a Flame card's): the opponent's effects do not choose the Unit it
    /// is given to.
    pub bearer_chosen: bool,
    /// Its cost changes (`static: cost …`, decision F-COST-8).
    pub costs: Vec<CostMod>,
}

/// A change of the cost to dispatch or play cards from hand (`static [if COND]: cost CARDS ±N`,
/// decision F-COST-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostMod {
    /// `cost self in hand`: the card's own cost (else the cards of `side` the card on the Scene
    /// reaches).
    pub this: bool,
    pub side: Side,
    /// The cards it changes (printed fields).
    pub filter: Filter,
    /// `first`: only the first card passing the filter (a Reaction Event) its owner plays each
    /// turn.
    pub first: bool,
    pub n: i8,
    pub cond: Option<Box<Cond>>,
}

impl Cant {
    /// Whether the card has a prohibition.
    pub fn any(&self) -> bool {
        *self != Cant::default()
    }
}

/// The facts of one card id that legal-action generation reads ([`CardDb::brief`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Brief {
    /// The printed cost (F-COST-1).
    pub cost: u8,
    /// [`Brief::UNIT`] and the other flags.
    pub flags: u16,
    /// [`Card::on`] of [`Trigger::Active`] and of [`Trigger::Reaction`].
    pub active: u8,
    pub reaction: u8,
    /// The printed power (F-BAT-7; [`crate::games::fireforce::FireForceGame::power`] adds the
    /// rest).
    pub power: i16,
}

impl Brief {
    /// A Unit (F-MAIN-1: dispatched from hand).
    pub const UNIT: u16 = 1;
    /// An Event whose first ability is `main` (F-MAIN-1: played from hand).
    pub const MAIN_EVENT: u16 = 2;
    /// An Event whose first ability is `reaction` (F-BAT-5, F-KW-REACTION).
    pub const REACT_EVENT: u16 = 4;
    /// The card has Flame (F-COST-1, F-BAT-2).
    pub const FLAME: u16 = 8;
    /// F-KW-BLITZ, F-KW-BLOCKER, F-KW-PRAY.
    pub const BLITZ: u16 = 16;
    pub const BLOCKER: u16 = 32;
    pub const PRAY: u16 = 64;
    /// Support power above 0 (F-BAT-6).
    pub const SUPPORT: u16 = 128;
    /// A [THE ADOLLA BURST] card (F-KW-ADOLLA-LINK).
    pub const BURST: u16 = 256;
    /// An Event whose first ability is `main` / `reaction` with a condition in its head ("play
    /// only if", decision F-EFF-6): not [`Brief::MAIN_EVENT`] / [`Brief::REACT_EVENT`], which
    /// are the Events legal whenever their cost is paid.
    pub const GATED_MAIN: u16 = 512;
    pub const GATED_REACT: u16 = 1024;
    /// `cant self attack_player` (decision F-CANT-1).
    pub const NO_FACE: u16 = 2048;
    /// Flame and not [`Brief::NO_FACE`]: the Unit may attack the player by itself (F-BAT-2).
    pub const FACE: u16 = 4096;
    /// An ability with the `dispatched` trigger (what the heuristic weighs before a dispatch).
    pub const DISPATCHED: u16 = 8192;

    /// The brief of `c` (of the card file `db`).
    pub fn of(c: &Card, db: &CardDb) -> Brief {
        let event = c.ctype == CardType::Event;
        let flag = |b: bool, f: u16| if b { f } else { 0 };
        let main = event && c.on(Trigger::Main) & 1 != 0;
        let react = event && c.on(Trigger::Reaction) & 1 != 0;
        let gated = c.abilities.first().is_some_and(|a| a.gated());
        Brief {
            cost: c.cost,
            flags: flag(c.is_unit(), Brief::UNIT)
                | flag(main && !gated, Brief::MAIN_EVENT)
                | flag(react && !gated, Brief::REACT_EVENT)
                | flag(main && gated, Brief::GATED_MAIN)
                | flag(react && gated, Brief::GATED_REACT)
                | flag(c.flame, Brief::FLAME)
                | flag(c.keywords.has(Keywords::BLITZ), Brief::BLITZ)
                | flag(c.keywords.has(Keywords::BLOCKER), Brief::BLOCKER)
                | flag(c.keywords.has(Keywords::PRAY), Brief::PRAY)
                | flag(c.support > 0, Brief::SUPPORT)
                | flag(c.adolla_burst(db), Brief::BURST)
                | flag(c.cant.attack_player, Brief::NO_FACE)
                | flag(c.flame && !c.cant.attack_player, Brief::FACE)
                | flag(
                    c.abilities.iter().any(|a| a.trigger == Trigger::Dispatched),
                    Brief::DISPATCHED,
                ),
            active: c.on(Trigger::Active) as u8,
            reaction: c.on(Trigger::Reaction) as u8,
            power: c.power,
        }
    }

    #[inline]
    pub fn has(self, f: u16) -> bool {
        self.flags & f != 0
    }
}

/// [`Brief`]s by card id, for every `u8` (ids past the file's cards are all zero).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Briefs(pub Box<[Brief; 256]>);

impl Default for Briefs {
    fn default() -> Briefs {
        Briefs(Box::new([Brief::default(); 256]))
    }
}

/// Lookups ignore case and runs of spaces.
pub use crate::core::input::norm;

impl CardDb {
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id as usize]
    }

    /// The derived facts of card `id` ([`Brief`]).
    #[inline]
    pub fn brief(&self, id: CardId) -> Brief {
        self.brief.0[usize::from(id)]
    }

    /// A card by number, or by a name only one number has. `Err` says why not.
    pub fn lookup(&self, key: &str) -> Result<CardId, Reason> {
        let cards = self
            .cards
            .iter()
            .map(|c| (c.number.as_str(), c.name.as_str()));
        crate::core::input::lookup_card(key, cards).map(|i| i as CardId)
    }

    pub(super) fn attr_bit(&mut self, w: &str) -> Result<Attrs, Reason> {
        if w.is_empty() || !w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(
                format!("attribute \"{}\": letters, digits and `_` only", excerpt(w)).into(),
            );
        }
        let w = w.to_ascii_lowercase();
        let k = match self.attr_names.iter().position(|n| *n == w) {
            Some(k) => k,
            None => {
                if self.attr_names.len() == MAX_ATTRS {
                    return Err(format!("more than {MAX_ATTRS} attributes in the card file").into());
                }
                self.attr_names.push(w.clone());
                self.attr_names.len() - 1
            }
        };
        if w == "adolla_burst" {
            self.adolla_burst = 1 << k;
        }
        Ok(1 << k)
    }

    pub fn attr_list(&self, a: Attrs) -> Vec<&str> {
        (0..self.attr_names.len())
            .filter(|k| a & (1 << k) != 0)
            .map(|k| self.attr_names[k].as_str())
            .collect()
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
            db.cards.push(card);
        }
        if db.cards.is_empty() {
            return Err(err(0, "no cards".into()));
        }
        db.derive();
        Ok(db)
    }

    /// Computes the derived fields of every card ([`Static::hits`], [`Card::on`]); after any
    /// change to the cards (parsing does it; so does `ablate`'s filler card).
    pub fn derive(&mut self) {
        const _: () = assert!(MAX_ABILITIES <= 3, "Card::on has 3 bits a trigger");
        const _: () = assert!(Trigger::NAMES.len() * 3 <= 64, "Card::on is a u64");
        for c in &mut self.cards {
            c.gated = c
                .abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| a.cond.is_some() || a.cost.once)
                .fold(0, |m, (k, _)| m | 1 << k);
            for st in &mut c.statics {
                st.plain = st.is_plain();
                st.gate = st.gate_bits();
            }
            c.on = c
                .abilities
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, a)| m | 1 << (3 * a.trigger as u32 + k as u32));
        }
        let hits: Vec<Vec<[u64; 4]>> = self
            .cards
            .iter()
            .map(|src| {
                src.statics
                    .iter()
                    .map(|st| {
                        let mut h = [0u64; 4];
                        for (id, c) in self.cards.iter().enumerate() {
                            if st.filter.printed_ok(c) {
                                h[id / 64] |= 1 << (id % 64);
                            }
                        }
                        h
                    })
                    .collect()
            })
            .collect();
        for (c, h) in self.cards.iter_mut().zip(hits) {
            for (st, h) in c.statics.iter_mut().zip(h) {
                st.hits = h;
            }
        }
        let mut brief = Briefs::default();
        for (b, c) in brief.0.iter_mut().zip(&self.cards) {
            *b = Brief::of(c, self);
        }
        self.brief = brief;
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
        if name.is_empty() || name.chars().count() > 60 || name.contains(['#', ',', '[', ']']) {
            return Err((
                "name",
                "1 to 60 characters, no '#', ',', '[' or ']'".to_string(),
            ));
        }
        let ctype = match col(2).to_ascii_uppercase().as_str() {
            "UNIT" => CardType::Unit,
            "EVENT" => CardType::Event,
            "FLAME" => CardType::Flame,
            other => {
                return Err((
                    "type",
                    format!("\"{}\": expected UNIT, EVENT or FLAME", excerpt(other)),
                ))
            }
        };
        let unit = ctype == CardType::Unit;
        let blank_unless = |k: usize, name: &'static str, allowed: bool| {
            if !allowed && !col(k).is_empty() {
                Err((
                    name,
                    format!(
                        "only a {} has one",
                        if name == "cost" {
                            "UNIT or EVENT"
                        } else {
                            "UNIT"
                        }
                    ),
                ))
            } else {
                Ok(())
            }
        };
        blank_unless(3, "cost", ctype != CardType::Flame)?;
        for (k, name) in [(4, "power"), (5, "support"), (6, "flame"), (8, "keywords")] {
            blank_unless(k, name, unit)?;
        }
        let cost = if ctype == CardType::Flame {
            0
        } else {
            parse_int(col(3), 0u8, 10).map_err(|e| ("cost", e.0))?
        };
        let power = if unit {
            parse_int(col(4), 0i16, 20000).map_err(|e| ("power", e.0))?
        } else {
            0
        };
        let support = if unit && !col(5).is_empty() {
            parse_int(col(5), 0i16, 10000).map_err(|e| ("support", e.0))?
        } else {
            0
        };
        let flame = match col(6).to_ascii_lowercase().as_str() {
            "" => ctype == CardType::Flame,
            "yes" => true,
            other => return Err(("flame", format!("\"{}\": `yes` or blank", excerpt(other)))),
        };
        let mut attrs = 0;
        for w in col(7).split(';').map(str::trim).filter(|w| !w.is_empty()) {
            attrs |= self.attr_bit(w).map_err(|e| ("attributes", e.0))?;
        }
        if attrs == 0 && ctype != CardType::Flame {
            return Err(("attributes", "a UNIT or EVENT has at least one".into()));
        }
        let mut keywords = Keywords::default();
        for w in col(8).split(';').map(str::trim).filter(|w| !w.is_empty()) {
            let k = Keywords::parse(&w.to_ascii_lowercase()).ok_or_else(|| {
                (
                    "keywords",
                    format!(
                        "unknown keyword \"{}\" (expected blitz, blocker, pray, adolla_link)",
                        excerpt(w)
                    ),
                )
            })?;
            keywords.0 |= k.0;
        }
        let (abilities, statics, cant) =
            super::dsl::effects(self, col(9), ctype).map_err(|e| ("effect", e.0))?;
        let life_trigger = if col(10).is_empty() {
            None
        } else {
            if ctype == CardType::Flame {
                return Err(("trigger", "a FLAME card has no Life trigger".into()));
            }
            Some(super::dsl::life_trigger(self, col(10)).map_err(|e| ("trigger", e.0))?)
        };
        Ok(Card {
            number: number.to_string(),
            name: name.to_string(),
            ctype,
            cost,
            power,
            support,
            flame,
            attrs,
            keywords,
            abilities,
            statics,
            cant,
            life_trigger,
            effect_text: col(9).to_string(),
            trigger_text: col(10).to_string(),
            on: 0,
            gated: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derived fields are current: every static's `hits` holds exactly the cards its filter
    /// passes on printed fields, and `Card::on` has the bit of each ability's trigger, for the
    /// bundled card file and after `ablate` added its filler card (the engine's `debug_assert`
    /// checks the same, but the suite runs in release).
    #[test]
    fn the_derived_fields_match_the_cards() {
        use crate::core::GameDef;
        use crate::games::fireforce::FireForceGame;
        let check = |db: &CardDb| {
            let mut statics = 0;
            for src in &db.cards {
                for (k, a) in src.abilities.iter().enumerate() {
                    assert_ne!(src.on & 1 << (3 * a.trigger as u32 + k as u32), 0);
                }
                assert_eq!(src.on.count_ones() as usize, src.abilities.len());
                for st in &src.statics {
                    for (id, c) in db.cards.iter().enumerate() {
                        assert_eq!(st.hits(id as CardId), st.filter.printed_ok(c), "{}", c.name);
                    }
                    statics += 1;
                }
            }
            assert!(statics > 5, "the bundled cards have statics");
            for (id, c) in db.cards.iter().enumerate() {
                assert_eq!(db.brief(id as CardId), Brief::of(c, db), "{}", c.name);
            }
            assert!(db.brief.0[db.cards.len()..]
                .iter()
                .all(|b| *b == Brief::default()));
        };
        let mut db = crate::games::fireforce::bundled_cards();
        check(&db);
        let text = include_str!("../../../decks/fireforce/aggro_blitz.deck");
        let deck = FireForceGame::parse_deck(&db, text, "aggro_blitz", "aggro_blitz").unwrap();
        let before = db.cards.len();
        let id = FireForceGame::deck_cards(&deck)[0].0;
        FireForceGame::ablate(&mut db, &deck, id);
        assert_eq!(db.cards.len(), before + 1, "ablate adds its filler card");
        check(&db);
    }

    const HEAD: &str =
        "number,name,type,cost,power,support,flame,attributes,keywords,effect,trigger\n";

    fn db(rows: &str) -> Result<CardDb, Reason> {
        CardDb::parse(&format!("{HEAD}{rows}"), "t.csv")
            .map_err(|e| e.to_string())
            .map_err(Reason::from)
    }

    #[test]
    fn every_word_parses() {
        let d = db("A-1,Alpha,UNIT,2,3000,1000,yes,co1;adolla_burst,blitz;blocker;pray;adolla_link,\"dispatched: draw 1; remove target enemy unit power<=2000 exhausted | active[exhaust, 1, once]: give target own unit other has=blocker | reaction[2]: power attacked +2000 battle\",flame 1; life 1; mill 2\n\
                    A-2,Beta,EVENT,1,,,,co1,,reaction: bounce attacker; exhaust all enemy units cost<=3 ready flame,\n\
                    A-3,Gamma,FLAME,,,,,co1,,static: own units attr=co1 +1000,\n").unwrap();
        let a = d.card(0);
        assert_eq!(a.keywords.0, 15);
        assert_eq!(a.abilities.len(), 3);
        assert_eq!(
            a.abilities[1].cost,
            AbilityCost {
                exhaust: true,
                flame: 1,
                once: true
            }
        );
        assert_eq!(a.life_trigger.as_ref().unwrap().effects.len(), 3);
        assert!(a.adolla_burst(&d));
        assert!(matches!(
            a.abilities[2].effects[0],
            Effect::Power(
                Target {
                    mode: Mode::Attacked,
                    ..
                },
                Amount::Num(2000),
                Until::EndOfBattle
            )
        ));
        assert!(d.card(2).flame && d.card(2).statics.len() == 1);
        assert_eq!(d.lookup("beta"), Ok(1));
        assert_eq!(d.lookup("a-3"), Ok(2));
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        let e = db("A-1,A,UNIT,2,3000,,,co1,,,\nA-2,B,EVENT,1,,,,co1,,main: fly,\n").unwrap_err();
        assert!(
            e.starts_with("t.csv:3:")
                && e.contains("column effect")
                && e.contains("\"fly\": unknown effect"),
            "{e}"
        );
        let e = db("A-1,A,EVENT,2,3000,,,co1,,main: draw 1,\n").unwrap_err();
        assert!(
            e.contains("column power") && e.contains("only a UNIT"),
            "{e}"
        );
        let e = db("A-1,A,UNIT,2,3000,,,co1,,active: draw 1,\n").unwrap_err();
        assert!(e.contains("needs a cost"), "{e}");
        let e = db("A-1,A,UNIT,2,3000,,,co1,,main: draw 1,\n").unwrap_err();
        assert!(e.contains("no `main`"), "{e}");
        let e = db("A-1,A,UNIT,2,3000,,,co1,,dispatched: give target enemy unit,\n").unwrap_err();
        assert!(e.contains("give:"), "{e}");
        let e = db("A-1,A,UNIT,2,3000,,,co1,,,\nA-1,B,UNIT,2,3000,,,co1,,,\n").unwrap_err();
        assert!(e.contains(":3:") && e.contains("defined twice"), "{e}");
        let d = db("A-1,Same,UNIT,2,3000,,,co1,,,\nA-2,Same,UNIT,2,3000,,,co1,,,\n").unwrap();
        assert!(d.lookup("same").unwrap_err().contains("A-1, A-2"));
    }
}
