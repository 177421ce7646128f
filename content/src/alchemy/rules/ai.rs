//! Monster behaviour: notice the hero (aggro range and sight), chase with the engine's A*,
//! remember where the hero was last seen, wander when idle, open doors if intelligent,
//! fight monsters of other families when flagged to.

use std::cell::RefCell;

use alembic::{Dir, Error, Game, Hooks, Loc, Pathfinder, Search, ThingId, VisibleSet};

use super::combat;
use super::world::{TileTable, blocker_at, creature_at, hero_sees, level_box, say, terrain_ok};
use crate::alchemy::props::{
    AGGRO, ATTACKS_MONSTERS, FAMILY, IS_CONFUSED, IS_DOOR, IS_FLYING, IS_HERO, IS_HOSTILE,
    IS_INTELLIGENT, IS_OPEN, LAST_SEEN,
};
use crate::alchemy::rules::doors;
use crate::alchemy::text::sentence;

/// Cost of a normal action.
pub const ACTION: i32 = 100;

thread_local! {
    static PATHS: RefCell<Pathfinder> = RefCell::new(Pathfinder::new());
}

/// What a monster does with one action. `view` is the hero's field of view this turn
/// (symmetric: the monster sees the hero exactly when the hero sees it). Returns the
/// action's cost (before speed).
pub fn act(
    game: &mut Game,
    hooks: &Hooks,
    m: ThingId,
    hero: ThingId,
    view: &VisibleSet,
) -> Result<i32, Error> {
    let at = game.location(m)?;
    let hero_at = game.location(hero)?;
    // Confusion: half the time, a random stagger.
    if game.is(m, &IS_CONFUSED) && game.rng().chance(0.5) {
        let d = random_dir(game);
        return step_or_bump(game, hooks, m, at + d, true);
    }
    let hostile = game.is(m, &IS_HOSTILE);
    if hostile && hero_at.z == at.z && view.contains(at) {
        let aggro = game.query(m, &AGGRO)?;
        if at.chebyshev(hero_at) <= u32::try_from(aggro.max(0)).unwrap_or(0) {
            game.set_mut(m, &LAST_SEEN, hero_at)?;
        }
    }
    let target = game.query_opt(m, &LAST_SEEN)?;
    match target {
        Some(t) if t == at => {
            // Reached the last sighting without finding the hero: forget it.
            clear_target(game, m)?;
            wander(game, hooks, m, at)
        }
        Some(t) => {
            if hostile && at.chebyshev(hero_at) == 1 && hero_at.z == at.z {
                combat::attack(game, hooks, m, hero)?;
                return Ok(ACTION);
            }
            match next_step(game, m, at, t) {
                Some(step) => step_or_bump(game, hooks, m, step, false),
                None => {
                    clear_target(game, m)?;
                    wander(game, hooks, m, at)
                }
            }
        }
        None => wander(game, hooks, m, at),
    }
}

fn clear_target(game: &mut Game, m: ThingId) -> Result<(), Error> {
    let mut t = game.get_thing(m)?.clone();
    t.remove_prop(LAST_SEEN.key());
    game.update_thing_mut(t)
}

fn random_dir(game: &mut Game) -> Dir {
    let i = game.rng().below(8) as usize;
    Dir::COMPASS[i]
}

fn wander(game: &mut Game, hooks: &Hooks, m: ThingId, at: Loc) -> Result<i32, Error> {
    if game.rng().chance(0.5) {
        return Ok(ACTION);
    }
    let d = random_dir(game);
    step_or_bump(game, hooks, m, at + d, true)
}

/// The first step of a path from `at` toward `goal` for `m`: A* over terrain it can cross,
/// through doors it can open, around other creatures (at a price).
fn next_step(game: &Game, m: ThingId, at: Loc, goal: Loc) -> Option<Loc> {
    let intelligent = game.is(m, &IS_INTELLIGENT);
    let flying = game.is(m, &IS_FLYING);
    let table = TileTable::new(game);
    let crossable = |l: Loc| !table.blocks(game, l) && (flying || !table.dangerous(game, l));
    let cost = |_: Loc, to: Loc| -> Option<u32> {
        if to == goal {
            return crossable(to).then_some(10);
        }
        if !crossable(to) {
            return None;
        }
        if let Some(b) = blocker_at(game, to) {
            if intelligent && game.is(b, &IS_DOOR) {
                return Some(20);
            }
            return None;
        }
        if creature_at(game, to).is_some() {
            return Some(40);
        }
        Some(10)
    };
    let search = Search::new(level_box(at.z))
        .max_explored(600)
        .move_costs(10, 10);
    PATHS.with(|p| {
        p.borrow_mut()
            .astar(at, goal, &search, cost)
            .ok()
            .and_then(|path| path.first_step())
    })
}

/// Move `m` into `to`, or do what bumping there means: attack the hero (or a monster of
/// another family if it fights monsters), open a door (if intelligent), or nothing.
fn step_or_bump(
    game: &mut Game,
    hooks: &Hooks,
    m: ThingId,
    to: Loc,
    idle: bool,
) -> Result<i32, Error> {
    if let Some(c) = creature_at(game, to) {
        if c == m {
            return Ok(ACTION);
        }
        let hero = game.is(c, &IS_HERO);
        let fights_hero = hero && game.is(m, &IS_HOSTILE) && !idle;
        let fights_monster = !hero
            && game.is(m, &ATTACKS_MONSTERS)
            && game.query_opt(m, &FAMILY)? != game.query_opt(c, &FAMILY)?;
        if fights_hero || fights_monster {
            combat::attack(game, hooks, m, c)?;
        }
        return Ok(ACTION);
    }
    if let Some(b) = blocker_at(game, to) {
        if game.is(b, &IS_DOOR) && !game.is(b, &IS_OPEN) && game.is(m, &IS_INTELLIGENT) {
            doors::set_open(game, b, true)?;
            if hero_sees(game, to) {
                let t = sentence(game, m, "open", "a door")?;
                say(game, t);
            }
        }
        return Ok(ACTION);
    }
    if terrain_ok(game, m, to) {
        game.move_thing_mut(m, to)?;
    }
    Ok(ACTION)
}
