//! A game's words as markdown tables (`tcgsim cards words`, and the word lists of
//! `docs/cards.md`, which the suite checks against this): the vocabulary documents itself, so the
//! documentation cannot drift from what the parser reads.

use super::vocab::{CostArg, HeadKind, Slot, Verb, Vocab, Word};

fn words(ws: &[Word]) -> String {
    ws.iter()
        .map(|w| {
            let mut s = format!("`{}`", w.name);
            if !w.aliases.is_empty() {
                s.push_str(&format!(
                    " (also {})",
                    w.aliases
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The pattern of a verb, as written in the canonical form.
pub fn pattern(v: &Vocab, verb: &Verb) -> String {
    let mut out: Vec<String> = Vec::new();
    if !verb.name.is_empty() {
        out.push(verb.name.into());
    }
    for s in verb.slots {
        out.push(match *s {
            Slot::Lit(l) => l.into(),
            Slot::Opt(l) => format!("[{l}]"),
            Slot::N(lo, hi) => format!("N ({lo}..{hi})"),
            Slot::Signed(lo, hi) => format!("±N ({lo}..{hi})"),
            Slot::Stats(lo, hi) => format!("±S/±D ({lo}..{hi})"),
            Slot::Cards => "CARDS".into(),
            Slot::AllCards => "[own|enemy] NOUNS FILTERS".into(),
            Slot::FiltersIn(z) => format!("FILTERS (a card in {})", v.zones[z as usize].name),
            Slot::Side => "own|enemy".into(),
            Slot::SideOr(_) | Slot::OptSide => "[enemy]".into(),
            Slot::Resource => "RESOURCE".into(),
            Slot::Description | Slot::Description2 => "DESCRIPTION".into(),
            Slot::By => "[by DESCRIPTION]".into(),
            Slot::Keyword => "KEYWORD".into(),
            Slot::Prohibition => "WHAT".into(),
            Slot::Zone => "ZONE".into(),
            Slot::Traits(lo, hi) if lo == hi => format!("{lo} × {}", v.trait_key.to_uppercase()),
            Slot::Traits(lo, hi) => format!("{lo}..{hi} × {}", v.trait_key.to_uppercase()),
            Slot::To => "to ZONE [top|bottom|PLACEMENT]".into(),
            Slot::Dur => "[DURATION]".into(),
        });
    }
    out.join(" ")
}

fn verbs(v: &Vocab, table: &[Verb]) -> String {
    let mut s = String::from("| pattern | means |\n|---|---|\n");
    for verb in table.iter().filter(|x| x.legacy.is_none()) {
        s.push_str(&format!(
            "| `{}` | {} |\n",
            pattern(v, verb),
            en_dur(verb.en)
                .replace("{cards}", "CARDS")
                .replace("{n}", "N")
                .replace("{less:CP}", "N CP less (or more)")
                .replace("{less}", "N less (or more)")
                .replace("{m}", "D")
                .replace("{side}", "the player")
                .replace("{sides}", "the player's")
                .replace("{word}", "WORD")
                .replace("{traits}", "ORG and ORG")
                .replace("{to}", "into its owner's ZONE")
                .replace("{zone}", "ZONE")
                .replace("{by}", " (by DESCRIPTION)")
                .replace("{as}", "DESCRIPTION")
                .replace("{dur}", " (or for DURATION)")
                .replace("{s}", "(s)")
                .replace("{v}", "")
                .replace("{has}", "have")
                .replace('|', "\\|")
        ));
    }
    s
}

/// A verb's English with its default duration said: `{dur:until end of turn}` reads " until end
/// of turn (or for DURATION)".
fn en_dur(en: &str) -> String {
    let mut s = en.to_string();
    while let Some(at) = s.find("{dur:") {
        let Some(len) = s[at..].find('}') else { break };
        let said = format!(" {} (or for DURATION)", &s[at + 5..at + len]);
        s.replace_range(at..=at + len, &said);
    }
    s
}

/// Older spellings still read, as `old → new` lines.
fn legacy(v: &Vocab) -> Vec<String> {
    let mut out = Vec::new();
    for (old, new) in v.head_aliases {
        out.push(format!("`{old}:` → `{new}:`"));
    }
    for (statics, table) in [(false, v.verbs), (true, v.statics)] {
        for verb in table.iter().filter(|x| x.legacy.is_some()) {
            let canon = v.verb(statics, verb.id);
            out.push(format!("`{}` → `{}`", pattern(v, verb), pattern(v, canon)));
        }
    }
    out
}

/// The vocabulary of a game as markdown.
pub fn tables(v: &Vocab) -> String {
    let mut s = String::new();
    let heads = |k: HeadKind| -> String {
        v.heads
            .iter()
            .filter(|h| h.kind == k)
            .map(|h| format!("`{}`", h.word.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    s.push_str("| part | words |\n|---|---|\n");
    s.push_str(&format!(
        "| ways to play a card | {} |\n",
        heads(HeadKind::Play)
    ));
    s.push_str(&format!(
        "| activated abilities | {} |\n",
        heads(HeadKind::Act)
    ));
    let events: Vec<String> = v
        .events
        .iter()
        .map(|e| {
            let mut x = format!("`{}", e.word.name);
            if e.side {
                x.push_str(" [own|enemy]");
            }
            if e.phase {
                x.push_str(" [own|enemy] PHASE");
            }
            if e.subject {
                x.push_str(" [SUBJECT]");
            }
            if e.by {
                x.push_str(" [by DESCRIPTION]");
            }
            if e.to {
                x.push_str(" [to ZONE]");
            }
            x.push('`');
            if !e.word.aliases.is_empty() {
                x.push_str(&format!(
                    " (also {})",
                    e.word
                        .aliases
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            x
        })
        .collect();
    s.push_str(&format!("| events | {} |\n", events.join(", ")));
    let costs: Vec<String> = v
        .costs
        .iter()
        .map(|c| match c.arg {
            CostArg::None => format!("`{}`", c.word.name),
            CostArg::Num(..) if c.bare_number => format!("`{} N` (or `N`)", c.word.name),
            CostArg::Num(..) => format!("`{} N`", c.word.name),
            CostArg::Cards => format!("`{} CARDS`", c.word.name),
        })
        .collect();
    let rows: [(&str, String); 16] = [
        ("costs", costs.join(", ")),
        ("phases and steps", words(v.phases)),
        ("zones (`in ZONE`, `to ZONE`)", words(v.zones)),
        ("placements (`to ZONE …`)", words(v.placements)),
        ("resources", words(v.resources)),
        (
            "nouns",
            v.nouns
                .iter()
                .map(|n| format!("`{}`/`{}`", n.one, n.many))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ("roles", words(v.roles)),
        ("stats (`STAT<=N`, `STAT CARD`)", words(v.stats)),
        ("flags (`not_FLAG` negates)", words(v.flags)),
        (
            "keywords",
            if v.keywords.is_empty() {
                String::new()
            } else {
                format!(
                    "{} — filter {}",
                    words(v.keywords),
                    v.keyword_keys
                        .iter()
                        .map(|k| format!("`{k}=KEYWORD`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            },
        ),
        (
            "organization / attribute filter",
            format!("`{}=NAME`", v.trait_key),
        ),
        ("quantities (`QUANTITY [enemy]`)", words(v.quantities)),
        ("condition words", words(v.conds)),
        ("durations", words(v.durations)),
        ("prohibitions (`cant … WHAT`)", words(v.prohibitions)),
        ("older spellings still read", legacy(v).join("; ")),
    ];
    for (k, x) in rows {
        if !x.is_empty() {
            s.push_str(&format!("| {k} | {x} |\n"));
        }
    }
    s.push_str("\nEffects:\n\n");
    s.push_str(&verbs(v, v.verbs));
    s.push_str("\nStatic effects (after `static:`):\n\n");
    s.push_str(&verbs(v, v.statics));
    s
}
