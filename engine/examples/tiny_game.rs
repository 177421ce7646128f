//! A complete tiny game on `alembic` alone: a hero clears a cellar of rats.
//!
//! Prototypes in a library, a map of tiles, behaviour as a hook named by a prototype, a
//! modifier (a carried ring raises the hero's attack), turns run headlessly, typed events
//! (the rules say what happened; `main` words it: the game value holds no English), the
//! result printed. Run it with `cargo run -p alembic-rl --example tiny_game`.

use std::sync::Arc;

use alembic::{
    Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Prop, Props, ThingId, hook::HookCall,
    hook::ON_ACTION, library::IS_CONTAINER, path::Search, path::astar, props::Hook,
    props::Modifier,
};

const NAME: Prop<Arc<str>> = Prop::new("name");
const GLYPH: Prop<char> = Prop::new("glyph");
const HP: Prop<i32> = Prop::new("hp");
const ATTACK: Prop<i32> = Prop::with_default("attack", 1);
const WALK: Prop<bool> = Prop::with_default("walk", false);
const HERO: Prop<ThingId> = Prop::new("hero"); // a game-wide variable
const AREA: LocBox = LocBox::rect(0, 0, 24, 8, 0);

/// What happened, as the rules report it (zemeroth's typed events): whoever shows the game
/// words them. A hook pushes them into its context's scratch; the game value keeps none.
#[derive(Clone, Debug)]
enum Event {
    Hit {
        attacker: Arc<str>,
        target: Arc<str>,
        damage: i32,
    },
    Died {
        who: Arc<str>,
    },
}

fn creature(name: &str, glyph: char, hp: i32) -> Props {
    let props = Props::new().with(&NAME, name.into()).with(&GLYPH, glyph);
    props.with(&HP, hp).with(&IS_CONTAINER, true)
}

/// The cellar: a library of things and tiles, a walled room, a hero with a ring, three rats.
fn new_game(seed: u64) -> Result<(Game, Hooks), Error> {
    let mut lib = Library::new()
        .proclaim("hero", None, creature("hero", '@', 20).with(&ATTACK, 3))?
        .proclaim(
            "rat",
            None,
            creature("rat", 'r', 4).with(&ON_ACTION, Hook::new("chase")),
        )?
        .proclaim(
            "ring",
            None,
            Props::new().modifier(Modifier::add(&ATTACK, 2)),
        )?;
    let wall = lib.define_tile_mut("wall", Props::new().with(&GLYPH, '#'))?;
    let floor = lib.define_tile_mut("floor", Props::new().with(&WALK, true).with(&GLYPH, '.'))?;
    let hooks = Hooks::new().register("chase", chase)?;

    let mut g = Game::new(seed).with_library(lib);
    g.fill_tiles_mut(AREA, wall)?;
    g.fill_tiles_mut(LocBox::rect(1, 1, 22, 6, 0), floor)?;
    g.set_tile_mut(Loc::new(12, 3, 0), wall)?; // a pillar
    let hero = g.spawn_mut(&mut HookCtx::new(&hooks), "hero", Loc::new(2, 2, 0))?;
    g.spawn_mut(&mut HookCtx::new(&hooks), "ring", hero)?; // carried: its modifier raises the hero's attack
    g.set_var_mut(&HERO, hero);
    for (x, y) in [(20, 2), (21, 5), (14, 4)] {
        g.spawn_mut(&mut HookCtx::new(&hooks), "rat", Loc::new(x, y, 0))?;
    }
    Ok((g, hooks))
}

fn open(g: &Game, l: Loc) -> bool {
    g.tile_def(l).is_ok_and(|t| t.is(&WALK)) && g.things().at(l).is_empty()
}

/// One step of `who` towards `goal` by A*, or a blow if `goal`'s occupant is adjacent.
fn go_for(g: &mut Game, who: ThingId, goal: Loc, said: &mut Vec<Event>) -> Result<(), Error> {
    let here = g.things().location(who)?;
    if let (1, Some(&target)) = (here.chebyshev(goal), g.things().at(goal).first()) {
        return hit(g, who, target, said);
    }
    let cost = |_, to| (to == goal || open(g, to)).then_some(1);
    match astar(here, goal, &Search::new(AREA), cost).map(|p| p.first_step()) {
        Ok(Some(l)) if open(g, l) => g.move_thing_mut(who, l),
        _ => Ok(()),
    }
}

fn hit(g: &mut Game, who: ThingId, target: ThingId, said: &mut Vec<Event>) -> Result<(), Error> {
    let attack = g.query(who, &ATTACK)?; // the ring's modifier included
    let damage = 1 + g.rng().below(attack as u64) as i32;
    let hp = g.query(target, &HP)? - damage;
    let (attacker, target_name) = (g.query(who, &NAME)?, g.query(target, &NAME)?);
    said.push(Event::Hit {
        attacker,
        target: target_name.clone(),
        damage,
    });
    if hp > 0 {
        return g.set_mut(target, &HP, hp);
    }
    said.push(Event::Died { who: target_name });
    g.remove_thing_mut(target).map(|_| ())
}

/// The rats' hook: chase the hero.
fn chase(g: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let hero = g.var(&HERO)?;
    match g.things().location(hero) {
        // What the blow does goes into the context's scratch, for the caller to take.
        Ok(at) => go_for(g, call.this, at, ctx.scratch::<Vec<Event>>()),
        Err(_) => Ok(()), // the hero is gone
    }
}

fn rats(g: &Game) -> Vec<ThingId> {
    let rats = g.things().iter().filter(|t| t.proto() == Some("rat"));
    rats.filter_map(|t| t.id()).collect()
}

/// Play until the rats or the hero are gone (or 200 turns): the final game, and what
/// happened, each event with its turn.
fn play(seed: u64) -> Result<(Game, Vec<(u64, Event)>), Error> {
    let (mut g, hooks) = new_game(seed)?;
    let hero = g.var(&HERO)?;
    let mut journal = Vec::new();
    while g.turn() < 200 && g.things().contains(hero) && !rats(&g).is_empty() {
        let mut said = Vec::new();
        let here = g.things().location(hero)?;
        let targets = rats(&g)
            .into_iter()
            .filter_map(|r| g.things().location(r).ok());
        if let Some(nearest) = targets.min_by_key(|l| here.chebyshev(*l)) {
            go_for(&mut g, hero, nearest, &mut said)?;
        }
        let mut ctx = HookCtx::new(&hooks); // one context a turn: its hooks share scratch
        for rat in rats(&g) {
            if g.things().contains(hero) {
                ctx.run(&mut g, &ON_ACTION, HookCall::on(rat))?;
            }
        }
        said.append(ctx.scratch::<Vec<Event>>());
        journal.extend(said.into_iter().map(|e| (g.turn(), e)));
        g.set_turn_mut(g.turn() + 1);
    }
    Ok((g, journal))
}

/// The words for an event.
fn say(e: &Event) -> String {
    match e {
        Event::Hit {
            attacker,
            target,
            damage,
        } => format!("The {attacker} hits the {target} for {damage}."),
        Event::Died { who } => format!("The {who} dies."),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (g, journal) = play(7)?;
    for (turn, e) in &journal {
        println!("turn {turn:>3}: {}", say(e));
    }
    for y in 0..8 {
        let glyph = |l: Loc| match g.things().at(l).first() {
            Some(&id) => g.query(id, &GLYPH),
            None => g.tile_def(l).and_then(|t| t.get(&GLYPH)),
        };
        let row: String = (0..24)
            .map(|x| glyph(Loc::new(x, y, 0)).unwrap_or(' '))
            .collect();
        println!("{row}");
    }
    match g.query(g.var(&HERO)?, &HP) {
        Ok(hp) => println!(
            "The cellar is clear after {} turns; {hp} hp left.",
            g.turn()
        ),
        Err(_) => println!("The rats won after {} turns.", g.turn()),
    }
    g.check_invariants()?;
    Ok(())
}

#[cfg(test)]
#[test]
fn the_cellar_is_cleared_the_same_way_every_time() {
    let (a, said) = play(7).unwrap();
    assert_eq!(a.state_hash(), play(7).unwrap().0.state_hash());
    assert!(rats(&a).is_empty());
    let deaths = said.iter().filter(|(_, e)| matches!(e, Event::Died { .. }));
    assert_eq!(
        deaths.count(),
        3,
        "three rats died, and the journal says so"
    );
    main().unwrap();
}
