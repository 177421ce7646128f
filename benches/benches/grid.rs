//! `Grid<u16>` against a flat `Vec<u16>` baseline, on a 128 × 128 × 16 world (262,144 cells),
//! and a game layer (`LayerGrid`: its values fit 16 bits, so the game keeps them as a `Grid<u16>`
//! of words) against a flat `Vec<u64>`.
//!
//! Run: `cargo bench -p alembic-benches --bench grid -- --warm-up-time 1 --measurement-time 3`
//! Every timing group holds the grid and its baseline, measured in the same run; the memory
//! figures are printed first (counted by an instrumented global allocator). Grids are read
//! fresh (just filled) and aged (after 1,000 persistent one-cell writes, every version kept,
//! as a game's history keeps them), with nothing built for reading first. The random reads
//! are also run on two larger worlds, 16 MiB and 128 MiB of cells, beside the same flat
//! `Vec` and the D2 anchor (`grid/random_get_16mib`, `grid/random_get_128mib`).
//!
//! Two D2 layouts sit beside the grid in the same groups, fresh and aged alike: the
//! project's `D2` (a run-time-sized flat array of chunk pointers per level, a default outside
//! the box) and `LeanD2` (compile-time 8 × 8 chunks a level, three `Arc` levels, no default
//! outside the box). Issue 56 bars the grid, layer and view random reads, the scans through
//! `get` and the one-cell persistent set at the faster of the two in the same run
//! (`scripts/bench-table.py`).

use std::alloc::System;
use std::hint::black_box;
use std::sync::Arc;

use alembic::layer::Layer;
use alembic::{Game, Loc, LocBox, Props, Thing, ThingId, grid::Grid};
use criterion::{BatchSize, Criterion, Throughput, criterion_group};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const W: i32 = 128;
const H: i32 = 128;
const D: i32 = 16;
const CELLS: usize = (W * H * D) as usize;

fn world() -> LocBox {
    LocBox::new(Loc::new(0, 0, 0), Loc::new(W, H, D))
}

fn flat_index(l: Loc) -> usize {
    ((l.z * H + l.y) * W + l.x) as usize
}

/// A deterministic xorshift stream of locations inside the world.
fn random_locs(n: usize, seed: u64) -> Vec<Loc> {
    random_locs_in([W, H, D], n, seed)
}

/// A deterministic xorshift stream of locations inside a world of `size` (x, y, z).
fn random_locs_in(size: [i32; 3], n: usize, mut seed: u64) -> Vec<Loc> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed % size[0] as u64) as i32;
            let y = ((seed >> 16) % size[1] as u64) as i32;
            let z = ((seed >> 32) % size[2] as u64) as i32;
            Loc::new(x, y, z)
        })
        .collect()
}

/// The worlds of the out-of-cache reference rows (x, y, z), with their bench groups: 16 MiB
/// of `u16` cells (sixteen times this host's 1 MiB of L2 per core, inside its 32 MiB of L3;
/// the main world's 512 KiB fits L2) and 128 MiB (four times the L3).
const LARGE: [(&str, [i32; 3]); 2] = [
    ("grid/random_get_16mib", [1024, 1024, 8]),
    ("grid/random_get_128mib", [4096, 4096, 4]),
];

/// Index of `l` in a flat array of a world of `size`.
fn index_in(size: [i32; 3], l: Loc) -> usize {
    ((l.z * size[1] + l.y) * size[0] + l.x) as usize
}

fn filled_grid() -> Grid<u16> {
    let mut g = Grid::new(0u16);
    for (i, l) in world().iter().enumerate() {
        g.set_mut(l, (i % 251) as u16 + 1);
    }
    g
}

/// 1,000 persistent one-cell writes at random cells: the last version, and every version
/// (kept alive, as a game's history keeps them, so the copied chunks and arrays are where
/// the allocator put them).
fn aged<G: Clone>(first: &G, mut write: impl FnMut(&G, Loc, u16) -> G) -> (G, Vec<G>) {
    let mut versions = Vec::with_capacity(1000);
    let mut cur = first.clone();
    for (i, l) in random_locs(1000, 77).into_iter().enumerate() {
        cur = write(&cur, l, i as u16);
        versions.push(cur.clone());
    }
    (cur, versions)
}

/// The map-memory-like layer of the layer benches.
const SEEN: Layer<u32> = Layer::new("bench.seen");

/// A game whose layer `SEEN` holds every cell of the world.
fn layer_game() -> Game {
    let mut g = Game::new(1);
    for (i, l) in world().iter().enumerate() {
        g.set_layer_mut(&SEEN, l, (i % 251) as u32 + 1);
    }
    g
}

/// A game with a thing on every other cell along x and y of level 0 of the world.
fn things_game() -> (Game, Vec<ThingId>) {
    let mut g = Game::new(1);
    let ids = world()
        .iter()
        .filter(|l| l.z == 0 && l.x % 2 == 0 && l.y % 2 == 0)
        .map(|l| g.add_thing_mut(l, Thing::new(Props::new())).expect("add"))
        .collect();
    (g, ids)
}

fn filled_vec_u64() -> Vec<u64> {
    (0..CELLS).map(|i| (i % 251) as u64 + 1).collect()
}

fn filled_vec() -> Vec<u16> {
    (0..CELLS).map(|i| (i % 251) as u16 + 1).collect()
}

/// The random-read baseline that does the grid's work: a flat `Vec` map whose size is known
/// only at run time (like a game's `Map { width, height, tiles }`), and where a location
/// outside the map reads as the default instead of aliasing another cell or panicking.
///
/// `flat_vec` (compile-time strides, no bounds semantics beyond the slice check) is kept
/// beside it as the floor a flat array reaches when the world's size is a constant.
struct FlatMap {
    size: [usize; 3],
    cells: Vec<u16>,
    default: u16,
}

impl FlatMap {
    fn new() -> Self {
        FlatMap {
            size: [W as usize, H as usize, D as usize],
            cells: filled_vec(),
            default: 0,
        }
    }

    #[inline]
    fn get(&self, l: Loc) -> &u16 {
        // A negative coordinate becomes a large unsigned one, so one comparison an axis.
        let (x, y, z) = (
            l.x as u32 as usize,
            l.y as u32 as usize,
            l.z as u32 as usize,
        );
        if x < self.size[0] && y < self.size[1] && z < self.size[2] {
            &self.cells[(z * self.size[1] + y) * self.size[0] + x]
        } else {
            &self.default
        }
    }
}

/// The D2 layout issue 32 names as an anchor: per level, one flat array of shared chunk
/// pointers over the level's box (every unwritten slot shares one blank chunk, as in
/// `Grid`), behind a shared list of levels. A persistent write copies the chunk, the level's
/// whole pointer array and the list. Kept here as a same-run reference for `Grid`'s random
/// reads, one-cell writes and their bytes; it covers only the world's box (anything else
/// reads as the default), so it does less than a `Grid` does. Generic over the cell so the
/// layer rows (`u64` cells) have their own D2 beside them.
#[derive(Clone)]
struct D2<T: Copy = u16> {
    levels: Arc<[D2Level<T>]>,
    default: T,
}

#[derive(Clone)]
struct D2Level<T: Copy> {
    /// Chunks along x and y.
    w: u32,
    h: u32,
    chunks: Arc<[Arc<[T; 256]>]>,
}

impl D2<u16> {
    fn filled() -> Self {
        let v = filled_vec();
        D2::from_fn([W, H, D], |l| v[flat_index(l)])
    }
}

impl<T: Copy + Default> D2<T> {
    /// A D2 over a world of `size` (x and y multiples of 16), cell `l` holding `value(l)`.
    fn from_fn(size: [i32; 3], value: impl Fn(Loc) -> T) -> Self {
        let (cw, ch) = ((size[0] / 16) as u32, (size[1] / 16) as u32);
        let levels = (0..size[2])
            .map(|z| D2Level {
                w: cw,
                h: ch,
                chunks: (0..cw * ch)
                    .map(|i| Arc::new(chunk_from_fn(i % cw, i / cw, z, &value)))
                    .collect(),
            })
            .collect();
        D2 {
            levels,
            default: T::default(),
        }
    }

    #[inline]
    fn get(&self, l: Loc) -> &T {
        // One unsigned comparison an axis, as `Grid`'s reads.
        let Some(level) = self.levels.get(l.z as u32 as usize) else {
            return &self.default;
        };
        let (cx, cy) = ((l.x >> 4) as u32, (l.y >> 4) as u32);
        if cx >= level.w || cy >= level.h {
            return &self.default;
        }
        let chunk = &level.chunks[(cy * level.w + cx) as usize];
        &chunk[((l.y & 15) * 16 + (l.x & 15)) as usize]
    }

    /// A new version with `l` set (inside the world's box only). Each copied array is
    /// collected straight into its shared allocation (one allocation, no `Vec` first).
    fn set(&self, l: Loc, value: T) -> Self {
        let z = l.z as usize;
        let level = &self.levels[z];
        let i = ((l.y >> 4) as u32 * level.w + (l.x >> 4) as u32) as usize;
        let mut chunk = *level.chunks[i];
        chunk[((l.y & 15) * 16 + (l.x & 15)) as usize] = value;
        let chunk = Arc::new(chunk);
        let chunks = level
            .chunks
            .iter()
            .enumerate()
            .map(|(k, c)| if k == i { chunk.clone() } else { c.clone() })
            .collect();
        let new_level = D2Level {
            w: level.w,
            h: level.h,
            chunks,
        };
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(k, lv)| {
                if k == z {
                    new_level.clone()
                } else {
                    lv.clone()
                }
            })
            .collect();
        D2 {
            levels,
            default: self.default,
        }
    }
}

/// The 16 × 16 chunk at chunk coordinates (`cx`, `cy`) of level `z`, cell `l` holding
/// `value(l)`.
fn chunk_from_fn<T: Copy + Default>(
    cx: u32,
    cy: u32,
    z: i32,
    value: &impl Fn(Loc) -> T,
) -> [T; 256] {
    let mut c = [T::default(); 256];
    for (k, cell) in c.iter_mut().enumerate() {
        let x = cx as i32 * 16 + (k % 16) as i32;
        let y = cy as i32 * 16 + (k / 16) as i32;
        *cell = value(Loc::new(x, y, z));
    }
    c
}

/// Chunks along x and y of a [`LeanD2`] level: compile-time, 8 × 8 chunks of 16 × 16 cells
/// (the 128 × 128 levels of the main world).
const LEAN: usize = 8;

/// The leaner D2 issue 56 describes, the best D2 we could write for this world: three `Arc`
/// levels (the list of levels → a level's compile-time 8 × 8 array of chunk pointers → the
/// chunk), no run-time level size to load or compare, and no default outside the box (a read
/// outside it panics on a bounds check instead of returning a default). It does less than
/// [`D2`] and much less than a `Grid` (which covers any location); it is the same-run bar of
/// the grid, layer and view random reads together with [`D2`] (the faster of the two). A
/// persistent write copies the chunk, the level's 64 pointers and the list of levels.
#[derive(Clone)]
struct LeanD2<T: Copy = u16> {
    levels: Arc<[LeanLevel<T>]>,
}

type LeanLevel<T> = Arc<[[Arc<[T; 256]>; LEAN]; LEAN]>;

// The lean D2's compile-time level size is the main world's.
const _: () = assert!(W as usize == LEAN * 16 && H as usize == LEAN * 16);

impl LeanD2<u16> {
    fn filled() -> Self {
        let v = filled_vec();
        LeanD2::from_fn(D, |l| v[flat_index(l)])
    }
}

impl<T: Copy + Default> LeanD2<T> {
    /// `depth` levels of 128 × 128 cells, cell `l` holding `value(l)`.
    fn from_fn(depth: i32, value: impl Fn(Loc) -> T) -> Self {
        let levels = (0..depth)
            .map(|z| {
                Arc::new(std::array::from_fn(|cy| {
                    std::array::from_fn(|cx| {
                        Arc::new(chunk_from_fn(cx as u32, cy as u32, z, &value))
                    })
                }))
            })
            .collect();
        LeanD2 { levels }
    }

    #[inline]
    fn get(&self, l: Loc) -> &T {
        // Bounds checks only (a panic outside the box): the level against the list's
        // length, each chunk coordinate against the constant 8; the cell's index in its
        // chunk is below 256 by construction.
        let level = &self.levels[l.z as u32 as usize];
        let chunk = &level[(l.y >> 4) as u32 as usize][(l.x >> 4) as u32 as usize];
        &chunk[((l.y & 15) * 16 + (l.x & 15)) as usize]
    }

    /// A new version with `l` set: the chunk, the level's 8 × 8 pointers and the list of
    /// levels copied.
    fn set(&self, l: Loc, value: T) -> Self {
        let z = l.z as usize;
        let (cy, cx) = ((l.y >> 4) as usize, (l.x >> 4) as usize);
        let mut level: [[Arc<[T; 256]>; LEAN]; LEAN] = (*self.levels[z]).clone();
        let mut chunk = *level[cy][cx];
        chunk[((l.y & 15) * 16 + (l.x & 15)) as usize] = value;
        level[cy][cx] = Arc::new(chunk);
        let level = Arc::new(level);
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(k, lv)| if k == z { level.clone() } else { lv.clone() })
            .collect();
        LeanD2 { levels }
    }
}

/// 40,000 isolated cells scattered over ±1,000,000 on 11 levels (`grid/isolated_get`).
fn isolated_cells() -> Vec<Loc> {
    isolated_cells_n(40_000)
}

/// The first `n` of [`isolated_cells`].
fn isolated_cells_n(n: usize) -> Vec<Loc> {
    random_locs(n, 5)
        .into_iter()
        .map(|l| Loc::new(l.x * 7_919 - 500_000, l.y * 7_907 - 500_000, l.z % 11))
        .collect()
}

/// Bytes kept per version over one-cell writes at `locs` (the value written is the write's
/// number), every version kept; the `Vec` holding the handles is bookkeeping, not storage,
/// and is not counted.
fn bytes_per_version<G: Clone>(first: &G, locs: &[Loc], write: impl Fn(&G, Loc, u16) -> G) -> f64 {
    let region = Region::new(GLOBAL);
    let mut versions = Vec::with_capacity(locs.len());
    let mut cur = first.clone();
    for (i, l) in locs.iter().enumerate() {
        cur = write(&cur, *l, i as u16);
        versions.push(cur.clone());
    }
    let s = region.change();
    let kept = s.bytes_allocated as i64 - s.bytes_deallocated as i64;
    let handles = (locs.len() * std::mem::size_of::<G>()) as i64;
    drop(versions);
    (kept - handles) as f64 / locs.len() as f64
}

fn memory_report() {
    let region = Region::new(GLOBAL);
    let v = filled_vec();
    let vec_bytes = region.change().bytes_allocated - region.change().bytes_deallocated;
    drop(v);

    let region = Region::new(GLOBAL);
    let g = filled_grid();
    let s = region.change();
    let grid_bytes = s.bytes_allocated as i64 - s.bytes_deallocated as i64;

    let locs = random_locs(1000, 77);
    let per_version = bytes_per_version(&g, &locs, |g, l, v| g.set(l, v));
    println!("memory: flat Vec<u16> {vec_bytes} bytes");
    println!(
        "memory: Grid<u16> first version {grid_bytes} bytes = {:.3}x the flat Vec (bar <= 1.1x; \
         everything the grid keeps: chunks, level arrays, level list)",
        grid_bytes as f64 / vec_bytes as f64
    );
    println!(
        "memory: 1,000 one-cell versions: {per_version:.0} bytes each on top of the first (bar <= 1000)"
    );
    println!(
        "memory: D2 anchor, 1,000 one-cell versions: {:.0} bytes each on top of the first",
        bytes_per_version(&D2::filled(), &locs, |g, l, v| g.set(l, v))
    );
    println!(
        "memory: lean D2, 1,000 one-cell versions: {:.0} bytes each on top of the first",
        bytes_per_version(&LeanD2::filled(), &locs, |g, l, v| g.set(l, v))
    );
    // What a persistent write among isolated cells keeps, at the two sizes of
    // `grid/isolated_set_*` and over its cells (every 7th): the work the write does, apart
    // from the cache it misses.
    for n in [4_000usize, 40_000] {
        let cells = isolated_cells_n(n);
        let mut g = Grid::new(0u16);
        for (k, l) in cells.iter().enumerate() {
            g.set_mut(*l, k as u16 + 1);
        }
        let writes: Vec<Loc> = cells.iter().step_by(7).take(500).copied().collect();
        println!(
            "memory: a persistent write among {n} isolated cells: {:.0} bytes kept \
             (grid/isolated_set_{n})",
            bytes_per_version(&g, &writes, |g, l, v| g.set(l, v ^ 0x8000))
        );
    }
    println!(
        "memory: eleven levels near the origin: {:.0} bytes per one-cell version",
        levels_version_bytes(false)
    );
    println!(
        "memory: eleven levels at ±100,000: {:.0} bytes per one-cell version",
        levels_version_bytes(true)
    );
}

fn bench_get(c: &mut Criterion) {
    let g = filled_grid();
    let (old, _history) = aged(&g, |g, l, v| g.set(l, v));
    let v = filled_vec();
    let locs = random_locs(4096, 1);
    let mut group = c.benchmark_group("grid/random_get");
    group.throughput(Throughput::Elements(locs.len() as u64));
    group.bench_function("flat_vec", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += u64::from(v[flat_index(*l)]);
            }
            black_box(sum)
        })
    });
    let map = FlatMap::new();
    group.bench_function("flat_map_same_work", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += u64::from(*map.get(*l));
            }
            black_box(sum)
        })
    });
    group.bench_function("grid", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += u64::from(*g.get(*l));
            }
            black_box(sum)
        })
    });
    group.bench_function("grid_aged", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += u64::from(*old.get(*l));
            }
            black_box(sum)
        })
    });
    // The D2 anchor (see `D2`), fresh and aged as the grid.
    let d2 = D2::filled();
    let (d2_old, _d2_history) = aged(&d2, |g, l, v| g.set(l, v));
    for (name, d) in [("d2_anchor", &d2), ("d2_anchor_aged", &d2_old)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(*d.get(*l));
                }
                black_box(sum)
            })
        });
    }
    // The lean D2 (see `LeanD2`), fresh and aged the same way.
    let lean = LeanD2::filled();
    let (lean_old, _lean_history) = aged(&lean, |g, l, v| g.set(l, v));
    for (name, d) in [("d2_lean", &lean), ("d2_lean_aged", &lean_old)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(*d.get(*l));
                }
                black_box(sum)
            })
        });
    }
    // The borrowed view FOV, pathfinding and AI callbacks read through (made once, outside
    // the timing; `grid/view_build` times its making).
    let view = g.view(world());
    group.bench_function("grid_view", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += u64::from(*view.get(*l));
            }
            black_box(sum)
        })
    });
    group.finish();

    // A game layer (map memory and the like, read through `LayerGrid`: its values fit 16
    // bits, so the game keeps a grid of 16-bit words) against a flat `Vec<u64>` of the same
    // cells.
    let game = layer_game();
    let layer = game.layers().get(&SEEN);
    let (old_game, _history) = aged(&game, |g, l, v| {
        let mut g = g.clone();
        g.set_layer_mut(&SEEN, l, u32::from(v));
        g
    });
    let old_layer = old_game.layers().get(&SEEN);
    let v64 = filled_vec_u64();
    let mut group = c.benchmark_group("grid/layer_random_get");
    group.throughput(Throughput::Elements(locs.len() as u64));
    group.bench_function("flat_vec", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &locs {
                sum += v64[flat_index(*l)];
            }
            black_box(sum)
        })
    });
    for (name, layer) in [("layer", &layer), ("layer_aged", &old_layer)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(layer.get(*l));
                }
                black_box(sum)
            })
        });
    }
    // The two D2s over the same `u64` cells, fresh and after the same 1,000 writes: the
    // layer rows' same-run bar.
    let layer_value = |l: Loc| v64[flat_index(l)];
    let d2 = D2::from_fn([W, H, D], layer_value);
    let (d2_old, _d2_history) = aged(&d2, |g, l, v| g.set(l, u64::from(v)));
    for (name, d) in [("d2_anchor", &d2), ("d2_anchor_aged", &d2_old)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += *d.get(*l);
                }
                black_box(sum)
            })
        });
    }
    let lean = LeanD2::from_fn(D, layer_value);
    let (lean_old, _lean_history) = aged(&lean, |g, l, v| g.set(l, u64::from(v)));
    for (name, d) in [("d2_lean", &lean), ("d2_lean_aged", &lean_old)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += *d.get(*l);
                }
                black_box(sum)
            })
        });
    }
    group.finish();

    // The cell index (`things().at`, rows of chunk pointers per level since issue 32's
    // third part) against a flat `Vec` of the same cells' counts: a thing on every other cell
    // along x and y of level 0 (4,096 things), read at random cells of that level.
    let (things, ids) = things_game();
    let (old_things, _history) = aged(&things, |g, l, v| {
        let id = ids[usize::from(v) % ids.len()];
        g.move_thing(id, Loc::new(l.x, l.y, 0)).expect("move")
    });
    let counts: Vec<u32> = world()
        .iter()
        .filter(|l| l.z == 0)
        .map(|l| things.things().at(l).len() as u32)
        .collect();
    let level0: Vec<Loc> = locs.iter().map(|l| Loc::new(l.x, l.y, 0)).collect();
    let mut group = c.benchmark_group("grid/cell_index_random_get");
    group.throughput(Throughput::Elements(level0.len() as u64));
    group.bench_function("flat_vec", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &level0 {
                sum += u64::from(counts[flat_index(*l)]);
            }
            black_box(sum)
        })
    });
    for (name, g) in [("things_at", &things), ("things_at_aged", &old_things)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &level0 {
                    sum += g.things().at(*l).len() as u64;
                }
                black_box(sum)
            })
        });
    }
    group.finish();

    // Issue 56's bar: the cell index at an empty cell at most 1.2× a terrain read. Random
    // empty cells of level 0 (4,096 of them, drawn like `level0`), read through
    // `things().at`, fresh and aged, beside a read of the same cells of the dense
    // `Grid<u16>` (the terrain's kind of grid: `Grid::get`).
    let empty: Vec<Loc> = random_locs(4 * 4096, 7)
        .into_iter()
        .map(|l| Loc::new(l.x, l.y, 0))
        .filter(|l| things.things().at(*l).is_empty() && old_things.things().at(*l).is_empty())
        .take(4096)
        .collect();
    let mut group = c.benchmark_group("grid/cell_index_empty_get");
    group.throughput(Throughput::Elements(empty.len() as u64));
    group.bench_function("terrain_get", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &empty {
                sum += u64::from(*g.get(*l));
            }
            black_box(sum)
        })
    });
    for (name, g) in [("things_at", &things), ("things_at_aged", &old_things)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &empty {
                    sum += g.things().at(*l).len() as u64;
                }
                black_box(sum)
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("grid/view_build");
    group.bench_function("whole_world_1024_chunks", |b| {
        b.iter(|| black_box(g.view(world())))
    });
    group.finish();

    // 40,000 isolated cells scattered over ±1,000,000 on 11 levels, against a std HashMap.
    let sparse = isolated_cells();
    let mut sg = Grid::new(0u16);
    let mut map = std::collections::HashMap::new();
    // The bytes each keeps, counted write by write (the same allocations, in the same order,
    // as without counting: the memory report's own grids would move the heap under the
    // other benches).
    let (mut grid_bytes, mut map_bytes) = (0i64, 0i64);
    let kept = |r: Region<'_, System>| {
        let s = r.change();
        s.bytes_allocated as i64 - s.bytes_deallocated as i64
    };
    for (i, l) in sparse.iter().enumerate() {
        let r = Region::new(GLOBAL);
        sg.set_mut(*l, i as u16 + 1);
        grid_bytes += kept(r);
        let r = Region::new(GLOBAL);
        map.insert(*l, i as u16 + 1);
        map_bytes += kept(r);
    }
    let n = sparse.len() as f64;
    println!(
        "memory: {} isolated cells: Grid<u16> {grid_bytes} bytes ({:.0} per cell), \
         HashMap<Loc, u16> {map_bytes} bytes ({:.0} per cell)",
        sparse.len(),
        grid_bytes as f64 / n,
        map_bytes as f64 / n
    );
    let probes: Vec<Loc> = sparse.iter().step_by(10).copied().collect();
    let mut group = c.benchmark_group("grid/isolated_get");
    group.throughput(Throughput::Elements(probes.len() as u64));
    group.bench_function("hashmap", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &probes {
                sum += u64::from(*map.get(l).unwrap_or(&0));
            }
            black_box(sum)
        })
    });
    group.bench_function("grid", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &probes {
                sum += u64::from(*sg.get(*l));
            }
            black_box(sum)
        })
    });
    group.finish();
}

/// Eleven 71 × 51 levels (Alchemy's), on levels −1 to −11, either all at the origin or
/// each placed at its own corner (±100,000, ±100,000): the same cells, near and far.
fn eleven_levels(far: bool) -> Vec<LocBox> {
    (0..11)
        .map(|i: i32| {
            let (ox, oy) = if far {
                (
                    if i % 2 == 0 { -100_000 } else { 100_000 },
                    if i / 2 % 2 == 0 { -100_000 } else { 100_000 },
                )
            } else {
                (0, 0)
            };
            LocBox::rect(ox - 35, oy - 25, 71, 51, -1 - i)
        })
        .collect()
}

/// A grid holding every cell of `levels`, and 4,096 random cells of them to read or write.
fn levels_grid(levels: &[LocBox]) -> (Grid<u16>, Vec<Loc>) {
    let mut g = Grid::new(0u16);
    for (i, l) in levels.iter().flat_map(|b| b.iter()).enumerate() {
        g.set_mut(l, (i % 251) as u16 + 1);
    }
    let probes = random_locs(4096, 9)
        .into_iter()
        .map(|l| {
            let b = levels[(l.z as usize) % levels.len()];
            Loc::new(
                b.min.x + l.x % b.width(),
                b.min.y + l.y % b.height(),
                b.min.z,
            )
        })
        .collect();
    (g, probes)
}

/// Bytes kept per one-cell version of a grid holding eleven levels, near or far.
fn levels_version_bytes(far: bool) -> f64 {
    let (g, probes) = levels_grid(&eleven_levels(far));
    bytes_per_version(&g, &probes[..1000], |g, l, v| g.set(l, v))
}

/// Far-away data: the same eleven levels near the origin and at ±100,000, read and written,
/// beside a `HashMap` of the far cells (the issue: far levels read 4× and wrote 3.5× slower
/// than near ones, and kept twice the bytes per version).
fn bench_far_levels(c: &mut Criterion) {
    let (near, near_probes) = levels_grid(&eleven_levels(false));
    let (far, far_probes) = levels_grid(&eleven_levels(true));
    let map: std::collections::HashMap<Loc, u16> = eleven_levels(true)
        .iter()
        .flat_map(|b| b.iter())
        .map(|l| (l, *far.get(l)))
        .collect();
    let mut group = c.benchmark_group("grid/far_levels_get");
    group.throughput(Throughput::Elements(far_probes.len() as u64));
    for (name, g, probes) in [("near", &near, &near_probes), ("far", &far, &far_probes)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in probes {
                    sum += u64::from(*g.get(*l));
                }
                black_box(sum)
            })
        });
    }
    group.bench_function("far_hashmap", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for l in &far_probes {
                sum += u64::from(*map.get(l).unwrap_or(&0));
            }
            black_box(sum)
        })
    });
    group.finish();
    let mut group = c.benchmark_group("grid/far_levels_set");
    for (name, g, probes) in [("near", &near, &near_probes), ("far", &far, &far_probes)] {
        let mut i = 0usize;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % probes.len();
                black_box(g.set(probes[i], 7))
            })
        });
    }
    group.finish();
}

fn bench_scan(c: &mut Criterion) {
    let g = filled_grid();
    let v = filled_vec();
    let mut group = c.benchmark_group("grid/full_scan");
    group.throughput(Throughput::Elements(CELLS as u64));
    // Baseline of the native iterator: a plain sum over the flat slice.
    group.bench_function("slice_sum", |b| {
        b.iter(|| black_box(black_box(&v).iter().map(|x| u64::from(*x)).sum::<u64>()))
    });
    // Internal iteration (`sum` uses `fold`): the iterator's fast path, same sum.
    group.bench_function("grid_iter_box_sum", |b| {
        b.iter(|| {
            black_box(
                black_box(&g)
                    .iter_box(world())
                    .map(|(_, x)| u64::from(*x))
                    .sum::<u64>(),
            )
        })
    });
    // External iteration (a `for` loop calling `next`), reported for honesty.
    group.bench_function("grid_iter_box_for_loop", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for (_, x) in black_box(&g).iter_box(world()) {
                sum += u64::from(*x);
            }
            black_box(sum)
        })
    });
    // Baseline of a scan through `get`: the flat Vec indexed by location, same loops.
    group.bench_function("flat_vec_index_scan", |b| {
        b.iter(|| {
            let v = black_box(&v);
            let mut sum = 0u64;
            for z in 0..D {
                for y in 0..H {
                    for x in 0..W {
                        sum += u64::from(v[flat_index(Loc::new(x, y, z))]);
                    }
                }
            }
            black_box(sum)
        })
    });
    group.bench_function("grid_get_scan", |b| {
        b.iter(|| {
            let g = black_box(&g);
            let mut sum = 0u64;
            for z in 0..D {
                for y in 0..H {
                    for x in 0..W {
                        sum += u64::from(*g.get(Loc::new(x, y, z)));
                    }
                }
            }
            black_box(sum)
        })
    });
    let d2 = D2::filled();
    group.bench_function("d2_anchor_get_scan", |b| {
        b.iter(|| {
            let d = black_box(&d2);
            let mut sum = 0u64;
            for z in 0..D {
                for y in 0..H {
                    for x in 0..W {
                        sum += u64::from(*d.get(Loc::new(x, y, z)));
                    }
                }
            }
            black_box(sum)
        })
    });
    let lean = LeanD2::filled();
    group.bench_function("d2_lean_get_scan", |b| {
        b.iter(|| {
            let d = black_box(&lean);
            let mut sum = 0u64;
            for z in 0..D {
                for y in 0..H {
                    for x in 0..W {
                        sum += u64::from(*d.get(Loc::new(x, y, z)));
                    }
                }
            }
            black_box(sum)
        })
    });
    group.bench_function("grid_view_get_scan", |b| {
        b.iter(|| {
            let view = black_box(&g).view(world());
            let mut sum = 0u64;
            for z in 0..D {
                for y in 0..H {
                    for x in 0..W {
                        sum += u64::from(*view.get(Loc::new(x, y, z)));
                    }
                }
            }
            black_box(sum)
        })
    });
    group.finish();
}

fn bench_set(c: &mut Criterion) {
    let g = filled_grid();
    let v = filled_vec();
    let locs = random_locs(4096, 2);
    let mut group = c.benchmark_group("grid/persistent_set");
    let mut i = 0usize;
    group.bench_function("flat_vec_clone_and_set", |b| {
        b.iter(|| {
            i = (i + 1) % locs.len();
            let mut copy = v.clone();
            copy[flat_index(locs[i])] = 7;
            black_box(copy)
        })
    });
    // The previous version `g` stays alive; the new one is dropped inside the timing.
    group.bench_function("grid_set", |b| {
        b.iter(|| {
            i = (i + 1) % locs.len();
            black_box(g.set(locs[i], 7))
        })
    });
    let d2 = D2::filled();
    group.bench_function("d2_anchor_set", |b| {
        b.iter(|| {
            i = (i + 1) % locs.len();
            black_box(d2.set(locs[i], 7))
        })
    });
    let lean = LeanD2::filled();
    group.bench_function("d2_lean_set", |b| {
        b.iter(|| {
            i = (i + 1) % locs.len();
            black_box(lean.set(locs[i], 7))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("grid/in_place_set");
    group.throughput(Throughput::Elements(locs.len() as u64));
    group.bench_function("flat_vec", |b| {
        b.iter_batched_ref(
            filled_vec,
            |v| {
                for (k, l) in locs.iter().enumerate() {
                    v[flat_index(*l)] = k as u16;
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("grid_sole_owner", |b| {
        b.iter_batched_ref(
            filled_grid,
            |g| {
                for (k, l) in locs.iter().enumerate() {
                    g.set_mut(*l, k as u16);
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();

    let mut group = c.benchmark_group("grid/clone");
    group.bench_function("flat_vec", |b| b.iter(|| black_box(v.clone())));
    group.bench_function("grid", |b| b.iter(|| black_box(g.clone())));
    // The floor for any Send + Sync shared structure: one Arc clone (+ drop).
    let arc: std::sync::Arc<[u16]> = v.clone().into();
    group.bench_function("arc_baseline", |b| b.iter(|| black_box(arc.clone())));
    group.finish();
}

/// Reference rows out of cache: the random reads of `grid/random_get` on the large worlds
/// ([`LARGE`]), where a read waits on memory more than on its instructions. Last in the run,
/// so their fixtures (three copies of the cells) do not move the heap under the other
/// benches.
fn bench_get_large(c: &mut Criterion) {
    for (name, size) in LARGE {
        let value = |l: Loc| (index_in(size, l) % 251) as u16 + 1;
        let world = LocBox::new(Loc::new(0, 0, 0), Loc::new(size[0], size[1], size[2]));
        let mut cells = vec![0u16; world.iter().count()];
        let mut grid = Grid::new(0u16);
        for l in world.iter() {
            cells[index_in(size, l)] = value(l);
            grid.set_mut(l, value(l));
        }
        let d2 = D2::from_fn(size, value);
        let locs = random_locs_in(size, 4096, 1);
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(locs.len() as u64));
        group.bench_function("flat_vec", |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(cells[index_in(size, *l)]);
                }
                black_box(sum)
            })
        });
        group.bench_function("grid", |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(*grid.get(*l));
                }
                black_box(sum)
            })
        });
        group.bench_function("d2_anchor", |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for l in &locs {
                    sum += u64::from(*d2.get(*l));
                }
                black_box(sum)
            })
        });
        group.finish();
    }
}

/// Writes to isolated cells (sparse one-cell chunks) among 4,000 and 40,000 of them, one
/// write a call, cycling over the cells: in place (the grid the sole owner) and persistent
/// (the new grid dropped inside the timing), beside a std `HashMap` overwriting the same
/// keys. A write's cost should not grow with the number of isolated cells.
fn bench_isolated_set(c: &mut Criterion) {
    for n in [4_000usize, 40_000] {
        let cells = isolated_cells_n(n);
        let mut g = Grid::new(0u16);
        let mut map = std::collections::HashMap::new();
        for (k, l) in cells.iter().enumerate() {
            g.set_mut(*l, k as u16 + 1);
            map.insert(*l, k as u16 + 1);
        }
        // Every 7th cell, so that consecutive writes land far apart.
        let locs: Vec<Loc> = cells.iter().step_by(7).copied().collect();
        let mut group = c.benchmark_group(format!("grid/isolated_set_{n}"));
        let mut i = 0usize;
        group.bench_function("hashmap", |b| {
            b.iter(|| {
                i = (i + 1) % locs.len();
                black_box(map.insert(locs[i], i as u16))
            })
        });
        group.bench_function("grid_in_place", |b| {
            b.iter(|| {
                i = (i + 1) % locs.len();
                g.set_mut(locs[i], i as u16);
            })
        });
        group.bench_function("grid_persistent", |b| {
            b.iter(|| {
                i = (i + 1) % locs.len();
                black_box(g.set(locs[i], i as u16 ^ 1))
            })
        });
        group.finish();
    }
}

criterion_group!(
    benches,
    bench_get,
    bench_isolated_set,
    bench_far_levels,
    bench_scan,
    bench_set,
    bench_get_large
);

fn main() {
    memory_report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
