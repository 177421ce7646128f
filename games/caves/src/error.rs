//! Why a Caves command does nothing: a [`Refusal`] (a rule said no; no time passes and the
//! game is unchanged) or an engine error (a bug).

use alembic::Error;

/// A rule that said no. Its `Display` is the English the player reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Refusal {
    /// Digging into the level's border.
    #[error("This rock is too hard to dig.")]
    RockTooHard,
    /// Going down where there are no stairs down.
    #[error("There are no stairs down here.")]
    NoStairsDown,
    /// Going up where there are no stairs up.
    #[error("There are no stairs up here.")]
    NoStairsUp,
    /// No free cell at the other end of the stairs.
    #[error("Something blocks the stairs.")]
    StairsBlocked,
    /// The game is won or lost.
    #[error("The game is over.")]
    GameOver,
}

/// Why [`play`](super::play) did nothing.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// A rule said no: nothing changed and no time passed.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The engine refused a call (a bug); the game passed in is unchanged.
    #[error(transparent)]
    Engine(#[from] Error),
}
