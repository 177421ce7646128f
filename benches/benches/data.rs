//! Issue 27: each game's library built from its data file (`games/caves/data/caves.toml`,
//! `games/alchemy/data/alchemy.toml`: parsed, checked against the schema and the hook names,
//! inherited, proclaimed) beside the same library built by the Rust code it replaced, in
//! one run. The setup asserts that both build the same library. The bar: the whole
//! Alchemy library from data in ≤ 5 ms.
//!
//! `cargo bench -p alembic-benches --bench data -- --warm-up-time 1 --measurement-time 3`

use alembic_benches::{alchemy_code, caves_code};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let data = alembic_games::caves::library().expect("the shipped data loads");
    assert_eq!(
        data,
        caves_code::from_code().expect("code"),
        "data and code build the same library"
    );
    let mut g = c.benchmark_group("caves_library");
    g.bench_function("from_data", |b| {
        b.iter(|| alembic_games::caves::library().map(black_box))
    });
    g.bench_function("from_code", |b| {
        b.iter(|| caves_code::from_code().map(black_box))
    });
    g.bench_function("schema_only", |b| {
        b.iter(|| black_box(alembic_games::caves::schema()))
    });
    g.bench_function("data_hash", |b| {
        b.iter(|| black_box(alembic_data::DataHash::of(&data)))
    });
    g.finish();

    let data = alembic_games::alchemy::library::base_library().expect("the shipped data loads");
    assert_eq!(
        data,
        alchemy_code::from_code().expect("code"),
        "data and code build the same library"
    );
    let mut g = c.benchmark_group("alchemy_library");
    g.bench_function("from_data", |b| {
        b.iter(|| alembic_games::alchemy::library::base_library().map(black_box))
    });
    g.bench_function("from_code", |b| {
        b.iter(|| alchemy_code::from_code().map(black_box))
    });
    g.bench_function("schema_only", |b| {
        b.iter(|| black_box(alembic_games::alchemy::library::schema()))
    });
    g.bench_function("data_hash", |b| {
        b.iter(|| black_box(alembic_data::DataHash::of(&data)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
