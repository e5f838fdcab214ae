//! `tcgsim report`: one self-contained HTML page from the files of one or more run folders
//! (`run.json` and the CSV files each command writes), for any game: it reads only those files,
//! so it names no game.
//!
//! Every number the page shows is text, in an element that says where it came from, so that a
//! test can check each against its file (`tests/suite/report.rs`):
//! - `data-f="FILE"` the file in the run folder, `data-l="LINE"` the CSV line (none for
//!   `run.json`, whose keys are the columns);
//! - `data-c="A B …"`: the numbers of the element's text, in order, are columns A, B, … of that
//!   line; a number followed by `%` is the column's value × 100, and so is every number of an
//!   element with `data-u="pts"` (percentage points);
//! - `data-d="KIND" data-k="KEY"`: a number derived from the file (a deck's mean win rate, the
//!   first player's rate over all games, a bin of the game-length histogram), which the test
//!   computes again;
//! - `class="axis"`: axis and legend labels, not data.
//!
//! No server, no network: inline CSS and SVG, one small script that sorts tables (the page reads
//! fully without it) and records script errors on the page (`data-js-error`) for
//! `scripts/check_report.sh`.

pub mod index;
mod read;

// The drawing and the escaping are the result files' (`matrix.svg`), one layer down.
use crate::sim::svg;
pub use crate::sim::svg::esc;

use crate::sim::matrix::Counts;
use crate::sim::output::RunInfo;
use read::Csv;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// ` data-f="FILE" data-l="LINE" data-c="COLS"`.
fn src(file: &str, line: usize, cols: &str) -> String {
    format!(
        " data-f=\"{}\" data-l=\"{line}\" data-c=\"{cols}\"",
        esc(file)
    )
}

/// ` data-d="KIND" data-f="FILE" data-k="KEY" data-c="COLS"`: a derived number.
fn der(kind: &str, file: &str, key: &str, cols: &str) -> String {
    format!(
        " data-d=\"{kind}\" data-f=\"{}\" data-k=\"{}\" data-c=\"{cols}\"",
        esc(file),
        esc(key)
    )
}

/// A rate as a percentage with `d` decimals, `–` when undefined; negative numbers with a minus
/// sign.
fn pct(x: f64, d: usize) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        minus(format!("{:.d$}%", 100.0 * x))
    }
}

/// A value in percentage points, signed.
fn pts(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        minus(format!("{:+.1}", 100.0 * x))
    }
}

fn minus(s: String) -> String {
    s.replace('-', "−")
}

/// `value (lo–hi)` as percentages with one decimal.
fn pct_ci(v: f64, lo: f64, hi: f64) -> String {
    if lo.is_nan() || hi.is_nan() {
        pct(v, 1)
    } else {
        format!("{} ({}–{})", pct(v, 1), pct(lo, 1), pct(hi, 1))
    }
}

/// `value (lo…hi)` in points.
fn pts_ci(v: f64, lo: f64, hi: f64) -> String {
    if v.is_nan() {
        "–".into()
    } else {
        format!("{} ({} … {})", pts(v), pts(lo), pts(hi))
    }
}

/// A table cell with a number's source and the value to sort by.
fn td_num(attrs: &str, sort: f64, text: &str) -> String {
    let sort = if sort.is_nan() {
        String::new()
    } else {
        format!(" data-sort=\"{sort}\"")
    };
    if text == "–" {
        format!("<td class=\"num\"{sort}>–</td>")
    } else {
        format!("<td class=\"num\"{attrs}{sort}>{}</td>", esc(text))
    }
}

/// A table cell of text (a name).
fn td(text: &str) -> String {
    format!("<td class=\"t\">{}</td>", esc(text))
}

/// A sortable table: header cells, then rows of cells.
fn table(caption: &str, head: &[&str], rows: &[String]) -> String {
    let mut s = format!(
        "<table class=\"sortable\"><caption>{}</caption><thead><tr>",
        esc(caption)
    );
    for h in head {
        let _ = write!(s, "<th scope=\"col\">{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in rows {
        let _ = writeln!(s, "<tr>{r}</tr>");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// A section of the page: its anchor, its title, its HTML.
struct Section {
    id: String,
    title: String,
    html: String,
}

/// The page for the run folders `dirs`: one part per folder, in order.
pub fn build(dirs: &[PathBuf]) -> Result<String, String> {
    let mut parts = Vec::new();
    for (k, d) in dirs.iter().enumerate() {
        parts.push(run_part(d, &format!("r{}", k + 1), dirs.len() > 1)?);
    }
    let title = match parts.as_slice() {
        [(info, _)] => format!(
            "tcgsim {} — {} — {}",
            info.command,
            info.game,
            dirs[0].display()
        ),
        _ => format!("tcgsim report — {} runs", parts.len()),
    };
    let mut nav = String::new();
    let mut body = String::new();
    for (_, sections) in &parts {
        for s in sections {
            let _ = writeln!(nav, "<li><a href=\"#{}\">{}</a></li>", s.id, esc(&s.title));
            let _ = writeln!(
                body,
                "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>",
                s.id,
                esc(&s.title),
                s.html
            );
        }
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<script>{}</script>\n<style>{}</style>\n</head>\n<body>\n<header><h1>{}</h1><p class=\"note\">Written by tcgsim {} from the files of the run folder. Every figure is a number in the text; intervals are 95%. Click a table's header to sort it.</p>\n<nav><ol>\n{nav}</ol></nav></header>\n<main>\n{body}</main>\n<script>{}</script>\n</body>\n</html>\n",
        esc(&title),
        ERRORS_JS,
        CSS,
        esc(&title),
        env!("CARGO_PKG_VERSION"),
        SORT_JS
    ))
}

/// Writes the report of `dirs` to `out`.
pub fn write(dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let html = build(dirs).map_err(|e| anyhow::anyhow!(e))?;
    crate::sim::output::write_atomic(out, &html).map_err(|e| {
        anyhow::Error::new(crate::core::WriteError::new(
            format!("{}: cannot write", out.display()),
            e,
        ))
    })
}

/// The sections of one run folder.
fn run_part(dir: &Path, id: &str, many: bool) -> Result<(RunInfo, Vec<Section>), String> {
    let path = dir.join("run.json");
    let file = path.display().to_string();
    if !path.is_file() {
        return Err(format!(
            "{file}: no run.json: not a tcgsim run folder (run matrix, cards, arena, tune, balance or duel with --out {})",
            dir.display()
        ));
    }
    let text = crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES)
        .map_err(|e| e.to_string())?;
    let info = RunInfo::parse(&text, &file)?;
    let tag = |s: &str| {
        if many {
            format!("{} ({})", s, dir.display())
        } else {
            s.to_string()
        }
    };
    let mut out = vec![Section {
        id: format!("{id}-run"),
        title: tag("The run"),
        html: meta(&info),
    }];
    // Only the files of the command that wrote run.json: a folder reused by several commands
    // (`results/` by default) keeps the others' older files, which belong to other runs.
    let (expected, shown) = match info.command.as_str() {
        "matrix" => ("matchups.csv", matrix_sections(dir, id, "matchups.csv", &tag, &mut out)),
        "cards" => ("cards.csv", cards_section(dir, id, &tag, &mut out)),
        "arena" | "arena --sprt" => ("arena.csv or sprt.csv", arena_sections(dir, id, &tag, &mut out)),
        "tune" => ("tune.csv", tune_sections(dir, id, &tag, &mut out)),
        "balance" => ("balance.csv", balance_sections(dir, id, &tag, &mut out)),
        "duel" => ("duel.csv", duel_section(dir, id, &tag, &mut out)),
        other => {
            return Err(format!(
                "{file}: command \"{other}\" has no report (matrix, cards, arena, tune, balance and duel have)"
            ))
        }
    };
    shown?;
    if out.len() == 1 {
        return Err(format!(
            "{}: no {expected}, the result file of the \"{}\" run that run.json describes",
            dir.display(),
            info.command
        ));
    }
    Ok((info, out))
}

/// The run's metadata, from `run.json`.
fn meta(i: &RunInfo) -> String {
    let row = |k: &str, v: String| format!("<tr><th scope=\"row\">{}</th>{v}</tr>\n", esc(k));
    let n = |key: &str, v: String| format!("<td{}>{}</td>", src_json(key), esc(&v));
    let mut s = String::from("<table class=\"meta\"><tbody>\n");
    s += &row("command", td(&i.command));
    s += &row("game", td(&i.game));
    s += &row("decks", td(&i.decks.join(", ")));
    s += &row("agents", td(&i.agents.join(", ")));
    s += &row("games", n("games", i.games.to_string()));
    s += &row(
        "games played",
        n("games_played", i.games_played.to_string()),
    );
    s += &row("seed", n("seed", i.seed.to_string()));
    s += &row("time", n("seconds", format!("{:.1} s", i.seconds)));
    if let Some((a, b)) = i.shard {
        s += &row("shard", td(&format!("{a} of {b}")));
    }
    s += &row("arguments", td(&format!("tcgsim {}", i.args.join(" "))));
    s += &row("cards and rules (content hash)", td(&i.content));
    s += &row("tcgsim version", td(&i.version));
    s.push_str("</tbody></table>\n");
    s
}

fn src_json(key: &str) -> String {
    format!(" data-f=\"run.json\" data-c=\"{key}\"")
}

/// A matrix's matchups: the counts of each ordered pair, read from a `matchups.csv`.
struct Matchups {
    file: String,
    names: Vec<String>,
    /// Row-major counts and the CSV line of each cell.
    m: Vec<Counts>,
    line: Vec<usize>,
    /// Each cell's rate and interval as the file writes them.
    written: Vec<(f64, f64, f64, f64, f64)>,
}

fn read_matchups(dir: &Path, name: &str) -> Result<Option<Matchups>, String> {
    let nums = [
        "games",
        "wins",
        "losses",
        "draws",
        "win_rate",
        "ci_low",
        "ci_high",
        "first_player_wins",
        "first_player_win_rate",
        "turns",
        "mean_turns",
    ];
    let Some(c) = Csv::read(dir, name, &["row_deck", "col_deck"], &nums)? else {
        return Ok(None);
    };
    let mut names: Vec<String> = Vec::new();
    for r in 0..c.len() {
        for k in ["row_deck", "col_deck"] {
            let t = c.text(r, k);
            if !names.iter().any(|x| x == t) {
                names.push(t.to_string());
            }
        }
    }
    let n = names.len();
    let mut m = vec![Counts::default(); n * n];
    let mut line = vec![0; n * n];
    let mut written = vec![(f64::NAN, f64::NAN, f64::NAN, f64::NAN, f64::NAN); n * n];
    let file = dir.join(name).display().to_string();
    for r in 0..c.len() {
        let pos = |k: &str| {
            names
                .iter()
                .position(|x| x == c.text(r, k))
                .expect("listed")
        };
        let cell = pos("row_deck") * n + pos("col_deck");
        if line[cell] != 0 {
            return Err(format!(
                "{file}:{}: matchup {} vs {} is given twice (first on line {})",
                c.line(r),
                c.text(r, "row_deck"),
                c.text(r, "col_deck"),
                line[cell]
            ));
        }
        line[cell] = c.line(r);
        let u = |k: &str| -> Result<u64, String> {
            let v = c.num(r, k);
            if v.is_nan() || v < 0.0 || v.fract() != 0.0 {
                return Err(format!(
                    "{file}:{}: column `{k}`: \"{}\" is not a count",
                    c.line(r),
                    c.text(r, k)
                ));
            }
            Ok(v as u64)
        };
        m[cell] = Counts {
            games: u("games")?,
            wins: u("wins")?,
            losses: u("losses")?,
            draws: u("draws")?,
            first_player_wins: u("first_player_wins")?,
            turns: u("turns")?,
            decisions: 0,
            lengths: Default::default(),
        };
        let x = &m[cell];
        if x.wins + x.losses + x.draws != x.games || x.first_player_wins > x.games {
            return Err(format!(
                "{file}:{}: impossible counts: wins + losses + draws must be games, first-player wins at most games",
                c.line(r)
            ));
        }
        written[cell] = (
            c.num(r, "win_rate"),
            c.num(r, "ci_low"),
            c.num(r, "ci_high"),
            c.num(r, "first_player_win_rate"),
            c.num(r, "mean_turns"),
        );
        // Every rate is what the row's counts give, as the writer rounds it (4 decimals; empty
        // when no game was played).
        let (lo, hi) = x.interval();
        let per_game = |v: u64| v as f64 / x.games as f64;
        let (w, l, h, f, t) = written[cell];
        for (k, got, want) in [
            ("win_rate", w, x.win_rate()),
            ("ci_low", l, lo),
            ("ci_high", h, hi),
            ("first_player_win_rate", f, per_game(x.first_player_wins)),
            ("mean_turns", t, per_game(x.turns)),
        ] {
            let ok = if x.games == 0 {
                got.is_nan()
            } else {
                (got - want).abs() <= 0.5e-4 + 1e-9
            };
            if !ok {
                return Err(format!(
                    "{file}:{}: column `{k}`: \"{}\" is not what the row's counts give ({})",
                    c.line(r),
                    c.text(r, k),
                    if x.games == 0 {
                        "empty: no game played".to_string()
                    } else {
                        format!("{want:.4}")
                    }
                ));
            }
        }
    }
    if let Some(cell) = line.iter().position(|&l| l == 0) {
        return Err(format!(
            "{file}: matchup {} vs {} is missing",
            names[cell / n],
            names[cell % n]
        ));
    }
    Ok(Some(Matchups {
        file: name.to_string(),
        names,
        m,
        line,
        written,
    }))
}

impl Matchups {
    fn n(&self) -> usize {
        self.names.len()
    }
    /// The decks, strongest first, with their counts against the others (both directions).
    fn strength(&self) -> Vec<(usize, Counts)> {
        crate::sim::output::strength(&self.m, self.n())
    }
}

/// The heatmap of a matrix (decks ordered by strength) and its per-deck means as a bar chart.
fn heatmap_of(mu: &Matchups, id: &str, caption: &str) -> String {
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

fn deck_means(mu: &Matchups, caption: &str) -> (String, String) {
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

fn matrix_sections(
    dir: &Path,
    id: &str,
    name: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let Some(mu) = read_matchups(dir, name)? else {
        return Ok(());
    };
    let n = mu.n();
    let ranked = mu.strength();
    let mut html = String::new();
    if let Some((d, t)) = ranked.first() {
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
        &mu,
        &format!("{id}-heat"),
        "Win rate of the row deck against the column deck",
    );
    out.push(Section {
        id: format!("{id}-matrix"),
        title: tag("Win-rate matrix"),
        html,
    });
    let (chart, tbl) = deck_means(&mu, "Mean win rate of each deck");
    out.push(Section {
        id: format!("{id}-decks"),
        title: tag("Deck strength"),
        html: format!("{chart}{tbl}"),
    });
    // Every matchup: rate, interval, first player, length; lopsided first.
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
    out.push(Section {
        id: format!("{id}-matchups"),
        title: tag("Matchups, most lopsided first"),
        html: table(
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
        ),
    });
    // First-player advantage over all games.
    let mut all = Counts::default();
    for c in &mu.m {
        all.add(c);
    }
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
    out.push(Section {
        id: format!("{id}-first"),
        title: tag("First-player advantage"),
        html,
    });
    // Game length.
    let mean_turns = all.turns as f64 / all.games.max(1) as f64;
    let mut html = format!(
        "<p class=\"lead\">Games lasted <span{}>{mean_turns:.1}</span> turns on average.</p>\n",
        der("mean-turns", &mu.file, "all", "mean")
    );
    // The histogram: from lengths.csv (every matrix run since format v4), else from the games'
    // records, else none.
    let lengths_name = name.replace("matchups", "lengths");
    let from_lengths = if lengths_name != name {
        read_lengths(dir, &lengths_name, all.games)?
    } else {
        None
    };
    if let Some(hist) = from_lengths {
        // Pooled over every matchup: (turns, games) of the nonzero bins, the last bin open.
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
                der("length-hist", &lengths_name, &format!("{a} {b}"), "games"),
                count,
            ));
            a = b + 1;
        }
        html += &format!(
            "<p>The number of games of each length (turns), all matchups pooled, from <code>{}</code> (<span{}>{}</span> games; its last bin, {top}+, holds games of {top} turns or more):</p>\n",
            esc(&lengths_name),
            der("length-hist", &lengths_name, "all", "games"),
            all.games
        );
        html += &svg::histogram("Game lengths", "turns", &bins);
    } else {
        match read::record_turns(dir)? {
            Some(turns) if !turns.is_empty() => {
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
                html += &format!(
                "<p>The number of games of each length (turns), from <code>records.jsonl</code> (<span{}>{}</span> games):</p>\n",
                der("length-hist", "records.jsonl", "all", "games"),
                turns.len()
            );
                html += &svg::histogram("Game lengths", "turns", &bins);
            }
            _ => {
                html += "<p class=\"note\">A histogram of single games' lengths needs <code>lengths.csv</code> (written by every matrix run of this tcgsim) or the games' records (<code>matrix --records</code>); this run kept the mean of each matchup, shown here sorted.</p>\n";
            }
        }
    }
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
    html += &svg::intervals(
        "Mean game length of each matchup",
        &rows,
        (0.0, most),
        1.0,
        "",
        None,
        true,
        &[],
    );
    out.push(Section {
        id: format!("{id}-length"),
        title: tag("Game length"),
        html,
    });
    Ok(())
}

/// The game-length histogram of `dir/name` (`lengths.csv`), pooled over every matchup: the
/// (turns, games) of each bin with games, the open last bin as its least turns, in order of turns.
/// `Ok(None)` when there is no such file; an error names the file and line of a bad row, or the
/// file when its games are not `games` (those of `matchups.csv`).
fn read_lengths(dir: &Path, name: &str, games: u64) -> Result<Option<Vec<(u64, u64)>>, String> {
    use crate::sim::matrix::Lengths;
    let path = dir.join(name);
    if !path.is_file() {
        return Ok(None);
    }
    let file = path.display().to_string();
    let text = crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES)
        .map_err(|e| e.to_string())?;
    // The reader `merge` uses: the exact header, canonical lengths, each (matchup, length) once.
    let mut all = Lengths::default();
    for (_, _, _, h) in crate::sim::output::read_lengths(&text, &file)? {
        for (a, b) in all.0.iter_mut().zip(h.0) {
            *a = a.saturating_add(b);
        }
    }
    let total = all.0.iter().fold(0u64, |a, &b| a.saturating_add(b));
    if total != games {
        return Err(format!(
            "{file}: its histograms hold {total} games where the matchups hold {games}"
        ));
    }
    Ok(Some(
        all.nonzero()
            .map(|(k, g)| (Lengths::turns_of(k), g))
            .collect(),
    ))
}

fn cards_section(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let nums = [
        "copies",
        "games",
        "drawn_rate",
        "played_rate",
        "iwd",
        "iwd_lo",
        "iwd_hi",
        "ablation_value",
        "ablation_lo",
        "ablation_hi",
    ];
    let Some(c) = Csv::read(dir, "cards.csv", &["deck", "card", "agree", "flag"], &nums)? else {
        return Ok(());
    };
    let mut decks: Vec<String> = Vec::new();
    for r in 0..c.len() {
        if !decks.iter().any(|d| d == c.text(r, "deck")) {
            decks.push(c.text(r, "deck").to_string());
        }
    }
    let mut html = String::from("<p>Each card's contribution in percentage points of win rate: <strong>ablation</strong> (the deck with one copy replaced by a filler, paired deals) and <strong>IWD</strong> (win rate when drawn minus when not seen), side by side with 95% intervals. Flagged cards (!) were rarely played when drawn: their ablation value measures them only as a resource (<code>docs/statistics.md</code>).</p>\n");
    for (k, deck) in decks.iter().enumerate() {
        let rows: Vec<usize> = (0..c.len())
            .filter(|&r| c.text(r, "deck") == deck)
            .collect();
        let _ = writeln!(html, "<h3 id=\"{id}-cards-{}\">{}</h3>", k + 1, esc(deck));
        let irows: Vec<svg::IRow> = rows
            .iter()
            .map(|&r| svg::IRow {
                label: format!(
                    "{}{}",
                    c.text(r, "card"),
                    if c.text(r, "flag").is_empty() {
                        ""
                    } else {
                        " (!)"
                    }
                ),
                marks: vec![
                    (
                        c.num(r, "ablation_value"),
                        c.num(r, "ablation_lo"),
                        c.num(r, "ablation_hi"),
                    ),
                    (c.num(r, "iwd"), c.num(r, "iwd_lo"), c.num(r, "iwd_hi")),
                ],
                text: None,
            })
            .collect();
        let span = irows
            .iter()
            .flat_map(|r| r.marks.iter().flat_map(|m| [m.0, m.1, m.2]))
            .filter(|x| !x.is_nan())
            .fold(0.05f64, |a, x| a.max(x.abs()));
        let span = (span * 20.0).ceil() / 20.0;
        html += &svg::intervals(
            &format!("Card contributions of {deck}"),
            &irows,
            (-span, span),
            100.0,
            "",
            Some(0.0),
            false,
            &["ablation, pts", "IWD, pts"],
        );
        let trs: Vec<String> = rows
            .iter()
            .map(|&r| {
                let l = c.line(r);
                let f = &c.name;
                let pts_src = |cols: &str| format!("{} data-u=\"pts\"", src(f, l, cols));
                format!(
                    "{}{}{}{}{}{}{}{}",
                    td(c.text(r, "card")),
                    td_num(
                        &src(f, l, "copies"),
                        c.num(r, "copies"),
                        c.text(r, "copies")
                    ),
                    td_num(
                        &pts_src("ablation_value ablation_lo ablation_hi"),
                        c.num(r, "ablation_value"),
                        &pts_ci(
                            c.num(r, "ablation_value"),
                            c.num(r, "ablation_lo"),
                            c.num(r, "ablation_hi")
                        )
                    ),
                    td_num(
                        &pts_src("iwd iwd_lo iwd_hi"),
                        c.num(r, "iwd"),
                        &pts_ci(c.num(r, "iwd"), c.num(r, "iwd_lo"), c.num(r, "iwd_hi"))
                    ),
                    td(c.text(r, "agree")),
                    td_num(
                        &src(f, l, "drawn_rate"),
                        c.num(r, "drawn_rate"),
                        &pct(c.num(r, "drawn_rate"), 0)
                    ),
                    td_num(
                        &src(f, l, "played_rate"),
                        c.num(r, "played_rate"),
                        &pct(c.num(r, "played_rate"), 0)
                    ),
                    td(if c.text(r, "flag").is_empty() {
                        ""
                    } else {
                        "! rarely played"
                    }),
                )
            })
            .collect();
        html += &table(
            &format!("The cards of {deck}, in the ranking's order"),
            &[
                "card",
                "copies",
                "ablation, pts (95%)",
                "IWD, pts (95%)",
                "agree",
                "drawn",
                "played when drawn",
                "flag",
            ],
            &trs,
        );
    }
    out.push(Section {
        id: format!("{id}-cards"),
        title: tag("Card rankings"),
        html,
    });
    Ok(())
}

fn arena_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    if let Some(c) = Csv::read(
        dir,
        "arena.csv",
        &["agent"],
        &["elo", "elo_lo", "elo_hi", "games", "score", "score_rate"],
    )? {
        let f = &c.name;
        let rows: Vec<svg::IRow> = (0..c.len())
            .map(|r| svg::IRow {
                label: c.text(r, "agent").to_string(),
                marks: vec![(c.num(r, "elo"), c.num(r, "elo_lo"), c.num(r, "elo_hi"))],
                text: Some((
                    src(f, c.line(r), "elo elo_lo elo_hi"),
                    minus(format!(
                        "{:.0} ({:.0} … {:.0})",
                        c.num(r, "elo"),
                        c.num(r, "elo_lo"),
                        c.num(r, "elo_hi")
                    )),
                )),
            })
            .collect();
        let lo = (0..c.len()).map(|r| c.num(r, "elo_lo")).fold(0.0, f64::min);
        let hi = (0..c.len()).map(|r| c.num(r, "elo_hi")).fold(0.0, f64::max);
        let lo = (lo / 100.0).floor() * 100.0;
        let hi = ((hi / 100.0).ceil() * 100.0).max(lo + 100.0);
        let mut html = String::from("<p>Bradley–Terry ratings in Elo, centred so that their mean is 0 (<code>docs/statistics.md</code>), with 95% intervals.</p>\n");
        html += &svg::intervals(
            "Agent ratings",
            &rows,
            (lo, hi),
            1.0,
            "",
            Some(0.0),
            false,
            &[],
        );
        let trs: Vec<String> = (0..c.len())
            .map(|r| {
                let l = c.line(r);
                format!(
                    "{}{}{}{}{}",
                    td(c.text(r, "agent")),
                    td_num(
                        &src(f, l, "elo"),
                        c.num(r, "elo"),
                        &minus(format!("{:.1}", c.num(r, "elo")))
                    ),
                    td_num(
                        &src(f, l, "elo_lo elo_hi"),
                        c.num(r, "elo_lo"),
                        &minus(format!(
                            "{:.1} … {:.1}",
                            c.num(r, "elo_lo"),
                            c.num(r, "elo_hi")
                        ))
                    ),
                    td_num(&src(f, l, "games"), c.num(r, "games"), c.text(r, "games")),
                    td_num(
                        &src(f, l, "score_rate"),
                        c.num(r, "score_rate"),
                        &pct(c.num(r, "score_rate"), 1)
                    ),
                )
            })
            .collect();
        html += &table(
            "Ratings",
            &["agent", "Elo", "95% interval", "games", "score"],
            &trs,
        );
        if let Some(p) = Csv::read(
            dir,
            "arena_pairs.csv",
            &["agent_a", "agent_b"],
            &["games", "rate_a", "ci_low", "ci_high"],
        )? {
            let f = &p.name;
            let trs: Vec<String> = (0..p.len())
                .map(|r| {
                    let l = p.line(r);
                    format!(
                        "{}{}{}{}",
                        td(p.text(r, "agent_a")),
                        td(p.text(r, "agent_b")),
                        td_num(
                            &src(f, l, "rate_a ci_low ci_high"),
                            p.num(r, "rate_a"),
                            &pct_ci(p.num(r, "rate_a"), p.num(r, "ci_low"), p.num(r, "ci_high"))
                        ),
                        td_num(&src(f, l, "games"), p.num(r, "games"), p.text(r, "games")),
                    )
                })
                .collect();
            html += &table(
                "Each pair of agents: the first agent's score",
                &["agent A", "agent B", "A's score (95%)", "games"],
                &trs,
            );
        }
        out.push(Section {
            id: format!("{id}-arena"),
            title: tag("Agent ratings"),
            html,
        });
    }
    if let Some(c) = Csv::read(
        dir,
        "sprt.csv",
        &["agent_a", "agent_b", "verdict"],
        &[
            "elo0", "elo1", "alpha", "beta", "pairs", "llr", "lower", "upper",
        ],
    )? {
        let f = &c.name;
        let trs: Vec<String> = (0..c.len())
            .map(|r| {
                let l = c.line(r);
                let n =
                    |k: &str| td_num(&src(f, l, k), c.num(r, k), &minus(c.text(r, k).to_string()));
                format!(
                    "{}{}{}{}{}{}{}{}{}",
                    td(c.text(r, "agent_a")),
                    td(c.text(r, "agent_b")),
                    n("elo0"),
                    n("elo1"),
                    n("pairs"),
                    n("llr"),
                    n("lower"),
                    n("upper"),
                    td(c.text(r, "verdict")),
                )
            })
            .collect();
        out.push(Section {
            id: format!("{id}-sprt"),
            title: tag("Sequential test"),
            html: table(
                "SPRT of two agents",
                &[
                    "agent A",
                    "agent B",
                    "H0 Elo",
                    "H1 Elo",
                    "pairs",
                    "LLR",
                    "lower bound",
                    "upper bound",
                    "verdict",
                ],
                &trs,
            ),
        });
    }
    Ok(())
}

fn tune_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let progress = Csv::read(
        dir,
        "tune_progress.csv",
        &[],
        &[
            "round", "games", "n", "win_rate", "ci_low", "ci_high", "accepted",
        ],
    )?;
    // A run that accepted no swap writes only the header.
    let swaps = Csv::read_maybe_empty(
        dir,
        "tune.csv",
        &["removed", "added"],
        &[
            "round",
            "copies",
            "games",
            "before",
            "before_lo",
            "before_hi",
            "after",
            "after_lo",
            "after_hi",
            "gain",
            "gain_lo",
            "gain_hi",
        ],
    )?
    .filter(|c| !c.is_empty());
    let fresh = Csv::read(
        dir,
        "tune_fresh.csv",
        &["measure"],
        &["games", "value", "lo", "hi"],
    )?;
    if progress.is_none() && swaps.is_none() && fresh.is_none() {
        return Ok(());
    }
    let mut html = String::new();
    if let Some(fr) = &fresh {
        let f = &fr.name;
        let trs: Vec<String> = (0..fr.len())
            .map(|r| {
                let l = fr.line(r);
                let m = fr.text(r, "measure");
                let (v, lo, hi) = (fr.num(r, "value"), fr.num(r, "lo"), fr.num(r, "hi"));
                let cell = if m == "gain" {
                    td_num(
                        &format!("{} data-u=\"pts\"", src(f, l, "value lo hi")),
                        v,
                        &pts_ci(v, lo, hi),
                    )
                } else {
                    td_num(&src(f, l, "value lo hi"), v, &pct_ci(v, lo, hi))
                };
                format!(
                    "{}{cell}{}",
                    td(m),
                    td_num(&src(f, l, "games"), fr.num(r, "games"), fr.text(r, "games"))
                )
            })
            .collect();
        html += "<p>The honest measure: the starting and the tuned deck on fresh deals no round used (the gain in points, paired interval).</p>\n";
        html += &table(
            "Fresh measurement",
            &["deck", "win rate (95%), gain in pts", "games"],
            &trs,
        );
    }
    if let Some(p) = &progress {
        let f = &p.name;
        let pts: Vec<svg::LPoint> = (0..p.len())
            .map(|r| {
                let l = p.line(r);
                svg::LPoint {
                    x: p.num(r, "games"),
                    v: p.num(r, "win_rate"),
                    lo: p.num(r, "ci_low"),
                    hi: p.num(r, "ci_high"),
                    title: (
                        src(f, l, "round win_rate ci_low ci_high n"),
                        format!(
                            "round {}: {} on {} games",
                            p.text(r, "round"),
                            pct_ci(
                                p.num(r, "win_rate"),
                                p.num(r, "ci_low"),
                                p.num(r, "ci_high")
                            ),
                            p.text(r, "n")
                        ),
                    ),
                    marked: p.num(r, "accepted") > 0.0,
                }
            })
            .collect();
        let refs: Vec<(f64, String)> = fresh
            .as_ref()
            .map(|fr| {
                (0..fr.len())
                    .filter(|&r| fr.text(r, "measure") != "gain")
                    .map(|r| {
                        (
                            fr.num(r, "value"),
                            format!("{}, fresh deals", fr.text(r, "measure")),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        html += "<p>The deck's win rate against the gauntlet while the search ran (each round re-measures the current deck on its own deals):</p>\n";
        html += &svg::line(
            "Win rate while tuning",
            "games played by the search",
            &pts,
            &refs,
        );
        let trs: Vec<String> = (0..p.len())
            .map(|r| {
                let l = p.line(r);
                format!(
                    "{}{}{}{}{}",
                    td_num(&src(f, l, "round"), p.num(r, "round"), p.text(r, "round")),
                    td_num(&src(f, l, "games"), p.num(r, "games"), p.text(r, "games")),
                    td_num(
                        &src(f, l, "win_rate ci_low ci_high"),
                        p.num(r, "win_rate"),
                        &pct_ci(
                            p.num(r, "win_rate"),
                            p.num(r, "ci_low"),
                            p.num(r, "ci_high")
                        )
                    ),
                    td_num(&src(f, l, "n"), p.num(r, "n"), p.text(r, "n")),
                    td(if p.num(r, "accepted") > 0.0 {
                        "accepted a swap"
                    } else {
                        ""
                    }),
                )
            })
            .collect();
        html += &table(
            "The search, round by round",
            &[
                "round",
                "games so far",
                "win rate (95%)",
                "games of the round",
                "",
            ],
            &trs,
        );
    }
    if let Some(s) = &swaps {
        let f = &s.name;
        let trs: Vec<String> = (0..s.len())
            .map(|r| {
                let l = s.line(r);
                let ci = |a: &str, b: &str, c: &str| {
                    td_num(
                        &src(f, l, &format!("{a} {b} {c}")),
                        s.num(r, a),
                        &pct_ci(s.num(r, a), s.num(r, b), s.num(r, c)),
                    )
                };
                format!(
                    "{}{}{}{}{}{}{}",
                    td_num(&src(f, l, "round"), s.num(r, "round"), s.text(r, "round")),
                    td_num(
                        &src(f, l, "copies"),
                        s.num(r, "copies"),
                        s.text(r, "copies")
                    ),
                    td(s.text(r, "removed")),
                    td(s.text(r, "added")),
                    ci("before", "before_lo", "before_hi"),
                    ci("after", "after_lo", "after_hi"),
                    td_num(
                        &format!("{} data-u=\"pts\"", src(f, l, "gain gain_lo gain_hi")),
                        s.num(r, "gain"),
                        &pts_ci(s.num(r, "gain"), s.num(r, "gain_lo"), s.num(r, "gain_hi"))
                    ),
                )
            })
            .collect();
        html += &table(
            "Accepted swaps (the search's own estimates, biased up: docs/tuning.md)",
            &[
                "round",
                "copies",
                "removed",
                "added",
                "before (95%)",
                "after (95%)",
                "gain, pts (95%)",
            ],
            &trs,
        );
    } else {
        html += "<p>No swap was accepted.</p>\n";
    }
    out.push(Section {
        id: format!("{id}-tune"),
        title: tag("Tuning"),
        html,
    });
    Ok(())
}

fn balance_sections(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let Some(c) = Csv::read(
        dir,
        "balance.csv",
        &["card", "column", "from", "to", "measure", "status"],
        &[
            "games_per_matchup",
            "spread_before",
            "spread_before_lo",
            "spread_before_hi",
            "spread_after",
            "spread_after_lo",
            "spread_after_hi",
            "reduction",
            "reduction_lo",
            "reduction_hi",
        ],
    )?
    else {
        return Ok(());
    };
    let f = &c.name;
    let trs: Vec<String> = (0..c.len())
        .map(|r| {
            let l = c.line(r);
            let ptsc = |a: &str| {
                td_num(
                    &format!(
                        "{} data-u=\"pts\"",
                        src(f, l, &format!("{a} {a}_lo {a}_hi"))
                    ),
                    c.num(r, a),
                    &pts_ci(
                        c.num(r, a),
                        c.num(r, &format!("{a}_lo")),
                        c.num(r, &format!("{a}_hi")),
                    ),
                )
            };
            format!(
                "{}{}{}{}{}{}{}{}",
                td(c.text(r, "card")),
                td(&format!(
                    "{}: {} → {}",
                    c.text(r, "column"),
                    c.text(r, "from"),
                    c.text(r, "to")
                )),
                td(c.text(r, "measure")),
                td_num(
                    &src(f, l, "games_per_matchup"),
                    c.num(r, "games_per_matchup"),
                    c.text(r, "games_per_matchup")
                ),
                ptsc("spread_before"),
                ptsc("spread_after"),
                ptsc("reduction"),
                td(c.text(r, "status")),
            )
        })
        .collect();
    let mut html = String::from("<p>Single-card changes raced to flatten the matrix: the spread of the decks' mean win rates before and after each change, in points (the last row, <em>fresh</em>, re-measures the best change on deals the race never used).</p>\n");
    html += &table(
        "Balance proposals",
        &[
            "card",
            "change",
            "measure",
            "games a matchup",
            "spread before, pts",
            "spread after, pts",
            "reduction, pts",
            "status",
        ],
        &trs,
    );
    let before = read_matchups(dir, "balance_before_matchups.csv")?;
    let after = read_matchups(dir, "balance_after_matchups.csv")?;
    if let (Some(b), Some(a)) = (&before, &after) {
        let sb = b.strength();
        let trs: Vec<String> = sb
            .iter()
            .map(|(d, t)| {
                let name = &b.names[*d];
                let ta = a.names.iter().position(|x| x == name).map(|k| {
                    a.strength()
                        .into_iter()
                        .find(|x| x.0 == k)
                        .expect("every deck")
                        .1
                });
                let cell = |mu: &Matchups, t: Option<&Counts>| match t {
                    Some(t) => {
                        let (lo, hi) = t.interval();
                        td_num(
                            &der("deck-mean", &mu.file, name, "rate lo hi"),
                            t.win_rate(),
                            &pct_ci(t.win_rate(), lo, hi),
                        )
                    }
                    None => "<td>–</td>".into(),
                };
                format!("{}{}{}", td(name), cell(b, Some(t)), cell(a, ta.as_ref()))
            })
            .collect();
        html += &table(
            "Each deck's mean win rate on the fresh deals, before and after the best change",
            &["deck", "before (95%)", "after (95%)"],
            &trs,
        );
        html +=
            "<div class=\"pair\"><div><h3>The matrix on the fresh deals, before the change</h3>";
        html += &heatmap_of(b, &format!("{id}-before"), "Before the change");
        html += "</div><div><h3>After the change</h3>";
        html += &heatmap_of(a, &format!("{id}-after"), "After the change");
        html += "</div></div>\n";
    }
    out.push(Section {
        id: format!("{id}-balance"),
        title: tag("Balance proposals"),
        html,
    });
    Ok(())
}

fn duel_section(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), String> {
    let Some(c) = Csv::read(
        dir,
        "duel.csv",
        &["agent_a", "agent_b", "deck1", "deck2"],
        &["games", "win_rate_a", "ci_low", "ci_high", "mean_turns"],
    )?
    else {
        return Ok(());
    };
    let f = &c.name;
    let trs: Vec<String> = (0..c.len())
        .map(|r| {
            let l = c.line(r);
            format!(
                "{}{}{}{}{}{}{}",
                td(c.text(r, "agent_a")),
                td(c.text(r, "agent_b")),
                td(c.text(r, "deck1")),
                td(c.text(r, "deck2")),
                td_num(
                    &src(f, l, "win_rate_a ci_low ci_high"),
                    c.num(r, "win_rate_a"),
                    &pct_ci(
                        c.num(r, "win_rate_a"),
                        c.num(r, "ci_low"),
                        c.num(r, "ci_high")
                    )
                ),
                td_num(&src(f, l, "games"), c.num(r, "games"), c.text(r, "games")),
                td_num(
                    &src(f, l, "mean_turns"),
                    c.num(r, "mean_turns"),
                    &format!("{:.1}", c.num(r, "mean_turns"))
                ),
            )
        })
        .collect();
    out.push(Section {
        id: format!("{id}-duel"),
        title: tag("Duel"),
        html: table(
            "Agent A against agent B",
            &[
                "agent A",
                "agent B",
                "deck 1",
                "deck 2",
                "A's win rate (95%)",
                "games",
                "mean turns",
            ],
            &trs,
        ),
    });
    Ok(())
}

/// The first script: records any script error on the page, for `scripts/check_report.sh` and the
/// browser test (`--dump-dom` shows it).
const ERRORS_JS: &str = "window.addEventListener('error',function(e){document.documentElement.setAttribute('data-js-error',String(e.message||e));});(function(){var c=console.error;console.error=function(){document.documentElement.setAttribute('data-js-error',Array.prototype.join.call(arguments,' '));if(c)c.apply(console,arguments);};})();";

/// Sortable tables: a click on a header sorts by that column (numbers by `data-sort`), again
/// reverses. The page reads the same without it.
const SORT_JS: &str = r#"(function(){
function key(td){var s=td.getAttribute('data-sort');if(s!==null&&s!==''){return[0,parseFloat(s)];}return[1,td.textContent.trim().toLowerCase()];}
function cmp(a,b){if(a[0]!==b[0])return a[0]-b[0];if(a[0]===0)return a[1]-b[1];return a[1]<b[1]?-1:a[1]>b[1]?1:0;}
Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(t){
var ths=t.querySelectorAll('thead th');
Array.prototype.forEach.call(ths,function(th,i){
th.tabIndex=0;th.title='sort by this column';
function go(){var body=t.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
Array.prototype.forEach.call(ths,function(h){h.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',dir===1?'ascending':'descending');
rows.sort(function(a,b){return dir*cmp(key(a.cells[i]),key(b.cells[i]));});
rows.forEach(function(r){body.appendChild(r);});}
th.addEventListener('click',go);th.addEventListener('keydown',function(e){if(e.key==='Enter'){go();}});});});
document.documentElement.setAttribute('data-js-ok','1');
})();"#;

const CSS: &str = r#"
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1180px;padding:0 20px 40px;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.5em;margin:20px 0 4px}h2{font-size:1.25em;border-bottom:2px solid #5e3c99;padding-bottom:2px;margin-top:28px}h3{font-size:1.05em;margin:18px 0 6px}
.note{color:#555;font-size:.9em}.lead{font-size:1.05em}
nav ol{columns:3;font-size:.9em;margin:6px 0}
table{border-collapse:collapse;margin:10px 0 16px;font-size:.88em}
caption{text-align:left;font-weight:600;padding:4px 0;color:#333}
th,td{border:1px solid #ccc;padding:3px 7px;vertical-align:top}
thead th{background:#efedf5;cursor:pointer;text-align:left;white-space:nowrap}
thead th[aria-sort=ascending]::after{content:" ▲"}thead th[aria-sort=descending]::after{content:" ▼"}
tbody tr:nth-child(even){background:#f7f7f7}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.meta th{text-align:left;background:#efedf5;font-weight:600}
svg.chart{display:block;max-width:100%;height:auto;margin:8px 0;font-family:inherit}
svg .cell:hover rect{stroke:#000;stroke-width:2}
.pair{display:flex;flex-wrap:wrap;gap:16px}
code{background:#f2f2f2;padding:0 3px}
@media print{body{max-width:none;padding:0;font-size:10pt}nav{display:none}thead th{cursor:auto}section{break-inside:auto}h2{break-after:avoid}svg.chart,table{break-inside:avoid}thead th[aria-sort]::after{content:""}a{color:inherit;text-decoration:none}}
"#;
