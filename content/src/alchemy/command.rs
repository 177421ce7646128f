//! The one pure funnel: a [`Command`] applied to a game gives a new game (or a
//! [`RuleError`] that costs no time and explains itself).

use std::sync::Arc;

use alembic::{Dir, Error, Game, HookCtx, Hooks, Loc, ThingId, hook::HookCall, hook::ON_USE};
use serde::{Deserialize, Serialize};

use super::error::refuse;
pub use super::error::{Refusal, RuleError};
use super::kinds::RecipeId;
use super::props::{
    CAUSE, DEEPEST, DESCRIPTION, DESTINATION, DOOR_STRENGTH, GAME_OVER, IS_CONFUSED, IS_DOOR,
    IS_EXIT, IS_GHOST, IS_HERO, IS_OPEN, IS_SCENERY, IS_STAIRS, IS_STAIRS_DOWN, IS_STAIRS_UP,
    IS_STONE, MSG_COUNT, OUTCOME, SPEED, ST, USE_MESSAGE, WIZARD_MODE,
};
use super::rules::ai::ACTION;
use super::rules::combat;
use super::rules::doors::set_open;
use super::rules::items::{self, inventory};
use super::rules::time::{action_time, arrive, end_turn, leave_level};
use super::rules::world::{
    blocker_at, creature_at, depth_of, hero, items_at, level_box, say, scenery_at, tile_blocks,
    tile_dangerous,
};
use super::text::{a_name, capitalise, count_name, the_name};

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
    /// Describe a location (free: no time passes, the game is unchanged).
    Look(Loc),
    /// A wizard-mode console line (`depth 4`, `summon goblin`…; see [`super::wizard`]).
    /// Only a game started in wizard mode accepts it; it takes no game time. As a command it
    /// is recorded and replayed like any other.
    Wizard(String),
}

/// The result of an accepted command.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The game after the command and the turn it ended.
    pub game: Game,
    /// Messages written during the command, oldest first.
    pub messages: Vec<String>,
    /// Time that passed (0 for free commands such as look).
    pub elapsed: i32,
    /// Whether the game ended with this command.
    pub over: bool,
}

/// The rule set: the registered hooks the library names.
#[derive(Clone, Debug)]
pub struct Rules {
    hooks: Hooks,
}

impl Rules {
    /// The Alchemy rules.
    pub fn new() -> Result<Rules, Error> {
        Ok(Rules {
            hooks: super::hooks::build()?,
        })
    }

    /// The hook registry (for [`Game::check_hooks`] and loading).
    #[must_use]
    pub fn hooks(&self) -> &Hooks {
        &self.hooks
    }
}

/// Apply `cmd` to `game`. On success the returned game has had the hero's action and the
/// rest of the turn (effects, monsters); on a [`RuleError`] nothing happened.
pub fn apply(game: &Game, rules: &Rules, cmd: Command) -> Result<Outcome, RuleError> {
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Err(RuleError::GameOver);
    }
    if let Command::Look(l) = cmd {
        return Ok(Outcome {
            game: game.clone(),
            messages: vec![look(game, l)?],
            elapsed: 0,
            over: false,
        });
    }
    if let Command::Wizard(line) = cmd {
        if !game.var(&WIZARD_MODE).unwrap_or(false) {
            return refuse(Refusal::NotWizard);
        }
        let cmds = super::wizard::commands(rules).map_err(|e| RuleError::Wizard(e.to_string()))?;
        let out = cmds
            .run(game, &line)
            .map_err(|e| RuleError::Wizard(e.to_string()))?;
        let mut state = out.state;
        if let Ok(h) = hero(&state) {
            items::assign_letters(&mut state, h)?;
        }
        let over = state.var(&GAME_OVER).unwrap_or(false);
        return Ok(Outcome {
            game: state,
            messages: out.lines,
            elapsed: 0,
            over,
        });
    }
    let before = game.var(&MSG_COUNT).unwrap_or(0);
    let mut g = game.clone();
    let h = hero(&g)?;
    let cost = hero_action(&mut g, &rules.hooks, h, cmd)?;
    let speed = g.query(h, &SPEED)?;
    let elapsed = action_time(cost, speed);
    if !g.var(&GAME_OVER).unwrap_or(false) {
        end_turn(&mut g, &rules.hooks, elapsed)?;
    }
    // Whatever came into the pack gets its letter; what stayed keeps its own.
    if g.contains(h) {
        items::assign_letters(&mut g, h)?;
    }
    let after = g.var(&MSG_COUNT).unwrap_or(0);
    let n = usize::try_from(after - before).unwrap_or(0);
    let mut messages: Vec<String> = g
        .messages()
        .rev()
        .take(n)
        .map(|m| m.text.to_string())
        .collect();
    messages.reverse();
    let over = g.var(&GAME_OVER).unwrap_or(false);
    Ok(Outcome {
        game: g,
        messages,
        elapsed,
        over,
    })
}

/// The hero's part of a command; returns its cost.
fn hero_action(game: &mut Game, hooks: &Hooks, h: ThingId, cmd: Command) -> Result<i32, RuleError> {
    match cmd {
        Command::Move(d) => move_hero(game, hooks, h, d),
        Command::Wait => Ok(ACTION),
        Command::Ascend => ascend(game, hooks, h),
        Command::Descend => descend(game, hooks, h),
        Command::PickUp(i) => items::pick_up(game, h, i),
        Command::Drop(i) => items::drop(game, h, i, None),
        Command::DropSome(i, n) => items::drop(game, h, i, Some(n)),
        Command::Quaff(i) => items::quaff(game, hooks, h, i),
        Command::Eat(i) => items::eat(game, hooks, h, i),
        Command::Throw(i, l) => items::throw(game, hooks, h, i, l),
        Command::Wield(i) => items::wield(game, h, i),
        Command::Unwield(i) => items::unwield(game, h, i),
        Command::Open(d) => open_close(game, h, d, true),
        Command::Close(d) => open_close(game, h, d, false),
        Command::Analyse(i) => items::analyse(game, h, i),
        Command::Craft(p) => items::craft(game, h, p.potion()),
        Command::Look(_) | Command::Wizard(_) => Ok(0),
    }
}

fn planar(d: Dir) -> Result<Dir, RuleError> {
    if matches!(d, Dir::Up | Dir::Down) {
        return refuse(Refusal::UseStairs);
    }
    Ok(d)
}

fn move_hero(game: &mut Game, hooks: &Hooks, h: ThingId, d: Dir) -> Result<i32, RuleError> {
    let mut d = planar(d)?;
    let at = game.location(h)?;
    if game.is(h, &IS_CONFUSED) && game.rng().chance(0.4) {
        d = Dir::COMPASS[game.rng().below(8) as usize];
        let to = at + d;
        // A stumble always takes the turn, even into a wall (otherwise a confused hero
        // could be refused forever and the confusion would never wear off).
        if tile_blocks(game, to) || tile_dangerous(game, to) {
            say(game, "You stumble and bump into something.");
            return Ok(ACTION);
        }
        say(game, "You stumble.");
    }
    let to = at + d;
    if let Some(c) = creature_at(game, to) {
        combat::attack(game, hooks, h, c)?;
        return Ok(ACTION);
    }
    if let Some(b) = blocker_at(game, to) {
        if game.is(b, &IS_DOOR) && !game.is(b, &IS_OPEN) {
            return open_door(game, h, b);
        }
        return use_scenery(game, hooks, h, b);
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
    describe_here(game, to)?;
    Ok(ACTION)
}

/// Say what lies where the hero now stands.
fn describe_here(game: &mut Game, at: Loc) -> Result<(), Error> {
    if let Some(s) = scenery_at(game, at)
        && game.is(s, &IS_STAIRS)
    {
        let n = a_name(game, s)?;
        say(game, format!("There is {n} here."));
    }
    let items = items_at(game, at);
    if items.is_empty() {
        return Ok(());
    }
    say(game, format!("You see {}.", list_items(game, &items)?));
    Ok(())
}

/// "2 strange herbs and a dagger": items grouped by their displayed name.
pub fn list_items(game: &Game, items: &[ThingId]) -> Result<String, Error> {
    let mut groups: Vec<(String, usize, ThingId)> = Vec::new();
    for &i in items {
        let n = crate::alchemy::text::base_name(game, i)?;
        match groups.iter_mut().find(|g| g.0 == n) {
            Some(g) => g.1 += 1,
            None => groups.push((n, 1, i)),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(n, k, i)| {
            if *k == 1 {
                a_name(game, *i).unwrap_or_else(|_| n.clone())
            } else {
                count_name(*k, n)
            }
        })
        .collect();
    Ok(match parts.len() {
        0 => "nothing".to_string(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    })
}

fn open_door(game: &mut Game, h: ThingId, door: ThingId) -> Result<i32, RuleError> {
    let need = game.query(door, &DOOR_STRENGTH)?;
    let name = the_name(game, door)?;
    if need > 0 {
        let st = game.query(h, &ST)?;
        let roll = game.rng().range(1, 6) as i32;
        if st + roll < need + 3 {
            say(
                game,
                format!("You strain against {name}, but it does not budge."),
            );
            return Ok(ACTION);
        }
    }
    set_open(game, door, true)?;
    say(game, format!("You open {name}."));
    Ok(ACTION)
}

fn open_close(game: &mut Game, h: ThingId, d: Dir, open: bool) -> Result<i32, RuleError> {
    let d = planar(d)?;
    let to = game.location(h)? + d;
    let Some(door) = game
        .things_at(to)
        .iter()
        .copied()
        .find(|&t| game.is(t, &IS_DOOR))
    else {
        return refuse(Refusal::NoDoor);
    };
    let name = the_name(game, door)?;
    if open {
        if game.is(door, &IS_OPEN) {
            return refuse(Refusal::AlreadyOpen);
        }
        open_door(game, h, door)
    } else {
        if !game.is(door, &IS_OPEN) {
            return refuse(Refusal::AlreadyClosed);
        }
        if creature_at(game, to).is_some() || !items_at(game, to).is_empty() {
            return refuse(Refusal::DoorwayBusy);
        }
        set_open(game, door, false)?;
        say(game, format!("You close {name}."));
        Ok(ACTION)
    }
}

fn use_scenery(game: &mut Game, hooks: &Hooks, h: ThingId, s: ThingId) -> Result<i32, RuleError> {
    let ran = game.run_hook_mut(
        &mut HookCtx::new(hooks),
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
        Some(m) => {
            say(game, m.to_string());
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
    let at = game.location(h)?;
    Ok(game
        .things_at(at)
        .iter()
        .copied()
        .find(|&t| game.is(t, flag)))
}

fn descend(game: &mut Game, hooks: &Hooks, h: ThingId) -> Result<i32, RuleError> {
    let Some(s) = stairs_here(game, h, &IS_STAIRS_DOWN)? else {
        return refuse(Refusal::NoStairsDown);
    };
    travel(game, hooks, h, s)?;
    let z = game.location(h)?.z;
    let deepest = game.var(&DEEPEST).unwrap_or(1).max(depth_of(z));
    game.set_var_mut(&DEEPEST, deepest);
    say(game, format!("You descend to depth {}.", depth_of(z)));
    Ok(ACTION)
}

fn ascend(game: &mut Game, hooks: &Hooks, h: ThingId) -> Result<i32, RuleError> {
    let Some(s) = stairs_here(game, h, &IS_STAIRS_UP)? else {
        return refuse(Refusal::NoStairsUp);
    };
    if game.is(s, &IS_EXIT) {
        let has_stone = inventory(game, h).iter().any(|&t| game.is(t, &IS_STONE));
        if !has_stone {
            return refuse(Refusal::NeedStone);
        }
        say(
            game,
            "You climb out of the dungeon with the Philosopher's Stone. You win!",
        );
        game.set_var_mut(&GAME_OVER, true);
        game.set_var_mut(&OUTCOME, super::kinds::Fate::Won);
        game.set_var_mut(&CAUSE, Arc::from("escaped with the Philosopher's Stone"));
        return Ok(ACTION);
    }
    travel(game, hooks, h, s)?;
    let z = game.location(h)?.z;
    say(game, format!("You climb up to depth {}.", depth_of(z)));
    Ok(ACTION)
}

/// Move the hero along a staircase; if someone stands on the landing, the nearest free
/// cell beside it.
fn travel(game: &mut Game, hooks: &Hooks, h: ThingId, stairs: ThingId) -> Result<(), RuleError> {
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
    let from = game.location(h)?.z;
    if spot.z != from {
        leave_level(game, from)?;
        arrive(game, hooks, spot.z)?;
    }
    game.move_thing_mut(h, spot)?;
    Ok(())
}

/// What the hero can tell about a location.
pub fn look(game: &Game, l: Loc) -> Result<String, RuleError> {
    let info = super::view::look_at(game, l)?;
    Ok(info.text)
}

/// How the game stands: over or not, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Playing, won or died.
    pub outcome: super::kinds::Fate,
    /// Why it ended ("killed by a rat", "escaped with the Philosopher's Stone"); empty while
    /// playing.
    pub cause: String,
    /// Hero actions taken.
    pub turns: u64,
    /// Current depth (1..=11).
    pub depth: i32,
    /// Deepest depth reached.
    pub deepest: i32,
    /// Monsters the hero killed.
    pub kills: i64,
}

/// The summary of `game`.
pub fn summary(game: &Game) -> Result<Summary, Error> {
    let h = hero(game)?;
    let depth = depth_of(game.location(h)?.z);
    let over = game.var(&GAME_OVER).unwrap_or(false);
    Ok(Summary {
        // Over without a recorded fate cannot happen in play; it reads as a death.
        outcome: if over {
            game.var(&OUTCOME).unwrap_or(super::kinds::Fate::Died)
        } else {
            super::kinds::Fate::Playing
        },
        cause: game.var(&CAUSE).map(|c| c.to_string()).unwrap_or_default(),
        turns: game.turn(),
        depth,
        deepest: game.var(&DEEPEST).unwrap_or(1).max(depth),
        kills: game.var(&super::props::KILLS).unwrap_or(0),
    })
}

/// Whether `t` is the hero.
#[must_use]
pub fn is_hero(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_HERO)
}

/// A look sentence for a thing (its description or its name).
pub fn describe_thing(game: &Game, t: ThingId) -> Result<String, Error> {
    if let Some(d) = game.query_opt(t, &DESCRIPTION)? {
        return Ok(d.to_string());
    }
    let n = a_name(game, t)?;
    Ok(capitalise(&n))
}

/// Whether any scenery is at `l`.
#[must_use]
pub fn has_scenery(game: &Game, l: Loc) -> bool {
    game.things_at(l).iter().any(|&t| game.is(t, &IS_SCENERY))
}
