//! The object library: every creature, effect, potion, item, tile and feature of Alchemy,
//! read from the data file `games/alchemy/data/alchemy.toml` (compiled in) through
//! [`alembic_data`] against Alchemy's [`schema`]. Everything a thing *is* lives there, in
//! named fields with parents (`"base …"` names are abstract); everything it *does* is a hook
//! named by its prototype and registered in the game's [`Rules`](super::Rules).
//!
//! [`base_library`] loads the shipped data on each call; [`randomise`] then gives each new
//! game its own potion appearances and recipes (they live inside the game value).

mod schema;

use std::sync::Arc;

use alembic::{Error, Library, Prop, props::Value, rng::GameRng};
use alembic_data::{DataErrors, Loaded, Loader};
use serde::Serialize;

pub use super::kinds::DataError;
use super::kinds::data_fault;
use super::props::{
    APPEARANCE, IS_APPARATUS, IS_ARMOUR, IS_CREATURE, IS_DECORATION, IS_DOOR, IS_EFFECT, IS_FOOD,
    IS_HERB, IS_HERO, IS_INGREDIENT, IS_MUSHROOM, IS_POTION, IS_STAIRS, IS_STONE, IS_WEAPON,
    RECIPE,
};

pub use schema::schema;

/// The name saves refer to Alchemy's library by (see `alembic::save::SavedGame`).
pub const LIBRARY_NAME: &str = "alchemy";
/// The library's version: raised when a change to it needs old saves migrated.
pub const LIBRARY_VERSION: u32 = 1;

/// Alchemy's data, as shipped: `games/alchemy/data/alchemy.toml`.
pub const DATA: &str = include_str!("../../data/alchemy.toml");
/// The name errors in the shipped data are reported under.
pub const DATA_FILE: &str = "games/alchemy/data/alchemy.toml";

/// Adjectives of potion appearances.
pub(crate) const QUALITIES: [&str; 10] = [
    "murky",
    "bubbling",
    "fizzy",
    "cloudy",
    "glowing",
    "oily",
    "smoky",
    "sparkling",
    "thick",
    "clear",
];
/// Colours of potion appearances.
pub(crate) const COLOURS: [&str; 10] = [
    "violet", "crimson", "amber", "green", "blue", "silver", "black", "golden", "pink", "white",
];

/// Alchemy's data read from `sources` (name and text, the shipped data first, then mods),
/// checked against [`schema`] and the hook names the game's [`Rules`](super::Rules)
/// register.
///
/// # Errors
/// Every mistake of every source, with its place.
pub fn load<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Loaded, DataErrors> {
    let schema = schema();
    // The registry cannot fail to build: its names are the distinct names of the closed set
    // `Behaviour` (a test in `hooks` registers every one). Were it to fail, hook names would
    // go unchecked here and `Hooks::check` would still refuse a stranger.
    let hooks = super::hooks::build().ok();
    let mut loader = Loader::new(&schema);
    if let Some(h) = &hooks {
        loader = loader.hooks(h.names());
    }
    for (name, text) in sources {
        loader = loader.source(name, text);
    }
    loader.load()
}

/// The library a game plays with, from loaded data (the shipped data, perhaps with mods):
/// named [`LIBRARY_NAME`] version [`LIBRARY_VERSION`], before per-game [`randomise`].
pub fn library_from(loaded: &Loaded) -> Library {
    loaded.library.clone().named(LIBRARY_NAME, LIBRARY_VERSION)
}

/// The shipped data files, `(file name, text)`, in load order: what a `--data` directory
/// replaces (copy them there to change them).
#[must_use]
pub fn data_files() -> Vec<(&'static str, &'static str)> {
    vec![(DATA_FILE, DATA)]
}

/// The library shared by every game before per-game randomisation, loaded from the shipped
/// data on each call (no cache lives in a global; a new game builds it once).
///
/// # Errors
/// [`Error::Msg`] with every data error, one a line (none for the shipped data: a test
/// loads it).
pub fn base_library() -> Result<Library, Error> {
    load([(DATA_FILE, DATA)])
        .map(|l| library_from(&l))
        .map_err(|e| Error::Msg(Arc::from(e.to_string())))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::{FAMILY, FG, HPS, HPS_MAX, IS_CREATURE};
    use alembic::Rgb;

    /// Hue (0–360), saturation and value (0–1) of `c`.
    fn hsv(c: Rgb) -> (f64, f64, f64) {
        let (r, g, b) = (
            f64::from(c.r) / 255.0,
            f64::from(c.g) / 255.0,
            f64::from(c.b) / 255.0,
        );
        let max = r.max(g).max(b);
        let d = max - r.min(g).min(b);
        let h = if d == 0.0 {
            0.0
        } else if max == r {
            60.0 * ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / d + 2.0)
        } else {
            60.0 * ((r - g) / d + 4.0)
        };
        (h, if max == 0.0 { 0.0 } else { d / max }, max)
    }

    #[test]
    fn every_monster_is_saturated_and_families_differ_in_hue() {
        let lib = base_library().expect("library");
        let mut families: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
        for p in lib.prototypes() {
            let family = p.get(&FAMILY).map(|f| f.to_string()).unwrap_or_default();
            if p.is_abstract() || !p.is(&IS_CREATURE) || family == "hero" {
                continue;
            }
            let fg = p.get(&FG).expect("colour");
            let (h, s, v) = hsv(fg);
            assert!(
                s >= 0.45 && v >= 0.55,
                "{}: {fg:?} is dull (s {s:.2}, v {v:.2})",
                p.name()
            );
            families.entry(family).or_default().push(h);
        }
        assert!(families.len() >= 7, "{families:?}");
        // Family hues (the mean of their kinds') are at least 20 degrees apart.
        let means: Vec<(&String, f64)> = families
            .iter()
            .map(|(f, hs)| (f, hs.iter().sum::<f64>() / hs.len() as f64))
            .collect();
        for (i, (fa, a)) in means.iter().enumerate() {
            for (fb, b) in &means[i + 1..] {
                let d = (a - b).abs().min(360.0 - (a - b).abs());
                assert!(d >= 20.0, "{fa} ({a:.0}) and {fb} ({b:.0}) look alike");
            }
        }
        // The check can fail: the old rat beside the old bat.
        let (rat, bat) = (
            hsv(Rgb::new(0xB0, 0xA0, 0x90)),
            hsv(Rgb::new(0x80, 0x60, 0x40)),
        );
        assert!(rat.1 < 0.45 || (rat.0 - bat.0).abs() < 20.0);
    }

    /// Every concrete creature starts unhurt: the data writes hps and hps_max apart, and a
    /// monster given only one would start hurt or with a single hit point.
    #[test]
    fn every_creature_starts_with_its_full_hit_points() {
        let lib = base_library().unwrap();
        let mut n = 0;
        for p in lib.concrete().filter(|p| p.is(&IS_CREATURE)) {
            assert_eq!(p.get(&HPS), p.get(&HPS_MAX), "{}", p.name());
            assert!(p.get(&HPS).unwrap() > 1, "{}", p.name());
            n += 1;
        }
        assert_eq!(n, 46);
        let bad = load([
            (DATA_FILE, DATA),
            ("mod.toml", "[proto.rat]\nextend = true\nhps = 9\n"),
        ])
        .unwrap();
        let rat = bad.library.get("rat").unwrap();
        assert_ne!(rat.get(&HPS), rat.get(&HPS_MAX));
    }

    #[test]
    fn a_mod_changes_alchemy_and_bad_data_changes_nothing() {
        let modded = load([
            (DATA_FILE, DATA),
            (
                "mod.toml",
                "[proto.\"cave bat\"]\nextend = true\nhps = 9\nhps_max = 9\n",
            ),
        ])
        .unwrap();
        let bat = modded.library.get("cave bat").unwrap();
        // Changed where the mod says, inherited where it does not.
        assert_eq!(
            (bat.get(&HPS), bat.get(&alembic::schedule::SPEED)),
            (Ok(9), Ok(150))
        );
        let shipped = load([(DATA_FILE, DATA)]).unwrap();
        assert_ne!(modded.hash(), shipped.hash());
        assert_eq!(library_from(&shipped), base_library().unwrap());
        let bad = load([
            (DATA_FILE, DATA),
            (
                "mod.toml",
                "[proto.\"potion of healing\"]\nextend = true\non_consume = \"potion_hael\"\n",
            ),
        ])
        .unwrap_err();
        assert_eq!(
            bad.to_string(),
            "mod.toml:3:14: \"on_consume\" names hook \"potion_hael\", which is not registered; did you mean \"potion_heal\"?"
        );
    }
}
