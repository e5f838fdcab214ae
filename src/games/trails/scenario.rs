//! Scenario files: a position, a list of actions in the log notation, and expectations
//! (documented in `docs/scenario.md`). This is how rule disputes are settled and bugs reported.
//!
//! ```text
//! # Overkill: a lone attacker with STR above DEF.
//! turn: 2
//! initiative: P1
//! step: propose
//!
//! [P1]
//! field: Jaeger Raider
//! deck: 10x Academy Student
//!
//! [P2]
//! field: Guild Junior Bracer (actioned)
//! deck: 10x Academy Student
//!
//! [actions]
//! attack Jaeger Raider
//! target Guild Junior Bracer
//! pass
//! pass
//!
//! [expect]
//! P2.bond: 37
//! P2.field: Guild Junior Bracer (stunned)
//! ```

use super::cards::{CardDb, CardId, Icons, Orgs};
use super::engine::TrailsGame;
use super::state::{bit, flag, AttackTarget, Bits, Pending, PlayerState, State, Step, MAX_CARDS};
use crate::core::input::{excerpt, parse_int};
use crate::core::Reason;
use crate::core::{Outcome, Seat};
use serde::Serialize;

/// The lowest bond a scenario may give (bond has no floor, T-WIN-1, but a position needs none this
/// low) and the highest (T-WIN-1).
const MIN_BOND: i16 = -1000;
const MAX_BOND: i16 = super::engine::MAX_BOND;

/// A problem in a scenario file: the file, the line (0: the position as a whole) and the reason.
pub type ScenarioError = crate::core::input::InputError;

/// The most actions, and the most expectations, of one scenario (a whole game has a few hundred
/// decisions).
pub const MAX_LINES_OF_A_KIND: usize = 10_000;

/// The most copies one `Nx Name` item may give (a player owns at most 50 cards).
pub const MAX_COPIES: usize = MAX_CARDS;

/// One card as written: `[Nx ]Name [(marks)]`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CardSpec {
    id: CardId,
    flags: u8,
    str_mod: i8,
    def_mod: i8,
    icons: Icons,
    known: bool,
}

#[derive(Debug, Clone, Default)]
struct PlayerSpec {
    bond: Option<i16>,
    cp: u8,
    ep: u8,
    attribution: Vec<String>,
    attribution_line: usize,
    zones: [Vec<CardSpec>; 5],
    lines: [usize; 5],
}

const ZONES: [&str; 5] = ["deck", "hand", "homebase", "field", "trail"];

/// One expectation line.
#[derive(Debug, Clone)]
pub struct Expect {
    pub line: usize,
    pub key: String,
    pub value: String,
}

/// A parsed scenario: the game (card pool and each player's cards), the position, the actions.
pub struct Scenario {
    pub game: TrailsGame,
    pub state: State,
    /// (line, text)
    pub actions: Vec<(usize, String)>,
    pub expects: Vec<Expect>,
    /// The `cards:` line, if any (a path relative to the scenario file).
    pub cards_path: Option<String>,
}

/// Reads the `cards:` line without parsing the rest, so the caller can load the right pool.
pub fn cards_line(text: &str) -> Option<String> {
    text.lines()
        .map(strip_comment)
        .find_map(|l| l.strip_prefix("cards:").map(|v| v.trim().to_string()))
}

use crate::core::input::strip_comment;

/// An error at a line of the file (0: the position as a whole); [`Scenario::parse`] adds the file.
type LineError = (usize, String);

/// What the walk over the file's lines reads, section by section.
#[derive(Default)]
struct Sections {
    /// The `cards:` line of the game section.
    cards_path: Option<String>,
    /// The game section's other `key: value` lines (key in lower case), read into the position
    /// once the players' cards are counted ([`game_section`]).
    globals: Vec<(usize, String, String)>,
    players: [PlayerSpec; 2],
    /// Whether `[P1]` and `[P2]` appear.
    seen: [bool; 2],
    actions: Vec<(usize, String)>,
    expects: Vec<Expect>,
}

/// The cards that `attackers:` and `target:` name, found on the field once it is placed
/// ([`combat_cards`]): (line, value).
#[derive(Default)]
struct CombatSpec {
    attackers: Option<(usize, String)>,
    target: Option<(usize, String)>,
}

impl Scenario {
    /// Reads a scenario: each line into its section, in the order of the lines; then the
    /// position: the players' cards counted, the game section, each player's cards placed, the
    /// attack in progress. The position must keep the invariants; automatic steps run at once.
    pub fn parse(text: &str, file: &str, db: CardDb) -> Result<Scenario, ScenarioError> {
        let err = |(line, msg): LineError| ScenarioError {
            file: file.to_string(),
            line,
            msg,
        };
        let f = read_sections(text, &db).map_err(err)?;
        if f.seen != [true, true] {
            return Err(err((
                0,
                "no position: a scenario needs a [P1] and a [P2] section (docs/scenario.md)".into(),
            )));
        }
        let decks = decks(&f.players).map_err(err)?;
        let game = TrailsGame::new(db, decks[0].clone(), decks[1].clone());
        let mut s = State::empty(Seat::P1, Step::Propose);
        let combat = game_section(&f.globals, &mut s).map_err(err)?;
        for (k, spec) in f.players.iter().enumerate() {
            place_player(&game, &mut s, Seat::from_index(k), spec, decks[k].len()).map_err(err)?;
        }
        combat_cards(&game, &mut s, combat).map_err(err)?;
        if s.winner.is_some() {
            s.step = Step::Over;
        }
        game.check_invariants(&s)
            .map_err(|m| err((0, format!("inconsistent position: {m}"))))?;
        // Draw steps and other automatic steps run at once, as in a game.
        game.settle(&mut s);
        Ok(Scenario {
            game,
            state: s,
            actions: f.actions,
            expects: f.expects,
            cards_path: f.cards_path,
        })
    }
}

/// Reads the file line by line, each line into its section (docs/scenario.md: the game section
/// before `[P1]`, the players' sections, `[actions]`, `[expect]`). Errors come in the order of
/// the lines.
fn read_sections(text: &str, db: &CardDb) -> Result<Sections, LineError> {
    let mut f = Sections::default();
    let mut section = "game".to_string();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let l = strip_comment(raw);
        if l.is_empty() {
            continue;
        }
        if l.starts_with('[') {
            section = section_header(l).map_err(|m| (line, m.0))?;
            match section.as_str() {
                "p1" => f.seen[0] = true,
                "p2" => f.seen[1] = true,
                _ => {}
            }
            continue;
        }
        match section.as_str() {
            "game" => game_line(&mut f, line, l),
            "actions" => action_line(&mut f.actions, line, l),
            "expect" => expect_line(&mut f.expects, line, l, db),
            p => player_line(&mut f.players[if p == "p1" { 0 } else { 1 }], line, l, db),
        }
        .map_err(|m| (line, m.0))?;
    }
    Ok(f)
}

/// A section header: `[P1]`, `[P2]`, `[actions]` or `[expect]`, as its lower-case name.
fn section_header(l: &str) -> Result<String, Reason> {
    let name = l
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("malformed section header \"{}\"", excerpt(l)))?
        .trim()
        .to_ascii_lowercase();
    if !["p1", "p2", "actions", "expect"].contains(&name.as_str()) {
        return Err(format!(
            "unknown section [{}] (expected [P1], [P2], [actions], [expect])",
            excerpt(&name)
        )
        .into());
    }
    Ok(name)
}

/// A `key: value` line, both trimmed.
fn key_value(l: &str) -> Result<(&str, &str), Reason> {
    let (k, v) = l
        .split_once(':')
        .ok_or_else(|| format!("expected `key: value`, found \"{}\"", excerpt(l)))?;
    Ok((k.trim(), v.trim()))
}

/// A line of the game section: `cards:` is kept apart, the other keys are read by
/// [`game_section`].
fn game_line(f: &mut Sections, line: usize, l: &str) -> Result<(), Reason> {
    let (k, v) = key_value(l)?;
    let k = k.to_ascii_lowercase();
    if k == "cards" {
        f.cards_path = Some(v.to_string());
    } else {
        f.globals.push((line, k, v.to_string()));
    }
    Ok(())
}

/// A line of a player's section (`[P1]`, `[P2]`).
fn player_line(p: &mut PlayerSpec, line: usize, l: &str, db: &CardDb) -> Result<(), Reason> {
    let (k, v) = key_value(l)?;
    match k.to_ascii_lowercase().as_str() {
        "bond" => {
            p.bond = Some(parse_int(v, MIN_BOND, MAX_BOND).map_err(|e| format!("bond: {e}"))?)
        }
        "cp" => p.cp = parse_int(v, 0, MAX_CARDS as u8).map_err(|e| format!("cp: {e}"))?,
        "ep" => p.ep = parse_int(v, 0, MAX_CARDS as u8).map_err(|e| format!("ep: {e}"))?,
        "attribution" => {
            p.attribution = v.split(',').map(|w| w.trim().to_string()).collect();
            p.attribution_line = line;
        }
        z => {
            let zi = ZONES.iter().position(|x| *x == z).ok_or_else(|| {
                format!(
                    "unknown key \"{}\" (expected bond, cp, ep, attribution, {})",
                    excerpt(z),
                    ZONES.join(", ")
                )
            })?;
            p.zones[zi] = parse_cards(v, db)?;
            p.lines[zi] = line;
        }
    }
    Ok(())
}

/// A line of `[actions]`.
fn action_line(actions: &mut Vec<(usize, String)>, line: usize, l: &str) -> Result<(), Reason> {
    if actions.len() >= MAX_LINES_OF_A_KIND {
        return Err(format!("more than {MAX_LINES_OF_A_KIND} actions").into());
    }
    actions.push((line, l.to_string()));
    Ok(())
}

/// A line of `[expect]`, checked as it is read ([`check_expect`]).
fn expect_line(expects: &mut Vec<Expect>, line: usize, l: &str, db: &CardDb) -> Result<(), Reason> {
    let (k, v) = key_value(l)?;
    if expects.len() >= MAX_LINES_OF_A_KIND {
        return Err(format!("more than {MAX_LINES_OF_A_KIND} expectations").into());
    }
    let e = Expect {
        line,
        key: k.to_string(),
        value: v.to_string(),
    };
    check_expect(&e, db)?;
    expects.push(e);
    Ok(())
}

/// Each player's cards, in zone order (deck, hand, homebase, field, trail): the ids of their
/// instances. At most [`MAX_CARDS`] a player.
fn decks(players: &[PlayerSpec; 2]) -> Result<[Vec<CardId>; 2], LineError> {
    let mut decks: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for (k, p) in players.iter().enumerate() {
        decks[k] = p.zones.iter().flatten().map(|c| c.id).collect();
        if decks[k].len() > MAX_CARDS {
            // Name the zone line where the count passes the limit.
            let mut n = 0;
            let line = (0..ZONES.len())
                .find(|&z| {
                    n += p.zones[z].len();
                    n > MAX_CARDS
                })
                .map_or(0, |z| p.lines[z]);
            return Err((
                line,
                format!(
                    "P{} has {} cards; at most {MAX_CARDS}",
                    k + 1,
                    decks[k].len()
                ),
            ));
        }
    }
    Ok(decks)
}

/// The game section (before `[P1]`) into `s`, key by key in the order written; then the actor
/// (by default the one the step gives) and the pending choice. The cards `attackers:` and
/// `target:` name are found once the field is placed.
fn game_section(
    globals: &[(usize, String, String)],
    s: &mut State,
) -> Result<CombatSpec, LineError> {
    let mut combat = CombatSpec::default();
    let mut actor = None;
    let mut pending = Pending::None;
    for (line, k, v) in globals {
        let line = *line;
        let err = |m: Reason| (line, m.0);
        match k.as_str() {
            "turn" => s.turn = parse_int(v, 1, u16::MAX).map_err(|e| err(format!("turn: {e}").into()))?,
            "initiative" => s.initiative = parse_seat(v).map_err(err)?,
            "actor" => actor = Some(parse_seat(v).map_err(err)?),
            "step" => s.step = parse_step(v).map_err(err)?,
            "attacker" => s.combat.attacker = parse_seat(v).map_err(err)?,
            "attackers" => combat.attackers = Some((line, v.clone())),
            "target" => combat.target = Some((line, v.clone())),
            "pending" => {
                pending = match v.as_str() {
                    "none" => Pending::None,
                    "dispatch_put" => Pending::DispatchPut,
                    _ => {
                        return Err(err(format!("pending: \"{}\" (expected none or dispatch_put; effect choices are reached by playing the action that causes them)", excerpt(v)).into()))
                    }
                }
            }
            "winner" => {
                s.winner = match v.as_str() {
                    "none" => None,
                    _ => Some(Outcome::Win(parse_seat(v).map_err(err)?)),
                }
            }
            other => {
                return Err(err(format!("unknown key \"{}\" (expected cards, turn, initiative, step, actor, attacker, attackers, target, pending, winner)", excerpt(other)).into()))
            }
        }
    }
    s.actor = actor.unwrap_or(match s.step {
        Step::Window | Step::FightBack => s.combat.attacker.other(),
        Step::Group => s.combat.attacker,
        _ => s.initiative,
    });
    s.pending = pending;
    Ok(combat)
}

/// A player's section into `s`: each card becomes an instance, numbered in zone order (deck,
/// hand, homebase, field, trail), with its marks; then bond, CP, EP and [Attribution]'s
/// organizations. `n_cards` is the player's number of cards ([`decks`]).
fn place_player(
    game: &TrailsGame,
    s: &mut State,
    q: Seat,
    spec: &PlayerSpec,
    n_cards: usize,
) -> Result<(), LineError> {
    let k = q.index();
    let mut p = PlayerState {
        n_cards: n_cards as u8,
        ..PlayerState::default()
    };
    let mut inst = 0u8;
    let mut deck_top_first = Vec::new();
    for (zi, zone) in spec.zones.iter().enumerate() {
        for c in zone {
            let i = inst;
            inst += 1;
            p.card[i as usize] = game.lid(c.id).expect("the scenario's decks hold its cards");
            let b = bit(i);
            match zi {
                0 => {
                    deck_top_first.push(i);
                    if c.known {
                        p.known[k] |= b;
                    }
                }
                1 => {
                    p.hand |= b;
                    p.known[k] |= b;
                    if c.known {
                        p.known[1 - k] |= b;
                    }
                }
                2 => {
                    p.homebase |= b;
                    p.known[k] |= b;
                    p.set(i, c.flags & (flag::ACTIONED | flag::FACE_UP));
                    if c.flags & flag::FACE_UP != 0 || c.known {
                        p.known[1 - k] |= b;
                    }
                }
                3 => {
                    p.field |= b;
                    p.known = [p.known[0] | b, p.known[1] | b];
                    p.set(i, c.flags & !flag::FACE_UP);
                    if c.flags & flag::STUNNED != 0 {
                        p.set(i, flag::ACTIONED);
                    }
                    p.str_mod[i as usize] = c.str_mod;
                    p.def_mod[i as usize] = c.def_mod;
                    p.icons_eot[i as usize] = c.icons;
                }
                _ => {
                    p.trail |= b;
                    p.known = [p.known[0] | b, p.known[1] | b];
                }
            }
            if !marks_fit(zi, c) {
                return Err((
                    spec.lines[zi],
                    format!("a card in the {} cannot have those marks", ZONES[zi]),
                ));
            }
        }
    }
    // Written top first; stored bottom first.
    for (d, &i) in deck_top_first.iter().rev().enumerate() {
        p.deck[d] = i;
    }
    p.deck_len = deck_top_first.len() as u8;
    p.bond = spec.bond.unwrap_or(40);
    p.cp = spec.cp;
    p.ep = spec.ep;
    p.attribution_orgs = attribution_orgs(&game.db, spec)?;
    *s.pl_mut(q) = p;
    for i in 0..n_cards as u8 {
        game.refresh_static(s, q, i);
    }
    game.refresh_kinds(s);
    Ok(())
}

/// Whether a card's marks are ones a card in zone `zone` (an index of [`ZONES`]) may have.
fn marks_fit(zone: usize, c: &CardSpec) -> bool {
    match zone {
        0 | 1 | 4 => c.flags == 0 && c.str_mod == 0 && c.def_mod == 0 && c.icons == Icons::NONE,
        2 => {
            c.flags & !(flag::ACTIONED | flag::FACE_UP) == 0
                && c.str_mod == 0
                && c.icons == Icons::NONE
        }
        _ => c.flags & flag::FACE_UP == 0,
    }
}

/// The organizations of a player's `attribution:` line, each one that a card of the pool names.
fn attribution_orgs(db: &CardDb, spec: &PlayerSpec) -> Result<Orgs, LineError> {
    let mut orgs = 0;
    let mut db2 = db.clone();
    for o in &spec.attribution {
        if o.is_empty() {
            continue;
        }
        let known = db.org_names.iter().any(|n| n == &o.to_ascii_lowercase());
        if !known {
            return Err((
                spec.attribution_line,
                format!("attribution: unknown organization \"{}\"", excerpt(o)),
            ));
        }
        orgs |= db2.org_bit(o).map_err(|m| (spec.attribution_line, m.0))?;
    }
    Ok(orgs)
}

/// The attacking UNITs (`attackers:`, on the attacker's field) and the target (`target:`, the
/// player or a UNIT on the other field) of a position in combat; the steps of an attack need
/// them.
fn combat_cards(game: &TrailsGame, s: &mut State, combat: CombatSpec) -> Result<(), LineError> {
    if let Some((line, v)) = combat.attackers {
        let q = s.combat.attacker;
        for r in v.split(',') {
            let i = find_ref(game, s, q, s.pl(q).field, r.trim()).map_err(|m| (line, m.0))?;
            s.combat.attackers |= bit(i);
        }
        let mut orgs = u16::MAX;
        for i in Bits(s.combat.attackers) {
            orgs &= game.orgs(s, q, i);
        }
        s.combat.group_orgs = orgs;
        s.combat.sclm = s.combat.attackers.count_ones() >= 2;
    }
    if let Some((line, v)) = combat.target {
        let q = s.combat.attacker.other();
        s.combat.target = if v.eq_ignore_ascii_case("player") {
            AttackTarget::Player
        } else {
            AttackTarget::Unit(
                find_ref(game, s, q, s.pl(q).field, v.trim()).map_err(|m| (line, m.0))?,
            )
        };
    }
    if matches!(s.step, Step::Group | Step::Window | Step::FightBack) && s.combat.attackers == 0 {
        return Err((0, "this step needs `attacker:` and `attackers:`".into()));
    }
    if matches!(s.step, Step::Window | Step::FightBack) && s.combat.target == AttackTarget::None {
        return Err((0, "this step needs `target:`".into()));
    }
    Ok(())
}

/// Checks an expectation when the file is read, so that a malformed one (an unknown key, a bond
/// that is not a number, an unknown card) is bad input, not a failed expectation.
fn check_expect(e: &Expect, db: &CardDb) -> Result<(), Reason> {
    let v = e.value.as_str();
    let seat_or_none = |v: &str| {
        if v.eq_ignore_ascii_case("none") {
            Ok(())
        } else {
            parse_seat(v).map(|_| ())
        }
    };
    let whole = |lo: i64, hi: i64| {
        parse_int(v, lo, hi)
            .map(|_| ())
            .map_err(|m| Reason(format!("{}: {m}", e.key)))
    };
    match e.key.as_str() {
        "winner" if v.eq_ignore_ascii_case("draw") => Ok(()),
        "winner" | "to_move" | "actor" => seat_or_none(v),
        "initiative" => parse_seat(v).map(|_| ()),
        "step" if v.eq_ignore_ascii_case("over") => Ok(()),
        "step" => parse_step(v).map(|_| ()),
        "turn" => whole(1, i64::from(u16::MAX)),
        "legal" | "legal+" | "legal-" => Ok(()),
        key => {
            let (who, what) = key
                .split_once('.')
                .ok_or_else(|| format!("unknown expectation \"{}\"", excerpt(key)))?;
            parse_seat(who)?;
            match what {
                "bond" => whole(i64::from(i16::MIN), i64::from(MAX_BOND)),
                "cp" | "ep" | "deck_count" | "hand_count" | "homebase_count" => whole(0, 1000),
                "deck" | "deck_bottom" => split_top(v)
                    .iter()
                    .try_for_each(|n| {
                        db.lookup(n)
                            .map(|_| ())
                            .map_err(|x| format!("\"{}\": {x}", excerpt(n)))
                    })
                    .map_err(Reason::from),
                "hand" | "homebase" | "field" | "trail" => parse_cards(v, db).map(|_| ()),
                "known_hand" | "known_homebase" | "known_deck" => v
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case("none"))
                    .try_for_each(|n| {
                        db.lookup(n)
                            .map(|_| ())
                            .map_err(|x| format!("\"{}\": {x}", excerpt(n)))
                    })
                    .map_err(Reason::from),
                _ => Err(Reason::from(unknown_expectation(key))),
            }
        }
    }
}

/// The message for a player expectation key that is not one (both when read and when checked).
fn unknown_expectation(key: &str) -> String {
    format!(
        "unknown expectation \"{}\" (P1./P2. + bond, cp, ep, deck, deck_bottom, deck_count, hand, hand_count, homebase, homebase_count, field, trail, known_hand, known_homebase, known_deck)",
        excerpt(key)
    )
}

fn parse_seat(v: &str) -> Result<Seat, Reason> {
    match v.to_ascii_uppercase().as_str() {
        "P1" => Ok(Seat::P1),
        "P2" => Ok(Seat::P2),
        _ => Err(format!("\"{}\" is not a player (P1 or P2)", excerpt(v)).into()),
    }
}

pub fn step_name(s: Step) -> &'static str {
    match s {
        Step::Mulligan => "mulligan",
        Step::Draw => "draw",
        Step::CureCheck => "curecheck",
        Step::CombatEnd => "combatend",
        Step::Clash => "clash",
        Step::Ready => "ready",
        Step::Homebase => "homebase",
        Step::Deploy => "deploy",
        Step::Propose => "propose",
        Step::Group => "group",
        Step::Window => "window",
        Step::FightBack => "fightback",
        Step::Cure => "cure",
        Step::Over => "over",
    }
}

fn parse_step(v: &str) -> Result<Step, Reason> {
    let all = [
        Step::Mulligan,
        Step::Draw,
        Step::Homebase,
        Step::Deploy,
        Step::Propose,
        Step::Group,
        Step::Window,
        Step::FightBack,
        Step::Cure,
    ];
    all.into_iter()
        .find(|s| step_name(*s) == v.to_ascii_lowercase())
        .ok_or_else(|| {
            format!(
                "unknown step \"{}\" (expected {})",
                excerpt(v),
                all.map(step_name).join(", ")
            )
        })
        .map_err(Reason::from)
}

/// Splits a list on commas outside parentheses.
fn split_top(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, ch) in v.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&v[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&v[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .collect()
}

fn parse_cards(v: &str, db: &CardDb) -> Result<Vec<CardSpec>, Reason> {
    let mut out = Vec::new();
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok(out);
    }
    for item in split_top(v) {
        let (count, rest) = match item.split_once(char::is_whitespace) {
            Some((c, r))
                if c.len() > 1
                    && c.ends_with(['x', 'X'])
                    && c[..c.len() - 1].bytes().all(|b| b.is_ascii_digit()) =>
            {
                let n = parse_int(&c[..c.len() - 1], 1, MAX_COPIES as u64)
                    .map_err(|e| format!("count {e} (copies in one item)"))?;
                (n as usize, r.trim())
            }
            _ => (1, item),
        };
        let (name, marks) = match rest.split_once('(') {
            Some((n, m)) => (
                n.trim(),
                m.strip_suffix(')')
                    .ok_or_else(|| format!("\"{}\": missing `)`", excerpt(item)))?,
            ),
            None => (rest, ""),
        };
        let id = db
            .lookup(name)
            .map_err(|e| format!("\"{}\": {e}", excerpt(name)))?;
        let mut c = CardSpec {
            id,
            flags: 0,
            str_mod: 0,
            def_mod: 0,
            icons: Icons::NONE,
            known: false,
        };
        for m in marks.split(',').map(str::trim).filter(|m| !m.is_empty()) {
            match m {
                "actioned" => c.flags |= flag::ACTIONED,
                "ready" | "down" => {}
                "stunned" => c.flags |= flag::STUNNED | flag::ACTIONED,
                "up" => c.flags |= flag::FACE_UP,
                "supported" => c.flags |= flag::SUPPORTED,
                "attacked" => c.flags |= flag::ATTACKED,
                "known" => c.known = true,
                _ if m.starts_with('+') && Icons::parse(&m[1..]).is_some() => {
                    c.icons = c.icons.union(Icons::parse(&m[1..]).unwrap())
                }
                _ if m.contains('/') => {
                    let (a, b) = m.split_once('/').unwrap();
                    c.str_mod = a.trim_start_matches('+').parse().map_err(|_| format!("bad stat change \"{}\"", excerpt(m)))?;
                    c.def_mod = b.trim_start_matches('+').parse().map_err(|_| format!("bad stat change \"{}\"", excerpt(m)))?;
                }
                _ => {
                    return Err(format!(
                        "unknown mark \"{}\" (expected ready, actioned, stunned, up, down, supported, attacked, known, +S/+D, +ICON)",
                        excerpt(m)
                    ).into())
                }
            }
        }
        for _ in 0..count {
            out.push(c.clone());
        }
    }
    Ok(out)
}

/// Finds `q`'s instance in `zone` by `Name` or `Name#k`.
fn find_ref(game: &TrailsGame, s: &State, q: Seat, zone: u64, r: &str) -> Result<u8, Reason> {
    let (name, k) = match r.rsplit_once('#') {
        Some((n, k)) if k.parse::<usize>().is_ok() => (n.trim(), k.parse::<usize>().unwrap()),
        _ => (r, 1),
    };
    let id = game
        .db
        .lookup(name)
        .map_err(|e| format!("\"{}\": {e}", excerpt(name)))?;
    let Some(id) = game.lid(id) else {
        return Err(format!("{q} has no \"{}\" there", excerpt(r)).into());
    };
    Bits(zone)
        .filter(|&i| s.pl(q).card[i as usize] == id)
        .nth(k.saturating_sub(1))
        .ok_or_else(|| format!("{q} has no \"{}\" there", excerpt(r)))
        .map_err(Reason::from)
}

// --------------------------------------------------------------------------------------------
// Views and expectations
// --------------------------------------------------------------------------------------------

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct CardView {
    pub card: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<String>,
}

#[derive(Serialize, Debug, Clone)]
pub struct PlayerView {
    pub bond: i16,
    pub cp: u8,
    /// The EP pool (T-RES-7).
    pub ep: u8,
    pub deck_count: usize,
    /// Top first.
    pub deck: Vec<String>,
    pub hand: Vec<CardView>,
    pub homebase: Vec<CardView>,
    pub field: Vec<CardView>,
    pub trail: Vec<CardView>,
}

#[derive(Serialize, Debug, Clone)]
pub struct StateView {
    pub winner: Option<String>,
    pub turn: u16,
    pub initiative: String,
    pub step: String,
    pub to_move: Option<String>,
    pub players: Vec<PlayerView>,
    pub legal: Vec<String>,
}

impl TrailsGame {
    /// One card with its marks, in the scenario notation.
    pub fn card_view(&self, s: &State, q: Seat, i: u8) -> CardView {
        let p = s.pl(q);
        let mut state: Vec<String> = self
            .state_marks(s, q, i)
            .iter()
            .map(|m| m.to_string())
            .collect();
        let (sm, dm) = (p.str_mod[i as usize], p.def_mod[i as usize]);
        if sm != 0 || dm != 0 {
            state.push(format!("{sm:+}/{dm:+}"));
        }
        for n in p.icons_eot[i as usize].names() {
            state.push(format!("+{n}"));
        }
        if p.hand & bit(i) != 0 && p.known[q.other().index()] & bit(i) != 0 {
            state.push("known".into());
        }
        CardView {
            card: self.card_name(p.card[i as usize]),
            state,
        }
    }

    /// The whole position as seen by everyone (for scenarios and `--reveal`).
    pub fn view(&self, s: &State) -> StateView {
        let zone = |q: Seat, m: u64| Bits(m).map(|i| self.card_view(s, q, i)).collect::<Vec<_>>();
        StateView {
            winner: s.winner.map(|o| match o {
                Outcome::Win(w) => w.to_string(),
                Outcome::Draw => "draw".into(),
            }),
            turn: s.turn,
            initiative: s.initiative.to_string(),
            step: step_name(s.step).into(),
            to_move: s.chooser().map(|q| q.to_string()),
            players: Seat::ALL
                .iter()
                .map(|&q| {
                    let p = s.pl(q);
                    PlayerView {
                        bond: p.bond,
                        cp: p.cp,
                        ep: p.ep,
                        deck_count: p.deck_len as usize,
                        deck: p.deck[..p.deck_len as usize]
                            .iter()
                            .rev()
                            .map(|&i| self.card_name(p.card[i as usize]))
                            .collect(),
                        hand: zone(q, p.hand),
                        homebase: zone(q, p.homebase),
                        field: zone(q, p.field),
                        trail: zone(q, p.trail),
                    }
                })
                .collect(),
            legal: self.legal_texts(s),
        }
    }
}

fn render(c: &CardView) -> String {
    if c.state.is_empty() {
        c.card.clone()
    } else {
        let mut st = c.state.clone();
        st.sort();
        format!("{} ({})", c.card, st.join(", "))
    }
}

impl Scenario {
    /// Checks one expectation against a state; `Err` says what differs.
    pub fn check(&self, s: &State, e: &Expect) -> Result<(), Reason> {
        let g = &self.game;
        let view = g.view(s);
        let v = e.value.as_str();
        let eq = |got: String, want: &str| {
            if got.eq_ignore_ascii_case(want) {
                Ok(())
            } else {
                Err(Reason(format!("{}: expected {want}, got {got}", e.key)))
            }
        };
        match e.key.as_str() {
            "winner" => eq(view.winner.clone().unwrap_or("none".into()), v),
            "step" => eq(view.step.clone(), v),
            "turn" => eq(view.turn.to_string(), v),
            "initiative" => eq(view.initiative.clone(), v),
            "to_move" | "actor" => eq(view.to_move.clone().unwrap_or("none".into()), v),
            "legal" => {
                let mut got: Vec<String> = view.legal.iter().map(|x| x.to_lowercase()).collect();
                let mut want: Vec<String> =
                    v.split('|').map(norm).filter(|x| !x.is_empty()).collect();
                got.sort();
                want.sort();
                if got == want {
                    Ok(())
                } else {
                    Err(format!(
                        "legal: expected {}, got {}",
                        want.join(" | "),
                        got.join(" | ")
                    )
                    .into())
                }
            }
            "legal+" | "legal-" => crate::core::def::legal_membership(&e.key, v, &view.legal)
                .expect("a membership key")
                .map_err(|r| r.0)
                .map_err(Reason::from),
            key => {
                let (who, what) = key
                    .split_once('.')
                    .ok_or_else(|| format!("unknown expectation \"{}\"", excerpt(key)))?;
                let q = parse_seat(who)?;
                let p = &view.players[q.index()];
                match what {
                    "known_hand" | "known_homebase" | "known_deck" => {
                        // T-INFO: the cards of the hand / face-down homebase cards the opponent
                        // knows, the deck cards whose place their owner knows; sorted.
                        let ps = s.pl(q);
                        let (m, by) = match what {
                            "known_hand" => (ps.hand, q.other()),
                            "known_homebase" => (ps.homebase & !ps.face_up(), q.other()),
                            _ => (
                                ps.deck[..ps.deck_len as usize]
                                    .iter()
                                    .fold(0u64, |m, &i| m | bit(i)),
                                q,
                            ),
                        };
                        let mut got: Vec<String> = Bits(m & ps.known[by.index()])
                            .map(|i| norm(&g.card_name(ps.card[i as usize])))
                            .collect();
                        got.sort();
                        let mut want: Vec<String> = v
                            .split(',')
                            .map(norm)
                            .filter(|x| !x.is_empty() && x != "none")
                            .collect();
                        want.sort();
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!(
                                "{key}: expected [{}], got [{}]",
                                want.join(", "),
                                got.join(", ")
                            )
                            .into())
                        }
                    }
                    "bond" => eq(p.bond.to_string(), v),
                    "cp" => eq(p.cp.to_string(), v),
                    "ep" => eq(p.ep.to_string(), v),
                    "deck_count" => eq(p.deck_count.to_string(), v),
                    "hand_count" => eq(p.hand.len().to_string(), v),
                    "homebase_count" => eq(p.homebase.len().to_string(), v),
                    "deck" => {
                        // Ordered, top first; the expectation may list only the top cards.
                        let want: Vec<String> = split_top(v).iter().map(|x| norm(x)).collect();
                        let got: Vec<String> =
                            p.deck.iter().take(want.len()).map(|x| norm(x)).collect();
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!(
                                "{key}: expected top {}, got {}",
                                want.join(", "),
                                got.join(", ")
                            )
                            .into())
                        }
                    }
                    "deck_bottom" => {
                        let want: Vec<String> = split_top(v).iter().map(|x| norm(x)).collect();
                        let got: Vec<String> = p
                            .deck
                            .iter()
                            .rev()
                            .take(want.len())
                            .rev()
                            .map(|x| norm(x))
                            .collect();
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!(
                                "{key}: expected bottom {}, got {}",
                                want.join(", "),
                                got.join(", ")
                            )
                            .into())
                        }
                    }
                    "hand" | "homebase" | "field" | "trail" => {
                        let zone = match what {
                            "hand" => &p.hand,
                            "homebase" => &p.homebase,
                            "field" => &p.field,
                            _ => &p.trail,
                        };
                        let mut got: Vec<String> = zone.iter().map(|c| norm(&render(c))).collect();
                        let mut want = Vec::new();
                        for c in parse_cards(v, &g.db)? {
                            let mut marks = Vec::new();
                            if c.flags & flag::STUNNED != 0 {
                                marks.push("stunned".to_string());
                            } else if c.flags & flag::ACTIONED != 0 {
                                marks.push("actioned".into());
                            }
                            if c.flags & flag::FACE_UP != 0 {
                                marks.push("up".into());
                            }
                            if c.flags & flag::SUPPORTED != 0 {
                                marks.push("supported".into());
                            }
                            if c.flags & flag::ATTACKED != 0 {
                                marks.push("attacked".into());
                            }
                            if c.str_mod != 0 || c.def_mod != 0 {
                                marks.push(format!("{:+}/{:+}", c.str_mod, c.def_mod));
                            }
                            for n in c.icons.names() {
                                marks.push(format!("+{n}"));
                            }
                            if c.known {
                                marks.push("known".into());
                            }
                            want.push(norm(&render(&CardView {
                                // A card of neither deck cannot be there: its name never
                                // matches one in the game.
                                card: match g.lid(c.id) {
                                    Some(l) => g.card_name(l),
                                    None => g.db.card(c.id).full_name(),
                                },
                                state: marks,
                            })));
                        }
                        got.sort();
                        want.sort();
                        if got == want {
                            Ok(())
                        } else {
                            Err(format!(
                                "{key}: expected [{}], got [{}]",
                                want.join(", "),
                                got.join(", ")
                            )
                            .into())
                        }
                    }
                    _ => Err(Reason::from(unknown_expectation(key))),
                }
            }
        }
    }
}

use crate::core::input::norm;

/// What running a scenario produced.
#[derive(Debug)]
pub enum RunError {
    /// An action that is not legal: its index (1-based), line, text and the legal actions.
    Illegal {
        index: usize,
        line: usize,
        text: String,
        legal: Vec<String>,
    },
}

impl Scenario {
    /// Applies the actions in order. Stops at the first illegal one and returns it with the
    /// state reached.
    pub fn run(&self) -> (State, Option<RunError>) {
        let mut s = self.state;
        for (k, (line, text)) in self.actions.iter().enumerate() {
            match self.game.parse_action(&s, text) {
                Ok(a) => self.game.play(&mut s, a),
                Err(_) => {
                    let legal = self.game.legal_texts(&s);
                    return (
                        s,
                        Some(RunError::Illegal {
                            index: k + 1,
                            line: *line,
                            text: text.clone(),
                            legal,
                        }),
                    );
                }
            }
        }
        (s, None)
    }

    /// The expectations that fail, as `line: message`.
    pub fn failures(&self, s: &State) -> Vec<String> {
        self.expects
            .iter()
            .filter_map(|e| {
                self.check(s, e)
                    .err()
                    .map(|m| format!("line {}: {m}", e.line))
            })
            .collect()
    }
}
