//! Moving many steps with one key, as in Brogue CE and DCSS: travel to a remembered cell (a
//! mouse click), travel to the nearest known stairs (`>` and `<` away from stairs),
//! auto-explore (`o`) and running (Shift+direction). Each stops as soon as anything worth a
//! look happens: a monster comes into view, the hero is hurt, the game says something.
//!
//! Every step is a normal [`Command`], so travel is recorded, replayed and undone exactly
//! like keys are. Paths only cross cells the hero has seen; closed doors on the way are
//! opened.

use alembic::{Dir, Loc, Pathfinder, Search, ThingId};

use super::{AlchemyCtx, Tone};
use crate::alchemy::command::Command;
use crate::alchemy::props::{
    HPS, IS_CREATURE, IS_DOOR, IS_HOSTILE, IS_OPEN, IS_STAIRS_DOWN, IS_STAIRS_UP,
};
use crate::alchemy::rules::memory::{explored, remembered_thing};
use crate::alchemy::rules::world::{TileTable, creature_at, items_at, level_box};
use crate::alchemy::view::{hero_id, visible};

/// The most moves one travel makes before stopping (a safety net: a path is shorter).
pub const MAX_STEPS: usize = 400;

/// Why travel stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TravelEnd {
    /// The hero stands on the target.
    Arrived,
    /// Something happened on the way (a monster came into view, the hero was hurt, a
    /// message); the text says what.
    Interrupted(String),
    /// No known way there.
    NoPath,
    /// The game ended on the way.
    GameOver,
}

/// The creatures the hero sees, other than the hero.
fn monsters_in_view(ctx: &AlchemyCtx) -> Vec<ThingId> {
    let Some(game) = ctx.game() else {
        return Vec::new();
    };
    let (Ok(hero), Ok(seen)) = (hero_id(game), visible(game)) else {
        return Vec::new();
    };
    let mut out: Vec<ThingId> = seen
        .iter()
        .flat_map(|l| game.things_at(l).iter().copied())
        .filter(|&t| t != hero && game.is(t, &IS_CREATURE))
        .collect();
    out.sort_unstable();
    out
}

/// The hostile creatures the hero sees: while any is in view, travel neither starts nor
/// goes on (as DCSS's "There are monsters nearby!").
fn hostiles_in_view(ctx: &AlchemyCtx) -> Vec<ThingId> {
    let Some(game) = ctx.game() else {
        return Vec::new();
    };
    monsters_in_view(ctx)
        .into_iter()
        .filter(|&t| game.is(t, &IS_HOSTILE))
        .collect()
}

/// "a goblin", for messages.
fn a_name(ctx: &AlchemyCtx, id: ThingId) -> String {
    ctx.game()
        .and_then(|g| crate::alchemy::text::a_name(g, id).ok())
        .unwrap_or_else(|| "something".to_owned())
}

/// Where the hero is.
fn hero_at(ctx: &AlchemyCtx) -> Option<Loc> {
    let game = ctx.game()?;
    game.location(hero_id(game).ok()?).ok()
}

/// The cost of stepping onto `to` for travel: seen, walkable ground (closed doors allowed);
/// `None` where travel never goes (unseen, walls, danger, blocking things, creatures: travel
/// goes round them or stops).
fn travel_cost(game: &alembic::Game, table: &TileTable, to: Loc) -> Option<u32> {
    if creature_at(game, to).is_some() {
        return None;
    }
    ground_cost(game, table, to)
}

/// [`travel_cost`] as if no creature stood anywhere.
fn ground_cost(game: &alembic::Game, table: &TileTable, to: Loc) -> Option<u32> {
    if !explored(game, to) || table.blocks(game, to) || table.dangerous(game, to) {
        return None;
    }
    let things = game.things_at(to);
    let door = things.iter().any(|&t| game.is(t, &IS_DOOR));
    let blocked = things.iter().any(|&t| {
        !game.is(t, &IS_DOOR)
            && !game.is(t, &IS_CREATURE)
            && game.is(t, &crate::alchemy::props::IS_BLOCKING)
    });
    if blocked {
        return None;
    }
    Some(1 + u32::from(door))
}

/// The first step of the cheapest known path from the hero to the nearest cell for which
/// `goal` holds.
fn step_towards(ctx: &AlchemyCtx, goal: impl Fn(Loc) -> bool) -> Option<(Loc, Dir)> {
    let game = ctx.game()?;
    let at = hero_at(ctx)?;
    let table = TileTable::new(game);
    let cost = |_: Loc, to: Loc| travel_cost(game, &table, to);
    let path = Pathfinder::new()
        .nearest(
            at,
            &Search::new(level_box(at.z)),
            |l| l != at && goal(l),
            cost,
        )
        .ok()?;
    let step = path.first_step()?;
    Some((step, at.dir_to(step)?))
}

/// The next move from the hero towards `target` over seen ground, or `None`.
fn next_step(ctx: &AlchemyCtx, target: Loc) -> Option<(Loc, Dir)> {
    let game = ctx.game()?;
    let at = hero_at(ctx)?;
    if at.z != target.z {
        return None;
    }
    let table = TileTable::new(game);
    let cost = |_: Loc, to: Loc| travel_cost(game, &table, to);
    let path = alembic::astar(at, target, &Search::new(level_box(at.z)), cost).ok()?;
    let step = path.first_step()?;
    Some((step, at.dir_to(step)?))
}

/// Walk one step at a time: `next` gives the next step (or `None`: nowhere to go, reported
/// as `stuck`), `arrived` says when to stop. Stops as described in the module docs, and
/// never starts or takes a step while a hostile creature is in view. `observe` sees the game
/// and the step before each step is taken.
fn walk(
    ctx: &mut AlchemyCtx,
    mut next: impl FnMut(&AlchemyCtx) -> Option<(Loc, Dir)>,
    arrived: impl Fn(&AlchemyCtx) -> bool,
    stuck: TravelEnd,
    observe: &mut dyn FnMut(&alembic::Game, Loc),
) -> TravelEnd {
    if let Some(&foe) = hostiles_in_view(ctx).first()
        && !arrived(ctx)
    {
        return TravelEnd::Interrupted(format!("Not with {} in view.", a_name(ctx, foe)));
    }
    let mut seen_before = monsters_in_view(ctx);
    for _ in 0..MAX_STEPS {
        let Some(game) = ctx.game() else {
            return TravelEnd::GameOver;
        };
        let Ok(hero) = hero_id(game) else {
            return TravelEnd::GameOver;
        };
        if arrived(ctx) {
            return TravelEnd::Arrived;
        }
        let Some((step, dir)) = next(ctx) else {
            return stuck;
        };
        let Some(game) = ctx.game() else {
            return TravelEnd::GameOver;
        };
        let hp = game.query(hero, &HPS).unwrap_or(0);
        let closed_door = game
            .things_at(step)
            .iter()
            .any(|&t| game.is(t, &IS_DOOR) && !game.is(t, &IS_OPEN));
        if creature_at(game, step).is_some() {
            // Never attack by travelling: stop beside it.
            return TravelEnd::Interrupted("Something is in the way.".to_owned());
        }
        observe(game, step);
        let log_len = ctx.log().len();
        let cmd = if closed_door {
            Command::Open(dir)
        } else {
            Command::Move(dir)
        };
        match ctx.act(cmd) {
            Some(true) => return TravelEnd::GameOver,
            Some(false) => {}
            None => return TravelEnd::Interrupted("You stop.".to_owned()),
        }
        let now = monsters_in_view(ctx);
        let hostile = hostiles_in_view(ctx).first().copied();
        if let Some(new) =
            hostile.or_else(|| now.iter().find(|t| !seen_before.contains(t)).copied())
        {
            return TravelEnd::Interrupted(format!("You see {}.", a_name(ctx, new)));
        }
        seen_before = now;
        let hurt = ctx
            .game()
            .and_then(|g| g.query(hero, &HPS).ok())
            .is_some_and(|h| h < hp);
        if hurt {
            return TravelEnd::Interrupted("You are hurt!".to_owned());
        }
        // Anything the game said (other than opening the door we asked for) stops travel.
        if !closed_door && ctx.log().len() > log_len {
            return TravelEnd::Interrupted(String::new());
        }
    }
    TravelEnd::Interrupted("You stop to get your bearings.".to_owned())
}

/// Walk towards `target` until arrival or interruption. Each step is one command.
pub fn travel(ctx: &mut AlchemyCtx, target: Loc) -> TravelEnd {
    walk(
        ctx,
        |c| next_step(c, target),
        |c| hero_at(c) == Some(target),
        TravelEnd::NoPath,
        &mut |_, _| {},
    )
}

/// Auto-explore (`o`): walk to the nearest seen, reachable cell that borders unexplored
/// space, again and again, until the level is explored or something happens.
pub fn explore(ctx: &mut AlchemyCtx) -> TravelEnd {
    explore_observed(ctx, &mut |_, _| {})
}

/// [`explore`], calling `observe` with the game and the cell about to be stepped onto before
/// every step (for tests and tools that check each step).
pub fn explore_observed(
    ctx: &mut AlchemyCtx,
    observe: &mut dyn FnMut(&alembic::Game, Loc),
) -> TravelEnd {
    let frontier = |c: &AlchemyCtx, l: Loc| {
        c.game().is_some_and(|g| {
            explored(g, l)
                && l.neighbours8()
                    .any(|n| level_box(l.z).contains(n) && !explored(g, n))
        })
    };
    // With autopickup on, items in view are places to go too; where picking up is refused
    // (too heavy, say), the cell is left alone for the rest of this press.
    let mut skipped: Vec<Loc> = Vec::new();
    let wanted = |c: &AlchemyCtx, l: Loc, skipped: &[Loc]| {
        c.autopickup()
            && !skipped.contains(&l)
            && c.game().is_some_and(|g| {
                !items_at(g, l).is_empty() && visible(g).is_ok_and(|v| v.contains(l))
            })
    };
    for _ in 0..MAX_STEPS {
        let here_wanted = hero_at(ctx).is_some_and(|at| wanted(ctx, at, &skipped));
        if here_wanted {
            let at = hero_at(ctx);
            match ctx.act(Command::PickUp(None)) {
                Some(true) => return TravelEnd::GameOver,
                Some(false) => continue,
                None => {
                    skipped.extend(at);
                    continue;
                }
            }
        }
        let end = walk(
            ctx,
            |c| step_towards(c, |l| frontier(c, l) || wanted(c, l, &skipped)),
            |c| hero_at(c).is_some_and(|at| wanted(c, at, &skipped)),
            TravelEnd::NoPath,
            observe,
        );
        match end {
            // Standing on an item to pick up (or the message of stepping onto it).
            TravelEnd::Arrived => {}
            TravelEnd::Interrupted(ref w)
                if w.is_empty() && hero_at(ctx).is_some_and(|at| wanted(ctx, at, &skipped)) => {}
            TravelEnd::NoPath => return explore_finished(ctx, frontier),
            other => return other,
        }
    }
    TravelEnd::Interrupted("You stop to get your bearings.".to_owned())
}

/// Nowhere left to explore: done, unless a creature stands between the hero and the rest.
fn explore_finished(ctx: &AlchemyCtx, frontier: impl Fn(&AlchemyCtx, Loc) -> bool) -> TravelEnd {
    let blocked = ctx.game().is_some_and(|g| {
        let Some(at) = hero_at(ctx) else {
            return false;
        };
        let table = TileTable::new(g);
        let cost = |_: Loc, to: Loc| ground_cost(g, &table, to);
        Pathfinder::new()
            .nearest(
                at,
                &Search::new(level_box(at.z)),
                |l| l != at && frontier(ctx, l),
                cost,
            )
            .is_ok()
    });
    TravelEnd::Interrupted(if blocked {
        "Something is in the way.".to_owned()
    } else {
        "Done exploring.".to_owned()
    })
}

/// Travel to the nearest known stairs, down or up; `Arrived` when standing on them.
pub fn to_stairs(ctx: &mut AlchemyCtx, down: bool) -> TravelEnd {
    let flag = if down { &IS_STAIRS_DOWN } else { &IS_STAIRS_UP };
    // Only stairs the hero has seen.
    let is_stairs = |c: &AlchemyCtx, l: Loc| {
        c.game().is_some_and(|g| {
            explored(g, l)
                && (remembered_thing(g, l).is_some_and(|t| g.is(t, flag))
                    || g.things_at(l).iter().any(|&t| g.is(t, flag)))
        })
    };
    let on = |c: &AlchemyCtx| hero_at(c).is_some_and(|l| is_stairs(c, l));
    let what = if down { "down" } else { "up" };
    let known = ctx.game().is_some_and(|g| {
        hero_at(ctx).is_some_and(|at| level_box(at.z).iter().any(|l| is_stairs(ctx, l)))
            && hero_id(g).is_ok()
    });
    let stuck = if known {
        TravelEnd::Interrupted(format!("Something is in the way of the stairs {what}."))
    } else {
        TravelEnd::Interrupted(format!("You know of no stairs {what} on this level."))
    };
    walk(
        ctx,
        |c| step_towards(c, |l| is_stairs(c, l)),
        on,
        stuck,
        &mut |_, _| {},
    )
}

/// Run (Shift+direction): keep moving `dir` until something interesting, as in DCSS: the
/// way ahead blocked, a door ahead, an item underfoot, an opening appearing or closing at
/// either side (a junction, a doorway, the end of a room's wall), a monster, a message.
pub fn run(ctx: &mut AlchemyCtx, dir: Dir) -> TravelEnd {
    let d = dir.offset();
    // The cells at either side of the way: (-dy, dx) and (dy, -dx); none for diagonals.
    let sides = |c: &AlchemyCtx, at: Loc| -> Option<(bool, bool)> {
        if d.x != 0 && d.y != 0 {
            return None;
        }
        let g = c.game()?;
        let table = TileTable::new(g);
        let open = |l: Loc| !table.blocks(g, l);
        Some((
            open(Loc::new(at.x - d.y, at.y + d.x, at.z)),
            open(Loc::new(at.x + d.y, at.y - d.x, at.z)),
        ))
    };
    let mut last_sides = hero_at(ctx).and_then(|l| sides(ctx, l));
    let mut first = true;
    walk(
        ctx,
        |c| {
            let at = hero_at(c)?;
            let to = at + dir;
            let g = c.game()?;
            let table = TileTable::new(g);
            if table.blocks(g, to) || g.things_at(to).iter().any(|&t| g.is(t, &IS_DOOR)) {
                return None;
            }
            let hero = hero_id(g).ok();
            let now = sides(c, at);
            let interesting =
                !first && (now != last_sides || g.things_at(at).iter().any(|&t| Some(t) != hero));
            first = false;
            last_sides = now;
            (!interesting).then_some((to, dir))
        },
        |_| false,
        TravelEnd::Interrupted(String::new()),
        &mut |_, _| {},
    )
}

/// Travel and tell the player how it ended.
pub fn travel_and_report(ctx: &mut AlchemyCtx, target: Loc) -> bool {
    let end = travel(ctx, target);
    match &end {
        TravelEnd::Arrived | TravelEnd::GameOver => {}
        TravelEnd::Interrupted(why) if why.is_empty() => {}
        TravelEnd::Interrupted(why) => ctx.note(Tone::Note, why.clone()),
        TravelEnd::NoPath => ctx.note(Tone::Note, "You know no way there.".to_owned()),
    }
    end == TravelEnd::GameOver
}

/// Auto-fight (Tab, as in DCSS): the command that attacks the nearest hostile creature in
/// view when it stands next to the hero, or steps towards it over seen ground. The text
/// says why not, when there is nothing to fight or no way to it.
///
/// # Errors
/// The reason, for the message line.
pub fn fight_step(ctx: &AlchemyCtx) -> Result<Command, String> {
    let (Some(game), Some(at)) = (ctx.game(), hero_at(ctx)) else {
        return Err("There is no game.".to_owned());
    };
    let mut foes: Vec<(u32, Loc, ThingId)> = hostiles_in_view(ctx)
        .into_iter()
        .filter_map(|f| game.location(f).ok().map(|l| (l, f)))
        .filter(|(l, _)| l.z == at.z)
        .map(|(l, f)| (at.chebyshev(l), l, f))
        .collect();
    foes.sort_unstable_by_key(|&(d, l, _)| (d, l.y, l.x));
    let Some(&(distance, target, foe)) = foes.first() else {
        return Err("No monster in view.".to_owned());
    };
    if distance == 1
        && let Some(d) = at.dir_to(target)
    {
        return Ok(Command::Move(d));
    }
    let table = TileTable::new(game);
    // The target's own cell is the goal: other creatures are gone round.
    let cost = |_: Loc, to: Loc| {
        if to == target {
            Some(1)
        } else {
            travel_cost(game, &table, to)
        }
    };
    let no_way = || format!("You see no way to {}.", a_name(ctx, foe));
    let path =
        alembic::astar(at, target, &Search::new(level_box(at.z)), cost).map_err(|_| no_way())?;
    path.first_step()
        .and_then(|s| at.dir_to(s))
        .map(Command::Move)
        .ok_or_else(no_way)
}
