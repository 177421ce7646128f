//! The map view every game draws with.
//!
//! - [`Viewport`]: where a level's cells land in a frame and back (for the mouse, the
//!   hover line, cursors): the whole level centred when it fits, else scrolled to keep a
//!   focus in sight, each cell one or two frame cells wide (tiles). Every game's map uses
//!   it: Alchemy's, the Caves', the rats'.
//! - [`MapView`]: a whole drawing for games that want one: what the eye sees now (field of
//!   view) drawn bright, what it saw before (a memory layer of the game) drawn dim, the
//!   rest blank.
//!
//! ```
//! use alembic::{Game, Loc, LocBox, Rgb, layer::Layer};
//! use alembic_session::mapview::{MapView, remember};
//! use alembic_ui::{Frame, Rect};
//!
//! const SEEN: Layer<bool> = Layer::new("seen");
//! let mut g = Game::new(1);
//! let level = LocBox::rect(0, 0, 20, 10, 0);
//! let eye = Loc::new(5, 5, 0);
//! remember(&mut g, &SEEN, eye, 4, |_| true);
//! let view = MapView { level, eye, radius: 4, seen: &SEEN };
//! let mut frame = Frame::new(20, 10);
//! view.draw(&g, &mut frame, Rect::new(0, 0, 20, 10), |_, lit| Some(('.', if lit { Rgb::WHITE } else { Rgb::new(90, 90, 90) })), |_| true);
//! assert!(frame.contains_text("."));
//! ```

use alembic::{Game, Loc, LocBox, Rgb, fov::field_of_view, layer::Layer};
use alembic_ui::{Cell, Frame, Rect, Tile, TileSupport};

/// How a [`Viewport`] follows its focus on a level larger than the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scroll {
    /// The focus in the middle, as DCSS keeps the player; past the level's edge is blank.
    Centred,
    /// The focus in sight, the view kept inside the level (no blank margin at its edges).
    Clamped,
}

/// How a level's cells land in a frame: see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// The frame cells the map takes.
    pub rect: Rect,
    /// The level cell in the viewport's top-left cell.
    pub origin: Loc,
    /// The level shown.
    pub level: LocBox,
    /// Frame cells per map cell across: 1, or 2 for tiles two cells wide.
    pub cell_w: u16,
}

/// The first column or row shown along one axis: the whole level centred when it fits,
/// else as `scroll` says.
fn axis_origin(min: i32, len: i32, focus: i32, view: i32, scroll: Scroll) -> i32 {
    // Saturating: a hostile save can put the focus at the edge of i32.
    if view >= len {
        return min.saturating_sub(view.saturating_sub(len) / 2);
    }
    let centred = focus.saturating_sub(view / 2);
    match scroll {
        Scroll::Centred => centred,
        Scroll::Clamped => centred.clamp(min, min.saturating_add(len - view)),
    }
}

impl Viewport {
    /// The viewport of `rect` on `level` following `focus` as `scroll` says, each map cell
    /// `cell_w` frame cells wide (at least 1).
    #[must_use]
    pub fn new(rect: Rect, level: LocBox, focus: Loc, cell_w: u16, scroll: Scroll) -> Self {
        let cell_w = cell_w.max(1);
        let cols = i32::from(rect.width / cell_w);
        let ox = axis_origin(level.min.x, level.width(), focus.x, cols, scroll);
        let oy = axis_origin(
            level.min.y,
            level.height(),
            focus.y,
            i32::from(rect.height),
            scroll,
        );
        Viewport {
            rect,
            origin: Loc::new(ox, oy, level.min.z),
            level,
            cell_w,
        }
    }

    /// [`Viewport::new`] with the focus in the middle ([`Scroll::Centred`]).
    #[must_use]
    pub fn centred(rect: Rect, level: LocBox, focus: Loc, cell_w: u16) -> Self {
        Viewport::new(rect, level, focus, cell_w, Scroll::Centred)
    }

    /// The (leftmost) frame cell showing `l`, if it is in view.
    #[must_use]
    pub fn screen_of(&self, l: Loc) -> Option<(i32, i32)> {
        if l.z != self.origin.z {
            return None;
        }
        let sx = i64::from(l.x) - i64::from(self.origin.x);
        let sy = i64::from(l.y) - i64::from(self.origin.y);
        let cols = i64::from(self.rect.width / self.cell_w);
        if sx < 0 || sy < 0 || sx >= cols || sy >= i64::from(self.rect.height) {
            return None;
        }
        // In range: both fit a u16 frame.
        Some((
            i32::from(self.rect.x) + sx as i32 * i32::from(self.cell_w),
            i32::from(self.rect.y) + sy as i32,
        ))
    }

    /// Whether `l` is shown.
    #[must_use]
    pub fn shows(&self, l: Loc) -> bool {
        self.screen_of(l).is_some()
    }

    /// Change every frame cell showing `l` with `f` (highlights, cursors).
    pub fn paint(&self, frame: &mut Frame, l: Loc, f: impl Fn(Cell) -> Cell) {
        if let Some((x, y)) = self.screen_of(l) {
            for dx in 0..i32::from(self.cell_w) {
                if let Some(&c) = frame.get(x + dx, y) {
                    // Still a map cell (a window keeps drawing it as one).
                    frame.put_map(x + dx, y, f(c));
                }
            }
        }
    }

    /// The level cell shown at frame cell (`x`, `y`), if that cell is on the map and in the
    /// level.
    #[must_use]
    pub fn loc_at(&self, x: u16, y: u16) -> Option<Loc> {
        if !self.rect.contains(x, y) {
            return None;
        }
        let l = Loc::new(
            self.origin
                .x
                .saturating_add(i32::from((x - self.rect.x) / self.cell_w)),
            self.origin.y.saturating_add(i32::from(y - self.rect.y)),
            self.origin.z,
        );
        (self.level.contains(l) && self.shows(l)).then_some(l)
    }

    /// Draw every shown cell of the level: `look(l)` says what `l` shows (`None`: nothing,
    /// as for a cell never seen) and the tile to show on a frontend with `tiles` (`None`:
    /// its letter). A tile two cells wide takes both frame cells; a cell without a picture
    /// keeps its letter, centred on the pair. The viewport's rectangle becomes the frame's
    /// map area ([`Frame::set_map_area`]: a window draws it in square cells, the rest as
    /// text).
    ///
    /// # Errors
    /// The first error `look` gives (the drawing stops there).
    pub fn draw_cells<E>(
        &self,
        frame: &mut Frame,
        tiles: TileSupport,
        mut look: impl FnMut(Loc) -> Result<Option<(Cell, Option<Tile>)>, E>,
    ) -> Result<(), E> {
        frame.set_map_area(self.rect);
        for (l, (x, y)) in self.cells() {
            let Some((cell, tile)) = look(l)? else {
                continue;
            };
            match tiles {
                TileSupport::None => frame.put_map(x, y, cell),
                TileSupport::Single => {
                    let ch = tile.map_or(cell.ch, Tile::to_char);
                    frame.put_map(x, y, Cell { ch, ..cell });
                }
                TileSupport::Double => {
                    let tile = tile.unwrap_or(Tile::Glyph(cell.ch));
                    for (dx, ch) in (0u16..).zip(tile.to_pair()) {
                        frame.put_map(x.saturating_add(dx), y, Cell { ch, ..cell });
                    }
                }
            }
        }
        Ok(())
    }

    /// Every shown cell of the level, with the frame cell (leftmost) showing it.
    pub fn cells(&self) -> impl Iterator<Item = (Loc, (u16, u16))> + '_ {
        let cols = self.rect.width / self.cell_w;
        (0..self.rect.height).flat_map(move |row| {
            (0..cols).filter_map(move |col| {
                let l = Loc::new(
                    self.origin.x.saturating_add(i32::from(col)),
                    self.origin.y.saturating_add(i32::from(row)),
                    self.origin.z,
                );
                self.level
                    .contains(l)
                    .then_some((l, (self.rect.x + col * self.cell_w, self.rect.y + row)))
            })
        })
    }
}

/// Mark every cell `eye` sees within `radius` as seen in the `seen` layer of `game`.
pub fn remember(
    game: &mut Game,
    seen: &Layer<bool>,
    eye: Loc,
    radius: u32,
    transparent: impl Fn(Loc) -> bool,
) {
    for l in field_of_view(eye, radius, transparent).iter() {
        game.set_layer_mut(seen, l, true);
    }
}

/// One level's view around an eye.
#[derive(Clone, Copy, Debug)]
pub struct MapView<'a> {
    /// The level's cells (its `min.z` is the level).
    pub level: LocBox,
    /// Where the player looks from.
    pub eye: Loc,
    /// How far the eye sees.
    pub radius: u32,
    /// The game's memory of cells seen.
    pub seen: &'a Layer<bool>,
}

impl<'a> MapView<'a> {
    /// The view of `level` from `eye`, seeing `radius` cells, remembering in `seen`.
    #[must_use]
    pub fn new(level: LocBox, eye: Loc, radius: u32, seen: &'a Layer<bool>) -> Self {
        MapView {
            level,
            eye,
            radius,
            seen,
        }
    }

    /// Where the level lands in `area`: the level centred when it fits, else following the
    /// eye and clamped to the level's edges ([`Scroll::Clamped`]).
    #[must_use]
    pub fn viewport(&self, area: Rect) -> Viewport {
        Viewport::new(area, self.level, self.eye, 1, Scroll::Clamped)
    }

    /// The level cell shown at the top left of `area` (see [`MapView::viewport`]).
    #[must_use]
    pub fn origin(&self, area: Rect) -> Loc {
        self.viewport(area).origin
    }

    /// Draw into `area`: `look(cell, lit)` says what a cell shows (`lit`: seen now; else it
    /// is only remembered), never called for a cell never seen; `transparent` is what the
    /// eye sees through.
    pub fn draw(
        &self,
        game: &Game,
        frame: &mut Frame,
        area: Rect,
        look: impl Fn(Loc, bool) -> Option<(char, Rgb)>,
        transparent: impl Fn(Loc) -> bool,
    ) {
        let sees = field_of_view(self.eye, self.radius, transparent);
        let drawn = self
            .viewport(area)
            .draw_cells(frame, TileSupport::None, |l| {
                let lit = sees.contains(l);
                if !lit && !game.layers().at(self.seen, l) {
                    return Ok::<_, std::convert::Infallible>(None);
                }
                Ok(look(l, lit).map(|(ch, fg)| {
                    (
                        Cell {
                            ch,
                            ..Cell::blank(fg, Rgb::BLACK)
                        },
                        None,
                    )
                }))
            });
        let Ok(()) = drawn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_level_is_centred_and_a_large_one_follows_its_focus() {
        let small = LocBox::rect(0, 0, 10, 4, 0);
        let v = Viewport::centred(Rect::new(0, 0, 20, 8), small, Loc::new(1, 1, 0), 1);
        assert_eq!(v.origin, Loc::new(-5, -2, 0));
        let big = LocBox::rect(0, 0, 100, 50, 2);
        let focus = Loc::new(2, 48, 2);
        let centred = Viewport::new(Rect::new(0, 0, 20, 10), big, focus, 1, Scroll::Centred);
        assert_eq!(centred.origin, Loc::new(-8, 43, 2));
        let clamped = Viewport::new(Rect::new(0, 0, 20, 10), big, focus, 1, Scroll::Clamped);
        assert_eq!(clamped.origin, Loc::new(0, 40, 2));
        assert!(centred.shows(focus) && clamped.shows(focus));
    }

    #[test]
    fn drawing_the_map_marks_its_cells_as_the_frames_map_area() {
        let level = LocBox::rect(0, 0, 10, 4, 0);
        let v = Viewport::centred(Rect::new(0, 3, 12, 6), level, Loc::new(1, 1, 0), 1);
        let mut frame = Frame::new(20, 9);
        assert_eq!(frame.map_area(), None);
        let drawn = v.draw_cells(&mut frame, TileSupport::None, |_| {
            Ok::<_, std::convert::Infallible>(None)
        });
        assert!(drawn.is_ok());
        assert_eq!(frame.map_area(), Some(Rect::new(0, 3, 12, 6)));
    }

    #[test]
    fn frame_cells_and_level_cells_map_both_ways() {
        let level = LocBox::rect(0, 0, 40, 30, 1);
        for cell_w in [1, 2] {
            let v = Viewport::centred(Rect::new(3, 2, 30, 12), level, Loc::new(20, 15, 1), cell_w);
            let mut n = 0;
            for (l, (x, y)) in v.cells() {
                assert_eq!(v.screen_of(l), Some((i32::from(x), i32::from(y))));
                assert_eq!(v.loc_at(x, y), Some(l));
                n += 1;
            }
            assert_eq!(n, usize::from(30 / cell_w) * 12);
            assert_eq!(v.loc_at(0, 0), None, "outside the map's rectangle");
            assert_eq!(v.screen_of(Loc::new(20, 15, 0)), None, "another level");
        }
    }
}
