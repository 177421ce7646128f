//! The map palette stays legible after the terminal rounds it: remembered floor against
//! unexplored black, and remembered wall against remembered floor, each at least 1.5:1 in
//! relative luminance, in true colour, the xterm 256-colour palette and the 16 ANSI colours.

use alembic::Rgb;
use alembic_games::alchemy::ui::{contrast, lit_wall_face, memory_colours, wall_mark};
use alembic_tui::shown_rgb;
use alembic_ui::ColourDepth;

const DEPTHS: [ColourDepth; 3] = [
    ColourDepth::TrueColour,
    ColourDepth::Palette256,
    ColourDepth::Ansi16,
];

#[test]
fn remembered_terrain_contrasts_with_the_dark_and_with_itself() {
    for depth in DEPTHS {
        let (floor, wall) = memory_colours(depth);
        let (floor, wall) = (shown_rgb(floor, depth), shown_rgb(wall, depth));
        let black = shown_rgb(Rgb::BLACK, depth);
        let dark = contrast(floor, black);
        let walls = contrast(wall, floor);
        assert!(
            dark >= 1.5,
            "{depth:?}: remembered floor {floor:?} vs black: {dark:.2}"
        );
        assert!(
            walls >= 1.5,
            "{depth:?}: wall {wall:?} vs floor {floor:?}: {walls:.2}"
        );
    }
}

#[test]
fn the_check_can_fail() {
    // The old palette: remembered floor drawn at a third of a black tile's colour.
    let old_floor = Rgb::new(0, 0, 0);
    assert!(contrast(old_floor, Rgb::BLACK) < 1.5);
    // Grey 237 beside grey 234 in the 256-colour ramp.
    let (a, b) = (Rgb::new(58, 58, 58), Rgb::new(28, 28, 28));
    assert!(
        contrast(
            shown_rgb(a, ColourDepth::Palette256),
            shown_rgb(b, ColourDepth::Palette256)
        ) < 2.0
    );
}

#[test]
fn shown_colours_are_the_palette_entries() {
    assert_eq!(
        shown_rgb(Rgb::new(1, 2, 3), ColourDepth::TrueColour),
        Rgb::new(1, 2, 3)
    );
    assert_eq!(
        shown_rgb(Rgb::new(250, 0, 0), ColourDepth::Palette256),
        Rgb::new(255, 0, 0)
    );
    assert_eq!(
        shown_rgb(Rgb::new(48, 48, 48), ColourDepth::Palette256),
        Rgb::new(48, 48, 48)
    );
    assert_eq!(
        shown_rgb(Rgb::new(120, 120, 120), ColourDepth::Ansi16),
        Rgb::new(127, 127, 127)
    );
}

#[test]
fn a_lit_walls_mark_reads_at_every_light() {
    for v in (0..=255u8).step_by(5) {
        let face = lit_wall_face(Rgb::new(v, v, v));
        let mark = wall_mark(face);
        let c = contrast(mark, face);
        assert!(c >= 3.0, "light {v}: mark {mark:?} on {face:?}: {c:.2}");
    }
    // The old mark, the wall's own grey on its lit face, did not.
    let face = lit_wall_face(Rgb::new(255, 255, 255));
    assert!(contrast(Rgb::new(128, 128, 128), face) < 1.5);
}
