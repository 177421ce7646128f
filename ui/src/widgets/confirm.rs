//! [`Confirm`]: a yes/no question in a box over the screen below.

use std::convert::Infallible;

use crate::draw::{Palette, Rect, draw_box, put_centred, wrap_text};
use crate::frame::Frame;
use crate::input::{Input, Key, plain_key};
use crate::screen::{Screen, Transition};

/// A y/n question in a box over the screen below: pops `true` for `y`/`Y`, `false` for
/// `n`/`N`/Esc. Other keys are ignored.
#[derive(Clone, Debug)]
pub struct Confirm {
    prompt: String,
    palette: Palette,
}

impl Confirm {
    /// Ask `prompt` (shown followed by "(y/n)").
    pub fn new(prompt: impl Into<String>) -> Self {
        Confirm {
            prompt: prompt.into(),
            palette: Palette::DEFAULT,
        }
    }
}

impl<C: 'static> Screen<C> for Confirm {
    type Output = bool;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &C, frame: &mut Frame, area: Rect) {
        let text = format!("{} (y/n)", self.prompt);
        let max_w = usize::from(area.width.saturating_sub(4)).max(1);
        let lines = wrap_text(&text, max_w.min(60));
        let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 4;
        let h = lines.len() + 2;
        let inside = draw_box(frame, area.centred(w as u16, h as u16), &self.palette, None);
        for (i, line) in lines.iter().enumerate() {
            let y = inside.y + i as u16;
            if y < inside.bottom() {
                put_centred(frame, inside, y, line, self.palette.text, self.palette.bg);
            }
        }
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C, Self> {
        match plain_key(&input) {
            Some(Key::Char('y' | 'Y')) => Transition::Pop(true),
            Some(Key::Char('n' | 'N') | Key::Esc) => Transition::Pop(false),
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "confirm"
    }
}
