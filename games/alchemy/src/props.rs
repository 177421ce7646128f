//! Every property key the Alchemy game reads or writes, in one place.
//!
//! Keys are typed ([`Prop<T>`]); prototypes in the library set them, rules read them through
//! [`Game::query`](alembic::Game::query) so effects and wielded items (modifiers) apply.

use std::sync::Arc;

use alembic::{Prop, Rgb, ThingId, props::Value};

pub use super::kinds::{DamageType, Fate, RecipeId, Slot, Stat};

// ----- naming and drawing ------------------------------------------------------------------

/// The singular name ("rat", "potion of healing").
pub const NAME: Prop<Arc<str>> = Prop::new("name");
/// Proper names take no article ("the Philosopher's Stone" is written as given).
pub const IS_PROPER: Prop<bool> = Prop::with_default("is_proper", false);
/// The name while the kind is unidentified ("strange herb"); potions use [`APPEARANCE`].
pub const UNKNOWN_NAME: Prop<Arc<str>> = Prop::new("unknown_name");
/// A potion kind's per-game look ("murky violet"), set on the prototype at game start.
pub const APPEARANCE: Prop<Arc<str>> = Prop::new("appearance");
/// The glyph drawn for the thing or tile.
pub const GLYPH: Prop<char> = Prop::new("glyph");
/// Foreground colour.
pub const FG: Prop<Rgb> = Prop::with_default("fg", Rgb::new(200, 200, 200));
/// Background colour (tiles).
pub const BG: Prop<Rgb> = Prop::with_default("bg", Rgb::BLACK);
/// Drawing order in a cell: the highest is drawn on top.
pub const Z_ORDER: Prop<i32> = Prop::with_default("z_order", 0);
/// A sentence for the look command.
pub const DESCRIPTION: Prop<Arc<str>> = Prop::new("description");

// ----- kinds of thing ------------------------------------------------------------------------

/// Creatures (the hero included).
pub const IS_CREATURE: Prop<bool> = Prop::with_default("is_creature", false);
/// The player's creature.
pub const IS_HERO: Prop<bool> = Prop::with_default("is_hero", false);
/// Things that can be picked up.
pub const IS_ITEM: Prop<bool> = Prop::with_default("is_item", false);
/// Potions.
pub const IS_POTION: Prop<bool> = Prop::with_default("is_potion", false);
/// Alchemical ingredients.
pub const IS_INGREDIENT: Prop<bool> = Prop::with_default("is_ingredient", false);
/// Herbs (a kind of ingredient).
pub const IS_HERB: Prop<bool> = Prop::with_default("is_herb", false);
/// Mushrooms (a kind of ingredient).
pub const IS_MUSHROOM: Prop<bool> = Prop::with_default("is_mushroom", false);
/// Food.
pub const IS_FOOD: Prop<bool> = Prop::with_default("is_food", false);
/// Weapons.
pub const IS_WEAPON: Prop<bool> = Prop::with_default("is_weapon", false);
/// Armour.
pub const IS_ARMOUR: Prop<bool> = Prop::with_default("is_armour", false);
/// Effects carried inside creatures.
pub const IS_EFFECT: Prop<bool> = Prop::with_default("is_effect", false);
/// The Philosopher's Stone.
pub const IS_STONE: Prop<bool> = Prop::with_default("is_stone", false);
/// Fixed features: doors, decorations, apparatus, stairs.
pub const IS_SCENERY: Prop<bool> = Prop::with_default("is_scenery", false);
/// Doors and gates.
pub const IS_DOOR: Prop<bool> = Prop::with_default("is_door", false);
/// A door's state.
pub const IS_OPEN: Prop<bool> = Prop::with_default("is_open", false);
/// Decorations (fountains, gravestones…).
pub const IS_DECORATION: Prop<bool> = Prop::with_default("is_decoration", false);
/// Alchemical apparatus.
pub const IS_APPARATUS: Prop<bool> = Prop::with_default("is_apparatus", false);
/// The alchemy workbench (crafting).
pub const IS_WORKBENCH: Prop<bool> = Prop::with_default("is_workbench", false);
/// The analysis lab (identification).
pub const IS_LAB: Prop<bool> = Prop::with_default("is_lab", false);
/// Stairs of any kind.
pub const IS_STAIRS: Prop<bool> = Prop::with_default("is_stairs", false);
/// Stairs leading down.
pub const IS_STAIRS_DOWN: Prop<bool> = Prop::with_default("is_stairs_down", false);
/// Stairs leading up.
pub const IS_STAIRS_UP: Prop<bool> = Prop::with_default("is_stairs_up", false);
/// The way out of the dungeon.
pub const IS_EXIT: Prop<bool> = Prop::with_default("is_exit", false);
/// Where a staircase leads.
pub const DESTINATION: Prop<alembic::Loc> = Prop::new("destination");

// ----- terrain and blocking ----------------------------------------------------------------

/// Blocks movement (walls, closed doors, creatures).
pub const IS_BLOCKING: Prop<bool> = Prop::with_default("is_blocking", false);
/// Blocks sight (walls, closed doors).
pub const IS_VIEW_BLOCKING: Prop<bool> = Prop::with_default("is_view_blocking", false);
/// Deep water, magma: only flyers and swimmers may enter; creatures avoid it.
pub const IS_DANGEROUS: Prop<bool> = Prop::with_default("is_dangerous", false);
/// Damage per turn for standing in a tile (magma).
pub const TILE_DAMAGE: Prop<i32> = Prop::with_default("tile_damage", 0);
/// Damage type of [`TILE_DAMAGE`], a [`DamageType`] name.
pub const TILE_DAMAGE_TYPE: Prop<Arc<str>> = Prop::new("tile_damage_type");
/// Water tiles (pools, streams).
pub const IS_WATER: Prop<bool> = Prop::with_default("is_water", false);
/// Walkable floor of any kind (dungeon generation places things only there).
pub const IS_FLOOR: Prop<bool> = Prop::with_default("is_floor", false);

// ----- creature statistics ---------------------------------------------------------------

/// Skill.
pub const SK: Prop<i32> = Prop::with_default("SK", 5);
/// Strength.
pub const ST: Prop<i32> = Prop::with_default("ST", 5);
/// Agility.
pub const AG: Prop<i32> = Prop::with_default("AG", 5);
/// Toughness.
pub const TG: Prop<i32> = Prop::with_default("TG", 5);
/// Intelligence.
pub const IN: Prop<i32> = Prop::with_default("IN", 5);
/// Willpower.
pub(crate) const WP: Prop<i32> = Prop::with_default("WP", 5);
/// Charisma.
pub(crate) const CH: Prop<i32> = Prop::with_default("CH", 5);
/// Craft.
pub const CR: Prop<i32> = Prop::with_default("CR", 5);
/// Hit points.
pub const HPS: Prop<i32> = Prop::with_default("hps", 1);
/// Maximum hit points.
pub const HPS_MAX: Prop<i32> = Prop::with_default("hps_max", 1);
/// The most hit points (now or at full health) a creature may have: saves hold no more
/// ([`validate`](crate::save::validate) refuses a save past it), and the rules that raise a
/// creature's hit points stop there, so a game played is always a game that saves.
pub const MAX_HIT_POINTS: i32 = 1_000_000;
/// Speed: the engine scheduler's own key (100 is normal; an action of cost c takes
/// 100·c/speed time), so the rules and the scheduler read one property.
pub use alembic::schedule::SPEED;
/// Armour: absorbs up to this much physical damage per hit.
pub const ARMOUR: Prop<i32> = Prop::with_default("armour", 0);
/// Extra chance to block (shields), added to the defender's block skill.
pub const BLOCK: Prop<i32> = Prop::with_default("block", 0);

/// Living creatures (poison, sickness and healing work normally).
pub const IS_LIVING: Prop<bool> = Prop::with_default("is_living", false);
/// Undead: healing hurts them; poison and sickness do not.
pub const IS_UNDEAD: Prop<bool> = Prop::with_default("is_undead", false);
/// Intelligent creatures open doors.
pub const IS_INTELLIGENT: Prop<bool> = Prop::with_default("is_intelligent", false);
/// Immortal creatures never die (their hit points stop at 1).
pub const IS_IMMORTAL: Prop<bool> = Prop::with_default("is_immortal", false);
/// Hostile to the hero.
pub const IS_HOSTILE: Prop<bool> = Prop::with_default("is_hostile", true);
/// Attacks monsters of other families that stand in its way.
pub const ATTACKS_MONSTERS: Prop<bool> = Prop::with_default("attacks_monsters", false);
/// A creature family name ("rat", "undead"): monsters never fight their own family.
pub const FAMILY: Prop<Arc<str>> = Prop::new("family");
/// Cunning: in a fight it plans its moves by searching futures of the real rules
/// (`rules::cunning`), where other monsters keep their cheap rules.
pub const PLANS: Prop<bool> = Prop::with_default("plans", false);
/// Flying creatures cross water and magma.
pub const IS_FLYING: Prop<bool> = Prop::with_default("is_flying", false);
/// Walks through walls and rock (wizard mode's `ghost`; only the hero's moves honour it,
/// and only inside the level's rectangle).
pub(crate) const IS_GHOST: Prop<bool> = Prop::with_default("is_ghost", false);
/// Under an invincibility effect: takes no damage.
pub const IS_INVINCIBLE: Prop<bool> = Prop::with_default("is_invincible", false);
/// Confused: moves in random directions now and then.
pub const IS_CONFUSED: Prop<bool> = Prop::with_default("is_confused", false);
/// How far away a monster notices the hero.
pub const AGGRO: Prop<i32> = Prop::with_default("aggro", 8);
/// The percent of its aggro range at which a monster notices a hero standing in darkness
/// (`rules::light`): 100 by default (it sees as well in the dark); 50 for the goblinoids,
/// which hunt by sight.
pub const DARK_SIGHT: Prop<i32> = Prop::with_default("dark_sight", 100);
/// A creature this monster is fighting (monster-versus-monster hostility; absent when none).
pub const FOE: Prop<ThingId> = Prop::new("foe");
/// Game time when the hero last left this monster's level (absent while the hero is there):
/// on the hero's return the monster catches up on the time that passed.
pub const AWAY_SINCE: Prop<i64> = Prop::new("away_since");
/// Where a monster last saw the hero (absent when it has no target).
pub const LAST_SEEN: Prop<alembic::Loc> = Prop::new("last_seen");
/// Proto name of what this creature becomes when it dies (vampyre bats), with a chance.
pub const DEATH_TRANSFORM: Prop<Arc<str>> = Prop::new("death_transform");
/// Chance of [`DEATH_TRANSFORM`].
pub const DEATH_TRANSFORM_CHANCE: Prop<f64> = Prop::with_default("death_transform_chance", 0.0);
/// Chance that a killed monster leaves a random item.
pub const DROP_CHANCE: Prop<f64> = Prop::with_default("drop_chance", 0.0);
/// Chance that a monster made with a level carries a potion (one of the level's potions,
/// which it may drink or throw in a fight; it breaks when the monster dies).
pub const POTION_CHANCE: Prop<f64> = Prop::with_default("potion_chance", 0.0);

// ----- attacks ---------------------------------------------------------------------------------

/// The verb of an attack in the third person without the s ("bite", "hit", "claw").
pub const ATT_VERB: Prop<Arc<str>> = Prop::new("att_verb");
/// Largest base damage of an attack (damage rolls 1..=this, plus strength).
pub const ATT_DAMAGE: Prop<i32> = Prop::with_default("att_damage", 2);
/// Damage type of the attack (stored by name).
pub const ATT_TYPE: Prop<DamageType> = Prop::new("att_type");
/// Effect prototype an attack may inflict.
pub const HIT_EFFECT: Prop<Arc<str>> = Prop::new("hit_effect");
/// Probability (0..=1) that a hit inflicts [`HIT_EFFECT`].
pub const HIT_EFFECT_CHANCE: Prop<f64> = Prop::with_default("hit_effect_chance", 0.0);

/// Percent resistance to normal damage (negative: vulnerable).
pub const RES_NORMAL: Prop<i32> = Prop::with_default("res_normal", 0);
/// Percent resistance to impact damage.
pub const RES_IMPACT: Prop<i32> = Prop::with_default("res_impact", 0);
/// Percent resistance to poison.
pub const RES_POISON: Prop<i32> = Prop::with_default("res_poison", 0);
/// Percent resistance to fire.
pub const RES_FIRE: Prop<i32> = Prop::with_default("res_fire", 0);
/// Percent resistance to ice.
pub const RES_ICE: Prop<i32> = Prop::with_default("res_ice", 0);
/// Percent resistance to water.
pub(crate) const RES_WATER: Prop<i32> = Prop::with_default("res_water", 0);
/// Percent resistance to lightning.
pub(crate) const RES_LIGHTNING: Prop<i32> = Prop::with_default("res_lightning", 0);
/// Percent resistance to acid.
pub(crate) const RES_ACID: Prop<i32> = Prop::with_default("res_acid", 0);

// ----- items -----------------------------------------------------------------------------------

/// Wielded or worn (modifiers of weapons and armour apply only while this is true).
pub const IS_WIELDED: Prop<bool> = Prop::with_default("is_wielded", false);
/// The slot a weapon or armour piece occupies (stored by name).
pub const WIELD_SLOT: Prop<Slot> = Prop::new("wield_slot");
/// An item's letter in its holder's pack (`a`–`z`, then `A`–`Z`), as in DCSS and NetHack:
/// given when it comes into the pack (look-alikes share one), kept while it stays there,
/// removed when it leaves.
pub const INV_LETTER: Prop<char> = Prop::new("inv_letter");
/// How many look-alike items this one thing stands for (the original's `:number`): a stack
/// of 3 strange herbs is one thing with 3 here. Missing means one.
pub const NUMBER: Prop<i32> = Prop::with_default("number", 1);
/// Whether the item's kind is identified (read from the prototype, shared by the kind).
pub const IS_IDENTIFIED: Prop<bool> = Prop::with_default("is_identified", false);
/// A potion's recipe: the ingredient prototype names (Text values), per game.
pub const RECIPE: Prop<Arc<[Value]>> = Prop::new("recipe");
/// Effect prototype a potion, food or ingredient applies to whoever takes it.
pub const GIVES_EFFECT: Prop<Arc<str>> = Prop::new("gives_effect");
/// Hit points a consumable restores (negative hurts).
pub const HEAL_AMOUNT: Prop<i32> = Prop::with_default("heal_amount", 0);
/// The statistic a "gain" potion raises, a [`Stat`] name.
pub const GAIN_STAT: Prop<Stat> = Prop::new("gain_stat");
/// How much a gain potion adds.
pub const GAIN_AMOUNT: Prop<i32> = Prop::with_default("gain_amount", 1);
/// What a thing's use (bumping scenery) says.
pub const USE_MESSAGE: Prop<Arc<str>> = Prop::new("use_message");
/// Strength needed to force a heavy door open.
pub const DOOR_STRENGTH: Prop<i32> = Prop::with_default("door_strength", 0);
/// How far a light source (a candelabra) shines; 0 for things that give no light.
pub const LIGHT_RADIUS: Prop<i32> = Prop::with_default("light_radius", 0);
/// The colour of a light source.
pub const LIGHT_COLOUR: Prop<Rgb> = Prop::with_default("light_colour", Rgb::new(255, 200, 120));
/// Chance a fountain dries up on each use.
pub const DRY_CHANCE: Prop<f64> = Prop::with_default("dry_chance", 0.0);

// ----- effects ---------------------------------------------------------------------------------

/// Time left (100 = one normal turn).
pub const DURATION: Prop<i32> = Prop::with_default("duration", 0);
/// Hit points gained (or lost, if negative) per 100 time units.
pub const HP_PER_TURN: Prop<i32> = Prop::with_default("hp_per_turn", 0);
/// Accumulated fractional hit-point change (hundredths).
pub(crate) const HP_ACC: Prop<i32> = Prop::with_default("hp_acc", 0);
/// Poisons (removed by cure poison).
pub const IS_POISON: Prop<bool> = Prop::with_default("is_poison", false);
/// Harmful effects (removed by cleansing).
pub const IS_HARMFUL: Prop<bool> = Prop::with_default("is_harmful", false);
/// Drains of statistics (removed by restoration).
pub const IS_DRAIN: Prop<bool> = Prop::with_default("is_drain", false);
/// Message when the effect starts on the hero.
pub const START_MSG: Prop<Arc<str>> = Prop::new("start_msg");
/// Message when the effect ends on the hero.
pub const END_MSG: Prop<Arc<str>> = Prop::new("end_msg");
/// Message when an effect takes hold of a monster the hero sees ("{} looks sick.").
pub const OTHER_MSG: Prop<Arc<str>> = Prop::new("other_msg");

// ----- game-wide variables -----------------------------------------------------------------

/// The hero's id.
pub const HERO: Prop<ThingId> = Prop::new("hero");
/// Game time elapsed (100 per normal turn).
pub const TIME: Prop<i64> = Prop::with_default("time", 0);
/// Number of messages ever written (to tell a command's messages apart).
pub const MSG_COUNT: Prop<i64> = Prop::with_default("msg_count", 0);
/// The hero's natural healing, accumulated.
pub const REGEN_ACC: Prop<i64> = Prop::with_default("regen_acc", 0);
/// Kills by the hero.
pub const KILLS: Prop<i64> = Prop::with_default("kills", 0);
/// The hero's experience (see [`crate::rules::progress`]).
pub const XP: Prop<i64> = Prop::with_default("xp", 0);
/// The hero's level, 1 at the start.
pub const XL: Prop<i32> = Prop::with_default("xl", 1);
/// The deepest level reached (1 = z −1).
pub const DEEPEST: Prop<i32> = Prop::with_default("deepest", 1);
/// Whether the game has ended.
pub const GAME_OVER: Prop<bool> = Prop::with_default("game_over", false);
/// Game variable: the game was started in wizard mode (`--wizard`): the session's wizard
/// console runs its lines ([`wizard::commands`](super::wizard::commands)), and it is never
/// scored.
pub(crate) const WIZARD_MODE: Prop<bool> = Prop::with_default("wizard_mode", false);
/// Game variable: no monster plans (every one plays by the cheap rules), for tests that
/// show what foresight changes and for the bot's baseline (`alembic-sim --cunning off`).
pub const FORESIGHT_OFF: Prop<bool> = Prop::with_default("foresight_off", false);
/// How the game ended, once over.
pub const OUTCOME: Prop<super::kinds::Fate> = Prop::new("outcome");
/// What killed the hero.
pub(crate) const CAUSE: Prop<Arc<str>> = Prop::new("cause");
/// The event that ended the game (won or lost), as JSON: the cause of an ending is made
/// from it in English when it is shown, never kept as English in the game.
pub(crate) const ENDING: Prop<Arc<str>> = Prop::new("alchemy.ending");
/// Which game this value belongs to ("alchemy").
pub(crate) const GAME_NAME: Prop<Arc<str>> = Prop::new("game_name");

// ----- the properties behind the kinds ------------------------------------------------------

impl Stat {
    /// The property holding it.
    #[must_use]
    pub fn prop(self) -> Prop<i32> {
        match self {
            Stat::Sk => SK,
            Stat::St => ST,
            Stat::Ag => AG,
            Stat::Tg => TG,
            Stat::In => IN,
            Stat::Wp => WP,
            Stat::Ch => CH,
            Stat::Cr => CR,
        }
    }
}

impl DamageType {
    /// The resistance property for this type.
    #[must_use]
    pub fn resistance(self) -> Prop<i32> {
        match self {
            DamageType::Normal => RES_NORMAL,
            DamageType::Impact => RES_IMPACT,
            DamageType::Poison => RES_POISON,
            DamageType::Fire => RES_FIRE,
            DamageType::Ice => RES_ICE,
            DamageType::Water => RES_WATER,
            DamageType::Lightning => RES_LIGHTNING,
            DamageType::Acid => RES_ACID,
        }
    }
}
