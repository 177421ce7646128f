//! Every generated dungeon is verified: on each level, all stairs (and on level −10 the
//! Stone) are reachable from where the hero arrives, without digging.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic::{Game, Loc, Place};
use alembic_games::alchemy::{
    Rules, new_game,
    props::{DESTINATION, IS_EXIT, IS_STAIRS, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE},
    rules::{LEVELS, STONE_LEVEL, hero, reachable},
};

fn things_with(game: &Game, flag: &alembic::Prop<bool>) -> Vec<Loc> {
    game.things()
        .iter()
        .filter(|t| t.is(flag))
        .filter_map(|t| match t.place() {
            Some(Place::Map(l)) => Some(l),
            _ => None,
        })
        .collect()
}

fn verify(seed: u64, rules: &Rules) {
    let game = new_game(seed, rules).expect("new game");
    game.check_invariants().expect("invariants");
    let start = game.things().location(hero(&game).unwrap()).unwrap();
    assert_eq!(start.z, -1, "seed {seed}: the hero starts on level -1");
    let exits = things_with(&game, &IS_EXIT);
    assert_eq!(
        exits,
        vec![start],
        "seed {seed}: the exit is where the hero starts"
    );
    let stairs = things_with(&game, &IS_STAIRS);
    let stones = things_with(&game, &IS_STONE);
    assert_eq!(stones.len(), 1, "seed {seed}: one Stone");
    assert_eq!(
        stones[0].z, STONE_LEVEL,
        "seed {seed}: the Stone is on level -10"
    );
    for depth in 1..=LEVELS {
        let z = -depth;
        let downs: Vec<Loc> = things_with(&game, &IS_STAIRS_DOWN)
            .into_iter()
            .filter(|l| l.z == z)
            .collect();
        let ups: Vec<Loc> = things_with(&game, &IS_STAIRS_UP)
            .into_iter()
            .filter(|l| l.z == z)
            .collect();
        if depth < LEVELS {
            assert_eq!(downs.len(), 2, "seed {seed}: two stairs down on level {z}");
        } else {
            assert!(downs.is_empty());
        }
        assert!(
            ups.len() >= if depth == 1 { 1 } else { 2 },
            "seed {seed}: stairs up on {z}"
        );
        let from = if depth == 1 { start } else { ups[0] };
        let reach = reachable(&game, from);
        for l in stairs.iter().filter(|l| l.z == z) {
            assert!(reach.contains(*l), "seed {seed}: stairs at {l} unreachable");
        }
        for l in stones.iter().filter(|l| l.z == z) {
            assert!(
                reach.contains(*l),
                "seed {seed}: the Stone at {l} is unreachable"
            );
        }
    }
    // Every staircase leads to a staircase the other way.
    for t in game
        .things()
        .iter()
        .filter(|t| t.is(&IS_STAIRS) && !t.is(&IS_EXIT))
    {
        let dest = t.get(&DESTINATION).expect("destination");
        let there = game.things().at(dest);
        let back = if t.is(&IS_STAIRS_DOWN) {
            &IS_STAIRS_UP
        } else {
            &IS_STAIRS_DOWN
        };
        assert!(
            there.iter().any(|&x| game.is(x, back)),
            "seed {seed}: stairs lead nowhere"
        );
    }
}

#[test]
fn two_hundred_dungeons_are_complete_and_connected() {
    let rules = Rules::new().unwrap();
    for seed in 0..200 {
        verify(seed, &rules);
    }
}

#[test]
fn same_seed_same_dungeon() {
    let rules = Rules::new().unwrap();
    let a = new_game(42, &rules).unwrap();
    let b = new_game(42, &rules).unwrap();
    let c = new_game(43, &rules).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a, b);
    assert_ne!(a.state_hash(), c.state_hash());
}

/// No item is generated on scenery: never on a workbench or lab (where it would hide the
/// apparatus), a fountain, a statue or stairs, on any level of many seeds.
#[test]
fn items_never_generate_on_apparatus_or_scenery() {
    use alembic_games::alchemy::props::{IS_ITEM, IS_SCENERY};
    let rules = Rules::new().unwrap();
    for seed in 0..12 {
        let game = new_game(seed, &rules).expect("new game");
        for l in things_with(&game, &IS_ITEM) {
            let scenery: Vec<String> = game
                .things()
                .at(l)
                .iter()
                .filter(|&&t| game.is(t, &IS_SCENERY))
                .map(|&t| alembic_games::alchemy::text::a_name(&game, t).unwrap())
                .collect();
            assert!(
                scenery.is_empty(),
                "seed {seed}: an item lies on {scenery:?} at {l:?}"
            );
        }
    }
}
