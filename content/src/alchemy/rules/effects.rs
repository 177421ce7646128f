//! Effects on creatures: adding (a repeat refreshes the duration instead of stacking),
//! removing by kind, and ticking with elapsed time.

use alembic::{Error, Game, Hooks, Prop, ThingId};

use super::combat::{self, Source};
use super::world::{hero_sees, say};
use crate::alchemy::kinds::DamageType;
use crate::alchemy::props::{
    DURATION, END_MSG, HP_ACC, HP_PER_TURN, IS_EFFECT, IS_HERO, IS_POISON, IS_UNDEAD, NAME,
    OTHER_MSG, START_MSG,
};
use crate::alchemy::text::{capitalise, the_name};

/// The effects `creature` carries, in arrival order.
#[must_use]
pub fn effects_of(game: &Game, creature: ThingId) -> Vec<ThingId> {
    game.contents(creature)
        .map(|c| {
            c.iter()
                .copied()
                .filter(|&e| game.is(e, &IS_EFFECT))
                .collect()
        })
        .unwrap_or_default()
}

/// Put effect `name` on `target`. If it already has one of that kind, the longer duration
/// wins (effects never stack). Says what happens when the hero notices.
pub fn add_effect(game: &mut Game, target: ThingId, name: &str) -> Result<ThingId, Error> {
    let fresh = game.library().create(name)?;
    if !fresh.is(&IS_EFFECT) {
        return Err(crate::alchemy::kinds::data_error(format!(
            "{name:?} is not an effect"
        )));
    }
    let dur = fresh.get(&DURATION)?;
    if let Some(old) = effects_of(game, target)
        .into_iter()
        .find(|&e| game.get_thing(e).ok().and_then(|t| t.proto()) == Some(name))
    {
        let left = game.query(old, &DURATION)?;
        game.set_mut(old, &DURATION, left.max(dur))?;
        return Ok(old);
    }
    let start = fresh.get_opt(&START_MSG)?;
    let other = fresh.get_opt(&OTHER_MSG)?;
    let id = game.add_thing_mut(target, fresh)?;
    if game.is(target, &IS_HERO) {
        if let Some(m) = start.filter(|m| !m.is_empty()) {
            say(game, m.to_string());
        }
    } else if let Some(m) = other.filter(|m| !m.is_empty())
        && hero_sees(game, game.location(target)?)
    {
        let who = capitalise(&the_name(game, target)?);
        say(game, m.replace("{}", &who));
    }
    Ok(id)
}

/// Remove every effect on `target` with `flag` set; returns how many went.
pub fn remove_effects(game: &mut Game, target: ThingId, flag: &Prop<bool>) -> Result<usize, Error> {
    let gone: Vec<ThingId> = effects_of(game, target)
        .into_iter()
        .filter(|&e| game.is(e, flag))
        .collect();
    for &e in &gone {
        game.remove_thing_mut(e)?;
    }
    Ok(gone.len())
}

/// Let `elapsed` time pass for the effects on `creature`: periodic hit points (healing hurts
/// the undead; poison goes through resistances), durations counting down, expiry messages.
pub fn tick(game: &mut Game, hooks: &Hooks, creature: ThingId, elapsed: i32) -> Result<(), Error> {
    for e in effects_of(game, creature) {
        if !game.contains(creature) {
            return Ok(());
        }
        let per = game.query(e, &HP_PER_TURN)?;
        if per != 0 {
            let acc = game.query(e, &HP_ACC)? + per * elapsed;
            let whole = acc / 100;
            game.set_mut(e, &HP_ACC, acc - whole * 100)?;
            if whole != 0 {
                let name = game.query(e, &NAME)?;
                let undead = game.is(creature, &IS_UNDEAD);
                if whole > 0 && !undead {
                    combat::heal(game, creature, whole)?;
                } else {
                    let dtype = if game.is(e, &IS_POISON) {
                        DamageType::Poison
                    } else {
                        DamageType::Normal
                    };
                    let cause = if whole > 0 {
                        format!("undone by {name} magic")
                    } else {
                        format!("being {name}")
                    };
                    combat::damage(
                        game,
                        hooks,
                        creature,
                        whole.abs(),
                        dtype,
                        Source::Cause(cause),
                    )?;
                    if !game.contains(creature) {
                        return Ok(());
                    }
                }
            }
        }
        if !game.contains(e) {
            continue;
        }
        let left = game.query(e, &DURATION)? - elapsed;
        if left <= 0 {
            let end = game.query_opt(e, &END_MSG)?;
            game.remove_thing_mut(e)?;
            if game.is(creature, &IS_HERO)
                && let Some(m) = end.filter(|m| !m.is_empty())
            {
                say(game, m.to_string());
            }
            combat::clamp_hps(game, creature)?;
        } else {
            game.set_mut(e, &DURATION, left)?;
        }
    }
    Ok(())
}

/// Names of the effects on `creature`, with time left in turns.
#[must_use]
pub fn effect_list(game: &Game, creature: ThingId) -> Vec<(String, i32)> {
    effects_of(game, creature)
        .into_iter()
        .filter_map(|e| {
            let n = game.query(e, &NAME).ok()?;
            let d = game.query(e, &DURATION).ok()?;
            Some((n.to_string(), (d + 99) / 100))
        })
        .collect()
}
