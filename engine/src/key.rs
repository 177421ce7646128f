//! Property keys and the kinds of value: the names the engine's errors speak of, kept at the
//! bottom of the crate (they name nothing of it) and re-exported from
//! [`props`](crate::props).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The kinds of [`Value`](crate::props::Value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ValueKind {
    Bool,
    Int,
    Float,
    Char,
    Text,
    Loc,
    Thing,
    Rgb,
    Hook,
    List,
}

/// English with its article: "an integer", "a list".
impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueKind::Bool => "a flag (true/false)",
            ValueKind::Int => "an integer",
            ValueKind::Float => "a decimal number",
            ValueKind::Char => "a character",
            ValueKind::Text => "a text",
            ValueKind::Loc => "a location",
            ValueKind::Thing => "a thing reference",
            ValueKind::Rgb => "a colour",
            ValueKind::Hook => "a hook name",
            ValueKind::List => "a list",
        })
    }
}

/// 64-bit FNV-1a of a property name, computed at compile time for constant keys.
const fn name_hash(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

#[derive(Clone)]
pub(crate) enum KeyName {
    Static(&'static str),
    Shared(Arc<str>),
}

/// An untyped property name, as stored in things and prototypes.
///
/// A key is its name and its integer id ([`PropKey::id`]): the name's 64-bit FNV-1a hash,
/// computed once when the key is made (at compile time for a `const` key), so interning
/// needs no registry and no global state, and the id is the same in every game, process and
/// save. Tables, overrides and modifier views are searched by id alone: one integer compare,
/// no name compare. Two names with one id would be read as one key, so
/// [`Game::check_invariants`](crate::Game::check_invariants) refuses a game whose names
/// (library, things, modifiers, game variables) share an id, and debug builds check the name
/// on every hit. Keys still compare, order, hash and save by name (ordered by id first), so
/// saves and state hashes are unchanged. Clone Θ(1).
#[derive(Clone)]
pub struct PropKey {
    pub(crate) hash: u64,
    pub(crate) name: KeyName,
}

impl PropKey {
    /// A key from a static name (no allocation).
    #[must_use]
    pub const fn from_static(name: &'static str) -> Self {
        PropKey {
            hash: name_hash(name),
            name: KeyName::Static(name),
        }
    }

    /// A key from any name (data-defined properties).
    #[must_use]
    pub fn new(name: &str) -> Self {
        PropKey {
            hash: name_hash(name),
            name: KeyName::Shared(Arc::from(name)),
        }
    }

    /// The property's name.
    #[must_use]
    pub fn name(&self) -> &str {
        match &self.name {
            KeyName::Static(s) => s,
            KeyName::Shared(s) => s,
        }
    }

    /// The key's integer id: the 64-bit FNV-1a hash of its name. Θ(1) (computed when the
    /// key was made). Lookups compare ids only (see the type's documentation).
    #[must_use]
    #[inline]
    pub const fn id(&self) -> u64 {
        self.hash
    }
}

impl PropKey {
    /// Whether both keys have the same name (the same static string is recognised without
    /// comparing bytes).
    #[inline]
    pub(crate) fn same_name(&self, o: &Self) -> bool {
        let (a, b) = (self.name().as_bytes(), o.name().as_bytes());
        if std::ptr::eq(a, b) {
            return true;
        }
        if a.len() != b.len() {
            return false;
        }
        // Property names are short: compare them here rather than through a `memcmp` call
        // (a query compares a name for each modifier it applies).
        if a.len() <= 16 {
            return a.iter().zip(b).all(|(x, y)| x == y);
        }
        a == b
    }
}

impl PartialEq for PropKey {
    #[inline]
    fn eq(&self, o: &Self) -> bool {
        self.hash == o.hash && self.same_name(o)
    }
}
impl Eq for PropKey {}
impl Ord for PropKey {
    fn cmp(&self, o: &Self) -> Ordering {
        self.hash
            .cmp(&o.hash)
            .then_with(|| self.name().cmp(o.name()))
    }
}
impl PartialOrd for PropKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Hash for PropKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}
impl fmt::Debug for PropKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name())
    }
}
impl fmt::Display for PropKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl Serialize for PropKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
impl<'de> Deserialize<'de> for PropKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(PropKey::new(&s))
    }
}
