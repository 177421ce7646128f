//! The Caves' score: the session files the morgue and enters the score table
//! (`caves-scores.json`) with it.

use crate::kinds::Outcome;
use crate::view::Status;

/// The Caves' score table in the data directory.
pub const SCORES_FILE: &str = "caves-scores.json";

/// The score of a game: 1,000 per level reached below the first, 100 per gem, 10 per kill,
/// 10,000 for escaping. A game quit at once scores nothing.
#[must_use]
pub fn score_of(s: &Status) -> u64 {
    let won = if s.outcome == Outcome::Won { 10_000 } else { 0 };
    u64::try_from(s.deepest.max(0)).unwrap_or(0) * 1_000
        + u64::try_from(s.gems.max(0)).unwrap_or(0) * 100
        + u64::try_from(s.kills.max(0)).unwrap_or(0) * 10
        + won
}
