//! Reading the text files a user gives tcgsim (card files, decks, scenarios, checkpoints, shard
//! outputs): with a size bound, as UTF-8, with errors that name the file and, for bad UTF-8, the
//! line.

use std::io::Read;
use std::path::Path;

/// The most bytes read from a card file, deck, scenario or shard output: 16 MiB.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;

/// The most bytes read from a checkpoint: 256 MiB (a million chunks of a matrix, or a million
/// games of a duel, take about 50 MB).
pub const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

/// A problem in an input file (why it cannot be read, or what is wrong in it): its name, the line
/// (0 for the file as a whole) and the reason. Displayed `file:line: reason` or `file: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    pub file: String,
    pub line: usize,
    pub msg: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

impl InputError {
    /// The problem `msg` at line `line` (0: the file as a whole) of `file`.
    pub fn new(file: impl Into<String>, line: usize, msg: impl Into<String>) -> InputError {
        InputError {
            file: file.into(),
            line,
            msg: msg.into(),
        }
    }
}

/// Every problem of one input file, in the order found (a deck file's are all listed at once).
/// Displayed one problem a line, each `file:line: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputErrors(pub Vec<InputError>);

impl std::fmt::Display for InputErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, p) in self.0.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl From<InputError> for InputErrors {
    fn from(e: InputError) -> InputErrors {
        InputErrors(vec![e])
    }
}

impl InputErrors {
    /// The problems as one [`InputError`] that displays the same: the first problem's file and
    /// line, its reason followed by the other problems' lines.
    pub fn joined(self) -> InputError {
        let mut v = self.0.into_iter();
        let Some(mut first) = v.next() else {
            return InputError::new("", 0, "");
        };
        for p in v {
            first.msg.push('\n');
            first.msg.push_str(&p.to_string());
        }
        first
    }
}

/// Why a value is wrong — a field, a count, a card's name, a word of the card language, an
/// action's text — before the file and line it stands on are known ([`Reason::at`] adds them).
/// Displayed as the reason alone.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Reason(pub String);

impl Reason {
    /// The reason `msg`.
    pub fn new(msg: impl Into<String>) -> Reason {
        Reason(msg.into())
    }

    /// This reason at line `line` of `file`.
    pub fn at(self, file: impl Into<String>, line: usize) -> InputError {
        InputError::new(file, line, self.0)
    }
}

impl From<String> for Reason {
    fn from(msg: String) -> Reason {
        Reason(msg)
    }
}

impl From<&str> for Reason {
    fn from(msg: &str) -> Reason {
        Reason(msg.to_string())
    }
}

/// The reason's text, read as a string (`contains`, `starts_with`, …).
impl std::ops::Deref for Reason {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// The reason's text, for code that still speaks strings (`?` converts).
impl From<Reason> for String {
    fn from(r: Reason) -> String {
        r.0
    }
}

/// Reads `path` as UTF-8 text of at most `limit` bytes. The error says why not: the file cannot be
/// read, it is too large, or it is not UTF-8 (with the line and column of the first bad byte).
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    let file = path.display().to_string();
    let fail = |line, msg| InputError {
        file: file.clone(),
        line,
        msg,
    };
    let f = std::fs::File::open(path).map_err(|e| fail(0, format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(0, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(fail(
            0,
            format!(
                "larger than {} MiB; tcgsim reads at most that from one file",
                limit >> 20
            ),
        ));
    }
    text_of(bytes, &file)
}

/// `bytes` as UTF-8 text, without a leading byte-order mark (editors on Windows save one); the
/// error names `file` with the line and column of the first bad byte.
pub fn text_of(mut bytes: Vec<u8>, file: &str) -> Result<String, InputError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let b = e.as_bytes();
        let line = 1 + b[..at].iter().filter(|&&c| c == b'\n').count();
        let start = b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let column = 1 + String::from_utf8_lossy(&b[start..at]).chars().count();
        InputError {
            file: file.to_string(),
            line,
            msg: format!("not valid UTF-8 text (bad byte at column {column})"),
        }
    })
}

/// Reads the file at `path` a line at a time (for files too large to hold, such as a run's
/// `records.jsonl`): calls `f` with each line's number (1-based) and text, without its line break,
/// until `f` returns `Ok(false)` or the file ends. A line over `max_line` bytes, or not UTF-8, is an
/// error naming the line; memory stays within one line.
pub fn for_each_line(
    path: &Path,
    max_line: u64,
    mut f: impl FnMut(usize, &str) -> Result<bool, InputError>,
) -> Result<(), InputError> {
    use std::io::BufRead;
    let file = path.display().to_string();
    let fail = |line, msg| InputError {
        file: file.clone(),
        line,
        msg,
    };
    let h = std::fs::File::open(path).map_err(|e| fail(0, format!("cannot read: {e}")))?;
    let mut r = std::io::BufReader::new(h);
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        let got = (&mut r)
            .take(max_line + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| fail(n + 1, format!("cannot read: {e}")))?;
        if got == 0 {
            return Ok(());
        }
        n += 1;
        if buf.last() == Some(&b'\n') {
            buf.pop();
        } else if buf.len() as u64 > max_line {
            return Err(fail(n, format!("longer than {max_line} bytes")));
        }
        let line = std::str::from_utf8(&buf).map_err(|_| fail(n, "not valid UTF-8 text".into()))?;
        if !f(n, line.trim_end_matches('\r'))? {
            return Ok(());
        }
    }
}

/// The lines of a deck file (or any file of `#` comments): numbered from 1, everything from a `#`
/// on cut, trimmed, blank lines skipped. The games whose card names hold no `#` read their decks
/// through it.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Whether `text` is a card file with columns `header`: its first line (comments cut, spaces
/// ignored) is the header's names joined by commas.
pub fn has_header(text: &str, header: &[&str]) -> bool {
    content_lines(text)
        .next()
        .is_some_and(|(_, h)| h.replace(' ', "") == header.join(","))
}

/// The most cards of a card file of a game whose card ids are a byte (255 is "no card").
pub const MAX_POOL: usize = 250;

/// A deck file's card line `COUNT CARD` (line `n` of `file`, as [`content_lines`] gives it): the
/// count (1 to 40) and the card `lookup` finds by the rest of the line. The error is the problem
/// at line `n` of `file`.
pub fn deck_line<C, E: std::fmt::Display>(
    l: &str,
    file: &str,
    n: usize,
    lookup: impl Fn(&str) -> Result<C, E>,
) -> Result<(usize, C), InputError> {
    let (count, key) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
    let count: usize = parse_int(count, 1u8, 40)
        .map(usize::from)
        .map_err(|e| InputError::new(file, n, format!("count {e}")))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(InputError::new(
            file,
            n,
            format!("missing card after the count {count}"),
        ));
    }
    let id = lookup(key).map_err(|e| InputError::new(file, n, e.to_string()))?;
    Ok((count, id))
}

/// A name as every lookup compares it: whitespace collapsed, lower case.
pub fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `norm(s) == k` for a `k` that [`norm`] wrote, without allocating when `s` is ASCII:
/// every lookup of a deck line compares its key with each card of the pool (tune and balance
/// read thousands of decks).
pub fn is_norm_of(s: &str, k: &str) -> bool {
    if !s.is_ascii() {
        return norm(s) == k;
    }
    let mut want = k.bytes();
    let mut words = s
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty());
    if let Some(w) = words.next() {
        let same = |w: &str, want: &mut std::str::Bytes| {
            w.bytes()
                .all(|b| want.next() == Some(b.to_ascii_lowercase()))
        };
        if !same(w, &mut want) || !words.all(|w| want.next() == Some(b' ') && same(w, &mut want)) {
            return false;
        }
    }
    want.next().is_none()
}

/// The index of the card `key` names among `cards` (number, name): its number, or a name only
/// one number has (ignoring case and runs of spaces). `Err` says why not, with the nearest name
/// of `cards` when the key is no card and one is near it (a misspelling,
/// [`super::lang::suggest::nearest`]).
pub fn lookup_card<'a>(
    key: &str,
    cards: impl Iterator<Item = (&'a str, &'a str)> + Clone,
) -> Result<usize, Reason> {
    let k = norm(key);
    if let Some(i) = cards.clone().position(|(number, _)| is_norm_of(number, &k)) {
        return Ok(i);
    }
    let hits: Vec<(usize, &str)> = cards
        .clone()
        .enumerate()
        .filter(|(_, (_, name))| is_norm_of(name, &k))
        .map(|(i, (number, _))| (i, number))
        .collect();
    match hits.as_slice() {
        [(i, _)] => Ok(*i),
        [] => {
            // A misspelt name gets the nearest of the pool's names
            // (`unknown card "Spark Cadte"; did you mean "Spark Cadet"?`).
            let mut m = format!("unknown card \"{}\"", excerpt(key));
            let names: Vec<String> = cards.clone().map(|(_, name)| norm(name)).collect();
            let near = super::lang::suggest::nearest(&k, &names)
                .and_then(|n| names.iter().position(|x| *x == n))
                .and_then(|i| cards.clone().nth(i));
            if let Some((_, name)) = near {
                m.push_str(&format!("; did you mean \"{name}\"?"));
            }
            Err(m.into())
        }
        _ => Err(format!(
            "\"{}\" names {} cards ({}): name it by its number",
            excerpt(key),
            hits.len(),
            hits.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
        )
        .into()),
    }
}

/// A scenario line without its comment, trimmed: a `#` at the start of the line or after a space
/// starts one, so `Name#2` (the second card of that name in a zone) is read whole.
pub fn strip_comment(l: &str) -> &str {
    let b = l.as_bytes();
    match (0..b.len()).find(|&k| b[k] == b'#' && (k == 0 || b[k - 1].is_ascii_whitespace())) {
        Some(k) => l[..k].trim(),
        None => l.trim(),
    }
}

/// A scenario's deck list `CARD, 3*CARD, …` (top first) as card ids, through the game's
/// `lookup`; at most 40 cards.
pub fn card_list(v: &str, lookup: impl Fn(&str) -> Result<u8, Reason>) -> Result<Vec<u8>, Reason> {
    let mut out = Vec::new();
    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (n, name) = match part.split_once('*') {
            Some((n, name)) => (usize::from(parse_int(n.trim(), 1u8, 40)?), name.trim()),
            None => (1, part),
        };
        let id = lookup(name)?;
        if out.len() + n > 40 {
            return Err("more than 40 cards".into());
        }
        out.extend(std::iter::repeat_n(id, n));
    }
    Ok(out)
}

/// What is wrong with a CSV file's text: the line (1-based; 0 for the file as a whole), the
/// column it is about (`header`, `row`, or a column's name), and the reason.
pub type CsvProblem = (usize, &'static str, String);

/// The rows of a card file's CSV text — `#` comment lines and blank lines skipped, fields trimmed,
/// quoting as the csv crate reads it — after checking its header against `columns`: each row with
/// the line it starts on and exactly `columns.len()` fields. Every game's card file is read
/// through it, so they agree on what a comment, a quote and a line number are.
pub fn csv_rows(
    text: &str,
    columns: &[&'static str],
) -> Result<Vec<(usize, csv::StringRecord)>, CsvProblem> {
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    // The reader's positions point before any comment or blank lines it skipped: move on to the
    // line the record really starts on. `starts[n]` is the byte where line n + 1 starts, so a
    // position's line is one binary search (a 16 MiB file stays linear).
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(k, _)| k + 1))
        .collect();
    let line_of = |p: &csv::Position| {
        let byte = (p.byte() as usize).min(text.len());
        let mut n = starts.partition_point(|&s| s <= byte) - 1;
        // A comment is a `#` in the first column (as the csv crate reads it); blank lines skip.
        while n < lines.len() && (lines[n].trim().is_empty() || lines[n].starts_with('#')) {
            n += 1;
        }
        n + 1
    };
    let headers = rdr
        .headers()
        .cloned()
        .map_err(|e| (0, "header", format!("cannot read the header: {e}")))?;
    let header_line = line_of(&csv::Position::new());
    let got: Vec<&str> = headers.iter().collect();
    if got != columns {
        return Err((
            header_line.max(1),
            "header",
            format!(
                "expected the header `{}`, found `{}`",
                columns.join(","),
                excerpt_long(&got.join(","))
            ),
        ));
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(line_of).unwrap_or(0);
            (line, "row", format!("malformed CSV: {e}"))
        })?;
        let line = rec.position().map(line_of).unwrap_or(0);
        if rec.len() != columns.len() {
            return Err((
                line,
                "row",
                format!("expected {} columns, found {}", columns.len(), rec.len()),
            ));
        }
        out.push((line, rec));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// `is_norm_of(s, k)` is `norm(s) == k`, checked on every pair of a set of names with runs of
    /// spaces, tabs, a vertical tab, other cases, non-ASCII letters and prefixes of each other.
    #[test]
    fn is_norm_of_agrees_with_norm() {
        let names = [
            "",
            " ",
            "Spark Cadet",
            "spark cadet",
            "  Spark \t CADET ",
            "Spark\x0bCadet",
            "Spark Cadet 2",
            "Spark",
            "SparkCadet",
            "Ärger Ω",
            "ärger ω",
            "ΟΔΟΣ",
            "FF-001",
            "ff-001 ",
            "Spark Cadet ",
            "Spark  Cadets",
        ];
        let mut same = 0;
        for s in names {
            for t in names {
                let k = norm(t);
                assert_eq!(is_norm_of(s, &k), norm(s) == k, "{s:?} against {k:?}");
                same += usize::from(norm(s) == k);
            }
        }
        assert!(
            same > names.len(),
            "the set holds names that normalise alike"
        );
    }

    #[test]
    fn scenario_text_helpers() {
        assert_eq!(norm("  Spark   CADET "), "spark cadet");
        assert_eq!(
            strip_comment("take Spark Cadet#2  # second"),
            "take Spark Cadet#2"
        );
        assert_eq!(strip_comment("# all comment"), "");
        let lookup = |n: &str| match n {
            "a" => Ok(1u8),
            "b" => Ok(2),
            _ => Err(Reason(format!("unknown card \"{n}\""))),
        };
        assert_eq!(card_list("a, 3*b", lookup), Ok(vec![1, 2, 2, 2]));
        assert_eq!(
            card_list("a, 40*b", lookup),
            Err("more than 40 cards".into())
        );
        assert_eq!(card_list("c", lookup), Err("unknown card \"c\"".into()));
        assert!(card_list("0*a", lookup).is_err());
    }

    #[test]
    fn content_lines_number_cut_comments_and_skip_blanks() {
        let v: Vec<(usize, &str)> = content_lines("# head\n2 A  # two\n\n  \n1 B\n").collect();
        assert_eq!(v, vec![(2, "2 A"), (5, "1 B")]);
    }

    /// Lines one at a time, numbered; a line over the bound is an error naming it.
    #[test]
    fn for_each_line_bounds_each_line() {
        let p = std::env::temp_dir().join(format!("tcgsim-lines-{}", std::process::id()));
        std::fs::write(&p, "ab\r\n\ncdef\n0123456789\n").unwrap();
        let mut got = Vec::new();
        let e = for_each_line(&p, 6, |n, l| {
            got.push((n, l.to_string()));
            Ok(true)
        })
        .unwrap_err();
        assert_eq!(
            got,
            vec![(1, "ab".into()), (2, "".into()), (3, "cdef".into())]
        );
        assert_eq!((e.line, e.msg.as_str()), (4, "longer than 6 bytes"));
        let mut first = None;
        for_each_line(&p, 6, |n, l| {
            first = Some((n, l.to_string()));
            Ok(false)
        })
        .unwrap();
        assert_eq!(first, Some((1, "ab".to_string())));
        let _ = std::fs::remove_file(&p);
    }

    /// Rows carry the line they start on, past comment and blank lines; a `#` that is not in the
    /// first column is data (the csv crate's reading), so a malformed row there is named at its
    /// own line.
    #[test]
    fn csv_rows_number_lines_as_the_file_does() {
        let text = "# a comment\n\nname,value\n# another\nA,1\n\n\"B, b\",2\n  # not a comment\n";
        let e = csv_rows(text, &["name", "value"]).unwrap_err();
        assert_eq!(e, (8, "row", "expected 2 columns, found 1".to_string()));
        let ok = csv_rows(&text[..text.len() - 18], &["name", "value"]).unwrap();
        let got: Vec<(usize, String)> = ok.iter().map(|(n, r)| (*n, r[0].to_string())).collect();
        assert_eq!(got, vec![(5, "A".to_string()), (7, "B, b".to_string())]);
        let e = csv_rows("\n# c\nvalue,name\n", &["name", "value"]).unwrap_err();
        assert_eq!(e.0, 3);
    }

    use super::*;

    /// An unknown card gets the nearest name of the pool when one is near (a third of its
    /// letters at most differ), written as the pool writes it; a far one gets none.
    #[test]
    fn an_unknown_card_names_the_nearest_card() {
        let pool = [("A-1", "Spark Cadet"), ("A-2", "Fire  Wall")];
        assert_eq!(lookup_card("fire wall", pool.iter().copied()), Ok(1));
        assert_eq!(
            lookup_card("Spark Cadte", pool.iter().copied())
                .unwrap_err()
                .0,
            "unknown card \"Spark Cadte\"; did you mean \"Spark Cadet\"?"
        );
        assert_eq!(
            lookup_card("firewal", pool.iter().copied()).unwrap_err().0,
            "unknown card \"firewal\"; did you mean \"Fire  Wall\"?"
        );
        assert_eq!(
            lookup_card("Ember Ward", pool.iter().copied())
                .unwrap_err()
                .0,
            "unknown card \"Ember Ward\""
        );
    }

    #[test]
    fn bad_utf8_names_line_and_column() {
        let e = text_of(b"ok\nab\xffc\n".to_vec(), "f.deck").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.deck:2: not valid UTF-8 text (bad byte at column 3)"
        );
        assert_eq!(text_of(b"fine".to_vec(), "f").unwrap(), "fine");
        let dir = std::env::temp_dir().join(format!("tcgsim-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("big.txt");
        std::fs::write(&p, vec![b'x'; 2 << 20]).unwrap();
        let e = read_text(&p, 1 << 20).unwrap_err().to_string();
        assert!(
            e.ends_with("big.txt: larger than 1 MiB; tcgsim reads at most that from one file"),
            "{e}"
        );
        assert!(read_text(&dir.join("nope"), 10)
            .unwrap_err()
            .to_string()
            .contains("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Why a folder flag (`--out`, `--checkpoint`) given the name of a file is refused: the one
/// wording of that error, whichever layer checks the folder.
pub fn names_a_folder(flag: &str) -> String {
    format!("a file of that name exists; {flag} names a folder (it keeps the run's files there)")
}

/// `s` for an error message: as written, or its start and length when it is long (a message must
/// not repeat a megabyte of input).
pub fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(30).collect();
        format!("{head}… ({} characters)", s.chars().count())
    }
}

/// `s` whole up to 400 characters (a header with a misspelt column is quoted in full), else
/// its first 300 and its length: a line megabytes long is not copied into the message.
fn excerpt_long(s: &str) -> String {
    let n = s.chars().count();
    if n <= 400 {
        s.to_string()
    } else {
        let head: String = s.chars().take(300).collect();
        format!("{head}… ({n} characters)")
    }
}

/// Parses a whole number in `min..=max`. The error says which is wrong: "\"x\" is not a whole
/// number", or "N is out of range MIN..=MAX" (also for numbers too long for any integer type).
pub fn parse_int<T>(s: &str, min: T, max: T) -> Result<T, Reason>
where
    T: TryFrom<i128> + Into<i128> + Copy + std::fmt::Display,
{
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("\"{}\" is not a whole number", excerpt(t)).into());
    }
    match t.parse::<i128>() {
        Ok(v) if v >= min.into() && v <= max.into() => {
            T::try_from(v).map_err(|_| unreachable!("checked against the range"))
        }
        _ => Err(format!("{} is out of range {min}..={max}", excerpt(t)).into()),
    }
}

/// Parses a finite number in `min..=max`.
pub fn parse_float(s: &str, min: f64, max: f64) -> Result<f64, Reason> {
    let t = s.trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        Ok(_) => Err(format!("{} is out of range {min}..={max}", excerpt(t)).into()),
        Err(_) => Err(format!("\"{}\" is not a number", excerpt(t)).into()),
    }
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn numbers_say_whether_they_are_malformed_or_out_of_range() {
        assert_eq!(parse_int::<u8>("20", 0, 20), Ok(20));
        assert_eq!(
            parse_int::<u8>("-1", 0, 20),
            Err("-1 is out of range 0..=20".into())
        );
        assert_eq!(
            parse_int::<i8>("300", 0, 99),
            Err("300 is out of range 0..=99".into())
        );
        assert_eq!(
            parse_int::<u16>("12345678901234567890", 1, 100),
            Err("12345678901234567890 is out of range 1..=100".into())
        );
        let long = "9".repeat(100);
        assert_eq!(
            parse_int::<u64>(&long, 0, 5),
            Err("999999999999999999999999999999… (100 characters) is out of range 0..=5".into())
        );
        assert_eq!(
            parse_int::<u32>("thirty", 0, 5),
            Err("\"thirty\" is not a whole number".into())
        );
        assert_eq!(
            parse_int::<u32>("", 0, 5),
            Err("\"\" is not a whole number".into())
        );
        assert_eq!(parse_float("0.25", 0.0, 1.0), Ok(0.25));
        assert!(parse_float("inf", 0.0, 1.0)
            .unwrap_err()
            .contains("out of range"));
        assert!(parse_float("NaN", 0.0, 1.0)
            .unwrap_err()
            .contains("out of range"));
        assert!(parse_float("x", 0.0, 1.0)
            .unwrap_err()
            .contains("not a number"));
    }
}

/// A scenario zone `CARD, 2*CARD (MARK, MARK), …` as one entry per card: its name and its marks
/// (lower case), in the order written; `none` (or nothing) is an empty zone. Commas inside
/// parentheses separate marks, not cards; at most 40 cards.
pub fn marked_list(v: &str) -> Result<Vec<(String, Vec<String>)>, Reason> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (k, c) in v.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&v[start..k]);
                start = k + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Err(format!("\"{}\": a ')' without its '('", excerpt(v)).into());
        }
    }
    if depth != 0 {
        return Err(format!("\"{}\": a '(' without its ')'", excerpt(v)).into());
    }
    parts.push(&v[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
        if part.eq_ignore_ascii_case("none") {
            continue;
        }
        let (card, marks) = match part.split_once('(') {
            Some((c, m)) => {
                let m = m
                    .trim_end()
                    .strip_suffix(')')
                    .ok_or_else(|| format!("\"{}\": text after the marks' ')'", excerpt(part)))?;
                let marks: Vec<String> = m
                    .split(',')
                    .map(|x| x.trim().to_ascii_lowercase())
                    .filter(|x| !x.is_empty())
                    .collect();
                (c.trim(), marks)
            }
            None => (part, Vec::new()),
        };
        let (n, name) = match card.split_once('*') {
            Some((n, name)) => (usize::from(parse_int(n.trim(), 1u8, 40)?), name.trim()),
            None => (1, card),
        };
        if name.is_empty() {
            return Err(format!("\"{}\": a card without a name", excerpt(part)).into());
        }
        if out.len() + n > 40 {
            return Err("more than 40 cards".into());
        }
        for _ in 0..n {
            out.push((name.to_string(), marks.clone()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod marked_list_tests {
    use super::marked_list;

    /// Scenario positions' zones: copies, marks (commas inside parentheses are marks), `none`.
    #[test]
    fn zones_read_copies_and_marks() {
        let v = marked_list("Spark Cadet, 2*Bastion Recruit (Exhausted, dispatched), X").unwrap();
        let want: Vec<(String, Vec<String>)> = vec![
            ("Spark Cadet".into(), vec![]),
            (
                "Bastion Recruit".into(),
                vec!["exhausted".into(), "dispatched".into()],
            ),
            (
                "Bastion Recruit".into(),
                vec!["exhausted".into(), "dispatched".into()],
            ),
            ("X".into(), vec![]),
        ];
        assert_eq!(v, want);
        assert_eq!(marked_list("none").unwrap(), vec![]);
        assert_eq!(marked_list("").unwrap(), vec![]);
        assert!(marked_list("A (known")
            .unwrap_err()
            .contains("without its ')'"));
        assert!(marked_list("A) B").unwrap_err().contains("without its '('"));
        assert!(marked_list("A (known) B").is_err());
        assert!(marked_list("41*A").is_err());
    }
}
