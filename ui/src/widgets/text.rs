//! Pages of text: [`TextView`] (a titled box of wrapped, scrolling lines) and
//! [`TextScreen`], the full-screen page built on it (help, story, summaries).

use std::convert::Infallible;

use super::{ScrollState, StatefulWidget};
use crate::draw::{Palette, Rect, draw_box, put_centred, put_clipped, wrap_text};
use crate::frame::Frame;
use crate::input::Input;
use crate::screen::{Screen, Transition};

/// A titled box of lines, each wrapped to the box, from the state's first line, with a
/// footer saying where the view is. Records the wrapped length and the rows that fit in the
/// [`ScrollState`].
#[derive(Clone, Copy, Debug)]
pub struct TextView<'a> {
    /// The title in the top border.
    pub title: &'a str,
    /// The lines, before wrapping.
    pub lines: &'a [String],
    /// The colours.
    pub palette: &'a Palette,
}

impl StatefulWidget for TextView<'_> {
    type State = ScrollState;

    fn render(self, frame: &mut Frame, area: Rect, state: &mut ScrollState) {
        let p = self.palette;
        let inside = draw_box(frame, area, p, Some(self.title));
        if inside.is_empty() {
            return;
        }
        let (body, footer) = inside.split_bottom(1);
        let width = usize::from(body.width.saturating_sub(2)).max(1);
        let wrapped: Vec<String> = self
            .lines
            .iter()
            .flat_map(|l| wrap_text(l, width))
            .collect();
        let rows = usize::from(body.height);
        state.set_view(wrapped.len(), rows);
        let top = state.first_line();
        for (i, line) in wrapped.iter().skip(top).take(rows).enumerate() {
            put_clipped(
                frame,
                body,
                body.x + 1,
                body.y + i as u16,
                line,
                p.text,
                p.bg,
            );
        }
        let more = if wrapped.len() > rows {
            format!(
                "lines {}-{} of {}  j/k scroll  Esc close",
                top + 1,
                (top + rows).min(wrapped.len()),
                wrapped.len()
            )
        } else {
            "Esc close".to_string()
        };
        put_centred(frame, footer, footer.y, &more, p.dim, p.bg);
    }
}

/// A full-screen page of text (help, story, summaries): title, wrapped lines, scrolling with
/// j/k, arrows, Space, PageUp/PageDown, Home/End; Esc, Enter or `q` pops (output `()`).
#[derive(Clone, Debug)]
pub struct TextScreen {
    title: String,
    lines: Vec<String>,
    scroll: ScrollState,
    palette: Palette,
}

impl TextScreen {
    /// A page titled `title` showing `lines` (each wrapped to the screen width).
    pub fn new(
        title: impl Into<String>,
        lines: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        TextScreen {
            title: title.into(),
            lines: lines.into_iter().map(Into::into).collect(),
            scroll: ScrollState::new(),
            palette: Palette::DEFAULT,
        }
    }

    /// The first wrapped line shown.
    #[must_use]
    pub fn scroll(&self) -> usize {
        self.scroll.first_line()
    }
}

impl<C: 'static> Screen<C> for TextScreen {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, _ctx: &C, frame: &mut Frame, area: Rect) {
        let view = TextView {
            title: &self.title,
            lines: &self.lines,
            palette: &self.palette,
        };
        view.render(frame, area, &mut self.scroll);
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C, Self> {
        if self.scroll.handle_pager_input(&input) {
            Transition::Pop(())
        } else {
            Transition::Stay
        }
    }

    fn name(&self) -> &str {
        "text"
    }
}
