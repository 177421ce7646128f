//! A generic screen-stack UI toolkit over any game context, plus reusable widgets.
//!
//! In the style of "The Caves of Clojure" part 2: the UI is a stack of screens; every screen
//! from the topmost opaque one upwards is drawn in order, the top screen gets the input, and a
//! screen that finishes *pops* itself and returns a [`ScreenValue`] to the screen below, which
//! receives it in [`Screen::on_result`]. So a reusable item list never needs to know who asked
//! for an item: the throw screen pushes the list, gets `ScreenValue::Index(i)` back, then pushes
//! a targeting screen and gets `ScreenValue::Loc(..)` back.
//!
//! Nothing here knows a game rule. The context `C` (typically the game value plus UI state such
//! as the message log) is owned by the [`ScreenStack`] and lent to each screen.
//!
//! Widgets: [`draw_box`], [`put_centred`], [`wrap_text`], [`draw_item_list`] / [`ItemList`]
//! (lettered a–z, pages of 26), [`Confirm`] (y/n), [`TextScreen`] (help and other long text),
//! [`draw_message_log`] / [`MessageLogScreen`] (scrollable, older lines faded), and
//! [`MinSize`], an [`App`] wrapper that shows an "enlarge" screen below a minimum size.

use std::cell::Cell as StdCell;

use crate::frontend::{App, Cell, Control, Frame, Input, Key};
use alembic::Rgb;
use alembic::{Dir, Loc};

// ---------------------------------------------------------------------------------------------
// Geometry and colours

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

// ---------------------------------------------------------------------------------------------
// The stack

/// What a finished screen hands back to the screen below it.
///
/// Game-specific payloads travel through the context `C`: write them there and pop with
/// [`ScreenValue::Done`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScreenValue {
    /// Finished, nothing to report (a help screen closed).
    Done,
    /// The player backed out (Esc).
    Cancelled,
    /// A yes/no answer.
    Bool(bool),
    /// A chosen index (into the list the screen was given).
    Index(usize),
    /// Entered text.
    Text(String),
    /// A chosen direction.
    Dir(Dir),
    /// A chosen location (targeting).
    Loc(Loc),
    /// A key pressed ("press any key" prompts).
    Key(Key),
}

/// What a screen wants after an input or a result.
pub enum Transition<C> {
    /// Stay as is.
    Stay,
    /// Put a new screen on top; it gets the input from now on.
    Push(Box<dyn Screen<C>>),
    /// Remove this screen and hand the value to the screen below ([`Screen::on_result`]).
    /// Popping the last screen ends the app.
    Pop(ScreenValue),
    /// Swap this screen for another (the screen below is not told).
    Replace(Box<dyn Screen<C>>),
    /// End the app.
    Quit,
}

impl<C> Transition<C> {
    /// [`Transition::Push`] without spelling the box.
    pub fn push(screen: impl Screen<C> + 'static) -> Self {
        Transition::Push(Box::new(screen))
    }

    /// [`Transition::Replace`] without spelling the box.
    pub fn replace(screen: impl Screen<C> + 'static) -> Self {
        Transition::Replace(Box::new(screen))
    }
}

impl<C> std::fmt::Debug for Transition<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transition::Stay => f.write_str("Stay"),
            Transition::Push(s) => write!(f, "Push({})", s.name()),
            Transition::Pop(v) => write!(f, "Pop({v:?})"),
            Transition::Replace(s) => write!(f, "Replace({})", s.name()),
            Transition::Quit => f.write_str("Quit"),
        }
    }
}

/// One screen of a [`ScreenStack`] over a game context `C`.
pub trait Screen<C> {
    /// Draw into `area` of `frame`. Screens below an overlay are drawn first.
    fn render(&self, ctx: &C, frame: &mut Frame, area: Rect);

    /// React to an input (this screen is on top).
    fn handle(&mut self, ctx: &mut C, input: Input) -> Transition<C>;

    /// The screen above popped itself with `value`. Default: ignore it and stay.
    fn on_result(&mut self, ctx: &mut C, value: ScreenValue) -> Transition<C> {
        let _ = (ctx, value);
        Transition::Stay
    }

    /// Whether the screens below stay visible under this one (a dialog box) — `false` (the
    /// default) means this screen paints its whole area.
    fn is_overlay(&self) -> bool {
        false
    }

    /// The frontend is closing (window closed, Ctrl-C): last chance to save. Called on every
    /// screen, top first. Default: nothing.
    fn on_quit(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// A short name, for tests and debugging.
    fn name(&self) -> &str {
        "screen"
    }

    /// How long the run loop may wait for input before calling [`Screen::tick`] while this
    /// screen is on top (an animation, a replay playing). Default: `None`, wait for input.
    fn tick_interval(&self) -> Option<std::time::Duration> {
        None
    }

    /// [`Screen::tick_interval`] passed without input. Default: stay.
    fn tick(&mut self, ctx: &mut C) -> Transition<C> {
        let _ = ctx;
        Transition::Stay
    }
}

/// A stack of screens over a context `C`; implements [`App`], so [`crate::run`] drives it.
///
/// Input goes to the top screen; a popped screen's value goes to the one below. An empty stack
/// quits.
pub struct ScreenStack<C> {
    ctx: C,
    screens: Vec<Box<dyn Screen<C>>>,
    farewell: Option<Farewell<C>>,
    title: Option<Title<C>>,
}

/// Reads the window title from a stack's context (see [`ScreenStack::with_title`]).
pub type Title<C> = fn(&C) -> Option<String>;

/// Reads the farewell line from a stack's context (see [`ScreenStack::with_farewell`]).
pub type Farewell<C> = fn(&C) -> Result<Option<String>, String>;

impl<C> ScreenStack<C> {
    /// A stack holding `ctx` with `root` as its only screen.
    pub fn new(ctx: C, root: impl Screen<C> + 'static) -> Self {
        ScreenStack {
            ctx,
            screens: vec![Box::new(root)],
            farewell: None,
            title: None,
        }
    }

    /// Answer [`App::title`] from the context with `f` (e.g. the game and the depth).
    #[must_use]
    pub fn with_title(mut self, f: Title<C>) -> Self {
        self.title = Some(f);
        self
    }

    /// Answer [`App::farewell`] from the context with `f` (e.g. where the game was saved on
    /// close, or why saving failed).
    #[must_use]
    pub fn with_farewell(mut self, f: Farewell<C>) -> Self {
        self.farewell = Some(f);
        self
    }

    /// The context.
    #[must_use]
    pub fn ctx(&self) -> &C {
        &self.ctx
    }

    /// The context, mutably.
    pub fn ctx_mut(&mut self) -> &mut C {
        &mut self.ctx
    }

    /// Take the context out, dropping the screens.
    pub fn into_ctx(self) -> C {
        self.ctx
    }

    /// Push a screen on top.
    pub fn push(&mut self, screen: impl Screen<C> + 'static) {
        self.screens.push(Box::new(screen));
    }

    /// How many screens are stacked.
    #[must_use]
    pub fn len(&self) -> usize {
        self.screens.len()
    }

    /// Whether no screen is left (the app has ended).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.screens.is_empty()
    }

    /// The names of the screens, bottom first.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        self.screens.iter().map(|s| s.name()).collect()
    }

    /// Give one input to the top screen and carry out the transitions that follow.
    pub fn handle_input(&mut self, input: Input) -> Control {
        if let Input::Quit = input {
            for s in self.screens.iter_mut().rev() {
                s.on_quit(&mut self.ctx);
            }
            return Control::Quit;
        }
        let Some(top) = self.screens.last_mut() else {
            return Control::Quit;
        };
        let t = top.handle(&mut self.ctx, input);
        self.apply(t)
    }

    /// Carry out a transition as if the top screen had returned it.
    pub fn apply(&mut self, transition: Transition<C>) -> Control {
        let mut t = transition;
        loop {
            match t {
                Transition::Stay => return Control::Continue,
                Transition::Quit => return Control::Quit,
                Transition::Push(s) => {
                    self.screens.push(s);
                    return Control::Continue;
                }
                Transition::Replace(s) => {
                    self.screens.pop();
                    self.screens.push(s);
                    return Control::Continue;
                }
                Transition::Pop(value) => {
                    self.screens.pop();
                    match self.screens.last_mut() {
                        None => return Control::Quit,
                        Some(below) => t = below.on_result(&mut self.ctx, value),
                    }
                }
            }
        }
    }

    /// Draw the visible screens into `frame`.
    pub fn render_into(&self, frame: &mut Frame) {
        let area = Rect::of_frame(frame);
        let start = self
            .screens
            .iter()
            .rposition(|s| !s.is_overlay())
            .unwrap_or(0);
        for s in &self.screens[start..] {
            s.render(&self.ctx, frame, area);
        }
    }
}

impl<C> App for ScreenStack<C> {
    fn render(&self, frame: &mut Frame) {
        self.render_into(frame);
    }

    fn handle(&mut self, input: Input) -> Control {
        self.handle_input(input)
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.screens.last().and_then(|s| s.tick_interval())
    }

    fn tick(&mut self) -> Control {
        let Some(top) = self.screens.last_mut() else {
            return Control::Quit;
        };
        let t = top.tick(&mut self.ctx);
        self.apply(t)
    }

    fn farewell(&self) -> Result<Option<String>, String> {
        self.farewell.map_or(Ok(None), |f| f(&self.ctx))
    }

    fn title(&self) -> Option<String> {
        self.title.and_then(|f| f(&self.ctx))
    }
}

/// A boxed app is an app, so wrappers such as [`MinSize`] take what a launcher returns.
impl<A: App + ?Sized> App for Box<A> {
    fn render(&self, frame: &mut Frame) {
        (**self).render(frame);
    }

    fn handle(&mut self, input: Input) -> Control {
        (**self).handle(input)
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        (**self).tick_interval()
    }

    fn tick(&mut self) -> Control {
        (**self).tick()
    }

    fn farewell(&self) -> Result<Option<String>, String> {
        (**self).farewell()
    }

    fn title(&self) -> Option<String> {
        (**self).title()
    }
}

// ---------------------------------------------------------------------------------------------
// Key helpers

/// The character of a plain key press (no Ctrl, no Alt), if it is one.
#[must_use]
pub fn plain_char(input: &Input) -> Option<char> {
    match *input {
        Input::Key {
            key: Key::Char(c),
            mods,
        } if !mods.ctrl && !mods.alt => Some(c),
        _ => None,
    }
}

/// The key of a key press with no Ctrl or Alt held, if it is one.
#[must_use]
pub fn plain_key(input: &Input) -> Option<Key> {
    match *input {
        Input::Key { key, mods } if !mods.ctrl && !mods.alt => Some(key),
        _ => None,
    }
}

/// The mouse wheel as the arrow key that scrolls the same way ([`Key::Up`] for
/// [`MouseKind::ScrollUp`](crate::MouseKind::ScrollUp), [`Key::Down`] for down), so lists
/// and logs scroll with the wheel through their key handling.
#[must_use]
pub fn wheel_key(input: &Input) -> Option<Key> {
    match *input {
        Input::Mouse {
            kind: crate::MouseKind::ScrollUp,
            ..
        } => Some(Key::Up),
        Input::Mouse {
            kind: crate::MouseKind::ScrollDown,
            ..
        } => Some(Key::Down),
        _ => None,
    }
}

/// Every key [`direction_key`] gives a direction for (without modifiers), for keymaps and
/// help screens that list them.
///
/// ```
/// use alembic_ui::{DIRECTION_KEYS, Input, direction_key};
/// assert!(DIRECTION_KEYS.iter().all(|&k| direction_key(&Input::key(k)).is_some()));
/// ```
pub const DIRECTION_KEYS: &[Key] = &[
    Key::Char('h'),
    Key::Char('j'),
    Key::Char('k'),
    Key::Char('l'),
    Key::Char('y'),
    Key::Char('u'),
    Key::Char('b'),
    Key::Char('n'),
    Key::Left,
    Key::Down,
    Key::Up,
    Key::Right,
    Key::Home,
    Key::PageUp,
    Key::End,
    Key::PageDown,
    Key::Char('1'),
    Key::Char('2'),
    Key::Char('3'),
    Key::Char('4'),
    Key::Char('6'),
    Key::Char('7'),
    Key::Char('8'),
    Key::Char('9'),
    Key::Keypad(1),
    Key::Keypad(2),
    Key::Keypad(3),
    Key::Keypad(4),
    Key::Keypad(6),
    Key::Keypad(7),
    Key::Keypad(8),
    Key::Keypad(9),
];

/// The compass direction a key means by roguelike convention: vi keys `hjklyubn`, arrows,
/// numpad digits (as [`Key::Keypad`] or plain digits) and, for numpads without Num Lock,
/// Home / PageUp / End / PageDown as the diagonals.
#[must_use]
pub fn direction_key(input: &Input) -> Option<Dir> {
    let key = plain_key(input)?;
    let digit = match key {
        Key::Keypad(d) => Some(d),
        Key::Char(c @ '1'..='9') => c.to_digit(10).map(|d| d as u8),
        _ => None,
    };
    if let Some(d) = digit {
        return match d {
            1 => Some(Dir::SouthWest),
            2 => Some(Dir::South),
            3 => Some(Dir::SouthEast),
            4 => Some(Dir::West),
            6 => Some(Dir::East),
            7 => Some(Dir::NorthWest),
            8 => Some(Dir::North),
            9 => Some(Dir::NorthEast),
            _ => None,
        };
    }
    match key {
        Key::Char('h') | Key::Left => Some(Dir::West),
        Key::Char('j') | Key::Down => Some(Dir::South),
        Key::Char('k') | Key::Up => Some(Dir::North),
        Key::Char('l') | Key::Right => Some(Dir::East),
        Key::Char('y') | Key::Home => Some(Dir::NorthWest),
        Key::Char('u') | Key::PageUp => Some(Dir::NorthEast),
        Key::Char('b') | Key::End => Some(Dir::SouthWest),
        Key::Char('n') | Key::PageDown => Some(Dir::SouthEast),
        _ => None,
    }
}

/// Whether the key is Escape (the universal "cancel").
#[must_use]
pub fn is_cancel(input: &Input) -> bool {
    plain_key(input) == Some(Key::Esc)
}

// ---------------------------------------------------------------------------------------------
// Drawing helpers

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
    let blank = Cell {
        ch: ' ',
        fg: palette.text,
        bg: palette.bg,
    };
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

/// The letter for item `index` on its page: `a`…`z`, repeating every 26.
#[must_use]
pub fn item_letter(index: usize) -> char {
    char::from(b'a' + (index % 26) as u8)
}

/// The fraction of full brightness for a log line `age` lines older than the newest:
/// 1.0 for the newest, falling to 0.45 ten lines back and staying there.
#[must_use]
pub fn fade_for_age(age: usize) -> f32 {
    let a = age.min(10) as f32 / 10.0;
    1.0 - 0.55 * a
}

// ---------------------------------------------------------------------------------------------
// Item list

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

/// A screen choosing one entry of a lettered list: pops [`ScreenValue::Index`] of the entry
/// (across pages) or [`ScreenValue::Cancelled`] on Esc.
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

impl<C> Screen<C> for ItemList {
    fn render(&self, _ctx: &C, frame: &mut Frame, area: Rect) {
        draw_item_list(
            frame,
            area,
            &self.palette,
            &self.title,
            &self.entries,
            self.page,
        );
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C> {
        if self.entries.is_empty() && plain_key(&input).is_some() {
            return Transition::Pop(ScreenValue::Cancelled);
        }
        let pages = page_count(self.entries.len());
        // The wheel turns pages.
        let key = plain_key(&input).or_else(|| match wheel_key(&input) {
            Some(Key::Up) => Some(Key::PageUp),
            Some(_) => Some(Key::PageDown),
            None => None,
        });
        match key {
            Some(Key::Esc) => Transition::Pop(ScreenValue::Cancelled),
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
                    Some(i) => Transition::Pop(ScreenValue::Index(i)),
                    None => Transition::Stay,
                }
            }
            Some(Key::Char(c @ 'a'..='z')) => {
                let i = self.page * 26 + (c as usize - 'a' as usize);
                if i < self.entries.len() {
                    Transition::Pop(ScreenValue::Index(i))
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

// ---------------------------------------------------------------------------------------------
// Confirm

/// A y/n question in a box over the screen below: pops [`ScreenValue::Bool`] — `true` for
/// `y`/`Y`, `false` for `n`/`N`/Esc. Other keys are ignored.
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

impl<C> Screen<C> for Confirm {
    fn render(&self, _ctx: &C, frame: &mut Frame, area: Rect) {
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

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C> {
        match plain_key(&input) {
            Some(Key::Char('y' | 'Y')) => Transition::Pop(ScreenValue::Bool(true)),
            Some(Key::Char('n' | 'N') | Key::Esc) => Transition::Pop(ScreenValue::Bool(false)),
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

// ---------------------------------------------------------------------------------------------
// Scrolling

/// Scroll position of a view over `len` lines, `page` of them visible at once.
fn scroll_key(key: Key, pos: usize, len: usize, page: usize) -> Option<usize> {
    let max = len.saturating_sub(page.max(1));
    let step = page.saturating_sub(1).max(1);
    let p = match key {
        Key::Char('j') | Key::Down => pos + 1,
        Key::Char('k') | Key::Up => pos.saturating_sub(1),
        Key::Char(' ') | Key::PageDown => pos + step,
        Key::PageUp => pos.saturating_sub(step),
        Key::Home | Key::Char('g') => 0,
        Key::End | Key::Char('G') => max,
        _ => return None,
    };
    Some(p.min(max))
}

// ---------------------------------------------------------------------------------------------
// Text screen

/// A full-screen page of text (help, story, summaries): title, wrapped lines, scrolling with
/// j/k, arrows, Space, PageUp/PageDown, Home/End; Esc, Enter or `q` pops
/// [`ScreenValue::Done`].
#[derive(Clone, Debug)]
pub struct TextScreen {
    title: String,
    lines: Vec<String>,
    top: usize,
    palette: Palette,
    /// (wrapped line count, visible rows) seen at the last render, for clamping the scroll.
    seen: StdCell<(usize, usize)>,
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
            top: 0,
            palette: Palette::DEFAULT,
            seen: StdCell::new((usize::MAX, 1)),
        }
    }

    /// The first wrapped line shown.
    #[must_use]
    pub fn scroll(&self) -> usize {
        self.top
    }
}

impl<C> Screen<C> for TextScreen {
    fn render(&self, _ctx: &C, frame: &mut Frame, area: Rect) {
        let p = &self.palette;
        let inside = draw_box(frame, area, p, Some(&self.title));
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
        self.seen.set((wrapped.len(), rows));
        let top = self.top.min(wrapped.len().saturating_sub(rows));
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

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C> {
        let Some(key) = plain_key(&input).or_else(|| wheel_key(&input)) else {
            return Transition::Stay;
        };
        match key {
            Key::Esc | Key::Enter | Key::Char('q') => Transition::Pop(ScreenValue::Done),
            k => {
                let (len, page) = self.seen.get();
                if let Some(p) = scroll_key(k, self.top, len, page) {
                    self.top = p;
                }
                Transition::Stay
            }
        }
    }

    fn name(&self) -> &str {
        "text"
    }
}

// ---------------------------------------------------------------------------------------------
// Message log

/// Draw the messages that end `scroll` lines before the newest into `area`, newest at the
/// bottom, each faded by its age ([`fade_for_age`]). Lines longer than the area are clipped.
pub fn draw_message_log(
    frame: &mut Frame,
    area: Rect,
    palette: &Palette,
    messages: &[String],
    scroll: usize,
) {
    let rows = usize::from(area.height);
    let end = messages.len().saturating_sub(scroll);
    let start = end.saturating_sub(rows);
    let shown = &messages[start..end];
    // Bottom-align: the newest shown line sits on the last row.
    let first_row = area.y + (rows - shown.len()) as u16;
    for (i, msg) in shown.iter().enumerate() {
        let age = messages.len() - 1 - (start + i);
        let fg = palette.text.scale(fade_for_age(age));
        put_clipped(
            frame,
            area,
            area.x,
            first_row + i as u16,
            msg,
            fg,
            palette.bg,
        );
    }
}

/// A full-screen scrollable view of a message log (a snapshot taken when pushed): newest at the
/// bottom, older lines faded; j/k, arrows, PageUp/PageDown, Home/End scroll; Esc, Enter or `q`
/// pops [`ScreenValue::Done`].
#[derive(Clone, Debug)]
pub struct MessageLogScreen {
    title: String,
    messages: Vec<String>,
    /// Lines scrolled back from the newest.
    back: usize,
    palette: Palette,
    rows_seen: StdCell<usize>,
}

impl MessageLogScreen {
    /// A view of `messages` (oldest first).
    pub fn new(title: impl Into<String>, messages: Vec<String>) -> Self {
        MessageLogScreen {
            title: title.into(),
            messages,
            back: 0,
            palette: Palette::DEFAULT,
            rows_seen: StdCell::new(1),
        }
    }

    /// How many lines the view is scrolled back from the newest.
    #[must_use]
    pub fn scrolled_back(&self) -> usize {
        self.back
    }
}

impl<C> Screen<C> for MessageLogScreen {
    fn render(&self, _ctx: &C, frame: &mut Frame, area: Rect) {
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
        self.rows_seen.set(usize::from(body.height));
        if self.messages.is_empty() {
            put_centred(frame, body, body.y, "(no messages yet)", p.dim, p.bg);
        }
        draw_message_log(frame, body, p, &self.messages, self.back);
        let n = self.messages.len();
        let noun = if n == 1 { "message" } else { "messages" };
        let hint = format!("{n} {noun}  k/j older/newer  Esc close");
        put_centred(frame, footer, footer.y, &hint, p.dim, p.bg);
    }

    fn handle(&mut self, _ctx: &mut C, input: Input) -> Transition<C> {
        let Some(key) = plain_key(&input).or_else(|| wheel_key(&input)) else {
            return Transition::Stay;
        };
        if matches!(key, Key::Esc | Key::Enter | Key::Char('q')) {
            return Transition::Pop(ScreenValue::Done);
        }
        // Scrolling "down" moves towards the newest: positions count back from the end.
        let len = self.messages.len();
        let page = self.rows_seen.get().max(1);
        let max = len.saturating_sub(page);
        let from_top = max.saturating_sub(self.back.min(max));
        if let Some(p) = scroll_key(key, from_top, len, page) {
            self.back = max - p;
        }
        Transition::Stay
    }

    fn name(&self) -> &str {
        "message-log"
    }
}

// ---------------------------------------------------------------------------------------------
// Minimum size

/// Draw the "too small" screen: the current size and the size needed, centred and wrapped.
pub fn draw_too_small(frame: &mut Frame, min_width: u16, min_height: u16, what: &str) {
    let p = Palette::DEFAULT;
    frame.clear(Cell {
        ch: ' ',
        fg: p.text,
        bg: p.bg,
    });
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
    last: StdCell<(u16, u16)>,
}

impl<A> MinSize<A> {
    /// Wrap `app`, needing at least `min_width × min_height` cells.
    pub fn new(app: A, min_width: u16, min_height: u16) -> Self {
        MinSize {
            app,
            min: (min_width, min_height),
            what: "window".to_string(),
            last: StdCell::new((u16::MAX, u16::MAX)),
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
    fn render(&self, frame: &mut Frame) {
        let (w, h) = (frame.width(), frame.height());
        self.last.set((w, h));
        if self.too_small(w, h) {
            draw_too_small(frame, self.min.0, self.min.1, &self.what);
        } else {
            self.app.render(frame);
        }
    }

    fn handle(&mut self, input: Input) -> Control {
        match input {
            Input::Resize { width, height } => {
                self.last.set((width, height));
                self.app.handle(input)
            }
            Input::Key { .. } | Input::Mouse { .. } => {
                let (w, h) = self.last.get();
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

    fn farewell(&self) -> Result<Option<String>, String> {
        self.app.farewell()
    }

    fn title(&self) -> Option<String> {
        self.app.title()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{Mods, TestFrontend, run};

    /// A context recording what the root screen received.
    #[derive(Default)]
    struct Ctx {
        got: Vec<ScreenValue>,
    }

    /// Root: `i` pushes an item list, `c` a confirm, `?` help, `m` a log, `x` replaces itself.
    struct Root;

    impl Screen<Ctx> for Root {
        fn render(&self, ctx: &Ctx, frame: &mut Frame, area: Rect) {
            fill(
                frame,
                area,
                Cell {
                    ch: '.',
                    ..Cell::default()
                },
            );
            frame.put_str(
                0,
                0,
                &format!("root got {:?}", ctx.got.last()),
                Rgb::WHITE,
                Rgb::BLACK,
            );
        }

        fn handle(&mut self, _ctx: &mut Ctx, input: Input) -> Transition<Ctx> {
            match plain_char(&input) {
                Some('i') => Transition::push(ItemList::new(
                    "Pick",
                    (0..30)
                        .map(|i| ListEntry::new(format!("thing {i}")))
                        .collect(),
                )),
                Some('c') => Transition::push(Confirm::new("Really?")),
                Some('?') => Transition::push(TextScreen::new(
                    "Help",
                    (0..40).map(|i| format!("help line {i}")),
                )),
                Some('m') => Transition::push(MessageLogScreen::new(
                    "Messages",
                    (0..50).map(|i| format!("message {i}")).collect(),
                )),
                Some('x') => Transition::replace(Other),
                Some('Q') => Transition::Quit,
                _ => Transition::Stay,
            }
        }

        fn on_result(&mut self, ctx: &mut Ctx, value: ScreenValue) -> Transition<Ctx> {
            let quit = value == ScreenValue::Bool(true);
            ctx.got.push(value);
            if quit {
                Transition::Quit
            } else {
                Transition::Stay
            }
        }

        fn name(&self) -> &str {
            "root"
        }
    }

    struct Other;
    impl Screen<Ctx> for Other {
        fn render(&self, _: &Ctx, frame: &mut Frame, _: Rect) {
            frame.put_str(0, 0, "other screen", Rgb::WHITE, Rgb::BLACK);
        }
        fn handle(&mut self, _: &mut Ctx, input: Input) -> Transition<Ctx> {
            if is_cancel(&input) {
                Transition::Pop(ScreenValue::Done)
            } else {
                Transition::Stay
            }
        }
    }

    fn keys(s: &str) -> Vec<Input> {
        s.chars().map(Input::ch).collect()
    }

    #[test]
    fn item_list_pages_and_returns_index_to_screen_below() {
        let mut inputs = keys("i");
        inputs.push(Input::key(Key::PageDown));
        inputs.extend(keys("cc")); // 'c' on page 2 = index 28; second 'c' opens confirm
        inputs.extend(keys("y"));
        let mut fe = TestFrontend::new(80, 30, inputs);
        let mut app = ScreenStack::new(Ctx::default(), Root);
        run(&mut fe, &mut app).unwrap();
        assert_eq!(
            app.ctx().got,
            vec![ScreenValue::Index(28), ScreenValue::Bool(true)]
        );
        let frames = fe.frames();
        assert!(frames[1].contains_text("a) thing 0"));
        assert!(frames[1].contains_text("z) thing 25"));
        assert!(frames[1].contains_text("page 1/2"));
        // The list is an overlay: the root still shows around it.
        assert!(frames[1].contains_text("root got None"));
        assert!(frames[2].contains_text("c) thing 28"));
        assert!(frames[2].contains_text("page 2/2"));
        assert!(frames[4].contains_text("Really? (y/n)"));
    }

    #[test]
    fn item_list_with_own_letters_chooses_by_them() {
        let entries = vec![
            ListEntry::new("dagger").with_letter('c'),
            ListEntry::new("potion").with_letter('a'),
            ListEntry::new("herb"),
        ];
        let mut list = ItemList::new("Pick", entries.clone());
        let mut ctx = ();
        // 'a' is the potion's own letter, not the first entry's position.
        assert!(matches!(
            Screen::<()>::handle(&mut list, &mut ctx, Input::ch('a')),
            Transition::Pop(ScreenValue::Index(1))
        ));
        assert!(matches!(
            Screen::<()>::handle(&mut list, &mut ctx, Input::ch('c')),
            Transition::Pop(ScreenValue::Index(0))
        ));
        // 'b' is nobody's letter; the entry without one cannot be chosen.
        assert!(matches!(
            Screen::<()>::handle(&mut list, &mut ctx, Input::ch('b')),
            Transition::Stay
        ));
        let mut f = Frame::new(40, 10);
        let area = Rect::of_frame(&f);
        draw_item_list(&mut f, area, &Palette::DEFAULT, "Pick", &entries, 0);
        assert!(f.contains_text("c) dagger"));
        assert!(f.contains_text("a) potion"));
        assert!(f.contains_text("-) herb"));
    }

    #[test]
    fn escape_cancels_and_confirm_no_stays() {
        let mut inputs = keys("i");
        inputs.push(Input::key(Key::Esc));
        inputs.extend(keys("cxn")); // 'x' ignored by confirm
        inputs.extend(keys("Q"));
        let mut fe = TestFrontend::new(80, 24, inputs);
        let mut app = ScreenStack::new(Ctx::default(), Root);
        run(&mut fe, &mut app).unwrap();
        assert_eq!(
            app.ctx().got,
            vec![ScreenValue::Cancelled, ScreenValue::Bool(false)]
        );
        assert_eq!(app.names(), vec!["root"]);
    }

    #[test]
    fn popping_the_last_screen_quits_and_replace_swaps() {
        let mut inputs = keys("x");
        inputs.push(Input::key(Key::Esc));
        let mut fe = TestFrontend::new(40, 10, inputs);
        let mut app = ScreenStack::new(Ctx::default(), Root);
        run(&mut fe, &mut app).unwrap();
        assert!(app.is_empty());
        assert!(fe.frames()[1].contains_text("other screen"));
    }

    #[test]
    fn text_screen_scrolls_within_bounds() {
        let mut inputs = keys("?");
        inputs.extend(keys("jjj"));
        inputs.push(Input::key(Key::End));
        inputs.push(Input::key(Key::PageDown));
        inputs.push(Input::key(Key::Esc));
        inputs.extend(keys("Q"));
        let mut fe = TestFrontend::new(60, 12, inputs);
        let mut app = ScreenStack::new(Ctx::default(), Root);
        run(&mut fe, &mut app).unwrap();
        let f = fe.frames();
        assert!(f[1].contains_text("help line 0"));
        assert!(!f[1].contains_text("root got"), "text screen is opaque");
        assert!(f[4].contains_text("help line 3") && !f[4].contains_text("help line 2 "));
        // 12 rows - 2 border - 1 footer = 9 visible; End shows the last 9.
        assert!(f[5].contains_text("help line 39"));
        assert!(f[5].contains_text("lines 32-40 of 40"));
        assert_eq!(f[5].to_text(), f[6].to_text(), "cannot scroll past the end");
        assert_eq!(app.ctx().got, vec![ScreenValue::Done]);
    }

    #[test]
    fn message_log_fades_older_lines_and_scrolls_back() {
        let mut inputs = keys("m");
        inputs.extend(keys("kk"));
        inputs.push(Input::key(Key::Esc));
        inputs.extend(keys("Q"));
        let mut fe = TestFrontend::new(60, 12, inputs);
        let mut app = ScreenStack::new(Ctx::default(), Root);
        run(&mut fe, &mut app).unwrap();
        let f = &fe.frames()[1];
        assert!(f.contains_text("message 49"));
        // Find the colour of the newest and an older line.
        let colour_of = |frame: &Frame, needle: &str| {
            let y = (0..frame.height())
                .find(|&y| frame.row_text(y).contains(needle))
                .unwrap();
            let x = frame.row_text(y).find(needle).unwrap() as i32;
            // Box-drawing chars are multi-byte; count chars instead.
            let x = frame.row_text(y)[..x as usize].chars().count() as i32;
            frame.get(x, i32::from(y)).unwrap().fg
        };
        let newest = colour_of(f, "message 49");
        let older = colour_of(f, "message 42");
        assert!(newest.r > older.r, "{newest:?} vs {older:?}");
        let scrolled = &fe.frames()[3];
        assert!(scrolled.contains_text("message 47"));
        assert!(!scrolled.contains_text("message 49"));
    }

    #[test]
    fn direction_keys_follow_roguelike_conventions() {
        assert_eq!(direction_key(&Input::ch('h')), Some(Dir::West));
        assert_eq!(direction_key(&Input::ch('n')), Some(Dir::SouthEast));
        assert_eq!(direction_key(&Input::ch('9')), Some(Dir::NorthEast));
        assert_eq!(
            direction_key(&Input::key(Key::Keypad(1))),
            Some(Dir::SouthWest)
        );
        assert_eq!(direction_key(&Input::key(Key::Up)), Some(Dir::North));
        assert_eq!(direction_key(&Input::key(Key::Home)), Some(Dir::NorthWest));
        assert_eq!(direction_key(&Input::ch('5')), None);
        let ctrl_h = Input::Key {
            key: Key::Char('h'),
            mods: Mods {
                ctrl: true,
                ..Mods::NONE
            },
        };
        assert_eq!(direction_key(&ctrl_h), None);
    }

    #[test]
    fn wrap_and_box_helpers() {
        assert_eq!(wrap_text("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap_text("abcdefg", 3), vec!["abc", "def", "g"]);
        assert_eq!(wrap_text("a\n\nb", 9), vec!["a", "", "b"]);
        assert_eq!(wrap_text("a   b", 9), vec!["a   b"]);
        let mut f = Frame::new(10, 4);
        let all = Rect::of_frame(&f);
        let inside = draw_box(&mut f, all, &Palette::DEFAULT, Some("T"));
        assert_eq!(inside, Rect::new(1, 1, 8, 2));
        assert_eq!(f.row_text(0), "┌── T ───┐");
        assert_eq!(f.row_text(3), "└────────┘");
        // Degenerate areas never panic.
        draw_box(
            &mut f,
            Rect::new(9, 3, 5, 5),
            &Palette::DEFAULT,
            Some("long title"),
        );
        draw_item_list(
            &mut f,
            Rect::new(0, 0, 1, 1),
            &Palette::DEFAULT,
            "x",
            &[],
            3,
        );
        let mut tiny = Frame::new(0, 0);
        draw_too_small(&mut tiny, 80, 24, "terminal");
        put_centred(
            &mut f,
            Rect::new(0, 0, 0, 0),
            0,
            "hello",
            Rgb::WHITE,
            Rgb::BLACK,
        );
        assert_eq!(item_letter(27), 'b');
        assert_eq!(page_count(0), 1);
        assert_eq!(page_count(27), 2);
    }

    #[test]
    fn min_size_shows_enlarge_screen_and_swallows_keys() {
        let inputs = vec![
            Input::ch('c'), // swallowed: too small
            Input::Resize {
                width: 80,
                height: 24,
            },
            Input::ch('c'),
            Input::ch('y'),
        ];
        let mut fe = TestFrontend::new(50, 10, inputs);
        let mut app =
            MinSize::new(ScreenStack::new(Ctx::default(), Root), 80, 24).with_noun("terminal");
        run(&mut fe, &mut app).unwrap();
        let f = fe.frames();
        assert!(f[0].contains_text("Please enlarge the terminal"));
        assert!(f[0].contains_text("(now 50x10)"));
        assert!(
            f[1].contains_text("Please enlarge"),
            "the key was swallowed"
        );
        assert!(f[2].contains_text("root got None"));
        assert!(f[3].contains_text("Really?"));
        assert_eq!(app.inner().ctx().got, vec![ScreenValue::Bool(true)]);
    }

    #[test]
    fn quit_input_reaches_every_screen() {
        struct Saver;
        impl Screen<Vec<&'static str>> for Saver {
            fn render(&self, _: &Vec<&'static str>, _: &mut Frame, _: Rect) {}
            fn handle(
                &mut self,
                _: &mut Vec<&'static str>,
                _: Input,
            ) -> Transition<Vec<&'static str>> {
                Transition::push(Confirm::new("?"))
            }
            fn on_quit(&mut self, ctx: &mut Vec<&'static str>) {
                ctx.push("saved");
            }
        }
        let mut fe = TestFrontend::new(20, 5, [Input::ch('a'), Input::Quit]);
        let mut app = ScreenStack::new(Vec::new(), Saver);
        run(&mut fe, &mut app).unwrap();
        assert_eq!(app.ctx(), &vec!["saved"]);
        assert_eq!(app.len(), 2);
    }
}
