//! Side-by-side benchmarks of the engine algorithms against established crates, on one
//! shared fixture (see `alembic_benches::fixture`).
//!
//! Run: `cargo bench -p alembic-benches --bench algorithms -- --warm-up-time 1 --measurement-time 3`
//!
//! Every FOV benchmark iteration computes the field of view from all 100 origins; every
//! path benchmark iteration solves all 100 start/goal pairs; per-call figures in the
//! summary table are the criterion mean divided by 100. The setup asserts that the peers
//! compute the same thing (identical FOV sets against the reference implementation of the
//! same algorithm, identical A* path costs).

use std::hint::black_box;
use std::path::PathBuf;

use alembic::{
    Loc, fov::Fov, fov::VisibleSet, path::DijkstraMap, path::Pathfinder, path::Search, rng::GameRng,
};
use alembic_benches::{DIAGONAL, Fixture, HEIGHT, RADIUS, STRAIGHT, WIDTH, cave, fixture};
use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use criterion::Criterion;

// ------------------------------------------------------------------ adapters

/// The fixture as a bracket-lib map.
struct BracketMap {
    open: Vec<bool>,
}

impl BaseMap for BracketMap {
    fn is_opaque(&self, idx: usize) -> bool {
        !self.open.get(idx).copied().unwrap_or(false)
    }
}

impl Algorithm2D for BracketMap {
    fn dimensions(&self) -> Point {
        Point::new(WIDTH, HEIGHT)
    }
}

fn in_circle(dx: i64, dy: i64) -> bool {
    let r = i64::from(RADIUS);
    dx * dx + dy * dy <= r * r + r
}

/// `symmetric-shadowcasting` (Ford's reference port, rational slopes): no radius of its own,
/// so cells beyond the radius square block, and marks are filtered to our circle.
fn ss_fov(f: &Fixture, o: Loc, out: &mut Vec<(isize, isize)>) {
    out.clear();
    let (ox, oy) = (o.x as isize, o.y as isize);
    let r = RADIUS as isize;
    symmetric_shadowcasting::compute_fov(
        (ox, oy),
        &mut |(x, y)| {
            (x - ox).abs() > r || (y - oy).abs() > r || !f.open(Loc::new(x as i32, y as i32, 0))
        },
        &mut |(x, y)| {
            if in_circle((x - ox) as i64, (y - oy) as i64) {
                out.push((x, y));
            }
        },
    );
}

const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `pathfinding::astar` with the same moves, costs, corner rule and octile heuristic.
fn pf_astar(f: &Fixture, s: Loc, g: Loc) -> Option<u32> {
    let open = |x: i32, y: i32| f.open(Loc::new(x, y, 0));
    let successors = |&(x, y): &(i32, i32)| {
        DIRS.iter().filter_map(move |&(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            if !open(nx, ny) {
                return None;
            }
            if dx != 0 && dy != 0 {
                (open(nx, y) || open(x, ny)).then_some(((nx, ny), DIAGONAL))
            } else {
                Some(((nx, ny), STRAIGHT))
            }
        })
    };
    let h = |&(x, y): &(i32, i32)| {
        let dx = x.abs_diff(g.x);
        let dy = y.abs_diff(g.y);
        DIAGONAL * dx.min(dy) + STRAIGHT * (dx.max(dy) - dx.min(dy))
    };
    pathfinding::prelude::astar(&(s.x, s.y), successors, h, |&(x, y)| (x, y) == (g.x, g.y))
        .map(|(_, c)| c)
}

// ------------------------------------------------------------------ benchmarks

fn fov_benches(c: &mut Criterion, f: &Fixture) {
    let bmap = BracketMap {
        open: f.map.cells().to_vec(),
    };
    let mut fov = Fov::new();
    let mut seen = VisibleSet::new();
    let mut ss = Vec::new();
    // Setup check: ours equals the reference port of the same algorithm, cell for cell.
    for &o in &f.origins {
        fov.compute_into(o, RADIUS, |l| f.open(l), &mut seen);
        ss_fov(f, o, &mut ss);
        let mut theirs: Vec<Loc> = ss
            .iter()
            .map(|&(x, y)| Loc::new(x as i32, y as i32, 0))
            .collect();
        theirs.sort_by_key(|l| (l.y, l.x));
        theirs.dedup();
        let ours: Vec<Loc> = seen.iter().collect();
        assert_eq!(
            ours, theirs,
            "FOV differs from symmetric-shadowcasting at {o}"
        );
    }

    let mut g = c.benchmark_group("fov");
    g.bench_function("alembic", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                fov.compute_into(o, RADIUS, |l| f.open(l), &mut seen);
                n += seen.len();
            }
            black_box(n)
        });
    });
    // The same output types as the peers: a fresh `HashSet<Point>` per call (what
    // bracket-lib returns, with a fresh workspace), and a reused `Vec` of (x, y) filled
    // through the same kind of callback as symmetric-shadowcasting's.
    g.bench_function("alembic-fresh-hashset", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                let mut fov = Fov::new();
                let mut seen = VisibleSet::new();
                fov.compute_into(o, RADIUS, |l| f.open(l), &mut seen);
                let set: std::collections::HashSet<Point> =
                    seen.iter().map(|l| Point::new(l.x, l.y)).collect();
                n += set.len();
            }
            black_box(n)
        });
    });
    let mut out: Vec<(isize, isize)> = Vec::new();
    g.bench_function("alembic-reused-vec", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                fov.compute_into(o, RADIUS, |l| f.open(l), &mut seen);
                out.clear();
                out.extend(seen.iter().map(|l| (l.x as isize, l.y as isize)));
                n += out.len();
            }
            black_box(n)
        });
    });
    g.bench_function("symmetric-shadowcasting", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                ss_fov(f, o, &mut ss);
                n += ss.len();
            }
            black_box(n)
        });
    });
    g.bench_function("bracket-recursive", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                let s = FieldOfViewAlg::RecursiveShadowcasting.field_of_view_set(
                    Point::new(o.x, o.y),
                    RADIUS as i32,
                    &bmap,
                );
                n += s.len();
            }
            black_box(n)
        });
    });
    g.bench_function("bracket-symmetric", |b| {
        b.iter(|| {
            let mut n = 0;
            for &o in &f.origins {
                let s = FieldOfViewAlg::SymmetricShadowcasting.field_of_view_set(
                    Point::new(o.x, o.y),
                    RADIUS as i32,
                    &bmap,
                );
                n += s.len();
            }
            black_box(n)
        });
    });
    g.finish();
}

fn path_benches(c: &mut Criterion, f: &Fixture) {
    let search = Search::new(f.map.bounds(0)).move_costs(STRAIGHT, DIAGONAL);
    let mut pf = Pathfinder::new();
    let cost = |a: Loc, b: Loc| f.cost(a, b);
    // Setup check: identical optimal costs.
    for &(s, g) in &f.pairs {
        let ours = pf.astar(s, g, &search, cost).map(|p| p.cost).ok();
        let theirs = pf_astar(f, s, g).map(u64::from);
        assert_eq!(ours, theirs, "A* cost differs for {s} -> {g}");
        assert!(ours.is_some(), "fixture pairs are connected");
    }

    let mut g = c.benchmark_group("astar");
    g.bench_function("alembic", |b| {
        b.iter(|| {
            let mut total = 0;
            for &(s, goal) in &f.pairs {
                if let Ok(p) = pf.astar(s, goal, &search, cost) {
                    total += p.cost;
                }
            }
            black_box(total)
        });
    });
    // A fresh workspace per call, as `pathfinding::astar` allocates its own.
    g.bench_function("alembic-fresh", |b| {
        b.iter(|| {
            let mut total = 0;
            for &(s, goal) in &f.pairs {
                let mut pf = Pathfinder::new();
                if let Ok(p) = pf.astar(s, goal, &search, cost) {
                    total += p.cost;
                }
            }
            black_box(total)
        });
    });
    g.bench_function("pathfinding", |b| {
        b.iter(|| {
            let mut total = 0;
            for &(s, goal) in &f.pairs {
                total += u64::from(pf_astar(f, s, goal).unwrap_or(0));
            }
            black_box(total)
        });
    });
    g.finish();

    let mut g = c.benchmark_group("dijkstra");
    let mut map = DijkstraMap::new(f.map.bounds(0));
    g.bench_function("alembic-10-goals", |b| {
        b.iter(|| {
            map.rebuild(f.goals.iter().copied(), cost);
            black_box(map.get(f.origins[0]))
        });
    });
    let mut terrain = DijkstraMap::new(f.map.bounds(0));
    terrain.rebuild_terrain(f.goals.iter().copied(), STRAIGHT, DIAGONAL, |l| {
        f.open(l).then_some(1)
    });
    map.rebuild(f.goals.iter().copied(), |a, b| {
        if f.open(a) { f.cost(a, b) } else { None }
    });
    assert_eq!(
        terrain, map,
        "terrain fast path equals the general callback path"
    );
    g.bench_function("alembic-10-goals-terrain", |b| {
        b.iter(|| {
            terrain.rebuild_terrain(f.goals.iter().copied(), STRAIGHT, DIAGONAL, |l| {
                f.open(l).then_some(1)
            });
            black_box(terrain.get(f.origins[0]))
        });
    });
    g.bench_function("alembic-flee", |b| {
        b.iter(|| black_box(map.flee(cost).get(f.origins[0])));
    });
    g.finish();
}

fn mapgen_benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("mapgen");
    g.bench_function("cave-80x50-4-rounds", |b| {
        b.iter(|| {
            let mut rng = GameRng::seed_from(black_box(alembic_benches::CAVE_SEED));
            black_box(cave(&mut rng))
        });
    });
    g.finish();
}

// ------------------------------------------------------------------ summary

/// Criterion's estimate (ns) for `group/id`, from its JSON output.
fn mean_ns(group: &str, id: &str) -> Option<f64> {
    let dir = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR").map(|t| PathBuf::from(t).join("criterion"))
        })
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/criterion"));
    let text = std::fs::read_to_string(dir.join(group).join(id).join("new/estimates.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    // The figure criterion prints: the slope estimate for linear sampling, else the mean.
    v["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| v["mean"]["point_estimate"].as_f64())
}

fn summary() {
    let us = |g: &str, id: &str, per: f64| mean_ns(g, id).map(|ns| ns / per / 1000.0);
    println!("\n== Alembic algorithms vs peers (mean per call, µs) ==");
    println!(
        "{:<34} {:>10} {:>14}",
        "benchmark", "µs/call", "alembic/peer"
    );
    let ours_fov = us("fov", "alembic", 100.0);
    let mut fastest_peer: Option<f64> = None;
    for id in [
        "alembic",
        "alembic-fresh-hashset",
        "alembic-reused-vec",
        "symmetric-shadowcasting",
        "bracket-recursive",
        "bracket-symmetric",
    ] {
        let t = us("fov", id, 100.0);
        if !id.starts_with("alembic") {
            fastest_peer = match (fastest_peer, t) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        print_row(&format!("fov r={RADIUS} {id}"), t, ours_fov);
    }
    let fresh_set = us("fov", "alembic-fresh-hashset", 100.0);
    let reused_vec = us("fov", "alembic-reused-vec", 100.0);
    print_row("fov alembic -> fresh HashSet", fresh_set, None);
    print_row(
        "  / bracket-recursive (HashSet)",
        us("fov", "bracket-recursive", 100.0),
        fresh_set,
    );
    print_row("fov alembic -> reused Vec", reused_vec, None);
    print_row(
        "  / symmetric-shadowcasting (Vec)",
        us("fov", "symmetric-shadowcasting", 100.0),
        reused_vec,
    );
    let astar_ours = us("astar", "alembic", 100.0);
    let astar_fresh = us("astar", "alembic-fresh", 100.0);
    let astar_peer = us("astar", "pathfinding", 100.0);
    print_row("astar alembic (reused workspace)", astar_ours, astar_ours);
    print_row("astar alembic (fresh workspace)", astar_fresh, astar_fresh);
    print_row("astar pathfinding 4.16 / reused", astar_peer, astar_ours);
    print_row("astar pathfinding 4.16 / fresh", astar_peer, astar_fresh);
    let dij_general = us("dijkstra", "alembic-10-goals", 1.0);
    let dij = us("dijkstra", "alembic-10-goals-terrain", 1.0);
    print_row("dijkstra 10 goals, cost callback", dij_general, None);
    print_row("dijkstra 10 goals, terrain path", dij, None);
    print_row(
        "flee map (-1.2x + rescan)",
        us("dijkstra", "alembic-flee", 1.0),
        None,
    );
    let cave_t = us("mapgen", "cave-80x50-4-rounds", 1.0);
    print_row("cave 80x50, 4 rounds", cave_t, None);
    println!("\nbars:");
    bar(
        "FOV <= 0.8x fastest peer",
        ours_fov.zip(fastest_peer).map(|(a, b)| a / b),
        0.8,
    );
    bar(
        "A* <= 0.8x pathfinding",
        astar_ours.zip(astar_peer).map(|(a, b)| a / b),
        0.8,
    );
    bar("Dijkstra 10 goals (terrain) <= 100 us", dij, 100.0);
    bar("Dijkstra 10 goals (callback) <= 100 us", dij_general, 100.0);
    bar("cave <= 200 us", cave_t, 200.0);
}

fn print_row(name: &str, t: Option<f64>, ours: Option<f64>) {
    let t_s = t.map_or("n/a".to_string(), |v| format!("{v:.2}"));
    let ratio = match (ours, t) {
        (Some(o), Some(p)) if p > 0.0 => format!("{:.2}", o / p),
        _ => String::new(),
    };
    println!("{name:<34} {t_s:>10} {ratio:>14}");
}

fn bar(name: &str, value: Option<f64>, limit: f64) {
    match value {
        Some(v) => println!(
            "  {name:<40} {v:>8.2}  {}",
            if v <= limit { "met" } else { "MISSED" }
        ),
        None => println!("  {name:<40}      n/a"),
    }
}

fn main() {
    let f = fixture();
    let mut c = Criterion::default().configure_from_args();
    fov_benches(&mut c, &f);
    path_benches(&mut c, &f);
    mapgen_benches(&mut c);
    c.final_summary();
    summary();
}
