//! Upgrading from 0.1 without silent changes: a game value written with 0.1's key names and
//! name rule comes back migrated (keys renamed, "base …" abstract, actors queued) and plays;
//! and the library's warnings catch what a port would otherwise miss.

#![allow(clippy::unwrap_used)]

use alembic::hook::{HookCall, ON_ACTION};
use alembic::library::{ABSTRACT, LEVEL, LibraryWarning};
use alembic::props::Hook;
use alembic::save::{SavedGame, written_state_hash};
use alembic::schedule::{NORMAL_ACTION, SPEED, TurnEnd};
use alembic::{Error, Game, HookCtx, Hooks, Library, Loc, Prop, Props, Thing};

const MOVES: Prop<i32> = Prop::with_default("moves", 0);

fn count(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let n = g.query(call.this, &MOVES)?;
    g.set_mut(call.this, &MOVES, n + 1)
}

/// A 0.1 game as JSON: written by today's engine, then given 0.1's spellings (the five
/// engine keys without their namespace, no key-name generation, no actor queue, and a
/// "base monster" that only its name made abstract).
fn written_by_0_1() -> String {
    let lib = Library::new()
        .named("port", 1)
        .proclaim(
            "base monster",
            None,
            Props::new().with(&SPEED, 100).with(&LEVEL, 2),
        )
        .unwrap()
        .proclaim(
            "orc",
            Some("base monster"),
            Props::new()
                .with(&ON_ACTION, Hook::new("count"))
                .with(&SPEED, 200),
        )
        .unwrap();
    let mut g = Game::new(5).with_library(lib);
    let hero = Thing::new(Props::new());
    g.add_thing_mut(Loc::new(0, 0, 0), hero).unwrap();
    let orc = g.library().create("orc").unwrap();
    g.add_thing_mut(Loc::new(3, 0, 0), orc).unwrap();
    let mut json = serde_json::to_string(&g).unwrap();
    for (new, old) in [
        ("alembic.speed", "speed"),
        ("alembic.level", "level"),
        ("alembic.on_action", "on_action"),
    ] {
        json = json.replace(&format!("\"{new}\""), &format!("\"{old}\""));
    }
    assert!(json.contains("\"key_names\":2"));
    json.replace(",\"key_names\":2", "")
}

#[test]
fn a_0_1_game_loads_migrated_and_its_monsters_act() {
    let json = written_by_0_1();
    assert!(json.contains("\"speed\"") && !json.contains("alembic."));
    let g: Game = serde_json::from_str(&json).unwrap();
    g.check_invariants().unwrap();
    let orc = g
        .things()
        .iter()
        .find(|t| t.proto() == Some("orc"))
        .and_then(Thing::id)
        .unwrap();
    // Keys renamed: the engine reads the orc's speed again.
    assert_eq!(g.query(orc, &SPEED).unwrap(), 200);
    assert_eq!(
        g.library()
            .get("base monster")
            .unwrap()
            .get(&LEVEL)
            .unwrap(),
        2
    );
    // "base monster" stays abstract, as its name made it in 0.1.
    assert!(g.library().get("base monster").unwrap().is_abstract());
    assert!(g.library().create("base monster").is_err());
    // The orc, which takes turns, is queued, so it acts.
    assert_eq!(g.schedule().actors().collect::<Vec<_>>(), [orc]);
    let hooks = Hooks::new().register("count", count).unwrap();
    let mut ctx = HookCtx::new(&hooks);
    let hero = g.things().at(Loc::new(0, 0, 0))[0];
    let mut g = g;
    for _ in 0..3 {
        assert_eq!(
            g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, |_| false)
                .unwrap(),
            TurnEnd::Ready
        );
    }
    assert_eq!(
        g.query(orc, &MOVES).unwrap(),
        6,
        "speed 200: two moves a turn"
    );
    // The checksum a 0.1 game wrote (its state hash then) is still checkable.
    let unmigrated_hash = written_state_hash(&json).unwrap();
    let migrated: Game = serde_json::from_str(&json).unwrap();
    assert_ne!(unmigrated_hash, migrated.state_hash());
    // Through the save path too (format 1 is a whole game), onto today's library.
    let today = migrated.library().clone();
    let linked = SavedGame::from_json(&json, &today)
        .unwrap()
        .link(&today, &hooks)
        .unwrap();
    assert_eq!(linked.query(orc, &SPEED).unwrap(), 200);
    assert_eq!(linked.schedule().actors().count(), 1);
}

#[test]
fn a_base_prototype_with_children_that_is_not_abstract_is_reported() {
    let lib = Library::new()
        .proclaim("base monster", None, Props::new())
        .unwrap()
        .proclaim("rat", Some("base monster"), Props::new())
        .unwrap()
        .proclaim("goblin", Some("base monster"), Props::new())
        .unwrap();
    let w = lib.warnings();
    assert_eq!(
        w,
        [LibraryWarning::BaseNotAbstract {
            prototype: "base monster".into(),
            children: 2
        }]
    );
    assert!(
        w[0].to_string()
            .contains("add `.with(&alembic::library::ABSTRACT, true)`")
    );
    // A game built on it fails its invariants, so the port's tests notice.
    let g = Game::new(1).with_library(lib.clone());
    assert!(
        g.check_invariants()
            .unwrap_err()
            .to_string()
            .contains("base monster")
    );
    let mut fixed = lib.clone();
    fixed
        .set_proto_prop_mut("base monster", &ABSTRACT, true)
        .unwrap();
    assert!(fixed.warnings().is_empty());
    Game::new(1).with_library(fixed).check_invariants().unwrap();
}

#[test]
fn engine_keys_of_the_wrong_kind_or_old_names_are_reported() {
    const BAD_SPEED: Prop<bool> = Prop::with_default("alembic.speed", true);
    const TYPO: Prop<i32> = Prop::with_default("alembic.sped", 1);
    const OLD_LEVEL: Prop<i32> = Prop::with_default("level", 3);
    let lib = Library::new()
        .proclaim("a", None, Props::new().with(&BAD_SPEED, true))
        .unwrap()
        .proclaim("b", None, Props::new().with(&TYPO, 1))
        .unwrap()
        .proclaim("c", None, Props::new().with(&OLD_LEVEL, 3))
        .unwrap();
    let text: Vec<String> = lib.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "prototype \"a\" sets alembic.speed, which the engine reads as an integer, to a flag (true/false)",
            "prototype \"b\" sets alembic.sped, but the engine has no key \"sped\"",
            "prototype \"c\" sets \"level\", the engine's name for it before 0.2; the engine reads \"alembic.level\" now",
        ]
    );
    // The old name is only a warning (a game may mean its own key by it).
    let errors: Vec<bool> = lib
        .warnings()
        .iter()
        .map(LibraryWarning::is_error)
        .collect();
    assert_eq!(errors, [true, true, false]);
}
