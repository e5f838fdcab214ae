//! The Trails card database: cards as data, loaded once from `cards.csv` into compact enums that
//! the engine reads by card id. The effect column is parsed by [`super::dsl`] into the types of
//! [`super::effects`], which this module re-exports.

use super::dsl;
use super::effects::OrgNames;
pub use super::effects::{
    cost_from, kind, Ability, About, Amount, Cond, CraftCost, Dur, Effect, Filter, Icons, Op, Orgs,
    Phase, Place, Program, Prohibition, Side, StaticEffect, Target, TargetMode, Trigger, Value,
    Zone,
};
use crate::core::Reason;
use std::fmt;
use std::path::Path;

/// Index of a card in the [`CardDb`].
pub type CardId = u16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    Unit,
    Item,
    Event,
    Base,
}

impl CardType {
    /// "a UNIT", "an ITEM", "an EVENT", "a BASE".
    pub fn with_article(self) -> &'static str {
        match self {
            CardType::Unit => "a UNIT",
            CardType::Item => "an ITEM",
            CardType::Event => "an EVENT",
            CardType::Base => "a BASE",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CardType::Unit => "UNIT",
            CardType::Item => "ITEM",
            CardType::Event => "EVENT",
            CardType::Base => "BASE",
        }
    }
}

/// One card of the database.
#[derive(Clone, Debug)]
pub struct Card {
    pub code: String,
    pub name: String,
    pub sub_name: String,
    pub ctype: CardType,
    /// CP cost (UNIT, ITEM), EP cost (EVENT) or building level (BASE).
    pub cost: u8,
    pub str: i8,
    pub def: i8,
    pub orgs: Orgs,
    pub icons: Icons,
    pub arts_cost: Option<u8>,
    pub abilities: Vec<Ability>,
    pub statics: Vec<StaticEffect>,
    /// The condition of each static ([`Card::statics`]), from its ability's head (`static if
    /// COND: …`): the static applies only while it holds.
    pub static_conds: Vec<Option<super::effects::Cond>>,
    /// The counted numbers of its text ([`super::effects::Amount::Counted`]).
    pub values: Vec<super::effects::Value>,
    /// The effect column as written.
    pub text: String,
    /// Line in the card file (1-based).
    pub line: usize,
    /// The id of [`Card::name`] ([`CardDb::name_id`]).
    pub name_id: u16,
}

impl Card {
    /// "Name / Sub-name", or the bare name when there is no sub-name.
    pub fn full_name(&self) -> String {
        if self.sub_name.is_empty() {
            self.name.clone()
        } else {
            format!("{} / {}", self.name, self.sub_name)
        }
    }

    /// T-DECK-1: cards whose sub-name is "General" are unlimited in a Strategy deck.
    pub fn is_general(&self) -> bool {
        self.sub_name.eq_ignore_ascii_case("general") || self.sub_name == "一般"
    }

    pub fn ability(&self, trigger: Trigger) -> Option<(usize, &Ability)> {
        self.abilities
            .iter()
            .enumerate()
            .find(|(_, a)| a.trigger == trigger && !a.listens())
    }

    pub fn has_trigger(&self, trigger: Trigger) -> bool {
        self.ability(trigger).is_some()
    }
}

/// An error in a card file, with its place.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("{0}")]
    Input(crate::core::input::InputError),
    #[error("{file}: {msg}")]
    Io { file: String, msg: String },
    #[error("{file}:{line}: column {column}: {msg}")]
    Row {
        file: String,
        line: usize,
        column: &'static str,
        msg: String,
    },
}

/// The card file's problem as the library's [`InputError`](crate::core::InputError), displayed
/// alike (a row's problem names its column).
impl From<CardError> for crate::core::InputError {
    fn from(e: CardError) -> crate::core::InputError {
        match e {
            CardError::Input(i) => i,
            CardError::Io { file, msg } => crate::core::InputError::new(file, 0, msg),
            CardError::Row {
                file,
                line,
                column,
                msg,
            } => crate::core::InputError::new(file, line, format!("column {column}: {msg}")),
        }
    }
}

/// All the cards of a game, by id.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    pub cards: Vec<Card>,
    pub org_names: Vec<String>,
    /// Card names (normalized, [`norm`]) by id: the id of `names[k]` is `k + 1` (0 is no name).
    pub names: Vec<String>,
    /// Names that card texts name (`name='…'`) with the line of the text: each must be a card's.
    named: Vec<(u16, usize)>,
    /// The line being read (for [`Self::named`]).
    parsing_line: usize,
    /// The different filters of `first` cost changes (decision T-RES-15), at most
    /// [`MAX_FIRST_FILTERS`]: filter `k` is bit `k` of the state's record of the cards played in
    /// the current deployment step.
    pub first_filters: Vec<Filter>,
    /// Where the database came from (for messages).
    pub source: String,
    /// Names and codes, normalized, for [`CardDb::lookup`].
    index: NameIndex,
}

/// The cards' names and codes as [`CardDb::lookup`] compares them: whitespace collapsed, lower
/// case.
#[derive(Clone, Debug, Default)]
struct NameIndex {
    full: std::collections::HashMap<(String, String), CardId>,
    bare: std::collections::HashMap<String, Vec<CardId>>,
    code: std::collections::HashMap<String, CardId>,
    /// (name, "name / sub-name") of each card, for suggestions.
    names: Vec<(String, String)>,
}

use crate::core::input::norm;

/// The longest name or sub-name a card may have, in characters.
pub const MAX_NAME_CHARS: usize = 200;

pub const COLUMNS: [&str; 11] = [
    "id",
    "name",
    "sub_name",
    "type",
    "cost",
    "str",
    "def",
    "orgs",
    "icons",
    "arts_cost",
    "effect",
];

/// The code of the neutral filler card (see [`CardDb::filler`]).
pub const FILLER_CODE: &str = "FILLER";

/// The most organizations a database may name (they are bits of a `u16`).
pub const MAX_ORGS: usize = 16;

/// The most different card sets of `first` cost changes in one card file (decision T-RES-15):
/// the state records which of them a card played in the current deployment step matched, in a
/// byte.
pub const MAX_FIRST_FILTERS: usize = 8;

/// The most crafts (`act[…]:` abilities) of one card (decision T-RES-12).
pub const MAX_CRAFTS: usize = 4;

impl CardDb {
    pub fn load(path: &Path) -> Result<CardDb, CardError> {
        use crate::core::input::{read_text, MAX_TEXT_BYTES};
        let text = read_text(path, MAX_TEXT_BYTES).map_err(CardError::Input)?;
        CardDb::parse(&text, &path.display().to_string())
    }

    /// Parses the CSV text of a card file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<CardDb, CardError> {
        let mut db = CardDb {
            source: file.to_string(),
            ..CardDb::default()
        };
        let err = |line: usize, column: &'static str, msg: String| CardError::Row {
            file: file.to_string(),
            line,
            column,
            msg,
        };
        let rows =
            crate::core::input::csv_rows(text, &COLUMNS).map_err(|(line, column, msg)| {
                if line == 0 {
                    CardError::Io {
                        file: file.to_string(),
                        msg,
                    }
                } else {
                    err(line, column, msg)
                }
            })?;
        for (line, rec) in rows {
            let card = db.parse_row(&rec, line).map_err(|(c, m)| err(line, c, m))?;
            let key = (norm(&card.name), norm(&card.sub_name));
            if let Some(&prev) = db.index.full.get(&key) {
                return Err(err(
                    line,
                    "name",
                    format!(
                        "\"{}\" is already defined on line {}",
                        card.full_name(),
                        db.card(prev).line
                    ),
                ));
            }
            if let Some(&prev) = db.index.code.get(&card.code.to_lowercase()) {
                return Err(err(
                    line,
                    "id",
                    format!(
                        "id \"{}\" is already used on line {}",
                        card.code,
                        db.card(prev).line
                    ),
                ));
            }
            if db.cards.len() >= CardId::MAX as usize {
                return Err(err(line, "id", "too many cards".into()));
            }
            db.note_first_filters(&card)
                .map_err(|m| err(line, "effect", m.0))?;
            db.add(card);
        }
        if db.cards.is_empty() {
            return Err(CardError::Io {
                file: file.to_string(),
                msg: "no cards".into(),
            });
        }
        // A name a text names must be a card's: otherwise it is a misspelling.
        for &(id, line) in &db.named {
            if !db.cards.iter().any(|c| c.name_id == id) {
                let want = &db.names[id as usize - 1];
                let near = crate::core::lang::suggest::nearest(
                    want,
                    &db.cards.iter().map(|c| norm(&c.name)).collect::<Vec<_>>(),
                )
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
                return Err(err(
                    line,
                    "effect",
                    format!("name='{want}' is the name of no card of the file{near}"),
                ));
            }
        }
        Ok(db)
    }

    fn parse_row(
        &mut self,
        rec: &csv::StringRecord,
        line: usize,
    ) -> Result<Card, (&'static str, String)> {
        let f = |i: usize| rec.get(i).unwrap_or("").trim();
        let code = f(0).to_string();
        if code.is_empty() {
            return Err(("id", "empty id".into()));
        }
        let name = f(1).to_string();
        if name.is_empty() {
            return Err(("name", "empty name".into()));
        }
        let sub_name = f(2).to_string();
        for (column, text) in [("id", &code), ("name", &name), ("sub_name", &sub_name)] {
            if text.chars().count() > MAX_NAME_CHARS {
                return Err((column, format!("longer than {MAX_NAME_CHARS} characters")));
            }
        }
        let ctype = match f(3).to_ascii_uppercase().as_str() {
            "UNIT" => CardType::Unit,
            "ITEM" => CardType::Item,
            "EVENT" => CardType::Event,
            "BASE" => CardType::Base,
            other => {
                return Err((
                    "type",
                    format!("unknown type \"{other}\" (expected UNIT, ITEM, EVENT or BASE)"),
                ))
            }
        };
        let cost =
            parse_num::<u8>(f(4), "cost", 0, 20)?.ok_or(("cost", "cost is required".into()))?;
        let (str, def) = if ctype == CardType::Unit {
            let s =
                parse_num::<i8>(f(5), "str", 0, 99)?.ok_or(("str", "a UNIT needs STR".into()))?;
            let d =
                parse_num::<i8>(f(6), "def", 0, 99)?.ok_or(("def", "a UNIT needs DEF".into()))?;
            (s, d)
        } else {
            if !f(5).is_empty() || !f(6).is_empty() {
                return Err((
                    "str",
                    format!("only UNITs have STR/DEF (this is an {})", ctype.name()),
                ));
            }
            (0, 0)
        };
        let mut orgs = 0;
        for word in split_list(f(7)) {
            orgs |= self.org_bit(word).map_err(|m| ("orgs", m.0))?;
        }
        if ctype == CardType::Unit && orgs == 0 {
            return Err(("orgs", "a UNIT needs at least one organization".into()));
        }
        let mut icons = Icons::NONE;
        for word in split_list(f(8)) {
            let icon = Icons::parse(&word.to_ascii_lowercase()).ok_or_else(|| {
                (
                    "icons",
                    format!(
                        "unknown icon \"{word}\" (expected one of: {})",
                        Icons::NAMES.map(|(n, _)| n).join(", ")
                    ),
                )
            })?;
            icons = icons.union(icon);
        }
        let arts_cost = parse_num::<u8>(f(9), "arts_cost", 0, 20)?;
        if arts_cost.is_some() && ctype != CardType::Unit {
            return Err(("arts_cost", "only UNITs have arts".into()));
        }
        self.parsing_line = line;
        let mut parsed = dsl::parse_effects(f(10), self).map_err(|m| ("effect", m.0))?;
        if ctype != CardType::Unit {
            self_is_the_card(&mut parsed.abilities, ctype);
        }
        let name_id = self.name_id(&name);
        let card = Card {
            name_id,
            code,
            name,
            sub_name,
            ctype,
            cost,
            str,
            def,
            orgs,
            icons,
            arts_cost,
            abilities: parsed.abilities,
            statics: parsed.statics,
            static_conds: parsed.static_conds,
            values: parsed.values,
            text: f(10).to_string(),
            line,
        };
        check_card(&card).map_err(|m| ("effect", m.0))?;
        Ok(card)
    }

    /// The id of a card name (from 1; compared as lookups compare names), adding it when new.
    pub fn name_id(&mut self, name: &str) -> u16 {
        let k = norm(name);
        match self.names.iter().position(|n| *n == k) {
            Some(i) => i as u16 + 1,
            None => {
                self.names.push(k);
                self.names.len() as u16
            }
        }
    }

    /// The bit of an organization, adding it when new.
    pub fn org_bit(&mut self, word: &str) -> Result<Orgs, Reason> {
        let slug = word.to_ascii_lowercase();
        if !slug
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "organization \"{word}\" must be a slug of letters, digits, '_' or '-'"
            )
            .into());
        }
        if let Some(i) = self.org_names.iter().position(|n| *n == slug) {
            return Ok(1 << i);
        }
        if self.org_names.len() >= MAX_ORGS {
            return Err(format!("more than {MAX_ORGS} organizations (\"{word}\")").into());
        }
        self.org_names.push(slug);
        Ok(1 << (self.org_names.len() - 1))
    }

    /// The bit of an organization already named, for effect text read after the orgs column.
    pub fn org_names_of(&self, orgs: Orgs) -> Vec<&str> {
        (0..self.org_names.len())
            .filter(|i| orgs & (1 << i) != 0)
            .map(|i| self.org_names[i].as_str())
            .collect()
    }

    #[inline]
    pub fn card(&self, id: CardId) -> &Card {
        &self.cards[id as usize]
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// The neutral filler of card ablation: `Blank Card / Filler`, a UNIT costing 20 CP with
    /// 0/0, no organization effect and no ability. It can never be deployed, so it only ever serves
    /// as a homebase card — the one use every Trails card shares. Added on request, returning its
    /// id (the same id if already there).
    pub fn filler(&mut self) -> CardId {
        if let Some(i) = self.cards.iter().position(|c| c.code == FILLER_CODE) {
            return i as CardId;
        }
        let orgs = if self.org_names.is_empty() {
            self.org_bit("none").unwrap_or(1)
        } else {
            1
        };
        self.add(Card {
            code: FILLER_CODE.into(),
            name: "Blank Card".into(),
            sub_name: "Filler".into(),
            ctype: CardType::Unit,
            cost: 20,
            str: 0,
            def: 0,
            orgs,
            icons: Icons::NONE,
            arts_cost: None,
            abilities: Vec::new(),
            statics: Vec::new(),
            static_conds: Vec::new(),
            values: Vec::new(),
            text: String::new(),
            line: 0,
            name_id: 0,
        });
        let name_id = self.name_id("Blank Card");
        self.cards.last_mut().expect("just added").name_id = name_id;
        (self.cards.len() - 1) as CardId
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Adds a card (its name and code are new) and indexes it.
    /// Records the filters of `card`'s `first` cost changes in [`Self::first_filters`]; more
    /// than [`MAX_FIRST_FILTERS`] different ones in a card file are refused (decision T-RES-15).
    fn note_first_filters(&mut self, card: &Card) -> Result<(), Reason> {
        for st in &card.statics {
            if let StaticEffect::CostAll {
                filter,
                first: true,
                ..
            } = st
            {
                if !self.first_filters.contains(filter) {
                    if self.first_filters.len() == MAX_FIRST_FILTERS {
                        return Err(format!(
                            "more than {MAX_FIRST_FILTERS} different card sets of `first` cost changes in one card file (decision T-RES-15)"
                        ).into());
                    }
                    self.first_filters.push(*filter);
                }
            }
        }
        Ok(())
    }

    fn add(&mut self, card: Card) {
        let id = self.cards.len() as CardId;
        let (name, sub) = (norm(&card.name), norm(&card.sub_name));
        self.index.full.insert((name.clone(), sub.clone()), id);
        self.index.bare.entry(name.clone()).or_default().push(id);
        self.index.code.insert(card.code.to_lowercase(), id);
        let full = if sub.is_empty() {
            name.clone()
        } else {
            format!("{name} / {sub}")
        };
        self.index.names.push((name, full));
        self.cards.push(card);
    }

    /// Finds a card by "Name / Sub-name", by a unique bare name, or by its id code
    /// (case-insensitive). On failure returns the closest names as suggestions.
    pub fn lookup(&self, text: &str) -> Result<CardId, Lookup> {
        let text = text.trim();
        let want = norm(text);
        if let Some((name, sub)) = text.split_once(" / ") {
            if let Some(&i) = self.index.full.get(&(norm(name), norm(sub))) {
                return Ok(i);
            }
        } else if let Some(ids) = self.index.bare.get(&want) {
            return match ids.as_slice() {
                [i] => Ok(*i),
                _ => Err(Lookup::Ambiguous(
                    ids.iter().map(|&i| self.card(i).full_name()).collect(),
                )),
            };
        }
        if let Some(&i) = self.index.code.get(&text.to_lowercase()) {
            return Ok(i);
        }
        // Suggestions: the closest names within an edit distance of a third of the name's
        // length (at least 2), the distance computed only where it can be that small.
        let limit = (want.chars().count() / 3).max(2);
        let mut best = usize::MAX;
        let mut hits: Vec<CardId> = Vec::new();
        for (k, (name, full)) in self.index.names.iter().enumerate() {
            let d = [name, full]
                .iter()
                .filter_map(|n| distance_within(&want, n, limit))
                .min();
            match d {
                Some(d) if d < best => {
                    best = d;
                    hits = vec![k as CardId];
                }
                Some(d) if d == best => hits.push(k as CardId),
                _ => {}
            }
        }
        let mut names: Vec<String> = hits.iter().map(|&i| self.card(i).full_name()).collect();
        names.sort();
        names.truncate(3);
        Err(Lookup::Unknown(names))
    }
}

/// The effect language names organizations through the database, which adds new ones.
impl OrgNames for CardDb {
    fn org_bit(&mut self, word: &str) -> Result<Orgs, Reason> {
        CardDb::org_bit(self, word)
    }

    fn name_id(&mut self, name: &str) -> u16 {
        let id = CardDb::name_id(self, name);
        self.named.push((id, self.parsing_line));
        id
    }
}

/// Why a name did not resolve to one card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// No card of that name; the closest names (maybe none).
    Unknown(Vec<String>),
    /// A bare name shared by several cards.
    Ambiguous(Vec<String>),
}

impl fmt::Display for Lookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lookup::Unknown(s) if s.is_empty() => write!(f, "unknown card"),
            Lookup::Unknown(s) => write!(
                f,
                "unknown card (did you mean {}?)",
                s.iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            Lookup::Ambiguous(s) => write!(
                f,
                "ambiguous name: say which of {}",
                s.iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

fn split_list(s: &str) -> impl Iterator<Item = &str> {
    s.split([';', ',']).map(str::trim).filter(|w| !w.is_empty())
}

fn parse_num<T>(
    s: &str,
    column: &'static str,
    min: T,
    max: T,
) -> Result<Option<T>, (&'static str, String)>
where
    T: TryFrom<i128> + Into<i128> + Copy + fmt::Display,
{
    if s.is_empty() {
        return Ok(None);
    }
    crate::core::input::parse_int(s, min, max)
        .map(Some)
        .map_err(|e| (column, e.0))
}

/// `self` on an ITEM or a BASE is that card (`ko self`: "K.O. this ITEM", decision T-REPL-1): the
/// language reads `self` as a unit, so its effects' kinds become the card's type.
fn self_is_the_card(abilities: &mut [Ability], ctype: CardType) {
    let k = match ctype {
        CardType::Item => kind::ITEM,
        CardType::Base => kind::BASE,
        _ => kind::EVENT,
    };
    let fix = |e: &mut Effect| {
        if let Some(t) = e.target_mut() {
            if t.mode == TargetMode::This && t.filter.kinds == kind::UNIT {
                t.filter.kinds = k;
            }
        }
    };
    for a in abilities {
        a.effects.iter_mut().for_each(fix);
        let later = a.program.later.iter_mut().flat_map(|l| l.1.iter_mut());
        for op in a.program.ops.iter_mut().chain(later) {
            if let Op::Do(e) = op {
                fix(e);
            }
        }
    }
}

/// Which triggers each card type may carry.
fn check_card(card: &Card) -> Result<(), Reason> {
    for a in &card.abilities {
        let ok = match a.trigger {
            Trigger::Event => card.ctype == CardType::Event,
            Trigger::Arts => card.ctype == CardType::Unit,
            Trigger::Attack | Trigger::Defend | Trigger::Stuns => card.ctype == CardType::Unit,
            Trigger::Enter => true,
            Trigger::Act => card.ctype != CardType::Event,
            // Decision T-EFF-7: a card's abilities about other cards and the game work while
            // it is an active source (a non-stunned UNIT or an ITEM on the field, a face-up
            // BASE): never an EVENT's.
            _ if a.listens() => card.ctype != CardType::Event,
            Trigger::Stunned => card.ctype == CardType::Unit,
            Trigger::Leaves => matches!(card.ctype, CardType::Unit | CardType::Item),
            Trigger::Played => card.ctype != CardType::Event,
            Trigger::Put => card.ctype != CardType::Event,
            Trigger::Start | Trigger::End | Trigger::Instead => false,
        };
        if !ok {
            return Err(format!(
                "a {} cannot have a `{}:` ability",
                card.ctype.name(),
                dsl::trigger_name(a.trigger)
            )
            .into());
        }
        // Decisions T-TERM-ENTER-2 and T-TERM-ENTER-3: a UNIT or an ITEM on the field may action
        // itself as a cost; a BASE in the homebase may not (an actioned homebase card is spent EP).
        if a.trigger == Trigger::Act && card.ctype == CardType::Base && a.cost.self_action {
            return Err(format!(
                "\"action this ready card\" (`self_action`) is a UNIT's or an ITEM's cost: {} craft can only cost EP (`act[ep N]`)",
                card.ctype.with_article()
            ).into());
        }
        if a.trigger == Trigger::Act
            && card.ctype != CardType::Unit
            && a.effects
                .iter()
                .any(|e| e.target().is_some_and(|t| t.mode == TargetMode::This))
        {
            return Err("only a UNIT's ability can target `self`".into());
        }
    }
    // Icon crafts are a UNIT's (T-ICON): on another card they would do nothing, silently.
    if card.ctype != CardType::Unit && card.icons != Icons::NONE {
        return Err(format!(
            "only a UNIT has icon crafts ({} on {})",
            card.icons.names().collect::<Vec<_>>().join(", "),
            card.ctype.with_article()
        )
        .into());
    }
    // Decision T-STATIC-1: static filters read organizations, and [Attribution] changes them, so
    // a static may not grant it (statics never depend on each other).
    if card
        .statics
        .iter()
        .any(|st| matches!(st, StaticEffect::Grant { icons, .. } if icons.has(Icons::ATTRIBUTION)))
    {
        return Err("a static cannot grant [Attribution] (T-STATIC-1)".into());
    }
    if card.ctype == CardType::Event && !card.has_trigger(Trigger::Event) {
        return Err("an EVENT needs an `event:` ability".into());
    }
    if card.arts_cost.is_some() != card.has_trigger(Trigger::Arts) {
        return Err("a UNIT has arts_cost exactly when it has an `arts:` ability".into());
    }
    for t in [
        Trigger::Event,
        Trigger::Arts,
        Trigger::Enter,
        Trigger::Attack,
        Trigger::Defend,
        Trigger::Stuns,
        Trigger::Stunned,
        Trigger::Leaves,
        Trigger::Played,
        Trigger::Put,
    ] {
        if card
            .abilities
            .iter()
            .filter(|a| a.trigger == t && !a.listens())
            .count()
            > 1
        {
            return Err(format!(
                "more than one `{}:` ability (join the effects with `;`)",
                dsl::trigger_name(t)
            )
            .into());
        }
    }
    // Decision T-REPL-1: a replacement offered is known by its card.
    if card
        .abilities
        .iter()
        .filter(|a| a.trigger == Trigger::Instead)
        .count()
        > 1
    {
        return Err("more than one `instead` ability on a card (decision T-REPL-1)".into());
    }
    if card.abilities.len() > 8 {
        return Err("more than 8 abilities".into());
    }
    // Decision T-ONCE-1: a card's once-per-turn use is one mark a turn, so one ability may have it.
    if card.abilities.iter().filter(|a| a.once).count() > 1 {
        return Err("more than one `[once]` ability on a card (decision T-ONCE-1)".into());
    }
    // Decision T-RES-12: the action list's worst case (engine/legal.rs) holds with 4.
    if card
        .abilities
        .iter()
        .filter(|a| a.trigger == Trigger::Act)
        .count()
        > MAX_CRAFTS
    {
        return Err(format!(
            "more than {MAX_CRAFTS} crafts (`act[…]:` abilities; decision T-RES-12)"
        )
        .into());
    }
    for a in &card.abilities {
        if a.effects.len() > 8 {
            return Err("more than 8 effects in one ability".into());
        }
        if matches!(a.trigger, Trigger::Event | Trigger::Arts)
            && a.effects
                .iter()
                .any(|e| e.target().is_some_and(|t| t.mode == TargetMode::This))
        {
            return Err("an event or arts cannot target `self`".into());
        }
    }
    Ok(())
}

/// The Levenshtein distance over chars of `a` and `b` when it is at most `limit`, for "did you
/// mean" suggestions. Stops as soon as the distance must exceed `limit`, so a long name costs
/// little.
pub fn distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        if cur.iter().all(|&d| d > limit) {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= limit)
}
