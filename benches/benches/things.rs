//! Thing operations on a game with 10,000 things on a map, beside a `HashMap` baseline.
//!
//! Run: `cargo bench -p alembic-benches --bench things`

use std::collections::HashMap;
use std::hint::black_box;

use alembic::{Game, IS_CONTAINER, Loc, Modifier, Prop, Props, Thing, ThingId};
use criterion::{Criterion, criterion_group, criterion_main};

const ST: Prop<i32> = Prop::new("st");
const HPS: Prop<i32> = Prop::new("hps");
const N: usize = 10_000;

fn loc_of(i: usize) -> Loc {
    Loc::new(
        (i % 100) as i32,
        (i / 100 % 100) as i32,
        -((i / 10_000) as i32) - 1,
    )
}

/// 10,000 things spread over a 100 × 100 level; thing 0 carries 5 strength modifiers.
fn setup() -> (Game, Vec<ThingId>) {
    let mut g = Game::new(1);
    let mut ids = Vec::with_capacity(N);
    for i in 0..N {
        let t = Thing::new(
            Props::new()
                .with(ST, 10)
                .with(HPS, i as i32)
                .with(IS_CONTAINER, true),
        );
        ids.push(g.add_thing_mut(loc_of(i), t).expect("add"));
    }
    for k in 0..5 {
        let effect = Thing::new(Props::new().modifier(Modifier::add(ST, k - 2)));
        g.add_thing_mut(ids[0], effect).expect("add effect");
    }
    (g, ids)
}

fn bench_things(c: &mut Criterion) {
    let (g, ids) = setup();
    let baseline: HashMap<ThingId, Thing> = ids
        .iter()
        .map(|id| (*id, g.get_thing(*id).expect("thing").clone()))
        .collect();
    assert_eq!(g.query(ids[0], &ST), Ok(10 - 2 - 1 + 1 + 2));

    let mut group = c.benchmark_group("things/get_thing");
    let mut i = 0usize;
    group.bench_function("hashmap_baseline", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(baseline.get(&ids[i]))
        })
    });
    group.bench_function("game", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.get_thing(ids[i]).is_ok())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("things/query_5_modifiers");
    group.bench_function("hashmap_base_read", |b| {
        b.iter(|| black_box(baseline.get(&ids[0]).map(|t| t.get(&ST))))
    });
    group.bench_function("game_query", |b| b.iter(|| black_box(g.query(ids[0], &ST))));
    group.finish();

    // Reading a cell: occupied cells (one thing each) and empty cells of the same level.
    let mut group = c.benchmark_group("things/things_at");
    let cells: HashMap<Loc, Vec<ThingId>> = ids
        .iter()
        .map(|&id| (g.location(id).expect("placed"), vec![id]))
        .collect();
    group.bench_function("hashmap_baseline_occupied", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(cells.get(&loc_of(i)).map_or(0, Vec::len))
        })
    });
    group.bench_function("game_occupied", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.things_at(loc_of(i)).len())
        })
    });
    group.bench_function("game_empty", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.things_at(loc_of(i) + Loc::new(0, 100, 0)).len())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("things/move_thing");
    group.bench_function("hashmap_clone_thing_and_insert", |b| {
        let mut m = baseline.clone();
        b.iter(|| {
            i = (i + 7919) % N;
            let t = m[&ids[i]].clone();
            black_box(m.insert(ids[i], t));
        })
    });
    group.bench_function("game_persistent", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.move_thing(ids[i], loc_of(i + 1)))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("things/add_remove");
    group.bench_function("game_add_persistent", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.add_thing(loc_of(i), Thing::new(Props::new().with(HPS, 1))))
        })
    });
    group.bench_function("game_remove_persistent", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.remove_thing(ids[i]))
        })
    });
    group.finish();
}

criterion_group!(benches, bench_things);
criterion_main!(benches);
