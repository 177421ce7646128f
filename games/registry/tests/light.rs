//! Light that matters (`rules::light`): each scenario is played twice on the same arena, the
//! two games differing only in whether a candelabra there gives light (its `light_radius`),
//! so nothing but light can tell them apart.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alembic::{Game, ThingId};
use alembic_games::alchemy::{
    Command, Rules,
    morgue::{Ending, morgue_text},
    props::{AGGRO, DARK_SIGHT, LAST_SEEN, LIGHT_RADIUS},
    rules::hero_view,
    view::{cell_view, look_at},
};
use common::{arena, at, put, run};

/// Seeds each scenario is played with.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=12;

/// A candelabra at (x, y), giving light or not.
fn candelabra(g: &mut Game, x: i32, y: i32, shining: bool) -> ThingId {
    let t = g.library().create("candelabra").unwrap();
    let c = g.add_thing_mut(at(x, y), t).unwrap();
    if !shining {
        g.set_mut(c, &LIGHT_RADIUS, 0).unwrap();
    }
    c
}

/// The arena of `seed` with an orc 7 cells east of the hero and a candelabra in the west
/// whose light, when it shines, falls on the hero. The hero waits until the orc notices
/// them (at most 60 turns): the turns waited, and how far the orc stood when it did (where
/// it was before the turn: it notices first, then steps).
fn waits_until_noticed(seed: u64, light: bool) -> (u32, u32) {
    let (mut g, rules, _) = arena(seed);
    candelabra(&mut g, -6, -3, light);
    let orc = put(&mut g, &rules, "orc", 7, 0);
    for turn in 1..=60 {
        let from = g.things().location(orc).unwrap();
        g = run(&g, &rules, Command::Wait);
        if g.query_opt(orc, &LAST_SEEN).unwrap().is_some() {
            return (turn, from.chebyshev(at(0, 0)));
        }
    }
    (61, 0)
}

/// The same monster notices a hero in darkness later than one in light: over the seeds it
/// takes longer, and in darkness it never notices from beyond its `dark_sight` share of its
/// aggro range (goblinoids hunt by sight: 6 of the orc's 8), which in light it does.
#[test]
fn the_same_monster_notices_a_hero_in_darkness_later_than_in_light() {
    let rules = Rules::new().unwrap();
    let orc = rules.base_library().get("orc").unwrap();
    let aggro = orc.get(&AGGRO).unwrap();
    let limit = u32::try_from(aggro * orc.get(&DARK_SIGHT).unwrap() / 100).unwrap();
    assert!(
        limit < u32::try_from(aggro).unwrap(),
        "the orc hunts by sight"
    );
    let (mut dark_turns, mut light_turns) = (0, 0);
    let mut far_in_light = 0;
    for seed in SEEDS {
        let (dark, dark_d) = waits_until_noticed(seed, false);
        let (light, light_d) = waits_until_noticed(seed, true);
        assert!(
            dark_d <= limit,
            "seed {seed}: noticed in darkness from {dark_d}"
        );
        if light_d > limit {
            far_in_light += 1;
        }
        dark_turns += dark;
        light_turns += light;
    }
    assert!(
        dark_turns > light_turns,
        "in darkness {dark_turns} turns over the seeds, in light {light_turns}"
    );
    assert!(far_in_light > 0, "in light an orc notices from afar");
}

/// The glyph drawn at (x, y) of `g` now.
fn glyph_at(g: &Game, x: i32, y: i32) -> char {
    let view = hero_view(g).unwrap();
    cell_view(g, &view, at(x, y)).unwrap().unwrap().glyph.ch
}

/// An arena with an orc 7 cells east of the hero (beyond the torch's 5), a candelabra near
/// it shining or not, and an orc 3 cells west (within the torch).
fn orcs(seed: u64, light: bool) -> (Game, Rules) {
    let (mut g, rules, _) = arena(seed);
    candelabra(&mut g, 7, -3, light);
    put(&mut g, &rules, "orc", 7, 0);
    put(&mut g, &rules, "orc", -3, 0);
    (g, rules)
}

/// The hero sees a lit monster farther than an unlit one: the orc beyond the torch is drawn
/// and described only when the candelabra lights it; the one within the torch always.
#[test]
fn the_hero_sees_lit_monsters_farther_than_unlit_ones() {
    for seed in 1..=3 {
        let (dark, _) = orcs(seed, false);
        let (lit, _) = orcs(seed, true);
        assert_eq!(glyph_at(&lit, 7, 0), 'o', "seed {seed}: a lit orc is seen");
        assert_ne!(
            glyph_at(&dark, 7, 0),
            'o',
            "seed {seed}: an unlit one is not"
        );
        assert_eq!(
            glyph_at(&dark, -3, 0),
            'o',
            "seed {seed}: the torch shows a near one"
        );
        let far_dark = look_at(&dark, at(7, 0)).unwrap();
        let far_lit = look_at(&lit, at(7, 0)).unwrap();
        assert!(far_lit.text.contains("An orc"), "{}", far_lit.text);
        assert!(
            far_lit.text.contains("It stands in the light."),
            "{}",
            far_lit.text
        );
        assert!(!far_dark.text.contains("orc"), "{}", far_dark.text);
        assert!(far_dark.text.contains("It is dark"), "{}", far_dark.text);
        let near = look_at(&dark, at(-3, 0)).unwrap();
        assert!(near.text.contains("It stands in darkness"), "{}", near.text);
    }
}

/// The look at the hero's own cell and the morgue say whether the hero stands in light.
#[test]
fn the_look_and_the_morgue_say_where_the_hero_stood() {
    for light in [false, true] {
        let (mut g, _, _) = arena(1);
        candelabra(&mut g, -6, -3, light);
        let text = look_at(&g, at(0, 0)).unwrap().text;
        let morgue = morgue_text(&Ending {
            game: &g,
            seed: Some(1),
            modes: &alembic_session::Modes::none(),
            quit: true,
            recording: None,
            messages: &[],
            said: &[],
            unix_secs: 0,
        })
        .unwrap();
        if light {
            assert!(text.contains("You stand in the light"), "{text}");
            assert!(morgue.contains("Light:    you were standing in the light"));
        } else {
            assert!(text.contains("You stand in darkness"), "{text}");
            assert!(morgue.contains("Light:    you were standing in darkness"));
        }
    }
}
