//! Property tests: `Grid<T>` against a plain `HashMap<Loc, T>` oracle, and persistence.

use std::collections::HashMap;

use alembic::{Loc, LocBox, grid::Grid};
use proptest::prelude::*;

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic`).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

#[derive(Clone, Debug)]
enum GridAction {
    Set(Loc, u8),
    SetPersistent(Loc, u8),
    Fill(LocBox, u8),
    Snapshot,
    /// `build_directory_mut`: reads then go through the flat cell copy, the chunk array or
    /// the hash table, until the next write drops it.
    BuildDirectory,
}

/// Mostly a compact area (so writes collide and chunks are shared), sometimes anywhere.
fn loc() -> impl Strategy<Value = Loc> {
    prop_oneof![
        8 => (-40i32..40, -40i32..40, -3i32..3).prop_map(|(x, y, z)| Loc::new(x, y, z)),
        1 => (any::<i32>(), any::<i32>(), any::<i32>()).prop_map(|(x, y, z)| Loc::new(x, y, z)),
    ]
}

fn small_box() -> impl Strategy<Value = LocBox> {
    (
        -40i32..40,
        -40i32..40,
        -3i32..3,
        0i32..20,
        0i32..20,
        1i32..3,
    )
        .prop_map(|(x, y, z, w, h, d)| {
            LocBox::new(Loc::new(x, y, z), Loc::new(x + w, y + h, z + d))
        })
}

fn action() -> impl Strategy<Value = GridAction> {
    prop_oneof![
        6 => (loc(), any::<u8>()).prop_map(|(l, v)| GridAction::Set(l, v)),
        4 => (loc(), any::<u8>()).prop_map(|(l, v)| GridAction::SetPersistent(l, v)),
        1 => (small_box(), any::<u8>()).prop_map(|(b, v)| GridAction::Fill(b, v)),
        1 => Just(GridAction::Snapshot),
        1 => Just(GridAction::BuildDirectory),
    ]
}

fn oracle_get(o: &HashMap<Loc, u8>, l: Loc) -> u8 {
    o.get(&l).copied().unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(128)))]

    #[test]
    fn grid_matches_hashmap(actions in prop::collection::vec(action(), 1..120)) {
        let mut g = Grid::new(0u8);
        let mut o: HashMap<Loc, u8> = HashMap::new();
        let mut snaps: Vec<(Grid<u8>, HashMap<Loc, u8>)> = Vec::new();
        let mut touched: Vec<Loc> = Vec::new();
        for a in actions {
            match a {
                GridAction::Set(l, v) => {
                    g.set_mut(l, v);
                    o.insert(l, v);
                    touched.push(l);
                }
                GridAction::SetPersistent(l, v) => {
                    let before = g.clone();
                    let next = g.set(l, v);
                    // The older value is untouched by the persistent write.
                    prop_assert_eq!(*before.get(l), oracle_get(&o, l));
                    g = next;
                    o.insert(l, v);
                    touched.push(l);
                }
                GridAction::Fill(b, v) => {
                    g = g.fill_box(b, v);
                    for l in b.iter() {
                        o.insert(l, v);
                    }
                    touched.push(b.min);
                }
                GridAction::Snapshot => snaps.push((g.clone(), o.clone())),
                GridAction::BuildDirectory => {
                    g.build_directory_mut();
                    // A non-default cell means a written chunk, so a directory was built.
                    if g.iter_set().next().is_some() {
                        prop_assert!(g.has_directory());
                    }
                }
            }
            g.check_invariants().map_err(TestCaseError::fail)?;
            let view = g.view(LocBox::new(Loc::new(-45, -45, -4), Loc::new(45, 45, 4)));
            for &l in &touched {
                prop_assert_eq!(*g.get(l), oracle_get(&o, l), "at {}", l);
                prop_assert_eq!(*view.get(l), oracle_get(&o, l), "view at {}", l);
                // The neighbours too: cells just outside a copy's box or a chunk read as
                // the default.
                for n in [Loc::new(l.x.wrapping_add(1), l.y, l.z), Loc::new(l.x, l.y.wrapping_sub(1), l.z.wrapping_add(1))] {
                    prop_assert_eq!(*g.get(n), oracle_get(&o, n), "at {}", n);
                    prop_assert_eq!(*view.get(n), oracle_get(&o, n), "view at {}", n);
                }
            }
        }
        // Every cell the oracle knows, and the set of non-default cells, agree.
        let set: HashMap<Loc, u8> = g.iter_set().map(|(l, v)| (l, *v)).collect();
        let want: HashMap<Loc, u8> = o.iter().filter(|(_, v)| **v != 0).map(|(l, v)| (*l, *v)).collect();
        prop_assert_eq!(set, want);
        // Every snapshot still reads as it did when taken (persistence).
        for (sg, so) in &snaps {
            for (l, v) in so {
                prop_assert_eq!(sg.get(*l), v);
            }
            let set: HashMap<Loc, u8> = sg.iter_set().map(|(l, v)| (l, *v)).collect();
            let want: HashMap<Loc, u8> = so.iter().filter(|(_, v)| **v != 0).map(|(l, v)| (*l, *v)).collect();
            prop_assert_eq!(set, want);
        }
    }

    /// A grid carrying a read directory (a flat copy of its cells when they are dense, chunk
    /// pointers or a hash table when not) is iterated in the same order, with the same
    /// values, as without it: chunk by chunk, row-major within a chunk.
    #[test]
    fn iter_box_order_is_the_same_through_a_directory(
        writes in prop::collection::vec(((-20i32..40, -20i32..40, -1i32..2), any::<u8>()), 0..60),
        dense in any::<bool>(),
        area in small_box(),
    ) {
        let mut g = Grid::new(0u8);
        if dense {
            g.fill_box_mut(LocBox::new(Loc::new(-16, -16, -1), Loc::new(32, 32, 2)), 1);
        }
        for ((x, y, z), v) in writes {
            g.set_mut(Loc::new(x, y, z), v);
        }
        let mut read = g.clone();
        read.build_directory_mut();
        let plain: Vec<(Loc, u8)> = g.iter_box(area).map(|(l, v)| (l, *v)).collect();
        let by_next: Vec<(Loc, u8)> = read.iter_box(area).map(|(l, v)| (l, *v)).collect();
        prop_assert_eq!(&by_next, &plain);
        let mut by_fold = Vec::new();
        read.iter_box(area).for_each(|(l, v)| by_fold.push((l, *v)));
        prop_assert_eq!(&by_fold, &plain);
    }

    #[test]
    fn iter_box_matches_oracle_both_ways(
        writes in prop::collection::vec(((-20i32..40, -20i32..40, -1i32..2), any::<u8>()), 0..60),
        area in small_box(),
    ) {
        let mut g = Grid::new(0u8);
        let mut o = HashMap::new();
        for ((x, y, z), v) in writes {
            g.set_mut(Loc::new(x, y, z), v);
            o.insert(Loc::new(x, y, z), v);
        }
        let mut want: Vec<(Loc, u8)> = area.iter().map(|l| (l, oracle_get(&o, l))).collect();
        want.sort();
        // External iteration (`next`).
        let mut by_next = Vec::new();
        for (l, v) in g.iter_box(area) {
            by_next.push((l, *v));
        }
        by_next.sort();
        prop_assert_eq!(&by_next, &want);
        // Internal iteration (`fold`), which takes whole-chunk fast paths.
        let mut by_fold = Vec::new();
        g.iter_box(area).for_each(|(l, v)| by_fold.push((l, *v)));
        by_fold.sort();
        prop_assert_eq!(&by_fold, &want);
    }

    #[test]
    fn equality_ignores_tree_shape(writes in prop::collection::vec((loc(), 1u8..4), 0..40)) {
        let mut a = Grid::new(0u8);
        for (l, v) in &writes {
            a.set_mut(*l, *v);
        }
        // Same cells written in reverse order, plus default writes far away.
        let mut b = Grid::new(0u8);
        b.set_mut(Loc::new(1_000_000, -1_000_000, 77), 0);
        let mut seen = std::collections::HashSet::new();
        for (l, v) in writes.iter().rev() {
            if seen.insert(*l) {
                b.set_mut(*l, *v);
            }
        }
        prop_assert_eq!(&a, &b);
        let json_a = serde_json::to_string(&a).unwrap();
        let json_b = serde_json::to_string(&b).unwrap();
        prop_assert_eq!(json_a, json_b);
    }
}
