//! Property tests: random sequences of actions run against both a `Game` and a plain
//! `HashMap`-based oracle. After every step the two agree and `check_invariants()` passes;
//! refused actions change nothing; every earlier game value is unchanged at the end.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use alembic::{
    Error, Game, Library, Loc, LocBox, Place, Prop, Props, Thing, ThingId, library::IS_CONTAINER,
    library::TileId, props::Modifier,
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

const HP: Prop<i32> = Prop::with_default("hp", 0);
const ST: Prop<i32> = Prop::with_default("st", 10);
/// An indexed flag: `indexes().things_with(&HOT)` answers from the index and must equal a scan.
const HOT: Prop<bool> = Prop::with_default("hot", false);

#[derive(Clone, Debug)]
enum Dest {
    Map(Loc),
    /// Into the n-th id ever issued (may be removed or not a container).
    In(usize),
}

#[derive(Clone, Debug)]
enum Action {
    Add {
        dest: Dest,
        container: bool,
        hp: i32,
        st_bonus: Option<i64>,
    },
    Remove(usize),
    Move(usize, Dest),
    Update {
        which: usize,
        hp: i32,
        st_bonus: Option<i64>,
    },
    Set(usize, i32),
    SetHot(usize, bool),
    SetTile(Loc, u16),
    Snapshot,
}

#[derive(Clone, Debug, PartialEq)]
struct OThing {
    place: Place,
    container: bool,
    hp: i32,
    st_bonus: Option<i64>,
    hot: bool,
    contents: Vec<ThingId>,
}

#[derive(Clone, Debug, Default)]
struct Oracle {
    things: HashMap<ThingId, OThing>,
    cells: HashMap<Loc, Vec<ThingId>>,
    tiles: HashMap<Loc, u16>,
}

impl Oracle {
    fn detach(&mut self, id: ThingId) {
        match self.things[&id].place {
            Place::Map(l) => self.cells.entry(l).or_default().retain(|&x| x != id),
            Place::In(c) => self
                .things
                .get_mut(&c)
                .unwrap()
                .contents
                .retain(|&x| x != id),
        }
    }
    fn attach(&mut self, id: ThingId, place: Place) {
        match place {
            Place::Map(l) => self.cells.entry(l).or_default().push(id),
            Place::In(c) => self.things.get_mut(&c).unwrap().contents.push(id),
        }
        self.things.get_mut(&id).unwrap().place = place;
    }
    /// Why moving `moving` (None = a new thing) to `dest` is refused, if it is.
    fn refuse(&self, moving: Option<ThingId>, dest: Place) -> Option<Error> {
        let Place::In(c) = dest else { return None };
        let Some(ct) = self.things.get(&c) else {
            return Some(Error::NoSuchThing(c));
        };
        if !ct.container {
            return Some(Error::NotAContainer(c));
        }
        if let Some(m) = moving {
            let mut cur = c;
            loop {
                if cur == m {
                    return Some(Error::ContainmentCycle { thing: m, into: c });
                }
                match self.things[&cur].place {
                    Place::Map(_) => return None,
                    Place::In(p) => cur = p,
                }
            }
        }
        None
    }
    fn st(&self, id: ThingId) -> i32 {
        let bonus: i64 = self.things[&id]
            .contents
            .iter()
            .filter_map(|c| self.things[c].st_bonus)
            .sum();
        (10 + bonus) as i32
    }
    fn location(&self, id: ThingId) -> Loc {
        match self.things[&id].place {
            Place::Map(l) => l,
            Place::In(c) => self.location(c),
        }
    }
}

/// Mostly a few crowded cells (piles, moves within one chunk of the cell index), sometimes
/// other chunks and levels, now and then anywhere (the index's tree grows and is rebuilt in
/// another shape on load).
fn loc() -> impl Strategy<Value = Loc> {
    prop_oneof![
        6 => (-3i32..3, -3i32..3, -1i32..1),
        2 => (-40i32..40, -40i32..40, -3i32..1),
        1 => (any::<i32>(), any::<i32>(), any::<i32>()),
    ]
    .prop_map(|(x, y, z)| Loc::new(x, y, z))
}

fn dest() -> impl Strategy<Value = Dest> {
    prop_oneof![
        1 => loc().prop_map(Dest::Map),
        1 => (0usize..40).prop_map(Dest::In),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        5 => (dest(), any::<bool>(), -50i32..50, prop::option::of(-3i64..4))
            .prop_map(|(dest, container, hp, st_bonus)| Action::Add { dest, container, hp, st_bonus }),
        2 => (0usize..40).prop_map(Action::Remove),
        4 => (0usize..40, dest()).prop_map(|(i, d)| Action::Move(i, d)),
        2 => (0usize..40, -50i32..50, prop::option::of(-3i64..4))
            .prop_map(|(which, hp, st_bonus)| Action::Update { which, hp, st_bonus }),
        2 => (0usize..40, -50i32..50).prop_map(|(i, v)| Action::Set(i, v)),
        2 => (0usize..40, any::<bool>()).prop_map(|(i, v)| Action::SetHot(i, v)),
        1 => (loc(), 0u16..3).prop_map(|(l, t)| Action::SetTile(l, t)),
        1 => Just(Action::Snapshot),
    ]
}

fn new_thing(container: bool, hp: i32, st_bonus: Option<i64>) -> Thing {
    let mut p = Props::new()
        .with(&HP, hp)
        .with(&IS_CONTAINER, container)
        .with(&HOT, hp > 0);
    if let Some(b) = st_bonus {
        p = p.modifier(Modifier::add(&ST, b));
    }
    Thing::new(p)
}

fn place_of(d: &Dest, issued: &[ThingId]) -> Place {
    match d {
        Dest::Map(l) => Place::Map(*l),
        Dest::In(i) => Place::In(issued.get(*i).copied().unwrap_or(ThingId(999_999))),
    }
}

fn base_game() -> Game {
    let mut lib = Library::new();
    lib.define_tile_mut("floor", Props::new()).unwrap();
    lib.define_tile_mut("wall", Props::new()).unwrap();
    Game::new(7).with_library(lib).index_flag(&HOT)
}

fn agree(g: &Game, o: &Oracle) -> Result<(), TestCaseError> {
    g.check_invariants()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(g.things().count(), o.things.len());
    for (id, ot) in &o.things {
        let t = g
            .things()
            .get(*id)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(t.place(), Some(ot.place));
        prop_assert_eq!(t.contents(), ot.contents.as_slice());
        // Through the game too: a thing holding nothing is answered from its flag word.
        prop_assert_eq!(g.things().contents(*id), Ok(ot.contents.as_slice()));
        prop_assert_eq!(g.query(*id, &HP), Ok(ot.hp));
        prop_assert_eq!(g.query(*id, &ST), Ok(o.st(*id)), "strength of {}", id);
        prop_assert_eq!(g.things().location(*id), Ok(o.location(*id)));
    }
    // An id the game issued and removed (or never issued) holds nothing: it is no thing.
    for raw in 0..g.things().next_id() + 2 {
        let id = ThingId(raw);
        if !o.things.contains_key(&id) {
            prop_assert_eq!(g.things().contents(id), Err(Error::NoSuchThing(id)));
        }
    }
    // One cell view for every read: it remembers the chunk of the read before, which the
    // next read may share or not (the oracle's cells come in (x, y, z) order).
    let cells = g.things().cursor();
    for (l, ids) in &o.cells {
        prop_assert_eq!(g.things().at(*l), ids.as_slice());
        prop_assert_eq!(cells.things_at(*l), ids.as_slice());
        let next = Loc::new(l.x.wrapping_add(1), l.y, l.z);
        prop_assert_eq!(cells.things_at(next), g.things().at(next));
    }
    // Box and level scans list exactly the occupied cells, in (z, y, x) order.
    let occupied = |keep: &dyn Fn(Loc) -> bool| {
        let mut v: Vec<(Loc, Vec<ThingId>)> = o
            .cells
            .iter()
            .filter(|(l, ids)| !ids.is_empty() && keep(**l))
            .map(|(l, ids)| (*l, ids.clone()))
            .collect();
        v.sort_by_key(|(l, _)| (l.z, l.y, l.x));
        v
    };
    let owned = |v: Vec<(Loc, &[ThingId])>| -> Vec<(Loc, Vec<ThingId>)> {
        v.into_iter().map(|(l, ids)| (l, ids.to_vec())).collect()
    };
    for z in -3..1 {
        prop_assert_eq!(owned(g.things().on_level(z)), occupied(&|l: Loc| l.z == z));
        // The same things chunk by chunk: chunk row, chunk column, then the cells row-major.
        let mut by_chunk = occupied(&|l: Loc| l.z == z);
        by_chunk.sort_by_key(|(l, _)| (l.y >> 4, l.x >> 4, l.y, l.x));
        let ids: Vec<ThingId> = by_chunk.into_iter().flat_map(|(_, ids)| ids).collect();
        prop_assert_eq!(g.things().ids_on_level(z), ids);
    }
    let area = LocBox::new(Loc::new(-2, -3, -1), Loc::new(30, 2, 1));
    prop_assert_eq!(
        owned(g.things().in_box(area)),
        occupied(&|l: Loc| area.contains(l))
    );
    let terrain = g.terrain().view(area);
    for (l, t) in &o.tiles {
        prop_assert_eq!(g.tile(*l), TileId(*t));
        prop_assert_eq!(*terrain.get(*l), TileId(*t));
    }
    // The maintained index and the unindexed scan both match the oracle.
    let mut hot: Vec<ThingId> = o
        .things
        .iter()
        .filter(|(_, t)| t.hot)
        .map(|(id, _)| *id)
        .collect();
    hot.sort();
    prop_assert!(g.indexes().is_indexed(&HOT));
    prop_assert_eq!(g.indexes().things_with(&HOT), hot);
    let mut containers: Vec<ThingId> = o
        .things
        .iter()
        .filter(|(_, t)| t.container)
        .map(|(id, _)| *id)
        .collect();
    containers.sort();
    prop_assert_eq!(g.indexes().things_with(&IS_CONTAINER), containers);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(96)))]

    #[test]
    fn game_matches_oracle(actions in prop::collection::vec(action(), 1..80)) {
        let mut g = base_game();
        let mut o = Oracle::default();
        let mut issued: Vec<ThingId> = Vec::new();
        let mut snaps: Vec<(Game, Oracle, u64)> = Vec::new();
        for a in actions {
            let before = g.clone();
            let result: Result<(), Error> = match &a {
                Action::Add { dest, container, hp, st_bonus } => {
                    let place = place_of(dest, &issued);
                    let expect = o.refuse(None, place);
                    match g.add_thing(place, new_thing(*container, *hp, *st_bonus)) {
                        Ok((ng, id)) => {
                            prop_assert!(expect.is_none(), "expected {:?}", expect);
                            g = ng;
                            issued.push(id);
                            o.things.insert(id, OThing {
                                place, container: *container, hp: *hp, st_bonus: *st_bonus,
                                hot: *hp > 0, contents: vec![],
                            });
                            o.attach(id, place);
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert_eq!(Some(e.clone()), expect);
                            Err(e)
                        }
                    }
                }
                Action::Remove(i) => {
                    let id = issued.get(*i).copied().unwrap_or(ThingId(999_999));
                    match g.remove_thing(id) {
                        Ok(ng) => {
                            prop_assert!(o.things.contains_key(&id));
                            g = ng;
                            o.detach(id);
                            let mut stack = vec![id];
                            while let Some(x) = stack.pop() {
                                if let Some(t) = o.things.remove(&x) {
                                    stack.extend(t.contents);
                                }
                            }
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert_eq!(&e, &Error::NoSuchThing(id));
                            prop_assert!(!o.things.contains_key(&id));
                            Err(e)
                        }
                    }
                }
                Action::Move(i, d) => {
                    let id = issued.get(*i).copied().unwrap_or(ThingId(999_999));
                    let place = place_of(d, &issued);
                    let expect = if o.things.contains_key(&id) {
                        o.refuse(Some(id), place)
                    } else {
                        Some(Error::NoSuchThing(id))
                    };
                    match g.move_thing(id, place) {
                        Ok(ng) => {
                            prop_assert!(expect.is_none(), "expected {:?}", expect);
                            g = ng;
                            if o.things[&id].place != place {
                                o.detach(id);
                                o.attach(id, place);
                            }
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert_eq!(Some(e.clone()), expect);
                            Err(e)
                        }
                    }
                }
                Action::Update { which, hp, st_bonus } => {
                    let id = issued.get(*which).copied().unwrap_or(ThingId(999_999));
                    let r = g.things().get(id).cloned().and_then(|mut t| {
                        t.set_mut(&HP, *hp);
                        t.set_mut(&HOT, *hp > 0);
                        t.set_modifiers_mut(st_bonus.map(|b| Modifier::add(&ST, b)).into_iter().collect());
                        g.update_thing(t)
                    });
                    match r {
                        Ok(ng) => {
                            g = ng;
                            let ot = o.things.get_mut(&id).unwrap();
                            ot.hp = *hp;
                            ot.hot = *hp > 0;
                            ot.st_bonus = *st_bonus;
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert!(!o.things.contains_key(&id));
                            Err(e)
                        }
                    }
                }
                Action::Set(i, v) => {
                    let id = issued.get(*i).copied().unwrap_or(ThingId(999_999));
                    match g.set(id, &HP, *v) {
                        Ok(ng) => {
                            g = ng;
                            o.things.get_mut(&id).unwrap().hp = *v;
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert!(!o.things.contains_key(&id));
                            Err(e)
                        }
                    }
                }
                Action::SetHot(i, v) => {
                    let id = issued.get(*i).copied().unwrap_or(ThingId(999_999));
                    match g.set(id, &HOT, *v) {
                        Ok(ng) => {
                            g = ng;
                            o.things.get_mut(&id).unwrap().hot = *v;
                            Ok(())
                        }
                        Err(e) => {
                            prop_assert!(!o.things.contains_key(&id));
                            Err(e)
                        }
                    }
                }
                Action::SetTile(l, t) => match g.set_tile(*l, TileId(*t)) {
                    Ok(ng) => {
                        g = ng;
                        o.tiles.insert(*l, *t);
                        Ok(())
                    }
                    Err(e) => Err(e),
                },
                Action::Snapshot => {
                    snaps.push((g.clone(), o.clone(), g.state_hash()));
                    Ok(())
                }
            };
            if result.is_err() {
                // A refused action changes nothing.
                prop_assert!(g == before);
                prop_assert_eq!(g.state_hash(), before.state_hash());
            }
            agree(&g, &o)?;
        }
        // Persistence: every snapshot still agrees with the oracle as it was then.
        for (sg, so, hash) in &snaps {
            agree(sg, so)?;
            prop_assert_eq!(sg.state_hash(), *hash);
        }
        // Save/load round trip preserves the game exactly.
        let json = serde_json::to_string(&g).unwrap();
        let back: Game = serde_json::from_str(&json).unwrap();
        prop_assert!(back == g);
        prop_assert_eq!(back.state_hash(), g.state_hash());
    }
}
