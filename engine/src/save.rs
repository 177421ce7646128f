//! Saves by reference: a saved game names its library instead of copying it.
//!
//! A [`Game`] serializes whole, library included: right for undo, replays and tests. A save
//! file wants less. [`SavedGame::of`] stores the library's [`LibraryId`] plus only what play
//! changed in it (an identified potion kind), and each thing as its prototype's name plus
//! the properties where it differs from that prototype. [`SavedGame::link`] rebuilds the
//! game against the library of the running build, so a content fix reaches old saves, and
//! checks the game's invariants and that every hook it names is registered.
//!
//! # Formats and migration
//! [`SavedGame::from_json`] reads every format this engine ever wrote:
//! - format 1: a whole [`Game`] (library copied in). It is lifted by diffing its library
//!   against the current one, so what play changed is kept;
//! - format 2: this module's form, with the engine's keys under their 0.1 names;
//! - format 3 ([`SAVED_GAME_FORMAT`]): the same with the engine's keys named `alembic.…`.
//!
//! Reading a save written before 0.2 (formats 1 and 2) migrates what 0.2 changed, rather
//! than playing a silently different game: the engine's keys get their `alembic.` names
//! ([`SPEED`](crate::schedule::SPEED) was `speed`), a `"base …"` prototype of a format-1
//! library is abstract as its name made it in 0.1, and a format-1 game without an actor queue
//! gets every thing that [takes turns](crate::schedule::Schedule::takes_turns) queued. A layer
//! the game renamed is the game's to migrate: [`SavedGame::rename_layer_mut`].
//!
//! A game's own data migration (a prototype renamed between versions, say) goes between
//! reading and linking: the [`SavedGame`] is plain data, and
//! [`SavedGame::rename_prototype_mut`] and [`SavedGame::library_id`] are there for it.
//!
//! Costs: saving and linking are Θ(things · properties) plus Θ(prototypes) to diff the
//! library.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::game::{Game, GameRepr, SAVE_FORMAT};
use crate::grid::Grid;
use crate::hook::Hooks;
use crate::library::{Library, LibraryId, Prototype, TileDef};
use crate::loc::Loc;
use crate::migrate;
use crate::props::{Modifier, PropKey, PropMap, Value};
use crate::thing::{Core, IdList, Place, Thing, ThingId};

/// The format [`SavedGame`] writes.
pub const SAVED_GAME_FORMAT: u32 = crate::error::SAVED_GAME_FORMAT;

pub use crate::error::LoadError;

/// Check `game` against `base`, the running build's library, as a save written before the
/// current format is checked after its migration: every thing's prototype is one `base`
/// has, and every property a thing or a prototype of the game holds has the kind of value
/// `base`'s prototype of that name declares for it (hit points as text, say, are refused).
/// A game made by this build always passes. Θ(things · properties + prototypes ·
/// properties).
///
/// ```
/// use alembic::{Game, Library, Props, Prop, props::Value, save::check_against_library};
/// let hp: Prop<i64> = Prop::new("hp");
/// let lib = Library::new().proclaim("rat", None, Props::new().with(&hp, 4))?;
/// let mut g = Game::new(1).with_library(lib.clone());
/// let rat = g.spawn_plain_mut("rat", alembic::Loc::new(0, 0, 0))?;
/// assert!(check_against_library(&g, &lib).is_ok());
/// let mut t = g.things().get(rat)?.clone();
/// t.set_raw_mut(hp.key(), Value::Text("four".into()));
/// g.update_thing_mut(t)?;
/// assert!(check_against_library(&g, &lib).is_err());
/// # Ok::<(), alembic::Error>(())
/// ```
///
/// # Errors
/// [`LoadError::Disagrees`] naming the first disagreement found.
pub fn check_against_library(game: &Game, base: &Library) -> Result<(), LoadError> {
    let kinds = |what: &str, proto: &str, props: &PropMap| -> Result<(), LoadError> {
        let Ok(declared) = base.get(proto) else {
            return Ok(());
        };
        for (k, v) in props.iter() {
            if let Some(d) = declared.props().get(k)
                && d.kind() != v.kind()
            {
                return Err(LoadError::Disagrees(format!(
                    "{what} holds `{}` as {}, where the library's {proto:?} declares {}",
                    k.name(),
                    v.kind(),
                    d.kind()
                )));
            }
        }
        Ok(())
    };
    for p in game.library().prototypes() {
        kinds(
            &format!("the prototype {:?}", p.name()),
            p.name(),
            p.props(),
        )?;
    }
    for t in game.things().iter() {
        let Some(proto) = t.proto() else { continue };
        let id = t
            .id()
            .map_or_else(|| "a thing".to_owned(), |i| format!("thing {i}"));
        if !base.contains(proto) {
            return Err(LoadError::Disagrees(format!(
                "{id} is a {proto:?}, which the library does not have"
            )));
        }
        kinds(&format!("{id} (a {proto:?})"), proto, t.props())?;
    }
    Ok(())
}

/// How a prototype differs from the library's one of the same name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ProtoChange {
    name: Arc<str>,
    /// Properties added or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    set: Vec<(PropKey, Value)>,
    /// Properties removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unset: Vec<PropKey>,
}

/// What play changed in the library: prototypes changed, added (whole) or removed, and the
/// tile table when it differs at all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct LibraryChanges {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    changed: Vec<ProtoChange>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    added: Vec<Prototype>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    removed: Vec<Arc<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tiles: Option<Vec<TileDef>>,
}

/// A thing as saved: its prototype's name and where it differs from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedThing {
    id: ThingId,
    place: Place,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proto: Option<Arc<str>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    set: Vec<(PropKey, Value)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unset: Vec<PropKey>,
    /// Its modifiers, when they differ from its prototype's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mods: Option<Vec<Modifier>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    contents: Vec<ThingId>,
}

impl std::fmt::Debug for SavedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SavedGame")
            .field("format", &self.format)
            .field("library", &self.library)
            .field("things", &self.things.len())
            .finish_non_exhaustive()
    }
}

/// A game in its save-file form: the library by reference, things as differences from their
/// prototypes: a save file names the library it was played with, and loading links the game
/// to the running build's library ([`SavedGame::link`]).
///
/// ```
/// use alembic::{Game, Hooks, Library, Loc, Prop, Props, save::SavedGame};
/// const HP: Prop<i32> = Prop::new("hp");
/// const KNOWN: Prop<bool> = Prop::with_default("known", false);
/// let lib = Library::new()
///     .proclaim("rat", None, Props::new().with(&HP, 3))?
///     .proclaim("potion", None, Props::new())?
///     .named("demo", 1);
/// let mut g = Game::new(1).with_library(lib.clone());
/// let rat = g.add_thing_mut(Loc::new(0, 0, 0), g.library().create("rat")?)?;
/// g.set_mut(rat, &HP, 2)?; // hurt: differs from its prototype
/// g.library_mut().set_proto_prop_mut("potion", &KNOWN, true)?; // identified during play
///
/// let text = SavedGame::of(&g, &lib)?.to_json()?;
/// let back = SavedGame::from_json(&text, &lib)?.link(&lib, &Hooks::new())?;
/// assert_eq!(back, g);
///
/// // A content fix: rats now have 4 hp. The hurt rat keeps its 2; a fresh one gets 4.
/// let fixed = Library::new()
///     .proclaim("rat", None, Props::new().with(&HP, 4))?
///     .proclaim("potion", None, Props::new())?
///     .named("demo", 2);
/// let linked = SavedGame::from_json(&text, &fixed)?.link(&fixed, &Hooks::new())?;
/// assert_eq!(linked.query(rat, &HP)?, 2);
/// assert_eq!(linked.library().create("rat")?.get(&HP)?, 4);
/// assert!(linked.library().get("potion")?.is(&KNOWN)); // play's change survives
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct SavedGame {
    format: u32,
    /// Read from a format before [`SAVED_GAME_FORMAT`] and migrated: [`SavedGame::link`]
    /// then also holds it to the library ([`check_against_library`]).
    #[serde(skip)]
    migrated: bool,
    library: LibraryId,
    changes: LibraryChanges,
    things: Vec<SavedThing>,
    cells: Vec<(Loc, Vec<ThingId>)>,
    /// Everything else: turn, RNG, terrain, variables, log, layers, schedule, levels.
    rest: GameRepr,
}

fn diff(base: &PropMap, now: &PropMap) -> (Vec<(PropKey, Value)>, Vec<PropKey>) {
    let set = now
        .iter()
        .filter(|(k, v)| base.get(k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let unset = base
        .iter()
        .filter(|(k, _)| now.get(k).is_none())
        .map(|(k, _)| k.clone())
        .collect();
    (set, unset)
}

fn apply(base: &PropMap, set: &[(PropKey, Value)], unset: &[PropKey]) -> PropMap {
    let mut m = base.clone();
    for k in unset {
        m.remove_mut(k);
    }
    for (k, v) in set {
        m.insert_mut(k, v.clone());
    }
    m
}

/// The [`Game::state_hash`] of a whole game value in JSON (as games stored their saves
/// before saves by reference, with this hash as their checksum) as it was written: before
/// the migration of 0.2 renames the engine's keys, which changes the hash, and with the
/// message log, which the hash counted before 0.3. Check a 0.1 save's checksum with this,
/// then read the game (migrated) with `serde_json`.
///
/// # Errors
/// [`LoadError::Corrupt`] when the text is not a whole game value.
pub fn written_state_hash(json: &str) -> Result<u64, LoadError> {
    let repr: GameRepr =
        serde_json::from_str(json).map_err(|e| LoadError::Corrupt(e.to_string()))?;
    Game::from_repr_with(repr, false)
        .map(|g| g.state_hash_with_log())
        .map_err(LoadError::Corrupt)
}

impl SavedGame {
    /// The save form of `game`, whose library was made from `base` (the running build's).
    pub fn of(game: &Game, base: &Library) -> Result<SavedGame, Error> {
        let lib = game.library();
        let mut changes = LibraryChanges::default();
        for p in lib.protos.values() {
            match base.protos.get(&p.name) {
                Some(b) if Arc::ptr_eq(b, p) || **b == **p => {}
                Some(b) if b.parent == p.parent && b.mods == p.mods => {
                    let (set, unset) = diff(&b.props, &p.props);
                    changes.changed.push(ProtoChange {
                        name: p.name.clone(),
                        set,
                        unset,
                    });
                }
                _ => changes.added.push(Prototype::clone(p)),
            }
        }
        changes.removed = base
            .protos
            .keys()
            .filter(|k| !lib.protos.contains_key(*k))
            .cloned()
            .collect();
        if lib.tiles.iter().ne(base.tiles.iter()) {
            changes.tiles = Some(lib.tiles.iter().map(|t| TileDef::clone(t)).collect());
        }
        let mut things = Vec::with_capacity(game.things().count());
        for t in game.things().iter() {
            let (Some(id), Some(place)) = (t.core.id, t.place) else {
                continue;
            };
            let proto = t.core.proto.as_ref().and_then(|n| lib.protos.get(n));
            let empty = PropMap::new();
            let (set, unset) = diff(proto.map_or(&empty, |p| &p.props), &t.props);
            let same_mods = proto.map_or(t.core.mods.is_empty(), |p| p.mods == t.core.mods);
            things.push(SavedThing {
                id,
                place,
                proto: t.core.proto.clone(),
                set,
                unset,
                mods: (!same_mods).then(|| t.core.mods.to_vec()),
                contents: t.contents.as_slice().to_vec(),
            });
        }
        let mut rest = game.to_repr();
        let cells = game.cells_in_order();
        rest.library = Library::new();
        rest.things = Vec::new();
        rest.cells = Grid::new(IdList::default());
        Ok(SavedGame {
            format: SAVED_GAME_FORMAT,
            migrated: false,
            library: lib.id().clone(),
            changes,
            things,
            cells,
            rest,
        })
    }

    /// This save as JSON.
    pub fn to_json(&self) -> Result<String, LoadError> {
        serde_json::to_string(self).map_err(|e| LoadError::Corrupt(e.to_string()))
    }

    /// A saved game from JSON in any format this engine wrote (see the module docs): format
    /// 1 saves are lifted against `base`, the running build's library.
    pub fn from_json(text: &str, base: &Library) -> Result<SavedGame, LoadError> {
        #[derive(Deserialize)]
        struct Format {
            format: u64,
        }
        let f: Format =
            serde_json::from_str(text).map_err(|e| LoadError::Corrupt(e.to_string()))?;
        match f.format {
            1 if SAVE_FORMAT == 1 => {
                let game: Game =
                    serde_json::from_str(text).map_err(|e| LoadError::Corrupt(e.to_string()))?;
                let mut s = SavedGame::of(&game, base).map_err(LoadError::Hook)?;
                s.migrated = true;
                Ok(s)
            }
            2 => {
                let mut s: SavedGame =
                    serde_json::from_str(text).map_err(|e| LoadError::Corrupt(e.to_string()))?;
                s.migrate_keys_mut();
                s.migrated = true;
                Ok(s)
            }
            3 => serde_json::from_str(text).map_err(|e| LoadError::Corrupt(e.to_string())),
            n => Err(LoadError::UnsupportedFormat(n)),
        }
    }

    /// The library the save names.
    #[must_use]
    pub fn library_id(&self) -> &LibraryId {
        &self.library
    }

    /// A format-2 save's keys under their 0.2 names (the rest of the game is renamed when
    /// it is rebuilt, by the game loader).
    fn migrate_keys_mut(&mut self) {
        let pairs = |v: &mut Vec<(PropKey, Value)>| {
            for (k, _) in v.iter_mut() {
                *k = migrate::key(k);
            }
        };
        let keys = |v: &mut Vec<PropKey>| {
            for k in v.iter_mut() {
                *k = migrate::key(k);
            }
        };
        for t in &mut self.things {
            pairs(&mut t.set);
            keys(&mut t.unset);
            if let Some(m) = &mut t.mods {
                *m = m.iter().map(migrate::modifier).collect();
            }
        }
        for c in &mut self.changes.changed {
            pairs(&mut c.set);
            keys(&mut c.unset);
        }
        for p in &mut self.changes.added {
            *p = migrate::prototype(p);
        }
        self.format = SAVED_GAME_FORMAT;
    }

    /// The names of the layers the save holds (map memory and the like), for a game's own
    /// migration.
    pub fn layer_names(&self) -> impl Iterator<Item = &str> {
        self.rest.layers.iter().map(|(name, _)| &**name)
    }

    /// Rename a layer throughout the save, a game's own migration before linking: a game
    /// that renamed its map-memory layer keeps the player's memory instead of dropping it.
    /// Returns whether a layer of that name was there; a layer already called `to` is
    /// replaced.
    ///
    /// ```
    /// use alembic::layer::Layer;
    /// use alembic::save::SavedGame;
    /// use alembic::{Game, Hooks, Library, Loc};
    /// const OLD: Layer<u32> = Layer::new("seen");
    /// const NEW: Layer<u32> = Layer::new("mygame.seen");
    /// let lib = Library::new().named("mygame", 1);
    /// let mut g = Game::new(1).with_library(lib.clone());
    /// g.set_layer_mut(&OLD, Loc::new(2, 3, 0), 7);
    /// let mut save = SavedGame::of(&g, &lib)?;
    /// assert!(save.rename_layer_mut("seen", "mygame.seen"));
    /// let back = save.link(&lib, &Hooks::new())?;
    /// assert_eq!(back.layers().at(&NEW, Loc::new(2, 3, 0)), 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rename_layer_mut(&mut self, from: &str, to: &str) -> bool {
        if from == to || !self.rest.layers.iter().any(|(n, _)| &**n == from) {
            return from == to && self.layer_names().any(|n| n == from);
        }
        self.rest.layers.retain(|(n, _)| &**n != to);
        if let Some(l) = self.rest.layers.iter_mut().find(|(n, _)| &**n == from) {
            l.0 = Arc::from(to);
        }
        true
    }

    /// Rename a prototype throughout the save (a game's own migration, before linking).
    pub fn rename_prototype_mut(&mut self, from: &str, to: &str) {
        let to: Arc<str> = Arc::from(to);
        for t in &mut self.things {
            if t.proto.as_deref() == Some(from) {
                t.proto = Some(to.clone());
            }
        }
        for c in &mut self.changes.changed {
            if &*c.name == from {
                c.name = to.clone();
            }
        }
    }

    /// The game, rebuilt against `base` (the running build's library) with play's changes
    /// applied, verified, and with every hook it names found in `hooks`. A save read from an
    /// older format is also held to `base` ([`check_against_library`]): it links, but its
    /// things and prototypes must agree with the library as it stands.
    pub fn link(self, base: &Library, hooks: &Hooks) -> Result<Game, LoadError> {
        if self.library.name != base.id().name && !self.library.name.is_empty() {
            return Err(LoadError::WrongLibrary {
                saved: self.library.name.clone(),
                current: base.id().name.clone(),
            });
        }
        let mut lib = base.clone();
        for name in &self.changes.removed {
            lib.remove_proto(name);
        }
        for p in &self.changes.added {
            lib.put_proto(Arc::new(p.clone()));
        }
        for c in &self.changes.changed {
            if let Some(b) = lib.protos.get(&c.name) {
                let mut p = Prototype::clone(b);
                p.props = apply(&p.props, &c.set, &c.unset);
                lib.put_proto(Arc::new(p));
            }
        }
        if let Some(tiles) = &self.changes.tiles {
            lib.replace_tiles(tiles.clone());
        }
        let mut things = Vec::with_capacity(self.things.len());
        let empty = PropMap::new();
        for s in self.things {
            let proto = match &s.proto {
                Some(name) => {
                    Some(
                        lib.protos
                            .get(name)
                            .ok_or_else(|| LoadError::UnknownPrototype {
                                thing: s.id,
                                prototype: name.clone(),
                            })?,
                    )
                }
                None => None,
            };
            let props = apply(proto.map_or(&empty, |p| &p.props), &s.set, &s.unset);
            let mods = match s.mods {
                Some(m) => m.into(),
                None => proto.map_or_else(|| Arc::from(Vec::new()), |p| p.mods.clone()),
            };
            things.push(Thing {
                place: Some(s.place),
                props,
                contents: IdList::from_vec(s.contents),
                carried: None,
                core: Arc::new(Core {
                    id: Some(s.id),
                    proto: s.proto,
                    mods,
                }),
            });
        }
        let mut cells = Grid::new(IdList::default());
        for (loc, ids) in self.cells {
            cells.set_mut(loc, IdList::from_vec(ids));
        }
        let repr = GameRepr {
            library: lib,
            things,
            cells,
            ..self.rest
        };
        let game = Game::from_repr(repr).map_err(LoadError::Inconsistent)?;
        hooks.check(&game).map_err(LoadError::Hook)?;
        if self.migrated {
            // Written before this format and migrated: held to the library as it stands.
            check_against_library(&game, base)?;
        }
        Ok(game)
    }
}
