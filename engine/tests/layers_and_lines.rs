//! Named layers in the game value, and straight lines between locations.

use alembic::{Game, Loc};

#[test]
fn layers_are_persistent_and_saved() {
    let g0 = Game::new(1);
    assert_eq!(g0.layer_get("seen", Loc::new(1, 2, -1)), 0);
    assert!(g0.layer("seen").is_none());
    let mut g1 = g0.clone();
    g1.set_layer_mut("seen", Loc::new(1, 2, -1), 7);
    let mut g2 = g1.clone();
    g2.set_layer_mut("seen", Loc::new(1, 2, -1), 9);
    g2.set_layer_mut("scent", Loc::new(0, 0, 0), 3);
    assert_eq!(g1.layer_get("seen", Loc::new(1, 2, -1)), 7);
    assert_eq!(g2.layer_get("seen", Loc::new(1, 2, -1)), 9);
    assert_eq!(g0.layer_get("seen", Loc::new(1, 2, -1)), 0);
    assert_eq!(g2.layer_names().collect::<Vec<_>>(), vec!["scent", "seen"]);
    assert_ne!(g1, g2);
    assert_ne!(g1.state_hash(), g2.state_hash());
    let text = serde_json::to_string(&g2).unwrap();
    let back: Game = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g2);
    assert_eq!(back.state_hash(), g2.state_hash());
    g2.check_invariants().unwrap();
}

#[test]
fn writing_zero_to_a_missing_layer_creates_nothing() {
    let mut g = Game::new(1);
    g.set_layer_mut("seen", Loc::new(0, 0, 0), 0);
    assert!(g.layer("seen").is_none());
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
