//! The Trails words of the card language (`docs/cards.md`, "Trails TCG"): the vocabulary the
//! shared grammar (`crate::core::lang`) reads a Trails effect cell with, and the compile step
//! from its tree into the types of [`super::effects`] the engine plays. Parsing happens once at
//! load; the engine only sees those types.

use super::effects::{
    kind, mark, Ability, About, Amount, Cond, CraftCost, Dur, Effect, Filter, Icons, Op, OrgNames,
    Phase, Place, Program, Prohibition, Side, StaticEffect, Target, TargetMode, Trigger, Value,
    Zone,
};
use crate::core::lang::vocab::{
    legacy, verb, w, CostArg, CostWord, EventWord, HeadKind, HeadWord, Noun, Slot, Vocab,
};
use crate::core::lang::{self, ast, program};
use crate::core::Reason;

pub struct Parsed {
    pub abilities: Vec<Ability>,
    pub statics: Vec<StaticEffect>,
    /// The condition of each static's ability (`static if COND: …`), parallel to `statics`.
    pub static_conds: Vec<Option<Cond>>,
    /// The counted numbers of the text ([`Amount::Counted`]).
    pub values: Vec<Value>,
}

pub fn trigger_name(t: Trigger) -> &'static str {
    match t {
        Trigger::Enter => "enter",
        Trigger::Attack => "attack",
        Trigger::Defend => "defend",
        Trigger::Stuns => "stuns",
        Trigger::Event => "event",
        Trigger::Arts => "arts",
        Trigger::Act => "act",
        Trigger::Stunned => "stunned",
        Trigger::Leaves => "leaves",
        Trigger::Played => "played",
        Trigger::Put => "put",
        Trigger::Start => "start",
        Trigger::End => "end",
        Trigger::Instead => "instead",
    }
}

/// Phase ids ([`VOCAB`]`.phases`).
#[allow(dead_code)]
mod phase {
    pub const TURN: u8 = 0;
    pub const PREPARATION: u8 = 1;
    pub const DRAW: u8 = 2;
    pub const HOMEBASE: u8 = 3;
    pub const DEPLOYMENT: u8 = 4;
    pub const COMBAT: u8 = 5;
    pub const CURE: u8 = 6;
    pub const COMBAT_PHASE: u8 = 7;
}

/// Duration ids ([`VOCAB`]`.durations`).
mod duration {
    pub const TURN: u8 = 0;
    pub const COMBAT: u8 = 1;
}

/// Zone ids ([`VOCAB`]`.zones`).
#[allow(dead_code)]
mod zone {
    pub const FIELD: u8 = 0;
    pub const HAND: u8 = 1;
    pub const DECK: u8 = 2;
    pub const HOMEBASE: u8 = 3;
    pub const TRAIL: u8 = 4;
}

/// Head ids ([`VOCAB`]`.heads`).
mod head {
    pub const EVENT: u8 = 0;
    pub const ARTS: u8 = 1;
    pub const ACT: u8 = 2;
    pub const STATIC: u8 = 3;
}

/// Event ids ([`VOCAB`]`.events`).
#[allow(dead_code)]
mod event {
    pub const ENTER: u8 = 0;
    pub const ATTACK: u8 = 1;
    pub const DEFEND: u8 = 2;
    pub const STUNS: u8 = 3;
    pub const STUNNED: u8 = 4;
    pub const LEAVES: u8 = 5;
    pub const PLAYED: u8 = 6;
    pub const PUT: u8 = 7;
    pub const START: u8 = 8;
    pub const END: u8 = 9;
}

/// Verb ids: effects ([`VOCAB`]`.verbs`).
#[allow(dead_code)]
mod v {
    pub const DRAW: u8 = 0;
    pub const PLAN: u8 = 1;
    pub const REBUILD: u8 = 2;
    pub const HOMEBASE_TOP: u8 = 3;
    pub const BOND: u8 = 4;
    pub const STUN: u8 = 5;
    pub const KO: u8 = 6;
    pub const READY: u8 = 7;
    pub const ACTION: u8 = 8;
    pub const SUPPORT: u8 = 9;
    pub const BOUNCE: u8 = 10;
    pub const BUFF: u8 = 11;
    pub const GRANT: u8 = 12;
    pub const DRAW_TO: u8 = 13;
    pub const CURE: u8 = 14;
    pub const MOVE: u8 = 15;
    pub const SEARCH: u8 = 16;
    pub const DIG: u8 = 17;
    pub const LOOK: u8 = 18;
    pub const DISCARD: u8 = 19;
    pub const MILL: u8 = 20;
    pub const GAIN: u8 = 21;
    pub const LINK: u8 = 22;
    pub const LINK_CHOSEN: u8 = 23;
    pub const CANT: u8 = 24;
    pub const BAN: u8 = 25;
    pub const REDIRECT: u8 = 26;
    pub const SHIELD: u8 = 27;
    pub const PREVENT: u8 = 28;
    pub const PICK: u8 = 29;
}

/// Static verb ids ([`VOCAB`]`.statics`).
#[allow(dead_code)]
mod st {
    pub const BUFF: u8 = 0;
    pub const GRANT: u8 = 1;
    pub const LINK: u8 = 2;
    pub const CANT: u8 = 3;
    pub const BAN: u8 = 4;
    pub const COST: u8 = 5;
    pub const SEES_COVERT: u8 = 6;
    pub const EXTRA_CURE: u8 = 7;
}

/// Cost ids.
#[allow(dead_code)]
mod cost {
    pub const SELF_ACTION: u8 = 0;
    pub const EP: u8 = 1;
    pub const DISCARD: u8 = 2;
}

/// Noun ids.
#[allow(dead_code)]
mod noun {
    pub const UNIT: u8 = 0;
    pub const ITEM: u8 = 1;
    pub const EVENT: u8 = 2;
    pub const BASE: u8 = 3;
    pub const ARTS: u8 = 4;
    pub const CARD: u8 = 5;
}

/// Stat ids.
pub(crate) mod stat {
    pub const COST: u8 = 0;
    pub const STR: u8 = 1;
}

/// Flag ids.
#[allow(dead_code)]
pub(crate) mod flag {
    pub const READY: u8 = 0;
    pub const ACTIONED: u8 = 1;
    pub const STUNNED: u8 = 2;
    pub const FACE_UP: u8 = 3;
    pub const FACE_DOWN: u8 = 4;
    pub const ATTACKING: u8 = 5;
    pub const DEFENDER: u8 = 6;
    pub const ATTACKABLE: u8 = 7;
    pub const SUPPORTED: u8 = 8;
    pub const FIRST: u8 = 9;
}

/// Quantity ids ([`VOCAB`]`.quantities`).
pub(crate) mod quantity {
    pub const HAND: u8 = 0;
    pub const DECK: u8 = 1;
    pub const BOND: u8 = 2;
    pub const HOMEBASE: u8 = 3;
    pub const TRAIL: u8 = 4;
}

/// Condition word ids ([`VOCAB`]`.conds`).
pub(crate) mod cond_word {
    pub const ATTACKING: u8 = 0;
    pub const DEFENDING: u8 = 1;
    pub const DISPATCHED: u8 = 2;
    pub const INITIATIVE: u8 = 3;
    pub const SCLM: u8 = 4;
}

/// Resource ids ([`VOCAB`]`.resources`).
mod resource {
    pub const CP: u8 = 1;
}

/// Role ids ([`VOCAB`]`.roles`).
pub(crate) mod role {
    pub const ATTACKER: u8 = 0;
}

fn bond_own(e: &mut ast::Effect) {
    e.side = Some(ast::Side::Own);
}

fn bond_enemy(e: &mut ast::Effect) {
    e.side = Some(ast::Side::Enemy);
}

fn keep(_: &mut ast::Effect) {}

const CARDS: &[Slot] = &[Slot::Cards];
const CARDS_DUR: &[Slot] = &[Slot::Cards, Slot::Dur];

/// The Trails vocabulary of the shared grammar.
pub static VOCAB: Vocab = Vocab {
    game: "trails",
    heads: &[
        HeadWord {
            word: w("event", ""),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("arts", "arts"),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("act", "craft"),
            kind: HeadKind::Act,
        },
        HeadWord {
            word: w("static", ""),
            kind: HeadKind::Static,
        },
    ],
    events: &[
        EventWord::new(
            w("enter", ""),
            "when this card is put on the field",
            "when {} is put on the field",
        )
        .subject(),
        EventWord::new(w("attack", ""), "when this unit attacks", "when {} attacks").subject(),
        EventWord::new(
            w("defend", ""),
            "when this unit is named as the target of an attack",
            "when {} is named as the target of an attack",
        )
        .subject(),
        EventWord::new(
            w("stuns", ""),
            "when this unit stuns an opposing unit in combat (that unit: the one stunned)",
            "when {} stuns an opposing unit in combat (that unit: the one stunned)",
        )
        .subject(),
        EventWord::new(w("stunned", ""), "when this unit becomes stunned", "when {} becomes stunned")
            .subject()
            .by(),
        EventWord::new(w("leaves", ""), "when this card leaves the field", "when {} leaves the field")
            .subject()
            .to(),
        EventWord::new(w("played", ""), "when this card is played", "when {} is played").subject(),
        EventWord::new(w("put", ""), "when this card is put", "when {} is put").subject().to(),
        EventWord::new(w("start", ""), "at the start of the turn", "at the start of {}").phase(),
        EventWord::new(w("end", ""), "at the end of the turn", "at the end of {}").phase(),
    ],
    phases: &[
        w("turn", "turn"),
        w("preparation", "preparation phase"),
        w("draw", "draw step"),
        w("homebase", "homebase step"),
        w("deployment", "deployment step"),
        w("combat", "combat"),
        w("cure", "cure phase"),
        w("combat_phase", "combat phase"),
    ],
    zones: &[
        w("field", "field"),
        w("hand", "hand"),
        w("deck", "deck"),
        w("homebase", "homebase"),
        w("trail", "trail"),
    ],
    placements: &[w("actioned", "actioned"), w("face_up", "face up")],
    resources: &[w("ep", "EP"), w("cp", "CP")],
    nouns: &[
        Noun {
            one: "unit",
            many: "units",
            types: 1,
            en_one: "unit",
            en_many: "units",
        },
        Noun {
            one: "item",
            many: "items",
            types: 2,
            en_one: "ITEM",
            en_many: "ITEMs",
        },
        Noun {
            one: "event",
            many: "events",
            types: 4,
            en_one: "EVENT",
            en_many: "EVENTs",
        },
        Noun {
            one: "base",
            many: "bases",
            types: 8,
            en_one: "BASE",
            en_many: "BASEs",
        },
        Noun {
            one: "arts",
            many: "arts",
            types: 16,
            en_one: "arts",
            en_many: "arts",
        },
        Noun {
            one: "card",
            many: "cards",
            types: 0,
            en_one: "card",
            en_many: "cards",
        },
    ],
    stats: &[w("cost", "cost"), w("str", "STR"), w("def", "DEF")],
    flags: &[
        w("ready", "ready"),
        w("actioned", "actioned"),
        w("stunned", "stunned"),
        w("face_up", "face-up"),
        w("face_down", "face-down"),
        w("attacking", "attacking"),
        w("defender", "defending"),
        w("attackable", "attackable"),
        w("supported", "supported"),
        w("first", "first|in each deployment step"),
    ],
    keywords: &[
        w("covert", "[Covert]"),
        w("reinforcement", "[Reinforcement]"),
        w("attribution", "[Attribution]"),
        w("dispatch", "[Dispatch]"),
        w("martial_arts", "[Martial Arts]"),
        w("hate", "[Hate]"),
    ],
    keyword_keys: &["has", "icon"],
    trait_key: "org",
    bare_traits: &[],
    bare_nouns: false,
    quantities: &[
        w("hand", "the number of cards in {p} hand"),
        w("deck", "the number of cards in {p} deck"),
        w("bond", "{p} bond"),
        w("homebase", "the number of cards in {p} homebase"),
        w("trail", "the number of cards in {p} trail"),
        w("attackers", "the number of attacking units"),
    ],
    conds: &[
        w("attacking", "{p} are attacking"),
        w("defending", "{p} are being attacked"),
        w("dispatched", "it was played with [Dispatch]"),
        w("initiative", "{p} have the initiative"),
        w("sclm", "the attack is a SCLM attack"),
    ],
    durations: &[w("turn", "until end of turn"), w("combat", "during this combat")],
    costs: &[
        CostWord {
            word: w("self_action", "action this unit"),
            arg: CostArg::None,
            bare_number: false,
        },
        CostWord {
            word: w("ep", "{n} EP"),
            arg: CostArg::Num(0, 20),
            bare_number: false,
        },
        CostWord {
            word: w("discard", "put {n} card(s) from your hand into your trail"),
            arg: CostArg::Num(1, 5),
            bare_number: false,
        },
    ],
    verbs: &[
        verb("draw", v::DRAW, &[Slot::OptSide, Slot::N(1, 10)], "{side} draw{v} {n} card{s}"),
        verb("draw_to", v::DRAW_TO, &[Slot::N(1, 10)], "draw cards until you have {n} in your hand"),
        verb("plan", v::PLAN, &[Slot::N(1, 8)], "plan {n}"),
        verb("rebuild", v::REBUILD, &[], "rebuild"),
        verb(
            "homebase_top",
            v::HOMEBASE_TOP,
            &[],
            "put the top card of your deck into your homebase face down and actioned",
        ),
        verb("bond", v::BOND, &[Slot::Side, Slot::Signed(-40, 40)], "{sides} bond changes by {n}"),
        legacy("bond", v::BOND, &[Slot::Lit("self"), Slot::Signed(-40, 40)], bond_own),
        legacy("bond", v::BOND, &[Slot::Lit("opp"), Slot::Signed(-40, 40)], bond_enemy),
        verb("stun", v::STUN, CARDS, "stun {cards}"),
        verb("ko", v::KO, CARDS, "K.O. {cards}"),
        verb("ready", v::READY, CARDS, "ready {cards}"),
        verb("action", v::ACTION, CARDS, "action {cards}"),
        verb("support", v::SUPPORT, CARDS, "{cards} get{v} support until end of turn"),
        verb("bounce", v::BOUNCE, CARDS, "return {cards} to its owner's hand"),
        verb(
            "buff",
            v::BUFF,
            &[Slot::Cards, Slot::Stats(-20, 20), Slot::Dur],
            "{cards} get{v} {n}/{m}{dur:until end of turn}",
        ),
        verb(
            "grant",
            v::GRANT,
            &[Slot::Cards, Slot::Keyword, Slot::Dur],
            "{cards} gain{v} {word}{dur:until end of turn}",
        ),
        verb("cure", v::CURE, CARDS, "cure {cards}"),
        verb("move", v::MOVE, &[Slot::Cards, Slot::To], "put {cards} {to}"),
        verb(
            "search",
            v::SEARCH,
            &[Slot::Cards, Slot::To],
            "search your deck for {cards}, reveal it and put it {to}, then shuffle your deck",
        ),
        verb(
            "dig",
            v::DIG,
            &[Slot::N(1, 10), Slot::Cards, Slot::To],
            "look at the top {n} cards of your deck, reveal {cards} among them and put it {to}, and the rest on the bottom of your deck in any order",
        ),
        verb("look", v::LOOK, &[Slot::Side, Slot::Zone], "look at {sides} {zone}"),
        verb(
            "discard",
            v::DISCARD,
            &[Slot::OptSide, Slot::N(1, 5)],
            "{side} put{v} {n} card{s} of their choice from their hand into their trail",
        ),
        verb(
            "mill",
            v::MILL,
            &[Slot::Side, Slot::N(1, 10)],
            "{side} put{v} the top {n} card{s} of {sides} deck into the trail",
        ),
        verb("gain", v::GAIN, &[Slot::Resource, Slot::N(1, 10)], "gain {n} {word}"),
        verb(
            "link",
            v::LINK,
            &[Slot::Traits(2, 2), Slot::Dur],
            "your units of the {traits} organizations have both{dur}",
        ),
        verb(
            "link_chosen",
            v::LINK_CHOSEN,
            &[Slot::Dur],
            "choose two organizations: your units of either have both{dur}",
        ),
        verb(
            "cant",
            v::CANT,
            &[Slot::Cards, Slot::Prohibition, Slot::Dur],
            "{cards} can't {word}{dur}",
        ),
        verb(
            "ban",
            v::BAN,
            &[Slot::Side, Slot::Description, Slot::Dur],
            "{side} can't play {cards}{dur}",
        ),
        verb(
            "redirect",
            v::REDIRECT,
            CARDS,
            "{cards} becomes the defending unit of the attack instead",
        ),
        verb(
            "shield",
            v::SHIELD,
            CARDS_DUR,
            "the next time {cards} would become stunned{dur}, it isn't",
        ),
        verb("prevent", v::PREVENT, &[], "that does not happen"),
        verb("pick", v::PICK, CARDS, "choose {cards}"),
    ],
    statics: &[
        verb("buff", st::BUFF, &[Slot::Cards, Slot::Stats(-20, 20)], "{cards} get{v} {n}/{m}"),
        verb("grant", st::GRANT, &[Slot::Cards, Slot::Keyword], "{cards} {has} {word}"),
        verb(
            "link",
            st::LINK,
            &[Slot::Traits(2, 2)],
            "your units of the {traits} organizations have both",
        ),
        verb("cant", st::CANT, &[Slot::Cards, Slot::Prohibition], "{cards} can't {word}"),
        verb("ban", st::BAN, &[Slot::Side, Slot::Description], "{side} can't play {cards}"),
        verb("cost", st::COST, &[Slot::Cards, Slot::Signed(-20, 20)], "{cards} cost{v} {less:CP}"),
        verb(
            "sees_covert",
            st::SEES_COVERT,
            CARDS,
            "{cards} can attack units with [Covert] as though they had [Covert]",
        ),
        verb(
            "extra_cure",
            st::EXTRA_CURE,
            CARDS,
            "in the cure phase you may cure two units instead of one, one of them {cards}",
        ),
        // The first spelling of continuous changes: `own units [FILTERS] +S/+D` and `own units
        // [FILTERS] ICON`.
        legacy("", st::BUFF, &[Slot::AllCards, Slot::Stats(-20, 20)], keep),
        legacy("", st::GRANT, &[Slot::AllCards, Slot::Keyword], keep),
    ],
    prohibitions: &[
        w("attack", "attack"),
        w("be_targeted", "be targeted by your opponent's EVENTs, arts or crafts"),
        w("be_cured", "be cured"),
    ],
    roles: &[
        w("attacker", "the attacking unit"),
        w("defender", "the defending unit"),
    ],
    head_aliases: &[],
};

/// Parses a whole effect cell. Errors say which ability and what was expected. Organization names
/// become bits through `orgs` (the card database, which adds a name the first time it is met).
pub fn parse_effects(text: &str, orgs: &mut dyn OrgNames) -> Result<Parsed, Reason> {
    let tree = lang::parse(&VOCAB, text).map_err(|e| e.to_string())?;
    compile(&tree, orgs)
}

/// The reason a word the language knows is refused: this engine does not play it yet.
fn not_played(word: &str) -> Reason {
    Reason(format!("`{word}` is not played by the Trails engine yet"))
}

/// A cell of card text in plain English, one line per ability (nothing for a blank cell; the
/// text as written if it does not read, which a loaded card's text always does).
pub fn english(text: &str) -> Vec<String> {
    match lang::parse(&VOCAB, text) {
        Ok(tree) => lang::english(&VOCAB, &tree),
        Err(_) => vec![text.to_string()],
    }
}

/// The card text of `tree` in the canonical form.
pub fn canonical(tree: &[ast::Ability]) -> String {
    lang::canonical(&VOCAB, tree)
}

/// Compiles a parsed cell into the engine's types.
pub fn compile(tree: &[ast::Ability], orgs: &mut dyn OrgNames) -> Result<Parsed, Reason> {
    let mut out = Parsed {
        abilities: Vec::new(),
        statics: Vec::new(),
        static_conds: Vec::new(),
        values: Vec::new(),
    };
    for (k, a) in tree.iter().enumerate() {
        let ctx = |m: Reason| Reason(format!("ability {}: {m}", k + 1));
        let mut all = Vec::new();
        body_conds(&a.body, &mut all);
        all.into_iter()
            .try_for_each(|c| check_words(c, false))
            .map_err(ctx)?;
        // Decision T-EFF-16: `dispatched` is known as the card is played, so it is read in the
        // head of its `enter` or `played` ability only.
        let head_dispatch = matches!(
            &a.head,
            ast::Head::On(t) if t.subject.is_none() && matches!(t.event, event::ENTER | event::PLAYED)
        );
        a.cond
            .iter()
            .try_for_each(|c| check_words(c, head_dispatch))
            .map_err(ctx)?;
        let cond = match &a.cond {
            Some(c) => Some(c.try_map(&mut |x| condition_set(x, orgs)).map_err(ctx)?),
            None => None,
        };
        let mut about = About::default();
        let trigger = match &a.head {
            ast::Head::Word(head::STATIC) => {
                if a.once {
                    return Err(ctx("a static has no `[once]`".into()));
                }
                for s in &a.body {
                    let ast::Stmt::Do(e) = s else {
                        unreachable!("the parser allows only effects in a static")
                    };
                    out.statics
                        .push(compile_static(e, orgs, &mut out.values).map_err(ctx)?);
                    out.static_conds.push(cond.clone());
                }
                continue;
            }
            ast::Head::Word(head::EVENT) => Trigger::Event,
            ast::Head::Word(head::ARTS) => Trigger::Arts,
            ast::Head::Word(head::ACT) => Trigger::Act,
            ast::Head::On(t) => {
                let (trigger, a_about) = on(t, orgs).map_err(ctx)?;
                about = a_about;
                trigger
            }
            ast::Head::Instead(t) => {
                about = instead(t, orgs).map_err(ctx)?;
                Trigger::Instead
            }
            ast::Head::Word(h) => return Err(ctx(not_played(VOCAB.head(*h).word.name))),
        };
        if a.once && matches!(trigger, Trigger::Event | Trigger::Arts) {
            return Err(ctx(
                "`[once]` is for crafts and triggered abilities (an EVENT or arts is played once each time)".into(),
            ));
        }
        let mut c = CraftCost::default();
        for part in &a.costs {
            match part.word {
                cost::SELF_ACTION => c.self_action = true,
                cost::EP => c.ep = part.n.unwrap_or(0) as u8,
                cost::DISCARD if trigger == Trigger::Act => c.discard = part.n.unwrap_or(1) as u8,
                k => return Err(ctx(not_played(VOCAB.costs[k as usize].word.name))),
            }
        }
        if trigger == Trigger::Act && !c.self_action && c.ep == 0 && c.discard == 0 {
            return Err(ctx(
                "a craft needs a cost, e.g. `act[self_action]` or `act[ep 1]`".into(),
            ));
        }
        let program = {
            let shared = std::cell::RefCell::new((&mut *orgs, &mut out.values));
            let mut compilers = program::Compilers {
                effect: &mut |e: &ast::Effect| {
                    let (orgs, values) = &mut *shared.borrow_mut();
                    compile_effect(e, *orgs, values)
                },
                cards: &mut |x: &ast::Cards| condition_set(x, &mut NoOrgs),
                trigger: &mut |t: &ast::Trigger| {
                    let (orgs, _) = &mut *shared.borrow_mut();
                    later_trigger(t, *orgs)
                },
            };
            program::compile(&a.body, &mut compilers).map_err(ctx)?
        };
        // The conditions of `if` steps name organizations too: compiled again with the database.
        let program = recompile_conditions(&a.body, program, orgs).map_err(ctx)?;
        let effects: Vec<Effect> = program.effects().copied().collect();
        check_instead(trigger, &program).map_err(ctx)?;
        out.abilities.push(Ability {
            trigger,
            about,
            cost: c,
            once: a.once,
            cond,
            program,
            effects,
        });
    }
    Ok(out)
}

/// The event of a replacement (decision T-REPL-1): `instead stunned SUBJECT [by CARDS]`, a UNIT
/// the subject names would become stunned (by what `by` names: whose and which kinds of card).
fn instead(t: &ast::Trigger, orgs: &mut dyn OrgNames) -> Result<About, Reason> {
    if t.event != event::STUNNED || t.subject.is_none() {
        return Err("`instead` is played as `instead stunned own unit …` (a unit that would become stunned) by the Trails engine yet".into());
    }
    let plain = ast::Trigger {
        by: None,
        ..t.clone()
    };
    let (_, mut about) = on(&plain, orgs)?;
    if about
        .subject
        .is_some_and(|(_, f)| f.kinds & !kind::UNIT != 0)
    {
        return Err("only a unit becomes stunned (`instead stunned own unit …`)".into());
    }
    if let Some(c) = &t.by {
        let f = filter(&c.filters, orgs)?;
        let only_kinds = Filter { kinds: 0, ..f } == Filter::default();
        if c.zone.is_some() || !matches!(c.pick, ast::Pick::All | ast::Pick::Each) || !only_kinds {
            return Err(
                "`by` names whose card and its kinds (`by enemy event/arts`) in the Trails engine"
                    .into(),
            );
        }
        about.by = Some((side(c.side), noun_kinds(c.noun) | f.kinds));
    }
    Ok(about)
}

/// `prevent` belongs to an `instead` text, and an `instead` text prevents (decision T-REPL-1);
/// its body neither stuns nor redirects (a replacement never waits for another).
fn check_instead(trigger: Trigger, program: &Program) -> Result<(), Reason> {
    let ops = || {
        program
            .ops
            .iter()
            .chain(program.later.iter().flat_map(|l| l.1.iter()))
    };
    let has = |f: fn(&Effect) -> bool| ops().any(|o| matches!(o, Op::Do(e) if f(e)));
    if trigger != Trigger::Instead {
        if has(|e| matches!(e, Effect::Prevent)) {
            return Err("`prevent` is for an `instead` text".into());
        }
        return Ok(());
    }
    if !program.later.is_empty() || !has(|e| matches!(e, Effect::Prevent)) {
        return Err("an `instead` text says what happens instead and `prevent` (`instead stunned own unit: may ko self then prevent`)".into());
    }
    if has(|e| matches!(e, Effect::Stun(_) | Effect::Redirect(_))) {
        return Err("an `instead` text cannot stun or redirect".into());
    }
    Ok(())
}

/// The event of a delayed trigger (`later EVENT: …`, decision T-EFF-10): the start or end of a
/// phase or step.
fn later_trigger(t: &ast::Trigger, orgs: &mut dyn OrgNames) -> Result<(Trigger, About), Reason> {
    let (trigger, about) = on(t, orgs)?;
    if !matches!(trigger, Trigger::Start | Trigger::End) || about.subject.is_some() {
        return Err(
            "a delayed trigger is played for the start or end of a phase (`later end combat: …`)"
                .into(),
        );
    }
    Ok((trigger, about))
}

/// A trigger's event: the engine's trigger and what it is about (decisions T-EFF-6 to T-EFF-8).
fn on(t: &ast::Trigger, orgs: &mut dyn OrgNames) -> Result<(Trigger, About), Reason> {
    if t.by.is_some() {
        return Err("`by` is not played by the Trails engine yet".into());
    }
    let trigger = match t.event {
        event::ENTER => Trigger::Enter,
        event::ATTACK => Trigger::Attack,
        event::DEFEND => Trigger::Defend,
        event::STUNS => Trigger::Stuns,
        event::STUNNED => Trigger::Stunned,
        event::LEAVES => Trigger::Leaves,
        event::PLAYED => Trigger::Played,
        event::PUT => Trigger::Put,
        event::START => Trigger::Start,
        event::END => Trigger::End,
        k => return Err(not_played(VOCAB.events[k as usize].word.name)),
    };
    let mut about = About::default();
    if let Some(c) = &t.subject {
        if c.zone.is_some() {
            return Err(
                "an event's cards are named without a zone (`to ZONE` says where a card goes)"
                    .into(),
            );
        }
        match c.pick {
            ast::Pick::All | ast::Pick::Each => {}
            _ => return Err(
                "an event is about `own …`, `enemy …` or any cards (`unit`, `own unit org=police`)"
                    .into(),
            ),
        }
        let mut f = filter(&c.filters, orgs)?;
        f.kinds |= noun_kinds(c.noun);
        about.subject = Some((side(c.side), f));
    }
    if let Some(z) = t.to {
        about.to = Some(match z {
            zone::FIELD => Zone::Field,
            zone::HAND => Zone::Hand,
            zone::DECK => Zone::Deck,
            zone::HOMEBASE => Zone::Homebase,
            _ => Zone::Trail,
        });
    }
    if let Some(ph) = t.phase {
        let phase = match ph {
            phase::TURN => Phase::Turn,
            phase::PREPARATION => Phase::Preparation,
            phase::DRAW => Phase::Draw,
            phase::HOMEBASE => Phase::Homebase,
            phase::DEPLOYMENT => Phase::Deployment,
            phase::COMBAT => Phase::Combat,
            phase::CURE => Phase::Cure,
            _ => Phase::CombatPhase,
        };
        about.phase = Some((phase, side(t.side)));
    }
    match trigger {
        Trigger::Start | Trigger::End if about.phase.is_none() => {
            about.phase = Some((Phase::Turn, side(t.side)));
        }
        Trigger::Put if about.to != Some(Zone::Homebase) => {
            return Err(
                "`put` is played for cards put into the homebase (`put own card to homebase`)"
                    .into(),
            );
        }
        // Decision T-EFF-7: a card put into the homebase is face down; no filter may read it.
        Trigger::Put if about.subject.is_some_and(|(_, f)| f != Filter::default()) => {
            return Err("a card put into the homebase is face down: name it only as `own card`, `enemy card` or `card` (decision T-EFF-7)".into());
        }
        Trigger::Leaves if matches!(about.to, Some(Zone::Field | Zone::Homebase)) => {
            return Err("a card leaves the field to the hand, the deck or the trail".into());
        }
        _ => {}
    }
    Ok((trigger, about))
}

/// The [`kind`]s of a noun (0 for `card`: any).
/// `cost all SIDE CARDS [first] [in hand|homebase] N` (decision T-RES-15): the cards are read as
/// printed (they are in the hand or face down in the homebase), so a filter on a card's state is
/// refused.
fn cost_all(c: &ast::Cards, n: i8, orgs: &mut dyn OrgNames) -> Result<StaticEffect, Reason> {
    use super::effects::cost_from;
    let first = c
        .filters
        .iter()
        .any(|w| matches!(w, ast::Filter::Flag(flag::FIRST, true)));
    let rest: Vec<ast::Filter> = c
        .filters
        .iter()
        .filter(|w| !matches!(w, ast::Filter::Flag(flag::FIRST, true)))
        .cloned()
        .collect();
    let mut filter = filter(&rest, orgs)?;
    if filter.need | filter.deny != 0 || filter.ready.is_some() || filter.other {
        return Err(
            "a cost change reads the cards as printed: cost, STR, DEF, organizations, icons, names"
                .into(),
        );
    }
    filter.kinds |= match c.noun {
        noun::CARD => kind::UNIT | kind::ITEM,
        n => noun_kinds(n),
    };
    if filter.kinds & !(kind::UNIT | kind::ITEM) != 0 || filter.kinds == 0 {
        return Err("a cost change is for the CP cost of `units` or `items` (T-PREP-3)".into());
    }
    let from = match c.zone {
        None => cost_from::HAND | cost_from::HOMEBASE,
        Some(zone::HAND) => cost_from::HAND,
        Some(zone::HOMEBASE) => cost_from::HOMEBASE,
        Some(_) => {
            return Err("a cost change is for cards played from the hand or the homebase".into())
        }
    };
    Ok(StaticEffect::CostAll {
        side: side(c.side),
        filter,
        n,
        first,
        from,
    })
}

fn noun_kinds(n: u8) -> u8 {
    match n {
        noun::UNIT => kind::UNIT,
        noun::ITEM => kind::ITEM,
        noun::EVENT => kind::EVENT,
        noun::BASE => kind::BASE,
        noun::ARTS => kind::ARTS,
        _ => 0,
    }
}

/// Refuses the condition words the engine does not answer where they stand: `dispatched` only
/// in the head of the card's own `enter` or `played` ability (decision T-EFF-16).
fn check_words(c: &ast::Cond, dispatch_ok: bool) -> Result<(), Reason> {
    match c {
        ast::Cond::Word(cond_word::DISPATCHED, _) if !dispatch_ok => Err(
            "`dispatched` is read as the card is played: write it in the head of its own `enter` or `played` ability (`enter if dispatched: …`)".into(),
        ),
        ast::Cond::Not(x) => check_words(x, dispatch_ok),
        ast::Cond::And(v) | ast::Cond::Or(v) => {
            v.iter().try_for_each(|c| check_words(c, dispatch_ok))
        }
        _ => Ok(()),
    }
}

/// What a `cant` forbids (decision T-EFF-12).
fn prohibition(word: u8) -> Prohibition {
    match VOCAB.prohibitions[word as usize].name {
        "attack" => Prohibition::Attack,
        "be_targeted" => Prohibition::BeTargeted,
        _ => Prohibition::BeCured,
    }
}

/// Every condition of a body, in the order [`program::compile`] writes their steps.
fn body_conds<'a>(body: &'a [ast::Stmt], out: &mut Vec<&'a ast::Cond>) {
    for s in body {
        match s {
            ast::Stmt::Do(_) => {}
            ast::Stmt::If(c, a, b) => {
                out.push(c);
                body_conds(a, out);
                body_conds(b, out);
            }
            ast::Stmt::Choose(opts) => opts.iter().for_each(|o| body_conds(o, out)),
            ast::Stmt::May(a, b) => {
                body_conds(a, out);
                body_conds(b, out);
            }
            ast::Stmt::Later(_, a) => body_conds(a, out),
        }
    }
}

/// A stand-in database for a first pass that must not name organizations.
struct NoOrgs;

impl OrgNames for NoOrgs {
    fn org_bit(&mut self, _: &str) -> Result<super::effects::Orgs, Reason> {
        Ok(0)
    }
    fn name_id(&mut self, _: &str) -> u16 {
        0
    }
}

/// The program of `body` with the card sets of its conditions compiled with `orgs` (the
/// compilers of [`program::compile`] cannot share the one database between effects and
/// conditions, so the conditions' sets are compiled again here, in the same order).
fn recompile_conditions(
    body: &[ast::Stmt],
    mut p: Program,
    orgs: &mut dyn OrgNames,
) -> Result<Program, Reason> {
    let mut written = Vec::new();
    body_conds(body, &mut written);
    let mut k = 0;
    for op in &mut p.ops {
        if let Op::Unless(c, _) = op {
            *c = written[k].try_map(&mut |x| condition_set(x, orgs))?;
            k += 1;
        }
    }
    Ok(p)
}

/// A card set of a condition or a count: a description of units on the field, or one card
/// (`self`, `that`, a role) with filters.
fn condition_set(c: &ast::Cards, orgs: &mut dyn OrgNames) -> Result<Target, Reason> {
    let mode = match c.pick {
        ast::Pick::This => TargetMode::This,
        ast::Pick::That => TargetMode::That,
        ast::Pick::Each | ast::Pick::All => TargetMode::All,
        ast::Pick::Role(r) => TargetMode::Role(r),
        ast::Pick::Choose { .. } => {
            return Err(
                "a condition names cards without a choice (`any own unit …`, `self`, `that`)"
                    .into(),
            )
        }
    };
    let mut filter = filter(&c.filters, orgs)?;
    filter.kinds |= noun_kinds(c.noun);
    let zone = c.zone.map(zone_of);
    if mode == TargetMode::All && matches!(zone, Some(Zone::Deck)) {
        return Err("a condition cannot look into a deck".into());
    }
    Ok(Target {
        mode,
        side: side(c.side),
        filter,
        zone,
        min: 0,
        max: 0,
    })
}

/// What a move may do (decision T-EFF-11): onto the field only UNITs and ITEMs, face up and
/// ready; into the deck on top or at the bottom; into the homebase face down, ready or actioned.
fn check_move(t: &Target, to: Zone, place: Place) -> Result<(), Reason> {
    let ok = match (to, place) {
        (Zone::Field, Place::Usual) => {
            t.filter.kinds != 0 && t.filter.kinds & !(kind::UNIT | kind::ITEM) == 0
        }
        (Zone::Hand | Zone::Trail, Place::Usual) => true,
        (Zone::Deck, Place::Top | Place::Bottom | Place::Usual) => true,
        (Zone::Homebase, Place::Usual | Place::Actioned) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else if to == Zone::Field {
        Err("only a `unit` or an `item` is put onto the field".into())
    } else {
        Err("this placement is not played by the Trails engine yet".into())
    }
}

/// The engine's zone of a zone id.
fn zone_of(z: u8) -> Zone {
    match z {
        zone::FIELD => Zone::Field,
        zone::HAND => Zone::Hand,
        zone::DECK => Zone::Deck,
        zone::HOMEBASE => Zone::Homebase,
        _ => Zone::Trail,
    }
}

/// A number of an effect: as written, or counted (its card set compiled as a condition's).
fn amount(
    v: &Option<ast::Value>,
    orgs: &mut dyn OrgNames,
    values: &mut Vec<Value>,
) -> Result<Amount, Reason> {
    match v {
        Some(ast::Value::Num(n)) => Ok(Amount::Num(*n as i8)),
        Some(v) => {
            if values.len() >= usize::from(u8::MAX) {
                return Err("too many counted numbers on one card".into());
            }
            values.push(v.try_map(&mut |x| condition_set(x, orgs))?);
            Ok(Amount::Counted((values.len() - 1) as u8))
        }
        None => unreachable!("the pattern reads an amount"),
    }
}

fn fixed(v: &Option<ast::Value>) -> Result<i16, Reason> {
    match v {
        Some(ast::Value::Num(n)) => Ok(*n),
        Some(_) => Err("a counted amount is not played by the Trails engine yet".into()),
        None => unreachable!("the pattern reads an amount"),
    }
}

fn side(s: ast::Side) -> Side {
    s
}

fn filter(words: &[ast::Filter], orgs: &mut dyn OrgNames) -> Result<Filter, Reason> {
    let mut f = Filter::default();
    for w in words {
        match w {
            ast::Filter::Stat(k, op, n) => {
                let (lo, hi) = match op {
                    ast::Cmp::Le => (None, Some(*n)),
                    ast::Cmp::Ge => (Some(*n), None),
                    _ => return Err("a stat filter is `<=` or `>=` in the Trails engine".into()),
                };
                match *k {
                    stat::COST => {
                        let clamp = |x: i16| -> Result<u8, Reason> {
                            u8::try_from(x)
                                .ok()
                                .filter(|&x| x <= 99)
                                .ok_or_else(|| format!("{x} is out of range 0..=99"))
                                .map_err(Reason::from)
                        };
                        if let Some(x) = lo {
                            f.cost_min = Some(clamp(x)?);
                        }
                        if let Some(x) = hi {
                            f.cost_max = Some(clamp(x)?);
                        }
                    }
                    _ => {
                        let clamp = |x: i16| -> Result<i8, Reason> {
                            if (-99..=99).contains(&x) {
                                Ok(x as i8)
                            } else {
                                Err(format!("{x} is out of range -99..=99").into())
                            }
                        };
                        let (min, max) = if *k == stat::STR {
                            (&mut f.str_min, &mut f.str_max)
                        } else {
                            (&mut f.def_min, &mut f.def_max)
                        };
                        if let Some(x) = lo {
                            *min = Some(clamp(x)?);
                        }
                        if let Some(x) = hi {
                            *max = Some(clamp(x)?);
                        }
                    }
                }
            }
            ast::Filter::Flag(flag::FACE_UP, yes) | ast::Filter::Flag(flag::FACE_DOWN, yes) => {
                let up = matches!(w, ast::Filter::Flag(flag::FACE_UP, _)) == *yes;
                if up {
                    f.need |= mark::FACE_UP;
                } else {
                    f.deny |= mark::FACE_UP;
                }
            }
            ast::Filter::Flag(flag::READY, true) => f.ready = Some(true),
            ast::Filter::Flag(flag::ACTIONED, true) => f.ready = Some(false),
            ast::Filter::Flag(
                k @ (flag::STUNNED
                | flag::ATTACKING
                | flag::DEFENDER
                | flag::SUPPORTED
                | flag::ATTACKABLE),
                yes,
            ) => {
                let m = match *k {
                    flag::STUNNED => mark::STUNNED,
                    flag::ATTACKING => mark::ATTACKING,
                    flag::DEFENDER => mark::DEFENDER,
                    flag::ATTACKABLE => mark::ATTACKABLE,
                    _ => mark::SUPPORTED,
                };
                if *yes {
                    f.need |= m;
                } else {
                    f.deny |= m;
                }
            }
            ast::Filter::Name(n) => match f.names.iter().position(|&x| x == 0) {
                Some(k) => f.names[k] = orgs.name_id(n),
                None => return Err("at most two `name=` filters on one card set".into()),
            },
            ast::Filter::Keyword(k, true) => f.icon = f.icon.union(Icons::NAMES[*k as usize].1),
            ast::Filter::Trait(t) => f.org |= orgs.org_bit(t)?,
            ast::Filter::Other => f.other = true,
            ast::Filter::Noun(n) => f.kinds |= noun_kinds(*n),
            _ => return Err("this filter is not played by the Trails engine yet".into()),
        }
    }
    Ok(f)
}

/// The cards of an effect on UNITs on the field (stun, buff, …).
fn target(c: &ast::Cards, orgs: &mut dyn OrgNames) -> Result<Target, Reason> {
    if c.zone.is_some() || c.noun != noun::UNIT {
        return Err("this effect is for units on the field (`target own unit …`)".into());
    }
    any_target(c, orgs)
}

/// The cards of an effect, in any zone and of any kind (decision T-EFF-11).
fn any_target(c: &ast::Cards, orgs: &mut dyn OrgNames) -> Result<Target, Reason> {
    let (mode, min, max) = match c.pick {
        ast::Pick::This => (TargetMode::This, 1, 1),
        ast::Pick::Choose { min, max } => (TargetMode::Choose, min, max),
        ast::Pick::All => (TargetMode::All, 0, 0),
        ast::Pick::That => (TargetMode::That, 1, 1),
        ast::Pick::Role(r) => (TargetMode::Role(r), 1, 1),
        ast::Pick::Each => return Err(
            "an effect names its cards with `target`, `up_to N`, `all`, `self`, `that` or a role"
                .into(),
        ),
    };
    let mut filter = filter(&c.filters, orgs)?;
    if filter.kinds == 0 {
        filter.kinds = match c.noun {
            noun::CARD => kind::UNIT | kind::ITEM | kind::EVENT | kind::BASE,
            n => noun_kinds(n),
        };
    }
    let zone = c.zone.map(zone_of);
    if mode == TargetMode::Choose && max == 0 {
        return Err("a choice of at least one card".into());
    }
    if zone == Some(Zone::Deck) && mode != TargetMode::Choose {
        return Err("cards in a deck are named by a choice (`search`, `dig`)".into());
    }
    Ok(Target {
        mode,
        side: side(c.side),
        filter,
        zone,
        min,
        max,
    })
}

fn compile_effect(
    e: &ast::Effect,
    orgs: &mut dyn OrgNames,
    values: &mut Vec<Value>,
) -> Result<Effect, Reason> {
    let dur = match e.dur {
        None => Dur::Turn,
        Some(d) if d == duration::TURN && e.verb == v::BUFF => Dur::Turn,
        Some(d) if d == duration::COMBAT && e.verb == v::BUFF => Dur::Combat,
        Some(d) if d == duration::TURN && e.verb == v::LINK => Dur::Turn,
        Some(d) if d == duration::TURN && e.verb == v::LINK_CHOSEN => Dur::Turn,
        Some(d) if d == duration::TURN && e.verb == v::SHIELD => Dur::Turn,
        Some(d) if d == duration::TURN && e.verb == v::CANT => Dur::Turn,
        Some(d) if d == duration::TURN && e.verb == v::BAN => Dur::Turn,
        Some(d) if d == duration::COMBAT && e.verb == v::BAN => Dur::Combat,
        Some(_) => return Err("a duration is not played by the Trails engine yet".into()),
    };
    let t = |orgs: &mut dyn OrgNames| target(e.cards.as_ref().expect("pattern reads cards"), orgs);
    Ok(match e.verb {
        v::DRAW if e.side == Some(Side::Enemy) => Effect::DrawEnemy(fixed(&e.n)? as u8),
        v::DRAW => match amount(&e.n, orgs, values)? {
            Amount::Num(n) => Effect::Draw(n as u8),
            Amount::Counted(k) => Effect::DrawCounted(k),
        },
        v::PLAN => Effect::Plan(fixed(&e.n)? as u8),
        v::REBUILD => Effect::Rebuild,
        v::HOMEBASE_TOP => Effect::HomebaseTop,
        v::BOND => Effect::Bond {
            side: side(e.side.expect("pattern reads a side")),
            delta: fixed(&e.n)? as i8,
        },
        v::STUN => Effect::Stun(t(orgs)?),
        v::SUPPORT => Effect::Support(t(orgs)?),
        v::BOUNCE => Effect::Bounce(t(orgs)?),
        v::BUFF => Effect::Buff(
            t(orgs)?,
            amount(&e.n, orgs, values)?,
            amount(&e.m, orgs, values)?,
            dur,
        ),
        v::DRAW_TO => Effect::DrawTo(fixed(&e.n)? as u8),
        v::SHIELD => Effect::Shield(t(orgs)?),
        v::REDIRECT => Effect::Redirect(t(orgs)?),
        v::PREVENT => Effect::Prevent,
        v::LINK => {
            if e.dur.is_none() {
                return Err("a link by an effect lasts until end of turn: write `turn`".into());
            }
            let bits = orgs.org_bit(&e.traits[0])? | orgs.org_bit(&e.traits[1])?;
            if bits.count_ones() != 2 {
                return Err("link: name two different organizations".into());
            }
            Effect::Link(bits)
        }
        // Decision T-EFF-19: two organizations chosen as it resolves.
        v::LINK_CHOSEN => {
            if e.dur.is_none() {
                return Err("a link by an effect lasts until end of turn: write `turn`".into());
            }
            Effect::LinkChosen
        }
        // Decision T-EFF-17: plays forbidden until end of turn or of the combat.
        v::BAN => {
            if e.dur.is_none() {
                return Err("a ban by an effect lasts until end of turn or of the combat: write `turn` or `combat`".into());
            }
            let c = e.cards.as_ref().expect("pattern reads a description");
            if c.zone.is_some() {
                return Err("a ban names cards without a zone (`ban enemy events turn`)".into());
            }
            let same_name = c.filters.contains(&ast::Filter::SameName);
            let rest: Vec<ast::Filter> = c
                .filters
                .iter()
                .filter(|f| **f != ast::Filter::SameName)
                .cloned()
                .collect();
            let mut filter = filter(&rest, orgs)?;
            filter.kinds |= noun_kinds(c.noun);
            if filter.need | filter.deny != 0 || filter.ready.is_some() || filter.other {
                return Err("a ban describes cards by what is printed on them (cost, organization, keyword, name, kind)".into());
            }
            Effect::Ban {
                t: Target {
                    mode: TargetMode::All,
                    side: side(e.side.expect("pattern reads a side")),
                    filter,
                    zone: None,
                    min: 0,
                    max: 0,
                },
                same_name,
                dur,
            }
        }
        // Decision T-EFF-15: a prohibition by an effect lasts until end of turn.
        v::CANT => {
            if e.dur.is_none() {
                return Err(
                    "a prohibition by an effect lasts until end of turn: write `turn`".into(),
                );
            }
            Effect::Cant(t(orgs)?, prohibition(e.word.expect("prohibition")))
        }
        v::GAIN => Effect::Gain {
            cp: e.word == Some(resource::CP),
            n: fixed(&e.n)? as u8,
        },
        v::CURE => Effect::Cure(t(orgs)?),
        v::GRANT => Effect::Grant(t(orgs)?, Icons::NAMES[e.word.expect("keyword") as usize].1),
        v::MOVE | v::SEARCH | v::DIG => {
            let c = e.cards.as_ref().expect("pattern reads cards");
            let mut t = any_target(c, orgs)?;
            let (z, pos) = e.to.expect("pattern reads a destination");
            let to = zone_of(z);
            let place = match pos {
                ast::Pos::Default => Place::Usual,
                ast::Pos::Top => Place::Top,
                ast::Pos::Bottom => Place::Bottom,
                ast::Pos::Word(0) => Place::Actioned,
                ast::Pos::Word(_) => Place::FaceUp,
            };
            check_move(&t, to, place)?;
            match e.verb {
                v::MOVE => {
                    if t.zone == Some(Zone::Deck) {
                        return Err("cards are taken from a deck by `search` or `dig`".into());
                    }
                    if t.zone == Some(to) || (t.zone.is_none() && to == Zone::Field) {
                        return Err("a card moves to another zone".into());
                    }
                    Effect::Move(t, to, place)
                }
                _ => {
                    if t.mode != TargetMode::Choose || t.side == Side::Enemy {
                        return Err("`search` and `dig` choose cards of your own deck (`up_to 1 own unit …`)".into());
                    }
                    if t.zone.is_some() {
                        return Err(
                            "`search` and `dig` take cards from the deck: name them without a zone"
                                .into(),
                        );
                    }
                    t.zone = Some(Zone::Deck);
                    t.side = Side::Own;
                    if to == Zone::Deck {
                        return Err("a card taken from the deck goes to another zone".into());
                    }
                    if e.verb == v::SEARCH {
                        Effect::Search(t, to, place)
                    } else {
                        Effect::Dig(fixed(&e.n)? as u8, t, to, place)
                    }
                }
            }
        }
        v::LOOK => {
            let (z, _) = e.to.expect("pattern reads a zone");
            if e.side != Some(Side::Enemy) || zone_of(z) != Zone::Hand {
                return Err("`look` is played as `look enemy hand`".into());
            }
            Effect::Look
        }
        v::DISCARD => Effect::Discard {
            enemy: e.side == Some(Side::Enemy),
            n: fixed(&e.n)? as u8,
        },
        v::PICK => {
            let t = any_target(e.cards.as_ref().expect("pattern reads cards"), orgs)?;
            if t.mode != TargetMode::Choose {
                return Err("`pick` chooses cards (`pick target …`)".into());
            }
            Effect::Pick(t)
        }
        v::READY | v::ACTION | v::KO => {
            let t = any_target(e.cards.as_ref().expect("pattern reads cards"), orgs)?;
            if !matches!(t.zone, None | Some(Zone::Homebase)) {
                return Err("this effect is for cards on the field or in the homebase".into());
            }
            match e.verb {
                v::READY => Effect::Ready(t),
                v::ACTION => Effect::Action(t),
                _ => Effect::Ko(t),
            }
        }
        k => return Err(not_played(VOCAB.verb(false, k).name)),
    })
}

fn compile_static(
    e: &ast::Effect,
    orgs: &mut dyn OrgNames,
    values: &mut Vec<Value>,
) -> Result<StaticEffect, Reason> {
    let all = |orgs: &mut dyn OrgNames| -> Result<(Side, Filter), Reason> {
        let c = e.cards.as_ref().expect("pattern reads cards");
        if c.zone.is_some() || c.noun != noun::UNIT {
            return Err("a static changes units on the field".into());
        }
        match c.pick {
            ast::Pick::All if c.side != ast::Side::Any => {
                Ok((side(c.side), filter(&c.filters, orgs)?))
            }
            ast::Pick::This => {
                let mut f = filter(&c.filters, orgs)?;
                if f.other {
                    return Err("`self` is never `other`".into());
                }
                f.itself = true;
                Ok((Side::Own, f))
            }
            _ => Err("a static changes `self`, `all own units …` or `all enemy units …`".into()),
        }
    };
    Ok(match e.verb {
        st::BUFF => {
            let (side, filter) = all(orgs)?;
            StaticEffect::Stats {
                side,
                filter,
                str: amount(&e.n, orgs, values)?,
                def: amount(&e.m, orgs, values)?,
            }
        }
        st::GRANT => {
            let (side, filter) = all(orgs)?;
            StaticEffect::Grant {
                side,
                filter,
                icons: Icons::NAMES[e.word.expect("keyword") as usize].1,
            }
        }
        // Decision T-CURE-6: a second cure, one of the two matching the filter.
        st::EXTRA_CURE => {
            let (side, filter) = all(orgs)?;
            if side != Side::Own {
                return Err("`extra_cure` names the player's own units (`extra_cure all own units org=church`)".into());
            }
            StaticEffect::ExtraCure { filter }
        }
        // Decision T-ICON-COVERT-2: granted as an icon that is not one.
        st::SEES_COVERT => {
            let (side, filter) = all(orgs)?;
            StaticEffect::Grant {
                side,
                filter,
                icons: Icons::SEES_COVERT,
            }
        }
        st::LINK => {
            let bits = orgs.org_bit(&e.traits[0])? | orgs.org_bit(&e.traits[1])?;
            if bits.count_ones() != 2 {
                return Err("link: name two different organizations".into());
            }
            StaticEffect::Link(bits)
        }
        st::COST => {
            let c = e.cards.as_ref().expect("pattern reads cards");
            let n = match e.n {
                Some(ast::Value::Num(n)) if (-99..=99).contains(&n) => n as i8,
                _ => {
                    return Err(
                        "`cost` takes a written number from -99 to 99 (`cost self -2`)".into(),
                    )
                }
            };
            match c.pick {
                ast::Pick::This if c.filters.is_empty() => StaticEffect::CostSelf(n),
                ast::Pick::All => cost_all(c, n, orgs)?,
                _ => {
                    return Err(
                        "`cost` changes `self` (`cost self -2`) or `all` cards of a side (`cost all own units org=army -1`)"
                            .into(),
                    )
                }
            }
        }
        st::CANT => {
            let (side, filter) = all(orgs)?;
            let what = prohibition(e.word.expect("prohibition"));
            StaticEffect::Cant { side, filter, what }
        }
        k => return Err(not_played(VOCAB.verb(true, k).name)),
    })
}

#[cfg(test)]
mod tests {
    use super::super::cards::CardDb;
    use super::super::effects::TargetMode;
    use super::*;

    fn parse(s: &str) -> Result<Parsed, Reason> {
        parse_effects(s, &mut CardDb::default())
    }

    #[test]
    fn parses_every_primitive() {
        let p = parse(
            "enter: draw 1; plan 3; rebuild; homebase_top; bond opp -3; bond self +2 \
             | act[self_action, ep 1]: stun target enemy unit cost<=2; ko all enemy units str<=1 ready; \
               ready self; action target unit actioned; support target own unit other; bounce target enemy unit org=army; \
               buff target own unit icon=covert +2/-1; grant all own units martial_arts \
             | static: own units org=bracer +1/+0; enemy units -1/+0; own units org=jaeger covert; link police bracer",
        )
        .unwrap();
        assert_eq!(p.abilities.len(), 2);
        assert_eq!(p.abilities[0].effects.len(), 6);
        assert_eq!(
            p.abilities[1].cost,
            CraftCost {
                self_action: true,
                ep: 1,
                discard: 0
            }
        );
        match p.abilities[1].effects[0] {
            Effect::Stun(t) => {
                assert_eq!(t.mode, TargetMode::Choose);
                assert_eq!(t.side, Side::Enemy);
                assert_eq!(t.filter.cost_max, Some(2));
            }
            ref e => panic!("{e:?}"),
        }
        match p.abilities[1].effects[6] {
            Effect::Buff(t, Amount::Num(2), Amount::Num(-1), Dur::Turn) => {
                assert_eq!(t.filter.icon, Icons::COVERT)
            }
            ref e => panic!("{e:?}"),
        }
        assert_eq!(p.statics.len(), 4);
        assert!(matches!(p.statics[3], StaticEffect::Link(b) if b.count_ones() == 2));
    }

    #[test]
    fn old_and_canonical_spellings_compile_alike() {
        let old = "enter: bond opp -3; bond self +2 | static: own units org=bracer +1/+0; own units icon=hate covert";
        let tree = lang::parse(&VOCAB, old).unwrap();
        let text = canonical(&tree);
        assert_eq!(
            text,
            "enter: bond enemy -3; bond own +2 | static: buff all own units org=bracer +1/+0; grant all own units has=hate covert"
        );
        assert_eq!(lang::parse(&VOCAB, &text).unwrap(), tree);
    }

    #[test]
    fn errors_name_the_ability_and_the_problem() {
        let e = parse("enter: draw 1 | fly: draw 2").err().unwrap();
        assert!(
            e.contains("ability 2") && e.contains("\"fly\"") && e.contains("unknown trigger"),
            "{e}"
        );
        let e = parse("act: draw 1").err().unwrap();
        assert!(e.contains("needs a cost"), "{e}");
        let e = parse("enter: stun target enemy unit cost<x").err().unwrap();
        assert!(e.contains("expected a number"), "{e}");
        let e = parse("enter: bond opp 3").err().unwrap();
        assert!(e.contains("signed"), "{e}");
        let e = parse("enter: buff self +2").err().unwrap();
        assert!(e.contains("+2/+0"), "{e}");
        let e = parse("static: link police police").err().unwrap();
        assert!(e.contains("two different"), "{e}");
        let e = parse("enter: teleport").err().unwrap();
        assert!(e.contains("unknown effect"), "{e}");
        let e = parse("enter: darw 1").err().unwrap();
        assert!(e.contains("did you mean \"draw\""), "{e}");
        let e = parse("enter draw 1").err().unwrap();
        assert!(e.contains("expected `:`"), "{e}");
    }
}
