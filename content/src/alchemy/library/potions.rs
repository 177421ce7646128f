//! Potions: 40 kinds. Each has an [`ON_CONSUME`] hook (a registered rule) and its
//! parameters; per game each gets an appearance and a recipe (see
//! [`randomise`](super::randomise)).

use std::sync::Arc;

use alembic::{
    Error, Library, Props, hook::ON_CONSUME, library::ABSTRACT, library::FREQ, library::LEVEL,
    props::Hook,
};

use super::{named, rgb};
use crate::alchemy::kinds::Stat;
use crate::alchemy::props::{
    FG, GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT, GLYPH, HEAL_AMOUNT, IS_ITEM, IS_POTION, UNKNOWN_NAME,
    Z_ORDER,
};

/// Adjectives of potion appearances.
pub const QUALITIES: [&str; 10] = [
    "murky",
    "bubbling",
    "fizzy",
    "cloudy",
    "glowing",
    "oily",
    "smoky",
    "sparkling",
    "thick",
    "clear",
];
/// Colours of potion appearances.
pub const COLOURS: [&str; 10] = [
    "violet", "crimson", "amber", "green", "blue", "silver", "black", "golden", "pink", "white",
];

fn potion(name: &str, level: i32, hook: &str) -> Props {
    named(&format!("potion of {name}"))
        .with(&LEVEL, level)
        .with(&ON_CONSUME, Hook::new(hook))
}

fn effect_potion(name: &str, level: i32, effect: &str) -> Props {
    potion(name, level, "potion_effect").with(&GIVES_EFFECT, Arc::from(effect))
}

pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base potion",
        Some("base thing"),
        named("potion")
            .with(&ABSTRACT, true)
            .with(&IS_ITEM, true)
            .with(&IS_POTION, true)
            .with(&GLYPH, '!')
            .with(&FG, rgb(0xC080FF))
            .with(&Z_ORDER, 40)
            .with(&UNKNOWN_NAME, Arc::from("potion")),
    )?;
    let mut add = |p: Props| -> Result<(), Error> {
        let name = p
            .map()
            .get(crate::alchemy::props::NAME.key())
            .and_then(|v| match v {
                alembic::props::Value::Text(t) => Some(t.clone()),
                _ => None,
            })
            .ok_or_else(|| {
                crate::alchemy::kinds::data_fault(crate::alchemy::kinds::DataError::Unnamed)
            })?;
        lib.proclaim_mut(&name, Some("base potion"), p)
    };
    add(potion("healing", 1, "potion_heal")
        .with(&HEAL_AMOUNT, 20)
        .with(&FREQ, 200))?;
    add(potion("greater healing", 4, "potion_heal").with(&HEAL_AMOUNT, 40))?;
    add(effect_potion("health boost", 2, "health boosted"))?;
    // The hero's main way to grow: common enough to find one every level or two.
    add(potion("health gain", 2, "potion_health_gain").with(&FREQ, 150))?;
    add(potion("speed gain", 6, "potion_speed_gain").with(&FREQ, 30))?;
    add(effect_potion("speed", 2, "hasted"))?;
    add(effect_potion("extreme speed", 5, "extremely hasted"))?;
    add(effect_potion("stoneskin", 3, "stoneskinned"))?;
    add(effect_potion("shielding", 2, "shielded"))?;
    add(potion("cure poison", 1, "potion_cure_poison"))?;
    add(potion("cleansing", 3, "potion_cleansing"))?;
    add(potion("restoration", 4, "potion_restoration"))?;
    add(effect_potion("regeneration", 2, "regenerating"))?;
    // The original gave this one the weak effect by mistake.
    add(effect_potion(
        "enhanced regeneration",
        5,
        "enhanced regenerating",
    ))?;
    add(effect_potion("poison", 1, "poisoned"))?;
    add(effect_potion("deadly poison", 5, "deadly poisoned"))?;
    // Only one potion of confusion (the original defined it twice).
    add(effect_potion("confusion", 1, "confused"))?;
    add(effect_potion("sickness", 2, "sick"))?;
    add(effect_potion("weakness", 2, "weakened"))?;
    add(effect_potion("slowness", 2, "slowed"))?;
    add(effect_potion("invincibility", 7, "invincible").with(&FREQ, 30))?;
    add(effect_potion("fire", 3, "burning"))?;
    add(effect_potion("frost", 3, "frozen"))?;
    add(potion("chaos", 2, "potion_chaos"))?;
    for s in Stat::ALL {
        let w = s.word();
        add(potion(&format!("gain {w}"), 4, "potion_gain")
            .with(&GAIN_STAT, s)
            .with(&GAIN_AMOUNT, 1)
            .with(&FREQ, 40))?;
        add(effect_potion(&format!("{w} boost"), 2, &format!("{w} boosted")).with(&FREQ, 30))?;
    }
    Ok(())
}
