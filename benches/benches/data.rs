//! Issue 27: the Caves' library built from its data file (`content/data/caves.toml`, parsed,
//! checked against the schema and the hook names, inherited, proclaimed) beside the same
//! library built by the Rust code it replaced, in one run. The setup asserts that both
//! build the same library. Alchemy's content is not data yet: its bar (≤ 5 ms for the whole
//! Alchemy library) is measured when it moves.
//!
//! `cargo bench -p alembic-benches --bench data -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::sync::Arc;

use alembic::hook::{ON_ACTION, ON_USE};
use alembic::library::{FREQ, LEVEL};
use alembic::props::Hook;
use alembic::schedule::SPEED;
use alembic::{Error, Library, Props, Rgb};
use alembic_content::caves::{
    ATTACK, DEFENCE, DIGGABLE, EXIT, EXIT_TILE, FG, FLOOR, GLYPH, HP, IS_HERO, IS_HOSTILE,
    LIBRARY_NAME, LIBRARY_VERSION, MAX_HP, NAME, RECEIVER, SPORES, STAIRS, STAIRS_DOWN, STAIRS_UP,
    TRANSPARENT, VERB, WALKABLE, WALL,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn creature(name: &str, glyph: char, colour: Rgb, hp: i32) -> Props {
    Props::new()
        .with(&NAME, Arc::from(name))
        .with(&GLYPH, glyph)
        .with(&FG, colour)
        .with(&HP, hp)
        .with(&MAX_HP, hp)
}

/// The Caves' library as Rust code built it before issue 27 (content/src/caves/library.rs).
fn from_code() -> Result<Library, Error> {
    let mut lib = Library::new();
    let tile = |walk: bool, glyph: char, fg: Rgb| {
        let p = Props::new().with(&GLYPH, glyph).with(&FG, fg);
        if walk {
            p.with(&WALKABLE, true).with(&TRANSPARENT, true)
        } else {
            p
        }
    };
    lib.define_tile_mut(FLOOR, tile(true, '.', Rgb::new(150, 138, 115)))?;
    lib.define_tile_mut(
        WALL,
        tile(false, '#', Rgb::new(165, 140, 105)).with(&DIGGABLE, true),
    )?;
    lib.define_tile_mut(
        STAIRS_DOWN,
        tile(true, '>', Rgb::new(235, 235, 235)).with(&STAIRS, 1),
    )?;
    lib.define_tile_mut(
        STAIRS_UP,
        tile(true, '<', Rgb::new(235, 235, 235)).with(&STAIRS, -1),
    )?;
    lib.define_tile_mut(
        EXIT_TILE,
        tile(true, '>', Rgb::new(255, 210, 60)).with(&EXIT, true),
    )?;
    let hook = |name: &str| Hook::new(name);
    lib.proclaim_mut(
        "player",
        None,
        creature("player", '@', Rgb::new(255, 240, 170), 40)
            .with(&ATTACK, 10)
            .with(&IS_HERO, true)
            .with(&RECEIVER, true),
    )?;
    lib.proclaim_mut(
        "lichen",
        None,
        creature("lichen", 'F', Rgb::new(90, 200, 80), 6)
            .with(&ATTACK, 2)
            .with(&VERB, Arc::from("stings"))
            .with(&SPORES, 3)
            .with(&ON_ACTION, hook("caves.lichen"))
            .with(&ON_USE, hook("caves.sting")),
    )?;
    lib.proclaim_mut(
        "bunny",
        None,
        creature("bunny", 'v', Rgb::new(235, 220, 80), 4).with(&ON_ACTION, hook("caves.bunny")),
    )?;
    lib.proclaim_mut(
        "silverfish",
        None,
        creature("silverfish", '~', Rgb::new(120, 170, 255), 15)
            .with(&ON_ACTION, hook("caves.silverfish")),
    )?;
    lib.proclaim_mut(
        "cave bat",
        None,
        creature("cave bat", 'b', Rgb::new(190, 120, 230), 8)
            .with(&ATTACK, 5)
            .with(&VERB, Arc::from("bites"))
            .with(&IS_HOSTILE, true)
            .with(&LEVEL, 1)
            .with(&ON_ACTION, hook("caves.bat")),
    )?;
    lib.proclaim_mut(
        "zombie",
        None,
        creature("zombie", 'Z', Rgb::new(60, 220, 190), 18)
            .with(&ATTACK, 8)
            .with(&DEFENCE, 3)
            .with(&VERB, Arc::from("claws"))
            .with(&IS_HOSTILE, true)
            .with(&LEVEL, 2)
            .with(&FREQ, 70)
            .with(&SPEED, 50)
            .with(&ON_ACTION, hook("caves.zombie")),
    )?;
    Ok(lib.named(LIBRARY_NAME, LIBRARY_VERSION))
}

fn bench(c: &mut Criterion) {
    let data = alembic_content::caves::library().expect("the shipped data loads");
    assert_eq!(
        data,
        from_code().expect("code"),
        "data and code build the same library"
    );
    let mut g = c.benchmark_group("caves_library");
    g.bench_function("from_data", |b| {
        b.iter(|| alembic_content::caves::library().map(black_box))
    });
    g.bench_function("from_code", |b| b.iter(|| from_code().map(black_box)));
    g.bench_function("schema_only", |b| {
        b.iter(|| black_box(alembic_content::caves::schema()))
    });
    g.bench_function("data_hash", |b| {
        b.iter(|| black_box(alembic_data::DataHash::of(&data)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
