//! The prototype library: proclaimed things (prototypes inheriting from a parent) and
//! terrain tiles, living inside the game value and changeable during play (identifying a
//! potion changes its prototype). Hooks live in [`hook`](crate::Hooks).
//!
//! Costs: persistent maps throughout; clone Θ(1), lookup by name Θ(log prototypes),
//! `proclaim` Θ(log prototypes + properties), `create` Θ(1) (the new thing shares its
//! prototype's property table), `random_name` Θ(prototypes that can be picked).

use std::fmt;
use std::sync::Arc;

use rpds::{RedBlackTreeMapSync, VectorSync};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::props::{Hook, Modifier, Prop, PropKey, PropMap, PropType, Props, Value, ValueKind};
use crate::rng::GameRng;
use crate::thing::{Core, Thing};

/// Level of a prototype, for random creation windows (default 1).
pub const LEVEL: Prop<i32> = Prop::with_default("alembic.level", 1);
/// Relative frequency in random creation (default 100; 0 = never at random).
pub const FREQ: Prop<i32> = Prop::with_default("alembic.freq", 100);
/// Things flagged as containers can hold other things.
pub const IS_CONTAINER: Prop<bool> = Prop::with_default("is_container", false);
/// An abstract prototype: a parent to derive from, never created (by name or at random) and
/// left out of [`Library::concrete`]. Set on the prototype itself; its children do not
/// inherit it, so `proclaim("rat", Some("base rat"), …)` is concrete unless it says otherwise.
pub const ABSTRACT: Prop<bool> = Prop::with_default("alembic.abstract", false);
pub use crate::error::LibraryWarning;

/// The engine's keys as 0.1 named them, and their names since 0.2.
pub(crate) const LEGACY_KEYS: [(&str, &str); 5] = [
    ("speed", "alembic.speed"),
    ("level", "alembic.level"),
    ("freq", "alembic.freq"),
    ("abstract", "alembic.abstract"),
    ("on_action", "alembic.on_action"),
];

/// The engine's own keys and the kind of value it reads from each.
const ENGINE_KEYS: [(&str, ValueKind); 6] = [
    ("alembic.speed", ValueKind::Int),
    ("alembic.level", ValueKind::Int),
    ("alembic.freq", ValueKind::Int),
    ("alembic.abstract", ValueKind::Bool),
    ("alembic.on_action", ValueKind::Hook),
    ("alembic.acts", ValueKind::Bool),
];

/// A named template for things: properties and modifiers inherited from its parent.
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct Prototype {
    pub(crate) name: Arc<str>,
    pub(crate) parent: Option<Arc<str>>,
    pub(crate) props: PropMap,
    pub(crate) mods: Arc<[Modifier]>,
}

impl Prototype {
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The prototype it was derived from.
    #[must_use]
    pub fn parent(&self) -> Option<&str> {
        self.parent.as_deref()
    }

    /// Whether it was proclaimed with [`ABSTRACT`]: such prototypes are never created, at
    /// random or by name.
    #[must_use]
    pub fn is_abstract(&self) -> bool {
        self.props.flag(&ABSTRACT)
    }

    /// Its properties (inherited ones included).
    #[must_use]
    pub fn props(&self) -> &PropMap {
        &self.props
    }

    /// A typed property, or the key's default, or [`Error::MissingProperty`].
    pub fn get<T: PropType>(&self, key: &Prop<T>) -> Result<T, Error> {
        self.props.read(key)
    }

    /// Whether a flag is set.
    #[must_use]
    pub fn is(&self, flag: &Prop<bool>) -> bool {
        self.props.flag(flag)
    }

    /// The modifiers things of this kind apply to their holders.
    #[must_use]
    pub fn modifiers(&self) -> &[Modifier] {
        &self.mods
    }
}

/// A terrain tile kind: a name and properties (blocks movement, glyph, colour…).
#[derive(Clone, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct TileDef {
    name: Arc<str>,
    props: PropMap,
}

impl TileDef {
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its properties.
    #[must_use]
    pub fn props(&self) -> &PropMap {
        &self.props
    }

    /// A typed property, or the key's default, or [`Error::MissingProperty`].
    pub fn get<T: PropType>(&self, key: &Prop<T>) -> Result<T, Error> {
        self.props.read(key)
    }

    /// Whether a flag is set.
    #[must_use]
    pub fn is(&self, flag: &Prop<bool>) -> bool {
        self.props.flag(flag)
    }
}

/// Whether each tile kind sets one flag, by tile number: a column of the library's tile
/// flags ([`Library::tile_column`]). Reading it is one index, where
/// [`TileDef::is`] is a property lookup; hot loops (field of view, path costs, flood fills)
/// take the columns they need once and read them per cell. Clone Θ(1).
///
/// ```
/// use alembic::{Library, Prop, Props};
/// const IS_WALL: Prop<bool> = Prop::with_default("is_wall", false);
/// let mut lib = Library::new();
/// let floor = lib.define_tile_mut("floor", Props::new())?;
/// let wall = lib.define_tile_mut("wall", Props::new().with(&IS_WALL, true))?;
/// let walls = lib.tile_column(&IS_WALL);
/// assert!(walls.has(wall) && !walls.has(floor));
/// // The library keeps its columns up to date as tiles are defined again.
/// lib.define_tile_mut("floor", Props::new().with(&IS_WALL, true))?;
/// assert!(lib.tile_column(&IS_WALL).has(floor));
/// assert!(!walls.has(floor)); // a column taken earlier is a value: it does not change
/// # Ok::<(), alembic::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TileColumn(Arc<[bool]>);

impl TileColumn {
    /// Whether tile `id` sets the flag (`false` for a number the library does not have).
    #[inline]
    #[must_use]
    pub fn has(&self, id: TileId) -> bool {
        self.get(id).unwrap_or(false)
    }

    /// Whether tile `id` sets the flag, or `None` for a number the library does not have.
    #[inline]
    #[must_use]
    pub fn get(&self, id: TileId) -> Option<bool> {
        self.0.get(usize::from(id.0)).copied()
    }
}

/// The library's tile flags: for every flag some tile kind sets, which kinds set it. Derived
/// from the tiles and built again whenever a tile is defined or the tiles are replaced, so it
/// is never stale and never rebuilt per read; not saved, hashed or compared on its own (it
/// follows from the tiles). Θ(tiles × flags) to build.
#[derive(Clone, Debug, PartialEq, Default)]
struct TileFlags {
    /// One column per flag, sorted by key.
    columns: Arc<[(PropKey, TileColumn)]>,
    /// The column of a flag no tile sets: every tile `false`.
    none: TileColumn,
}

impl TileFlags {
    fn build(tiles: &VectorSync<Arc<TileDef>>) -> Self {
        let set = |t: &TileDef, k: &PropKey| matches!(t.props.get(k), Some(Value::Bool(true)));
        let mut keys: Vec<PropKey> = tiles
            .iter()
            .flat_map(|t| t.props.iter())
            .filter(|(_, v)| matches!(v, Value::Bool(true)))
            .map(|(k, _)| k.clone())
            .collect();
        keys.sort();
        keys.dedup();
        let columns = keys
            .into_iter()
            .map(|k| {
                let column = TileColumn(tiles.iter().map(|t| set(t, &k)).collect());
                (k, column)
            })
            .collect();
        TileFlags {
            columns,
            none: TileColumn(tiles.iter().map(|_| false).collect()),
        }
    }

    fn column(&self, key: &PropKey) -> &TileColumn {
        self.columns
            .binary_search_by(|(k, _)| k.cmp(key))
            .ok()
            .and_then(|i| self.columns.get(i))
            .map_or(&self.none, |(_, c)| c)
    }
}

/// A terrain tile's number in its library. Tile 0 is always `"void"`, the grid's default.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct TileId(pub u16);

/// Prototypes and tiles: the game's data, living inside the game value.
///
/// Persistent: clone Θ(1); `proclaim` Θ(log n + props); lookups Θ(log n). It can change during
/// play (identifying a potion marks its whole prototype identified).
///
/// ```
/// use alembic::{Library, Prop, Props};
/// use alembic::library::ABSTRACT;
/// const HPS: Prop<i32> = Prop::new("hps");
/// let lib = Library::new()
///     .proclaim("rodent", None, Props::new().with(&ABSTRACT, true).with(&HPS, 3)).unwrap()
///     .proclaim("giant rat", Some("rodent"), Props::new().with(&HPS, 8)).unwrap();
/// assert_eq!(lib.create("giant rat").unwrap().get(&HPS), Ok(8));
/// assert!(lib.create("rodent").is_err()); // abstract
/// assert!(!lib.get("giant rat").unwrap().is_abstract()); // not inherited
/// assert_eq!(lib.concrete().map(|p| p.name()).collect::<Vec<_>>(), ["giant rat"]);
/// ```
///
/// `Library` is `#[must_use]`: [`Library::proclaim`] returns the larger library and leaves the
/// old one as it was, so a dropped result is a warning (an error here):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use alembic::{Error, Library, Props};
/// fn add(lib: &Library) -> Result<(), Error> {
///     lib.proclaim("rat", None, Props::new())?; // the new library is dropped
///     Ok(())
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "LibraryData")]
#[must_use = "a persistent value: a method that returns one leaves the original unchanged"]
pub struct Library {
    pub(crate) protos: RedBlackTreeMapSync<Arc<str>, Arc<Prototype>>,
    pub(crate) tiles: VectorSync<Arc<TileDef>>,
    tile_names: RedBlackTreeMapSync<Arc<str>, TileId>,
    /// Which library this is, for saves that refer to it instead of copying it.
    #[serde(default)]
    pub(crate) id: LibraryId,
    /// Which tiles set each flag (derived from `tiles`, kept in step by every change).
    #[serde(skip)]
    tile_flags: TileFlags,
    /// The prototypes `random_name` can pick (derived from `protos`, kept in step by every
    /// change to them).
    #[serde(skip)]
    spawns: Spawns,
}

/// The prototypes [`Library::random_name`] can pick from: every one that is not abstract
/// and has a [`FREQ`] above 0, by name (the order of the prototypes), with its [`LEVEL`]
/// and `FREQ` read once. A pick then tests the flag of only the prototypes in the level
/// window, where it used to read three properties of every prototype (dungeon generation
/// asks hundreds of times).
///
/// A persistent map kept in step by every change to the prototypes
/// ([`Library::put_proto`], [`Library::remove_proto`]): each change works out one entry,
/// Θ(log prototypes). Derived data: not saved, hashed or compared.
#[derive(Clone, Default)]
struct Spawns(RedBlackTreeMapSync<Arc<str>, Spawn>);

/// One prototype [`Library::random_name`] can pick.
#[derive(Clone)]
struct Spawn {
    proto: Arc<Prototype>,
    level: i32,
    freq: u64,
}

impl Spawn {
    /// `p`'s entry, if [`Library::random_name`] can pick it.
    fn of(p: &Arc<Prototype>) -> Option<Spawn> {
        let freq = p.get(&FREQ).unwrap_or(0).max(0) as u64;
        (!p.is_abstract() && freq > 0).then(|| Spawn {
            proto: Arc::clone(p),
            level: p.get(&LEVEL).unwrap_or(1),
            freq,
        })
    }
}

impl PartialEq for Spawns {
    /// Always equal: the table follows from the prototypes, which are compared.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Spawns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Spawns").field(&self.0.size()).finish()
    }
}

impl Spawns {
    /// The table of every prototype of `protos`. Θ(prototypes).
    fn of(protos: &RedBlackTreeMapSync<Arc<str>, Arc<Prototype>>) -> Self {
        let mut t = RedBlackTreeMapSync::new_sync();
        for (name, p) in protos.iter() {
            if let Some(s) = Spawn::of(p) {
                t.insert_mut(name.clone(), s);
            }
        }
        Spawns(t)
    }
}

/// A library as stored: everything but what is derived from it.
#[derive(Deserialize)]
struct LibraryData {
    protos: RedBlackTreeMapSync<Arc<str>, Arc<Prototype>>,
    tiles: VectorSync<Arc<TileDef>>,
    tile_names: RedBlackTreeMapSync<Arc<str>, TileId>,
    #[serde(default)]
    id: LibraryId,
}

impl From<LibraryData> for Library {
    fn from(d: LibraryData) -> Self {
        Library {
            tile_flags: TileFlags::build(&d.tiles),
            spawns: Spawns::of(&d.protos),
            protos: d.protos,
            tiles: d.tiles,
            tile_names: d.tile_names,
            id: d.id,
        }
    }
}

/// A library's name and version. A save names the library it was played with instead of
/// copying it ([`SavedGame`](crate::save::SavedGame)), so that loading links it to the library of
/// the running build, content fixes included. Not part of a game's state hash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LibraryId {
    /// The game's name for its data, e.g. `"alchemy"`.
    pub name: Arc<str>,
    /// Raised when the data changes in a way old saves should know about.
    pub version: u32,
}

impl Default for Library {
    fn default() -> Self {
        Library::new()
    }
}

impl std::hash::Hash for Library {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for (k, v) in self.protos.iter() {
            k.hash(state);
            v.hash(state);
        }
        for t in self.tiles.iter() {
            t.hash(state);
        }
    }
}

impl Library {
    /// What in this library is legal but most likely a mistake ([`LibraryWarning`]), by
    /// prototype name. Θ(prototypes · properties).
    ///
    /// ```
    /// use alembic::library::{ABSTRACT, LibraryWarning};
    /// use alembic::{Library, Props};
    /// let lib = Library::new()
    ///     .proclaim("base monster", None, Props::new())?
    ///     .proclaim("orc", Some("base monster"), Props::new())?;
    /// assert!(matches!(lib.warnings()[..], [LibraryWarning::BaseNotAbstract { children: 1, .. }]));
    /// let fixed = Library::new()
    ///     .proclaim("base monster", None, Props::new().with(&ABSTRACT, true))?
    ///     .proclaim("orc", Some("base monster"), Props::new())?;
    /// assert!(fixed.warnings().is_empty());
    /// # Ok::<(), alembic::Error>(())
    /// ```
    #[must_use]
    pub fn warnings(&self) -> Vec<LibraryWarning> {
        let mut out = Vec::new();
        for p in self.protos.values() {
            if p.name.starts_with("base ") && !p.is_abstract() {
                let children = self
                    .protos
                    .values()
                    .filter(|c| c.parent.as_deref() == Some(&*p.name))
                    .count();
                if children > 0 {
                    out.push(LibraryWarning::BaseNotAbstract {
                        prototype: p.name.clone(),
                        children,
                    });
                }
            }
            for (k, v) in p.props.iter() {
                let name = k.name();
                if let Some(ns) = name.strip_prefix("alembic.") {
                    let problem = match ENGINE_KEYS.iter().find(|(n, _)| *n == name) {
                        None => Some(format!("but the engine has no key {ns:?}")),
                        Some((_, kind)) if *kind != v.kind() => {
                            Some(format!("which the engine reads as {kind}, to {}", v.kind()))
                        }
                        Some(_) => None,
                    };
                    if let Some(problem) = problem {
                        out.push(LibraryWarning::EngineKey {
                            prototype: p.name.clone(),
                            key: k.clone(),
                            problem,
                        });
                    }
                } else if let Some((old, now)) = LEGACY_KEYS.iter().find(|(old, _)| *old == name) {
                    out.push(LibraryWarning::LegacyKeyName {
                        prototype: p.name.clone(),
                        key: old,
                        now,
                    });
                }
            }
        }
        out
    }

    /// An empty library holding only the `"void"` tile (number 0).
    pub fn new() -> Self {
        let void = Arc::new(TileDef {
            name: Arc::from("void"),
            props: PropMap::new(),
        });
        let tiles = VectorSync::new_sync().push_back(void);
        Library {
            tile_flags: TileFlags::build(&tiles),
            spawns: Spawns::default(),
            protos: RedBlackTreeMapSync::new_sync(),
            tiles,
            tile_names: RedBlackTreeMapSync::new_sync().insert(Arc::from("void"), TileId(0)),
            id: LibraryId::default(),
        }
    }

    /// This library named `name` at `version` (see [`LibraryId`]).
    pub fn named(mut self, name: &str, version: u32) -> Self {
        self.id = LibraryId {
            name: Arc::from(name),
            version,
        };
        self
    }

    /// Its name and version.
    #[must_use]
    pub fn id(&self) -> &LibraryId {
        &self.id
    }

    /// A library with prototype `name` derived from `parent` (its properties and modifiers,
    /// overridden and extended by `props`).
    pub fn proclaim(&self, name: &str, parent: Option<&str>, props: Props) -> Result<Self, Error> {
        let mut lib = self.clone();
        lib.proclaim_mut(name, parent, props)?;
        Ok(lib)
    }

    /// In-place form of [`Library::proclaim`].
    pub fn proclaim_mut(
        &mut self,
        name: &str,
        parent: Option<&str>,
        props: Props,
    ) -> Result<(), Error> {
        if self.protos.contains_key(name) {
            return Err(Error::DuplicatePrototype(Arc::from(name)));
        }
        let (mut map, mut mods, parent) = match parent {
            Some(p) => {
                let pp = self
                    .protos
                    .get(p)
                    .ok_or_else(|| Error::UnknownPrototype(Arc::from(p)))?;
                let mut inherited = pp.props.clone();
                // Abstractness belongs to the prototype that says so, not to its children.
                inherited.remove_mut(ABSTRACT.key());
                (inherited, pp.mods.to_vec(), Some(pp.name.clone()))
            }
            None => (PropMap::new(), Vec::new(), None),
        };
        for (k, v) in props.map.iter() {
            map.insert_mut(k, v.clone());
        }
        mods.extend(props.mods);
        let name: Arc<str> = Arc::from(name);
        self.put_proto(Arc::new(Prototype {
            name,
            parent,
            props: map.frozen(),
            mods: mods.into(),
        }));
        Ok(())
    }

    /// Add or replace prototype `p` (every change to the prototypes goes through here or
    /// [`remove_proto`](Library::remove_proto), which keep `random_name`'s table in step).
    /// Θ(log prototypes).
    pub(crate) fn put_proto(&mut self, p: Arc<Prototype>) {
        match Spawn::of(&p) {
            Some(s) => self.spawns.0.insert_mut(p.name.clone(), s),
            None => {
                self.spawns.0.remove_mut(&p.name);
            }
        }
        self.protos.insert_mut(p.name.clone(), p);
    }

    /// Take prototype `name` out (see [`put_proto`](Library::put_proto)). Θ(log prototypes).
    pub(crate) fn remove_proto(&mut self, name: &str) {
        self.spawns.0.remove_mut(name);
        self.protos.remove_mut(name);
    }

    /// Change one property of an existing prototype (e.g. mark a potion kind identified).
    /// Things already created keep their own copies; read shared facts from the prototype.
    pub fn set_proto_prop_mut<T: PropType>(
        &mut self,
        name: &str,
        key: &Prop<T>,
        value: T,
    ) -> Result<(), Error> {
        let p = self
            .protos
            .get(name)
            .ok_or_else(|| Error::UnknownPrototype(Arc::from(name)))?;
        let mut p = Prototype::clone(p);
        p.props.insert_mut(key.key(), value.into_value());
        p.props = p.props.frozen();
        self.put_proto(Arc::new(p));
        Ok(())
    }

    /// The prototype called `name`.
    pub fn get(&self, name: &str) -> Result<&Prototype, Error> {
        self.protos
            .get(name)
            .map(|p| &**p)
            .ok_or_else(|| Error::UnknownPrototype(Arc::from(name)))
    }

    /// Whether `other`'s prototypes are this library's very own (one shared tree, as in a
    /// copy of the library that no prototype was added to or changed in since): then every
    /// [`get`](Library::get) reads the same in both. One pointer comparison; `false` says
    /// only that they may differ.
    #[must_use]
    pub fn same_prototypes(&self, other: &Library) -> bool {
        self.protos.ptr_eq(&other.protos)
    }

    /// Whether a prototype called `name` exists.
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.protos.contains_key(name)
    }

    /// Every prototype, by name (abstract ones included).
    pub fn prototypes(&self) -> impl Iterator<Item = &Prototype> {
        self.protos.values().map(|p| &**p)
    }

    /// The prototypes things can be made from, by name: every one but the [`ABSTRACT`].
    pub fn concrete(&self) -> impl Iterator<Item = &Prototype> {
        self.prototypes().filter(|p| !p.is_abstract())
    }

    /// Number of prototypes (abstract ones included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.protos.size()
    }

    /// Whether no prototype was proclaimed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.protos.is_empty()
    }

    /// A fresh thing from a concrete prototype (not yet in any game; no hooks run).
    pub fn create(&self, name: &str) -> Result<Thing, Error> {
        let p = self.get(name)?;
        if p.is_abstract() {
            return Err(Error::AbstractPrototype(p.name.clone()));
        }
        Ok(Thing {
            props: p.props.clone(),
            core: Arc::new(Core {
                id: None,
                proto: Some(p.name.clone()),
                mods: p.mods.clone(),
            }),
            ..Thing::default()
        })
    }

    /// Pick a concrete prototype at random among those with `flag` set and [`LEVEL`] within
    /// `min_level..=max_level`, weighted by [`FREQ`]. Θ(prototypes that are not abstract
    /// and have a `FREQ` above 0), from a table of those kept with the prototypes.
    pub fn random_name(
        &self,
        rng: &mut GameRng,
        flag: &Prop<bool>,
        min_level: i32,
        max_level: i32,
    ) -> Result<Arc<str>, Error> {
        let candidates: Vec<(&Arc<str>, u64)> = self
            .spawns
            .0
            .values()
            .filter(|s| (min_level..=max_level).contains(&s.level) && s.proto.is(flag))
            .map(|s| (&s.proto.name, s.freq))
            .collect();
        let total: u64 = candidates.iter().map(|c| c.1).sum();
        let none = || Error::NothingToCreate {
            flag: flag.key().clone(),
            min: min_level,
            max: max_level,
        };
        if total == 0 {
            return Err(none());
        }
        let mut pick = rng.below(total);
        for (name, f) in candidates {
            if pick < f {
                return Ok(name.clone());
            }
            pick -= f;
        }
        Err(none())
    }

    /// Define (or redefine) a terrain tile; returns its number.
    pub fn define_tile_mut(&mut self, name: &str, props: Props) -> Result<TileId, Error> {
        let def = Arc::new(TileDef {
            name: Arc::from(name),
            props: props.map.frozen(),
        });
        if let Some(id) = self.tile_names.get(name) {
            let id = *id;
            self.tiles.set_mut(usize::from(id.0), def);
            self.tile_flags = TileFlags::build(&self.tiles);
            return Ok(id);
        }
        let n = u16::try_from(self.tiles.len()).map_err(|_| Error::TooManyTiles)?;
        self.tiles.push_back_mut(def);
        self.tile_names.insert_mut(Arc::from(name), TileId(n));
        self.tile_flags = TileFlags::build(&self.tiles);
        Ok(TileId(n))
    }

    /// Replace the whole tile table (a save's own tiles), numbering them in order.
    pub(crate) fn replace_tiles(&mut self, tiles: Vec<TileDef>) {
        self.tiles = VectorSync::new_sync();
        self.tile_names = RedBlackTreeMapSync::new_sync();
        for (i, t) in tiles.into_iter().enumerate() {
            let id = TileId(u16::try_from(i).unwrap_or(u16::MAX));
            self.tile_names.insert_mut(t.name.clone(), id);
            self.tiles.push_back_mut(Arc::new(t));
        }
        self.tile_flags = TileFlags::build(&self.tiles);
    }

    /// The number of the tile called `name`.
    pub fn tile_id(&self, name: &str) -> Result<TileId, Error> {
        self.tile_names
            .get(name)
            .copied()
            .ok_or_else(|| Error::UnknownTile(Arc::from(name)))
    }

    /// The definition of tile `id`.
    pub fn tile(&self, id: TileId) -> Result<&TileDef, Error> {
        self.tiles
            .get(usize::from(id.0))
            .map(|t| &**t)
            .ok_or_else(|| Error::UnknownTileId(id.0))
    }

    /// Which tile kinds set `flag` (stored as `true`, as [`TileDef::is`] reads it), by
    /// tile number: kept by the library and rebuilt only when a tile is defined, so this is
    /// Θ(log flags) and one reference-count increment. See [`TileColumn`].
    pub fn tile_column(&self, flag: &Prop<bool>) -> TileColumn {
        self.tile_flags.column(flag.key()).clone()
    }

    /// Every tile, by number.
    pub fn tiles(&self) -> impl Iterator<Item = (TileId, &TileDef)> {
        self.tiles
            .iter()
            .enumerate()
            .map(|(i, t)| (TileId(i as u16), &**t))
    }

    /// Every hook name referenced by a prototype, a tile or `extra` things.
    pub(crate) fn hook_names<'a>(&'a self, out: &mut Vec<&'a Hook>) {
        for p in self.protos.values() {
            collect_hooks(&p.props, out);
        }
        for t in self.tiles.iter() {
            collect_hooks(&t.props, out);
        }
    }
}

pub(crate) fn collect_hooks<'a>(props: &'a PropMap, out: &mut Vec<&'a Hook>) {
    fn walk<'a>(v: &'a Value, out: &mut Vec<&'a Hook>) {
        match v {
            Value::Hook(h) => out.push(h),
            Value::List(l) => l.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    for (_, v) in props.iter() {
        walk(v, out);
    }
}
