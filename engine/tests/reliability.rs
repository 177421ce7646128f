//! Reliability of the game value at its edges: exact save/load round trips (big cells, deep
//! containment, non-finite floats), ids that run out, corrupt RNG states, and invariant
//! checks that stay linear on hostile shapes.

#![allow(clippy::unwrap_used)]

use alembic::{Error, Game, Library, Loc, Prop, Props, Thing, library::IS_CONTAINER};
use proptest::prelude::*;

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic-rl`).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

const WEIGHT: Prop<f64> = Prop::new("weight");

fn library() -> Library {
    Library::new()
        .proclaim("box", None, Props::new().with(&IS_CONTAINER, true))
        .unwrap()
        .proclaim("pebble", None, Props::new())
        .unwrap()
}

fn round_trip(g: &Game) -> Game {
    let text = serde_json::to_string(g).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn ten_thousand_things_in_one_cell_round_trip_exactly() {
    let mut g = Game::new(1).with_library(library());
    let here = Loc::new(2, 3, -1);
    for _ in 0..10_000 {
        let t = g.library().create("pebble").unwrap();
        g.add_thing_mut(here, t).unwrap();
    }
    g.check_invariants().unwrap();
    let back = round_trip(&g);
    assert_eq!(back.things().at(here), g.things().at(here));
    assert_eq!(back.state_hash(), g.state_hash());
    assert!(back == g, "a 10,000-thing cell must survive a round trip");
}

#[test]
fn deep_containment_round_trips_and_checks() {
    let mut g = Game::new(1).with_library(library());
    let mut holder = g
        .add_thing(Loc::new(0, 0, -1), g.library().create("box").unwrap())
        .map(|(ng, id)| {
            g = ng;
            id
        })
        .unwrap();
    for _ in 0..30_000 {
        let t = g.library().create("box").unwrap();
        holder = g.add_thing_mut(holder, t).unwrap();
    }
    g.check_invariants().unwrap();
    let back = round_trip(&g);
    assert!(back == g);
    assert_eq!(back.state_hash(), g.state_hash());
}

#[test]
fn non_finite_floats_survive_a_json_round_trip() {
    let (mut g, id) = Game::new(1)
        .with_library(library())
        .add_thing(Loc::new(0, 0, -1), Thing::new(Props::new()))
        .unwrap();
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1.5e300] {
        g.set_mut(id, &WEIGHT, v).unwrap();
        let back = round_trip(&g);
        let got = back.query(id, &WEIGHT).unwrap();
        assert_eq!(got.to_bits(), v.to_bits(), "{v} changed in a round trip");
        assert!(back == g);
    }
}

#[test]
fn ids_running_out_is_an_error_not_a_wrap() {
    // A save may carry any next_id: put it at the very top and add things.
    let g = Game::new(1).with_library(library());
    let mut v: serde_json::Value = serde_json::to_value(&g).unwrap();
    v["next_id"] = serde_json::json!(u64::MAX - 1);
    let mut g: Game = serde_json::from_value(v).unwrap();
    let a = g.add_thing_mut(Loc::new(0, 0, -1), Thing::new(Props::new()));
    assert!(a.is_ok(), "one id is left: {a:?}");
    let before = g.clone();
    let b = g.add_thing_mut(Loc::new(0, 0, -1), Thing::new(Props::new()));
    assert_eq!(b, Err(Error::IdsExhausted));
    assert!(g == before, "a refused add changes nothing");
    g.check_invariants().unwrap();
}

#[test]
fn an_all_zero_rng_state_is_refused_on_load() {
    let g = Game::new(1).with_library(library());
    let mut v: serde_json::Value = serde_json::to_value(&g).unwrap();
    v["rng"] = serde_json::json!({ "s": [0, 0, 0, 0] });
    let err = serde_json::from_value::<Game>(v).err().unwrap().to_string();
    assert!(err.contains("all zeros"), "{err}");
}

#[test]
fn the_rng_state_round_trips_exactly() {
    let mut g = Game::new(99).with_library(library());
    for _ in 0..5 {
        g.rng().next_u64();
    }
    let mut back = round_trip(&g);
    assert_eq!(back.rng().next_u64(), g.rng().next_u64());
}

#[test]
fn type_errors_read_as_english() {
    let (g, id) = Game::new(1)
        .with_library(library())
        .add_thing(Loc::new(0, 0, -1), Thing::new(Props::new()))
        .unwrap();
    let g = g.set(id, &Prop::<i32>::new("weight"), 3).unwrap();
    let msg = g.query(id, &WEIGHT).unwrap_err().to_string();
    // The message names the thing (this one has no prototype).
    assert_eq!(
        msg,
        format!("property weight on thing {id} holds an integer, not a decimal number")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    /// Random piles and nests of things, with float properties of any bit pattern, load back
    /// equal to what was saved.
    #[test]
    fn random_games_round_trip_exactly(
        steps in proptest::collection::vec((0u8..3, 0usize..64, any::<u64>()), 1..200)
    ) {
        let mut g = Game::new(5).with_library(library());
        let mut ids = Vec::new();
        let mut boxes = Vec::new();
        for (op, pick, bits) in steps {
            let at = Loc::new((bits % 3) as i32, 0, -1);
            match op {
                0 => {
                    let b = g.add_thing_mut(at, g.library().create("box").unwrap()).unwrap();
                    boxes.push(b);
                    ids.push(b);
                }
                1 if !boxes.is_empty() => {
                    let into = boxes[pick % boxes.len()];
                    let t = g.library().create("pebble").unwrap();
                    ids.push(g.add_thing_mut(into, t).unwrap());
                }
                _ if !ids.is_empty() => {
                    let id = ids[pick % ids.len()];
                    g.set_mut(id, &WEIGHT, f64::from_bits(bits)).unwrap();
                }
                _ => {}
            }
        }
        g.check_invariants().unwrap();
        let back = round_trip(&g);
        prop_assert!(back == g);
        prop_assert_eq!(back.state_hash(), g.state_hash());
    }
}
