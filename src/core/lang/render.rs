//! Card text written back: in the canonical form of the card language (what `tcgsim cards
//! migrate` writes, and what the parser reads back into the same abilities), and in plain English
//! (what `show`, `play --human` and the protocol print).

use super::ast::*;
use super::vocab::{CostArg, HeadKind, Slot, Vocab};

/// The canonical text of a card's abilities (abilities separated by ` | `).
pub fn canonical(v: &Vocab, abilities: &[Ability]) -> String {
    abilities
        .iter()
        .map(|a| ability(v, a))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn ability(v: &Vocab, a: &Ability) -> String {
    let mut s = head(v, &a.head);
    let mut parts: Vec<String> = a.costs.iter().map(|c| cost(v, c)).collect();
    if a.once {
        parts.push("once".into());
    }
    if !parts.is_empty() {
        s.push('[');
        s.push_str(&parts.join(", "));
        s.push(']');
    }
    if let Some(c) = &a.cond {
        s.push_str(" if ");
        s.push_str(&cond(v, c));
    }
    s.push_str(": ");
    let statics = matches!(a.head, Head::Word(k) if v.head(k).kind == HeadKind::Static);
    s.push_str(&stmts(v, &a.body, statics));
    s
}

fn head(v: &Vocab, h: &Head) -> String {
    match h {
        Head::Word(k) => v.head(*k).word.name.to_string(),
        Head::On(t) => trigger(v, t),
        Head::Instead(t) => format!("instead {}", trigger(v, t)),
    }
}

fn trigger(v: &Vocab, t: &Trigger) -> String {
    let ev = &v.events[t.event as usize];
    let mut s = ev.word.name.to_string();
    if ev.side || ev.phase {
        if let Some(w) = side(t.side) {
            s.push(' ');
            s.push_str(w);
        }
    }
    if let Some(p) = t.phase {
        s.push(' ');
        s.push_str(v.phases[p as usize].name);
    }
    if let Some(c) = &t.subject {
        s.push(' ');
        s.push_str(&cards(v, c, false));
    }
    if let Some(c) = &t.by {
        s.push_str(" by ");
        s.push_str(&cards(v, c, false));
    }
    if let Some(z) = t.to {
        s.push_str(" to ");
        s.push_str(v.zones[z as usize].name);
    }
    s
}

fn cost(v: &Vocab, c: &Cost) -> String {
    let cw = &v.costs[c.word as usize];
    let mut s = cw.word.name.to_string();
    match cw.arg {
        CostArg::None => {}
        CostArg::Num(..) => s.push_str(&format!(" {}", c.n.unwrap_or(0))),
        CostArg::Cards => {
            if let Some(cs) = &c.cards {
                s.push(' ');
                s.push_str(&cards(v, cs, false));
            }
        }
    }
    s
}

fn side(s: Side) -> Option<&'static str> {
    match s {
        Side::Own => Some("own"),
        Side::Enemy => Some("enemy"),
        Side::Any => None,
    }
}

/// A card set; `plural` picks the noun's plural for a description.
pub fn cards(v: &Vocab, c: &Cards, plural: bool) -> String {
    let mut words: Vec<String> = Vec::new();
    let zone = |words: &mut Vec<String>| {
        if let Some(z) = c.zone {
            words.push(format!("in {}", v.zones[z as usize].name));
        }
    };
    let many = match c.pick {
        Pick::This | Pick::That | Pick::Role(_) => {
            words.push(match c.pick {
                Pick::Role(k) => v.roles[k as usize].name.to_string(),
                Pick::This => "self".to_string(),
                _ => "that".to_string(),
            });
            words.extend(c.filters.iter().map(|f| filter(v, f)));
            zone(&mut words);
            return words.join(" ");
        }
        Pick::Choose { min: 1, max: 1 } => {
            words.push("target".into());
            false
        }
        Pick::Choose { min: 0, max } => {
            words.push(format!("up_to {max}"));
            max > 1
        }
        Pick::Choose { max, .. } => {
            words.push(max.to_string());
            max > 1
        }
        Pick::All => {
            words.push("all".into());
            true
        }
        Pick::Each => plural,
    };
    if let Some(w) = side(c.side) {
        words.push(w.into());
    }
    // Alternatives (`event/arts`): two or more nouns as filters of the generic noun. (Nouns as
    // filters of another noun are bare filter words, TMNT's `characters attack`.)
    let alts: Vec<u8> = c
        .filters
        .iter()
        .filter_map(|f| match f {
            Filter::Noun(k) if v.noun(c.noun).types == 0 => Some(*k),
            _ => None,
        })
        .collect();
    let form = |n: &super::vocab::Noun| if many { n.many } else { n.one };
    if alts.len() >= 2 {
        words.push(
            alts.iter()
                .map(|k| form(v.noun(*k)))
                .collect::<Vec<_>>()
                .join("/"),
        );
    } else {
        words.push(form(v.noun(c.noun)).into());
    }
    for f in &c.filters {
        if alts.len() >= 2 && matches!(f, Filter::Noun(_)) {
            continue;
        }
        words.push(filter(v, f));
    }
    zone(&mut words);
    words.join(" ")
}

fn filter(v: &Vocab, f: &Filter) -> String {
    match f {
        Filter::Stat(k, c, n) => format!("{}{}{n}", v.stats[*k as usize].name, c.symbol()),
        Filter::Flag(k, true) => v.flags[*k as usize].name.into(),
        Filter::Flag(k, false) => format!("not_{}", v.flags[*k as usize].name),
        Filter::Keyword(k, yes) => format!(
            "{}={}",
            if *yes { v.keyword_keys[0] } else { "not_has" },
            v.keywords[*k as usize].name
        ),
        Filter::Trait(t) => format!("{}={t}", v.trait_key),
        Filter::Name(n) => format!("name='{n}'"),
        Filter::Named => "named".into(),
        Filter::Other => "other".into(),
        Filter::SameName => "same_name".into(),
        Filter::Those => "those".into(),
        Filter::Noun(k) => v.noun(*k).one.into(),
    }
}

fn value(v: &Vocab, x: &Value, signed: bool) -> String {
    match x {
        Value::Num(n) if signed => format!("{n:+}"),
        Value::Num(n) => n.to_string(),
        Value::Count(c) => format!("count {}", cards(v, c, true)),
        Value::Quantity(k, Side::Enemy) => format!("{} enemy", v.quantities[*k as usize].name),
        Value::Quantity(k, _) => v.quantities[*k as usize].name.into(),
        Value::X(s) => match side(*s) {
            Some(w) => format!("x {w}"),
            None => "x".into(),
        },
        Value::Stat(k, c) => format!("{} {}", v.stats[*k as usize].name, cards(v, c, false)),
        Value::Per { each, of, max } => {
            let of = match &**of {
                Value::Count(c) => cards(v, c, true),
                other => value(v, other, false),
            };
            let each = if signed {
                format!("{each:+}")
            } else {
                each.to_string()
            };
            match max {
                Some(m) => format!("{each} per {of} max {m}"),
                None => format!("{each} per {of}"),
            }
        }
    }
}

fn cond(v: &Vocab, c: &Cond) -> String {
    let inner = |c: &Cond| match c {
        Cond::And(_) | Cond::Or(_) => format!("({})", cond(v, c)),
        _ => cond(v, c),
    };
    match c {
        Cond::Cmp(a, op, b) => format!(
            "{} {} {}",
            value(v, a, false),
            op.symbol(),
            value(v, b, false)
        ),
        Cond::Any(cs) if matches!(cs.pick, Pick::This | Pick::That | Pick::Role(_)) => {
            cards(v, cs, false)
        }
        Cond::Any(cs) => format!("any {}", cards(v, cs, false)),
        Cond::No(cs) => format!("no {}", cards(v, cs, false)),
        Cond::Word(k, s) => match side(*s) {
            Some(w) => format!("{} {w}", v.conds[*k as usize].name),
            None => v.conds[*k as usize].name.into(),
        },
        Cond::Not(x) => format!("not {}", inner(x)),
        Cond::And(xs) => xs.iter().map(inner).collect::<Vec<_>>().join(" and "),
        Cond::Or(xs) => xs.iter().map(inner).collect::<Vec<_>>().join(" or "),
    }
}

fn stmts(v: &Vocab, s: &[Stmt], statics: bool) -> String {
    s.iter()
        .map(|s| stmt(v, s, statics))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A group: bare when it is one plain effect, in parentheses otherwise.
fn group(v: &Vocab, s: &[Stmt], statics: bool, always: bool) -> String {
    if !always && s.len() == 1 && matches!(s[0], Stmt::Do(_)) {
        stmt(v, &s[0], statics)
    } else {
        format!("({})", stmts(v, s, statics))
    }
}

fn stmt(v: &Vocab, s: &Stmt, statics: bool) -> String {
    match s {
        Stmt::Do(e) => effect(v, e, statics),
        Stmt::If(c, a, b) => {
            let mut s = format!("if {} then {}", cond(v, c), group(v, a, statics, false));
            if !b.is_empty() {
                s.push_str(" else ");
                s.push_str(&group(v, b, statics, false));
            }
            s
        }
        Stmt::Choose(opts) => format!(
            "choose {}",
            opts.iter()
                .map(|o| group(v, o, statics, true))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        Stmt::May(a, b) => {
            let mut s = format!("may {}", group(v, a, statics, false));
            if !b.is_empty() {
                s.push_str(" then ");
                s.push_str(&group(v, b, statics, false));
            }
            s
        }
        Stmt::Later(t, a) => format!("later {}: {}", trigger(v, t), group(v, a, statics, false)),
    }
}

fn effect(v: &Vocab, e: &Effect, statics: bool) -> String {
    let verb = v.verb(statics, e.verb);
    let mut words: Vec<String> = vec![verb.name.into()];
    for slot in verb.slots {
        match *slot {
            Slot::Lit(l) | Slot::Opt(l) => words.push(l.into()),
            Slot::N(..) => words.push(value(v, e.n.as_ref().expect("parsed n"), false)),
            Slot::Signed(..) => words.push(value(v, e.n.as_ref().expect("parsed n"), true)),
            Slot::Stats(..) => words.push(format!(
                "{}/{}",
                value(v, e.n.as_ref().expect("parsed n"), true),
                value(v, e.m.as_ref().expect("parsed m"), true)
            )),
            Slot::Cards | Slot::AllCards | Slot::FiltersIn(_) => {
                words.push(cards(v, e.cards.as_ref().expect("parsed cards"), false))
            }
            Slot::Side | Slot::SideOr(_) => {
                words.push(side(e.side.unwrap_or(Side::Own)).unwrap_or("own").into())
            }
            Slot::OptSide => {
                if e.side == Some(Side::Enemy) {
                    words.push("enemy".into())
                }
            }
            Slot::Resource => words.push(
                v.resources[e.word.expect("parsed resource") as usize]
                    .name
                    .into(),
            ),
            Slot::Description => {
                words.push(cards(v, e.cards.as_ref().expect("parsed cards"), true))
            }
            Slot::By => {
                if let Some(b) = &e.by {
                    words.push(format!("by {}", cards(v, b, true)));
                }
            }
            Slot::Description2 => words.push(cards(v, e.by.as_ref().expect("parsed cards"), true)),
            Slot::Keyword => words.push(
                v.keywords[e.word.expect("parsed keyword") as usize]
                    .name
                    .into(),
            ),
            Slot::Prohibition => words.push(
                v.prohibitions[e.word.expect("parsed prohibition") as usize]
                    .name
                    .into(),
            ),
            Slot::Zone => words.push(v.zones[e.to.expect("parsed zone").0 as usize].name.into()),
            Slot::Traits(..) => words.extend(e.traits.iter().cloned()),
            Slot::To => {
                let (z, p) = e.to.expect("parsed destination");
                words.push(format!("to {}", v.zones[z as usize].name));
                match p {
                    Pos::Top => words.push("top".into()),
                    Pos::Bottom => words.push("bottom".into()),
                    Pos::Word(k) => words.push(v.placements[k as usize].name.into()),
                    Pos::Default => {}
                }
            }
            Slot::Dur => {
                if let Some(d) = e.dur {
                    words.push(v.durations[d as usize].name.into());
                }
            }
        }
    }
    words.join(" ")
}

// ---------------------------------------------------------------------------------------------
// Plain English.

/// The abilities of a card in plain English, one sentence (or more) per ability.
pub fn english(v: &Vocab, abilities: &[Ability]) -> Vec<String> {
    abilities.iter().map(|a| en_ability(v, a)).collect()
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn en_ability(v: &Vocab, a: &Ability) -> String {
    let body = en_stmts(
        v,
        &a.body,
        matches!(a.head, Head::Word(k) if v.head(k).kind == HeadKind::Static),
    );
    let once = if a.once { " (once per turn)" } else { "" };
    let costs: Vec<String> = a.costs.iter().map(|c| en_cost(v, c)).collect();
    let s = match &a.head {
        Head::Word(k) => {
            let h = v.head(*k);
            match h.kind {
                HeadKind::Static => match &a.cond {
                    Some(c) => format!("While {}, {}", en_cond(v, c), body),
                    None => cap(&body),
                },
                HeadKind::Play | HeadKind::Act => {
                    let mut s = cap(h.word.en);
                    if !costs.is_empty() {
                        s.push_str(&format!(" [{}]", costs.join(", ")));
                    }
                    s.push_str(once);
                    if !s.is_empty() {
                        s.push_str(": ");
                    }
                    if let Some(c) = &a.cond {
                        s.push_str(&format!("Only if {}. ", en_cond(v, c)));
                    }
                    s.push_str(&cap(&body));
                    return s + ".";
                }
            }
        }
        Head::On(t) => {
            let mut s = cap(&en_trigger(v, t));
            if let Some(c) = &a.cond {
                s.push_str(&format!(", if {}", en_cond(v, c)));
            }
            format!("{s}{once}, {body}")
        }
        Head::Instead(t) => {
            let mut s = format!(
                "Instead of \"{}\"",
                en_trigger(v, t).trim_start_matches("when ")
            );
            if let Some(c) = &a.cond {
                s.push_str(&format!(", if {}", en_cond(v, c)));
            }
            format!("{s}{once}: {body}")
        }
    };
    s + "."
}

fn en_trigger(v: &Vocab, t: &Trigger) -> String {
    let ev = &v.events[t.event as usize];
    let mut s = match (&t.subject, t.phase) {
        (_, Some(p)) => {
            let whose = match t.side {
                Side::Own => "your ",
                Side::Enemy => "your opponent's ",
                Side::Any => "the ",
            };
            ev.en_subject
                .replace("{}", &format!("{whose}{}", v.phases[p as usize].en))
        }
        (Some(c), None) => ev.en_subject.replace("{}", &en_cards(v, c, false)),
        (None, None) => ev.en_self.to_string(),
    };
    if let Some(b) = &t.by {
        s.push_str(&format!(" by {}", en_cards(v, b, false)));
    }
    if let Some(z) = t.to {
        s.push_str(&format!(" into the {}", v.zones[z as usize].en));
    }
    s
}

fn en_cost(v: &Vocab, c: &Cost) -> String {
    let cw = &v.costs[c.word as usize];
    let mut s = cw.word.en.to_string();
    if let Some(n) = c.n {
        s = s.replace("{n}", &n.to_string());
    }
    if let Some(cs) = &c.cards {
        s = s.replace("{cards}", &en_cards(v, cs, false));
    }
    s
}

fn whose(s: Side) -> &'static str {
    match s {
        Side::Own => "your",
        Side::Enemy => "your opponent's",
        Side::Any => "a",
    }
}

/// A card set in English ("target ready unit your opponent controls with cost 2 or less").
pub fn en_cards(v: &Vocab, c: &Cards, plural: bool) -> String {
    if let Some(k) = first_flag(v, c) {
        return en_first(v, c, k);
    }
    let n = v.noun(c.noun);
    let (lead, many) = match c.pick {
        Pick::This => return format!("this {}", n.en_one),
        Pick::That if c.filters.is_empty() => return format!("that {}", n.en_one),
        Pick::That => {
            let probe = Cards {
                pick: Pick::Each,
                side: Side::Any,
                noun: c.noun,
                filters: c.filters.clone(),
                zone: None,
            };
            return format!(
                "that {} (if it is {})",
                n.en_one,
                en_cards(v, &probe, false)
            );
        }
        Pick::Role(k) if c.filters.is_empty() => return v.roles[k as usize].en.to_string(),
        Pick::Role(k) => {
            let probe = Cards {
                pick: Pick::Each,
                side: Side::Any,
                noun: c.noun,
                filters: c.filters.clone(),
                zone: None,
            };
            return format!(
                "{} (if it is {})",
                v.roles[k as usize].en,
                en_cards(v, &probe, false)
            );
        }
        Pick::Choose { min: 1, max: 1 } => ("target".to_string(), false),
        Pick::Choose { min: 0, max } => (format!("up to {max}"), max > 1),
        Pick::Choose { max, .. } => (max.to_string(), max > 1),
        Pick::All => ("all".to_string(), true),
        Pick::Each => (
            if plural {
                String::new()
            } else {
                "a".to_string()
            },
            plural,
        ),
    };
    let mut adj: Vec<String> = Vec::new();
    let mut post: Vec<String> = Vec::new();
    let alts: Vec<&str> = c
        .filters
        .iter()
        .filter_map(|f| match f {
            Filter::Noun(k) if n.types == 0 => Some(v.noun(*k).en_one),
            _ => None,
        })
        .collect();
    // Several names are a group: a card with any of them.
    let mut names: Vec<&str> = Vec::new();
    for f in &c.filters {
        match f {
            Filter::Stat(k, op, x) => {
                let st = v.stats[*k as usize].en;
                post.push(match op {
                    Cmp::Le => format!("with {st} {x} or less"),
                    Cmp::Ge => format!("with {st} {x} or more"),
                    Cmp::Lt => format!("with {st} less than {x}"),
                    Cmp::Gt => format!("with {st} more than {x}"),
                    Cmp::Eq => format!("with {st} {x}"),
                    Cmp::Ne => format!("with {st} other than {x}"),
                })
            }
            // A `first` flag's period is said by `en_first` only. A flag read as a phrase
            // ("with Flame") follows the noun: "cards with Flame", "a unit without Flame".
            Filter::Flag(k, yes) => match (flag_en(v, *k).strip_prefix("with "), yes) {
                (Some(what), true) => post.push(format!("with {what}")),
                (Some(what), false) => post.push(format!("without {what}")),
                (None, true) => adj.push(flag_en(v, *k).into()),
                (None, false) => adj.push(format!("non-{}", flag_en(v, *k))),
            },
            Filter::Keyword(k, true) => post.push(format!("with {}", v.keywords[*k as usize].en)),
            Filter::Keyword(k, false) => {
                post.push(format!("without {}", v.keywords[*k as usize].en))
            }
            Filter::Trait(t) => adj.push(t.clone()),
            Filter::Name(x) => names.push(x.as_str()),
            Filter::Named => post.push("with the name chosen".into()),
            Filter::Other => adj.insert(0, "other".into()),
            Filter::SameName => post.push("with the same name".into()),
            Filter::Those => post.push("among those".into()),
            // Two kinds or more of the generic noun are alternatives: "an EVENT or arts card".
            Filter::Noun(_) if alts.len() >= 2 => {}
            Filter::Noun(k) => adj.push(v.noun(*k).en_one.into()),
        }
    }
    if alts.len() >= 2 {
        adj.push(alts.join(" or "));
    }
    match names.as_slice() {
        [] => {}
        [one] => post.push(format!("named {one}")),
        [rest @ .., last] => post.push(format!("named {} or {last}", rest.join(", "))),
    }
    let noun = if many { n.en_many } else { n.en_one };
    let mut words: Vec<String> = Vec::new();
    if !lead.is_empty() {
        words.push(lead);
    }
    // "all your …" for every card in play; "… you control" for a chosen one; a card in a zone
    // says whose by its zone ("in your trail").
    let in_play = c.zone.is_none();
    if in_play && c.pick == Pick::All && c.side != Side::Any {
        if words.last().is_some_and(|w| w == "a") {
            words.pop();
            words.push(if c.side == Side::Own {
                "one of your".into()
            } else {
                "one of your opponent's".into()
            });
        } else {
            words.push(whose(c.side).into());
        }
    }
    words.extend(adj);
    words.push(noun.into());
    if in_play && c.pick != Pick::All {
        match c.side {
            Side::Own => words.push("you control".into()),
            Side::Enemy => words.push("your opponent controls".into()),
            Side::Any => {}
        }
    }
    words.extend(post);
    if let Some(z) = c.zone {
        let zone = v.zones[z as usize].en;
        words.push(match c.side {
            Side::Any => format!("in a {zone}"),
            _ => format!("in {}", zone_owner(c.side, zone)),
        });
    }
    if words.first().is_some_and(|w| w == "a") && words.len() > 1 {
        if words[1] == "other" {
            // "another unit".
            words.remove(0);
            words[0] = "another".into();
        } else if vowel_sound(&words[1]) {
            words[0] = "an".into();
        }
    }
    words.join(" ")
}

/// Whether `word` is said with a vowel first ("an EVENT", "an Attack card", "an item"), but "a
/// unit" (a consonant sound).
fn vowel_sound(word: &str) -> bool {
    let w = word.to_lowercase();
    w.starts_with(['a', 'e', 'i', 'o', 'u']) && !w.starts_with("uni") && !w.starts_with("one")
}

/// A card set without its article ("a unit" → "unit", "another unit" → "other unit"), as it
/// reads after "for each" or "no".
fn bare(set: &str) -> String {
    if let Some(rest) = set.strip_prefix("another ") {
        return format!("other {rest}");
    }
    set.strip_prefix("a ")
        .or_else(|| set.strip_prefix("an "))
        .unwrap_or(set)
        .to_string()
}

/// The flag of `c` whose English names the first card played in a period (`first`: "first|in
/// each deployment step", the period after the bar), when `c` is every card of a side with it.
fn first_flag(v: &Vocab, c: &Cards) -> Option<u8> {
    if c.pick != Pick::All {
        return None;
    }
    c.filters.iter().find_map(|f| match f {
        Filter::Flag(k, true) if v.flags[*k as usize].en.contains('|') => Some(*k),
        _ => None,
    })
}

/// "the first army unit you play in each deployment step": every card of a side that is the
/// first played in a period ([`first_flag`]), one card.
fn en_first(v: &Vocab, c: &Cards, k: u8) -> String {
    let (first, period) = v.flags[k as usize]
        .en
        .split_once('|')
        .expect("a first flag's English has a bar");
    let mut one = c.clone();
    one.pick = Pick::Each;
    one.side = Side::Any;
    one.zone = None;
    one.filters
        .retain(|f| !matches!(f, Filter::Flag(j, true) if *j == k));
    // "a unit with cost 2 or less" without its article.
    let set = en_cards(v, &one, false);
    let set = set
        .strip_prefix("a ")
        .or_else(|| set.strip_prefix("an "))
        .unwrap_or(&set);
    let who = match c.side {
        Side::Own => "you play",
        Side::Enemy => "your opponent plays",
        Side::Any => "played",
    };
    let from = match c.zone {
        Some(z) => format!(" from {}", zone_owner(c.side, v.zones[z as usize].en)),
        None => String::new(),
    };
    format!("the {first} {set} {who}{from} {period}")
}

/// A flag's English, without the period of a `first` flag.
fn flag_en(v: &Vocab, k: u8) -> &'static str {
    let en = v.flags[k as usize].en;
    en.split_once('|').map_or(en, |(first, _)| first)
}

/// A change of a number as "N less" / "N more", with the unit of `{less:UNIT}` in a verb's
/// English ("1 CP less").
fn sub_less(v: &Vocab, s: &mut String, x: &Value) {
    let Some(at) = s.find("{less") else { return };
    let Some(len) = s[at..].find('}') else { return };
    let unit = s[at + 5..at + len].trim_start_matches(':').to_string();
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    let said = match x {
        Value::Num(n) if *n < 0 => format!("{}{unit} less", -n),
        Value::Num(n) => format!("{n}{unit} more"),
        other => format!("more by {}", en_value(v, other, false)),
    };
    s.replace_range(at..=at + len, &said);
}

fn zone_owner(s: Side, zone: &str) -> String {
    match s {
        Side::Own | Side::Any => format!("your {zone}"),
        Side::Enemy => format!("your opponent's {zone}"),
    }
}

fn en_value(v: &Vocab, x: &Value, signed: bool) -> String {
    match x {
        Value::Num(n) if signed => format!("{n:+}"),
        Value::Num(n) => n.to_string(),
        Value::Count(c) => format!("the number of {}", en_cards(v, c, true)),
        Value::Quantity(k, s) => v.quantities[*k as usize].en.replace(
            "{p}",
            match s {
                Side::Enemy => "your opponent's",
                _ => "your",
            },
        ),
        Value::X(Side::Own) => "the number of your cards among those".into(),
        Value::X(Side::Enemy) => "the number of your opponent's cards among those".into(),
        Value::X(Side::Any) => "that many".into(),
        Value::Stat(k, c) => format!(
            "the {} of {}",
            v.stats[*k as usize].en,
            en_cards(v, c, false)
        ),
        Value::Per { each, of, max } => {
            let each = if signed {
                format!("{each:+}")
            } else {
                each.to_string()
            };
            format!("{each} {}", per_clause(v, of, *max))
        }
    }
}

/// "for each Event in your opponent's hand": what an amount counts, one at a time ("(at most 3)"
/// after it for a cap).
fn per_clause(v: &Vocab, of: &Value, max: Option<i16>) -> String {
    let of = match of {
        Value::Count(c) => bare(&en_cards(
            v,
            &Cards {
                pick: Pick::Each,
                ..(**c).clone()
            },
            false,
        )),
        other => {
            let said = en_value(v, other, false);
            match said.strip_prefix("the number of ") {
                // "each of your Life cards".
                Some(rest) if rest.starts_with("your ") => format!("of {rest}"),
                // "each attacking unit", "each card in your hand": the counted noun is the one
                // before the place.
                Some(rest) => {
                    let (what, place) = match rest.split_once(" in ") {
                        Some((what, place)) => (what, format!(" in {place}")),
                        None => (rest, String::new()),
                    };
                    format!("{}{place}", what.strip_suffix('s').unwrap_or(what))
                }
                None => format!("point of {said}"),
            }
        }
    };
    match max {
        Some(m) => format!("for each {of} (at most {m})"),
        None => format!("for each {of}"),
    }
}

fn en_cond(v: &Vocab, c: &Cond) -> String {
    match c {
        Cond::Cmp(a, op, b) => {
            let (a, b) = (en_value(v, a, false), en_value(v, b, false));
            match op {
                Cmp::Le => format!("{a} is {b} or less"),
                Cmp::Ge => format!("{a} is {b} or more"),
                Cmp::Lt => format!("{a} is less than {b}"),
                Cmp::Gt => format!("{a} is more than {b}"),
                Cmp::Eq => format!("{a} is {b}"),
                Cmp::Ne => format!("{a} is not {b}"),
            }
        }
        Cond::Any(cs) if matches!(cs.pick, Pick::This | Pick::That | Pick::Role(_)) => {
            let probe = Cards {
                pick: Pick::Each,
                side: Side::Any,
                noun: cs.noun,
                filters: cs.filters.clone(),
                zone: None,
            };
            let who = match cs.pick {
                Pick::Role(k) => v.roles[k as usize].en.to_string(),
                Pick::This => "this card".to_string(),
                _ => "that card".to_string(),
            };
            // "this card is in the Trash", "that card is a ready unit in the Trash": the zone
            // is said, and a bare `card` with no filter adds nothing.
            let what =
                if cs.filters.is_empty() && cs.zone.is_some() && v.noun(cs.noun).en_one == "card" {
                    String::new()
                } else {
                    format!(" {}", en_cards(v, &probe, false))
                };
            // "in the Trash", but "in THE ADOLLA" (a zone whose name has its article).
            let place = match cs.zone {
                Some(z) => {
                    let zone = v.zones[z as usize].en;
                    if zone.to_lowercase().starts_with("the ") {
                        format!(" in {zone}")
                    } else {
                        format!(" in the {zone}")
                    }
                }
                None => String::new(),
            };
            format!("{who} is{what}{place}")
        }
        Cond::Any(cs) => format!("there is {}", en_cards(v, cs, false)),
        Cond::No(cs) => format!("there is no {}", bare(&en_cards(v, cs, false))),
        // `{p}` the player ("you are attacking"), `{ps}` whose ("it is your Preparation phase").
        Cond::Word(k, s) => v.conds[*k as usize]
            .en
            .replace(
                "{ps}",
                match s {
                    Side::Enemy => "your opponent's",
                    _ => "your",
                },
            )
            .replace(
                "{p}",
                match s {
                    Side::Enemy => "your opponent",
                    _ => "you",
                },
            ),
        Cond::Not(x) => format!("not ({})", en_cond(v, x)),
        Cond::And(xs) => xs
            .iter()
            .map(|x| en_cond(v, x))
            .collect::<Vec<_>>()
            .join(" and "),
        Cond::Or(xs) => xs
            .iter()
            .map(|x| en_cond(v, x))
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

fn en_stmts(v: &Vocab, s: &[Stmt], statics: bool) -> String {
    s.iter()
        .map(|s| en_stmt(v, s, statics))
        .collect::<Vec<_>>()
        .join("; then ")
}

fn en_stmt(v: &Vocab, s: &Stmt, statics: bool) -> String {
    match s {
        Stmt::Do(e) => en_effect(v, e, statics),
        Stmt::If(c, a, b) => {
            let mut s = format!("if {}, {}", en_cond(v, c), en_stmts(v, a, statics));
            if !b.is_empty() {
                s.push_str(&format!("; otherwise, {}", en_stmts(v, b, statics)));
            }
            s
        }
        Stmt::Choose(opts) => format!(
            "choose one — {}",
            opts.iter()
                .map(|o| en_stmts(v, o, statics))
                .collect::<Vec<_>>()
                .join("; or ")
        ),
        Stmt::May(a, b) => {
            // "you may have target unit you control get +1000 power": a card set as the subject
            // takes "have" and the plain verb.
            let body = match a.split_first() {
                Some((Stmt::Do(e), rest)) if cards_subject(v, e, statics) => {
                    let mut all = vec![format!("have {}", en_effect_as(v, e, statics, true))];
                    all.extend(rest.iter().map(|s| en_stmt(v, s, statics)));
                    all.join("; then ")
                }
                _ => en_stmts(v, a, statics),
            };
            let mut s = format!("you may {body}");
            if !b.is_empty() {
                s.push_str(&format!("; if you do, {}", en_stmts(v, b, statics)));
            }
            s
        }
        Stmt::Later(t, a) => format!("{}, {}", en_trigger(v, t), en_stmts(v, a, statics)),
    }
}

fn en_effect(v: &Vocab, e: &Effect, statics: bool) -> String {
    en_effect_as(v, e, statics, false)
}

/// Whether the English of `e` starts with its cards as the subject of a verb that agrees with
/// them ("target unit you control gets +1/+0"): after "you may" it reads "have target unit you
/// control get +1/+0".
fn cards_subject(v: &Vocab, e: &Effect, statics: bool) -> bool {
    let en = v.verb(statics, e.verb).en;
    let Some(rest) = en.strip_prefix("{cards} ") else {
        return false;
    };
    let verb = rest.split(' ').next().unwrap_or("");
    verb.contains("{v}") || verb == "{has}" || verb == "can't"
}

/// The cards of a verb that are not in play but in your deck ("search your deck for up to 1
/// unit", "reveal up to 1 EVENT among them"): no "you control".
fn cards_in_deck(template: &str) -> bool {
    template.contains("your deck for {cards}") || template.contains("{cards} among them")
}

/// An amount said as a number and what it counts: "+1000" and "for each Event in your
/// opponent's hand" (a count, a quantity, `x own`), or the number alone.
fn en_amount(v: &Vocab, x: &Value, signed: bool) -> (String, Option<String>) {
    let one = if signed { "+1" } else { "1" };
    match x {
        Value::Per { each, of, max } => {
            let each = if signed {
                format!("{each:+}")
            } else {
                each.to_string()
            };
            (each, Some(per_clause(v, of, *max)))
        }
        Value::Count(_) | Value::Quantity(..) | Value::X(Side::Own | Side::Enemy) => {
            (one.into(), Some(per_clause(v, x, None)))
        }
        other => (en_value(v, other, signed), None),
    }
}

/// `base`: the verb in its plain form, after "have" ("you may have target unit get +1/+0").
fn en_effect_as(v: &Vocab, e: &Effect, statics: bool, base: bool) -> String {
    let verb = v.verb(statics, e.verb);
    // A role is one card ("the attacking unit gets"), and so is "a unit".
    let one = match &e.cards {
        Some(c) => {
            matches!(
                c.pick,
                Pick::This | Pick::That | Pick::Role(_) | Pick::Each | Pick::Choose { max: 1, .. }
            ) || first_flag(v, c).is_some()
        }
        None => true,
    };
    let singular = one && !base;
    let n_is_one = matches!(
        e.n,
        Some(Value::Num(1) | Value::Num(-1) | Value::Per { each: 1 | -1, .. })
    ) || matches!(
        e.n,
        Some(Value::Count(_) | Value::Quantity(..) | Value::X(Side::Own | Side::Enemy))
    );
    let mut s = verb.en.to_string();
    let sub = |s: &mut String, key: &str, val: &str| {
        *s = s.replace(key, val);
    };
    if let Some(c) = &e.cards {
        let set = if cards_in_deck(verb.en) && c.side == Side::Own && c.zone.is_none() {
            en_cards(
                v,
                &Cards {
                    side: Side::Any,
                    ..c.clone()
                },
                false,
            )
        } else {
            en_cards(v, c, false)
        };
        sub(&mut s, "{cards}", &set);
    }
    // What an amount counts is said after the amount's phrase, before its duration: "gets +1000
    // power for each Event in your opponent's hand until end of turn".
    let mut counts: Vec<String> = Vec::new();
    if let Some(n) = &e.n {
        sub_less(v, &mut s, n);
        let signed = verb
            .slots
            .iter()
            .any(|s| matches!(s, Slot::Signed(..) | Slot::Stats(..)));
        let (said, per) = en_amount(v, n, signed);
        sub(&mut s, "{n}", &said);
        counts.extend(per);
    }
    if let Some(m) = &e.m {
        let (said, per) = en_amount(v, m, true);
        sub(&mut s, "{m}", &said);
        counts.extend(per);
    }
    if !counts.is_empty() {
        let said = format!(" {}", counts.join(" and "));
        match s.find("{dur") {
            Some(at) => s.insert_str(at, &said),
            None => s.push_str(&said),
        }
    }
    // A player as the subject: "you put" / "your opponent puts"; an optional side left out is
    // the imperative ("draw 1 card"). Their own things after it are "their" ("your opponent puts
    // the top card of their deck"), and yours when you are the one ("put 1 card from your hand").
    let side_subject = s.contains("{side}");
    if let Some(sd) = e.side {
        let optional = verb.slots.contains(&Slot::OptSide);
        let who = match sd {
            Side::Enemy => "your opponent",
            _ if optional => "",
            _ => "you",
        };
        if side_subject && sd != Side::Enemy {
            s = s.replace(" of their choice", "").replace("their ", "your ");
        }
        let after = s.find("{side}").map_or(0, |at| at + "{side}".len());
        if side_subject && sd == Side::Enemy {
            let rest = s[after..]
                .replace("{sides}", "their")
                .replace("your opponent's", "their");
            s.replace_range(after.., &rest);
        }
        sub(&mut s, "{side}", who);
        sub(
            &mut s,
            "{sides}",
            if sd == Side::Enemy {
                "your opponent's"
            } else {
                "your"
            },
        );
        if side_subject {
            sub(&mut s, "{v}", if sd == Side::Enemy { "s" } else { "" });
        }
    }
    if let Some(k) = e.word {
        let table = if verb.slots.contains(&Slot::Prohibition) {
            v.prohibitions
        } else if verb.slots.contains(&Slot::Resource) {
            v.resources
        } else {
            v.keywords
        };
        sub(&mut s, "{word}", table[k as usize].en);
    }
    if !e.traits.is_empty() {
        sub(&mut s, "{traits}", &e.traits.join(" and "));
    }
    if let Some((z, p)) = e.to {
        let zone = v.zones[z as usize].en;
        let place = match p {
            Pos::Top => format!("on top of its owner's {zone}"),
            Pos::Bottom => format!("on the bottom of its owner's {zone}"),
            Pos::Word(k) => format!("into its owner's {zone} {}", v.placements[k as usize].en),
            Pos::Default => format!("into its owner's {zone}"),
        };
        sub(&mut s, "{to}", &place);
        sub(&mut s, "{zone}", zone);
    }
    let by =
        e.by.as_ref()
            .map(|b| format!(" by {}", en_cards(v, b, true)))
            .unwrap_or_default();
    sub(&mut s, "{by}", &by);
    if let Some(b) = &e.by {
        sub(&mut s, "{as}", &en_cards(v, b, false));
    }
    fill_dur(&mut s, e.dur.map(|d| v.durations[d as usize].en));
    // "put up to 2 cards in your hand on the bottom of their owner's deck".
    if !one && e.cards.is_some() {
        s = s.replace("its owner's", "their owner's");
    }
    sub(&mut s, "{s}", if n_is_one { "" } else { "s" });
    sub(&mut s, "{v}", if singular { "s" } else { "" });
    sub(&mut s, "{has}", if singular { "has" } else { "have" });
    // "the top card of their deck", as printed (not "the top 1 card").
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("the top 1 card ", "the top card ")
}

/// A verb's duration: `{dur}` is the effect's duration or nothing, `{dur:DEFAULT}` the effect's
/// duration or DEFAULT ("{dur:until end of turn}": "gets +2/+0 during this combat", not "until
/// end of turn during this combat").
fn fill_dur(s: &mut String, dur: Option<&str>) {
    while let Some(at) = s.find("{dur") {
        let Some(len) = s[at..].find('}') else { return };
        let default = s[at + 4..at + len].trim_start_matches(':');
        let said = match (dur, default) {
            (Some(d), _) => format!(" {d}"),
            (None, "") => String::new(),
            (None, d) => format!(" {d}"),
        };
        s.replace_range(at..=at + len, &said);
    }
}
