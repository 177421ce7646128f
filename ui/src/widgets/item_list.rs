//! Lettered lists: [`draw_item_list`] draws one page (26 entries, lettered `a`–`z` by
//! position or by each entry's own letter) as a box; [`ItemList`] is the screen choosing one
//! entry. The page shown is state the screen keeps and passes in.

use std::convert::Infallible;

use alembic::Rgb;

use crate::draw::{Palette, Rect, draw_box, put_centred, put_clipped};
use crate::frame::Frame;
use crate::input::{Input, Key, plain_key, wheel_key};
use crate::screen::{Screen, Transition};

/// The letter for item `index` on its page: `a`…`z`, repeating every 26.
#[must_use]
pub fn item_letter(index: usize) -> char {
    char::from(b'a' + (index % 26) as u8)
}

/// One line of an [`ItemList`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListEntry {
    /// What is shown after the letter.
    pub text: String,
    /// Its colour.
    pub fg: Rgb,
    /// Its own letter (an inventory letter that stays with an item from list to list);
    /// `None`: lettered by position. A list where any entry has its own letter is chosen by
    /// those letters only (entries without one show `-` and cannot be chosen).
    pub letter: Option<char>,
}

impl ListEntry {
    /// An entry in the default text colour.
    pub fn new(text: impl Into<String>) -> Self {
        ListEntry {
            text: text.into(),
            fg: Palette::DEFAULT.text,
            letter: None,
        }
    }

    /// The same entry with its own letter (see [`ListEntry::letter`]).
    #[must_use]
    pub fn with_letter(mut self, letter: char) -> Self {
        self.letter = Some(letter);
        self
    }

    /// The same entry in another colour.
    #[must_use]
    pub fn with_fg(mut self, fg: Rgb) -> Self {
        self.fg = fg;
        self
    }
}

/// How many pages `len` entries fill (at least one).
#[must_use]
pub fn page_count(len: usize) -> usize {
    len.div_ceil(26).max(1)
}

/// Draw a lettered list (page `page`, 26 entries a page) as a titled box centred in `area`.
pub fn draw_item_list(
    frame: &mut Frame,
    area: Rect,
    palette: &Palette,
    title: &str,
    entries: &[ListEntry],
    page: usize,
) {
    let pages = page_count(entries.len());
    let page = page.min(pages - 1);
    let shown = entries.iter().skip(page * 26).take(26);
    let footer = if pages > 1 {
        format!("page {}/{}  < > turn  Esc cancel", page + 1, pages)
    } else {
        "Esc cancel".to_string()
    };
    let widest = entries
        .iter()
        .map(|e| e.text.chars().count() + 4)
        .chain([title.chars().count() + 4, footer.chars().count()])
        .max()
        .unwrap_or(10);
    let rows = shown.len().max(1);
    let w = (widest + 4).min(usize::from(area.width)) as u16;
    let h = (rows + 4).min(usize::from(area.height)) as u16;
    let inside = draw_box(frame, area.centred(w, h), palette, Some(title));
    if inside.is_empty() {
        return;
    }
    let x = inside.x + 1;
    if entries.is_empty() {
        put_clipped(
            frame,
            inside,
            x,
            inside.y,
            "(nothing)",
            palette.dim,
            palette.bg,
        );
    }
    let own = entries.iter().any(|e| e.letter.is_some());
    // The last inside row holds the footer.
    for (y, (i, e)) in (inside.y..inside.bottom() - 1).zip(shown.enumerate()) {
        let letter = match (own, e.letter) {
            (_, Some(c)) => c,
            (true, None) => '-',
            (false, None) => item_letter(i),
        };
        let letter = format!("{letter}) ");
        put_clipped(frame, inside, x, y, &letter, palette.accent, palette.bg);
        put_clipped(frame, inside, x + 3, y, &e.text, e.fg, palette.bg);
    }
    let fy = inside.bottom() - 1;
    put_centred(frame, inside, fy, &footer, palette.dim, palette.bg);
}

/// A screen choosing one entry of a lettered list: pops `Some(index)` of the entry (across
/// pages), or `None` on Esc.
///
/// Keys: `a`–`z` choose on the current page (or, when the entries have their own letters,
/// each entry's letter chooses it on any page); `>`, Space, PageDown, Right next page; `<`,
/// PageUp, Left previous page.
#[derive(Clone, Debug)]
pub struct ItemList {
    title: String,
    entries: Vec<ListEntry>,
    page: usize,
    palette: Palette,
}

impl ItemList {
    /// A list titled `title`.
    pub fn new(title: impl Into<String>, entries: Vec<ListEntry>) -> Self {
        ItemList {
            title: title.into(),
            entries,
            page: 0,
            palette: Palette::DEFAULT,
        }
    }

    /// Draw with another palette.
    #[must_use]
    pub fn with_palette(mut self, palette: Palette) -> Self {
        self.palette = palette;
        self
    }

    /// The page shown (0-based).
    #[must_use]
    pub fn page(&self) -> usize {
        self.page
    }
}

impl<C: 'static> Screen<C> for ItemList {
    type Output = Option<usize>;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &C, frame: &mut Frame, area: Rect) {
        draw_item_list(
            frame,
            area,
            &self.palette,
            &self.title,
            &self.entries,
            self.page,
        );
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C, Self> {
        if self.entries.is_empty() && plain_key(&input).is_some() {
            return Transition::Pop(None);
        }
        let pages = page_count(self.entries.len());
        // The wheel turns pages.
        let key = plain_key(&input).or_else(|| match wheel_key(&input) {
            Some(Key::Up) => Some(Key::PageUp),
            Some(_) => Some(Key::PageDown),
            None => None,
        });
        match key {
            Some(Key::Esc) => Transition::Pop(None),
            Some(Key::Char('>' | ' ') | Key::PageDown | Key::Right) => {
                self.page = (self.page + 1).min(pages - 1);
                Transition::Stay
            }
            Some(Key::Char('<') | Key::PageUp | Key::Left) => {
                self.page = self.page.saturating_sub(1);
                Transition::Stay
            }
            Some(Key::Char(c)) if self.entries.iter().any(|e| e.letter.is_some()) => {
                match self.entries.iter().position(|e| e.letter == Some(c)) {
                    Some(i) => Transition::Pop(Some(i)),
                    None => Transition::Stay,
                }
            }
            Some(Key::Char(c @ 'a'..='z')) => {
                let i = self.page * 26 + (c as usize - 'a' as usize);
                if i < self.entries.len() {
                    Transition::Pop(Some(i))
                } else {
                    Transition::Stay
                }
            }
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "item-list"
    }
}
