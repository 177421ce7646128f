//! The explore bot's tactics, each tried alone on a small arena: it fights what it can beat,
//! flees what it cannot, rests when hurt, loots, returns with the Stone, and every reason
//! it gives belongs to the tactic that gave it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alembic::{Dir, Game, ThingId};
use alembic_games::alchemy::{
    Command, Rules,
    bot::{Bot, Choice, PLAN, Reason, Tactic, TacticFn},
    props::HPS,
};
use common::{arena, at, give, put};

/// Ask one tactic alone, as a fresh bot would.
fn try_alone(game: &Game, tactic: Tactic) -> Option<Choice> {
    let mut bot = Bot::new(1);
    let s = bot.situation(game).expect("a hero");
    let f: TacticFn = PLAN.iter().find(|(t, _)| *t == tactic).unwrap().1;
    let choice = f(&mut bot, game, &s);
    if let Some((_, reason)) = choice {
        assert_eq!(reason.tactic(), Some(tactic), "{reason} from {tactic:?}");
    }
    choice
}

#[test]
fn fight_strikes_a_monster_it_can_beat() {
    let (mut g, rules, _) = arena(31);
    put(&mut g, &rules, "rat", 1, 0);
    assert_eq!(
        try_alone(&g, Tactic::Fight),
        Some((Command::Move(Dir::East), Reason::Fight))
    );
    // Fleeing has nothing to do: the fight is winnable.
    assert_eq!(try_alone(&g, Tactic::Flee), None);
}

#[test]
fn flee_runs_from_a_monster_it_cannot_beat() {
    let (mut g, rules, hero) = arena(31);
    let king = put(&mut g, &rules, "troll king", 1, 0);
    g.set_mut(hero, &HPS, 20).unwrap();
    let bot = Bot::new(1);
    assert!(!bot.situation(&g).unwrap().winnable());
    let Some((Command::Move(d), Reason::Escape)) = try_alone(&g, Tactic::Flee) else {
        panic!("expected an escape step")
    };
    assert!((at(0, 0) + d).chebyshev(g.things().location(king).unwrap()) >= 2);
}

#[test]
fn rest_waits_when_hurt_and_alone_and_not_otherwise() {
    let (mut g, _rules, hero) = arena(31);
    assert_eq!(try_alone(&g, Tactic::Rest), None, "healthy: no rest");
    g.set_mut(hero, &HPS, 10).unwrap();
    assert_eq!(
        try_alone(&g, Tactic::Rest),
        Some((Command::Wait, Reason::Rest))
    );
}

#[test]
fn loot_picks_up_what_lies_here() {
    let (mut g, _rules, _) = arena(31);
    assert_eq!(try_alone(&g, Tactic::Loot), None);
    let herb = g.library().create("bloodwort").unwrap();
    let herb = g.add_thing_mut(at(0, 0), herb).unwrap();
    assert_eq!(
        try_alone(&g, Tactic::Loot),
        Some((Command::PickUp(Some(herb)), Reason::PickUp))
    );
}

#[test]
fn return_climbs_only_with_the_stone() {
    let (mut g, _rules, hero) = arena(31);
    assert_eq!(try_alone(&g, Tactic::Return), None);
    give(&mut g, hero, "the Philosopher's Stone");
    let (_, reason) = try_alone(&g, Tactic::Return).expect("a step");
    assert_eq!(reason, Reason::Climb);
}

#[test]
fn every_tactic_of_the_plan_is_named_once() {
    let names: std::collections::HashSet<Tactic> = PLAN.iter().map(|(t, _)| *t).collect();
    assert_eq!(names.len(), PLAN.len());
}

/// The arena with a deep pool from the top wall down to y = 3 between the hero and stairs
/// down at (4, 0), all in view and remembered: the crow-flies step (east) leads into a dead
/// end, the way round is through (2, 4). The game, its rules, the hero and the stairs.
fn pool_arena() -> (Game, Rules, ThingId, ThingId) {
    use alembic::LocBox;
    use alembic_games::alchemy::rules::{hero_view, remember};
    let (mut g, rules, hero) = arena(31);
    let pool = g.library().tile_id("deep pool").unwrap();
    g.fill_tiles_mut(LocBox::rect(2, -4, 1, 8, common::Z), pool)
        .unwrap();
    let stairs = common::put(&mut g, &rules, "stairs down", 4, 0);
    let view = hero_view(&g).unwrap();
    remember(&mut g, &view);
    (g, rules, hero, stairs)
}

#[test]
fn it_walks_to_known_stairs_around_a_pool_by_a_shortest_route() {
    use alembic::{LocBox, path::DijkstraMap};
    let (mut g, rules, hero, stairs) = pool_arena();
    let goal = g.things().location(stairs).unwrap();
    let floor = |l: alembic::Loc| g.tile_def(l).is_ok_and(|t| t.name() != "deep pool");
    let walk = |_: alembic::Loc, to: alembic::Loc| floor(to).then_some(1);
    let area = LocBox::rect(-8, -5, 17, 11, common::Z);
    let shortest = DijkstraMap::build(area, &[goal], walk)
        .get(at(0, 0))
        .unwrap();
    assert_eq!(shortest, 8);
    let mut bot = Bot::new(1);
    let mut steps = 0;
    loop {
        let c = bot.choose(&g);
        if c == Command::Descend {
            break;
        }
        let Command::Move(_) = c else {
            panic!(
                "expected a step or the stairs, got {c:?} ({})",
                bot.reason()
            )
        };
        assert!(
            matches!(bot.reason(), Reason::Stairs | Reason::ToStairsDown),
            "{}",
            bot.reason()
        );
        g = common::run(&g, &rules, c);
        steps += 1;
        assert!(steps <= shortest, "longer than a shortest route");
    }
    assert_eq!(g.things().location(hero).unwrap(), goal);
    assert_eq!(steps, shortest);
}

#[test]
fn it_leaves_a_planned_walk_that_became_closed_and_finds_another() {
    use alembic::LocBox;
    // The only way round the pool is its foot, (2, 4).
    let (mut g, rules, hero, stairs) = pool_arena();
    let wall = g.library().tile_id("wall").unwrap();
    let floor = g.library().tile_id("floor").unwrap();
    let mut bot = Bot::new(1);
    // One step along the walk round the foot of the pool.
    let c = bot.choose(&g);
    assert!(matches!(c, Command::Move(_)), "{c:?}");
    g = common::run(&g, &rules, c);
    // Then the foot is walled up and the pool's head opened: the walk it planned is closed.
    g.fill_tiles_mut(LocBox::rect(2, 4, 1, 1, common::Z), wall)
        .unwrap();
    g.fill_tiles_mut(LocBox::rect(2, -4, 1, 1, common::Z), floor)
        .unwrap();
    let mut went_north = false;
    for _ in 0..30 {
        let c = bot.choose(&g);
        if c == Command::Descend {
            break;
        }
        assert!(matches!(c, Command::Move(_)), "{c:?} ({})", bot.reason());
        // A step into the new wall would be refused, and `run` panics on a refusal.
        g = common::run(&g, &rules, c);
        went_north |= g.things().location(hero).unwrap().y < -1;
    }
    assert_eq!(
        g.things().location(hero).unwrap(),
        g.things().location(stairs).unwrap()
    );
    assert!(
        went_north,
        "it went round the pool's head, the one way left"
    );
}
