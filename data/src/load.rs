//! The loader: sources in order (the base, then mods) to a new [`Library`] or every error.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use alembic::Library;
use alembic::Rgb;
use alembic::library::ABSTRACT;
use alembic::props::{Hook, ModOp, Modifier, PropKey, Props, Value, ValueKind};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::error::{DataError, DataErrors, ErrorKind, line_col, nearest};
use crate::hash::DataHash;
use crate::schema::{Entry, Schema};

/// The fields of a `[proto.NAME]` or `[tile.NAME]` table that are not properties.
pub const RESERVED: [&str; 5] = ["parent", "copy-from", "extend", "delete", "modifiers"];

/// The loaded data: the library, and its [`DataHash`] on demand.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The prototypes and tiles (unnamed: give it the game's [`LibraryId`] with
    /// [`Library::named`]).
    ///
    /// [`LibraryId`]: alembic::library::LibraryId
    pub library: Library,
}

impl Loaded {
    /// A hash of the loaded data that stays the same across builds and platforms
    /// ([`DataHash::of`] the library; computed on each call, Θ(size of the data)).
    #[must_use]
    pub fn hash(&self) -> DataHash {
        DataHash::of(&self.library)
    }
}

/// Reads sources in order, the base first, then each mod, into a new [`Library`].
///
/// ```
/// use alembic::Prop;
/// use alembic_data::{Loader, Schema};
/// const HPS: Prop<i32> = Prop::new("hps");
/// let schema = Schema::new().with_engine_keys().key(&HPS, "hit points at full health");
/// let base = r#"
/// [proto."base goblinoid"]
/// alembic.abstract = true
/// hps = 5
///
/// [proto.goblin]
/// parent = "base goblinoid"
/// hps = 8
/// "#;
/// let loaded = Loader::new(&schema).source("base.toml", base).load()?;
/// assert_eq!(loaded.library.create("goblin")?.get(&HPS), Ok(8));
///
/// let errors = Loader::new(&schema)
///     .source("base.toml", base)
///     .source("mod.toml", "[proto.goblin]\nextend = true\nhsp = 9\n")
///     .load()
///     .unwrap_err();
/// assert_eq!(
///     errors.to_string(),
///     "mod.toml:3:1: unknown key \"hsp\" in prototype \"goblin\"; did you mean \"hps\"?"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Loader<'s> {
    schema: &'s Schema,
    hooks: Option<BTreeSet<String>>,
    sources: Vec<(String, String)>,
}

/// A place in a source: its number and a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct At {
    src: usize,
    off: usize,
}

/// What the sources say about one prototype or tile so far.
#[derive(Clone, Debug)]
struct Decl {
    at: At,
    parent: Option<(String, At)>,
    fields: BTreeMap<String, (Value, At)>,
    /// Its own modifiers, each with its place (for the check of prototype names they set).
    mods: Vec<(Modifier, At)>,
}

impl Decl {
    fn new(at: At) -> Self {
        Decl {
            at,
            parent: None,
            fields: BTreeMap::new(),
            mods: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Proto,
    Tile,
}

impl Section {
    fn word(self) -> &'static str {
        match self {
            Section::Proto => "prototype",
            Section::Tile => "tile",
        }
    }
}

struct State<'l, 's> {
    loader: &'l Loader<'s>,
    errors: Vec<(At, DataErrorParts)>,
    protos: BTreeMap<String, Decl>,
    deleted: BTreeMap<String, At>,
    tiles: Vec<(String, Decl)>,
    tile_index: HashMap<String, usize>,
}

struct DataErrorParts {
    kind: ErrorKind,
    key: Option<String>,
    message: String,
    suggestion: Option<String>,
}

fn found(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("the text {:?}", s.as_ref()),
        DeValue::Integer(i) => format!("the integer {i}"),
        DeValue::Float(f) => format!("the number {f}"),
        DeValue::Boolean(b) => format!("{b}"),
        DeValue::Datetime(_) => "a date".into(),
        DeValue::Array(_) => "a list".into(),
        DeValue::Table(_) => "a table".into(),
    }
}

fn int(v: &DeValue<'_>) -> Option<i64> {
    match v {
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
        _ => None,
    }
}

fn rgb(v: &DeValue<'_>) -> Option<Rgb> {
    match v {
        DeValue::String(s) => {
            let h = s
                .strip_prefix('#')
                .filter(|h| h.len() == 6 && h.is_ascii())?;
            let c = |i: usize| u8::from_str_radix(h.get(i..i + 2)?, 16).ok();
            Some(Rgb::new(c(0)?, c(2)?, c(4)?))
        }
        DeValue::Array(a) if a.len() == 3 => {
            let c = |i: usize| u8::try_from(int(a.get(i)?.get_ref())?).ok();
            Some(Rgb::new(c(0)?, c(1)?, c(2)?))
        }
        _ => None,
    }
}

/// A value of any kind, for lists: integers, numbers, texts, flags and lists of them.
fn untyped(v: &DeValue<'_>) -> Option<Value> {
    Some(match v {
        DeValue::String(s) => Value::Text(Arc::from(s.as_ref())),
        DeValue::Integer(_) => Value::Int(int(v)?),
        DeValue::Float(f) => Value::Float(f.as_str().replace('_', "").parse().ok()?),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Array(a) => Value::List(
            a.iter()
                .map(|x| untyped(x.get_ref()))
                .collect::<Option<Vec<_>>>()?
                .into(),
        ),
        DeValue::Datetime(_) | DeValue::Table(_) => return None,
    })
}

/// How data writes a value of `kind`, for "wrong type" messages.
fn how(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Bool => "true or false",
        ValueKind::Int => "a whole number",
        ValueKind::Float => "a number",
        ValueKind::Char => "a text of one character, e.g. \"g\"",
        ValueKind::Text => "a text in quotes",
        ValueKind::Rgb => "\"#RRGGBB\" or [r, g, b]",
        ValueKind::Hook => "a hook name in quotes",
        ValueKind::List => "a list [ … ]",
        _ => "nothing: data cannot write this kind",
    }
}

impl<'s> Loader<'s> {
    /// A loader checking fields against `schema`, with no sources yet.
    #[must_use]
    pub fn new(schema: &'s Schema) -> Self {
        Loader {
            schema,
            hooks: None,
            sources: Vec::new(),
        }
    }

    /// The registered hook names (e.g. [`Hooks::names`](alembic::Hooks::names)): a hook
    /// value naming another is an error. Without this call, hook names are not checked.
    #[must_use]
    pub fn hooks<'a>(mut self, names: impl IntoIterator<Item = &'a str>) -> Self {
        self.hooks = Some(names.into_iter().map(str::to_string).collect());
        self
    }

    /// Add a source after those already added: `name` is what errors call it (a path).
    #[must_use]
    pub fn source(mut self, name: &str, text: &str) -> Self {
        self.sources.push((name.to_string(), text.to_string()));
        self
    }

    /// Read every source, in order, into a new library; or every error of every source.
    /// Never panics; on an error nothing is returned but the errors.
    ///
    /// # Errors
    /// [`DataErrors`]: every mistake found, with its place.
    pub fn load(&self) -> Result<Loaded, DataErrors> {
        let mut st = State {
            loader: self,
            errors: Vec::new(),
            protos: BTreeMap::new(),
            deleted: BTreeMap::new(),
            tiles: Vec::new(),
            tile_index: HashMap::new(),
        };
        for (src, (_, text)) in self.sources.iter().enumerate() {
            st.read_source(src, text);
        }
        let library = st.build();
        let mut errors = st.errors;
        if !errors.is_empty() {
            errors.sort_by_key(|(at, _)| *at);
            return Err(DataErrors(
                errors
                    .into_iter()
                    .map(|(at, p)| self.error_at(at, p))
                    .collect(),
            ));
        }
        Ok(Loaded { library })
    }

    fn error_at(&self, at: At, p: DataErrorParts) -> DataError {
        let (file, text) = self
            .sources
            .get(at.src)
            .map_or(("", ""), |(f, t)| (f.as_str(), t.as_str()));
        let (line, column) = line_col(text, at.off);
        DataError {
            file: file.to_string(),
            line,
            column,
            offset: at.off,
            kind: p.kind,
            key: p.key,
            message: p.message,
            suggestion: p.suggestion,
        }
    }

    fn place(&self, at: At) -> String {
        let (file, text) = self
            .sources
            .get(at.src)
            .map_or(("", ""), |(f, t)| (f.as_str(), t.as_str()));
        let (line, column) = line_col(text, at.off);
        format!("{file}:{line}:{column}")
    }
}

impl State<'_, '_> {
    fn err(
        &mut self,
        at: At,
        kind: ErrorKind,
        key: Option<&str>,
        message: String,
        suggestion: Option<String>,
    ) {
        self.errors.push((
            at,
            DataErrorParts {
                kind,
                key: key.map(str::to_string),
                message,
                suggestion,
            },
        ));
    }

    fn read_source(&mut self, src: usize, text: &str) {
        let (root, syntax) = DeTable::parse_recoverable(text);
        let mut only_duplicates = true;
        // A table defined twice: its keys are duplicates too, up to the next table.
        let mut repeated_table = 0..0;
        for e in &syntax {
            let span = e.span().unwrap_or(0..0);
            let at = At {
                src,
                off: span.start,
            };
            let msg = e.message().trim();
            if msg.starts_with("duplicate key") {
                if repeated_table.contains(&span.start) {
                    continue;
                }
                let line_start = text
                    .get(..span.start)
                    .and_then(|t| t.rfind('\n'))
                    .map_or(0, |i| i + 1);
                if text
                    .get(line_start..)
                    .is_some_and(|l| l.trim_start().starts_with('['))
                {
                    let rest = text.get(span.end..).unwrap_or("");
                    let end = rest.find("\n[").map_or(text.len(), |i| span.end + i);
                    repeated_table = span.end..end;
                }
                let name = text
                    .get(span)
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['[', ']', '"', '\'']);
                let msg = format!(
                    "duplicate key {name:?}: a name is defined once per file (a later file \
                     changes an earlier one's entry with `extend = true`)"
                );
                self.err(at, ErrorKind::Duplicate, Some(name), msg, None);
            } else {
                only_duplicates = false;
                self.err(at, ErrorKind::Syntax, None, msg.to_string(), None);
            }
        }
        if !only_duplicates {
            // What follows a syntax error is guesswork: report the syntax, check nothing else.
            return;
        }
        for (section, body) in root.get_ref().iter() {
            let at = At {
                src,
                off: section.span().start,
            };
            let name = section.get_ref().as_ref();
            let kind = match name {
                "proto" => Section::Proto,
                "tile" => Section::Tile,
                _ => {
                    let s = nearest(name, ["proto", "tile"]);
                    self.err(
                        at,
                        ErrorKind::Invalid,
                        Some(name),
                        format!(
                            "unknown section {name:?}: a file holds [proto.NAME] and \
                             [tile.NAME] tables"
                        ),
                        s,
                    );
                    continue;
                }
            };
            let DeValue::Table(entries) = body.get_ref() else {
                self.err(
                    at,
                    ErrorKind::Invalid,
                    Some(name),
                    format!("{name:?} must be a table of named tables, as in [{name}.NAME]"),
                    None,
                );
                continue;
            };
            for (entry, body) in entries.iter() {
                let at = At {
                    src,
                    off: entry.span().start,
                };
                let ename = entry.get_ref().as_ref();
                match body.get_ref() {
                    DeValue::Table(t) => self.read_entry(kind, ename, at, t, src),
                    _ => self.err(
                        at,
                        ErrorKind::Invalid,
                        Some(ename),
                        format!(
                            "{} {ename:?} must be a table, as in [{name}.{ename:?}]",
                            kind.word()
                        ),
                        None,
                    ),
                }
            }
        }
    }

    fn exists(&self, kind: Section, name: &str) -> Option<At> {
        match kind {
            Section::Proto => self.protos.get(name).map(|d| d.at),
            Section::Tile => self
                .tile_index
                .get(name)
                .and_then(|i| self.tiles.get(*i))
                .map(|(_, d)| d.at),
        }
    }

    fn names(&self, kind: Section) -> Vec<&str> {
        match kind {
            Section::Proto => self.protos.keys().map(String::as_str).collect(),
            Section::Tile => self.tiles.iter().map(|(n, _)| n.as_str()).collect(),
        }
    }

    fn unknown(&mut self, kind: Section, name: &str, at: At, what: &str) {
        let s = nearest(name, self.names(kind));
        let gone = match (kind, self.deleted.get(name)) {
            (Section::Proto, Some(d)) => format!(" (deleted at {})", self.loader.place(*d)),
            _ => String::new(),
        };
        self.err(
            at,
            ErrorKind::UnknownPrototype,
            Some(name),
            format!(
                "{what} names {} {name:?}, which is not defined above this point{gone}",
                kind.word()
            ),
            s,
        );
    }

    fn text_field<'a>(
        &mut self,
        t: &'a DeTable<'_>,
        field: &str,
        src: usize,
    ) -> Option<(&'a str, At)> {
        // At the value: the name given is what is wrong when anything is.
        let (_, v) = t.get_key_value(field)?;
        let at = At {
            src,
            off: v.span().start,
        };
        match v.get_ref() {
            DeValue::String(s) => Some((s.as_ref(), at)),
            other => {
                let msg = format!("{field:?} takes a name in quotes, not {}", found(other));
                self.err(at, ErrorKind::WrongType, Some(field), msg, None);
                None
            }
        }
    }

    fn flag_field(&mut self, t: &DeTable<'_>, field: &str, src: usize) -> bool {
        let Some((k, v)) = t.get_key_value(field) else {
            return false;
        };
        match v.get_ref() {
            DeValue::Boolean(b) => *b,
            other => {
                let at = At {
                    src,
                    off: k.span().start,
                };
                let msg = format!("{field:?} takes true or false, not {}", found(other));
                self.err(at, ErrorKind::WrongType, Some(field), msg, None);
                false
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn read_entry(&mut self, kind: Section, name: &str, at: At, t: &DeTable<'_>, src: usize) {
        let word = kind.word();
        let delete = self.flag_field(t, "delete", src);
        let extend = self.flag_field(t, "extend", src);
        let copy = self.text_field(t, "copy-from", src);
        let mut decl = if delete {
            if kind == Section::Tile {
                let msg = format!(
                    "tile {name:?} cannot be deleted: maps refer to tiles by number; \
                     change it with `extend = true` instead"
                );
                self.err(at, ErrorKind::Invalid, Some(name), msg, None);
                return;
            }
            if let Some(extra) = t.iter().find(|(k, _)| k.get_ref().as_ref() != "delete") {
                let key = extra.0.get_ref().as_ref().to_string();
                let msg =
                    format!("a `delete = true` table says nothing else, but this one sets {key:?}");
                let eat = At {
                    src,
                    off: extra.0.span().start,
                };
                self.err(eat, ErrorKind::Invalid, Some(&key), msg, None);
                return;
            }
            if self.protos.remove(name).is_some() {
                self.deleted.insert(name.to_string(), at);
            } else {
                self.unknown(kind, name, at, "`delete`");
            }
            return;
        } else if extend {
            if let Some((_, cat)) = copy {
                let msg = "a table cannot both `extend` and `copy-from`".to_string();
                self.err(cat, ErrorKind::Invalid, Some("copy-from"), msg, None);
            }
            let existing = match kind {
                Section::Proto => self.protos.get(name).cloned(),
                Section::Tile => self
                    .tile_index
                    .get(name)
                    .and_then(|i| self.tiles.get(*i))
                    .map(|(_, d)| d.clone()),
            };
            match existing {
                Some(d) => d,
                None => {
                    self.unknown(kind, name, at, "`extend`");
                    return;
                }
            }
        } else {
            if let Some(first) = self.exists(kind, name) {
                let msg = format!(
                    "{word} {name:?} is already defined at {}; to change some of its \
                     fields, add `extend = true`",
                    self.loader.place(first)
                );
                self.err(at, ErrorKind::Duplicate, Some(name), msg, None);
                return;
            }
            match copy {
                Some((from, cat)) => {
                    let original = match kind {
                        Section::Proto => self.protos.get(from).cloned(),
                        Section::Tile => self
                            .tile_index
                            .get(from)
                            .and_then(|i| self.tiles.get(*i))
                            .map(|(_, d)| d.clone()),
                    };
                    match original {
                        Some(mut d) => {
                            d.at = at;
                            d.fields.remove(ABSTRACT.name());
                            d
                        }
                        None => {
                            self.unknown(kind, from, cat, "`copy-from`");
                            Decl::new(at)
                        }
                    }
                }
                None => Decl::new(at),
            }
        };
        if let Some((parent, pat)) = self.text_field(t, "parent", src) {
            if kind == Section::Tile {
                let msg = "tiles have no parent: use `copy-from` to start from another tile";
                self.err(pat, ErrorKind::Invalid, Some("parent"), msg.into(), None);
            } else {
                decl.parent = Some((parent.to_string(), pat));
            }
        }
        for (k, v) in t.iter() {
            let key = k.get_ref().as_ref();
            let kat = At {
                src,
                off: k.span().start,
            };
            match key {
                "parent" | "copy-from" | "extend" | "delete" => {}
                "modifiers" if kind == Section::Proto => {
                    decl.mods = self.modifiers(v, kat, src);
                }
                _ => self.field(kind, name, key, v, kat, &mut decl),
            }
        }
        match kind {
            Section::Proto => {
                self.protos.insert(name.to_string(), decl);
            }
            Section::Tile => match self.tile_index.get(name) {
                Some(i) => {
                    if let Some(slot) = self.tiles.get_mut(*i) {
                        slot.1 = decl;
                    }
                }
                None => {
                    self.tile_index.insert(name.to_string(), self.tiles.len());
                    self.tiles.push((name.to_string(), decl));
                }
            },
        }
    }

    /// One property field (a dotted key's parts arrive as nested tables: flattened here).
    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        kind: Section,
        owner: &str,
        key: &str,
        v: &Spanned<DeValue<'_>>,
        at: At,
        decl: &mut Decl,
    ) {
        let schema = self.loader.schema;
        let Some(entry) = schema.keys.get(key) else {
            if let DeValue::Table(inner) = v.get_ref() {
                let prefix = format!("{key}.");
                if !inner.is_empty() && schema.keys.keys().any(|k| k.starts_with(&prefix)) {
                    for (k2, v2) in inner.iter() {
                        let full = format!("{prefix}{}", k2.get_ref().as_ref());
                        // At the start of the whole dotted key (`alembic.level`).
                        self.field(kind, owner, &full, v2, at, decl);
                    }
                    return;
                }
            }
            let candidates = schema
                .keys
                .keys()
                .map(String::as_str)
                .chain(RESERVED.iter().copied());
            // A near key, or a namespaced key whose last part is near (`speeed` is
            // `alembic.speed`).
            let s = nearest(key, candidates.clone()).or_else(|| {
                fn last(c: &str) -> Option<&str> {
                    c.rsplit_once('.').map(|(_, l)| l)
                }
                let near = nearest(key, candidates.clone().filter_map(last))?;
                candidates
                    .clone()
                    .find(|c| last(c) == Some(near.as_str()))
                    .map(str::to_owned)
            });
            let msg = format!("unknown key {key:?} in {} {owner:?}", kind.word());
            self.err(at, ErrorKind::UnknownKey, Some(key), msg, s);
            return;
        };
        // A wrong value is pointed at where the value is, not its key.
        let vat = At {
            src: at.src,
            off: v.span().start,
        };
        if let Some(value) = self.value(entry, key, v.get_ref(), vat) {
            decl.fields.insert(key.to_string(), (value, vat));
        }
    }

    /// A field's value, checked against its key; `None` after reporting why not.
    fn value(&mut self, entry: &Entry, key: &str, v: &DeValue<'_>, at: At) -> Option<Value> {
        let info = &entry.info;
        let value = match (info.kind, v) {
            (ValueKind::Bool, DeValue::Boolean(b)) => Some(Value::Bool(*b)),
            (ValueKind::Int, DeValue::Integer(_)) => int(v).map(Value::Int),
            (ValueKind::Float, DeValue::Float(_) | DeValue::Integer(_)) => match untyped(v) {
                Some(Value::Int(i)) => Some(Value::Float(i as f64)),
                other => other,
            },
            (ValueKind::Char, DeValue::String(s)) => {
                let mut cs = s.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => Some(Value::Char(c)),
                    _ => None,
                }
            }
            (ValueKind::Text, DeValue::String(s)) => {
                let text = s.as_ref();
                if let Some(choices) = &info.choices
                    && !choices.iter().any(|c| c == text)
                {
                    let list: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
                    let sug = nearest(text, choices.iter().map(String::as_str));
                    let msg = format!("{key:?} takes one of {}; found {text:?}", list.join(", "));
                    self.err(at, ErrorKind::UnknownValue, Some(key), msg, sug);
                    return None;
                }
                Some(Value::Text(Arc::from(text)))
            }
            (ValueKind::Rgb, _) => rgb(v).map(Value::Rgb),
            (ValueKind::Hook, DeValue::String(s)) => {
                let name = s.as_ref();
                if let Some(known) = &self.loader.hooks
                    && !known.contains(name)
                {
                    let sug = nearest(name, known.iter().map(String::as_str));
                    let msg = format!("{key:?} names hook {name:?}, which is not registered");
                    self.err(at, ErrorKind::UnknownHook, Some(key), msg, sug);
                    return None;
                }
                Some(Value::Hook(Hook::new(name)))
            }
            (ValueKind::List, DeValue::Array(_)) => untyped(v),
            _ => None,
        };
        if let (Some(Value::Int(n)), Some((lo, hi))) = (&value, info.range)
            && !(lo..=hi).contains(n)
        {
            let msg = format!("{key:?} takes an integer from {lo} to {hi}; found {n}");
            self.err(at, ErrorKind::WrongType, Some(key), msg, None);
            return None;
        }
        match value {
            Some(value) if (entry.fits)(&value) => Some(value),
            _ => {
                let msg = format!(
                    "{key:?} takes {} ({}): write {}; found {}",
                    info.kind,
                    info.rust_type,
                    how(info.kind),
                    found(v)
                );
                self.err(at, ErrorKind::WrongType, Some(key), msg, None);
                None
            }
        }
    }

    /// `modifiers = [{ key = "attack", add = 2, priority = 0, while = "worn" }, …]`.
    fn modifiers(&mut self, v: &Spanned<DeValue<'_>>, at: At, src: usize) -> Vec<(Modifier, At)> {
        let DeValue::Array(items) = v.get_ref() else {
            let msg = format!(
                "\"modifiers\" takes a list of tables, as in [{{ key = \"attack\", add = 2 }}]; \
                 found {}",
                found(v.get_ref())
            );
            self.err(at, ErrorKind::WrongType, Some("modifiers"), msg, None);
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items.iter() {
            let iat = At {
                src,
                off: item.span().start,
            };
            let DeValue::Table(t) = item.get_ref() else {
                let msg = format!(
                    "a modifier is a table {{ key = …, add = … }}, not {}",
                    found(item.get_ref())
                );
                self.err(iat, ErrorKind::WrongType, Some("modifiers"), msg, None);
                continue;
            };
            if let Some(m) = self.modifier(t, iat, src) {
                out.push((m, iat));
            }
        }
        out
    }

    fn modifier(&mut self, t: &DeTable<'_>, at: At, src: usize) -> Option<Modifier> {
        const FIELDS: [&str; 8] = [
            "key", "add", "scale", "at-least", "at-most", "set", "priority", "while",
        ];
        let schema = self.loader.schema;
        let mut ok = true;
        for (k, _) in t.iter() {
            let name = k.get_ref().as_ref();
            if !FIELDS.contains(&name) {
                let kat = At {
                    src,
                    off: k.span().start,
                };
                let s = nearest(name, FIELDS);
                let msg = format!("unknown modifier field {name:?}");
                self.err(kat, ErrorKind::UnknownKey, Some(name), msg, s);
                ok = false;
            }
        }
        let Some((key, kat)) = self.text_field(t, "key", src) else {
            if !t.contains_key("key") {
                let msg = "a modifier needs `key = \"…\"`, the property it changes".to_string();
                self.err(at, ErrorKind::Invalid, Some("modifiers"), msg, None);
            }
            return None;
        };
        let Some(entry) = schema.keys.get(key) else {
            let s = nearest(key, schema.keys.keys().map(String::as_str));
            let msg = format!("modifier of unknown key {key:?}");
            self.err(kat, ErrorKind::UnknownKey, Some(key), msg, s);
            return None;
        };
        let ops: Vec<_> = t
            .iter()
            .filter(|(k, _)| {
                ["add", "scale", "at-least", "at-most", "set"].contains(&k.get_ref().as_ref())
            })
            .collect();
        let [(opk, opv)] = ops[..] else {
            let msg = format!(
                "a modifier of {key:?} needs exactly one of add, scale, at-least, at-most, set; \
                 it has {}",
                ops.len()
            );
            self.err(at, ErrorKind::Invalid, Some(key), msg, None);
            return None;
        };
        let opat = At {
            src,
            off: opk.span().start,
        };
        let opname = opk.get_ref().as_ref();
        let whole = |v: &DeValue<'_>| int(v);
        let op = match opname {
            "add" => whole(opv.get_ref()).map(ModOp::Add),
            "at-least" => whole(opv.get_ref()).map(ModOp::AtLeast),
            "at-most" => whole(opv.get_ref()).map(ModOp::AtMost),
            "scale" => match opv.get_ref() {
                DeValue::Array(a) if a.len() == 2 => {
                    let n = a.first().and_then(|x| int(x.get_ref()));
                    let d = a.get(1).and_then(|x| int(x.get_ref()));
                    n.zip(d).map(|(num, den)| ModOp::Scale { num, den })
                }
                _ => None,
            },
            _ => {
                let v = self.value(entry, key, opv.get_ref(), opat)?;
                Some(ModOp::Set(v))
            }
        };
        // A key the game bounds: one modifier may not carry an in-range value far out of
        // it (past what the game's integer type holds, and no game could be played).
        if let (Some(op), Some((lo, hi))) = (&op, entry.info.range)
            && let Some(why) = modifier_out_of_range(op, lo, hi)
        {
            let msg = format!("a modifier of {key:?} (an integer from {lo} to {hi}) {why}");
            self.err(opat, ErrorKind::WrongType, Some(key), msg, None);
            return None;
        }
        let Some(op) = op else {
            let want = if opname == "scale" {
                "[numerator, denominator]"
            } else {
                "a whole number"
            };
            let msg = format!("{opname:?} takes {want}; found {}", found(opv.get_ref()));
            self.err(opat, ErrorKind::WrongType, Some(opname), msg, None);
            return None;
        };
        let mut m = Modifier::raw(&entry.key, op);
        if let Some((pk, pv)) = t.get_key_value("priority") {
            match int(pv.get_ref()).and_then(|p| i32::try_from(p).ok()) {
                Some(p) => m = m.priority(p),
                None => {
                    let pat = At {
                        src,
                        off: pk.span().start,
                    };
                    let msg = format!(
                        "\"priority\" takes a whole number; found {}",
                        found(pv.get_ref())
                    );
                    self.err(pat, ErrorKind::WrongType, Some("priority"), msg, None);
                    ok = false;
                }
            }
        }
        if let Some((flag, fat)) = self.text_field(t, "while", src) {
            match schema.keys.get(flag) {
                Some(e) if e.info.kind == ValueKind::Bool => {
                    m.while_flag = Some(PropKey::new(flag));
                }
                Some(_) => {
                    let msg = format!("\"while\" names {flag:?}, which is not a flag");
                    self.err(fat, ErrorKind::WrongType, Some(flag), msg, None);
                    ok = false;
                }
                None => {
                    let s = nearest(flag, schema.keys.keys().map(String::as_str));
                    let msg = format!("\"while\" names unknown key {flag:?}");
                    self.err(fat, ErrorKind::UnknownKey, Some(flag), msg, s);
                    ok = false;
                }
            }
        }
        ok.then_some(m)
    }

    /// Check the references between entries and proclaim every prototype, parents first.
    fn build(&mut self) -> Library {
        let mut lib = Library::new();
        let tiles = std::mem::take(&mut self.tiles);
        for (name, decl) in &tiles {
            let props = self.props(decl);
            if let Err(e) = lib.define_tile_mut(name, props) {
                self.err(decl.at, ErrorKind::Invalid, Some(name), e.to_string(), None);
            }
        }
        let protos = std::mem::take(&mut self.protos);
        // Keys that name prototypes, as fields and as what modifiers set.
        for decl in protos.values().chain(tiles.iter().map(|(_, d)| d)) {
            let sets = decl.mods.iter().filter_map(|(m, at)| match &m.op {
                ModOp::Set(v) => Some((m.key.name(), v, at)),
                _ => None,
            });
            let fields = decl.fields.iter().map(|(k, (v, at))| (k.as_str(), v, at));
            for (key, value, at) in fields.chain(sets) {
                let names = self
                    .loader
                    .schema
                    .keys
                    .get(key)
                    .is_some_and(|e| e.info.names_prototype);
                if let (true, Value::Text(target)) = (names, value)
                    && !protos.contains_key(&**target)
                {
                    let s = nearest(target, protos.keys().map(String::as_str));
                    let msg =
                        format!("{key:?} names prototype {target:?}, which no source defines");
                    self.err(*at, ErrorKind::UnknownPrototype, Some(key), msg, s);
                }
            }
        }
        // 0 = not yet, 1 = on the current path, 2 = done (proclaimed or failed).
        let mut state: HashMap<&str, u8> = HashMap::new();
        for name in protos.keys() {
            let mut path = Vec::new();
            self.proclaim(name, &protos, &mut state, &mut path, &mut lib);
        }
        self.protos = protos;
        self.tiles = tiles;
        lib
    }

    /// Proclaim `name` after its parent; false when it (or an ancestor) cannot be.
    fn proclaim<'p>(
        &mut self,
        name: &'p str,
        protos: &'p BTreeMap<String, Decl>,
        state: &mut HashMap<&'p str, u8>,
        path: &mut Vec<&'p str>,
        lib: &mut Library,
    ) -> bool {
        match state.get(name) {
            Some(2) => return lib.contains(name),
            Some(1) => {
                let from = path.iter().position(|p| *p == name).unwrap_or(0);
                let mut circle: Vec<&str> = path.get(from..).unwrap_or_default().to_vec();
                circle.push(name);
                let at = protos
                    .get(name)
                    .and_then(|d| d.parent.as_ref().map(|p| p.1))
                    .unwrap_or(At { src: 0, off: 0 });
                let msg = format!(
                    "prototype {name:?} derives from itself: {}",
                    circle
                        .iter()
                        .map(|n| format!("{n:?}"))
                        .collect::<Vec<_>>()
                        .join(" → ")
                );
                self.err(at, ErrorKind::Cycle, Some(name), msg, None);
                return false;
            }
            _ => {}
        }
        let Some(decl) = protos.get(name) else {
            return false;
        };
        state.insert(name, 1);
        path.push(name);
        let mut ok = true;
        if let Some((parent, pat)) = &decl.parent {
            if protos.contains_key(parent.as_str()) {
                let p: &'p str = protos
                    .get_key_value(parent.as_str())
                    .map_or("", |(k, _)| k.as_str());
                ok = self.proclaim(p, protos, state, path, lib);
            } else {
                let s = nearest(parent, protos.keys().map(String::as_str));
                let gone = self
                    .deleted
                    .get(parent.as_str())
                    .map_or(String::new(), |d| {
                        format!(", deleted at {}", self.loader.place(*d))
                    });
                let msg = format!(
                    "prototype {name:?} derives from {parent:?}, which no source defines{gone}"
                );
                self.err(*pat, ErrorKind::UnknownParent, Some(parent), msg, s);
                ok = false;
            }
        }
        path.pop();
        state.insert(name, 2);
        if !ok {
            return false;
        }
        let props = self.props(decl);
        let parent = decl.parent.as_ref().map(|p| p.0.as_str());
        if let Err(e) = lib.proclaim_mut(name, parent, props) {
            self.err(decl.at, ErrorKind::Invalid, Some(name), e.to_string(), None);
            return false;
        }
        true
    }

    fn props(&self, decl: &Decl) -> Props {
        let mut props = Props::new();
        for (key, (value, _)) in &decl.fields {
            if let Some(e) = self.loader.schema.keys.get(key) {
                props = props.with_raw(&e.key, value.clone());
            }
        }
        for (m, _) in &decl.mods {
            props = props.modifier(m.clone());
        }
        props
    }
}

/// Why `op` is refused on a key bounded to `lo..=hi`: an `add` larger than the range's
/// width, an `at-least` or `at-most` outside it, or a `scale` of more than
/// [`MAX_RANGED_SCALE`] times (or a zero denominator). `None` when it is fine.
fn modifier_out_of_range(op: &ModOp, lo: i64, hi: i64) -> Option<String> {
    let width = hi.saturating_sub(lo);
    match op {
        ModOp::Add(n) if n.unsigned_abs() > width.unsigned_abs() => {
            Some(format!("adds {n}: at most {width} either way"))
        }
        ModOp::AtLeast(n) | ModOp::AtMost(n) if !(lo..=hi).contains(n) => {
            Some(format!("bounds it at {n}, outside {lo} to {hi}"))
        }
        ModOp::Scale { den: 0, .. } => Some("scales it by a zero denominator".to_owned()),
        ModOp::Scale { num, den }
            if num.unsigned_abs() > den.unsigned_abs().saturating_mul(MAX_RANGED_SCALE) =>
        {
            Some(format!(
                "scales it by {num}/{den}: at most {MAX_RANGED_SCALE} times"
            ))
        }
        _ => None,
    }
}

/// The largest factor a `scale` modifier of a bounded key may have (see
/// [`crate::Schema::int_range`]): a million hit points scaled by it still fit an `i32`.
pub const MAX_RANGED_SCALE: u64 = 1_000;
