//! The message log: [`MessageLog`] draws the newest messages at the bottom of an area, older
//! ones faded ([`fade_for_age`]); [`MessageLogScreen`] is the full-screen, scrollable view.

use std::convert::Infallible;

use super::{ScrollState, StatefulWidget};
use crate::draw::{Palette, Rect, draw_box, put_centred, put_clipped};
use crate::frame::Frame;
use crate::input::Input;
use crate::screen::{Screen, Transition};

/// The fraction of full brightness for a log line `age` lines older than the newest:
/// 1.0 for the newest, falling to 0.45 ten lines back and staying there.
#[must_use]
pub fn fade_for_age(age: usize) -> f32 {
    let a = age.min(10) as f32 / 10.0;
    1.0 - 0.55 * a
}

/// Draw the messages that end `scroll` lines before the newest into `area`, newest at the
/// bottom, each faded by its age ([`fade_for_age`]). A message longer than the area wraps
/// onto further rows (`wrap_text`); `scroll` counts those rows.
/// Stateless; [`MessageLog`] is the same with a [`ScrollState`].
pub fn draw_message_log(
    frame: &mut Frame,
    area: Rect,
    palette: &Palette,
    messages: &[String],
    scroll: usize,
) {
    let rows = usize::from(area.height);
    let lines = wrapped_rows(messages, usize::from(area.width));
    let end = lines.len().saturating_sub(scroll);
    let start = end.saturating_sub(rows);
    let shown = &lines[start..end];
    // Bottom-align: the newest shown line sits on the last row.
    let first_row = area.y + (rows - shown.len()) as u16;
    for (i, (text, age)) in shown.iter().enumerate() {
        let fg = palette.text.scale(fade_for_age(*age));
        put_clipped(
            frame,
            area,
            area.x,
            first_row + i as u16,
            text,
            fg,
            palette.bg,
        );
    }
}

/// The rows `messages` take in an area `width` cells wide, oldest first: each row's text and
/// the age of its message (0 = the newest).
#[must_use]
pub fn wrapped_rows(messages: &[String], width: usize) -> Vec<(String, usize)> {
    let mut out = Vec::with_capacity(messages.len());
    for (i, msg) in messages.iter().enumerate() {
        let age = messages.len() - 1 - i;
        let lines = crate::draw::wrap_text(msg, width);
        if lines.is_empty() {
            out.push((String::new(), age));
        }
        out.extend(lines.into_iter().map(|l| (l, age)));
    }
    out
}

/// A log of messages (oldest first) drawn bottom-up into an area, scrolled back by a
/// [`ScrollState::from_bottom`], which it tells how many rows fit (long messages wrap).
#[derive(Clone, Copy, Debug)]
pub struct MessageLog<'a> {
    /// The messages, oldest first.
    pub messages: &'a [String],
    /// The colours.
    pub palette: &'a Palette,
}

impl StatefulWidget for MessageLog<'_> {
    type State = ScrollState;

    fn render(self, frame: &mut Frame, area: Rect, state: &mut ScrollState) {
        let rows = wrapped_rows(self.messages, usize::from(area.width)).len();
        state.set_view(rows, usize::from(area.height));
        let back = state.max_offset() - state.first_line();
        draw_message_log(frame, area, self.palette, self.messages, back);
    }
}

/// A full-screen scrollable view of a message log (a snapshot taken when pushed): newest at the
/// bottom, older lines faded; j/k, arrows, PageUp/PageDown, Home/End scroll; Esc, Enter or `q`
/// pops (output `()`).
#[derive(Clone, Debug)]
pub struct MessageLogScreen {
    title: String,
    messages: Vec<String>,
    scroll: ScrollState,
    palette: Palette,
}

impl MessageLogScreen {
    /// A view of `messages` (oldest first).
    pub fn new(title: impl Into<String>, messages: Vec<String>) -> Self {
        MessageLogScreen {
            title: title.into(),
            messages,
            scroll: ScrollState::from_bottom(),
            palette: Palette::DEFAULT,
        }
    }

    /// How many lines the view is scrolled back from the newest.
    #[must_use]
    pub fn scrolled_back(&self) -> usize {
        self.scroll.offset()
    }
}

impl<C: 'static> Screen<C> for MessageLogScreen {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, _ctx: &C, frame: &mut Frame, area: Rect) {
        let p = &self.palette;
        let inside = draw_box(frame, area, p, Some(&self.title));
        if inside.is_empty() {
            return;
        }
        let (body, footer) = inside.split_bottom(1);
        let body = Rect::new(
            body.x + 1,
            body.y,
            body.width.saturating_sub(2),
            body.height,
        );
        if self.messages.is_empty() {
            put_centred(frame, body, body.y, "(no messages yet)", p.dim, p.bg);
        }
        let log = MessageLog {
            messages: &self.messages,
            palette: p,
        };
        log.render(frame, body, &mut self.scroll);
        let n = self.messages.len();
        let noun = if n == 1 { "message" } else { "messages" };
        let hint = format!("{n} {noun}  k/j older/newer  Esc close");
        put_centred(frame, footer, footer.y, &hint, p.dim, p.bg);
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C, Self> {
        if self.scroll.handle_pager_input(&input) {
            Transition::Pop(())
        } else {
            Transition::Stay
        }
    }

    fn name(&self) -> &str {
        "message-log"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_wraps_and_loses_nothing() {
        let long = "The goblin warrior hits you with a rusty scimitar and you feel your strength ebb away.";
        let messages = vec!["Short.".to_owned(), long.to_owned()];
        let mut frame = Frame::new(30, 6);
        let area = Rect::new(0, 0, 30, 6);
        draw_message_log(&mut frame, area, &Palette::DEFAULT, &messages, 0);
        let text = frame.to_text();
        let shown: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(shown.first(), Some(&"Short."), "{text}");
        let joined = shown[1..].join(" ");
        assert_eq!(joined, long, "{text}");
        assert!(shown.len() >= 4, "{text}");
        // Every row of the long message has its age (0) and the short one is older.
        let rows = wrapped_rows(&messages, 30);
        assert_eq!(rows[0], ("Short.".to_owned(), 1));
        assert!(rows[1..].iter().all(|(_, age)| *age == 0));
    }
}
