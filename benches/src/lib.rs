//! Criterion benchmarks for Alembic live in `benches/`; this library holds the shared
//! fixture so every peer runs on exactly the same map, origins and start/goal pairs.

pub mod alchemy_code;
pub mod caves_code;

use alembic::{Loc, mapgen::Adjacency, mapgen::MapGenError, mapgen::TileMap, rng::GameRng};

/// Fixture width.
pub const WIDTH: i32 = 80;
/// Fixture height.
pub const HEIGHT: i32 = 50;
/// FOV radius used by every FOV benchmark.
pub const RADIUS: u32 = 12;
/// Seed of the fixture cave.
pub const CAVE_SEED: u64 = 22;
/// Initial floor probability of the fixture cave.
pub const FLOOR_CHANCE: f64 = 0.55;
/// Smoothing rounds of the fixture cave.
pub const ROUNDS: usize = 4;

/// Straight move cost for the path benchmarks (octile 10 / 14).
pub const STRAIGHT: u32 = 10;
/// Diagonal move cost for the path benchmarks.
pub const DIAGONAL: u32 = 14;

/// The shared benchmark fixture.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// The cave: `true` = floor; only the largest (4-connected) region is kept.
    pub map: TileMap<bool>,
    /// 100 FOV origins on floor cells.
    pub origins: Vec<Loc>,
    /// 100 start/goal pairs on floor cells (all mutually reachable).
    pub pairs: Vec<(Loc, Loc)>,
    /// 10 Dijkstra goals on floor cells.
    pub goals: Vec<Loc>,
}

impl Fixture {
    /// Whether `l` is an open floor cell.
    #[must_use]
    #[inline]
    pub fn open(&self, l: Loc) -> bool {
        self.map.get(l).copied().unwrap_or(false)
    }

    /// Move cost with the pathfinding rules of the benchmarks: 10 straight, 14 diagonal,
    /// both ends must be floor.
    #[must_use]
    #[inline]
    pub fn cost(&self, from: Loc, to: Loc) -> Option<u32> {
        if !self.open(to) {
            return None;
        }
        Some(if from.x != to.x && from.y != to.y {
            DIAGONAL
        } else {
            STRAIGHT
        })
    }
}

/// The fixture cave alone (also what the cave-generation benchmark builds).
pub fn cave(rng: &mut GameRng) -> Result<TileMap<bool>, MapGenError> {
    TileMap::cave(WIDTH, HEIGHT, FLOOR_CHANCE, ROUNDS, rng)
}

/// Builds the fixture deterministically.
///
/// # Panics
/// If the fixed seed stops producing a cave (a change in the generator).
#[must_use]
#[allow(clippy::expect_used)]
pub fn fixture() -> Fixture {
    let mut rng = GameRng::seed_from(CAVE_SEED);
    let map = cave(&mut rng)
        .and_then(|m| m.keep_largest_region(|&f| f, Adjacency::Four, false))
        .expect("fixture cave");
    let floors: Vec<Loc> = map.iter().filter(|(_, f)| **f).map(|(l, _)| l).collect();
    let pick = |rng: &mut GameRng| floors[rng.index(floors.len()).expect("floor")];
    let mut rng = GameRng::seed_from(12345);
    let origins = (0..100).map(|_| pick(&mut rng)).collect();
    let pairs = (0..100).map(|_| (pick(&mut rng), pick(&mut rng))).collect();
    let goals = (0..10).map(|_| pick(&mut rng)).collect();
    Fixture {
        map,
        origins,
        pairs,
        goals,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_has_about_2300_open_cells() {
        let f = fixture();
        let n = f.map.count(|&c| c);
        assert!((2100..=2500).contains(&n), "{n} open cells");
    }
}
