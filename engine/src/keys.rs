//! The engine's own property keys that its core reads (hook names, what makes a thing take
//! turns, how fast it acts), below the game value so that it can read them; re-exported
//! from [`hook`](crate::hook) and [`schedule`](crate::schedule).

use crate::props::{Hook, Prop};

/// Hook run by [`Game::spawn_mut`](crate::Game::spawn_mut) right after the thing is added.
pub const ON_CREATE: Prop<Hook> = Prop::new("on_create");
/// Hook run when the thing takes its turn (game-defined).
pub const ON_ACTION: Prop<Hook> = Prop::new("alembic.on_action");
/// Hook run when the thing is consumed (quaffed, eaten…).
pub const ON_CONSUME: Prop<Hook> = Prop::new("on_consume");
/// Hook run when the thing dies or is destroyed.
pub const ON_DEATH: Prop<Hook> = Prop::new("on_death");
/// Hook run when the thing is used or bumped into.
pub const ON_USE: Prop<Hook> = Prop::new("on_use");
/// Hook run when the thing hits another (weapons, creatures with on-hit effects).
pub const ON_HIT: Prop<Hook> = Prop::new("on_hit");
/// Hook run as time passes for the thing (effects ticking).
pub const ON_TICK: Prop<Hook> = Prop::new("on_tick");

/// How fast a thing acts (100 = normal, 200 = twice as often, 50 = half as often). Read with
/// modifiers applied, so a potion of speed works. Values below 1 count as 1.
pub const SPEED: Prop<i32> = Prop::with_default("alembic.speed", 100);

/// A thing flagged `ACTS` takes turns (as does a thing with an
/// [`ON_ACTION`](crate::hook::ON_ACTION) hook): spawning it queues it, and so does waking its
/// level. See [`Schedule::takes_turns`](crate::schedule::Schedule::takes_turns).
pub const ACTS: Prop<bool> = Prop::with_default("alembic.acts", false);
