//! [`ScrollState`]: where a scrolling view is, kept by the caller and passed to the widget.

use crate::input::{Input, Key, plain_key, wheel_key};

/// The scroll position of a view over `len` lines of which `page` fit, owned by the screen
/// that shows the view. Drawing the view records `len` and `page`
/// ([`ScrollState::set_view`]), so [`ScrollState::handle_key`] clamps against what was
/// last shown.
///
/// A view anchored at the top ([`ScrollState::new`]: help pages) counts its offset from the
/// first line; one anchored at the bottom ([`ScrollState::from_bottom`]: message logs,
/// newest last) counts it back from the last line, so it stays on the newest lines as long
/// as the player has not scrolled.
///
/// ```
/// use alembic_ui::{Key, ScrollState};
/// let mut s = ScrollState::new();
/// s.set_view(40, 9);
/// assert!(s.handle_key(Key::End));
/// assert_eq!(s.first_line(), 31);
/// assert!(s.handle_key(Key::PageUp));
/// assert_eq!(s.first_line(), 23);
/// assert!(!s.handle_key(Key::Char('x')));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScrollState {
    offset: usize,
    len: usize,
    page: usize,
    from_bottom: bool,
}

impl ScrollState {
    /// A view at its first line.
    #[must_use]
    pub fn new() -> Self {
        ScrollState::default()
    }

    /// A view at its last line, counting back from there.
    #[must_use]
    pub fn from_bottom() -> Self {
        ScrollState {
            from_bottom: true,
            ..ScrollState::default()
        }
    }

    /// Record what the view showed: `len` lines in all, `page` of them at once; the offset is
    /// clamped to fit.
    pub fn set_view(&mut self, len: usize, page: usize) {
        self.len = len;
        self.page = page;
        self.offset = self.offset.min(self.max_offset());
    }

    /// The largest offset: how far the view can scroll.
    #[must_use]
    pub fn max_offset(&self) -> usize {
        self.len.saturating_sub(self.page.max(1))
    }

    /// Lines scrolled from the anchor: from the first line, or back from the last for a view
    /// made with [`ScrollState::from_bottom`].
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The index of the first line shown.
    #[must_use]
    pub fn first_line(&self) -> usize {
        if self.from_bottom {
            self.max_offset() - self.offset.min(self.max_offset())
        } else {
            self.offset.min(self.max_offset())
        }
    }

    /// How many lines fit at once, as last drawn.
    #[must_use]
    pub fn page(&self) -> usize {
        self.page
    }

    /// Scroll by a key, as pagers do: `j`/Down and `k`/Up a line, Space/PageDown and PageUp a
    /// page, `g`/Home and `G`/End to either end. Returns whether the key was a scroll key.
    pub fn handle_key(&mut self, key: Key) -> bool {
        let max = self.max_offset();
        let step = self.page.saturating_sub(1).max(1);
        let pos = self.first_line();
        let to = match key {
            Key::Char('j') | Key::Down => pos + 1,
            Key::Char('k') | Key::Up => pos.saturating_sub(1),
            Key::Char(' ') | Key::PageDown => pos + step,
            Key::PageUp => pos.saturating_sub(step),
            Key::Home | Key::Char('g') => 0,
            Key::End | Key::Char('G') => max,
            _ => return false,
        }
        .min(max);
        self.offset = if self.from_bottom { max - to } else { to };
        true
    }

    /// A pager screen's input: `true` when it closes the pager (Esc, Enter or `q`);
    /// otherwise scroll keys and the wheel scroll, and anything else is ignored.
    pub fn handle_pager_input(&mut self, input: &Input) -> bool {
        match plain_key(input).or_else(|| wheel_key(input)) {
            Some(Key::Esc | Key::Enter | Key::Char('q')) => true,
            Some(k) => {
                self.handle_key(k);
                false
            }
            None => false,
        }
    }
}
