//! The rasteriser: a [`Frame`] of cells into a `0RGB` `u32` pixel buffer, with no window.
//!
//! Every cell is its background colour with a coverage mask blended over it in its
//! foreground colour. The mask comes from, in order:
//! 1. [`crate::geometry`] for box-drawing and block characters, so lines join;
//! 2. [`crate::tiles`] for [`alembic_ui::Tile`] characters (pictures drawn in code);
//! 3. the font: anti-aliased Noto Sans Mono ([`Font::Noto`], 8-bit coverage, alpha-blended)
//!    or the `font8x8` bitmaps ([`Font::Bitmap8x8`], [`Font::Bitmap8x16`], integer-scaled);
//! 4. a visible replacement box for anything else.
//!
//! Masks are made once per character and cell size and kept in the [`Rasterizer`], so a frame
//! costs one blend per pixel.

use std::collections::HashMap;

use alembic::Rgb;
use alembic_ui::{Frame, Rect, Tile, TileSpan};
use noto_sans_mono_bitmap::{FontWeight, RasterHeight, get_raster, get_raster_width};

use crate::font::{Glyph, REPLACEMENT, glyph};
use crate::{geometry, tiles};

/// Which font draws the letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Font {
    /// Noto Sans Mono, anti-aliased, cells about 1:2.3 (like a terminal). The default.
    #[default]
    Noto,
    /// The 8×8 bitmaps of `font8x8`, integer-scaled, with a row of leading above and below
    /// (8×10 cells): the retro look.
    Bitmap8x8,
    /// The 8×8 bitmaps with each row doubled: 8×16 cells.
    Bitmap8x16,
}

/// The Noto sizes on offer, smallest first: (raster height, integer scale). Above 32 pixels
/// the pre-rasterised glyphs are doubled (nearest neighbour), which stays crisp.
const NOTO_STEPS: [(RasterHeight, usize); 7] = [
    (RasterHeight::Size16, 1),
    (RasterHeight::Size20, 1),
    (RasterHeight::Size24, 1),
    (RasterHeight::Size32, 1),
    (RasterHeight::Size20, 2),
    (RasterHeight::Size24, 2),
    (RasterHeight::Size32, 2),
];

/// Noto's largest pre-rasterised size: line height and advance in pixels.
const NOTO_32_HEIGHT: usize = 32;
const NOTO_32_WIDTH: usize = get_raster_width(FontWeight::Regular, RasterHeight::Size32);

/// Integer scales on offer for the bitmap fonts.
pub const BITMAP_SCALES: std::ops::RangeInclusive<u8> = 1..=6;

/// Font and cell size: everything that maps cells to pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    font: Font,
    /// Index of the size among the font's sizes, smallest first (for a free Noto cell: the
    /// largest preset no taller than it).
    step: u8,
    /// One cell in pixels.
    cell: (u16, u16),
    /// Noto: the height the glyphs are drawn at (the font's line height), at most the cell's.
    glyph: u16,
    /// The width of the cells of a frame's map area ([`Frame::map_area`]): the cell's own
    /// width, except in [`Layout::text_and_map`], where the map's cells are square and the
    /// text's narrower.
    map_w: u16,
}

impl Default for Layout {
    fn default() -> Self {
        Layout::new(Font::Noto, 0)
    }
}

impl Layout {
    /// A layout of `font` at size `step` (0 = smallest; clamped to [`Layout::steps`]). For the
    /// bitmap fonts the step is the integer scale minus one.
    #[must_use]
    pub fn new(font: Font, step: u8) -> Self {
        let step = step.min(Self::steps(font) - 1);
        let s = usize::from(step);
        let (cell, glyph) = match font {
            Font::Noto => {
                let (height, scale) = NOTO_STEPS[s];
                let w = get_raster_width(FontWeight::Regular, height) * scale;
                let h = height as usize * scale;
                ((w, h), h)
            }
            // A row of leading above and below each glyph, so lines of text do not touch.
            Font::Bitmap8x8 => ((8 * (s + 1), 10 * (s + 1)), 8 * (s + 1)),
            Font::Bitmap8x16 => ((8 * (s + 1), 16 * (s + 1)), 16 * (s + 1)),
        };
        let px = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
        Layout {
            font,
            step,
            cell: (px(cell.0), px(cell.1)),
            glyph: px(glyph),
            map_w: px(cell.0),
        }
    }

    /// Noto in cells of any size `w × h` pixels (at least [`Layout::MIN_CELL`]), as Brogue CE
    /// sizes its cells to show a whole level: the glyphs are resampled from the nearest
    /// pre-rasterised size to the largest height whose letters fit the cell (at most the
    /// cell's height), and centred in it. Tiles and box lines fill the cell.
    #[must_use]
    pub fn noto_cells(w: u16, h: u16) -> Self {
        let (w, h) = (w.max(Self::MIN_CELL.0), h.max(Self::MIN_CELL.1));
        // The tallest glyph whose advance fits the cell's width.
        let by_width = usize::from(w) * NOTO_32_HEIGHT / NOTO_32_WIDTH;
        let glyph = u16::try_from(by_width).unwrap_or(u16::MAX).min(h);
        let step = (0..Self::steps(Font::Noto))
            .rev()
            .find(|&s| Layout::new(Font::Noto, s).cell.1 <= h)
            .unwrap_or(0);
        Layout {
            font: Font::Noto,
            step,
            cell: (w, h),
            glyph,
            map_w: w,
        }
    }

    /// Noto in rows `height` pixels tall: text in cells as wide as the font's own advance at
    /// that line height (so words read as words, not one letter per square), and the cells of
    /// a frame's map area ([`Frame::map_area`]) square, `height × height`, as tiles are. The
    /// height is at least [`Layout::MIN_CELL`]'s.
    #[must_use]
    pub fn text_and_map(height: u16) -> Self {
        Self::text_and_map_cells(height, height)
    }

    /// [`Layout::text_and_map`] with map cells `map_w` pixels wide (at most the height, at
    /// least [`Layout::MIN_CELL`]'s width): for a level too wide for square cells.
    #[must_use]
    pub fn text_and_map_cells(height: u16, map_w: u16) -> Self {
        let h = height.max(Self::MIN_CELL.1);
        let text = Layout::noto_cells(Self::text_width(h), h);
        Layout {
            map_w: map_w.clamp(Self::MIN_CELL.0, h),
            ..text
        }
    }

    /// The width of a text cell in [`Layout::text_and_map`] with rows `height` pixels tall:
    /// Noto's advance at that line height, rounded up, and at least [`Layout::MIN_CELL`]'s
    /// width (the advance of the smallest pre-rasterised size, 7 pixels at 16).
    #[must_use]
    pub fn text_width(height: u16) -> u16 {
        let w = (usize::from(height) * NOTO_32_WIDTH).div_ceil(NOTO_32_HEIGHT);
        u16::try_from(w).unwrap_or(u16::MAX).max(Self::MIN_CELL.0)
    }

    /// The largest [`Layout::text_and_map`] that shows a `grid` of cells whole in a
    /// `width × height` window, where the frame's map area is `map` cells (`None`: every
    /// cell is text): the level first, in square cells, then the panel and the messages
    /// beside and above it as text. Rows are one height: `grid.1` rows fill at most the
    /// window's height, and a map row's text cells plus its map cells at most its width.
    /// A level too wide for square cells at that height gets narrower ones, down to two
    /// thirds of the height (still one tile a cell). `None` when even [`Layout::MIN_CELL`]'s
    /// height does not fit, or for the bitmap fonts (their cells are fixed).
    #[must_use]
    pub fn fit_level(
        font: Font,
        width: usize,
        height: usize,
        grid: (u16, u16),
        map: Option<(u16, u16)>,
    ) -> Option<Self> {
        if font != Font::Noto || grid.0 == 0 || grid.1 == 0 {
            return None;
        }
        // The map's rows are among the grid's, all one height: only its width matters.
        let map_cols = map.map_or(0, |(c, _)| c.min(grid.0));
        let tallest = u16::try_from(height / usize::from(grid.1)).unwrap_or(u16::MAX);
        (Self::MIN_CELL.1..=tallest).rev().find_map(|h| {
            let square = Layout::text_and_map(h);
            if square.grid_px(grid.0, grid.1, map_cols).0 <= width {
                return Some(square);
            }
            // Narrower map cells: what the text leaves, shared by the map's columns.
            let text = usize::from(grid.0 - map_cols) * usize::from(Self::text_width(h));
            let map_w = width.checked_sub(text)? / usize::from(map_cols.max(1));
            let map_w = u16::try_from(map_w).ok()?;
            // Under 1.5 times as tall as wide: one tile a cell still.
            (map_cols > 0 && 2 * u32::from(h) < 3 * u32::from(map_w) && map_w >= Self::MIN_CELL.0)
                .then(|| Layout::text_and_map_cells(h, map_w))
        })
    }

    /// A free Noto layout made square enough for one-cell tiles (height under 1.5 times the
    /// width: [`alembic_ui::TileSupport::Single`]) by lowering the cell; other layouts as
    /// they are.
    #[must_use]
    pub fn squarer(self) -> Self {
        let (w, h) = self.cell;
        let max_h = (3 * w).saturating_sub(1) / 2;
        if self.font != Font::Noto || Layout::new(Font::Noto, self.step) == self || h <= max_h {
            return self;
        }
        Layout::noto_cells(w, max_h)
    }

    /// The smallest free Noto cell, `(width, height)` in pixels: below it letters stop
    /// being legible.
    pub const MIN_CELL: (u16, u16) = (7, 12);

    /// The largest cells in which a `want_cols × want_rows` grid (at least 80×24) fits a
    /// `width × height` window: for Noto, free cells (so a level shows
    /// whole, like Brogue CE) at most ¾ as wide as tall; for the bitmap fonts, the largest integer scale. When even
    /// [`Layout::MIN_CELL`] cannot show the wanted grid, the largest preset size that shows
    /// 80×24 ([`Layout::fit`]): the view then follows the hero.
    #[must_use]
    pub fn fit_grid(
        font: Font,
        width: usize,
        height: usize,
        want_cols: u16,
        want_rows: u16,
    ) -> Self {
        let (cols, rows) = (want_cols.max(80), want_rows.max(24));
        if font != Font::Noto {
            return Layout::fit(font, width, height, cols, rows);
        }
        let fit = |px: usize, n: u16| u16::try_from(px / usize::from(n)).unwrap_or(u16::MAX);
        let (cw, ch) = (fit(width, cols), fit(height, rows));
        // At most three quarters as wide as tall (letters stay letters, as in Brogue CE's
        // cells), and no taller than 2.5 times as wide.
        let cw = cw.min(ch.saturating_mul(3) / 4);
        let ch = ch.min(cw.saturating_mul(5) / 2);
        if cw < Self::MIN_CELL.0 || ch < Self::MIN_CELL.1 {
            return Layout::fit(font, width, height, 80, 24);
        }
        Layout::noto_cells(cw, ch)
    }

    /// A bitmap-font layout at integer `scale` (clamped to [`BITMAP_SCALES`]).
    #[must_use]
    pub fn scaled(font: Font, scale: u8) -> Self {
        Layout::new(font, scale.max(1) - 1)
    }

    /// How many sizes `font` offers.
    #[must_use]
    pub fn steps(font: Font) -> u8 {
        match font {
            Font::Noto => NOTO_STEPS.len() as u8,
            Font::Bitmap8x8 | Font::Bitmap8x16 => *BITMAP_SCALES.end(),
        }
    }

    /// The largest size of `font` whose grid in a `width × height` window has at least
    /// `min_cols × min_rows` cells; the smallest size when none does.
    #[must_use]
    pub fn fit(font: Font, width: usize, height: usize, min_cols: u16, min_rows: u16) -> Self {
        (0..Self::steps(font))
            .rev()
            .map(|step| Layout::new(font, step))
            .find(|l| {
                let (c, r) = l.grid_for_window(width, height);
                c >= min_cols && r >= min_rows
            })
            .unwrap_or_else(|| Layout::new(font, 0))
    }

    /// The font.
    #[must_use]
    pub fn font(&self) -> Font {
        self.font
    }

    /// The size step (0 = smallest).
    #[must_use]
    pub fn step(&self) -> u8 {
        self.step
    }

    /// One cell's size in pixels.
    #[must_use]
    pub fn cell_px(&self) -> (usize, usize) {
        (usize::from(self.cell.0), usize::from(self.cell.1))
    }

    /// One cell of a frame's map area ([`Frame::map_area`]) in pixels: square in
    /// [`Layout::text_and_map`], else the same as [`Layout::cell_px`].
    #[must_use]
    pub fn map_cell_px(&self) -> (usize, usize) {
        (usize::from(self.map_w), usize::from(self.cell.1))
    }

    /// Whether map cells and text cells differ ([`Layout::text_and_map`]).
    #[must_use]
    pub fn splits_map(&self) -> bool {
        self.map_w != self.cell.0
    }

    /// Pixel size of a `cols × rows` grid whose map area is `map_cols` wide (0: no map):
    /// its widest row.
    #[must_use]
    pub fn grid_px(&self, cols: u16, rows: u16, map_cols: u16) -> (usize, usize) {
        let map_cols = usize::from(map_cols.min(cols));
        let (tw, ch) = self.cell_px();
        let text = (usize::from(cols) - map_cols) * tw;
        (
            text + map_cols * usize::from(self.map_w),
            usize::from(rows) * ch,
        )
    }

    /// The height glyphs are drawn at, in pixels (the cell's height for the presets).
    #[must_use]
    pub fn glyph_px(&self) -> usize {
        usize::from(self.glyph)
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

/// Where a drawn frame landed in the buffer: for mapping the mouse back to cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Buffer width in pixels.
    pub width: usize,
    /// Buffer height in pixels.
    pub height: usize,
    /// Pixel of the top-left corner of cell (0, 0).
    pub origin: (usize, usize),
    /// Cell size in pixels.
    pub cell: (usize, usize),
    /// Grid size in cells.
    pub grid: (u16, u16),
    /// The frame's map area ([`Frame::map_area`]) when its cells are wider than the text's
    /// ([`Layout::text_and_map`]), else `None`.
    pub map: Option<Rect>,
    /// The width of a map cell in pixels (when `map` is set).
    pub map_cell_w: usize,
}

impl Placement {
    /// The cell under pixel (`x`, `y`), if it is on the grid.
    #[must_use]
    pub fn cell_at(&self, x: f32, y: f32) -> Option<(u16, u16)> {
        if !(x.is_finite() && y.is_finite()) || x < 0.0 || y < 0.0 {
            return None;
        }
        let (px, py) = (x as usize, y as usize);
        let rx = px.checked_sub(self.origin.0)?;
        let cy = py.checked_sub(self.origin.1)? / self.cell.1.max(1);
        let cy = u16::try_from(cy).ok()?;
        let tw = self.cell.0.max(1);
        let cx = match self
            .map
            .filter(|m| (m.y..m.y.saturating_add(m.height)).contains(&cy))
        {
            // A map row: text cells, then the wider map cells, then text cells again.
            Some(m) => {
                let before = usize::from(m.x) * tw;
                let inside = usize::from(m.width) * self.map_cell_w.max(1);
                if rx < before {
                    rx / tw
                } else if rx < before + inside {
                    usize::from(m.x) + (rx - before) / self.map_cell_w.max(1)
                } else {
                    usize::from(m.x) + usize::from(m.width) + (rx - before - inside) / tw
                }
            }
            None => rx / tw,
        };
        let cx = u16::try_from(cx).ok()?;
        (cx < self.grid.0 && cy < self.grid.1).then_some((cx, cy))
    }
}

/// Draws frames: holds the layout and the coverage masks made so far (one per character).
#[derive(Clone, Debug, Default)]
pub struct Rasterizer {
    layout: Layout,
    /// By character, and whether it is drawn in a map cell (of [`Layout::map_cell_px`]).
    masks: HashMap<(char, bool), Mask>,
}

/// A coverage mask and, per row, whether it is all background or all foreground (drawn as
/// a plain fill, the common case for blank rows and box lines).
#[derive(Clone, Debug)]
struct Mask {
    data: Box<[u8]>,
    rows: Box<[RowKind]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowKind {
    Background,
    Foreground,
    Mixed,
}

impl Mask {
    fn new(data: Vec<u8>, w: usize) -> Self {
        let rows = data
            .chunks_exact(w.max(1))
            .map(|r| {
                if r.iter().all(|a| *a == 0) {
                    RowKind::Background
                } else if r.iter().all(|a| *a == 255) {
                    RowKind::Foreground
                } else {
                    RowKind::Mixed
                }
            })
            .collect();
        Mask {
            data: data.into_boxed_slice(),
            rows,
        }
    }
}

impl Rasterizer {
    /// A rasteriser for `layout`.
    #[must_use]
    pub fn new(layout: Layout) -> Self {
        Rasterizer {
            layout,
            masks: HashMap::new(),
        }
    }

    /// The layout in use.
    #[must_use]
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Switch layout (the masks are remade as needed).
    pub fn set_layout(&mut self, layout: Layout) {
        if layout != self.layout {
            self.layout = layout;
            self.masks.clear();
        }
    }

    /// The coverage mask of `ch` at the current cell size (`w × h` bytes).
    pub fn mask(&mut self, ch: char) -> &[u8] {
        &self.cached(ch, false).data
    }

    /// The coverage mask of `ch` in a map cell ([`Layout::map_cell_px`]).
    pub fn map_mask(&mut self, ch: char) -> &[u8] {
        let map = self.layout.splits_map();
        &self.cached(ch, map).data
    }

    /// The mask of `ch` in a text cell or (`map`) a map cell, made on first use.
    fn cached(&mut self, ch: char, map: bool) -> &Mask {
        let layout = self.layout;
        let w = if map {
            layout.map_cell_px().0
        } else {
            layout.cell_px().0
        };
        self.masks
            .entry((ch, map))
            .or_insert_with(|| Mask::new(make_mask(layout, ch, w), w))
    }

    /// Draw `frame` into `buf`, resized to `window` pixels (or to the frame's own size when
    /// `None`), with the grid centred and the margins black. With a [`Layout::text_and_map`]
    /// the frame's map area ([`Frame::map_area`]) is drawn in square cells and every other
    /// cell as text, narrower; a row shorter than the widest ends in its last cell's
    /// background. Never panics.
    pub fn render(
        &mut self,
        frame: &Frame,
        buf: &mut Vec<u32>,
        window: Option<(usize, usize)>,
    ) -> Placement {
        let cell = self.layout.cell_px();
        let map_w = self.layout.map_cell_px().0;
        let map = frame.map_area().filter(|_| self.layout.splits_map());
        let grid = (frame.width(), frame.height());
        let (gw, gh) = self
            .layout
            .grid_px(grid.0, grid.1, map.map_or(0, |m| m.width));
        let (width, height) = window.map_or((gw, gh), |(w, h)| (w.max(gw), h.max(gh)));
        let origin = ((width - gw) / 2, (height - gh) / 2);
        let placement = Placement {
            width,
            height,
            origin,
            cell,
            grid,
            map,
            map_cell_w: map_w,
        };
        let cols = usize::from(grid.0);
        if buf.len() == width * height && cols > 0 && gh > 0 {
            // Same size as last time: the grid overwrites every pixel of its own, so only the
            // margins are cleared (a full clear costs as much as a plain fill of the buffer).
            clear_margins(buf, width, origin, (gw, gh));
        } else {
            buf.clear();
            buf.resize(width * height, 0);
        }
        if cols == 0 || gh == 0 {
            return placement;
        }
        let (tw, ch) = cell;
        let mut spans = Vec::with_capacity(cols);
        let mut gaps = Vec::new();
        for (cy, cells) in frame.cells().chunks_exact(cols).enumerate() {
            let top = origin.1 + cy * ch;
            let row_map = map.filter(|m| (m.y..m.y + m.height).contains(&(cy as u16)));
            let row_w = lay_out_row(
                frame,
                cy as u16,
                row_map,
                (tw, map_w),
                &mut spans,
                &mut gaps,
            );
            for &(cx, x, w, on_map) in &spans {
                let c = &cells[usize::from(cx)];
                let mask = self.cached(c.ch, on_map);
                let (fg, bg) = (pack(c.fg), pack(c.bg));
                let left = origin.0 + x;
                for (y, (row, kind)) in mask.data.chunks_exact(w).zip(&mask.rows).enumerate() {
                    let start = (top + y) * width + left;
                    let out = &mut buf[start..start + w];
                    match kind {
                        RowKind::Background => out.fill(bg),
                        RowKind::Foreground => out.fill(fg),
                        RowKind::Mixed => {
                            for (px, a) in out.iter_mut().zip(row) {
                                *px = blend(bg, fg, *a);
                            }
                        }
                    }
                }
            }
            // A row without map cells is narrower than the grid: its last background on.
            if row_w < gw {
                let bg = cells.last().map_or(0, |c| pack(c.bg));
                gaps.push((row_w, gw - row_w, bg));
            }
            for &(x, w, bg) in &gaps {
                for y in top..top + ch {
                    let start = y * width + origin.0 + x;
                    buf[start..start + w].fill(bg);
                }
            }
        }
        placement
    }
}

/// Where the cells of row `cy` go, in pixels from the grid's left edge: `spans` gets
/// `(column, x, width, drawn as a map cell)` for each cell, `gaps` the stretches `(x, width,
/// background)` no cell covers; returns the row's width. Outside `map` (the frame's map
/// area, when this row crosses it) every cell is text, `text_w` wide. Inside it a cell that
/// still shows the map is `map_w` wide; a run of cells written over the map (a dialog box,
/// the hover line) keeps the run's place on the map but is drawn as text: at the map's left
/// edge it is flush left, at its right edge flush right (so a box that goes on into the
/// panel stays whole), elsewhere centred, and the rest of its place is a gap in the
/// background of its end cell.
fn lay_out_row(
    frame: &Frame,
    cy: u16,
    map: Option<Rect>,
    (text_w, map_w): (usize, usize),
    spans: &mut Vec<(u16, usize, usize, bool)>,
    gaps: &mut Vec<(usize, usize, u32)>,
) -> usize {
    spans.clear();
    gaps.clear();
    let cols = frame.width();
    let bg = |cx: u16| frame.get(cx, cy).map_or(0, |c| pack(c.bg));
    let mut x = 0;
    let mut cx = 0;
    while cx < cols {
        let Some(m) = map.filter(|m| m.x == cx) else {
            spans.push((cx, x, text_w, false));
            x += text_w;
            cx += 1;
            continue;
        };
        let end = m.x + m.width;
        while cx < end {
            if frame.shows_map(cx, cy) {
                spans.push((cx, x, map_w, true));
                x += map_w;
                cx += 1;
                continue;
            }
            let first = cx;
            while cx < end && !frame.shows_map(cx, cy) {
                cx += 1;
            }
            let n = usize::from(cx - first);
            let (place, text) = (n * map_w, n * text_w);
            let spare = place.saturating_sub(text);
            let lead = match (first == m.x, cx == end) {
                (false, true) => spare,
                (false, false) => spare / 2,
                (true, _) => 0,
            };
            if lead > 0 {
                gaps.push((x, lead, bg(first)));
            }
            for (k, c) in (first..cx).enumerate() {
                spans.push((c, x + lead + k * text_w, text_w, false));
            }
            if spare > lead {
                gaps.push((x + lead + text, spare - lead, bg(cx - 1)));
            }
            x += place;
        }
    }
    x
}

/// Paint black everything of the `width`-wide `buf` outside the `grid_px` rectangle at
/// `origin`.
fn clear_margins(buf: &mut [u32], width: usize, origin: (usize, usize), grid_px: (usize, usize)) {
    let (gw, gh) = grid_px;
    let (top, bottom) = (origin.1 * width, (origin.1 + gh) * width);
    let bottom = bottom.min(buf.len());
    buf[..top].fill(0);
    buf[bottom..].fill(0);
    for row in buf[top..bottom].chunks_exact_mut(width) {
        row[..origin.0].fill(0);
        row[origin.0 + gw..].fill(0);
    }
}

/// `bg` with `fg` over it at coverage `a` (0–255), per channel. Branch-free (red and blue
/// blended together in one multiply), so the per-pixel loop vectorises; exact at 0 and 255.
#[inline]
fn blend(bg: u32, fg: u32, a: u8) -> u32 {
    // 0..=255 onto 0..=256, so 255 gives exactly `fg`.
    let a = u32::from(a) + u32::from(a >> 7);
    let ia = 256 - a;
    let rb = (((bg & 0x00FF_00FF) * ia + (fg & 0x00FF_00FF) * a) >> 8) & 0x00FF_00FF;
    let g = (((bg & 0x0000_FF00) * ia + (fg & 0x0000_FF00) * a) >> 8) & 0x0000_FF00;
    rb | g
}

/// Draw `frame` at `layout` into `buf` (resized to the frame), returning `(width, height)`.
/// A one-off convenience; a window keeps a [`Rasterizer`] so masks are made once.
pub fn render_frame(frame: &Frame, layout: Layout, buf: &mut Vec<u32>) -> (usize, usize) {
    let p = Rasterizer::new(layout).render(frame, buf, None);
    (p.width, p.height)
}

/// The coverage mask of `ch` in one cell of `layout`, `w` pixels wide (a text or a map cell).
fn make_mask(layout: Layout, ch: char, w: usize) -> Vec<u8> {
    let h = layout.cell_px().1;
    if let Some((tile, span)) = Tile::decode(ch) {
        // A two-cell tile is drawn whole on a double-width canvas; each cell takes its half.
        let canvas = if span == TileSpan::Whole { w } else { 2 * w };
        let whole = tiles::mask(tile, canvas, h, &|c| shape_mask(layout, c, w));
        let skip = if span == TileSpan::Right { w } else { 0 };
        return whole
            .chunks_exact(canvas.max(1))
            .flat_map(|row| row[skip..skip + w].iter().copied())
            .collect();
    }
    shape_mask(layout, ch, w)
}

/// The mask of a character as text: geometry for box and block characters (Noto), else the
/// font.
fn shape_mask(layout: Layout, ch: char, w: usize) -> Vec<u8> {
    let h = layout.cell_px().1;
    // Box lines as geometry in every font with leading, so they still join.
    if layout.font != Font::Bitmap8x16
        && let Some(m) = geometry::mask(ch, w, h)
    {
        return m;
    }
    letter_mask(layout, ch, w)
}

/// The mask of a character from the font (no tiles, no geometry).
fn letter_mask(layout: Layout, ch: char, w: usize) -> Vec<u8> {
    let h = layout.cell_px().1;
    let step = usize::from(layout.step);
    match layout.font {
        Font::Noto => {
            let (height, scale) = NOTO_STEPS[step];
            if ch == ' ' {
                return vec![0; w * h];
            }
            if Layout::new(Font::Noto, layout.step) != layout {
                if let Some(m) = resampled_letter(ch, w, h, layout.glyph_px()) {
                    return m;
                }
            } else if let Some(r) = get_raster(ch, FontWeight::Regular, height) {
                let mut m = vec![0u8; w * h];
                for (y, row) in m.chunks_exact_mut(w).enumerate() {
                    for (x, p) in row.iter_mut().enumerate() {
                        *p = r.pixel(x / scale, y / scale).unwrap_or(0);
                    }
                }
                return m;
            }
            // Not in Noto: the 8×8 bitmap (or the replacement box), scaled to the cell width
            // and centred.
            let g = glyph(ch).unwrap_or(REPLACEMENT);
            let s = (w / 8).max(1);
            bitmap_mask(
                g,
                w,
                h,
                s,
                s * 2,
                (w - (8 * s).min(w)) / 2,
                (h - (16 * s).min(h)) / 2,
            )
        }
        Font::Bitmap8x8 | Font::Bitmap8x16 => {
            let g = glyph(ch).unwrap_or(REPLACEMENT);
            let s = step + 1;
            if layout.font == Font::Bitmap8x16 {
                bitmap_mask(g, w, h, s, s * 2, 0, 0)
            } else {
                bitmap_mask(g, w, h, s, s, 0, s)
            }
        }
    }
}

/// `ch` from Noto at glyph height `g`, resampled (box filter) from the smallest
/// pre-rasterised size at least as tall (or the largest), centred in a `w × h` cell. `None`
/// when Noto lacks the character.
fn resampled_letter(ch: char, w: usize, h: usize, g: usize) -> Option<Vec<u8>> {
    let sizes = [
        RasterHeight::Size16,
        RasterHeight::Size20,
        RasterHeight::Size24,
        RasterHeight::Size32,
    ];
    let source = sizes
        .into_iter()
        .find(|s| *s as usize >= g)
        .unwrap_or(RasterHeight::Size32);
    let r = get_raster(ch, FontWeight::Regular, source)?;
    let (sw, sh) = (
        get_raster_width(FontWeight::Regular, source),
        source as usize,
    );
    let g = g.clamp(1, h.max(1));
    let gw = ((sw * g + sh / 2) / sh).clamp(1, w.max(1));
    let mut glyph = resample(r.pixels(), sw, sh, gw, g);
    // Averaging leaves thin strokes short of full coverage: stretch the glyph's strongest
    // pixel back to 255, so letters keep their full colour at every size.
    let peak = glyph.iter().copied().max().unwrap_or(0);
    if (1..255).contains(&peak) {
        for a in &mut glyph {
            *a = (u16::from(*a) * 255 / u16::from(peak)) as u8;
        }
    }
    let mut m = vec![0u8; w * h];
    let (ox, oy) = ((w - gw) / 2, (h - g) / 2);
    for (y, row) in glyph.chunks_exact(gw).enumerate() {
        let start = (oy + y) * w + ox;
        m[start..start + gw].copy_from_slice(row);
    }
    Some(m)
}

/// For each of `dst` cells along an axis of `src` source pixels: the source pixels it
/// covers and by how much (a box filter; the weights of one cell sum to 1).
fn box_weights(src: usize, dst: usize) -> Vec<Vec<(usize, f32)>> {
    let scale = src as f32 / dst as f32;
    (0..dst)
        .map(|i| {
            let (a, b) = (i as f32 * scale, (i + 1) as f32 * scale);
            let first = a.floor() as usize;
            let last = (b.ceil() as usize).min(src);
            (first..last)
                .filter_map(|j| {
                    let overlap = b.min(j as f32 + 1.0) - a.max(j as f32);
                    (overlap > 0.0).then_some((j, overlap / (b - a)))
                })
                .collect()
        })
        .collect()
}

/// A `sw × sh` coverage mask resampled to `dw × dh` with a box filter (down or up).
fn resample(src: &[u8], sw: usize, sh: usize, dw: usize, dh: usize) -> Vec<u8> {
    let (xs, ys) = (box_weights(sw, dw), box_weights(sh, dh));
    let mut rows = vec![0f32; sh * dw];
    for (y, row) in rows.chunks_exact_mut(dw).enumerate() {
        for (out, weights) in row.iter_mut().zip(&xs) {
            *out = weights
                .iter()
                .map(|&(x, wt)| f32::from(src.get(y * sw + x).copied().unwrap_or(0)) * wt)
                .sum();
        }
    }
    let mut out = vec![0u8; dw * dh];
    for (y, weights) in ys.iter().enumerate() {
        for x in 0..dw {
            let v: f32 = weights.iter().map(|&(sy, wt)| rows[sy * dw + x] * wt).sum();
            // A little gamma keeps thin strokes as strong as the font's own sizes after
            // averaging.
            let v = 255.0 * (v / 255.0).clamp(0.0, 1.0).powf(0.8);
            out[y * dw + x] = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// An 8×8 glyph as a `w × h` mask, each glyph pixel `sx × sy` pixels, from offset (`ox`, `oy`).
fn bitmap_mask(
    g: Glyph,
    w: usize,
    h: usize,
    sx: usize,
    sy: usize,
    ox: usize,
    oy: usize,
) -> Vec<u8> {
    let mut m = vec![0u8; w * h];
    for (gy, bits) in g.iter().enumerate() {
        for gx in 0..8 {
            if bits >> gx & 1 == 0 {
                continue;
            }
            for y in oy + gy * sy..(oy + (gy + 1) * sy).min(h) {
                for x in ox + gx * sx..(ox + (gx + 1) * sx).min(w) {
                    m[y * w + x] = 255;
                }
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic_ui::Cell;

    const FG: Rgb = Rgb::new(255, 200, 40);
    const BG: Rgb = Rgb::new(10, 20, 30);

    fn cell(ch: char) -> Cell {
        Cell { ch, fg: FG, bg: BG }
    }

    /// The pixel at (x, y) of cell (cx, cy).
    fn px(buf: &[u32], p: &Placement, cx: usize, cy: usize, x: usize, y: usize) -> u32 {
        let (ox, oy) = p.origin;
        buf[(oy + cy * p.cell.1 + y) * p.width + ox + cx * p.cell.0 + x]
    }

    #[test]
    fn buffer_size_is_cells_times_cell_size() {
        for font in [Font::Noto, Font::Bitmap8x8, Font::Bitmap8x16] {
            for step in 0..Layout::steps(font) {
                let layout = Layout::new(font, step);
                let frame = Frame::new(7, 3);
                let mut buf = Vec::new();
                let (w, h) = render_frame(&frame, layout, &mut buf);
                let (cw, ch) = layout.cell_px();
                assert_eq!((w, h), (7 * cw, 3 * ch));
                assert_eq!(buf.len(), w * h);
            }
        }
        assert_eq!(Layout::scaled(Font::Bitmap8x8, 2).cell_px(), (16, 20));
        assert_eq!(Layout::scaled(Font::Bitmap8x16, 3).cell_px(), (24, 48));
    }

    #[test]
    fn bitmap_glyph_pixels_are_fg_and_the_rest_bg_at_every_scale() {
        for font in [Font::Bitmap8x8, Font::Bitmap8x16] {
            for scale in BITMAP_SCALES {
                let layout = Layout::scaled(font, scale);
                let mut frame = Frame::new(3, 2);
                frame.clear(cell(' '));
                frame.put(1, 1, cell('@'));
                let mut buf = Vec::new();
                let p = Rasterizer::new(layout).render(&frame, &mut buf, None);
                let at = glyph('@').expect("@ has a glyph");
                let s = usize::from(scale);
                let rows = if font == Font::Bitmap8x16 { 2 } else { 1 };
                // 8×8 glyphs sit below a row of leading.
                let lead = if font == Font::Bitmap8x16 { 0 } else { s };
                for (gy, bits) in at.iter().enumerate() {
                    for gx in 0..8 {
                        let want = if bits >> gx & 1 == 1 {
                            pack(FG)
                        } else {
                            pack(BG)
                        };
                        assert_eq!(px(&buf, &p, 1, 1, gx * s, lead + gy * s * rows), want);
                    }
                }
                assert!(buf.iter().all(|&p| p == pack(FG) || p == pack(BG)));
            }
        }
    }

    #[test]
    fn noto_glyphs_are_anti_aliased_and_blended() {
        let layout = Layout::new(Font::Noto, 3);
        let mut frame = Frame::new(1, 1);
        frame.put(0, 0, cell('@'));
        let mut buf = Vec::new();
        render_frame(&frame, layout, &mut buf);
        let fg = buf.iter().filter(|p| **p == pack(FG)).count();
        let bg = buf.iter().filter(|p| **p == pack(BG)).count();
        let between = buf.len() - fg - bg;
        assert!(fg > 10 && bg > 10 && between > 10, "{fg} {bg} {between}");
        // A blended pixel lies between the two colours on every channel.
        for p in &buf {
            let r = (p >> 16) & 0xFF;
            assert!((10..=255).contains(&r));
        }
    }

    #[test]
    fn empty_cells_are_all_background() {
        for font in [Font::Noto, Font::Bitmap8x8] {
            let mut frame = Frame::new(4, 4);
            frame.clear(cell(' '));
            let mut buf = Vec::new();
            render_frame(&frame, Layout::new(font, 1), &mut buf);
            assert!(buf.iter().all(|&p| p == pack(BG)));
        }
    }

    #[test]
    fn unknown_chars_draw_a_visible_replacement() {
        for font in [Font::Noto, Font::Bitmap8x8] {
            let mut frame = Frame::new(3, 1);
            frame.clear(cell(' '));
            frame.put(0, 0, cell('\u{1F600}'));
            frame.put(1, 0, cell('\u{7}'));
            frame.put(2, 0, cell('漢'));
            let mut buf = Vec::new();
            let p = Rasterizer::new(Layout::new(font, 0)).render(&frame, &mut buf, None);
            for cx in 0..3 {
                let lit = (0..p.cell.1)
                    .flat_map(|y| (0..p.cell.0).map(move |x| (x, y)))
                    .filter(|(x, y)| px(&buf, &p, cx, 0, *x, *y) == pack(FG))
                    .count();
                assert!(lit > 4, "{font:?} cell {cx}");
            }
        }
    }

    #[test]
    fn the_grid_is_centred_in_a_larger_window_and_the_mouse_maps_back() {
        let layout = Layout::scaled(Font::Bitmap8x8, 1);
        let mut frame = Frame::new(2, 2);
        frame.clear(cell('#'));
        let mut buf = Vec::new();
        let p = Rasterizer::new(layout).render(&frame, &mut buf, Some((100, 50)));
        assert_eq!((p.width, p.height), (100, 50));
        assert_eq!(p.origin, (42, 15));
        assert_eq!(buf[0], 0, "margins are black");
        assert_eq!(p.cell_at(42.0, 15.0), Some((0, 0)));
        assert_eq!(p.cell_at(57.9, 34.9), Some((1, 1)));
        assert_eq!(p.cell_at(58.0, 20.0), None);
        assert_eq!(p.cell_at(10.0, 10.0), None);
        assert_eq!(p.cell_at(f32::NAN, 1.0), None);
        assert_eq!(p.cell_at(-1.0, 20.0), None);
    }

    #[test]
    fn a_reused_buffer_keeps_black_margins_and_no_stale_pixels() {
        let layout = Layout::scaled(Font::Bitmap8x8, 1);
        let mut r = Rasterizer::new(layout);
        let mut buf = Vec::new();
        let mut big = Frame::new(12, 6);
        big.clear(cell('#'));
        r.render(&big, &mut buf, Some((100, 50)));
        // A smaller grid in the same window: its margins were the big grid's pixels.
        let mut small = Frame::new(3, 2);
        small.clear(cell('@'));
        let p = r.render(&small, &mut buf, Some((100, 50)));
        let mut fresh = Vec::new();
        let q = Rasterizer::new(layout).render(&small, &mut fresh, Some((100, 50)));
        assert_eq!(p, q);
        assert_eq!(buf, fresh);
        assert_eq!(buf[0], 0);
        assert_eq!(buf[buf.len() - 1], 0);
    }

    #[test]
    fn fit_picks_the_largest_size_with_80_by_24_cells() {
        for (w, h) in [(800, 600), (1280, 800), (1920, 1080), (3840, 2160)] {
            let l = Layout::fit(Font::Noto, w, h, 80, 24);
            let (c, r) = l.grid_for_window(w, h);
            assert!(c >= 80 && r >= 24, "{w}x{h}: {c}x{r}");
            if l.step() + 1 < Layout::steps(Font::Noto) {
                let bigger = Layout::new(Font::Noto, l.step() + 1);
                let (c, r) = bigger.grid_for_window(w, h);
                assert!(c < 80 || r < 24, "{w}x{h}: a bigger size fits");
            }
        }
        assert_eq!(Layout::fit(Font::Noto, 100, 100, 80, 24).step(), 0);
        assert_eq!(
            Layout::fit(Font::Bitmap8x8, 1280, 800, 80, 24).cell_px(),
            (16, 20)
        );
    }

    #[test]
    fn fit_grid_shows_a_whole_level_in_the_largest_cells() {
        // Alchemy's whole level: 71 + 24 columns, 51 + 3 rows.
        for (w, h) in [(1280, 800), (1920, 1080), (3840, 2160), (1024, 768)] {
            let l = Layout::fit_grid(Font::Noto, w, h, 95, 54);
            let (cw, ch) = l.cell_px();
            let (c, r) = l.grid_for_window(w, h);
            assert!(c >= 95 && r >= 54, "{w}x{h}: {c}x{r} cells of {cw}x{ch}");
            assert!(4 * cw <= 3 * ch, "{w}x{h}: {cw}x{ch} is wider than 3:4");
            // One pixel more each way no longer shows the whole grid.
            let bigger = Layout::noto_cells(cw as u16 + 1, ch as u16 + 1);
            let (bc, br) = bigger.grid_for_window(w, h);
            assert!(bc < 95 || br < 54, "{w}x{h}: {cw}x{ch} is not the largest");
            // Letters fit their cells.
            assert!(l.glyph_px() <= ch && l.glyph_px() * 14 / 32 <= cw);
        }
        let l = Layout::fit_grid(Font::Noto, 1280, 800, 95, 54);
        assert_eq!(l.cell_px(), (10, 14));
        // Too small a window for the level: the presets that show 80×24, and the map scrolls.
        let small = Layout::fit_grid(Font::Noto, 800, 500, 95, 54);
        assert_eq!(small, Layout::fit(Font::Noto, 800, 500, 80, 24));
        // Squared for one-cell tiles.
        let sq = Layout::noto_cells(10, 30).squarer();
        assert_eq!(sq.cell_px(), (10, 14));
    }

    #[test]
    fn the_map_area_is_drawn_square_and_the_rest_as_narrower_text() {
        let layout = Layout::text_and_map(20);
        assert_eq!(layout.map_cell_px(), (20, 20));
        assert_eq!(layout.cell_px(), (9, 20), "Noto's advance at 20 px");
        // Three text columns, a 4 × 2 map, two text columns; a message row above.
        let mut frame = Frame::new(9, 3);
        frame.clear(cell(' '));
        frame.put_str(0, 0, "abcdefghi", FG, BG);
        frame.set_map_area(alembic_ui::Rect::new(3, 1, 4, 2));
        frame.put_map(3, 1, cell('#'));
        frame.put(8, 2, cell('x'));
        let mut buf = Vec::new();
        let p = Rasterizer::new(layout).render(&frame, &mut buf, Some((200, 80)));
        let grid_w = 5 * 9 + 4 * 20;
        assert_eq!(p.origin, ((200 - grid_w) / 2, (80 - 60) / 2));
        assert_eq!(p.map, Some(alembic_ui::Rect::new(3, 1, 4, 2)));
        // The mouse maps back through the narrow and the wide cells.
        let (ox, oy) = (p.origin.0 as f32, p.origin.1 as f32);
        assert_eq!(p.cell_at(ox + 1.0, oy + 1.0), Some((0, 0)));
        assert_eq!(p.cell_at(ox + 8.0 * 9.0 + 1.0, oy + 1.0), Some((8, 0)));
        assert_eq!(p.cell_at(ox + 27.0, oy + 21.0), Some((3, 1)));
        assert_eq!(p.cell_at(ox + 27.0 + 79.0, oy + 41.0), Some((6, 2)));
        assert_eq!(p.cell_at(ox + 27.0 + 80.0, oy + 41.0), Some((7, 2)));
        assert_eq!(p.cell_at(ox + 27.0 + 80.0 + 10.0, oy + 41.0), Some((8, 2)));
        assert_eq!(p.cell_at(ox + grid_w as f32, oy + 41.0), None);
        // The message row is text all along: it ends before the map rows' edge, and the rest
        // of the row is its last cell's background.
        let lit = |x0: usize, x1: usize, y0: usize, y1: usize| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| buf[(p.origin.1 + y) * p.width + p.origin.0 + x] != pack(BG))
                .count()
        };
        assert!(
            lit(9 * 8, 9 * 9, 0, 20) > 3,
            "the 9th letter 'i' is at 8 × 9 px"
        );
        assert_eq!(lit(9 * 9, grid_w, 0, 20), 0);
        assert_eq!(
            buf[(p.origin.1 + 5) * p.width + p.origin.0 + grid_w - 1],
            pack(BG)
        );
        // The map cell '#' fills a square: lit right of where a text cell would end.
        assert!(lit(27 + 10, 27 + 20, 20, 40) > 0);
        // The 'x' after the map is in the last text column.
        assert!(lit(27 + 80 + 9, 27 + 80 + 18, 40, 60) > 3);

        // Text written over the map (a dialog) is drawn as text in the map's place: flush
        // right at the map's right edge, so it joins what follows in the panel...
        frame.put_str(5, 2, "yz", FG, BG);
        let mut buf2 = Vec::new();
        let q = Rasterizer::new(layout).render(&frame, &mut buf2, Some((200, 80)));
        assert_eq!(q, p, "the cells keep their places");
        let lit2 = |x0: usize, x1: usize, y0: usize, y1: usize| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| buf2[(q.origin.1 + y) * q.width + q.origin.0 + x] != pack(BG))
                .count()
        };
        // Columns 5 and 6 take 40 px from x = 67; the two letters, 18 px, end at 107.
        assert_eq!(lit2(67, 67 + 22, 40, 60), 0, "the spare place is a gap");
        assert!(lit2(67 + 22, 107, 40, 60) > 6, "then 'yz'");
        // ...and centred in the middle of the map.
        frame.put_str(4, 1, "w", FG, BG);
        let mut buf3 = Vec::new();
        let r = Rasterizer::new(layout).render(&frame, &mut buf3, Some((200, 80)));
        let lit3 = |x0: usize, x1: usize| {
            (20..40)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| buf3[(r.origin.1 + y) * r.width + r.origin.0 + x] != pack(BG))
                .count()
        };
        // Column 4 is 20 px from x = 47: the 9 px letter from 47 + 5.
        assert_eq!(lit3(47, 52), 0);
        assert!(lit3(52, 61) > 3);
        assert_eq!(lit3(62, 67), 0);
    }

    #[test]
    fn resampled_letters_are_anti_aliased_and_centred() {
        let layout = Layout::noto_cells(10, 14);
        let mut r = Rasterizer::new(layout);
        let m = r.mask('@').to_vec();
        assert_eq!(m.len(), 10 * 14);
        assert!(
            m.iter().any(|a| *a > 150) && m.iter().filter(|a| (1..150).contains(*a)).count() > 3
        );
        // The glyph is centred: the outer columns are empty.
        for y in 0..14 {
            assert_eq!(m[y * 10], 0);
            assert_eq!(m[y * 10 + 9], 0);
        }
        assert!(r.mask(' ').iter().all(|a| *a == 0));
    }

    #[test]
    fn tiles_and_box_lines_use_their_own_masks() {
        let layout = Layout::new(Font::Noto, 3);
        let mut r = Rasterizer::new(layout);
        let wall = r.mask(Tile::Wall.to_char()).to_vec();
        let hash = r.mask('#').to_vec();
        assert_ne!(wall, hash);
        // The halves of a two-cell tile are the two halves of one picture.
        let [left, right] = Tile::Hero.to_pair();
        let (l, rr) = (r.mask(left).to_vec(), r.mask(right).to_vec());
        assert_ne!(l, rr);
        assert!(l.iter().any(|v| *v > 0) && rr.iter().any(|v| *v > 0));
        let (cw, ch) = layout.cell_px();
        let whole = tiles::mask(Tile::Hero, 2 * cw, ch, &|_| Vec::new());
        assert_eq!(&whole[..cw], &l[..cw]);
        assert_eq!(&whole[cw..2 * cw], &rr[..cw]);
        let (w, h) = layout.cell_px();
        let line = r.mask('─').to_vec();
        assert_eq!(line[(h / 2) * w], 255, "the line reaches the left edge");
        assert_eq!(line[(h / 2) * w + w - 1], 255, "and the right edge");
    }

    #[test]
    fn blend_is_exact_at_the_ends_and_between() {
        assert_eq!(blend(0x000000, 0xFFFFFF, 0), 0);
        assert_eq!(blend(0x000000, 0xFFFFFF, 255), 0xFFFFFF);
        assert_eq!(blend(0x000000, 0xFFFFFF, 128), 0x808080);
        assert_eq!(blend(0x102030, 0x102030, 77), 0x102030);
    }

    #[test]
    fn pack_is_0rgb() {
        assert_eq!(pack(Rgb::new(0x12, 0x34, 0x56)), 0x0012_3456);
    }
}
