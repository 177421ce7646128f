//! Below a minimum size: [`MinSize`] wraps an [`App`] and shows an "enlarge" screen
//! ([`draw_too_small`]) instead of it while the frame is too small.

use crate::draw::{Palette, Rect, put_centred, wrap_text};
use crate::frame::{Cell, Frame};
use crate::frontend::{App, Control};
use crate::input::Input;

/// Draw the "too small" screen: the current size and the size needed, centred and wrapped.
pub fn draw_too_small(frame: &mut Frame, min_width: u16, min_height: u16, what: &str) {
    let p = Palette::DEFAULT;
    frame.clear(Cell::blank(p.text, p.bg));
    let area = Rect::of_frame(frame);
    let (w, h) = (frame.width(), frame.height());
    let text =
        format!("Please enlarge the {what}\nto at least {min_width}x{min_height}\n(now {w}x{h})");
    let lines = wrap_text(&text, usize::from(w.max(1)));
    let top = h.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.iter().enumerate() {
        let fg = if i == 0 { p.accent } else { p.text };
        put_centred(frame, area, top + i as u16, line, fg, p.bg);
    }
}

/// An [`App`] wrapper that shows an "enlarge" screen instead of the app while the frame is
/// smaller than a minimum size, and keeps key presses from the app meanwhile (resizes and quit
/// requests still reach it).
#[derive(Debug)]
pub struct MinSize<A> {
    app: A,
    min: (u16, u16),
    what: String,
    last: (u16, u16),
}

impl<A> MinSize<A> {
    /// Wrap `app`, needing at least `min_width × min_height` cells.
    pub fn new(app: A, min_width: u16, min_height: u16) -> Self {
        MinSize {
            app,
            min: (min_width, min_height),
            what: "window".to_string(),
            last: (u16::MAX, u16::MAX),
        }
    }

    /// Name the thing to enlarge ("terminal", "window" — the default).
    #[must_use]
    pub fn with_noun(mut self, what: impl Into<String>) -> Self {
        self.what = what.into();
        self
    }

    /// The wrapped app.
    #[must_use]
    pub fn inner(&self) -> &A {
        &self.app
    }

    /// The wrapped app, mutably.
    pub fn inner_mut(&mut self) -> &mut A {
        &mut self.app
    }

    /// Whether a `width × height` area is below the minimum.
    #[must_use]
    pub fn too_small(&self, width: u16, height: u16) -> bool {
        width < self.min.0 || height < self.min.1
    }
}

impl<A: App> App for MinSize<A> {
    fn render(&mut self, frame: &mut Frame) {
        let (w, h) = (frame.width(), frame.height());
        self.last = (w, h);
        if self.too_small(w, h) {
            draw_too_small(frame, self.min.0, self.min.1, &self.what);
        } else {
            self.app.render(frame);
        }
    }

    fn handle(&mut self, input: Input) -> Control {
        match input {
            Input::Resize { width, height } => {
                self.last = (width, height);
                self.app.handle(input)
            }
            Input::Key { .. } | Input::Mouse { .. } => {
                let (w, h) = self.last;
                if self.too_small(w, h) {
                    Control::Continue
                } else {
                    self.app.handle(input)
                }
            }
            Input::Quit => self.app.handle(input),
        }
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.app.tick_interval()
    }

    fn tick(&mut self) -> Control {
        self.app.tick()
    }

    fn preferred_grid(&self) -> Option<(u16, u16)> {
        self.app.preferred_grid()
    }

    fn farewell(&self) -> Result<Option<String>, crate::FarewellError> {
        self.app.farewell()
    }

    fn title(&self) -> Option<String> {
        self.app.title()
    }

    fn emergency_save(&self) -> Option<crate::EmergencySave> {
        self.app.emergency_save()
    }
}
