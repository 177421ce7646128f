//! Alchemy's recordings: the shared [`crate::record`] machinery with Alchemy's commands.

use std::path::Path;

use alembic::replay::Recording;

use crate::alchemy::Command;
pub use crate::record::{CHECKPOINT_EVERY, JournalError, RecordError, beside};

/// The game name in Alchemy recordings' headers.
pub const GAME_NAME: &str = "alchemy";

/// Appends the Alchemy game in play to its recording.
pub type Recorder = crate::record::Recorder<Command>;

/// Read an Alchemy recording.
///
/// # Errors
/// Unreadable, not a recording, a newer format, or another game's.
pub fn read(path: &Path) -> Result<Recording<Command>, RecordError> {
    crate::record::read(path, GAME_NAME)
}
