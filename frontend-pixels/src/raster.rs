//! The rasteriser: a [`Frame`] of cells into a `0RGB` `u32` pixel buffer, with no window.

use alembic::{Frame, Rgb};

use crate::font::{Glyph, glyph_or_replacement};

/// Smallest and largest integer scale.
pub const SCALE_RANGE: std::ops::RangeInclusive<u8> = 1..=4;

/// The shape of one cell before scaling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Face {
    /// The 8×8 glyph as is: square cells (classic tile roguelike look, round light radii).
    #[default]
    Square8x8,
    /// Each glyph row doubled: 8×16 cells, the 1:2 shape of a terminal.
    Tall8x16,
}

impl Face {
    /// Cell size in pixels at scale 1.
    #[must_use]
    pub const fn cell_size(self) -> (usize, usize) {
        match self {
            Face::Square8x8 => (8, 8),
            Face::Tall8x16 => (8, 16),
        }
    }

    /// How many output rows each glyph row becomes at scale 1.
    const fn row_repeat(self) -> usize {
        match self {
            Face::Square8x8 => 1,
            Face::Tall8x16 => 2,
        }
    }
}

/// Cell face and integer scale: everything that maps cells to pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    face: Face,
    scale: u8,
}

impl Default for Layout {
    fn default() -> Self {
        Layout::new(Face::Square8x8, 1)
    }
}

impl Layout {
    /// A layout; `scale` is clamped into [`SCALE_RANGE`].
    #[must_use]
    pub fn new(face: Face, scale: u8) -> Self {
        Layout {
            face,
            scale: scale.clamp(*SCALE_RANGE.start(), *SCALE_RANGE.end()),
        }
    }

    /// The cell face.
    #[must_use]
    pub fn face(&self) -> Face {
        self.face
    }

    /// The integer scale (1–4).
    #[must_use]
    pub fn scale(&self) -> u8 {
        self.scale
    }

    /// One cell's size in pixels, scale included.
    #[must_use]
    pub fn cell_px(&self) -> (usize, usize) {
        let (w, h) = self.face.cell_size();
        let s = usize::from(self.scale);
        (w * s, h * s)
    }

    /// Pixel size of a `cols × rows` grid.
    #[must_use]
    pub fn buffer_size(&self, cols: u16, rows: u16) -> (usize, usize) {
        let (cw, ch) = self.cell_px();
        (usize::from(cols) * cw, usize::from(rows) * ch)
    }

    /// How many whole cells fit in a window of `width × height` pixels (at least 1×1, at
    /// most `u16::MAX` each way).
    #[must_use]
    pub fn grid_for_window(&self, width: usize, height: usize) -> (u16, u16) {
        let (cw, ch) = self.cell_px();
        let fit =
            |px: usize, cell: usize| u16::try_from(px / cell.max(1)).unwrap_or(u16::MAX).max(1);
        (fit(width, cw), fit(height, ch))
    }
}

/// `Rgb` as the `0RGB` word minifb expects.
#[inline]
#[must_use]
pub const fn pack(c: Rgb) -> u32 {
    ((c.r as u32) << 16) | ((c.g as u32) << 8) | c.b as u32
}

/// Draw `frame` into `buf` (resized to fit exactly) and return its `(width, height)` in pixels.
///
/// Each cell is its background, with the glyph's set pixels in the foreground colour; a
/// character the font lacks draws [`crate::font::REPLACEMENT`]. Never panics: the buffer is
/// always sized from the frame and the layout.
pub fn render_frame(frame: &Frame, layout: Layout, buf: &mut Vec<u32>) -> (usize, usize) {
    let (width, height) = layout.buffer_size(frame.width(), frame.height());
    // Every pixel is overwritten below: only the length needs setting.
    buf.resize(width * height, 0);
    if width == 0 || height == 0 {
        return (width, height);
    }
    let s = usize::from(layout.scale);
    let (cell_w, _) = layout.cell_px();
    let rows_per_glyph_row = layout.face.row_repeat() * s;
    // Output lines one glyph row covers, and one cell row covers.
    let band_len = rows_per_glyph_row * width;
    let cell_row_px = band_len * 8;
    let cols = usize::from(frame.width());

    // Glyph and packed colours of one cell row, looked up once and reused for its 8 glyph rows.
    let mut looked_up: Vec<(Glyph, u32, u32)> = Vec::with_capacity(cols);
    for (cy, cells) in frame.cells().chunks_exact(cols.max(1)).enumerate() {
        looked_up.clear();
        looked_up.extend(
            cells
                .iter()
                .map(|c| (glyph_or_replacement(c.ch), pack(c.fg), pack(c.bg))),
        );
        let cell_row = &mut buf[cy * cell_row_px..(cy + 1) * cell_row_px];
        for (gy, band) in cell_row.chunks_exact_mut(band_len).enumerate() {
            // Draw the first output line of this glyph row across the whole width (sequential
            // writes), then copy that line down for the vertical scale.
            let (first, rest) = band.split_at_mut(width);
            for (line, (glyph, fg, bg)) in first.chunks_exact_mut(cell_w).zip(&looked_up) {
                let bits = glyph[gy];
                match s {
                    _ if bits == 0 => line.fill(*bg),
                    1 => glyph_row::<1>(line, bits, *fg, *bg),
                    2 => glyph_row::<2>(line, bits, *fg, *bg),
                    3 => glyph_row::<3>(line, bits, *fg, *bg),
                    _ => glyph_row::<4>(line, bits, *fg, *bg),
                }
            }
            for copy in rest.chunks_exact_mut(width) {
                copy.copy_from_slice(first);
            }
        }
    }
    (width, height)
}

/// One glyph row into `line` (`8 × S` pixels): set bits in `fg`, clear bits in `bg`.
/// The scale is a constant so the per-pixel loop unrolls.
#[inline]
fn glyph_row<const S: usize>(line: &mut [u32], bits: u8, fg: u32, bg: u32) {
    for (gx, px) in line.chunks_exact_mut(S).enumerate() {
        let on = 0u32.wrapping_sub(u32::from(bits >> gx & 1));
        px.fill((fg & on) | (bg & !on));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::{REPLACEMENT, glyph};
    use alembic::Cell;

    const FG: Rgb = Rgb::new(255, 200, 40);
    const BG: Rgb = Rgb::new(10, 20, 30);

    fn cell(ch: char) -> Cell {
        Cell { ch, fg: FG, bg: BG }
    }

    /// The pixel at glyph position (gx, gy) of cell (cx, cy).
    fn px(
        buf: &[u32],
        width: usize,
        layout: Layout,
        cx: usize,
        cy: usize,
        gx: usize,
        gy: usize,
    ) -> u32 {
        let (cw, ch) = layout.cell_px();
        let s = usize::from(layout.scale());
        let rr = layout.face().row_repeat() * s;
        buf[(cy * ch + gy * rr) * width + cx * cw + gx * s]
    }

    #[test]
    fn buffer_size_is_cells_times_cell_size_times_scale() {
        for face in [Face::Square8x8, Face::Tall8x16] {
            for scale in 1..=4u8 {
                let layout = Layout::new(face, scale);
                let frame = Frame::new(7, 3);
                let mut buf = Vec::new();
                let (w, h) = render_frame(&frame, layout, &mut buf);
                let (fw, fh) = face.cell_size();
                let s = usize::from(scale);
                assert_eq!((w, h), (7 * fw * s, 3 * fh * s));
                assert_eq!(buf.len(), w * h);
            }
        }
    }

    #[test]
    fn glyph_pixels_are_fg_and_the_rest_bg_at_every_scale() {
        for face in [Face::Square8x8, Face::Tall8x16] {
            for scale in 1..=4u8 {
                let layout = Layout::new(face, scale);
                let mut frame = Frame::new(3, 2);
                frame.clear(cell(' '));
                frame.put(1, 1, cell('@'));
                let mut buf = Vec::new();
                let (w, _) = render_frame(&frame, layout, &mut buf);
                let at = glyph('@').expect("@ has a glyph");
                for (gy, bits) in at.iter().enumerate() {
                    for gx in 0..8 {
                        let want = if bits >> gx & 1 == 1 {
                            pack(FG)
                        } else {
                            pack(BG)
                        };
                        assert_eq!(px(&buf, w, layout, 1, 1, gx, gy), want, "{face:?} x{scale}");
                    }
                }
                // Every pixel is one of the two colours, and the fg count matches the glyph.
                let (cw, chh) = layout.cell_px();
                let set: usize = at.iter().map(|b| b.count_ones() as usize).sum();
                let fg_pixels = buf.iter().filter(|&&p| p == pack(FG)).count();
                assert_eq!(fg_pixels, set * cw * chh / 64);
                assert!(buf.iter().all(|&p| p == pack(FG) || p == pack(BG)));
            }
        }
    }

    #[test]
    fn empty_cells_are_all_background() {
        let layout = Layout::new(Face::Square8x8, 2);
        let mut frame = Frame::new(4, 4);
        frame.clear(cell(' '));
        let mut buf = Vec::new();
        render_frame(&frame, layout, &mut buf);
        assert!(buf.iter().all(|&p| p == pack(BG)));
    }

    #[test]
    fn unknown_chars_draw_the_replacement_glyph() {
        let layout = Layout::new(Face::Square8x8, 1);
        let mut frame = Frame::new(3, 1);
        frame.clear(cell(' '));
        frame.put(0, 0, cell('\u{1F600}'));
        frame.put(1, 0, cell('\u{7}'));
        frame.put(2, 0, cell('漢'));
        let mut buf = Vec::new();
        let (w, _) = render_frame(&frame, layout, &mut buf);
        for cx in 0..3 {
            for (gy, bits) in REPLACEMENT.iter().enumerate() {
                for gx in 0..8 {
                    let want = if bits >> gx & 1 == 1 {
                        pack(FG)
                    } else {
                        pack(BG)
                    };
                    assert_eq!(px(&buf, w, layout, cx, 0, gx, gy), want);
                }
            }
        }
    }

    #[test]
    fn empty_frames_and_reused_buffers_are_fine() {
        let layout = Layout::new(Face::Tall8x16, 3);
        let mut buf = vec![7; 10];
        assert_eq!(render_frame(&Frame::new(0, 0), layout, &mut buf), (0, 0));
        assert!(buf.is_empty());
        assert_eq!(render_frame(&Frame::new(5, 0), layout, &mut buf), (120, 0));
        let (w, h) = render_frame(&Frame::new(2, 1), layout, &mut buf);
        assert_eq!(buf.len(), w * h);
    }

    #[test]
    fn layout_clamps_scale_and_fits_grids() {
        assert_eq!(Layout::new(Face::Square8x8, 0).scale(), 1);
        assert_eq!(Layout::new(Face::Square8x8, 9).scale(), 4);
        let l = Layout::new(Face::Square8x8, 2);
        assert_eq!(l.grid_for_window(1280, 800), (80, 50));
        assert_eq!(l.grid_for_window(1295, 815), (80, 50));
        assert_eq!(l.grid_for_window(3, 3), (1, 1));
        let t = Layout::new(Face::Tall8x16, 2);
        assert_eq!(t.grid_for_window(1280, 800), (80, 25));
        assert_eq!(l.grid_for_window(usize::MAX, 16), (u16::MAX, 1));
    }

    #[test]
    fn pack_is_0rgb() {
        assert_eq!(pack(Rgb::new(0x12, 0x34, 0x56)), 0x0012_3456);
    }
}
