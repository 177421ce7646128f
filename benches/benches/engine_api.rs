//! The engine API's indexes and scheduler, each beside the full scan it replaces, measured in
//! the same run:
//! - `indexes().things_with` over 10,000 things (1,000 of them creatures) versus a scan of
//!   every thing reading the same flag (bar: ≤ 0.05×);
//! - `schedule().next_actor` with 1,000 queued actors (bar: ≤ 1 µs), beside a scan for the
//!   earliest actor over a plain `Vec`;
//! - one `acted_mut` (reschedule) at 1,000 actors, beside the same scan.
//!
//! Run: `cargo bench -p alembic-benches --bench engine_api -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use alembic::{Game, Loc, Prop, Props, Thing, ThingId, schedule::NORMAL_ACTION, schedule::SPEED};
use criterion::{Criterion, criterion_group, criterion_main};

const CREATURE: Prop<bool> = Prop::with_default("creature", false);
const HP: Prop<i32> = Prop::with_default("hp", 1);

/// 10,000 things on a 100 × 100 level; every tenth is a creature with its own speed.
fn world(indexed: bool) -> (Game, Vec<ThingId>) {
    let mut g = Game::new(1);
    if indexed {
        g.index_flag_mut(&CREATURE);
    }
    let mut creatures = Vec::new();
    for i in 0..10_000i32 {
        let creature = i % 10 == 0;
        let props = Props::new()
            .with(&HP, i)
            .with(&CREATURE, creature)
            .with(&SPEED, 50 + i % 151);
        let id = g
            .add_thing_mut(Loc::new(i % 100, i / 100, 0), Thing::new(props))
            .expect("add");
        if creature {
            creatures.push(id);
        }
    }
    (g, creatures)
}

fn bench_index(c: &mut Criterion) {
    let (g, creatures) = world(true);
    assert_eq!(g.indexes().things_with(&CREATURE), creatures);
    let mut group = c.benchmark_group("engine_api/things_with_10k");
    group.bench_function("full_scan_baseline", |b| {
        b.iter(|| {
            let v: Vec<ThingId> = g
                .things()
                .iter()
                .filter(|t| t.is(&CREATURE))
                .filter_map(Thing::id)
                .collect();
            black_box(v)
        })
    });
    group.bench_function("things_with", |b| {
        b.iter(|| black_box(g.indexes().things_with(&CREATURE)))
    });
    group.finish();
}

fn bench_scheduler(c: &mut Criterion) {
    let (mut g, creatures) = world(false);
    for (k, &id) in creatures.iter().enumerate() {
        g.scheduler().add(id, k as u64 % 97).expect("schedule");
    }
    assert_eq!(g.schedule().actors().count(), 1_000);
    // The baseline: the same queue as a plain Vec of (time, order, id), scanned for the least.
    let plain: Vec<(u64, u64, ThingId)> = creatures
        .iter()
        .enumerate()
        .map(|(k, &id)| (k as u64 % 97, k as u64, id))
        .collect();
    let mut group = c.benchmark_group("engine_api/scheduler_1000");
    group.bench_function("vec_scan_baseline", |b| {
        b.iter(|| black_box(plain.iter().min().map(|e| e.2)))
    });
    group.bench_function("next_actor", |b| {
        b.iter(|| black_box(g.schedule().next_actor()))
    });
    group.bench_function("next_actor_then_acted", |b| {
        b.iter_batched_ref(
            || g.clone(),
            |g| {
                if let Some(id) = g.schedule().next_actor() {
                    g.acted_mut(id, NORMAL_ACTION).expect("acted");
                }
            },
            criterion::BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench_index, bench_scheduler);
criterion_main!(benches);
