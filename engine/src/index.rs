//! Flag indexes: the things whose flag is set, kept up to date by every change.
//!
//! A game registers the flags it asks about every turn ("creature", "hostile") with
//! [`Game::index_flag_mut`]; from then on [`Game::things_with`] answers from a persistent set
//! instead of scanning every thing. The indexes live in the game value, so undo, replays and
//! saves carry them, and [`Game::check_invariants`] rebuilds each one and compares.
//!
//! An index reads a thing's *own* flag (its stored property, as [`Thing::is`] does): modifiers
//! from carried things are not applied, because they change without the thing changing.
//!
//! Costs: [`Game::things_with`] is Θ(answers); each add, remove, update or `set` of an indexed
//! flag costs Θ(indexed flags · log answers) more; other writes cost one comparison.

use std::sync::Arc;

use rpds::{RedBlackTreeMapSync, RedBlackTreeSetSync};

use crate::error::InvariantError;
use crate::game::Game;
use crate::props::{Prop, PropKey, Value};
use crate::thing::{Place, Thing, ThingId};

/// The persistent indexes of one game: flag key → the ids whose own flag is true.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FlagIndexes {
    map: RedBlackTreeMapSync<PropKey, RedBlackTreeSetSync<ThingId>>,
}

/// Whether `t`'s own flag `key` is set.
fn flagged(t: &Thing, key: &PropKey) -> bool {
    matches!(t.props.get(key), Some(Value::Bool(true)))
}

impl FlagIndexes {
    /// The indexed keys, sorted.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &PropKey> {
        self.map.keys()
    }

    /// Whether no flag is indexed.
    pub(crate) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Whether `key` is indexed.
    pub(crate) fn contains(&self, key: &PropKey) -> bool {
        self.map.contains_key(key)
    }

    /// The ids indexed under `key`.
    pub(crate) fn get(&self, key: &PropKey) -> Option<&RedBlackTreeSetSync<ThingId>> {
        self.map.get(key)
    }

    /// Index `key` over `things` (replacing any index of it).
    pub(crate) fn build<'a>(&mut self, key: PropKey, things: impl Iterator<Item = &'a Thing>) {
        let mut set = RedBlackTreeSetSync::new_sync();
        for t in things {
            if let Some(id) = t.core.id
                && flagged(t, &key)
            {
                set.insert_mut(id);
            }
        }
        self.map.insert_mut(key, set);
    }

    /// Keep every index true when thing `id` changes from `old` to `new` (`None` = absent).
    pub(crate) fn update(&mut self, id: ThingId, old: Option<&Thing>, new: Option<&Thing>) {
        if self.map.is_empty() {
            return;
        }
        let changed: Vec<(PropKey, bool)> = self
            .map
            .keys()
            .filter_map(|k| {
                let was = old.is_some_and(|t| flagged(t, k));
                let now = new.is_some_and(|t| flagged(t, k));
                (was != now).then(|| (k.clone(), now))
            })
            .collect();
        for (k, now) in changed {
            if let Some(set) = self.map.get_mut(&k) {
                if now {
                    set.insert_mut(id);
                } else {
                    set.remove_mut(&id);
                }
            }
        }
    }

    /// Whether only `key`'s index could change when `key` is written.
    pub(crate) fn watches(&self, key: &PropKey) -> bool {
        self.map.contains_key(key)
    }
}

impl Game {
    /// Keep an index of the things whose own flag `flag` is set, so that
    /// [`Game::things_with`] answers in Θ(answers). Indexing a flag twice changes nothing.
    /// Θ(things) once; then each change to a thing costs Θ(log answers) per indexed flag.
    ///
    /// ```
    /// use alembic::{Game, Loc, Prop, Props, Thing};
    /// const CREATURE: Prop<bool> = Prop::with_default("creature", false);
    /// let mut g = Game::new(1);
    /// g.index_flag_mut(&CREATURE);
    /// let rat = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new().with(&CREATURE, true)))?;
    /// let rock = g.add_thing_mut(Loc::new(1, 0, 0), Thing::new(Props::new()))?;
    /// assert_eq!(g.things_with(&CREATURE), vec![rat]);
    /// g.set_mut(rock, &CREATURE, true)?; // a rock comes alive
    /// assert_eq!(g.things_with(&CREATURE), vec![rat, rock]);
    /// g.remove_thing_mut(rat)?;
    /// assert_eq!(g.things_with(&CREATURE), vec![rock]);
    /// g.check_invariants()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_flag_mut(&mut self, flag: &Prop<bool>) {
        if self.rare.indexes.contains(flag.key()) {
            return;
        }
        let mut indexes = self.rare.indexes.clone();
        indexes.build(flag.key().clone(), self.all_things());
        Arc::make_mut(&mut self.rare).indexes = indexes;
    }

    /// A game that also indexes `flag` (see [`Game::index_flag_mut`]).
    pub fn index_flag(&self, flag: &Prop<bool>) -> Game {
        let mut g = self.clone();
        g.index_flag_mut(flag);
        g
    }

    /// Whether `flag` is indexed.
    #[must_use]
    pub fn is_indexed(&self, flag: &Prop<bool>) -> bool {
        self.rare.indexes.contains(flag.key())
    }

    /// The ids of the things whose own flag `flag` is set (modifiers not applied), in id
    /// order. Θ(answers) when `flag` is indexed; otherwise a scan of every thing.
    #[must_use]
    pub fn things_with(&self, flag: &Prop<bool>) -> Vec<ThingId> {
        match self.rare.indexes.get(flag.key()) {
            Some(set) => set.iter().copied().collect(),
            None => self
                .all_things()
                .filter(|t| flagged(t, flag.key()))
                .filter_map(|t| t.core.id)
                .collect(),
        }
    }

    /// The things on the map on level `z` whose own flag `flag` is set, in id order: the
    /// per-level question most games ask ("the creatures on this level"). Θ(answers on every
    /// level) when `flag` is indexed; otherwise a scan of the things on level `z`.
    ///
    /// ```
    /// use alembic::{Game, Loc, Prop, Props, Thing};
    /// const CREATURE: Prop<bool> = Prop::with_default("creature", false);
    /// let mut g = Game::new(1);
    /// g.index_flag_mut(&CREATURE);
    /// let rat = |z| Thing::new(Props::new().with(&CREATURE, true));
    /// let up = g.add_thing_mut(Loc::new(0, 0, 0), rat(0))?;
    /// let down = g.add_thing_mut(Loc::new(0, 0, 1), rat(1))?;
    /// assert_eq!(g.things_with_on_level(&CREATURE, 1), vec![down]);
    /// # Ok::<(), alembic::Error>(())
    /// ```
    #[must_use]
    pub fn things_with_on_level(&self, flag: &Prop<bool>, z: i32) -> Vec<ThingId> {
        let on_level = |id: &ThingId| matches!(self.place(*id), Ok(Place::Map(l)) if l.z == z);
        match self.rare.indexes.get(flag.key()) {
            Some(set) => set.iter().copied().filter(on_level).collect(),
            None => {
                let mut ids: Vec<ThingId> = self
                    .things_on_level(z)
                    .into_iter()
                    .flat_map(|(_, ids)| ids.iter().copied())
                    .filter(|&id| self.get_thing(id).is_ok_and(|t| flagged(t, flag.key())))
                    .collect();
                ids.sort_unstable();
                ids
            }
        }
    }

    /// Every indexed flag's set equals a fresh scan.
    pub(crate) fn check_indexes(&self) -> Result<(), InvariantError> {
        for key in self.rare.indexes.keys() {
            let mut fresh = FlagIndexes::default();
            fresh.build(key.clone(), self.all_things());
            if fresh.get(key) != self.rare.indexes.get(key) {
                return Err(InvariantError::StaleIndex(key.clone()));
            }
        }
        Ok(())
    }
}
