//! Time: speed and the engine's scheduler. A hero action of cost `c` takes `100·c/speed`
//! time; the world then advances by that much: effects tick, and the actors on the hero's
//! level (the hero and its monsters) take their turns in the order of the engine's schedule
//! ([`alembic::schedule`]) until the hero is next, each action of cost `c` putting its actor
//! `100·c/its speed` later. Wandering monsters may appear out of sight, and the hero's map
//! memory is updated.

use std::sync::Arc;

use alembic::{Error, Game, HookCtx, Hooks, ThingId, fov::VisibleSet};
use alembic_session::plan::Plan;

use super::ai;
use super::combat::{self, Source};
use super::cunning;
use super::effects::effects_of;
use super::memory::remember;
use super::world::{
    TileTable, creatures_on_level, hero, hero_view_with, random_floor, sight_blockers_near,
};
use crate::events::{Cause, Event, Noun, emit};
use crate::kinds::DamageType;
use crate::props::{
    AWAY_SINCE, DURATION, FOE, GAME_OVER, HP_ACC, HP_PER_TURN, IS_CONFUSED, IS_CREATURE,
    IS_HOSTILE, IS_POISON, IS_UNDEAD, LAST_SEEN, REGEN_ACC, SPEED, TG, TIME,
};

/// Most actions a monster may take, on average, in one world step (a safety net against
/// huge speeds: the step stops after this many per actor even if the hero is not next).
const MAX_ACTIONS: usize = 8;

/// The number of creatures on a level from which a world step fetches their records
/// together before they act ([`alembic::Things::prefetch`]). Below it the pass is not
/// worth its walk: with it on every level, whole bot games (a few dozen creatures a level)
/// ran 0.93× as fast; with 10,000 rats on a level the turn ran 0.93–0.98× as long
/// (least of 20 samples, alternating rounds, within this host's spread).
const PREFETCH_FROM: usize = 1024;

/// Speeds below this count as this in [`action_time`].
const MIN_SPEED: i32 = 10;

/// Time an action of `cost` takes an actor of `speed`.
#[must_use]
pub fn action_time(cost: i32, speed: i32) -> i32 {
    (100i32.saturating_mul(cost) / speed.max(MIN_SPEED)).max(1)
}

/// The schedule's delay for an action of `cost` by an actor of `speed` ([`action_time`]).
fn delay(cost: i32, speed: i32) -> u64 {
    u64::try_from(action_time(cost, speed)).unwrap_or(1)
}

/// Advance the world by `elapsed` time after a hero action. Returns the hero's field of
/// view at the end of the turn (what it remembered), or `None` when the game ended first.
pub fn end_turn(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    elapsed: i32,
) -> Result<Option<VisibleSet>, Error> {
    end_turn_with(game, ctx, elapsed, &TileTable::new(game))
}

/// [`end_turn`] with the game's tile table at hand (tile definitions never change during
/// play, so one table, with its scratch workspaces, serves the whole turn).
pub fn end_turn_with(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    elapsed: i32,
    table: &TileTable,
) -> Result<Option<VisibleSet>, Error> {
    world_step(game, ctx, elapsed, table, None)
}

/// [`end_turn_with`], or with `foresee` = `Some(m)` the same step inside a future that
/// monster `m` is planning ([`super::cunning`]): every monster plays by the cheap rules
/// (so a search never recurses), the step stops as soon as `m` is next to act (or the
/// hero), and what only the real game needs (wandering monsters, the hero's map memory) is
/// left out.
fn world_step(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    elapsed: i32,
    table: &TileTable,
    foresee: Option<ThingId>,
) -> Result<Option<VisibleSet>, Error> {
    let h = hero(game)?;
    let now = game
        .var(&TIME)
        .unwrap_or(0)
        .saturating_add(i64::from(elapsed));
    game.set_var_mut(&TIME, now);
    game.set_turn_mut(game.turn().saturating_add(1));
    tick_effects(game, ctx, h, elapsed)?;
    natural_healing(game, h, elapsed)?;
    super::progress::level_up(game, ctx, h)?;
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Ok(None);
    }
    let z = game.things().location(h)?.z;
    let view = hero_view_with(game, table)?;
    // What the view depends on, to tell afterwards whether it must be computed again: only
    // the real step asks (a future ends before that question).
    let seen_from = game.things().location(h)?;
    let depends = match foresee {
        None => Some((game.terrain().clone(), sight_blockers_near(game, seen_from))),
        Some(_) => None,
    };
    // The hero acts again `elapsed` after its turn: bring the clock to that turn (acting at no
    // cost), then put the hero `elapsed` later.
    if game.schedule().is_scheduled(h) {
        game.acted_mut(h, 0)?;
    }
    game.scheduler()
        .add(h, u64::try_from(elapsed).unwrap_or(1))?;
    // Only the hero's level is simulated: the engine queues its creatures (they take turns:
    // `ACTS`) and puts the level the hero left to sleep.
    if game.schedule().awake_levels().as_deref() != Some(&[z][..]) {
        game.scheduler().set_awake_levels([z])?;
    }
    let level = creatures_on_level(game, z);
    for &m in &level {
        if m != h && game.things().contains(m) {
            tick_effects(game, ctx, m, elapsed)?;
        }
    }
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Ok(None);
    }
    // Every creature of the level acts below, each first reading its record. On a level of
    // thousands the records outgrow the cache: fetch them all at once beforehand rather
    // than one miss per creature in the middle of its turn. On a level of a few dozen (as
    // Alchemy's dungeon makes them) they are in the cache already, and the pass only costs.
    if level.len() >= PREFETCH_FROM {
        game.things().prefetch(&level);
    }
    // Whoever is next acts, until the hero is: the engine's scheduler runs the queue, and
    // Alchemy's actor rule (its AI) plays each monster's action and reports it, putting the
    // actor `100·cost/speed` later.
    let max_actions = MAX_ACTIONS.saturating_mul(level.len().max(1));
    let plan = foresee.is_none();
    let _ = game.scheduler().take_turns(
        ctx,
        max_actions,
        |g, next| next == h || Some(next) == foresee || g.var(&GAME_OVER).unwrap_or(false),
        |g, ctx, m| monster_turn(g, ctx, m, h, &view, table, plan),
    )?;
    if game.var(&GAME_OVER).unwrap_or(false) {
        return Ok(None);
    }
    let Some((terrain, blockers)) = depends else {
        return Ok(Some(view));
    };
    wandering_monsters(game, ctx, table, z, elapsed)?;
    // The view after the monsters moved: the same set unless the hero moved, the terrain
    // changed or a thing that blocks sight came, went or changed within sight range.
    let unchanged = game.things().location(h)? == seen_from
        && game.terrain().ptr_eq(&terrain)
        && sight_blockers_near(game, seen_from) == blockers;
    let view = if unchanged {
        debug_assert_eq!(
            Some(&view),
            hero_view_with(game, table).ok().as_ref(),
            "a reused view must equal a fresh one"
        );
        view
    } else {
        hero_view_with(game, table)?
    };
    remember(game, &view);
    Ok(Some(view))
}

/// In a future monster `m` is planning: the rest of the world's step after `m`'s action,
/// every other monster by the cheap rules, until the hero or `m` is next to act (or the
/// game is over). Returns who is next.
fn pass_until(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    table: &TileTable,
    h: ThingId,
    m: ThingId,
) -> Result<Option<ThingId>, Error> {
    let view = hero_view_with(game, table)?;
    let z = game.things().location(h)?.z;
    let max_actions = MAX_ACTIONS.saturating_mul(creatures_on_level(game, z).len().max(1));
    let _ = game.scheduler().take_turns(
        ctx,
        max_actions,
        |g, next| next == h || next == m || g.var(&GAME_OVER).unwrap_or(false),
        |g, ctx, x| monster_turn(g, ctx, x, h, &view, table, false),
    )?;
    Ok(game.schedule().next_actor())
}

/// Alchemy's actor rule: monster `m` takes its action ([`ai::act`]; cunning monsters plan
/// when `plan`) and reports its cost to the scheduler, `100·cost/speed` later (speeds below
/// [`MIN_SPEED`] count as it).
fn monster_turn(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    m: ThingId,
    h: ThingId,
    view: &VisibleSet,
    table: &TileTable,
    plan: bool,
) -> Result<(), Error> {
    let planned = if plan {
        planned_action(game, ctx, m, h, view, table)?
    } else {
        None
    };
    let cost = match planned {
        Some(cost) => cost,
        None => ai::act(game, ctx, m, h, view, table)?,
    };
    report(game, m, cost)
}

/// A cunning monster's action in a fight ([`cunning`]): chosen by search over futures played
/// by [`foresee`], then taken; its cost. `None` when `m` does not plan now (not cunning, not
/// in a fight, confused: the cheap rules play it) or found nothing to do.
fn planned_action(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    m: ThingId,
    h: ThingId,
    view: &VisibleSet,
    table: &TileTable,
) -> Result<Option<i32>, Error> {
    // Only a cunning hostile plans, and only one notices the hero below: every other
    // monster (most of them) goes to the cheap rules without this function's reads.
    if !game.is(m, &IS_HOSTILE) || !cunning::is_cunning(game, m) {
        return Ok(None);
    }
    // A cunning hostile that sees the hero within two steps (and its aggro range) notices
    // them at once, by the cheap rules' own rule (which draws nothing at that range), so it
    // plans from its first action in sight rather than trading a blow by the cheap rules.
    let (at, hat) = (game.things().location(m)?, game.things().location(h)?);
    let near = at.z == hat.z && at.chebyshev(hat) <= 2.min(ai::aggro(game, m)?);
    if near && view.contains(at) {
        game.set_mut(m, &LAST_SEEN, hat)?;
    }
    if !cunning::plans_now(game, m, h) || game.is(m, &IS_CONFUSED) {
        return Ok(None);
    }
    // It keeps track of the hero while it sees them (the cheap rules' sighting).
    if view.contains(at) {
        game.set_mut(m, &LAST_SEEN, hat)?;
    }
    let hooks = ctx.hooks();
    let chase = game
        .query_opt(m, &LAST_SEEN)?
        .and_then(|goal| ai::chase_dir(game, table, m, goal));
    let plan = cunning::choose(game, m, h, chase, |g, a| foresee(g, hooks, table, m, h, a))?;
    match plan {
        Some(p) => cunning::perform(game, ctx, m, &p.command),
        None => Ok(None),
    }
}

/// One node of a cunning monster's search: `m` takes `act` in `game` (where it is next to
/// act), then the world goes on — the other monsters by the cheap rules, the hero by
/// [`cunning::hero_reply`] — until `m` is next to act again, the game ends, `m` dies or the
/// hero has had [`cunning::MAX_HERO_TURNS`] turns. `None` when the action is refused (or
/// `m` cannot act). Nothing here draws on the game's generator before the planner's
/// reseeded clone reaches it.
fn foresee(
    game: &Game,
    hooks: &Hooks,
    table: &TileTable,
    m: ThingId,
    h: ThingId,
    act: &cunning::Act,
) -> Result<Option<Game>, Error> {
    if game.var(&GAME_OVER).unwrap_or(false)
        || !game.things().contains(m)
        || game.schedule().next_actor() != Some(m)
    {
        return Ok(None);
    }
    let mut g = game.clone();
    let mut ctx = HookCtx::new(hooks);
    let Some(cost) = cunning::perform(&mut g, &mut ctx, m, act)? else {
        return Ok(None);
    };
    report(&mut g, m, cost)?;
    let mut hero_turns = 0;
    while !g.var(&GAME_OVER).unwrap_or(false) && g.things().contains(m) {
        match g.schedule().next_actor() {
            Some(x) if x == m => break,
            Some(x) if x == h => {
                if hero_turns == cunning::MAX_HERO_TURNS {
                    break;
                }
                hero_turns += 1;
                let mv = cunning::hero_reply(&g, h, m);
                let cost = cunning::hero_act(&mut g, &mut ctx, h, mv)?;
                let elapsed = action_time(cost, g.query(h, &SPEED)?);
                world_step(&mut g, &mut ctx, elapsed, table, Some(m))?;
            }
            Some(_) => {
                pass_until(&mut g, &mut ctx, table, h, m)?;
            }
            None => break,
        }
    }
    Ok(Some(g))
}

/// The plan monster `m` makes when it next acts after the hero waits in `game` (a game at
/// the hero's turn, as [`apply`](crate::apply) takes it): the hero's wait, the world's step
/// up to `m`'s action (the monsters before it by the cheap rules), then its search
/// ([`cunning::choose`] over its futures), with the plan's value, depth and nodes: for
/// benchmarks and tests. `None` when `m` has nothing to choose or does not act before the
/// hero's next turn.
///
/// # Errors
/// An engine error of the rules (a bug).
pub fn monster_plan(
    game: &Game,
    hooks: &Hooks,
    m: ThingId,
) -> Result<Option<Plan<cunning::Act>>, Error> {
    let h = hero(game)?;
    let table = TileTable::new(game);
    let mut g = game.clone();
    if g.schedule().next_actor() != Some(m) {
        let mut ctx = HookCtx::new(hooks);
        world_step(&mut g, &mut ctx, ai::ACTION, &table, Some(m))?;
        if g.schedule().next_actor() != Some(m) {
            return Ok(None);
        }
    }
    let chase = g
        .query_opt(m, &LAST_SEEN)?
        .and_then(|goal| ai::chase_dir(&g, &table, m, goal));
    cunning::choose(&g, m, h, chase, |g2, a| foresee(g2, hooks, &table, m, h, a))
}

/// Report monster `m`'s action of `cost` to the scheduler: `100·cost/speed` later (speeds
/// below [`MIN_SPEED`] count as it).
fn report(game: &mut Game, m: ThingId, cost: i32) -> Result<(), Error> {
    if game.things().contains(m) {
        let speed = game.query(m, &SPEED)?;
        if speed >= MIN_SPEED {
            // The engine's delay is `action_time` for every speed it does not clamp.
            game.acted_mut(m, u64::try_from(cost).unwrap_or(0))?;
        } else {
            game.acted_mut(m, 0)?;
            game.scheduler().add(m, delay(cost, speed))?;
        }
    }
    Ok(())
}

/// Let `elapsed` time pass for the effects on `creature`: periodic hit points (healing hurts
/// the undead; poison goes through resistances), durations counting down, expiries
/// ([`Event::EffectEnded`]).
pub fn tick_effects(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    creature: ThingId,
    elapsed: i32,
) -> Result<(), Error> {
    for e in effects_of(game, creature) {
        if !game.things().contains(creature) {
            return Ok(());
        }
        let per = game.query(e, &HP_PER_TURN)?;
        if per != 0 {
            let acc = game.query(e, &HP_ACC)? + per * elapsed;
            let whole = acc / 100;
            game.set_mut(e, &HP_ACC, acc - whole * 100)?;
            if whole != 0 {
                let kind = game
                    .things()
                    .get(e)?
                    .proto()
                    .map(Arc::<str>::from)
                    .unwrap_or_else(|| Arc::from(""));
                let undead = game.is(creature, &IS_UNDEAD);
                if whole > 0 && !undead {
                    combat::heal(game, creature, whole)?;
                } else {
                    let dtype = if game.is(e, &IS_POISON) {
                        DamageType::Poison
                    } else {
                        DamageType::Normal
                    };
                    let cause = Cause::Effect {
                        kind,
                        undone: whole > 0,
                    };
                    combat::damage(
                        game,
                        ctx,
                        creature,
                        whole.abs(),
                        dtype,
                        Source::Cause(cause),
                    )?;
                    if !game.things().contains(creature) {
                        return Ok(());
                    }
                }
            }
        }
        if !game.things().contains(e) {
            continue;
        }
        let left = game.query(e, &DURATION)? - elapsed;
        if left <= 0 {
            let effect = game
                .things()
                .get(e)?
                .proto()
                .map(Arc::<str>::from)
                .unwrap_or_else(|| Arc::from(""));
            game.remove_thing_mut(e)?;
            let who = Noun::of(game, creature);
            emit(game, ctx, Event::EffectEnded { who, effect });
            combat::clamp_hps(game, creature)?;
        } else {
            game.set_mut(e, &DURATION, left)?;
        }
    }
    Ok(())
}

/// Natural healing: one hit point per `HEAL_TIME / TG` time.
pub const HEAL_TIME: i64 = 4000;

/// The hero slowly recovers: one hit point per `HEAL_TIME / TG` time (every five turns
/// at TG 8).
fn natural_healing(game: &mut Game, h: ThingId, elapsed: i32) -> Result<(), Error> {
    let tg = game.query(h, &TG)?.max(1);
    let acc = game
        .var(&REGEN_ACC)
        .unwrap_or(0)
        .saturating_add(i64::from(elapsed) * i64::from(tg));
    let whole = acc / HEAL_TIME;
    game.set_var_mut(&REGEN_ACC, acc - whole * HEAL_TIME);
    if whole > 0 {
        super::combat::heal(game, h, i32::try_from(whole).unwrap_or(1))?;
    }
    Ok(())
}

/// Now and then a monster turns up somewhere the hero cannot see.
fn wandering_monsters(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    table: &TileTable,
    z: i32,
    elapsed: i32,
) -> Result<(), Error> {
    // About one every 250 turns.
    if !game.rng().chance(f64::from(elapsed) / 25_000.0) {
        return Ok(());
    }
    let h = hero(game)?;
    let at = game.things().location(h)?;
    let view = hero_view_with(game, table)?;
    let Some(l) = random_floor(game, z, 50, |_, l| {
        !view.contains(l) && l.chebyshev(at) > 10
    }) else {
        return Ok(());
    };
    let depth = -z;
    let lib = game.library().clone();
    if let Ok(name) = lib.random_name(game.rng(), &IS_CREATURE, (depth - 3).max(1), depth) {
        game.spawn_mut(ctx, &name, l)?;
    }
    Ok(())
}

/// The hero is leaving level `z`: its monsters lose track of the hero and are stamped with
/// the time, so that on the hero's return they catch up ([`arrive`]).
pub fn leave_level(game: &mut Game, z: i32) -> Result<(), Error> {
    let h = hero(game)?;
    let now = game.var(&TIME).unwrap_or(0);
    for m in creatures_on_level(game, z) {
        if m == h {
            continue;
        }
        let mut t = game.things().get(m)?.clone();
        t.remove_prop_mut(LAST_SEEN.key());
        t.remove_prop_mut(FOE.key());
        t.set_mut(&AWAY_SINCE, now);
        game.update_thing_mut(t)?;
    }
    Ok(())
}

/// Longest stretch of missed time a level catches up on when the hero returns.
pub const MAX_CATCH_UP: i64 = 20_000;

/// The hero is arriving on level `z` (before being placed there): only the hero's level is
/// simulated, so its monsters catch up on the time since the hero left — their effects run
/// out (poison may kill them), and they recover hit points at the hero's natural rate.
pub fn arrive(game: &mut Game, ctx: &mut HookCtx<'_>, z: i32) -> Result<(), Error> {
    let h = hero(game)?;
    let now = game.var(&TIME).unwrap_or(0);
    for m in creatures_on_level(game, z) {
        if m == h {
            continue;
        }
        let Some(since) = game.query_opt(m, &AWAY_SINCE)? else {
            continue;
        };
        let mut t = game.things().get(m)?.clone();
        t.remove_prop_mut(AWAY_SINCE.key());
        game.update_thing_mut(t)?;
        let away = (now - since).clamp(0, MAX_CATCH_UP);
        let away = i32::try_from(away).unwrap_or(0);
        if away == 0 {
            continue;
        }
        tick_effects(game, ctx, m, away)?;
        if !game.things().contains(m) {
            continue;
        }
        let tg = i64::from(game.query(m, &TG)?.max(1));
        let healed = i64::from(away) * tg / HEAL_TIME;
        super::combat::heal(game, m, i32::try_from(healed).unwrap_or(0))?;
        // It has wandered about meanwhile (a few random steps, like an idle monster).
        let steps = (away / 200).min(12);
        for _ in 0..steps {
            let at = game.things().location(m)?;
            let d = alembic::Dir::COMPASS[game.rng().below(8) as usize];
            if super::world::can_enter(game, m, at + d) {
                game.move_thing_mut(m, at + d)?;
            }
        }
    }
    Ok(())
}
