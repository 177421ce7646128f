//! Monster behaviour: notice the hero (aggro range and sight, less surely far away, later in
//! darkness: `rules::light`), chase with the engine's A*,
//! remember where the hero was last seen, wander when idle, open doors if intelligent,
//! hunt monsters of other families when flagged to (and fight back when attacked).

use alembic::{Dir, Error, Game, HookCtx, Loc, LocBox, ThingId, fov::VisibleSet, path::Search};

use super::combat;
use super::light;
use super::world::{
    TileTable, blocker_at, creature_at, hero_sees, level_box, sees_with, terrain_ok,
};
use crate::events::{Event, Noun, emit};
use crate::props::{
    AGGRO, ATTACKS_MONSTERS, FAMILY, FOE, IS_CONFUSED, IS_CREATURE, IS_DOOR, IS_FLYING, IS_HERO,
    IS_HOSTILE, IS_INTELLIGENT, IS_OPEN, LAST_SEEN,
};
use crate::rules::doors;

/// Cost of a normal action.
pub const ACTION: i32 = 100;

/// What a monster does with one action. `view` is the hero's field of view this turn
/// (symmetric: the monster sees the hero exactly when the hero sees it). These are the
/// cheap rules: a cunning monster in a fight chooses by search instead (`rules::cunning`,
/// called from the world's step), and inside its searched futures every monster plays by
/// these. Returns the action's cost (before speed).
pub fn act(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    m: ThingId,
    hero: ThingId,
    view: &VisibleSet,
    table: &TileTable,
) -> Result<i32, Error> {
    let at = game.things().location(m)?;
    let hero_at = game.things().location(hero)?;
    // Confusion: half the time, a random stagger.
    if game.is(m, &IS_CONFUSED) && game.rng().chance(0.5) {
        let d = random_dir(game);
        return step_or_bump(game, ctx, m, at + d, true);
    }
    let hostile = game.is(m, &IS_HOSTILE);
    if hostile && hero_at.z == at.z && view.contains(at) {
        let d = at.chebyshev(hero_at);
        // Darkness hides the hero: a monster notices a hero in darkness only nearer
        // (`rules::light`). Whether the hero's cell is lit is asked only when it matters.
        let hunting = game.query_opt(m, &LAST_SEEN)?.is_some();
        let aggro = if d <= 2 || hunting {
            u32::try_from(game.query(m, &AGGRO)?.max(0)).unwrap_or(0)
        } else {
            light::notice_range(game, m, light::lit(game, table, hero_at))?
        };
        if d <= aggro && notices(game, m, d, aggro)? {
            game.set_mut(m, &LAST_SEEN, hero_at)?;
        }
    }
    // The hero first: chase the last sighting, attack when beside it.
    if let Some(t) = game.query_opt(m, &LAST_SEEN)? {
        if t == at {
            // Reached the last sighting without finding the hero: forget it.
            clear_target(game, m)?;
        } else {
            if hostile && at.chebyshev(hero_at) == 1 && hero_at.z == at.z {
                combat::attack(game, ctx, m, hero)?;
                return Ok(ACTION);
            }
            match next_step(game, table, m, at, t) {
                Some(step) => return step_or_bump(game, ctx, m, step, false),
                None => clear_target(game, m)?,
            }
        }
    }
    // Then another monster it is fighting (or, if it hunts monsters, one it can see).
    if let Some(c) = foe(game, table, m, at)? {
        let cat = game.things().location(c)?;
        if at.chebyshev(cat) == 1 {
            combat::attack(game, ctx, m, c)?;
            return Ok(ACTION);
        }
        if let Some(step) = next_step(game, table, m, at, cat) {
            return step_or_bump(game, ctx, m, step, false);
        }
        forget_foe(game, m)?;
    }
    wander(game, ctx, m, at)
}

/// How far monster `m` notices things ([`AGGRO`], never below 0).
///
/// # Errors
/// `m` is not a thing of `game`.
pub fn aggro(game: &Game, m: ThingId) -> Result<u32, Error> {
    Ok(u32::try_from(game.query(m, &AGGRO)?.max(0)).unwrap_or(0))
}

/// Whether `m` and `other` would fight: different families (the hero aside), both alive.
fn enemies(game: &Game, m: ThingId, other: ThingId) -> bool {
    other != m
        && game.things().contains(other)
        && game.is(other, &IS_CREATURE)
        && !game.is(other, &IS_HERO)
        && game.query_opt(m, &FAMILY).ok().flatten()
            != game.query_opt(other, &FAMILY).ok().flatten()
}

/// The monster `m` is fighting now: its remembered foe while that is alive and near, else
/// — for monsters flagged [`ATTACKS_MONSTERS`] — the nearest creature of another family it
/// can see within its aggro range (the engine's field of view), remembered as its foe.
pub fn foe(
    game: &mut Game,
    table: &TileTable,
    m: ThingId,
    at: Loc,
) -> Result<Option<ThingId>, Error> {
    let aggro = u32::try_from(game.query(m, &AGGRO)?.max(0)).unwrap_or(0);
    if let Some(f) = game.query_opt(m, &FOE)? {
        if enemies(game, m, f)
            && let Ok(fat) = game.things().location(f)
            && fat.z == at.z
            && fat.chebyshev(at) <= aggro.max(2) * 2
        {
            return Ok(Some(f));
        }
        forget_foe(game, m)?;
    }
    if !game.is(m, &ATTACKS_MONSTERS) || aggro == 0 {
        return Ok(None);
    }
    let r = i32::try_from(aggro).unwrap_or(8);
    let mut best: Option<(u64, ThingId)> = None;
    // The occupied cells of the square around it, row by row, west to east: the order a
    // scan of every cell would meet them in (ties go to the first met).
    let square = LocBox::new(
        Loc::new(at.x - r, at.y - r, at.z),
        Loc::new(at.x + r + 1, at.y + r + 1, at.z + 1),
    );
    let occupied: Vec<Loc> = game
        .things()
        .in_box(square)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    for l in occupied {
        let Some(c) = creature_at(game, l) else {
            continue;
        };
        let d = at.euclidean_sq(l);
        if enemies(game, m, c)
            && best.is_none_or(|(b, _)| d < b)
            && sees_with(game, table, at, l, aggro)
        {
            best = Some((d, c));
        }
    }
    if let Some((_, c)) = best {
        game.set_mut(m, &FOE, c)?;
        return Ok(Some(c));
    }
    Ok(None)
}

fn forget_foe(game: &mut Game, m: ThingId) -> Result<(), Error> {
    let mut t = game.things().get(m)?.clone();
    t.remove_prop_mut(FOE.key());
    game.update_thing_mut(t)
}

/// Whether `m`, seeing the hero `d` cells away within its noticing range `aggro` (its aggro
/// range, or less when the hero stands in darkness), takes notice this action. A monster
/// already hunting the hero keeps track of it; one close by (2 cells or less) always
/// notices; farther away the chance falls off linearly with distance — a hero who keeps
/// their distance (or to the dark) can slip past.
fn notices(game: &mut Game, m: ThingId, d: u32, aggro: u32) -> Result<bool, Error> {
    if d <= 2 || game.query_opt(m, &LAST_SEEN)?.is_some() {
        return Ok(true);
    }
    let p = f64::from(aggro + 1 - d.min(aggro)) / f64::from(aggro + 1);
    Ok(game.rng().chance(p))
}

fn clear_target(game: &mut Game, m: ThingId) -> Result<(), Error> {
    let mut t = game.things().get(m)?.clone();
    t.remove_prop_mut(LAST_SEEN.key());
    game.update_thing_mut(t)
}

fn random_dir(game: &mut Game) -> Dir {
    let i = game.rng().below(8) as usize;
    Dir::COMPASS[i]
}

fn wander(game: &mut Game, ctx: &mut HookCtx<'_>, m: ThingId, at: Loc) -> Result<i32, Error> {
    if game.rng().chance(0.5) {
        return Ok(ACTION);
    }
    let d = random_dir(game);
    step_or_bump(game, ctx, m, at + d, true)
}

/// Whether monster `m` finds a way to `goal` as its own moves would: the same search as
/// its steps (terrain it can cross, doors only if it opens them, other creatures gone
/// round, at most 600 cells explored), so a monster that would never come (across water,
/// behind a gate it cannot open, too far round) is said not to. Θ(the search).
#[must_use]
pub fn finds_way(game: &Game, m: ThingId, goal: Loc) -> bool {
    let Ok(at) = game.things().location(m) else {
        return false;
    };
    if at.z != goal.z {
        return false;
    }
    if at.chebyshev(goal) <= 1 {
        return true;
    }
    next_step(game, &TileTable::new(game), m, at, goal).is_some()
}

/// The direction the cheap rules would take `m` toward `goal` (the hero's last sighting):
/// into it when beside it, else the first step of its path. `None` when it finds no way.
pub(crate) fn chase_dir(game: &Game, table: &TileTable, m: ThingId, goal: Loc) -> Option<Dir> {
    let at = game.things().location(m).ok()?;
    let to = if at.chebyshev(goal) == 1 {
        goal
    } else {
        next_step(game, table, m, at, goal)?
    };
    Dir::COMPASS.into_iter().find(|&d| at + d == to)
}

/// The first step of a path from `at` toward `goal` for `m`: A* over terrain it can cross,
/// through doors it can open, around other creatures (at a price).
fn next_step(game: &Game, table: &TileTable, m: ThingId, at: Loc, goal: Loc) -> Option<Loc> {
    let intelligent = game.is(m, &IS_INTELLIGENT);
    let flying = game.is(m, &IS_FLYING);
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
    table
        .pathfinder()
        .astar(at, goal, &search, cost)
        .ok()
        .and_then(|path| path.first_step())
}

/// Move `m` into `to`, or do what bumping there means: attack the hero (or a monster of
/// another family if it fights monsters), open a door (if intelligent), or nothing.
pub(crate) fn step_or_bump(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
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
            if fights_monster {
                game.set_mut(m, &FOE, c)?;
            }
            combat::attack(game, ctx, m, c)?;
        }
        return Ok(ACTION);
    }
    if let Some(b) = blocker_at(game, to) {
        if game.is(b, &IS_DOOR) && !game.is(b, &IS_OPEN) && game.is(m, &IS_INTELLIGENT) {
            doors::set_open(game, b, true)?;
            let seen = hero_sees(game, to);
            let (by, door) = (Noun::of(game, m), Noun::of(game, b));
            emit(game, ctx, Event::DoorOpened { by, door, seen });
        }
        return Ok(ACTION);
    }
    if terrain_ok(game, m, to) {
        game.move_thing_mut(m, to)?;
    }
    Ok(ACTION)
}
