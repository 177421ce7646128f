//! What a user interface needs, as plain functions returning plain structs: the hero, what
//! is seen and remembered, glyphs and colours, light, status, inventory, recipes, look, log.
//! The screens of `ui/` ask every question of a cell or a thing through here too (doors,
//! stairs, apparatus, hostility), so they never read the game's properties or rules.
//! Nothing here changes the game.

use std::sync::Arc;

use alembic::{
    Error, Game, Loc, LocBox, Rgb, ThingId, fov::VisibleSet, light::LightMap, light::LightSource,
};
#[cfg(feature = "board")]
use alembic_ui::Tile;
use serde::Serialize;

use super::hooks::Behaviour;
use super::kinds::{Fate, Slot, Stat};
use super::props::{
    ARMOUR, BG, DEEPEST, FG, GAME_OVER, GLYPH, HPS, HPS_MAX, INV_LETTER, IS_ARMOUR, IS_BLOCKING,
    IS_CREATURE, IS_DOOR, IS_EXIT, IS_FLYING, IS_FOOD, IS_HERO, IS_HOSTILE, IS_INGREDIENT, IS_LAB,
    IS_OPEN, IS_POTION, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE, IS_WEAPON, IS_WIELDED,
    IS_WORKBENCH, KILLS, LIGHT_COLOUR, LIGHT_RADIUS, NAME, OUTCOME, SPEED, WIELD_SLOT, WIZARD_MODE,
    Z_ORDER,
};
#[cfg(feature = "board")]
use super::props::{FAMILY, IS_WATER};
use super::rules::effects::effect_list;
use super::rules::items::{
    PACK_LETTERS, apparatus_near, assign_letters, gather, inventory, pack_groups, recipe_of,
};
use super::rules::light::{Sight, hero_makes_out, lit, torch_radius};
use super::rules::memory::remembered_tile;
use super::rules::stack::number;
use super::rules::world::{
    LEVELS, STONE_LEVEL, blocker_at, depth_of, hero, hero_view, scenery_at, tile_blocks,
};
use super::text::{base_name, count_name, is_identified};

pub use super::rules::world::hero as hero_id;
pub use super::text::list_items;

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
pub fn tile_glyph(game: &Game, tile: alembic::library::TileId) -> Result<Glyph, Error> {
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
    game.things()
        .at(l)
        .iter()
        .copied()
        .max_by_key(|&t| game.query(t, &Z_ORDER).unwrap_or(0))
}

/// Whether the creature at `l` (a cell in the hero's view) is hidden from the hero by
/// darkness: it stands beyond the torch on an unlit cell ([`Sight::hides`]).
#[must_use]
pub fn hidden_in_dark(game: &Game, l: Loc) -> bool {
    Sight::of(game).is_ok_and(|s| s.hides(game, &TileTable::new(game), l))
}

/// Whether the hero makes out creature `t` now: it stands in the hero's field of view
/// `view` and is not hidden by darkness ([`hidden_in_dark`]). What screens, travel and bots
/// call "a monster in view".
#[must_use]
pub fn makes_out(game: &Game, view: &VisibleSet, t: ThingId) -> bool {
    hero_makes_out(game, t, |l| view.contains(l))
}

/// Whether the hero stands in light other than their own torch (`rules::light`): monsters
/// notice a lit hero from their whole aggro range, a hero in darkness only nearer.
#[must_use]
pub fn hero_in_light(game: &Game) -> bool {
    hero_id(game)
        .and_then(|h| game.things().location(h))
        .is_ok_and(|at| lit(game, &TileTable::new(game), at))
}

/// The thing drawn on top at `l` as the hero makes it out, for a cell in view: the
/// [`top_thing`], unless it is a creature hidden by darkness ([`hidden_in_dark`]), which is
/// passed over for what lies under it.
#[must_use]
pub fn seen_top_thing(game: &Game, l: Loc) -> Option<ThingId> {
    let top = top_thing(game, l)?;
    if !game.is(top, &IS_CREATURE) || game.is(top, &IS_HERO) || !hidden_in_dark(game, l) {
        return Some(top);
    }
    game.things()
        .at(l)
        .iter()
        .copied()
        .filter(|&t| !game.is(t, &IS_CREATURE))
        .max_by_key(|&t| game.query(t, &Z_ORDER).unwrap_or(0))
}

/// The families drawn with a picture of their own, as Brogue CE draws monsters. A family is
/// the data's (a mod may add one, drawn as its letter), so it stays a name here; a test finds
/// each of these in the shipped data, so a misspelt family fails `cargo test` rather than
/// quietly drawing letters.
#[cfg(feature = "board")]
const FAMILY_TILES: [(&str, Tile); 8] = [
    ("bat", Tile::Bat),
    ("bear", Tile::Bear),
    ("rat", Tile::Rat),
    ("snake", Tile::Snake),
    ("undead", Tile::Undead),
    ("golem", Tile::Golem),
    ("dragon", Tile::Dragon),
    ("goblinoid", Tile::Goblin),
];

/// A creature's picture: its family's (orcs and trolls, goblinoid or not, by their letter);
/// a creature without one keeps its letter on a token.
#[cfg(feature = "board")]
fn creature_tile(game: &Game, t: ThingId) -> Tile {
    let glyph = game.query(t, &GLYPH).unwrap_or('?');
    picture(game.query(t, &FAMILY).ok().as_deref(), glyph)
}

/// The picture of a creature of `family` drawn as `glyph`.
#[cfg(feature = "board")]
fn picture(family: Option<&str>, glyph: char) -> Tile {
    let pictured = FAMILY_TILES
        .iter()
        .find(|(f, _)| family == Some(*f))
        .map(|&(_, tile)| tile);
    match (pictured, glyph) {
        (Some(Tile::Goblin) | None, 'o') => Tile::Orc,
        (Some(Tile::Goblin) | None, 'T') => Tile::Troll,
        (Some(tile), _) => tile,
        (None, _) => Tile::Creature(glyph),
    }
}

/// How to draw `l`, given the hero's current view. `None`: never seen. For many cells of
/// one game, [`CellViewer`] looks the memory layers up once.
pub fn cell_view(game: &Game, view: &VisibleSet, l: Loc) -> Result<Option<CellView>, Error> {
    CellViewer::new(game, view).at(l)
}

/// [`cell_view`] for many cells of one game and view: the hero's memory layers (tiles and
/// scenery seen) are looked up once, not by name for every cell as [`cell_view`] alone
/// does (the map drawn each frame asks about every cell of its viewport).
#[derive(Debug)]
pub struct CellViewer<'a> {
    game: &'a Game,
    view: &'a VisibleSet,
    tiles: alembic::layer::LayerGrid<Option<alembic::library::TileId>>,
    looks: alembic::layer::LayerGrid<Option<(char, Rgb)>>,
}

impl<'a> CellViewer<'a> {
    /// A viewer of `game` through the hero's `view`. Θ(log layers).
    #[must_use]
    pub fn new(game: &'a Game, view: &'a VisibleSet) -> Self {
        CellViewer {
            game,
            view,
            tiles: game.layers().get(&super::rules::memory::SEEN_TILE),
            looks: game.layers().get(&super::rules::memory::SEEN_LOOK),
        }
    }

    /// How to draw `l` ([`cell_view`]).
    ///
    /// # Errors
    /// An engine error reading the game (a bug).
    pub fn at(&self, l: Loc) -> Result<Option<CellView>, Error> {
        let (game, view) = (self.game, self.view);
        if view.contains(l) {
            let tile = tile_glyph(game, game.tile(l))?;
            let glyph = match seen_top_thing(game, l) {
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
        let Some(tile) = self.tiles.get(l) else {
            return Ok(None);
        };
        let tg = tile_glyph(game, tile)?;
        // Scenery as it looked when last seen (a door seen closed stays closed in memory).
        let glyph = match self.looks.get(l) {
            Some((ch, fg)) => Glyph { ch, fg, bg: tg.bg },
            None => tg,
        };
        Ok(Some(CellView {
            glyph,
            visible: false,
            remembered: true,
        }))
    }
}

/// The graphical tile for `l`, for frontends that draw [`Tile`]s: creatures by family,
/// items by kind, scenery, apparatus and terrain each have a picture (look with `x` to tell
/// kinds of one picture apart); `None` where the letter stays (special terrain without a
/// picture) and for never-seen cells.
#[cfg(feature = "board")]
pub fn cell_tile(game: &Game, view: &VisibleSet, l: Loc) -> Result<Option<Tile>, Error> {
    use super::rules::memory::remembered_look;
    let thing_tile = |t: ThingId, open: bool| -> Option<Tile> {
        if game.is(t, &IS_HERO) {
            Some(Tile::Hero)
        } else if game.is(t, &IS_CREATURE) {
            Some(creature_tile(game, t))
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
            // Items and scenery by their letter, which names their kind in this game.
            Some(match game.query(t, &GLYPH).unwrap_or('?') {
                '%' if game.is(t, &IS_INGREDIENT) => Tile::Herb,
                '%' => Tile::Food,
                ',' => Tile::Mushroom,
                '*' => Tile::Gem,
                ')' => Tile::Weapon,
                '[' => Tile::Armour,
                '"' => Tile::Amulet,
                '{' => Tile::Fountain,
                '|' => Tile::Gravestone,
                'Y' => Tile::Candelabra,
                '^' => Tile::Rune,
                '8' => Tile::Statue,
                '=' => Tile::Workbench,
                '(' => Tile::Lab,
                '#' => Tile::Gate,
                other => Tile::Glyph(other),
            })
        }
    };
    let terrain = |tile: alembic::library::TileId| -> Result<Option<Tile>, Error> {
        let t = game.library().tile(tile)?;
        let ch = t.get(&GLYPH).unwrap_or(' ');
        Ok(match ch {
            '~' if t.get(&IS_WATER).unwrap_or(false) => Some(Tile::Water),
            '≈' if t.get(&IS_WATER).unwrap_or(false) => Some(Tile::Water),
            '≈' => Some(Tile::Lava),
            '#' => Some(Tile::Wall),
            ' ' => Some(Tile::Rock),
            '.' => Some(Tile::Floor),
            '"' => Some(Tile::Moss),
            'O' => Some(Tile::Pillar),
            _ => None,
        })
    };
    if view.contains(l) {
        return match seen_top_thing(game, l) {
            Some(t) => Ok(thing_tile(t, game.is(t, &IS_OPEN))),
            None => terrain(game.tile(l)),
        };
    }
    let Some(tile) = remembered_tile(game, l) else {
        return Ok(None);
    };
    match remembered_look(game, l) {
        // Scenery as last seen: a door remembered open stays open.
        // Creatures are not remembered where they were seen.
        Some((ch, _)) => Ok(remembered_thing(game, l)
            .filter(|&t| !game.is(t, &IS_CREATURE) && !game.is(t, &IS_HERO))
            .and_then(|t| thing_tile(t, ch == '\''))),
        None => terrain(tile),
    }
}

/// The light on the hero's level: a warm torch at the hero (of the hero's light radius,
/// [`torch_radius`]) with the seed game's falloff, plus every light source on the level
/// (candelabra), each occluded like sight. `get(loc)` gives each cell's light colour;
/// multiply glyph colours by it with [`Rgb::modulate`]. What the rules count as lit
/// ([`crate::rules::light`]) is the same lights but the hero's torch.
pub fn light_map(game: &Game) -> Result<LightMap, Error> {
    let at = game.things().location(hero_id(game)?)?;
    lights_over(game, level_box(at.z))
}

/// [`light_map`] where the hero sees: over the smallest box holding `seen` (the hero's
/// view, [`visible`]), from the lights whose reach meets that box. At every cell of `seen`
/// it is [`light_map`]'s colour, bit for bit (a light left out adds nothing there, and the
/// rest add in the same order); elsewhere it is not. What a map drawn every frame needs,
/// at a fraction of the cost on a level with many lights.
pub fn seen_light_map(game: &Game, seen: &VisibleSet) -> Result<LightMap, Error> {
    let at = game.things().location(hero_id(game)?)?;
    let mut cells = seen.iter().filter(|l| l.z == at.z);
    let seen_box = match cells.next() {
        Some(first) => cells.fold(
            LocBox::new(
                first,
                Loc::new(
                    first.x.saturating_add(1),
                    first.y.saturating_add(1),
                    at.z.saturating_add(1),
                ),
            ),
            |b, l| {
                LocBox::new(
                    Loc::new(b.min.x.min(l.x), b.min.y.min(l.y), at.z),
                    Loc::new(
                        b.max.x.max(l.x.saturating_add(1)),
                        b.max.y.max(l.y.saturating_add(1)),
                        at.z.saturating_add(1),
                    ),
                )
            },
        ),
        None => LocBox::new(at, at),
    };
    lights_over(game, level_box(at.z).intersect(&seen_box))
}

/// The hero's torch and every light on the level whose square of reach meets `area`, added
/// up over `area` (on the hero's level) in the order of the level's cells.
fn lights_over(game: &Game, area: LocBox) -> Result<LightMap, Error> {
    let h = hero_id(game)?;
    let at = game.things().location(h)?;
    let level = level_box(at.z);
    let reaches = |l: Loc, r: u32| {
        let r = i32::try_from(r).unwrap_or(i32::MAX);
        l.x.saturating_add(r) >= area.min.x
            && l.x.saturating_sub(r) < area.max.x
            && l.y.saturating_add(r) >= area.min.y
            && l.y.saturating_sub(r) < area.max.y
    };
    let mut lights = vec![LightSource::new(
        at,
        torch_radius(game),
        Rgb::new(255, 240, 200),
    )];
    for (l, ids) in game.things().on_level(at.z) {
        if !level.contains(l) {
            continue;
        }
        for &t in ids {
            if t == h {
                continue;
            }
            let r = game.query(t, &LIGHT_RADIUS).unwrap_or(0);
            if r > 0 && reaches(l, r.unsigned_abs()) {
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
        table.transparency(game),
    ))
}

/// One line of the hero's status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Hit points, never below 0 (a blow past death shows 0, as DCSS does).
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
    /// The depth the Stone lies on (10), in the same count as `depth`.
    pub stone_depth: i32,
    /// The hero's level (1 at the start).
    pub level: i32,
    /// The hero's experience.
    pub xp: i64,
    /// The experience the next level needs in all (`None` at the highest level).
    pub xp_next: Option<i64>,
}

/// The hero's status.
pub fn status(game: &Game) -> Result<Status, Error> {
    let h = hero_id(game)?;
    let mut stats = Vec::new();
    for s in Stat::ALL {
        stats.push((s.code(), game.query(h, &s.prop())?));
    }
    Ok(Status {
        hp: game.query(h, &HPS)?.max(0),
        hp_max: game.query(h, &HPS_MAX)?,
        stats,
        armour: game.query(h, &ARMOUR)?,
        speed: game.query(h, &SPEED)?,
        depth: depth_of(game.things().location(h)?.z),
        levels: LEVELS,
        turn: game.turn(),
        effects: effect_list(game, h),
        attack: attack_summary(game, h)?,
        has_stone: inventory(game, h).iter().any(|&t| game.is(t, &IS_STONE)),
        stone_depth: depth_of(STONE_LEVEL),
        level: super::rules::progress::level(game),
        xp: super::rules::progress::experience(game),
        xp_next: {
            let l = super::rules::progress::level(game);
            (l < super::rules::progress::MAX_LEVEL).then(|| super::rules::progress::xp_for(l + 1))
        },
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
    /// Its pack letter, the same in every list until it leaves the pack (`None` only when
    /// all 52 letters are taken).
    pub letter: Option<char>,
    /// "a murky violet potion", "2 strange herbs", "a dagger (wielded)".
    pub name: String,
    /// The kind.
    pub kind: ItemKind,
    /// Whether wielded or worn.
    pub wielded: bool,
    /// The slot of weapons and armour.
    pub slot: Option<Slot>,
    /// Whether its kind is identified.
    pub identified: bool,
    /// Its glyph.
    pub glyph: Glyph,
    /// How many items the entry stands for (a stack of 3 herbs: 3).
    pub count: i32,
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

/// The hero's inventory, grouped by displayed name, in the order of the pack letters
/// (items without one last).
pub fn inventory_entries(game: &Game) -> Result<Vec<InventoryEntry>, Error> {
    let h = hero_id(game)?;
    // The letters as the rules give them (a game straight from an old save, or one built
    // by hand, may not have them yet).
    let mut g = game.clone();
    assign_letters(&mut g, h)?;
    let mut entries = Vec::new();
    for ids in pack_groups(&g, h)? {
        let Some(&first) = ids.first() else {
            continue;
        };
        let wielded = g.is(first, &IS_WIELDED);
        let kind = kind_of(&g, first);
        let count: i32 = ids.iter().map(|&t| number(&g, t)).sum();
        let mut name = if ids.len() == 1 {
            a_name(&g, first)?
        } else {
            count_name(usize::try_from(count).unwrap_or(1), &base_name(&g, first)?)
        };
        if wielded {
            name.push_str(if kind == ItemKind::Weapon {
                " (wielded)"
            } else {
                " (worn)"
            });
        }
        entries.push(InventoryEntry {
            letter: g.query_opt(first, &INV_LETTER)?,
            name,
            kind,
            wielded,
            slot: g.query_opt(first, &WIELD_SLOT)?,
            identified: is_identified(&g, first),
            glyph: thing_glyph(&g, first)?,
            count,
            ids,
        });
    }
    let order = |e: &InventoryEntry| {
        e.letter
            .and_then(|c| PACK_LETTERS.find(c))
            .unwrap_or(usize::MAX)
    };
    entries.sort_by_key(order);
    Ok(entries)
}

/// A recipe the hero knows (its potion kind is identified).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeInfo {
    /// The recipe, for [`Command::Craft`](super::Command::Craft).
    pub potion: RecipeId,
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

/// The names of the potions the hero has identified (by drinking, tasting or analysis), in
/// the library's order.
#[must_use]
pub fn identified_potions(game: &Game) -> Vec<String> {
    game.library()
        .prototypes()
        .filter(|p| !p.is_abstract() && p.is(&IS_POTION) && p.is(&super::props::IS_IDENTIFIED))
        .filter_map(|p| p.get(&NAME).ok().map(|n| n.to_string()))
        .collect()
}

/// The hero's level as the hero knows it, one string per row, letters as the map draws
/// them (`' '` for what was never seen); rows and columns never seen are left out.
///
/// # Errors
/// An engine error reading the game (a bug).
pub fn level_map_text(game: &Game) -> Result<Vec<String>, Error> {
    let at = game.things().location(hero_id(game)?)?;
    let view = visible(game)?;
    let area = level_box(at.z);
    let mut rows: Vec<Vec<Option<char>>> = Vec::new();
    for y in area.min.y..area.max.y {
        let mut row = Vec::new();
        for x in area.min.x..area.max.x {
            row.push(cell_view(game, &view, Loc::new(x, y, at.z))?.map(|c| c.glyph.ch));
        }
        rows.push(row);
    }
    let used = |r: &Vec<Option<char>>| r.iter().any(Option::is_some);
    let first_col = rows
        .iter()
        .filter_map(|r| r.iter().position(Option::is_some))
        .min()
        .unwrap_or(0);
    let last_col = rows
        .iter()
        .filter_map(|r| r.iter().rposition(Option::is_some))
        .max()
        .unwrap_or(0);
    Ok(rows
        .iter()
        .skip_while(|r| !used(r))
        .filter(|r| used(r))
        .map(|r| {
            r.iter()
                .skip(first_col)
                .take(last_col + 1 - first_col.min(last_col + 1))
                .map(|c| c.unwrap_or(' '))
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect())
}

/// Every known recipe, by potion name.
pub fn known_recipes(game: &Game) -> Result<Vec<RecipeInfo>, Error> {
    let h = hero_id(game)?;
    let at = game.things().location(h)?;
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
            potion: RecipeId::new(p.name()),
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
        let text = match (remembered_tile(game, l), remembered_thing(game, l)) {
            (Some(_), Some(thing)) => {
                format!("You remember {} here.", a_name(game, thing)?)
            }
            (Some(t), None) => {
                let name = game.library().tile(t)?.get(&NAME)?;
                format!("You remember {} here.", with_article(&name))
            }
            (None, _) => "You have not seen that place.".to_string(),
        };
        return Ok(LookInfo {
            loc: l,
            visible: false,
            text,
            things: Vec::new(),
        });
    }
    let mut things: Vec<ThingId> = game.things().at(l).to_vec();
    // A creature hidden by darkness is not seen: it is not described.
    if hidden_in_dark(game, l) {
        things.retain(|&t| !game.is(t, &IS_CREATURE));
    }
    things.sort_by_key(|&t| std::cmp::Reverse(game.query(t, &Z_ORDER).unwrap_or(0)));
    let table = TileTable::new(game);
    let lit_here = lit(game, &table, l);
    let mut parts = Vec::new();
    for &t in &things {
        if game.is(t, &IS_CREATURE) {
            if is_hero(game, t) {
                parts.push("You are standing here.".to_string());
                parts.push(
                    if lit_here {
                        "You stand in the light: monsters notice you from their whole range."
                    } else {
                        "You stand in darkness: monsters that hunt by sight notice you only nearer."
                    }
                    .to_string(),
                );
            } else {
                let health = health_band(game.query(t, &HPS)?, game.query(t, &HPS_MAX)?);
                parts.push(format!("{} ({health}).", capitalise(&a_name(game, t)?)));
                if game.is(t, &super::props::PLANS) {
                    parts.push("It plans ahead.".to_string());
                } else if carries_potion(game, t) {
                    parts.push("It carries a potion, and plans ahead while it does.".to_string());
                }
                parts.push(
                    if lit_here {
                        "It stands in the light."
                    } else {
                        "It stands in darkness, seen only by your torch."
                    }
                    .to_string(),
                );
            }
        } else {
            parts.push(format!(
                "{}.",
                super::text::describe_thing(game, t)?.trim_end_matches('.')
            ));
        }
    }
    let tile = game
        .tile_def(l)?
        .get(&NAME)
        .unwrap_or_else(|_| Arc::from("nothing"));
    parts.push(format!("{}.", capitalise(&with_article(&tile))));
    if !things.iter().any(|&t| game.is(t, &IS_CREATURE)) {
        let beyond_torch = Sight::of(game).is_ok_and(|s| {
            let r = u64::from(s.torch);
            s.hero_at.euclidean_sq(l) > r * r + r
        });
        if lit_here {
            parts.push("It is lit.".to_string());
        } else if beyond_torch {
            parts.push("It is dark: a monster there would be hidden from you.".to_string());
        }
    }
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
#[allow(deprecated)] // the message log, deprecated: English is not state
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

// ---------------------------------------------------------------------------------------------
// Descriptions

/// A full description of one thing, as the look cursor and the item menus show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// "a goblin", "a dagger (wielded)".
    pub title: String,
    /// Sentences, one a line: flavour first, then the numbers.
    pub lines: Vec<String>,
}

/// The armour a worn item adds to its wearer (the sum of its armour modifiers).
fn armour_given(game: &Game, item: ThingId) -> Result<i64, Error> {
    Ok(game
        .things()
        .get(item)?
        .modifiers()
        .iter()
        .filter(|m| &m.key == ARMOUR.key())
        .map(|m| match m.op {
            alembic::props::ModOp::Add(n) => n,
            _ => 0,
        })
        .sum())
}

/// How hurt a creature looks: "unhurt", "lightly wounded", "wounded", "badly wounded",
/// "nearly dead".
#[must_use]
pub(crate) fn health_band(hp: i32, max: i32) -> &'static str {
    match i64::from(hp) * 100 / i64::from(max.max(1)) {
        100.. => "unhurt",
        80..=99 => "lightly wounded",
        50..=79 => "wounded",
        25..=49 => "badly wounded",
        _ => "nearly dead",
    }
}

/// "slow (70)", "normal (100)", "fast (150)".
#[must_use]
pub(crate) fn speed_word(speed: i32) -> String {
    let w = match speed {
        ..=89 => "slow",
        90..=110 => "normal",
        111..=139 => "fast",
        _ => "very fast",
    };
    format!("{w} ({speed})")
}

/// Damage as dice: "1d6" (an attack rolls 1 to its largest damage).
#[must_use]
pub(crate) fn dice(max: i32) -> String {
    format!("1d{}", max.max(1))
}

/// The hero's properties an item can change, with their English names.
fn compared_stats() -> Vec<(&'static str, alembic::Prop<i32>)> {
    use super::props::{
        BLOCK, RES_ACID, RES_FIRE, RES_ICE, RES_IMPACT, RES_LIGHTNING, RES_NORMAL, RES_POISON,
        RES_WATER,
    };
    let mut v: Vec<(&'static str, alembic::Prop<i32>)> =
        Stat::ALL.iter().map(|s| (s.word(), s.prop())).collect();
    v.extend([
        ("armour", ARMOUR),
        ("block", BLOCK),
        ("speed", SPEED),
        ("maximum HP", HPS_MAX),
        ("fire resistance", RES_FIRE),
        ("ice resistance", RES_ICE),
        ("poison resistance", RES_POISON),
        ("resistance to cuts", RES_NORMAL),
        ("resistance to blows", RES_IMPACT),
        ("water resistance", RES_WATER),
        ("lightning resistance", RES_LIGHTNING),
        ("acid resistance", RES_ACID),
    ]);
    v
}

/// The hero's attack: (largest damage, damage type).
fn attack_of(game: &Game, c: ThingId) -> Result<(i32, String), Error> {
    Ok((
        game.query(c, &super::props::ATT_DAMAGE)?,
        game.query(c, &super::props::ATT_TYPE)?.to_string(),
    ))
}

/// The game as it would be with the hero using `item` (carried or not) instead of whatever
/// fills its slot now. Nothing of it is kept: it only answers "what would change".
fn with_item_used(game: &Game, h: ThingId, item: ThingId) -> Result<Game, Error> {
    use super::props::IS_WIELDED;
    let mut g = game.clone();
    if !matches!(g.things().place(item)?, alembic::Place::In(x) if x == h) {
        g.move_thing_mut(item, alembic::Place::In(h))?;
    }
    let slot = g.query_opt(item, &WIELD_SLOT)?;
    for other in inventory(&g, h) {
        if other != item && g.is(other, &IS_WIELDED) && g.query_opt(other, &WIELD_SLOT)? == slot {
            g.set_mut(other, &IS_WIELDED, false)?;
        }
    }
    g.set_mut(item, &IS_WIELDED, true)?;
    Ok(g)
}

/// What the hero uses in `slot` now (not `except`).
fn in_slot(game: &Game, h: ThingId, slot: Slot, except: ThingId) -> Option<ThingId> {
    inventory(game, h).into_iter().find(|&t| {
        t != except
            && game.is(t, &super::props::IS_WIELDED)
            && game.query_opt(t, &WIELD_SLOT).ok().flatten() == Some(slot)
    })
}

/// Describe `t` as the hero knows it: a creature's level, health, speed, attack and whether
/// it has noticed the hero; an item's numbers (damage dice, armour, what it does once
/// identified) and what it would change compared with what the hero uses now.
pub fn describe(game: &Game, t: ThingId) -> Result<Description, Error> {
    let mut title = a_name(game, t)?;
    let mut lines = Vec::new();
    if let Some(d) = game.query_opt(t, &super::props::DESCRIPTION)? {
        lines.push(d.to_string());
    }
    if game.is(t, &IS_CREATURE) {
        describe_creature(game, t, &mut lines)?;
    } else if game.is(t, &IS_WEAPON) || game.is(t, &IS_ARMOUR) {
        if game.is(t, &IS_WIELDED) {
            title.push_str(if game.is(t, &IS_WEAPON) {
                " (wielded)"
            } else {
                " (worn)"
            });
        }
        describe_gear(game, t, &mut lines)?;
    } else if game.is(t, &IS_POTION) || game.is(t, &IS_INGREDIENT) || game.is(t, &IS_FOOD) {
        describe_consumable(game, t, &mut lines)?;
    } else if game.is(t, &IS_STONE) {
        lines.push("Carry it out of the dungeon, by the exit on depth 1, to win.".to_owned());
    } else if lines.is_empty() {
        lines.push(format!("{}.", capitalise(&title)));
    }
    Ok(Description { title, lines })
}

fn describe_creature(game: &Game, t: ThingId, lines: &mut Vec<String>) -> Result<(), Error> {
    use super::props::{
        ATT_VERB, HIT_EFFECT, HIT_EFFECT_CHANCE, IS_FLYING, IS_HOSTILE, IS_UNDEAD, LAST_SEEN,
    };
    if is_hero(game, t) {
        lines.push("That is you.".to_owned());
        return Ok(());
    }
    let hp = game.query(t, &HPS)?;
    let max = game.query(t, &HPS_MAX)?;
    lines.push(format!(
        "Level {}. It is {}.",
        game.query(t, &alembic::library::LEVEL)?,
        health_band(hp, max)
    ));
    lines.push(format!("Speed: {}.", speed_word(game.query(t, &SPEED)?)));
    let (dmg, dtype) = attack_of(game, t)?;
    let verb = game.query(t, &ATT_VERB)?;
    let mut attack = format!(
        "Attack: it {} for {} {dtype} damage",
        super::text::third_person(&verb),
        dice(dmg)
    );
    if let Some(e) = game.query_opt(t, &HIT_EFFECT)? {
        let p = (game.query(t, &HIT_EFFECT_CHANCE)? * 100.0).round();
        attack.push_str(&format!(", and may leave you {e} ({p}%)"));
    }
    attack.push('.');
    lines.push(attack);
    let armour = game.query(t, &ARMOUR)?;
    if armour > 0 {
        lines.push(format!("Armour: {armour}."));
    }
    let mut res = Vec::new();
    for d in super::kinds::DamageType::ALL {
        let r = game.query(t, &d.resistance())?;
        if r >= 100 {
            res.push(format!("immune to {}", d.name()));
        } else if r > 0 {
            res.push(format!("resists {} ({r}%)", d.name()));
        } else if r < 0 {
            res.push(format!("vulnerable to {} ({}%)", d.name(), -r));
        }
    }
    if game.is(t, &IS_UNDEAD) {
        res.push("undead".to_owned());
    }
    if game.is(t, &IS_FLYING) {
        res.push("flies".to_owned());
    }
    if !res.is_empty() {
        lines.push(capitalise(&format!("{}.", res.join(", "))));
    }
    if game.is(t, &super::props::PLANS) {
        lines.push("It plans ahead: it weighs what you may do before it moves.".to_owned());
    } else if carries_potion(game, t) {
        lines.push(
            "It carries a potion, and while it does it plans ahead: it weighs what you may do \
             before it moves, and may drink or throw the potion."
                .to_owned(),
        );
    }
    lines.push(
        if !game.is(t, &IS_HOSTILE) {
            "It is not hostile."
        } else if game.query_opt(t, &LAST_SEEN)?.is_some() {
            "It has noticed you."
        } else {
            "It has not noticed you."
        }
        .to_owned(),
    );
    Ok(())
}

fn describe_gear(game: &Game, t: ThingId, lines: &mut Vec<String>) -> Result<(), Error> {
    use super::props::{HIT_EFFECT, HIT_EFFECT_CHANCE};
    let h = hero_id(game)?;
    let slot = game.query_opt(t, &WIELD_SLOT)?.unwrap_or(Slot::Hand);
    let current = in_slot(game, h, slot, t);
    let after = with_item_used(game, h, t)?;
    // What the hero has now, without this item in use.
    let before = if game.is(t, &super::props::IS_WIELDED) {
        let mut g = game.clone();
        g.set_mut(t, &super::props::IS_WIELDED, false)?;
        g
    } else {
        game.clone()
    };
    if game.is(t, &IS_WEAPON) {
        let (dmg, dtype) = attack_of(&after, h)?;
        let (now, now_type) = attack_of(&before, h)?;
        let yours = match current {
            Some(c) => format!("you wield {}: {} {now_type}", a_name(game, c)?, dice(now)),
            None if game.is(t, &super::props::IS_WIELDED) => {
                format!("bare-handed: {} {now_type}", dice(now))
            }
            None => format!("you fight bare-handed: {} {now_type}", dice(now)),
        };
        lines.push(format!("Damage {} {dtype} ({yours}).", dice(dmg)));
        if let Some(e) = after.query_opt(h, &HIT_EFFECT)?
            && before.query_opt(h, &HIT_EFFECT)?.as_deref() != Some(&*e)
        {
            let p = (after.query(h, &HIT_EFFECT_CHANCE)? * 100.0).round();
            lines.push(format!("Its hits may leave the target {e} ({p}%)."));
        }
    } else {
        let own = armour_given(game, t)?;
        let yours = match current {
            Some(c) => {
                let theirs = armour_given(game, c)?;
                format!("you wear {}: armour {theirs}", a_name(game, c)?)
            }
            None => format!("you wear nothing on your {slot}"),
        };
        lines.push(format!("Armour {own}, worn on the {slot} ({yours})."));
    }
    let mut changes = Vec::new();
    for (word, p) in compared_stats() {
        let (b, a) = (before.query(h, &p)?, after.query(h, &p)?);
        if a != b {
            changes.push(format!("{word} {b} → {a}"));
        }
    }
    let verb = if game.is(t, &IS_WEAPON) {
        "Wielding"
    } else {
        "Wearing"
    };
    let how = if game.is(t, &super::props::IS_WIELDED) {
        format!("{verb} it gives you")
    } else {
        format!("{verb} it would change")
    };
    if changes.is_empty() {
        if !game.is(t, &IS_WEAPON) || current.is_none() {
            lines.push(format!("{how}: nothing else."));
        }
    } else {
        lines.push(format!("{how}: {}.", changes.join(", ")));
    }
    Ok(())
}

/// What a consumable does, as far as the hero knows.
fn describe_consumable(game: &Game, t: ThingId, lines: &mut Vec<String>) -> Result<(), Error> {
    use super::props::{GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT, HEAL_AMOUNT};
    if !is_identified(game, t) {
        lines.push(if game.is(t, &IS_POTION) {
            "You do not know what this potion does. Drink it, throw it, or analyse it beside \
             an analysis lab to find out."
                .to_owned()
        } else {
            "You do not know what this is. Eat it or analyse it beside an analysis lab to \
             find out."
                .to_owned()
        });
        return Ok(());
    }
    let behaviour = game
        .query_opt(t, &alembic::hook::ON_CONSUME)?
        .and_then(|h| Behaviour::named(h.name()));
    let effect = |game: &Game| -> Result<String, Error> {
        let e = game.query(t, &GIVES_EFFECT)?;
        let turns = game
            .library()
            .get(&e)
            .ok()
            .and_then(|p| p.get(&super::props::DURATION).ok())
            .unwrap_or(0)
            / 100;
        Ok(if turns > 0 {
            format!("It leaves the drinker {e} for {turns} turns.")
        } else {
            format!("It leaves the drinker {e}.")
        })
    };
    let what = match behaviour {
        Some(Behaviour::PotionHeal) => format!("It heals {} HP.", game.query(t, &HEAL_AMOUNT)?),
        Some(Behaviour::PotionEffect) => effect(game)?,
        Some(Behaviour::PotionGain) => {
            let s = game.query(t, &GAIN_STAT)?;
            format!(
                "It raises the drinker's {} by {} for good.",
                s.word(),
                game.query(t, &GAIN_AMOUNT)?
            )
        }
        Some(Behaviour::PotionHealthGain) => {
            "It raises the drinker's maximum HP for good.".to_owned()
        }
        Some(Behaviour::PotionSpeedGain) => "It makes the drinker faster for good.".to_owned(),
        Some(Behaviour::PotionCurePoison) => "It cures poison.".to_owned(),
        Some(Behaviour::PotionCleansing) => "It removes every harmful effect.".to_owned(),
        Some(Behaviour::PotionRestoration) => "It restores drained statistics.".to_owned(),
        Some(Behaviour::PotionChaos) => "Something random happens to the drinker.".to_owned(),
        Some(Behaviour::EatFood) => {
            format!("Eating it restores {} HP.", game.query(t, &HEAL_AMOUNT)?)
        }
        Some(Behaviour::EatMagicMushroom) => "Eating it has a random effect.".to_owned(),
        Some(Behaviour::EatIngredient) => {
            "An alchemical ingredient: eating it does nothing.".to_owned()
        }
        // Not consumed: what these do is said elsewhere (or not at all).
        Some(Behaviour::UseFountain | Behaviour::DeathTransform) | None => String::new(),
    };
    if !what.is_empty() {
        lines.push(what);
    }
    if game.is(t, &IS_POTION) {
        lines.push("Thrown, it shatters over whoever it hits.".to_owned());
    }
    if game.is(t, &IS_INGREDIENT)
        && let Some(proto) = game.things().get(t)?.proto()
    {
        let mut uses = Vec::new();
        for p in game.library().prototypes() {
            if p.is_abstract() || !p.is(&IS_POTION) || !p.is(&super::props::IS_IDENTIFIED) {
                continue;
            }
            if recipe_of(game, p.name()).is_some_and(|r| r.contains_key(proto)) {
                uses.push(p.get(&NAME)?.to_string());
            }
        }
        lines.push(if uses.is_empty() {
            "You know no recipe that uses it yet.".to_owned()
        } else {
            format!("You know it goes into: {}.", uses.join(", "))
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Map legend

/// One glyph of the map legend and what it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendEntry {
    /// The glyph (`' '` is solid rock).
    pub glyph: char,
    /// The colour of its first kind.
    pub fg: Rgb,
    /// What it stands for: "floor", "cave floor"; a kind of item ("potion"); a family of
    /// monsters ("rat").
    pub names: Vec<String>,
}

/// The legend of every glyph the map can show, in sections ("Terrain", "Features",
/// "Items", "Monsters"), made from the tile and prototype data, so it lists whatever the
/// library defines. Names never give away what an unidentified item is.
pub fn legend(lib: &alembic::Library) -> Result<Vec<(&'static str, Vec<LegendEntry>)>, Error> {
    use super::props::{
        IS_DOOR, IS_HERB, IS_ITEM, IS_MUSHROOM, IS_PROPER, IS_SCENERY, IS_STAIRS_UP,
    };
    fn add(out: &mut Vec<LegendEntry>, glyph: char, fg: Rgb, name: String) {
        match out.iter_mut().find(|e| e.glyph == glyph) {
            Some(e) if e.names.contains(&name) => {}
            Some(e) => e.names.push(name),
            None => out.push(LegendEntry {
                glyph,
                fg,
                names: vec![name],
            }),
        }
    }
    let mut terrain = Vec::new();
    for (_, t) in lib.tiles() {
        // The engine's unnamed empty tile is never part of a level.
        let (Ok(name), Ok(glyph)) = (t.get(&NAME), t.get(&GLYPH)) else {
            continue;
        };
        add(&mut terrain, glyph, t.get(&FG)?, name.to_string());
    }
    let (mut features, mut items, mut monsters) = (Vec::new(), Vec::new(), Vec::new());
    for p in lib.prototypes().filter(|p| !p.is_abstract()) {
        let Ok(glyph) = p.get(&GLYPH) else {
            continue;
        };
        let fg = p.get(&FG)?;
        let name = p.get(&NAME)?.to_string();
        if p.is(&IS_CREATURE) {
            let label = if p.is(&IS_HERO) {
                "you".to_owned()
            } else {
                name
            };
            add(&mut monsters, glyph, fg, label);
        } else if p.is(&IS_SCENERY) {
            let name = if p.is(&IS_STAIRS_UP) && p.is(&super::props::IS_EXIT) {
                "way out (on depth 1)".to_owned()
            } else {
                name
            };
            add(&mut features, glyph, fg, name.clone());
            if p.is(&IS_DOOR) {
                add(&mut features, '\'', fg, format!("open {name}"));
            }
        } else if p.is(&IS_ITEM) || p.is(&IS_POTION) {
            let kind = if p.is(&IS_PROPER) || (p.is(&IS_ARMOUR) && glyph != '[') {
                name
            } else if p.is(&IS_POTION) {
                "potion".to_owned()
            } else if p.is(&IS_HERB) {
                "herb".to_owned()
            } else if p.is(&IS_MUSHROOM) {
                "mushroom".to_owned()
            } else if p.is(&IS_FOOD) {
                "food".to_owned()
            } else if p.is(&IS_WEAPON) {
                "weapon".to_owned()
            } else if p.is(&IS_ARMOUR) {
                "armour".to_owned()
            } else {
                name
            };
            add(&mut items, glyph, fg, kind);
        }
    }
    for section in [&mut features, &mut items, &mut monsters] {
        section.sort_by_key(|e| {
            (
                !e.glyph.is_ascii_alphabetic(),
                e.glyph.to_ascii_lowercase(),
                e.glyph,
            )
        });
    }
    Ok(vec![
        ("Terrain", terrain),
        ("Features", features),
        ("Items", items),
        ("Monsters", monsters),
    ])
}

/// How the game stands: over or not, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Playing, won or died.
    pub outcome: Fate,
    /// Why it ended ("killed by a rat", "escaped with the Philosopher's Stone"); empty while
    /// playing.
    pub cause: String,
    /// Hero actions taken.
    pub turns: u64,
    /// Current depth (1..=11).
    pub depth: i32,
    /// Deepest depth reached.
    pub deepest: i32,
    /// Monsters the hero killed.
    pub kills: i64,
}

/// The summary of `game`.
pub fn summary(game: &Game) -> Result<Summary, Error> {
    let h = hero(game)?;
    let depth = depth_of(game.things().location(h)?.z);
    let over = game.var(&GAME_OVER).unwrap_or(false);
    Ok(Summary {
        // Over without a recorded fate cannot happen in play; it reads as a death.
        outcome: if over {
            game.var(&OUTCOME).unwrap_or(Fate::Died)
        } else {
            Fate::Playing
        },
        cause: super::text::ending_cause(game),
        turns: game.turn(),
        depth,
        deepest: game.var(&DEEPEST).unwrap_or(1).max(depth),
        kills: game.var(&KILLS).unwrap_or(0),
    })
}

/// Whether `t` is the hero.
#[must_use]
pub fn is_hero(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_HERO)
}

/// A creature's current attack, for status lines ("bite 1-3 normal").
pub(crate) fn attack_summary(game: &Game, c: ThingId) -> Result<String, Error> {
    Ok(format!(
        "{} 1-{} {}",
        game.query(c, &super::props::ATT_VERB)?,
        game.query(c, &super::props::ATT_DAMAGE)?,
        game.query(c, &super::props::ATT_TYPE)?
    ))
}

// ---------------------------------------------------------------------------------------------
// For the screens (the `alembic-alchemy-ui` crate): the questions they ask of a cell or a
// thing, so the UI never reads the game's properties or rules itself.

pub use super::kinds::RecipeId;
pub use super::rules::items::THROW_RANGE;
pub use super::rules::memory::{explored, remembered_thing};
pub use super::rules::world::{TileTable, level_box};
pub use super::text::{a_name, capitalise, the_name};

/// A door's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DoorState {
    /// Open: walk and see through it.
    Open,
    /// Closed: opened by walking into it or with `Command::Open`.
    Closed,
}

/// The state of the first door at `l`, if any door is there.
#[must_use]
pub fn door_at(game: &Game, l: Loc) -> Option<DoorState> {
    game.things()
        .at(l)
        .iter()
        .find(|&&t| game.is(t, &IS_DOOR))
        .map(|&t| {
            if game.is(t, &IS_OPEN) {
                DoorState::Open
            } else {
                DoorState::Closed
            }
        })
}

/// Whether any closed door is at `l` (there may be more than one door thing).
#[must_use]
pub fn closed_door_at(game: &Game, l: Loc) -> bool {
    game.things()
        .at(l)
        .iter()
        .any(|&t| game.is(t, &IS_DOOR) && !game.is(t, &IS_OPEN))
}

/// Which way a staircase goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Stairs {
    /// Stairs down (`>`).
    Down,
    /// Stairs up (`<`).
    Up,
}

impl Stairs {
    /// `Down` when `down`, else `Up`.
    #[must_use]
    pub fn down(down: bool) -> Self {
        if down { Self::Down } else { Self::Up }
    }

    fn flag(self) -> alembic::Prop<bool> {
        match self {
            Self::Down => IS_STAIRS_DOWN,
            Self::Up => IS_STAIRS_UP,
        }
    }
}

/// Whether stairs going `way` are at `l` now.
#[must_use]
pub fn stairs_at(game: &Game, l: Loc, way: Stairs) -> bool {
    let flag = way.flag();
    game.things().at(l).iter().any(|&t| game.is(t, &flag))
}

/// Whether the hero knows of stairs going `way` at `l`: an explored cell where they are
/// remembered or stand now.
#[must_use]
pub fn known_stairs_at(game: &Game, l: Loc, way: Stairs) -> bool {
    explored(game, l)
        && (remembered_thing(game, l).is_some_and(|t| game.is(t, &way.flag()))
            || stairs_at(game, l, way))
}

/// The hero's depth (1 is the top level); `None` without a placed hero.
#[must_use]
pub fn hero_depth(game: &Game) -> Option<i32> {
    let at = game.things().location(hero(game).ok()?).ok()?;
    Some(depth_of(at.z))
}

/// A piece of apparatus the hero can use from beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Apparatus {
    /// An analysis lab (`a`).
    Lab,
    /// A workbench (`c`).
    Workbench,
}

/// Whether `what` stands at `at` or next to it.
#[must_use]
pub fn apparatus_at_hand(game: &Game, at: Loc, what: Apparatus) -> bool {
    let flag = match what {
        Apparatus::Lab => &IS_LAB,
        Apparatus::Workbench => &IS_WORKBENCH,
    };
    apparatus_near(game, at, flag)
}

/// Whether `t` is a creature (the hero included).
#[must_use]
pub fn is_creature(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_CREATURE)
}

/// Whether `t` is hostile to the hero.
#[must_use]
pub fn is_hostile(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_HOSTILE)
}

/// Whether the creature `t` has noticed the hero (it is after them: it chases where it last
/// saw them).
#[must_use]
pub fn has_noticed(game: &Game, t: ThingId) -> bool {
    game.query_opt(t, &super::props::LAST_SEEN)
        .ok()
        .flatten()
        .is_some()
}

/// Whether the creature `t` flies (over deep water and magma).
#[must_use]
pub fn flies(game: &Game, t: ThingId) -> bool {
    game.is(t, &IS_FLYING)
}

/// A creature's hit points now (`None` when `t` is gone or has none).
#[must_use]
pub fn hit_points(game: &Game, t: ThingId) -> Option<i32> {
    game.query(t, &HPS).ok()
}

/// Whether `game` is a wizard game (started with `--wizard` or turned so by the console).
#[must_use]
pub fn is_wizard_game(game: &Game) -> bool {
    game.var(&WIZARD_MODE).unwrap_or(false)
}

/// How many items the stack `t` holds (at least 1).
#[must_use]
pub fn stack_size(game: &Game, t: ThingId) -> i32 {
    number(game, t)
}

/// Whether a thing other than a door or a creature blocks walking onto `l` (a statue, a
/// table): travel never plans through it.
#[must_use]
pub fn blocking_thing_at(game: &Game, l: Loc) -> bool {
    game.things()
        .at(l)
        .iter()
        .any(|&t| !game.is(t, &IS_DOOR) && !game.is(t, &IS_CREATURE) && game.is(t, &IS_BLOCKING))
}

/// Whether a thrown item stops at `l`: a wall, a closed door or any blocking thing.
#[must_use]
pub fn stops_throw(game: &Game, l: Loc) -> bool {
    tile_blocks(game, l) || blocker_at(game, l).is_some()
}

/// The scenery the hero stands on, for the status panel: its name and the key hint for
/// stairs and the exit ("" for other scenery).
pub fn scenery_here(game: &Game, at: Loc) -> Result<Option<(String, &'static str)>, Error> {
    let Some(s) = scenery_at(game, at) else {
        return Ok(None);
    };
    let name = a_name(game, s)?;
    let hint = if game.is(s, &IS_EXIT) {
        " (< with the Stone to win)"
    } else if game.is(s, &IS_STAIRS_DOWN) {
        " (> to descend)"
    } else if game.is(s, &IS_STAIRS_UP) {
        " (< to climb)"
    } else {
        ""
    };
    Ok(Some((name, hint)))
}

/// Whether monster `t` carries a potion (and so plans its fights: `rules::cunning`).
fn carries_potion(game: &Game, t: ThingId) -> bool {
    !super::rules::cunning::potion_kinds(game, t, |_| true).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seen_light_map_is_the_level_light_map_where_the_hero_sees() {
        // Bot games over several seeds and depths: at every cell the hero sees, the light
        // drawn from the lights that reach the view is the whole level's, bit for bit.
        let rules = crate::Rules::new().expect("rules");
        let (mut cells, mut smaller_views) = (0, 0);
        for seed in 1..=4 {
            let mut game = crate::new_game(seed, &rules).expect("game");
            let mut bot = crate::bot::Bot::new(seed);
            for _ in 0..400 {
                let seen = visible(&game).expect("view");
                let whole = light_map(&game).expect("light");
                let part = seen_light_map(&game, &seen).expect("light");
                assert!(part.area().width() <= whole.area().width());
                for l in seen.iter() {
                    assert_eq!(
                        part.get(l),
                        whole.get(l),
                        "seed {seed} turn {} at {l:?}",
                        game.turn()
                    );
                    cells += 1;
                }
                smaller_views += usize::from(part.area() != whole.area());
                let Ok(out) = crate::command::apply(&game, &rules, bot.choose(&game)) else {
                    break;
                };
                if out.over {
                    break;
                }
                game = out.game;
            }
        }
        assert!(cells > 10_000, "only {cells} cells compared");
        assert!(
            smaller_views > 0,
            "the view never was smaller than the level"
        );
    }

    #[test]
    fn every_pictured_family_is_a_family_of_the_shipped_data() {
        let lib = super::super::library::base_library().unwrap();
        for (family, _) in FAMILY_TILES {
            let found = lib
                .prototypes()
                .any(|p| p.get(&FAMILY).is_ok_and(|f| &*f == family));
            assert!(found, "no creature of family {family:?}");
        }
    }
}
