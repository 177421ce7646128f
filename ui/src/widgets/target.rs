//! A targeting cursor over a map: pick a place to throw at, travel to or look at.
//!
//! [`TargetState`] is the cursor the caller keeps (where it is, the level it may roam, the
//! interesting places to cycle through, and an optional line from the thrower);
//! [`TargetState::handle`] moves it by roguelike keys and says what happened
//! ([`CursorEvent`]); [`TargetCursor`] highlights the cursor and the line on a map the
//! caller has drawn. What a pick means, and what to say about the place under the cursor,
//! stay the game's.

use alembic::{Dir, Loc, LocBox};

use super::StatefulWidget;
use crate::Rgb;
use crate::draw::Rect;
use crate::frame::{Cell, Frame};
use crate::input::{Input, Key, direction_key, plain_key};

/// How far the capital vi keys (`HJKLYUBN`) move the cursor.
pub const CURSOR_JUMP: i32 = 8;

/// Where a targeting cursor is, kept by the screen that shows it.
///
/// ```
/// use alembic::{Loc, LocBox};
/// use alembic_ui::{CursorEvent, Input, Key, TargetState};
///
/// let hero = Loc::new(5, 5, 0);
/// let rat = Loc::new(8, 5, 0);
/// let mut t = TargetState::new(hero, LocBox::rect(0, 0, 20, 10, 0))
///     .with_marks(vec![rat])
///     .with_line_from(hero);
/// assert_eq!(t.handle(&Input::key(Key::Tab)), CursorEvent::Moved);
/// assert_eq!(t.cursor(), rat);
/// assert_eq!(t.line(), [Loc::new(6, 5, 0), Loc::new(7, 5, 0), rat]);
/// t.handle(&Input::ch('L')); // jumps 8 east, clamped to the level
/// assert_eq!(t.cursor(), Loc::new(16, 5, 0));
/// assert_eq!(t.handle(&Input::key(Key::Enter)), CursorEvent::Picked(Loc::new(16, 5, 0)));
/// assert_eq!(t.handle(&Input::ch('t')), CursorEvent::Other(Key::Char('t')));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetState {
    cursor: Loc,
    bounds: LocBox,
    marks: Vec<Loc>,
    mark: usize,
    origin: Option<Loc>,
}

/// What a key did to a [`TargetState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CursorEvent {
    /// The cursor moved (or stayed at the edge of its bounds).
    Moved,
    /// Enter, `.` or `5`: the player chose the place under the cursor.
    Picked(Loc),
    /// Esc: the player backed out.
    Cancelled,
    /// A key to cycle through the marks was pressed, but there are none.
    NoMarks,
    /// Any other plain key, for the game to give a meaning (`t` to throw, `<` to jump to
    /// stairs).
    Other(Key),
    /// Not a key (the mouse, a resize).
    Ignored,
}

impl TargetState {
    /// A cursor at `start`, kept inside `bounds` on `start`'s level.
    #[must_use]
    pub fn new(start: Loc, bounds: LocBox) -> Self {
        let mut s = TargetState {
            cursor: start,
            bounds,
            marks: Vec::new(),
            mark: 0,
            origin: None,
        };
        s.set_cursor(start);
        s
    }

    /// Places Tab (and `+`, `=`) cycles through in order and `-` backwards, such as the
    /// monsters in view, nearest first. If the cursor is on one, cycling continues from it.
    #[must_use]
    pub fn with_marks(mut self, marks: Vec<Loc>) -> Self {
        self.mark = marks.iter().position(|&l| l == self.cursor).unwrap_or(0);
        self.marks = marks;
        self
    }

    /// Draw and report the straight line from `origin` (a thrower) to the cursor.
    #[must_use]
    pub fn with_line_from(mut self, origin: Loc) -> Self {
        self.origin = Some(origin);
        self
    }

    /// Where the cursor is.
    #[must_use]
    pub fn cursor(&self) -> Loc {
        self.cursor
    }

    /// The places to cycle through.
    #[must_use]
    pub fn marks(&self) -> &[Loc] {
        &self.marks
    }

    /// Put the cursor at `l`, clamped inside the bounds, on the cursor's level.
    pub fn set_cursor(&mut self, l: Loc) {
        let b = self.bounds;
        let clamp = |v: i32, lo: i32, hi: i32| if hi <= lo { lo } else { v.clamp(lo, hi - 1) };
        self.cursor = Loc::new(
            clamp(l.x, b.min.x, b.max.x),
            clamp(l.y, b.min.y, b.max.y),
            self.cursor.z,
        );
    }

    /// The cells of the line from the origin to the cursor, the origin left out and the
    /// cursor last; empty without an origin or with the cursor on it.
    #[must_use]
    pub fn line(&self) -> Vec<Loc> {
        match self.origin {
            Some(o) if o != self.cursor => o.line_to(self.cursor).into_iter().skip(1).collect(),
            _ => Vec::new(),
        }
    }

    /// Move the cursor by a key: a direction key steps one cell, the capital vi keys jump
    /// [`CURSOR_JUMP`], Tab, `+` and `=` go to the next mark and `-` to the previous one.
    pub fn handle(&mut self, input: &Input) -> CursorEvent {
        if let Some(d) = direction_key(input) {
            self.set_cursor(self.cursor + d);
            return CursorEvent::Moved;
        }
        let Some(key) = plain_key(input) else {
            return CursorEvent::Ignored;
        };
        if let Key::Char(c @ ('H' | 'J' | 'K' | 'L' | 'Y' | 'U' | 'B' | 'N')) = key
            && let Some(d) = direction_key(&Input::ch(c.to_ascii_lowercase()))
        {
            self.jump(d);
            return CursorEvent::Moved;
        }
        match key {
            Key::Esc => CursorEvent::Cancelled,
            Key::Enter | Key::Char('.' | '5') | Key::Keypad(5) => CursorEvent::Picked(self.cursor),
            Key::Tab | Key::Char('+' | '=' | '-') => {
                if self.marks.is_empty() {
                    return CursorEvent::NoMarks;
                }
                let n = self.marks.len();
                let on_mark = self.marks.get(self.mark) == Some(&self.cursor);
                self.mark = match key {
                    Key::Char('-') => (self.mark + n - 1) % n,
                    _ if !on_mark => self.mark % n,
                    _ => (self.mark + 1) % n,
                };
                if let Some(&l) = self.marks.get(self.mark) {
                    self.set_cursor(l);
                }
                CursorEvent::Moved
            }
            other => CursorEvent::Other(other),
        }
    }

    fn jump(&mut self, d: Dir) {
        let o = d.offset();
        let c = self.cursor;
        self.set_cursor(Loc::new(
            c.x.saturating_add(CURSOR_JUMP * o.x),
            c.y.saturating_add(CURSOR_JUMP * o.y),
            c.z,
        ));
    }
}

/// Highlights a [`TargetState`] on a map already drawn in the frame: the line from the origin
/// (up to `stop`, then in `beyond_bg`), and the cursor cell in black on `cursor_bg` (an `X`
/// where the cell is blank). Cells outside the area are left alone.
pub struct TargetCursor<'a> {
    /// The frame cell showing a map location (its leftmost, for wide cells), if shown.
    pub to_screen: &'a dyn Fn(Loc) -> Option<(i32, i32)>,
    /// How many frame cells one map cell spans (2 for double-width tiles).
    pub cell_width: u16,
    /// Where the line stops short (a wall in the way); the rest is drawn in `beyond_bg`.
    pub stop: Option<Loc>,
    /// The cursor's background.
    pub cursor_bg: Rgb,
    /// The line's background up to `stop`.
    pub line_bg: Rgb,
    /// The line's background past `stop`.
    pub beyond_bg: Rgb,
}

impl TargetCursor<'_> {
    fn paint(&self, frame: &mut Frame, area: Rect, l: Loc, f: impl Fn(Cell) -> Cell) {
        let Some((x, y)) = (self.to_screen)(l) else {
            return;
        };
        for dx in 0..i32::from(self.cell_width.max(1)) {
            let (cx, cy) = (x + dx, y);
            let inside = u16::try_from(cx)
                .ok()
                .zip(u16::try_from(cy).ok())
                .is_some_and(|(cx, cy)| area.contains(cx, cy));
            if let (true, Some(&c)) = (inside, frame.get(cx, cy)) {
                frame.put(cx, cy, f(c));
            }
        }
    }
}

impl StatefulWidget for TargetCursor<'_> {
    type State = TargetState;

    fn render(self, frame: &mut Frame, area: Rect, state: &mut TargetState) {
        let cursor = state.cursor();
        let mut beyond = false;
        for l in state.line() {
            if l == cursor {
                continue;
            }
            let bg = if beyond { self.beyond_bg } else { self.line_bg };
            if Some(l) == self.stop {
                beyond = true;
            }
            self.paint(frame, area, l, |c| Cell { bg, ..c });
        }
        let bg = self.cursor_bg;
        self.paint(frame, area, cursor, |c| Cell {
            ch: if c.ch == ' ' { 'X' } else { c.ch },
            fg: Rgb::BLACK,
            bg,
        });
    }
}
