//! Helpers shared by the Alchemy tests: a small walled arena with the real library.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(dead_code)]

use alembic::{Game, HookCtx, Loc, LocBox, Place, ThingId};
use alembic_games::alchemy::{
    Command, Event, Rules, apply,
    library::{base_library, randomise},
    props::{HERO, IS_WIELDED},
    rules::{hero_view, remember},
};

/// Level of the arena.
pub const Z: i32 = -1;

/// A 15 × 9 room of floor walled in, on level −1, with the hero (no items) at (0, 0).
pub fn arena(seed: u64) -> (Game, Rules, ThingId) {
    let rules = Rules::new().expect("rules");
    let mut game = Game::new(seed);
    let mut lib = base_library().expect("library");
    randomise(&mut lib, game.rng()).expect("randomise");
    game = game.with_library(lib);
    let wall = game.library().tile_id("wall").unwrap();
    let floor = game.library().tile_id("floor").unwrap();
    game.fill_tiles_mut(LocBox::rect(-8, -5, 17, 11, Z), wall)
        .unwrap();
    game.fill_tiles_mut(LocBox::rect(-7, -4, 15, 9, Z), floor)
        .unwrap();
    let hero = game
        .spawn_mut(
            &mut HookCtx::new(rules.hooks()),
            "you",
            Place::Map(Loc::new(0, 0, Z)),
        )
        .unwrap();
    game.set_var_mut(&HERO, hero);
    let view = hero_view(&game).unwrap();
    remember(&mut game, &view);
    (game, rules, hero)
}

/// Put a creature of `kind` at (x, y).
pub fn put(game: &mut Game, rules: &Rules, kind: &str, x: i32, y: i32) -> ThingId {
    game.spawn_mut(
        &mut HookCtx::new(rules.hooks()),
        kind,
        Place::Map(Loc::new(x, y, Z)),
    )
    .unwrap()
}

/// Give the hero an item of `kind`.
pub fn give(game: &mut Game, hero: ThingId, kind: &str) -> ThingId {
    let t = game.library().create(kind).unwrap();
    game.add_thing_mut(hero, t).unwrap()
}

/// Give the hero an item and wield it.
pub fn wield(game: &mut Game, hero: ThingId, kind: &str) -> ThingId {
    let t = game.library().create(kind).unwrap().with(&IS_WIELDED, true);
    game.add_thing_mut(hero, t).unwrap()
}

/// A location on the arena's level.
pub fn at(x: i32, y: i32) -> Loc {
    Loc::new(x, y, Z)
}

/// Apply `cmd`, check the invariants, and return the new game; panics if the rules refuse.
pub fn run(game: &Game, rules: &Rules, cmd: Command) -> Game {
    match apply(game, rules, cmd) {
        Ok(o) => {
            o.game.check_invariants().expect("invariants");
            o.game
        }
        Err(e) => panic!("command refused: {e}"),
    }
}

/// Apply `cmd` like [`run`] and also return the events it made; panics if the rules refuse.
pub fn act(game: &Game, rules: &Rules, cmd: Command) -> (Game, Vec<Event>) {
    match apply(game, rules, cmd) {
        Ok(o) => {
            o.game.check_invariants().expect("invariants");
            (o.game, o.events)
        }
        Err(e) => panic!("command refused: {e}"),
    }
}

/// Apply `cmd` like [`run`] and also return what the player reads of it: the English the
/// screens make of its events (the game value keeps none).
pub fn said(game: &Game, rules: &Rules, cmd: Command) -> (Game, Vec<String>) {
    let (g, events) = act(game, rules, cmd);
    let lines = alembic_games::alchemy::text::all_lines(&g, &events);
    (g, lines)
}
