//! Property tests: `Grid<T>` against a plain `HashMap<Loc, T>` oracle, and persistence.

use std::collections::HashMap;

use alembic::{Loc, LocBox, grid::Grid};
use proptest::prelude::*;

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic-rl`).
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
    /// A cell at the edges of the `i32` range (or just inside them): far data, in the
    /// sparse tree, or in a level's array when several land near each other.
    SetEdge(Loc, u8),
    /// A box on a level far from the others, so that a level's array grows over chunks that
    /// were in the tree (sparse to dense).
    FillFar(LocBox, u8),
    /// A cell in the chunk of an earlier write (picked by the index), at the given offsets
    /// within the chunk (xor): the same cell again, or a second cell of an isolated chunk
    /// (a sparse one-cell chunk turning full).
    SetBeside(usize, i32, i32, u8),
}

/// Mostly a compact area (so writes collide and chunks are shared), sometimes anywhere.
fn loc() -> impl Strategy<Value = Loc> {
    prop_oneof![
        8 => (-40i32..40, -40i32..40, -3i32..3).prop_map(|(x, y, z)| Loc::new(x, y, z)),
        1 => (any::<i32>(), any::<i32>(), any::<i32>()).prop_map(|(x, y, z)| Loc::new(x, y, z)),
    ]
}

/// A coordinate at or near an edge of the `i32` range, or near 0 on either side.
fn edge() -> impl Strategy<Value = i32> {
    prop_oneof![
        (0i32..40).prop_map(|d| i32::MIN + d),
        (0i32..40).prop_map(|d| i32::MAX - d),
        -40i32..40,
    ]
}

/// A box of up to 3 × 3 chunks whose corner is anywhere, on one level.
fn far_box() -> impl Strategy<Value = LocBox> {
    (edge(), edge(), edge(), 0i32..48, 0i32..48).prop_map(|(x, y, z, w, h)| {
        let x = x.min(i32::MAX - w);
        let y = y.min(i32::MAX - h);
        let z = z.min(i32::MAX - 1);
        LocBox::new(Loc::new(x, y, z), Loc::new(x + w, y + h, z + 1))
    })
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
        2 => ((edge(), edge(), edge()), any::<u8>())
            .prop_map(|((x, y, z), v)| GridAction::SetEdge(Loc::new(x, y, z), v)),
        1 => (far_box(), any::<u8>()).prop_map(|(b, v)| GridAction::FillFar(b, v)),
        2 => (any::<usize>(), prop_oneof![Just(0i32), 0i32..16], 0i32..16, any::<u8>())
            .prop_map(|(i, dx, dy, v)| GridAction::SetBeside(i, dx, dy, v)),
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
                GridAction::SetEdge(l, v) => {
                    g = g.set(l, v);
                    o.insert(l, v);
                    touched.push(l);
                }
                GridAction::FillFar(b, v) => {
                    g.fill_box_mut(b, v);
                    for l in b.iter() {
                        o.insert(l, v);
                    }
                    touched.push(b.min);
                    touched.push(Loc::new(b.max.x.wrapping_sub(1), b.max.y.wrapping_sub(1), b.min.z));
                }
                GridAction::SetBeside(i, dx, dy, v) => {
                    if !touched.is_empty() {
                        let p = touched[i % touched.len()];
                        let dy = if dx == 0 { 0 } else { dy };
                        let l = Loc::new(p.x ^ dx, p.y ^ dy, p.z);
                        if i % 2 == 0 {
                            g.set_mut(l, v);
                        } else {
                            g = g.set(l, v);
                        }
                        o.insert(l, v);
                        touched.push(l);
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

    /// A grid whose chunks are in levels' arrays is iterated in the same order, with the same
    /// values, as the same cells written so that some chunks land in the sparse tree: chunk
    /// by chunk, row-major within a chunk.
    #[test]
    fn iter_box_order_is_the_same_whatever_the_layout(
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
        // The same cells with chunks far apart written first: the tree holds some chunks
        // until the level's array grows over them.
        // (Cells other than the default: a first write of the default to an empty grid does
        // nothing.) With level 0's array at the far anchor, the compact cells of level 0 are
        // sparse: one-cell chunks, or full ones.
        let mut read = Grid::new(0u8);
        read.set_mut(Loc::new(16 * 60, -16 * 60, 0), 1);
        read.set_mut(Loc::new(i32::MIN, i32::MIN, -1), 1);
        for (l, v) in g.iter_set().collect::<Vec<_>>().into_iter().rev() {
            read.set_mut(l, *v);
        }
        read.check_invariants().map_err(TestCaseError::fail)?;
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
        far in any::<bool>(),
    ) {
        let mut g = Grid::new(0u8);
        let mut o = HashMap::new();
        if far {
            // Level 0's array far away: the writes on level 0 go to the sparse store (one
            // cell in a chunk kept as the cell).
            let anchor = Loc::new(16 * 200 + 3, 16 * 200 + 3, 0);
            g.set_mut(anchor, 9);
            o.insert(anchor, 9);
        }
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
        // Same cells written in reverse order, plus writes far away set back to the default
        // (a first write of the default to an empty grid would do nothing).
        let mut b = Grid::new(0u8);
        b.set_mut(Loc::new(1_000_000, -1_000_000, 77), 5);
        b.set_mut(Loc::new(1_000_000, -1_000_000, 77), 0);
        let mut seen = std::collections::HashSet::new();
        for (l, v) in writes.iter().rev() {
            if seen.insert(*l) {
                b.set_mut(*l, *v);
            }
        }
        b.set_mut(Loc::new(-1_000_000, 1_000_000, -77), 0);
        // And the same cells written as one-cell boxes (whole chunks, never one-cell ones).
        let mut c = Grid::new(0u8);
        for (l, v) in &writes {
            c.fill_box_mut(LocBox::rect(l.x, l.y, 1, 1, l.z), *v);
        }
        for g in [&a, &b, &c] {
            g.check_invariants().map_err(TestCaseError::fail)?;
        }
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(&b, &a);
        prop_assert_eq!(&a, &c);
        prop_assert_eq!(&c, &a);
        prop_assert_eq!(&b, &c);
        let hash = |g: &Grid<u8>| {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            g.hash(&mut h);
            h.finish()
        };
        prop_assert_eq!(hash(&a), hash(&b));
        prop_assert_eq!(hash(&a), hash(&c));
        let json_a = serde_json::to_string(&a).unwrap();
        let json_b = serde_json::to_string(&b).unwrap();
        let json_c = serde_json::to_string(&c).unwrap();
        prop_assert_eq!(&json_a, &json_b);
        prop_assert_eq!(&json_a, &json_c);
        let back: Grid<u8> = serde_json::from_str(&json_a).unwrap();
        back.check_invariants().map_err(TestCaseError::fail)?;
        prop_assert_eq!(&back, &a);
    }
}
