//! What a game's data may say: its property keys, each with a type and a line of
//! documentation.

use std::collections::BTreeMap;
use std::fmt;

use alembic::props::{PropKey, PropType, Value, ValueKind};
use alembic::{Prop, Rgb};
use serde::Serialize;

/// One declared key: what [`Schema::keys`] lists and `alembic-sim --list-keys` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyInfo {
    /// The key's name as stored in things and written in data (`"max_hp"`, `"alembic.level"`).
    pub name: String,
    /// The kind of value data writes for it.
    #[serde(serialize_with = "kind_name")]
    pub kind: ValueKind,
    /// The Rust type the game reads it as (`"i32"`): integers out of its range are refused.
    pub rust_type: &'static str,
    /// The game's line of documentation.
    pub doc: String,
    /// Its default, as data would write it, when the key has one.
    pub default: Option<String>,
    /// Whether the value names a prototype (checked once every source is loaded).
    pub names_prototype: bool,
    /// The only texts the key takes, when it names one of a fixed set (a damage type, a
    /// slot: see [`Schema::one_of`]); `None` for any value of its kind.
    pub choices: Option<Vec<String>>,
    /// The smallest and largest integer the key takes, when the game bounds it more than its
    /// Rust type does ([`Schema::int_range`]).
    pub range: Option<(i64, i64)>,
}

fn kind_name<S: serde::Serializer>(k: &ValueKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&k.to_string())
}

/// A declared key with the check of its Rust type's range.
#[derive(Clone)]
pub(crate) struct Entry {
    pub(crate) info: KeyInfo,
    pub(crate) key: PropKey,
    /// Whether a value of the right kind also fits the Rust type (an `i64` in an `i32`).
    pub(crate) fits: fn(&Value) -> bool,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.info.fmt(f)
    }
}

fn fits<T: PropType>(v: &Value) -> bool {
    T::from_value(v).is_some()
}

/// A game's property keys: the loader refuses any field the schema does not declare, and
/// any value that is not of the key's type.
///
/// ```
/// use alembic::Prop;
/// use alembic_data::Schema;
/// const HPS: Prop<i32> = Prop::new("hps");
/// const HOSTILE: Prop<bool> = Prop::with_default("hostile", false);
/// let schema = Schema::new()
///     .key(&HPS, "hit points at full health")
///     .key(&HOSTILE, "hunts the player");
/// let hps = schema.get("hps").unwrap();
/// assert_eq!((hps.rust_type, hps.doc.as_str()), ("i32", "hit points at full health"));
/// assert_eq!(schema.get("hostile").unwrap().default.as_deref(), Some("false"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub(crate) keys: BTreeMap<String, Entry>,
}

impl Schema {
    /// A schema with no keys.
    #[must_use]
    pub fn new() -> Self {
        Schema::default()
    }

    /// The engine's own keys every game may set: `alembic.level`, `alembic.freq`,
    /// `alembic.abstract`, `alembic.speed`, `alembic.acts` and `alembic.on_action`.
    #[must_use]
    pub fn with_engine_keys(self) -> Self {
        use alembic::{hook, library, schedule};
        self.key(
            &library::LEVEL,
            "level of the prototype, for random creation windows",
        )
        .key(
            &library::FREQ,
            "relative frequency in random creation (0 = never at random)",
        )
        .key(
            &library::ABSTRACT,
            "a parent to derive from, never created; not inherited",
        )
        .key(
            &schedule::SPEED,
            "energy gained per tick: 100 acts once per turn, 50 every other turn",
        )
        .key(&schedule::ACTS, "takes turns in the actor queue")
        .hook(
            &hook::ON_ACTION,
            "the hook that chooses its action each turn",
        )
    }

    /// Declare `key` with a line of documentation. A key declared again replaces the first.
    #[must_use]
    pub fn key<T: PropType>(mut self, key: &Prop<T>, doc: &str) -> Self {
        let default = key
            .default_value()
            .map(|d| display_value(&d.clone().into_value()));
        let rust_type = std::any::type_name::<T>();
        let rust_type = rust_type.rsplit("::").next().unwrap_or(rust_type);
        self.keys.insert(
            key.name().to_string(),
            Entry {
                info: KeyInfo {
                    name: key.name().to_string(),
                    kind: T::KIND,
                    rust_type,
                    doc: doc.to_string(),
                    default,
                    names_prototype: false,
                    choices: None,
                    range: None,
                },
                key: key.key().clone(),
                fits: fits::<T>,
            },
        );
        self
    }

    /// Declare a hook key (its values must be registered hook names when the loader is told
    /// them with [`Loader::hooks`](crate::Loader::hooks)).
    #[must_use]
    pub fn hook(self, key: &Prop<alembic::props::Hook>, doc: &str) -> Self {
        self.key(key, doc)
    }

    /// Declare a text key whose value is the name of a prototype: a name no source defines
    /// is an error.
    #[must_use]
    pub fn prototype_ref(mut self, key: &Prop<std::sync::Arc<str>>, doc: &str) -> Self {
        self = self.key(key, doc);
        if let Some(e) = self.keys.get_mut(key.name()) {
            e.info.names_prototype = true;
        }
        self
    }

    /// Declare a text key that takes one of a fixed set of names, such as a game's enum
    /// stored by name (a damage type, a wield slot): any other text is an error of kind
    /// [`ErrorKind::UnknownValue`](crate::ErrorKind::UnknownValue) that lists `names` and
    /// suggests the nearest, in properties and in modifiers that `set` the key.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use alembic::Prop;
    /// use alembic_data::{ErrorKind, Loader, Schema};
    /// const ELEMENT: Prop<Arc<str>> = Prop::new("element");
    /// let schema = Schema::new().one_of(&ELEMENT, "what it burns with", &["fire", "ice"]);
    /// let errors = Loader::new(&schema)
    ///     .source("m.toml", "[proto.imp]\nelement = \"fyre\"\n")
    ///     .load()
    ///     .unwrap_err();
    /// assert_eq!(errors.errors()[0].kind, ErrorKind::UnknownValue);
    /// assert_eq!(
    ///     errors.to_string(),
    ///     "m.toml:2:11: \"element\" takes one of \"fire\", \"ice\"; found \"fyre\"; did you mean \"fire\"?"
    /// );
    /// ```
    #[must_use]
    pub fn one_of<T: PropType>(mut self, key: &Prop<T>, doc: &str, names: &[&str]) -> Self {
        self = self.key(key, doc);
        if let Some(e) = self.keys.get_mut(key.name()) {
            e.info.choices = Some(names.iter().map(|n| (*n).to_string()).collect());
        }
        self
    }

    /// Declare an integer key that takes only `min..=max` (hit points a save can hold, say):
    /// a value outside is an error of kind [`ErrorKind::WrongType`](crate::ErrorKind::WrongType)
    /// at the value's place, in properties and in modifiers that `set` the key. Its other
    /// modifiers are bounded too: an `add` at most the range's width either way, `at-least`
    /// and `at-most` inside the range, a `scale` of at most
    /// [`MAX_RANGED_SCALE`](crate::MAX_RANGED_SCALE) times.
    ///
    /// ```
    /// use alembic::Prop;
    /// use alembic_data::{Loader, Schema};
    /// const HPS: Prop<i32> = Prop::new("hps");
    /// let schema = Schema::new().int_range(&HPS, "hit points", 1, 1_000_000);
    /// let errors = Loader::new(&schema)
    ///     .source("m.toml", "[proto.imp]\nhps = 2147483647\n")
    ///     .load()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     errors.to_string(),
    ///     "m.toml:2:7: \"hps\" takes an integer from 1 to 1000000; found 2147483647"
    /// );
    /// ```
    #[must_use]
    pub fn int_range<T: PropType>(mut self, key: &Prop<T>, doc: &str, min: i64, max: i64) -> Self {
        self = self.key(key, doc);
        if let Some(e) = self.keys.get_mut(key.name()) {
            e.info.range = Some((min, max));
        }
        self
    }

    /// The key called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&KeyInfo> {
        self.keys.get(name).map(|e| &e.info)
    }

    /// Every key, by name.
    pub fn keys(&self) -> impl Iterator<Item = &KeyInfo> {
        self.keys.values().map(|e| &e.info)
    }

    /// The schema as a table for people: one key a line, with its type, default and
    /// documentation (what `alembic-sim --list-keys` prints).
    #[must_use]
    pub fn describe(&self) -> String {
        let width = self.keys.keys().map(String::len).max().unwrap_or(0);
        let mut out = String::new();
        for k in self.keys() {
            let ty = format!("{} ({})", k.kind, k.rust_type);
            let default = k
                .default
                .as_deref()
                .map_or(String::new(), |d| format!(" [default {d}]"));
            let mut names = if k.names_prototype {
                " [names a prototype]".to_string()
            } else {
                String::new()
            };
            if let Some(c) = &k.choices {
                names.push_str(&format!(" [one of: {}]", c.join(", ")));
            }
            out.push_str(&format!(
                "{:width$}  {ty:32}  {}{default}{names}\n",
                k.name, k.doc
            ));
        }
        out
    }
}

/// A value as data writes it.
pub(crate) fn display_value(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Char(c) => format!("{:?}", c.to_string()),
        Value::Text(t) => format!("{t:?}"),
        Value::Rgb(Rgb { r, g, b }) => format!("\"#{r:02X}{g:02X}{b:02X}\""),
        Value::Hook(h) => format!("{:?}", h.name()),
        Value::List(l) => {
            let items: Vec<String> = l.iter().map(display_value).collect();
            format!("[{}]", items.join(", "))
        }
        other => format!("{other:?}"),
    }
}
