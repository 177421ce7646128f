//! HTML escaped by construction: [`Html`] takes markup only as `'static` literals (the
//! code's own) or other [`Html`] values, and everything else as text, escaped on the way
//! in. A name, a message or an error cannot reach a page unescaped by mistake: there is no
//! method that inserts a run-time string as markup.

use std::fmt::{Display, Write as _};

use axum::response::{IntoResponse, Response};

/// A piece of HTML built from literals and escaped text (see the module docs).
///
/// ```
/// use alembic_web::html::Html;
/// let name = "<b>'Ann'</b> & co";
/// let mut h = Html::new();
/// h.raw("<p title='").text(name).raw("'>").text(name).raw("</p>");
/// assert_eq!(
///     h.as_str(),
///     "<p title='&lt;b&gt;&#39;Ann&#39;&lt;/b&gt; &amp; co'>&lt;b&gt;&#39;Ann&#39;&lt;/b&gt; &amp; co</p>"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    /// Empty.
    #[must_use]
    pub fn new() -> Self {
        Html(String::with_capacity(4096))
    }

    /// A whole piece of markup the code wrote (a `'static` literal).
    #[must_use]
    pub fn literal(markup: &'static str) -> Self {
        Html(markup.to_owned())
    }

    /// Markup the code wrote: a `'static` literal (or a constant), never a value made at
    /// run time.
    pub fn raw(&mut self, markup: &'static str) -> &mut Self {
        self.0.push_str(markup);
        self
    }

    /// Text (anything that displays: a name, a number, an error), escaped (`& < > " '`), so
    /// that it is neither markup nor the end of an attribute's quotes.
    pub fn text(&mut self, text: impl Display) -> &mut Self {
        let mut s = String::new();
        let _ = write!(s, "{text}");
        push_escaped(&mut self.0, &s);
        self
    }

    /// Another piece of HTML, as it is (it was built the same way).
    pub fn html(&mut self, other: &Html) -> &mut Self {
        self.0.push_str(&other.0);
        self
    }

    /// The HTML.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The HTML, as a string.
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }
}

impl IntoResponse for Html {
    fn into_response(self) -> Response {
        axum::response::Html(self.0).into_response()
    }
}

/// `text` with `& < > " '` escaped, for HTML text and attribute values.
///
/// ```
/// assert_eq!(alembic_web::html::escape("<a href='x'>&\""), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
/// ```
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    /// The text of the call whose arguments begin at `start` (after its `(`), up to its
    /// closing parenthesis (parentheses inside string literals aside).
    fn call_at(src: &str, start: usize) -> &str {
        let (mut depth, mut in_str, mut prev) = (1, false, ' ');
        for (j, c) in src[start..].char_indices() {
            if in_str {
                in_str = !(c == '"' && prev != '\\');
            } else if c == '"' {
                in_str = true;
            } else if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth -= 1;
                if depth == 0 {
                    return &src[start..start + j];
                }
            }
            prev = c;
        }
        &src[start..]
    }

    /// Whether `s` holds a tag (`<p`, `</p`, `<!doctype`).
    fn has_markup(s: &str) -> bool {
        s.as_bytes()
            .windows(2)
            .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!')))
    }

    /// The page modules build HTML only through [`super::Html`]: no markup in a `format!`,
    /// `write!` or `push_str` (where a run-time value could go in unescaped), and no
    /// `axum::response::Html` made from a string.
    #[test]
    fn pages_build_html_only_through_the_builder() {
        let sources = [
            ("lobby.rs", include_str!("lobby.rs")),
            ("web/pages.rs", include_str!("web/pages.rs")),
            ("web/account.rs", include_str!("web/account.rs")),
            ("web/error.rs", include_str!("web/error.rs")),
        ];
        let mut found = Vec::new();
        for (file, src) in sources {
            for made in ["format!(", "write!(", "push_str(", "Html("] {
                for (i, _) in src.match_indices(made) {
                    if has_markup(call_at(src, i + made.len())) {
                        let line = src[..i].lines().count();
                        found.push(format!("{file}:{line}: {made}"));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "HTML made outside html::Html, where a value could go in unescaped: {found:?}"
        );
    }
}
