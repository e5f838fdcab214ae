//! The frame of a scenario file (`docs/scenario.md`) that Fire Force and TMNT share: the header's
//! `KEY: VALUE` lines, the `[actions]`, `[expect]` and `[position]` sections, each seat's card
//! lists, playing the actions around the written position, checking the expectations, and the
//! JSON view of the final state. A game brings what is its own through closures: its header keys,
//! its `[position]` editor, its expectation keys and its view of one seat. Nothing here names a
//! game.

use super::def::{legal_membership, legal_texts, play_actions, GameDef, ScenarioReport};
use super::input::{excerpt, norm, read_text, strip_comment, MAX_TEXT_BYTES};
use super::Reason;
use super::{InputError, Outcome, Seat};
use std::path::Path;

/// A problem at line `line` of scenario `file` (0 for the file as a whole: `file: msg`).
pub fn problem(file: &str, line: usize, msg: impl std::fmt::Display) -> InputError {
    InputError::new(file, line, msg.to_string())
}

/// A scenario file read into its parts.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    /// `first: P1|P2`, the seat that begins (P1 when not given).
    pub first: Seat,
    /// The `[actions]` lines: line number and text.
    pub actions: Vec<(usize, String)>,
    /// The `[expect]` lines: line number, key and value.
    pub expects: Vec<(usize, String, String)>,
    /// `[position]`: the line of its header, and how many actions come before it.
    pub position: Option<(usize, usize)>,
    /// The `[position]` lines: line number, key and value (the game's editor reads them).
    pub pos: Vec<(usize, String, String)>,
}

/// Reads a scenario's `text` (of `file`): `#` comments cut, blank lines skipped; the sections
/// `[actions]`, `[expect]` and `[position]` (at most once); before them the header's
/// `KEY: VALUE` lines, of which `game` is skipped, `first` read, and every other one handed to
/// `header(line, key, value)` in the order of the file (its error is the scenario's).
pub fn read_sections(
    text: &str,
    file: &str,
    mut header: impl FnMut(usize, &str, &str) -> Result<(), InputError>,
) -> Result<Sections, InputError> {
    let lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, strip_comment(l)))
        .filter(|(_, l)| !l.is_empty());
    let mut section = "";
    let mut sc = Sections::default();
    for (n, l) in lines {
        if l.starts_with('[') {
            section = match l {
                "[actions]" => "actions",
                "[expect]" => "expect",
                "[position]" => {
                    if sc.position.is_some() {
                        return Err(problem(file, n, "[position] given twice"));
                    }
                    sc.position = Some((n, sc.actions.len()));
                    "position"
                }
                _ => return Err(problem(file, n, format!("unknown section {}", excerpt(l)))),
            };
            continue;
        }
        if section == "actions" {
            sc.actions.push((n, l.to_string()));
            continue;
        }
        let (k, v) = l.split_once(':').ok_or_else(|| {
            problem(
                file,
                n,
                format!("expected KEY: VALUE, found \"{}\"", excerpt(l)),
            )
        })?;
        let (k, v) = (k.trim(), v.trim());
        if section == "expect" {
            sc.expects.push((n, k.to_string(), v.to_string()));
            continue;
        }
        if section == "position" {
            sc.pos.push((n, k.to_string(), v.to_string()));
            continue;
        }
        match k {
            "game" => {}
            "first" => {
                sc.first = Seat::from_name(v).ok_or_else(|| problem(file, n, "first: P1 or P2"))?
            }
            _ => header(n, k, v)?,
        }
    }
    Ok(sc)
}

/// The header key `cards: FILE` (relative to the scenario's folder `dir`): the card file read
/// with `parse` into `db`, unless the caller gave one (`db` already set).
pub fn load_cards<D>(
    db: &mut Option<D>,
    dir: &Path,
    v: &str,
    parse: impl FnOnce(&str, &str) -> Result<D, InputError>,
) -> Result<(), InputError> {
    if db.is_none() {
        let path = dir.join(v);
        let t = read_text(&path, MAX_TEXT_BYTES)?;
        *db = Some(parse(&t, &path.display().to_string())?);
    }
    Ok(())
}

/// A per-seat header line (a deck list): `slot` is where key `k` of line `n` goes (`None` for a
/// key the game does not know); each is given once.
pub fn put_line(
    slot: Option<&mut Option<(usize, String)>>,
    file: &str,
    n: usize,
    k: &str,
    v: &str,
) -> Result<(), InputError> {
    let slot = slot.ok_or_else(|| problem(file, n, format!("unknown key \"{}\"", excerpt(k))))?;
    if slot.is_some() {
        return Err(problem(file, n, format!("{k}: given twice")));
    }
    *slot = Some((n, v.to_string()));
    Ok(())
}

/// The cards of a per-seat list line (`CARD, 3*CARD, …`, looked up by `lookup`) and its line;
/// `missing` is the error when the line was not given.
pub fn listed(
    line: &Option<(usize, String)>,
    file: &str,
    missing: impl FnOnce() -> String,
    lookup: impl Fn(&str) -> Result<u8, Reason>,
) -> Result<(usize, Vec<u8>), InputError> {
    let (n, v) = line.as_ref().ok_or_else(|| problem(file, 0, missing()))?;
    let ids = super::input::card_list(v, lookup).map_err(|e| problem(file, *n, e))?;
    Ok((*n, ids))
}

/// The cards a value names, each as the forms it may be read as ([`ExpectRules::names`]).
pub type CardForms = Vec<Vec<String>>;

/// What a game's expectations may say, checked when its scenario is read, before a game is
/// played ([`play_and_check`]): the values of its keys that come from a fixed set, and the card
/// names of those that name cards.
pub struct ExpectRules<'a> {
    /// The values of `reason` (`none` among them).
    pub reasons: &'a [&'a str],
    /// The values of `step`: every decision's name the game's view writes.
    pub steps: &'a [&'a str],
    /// The cards that the value `v` of key `key` (its words) names, as the game's view writes
    /// them (a card's label, `NAME` or `NAME [NUMBER]`, `#K` after it where a zone holds several),
    /// each with the other forms it may be read as (its text without a trailing number, which
    /// may be a power); `None` when the key names no card.
    pub names: &'a dyn Fn(&[&str], &str) -> Option<CardForms>,
    /// Looks up a card by its name or number (the game's card file; its reason names the
    /// nearest card of a misspelt name).
    pub lookup: &'a dyn Fn(&str) -> Result<u8, Reason>,
}

/// Whether `label` is a card as a view writes it ([`ExpectRules::names`]): a name or number
/// `lookup` knows, with `#K` after it or not, or `NAME [NUMBER]` (each form tried whole first, so
/// a card whose name ends so is found). Else the lookup's reason for the name without those
/// marks (with the nearest card's name when one is near).
pub fn card_label_ok(
    label: &str,
    lookup: &dyn Fn(&str) -> Result<u8, Reason>,
) -> Result<(), String> {
    let whole = label.trim();
    let bare = match whole.rsplit_once('#') {
        Some((a, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => a.trim_end(),
        _ => whole,
    };
    let number = bare
        .strip_suffix(']')
        .and_then(|x| x.rsplit_once(" ["))
        .map(|(_, n)| n);
    if [Some(whole), Some(bare), number]
        .into_iter()
        .flatten()
        .any(|k| lookup(k).is_ok())
    {
        return Ok(());
    }
    let key = number.unwrap_or(bare);
    lookup(key).map(|_| ()).map_err(|e| e.0)
}

/// `x` without the word `suffix` at its end, ignoring case (`+flame` is `+Flame`), if it ends so.
pub fn strip_word(x: &str, suffix: &str) -> Option<String> {
    let x = x.trim_end();
    let cut = x.len().checked_sub(suffix.len())?;
    (x.is_char_boundary(cut) && x[cut..].eq_ignore_ascii_case(suffix) && x[..cut].ends_with(' '))
        .then(|| x[..cut].trim_end().to_string())
}

/// Plays the scenario from `s`: first checks each expectation's value as far as it can be
/// before playing (`rules`, [`expect_value_ok`]: bad input names its line); then the actions
/// before `[position]`, then (when none was illegal and
/// there is a position) `edit(s, line of the section)` and the actions after it; then, when no
/// action was illegal, checks every expectation — `legal+`/`legal-`, or a key `observe` reads
/// (`None`: unknown key, an error), compared as names are ([`norm`]). Returns the first illegal
/// action's message and the failed expectations.
pub fn play_and_check<G: GameDef>(
    g: &G,
    s: &mut G::State,
    sc: &Sections,
    file: &str,
    rules: &ExpectRules,
    edit: impl FnOnce(&mut G::State, usize) -> Result<(), InputError>,
    observe: impl Fn(&G::State, &str) -> Option<String>,
) -> Result<(Option<String>, Vec<String>), InputError> {
    for (n, k, v) in &sc.expects {
        expect_value_ok(k, v, rules).map_err(|m| problem(file, *n, m))?;
        // A key the game's view does not know (`hand P3`, `known table P1`) is refused before
        // the game is played: `observe` answers every key it knows in any position.
        if !matches!(k.as_str(), "legal+" | "legal-") && observe(s, k).is_none() {
            return Err(problem(
                file,
                *n,
                format!("unknown expectation \"{}\"", excerpt(k)),
            ));
        }
    }
    let split = sc.position.map_or(sc.actions.len(), |x| x.1);
    let mut illegal = play_actions(g, s, &sc.actions[..split], file)?;
    if let (None, Some((head, _))) = (&illegal, sc.position) {
        edit(s, head)?;
        illegal = play_actions(g, s, &sc.actions[split..], file)?;
    }
    let mut failed = Vec::new();
    if illegal.is_none() {
        let legal: Vec<String> = legal_texts(g, s);
        for (n, k, v) in &sc.expects {
            if let Some(r) = legal_membership(k, v, &legal) {
                if let Err(m) = r {
                    failed.push(format!("line {n}: {m}"));
                }
                continue;
            }
            let got = observe(s, k).ok_or_else(|| {
                problem(file, *n, format!("unknown expectation \"{}\"", excerpt(k)))
            })?;
            if norm(&got) != norm(v) {
                failed.push(format!("line {n}: {k}: expected {v}, found {got}"));
            }
        }
    }
    Ok((illegal, failed))
}

/// Checks, when the file is read, the value of an expectation whose values are few or a number
/// (`winner`, `reason` and `step` of the game's `rules`, `active`, `to move`, `turn`, and the
/// counts `life P1`, `deck P1`, `hand count P1`, `trash count P1`, `with flame P1`), and the card
/// names of a key that names cards (`rules.names`: each a card of the game's card file), so that
/// a malformed one is bad input (exit 2), as in a Trails scenario, not a failed expectation that
/// echoes it. Compared as [`play_and_check`] compares (ignoring case and spacing); other keys are
/// left to it.
pub fn expect_value_ok(key: &str, v: &str, rules: &ExpectRules) -> Result<(), String> {
    let (k, nv) = (norm(key), norm(v));
    let words: Vec<&str> = k.split(' ').collect();
    let one_of = |allowed: &[&str]| {
        if allowed.iter().any(|a| norm(a) == nv) {
            Ok(())
        } else {
            Err(format!(
                "{key}: \"{}\" is not one of {}",
                excerpt(v),
                allowed.join(", ")
            ))
        }
    };
    let seat = |w: &str| w == "p1" || w == "p2";
    match words.as_slice() {
        ["winner"] => one_of(&["P1", "P2", "none", "draw"]),
        ["reason"] => one_of(rules.reasons),
        ["step"] => one_of(rules.steps),
        ["active"] => one_of(&["P1", "P2"]),
        ["to", "move"] => one_of(&["P1", "P2", "none"]),
        ["turn"] | ["life" | "deck", _] | ["hand" | "trash", "count", _] | ["with", "flame", _]
            if words.last().is_some_and(|w| *w == "turn" || seat(w)) =>
        {
            super::input::parse_int(v, 0u32, u32::MAX)
                .map(|_| ())
                .map_err(|m| format!("{key}: {m}"))
        }
        _ => {
            let raw: Vec<&str> = key.split_whitespace().collect();
            // A card is read as any of its forms; when none is a card, the last form's reason
            // (the name without its power) is given.
            for forms in (rules.names)(&raw, v).unwrap_or_default() {
                let mut refused = None;
                for f in &forms {
                    match card_label_ok(f, rules.lookup) {
                        Ok(()) => {
                            refused = None;
                            break;
                        }
                        Err(m) => refused = Some(m),
                    }
                }
                if let Some(m) = refused {
                    return Err(format!("{key}: {m}"));
                }
            }
            Ok(())
        }
    }
}

/// The items of a `, `-separated list of card names as a view writes it (`none` or nothing:
/// no card), each read one way: for [`ExpectRules::names`].
pub fn name_list(v: &str) -> CardForms {
    v.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty() && !x.eq_ignore_ascii_case("none"))
        .map(|x| vec![x.to_string()])
        .collect()
}

/// `x`, and `x` without a trailing whole number (a power, `Spark Cadet 1000`) when it has one:
/// the forms of a card's label that may be followed by its power.
pub fn with_power(x: &str) -> Vec<String> {
    let x = x.trim();
    let mut v = vec![x.to_string()];
    if let Some((a, n)) = x.rsplit_once(' ') {
        if n.parse::<i64>().is_ok() {
            v.push(a.trim_end().to_string());
        }
    }
    v
}

/// The `winner` expectation's value: `none`, `draw`, `P1` or `P2`.
pub fn winner_text(o: Option<Outcome>) -> String {
    match o {
        None => "none".into(),
        Some(Outcome::Draw) => "draw".into(),
        Some(Outcome::Win(w)) => w.to_string(),
    }
}

/// The final state of a scenario as its report's JSON shows it; `S` is the game's view of one
/// seat.
#[derive(serde::Serialize)]
struct View<S> {
    turn: u16,
    active: String,
    step: &'static str,
    to_move: Option<String>,
    winner: Option<String>,
    ending: String,
    legal: Vec<String>,
    p1: S,
    p2: S,
    checked: usize,
    failed: Vec<String>,
}

/// The report of a scenario played by [`play_and_check`]: the final state `s` (its `turn`,
/// `active` seat and `step` name, and each seat's view `side`) as pretty JSON, with how many
/// expectations were checked (none after an illegal action) and which failed.
#[allow(clippy::too_many_arguments)]
pub fn report<G: GameDef, S: serde::Serialize>(
    g: &G,
    s: &G::State,
    (turn, active, step): (u16, Seat, &'static str),
    side: impl Fn(Seat) -> S,
    sc: &Sections,
    illegal: Option<String>,
    failed: Vec<String>,
) -> ScenarioReport {
    let view = View {
        turn,
        active: active.to_string(),
        step,
        to_move: g.to_move(s).map(|q| q.to_string()),
        winner: g.outcome(s).map(|o| winner_text(Some(o))),
        ending: g.ending(s),
        legal: legal_texts(g, s),
        p1: side(Seat::P1),
        p2: side(Seat::P2),
        checked: if illegal.is_none() {
            sc.expects.len()
        } else {
            0
        },
        failed: failed.clone(),
    };
    ScenarioReport {
        json: serde_json::to_string_pretty(&view).expect("a view of plain fields serializes"),
        illegal,
        failed,
    }
}

/// For the games' tests of their [`ExpectRules`] (the clear form being the game's own view): over
/// random games of every ordered pair of `decks` (`games` a pair, every position to the last
/// one), every value `observe` writes for each of `keys` passes [`expect_value_ok`] — no value
/// the view can write is refused when read. Returns each key's values seen (`step`, `reason`:
/// to check that the games reached the values the rules list).
#[cfg(test)]
pub(crate) fn observed_values_pass<G: GameDef>(
    cards: &G::Cards,
    decks: &[G::Deck],
    games: u64,
    keys: &[&str],
    rules: &ExpectRules,
    observe: impl Fn(&G, &G::State, &str) -> Option<String>,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use rand::Rng;
    let mut seen: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let mut rng = super::rng_from_seed(7);
    let mut list = super::ActionList::new();
    for (k, a) in decks.iter().enumerate() {
        for b in decks {
            let g = G::new_match(cards, [a, b]);
            for i in 0..games {
                let mut s = g.new_game(i * 31 + k as u64, Seat::ALL[(i % 2) as usize]);
                loop {
                    for key in keys {
                        let v = observe(&g, &s, key).unwrap_or_else(|| panic!("{key}: no key"));
                        if let Err(m) = expect_value_ok(key, &v, rules) {
                            panic!("{key}: {v}: refused: {m}");
                        }
                        seen.entry(key.to_string()).or_default().insert(v);
                    }
                    if g.to_move(&s).is_none() {
                        break;
                    }
                    g.legal_actions(&s, &mut list);
                    let pick = list.as_slice()[rng.gen_range(0..list.len())];
                    g.apply(&mut s, pick);
                }
            }
        }
    }
    seen
}
