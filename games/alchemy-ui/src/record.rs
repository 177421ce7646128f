//! Alchemy's recordings: the shared [`alembic_session::record`] machinery with Alchemy's commands.

use std::path::Path;

use alembic::replay::Recording;

use alembic_alchemy::Command;
pub use alembic_session::record::{CHECKPOINT_EVERY, JournalError, RecordError, beside};

/// The game name in Alchemy recordings' headers.
pub const GAME_NAME: &str = "alchemy";

/// Appends the Alchemy game in play to its recording.
pub type Recorder = alembic_session::record::Recorder<Command>;

/// Read an Alchemy recording.
///
/// # Errors
/// Unreadable, not a recording, a newer format, or another game's.
pub fn read(path: &Path) -> Result<Recording<Command>, RecordError> {
    alembic_session::record::read(path, GAME_NAME)
}
