//! The map view every game can draw with: what the eye sees now (field of view) drawn
//! bright, what it saw before (a memory layer of the game) drawn dim, the rest blank, and
//! the view scrolled to keep the eye in sight when the level is larger than the screen.
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
use alembic_ui::{Cell, Frame, Rect};

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

    /// The level cell shown at the top left of `area`: the level centred when it fits, else
    /// following the eye and clamped to the level's edges.
    #[must_use]
    pub fn origin(&self, area: Rect) -> Loc {
        let axis = |view: u16, lo: i32, hi: i32, eye: i32| {
            let (view, size) = (i32::from(view), hi - lo);
            if size <= view {
                lo - (view - size) / 2
            } else {
                (eye - view / 2).clamp(lo, hi - view)
            }
        };
        let (min, max) = (self.level.min, self.level.max);
        Loc::new(
            axis(area.width, min.x, max.x, self.eye.x),
            axis(area.height, min.y, max.y, self.eye.y),
            min.z,
        )
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
        let o = self.origin(area);
        for row in 0..area.height {
            for col in 0..area.width {
                let l = Loc::new(o.x + i32::from(col), o.y + i32::from(row), o.z);
                if !self.level.contains(l) {
                    continue;
                }
                let lit = sees.contains(l);
                if !lit && !game.layer_get(self.seen, l) {
                    continue;
                }
                if let Some((ch, fg)) = look(l, lit) {
                    let cell = Cell::blank(fg, Rgb::BLACK);
                    frame.put(
                        i32::from(area.x + col),
                        i32::from(area.y + row),
                        Cell { ch, ..cell },
                    );
                }
            }
        }
    }
}
