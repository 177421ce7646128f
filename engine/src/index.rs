//! The flag indexes kept in the game value: flag key → the ids whose own flag is true. The
//! store behind [`indexes`](crate::indexes); it names no game.

use rpds::{RedBlackTreeMapSync, RedBlackTreeSetSync};

use crate::props::{PropKey, Value};
use crate::thing::{Thing, ThingId};

/// The persistent indexes of one game: flag key → the ids whose own flag is true.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FlagIndexes {
    map: RedBlackTreeMapSync<PropKey, RedBlackTreeSetSync<ThingId>>,
}

/// Whether `t`'s own flag `key` is set.
pub(crate) fn flagged(t: &Thing, key: &PropKey) -> bool {
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
