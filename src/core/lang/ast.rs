//! What a card text says, as the shared grammar reads it (`docs/cards.md`, "The card language").
//! Words of a game's own vocabulary ([`super::vocab::Vocab`]) are held as their index in its
//! tables ([`Id`]); organization and attribute names, and card names, as written (the game resolves
//! them against its card file). Each game compiles this tree into the compact types its engine
//! reads, refusing with a reason what its engine does not play.

/// An index into one of a game's word tables ([`super::vocab::Vocab`]).
pub type Id = u8;

/// Whose cards or which player, from the point of view of the ability's controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    Own,
    Enemy,
    /// Either player (no side written).
    #[default]
    Any,
}

/// How an engine's compiled target picks: the card itself, one chosen card, or every match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetMode {
    /// The card the ability belongs to.
    This,
    /// One card chosen by the controller when the effect resolves.
    Choose,
    /// Every card that matches.
    All,
    /// `that` card of the ability.
    That,
    /// The card of a role of the game's table (`attacker`, `defender`).
    Role(Id),
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Le,
    Ge,
    Lt,
    Gt,
    Eq,
    Ne,
}

impl Cmp {
    pub const ALL: [(&'static str, Cmp); 6] = [
        ("<=", Cmp::Le),
        (">=", Cmp::Ge),
        ("<", Cmp::Lt),
        (">", Cmp::Gt),
        ("=", Cmp::Eq),
        ("!=", Cmp::Ne),
    ];

    pub fn symbol(self) -> &'static str {
        Cmp::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .expect("all named")
            .0
    }

    /// Whether `a CMP b`.
    #[inline]
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Le => a <= b,
            Cmp::Ge => a >= b,
            Cmp::Lt => a < b,
            Cmp::Gt => a > b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

/// How many cards a card set picks, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// `self`: the card the ability is on.
    This,
    /// `that`: the card the triggering event is about (or, after a choice, the card chosen).
    That,
    /// `target …` (exactly 1), `up_to N …` (0 to N), `N …` (exactly N): chosen by the controller
    /// as the effect resolves.
    Choose { min: u8, max: u8 },
    /// `all …`: every matching card.
    All,
    /// No selector: a description (a trigger's subject, what `count`, `any` and `no` look at).
    Each,
    /// A card the game names by its role (the game's role table: `attacker`, `attacked`).
    Role(Id),
}

/// One condition on a card in a card set (all of a set's filters must hold; repeated `name=`,
/// organization or attribute filters are alternatives).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// `cost<=2`, `power>=5000`: a stat of the game's stat table compared with a number.
    Stat(Id, Cmp, i16),
    /// `ready`, `stunned`, `face_up`: a flag of the game's flag table (`not_` before it negates).
    Flag(Id, bool),
    /// `has=covert`: has the keyword or icon (`not_has=` negates).
    Keyword(Id, bool),
    /// `org=bracer`, `attr=fire`: an organization or attribute, as written.
    Trait(String),
    /// `name='Renna Valcourt'`: the card's name, as written.
    Name(String),
    /// `named`: the card named earlier by this ability (`name_card`).
    Named,
    /// `other`: not the card the ability is on.
    Other,
    /// `same_name`: a card with the name of `that` card.
    SameName,
    /// A noun written as a filter (older TMNT texts: `salvage attack`): one of its types.
    Noun(Id),
    /// `those`: among the cards the triggering event was about ("1 of those cards").
    Those,
}

/// A set of cards: who picks, whose, what kind, which ones and where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cards {
    pub pick: Pick,
    pub side: Side,
    /// The noun (the game's noun table): `unit`, `card`, `item`, `character`.
    pub noun: Id,
    pub filters: Vec<Filter>,
    /// `in ZONE` (the game's zone table), `None` for the zone of cards in play.
    pub zone: Option<Id>,
}

impl Cards {
    /// `self`.
    pub fn this() -> Cards {
        Cards {
            pick: Pick::This,
            side: Side::Own,
            noun: 0,
            filters: Vec::new(),
            zone: None,
        }
    }
}

/// A number: written, or counted as the effect resolves. `C` is what a card set is: the parsed
/// [`Cards`], or the form a game compiles it into ([`Value::try_map`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value<C = Cards> {
    Num(i16),
    /// `count CARDS`: how many cards match.
    Count(Box<C>),
    /// A quantity of the game's table (`hand`, `deck`, `bond`, `life`…) of a player.
    Quantity(Id, Side),
    /// `x`: the number of cards the last effect of the ability moved, discarded, drew or acted on;
    /// `x own` / `x enemy`: of those, the controller's / the opponent's.
    X(Side),
    /// `N per CARDS [max M]`: N for each matching card, at most M in all.
    Per {
        each: i16,
        of: Box<Value<C>>,
        max: Option<i16>,
    },
    /// `STAT CARD`: a stat (the game's stat table) of one card (`cost attacker`, `power self`);
    /// 0 when there is no such card.
    Stat(Id, Box<C>),
}

impl<C> Value<C> {
    /// The number, when it is written as one.
    pub fn fixed(&self) -> Option<i16> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The same value with every card set mapped by `f`.
    pub fn try_map<D, E>(&self, f: &mut impl FnMut(&C) -> Result<D, E>) -> Result<Value<D>, E> {
        Ok(match self {
            Value::Num(n) => Value::Num(*n),
            Value::Count(c) => Value::Count(Box::new(f(c)?)),
            Value::Quantity(k, s) => Value::Quantity(*k, *s),
            Value::X(s) => Value::X(*s),
            Value::Per { each, of, max } => Value::Per {
                each: *each,
                of: Box::new(of.try_map(f)?),
                max: *max,
            },
            Value::Stat(k, c) => Value::Stat(*k, Box::new(f(c)?)),
        })
    }
}

/// A condition (`C` as for [`Value`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond<C = Cards> {
    /// `VALUE CMP VALUE`.
    Cmp(Value<C>, Cmp, Value<C>),
    /// `any CARDS`: at least one card matches (`that FILTERS`: the event's card matches).
    Any(C),
    /// `no CARDS`: none does.
    No(C),
    /// A word of the game's condition table (`own_turn`, `attacking`, `did`), maybe with a side.
    Word(Id, Side),
    Not(Box<Cond<C>>),
    And(Vec<Cond<C>>),
    Or(Vec<Cond<C>>),
}

impl<C> Cond<C> {
    /// The same condition with every card set mapped by `f`.
    pub fn try_map<D, E>(&self, f: &mut impl FnMut(&C) -> Result<D, E>) -> Result<Cond<D>, E> {
        Ok(match self {
            Cond::Cmp(a, c, b) => Cond::Cmp(a.try_map(f)?, *c, b.try_map(f)?),
            Cond::Any(c) => Cond::Any(f(c)?),
            Cond::No(c) => Cond::No(f(c)?),
            Cond::Word(k, s) => Cond::Word(*k, *s),
            Cond::Not(c) => Cond::Not(Box::new(c.try_map(f)?)),
            Cond::And(v) => Cond::And(v.iter().map(|c| c.try_map(f)).collect::<Result<_, _>>()?),
            Cond::Or(v) => Cond::Or(v.iter().map(|c| c.try_map(f)).collect::<Result<_, _>>()?),
        })
    }
}

/// Where a card goes: a zone of the game's table and, for an ordered zone, where in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pos {
    /// The zone's usual place (a deck's top, the end of a list).
    Default,
    Top,
    Bottom,
    /// A placement word of the game's table (`actioned`, `exhausted`, `face_up`).
    Word(Id),
}

/// One effect: a verb of the game's table and the arguments its pattern reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    pub verb: Id,
    pub cards: Option<Cards>,
    /// An amount (`draw 2`, `power … +2000`, the STR change of `buff`).
    pub n: Option<Value>,
    /// A second amount (the DEF change of `buff … +S/+D`).
    pub m: Option<Value>,
    /// A player (`mill enemy 2`).
    pub side: Option<Side>,
    /// A word of one of the game's tables the verb names (a keyword, a prohibition, a phase).
    pub word: Option<Id>,
    /// Organization or attribute names (`link police bracer`).
    pub traits: Vec<String>,
    /// A destination (`to hand`, `to deck bottom`).
    pub to: Option<(Id, Pos)>,
    /// How long it lasts (the game's duration table), if the verb takes one.
    pub dur: Option<Id>,
    /// `by CARDS`: a second card set (`cant self be_blocked by units power<=5000`).
    pub by: Option<Cards>,
}

impl Effect {
    pub fn new(verb: Id) -> Effect {
        Effect {
            verb,
            cards: None,
            n: None,
            m: None,
            side: None,
            word: None,
            traits: Vec::new(),
            to: None,
            dur: None,
            by: None,
        }
    }
}

/// A step of an ability's body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Do(Effect),
    /// `if COND then A [else B]`.
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `choose (A) or (B) …`: the controller picks one.
    Choose(Vec<Vec<Stmt>>),
    /// `may (A) [then (B)]`: "you may A. If you do, B."
    May(Vec<Stmt>, Vec<Stmt>),
    /// `later EVENT: (A)`: a delayed trigger — A happens the next time the event does (this turn).
    Later(Trigger, Vec<Stmt>),
}

/// What starts an ability.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Head {
    /// A word of the game's head table: how a card is played (`event`, `arts`, `main`, `play`,
    /// `flip`), an activated ability (`act`, `active`, `reaction`, `anytime`) or `static`.
    Word(Id),
    /// A triggered ability: an event of the game's table, about a subject (`self` if none).
    On(Trigger),
    /// A replacement: when the event would happen, the body happens instead (`prevent` in the
    /// body cancels the event).
    Instead(Trigger),
}

/// An event and what it is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trigger {
    /// The game's event table.
    pub event: Id,
    /// The card the event is about; `None` for the card itself (or, for a phase, no card).
    pub subject: Option<Cards>,
    /// The player whose phase or step it is (`start own deployment`), for phase events.
    pub side: Side,
    /// A phase of the game's table, for `start`/`end` events.
    pub phase: Option<Id>,
    /// `by CARDS`: the card that causes the event (what stuns, what is played).
    pub by: Option<Cards>,
    /// `to ZONE`: where the card goes (`leaves to trail`).
    pub to: Option<Id>,
}

/// One part of an activated ability's cost, or a word in the head's brackets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cost {
    /// The game's cost table (`ep`, `self_action`, `exhaust`, `flame`, `discard`).
    pub word: Id,
    pub n: Option<i16>,
    pub cards: Option<Cards>,
}

/// One ability of a card.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ability {
    pub head: Head,
    pub costs: Vec<Cost>,
    /// `[once]`: once per turn.
    pub once: bool,
    /// `if COND` in the head: when the ability can be used, triggers, or applies.
    pub cond: Option<Cond>,
    pub body: Vec<Stmt>,
}

impl Ability {
    /// Every effect of the body, depth first.
    pub fn effects(&self) -> Vec<&Effect> {
        fn walk<'a>(s: &'a [Stmt], out: &mut Vec<&'a Effect>) {
            for st in s {
                match st {
                    Stmt::Do(e) => out.push(e),
                    Stmt::If(_, a, b) | Stmt::May(a, b) => {
                        walk(a, out);
                        walk(b, out);
                    }
                    Stmt::Later(_, a) => walk(a, out),
                    Stmt::Choose(opts) => opts.iter().for_each(|o| walk(o, out)),
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.body, &mut out);
        out
    }

    /// Whether the body is a plain list of effects (no `if`, `choose` or `may`).
    pub fn is_plain(&self) -> bool {
        self.body.iter().all(|s| matches!(s, Stmt::Do(_)))
    }
}
