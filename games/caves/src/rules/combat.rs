//! Combat: touching, blows, damage and death, with their events.

use std::sync::Arc;

use alembic::{Error, Game, HookCtx, ThingId, hook::HookCall, hook::ON_USE};

use crate::events::Event;
use crate::kinds::Outcome;
use crate::props::{ATTACK, DEFENCE, HP, IS_HERO, KILLER, KILLS, OUTCOME, VERB};
use crate::rules::{say_near, tell};
use crate::view::name_of;

pub(crate) fn alive(g: &Game, id: ThingId) -> bool {
    g.things().contains(id) && g.query(id, &HP).is_ok_and(|hp| hp > 0)
}

/// Attack `target`: touching it first (its [`ON_USE`] hook: lichens sting), then a blow.
pub(crate) fn attack(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    attacker: ThingId,
    target: ThingId,
) -> Result<(), Error> {
    let call = HookCall {
        actor: Some(attacker),
        ..HookCall::on(target)
    };
    ctx.run(&mut *g, &ON_USE, call)?;
    if alive(g, attacker) && alive(g, target) {
        strike(g, ctx, attacker, target)?;
    }
    Ok(())
}

/// One blow: `1 + rand(max(0, attack − defence))` damage, with messages.
pub(crate) fn strike(
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
        let at = g.things().location(target)?;
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
pub(crate) fn hurt(
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

pub(crate) fn die(
    g: &mut Game,
    ctx: &mut HookCtx<'_>,
    victim: ThingId,
    by: ThingId,
) -> Result<(), Error> {
    let name = name_of(g, victim);
    let killer = name_of(g, by);
    if g.is(victim, &IS_HERO) {
        g.set_var_mut(&OUTCOME, Outcome::Dead);
        g.set_var_mut(&KILLER, killer.clone());
        tell(g, ctx, victim, Event::YouDied { killer });
        return Ok(());
    }
    let at = g.things().location(victim)?;
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
