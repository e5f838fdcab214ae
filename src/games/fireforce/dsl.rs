//! The Fire Force words of the card language (`docs/cards.md`, "Fire Force TCG"): the vocabulary
//! the shared grammar (`crate::core::lang`) reads a Fire Force effect cell and Life trigger with,
//! and the compile step from its tree into the types of [`super::cards`] the engine plays.

use super::cards::{
    Ability, AbilityCost, Amount, Cant, CardDb, CardType, Cond, Dest, Effect, Filter, Keywords,
    Mode, Op, Program, Scope, Static, Target, Trigger, Until, Value, Zone, MAX_ABILITIES,
    MAX_ACTIVATED, MAX_EFFECTS,
};
use crate::core::ids::ids;
use crate::core::lang::vocab::{
    legacy, verb, w, wa, CostArg, CostWord, EventWord, HeadKind, HeadWord, Noun, Slot, Vocab,
};
use crate::core::lang::Side;
use crate::core::lang::{self, ast, program};
use crate::core::Reason;

ids! {
    /// Head ids.
    mod head {
        MAIN, REACTION, ACTIVE, STATIC, LIFE,
    }
}

ids! {
    /// Event ids.
    #[allow(dead_code)]
    mod event {
        ENTER, REMOVED, ATTACK, BLOCK, BATTLE_END, END, START, PLAYED, PUT,
    }
}

ids! {
    /// Phase ids.
    #[allow(dead_code)]
    mod phase {
        TURN, PREPARATION, MAIN, BATTLE,
    }
}

ids! {
    /// Verb ids.
    #[allow(dead_code)]
    mod v {
        DRAW, REMOVE, EXHAUST, READY, BOUNCE, POWER, GIVE, FLAME, LIFE, MILL, DRAW_TO, MOVE,
        DISCARD, SEARCH, DIG, LOOK, GRANT, CANT, BAN, REDIRECT, NAME_CARD, END_BATTLE, PREVENT,
        PICK, DISPATCH, GUARD_LIFE,
    }
}

ids! {
    #[allow(dead_code)]
    mod st {
        POWER, GRANT, CANT, BAN, COST,
    }
}

ids! {
    #[allow(dead_code)]
    mod cost {
        EXHAUST, FLAME, DISCARD,
    }
}

ids! {
    /// Prohibition ids (the `prohibitions` table).
    mod prohibit {
        ATTACK_PLAYER, BE_BLOCKED, BE_CHOSEN, BE_READIED,
    }
}

pub(crate) mod stat {
    pub const POWER: u8 = 0;
    pub const COST: u8 = 1;
}

ids! {
    /// Zone ids.
    #[allow(dead_code)]
    mod zone {
        SCENE, HAND, DECK, LIFE, ADOLLA, FLAME_DECK,
    }
}

ids! {
    /// Quantity ids (`hand own`, `life enemy`).
    pub(crate) mod quantity {
        HAND, DECK, LIFE, ADOLLA,
    }
}

ids! {
    /// Condition words.
    pub(crate) mod cond_word {
        OWN_TURN, PREPARATION, PLAYER_ATTACKED,
    }
}

ids! {
    #[allow(dead_code)]
    mod flag {
        READY, EXHAUSTED, FLAME, GIVEN, REACTION, ATTACKING, ATTACKED, FIRST,
    }
}

ids! {
    #[allow(dead_code)]
    pub(crate) mod role {
        ATTACKER, ATTACKED, BEARER,
    }
}

ids! {
    /// Durations.
    #[allow(dead_code)]
    mod dur {
        BATTLE, TURN, NEXT_TURN, OWN_NEXT_TURN,
    }
}

fn keep(_: &mut ast::Effect) {}

const UNITS: &[Slot] = &[Slot::Cards];

/// The Fire Force vocabulary of the shared grammar.
pub static VOCAB: Vocab = Vocab {
    game: "fireforce",
    heads: &[
        HeadWord {
            word: w("main", ""),
            kind: HeadKind::Play,
        },
        HeadWord {
            word: w("reaction", "reaction"),
            kind: HeadKind::Act,
        },
        HeadWord {
            word: w("active", "active"),
            kind: HeadKind::Act,
        },
        HeadWord {
            word: w("static", ""),
            kind: HeadKind::Static,
        },
        HeadWord {
            word: w("life", "life trigger"),
            kind: HeadKind::Play,
        },
    ],
    events: &[
        EventWord::new(
            wa("enter", &["dispatched"], ""),
            "when this unit is dispatched",
            "when {} is dispatched",
        )
        .subject(),
        EventWord::new(w("removed", ""), "when this unit is removed", "when {} is removed").subject(),
        EventWord::new(wa("attack", &["attacking"], ""), "when this unit attacks", "when {} attacks")
            .subject(),
        EventWord::new(wa("block", &["blocking"], ""), "when this unit blocks", "when {} blocks")
            .subject(),
        EventWord::new(
            w("battle_end", ""),
            "at the end of a battle this unit was in, if it is still on the Scene",
            "at the end of a battle {} was in",
        ),
        EventWord::new(w("end", ""), "at the end of the turn", "at the end of {}").phase(),
        EventWord::new(w("start", ""), "at the start of the turn", "at the start of {}").phase(),
        EventWord::new(w("played", ""), "when this card is played", "when {} is played").subject(),
        EventWord::new(w("put", ""), "when this card is put", "when {} is put").subject().to(),
    ],
    phases: &[
        w("turn", "turn"),
        w("preparation", "Preparation phase"),
        w("main", "Main phase"),
        w("battle", "battle"),
    ],
    zones: &[
        w("scene", "Scene"),
        w("hand", "hand"),
        w("deck", "deck"),
        w("life", "Life area"),
        w("adolla", "THE ADOLLA"),
        w("flame_deck", "Flame deck"),
    ],
    placements: &[w("exhausted", "exhausted")],
    resources: &[],
    nouns: &[
        Noun {
            one: "unit",
            many: "units",
            types: 1,
            en_one: "unit",
            en_many: "units",
        },
        Noun {
            one: "event",
            many: "events",
            types: 2,
            en_one: "Event",
            en_many: "Events",
        },
        Noun {
            one: "flame",
            many: "flames",
            types: 4,
            en_one: "Flame card",
            en_many: "Flame cards",
        },
        Noun {
            one: "card",
            many: "cards",
            types: 0,
            en_one: "card",
            en_many: "cards",
        },
    ],
    stats: &[w("power", "power"), w("cost", "cost"), w("support", "support power")],
    flags: &[
        w("ready", "ready"),
        w("exhausted", "exhausted"),
        w("flame", "with Flame"),
        w("given", "given-a-Flame-card"),
        w("reaction", "Reaction"),
        w("attacking", "attacking"),
        w("attacked", "attacked"),
        w("first", "first|each turn"),
    ],
    keywords: &[
        w("blitz", "Blitz"),
        w("blocker", "Blocker"),
        w("pray", "Pray"),
        w("adolla_link", "Adolla Link"),
    ],
    keyword_keys: &["has"],
    trait_key: "attr",
    bare_traits: &[],
    bare_nouns: false,
    quantities: &[
        w("hand", "the number of cards in {p} hand"),
        w("deck", "the number of cards in {p} deck"),
        w("life", "the number of {p} Life cards"),
        w("adolla", "the number of cards in {p} THE ADOLLA"),
    ],
    conds: &[
        w("own_turn", "it is your turn"),
        w("preparation", "it is {ps} Preparation phase"),
        w("player_attacked", "{p} are the target of the attack"),
    ],
    durations: &[
        w("battle", "during this battle"),
        w("turn", "until end of turn"),
        w("next_turn", "until the end of the next turn"),
        w("own_next_turn", "until the end of your next turn"),
    ],
    costs: &[
        CostWord {
            word: w("exhaust", "exhaust this unit"),
            arg: CostArg::None,
            bare_number: false,
        },
        CostWord {
            word: w("flame", "{n} Flame"),
            arg: CostArg::Num(0, 10),
            bare_number: true,
        },
        CostWord {
            word: w("discard", "put {n} card(s) from your hand into THE ADOLLA"),
            arg: CostArg::Num(1, 5),
            bare_number: false,
        },
    ],
    verbs: &[
        verb("draw", v::DRAW, &[Slot::OptSide, Slot::N(1, 5)], "{side} draw{v} {n} card{s}"),
        verb("draw_to", v::DRAW_TO, &[Slot::N(1, 10)], "draw cards until you have {n} in your hand"),
        verb("remove", v::REMOVE, UNITS, "remove {cards}"),
        verb("exhaust", v::EXHAUST, UNITS, "exhaust {cards}"),
        verb("ready", v::READY, UNITS, "ready {cards}"),
        verb("bounce", v::BOUNCE, UNITS, "return {cards} to its owner's hand"),
        verb(
            "power",
            v::POWER,
            &[Slot::Cards, Slot::Signed(-20000, 20000), Slot::Dur],
            "{cards} get{v} {n} power{dur:until end of turn}",
        ),
        verb(
            "give",
            v::GIVE,
            UNITS,
            "give 1 exhausted Flame card from your Flame deck to {cards}",
        ),
        verb(
            "flame",
            v::FLAME,
            &[Slot::N(1, 5)],
            "put {n} Flame card{s} from your Flame deck onto your Scene, exhausted",
        ),
        verb(
            "life",
            v::LIFE,
            &[Slot::N(1, 5)],
            "put the top {n} card{s} of your deck face down on top of your Life area",
        ),
        verb(
            "mill",
            v::MILL,
            &[Slot::Side, Slot::N(1, 10)],
            "{side} put{v} the top {n} card{s} of {sides} deck into THE ADOLLA",
        ),
        legacy("mill", v::MILL, &[Slot::SideOr(Side::Enemy), Slot::N(1, 10)], keep),
        verb("move", v::MOVE, &[Slot::Cards, Slot::To], "put {cards} {to}"),
        verb(
            "discard",
            v::DISCARD,
            &[Slot::OptSide, Slot::N(1, 5)],
            "{side} put{v} {n} card{s} of their choice from their hand into THE ADOLLA",
        ),
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
            "look at the top {n} cards of your deck, put {cards} among them {to}, and the rest on the bottom of your deck in any order",
        ),
        verb("look", v::LOOK, &[Slot::Side, Slot::Zone], "look at {sides} {zone}"),
        verb(
            "grant",
            v::GRANT,
            &[Slot::Cards, Slot::Keyword, Slot::Dur],
            "{cards} gain{v} {word}{dur:until end of turn}",
        ),
        verb(
            "cant",
            v::CANT,
            &[Slot::Cards, Slot::Prohibition, Slot::By, Slot::Dur],
            "{cards} can't {word}{by}{dur}",
        ),
        verb("ban", v::BAN, &[Slot::Side, Slot::Description, Slot::Dur], "{side} can't play {cards}{dur}"),
        verb("redirect", v::REDIRECT, UNITS, "{cards} becomes the new target of this attack"),
        verb("name_card", v::NAME_CARD, &[], "name a card"),
        verb("end_battle", v::END_BATTLE, &[], "this battle goes straight to its end"),
        verb("prevent", v::PREVENT, &[], "that does not happen"),
        verb("pick", v::PICK, UNITS, "choose {cards}"),
        verb("dispatch", v::DISPATCH, UNITS, "dispatch {cards} without paying its cost"),
        verb(
            "guard_life",
            v::GUARD_LIFE,
            &[Slot::Dur],
            "none of your Life cards is revealed and this attack can't make you lose{dur}",
        ),
    ],
    statics: &[
        verb(
            "power",
            st::POWER,
            &[Slot::Cards, Slot::Signed(-20000, 20000)],
            "{cards} get{v} {n} power",
        ),
        verb("grant", st::GRANT, &[Slot::Cards, Slot::Keyword], "{cards} {has} {word}"),
        verb(
            "cant",
            st::CANT,
            &[Slot::Cards, Slot::Prohibition, Slot::By],
            "{cards} can't {word}{by}",
        ),
        verb("ban", st::BAN, &[Slot::Side, Slot::Description], "{side} can't play {cards}"),
        verb("cost", st::COST, &[Slot::Cards, Slot::Signed(-10, 10)], "{cards} cost{v} {less}"),
        // The first spelling: `own units [FILTERS] +N`.
        legacy("", st::POWER, &[Slot::AllCards, Slot::Signed(-20000, 20000)], keep),
    ],
    prohibitions: &[
        w("attack_player", "attack your opponent"),
        w("be_blocked", "be blocked"),
        w("be_chosen", "be chosen by your opponent's effects"),
        w("be_readied", "become ready in its owner's Preparation phase"),
    ],
    roles: &[
        w("attacker", "the attacking unit"),
        w("attacked", "the attacked unit"),
        w("bearer", "the unit this Flame card is given to"),
    ],
    head_aliases: &[("turn_end", "end own turn")],
};

/// The reason a word the language knows is refused: this engine does not play it yet.
fn not_played(word: &str) -> Reason {
    Reason(format!(
        "`{word}` is not played by the Fire Force engine yet"
    ))
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

/// The effect cell of a card of type `ctype`: its abilities and statics.
pub fn effects(
    db: &mut CardDb,
    text: &str,
    ctype: CardType,
) -> Result<(Vec<Ability>, Vec<Static>, Cant), Reason> {
    let tree = lang::parse(&VOCAB, text).map_err(|e| e.to_string())?;
    if tree.len() > MAX_ABILITIES {
        return Err(format!("at most {MAX_ABILITIES} abilities").into());
    }
    let mut abilities = Vec::new();
    let mut statics = Vec::new();
    let mut cant = Cant::default();
    let mut onces = 0;
    for (k, a) in tree.iter().enumerate() {
        let ctx = |m: Reason| Reason(format!("ability {}: {m}", k + 1));
        let mut head_subject = None;
        let mut head_side = Side::Own;
        if a.effects().len() > MAX_EFFECTS {
            return Err(ctx(format!("at most {MAX_EFFECTS} effects").into()));
        }
        let trigger = match &a.head {
            ast::Head::Word(head::STATIC) => {
                if ctype == CardType::Event {
                    return Err(ctx("an EVENT has no static ability".into()));
                }
                let cond = match &a.cond {
                    Some(c) => Some(cond(db, c).map_err(ctx)?),
                    None => None,
                };
                for s in &a.body {
                    let ast::Stmt::Do(e) = s else {
                        unreachable!("the parser allows only effects in a static")
                    };
                    if e.verb == st::COST {
                        cant.costs
                            .push(compile_cost(db, e, ctype, cond.clone()).map_err(ctx)?);
                        continue;
                    }
                    if e.verb == st::CANT {
                        if cond.is_some() {
                            return Err(ctx(
                                "a prohibition with a condition (`static if …: cant …`) is not played by the Fire Force engine yet".into(),
                            ));
                        }
                        compile_cant(db, e, ctype, &mut cant).map_err(ctx)?;
                        continue;
                    }
                    statics.push(compile_static(db, e, ctype, cond.clone()).map_err(ctx)?);
                }
                continue;
            }
            ast::Head::Word(head::MAIN) => Trigger::Main,
            ast::Head::Word(head::REACTION) => Trigger::Reaction,
            ast::Head::Word(head::ACTIVE) => Trigger::Active,
            ast::Head::Word(head::LIFE) => {
                return Err(ctx(
                    "`life:` is the trigger column's (the Life trigger)".into()
                ))
            }
            ast::Head::On(t) => {
                let (trigger, subject, side) = head_trigger(db, t, ctype).map_err(ctx)?;
                head_subject = subject;
                head_side = side;
                trigger
            }
            // Decision F-EFF-13.
            ast::Head::Instead(t) => {
                let about_self = t
                    .subject
                    .as_ref()
                    .is_none_or(|c| c.pick == ast::Pick::This && c.filters.is_empty());
                if ctype != CardType::Unit
                    || t.event != event::REMOVED
                    || !about_self
                    || t.by.is_some()
                {
                    return Err(ctx(
                        "the Fire Force engine plays `instead removed self: …` (a UNIT's)".into(),
                    ));
                }
                Trigger::Instead
            }
            ast::Head::Word(h) => return Err(ctx(not_played(VOCAB.head(*h).word.name))),
        };
        let allowed = match ctype {
            CardType::Unit => !matches!(trigger, Trigger::Main),
            CardType::Event => matches!(trigger, Trigger::Main | Trigger::Reaction),
            CardType::Flame => trigger == Trigger::Put && head_subject.is_none(),
        };
        if !allowed {
            return Err(ctx(match ctype {
                CardType::Unit => "a UNIT has no `main` ability (that is an EVENT's)".into(),
                CardType::Event => {
                    "an EVENT has exactly one ability, `main:` or `reaction:`".into()
                }
                CardType::Flame => {
                    "a FLAME card has `static` abilities and `put to scene` (when it is put onto the Scene)".into()
                }
            }));
        }
        if trigger == Trigger::Put && head_subject.is_none() && ctype != CardType::Flame {
            return Err(ctx(
                "`put to scene` about the card itself is a FLAME card's (a UNIT is dispatched: `enter`)".into(),
            ));
        }
        let activated =
            matches!(trigger, Trigger::Active | Trigger::Reaction) && ctype == CardType::Unit;
        let mut c = AbilityCost {
            once: a.once,
            ..AbilityCost::default()
        };
        for part in &a.costs {
            match part.word {
                cost::EXHAUST => c.exhaust = true,
                cost::FLAME => c.flame = part.n.unwrap_or(0) as u8,
                k => return Err(ctx(not_played(VOCAB.costs[k as usize].word.name))),
            }
        }
        let head_word = match a.head {
            ast::Head::Word(h) => VOCAB.head(h).word.name,
            _ => "",
        };
        if activated {
            if a.costs.is_empty() && !a.once {
                return Err(ctx(format!(
                    "`{head_word}` needs a cost in brackets, e.g. `{head_word}[exhaust, 1]`"
                )
                .into()));
            }
            // Decision F-KW-ONCE-2: a cost that can be paid again and again would let a
            // player repeat an ability forever; every activated ability costs something.
            if !c.exhaust && !c.once && c.flame == 0 {
                return Err(ctx(
                    "an activated ability costs `exhaust`, Flame (1 or more) or `once`".into(),
                ));
            }
        } else if !a.costs.is_empty() || (a.once && ctype != CardType::Unit) {
            return Err(ctx(
                "only a UNIT's `active` and `reaction` abilities have a cost in brackets (an EVENT's is its cost column)".into(),
            ));
        }
        if a.once {
            // Decision F-KW-ONCE-3: one mark a card.
            onces += 1;
            if onces > 1 {
                return Err(ctx(
                    "a card has at most one `[once]` ability (decision F-KW-ONCE-3)".into(),
                ));
            }
        }
        let head_cond = match &a.cond {
            Some(x) => Some(cond(db, x).map_err(ctx)?),
            None => None,
        };
        let mut ab = body(db, trigger, &a.body).map_err(ctx)?;
        let prevents = ab
            .program
            .ops
            .iter()
            .any(|o| matches!(o, Op::Do(Effect::Prevent)));
        if trigger == Trigger::Instead {
            // Decision F-EFF-13: `prevent` jumps past the removal, the text's last step.
            for o in &mut ab.program.ops {
                if matches!(o, Op::Do(Effect::Prevent)) {
                    *o = Op::Jump(u8::MAX);
                }
            }
            ab.program.ops.push(Op::Do(Effect::Removal));
            if ab.program.ops.len() >= usize::from(u8::MAX) {
                return Err(ctx("an `instead` text of too many steps".into()));
            }
            ab.effects = ab.program.effects().copied().collect();
        } else if prevents {
            return Err(ctx("`prevent` belongs to an `instead` text".into()));
        }
        ab.cost = c;
        ab.cond = head_cond;
        ab.subject = head_subject;
        ab.side = head_side;
        abilities.push(ab);
    }
    if ctype == CardType::Event && abilities.len() != 1 {
        return Err("an EVENT has exactly one ability, `main:` or `reaction:`".into());
    }
    let activated = abilities
        .iter()
        .filter(|a| matches!(a.trigger, Trigger::Active | Trigger::Reaction))
        .count();
    if ctype == CardType::Unit && activated > MAX_ACTIVATED {
        return Err(
            format!("at most {MAX_ACTIVATED} `active`/`reaction` abilities on a UNIT").into(),
        );
    }
    Ok((abilities, statics, cant))
}

/// A triggered ability's event: its trigger, the subject of an event about another card, and
/// whose phase a phase event waits for.
fn head_trigger(
    db: &mut CardDb,
    t: &ast::Trigger,
    ctype: CardType,
) -> Result<(Trigger, Option<Target>, Side), Reason> {
    if t.by.is_some() {
        return Err("`by …` in a trigger is not played by the Fire Force engine yet".into());
    }
    let subject = match &t.subject {
        Some(c) => {
            let x = target(db, c)?;
            if x.mode != Mode::Each || x.zone != Zone::Scene {
                return Err("a trigger's subject is a description of cards on the Scene (`own unit attr=…`)".into());
            }
            Some(x)
        }
        None => None,
    };
    let kinds = subject.map_or(0, |x| x.filter.types);
    Ok(match (t.event, t.phase, subject) {
        (event::ENTER, _, None) => (Trigger::Dispatched, None, Side::Own),
        (event::REMOVED, _, None) => (Trigger::Removed, None, Side::Own),
        (event::REMOVED, _, Some(x)) if kinds == CardType::UNIT_BIT => {
            (Trigger::OtherRemoved, Some(x), Side::Own)
        }
        (event::ATTACK, _, None) => (Trigger::Attacking, None, Side::Own),
        (event::BLOCK, _, None) => (Trigger::Blocking, None, Side::Own),
        (event::BATTLE_END, _, None) => (Trigger::BattleEnd, None, Side::Own),
        (event::END, Some(phase::TURN), None) if t.side == Side::Own => {
            (Trigger::TurnEnd, None, Side::Own)
        }
        (event::START, Some(phase::MAIN), None) if t.side != Side::Any => {
            (Trigger::StartMain, None, t.side)
        }
        (event::PLAYED, _, Some(x)) if kinds == CardType::EVENT_BIT => {
            (Trigger::Played, Some(x), Side::Own)
        }
        (event::PUT, _, None) if t.to == Some(zone::SCENE) && ctype == CardType::Flame => {
            (Trigger::Put, None, Side::Own)
        }
        (event::PUT, _, Some(x)) if t.to == Some(zone::SCENE) && kinds == CardType::FLAME_BIT => {
            (Trigger::Put, Some(x), Side::Own)
        }
        (event::END, _, _) => {
            return Err("only `end own turn` is played by the Fire Force engine yet".into())
        }
        (event::START, _, _) => {
            return Err(
                "only `start own main` and `start enemy main` are played by the Fire Force engine yet"
                    .into(),
            )
        }
        (event::REMOVED | event::PLAYED | event::PUT, _, _) => {
            return Err(
                "the Fire Force engine plays `removed UNITS`, `played EVENTS` and `put FLAMES to scene` (or a Flame card's own `put to scene`)"
                    .into(),
            )
        }
        (e, _, Some(_)) => {
            return Err(format!(
                "`{}` about another card is not played by the Fire Force engine yet",
                VOCAB.events[e as usize].word.name
            ).into())
        }
        (e, _, None) => return Err(not_played(VOCAB.events[e as usize].word.name)),
    })
}

/// The trigger cell (the Life trigger, F-BAT-8): a body only.
pub fn life_trigger(db: &mut CardDb, text: &str) -> Result<Box<Ability>, Reason> {
    let tree = lang::parse(&VOCAB, &format!("life: {text}")).map_err(|e| {
        // The offset is the cell's, not the prefixed text's.
        let mut e = e;
        e.at = e.at.saturating_sub(6);
        e.ability = 0;
        e.to_string()
    })?;
    let [a] = tree.as_slice() else {
        return Err("the trigger cell holds effects only, separated by `;` (no `|`)".into());
    };
    if a.effects().len() > MAX_EFFECTS {
        return Err(format!("at most {MAX_EFFECTS} effects").into());
    }
    // The Life trigger's ability record: `Main` stands for "no trigger" (it is never looked up
    // by trigger).
    Ok(Box::new(body(db, Trigger::Main, &a.body)?))
}

/// An ability's body: its program, counted values and effects.
fn body(db: &mut CardDb, trigger: Trigger, body: &[ast::Stmt]) -> Result<Ability, Reason> {
    let db = std::cell::RefCell::new(db);
    let values = std::cell::RefCell::new(Vec::new());
    let program = program::compile(
        body,
        &mut program::Compilers {
            effect: &mut |e: &ast::Effect| {
                compile_effect(&mut db.borrow_mut(), &mut values.borrow_mut(), e)
            },
            cards: &mut |c: &ast::Cards| target(&mut db.borrow_mut(), c),
            trigger: &mut |t: &ast::Trigger| -> Result<(), Reason> {
                // Decision F-BAT-17: `later end battle: …` only.
                if t.event == event::END && t.phase == Some(phase::BATTLE) && t.subject.is_none() {
                    Ok(())
                } else {
                    Err("the Fire Force engine plays `later end battle: …` only".into())
                }
            },
        },
    )?;
    let program = flatten_later(program)?;
    let effects = program.effects().copied().collect();
    Ok(Ability {
        trigger,
        subject: None,
        side: Side::Own,
        cost: AbilityCost::default(),
        cond: None,
        program,
        values: values.into_inner(),
        effects,
    })
}

/// The delayed bodies of `later` (decision F-BAT-17) appended to the ability's own steps, each
/// after a jump past the end, their jumps moved with them; `Op::Later` then holds the step its
/// body starts at, which a frame runs from when the battle ends.
fn flatten_later(mut p: Program) -> Result<Program, Reason> {
    if p.later.is_empty() {
        return Ok(p);
    }
    const END: u8 = u8::MAX;
    let mut ops = std::mem::take(&mut p.ops);
    let mut starts = Vec::new();
    for (_, body) in std::mem::take(&mut p.later) {
        ops.push(Op::Jump(END));
        let off = ops.len();
        if off + body.len() >= usize::from(END) {
            return Err("an ability with its delayed steps of more than 254 steps".into());
        }
        starts.push(off as u8);
        let off = off as u8;
        for op in body {
            ops.push(match op {
                Op::Unless(c, to) => Op::Unless(c, to + off),
                Op::Jump(to) => Op::Jump(to + off),
                Op::May(to) => Op::May(to + off),
                Op::Later(_) => return Err("a `later` inside a `later` is not played".into()),
                op => op,
            });
        }
    }
    for op in ops.iter_mut().take(usize::from(starts[0]) - 1) {
        if let Op::Later(k) = op {
            *k = starts[usize::from(*k)];
        }
    }
    Ok(Program {
        ops,
        later: Vec::new(),
    })
}

/// A condition: its card sets compiled, its words the ones the engine answers.
fn cond(db: &mut CardDb, c: &ast::Cond) -> Result<Cond, Reason> {
    c.try_map(&mut |x| target(db, x))
}

/// A written amount, or a counted one added to the ability's values (decision F-EFF-9).
fn amount(
    values: &mut Vec<Value>,
    db: &mut CardDb,
    v: &Option<ast::Value>,
) -> Result<Amount, Reason> {
    match v {
        Some(ast::Value::Num(n)) => Ok(Amount::Num(*n)),
        Some(v) => {
            let up = match v {
                ast::Value::Per { each, .. } => *each > 0,
                _ => true,
            };
            if values.len() >= 8 {
                return Err("at most 8 counted amounts in an ability".into());
            }
            values.push(v.try_map(&mut |c| target(db, c))?);
            Ok(Amount::Val {
                k: values.len() as u8 - 1,
                up,
            })
        }
        None => unreachable!("the pattern reads an amount"),
    }
}

fn fixed(v: &Option<ast::Value>) -> Result<i16, Reason> {
    match v {
        Some(ast::Value::Num(n)) => Ok(*n),
        Some(_) => Err("a counted amount is not played here by the Fire Force engine yet".into()),
        None => unreachable!("the pattern reads an amount"),
    }
}

fn filter(db: &mut CardDb, words: &[ast::Filter]) -> Result<Filter, Reason> {
    let mut f = Filter::default();
    for w in words {
        match w {
            ast::Filter::Stat(k, op, n) => {
                let (lo, hi) = match op {
                    ast::Cmp::Le => (None, Some(*n)),
                    ast::Cmp::Ge => (Some(*n), None),
                    _ => {
                        return Err("a stat filter is `<=` or `>=` in the Fire Force engine".into())
                    }
                };
                if *k == stat::POWER {
                    let check = |x: i16| {
                        if (0..=30000).contains(&x) {
                            Ok(x)
                        } else {
                            Err(format!("{x} is out of range 0..=30000"))
                        }
                    };
                    if let Some(x) = lo {
                        f.power_min = Some(check(x)?);
                    }
                    if let Some(x) = hi {
                        f.power_max = Some(check(x)?);
                    }
                } else if *k == stat::COST {
                    let check = |x: i16| {
                        if (0..=10).contains(&x) {
                            Ok(x as u8)
                        } else {
                            Err(format!("{x} is out of range 0..=10"))
                        }
                    };
                    if let Some(x) = lo {
                        f.cost_min = Some(check(x)?);
                    }
                    if let Some(x) = hi {
                        f.cost_max = Some(check(x)?);
                    }
                } else {
                    return Err(not_played("support filter"));
                }
            }
            ast::Filter::Flag(flag::READY, true) => f.ready = Some(true),
            ast::Filter::Flag(flag::EXHAUSTED, true) => f.ready = Some(false),
            ast::Filter::Flag(flag::READY, false) => f.ready = Some(false),
            ast::Filter::Flag(flag::EXHAUSTED, false) => f.ready = Some(true),
            ast::Filter::Flag(flag::FLAME, b) => f.flame = Some(*b),
            ast::Filter::Flag(flag::GIVEN, b) => f.given = Some(*b),
            ast::Filter::Flag(flag::REACTION, true) => f.reaction = true,
            ast::Filter::Flag(flag::ATTACKING, b) => f.attacking = Some(*b),
            ast::Filter::Flag(flag::ATTACKED, b) => f.attacked = Some(*b),
            ast::Filter::Keyword(k, true) => f.keywords.0 |= Keywords::NAMES[*k as usize].1 .0,
            ast::Filter::Trait(t) => f.attrs |= db.attr_bit(t)?,
            ast::Filter::Other => f.other = true,
            // Decision F-EFF-12.
            ast::Filter::Named => f.named = true,
            _ => return Err("this filter is not played by the Fire Force engine yet".into()),
        }
    }
    Ok(f)
}

/// A card set: who picks, whose, where, which.
fn target(db: &mut CardDb, c: &ast::Cards) -> Result<Target, Reason> {
    let mode = match c.pick {
        ast::Pick::Role(role::ATTACKER) => Mode::Attacker,
        ast::Pick::Role(role::ATTACKED) => Mode::Attacked,
        ast::Pick::Role(_) => Mode::Bearer,
        ast::Pick::This => Mode::This,
        ast::Pick::That => Mode::That,
        ast::Pick::Choose { min: 1, max: 1 } => Mode::Choose,
        ast::Pick::Choose { min: 0, max: 1 } => Mode::UpTo,
        ast::Pick::All => Mode::All,
        ast::Pick::Each => Mode::Each,
        _ => {
            return Err(
                "this choice of cards is not played by the Fire Force engine yet (`target`, `up_to 1`, `all`)"
                    .into(),
            )
        }
    };
    let zone = match c.zone {
        None | Some(zone::SCENE) => Zone::Scene,
        Some(zone::HAND) => Zone::Hand,
        Some(zone::DECK) => Zone::Deck,
        Some(zone::LIFE) => Zone::Life,
        Some(zone::ADOLLA) => Zone::Adolla,
        Some(_) => Zone::FlameDeck,
    };
    let mut filter = filter(db, &c.filters)?;
    filter.types = VOCAB.nouns[c.noun as usize].types as u8;
    Ok(Target {
        mode,
        side: c.side,
        zone,
        filter,
    })
}

/// A target the engine acts on: Units on the Scene, picked as it can pick them.
fn units_on_scene(db: &mut CardDb, c: &ast::Cards) -> Result<Target, Reason> {
    let t = target(db, c)?;
    if t.zone != Zone::Scene {
        return Err("only cards on the Scene are played by the Fire Force engine yet".into());
    }
    if t.filter.types != CardType::UNIT_BIT {
        return Err("only units are played here by the Fire Force engine yet".into());
    }
    if t.mode == Mode::Each {
        return Err(
            "a card set that acts needs `self`, `that`, `target`, `up_to 1` or `all`".into(),
        );
    }
    Ok(t)
}

fn compile_effect(
    db: &mut CardDb,
    values: &mut Vec<Value>,
    e: &ast::Effect,
) -> Result<Effect, Reason> {
    let cards = e.cards.as_ref();
    let t = |db: &mut CardDb| units_on_scene(db, cards.expect("the pattern reads cards"));
    Ok(match e.verb {
        v::DRAW => match (e.side == Some(Side::Enemy), &e.n) {
            (false, Some(ast::Value::Num(n))) => Effect::Draw(*n as u8),
            (enemy, n) => Effect::DrawOf {
                enemy,
                n: amount(values, db, n)?,
            },
        },
        v::DRAW_TO => Effect::DrawTo(fixed(&e.n)? as u8),
        v::REMOVE => Effect::Remove(t(db)?),
        v::EXHAUST => Effect::Exhaust(t(db)?),
        v::READY => {
            let x = target(db, cards.expect("the pattern reads cards"))?;
            if x.filter.types == CardType::FLAME_BIT
                && x.zone == Zone::Scene
                && x.mode != Mode::Each
            {
                Effect::Ready(x)
            } else {
                Effect::Ready(t(db)?)
            }
        }
        v::BOUNCE => Effect::Bounce(t(db)?),
        v::POWER => {
            let until = match e.dur {
                Some(dur::BATTLE) => Until::EndOfBattle,
                None | Some(dur::TURN) => Until::EndOfTurn,
                // Decision F-DUR-2.
                Some(dur::NEXT_TURN) => Until::NextTurn,
                Some(dur::OWN_NEXT_TURN) => Until::OwnNextTurn,
                Some(d) => return Err(not_played(VOCAB.durations[d as usize].name)),
            };
            let target = t(db)?;
            Effect::Power(target, amount(values, db, &e.n)?, until)
        }
        v::GIVE => match t(db)? {
            t @ Target {
                side: Side::Own,
                mode: Mode::This | Mode::Choose,
                ..
            } => Effect::Give(t),
            _ => {
                return Err(
                    "give: the target is one of your own units (`self` or `target own unit`)"
                        .into(),
                )
            }
        },
        v::FLAME => Effect::Flame(fixed(&e.n)? as u8),
        v::LIFE => Effect::Life(fixed(&e.n)? as u8),
        v::MILL => {
            if e.side != Some(Side::Enemy) {
                return Err("`mill own` is not played by the Fire Force engine yet".into());
            }
            Effect::Mill(fixed(&e.n)? as u8)
        }
        v::PICK => Effect::Pick(t(db)?),
        v::END_BATTLE => Effect::EndBattle,
        // Decision F-EFF-12.
        v::NAME_CARD => Effect::NameCard,
        v::PREVENT => Effect::Prevent,
        v::BAN => {
            let c = cards.expect("the pattern reads a description");
            let x = target(db, c)?;
            if e.dur != Some(dur::NEXT_TURN)
                || x.zone != Zone::Scene
                || c.zone.is_some()
                || x.filter
                    != (Filter {
                        named: true,
                        types: 0,
                        ..Filter::default()
                    })
            {
                return Err("the Fire Force engine plays `ban own|enemy cards named next_turn` (after `name_card`)".into());
            }
            Effect::Ban {
                enemy: e.side == Some(Side::Enemy),
            }
        }
        // Decision F-BAT-17.
        v::REDIRECT => Effect::Redirect(t(db)?),
        // Decision F-BAT-18.
        v::GUARD_LIFE => {
            if e.dur != Some(dur::BATTLE) {
                return Err("guard_life lasts `battle` in the Fire Force engine".into());
            }
            Effect::GuardLife
        }
        // Decision F-PREP-6.
        v::CANT => {
            if e.word != Some(prohibit::BE_READIED)
                || e.dur != Some(dur::NEXT_TURN)
                || e.by.is_some()
            {
                return Err(
                    "the Fire Force engine plays the effect `cant UNITS be_readied next_turn` (a prohibition that lasts is a `static`)"
                        .into(),
                );
            }
            Effect::Stay(t(db)?)
        }
        v::GRANT => {
            let k = match VOCAB.keywords[e.word.expect("the pattern reads a keyword") as usize].name {
                "blitz" => Keywords::BLITZ,
                "blocker" => Keywords::BLOCKER,
                w => {
                    return Err(format!(
                        "grant: `blitz` or `blocker` (`{w}` is not granted by the Fire Force engine yet)"
                    ).into())
                }
            };
            let next = match e.dur {
                None | Some(dur::TURN) => false,
                Some(dur::NEXT_TURN) => true,
                Some(d) => return Err(not_played(VOCAB.durations[d as usize].name)),
            };
            Effect::Grant(t(db)?, k, next)
        }
        v::MOVE => {
            let x = target(db, cards.expect("the pattern reads cards"))?;
            let to = dest(e.to)?;
            let ok = match x.zone {
                Zone::Hand => matches!(to, Dest::Adolla | Dest::DeckBottom | Dest::Life),
                Zone::Adolla => to == Dest::Hand,
                Zone::Scene => x.filter.types == CardType::FLAME_BIT && to == Dest::Adolla,
                _ => false,
            };
            if !ok {
                return Err("the Fire Force engine moves a card from a hand into THE ADOLLA, onto the deck's bottom or onto the Life area, a card from THE ADOLLA to its hand, and a Flame card from the Scene into THE ADOLLA".into());
            }
            one_card(&x)?;
            Effect::Move(x, to)
        }
        v::DISCARD => Effect::Discard {
            enemy: e.side == Some(Side::Enemy),
            n: fixed(&e.n)? as u8,
        },
        v::DISPATCH => {
            let x = target(db, cards.expect("the pattern reads cards"))?;
            if x.zone != Zone::Adolla || x.side != Side::Own || x.filter.types != CardType::UNIT_BIT
            {
                return Err(
                    "dispatch: a Unit card of your own THE ADOLLA (`up_to 1 own unit … in adolla`)"
                        .into(),
                );
            }
            one_card(&x)?;
            Effect::Dispatch(x)
        }
        v::SEARCH | v::DIG => {
            let mut x = target(db, cards.expect("the pattern reads cards"))?;
            if x.zone != Zone::Scene || x.side != Side::Own || x.mode != Mode::UpTo {
                return Err(format!(
                    "{}: `up_to 1 own CARDS to hand` (the cards of your own deck)",
                    VOCAB.verb(false, e.verb).name
                )
                .into());
            }
            x.zone = Zone::Deck;
            if dest(e.to)? != Dest::Hand {
                return Err("search and dig put the card into the hand (`to hand`)".into());
            }
            if e.verb == v::SEARCH {
                Effect::Search(x, Dest::Hand)
            } else {
                Effect::Dig(fixed(&e.n)?.clamp(1, 10) as u8, x, Dest::Hand)
            }
        }
        v::LOOK => {
            if e.side != Some(Side::Enemy) || e.to.map(|(z, _)| z) != Some(zone::HAND) {
                return Err(
                    "look: `look enemy hand` is played by the Fire Force engine yet".into(),
                );
            }
            Effect::Look
        }
        k => return Err(not_played(VOCAB.verb(false, k).name)),
    })
}

/// Where `to ZONE` puts a card.
fn dest(to: Option<(u8, ast::Pos)>) -> Result<Dest, Reason> {
    Ok(match to {
        Some((zone::HAND, _)) => Dest::Hand,
        Some((zone::ADOLLA, _)) => Dest::Adolla,
        Some((zone::DECK, ast::Pos::Bottom)) => Dest::DeckBottom,
        Some((zone::LIFE, ast::Pos::Default | ast::Pos::Top)) => Dest::Life,
        _ => return Err("to: `hand`, `adolla`, `deck bottom` or `life`".into()),
    })
}

/// A card set that picks one card (`target`, `up_to 1`, `that`).
fn one_card(x: &Target) -> Result<(), Reason> {
    if matches!(x.mode, Mode::Choose | Mode::UpTo | Mode::That) {
        Ok(())
    } else {
        Err("this effect is played on one card: `target …`, `up_to 1 …` or `that`".into())
    }
}

/// `cost CARDS ±N` in a static (decision F-COST-8): `cost self in hand ±N` (a UNIT's or an
/// EVENT's own cost) or `cost all own|enemy CARDS in hand ±N` (a UNIT's, while on the Scene);
/// `first` with `reaction`: the first Reaction Event its owner plays each turn.
fn compile_cost(
    db: &mut CardDb,
    e: &ast::Effect,
    ctype: CardType,
    cond: Option<Cond>,
) -> Result<super::cards::CostMod, Reason> {
    let mut c = e.cards.clone().expect("the pattern reads cards");
    let first = c.filters.contains(&ast::Filter::Flag(flag::FIRST, true));
    c.filters
        .retain(|f| *f != ast::Filter::Flag(flag::FIRST, true));
    let t = target(db, &c)?;
    if t.zone != Zone::Hand {
        return Err("a cost change is about cards in hand (`cost self in hand -1`, `cost all enemy events in hand +1`)".into());
    }
    let this =
        match t.mode {
            Mode::This
                if t.filter
                    == Filter {
                        types: t.filter.types,
                        ..Filter::default()
                    } =>
            {
                true
            }
            Mode::All if ctype == CardType::Unit && t.side != Side::Any => false,
            _ => return Err(
                "a cost change is on `self in hand` or, a UNIT's, on `all own|enemy CARDS in hand`"
                    .into(),
            ),
        };
    if first && !t.filter.reaction {
        return Err("`first` in a cost change is read with `reaction` (the first Reaction Event played each turn)".into());
    }
    if t.filter.has_state_extras() || t.filter.ready.is_some() || t.filter.other {
        return Err("a cost change's filter reads the printed card".into());
    }
    Ok(super::cards::CostMod {
        this,
        side: t.side,
        filter: t.filter,
        first,
        n: fixed(&e.n)? as i8,
        cond: cond.map(Box::new),
    })
}

/// `cant CARDS WHAT [by UNITS]` in a static (decision F-CANT-1).
fn compile_cant(
    db: &mut CardDb,
    e: &ast::Effect,
    ctype: CardType,
    cant: &mut Cant,
) -> Result<(), Reason> {
    let t = target(db, e.cards.as_ref().expect("the pattern reads cards"))?;
    let scope = match t.mode {
        Mode::This if ctype == CardType::Unit && t.filter == Target::SELF.filter => Scope::This,
        Mode::Bearer if ctype == CardType::Flame && t.filter == Target::SELF.filter => {
            Scope::Bearer
        }
        _ => {
            return Err(
                "a prohibition is about `self` (a UNIT's) or `bearer` (a FLAME card's), without filters"
                    .into(),
            )
        }
    };
    let what = e.word.expect("the pattern reads a prohibition");
    if e.by.is_some() && what != prohibit::BE_BLOCKED {
        return Err("`by …` follows `be_blocked` only".into());
    }
    match (what, scope) {
        (prohibit::ATTACK_PLAYER, Scope::This) => cant.attack_player = true,
        (prohibit::BE_BLOCKED, Scope::This) => {
            cant.unblockable = true;
            if let Some(by) = &e.by {
                let x = target(db, by)?;
                if x.zone != Zone::Scene || x.filter.types & !CardType::UNIT_BIT != 0 {
                    return Err(
                        "be_blocked by: a description of Units (`by units power<=5000`)".into(),
                    );
                }
                cant.blocked_by = Some(Box::new(x));
            }
        }
        (prohibit::BE_CHOSEN, Scope::This) => cant.chosen = true,
        (prohibit::BE_CHOSEN, Scope::Bearer) => cant.bearer_chosen = true,
        (prohibit::BE_CHOSEN, _) | (_, Scope::This) => {
            return Err(format!(
                "`cant … {}` in a static is not played by the Fire Force engine yet",
                VOCAB.prohibitions[what as usize].name
            )
            .into())
        }
        _ => return Err("a FLAME card's prohibition: `cant bearer be_chosen`".into()),
    }
    Ok(())
}

fn compile_static(
    db: &mut CardDb,
    e: &ast::Effect,
    ctype: CardType,
    cond: Option<Cond>,
) -> Result<Static, Reason> {
    let c = e.cards.as_ref().expect("the pattern reads cards");
    if e.verb != st::POWER {
        return Err(not_played(VOCAB.verb(true, e.verb).name));
    }
    let t = target(db, c)?;
    let scope = match t.mode {
        Mode::All if t.side != Side::Any && t.zone == Zone::Scene => Scope::All,
        Mode::This if ctype == CardType::Unit && t.zone == Zone::Scene => Scope::This,
        Mode::Bearer if ctype == CardType::Flame => Scope::Bearer,
        _ => {
            return Err(
                "a static changes the power of `all own units …`, `all enemy units …`, `self` (a UNIT's) or `bearer` (a FLAME card's)"
                    .into(),
            )
        }
    };
    if scope != Scope::All && t.filter != Target::SELF.filter {
        return Err("a static on `self` or `bearer` has no filters (use `static if …`)".into());
    }
    if t.filter.attacking.is_some() || t.filter.attacked.is_some() {
        return Err("a static's filter does not read the battle".into());
    }
    Ok(Static {
        side: if scope == Scope::All {
            t.side
        } else {
            Side::Own
        },
        scope,
        filter: t.filter,
        power: fixed(&e.n)?,
        cond: cond.map(Box::new),
        hits: [0; 4],
        plain: false,
        gate: 0,
    })
}
