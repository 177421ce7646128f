//! The object library: every creature, effect, potion, item, tile and feature of Alchemy,
//! proclaimed from parents (`"base …"` names are abstract).
//!
//! [`base_library`] builds the shared data once; [`randomise`] then gives each new game its
//! own potion appearances and recipes (they live inside the game value).

mod creatures;
mod effects;
mod items;
mod potions;
mod scenery;
mod tiles;

use std::sync::Arc;

use alembic::{Error, Library, Prop, Props, Rgb, library::ABSTRACT, props::Value, rng::GameRng};
use serde::Serialize;

use super::kinds::{DataError, data_fault};
use super::props::{
    APPEARANCE, IS_APPARATUS, IS_ARMOUR, IS_CREATURE, IS_DECORATION, IS_DOOR, IS_EFFECT, IS_FOOD,
    IS_HERB, IS_HERO, IS_INGREDIENT, IS_MUSHROOM, IS_POTION, IS_STAIRS, IS_STONE, IS_WEAPON, NAME,
    RECIPE,
};

pub use potions::{COLOURS, QUALITIES};

/// A colour from `0xRRGGBB`.
#[must_use]
pub const fn rgb(hex: u32) -> Rgb {
    Rgb::new((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// Properties with a display name.
pub(crate) fn named(name: &str) -> Props {
    Props::new().with(&NAME, Arc::from(name))
}

// TEMPORARY until the data files land: the code-built library stands in for them.
/// The shipped data (stand-in).
pub const DATA: &str = "";
/// The name errors in the shipped data are reported under.
pub const DATA_FILE: &str = "content/data/alchemy.toml";

/// Load the data (stand-in: the shipped data only).
///
/// # Errors
/// Mods are not possible yet.
pub fn load<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<alembic_data::Loaded, alembic_data::DataErrors> {
    let n = sources.into_iter().count();
    let lib = build().map_err(|e| {
        alembic_data::DataErrors(vec![alembic_data::DataError {
            file: DATA_FILE.into(),
            line: 1,
            column: 1,
            offset: 0,
            kind: alembic_data::ErrorKind::Invalid,
            key: None,
            message: e.to_string(),
            suggestion: None,
        }])
    })?;
    if n > 1 {
        return Err(alembic_data::DataErrors(vec![alembic_data::DataError {
            file: DATA_FILE.into(),
            line: 1,
            column: 1,
            offset: 0,
            kind: alembic_data::ErrorKind::Invalid,
            key: None,
            message: "no mods yet".into(),
            suggestion: None,
        }]));
    }
    Ok(alembic_data::Loaded { library: lib })
}

/// The shipped data files, `(file name, text)`, in load order (stand-in).
#[must_use]
pub fn data_files() -> Vec<(&'static str, &'static str)> {
    vec![(DATA_FILE, DATA)]
}

/// `lib` under the name and version saves refer to Alchemy's library by.
pub fn name_library(lib: Library) -> Library {
    lib.named("alchemy", 1)
}

/// The library shared by every game before per-game randomisation, built on each call
/// (no cache lives in a global; a new game builds it once).
pub fn base_library() -> Result<Library, Error> {
    build()
}

fn build() -> Result<Library, Error> {
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

/// Names of concrete prototypes with `flag`, sorted (deterministic).
#[must_use]
pub fn names_with(lib: &Library, flag: &Prop<bool>) -> Vec<Arc<str>> {
    lib.prototypes()
        .filter(|p| !p.is_abstract() && p.is(flag))
        .map(|p| Arc::from(p.name()))
        .collect()
}

/// Give this game's potions their appearances ("murky violet") and recipes (1–3 ingredients,
/// no two potions alike). Draws from `rng`, so the same seed gives the same game.
pub fn randomise(lib: &mut Library, rng: &mut GameRng) -> Result<(), Error> {
    let potions = names_with(lib, &IS_POTION);
    let ingredients = names_with(lib, &IS_INGREDIENT);
    let mut looks: Vec<String> = QUALITIES
        .iter()
        .flat_map(|q| COLOURS.iter().map(move |c| format!("{q} {c}")))
        .collect();
    let mut used: Vec<Vec<Arc<str>>> = Vec::new();
    for name in &potions {
        let i = rng
            .index(looks.len())
            .ok_or_else(|| data_fault(DataError::TooFewAppearances))?;
        let look = looks.swap_remove(i);
        lib.set_proto_prop_mut(name, &APPEARANCE, Arc::from(look.as_str()))?;
        if ingredients.is_empty() {
            continue;
        }
        // Draw until the recipe is new (there are far more recipes than potions).
        let mut recipe: Vec<Arc<str>> = Vec::new();
        for _ in 0..100 {
            let n = rng.range(1, 3) as usize;
            recipe = (0..n)
                .filter_map(|_| rng.index(ingredients.len()).map(|k| ingredients[k].clone()))
                .collect();
            recipe.sort();
            if !used.contains(&recipe) {
                break;
            }
        }
        used.push(recipe.clone());
        let list: Arc<[Value]> = recipe.iter().map(|r| Value::Text(r.clone())).collect();
        lib.set_proto_prop_mut(name, &RECIPE, list)?;
    }
    Ok(())
}

/// How many prototypes of each kind the library holds (abstract ones excluded).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LibraryCounts {
    /// Monster kinds (the hero excluded).
    pub creatures: usize,
    /// Effect kinds.
    pub effects: usize,
    /// Potion kinds.
    pub potions: usize,
    /// Ingredients (herbs and mushrooms).
    pub ingredients: usize,
    /// Of which herbs.
    pub herbs: usize,
    /// Of which mushrooms.
    pub mushrooms: usize,
    /// Food.
    pub food: usize,
    /// Weapons.
    pub weapons: usize,
    /// Armour pieces.
    pub armour: usize,
    /// Terrain tiles (the engine's "void" excluded).
    pub tiles: usize,
    /// Doors and gates.
    pub doors: usize,
    /// Decorations.
    pub decorations: usize,
    /// Apparatus.
    pub apparatus: usize,
    /// Stairs and the exit.
    pub stairs: usize,
    /// Unique items (the Philosopher's Stone).
    pub unique: usize,
}

impl LibraryCounts {
    /// The counts as `(category, count)` pairs, in this struct's order.
    #[must_use]
    pub fn pairs(&self) -> Vec<(&'static str, usize)> {
        vec![
            ("creatures", self.creatures),
            ("effects", self.effects),
            ("potions", self.potions),
            ("ingredients", self.ingredients),
            ("herbs", self.herbs),
            ("mushrooms", self.mushrooms),
            ("food", self.food),
            ("weapons", self.weapons),
            ("armour", self.armour),
            ("tiles", self.tiles),
            ("doors", self.doors),
            ("decorations", self.decorations),
            ("apparatus", self.apparatus),
            ("stairs", self.stairs),
            ("unique", self.unique),
        ]
    }
}

/// Count the library by category.
#[must_use]
pub fn counts(lib: &Library) -> LibraryCounts {
    let n = |f: &Prop<bool>| names_with(lib, f).len();
    let creatures = lib
        .prototypes()
        .filter(|p| !p.is_abstract() && p.is(&IS_CREATURE) && !p.is(&IS_HERO))
        .count();
    LibraryCounts {
        creatures,
        effects: n(&IS_EFFECT),
        potions: n(&IS_POTION),
        ingredients: n(&IS_INGREDIENT),
        herbs: n(&IS_HERB),
        mushrooms: n(&IS_MUSHROOM),
        food: n(&IS_FOOD),
        weapons: n(&IS_WEAPON),
        armour: n(&IS_ARMOUR),
        tiles: lib.tiles().count().saturating_sub(1),
        doors: n(&IS_DOOR),
        decorations: n(&IS_DECORATION),
        apparatus: n(&IS_APPARATUS),
        stairs: n(&IS_STAIRS),
        unique: n(&IS_STONE),
    }
}
