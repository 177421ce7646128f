//! Box-drawing and block characters drawn as geometry, so that lines and blocks join from
//! cell to cell at any cell size (a font's glyphs for them rarely touch the cell edges).
//!
//! A shape is drawn as a coverage mask: `w × h` bytes, row-major, `0` = background and
//! `255` = foreground, intermediate values blend (the shades `░▒▓`).

/// How one arm of a box-drawing character is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arm {
    None,
    Light,
    Heavy,
    Double,
}

use Arm::{Double as D, Heavy as H, Light as L, None as N};

/// Arms (up, down, left, right) of the box-drawing characters drawn here.
const BOX: &[(char, [Arm; 4])] = &[
    ('─', [N, N, L, L]),
    ('━', [N, N, H, H]),
    ('│', [L, L, N, N]),
    ('┃', [H, H, N, N]),
    ('┌', [N, L, N, L]),
    ('┐', [N, L, L, N]),
    ('└', [L, N, N, L]),
    ('┘', [L, N, L, N]),
    ('╭', [N, L, N, L]),
    ('╮', [N, L, L, N]),
    ('╰', [L, N, N, L]),
    ('╯', [L, N, L, N]),
    ('┏', [N, H, N, H]),
    ('┓', [N, H, H, N]),
    ('┗', [H, N, N, H]),
    ('┛', [H, N, H, N]),
    ('├', [L, L, N, L]),
    ('┤', [L, L, L, N]),
    ('┬', [N, L, L, L]),
    ('┴', [L, N, L, L]),
    ('┼', [L, L, L, L]),
    ('═', [N, N, D, D]),
    ('║', [D, D, N, N]),
    ('╔', [N, D, N, D]),
    ('╗', [N, D, D, N]),
    ('╚', [D, N, N, D]),
    ('╝', [D, N, D, N]),
    ('╠', [D, D, N, D]),
    ('╣', [D, D, D, N]),
    ('╦', [N, D, D, D]),
    ('╩', [D, N, D, D]),
    ('╬', [D, D, D, D]),
    ('╴', [N, N, L, N]),
    ('╵', [L, N, N, N]),
    ('╶', [N, N, N, L]),
    ('╷', [N, L, N, N]),
];

/// Whether `ch` is drawn here rather than taken from a font.
#[must_use]
pub fn is_geometry(ch: char) -> bool {
    block(ch).is_some() || BOX.iter().any(|(c, _)| *c == ch)
}

/// A block element as (x0, y0, x1, y1) in eighths of the cell, and its coverage.
fn block(ch: char) -> Option<(u8, u8, u8, u8, u8)> {
    Some(match ch {
        '█' => (0, 0, 8, 8, 255),
        '▀' => (0, 0, 8, 4, 255),
        '▄' => (0, 4, 8, 8, 255),
        '▌' => (0, 0, 4, 8, 255),
        '▐' => (4, 0, 8, 8, 255),
        '░' => (0, 0, 8, 8, 64),
        '▒' => (0, 0, 8, 8, 128),
        '▓' => (0, 0, 8, 8, 192),
        '▁' => (0, 7, 8, 8, 255),
        '▂' => (0, 6, 8, 8, 255),
        '▃' => (0, 5, 8, 8, 255),
        '▅' => (0, 3, 8, 8, 255),
        '▆' => (0, 2, 8, 8, 255),
        '▇' => (0, 1, 8, 8, 255),
        _ => return None,
    })
}

/// The coverage mask of `ch` in a `w × h` cell, or `None` when `ch` is not a shape drawn
/// here.
#[must_use]
pub fn mask(ch: char, w: usize, h: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; w * h];
    if let Some((x0, y0, x1, y1, v)) = block(ch) {
        let sx = |e: u8| usize::from(e) * w / 8;
        let sy = |e: u8| usize::from(e) * h / 8;
        fill(&mut out, w, (sx(x0), sy(y0)), (sx(x1), sy(y1)), v);
        return Some(out);
    }
    let arms = BOX.iter().find(|(c, _)| *c == ch)?.1;
    // Line thickness grows with the cell; a double line is two lines with a gap between.
    let t = (w / 8).max(1);
    let (cx, cy) = (w / 2, h / 2);
    let [up, down, left, right] = arms;
    // Offsets of the strokes across an arm.
    let strokes = |arm: Arm| -> Vec<(isize, usize)> {
        match arm {
            Arm::None => vec![],
            Arm::Light => vec![(0, t)],
            Arm::Heavy => vec![(0, 2 * t)],
            Arm::Double => vec![(-(t as isize), t), (t as isize, t)],
        }
    };
    // Where the vertical arms reach across the centre (so corners close).
    let reach_v = |arm: Arm| match arm {
        Arm::Double => 2 * t,
        Arm::Heavy => t,
        _ => t / 2 + 1,
    };
    let vert_join = reach_v(left).max(reach_v(right));
    let horiz_join = reach_v(up).max(reach_v(down));
    let centred = |c: usize, off: isize, thick: usize| -> usize {
        (c as isize + off - (thick as isize) / 2).clamp(0, isize::MAX) as usize
    };
    for (off, thick) in strokes(up) {
        let x = centred(cx, off, thick);
        fill(&mut out, w, (x, 0), (x + thick, cy + vert_join), 255);
    }
    for (off, thick) in strokes(down) {
        let x = centred(cx, off, thick);
        fill(
            &mut out,
            w,
            (x, cy.saturating_sub(vert_join)),
            (x + thick, h),
            255,
        );
    }
    for (off, thick) in strokes(left) {
        let y = centred(cy, off, thick);
        fill(&mut out, w, (0, y), (cx + horiz_join, y + thick), 255);
    }
    for (off, thick) in strokes(right) {
        let y = centred(cy, off, thick);
        fill(
            &mut out,
            w,
            (cx.saturating_sub(horiz_join), y),
            (w, y + thick),
            255,
        );
    }
    Some(out)
}

/// Set the rectangle `[x0, x1) × [y0, y1)` (clipped) of a `w`-wide mask to `v`.
fn fill(mask: &mut [u8], w: usize, (x0, y0): (usize, usize), (x1, y1): (usize, usize), v: u8) {
    let h = mask.len() / w.max(1);
    for y in y0.min(h)..y1.min(h) {
        let row = &mut mask[y * w..(y + 1) * w];
        for p in &mut row[x0.min(w)..x1.min(w)] {
            *p = (*p).max(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(m: &[u8], w: usize, x: usize, y: usize) -> u8 {
        m[y * w + x]
    }

    #[test]
    fn horizontal_and_vertical_lines_touch_the_cell_edges() {
        for (w, h) in [(7, 16), (14, 32), (8, 8), (18, 40)] {
            let m = mask('─', w, h).expect("drawn");
            assert_eq!(at(&m, w, 0, h / 2), 255, "{w}x{h}");
            assert_eq!(at(&m, w, w - 1, h / 2), 255);
            assert_eq!(at(&m, w, w / 2, 0), 0);
            let m = mask('│', w, h).expect("drawn");
            assert_eq!(at(&m, w, w / 2, 0), 255);
            assert_eq!(at(&m, w, w / 2, h - 1), 255);
            assert_eq!(at(&m, w, 0, h / 2), 0);
        }
    }

    #[test]
    fn corners_close_and_reach_only_their_edges() {
        let (w, h) = (14, 32);
        let m = mask('┌', w, h).expect("drawn");
        assert_eq!(at(&m, w, w - 1, h / 2), 255, "right arm reaches the edge");
        assert_eq!(at(&m, w, w / 2, h - 1), 255, "down arm reaches the edge");
        assert_eq!(at(&m, w, 0, h / 2), 0, "no left arm");
        assert_eq!(at(&m, w, w / 2, 0), 0, "no up arm");
        assert_eq!(at(&m, w, w / 2, h / 2), 255, "the corner is closed");
        let m = mask('╔', w, h).expect("drawn");
        assert!(m.iter().filter(|v| **v == 255).count() > 2 * (w / 2 + h / 2));
    }

    #[test]
    fn blocks_and_shades() {
        let (w, h) = (10, 20);
        let full = mask('█', w, h).expect("drawn");
        assert!(full.iter().all(|v| *v == 255));
        let top = mask('▀', w, h).expect("drawn");
        assert_eq!(at(&top, w, 3, 0), 255);
        assert_eq!(at(&top, w, 3, h - 1), 0);
        let light = mask('░', w, h).expect("drawn");
        let dark = mask('▓', w, h).expect("drawn");
        assert!(light[0] < dark[0]);
        assert!(mask('a', w, h).is_none());
        assert!(is_geometry('┼') && is_geometry('▒') && !is_geometry('#'));
    }
}
