//! `tcgsim cards migrate`: a card file with every card text written in the canonical form of the
//! card language. Older spellings keep loading (the parser reads them as aliases); migrating
//! rewrites them so a file shows the language as documented. Everything else of the file — comments,
//! blank lines, other columns, lines already canonical — is kept byte for byte.

use super::vocab::Vocab;
use crate::core::input::InputError;

/// A card file's text columns: the column's name and the head its cells are read with (empty for
/// a cell of whole abilities; `life: ` for Fire Force's Life-trigger cell, which holds effects
/// only).
pub type TextColumns = &'static [(&'static str, &'static str)];

/// The file rewritten, and how many cells changed.
pub fn migrate(
    v: &Vocab,
    columns: TextColumns,
    text: &str,
    file: &str,
) -> Result<(String, usize), InputError> {
    let err = |line: usize, msg: String| InputError {
        file: file.to_string(),
        line,
        msg,
    };
    let mut out = String::with_capacity(text.len() + 64);
    let mut header: Option<Vec<(usize, &str)>> = None;
    let mut changed = 0;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let line = n + 1;
        let body = raw.trim_end_matches(['\n', '\r']);
        let ending = &raw[body.len()..];
        if body.trim().is_empty() || body.starts_with('#') {
            out.push_str(raw);
            continue;
        }
        let fields = one_record(body).map_err(|m| err(line, m.0))?;
        let Some(cols) = &header else {
            let mut cols = Vec::new();
            for (name, head) in columns {
                match fields.iter().position(|f| f.trim() == *name) {
                    Some(k) => cols.push((k, *head)),
                    None => return Err(err(line, format!("the header has no `{name}` column"))),
                }
            }
            header = Some(cols);
            out.push_str(raw);
            continue;
        };
        let mut new = fields.clone();
        let mut any = false;
        for &(k, head) in cols {
            let Some(cell) = fields.get(k) else {
                return Err(err(line, format!("expected at least {} columns", k + 1)));
            };
            let cell = cell.trim();
            if cell.is_empty() {
                continue;
            }
            let tree = super::parse(v, &format!("{head}{cell}")).map_err(|e| {
                err(
                    line,
                    format!(
                        "column {}: {e}",
                        columns[cols.iter().position(|c| c.0 == k).unwrap_or(0)].0
                    ),
                )
            })?;
            let canon = super::canonical(v, &tree);
            let canon = canon.strip_prefix(head).unwrap_or(&canon).to_string();
            if canon != cell {
                new[k] = canon;
                any = true;
                changed += 1;
            }
        }
        if any {
            let mut w = csv::WriterBuilder::new()
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(Vec::new());
            w.write_record(&new).map_err(|e| err(line, e.to_string()))?;
            let bytes = w.into_inner().map_err(|e| err(line, e.to_string()))?;
            let s = String::from_utf8(bytes).map_err(|e| err(line, e.to_string()))?;
            out.push_str(s.trim_end_matches('\n'));
            out.push_str(ending);
        } else {
            out.push_str(raw);
        }
    }
    if header.is_none() {
        return Err(err(0, "no header line".into()));
    }
    Ok((out, changed))
}

/// The fields of one CSV line (a card file holds one card per line).
fn one_record(line: &str) -> Result<Vec<String>, crate::core::Reason> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut rec = csv::StringRecord::new();
    match r.read_record(&mut rec) {
        Ok(true) => {}
        Ok(false) => return Ok(Vec::new()),
        Err(e) => return Err(format!("malformed CSV: {e}").into()),
    }
    if r.read_record(&mut csv::StringRecord::new())
        .unwrap_or(false)
    {
        return Err(
            "a quoted field runs over several lines: migrate reads one card per line".into(),
        );
    }
    Ok(rec.iter().map(String::from).collect())
}
