//! Alchemy's library as the Rust code built it before issue 27 moved it to
//! `games/alchemy/data/alchemy.toml`: the baseline the `data` bench measures loading against, and
//! what `tests` below check the data still builds, prototype for prototype, modifier for
//! modifier, tile for tile. It lives here, not in the game, so the game defines no
//! prototype in Rust. The six modules are the game's `library/{tiles,creatures,effects,
//! potions,items,scenery}.rs` as they were, with their paths pointed at the game's public
//! names.

use std::sync::Arc;

use alembic::{Error, Library, Props, Rgb, library::ABSTRACT};
use alembic_games::alchemy::{library::DataError, props::NAME};

/// A colour from `0xRRGGBB`.
const fn rgb(hex: u32) -> Rgb {
    Rgb::new((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// Properties with a display name.
fn named(name: &str) -> Props {
    Props::new().with(&NAME, Arc::from(name))
}

/// The game's "a prototype without a name" fault.
fn data_fault(e: DataError) -> Error {
    Error::game(e)
}

/// Alchemy's library as Rust code built it before issue 27 (before per-game randomisation).
///
/// # Errors
/// None in practice: the engine's errors for a malformed library.
pub fn from_code() -> Result<Library, Error> {
    let mut lib = Library::new();
    tiles::define(&mut lib)?;
    lib.proclaim_mut("base thing", None, Props::new().with(&ABSTRACT, true))?;
    creatures::define(&mut lib)?;
    effects::define(&mut lib)?;
    potions::define(&mut lib)?;
    items::define(&mut lib)?;
    scenery::define(&mut lib)?;
    // Saves name this library instead of copying it (see `alembic::save::SavedGame`).
    Ok(lib.named("alchemy", 1))
}

/// Terrain tiles.
mod tiles {

    use std::sync::Arc;

    use alembic::{Error, Library, Props};

    use super::{named, rgb};
    use alembic_games::alchemy::props::{
        BG, FG, GLYPH, IS_BLOCKING, IS_DANGEROUS, IS_FLOOR, IS_VIEW_BLOCKING, IS_WATER,
        TILE_DAMAGE, TILE_DAMAGE_TYPE,
    };

    fn floor(name: &str, glyph: char, fg: u32, bg: u32) -> Props {
        named(name)
            .with(&GLYPH, glyph)
            .with(&FG, rgb(fg))
            .with(&BG, rgb(bg))
            .with(&IS_FLOOR, true)
    }

    fn wall(name: &str, glyph: char, fg: u32, bg: u32) -> Props {
        named(name)
            .with(&GLYPH, glyph)
            .with(&FG, rgb(fg))
            .with(&BG, rgb(bg))
            .with(&IS_BLOCKING, true)
            .with(&IS_VIEW_BLOCKING, true)
    }

    pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
        lib.define_tile_mut("floor", floor("floor", '.', 0x808080, 0x000000))?;
        lib.define_tile_mut("cave floor", floor("cave floor", '.', 0x806040, 0x100800))?;
        lib.define_tile_mut("moss floor", floor("moss", '"', 0x40A040, 0x001000))?;
        lib.define_tile_mut(
            "stream",
            floor("underground stream", '~', 0x4080FF, 0x000040).with(&IS_WATER, true),
        )?;
        lib.define_tile_mut(
            "shallow pool",
            floor("shallow pool", '~', 0x60A0FF, 0x002050).with(&IS_WATER, true),
        )?;
        lib.define_tile_mut(
            "murky pool",
            floor("murky pool", '~', 0x608060, 0x102010).with(&IS_WATER, true),
        )?;
        lib.define_tile_mut(
            "deep pool",
            named("deep pool")
                .with(&GLYPH, '≈')
                .with(&FG, rgb(0x2040C0))
                .with(&BG, rgb(0x000030))
                .with(&IS_WATER, true)
                .with(&IS_DANGEROUS, true),
        )?;
        lib.define_tile_mut(
            "magma",
            named("magma")
                .with(&GLYPH, '≈')
                .with(&FG, rgb(0xFF6000))
                .with(&BG, rgb(0x601000))
                .with(&IS_DANGEROUS, true)
                .with(&TILE_DAMAGE, 10)
                .with(&TILE_DAMAGE_TYPE, Arc::from("fire")),
        )?;
        lib.define_tile_mut("wall", wall("wall", '#', 0x808080, 0x303030))?;
        lib.define_tile_mut("cave wall", wall("cave wall", '#', 0x806040, 0x201008))?;
        lib.define_tile_mut("pillar", wall("pillar", 'O', 0xA0A0A0, 0x000000))?;
        lib.define_tile_mut("rock", wall("solid rock", ' ', 0x404040, 0x101010))?;
        lib.define_tile_mut(
            "gold wall",
            wall("gold-veined wall", '#', 0xFFD700, 0x403000),
        )?;
        Ok(())
    }
}

/// Creatures: the hero and 45 monster kinds in eight families. Every creature of the
/// original's 34-creature roster is here under its own name (bat, cave bat, giant bat,
/// vampyre bat; cave bear, giant bear; rat, sewer rat, giant rat, demon rat; zombie, ghast,
/// skeleton, skeleton warrior, wight, skeleton hero, vampyre, spectre; small goblin, goblin,
/// orc, black orc, orc champion, troll, troll king; golem, immortal golem; grass snake,
/// snake, red snake, cobra, king cobra, wyrm; the dragon), with a few of our own between them.
mod creatures {

    use std::sync::Arc;

    use alembic::{
        Error, Library, Props, hook::ON_DEATH, library::ABSTRACT, library::FREQ,
        library::IS_CONTAINER, library::LEVEL, props::Hook, schedule::ACTS,
    };

    use super::{named, rgb};
    use alembic_games::alchemy::props::{
        AGGRO, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, ATTACKS_MONSTERS, DARK_SIGHT,
        DEATH_TRANSFORM, DEATH_TRANSFORM_CHANCE, DROP_CHANCE, FAMILY, FG, GLYPH, HIT_EFFECT,
        HIT_EFFECT_CHANCE, HPS, HPS_MAX, IS_BLOCKING, IS_CREATURE, IS_FLYING, IS_HERO, IS_HOSTILE,
        IS_IMMORTAL, IS_INTELLIGENT, IS_LIVING, IS_PROPER, IS_UNDEAD, LIGHT_RADIUS, PLANS,
        POTION_CHANCE, RES_FIRE, RES_ICE, RES_IMPACT, RES_NORMAL, RES_POISON, SPEED, Z_ORDER,
    };
    use alembic_games::alchemy::props::{DamageType, Stat};

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
                // The hero's torch (issue 54: light that matters).
                .with(&LIGHT_RADIUS, 5)
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
                        .with(&PLANS, true)
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
                // Goblinoids hunt by sight: a hero in darkness is noticed at three quarters of the range.
                .with(&DARK_SIGHT, 75)
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
            // The cunning ones plan their fights (issue 58).
            if matches!(name, "orc champion" | "troll king") {
                p = p.with(&PLANS, true);
            }
            // Some carry a potion, and plan while they do.
            if matches!(
                name,
                "goblin warrior" | "hobgoblin" | "orc" | "black orc" | "orc champion"
            ) {
                p = p.with(&POTION_CHANCE, 0.25);
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
                .with(&PLANS, true)
                .with(&FREQ, 30),
        )?;
        Ok(())
    }
}

/// Effects: things carried inside a creature. They act through modifiers (stats, speed,
/// armour, flags) and through [`HP_PER_TURN`]; the time rule counts their [`DURATION`] down.
mod effects {

    use std::sync::Arc;

    use alembic::{Error, Library, Props, library::ABSTRACT, library::FREQ, props::Modifier};

    use super::named;
    use alembic_games::alchemy::props::Stat;
    use alembic_games::alchemy::props::{
        ARMOUR, DURATION, END_MSG, HP_PER_TURN, HPS_MAX, IS_CONFUSED, IS_DRAIN, IS_EFFECT,
        IS_HARMFUL, IS_INVINCIBLE, IS_POISON, OTHER_MSG, RES_FIRE, RES_ICE, SK, SPEED, ST,
        START_MSG, TG,
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
}

/// Potions: 40 kinds. Each has an [`ON_CONSUME`] hook (a registered rule) and its
/// parameters; per game each gets an appearance and a recipe (see
/// [`randomise`](super::randomise)).
mod potions {

    use std::sync::Arc;

    use alembic::{
        Error, Library, Props, hook::ON_CONSUME, library::ABSTRACT, library::FREQ, library::LEVEL,
        props::Hook,
    };

    use super::{named, rgb};
    use alembic_games::alchemy::props::Stat;
    use alembic_games::alchemy::props::{
        FG, GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT, GLYPH, HEAL_AMOUNT, IS_ITEM, IS_POTION,
        UNKNOWN_NAME, Z_ORDER,
    };

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
                .get(alembic_games::alchemy::props::NAME.key())
                .and_then(|v| match v {
                    alembic::props::Value::Text(t) => Some(t.clone()),
                    _ => None,
                })
                .ok_or_else(|| {
                    super::data_fault(alembic_games::alchemy::library::DataError::Unnamed)
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
}

/// Ingredients, food, the Philosopher's Stone, weapons and armour.
mod items {

    use std::sync::Arc;

    use alembic::{
        Error, Library, Props, hook::ON_CONSUME, library::ABSTRACT, library::FREQ, library::LEVEL,
        props::Hook, props::Modifier,
    };

    use super::{named, rgb};
    use alembic_games::alchemy::props::{
        AG, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, BLOCK, DESCRIPTION, FG, GIVES_EFFECT, GLYPH,
        HEAL_AMOUNT, HIT_EFFECT, HIT_EFFECT_CHANCE, HPS_MAX, IS_ARMOUR, IS_FOOD, IS_HERB,
        IS_IDENTIFIED, IS_INGREDIENT, IS_ITEM, IS_MUSHROOM, IS_PROPER, IS_STONE, IS_WEAPON,
        IS_WIELDED, RES_FIRE, RES_ICE, SK, SPEED, UNKNOWN_NAME, WIELD_SLOT, Z_ORDER,
    };
    use alembic_games::alchemy::props::{DamageType, Slot};

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
        match p.map().get(alembic_games::alchemy::props::NAME.key()) {
            Some(alembic::props::Value::Text(t)) => Ok(t.to_string()),
            _ => Err(super::data_fault(
                alembic_games::alchemy::library::DataError::Unnamed,
            )),
        }
    }
}

/// Fixed features: doors, decorations, apparatus, stairs.
mod scenery {

    use std::sync::Arc;

    use alembic::{Error, Library, hook::ON_USE, library::ABSTRACT, library::FREQ, props::Hook};

    use super::{named, rgb};
    use alembic_games::alchemy::props::{
        DESCRIPTION, DOOR_STRENGTH, DRY_CHANCE, FG, GLYPH, HEAL_AMOUNT, IS_APPARATUS, IS_BLOCKING,
        IS_DECORATION, IS_DOOR, IS_EXIT, IS_LAB, IS_OPEN, IS_SCENERY, IS_STAIRS, IS_STAIRS_DOWN,
        IS_STAIRS_UP, IS_VIEW_BLOCKING, IS_WORKBENCH, LIGHT_COLOUR, LIGHT_RADIUS, USE_MESSAGE,
        Z_ORDER,
    };

    pub(super) fn define(lib: &mut Library) -> Result<(), Error> {
        lib.proclaim_mut(
            "base scenery",
            Some("base thing"),
            named("scenery")
                .with(&ABSTRACT, true)
                .with(&IS_SCENERY, true)
                .with(&Z_ORDER, 30)
                .with(&FREQ, 100),
        )?;

        // Doors: closed doors block movement and sight; gates block movement only.
        lib.proclaim_mut(
            "base door",
            Some("base scenery"),
            named("door")
                .with(&ABSTRACT, true)
                .with(&IS_DOOR, true)
                .with(&IS_OPEN, false)
                .with(&IS_BLOCKING, true)
                .with(&IS_VIEW_BLOCKING, true)
                .with(&GLYPH, '+')
                .with(&FG, rgb(0xC08040)),
        )?;
        lib.proclaim_mut("door", Some("base door"), named("door"))?;
        lib.proclaim_mut(
            "heavy door",
            Some("base door"),
            named("heavy door")
                .with(&DOOR_STRENGTH, 7)
                .with(&FG, rgb(0x806040))
                .with(&FREQ, 30),
        )?;
        lib.proclaim_mut(
            "gate",
            Some("base door"),
            named("gate")
                .with(&IS_VIEW_BLOCKING, false)
                .with(&GLYPH, '#')
                .with(&FG, rgb(0xA0A0C0))
                .with(&FREQ, 30),
        )?;

        decorations(lib)?;
        more_decorations(lib)?;
        Ok(())
    }

    /// Decorations: statues, runes, bones and the like.
    fn decorations(lib: &mut Library) -> Result<(), Error> {
        // Decorations.
        lib.proclaim_mut(
            "base decoration",
            Some("base scenery"),
            named("decoration")
                .with(&ABSTRACT, true)
                .with(&IS_DECORATION, true),
        )?;
        lib.proclaim_mut(
            "fountain of healing",
            Some("base decoration"),
            named("fountain")
                .with(&GLYPH, '{')
                .with(&FG, rgb(0x80C0FF))
                .with(&IS_BLOCKING, true)
                .with(&ON_USE, Hook::new("use_fountain"))
                .with(&HEAL_AMOUNT, 20)
                .with(&DRY_CHANCE, 0.3)
                .with(
                    &DESCRIPTION,
                    Arc::from("Clear water bubbles up from a stone basin."),
                ),
        )?;
        lib.proclaim_mut(
            "dry fountain",
            Some("base decoration"),
            named("dry fountain")
                .with(&GLYPH, '{')
                .with(&FG, rgb(0x808080))
                .with(&IS_BLOCKING, true)
                .with(&FREQ, 0)
                .with(&USE_MESSAGE, Arc::from("The fountain is dry.")),
        )?;
        lib.proclaim_mut(
            "gravestone",
            Some("base decoration"),
            named("gravestone")
                .with(&GLYPH, '|')
                .with(&FG, rgb(0xC0C0C0))
                .with(&IS_BLOCKING, true)
                .with(
                    &USE_MESSAGE,
                    Arc::from("The gravestone reads: \"Here lies an alchemist who drank first.\""),
                ),
        )?;
        lib.proclaim_mut(
            "candelabra",
            Some("base decoration"),
            named("candelabra")
                .with(&GLYPH, 'Y')
                .with(&FG, rgb(0xFFE080))
                .with(&IS_BLOCKING, true)
                .with(&USE_MESSAGE, Arc::from("The candles flicker."))
                .with(&LIGHT_RADIUS, 7)
                .with(&LIGHT_COLOUR, rgb(0xFFC060)),
        )?;
        lib.proclaim_mut(
            "rune",
            Some("base decoration"),
            named("rune")
                .with(&GLYPH, '^')
                .with(&FG, rgb(0xC040FF))
                .with(&USE_MESSAGE, Arc::from("The rune glows faintly.")),
        )?;
        Ok(())
    }

    /// More decorations, the apparatus and the stairs.
    fn more_decorations(lib: &mut Library) -> Result<(), Error> {
        lib.proclaim_mut(
            "statue",
            Some("base decoration"),
            named("statue")
                .with(&GLYPH, '8')
                .with(&FG, rgb(0xE0E0E0))
                .with(&IS_BLOCKING, true)
                .with(&USE_MESSAGE, Arc::from("The statue stares at you blankly.")),
        )?;

        // Apparatus.
        lib.proclaim_mut(
            "base apparatus",
            Some("base scenery"),
            named("apparatus")
                .with(&ABSTRACT, true)
                .with(&IS_APPARATUS, true)
                .with(&IS_BLOCKING, true)
                .with(&GLYPH, '&'),
        )?;
        lib.proclaim_mut(
            "alchemy workbench",
            Some("base apparatus"),
            named("alchemy workbench")
                .with(&IS_WORKBENCH, true)
                .with(&GLYPH, '=')
                .with(&FG, rgb(0xFFC040))
                .with(
                    &USE_MESSAGE,
                    Arc::from("An alchemy workbench. Stand beside it to craft potions."),
                ),
        )?;
        lib.proclaim_mut(
            "analysis lab",
            Some("base apparatus"),
            named("analysis lab")
                .with(&IS_LAB, true)
                .with(&GLYPH, '(')
                .with(&FG, rgb(0x40FFC0))
                .with(
                    &USE_MESSAGE,
                    Arc::from(
                        "An analysis lab. Stand beside it to analyse potions and ingredients.",
                    ),
                ),
        )?;

        // Stairs.
        lib.proclaim_mut(
            "base stairs",
            Some("base scenery"),
            named("staircase")
                .with(&ABSTRACT, true)
                .with(&IS_STAIRS, true)
                .with(&FG, rgb(0xFFFFFF))
                .with(&Z_ORDER, 20)
                .with(&FREQ, 0),
        )?;
        lib.proclaim_mut(
            "stairs down",
            Some("base stairs"),
            named("staircase down")
                .with(&IS_STAIRS_DOWN, true)
                .with(&GLYPH, '>'),
        )?;
        lib.proclaim_mut(
            "stairs up",
            Some("base stairs"),
            named("staircase up")
                .with(&IS_STAIRS_UP, true)
                .with(&GLYPH, '<'),
        )?;
        lib.proclaim_mut(
            "exit",
            Some("base stairs"),
            named("way out of the dungeon")
                .with(&IS_EXIT, true)
                .with(&IS_STAIRS_UP, true)
                .with(&GLYPH, '<')
                .with(&FG, rgb(0xFFFF00)),
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data file builds exactly the library the Rust code built: same prototypes (each
    /// with its parent, properties and modifiers in order), tiles (and their numbers) and
    /// name, so games, saves and recordings play on unchanged.
    #[test]
    fn the_data_builds_the_library_the_code_built() {
        let data = alembic_games::alchemy::library::base_library().unwrap();
        let code = from_code().unwrap();
        assert_eq!(data.len(), code.len());
        for p in code.prototypes() {
            let d = data.get(p.name()).unwrap();
            assert_eq!(d.parent(), p.parent(), "parent of {:?}", p.name());
            let props = |x: &alembic::library::Prototype| {
                x.props()
                    .iter()
                    .map(|(k, v)| (k.name().to_string(), v.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(props(d), props(p), "properties of {:?}", p.name());
            assert_eq!(d.modifiers(), p.modifiers(), "modifiers of {:?}", p.name());
            assert_eq!(d, p, "prototype {:?}", p.name());
        }
        let tiles = |l: &Library| l.tiles().map(|(i, t)| (i, t.clone())).collect::<Vec<_>>();
        assert_eq!(tiles(&data), tiles(&code));
        assert_eq!(data, code);
        assert_eq!(data.id(), code.id());
        assert_eq!(
            alembic_data::DataHash::of(&data),
            alembic_data::DataHash::of(&code)
        );
        assert!(data.warnings().is_empty(), "{:?}", data.warnings());
    }
}
