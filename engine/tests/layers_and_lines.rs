//! Named layers in the game value, and straight lines between locations.

use alembic::{Game, Loc, Rgb, ThingId, layer::Layer, library::TileId};

const SEEN: Layer<u64> = Layer::new("seen");
const SCENT: Layer<u64> = Layer::new("scent");

#[test]
fn layers_are_persistent_and_saved() {
    let g0 = Game::new(1);
    assert_eq!(g0.layers().at(&SEEN, Loc::new(1, 2, -1)), 0);
    assert!(g0.layers().get(&SEEN).is_empty());
    let mut g1 = g0.clone();
    g1.set_layer_mut(&SEEN, Loc::new(1, 2, -1), 7);
    let mut g2 = g1.clone();
    g2.set_layer_mut(&SEEN, Loc::new(1, 2, -1), 9);
    g2.set_layer_mut(&SCENT, Loc::new(0, 0, 0), 3);
    assert_eq!(g1.layers().at(&SEEN, Loc::new(1, 2, -1)), 7);
    assert_eq!(g2.layers().at(&SEEN, Loc::new(1, 2, -1)), 9);
    assert_eq!(g0.layers().at(&SEEN, Loc::new(1, 2, -1)), 0);
    assert_eq!(
        g2.layers().names().collect::<Vec<_>>(),
        vec!["scent", "seen"]
    );
    assert_ne!(g1, g2);
    assert_ne!(g1.state_hash(), g2.state_hash());
    let text = serde_json::to_string(&g2).unwrap();
    let back: Game = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g2);
    assert_eq!(back.state_hash(), g2.state_hash());
    g2.check_invariants().unwrap();
}

#[test]
fn typed_layers_round_trip_their_values() {
    const TILE: Layer<Option<TileId>> = Layer::new("tile");
    const WHO: Layer<Option<ThingId>> = Layer::new("who");
    const LOOK: Layer<Option<(char, Rgb)>> = Layer::new("look");
    const HEAT: Layer<i32> = Layer::new("heat");
    const LIT: Layer<bool> = Layer::new("lit");
    let at = Loc::new(-4, 9, 2);
    let mut g = Game::new(1);
    assert_eq!(g.layers().at(&TILE, at), None);
    assert_eq!(g.layers().at(&WHO, at), None);
    assert_eq!(g.layers().at(&LOOK, at), None);
    assert_eq!(g.layers().at(&HEAT, at), 0);
    assert!(!g.layers().at(&LIT, at));
    g.set_layer_mut(&TILE, at, Some(TileId(0)));
    g.set_layer_mut(&WHO, at, Some(ThingId(77)));
    g.set_layer_mut(&LOOK, at, Some(('&', Rgb::new(1, 2, 3))));
    g.set_layer_mut(&HEAT, at, -12);
    g.set_layer_mut(&LIT, at, true);
    assert_eq!(g.layers().at(&TILE, at), Some(TileId(0)));
    assert_eq!(g.layers().at(&WHO, at), Some(ThingId(77)));
    assert_eq!(g.layers().at(&LOOK, at), Some(('&', Rgb::new(1, 2, 3))));
    assert_eq!(g.layers().at(&HEAT, at), -12);
    assert!(g.layers().at(&LIT, at));
    assert_eq!(g.layers().get(&HEAT).get(at), -12);
    assert_eq!(
        g.layers().names().collect::<Vec<_>>(),
        vec!["heat", "lit", "look", "tile", "who"]
    );
}

#[test]
fn a_layer_view_reads_what_the_layer_holds() {
    // Cells in a few chunks and on two levels, some in the same chunk as the cell before
    // (the view's remembered chunk) and some not, and cells never written.
    let mut g = Game::new(1);
    let mut written = Vec::new();
    for i in 0..200i32 {
        let at = Loc::new((i * 7) % 53 - 20, (i * 13) % 41 - 9, i % 2);
        g.set_layer_mut(&SEEN, at, u64::try_from(i).unwrap() + 1);
        written.push(at);
    }
    let empty = Game::new(1);
    let (layer, none) = (g.layers().get(&SEEN), empty.layers().get(&SEEN));
    let (view, none_view) = (layer.view(), none.view());
    for &at in &written {
        for l in [at, Loc::new(at.x + 1, at.y, at.z), Loc::new(at.x, at.y, 5)] {
            assert_eq!(view.get(l), g.layers().at(&SEEN, l), "at {l}");
            assert_eq!(none_view.get(l), 0);
        }
    }
}

#[test]
fn writing_zero_to_a_missing_layer_creates_nothing() {
    let mut g = Game::new(1);
    g.set_layer_mut(&SEEN, Loc::new(0, 0, 0), 0);
    assert!(g.layers().get(&SEEN).is_empty());
    assert_eq!(g, Game::new(1));
}

#[test]
fn lines_are_contiguous_and_symmetric_in_length() {
    for (a, b) in [
        (Loc::new(0, 0, 0), Loc::new(7, 3, 0)),
        (Loc::new(5, 5, -2), Loc::new(-3, 9, -2)),
        (Loc::new(2, 2, 0), Loc::new(2, -6, 0)),
        (Loc::new(1, 1, 0), Loc::new(1, 1, 0)),
    ] {
        let l = a.line_to(b);
        assert_eq!(l[0], a);
        assert_eq!(*l.last().unwrap(), b);
        assert_eq!(l.len() as u32, a.chebyshev(b) + 1);
        for w in l.windows(2) {
            assert_eq!(w[0].chebyshev(w[1]), 1);
            assert_eq!(w[1].z, a.z);
        }
        assert_eq!(b.line_to(a).len(), l.len());
    }
}
