//! `cards.csv`: the card ranking of `tcgsim cards` — one row per card of each studied deck, in
//! the ranking's order: its drawn / not-seen statistics, its IWD, its blank-filler ablation value
//! and its value over replacement with their 95% intervals, and its flags (`docs/statistics.md`).

use super::{read_table, write_table, Column, Fields, Kind, Value};
use crate::core::input::Reason;
use crate::core::InputError;
use crate::sim::cards::{CardRow, Usage};

/// A value and its 95% interval (NaN: undefined).
pub type Interval = (f64, f64, f64);

/// One line of `cards.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub deck: String,
    pub card: String,
    pub copies: u64,
    /// The deck's games in the baseline run.
    pub games: u64,
    /// Games in which a copy was drawn, and not seen.
    pub drawn_games: u64,
    pub gns_games: u64,
    /// Of the games it was drawn in, the fraction in which it was played, put into a resource
    /// zone, still in hand at the end (NaN when never drawn).
    pub played_rate: f64,
    pub resource_rate: f64,
    pub in_hand_rate: f64,
    /// Win rate (score) when drawn, when not seen; IWD, their difference.
    pub gih: Interval,
    pub gns: Interval,
    pub iwd: Interval,
    /// Games with a copy in the opening hand, and drawn later with none in it; their win rates
    /// (OH WR, GD WR); the landmark IWD (`docs/statistics.md`).
    pub oh_games: u64,
    pub gd_games: u64,
    pub oh: Interval,
    pub gd: Interval,
    pub liwd: Interval,
    /// The blank-filler ablation value (`None`: not measured).
    pub ablation: Option<Interval>,
    /// Value over replacement (`None`: not measured; NaN: no card may replace it), and its
    /// replacements: how like the card they are ([`crate::sim::cards::Likeness::text`]), `: `,
    /// then their names, `; `-separated (empty without replacements).
    pub vor: Option<Interval>,
    pub replacements: String,
    pub agree: String,
    pub flag: String,
}

impl Card {
    /// The line of card `card` (its name) of deck `deck`, ranked over `games` games;
    /// `card_name` names the replacement cards.
    pub fn of(
        deck: &str,
        card: String,
        games: u64,
        r: &CardRow,
        card_name: impl Fn(u32) -> String,
    ) -> Card {
        let u: &Usage = &r.usage;
        let with_interval = |games: u64, rate: f64, (lo, hi): (f64, f64)| {
            if games > 0 {
                (rate, lo, hi)
            } else {
                (rate, f64::NAN, f64::NAN)
            }
        };
        Card {
            deck: deck.to_string(),
            card,
            copies: r.copies as u64,
            games,
            drawn_games: r.gih.games,
            gns_games: r.gns.games,
            played_rate: u.rate(u.played),
            resource_rate: u.rate(u.resource),
            in_hand_rate: u.rate(u.in_hand),
            gih: with_interval(r.gih.games, r.gih.rate(), r.gih.interval()),
            gns: with_interval(r.gns.games, r.gns.rate(), r.gns.interval()),
            iwd: r.iwd,
            oh_games: r.oh.games,
            gd_games: r.gd.games,
            oh: with_interval(r.oh.games, r.oh.rate(), r.oh.interval()),
            gd: with_interval(r.gd.games, r.gd.rate(), r.gd.interval()),
            liwd: r.liwd,
            ablation: r.abl,
            vor: r.vor,
            replacements: r.replacements.as_ref().map_or(String::new(), |x| {
                let names: Vec<String> = x.ids.iter().map(|&i| card_name(i)).collect();
                format!("{}: {}", x.likeness.text(), names.join("; "))
            }),
            agree: r.agree().to_string(),
            flag: r.flag(),
        }
    }

    /// The fraction of the games in which a copy was drawn.
    pub fn drawn_rate(&self) -> f64 {
        self.drawn_games as f64 / self.games as f64
    }
}

fn num(x: f64) -> Value {
    Value::Num(x)
}

/// The columns of `cards.csv`, in order: the one table its writer and its reader are made of.
pub const COLUMNS: [Column<Card>; 41] = [
    Column::new("deck", Kind::Text, |c| Value::Text(c.deck.clone())),
    Column::new("card", Kind::Text, |c| Value::Text(c.card.clone())),
    Column::new("copies", Kind::Count, |c| Value::Count(Some(c.copies))),
    Column::new("games", Kind::Count, |c| Value::Count(Some(c.games))),
    Column::new("drawn_games", Kind::Count, |c| {
        Value::Count(Some(c.drawn_games))
    }),
    Column::new("drawn_rate", Kind::Rate, |c| num(c.drawn_rate())),
    Column::new("played_rate", Kind::Rate, |c| num(c.played_rate)),
    Column::new("resource_rate", Kind::Rate, |c| num(c.resource_rate)),
    Column::new("in_hand_rate", Kind::Rate, |c| num(c.in_hand_rate)),
    Column::new("gih_wr", Kind::Rate, |c| num(c.gih.0)),
    Column::new("gih_lo", Kind::Rate, |c| num(c.gih.1)),
    Column::new("gih_hi", Kind::Rate, |c| num(c.gih.2)),
    Column::new("gns_games", Kind::Count, |c| {
        Value::Count(Some(c.gns_games))
    }),
    Column::new("gns_wr", Kind::Rate, |c| num(c.gns.0)),
    Column::new("gns_lo", Kind::Rate, |c| num(c.gns.1)),
    Column::new("gns_hi", Kind::Rate, |c| num(c.gns.2)),
    Column::new("iwd", Kind::Diff, |c| num(c.iwd.0)),
    Column::new("iwd_lo", Kind::Diff, |c| num(c.iwd.1)),
    Column::new("iwd_hi", Kind::Diff, |c| num(c.iwd.2)),
    Column::new("oh_games", Kind::Count, |c| Value::Count(Some(c.oh_games))),
    Column::new("oh_wr", Kind::Rate, |c| num(c.oh.0)),
    Column::new("oh_lo", Kind::Rate, |c| num(c.oh.1)),
    Column::new("oh_hi", Kind::Rate, |c| num(c.oh.2)),
    Column::new("gd_games", Kind::Count, |c| Value::Count(Some(c.gd_games))),
    Column::new("gd_wr", Kind::Rate, |c| num(c.gd.0)),
    Column::new("gd_lo", Kind::Rate, |c| num(c.gd.1)),
    Column::new("gd_hi", Kind::Rate, |c| num(c.gd.2)),
    Column::new("liwd", Kind::Diff, |c| num(c.liwd.0)),
    Column::new("liwd_lo", Kind::Diff, |c| num(c.liwd.1)),
    Column::new("liwd_hi", Kind::Diff, |c| num(c.liwd.2)),
    Column::new("ablation_games", Kind::OptCount, |c| {
        Value::Count(c.ablation.map(|_| c.games))
    }),
    Column::new("ablation_value", Kind::Diff, |c| {
        num(c.ablation.map_or(f64::NAN, |a| a.0))
    }),
    Column::new("ablation_lo", Kind::Real, |c| {
        num(c.ablation.map_or(f64::NAN, |a| a.1))
    }),
    Column::new("ablation_hi", Kind::Real, |c| {
        num(c.ablation.map_or(f64::NAN, |a| a.2))
    }),
    Column::new("vor_games", Kind::OptCount, |c| {
        Value::Count(c.vor.map(|_| c.games))
    }),
    Column::new("vor_value", Kind::Diff, |c| {
        num(c.vor.map_or(f64::NAN, |a| a.0))
    }),
    Column::new("vor_lo", Kind::Real, |c| {
        num(c.vor.map_or(f64::NAN, |a| a.1))
    }),
    Column::new("vor_hi", Kind::Real, |c| {
        num(c.vor.map_or(f64::NAN, |a| a.2))
    }),
    Column::new("replacements", Kind::Text, |c| {
        Value::Text(c.replacements.clone())
    }),
    Column::new("agree", Kind::Text, |c| Value::Text(c.agree.clone())),
    Column::new("flag", Kind::Text, |c| Value::Text(c.flag.clone())),
];

/// The header line of `cards.csv`.
pub fn header() -> String {
    super::header(&COLUMNS)
}

/// The text of `cards.csv`.
pub fn write(cards: &[Card]) -> String {
    write_table(&COLUMNS, cards)
}

/// A line read back: where it was, its fields as written, and the card they give.
pub struct Line {
    pub fields: Fields,
    pub card: Card,
}

/// Reads a `cards.csv`: the exact header, then one row per card whose every value is checked
/// ([`check`]). Errors name `file` and the line.
pub fn read(text: &str, file: &str) -> Result<Vec<Line>, InputError> {
    let mut out = Vec::new();
    for f in read_table(text, file, &COLUMNS)? {
        let three = |a: &str, b: &str, c: &str| (f.num(a), f.num(b), f.num(c));
        let card = Card {
            deck: f.text("deck").to_string(),
            card: f.text("card").to_string(),
            copies: f.count("copies"),
            games: f.count("games"),
            drawn_games: f.count("drawn_games"),
            gns_games: f.count("gns_games"),
            played_rate: f.num("played_rate"),
            resource_rate: f.num("resource_rate"),
            in_hand_rate: f.num("in_hand_rate"),
            gih: three("gih_wr", "gih_lo", "gih_hi"),
            gns: three("gns_wr", "gns_lo", "gns_hi"),
            iwd: three("iwd", "iwd_lo", "iwd_hi"),
            oh_games: f.count("oh_games"),
            gd_games: f.count("gd_games"),
            oh: three("oh_wr", "oh_lo", "oh_hi"),
            gd: three("gd_wr", "gd_lo", "gd_hi"),
            liwd: three("liwd", "liwd_lo", "liwd_hi"),
            ablation: f
                .opt_count("ablation_games")
                .map(|_| three("ablation_value", "ablation_lo", "ablation_hi")),
            vor: f
                .opt_count("vor_games")
                .map(|_| three("vor_value", "vor_lo", "vor_hi")),
            replacements: f.text("replacements").to_string(),
            agree: f.text("agree").to_string(),
            flag: f.text("flag").to_string(),
        };
        check(&card).map_err(|e| f.at(e.0))?;
        // drawn_rate from the counts, ablation_games the games; the rest as read.
        f.check_derived(&COLUMNS, &card)?;
        out.push(Line { fields: f, card });
    }
    Ok(out)
}

/// Half a unit of the 4th decimal, and a little for the float: how far a written value may be
/// from the one it stands for.
const HALF: f64 = 0.5e-4 + 1e-9;

/// Whether `rate`, written with 4 decimals, can be `k / n` for a whole `k` from 0 to `n`
/// (`n > 0`).
fn a_fraction_of(rate: f64, n: u64) -> bool {
    let k = (rate * n as f64).round();
    (0.0..=n as f64).contains(&k) && (k / n as f64 - rate).abs() <= HALF
}

/// What a card's line can be, given how `tcgsim cards` computes it (`sim::cards`): every game
/// either drew a copy or not (drawn + not-seen games = games); a rate of the drawn games is empty
/// exactly when none was, and is a whole number of them (the win rates: of half games, a draw
/// scoring ½); the opening-hand and drawn-later games among the drawn ones, their win rates whole
/// numbers of half games; each value inside its interval; IWD the difference of the two win
/// rates, empty exactly when one is; the ablations measured over the deck's games, their values
/// inside [−1, 1] and their intervals no wider than paired games give; `replacements`, `agree` and
/// `flag` what [`check_words`] allows.
pub fn check(c: &Card) -> Result<(), Reason> {
    if c.copies == 0 || c.games == 0 {
        return Err(Reason(format!(
            "{} copies over {} games: a ranked card has a copy and its deck games",
            c.copies, c.games
        )));
    }
    if c.drawn_games.checked_add(c.gns_games) != Some(c.games) {
        return Err(Reason(format!(
            "impossible counts: drawn_games {} + gns_games {} differ from {} games",
            c.drawn_games, c.gns_games, c.games
        )));
    }
    if c.oh_games + c.gd_games > c.drawn_games {
        return Err(Reason(format!(
            "impossible counts: oh_games {} + gd_games {} exceed drawn_games {} (a card in the opening hand or drawn later was drawn)",
            c.oh_games, c.gd_games, c.drawn_games
        )));
    }
    for (name, n, x) in [
        ("oh_wr", 2 * c.oh_games, c.oh.0),
        ("gd_wr", 2 * c.gd_games, c.gd.0),
        ("played_rate", c.drawn_games, c.played_rate),
        ("resource_rate", c.drawn_games, c.resource_rate),
        ("in_hand_rate", c.drawn_games, c.in_hand_rate),
        ("gih_wr", 2 * c.drawn_games, c.gih.0),
        ("gns_wr", 2 * c.gns_games, c.gns.0),
    ] {
        let ok = if n == 0 {
            x.is_nan()
        } else {
            !x.is_nan() && a_fraction_of(x, n)
        };
        if !ok {
            return Err(Reason(format!(
                "column `{name}`: {} is not a rate its {} games can give",
                super::rate(x),
                n / if name.ends_with("_wr") { 2 } else { 1 }
            )));
        }
    }
    check_intervals(c)?;
    let iwd = c.gih.0 - c.gns.0;
    if c.iwd.0.is_nan() != iwd.is_nan() || (!iwd.is_nan() && (c.iwd.0 - iwd).abs() > 3.0 * HALF) {
        return Err(Reason(format!(
            "column `iwd`: {} is not gih_wr − gns_wr ({})",
            super::rate(c.iwd.0),
            super::rate(iwd)
        )));
    }
    check_words(c)
}

/// Every value and its interval defined or undefined together, the value inside its interval
/// (each end written to 4 decimals).
fn check_intervals(c: &Card) -> Result<(), Reason> {
    let mut all = vec![
        ("gih_wr", c.gih),
        ("gns_wr", c.gns),
        ("iwd", c.iwd),
        ("oh_wr", c.oh),
        ("gd_wr", c.gd),
        ("liwd", c.liwd),
    ];
    if let Some(a) = c.ablation {
        all.push(("ablation_value", a));
    }
    if let Some(a) = c.vor {
        all.push(("vor_value", a));
    }
    for (name, (v, lo, hi)) in all {
        bounded(name, v, lo, hi, c.games)?;
        let defined = [v, lo, hi].iter().filter(|x| !x.is_nan()).count();
        let ok = match defined {
            0 => true,
            3 => lo <= v + 2.0 * HALF && v <= hi + 2.0 * HALF,
            _ => false,
        };
        if !ok {
            return Err(Reason(format!(
                "column `{name}`: \"{}\" is not inside its interval \"{}\" … \"{}\"",
                super::rate(v),
                super::rate(lo),
                super::rate(hi)
            )));
        }
    }
    Ok(())
}

/// A measure within what it can be: a win rate (`gih_wr`, `gns_wr`; Wilson interval) in [0, 1]
/// with its interval; a difference of two (`iwd`, `ablation_value`, `vor_value`) in [−1, 1]; an
/// ablation's interval, a mean of `games` paired differences in [−1, 1] ± 1.96 standard errors, at most
/// 1.96 / √(games − 1) from its value (the largest sample variance of such differences is
/// games / (games − 1)); value over replacement's at most 2.3646·√(1/7 + 2/games).
fn bounded(name: &str, v: f64, lo: f64, hi: f64, games: u64) -> Result<(), Reason> {
    let rate = name.ends_with("_wr");
    let low = if rate { 0.0 } else { -1.0 };
    let ends: &[f64] = if rate { &[v, lo, hi] } else { &[v] };
    if let Some(x) = ends
        .iter()
        .find(|x| !x.is_nan() && !(low..=1.0).contains(*x))
    {
        return Err(Reason(format!(
            "column `{name}`: {} is outside [{low}, 1], which a {} cannot leave",
            super::rate(*x),
            if rate {
                "win rate"
            } else {
                "difference of two rates"
            }
        )));
    }
    if (name == "ablation_value" || name == "vor_value") && games > 1 && !v.is_nan() {
        // Value over replacement's two-stage variance is at most 1/7 between 8 replacements and
        // 2/games within them (`sim::cards::replacement_difference`).
        let most = if name == "vor_value" {
            crate::sim::cards::T7_975 * (1.0 / 7.0 + 2.0 / games as f64).sqrt()
        } else {
            crate::stats::Z95 / ((games - 1) as f64).sqrt()
        } + 2.0 * HALF;
        if v - lo > most || hi - v > most {
            return Err(Reason(format!(
                "column `{name}`: the interval \"{}\" … \"{}\" is wider than {games} paired games can give (at most ±{} around the value)",
                super::rate(lo),
                super::rate(hi),
                super::rate(most)
            )));
        }
    }
    Ok(())
}

/// `replacements`, `agree` and `flag` are words `tcgsim cards` writes, where they can be.
fn check_words(c: &Card) -> Result<(), Reason> {
    use crate::sim::cards::{Likeness, FLAG_RARELY, FLAG_SITUATIONAL, FLAG_WORSE};
    let measured = c.vor.is_some_and(|v| !v.0.is_nan());
    let likeness_ok = [Likeness::TypeAndCost, Likeness::Type, Likeness::Any]
        .iter()
        .any(|l| {
            c.replacements
                .strip_prefix(l.text())
                .and_then(|r| r.strip_prefix(": "))
                .is_some_and(|names| !names.is_empty())
        });
    if measured != likeness_ok {
        return Err(Reason(format!(
            "column `replacements`: \"{}\" is not what {} can give (how like the card they are, `: `, their names; empty without value over replacement)",
            c.replacements,
            if measured { "a measured value over replacement" } else { "a card without value over replacement" }
        )));
    }
    let measure = crate::sim::cards::ablation_measure(c.vor, c.ablation);
    let missing = measure.is_none_or(|a| a.1.is_nan() || a.2.is_nan())
        || c.liwd.1.is_nan()
        || c.liwd.2.is_nan();
    let agree_ok = match c.agree.as_str() {
        "" => missing,
        "yes" | "no" | "partly" => !missing,
        _ => false,
    };
    if !agree_ok {
        return Err(Reason(format!(
            "column `agree`: \"{}\" is not what its measures can give (yes, no or partly; empty when one is missing)",
            c.agree
        )));
    }
    // The flags in their order, each where it can be.
    let want: Vec<&str> = c.flag.split("; ").filter(|f| !f.is_empty()).collect();
    // `sim::cards::worse_than_replacement` on the written values: surely when the interval lies
    // below zero with a width, possibly when its width rounds to 0.
    let worse_sure = c.vor.is_some_and(|v| v.2 < 0.0 && v.2 - v.1 > 2.0 * HALF);
    let worse_may = c.vor.is_some_and(|v| v.2 < 0.0);
    let order = [FLAG_WORSE, FLAG_SITUATIONAL, FLAG_RARELY];
    let in_order = want
        .iter()
        .map(|f| order.iter().position(|o| o == f))
        .collect::<Option<Vec<usize>>>()
        .is_some_and(|p| p.windows(2).all(|w| w[0] < w[1]));
    // `rarely played` exactly as `Usage::rarely_played` decides it, from the counts.
    let rarely = Usage {
        drawn: c.drawn_games,
        played: (c.played_rate * c.drawn_games as f64).round() as u64,
        resource: 0,
        in_hand: 0,
    }
    .rarely_played();
    let consistent = in_order
        && (if want.contains(&FLAG_WORSE) {
            worse_may
        } else {
            !worse_sure
        })
        && want.contains(&FLAG_RARELY) == rarely
        && (!want.contains(&FLAG_SITUATIONAL) || measure.is_some());
    if !consistent || c.flag.ends_with("; ") {
        return Err(Reason(format!(
            "column `flag`: \"{}\" is not what this card's figures can give ({FLAG_WORSE} exactly when vor_hi is below zero, {FLAG_SITUATIONAL} only with an ablation, {FLAG_RARELY} exactly when drawn in 20 games or more and played in under 5% of them; `; `-separated in that order)",
            c.flag
        )));
    }
    Ok(())
}

/// `card_matchups.csv`'s file name.
pub const MATCHUPS: &str = "card_matchups.csv";

/// One line of `card_matchups.csv`: a card's ablation measure against one opponent — value over
/// replacement where it was measured, else the blank-filler ablation (`measure` says which) — the
/// paired differences of that opponent's games and their 95% interval. What the `situational`
/// flag of `cards.csv` is decided on (`sim::cards::situational`).
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    pub deck: String,
    pub card: String,
    pub opponent: String,
    pub games: u64,
    /// `vs typical` or `vs blank`.
    pub measure: String,
    pub value: Interval,
}

impl Matchup {
    /// The lines of one ranked card: its [`CardRow::by_opponent`] against `opponents` (in
    /// gauntlet order), `games` games each; none without an ablation.
    pub fn of(deck: &str, card: &str, opponents: &[&str], games: u64, r: &CardRow) -> Vec<Matchup> {
        let measure = if r.vor.is_some_and(|v| !v.0.is_nan()) {
            "vs typical"
        } else {
            "vs blank"
        };
        opponents
            .iter()
            .zip(&r.by_opponent)
            .map(|(o, &value)| Matchup {
                deck: deck.to_string(),
                card: card.to_string(),
                opponent: o.to_string(),
                games,
                measure: measure.to_string(),
                value,
            })
            .collect()
    }
}

/// The columns of `card_matchups.csv`.
pub const MATCHUP_COLUMNS: [Column<Matchup>; 8] = [
    Column::new("deck", Kind::Text, |m| Value::Text(m.deck.clone())),
    Column::new("card", Kind::Text, |m| Value::Text(m.card.clone())),
    Column::new("opponent", Kind::Text, |m| Value::Text(m.opponent.clone())),
    Column::new("games", Kind::Count, |m| Value::Count(Some(m.games))),
    Column::new("measure", Kind::Text, |m| Value::Text(m.measure.clone())),
    Column::new("value", Kind::Diff, |m| num(m.value.0)),
    Column::new("lo", Kind::Real, |m| num(m.value.1)),
    Column::new("hi", Kind::Real, |m| num(m.value.2)),
];

/// The text of `card_matchups.csv`.
pub fn write_matchups(rows: &[Matchup]) -> String {
    write_table(&MATCHUP_COLUMNS, rows)
}

/// Reads a `card_matchups.csv`: the exact header, then one row per card and opponent, each a
/// measure `tcgsim cards` writes, over at least one game, its value inside its interval and
/// within what that many paired games can give ([`bounded`]). Errors name `file` and the line.
pub fn read_matchups(text: &str, file: &str) -> Result<Vec<(Fields, Matchup)>, InputError> {
    let mut out = Vec::new();
    for f in read_table(text, file, &MATCHUP_COLUMNS)? {
        let m = Matchup {
            deck: f.text("deck").to_string(),
            card: f.text("card").to_string(),
            opponent: f.text("opponent").to_string(),
            games: f.count("games"),
            measure: f.text("measure").to_string(),
            value: (f.num("value"), f.num("lo"), f.num("hi")),
        };
        let check = || -> Result<(), Reason> {
            let name = match m.measure.as_str() {
                "vs typical" => "vor_value",
                "vs blank" => "ablation_value",
                w => {
                    return Err(Reason(format!(
                        "column `measure`: \"{w}\" is not `vs typical` or `vs blank`"
                    )))
                }
            };
            if m.games == 0 {
                return Err(Reason("column `games`: a matchup of no games".into()));
            }
            let (v, lo, hi) = m.value;
            bounded(name, v, lo, hi, m.games)?;
            let defined = [v, lo, hi].iter().filter(|x| !x.is_nan()).count();
            if defined != 3 || lo > v + 2.0 * HALF || v > hi + 2.0 * HALF {
                return Err(Reason(format!(
                    "column `value`: \"{}\" is not inside its interval \"{}\" … \"{}\"",
                    super::rate(v),
                    super::rate(lo),
                    super::rate(hi)
                )));
            }
            Ok(())
        };
        check().map_err(|e| f.at(e.0))?;
        out.push((f, m));
    }
    Ok(out)
}
