//! Creatures: the hero and 45 monster kinds in eight families. Every creature of the
//! original's 34-creature roster is here under its own name (bat, cave bat, giant bat,
//! vampyre bat; cave bear, giant bear; rat, sewer rat, giant rat, demon rat; zombie, ghast,
//! skeleton, skeleton warrior, wight, skeleton hero, vampyre, spectre; small goblin, goblin,
//! orc, black orc, orc champion, troll, troll king; golem, immortal golem; grass snake,
//! snake, red snake, cobra, king cobra, wyrm; the dragon), with a few of our own between them.

use std::sync::Arc;

use alembic::{
    Error, Library, Props, hook::ON_DEATH, library::ABSTRACT, library::FREQ, library::IS_CONTAINER,
    library::LEVEL, props::Hook, schedule::ACTS,
};

use super::{named, rgb};
use crate::alchemy::kinds::{DamageType, Stat};
use crate::alchemy::props::{
    AGGRO, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, ATTACKS_MONSTERS, DEATH_TRANSFORM,
    DEATH_TRANSFORM_CHANCE, DROP_CHANCE, FAMILY, FG, GLYPH, HIT_EFFECT, HIT_EFFECT_CHANCE, HPS,
    HPS_MAX, IS_BLOCKING, IS_CREATURE, IS_FLYING, IS_HERO, IS_HOSTILE, IS_IMMORTAL, IS_INTELLIGENT,
    IS_LIVING, IS_PROPER, IS_UNDEAD, RES_FIRE, RES_ICE, RES_IMPACT, RES_NORMAL, RES_POISON, SPEED,
    Z_ORDER,
};

/// Rows of creature tables: name, level, stats, hit points, damage, (armour,) glyph, colour.
type Row6 = (&'static str, i32, [i32; 8], i32, i32, u32);
type Row7 = (&'static str, i32, [i32; 8], i32, i32, char, u32);
type Row8 = (&'static str, i32, [i32; 8], i32, i32, i32, char, u32);

/// A creature kind: name, level, the eight statistics (SK ST AG TG IN WP CH CR), hit points
/// and the base damage of its attack.
fn kind(name: &str, level: i32, stats: [i32; 8], hps: i32, damage: i32) -> Props {
    let mut p = named(name)
        .with(&LEVEL, level)
        .with(&HPS, hps)
        .with(&HPS_MAX, hps)
        .with(&ATT_DAMAGE, damage);
    for (s, v) in Stat::ALL.into_iter().zip(stats) {
        p = p.with(&s.prop(), v);
    }
    p
}

fn text(s: &str) -> Arc<str> {
    Arc::from(s)
}

/// An attack inflicting `effect` with probability `chance` (0..=1; the original wrote 40).
fn on_hit(p: Props, effect: &str, chance: f64) -> Props {
    p.with(&HIT_EFFECT, text(effect))
        .with(&HIT_EFFECT_CHANCE, chance)
}

pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
    hero(lib)?;
    bats(lib)?;
    bears(lib)?;
    rats(lib)?;
    undead(lib)?;
    goblinoids(lib)?;
    golems(lib)?;
    snakes(lib)?;
    dragon(lib)
}

/// The parent of every creature, and the hero.
fn hero(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base creature",
        Some("base thing"),
        named("creature")
            .with(&ABSTRACT, true)
            .with(&ACTS, true)
            .with(&IS_CREATURE, true)
            .with(&IS_CONTAINER, true)
            .with(&IS_BLOCKING, true)
            .with(&IS_HOSTILE, true)
            .with(&Z_ORDER, 75)
            .with(&ATT_VERB, text("hit"))
            .with(&ATT_TYPE, DamageType::Normal)
            .with(&DROP_CHANCE, 0.15),
    )?;
    lib.proclaim_mut(
        "you",
        Some("base creature"),
        kind("you", 1, [10, 7, 8, 8, 7, 7, 7, 7], 40, 3)
            .with(&IS_HERO, true)
            .with(&IS_HOSTILE, false)
            .with(&IS_LIVING, true)
            .with(&IS_INTELLIGENT, true)
            .with(&IS_PROPER, true)
            .with(&FAMILY, text("hero"))
            .with(&GLYPH, '@')
            .with(&FG, rgb(0xFFFFFF))
            .with(&Z_ORDER, 100)
            .with(&FREQ, 0),
    )?;
    Ok(())
}

/// Bats: fast flyers.
fn bats(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base bat",
        Some("base creature"),
        named("bat")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, true)
            .with(&IS_FLYING, true)
            .with(&FAMILY, text("bat"))
            .with(&GLYPH, 'b')
            .with(&ATT_VERB, text("bite"))
            .with(&SPEED, 150)
            .with(&DROP_CHANCE, 0.0),
    )?;
    let bats: [Row6; 4] = [
        ("bat", 1, [2, 1, 9, 1, 1, 3, 2, 1], 3, 2, 0xFF7A30),
        ("cave bat", 2, [3, 2, 10, 2, 1, 3, 2, 1], 5, 3, 0xD85A20),
        ("giant bat", 4, [5, 4, 10, 4, 2, 4, 2, 1], 12, 5, 0xFF9858),
        ("vampyre bat", 7, [7, 5, 12, 5, 4, 8, 3, 1], 20, 6, 0xFF6A1A),
    ];
    for (name, lvl, s, hp, dmg, col) in bats {
        let mut p = kind(name, lvl, s, hp, dmg).with(&FG, rgb(col));
        if name == "vampyre bat" {
            p = on_hit(p, "weakened", 0.3)
                .with(&SPEED, 160)
                .with(&ON_DEATH, Hook::new("death_transform"))
                .with(&DEATH_TRANSFORM, text("vampyre"))
                .with(&DEATH_TRANSFORM_CHANCE, 0.25);
        }
        lib.proclaim_mut(name, Some("base bat"), p)?;
    }
    Ok(())
}

/// Bears: slow to anger, heavy blows.
fn bears(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base bear",
        Some("base creature"),
        named("bear")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, true)
            .with(&FAMILY, text("bear"))
            .with(&GLYPH, 'B')
            .with(&ATT_VERB, text("maul"))
            .with(&ATT_TYPE, DamageType::Impact)
            .with(&FREQ, 60),
    )?;
    lib.proclaim_mut(
        "black bear",
        Some("base bear"),
        kind("black bear", 3, [4, 7, 4, 6, 2, 4, 3, 1], 20, 6).with(&FG, rgb(0xD0C020)),
    )?;
    lib.proclaim_mut(
        "brown bear",
        Some("base bear"),
        kind("brown bear", 5, [5, 9, 4, 8, 2, 5, 3, 1], 30, 8).with(&FG, rgb(0xE8D030)),
    )?;
    lib.proclaim_mut(
        "cave bear",
        Some("base bear"),
        kind("cave bear", 7, [6, 11, 4, 10, 2, 6, 3, 1], 45, 10)
            .with(&FG, rgb(0xF8E040))
            .with(&RES_ICE, 30),
    )?;
    lib.proclaim_mut(
        "giant bear",
        Some("base bear"),
        kind("giant bear", 9, [7, 13, 4, 12, 2, 7, 3, 1], 60, 12)
            .with(&FG, rgb(0xFFF050))
            .with(&ARMOUR, 1)
            .with(&FREQ, 40),
    )?;
    Ok(())
}

/// Rats: weak, common, in packs.
fn rats(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base rat",
        Some("base creature"),
        named("rat")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, true)
            .with(&FAMILY, text("rat"))
            .with(&GLYPH, 'r')
            .with(&ATT_VERB, text("bite"))
            .with(&DROP_CHANCE, 0.05),
    )?;
    lib.proclaim_mut(
        "rat",
        Some("base rat"),
        kind("rat", 1, [4, 3, 6, 2, 1, 5, 2, 2], 4, 2).with(&FG, rgb(0xE878D0)),
    )?;
    lib.proclaim_mut(
        "sewer rat",
        Some("base rat"),
        on_hit(
            kind("sewer rat", 2, [4, 3, 6, 3, 1, 5, 2, 2], 6, 2),
            "sick",
            0.15,
        )
        .with(&FG, rgb(0xC858B8)),
    )?;
    lib.proclaim_mut(
        "giant rat",
        Some("base rat"),
        kind("giant rat", 2, [5, 4, 6, 4, 1, 5, 2, 2], 8, 3).with(&FG, rgb(0xF070E0)),
    )?;
    lib.proclaim_mut(
        "plague rat",
        Some("base rat"),
        on_hit(
            kind("plague rat", 4, [6, 4, 7, 4, 1, 5, 2, 2], 10, 4),
            "sick",
            0.3,
        )
        .with(&FG, rgb(0xB848F0)),
    )?;
    lib.proclaim_mut(
        "demon rat",
        Some("base rat"),
        kind("demon rat", 8, [9, 8, 9, 8, 3, 8, 2, 2], 30, 8)
            .with(&FG, rgb(0xFF40A8))
            .with(&ATT_TYPE, DamageType::Fire)
            .with(&RES_FIRE, 50)
            .with(&SPEED, 110),
    )?;
    Ok(())
}

/// The undead: the undead flag is set (the original forgot it, so healing never hurt).
fn undead(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base undead",
        Some("base creature"),
        named("undead")
            .with(&ABSTRACT, true)
            .with(&IS_UNDEAD, true)
            .with(&IS_LIVING, false)
            .with(&RES_POISON, 100)
            .with(&FAMILY, text("undead"))
            .with(&ATT_VERB, text("claw"))
            .with(&DROP_CHANCE, 0.25),
    )?;
    let undead: [Row7; 8] = [
        ("zombie", 2, [3, 6, 2, 6, 1, 10, 1, 1], 15, 4, 'z', 0x40D8B0),
        (
            "skeleton",
            3,
            [5, 5, 5, 4, 1, 10, 1, 1],
            12,
            5,
            's',
            0x80FFE8,
        ),
        ("ghast", 4, [5, 6, 5, 6, 2, 10, 1, 1], 18, 5, 'z', 0x70F0D0),
        (
            "skeleton warrior",
            5,
            [7, 7, 6, 6, 2, 10, 1, 1],
            22,
            7,
            's',
            0x50E8E8,
        ),
        ("wight", 6, [7, 6, 7, 7, 5, 12, 2, 1], 25, 6, 'W', 0x60D8F0),
        (
            "skeleton hero",
            8,
            [10, 9, 8, 8, 3, 12, 2, 1],
            40,
            10,
            's',
            0x70F8FF,
        ),
        (
            "vampyre",
            9,
            [10, 10, 10, 9, 8, 14, 8, 3],
            50,
            10,
            'V',
            0x30B8E8,
        ),
        (
            "spectre",
            10,
            [11, 6, 11, 8, 8, 16, 2, 1],
            40,
            9,
            'G',
            0x60D0FF,
        ),
    ];
    for (name, lvl, s, hp, dmg, glyph, col) in undead {
        let mut p = kind(name, lvl, s, hp, dmg)
            .with(&GLYPH, glyph)
            .with(&FG, rgb(col));
        match name {
            "zombie" => p = p.with(&SPEED, 70),
            "skeleton" | "skeleton warrior" | "skeleton hero" => {
                p = p.with(&RES_IMPACT, -50).with(&RES_NORMAL, 25);
            }
            "ghast" => p = on_hit(p, "sick", 0.4),
            "wight" => p = on_hit(p, "strength drained", 0.4),
            "vampyre" => {
                p = on_hit(p, "toughness drained", 0.4)
                    .with(&IS_INTELLIGENT, true)
                    .with(&ATT_VERB, text("bite"));
            }
            "spectre" => {
                p = p
                    .with(&ATT_TYPE, DamageType::Ice)
                    .with(&ATT_VERB, text("touch"))
                    .with(&IS_FLYING, true)
                    .with(&RES_NORMAL, 50)
                    .with(&RES_ICE, 100);
            }
            _ => {}
        }
        if matches!(name, "skeleton warrior" | "skeleton hero") {
            p = p
                .with(&ARMOUR, if name == "skeleton hero" { 4 } else { 2 })
                .with(&ATT_VERB, text("hit"));
        }
        lib.proclaim_mut(name, Some("base undead"), p)?;
    }
    Ok(())
}

/// Goblinoids: intelligent, they open doors; orcs and trolls among them.
fn goblinoids(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base goblinoid",
        Some("base creature"),
        named("goblinoid")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, true)
            .with(&IS_INTELLIGENT, true)
            .with(&FAMILY, text("goblinoid"))
            .with(&GLYPH, 'g')
            .with(&DROP_CHANCE, 0.3),
    )?;
    for (name, lvl, s, hp, dmg, arm, glyph, col) in goblinoid_rows() {
        let mut p = kind(name, lvl, s, hp, dmg)
            .with(&ARMOUR, arm)
            .with(&GLYPH, glyph)
            .with(&FG, rgb(col));
        if name.starts_with("troll") {
            p = p
                .with(&ATTACKS_MONSTERS, true)
                .with(&ATT_TYPE, DamageType::Impact)
                .with(&ATT_VERB, text("smash"));
        }
        lib.proclaim_mut(name, Some("base goblinoid"), p)?;
    }
    Ok(())
}

/// The goblinoids from small goblin to troll king: name, level, stats, hit points,
/// damage, armour, glyph, colour.
fn goblinoid_rows() -> [Row8; 9] {
    [
        (
            "small goblin",
            1,
            [4, 3, 5, 3, 3, 3, 2, 3],
            5,
            3,
            0,
            'g',
            0x90FF40,
        ),
        (
            "goblin",
            2,
            [5, 4, 5, 4, 4, 4, 2, 3],
            8,
            4,
            0,
            'g',
            0x60E040,
        ),
        (
            "goblin warrior",
            3,
            [6, 5, 6, 5, 4, 5, 2, 3],
            12,
            5,
            1,
            'g',
            0x40C830,
        ),
        (
            "hobgoblin",
            4,
            [7, 6, 5, 6, 4, 5, 2, 3],
            16,
            6,
            2,
            'h',
            0x88D850,
        ),
        ("orc", 5, [7, 8, 5, 7, 3, 6, 2, 3], 22, 7, 2, 'o', 0x30B060),
        (
            "black orc",
            6,
            [8, 9, 5, 8, 3, 7, 2, 3],
            28,
            8,
            3,
            'o',
            0x209048,
        ),
        (
            "orc champion",
            8,
            [10, 11, 6, 9, 4, 8, 3, 3],
            40,
            10,
            4,
            'o',
            0x50D880,
        ),
        (
            "troll",
            7,
            [8, 10, 4, 12, 2, 7, 1, 2],
            45,
            9,
            1,
            'T',
            0x38A838,
        ),
        (
            "troll king",
            10,
            [11, 13, 6, 14, 4, 10, 4, 3],
            80,
            14,
            3,
            'T',
            0x78F078,
        ),
    ]
}

/// Golems: not alive, not undead; slow and tough.
fn golems(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base golem",
        Some("base creature"),
        named("golem")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, false)
            .with(&RES_POISON, 100)
            .with(&FAMILY, text("golem"))
            .with(&GLYPH, '&')
            .with(&ATT_VERB, text("pound"))
            .with(&ATT_TYPE, DamageType::Impact)
            .with(&SPEED, 70)
            .with(&AGGRO, 6)
            .with(&FREQ, 50),
    )?;
    lib.proclaim_mut(
        "clay golem",
        Some("base golem"),
        kind("clay golem", 4, [4, 8, 2, 8, 1, 20, 1, 1], 25, 6)
            .with(&FG, rgb(0x7090FF))
            .with(&ARMOUR, 1),
    )?;
    lib.proclaim_mut(
        "golem",
        Some("base golem"),
        kind("golem", 5, [5, 10, 2, 10, 1, 20, 1, 1], 32, 8)
            .with(&FG, rgb(0x5878F0))
            .with(&ARMOUR, 3),
    )?;
    lib.proclaim_mut(
        "stone golem",
        Some("base golem"),
        kind("stone golem", 6, [5, 11, 2, 12, 1, 20, 1, 1], 40, 9)
            .with(&FG, rgb(0x80A0FF))
            .with(&ARMOUR, 4),
    )?;
    lib.proclaim_mut(
        "iron golem",
        Some("base golem"),
        kind("iron golem", 9, [7, 14, 3, 15, 1, 20, 1, 1], 60, 12)
            .with(&FG, rgb(0x4060E0))
            .with(&ARMOUR, 7)
            .with(&SPEED, 80),
    )?;
    lib.proclaim_mut(
        "immortal golem",
        Some("base golem"),
        kind("immortal golem", 11, [8, 12, 3, 12, 1, 20, 1, 1], 50, 10)
            .with(&FG, rgb(0x8098FF))
            .with(&ARMOUR, 5)
            .with(&IS_IMMORTAL, true)
            .with(&FREQ, 20),
    )?;
    Ok(())
}

/// Snakes: poisonous bites (chance 0.4, not the original's 40).
fn snakes(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "base snake",
        Some("base creature"),
        named("snake")
            .with(&ABSTRACT, true)
            .with(&IS_LIVING, true)
            .with(&FAMILY, text("snake"))
            .with(&GLYPH, 'S')
            .with(&ATT_VERB, text("bite"))
            .with(&DROP_CHANCE, 0.0),
    )?;
    lib.proclaim_mut(
        "grass snake",
        Some("base snake"),
        kind("grass snake", 1, [3, 2, 6, 2, 1, 3, 1, 1], 4, 2).with(&FG, rgb(0xB8F040)),
    )?;
    lib.proclaim_mut(
        "snake",
        Some("base snake"),
        kind("snake", 2, [4, 3, 7, 3, 1, 4, 1, 1], 6, 3).with(&FG, rgb(0xA0D830)),
    )?;
    lib.proclaim_mut(
        "red snake",
        Some("base snake"),
        on_hit(
            kind("red snake", 3, [5, 3, 8, 4, 1, 5, 1, 1], 9, 4),
            "poisoned",
            0.3,
        )
        .with(&FG, rgb(0xD0E048)),
    )?;
    lib.proclaim_mut(
        "adder",
        Some("base snake"),
        on_hit(
            kind("adder", 2, [5, 2, 7, 3, 1, 4, 1, 1], 6, 3),
            "poisoned",
            0.4,
        )
        .with(&FG, rgb(0x90C020)),
    )?;
    lib.proclaim_mut(
        "cobra",
        Some("base snake"),
        on_hit(
            kind("cobra", 5, [4, 3, 10, 7, 4, 9, 8, 3], 15, 5),
            "poisoned",
            0.4,
        )
        .with(&FG, rgb(0xC8F060)),
    )?;
    lib.proclaim_mut(
        "king cobra",
        Some("base snake"),
        on_hit(
            kind("king cobra", 7, [6, 5, 10, 8, 4, 10, 8, 3], 28, 7),
            "poisoned",
            0.5,
        )
        .with(&FG, rgb(0xD8FF50)),
    )?;
    lib.proclaim_mut(
        "python",
        Some("base snake"),
        kind("python", 6, [6, 10, 6, 8, 1, 6, 1, 1], 30, 8)
            .with(&FG, rgb(0x80B818))
            .with(&ATT_VERB, text("squeeze"))
            .with(&ATT_TYPE, DamageType::Impact),
    )?;
    lib.proclaim_mut(
        "black mamba",
        Some("base snake"),
        on_hit(
            kind("black mamba", 8, [9, 4, 11, 6, 2, 8, 2, 1], 20, 6),
            "deadly poisoned",
            0.35,
        )
        .with(&FG, rgb(0x709810))
        .with(&SPEED, 130),
    )?;
    lib.proclaim_mut(
        "wyrm",
        Some("base snake"),
        kind("wyrm", 10, [10, 12, 8, 12, 4, 10, 3, 1], 70, 12)
            .with(&FG, rgb(0xD8FF40))
            .with(&ATT_TYPE, DamageType::Fire)
            .with(&RES_FIRE, 75)
            .with(&ATTACKS_MONSTERS, true),
    )?;
    Ok(())
}

/// The dragon, guardian of the deepest level.
fn dragon(lib: &mut Library) -> Result<(), Error> {
    lib.proclaim_mut(
        "dragon",
        Some("base creature"),
        kind("dragon", 11, [14, 18, 8, 16, 10, 16, 10, 4], 250, 20)
            .with(&IS_LIVING, true)
            .with(&IS_INTELLIGENT, true)
            .with(&FAMILY, text("dragon"))
            .with(&GLYPH, 'D')
            .with(&FG, rgb(0xFF2050))
            .with(&ATT_VERB, text("breathe fire at"))
            .with(&ATT_TYPE, DamageType::Fire)
            .with(&RES_FIRE, 100)
            .with(&ARMOUR, 8)
            .with(&SPEED, 150)
            .with(&AGGRO, 12)
            .with(&ATTACKS_MONSTERS, true)
            .with(&DROP_CHANCE, 1.0)
            .with(&FREQ, 30),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic::Rgb;

    /// Hue (0–360), saturation and value (0–1) of `c`.
    fn hsv(c: Rgb) -> (f64, f64, f64) {
        let (r, g, b) = (
            f64::from(c.r) / 255.0,
            f64::from(c.g) / 255.0,
            f64::from(c.b) / 255.0,
        );
        let max = r.max(g).max(b);
        let d = max - r.min(g).min(b);
        let h = if d == 0.0 {
            0.0
        } else if max == r {
            60.0 * ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / d + 2.0)
        } else {
            60.0 * ((r - g) / d + 4.0)
        };
        (h, if max == 0.0 { 0.0 } else { d / max }, max)
    }

    #[test]
    fn every_monster_is_saturated_and_families_differ_in_hue() {
        let lib = crate::alchemy::base_library().expect("library");
        let mut families: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
        for p in lib.prototypes() {
            let family = p.get(&FAMILY).map(|f| f.to_string()).unwrap_or_default();
            if p.is_abstract() || !p.is(&IS_CREATURE) || family == "hero" {
                continue;
            }
            let fg = p.get(&FG).expect("colour");
            let (h, s, v) = hsv(fg);
            assert!(
                s >= 0.45 && v >= 0.55,
                "{}: {fg:?} is dull (s {s:.2}, v {v:.2})",
                p.name()
            );
            families.entry(family).or_default().push(h);
        }
        assert!(families.len() >= 7, "{families:?}");
        // Family hues (the mean of their kinds') are at least 20 degrees apart.
        let means: Vec<(&String, f64)> = families
            .iter()
            .map(|(f, hs)| (f, hs.iter().sum::<f64>() / hs.len() as f64))
            .collect();
        for (i, (fa, a)) in means.iter().enumerate() {
            for (fb, b) in &means[i + 1..] {
                let d = (a - b).abs().min(360.0 - (a - b).abs());
                assert!(d >= 20.0, "{fa} ({a:.0}) and {fb} ({b:.0}) look alike");
            }
        }
        // The check can fail: the old rat beside the old bat.
        let (rat, bat) = (
            hsv(Rgb::new(0xB0, 0xA0, 0x90)),
            hsv(Rgb::new(0x80, 0x60, 0x40)),
        );
        assert!(rat.1 < 0.45 || (rat.0 - bat.0).abs() < 20.0);
    }
}
