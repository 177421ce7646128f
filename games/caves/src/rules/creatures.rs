//! The creatures' behaviour: the hooks their prototypes name.

use alembic::{
    Dir, Error, Game, HookCtx, Loc, LocBox, ThingId, hook::HookCall, path::DijkstraMap,
    path::Search, path::astar,
};

use crate::events::Event;
use crate::geometry::{is_inner, level_box, walkable};
use crate::kinds::Outcome;
use crate::props::{DIGGABLE, LEVELS, SPORES};
use crate::rules::combat::{attack, strike};
use crate::rules::{LICHEN_GROWTH_ODDS, say_near};
use crate::view::{outcome, player};
use crate::world::Figure;

/// Move `me` to a random neighbouring cell it may enter and nobody occupies (or stay).
pub(crate) fn wander(
    g: &mut Game,
    me: ThingId,
    can_enter: impl Fn(&Game, Loc) -> bool,
) -> Result<(), Error> {
    let here = g.things().location(me)?;
    let options: Vec<Loc> = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| can_enter(g, l) && g.things().at(l).is_empty())
        .collect();
    if let Some(i) = g.rng().index(options.len()) {
        g.move_thing_mut(me, options[i])?;
    }
    Ok(())
}

/// Lichen (`ON_ACTION`): with a small chance, grows into an empty neighbouring floor cell.
pub(crate) fn lichen_turn(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let me = call.this;
    let spores = g.query(me, &SPORES)?;
    if spores <= 0 || !g.rng().one_in(1, LICHEN_GROWTH_ODDS) {
        return Ok(());
    }
    let here = g.things().location(me)?;
    let options: Vec<Loc> = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| walkable(g, l) && g.things().at(l).is_empty())
        .collect();
    let Some(i) = g.rng().index(options.len()) else {
        return Ok(());
    };
    g.set_mut(me, &SPORES, spores - 1)?;
    let child = g.spawn_mut(ctx, Figure::Lichen.proto(), options[i])?;
    g.set_mut(child, &SPORES, spores - 1)?;
    say_near(g, ctx, here, &Event::LichenGrew);
    Ok(())
}

/// Lichen (`ON_USE`): stings whoever touches it.
pub(crate) fn lichen_sting(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    match call.actor {
        Some(toucher) if g.things().contains(toucher) => strike(g, ctx, call.this, toucher),
        _ => Ok(()),
    }
}

/// Bunny: hops about at random.
pub(crate) fn bunny_turn(
    g: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    wander(g, call.this, walkable)
}

/// Silverfish: wanders through rock and floor alike (never into the level's border).
pub(crate) fn silverfish_turn(
    g: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let levels = g.var(&LEVELS)?;
    wander(g, call.this, |g, l| {
        is_inner(l, levels) && (walkable(g, l) || g.tile_def(l).is_ok_and(|d| d.is(&DIGGABLE)))
    })
}

/// Where a hunter may step on its way to `goal`: walkable and empty, or the goal itself.
pub(crate) fn hunter_cost(g: &Game, goal: Loc) -> impl Fn(Loc, Loc) -> Option<u32> + '_ {
    move |_, to| (walkable(g, to) && (to == goal || g.things().at(to).is_empty())).then_some(1)
}

/// The box of radius `r` around `at`, on its level.
pub(crate) fn around(at: Loc, r: i32) -> LocBox {
    LocBox::new(
        Loc::new(at.x - r, at.y - r, at.z),
        Loc::new(at.x + r + 1, at.y + r + 1, at.z + 1),
    )
    .intersect(&level_box(at.z))
}

/// The player's location if the player is alive on `here`'s level within `range`.
pub(crate) fn prey(g: &Game, here: Loc, range: u32) -> Result<Option<(ThingId, Loc)>, Error> {
    let p = player(g)?;
    let at = g.things().location(p)?;
    Ok(
        (outcome(g)? == Outcome::Playing && at.z == here.z && here.chebyshev(at) <= range)
            .then_some((p, at)),
    )
}

/// One step of `me` that brings it closest (king's moves) to `goal`, if any is better than
/// staying: how hunters drift towards a player they cannot track yet.
pub(crate) fn drift(g: &mut Game, me: ThingId, goal: Loc) -> Result<(), Error> {
    let here = g.things().location(me)?;
    let best = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| walkable(g, l) && g.things().at(l).is_empty())
        .min_by_key(|l| (l.chebyshev(goal), l.manhattan(goal)));
    match best {
        Some(l) if l.chebyshev(goal) < here.chebyshev(goal) => g.move_thing_mut(me, l),
        _ => wander(g, me, walkable),
    }
}

/// Cave bat: bites the player when beside them; within 10 cells it flies at them two turns in
/// three, rolling down a Dijkstra map; farther off on the same level it drifts towards them
/// one turn in three (it hears them); otherwise it flutters at random.
pub(crate) fn bat_turn(g: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let me = call.this;
    let here = g.things().location(me)?;
    match prey(g, here, 10)? {
        Some((p, at)) if here.chebyshev(at) == 1 => attack(g, ctx, me, p),
        Some((_, at)) if g.rng().one_in(2, 3) => {
            let next = {
                let cost = hunter_cost(g, at);
                DijkstraMap::build(around(here, 10), &[at], &cost).next_step(here, &cost)
            };
            match next {
                Some(l) if l != at && g.things().at(l).is_empty() => g.move_thing_mut(me, l),
                _ => wander(g, me, walkable),
            }
        }
        Some(_) => wander(g, me, walkable),
        None => match prey(g, here, u32::MAX)? {
            Some((_, at)) if g.rng().one_in(1, 3) => drift(g, me, at),
            _ => wander(g, me, walkable),
        },
    }
}

/// Zombie: slow (its [`SPEED`](alembic::schedule::SPEED) of 50 gives it every other turn); claws the player when beside them, follows them by
/// A* within 20 cells, and otherwise shuffles towards the player's scent (half its turns).
pub(crate) fn zombie_turn(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let me = call.this;
    let here = g.things().location(me)?;
    match prey(g, here, 20)? {
        Some((p, at)) if here.chebyshev(at) == 1 => attack(g, ctx, me, p),
        Some((_, at)) => {
            let next = {
                let search = Search::new(around(here, 21)).max_explored(600);
                astar(here, at, &search, hunter_cost(g, at))
                    .ok()
                    .and_then(|path| path.first_step())
            };
            match next {
                Some(l) if l != at && g.things().at(l).is_empty() => g.move_thing_mut(me, l),
                _ => Ok(()),
            }
        }
        None => match prey(g, here, u32::MAX)? {
            Some((_, at)) if g.rng().one_in(1, 2) => drift(g, me, at),
            _ => Ok(()),
        },
    }
}
