//! The effect language of the card file (documented with an example per primitive in
//! `docs/cards.md`). Abilities are separated by `|`; an ability is `trigger[cost]: effect; effect`.
//! Parsing happens once at load; the engine only sees the enums of [`super::effects`].

use super::effects::{
    Ability, CraftCost, Effect, Filter, Icons, OrgNames, Side, StaticEffect, Target, Trigger,
};
use crate::core::dsl::{self, num};

pub struct Parsed {
    pub abilities: Vec<Ability>,
    pub statics: Vec<StaticEffect>,
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
    }
}

const TRIGGERS: &str = "enter, attack, defend, stuns, event, arts, act[COST], static";

/// Parses a whole effect cell. Errors say which ability and what was expected. Organization names
/// become bits through `orgs` (the card database, which adds a name the first time it is met).
/// The grammar (abilities, costs in brackets, targets) is the one all games share
/// (`crate::core::dsl`); the words are the Trails TCG's.
pub fn parse_effects(text: &str, orgs: &mut dyn OrgNames) -> Result<Parsed, String> {
    let mut out = Parsed {
        abilities: Vec::new(),
        statics: Vec::new(),
    };
    for raw in dsl::abilities(text)? {
        let ctx = |m: String| raw.error(m);
        let cost = match raw.cost {
            Some(c) => Some(parse_cost(c).map_err(ctx)?),
            None => None,
        };
        if raw.trigger == "static" {
            if cost.is_some() {
                return Err(ctx("a static ability has no cost".into()));
            }
            for eff in &raw.effects {
                out.statics.push(parse_static(eff, orgs).map_err(ctx)?);
            }
            continue;
        }
        let trigger = match raw.trigger.as_str() {
            "enter" => Trigger::Enter,
            "attack" => Trigger::Attack,
            "defend" => Trigger::Defend,
            "stuns" => Trigger::Stuns,
            "event" => Trigger::Event,
            "arts" => Trigger::Arts,
            "act" => Trigger::Act,
            other => {
                return Err(ctx(format!(
                    "unknown trigger \"{other}\" (expected one of: {TRIGGERS})"
                )))
            }
        };
        if (trigger == Trigger::Act) != cost.is_some() {
            return Err(ctx(if cost.is_some() {
                "only `act` has a cost in brackets".into()
            } else {
                "`act` needs a cost, e.g. `act[self_action]` or `act[ep 1]`".into()
            }));
        }
        let mut effects = Vec::new();
        for eff in &raw.effects {
            effects.push(parse_effect(eff, orgs).map_err(ctx)?);
        }
        out.abilities.push(Ability {
            trigger,
            cost: cost.unwrap_or_default(),
            effects,
        });
    }
    Ok(out)
}

fn parse_cost(s: &str) -> Result<CraftCost, String> {
    let mut cost = CraftCost::default();
    for part in s.split(',').map(str::trim) {
        let words: Vec<&str> = part.split_whitespace().collect();
        match words.as_slice() {
            ["self_action"] => cost.self_action = true,
            ["ep", n] => cost.ep = num(n, 0, 20)? as u8,
            _ => {
                return Err(format!(
                    "unknown cost \"{part}\" (expected `self_action` or `ep N`)"
                ))
            }
        }
    }
    if !cost.self_action && cost.ep == 0 {
        return Err("a craft needs a cost".into());
    }
    Ok(cost)
}

/// `+S/+D` with signs.
fn parse_stats(s: &str) -> Result<(i8, i8), String> {
    let (a, b) = s
        .split_once('/')
        .ok_or_else(|| format!("\"{s}\": expected a change of stats like +2/+0"))?;
    Ok((num(a, -20, 20)? as i8, num(b, -20, 20)? as i8))
}

fn parse_icon(s: &str) -> Result<Icons, String> {
    Icons::parse(s).ok_or_else(|| {
        format!(
            "unknown icon \"{s}\" (expected one of: {})",
            Icons::NAMES.map(|(n, _)| n).join(", ")
        )
    })
}

fn parse_filters(words: &[&str], orgs: &mut dyn OrgNames) -> Result<Filter, String> {
    let mut f = Filter::default();
    for w in words {
        match *w {
            "ready" => f.ready = Some(true),
            "actioned" => f.ready = Some(false),
            "other" => f.other = true,
            _ => {
                if let Some(v) = w.strip_prefix("org=") {
                    f.org |= orgs.org_bit(v)?;
                } else if let Some(v) = w.strip_prefix("icon=") {
                    f.icon = f.icon.union(parse_icon(v)?);
                } else if let Some(v) = w.strip_prefix("cost<=") {
                    f.cost_max = Some(num(v, 0, 99)? as u8);
                } else if let Some(v) = w.strip_prefix("cost>=") {
                    f.cost_min = Some(num(v, 0, 99)? as u8);
                } else if let Some(v) = w.strip_prefix("str<=") {
                    f.str_max = Some(num(v, -99, 99)? as i8);
                } else if let Some(v) = w.strip_prefix("str>=") {
                    f.str_min = Some(num(v, -99, 99)? as i8);
                } else if let Some(v) = w.strip_prefix("def<=") {
                    f.def_max = Some(num(v, -99, 99)? as i8);
                } else if let Some(v) = w.strip_prefix("def>=") {
                    f.def_min = Some(num(v, -99, 99)? as i8);
                } else {
                    return Err(format!(
                        "unknown filter \"{w}\" (expected cost<=N, cost>=N, str<=N, str>=N, def<=N, def>=N, org=X, icon=X, ready, actioned, other)"
                    ));
                }
            }
        }
    }
    Ok(f)
}

/// Parses a target at the start of `words` (the shared grammar, `crate::core::dsl::target`);
/// returns it and the words after it.
fn parse_target<'a>(
    words: &'a [&'a str],
    orgs: &mut dyn OrgNames,
) -> Result<(Target, &'a [&'a str]), String> {
    const EXPECT: &str = "expected a target: `self`, `target [own|enemy] unit [filters]` or `all [own|enemy] units [filters]`";
    // Filters run to the end, except a trailing stat change or icon (buff/grant).
    let (mode, side, filters, rest) = dsl::target(words, "unit", EXPECT, |w| {
        w.contains('/') || Icons::parse(w).is_some()
    })?;
    Ok((
        Target {
            mode,
            side,
            filter: parse_filters(filters, orgs)?,
        },
        rest,
    ))
}

fn parse_effect(s: &str, orgs: &mut dyn OrgNames) -> Result<Effect, String> {
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let no_rest = |rest: &[&str], what: &str| {
        if rest.is_empty() {
            Ok(())
        } else {
            Err(format!("unexpected \"{}\" after {what}", rest.join(" ")))
        }
    };
    match words.as_slice() {
        [] => Err("empty effect".into()),
        ["draw", n] => Ok(Effect::Draw(num(n, 1, 10)? as u8)),
        ["plan", n] => Ok(Effect::Plan(num(n, 1, 8)? as u8)),
        ["rebuild"] => Ok(Effect::Rebuild),
        ["homebase_top"] => Ok(Effect::HomebaseTop),
        ["bond", side, n] => {
            let side = match *side {
                "self" => Side::Own,
                "opp" => Side::Enemy,
                _ => return Err(format!("bond: expected `self` or `opp`, found \"{side}\"")),
            };
            if !n.starts_with(['+', '-']) {
                return Err(format!("bond: expected a signed amount like -3 or +2, found \"{n}\""));
            }
            Ok(Effect::Bond {
                side,
                delta: num(n, -40, 40)? as i8,
            })
        }
        [verb @ ("stun" | "ko" | "ready" | "action" | "support" | "bounce"), rest @ ..] => {
            let (t, rest) = parse_target(rest, orgs)?;
            no_rest(rest, "the target")?;
            Ok(match *verb {
                "stun" => Effect::Stun(t),
                "ko" => Effect::Ko(t),
                "ready" => Effect::Ready(t),
                "action" => Effect::Action(t),
                "support" => Effect::Support(t),
                _ => Effect::Bounce(t),
            })
        }
        ["buff", rest @ ..] => {
            let (t, rest) = parse_target(rest, orgs)?;
            match rest {
                [stats] => {
                    let (a, b) = parse_stats(stats)?;
                    Ok(Effect::Buff(t, a, b))
                }
                _ => Err("buff: expected `buff TARGET +S/+D`".into()),
            }
        }
        ["grant", rest @ ..] => {
            let (t, rest) = parse_target(rest, orgs)?;
            match rest {
                [icon] => Ok(Effect::Grant(t, parse_icon(icon)?)),
                _ => Err("grant: expected `grant TARGET ICON`".into()),
            }
        }
        [w, ..] => Err(format!(
            "unknown effect \"{w}\" (expected draw, plan, rebuild, homebase_top, bond, stun, ko, ready, action, support, bounce, buff, grant)"
        )),
    }
}

fn parse_static(s: &str, orgs: &mut dyn OrgNames) -> Result<StaticEffect, String> {
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.as_slice() {
        ["link", a, b] => {
            let bits = orgs.org_bit(a)? | orgs.org_bit(b)?;
            if bits.count_ones() != 2 {
                return Err("link: name two different organizations".into());
            }
            Ok(StaticEffect::Link(bits))
        }
        [side @ ("own" | "enemy"), "units", rest @ ..] if !rest.is_empty() => {
            let side = dsl::side_word(side).expect("matched");
            let (last, filters) = rest.split_last().expect("non-empty");
            let filter = parse_filters(filters, orgs)?;
            if last.contains('/') {
                let (a, b) = parse_stats(last)?;
                Ok(StaticEffect::Stats {
                    side,
                    filter,
                    str: a,
                    def: b,
                })
            } else {
                Ok(StaticEffect::Grant {
                    side,
                    filter,
                    icons: parse_icon(last)?,
                })
            }
        }
        _ => Err(format!(
            "static \"{s}\": expected `own|enemy units [filters] +S/+D`, `own|enemy units [filters] ICON` or `link ORG ORG`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::CardDb;
    use super::super::effects::TargetMode;
    use super::*;

    fn parse(s: &str) -> Result<Parsed, String> {
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
                ep: 1
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
            Effect::Buff(t, 2, -1) => assert_eq!(t.filter.icon, Icons::COVERT),
            ref e => panic!("{e:?}"),
        }
        assert_eq!(p.statics.len(), 4);
        assert!(matches!(p.statics[3], StaticEffect::Link(b) if b.count_ones() == 2));
    }

    #[test]
    fn errors_name_the_ability_and_the_problem() {
        let e = parse("enter: draw 1 | fly: draw 2").err().unwrap();
        assert!(
            e.contains("ability 2") && e.contains("unknown trigger \"fly\""),
            "{e}"
        );
        let e = parse("act: draw 1").err().unwrap();
        assert!(e.contains("needs a cost"), "{e}");
        let e = parse("enter: stun target enemy unit cost<x").err().unwrap();
        assert!(e.contains("unknown filter"), "{e}");
        let e = parse("enter: bond opp 3").err().unwrap();
        assert!(e.contains("signed"), "{e}");
        let e = parse("enter: buff self +2").err().unwrap();
        assert!(e.contains("+2/+0"), "{e}");
        let e = parse("static: link police police").err().unwrap();
        assert!(e.contains("two different"), "{e}");
        let e = parse("enter: teleport").err().unwrap();
        assert!(e.contains("unknown effect"), "{e}");
        let e = parse("enter draw 1").err().unwrap();
        assert!(e.contains("trigger: effect"), "{e}");
    }
}
