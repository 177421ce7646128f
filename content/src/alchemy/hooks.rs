//! The registered behaviours named by the library: what potions, food and ingredients do
//! when consumed (or splashed), fountains when used, creatures when they die.
//!
//! Each is a plain function registered under a name; prototypes refer to the name, so the
//! game value stays plain data and an unknown name is an error ([`Game::check_hooks`]).

use alembic::{Error, Game, HookCtx, Hooks, Place, ThingId, hook::HookCall};

use super::kinds::{DamageType, data_error};
use super::library::names_with;
use super::props::{
    DEATH_TRANSFORM, DEATH_TRANSFORM_CHANCE, DRY_CHANCE, GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT,
    HEAL_AMOUNT, HPS, HPS_MAX, IS_DRAIN, IS_EFFECT, IS_HARMFUL, IS_HERO, IS_POISON, IS_UNDEAD,
    SPEED, TG,
};
use super::rules::combat::{self, Source};
use super::rules::effects::{add_effect, remove_effects};
use super::rules::items::identify;
use super::rules::world::{hero_sees, say};
use super::text::{capitalise, sentence, the_name};

/// Every hook the Alchemy library names, in a registry the caller keeps (the game's
/// [`Rules`](super::Rules) holds one) and passes to every call that may run a hook.
pub fn build() -> Result<Hooks, Error> {
    Hooks::new()
        .register("potion_heal", potion_heal)?
        .register("potion_effect", potion_effect)?
        .register("potion_gain", potion_gain)?
        .register("potion_health_gain", potion_health_gain)?
        .register("potion_speed_gain", potion_speed_gain)?
        .register("potion_cure_poison", potion_cure_poison)?
        .register("potion_cleansing", potion_cleansing)?
        .register("potion_restoration", potion_restoration)?
        .register("potion_chaos", potion_chaos)?
        .register("eat_food", eat_food)?
        .register("eat_magic_mushroom", eat_magic_mushroom)?
        .register("eat_ingredient", eat_ingredient)?
        .register("use_fountain", use_fountain)?
        .register("death_transform", death_transform)
}

/// The creature a consumable acts on: the call's target, else its actor.
fn target(call: &HookCall) -> Result<ThingId, Error> {
    call.target
        .or(call.actor)
        .ok_or_else(|| data_error("a consumable hook called without a target".into()))
}

fn is_hero(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_HERO)
}

fn potion_heal(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    if game.is(t, &IS_UNDEAD) {
        // Healing burns the undead.
        if hero_sees(game, game.location(t)?) {
            let s = sentence(game, t, "writhe", "in agony")?;
            say(game, s);
        }
        combat::damage(
            game,
            ctx.hooks(),
            t,
            amount,
            DamageType::Normal,
            source_of(call),
        )?;
        return Ok(());
    }
    combat::heal(game, t, amount)?;
    if is_hero(game, t) {
        say(game, "You feel much better.");
    } else if hero_sees(game, game.location(t)?) {
        let s = sentence(game, t, "look", "healthier")?;
        say(game, s);
    }
    Ok(())
}

fn source_of(call: &HookCall) -> Source {
    match call.actor {
        Some(a) if Some(a) != call.target => Source::Creature(a),
        _ => Source::Cause("a potion".to_string()),
    }
}

fn potion_effect(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let effect = game.query(call.this, &GIVES_EFFECT)?;
    add_effect(game, t, &effect)?;
    Ok(())
}

fn potion_gain(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let stat = game.query(call.this, &GAIN_STAT)?;
    let amount = game.query(call.this, &GAIN_AMOUNT)?;
    let base = game.get_thing(t)?.get(&stat.prop())?;
    game.set_mut(t, &stat.prop(), base + amount)?;
    if is_hero(game, t) {
        say(game, format!("Your {} increases!", stat.word()));
    }
    Ok(())
}

fn potion_health_gain(
    game: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let t = target(call)?;
    let tg = game.query(t, &TG)?.max(2);
    let boost = game.rng().range(i64::from(tg / 2), i64::from(tg)) as i32;
    let max = game.get_thing(t)?.get(&HPS_MAX)?;
    game.set_mut(t, &HPS_MAX, max + boost)?;
    let hps = game.query(t, &HPS)?;
    game.set_mut(t, &HPS, hps + boost)?;
    if is_hero(game, t) {
        say(game, "You feel amazingly good...");
    }
    Ok(())
}

fn potion_speed_gain(
    game: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let t = target(call)?;
    let base = game.get_thing(t)?.get(&SPEED)?;
    game.set_mut(t, &SPEED, base + 10)?;
    if is_hero(game, t) {
        say(game, "You feel permanently quicker.");
    }
    Ok(())
}

fn cure(
    game: &mut Game,
    call: &HookCall,
    flag: &alembic::Prop<bool>,
    what: &str,
) -> Result<(), Error> {
    let t = target(call)?;
    let n = remove_effects(game, t, flag)?;
    if is_hero(game, t) {
        if n > 0 {
            say(game, format!("You feel {what}."));
        } else {
            say(game, "You feel much the same.");
        }
    }
    Ok(())
}

fn potion_cure_poison(
    game: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    cure(game, call, &IS_POISON, "the poison leave your body")
}

fn potion_cleansing(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    cure(game, call, &IS_HARMFUL, "cleansed")
}

fn potion_restoration(
    game: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    cure(game, call, &IS_DRAIN, "restored")
}

/// A random effect from the whole library.
fn random_effect(game: &mut Game, t: ThingId) -> Result<(), Error> {
    let names = names_with(game.library(), &IS_EFFECT);
    let i = game
        .rng()
        .index(names.len())
        .ok_or_else(|| data_error("no effects in the library".into()))?;
    add_effect(game, t, &names[i])?;
    Ok(())
}

fn potion_chaos(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    random_effect(game, t)
}

fn eat_food(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    combat::heal(game, t, amount)?;
    if is_hero(game, t) {
        say(game, "That tasted good.");
    }
    Ok(())
}

fn eat_magic_mushroom(
    game: &mut Game,
    _ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let t = target(call)?;
    if is_hero(game, t) {
        say(game, "The world shimmers.");
    }
    random_effect(game, t)
}

fn eat_ingredient(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    identify(game, call.this)?;
    if is_hero(game, t) {
        let n = the_name(game, call.this)?;
        say(game, format!("It tastes bitter. That was {n}."));
    }
    Ok(())
}

fn use_fountain(game: &mut Game, _ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let who = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    combat::heal(game, who, amount)?;
    if is_hero(game, who) {
        say(game, "You drink from the fountain. You feel refreshed.");
    }
    let p = game.query(call.this, &DRY_CHANCE)?;
    if game.rng().chance(p) {
        let at = game.location(call.this)?;
        game.remove_thing_mut(call.this)?;
        let dry = game.library().create("dry fountain")?;
        game.add_thing_mut(Place::Map(at), dry)?;
        if hero_sees(game, at) {
            say(game, "The fountain dries up.");
        }
    }
    Ok(())
}

fn death_transform(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let Some(into) = game.query_opt(call.this, &DEATH_TRANSFORM)? else {
        return Ok(());
    };
    let p = game.query(call.this, &DEATH_TRANSFORM_CHANCE)?;
    if !game.rng().chance(p) {
        return Ok(());
    }
    let at = game.location(call.this)?;
    let before = capitalise(&the_name(game, call.this)?);
    let id = game.spawn_mut(ctx, &into, at)?;
    if hero_sees(game, at) {
        let after = crate::alchemy::text::a_name(game, id)?;
        say(game, format!("{before} rises again as {after}!"));
    }
    Ok(())
}
