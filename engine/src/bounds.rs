//! Level bounds and stair links kept in the game value: the store behind
//! [`level`](crate::level). It names no game.

use rpds::RedBlackTreeMapSync;
use serde::{Deserialize, Serialize};

use crate::loc::{Loc, LocBox};

/// Level bounds and stair links, kept in the game value.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct LevelTable {
    pub(crate) bounds: RedBlackTreeMapSync<i32, LocBox>,
    pub(crate) stairs: RedBlackTreeMapSync<Loc, Loc>,
}

/// The saved form of [`LevelTable`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct LevelTableRepr {
    bounds: Vec<LocBox>,
    stairs: Vec<(Loc, Loc)>,
}

impl LevelTable {
    pub(crate) fn is_empty(&self) -> bool {
        self.bounds.is_empty() && self.stairs.is_empty()
    }

    pub(crate) fn to_repr(&self) -> LevelTableRepr {
        LevelTableRepr {
            bounds: self.bounds.values().copied().collect(),
            stairs: self.stairs.iter().map(|(a, b)| (*a, *b)).collect(),
        }
    }

    pub(crate) fn from_repr(r: LevelTableRepr) -> LevelTable {
        let mut l = LevelTable::default();
        for b in r.bounds {
            l.bounds.insert_mut(b.min.z, b);
        }
        for (a, b) in r.stairs {
            l.stairs.insert_mut(a, b);
        }
        l
    }

    pub(crate) fn hash_into<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        for b in self.bounds.values() {
            b.hash(state);
        }
        for (a, b) in self.stairs.iter() {
            a.hash(state);
            b.hash(state);
        }
    }
}
