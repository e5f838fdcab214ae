//! Reading a run folder's files for the report: each CSV with its header checked, every row's line
//! number kept, and every numeric column parsed up front, so that a bad file is an error naming the
//! file, the line and the reason before anything is written.

use crate::core::input::{for_each_line, read_text, MAX_TEXT_BYTES};
use std::path::Path;

/// A CSV file of a run, read whole: its header, and each row with the line it was read from.
pub struct Csv {
    /// The file's name inside the run folder (`matchups.csv`).
    pub name: String,
    header: Vec<String>,
    rows: Vec<(usize, csv::StringRecord)>,
}

impl Csv {
    /// Reads `dir/name` if it exists (`Ok(None)` when it does not). The header must hold every
    /// column of `text` and `nums`; each field of a column of `nums` must be a number or empty
    /// (undefined); a file with no row after its header is an error.
    pub fn read(
        dir: &Path,
        name: &str,
        text: &[&str],
        nums: &[&str],
    ) -> Result<Option<Csv>, String> {
        match Self::read_maybe_empty(dir, name, text, nums)? {
            Some(c) if c.is_empty() => Err(format!(
                "{}: no rows after the header",
                dir.join(name).display()
            )),
            x => Ok(x),
        }
    }

    /// [`Csv::read`], where a file of only its header is a table of no rows.
    pub fn read_maybe_empty(
        dir: &Path,
        name: &str,
        text: &[&str],
        nums: &[&str],
    ) -> Result<Option<Csv>, String> {
        let path = dir.join(name);
        if !path.is_file() {
            return Ok(None);
        }
        let body = read_text(&path, MAX_TEXT_BYTES).map_err(|e| e.to_string())?;
        let file = path.display().to_string();
        let mut rdr = csv::ReaderBuilder::new().from_reader(body.as_bytes());
        let header: Vec<String> = rdr
            .headers()
            .map_err(|e| format!("{file}:1: malformed header: {e}"))?
            .iter()
            .map(str::to_string)
            .collect();
        for c in text.iter().chain(nums) {
            if !header.iter().any(|h| h == c) {
                return Err(format!(
                    "{file}:1: the header has no column `{c}` (found: {})",
                    header.join(",")
                ));
            }
        }
        let mut rows = Vec::new();
        for rec in rdr.records() {
            let rec = rec.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                format!("{file}:{line}: malformed row: {e}")
            })?;
            let line = rec.position().map_or(0, |p| p.line()) as usize;
            for c in nums {
                let k = header.iter().position(|h| h == c).expect("checked above");
                let v = &rec[k];
                if !v.is_empty() && v.parse::<f64>().map_or(true, |x| !x.is_finite()) {
                    return Err(format!(
                        "{file}:{line}: column `{c}`: \"{v}\" is not a number"
                    ));
                }
            }
            rows.push((line, rec));
        }
        Ok(Some(Csv {
            name: name.to_string(),
            header,
            rows,
        }))
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The line row `r` was read from.
    pub fn line(&self, r: usize) -> usize {
        self.rows[r].0
    }

    /// Row `r`'s field of column `c` (a column `read` checked; empty when absent).
    pub fn text(&self, r: usize, c: &str) -> &str {
        match self.header.iter().position(|h| h == c) {
            Some(k) => self.rows[r].1.get(k).unwrap_or(""),
            None => "",
        }
    }

    /// Row `r`'s number in column `c` (one of `read`'s `nums`); NaN when empty.
    pub fn num(&self, r: usize, c: &str) -> f64 {
        let t = self.text(r, c);
        if t.is_empty() {
            f64::NAN
        } else {
            t.parse().unwrap_or(f64::NAN)
        }
    }
}

/// The turns of every game of `dir/records.jsonl`, when the run wrote one (`matrix --records`).
pub fn record_turns(dir: &Path) -> Result<Option<Vec<u64>>, String> {
    #[derive(serde::Deserialize)]
    struct Turns {
        turns: u64,
    }
    let path = dir.join("records.jsonl");
    if !path.is_file() {
        return Ok(None);
    }
    let file = path.display().to_string();
    let mut turns = Vec::new();
    let mut bad = None;
    for_each_line(&path, MAX_TEXT_BYTES, |n, line| {
        if line.trim().is_empty() {
            return Ok(true);
        }
        match serde_json::from_str::<Turns>(line) {
            Ok(t) => {
                turns.push(t.turns);
                Ok(true)
            }
            Err(e) => {
                bad = Some(format!("{file}:{n}: not a game record: {e}"));
                Ok(false)
            }
        }
    })
    .map_err(|e| e.to_string())?;
    match bad {
        Some(e) => Err(e),
        None => Ok(Some(turns)),
    }
}
