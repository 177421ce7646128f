//! Fixed features: doors, decorations, apparatus, stairs.

use std::sync::Arc;

use alembic::{Error, Library, hook::ON_USE, library::ABSTRACT, library::FREQ, props::Hook};

use super::{named, rgb};
use crate::alchemy::props::{
    DESCRIPTION, DOOR_STRENGTH, DRY_CHANCE, FG, GLYPH, HEAL_AMOUNT, IS_APPARATUS, IS_BLOCKING,
    IS_DECORATION, IS_DOOR, IS_EXIT, IS_LAB, IS_OPEN, IS_SCENERY, IS_STAIRS, IS_STAIRS_DOWN,
    IS_STAIRS_UP, IS_VIEW_BLOCKING, IS_WORKBENCH, LIGHT_COLOUR, LIGHT_RADIUS, USE_MESSAGE, Z_ORDER,
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
                Arc::from("An analysis lab. Stand beside it to analyse potions and ingredients."),
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
