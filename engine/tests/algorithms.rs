//! Behaviour tests of the engine algorithms through the public API only.

use alembic::{
    Loc, LocBox, Rgb, dice::Dice, dice::DiceError, fov::Fov, fov::VisibleSet, fov::field_of_view,
    light::LightMap, light::LightSource, mapgen::Adjacency, mapgen::Bsp, mapgen::MapGenError,
    mapgen::TileMap, mapgen::bsp_dungeon, mapgen::random_room, mapgen::retry, path::DijkstraMap,
    path::PathError, path::Pathfinder, path::Search, path::astar, path::explore_targets,
    rng::GameRng,
};
use proptest::prelude::*;

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic-rl`).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

// ---------------------------------------------------------------- helpers

/// Parses ASCII art: `#` wall, anything else floor; `@` marks the origin.
fn parse(rows: &[&str]) -> (TileMap<char>, Loc) {
    let map = TileMap::from_rows(rows, |c| c).expect("rectangular art");
    let origin = map
        .iter()
        .find(|(_, c)| **c == '@')
        .map_or(Loc::ORIGIN, |(l, _)| l);
    (map, origin)
}

fn transparent(map: &TileMap<char>) -> impl Fn(Loc) -> bool + '_ {
    move |l| map.get(l).is_some_and(|&c| c != '#')
}

/// The map redrawn with unseen cells as spaces.
fn fov_picture(rows: &[&str], radius: u32) -> Vec<String> {
    let (map, origin) = parse(rows);
    let seen = field_of_view(origin, radius, transparent(&map));
    (0..map.height())
        .map(|y| {
            (0..map.width())
                .map(|x| {
                    let l = Loc::new(x, y, 0);
                    if seen.contains(l) {
                        map.get(l).copied().unwrap_or('?')
                    } else {
                        ' '
                    }
                })
                .collect()
        })
        .collect()
}

fn walls_cost(map: &TileMap<bool>) -> impl Fn(Loc, Loc) -> Option<u32> + '_ {
    let open = |l: Loc| map.get(l).copied().unwrap_or(false);
    move |from, to| (open(from) && open(to)).then_some(1)
}

// ---------------------------------------------------------------- FOV golden tests

#[test]
fn fov_corridor_has_no_gaps_and_shows_both_walls() {
    let map = [
        "####################",
        "@...................",
        "####################",
    ];
    assert_eq!(fov_picture(&map, 30), map);
}

#[test]
fn fov_pillar_casts_a_clean_shadow_and_its_corners_stay_lit() {
    let map = [
        "...........",
        "...........",
        "...........",
        "....#......",
        "...........",
        "..@........",
        "...........",
        "...........",
    ];
    let want = [
        "......   ..",
        "......  ...",
        "..... .....",
        "....#......",
        "...........",
        "..@........",
        "...........",
        "...........",
    ];
    assert_eq!(fov_picture(&map, 12), want);
}

#[test]
fn fov_room_shows_every_wall_including_corners() {
    let map = [
        "#########",
        "#.......#",
        "#.......#",
        "#...@...#",
        "#.......#",
        "#########",
    ];
    assert_eq!(fov_picture(&map, 12), map);
}

#[test]
fn fov_diagonal_gap() {
    // Two walls touching at a corner: the line from @ through their shared corner is
    // (just) open in Ford's algorithm, the cells further off it are not.
    let map = ["......", ".@.#..", "..#...", "......", "......"];
    let want = ["......", ".@.#  ", "..#...", "...  .", "...   "];
    assert_eq!(fov_picture(&map, 12), want);
    // A dead-end corridor turning through a diagonal: the far leg stays hidden.
    let map = [
        "#######", "#@..#..", "###.#..", "####...", "###....", "###....",
    ];
    let want = [
        "#####  ", "#@..#  ", "###.#  ", "       ", "       ", "       ",
    ];
    assert_eq!(fov_picture(&map, 12), want);
}

#[test]
fn fov_radius_is_a_circle_and_levels_are_separate() {
    let seen = field_of_view(Loc::new(0, 0, 3), 5, |_| true);
    assert!(seen.contains(Loc::new(5, 0, 3)));
    assert!(seen.contains(Loc::new(4, 3, 3))); // 16 + 9 = 25 ≤ 30
    assert!(seen.contains(Loc::new(5, 2, 3))); // 25 + 4 = 29 ≤ 30
    assert!(!seen.contains(Loc::new(4, 4, 3))); // 32 > 30
    assert!(!seen.contains(Loc::new(6, 0, 3)));
    assert!(!seen.contains(Loc::new(0, 0, 2)));
    assert!(seen.iter().all(|l| l.z == 3));
}

#[test]
fn fov_workspace_reuse_gives_identical_results() {
    let (map, _) = parse(&[
        "..........",
        ".#..#.....",
        "...#...#..",
        ".....#....",
        "..#.......",
    ]);
    let mut fov = Fov::new();
    let mut reused = VisibleSet::new();
    for (l, _) in map.iter().filter(|(_, c)| **c != '#') {
        for r in [0, 3, 8] {
            fov.compute_into(l, r, transparent(&map), &mut reused);
            assert_eq!(reused, field_of_view(l, r, transparent(&map)));
        }
    }
}

fn random_walls(seed: u64, w: i32, h: i32, wall_pct: u64) -> TileMap<bool> {
    let mut rng = GameRng::seed_from(seed);
    let mut m = TileMap::new(w, h, true).expect("size");
    for y in 0..h {
        for x in 0..w {
            if rng.below(100) < wall_pct {
                m.set_mut(Loc::new(x, y, 0), false);
            }
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    /// If a floor cell is seen from the origin, the origin is seen from it.
    #[test]
    fn fov_is_symmetric(seed in any::<u64>(), wall_pct in 0u64..50, radius in 1u32..12) {
        let map = random_walls(seed, 24, 18, wall_pct);
        let open = |l: Loc| map.get(l).copied().unwrap_or(false);
        let mut fov = Fov::new();
        let mut from_a = VisibleSet::new();
        let mut from_b = VisibleSet::new();
        for (a, _) in map.iter().filter(|(_, f)| **f).step_by(7) {
            fov.compute_into(a, radius, open, &mut from_a);
            for b in from_a.iter().filter(|&b| open(b)) {
                fov.compute_into(b, radius, open, &mut from_b);
                prop_assert!(from_b.contains(a), "{a} sees {b} but not back");
            }
            // Walls next to the viewer are always visible.
            for n in a.neighbours4() {
                if map.get(n) == Some(&false) {
                    prop_assert!(from_a.contains(n));
                }
            }
        }
    }
}

// ---------------------------------------------------------------- lighting

#[test]
fn light_is_blocked_by_walls_and_falls_off() {
    let (map, _) = parse(&["..........", "..........", ".....#....", ".........."]);
    let area = LocBox::rect(0, 0, 10, 4, 0);
    let torch = LightSource::new(Loc::new(2, 2, 0), 10, Rgb::new(200, 100, 0));
    let light = LightMap::compute(area, &[torch], Rgb::BLACK, transparent(&map));
    assert_eq!(light.get(Loc::new(2, 2, 0)), Rgb::new(200, 100, 0));
    // 50 / (50 + 1) of full at distance 1.
    assert_eq!(light.get(Loc::new(3, 2, 0)), Rgb::new(196, 98, 0));
    let mut last = 255;
    for x in 2..=5 {
        let r = light.get(Loc::new(x, 2, 0)).r;
        assert!(r < last || x == 2, "x={x}");
        last = r;
    }
    assert!(light.get(Loc::new(5, 2, 0)).r > 0, "the wall itself is lit");
    assert_eq!(
        light.get(Loc::new(7, 2, 0)),
        Rgb::BLACK,
        "shadow behind the wall"
    );
    // Two lights add and saturate.
    let both = LightMap::compute(area, &[torch, torch], Rgb::new(0, 0, 9), transparent(&map));
    assert_eq!(both.get(Loc::new(2, 2, 0)), Rgb::new(255, 200, 9));
    // A light on another level does nothing here.
    let other = LightSource::new(Loc::new(2, 2, 1), 10, Rgb::WHITE);
    let none = LightMap::compute(area, &[other], Rgb::BLACK, transparent(&map));
    assert_eq!(none.get(Loc::new(2, 2, 0)), Rgb::BLACK);
    // The UI multiplies light into glyph colours.
    assert_eq!(
        Rgb::WHITE.modulate(light.get(Loc::new(2, 2, 0))),
        Rgb::new(200, 100, 0)
    );
}

// ---------------------------------------------------------------- pathfinding

/// Random weighted map: walls, and per-cell entry costs 1..=3 (×2 straight, ×3 diagonal).
fn weighted(seed: u64) -> (TileMap<u32>, impl Fn(Loc, Loc) -> Option<u32>) {
    let mut rng = GameRng::seed_from(seed);
    let mut m = TileMap::new(16, 12, 0u32).expect("size");
    for y in 0..12 {
        for x in 0..16 {
            let v = if rng.below(100) < 28 {
                0
            } else {
                rng.range(1, 3) as u32
            };
            m.set_mut(Loc::new(x, y, 0), v);
        }
    }
    let m2 = m.clone();
    let cost = move |from: Loc, to: Loc| {
        let c = *m2.get(to)?;
        (c > 0).then(|| {
            c * if from.x != to.x && from.y != to.y {
                3
            } else {
                2
            }
        })
    };
    (m, cost)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(96)))]

    /// A* is optimal: its cost equals the Dijkstra distance; and it fails exactly when the
    /// Dijkstra map says the goal is unreachable.
    #[test]
    fn astar_cost_equals_dijkstra_distance(seed in any::<u64>(), sx in 0i32..16, sy in 0i32..12, gx in 0i32..16, gy in 0i32..12) {
        let (map, cost) = weighted(seed);
        let area = map.bounds(0);
        let (start, goal) = (Loc::new(sx, sy, 0), Loc::new(gx, gy, 0));
        let search = Search::new(area).move_costs(2, 3);
        let dmap = DijkstraMap::build(area, &[goal], &cost);
        match astar(start, goal, &search, &cost) {
            Ok(path) => {
                prop_assert_eq!(Some(path.cost as i64), dmap.get(start));
                prop_assert_eq!(path.steps.first(), Some(&start));
                prop_assert_eq!(path.steps.last(), Some(&goal));
                // The path is made of legal moves whose costs add up.
                let mut total = 0u64;
                for w in path.steps.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    prop_assert_eq!(a.chebyshev(b), 1);
                    if a.x != b.x && a.y != b.y {
                        let o1 = Loc::new(b.x, a.y, 0);
                        let o2 = Loc::new(a.x, b.y, 0);
                        prop_assert!(cost(a, o1).is_some() || cost(a, o2).is_some(), "corner cut {a}->{b}");
                    }
                    total += u64::from(cost(a, b).expect("legal move"));
                }
                prop_assert_eq!(total, path.cost);
                // Rolling down the Dijkstra map follows an equally cheap route.
                let mut here = start;
                let mut rolled = 0u64;
                while let Some(next) = dmap.next_step(here, &cost) {
                    rolled += u64::from(cost(here, next).expect("legal"));
                    here = next;
                }
                prop_assert_eq!(here, goal);
                prop_assert_eq!(rolled, path.cost);
            }
            Err(PathError::NoPath { .. }) => {
                prop_assert_eq!(dmap.get(start), None);
            }
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }

    /// The exploration bound is never exceeded and is reported when it stops the search.
    #[test]
    fn astar_bound_is_respected(seed in any::<u64>(), bound in 0usize..60) {
        let (map, cost) = weighted(seed);
        let search = Search::new(map.bounds(0)).move_costs(2, 3);
        let (start, goal) = (Loc::new(0, 0, 0), Loc::new(15, 11, 0));
        let unbounded = astar(start, goal, &search, &cost);
        let bounded = astar(start, goal, &search.max_explored(bound), &cost);
        match bounded {
            Err(PathError::BoundReached { explored }) => prop_assert_eq!(explored, bound),
            Err(PathError::NoPath { explored }) => {
                prop_assert!(explored <= bound);
                let no_path = matches!(unbounded, Err(PathError::NoPath { .. }));
                prop_assert!(no_path, "bounded NoPath but unbounded {:?}", unbounded);
            }
            Ok(p) => prop_assert_eq!(Ok(p), unbounded),
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    /// The terrain fast path equals the general callback path with the equivalent cost:
    /// the map, its flee map and a map scaled by any ratio.
    #[test]
    fn dijkstra_terrain_matches_general(
        seed in any::<u64>(),
        goals in prop::collection::vec((0i32..16, 0i32..12), 1..4),
        num in -9i64..9,
        den in 1i64..7,
    ) {
        let (map, _) = weighted(seed);
        let area = map.bounds(0);
        let enter = |l: Loc| map.get(l).copied().filter(|&c| c > 0);
        let general = |a: Loc, b: Loc| {
            enter(a)?;
            enter(b).map(|e| e * if a.x != b.x && a.y != b.y { 14 } else { 10 })
        };
        let goals: Vec<Loc> = goals.into_iter().map(|(x, y)| Loc::new(x, y, 0)).collect();
        let slow = DijkstraMap::build(area, &goals, general);
        let mut fast = DijkstraMap::new(area);
        fast.rebuild_terrain(goals.iter().copied(), 10, 14, enter);
        prop_assert_eq!(slow.flee_terrain(10, 14, enter), slow.flee(general));
        prop_assert_eq!(
            slow.scaled_terrain(num, den, 10, 14, enter),
            slow.scaled(num, den, general)
        );
        prop_assert_eq!(fast, slow);
    }

    /// A bounded rebuild gives every cell within the bound the full map's value, and no
    /// other cell a value; reusing the map afterwards for an unbounded rebuild is unaffected.
    #[test]
    fn dijkstra_within_is_the_full_map_cut_at_the_bound(
        seed in any::<u64>(),
        goals in prop::collection::vec((0i32..16, 0i32..12), 1..4),
        bound in -1i64..60,
    ) {
        let (map, cost) = weighted(seed);
        let area = map.bounds(0);
        let goals: Vec<Loc> = goals.into_iter().map(|(x, y)| Loc::new(x, y, 0)).collect();
        let full = DijkstraMap::build(area, &goals, &cost);
        let mut cut = DijkstraMap::new(area);
        cut.rebuild_within(goals.iter().copied(), bound, &cost);
        for l in area.iter() {
            let want = full.get(l).filter(|&v| v <= bound);
            prop_assert_eq!(cut.get(l), want, "at {}", l);
        }
        cut.rebuild(goals.iter().copied(), &cost);
        prop_assert_eq!(cut, full);
    }

    /// A search settled in steps stops at the nearest of each question's targets within the
    /// question's bound, with the full map's value; every cell up to that value (or up to
    /// the bound, when no target is within it) reads as in the full map, and one step down
    /// from a target is the full map's step. Run to the end, it is the full map.
    #[test]
    fn dijkstra_settled_in_steps_agrees_with_the_full_map(
        seed in any::<u64>(),
        goal in (0i32..16, 0i32..12),
        questions in prop::collection::vec(
            (prop::collection::vec((0i32..16, 0i32..12), 1..4), 0i64..80),
            1..5,
        ),
    ) {
        let (map, cost) = weighted(seed);
        let area = map.bounds(0);
        let goal = Loc::new(goal.0, goal.1, 0);
        let full = DijkstraMap::build(area, &[goal], &cost);
        let mut steps = DijkstraMap::new(area);
        steps.begin_search([goal]);
        let mut settled = i64::MIN;
        for (targets, bound) in questions {
            let targets: Vec<Loc> = targets.into_iter().map(|(x, y)| Loc::new(x, y, 0)).collect();
            let nearest = targets
                .iter()
                .filter_map(|&t| full.get(t))
                .filter(|&v| v <= bound)
                .min();
            if nearest.is_some_and(|v| v <= settled) || (nearest.is_none() && bound <= settled) {
                continue; // already answered by what earlier questions settled
            }
            let got = steps.settle_until(|l| targets.contains(&l), bound, &cost);
            prop_assert_eq!(got, nearest);
            let upto = got.unwrap_or(bound);
            settled = settled.max(upto);
            for l in area.iter() {
                match full.get(l).filter(|&v| v <= settled) {
                    Some(v) => prop_assert_eq!(steps.get(l), Some(v), "at {}", l),
                    None => prop_assert!(steps.get(l).is_none_or(|v| v > settled), "at {}", l),
                }
            }
            for &t in &targets {
                if steps.get(t).is_some_and(|v| v <= settled) {
                    prop_assert_eq!(steps.next_step(t, &cost), full.next_step(t, &cost));
                }
            }
        }
        prop_assert_eq!(steps.settle_until(|_| false, i64::MAX, &cost), None);
        prop_assert_eq!(steps, full);
    }
}

#[test]
fn astar_reports_no_path_and_bound() {
    let map =
        TileMap::from_rows(&["....#....", "....#....", "....#...."], |c| c == '.').expect("art");
    let search = Search::new(map.bounds(0));
    let err = astar(
        Loc::new(0, 0, 0),
        Loc::new(8, 0, 0),
        &search,
        walls_cost(&map),
    );
    assert_eq!(err, Err(PathError::NoPath { explored: 12 }));
    let open = TileMap::new(60, 60, true).expect("size");
    let search = Search::new(open.bounds(0)).max_explored(25);
    let err = astar(
        Loc::new(0, 0, 0),
        Loc::new(59, 59, 0),
        &search,
        walls_cost(&open),
    );
    assert_eq!(err, Err(PathError::BoundReached { explored: 25 }));
    assert!(err.unwrap_err().to_string().contains("25"));
    // Goal on a wall: no path, never a panic.
    let err = astar(
        Loc::new(0, 0, 0),
        Loc::new(4, 1, 0),
        &Search::new(map.bounds(0)),
        walls_cost(&map),
    );
    assert!(matches!(err, Err(PathError::NoPath { .. })));
}

#[test]
fn pathfinder_reuse_and_nearest_item() {
    let map = TileMap::from_rows(
        &[
            "..........",
            ".######...",
            ".#....#...",
            ".#.$..#...",
            "......#.$.",
        ],
        |c| c,
    )
    .expect("art");
    let cost = |_: Loc, to: Loc| map.get(to).filter(|&&c| c != '#').map(|_| 1);
    let item = |l: Loc| map.get(l) == Some(&'$');
    let mut pf = Pathfinder::new();
    let search = Search::new(map.bounds(0));
    let p = pf
        .nearest(Loc::new(7, 0, 0), &search, item, cost)
        .expect("reachable");
    assert_eq!(p.end(), Some(Loc::new(8, 4, 0)));
    assert_eq!(p.cost, 4);
    let p = pf
        .nearest(Loc::new(0, 4, 0), &search, item, cost)
        .expect("reachable");
    assert_eq!(p.end(), Some(Loc::new(3, 3, 0)));
    assert_eq!(p.cost, 3);
    let none = pf.nearest(Loc::new(0, 0, 0), &search, |_| false, cost);
    assert!(matches!(none, Err(PathError::NoPath { .. })));
    for _ in 0..3 {
        let a = pf
            .astar(Loc::new(0, 0, 0), Loc::new(9, 4, 0), &search, cost)
            .expect("path");
        assert_eq!(a.cost, 10, "row 1 is walled: the long way round");
    }
}

#[test]
fn dijkstra_chase_flee_and_multiple_goals() {
    // A corridor with a side room: fleeing from the goal at the west end runs east.
    let map = TileMap::from_rows(
        &[
            "##########",
            "#........#",
            "####.#####",
            "####.#####",
            "##########",
        ],
        |c| c == '.',
    )
    .expect("art");
    let cost = walls_cost(&map);
    let area = map.bounds(0);
    let chase = DijkstraMap::build(area, &[Loc::new(1, 1, 0)], &cost);
    assert_eq!(chase.get(Loc::new(8, 1, 0)), Some(7));
    assert_eq!(chase.get(Loc::new(4, 3, 0)), Some(4));
    assert_eq!(chase.get(Loc::new(0, 0, 0)), None);
    assert_eq!(
        chase.next_step(Loc::new(8, 1, 0), &cost),
        Some(Loc::new(7, 1, 0))
    );
    assert_eq!(
        chase.next_step(Loc::new(1, 1, 0), &cost),
        None,
        "at the goal"
    );
    let flee = chase.flee(&cost);
    assert_eq!(
        flee.get(Loc::new(8, 1, 0)),
        Some(-8),
        "-1.2 × 7 rounded toward zero"
    );
    // From the junction the flee map prefers the long corridor over the short dead end.
    assert_eq!(
        flee.next_step(Loc::new(4, 1, 0), &cost),
        Some(Loc::new(5, 1, 0))
    );
    let mut here = Loc::new(2, 1, 0);
    for _ in 0..20 {
        match flee.next_step(here, &cost) {
            Some(n) => here = n,
            None => break,
        }
    }
    assert_eq!(here, Loc::new(8, 1, 0));
    // Two goals: each cell takes the nearer.
    let two = DijkstraMap::build(area, &[Loc::new(1, 1, 0), Loc::new(8, 1, 0)], &cost);
    assert_eq!(two.get(Loc::new(6, 1, 0)), Some(2));
    assert_eq!(two.iter().count(), 10);
    // Rebuilding in place equals building afresh.
    let mut reused = chase.clone();
    reused.rebuild([Loc::new(1, 1, 0), Loc::new(8, 1, 0)], &cost);
    assert_eq!(reused, two);
    // Weighted goals: a negative (attractive) goal pulls from further away.
    let mut w = DijkstraMap::new(area);
    w.rebuild_weighted([(Loc::new(1, 1, 0), 0), (Loc::new(8, 1, 0), -5)], &cost);
    assert_eq!(
        w.next_step(Loc::new(3, 1, 0), &cost),
        Some(Loc::new(4, 1, 0))
    );
}

#[test]
fn auto_explore_visits_everything_reachable() {
    let mut rng = GameRng::seed_from(21);
    let cave = TileMap::cave(40, 25, 0.55, 4, &mut rng)
        .and_then(|c| c.keep_largest_region(|&f| f, Adjacency::Four, false))
        .expect("cave");
    let area = cave.bounds(0);
    let cost = walls_cost(&cave);
    let mut here = cave
        .iter()
        .find(|(_, f)| **f)
        .map(|(l, _)| l)
        .expect("floor");
    let mut explored = TileMap::new(40, 25, false).expect("size");
    let mut fov = Fov::new();
    let mut seen = VisibleSet::new();
    let open = |l: Loc| cave.get(l).copied().unwrap_or(false);
    let mut map = DijkstraMap::new(area);
    for _turn in 0..5_000 {
        fov.compute_into(here, 6, open, &mut seen);
        for l in seen.iter() {
            explored.set_mut(l, true);
        }
        let targets = explore_targets(area, |l| explored.get(l) == Some(&true), open);
        if targets.is_empty() {
            break;
        }
        map.rebuild(targets, &cost);
        match map.next_step(here, &cost) {
            Some(n) => here = n,
            None => panic!("stuck at {here} with frontier left"),
        }
    }
    for (l, &floor) in cave.iter() {
        if floor {
            assert_eq!(explored.get(l), Some(&true), "{l} never seen");
        }
    }
}

// ---------------------------------------------------------------- map generation

#[test]
fn cellular_automaton_follows_the_five_of_nine_rule() {
    let mut rng = GameRng::seed_from(77);
    let raw = TileMap::cave(30, 20, 0.5, 0, &mut rng).expect("size");
    let smooth = raw.smooth();
    for (l, &f) in smooth.iter() {
        let border = l.x == 0 || l.y == 0 || l.x == 29 || l.y == 19;
        let floors = LocBox::rect(l.x - 1, l.y - 1, 3, 3, 0)
            .iter()
            .filter(|&n| raw.get(n) == Some(&true))
            .count();
        assert_eq!(f, !border && floors >= 5, "{l}: {floors} floors");
    }
    // Same seed, same cave; rounds compose.
    let a = TileMap::cave(30, 20, 0.5, 3, &mut GameRng::seed_from(77)).expect("size");
    assert_eq!(a, raw.smooth().smooth().smooth());
    assert_eq!(
        TileMap::cave(0, 20, 0.5, 3, &mut rng),
        Err(MapGenError::BadSize)
    );
}

#[test]
fn bsp_connection_points_lie_in_the_box_across_the_cut() {
    for seed in 0..50 {
        let area = LocBox::rect(3, 2, 70 + seed as i32 % 11, 40, 4);
        let bsp = Bsp::new(area, 6, 6, &mut GameRng::seed_from(seed));
        assert_eq!(bsp.leaves.len(), bsp.splits.len() + 1);
        let covered: u64 = bsp.leaves.iter().map(LocBox::volume).sum();
        assert_eq!(covered, area.volume(), "leaves tile the box");
        for leaf in &bsp.leaves {
            assert!(leaf.width() >= 6 && leaf.height() >= 6, "{leaf:?}");
            assert_eq!(leaf.intersect(&area), *leaf);
        }
        for s in &bsp.splits {
            let (a, b) = s.door;
            assert!(s.area.contains(a) && s.area.contains(b));
            assert!(s.first.contains(a) && s.second.contains(b));
            assert_eq!(a.chebyshev(b), 1);
            assert!(a.x == b.x || a.y == b.y, "orthogonally adjacent");
            assert_eq!(s.first.volume() + s.second.volume(), s.area.volume());
        }
    }
    let tiny = Bsp::new(
        LocBox::rect(0, 0, 5, 5, 0),
        3,
        8,
        &mut GameRng::seed_from(1),
    );
    assert_eq!(tiny.leaves, vec![LocBox::rect(0, 0, 5, 5, 0)]);
    assert!(tiny.splits.is_empty());
}

#[test]
fn bsp_dungeons_are_connected() {
    for seed in 0..30 {
        let level = bsp_dungeon(80, 50, &mut GameRng::seed_from(seed)).expect("fits");
        let start = level
            .iter()
            .find(|(_, f)| **f)
            .map(|(l, _)| l)
            .expect("floor");
        let n = level
            .check_connected(start, |&f| f, Adjacency::Four)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(n > 200, "seed {seed}: only {n} floor cells");
        for (l, &f) in level.iter() {
            if l.x == 0 || l.y == 0 || l.x == 79 || l.y == 49 {
                assert!(!f, "border floor at {l}");
            }
        }
    }
    assert!(bsp_dungeon(3, 3, &mut GameRng::seed_from(1)).is_err());
}

#[test]
fn flood_fill_labels_regions_and_checker_reports_unreachable_ones() {
    let map = TileMap::from_rows(&["..#....", "..#.#..", "###.#.#", "...#..."], |c| c == '.')
        .expect("art");
    let four = map.regions(|&f| f, Adjacency::Four);
    assert_eq!(
        map.render_regions(&four),
        "aa bbbb\naa b bb\n   b b \nccc bbb\n"
    );
    assert_eq!(four.len(), 3);
    assert_eq!((four.size(0), four.size(1), four.size(2)), (4, 12, 3));
    assert_eq!(four.largest(), Some(1));
    assert_eq!(four.label(Loc::new(2, 0, 0)), None);
    assert_eq!(four.label(Loc::new(-1, 0, 0)), None);
    assert_eq!(
        four.cells(2).collect::<Vec<_>>(),
        vec![Loc::new(0, 3, 0), Loc::new(1, 3, 0), Loc::new(2, 3, 0)]
    );
    // Plain eight-way adjacency joins c to b through the diagonal squeeze at (2,3)-(3,2).
    let eight = map.regions(|&f| f, Adjacency::Eight);
    assert_eq!(eight.len(), 2);
    let err = map
        .check_connected(Loc::new(0, 0, 0), |&f| f, Adjacency::Four)
        .unwrap_err();
    assert_eq!(err.regions.len(), 2);
    assert!(
        err.to_string()
            .starts_with("2 unreachable region(s), 15 cell(s)"),
        "{err}"
    );
    let err = map
        .check_connected(Loc::new(0, 0, 0), |&f| f, Adjacency::Eight)
        .unwrap_err();
    assert_eq!(err.regions.len(), 1);
    assert_eq!(err.regions[0].len(), 15);
    assert_eq!(
        map.check_connected(Loc::new(3, 0, 0), |&f| f, Adjacency::Eight)
            .map_err(|e| e.regions.len()),
        Err(1)
    );
    // The squeeze: connected for Eight, not for Four (= no-corner-cutting movement).
    let squeeze = TileMap::from_rows(&[".#", "#."], |c| c == '.').expect("art");
    assert_eq!(squeeze.regions(|&f| f, Adjacency::Eight).len(), 1);
    assert_eq!(
        squeeze
            .check_connected(Loc::new(1, 1, 0), |&f| f, Adjacency::Four)
            .map_err(|e| e.regions),
        Err(vec![vec![Loc::new(0, 0, 0)]])
    );
    assert_eq!(
        squeeze.check_connected(Loc::new(1, 1, 0), |&f| f, Adjacency::Eight),
        Ok(2)
    );
    let kept = map
        .keep_largest_region(|&f| f, Adjacency::Four, false)
        .expect("floor");
    assert_eq!(kept.count(|&f| f), 12);
    assert_eq!(kept.regions(|&f| f, Adjacency::Four).len(), 1);
    let walls = TileMap::new(3, 3, false).expect("size");
    assert_eq!(
        walls.keep_largest_region(|&f| f, Adjacency::Four, false),
        Err(MapGenError::NothingPassable)
    );
}

#[test]
fn failed_steps_leave_the_map_untouched_and_retry_recovers() {
    let map = TileMap::new(10, 6, '#').expect("size");
    let before = map.clone();
    assert_eq!(
        map.carve_room(LocBox::rect(8, 1, 4, 2, 0), '.'),
        Err(MapGenError::RoomOffMap)
    );
    assert_eq!(
        map.carve_line(Loc::new(0, 0, 0), Loc::new(10, 0, 0), '.'),
        Err(MapGenError::OffMap { x: 10, y: 0 })
    );
    assert!(map.with(Loc::new(-1, 0, 0), '.').is_err());
    assert!(
        map.drunkard_walk(Loc::new(0, 9, 0), 10, &mut GameRng::seed_from(1), '.')
            .is_err()
    );
    assert_eq!(map, before);
    // The in-place forms refuse the same steps and change nothing either.
    let mut m = map.clone();
    assert!(m.carve_room_mut(LocBox::rect(8, 1, 4, 2, 0), '.').is_err());
    assert!(
        m.carve_l_mut(Loc::new(1, 1, 0), Loc::new(3, 9, 0), true, '.')
            .is_err()
    );
    assert!(
        m.carve_winding_mut(
            Loc::new(1, 1, 0),
            Loc::new(30, 1, 0),
            0.3,
            &mut GameRng::seed_from(2),
            '.'
        )
        .is_err()
    );
    assert_eq!(m, before);
    // And when they succeed, they equal the persistent forms.
    m.carve_room_mut(LocBox::rect(1, 1, 3, 2, 0), '.')
        .expect("fits");
    assert_eq!(Ok(m), map.carve_room(LocBox::rect(1, 1, 3, 2, 0), '.'));
    let mut rng = GameRng::seed_from(3);
    let mut tries = 0;
    let room = retry(&mut rng, 100, |rng| {
        tries += 1;
        let x = rng.range(0, 9) as i32;
        map.carve_room(LocBox::rect(x, 1, 4, 3, 0), '.')
    })
    .expect("a room fits eventually");
    assert!(tries >= 1);
    assert_eq!(room.count(|&c| c == '.'), 12);
    assert_eq!(
        retry(&mut rng, 5, |_| Err::<(), _>(MapGenError::RoomOffMap)),
        Err(MapGenError::GaveUp(5))
    );
}

#[test]
fn corridors_are_walkable() {
    let blank = TileMap::new(30, 20, false).expect("size");
    let mut rng = GameRng::seed_from(8);
    let (a, b) = (Loc::new(2, 3, 0), Loc::new(25, 17, 0));
    let cases = [
        ("straight", blank.carve_line(a, Loc::new(25, 3, 0), true)),
        ("staircase", blank.carve_line(a, b, true)),
        ("L", blank.carve_l(a, b, true, true)),
        ("L vertical first", blank.carve_l(a, b, false, true)),
        ("winding", blank.carve_winding(a, b, 0.4, &mut rng, true)),
    ];
    for (name, m) in cases {
        let m = m.expect(name);
        assert_eq!(m.get(a), Some(&true), "{name}");
        let end = if name == "straight" {
            Loc::new(25, 3, 0)
        } else {
            b
        };
        let cost = walls_cost(&m);
        let p = astar(a, end, &Search::new(m.bounds(0)), cost);
        assert!(p.is_ok(), "{name}: {p:?}");
        assert!(
            m.check_connected(a, |&f| f, Adjacency::Four).is_ok(),
            "{name}"
        );
    }
    let straight = blank.carve_line(a, Loc::new(25, 3, 0), true).expect("line");
    assert_eq!(straight.count(|&f| f), 24);
    let stairs = blank.carve_line(a, b, true).expect("line");
    assert_eq!(
        stairs.count(|&f| f),
        23 + 14 + 1,
        "4-connected: one cell per unit step"
    );
    let walk = blank
        .drunkard_walk(Loc::new(15, 10, 0), 400, &mut rng, true)
        .expect("walk");
    assert!(walk.count(|&f| f) > 40);
    assert!(
        walk.iter()
            .all(|(l, &f)| !f || (l.x > 0 && l.y > 0 && l.x < 29 && l.y < 19))
    );
    assert!(
        walk.check_connected(Loc::new(15, 10, 0), |&f| f, Adjacency::Four)
            .is_ok()
    );
    let room = random_room(LocBox::rect(0, 0, 10, 8, 0), 3, 20, &mut rng).expect("fits");
    assert!(room.min.x >= 1 && room.min.y >= 1 && room.max.x <= 9 && room.max.y <= 7);
    assert_eq!(
        random_room(LocBox::rect(0, 0, 4, 8, 0), 3, 20, &mut rng),
        Err(MapGenError::NoRoomFits { min_side: 3 })
    );
}

// ---------------------------------------------------------------- dice

#[test]
fn dice_parse_and_roll_deterministically() {
    let dice: Dice = "3d6+2".parse().expect("valid");
    let a: Vec<i64> = {
        let mut r = GameRng::seed_from(4);
        (0..20).map(|_| dice.roll(&mut r)).collect()
    };
    let b: Vec<i64> = {
        let mut r = GameRng::seed_from(4);
        (0..20).map(|_| dice.roll(&mut r)).collect()
    };
    assert_eq!(a, b);
    assert!(a.iter().all(|v| (5..=20).contains(v)));
    assert_eq!(
        "3d".parse::<Dice>().unwrap_err().to_string(),
        "bad dice expression \"3d\": expected the number of sides after 'd' (expected e.g. \"3d6+2\")"
    );
    assert_eq!("".parse::<Dice>(), Err(DiceError::Empty));
}

proptest! {
    #[test]
    fn dice_parser_never_panics(s in ".{0,40}") {
        if let Ok(d) = s.parse::<Dice>() {
            // Whatever parses prints back to something that parses to the same dice.
            prop_assert_eq!(d.to_string().parse::<Dice>(), Ok(d));
            prop_assert!(d.min() <= d.max());
        }
    }

    #[test]
    fn dice_parser_handles_number_soup(a in any::<u64>(), b in any::<u64>(), c in any::<i64>()) {
        let s = format!("{a}d{b}{c:+}");
        match s.parse::<Dice>() {
            Ok(d) => {
                prop_assert_eq!(u64::from(d.count()), a);
                prop_assert_eq!(u64::from(d.sides()), b);
                prop_assert_eq!(d.modifier(), c);
            }
            Err(e) => prop_assert!(matches!(e, DiceError::TooLarge { .. } | DiceError::TooManyDice { .. } | DiceError::ZeroSides), "{s}: {e:?}"),
        }
    }
}
