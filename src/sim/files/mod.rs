//! The result files of the runs, one module each: `matchups.csv` ([`matchups`]), `lengths.csv`
//! ([`lengths`]), `cards.csv` ([`cards`]), `pool.csv` ([`pool`]), `duel.csv` ([`duel`]), `meta.csv` ([`meta`]), `arena.csv`, `arena_pairs.csv`
//! and `sprt.csv` ([`arena`]), `run.json` ([`run_json`]); those of `tune` and `balance` beside
//! their runners (`sim::tune::files`, `sim::balance::files`), on the same tables; and
//! the views written but never read back — `matrix.csv`, `matrix.svg` and the terminal summary
//! ([`matrix`]).
//!
//! A CSV file's columns are one table ([`Column`]: name, kind, the value of a row), from which both
//! its writer ([`write_table`]) and its reader ([`read_table`]) are made: a new column is one line of
//! its file's table. Reading checks the exact header, parses every field as its kind says
//! ([`Kind`]: a count, a rate in [0, 1], …) and — where the file's row can be rebuilt from its counts —
//! that every other column is what the writer would have written from them
//! ([`Fields::check_derived`]); an error names the file and the line. `report` and `merge` read
//! these files only through these modules.
//!
//! Every file is written to a temporary file and renamed ([`write_atomic`]), so a reader never
//! sees half a file.

pub mod arena;
pub mod cards;
pub mod duel;
pub mod lengths;
pub mod matchups;
pub mod matrix;
pub mod meta;
pub mod pool;
pub mod run_json;

use std::io::Write as _;
use std::path::Path;

use crate::core::input::Reason;
use crate::core::InputError;

/// Writes `contents` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    let tmp = write_temp(path, contents)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Writes `contents`, complete and synced, to a temporary file beside `path` (`.NAME.tmpPID`,
/// its folder created) and returns that file's path, for the caller to rename into place; a
/// temporary file whose write failed is removed.
pub fn write_temp(path: &Path, contents: &str) -> std::io::Result<std::path::PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let written = std::fs::create_dir_all(dir).and_then(|_| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.sync_all()
    });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

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

/// What a column holds, and so how it is written and what reading it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Free text (a deck's or a card's name, a word).
    Text,
    /// A whole number, 0 or more.
    Count,
    /// A whole number or empty (not measured).
    OptCount,
    /// A whole number, possibly negative (a card's value before and after a change).
    Int,
    /// A fraction in [0, 1], 4 decimals; empty when undefined.
    Rate,
    /// A difference of two fractions, in [−1, 1], 4 decimals; empty when undefined.
    Diff,
    /// A number of 0 or more (a mean count), 4 decimals; empty when undefined.
    Mean,
    /// Any finite number (the end of a normal interval, which may pass ±1), 4 decimals; empty
    /// when undefined.
    Real,
    /// Any finite number with 5 decimals (a screening score); empty when undefined.
    Real5,
    /// Any finite number with 1 decimal (a rating in Elo); empty when undefined.
    Real1,
    /// A number of 0 or more written in its shortest form (`64`, `101.5`: a score in half
    /// points); empty when undefined.
    Points,
    /// Any finite number written in its shortest form (a test's parameter: `-50`, `0.05`);
    /// empty when undefined.
    Plain,
}

impl Kind {
    /// The decimals a number of this kind is written with (`None`: its shortest form).
    fn decimals(self) -> Option<usize> {
        match self {
            Kind::Real5 => Some(5),
            Kind::Real1 => Some(1),
            Kind::Points | Kind::Plain => None,
            _ => Some(4),
        }
    }

    /// Half a unit of the last decimal written: how far a number read back may be from the
    /// value it was written from.
    pub fn half_unit(self) -> f64 {
        self.decimals()
            .map_or(0.0, |d| 0.5 * 10f64.powi(-(d as i32)))
            + 1e-9
    }
}

/// One field's value: text, a count (`None`: empty), a signed whole number, or a number written
/// as its column's kind says (NaN: empty).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    Count(Option<u64>),
    Int(i64),
    Num(f64),
}

impl Value {
    /// The field as the writer writes it in a column of `kind`.
    pub fn format(&self, kind: Kind) -> String {
        match self {
            Value::Text(s) => s.clone(),
            Value::Count(c) => c.map_or(String::new(), |c| c.to_string()),
            Value::Int(i) => i.to_string(),
            Value::Num(x) if x.is_nan() => String::new(),
            Value::Num(x) => match kind.decimals() {
                Some(d) => format!("{x:.d$}"),
                None => x.to_string(),
            },
        }
    }
}

/// One column of a result file: its name, its kind, and its value in a row of type `R`.
pub struct Column<R> {
    pub name: &'static str,
    pub kind: Kind,
    pub get: fn(&R) -> Value,
}

impl<R> Column<R> {
    /// The column `name` of kind `kind`, whose value in a row is `get` of it.
    pub const fn new(name: &'static str, kind: Kind, get: fn(&R) -> Value) -> Column<R> {
        Column { name, kind, get }
    }
}

/// The header line of a table of `columns`.
pub fn header<R>(columns: &[Column<R>]) -> String {
    columns.iter().map(|c| c.name).collect::<Vec<_>>().join(",")
}

/// The text of a file of `columns`: the header, then one line per row.
pub fn write_table<'a, R: 'a>(
    columns: &[Column<R>],
    rows: impl IntoIterator<Item = &'a R>,
) -> String {
    let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
    let mut t = Table::new(&names);
    for r in rows {
        t.row(columns.iter().map(|c| (c.get)(r).format(c.kind)));
    }
    t.finish()
}

/// A row read back: its line, and each column's value as its kind parsed it.
#[derive(Debug)]
pub struct Fields {
    pub line: usize,
    names: Vec<&'static str>,
    values: Vec<Value>,
    texts: Vec<String>,
    file: String,
}

impl Fields {
    fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("no column `{name}` in the table"))
    }

    /// The problem `msg` on this row's line of its file (displayed `file:line: msg`).
    pub fn at(&self, msg: impl std::fmt::Display) -> InputError {
        InputError::new(&self.file, self.line, msg.to_string())
    }

    /// The text of column `name` as written.
    pub fn text(&self, name: &str) -> &str {
        &self.texts[self.index(name)]
    }

    /// The count of column `name` (a `Count` or `OptCount` column; `None` when empty).
    pub fn opt_count(&self, name: &str) -> Option<u64> {
        match self.values[self.index(name)] {
            Value::Count(c) => c,
            _ => panic!("column `{name}` is not a count"),
        }
    }

    /// The count of column `name` (a `Count` column).
    pub fn count(&self, name: &str) -> u64 {
        self.opt_count(name).unwrap_or(0)
    }

    /// The number of column `name` (a numeric column; NaN when empty; a count or whole number
    /// as a number).
    pub fn num(&self, name: &str) -> f64 {
        match self.values[self.index(name)] {
            Value::Num(x) => x,
            Value::Count(c) => c.map_or(f64::NAN, |c| c as f64),
            Value::Int(i) => i as f64,
            Value::Text(_) => panic!("column `{name}` is not a number"),
        }
    }

    /// The whole number of column `name` (an `Int` column).
    pub fn int(&self, name: &str) -> i64 {
        match self.values[self.index(name)] {
            Value::Int(i) => i,
            _ => panic!("column `{name}` is not a whole number"),
        }
    }

    /// Every column is what the writer writes for `row`, the row rebuilt from this line: text
    /// and counts exactly, numbers to their written decimals (both empty, or within half a unit
    /// of the last decimal). So a rate that disagrees with its counts is an error naming it.
    pub fn check_derived<R>(&self, columns: &[Column<R>], row: &R) -> Result<(), InputError> {
        for (k, c) in columns.iter().enumerate() {
            let want = (c.get)(row);
            let ok = match (&want, &self.values[k]) {
                (Value::Num(w), Value::Num(g)) => {
                    (w.is_nan() && g.is_nan()) || (w - g).abs() <= c.kind.half_unit()
                }
                (w, g) => w == g,
            };
            if !ok {
                let expected = match want.format(c.kind) {
                    e if e.is_empty() => "empty: no game played".to_string(),
                    e => e,
                };
                return Err(self.at(format!(
                    "column `{}`: \"{}\" is not what the row's counts give ({expected})",
                    c.name, self.texts[k]
                )));
            }
        }
        Ok(())
    }
}

/// Parses one field of kind `kind`; the error says why (without the place).
fn parse(kind: Kind, name: &str, t: &str) -> Result<Value, Reason> {
    let bad = |what: &str| Reason(format!("column `{name}`: \"{t}\" is not {what}"));
    let num = |lo: f64, hi: f64, what: &str| -> Result<Value, Reason> {
        if t.is_empty() {
            return Ok(Value::Num(f64::NAN));
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(Value::Num(x)),
            _ => Err(bad(what)),
        }
    };
    match kind {
        Kind::Text => Ok(Value::Text(t.to_string())),
        Kind::Count => t
            .parse()
            .map(|c| Value::Count(Some(c)))
            .map_err(|_| bad("a count")),
        Kind::OptCount if t.is_empty() => Ok(Value::Count(None)),
        Kind::OptCount => t
            .parse()
            .map(|c| Value::Count(Some(c)))
            .map_err(|_| bad("a count or empty")),
        Kind::Int => t.parse().map(Value::Int).map_err(|_| bad("a whole number")),
        Kind::Rate => num(0.0, 1.0, "a rate in [0, 1]"),
        Kind::Diff => num(-1.0, 1.0, "a difference of rates, in [-1, 1]"),
        Kind::Mean => num(0.0, f64::MAX, "a number of 0 or more"),
        Kind::Real | Kind::Real5 | Kind::Real1 | Kind::Plain => num(f64::MIN, f64::MAX, "a number"),
        Kind::Points => num(0.0, f64::MAX, "a number of 0 or more"),
    }
}

/// Reads a file of `columns` (written by [`write_table`]): line 1 must be its header, every later
/// line one record of as many fields, each parsed as its column's kind says. An empty text is an
/// error too; every error names `file` and the line.
pub fn read_table<R>(
    text: &str,
    file: &str,
    columns: &[Column<R>],
) -> Result<Vec<Fields>, InputError> {
    let head = header(columns);
    let names: Vec<&'static str> = columns.iter().map(|c| c.name).collect();
    let mut out = Vec::new();
    for_each_row(text, file, &head, columns.len(), |line, rec, at| {
        let mut values = Vec::with_capacity(columns.len());
        for (c, t) in columns.iter().zip(rec.iter()) {
            values.push(parse(c.kind, c.name, t).map_err(|r| at(r.0))?);
        }
        out.push(Fields {
            line,
            names: names.clone(),
            values,
            texts: rec.iter().map(str::to_string).collect(),
            file: file.to_string(),
        });
        Ok(())
    })?;
    Ok(out)
}

/// Walks a result CSV: line 1 must be `header`, every later line one record of `columns`
/// fields, given to `row` with its line number and a function that places a message at the
/// file and line. An empty text is an error too.
fn for_each_row(
    text: &str,
    file: &str,
    header: &str,
    columns: usize,
    mut row: impl FnMut(
        usize,
        &csv::StringRecord,
        &dyn Fn(String) -> InputError,
    ) -> Result<(), InputError>,
) -> Result<(), InputError> {
    if text.is_empty() {
        return Err(InputError::new(
            file,
            0,
            format!("empty; expected the header `{header}`"),
        ));
    }
    for (k, line) in text.lines().enumerate() {
        let at = |m: String| InputError::new(file, k + 1, m);
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
                "malformed row: expected {columns} columns, found {}",
                rec.len()
            )));
        }
        row(k + 1, &rec, &at)?;
    }
    Ok(())
}

/// Every file a tcgsim command writes into its `--out` folder, by name, and whether a later run
/// into the same folder removes it when it does not write it itself ([`removed_when_stale`]): the
/// one list of tcgsim's result files (`docs/cli.md`, "One folder, one run"). A run that writes
/// `run.json` into a folder whose `run.json` is an earlier run of the same command removes, as
/// it puts its files in place (`cli::out::commit`, [`stale_result_files`]), every file of the
/// list marked `true` and written by that command ([`written_by`]) that it did not write, so that
/// `report` never shows an earlier run's file beside its `run.json` (a `sprt.csv` beside an
/// earlier arena's `arena.csv`, a `records.jsonl` of an earlier `matrix --records`). No other
/// file is ever removed. Those marked `false` stay: `play --out`'s game (no `run.json`, read by
/// no report; `log.txt` may as well be a user's), the decks and card files named after a run's
/// inputs (`tune`'s `DECK_tuned.<ext>`, `balance`'s `<cards>_balanced.csv`, `sealed`'s
/// `sealed-SEED.<ext>`: inputs of later runs, read by no report) and a checkpoint's files, which
/// a `--resume` may still need (`chunks.csv`, `run.txt`, `tune-state.json`, and `pool_chunks.csv`,
/// also a pool shard's result: the report reads it only beside a shard's `run.json`, and every
/// shard writes it).
pub const RESULT_FILES: &[(&str, bool)] = &[
    // Every run.
    ("run.json", true),
    ("report.html", true),
    // matrix and merge (a shard: matchups.csv, lengths.csv, records.jsonl).
    ("matchups.csv", true),
    ("lengths.csv", true),
    ("matrix.csv", true),
    ("matrix.svg", true),
    ("meta.csv", true),
    ("records.jsonl", true),
    // cards.
    ("cards.csv", true),
    ("card_matchups.csv", true),
    // pool (a shard: pool_chunks.csv).
    ("pool.csv", true),
    ("pool_chunks.csv", false),
    // tune.
    ("tune.csv", true),
    ("tune_progress.csv", true),
    ("tune_fresh.csv", true),
    ("tune.svg", true),
    ("DECK_tuned.<ext>", false),
    // balance.
    ("balance.csv", true),
    ("balance.svg", true),
    ("balance_before_matchups.csv", true),
    ("balance_after_matchups.csv", true),
    ("<cards>_balanced.csv", false),
    // arena (with --sprt: sprt.csv).
    ("arena.csv", true),
    ("arena_pairs.csv", true),
    ("sprt.csv", true),
    // duel.
    ("duel.csv", true),
    // play --out, sealed --out.
    ("record.jsonl", false),
    ("log.txt", false),
    ("sealed-SEED.<ext>", false),
    // Checkpoints (--checkpoint DIR).
    ("chunks.csv", false),
    ("run.txt", false),
    ("tune-state.json", false),
];

/// Whether `name` is a file of [`RESULT_FILES`] that a run removes from its `--out` folder when
/// it does not write it itself.
pub fn removed_when_stale(name: &str) -> bool {
    RESULT_FILES
        .iter()
        .any(|&(n, removed)| removed && n == name)
}

/// The command whose runs write result file `name` of [`RESULT_FILES`], as `run.json` names it
/// ([`command_family`]), or `None` for the files every run writes (`run.json`, `report.html`)
/// and those no run removes.
pub fn written_by(name: &str) -> Option<&'static str> {
    Some(match name {
        "matchups.csv" | "lengths.csv" | "matrix.csv" | "matrix.svg" | "meta.csv"
        | "records.jsonl" => "matrix",
        "cards.csv" | "card_matchups.csv" => "cards",
        "pool.csv" => "pool",
        "tune.csv" | "tune_progress.csv" | "tune_fresh.csv" | "tune.svg" => "tune",
        "balance.csv"
        | "balance.svg"
        | "balance_before_matchups.csv"
        | "balance_after_matchups.csv" => "balance",
        "arena.csv" | "arena_pairs.csv" | "sprt.csv" => "arena",
        "duel.csv" => "duel",
        _ => return None,
    })
}

/// A run's command without its options, as [`written_by`] names it: `arena --sprt` is `arena`.
pub fn command_family(command: &str) -> &str {
    command.split_whitespace().next().unwrap_or("")
}

/// The files of folder `dir` that a new run of `command`, writing the files `writes` answers
/// true for, removes as it puts its files in place (`docs/cli.md`, "One folder, one run"): only
/// when the folder's `run.json` (the earlier run's) is readable and names the same command
/// ([`command_family`]), each regular file of that command's result files ([`written_by`],
/// removed when stale in [`RESULT_FILES`]) that the new run does not write — the optional files
/// of an earlier run of the same command (`records.jsonl` of a `matrix --records`, `arena.csv`
/// before an `arena --sprt`). Nothing else: no file of another command's run (a `duel` after a
/// `matrix` leaves the matrix's files, which `report` does not read beside a duel's `run.json`),
/// none when the folder has no `run.json` of tcgsim's (a folder of decks holding the user's
/// `cards.csv`), no folder, no link.
pub fn stale_result_files(
    dir: &Path,
    command: &str,
    writes: impl Fn(&std::ffi::OsStr) -> bool,
) -> Vec<std::path::PathBuf> {
    let family = command_family(command);
    let earlier = read_file(dir, "run.json")
        .ok()
        .flatten()
        .and_then(|(text, file)| run_json::RunInfo::parse(&text, &file).ok());
    if earlier.is_none_or(|e| command_family(&e.command) != family) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<std::path::PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            name.to_str()
                .is_some_and(|n| removed_when_stale(n) && written_by(n) == Some(family))
                && !writes(&name)
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| dir.join(e.file_name()))
        .collect();
    v.sort();
    v
}

/// The command of the staged `run.json` `tmp` (a run's `run.json`, to go in place at `path`),
/// after writing into it `files`, the names of the result files its commit puts in the folder
/// ([`run_json::RunInfo::files`], sorted; `docs/cli.md`, "One folder, one run"). The listed
/// `run.json` is written complete to a second temporary file and renamed over `tmp` only then, so
/// a failed write (a full disk) leaves `tmp` as it was, without the list — a report then reads
/// every result file of the folder, as for an older `run.json` — and the run still commits.
/// `None` when `tmp` does not read as a `run.json`.
pub fn list_run_files(tmp: &Path, path: &Path, mut files: Vec<String>) -> Option<String> {
    let text = crate::core::input::read_text(tmp, crate::core::input::MAX_TEXT_BYTES).ok()?;
    let mut info = run_json::RunInfo::parse(&text, &path.display().to_string()).ok()?;
    files.sort();
    files.dedup();
    info.files = Some(files);
    if let Ok(listed) = write_temp(&path.with_file_name("run.json.listed"), &info.to_json()) {
        if std::fs::rename(&listed, tmp).is_err() {
            let _ = std::fs::remove_file(&listed);
        }
    }
    Some(info.command)
}

/// Whether `name` is the name of a file of [`RESULT_FILES`]; a name there with placeholders
/// (`DECK_tuned.<ext>`, `<cards>_balanced.csv`, `sealed-SEED.<ext>`) stands for every name with
/// some text (one character or more) in place of each placeholder (`<…>`, `DECK`, `SEED`). A name
/// longer than a file name may be (255 bytes) is none, so the matching (quadratic in the length
/// for a name with placeholders) stays bounded whatever the caller passes.
pub fn is_result_file_name(name: &str) -> bool {
    if name.len() > 255 {
        return false;
    }
    /// The length of the placeholder `p` starts with, if it starts with one.
    fn placeholder(p: &str) -> Option<usize> {
        if p.starts_with("DECK") || p.starts_with("SEED") {
            Some(4)
        } else if p.starts_with('<') {
            p.find('>').map(|k| k + 1)
        } else {
            None
        }
    }
    fn matches(p: &str, n: &str) -> bool {
        if p.is_empty() {
            return n.is_empty();
        }
        if let Some(k) = placeholder(p) {
            return n
                .char_indices()
                .skip(1)
                .map(|(i, _)| i)
                .chain([n.len()])
                .filter(|&i| i > 0)
                .any(|i| matches(&p[k..], &n[i..]));
        }
        let c = p.chars().next().expect("not empty");
        n.starts_with(c) && matches(&p[c.len_utf8()..], &n[c.len_utf8()..])
    }
    !name.contains('/') && RESULT_FILES.iter().any(|&(p, _)| matches(p, name))
}

/// The process id in the name of `name` if it is a result file set aside by a commit
/// (`cli::out::commit`): `.NAME.oldPID`, NAME a result file's name ([`is_result_file_name`]).
pub fn set_aside_by(name: &str) -> Option<u32> {
    let (file, pid) = name.strip_prefix('.')?.rsplit_once(".old")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) || !is_result_file_name(file) {
        return None;
    }
    pid.parse().ok()
}

/// The files of `dir` that a process killed during a commit left set aside (`.NAME.oldPID`,
/// [`set_aside_by`]), which the next commit into the folder removes (`docs/cli.md`, "One
/// folder, one run"): regular files only (no folder, no link), and none of a process that is
/// still running (where that can be told, `/proc`; elsewhere none at all), whose commit may be
/// under way. The calling process's own id counts as no running process: its commit has set
/// nothing aside yet, so such a file is an earlier process's of the same id.
pub fn set_aside_leftovers(dir: &Path) -> Vec<std::path::PathBuf> {
    let proc = Path::new("/proc");
    let can_tell = proc.join("self").exists();
    let running = |pid: u32| pid != std::process::id() && proc.join(pid.to_string()).exists();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<std::path::PathBuf> = entries
        .flatten()
        .filter(|e| {
            can_tell
                && e.file_name()
                    .to_str()
                    .and_then(set_aside_by)
                    .is_some_and(|pid| !running(pid))
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| dir.join(e.file_name()))
        .collect();
    v.sort();
    v
}

/// Whether result file `name` of folder `dir` is one of the run whose `run.json` is there: yes
/// unless that `run.json` lists its files ([`run_json::RunInfo::files`]) without `name`. Only
/// the files a run removes when stale ([`removed_when_stale`]) can be an earlier run's; others
/// (`run.json`, a checkpoint's files) always are the folder's.
pub fn of_the_run(dir: &Path, name: &str) -> bool {
    if name == "run.json" || !removed_when_stale(name) {
        return true;
    }
    let path = dir.join("run.json");
    let files = path
        .is_file()
        .then(|| crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES).ok())
        .flatten()
        .and_then(|text| run_json::RunInfo::parse(&text, "run.json").ok())
        .and_then(|info| info.files);
    files.is_none_or(|f| f.iter().any(|n| n == name))
}

/// Reads `dir/name` for a reader of this module: `Ok(None)` when there is no such file, or when
/// the folder's `run.json` lists the files of its run and not this one (a file of an earlier run
/// left in the folder, [`run_json::RunInfo::files`]), else its text and the name errors give it
/// (the path).
pub fn read_file(dir: &Path, name: &str) -> Result<Option<(String, String)>, InputError> {
    let path = dir.join(name);
    if !path.is_file() || !of_the_run(dir, name) {
        return Ok(None);
    }
    let text = crate::core::input::read_text(&path, crate::core::input::MAX_TEXT_BYTES)?;
    Ok(Some((text, path.display().to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of result files names each file once, and the names the code writes (the
    /// checkpoints', the tune state's) are those of the list.
    #[test]
    fn the_result_files_are_listed_once() {
        let mut names: Vec<&str> = RESULT_FILES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "a name listed twice");
        for kept in [
            crate::sim::pool::CHECKPOINT_FILE,
            crate::sim::tune::STATE_FILE,
            "chunks.csv",
            "run.txt",
        ] {
            assert!(names.contains(&kept) && !removed_when_stale(kept), "{kept}");
        }
        assert!(removed_when_stale(cards::MATCHUPS));
        assert!(!removed_when_stale("notes.txt"));
    }

    /// The names of the result files, with their placeholders, and the files a commit sets
    /// aside: `.NAME.oldPID` of a result file's name, nothing else.
    #[test]
    fn result_file_names_and_the_files_set_aside() {
        for yes in [
            "run.json",
            "records.jsonl",
            "aggro_tuned.deck",
            "my cards_balanced.csv",
            "sealed-7.deck",
        ] {
            assert!(is_result_file_name(yes), "{yes}");
        }
        for no in [
            "notes.txt",
            "_tuned.deck",
            "aggro_tuned.",
            "sealed-.deck",
            "run.json.bak",
            "x/run.json",
            "",
        ] {
            assert!(!is_result_file_name(no), "{no}");
        }
        // No file name is this long: refused before matching.
        assert!(is_result_file_name(&format!(
            "{}_tuned.deck",
            "a".repeat(244)
        )));
        assert!(!is_result_file_name(&format!(
            "{}_tuned.deck",
            "a".repeat(245)
        )));
        assert_eq!(set_aside_by(".arena.csv.old123"), Some(123));
        assert_eq!(set_aside_by(".aggro_tuned.deck.old9"), Some(9));
        for no in [
            "arena.csv.old123",
            ".arena.csv.old",
            ".arena.csv.old12x",
            ".notes.txt.old123",
            ".arena.csv.tmp123",
            ".arena.csv.old99999999999",
        ] {
            assert_eq!(set_aside_by(no), None, "{no}");
        }
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

    /// A table's writer and reader agree, and the reader checks each kind.
    #[test]
    fn a_column_table_reads_back_what_it_writes() {
        struct R(String, u64, f64);
        const COLS: [Column<R>; 3] = [
            Column {
                name: "name",
                kind: Kind::Text,
                get: |r| Value::Text(r.0.clone()),
            },
            Column {
                name: "n",
                kind: Kind::Count,
                get: |r| Value::Count(Some(r.1)),
            },
            Column {
                name: "rate",
                kind: Kind::Rate,
                get: |r| Value::Num(r.2),
            },
        ];
        let rows = [R("a, b".into(), 3, 0.25), R("c".into(), 0, f64::NAN)];
        let text = write_table(&COLS, &rows);
        assert_eq!(text, "name,n,rate\n\"a, b\",3,0.2500\nc,0,\n");
        let back = read_table(&text, "f.csv", &COLS).unwrap();
        assert_eq!(back[0].text("name"), "a, b");
        assert_eq!(back[0].count("n"), 3);
        assert!(back[1].num("rate").is_nan());
        assert!(back[0].check_derived(&COLS, &rows[0]).is_ok());
        let e = back[0]
            .check_derived(&COLS, &rows[1])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f.csv:2: column `name`"), "{e}");
        let e = read_table("name,n,rate\nx,1,7.5\n", "f.csv", &COLS)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "f.csv:2: column `rate`: \"7.5\" is not a rate in [0, 1]");
        let e = read_table("name,n,rate\nx,-1,0\n", "f.csv", &COLS)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "f.csv:2: column `n`: \"-1\" is not a count");
    }

    /// The kinds of the tune, balance and arena files: each written as the writer wrote them
    /// before the tables (`{:.5}`, `{:.1}`, a float's shortest form, a signed integer) and read
    /// back within what it can be.
    #[test]
    fn every_kind_writes_its_form_and_reads_it_back() {
        struct R(i64, f64, f64, f64, f64);
        const COLS: [Column<R>; 5] = [
            Column::new("int", Kind::Int, |r| Value::Int(r.0)),
            Column::new("screen", Kind::Real5, |r| Value::Num(r.1)),
            Column::new("elo", Kind::Real1, |r| Value::Num(r.2)),
            Column::new("score", Kind::Points, |r| Value::Num(r.3)),
            Column::new("elo0", Kind::Plain, |r| Value::Num(r.4)),
        ];
        let rows = [
            R(-3, 0.005871, -345.14, 101.5, -50.0),
            R(2, f64::NAN, 0.0, 64.0, 0.05),
        ];
        let text = write_table(&COLS, &rows);
        assert_eq!(
            text,
            "int,screen,elo,score,elo0\n-3,0.00587,-345.1,101.5,-50\n2,,0.0,64,0.05\n"
        );
        let back = read_table(&text, "f.csv", &COLS).unwrap();
        assert_eq!(back[0].int("int"), -3);
        assert!(back[0].check_derived(&COLS, &rows[0]).is_ok());
        assert!(back[1].check_derived(&COLS, &rows[1]).is_ok());
        let e = back[0]
            .check_derived(&COLS, &rows[1])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f.csv:2: column `int`"), "{e}");
        let e = read_table("int,screen,elo,score,elo0\n1.5,0,0,0,0\n", "f.csv", &COLS);
        assert_eq!(
            e.unwrap_err().to_string(),
            "f.csv:2: column `int`: \"1.5\" is not a whole number"
        );
        let e = read_table("int,screen,elo,score,elo0\n1,0,0,-1,0\n", "f.csv", &COLS);
        assert_eq!(
            e.unwrap_err().to_string(),
            "f.csv:2: column `score`: \"-1\" is not a number of 0 or more"
        );
    }
}
