//! Time: action points and speed. A hero action of cost `c` takes `100·c/speed` time; the
//! world then advances by that much: effects tick, every monster on the level banks the
//! time and acts while it has some (each action costs it `100·c/its speed`), wandering
//! monsters may appear out of sight, and the hero's map memory is updated.

use alembic::{Error, Game, Hooks};

use super::ai;
use super::effects;
use super::memory::remember;
use super::world::{creatures_on_level, hero, hero_view, random_floor};
use crate::alchemy::props::{APS, GAME_OVER, IS_CREATURE, REGEN_ACC, SPEED, TG, TIME};

/// Most actions a monster may take in one world step (a safety net against huge speeds).
const MAX_ACTIONS: usize = 8;

/// Time an action of `cost` takes an actor of `speed`.
#[must_use]
pub fn action_time(cost: i32, speed: i32) -> i32 {
    (100 * cost / speed.max(10)).max(1)
}

/// Advance the world by `elapsed` time after a hero action.
pub fn end_turn(game: &mut Game, hooks: &Hooks, elapsed: i32) -> Result<(), Error> {
    let h = hero(game)?;
    let now = game.var(&TIME).unwrap_or(0) + i64::from(elapsed);
    game.set_var_mut(&TIME, now);
    game.set_turn_mut(game.turn() + 1);
    effects::tick(game, hooks, h, elapsed)?;
    natural_healing(game, h, elapsed)?;
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Ok(());
    }
    let z = game.location(h)?.z;
    let view = hero_view(game)?;
    for m in creatures_on_level(game, z) {
        if m == h || !game.contains(m) {
            continue;
        }
        effects::tick(game, hooks, m, elapsed)?;
        let mut aps = game.query(m, &APS)? + elapsed;
        let mut n = 0;
        while aps > 0 && n < MAX_ACTIONS && game.contains(m) {
            let cost = ai::act(game, hooks, m, h, &view)?;
            let speed = if game.contains(m) {
                game.query(m, &SPEED)?
            } else {
                100
            };
            aps -= action_time(cost, speed);
            n += 1;
            if game.var(&GAME_OVER).unwrap_or(false) {
                break;
            }
        }
        if game.contains(m) {
            game.set_mut(m, &APS, aps.min(100))?;
        }
        if game.var(&GAME_OVER).unwrap_or(false) {
            return Ok(());
        }
    }
    wandering_monsters(game, hooks, z, elapsed)?;
    let view = hero_view(game)?;
    remember(game, &view);
    Ok(())
}

/// The hero slowly recovers: one hit point per `5000 / TG` time (about every six turns).
fn natural_healing(game: &mut Game, h: alembic::ThingId, elapsed: i32) -> Result<(), Error> {
    let tg = game.query(h, &TG)?.max(1);
    let acc = game.var(&REGEN_ACC).unwrap_or(0) + i64::from(elapsed) * i64::from(tg);
    let whole = acc / 5000;
    game.set_var_mut(&REGEN_ACC, acc - whole * 5000);
    if whole > 0 {
        super::combat::heal(game, h, i32::try_from(whole).unwrap_or(1))?;
    }
    Ok(())
}

/// Now and then a monster turns up somewhere the hero cannot see.
fn wandering_monsters(game: &mut Game, hooks: &Hooks, z: i32, elapsed: i32) -> Result<(), Error> {
    // About one every 250 turns.
    if !game.rng().chance(f64::from(elapsed) / 25_000.0) {
        return Ok(());
    }
    let h = hero(game)?;
    let at = game.location(h)?;
    let view = hero_view(game)?;
    let Some(l) = random_floor(game, z, 50, |_, l| {
        !view.contains(l) && l.chebyshev(at) > 10
    }) else {
        return Ok(());
    };
    let depth = -z;
    let lib = game.library().clone();
    if let Ok(name) = lib.random_name(game.rng(), &IS_CREATURE, (depth - 3).max(1), depth + 1) {
        game.spawn_mut(hooks, &name, l)?;
    }
    Ok(())
}
