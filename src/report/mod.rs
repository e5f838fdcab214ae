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

mod arena;
mod balance;
mod cards;
pub mod index;
mod matrix;
mod meta;
mod pool;
mod read;
mod run_check;
mod tune;

// The drawing and the escaping are the result files' (`matrix.svg`), one layer down.
use crate::core::InputError;
use crate::sim::svg;
pub use crate::sim::svg::esc;

use crate::core::{Error, WriteError};
use crate::sim::files::run_json::RunInfo;
use crate::sim::files::{duel, read_file};
use arena::arena_sections;
use balance::balance_sections;
use cards::cards_section;
use matrix::{heatmap_of, matrix_sections, read_matchups, Matchups};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tune::tune_sections;

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

/// The page for the run folders `dirs`: one part per folder, in order. A bad or missing file is
/// an [`Error::Input`] naming the file, the line and the reason.
pub fn build(dirs: &[PathBuf]) -> Result<String, Error> {
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

/// Writes the report of `dirs` to `out`: an [`Error::Input`] when a file of theirs is bad, an
/// [`Error::Write`] when `out` cannot be written.
pub fn write(dirs: &[PathBuf], out: &Path) -> Result<(), Error> {
    let html = build(dirs)?;
    crate::sim::files::write_atomic(out, &html)
        .map_err(|e| WriteError::new(format!("{}: cannot write", out.display()), e).into())
}

/// The sections of one run folder.
fn run_part(dir: &Path, id: &str, many: bool) -> Result<(RunInfo, Vec<Section>), InputError> {
    let path = dir.join("run.json");
    let file = path.display().to_string();
    if !path.is_file() {
        return Err(InputError::new(
            file,
            0,
            format!(
                "no run.json: not a tcgsim run folder (run matrix, cards, arena, tune, balance or duel with --out {})",
                dir.display()
            ),
        ));
    }
    let text = crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES)?;
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
    // Only the files of the command that wrote run.json: a run removes the result files of
    // earlier runs it does not write (`cli::out::commit`), but a folder last written by an older
    // tcgsim may still hold another command's.
    let (expected, shown) = match info.command.as_str() {
        "matrix" => ("matchups.csv", matrix_sections(dir, id, "matchups.csv", &tag, &mut out)),
        "cards" => ("cards.csv", cards_section(dir, id, &tag, &mut out)),
        "arena" | "arena --sprt" => ("arena.csv or sprt.csv", arena_sections(dir, id, &tag, &mut out)),
        "tune" => ("tune.csv", tune_sections(dir, id, &tag, &mut out)),
        "balance" => ("balance.csv", balance_sections(dir, id, &tag, &mut out)),
        "duel" => ("duel.csv", duel_section(dir, id, &tag, &mut out)),
        "pool" => ("pool.csv", pool::pool_section(dir, id, info.games, info.shard, &tag, &mut out)),
        other => {
            return Err(InputError::new(
                file,
                0,
                format!(
                    "command \"{other}\" has no report (matrix, cards, pool, arena, tune, balance and duel have)"
                ),
            ))
        }
    };
    shown?;
    run_check::check(dir, &info)?;
    if out.len() == 1 {
        return Err(InputError::new(
            dir.display().to_string(),
            0,
            format!(
                "no {expected}, the result file of the \"{}\" run that run.json describes",
                info.command
            ),
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
    if i.games_resumed > 0 {
        s += &row(
            "games resumed",
            n(
                "games_resumed",
                format!("{} (from its checkpoint, played earlier)", i.games_resumed),
            ),
        );
    }
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

fn duel_section(
    dir: &Path,
    id: &str,
    tag: &dyn Fn(&str) -> String,
    out: &mut Vec<Section>,
) -> Result<(), InputError> {
    let Some((text, file)) = read_file(dir, "duel.csv")? else {
        return Ok(());
    };
    let lines = duel::read(&text, &file)?;
    if lines.is_empty() {
        return Err(InputError::new(file, 0, "no rows after the header"));
    }
    let f = "duel.csv";
    let trs: Vec<String> = lines
        .iter()
        .map(|l| {
            let (c, d) = (&l.fields, &l.duel);
            format!(
                "{}{}{}{}{}{}{}",
                td(&d.agent_a),
                td(&d.agent_b),
                td(&d.deck1),
                td(&d.deck2),
                td_num(
                    &src(f, c.line, "win_rate_a ci_low ci_high"),
                    c.num("win_rate_a"),
                    &pct_ci(c.num("win_rate_a"), c.num("ci_low"), c.num("ci_high"))
                ),
                td_num(
                    &src(f, c.line, "games"),
                    d.counts.games as f64,
                    c.text("games")
                ),
                td_num(
                    &src(f, c.line, "mean_turns"),
                    d.mean_turns,
                    &format!("{:.1}", d.mean_turns)
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
