//! What a user interface needs, as plain functions returning plain structs: the hero, what
//! is seen and remembered, glyphs and colours, light, status, inventory, recipes, look, log.
//! Nothing here changes the game.

use std::sync::Arc;

use alembic::{Error, Game, LightMap, LightSource, Loc, Rgb, ThingId, Tile, VisibleSet};

use super::kinds::Stat;
use super::props::{
    ARMOUR, BG, FG, GLYPH, HPS, HPS_MAX, IS_ARMOUR, IS_CREATURE, IS_DOOR, IS_FOOD, IS_HERO,
    IS_INGREDIENT, IS_OPEN, IS_POTION, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE, IS_WATER, IS_WEAPON,
    IS_WIELDED, LIGHT_COLOUR, LIGHT_RADIUS, NAME, SPEED, WIELD_SLOT, Z_ORDER,
};
use super::rules::combat::attack_summary;
use super::rules::effects::effect_list;
use super::rules::items::{apparatus_near, gather, inventory, recipe_of};
use super::rules::memory::{remembered_look, remembered_thing, remembered_tile};
use super::rules::world::{FOV_RADIUS, LEVELS, depth_of, hero_view, level_box};
use super::text::{a_name, base_name, capitalise, count_name, is_identified};

pub use super::rules::world::hero as hero_id;

/// The cells the hero sees now (the engine's symmetric FOV, radius 12).
pub fn visible(game: &Game) -> Result<VisibleSet, Error> {
    hero_view(game)
}

/// A glyph with its colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The character.
    pub ch: char,
    /// Foreground colour.
    pub fg: Rgb,
    /// Background colour.
    pub bg: Rgb,
}

/// How to draw one map cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellView {
    /// What to draw: the top thing on the tile when seen; the remembered scenery or tile
    /// otherwise.
    pub glyph: Glyph,
    /// Seen right now.
    pub visible: bool,
    /// Seen before (remembered); false for cells never seen.
    pub remembered: bool,
}

/// The glyph of a tile kind.
pub fn tile_glyph(game: &Game, tile: alembic::TileId) -> Result<Glyph, Error> {
    let t = game.library().tile(tile)?;
    Ok(Glyph {
        ch: t.get(&GLYPH).unwrap_or(' '),
        fg: t.get(&FG)?,
        bg: t.get(&BG)?,
    })
}

/// The glyph of a thing (no background).
pub fn thing_glyph(game: &Game, t: ThingId) -> Result<Glyph, Error> {
    Ok(Glyph {
        ch: game.query(t, &GLYPH).unwrap_or('?'),
        fg: game.query(t, &FG)?,
        bg: Rgb::BLACK,
    })
}

/// The thing drawn on top at `l` (highest z-order; creatures above items above scenery).
#[must_use]
pub fn top_thing(game: &Game, l: Loc) -> Option<ThingId> {
    game.things_at(l)
        .iter()
        .copied()
        .max_by_key(|&t| game.query(t, &Z_ORDER).unwrap_or(0))
}

/// How to draw `l`, given the hero's current view. `None`: never seen.
pub fn cell_view(game: &Game, view: &VisibleSet, l: Loc) -> Result<Option<CellView>, Error> {
    if view.contains(l) {
        let tile = tile_glyph(game, game.tile(l))?;
        let glyph = match top_thing(game, l) {
            Some(t) => {
                let g = thing_glyph(game, t)?;
                Glyph { bg: tile.bg, ..g }
            }
            None => tile,
        };
        return Ok(Some(CellView {
            glyph,
            visible: true,
            remembered: true,
        }));
    }
    let Some(tile) = remembered_tile(game, l) else {
        return Ok(None);
    };
    let tg = tile_glyph(game, tile)?;
    // Scenery as it looked when last seen (a door seen closed stays closed in memory).
    let glyph = match remembered_look(game, l) {
        Some((ch, fg)) => Glyph { ch, fg, bg: tg.bg },
        None => tg,
    };
    Ok(Some(CellView {
        glyph,
        visible: false,
        remembered: true,
    }))
}

/// The graphical tile for `l`, for frontends that draw [`Tile`]s; `None` where the letter
/// stays (items other than potions, scenery other than doors and stairs, special terrain),
/// so tiles never hide what a letter would tell. Never-seen cells are `None` too.
pub fn cell_tile(game: &Game, view: &VisibleSet, l: Loc) -> Result<Option<Tile>, Error> {
    let thing_tile = |t: ThingId, open: bool| -> Option<Tile> {
        if game.is(t, &IS_HERO) {
            Some(Tile::Hero)
        } else if game.is(t, &IS_CREATURE) {
            Some(Tile::Creature(game.query(t, &GLYPH).unwrap_or('?')))
        } else if game.is(t, &IS_POTION) {
            Some(Tile::Potion)
        } else if game.is(t, &IS_DOOR) {
            Some(if open {
                Tile::DoorOpen
            } else {
                Tile::DoorClosed
            })
        } else if game.is(t, &IS_STAIRS_DOWN) {
            Some(Tile::StairsDown)
        } else if game.is(t, &IS_STAIRS_UP) {
            Some(Tile::StairsUp)
        } else {
            None
        }
    };
    let terrain = |tile: alembic::TileId| -> Result<Option<Tile>, Error> {
        let t = game.library().tile(tile)?;
        let ch = t.get(&GLYPH).unwrap_or(' ');
        Ok(match ch {
            '~' if t.get(&IS_WATER).unwrap_or(false) => Some(Tile::Water),
            '#' => Some(Tile::Wall),
            ' ' => Some(Tile::Rock),
            '.' => Some(Tile::Floor),
            _ => None,
        })
    };
    if view.contains(l) {
        return match top_thing(game, l) {
            Some(t) => Ok(thing_tile(t, game.is(t, &IS_OPEN))),
            None => terrain(game.tile(l)),
        };
    }
    let Some(tile) = remembered_tile(game, l) else {
        return Ok(None);
    };
    match remembered_look(game, l) {
        // Scenery as last seen: a door remembered open stays open.
        Some((ch, _)) => Ok(remembered_thing(game, l).and_then(|t| thing_tile(t, ch == '\'')))
            .map(|t| t.filter(|t| !matches!(t, Tile::Hero | Tile::Creature(_)))),
        None => terrain(tile),
    }
}

/// The light on the hero's level: a warm torch at the hero with the seed game's falloff,
/// plus every light source on the level (candelabra), each occluded like sight. `get(loc)`
/// gives each cell's light colour; multiply glyph colours by it with [`Rgb::modulate`].
pub fn light_map(game: &Game) -> Result<LightMap, Error> {
    let at = game.location(hero_id(game)?)?;
    let area = level_box(at.z);
    let mut lights = vec![LightSource::new(at, FOV_RADIUS, Rgb::new(255, 240, 200))];
    for l in area.iter() {
        for &t in game.things_at(l) {
            let r = game.query(t, &LIGHT_RADIUS).unwrap_or(0);
            if r > 0 {
                let colour = game.query(t, &LIGHT_COLOUR)?;
                lights.push(LightSource::new(l, r.unsigned_abs(), colour));
            }
        }
    }
    let table = super::rules::world::TileTable::new(game);
    Ok(LightMap::compute(
        area,
        &lights,
        Rgb::new(24, 24, 32),
        |l| table.transparent(game, l),
    ))
}

/// One line of the hero's status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Hit points.
    pub hp: i32,
    /// Maximum hit points.
    pub hp_max: i32,
    /// The eight statistics with modifiers applied: (code, value).
    pub stats: Vec<(&'static str, i32)>,
    /// Armour.
    pub armour: i32,
    /// Speed (100 normal).
    pub speed: i32,
    /// Depth 1..=11.
    pub depth: i32,
    /// Number of levels (11): shown as "Depth 3/11".
    pub levels: i32,
    /// Turns taken.
    pub turn: u64,
    /// Active effects: (name, turns left).
    pub effects: Vec<(String, i32)>,
    /// The current attack ("hit 1-6 normal").
    pub attack: String,
    /// Whether the hero carries the Philosopher's Stone.
    pub has_stone: bool,
}

/// The hero's status.
pub fn status(game: &Game) -> Result<Status, Error> {
    let h = hero_id(game)?;
    let mut stats = Vec::new();
    for s in Stat::ALL {
        stats.push((s.code(), game.query(h, &s.prop())?));
    }
    Ok(Status {
        hp: game.query(h, &HPS)?,
        hp_max: game.query(h, &HPS_MAX)?,
        stats,
        armour: game.query(h, &ARMOUR)?,
        speed: game.query(h, &SPEED)?,
        depth: depth_of(game.location(h)?.z),
        levels: LEVELS,
        turn: game.turn(),
        effects: effect_list(game, h),
        attack: attack_summary(game, h)?,
        has_stone: inventory(game, h).iter().any(|&t| game.is(t, &IS_STONE)),
    })
}

/// What kind of item an inventory entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    /// Potions.
    Potion,
    /// Herbs and mushrooms.
    Ingredient,
    /// Food.
    Food,
    /// Weapons.
    Weapon,
    /// Armour.
    Armour,
    /// The Philosopher's Stone.
    Stone,
    /// Anything else.
    Other,
}

/// One line of the inventory: identical-looking items grouped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InventoryEntry {
    /// The items in this group (use the first for single-item commands).
    pub ids: Vec<ThingId>,
    /// "a murky violet potion", "2 strange herbs", "a dagger (wielded)".
    pub name: String,
    /// The kind.
    pub kind: ItemKind,
    /// Whether wielded or worn.
    pub wielded: bool,
    /// The slot name for weapons and armour.
    pub slot: Option<String>,
    /// Whether its kind is identified.
    pub identified: bool,
    /// Its glyph.
    pub glyph: Glyph,
}

fn kind_of(game: &Game, t: ThingId) -> ItemKind {
    if game.is(t, &IS_POTION) {
        ItemKind::Potion
    } else if game.is(t, &IS_INGREDIENT) {
        ItemKind::Ingredient
    } else if game.is(t, &IS_FOOD) {
        ItemKind::Food
    } else if game.is(t, &IS_WEAPON) {
        ItemKind::Weapon
    } else if game.is(t, &IS_ARMOUR) {
        ItemKind::Armour
    } else if game.is(t, &IS_STONE) {
        ItemKind::Stone
    } else {
        ItemKind::Other
    }
}

/// The hero's inventory, grouped by displayed name, in order of first arrival.
pub fn inventory_entries(game: &Game) -> Result<Vec<InventoryEntry>, Error> {
    let h = hero_id(game)?;
    let mut out: Vec<(String, InventoryEntry)> = Vec::new();
    for t in inventory(game, h) {
        let base = base_name(game, t)?;
        let wielded = game.is(t, &IS_WIELDED);
        match out
            .iter_mut()
            .find(|(b, e)| *b == base && e.wielded == wielded && !wielded)
        {
            Some((_, e)) => e.ids.push(t),
            None => out.push((
                base,
                InventoryEntry {
                    ids: vec![t],
                    name: String::new(),
                    kind: kind_of(game, t),
                    wielded,
                    slot: game.query_opt(t, &WIELD_SLOT)?.map(|s| s.to_string()),
                    identified: is_identified(game, t),
                    glyph: thing_glyph(game, t)?,
                },
            )),
        }
    }
    let mut entries = Vec::new();
    for (base, mut e) in out {
        e.name = if e.ids.len() == 1 {
            a_name(game, e.ids[0])?
        } else {
            count_name(e.ids.len(), &base)
        };
        if e.wielded {
            e.name.push_str(if e.kind == ItemKind::Weapon {
                " (wielded)"
            } else {
                " (worn)"
            });
        }
        entries.push(e);
    }
    Ok(entries)
}

/// A recipe the hero knows (its potion kind is identified).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeInfo {
    /// The potion's prototype name, for [`Command::Craft`](super::Command::Craft).
    pub potion: String,
    /// Its display name.
    pub name: String,
    /// The ingredients, e.g. ["2 bloodworts", "an inkcap"].
    pub ingredients: Vec<String>,
    /// Ingredients still missing (identified and carried count).
    pub missing: Vec<String>,
    /// Whether an alchemy workbench is within reach.
    pub at_workbench: bool,
    /// Whether crafting would succeed now.
    pub available: bool,
}

/// Every known recipe, by potion name.
pub fn known_recipes(game: &Game) -> Result<Vec<RecipeInfo>, Error> {
    let h = hero_id(game)?;
    let at = game.location(h)?;
    let bench = apparatus_near(game, at, &super::props::IS_WORKBENCH);
    let mut out = Vec::new();
    for p in game.library().prototypes() {
        if p.is_abstract() || !p.is(&IS_POTION) || !p.is(&super::props::IS_IDENTIFIED) {
            continue;
        }
        let Some(need) = recipe_of(game, p.name()) else {
            continue;
        };
        let ingredients = need
            .iter()
            .map(|(k, n)| count_name(*n, k))
            .collect::<Vec<_>>();
        let missing = gather(game, h, p.name()).err().unwrap_or_default();
        out.push(RecipeInfo {
            potion: p.name().to_string(),
            name: p.get(&NAME)?.to_string(),
            ingredients,
            at_workbench: bench,
            available: bench && missing.is_empty(),
            missing,
        });
    }
    Ok(out)
}

/// What is under a look cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookInfo {
    /// The location looked at.
    pub loc: Loc,
    /// Seen now.
    pub visible: bool,
    /// One English sentence or two.
    pub text: String,
    /// The things seen there, top first (empty unless visible).
    pub things: Vec<ThingId>,
}

/// Describe `l` as the hero knows it.
pub fn look_at(game: &Game, l: Loc) -> Result<LookInfo, Error> {
    let view = visible(game)?;
    if !view.contains(l) {
        let text = match remembered_tile(game, l) {
            Some(t) => {
                let name = game.library().tile(t)?.get(&NAME)?;
                format!("You remember {} here.", with_article(&name))
            }
            None => "You have not seen that place.".to_string(),
        };
        return Ok(LookInfo {
            loc: l,
            visible: false,
            text,
            things: Vec::new(),
        });
    }
    let mut things: Vec<ThingId> = game.things_at(l).to_vec();
    things.sort_by_key(|&t| std::cmp::Reverse(game.query(t, &Z_ORDER).unwrap_or(0)));
    let mut parts = Vec::new();
    for &t in &things {
        if game.is(t, &IS_CREATURE) {
            if super::command::is_hero(game, t) {
                parts.push("You are standing here.".to_string());
            } else {
                let hp = game.query(t, &HPS)?;
                let max = game.query(t, &HPS_MAX)?.max(1);
                let health = match i64::from(hp) * 100 / i64::from(max) {
                    100.. => "unhurt",
                    60..=99 => "wounded",
                    25..=59 => "badly wounded",
                    _ => "nearly dead",
                };
                parts.push(format!("{} ({health}).", capitalise(&a_name(game, t)?)));
            }
        } else {
            parts.push(format!(
                "{}.",
                super::command::describe_thing(game, t)?.trim_end_matches('.')
            ));
        }
    }
    let tile = game
        .tile_def(l)?
        .get(&NAME)
        .unwrap_or_else(|_| Arc::from("nothing"));
    parts.push(format!("{}.", capitalise(&with_article(&tile))));
    Ok(LookInfo {
        loc: l,
        visible: true,
        text: parts.join(" "),
        things,
    })
}

fn with_article(name: &str) -> String {
    if name.ends_with("moss") || name.ends_with("rock") || name.ends_with("magma") {
        name.to_string()
    } else {
        format!("{} {name}", super::text::article(name))
    }
}

/// The last `n` messages, oldest first.
#[must_use]
pub fn recent_messages(game: &Game, n: usize) -> Vec<String> {
    let mut last: Vec<String> = game
        .messages()
        .rev()
        .take(n)
        .map(|m| m.text.to_string())
        .collect();
    last.reverse();
    last
}

/// Every remembered or visible cell of the hero's level, for a full-map screen.
pub fn level_cells(game: &Game) -> Result<Vec<(Loc, CellView)>, Error> {
    let view = visible(game)?;
    let z = game.location(hero_id(game)?)?.z;
    let mut out = Vec::new();
    for l in level_box(z).iter() {
        if let Some(c) = cell_view(game, &view, l)? {
            out.push((l, c));
        }
    }
    Ok(out)
}
