//! The TMNT words of the card language (`docs/cards.md`, "TMNT TCG"): the vocabulary the shared
//! grammar (`crate::core::lang`) reads a TMNT effect cell with, and the compile step from its tree
//! into the types of [`super::cards`] the engine plays.

use super::cards::{
    Ability, CardType, Effect, Filter, Target, Trigger, When, ATTRIBUTES, MAX_ABILITIES,
    MAX_EFFECTS,
};
use crate::core::dsl::{Side, TargetMode};
use crate::core::lang::vocab::{
    legacy, verb, w, EventWord, HeadKind, HeadWord, Noun, Slot, Vocab,
};
use crate::core::lang::{self, ast};

mod head {
    pub const PLAY: u8 = 0;
    pub const FLIP: u8 = 1;
    pub const PLAY_FLIP: u8 = 2;
    pub const STATIC: u8 = 3;
}

mod event {
    pub const START: u8 = 0;
    pub const DAMAGED: u8 = 1;
    pub const MILLED: u8 = 2;
}

mod phase {
    pub const ATTACK: u8 = 0;
    pub const RESULT: u8 = 1;
}

/// Zone ids.
pub mod zone {
    pub const BLOCKS: u8 = 0;
    pub const TRASH: u8 = 1;
    pub const HAND: u8 = 2;
}

mod v {
    pub const DRAW: u8 = 0;
    pub const MILL: u8 = 1;
    pub const DISCARD: u8 = 2;
    pub const MOVE: u8 = 3;
    pub const POWER: u8 = 4;
    pub const BONUS: u8 = 5;
}

mod st {
    pub const POWER: u8 = 0;
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
    ],
    events: &[
        EventWord {
            word: w("start", ""),
            subject: false,
            phase: true,
            by: false,
            side: false,
            en_self: "at the start of the phase",
            en_subject: "when {} begins",
        },
        EventWord {
            word: w("damaged", ""),
            subject: false,
            phase: false,
            by: false,
            side: false,
            en_self: "when you take damage as the defender",
            en_subject: "when you take damage as the defender",
        },
        EventWord {
            word: w("milled", ""),
            subject: false,
            phase: false,
            by: false,
            side: true,
            en_self: "when cards of your deck are sent to your Trash",
            en_subject: "when cards of your deck are sent to your Trash",
        },
    ],
    phases: &[w("attack", "Attack phase"), w("result", "Result step")],
    zones: &[
        w("blocks", "Block Zones"),
        w("trash", "Trash"),
        w("hand", "hand"),
        w("deck", "deck"),
    ],
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
    flags: &[],
    keywords: &[],
    keyword_keys: &[],
    trait_key: "attr",
    bare_traits: &ATTRIBUTES,
    bare_nouns: true,
    quantities: &[],
    conds: &[],
    durations: &[],
    costs: &[],
    verbs: &[
        verb("draw", v::DRAW, &[Slot::N(1, 5)], "draw {n} card{s}"),
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
            &[Slot::Side, Slot::N(1, 3)],
            "{side} discard{v} {n} card{s} of their choice from hand",
        ),
        verb("move", v::MOVE, &[Slot::Cards, Slot::To], "put {cards} {to}"),
        legacy("salvage", v::MOVE, &[Slot::FiltersIn(zone::TRASH)], salvage),
        verb(
            "power",
            v::POWER,
            &[Slot::Cards, Slot::Signed(-20, 20)],
            "{cards} get{v} {n} power",
        ),
        legacy("power", v::POWER, &[Slot::Signed(-20, 20), Slot::Cards], keep),
        verb(
            "bonus",
            v::BONUS,
            &[Slot::Signed(-20, 20)],
            "your side of this turn's Forward step gets {n} power",
        ),
    ],
    statics: &[
        verb(
            "power",
            st::POWER,
            &[Slot::Cards, Slot::Signed(-20, 20)],
            "{cards} {has} {n} power",
        ),
        legacy("power", st::POWER, &[Slot::Signed(-20, 20), Slot::Cards], keep),
    ],
    prohibitions: &[],
    roles: &[],
    head_aliases: &[
        ("when attack", "start own attack"),
        ("when defend", "start enemy attack"),
        ("when damaged", "damaged"),
        ("when trash", "milled own"),
        ("when result", "start result"),
    ],
};

/// The card text of `tree` in the canonical form.
pub fn canonical(tree: &[ast::Ability]) -> String {
    lang::canonical(&VOCAB, tree)
}

/// The effect cell of a card of type `ctype`: its abilities; which triggers each card type may
/// have.
pub fn effects(text: &str, ctype: CardType) -> Result<Vec<Ability>, String> {
    let tree = lang::parse(&VOCAB, text).map_err(|e| e.to_string())?;
    compile(&tree, ctype)
}

/// Compiles a parsed cell into the engine's types.
pub fn compile(tree: &[ast::Ability], ctype: CardType) -> Result<Vec<Ability>, String> {
    if tree.len() > MAX_ABILITIES {
        return Err(format!("at most {MAX_ABILITIES} abilities"));
    }
    let mut out: Vec<Ability> = Vec::new();
    for (k, a) in tree.iter().enumerate() {
        let ctx = |m: String| format!("ability {}: {m}", k + 1);
        if !a.costs.is_empty() || a.once {
            return Err(ctx("TMNT texts have no cost in brackets".into()));
        }
        if a.cond.is_some() {
            return Err(ctx("a condition in the head is not played by the TMNT engine yet".into()));
        }
        let trigger = match &a.head {
            ast::Head::Word(head::PLAY) => Trigger::Play,
            ast::Head::Word(head::FLIP) => Trigger::Flip,
            ast::Head::Word(head::PLAY_FLIP) => Trigger::PlayFlip,
            ast::Head::Word(head::STATIC) => Trigger::Static,
            ast::Head::On(t) if t.subject.is_none() && t.by.is_none() => {
                match (t.event, t.side, t.phase) {
                    (event::START, Side::Own, Some(phase::ATTACK)) => Trigger::When(When::Attack),
                    (event::START, Side::Enemy, Some(phase::ATTACK)) => Trigger::When(When::Defend),
                    (event::START, Side::Any, Some(phase::RESULT)) => Trigger::When(When::Result),
                    (event::DAMAGED, _, _) => Trigger::When(When::Damaged),
                    (event::MILLED, Side::Own, _) => Trigger::When(When::Trash),
                    _ => {
                        return Err(ctx(
                            "this moment is not played by the TMNT engine yet (`start own attack`, `start enemy attack`, `start result`, `damaged`, `milled own`)".into(),
                        ))
                    }
                }
            }
            ast::Head::On(_) => {
                return Err(ctx("a trigger about another card is not played by the TMNT engine yet".into()))
            }
            ast::Head::Instead(_) => {
                return Err(ctx("`instead` is not played by the TMNT engine yet".into()))
            }
            ast::Head::Word(_) => unreachable!("every head is listed"),
        };
        let allowed = match trigger {
            Trigger::Play => matches!(ctype, CardType::Attack | CardType::Event),
            Trigger::Flip => ctype != CardType::Item,
            Trigger::PlayFlip => ctype == CardType::Event,
            Trigger::Static => ctype == CardType::Item,
            Trigger::When(_) => matches!(ctype, CardType::Character | CardType::Item),
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
            )));
        }
        let same_kind = |x: &Ability| {
            x.trigger == trigger || matches!((x.trigger, trigger), (Trigger::When(_), Trigger::When(_)))
        };
        if out.iter().any(same_kind) {
            return Err(ctx("a card has at most one text of each trigger, and one `when`".into()));
        }
        if a.body.len() > MAX_EFFECTS {
            return Err(ctx(format!("at most {MAX_EFFECTS} effects")));
        }
        let mut effects = Vec::new();
        for s in &a.body {
            let ast::Stmt::Do(e) = s else {
                return Err(ctx("`if`, `choose` and `may` are not played by the TMNT engine yet".into()));
            };
            let eff = if trigger == Trigger::Static {
                compile_static(e)
            } else {
                compile_effect(e)
            }
            .map_err(ctx)?;
            if trigger == Trigger::Static
                && !matches!(
                    eff,
                    Effect::Power(
                        Target {
                            mode: TargetMode::All,
                            side: Side::Own,
                            ..
                        },
                        _
                    )
                )
            {
                return Err(ctx("a static text is `power all own cards [FILTERS] ±N` only".into()));
            }
            effects.push(eff);
        }
        out.push(Ability { trigger, effects });
    }
    if ctype == CardType::Event
        && !(out.len() == 1
            && matches!(out[0].trigger, Trigger::Play | Trigger::Flip | Trigger::PlayFlip))
    {
        return Err(
            "an event has exactly one text: `play:`, `flip:` or `play_flip:` (its kind, M-DECK-4)"
                .into(),
        );
    }
    Ok(out)
}

fn fixed(v: &Option<ast::Value>) -> Result<i16, String> {
    match v {
        Some(ast::Value::Num(n)) => Ok(*n),
        Some(_) => Err("a counted amount is not played by the TMNT engine yet".into()),
        None => unreachable!("the pattern reads an amount"),
    }
}

/// The filter of a card set: its noun's types and its filters. `salvage` is a card in the Trash
/// (any type; `other` means nothing there).
fn filter(c: &ast::Cards, salvage: bool) -> Result<Filter, String> {
    let mut f = Filter::default();
    let mut types = |bits: u16, word: &str| -> Result<(), String> {
        if !salvage && bits & 0b1100 != 0 {
            return Err(format!(
                "`{word}`: only a card in the Trash can be an {word} (a card in play is a face-up card on a Block or Attack Zone)"
            ));
        }
        f.types |= bits as u8;
        Ok(())
    };
    let noun = VOCAB.noun(c.noun);
    if noun.types != 0 {
        types(noun.types, noun.one)?;
    }
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
                    ))
                }
            },
            ast::Filter::Stat(_, op, n) => {
                if !(-99..=999).contains(n) {
                    return Err(format!("{n} is out of range -99..=999"));
                }
                match op {
                    ast::Cmp::Le => f.power_max = Some(*n),
                    ast::Cmp::Ge => f.power_min = Some(*n),
                    _ => return Err("a stat filter is `<=` or `>=` in the TMNT engine".into()),
                }
            }
            ast::Filter::Other if !salvage => f.other = true,
            _ => return Err("this filter is not played by the TMNT engine yet".into()),
        }
    }
    Ok(f)
}

fn target(c: &ast::Cards) -> Result<Target, String> {
    let mode = match c.pick {
        ast::Pick::This => TargetMode::This,
        ast::Pick::Choose { min: 1, max: 1 } => TargetMode::Choose,
        ast::Pick::All => TargetMode::All,
        _ => return Err("this choice of cards is not played by the TMNT engine yet".into()),
    };
    if c.zone.is_some_and(|z| z != zone::BLOCKS) {
        return Err("a card in play is a face-up card on a Block or Attack Zone".into());
    }
    Ok(Target {
        mode,
        side: c.side,
        filter: filter(c, false)?,
    })
}

fn compile_effect(e: &ast::Effect) -> Result<Effect, String> {
    let side = || e.side.expect("the pattern reads a side") == Side::Enemy;
    Ok(match e.verb {
        v::DRAW => Effect::Draw(fixed(&e.n)? as u8),
        v::MILL => Effect::Trash {
            enemy: side(),
            n: fixed(&e.n)? as u8,
        },
        v::DISCARD => Effect::Discard {
            enemy: side(),
            n: fixed(&e.n)? as u8,
        },
        v::MOVE => {
            let c = e.cards.as_ref().expect("the pattern reads cards");
            let ok = c.pick == (ast::Pick::Choose { min: 1, max: 1 })
                && c.side == Side::Own
                && c.zone == Some(zone::TRASH)
                && e.to == Some((zone::HAND, ast::Pos::Default));
            if !ok {
                return Err(
                    "`move` is played by the TMNT engine only as `move target own card … in trash to hand` yet"
                        .into(),
                );
            }
            Effect::Salvage(filter(c, true)?)
        }
        v::POWER => Effect::Power(target(e.cards.as_ref().expect("the pattern reads cards"))?, fixed(&e.n)?),
        v::BONUS => Effect::Bonus(fixed(&e.n)?),
        _ => unreachable!("every verb is listed"),
    })
}

fn compile_static(e: &ast::Effect) -> Result<Effect, String> {
    match e.verb {
        st::POWER => Ok(Effect::Power(
            target(e.cards.as_ref().expect("the pattern reads cards"))?,
            fixed(&e.n)?,
        )),
        _ => unreachable!("every static is listed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Effect, String> {
        effects(&format!("play: {text}"), CardType::Event).map(|a| a[0].effects[0])
    }

    #[test]
    fn effects_parse_with_their_words() {
        assert_eq!(one("draw 2"), Ok(Effect::Draw(2)));
        assert_eq!(one("trash enemy 3"), Ok(Effect::Trash { enemy: true, n: 3 }));
        assert_eq!(one("mill enemy 3"), Ok(Effect::Trash { enemy: true, n: 3 }));
        let Ok(Effect::Power(t, 2)) = one("power +2 target enemy card fire power<=3") else {
            panic!()
        };
        assert_eq!((t.mode, t.side), (TargetMode::Choose, Side::Enemy));
        assert_eq!(t.filter.attrs, 1 << 2);
        assert_eq!(t.filter.power_max, Some(3));
        assert_eq!(one("power target enemy card attr=fire power<=3 +2"), Ok(Effect::Power(t, 2)));
        assert!(one("power +2 all own cards item").is_err());
        assert!(one("salvage item").is_ok());
        assert_eq!(one("salvage attack"), one("move target own attack in trash to hand"));
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
    }

    #[test]
    fn old_spellings_read_as_the_canonical_ones() {
        let old = "when trash: salvage attack power<=3 | static: power +2 all own cards fire character";
        let tree = lang::parse(&VOCAB, old).unwrap();
        let text = canonical(&tree);
        assert_eq!(
            text,
            "milled own: move target own attack power<=3 in trash to hand | static: power all own characters attr=fire +2"
        );
        assert_eq!(lang::parse(&VOCAB, &text).unwrap(), tree);
    }
}
