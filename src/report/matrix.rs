//! The report of a matrix run: the win-rate matrix, each deck's strength, every matchup, the
//! first player's advantage and the games' lengths — read from `matchups.csv` and `lengths.csv`
//! through their modules ([`crate::sim::files`]), which check every value.

use super::{der, esc, pct, pct_ci, read, src, svg, table, td, td_num, Section};
use crate::core::InputError;
use crate::sim::files::{lengths, matchups, read_file};
use crate::sim::matrix::Counts;
use std::fmt::Write as _;
use std::path::Path;

/// A matrix's matchups: the counts of each ordered pair, read from a `matchups.csv`.
pub(super) struct Matchups {
    pub(super) file: String,
    pub(super) names: Vec<String>,
    /// Row-major counts and the CSV line of each cell.
    pub(super) m: Vec<Counts>,
    pub(super) line: Vec<usize>,
    /// Each cell's rate, interval, first player's rate and mean turns as the file writes them.
    pub(super) written: Vec<(f64, f64, f64, f64, f64)>,
}

/// Reads `dir/name` (a `matchups.csv`) through [`matchups::read`]: `Ok(None)` when there is no
/// such file; the decks in the order the file first names them, each matchup exactly once.
pub(super) fn read_matchups(dir: &Path, name: &str) -> Result<Option<Matchups>, InputError> {
    let Some((text, file)) = read_file(dir, name)? else {
        return Ok(None);
    };
    let lines = matchups::read(&text, &file)?;
    if lines.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    let (names, cells) = matchups::grid(&lines, None, &file)?;
    Ok(Some(Matchups {
        file: name.to_string(),
        names,
        m: cells.iter().map(|l| l.matchup.counts).collect(),
        line: cells.iter().map(|l| l.line()).collect(),
        written: cells
            .iter()
            .map(|l| {
                let f = |k: &str| l.fields.num(k);
                (
                    f("win_rate"),
                    f("ci_low"),
                    f("ci_high"),
                    f("first_player_win_rate"),
                    f("mean_turns"),
                )
            })
            .collect(),
    }))
}

impl Matchups {
    pub(super) fn n(&self) -> usize {
        self.names.len()
    }
    /// The decks, strongest first, with their counts against the others (both directions).
    pub(super) fn strength(&self) -> Vec<(usize, Counts)> {
        crate::sim::matrix::strength(&self.m, self.n())
    }
}

/// The heatmap of a matrix (decks ordered by strength) and its per-deck means as a bar chart.
pub(super) fn heatmap_of(mu: &Matchups, id: &str, caption: &str) -> String {
    let order: Vec<usize> = mu.strength().iter().map(|&(d, _)| d).collect();
    let n = mu.n();
    let cells: Vec<Vec<svg::Cell>> = order
        .iter()
        .map(|&r| {
            order
                .iter()
                .map(|&c| {
                    let k = r * n + c;
                    let (v, lo, hi, _, _) = mu.written[k];
                    svg::Cell {
                        rate: v,
                        even: mu.m[k].games > 0 && lo <= 0.5 && 0.5 <= hi,
                        mirror: r == c,
                        label_src: src(&mu.file, mu.line[k], "win_rate"),
                        title_src: if mu.m[k].games == 0 {
                            src(&mu.file, mu.line[k], "games")
                        } else {
                            src(&mu.file, mu.line[k], "win_rate ci_low ci_high games")
                        },
                        title: if mu.m[k].games == 0 {
                            "not played (0 games)".to_string()
                        } else {
                            format!("{}, {} games", pct_ci(v, lo, hi), mu.m[k].games)
                        },
                    }
                })
                .collect()
        })
        .collect();
    let names: Vec<String> = order.iter().map(|&d| mu.names[d].clone()).collect();
    svg::heatmap(id, caption, &names, &cells)
}

pub(super) fn deck_means(mu: &Matchups, caption: &str) -> (String, String) {
    let ranked = mu.strength();
    let rows: Vec<svg::IRow> = ranked
        .iter()
        .map(|(d, t)| {
            let (lo, hi) = t.interval();
            svg::IRow {
                label: mu.names[*d].clone(),
                marks: vec![(t.win_rate(), lo, hi)],
                text: Some((
                    der("deck-mean", &mu.file, &mu.names[*d], "rate lo hi"),
                    pct_ci(t.win_rate(), lo, hi),
                )),
            }
        })
        .collect();
    let chart = svg::intervals(caption, &rows, (0.0, 1.0), 100.0, "%", Some(0.5), true, &[]);
    let trs: Vec<String> = ranked
        .iter()
        .enumerate()
        .map(|(k, (d, t))| {
            let (lo, hi) = t.interval();
            let name = &mu.names[*d];
            format!(
                "<td class=\"num t\" data-sort=\"{}\">{}</td>{}{}{}",
                k + 1,
                k + 1,
                td(name),
                td_num(
                    &der("deck-mean", &mu.file, name, "rate lo hi"),
                    t.win_rate(),
                    &pct_ci(t.win_rate(), lo, hi)
                ),
                td_num(
                    &der("deck-mean", &mu.file, name, "games"),
                    t.games as f64,
                    &t.games.to_string()
                )
            )
        })
        .collect();
    (
        chart,
        table(
            "Each deck's mean win rate against the others (both seats of every pair pooled)",
            &["rank", "deck", "mean win rate (95%)", "games"],
            &trs,
        ),
    )
}

/// The sections of a matrix run, from `dir/name` (a `matchups.csv`) and the `lengths.csv` beside
/// it (or the games' records): nothing when there is no such file.
pub(super) fn matrix_sections(
    dir: &Path,
    id: &str,
    name: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    let Some(mu) = read_matchups(dir, name)? else {
        return Ok(());
    };
    out.push(Section {
        id: format!("{id}-matrix"),
        title: tag("Win-rate matrix"),
        html: matrix_html(&mu, id),
    });
    let (chart, tbl) = deck_means(&mu, "Mean win rate of each deck");
    out.push(Section {
        id: format!("{id}-decks"),
        title: tag("Deck strength"),
        html: format!("{chart}{tbl}"),
    });
    out.extend(super::meta::meta_section(dir, &mu, id, tag)?);
    out.push(Section {
        id: format!("{id}-matchups"),
        title: tag("Matchups, most lopsided first"),
        html: matchups_table(&mu),
    });
    let mut all = Counts::default();
    for c in &mu.m {
        all.add(c);
    }
    out.push(Section {
        id: format!("{id}-first"),
        title: tag("First-player advantage"),
        html: first_player_html(&mu, &all),
    });
    out.push(Section {
        id: format!("{id}-length"),
        title: tag("Game length"),
        html: length_html(&mu, dir, name, &all)?,
    });
    Ok(())
}

/// The strongest deck and the heatmap.
fn matrix_html(mu: &Matchups, id: &str) -> String {
    let mut html = String::new();
    if let Some((d, t)) = mu.strength().first() {
        let (lo, hi) = t.interval();
        let _ = writeln!(
            html,
            "<p class=\"lead\">Strongest deck: <strong>{}</strong>, <span{}>{}</span> against the others.</p>",
            esc(&mu.names[*d]),
            der("deck-mean", &mu.file, &mu.names[*d], "rate lo hi"),
            esc(&pct_ci(t.win_rate(), lo, hi))
        );
    }
    html += &heatmap_of(
        mu,
        &format!("{id}-heat"),
        "Win rate of the row deck against the column deck",
    );
    html
}

/// Every matchup: rate, interval, first player, length; lopsided first.
fn matchups_table(mu: &Matchups) -> String {
    let n = mu.n();
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.sort_by(|&a, &b| {
        let d = |k: usize| (mu.written[k].0 - 0.5).abs();
        d(b).total_cmp(&d(a)).then(a.cmp(&b))
    });
    let rows: Vec<String> = cells
        .iter()
        .map(|&k| {
            let (v, lo, hi, fp, mt) = mu.written[k];
            let l = mu.line[k];
            let close = mu.m[k].games > 0 && lo <= 0.5 && 0.5 <= hi;
            format!(
                "{}{}{}{}{}{}{}",
                td(&mu.names[k / n]),
                td(&mu.names[k % n]),
                td_num(
                    &src(&mu.file, l, "win_rate ci_low ci_high"),
                    v,
                    &pct_ci(v, lo, hi)
                ),
                format_args!(
                    "<td class=\"t\">{}</td>",
                    if close { "≈ too close to call" } else { "" }
                ),
                td_num(
                    &src(&mu.file, l, "games"),
                    mu.m[k].games as f64,
                    &mu.m[k].games.to_string()
                ),
                td_num(&src(&mu.file, l, "first_player_win_rate"), fp, &pct(fp, 1)),
                td_num(&src(&mu.file, l, "mean_turns"), mt, &format!("{mt:.1}")),
            )
        })
        .collect();
    table(
        "Every ordered matchup: the row deck's win rate with its Wilson 95% interval",
        &[
            "row deck",
            "column deck",
            "win rate (95%)",
            "interval includes 50%",
            "games",
            "first player wins",
            "mean turns",
        ],
        &rows,
    )
}

/// First-player advantage over all games (`all`), and by row deck.
fn first_player_html(mu: &Matchups, all: &Counts) -> String {
    let n = mu.n();
    let (flo, fhi) = crate::stats::wilson(
        all.first_player_wins as f64,
        all.games as f64,
        crate::stats::Z95,
    );
    let fp_rate = all.first_player_wins as f64 / all.games.max(1) as f64;
    let mut html = format!(
        "<p class=\"lead\">The player who moves first won <span{}>{}</span> of <span{}>{}</span> games.</p>\n",
        der("first-player", &mu.file, "all", "rate lo hi"),
        esc(&pct_ci(fp_rate, flo, fhi)),
        der("first-player", &mu.file, "all", "games"),
        all.games
    );
    let rows: Vec<svg::IRow> = mu
        .strength()
        .iter()
        .map(|&(d, _)| {
            // The deck's games as the first player's deck... only the matchups' own rates are
            // written; the chart shows the first player's rate in the deck's row matchups.
            let mut t = Counts::default();
            for c in 0..n {
                t.add(&mu.m[d * n + c]);
            }
            let r = t.first_player_wins as f64 / t.games.max(1) as f64;
            let (lo, hi) = crate::stats::wilson(
                t.first_player_wins as f64,
                t.games as f64,
                crate::stats::Z95,
            );
            svg::IRow {
                label: mu.names[d].clone(),
                marks: vec![(r, lo, hi)],
                text: Some((
                    der("first-player", &mu.file, &mu.names[d], "rate lo hi"),
                    pct_ci(r, lo, hi),
                )),
            }
        })
        .collect();
    html += "<p>The first player's win rate in the matchups where each deck is the row deck (either seat may be first):</p>\n";
    html += &svg::intervals(
        "First player's win rate by row deck",
        &rows,
        (0.0, 1.0),
        100.0,
        "%",
        Some(0.5),
        false,
        &[],
    );
    html
}

/// Game length: the mean, a histogram of single games (from `lengths.csv`, else from the games'
/// records, else a note), and each matchup's mean.
fn length_html(mu: &Matchups, dir: &Path, name: &str, all: &Counts) -> Result<String, InputError> {
    let mean_turns = all.turns as f64 / all.games.max(1) as f64;
    let mut html = format!(
        "<p class=\"lead\">Games lasted <span{}>{mean_turns:.1}</span> turns on average.</p>\n",
        der("mean-turns", &mu.file, "all", "mean")
    );
    // The histogram: from lengths.csv (every matrix run since format v4), else from the games'
    // records, else none.
    let lengths_name = name.replace("matchups", "lengths");
    let from_lengths = match read_file(dir, &lengths_name)? {
        Some((text, file)) if lengths_name != name => {
            Some(lengths::read_pooled(&text, &file, all.games)?)
        }
        _ => None,
    };
    if let Some(hist) = from_lengths {
        html += &lengths_histogram(&hist, &lengths_name, all.games);
    } else {
        match read::record_turns(dir)? {
            Some(turns) if !turns.is_empty() => html += &records_histogram(&turns),
            _ => {
                html += "<p class=\"note\">A histogram of single games' lengths needs <code>lengths.csv</code> (written by every matrix run of this tcgsim) or the games' records (<code>matrix --records</code>); this run kept the mean of each matchup, shown here sorted.</p>\n";
            }
        }
    }
    html += &matchup_lengths(mu);
    Ok(html)
}

/// The histogram of `lengths.csv` pooled over every matchup: (turns, games) of the nonzero bins,
/// the last bin open.
fn lengths_histogram(hist: &[(u64, u64)], lengths_name: &str, games: u64) -> String {
    let lo = hist.iter().map(|b| b.0).min().unwrap_or(1);
    let hi = hist.iter().map(|b| b.0).max().unwrap_or(1);
    let width = (hi - lo + 1).div_ceil(40).max(1);
    let top = crate::sim::matrix::LENGTH_BINS as u64;
    let mut bins: Vec<(String, String, u64)> = Vec::new();
    let mut a = lo;
    while a <= hi {
        let b = (a + width - 1).min(hi);
        let count = hist
            .iter()
            .filter(|x| (a..=b).contains(&x.0))
            .map(|x| x.1)
            .sum();
        let end = if b == top {
            format!("{top}+")
        } else {
            b.to_string()
        };
        let label = if a == b { end } else { format!("{a}–{end}") };
        bins.push((
            label,
            der("length-hist", lengths_name, &format!("{a} {b}"), "games"),
            count,
        ));
        a = b + 1;
    }
    let mut html = format!(
        "<p>The number of games of each length (turns), all matchups pooled, from <code>{}</code> (<span{}>{}</span> games; its last bin, {top}+, holds games of {top} turns or more):</p>\n",
        esc(lengths_name),
        der("length-hist", lengths_name, "all", "games"),
        games
    );
    html += &svg::histogram("Game lengths", "turns", &bins);
    html
}

/// The histogram of the games' records (`records.jsonl`, not empty).
fn records_histogram(turns: &[u64]) -> String {
    let lo = *turns.iter().min().expect("not empty");
    let hi = *turns.iter().max().expect("not empty");
    let width = (hi - lo + 1).div_ceil(40).max(1);
    let mut bins: Vec<(String, String, u64)> = Vec::new();
    let mut a = lo;
    while a <= hi {
        let b = a + width - 1;
        let count = turns.iter().filter(|&&t| (a..=b).contains(&t)).count() as u64;
        let label = if width == 1 {
            a.to_string()
        } else {
            format!("{a}–{b}")
        };
        bins.push((
            label,
            der("length-hist", "records.jsonl", &format!("{a} {b}"), "games"),
            count,
        ));
        a = b + 1;
    }
    let mut html = format!(
        "<p>The number of games of each length (turns), from <code>records.jsonl</code> (<span{}>{}</span> games):</p>\n",
        der("length-hist", "records.jsonl", "all", "games"),
        turns.len()
    );
    html += &svg::histogram("Game lengths", "turns", &bins);
    html
}

/// Each matchup's mean length, shortest first.
fn matchup_lengths(mu: &Matchups) -> String {
    let n = mu.n();
    let mut by_len: Vec<usize> = (0..n * n).collect();
    by_len.sort_by(|&a, &b| mu.written[a].4.total_cmp(&mu.written[b].4).then(a.cmp(&b)));
    let rows: Vec<svg::IRow> = by_len
        .iter()
        .map(|&k| svg::IRow {
            label: format!("{} vs {}", mu.names[k / n], mu.names[k % n]),
            marks: vec![(mu.written[k].4, f64::NAN, f64::NAN)],
            text: Some((
                src(&mu.file, mu.line[k], "mean_turns"),
                format!("{:.1} turns", mu.written[k].4),
            )),
        })
        .collect();
    let most = by_len
        .last()
        .map_or(1.0, |&k| mu.written[k].4)
        .max(1.0)
        .ceil();
    svg::intervals(
        "Mean game length of each matchup",
        &rows,
        (0.0, most),
        1.0,
        "",
        None,
        true,
        &[],
    )
}
