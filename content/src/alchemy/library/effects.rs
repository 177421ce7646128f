//! Effects: things carried inside a creature. They act through modifiers (stats, speed,
//! armour, flags) and through [`HP_PER_TURN`]; the time rule counts their [`DURATION`] down.

use std::sync::Arc;

use alembic::{Error, Library, Props, library::ABSTRACT, library::FREQ, props::Modifier};

use super::named;
use crate::alchemy::kinds::Stat;
use crate::alchemy::props::{
    ARMOUR, DURATION, END_MSG, HP_PER_TURN, HPS_MAX, IS_CONFUSED, IS_DRAIN, IS_EFFECT, IS_HARMFUL,
    IS_INVINCIBLE, IS_POISON, OTHER_MSG, RES_FIRE, RES_ICE, SK, SPEED, ST, START_MSG, TG,
};

/// Normal turns → time units.
const T: i32 = 100;

fn effect(name: &str, turns: i32, start: &str, end: &str, other: &str) -> Props {
    named(name)
        .with(&DURATION, turns * T)
        .with(&START_MSG, Arc::from(start))
        .with(&END_MSG, Arc::from(end))
        .with(&OTHER_MSG, Arc::from(other))
}

fn harmful(p: Props) -> Props {
    p.with(&IS_HARMFUL, true)
}

pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base effect",
        Some("base thing"),
        named("effect")
            .with(&ABSTRACT, true)
            .with(&IS_EFFECT, true)
            .with(&FREQ, 0),
    )?;
    periodic(lib)?;
    conditions(lib)?;
    more_conditions(lib)?;
    last_conditions(lib)?;
    stat_changes(lib)
}

/// Periodic effects: healing, regeneration, poison, sickness, burning.
fn periodic(lib: &mut Library) -> Result<(), Error> {
    let mut add = |name: &str, p: Props| lib.proclaim_mut(name, Some("base effect"), p);
    // --- periodic: healing, regeneration, poison, sickness, burning ---
    add(
        "healing",
        effect("healing", 8, "You feel better.", "", "{} looks better.").with(&HP_PER_TURN, 2),
    )?;
    add(
        "strong healing",
        effect(
            "strong healing",
            8,
            "You feel much better.",
            "",
            "{} looks much better.",
        )
        .with(&HP_PER_TURN, 5),
    )?;
    add(
        "regenerating",
        effect(
            "regenerating",
            50,
            "Your wounds begin to close.",
            "You stop regenerating.",
            "",
        )
        .with(&HP_PER_TURN, 1),
    )?;
    add(
        "enhanced regenerating",
        effect(
            "enhanced regenerating",
            50,
            "Your wounds close before your eyes.",
            "You stop regenerating.",
            "",
        )
        .with(&HP_PER_TURN, 3),
    )?;
    let poisons = [
        ("poisoned", 10, 1, "You feel poison in your veins."),
        ("badly poisoned", 15, 2, "You feel very ill."),
        (
            "deadly poisoned",
            8,
            3,
            "Deadly poison burns in your veins!",
        ),
    ];
    for (name, turns, dmg, start) in poisons {
        add(
            name,
            harmful(effect(
                name,
                turns,
                start,
                "The poison wears off.",
                "{} looks poisoned.",
            ))
            .with(&IS_POISON, true)
            .with(&HP_PER_TURN, -dmg),
        )?;
    }
    add(
        "sick",
        harmful(effect(
            "sick",
            30,
            "You feel sick.",
            "You feel less sick.",
            "{} looks sick.",
        ))
        .with(&HP_PER_TURN, -1)
        .modifier(Modifier::add(&TG, -2)),
    )?;
    add(
        "very sick",
        harmful(effect(
            "very sick",
            30,
            "You feel terribly sick.",
            "You feel less sick.",
            "{} looks very sick.",
        ))
        .with(&HP_PER_TURN, -2)
        .modifier(Modifier::add(&TG, -3))
        .modifier(Modifier::add(&ST, -2)),
    )?;
    add(
        "burning",
        harmful(effect(
            "burning",
            4,
            "You are on fire!",
            "The flames die down.",
            "{} catches fire!",
        ))
        .with(&HP_PER_TURN, -3),
    )?;

    Ok(())
}

/// Temporary conditions, the first third.
fn conditions(lib: &mut Library) -> Result<(), Error> {
    let mut add = |name: &str, p: Props| lib.proclaim_mut(name, Some("base effect"), p);
    // --- temporary conditions ---
    add(
        "invincible",
        effect(
            "invincible",
            10,
            "You feel invincible!",
            "You feel vulnerable again.",
            "{} glows brightly.",
        )
        .modifier(Modifier::set(&IS_INVINCIBLE, true)),
    )?;
    add(
        "shielded",
        effect(
            "shielded",
            30,
            "A shimmering shield surrounds you.",
            "Your shield fades.",
            "{} shimmers.",
        )
        .modifier(Modifier::add(&ARMOUR, 4)),
    )?;
    add(
        "stoneskinned",
        effect(
            "stoneskinned",
            30,
            "Your skin turns to stone.",
            "Your skin softens.",
            "{}'s skin turns grey.",
        )
        .modifier(Modifier::add(&ARMOUR, 8))
        .modifier(Modifier::add(&SPEED, -20)),
    )?;
    add(
        "slowed",
        harmful(effect(
            "slowed",
            15,
            "You feel sluggish.",
            "You speed up again.",
            "{} slows down.",
        ))
        .modifier(Modifier::scale(&SPEED, 2, 3).priority(10)),
    )?;
    add(
        "very slowed",
        harmful(effect(
            "very slowed",
            15,
            "You can barely move.",
            "You speed up again.",
            "{} slows to a crawl.",
        ))
        .modifier(Modifier::scale(&SPEED, 1, 2).priority(10)),
    )?;
    add(
        "frozen",
        harmful(effect(
            "frozen",
            5,
            "You are freezing!",
            "You thaw out.",
            "{} is covered in frost.",
        ))
        .modifier(Modifier::scale(&SPEED, 1, 2).priority(10))
        .modifier(Modifier::add(&Stat::Ag.prop(), -3)),
    )?;
    add(
        "hasted",
        effect(
            "hasted",
            20,
            "You feel quick.",
            "You slow down.",
            "{} speeds up.",
        )
        .modifier(Modifier::add(&SPEED, 50)),
    )?;
    add(
        "extremely hasted",
        effect(
            "extremely hasted",
            15,
            "Everything around you slows down!",
            "You slow down.",
            "{} becomes a blur.",
        )
        .modifier(Modifier::add(&SPEED, 100)),
    )?;
    Ok(())
}

/// Temporary conditions, the second third.
fn more_conditions(lib: &mut Library) -> Result<(), Error> {
    let mut add = |name: &str, p: Props| lib.proclaim_mut(name, Some("base effect"), p);
    add(
        "weakened",
        harmful(effect(
            "weakened",
            30,
            "You feel weak.",
            "Your strength returns.",
            "{} looks weaker.",
        ))
        .modifier(Modifier::add(&ST, -3)),
    )?;
    add(
        "very weakened",
        harmful(effect(
            "very weakened",
            30,
            "You feel very weak.",
            "Your strength returns.",
            "{} looks much weaker.",
        ))
        .modifier(Modifier::add(&ST, -6))
        .modifier(Modifier::add(&SK, -2)),
    )?;
    add(
        "confused",
        harmful(effect(
            "confused",
            10,
            "You feel confused.",
            "You feel less confused.",
            "{} looks confused.",
        ))
        .modifier(Modifier::set(&IS_CONFUSED, true)),
    )?;
    add(
        "very confused",
        harmful(effect(
            "very confused",
            20,
            "Your head spins wildly.",
            "You feel less confused.",
            "{} staggers about.",
        ))
        .modifier(Modifier::set(&IS_CONFUSED, true))
        .modifier(Modifier::add(&SK, -2)),
    )?;
    Ok(())
}

/// Temporary conditions, the last third.
fn last_conditions(lib: &mut Library) -> Result<(), Error> {
    let mut add = |name: &str, p: Props| lib.proclaim_mut(name, Some("base effect"), p);
    add(
        "health boosted",
        effect(
            "health boosted",
            50,
            "You feel robust.",
            "You feel less robust.",
            "{} looks robust.",
        )
        .modifier(Modifier::add(&HPS_MAX, 20)),
    )?;
    add(
        "blessed",
        Stat::ALL.into_iter().fold(
            effect(
                "blessed",
                40,
                "You feel blessed.",
                "The blessing fades.",
                "{} looks blessed.",
            ),
            |p, s| p.modifier(Modifier::add(&s.prop(), 1)),
        ),
    )?;
    add(
        "cursed",
        Stat::ALL.into_iter().fold(
            harmful(effect(
                "cursed",
                40,
                "You feel cursed.",
                "The curse lifts.",
                "{} looks cursed.",
            )),
            |p, s| p.modifier(Modifier::add(&s.prop(), -1)),
        ),
    )?;
    add(
        "fire resistant",
        effect(
            "fire resistant",
            50,
            "You feel cool.",
            "You feel warmer.",
            "",
        )
        .modifier(Modifier::add(&RES_FIRE, 50)),
    )?;
    add(
        "cold resistant",
        effect(
            "cold resistant",
            50,
            "You feel warm.",
            "You feel the cold again.",
            "",
        )
        .modifier(Modifier::add(&RES_ICE, 50)),
    )?;

    Ok(())
}

/// A boost and a drain for each statistic.
fn stat_changes(lib: &mut Library) -> Result<(), Error> {
    let mut add = |name: &str, p: Props| lib.proclaim_mut(name, Some("base effect"), p);
    // --- a boost and a drain for each statistic ---
    for s in Stat::ALL {
        let w = s.word();
        add(
            &format!("{w} boosted"),
            effect(
                &format!("{w} boosted"),
                50,
                &format!("You feel a surge of {w}."),
                &format!("Your {w} returns to normal."),
                "",
            )
            .modifier(Modifier::add(&s.prop(), 3)),
        )?;
        add(
            &format!("{w} drained"),
            harmful(effect(
                &format!("{w} drained"),
                50,
                &format!("You feel your {w} drain away."),
                &format!("Your {w} returns."),
                "",
            ))
            .with(&IS_DRAIN, true)
            .modifier(Modifier::add(&s.prop(), -3)),
        )?;
    }
    Ok(())
}
