//! The scheduler's rules for outside developers: one call per turn, sleeping levels, spawn
//! queueing what takes turns, and no silent misuse (advancing before the actor acted is an
//! error; a dropped result is a warning, see `compile_fail/`).

#![allow(clippy::unwrap_used)]

use alembic::hook::{HookCall, ON_ACTION};
use alembic::props::Hook;
use alembic::schedule::{ACTS, Advance, NORMAL_ACTION, TurnEnd};
use alembic::{Error, Game, HookCtx, Hooks, Library, Loc, Place, Prop, Props, ThingId};

const MOVES: Prop<i32> = Prop::with_default("moves", 0);
const HP: Prop<i32> = Prop::with_default("hp", 5);

/// A monster's turn: count it, and bite the hero when standing next to it.
fn act(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let n = g.query(call.this, &MOVES)?;
    g.set_mut(call.this, &MOVES, n + 1)?;
    let here = g.things().location(call.this)?;
    let level: Vec<ThingId> = g
        .things()
        .on_level(here.z)
        .into_iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    {
        for id in level {
            let hero = g.things().get(id)?.proto() == Some("hero");
            if hero && g.things().location(id)?.chebyshev(here) <= 1 {
                let hp = g.query(id, &HP)?;
                g.set_mut(id, &HP, hp - 1)?;
            }
        }
    }
    Ok(())
}

fn world() -> (Game, Hooks) {
    let hooks = Hooks::new().register("act", act).unwrap();
    let lib = Library::new()
        .proclaim("hero", None, Props::new())
        .unwrap()
        .proclaim("rat", None, Props::new().with(&ON_ACTION, Hook::new("act")))
        .unwrap()
        .proclaim("golem", None, Props::new().with(&ACTS, true))
        .unwrap()
        .proclaim("rock", None, Props::new())
        .unwrap();
    (Game::new(9).with_library(lib), hooks)
}

fn spawn(g: &mut Game, hooks: &Hooks, name: &str, l: Loc) -> ThingId {
    g.spawn_mut(&mut HookCtx::new(hooks), name, Place::Map(l))
        .unwrap()
}

#[test]
fn spawn_queues_what_takes_turns_and_nothing_else() {
    let (mut g, hooks) = world();
    let rat = spawn(&mut g, &hooks, "rat", Loc::new(5, 5, 0));
    let golem = spawn(&mut g, &hooks, "golem", Loc::new(6, 5, 0));
    let rock = spawn(&mut g, &hooks, "rock", Loc::new(7, 5, 0));
    assert!(
        g.schedule().takes_turns(rat)
            && g.schedule().takes_turns(golem)
            && !g.schedule().takes_turns(rock)
    );
    assert_eq!(g.schedule().actors().collect::<Vec<_>>(), [rat, golem]);
    g.check_invariants().unwrap();
}

#[test]
fn on_two_levels_the_sleeping_levels_monsters_do_not_move() {
    let (mut g, hooks) = world();
    let mut ctx = HookCtx::new(&hooks);
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    let up = spawn(&mut g, &hooks, "rat", Loc::new(9, 9, 0));
    let down = spawn(&mut g, &hooks, "rat", Loc::new(9, 9, 1));
    g.scheduler().set_awake_levels([0]).unwrap();
    assert!(g.schedule().is_scheduled(up) && !g.schedule().is_scheduled(down));
    let never = |_: &Game| false;
    for _ in 0..10 {
        assert_eq!(
            g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 1_000, never)
                .unwrap(),
            TurnEnd::Ready
        );
    }
    assert_eq!(
        (g.query(up, &MOVES).unwrap(), g.query(down, &MOVES).unwrap()),
        (10, 0)
    );
    // The hero takes the stairs: its level wakes, the one it left sleeps.
    g.move_thing_mut(hero, Loc::new(0, 0, 1)).unwrap();
    for _ in 0..4 {
        assert_eq!(
            g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 1_000, never)
                .unwrap(),
            TurnEnd::Ready
        );
    }
    assert_eq!(g.schedule().awake_levels(), Some(vec![1]));
    assert_eq!(
        (g.query(up, &MOVES).unwrap(), g.query(down, &MOVES).unwrap()),
        (10, 4)
    );
    assert!(!g.schedule().is_scheduled(up));
    g.check_invariants().unwrap();
    // A rat spawned on the sleeping level is not queued; one that walks onto the awake
    // level is.
    let late = spawn(&mut g, &hooks, "rat", Loc::new(3, 3, 0));
    assert!(!g.schedule().is_scheduled(late));
    g.move_thing_mut(late, Loc::new(3, 3, 1)).unwrap();
    assert!(g.schedule().is_scheduled(late));
    // Sleeping levels survive a save.
    let back: Game = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back.schedule().awake_levels(), Some(vec![1]));
    assert_eq!(back.state_hash(), g.state_hash());
}

#[test]
fn advancing_before_the_actor_acted_is_an_error_that_changes_nothing() {
    let (mut g, hooks) = world();
    let mut ctx = HookCtx::new(&hooks);
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    spawn(&mut g, &hooks, "rat", Loc::new(9, 9, 0));
    g.scheduler().add(hero, 0).unwrap();
    let is_hero = |_: &Game, id: ThingId| id == hero;
    assert_eq!(
        g.scheduler().advance_until(&mut ctx, 100, is_hero).unwrap(),
        Advance::Stopped(hero)
    );
    let before = g.clone();
    // The game forgot `acted_mut`: the world's turn must not silently do nothing.
    assert_eq!(
        g.scheduler().advance_until(&mut ctx, 100, is_hero),
        Err(Error::NotActed(hero))
    );
    assert!(g == before);
    g.acted_mut(hero, NORMAL_ACTION).unwrap();
    assert_eq!(
        g.scheduler().advance_until(&mut ctx, 100, is_hero).unwrap(),
        Advance::Stopped(hero)
    );
}

#[test]
fn a_turn_says_whether_the_game_ended_the_actor_died_or_the_bound_was_hit() {
    let (mut g, hooks) = world();
    let mut ctx = HookCtx::new(&hooks);
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    let rat = spawn(&mut g, &hooks, "rat", Loc::new(1, 0, 0));
    let dead = |g: &Game| g.query(hero, &HP).is_ok_and(|hp| hp <= 0);
    let mut ends = Vec::new();
    for _ in 0..5 {
        ends.push(
            g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, dead)
                .unwrap(),
        );
    }
    assert_eq!(
        ends,
        [
            TurnEnd::Ready,
            TurnEnd::Ready,
            TurnEnd::Ready,
            TurnEnd::Ready,
            TurnEnd::Over
        ]
    );
    // A bound of zero other actions: the rat is due first, so the bound is reached.
    let (mut g, _) = world();
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    spawn(&mut g, &hooks, "rat", Loc::new(5, 0, 0));
    assert_eq!(
        g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 0, |_| false)
            .unwrap(),
        TurnEnd::Limit
    );
    // The actor removed by another's turn.
    let hooks = Hooks::new()
        .register(
            "act",
            |g: &mut Game, _: &mut HookCtx<'_>, _: &HookCall| match g
                .things()
                .at(Loc::new(0, 0, 0))
                .first()
            {
                Some(&hero) => g.remove_thing_mut(hero).map(|_| ()),
                None => Ok(()),
            },
        )
        .unwrap();
    let mut ctx = HookCtx::new(&hooks);
    let (mut g, _) = world();
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    spawn(&mut g, &hooks, "rat", Loc::new(5, 0, 0));
    assert_eq!(
        g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, |_| false)
            .unwrap(),
        TurnEnd::Gone
    );
    let _ = rat;
}

#[test]
fn an_actor_rule_runs_through_the_same_guarded_all_or_nothing_loop() {
    let (mut g, hooks) = world();
    let mut ctx = HookCtx::new(&hooks);
    let hero = spawn(&mut g, &hooks, "hero", Loc::new(0, 0, 0));
    let rat = spawn(&mut g, &hooks, "rat", Loc::new(9, 9, 0));
    g.scheduler().add(hero, 0).unwrap();
    let is_hero = |_: &Game, id: ThingId| id == hero;
    let mut acted = Vec::new();
    // The rule reports nothing: the loop queues the actor again after one ordinary action.
    let mut rule = |_: &mut Game, _: &mut HookCtx<'_>, id: ThingId| {
        acted.push(id);
        Ok(())
    };
    assert_eq!(
        g.scheduler()
            .take_turns(&mut ctx, 100, is_hero, &mut rule)
            .unwrap(),
        Advance::Stopped(hero)
    );
    // The same guard as with hooks: advancing again before the hero acted is an error.
    let before = g.clone();
    assert_eq!(
        g.scheduler().take_turns(&mut ctx, 100, is_hero, &mut rule),
        Err(Error::NotActed(hero))
    );
    assert!(g == before);
    g.acted_mut(hero, NORMAL_ACTION).unwrap();
    // A rule that fails leaves the game as it was, whatever it changed first.
    let before = g.clone();
    let failing = |g: &mut Game, _: &mut HookCtx<'_>, id: ThingId| {
        g.remove_thing_mut(id)?;
        Err(Error::NoSuchThing(id))
    };
    assert!(
        g.scheduler()
            .take_turns(&mut ctx, 100, is_hero, failing)
            .is_err()
    );
    assert!(g == before && g.things().contains(rat));
    assert!(!acted.is_empty() && acted.iter().all(|&id| id == rat));
}
