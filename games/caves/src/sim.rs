//! Headless play: a policy chooses the player's commands, for soak tests and `alembic-sim`.

use alembic::{Error, Game, error::InvariantError};
use serde::{Deserialize, Serialize};

use super::bot::Bot;
use super::command::{Command, act_mut};
use super::kinds::Outcome;
use super::view::{outcome, status};
use super::world::new_game;

pub use crate::bot::SimPolicy;

/// The result of one headless game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimReport {
    /// The seed.
    pub seed: u64,
    /// The policy that played.
    pub policy: SimPolicy,
    /// Turns played.
    pub turns: u64,
    /// The deepest level reached, counting the top as 1.
    pub deepest: i32,
    /// How many levels the world has.
    pub levels: i32,
    /// `"won"`, `"died"` or `"playing"` (the turn budget ran out).
    pub outcome: String,
    /// The cause of death or victory, empty while playing.
    pub cause: String,
    /// Creatures the player killed.
    pub kills: i64,
    /// The final game value's [`state_hash`](Game::state_hash), as 16 hex digits.
    pub hash: String,
}

/// Why a headless game failed: always a bug.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// The engine refused a call.
    #[error("seed {seed}, turn {turn}: {source}")]
    Engine {
        /// The seed.
        seed: u64,
        /// The turn it happened on.
        turn: u64,
        /// The engine's error.
        source: Error,
    },
    /// The game value broke an invariant.
    #[error("seed {seed}, turn {turn}: broken invariant: {source}")]
    Invariant {
        /// The seed.
        seed: u64,
        /// The turn it happened on.
        turn: u64,
        /// The broken rule.
        source: InvariantError,
    },
}

/// Play `turns` turns of a new game from `seed` with `policy` (fewer if the game ends first),
/// checking the game's invariants at the end.
///
/// # Errors
/// [`SimError`]: a bug in the game or the engine.
pub fn simulate(seed: u64, turns: u64, policy: SimPolicy) -> Result<SimReport, SimError> {
    simulate_checked(seed, turns, policy, 0)
}

/// [`simulate`], also checking [`Game::check_invariants`] every `check_every` turns (0: only
/// at the start and the end).
///
/// # Errors
/// As [`simulate`].
pub fn simulate_checked(
    seed: u64,
    turns: u64,
    policy: SimPolicy,
    check_every: u64,
) -> Result<SimReport, SimError> {
    simulate_inner(seed, turns, policy, check_every, &mut |_, _, _| {})
}

/// [`simulate`], also giving every command that took a turn to `log` with the turn it was
/// given on and the game after it (to record the run).
///
/// # Errors
/// As [`simulate`].
pub fn simulate_logged(
    seed: u64,
    turns: u64,
    policy: SimPolicy,
    log: &mut dyn FnMut(u64, Command, &Game),
) -> Result<SimReport, SimError> {
    simulate_inner(seed, turns, policy, 0, log)
}

fn simulate_inner(
    seed: u64,
    turns: u64,
    policy: SimPolicy,
    check_every: u64,
    log: &mut dyn FnMut(u64, Command, &Game),
) -> Result<SimReport, SimError> {
    let engine = |turn: u64| move |source: Error| SimError::Engine { seed, turn, source };
    let mut g = new_game(seed).map_err(engine(0))?;
    check(&g, seed)?;
    let mut bot = Bot::new(seed);
    // Commands that take no turn (rock too hard to dig) are bounded too.
    let mut budget = turns.saturating_mul(4);
    while g.turn() < turns
        && budget > 0
        && outcome(&g).map_err(engine(g.turn()))? == Outcome::Playing
    {
        budget -= 1;
        let cmd = bot.choose(&g, policy).map_err(engine(g.turn()))?;
        let turn = g.turn();
        let took = act_mut(&mut g, cmd).map_err(engine(g.turn()))?;
        if took {
            log(turn, cmd, &g);
        }
        if took && check_every > 0 && g.turn().is_multiple_of(check_every) {
            check(&g, seed)?;
        }
    }
    check(&g, seed)?;
    report(&g, seed, policy).map_err(engine(g.turn()))
}

fn check(g: &Game, seed: u64) -> Result<(), SimError> {
    g.check_invariants().map_err(|source| SimError::Invariant {
        seed,
        turn: g.turn(),
        source,
    })
}

/// The report for a game played by `policy`.
///
/// # Errors
/// Engine errors for a game that is not a Caves game.
pub fn report(g: &Game, seed: u64, policy: SimPolicy) -> Result<SimReport, Error> {
    let s = status(g)?;
    Ok(SimReport {
        seed,
        policy,
        turns: s.turn,
        deepest: s.deepest + 1,
        levels: s.levels,
        outcome: match s.outcome {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Dead => "died",
        }
        .to_string(),
        cause: s.cause,
        kills: s.kills,
        hash: format!("{:016x}", g.state_hash()),
    })
}

/// A finished game's state hash after replaying `commands` from `seed`: the determinism
/// check (same seed and commands, same hash).
///
/// # Errors
/// Engine errors (a bug).
pub fn replay_hash(seed: u64, commands: &[Command]) -> Result<u64, Error> {
    let mut g = new_game(seed)?;
    for &c in commands {
        act_mut(&mut g, c)?;
    }
    Ok(g.state_hash())
}

/// The Caves' library in numbers: creatures (hunters among them) and tiles (the engine's
/// void included).
///
/// # Errors
/// Engine errors building the library (none for this fixed data).
pub fn library_counts() -> Result<Vec<(&'static str, usize)>, Error> {
    let lib = super::library::library()?;
    let creatures = lib.prototypes().count();
    let hunters = lib
        .prototypes()
        .filter(|p| p.is(&super::props::IS_HOSTILE))
        .count();
    Ok(vec![
        ("creatures", creatures),
        ("hunters", hunters),
        ("tiles", lib.tiles().count()),
    ])
}
