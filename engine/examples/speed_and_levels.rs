//! Two levels joined by stairs. A fast hound and a slow zombie chase the hero across the
//! stairs, rolling down one multi-level Dijkstra map, with every turn ordered by the
//! scheduler. Headless: the hero's moves are scripted. The chasers' hook reports typed
//! events through its context's scratch; `main` words them (the game value holds no English).
//!
//! Run: `cargo run -p alembic-rl --example speed_and_levels`

use std::sync::Arc;

use alembic::{
    Error, Game, HookCtx, Hooks, Library, Loc, Prop, Props, ThingId, hook::HookCall,
    hook::ON_ACTION, level::LevelMap, mapgen::TileMap, props::Hook, schedule::Advance,
    schedule::NORMAL_ACTION, schedule::SPEED,
};

const HERO: Prop<ThingId> = Prop::new("hero");
const NAME: Prop<Arc<str>> = Prop::new("name");
const WALK: Prop<bool> = Prop::with_default("walk", false);

/// Both levels are this room; its stairs join (10, 2) on level 0 and (1, 2) on level 1.
const ROOM: [&str; 5] = [
    "############",
    "#..........#",
    "#..........#",
    "#..........#",
    "############",
];

/// What a chaser did, as its hook reports it.
#[derive(Clone, Debug, PartialEq)]
enum Event {
    Bit { name: Arc<str> },
    TookStairs { name: Arc<str>, level: i32 },
}

/// The words for an event.
fn say(e: &Event) -> String {
    match e {
        Event::Bit { name } => format!("The {name} bites you."),
        Event::TookStairs { name, level } => {
            format!("The {name} takes the stairs to level {level}.")
        }
    }
}

/// One distance map towards the hero per hero position, shared by every chaser in a turn
/// through the hook context's scratch store.
#[derive(Default)]
struct Chase(Option<(Loc, LevelMap)>);

fn step_cost(g: &Game) -> impl Fn(Loc, Loc) -> Option<u32> + '_ {
    |_, to| g.tile_def(to).ok().filter(|t| t.is(&WALK)).map(|_| 1)
}

/// A chaser's turn: bite the hero when beside them, else take one step (or the stairs).
fn chase(g: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let (me, hero) = (call.this, g.var(&HERO)?);
    let (here, target) = (g.things().location(me)?, g.things().location(hero)?);
    let name = g.query(me, &NAME)?;
    if here.z == target.z && here.chebyshev(target) == 1 {
        ctx.scratch::<Vec<Event>>().push(Event::Bit { name });
        return Ok(());
    }
    let scratch = ctx.scratch::<Chase>();
    if scratch.0.as_ref().is_none_or(|(at, _)| *at != target) {
        scratch.0 = Some((target, LevelMap::for_game(g, &[target], 1, step_cost(g))));
    }
    let next = scratch
        .0
        .as_ref()
        .and_then(|(_, m)| m.next_step(here, step_cost(g)));
    if let Some(next) = next.filter(|&l| l != target && g.things().at(l).is_empty()) {
        if next.z != here.z {
            let level = next.z;
            ctx.scratch::<Vec<Event>>()
                .push(Event::TookStairs { name, level });
        }
        g.move_thing_mut(me, next)?;
    }
    Ok(())
}

fn new_game(hooks: &Hooks) -> Result<(Game, ThingId), Error> {
    let chaser = |name: &str, speed: i32| {
        Props::new()
            .with(&NAME, Arc::from(name))
            .with(&SPEED, speed)
            .with(&ON_ACTION, Hook::new("chase"))
    };
    let mut lib = Library::new()
        .proclaim("hero", None, Props::new())?
        .proclaim("hound", None, chaser("hound", 200))?
        .proclaim("zombie", None, chaser("zombie", 50))?;
    let wall = lib.define_tile_mut("wall", Props::new())?;
    let floor = lib.define_tile_mut("floor", Props::new().with(&WALK, true))?;
    let mut g = Game::new(7).with_library(lib);
    for z in [0, 1] {
        let map = TileMap::from_rows(&ROOM, |c| c == '.')?;
        g.levels_mut().paint(&map, Loc::new(0, 0, z), |&open| {
            Some(if open { floor } else { wall })
        })?;
    }
    g.levels_mut()
        .link_stairs_both(Loc::new(10, 2, 0), Loc::new(1, 2, 1));
    let mut ctx = HookCtx::new(hooks);
    let hero = g.spawn_mut(&mut ctx, "hero", Loc::new(8, 2, 0))?;
    g.set_var_mut(&HERO, hero);
    let hound = g.spawn_mut(&mut ctx, "hound", Loc::new(1, 1, 0))?;
    let zombie = g.spawn_mut(&mut ctx, "zombie", Loc::new(2, 3, 0))?;
    for id in [hero, hound, zombie] {
        g.scheduler().add(id, 0)?;
    }
    Ok((g, hero))
}

/// Play `turns` scripted hero turns: east to the stairs, down them, then east along level 1
/// (doubling back now and then).
fn play(turns: usize) -> Result<(Game, Vec<(u64, Event)>), Error> {
    let hooks = Hooks::new().register("chase", chase)?;
    let (mut g, hero) = new_game(&hooks)?;
    let mut journal = Vec::new();
    for turn in 0..turns {
        let mut ctx = HookCtx::new(&hooks); // a fresh scratch store every turn
        let next = g
            .scheduler()
            .advance_until(&mut ctx, 1_000, |_, id| id == hero)?;
        assert_eq!(next, Advance::Stopped(hero), "the hero is always queued");
        let at = g.things().location(hero)?;
        let to = match g.levels().stairs_at(at) {
            Some(down) if at.z == 0 => down,
            _ if at.z == 0 => at + alembic::Dir::East,
            _ if turn % 12 < 8 => at + alembic::Dir::East,
            _ => at + alembic::Dir::West,
        };
        if g.things().at(to).is_empty() && g.tile_def(to)?.is(&WALK) {
            g.move_thing_mut(hero, to)?;
        }
        g.acted_mut(hero, NORMAL_ACTION)?;
        let said = std::mem::take(ctx.scratch::<Vec<Event>>());
        journal.extend(said.into_iter().map(|e| (g.turn(), e)));
        g.set_turn_mut(g.turn() + 1);
    }
    Ok((g, journal))
}

fn main() -> Result<(), Error> {
    let (_, journal) = play(20)?;
    for (turn, e) in &journal {
        println!("turn {turn:>2}: {}", say(e));
    }
    Ok(())
}

#[test]
fn both_chasers_follow_the_hero_down_the_stairs() -> Result<(), Box<dyn std::error::Error>> {
    let (g, journal) = play(30)?;
    let lines: Vec<String> = journal.iter().map(|(_, e)| say(e)).collect();
    let said = |s: &str| lines.iter().any(|l| l.contains(s));
    assert!(said("The hound takes the stairs to level 1."));
    assert!(said("The zombie takes the stairs to level 1."));
    assert!(said("The hound bites you."));
    // Speed 200 against 50: the hound acts four times as often as the zombie.
    let hound_lines = lines.iter().filter(|l| l.contains("hound")).count();
    let zombie_lines = lines.iter().filter(|l| l.contains("zombie")).count();
    assert!(hound_lines > zombie_lines);
    assert_eq!(play(30)?.0.state_hash(), g.state_hash()); // deterministic
    Ok(g.check_invariants()?)
}
