//! When a card was drawn, and what that says of its strength (method, argument and biases:
//! `docs/statistics.md`, "Opening hand, drawn later, and an IWD without the length bias").
//!
//! From the [`Record`]s of `sim::cards` (which cards were in the opening hand, the turn each first
//! left the deck after setup, the game's last turn):
//! - OH WR and GD WR (17lands' definitions): the win rate in games where a copy was in the opening
//!   hand, and where one was drawn later but none was in the opening hand ([`opening_tallies`]);
//! - the landmark IWD ([`landmark_iwd`]): at each landmark turn `t`, among the games that reached
//!   turn `t`, the win rate of those where a copy had left the deck before turn `t` minus that of
//!   those where none had; the landmarks combined with Mantel–Haenszel weights, the interval from
//!   an influence-function variance that sums each game's contributions over the landmarks
//!   (Anderson, Cain & Gelber 1983 for the landmark; Greenland & Robins 1985 for the weights).

use super::cards::{Record, Tally, NEVER};

/// The opening-hand and drawn-later tallies of the `k`-th distinct card: games where a copy was in
/// the opening hand (OH), and games where none was but one left the deck later (GD).
pub fn opening_tallies(k: usize, records: &[Record]) -> (Tally, Tally) {
    let mask = 1u64 << k;
    let mut oh = Tally::default();
    let mut gd = Tally::default();
    for r in records {
        let t = if r.opening & mask != 0 {
            &mut oh
        } else if r.first_turn[k] != NEVER {
            &mut gd
        } else {
            continue;
        };
        t.games += 1;
        t.score += r.score;
    }
    (oh, gd)
}

/// One landmark of [`landmark_strata`]: among the games that reached turn `turn`, those where a
/// copy of the card had left the deck before it (`drawn`: in the opening hand or on an earlier
/// turn) and those where none had (`not_drawn`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stratum {
    pub turn: u32,
    pub drawn: Tally,
    pub not_drawn: Tally,
}

impl Stratum {
    /// The Mantel–Haenszel weight `n1·n0/n` (0 when a side is empty).
    pub fn weight(&self) -> f64 {
        let (a, b) = (self.drawn.games as f64, self.not_drawn.games as f64);
        if a + b == 0.0 {
            0.0
        } else {
            a * b / (a + b)
        }
    }
}

/// The last landmark [`landmark_iwd`] uses: the median of the games' last turns (the lower one of
/// an even count), at most 254 (a [`Record::first_turn`] saturates at 254); 0 without records.
pub fn last_landmark(records: &[Record]) -> u32 {
    if records.is_empty() {
        return 0;
    }
    let mut turns: Vec<u32> = records.iter().map(|r| r.turns).collect();
    turns.sort_unstable();
    turns[(turns.len() - 1) / 2].min(u32::from(NEVER) - 1)
}

/// Whether a copy of the `k`-th card had left the deck before turn `t` in `r`.
fn drawn_before(r: &Record, k: usize, t: u32) -> bool {
    u32::from(r.first_turn[k]) < t
}

/// The landmarks `1..=last` of the `k`-th card over the records (`last` at most 254).
pub fn landmark_strata(k: usize, records: &[Record], last: u32) -> Vec<Stratum> {
    let last = last.min(u32::from(NEVER) - 1);
    let mut strata: Vec<Stratum> = (1..=last)
        .map(|turn| Stratum {
            turn,
            ..Stratum::default()
        })
        .collect();
    for r in records {
        for st in strata.iter_mut().take_while(|st| r.turns >= st.turn) {
            let side = if drawn_before(r, k, st.turn) {
                &mut st.drawn
            } else {
                &mut st.not_drawn
            };
            side.games += 1;
            side.score += r.score;
        }
    }
    strata
}

/// The landmark IWD of the `k`-th card with landmarks `1..=`[`last_landmark`]: value and 95%
/// interval (NaN when no landmark has games on both sides).
pub fn landmark_iwd(k: usize, records: &[Record]) -> (f64, f64, f64) {
    landmark_iwd_to(k, records, last_landmark(records))
}

/// `1/n`, times the small-sample correction `sqrt(n/(n−1))` of a residual in a group of `n` (HC2:
/// with one landmark the variance is then the unbiased `s1²/n1 + s0²/n0`). A group of one has a
/// residual of 0.
fn leverage(n: u64) -> f64 {
    if n < 2 {
        0.0
    } else {
        let n = n as f64;
        (n / (n - 1.0)).sqrt() / n
    }
}

/// [`landmark_iwd`] with landmarks `1..=last`.
///
/// The value is `Σ w_t (p1_t − p0_t) / Σ w_t` over the landmarks `t` ([`Stratum::weight`]). Its
/// variance treats the weights as fixed (they depend on the shuffle, not on the results): the
/// value is `Σ_i c_i y_i` over the games, and each game's influence is
/// `φ_i = Σ_t (w_t/W)·((y_i − p1_t)·λ(n1_t)` if drawn before `t`, `−(y_i − p0_t)·λ(n0_t)` if
/// not`)`, summed over the landmarks the game reached, with `λ(n) = sqrt(n/(n−1))/n` (HC2's
/// small-sample correction); the variance is `Σ_i φ_i²` — with one landmark, the unbiased
/// `s1²/n1 + s0²/n0` of Welch's test. The interval is the value ± 1.96 standard
/// errors, clipped to [−1, 1]. Exact arithmetic, in record order: thread-independent.
pub fn landmark_iwd_to(k: usize, records: &[Record], last: u32) -> (f64, f64, f64) {
    let nan = (f64::NAN, f64::NAN, f64::NAN);
    let strata = landmark_strata(k, records, last);
    let total: f64 = strata.iter().map(Stratum::weight).sum();
    if total == 0.0 {
        return nan;
    }
    let value = strata
        .iter()
        .filter(|st| st.weight() > 0.0)
        .map(|st| st.weight() * (st.drawn.rate() - st.not_drawn.rate()))
        .sum::<f64>()
        / total;
    let mut var = 0.0;
    for r in records {
        let mut phi = 0.0;
        for st in strata.iter().take_while(|st| r.turns >= st.turn) {
            let w = st.weight();
            if w == 0.0 {
                continue;
            }
            let (side, sign) = if drawn_before(r, k, st.turn) {
                (&st.drawn, 1.0)
            } else {
                (&st.not_drawn, -1.0)
            };
            phi += sign * w / total * (r.score - side.rate()) * leverage(side.games);
        }
        var += phi * phi;
    }
    let half = crate::stats::Z95 * var.sqrt();
    (value, (value - half).max(-1.0), (value + half).min(1.0))
}
