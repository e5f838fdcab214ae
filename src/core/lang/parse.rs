//! The parser of the shared grammar (`docs/cards.md`, "The card language"). It reads a cell into
//! [`Ability`] trees with the words of one game ([`Vocab`]); every error names the word it stopped
//! at, the words that could stand there, and the nearest of them when the word looks misspelt.

use super::ast::*;
use super::lex::{lex, Tok, Token};
use super::suggest::nearest;
use super::vocab::{find, CostArg, EventWord, HeadKind, Slot, Verb, Vocab};
use crate::core::input::excerpt;

/// The deepest nesting of `if`, `choose`, `may`, `later`, `not` and parentheses in an ability:
/// far beyond any card, and shallow enough that reading, writing, comparing and playing a text
/// stay well within any thread's stack (a text nested 100,000 deep overflowed it).
pub const MAX_DEPTH: usize = 16;

/// A mistake in a card text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The ability it is in (from 1), 0 when the cell cannot be split.
    pub ability: usize,
    /// Byte offset in the cell.
    pub at: usize,
    /// The word found there (empty at the end of the text).
    pub found: String,
    pub msg: String,
    /// The words that could stand there.
    pub expected: Vec<String>,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ability > 0 {
            write!(f, "ability {}: ", self.ability)?;
        }
        if self.found.is_empty() {
            write!(f, "at the end: {}", self.msg)?;
        } else {
            write!(f, "at \"{}\": {}", excerpt(&self.found), self.msg)?;
        }
        if !self.expected.is_empty() {
            let shown: Vec<&str> = self.expected.iter().take(40).map(String::as_str).collect();
            write!(f, " (expected {}", shown.join(", "))?;
            if self.expected.len() > shown.len() {
                write!(f, ", …")?;
            }
            // A misspelt word is one of the expected words (not a symbol: `:` is no `]`).
            let word = |s: &str| {
                s.trim_matches('`')
                    .starts_with(|c: char| c.is_ascii_alphabetic())
            };
            let words: Vec<String> = if word(&self.found) {
                self.expected.iter().filter(|e| word(e)).cloned().collect()
            } else {
                Vec::new()
            };
            if let Some(s) = nearest(&self.found.to_ascii_lowercase(), &words) {
                write!(f, "; did you mean \"{s}\"?")?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

type R<T> = Result<T, Error>;

/// Reads a cell of card text into its abilities (none for a blank cell).
pub fn parse(v: &Vocab, text: &str) -> R<Vec<Ability>> {
    let toks = lex(text).map_err(|(at, msg)| Error {
        ability: 0,
        at,
        found: text[at..].chars().take(12).collect(),
        msg,
        expected: Vec::new(),
    })?;
    let mut out = Vec::new();
    // Abilities are split at `|` outside brackets.
    let mut depth = 0i32;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.is("(") || t.is("[") {
            depth += 1;
        } else if t.is(")") || t.is("]") {
            depth -= 1;
        } else if t.is("|") && depth == 0 {
            parts.push(start..i);
            start = i + 1;
        }
    }
    if toks.is_empty() {
        return Ok(out);
    }
    parts.push(start..toks.len());
    for (k, range) in parts.into_iter().enumerate() {
        let end_at = toks.get(range.end).map(|t| t.at).unwrap_or(text.len());
        let mut p = Parser {
            v,
            toks: &toks[range],
            pos: 0,
            end_at,
            ability: k + 1,
            depth: 0,
        };
        out.push(p.ability()?);
    }
    Ok(out)
}

/// Whether a card set needs a selector.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sel {
    /// `self`, `that`, `target …`, `all …`, `up_to N …`, `N …`.
    Required,
    /// A description: `[own|enemy] NOUN FILTERS [in ZONE]`.
    None,
}

struct Parser<'a> {
    v: &'a Vocab,
    toks: &'a [Token],
    pos: usize,
    /// Byte offset of the end of this ability.
    end_at: usize,
    ability: usize,
    /// How deep the parser is in nested statements and conditions ([`MAX_DEPTH`]).
    depth: usize,
}

fn names<'a>(it: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    it.into_iter().map(|s| format!("`{s}`")).collect()
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + k)
    }

    /// Whether the next token is the word or symbol `w`.
    fn at(&self, w: &str) -> bool {
        self.peek().is_some_and(|t| t.is(w))
    }

    /// Takes the word or symbol `w` if it is next.
    fn eat(&mut self, w: &str) -> bool {
        if self.at(w) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads something nested one level deeper (the body of `if`, `choose`, `may` or `later`, a
    /// condition after `not` or in parentheses), refusing to go past [`MAX_DEPTH`].
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.depth >= MAX_DEPTH {
            let what = "`if`, `choose`, `may`, `later`, `not` and parentheses";
            return Err(self.err(
                format!("nested too deeply: at most {MAX_DEPTH} levels of {what}"),
                Vec::new(),
            ));
        }
        self.depth += 1;
        let r = read(self);
        self.depth -= 1;
        r
    }

    fn err(&self, msg: impl Into<String>, expected: Vec<String>) -> Error {
        let (at, found) = match self.peek() {
            Some(t) => (t.at, t.text.clone()),
            None => (self.end_at, String::new()),
        };
        Error {
            ability: self.ability,
            at,
            found,
            msg: msg.into(),
            expected,
        }
    }

    fn expect(&mut self, w: &str) -> R<()> {
        if self.eat(w) {
            Ok(())
        } else {
            Err(self.err(format!("expected `{w}`"), Vec::new()))
        }
    }

    /// The next token as a word (lower case), if it is one.
    fn word(&self) -> Option<&'a str> {
        self.peek()
            .filter(|t| t.kind == Tok::Word)
            .map(|t| t.word.as_str())
    }

    fn ability(&mut self) -> R<Ability> {
        let (head, statics) = self.head()?;
        let mut costs = Vec::new();
        let mut once = false;
        if self.eat("[") {
            let takes = match head {
                Head::Word(id) => self.v.head(id).kind == HeadKind::Act,
                _ => false,
            };
            loop {
                if self.eat("once") {
                    once = true;
                } else if !takes {
                    return Err(self.err(
                        "only an activated ability has a cost in brackets (anything else may have `[once]`)",
                        vec!["`once`".into()],
                    ));
                } else {
                    costs.push(self.cost()?);
                }
                if self.eat("]") {
                    break;
                }
                // Parts are separated by commas or spaces.
                self.eat(",");
                if self.peek().is_none() || self.at(":") {
                    return Err(self.err("missing `]` after the cost", names(["]"])));
                }
            }
        }
        let cond = if self.eat("if") {
            Some(self.cond()?)
        } else {
            None
        };
        if !self.eat(":") {
            let mut exp = vec!["`:`".to_string(), "`if`".into()];
            if costs.is_empty() {
                exp.push("`[`".into());
            }
            return Err(self.err("expected `:` after the head of the ability", exp));
        }
        if self.peek().is_none() {
            return Err(self.err("an ability needs at least one effect", Vec::new()));
        }
        let body = self.stmts(statics)?;
        if let Some(t) = self.peek() {
            return Err(self.err(
                format!(
                    "unexpected \"{}\" (an effect ends at `;`)",
                    excerpt(&t.text)
                ),
                names([";"]),
            ));
        }
        Ok(Ability {
            head,
            costs,
            once,
            cond,
            body,
        })
    }

    /// Whether the tokens from here spell `words` (space-separated, lower case).
    fn spells(&self, words: &str) -> usize {
        let mut k = 0;
        for w in words.split_whitespace() {
            match self.peek_at(k) {
                Some(t) if t.is(w) => k += 1,
                _ => return 0,
            }
        }
        k
    }

    /// The head: a head word, an event (a triggered ability), or `instead` and an event.
    fn head(&mut self) -> R<(Head, bool)> {
        for (old, new) in self.v.head_aliases {
            let k = self.spells(old);
            if k > 0 {
                // Read the canonical head in place of the older one.
                let toks = lex(new).expect("a vocabulary's head alias lexes");
                let mut sub = Parser {
                    v: self.v,
                    toks: &toks,
                    pos: 0,
                    end_at: self.end_at,
                    ability: self.ability,
                    depth: self.depth,
                };
                let head = sub.head_canonical()?;
                self.pos += k;
                return Ok(head);
            }
        }
        self.head_canonical()
    }

    fn head_canonical(&mut self) -> R<(Head, bool)> {
        let Some(w) = self.word() else {
            return Err(self.err("expected the head of an ability", self.head_words()));
        };
        if let Some(k) = self.v.heads.iter().position(|h| h.word.is(w)) {
            self.pos += 1;
            let statics = self.v.heads[k].kind == HeadKind::Static;
            return Ok((Head::Word(k as u8), statics));
        }
        if w == "instead" {
            self.pos += 1;
            return Ok((Head::Instead(self.trigger()?), false));
        }
        if self.v.events.iter().any(|e| e.word.is(w)) {
            return Ok((Head::On(self.trigger()?), false));
        }
        Err(self.err("unknown trigger", self.head_words()))
    }

    fn head_words(&self) -> Vec<String> {
        let mut v: Vec<&str> = self.v.heads.iter().map(|h| h.word.name).collect();
        v.extend(self.v.events.iter().map(|e| e.word.name));
        v.push("instead");
        names(v)
    }

    fn trigger(&mut self) -> R<Trigger> {
        let v = self.v;
        let w = self.word().unwrap_or("");
        let Some(k) = self.v.events.iter().position(|e| e.word.is(w)) else {
            return Err(self.err(
                "expected an event",
                names(self.v.events.iter().map(|e| e.word.name)),
            ));
        };
        self.pos += 1;
        let ev: &EventWord = &self.v.events[k];
        let mut t = Trigger {
            event: k as u8,
            subject: None,
            side: Side::Any,
            phase: None,
            by: None,
            to: None,
        };
        if ev.side || ev.phase {
            t.side = self.side_word().unwrap_or(Side::Any);
        }
        if ev.phase {
            let w = self.word().unwrap_or("");
            match find(self.v.phases, w) {
                Some(p) => {
                    self.pos += 1;
                    t.phase = Some(p);
                }
                None => {
                    return Err(self.err(
                        "expected a phase or step",
                        names(self.v.phases.iter().map(|p| p.name)),
                    ))
                }
            }
        }
        let starts_cards = |p: &Self| {
            p.word().is_some_and(|w| {
                matches!(w, "own" | "enemy" | "self")
                    || v.find_noun(w).is_some()
                    || find(v.roles, w).is_some()
            })
        };
        if ev.subject && starts_cards(self) {
            // `self` is the default subject: one tree for one meaning.
            if !self.eat("self") {
                t.subject = Some(self.cards(Sel::None)?);
            }
        }
        if ev.by && self.eat("by") {
            t.by = Some(self.cards(Sel::None)?);
        }
        if ev.to && self.eat("to") {
            match self.word().and_then(|w| find(v.zones, w)) {
                Some(z) => {
                    self.pos += 1;
                    t.to = Some(z);
                }
                None => {
                    return Err(self.err("expected a zone", names(v.zones.iter().map(|z| z.name))))
                }
            }
        }
        Ok(t)
    }

    fn cost(&mut self) -> R<Cost> {
        let v = self.v;
        if let Some(t) = self.peek() {
            if t.kind == Tok::Num {
                if let Some(k) = v.costs.iter().position(|c| c.bare_number) {
                    let CostArg::Num(lo, hi) = v.costs[k].arg else {
                        unreachable!("a bare-number cost takes a number")
                    };
                    let n = self.num(lo, hi)?;
                    return Ok(Cost {
                        word: k as u8,
                        n: Some(n),
                        cards: None,
                    });
                }
            }
        }
        let w = self.word().unwrap_or("");
        let Some(k) = v.costs.iter().position(|c| c.word.is(w)) else {
            let mut exp = names(v.costs.iter().map(|c| c.word.name));
            exp.push("`once`".into());
            return Err(self.err("unknown cost", exp));
        };
        self.pos += 1;
        let mut c = Cost {
            word: k as u8,
            n: None,
            cards: None,
        };
        match v.costs[k].arg {
            CostArg::None => {}
            CostArg::Num(lo, hi) => c.n = Some(self.num(lo, hi)?),
            CostArg::Cards => c.cards = Some(self.cards(Sel::Required)?),
        }
        Ok(c)
    }

    /// A plain number in a range.
    fn num(&mut self, lo: i16, hi: i16) -> R<i16> {
        match self.peek() {
            Some(t) if t.kind == Tok::Num => {
                let n = t.num().unwrap_or(i64::MAX);
                if n < i64::from(lo) || n > i64::from(hi) {
                    return Err(self.err(
                        format!("{} is out of range {lo}..={hi}", t.text),
                        Vec::new(),
                    ));
                }
                self.pos += 1;
                Ok(n as i16)
            }
            _ => Err(self.err(format!("expected a number ({lo}..={hi})"), Vec::new())),
        }
    }

    fn side_word(&mut self) -> Option<Side> {
        if self.eat("own") {
            Some(Side::Own)
        } else if self.eat("enemy") {
            Some(Side::Enemy)
        } else {
            None
        }
    }

    /// A card set.
    fn cards(&mut self, sel: Sel) -> R<Cards> {
        let v = self.v;
        if let Some(k) = self.word().and_then(|w| find(v.roles, w)) {
            self.pos += 1;
            let filters = self.filters()?;
            // `attacked in adolla`: where the card is now (a role names a card that may have
            // left the Scene).
            let zone = self.zone_phrase()?;
            return Ok(Cards {
                pick: Pick::Role(k),
                side: Side::Any,
                noun: 0,
                filters,
                zone,
            });
        }
        if sel == Sel::Required && (self.at("self") || self.at("that")) {
            let pick = if self.eat("self") {
                Pick::This
            } else {
                self.pos += 1;
                Pick::That
            };
            let filters = self.filters()?;
            let zone = self.zone_phrase()?;
            return Ok(Cards {
                pick,
                filters,
                zone,
                ..Cards::this()
            });
        }
        let pick = match sel {
            Sel::None => Pick::Each,
            Sel::Required => {
                if self.eat("target") {
                    Pick::Choose { min: 1, max: 1 }
                } else if self.eat("all") {
                    Pick::All
                } else if self.eat("up_to") {
                    let n = self.num(1, 40)? as u8;
                    Pick::Choose { min: 0, max: n }
                } else if self.peek().is_some_and(|t| t.kind == Tok::Num && !t.signed) {
                    let n = self.num(1, 40)? as u8;
                    Pick::Choose { min: n, max: n }
                } else {
                    let mut exp = vec!["self", "that", "target", "all", "up_to"];
                    exp.extend(v.roles.iter().map(|r| r.name));
                    return Err(self.err("expected a card or cards", names(exp)));
                }
            }
        };
        let side = self.side_word().unwrap_or(Side::Any);
        let w = self.word().unwrap_or("");
        let Some((noun, _plural)) = v.find_noun(w) else {
            let mut exp: Vec<&str> = Vec::new();
            if side == Side::Any {
                exp.extend(["own", "enemy"]);
            }
            exp.extend(v.nouns.iter().flat_map(|n| [n.one, n.many]));
            return Err(self.err("expected what kind of card", names(exp)));
        };
        self.pos += 1;
        let mut filters = Vec::new();
        // Alternatives: `event/arts` is an EVENT or arts.
        if self.at("/") {
            filters.push(Filter::Noun(noun));
            while self.eat("/") {
                let w = self.word().unwrap_or("");
                let Some((k, _)) = v.find_noun(w) else {
                    return Err(self.err(
                        "expected another kind of card after `/`",
                        names(v.nouns.iter().map(|n| n.one)),
                    ));
                };
                self.pos += 1;
                filters.push(Filter::Noun(k));
            }
        }
        let noun = if filters.is_empty() {
            noun
        } else {
            match v.nouns.iter().position(|n| n.types == 0) {
                Some(g) => g as u8,
                None => {
                    return Err(self.err(
                        "this game has no noun for any card, so `/` cannot join kinds",
                        Vec::new(),
                    ))
                }
            }
        };
        filters.extend(self.filters()?);
        let zone = self.zone_phrase()?;
        // Filters may also follow the zone (`target own card in trail org=bracer`).
        filters.extend(self.filters()?);
        Ok(normalize(
            v,
            Cards {
                pick,
                side,
                noun,
                filters,
                zone,
            },
        ))
    }

    /// `in ZONE`, if written.
    fn zone_phrase(&mut self) -> R<Option<Id>> {
        let v = self.v;
        if !self.eat("in") {
            return Ok(None);
        }
        match self.word().and_then(|w| find(v.zones, w)) {
            Some(z) => {
                self.pos += 1;
                Ok(Some(z))
            }
            None => Err(self.err("expected a zone", names(v.zones.iter().map(|z| z.name)))),
        }
    }

    fn filters(&mut self) -> R<Vec<Filter>> {
        let v = self.v;
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if t.kind != Tok::Word {
                break;
            }
            let w = t.word.as_str();
            let eq_next = self.peek_at(1).is_some_and(|t| t.is("="));
            let cmp_next = self
                .peek_at(1)
                .and_then(|t| Cmp::ALL.iter().find(|(s, _)| t.is(s)).map(|(_, c)| *c));
            if let (Some(k), Some(c)) = (find(v.stats, w), cmp_next) {
                self.pos += 2;
                let n = match self.peek() {
                    Some(t) if t.kind == Tok::Num => {
                        t.num().unwrap_or(0).clamp(-32000, 32000) as i16
                    }
                    _ => {
                        return Err(self.err(
                            format!("expected a number after `{w}{}`", c.symbol()),
                            Vec::new(),
                        ))
                    }
                };
                self.pos += 1;
                out.push(Filter::Stat(k, c, n));
            } else if eq_next && (v.keyword_keys.contains(&w) || w == "not_has") {
                self.pos += 2;
                let kw = self.word().unwrap_or("");
                let Some(k) = find(v.keywords, kw) else {
                    return Err(
                        self.err("unknown keyword", names(v.keywords.iter().map(|k| k.name)))
                    );
                };
                self.pos += 1;
                out.push(Filter::Keyword(k, w != "not_has"));
            } else if eq_next && w == v.trait_key {
                self.pos += 2;
                match self.peek() {
                    Some(t) if t.kind == Tok::Word => {
                        out.push(Filter::Trait(t.word.clone()));
                        self.pos += 1;
                    }
                    _ => {
                        return Err(self.err(
                            format!("expected a name after `{}=`", v.trait_key),
                            Vec::new(),
                        ))
                    }
                }
            } else if eq_next && w == "name" {
                self.pos += 2;
                match self.peek() {
                    Some(t) if matches!(t.kind, Tok::Quoted | Tok::Word) => {
                        out.push(Filter::Name(t.text.clone()));
                        self.pos += 1;
                    }
                    _ => {
                        return Err(self.err(
                            "expected a card name after `name=` (in single quotes if it has spaces: name='Hale Marrick')",
                            Vec::new(),
                        ))
                    }
                }
            } else if w == "other" {
                self.pos += 1;
                out.push(Filter::Other);
            } else if w == "named" {
                self.pos += 1;
                out.push(Filter::Named);
            } else if w == "same_name" {
                self.pos += 1;
                out.push(Filter::SameName);
            } else if w == "those" {
                self.pos += 1;
                out.push(Filter::Those);
            } else if let Some(k) = find(v.flags, w) {
                self.pos += 1;
                out.push(Filter::Flag(k, true));
            } else if let Some(k) = w.strip_prefix("not_").and_then(|f| find(v.flags, f)) {
                self.pos += 1;
                out.push(Filter::Flag(k, false));
            } else if v.bare_traits.contains(&w) {
                self.pos += 1;
                out.push(Filter::Trait(w.to_string()));
            } else if let Some((k, false)) = v.find_noun(w).filter(|_| v.bare_nouns) {
                self.pos += 1;
                out.push(Filter::Noun(k));
            } else if eq_next || cmp_next.is_some() {
                let mut exp: Vec<String> =
                    v.stats.iter().map(|s| format!("`{}<=N`", s.name)).collect();
                exp.extend(v.keyword_keys.iter().map(|k| format!("`{k}=KEYWORD`")));
                exp.push(format!("`{}=NAME`", v.trait_key));
                exp.push("`name='CARD NAME'`".into());
                return Err(self.err("unknown filter", exp));
            } else {
                break;
            }
        }
        Ok(out)
    }

    /// A value: a number (signed when `signed`), `count CARDS`, a quantity, `x`; and `per …`.
    fn value(&mut self, lo: i16, hi: i16, signed: bool) -> R<Value> {
        let v = self.v;
        match self.peek() {
            Some(t) if t.kind == Tok::Num => {
                if signed && !t.signed {
                    return Err(self.err(
                        format!("expected a signed amount like +{0} or -{0}", t.text),
                        Vec::new(),
                    ));
                }
                let n = self.num(lo, hi)?;
                if self.eat("per") {
                    let of = self.value_atom()?;
                    let max = if self.eat("max") {
                        Some(self.num(lo.min(0), hi.max(0).saturating_mul(10))?)
                    } else {
                        None
                    };
                    return Ok(Value::Per {
                        each: n,
                        of: Box::new(of),
                        max,
                    });
                }
                Ok(Value::Num(n))
            }
            Some(t) if t.kind == Tok::Word && !signed => {
                let w = t.word.as_str();
                if w == "count"
                    || w == "x"
                    || find(v.quantities, w).is_some()
                    || find(v.stats, w).is_some()
                {
                    self.value_atom()
                } else {
                    Err(self.err(
                        format!("expected a number ({lo}..={hi})"),
                        self.value_words(),
                    ))
                }
            }
            _ => Err(self.err(
                if signed {
                    format!("expected a signed amount ({lo}..={hi}), like +1")
                } else {
                    format!("expected a number ({lo}..={hi})")
                },
                Vec::new(),
            )),
        }
    }

    fn value_words(&self) -> Vec<String> {
        let mut v = vec!["count", "x"];
        v.extend(self.v.quantities.iter().map(|q| q.name));
        names(v)
    }

    /// `count CARDS`, a quantity, `x`, or (after `per`) a card description.
    fn value_atom(&mut self) -> R<Value> {
        let v = self.v;
        if self.eat("x") {
            return Ok(Value::X(self.side_word().unwrap_or(Side::Any)));
        }
        if let Some(k) = self.word().and_then(|w| find(v.stats, w)) {
            let next = self.peek_at(1).map(|t| t.word.as_str()).unwrap_or("");
            if next == "self" || next == "that" || find(v.roles, next).is_some() {
                self.pos += 1;
                let c = self.cards(Sel::Required)?;
                return Ok(Value::Stat(k, Box::new(c)));
            }
        }
        if self.eat("count") {
            return Ok(Value::Count(Box::new(self.cards(Sel::None)?)));
        }
        if let Some(k) = self.word().and_then(|w| find(v.quantities, w)) {
            self.pos += 1;
            let side = self.side_word().unwrap_or(Side::Own);
            return Ok(Value::Quantity(k, side));
        }
        if self
            .word()
            .is_some_and(|w| matches!(w, "own" | "enemy") || v.find_noun(w).is_some())
        {
            return Ok(Value::Count(Box::new(self.cards(Sel::None)?)));
        }
        Err(self.err("expected what to count", self.value_words()))
    }

    fn cond(&mut self) -> R<Cond> {
        let first = self.cond_term()?;
        let op = if self.at("and") {
            "and"
        } else if self.at("or") {
            "or"
        } else {
            return Ok(first);
        };
        let mut all = vec![first];
        while self.eat(op) {
            all.push(self.cond_term()?);
        }
        if self.at("and") || self.at("or") {
            return Err(self.err("mixing `and` and `or`: use parentheses", Vec::new()));
        }
        Ok(if op == "and" {
            Cond::And(all)
        } else {
            Cond::Or(all)
        })
    }

    fn cond_term(&mut self) -> R<Cond> {
        let v = self.v;
        if self.eat("not") {
            return Ok(Cond::Not(Box::new(self.nested(Self::cond_term)?)));
        }
        if self.eat("(") {
            let c = self.nested(Self::cond)?;
            self.expect(")")?;
            return Ok(c);
        }
        if self.eat("any") {
            return Ok(Cond::Any(self.cards(Sel::None)?));
        }
        if self.eat("no") {
            return Ok(Cond::No(self.cards(Sel::None)?));
        }
        if self.at("that")
            || self.at("self")
            || self.v.roles.iter().any(|r| self.word() == Some(r.name))
        {
            // `that FILTERS`, `attacker FILTERS`: the card matches.
            let c = self.cards(Sel::Required)?;
            // With no filters: the card exists (`attacked`: a unit is attacked).
            return Ok(Cond::Any(c));
        }
        if let Some(k) = self.word().and_then(|w| find(v.conds, w)) {
            self.pos += 1;
            let side = self.side_word().unwrap_or(Side::Any);
            return Ok(Cond::Word(k, side));
        }
        let is_value = self.peek().is_some_and(|t| {
            t.kind == Tok::Num
                || (t.kind == Tok::Word
                    && (t.word == "count"
                        || t.word == "x"
                        || find(v.quantities, &t.word).is_some()
                        || find(v.stats, &t.word).is_some()))
        });
        if !is_value {
            let mut exp = vec!["not", "(", "any", "no", "that", "count", "x"];
            exp.extend(v.conds.iter().map(|c| c.name));
            exp.extend(v.quantities.iter().map(|q| q.name));
            return Err(self.err("expected a condition", names(exp)));
        }
        let a = self.value(-32000, 32000, false)?;
        let Some(c) = self
            .peek()
            .and_then(|t| Cmp::ALL.iter().find(|(s, _)| t.is(s)).map(|(_, c)| *c))
        else {
            return Err(self.err("expected a comparison", names(Cmp::ALL.map(|(s, _)| s))));
        };
        self.pos += 1;
        let b = self.value(-32000, 32000, false)?;
        Ok(Cond::Cmp(a, c, b))
    }

    fn stmts(&mut self, statics: bool) -> R<Vec<Stmt>> {
        let mut out = vec![self.stmt(statics)?];
        while self.eat(";") {
            out.push(self.stmt(statics)?);
        }
        Ok(out)
    }

    /// The body of `if`, `choose`, `may` or `later`: a statement, or statements in parentheses.
    fn group(&mut self, statics: bool) -> R<Vec<Stmt>> {
        self.nested(|p| {
            if p.eat("(") {
                let s = p.stmts(statics)?;
                p.expect(")")?;
                Ok(s)
            } else {
                Ok(vec![p.stmt(statics)?])
            }
        })
    }

    fn stmt(&mut self, statics: bool) -> R<Stmt> {
        if statics && (self.at("if") || self.at("choose") || self.at("may") || self.at("later")) {
            return Err(self.err(
                "a static ability's condition goes in its head: `static if COND: …`",
                Vec::new(),
            ));
        }
        if self.eat("if") {
            let c = self.cond()?;
            if !self.eat("then") {
                return Err(self.err("expected `then` after the condition", names(["then"])));
            }
            let a = self.group(statics)?;
            let b = if self.eat("else") {
                self.group(statics)?
            } else {
                Vec::new()
            };
            return Ok(Stmt::If(c, a, b));
        }
        if self.eat("choose") {
            let mut opts = vec![self.group(statics)?];
            while self.eat("or") {
                opts.push(self.group(statics)?);
            }
            if opts.len() < 2 {
                return Err(self.err(
                    "`choose` needs two or more options: `choose (A) or (B)`",
                    names(["or"]),
                ));
            }
            if opts.len() > 4 {
                return Err(self.err("`choose` has at most 4 options", Vec::new()));
            }
            return Ok(Stmt::Choose(opts));
        }
        if self.eat("later") {
            let t = self.trigger()?;
            self.expect(":")?;
            let a = self.group(statics)?;
            return Ok(Stmt::Later(t, a));
        }
        if self.eat("may") {
            let a = self.group(statics)?;
            let b = if self.eat("then") {
                self.group(statics)?
            } else {
                Vec::new()
            };
            return Ok(Stmt::May(a, b));
        }
        Ok(Stmt::Do(self.effect(statics)?))
    }

    /// Whether the next token ends an effect.
    fn at_boundary(&self) -> bool {
        match self.peek() {
            None => true,
            Some(t) => [";", ")", "else", "or", "then"].iter().any(|w| t.is(w)),
        }
    }

    fn effect(&mut self, statics: bool) -> R<Effect> {
        let table = self.v.verb_table(statics);
        let w = self.word().unwrap_or("");
        let start = self.pos;
        let named: Vec<&Verb> = table.iter().filter(|v| v.name == w).collect();
        let unnamed: Vec<&Verb> = table
            .iter()
            .filter(|v| !matches!(v.slots.first(), Some(Slot::Lit(_))) && v.name.is_empty())
            .collect();
        let candidates = if named.is_empty() { unnamed } else { named };
        if candidates.is_empty() {
            let mut exp: Vec<&str> = table
                .iter()
                .filter(|v| v.legacy.is_none() && !v.name.is_empty())
                .map(|v| v.name)
                .collect();
            exp.dedup();
            let what = if statics {
                "unknown static effect"
            } else {
                "unknown effect"
            };
            let mut exp = names(exp);
            if !statics {
                exp.extend(names(["if", "choose", "may", "later"]));
            }
            return Err(self.err(what, exp));
        }
        let mut best: Option<Error> = None;
        for verb in candidates {
            self.pos = start;
            if !verb.name.is_empty() {
                self.pos += 1;
            }
            match self.slots(verb) {
                Ok(mut e) if self.at_boundary() => {
                    if let Some(rewrite) = verb.legacy {
                        rewrite(&mut e);
                    }
                    return Ok(e);
                }
                Ok(_) => {
                    let e = self.err(
                        format!(
                            "unexpected \"{}\" after `{}`",
                            excerpt(self.peek().map(|t| t.text.as_str()).unwrap_or("")),
                            verb.name
                        ),
                        names([";"]),
                    );
                    best = Some(pick_further(best, e));
                }
                Err(e) => best = Some(pick_further(best, e)),
            }
        }
        Err(best.expect("at least one candidate"))
    }

    fn slots(&mut self, verb: &Verb) -> R<Effect> {
        let v = self.v;
        let mut e = Effect::new(verb.id);
        for slot in verb.slots {
            match *slot {
                Slot::Lit(l) => {
                    if !self.eat(l) {
                        return Err(
                            self.err(format!("`{}`: expected `{l}`", verb.name), names([l]))
                        );
                    }
                }
                Slot::Opt(l) => {
                    self.eat(l);
                }
                Slot::N(lo, hi) => e.n = Some(self.value(lo, hi, false)?),
                Slot::Signed(lo, hi) => e.n = Some(self.value(lo, hi, true)?),
                Slot::Stats(lo, hi) => {
                    e.n = Some(self.value(lo, hi, true)?);
                    if !self.eat("/") {
                        return Err(self.err(
                            format!(
                                "`{}`: expected a change of both stats like +2/+0",
                                verb.name
                            ),
                            Vec::new(),
                        ));
                    }
                    e.m = Some(self.value(lo, hi, true)?);
                }
                Slot::Cards => e.cards = Some(self.cards(Sel::Required)?),
                Slot::AllCards => {
                    let mut c = self.cards(Sel::None)?;
                    c.pick = Pick::All;
                    e.cards = Some(c);
                }
                Slot::FiltersIn(zone) => {
                    let filters = self.filters()?;
                    e.cards = Some(normalize(
                        v,
                        Cards {
                            pick: Pick::Choose { min: 1, max: 1 },
                            side: Side::Own,
                            noun: v.nouns.iter().position(|n| n.types == 0).unwrap_or(0) as u8,
                            filters,
                            zone: Some(zone),
                        },
                    ));
                }
                Slot::Side => match self.side_word() {
                    Some(s) => e.side = Some(s),
                    None => {
                        return Err(self.err(
                            format!("`{}`: expected `own` or `enemy`", verb.name),
                            names(["own", "enemy"]),
                        ))
                    }
                },
                Slot::SideOr(d) => e.side = Some(self.side_word().unwrap_or(d)),
                Slot::OptSide => {
                    e.side = Some(if self.eat("enemy") {
                        Side::Enemy
                    } else {
                        self.eat("own");
                        Side::Own
                    })
                }
                Slot::By => {
                    if self.eat("by") {
                        e.by = Some(self.cards(Sel::None)?);
                    }
                }
                Slot::Resource => {
                    let k = self.word().and_then(|w| find(v.resources, w));
                    match k {
                        Some(k) => {
                            self.pos += 1;
                            e.word = Some(k);
                        }
                        None => {
                            return Err(self.err(
                                "expected a resource",
                                names(v.resources.iter().map(|r| r.name)),
                            ))
                        }
                    }
                }
                Slot::Description => e.cards = Some(self.cards(Sel::None)?),
                Slot::Description2 => e.by = Some(self.cards(Sel::None)?),
                Slot::Keyword => {
                    let k = self.word().and_then(|w| find(v.keywords, w));
                    match k {
                        Some(k) => {
                            self.pos += 1;
                            e.word = Some(k);
                        }
                        None => {
                            return Err(self.err(
                                "expected a keyword",
                                names(v.keywords.iter().map(|k| k.name)),
                            ))
                        }
                    }
                }
                Slot::Prohibition => {
                    let k = self.word().and_then(|w| find(v.prohibitions, w));
                    match k {
                        Some(k) => {
                            self.pos += 1;
                            e.word = Some(k);
                        }
                        None => {
                            return Err(self.err(
                                "expected what is forbidden",
                                names(v.prohibitions.iter().map(|k| k.name)),
                            ))
                        }
                    }
                }
                Slot::Zone => {
                    let k = self.word().and_then(|w| find(v.zones, w));
                    match k {
                        Some(k) => {
                            self.pos += 1;
                            e.to = Some((k, Pos::Default));
                        }
                        None => {
                            return Err(
                                self.err("expected a zone", names(v.zones.iter().map(|z| z.name)))
                            )
                        }
                    }
                }
                Slot::Traits(lo, hi) => {
                    while e.traits.len() < hi as usize {
                        match self.peek() {
                            Some(t) if t.kind == Tok::Word && !self.at_boundary() => {
                                e.traits.push(t.word.clone());
                                self.pos += 1;
                            }
                            _ => break,
                        }
                    }
                    if e.traits.len() < lo as usize {
                        return Err(
                            self.err(format!("`{}`: expected {lo} names", verb.name), Vec::new())
                        );
                    }
                }
                Slot::To => {
                    if !self.eat("to") {
                        return Err(self.err(
                            format!("`{}`: expected `to ZONE`", verb.name),
                            names(["to"]),
                        ));
                    }
                    let k = self.word().and_then(|w| find(v.zones, w));
                    let Some(k) = k else {
                        return Err(
                            self.err("expected a zone", names(v.zones.iter().map(|z| z.name)))
                        );
                    };
                    self.pos += 1;
                    let pos = if self.eat("top") {
                        Pos::Top
                    } else if self.eat("bottom") {
                        Pos::Bottom
                    } else if let Some(p) = self.word().and_then(|w| find(v.placements, w)) {
                        self.pos += 1;
                        Pos::Word(p)
                    } else {
                        Pos::Default
                    };
                    e.to = Some((k, pos));
                }
                Slot::Dur => {
                    if let Some(k) = self.word().and_then(|w| find(v.durations, w)) {
                        self.pos += 1;
                        e.dur = Some(k);
                    }
                }
            }
        }
        Ok(e)
    }
}

/// A card set of the generic noun (`card`) with one noun written as a filter (`card attack`, older
/// TMNT texts) is that noun's set (`attack`): one tree for one meaning.
///
/// Nouns written as filters are alternatives (`event/arts`, TMNT's bare `character attack`): they
/// come first, each once, as the canonical form writes them, whatever order they were read in.
fn normalize(v: &Vocab, mut c: Cards) -> Cards {
    let mut nouns: Vec<Filter> = Vec::new();
    let mut rest = Vec::new();
    for f in c.filters {
        match f {
            Filter::Noun(_) if nouns.contains(&f) => {}
            Filter::Noun(_) => nouns.push(f),
            _ => rest.push(f),
        }
    }
    nouns.extend(rest);
    c.filters = nouns;
    if v.noun(c.noun).types == 0 {
        let nouns: Vec<usize> = (0..c.filters.len())
            .filter(|&i| matches!(c.filters[i], Filter::Noun(_)))
            .collect();
        if let [i] = nouns[..] {
            let Filter::Noun(k) = c.filters.remove(i) else {
                unreachable!("found above")
            };
            c.noun = k;
        }
    }
    c
}

/// Of two errors, the one that got further into the text (the likelier mistake).
fn pick_further(a: Option<Error>, b: Error) -> Error {
    match a {
        Some(a) if a.at >= b.at => a,
        _ => b,
    }
}
