//! Caves saves by reference: the library by name and version, creatures as differences from
//! their prototypes, the scheduler's queue kept; version 1 saves (the whole value) still load.

use alembic::{Dir, schedule::SPEED};
use alembic_games::caves::{self, Command, save};

/// A version 1 save written by the build before saves by reference and the scheduler
/// (`new_game_with_levels(11, 2)`, six moves and a wait).
const V1: &str = include_str!("fixtures/caves-v1.save");

#[test]
fn a_version_1_save_loads_onto_this_builds_library_and_plays() {
    let mut g = save::from_text(V1).unwrap();
    assert_eq!(g.turn(), 7);
    assert_eq!(&*g.library().id().name, caves::LIBRARY_NAME);
    g.check_invariants().unwrap();
    // Today's prototypes reach the old creatures: zombies are slow by speed now.
    let zombies: Vec<_> = g
        .things()
        .iter()
        .filter(|t| t.proto() == Some("zombie"))
        .filter_map(alembic::Thing::id)
        .collect();
    assert!(!zombies.is_empty());
    for z in &zombies {
        assert_eq!(g.query(*z, &SPEED).unwrap(), 50);
    }
    // The old save had no actor queue: the engine's 0.2 migration queues every thing that
    // takes turns, so the monsters act; the first turn puts the other levels to sleep.
    let takes_turns = |g: &alembic::Game, ids: Vec<alembic::ThingId>| {
        ids.into_iter()
            .filter(|&id| g.schedule().takes_turns(id))
            .count()
    };
    let everyone: Vec<_> = g.things().iter().filter_map(alembic::Thing::id).collect();
    assert!(takes_turns(&g, everyone.clone()) > 0);
    assert_eq!(g.schedule().actors().count(), takes_turns(&g, everyone));
    let p = caves::player(&g).unwrap();
    assert!(caves::act_mut(&mut g, Command::Wait).unwrap());
    assert!(g.schedule().is_scheduled(p));
    let z = g.things().location(p).unwrap().z;
    assert_eq!(
        g.schedule().actors().count(),
        takes_turns(&g, caves::creatures_on(&g, z)) + 1,
        "exactly the player and the monsters of the player's level are queued"
    );
    g.check_invariants().unwrap();
}

#[test]
fn a_save_names_the_library_and_keeps_the_queue() {
    let mut g = caves::new_game_with_levels(5, 2).unwrap();
    for d in [Dir::East, Dir::West, Dir::South] {
        caves::act_mut(&mut g, Command::Move(d)).unwrap();
    }
    let text = save::to_text(&g).unwrap();
    // By reference: no prototype definition (their hook names) is written.
    assert!(!text.contains("caves.zombie"), "the library is not copied");
    assert!(text.contains(&format!("\"version\":{}", save::SAVE_VERSION)));
    let back = save::from_text(&text).unwrap();
    assert_eq!(back.state_hash(), g.state_hash());
    assert_eq!(
        back.schedule().actors().collect::<Vec<_>>(),
        g.schedule().actors().collect::<Vec<_>>()
    );
    // Same commands after the load, same game.
    let (mut a, mut b) = (g, back);
    for _ in 0..20 {
        caves::act_mut(&mut a, Command::Wait).unwrap();
        caves::act_mut(&mut b, Command::Wait).unwrap();
    }
    assert_eq!(a.state_hash(), b.state_hash());
}

#[test]
fn bad_saves_are_refused_with_their_reason() {
    let other = V1.replacen("\"game\":\"caves\"", "\"game\":\"alchemy\"", 1);
    assert!(matches!(
        save::from_text(&other),
        Err(save::CavesSaveError::WrongGame(g)) if g == "alchemy"
    ));
    let newer = V1.replacen("\"version\":1", "\"version\":9", 1);
    assert!(matches!(
        save::from_text(&newer),
        Err(save::CavesSaveError::WrongVersion(9))
    ));
    let g = caves::new_game_with_levels(5, 1).unwrap();
    let text = save::to_text(&g)
        .unwrap()
        .replacen("\"turn\":0", "\"turn\":1", 1);
    assert!(matches!(
        save::from_text(&text),
        Err(save::CavesSaveError::Checksum)
    ));
    assert!(matches!(
        save::from_text("{\"game\":"),
        Err(save::CavesSaveError::Corrupt(_))
    ));
}

/// A version 1 save links onto this build's library, and is then held to it: a creature
/// whose hit points are text where the library declares an integer is refused, with a
/// sentence, and the file is left as it was.
#[test]
fn a_version_1_save_that_disagrees_with_the_library_is_refused() {
    let mut v: serde_json::Value = serde_json::from_str(V1).unwrap();
    let things = v["state"]["things"].as_array_mut().unwrap();
    let lichen = things
        .iter_mut()
        .find(|t| t["proto"] == "lichen")
        .expect("a lichen in the fixture");
    lichen["props"]["hp"] = serde_json::json!({"Text": "six"});
    let state = serde_json::to_string(&v["state"]).unwrap();
    v["checksum"] = serde_json::json!(alembic::save::written_state_hash(&state).unwrap());
    let text = serde_json::to_string(&v).unwrap();
    let dir = std::env::temp_dir().join(format!("alembic-caves-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("caves.save");
    std::fs::write(&path, &text).unwrap();
    let said = save::load(&path).unwrap_err().to_string();
    assert!(
        said.contains("disagrees with this build's library")
            && said.contains("holds `hp` as a text")
            && !said.contains('\n'),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "untouched");
    // The unedited fixture, resealed the same way, still loads: the edit is what is refused.
    let mut v: serde_json::Value = serde_json::from_str(V1).unwrap();
    let state = serde_json::to_string(&v["state"]).unwrap();
    v["checksum"] = serde_json::json!(alembic::save::written_state_hash(&state).unwrap());
    assert!(save::from_text(&serde_json::to_string(&v).unwrap()).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
