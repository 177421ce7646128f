//! Terrain tiles.

use std::sync::Arc;

use alembic::{Error, Library, Props};

use super::{named, rgb};
use crate::alchemy::props::{
    BG, FG, GLYPH, IS_BLOCKING, IS_DANGEROUS, IS_FLOOR, IS_VIEW_BLOCKING, IS_WATER, TILE_DAMAGE,
    TILE_DAMAGE_TYPE,
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
