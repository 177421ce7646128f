//! The rules: the player's commands, a turn of the world, combat, messages, sight and memory,
//! and the creatures' behaviour hooks.

use std::sync::Arc;

use alembic::{
    DijkstraMap, Dir, Error, Game, HookCall, HookCtx, Loc, LocBox, NORMAL_ACTION, ON_USE, PropType,
    Search, ThingId, TileId, Value, ValueKind, VisibleSet, astar, field_of_view,
};
use serde::{Deserialize, Serialize};

use super::data::{
    ATTACK, CAUSE, DEEPEST, DEFENCE, DIGGABLE, EXIT, FLOOR, HP, IS_HERO, IS_HOSTILE, KILLS, LEVELS,
    MAX_HP, NAME, OUTCOME, PLAYER, RECEIVER, REINFORCEMENTS, SEEN_LAYER, SPORES, STAIRS,
    TRANSPARENT, VERB, WALKABLE, hooks, tile,
};
use super::error::{Refusal, RuleError};
use super::events::Event;
use super::text;
use super::world::{depth_of, is_inner, level_box, random_empty_floor, walkable};

/// How far the player sees.
pub const VIEW_RADIUS: u32 = 9;
/// Messages reach everyone within this many cells (king's moves) on the same level.
pub const HEARING: i32 = 7;
/// The player heals one hit point every this many turns.
pub const REGEN_EVERY: u64 = 10;
/// Lichens grow with probability 1 in this, per turn.
pub const LICHEN_GROWTH_ODDS: u64 = 100;
/// Each turn, with probability 1 in this, a new hunter comes out of the dark on the
/// player's level (out of sight, up to [`MAX_HUNTERS`] plus one per level of depth):
/// lingering is dangerous.
pub const REINFORCE_ODDS: u64 = 30;
/// Hunters allowed on the top level before reinforcements stop.
pub const MAX_HUNTERS: usize = 4;

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

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Still underground and alive.
    Playing,
    /// Reached the way out.
    Won,
    /// Died.
    Dead,
}

/// Stored as a number; any other number reads as an error, never as a default.
impl PropType for Outcome {
    const KIND: ValueKind = ValueKind::Int;
    fn into_value(self) -> Value {
        Value::Int(match self {
            Outcome::Playing => 0,
            Outcome::Won => 1,
            Outcome::Dead => 2,
        })
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Int(0) => Some(Outcome::Playing),
            Value::Int(1) => Some(Outcome::Won),
            Value::Int(2) => Some(Outcome::Dead),
            _ => None,
        }
    }
}

/// The player's vital signs, for status lines and reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Hit points.
    pub hp: i32,
    /// Hit points when unhurt.
    pub max_hp: i32,
    /// Where the player is.
    pub at: Loc,
    /// The level the player is on (0 = the top).
    pub depth: i32,
    /// The deepest level reached.
    pub deepest: i32,
    /// How many levels the world has.
    pub levels: i32,
    /// Turns taken.
    pub turn: u64,
    /// Creatures killed by the player.
    pub kills: i64,
    /// Playing, won or dead.
    pub outcome: Outcome,
    /// What ended the game, empty while playing.
    pub cause: String,
}

// ----- reading the game ----------------------------------------------------------------------

/// The player's id.
///
/// # Errors
/// [`Error::MissingProperty`] for a game that is not a Caves game.
pub fn player(g: &Game) -> Result<ThingId, Error> {
    g.var(&PLAYER)
}

/// How the game stands.
///
/// # Errors
/// A corrupt outcome variable.
pub fn outcome(g: &Game) -> Result<Outcome, Error> {
    g.var(&OUTCOME)
}

/// The player's vital signs.
///
/// # Errors
/// Engine errors for a game that is not a Caves game.
pub fn status(g: &Game) -> Result<Status, Error> {
    let p = player(g)?;
    let at = g.location(p)?;
    Ok(Status {
        hp: g.query(p, &HP)?,
        max_hp: g.query(p, &MAX_HP)?,
        at,
        depth: depth_of(at.z),
        deepest: g.var(&DEEPEST)?,
        levels: g.var(&LEVELS)?,
        turn: g.turn(),
        kills: g.var(&KILLS)?,
        outcome: outcome(g)?,
        cause: g.var(&CAUSE).map(|c| c.to_string()).unwrap_or_default(),
    })
}

/// The creature standing at `l`, if any (in the Caves every thing on the map is a creature).
#[must_use]
pub fn creature_at(g: &Game, l: Loc) -> Option<ThingId> {
    g.things_at(l).first().copied()
}

/// A creature's name ("cave bat"); "something" if it has none.
#[must_use]
pub fn name_of(g: &Game, id: ThingId) -> Arc<str> {
    g.query(id, &NAME)
        .unwrap_or_else(|_| Arc::from("something"))
}

/// Whether the creature hunts the player.
#[must_use]
pub fn is_hostile(g: &Game, id: ThingId) -> bool {
    g.is(id, &IS_HOSTILE)
}

/// Every creature on level `z` (the player included), in id order. Reads the engine's cell
/// index for that level only, so things on other levels cost nothing.
#[must_use]
pub fn creatures_on(g: &Game, z: i32) -> Vec<ThingId> {
    let mut ids: Vec<ThingId> = g
        .things_on_level(z)
        .into_iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    ids.sort_unstable();
    ids
}

fn transparent(g: &Game, l: Loc) -> bool {
    g.tile_def(l).is_ok_and(|d| d.is(&TRANSPARENT))
}

/// What the player sees now (symmetric shadowcasting, radius [`VIEW_RADIUS`]).
///
/// # Errors
/// Engine errors for a game that is not a Caves game.
pub fn visible(g: &Game) -> Result<VisibleSet, Error> {
    let at = g.location(player(g)?)?;
    Ok(field_of_view(at, VIEW_RADIUS, |l| transparent(g, l)))
}

/// The tile the player remembers at `l`, if they have seen it.
#[must_use]
pub fn remembered(g: &Game, l: Loc) -> Option<TileId> {
    g.layer_get(&SEEN_LAYER, l)
}

/// Write what the player sees into their memory of the map (a layer of the game value).
pub(crate) fn remember_view(g: &mut Game) -> Result<(), Error> {
    let seen = visible(g)?;
    for l in seen.iter() {
        let t = g.tile(l);
        g.set_layer_mut(&SEEN_LAYER, l, Some(t));
    }
    Ok(())
}

// ----- events --------------------------------------------------------------------------------

/// The events of one command, gathered in the hook context's scratch store (so hooks add to
/// them too).
#[derive(Default)]
struct Heard(Vec<Event>);

/// Deliver `event` to `who` if it receives messages: the player's inbox is the game's log,
/// written from the event, and the event is one of the command's.
fn tell(g: &mut Game, ctx: &mut HookCtx<'_>, who: ThingId, event: Event) {
    if g.is(who, &RECEIVER) {
        g.log_mut(text::describe(&event));
        ctx.scratch::<Heard>().0.push(event);
    }
}

/// Tell `event` to everyone within [`HEARING`] of `at` on its level.
fn say_near(g: &mut Game, ctx: &mut HookCtx<'_>, at: Loc, event: &Event) {
    let area = LocBox::new(
        Loc::new(at.x - HEARING, at.y - HEARING, at.z),
        Loc::new(at.x + HEARING + 1, at.y + HEARING + 1, at.z + 1),
    );
    let mut hearers = Vec::new();
    for l in area.iter() {
        hearers.extend(g.things_at(l).iter().copied());
    }
    for who in hearers {
        tell(g, ctx, who, event.clone());
    }
}

// ----- combat --------------------------------------------------------------------------------

fn alive(g: &Game, id: ThingId) -> bool {
    g.contains(id) && g.query(id, &HP).is_ok_and(|hp| hp > 0)
}

/// Attack `target`: touching it first (its [`ON_USE`] hook: lichens sting), then a blow.
fn attack(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    attacker: ThingId,
    target: ThingId,
) -> Result<(), Error> {
    let call = HookCall {
        actor: Some(attacker),
        ..HookCall::on(target)
    };
    g.run_hook_mut(ctx, &ON_USE, call)?;
    if alive(g, attacker) && alive(g, target) {
        strike(g, ctx, attacker, target)?;
    }
    Ok(())
}

/// One blow: `1 + rand(max(0, attack − defence))` damage, with messages.
fn strike(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    attacker: ThingId,
    target: ThingId,
) -> Result<(), Error> {
    let attack = g.query(attacker, &ATTACK)?;
    let defence = g.query(target, &DEFENCE)?;
    let spread = u64::try_from(attack.saturating_sub(defence).max(0)).unwrap_or(0);
    let damage = 1 + g.rng().below(spread) as i32;
    let (a_name, t_name) = (name_of(g, attacker), name_of(g, target));
    let verb = g
        .query(attacker, &VERB)
        .unwrap_or_else(|_| Arc::from("hits"));
    if g.is(attacker, &IS_HERO) {
        let event = Event::YouHit {
            target: t_name,
            damage,
        };
        tell(g, ctx, attacker, event);
    } else if g.is(target, &IS_HERO) {
        let event = Event::HitYou {
            attacker: a_name,
            verb,
            damage,
        };
        tell(g, ctx, target, event);
    } else {
        let at = g.location(target)?;
        let event = Event::Struck {
            attacker: a_name,
            verb,
            target: t_name,
        };
        say_near(g, ctx, at, &event);
    }
    hurt(g, ctx, target, damage, attacker)
}

/// Take `damage` hit points from `victim`; at 0 it dies.
fn hurt(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    victim: ThingId,
    damage: i32,
    by: ThingId,
) -> Result<(), Error> {
    let hp = g.query(victim, &HP)?.saturating_sub(damage);
    g.set_mut(victim, &HP, hp)?;
    if hp <= 0 {
        die(g, ctx, victim, by)
    } else {
        Ok(())
    }
}

fn die(g: &mut Game, ctx: &mut HookCtx<'_>, victim: ThingId, by: ThingId) -> Result<(), Error> {
    let name = name_of(g, victim);
    let killer = name_of(g, by);
    if g.is(victim, &IS_HERO) {
        g.set_var_mut(&OUTCOME, Outcome::Dead);
        let cause = text::death_cause(&killer);
        g.set_var_mut(&CAUSE, Arc::from(cause.as_str()));
        tell(g, ctx, victim, Event::YouDied { killer });
        return Ok(());
    }
    let at = g.location(victim)?;
    g.remove_thing_mut(victim)?;
    if g.is(by, &IS_HERO) {
        let kills = g.var(&KILLS)?;
        g.set_var_mut(&KILLS, kills + 1);
        tell(g, ctx, by, Event::YouKilled { victim: name });
    } else {
        say_near(g, ctx, at, &Event::Died { victim: name });
    }
    Ok(())
}

// ----- the player's turn ---------------------------------------------------------------------

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
    world_answer(&mut w, &mut ctx, p)?;
    w.set_turn_mut(w.turn() + 1);
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

fn win(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId) {
    g.set_var_mut(&OUTCOME, Outcome::Won);
    g.set_var_mut(&CAUSE, Arc::from(text::ESCAPE_CAUSE));
    tell(g, ctx, p, Event::Escaped);
}

/// Walk, attack or dig one cell in direction `d`.
fn step(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId, d: Dir) -> Result<(), RuleError> {
    let from = g.location(p)?;
    let to = from + d;
    if let Some(c) = creature_at(g, to) {
        attack(g, ctx, p, c)?;
        return Ok(());
    }
    let def = g.tile_def(to)?;
    let (walk, dig, exit) = (def.is(&WALKABLE), def.is(&DIGGABLE), def.is(&EXIT));
    if walk {
        g.move_thing_mut(p, to)?;
        if exit {
            win(g, ctx, p);
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
fn climb(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId, dz: i32) -> Result<(), RuleError> {
    let here = g.location(p)?;
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

/// `l` if a creature can stand there and none does, else the nearest such cell within 3.
pub(crate) fn nearest_free(g: &Game, l: Loc) -> Option<Loc> {
    (0..=3).find_map(|r: i32| {
        LocBox::new(
            Loc::new(l.x - r, l.y - r, l.z),
            Loc::new(l.x + r + 1, l.y + r + 1, l.z + 1),
        )
        .iter()
        .find(|&c| {
            c.chebyshev(l) == r.unsigned_abs() && walkable(g, c) && g.things_at(c).is_empty()
        })
    })
}

/// The most actions the world may take between two of the player's (a bound, never reached
/// in play: a level holds a few dozen creatures).
const MAX_WORLD_ACTIONS: usize = 100_000;

/// Keep the engine's actor queue to the player and the creatures of the player's level: the
/// creatures of other levels sleep until the player arrives. Newcomers (the creatures of a
/// level just reached, spawned ones, and everyone in a game saved before the queue) are queued
/// to act now, in id order.
///
/// # Errors
/// Engine errors (a bug).
pub(crate) fn wake_level(g: &mut Game, p: ThingId) -> Result<(), Error> {
    let z = g.location(p)?.z;
    let asleep: Vec<ThingId> = g
        .actors()
        .filter(|&id| !g.location(id).is_ok_and(|l| l.z == z))
        .collect();
    for id in asleep {
        g.unschedule_mut(id);
    }
    for id in creatures_on(g, z) {
        if !g.is_scheduled(id) {
            g.schedule_mut(id, 0)?;
        }
    }
    Ok(())
}

/// The world's answer to the player's action, on the engine's scheduler: the player's action
/// costs [`NORMAL_ACTION`], then every creature of the player's level due before the player's
/// next action takes its turn ([`Game::advance_until_mut`], in queue order; zombies, of
/// [`SPEED`](alembic::SPEED) 50, every other turn), stopping when the player is next or the
/// game is over; then reinforcements may come and the player heals a little.
fn world_answer(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId) -> Result<(), Error> {
    g.acted_mut(p, NORMAL_ACTION)?;
    if outcome(g)? != Outcome::Playing {
        return Ok(());
    }
    wake_level(g, p)?;
    let _ = g.advance_until_mut(ctx, MAX_WORLD_ACTIONS, |g, id| {
        id == p || !outcome(g).is_ok_and(|o| o == Outcome::Playing)
    })?;
    if outcome(g)? != Outcome::Playing {
        return Ok(());
    }
    let z = g.location(p)?.z;
    if g.var(&REINFORCEMENTS)? && g.rng().one_in(1, REINFORCE_ODDS) {
        reinforce(g, ctx, p, z)?;
    }
    if (g.turn() + 1).is_multiple_of(REGEN_EVERY) {
        let (hp, max) = (g.query(p, &HP)?, g.query(p, &MAX_HP)?);
        if hp < max {
            g.set_mut(p, &HP, hp + 1)?;
        }
    }
    Ok(())
}

/// A new hunter on level `z`, out of the player's sight, chosen by the library's random
/// creation among hostile prototypes of level 1 to depth + 1.
fn reinforce(g: &mut Game, ctx: &mut HookCtx<'_>, p: ThingId, z: i32) -> Result<(), Error> {
    let depth = depth_of(z);
    let hunters = creatures_on(g, z)
        .into_iter()
        .filter(|&c| is_hostile(g, c))
        .count();
    if hunters >= MAX_HUNTERS + depth.max(0) as usize {
        return Ok(());
    }
    let name = g.random_name(&IS_HOSTILE, 1, depth + 1)?;
    let away = (g.location(p)?, VIEW_RADIUS + 3);
    if let Some(at) = random_empty_floor(g, z, Some(away))? {
        g.spawn_mut(ctx, &name, at)?;
    }
    Ok(())
}

// ----- creature behaviour (hooks) ------------------------------------------------------------

/// Move `me` to a random neighbouring cell it may enter and nobody occupies (or stay).
fn wander(g: &mut Game, me: ThingId, can_enter: impl Fn(&Game, Loc) -> bool) -> Result<(), Error> {
    let here = g.location(me)?;
    let options: Vec<Loc> = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| can_enter(g, l) && g.things_at(l).is_empty())
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
    let here = g.location(me)?;
    let options: Vec<Loc> = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| walkable(g, l) && g.things_at(l).is_empty())
        .collect();
    let Some(i) = g.rng().index(options.len()) else {
        return Ok(());
    };
    g.set_mut(me, &SPORES, spores - 1)?;
    let child = g.spawn_mut(ctx, "lichen", options[i])?;
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
        Some(toucher) if g.contains(toucher) => strike(g, ctx, call.this, toucher),
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
fn hunter_cost(g: &Game, goal: Loc) -> impl Fn(Loc, Loc) -> Option<u32> + '_ {
    move |_, to| (walkable(g, to) && (to == goal || g.things_at(to).is_empty())).then_some(1)
}

/// The box of radius `r` around `at`, on its level.
fn around(at: Loc, r: i32) -> LocBox {
    LocBox::new(
        Loc::new(at.x - r, at.y - r, at.z),
        Loc::new(at.x + r + 1, at.y + r + 1, at.z + 1),
    )
    .intersect(&level_box(at.z))
}

/// The player's location if the player is alive on `here`'s level within `range`.
fn prey(g: &Game, here: Loc, range: u32) -> Result<Option<(ThingId, Loc)>, Error> {
    let p = player(g)?;
    let at = g.location(p)?;
    Ok(
        (outcome(g)? == Outcome::Playing && at.z == here.z && here.chebyshev(at) <= range)
            .then_some((p, at)),
    )
}

/// One step of `me` that brings it closest (king's moves) to `goal`, if any is better than
/// staying: how hunters drift towards a player they cannot track yet.
fn drift(g: &mut Game, me: ThingId, goal: Loc) -> Result<(), Error> {
    let here = g.location(me)?;
    let best = Dir::COMPASS
        .iter()
        .map(|&d| here + d)
        .filter(|&l| walkable(g, l) && g.things_at(l).is_empty())
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
    let here = g.location(me)?;
    match prey(g, here, 10)? {
        Some((p, at)) if here.chebyshev(at) == 1 => attack(g, ctx, me, p),
        Some((_, at)) if g.rng().one_in(2, 3) => {
            let next = {
                let cost = hunter_cost(g, at);
                DijkstraMap::build(around(here, 10), &[at], &cost).next_step(here, &cost)
            };
            match next {
                Some(l) if l != at && g.things_at(l).is_empty() => g.move_thing_mut(me, l),
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

/// Zombie: slow (its [`SPEED`](alembic::SPEED) of 50 gives it every other turn); claws the player when beside them, follows them by
/// A* within 20 cells, and otherwise shuffles towards the player's scent (half its turns).
pub(crate) fn zombie_turn(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let me = call.this;
    let here = g.location(me)?;
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
                Some(l) if l != at && g.things_at(l).is_empty() => g.move_thing_mut(me, l),
                _ => Ok(()),
            }
        }
        None => match prey(g, here, u32::MAX)? {
            Some((_, at)) if g.rng().one_in(1, 2) => drift(g, me, at),
            _ => Ok(()),
        },
    }
}
