//! Combat: skill against dodge, skill against block, critical hits, damage types with
//! resistances and armour, on-hit effects, death (immortals excepted) and drops.

use alembic::{Error, Game, HookCtx, Place, ThingId, hook::HookCall, hook::ON_DEATH};

use super::effects::add_effect;
use super::world::hero_sees;
use crate::events::{Cause, Event, Noun, Strike, emit};
use crate::kinds::DamageType;
use crate::props::{
    AG, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, BLOCK, DROP_CHANCE, FOE, GAME_OVER, HIT_EFFECT,
    HIT_EFFECT_CHANCE, HPS, HPS_MAX, IS_CREATURE, IS_HERO, IS_IMMORTAL, IS_INVINCIBLE, IS_ITEM,
    IS_POTION, IS_WIELDED, KILLS, OUTCOME, SK, ST,
};

/// Who or what did the damage (for events, kills and the cause of death).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A creature's attack.
    Creature(ThingId),
    /// Anything else (a potion, an effect).
    Cause(Cause),
}

/// True with probability a / (a + b) (both at least 1): the opposed roll.
fn opposed(game: &mut Game, a: i32, b: i32) -> bool {
    let a = u64::try_from(a.max(1)).unwrap_or(1);
    let b = u64::try_from(b.max(1)).unwrap_or(1);
    game.rng().below(a + b) < a
}

/// `attacker` attacks `defender` once. Returns the damage dealt (0 for a miss).
pub fn attack(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    attacker: ThingId,
    defender: ThingId,
) -> Result<i32, Error> {
    // A monster attacked by another monster fights back.
    if !game.is(defender, &IS_HERO) && !game.is(attacker, &IS_HERO) {
        game.set_mut(defender, &FOE, attacker)?;
    }
    let seen = hero_sees(game, game.things().location(attacker)?)
        || hero_sees(game, game.things().location(defender)?);
    let sk = game.query(attacker, &SK)?;
    let ag = game.query(defender, &AG)?;
    let verb = game.query(attacker, &ATT_VERB)?;
    let dtype = game.query(attacker, &ATT_TYPE)?;
    let attacked = |game: &Game, strike: Strike, damage: i32| Event::Attacked {
        attacker: Noun::of(game, attacker),
        target: Noun::of(game, defender),
        strike,
        verb: verb.clone(),
        damage,
        kind: dtype,
        seen,
    };
    // Skill against dodge (the attacker gets a small edge).
    if !opposed(game, sk * 3 / 2 + 2, ag) {
        emit(game, ctx, attacked(game, Strike::Missed, 0));
        return Ok(0);
    }
    // Skill against block: half the defender's skill plus shields.
    let block = game.query(defender, &SK)? / 2 + game.query(defender, &BLOCK)? / 5;
    if block > 0 && !opposed(game, sk * 3, block) {
        emit(game, ctx, attacked(game, Strike::Blocked, 0));
        return Ok(0);
    }
    let max = game.query(attacker, &ATT_DAMAGE)?.max(1);
    let st = game.query(attacker, &ST)?;
    let mut dmg = game.rng().range(1, i64::from(max)) as i32 + (st - 4).max(0) / 2;
    // Critical hit: 5% plus the skill advantage, doubles damage.
    let crit_pct = (5 + sk - game.query(defender, &SK)?).clamp(2, 25);
    let crit = game.rng().below(100) < u64::try_from(crit_pct).unwrap_or(5);
    if crit {
        dmg *= 2;
    }
    let strike = if crit { Strike::Critical } else { Strike::Hit };
    emit(game, ctx, attacked(game, strike, dmg));
    let dealt = damage(game, ctx, defender, dmg, dtype, Source::Creature(attacker))?;
    // On-hit effect (a probability, 0..=1).
    if dealt > 0
        && game.things().contains(defender)
        && let Some(effect) = game.query_opt(attacker, &HIT_EFFECT)?
    {
        let p = game.query(attacker, &HIT_EFFECT_CHANCE)?;
        if game.rng().chance(p) {
            add_effect(game, ctx, defender, &effect)?;
        }
    }
    Ok(dealt)
}

/// The mean damage of one attack by `attacker` on `defender`: the rolls of [`attack`]
/// (dodge, block, damage, critical, resistance, armour) averaged, on-hit effects aside. For
/// judging a fight (the bot) without rolling any dice.
#[must_use]
pub fn expected_damage(game: &Game, attacker: ThingId, defender: ThingId) -> f64 {
    let q = |t: ThingId, p: &alembic::Prop<i32>| f64::from(game.query(t, p).unwrap_or(0));
    let sk = q(attacker, &SK);
    let a = (sk * 1.5 + 2.0).floor().max(1.0);
    let b = q(defender, &AG).max(1.0);
    let p_hit = a / (a + b);
    let block = (q(defender, &SK) / 2.0).floor() + (q(defender, &BLOCK) / 5.0).floor();
    let p_through = if block > 0.0 {
        let a2 = (sk * 3.0).max(1.0);
        a2 / (a2 + block)
    } else {
        1.0
    };
    let max = q(attacker, &ATT_DAMAGE).max(1.0);
    let st_bonus = ((q(attacker, &ST) - 4.0).max(0.0) / 2.0).floor();
    let crit = (5.0 + sk - q(defender, &SK)).clamp(2.0, 25.0) / 100.0;
    let mut dmg = ((1.0 + max) / 2.0 + st_bonus) * (1.0 + crit);
    if let Ok(t) = game.query(attacker, &ATT_TYPE) {
        let res = f64::from(game.query(defender, &t.resistance()).unwrap_or(0).min(100));
        dmg *= (100.0 - res) / 100.0;
        let armour = q(defender, &ARMOUR).max(0.0) * f64::from(t.armour_percent()) / 100.0;
        dmg = (dmg - armour / 2.0).max(0.0);
    }
    p_hit * p_through * dmg
}

/// Apply `amount` damage of `dtype` to `target` after resistances and armour. Returns what
/// was dealt. Kills at 0 hit points (immortals stay at 1).
pub fn damage(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    target: ThingId,
    amount: i32,
    dtype: DamageType,
    source: Source,
) -> Result<i32, Error> {
    if amount <= 0 || !game.things().contains(target) || !game.is(target, &IS_CREATURE) {
        return Ok(0);
    }
    if game.is(target, &IS_INVINCIBLE) {
        let who = Noun::of(game, target);
        emit(game, ctx, Event::Unharmed { who });
        return Ok(0);
    }
    let res = game.query(target, &dtype.resistance())?.min(100);
    let mut dmg = amount * (100 - res) / 100;
    let armour = game.query(target, &ARMOUR)?.max(0) * dtype.armour_percent() / 100;
    if armour > 0 && dmg > 0 {
        let absorbed = game.rng().range(0, i64::from(armour)) as i32;
        dmg = (dmg - absorbed).max(0);
    }
    if dmg <= 0 {
        return Ok(0);
    }
    let hps = game.query(target, &HPS)?.saturating_sub(dmg);
    game.set_mut(target, &HPS, hps)?;
    emit(
        game,
        ctx,
        Event::Damaged {
            who: target,
            amount: dmg,
            kind: dtype,
        },
    );
    if hps <= 0 {
        die(game, ctx, target, &source)?;
    }
    Ok(dmg)
}

/// Restore up to `amount` hit points, never above the maximum.
pub fn heal(game: &mut Game, target: ThingId, amount: i32) -> Result<i32, Error> {
    let hps = game.query(target, &HPS)?;
    let max = game.query(target, &HPS_MAX)?;
    let new = hps.saturating_add(amount).min(max).max(hps);
    game.set_mut(target, &HPS, new)?;
    Ok(new - hps)
}

/// Keep hit points within the (possibly just lowered) maximum.
pub fn clamp_hps(game: &mut Game, target: ThingId) -> Result<(), Error> {
    if !game.things().contains(target) {
        return Ok(());
    }
    let hps = game.query(target, &HPS)?;
    let max = game.query(target, &HPS_MAX)?.max(1);
    if hps > max {
        game.set_mut(target, &HPS, max)?;
    }
    Ok(())
}

fn cause_of(game: &Game, source: &Source) -> Cause {
    match source {
        Source::Creature(c) if game.things().contains(*c) => {
            Cause::Creature(Some(Noun::of(game, *c)))
        }
        Source::Creature(_) => Cause::Creature(None),
        Source::Cause(c) => c.clone(),
    }
}

/// `victim` reaches 0 hit points. Immortals refuse; the hero's death ends the game; a
/// monster's carried items fall to the floor, it may drop loot, its death hook runs, and
/// the hero's kills count.
pub fn die(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    victim: ThingId,
    source: &Source,
) -> Result<(), Error> {
    let who = Noun::of(game, victim);
    if game.is(victim, &IS_IMMORTAL) {
        game.set_mut(victim, &HPS, 1)?;
        let seen = !game.is(victim, &IS_HERO) && hero_sees(game, game.things().location(victim)?);
        emit(game, ctx, Event::RefusedToDie { who, seen });
        return Ok(());
    }
    if game.is(victim, &IS_HERO) {
        let cause = cause_of(game, source);
        emit(
            game,
            ctx,
            Event::Died {
                who,
                cause,
                seen: true,
            },
        );
        game.set_var_mut(&GAME_OVER, true);
        game.set_var_mut(&OUTCOME, crate::kinds::Fate::Died);
        return Ok(());
    }
    let at = game.things().location(victim)?;
    let seen = hero_sees(game, at);
    let cause = cause_of(game, source);
    emit(game, ctx, Event::Died { who, cause, seen });
    if let Source::Creature(k) = source
        && game.is(*k, &IS_HERO)
    {
        let n = game.var(&KILLS).unwrap_or(0);
        game.set_var_mut(&KILLS, n + 1);
        let xp = super::progress::kill_xp(game, victim);
        super::progress::gain(game, xp);
    }
    // The death hook sees the victim still in place (e.g. a vampyre bat rising again).
    ctx.run(
        &mut *game,
        &ON_DEATH,
        HookCall {
            loc: Some(at),
            ..HookCall::on(victim)
        },
    )?;
    if !game.things().contains(victim) {
        return Ok(());
    }
    // Carried items fall, but a monster's potions break as it falls (they are its weapons,
    // not loot); effects vanish with the body.
    let carried: Vec<ThingId> = game
        .things()
        .contents(victim)?
        .iter()
        .copied()
        .filter(|&t| game.is(t, &IS_ITEM))
        .collect();
    let monster = !game.is(victim, &IS_HERO);
    for t in carried {
        if monster && game.is(t, &IS_POTION) {
            game.remove_thing_mut(t)?;
            continue;
        }
        game.set_mut(t, &IS_WIELDED, false)?;
        game.move_thing_mut(t, Place::Map(at))?;
    }
    let p = game.query(victim, &DROP_CHANCE)?;
    if game.rng().chance(p) {
        let lvl = -at.z;
        if let Ok(name) = game
            .library()
            .clone()
            .random_name(game.rng(), &IS_ITEM, 1, lvl.max(1))
        {
            let item = game.library().create(&name)?;
            game.add_thing_mut(at, item)?;
        }
    }
    game.remove_thing_mut(victim)?;
    Ok(())
}
