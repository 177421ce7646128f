//! Effects on creatures: adding (a repeat refreshes the duration instead of stacking),
//! removing by kind, listing. Their ticking with elapsed time is part of time
//! ([`super::time::tick_effects`]), which may do damage through combat.

use std::sync::Arc;

use alembic::{Error, Game, HookCtx, Prop, ThingId};

use super::world::hero_sees;
use crate::events::{Event, Noun, emit};
use crate::props::{DURATION, IS_EFFECT, IS_HERO, NAME};

/// The effects `creature` carries, in arrival order.
#[must_use]
pub fn effects_of(game: &Game, creature: ThingId) -> Vec<ThingId> {
    game.things()
        .contents(creature)
        .map(|c| {
            c.iter()
                .copied()
                .filter(|&e| game.is(e, &IS_EFFECT))
                .collect()
        })
        .unwrap_or_default()
}

/// Put effect `name` on `target`. If it already has one of that kind, the longer duration
/// wins (effects never stack). A new effect is an [`Event::EffectStarted`].
pub fn add_effect(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    target: ThingId,
    name: &str,
) -> Result<ThingId, Error> {
    let fresh = game.library().create(name)?;
    if !fresh.is(&IS_EFFECT) {
        return Err(crate::kinds::data_fault(
            crate::kinds::DataError::NotAnEffect { name: name.into() },
        ));
    }
    let dur = fresh.get(&DURATION)?;
    if let Some(old) = effects_of(game, target)
        .into_iter()
        .find(|&e| game.things().get(e).ok().and_then(|t| t.proto()) == Some(name))
    {
        let left = game.query(old, &DURATION)?;
        game.set_mut(old, &DURATION, left.max(dur))?;
        return Ok(old);
    }
    let id = game.add_thing_mut(target, fresh)?;
    let seen = !game.is(target, &IS_HERO) && hero_sees(game, game.things().location(target)?);
    let who = Noun::of(game, target);
    emit(
        game,
        ctx,
        Event::EffectStarted {
            who,
            effect: Arc::from(name),
            seen,
        },
    );
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
