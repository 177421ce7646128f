//! **Alchemy**: descend ten levels, fetch the Philosopher's Stone and climb back out.
//!
//! A remake of the 2013 Clojure 7DRL on the `alembic` engine: the whole game is one
//! persistent [`Game`] value; [`apply`] is the single pure funnel from a [`Command`] to the
//! next value; the view functions ([`status`], [`visible`], [`cell_view`], [`describe`]…)
//! are what a user interface reads; [`save`] writes and reads it.
//!
//! # What is public
//!
//! The modules are private, in the shape of the Caves crate (`alembic-caves`): everything a test,
//! bench, binary, frontend or example uses is re-exported here by name, in the one `pub use`
//! list below, so an item nobody uses is dead code and the compiler says so. The list is
//! flat: the property keys the tests read or set ([`HPS`], [`IS_HOSTILE`]…) sit beside the
//! rules ([`damage`], [`add_effect`], [`hero`]…), the view, the text functions, the bot and
//! the library, and every type those items expose is in it too (the crate warns on
//! `unnameable_types`). A key or function a new user needs is added to the list, not reached
//! through a module path. One module stays public because its namespace serves: [`save`]
//! (`save::save`, `save::load`, like `caves::save`).
//!
//! The screens are another crate, `alembic-alchemy-ui`: they read the game only through
//! this list (the cell and thing questions of the view: [`door_at`], [`stairs_at`],
//! [`look_at`]…), and the compiler, not a test, keeps them from reaching further.
//!
//! ```
//! use alembic_alchemy::{self as alchemy, Command, Rules};
//! use alembic::Dir;
//! let rules = Rules::new()?;
//! let game = alchemy::new_game(7, &rules)?;
//! let next = match alchemy::apply(&game, &rules, Command::Wait) {
//!     Ok(o) => o.game,
//!     Err(e) => panic!("{e}"),
//! };
//! assert_eq!(next.turn(), game.turn() + 1);
//! assert_eq!(alchemy::status(&next)?.depth, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bot;
mod command;
mod dungeon;
mod error;
mod events;
mod hooks;
mod kinds;
mod library;
mod props;
mod rulebook;
mod rules;
pub mod save;
mod text;
mod view;
mod wizard;

use alembic::{Error, Game};

pub use bot::{Bot, Choice, PLAN, Reason, Situation, Tactic, TacticFn};
pub use command::{Command, Outcome, apply};
pub use dungeon::{Reach, reachable};
pub use error::{Refusal, RuleError};
pub use events::{Cause, Cure, Event, Learned, Noun, Strike, take as take_events};
pub use kinds::{DamageType, DataError, Fate, RecipeId, Slot, Stat};
pub use library::{
    DATA, DATA_FILE, LIBRARY_NAME, LIBRARY_VERSION, LibraryCounts, base_library, counts,
    data_files, library_from, load as load_data, names_with, randomise, schema,
};
pub use props::{
    AG, AGGRO, APPEARANCE, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, ATTACKS_MONSTERS, AWAY_SINCE,
    BG, BLOCK, CR, DEATH_TRANSFORM, DEATH_TRANSFORM_CHANCE, DEEPEST, DESCRIPTION, DESTINATION,
    DOOR_STRENGTH, DROP_CHANCE, DRY_CHANCE, DURATION, END_MSG, FAMILY, FG, FOE, GAIN_AMOUNT,
    GAIN_STAT, GAME_OVER, GIVES_EFFECT, GLYPH, HEAL_AMOUNT, HERO, HIT_EFFECT, HIT_EFFECT_CHANCE,
    HP_PER_TURN, HPS, HPS_MAX, IN, INV_LETTER, IS_APPARATUS, IS_ARMOUR, IS_BLOCKING, IS_CONFUSED,
    IS_CREATURE, IS_DANGEROUS, IS_DECORATION, IS_DOOR, IS_DRAIN, IS_EFFECT, IS_EXIT, IS_FLOOR,
    IS_FLYING, IS_FOOD, IS_HARMFUL, IS_HERB, IS_HERO, IS_HOSTILE, IS_IDENTIFIED, IS_IMMORTAL,
    IS_INGREDIENT, IS_INTELLIGENT, IS_INVINCIBLE, IS_ITEM, IS_LAB, IS_LIVING, IS_MUSHROOM, IS_OPEN,
    IS_POISON, IS_POTION, IS_PROPER, IS_SCENERY, IS_STAIRS, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE,
    IS_UNDEAD, IS_VIEW_BLOCKING, IS_WATER, IS_WEAPON, IS_WIELDED, IS_WORKBENCH, KILLS, LAST_SEEN,
    LIGHT_COLOUR, LIGHT_RADIUS, MSG_COUNT, NAME, NUMBER, OTHER_MSG, OUTCOME, RECIPE, REGEN_ACC,
    RES_FIRE, RES_ICE, RES_IMPACT, RES_NORMAL, RES_POISON, SK, SPEED, ST, START_MSG, TG,
    TILE_DAMAGE, TILE_DAMAGE_TYPE, TIME, UNKNOWN_NAME, USE_MESSAGE, WIELD_SLOT, XL, XP, Z_ORDER,
};
pub use rulebook::{Rules, RulesError};
pub use rules::combat::{Source, attack, damage, die, expected_damage};
pub use rules::doors::set_open;
pub use rules::effects::{add_effect, effect_list};
pub use rules::items::{identify, inventory};
pub use rules::memory::{explored, remember};
pub use rules::progress;
pub use rules::stack::{number, split, stacks_with};
pub use rules::time::end_turn;
pub use rules::world::{
    LEVELS, STONE_LEVEL, creature_at, creatures_on_level, hero, hero_sees, hero_view, items_at,
    level_box, tile_blocks, tile_dangerous,
};
pub use text::{a_name, all_lines, article, ending_cause, lines};
pub use view::{
    Apparatus, CellView, Description, DoorState, Glyph, InventoryEntry, ItemKind, LegendEntry,
    LookInfo, RecipeInfo, Stairs, Status, Summary, THROW_RANGE, TileTable, apparatus_at_hand,
    blocking_thing_at, capitalise, cell_tile, cell_view, closed_door_at, describe, door_at, flies,
    has_noticed, hero_depth, hero_id, hit_points, identified_potions, inventory_entries,
    is_creature, is_hero, is_hostile, is_wizard_game, known_recipes, known_stairs_at, legend,
    level_map_text, light_map, list_items, look_at, recent_messages, remembered_thing,
    scenery_here, stack_size, stairs_at, status, stops_throw, summary, the_name, thing_glyph,
    tile_glyph, top_thing, visible,
};
pub use wizard::commands as wizard_commands;

/// A new game from `seed` in the given modes (as a recording's header lists them): in
/// `wizard` mode the game accepts [`Command::Wizard`] lines. Other modes (`practice`) change
/// nothing in the game value; the modes that name the data a game was played with
/// (`mod:NAME`, `data:HASH`, see [`alembic_session::gamedata`]) must match the rules' data.
///
/// # Errors
/// As [`new_game`]; [`Error::Msg`] with one sentence when the modes name other data than
/// the rules were built on (a recording made with other mods).
pub fn new_game_in_modes<S: AsRef<str>>(
    seed: u64,
    rules: &Rules,
    modes: impl IntoIterator<Item = S>,
) -> Result<Game, Error> {
    let modes: Vec<S> = modes.into_iter().collect();
    rules
        .data_identity()
        .check_save(&alembic_session::gamedata::DataIdentity::from_modes(&modes))
        .map_err(|e| Error::Msg(e.into()))?;
    let mut game = new_game(seed, rules)?;
    if modes.iter().any(|m| m.as_ref() == "wizard") {
        game.set_var_mut(&props::WIZARD_MODE, true);
    }
    Ok(game)
}

/// A new game from `seed`: the library with this game's potion looks and recipes, all 11
/// levels, the hero at the exit on level −1.
pub fn new_game(seed: u64, rules: &Rules) -> Result<Game, Error> {
    let mut game = Game::new(seed);
    let mut lib = rules.base_library().clone();
    library::randomise(&mut lib, game.rng())?;
    game = game.with_library(lib);
    dungeon::generate(&mut game, rules.hooks())?;
    let hero = rules::world::hero(&game)?;
    rules::items::assign_letters(&mut game, hero)?;
    let view = rules::world::hero_view(&game)?;
    rules::memory::remember(&mut game, &view);
    Ok(game)
}
