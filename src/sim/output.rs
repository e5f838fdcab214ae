//! The files of a run: `run.json` (what was run), `matchups.csv` (counts, enough to merge),
//! `lengths.csv` (each matchup's game-length histogram, enough to merge), `matrix.csv` (the wide
//! win-rate matrix), `matrix.svg` (a heatmap) and a terminal summary; all written to a temporary
//! file and renamed, so a reader never sees half a file.

use super::matrix::{Counts, Lengths, Plan};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// Writes `contents` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

pub const MATCHUP_HEADER: &str = "row_deck,col_deck,games,wins,losses,draws,win_rate,ci_low,ci_high,first_player_wins,first_player_win_rate,turns,mean_turns,decisions";

/// A CSV file written the one way every result file is: with the csv crate, a header line first,
/// then one record per row, fields quoted only where they must be.
pub struct Table {
    w: csv::Writer<Vec<u8>>,
    width: usize,
}

impl Table {
    /// A table with these column names.
    pub fn new(header: &[&str]) -> Table {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        w.write_record(header).expect("writing to memory");
        Table {
            w,
            width: header.len(),
        }
    }

    /// One row; it has as many fields as the header.
    pub fn row<I, T>(&mut self, fields: I)
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let rec: csv::ByteRecord = fields.into_iter().collect();
        assert_eq!(rec.len(), self.width, "a row of the table's width");
        self.w.write_byte_record(&rec).expect("writing to memory");
    }

    /// The text of the table.
    pub fn finish(self) -> String {
        let bytes = self.w.into_inner().expect("writing to memory");
        String::from_utf8(bytes).expect("the fields are UTF-8")
    }
}

/// A rate with 4 decimals; empty when undefined (NaN).
pub fn rate(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x:.4}")
    }
}

/// One row per ordered matchup with its counts, under the header line ([`MATCHUP_HEADER`]). What
/// run it belongs to is in `run.json` beside it ([`RunInfo`]).
pub fn matchups_csv(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let header: Vec<&str> = MATCHUP_HEADER.split(',').collect();
    let mut t = Table::new(&header);
    for r in 0..n {
        for c in 0..n {
            let x = &m[r * n + c];
            let (lo, hi) = x.interval();
            let (lo, hi) = if x.games == 0 {
                (f64::NAN, f64::NAN)
            } else {
                (lo, hi)
            };
            let per_game = |v: u64| {
                rate(if x.games == 0 {
                    f64::NAN
                } else {
                    v as f64 / x.games as f64
                })
            };
            t.row([
                plan.deck_names[r].clone(),
                plan.deck_names[c].clone(),
                x.games.to_string(),
                x.wins.to_string(),
                x.losses.to_string(),
                x.draws.to_string(),
                rate(x.win_rate()),
                rate(lo),
                rate(hi),
                x.first_player_wins.to_string(),
                per_game(x.first_player_wins),
                x.turns.to_string(),
                per_game(x.turns),
                x.decisions.to_string(),
            ]);
        }
    }
    t.finish()
}

pub const LENGTHS_HEADER: &str = "row_deck,col_deck,turns,games";

/// Each matchup's game-length histogram, long and tidy: one row per matchup and length with at
/// least one game (`turns` is a whole number, the last bin's `64+`: that many turns or more),
/// matchups in the order of `matchups.csv`, lengths increasing. A matchup's rows add up to its
/// games.
pub fn lengths_csv(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let header: Vec<&str> = LENGTHS_HEADER.split(',').collect();
    let mut t = Table::new(&header);
    for r in 0..n {
        for c in 0..n {
            for (k, games) in m[r * n + c].lengths.nonzero() {
                t.row([
                    plan.deck_names[r].clone(),
                    plan.deck_names[c].clone(),
                    Lengths::label(k),
                    games.to_string(),
                ]);
            }
        }
    }
    t.finish()
}

/// Walks a result CSV written by this module: line 1 must be `header`, every later line one record
/// of `columns` fields, given to `row` with its line number and a function that prefixes a message
/// with the file and line. An empty text is an error too.
fn for_each_row(
    text: &str,
    file: &str,
    header: &str,
    columns: usize,
    mut row: impl FnMut(usize, &csv::StringRecord, &dyn Fn(String) -> String) -> Result<(), String>,
) -> Result<(), String> {
    if text.is_empty() {
        return Err(format!("{file}: empty; expected the header `{header}`"));
    }
    for (k, line) in text.lines().enumerate() {
        let at = |m: String| format!("{file}:{}: {m}", k + 1);
        if k == 0 {
            if line != header {
                return Err(at(format!("expected the header `{header}`")));
            }
            continue;
        }
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let rec = rdr
            .records()
            .next()
            .ok_or_else(|| at("empty row".into()))?
            .map_err(|e| at(format!("malformed row: {e}")))?;
        if rec.len() != columns {
            return Err(at(format!(
                "expected {columns} columns, found {}",
                rec.len()
            )));
        }
        row(k + 1, &rec, &at)?;
    }
    Ok(())
}

/// The histograms of a parsed `lengths.csv`, by (row, col) name, with the first line of each.
pub type LengthRows = Vec<(usize, String, String, Lengths)>;

/// Reads a `lengths.csv` ([`lengths_csv`]): its header, then rows whose lengths are bins of
/// this tcgsim, each (matchup, length) once and with at least one game. Errors name the line.
pub fn read_lengths(text: &str, file: &str) -> Result<LengthRows, String> {
    let mut out: LengthRows = Vec::new();
    // The row of each matchup in `out`, and the line of each (matchup, length).
    let mut at_row: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    let mut seen: std::collections::HashMap<(String, String, usize), usize> =
        std::collections::HashMap::new();
    for_each_row(text, file, LENGTHS_HEADER, 4, |line, rec, at| {
        let bin = Lengths::parse_label(&rec[2]).ok_or_else(|| {
            at(format!(
                "turns \"{}\" is not a length (1 to {} or {}+)",
                &rec[2],
                super::matrix::LENGTH_BINS - 1,
                super::matrix::LENGTH_BINS
            ))
        })?;
        let games: u64 = rec[3]
            .parse()
            .ok()
            .filter(|&g| g > 0)
            .ok_or_else(|| at(format!("games \"{}\" is not a count above 0", &rec[3])))?;
        let (r, c) = (rec[0].to_string(), rec[1].to_string());
        if let Some(first) = seen.insert((r.clone(), c.clone(), bin), line) {
            return Err(at(format!(
                "matchup {r} vs {c}, {} turns, is given twice (first on line {first})",
                &rec[2]
            )));
        }
        let k = *at_row.entry((r.clone(), c.clone())).or_insert_with(|| {
            out.push((line, r, c, Lengths::default()));
            out.len() - 1
        });
        out[k].3 .0[bin] = games;
        Ok(())
    })?;
    Ok(out)
}

/// The metadata of a run, written as `run.json` beside its results: what was run (command, game,
/// decks, agents, the content hash of the cards and rules, games, seed), by which tcgsim, and how
/// long it took. `fingerprint` is the canonical line that `merge` and `--resume` compare; `shard`
/// is the part of a sharded run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunInfo {
    pub tool: String,
    pub version: String,
    pub command: String,
    /// The arguments the command was given.
    pub args: Vec<String>,
    pub game: String,
    pub decks: Vec<String>,
    pub agents: Vec<String>,
    pub content: String,
    pub games: u64,
    pub seed: u64,
    pub fingerprint: String,
    pub shard: Option<(u64, u64)>,
    /// Games played by this command (a resumed run played fewer than it reports).
    pub games_played: u64,
    pub seconds: f64,
}

impl RunInfo {
    /// Pretty JSON, with the tool's name and version filled in.
    pub fn to_json(&self) -> String {
        let mut r = self.clone();
        r.tool = "tcgsim".into();
        r.version = env!("CARGO_PKG_VERSION").into();
        let mut s = serde_json::to_string_pretty(&r).expect("RunInfo serializes");
        s.push('\n');
        s
    }

    /// Reads a `run.json`; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<RunInfo, String> {
        let r: RunInfo = serde_json::from_str(text)
            .map_err(|e| format!("{file}: not a tcgsim run.json: {e}"))?;
        if r.tool != "tcgsim" {
            return Err(format!("{file}: not a tcgsim run.json"));
        }
        Ok(r)
    }
}

/// The one-row `duel.csv` of a duel, from agent A's side.
pub fn duel_csv(a: &str, b: &str, deck1: &str, deck2: &str, r: &Counts) -> String {
    let (lo, hi) = r.interval();
    let mean = |x: u64| rate(x as f64 / r.games.max(1) as f64);
    let mut t = Table::new(&[
        "agent_a",
        "agent_b",
        "deck1",
        "deck2",
        "games",
        "wins_a",
        "wins_b",
        "draws",
        "win_rate_a",
        "ci_low",
        "ci_high",
        "first_player_wins",
        "mean_turns",
        "mean_decisions",
    ]);
    t.row([
        a.to_string(),
        b.to_string(),
        deck1.to_string(),
        deck2.to_string(),
        r.games.to_string(),
        r.wins.to_string(),
        r.losses.to_string(),
        r.draws.to_string(),
        rate(r.win_rate()),
        rate(lo),
        rate(hi),
        r.first_player_wins.to_string(),
        mean(r.turns),
        mean(r.decisions),
    ]);
    t.finish()
}

/// The counts of a parsed `matchups.csv`, by (row, col) name, with the line each was read from.
pub type MatchupRows = Vec<(usize, String, String, Counts)>;

/// Reads a `matchups.csv`: the header line first, then one row per matchup; errors name the line.
pub fn read_matchups(text: &str, file: &str) -> Result<MatchupRows, String> {
    let mut rows = Vec::new();
    for_each_row(text, file, MATCHUP_HEADER, 14, |line, rec, at| {
        let num = |i: usize| -> Result<u64, String> {
            rec[i]
                .parse()
                .map_err(|_| at(format!("column {}: \"{}\" is not a count", i + 1, &rec[i])))
        };
        let c = Counts {
            games: num(2)?,
            wins: num(3)?,
            losses: num(4)?,
            draws: num(5)?,
            first_player_wins: num(9)?,
            turns: num(11)?,
            decisions: num(13)?,
            lengths: Default::default(),
        };
        rows.push((line, rec[0].to_string(), rec[1].to_string(), c));
        Ok(())
    })?;
    Ok(rows)
}

/// One part of a merge: a shard's folder name, its `run.json`, its `matchups.csv` and its
/// `lengths.csv` (`None`: the folder has none).
pub struct Part {
    pub name: String,
    pub run_json: String,
    pub matchups: String,
    pub lengths: Option<String>,
}

/// Adds up the shards of one run. Every part is checked before anything is added: the same plan
/// (game, decks, cards, rules, agents, games, seed, chunk: the fingerprint in `run.json`), each
/// shard once, no shard missing, every matchup exactly once per file, and each matchup's counts
/// and game-length histogram (`lengths.csv`) those of exactly the games the shard played
/// ([`Counts::check`]). An error names the file and line.
pub fn merge_matchups(parts: &[Part]) -> Result<(Plan, Vec<Counts>), String> {
    let mut plan: Option<(Plan, String)> = None;
    let mut seen: Vec<(u64, u64)> = Vec::new();
    let mut m: Vec<Counts> = Vec::new();
    for part in parts {
        let json_name = format!("{}/run.json", part.name);
        let name = format!("{}/matchups.csv", part.name);
        let info = RunInfo::parse(&part.run_json, &json_name)?;
        if info.command != "matrix" {
            return Err(format!(
                "{json_name}: a {} run, not a matrix run",
                info.command
            ));
        }
        let p =
            Plan::from_fingerprint(&info.fingerprint).map_err(|e| format!("{json_name}: {e}"))?;
        // What run.json says of the run in words must be what its fingerprint says.
        if (
            &info.game,
            &info.decks,
            &info.content,
            info.games,
            info.seed,
        ) != (&p.game, &p.deck_names, &p.content, p.games, p.seed)
            || info.agents != [p.agent_a.clone(), p.agent_b.clone()]
        {
            return Err(format!(
                "{json_name}: its game, decks, content, agents, games or seed disagree with its fingerprint"
            ));
        }
        let rows = read_matchups(&part.matchups, &name)?;
        let lengths_name = format!("{}/lengths.csv", part.name);
        let Some(lengths) = &part.lengths else {
            return Err(format!(
                "{lengths_name}: missing: every matrix run of this tcgsim writes its game-length histograms there; run the shard again"
            ));
        };
        let lengths = read_lengths(lengths, &lengths_name)?;
        match &plan {
            None => {
                m = vec![Counts::default(); p.deck_names.len() * p.deck_names.len()];
                plan = Some((p.clone(), part.name.clone()));
            }
            Some((q, first)) if *q != p => {
                return Err(format!(
                    "{} comes from a different run than {first} (game, decks, cards, rules, agents, games, seed or chunk differ):\n  {}\n  {}",
                    part.name,
                    p.fingerprint(),
                    q.fingerprint()
                ))
            }
            _ => {}
        }
        let p = &plan.as_ref().expect("set above").0;
        let sh = info.shard.unwrap_or((1, 1));
        let (i, k) = sh;
        if !(1..=k).contains(&i) || k > super::checkpoint::MAX_SHARDS {
            return Err(format!(
                "{json_name}: shard {i}/{k} is not a shard (need 1 ≤ I ≤ N ≤ {})",
                super::checkpoint::MAX_SHARDS
            ));
        }
        if seen.contains(&sh) {
            return Err(format!("{}: shard {i}/{k} is given twice", part.name));
        }
        if let Some(&(_, first)) = seen.first() {
            if first != k {
                return Err(format!(
                    "{}: shard {i}/{k} does not belong with shards of {first}",
                    part.name
                ));
            }
        }
        seen.push(sh);
        // The games each matchup of this shard played.
        let n = p.deck_names.len();
        let mut expected = vec![0u64; n * n];
        for t in p.shard_tasks(i, k) {
            expected[t.row * n + t.col] += p.chunk_games(t.chunk);
        }
        let mut hist = vec![Lengths::default(); n * n];
        for (line, r, c, h) in &lengths {
            let ri = p.deck_names.iter().position(|x| x == r);
            let ci = p.deck_names.iter().position(|x| x == c);
            let (Some(ri), Some(ci)) = (ri, ci) else {
                return Err(format!(
                    "{lengths_name}:{line}: matchup {r} vs {c} is not in the plan"
                ));
            };
            hist[ri * n + ci] = *h;
        }
        let mut line_of: Vec<usize> = vec![0; n * n];
        for (line, r, c, counts) in &rows {
            let at = |msg: String| format!("{name}:{line}: {msg}");
            let ri = p.deck_names.iter().position(|x| x == r);
            let ci = p.deck_names.iter().position(|x| x == c);
            let (Some(ri), Some(ci)) = (ri, ci) else {
                return Err(at(format!("matchup {r} vs {c} is not in the plan")));
            };
            let cell = ri * n + ci;
            if line_of[cell] != 0 {
                return Err(at(format!(
                    "matchup {r} vs {c} is given twice (first on line {})",
                    line_of[cell]
                )));
            }
            line_of[cell] = *line;
            let counts = Counts {
                lengths: hist[cell],
                ..*counts
            };
            counts.check(expected[cell]).map_err(|e| {
                at(format!(
                    "matchup {r} vs {c}: impossible counts (with {lengths_name}): {e}"
                ))
            })?;
            m[cell].add(&counts);
        }
        if let Some(cell) = line_of.iter().position(|&l| l == 0) {
            return Err(format!(
                "{name}: matchup {} vs {} is missing",
                p.deck_names[cell / n],
                p.deck_names[cell % n]
            ));
        }
    }
    let Some((plan, _)) = plan else {
        return Err("nothing to merge".into());
    };
    let k = seen[0].1;
    let missing: Vec<String> = (1..=k)
        .filter(|i| !seen.iter().any(|s| s.0 == *i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!("shards {} of {k} are missing", missing.join(", ")));
    }
    Ok((plan, m))
}

/// The wide matrix: the row deck's win rate against each column deck.
pub fn matrix_csv(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let mut header = vec!["deck"];
    header.extend(plan.deck_names.iter().map(String::as_str));
    let mut t = Table::new(&header);
    for r in 0..n {
        let mut row = vec![plan.deck_names[r].clone()];
        row.extend((0..n).map(|c| rate(m[r * n + c].win_rate())));
        t.row(row);
    }
    t.finish()
}

fn even(x: &Counts) -> bool {
    let (lo, hi) = x.interval();
    x.games > 0 && lo <= 0.5 && 0.5 <= hi
}

/// A heatmap of the matrix: decks ordered by their mean win rate against the others (strongest
/// first, as [`strength`]), the row deck's win rate in each cell, a colour legend, mirror cells
/// hatched, and the matchups whose 95% interval includes 50% marked with `≈`. The grid is the
/// report's ([`super::svg::heatmap`]: one colour scale, colour-blind-safe, for both), under
/// a title and over a line naming the run.
pub fn matrix_svg(plan: &Plan, m: &[Counts]) -> String {
    use super::svg::{esc, heatmap_sized, Cell};
    let n = plan.deck_names.len();
    let order: Vec<usize> = strength(m, n).iter().map(|&(r, _)| r).collect();
    let cells: Vec<Vec<Cell>> = order
        .iter()
        .map(|&r| {
            order
                .iter()
                .map(|&c| {
                    let cnt = &m[r * n + c];
                    let (lo, hi) = cnt.interval();
                    Cell {
                        rate: cnt.win_rate(),
                        even: even(cnt),
                        mirror: r == c,
                        label_src: String::new(),
                        title_src: String::new(),
                        title: if cnt.games == 0 {
                            "not played (0 games)".to_string()
                        } else {
                            format!(
                                "{:.1}% ({:.1}–{:.1}%), {} games",
                                100.0 * cnt.win_rate(),
                                100.0 * lo,
                                100.0 * hi,
                                cnt.games
                            )
                        },
                    }
                })
                .collect()
        })
        .collect();
    let names: Vec<String> = order.iter().map(|&d| plan.deck_names[d].clone()).collect();
    let title = format!(
        "Win rate of the row deck (agents: {} vs {}, {} games per matchup)",
        plan.agent_a, plan.agent_b, plan.games
    );
    let (grid, gw, gh) = heatmap_sized("matrix", &title, &names, &cells);
    let w = gw.max(20.0 + 8.0 * title.chars().count() as f64);
    let h = 36.0 + gh + 24.0;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n\
         <svg x=\"0\" y=\"36\" width=\"{gw:.0}\" height=\"{gh:.0}\">\n{grid}</svg>\n\
         <text x=\"16\" y=\"{:.0}\" font-size=\"11\" fill=\"#555\">decks by mean win rate, strongest first · seed {}</text>\n</svg>\n",
        esc(&title),
        36.0 + gh + 14.0,
        plan.seed
    )
}

/// Each deck's counts against the others, both directions of each pair pooled ([`pooled`]; a lone
/// deck against itself), strongest first (by win rate; ties in deck order).
pub fn strength(m: &[Counts], n: usize) -> Vec<(usize, Counts)> {
    let mut v: Vec<(usize, Counts)> = (0..n)
        .map(|r| {
            let mut tot = Counts::default();
            for c in 0..n {
                if c != r || n == 1 {
                    tot.add(&pooled(m, n, r, c));
                }
            }
            (r, tot)
        })
        .collect();
    v.sort_by(|a, b| {
        b.1.win_rate()
            .total_cmp(&a.1.win_rate())
            .then(a.0.cmp(&b.0))
    });
    v
}

/// The counts of deck `r` against deck `c` over both directions of the pair, from `r`'s side: the
/// games of the matchup (r, c), where `r` is the row deck, and those of (c, r), where it is the
/// column deck (its wins there are the row deck's losses). The two are independent samples of the
/// same question, so they add up.
pub fn pooled(m: &[Counts], n: usize, r: usize, c: usize) -> Counts {
    let mut t = m[r * n + c];
    if r != c {
        let x = &m[c * n + r];
        t.add(&Counts {
            wins: x.losses,
            losses: x.wins,
            ..*x
        });
    }
    t
}

/// The terminal summary: each deck's mean win rate against the others (strongest first), the
/// strongest deck, the
/// most lopsided pairs and the pairs whose interval still includes 50%. Every figure pools both
/// directions of a pair ([`pooled`]) and carries its Wilson 95% interval.
pub fn summary(plan: &Plan, m: &[Counts]) -> String {
    let n = plan.deck_names.len();
    let pct = |x: f64| 100.0 * x;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<18} {:>8} {:>16}",
        "deck", "mean win", "vs others (95%)"
    );
    let ranked = strength(m, n);
    for (r, tot) in &ranked {
        let (lo, hi) = tot.interval();
        let _ = writeln!(
            s,
            "{:<18} {:>7.1}% {:>7.1}–{:.1}%",
            plan.deck_names[*r],
            pct(tot.win_rate()),
            pct(lo),
            pct(hi)
        );
    }
    if let Some((r, tot)) = ranked.first() {
        let _ = writeln!(
            s,
            "strongest deck: {} ({:.1}% against the others)",
            plan.deck_names[*r],
            pct(tot.win_rate())
        );
    }
    // Each unordered pair once, from the side of the deck that wins it (the first on a tie).
    let mut pairs: Vec<(f64, usize, usize, Counts)> = Vec::new();
    for r in 0..n {
        for c in r + 1..n {
            let x = pooled(m, n, r, c);
            if x.games == 0 {
                continue;
            }
            let (r, c, x) = if x.win_rate() < 0.5 {
                (c, r, pooled(m, n, c, r))
            } else {
                (r, c, x)
            };
            pairs.push(((x.win_rate() - 0.5).abs(), r, c, x));
        }
    }
    let text = |r: usize, c: usize, x: &Counts| {
        let (lo, hi) = x.interval();
        format!(
            "{} vs {}: {:.1}% ({:.1}–{:.1}%)",
            plan.deck_names[r],
            plan.deck_names[c],
            pct(x.win_rate()),
            pct(lo),
            pct(hi)
        )
    };
    let mut lop = pairs.clone();
    lop.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let _ = writeln!(s, "most lopsided pairs (both directions pooled):");
    for (_, r, c, x) in lop.iter().take(3) {
        let _ = writeln!(s, "  {}", text(*r, *c, x));
    }
    let even: Vec<String> = pairs
        .iter()
        .filter(|(_, _, _, x)| {
            let (lo, hi) = x.interval();
            lo <= 0.5 && 0.5 <= hi
        })
        .map(|(_, r, c, x)| text(*r, *c, x))
        .collect();
    if pairs.is_empty() {
        // One deck: no pair to compare.
    } else if even.is_empty() {
        let _ = writeln!(
            s,
            "too close to call: none (every pair's 95% interval, both directions pooled, excludes 50%)"
        );
    } else {
        let _ = writeln!(
            s,
            "too close to call (95% interval, both directions pooled, includes 50%):"
        );
        for e in even {
            let _ = writeln!(s, "  {e}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matchup of `games` games with `wins` for the row deck and no draws.
    fn cnt(games: u64, wins: u64) -> Counts {
        Counts {
            games,
            wins,
            losses: games - wins,
            draws: 0,
            first_player_wins: games / 2,
            turns: games * 5,
            decisions: games * 100,
            lengths: {
                let mut h = Lengths::default();
                h.0[4] = games;
                h
            },
        }
    }

    /// Three decks with known strength: c beats both, a beats b, and a vs c is close to even
    /// (52 of 100: its interval includes 50%); every other pair is lopsided.
    fn three() -> (Plan, Vec<Counts>) {
        let plan = Plan {
            game: "toy".into(),
            deck_names: vec!["a".into(), "b".into(), "c".into()],
            games: 100,
            seed: 1,
            chunk: 100,
            ..Default::default()
        };
        // Row-major: (a,a) (a,b) (a,c) / (b,a) (b,b) (b,c) / (c,a) (c,b) (c,c).
        let m = vec![
            cnt(100, 50),
            cnt(100, 80),
            cnt(100, 48),
            cnt(100, 20),
            cnt(100, 50),
            cnt(100, 5),
            cnt(100, 52),
            cnt(100, 95),
            cnt(100, 50),
        ];
        (plan, m)
    }

    /// Quoting only where it must be, read back by a CSV reader to the same fields.
    #[test]
    fn tables_quote_only_what_must_be_quoted() {
        let mut t = Table::new(&["name", "x"]);
        t.row(["plain", "1"]);
        t.row(["a, \"b\"", ""]);
        let text = t.finish();
        assert_eq!(text, "name,x\nplain,1\n\"a, \"\"b\"\"\",\n");
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(&rows[1][0], "a, \"b\"");
        assert_eq!(&rows[1][1], "");
    }

    #[test]
    fn decks_are_ranked_by_pooled_win_rate() {
        let (_, m) = three();
        let r = strength(&m, 3);
        // c: (52 + 95 + (100-48) + (100-5)) / 400 = 294/400; a: (80 + 48 + 80 + 48)/400 = 256/400;
        // b: (20 + 5 + 20 + 5)/400 = 50/400.
        let got: Vec<(usize, u64)> = r.iter().map(|(d, c)| (*d, c.wins)).collect();
        assert_eq!(got, vec![(2, 294), (0, 256), (1, 50)]);
    }

    #[test]
    fn heatmap_orders_by_strength_and_marks_mirrors_and_even_cells() {
        let (plan, m) = three();
        let svg = matrix_svg(&plan, &m);
        let labels: Vec<&str> = svg
            .split("text-anchor=\"end\">")
            .skip(1)
            .map(|t| t.split('<').next().unwrap())
            .collect();
        assert_eq!(labels, vec!["c", "a", "b"]);
        assert_eq!(svg.matches("url(#matrix-mirror)").count(), 3);
        // Even: the three mirrors (50 of 100), a vs c (48) and c vs a (52); nothing else.
        let even = (0..10).map(|d| svg.matches(&format!(">≈{d}")).count());
        assert_eq!(even.sum::<usize>(), 5, "{svg}");
        assert!(svg.contains(">≈52%<") && svg.contains(">≈48%<") && svg.contains(">95%<"));
        assert!(svg.contains("url(#matrix-scale)") && svg.contains("strongest first"));
        // The hover title of a cell: rate, interval, games.
        assert!(svg.contains("<title>95.0% ("), "{svg}");
    }

    #[test]
    fn summary_lists_decks_strongest_first() {
        let (plan, m) = three();
        let s = summary(&plan, &m);
        let firsts: Vec<&str> = s
            .lines()
            .skip(1)
            .take(3)
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(firsts, vec!["c", "a", "b"], "{s}");
        assert!(
            s.contains("strongest deck: c (73.5% against the others)"),
            "{s}"
        );
    }
}
