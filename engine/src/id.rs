//! Thing ids: the one name every part of the engine uses for a thing, kept at the bottom of
//! the crate (it names nothing of it) and re-exported from [`thing`](crate::thing).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The identity of a thing within one game (and all values derived from it). Ids are never
/// reused, so an old id can't silently name a new thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ThingId(pub u64);

impl fmt::Display for ThingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
