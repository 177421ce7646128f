//! Cunning monsters on fixed positions: what foresight (search on clones of the game under
//! the real rules, `rules::cunning`) makes a monster do, each scenario played twice, with
//! planning on and with it off (the game variable `FORESIGHT_OFF`): the behaviour must
//! appear with it on and not with it off, so none of these can pass by the cheap rules.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alembic::{Game, ThingId};
use alembic_games::alchemy::{
    Command, Event, Rules,
    props::{AGGRO, FORESIGHT_OFF, HPS, HPS_MAX, LAST_SEEN, PLANS},
    rules::{creature_at, identify, inventory},
    view::look_at,
};
use common::{act, arena, at, give, put, run, wield};

/// Seeds each scenario is played with (each its own arena and dice).
const SEEDS: std::ops::Range<u64> = 1..6;

/// The arena of `seed` with planning on or off.
fn arena_with(seed: u64, foresight: bool) -> (Game, Rules, ThingId) {
    let (mut g, rules, hero) = arena(seed);
    g.set_var_mut(&FORESIGHT_OFF, !foresight);
    (g, rules, hero)
}

/// Put monster `kind` at (x, y), having noticed the hero at (0, 0).
fn monster(g: &mut Game, rules: &Rules, kind: &str, x: i32, y: i32) -> ThingId {
    let m = put(g, rules, kind, x, y);
    g.set_mut(m, &LAST_SEEN, at(0, 0)).unwrap();
    m
}

/// A wounded orc champion beside a well-armed hero, with room behind it: does it step away
/// (rather than trade blows it would likely die of)?
fn wounded_champion_retreats(seed: u64, foresight: bool) -> bool {
    let (mut g, rules, hero) = arena_with(seed, foresight);
    wield(&mut g, hero, "long sword");
    let orc = monster(&mut g, &rules, "orc champion", 1, 0);
    assert!(g.is(orc, &PLANS), "the data flags the orc champion");
    g.set_mut(orc, &HPS, 7).unwrap();
    let hp = g.query(hero, &HPS).unwrap();
    let g = run(&g, &rules, Command::Wait);
    let away = g.things().location(orc).unwrap().chebyshev(at(0, 0)) > 1;
    away && g.query(hero, &HPS).unwrap() == hp
}

#[test]
fn a_wounded_orc_champion_retreats() {
    for seed in SEEDS {
        assert!(wounded_champion_retreats(seed, true), "seed {seed}");
        // The cheap rules stand and fight.
        assert!(!wounded_champion_retreats(seed, false), "seed {seed}");
    }
}

/// A healthy orc champion does not run: it fights, since the exchange favours it.
#[test]
fn a_healthy_orc_champion_fights() {
    for seed in SEEDS {
        let (mut g, rules, hero) = arena_with(seed, true);
        let orc = monster(&mut g, &rules, "orc champion", 1, 0);
        let g2 = run(&g, &rules, Command::Wait);
        assert_eq!(g2.things().location(orc).unwrap(), at(1, 0), "seed {seed}");
        let _ = hero;
    }
}

/// A badly hurt orc (no cunning of its own) carrying a potion of healing, beside the hero:
/// does it drink it?
fn hurt_orc_drinks(seed: u64, foresight: bool) -> bool {
    let (mut g, rules, _) = arena_with(seed, foresight);
    let orc = monster(&mut g, &rules, "orc", 1, 0);
    assert!(
        !g.is(orc, &PLANS),
        "an orc plans only when it carries a potion"
    );
    give(&mut g, orc, "potion of healing");
    g.set_mut(orc, &HPS, 4).unwrap();
    let (g, events) = act(&g, &rules, Command::Wait);
    let drank = events
        .iter()
        .any(|e| matches!(e, Event::MonsterDrank { who, .. } if who.id == orc));
    drank && inventory(&g, orc).is_empty() && g.query(orc, &HPS).unwrap() > 4
}

#[test]
fn a_monster_with_a_healing_potion_drinks_it_when_losing() {
    for seed in SEEDS {
        assert!(hurt_orc_drinks(seed, true), "seed {seed}");
        assert!(!hurt_orc_drinks(seed, false), "seed {seed}");
    }
}

/// The hero holds a potion of deadly poison it knows, an orc champion four steps away down
/// an open line, a pillar beside the line for cover. After one turn the hero throws the
/// potion at the orc: is the orc out of the splash?
fn champion_dodges_the_splash(seed: u64, foresight: bool) -> bool {
    let (mut g, rules, hero) = arena_with(seed, foresight);
    let pillar = g.library().tile_id("pillar").unwrap();
    for y in [-2, -1, 1, 2] {
        g.set_tile_mut(at(3, y), pillar).unwrap();
    }
    let potion = give(&mut g, hero, "potion of deadly poison");
    identify(&mut g, potion).unwrap();
    let orc = monster(&mut g, &rules, "orc champion", 4, 0);
    let hp = g.query(orc, &HPS_MAX).unwrap();
    let g = run(&g, &rules, Command::Wait);
    let target = g.things().location(orc).unwrap();
    let potion = inventory(&g, hero)[0];
    let (g, events) = act(&g, &rules, Command::Throw(potion, target));
    let splashed = events
        .iter()
        .any(|e| matches!(e, Event::Shattered { over: Some(n), .. } if n.id == orc));
    !splashed && g.query(orc, &HPS).unwrap() == hp
}

#[test]
fn a_monster_steps_out_of_a_thrown_potions_splash() {
    for seed in SEEDS {
        assert!(champion_dodges_the_splash(seed, true), "seed {seed}");
        // The cheap rules walk straight down the line of fire.
        assert!(!champion_dodges_the_splash(seed, false), "seed {seed}");
    }
}

/// The look command says which monsters plan.
#[test]
fn look_says_a_cunning_monster_plans_ahead() {
    let (mut g, rules, _) = arena(1);
    let orc = put(&mut g, &rules, "orc champion", 2, 0);
    let rat = put(&mut g, &rules, "rat", -2, 0);
    let text = look_at(&g, g.things().location(orc).unwrap()).unwrap().text;
    assert!(text.contains("It plans ahead"), "{text}");
    let text = look_at(&g, g.things().location(rat).unwrap()).unwrap().text;
    assert!(!text.contains("plans ahead"), "{text}");
    assert_eq!(creature_at(&g, at(2, 0)), Some(orc));
}

/// A fight with a planning monster is deterministic: the same game and commands give the
/// same game bit for bit (the futures are reseeded clones; the budget is in nodes), and
/// planning changes the game (the champion does not play as with planning off).
#[test]
fn a_fight_with_a_planner_replays_bit_for_bit() {
    let play = |foresight: bool| {
        let (mut g, rules, hero) = arena_with(3, foresight);
        wield(&mut g, hero, "long sword");
        let orc = monster(&mut g, &rules, "orc champion", 2, 1);
        g.set_mut(orc, &HPS, 12).unwrap();
        let mut hashes = Vec::new();
        for _ in 0..12 {
            let Ok(o) = alembic_games::alchemy::apply(&g, &rules, Command::Wait) else {
                break;
            };
            g = o.game;
            hashes.push(g.state_hash());
        }
        hashes
    };
    let a = play(true);
    assert_eq!(a.len(), 12);
    assert_eq!(a, play(true));
    assert_ne!(a, play(false));
}

/// `--policy plan`: Alchemy's planning bot plays, the same game from the same seed.
#[test]
fn the_planning_bot_plays_the_same_game_from_the_same_seed() {
    use alembic_games::sim::{ALCHEMY_SIM, Policy, SimGame};
    let a = ALCHEMY_SIM.run(4, 300, Policy::Plan).unwrap();
    assert_eq!(a, ALCHEMY_SIM.run(4, 300, Policy::Plan).unwrap());
    assert!(a.turns >= 300 || a.outcome != "playing", "{a:?}");
}

/// Wall the arena's east half, less a corridor along y = 0 from x = 0 (its mouth) to 7.
fn corridor(g: &mut Game) {
    let wall = g.library().tile_id("wall").unwrap();
    let floor = g.library().tile_id("floor").unwrap();
    g.fill_tiles_mut(alembic::LocBox::rect(0, -4, 8, 9, common::Z), wall)
        .unwrap();
    for x in 0..8 {
        g.set_tile_mut(at(x, 0), floor).unwrap();
    }
}

/// The hero waits one step inside a corridor's mouth. A vampyre that has noticed the hero
/// comes from the room: the one cell from which it could bite the hero is the mouth, where
/// the hero would strike first. Does it step into the mouth within six turns?
///
/// (A mouth flanked by a troll, where the vampyre would be fought on two sides at once,
/// is the next scenario.)
fn vampyre_enters_the_mouth(seed: u64, foresight: bool) -> bool {
    let (mut g, rules, hero) = arena_with(seed, foresight);
    corridor(&mut g);
    g.move_thing_mut(hero, at(1, 0)).unwrap();
    let v = put(&mut g, &rules, "vampyre", -2, 0);
    g.set_mut(v, &LAST_SEEN, at(1, 0)).unwrap();
    for _ in 0..6 {
        let Ok(o) = alembic_games::alchemy::apply(&g, &rules, Command::Wait) else {
            return false;
        };
        g = o.game;
        if g.things().contains(v) && g.things().location(v).unwrap() == at(0, 0) {
            return true;
        }
    }
    false
}

#[test]
fn a_monster_waits_outside_a_corridor_rather_than_walk_into_the_fight() {
    for seed in SEEDS {
        assert!(!vampyre_enters_the_mouth(seed, true), "seed {seed}");
        // The cheap rules walk into the mouth.
        assert!(vampyre_enters_the_mouth(seed, false), "seed {seed}");
    }
}

/// A corridor runs east from a room's wall, the hero four steps inside it, a troll (which
/// fights monsters of other families) in a niche at (1, 1), beside the corridor's first
/// three cells. A vampyre that has noticed the hero stands outside the mouth. Does it step
/// into the corridor beside the niche, with the troll in it, within three turns? There it
/// would be fought on two sides at once: by the troll beside it and by the hero ahead. The
/// troll is drowsy (aggro 1: it fights only what stands beside it), so it does not come
/// out to fetch the vampyre from the room; when it wanders out of its niche by itself the
/// corridor is no longer flanked, and a step in is not counted.
fn vampyre_follows_into_the_flanked_corridor(seed: u64, foresight: bool, troll: bool) -> bool {
    let (mut g, rules, hero) = arena_with(seed, foresight);
    corridor(&mut g);
    let niche = at(1, 1);
    let floor = g.library().tile_id("floor").unwrap();
    g.set_tile_mut(niche, floor).unwrap();
    g.move_thing_mut(hero, at(4, 0)).unwrap();
    let v = put(&mut g, &rules, "vampyre", -1, 0);
    g.set_mut(v, &LAST_SEEN, at(4, 0)).unwrap();
    if troll {
        let t = put(&mut g, &rules, "troll", niche.x, niche.y);
        g.set_mut(t, &AGGRO, 1).unwrap();
    }
    for _ in 0..3 {
        let Ok(o) = alembic_games::alchemy::apply(&g, &rules, Command::Wait) else {
            return false;
        };
        g = o.game;
        let flanked = !troll || creature_at(&g, niche).is_some();
        if flanked
            && g.things().contains(v)
            && g.things().location(v).unwrap().chebyshev(niche) == 1
        {
            return true;
        }
    }
    false
}

#[test]
fn a_monster_does_not_follow_into_a_corridor_where_it_is_fought_on_two_sides() {
    for seed in 1..21 {
        assert!(
            !vampyre_follows_into_the_flanked_corridor(seed, true, true),
            "seed {seed}"
        );
        // The control: with the niche empty, the same vampyre follows the hero in.
        assert!(
            vampyre_follows_into_the_flanked_corridor(seed, true, false),
            "seed {seed}"
        );
        // The cheap rules walk in beside the troll.
        assert!(
            vampyre_follows_into_the_flanked_corridor(seed, false, true),
            "seed {seed}"
        );
    }
}

/// Generated games give potions to some of the monsters whose kind has a `potion_chance`
/// (and to no other): they plan while they carry one.
#[test]
fn generated_levels_arm_some_monsters_with_potions() {
    use alembic_games::alchemy::{new_game, props::POTION_CHANCE, rules::creatures_on_level};
    let rules = Rules::new().unwrap();
    let (mut carriers, mut could) = (0, 0);
    for seed in 1..6 {
        let g = new_game(seed, &rules).unwrap();
        for z in -11..=-1 {
            for m in creatures_on_level(&g, z) {
                if g.is(m, &alembic_games::alchemy::props::IS_HERO) {
                    continue;
                }
                let chance = g.query(m, &POTION_CHANCE).unwrap();
                let carried = inventory(&g, m)
                    .into_iter()
                    .filter(|&p| g.is(p, &alembic_games::alchemy::props::IS_POTION))
                    .count();
                if chance > 0.0 {
                    could += 1;
                }
                if carried > 0 {
                    assert!(
                        chance > 0.0,
                        "seed {seed}: a monster of no potion_chance carries one"
                    );
                    assert_eq!(carried, 1, "seed {seed}");
                    carriers += 1;
                }
            }
        }
    }
    eprintln!("{carriers} of {could} monsters that may carry a potion do");
    assert!(carriers > 0 && carriers < could, "{carriers} of {could}");
}

/// In games the explore bot plays from generated dungeons, monsters drink or throw the
/// potions they were made with.
#[test]
fn in_generated_games_monsters_use_their_potions() {
    use alembic_games::alchemy::{apply, bot::Bot, new_game};
    let rules = Rules::new().unwrap();
    let (mut drank, mut threw) = (0, 0);
    for seed in 1..6 {
        let mut g = new_game(seed, &rules).unwrap();
        let mut bot = Bot::new(seed);
        for _ in 0..4000 {
            let cmd = bot.choose(&g);
            let Ok(o) = apply(&g, &rules, cmd) else {
                bot.refused();
                continue;
            };
            for e in &o.events {
                match e {
                    Event::MonsterDrank { .. } => drank += 1,
                    Event::MonsterThrew { .. } => threw += 1,
                    _ => {}
                }
            }
            g = o.game;
            if g.var(&alembic_games::alchemy::props::GAME_OVER)
                .unwrap_or(false)
            {
                break;
            }
        }
    }
    assert!(drank + threw > 0, "drank {drank}, threw {threw}");
}

/// A monster's potions are its weapons, not loot: they break when it dies (the hero's
/// blows kill an orc carrying one, and nothing is left on the floor where it stood).
#[test]
fn a_monsters_potion_breaks_when_it_dies() {
    for seed in SEEDS {
        let (mut g, rules, hero) = arena_with(seed, false);
        wield(&mut g, hero, "long sword");
        let orc = monster(&mut g, &rules, "orc", 1, 0);
        give(&mut g, orc, "potion of healing");
        g.set_mut(orc, &HPS, 1).unwrap();
        // No loot of its own (a goblinoid may leave a random item, a potion among them).
        g.set_mut(orc, &alembic_games::alchemy::props::DROP_CHANCE, 0.0)
            .unwrap();
        for _ in 0..20 {
            if !g.things().contains(orc) {
                break;
            }
            g = run(&g, &rules, Command::Move(alembic::Dir::East));
        }
        assert!(!g.things().contains(orc), "seed {seed}: the orc lives");
        let left = g.things().at(at(1, 0)).to_vec();
        assert!(
            left.iter()
                .all(|&t| !g.is(t, &alembic_games::alchemy::props::IS_POTION)),
            "seed {seed}: a potion lies where the orc died"
        );
    }
}
