//! Saves edited by hand (and resealed, so that the checksum passes) that load but could not
//! be played or saved: each is refused on load with a sentence, or plays and saves like any
//! other game (issue 57).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::hash::StableHasher;
use alembic::{Dir, Game, HookCtx, Place};
use alembic_games::alchemy::props::{HERO, HPS, HPS_MAX, IS_CREATURE, IS_HERO, TG};
use alembic_games::alchemy::{Command, RuleError, Rules, apply, new_game, save};
use alembic_games::caves::Caves;
use alembic_games::rats::{self, Rats};
use alembic_session::ruleset::Goal;
use alembic_session::run::{Run, Step};
use alembic_session::{Journeys, Ruleset};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-edited-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ----- rats: the hero variable ---------------------------------------------------------------

/// A rats game a few turns in, saved at `dir/rats.save` by the session.
fn rats_save(dir: &Path) -> PathBuf {
    let path = dir.join("rats.save");
    let mut run = Run::new_game(Arc::new(Rats::new().unwrap()), 5, false, false).unwrap();
    run.begin(Some(path.clone()));
    for _ in 0..3 {
        run.play(&Step::Play(rats::Command::Wait)).unwrap();
    }
    run.save().unwrap();
    path
}

/// The session envelope's text with its state edited by `f` and its checksum recomputed as
/// the session computes it (the seed, each mode and a zero, the state's bytes): a crafted
/// save, which only the loader's own checks can refuse.
fn reseal_session(text: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    f(&mut v["state"]);
    let state = serde_json::to_string(&v["state"]).unwrap();
    let mut h = StableHasher::new();
    h.write_u64(v["seed"].as_u64().unwrap());
    for m in v["modes"].as_array().unwrap() {
        h.write(m.as_str().unwrap().as_bytes());
        h.write_u8(0);
    }
    h.write(state.as_bytes());
    v["checksum"] = serde_json::json!(h.finish());
    serde_json::to_string(&v).unwrap()
}

/// The object of the game's variables in a saved state, wherever the format keeps it.
fn vars(state: &mut serde_json::Value) -> &mut serde_json::Map<String, serde_json::Value> {
    fn find(v: &mut serde_json::Value) -> Option<&mut serde_json::Value> {
        match v {
            serde_json::Value::Object(m) => {
                if m.get("vars").is_some_and(|x| x.get("rats.hero").is_some()) {
                    return m.get_mut("vars");
                }
                m.values_mut().find_map(find)
            }
            serde_json::Value::Array(a) => a.iter_mut().find_map(find),
            _ => None,
        }
    }
    find(state)
        .and_then(serde_json::Value::as_object_mut)
        .expect("the saved state keeps rats.hero among its variables")
}

/// An edit of a saved state.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// Load the edited rats save at `path` as the session does; the error's sentence.
fn rats_refusal(path: &Path) -> String {
    match Run::load(Arc::new(Rats::new().unwrap()), path) {
        Ok((mut run, _)) => {
            let moved = run.play(&Step::Play(rats::Command::Wait)).err();
            panic!(
                "the edited save loaded (and a move then said {:?})",
                moved.map(|e| e.to_string())
            )
        }
        Err(e) => e.to_string(),
    }
}

/// A rats save whose hero variable is renamed, or names nothing, or names a rat, is refused
/// when it is loaded, in one sentence that says so; the file is left as it was. The
/// unedited save, resealed the same way, loads and plays.
#[test]
fn a_rats_save_without_its_hero_is_refused_on_load() {
    let d = scratch("rats-hero");
    let path = rats_save(&d);
    let text = std::fs::read_to_string(&path).unwrap();
    let same = reseal_session(&text, |_| {});
    std::fs::write(&path, &same).unwrap();
    let (mut run, _) = Run::load(Arc::new(Rats::new().unwrap()), &path).unwrap();
    run.play(&Step::Play(rats::Command::Wait)).unwrap();

    let rat = {
        let rules = Rats::new().unwrap();
        let g = rules.load_text(&text).unwrap().game;
        let rat = g
            .things()
            .iter()
            .find(|t| t.proto() == Some("rat"))
            .expect("a rat in the maze");
        serde_json::json!({ "Thing": rat.id().unwrap().0 })
    };
    let edits: [(&str, Edit); 3] = [
        (
            "renamed",
            Box::new(|s| {
                let vars = vars(s);
                let hero = vars.remove("rats.hero").unwrap();
                vars.insert("rats.hera".into(), hero);
            }),
        ),
        (
            "names nothing",
            Box::new(|s| {
                vars(s).insert("rats.hero".into(), serde_json::json!({ "Thing": 99_999 }));
            }),
        ),
        (
            "names a rat",
            Box::new(move |s| {
                vars(s).insert("rats.hero".into(), rat.clone());
            }),
        ),
    ];
    for (what, edit) in edits {
        let edited = reseal_session(&text, edit);
        std::fs::write(&path, &edited).unwrap();
        let said = rats_refusal(&path);
        assert!(
            said.contains("rats save") && said.contains("hero") && !said.contains('\n'),
            "{what}: {said}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited, "{what}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ----- Alchemy: hit points at the edge of i32 ------------------------------------------------

/// A real game a few turns in.
fn alchemy_game(seed: u64) -> (Game, Rules) {
    let rules = Rules::new().unwrap();
    let mut g = new_game(seed, &rules).unwrap();
    for d in [Dir::East, Dir::South, Dir::West] {
        if let Ok(o) = apply(&g, &rules, Command::Move(d)) {
            g = o.game;
        }
    }
    (g, rules)
}

/// A monster's (not only the hero's) hit points of 2147483647 are refused when the save is
/// loaded, in a sentence that names the value; the game as it was still loads.
#[test]
fn an_alchemy_save_with_a_monster_of_i32_max_hit_points_is_refused() {
    let (g, rules) = alchemy_game(21);
    let monster = g
        .things()
        .iter()
        .find(|t| t.is(&IS_CREATURE) && !t.is(&IS_HERO))
        .and_then(alembic::Thing::id)
        .expect("a monster");
    for key in [&HPS_MAX, &HPS] {
        let mut edited = g.clone();
        edited.set_mut(monster, &HPS_MAX, i32::MAX).unwrap();
        if key.name() == HPS.name() {
            edited.set_mut(monster, &HPS, i32::MAX).unwrap();
        }
        let text =
            save::to_text_with_modes(&edited, &alembic_session::Modes::none(), &rules).unwrap();
        let said = match save::from_text(&text, &rules) {
            Ok(_) => panic!("a monster with {} = {} loaded", key.name(), i32::MAX),
            Err(e) => e.to_string(),
        };
        assert!(
            said.contains("2147483647") && said.contains("hit points") && !said.contains('\n'),
            "{said}"
        );
    }
    let text = save::to_text_with_modes(&g, &alembic_session::Modes::none(), &rules).unwrap();
    assert_eq!(save::from_text(&text, &rules).unwrap(), g);
}

/// The largest hit points a save may hold, and a toughness of 2147483647 (which no check
/// bounds), meet a potion of health gain: the hit points grow or stay, they never wrap
/// round (nor panic, in a debug build) nor pass what a save holds, so the game the potion
/// leaves is written and loads back.
#[test]
fn a_potion_of_health_gain_at_the_edge_of_the_range_does_not_overflow() {
    let (mut g, rules) = alchemy_game(22);
    let hero = g.var(&HERO).unwrap();
    g.set_mut(hero, &TG, i32::MAX).unwrap();
    g.set_mut(hero, &HPS_MAX, 1_000_000).unwrap();
    g.set_mut(hero, &HPS, 1_000_000).unwrap();
    // The largest the loader takes still loads.
    let text = save::to_text_with_modes(&g, &alembic_session::Modes::none(), &rules).unwrap();
    let mut g = save::from_text(&text, &rules).unwrap();
    let potion = g
        .spawn_mut(
            &mut HookCtx::new(rules.hooks()),
            "potion of health gain",
            Place::In(hero),
        )
        .unwrap();
    let out = match apply(&g, &rules, Command::Quaff(potion)) {
        Ok(o) => o.game,
        Err(RuleError::Engine(e)) => panic!("engine error: {e}"),
        Err(e) => panic!("refused: {e}"),
    };
    let (hps, max) = (
        out.query(hero, &HPS).unwrap(),
        out.query(hero, &HPS_MAX).unwrap(),
    );
    assert!(max >= 1_000_000 && hps >= 1_000_000, "{hps}/{max}");
    // The game the rules made is one a save holds: it is written, and loads back.
    let contract = alembic_games::alchemy::ui::ruleset::Alchemy::on(rules.clone()).unwrap();
    let text = contract
        .save_text(&out, 0, &alembic_session::Modes::none())
        .unwrap();
    assert_eq!(save::from_text(&text, &rules).unwrap(), out);
}

// ----- Caves: a cave with no creature but the player -----------------------------------------

/// A Caves save with every creature but the player deleted loads, and plays: explore, a
/// move, a save and a load all work (an empty cave is a game like any other).
#[test]
fn a_caves_save_with_no_creature_but_the_player_plays() {
    let d = scratch("caves-empty");
    let path = d.join("caves.save");
    let caves = Arc::new(Caves::new().unwrap());
    let mut g = caves.new_game(8).unwrap();
    let player = alembic_games::caves::player(&g).unwrap();
    let others: Vec<_> = g
        .things()
        .iter()
        .filter(|t| t.id() != Some(player) && matches!(t.place(), Some(Place::Map(_))))
        .filter(|t| t.get(&alembic_games::caves::HP).is_ok())
        .filter_map(alembic::Thing::id)
        .collect();
    assert!(!others.is_empty(), "the cave had creatures");
    for t in others {
        g.remove_thing_mut(t).unwrap();
    }
    std::fs::write(
        &path,
        caves
            .save_text(&g, 8, &alembic_session::Modes::none())
            .unwrap(),
    )
    .unwrap();

    let (mut run, _) = Run::load(caves.clone(), &path).unwrap();
    let mut explored = 0;
    for _ in 0..40 {
        let Some(dir) = caves.route(run.game(), Goal::Explore) else {
            break;
        };
        let step = caves.step(dir).expect("a step");
        run.play(&Step::Play(step)).unwrap();
        explored += 1;
    }
    assert!(explored > 0, "explore found somewhere to go");
    let wait = caves.wait().expect("a wait");
    run.play(&Step::Play(wait)).unwrap();
    let (turn, hash) = (run.game().turn(), run.game().state_hash());
    run.save().unwrap();
    drop(run);
    let (back, _) = Run::load(caves, &path).unwrap();
    assert_eq!((back.game().turn(), back.game().state_hash()), (turn, hash));
    let _ = std::fs::remove_dir_all(&d);
}
