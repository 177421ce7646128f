//! Time on the engine's scheduler: who is awake, the world's answer to the player's action,
//! reinforcements and healing.

use alembic::schedule::{NORMAL_ACTION, TurnEnd};
use alembic::{Error, Game, HookCtx, ThingId};

use crate::geometry::{depth_of, random_empty_floor};
use crate::kinds::Outcome;
use crate::props::{HP, IS_HOSTILE, MAX_HP, REINFORCEMENTS};
use crate::rules::{MAX_HUNTERS, REGEN_EVERY, REINFORCE_ODDS, VIEW_RADIUS};
use crate::view::{creatures_on, is_hostile, outcome};

/// The most actions the world may take between two of the player's (a bound, never reached
/// in play: a level holds a few dozen creatures).
pub(crate) const MAX_WORLD_ACTIONS: usize = 100_000;

/// The world's answer to the player's action, on the engine's scheduler: the player's action
/// costs [`NORMAL_ACTION`], then every creature of the player's level due before the player's
/// next action takes its turn ([`Game::end_turn_mut`], in queue order; zombies, of
/// [`SPEED`](alembic::schedule::SPEED) 50, every other turn), stopping when the player is next or the
/// game is over; then reinforcements may come and the player heals a little. Only the
/// player's level is awake: the engine wakes the level the player arrives on and puts the one
/// left behind to sleep.
pub(crate) fn world_answer(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId) -> Result<(), Error> {
    if g.schedule().awake_levels().is_none() {
        // A game saved before the engine kept sleeping levels.
        let z = g.things().location(p)?.z;
        g.scheduler().set_awake_levels([z])?;
    }
    let over = |g: &Game| !outcome(g).is_ok_and(|o| o == Outcome::Playing);
    if g.end_turn_mut(ctx, p, NORMAL_ACTION, MAX_WORLD_ACTIONS, over)? != TurnEnd::Ready {
        return Ok(());
    }
    let z = g.things().location(p)?.z;
    if g.var(&REINFORCEMENTS)? && g.rng().one_in(1, REINFORCE_ODDS) {
        reinforce(g, ctx, p, z)?;
    }
    if g.turn().is_multiple_of(REGEN_EVERY) {
        let (hp, max) = (g.query(p, &HP)?, g.query(p, &MAX_HP)?);
        if hp < max {
            g.set_mut(p, &HP, hp + 1)?;
        }
    }
    Ok(())
}

/// A new hunter on level `z`, out of the player's sight, chosen by the library's random
/// creation among hostile prototypes of level 1 to depth + 1.
pub(crate) fn reinforce(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    p: ThingId,
    z: i32,
) -> Result<(), Error> {
    let depth = depth_of(z);
    let hunters = creatures_on(g, z)
        .into_iter()
        .filter(|&c| is_hostile(g, c))
        .count();
    if hunters >= MAX_HUNTERS + depth.max(0) as usize {
        return Ok(());
    }
    let name = g.random_name(&IS_HOSTILE, 1, depth + 1)?;
    let away = (g.things().location(p)?, VIEW_RADIUS + 3);
    if let Some(at) = random_empty_floor(g, z, Some(away))? {
        g.spawn_mut(ctx, &name, at)?;
    }
    Ok(())
}
