//! The rules of Alchemy: world queries, combat, effects, time, monster behaviour (and the
//! cunning monsters' foresight, [`cunning`]), doors,
//! items, light ([`light`]: darkness hides the hero, light shows monsters) and the hero's map
//! memory.
//!
//! What a test, a bot or a screen may call is re-exported here by name (`rules::damage`,
//! `rules::hero`); the modules that hold the rules stay inside the crate, except
//! [`progress`], whose whole namespace serves (`progress::level`, `progress::xp_for`).

pub(crate) mod ai;
pub(crate) mod combat;
pub mod cunning;
pub(crate) mod doors;
pub(crate) mod effects;
pub(crate) mod items;
pub mod light;
pub(crate) mod memory;
pub mod progress;
pub(crate) mod stack;
pub(crate) mod time;
pub(crate) mod world;

pub use super::dungeon::{Reach, reachable};
pub use ai::finds_way;
pub use combat::{Source, attack, damage, die, expected_damage};
pub use doors::set_open;
pub use effects::{add_effect, effect_list};
pub use items::{assign_letters, identify, inventory, letters_unchanged};
pub use memory::{explored, explored_cells, remember};
pub use stack::{number, split, stacks_with};
pub use time::{end_turn, end_turn_with, monster_plan};
pub use world::{
    LEVELS, STONE_LEVEL, creature_at, creatures_on_level, hero, hero_sees, hero_view, items_at,
    level_box, tile_blocks, tile_dangerous,
};
