//! Drawing helpers for screens and widgets: [`Rect`] (areas and splitting them), [`Palette`]
//! (the colours the widgets draw with), boxes, centred and clipped text, and [`wrap_text`].
//! Every helper clips to the frame and never panics, however small the area.

use alembic::Rgb;

use crate::frame::{Cell, Frame};

/// A rectangle of cells inside a [`Frame`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Width in cells.
    pub width: u16,
    /// Height in cells.
    pub height: u16,
}

impl Rect {
    /// A rectangle from its corner and size.
    #[must_use]
    pub const fn new(x: u16, y: u16, width: u16, height: u16) -> Self {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    /// The whole of `frame`.
    #[must_use]
    pub fn of_frame(frame: &Frame) -> Self {
        Rect::new(0, 0, frame.width(), frame.height())
    }

    /// One past the rightmost column.
    #[must_use]
    pub const fn right(&self) -> u16 {
        self.x.saturating_add(self.width)
    }

    /// One past the bottom row.
    #[must_use]
    pub const fn bottom(&self) -> u16 {
        self.y.saturating_add(self.height)
    }

    /// Whether the rectangle has no cells.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }

    /// Whether (`x`, `y`) lies inside.
    #[must_use]
    pub const fn contains(&self, x: u16, y: u16) -> bool {
        x >= self.x && y >= self.y && x < self.right() && y < self.bottom()
    }

    /// A `width × height` rectangle centred in this one (shrunk to fit if larger).
    #[must_use]
    pub fn centred(&self, width: u16, height: u16) -> Rect {
        let w = width.min(self.width);
        let h = height.min(self.height);
        Rect::new(
            self.x + (self.width - w) / 2,
            self.y + (self.height - h) / 2,
            w,
            h,
        )
    }

    /// This rectangle shrunk by `margin` cells on every side (empty if too small).
    #[must_use]
    pub fn inner(&self, margin: u16) -> Rect {
        let m2 = margin.saturating_mul(2);
        Rect::new(
            self.x.saturating_add(margin),
            self.y.saturating_add(margin),
            self.width.saturating_sub(m2),
            self.height.saturating_sub(m2),
        )
    }

    /// Split off the top `rows` rows: `(top, rest)`.
    #[must_use]
    pub fn split_top(&self, rows: u16) -> (Rect, Rect) {
        let r = rows.min(self.height);
        (
            Rect::new(self.x, self.y, self.width, r),
            Rect::new(self.x, self.y + r, self.width, self.height - r),
        )
    }

    /// Split off the bottom `rows` rows: `(rest, bottom)`.
    #[must_use]
    pub fn split_bottom(&self, rows: u16) -> (Rect, Rect) {
        let r = rows.min(self.height);
        (
            Rect::new(self.x, self.y, self.width, self.height - r),
            Rect::new(self.x, self.y + self.height - r, self.width, r),
        )
    }
}

/// The colours the widgets draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Palette {
    /// Ordinary text.
    pub text: Rgb,
    /// Secondary text (hints, footers, faded lines).
    pub dim: Rgb,
    /// Titles, letters, highlights.
    pub accent: Rgb,
    /// Box borders.
    pub border: Rgb,
    /// Background of boxes and screens.
    pub bg: Rgb,
}

impl Palette {
    /// Light grey on black with a warm amber accent.
    pub const DEFAULT: Palette = Palette {
        text: Rgb::new(210, 210, 200),
        dim: Rgb::new(120, 120, 115),
        accent: Rgb::new(255, 200, 90),
        border: Rgb::new(150, 130, 90),
        bg: Rgb::new(0, 0, 0),
    };
}

impl Default for Palette {
    fn default() -> Self {
        Palette::DEFAULT
    }
}

/// Fill `area` with `cell`.
pub fn fill(frame: &mut Frame, area: Rect, cell: Cell) {
    for y in area.y..area.bottom() {
        for x in area.x..area.right() {
            frame.put(i32::from(x), i32::from(y), cell);
        }
    }
}

/// Draw a single-line box around `area` (border on its edge), fill the inside with the
/// palette background and put `title`, if any, in the top border. Returns the inside.
pub fn draw_box(frame: &mut Frame, area: Rect, palette: &Palette, title: Option<&str>) -> Rect {
    let blank = Cell::blank(palette.text, palette.bg);
    fill(frame, area, blank);
    if area.width < 2 || area.height < 2 {
        return Rect::new(area.x, area.y, 0, 0);
    }
    let (l, t) = (i32::from(area.x), i32::from(area.y));
    let (r, b) = (i32::from(area.right()) - 1, i32::from(area.bottom()) - 1);
    let border = |ch| Cell {
        ch,
        fg: palette.border,
        bg: palette.bg,
    };
    for x in l + 1..r {
        frame.put(x, t, border('─'));
        frame.put(x, b, border('─'));
    }
    for y in t + 1..b {
        frame.put(l, y, border('│'));
        frame.put(r, y, border('│'));
    }
    frame.put(l, t, border('┌'));
    frame.put(r, t, border('┐'));
    frame.put(l, b, border('└'));
    frame.put(r, b, border('┘'));
    if let Some(title) = title {
        let room = usize::from(area.width.saturating_sub(4));
        let text: String = format!(" {title} ").chars().take(room).collect();
        let len = text.chars().count() as i32;
        let x = l + (i32::from(area.width) - len) / 2;
        frame.put_str(x, t, &text, palette.accent, palette.bg);
    }
    area.inner(1)
}

/// Write `text` centred horizontally in `area` on frame row `y` (clipped to `area`).
/// Returns the column where it starts.
pub fn put_centred(frame: &mut Frame, area: Rect, y: u16, text: &str, fg: Rgb, bg: Rgb) -> u16 {
    let len = text.chars().count();
    let width = usize::from(area.width);
    let shown: String = text.chars().take(width).collect();
    let x = area.x + ((width - len.min(width)) / 2) as u16;
    frame.put_str(i32::from(x), i32::from(y), &shown, fg, bg);
    x
}

/// Write `text` from (`x`, `y`) clipped to the right edge of `area`.
pub fn put_clipped(frame: &mut Frame, area: Rect, x: u16, y: u16, text: &str, fg: Rgb, bg: Rgb) {
    if !area.contains(x, y) {
        return;
    }
    let room = usize::from(area.right() - x);
    let shown: String = text.chars().take(room).collect();
    frame.put_str(i32::from(x), i32::from(y), &shown, fg, bg);
}

/// Break `text` into lines of at most `width` characters at spaces (words longer than the
/// width are cut). Explicit newlines are kept; an empty input line stays an empty line; a line
/// that already fits is kept as is (runs of spaces included).
///
/// A long line keeps its layout: its leading spaces, and a key column (text, then two or more
/// spaces, then a description, as in help screens) stay as they are, and the wrapped part is
/// indented to where the description starts.
///
/// ```
/// use alembic_ui::wrap_text;
/// let help = "  q      quaff (drink) a potion you carry";
/// assert_eq!(
///     wrap_text(help, 28),
///     ["  q      quaff (drink) a", "         potion you carry"]
/// );
/// // The longest gap marks the column: the key itself may hold spaces.
/// let stairs = "  <  >     climb the stairs you stand on";
/// assert_eq!(
///     wrap_text(stairs, 30),
///     ["  <  >     climb the stairs", "           you stand on"]
/// );
/// ```
#[must_use]
pub fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        // A line that fits is kept verbatim, so aligned columns survive.
        if para.chars().count() <= width {
            out.push(para.to_string());
            continue;
        }
        let indent = hanging_indent(para, width);
        let prefix: String = para.chars().take(indent).collect();
        let rest: String = para.chars().skip(indent).collect();
        let pad = " ".repeat(indent);
        for (i, line) in wrap_words(&rest, width - indent).into_iter().enumerate() {
            let lead = if i == 0 { &prefix } else { &pad };
            out.push(format!("{lead}{line}"));
        }
    }
    out
}

/// Where the wrapped lines of `para` start: after a key column (the longest run of two or
/// more spaces inside the first half of the line, so `<  >   climb` indents at `climb`),
/// else after the leading spaces; 0 when that leaves too little room.
fn hanging_indent(para: &str, width: usize) -> usize {
    let chars: Vec<char> = para.chars().collect();
    let lead = chars.iter().take_while(|c| **c == ' ').count();
    // (length, end) of the longest run of spaces after the lead, ending in the first half.
    let mut best: Option<(usize, usize)> = None;
    let mut i = lead;
    while i < chars.len() && i <= width / 2 {
        if chars[i] == ' ' {
            let run = chars[i..].iter().take_while(|c| **c == ' ').count();
            let end = i + run;
            if run >= 2
                && end < chars.len()
                && end <= width / 2
                && best.is_none_or(|(n, _)| run >= n)
            {
                best = Some((run, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    let indent = best.map_or(lead, |(_, end)| end);
    if indent * 2 > width { 0 } else { indent }
}

/// Greedy word wrap of `text` (single spaces between words) at `width`.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let chars: Vec<char> = word.chars().collect();
        // An unbroken word longer than a line is cut into whole lines, by index rather than
        // by splitting off copies: Θ(word length).
        let mut start = 0;
        while chars.len() - start > width {
            if len > 0 {
                out.push(std::mem::take(&mut line));
                len = 0;
            }
            out.push(chars[start..start + width].iter().collect());
            start += width;
        }
        let word = &chars[start..];
        if len > 0 && len + 1 + word.len() > width {
            out.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        len += word.len();
        line.extend(word.iter());
    }
    out.push(line);
    out
}
