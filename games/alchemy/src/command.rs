//! The one pure funnel: a [`Command`] applied to a game gives a new game and the
//! [`Event`]s of what happened (or a [`RuleError`] that costs no time and explains itself).
//!
//! `apply` makes one [`HookCtx`] per command; the hero's action, the rest of the turn and
//! every hook they fire emit their events into it, and at the end the [`Outcome`] hands
//! them to the caller (the game keeps only the ending among them, typed; the message log
//! is the screens' English of the events, [`text::all_lines`]).

use alembic::{Dir, Error, Game, HookCtx, Loc, ThingId, hook::HookCall, hook::ON_USE};
use serde::{Deserialize, Serialize};

use super::error::refuse;
pub use super::error::{Refusal, RuleError};
use super::events::{self, Event, Noun, emit};
use super::kinds::RecipeId;
use super::props::{
    DEEPEST, DESTINATION, DOOR_STRENGTH, GAME_OVER, IS_CONFUSED, IS_DOOR, IS_EXIT, IS_GHOST,
    IS_OPEN, IS_STAIRS, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE, OUTCOME, SPEED, ST, USE_MESSAGE,
};
pub use super::rulebook::Rules;
use super::rules::ai::ACTION;
use super::rules::combat;
use super::rules::doors::set_open;
use super::rules::items::{self, inventory};
use super::rules::time::{action_time, arrive, end_turn_with, leave_level};
use super::rules::world::TileTable;
use super::rules::world::{
    blocker_at, creature_at, depth_of, hero, items_at, level_box, scenery_at, tile_blocks,
    tile_dangerous,
};
use super::text;

/// Everything the player can do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Step in a compass direction; into a monster attacks it, into a closed door opens it,
    /// into scenery uses it.
    Move(Dir),
    /// Let a turn pass.
    Wait,
    /// Climb the stairs up here (or leave the dungeon by the exit).
    Ascend,
    /// Go down the stairs here.
    Descend,
    /// Pick up an item here (`None`: the topmost).
    PickUp(Option<ThingId>),
    /// Drop a carried item (all of a stack).
    Drop(ThingId),
    /// Drop this many of a carried stack (split off; the rest stays in the pack).
    DropSome(ThingId, u32),
    /// Drink a carried potion.
    Quaff(ThingId),
    /// Eat carried food or an ingredient.
    Eat(ThingId),
    /// Throw a carried item at a location.
    Throw(ThingId, Loc),
    /// Wield a weapon or put on armour.
    Wield(ThingId),
    /// Stop wielding or wearing.
    Unwield(ThingId),
    /// Open the door in a direction.
    Open(Dir),
    /// Close the door in a direction.
    Close(Dir),
    /// Analyse a carried potion or ingredient at an analysis lab.
    Analyse(ThingId),
    /// Brew a potion by its recipe at a workbench.
    Craft(RecipeId),
}

/// The result of an accepted command.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The game after the command and the turn it ended.
    pub game: Game,
    /// What happened during the command, oldest first ([`text::lines`] words each one, as
    /// the game's message log has it).
    pub events: Vec<Event>,
    /// Time that passed (0 for free commands such as look).
    pub elapsed: i32,
    /// Whether the game ended with this command.
    pub over: bool,
}

/// Apply `cmd` to `game`. On success the returned game has had the hero's action and the
/// rest of the turn (effects, monsters); on a [`RuleError`] nothing happened.
pub fn apply(game: &Game, rules: &Rules, cmd: Command) -> Result<Outcome, RuleError> {
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Err(RuleError::GameOver);
    }
    let mut g = game.clone();
    let h = hero(&g)?;
    // One context for the whole command: the rules and every hook they fire emit into it.
    let mut ctx = HookCtx::new(rules.hooks());
    let cost = hero_action(&mut g, &mut ctx, h, cmd)?;
    let speed = g.query(h, &SPEED)?;
    let elapsed = action_time(cost, speed);
    let seen = if g.var(&GAME_OVER).unwrap_or(false) {
        None
    } else {
        // The turn's searches reuse a workspace an earlier turn gave back to the rules.
        let table = TileTable::with_pathfinder(&g, rules.take_pathfinder());
        let seen = end_turn_with(&mut g, &mut ctx, elapsed, &table);
        rules.give_back_pathfinder(table.into_pathfinder());
        seen?
    };
    // Whatever came into the pack gets its letter; what stayed keeps its own. Most turns
    // leave the pack and everything its letters are derived from as they were: the letters
    // the game already holds stand, and the pack is not named and grouped again.
    if g.things().contains(h) && !items::letters_unchanged(game, &g, h) {
        items::assign_letters(&mut g, h)?;
    }
    // The one point where what happened becomes English in the game's log.
    let happened = events::take(&mut ctx);
    text::record(&mut g, &happened);
    // The view the turn ended with is the hero's view of the game returned: the letters and
    // the log written since change nothing on the map. Whoever reads this game next (the
    // bot, the map) gets it from the rules instead of working it out again.
    if let Some(view) = seen {
        rules.keep_hero_view(&g, view);
    }
    let over = g.var(&GAME_OVER).unwrap_or(false);
    Ok(Outcome {
        game: g,
        events: happened.into_iter().map(|(_, e)| e).collect(),
        elapsed,
        over,
    })
}

/// The hero's part of a command; returns its cost.
fn hero_action(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    h: ThingId,
    cmd: Command,
) -> Result<i32, RuleError> {
    match cmd {
        Command::Move(d) => move_hero(game, ctx, h, d),
        Command::Wait => Ok(ACTION),
        Command::Ascend => ascend(game, ctx, h),
        Command::Descend => descend(game, ctx, h),
        Command::PickUp(i) => items::pick_up(game, ctx, h, i),
        Command::Drop(i) => items::drop(game, ctx, h, i, None),
        Command::DropSome(i, n) => items::drop(game, ctx, h, i, Some(n)),
        Command::Quaff(i) => items::quaff(game, ctx, h, i),
        Command::Eat(i) => items::eat(game, ctx, h, i),
        Command::Throw(i, l) => items::throw(game, ctx, h, i, l),
        Command::Wield(i) => items::wield(game, ctx, h, i),
        Command::Unwield(i) => items::unwield(game, ctx, h, i),
        Command::Open(d) => open_close(game, ctx, h, d, true),
        Command::Close(d) => open_close(game, ctx, h, d, false),
        Command::Analyse(i) => items::analyse(game, ctx, h, i),
        Command::Craft(p) => items::craft(game, ctx, h, p.potion()),
    }
}

fn planar(d: Dir) -> Result<Dir, RuleError> {
    if matches!(d, Dir::Up | Dir::Down) {
        return refuse(Refusal::UseStairs);
    }
    Ok(d)
}

fn move_hero(game: &mut Game, ctx: &mut HookCtx<'_>, h: ThingId, d: Dir) -> Result<i32, RuleError> {
    let mut d = planar(d)?;
    let at = game.things().location(h)?;
    if game.is(h, &IS_CONFUSED) && game.rng().chance(0.4) {
        d = Dir::COMPASS[game.rng().below(8) as usize];
        let to = at + d;
        // A stumble always takes the turn, even into a wall (otherwise a confused hero
        // could be refused forever and the confusion would never wear off).
        if tile_blocks(game, to) || tile_dangerous(game, to) {
            emit(game, ctx, Event::Stumbled { bumped: true });
            return Ok(ACTION);
        }
        emit(game, ctx, Event::Stumbled { bumped: false });
    }
    let to = at + d;
    if let Some(c) = creature_at(game, to) {
        combat::attack(game, ctx, h, c)?;
        return Ok(ACTION);
    }
    if let Some(b) = blocker_at(game, to) {
        if game.is(b, &IS_DOOR) && !game.is(b, &IS_OPEN) {
            return open_door(game, ctx, h, b);
        }
        return use_scenery(game, ctx, h, b);
    }
    // A ghost (wizard mode) passes walls and rock, but never leaves the level.
    let ghost = game.is(h, &IS_GHOST) && level_box(to.z).contains(to);
    if tile_blocks(game, to) && !ghost {
        return refuse(Refusal::Wall);
    }
    if tile_dangerous(game, to) {
        return refuse(Refusal::Deadly);
    }
    game.move_thing_mut(h, to)?;
    emit(game, ctx, Event::Moved { who: h, to });
    describe_here(game, ctx, to);
    Ok(ACTION)
}

/// What the hero notices where they now stand: stairs, items.
fn describe_here(game: &Game, ctx: &mut HookCtx<'_>, at: Loc) {
    if let Some(s) = scenery_at(game, at)
        && game.is(s, &IS_STAIRS)
    {
        let what = Noun::of(game, s);
        emit(game, ctx, Event::StandingOn { what });
    }
    let items = items_at(game, at);
    if items.is_empty() {
        return;
    }
    let items = items.iter().map(|&i| Noun::of(game, i)).collect();
    emit(game, ctx, Event::Noticed { items });
}

fn open_door(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    h: ThingId,
    door: ThingId,
) -> Result<i32, RuleError> {
    let need = game.query(door, &DOOR_STRENGTH)?;
    let name = Noun::of(game, door);
    if need > 0 {
        let st = game.query(h, &ST)?;
        let roll = game.rng().range(1, 6) as i32;
        if st + roll < need + 3 {
            emit(game, ctx, Event::DoorStuck { door: name });
            return Ok(ACTION);
        }
    }
    set_open(game, door, true)?;
    let by = Noun::of(game, h);
    emit(
        game,
        ctx,
        Event::DoorOpened {
            by,
            door: name,
            seen: true,
        },
    );
    Ok(ACTION)
}

fn open_close(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    h: ThingId,
    d: Dir,
    open: bool,
) -> Result<i32, RuleError> {
    let d = planar(d)?;
    let to = game.things().location(h)? + d;
    let Some(door) = game
        .things()
        .at(to)
        .iter()
        .copied()
        .find(|&t| game.is(t, &IS_DOOR))
    else {
        return refuse(Refusal::NoDoor);
    };
    let name = Noun::of(game, door);
    if open {
        if game.is(door, &IS_OPEN) {
            return refuse(Refusal::AlreadyOpen);
        }
        open_door(game, ctx, h, door)
    } else {
        if !game.is(door, &IS_OPEN) {
            return refuse(Refusal::AlreadyClosed);
        }
        if creature_at(game, to).is_some() || !items_at(game, to).is_empty() {
            return refuse(Refusal::DoorwayBusy);
        }
        set_open(game, door, false)?;
        emit(game, ctx, Event::DoorClosed { door: name });
        Ok(ACTION)
    }
}

fn use_scenery(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    h: ThingId,
    s: ThingId,
) -> Result<i32, RuleError> {
    let ran = ctx.run(
        &mut *game,
        &ON_USE,
        HookCall {
            actor: Some(h),
            target: Some(h),
            ..HookCall::on(s)
        },
    )?;
    if ran {
        return Ok(ACTION);
    }
    match game.query_opt(s, &USE_MESSAGE)? {
        Some(_) => {
            let what = Noun::of(game, s);
            emit(game, ctx, Event::Used { what });
            Ok(ACTION)
        }
        None => refuse(Refusal::SceneryInTheWay),
    }
}

fn stairs_here(
    game: &Game,
    h: ThingId,
    flag: &alembic::Prop<bool>,
) -> Result<Option<ThingId>, Error> {
    let at = game.things().location(h)?;
    Ok(game
        .things()
        .at(at)
        .iter()
        .copied()
        .find(|&t| game.is(t, flag)))
}

fn descend(game: &mut Game, ctx: &mut HookCtx<'_>, h: ThingId) -> Result<i32, RuleError> {
    let Some(s) = stairs_here(game, h, &IS_STAIRS_DOWN)? else {
        return refuse(Refusal::NoStairsDown);
    };
    travel(game, ctx, h, s)?;
    let z = game.things().location(h)?.z;
    let deepest = game.var(&DEEPEST).unwrap_or(1).max(depth_of(z));
    game.set_var_mut(&DEEPEST, deepest);
    emit(game, ctx, Event::Descended { depth: depth_of(z) });
    Ok(ACTION)
}

fn ascend(game: &mut Game, ctx: &mut HookCtx<'_>, h: ThingId) -> Result<i32, RuleError> {
    let Some(s) = stairs_here(game, h, &IS_STAIRS_UP)? else {
        return refuse(Refusal::NoStairsUp);
    };
    if game.is(s, &IS_EXIT) {
        let has_stone = inventory(game, h).iter().any(|&t| game.is(t, &IS_STONE));
        if !has_stone {
            return refuse(Refusal::NeedStone);
        }
        emit(game, ctx, Event::Won);
        game.set_var_mut(&GAME_OVER, true);
        game.set_var_mut(&OUTCOME, super::kinds::Fate::Won);
        return Ok(ACTION);
    }
    travel(game, ctx, h, s)?;
    let z = game.things().location(h)?.z;
    emit(game, ctx, Event::Ascended { depth: depth_of(z) });
    Ok(ACTION)
}

/// Move the hero along a staircase; if someone stands on the landing, the nearest free
/// cell beside it.
fn travel(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    h: ThingId,
    stairs: ThingId,
) -> Result<(), RuleError> {
    let dest = game.query(stairs, &DESTINATION)?;
    let spot = std::iter::once(dest).chain(dest.neighbours8()).find(|&l| {
        creature_at(game, l).is_none()
            && blocker_at(game, l).is_none()
            && !tile_blocks(game, l)
            && !tile_dangerous(game, l)
    });
    let Some(spot) = spot else {
        return refuse(Refusal::WayBlocked);
    };
    let from = game.things().location(h)?.z;
    if spot.z != from {
        leave_level(game, from)?;
        arrive(game, ctx, spot.z)?;
    }
    game.move_thing_mut(h, spot)?;
    Ok(())
}
