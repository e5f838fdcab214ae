//! The grammar every game's effect language shares (`docs/cards.md`): a card's abilities are
//! separated by `|`; an ability is `TRIGGER[COST]: EFFECT; EFFECT; …`; a target is `self`,
//! `target [own|enemy] unit FILTERS` or `all [own|enemy] units FILTERS`. Each game reads the
//! words — its triggers, costs, effects and filters — with its own vocabulary on top of this.

pub use super::lang::ast::Side;

/// How a target is picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetMode {
    /// The card the ability belongs to.
    This,
    /// One card chosen by the controller when the effect resolves.
    Choose,
    /// Every card that matches.
    All,
}

/// One ability as written: its number (from 1), the trigger word (lower case), the text inside
/// the brackets after it, and its effects' texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawAbility<'a> {
    pub number: usize,
    pub text: &'a str,
    pub trigger: String,
    pub cost: Option<&'a str>,
    pub effects: Vec<&'a str>,
}

impl RawAbility<'_> {
    /// `message` prefixed with the ability it is about, as every effect-language error is.
    pub fn error(&self, message: impl std::fmt::Display) -> String {
        format!("ability {} \"{}\": {message}", self.number, self.text)
    }
}

/// Splits an effect cell into its abilities (none for a blank cell).
pub fn abilities(text: &str) -> Result<Vec<RawAbility<'_>>, String> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return Ok(out);
    }
    for (n, ability) in text.split('|').enumerate() {
        let ability = ability.trim();
        let err = |m: &str| format!("ability {} \"{ability}\": {m}", n + 1);
        let (head, body) = ability
            .split_once(':')
            .ok_or_else(|| err("expected `trigger: effect`"))?;
        let head = head.trim();
        let (trigger, cost) = match head.split_once('[') {
            Some((t, rest)) => {
                let inner = rest
                    .trim_end()
                    .strip_suffix(']')
                    .ok_or_else(|| err("missing `]` after the cost"))?;
                (t.trim(), Some(inner.trim()))
            }
            None => (head, None),
        };
        out.push(RawAbility {
            number: n + 1,
            text: ability,
            trigger: trigger.to_ascii_lowercase(),
            cost,
            effects: body.split(';').map(str::trim).collect(),
        });
    }
    Ok(out)
}

/// A whole number in `min..=max` (a leading `+` allowed).
pub fn num(s: &str, min: i32, max: i32) -> Result<i32, String> {
    let v: i32 = s
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("\"{s}\" is not a number"))?;
    if v < min || v > max {
        return Err(format!("{s} is out of range {min}..={max}"));
    }
    Ok(v)
}

/// `own` or `enemy`.
pub fn side_word(w: &str) -> Option<Side> {
    match w {
        "own" => Some(Side::Own),
        "enemy" => Some(Side::Enemy),
        _ => None,
    }
}

/// A target at the start of `words`, with `noun` the game's word for what it names (`unit`):
/// its mode and side, its filter words (up to the first word `ends_filters` accepts, or the end)
/// and the words after them. `expect` is the game's own description of its targets, for errors.
#[allow(clippy::type_complexity)]
pub fn target<'w, 'a>(
    words: &'w [&'a str],
    noun: &str,
    expect: &str,
    ends_filters: impl Fn(&str) -> bool,
) -> Result<(TargetMode, Side, &'w [&'a str], &'w [&'a str]), String> {
    match words {
        ["self", rest @ ..] => Ok((TargetMode::This, Side::Own, &[], rest)),
        [mode @ ("target" | "all"), rest @ ..] => {
            let (side, rest) = match rest.first().and_then(|w| side_word(w)) {
                Some(s) => (s, &rest[1..]),
                None => (Side::Any, rest),
            };
            let want = if *mode == "target" {
                noun.to_string()
            } else {
                format!("{noun}s")
            };
            match rest.first() {
                Some(w) if *w == want => {}
                _ => return Err(format!("{expect}: missing `{want}`")),
            }
            let rest = &rest[1..];
            let n = rest
                .iter()
                .position(|w| ends_filters(w))
                .unwrap_or(rest.len());
            let mode = if *mode == "target" {
                TargetMode::Choose
            } else {
                TargetMode::All
            };
            Ok((mode, side, &rest[..n], &rest[n..]))
        }
        _ => Err(expect.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abilities_split_into_trigger_cost_and_effects() {
        let a = abilities("Enter: draw 1; plan 2 | act[ep 1]: ko self").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].trigger, "enter");
        assert_eq!(a[0].cost, None);
        assert_eq!(a[0].effects, vec!["draw 1", "plan 2"]);
        assert_eq!(a[1].number, 2);
        assert_eq!(a[1].cost, Some("ep 1"));
        assert!(abilities("  ").unwrap().is_empty());
        let e = abilities("enter draw 1").unwrap_err();
        assert!(
            e.contains("ability 1") && e.contains("trigger: effect"),
            "{e}"
        );
        let e = abilities("x: y | act[ep 1: z").unwrap_err();
        assert!(e.contains("ability 2") && e.contains("missing `]`"), "{e}");
    }

    #[test]
    fn targets_name_mode_side_and_filters() {
        let w = ["target", "enemy", "unit", "cost<=2", "+1/+0"];
        let (m, s, f, rest) = target(&w, "unit", "E", |x| x.contains('/')).unwrap();
        assert_eq!((m, s), (TargetMode::Choose, Side::Enemy));
        assert_eq!((f, rest), (&["cost<=2"][..], &["+1/+0"][..]));
        let w = ["all", "units"];
        let (m, s, f, rest) = target(&w, "unit", "E", |_| false).unwrap();
        assert_eq!((m, s), (TargetMode::All, Side::Any));
        assert!(f.is_empty() && rest.is_empty());
        assert_eq!(
            target(&["all", "unit"], "unit", "E", |_| false).unwrap_err(),
            "E: missing `units`"
        );
        assert_eq!(target(&["me"], "unit", "E", |_| false).unwrap_err(), "E");
        assert_eq!(num("+3", 0, 5), Ok(3));
        assert!(num("9", 0, 5).unwrap_err().contains("out of range"));
    }
}
