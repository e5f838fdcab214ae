//! Card balancing (`tcgsim balance`, `docs/tuning.md`): single-card changes of the card file (one
//! step of a cost, a power, a defence) that make a matrix of decks flatter.
//!
//! - **Objective**: each deck's mean win rate against the others, both seats pooled, mirrors left
//!   out (as `matrix` reports it); the *spread* is the strongest deck's mean minus the weakest's.
//!   The sum of squared deviations of the means from 50% is reported beside it.
//! - **Candidates**: one step up or down of a [`Tunable`] column of a card some deck holds,
//!   screened by how much it should flatten: a change that helps a card's owner is promising when
//!   the card sits in decks below the average, one that hinders it when they are above; each deck's
//!   share is weighted by the card's IWD in that deck (`sim::cards`).
//! - **Evaluation**: the matrix replayed with the changed card file on the same deals as the
//!   unchanged one (common random numbers): game `k` of the ordered matchup (r, c) is
//!   `schedule::deal(seed, [BALANCE, round, name r, name c], k)`. The spread's interval and its
//!   change are percentile bootstraps over the games of each matchup, resampled with the same
//!   indices for both card files (the pairing kept; the matchups independent).
//! - **Racing**: games per matchup double from stage to stage; a candidate whose bootstrap
//!   interval of the spread's reduction lies below zero is dropped, the better half goes on.
//! - **Honesty**: the best candidate is measured again with the unchanged cards on fresh deals.
//!
//! The parts: this file holds the card-file patches, the games of a matrix and the statistics;
//! [`run`] the three steps as one call (a [`Plan`] in, an [`Outcome`] out); [`files`] the result
//! files made of its outcome.

use super::matrix::Counts;
use super::play_game_to_end;
use super::schedule;
use super::Entrant;
use crate::core::def::Tunable;
use crate::core::{fnv1a, Error, GameDef, Result, Seat};
use rand::Rng;
use rayon::prelude::*;

pub mod files;
mod run;

pub use run::{describe, run, Candidate, Fresh, Outcome, Plan};

const BALANCE_KEY: u64 = 0x6261_6c61; // "bala"
/// The round of the fresh deals of the final measurement.
pub const FRESH_ROUND: u64 = u64::MAX;

/// One candidate change: card `card`'s `column` from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub card: u32,
    pub column: &'static str,
    pub from: i64,
    pub to: i64,
    /// Whether the change makes the card stronger for its owner.
    pub helps: bool,
}

/// Why `balance` cannot change a card file (its layout, or the field a change names): the reason,
/// with the line where there is one. The caller names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unchangeable(pub String);

/// The data rows of a card file: the header's line index and the line index of every line that
/// is neither blank nor a `#` comment after it (card `k` is the `k`-th). `Err` when a quoted field
/// spans lines (an odd number of quotes on a line): rows and lines would then differ.
fn rows(text: &str) -> Result<(usize, Vec<usize>), Unchangeable> {
    let mut header = None;
    let mut v = Vec::new();
    for (k, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.matches('"').count() % 2 == 1 {
            return Err(Unchangeable(format!(
                "line {}: a quoted field runs over more than one line; balance changes card files of one card a line",
                k + 1
            )));
        }
        if header.is_none() {
            header = Some(k);
        } else {
            v.push(k);
        }
    }
    let header = header.ok_or_else(|| Unchangeable("the card file has no header".into()))?;
    Ok((header, v))
}

/// Whether `balance` can change the card file `text`: one card a line, a header first.
pub fn layout(text: &str) -> Result<(), Unchangeable> {
    rows(text).map(|_| ())
}

/// The byte range of field `col` of a CSV line (quotes included), without its line end.
fn field_span(line: &str, col: usize) -> Option<(usize, usize)> {
    let body = line.trim_end_matches(['\r', '\n']);
    let (mut start, mut k, mut quoted) = (0, 0, false);
    for (i, b) in body.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                if k == col {
                    return Some((start, i));
                }
                k += 1;
                start = i + 1;
            }
            _ => {}
        }
    }
    (k == col).then_some((start, body.len()))
}

fn record(line: &str) -> Result<csv::StringRecord, Unchangeable> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    r.records()
        .next()
        .unwrap_or_else(|| Ok(csv::StringRecord::new()))
        .map_err(|e| Unchangeable(format!("not a CSV line: {e}")))
}

/// The value of `column` of the card with id `id` (its data row), if it is a whole number.
pub fn field(text: &str, id: u32, column: &str) -> Option<i64> {
    let lines: Vec<&str> = text.lines().collect();
    let (h, data) = rows(text).ok()?;
    let head = record(lines[h]).ok()?;
    let col = head.iter().position(|x| x.trim() == column)?;
    let rec = record(lines[*data.get(id as usize)?]).ok()?;
    rec.get(col)?.trim().parse().ok()
}

/// The card file with `column` of card `id` set to `value`: the bytes of that one field replaced,
/// every other byte unchanged.
pub fn patch(text: &str, id: u32, column: &str, value: i64) -> Result<String, Unchangeable> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let (h, data) = rows(text)?;
    let head = record(lines[h])?;
    let col = head
        .iter()
        .position(|x| x.trim() == column)
        .ok_or_else(|| Unchangeable(format!("the card file has no column \"{column}\"")))?;
    let k = *data
        .get(id as usize)
        .ok_or_else(|| Unchangeable(format!("the card file has no card {id}")))?;
    let (a, b) = field_span(lines[k], col)
        .ok_or_else(|| Unchangeable(format!("line {}: no column \"{column}\"", k + 1)))?;
    let mut out = String::with_capacity(text.len() + 8);
    for (i, l) in lines.iter().enumerate() {
        if i == k {
            out.push_str(&l[..a]);
            out.push_str(&value.to_string());
            out.push_str(&l[b..]);
        } else {
            out.push_str(l);
        }
    }
    Ok(out)
}

/// The cards of the card file `text` with `c` applied, checked: the game's reader accepts the
/// patched file and it holds the same cards under the same ids.
pub fn apply<G: GameDef>(
    text: &str,
    cards: &G::Cards,
    c: &Change,
    file: &str,
) -> Result<(String, G::Cards)> {
    let t = patch(text, c.card, c.column, c.to).map_err(|e| Error::usage(e.0))?;
    let new = G::parse_cards(&t, file)?;
    if G::card_count(&new) != G::card_count(cards)
        || (0..G::card_count(cards) as u32).any(|i| G::card_name(&new, i) != G::card_name(cards, i))
    {
        return Err(Error::input(
            file,
            0,
            "its data rows are not its cards in order; balance cannot change it",
        ));
    }
    if field(&t, c.card, c.column) != Some(c.to) {
        return Err(Error::input(
            file,
            0,
            format!("the change of card {} did not take", c.card),
        ));
    }
    Ok((t, new))
}

/// Every one-step change of a [`Tunable`] column of the cards `used`, within the column's bounds
/// and where the card has a number there, in card then column order.
pub fn changes(text: &str, tunable: &[Tunable], used: &[u32]) -> Vec<Change> {
    let mut v = Vec::new();
    for &card in used {
        for t in tunable {
            let Some(from) = field(text, card, t.column) else {
                continue;
            };
            for to in [from - t.step, from + t.step] {
                if (t.least..=t.most).contains(&to) {
                    v.push(Change {
                        card,
                        column: t.column,
                        from,
                        to,
                        helps: (to > from) == t.raise_helps,
                    });
                }
            }
        }
    }
    v
}

/// The games of one matrix of `decks` (names `names`): how they are dealt and played.
pub struct Matrix<'a, G: GameDef> {
    pub decks: Vec<&'a G::Deck>,
    pub names: Vec<String>,
    pub spec: &'a Entrant,
    pub seed: u64,
}

/// What a set of games of one card file gave: per ordered matchup `r * n + c` (mirrors empty),
/// each game's score of the row deck in half points, and the counts.
#[derive(Clone, Debug, Default)]
pub struct Games {
    pub scores: Vec<Vec<u8>>,
    pub counts: Vec<Counts>,
}

impl<G: GameDef> Matrix<'_, G> {
    fn n(&self) -> usize {
        self.decks.len()
    }

    /// Game `k` of the ordered matchup (r, c) in `round`.
    pub fn deal(&self, round: u64, r: usize, c: usize, k: u64) -> schedule::Deal {
        let h = |s: &str| fnv1a(s.bytes());
        schedule::deal(
            self.seed,
            &[BALANCE_KEY, round, h(&self.names[r]), h(&self.names[c])],
            k,
            false,
        )
    }

    /// Plays games `from..to` of every ordered matchup (no mirrors) of `round` with each card
    /// file of `variants`, adding them to `into` (one [`Games`] a variant).
    pub fn play(
        &self,
        variants: &[&G::Cards],
        round: u64,
        from: u64,
        to: u64,
        into: &mut [Games],
        progress: &(dyn Fn(u64) + Sync),
    ) {
        const BLOCK: u64 = 200;
        let n = self.n();
        let mut jobs = Vec::new();
        for v in 0..variants.len() {
            for r in 0..n {
                for c in (0..n).filter(|&c| c != r) {
                    for b in (from..to).step_by(BLOCK as usize) {
                        jobs.push((v, r, c, b));
                    }
                }
            }
        }
        let done: Vec<(usize, usize, Vec<u8>, Counts)> = jobs
            .par_iter()
            .map(|&(v, r, c, b)| {
                let g = G::new_match(variants[v], [self.decks[r], self.decks[c]]);
                let end = (b + BLOCK).min(to);
                let mut counts = Counts::default();
                let mut s = Vec::with_capacity((end - b) as usize);
                for k in b..end {
                    let d = self.deal(round, r, c, k);
                    let mut x = self.spec.build::<G>(d.agent_seeds[0]);
                    let mut y = self.spec.build::<G>(d.agent_seeds[1]);
                    let (rec, _) = play_game_to_end(
                        &g,
                        d.seed,
                        d.first,
                        [x.as_mut(), y.as_mut()],
                        |_, _, _, _| {},
                    );
                    counts.record(&rec, d.first);
                    s.push((rec.outcome.score(Seat::P1) * 2.0).round() as u8);
                }
                progress(end - b);
                (v, r * n + c, s, counts)
            })
            .collect();
        for g in into.iter_mut() {
            if g.scores.is_empty() {
                g.scores = vec![Vec::new(); n * n];
                g.counts = vec![Counts::default(); n * n];
            }
        }
        // In job order: variant, matchup, block.
        for (v, m, s, c) in done {
            into[v].scores[m].extend(s);
            into[v].counts[m].add(&c);
        }
    }
}

/// Each deck's mean score against the others (both seats, mirrors left out), from the sums of the
/// row deck's half points `sum[r * n + c]` over `games[r * n + c]` games.
pub fn deck_means(n: usize, sum: &[u64], games: &[u64]) -> Vec<f64> {
    (0..n)
        .map(|d| {
            let (mut pts, mut g) = (0u64, 0u64);
            for o in (0..n).filter(|&o| o != d) {
                pts += sum[d * n + o] + (2 * games[o * n + d] - sum[o * n + d]);
                g += games[d * n + o] + games[o * n + d];
            }
            pts as f64 / (2 * g.max(1)) as f64
        })
        .collect()
}

/// The strongest deck's mean minus the weakest's.
pub fn spread(means: &[f64]) -> f64 {
    let max = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = means.iter().copied().fold(f64::INFINITY, f64::min);
    max - min
}

/// The sum of squared deviations of the means from 50%.
pub fn ssd(means: &[f64]) -> f64 {
    means.iter().map(|m| (m - 0.5) * (m - 0.5)).sum()
}

/// The means of a set of games.
pub fn means_of(n: usize, g: &Games) -> Vec<f64> {
    let sum: Vec<u64> = g
        .scores
        .iter()
        .map(|v| v.iter().map(|&x| u64::from(x)).sum())
        .collect();
    let games: Vec<u64> = g.scores.iter().map(|v| v.len() as u64).collect();
    deck_means(n, &sum, &games)
}

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Est {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The spread of `base`, of `other` and their difference (`base − other`: the reduction), each
/// with its 95% percentile-bootstrap interval over `reps` resamples: every matchup's games drawn
/// again with replacement, the same indices for both (their games are paired by deal). Needs the
/// same games per matchup in both. `seed` decides the resamples.
pub fn bootstrap(n: usize, base: &Games, other: &Games, reps: usize, seed: u64) -> [Est; 3] {
    let mut rng = crate::core::rng_from_seed(seed);
    let mut draws: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let k: Vec<u64> = base.scores.iter().map(|v| v.len() as u64).collect();
    let (mut sa, mut sb) = (vec![0u64; n * n], vec![0u64; n * n]);
    for _ in 0..reps {
        for m in 0..n * n {
            let (a, b) = (&base.scores[m], &other.scores[m]);
            debug_assert_eq!(a.len(), b.len());
            let (mut x, mut y) = (0u64, 0u64);
            for _ in 0..a.len() {
                let i = rng.gen_range(0..a.len());
                x += u64::from(a[i]);
                y += u64::from(b[i]);
            }
            sa[m] = x;
            sb[m] = y;
        }
        let (p, q) = (
            spread(&deck_means(n, &sa, &k)),
            spread(&deck_means(n, &sb, &k)),
        );
        draws[0].push(p);
        draws[1].push(q);
        draws[2].push(p - q);
    }
    let (p, q) = (spread(&means_of(n, base)), spread(&means_of(n, other)));
    let point = [p, q, p - q];
    let mut out = [Est {
        value: 0.0,
        lo: 0.0,
        hi: 0.0,
    }; 3];
    for (i, d) in draws.iter_mut().enumerate() {
        d.sort_by(f64::total_cmp);
        let at = |q: f64| d[((q * (d.len() - 1) as f64).round() as usize).min(d.len() - 1)];
        out[i] = Est {
            value: point[i],
            lo: at(0.025),
            hi: at(0.975),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str =
        "# a comment\nname,value,\"note, quoted\"\nOne,1,\"a, b\"\n\n# mid\nTwo,2,x\r\nThree,,y";

    #[test]
    fn a_patch_changes_one_field_of_one_row() {
        assert_eq!(field(FILE, 0, "value"), Some(1));
        assert_eq!(field(FILE, 1, "value"), Some(2));
        assert_eq!(field(FILE, 2, "value"), None);
        let t = patch(FILE, 1, "value", 7).unwrap();
        assert_eq!(t, FILE.replace("Two,2,x", "Two,7,x"));
        let t = patch(FILE, 0, "value", 12).unwrap();
        assert_eq!(t, FILE.replace("One,1,", "One,12,"));
        assert!(patch(FILE, 3, "value", 1).is_err());
        // Only the field's bytes change: other quoting stays as written.
        let q = "name,value,note\n\"One\",1, \"a, b\"\r\n";
        assert_eq!(
            patch(q, 0, "value", 7).unwrap(),
            "name,value,note\n\"One\",7, \"a, b\"\r\n"
        );
        // A quoted field over two lines: refused, not miscounted.
        let m = "name,value,note\nOne,1,\"a\nb\"\nTwo,2,x\n";
        assert!(patch(m, 1, "value", 3).is_err());
        assert_eq!(field(m, 1, "value"), None);
        assert!(patch(FILE, 0, "cost", 1).is_err());
    }

    /// Hand-computed: three decks, 4 games a matchup (8 half points). As the row deck A scores 6
    /// against B and 4 against C; B scores 2 against A and 4 against C; C scores 4 against A and
    /// 8 against B. Means over 16 games each: A (6 + 4 + (8 − 2) + (8 − 4))/32 = 20/32; B (2 + 4
    /// + (8 − 6) + (8 − 8))/32 = 8/32; C (4 + 8 + (8 − 4) + (8 − 4))/32 = 20/32.
    #[test]
    fn deck_means_pool_both_seats() {
        let n = 3;
        let mut sum = vec![0u64; 9];
        let games = vec![0, 4, 4, 4, 0, 4, 4, 4, 0];
        sum[1] = 6; // A row vs B
        sum[3] = 2; // B row vs A
        sum[2] = 4; // A row vs C
        sum[6] = 4; // C row vs A
        sum[5] = 4; // B row vs C
        sum[7] = 8; // C row vs B
        let m = deck_means(n, &sum, &games);
        assert!((m[0] - 20.0 / 32.0).abs() < 1e-12, "{m:?}");
        assert!((m[1] - 8.0 / 32.0).abs() < 1e-12, "{m:?}");
        assert!((m[2] - 20.0 / 32.0).abs() < 1e-12, "{m:?}");
        assert!((spread(&m) - 12.0 / 32.0).abs() < 1e-12);
        assert!((ssd(&m) - (2.0 * 0.125f64.powi(2) + 0.25f64.powi(2))).abs() < 1e-12);
    }
}
