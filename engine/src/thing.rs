//! Things: ids, places and the thing record itself.
//!
//! Costs: `ThingId` and `Place` are `Copy`; a `Thing` clones in Θ(1) (its property table and
//! modifiers are shared); an `IdList` of one id is stored inline. A holder keeps a
//! derived view of the modifiers its contents apply (`Carried`), rebuilt in Θ(its carriers'
//! modifiers · log) when a carrier comes, goes, changes or switches a flag, so a query reads
//! one thing.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::loc::Loc;
use crate::props::{Modifier, Prop, PropKey, PropMap, PropType, Props, Value};

pub use crate::id::ThingId;

/// Where a thing is: on the map, or inside another thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    /// On the map at this location.
    Map(Loc),
    /// Inside this container (an inventory, a creature carrying an effect…).
    In(ThingId),
}

impl From<Loc> for Place {
    fn from(l: Loc) -> Self {
        Place::Map(l)
    }
}

impl From<ThingId> for Place {
    fn from(id: ThingId) -> Self {
        Place::In(id)
    }
}

/// An ordered list of thing ids (cell contents, container contents).
///
/// An empty list and a list of one id are stored inline, so the common cases (nothing
/// carried, one effect or item) copy without touching a reference count; longer lists are
/// shared, behind a thin pointer (the length in the allocation), so a list takes 16 bytes
/// of the thing record that holds it. Clone: Θ(1).
#[derive(Clone, Debug, Default)]
pub struct IdList(Ids);

#[derive(Clone, Debug, Default)]
enum Ids {
    #[default]
    Empty,
    One([ThingId; 1]),
    Many(triomphe::ThinArc<(), ThingId>),
}

impl IdList {
    /// The ids, in insertion order.
    #[must_use]
    pub fn as_slice(&self) -> &[ThingId] {
        match &self.0 {
            Ids::Empty => &[],
            Ids::One(a) => a,
            Ids::Many(a) => &a.slice,
        }
    }

    /// Number of ids.
    #[must_use]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Whether empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        matches!(self.0, Ids::Empty)
    }

    /// Whether `id` is in the list.
    #[must_use]
    pub fn contains(&self, id: ThingId) -> bool {
        self.as_slice().contains(&id)
    }

    /// Append `id` (Θ(n) copy beyond one).
    pub(crate) fn push(&mut self, id: ThingId) {
        self.0 = match &self.0 {
            Ids::Empty => Ids::One([id]),
            _ => {
                let mut v = self.as_slice().to_vec();
                v.push(id);
                Ids::many(v.into_iter())
            }
        };
    }

    /// Remove `id` if present (Θ(n)).
    pub(crate) fn remove(&mut self, id: ThingId) {
        if self.contains(id) {
            let v: Vec<ThingId> = self
                .as_slice()
                .iter()
                .copied()
                .filter(|&x| x != id)
                .collect();
            *self = IdList::from_vec(v);
        }
    }

    pub(crate) fn from_vec(v: Vec<ThingId>) -> Self {
        IdList(match v.as_slice() {
            [] => Ids::Empty,
            [a] => Ids::One([*a]),
            _ => Ids::many(v.into_iter()),
        })
    }
}

impl Ids {
    /// A shared list of these ids (one allocation).
    fn many(ids: impl ExactSizeIterator<Item = ThingId>) -> Ids {
        Ids::Many(triomphe::ThinArc::from_header_and_iter((), ids))
    }
}

impl PartialEq for IdList {
    fn eq(&self, o: &Self) -> bool {
        self.as_slice() == o.as_slice()
    }
}
impl Eq for IdList {}

impl std::hash::Hash for IdList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl Serialize for IdList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for IdList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(IdList::from_vec(Vec::<ThingId>::deserialize(d)?))
    }
}

/// A thing: a creature, an item, an effect, a door… — an open set of properties, the
/// modifiers it applies to whatever holds it, and (once in a game) an id, a place and
/// contents.
///
/// A `Thing` fresh from [`Thing::new`] or [`Library::create`](crate::Library::create) has no
/// id or place; [`Game::add_thing`](crate::Game::add_thing) gives it both. Id, place and
/// contents are maintained only by the [`Game`](crate::Game): changing a thing's copy can't
/// break the world's consistency. Clone: Θ(1) (its maps are shared).
///
/// ```
/// use alembic::{Game, Loc, Prop, Props, Thing};
/// const HP: Prop<i32> = Prop::new("hp");
/// let mut rat = Thing::new(Props::new().with(&HP, 3));
/// assert_eq!((rat.id(), rat.get(&HP)), (None, Ok(3))); // not in a game yet
/// rat.set_mut(&HP, 4); // a copy: no game sees it until it is added or updated
/// let mut g = Game::new(1);
/// let id = g.add_thing_mut(Loc::new(2, 2, 0), rat)?;
/// assert_eq!(g.things().get(id)?.id(), Some(id));
/// assert_eq!(g.query(id, &HP)?, 4);
/// # Ok::<(), alembic::Error>(())
/// ```
// `repr(C)` keeps what every `query` reads (`carried`, then `props`) together at the front
// of the record, so a read touches one or two cache lines of it rather than three (a property
// read: 20.3 -> 17.4 ns in the `things` bench, with `get_thing` no longer building an error it
// drops). The saved form keeps the field order it always had: see `Serialize` below.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Thing {
    /// What the things inside it that carry modifiers apply to it (derived data: kept by
    /// the [`Game`](crate::Game), rebuilt on load, checked by `check_invariants`); `None`
    /// when nothing inside carries a modifier.
    pub(crate) carried: Option<Arc<Carried>>,
    pub(crate) props: PropMap,
    pub(crate) place: Option<Place>,
    pub(crate) contents: IdList,
    /// What a property write never changes, shared by every version of the thing.
    pub(crate) core: Arc<Core>,
}

/// The parts of a [`Thing`] that a write of a property, a move or a change of contents leaves
/// alone: its id, prototype and modifiers. Kept behind one shared pointer, so a write copies a
/// 112-byte record instead of a 152-byte one (the bytes kept per `Game::set` are a bar of
/// issue 15).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Core {
    pub(crate) id: Option<ThingId>,
    pub(crate) proto: Option<Arc<str>>,
    pub(crate) mods: Arc<[Modifier]>,
}

/// A thing as it is written: its fields in their historical order (formats such as postcard
/// read fields in order), without the derived `carried`.
#[derive(Serialize)]
#[serde(rename = "Thing")]
struct ThingOut<'a> {
    id: &'a Option<ThingId>,
    place: &'a Option<Place>,
    proto: &'a Option<Arc<str>>,
    props: &'a PropMap,
    mods: &'a Arc<[Modifier]>,
    contents: &'a IdList,
}

/// A thing as it is read (see [`ThingOut`]).
#[derive(Deserialize)]
#[serde(rename = "Thing")]
struct ThingIn {
    id: Option<ThingId>,
    place: Option<Place>,
    proto: Option<Arc<str>>,
    props: PropMap,
    mods: Arc<[Modifier]>,
    contents: IdList,
}

impl Serialize for Thing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ThingOut {
            id: &self.core.id,
            place: &self.place,
            proto: &self.core.proto,
            props: &self.props,
            mods: &self.core.mods,
            contents: &self.contents,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Thing {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = ThingIn::deserialize(d)?;
        Ok(Thing {
            carried: None,
            props: t.props,
            place: t.place,
            contents: t.contents,
            core: Arc::new(Core {
                id: t.id,
                proto: t.proto,
                mods: t.mods,
            }),
        })
    }
}

/// A holder's derived view of the modifiers its contents apply to it: which of its contents
/// carry modifiers, and every currently active modifier of theirs, sorted by key, then
/// priority, then carrier order (then each carrier's own order), so a query finds its key's
/// run by binary search and applies it as it stands.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Carried {
    /// The subset of `contents` that carry modifiers, in the same order.
    pub(crate) by: IdList,
    /// One entry per key of `active`, in `active`'s order (a holder's modifiers touch a
    /// handful of keys, so a query scans these).
    runs: Box<[Run]>,
    /// The active modifiers, in application order within each key.
    active: Box<[Modifier]>,
}

impl Carried {
    /// The view made of `by` (the carriers, in contents order) and their modifiers that are
    /// active (`while_flag` unset, or the carrier's own flag true), in the order a query
    /// applies them: a stable sort by (key, priority) of the carriers' modifiers in carrier
    /// order. `None` when there is no carrier.
    pub(crate) fn build<'a>(
        carriers: impl IntoIterator<Item = (ThingId, &'a Thing)>,
    ) -> Option<Arc<Carried>> {
        let mut by = Vec::new();
        let mut active: Vec<Modifier> = Vec::new();
        for (id, c) in carriers {
            if !c.has_modifiers() {
                continue;
            }
            by.push(id);
            active.extend(c.core.mods.iter().filter(|m| c.applies(m)).cloned());
        }
        if by.is_empty() {
            return None;
        }
        active.sort_by(|a, b| a.key.cmp(&b.key).then(a.priority.cmp(&b.priority)));
        let mut runs: Vec<Run> = Vec::new();
        for (i, m) in active.iter().enumerate() {
            let same = i > 0 && active.get(i - 1).is_some_and(|p| p.key == m.key);
            match runs.last_mut() {
                Some(run) if same => run.end = i + 1,
                _ => runs.push(Run {
                    key: m.key.clone(),
                    start: i,
                    end: i + 1,
                    adds: None,
                }),
            }
            if let Some(run) = runs.last_mut() {
                run.adds = active.get(run.start..=i).and_then(AddRun::of);
            }
        }
        Some(Arc::new(Carried {
            by: IdList::from_vec(by),
            runs: runs.into(),
            active: active.into(),
        }))
    }

    /// The active modifiers for `key`, in application order (empty when none), and their
    /// sum when they are all additions.
    #[inline]
    pub(crate) fn for_key(&self, key: &PropKey) -> (&[Modifier], Option<&AddRun>) {
        // The run keeps its key, so finding it (and a run of additions, applying it) never
        // touches the modifiers themselves.
        for r in &*self.runs {
            // By integer id: names sharing an id are refused by `check_invariants`.
            if r.key.id() == key.id() {
                debug_assert!(r.key == *key, "{} and {key} share an id", r.key);
                return (
                    self.active.get(r.start..r.end).unwrap_or(&[]),
                    r.adds.as_ref(),
                );
            }
        }
        (&[], None)
    }
}

/// The flags that have a bit in every thing's flag word (the game's dense array of words by
/// thing id, apart from the records, so that a read touches 8 bytes): up to 61 keys, given
/// positions 0, 1, 2, … first come. A game gives a position to each flag key it meets on a
/// thing until the positions run out; the others are read through
/// [`Game::query`](crate::Game::query). While positions last, a flag without one is stored
/// by no thing, so a word answers for it too: the flag's default (false), unless the thing
/// carries modifiers ([`MODS`]). A key's position is found through a 128-slot
/// open-addressed table of at most 61 keys (at most half full, so a lookup, found or not,
/// is usually one probe: a slot's key id and position are read side by side). Derived
/// data: equal games may assign positions differently, so it takes no part in equality.
///
/// A word holds one bit per position, set when the thing stores `true` for that flag; the
/// [`ASK`] bit, set when a modifier the thing carries changes one of the word's flags (then
/// every read of its flags is a full query); the [`MODS`] bit, set when the thing carries
/// any active modifier (then a read of a flag without a position is a full query); and the
/// [`HOLDS`] bit, set when other things are inside it (so that a loop asking every creature
/// of a level for its contents reads 8 bytes a creature, not its record).
#[derive(Clone, Debug)]
pub(crate) struct FlagBits {
    /// How many positions are given (positions `0..count`).
    count: u32,
    /// The lookup table's key ids, by slot (meaningful where `slots` is not 0).
    ids: [u64; SLOTS],
    /// The lookup table's positions: slot `s` holds one plus the position of the key
    /// `ids[s]`, or 0 when free.
    slots: [u8; SLOTS],
}

/// The lookup table's size: twice the positions, a power of two.
const SLOTS: usize = 128;

/// How many flags a word holds: all its bits but [`ASK`], [`MODS`] and [`HOLDS`].
const POSITIONS: usize = 61;

impl Default for FlagBits {
    fn default() -> Self {
        FlagBits {
            count: 0,
            ids: [0; SLOTS],
            slots: [0; SLOTS],
        }
    }
}

impl PartialEq for FlagBits {
    /// Always equal: which flag has which bit is a cache, not part of the value.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The bit of a word that sends every read of it to the full query: a modifier the thing
/// carries changes one of the word's flags, or the id names no thing.
const ASK: u64 = 1 << 63;
/// The word of an id that names no thing: [`ASK`], so [`Game::is`](crate::Game::is) answers
/// through the query, which reads a missing thing as false whatever the flag's default.
pub(crate) const ABSENT: u64 = ASK;
/// The bit of a word set when the thing carries any active modifier: a flag with no
/// position may then be set by one, so a read of such a flag is a full query.
const MODS: u64 = 1 << 62;
/// The bit of a word set when other things are inside the thing (its contents are not
/// empty).
pub(crate) const HOLDS: u64 = 1 << 61;

/// Whether `word`, a present thing's flag word, says that nothing is inside it; `false`
/// when the word does not decide (the id names no thing, or the word sends reads to the
/// full query).
#[inline(always)]
pub(crate) fn holds_nothing(word: u64) -> bool {
    word & (ASK | HOLDS) == 0
}

impl FlagBits {
    /// The home slot of a key id in the lookup table (the table has 128 slots).
    #[inline]
    fn home(id: u64) -> usize {
        (id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 57) as usize
    }

    /// The position of the key with id `id`, if it has one. Θ(1) expected: the table is at
    /// most half full, so a probe meets a free slot within a few steps (at most 64).
    #[inline]
    pub(crate) fn position(&self, id: u64) -> Option<u32> {
        let mut s = Self::home(id);
        loop {
            let e = *self.slots.get(s)?;
            if e == 0 {
                return None;
            }
            if self.ids.get(s) == Some(&id) {
                return Some(u32::from(e - 1));
            }
            s = (s + 1) & (SLOTS - 1);
        }
    }

    /// Give key id `id` a position; `false` when it had one or none is free.
    pub(crate) fn assign(&mut self, id: u64) -> bool {
        if self.count as usize == POSITIONS || self.position(id).is_some() {
            return false;
        }
        let p = self.count;
        let mut s = Self::home(id);
        while self.slots.get(s).is_some_and(|&e| e != 0) {
            s = (s + 1) & (SLOTS - 1);
        }
        match (self.slots.get_mut(s), self.ids.get_mut(s)) {
            (Some(slot), Some(at)) => {
                *slot = p as u8 + 1;
                *at = id;
                self.count += 1;
                true
            }
            _ => false,
        }
    }

    /// Whether a position is free and `id` has none: what [`assign`](FlagBits::assign)
    /// would do, without a copy to do it on.
    #[inline]
    pub(crate) fn would_assign(&self, id: u64) -> bool {
        (self.count as usize) < POSITIONS && self.position(id).is_none()
    }

    /// Whether some flag (boolean value) among `t`'s properties would get a position.
    pub(crate) fn would_assign_any(&self, t: &Thing) -> bool {
        (self.count as usize) < POSITIONS
            && t.props
                .iter()
                .any(|(k, v)| matches!(v, Value::Bool(_)) && self.position(k.id()).is_none())
    }

    /// Assign a position to every flag (boolean value) among `t`'s properties that has none
    /// yet; whether any was assigned.
    pub(crate) fn assign_flags_of(&mut self, t: &Thing) -> bool {
        let mut any = false;
        for (k, v) in t.props.iter() {
            if matches!(v, Value::Bool(_)) {
                any |= self.assign(k.id());
            }
        }
        any
    }

    /// `t`'s whole flag word. Θ(t's properties and carried keys).
    pub(crate) fn word(&self, t: &Thing) -> u64 {
        let mut w = 0;
        for (k, v) in t.props.iter() {
            if matches!(v, Value::Bool(true))
                && let Some(p) = self.position(k.id())
            {
                w |= 1 << p;
            }
        }
        if !t.contents.is_empty() {
            w |= HOLDS;
        }
        if let Some(c) = t.carried.as_deref()
            && !c.runs.is_empty()
        {
            w |= MODS;
            if c.runs.iter().any(|r| self.position(r.key.id()).is_some()) {
                w |= ASK;
            }
        }
        w
    }

    /// `t`'s flag word after a change to the key with id `id` among its own properties
    /// only (its carried modifiers unchanged), from its word `word` before. Θ(1).
    pub(crate) fn rewrite(&self, word: u64, t: &Thing, id: u64) -> u64 {
        match self.position(id) {
            Some(p) => {
                let on = matches!(t.props.get_id(id), Some(Value::Bool(true)));
                (word & !(1 << p)) | (u64::from(on) << p)
            }
            None => word,
        }
    }

    /// What `Game::is` answers from `word` for the flag with id `id` and default `default`:
    /// `None` when the word does not decide (a carried modifier, a clear bit for a flag
    /// whose default is true, which may be stored `false` or not stored, or a flag with no
    /// position once positions ran out). A flag with no position while positions last is
    /// stored by no thing (every game path that stores a flag gives it a position first), so
    /// a thing that carries no modifier has its default; only a default of false is answered
    /// here (with a default of true, a value of another type stored under the key reads as
    /// false).
    #[inline]
    pub(crate) fn answer(&self, word: u64, id: u64, default: Option<&bool>) -> Option<bool> {
        let Some(p) = self.position(id) else {
            let unstored = (self.count as usize) < POSITIONS && word & (ASK | MODS) == 0;
            return (unstored && default != Some(&true)).then_some(false);
        };
        if word & ASK != 0 {
            return None;
        }
        if (word >> p) & 1 != 0 {
            Some(true)
        } else if default == Some(&true) {
            None
        } else {
            Some(false)
        }
    }
}

/// The run of one key in a holder's active modifiers.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    /// The key.
    key: PropKey,
    /// Where the run starts in `active`.
    start: usize,
    /// Where the run ends in `active`.
    end: usize,
    /// Present when every modifier of the run is an addition.
    adds: Option<AddRun>,
}

/// A run of integer additions, summed once: applying them one by one (each saturating)
/// gives `x + sum` exactly when no partial sum leaves the `i64` range, which the lowest
/// and highest prefix sums tell. A run whose own prefix sums leave the `i64` range has no
/// summary (a query applies its steps one by one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AddRun {
    sum: i64,
    lowest: i64,
    highest: i64,
}

impl AddRun {
    fn of(run: &[Modifier]) -> Option<AddRun> {
        let mut a = AddRun {
            sum: 0,
            lowest: 0,
            highest: 0,
        };
        for m in run {
            let crate::props::ModOp::Add(n) = m.op else {
                return None;
            };
            a.sum = a.sum.checked_add(n)?;
            a.lowest = a.lowest.min(a.sum);
            a.highest = a.highest.max(a.sum);
        }
        Some(a)
    }

    /// `x` after the whole run, when no step saturates (then it is what the steps give);
    /// `None` when one would, for the caller to apply them one by one.
    #[inline]
    pub(crate) fn apply(&self, x: i64) -> Option<i64> {
        // `lowest <= sum <= highest`, `lowest <= 0 <= highest`: the two checks cover every
        // partial sum, and then `x + sum` fits too.
        x.checked_add(self.lowest)?;
        x.checked_add(self.highest)?;
        x.checked_add(self.sum)
    }
}

impl PartialEq for Thing {
    /// Compares what the derived `PartialEq` compared (the carrier list included); the
    /// active modifiers are a function of the game around the thing and are not compared.
    fn eq(&self, o: &Self) -> bool {
        self.core.id == o.core.id
            && self.place == o.place
            && self.core.proto == o.core.proto
            && self.props == o.props
            && self.core.mods == o.core.mods
            && self.contents == o.contents
            && self.modded_by() == o.modded_by()
    }
}

impl std::hash::Hash for Thing {
    /// The bytes the derived `Hash` wrote when the carrier list was a field of its own, so
    /// state hashes do not change.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.core.id.hash(state);
        self.place.hash(state);
        self.core.proto.hash(state);
        self.props.hash(state);
        self.core.mods.hash(state);
        self.contents.hash(state);
        self.modded_by().hash(state);
    }
}

impl Default for Thing {
    fn default() -> Self {
        Thing::new(Props::new())
    }
}

impl Thing {
    /// A thing with these properties and modifiers and no prototype.
    #[must_use]
    pub fn new(props: Props) -> Self {
        Thing {
            place: None,
            props: props.map.frozen(),
            contents: IdList::default(),
            carried: None,
            core: Arc::new(Core {
                id: None,
                proto: None,
                mods: props.mods.into(),
            }),
        }
    }

    /// Its id, once added to a game.
    #[must_use]
    pub fn id(&self) -> Option<ThingId> {
        self.core.id
    }

    /// Where it is, once added to a game.
    #[must_use]
    pub fn place(&self) -> Option<Place> {
        self.place
    }

    /// The prototype it was created from, if any.
    #[must_use]
    pub fn proto(&self) -> Option<&str> {
        self.core.proto.as_deref()
    }

    /// The things inside it, in insertion order.
    #[must_use]
    pub fn contents(&self) -> &[ThingId] {
        self.contents.as_slice()
    }

    /// Its base properties (no modifiers applied).
    #[must_use]
    pub fn props(&self) -> &PropMap {
        &self.props
    }

    /// The modifiers it applies to its holder.
    #[must_use]
    pub fn modifiers(&self) -> &[Modifier] {
        &self.core.mods
    }

    /// A base property (no modifiers), or its default, or [`Error::MissingProperty`].
    pub fn get<T: PropType>(&self, key: &Prop<T>) -> Result<T, Error> {
        self.props.read(key)
    }

    /// A base property if present (ignoring defaults).
    pub fn get_opt<T: PropType>(&self, key: &Prop<T>) -> Result<Option<T>, Error> {
        self.props.get(key.key()).map(|v| key.decode(v)).transpose()
    }

    /// Whether a flag is set (missing or non-bool reads as false).
    #[must_use]
    pub fn is(&self, flag: &Prop<bool>) -> bool {
        self.props.flag(flag)
    }

    /// Set a base property on this copy.
    pub fn set_mut<T: PropType>(&mut self, key: &Prop<T>, value: T) {
        self.props.insert_mut(key.key(), value.into_value());
    }

    /// This copy with a base property set.
    #[must_use]
    pub fn with<T: PropType>(mut self, key: &Prop<T>, value: T) -> Self {
        self.set_mut(key, value);
        self
    }

    /// Set an untyped property.
    pub fn set_raw_mut(&mut self, key: &PropKey, value: Value) {
        self.props.insert_mut(key, value);
    }

    /// Remove a base property.
    pub fn remove_prop_mut(&mut self, key: &PropKey) -> Option<Value> {
        self.props.remove_mut(key)
    }

    /// Replace the modifiers it applies to its holder.
    pub fn set_modifiers_mut(&mut self, mods: Vec<Modifier>) {
        Arc::make_mut(&mut self.core).mods = mods.into();
    }

    /// Whether it currently applies any modifier to a holder.
    pub(crate) fn has_modifiers(&self) -> bool {
        !self.core.mods.is_empty()
    }

    /// Whether its modifier `m` is active now (no `while_flag`, or its own flag is true).
    pub(crate) fn applies(&self, m: &Modifier) -> bool {
        match &m.while_flag {
            None => true,
            Some(flag) => matches!(self.props.get(flag), Some(Value::Bool(true))),
        }
    }

    /// Whether one of its modifiers switches on its flag `key`.
    pub(crate) fn switched_by(&self, key: &PropKey) -> bool {
        self.core
            .mods
            .iter()
            .any(|m| m.while_flag.as_ref() == Some(key))
    }

    /// Whether it applies to a holder exactly what `other` applies: the same modifiers, each
    /// active in both or in neither (what [`applies`](Thing::applies) reads).
    pub(crate) fn applies_as(&self, other: &Thing) -> bool {
        self.core.mods == other.core.mods
            && self
                .core
                .mods
                .iter()
                .all(|m| self.applies(m) == other.applies(m))
    }

    /// The things inside it that carry modifiers, in contents order.
    pub(crate) fn modded_by(&self) -> &[ThingId] {
        self.carried.as_deref().map_or(&[], |c| c.by.as_slice())
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::{ModOp, Prop};

    /// Pushes and removals through every length give the ids in order, and every list
    /// equals, hashes and saves as the list of its ids, however it is stored.
    #[test]
    fn an_id_list_keeps_its_ids_in_order_at_every_length() {
        use std::hash::{BuildHasher, RandomState};
        let hasher = RandomState::new();
        let mut list = IdList::default();
        let mut want: Vec<ThingId> = Vec::new();
        for k in 1..=6u64 {
            list.push(ThingId(k * 10));
            want.push(ThingId(k * 10));
            assert_eq!(list.as_slice(), &want[..]);
            assert_eq!(list.len(), want.len());
            assert!(!list.is_empty());
            let rebuilt = IdList::from_vec(want.clone());
            assert_eq!(list, rebuilt);
            assert_eq!(hasher.hash_one(&list), hasher.hash_one(&rebuilt));
            let json = serde_json::to_string(&list).expect("serialize");
            assert_eq!(json, serde_json::to_string(&want).expect("serialize"));
            let back: IdList = serde_json::from_str(&json).expect("deserialize");
            assert_eq!(back.as_slice(), &want[..]);
        }
        let copy = list.clone();
        for id in [
            ThingId(30),
            ThingId(10),
            ThingId(99),
            ThingId(60),
            ThingId(20),
        ] {
            list.remove(id);
            want.retain(|x| *x != id);
            assert_eq!(list.as_slice(), &want[..]);
            assert!(!list.contains(id));
        }
        assert_eq!(list.as_slice(), &[ThingId(40), ThingId(50)]);
        list.remove(ThingId(40));
        list.remove(ThingId(50));
        assert!(list.is_empty());
        // The clone taken before the removals still holds all six.
        assert_eq!(copy.len(), 6);
        assert!(copy.contains(ThingId(60)));
        // A list of up to one id keeps it inline, in 16 bytes on a 64-bit target.
        #[cfg(target_pointer_width = "64")]
        assert_eq!(std::mem::size_of::<IdList>(), 16);
    }

    /// A summed run of additions gives what applying them one by one gives, or declines.
    #[test]
    fn summed_additions_match_the_steps() {
        const K: Prop<i64> = Prop::new("k");
        let runs: [&[i64]; 5] = [
            &[3, -2, 7],
            &[i64::MAX, -5],
            &[-3, i64::MAX, i64::MIN],
            &[i64::MIN, i64::MIN, 4],
            &[],
        ];
        for amounts in runs {
            let mods: Vec<Modifier> = amounts
                .iter()
                .map(|n| Modifier::raw(K.key(), ModOp::Add(*n)))
                .collect();
            let Some(sum) = AddRun::of(&mods) else {
                // No summary only when the run's own prefix sums leave the `i64` range.
                let mut total = Some(0i64);
                let overflows = amounts.iter().any(|n| {
                    total = total.and_then(|t| t.checked_add(*n));
                    total.is_none()
                });
                assert!(overflows, "{amounts:?}");
                continue;
            };
            for x in [i64::MIN, -7, -1, 0, 1, 9, i64::MAX] {
                let steps = mods
                    .iter()
                    .try_fold(Some(x), |v, m| m.apply_int(v))
                    .flatten();
                if let Some(got) = sum.apply(x) {
                    assert_eq!(Some(got), steps, "{amounts:?} from {x}");
                } else {
                    // Declined only where a step saturates.
                    assert!(
                        amounts.iter().any(|n| n.unsigned_abs() > 1 << 40)
                            || x.unsigned_abs() > 1 << 40
                    );
                }
            }
            // Small values never need the steps.
            if amounts.iter().all(|n| n.unsigned_abs() < 100) {
                assert!(sum.apply(5).is_some());
            }
        }
        let not_adds = [Modifier::raw(K.key(), ModOp::AtLeast(3))];
        assert_eq!(AddRun::of(&not_adds), None);
    }
}

#[cfg(test)]
mod flag_word_tests {
    use crate::props::{ModOp, Modifier, Prop, PropKey, Props, Value};
    use crate::{Game, Loc, Thing, library::IS_CONTAINER};

    /// `Game::is` (the flag word) answers what `query` answers, through stored flags,
    /// defaults, values of other kinds, modifiers switched on and off, more flags than the
    /// word holds, writes, replacements and a save round trip; `check_invariants` checks
    /// every word.
    #[test]
    fn the_flag_word_answers_what_query_answers() {
        // 80 flag keys: more than the word's 61 positions.
        flag_word_against_query(80);
    }

    /// The same with fewer flags than the word holds, so that every flag stored gets a
    /// position and the word also answers for the flags no thing stores: ten keys never
    /// stored, one of which a worn ring sets through a modifier.
    #[test]
    fn the_flag_word_answers_for_flags_no_thing_stores() {
        flag_word_against_query(20);
    }

    /// `n` keys stored on things and written at random, ten more never stored (a worn ring
    /// sets the first of them), each read through `is` and `query` after every few steps.
    fn flag_word_against_query(n: usize) {
        const WORN: Prop<bool> = Prop::with_default("worn", false);
        const ON: Prop<bool> = Prop::with_default("on by default", true);
        const UNSTORED_ON: Prop<bool> = Prop::with_default("never stored, on", true);
        let keys: Vec<PropKey> = (0..n + 10)
            .map(|i| PropKey::new(&format!("flag{i}")))
            .collect();
        let flags: Vec<Prop<bool>> = keys.iter().map(|k| Prop::from_key(k.clone())).collect();
        let mut g = Game::new(3);
        let mut ids = Vec::new();
        for i in 0..12usize {
            let mut p = Props::new().with(&IS_CONTAINER, true);
            if i == 0 {
                // Stored on one thing only (so it gets a position): the others read its
                // default.
                p = p.with(&ON, false);
            }
            for (j, k) in keys.iter().enumerate().take(n).skip(i * 7).take(12) {
                let v = match (i + j) % 3 {
                    0 => Value::Bool(true),
                    1 => Value::Bool(false),
                    _ => Value::Int(1), // not a flag: reads false
                };
                p = p.with_raw(k, v);
            }
            ids.push(
                g.add_thing_mut(Loc::new(i as i32, 0, 0), Thing::new(p))
                    .expect("add"),
            );
        }
        // Carriers: a ring that sets flag 0 while worn, a curse that clears `ON`, an amulet
        // that sets a flag no thing stores.
        let ring = Thing::new(
            Props::new()
                .modifier(Modifier::raw(&keys[0], ModOp::Set(Value::Bool(true))).while_flag(&WORN)),
        );
        let ring = g.add_thing_mut(ids[1], ring).expect("ring");
        let curse = Thing::new(Props::new().modifier(Modifier::set(&ON, false)));
        let curse = g.add_thing_mut(ids[2], curse).expect("curse");
        let amulet = Thing::new(
            Props::new().modifier(Modifier::raw(&keys[n], ModOp::Set(Value::Bool(true)))),
        );
        let amulet = g.add_thing_mut(ids[3], amulet).expect("amulet");
        let check = |g: &Game| {
            g.check_invariants().expect("invariants");
            for &id in ids.iter().chain([ring, curse, amulet].iter()) {
                for f in flags
                    .iter()
                    .chain([&ON, &WORN, &IS_CONTAINER, &UNSTORED_ON])
                {
                    let want = g.query(id, f).unwrap_or(false);
                    assert_eq!(g.is(id, f), want, "{id} {f:?}");
                }
            }
        };
        check(&g);
        let mut x: u64 = 7;
        for step in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let id = ids[(x % 12) as usize];
            let f = &flags[((x >> 8) % n as u64) as usize];
            match (x >> 20) % 7 {
                0 => g.set_mut(id, f, (x >> 30).is_multiple_of(2)).expect("set"),
                1 => g
                    .set_mut(ring, &WORN, (x >> 30).is_multiple_of(2))
                    .expect("wear"),
                2 => g.move_thing_mut(ring, id).expect("move ring"),
                3 => g.move_thing_mut(curse, id).expect("move curse"),
                6 => g.move_thing_mut(amulet, id).expect("move amulet"),
                4 => {
                    let mut t = g.things().get(id).expect("thing").clone();
                    t.set_raw_mut(f.key(), Value::Int(2));
                    t.remove_prop_mut(flags[((x >> 40) % n as u64) as usize].key());
                    g.update_thing_mut(t).expect("update");
                }
                _ => {
                    let json = serde_json::to_string(&g).expect("save");
                    g = serde_json::from_str(&json).expect("load");
                }
            }
            if step % 10 == 0 {
                check(&g);
            }
        }
        check(&g);
    }
}

#[cfg(test)]
mod serde_order_tests {
    use super::*;
    use crate::props::Prop;

    #[test]
    fn a_thing_is_written_in_its_historical_field_order_and_read_back() {
        const HP: Prop<i32> = Prop::new("hp");
        let t = Thing::new(Props::new().with(&HP, 3));
        let json = serde_json::to_string(&t).expect("serialize");
        let keys: Vec<usize> = [
            "\"id\"",
            "\"place\"",
            "\"proto\"",
            "\"props\"",
            "\"mods\"",
            "\"contents\"",
        ]
        .iter()
        .map(|k| json.find(k).expect(k))
        .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{json}");
        assert!(!json.contains("carried"), "{json}");
        let back: Thing = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back, t);
    }
}
