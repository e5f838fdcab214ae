//! The TMNT words of the card language (`docs/cards.md`, "TMNT TCG"): the vocabulary the shared
//! grammar (`crate::core::lang`) reads a TMNT effect cell with, and the compile step from its tree
//! into the types of [`super::cards`] the engine plays.

use super::cards::{
    Ability, CardType, Effect, Filter, Target, Trigger, When, ATTRIBUTES, MAX_ABILITIES,
    MAX_EFFECTS,
};
use crate::core::lang::vocab::{
    legacy, verb, w, CostArg, CostWord, EventWord, HeadKind, HeadWord, Noun, Slot, Vocab,
};
use crate::core::lang::{self, ast};
use crate::core::lang::{Side, TargetMode};

mod head {
    pub const PLAY: u8 = 0;
    pub const FLIP: u8 = 1;
    pub const PLAY_FLIP: u8 = 2;
    pub const STATIC: u8 = 3;
}

#[allow(dead_code)]
mod event {
    pub const START: u8 = 0;
    pub const DAMAGED: u8 = 1;
    pub const MILLED: u8 = 2;
    pub const END: u8 = 3;
    pub const ATTACK: u8 = 4;
    pub const DEFEND: u8 = 5;
    pub const HIT: u8 = 6;
    pub const FLIPPED: u8 = 7;
    pub const PLACED: u8 = 8;
    pub const LEAVES: u8 = 9;
}

#[allow(dead_code)]
mod phase {
    pub const ATTACK: u8 = 0;
    pub const RESULT: u8 = 1;
}

/// Zone ids.
#[allow(dead_code)]
pub mod zone {
    pub const BLOCKS: u8 = 0;
    pub const TRASH: u8 = 1;
    pub const HAND: u8 = 2;
    pub const DECK: u8 = 3;
}

#[allow(dead_code)]
mod v {
    pub const DRAW: u8 = 0;
    pub const MILL: u8 = 1;
    pub const DISCARD: u8 = 2;
    pub const MOVE: u8 = 3;
    pub const POWER: u8 = 4;
    pub const BONUS: u8 = 5;
    pub const DRAW_TO: u8 = 6;
    pub const LOOK: u8 = 7;
    pub const PEEK: u8 = 8;
    pub const SEARCH: u8 = 9;
    pub const DIG: u8 = 10;
    pub const ARRANGE: u8 = 11;
    pub const BAN: u8 = 12;
    pub const PREVENT: u8 = 13;
    pub const REDUCE: u8 = 14;
    pub const EXCESS_CAP: u8 = 15;
    pub const EXCESS_EXTRA: u8 = 16;
    pub const KEEP_ANYWAY: u8 = 17;
    pub const FREE_ITEM: u8 = 18;
    pub const PICK: u8 = 19;
}

#[allow(dead_code)]
mod st {
    pub const POWER: u8 = 0;
    pub const ALSO_TITLED: u8 = 1;
    pub const ITEM_ANY_ATTRIBUTE: u8 = 2;
    pub const BAN: u8 = 3;
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
        w("counter", "Counter Attack"),
        w("forceful_counter", "Forceful Counter Attack"),
        w("forceful", "Forceful Attack"),
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
            "{side} discard{v} {n} card{s} of their choice from hand",
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
            "damage beyond your Block cards sends at most {n} cards from your deck",
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
            "{cards} also counts as {by} for combos",
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
fn not_played(word: &str) -> String {
    format!("`{word}` is not played by the TMNT engine yet")
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
            return Err(ctx(
                "a condition in the head is not played by the TMNT engine yet".into(),
            ));
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
                return Err(ctx(
                    "a trigger about another card is not played by the TMNT engine yet".into(),
                ))
            }
            ast::Head::Instead(_) => {
                return Err(ctx("`instead` is not played by the TMNT engine yet".into()))
            }
            ast::Head::Word(h) => return Err(ctx(not_played(VOCAB.head(*h).word.name))),
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
            x.trigger == trigger
                || matches!((x.trigger, trigger), (Trigger::When(_), Trigger::When(_)))
        };
        if out.iter().any(same_kind) {
            return Err(ctx(
                "a card has at most one text of each trigger, and one `when`".into(),
            ));
        }
        if a.body.len() > MAX_EFFECTS {
            return Err(ctx(format!("at most {MAX_EFFECTS} effects")));
        }
        let mut effects = Vec::new();
        for s in &a.body {
            let ast::Stmt::Do(e) = s else {
                return Err(ctx(
                    "`if`, `choose`, `may` and `later` are not played by the TMNT engine yet"
                        .into(),
                ));
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
                return Err(ctx(
                    "a static text is `power all own cards [FILTERS] ±N` only".into(),
                ));
            }
            effects.push(eff);
        }
        out.push(Ability { trigger, effects });
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
        v::DRAW if e.side == Some(Side::Enemy) => return Err(not_played("draw enemy")),
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
        v::POWER if e.dur.is_some() => {
            return Err(not_played("a duration on `power` (M-ATK-16 sets it)"))
        }
        v::POWER => Effect::Power(
            target(e.cards.as_ref().expect("the pattern reads cards"))?,
            fixed(&e.n)?,
        ),
        v::BONUS => Effect::Bonus(fixed(&e.n)?),
        k => return Err(not_played(VOCAB.verb(false, k).name)),
    })
}

fn compile_static(e: &ast::Effect) -> Result<Effect, String> {
    match e.verb {
        st::POWER => Ok(Effect::Power(
            target(e.cards.as_ref().expect("the pattern reads cards"))?,
            fixed(&e.n)?,
        )),
        k => Err(not_played(VOCAB.verb(true, k).name)),
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
        assert_eq!(
            one("trash enemy 3"),
            Ok(Effect::Trash { enemy: true, n: 3 })
        );
        assert_eq!(one("mill enemy 3"), Ok(Effect::Trash { enemy: true, n: 3 }));
        let Ok(Effect::Power(t, 2)) = one("power +2 target enemy card fire power<=3") else {
            panic!()
        };
        assert_eq!((t.mode, t.side), (TargetMode::Choose, Side::Enemy));
        assert_eq!(t.filter.attrs, 1 << 2);
        assert_eq!(t.filter.power_max, Some(3));
        assert_eq!(
            one("power target enemy card attr=fire power<=3 +2"),
            Ok(Effect::Power(t, 2))
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
