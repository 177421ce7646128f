//! Thing operations on a game with 10,000 things on a map, each beside a `HashMap` baseline
//! doing the same work in the same run.
//!
//! Run: `cargo bench -p alembic-benches --bench things -- --warm-up-time 1 --measurement-time 3`
//!
//! The things are created from one prototype with 28 properties (like Alchemy's monsters),
//! so they share its table and hold only their own overrides. The bytes kept per
//! `Game::set` and per `Game::move_thing` are printed first (counted by an instrumented
//! global allocator, 1,000 writes with every version kept).
//!
//! Property reads are measured in two fixtures (issue 32): every thing from one shared
//! prototype (one cache-resident table), and every thing with its own 28-property table
//! (`Thing::new`, no prototype), each against a SipHash `std::collections::HashMap<id,
//! struct>` field read and a `Vec<struct>` indexed by id (the usual roguelike store).
//! `Game::is` is measured against a `Vec<bool>` read, and `Game::clone` of an Alchemy game
//! after 1,000 bot commands against an `Arc` clone.

use std::alloc::System;
use std::collections::HashMap;
use std::hint::black_box;

use alembic::{
    Game, Library, Loc, Prop, Props, Thing, ThingId, library::IS_CONTAINER, props::Modifier,
    props::PropKey, props::Value,
};
use criterion::{Criterion, criterion_group};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const ST: Prop<i32> = Prop::new("st");
const HPS: Prop<i32> = Prop::new("hps");
/// A flag true on every other thing of the own-tables fixture.
const HOSTILE: Prop<bool> = Prop::with_default("is_hostile", false);
const N: usize = 10_000;

fn loc_of(i: usize) -> Loc {
    Loc::new(
        (i % 100) as i32,
        (i / 100 % 100) as i32,
        -((i / 10_000) as i32) - 1,
    )
}

/// The baseline's record: the same facts as plain fields.
#[derive(Clone)]
struct Monster {
    st: i64,
    hps: i64,
    /// The strength modifiers of what it carries.
    carried: Vec<i64>,
}

/// Where thing `i` of the sparse layout stands: on every 4th cell along x and y of a
/// 400 × 400 level, so 15 cells in 16 hold nothing (the dense layout, [`loc_of`], fills a
/// 100 × 100 level).
fn sparse_loc_of(i: usize) -> Loc {
    Loc::new((i % 100 * 4) as i32, (i / 100 % 100 * 4) as i32, -1)
}

/// 10,000 things over a 100 × 100 level, each with its own 28-property table (no
/// prototype, so no two share a table).
fn setup_own_tables() -> (Game, Vec<ThingId>) {
    let mut g = Game::new(1);
    let mut ids = Vec::with_capacity(N);
    for i in 0..N {
        let mut props = Props::new()
            .with(&ST, 10)
            .with(&HPS, i as i32)
            .with(&HOSTILE, i % 2 == 1)
            .with(&IS_CONTAINER, true);
        for k in 0..24 {
            props = props.with_raw(
                &PropKey::new(&format!("extra{k}")),
                Value::Int((k + i) as i64),
            );
        }
        ids.push(g.add_thing_mut(loc_of(i), Thing::new(props)).expect("add"));
    }
    (g, ids)
}

/// An Alchemy game after 1,000 accepted explore-bot commands (seed 1).
fn alchemy_after_1000_commands() -> Game {
    use alembic_games::alchemy::{Rules, apply, bot::Bot, new_game};
    let rules = Rules::new().expect("rules");
    let mut game = new_game(1, &rules).expect("game");
    let mut bot = Bot::new(1);
    let (mut accepted, mut attempts) = (0, 0);
    while accepted < 1000 && attempts < 4000 {
        attempts += 1;
        let cmd = bot.choose(&game);
        match apply(&game, &rules, cmd) {
            Ok(o) => {
                game = o.game;
                accepted += 1;
                if o.over {
                    break;
                }
            }
            Err(_) => bot.refused(),
        }
    }
    game
}

/// 10,000 things of one 28-property prototype over a 100 × 100 level; thing 0 carries 5
/// strength modifiers.
fn setup() -> (Game, Vec<ThingId>) {
    setup_at(loc_of)
}

/// The same things, thing `i` at `at(i)`.
fn setup_at(at: fn(usize) -> Loc) -> (Game, Vec<ThingId>) {
    let mut props = Props::new()
        .with(&ST, 10)
        .with(&HPS, 7)
        .with(&IS_CONTAINER, true);
    for k in 0..25 {
        props = props.with_raw(&PropKey::new(&format!("extra{k}")), Value::Int(k));
    }
    let lib = Library::new()
        .proclaim("monster", None, props)
        .expect("proclaim");
    let mut g = Game::new(1).with_library(lib);
    let mut ids = Vec::with_capacity(N);
    for i in 0..N {
        let mut t = g.library().create("monster").expect("create");
        t.set_mut(&HPS, i as i32);
        ids.push(g.add_thing_mut(at(i), t).expect("add"));
    }
    for k in 0..5 {
        let effect = Thing::new(Props::new().modifier(Modifier::add(&ST, k - 2)));
        g.add_thing_mut(ids[0], effect).expect("add effect");
    }
    (g, ids)
}

fn live(region: &Region<'_, System>) -> i64 {
    let s = region.change();
    s.bytes_allocated as i64 - s.bytes_deallocated as i64
}

/// Bytes kept per version over 1,000 writes `step(game, k)` with every version kept.
fn kept_per_version(g: &Game, step: impl Fn(&Game, usize) -> Game) -> f64 {
    let region = Region::new(GLOBAL);
    let mut kept = Vec::with_capacity(1000);
    let mut cur = g.clone();
    for k in 0..1000usize {
        cur = step(&cur, k);
        kept.push(cur.clone());
    }
    let bytes = live(&region) - (1000 * std::mem::size_of::<Game>()) as i64;
    bytes as f64 / 1000.0
}

fn memory_report(g: &Game, ids: &[ThingId]) {
    let set = kept_per_version(g, |cur, k| {
        cur.set(ids[(k * 7919) % N], &HPS, k as i32).expect("set")
    });
    println!("memory: Game::set kept {set:.0} bytes per version (bar <= 500)");
    // A move onto the next cell, every version kept: on the level where most cells are
    // empty (the premise: the bar), then on the level where every cell holds a
    // thing (the next cell is occupied, like the `move_thing` benchmark's).
    let (sparse, sparse_ids) = setup_at(sparse_loc_of);
    let moved = kept_per_version(&sparse, |cur, k| {
        let i = (k * 7919) % N;
        let to = sparse_loc_of(i) + alembic::Dir::East;
        cur.move_thing(sparse_ids[i], to).expect("move")
    });
    println!(
        "memory: Game::move_thing on a mostly empty level kept {moved:.0} bytes per version (bar <= 1024)"
    );
    let moved = kept_per_version(g, |cur, k| {
        let i = (k * 7919) % N;
        cur.move_thing(ids[i], loc_of(i + 1)).expect("move")
    });
    println!(
        "memory: Game::move_thing with a thing on every cell kept {moved:.0} bytes per version"
    );
}

fn bench_things(c: &mut Criterion) {
    let (g, ids) = setup();
    memory_report(&g, &ids);
    let baseline: HashMap<ThingId, Monster> = ids
        .iter()
        .map(|id| {
            let t = g.things().get(*id).expect("thing");
            let m = Monster {
                st: i64::from(t.get(&ST).expect("st")),
                hps: i64::from(t.get(&HPS).expect("hps")),
                carried: Vec::new(),
            };
            (*id, m)
        })
        .collect();
    let mut baseline = baseline;
    if let Some(m) = baseline.get_mut(&ids[0]) {
        m.carried = (0..5).map(|k| k - 2).collect();
    }
    let sum = |m: &Monster| m.st + m.carried.iter().sum::<i64>();
    assert_eq!(
        g.query(ids[0], &ST).map(i64::from),
        baseline
            .get(&ids[0])
            .map(sum)
            .ok_or(alembic::Error::NoSuchThing(ids[0]))
    );

    let mut group = c.benchmark_group("things/get_thing");
    let mut i = 0usize;
    group.bench_function("hashmap_baseline", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(baseline.get(&ids[i]).map(|m| m.hps))
        })
    });
    group.bench_function("game", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.things().get(ids[i]).ok().map(|t| t.id()))
        })
    });
    group.finish();

    // The usual roguelike store: a `Vec` of records indexed by id.
    let by_id: Vec<Monster> = {
        let mut v = vec![
            Monster {
                st: 0,
                hps: 0,
                carried: Vec::new(),
            };
            N + 1
        ];
        for (id, m) in &baseline {
            v[id.0 as usize] = m.clone();
        }
        v
    };

    // A property read (no modifiers): a HashMap lookup and a field read, against `query`.
    let mut group = c.benchmark_group("things/property_read");
    group.bench_function("hashmap_field", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(baseline.get(&ids[i]).map(|m| m.hps))
        })
    });
    group.bench_function("vec_by_id", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(by_id.get(ids[i].0 as usize).map(|m| m.hps))
        })
    });
    // Both sides give an `Option` of the value. `query`'s `Result` is 72 bytes (its error
    // names the key and the thing), and black-boxing the whole of it copies 72 bytes that a
    // caller matching on it never reads.
    group.bench_function("game_query", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.query(ids[i], &HPS).ok())
        })
    });
    group.finish();

    // The same read where every thing has its own table.
    {
        let (own, own_ids) = setup_own_tables();
        let own_map: HashMap<ThingId, Monster> = own_ids
            .iter()
            .map(|id| {
                let m = Monster {
                    st: 10,
                    hps: i64::from(own.query(*id, &HPS).expect("hps")),
                    carried: Vec::new(),
                };
                (*id, m)
            })
            .collect();
        let mut own_vec = by_id.clone();
        for (id, m) in &own_map {
            own_vec[id.0 as usize] = m.clone();
        }
        let mut group = c.benchmark_group("things/property_read_own_tables");
        group.bench_function("hashmap_field", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                black_box(own_map.get(&own_ids[i]).map(|m| m.hps))
            })
        });
        group.bench_function("vec_by_id", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                black_box(own_vec.get(own_ids[i].0 as usize).map(|m| m.hps))
            })
        });
        group.bench_function("game_query", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                black_box(own.query(own_ids[i], &HPS).ok())
            })
        });
        group.finish();
    }

    // A flag read: `Game::is` (modifiers applied) against a `Vec<bool>` indexed by id: the
    // prototype's flag in the shared fixture, a flag of each thing's own table in the other.
    let flags: Vec<bool> = (0..=N as u64)
        .map(|id| g.is(ThingId(id), &IS_CONTAINER))
        .collect();
    assert_eq!(flags.iter().filter(|h| **h).count(), N);
    let mut group = c.benchmark_group("things/is");
    group.bench_function("vec_bool", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(flags.get(ids[i].0 as usize).copied())
        })
    });
    group.bench_function("game_is", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.is(ids[i], &IS_CONTAINER))
        })
    });
    group.finish();
    {
        let (own, own_ids) = setup_own_tables();
        let hostile: Vec<bool> = (0..=N as u64)
            .map(|id| own.is(ThingId(id), &HOSTILE))
            .collect();
        assert_eq!(hostile.iter().filter(|h| **h).count(), N / 2);
        let mut group = c.benchmark_group("things/is_own_tables");
        group.bench_function("vec_bool", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                black_box(hostile.get(own_ids[i].0 as usize).copied())
            })
        });
        group.bench_function("game_is", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                black_box(own.is(own_ids[i], &HOSTILE))
            })
        });
        group.finish();
    }

    // Cloning the whole world value, against cloning one `Arc`.
    let played = alchemy_after_1000_commands();
    let arc = std::sync::Arc::new(played.turn());
    let mut group = c.benchmark_group("things/clone");
    group.bench_function("arc_baseline", |b| {
        b.iter(|| black_box(std::sync::Arc::clone(black_box(&arc))))
    });
    group.bench_function("game_after_1000_commands", |b| {
        b.iter(|| black_box(black_box(&played).clone()))
    });
    group.finish();

    // The same sum on both sides: base strength plus 5 carried modifiers.
    let mut group = c.benchmark_group("things/query_5_modifiers");
    group.bench_function("hashmap_sum", |b| {
        b.iter(|| black_box(baseline.get(black_box(&ids[0])).map(sum)))
    });
    group.bench_function("game_query", |b| {
        // An `Option` on both sides, as for the property read.
        b.iter(|| black_box(g.query(black_box(ids[0]), &ST).ok()))
    });
    group.finish();

    bench_cells_and_writes(c, &g, &ids, &baseline);
}

/// Reading cells, and the persistent writes, each beside its `HashMap` baseline.
fn bench_cells_and_writes(
    c: &mut Criterion,
    g: &Game,
    ids: &[ThingId],
    baseline: &HashMap<ThingId, Monster>,
) {
    let mut i = 0usize;
    // Reading a cell: occupied cells (one thing each) and empty cells of the same level.
    let mut group = c.benchmark_group("things/things_at");
    let cells: HashMap<Loc, Vec<ThingId>> = ids
        .iter()
        .map(|&id| (g.things().location(id).expect("placed"), vec![id]))
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
            black_box(g.things().at(loc_of(i)).len())
        })
    });
    group.bench_function("game_empty", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.things().at(loc_of(i) + Loc::new(0, 100, 0)).len())
        })
    });
    group.finish();

    // A persistent property write: the baseline clones the record and inserts it into a
    // HashMap (the old map is overwritten, so it keeps no versions).
    let mut group = c.benchmark_group("things/set");
    group.bench_function("hashmap_clone_record_and_insert", |b| {
        let mut m = baseline.clone();
        b.iter(|| {
            i = (i + 7919) % N;
            let mut t = m[&ids[i]].clone();
            t.hps += 1;
            black_box(m.insert(ids[i], t));
        })
    });
    group.bench_function("game_set_persistent", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            black_box(g.set(ids[i], &HPS, i as i32))
        })
    });
    group.finish();

    // A write where every thing has its own 28-property table (no prototype).
    {
        let (own, own_ids) = setup_own_tables();
        let mut group = c.benchmark_group("things/set_own_table");
        group.bench_function("game_set_persistent", |b| {
            b.iter(|| {
                i = (i + 7919) % N;
                // Thing i holds i: write another value (an equal one changes nothing).
                black_box(own.set(own_ids[i], &HPS, i as i32 + 1))
            })
        });
        group.finish();
    }

    let mut group = c.benchmark_group("things/move_thing");
    group.bench_function("hashmap_clone_record_and_insert", |b| {
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
            black_box(g.add_thing(loc_of(i), Thing::new(Props::new().with(&HPS, 1))))
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

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
