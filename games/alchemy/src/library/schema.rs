//! Every property key Alchemy's data may set, with its type and a line of documentation:
//! what the loader checks `games/alchemy/data/alchemy.toml` and mods against, and what
//! `alembic-sim --list-keys --game alchemy` prints.
//!
//! Keys the game keeps to itself are not here, so data cannot set them: a potion's
//! appearance and recipe (drawn per game), and what play changes (stack sizes, pack
//! letters, a monster's foe, effect time accumulators, game variables).

use alembic::hook::{ON_CONSUME, ON_DEATH, ON_USE};
use alembic::library::IS_CONTAINER;
use alembic_data::Schema;

use crate::kinds::{DamageType, Slot, Stat};
use crate::props::{
    AG, AGGRO, ARMOUR, ATT_DAMAGE, ATT_TYPE, ATT_VERB, ATTACKS_MONSTERS, BG, BLOCK, CH, CR,
    DARK_SIGHT, DEATH_TRANSFORM, DEATH_TRANSFORM_CHANCE, DESCRIPTION, DOOR_STRENGTH, DROP_CHANCE,
    DRY_CHANCE, DURATION, END_MSG, FAMILY, FG, GAIN_AMOUNT, GAIN_STAT, GIVES_EFFECT, GLYPH,
    HEAL_AMOUNT, HIT_EFFECT, HIT_EFFECT_CHANCE, HP_PER_TURN, HPS, HPS_MAX, IN, IS_APPARATUS,
    IS_ARMOUR, IS_BLOCKING, IS_CONFUSED, IS_CREATURE, IS_DANGEROUS, IS_DECORATION, IS_DOOR,
    IS_DRAIN, IS_EFFECT, IS_EXIT, IS_FLOOR, IS_FLYING, IS_FOOD, IS_HARMFUL, IS_HERB, IS_HERO,
    IS_HOSTILE, IS_IDENTIFIED, IS_IMMORTAL, IS_INGREDIENT, IS_INTELLIGENT, IS_INVINCIBLE, IS_ITEM,
    IS_LAB, IS_LIVING, IS_MUSHROOM, IS_OPEN, IS_POISON, IS_POTION, IS_PROPER, IS_SCENERY,
    IS_STAIRS, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE, IS_UNDEAD, IS_VIEW_BLOCKING, IS_WATER,
    IS_WEAPON, IS_WIELDED, IS_WORKBENCH, LIGHT_COLOUR, LIGHT_RADIUS, MAX_HIT_POINTS, NAME,
    OTHER_MSG, PLANS, POTION_CHANCE, RES_ACID, RES_FIRE, RES_ICE, RES_IMPACT, RES_LIGHTNING,
    RES_NORMAL, RES_POISON, RES_WATER, SK, ST, START_MSG, TG, TILE_DAMAGE, TILE_DAMAGE_TYPE,
    UNKNOWN_NAME, USE_MESSAGE, WIELD_SLOT, WP, Z_ORDER,
};

/// Every property key Alchemy's data may set, with its type and meaning (what
/// `alembic-sim --list-keys --game alchemy` prints).
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn schema() -> Schema {
    let damage_types = DamageType::ALL.map(DamageType::name);
    let slots = Slot::ALL.map(Slot::name);
    let stats = Stat::ALL.map(Stat::code);
    Schema::new()
        .with_engine_keys()
        // ----- naming and drawing
        .key(
            &NAME,
            "what messages call it (\"giant rat\", \"potion of healing\")",
        )
        .key(&IS_PROPER, "a proper name: messages give it no article")
        .key(
            &UNKNOWN_NAME,
            "what it is called until its kind is identified (\"strange herb\")",
        )
        .key(&GLYPH, "the character drawn for it")
        .key(&FG, "the colour it is drawn in")
        .key(&BG, "tiles: the background colour")
        .key(
            &Z_ORDER,
            "drawing order in a cell: the highest is drawn on top",
        )
        .key(&DESCRIPTION, "the sentence the look command shows")
        // ----- kinds of thing
        .key(
            &IS_CREATURE,
            "a creature (the hero included): it acts and fights",
        )
        .key(&IS_HERO, "the player's creature (one prototype: \"you\")")
        .key(
            &IS_CONTAINER,
            "can carry things (creatures carry items and effects)",
        )
        .key(&IS_ITEM, "can be picked up")
        .key(
            &IS_POTION,
            "a potion: gets an appearance and a recipe each game",
        )
        .key(&IS_INGREDIENT, "an ingredient of potion recipes")
        .key(&IS_HERB, "an ingredient: a herb")
        .key(&IS_MUSHROOM, "an ingredient: a mushroom")
        .key(&IS_FOOD, "food")
        .key(&IS_WEAPON, "a weapon, wielded in the hand")
        .key(&IS_ARMOUR, "armour, worn in its wield_slot")
        .key(&IS_EFFECT, "an effect, carried inside a creature")
        .key(&IS_STONE, "the Philosopher's Stone: the goal")
        .key(
            &IS_SCENERY,
            "a fixed feature: door, decoration, apparatus, stairs",
        )
        .key(&IS_DOOR, "a door or gate (intelligent creatures open them)")
        .key(&IS_OPEN, "a door's state: open")
        .key(&IS_DECORATION, "a decoration (fountain, statue…)")
        .key(&IS_APPARATUS, "alchemical apparatus")
        .key(&IS_WORKBENCH, "apparatus: stand beside it to craft potions")
        .key(
            &IS_LAB,
            "apparatus: stand beside it to analyse potions and ingredients",
        )
        .key(&IS_STAIRS, "stairs of any kind")
        .key(&IS_STAIRS_DOWN, "stairs leading down")
        .key(&IS_STAIRS_UP, "stairs leading up")
        .key(&IS_EXIT, "the way out of the dungeon")
        // ----- terrain and blocking
        .key(
            &IS_BLOCKING,
            "blocks movement (walls, closed doors, creatures)",
        )
        .key(&IS_VIEW_BLOCKING, "blocks sight (walls, closed doors)")
        .key(
            &IS_DANGEROUS,
            "tiles: only flyers may enter safely; creatures avoid it",
        )
        .key(
            &TILE_DAMAGE,
            "tiles: hit points lost per turn standing here",
        )
        .one_of(
            &TILE_DAMAGE_TYPE,
            "tiles: the damage type of tile_damage",
            &damage_types,
        )
        .key(&IS_WATER, "tiles: water (pools, streams)")
        .key(
            &IS_FLOOR,
            "tiles: walkable floor (the generator places things only there)",
        )
        // ----- creatures
        .key(&SK, "statistic: skill, for hitting and blocking")
        .key(&ST, "statistic: strength, for damage")
        .key(&AG, "statistic: agility, for dodging")
        .key(
            &TG,
            "statistic: toughness, for hit points and resisting poison",
        )
        .key(&IN, "statistic: intelligence, for analysis")
        .key(&WP, "statistic: willpower, for resisting confusion")
        .key(&CH, "statistic: charisma")
        .key(&CR, "statistic: craft, for alchemy yield")
        .int_range(
            &HPS,
            "hit points now: give creatures the same as hps_max",
            -i64::from(MAX_HIT_POINTS),
            i64::from(MAX_HIT_POINTS),
        )
        .int_range(
            &HPS_MAX,
            "hit points at full health",
            1,
            i64::from(MAX_HIT_POINTS),
        )
        .key(&ARMOUR, "absorbs up to this much physical damage per hit")
        .key(
            &BLOCK,
            "extra chance to block, added to the block skill (shields)",
        )
        .key(
            &IS_LIVING,
            "alive: poison, sickness and healing work normally",
        )
        .key(&IS_UNDEAD, "undead: healing hurts it")
        .key(&IS_INTELLIGENT, "opens doors")
        .key(
            &PLANS,
            "cunning: plans its moves in a fight by searching futures of the rules",
        )
        .key(&IS_IMMORTAL, "never dies: its hit points stop at 1")
        .key(&IS_HOSTILE, "hostile to the hero")
        .key(
            &ATTACKS_MONSTERS,
            "attacks monsters of other families in its way",
        )
        .key(
            &FAMILY,
            "its family (\"rat\", \"undead\"): monsters never fight their own family",
        )
        .key(&IS_FLYING, "flies over water and magma")
        .key(
            &IS_INVINCIBLE,
            "takes no damage (set by an effect's modifier)",
        )
        .key(
            &IS_CONFUSED,
            "moves at random now and then (set by an effect's modifier)",
        )
        .key(&AGGRO, "how far away a monster notices the hero")
        .key(
            &DARK_SIGHT,
            "percent of aggro at which it notices a hero standing in darkness (100 by default)",
        )
        .prototype_ref(
            &DEATH_TRANSFORM,
            "the prototype it may become when it dies (with the on_death hook \"death_transform\")",
        )
        .key(
            &DEATH_TRANSFORM_CHANCE,
            "the chance (0 to 1) of death_transform",
        )
        .key(
            &DROP_CHANCE,
            "the chance (0 to 1) that it leaves an item when killed",
        )
        .key(
            &POTION_CHANCE,
            "the chance (0 to 1) that one made with a level carries a potion",
        )
        // ----- attacks
        .key(
            &ATT_VERB,
            "the verb of its attack, without the s (\"bite\": \"the rat bites you\")",
        )
        .key(
            &ATT_DAMAGE,
            "the largest base damage of its attack (rolls 1 to this, plus strength)",
        )
        .one_of(&ATT_TYPE, "the damage type of its attack", &damage_types)
        .prototype_ref(&HIT_EFFECT, "the effect its hits may inflict")
        .key(
            &HIT_EFFECT_CHANCE,
            "the chance (0 to 1) that a hit inflicts hit_effect",
        )
        .key(
            &RES_NORMAL,
            "percent resistance to normal damage (negative: vulnerable)",
        )
        .key(&RES_IMPACT, "percent resistance to impact damage")
        .key(&RES_POISON, "percent resistance to poison")
        .key(&RES_FIRE, "percent resistance to fire")
        .key(&RES_ICE, "percent resistance to ice")
        .key(&RES_WATER, "percent resistance to water")
        .key(&RES_LIGHTNING, "percent resistance to lightning")
        .key(&RES_ACID, "percent resistance to acid")
        // ----- items
        .key(
            &IS_WIELDED,
            "wielded or worn: modifiers with `while = \"is_wielded\"` apply only then",
        )
        .one_of(
            &WIELD_SLOT,
            "the slot a weapon or armour piece occupies",
            &slots,
        )
        .key(
            &IS_IDENTIFIED,
            "its kind is known from the start (food, weapons, armour)",
        )
        .prototype_ref(
            &GIVES_EFFECT,
            "the effect a potion gives (with the on_consume hook \"potion_effect\")",
        )
        .key(
            &HEAL_AMOUNT,
            "hit points a potion, food or fountain restores (negative hurts)",
        )
        .one_of(
            &GAIN_STAT,
            "the statistic a \"potion_gain\" potion raises",
            &stats,
        )
        .key(&GAIN_AMOUNT, "how much a gain potion adds")
        .key(&USE_MESSAGE, "what bumping into it says")
        .key(&DOOR_STRENGTH, "strength needed to force the door open")
        .key(&LIGHT_RADIUS, "how far it shines (0: no light)")
        .key(&LIGHT_COLOUR, "the colour of its light")
        .key(
            &DRY_CHANCE,
            "the chance (0 to 1) a fountain dries up on each use",
        )
        .hook(
            &ON_CONSUME,
            "the hook run when it is drunk or eaten (\"potion_heal\", \"eat_food\"…)",
        )
        .hook(&ON_USE, "the hook run when the hero bumps into it")
        .hook(&ON_DEATH, "the hook run when it dies")
        // ----- effects
        .key(
            &DURATION,
            "effects: how long it lasts, in time units (100 = one turn)",
        )
        .key(
            &HP_PER_TURN,
            "effects: hit points gained (negative: lost) each turn",
        )
        .key(&IS_POISON, "effects: a poison (cure poison removes it)")
        .key(&IS_HARMFUL, "effects: harmful (cleansing removes it)")
        .key(
            &IS_DRAIN,
            "effects: drains a statistic (restoration removes it)",
        )
        .key(
            &START_MSG,
            "effects: what the hero reads when it takes hold (\"\" says nothing)",
        )
        .key(&END_MSG, "effects: what the hero reads when it wears off")
        .key(
            &OTHER_MSG,
            "effects: said when it takes hold of a monster the hero sees; {} is the monster",
        )
}
