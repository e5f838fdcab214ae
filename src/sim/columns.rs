//! Column tables of result files: each file's columns written once, in order, with their kind.
//! The writer takes its header from the table; the report's reader takes from it the columns it
//! requires and which of them must hold numbers (`tune.csv`, `balance.csv`, …).

/// How a column's fields read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text (a name, a status).
    Text,
    /// A number, or empty where undefined.
    Num,
}

/// One column of a result file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
}

/// A text column.
pub const fn text(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Text,
    }
}

/// A numeric column.
pub const fn num(name: &'static str) -> Column {
    Column {
        name,
        kind: Kind::Num,
    }
}

/// The header: every column's name, in order.
pub fn header(cols: &[Column]) -> Vec<&'static str> {
    cols.iter().map(|c| c.name).collect()
}

/// The names of the columns of one kind, in order.
pub fn of_kind(cols: &[Column], kind: Kind) -> Vec<&'static str> {
    cols.iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.name)
        .collect()
}
