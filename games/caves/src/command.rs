//! The player's commands and the one funnel they go through: [`play`] (the events the
//! player perceived, or a refusal that changes nothing), and [`act`] on top of it.

use alembic::{Dir, Error, Game, HookCtx, Loc, ThingId};
use serde::{Deserialize, Serialize};

use crate::error::{Refusal, RuleError};
use crate::events::Event;
use crate::geometry::{depth_of, is_inner};
use crate::hooks::hooks;
use crate::kinds::Outcome;
use crate::props::{
    DEEPEST, DIGGABLE, EXIT, FLOOR, GEM, GEMS, LEVELS, OUTCOME, STAIRS, WALKABLE, tile,
};
use crate::rules::combat::attack;
use crate::rules::time::world_answer;
use crate::rules::{Heard, nearest_free, remember_view, tell};
use crate::view::{creature_at, outcome, player};

/// What the player asks for; each takes one turn when it does something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Step one cell: into a creature attacks it, into rock digs it out, onto the way out wins.
    /// [`Dir::Down`] and [`Dir::Up`] take stairs.
    Move(Dir),
    /// Let a turn pass.
    Wait,
    /// Take the stairs down (or the way out).
    Descend,
    /// Take the stairs up.
    Ascend,
}

/// The game after the player's `command` and the world's answer, with what the player
/// perceived. A command that does nothing (stairs where there are none, rock too hard to dig)
/// is a [`Refusal`]: no time passes and nothing changes.
///
/// # Errors
/// [`RuleError`]: a refusal, or an engine error (a bug); the game passed in is unchanged.
pub fn play(g: &Game, command: Command) -> Result<(Game, Vec<Event>), RuleError> {
    let mut w = g.clone();
    let events = play_mut(&mut w, command)?;
    Ok((w, events))
}

/// In-place form of [`play`]: all or nothing.
///
/// # Errors
/// [`RuleError`]; on an error the game is unchanged. Once the game is won or lost every
/// command is refused ([`Refusal::GameOver`]).
pub fn play_mut(g: &mut Game, command: Command) -> Result<Vec<Event>, RuleError> {
    if outcome(g)? != Outcome::Playing {
        return Err(Refusal::GameOver.into());
    }
    let mut w = g.clone();
    let p = player(&w)?;
    let hooks = hooks()?;
    // One context for the command and the world's answer: hooks share its scratch store,
    // where the command's events gather.
    let mut ctx = HookCtx::new(&hooks);
    match command {
        Command::Wait => {}
        Command::Descend | Command::Move(Dir::Down) => climb(&mut w, &mut ctx, p, -1)?,
        Command::Ascend | Command::Move(Dir::Up) => climb(&mut w, &mut ctx, p, 1)?,
        Command::Move(d) => step(&mut w, &mut ctx, p, d)?,
    }
    world_answer(&mut w, &mut ctx, p)?; // the engine's turn: the clock and the turn move on
    remember_view(&mut w)?;
    *g = w;
    Ok(std::mem::take(&mut ctx.scratch::<Heard>().0))
}

/// The game after the player's `command` and the world's answer; a refused command gives
/// the game back unchanged (see [`play`] for the refusal and the events).
///
/// # Errors
/// Engine errors (a bug); the game passed in is unchanged.
pub fn act(g: &Game, command: Command) -> Result<Game, Error> {
    let mut w = g.clone();
    act_mut(&mut w, command)?;
    Ok(w)
}

/// In-place form of [`act`]; returns whether a turn passed. All or nothing: on an error the
/// game is unchanged. Once the game is won or lost, commands do nothing.
///
/// # Errors
/// Engine errors (a bug).
pub fn act_mut(g: &mut Game, command: Command) -> Result<bool, Error> {
    match play_mut(g, command) {
        Ok(_) => Ok(true),
        Err(RuleError::Refused(_)) => Ok(false),
        Err(RuleError::Engine(e)) => Err(e),
    }
}

pub(crate) fn win(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId) {
    g.set_var_mut(&OUTCOME, Outcome::Won);
    tell(g, ctx, p, Event::Escaped);
}

/// Walk, attack or dig one cell in direction `d`.
pub(crate) fn step(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    p: ThingId,
    d: Dir,
) -> Result<(), RuleError> {
    let from = g.things().location(p)?;
    let to = from + d;
    if let Some(c) = creature_at(g, to) {
        attack(g, ctx, p, c)?;
        return Ok(());
    }
    let def = g.tile_def(to)?;
    let (walk, dig, exit) = (def.is(&WALKABLE), def.is(&DIGGABLE), def.is(&EXIT));
    let gem = def.is(&GEM);
    if walk {
        g.move_thing_mut(p, to)?;
        if exit {
            win(g, ctx, p);
        }
        if gem {
            let gems = g.var(&GEMS)? + 1;
            g.set_var_mut(&GEMS, gems);
            g.set_tile_mut(to, tile(g, FLOOR)?)?;
            tell(g, ctx, p, Event::FoundGem { gems });
        }
        Ok(())
    } else if dig && is_inner(to, g.var(&LEVELS)?) {
        let floor = tile(g, FLOOR)?;
        g.set_tile_mut(to, floor)?;
        Ok(())
    } else {
        Err(Refusal::RockTooHard.into())
    }
}

/// Take stairs: `dz = −1` down, `+1` up.
pub(crate) fn climb(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    p: ThingId,
    dz: i32,
) -> Result<(), RuleError> {
    let here = g.things().location(p)?;
    let def = g.tile_def(here)?;
    if dz < 0 && def.is(&EXIT) {
        win(g, ctx, p);
        return Ok(());
    }
    // STAIRS is +1 for stairs leading down: the opposite sign of the z change.
    if def.get(&STAIRS)? != -dz {
        return Err(if dz < 0 {
            Refusal::NoStairsDown
        } else {
            Refusal::NoStairsUp
        }
        .into());
    }
    let target = Loc::new(here.x, here.y, here.z + dz);
    let Some(to) = nearest_free(g, target) else {
        return Err(Refusal::StairsBlocked.into());
    };
    g.move_thing_mut(p, to)?;
    let depth = depth_of(to.z);
    if depth > g.var(&DEEPEST)? {
        g.set_var_mut(&DEEPEST, depth);
    }
    let (level, levels) = (depth + 1, g.var(&LEVELS)?);
    let event = if dz < 0 {
        Event::WentDown { level, levels }
    } else {
        Event::WentUp { level, levels }
    };
    tell(g, ctx, p, event);
    Ok(())
}
