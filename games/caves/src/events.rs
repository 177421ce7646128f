//! What happens in the Caves, as typed events: the rules say what happened, never how it
//! reads. [`text`](super::text) makes the English, and the player's message log is written
//! from the events the player perceives.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// One thing that happened, as the player perceives it. Creatures are named by their
/// prototypes' names ("cave bat").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    /// The game began.
    Arrived,
    /// The player hit a creature.
    YouHit {
        /// Its name.
        target: Arc<str>,
        /// Hit points taken.
        damage: i32,
    },
    /// A creature hit the player.
    HitYou {
        /// Its name.
        attacker: Arc<str>,
        /// How it hits ("bites").
        verb: Arc<str>,
        /// Hit points taken.
        damage: i32,
    },
    /// The player heard one creature hit another.
    Struck {
        /// The one hitting.
        attacker: Arc<str>,
        /// How it hits.
        verb: Arc<str>,
        /// The one hit.
        target: Arc<str>,
    },
    /// The player died.
    YouDied {
        /// The creature that killed them.
        killer: Arc<str>,
    },
    /// The player killed a creature.
    YouKilled {
        /// Its name.
        victim: Arc<str>,
    },
    /// The player heard a creature die.
    Died {
        /// Its name.
        victim: Arc<str>,
    },
    /// The player climbed out of the caves: the game is won.
    Escaped,
    /// The player took the stairs down.
    WentDown {
        /// The level reached, 1 = the top.
        level: i32,
        /// How many levels there are.
        levels: i32,
    },
    /// The player took the stairs up.
    WentUp {
        /// The level reached, 1 = the top.
        level: i32,
        /// How many levels there are.
        levels: i32,
    },
    /// The player heard a lichen grow.
    LichenGrew,
    /// The player picked up a gem.
    FoundGem {
        /// The gems they carry now.
        gems: i64,
    },
}
