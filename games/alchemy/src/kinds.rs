//! Typed enums the data names: statistics, damage types and wield slots.
//!
//! Each is a [`PropType`] stored by name (readable saves): a property reads as the enum, and
//! an unknown name reads as the wrong type, which the engine reports, instead of falling back
//! silently.

use std::sync::Arc;

use alembic::{Error, props::PropType, props::Value, props::ValueKind};

/// What is wrong with Alchemy's data: a bug in the library or the generator, never a
/// player's mistake. It reaches callers inside [`Error::game`]; get it back with
/// [`Error::game_error`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The generator gave up on a level.
    #[error("could not build level {z}")]
    LevelNotBuilt {
        /// The level's z.
        z: i32,
    },
    /// The generator ran out of free cells on a level.
    #[error("a level has no room left")]
    NoRoomLeft,
    /// A potion or item prototype has no name.
    #[error("a prototype without a name")]
    Unnamed,
    /// There are more potions than appearances to give them.
    #[error("more potions than appearances")]
    TooFewAppearances,
    /// A consumable's hook ran with neither a target nor an actor.
    #[error("a consumable hook called without a target")]
    NoTarget,
    /// The library has no effect prototypes to choose from.
    #[error("no effects in the library")]
    NoEffects,
    /// A prototype named as an effect is not one.
    #[error("{name:?} is not an effect")]
    NotAnEffect {
        /// The prototype's name.
        name: Arc<str>,
    },
}

/// A [`DataError`], as the engine carries a game's own error.
pub(crate) fn data_fault(e: DataError) -> Error {
    Error::game(e)
}

/// The eight statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Stat {
    /// Skill: hitting and blocking.
    Sk,
    /// Strength: damage.
    St,
    /// Agility: dodging.
    Ag,
    /// Toughness: hit points and resisting poison.
    Tg,
    /// Intelligence: analysis.
    In,
    /// Willpower: resisting confusion.
    Wp,
    /// Charisma.
    Ch,
    /// Craft: alchemy yield.
    Cr,
}

impl Stat {
    /// All eight, in display order.
    pub const ALL: [Stat; 8] = [
        Stat::Sk,
        Stat::St,
        Stat::Ag,
        Stat::Tg,
        Stat::In,
        Stat::Wp,
        Stat::Ch,
        Stat::Cr,
    ];

    /// The two-letter code ("SK").
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Stat::Sk => "SK",
            Stat::St => "ST",
            Stat::Ag => "AG",
            Stat::Tg => "TG",
            Stat::In => "IN",
            Stat::Wp => "WP",
            Stat::Ch => "CH",
            Stat::Cr => "CR",
        }
    }

    /// The English word ("skill").
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Stat::Sk => "skill",
            Stat::St => "strength",
            Stat::Ag => "agility",
            Stat::Tg => "toughness",
            Stat::In => "intelligence",
            Stat::Wp => "willpower",
            Stat::Ch => "charisma",
            Stat::Cr => "craft",
        }
    }
}

/// Damage types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DamageType {
    /// Cuts and bites; armour absorbs it.
    Normal,
    /// Blunt blows; armour absorbs half as well.
    Impact,
    /// Poison: bypasses armour; the undead and golems resist it entirely.
    Poison,
    /// Fire.
    Fire,
    /// Ice.
    Ice,
    /// Water.
    Water,
    /// Lightning: bypasses armour.
    Lightning,
    /// Acid.
    Acid,
}

impl DamageType {
    /// All of them.
    pub const ALL: [DamageType; 8] = [
        DamageType::Normal,
        DamageType::Impact,
        DamageType::Poison,
        DamageType::Fire,
        DamageType::Ice,
        DamageType::Water,
        DamageType::Lightning,
        DamageType::Acid,
    ];

    /// The name stored in data.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DamageType::Normal => "normal",
            DamageType::Impact => "impact",
            DamageType::Poison => "poison",
            DamageType::Fire => "fire",
            DamageType::Ice => "ice",
            DamageType::Water => "water",
            DamageType::Lightning => "lightning",
            DamageType::Acid => "acid",
        }
    }

    /// How much of armour counts against it, in percent.
    #[must_use]
    pub fn armour_percent(self) -> i32 {
        match self {
            DamageType::Normal => 100,
            DamageType::Impact => 50,
            DamageType::Fire | DamageType::Ice | DamageType::Acid | DamageType::Water => 25,
            DamageType::Poison | DamageType::Lightning => 0,
        }
    }
}

/// Where a weapon or armour piece goes. One item per slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// The weapon hand.
    Hand,
    /// Shields.
    OffHand,
    /// Helmets.
    Head,
    /// Body armour.
    Body,
    /// Gloves and gauntlets.
    Hands,
    /// Boots.
    Feet,
    /// Cloaks.
    Cloak,
    /// Amulets.
    Neck,
}

impl Slot {
    /// All slots.
    pub const ALL: [Slot; 8] = [
        Slot::Hand,
        Slot::OffHand,
        Slot::Head,
        Slot::Body,
        Slot::Hands,
        Slot::Feet,
        Slot::Cloak,
        Slot::Neck,
    ];

    /// The name stored in data.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Slot::Hand => "hand",
            Slot::OffHand => "off-hand",
            Slot::Head => "head",
            Slot::Body => "body",
            Slot::Hands => "hands",
            Slot::Feet => "feet",
            Slot::Cloak => "cloak",
            Slot::Neck => "neck",
        }
    }
}

/// A [`PropType`] stored as text through one of the type's naming methods (`name`, `code`), so
/// saves read "fire", not a number; a text that names no value of the type reads as the wrong
/// type, which the engine reports. The type needs an `ALL` array of its values.
macro_rules! stored_as_text {
    ($t:ty, $key:ident) => {
        impl PropType for $t {
            const KIND: ValueKind = ValueKind::Text;
            fn into_value(self) -> Value {
                Value::Text(Arc::from(self.$key()))
            }
            fn from_value(v: &Value) -> Option<Self> {
                match v {
                    Value::Text(t) => <$t>::ALL.into_iter().find(|x| x.$key() == &**t),
                    _ => None,
                }
            }
        }
    };
}

// Damage types and wield slots by name ("fire", "off-hand"), stats by code ("SK").
stored_as_text!(DamageType, name);
stored_as_text!(Stat, code);
stored_as_text!(Slot, name);

impl std::fmt::Display for DamageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How an Alchemy game stands: still playing, won (out with the Stone) or lost (died).
/// Stored in the [`OUTCOME`](super::props::OUTCOME) game variable as a number; any other
/// number reads as an error, never as a default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    /// The game goes on.
    Playing,
    /// The hero escaped with the Philosopher's Stone.
    Won,
    /// The hero died.
    Died,
}

impl Fate {
    /// "playing", "won" or "died" (for reports and JSON).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Playing => "playing",
            Fate::Won => "won",
            Fate::Died => "died",
        }
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(self) -> bool {
        self != Fate::Playing
    }
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl alembic::props::PropType for Fate {
    const KIND: alembic::props::ValueKind = alembic::props::ValueKind::Int;
    fn into_value(self) -> alembic::props::Value {
        alembic::props::Value::Int(match self {
            Fate::Playing => 0,
            Fate::Won => 1,
            Fate::Died => 2,
        })
    }
    fn from_value(v: &alembic::props::Value) -> Option<Self> {
        match v {
            alembic::props::Value::Int(0) => Some(Fate::Playing),
            alembic::props::Value::Int(1) => Some(Fate::Won),
            alembic::props::Value::Int(2) => Some(Fate::Died),
            _ => None,
        }
    }
}

/// A recipe, named by the potion it makes (its prototype name, `"potion of healing"`).
/// Serialised as that plain string, so recordings read `{"Craft":"potion of healing"}`.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct RecipeId(Arc<str>);

impl RecipeId {
    /// The recipe for the potion with this prototype name.
    #[must_use]
    pub fn new(potion: &str) -> Self {
        RecipeId(Arc::from(potion))
    }

    /// The potion's prototype name.
    #[must_use]
    pub fn potion(&self) -> &str {
        &self.0
    }
}

impl From<&str> for RecipeId {
    fn from(potion: &str) -> Self {
        RecipeId::new(potion)
    }
}

impl std::fmt::Display for RecipeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
