//! Properties: dynamic values read through typed keys (`Prop<T>`), and the modifiers a
//! carried thing applies to its holder.
//!
//! Costs: a `PropKey` carries its integer id (the name's 64-bit hash, computed when the key
//! is made), so finding a key is an integer compare, never a name compare; a `PropMap` is a
//! shared table (a prototype's: one allocation holding its keys in key order and its values
//! in slots found by id, Θ(1) expected: a header load and one slot load) plus the map's own
//! overrides (the first inline, more in one shared allocation; clone Θ(1), insert
//! Θ(overrides) copy-on-write). A [`Game::query`](crate::Game::query)
//! through modifiers reads the holder's derived view of its carriers' active modifiers:
//! Θ(keys modified + modifiers of the key), or Θ(1) for a run of additions.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use triomphe::ThinArc;

use crate::colour::Rgb;
use crate::error::Error;
use crate::id::ThingId;
pub use crate::key::{PropKey, ValueKind};
use crate::loc::Loc;

/// The name of a hook: a Rust function registered in a [`Hooks`](crate::Hooks) registry and
/// referenced from data by name, so game values stay plain, saveable data.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hook(pub Arc<str>);

impl Hook {
    /// A hook reference by name.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Hook(Arc::from(name))
    }

    /// The hook's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.0
    }
}

/// A dynamically typed property value. Data-defined things can carry any of these.
///
/// Equality compares floats by their bits, like [`Hash`], so every value equals itself
/// (NaN included) and a save/load round trip gives an equal value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Value {
    /// A flag.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number (hashed and compared by its bits, so runs stay comparable).
    /// Saved losslessly: JSON has no NaN or infinity, so those are written as their bits.
    Float(#[serde(with = "lossless_f64")] f64),
    /// One character, e.g. a glyph.
    Char(char),
    /// Text.
    Text(Arc<str>),
    /// A location.
    Loc(Loc),
    /// A reference to a thing.
    Thing(ThingId),
    /// A colour.
    Rgb(Rgb),
    /// A hook name.
    Hook(Hook),
    /// A list of values.
    List(Arc<[Value]>),
}

impl Value {
    /// The kind of this value, for error messages.
    #[must_use]
    pub fn kind(&self) -> ValueKind {
        match self {
            Value::Bool(_) => ValueKind::Bool,
            Value::Int(_) => ValueKind::Int,
            Value::Float(_) => ValueKind::Float,
            Value::Char(_) => ValueKind::Char,
            Value::Text(_) => ValueKind::Text,
            Value::Loc(_) => ValueKind::Loc,
            Value::Thing(_) => ValueKind::Thing,
            Value::Rgb(_) => ValueKind::Rgb,
            Value::Hook(_) => ValueKind::Hook,
            Value::List(_) => ValueKind::List,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Char(a), Value::Char(b)) => a == b,
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::Loc(a), Value::Loc(b)) => a == b,
            (Value::Thing(a), Value::Thing(b)) => a == b,
            (Value::Rgb(a), Value::Rgb(b)) => a == b,
            (Value::Hook(a), Value::Hook(b)) => a == b,
            (Value::List(a), Value::List(b)) => a == b,
            _ => false,
        }
    }
}

/// Floats that survive any serde format: finite numbers as numbers; in human-readable formats
/// (JSON, which has no NaN or infinity) a non-finite one as the text `"f64:<bits in hex>"`.
mod lossless_f64 {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    const PREFIX: &str = "f64:";

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's `with` passes a reference
    pub(super) fn serialize<S: Serializer>(f: &f64, s: S) -> Result<S::Ok, S::Error> {
        if f.is_finite() || !s.is_human_readable() {
            s.serialize_f64(*f)
        } else {
            s.serialize_str(&format!("{PREFIX}{:016x}", f.to_bits()))
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        if !d.is_human_readable() {
            return d.deserialize_f64(FloatVisitor);
        }
        d.deserialize_any(FloatVisitor)
    }

    struct FloatVisitor;

    impl Visitor<'_> for FloatVisitor {
        type Value = f64;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number, or \"f64:\" and 16 hex digits")
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }

        #[allow(clippy::cast_precision_loss)] // JSON writes whole floats as integers
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }

        #[allow(clippy::cast_precision_loss)]
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
            v.strip_prefix(PREFIX)
                .filter(|h| h.len() == 16)
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .map(f64::from_bits)
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Bool(b) => b.hash(state),
            Value::Int(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::Char(c) => c.hash(state),
            Value::Text(t) => t.hash(state),
            Value::Loc(l) => l.hash(state),
            Value::Thing(t) => t.hash(state),
            Value::Rgb(c) => c.hash(state),
            Value::Hook(h) => h.hash(state),
            Value::List(l) => l.hash(state),
        }
    }
}

/// A Rust type a property can have: converts to and from [`Value`].
pub trait PropType: Clone + Sized {
    /// The value kind this type is stored as.
    const KIND: ValueKind;
    /// Store.
    fn into_value(self) -> Value;
    /// Read back; `None` when the stored value has another kind or is out of range.
    fn from_value(v: &Value) -> Option<Self>;
}

macro_rules! int_prop {
    ($($t:ty),*) => {$(
        impl PropType for $t {
            const KIND: ValueKind = ValueKind::Int;
            #[inline]
            fn into_value(self) -> Value {
                Value::Int(i64::from(self))
            }
            #[inline]
            fn from_value(v: &Value) -> Option<Self> {
                match v {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
int_prop!(i64, i32, i16, u32, u16, u8);

macro_rules! simple_prop {
    ($t:ty, $variant:ident) => {
        impl PropType for $t {
            const KIND: ValueKind = ValueKind::$variant;
            fn into_value(self) -> Value {
                Value::$variant(self)
            }
            fn from_value(v: &Value) -> Option<Self> {
                match v {
                    Value::$variant(x) => Some(x.clone()),
                    _ => None,
                }
            }
        }
    };
}
simple_prop!(bool, Bool);
simple_prop!(f64, Float);
simple_prop!(char, Char);
simple_prop!(Arc<str>, Text);
simple_prop!(Loc, Loc);
simple_prop!(ThingId, Thing);
simple_prop!(Rgb, Rgb);
simple_prop!(Hook, Hook);
simple_prop!(Arc<[Value]>, List);

impl PropType for Value {
    const KIND: ValueKind = ValueKind::List; // unused: a raw Value accepts every kind
    fn into_value(self) -> Value {
        self
    }
    fn from_value(v: &Value) -> Option<Self> {
        Some(v.clone())
    }
}

/// A typed property key: the name plus the Rust type its value has, and an optional default.
///
/// Declare keys as constants; reading through them is type-checked at compile time, and a
/// stored value of another kind is reported as [`Error::WrongPropertyType`].
///
/// ```
/// use alembic::Prop;
/// pub const HPS: Prop<i32> = Prop::new("hps");
/// pub const SPEED: Prop<i32> = Prop::with_default("speed", 100);
/// assert_eq!(SPEED.default_value(), Some(&100));
/// ```
pub struct Prop<T> {
    key: PropKey,
    default: Option<T>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Prop<T> {
    /// A key with no default: reading a missing property is [`Error::MissingProperty`].
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        Prop {
            key: PropKey::from_static(name),
            default: None,
            _t: PhantomData,
        }
    }

    /// A key whose missing value reads as `default`.
    #[must_use]
    pub const fn with_default(name: &'static str, default: T) -> Self {
        Prop {
            key: PropKey::from_static(name),
            default: Some(default),
            _t: PhantomData,
        }
    }

    /// A key with no default from an untyped key, for properties whose names are known
    /// only at run time (data, debugging tools). `Prop::<Value>::from_key(k)` reads any
    /// property through [`Game::query`](crate::Game::query), modifiers applied.
    #[must_use]
    pub const fn from_key(key: PropKey) -> Self {
        Prop {
            key,
            default: None,
            _t: PhantomData,
        }
    }

    /// The untyped key.
    #[must_use]
    pub const fn key(&self) -> &PropKey {
        &self.key
    }

    /// The property's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.key.name()
    }

    /// The default, if any.
    #[must_use]
    pub const fn default_value(&self) -> Option<&T> {
        self.default.as_ref()
    }
}

impl<T: Clone> Clone for Prop<T> {
    fn clone(&self) -> Self {
        Prop {
            key: self.key.clone(),
            default: self.default.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Prop<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Prop({})", self.key.name())
    }
}

impl<T: PropType> Prop<T> {
    /// Convert a stored value, or report its kind.
    #[inline]
    pub(crate) fn decode(&self, v: &Value) -> Result<T, Error> {
        T::from_value(v).ok_or_else(|| Error::WrongPropertyType {
            key: self.key.clone(),
            expected: T::KIND,
            found: v.kind(),
            owner: crate::error::Owner::default(),
        })
    }

    /// The default, or [`Error::MissingProperty`].
    pub(crate) fn missing(&self) -> Result<T, Error> {
        self.default.clone().ok_or_else(|| Error::MissingProperty {
            key: self.key.clone(),
            owner: crate::error::Owner::default(),
        })
    }
}

/// The value slots of a [`Table`]: open addressing by key id, a power of two long and at
/// most half full; each occupied slot holds its key's id and the value.
type Slot = Option<(u64, Value)>;

/// What a [`Table`] keeps beside its slots: the keys in key order, each with its slot (for
/// iteration, equality, hashing and saves, which see key order; a lookup never reads them).
struct TableHead {
    keys: Box<[(PropKey, u32)]>,
}

/// A sorted, immutable table of properties, built once and shared: a prototype's table, or
/// the table a thing was made with.
///
/// One allocation behind a thin pointer: a header (the keys in key order, for iteration)
/// followed by the value slots, found by the key's integer id (its 64-bit name hash, see
/// [`PropKey::id`]). A lookup reads the slot count from the header, then one slot: one
/// integer compare, no name compare, and usually no second probe.
#[derive(Clone)]
pub(crate) struct Table(ThinArc<TableHead, Slot>);

/// A [`Table`] behind a fat pointer: the same allocation (one more reference to it), with
/// its slot count in the pointer as well as in the allocation. The index of plain tables
/// keeps these: a read of one probes its slot without first reading the count from the
/// allocation's header, so it touches one cache line of the table, not two (the header's
/// and the slot's). 16 bytes, against a `Table`'s 8; the thing records keep `Table`s.
#[derive(Clone)]
pub(crate) struct FatTable(
    triomphe::Arc<triomphe::HeaderSlice<triomphe::HeaderWithLength<TableHead>, [Slot]>>,
);

impl FatTable {
    /// The value stored under `key`: one probe of the slots by integer id.
    #[inline(always)]
    pub(crate) fn get(&self, key: &PropKey) -> Option<&Value> {
        let slots = &self.0.slice;
        let v = probe(slots, key.hash, slots.len().wrapping_sub(1));
        debug_assert!(
            v.is_none() || named(&self.0.header.header.keys, key),
            "{key} shares its id"
        );
        v
    }

    /// Whether this is `t`'s allocation.
    pub(crate) fn is(&self, t: &Table) -> bool {
        t.0.with_arc(|a| triomphe::Arc::ptr_eq(a, &self.0))
    }
}

/// Whether `keys` (a table's) hold `key`'s name under its id (debug checks).
fn named(keys: &[(PropKey, u32)], key: &PropKey) -> bool {
    keys.iter()
        .any(|(k, _)| k.hash == key.hash && k.same_name(key))
}

/// The slot a key id starts probing at, in a table of `mask + 1` slots.
#[inline]
fn slot_of(id: u64, mask: usize) -> usize {
    // Mix every bit of the name's hash into the slot's bits (Fibonacci hashing): FNV-1a
    // leaves names that differ in their last letter close together in the high bits.
    (id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
}

/// The value under key id `id` in `slots` (`mask + 1` of them, a power of two, or none).
#[inline(always)]
fn probe(slots: &[Slot], id: u64, mask: usize) -> Option<&Value> {
    let mut s = slot_of(id, mask);
    loop {
        let (at, v) = slots.get(s)?.as_ref()?;
        if *at == id {
            return Some(v);
        }
        s = (s + 1) & mask;
    }
}

impl Default for Table {
    fn default() -> Self {
        Table::from_sorted(Vec::new())
    }
}

impl Table {
    /// A table of entries already sorted by key, without duplicates.
    fn from_sorted(entries: Vec<(PropKey, Value)>) -> Table {
        let len = if entries.is_empty() {
            0
        } else {
            (entries.len() * 2).next_power_of_two()
        };
        let mask = len.wrapping_sub(1);
        let mut slots: Vec<Slot> = vec![None; len];
        let mut keys = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            let mut s = slot_of(k.hash, mask);
            while slots.get(s).is_some_and(Option::is_some) {
                s = (s + 1) & mask;
            }
            if let Some(slot) = slots.get_mut(s) {
                *slot = Some((k.hash, v));
            }
            // A table holds far fewer than 2³² entries (each is a key and a value).
            keys.push((k, u32::try_from(s).unwrap_or(u32::MAX)));
        }
        Table(ThinArc::from_header_and_iter(
            TableHead { keys: keys.into() },
            slots.into_iter(),
        ))
    }

    /// The keys, in key order, with their slots.
    #[inline]
    fn keys(&self) -> &[(PropKey, u32)] {
        &self.0.header.header.keys
    }

    /// Number of entries.
    #[inline]
    fn len(&self) -> usize {
        self.keys().len()
    }

    /// The same table behind a fat pointer (one more reference to it).
    pub(crate) fn fat(&self) -> FatTable {
        FatTable(self.0.with_arc(|a| a.clone()))
    }

    /// Whether both are the same allocation.
    #[inline]
    pub(crate) fn ptr_eq(&self, o: &Table) -> bool {
        std::ptr::eq(self.0.as_ptr(), o.0.as_ptr())
    }

    /// The value stored under `key`: one probe of the slots by integer id.
    // Always inlined, like `get_id`: out of line, the call and its register saves cost a
    // shared-table read (`things/property_read`) about 3 ns.
    #[inline(always)]
    pub(crate) fn get(&self, key: &PropKey) -> Option<&Value> {
        let v = self.get_id(key.hash);
        debug_assert!(v.is_none() || self.named(key), "{key} shares its id");
        v
    }

    /// The value stored under the key with id `id`.
    ///
    /// The common table sizes have an arm each with the mask as a constant: the processor
    /// predicts the arm and loads the slot while the slot count is still on its way, so a
    /// table out of cache costs one wait, not two (the header, then the slot).
    #[inline(always)]
    fn get_id(&self, id: u64) -> Option<&Value> {
        let slots = &self.0.slice;
        match slots.len() {
            64 => probe(slots, id, 63),
            32 => probe(slots, id, 31),
            16 => probe(slots, id, 15),
            8 => probe(slots, id, 7),
            n => probe(slots, id, n.wrapping_sub(1)),
        }
    }

    /// Whether the key stored under `key`'s id has `key`'s name (debug checks).
    fn named(&self, key: &PropKey) -> bool {
        named(self.keys(), key)
    }

    /// Every (key, value), in key order.
    #[inline]
    fn iter(&self) -> impl Iterator<Item = (&PropKey, &Value)> {
        let slots = &self.0.slice;
        self.keys().iter().filter_map(move |(k, s)| {
            slots
                .get(*s as usize)
                .and_then(Option::as_ref)
                .map(|(_, v)| (k, v))
        })
    }
}

/// Every property name a game holds, by id, to prove that no two names share one (a lookup
/// compares ids only: see [`PropKey`]). A table shared by many maps is read once.
#[derive(Default)]
pub(crate) struct KeyIds {
    names: std::collections::HashMap<u64, PropKey>,
    tables: std::collections::HashSet<usize>,
}

impl KeyIds {
    /// Note `k`; the two keys when another name has its id.
    pub(crate) fn note(&mut self, k: &PropKey) -> Result<(), (PropKey, PropKey)> {
        match self.names.entry(k.hash) {
            std::collections::hash_map::Entry::Occupied(e) => {
                if !e.get().same_name(k) {
                    return Err((e.get().clone(), k.clone()));
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(k.clone());
            }
        }
        Ok(())
    }

    /// Note every key of `m` (its table's once, however many maps share it).
    pub(crate) fn note_map(&mut self, m: &PropMap) -> Result<(), (PropKey, PropKey)> {
        if self.tables.insert(m.base.0.as_ptr() as usize) {
            for (k, _) in m.base.keys() {
                self.note(k)?;
            }
        }
        for (k, _) in m.over.as_slice() {
            self.note(k)?;
        }
        Ok(())
    }

    /// Note the keys that `mods` change or are switched by.
    pub(crate) fn note_mods(&mut self, mods: &[Modifier]) -> Result<(), (PropKey, PropKey)> {
        for m in mods {
            self.note(&m.key)?;
            if let Some(f) = &m.while_flag {
                self.note(f)?;
            }
        }
        Ok(())
    }
}

/// One of a map's own changes over its table: a new value, or `None` for a removed property.
type Override = (PropKey, Option<Value>);

/// A map's own changes over its table, sorted by key. The first stays inside the map itself
/// (a thing that changed one property reads it without another pointer to follow, and a
/// write of it copies no other allocation); more share one allocation.
#[derive(Clone, Default)]
enum Overrides {
    #[default]
    None,
    One(Override),
    Many(Arc<[Override]>),
}

impl Overrides {
    #[inline]
    fn as_slice(&self) -> &[Override] {
        match self {
            Overrides::None => &[],
            Overrides::One(o) => std::slice::from_ref(o),
            Overrides::Many(a) => a,
        }
    }

    /// The entry at `i`, mutable, when this map is its sole owner.
    fn get_mut(&mut self, i: usize) -> Option<&mut Override> {
        match self {
            Overrides::None => None,
            Overrides::One(o) => (i == 0).then_some(o),
            Overrides::Many(a) => Arc::get_mut(a).and_then(|a| a.get_mut(i)),
        }
    }

    fn from_vec(mut v: Vec<Override>) -> Overrides {
        match v.len() {
            0 => Overrides::None,
            1 => v.pop().map_or(Overrides::None, Overrides::One),
            _ => Overrides::Many(v.into()),
        }
    }
}

/// A small persistent map of properties.
///
/// A map is a shared, immutable table (a prototype's properties, built once) plus the few
/// entries this map changed or removed, kept apart and shared by reference count. A thing
/// created from a prototype therefore stores only its own overrides; a read looks at the
/// overrides, then falls through to the table. Equality, hashing, iteration and the saved
/// form all see the merged map in key order, so they do not depend on how it is layered.
///
/// Clone Θ(1) (shared); lookup: a scan of the few overrides, then one probe of the table's
/// hash index (Θ(1) expected); insert and remove copy only the overrides, and not even those
/// when this map is their sole owner (one override is kept inline, so a thing that changed
/// one property reads and writes it without another allocation).
// `repr(C)` puts the table pointer first: in a thing record it sits beside `carried`, which
// a query reads too, so both come in one cache line.
#[derive(Clone, Default)]
#[repr(C)]
pub struct PropMap {
    base: Table,
    over: Overrides,
}

impl PropMap {
    /// An empty map.
    #[must_use]
    pub fn new() -> Self {
        PropMap::default()
    }

    /// A map of these entries as one fresh table (no overrides).
    fn from_entries(mut entries: Vec<(PropKey, Value)>) -> Self {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|b, a| a.0 == b.0);
        PropMap {
            base: Table::from_sorted(entries),
            over: Overrides::None,
        }
    }

    /// This map with its overrides folded into one new table: what a prototype stores, so
    /// that things created from it share it.
    #[must_use]
    pub(crate) fn frozen(&self) -> PropMap {
        if self.over.as_slice().is_empty() {
            return self.clone();
        }
        PropMap::from_entries(self.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// How many overrides the map keeps over its table.
    pub(crate) fn overrides(&self) -> usize {
        self.over.as_slice().len()
    }

    /// The same map expressed as overrides over `base`'s table (when `base` has no
    /// overrides of its own): how a loaded thing gets to share its prototype's table again.
    #[must_use]
    pub(crate) fn rebased(&self, base: &PropMap) -> PropMap {
        if !base.over.as_slice().is_empty() || self.base.ptr_eq(&base.base) {
            return self.clone();
        }
        let mut m = base.clone();
        for (k, _) in base.iter() {
            if self.get(k).is_none() {
                m.remove_mut(k);
            }
        }
        for (k, v) in self.iter() {
            m.insert_mut(k, v.clone());
        }
        m
    }

    #[inline]
    fn find_over(&self, key: &PropKey) -> Option<&Option<Value>> {
        self.over
            .as_slice()
            .iter()
            .find(|(k, _)| k.hash == key.hash)
            .map(|(k, v)| {
                debug_assert!(k.same_name(key), "{k} and {key} share an id");
                v
            })
    }

    /// Its table, when the map is that table alone (no overrides): then the table answers
    /// every lookup. Θ(1).
    #[inline]
    pub(crate) fn whole_table(&self) -> Option<&Table> {
        matches!(self.over, Overrides::None).then_some(&self.base)
    }

    /// The raw value stored under `key`.
    #[must_use]
    #[inline]
    pub fn get(&self, key: &PropKey) -> Option<&Value> {
        if let Some(v) = self.find_over(key) {
            return v.as_ref();
        }
        self.base.get(key)
    }

    /// The raw value stored under the key whose [`id`](PropKey::id) is `id` (for derived
    /// data that keeps ids only; the game's names never share an id).
    #[inline]
    pub(crate) fn get_id(&self, id: u64) -> Option<&Value> {
        match self.over.as_slice().iter().find(|(k, _)| k.hash == id) {
            Some((_, v)) => v.as_ref(),
            None => self.base.get_id(id),
        }
    }

    /// A typed value, or the key's default, or [`Error::MissingProperty`]; a stored value of
    /// another kind is [`Error::WrongPropertyType`].
    pub fn read<T: PropType>(&self, key: &Prop<T>) -> Result<T, Error> {
        match self.get(key.key()) {
            Some(v) => key.decode(v),
            None => key.missing(),
        }
    }

    /// Whether a flag is stored as true (missing or another kind reads as false).
    #[must_use]
    pub fn flag(&self, flag: &Prop<bool>) -> bool {
        matches!(self.get(flag.key()), Some(Value::Bool(true)))
    }

    /// Record `value` (or a removal, `None`) for `key` among the overrides; an override that
    /// says what the table says is dropped, so equal maps keep equal overrides.
    fn put(&mut self, key: PropKey, value: Option<Value>) {
        let same_as_base = self.base.get(&key) == value.as_ref();
        let at = {
            let over = self.over.as_slice();
            let at = over.binary_search_by(|(k, _)| k.cmp(&key));
            if let Ok(i) = at
                && !same_as_base
                && over.get(i).map(|(_, v)| v) == Some(&value)
            {
                return;
            }
            at
        };
        if let (Ok(i), false) = (at, same_as_base) {
            // A sole owner replaces the value in place.
            if let Some(slot) = self.over.get_mut(i) {
                slot.1 = value;
                return;
            }
        }
        let over = self.over.as_slice();
        let mut v = Vec::with_capacity(over.len() + 1);
        match (at, same_as_base) {
            (Ok(i), false) => {
                v.extend_from_slice(over);
                if let Some(slot) = v.get_mut(i) {
                    slot.1 = value;
                }
            }
            (Ok(i), true) => {
                v.extend_from_slice(&over[..i]);
                v.extend_from_slice(&over[i + 1..]);
            }
            (Err(_), true) => return,
            (Err(i), false) => {
                v.extend_from_slice(&over[..i]);
                v.push((key, value));
                v.extend_from_slice(&over[i..]);
            }
        }
        self.over = Overrides::from_vec(v);
    }

    /// Store `value` under `key` (copy-on-write of the overrides only).
    pub fn insert_mut(&mut self, key: &PropKey, value: Value) {
        if self.get(key) == Some(&value) {
            return;
        }
        self.put(key.clone(), Some(value));
    }

    /// Remove `key`; returns the old value.
    pub fn remove_mut(&mut self, key: &PropKey) -> Option<Value> {
        let old = self.get(key)?.clone();
        self.put(key.clone(), None);
        Some(old)
    }

    /// Number of properties.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.over {
            Overrides::None => self.base.len(),
            _ => self.iter().count(),
        }
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every (key, value), in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&PropKey, &Value)> {
        Merge {
            base: self.base.iter().peekable(),
            over: self.over.as_slice().iter().peekable(),
        }
    }

    /// Whether both maps share all their storage (then they are certainly equal). Θ(1).
    fn ptr_eq(&self, o: &Self) -> bool {
        self.base.ptr_eq(&o.base)
            && match (&self.over, &o.over) {
                (Overrides::None, Overrides::None) => true,
                (Overrides::Many(a), Overrides::Many(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

/// The merged view of a table and its overrides, in key order.
struct Merge<'a, B: Iterator<Item = (&'a PropKey, &'a Value)>> {
    base: std::iter::Peekable<B>,
    over: std::iter::Peekable<std::slice::Iter<'a, (PropKey, Option<Value>)>>,
}

impl<'a, B: Iterator<Item = (&'a PropKey, &'a Value)>> Iterator for Merge<'a, B> {
    type Item = (&'a PropKey, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let order = match (self.base.peek(), self.over.peek()) {
                (None, None) => return None,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some((b, _)), Some((o, _))) => (*b).cmp(o),
            };
            match order {
                Ordering::Less => return self.base.next(),
                Ordering::Equal => {
                    self.base.next();
                    if let Some((k, Some(v))) = self.over.next() {
                        return Some((k, v));
                    }
                }
                Ordering::Greater => {
                    if let Some((k, Some(v))) = self.over.next() {
                        return Some((k, v));
                    }
                }
            }
        }
    }
}

impl PartialEq for PropMap {
    fn eq(&self, o: &Self) -> bool {
        self.ptr_eq(o) || self.iter().eq(o.iter())
    }
}

impl Hash for PropMap {
    /// The bytes the former flat, sorted vector of entries hashed: its length, then every
    /// (key, value) in key order. State hashes of recorded games do not change.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for (k, v) in self.iter() {
            k.hash(state);
            v.hash(state);
        }
    }
}

impl fmt::Debug for PropMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for PropMap {
    /// A map of every (key, value) in key order, with its length up front (formats such as
    /// postcard need it).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for PropMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries: Vec<(PropKey, Value)> =
            std::collections::BTreeMap::<PropKey, Value>::deserialize(d)?
                .into_iter()
                .collect();
        Ok(PropMap::from_entries(entries))
    }
}

/// A builder of properties and modifiers, used to [`proclaim`](crate::Library::proclaim)
/// prototypes and to set up things.
///
/// ```
/// use alembic::{props::Modifier, Prop, Props};
/// const ST: Prop<i32> = Prop::new("st");
/// const NAME: Prop<std::sync::Arc<str>> = Prop::new("name");
/// let p = Props::new().with(&NAME, "ring of strength".into()).modifier(Modifier::add(&ST, 2));
/// assert_eq!(p.modifiers().len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Props {
    pub(crate) map: PropMap,
    pub(crate) mods: Vec<Modifier>,
}

impl Props {
    /// Nothing yet.
    #[must_use]
    pub fn new() -> Self {
        Props::default()
    }

    /// Add a typed property.
    #[must_use]
    pub fn with<T: PropType>(mut self, key: &Prop<T>, value: T) -> Self {
        self.map.insert_mut(&key.key, value.into_value());
        self
    }

    /// Add an untyped property (data-defined keys).
    #[must_use]
    pub fn with_raw(mut self, key: &PropKey, value: Value) -> Self {
        self.map.insert_mut(key, value);
        self
    }

    /// Add a modifier this thing applies to whatever holds it.
    #[must_use]
    pub fn modifier(mut self, m: Modifier) -> Self {
        self.mods.push(m);
        self
    }

    /// The properties so far.
    #[must_use]
    pub fn map(&self) -> &PropMap {
        &self.map
    }

    /// The modifiers so far.
    #[must_use]
    pub fn modifiers(&self) -> &[Modifier] {
        &self.mods
    }
}

/// How a modifier changes a property.
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub enum ModOp {
    /// Add to an integer (a missing value counts as 0; other kinds are left alone).
    Add(i64),
    /// Multiply an integer by `num / den`, rounding toward zero (a zero `den` leaves it alone).
    Scale {
        /// Numerator.
        num: i64,
        /// Denominator.
        den: i64,
    },
    /// Raise an integer to at least this.
    AtLeast(i64),
    /// Lower an integer to at most this.
    AtMost(i64),
    /// Replace the value.
    Set(Value),
}

/// A change a thing makes to how its holder's property reads.
///
/// A thing carrying modifiers affects only its immediate holder, and only while it is inside
/// it (and, with [`Modifier::while_flag`], only while the carrier's flag is true — e.g. a
/// ring while worn). Modifiers apply in order of `priority`, then the carrier's insertion order.
///
/// ```
/// use alembic::{Game, library::IS_CONTAINER, Loc, props::Modifier, Prop, Props, Thing};
/// const ATTACK: Prop<i32> = Prop::with_default("attack", 1);
/// const WORN: Prop<bool> = Prop::with_default("worn", false);
/// let mut g = Game::new(1);
/// let hero = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new().with(&IS_CONTAINER, true)))?;
/// let ring = Thing::new(Props::new().modifier(Modifier::add(&ATTACK, 2).while_flag(&WORN)));
/// let ring = g.add_thing_mut(hero, ring)?;
/// assert_eq!(g.query(hero, &ATTACK)?, 1); // carried but not worn
/// g.set_mut(ring, &WORN, true)?;
/// assert_eq!(g.query(hero, &ATTACK)?, 3);
/// g.move_thing_mut(ring, Loc::new(1, 0, 0))?; // dropped: its holder is the floor
/// assert_eq!(g.query(hero, &ATTACK)?, 1);
/// # Ok::<(), alembic::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// The holder's property changed.
    pub key: PropKey,
    /// The change.
    pub op: ModOp,
    /// Lower priorities apply first.
    pub priority: i32,
    /// Active only while the carrier's boolean property with this name is true.
    pub while_flag: Option<PropKey>,
}

impl Modifier {
    /// Add `amount` to an integer property.
    #[must_use]
    pub fn add<T: PropType>(key: &Prop<T>, amount: i64) -> Self {
        Modifier::raw(&key.key, ModOp::Add(amount))
    }

    /// Replace a property's value.
    #[must_use]
    pub fn set<T: PropType>(key: &Prop<T>, value: T) -> Self {
        Modifier::raw(&key.key, ModOp::Set(value.into_value()))
    }

    /// Multiply an integer property by `num / den`.
    #[must_use]
    pub fn scale<T: PropType>(key: &Prop<T>, num: i64, den: i64) -> Self {
        Modifier::raw(&key.key, ModOp::Scale { num, den })
    }

    /// A modifier from an untyped key.
    #[must_use]
    pub fn raw(key: &PropKey, op: ModOp) -> Self {
        Modifier {
            key: key.clone(),
            op,
            priority: 0,
            while_flag: None,
        }
    }

    /// With this priority (lower applies first; default 0).
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// Active only while the carrier's flag `flag` is true.
    #[must_use]
    pub fn while_flag(mut self, flag: &Prop<bool>) -> Self {
        self.while_flag = Some(flag.key.clone());
        self
    }

    /// [`apply`](Modifier::apply) to an integer or a missing value, in integers: the same
    /// result (`Some(None)` = still missing), or `None` when the result is not an integer
    /// (a `Set` of another kind), for the caller to go on through `apply`.
    #[inline]
    pub(crate) fn apply_int(&self, v: Option<i64>) -> Option<Option<i64>> {
        let i = v.unwrap_or(0);
        Some(match &self.op {
            ModOp::Set(Value::Int(x)) => Some(*x),
            ModOp::Set(_) => return None,
            ModOp::Add(n) => Some(i.saturating_add(*n)),
            ModOp::Scale { num, den } => {
                if *den == 0 {
                    v
                } else {
                    let r = i128::from(i) * i128::from(*num) / i128::from(*den);
                    Some(r.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
                }
            }
            ModOp::AtLeast(n) => Some(i.max(*n)),
            ModOp::AtMost(n) => Some(i.min(*n)),
        })
    }

    /// Apply to a value (`None` = missing).
    #[inline]
    pub(crate) fn apply(&self, v: Option<Value>) -> Option<Value> {
        let int = |v: &Option<Value>| match v {
            Some(Value::Int(i)) => Some(*i),
            None => Some(0),
            _ => None,
        };
        match &self.op {
            ModOp::Set(x) => Some(x.clone()),
            ModOp::Add(n) => match int(&v) {
                Some(i) => Some(Value::Int(i.saturating_add(*n))),
                None => v,
            },
            ModOp::Scale { num, den } => match (int(&v), *den) {
                (Some(i), d) if d != 0 => {
                    let r = i128::from(i) * i128::from(*num) / i128::from(d);
                    Some(Value::Int(
                        r.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
                    ))
                }
                _ => v,
            },
            ModOp::AtLeast(n) => match int(&v) {
                Some(i) => Some(Value::Int(i.max(*n))),
                None => v,
            },
            ModOp::AtMost(n) => match int(&v) {
                Some(i) => Some(Value::Int(i.min(*n))),
                None => v,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::KeyName;

    const HPS: Prop<i32> = Prop::new("hps");
    const NAME: Prop<Arc<str>> = Prop::new("name");

    #[test]
    fn prop_map_sorted_and_cow() {
        let mut a = PropMap::new();
        a.insert_mut(HPS.key(), Value::Int(5));
        a.insert_mut(NAME.key(), Value::Text("rat".into()));
        let b = a.clone();
        a.insert_mut(HPS.key(), Value::Int(6));
        assert_eq!(b.get(HPS.key()), Some(&Value::Int(5)));
        assert_eq!(a.get(HPS.key()), Some(&Value::Int(6)));
        assert_eq!(a.get(&PropKey::new("hps")), Some(&Value::Int(6)));
        assert_eq!(a.len(), 2);
        assert_eq!(a.remove_mut(NAME.key()), Some(Value::Text("rat".into())));
        assert_eq!(a.get(NAME.key()), None);
    }

    #[test]
    fn layered_maps_read_hash_and_compare_like_a_flat_map() {
        use crate::hash::StableHasher;
        let keys: Vec<PropKey> = (0..12).map(|i| PropKey::new(&format!("k{i}"))).collect();
        let base = PropMap::from_entries(
            keys.iter()
                .take(8)
                .enumerate()
                .map(|(i, k)| (k.clone(), Value::Int(i as i64)))
                .collect(),
        );
        let mut oracle: std::collections::BTreeMap<PropKey, Value> =
            base.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let mut m = base.clone();
        let mut x: u64 = 3;
        for step in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = &keys[(x % 12) as usize];
            if x.is_multiple_of(5) {
                assert_eq!(m.remove_mut(k), oracle.remove(k));
            } else {
                let v = Value::Int(((x >> 8) % 10) as i64);
                m.insert_mut(k, v.clone());
                oracle.insert(k.clone(), v);
            }
            let flat =
                PropMap::from_entries(oracle.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
            for k in &keys {
                assert_eq!(m.get(k), oracle.get(k), "step {step}");
            }
            assert_eq!(m.len(), oracle.len());
            assert_eq!(m, flat);
            assert_eq!(m.rebased(&base), flat);
            let hash = |p: &PropMap| {
                let mut h = StableHasher::new();
                p.hash(&mut h);
                h.finish()
            };
            assert_eq!(hash(&m), hash(&flat));
            assert_eq!(
                serde_json::to_string(&m).unwrap(),
                serde_json::to_string(&flat).unwrap()
            );
            // Overrides never repeat what the table says.
            let o = m.over.as_slice();
            assert!(o.iter().all(|(k, v)| m.base.get(k) != v.as_ref()));
        }
    }

    /// A key with a chosen id, to stand for two names whose hashes collide.
    fn forged(name: &'static str, id: u64) -> PropKey {
        PropKey {
            hash: id,
            name: KeyName::Static(name),
        }
    }

    #[test]
    fn key_ids_refuse_two_names_with_one_id() {
        let a = PropKey::new("alpha");
        let b = forged("beta", a.id());
        let mut ids = KeyIds::default();
        assert_eq!(ids.note(&a), Ok(()));
        assert_eq!(ids.note(&PropKey::from_static("alpha")), Ok(()));
        assert_eq!(ids.note(&b), Err((a.clone(), b.clone())));
        // Through maps and modifiers too.
        let mut ids = KeyIds::default();
        let m = PropMap::from_entries(vec![(a.clone(), Value::Int(1))]);
        assert_eq!(ids.note_map(&m), Ok(()));
        let mods = [Modifier::raw(&b, ModOp::Add(1))];
        assert!(ids.note_mods(&mods).is_err());
        // The id is the name's hash: the same in every key of that name.
        assert_eq!(a.id(), PropKey::from_static("alpha").id());
        assert_ne!(a.id(), PropKey::new("alphb").id());
    }

    #[test]
    fn typed_decode_reports_kinds() {
        assert_eq!(HPS.decode(&Value::Int(3)), Ok(3));
        assert_eq!(
            HPS.decode(&Value::Bool(true)),
            Err(Error::WrongPropertyType {
                key: HPS.key().clone(),
                expected: ValueKind::Int,
                found: ValueKind::Bool,
                owner: crate::error::Owner::default(),
            })
        );
        // Out of range for i32 is a type error too, never a silent truncation.
        assert!(HPS.decode(&Value::Int(i64::MAX)).is_err());
    }

    #[test]
    fn modifier_ops() {
        let add = Modifier::add(&HPS, 3);
        assert_eq!(add.apply(Some(Value::Int(4))), Some(Value::Int(7)));
        assert_eq!(add.apply(None), Some(Value::Int(3)));
        assert_eq!(add.apply(Some(Value::Bool(true))), Some(Value::Bool(true)));
        let half = Modifier::scale(&HPS, 1, 2);
        assert_eq!(half.apply(Some(Value::Int(9))), Some(Value::Int(4)));
        let zero = Modifier::scale(&HPS, 1, 0);
        assert_eq!(zero.apply(Some(Value::Int(9))), Some(Value::Int(9)));
        let set = Modifier::set(&NAME, "x".into());
        assert_eq!(set.apply(None), Some(Value::Text("x".into())));
        assert_eq!(
            Modifier::add(&HPS, i64::MAX).apply(Some(Value::Int(5))),
            Some(Value::Int(i64::MAX))
        );
    }

    #[test]
    fn integer_path_applies_like_values() {
        let ops = [
            ModOp::Add(3),
            ModOp::Add(i64::MAX),
            ModOp::Scale { num: 3, den: 2 },
            ModOp::Scale { num: -7, den: 3 },
            ModOp::Scale { num: 1, den: 0 },
            ModOp::Scale {
                num: i64::MAX,
                den: 1,
            },
            ModOp::AtLeast(4),
            ModOp::AtMost(-2),
            ModOp::Set(Value::Int(9)),
            ModOp::Set(Value::Bool(true)),
        ];
        for op in &ops {
            let m = Modifier::raw(HPS.key(), op.clone());
            for v in [
                None,
                Some(0),
                Some(5),
                Some(-9),
                Some(i64::MIN),
                Some(i64::MAX),
            ] {
                let want = m.apply(v.map(Value::Int));
                match m.apply_int(v) {
                    Some(got) => assert_eq!(got.map(Value::Int), want, "{op:?} on {v:?}"),
                    None => assert!(matches!(op, ModOp::Set(Value::Bool(_)))),
                }
            }
        }
    }

    #[test]
    fn a_game_holding_two_names_with_one_id_fails_its_invariants() {
        use crate::{Game, Loc, Props, Thing};
        let a = PropKey::new("alpha");
        let b = forged("beta", a.id());
        let mut g = Game::new(1);
        let one = Thing::new(Props::new().with_raw(&a, Value::Int(1)));
        g.add_thing_mut(Loc::new(0, 0, 0), one).expect("add");
        assert_eq!(g.check_invariants(), Ok(()));
        let two = Thing::new(Props::new().with_raw(&b, Value::Int(2)));
        g.add_thing_mut(Loc::new(1, 0, 0), two).expect("add");
        assert!(matches!(
            g.check_invariants(),
            Err(crate::error::InvariantError::KeyIdCollision(..))
        ));
    }

    #[test]
    fn tables_find_every_key_and_no_other() {
        for n in [0usize, 1, 3, 28, 100] {
            let keys: Vec<PropKey> = (0..n).map(|i| PropKey::new(&format!("p{i}"))).collect();
            let m = PropMap::from_entries(
                keys.iter()
                    .enumerate()
                    .map(|(i, k)| (k.clone(), Value::Int(i as i64)))
                    .collect(),
            );
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(m.get(k), Some(&Value::Int(i as i64)));
            }
            assert_eq!(m.get(&PropKey::new("absent")), None);
            assert_eq!(m.len(), n);
        }
    }

    #[test]
    fn value_serde_round_trip() {
        let v = Value::List(Arc::from(vec![
            Value::Int(1),
            Value::Text("a".into()),
            Value::Hook(Hook::new("heal")),
            Value::Float(0.5),
        ]));
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), v);
    }
}
