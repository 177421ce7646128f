//! The Caves' hook registry: every behaviour a prototype names ([`ON_ACTION`](alembic::hook::ON_ACTION)
//! for its turn, [`ON_USE`](alembic::hook::ON_USE) for what happens when something touches
//! it). An unregistered name is an error ([`Hooks::check`](alembic::Hooks::check)
//! runs when a game is made), never a silent fallback.

use alembic::{Error, Hooks};

use super::rules;

// ----- hooks ---------------------------------------------------------------------------------

/// Hook names, as the prototypes reference them.
pub(crate) const HOOK_LICHEN: &str = "caves.lichen";
pub(crate) const HOOK_BUNNY: &str = "caves.bunny";
pub(crate) const HOOK_SILVERFISH: &str = "caves.silverfish";
pub(crate) const HOOK_BAT: &str = "caves.bat";
pub(crate) const HOOK_ZOMBIE: &str = "caves.zombie";
pub(crate) const HOOK_STING: &str = "caves.sting";

/// The Caves' behaviour registry: every hook a Caves prototype names. Built on each call
/// (six entries in a small map, about a microsecond): no registry lives in a global; the
/// caller keeps it for as long as it needs it and passes it to every call that may run a
/// hook.
///
/// # Errors
/// Only if two hooks were registered under one name (a programming error, reported rather
/// than panicking).
pub fn hooks() -> Result<Hooks, Error> {
    Hooks::new()
        .register(HOOK_LICHEN, rules::lichen_turn)?
        .register(HOOK_BUNNY, rules::bunny_turn)?
        .register(HOOK_SILVERFISH, rules::silverfish_turn)?
        .register(HOOK_BAT, rules::bat_turn)?
        .register(HOOK_ZOMBIE, rules::zombie_turn)?
        .register(HOOK_STING, rules::lichen_sting)
}
