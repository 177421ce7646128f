//! The render/input contract between shared UI code and the frontends.
//!
//! Shared code (a game's screens) draws into a [`Frame`] — a grid of [`Cell`]s, each a glyph
//! with foreground and background colours — and reacts to [`Input`]s. A [`Frontend`] only
//! presents frames and turns its native key events into [`Input`]s; it knows nothing of any
//! game. [`run`] drives any [`App`] with any [`Frontend`].
//!
//! Modelled on ratatui's `Backend`: few required methods, an associated error type, optional
//! capabilities with defaults, and a headless [`TestFrontend`] beside the trait.

use std::collections::VecDeque;
use std::time::Duration;

use alembic::Rgb;
use serde::{Deserialize, Serialize};

/// One character cell of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// The glyph drawn.
    pub ch: char,
    /// Glyph colour.
    pub fg: Rgb,
    /// Cell background.
    pub bg: Rgb,
}

impl Default for Cell {
    fn default() -> Self {
        Cell {
            ch: ' ',
            fg: Rgb::new(200, 200, 200),
            bg: Rgb::BLACK,
        }
    }
}

/// A picture a graphical frontend can draw instead of a letter, as tileset consoles
/// (libtcod, bracket-lib) do. Each tile travels in [`Cell::ch`] as a Private Use Area
/// character ([`Tile::to_char`]) and is tinted by the cell's colours, so frames stay plain
/// data and a tile takes light and memory dimming exactly as a letter does.
///
/// Only send tiles when [`Frame::tiles`] says the frontend draws them; a terminal would show
/// the raw code point. [`Tile::Creature`] keeps the creature's letter (drawn on a token), so
/// switching to tiles never hides which creature it is.
///
/// Where cells are about twice as tall as wide ([`TileSupport::Double`]), one tile spans two
/// cells side by side ([`TileSpan::Left`] and [`TileSpan::Right`]) so it is about square;
/// [`Tile::Glyph`] then centres an ordinary letter across the pair.
///
/// ```
/// use alembic_ui::{Tile, TileSpan};
/// let c = Tile::Creature('g').to_char();
/// assert_eq!(Tile::decode(c), Some((Tile::Creature('g'), TileSpan::Whole)));
/// assert_eq!(Tile::decode('g'), None);
/// let [l, r] = Tile::Wall.to_pair();
/// assert_eq!(Tile::decode(l), Some((Tile::Wall, TileSpan::Left)));
/// assert_eq!(Tile::decode(r), Some((Tile::Wall, TileSpan::Right)));
/// assert_eq!(Tile::decode(Tile::Glyph('≈').to_char_in(TileSpan::Right)), Some((Tile::Glyph('≈'), TileSpan::Right)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    /// A built wall.
    Wall,
    /// Natural rock.
    Rock,
    /// Floor.
    Floor,
    /// A closed door.
    DoorClosed,
    /// An open door.
    DoorOpen,
    /// Stairs down.
    StairsDown,
    /// Stairs up.
    StairsUp,
    /// Water.
    Water,
    /// A potion or flask.
    Potion,
    /// The player's hero.
    Hero,
    /// A creature: its letter on a round token (printable ASCII; anything else shows `?`).
    Creature(char),
    /// An ordinary character drawn as a tile: centred across a two-cell span. Characters from
    /// U+4000 on show `?`.
    Glyph(char),
}

/// Which part of a tile a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileSpan {
    /// The whole tile in one cell.
    Whole,
    /// The left half of a tile two cells wide.
    Left,
    /// The right half of a tile two cells wide.
    Right,
}

/// Whether and how a frontend draws [`Tile`]s ([`Frontend::tile_support`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileSupport {
    /// Letters only (terminals).
    #[default]
    None,
    /// Tiles one cell wide (square-ish cells).
    Single,
    /// Tiles two cells wide (cells about twice as tall as wide), sent as
    /// [`Tile::to_pair`].
    Double,
}

/// Tiles live in Supplementary Private Use Area-B: `TILE_BASE + span × SPAN_STRIDE + payload`.
const TILE_BASE: u32 = 0x10_0000;
const SPAN_STRIDE: u32 = 0x5000;
/// Payload offsets: plain tiles at 0, creature tokens at `TOKEN + letter`, glyphs at
/// `GLYPH + char`.
const TOKEN: u32 = 0x100;
const GLYPH: u32 = 0x1000;
const GLYPH_LIMIT: u32 = SPAN_STRIDE - GLYPH;
/// Every tile that carries no character, in code order.
const PLAIN_TILES: [Tile; 10] = [
    Tile::Wall,
    Tile::Rock,
    Tile::Floor,
    Tile::DoorClosed,
    Tile::DoorOpen,
    Tile::StairsDown,
    Tile::StairsUp,
    Tile::Water,
    Tile::Potion,
    Tile::Hero,
];

impl Tile {
    /// Every tile that carries no character ([`Tile::Creature`] and [`Tile::Glyph`] aside),
    /// for legends and tests.
    pub const PLAIN: [Tile; 10] = PLAIN_TILES;

    /// The character carrying the whole tile in one [`Cell`].
    #[must_use]
    pub fn to_char(self) -> char {
        self.to_char_in(TileSpan::Whole)
    }

    /// The two characters carrying a tile two cells wide, left then right.
    #[must_use]
    pub fn to_pair(self) -> [char; 2] {
        [
            self.to_char_in(TileSpan::Left),
            self.to_char_in(TileSpan::Right),
        ]
    }

    /// The character carrying `span` of this tile.
    #[must_use]
    pub fn to_char_in(self, span: TileSpan) -> char {
        let payload = match self {
            Tile::Creature(c) if c.is_ascii_graphic() => TOKEN + c as u32,
            Tile::Creature(_) => TOKEN + u32::from(b'?'),
            Tile::Glyph(c) if (c as u32) < GLYPH_LIMIT => GLYPH + c as u32,
            Tile::Glyph(_) => GLYPH + u32::from(b'?'),
            // Every plain tile is in the table; the position is its code.
            plain => PLAIN_TILES.iter().position(|t| *t == plain).unwrap_or(0) as u32,
        };
        let span = match span {
            TileSpan::Whole => 0,
            TileSpan::Left => 1,
            TileSpan::Right => 2,
        };
        char::from_u32(TILE_BASE + span * SPAN_STRIDE + payload)
            .unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// The tile and span a character carries, if it is a tile.
    #[must_use]
    pub fn decode(c: char) -> Option<(Tile, TileSpan)> {
        let code = (c as u32).checked_sub(TILE_BASE)?;
        let span = match code / SPAN_STRIDE {
            0 => TileSpan::Whole,
            1 => TileSpan::Left,
            2 => TileSpan::Right,
            _ => return None,
        };
        let payload = code % SPAN_STRIDE;
        let tile = if payload >= GLYPH {
            Tile::Glyph(char::from_u32(payload - GLYPH)?)
        } else if payload >= TOKEN {
            let letter = char::from_u32(payload - TOKEN)?;
            if !letter.is_ascii_graphic() {
                return None;
            }
            Tile::Creature(letter)
        } else {
            *PLAIN_TILES.get(payload as usize)?
        };
        Some((tile, span))
    }
}

/// A `width × height` grid of cells, row-major, produced by shared UI code.
///
/// Writes outside the frame are ignored (never a panic). Clone: Θ(cells).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    width: u16,
    height: u16,
    cells: Vec<Cell>,
    tiles: TileSupport,
    depth: ColourDepth,
}

impl Frame {
    /// A blank frame of the given size.
    #[must_use]
    pub fn new(width: u16, height: u16) -> Self {
        Frame {
            width,
            height,
            cells: vec![Cell::default(); usize::from(width) * usize::from(height)],
            tiles: TileSupport::None,
            depth: ColourDepth::TrueColour,
        }
    }

    /// How many colours the frontend showing this frame has ([`Frontend::colour_depth`]), so
    /// UIs can pick palettes that stay distinct after the frontend rounds colours.
    #[must_use]
    pub fn colour_depth(&self) -> ColourDepth {
        self.depth
    }

    /// Say how many colours will be shown ([`run`] sets it from the frontend).
    pub fn set_colour_depth(&mut self, depth: ColourDepth) {
        self.depth = depth;
    }

    /// Whether and how the frontend showing this frame draws [`Tile`]s
    /// ([`Frontend::tile_support`]). With [`TileSupport::None`], UIs draw letters only.
    #[must_use]
    pub fn tiles(&self) -> TileSupport {
        self.tiles
    }

    /// Say how [`Tile`]s will be drawn ([`run`] sets it from the frontend).
    pub fn set_tiles(&mut self, tiles: TileSupport) {
        self.tiles = tiles;
    }

    /// Width in cells.
    #[must_use]
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in cells.
    #[must_use]
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Every cell, row-major.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return None;
        }
        Some(y as usize * usize::from(self.width) + x as usize)
    }

    /// The cell at (`x`, `y`), if inside.
    #[must_use]
    pub fn get(&self, x: i32, y: i32) -> Option<&Cell> {
        self.index(x, y).map(|i| &self.cells[i])
    }

    /// Overwrite one cell; ignored outside the frame.
    pub fn put(&mut self, x: i32, y: i32, cell: Cell) {
        if let Some(i) = self.index(x, y) {
            self.cells[i] = cell;
        }
    }

    /// Write `text` from (`x`, `y`) rightwards with the given colours, clipped to the frame.
    /// Returns the x after the last character written.
    pub fn put_str(&mut self, x: i32, y: i32, text: &str, fg: Rgb, bg: Rgb) -> i32 {
        let mut cx = x;
        for ch in text.chars() {
            self.put(cx, y, Cell { ch, fg, bg });
            cx = cx.saturating_add(1);
        }
        cx
    }

    /// Fill every cell with `cell`.
    pub fn clear(&mut self, cell: Cell) {
        self.cells.fill(cell);
    }

    /// The text of row `y` (glyphs only), for tests and logs.
    #[must_use]
    pub fn row_text(&self, y: u16) -> String {
        if y >= self.height {
            return String::new();
        }
        let w = usize::from(self.width);
        let start = usize::from(y) * w;
        self.cells[start..start + w].iter().map(|c| c.ch).collect()
    }

    /// The whole frame as text, one line per row (trailing spaces kept).
    #[must_use]
    pub fn to_text(&self) -> String {
        (0..self.height)
            .map(|y| self.row_text(y))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether any row contains `needle`.
    #[must_use]
    pub fn contains_text(&self, needle: &str) -> bool {
        (0..self.height).any(|y| self.row_text(y).contains(needle))
    }
}

/// A key, independent of any terminal or window library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Key {
    /// A printable character (already shifted: `'K'`, `'<'`, `'?'`).
    Char(char),
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Delete.
    Delete,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Insert.
    Insert,
    /// A function key `F1`…`F24`.
    F(u8),
    /// A keypad digit (numpad with Num Lock), for frontends that can tell it apart.
    /// Frontends that cannot send [`Key::Char`] digits instead; UIs treat both alike.
    Keypad(u8),
}

/// Modifier keys held with a key press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mods {
    /// Shift (not reported for [`Key::Char`], whose char is already shifted).
    pub shift: bool,
    /// Control.
    pub ctrl: bool,
    /// Alt / Option / Meta.
    pub alt: bool,
}

impl Mods {
    /// No modifier held.
    pub const NONE: Mods = Mods {
        shift: false,
        ctrl: false,
        alt: false,
    };
}

/// Everything a UI can receive from a frontend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// A key press (or auto-repeat while held). Releases are never reported.
    Key {
        /// Which key.
        key: Key,
        /// Modifiers held.
        mods: Mods,
    },
    /// The drawable area changed to `width × height` cells.
    Resize {
        /// New width in cells.
        width: u16,
        /// New height in cells.
        height: u16,
    },
    /// The user asked to close (window close button, SIGTERM-like request).
    Quit,
    /// A mouse event at cell (`x`, `y`) of the frame (column, row; 0-based).
    ///
    /// Frontends that cannot report the mouse never send it; UIs must stay fully usable
    /// from the keyboard.
    Mouse {
        /// What happened.
        kind: MouseKind,
        /// Column of the cell under the pointer.
        x: u16,
        /// Row of the cell under the pointer.
        y: u16,
        /// Modifiers held.
        mods: Mods,
    },
}

/// What a mouse did, for [`Input::Mouse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseKind {
    /// The pointer moved onto this cell (hover). Frontends report it once per new cell.
    Move,
    /// A button was pressed.
    Down(MouseButton),
    /// A button was released.
    Up(MouseButton),
    /// The wheel turned away from the user (scroll up).
    ScrollUp,
    /// The wheel turned towards the user (scroll down).
    ScrollDown,
}

/// A mouse button, for [`MouseKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseButton {
    /// The primary (usually left) button.
    Left,
    /// The secondary (usually right) button.
    Right,
    /// The middle button (or wheel click).
    Middle,
}

impl Input {
    /// A plain key press with no modifiers.
    #[must_use]
    pub const fn key(key: Key) -> Self {
        Input::Key {
            key,
            mods: Mods::NONE,
        }
    }

    /// A plain character key press.
    #[must_use]
    pub const fn ch(c: char) -> Self {
        Input::key(Key::Char(c))
    }

    /// A mouse event with no modifiers at cell (`x`, `y`).
    #[must_use]
    pub const fn mouse(kind: MouseKind, x: u16, y: u16) -> Self {
        Input::Mouse {
            kind,
            x,
            y,
            mods: Mods::NONE,
        }
    }
}

/// How many colours a frontend can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourDepth {
    /// 24-bit colour.
    TrueColour,
    /// The xterm 256-colour palette.
    Palette256,
    /// The 16 basic ANSI colours.
    Ansi16,
}

/// What a frontend must do: show frames, deliver inputs, report its size.
///
/// Implementations live in their own crates (`alembic-tui`, `alembic-pixels`); the engine and
/// the games never name a terminal or window library.
pub trait Frontend {
    /// The frontend's own error (I/O, windowing…).
    type Error: std::error::Error + 'static;

    /// Show `frame` (frontends may diff against the previous one).
    fn present(&mut self, frame: &Frame) -> Result<(), Self::Error>;

    /// Block until the next input, or until `timeout` passes (then `Ok(None)`).
    /// `None` timeout waits indefinitely.
    fn next_input(&mut self, timeout: Option<Duration>) -> Result<Option<Input>, Self::Error>;

    /// The drawable area in cells `(width, height)`.
    fn size(&self) -> Result<(u16, u16), Self::Error>;

    /// How many colours the frontend can show; shared code may pick palettes by it.
    fn colour_depth(&self) -> ColourDepth {
        ColourDepth::TrueColour
    }

    /// Set a window or terminal title, where the frontend has one. Default: ignored.
    fn set_title(&mut self, _title: &str) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Whether and how this frontend draws [`Tile`]s as pictures. Default: letters only.
    fn tile_support(&self) -> TileSupport {
        TileSupport::None
    }
}

/// What an [`App`] wants after handling an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// Keep running.
    Continue,
    /// Stop the run loop.
    Quit,
}

/// Shared UI code driven by [`run`]: draws frames and reacts to inputs.
pub trait App {
    /// Draw the current screen into `frame` (already sized to the frontend).
    fn render(&self, frame: &mut Frame);

    /// React to one input.
    fn handle(&mut self, input: Input) -> Control;

    /// How long the run loop may wait for input before calling [`App::tick`];
    /// `None` (the default) blocks until input arrives, costing no CPU while the player thinks.
    fn tick_interval(&self) -> Option<Duration> {
        None
    }

    /// Called when [`App::tick_interval`] passes without input. Default: nothing.
    fn tick(&mut self) -> Control {
        Control::Continue
    }

    /// What to tell the player once the session is over and the frontend has closed
    /// (terminal restored, window gone): `Ok(Some(line))` to print, such as where the game
    /// was saved; `Err(line)` when something failed on the way out, such as a save on close —
    /// frontends print it to stderr and exit non-zero. Default: nothing to say.
    fn farewell(&self) -> Result<Option<String>, String> {
        Ok(None)
    }

    /// The window or terminal title for the current screen (such as the game and the depth);
    /// [`run`] passes it to [`Frontend::set_title`] whenever it changes. Default: `None`,
    /// leaving the title alone.
    fn title(&self) -> Option<String> {
        None
    }
}

/// Drive `app` with `frontend` until the app or the frontend asks to quit.
///
/// Each round: size a frame to the frontend, render, present, then wait for input.
/// A [`Input::Quit`] from the frontend is first offered to the app (which may save), then
/// ends the loop.
///
/// When the frontend fails (its terminal hung up, its window vanished), the app is offered
/// [`Input::Quit`] as well — its last chance to save — before the error is returned.
pub fn run<F: Frontend, A: App + ?Sized>(frontend: &mut F, app: &mut A) -> Result<(), F::Error> {
    let result = run_until_error(frontend, app);
    if result.is_err() {
        let _ = app.handle(Input::Quit);
    }
    result
}

fn run_until_error<F: Frontend, A: App + ?Sized>(
    frontend: &mut F,
    app: &mut A,
) -> Result<(), F::Error> {
    let mut shown_title: Option<String> = None;
    loop {
        let title = app.title();
        if title.is_some() && title != shown_title {
            if let Some(t) = &title {
                frontend.set_title(t)?;
            }
            shown_title = title;
        }
        let (w, h) = frontend.size()?;
        let mut frame = Frame::new(w, h);
        frame.set_tiles(frontend.tile_support());
        frame.set_colour_depth(frontend.colour_depth());
        app.render(&mut frame);
        frontend.present(&frame)?;
        let control = match frontend.next_input(app.tick_interval())? {
            Some(Input::Quit) => {
                let _ = app.handle(Input::Quit);
                Control::Quit
            }
            Some(input) => app.handle(input),
            None => app.tick(),
        };
        if control == Control::Quit {
            return Ok(());
        }
    }
}

/// Error of the [`TestFrontend`]: the script ran out before the app quit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TestFrontendError {
    /// Every scripted input was consumed and the app asked for more.
    #[error("the scripted inputs ran out after {frames} frames")]
    ScriptExhausted {
        /// Frames presented before the script ran out.
        frames: usize,
    },
}

/// A headless frontend: replays a scripted list of inputs and records every frame.
///
/// ```
/// use alembic::Rgb;
/// use alembic_ui::{App, Control, Frame, Input, TestFrontend, run};
/// struct Counter(u32);
/// impl App for Counter {
///     fn render(&self, f: &mut Frame) {
///         f.put_str(0, 0, &format!("count {}", self.0), Rgb::WHITE, Rgb::BLACK);
///     }
///     fn handle(&mut self, i: Input) -> Control {
///         if i == Input::ch('q') { Control::Quit } else { self.0 += 1; Control::Continue }
///     }
/// }
/// let mut fe = TestFrontend::new(20, 2, [Input::ch('+'), Input::ch('+'), Input::ch('q')]);
/// run(&mut fe, &mut Counter(0)).unwrap();
/// assert!(fe.last_frame().unwrap().contains_text("count 2"));
/// ```
#[derive(Clone, Debug)]
pub struct TestFrontend {
    width: u16,
    height: u16,
    script: VecDeque<Input>,
    frames: Vec<Frame>,
    depth: ColourDepth,
    tiles: TileSupport,
    titles: Vec<String>,
    /// Keys wait for the app's ticks (animations) to finish; see [`TestFrontend::impatient`].
    patient: bool,
    /// Ticks given in a row since the last input.
    ticks: u32,
}

/// The most ticks a patient [`TestFrontend`] gives in a row before it delivers the next
/// input anyway (an app that always wants ticks would otherwise never see a key).
pub const TEST_TICK_LIMIT: u32 = 10_000;

impl TestFrontend {
    /// A `width × height` frontend that will deliver `script` in order.
    pub fn new(width: u16, height: u16, script: impl IntoIterator<Item = Input>) -> Self {
        TestFrontend {
            width,
            height,
            script: script.into_iter().collect(),
            frames: Vec::new(),
            depth: ColourDepth::TrueColour,
            tiles: TileSupport::None,
            titles: Vec::new(),
            patient: true,
            ticks: 0,
        }
    }

    /// Deliver each input at once, even while the app asks for ticks: a player who presses
    /// keys during an animation (to interrupt travel, say). By default the frontend is
    /// patient: while the app has a [`App::tick_interval`], it ticks (up to
    /// [`TEST_TICK_LIMIT`] in a row) before the next scripted input, as if the player
    /// waited for the animation to end.
    #[must_use]
    pub fn impatient(mut self) -> Self {
        self.patient = false;
        self
    }

    /// Pretend to draw [`Tile`]s as pictures.
    #[must_use]
    pub fn with_tiles(mut self, tiles: TileSupport) -> Self {
        self.tiles = tiles;
        self
    }

    /// Every title set so far, oldest first.
    #[must_use]
    pub fn titles(&self) -> &[String] {
        &self.titles
    }

    /// Pretend to show only this many colours.
    #[must_use]
    pub fn with_colour_depth(mut self, depth: ColourDepth) -> Self {
        self.depth = depth;
        self
    }

    /// Append more scripted inputs.
    pub fn push_inputs(&mut self, inputs: impl IntoIterator<Item = Input>) {
        self.script.extend(inputs);
    }

    /// Every frame presented so far.
    #[must_use]
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The latest frame presented.
    #[must_use]
    pub fn last_frame(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// Inputs not yet delivered.
    #[must_use]
    pub fn remaining_inputs(&self) -> usize {
        self.script.len()
    }
}

impl Frontend for TestFrontend {
    type Error = TestFrontendError;

    fn present(&mut self, frame: &Frame) -> Result<(), Self::Error> {
        self.frames.push(frame.clone());
        Ok(())
    }

    fn next_input(&mut self, timeout: Option<Duration>) -> Result<Option<Input>, Self::Error> {
        if self.patient && timeout.is_some() && self.ticks < TEST_TICK_LIMIT {
            self.ticks += 1;
            return Ok(None);
        }
        self.ticks = 0;
        match self.script.pop_front() {
            Some(Input::Resize { width, height }) => {
                self.width = width;
                self.height = height;
                Ok(Some(Input::Resize { width, height }))
            }
            Some(i) => Ok(Some(i)),
            None => Err(TestFrontendError::ScriptExhausted {
                frames: self.frames.len(),
            }),
        }
    }

    fn size(&self) -> Result<(u16, u16), Self::Error> {
        Ok((self.width, self.height))
    }

    fn colour_depth(&self) -> ColourDepth {
        self.depth
    }

    fn set_title(&mut self, title: &str) -> Result<(), Self::Error> {
        self.titles.push(title.to_owned());
        Ok(())
    }

    fn tile_support(&self) -> TileSupport {
        self.tiles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_and_span_round_trips_and_plain_text_is_not_a_tile() {
        let mut tiles: Vec<Tile> = PLAIN_TILES.to_vec();
        tiles.extend((b'!'..=b'~').map(|b| Tile::Creature(char::from(b))));
        tiles.extend(['a', '%', '≈', '♣', '─', '·', 'é'].map(Tile::Glyph));
        let mut seen = std::collections::HashSet::new();
        for t in tiles {
            for span in [TileSpan::Whole, TileSpan::Left, TileSpan::Right] {
                let c = t.to_char_in(span);
                assert!(seen.insert(c), "{t:?} {span:?} shares a code");
                assert_eq!(Tile::decode(c), Some((t, span)));
            }
        }
        // Out of range letters become '?', never a wrong tile.
        assert_eq!(
            Tile::decode(Tile::Creature('é').to_char()),
            Some((Tile::Creature('?'), TileSpan::Whole))
        );
        assert_eq!(
            Tile::decode(Tile::Glyph('漢').to_char()),
            Some((Tile::Glyph('?'), TileSpan::Whole))
        );
        for c in [
            'a',
            '@',
            ' ',
            '\u{E000}',
            '\u{F0000}',
            '\u{10FFFD}',
            char::MAX,
        ] {
            assert_eq!(Tile::decode(c), None, "{c:?}");
        }
    }

    #[test]
    fn run_passes_tile_support_and_titles_to_the_frontend() {
        struct Titled(u32);
        impl App for Titled {
            fn render(&self, f: &mut Frame) {
                let s = format!("{:?}", f.tiles());
                f.put_str(0, 0, &s, Rgb::WHITE, Rgb::BLACK);
            }
            fn handle(&mut self, i: Input) -> Control {
                self.0 += 1;
                if i == Input::ch('q') {
                    Control::Quit
                } else {
                    Control::Continue
                }
            }
            fn title(&self) -> Option<String> {
                Some(format!("depth {}", self.0 / 2))
            }
        }
        let script = [
            Input::ch('a'),
            Input::ch('b'),
            Input::ch('c'),
            Input::ch('q'),
        ];
        let mut fe = TestFrontend::new(10, 1, script).with_tiles(TileSupport::Double);
        run(&mut fe, &mut Titled(0)).unwrap();
        assert!(fe.last_frame().unwrap().contains_text("Double"));
        // Set once per change, not once per frame.
        assert_eq!(fe.titles(), ["depth 0", "depth 1"]);
    }

    #[test]
    fn frame_writes_clip() {
        let mut f = Frame::new(4, 2);
        f.put_str(2, 0, "abc", Rgb::WHITE, Rgb::BLACK);
        f.put(-1, 0, Cell::default());
        f.put(0, 9, Cell::default());
        assert_eq!(f.row_text(0), "  ab");
        assert_eq!(f.row_text(5), "");
        assert!(f.get(4, 0).is_none());
    }

    #[test]
    fn test_frontend_resizes_and_reports_exhaustion() {
        struct Echo;
        impl App for Echo {
            fn render(&self, f: &mut Frame) {
                let (w, h) = (f.width(), f.height());
                f.put_str(0, 0, &format!("{w}x{h}"), Rgb::WHITE, Rgb::BLACK);
            }
            fn handle(&mut self, _: Input) -> Control {
                Control::Continue
            }
        }
        let mut fe = TestFrontend::new(
            10,
            3,
            [Input::Resize {
                width: 12,
                height: 4,
            }],
        );
        let err = run(&mut fe, &mut Echo).unwrap_err();
        assert_eq!(err, TestFrontendError::ScriptExhausted { frames: 2 });
        assert!(fe.frames()[0].contains_text("10x3"));
        assert!(fe.frames()[1].contains_text("12x4"));
    }

    #[test]
    fn a_failing_frontend_still_lets_the_app_save() {
        struct Saver(Vec<Input>);
        impl App for Saver {
            fn render(&self, _frame: &mut Frame) {}
            fn handle(&mut self, input: Input) -> Control {
                self.0.push(input);
                Control::Continue
            }
        }
        let mut fe = TestFrontend::new(10, 2, [Input::ch('a')]);
        let mut app = Saver(Vec::new());
        assert!(run(&mut fe, &mut app).is_err());
        assert_eq!(app.0, vec![Input::ch('a'), Input::Quit]);
    }
}
