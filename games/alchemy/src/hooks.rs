//! The registered behaviours named by the library: what potions, food and ingredients do
//! when consumed (or splashed), fountains when used, creatures when they die.
//!
//! Each is a plain function registered under a name; prototypes refer to the name, so the
//! game value stays plain data and an unknown name is an error
//! ([`Hooks::check`](alembic::Hooks::check)).

use std::sync::Arc;

use alembic::{Error, Game, HookCtx, Hooks, Place, ThingId, hook::HookCall, hook::HookFn};

use super::events::{Cause, Cure, Event, Learned, Noun, emit};
use super::kinds::{DamageType, DataError, data_fault};
use super::props::{
    DEATH_TRANSFORM, DEATH_TRANSFORM_CHANCE, DRY_CHANCE, GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT,
    HEAL_AMOUNT, HPS, HPS_MAX, IS_DRAIN, IS_EFFECT, IS_HARMFUL, IS_HERO, IS_POISON, IS_UNDEAD,
    MAX_HIT_POINTS, SPEED, TG,
};
use super::rules::combat::{self, Source};
use super::rules::effects::{add_effect, remove_effects};
use super::rules::items::identify;
use super::rules::world::hero_sees;

/// What a thing the library defines can do: a closed set, written here and matched
/// exhaustively wherever the rules or the view ask what a thing does. The data names one by
/// its hook name (`on_consume = "potion_heal"`), which stays a string because the data is
/// open (a mod may give any prototype any of these); every name the data uses is checked
/// against [`Behaviour::ALL`] when the library is loaded ([`load`](super::library::load)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Behaviour {
    /// Heals its drinker by its `heal_amount` (burns the undead instead).
    PotionHeal,
    /// Gives its drinker the effect it names (`gives_effect`).
    PotionEffect,
    /// Raises one statistic of its drinker for good (`gain_stat` by `gain_amount`).
    PotionGain,
    /// Raises its drinker's maximum hit points for good.
    PotionHealthGain,
    /// Makes its drinker faster for good.
    PotionSpeedGain,
    /// Ends its drinker's poisons.
    PotionCurePoison,
    /// Ends every harmful effect on its drinker.
    PotionCleansing,
    /// Ends its drinker's draining effects.
    PotionRestoration,
    /// Gives its drinker a random effect.
    PotionChaos,
    /// Food: heals its eater by its `heal_amount`.
    EatFood,
    /// A magic mushroom: a random effect on its eater.
    EatMagicMushroom,
    /// An ingredient: eating it only identifies it.
    EatIngredient,
    /// A fountain: heals whoever drinks from it, and may dry up.
    UseFountain,
    /// A creature that may rise again as another when it dies (`death_transform`).
    DeathTransform,
}

impl Behaviour {
    /// Every behaviour, each registered under its [`name`](Behaviour::name) by [`build`].
    pub(crate) const ALL: [Behaviour; 14] = [
        Behaviour::PotionHeal,
        Behaviour::PotionEffect,
        Behaviour::PotionGain,
        Behaviour::PotionHealthGain,
        Behaviour::PotionSpeedGain,
        Behaviour::PotionCurePoison,
        Behaviour::PotionCleansing,
        Behaviour::PotionRestoration,
        Behaviour::PotionChaos,
        Behaviour::EatFood,
        Behaviour::EatMagicMushroom,
        Behaviour::EatIngredient,
        Behaviour::UseFountain,
        Behaviour::DeathTransform,
    ];

    /// The hook name the data (and every save's library) names it by.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Behaviour::PotionHeal => "potion_heal",
            Behaviour::PotionEffect => "potion_effect",
            Behaviour::PotionGain => "potion_gain",
            Behaviour::PotionHealthGain => "potion_health_gain",
            Behaviour::PotionSpeedGain => "potion_speed_gain",
            Behaviour::PotionCurePoison => "potion_cure_poison",
            Behaviour::PotionCleansing => "potion_cleansing",
            Behaviour::PotionRestoration => "potion_restoration",
            Behaviour::PotionChaos => "potion_chaos",
            Behaviour::EatFood => "eat_food",
            Behaviour::EatMagicMushroom => "eat_magic_mushroom",
            Behaviour::EatIngredient => "eat_ingredient",
            Behaviour::UseFountain => "use_fountain",
            Behaviour::DeathTransform => "death_transform",
        }
    }

    /// The behaviour a hook name names (`None`: no behaviour of this game).
    pub(crate) fn named(name: &str) -> Option<Behaviour> {
        Behaviour::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The rule that carries it out.
    fn rule(self) -> HookFn {
        match self {
            Behaviour::PotionHeal => potion_heal,
            Behaviour::PotionEffect => potion_effect,
            Behaviour::PotionGain => potion_gain,
            Behaviour::PotionHealthGain => potion_health_gain,
            Behaviour::PotionSpeedGain => potion_speed_gain,
            Behaviour::PotionCurePoison => potion_cure_poison,
            Behaviour::PotionCleansing => potion_cleansing,
            Behaviour::PotionRestoration => potion_restoration,
            Behaviour::PotionChaos => potion_chaos,
            Behaviour::EatFood => eat_food,
            Behaviour::EatMagicMushroom => eat_magic_mushroom,
            Behaviour::EatIngredient => eat_ingredient,
            Behaviour::UseFountain => use_fountain,
            Behaviour::DeathTransform => death_transform,
        }
    }
}

/// Every hook the Alchemy library names (each [`Behaviour`] under its name), in a registry
/// the caller keeps (the game's [`Rules`](super::Rules) holds one) and passes to every call
/// that may run a hook.
pub fn build() -> Result<Hooks, Error> {
    Behaviour::ALL
        .into_iter()
        .try_fold(Hooks::new(), |hooks, b| hooks.register(b.name(), b.rule()))
}

/// The creature a consumable acts on: the call's target, else its actor.
fn target(call: &HookCall) -> Result<ThingId, Error> {
    call.target
        .or(call.actor)
        .ok_or_else(|| data_fault(DataError::NoTarget))
}

fn is_hero(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_HERO)
}

fn potion_heal(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    if game.is(t, &IS_UNDEAD) {
        // Healing burns the undead.
        let seen = hero_sees(game, game.things().location(t)?);
        let who = Noun::of(game, t);
        emit(game, ctx, Event::Writhed { who, seen });
        combat::damage(game, ctx, t, amount, DamageType::Normal, source_of(call))?;
        return Ok(());
    }
    combat::heal(game, t, amount)?;
    let seen = !is_hero(game, t) && hero_sees(game, game.things().location(t)?);
    let who = Noun::of(game, t);
    emit(game, ctx, Event::Healed { who, seen });
    Ok(())
}

fn source_of(call: &HookCall) -> Source {
    match call.actor {
        Some(a) if Some(a) != call.target => Source::Creature(a),
        _ => Source::Cause(Cause::Potion),
    }
}

fn potion_effect(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let effect = game.query(call.this, &GIVES_EFFECT)?;
    add_effect(game, ctx, t, &effect)?;
    Ok(())
}

fn potion_gain(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let stat = game.query(call.this, &GAIN_STAT)?;
    let amount = game.query(call.this, &GAIN_AMOUNT)?;
    let base = game.things().get(t)?.get(&stat.prop())?;
    game.set_mut(t, &stat.prop(), base + amount)?;
    let who = Noun::of(game, t);
    emit(game, ctx, Event::GainedStat { who, stat });
    Ok(())
}

fn potion_health_gain(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let t = target(call)?;
    let tg = game.query(t, &TG)?.max(2);
    let boost = game.rng().range(i64::from(tg / 2), i64::from(tg)) as i32;
    // At most MAX_HIT_POINTS: more would be a game no save could hold.
    let max = game.things().get(t)?.get(&HPS_MAX)?;
    game.set_mut(t, &HPS_MAX, raise(max, boost))?;
    let hps = game.query(t, &HPS)?;
    game.set_mut(t, &HPS, raise(hps, boost))?;
    let who = Noun::of(game, t);
    emit(game, ctx, Event::GainedHealth { who });
    Ok(())
}

/// `hps` raised by `by`, up to [`MAX_HIT_POINTS`] (never lowered, never wrapped round).
fn raise(hps: i32, by: i32) -> i32 {
    hps.max(hps.saturating_add(by).min(MAX_HIT_POINTS))
}

fn potion_speed_gain(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let base = game.things().get(t)?.get(&SPEED)?;
    game.set_mut(t, &SPEED, base + 10)?;
    let who = Noun::of(game, t);
    emit(game, ctx, Event::GainedSpeed { who });
    Ok(())
}

fn cure(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
    flag: &alembic::Prop<bool>,
    cure: Cure,
) -> Result<(), Error> {
    let t = target(call)?;
    let n = remove_effects(game, t, flag)?;
    let who = Noun::of(game, t);
    emit(
        game,
        ctx,
        Event::Cured {
            who,
            cure,
            any: n > 0,
        },
    );
    Ok(())
}

fn potion_cure_poison(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    cure(game, ctx, call, &IS_POISON, Cure::Poison)
}

fn potion_cleansing(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    cure(game, ctx, call, &IS_HARMFUL, Cure::Harm)
}

fn potion_restoration(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    cure(game, ctx, call, &IS_DRAIN, Cure::Drain)
}

/// A random effect from the whole library.
fn random_effect(game: &mut Game, ctx: &mut HookCtx<'_>, t: ThingId) -> Result<(), Error> {
    let names: Vec<Arc<str>> = game
        .library()
        .prototypes()
        .filter(|p| !p.is_abstract() && p.is(&IS_EFFECT))
        .map(|p| Arc::from(p.name()))
        .collect();
    let i = game
        .rng()
        .index(names.len())
        .ok_or_else(|| data_fault(DataError::NoEffects))?;
    add_effect(game, ctx, t, &names[i])?;
    Ok(())
}

fn potion_chaos(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    random_effect(game, ctx, t)
}

fn eat_food(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    combat::heal(game, t, amount)?;
    let who = Noun::of(game, t);
    emit(game, ctx, Event::Nourished { who });
    Ok(())
}

fn eat_magic_mushroom(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    call: &HookCall,
) -> Result<(), Error> {
    let t = target(call)?;
    let who = Noun::of(game, t);
    emit(game, ctx, Event::Shimmered { who });
    random_effect(game, ctx, t)
}

fn eat_ingredient(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let t = target(call)?;
    identify(game, call.this)?;
    if is_hero(game, t) {
        let item = Noun::of(game, call.this);
        emit(
            game,
            ctx,
            Event::Identified {
                item,
                how: Learned::Tasting,
            },
        );
    }
    Ok(())
}

fn use_fountain(game: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let who = target(call)?;
    let amount = game.query(call.this, &HEAL_AMOUNT)?;
    combat::heal(game, who, amount)?;
    if is_hero(game, who) {
        emit(game, ctx, Event::FountainDrunk { who });
    }
    let p = game.query(call.this, &DRY_CHANCE)?;
    if game.rng().chance(p) {
        let at = game.things().location(call.this)?;
        game.remove_thing_mut(call.this)?;
        let dry = game.library().create("dry fountain")?;
        game.add_thing_mut(Place::Map(at), dry)?;
        let seen = hero_sees(game, at);
        emit(game, ctx, Event::FountainDried { seen });
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
    let at = game.things().location(call.this)?;
    let was = Noun::of(game, call.this);
    let id = game.spawn_mut(ctx, &into, at)?;
    let seen = hero_sees(game, at);
    let now = Noun::of(game, id);
    emit(game, ctx, Event::RoseAgain { was, now, seen });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_behaviour_is_registered_under_its_own_name() {
        let hooks = build().unwrap();
        let names: Vec<&str> = hooks.names().collect();
        assert_eq!(
            names.len(),
            Behaviour::ALL.len(),
            "two behaviours share a name"
        );
        for b in Behaviour::ALL {
            assert_eq!(Behaviour::named(b.name()), Some(b));
            assert!(hooks.get(b.name()).is_ok(), "{b:?}");
        }
        assert_eq!(Behaviour::named("potion_hael"), None);
    }
}
