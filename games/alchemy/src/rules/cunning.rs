//! Cunning monsters: in a fight, a monster flagged [`PLANS`] in the data (or one carrying a
//! potion) chooses its action by playing each candidate out on clones of the game under
//! the real rules ([`StepPlanner`]): its action, then the world until it may act again —
//! the other monsters by their cheap rules (today's monster AI), the hero by a simple model of a
//! fighter ([`hero_reply`]: throw a known harmful potion at it down a clear line, hit it
//! when beside it, else close in). Each candidate is scored on sampled futures (reseeded
//! clones: never the real generator's next draw) by what the monster keeps of its own hit
//! points against what the hero keeps of theirs ([`value`]).
//!
//! Nothing here is a scripted tactic: retreating when the exchange goes against it,
//! drinking a potion when that pays and stepping out of a line of fire all come from the
//! search comparing the futures of its candidates (the cheap rules' own step first, so
//! that where the search sees nothing better it moves as a plain monster; wait; a step in
//! each other direction; drink or throw each potion it carries).
//!
//! Costs: at most [`BUDGET`] nodes a planned action, each one clone of the game, one
//! candidate action and the world's step after it (the hero's reply and every other
//! monster on the level); the budget is in nodes, never time, so the same game and commands
//! give the same plans on any machine. Planning is off in a game whose [`FORESIGHT_OFF`]
//! variable is set (the tests' and the bot's baseline).

use alembic::{Dir, Error, Game, HookCtx, Loc, ThingId};
use alembic_session::plan::{Plan, PlanError, StepPlanner};

use super::ai::{ACTION, step_or_bump};
use super::combat;
use super::effects::effects_of;
use super::items::{THROW_RANGE, consume, fly, inventory, throw};
use super::stack;
use super::world::{
    blocker_at, can_enter, creature_at, hero_sees, terrain_ok, tile_blocks, tile_dangerous,
};
use crate::error::RuleError;
use crate::events::{Event, Noun, emit, is_identified};
use crate::props::{
    ATTACKS_MONSTERS, DURATION, FAMILY, FORESIGHT_OFF, GIVES_EFFECT, HP_PER_TURN, HPS, HPS_MAX,
    IS_DOOR, IS_HARMFUL, IS_HERO, IS_HOSTILE, IS_INTELLIGENT, IS_OPEN, IS_POTION, IS_VIEW_BLOCKING,
    LAST_SEEN, PLANS, TIME,
};

/// A cunning monster plans while it knows where the hero is (it has noticed them) and the
/// hero is at most this far (Chebyshev); farther off it hunts by the cheap rules.
pub const PLAN_RANGE: u32 = 5;
/// Plies of the monster's own actions searched: one action and the world's answer to it.
pub const DEPTH: u32 = 1;
/// Sampled futures per candidate.
pub const SAMPLES: u32 = 16;
/// Most nodes a planned action may cost (16 samples of up to 16 candidates).
pub const BUDGET: u64 = 256;
/// How much a cunning monster values its own hit points (a share of its maximum) against
/// the hero's (a share of theirs).
pub const SELF_WEIGHT: f64 = 1.25;
/// What its own death counts as, in shares of its hit points (worse than none left).
pub const DEATH: f64 = -2.0;
/// The hero's turns a future plays through at most before the monster acts again (a slow
/// monster may let the hero act twice).
pub const MAX_HERO_TURNS: usize = 4;

/// One action a cunning monster may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// Let the action pass.
    Wait,
    /// Step (or attack, or open a door) in a direction.
    Step(Dir),
    /// Drink a potion it carries.
    Quaff(ThingId),
    /// Throw a potion it carries at the hero.
    Throw(ThingId),
}

/// Whether monster `m` plans its action now: planning is on in this game, `m` is hostile,
/// cunning ([`PLANS`]) or carrying a potion, has noticed the hero and the hero is on its
/// level within [`PLAN_RANGE`].
#[must_use]
pub fn plans_now(game: &Game, m: ThingId, hero: ThingId) -> bool {
    if game.var(&FORESIGHT_OFF).unwrap_or(false) || !game.is(m, &IS_HOSTILE) {
        return false;
    }
    if !is_cunning(game, m) {
        return false;
    }
    let (Ok(at), Ok(hat)) = (game.things().location(m), game.things().location(hero)) else {
        return false;
    };
    matches!(game.query_opt(m, &LAST_SEEN), Ok(Some(_)))
        && at.z == hat.z
        && at.chebyshev(hat) <= PLAN_RANGE
}

/// Whether `m` plans its fights: cunning by nature ([`PLANS`]) or carrying a potion.
#[must_use]
pub fn is_cunning(game: &Game, m: ThingId) -> bool {
    game.is(m, &PLANS) || !potions(game, m).is_empty()
}

/// The potions `m` carries, one of each kind.
fn potions(game: &Game, m: ThingId) -> Vec<ThingId> {
    potion_kinds(game, m, |_| true)
}

/// The potions `holder` carries that `keep` accepts, one of each kind (the first of its
/// prototype in the pack's order): the ones worth trying in a search.
pub(crate) fn potion_kinds(
    game: &Game,
    holder: ThingId,
    keep: impl Fn(ThingId) -> bool,
) -> Vec<ThingId> {
    let mut kinds: Vec<Option<std::sync::Arc<str>>> = Vec::new();
    let mut out = Vec::new();
    for p in inventory(game, holder) {
        if !game.is(p, &IS_POTION) || !keep(p) {
            continue;
        }
        let kind = game
            .things()
            .get(p)
            .ok()
            .and_then(|t| t.proto())
            .map(Into::into);
        if !kinds.contains(&kind) {
            kinds.push(kind);
            out.push(p);
        }
    }
    out
}

/// The actions `m` may try: first `chase` (the step the cheap rules would take, so that
/// where the search sees nothing better the monster does what a plain one does: the
/// planner takes the first of equals), then waiting, each step the rules would take, and
/// drinking or throwing each kind of potion it carries (throwing while the hero is in
/// range).
#[must_use]
pub fn candidates(game: &Game, m: ThingId, hero: ThingId, chase: Option<Dir>) -> Vec<Act> {
    let Ok(at) = game.things().location(m) else {
        return vec![Act::Wait];
    };
    let mut acts = Vec::new();
    if let Some(d) = chase.filter(|&d| may_step(game, m, at + d)) {
        acts.push(Act::Step(d));
    }
    acts.push(Act::Wait);
    for d in Dir::COMPASS {
        if Some(d) != chase && may_step(game, m, at + d) {
            acts.push(Act::Step(d));
        }
    }
    let in_range = game
        .things()
        .location(hero)
        .is_ok_and(|h| h.z == at.z && h != at && h.chebyshev(at) <= THROW_RANGE);
    for p in potions(game, m) {
        acts.push(Act::Quaff(p));
        if in_range {
            acts.push(Act::Throw(p));
        }
    }
    acts
}

/// Whether a step of `m` into `to` does something: moves it, attacks the hero (or a monster
/// it fights), or opens a door it can open.
fn may_step(game: &Game, m: ThingId, to: Loc) -> bool {
    if let Some(c) = creature_at(game, to) {
        if game.is(c, &IS_HERO) {
            return game.is(m, &IS_HOSTILE);
        }
        return game.is(m, &ATTACKS_MONSTERS)
            && game.query_opt(m, &FAMILY).ok().flatten()
                != game.query_opt(c, &FAMILY).ok().flatten();
    }
    if let Some(b) = blocker_at(game, to) {
        return game.is(b, &IS_DOOR) && !game.is(b, &IS_OPEN) && game.is(m, &IS_INTELLIGENT);
    }
    terrain_ok(game, m, to)
}

/// The plan of monster `m` in `game` (where it is next to act), among its
/// [`candidates`] (`chase` first): [`StepPlanner`] over `step`
/// (`m`'s action and the world until it may act again: the world's step in
/// `rules::time`) at [`DEPTH`], [`SAMPLES`] and [`BUDGET`], scored by [`value`]. `None`
/// when it has nothing to choose.
///
/// # Errors
/// An engine error of the rules inside a future (a bug).
pub fn choose(
    game: &Game,
    m: ThingId,
    hero: ThingId,
    chase: Option<Dir>,
    step: impl Fn(&Game, &Act) -> Result<Option<Game>, Error>,
) -> Result<Option<Plan<Act>>, Error> {
    let acts = candidates(game, m, hero, chase);
    let plan = StepPlanner::new(step)
        .depth(DEPTH)
        .samples(SAMPLES)
        .budget(BUDGET)
        .seed(seed(game, m))
        .plan(game, &acts, |g| value(g, m, hero));
    match plan {
        Ok(p) => Ok(p),
        Err(PlanError::Engine(e)) => Err(e),
    }
}

/// The planner's seed for `m`'s action now: the game's clock and turn and `m`'s id, never a
/// draw of the game's generator (the futures are not the real one, and the real generator
/// is left as it was).
fn seed(game: &Game, m: ThingId) -> u64 {
    let time = u64::try_from(game.var(&TIME).unwrap_or(0)).unwrap_or(0);
    time.rotate_left(24) ^ game.turn() ^ m.0.rotate_left(48)
}

/// How good `game` is for monster `m` against `hero`: the share of its hit points it keeps
/// ([`DEATH`] if dead), weighted by [`SELF_WEIGHT`], less the share the hero keeps (−1 if
/// dead);
/// the hit points effects will still take or give (poison, burning, regeneration) count as
/// taken or given.
#[must_use]
pub fn value(game: &Game, m: ThingId, hero: ThingId) -> f64 {
    let share = |t: ThingId| -> Option<f64> {
        let hp = game.query(t, &HPS).ok()?;
        let max = game.query(t, &HPS_MAX).ok()?.max(1);
        if hp <= 0 {
            return None;
        }
        // What its effects will still do (poison, burning, regeneration) counts as done.
        let to_come: i64 = effects_of(game, t)
            .into_iter()
            .map(|e| {
                let per = i64::from(game.query(e, &HP_PER_TURN).unwrap_or(0));
                let left = i64::from(game.query(e, &DURATION).unwrap_or(0).max(0));
                per * left / 100
            })
            .sum();
        let hp = (i64::from(hp) + to_come).clamp(0, i64::from(max));
        Some(hp as f64 / f64::from(max))
    };
    let mine = if game.things().contains(m) {
        share(m).unwrap_or(DEATH)
    } else {
        DEATH
    };
    let theirs = share(hero).unwrap_or(-1.0);
    SELF_WEIGHT * mine - theirs
}

/// Play `act` for `m` by the rules: its cost, or `None` when it is refused (a wall, a
/// potion it no longer carries, the hero out of range).
///
/// # Errors
/// An engine error (a bug).
pub fn perform(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    m: ThingId,
    act: &Act,
) -> Result<Option<i32>, Error> {
    let at = game.things().location(m)?;
    match act {
        Act::Wait => Ok(Some(ACTION)),
        Act::Step(d) => {
            if !may_step(game, m, at + *d) {
                return Ok(None);
            }
            step_or_bump(game, ctx, m, at + *d, false).map(Some)
        }
        Act::Quaff(p) => {
            if !carries_potion(game, m, *p) {
                return Ok(None);
            }
            let item = stack::split(game, *p, 1)?;
            let seen = hero_sees(game, at);
            let (who, potion) = (Noun::of(game, m), Noun::of(game, item));
            emit(game, ctx, Event::MonsterDrank { who, potion, seen });
            consume(game, ctx, m, item, m)?;
            if game.things().contains(item) {
                game.remove_thing_mut(item)?;
            }
            Ok(Some(ACTION))
        }
        Act::Throw(p) => {
            let hero = super::world::hero(game)?;
            let target = game.things().location(hero)?;
            if !carries_potion(game, m, *p)
                || target.z != at.z
                || target == at
                || target.chebyshev(at) > THROW_RANGE
            {
                return Ok(None);
            }
            let item = stack::split(game, *p, 1)?;
            let seen = hero_sees(game, at);
            let (who, what) = (Noun::of(game, m), Noun::of(game, item));
            emit(
                game,
                ctx,
                Event::MonsterThrew {
                    who,
                    item: what,
                    seen,
                },
            );
            fly(game, ctx, m, item, target)?;
            Ok(Some(ACTION))
        }
    }
}

fn carries_potion(game: &Game, m: ThingId, p: ThingId) -> bool {
    super::items::carries(game, m, p) && game.is(p, &IS_POTION)
}

/// What the hero does inside a monster's planned future ([`hero_reply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeroMove {
    /// Let the turn pass.
    Wait,
    /// Step in a direction (into a creature: attack it).
    Step(Dir),
    /// Throw a carried item at a place.
    Throw(ThingId, Loc),
}

/// The hero inside a monster's planned future: a plain fighter. It throws a potion it knows
/// to be harmful at `m` when `m` is the first creature down a clear line within range (and
/// not beside it), hits `m` when beside it, hits another monster beside it, else steps to
/// the free cell nearest `m` (or waits).
#[must_use]
pub fn hero_reply(game: &Game, hero: ThingId, m: ThingId) -> HeroMove {
    let (Ok(hat), Ok(mat)) = (game.things().location(hero), game.things().location(m)) else {
        return HeroMove::Wait;
    };
    if hat.z != mat.z {
        return HeroMove::Wait;
    }
    let d = hat.chebyshev(mat);
    if d > 1
        && d <= THROW_RANGE
        && first_on_line(game, hat, mat) == Some(m)
        && let Some(p) = inventory(game, hero)
            .into_iter()
            .find(|&p| harmful(game, p))
    {
        return HeroMove::Throw(p, mat);
    }
    if let Some(dir) = Dir::COMPASS.into_iter().find(|&dir| hat + dir == mat) {
        return HeroMove::Step(dir);
    }
    if let Some(dir) = Dir::COMPASS.into_iter().find(|&dir| {
        creature_at(game, hat + dir).is_some_and(|c| c != hero && game.is(c, &IS_HOSTILE))
    }) {
        return HeroMove::Step(dir);
    }
    let free = |l: Loc| {
        !tile_blocks(game, l)
            && !tile_dangerous(game, l)
            && creature_at(game, l).is_none()
            && blocker_at(game, l).is_none()
    };
    let mut best: Option<(u32, u64, Dir)> = None;
    for dir in Dir::COMPASS {
        let to = hat + dir;
        let key = (to.chebyshev(mat), to.euclidean_sq(mat));
        if free(to) && key.0 < d && best.is_none_or(|(c, e, _)| key < (c, e)) {
            best = Some((key.0, key.1, dir));
        }
    }
    best.map_or(HeroMove::Wait, |(_, _, dir)| HeroMove::Step(dir))
}

/// Play the hero's `mv` by the rules (an attack, a step, a throw); its cost. A step that
/// cannot be taken, or a throw refused, passes the turn.
///
/// # Errors
/// An engine error (a bug).
pub fn hero_act(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    mv: HeroMove,
) -> Result<i32, Error> {
    match mv {
        HeroMove::Wait => Ok(ACTION),
        HeroMove::Step(d) => {
            let to = game.things().location(hero)? + d;
            if let Some(c) = creature_at(game, to) {
                combat::attack(game, ctx, hero, c)?;
            } else if can_enter(game, hero, to) {
                game.move_thing_mut(hero, to)?;
            }
            Ok(ACTION)
        }
        HeroMove::Throw(p, at) => match throw(game, ctx, hero, p, at) {
            Ok(cost) => Ok(cost),
            Err(RuleError::Engine(e)) => Err(e),
            Err(_) => Ok(ACTION),
        },
    }
}

/// The first creature a thing thrown from `from` at `to` would hit ([`fly`]'s line).
fn first_on_line(game: &Game, from: Loc, to: Loc) -> Option<ThingId> {
    for l in from.line_to(to).into_iter().skip(1) {
        if tile_blocks(game, l)
            || blocker_at(game, l).is_some()
            || game
                .things()
                .at(l)
                .iter()
                .any(|&t| game.is(t, &IS_VIEW_BLOCKING))
        {
            return None;
        }
        if let Some(c) = creature_at(game, l) {
            return Some(c);
        }
    }
    None
}

/// Whether `p` is a potion the hero knows to be harmful (it gives a harmful effect).
fn harmful(game: &Game, p: ThingId) -> bool {
    game.is(p, &IS_POTION)
        && is_identified(game, p)
        && game
            .query_opt(p, &GIVES_EFFECT)
            .ok()
            .flatten()
            .and_then(|e| game.library().get(&e).ok())
            .is_some_and(|e| e.is(&IS_HARMFUL))
}
