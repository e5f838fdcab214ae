//! Words of a card text: the card language reads a cell as a list of tokens, each with the byte
//! offset where it starts, so every error can quote the word it is about.

use crate::core::input::excerpt;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Letters, digits, `_`, `-` and `.`, starting with a letter (lower-cased in [`Token::word`]).
    Word,
    /// A whole number, with its sign if written (`+2`, `-1000`, `3`).
    Num,
    /// A name in single quotes (`'Renna Valcourt'`), the quotes dropped.
    Quoted,
    /// One of `: ; | [ ] ( ) , / * = < > <= >= !=`.
    Sym,
}

/// One token of a card text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    /// The text as written (a quoted name without its quotes).
    pub text: String,
    /// [`Token::text`] in lower case (words and symbols are compared in lower case).
    pub word: String,
    /// Byte offset of the token in the cell.
    pub at: usize,
    /// Whether the number had an explicit sign (`+2`, `-1`).
    pub signed: bool,
}

impl Token {
    /// Whether this is the word or symbol `w` (lower case).
    #[inline]
    pub fn is(&self, w: &str) -> bool {
        matches!(self.kind, Tok::Word | Tok::Sym) && self.word == w
    }

    /// The number, if this is one.
    pub fn num(&self) -> Option<i64> {
        if self.kind == Tok::Num {
            self.text.trim_start_matches('+').parse().ok()
        } else {
            None
        }
    }
}

/// A lexing error: the byte offset and the reason.
pub type LexError = (usize, String);

/// Splits a cell into tokens.
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let push = |out: &mut Vec<Token>, kind: Tok, s: &str, signed: bool| {
            out.push(Token {
                kind,
                text: s.to_string(),
                word: s.to_ascii_lowercase(),
                at: start,
                signed,
            })
        };
        if c.is_ascii_alphabetic() {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b'.'))
            {
                i += 1;
            }
            // A word does not end with `-` or `.` (`draw 1.`: the full stop is not part of it).
            while i > start + 1 && matches!(b[i - 1], b'-' | b'.') {
                i -= 1;
            }
            push(&mut out, Tok::Word, &text[start..i], false);
        } else if c.is_ascii_digit()
            || (matches!(c, b'+' | b'-') && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let signed = !c.is_ascii_digit();
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
                // `2x`, `3rd`: a number glued to a word is neither.
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                return Err((
                    start,
                    format!("\"{}\" is not a number or a word", excerpt(&text[start..i])),
                ));
            }
            if i - start > 7 {
                return Err((
                    start,
                    format!("\"{}\": the number is too long", excerpt(&text[start..i])),
                ));
            }
            push(&mut out, Tok::Num, &text[start..i], signed);
        } else if c == b'\'' {
            let close = text[i + 1..]
                .find('\'')
                .ok_or((start, "a name in quotes has no closing `'`".to_string()))?;
            let name = &text[i + 1..i + 1 + close];
            if name.trim().is_empty() {
                return Err((start, "an empty name in quotes".into()));
            }
            push(&mut out, Tok::Quoted, name.trim(), false);
            i += close + 2;
        } else {
            let two = text.get(i..i + 2).unwrap_or("");
            let sym = if matches!(two, "<=" | ">=" | "!=") {
                two
            } else if b":;|[](),/*=<>".contains(&c) {
                &text[i..i + 1]
            } else {
                let ch = text[i..].chars().next().expect("in bounds");
                return Err((start, format!("unexpected character '{ch}'")));
            };
            i += sym.len();
            push(&mut out, Tok::Sym, sym, false);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, String)> {
        lex(s)
            .unwrap()
            .into_iter()
            .map(|t| (t.kind, t.word))
            .collect()
    }

    #[test]
    fn words_numbers_names_and_symbols() {
        let t = lex(
            "Act[self_action, ep 1]: buff target own unit cost<=2 +1/-0 | x: name='Renna Valcourt'",
        )
        .unwrap();
        let w: Vec<&str> = t.iter().map(|t| t.word.as_str()).collect();
        assert_eq!(
            w,
            [
                "act",
                "[",
                "self_action",
                ",",
                "ep",
                "1",
                "]",
                ":",
                "buff",
                "target",
                "own",
                "unit",
                "cost",
                "<=",
                "2",
                "+1",
                "/",
                "-0",
                "|",
                "x",
                ":",
                "name",
                "=",
                "renna valcourt"
            ]
        );
        assert_eq!(t[0].text, "Act");
        assert_eq!(t[0].at, 0);
        assert!(t[15].signed && !t[14].signed);
        assert_eq!(t[15].num(), Some(1));
        assert_eq!(t[23].kind, Tok::Quoted);
        assert_eq!(t[23].text, "Renna Valcourt");
    }

    #[test]
    fn bad_input_names_the_place() {
        assert_eq!(lex("draw 2x").unwrap_err().0, 5);
        assert!(lex("draw 1 %").unwrap_err().1.contains("'%'"));
        assert!(lex("name='open").unwrap_err().1.contains("closing"));
        assert!(lex("draw 123456789").unwrap_err().1.contains("too long"));
        assert_eq!(kinds("x>=3")[1], (Tok::Sym, ">=".into()));
        assert_eq!(kinds("TS-041")[0], (Tok::Word, "ts-041".into()));
    }
}
