//! The object library: counts, hooks, and the original game's bugs fixed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic::{Game, props::Value};
use alembic_games::alchemy::{
    Rules,
    library::{base_library, counts, names_with, randomise},
    new_game,
    props::{
        APPEARANCE, FAMILY, GIVES_EFFECT, HIT_EFFECT_CHANCE, IS_CREATURE, IS_POTION, IS_UNDEAD,
        NAME, RECIPE,
    },
};

#[test]
fn counts_meet_the_issue() {
    let c = counts(&base_library().unwrap());
    assert!(c.creatures >= 34, "{c:?}");
    assert!(c.effects >= 40, "{c:?}");
    assert!(c.potions >= 39, "{c:?}");
    assert!(c.ingredients >= 7, "{c:?}");
    assert!(c.food >= 5, "{c:?}");
    assert!(c.weapons >= 12, "{c:?}");
    assert!(c.armour >= 12, "{c:?}");
    assert!(c.tiles >= 12, "{c:?}");
    assert!(
        c.doors >= 3 && c.decorations >= 4 && c.apparatus >= 2 && c.stairs >= 3,
        "{c:?}"
    );
}

/// The original Alchemy's 34 creatures, by family, exactly as it named them.
const SEED_ROSTER: [(&str, &[&str]); 8] = [
    ("bat", &["bat", "cave bat", "giant bat", "vampyre bat"]),
    ("bear", &["cave bear", "giant bear"]),
    ("rat", &["rat", "sewer rat", "giant rat", "demon rat"]),
    (
        "undead",
        &[
            "zombie",
            "ghast",
            "skeleton",
            "skeleton warrior",
            "wight",
            "skeleton hero",
            "vampyre",
            "spectre",
        ],
    ),
    (
        "goblinoid",
        &[
            "small goblin",
            "goblin",
            "orc",
            "black orc",
            "orc champion",
            "troll",
            "troll king",
        ],
    ),
    ("golem", &["golem", "immortal golem"]),
    (
        "snake",
        &[
            "grass snake",
            "snake",
            "red snake",
            "cobra",
            "king cobra",
            "wyrm",
        ],
    ),
    ("dragon", &["dragon"]),
];

#[test]
fn every_creature_of_the_seed_roster_is_present_in_its_family() {
    let lib = base_library().unwrap();
    let mut n = 0;
    for (family, names) in SEED_ROSTER {
        for name in names {
            let p = lib
                .get(name)
                .unwrap_or_else(|_| panic!("{name} is missing"));
            assert!(
                p.is(&IS_CREATURE) && !p.is_abstract(),
                "{name} is no creature"
            );
            assert_eq!(&*p.get(&FAMILY).unwrap(), family, "{name}");
            assert!(p.get(&alembic::library::LEVEL).unwrap() >= 1, "{name}");
            n += 1;
        }
    }
    assert_eq!(n, 34);
}

/// Within a family the roster is a ladder: a creature's threat (hit points, scaled up by
/// its resistance to ordinary blows, times its damage) is at least that of every creature
/// two or more levels shallower (neighbours may trade toughness for effects on hit).
#[test]
fn each_family_is_a_ladder_of_strength() {
    use alembic_games::alchemy::props::{ATT_DAMAGE, HPS_MAX, RES_NORMAL};
    let lib = base_library().unwrap();
    for (family, names) in SEED_ROSTER {
        let rungs: Vec<(i32, i32, &str)> = names
            .iter()
            .map(|n| {
                let p = lib.get(n).unwrap();
                let staying =
                    p.get(&HPS_MAX).unwrap() * 100 / (100 - p.get(&RES_NORMAL).unwrap().min(90));
                (
                    p.get(&alembic::library::LEVEL).unwrap(),
                    staying * p.get(&ATT_DAMAGE).unwrap(),
                    *n,
                )
            })
            .collect();
        for deep in &rungs {
            for shallow in rungs.iter().filter(|s| s.0 + 2 <= deep.0) {
                assert!(
                    deep.1 >= shallow.1,
                    "{family}: {} (level {}) is weaker than {} (level {})",
                    deep.2,
                    deep.0,
                    shallow.2,
                    shallow.0
                );
            }
        }
    }
}

#[test]
fn every_named_hook_is_registered_and_every_effect_exists() {
    let rules = Rules::new().unwrap();
    let game = new_game(3, &rules).unwrap();
    rules.hooks().check(&game).unwrap();
    let lib = game.library();
    for p in lib.prototypes() {
        if let Ok(e) = p.get(&GIVES_EFFECT) {
            assert!(lib.get(&e).is_ok(), "{} names unknown effect {e}", p.name());
        }
        if let Ok(e) = p.get(&alembic_games::alchemy::props::HIT_EFFECT) {
            assert!(lib.get(&e).is_ok(), "{} names unknown effect {e}", p.name());
        }
    }
}

#[test]
fn the_originals_bugs_are_fixed() {
    let lib = base_library().unwrap();
    // The undead flag is set on every undead kind.
    for name in [
        "zombie",
        "ghast",
        "skeleton",
        "skeleton warrior",
        "wight",
        "skeleton hero",
        "vampyre",
        "spectre",
    ] {
        assert!(lib.get(name).unwrap().is(&IS_UNDEAD), "{name}");
    }
    // On-hit chances are probabilities.
    for p in lib.prototypes().filter(|p| p.is(&IS_CREATURE)) {
        let c = p.get(&HIT_EFFECT_CHANCE).unwrap();
        assert!((0.0..=1.0).contains(&c), "{} has chance {c}", p.name());
    }
    assert_eq!(
        lib.get("adder").unwrap().get(&HIT_EFFECT_CHANCE).unwrap(),
        0.4
    );
    // One potion of confusion.
    let names: Vec<String> = names_with(&lib, &IS_POTION)
        .iter()
        .map(|n| lib.get(n).unwrap().get(&NAME).unwrap().to_string())
        .collect();
    assert_eq!(names.iter().filter(|n| n.contains("confusion")).count(), 1);
    let mut dedup = names.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), names.len(), "potion names are unique");
    // Enhanced regeneration gives the enhanced effect.
    assert_eq!(
        lib.get("potion of enhanced regeneration")
            .unwrap()
            .get(&GIVES_EFFECT)
            .unwrap()
            .as_ref(),
        "enhanced regenerating"
    );
    // Every creature belongs to a family.
    for p in lib
        .prototypes()
        .filter(|p| p.is(&IS_CREATURE) && !p.is_abstract())
    {
        assert!(p.get(&FAMILY).is_ok(), "{}", p.name());
    }
}

#[test]
fn each_game_draws_its_own_looks_and_distinct_recipes() {
    let mut a = base_library().unwrap();
    let mut b = base_library().unwrap();
    randomise(&mut a, Game::new(1).rng()).unwrap();
    randomise(&mut b, Game::new(2).rng()).unwrap();
    let potions = names_with(&a, &IS_POTION);
    let mut looks = Vec::new();
    let mut recipes = Vec::new();
    let mut differ = 0;
    for p in &potions {
        let la = a.get(p).unwrap().get(&APPEARANCE).unwrap();
        let lb = b.get(p).unwrap().get(&APPEARANCE).unwrap();
        differ += usize::from(la != lb);
        looks.push(la);
        let r: Vec<Value> = a.get(p).unwrap().get(&RECIPE).unwrap().to_vec();
        assert!((1..=3).contains(&r.len()));
        recipes.push(r);
    }
    looks.sort();
    looks.dedup();
    assert_eq!(
        looks.len(),
        potions.len(),
        "appearances are unique in a game"
    );
    let n = recipes.len();
    recipes.sort_by_key(|r| format!("{r:?}"));
    recipes.dedup();
    assert_eq!(recipes.len(), n, "recipes are unique in a game");
    assert!(differ > potions.len() / 2, "another seed gives other looks");
}
