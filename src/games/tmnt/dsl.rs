//! The TMNT words of the card language (`docs/cards.md`, "TMNT TCG"): the vocabulary the shared
//! grammar (`crate::core::lang`) reads a TMNT effect cell with, and the compile step from its tree
//! into the types of [`super::cards`] the engine plays.

use super::cards::{
    phase, zone, Ability, Amount, CardType, Counted, Dest, Effect, Filter, Kind, Moment, Target,
    Trigger, When, ATTRIBUTES, MAX_ABILITIES, MAX_EFFECTS, MAX_NAMES, NO_TITLE,
};
use crate::core::ids::ids;
use crate::core::lang::vocab::{
    legacy, verb, w, CostArg, CostWord, EventWord, HeadKind, HeadWord, Noun, Slot, Vocab,
};
use crate::core::lang::{self, ast, program};
use crate::core::lang::{Side, TargetMode};
use crate::core::Reason;

ids! {
    mod head {
        PLAY, FLIP, PLAY_FLIP, STATIC, ANYTIME,
    }
}

ids! {
    #[allow(dead_code)]
    mod event {
        START, DAMAGED, MILLED, END, ATTACK, DEFEND, HIT, FLIPPED, PLACED, LEAVES,
    }
}

ids! {
    #[allow(dead_code)]
    mod v {
        DRAW, MILL, DISCARD, MOVE, POWER, BONUS, DRAW_TO, LOOK, PEEK, SEARCH, DIG, ARRANGE, BAN,
        PREVENT, REDUCE, EXCESS_CAP, EXCESS_EXTRA, KEEP_ANYWAY, FREE_ITEM, PICK,
    }
}

ids! {
    #[allow(dead_code)]
    mod st {
        POWER, ALSO_TITLED, ITEM_ANY_ATTRIBUTE, BAN,
    }
}

fn keep(_: &mut ast::Effect) {}

/// `salvage FILTERS` is `move target own card FILTERS in trash to hand`.
fn salvage(e: &mut ast::Effect) {
    e.verb = v::MOVE;
    e.to = Some((zone::HAND, ast::Pos::Default));
}

/// The TMNT vocabulary of the shared grammar.
pub static VOCAB: Vocab = Vocab {
    game: "tmnt",
    heads: &[
        HeadWord {
            word: w("play", "<Play>"),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("flip", "<Flip>"),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("play_flip", "<Play & Flip>"),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("static", ""),
            kind: HeadKind::Static,
        },
        HeadWord {
            word: w("anytime", "anytime"),
            kind: HeadKind::Act,
        },
    ],
    events: &[
        EventWord::new(w("start", ""), "at the start of the phase", "at the start of {}").phase(),
        EventWord::new(
            w("damaged", ""),
            "when you take damage as the defender",
            "when you take damage as the defender",
        ),
        EventWord::new(
            w("milled", ""),
            "when cards of your deck are sent to your Trash",
            "when cards of your deck are sent to your Trash",
        )
        .side(),
        EventWord::new(w("end", ""), "at the end of the phase", "at the end of {}").phase(),
        EventWord::new(
            w("attack", ""),
            "when this card attacks (the start of your Attack step, face up on your Block Zone 1)",
            "when {} attacks",
        ),
        EventWord::new(
            w("defend", ""),
            "when your opponent's Counter step begins while this card is face up on one of your Block Zones",
            "when {} defends",
        ),
        EventWord::new(
            w("hit", ""),
            "when a point of damage is counted on this card",
            "when a point of damage is counted on {}",
        )
        .subject(),
        EventWord::new(
            w("flipped", ""),
            "when this card is turned face up on a Block Zone",
            "when {} is turned face up on a Block Zone",
        )
        .subject(),
        EventWord::new(w("placed", ""), "when this card is placed", "when {} is placed").subject(),
        EventWord::new(w("leaves", ""), "when this card leaves its zone", "when {} leaves its zone")
            .subject()
            .to(),
    ],
    phases: &[
        w("attack", "Attack phase"),
        w("result", "Result step"),
        w("turn", "turn"),
        w("adjust", "Adjust phase"),
        w("set", "Set phase"),
        w("event", "Event phase"),
        w("item", "Item phase"),
        w("flip", "Flip phase"),
        w("attack_step", "Attack step"),
        w("counter", "Counter step"),
        w("forward", "Forward step"),
    ],
    zones: &[
        w("blocks", "Block Zones"),
        w("trash", "Trash"),
        w("hand", "hand"),
        w("deck", "deck"),
        w("zone1", "1st Block Zone"),
        w("items", "Item Zone"),
        w("attack_zone", "Attack Zone"),
    ],
    placements: &[w("face_up", "face up")],
    resources: &[],
    nouns: &[
        Noun {
            one: "card",
            many: "cards",
            types: 0,
            en_one: "card",
            en_many: "cards",
        },
        Noun {
            one: "character",
            many: "characters",
            types: 1,
            en_one: "Character",
            en_many: "Characters",
        },
        Noun {
            one: "attack",
            many: "attacks",
            types: 2,
            en_one: "Attack card",
            en_many: "Attack cards",
        },
        Noun {
            one: "item",
            many: "items",
            types: 4,
            en_one: "Item",
            en_many: "Items",
        },
        Noun {
            one: "event",
            many: "events",
            types: 8,
            en_one: "Event",
            en_many: "Events",
        },
    ],
    stats: &[w("power", "power")],
    flags: &[
        w("face_up", "face-up"),
        w("face_down", "face-down"),
        // Before the noun `Attack card`: "a Counter Attack card".
        w("counter", "Counter"),
        w("forceful_counter", "Forceful Counter"),
        w("forceful", "Forceful"),
        w("attacking", "attacking"),
    ],
    keywords: &[],
    keyword_keys: &[],
    trait_key: "attr",
    bare_traits: &ATTRIBUTES,
    bare_nouns: true,
    quantities: &[
        w("hand", "the number of cards in {p} hand"),
        w("deck", "the number of cards in {p} deck"),
        w("trash", "the number of cards in {p} Trash"),
        w("blocks", "the number of {p} Block cards"),
    ],
    conds: &[
        w("own_turn", "it is your turn"),
        w("counter_step", "this card was placed in the Counter step"),
        w("flip_phase", "this card was flipped on your Block Zone 1 in your Flip phase"),
        w("result_step", "it is the Result step"),
        w("before_damage", "it is an Attack phase before the Forward step's damage is counted"),
    ],
    durations: &[w("phase", "until the end of this Attack phase"), w("turn", "until the end of this turn")],
    costs: &[CostWord {
        word: w("trash_self", "send this card to your Trash"),
        arg: CostArg::None,
        bare_number: false,
    }],
    verbs: &[
        verb("draw", v::DRAW, &[Slot::OptSide, Slot::N(1, 5)], "{side} draw{v} {n} card{s}"),
        verb("draw_to", v::DRAW_TO, &[Slot::N(1, 10)], "draw cards until you have {n} in your hand"),
        verb(
            "mill",
            v::MILL,
            &[Slot::Side, Slot::N(1, 5)],
            "{side} send{v} the top {n} card{s} of {sides} deck to the Trash",
        ),
        legacy("trash", v::MILL, &[Slot::Side, Slot::N(1, 5)], keep),
        verb(
            "discard",
            v::DISCARD,
            &[Slot::OptSide, Slot::N(1, 3)],
            "{side} discard{v} {n} card{s} of their choice from their hand",
        ),
        verb("move", v::MOVE, &[Slot::Cards, Slot::To], "put {cards} {to}"),
        legacy("salvage", v::MOVE, &[Slot::FiltersIn(zone::TRASH)], salvage),
        verb(
            "power",
            v::POWER,
            &[Slot::Cards, Slot::Signed(-20, 20), Slot::Dur],
            "{cards} get{v} {n} power{dur}",
        ),
        legacy("power", v::POWER, &[Slot::Signed(-20, 20), Slot::Cards], keep),
        verb(
            "bonus",
            v::BONUS,
            &[Slot::Signed(-20, 20)],
            "your side of this turn's Forward step gets {n} power",
        ),
        verb("look", v::LOOK, &[Slot::Side, Slot::Zone], "look at {sides} {zone}"),
        verb("peek", v::PEEK, &[Slot::Cards], "look at {cards}"),
        verb(
            "search",
            v::SEARCH,
            &[Slot::Cards, Slot::To],
            "search your deck for {cards}, show it and put it {to}, then shuffle your deck",
        ),
        verb(
            "dig",
            v::DIG,
            &[Slot::N(1, 10), Slot::Cards, Slot::To],
            "look at the top {n} cards of your deck, put {cards} among them {to}, and the rest on the bottom of your deck in any order",
        ),
        verb(
            "arrange",
            v::ARRANGE,
            &[Slot::N(1, 5)],
            "look at the top {n} cards of your deck and put them back on top in any order",
        ),
        verb("ban", v::BAN, &[Slot::Side, Slot::Description, Slot::Dur], "{side} can't place {cards}{dur}"),
        verb("prevent", v::PREVENT, &[], "that does not happen"),
        verb(
            "reduce",
            v::REDUCE,
            &[Slot::N(1, 10)],
            "reduce the damage of this Attack phase's Forward step by {n}",
        ),
        verb(
            "excess_cap",
            v::EXCESS_CAP,
            &[Slot::N(0, 10)],
            "damage beyond your Block cards sends at most {n} card{s} from your deck",
        ),
        verb(
            "excess_extra",
            v::EXCESS_EXTRA,
            &[Slot::N(1, 10)],
            "your opponent sends {n} more card{s} from their deck than the difference",
        ),
        verb(
            "keep_anyway",
            v::KEEP_ANYWAY,
            &[],
            "this turn's Result step lets you keep a Character even if cards left your deck",
        ),
        verb("free_item", v::FREE_ITEM, &[], "this turn you may place an Item without discarding"),
        verb("pick", v::PICK, &[Slot::Cards], "choose {cards}"),
    ],
    statics: &[
        verb(
            "power",
            st::POWER,
            &[Slot::Cards, Slot::Signed(-20, 20)],
            "{cards} {has} {n} power",
        ),
        verb(
            "also_titled",
            st::ALSO_TITLED,
                        &[Slot::Cards, Slot::Lit("as"), Slot::Description2],
            "{cards} also counts as {as} for combos",
        ),
        verb(
            "item_any_attribute",
            st::ITEM_ANY_ATTRIBUTE,
            &[],
            "you may discard a card of any attribute to place an Item",
        ),
        verb("ban", st::BAN, &[Slot::Side, Slot::Description], "{side} can't place {cards}"),
        legacy("power", st::POWER, &[Slot::Signed(-20, 20), Slot::Cards], keep),
    ],
    prohibitions: &[],
    roles: &[
        w("attacker", "the attacking card"),
        w("counter", "the Counter Attack card"),
    ],
    head_aliases: &[
        ("when attack", "start own attack"),
        ("when defend", "start enemy attack"),
        ("when damaged", "damaged"),
        ("when trash", "milled own"),
        ("when result", "start result"),
    ],
};

/// The reason a word the language knows is refused: this engine does not play it yet.
fn not_played(word: &str) -> Reason {
    Reason(format!("`{word}` is not played by the TMNT engine yet"))
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

/// The effect cell of a card of type `ctype`: its abilities; which triggers each card type may
/// have. A `name=` filter names no card here (see [`effects_in`]).
pub fn effects(text: &str, ctype: CardType) -> Result<Vec<Ability>, Reason> {
    effects_in(text, ctype, &[])
}

/// [`effects`] in a card file whose titles (normalized, by title index) are `titles`: what
/// `name=` filters name.
pub fn effects_in(text: &str, ctype: CardType, titles: &[String]) -> Result<Vec<Ability>, Reason> {
    let tree = lang::parse(&VOCAB, text).map_err(|e| e.to_string())?;
    compile_in(&tree, ctype, titles)
}

/// Compiles a parsed cell into the engine's types (no titles for `name=`).
pub fn compile(tree: &[ast::Ability], ctype: CardType) -> Result<Vec<Ability>, Reason> {
    compile_in(tree, ctype, &[])
}

ids! {
    /// The condition words (the vocabulary's `conds`, in order).
    pub mod cond_word {
        OWN_TURN, COUNTER_STEP, FLIP_PHASE, RESULT_STEP, BEFORE_DAMAGE,
    }
}

ids! {
    /// The quantity words (the vocabulary's `quantities`, in order).
    pub mod quantity {
        HAND, DECK, TRASH, BLOCKS,
    }
}

/// The roles (the vocabulary's `roles`, in order).
pub mod role {
    /// The attacking card (M-ATK-2).
    pub const ATTACKER: u8 = 0;
    /// The card in the defender's Attack Zone (M-ATK-7).
    pub const COUNTER: u8 = 1;
}

ids! {
    /// The flags (the vocabulary's `flags`, in order).
    mod flag {
        FACE_UP, FACE_DOWN, COUNTER, FORCEFUL_COUNTER, FORCEFUL, ATTACKING,
    }
}

/// Compiles a parsed cell into the engine's types, `name=` filters read against `titles`.
pub fn compile_in(
    tree: &[ast::Ability],
    ctype: CardType,
    titles: &[String],
) -> Result<Vec<Ability>, Reason> {
    if tree.len() > MAX_ABILITIES {
        return Err(format!("at most {MAX_ABILITIES} abilities").into());
    }
    let mut out: Vec<Ability> = Vec::new();
    for (k, a) in tree.iter().enumerate() {
        let ctx = |m: Reason| Reason(format!("ability {}: {m}", k + 1));
        let (trigger, moment) = head(a, ctype).map_err(ctx)?;
        let allowed = match trigger {
            Trigger::Play => matches!(ctype, CardType::Attack | CardType::Event),
            Trigger::Flip => ctype != CardType::Item,
            Trigger::PlayFlip => ctype == CardType::Event,
            Trigger::Static => matches!(ctype, CardType::Item | CardType::Character),
            Trigger::When(When::Attacks | When::Defends | When::Hit) | Trigger::Instead => {
                ctype == CardType::Character
            }
            Trigger::When(_) => matches!(ctype, CardType::Character | CardType::Item),
            Trigger::Anytime => ctype == CardType::Item,
        };
        if !allowed {
            let head = lang::canonical(&VOCAB, std::slice::from_ref(a));
            let head = head.split(':').next().unwrap_or("");
            return Err(ctx(format!(
                "a{} {} has no `{head}` text (docs/cards.md, TMNT triggers)",
                if matches!(ctype, CardType::Item | CardType::Attack | CardType::Event) {
                    "n"
                } else {
                    ""
                },
                ctype.name(),
            )
            .into()));
        }
        let same_kind = |x: &Ability| {
            x.trigger == trigger
                || matches!((x.trigger, trigger), (Trigger::When(_), Trigger::When(_)))
        };
        if out.iter().any(same_kind) {
            return Err(ctx(
                "a card has at most one text of each trigger, and one `when`".into(),
            ));
        }
        // Costs in brackets: `[once]` on a "when" or `anytime` text, `trash_self` on `anytime`.
        let mut trash_self = false;
        for c in &a.costs {
            match VOCAB.costs[usize::from(c.word)].word.name {
                "trash_self" => trash_self = true,
                w => return Err(ctx(not_played(w))),
            }
        }
        if a.once && !matches!(trigger, Trigger::When(_) | Trigger::Anytime) {
            return Err(ctx(
                "`[once]` is for a \"when\" text or an `anytime` text".into()
            ));
        }
        if trigger == Trigger::Anytime && !trash_self && !a.once {
            return Err(ctx(
                "an `anytime` text needs a cost or `[once]`, e.g. `anytime[trash_self]:` (M-ACT-1)"
                    .into(),
            ));
        }
        let cond = match &a.cond {
            Some(c) => {
                check_cond_words(c, trigger).map_err(ctx)?;
                Some(c.try_map(&mut |x| cond_set(x, titles)).map_err(ctx)?)
            }
            None => None,
        };
        if cond.is_some() && trigger == Trigger::Flip {
            return Err(ctx(
                "a <Flip> text resolves whenever its card is turned face up: put its condition in an `if` step".into(),
            ));
        }
        let statics = trigger == Trigger::Static;
        let mut compilers = program::Compilers {
            effect: &mut |e: &ast::Effect| {
                if statics {
                    compile_static(e, ctype, titles)
                } else {
                    compile_effect(e, titles)
                }
            },
            cards: &mut |x: &ast::Cards| cond_set(x, titles),
            trigger: &mut |t: &ast::Trigger| later_trigger(t, trigger),
        };
        let program = program::compile(&a.body, &mut compilers).map_err(ctx)?;
        let mut conds = Vec::new();
        body_conds(&a.body, &mut conds);
        conds
            .into_iter()
            .try_for_each(|c| check_cond_words(c, trigger))
            .map_err(ctx)?;
        let effects: Vec<Effect> = program
            .ops
            .iter()
            .chain(program.later.iter().flat_map(|(_, ops)| ops.iter()))
            .filter_map(|o| match o {
                program::Op::Do(e) => Some(*e),
                _ => None,
            })
            .collect();
        if effects.len() > MAX_EFFECTS {
            return Err(ctx(format!("at most {MAX_EFFECTS} effects").into()));
        }
        for e in &effects {
            check_effect_place(e, trigger, ctype).map_err(ctx)?;
        }
        out.push(Ability {
            trigger,
            cond,
            once: a.once,
            trash_self,
            moment,
            program,
            effects,
        });
    }
    if ctype == CardType::Event
        && !(out.len() == 1
            && matches!(
                out[0].trigger,
                Trigger::Play | Trigger::Flip | Trigger::PlayFlip
            ))
    {
        return Err(
            "an event has exactly one text: `play:`, `flip:` or `play_flip:` (its kind, M-DECK-4)"
                .into(),
        );
    }
    Ok(out)
}

/// The trigger and moment of an ability's head.
fn head(a: &ast::Ability, ctype: CardType) -> Result<(Trigger, Moment), Reason> {
    let mut m = Moment::default();
    let t = match &a.head {
        ast::Head::Word(head::PLAY) => Trigger::Play,
        ast::Head::Word(head::FLIP) => Trigger::Flip,
        ast::Head::Word(head::PLAY_FLIP) => Trigger::PlayFlip,
        ast::Head::Word(head::STATIC) => Trigger::Static,
        ast::Head::Word(head::ANYTIME) => Trigger::Anytime,
        ast::Head::Word(h) => return Err(not_played(VOCAB.head(*h).word.name)),
        ast::Head::On(t) => {
            if t.by.is_some() {
                return Err("`by` is not played by the TMNT engine yet".into());
            }
            let subject = match &t.subject {
                Some(c) => Some(cond_set_subject(c)?),
                None => None,
            };
            let self_only = |w: When| -> Result<Trigger, Reason> {
                if subject.is_some() {
                    Err(format!(
                        "`{}` is about this card only in the TMNT engine yet",
                        VOCAB.events[usize::from(t.event)].word.name
                    )
                    .into())
                } else {
                    Ok(Trigger::When(w))
                }
            };
            match t.event {
                event::START => match (t.phase, t.side) {
                    (Some(phase::ATTACK), Side::Own) => Trigger::When(When::Attack),
                    (Some(phase::ATTACK), Side::Enemy) => Trigger::When(When::Defend),
                    (Some(phase::RESULT), Side::Any) => Trigger::When(When::Result),
                    (Some(phase::SET | phase::EVENT | phase::ITEM | phase::FLIP), _) => {
                        return Err(
                            "the start of the Set, Event, Item or Flip phase is not played by the TMNT engine yet (played: `turn`, `adjust`, `attack`, `attack_step`, `counter`, `forward`, `result`)"
                                .into(),
                        )
                    }
                    (Some(p), side) => {
                        m.phase = p;
                        m.side = side;
                        Trigger::When(When::Start)
                    }
                    (None, _) => unreachable!("`start` reads a phase"),
                },
                event::DAMAGED => Trigger::When(When::Damaged),
                event::MILLED => match t.side {
                    Side::Own => Trigger::When(When::Trash),
                    Side::Enemy => Trigger::When(When::MilledEnemy),
                    Side::Any => {
                        return Err(
                            "`milled` names whose deck: `milled own` or `milled enemy`".into()
                        )
                    }
                },
                event::ATTACK => self_only(When::Attacks)?,
                event::DEFEND => self_only(When::Defends)?,
                event::HIT => self_only(When::Hit)?,
                event::FLIPPED => {
                    m.subject = subject;
                    Trigger::When(When::Flipped)
                }
                event::PLACED => {
                    if subject.is_none() && ctype != CardType::Item {
                        return Err(
                            "only an Item is placed and then has texts (`placed` about another card needs a subject)"
                                .into(),
                        );
                    }
                    m.subject = subject;
                    Trigger::When(When::Placed)
                }
                event::LEAVES => {
                    let Some(s) = subject else {
                        return Err(
                            "`leaves` about this card is played only as `instead leaves to trash` or `later leaves to trash` yet"
                                .into(),
                        );
                    };
                    if !matches!(
                        s.zone,
                        zone::BLOCKS | zone::ZONE1 | zone::ITEMS | zone::ATTACK_ZONE | zone::PLAY
                    ) {
                        return Err("`leaves` is played for cards leaving a Block Zone, an Attack Zone or an Item Zone".into());
                    }
                    m.subject = Some(s);
                    m.to = t.to.unwrap_or(zone::PLAY);
                    Trigger::When(When::Leaves)
                }
                _ => return Err(not_played(VOCAB.events[usize::from(t.event)].word.name)),
            }
        }
        ast::Head::Instead(t) => {
            if t.event != event::LEAVES || t.subject.is_some() || t.to != Some(zone::TRASH) {
                return Err(
                    "`instead` is played only as `instead leaves to trash` (this character) yet"
                        .into(),
                );
            }
            Trigger::Instead
        }
    };
    Ok((t, m))
}

/// The trigger of a `later` step: only `later leaves to trash` (this card goes to the Trash),
/// in a <Flip>, <Play> or <Play & Flip> text.
fn later_trigger(t: &ast::Trigger, head: Trigger) -> Result<(), Reason> {
    if t.event != event::LEAVES || t.subject.is_some() || t.to != Some(zone::TRASH) {
        return Err("`later` is played only as `later leaves to trash` yet".into());
    }
    if !matches!(head, Trigger::Play | Trigger::Flip | Trigger::PlayFlip) {
        return Err("`later` is played in a <Play> or <Flip> text only".into());
    }
    Ok(())
}

/// Every condition of a body.
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

/// Refuses condition words that cannot be answered where they stand.
fn check_cond_words(c: &ast::Cond, trigger: Trigger) -> Result<(), Reason> {
    match c {
        ast::Cond::Word(w, side) => {
            if *side != Side::Any {
                return Err(
                    format!("`{}` takes no player", VOCAB.conds[usize::from(*w)].name).into(),
                );
            }
            let ok = match *w {
                cond_word::COUNTER_STEP => {
                    matches!(trigger, Trigger::Play | Trigger::PlayFlip)
                }
                cond_word::FLIP_PHASE => matches!(trigger, Trigger::Flip | Trigger::PlayFlip),
                _ => true,
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "`{}` is about a card's <Play> or <Flip> text: not in this text",
                    VOCAB.conds[usize::from(*w)].name
                )
                .into())
            }
        }
        ast::Cond::Not(x) => check_cond_words(x, trigger),
        ast::Cond::And(v) | ast::Cond::Or(v) => {
            v.iter().try_for_each(|x| check_cond_words(x, trigger))
        }
        ast::Cond::Cmp(a, _, b) => {
            for v in [a, b] {
                if matches!(v, ast::Value::Stat(..)) {
                    return Err(not_played("a card's stat as a value"));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Refuses an effect in a text where it means nothing.
fn check_effect_place(e: &Effect, trigger: Trigger, ctype: CardType) -> Result<(), Reason> {
    match e {
        Effect::Prevent if trigger != Trigger::Instead => {
            Err("`prevent` is for an `instead` text".into())
        }
        Effect::Move(t, Dest::Bottom)
            if t.mode == TargetMode::This && ctype != CardType::Character =>
        {
            Err("`move self to deck bottom` is played for a Character yet".into())
        }
        _ => Ok(()),
    }
}

fn amount(v: &Option<ast::Value>, titles: &[String]) -> Result<Amount, Reason> {
    let v = v.as_ref().expect("the pattern reads an amount");
    let counted = |v: &ast::Value| -> Result<Counted, Reason> {
        Ok(match v {
            ast::Value::Count(c) => Counted::Cards(cond_set(c, titles)?),
            ast::Value::Quantity(k, s) => Counted::Quantity(*k, *s),
            ast::Value::X(s) => Counted::X(*s),
            _ => return Err(not_played("this counted amount")),
        })
    };
    Ok(match v {
        ast::Value::Num(n) => Amount::Num(*n),
        ast::Value::Per { each, of, max } => Amount::Per {
            each: *each,
            of: counted(of)?,
            max: *max,
        },
        ast::Value::Stat(..) => return Err(not_played("a card's stat as an amount")),
        v => Amount::Per {
            each: 1,
            of: counted(v)?,
            max: None,
        },
    })
}

fn fixed(v: &Option<ast::Value>) -> Result<i16, Reason> {
    match v {
        Some(ast::Value::Num(n)) => Ok(*n),
        Some(_) => Err("a counted amount is not played here by the TMNT engine yet".into()),
        None => unreachable!("the pattern reads an amount"),
    }
}

/// The title index `name` names, or why not.
fn title(name: &str, titles: &[String]) -> Result<u8, Reason> {
    let k = crate::core::input::norm(name);
    match titles.iter().position(|t| *t == k) {
        Some(i) => Ok(i as u8),
        None => {
            let hint = crate::core::lang::suggest::nearest(&k, titles)
                .map(|s| format!(" (did you mean '{s}'?)"))
                .unwrap_or_default();
            Err(format!(
                "name='{}': no card of the file has this title{hint}",
                crate::core::input::excerpt(name)
            )
            .into())
        }
    }
}

/// The filter of a card set: its noun's types and its filters. `in_play`: a face-up card on a
/// Block or Attack Zone (never an Item or an Event there).
fn filter(c: &ast::Cards, in_play: bool, titles: &[String]) -> Result<Filter, Reason> {
    let mut f = Filter::default();
    let mut types = |bits: u16, word: &str| -> Result<(), Reason> {
        if in_play && bits & 0b1100 != 0 {
            return Err(format!(
                "`{word}`: only a card in the Trash can be an {word} (a card in play is a face-up card on a Block or Attack Zone)"
            ).into());
        }
        f.types |= bits as u8;
        Ok(())
    };
    let noun = VOCAB.noun(c.noun);
    if noun.types != 0 {
        types(noun.types, noun.one)?;
    }
    let mut names = 0;
    for w in &c.filters {
        match w {
            ast::Filter::Noun(k) => {
                let n = VOCAB.noun(*k);
                types(n.types, n.one)?;
            }
            ast::Filter::Trait(t) => match ATTRIBUTES.iter().position(|a| a == t) {
                Some(k) => f.attrs |= 1 << k,
                None => {
                    return Err(format!(
                        "unknown attribute \"{t}\" (expected wind, forest, fire or mountain)"
                    )
                    .into())
                }
            },
            ast::Filter::Stat(_, op, n) => {
                if !(-99..=999).contains(n) {
                    return Err(format!("{n} is out of range -99..=999").into());
                }
                match op {
                    ast::Cmp::Le => f.power_max = Some(*n),
                    ast::Cmp::Ge => f.power_min = Some(*n),
                    _ => return Err("a stat filter is `<=` or `>=` in the TMNT engine".into()),
                }
            }
            ast::Filter::Other => f.other = true,
            ast::Filter::Flag(k, yes) => match *k {
                flag::FACE_UP | flag::FACE_DOWN => {
                    let up = (*k == flag::FACE_UP) == *yes;
                    f.face = if up { 1 } else { 2 };
                }
                flag::ATTACKING => f.attacking = Some(*yes),
                _ => {
                    let kind = match *k {
                        flag::COUNTER => Kind::Counter,
                        flag::FORCEFUL_COUNTER => Kind::ForcefulCounter,
                        flag::FORCEFUL => Kind::Forceful,
                        _ => unreachable!("the flags of the vocabulary"),
                    };
                    if *yes {
                        f.kinds |= 1 << kind as u8;
                    } else {
                        f.not_kinds |= 1 << kind as u8;
                    }
                }
            },
            ast::Filter::Name(n) => {
                if names == MAX_NAMES {
                    return Err(
                        format!("at most {MAX_NAMES} `name=` filters on one card set").into(),
                    );
                }
                f.titles[names] = title(n, titles)?;
                names += 1;
            }
            ast::Filter::Those => f.those = true,
            _ => return Err("this filter is not played by the TMNT engine yet".into()),
        }
    }
    Ok(f)
}

/// The zone of a card set: the one written, else `dflt`.
fn zone_of(c: &ast::Cards, dflt: u8) -> u8 {
    c.zone.unwrap_or(dflt)
}

/// A card set of a condition, an amount or a trigger's subject: a description (every card that
/// matches), or one card (`self`, `that`, a role) with filters.
fn cond_set(c: &ast::Cards, titles: &[String]) -> Result<Target, Reason> {
    let mode = match c.pick {
        ast::Pick::This => TargetMode::This,
        ast::Pick::That => TargetMode::That,
        ast::Pick::Each | ast::Pick::All => TargetMode::All,
        ast::Pick::Role(r) => TargetMode::Role(r),
        ast::Pick::Choose { .. } => {
            return Err("a chosen card in a condition is not played by the TMNT engine".into())
        }
    };
    let z = zone_of(c, zone::PLAY);
    Ok(Target {
        mode,
        side: c.side,
        filter: filter(c, false, titles)?,
        zone: z,
        min: 0,
        max: 0,
    })
}

/// A trigger's subject (no `name=` filters: a subject is checked for every card of its kind).
fn cond_set_subject(c: &ast::Cards) -> Result<Target, Reason> {
    cond_set(c, &[])
}

/// The set `power` acts on: face-up cards in play (on Block Zones, Block Zone 1 or in Attack
/// Zones), picked as `self`, `target`, `all`, `that` or a role.
fn target(c: &ast::Cards, titles: &[String]) -> Result<Target, Reason> {
    let mode = match c.pick {
        ast::Pick::This => TargetMode::This,
        ast::Pick::Choose { min: 1, max: 1 } => TargetMode::Choose,
        ast::Pick::All => TargetMode::All,
        ast::Pick::That => TargetMode::That,
        ast::Pick::Role(r) => TargetMode::Role(r),
        _ => return Err("this choice of cards is not played by the TMNT engine yet".into()),
    };
    let z = zone_of(c, zone::PLAY);
    if !matches!(
        z,
        zone::PLAY | zone::BLOCKS | zone::ZONE1 | zone::ATTACK_ZONE
    ) {
        return Err("a card in play is a face-up card on a Block or Attack Zone".into());
    }
    Ok(Target {
        mode,
        side: c.side,
        filter: filter(c, true, titles)?,
        zone: if z == zone::BLOCKS { zone::PLAY } else { z },
        min: 1,
        max: 1,
    })
}

/// The set a `move`, `peek`, `search` or `dig` picks from, with how many.
fn pick_set(c: &ast::Cards, dflt_zone: u8, titles: &[String]) -> Result<Target, Reason> {
    let (mode, min, max) = match c.pick {
        ast::Pick::This => (TargetMode::This, 1, 1),
        ast::Pick::Choose { min, max } => (TargetMode::Choose, min, max),
        ast::Pick::All => (TargetMode::All, 0, 0),
        _ => return Err("this choice of cards is not played by the TMNT engine yet".into()),
    };
    Ok(Target {
        mode,
        side: c.side,
        filter: filter(c, false, titles)?,
        zone: zone_of(c, dflt_zone),
        min,
        max,
    })
}

/// A `move`: its set and destination, or why it is not played.
fn compile_move(e: &ast::Effect, titles: &[String]) -> Result<Effect, Reason> {
    let c = e.cards.as_ref().expect("the pattern reads cards");
    let (to, pos) = e.to.expect("the pattern reads a destination");
    let salvage = c.pick == (ast::Pick::Choose { min: 1, max: 1 })
        && c.side == Side::Own
        && c.zone == Some(zone::TRASH)
        && (to, pos) == (zone::HAND, ast::Pos::Default);
    if salvage {
        let f = filter(c, false, titles)?;
        if !f.those && f.face == 0 && f.attacking.is_none() && !f.other {
            return Ok(Effect::Salvage(f));
        }
    }
    let t = pick_set(c, zone::PLAY, titles)?;
    let dest = match (to, pos) {
        (zone::HAND, ast::Pos::Default) => Dest::Hand,
        (zone::TRASH, ast::Pos::Default) => Dest::Trash,
        (zone::DECK, ast::Pos::Bottom) => Dest::Bottom,
        (zone::DECK, ast::Pos::Top | ast::Pos::Default) => Dest::Top,
        (zone::ZONE1, ast::Pos::Word(_)) => Dest::Zone1Up,
        _ => return Err("this destination of `move` is not played by the TMNT engine yet".into()),
    };
    let from = t.zone;
    let ok = match (t.mode, from, dest) {
        (TargetMode::This, zone::ITEMS | zone::PLAY, Dest::Trash) => true,
        (TargetMode::This, zone::PLAY | zone::BLOCKS, Dest::Bottom) => true,
        (TargetMode::Choose, zone::TRASH, Dest::Hand | Dest::Bottom | Dest::Top) => true,
        (TargetMode::Choose, zone::TRASH | zone::HAND, Dest::Zone1Up) => t.side == Side::Own,
        (TargetMode::Choose, zone::HAND, Dest::Bottom | Dest::Top) => t.side == Side::Own,
        (TargetMode::Choose, zone::HAND, Dest::Trash) => true,
        (TargetMode::Choose, zone::ITEMS | zone::ATTACK_ZONE, Dest::Trash) => true,
        _ => false,
    };
    if !ok {
        return Err(
            "this `move` is not played by the TMNT engine yet (played: `self` to trash or to deck bottom; a chosen card from the Trash to hand, deck or zone1 face_up; from a hand to deck, trash or zone1 face_up; from an Item or Attack Zone to trash)"
                .into(),
        );
    }
    if t.mode == TargetMode::This && t.filter != Filter::default() {
        return Err("`self` with filters is not played in `move` yet".into());
    }
    if t.side == Side::Any && t.mode == TargetMode::Choose {
        return Err("`move` names whose cards: `own` or `enemy`".into());
    }
    Ok(Effect::Move(t, dest))
}

/// The classes a `ban` description names (bits of [`super::cards::class_of`]).
fn ban_classes(c: &ast::Cards, titles: &[String]) -> Result<u8, Reason> {
    let f = filter(c, false, titles)?;
    let rest = Filter {
        types: 0,
        kinds: 0,
        not_kinds: 0,
        ..f
    };
    if rest != Filter::default() || c.zone.is_some() {
        return Err("`ban` names kinds of cards only (`attacks counter`, `events`, …) in the TMNT engine yet".into());
    }
    let kinds = [
        (CardType::Attack, Kind::Normal),
        (CardType::Attack, Kind::Forceful),
        (CardType::Attack, Kind::Counter),
        (CardType::Attack, Kind::ForcefulCounter),
        (CardType::Event, Kind::Play),
        (CardType::Item, Kind::None),
    ];
    let mut m = 0;
    for (k, (t, kind)) in kinds.iter().enumerate() {
        let bit = 1u8 << *kind as u8;
        let type_ok = f.types == 0 || f.types & (1 << *t as u8) != 0;
        let kind_ok = (f.kinds == 0 || f.kinds & bit != 0) && f.not_kinds & bit == 0;
        if type_ok && kind_ok && *t != CardType::Character {
            m |= 1 << k;
        }
    }
    if m == 0 {
        return Err("`ban` names no card a player places".into());
    }
    Ok(m)
}

fn compile_effect(e: &ast::Effect, titles: &[String]) -> Result<Effect, Reason> {
    let side = || e.side.expect("the pattern reads a side") == Side::Enemy;
    let cards = || e.cards.as_ref().expect("the pattern reads cards");
    Ok(match e.verb {
        v::DRAW if e.side == Some(Side::Enemy) => return Err(not_played("draw enemy")),
        v::DRAW => Effect::Draw(amount(&e.n, titles)?),
        v::DRAW_TO => Effect::DrawTo(fixed(&e.n)? as u8),
        v::MILL => Effect::Trash {
            enemy: side(),
            n: amount(&e.n, titles)?,
        },
        v::DISCARD => Effect::Discard {
            enemy: side(),
            n: fixed(&e.n)? as u8,
        },
        v::MOVE => compile_move(e, titles)?,
        // M-DUR-1: `phase` and `turn` end together, at the end of the turn's Attack phase.
        v::POWER => Effect::Power(target(cards(), titles)?, amount(&e.n, titles)?),
        v::BONUS => Effect::Bonus(fixed(&e.n)?),
        v::LOOK => {
            if e.to.map(|(z, _)| z) != Some(zone::HAND) {
                return Err("`look` is played for a hand (`look enemy hand`) yet".into());
            }
            Effect::Look { enemy: side() }
        }
        v::PEEK => {
            let t = pick_set(cards(), zone::PLAY, titles)?;
            if t.zone != zone::BLOCKS || t.filter.face != 2 || t.side != Side::Enemy {
                return Err(
                    "`peek` is played for face-down Block cards of the opponent (`peek target enemy card face_down in blocks`) yet"
                        .into(),
                );
            }
            if t.mode == TargetMode::Choose && (t.min, t.max) != (1, 1) {
                return Err("`peek` picks `target` or `all` cards".into());
            }
            Effect::Peek(t)
        }
        v::SEARCH | v::DIG => {
            let t = pick_set(cards(), zone::DECK, titles)?;
            let ok = t.mode == TargetMode::Choose
                && (t.min, t.max) == (1, 1)
                && t.side == Side::Own
                && t.zone == zone::DECK
                && e.to == Some((zone::HAND, ast::Pos::Default));
            if !ok {
                return Err(format!(
                    "`{}` is played as `{} target own CARD to hand` yet",
                    VOCAB.verb(false, e.verb).name,
                    if e.verb == v::DIG { "dig N" } else { "search" }
                )
                .into());
            }
            if e.verb == v::DIG {
                Effect::Dig(fixed(&e.n)? as u8, t)
            } else {
                Effect::Search(t)
            }
        }
        v::ARRANGE => Effect::Arrange(fixed(&e.n)? as u8),
        v::BAN => {
            if e.dur.is_none() {
                return Err(
                    "`ban` needs a duration (`phase` or `turn`) in a text that resolves".into(),
                );
            }
            Effect::Ban {
                enemy: side(),
                classes: ban_classes(cards(), titles)?,
            }
        }
        v::PREVENT => Effect::Prevent,
        v::REDUCE => Effect::Reduce(fixed(&e.n)? as u8),
        v::EXCESS_CAP => Effect::ExcessCap(fixed(&e.n)? as u8),
        v::EXCESS_EXTRA => Effect::ExcessExtra(fixed(&e.n)? as u8),
        v::KEEP_ANYWAY => Effect::KeepAnyway,
        v::FREE_ITEM => Effect::FreeItem,
        k => return Err(not_played(VOCAB.verb(false, k).name)),
    })
}

fn compile_static(e: &ast::Effect, ctype: CardType, titles: &[String]) -> Result<Effect, Reason> {
    let cards = || e.cards.as_ref().expect("the pattern reads cards");
    match e.verb {
        st::POWER => {
            let t = target(cards(), titles)?;
            let n = fixed(&e.n)?;
            let ok = match ctype {
                CardType::Item => t.mode == TargetMode::All && t.side == Side::Own,
                _ => t.mode == TargetMode::This,
            };
            if !ok || !matches!(t.zone, zone::PLAY | zone::ZONE1) {
                return Err(
                    "a static `power` is `power all own cards [FILTERS] [in zone1] ±N` on an Item, `power self ±N` on a Character"
                        .into(),
                );
            }
            Ok(Effect::Power(t, Amount::Num(n)))
        }
        st::ALSO_TITLED => {
            let c = cards();
            let by = e.by.as_ref().expect("the pattern reads a description");
            if ctype != CardType::Character || c.pick != ast::Pick::This {
                return Err("`also_titled` is played as `also_titled self as characters name=…` on a Character".into());
            }
            let f = filter(by, false, titles)?;
            let rest = Filter {
                types: 0,
                titles: [NO_TITLE; MAX_NAMES],
                ..f
            };
            if !f.has_titles()
                || rest != Filter::default()
                || f.types & !(1 << CardType::Character as u8) != 0
            {
                return Err("`also_titled self as characters name='…' …`: titles only".into());
            }
            Ok(Effect::AlsoTitled(f.titles))
        }
        st::ITEM_ANY_ATTRIBUTE if ctype == CardType::Item => Ok(Effect::ItemAnyAttribute),
        st::ITEM_ANY_ATTRIBUTE => Err("`item_any_attribute` is an Item's static".into()),
        k => Err(not_played(VOCAB.verb(true, k).name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Effect, Reason> {
        effects(&format!("play: {text}"), CardType::Event).map(|a| a[0].effects[0])
    }

    #[test]
    fn effects_parse_with_their_words() {
        assert_eq!(one("draw 2"), Ok(Effect::Draw(Amount::Num(2))));
        assert_eq!(
            one("trash enemy 3"),
            Ok(Effect::Trash {
                enemy: true,
                n: Amount::Num(3)
            })
        );
        assert_eq!(
            one("mill enemy 3"),
            Ok(Effect::Trash {
                enemy: true,
                n: Amount::Num(3)
            })
        );
        let Ok(Effect::Power(t, Amount::Num(2))) = one("power +2 target enemy card fire power<=3")
        else {
            panic!()
        };
        assert_eq!((t.mode, t.side), (TargetMode::Choose, Side::Enemy));
        assert_eq!(t.filter.attrs, 1 << 2);
        assert_eq!(t.filter.power_max, Some(3));
        assert_eq!(
            one("power target enemy card attr=fire power<=3 +2"),
            Ok(Effect::Power(t, Amount::Num(2)))
        );
        assert!(one("power +2 all own cards item").is_err());
        assert!(one("salvage item").is_ok());
        assert_eq!(
            one("salvage attack"),
            one("move target own attack in trash to hand")
        );
        assert!(one("draw 9").unwrap_err().contains("out of range"));
        assert!(one("trash 2").is_err());
    }

    #[test]
    fn triggers_are_checked_against_the_card_type() {
        assert!(effects("static: power +1 all own cards", CardType::Item).is_ok());
        assert!(effects("static: draw 1", CardType::Item).is_err());
        assert!(effects("flip: draw 1", CardType::Item).is_err());
        assert!(effects("when attack: draw 1", CardType::Attack).is_err());
        assert!(effects("play: draw 1 | flip: draw 1", CardType::Event).is_err());
        assert!(effects("", CardType::Event).is_err());
        assert!(effects("when attack: draw 1 | when result: draw 1", CardType::Item).is_err());
        let a = effects("play_flip: trash enemy 1", CardType::Event).unwrap();
        assert_eq!(a[0].trigger, Trigger::PlayFlip);
        let a = effects("when defend: draw 1", CardType::Item).unwrap();
        assert_eq!(a[0].trigger, Trigger::When(When::Defend));
        // The card language's heads.
        let a = effects("attack: draw 1", CardType::Character).unwrap();
        assert_eq!(a[0].trigger, Trigger::When(When::Attacks));
        assert!(effects("attack: draw 1", CardType::Item).is_err());
        let a = effects("anytime[trash_self]: reduce 2", CardType::Item).unwrap();
        assert_eq!(a[0].trigger, Trigger::Anytime);
        assert!(a[0].trash_self);
        assert!(effects("anytime: reduce 2", CardType::Item)
            .unwrap_err()
            .contains("needs a cost"));
        assert!(effects("play[once]: draw 1", CardType::Event).is_err());
        let a = effects("start own forward: draw 1", CardType::Item).unwrap();
        assert!(effects("start own event: draw 1", CardType::Item).is_err());
        assert_eq!(a[0].trigger, Trigger::When(When::Start));
        assert_eq!(a[0].moment.phase, phase::FORWARD);
        assert!(effects(
            "instead leaves to trash: may move self to deck bottom then prevent",
            CardType::Character
        )
        .is_ok());
        assert!(effects("play: prevent", CardType::Event).is_err());
    }

    #[test]
    fn names_are_titles_of_the_file() {
        let titles = vec!["kazan".to_string(), "clan ninja".to_string()];
        let a = effects_in(
            "play: power self +1 per own characters name='Clan Ninja' in trash max 2",
            CardType::Attack,
            &titles,
        )
        .unwrap();
        let Effect::Power(_, Amount::Per { of, max, .. }) = a[0].effects[0] else {
            panic!()
        };
        assert_eq!(max, Some(2));
        let Counted::Cards(t) = of else { panic!() };
        assert_eq!(t.filter.titles[0], 1);
        assert_eq!(t.zone, zone::TRASH);
        let e = effects_in(
            "play: power self +1 per own characters name='Clan Ninjas' in trash",
            CardType::Attack,
            &titles,
        )
        .unwrap_err();
        assert!(
            e.contains("no card of the file") && e.contains("clan ninja"),
            "{e}"
        );
    }

    #[test]
    fn old_spellings_read_as_the_canonical_ones() {
        let old =
            "when trash: salvage attack power<=3 | static: power +2 all own cards fire character";
        let tree = lang::parse(&VOCAB, old).unwrap();
        let text = canonical(&tree);
        assert_eq!(
            text,
            "milled own: move target own attack power<=3 in trash to hand | static: power all own characters attr=fire +2"
        );
        assert_eq!(lang::parse(&VOCAB, &text).unwrap(), tree);
    }
}
