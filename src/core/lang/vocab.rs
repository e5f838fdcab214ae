//! A game's words for the shared grammar: the tables a game hands the parser and the renderer.
//! The grammar (abilities, heads, costs, card sets, values, conditions, `if`/`choose`/`may`) is
//! the same in every game; these tables say which words fill it, how each verb's arguments are
//! written, and how each word reads in English. Where two games share an idea they share its
//! spelling: the shared verbs are defined once here ([`verb`]) and each game lists those it plays.

use super::ast::{Effect, Side};

/// A word of a table: its canonical spelling, older spellings still read, and its English.
#[derive(Clone, Copy, Debug)]
pub struct Word {
    pub name: &'static str,
    /// Spellings read as this word (earlier versions of the language); never written.
    pub aliases: &'static [&'static str],
    /// How it reads in plain English.
    pub en: &'static str,
}

/// A word with no aliases.
pub const fn w(name: &'static str, en: &'static str) -> Word {
    Word {
        name,
        aliases: &[],
        en,
    }
}

/// A word with aliases.
pub const fn wa(name: &'static str, aliases: &'static [&'static str], en: &'static str) -> Word {
    Word { name, aliases, en }
}

/// The kind of an ability head without an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadKind {
    /// How the card is played (`event`, `arts`, `main`, `play`, `flip`): its body resolves then.
    Play,
    /// An ability its player activates, paying the cost in brackets.
    Act,
    /// Continuous effects.
    Static,
}

#[derive(Clone, Copy, Debug)]
pub struct HeadWord {
    pub word: Word,
    pub kind: HeadKind,
}

/// An event a triggered ability or a replacement waits for.
#[derive(Clone, Copy, Debug)]
pub struct EventWord {
    pub word: Word,
    /// Takes a subject (a card description); without one it is about the card itself.
    pub subject: bool,
    /// Takes `[own|enemy] PHASE` (start and end of phases and steps).
    pub phase: bool,
    /// Takes `by CARDS` (the cause).
    pub by: bool,
    /// Takes a player, `own` or `enemy` (whose deck, whose turn).
    pub side: bool,
    /// Takes `to ZONE`: where the card goes.
    pub to: bool,
    /// English with the card itself as subject ("this card is put on the field"), and with a
    /// subject (`{}` is the subject's English: "{} is put on the field").
    pub en_self: &'static str,
    pub en_subject: &'static str,
}

impl EventWord {
    /// An event about the card itself, with its English ("this unit attacks", "{} attacks").
    pub const fn new(word: Word, en_self: &'static str, en_subject: &'static str) -> EventWord {
        EventWord {
            word,
            subject: false,
            phase: false,
            by: false,
            side: false,
            to: false,
            en_self,
            en_subject,
        }
    }

    /// It may be about another card (a subject).
    pub const fn subject(mut self) -> EventWord {
        self.subject = true;
        self
    }

    /// It takes `[own|enemy] PHASE`.
    pub const fn phase(mut self) -> EventWord {
        self.phase = true;
        self
    }

    /// It takes `by CARDS`.
    pub const fn by(mut self) -> EventWord {
        self.by = true;
        self
    }

    /// It takes `own` or `enemy`.
    pub const fn side(mut self) -> EventWord {
        self.side = true;
        self
    }

    /// It takes `to ZONE`.
    pub const fn to(mut self) -> EventWord {
        self.to = true;
        self
    }
}

/// A noun of card sets: its singular and plural and the card types (bits) it covers.
#[derive(Clone, Copy, Debug)]
pub struct Noun {
    pub one: &'static str,
    pub many: &'static str,
    /// Card types covered (game bits); 0 for every type (`card`).
    pub types: u16,
    pub en_one: &'static str,
    pub en_many: &'static str,
}

/// What a cost word takes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostArg {
    None,
    /// A number (`ep 1`, `flame 2`).
    Num(i16, i16),
    /// A card set (`discard target own card`).
    Cards,
}

#[derive(Clone, Copy, Debug)]
pub struct CostWord {
    pub word: Word,
    pub arg: CostArg,
    /// A bare number in the brackets is this cost (Fire Force's `reaction[2]`: 2 Flame).
    pub bare_number: bool,
}

/// One slot of a verb's pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A literal word or symbol.
    Lit(&'static str),
    /// A literal word that may be left out (written in the canonical form).
    Opt(&'static str),
    /// An amount in the range ([`Effect::n`]): a number, `count CARDS`, a quantity, `x`, or
    /// `N per …`.
    N(i16, i16),
    /// A signed amount (`+2`, `-1000`, `+1 per …`) in the range ([`Effect::n`]).
    Signed(i16, i16),
    /// `+S/+D` ([`Effect::n`], [`Effect::m`]).
    Stats(i16, i16),
    /// A card set with a selector: `self`, `that`, `target …`, `all …`, `up_to N …`.
    Cards,
    /// `[own|enemy] NOUNS FILTERS`: every matching card (no selector written; older statics).
    AllCards,
    /// Filters alone, describing one card of the controller's chosen from `zone` (older TMNT
    /// `salvage`): becomes `target own card FILTERS in ZONE`.
    FiltersIn(u8),
    /// `own` or `enemy` ([`Effect::side`]).
    Side,
    /// `own` or `enemy`, or nothing for the given side.
    SideOr(Side),
    /// `enemy`, or nothing for the controller (written only when `enemy`).
    OptSide,
    /// A word of the resource table ([`Effect::word`]).
    Resource,
    /// A card description without a selector (`enemy events`): what a `ban` forbids.
    Description,
    /// An optional `by DESCRIPTION` ([`Effect::by`]).
    By,
    /// A second card description, into [`Effect::by`] (after a literal word such as `as`).
    Description2,
    /// A word of the keyword table ([`Effect::word`]).
    Keyword,
    /// A word of the prohibition table ([`Effect::word`]).
    Prohibition,
    /// A zone word ([`Effect::to`] with [`super::ast::Pos::Default`]).
    Zone,
    /// Organization or attribute names, between the two bounds ([`Effect::traits`]).
    Traits(u8, u8),
    /// `to ZONE [top|bottom]` ([`Effect::to`]).
    To,
    /// An optional duration word ([`Effect::dur`]).
    Dur,
}

/// A verb: its name, its pattern, its English, and for an older spelling the rewrite into the
/// canonical verb.
#[derive(Clone, Copy, Debug)]
pub struct Verb {
    pub name: &'static str,
    /// The id of the verb in the game's own enum (the games match on it).
    pub id: u8,
    pub slots: &'static [Slot],
    /// English: `{cards}`, `{n}`, `{m}`, `{side}`, `{word}`, `{traits}`, `{to}`, `{dur}`; `{s}`
    /// is `s` when `n` is not 1; `{es}`/`{v}` agree a verb with `cards` ("gets" / "get").
    pub en: &'static str,
    /// An older spelling: read, then rewritten by this function into the canonical form; never
    /// written.
    pub legacy: Option<fn(&mut Effect)>,
}

/// A canonical verb.
pub const fn verb(name: &'static str, id: u8, slots: &'static [Slot], en: &'static str) -> Verb {
    Verb {
        name,
        id,
        slots,
        en,
        legacy: None,
    }
}

/// An older spelling of a verb.
pub const fn legacy(
    name: &'static str,
    id: u8,
    slots: &'static [Slot],
    rewrite: fn(&mut Effect),
) -> Verb {
    Verb {
        name,
        id,
        slots,
        en: "",
        legacy: Some(rewrite),
    }
}

/// Everything the grammar needs to know of a game's words.
#[derive(Clone, Copy, Debug)]
pub struct Vocab {
    pub game: &'static str,
    pub heads: &'static [HeadWord],
    pub events: &'static [EventWord],
    pub phases: &'static [Word],
    /// Zones; the first is where cards in play are (the default of a card set).
    pub zones: &'static [Word],
    /// Placement words after `to ZONE` besides `top` and `bottom` (`actioned`, `face_up`).
    pub placements: &'static [Word],
    /// Resources a `gain` effect gives (`ep`, `cp`).
    pub resources: &'static [Word],
    pub nouns: &'static [Noun],
    /// Stats a filter compares (`cost`, `str`, `power`).
    pub stats: &'static [Word],
    /// Flags a filter tests (`ready`, `stunned`, `face_up`).
    pub flags: &'static [Word],
    /// Keywords or icons (`has=…`).
    pub keywords: &'static [Word],
    /// The filter keys for keywords (`has`, and older `icon`).
    pub keyword_keys: &'static [&'static str],
    /// The filter key of organizations or attributes (`org`, `attr`) and its English.
    pub trait_key: &'static str,
    /// Attribute names also read as bare filter words (older TMNT texts: `fire`).
    pub bare_traits: &'static [&'static str],
    /// Nouns also read as bare filter words (older TMNT texts: `all own cards character`).
    pub bare_nouns: bool,
    /// Quantities of a player (`hand`, `deck`, `bond`).
    pub quantities: &'static [Word],
    /// Condition words (`own_turn`, `attacking`, `did`).
    pub conds: &'static [Word],
    pub durations: &'static [Word],
    pub costs: &'static [CostWord],
    /// Effect verbs (bodies of every head but `static`).
    pub verbs: &'static [Verb],
    /// Static verbs (bodies of `static`).
    pub statics: &'static [Verb],
    /// What a `cant` effect forbids.
    pub prohibitions: &'static [Word],
    /// Cards named by their role in the current moment (`attacker`, `attacked`): a card set of
    /// one card, maybe with filters.
    pub roles: &'static [Word],
    /// Older heads, read as the canonical head text given (`when attack` → `start own attack`).
    pub head_aliases: &'static [(&'static str, &'static str)],
}

impl Word {
    /// Whether `s` (lower case) is this word or one of its aliases.
    pub fn is(&self, s: &str) -> bool {
        self.name == s || self.aliases.contains(&s)
    }
}

/// The index of `s` in a word table.
pub fn find(table: &[Word], s: &str) -> Option<u8> {
    table.iter().position(|w| w.is(s)).map(|i| i as u8)
}

impl Vocab {
    pub fn head(&self, id: u8) -> &HeadWord {
        &self.heads[id as usize]
    }

    pub fn noun(&self, id: u8) -> &Noun {
        &self.nouns[id as usize]
    }

    /// The verb table of a body: statics or effects.
    pub fn verb_table(&self, statics: bool) -> &'static [Verb] {
        if statics {
            self.statics
        } else {
            self.verbs
        }
    }

    /// The canonical verb with this id in a table.
    pub fn verb(&self, statics: bool, id: u8) -> &Verb {
        self.verb_table(statics)
            .iter()
            .find(|v| v.id == id && v.legacy.is_none())
            .unwrap_or_else(|| panic!("{}: no canonical verb with id {id}", self.game))
    }

    /// The id of the noun `s` (singular or plural) and whether it was plural.
    pub fn find_noun(&self, s: &str) -> Option<(u8, bool)> {
        self.nouns.iter().enumerate().find_map(|(i, n)| {
            if n.one == s {
                Some((i as u8, false))
            } else if n.many == s {
                Some((i as u8, true))
            } else {
                None
            }
        })
    }
}
