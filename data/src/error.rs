//! Data errors: where (`file:line:column`), what, and a suggestion where one fits.

use std::fmt;

use serde::Serialize;

/// What kind of mistake a [`DataError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not TOML.
    Syntax,
    /// A field the schema does not declare.
    UnknownKey,
    /// A value of another type than its key's.
    WrongType,
    /// A `parent` no source defines.
    UnknownParent,
    /// Prototypes that derive from each other in a circle.
    Cycle,
    /// A hook name that no hook is registered under.
    UnknownHook,
    /// A prototype or tile named (by `copy-from`, `extend`, `delete` or a key that names a
    /// prototype) but not defined.
    UnknownPrototype,
    /// A text that is not one of the names its key allows ([`Schema::one_of`]: a damage
    /// type, a slot…).
    ///
    /// [`Schema::one_of`]: crate::Schema::one_of
    UnknownValue,
    /// A prototype or tile defined twice.
    Duplicate,
    /// Something the format does not allow (a `delete` with fields, a top-level table
    /// other than `proto` and `tile`…).
    Invalid,
}

/// One mistake in the data, at a place in one source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DataError {
    /// The source's name, as given to [`Loader::source`](crate::Loader::source).
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// The byte offset in the source.
    pub offset: usize,
    /// What kind of mistake.
    pub kind: ErrorKind,
    /// The key or name it is about, when there is one.
    pub key: Option<String>,
    /// The message, without the place.
    pub message: String,
    /// A near name that was probably meant ("did you mean …?").
    pub suggestion: Option<String>,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )?;
        if let Some(s) = &self.suggestion {
            write!(f, "; did you mean {s:?}?")?;
        }
        Ok(())
    }
}

/// Every mistake found in the sources, in source order, then by place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DataErrors(pub Vec<DataError>);

impl DataErrors {
    /// The errors.
    #[must_use]
    pub fn errors(&self) -> &[DataError] {
        &self.0
    }
}

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataErrors {}

impl std::error::Error for DataError {}

/// Edit distance in characters, a swap of two neighbours counting as one edit (optimal
/// string alignment: "hsp" is one edit from "hps").
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, x) in d.iter_mut().enumerate().take(w) {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The nearest of `candidates` to `name`, if near enough to be a likely typo (at most a
/// third of its length, and at least one edit, away).
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c.to_string())
}

/// Line and column (both from 1, the column in characters) of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        assert_eq!(distance("hsp", "hps"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(
            nearest("attak", ["attack", "defence"]),
            Some("attack".into())
        );
        assert_eq!(nearest("zzz", ["attack", "defence"]), None);
    }

    #[test]
    fn lines_and_columns_count_characters() {
        let t = "a = 1\nbé = 2\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 6), (2, 1));
        assert_eq!(line_col(t, 9), (2, 3)); // after the two-byte é
        assert_eq!(line_col(t, 999), (3, 1));
    }
}
