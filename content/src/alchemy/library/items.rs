//! Ingredients, food, the Philosopher's Stone, weapons and armour.

use std::sync::Arc;

use alembic::{
    Error, Library, Props, hook::ON_CONSUME, library::ABSTRACT, library::FREQ, library::LEVEL,
    props::Hook, props::Modifier,
};

use super::{named, rgb};
use crate::alchemy::kinds::{DamageType, Slot};
use crate::alchemy::props::{
    AG, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, BLOCK, DESCRIPTION, FG, GIVES_EFFECT, GLYPH,
    HEAL_AMOUNT, HIT_EFFECT, HIT_EFFECT_CHANCE, HPS_MAX, IS_ARMOUR, IS_FOOD, IS_HERB,
    IS_IDENTIFIED, IS_INGREDIENT, IS_ITEM, IS_MUSHROOM, IS_PROPER, IS_STONE, IS_WEAPON, IS_WIELDED,
    RES_FIRE, RES_ICE, SK, SPEED, UNKNOWN_NAME, WIELD_SLOT, Z_ORDER,
};

fn text(s: &str) -> Arc<str> {
    Arc::from(s)
}

/// A weapon: while wielded it replaces its holder's attack.
fn weapon(name: &str, level: i32, damage: i32, dtype: DamageType, sk: i64) -> Props {
    let mut p = named(name)
        .with(&LEVEL, level)
        .modifier(Modifier::set(&ATT_DAMAGE, damage).while_flag(&IS_WIELDED))
        .modifier(Modifier::set(&ATT_TYPE, dtype).while_flag(&IS_WIELDED))
        .modifier(Modifier::set(&ATT_VERB, text("hit")).while_flag(&IS_WIELDED));
    if sk != 0 {
        p = p.modifier(Modifier::add(&SK, sk).while_flag(&IS_WIELDED));
    }
    p
}

/// Armour: adds `armour` while worn in `slot`.
fn armour(name: &str, level: i32, slot: Slot, armour: i64) -> Props {
    named(name)
        .with(&LEVEL, level)
        .with(&WIELD_SLOT, slot)
        .modifier(Modifier::add(&ARMOUR, armour).while_flag(&IS_WIELDED))
}

pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base item",
        Some("base thing"),
        named("item")
            .with(&ABSTRACT, true)
            .with(&IS_ITEM, true)
            .with(&Z_ORDER, 40),
    )?;
    ingredients(lib)?;
    food_and_stone(lib)?;
    gear(lib)?;

    Ok(())
}

/// Ingredients: herbs look alike until identified, as do mushrooms.
fn ingredients(lib: &mut Library) -> Result<(), Error> {
    // --- ingredients: herbs look alike until identified, as do mushrooms ---
    lib.proclaim_mut(
        "base ingredient",
        Some("base item"),
        named("ingredient")
            .with(&ABSTRACT, true)
            .with(&IS_INGREDIENT, true)
            .with(&ON_CONSUME, Hook::new("eat_ingredient"))
            .with(&FREQ, 100),
    )?;
    lib.proclaim_mut(
        "base herb",
        Some("base ingredient"),
        named("herb")
            .with(&ABSTRACT, true)
            .with(&IS_HERB, true)
            .with(&UNKNOWN_NAME, text("strange herb"))
            .with(&GLYPH, '%')
            .with(&FG, rgb(0x40C040)),
    )?;
    lib.proclaim_mut(
        "base mushroom",
        Some("base ingredient"),
        named("mushroom")
            .with(&ABSTRACT, true)
            .with(&IS_MUSHROOM, true)
            .with(&UNKNOWN_NAME, text("strange mushroom"))
            .with(&GLYPH, ',')
            .with(&FG, rgb(0xC0A080)),
    )?;
    for (name, lvl, col) in [
        ("bloodwort", 1, 0xC04040),
        ("silverleaf", 1, 0xC0C0C0),
        ("wolfsbane", 2, 0x8040C0),
        ("mandrake root", 3, 0xA08040),
        ("feverfew", 1, 0xE0E060),
    ] {
        lib.proclaim_mut(
            name,
            Some("base herb"),
            named(name).with(&LEVEL, lvl).with(&FG, rgb(col)),
        )?;
    }
    for (name, lvl, col) in [
        ("fly agaric", 1, 0xFF2020),
        ("inkcap", 1, 0x404040),
        ("puffball", 2, 0xE0E0C0),
        ("shrieker cap", 3, 0xC060C0),
    ] {
        lib.proclaim_mut(
            name,
            Some("base mushroom"),
            named(name).with(&LEVEL, lvl).with(&FG, rgb(col)),
        )?;
    }

    Ok(())
}

/// Food (always recognisable) and the goal, the Philosopher's Stone.
fn food_and_stone(lib: &mut Library) -> Result<(), Error> {
    // --- food (always recognisable) ---
    lib.proclaim_mut(
        "base food",
        Some("base item"),
        named("food")
            .with(&ABSTRACT, true)
            .with(&IS_FOOD, true)
            .with(&IS_IDENTIFIED, true)
            .with(&ON_CONSUME, Hook::new("eat_food"))
            .with(&GLYPH, '%')
            .with(&FREQ, 60),
    )?;
    for (name, heal, col) in [
        ("bread ration", 4, 0xC0A060),
        ("wedge of cheese", 4, 0xFFE060),
        ("apple", 2, 0x40C020),
        ("strip of dried meat", 6, 0xA04020),
        ("slime mould", 3, 0x60FF60),
    ] {
        lib.proclaim_mut(
            name,
            Some("base food"),
            named(name).with(&HEAL_AMOUNT, heal).with(&FG, rgb(col)),
        )?;
    }
    lib.proclaim_mut(
        "magic mushroom",
        Some("base food"),
        named("magic mushroom")
            .with(&ON_CONSUME, Hook::new("eat_magic_mushroom"))
            .with(&GLYPH, ',')
            .with(&FG, rgb(0xFF40FF))
            .with(&FREQ, 30),
    )?;

    // --- the goal ---
    lib.proclaim_mut(
        "the Philosopher's Stone",
        Some("base item"),
        named("the Philosopher's Stone")
            .with(&IS_STONE, true)
            .with(&IS_PROPER, true)
            .with(&IS_IDENTIFIED, true)
            .with(&GLYPH, '*')
            .with(&FG, rgb(0xFFD700))
            .with(&FREQ, 0)
            .with(
                &DESCRIPTION,
                text("The Philosopher's Stone glows with a deep red light."),
            ),
    )?;

    Ok(())
}

/// Weapons and armour.
fn gear(lib: &mut Library) -> Result<(), Error> {
    // --- weapons (the original defined slots and attack types but shipped none) ---
    lib.proclaim_mut(
        "base weapon",
        Some("base item"),
        named("weapon")
            .with(&ABSTRACT, true)
            .with(&IS_WEAPON, true)
            .with(&IS_IDENTIFIED, true)
            .with(&WIELD_SLOT, Slot::Hand)
            .with(&GLYPH, ')')
            .with(&FG, rgb(0xC0C0E0))
            .with(&FREQ, 40),
    )?;
    let weapons = [
        weapon("dagger", 1, 4, DamageType::Normal, 1),
        weapon("short sword", 1, 6, DamageType::Normal, 0),
        weapon("long sword", 3, 8, DamageType::Normal, 0),
        weapon("broadsword", 5, 10, DamageType::Normal, 0),
        weapon("club", 1, 5, DamageType::Impact, 0),
        weapon("mace", 2, 7, DamageType::Impact, 0),
        weapon("war hammer", 5, 11, DamageType::Impact, -1),
        weapon("spear", 2, 7, DamageType::Normal, 1),
        weapon("hand axe", 1, 6, DamageType::Normal, 0),
        weapon("battle axe", 6, 12, DamageType::Normal, -1),
        weapon("quarterstaff", 1, 5, DamageType::Impact, 0)
            .modifier(Modifier::add(&AG, 1).while_flag(&IS_WIELDED)),
        weapon("flaming sword", 8, 10, DamageType::Fire, 1).with(&FG, rgb(0xFF8020)),
        weapon("frost brand", 8, 10, DamageType::Ice, 1).with(&FG, rgb(0x80E0FF)),
        weapon("venom dagger", 4, 5, DamageType::Poison, 1)
            .with(&FG, rgb(0x40FF40))
            .modifier(Modifier::set(&HIT_EFFECT, text("poisoned")).while_flag(&IS_WIELDED))
            .modifier(Modifier::set(&HIT_EFFECT_CHANCE, 0.3).while_flag(&IS_WIELDED)),
    ];
    for p in weapons {
        let name = proto_name(&p)?;
        lib.proclaim_mut(&name, Some("base weapon"), p)?;
    }

    // --- armour across slots ---
    lib.proclaim_mut(
        "base armour",
        Some("base item"),
        named("armour")
            .with(&ABSTRACT, true)
            .with(&IS_ARMOUR, true)
            .with(&IS_IDENTIFIED, true)
            .with(&GLYPH, '[')
            .with(&FG, rgb(0xA0A0A0))
            .with(&FREQ, 40),
    )?;
    let pieces = [
        armour("leather cap", 1, Slot::Head, 1),
        armour("iron helm", 3, Slot::Head, 2),
        armour("leather armour", 1, Slot::Body, 2),
        armour("chain mail", 3, Slot::Body, 4)
            .modifier(Modifier::add(&AG, -1).while_flag(&IS_WIELDED)),
        armour("plate mail", 6, Slot::Body, 7)
            .modifier(Modifier::add(&AG, -2).while_flag(&IS_WIELDED))
            .modifier(Modifier::add(&SPEED, -10).while_flag(&IS_WIELDED)),
        armour("pair of leather gloves", 1, Slot::Hands, 1),
        armour("pair of gauntlets", 3, Slot::Hands, 2),
        armour("pair of leather boots", 1, Slot::Feet, 1),
        armour("pair of iron boots", 4, Slot::Feet, 2),
        armour("buckler", 1, Slot::OffHand, 1)
            .modifier(Modifier::add(&BLOCK, 10).while_flag(&IS_WIELDED)),
        armour("tower shield", 5, Slot::OffHand, 3)
            .modifier(Modifier::add(&BLOCK, 25).while_flag(&IS_WIELDED)),
        armour("cloak", 1, Slot::Cloak, 1),
        // Fire armour resists fire and ice armour resists ice (the original swapped them).
        armour("fire cloak", 5, Slot::Cloak, 1)
            .with(&FG, rgb(0xFF6020))
            .modifier(Modifier::add(&RES_FIRE, 50).while_flag(&IS_WIELDED)),
        armour("ice cloak", 5, Slot::Cloak, 1)
            .with(&FG, rgb(0x60C0FF))
            .modifier(Modifier::add(&RES_ICE, 50).while_flag(&IS_WIELDED)),
        armour("amulet of life", 6, Slot::Neck, 0)
            .with(&GLYPH, '"')
            .with(&FG, rgb(0xFF4040))
            .modifier(Modifier::add(&HPS_MAX, 10).while_flag(&IS_WIELDED)),
    ];
    for p in pieces {
        let name = proto_name(&p)?;
        lib.proclaim_mut(&name, Some("base armour"), p)?;
    }
    // Silence "unused" for keys only some builds use.
    let _ = (GIVES_EFFECT, IS_PROPER);
    Ok(())
}

fn proto_name(p: &Props) -> Result<String, Error> {
    match p.map().get(crate::alchemy::props::NAME.key()) {
        Some(alembic::props::Value::Text(t)) => Ok(t.to_string()),
        _ => Err(crate::alchemy::kinds::data_fault(
            crate::alchemy::kinds::DataError::Unnamed,
        )),
    }
}
