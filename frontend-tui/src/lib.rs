//! The terminal frontend for Alembic: draws an [`alembic_ui::Frame`] with ratatui (whose buffer
//! diffing means no flicker) and turns crossterm key events into [`alembic_ui::Input`]s.
//!
//! As a library it holds no game code and depends only on `alembic-ui` (and the engine) and
//! ratatui, which it re-exports ([`ratatui`]). [`run_app`] plays any [`alembic_ui::App`] in
//! the terminal: it sets the terminal up, restores it on exit, on error and on panic, and
//! returns the app's output (generic: what the caller makes of the app at the end); [`Tui`] does the same with options (colour depth, a stop
//! flag for signals, a title). The binary (feature `bin`, on by default) adds the games of
//! `alembic-games` and the command line; depend on this crate with
//! `default-features = false` to leave them out.
//!
//! ```no_run
//! use alembic_ui::{App, Control, Frame, Input, Rgb};
//!
//! struct Hello;
//! impl App for Hello {
//!     fn render(&mut self, frame: &mut Frame) {
//!         frame.put_str(0, 0, "Hello! Any key quits.", Rgb::WHITE, Rgb::BLACK);
//!     }
//!     fn handle(&mut self, _input: Input) -> Control {
//!         Control::Quit
//!     }
//! }
//! alembic_tui::run_app(Hello)?;
//! # Ok::<(), alembic_ui::SessionError<(), std::io::Error>>(())
//! ```
//!
//! The pieces that do not need a real terminal — [`draw_frame`], [`map_event`],
//! [`rgb_to_colour`], [`rgb_to_ansi256`] — are public so tests and benchmarks can use them
//! headless.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use alembic::Rgb;
use alembic_ui::{
    App, ColourDepth, Frame, Frontend, Input, Key, Mods, MouseButton, MouseKind, SessionError,
};
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyEventState, KeyModifiers, MouseButton as CtButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::{DefaultTerminal, Terminal};

/// The ratatui this frontend draws with, so a library user names the same version.
pub use ratatui;

#[cfg(unix)]
#[cfg(feature = "bin")]
mod games;
mod hangup;
#[cfg(feature = "bin")]
pub use games::run_games;

/// What [`run_app`] returns when the terminal failed (the toolkit's type).
pub use alembic_ui::SessionError as TuiSessionError;

/// The smallest terminal the games are laid out for; below it an "enlarge" screen shows.
pub const MIN_WIDTH: u16 = 80;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 24;

// ---------------------------------------------------------------------------------------------
// Colours

/// The colour depth a terminal advertises through `COLORTERM`: `truecolor` or `24bit` mean
/// 24-bit colour; anything else (or unset) gets the 256-colour palette.
#[must_use]
pub fn detect_colour_depth(colorterm: Option<&str>) -> ColourDepth {
    match colorterm.map(|s| s.trim().to_ascii_lowercase()) {
        Some(s) if s == "truecolor" || s == "24bit" => ColourDepth::TrueColour,
        _ => ColourDepth::Palette256,
    }
}

/// The six channel levels of the xterm 6×6×6 colour cube (indices 16–231).
const CUBE_LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn nearest_cube_level(v: u8) -> usize {
    // Midpoints between the levels: 47.5, 115, 155, 195, 235.
    match v {
        0..=47 => 0,
        48..=114 => 1,
        115..=154 => 2,
        155..=194 => 3,
        195..=234 => 4,
        _ => 5,
    }
}

fn dist2(a: Rgb, b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| {
        let d = i32::from(x) - i32::from(y);
        (d * d) as u32
    };
    d(a.r, b.0) + d(a.g, b.1) + d(a.b, b.2)
}

/// The nearest xterm-256 palette index to `c`: the closer of the nearest colour-cube entry
/// (16–231) and the nearest grey-ramp entry (232–255, greys 8, 18, … 238). The 16 system
/// colours are never chosen, since terminals theme them freely.
#[must_use]
pub fn rgb_to_ansi256(c: Rgb) -> u8 {
    let (ri, gi, bi) = (
        nearest_cube_level(c.r),
        nearest_cube_level(c.g),
        nearest_cube_level(c.b),
    );
    let cube = (CUBE_LEVELS[ri], CUBE_LEVELS[gi], CUBE_LEVELS[bi]);
    let cube_index = 16 + 36 * ri + 6 * gi + bi;
    let avg = (u32::from(c.r) + u32::from(c.g) + u32::from(c.b)) / 3;
    let step = if avg < 8 {
        0
    } else {
        ((avg - 8 + 5) / 10).min(23)
    };
    let grey = (8 + 10 * step) as u8;
    if dist2(c, (grey, grey, grey)) < dist2(c, cube) {
        (232 + step) as u8
    } else {
        cube_index as u8
    }
}

/// The xterm default RGB values of the 16 ANSI colours, in index order.
const ANSI16: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

const ANSI16_COLOURS: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// The nearest of the 16 basic ANSI colours (by their xterm defaults), as its index 0–15.
#[must_use]
pub fn rgb_to_ansi16(c: Rgb) -> u8 {
    let mut best = 0;
    for (i, &p) in ANSI16.iter().enumerate() {
        if dist2(c, p) < dist2(c, ANSI16[best]) {
            best = i;
        }
    }
    best as u8
}

/// The colour a terminal of `depth` shows for `c`, after rounding to its palette (the xterm
/// defaults for the 16 ANSI colours): what palette contrast checks must measure.
#[must_use]
pub fn shown_rgb(c: Rgb, depth: ColourDepth) -> Rgb {
    match depth {
        ColourDepth::TrueColour => c,
        ColourDepth::Palette256 => {
            let i = rgb_to_ansi256(c);
            if i >= 232 {
                let g = 8 + 10 * (i - 232);
                Rgb::new(g, g, g)
            } else {
                let i = usize::from(i.saturating_sub(16));
                Rgb::new(
                    CUBE_LEVELS[i / 36],
                    CUBE_LEVELS[i / 6 % 6],
                    CUBE_LEVELS[i % 6],
                )
            }
        }
        ColourDepth::Ansi16 => {
            let (r, g, b) = ANSI16[usize::from(rgb_to_ansi16(c))];
            Rgb::new(r, g, b)
        }
    }
}

/// `c` as a ratatui colour for a terminal of the given depth.
#[must_use]
pub fn rgb_to_colour(c: Rgb, depth: ColourDepth) -> Color {
    match depth {
        ColourDepth::TrueColour => Color::Rgb(c.r, c.g, c.b),
        ColourDepth::Palette256 => Color::Indexed(rgb_to_ansi256(c)),
        ColourDepth::Ansi16 => ANSI16_COLOURS[usize::from(rgb_to_ansi16(c))],
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing

/// Copy `frame` into `buf` at the buffer's origin, clipped to their overlap; cells of `buf`
/// outside the frame are reset. Control characters (which would corrupt the terminal) are
/// drawn as `?`.
pub fn draw_frame(frame: &Frame, buf: &mut Buffer, depth: ColourDepth) {
    let area: Rect = buf.area;
    let aw = usize::from(area.width);
    let fw = usize::from(frame.width().min(area.width));
    let fh = usize::from(frame.height().min(area.height));
    let cells = frame.cells();
    let stride = usize::from(frame.width());
    // Neighbouring cells usually share colours: convert each run once (fg and bg apart, as
    // they alternate).
    let mut fg_cache: Option<(Rgb, Color)> = None;
    let mut bg_cache: Option<(Rgb, Color)> = None;
    let conv = |cache: &mut Option<(Rgb, Color)>, c: Rgb| match *cache {
        Some((k, v)) if k == c => v,
        _ => {
            let v = rgb_to_colour(c, depth);
            *cache = Some((c, v));
            v
        }
    };
    for (y, row) in buf.content.chunks_mut(aw.max(1)).enumerate() {
        for (x, out) in row.iter_mut().enumerate() {
            if x >= fw || y >= fh {
                out.reset();
                continue;
            }
            let c = cells[y * stride + x];
            let ch = if c.ch.is_control() { '?' } else { c.ch };
            out.set_char(ch);
            out.fg = conv(&mut fg_cache, c.fg);
            out.bg = conv(&mut bg_cache, c.bg);
            out.modifier = Modifier::empty();
        }
    }
}

/// Draw `frame` on any ratatui terminal (a real one, or one over `TestBackend` in tests).
///
/// # Errors
/// The backend's write errors.
pub fn present_on<B: Backend>(
    terminal: &mut Terminal<B>,
    frame: &Frame,
    depth: ColourDepth,
) -> Result<(), B::Error> {
    terminal.draw(|f| draw_frame(frame, f.buffer_mut(), depth))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Input

/// A crossterm event as an engine input, or `None` for events the games ignore (key
/// releases, focus, paste, sideways scrolling). Ctrl-C becomes [`Input::Quit`], since raw
/// mode turns off the terminal's own interrupt.
#[must_use]
pub fn map_event(ev: &Event) -> Option<Input> {
    match ev {
        Event::Key(k) => map_key_event(k),
        Event::Resize(width, height) => Some(Input::Resize {
            width: *width,
            height: *height,
        }),
        Event::Mouse(m) => map_mouse_event(m),
        _ => None,
    }
}

/// A crossterm mouse event as an engine input (drags count as moves).
#[must_use]
pub fn map_mouse_event(m: &MouseEvent) -> Option<Input> {
    let button = |b: CtButton| match b {
        CtButton::Left => MouseButton::Left,
        CtButton::Right => MouseButton::Right,
        CtButton::Middle => MouseButton::Middle,
    };
    let kind = match m.kind {
        MouseEventKind::Down(b) => MouseKind::Down(button(b)),
        MouseEventKind::Up(b) => MouseKind::Up(button(b)),
        MouseEventKind::Drag(_) | MouseEventKind::Moved => MouseKind::Move,
        MouseEventKind::ScrollUp => MouseKind::ScrollUp,
        MouseEventKind::ScrollDown => MouseKind::ScrollDown,
        MouseEventKind::ScrollLeft | MouseEventKind::ScrollRight => return None,
    };
    Some(Input::Mouse {
        kind,
        x: m.column,
        y: m.row,
        mods: Mods {
            shift: m.modifiers.contains(KeyModifiers::SHIFT),
            ctrl: m.modifiers.contains(KeyModifiers::CONTROL),
            alt: m.modifiers.contains(KeyModifiers::ALT),
        },
    })
}

/// Set the terminal up for a game: raw mode, the alternate screen and mouse reporting, with
/// a panic hook that undoes all three before the panic message prints.
///
/// # Errors
/// The terminal could not be set up; call [`restore_terminal`] and report it.
pub fn init_terminal() -> io::Result<DefaultTerminal> {
    let terminal = ratatui::try_init()?;
    ratatui::crossterm::execute!(io::stdout(), EnableMouseCapture)?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = ratatui::crossterm::execute!(io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    Ok(terminal)
}

/// Undo [`init_terminal`]: mouse reporting off, raw mode off, main screen back. Safe to call
/// more than once, and when the terminal is gone: each step is tried whatever the others
/// did, and nothing is printed (`ratatui::restore` prints its failure with `eprintln!`,
/// which panics when stderr is that lost terminal).
pub fn restore_terminal() {
    let _ = ratatui::crossterm::execute!(io::stdout(), DisableMouseCapture);
    let _ = ratatui::crossterm::terminal::disable_raw_mode();
    let _ = ratatui::crossterm::execute!(
        io::stdout(),
        ratatui::crossterm::terminal::LeaveAlternateScreen
    );
}

/// A crossterm key event as an engine input. Only presses and auto-repeats count (terminals
/// with the kitty protocol also report releases; acting on those would double every key).
#[must_use]
pub fn map_key_event(k: &KeyEvent) -> Option<Input> {
    if !matches!(k.kind, KeyEventKind::Press | KeyEventKind::Repeat) {
        return None;
    }
    let mut mods = Mods {
        shift: k.modifiers.contains(KeyModifiers::SHIFT),
        ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
        alt: k.modifiers.contains(KeyModifiers::ALT),
    };
    let key = match k.code {
        KeyCode::Char(c) => {
            if mods.ctrl && !mods.alt && matches!(c, 'c' | 'C') {
                return Some(Input::Quit);
            }
            // The char is already shifted.
            mods.shift = false;
            match c.to_digit(10) {
                Some(d) if k.state.contains(KeyEventState::KEYPAD) => Key::Keypad(d as u8),
                _ => Key::Char(c),
            }
        }
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => {
            mods.shift = true;
            Key::Tab
        }
        KeyCode::Delete => Key::Delete,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Insert => Key::Insert,
        KeyCode::F(n) => Key::F(n),
        // Numpad 5 without Num Lock.
        KeyCode::KeypadBegin => Key::Keypad(5),
        _ => return None,
    };
    Some(Input::Key { key, mods })
}

// ---------------------------------------------------------------------------------------------
// The frontend

/// [`alembic_ui::Frontend`] over a real terminal (ratatui's crossterm backend on stdout).
///
/// Create the terminal with [`init_terminal`] (raw mode, alternate screen, mouse, a panic
/// hook that restores the terminal) and call [`restore_terminal`] when done.
///
/// A terminal that goes away (its window closed, its connection dropped) is an error of
/// [`io::ErrorKind::BrokenPipe`] from [`Frontend::next_input`], within 50 ms of the
/// hang-up, whether or not a SIGHUP came with it: [`alembic_ui::run`] then offers the app
/// [`Input::Quit`], so it saves, and returns the error. (On Unix, when stdin is the terminal:
/// the frontend watches it for the hang-up, since crossterm alone reads its end-of-file in
/// a loop for ever.) Writes that fail end the session the same way.
pub struct TuiFrontend {
    /// Always `Some` until dropped (see the `Drop`).
    terminal: Option<DefaultTerminal>,
    depth: ColourDepth,
    stop: Option<Arc<AtomicUsize>>,
    #[cfg(unix)]
    hangup: Option<hangup::HangupWatch>,
}

/// How often a frontend looks at its stop flag, and whether its terminal hung up, while
/// waiting for input.
const STOP_POLL: Duration = Duration::from_millis(50);

impl TuiFrontend {
    /// Wrap an initialised terminal that shows `depth` colours, and start watching it for a
    /// hang-up (on Unix, when stdin is the terminal; a watcher that cannot start, for want
    /// of a thread or a descriptor, leaves the terminal's own errors to end the session).
    #[must_use]
    pub fn new(terminal: DefaultTerminal, depth: ColourDepth) -> Self {
        TuiFrontend {
            terminal: Some(terminal),
            depth,
            stop: None,
            #[cfg(unix)]
            hangup: hangup::HangupWatch::stdin().ok().flatten(),
        }
    }

    /// Deliver [`Input::Quit`] as soon as `stop` holds a non-zero value — set by a signal
    /// handler (e.g. `signal_hook::flag::register_usize`), so SIGTERM or SIGHUP end the
    /// session the way closing it does: the app saves, the terminal is restored.
    #[must_use]
    pub fn with_stop_flag(mut self, stop: Arc<AtomicUsize>) -> Self {
        self.stop = Some(stop);
        self
    }

    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::SeqCst) != 0)
    }

    /// Whether anything must be looked at every [`STOP_POLL`] while waiting for input.
    fn watching(&self) -> bool {
        #[cfg(unix)]
        if self.hangup.is_some() {
            return true;
        }
        self.stop.is_some()
    }

    /// The terminal hung up: the error that ends the session.
    fn lost(&self) -> Option<io::Error> {
        #[cfg(unix)]
        if self.hangup.as_ref().is_some_and(hangup::HangupWatch::lost) {
            return Some(terminal_lost());
        }
        None
    }
}

impl Drop for TuiFrontend {
    fn drop(&mut self) {
        // ratatui's terminal shows the cursor again when dropped, and prints a failure with
        // `eprintln!`, which panics when stderr is the terminal that is gone. Show it here
        // instead; if that fails, the terminal is forgotten rather than dropped (its small
        // buffer leaks, once, as the session ends).
        if let Some(mut terminal) = self.terminal.take()
            && terminal.show_cursor().is_err()
        {
            std::mem::forget(terminal);
        }
    }
}

/// The error a session ends with when its terminal is gone.
fn terminal_lost() -> io::Error {
    io::Error::new(
        io::ErrorKind::BrokenPipe,
        "the terminal is gone (it hung up); the session ended there",
    )
}

impl Frontend for TuiFrontend {
    type Error = io::Error;

    fn present(&mut self, frame: &Frame) -> Result<(), io::Error> {
        let terminal = self.terminal.as_mut().ok_or_else(terminal_lost)?;
        present_on(terminal, frame, self.depth)
    }

    fn next_input(&mut self, timeout: Option<Duration>) -> Result<Option<Input>, io::Error> {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            if self.stop_requested() {
                return Ok(Some(Input::Quit));
            }
            if let Some(e) = self.lost() {
                return Err(e);
            }
            // Blocks in the OS (no busy loop) until an event or the deadline; with a stop
            // flag or a hang-up watcher, wakes every STOP_POLL to look at them.
            let wait = match (deadline, self.watching()) {
                (Some(d), true) => Some(d.saturating_duration_since(Instant::now()).min(STOP_POLL)),
                (Some(d), false) => Some(d.saturating_duration_since(Instant::now())),
                (None, true) => Some(STOP_POLL),
                (None, false) => None,
            };
            if let Some(wait) = wait
                && !event::poll(wait)?
            {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(None);
                }
                continue;
            }
            if let Some(input) = map_event(&event::read()?) {
                return Ok(Some(input));
            }
        }
    }

    fn size(&self) -> Result<(u16, u16), io::Error> {
        let s = self.terminal.as_ref().ok_or_else(terminal_lost)?.size()?;
        Ok((s.width, s.height))
    }

    fn colour_depth(&self) -> ColourDepth {
        self.depth
    }

    fn set_title(&mut self, title: &str) -> Result<(), io::Error> {
        ratatui::crossterm::execute!(io::stdout(), ratatui::crossterm::terminal::SetTitle(title))
    }
}

// ---------------------------------------------------------------------------------------------
// A whole session

/// Play `app` in this process's terminal with the defaults of [`Tui::new`]: set the terminal
/// up (raw mode, alternate screen, mouse), drive the app with [`alembic_ui::run`] until it
/// quits, and restore the terminal whether the app quit, the terminal failed or the app
/// panicked. The common case; [`run_app_then`] also returns what the app ends with.
///
/// # Errors
/// [`SessionError`]: the terminal could not be set up or failed during the session (the
/// app was offered [`Input::Quit`] first, so it could save).
pub fn run_app<A: App>(app: A) -> Result<(), SessionError<(), io::Error>> {
    run_app_then(app, |_| ())
}

/// [`run_app`], returning the app's output: what `output` makes of the app at the end
/// (`ScreenStack::into_ctx`, [`App::farewell`]).
///
/// # Errors
/// As [`run_app`]; the app's output is inside the error all the same.
pub fn run_app_then<A: App, T>(
    app: A,
    output: impl FnOnce(A) -> T,
) -> Result<T, SessionError<T, io::Error>> {
    Tui::new().run_to_end(app, output)
}

/// A terminal session with options; [`run_app_then`] is `Tui::new().run_to_end(app, output)`.
#[derive(Clone, Debug)]
pub struct Tui {
    depth: ColourDepth,
    stop: Option<Arc<AtomicUsize>>,
    title: Option<String>,
}

impl Default for Tui {
    fn default() -> Self {
        Tui::new()
    }
}

impl Tui {
    /// The colour depth the terminal advertises (`COLORTERM`, [`detect_colour_depth`]), no
    /// stop flag, the title left alone.
    #[must_use]
    pub fn new() -> Self {
        Tui {
            depth: detect_colour_depth(std::env::var("COLORTERM").ok().as_deref()),
            stop: None,
            title: None,
        }
    }

    /// Draw with `depth` colours whatever the terminal says.
    #[must_use]
    pub fn with_colour_depth(mut self, depth: ColourDepth) -> Self {
        self.depth = depth;
        self
    }

    /// End the session as if the player closed it once `stop` holds a non-zero value
    /// ([`TuiFrontend::with_stop_flag`]): set it from a signal handler.
    #[must_use]
    pub fn with_stop_flag(mut self, stop: Arc<AtomicUsize>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Set the terminal's title at the start (the app's own [`App::title`] replaces it).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Play `app` to its end and return its output; see [`run_app`].
    ///
    /// # Errors
    /// As [`run_app`].
    pub fn run_to_end<A: App, T>(
        self,
        mut app: A,
        output: impl FnOnce(A) -> T,
    ) -> Result<T, SessionError<T, io::Error>> {
        match self.run(&mut app) {
            Ok(()) => Ok(output(app)),
            Err(error) => Err(SessionError {
                error,
                output: output(app),
            }),
        }
    }

    /// Play the lent `app` until it quits, restoring the terminal on return, error and
    /// panic; the app's result stays in it. [`Tui::run_to_end`] returns it instead.
    ///
    /// # Errors
    /// The terminal could not be set up or failed (the app was offered [`Input::Quit`]).
    pub fn run<A: App + ?Sized>(self, app: &mut A) -> io::Result<()> {
        // Restores the terminal when the session ends, by return or by unwinding panic.
        struct Restore;
        impl Drop for Restore {
            fn drop(&mut self) {
                restore_terminal();
            }
        }
        let _restore = Restore;
        let terminal = init_terminal()?;
        let mut frontend = TuiFrontend::new(terminal, self.depth);
        if let Some(stop) = self.stop {
            frontend = frontend.with_stop_flag(stop);
        }
        if let Some(title) = &self.title {
            // A terminal without titles is no reason to stop.
            let _ = frontend.set_title(title);
        }
        alembic_ui::run(&mut frontend, app)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic_ui::{App, Cell, MinSize, TestFrontend, run};
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::KeyEventState;

    fn key(code: KeyCode, mods: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, mods))
    }

    #[test]
    fn keys_map_to_engine_inputs() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            map_event(&key(KeyCode::Char('k'), none)),
            Some(Input::ch('k'))
        );
        // Shifted chars arrive shifted; SHIFT is dropped for them.
        assert_eq!(
            map_event(&key(KeyCode::Char('Q'), KeyModifiers::SHIFT)),
            Some(Input::ch('Q'))
        );
        assert_eq!(
            map_event(&key(KeyCode::Up, none)),
            Some(Input::key(Key::Up))
        );
        assert_eq!(
            map_event(&key(KeyCode::F(5), none)),
            Some(Input::key(Key::F(5)))
        );
        assert_eq!(
            map_event(&key(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Input::Key {
                key: Key::Tab,
                mods: Mods {
                    shift: true,
                    ..Mods::NONE
                }
            })
        );
        assert_eq!(
            map_event(&key(KeyCode::Char('x'), KeyModifiers::CONTROL)),
            Some(Input::Key {
                key: Key::Char('x'),
                mods: Mods {
                    ctrl: true,
                    ..Mods::NONE
                }
            })
        );
        assert_eq!(
            map_event(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Input::Quit)
        );
        assert_eq!(
            map_event(&key(KeyCode::KeypadBegin, none)),
            Some(Input::key(Key::Keypad(5)))
        );
        let kp = Event::Key(KeyEvent::new_with_kind_and_state(
            KeyCode::Char('7'),
            none,
            KeyEventKind::Press,
            KeyEventState::KEYPAD,
        ));
        assert_eq!(map_event(&kp), Some(Input::key(Key::Keypad(7))));
        assert_eq!(
            map_event(&Event::Resize(100, 30)),
            Some(Input::Resize {
                width: 100,
                height: 30
            })
        );
        assert_eq!(map_event(&Event::FocusGained), None);
        let mouse = |kind, modifiers| {
            Event::Mouse(MouseEvent {
                kind,
                column: 7,
                row: 3,
                modifiers,
            })
        };
        assert_eq!(
            map_event(&mouse(
                MouseEventKind::Down(CtButton::Left),
                KeyModifiers::NONE
            )),
            Some(Input::mouse(MouseKind::Down(MouseButton::Left), 7, 3))
        );
        assert_eq!(
            map_event(&mouse(MouseEventKind::Moved, KeyModifiers::NONE)),
            Some(Input::mouse(MouseKind::Move, 7, 3))
        );
        assert_eq!(
            map_event(&mouse(MouseEventKind::ScrollDown, KeyModifiers::SHIFT)),
            Some(Input::Mouse {
                kind: MouseKind::ScrollDown,
                x: 7,
                y: 3,
                mods: Mods {
                    shift: true,
                    ..Mods::NONE
                }
            })
        );
        assert_eq!(
            map_event(&mouse(MouseEventKind::ScrollLeft, KeyModifiers::NONE)),
            None
        );
    }

    #[test]
    fn only_presses_and_repeats_count() {
        let ev = |kind| {
            Event::Key(KeyEvent::new_with_kind(
                KeyCode::Char('j'),
                KeyModifiers::NONE,
                kind,
            ))
        };
        assert_eq!(map_event(&ev(KeyEventKind::Press)), Some(Input::ch('j')));
        assert_eq!(map_event(&ev(KeyEventKind::Repeat)), Some(Input::ch('j')));
        assert_eq!(map_event(&ev(KeyEventKind::Release)), None);
    }

    #[test]
    fn colour_depth_from_colorterm() {
        assert_eq!(
            detect_colour_depth(Some("truecolor")),
            ColourDepth::TrueColour
        );
        assert_eq!(detect_colour_depth(Some("24bit")), ColourDepth::TrueColour);
        assert_eq!(detect_colour_depth(Some("")), ColourDepth::Palette256);
        assert_eq!(detect_colour_depth(None), ColourDepth::Palette256);
    }

    #[test]
    fn palette_256_mapping_picks_nearest_cube_or_grey() {
        assert_eq!(rgb_to_ansi256(Rgb::new(0, 0, 0)), 16);
        assert_eq!(rgb_to_ansi256(Rgb::new(255, 255, 255)), 231);
        assert_eq!(rgb_to_ansi256(Rgb::new(255, 0, 0)), 196);
        assert_eq!(rgb_to_ansi256(Rgb::new(0, 0, 255)), 21);
        assert_eq!(rgb_to_ansi256(Rgb::new(95, 135, 175)), 16 + 36 + 12 + 3);
        // Greys land on the finer grey ramp.
        assert_eq!(rgb_to_ansi256(Rgb::new(128, 128, 128)), 244);
        assert_eq!(rgb_to_ansi256(Rgb::new(18, 18, 18)), 233);
        assert_eq!(rgb_to_ansi256(Rgb::new(238, 238, 238)), 255);
        // A near-grey warm colour still picks the best of the two.
        assert_eq!(rgb_to_ansi256(Rgb::new(130, 125, 120)), 244);
        // Brute force: the choice is optimal over cube + ramp for a sweep of colours.
        let entry = |i: u8| -> (u8, u8, u8) {
            if i >= 232 {
                let g = 8 + 10 * (i - 232);
                (g, g, g)
            } else {
                let i = i - 16;
                (
                    CUBE_LEVELS[usize::from(i / 36)],
                    CUBE_LEVELS[usize::from(i / 6 % 6)],
                    CUBE_LEVELS[usize::from(i % 6)],
                )
            }
        };
        for r in (0..=255).step_by(17) {
            for g in (0..=255).step_by(15) {
                for b in (0..=255).step_by(51) {
                    let c = Rgb::new(r, g, b);
                    let got = dist2(c, entry(rgb_to_ansi256(c)));
                    let best = (16..=255).map(|i| dist2(c, entry(i))).min().unwrap();
                    assert_eq!(got, best, "{c:?}");
                }
            }
        }
    }

    #[test]
    fn colour_conversion_by_depth() {
        let c = Rgb::new(10, 200, 30);
        assert_eq!(
            rgb_to_colour(c, ColourDepth::TrueColour),
            Color::Rgb(10, 200, 30)
        );
        assert_eq!(
            rgb_to_colour(c, ColourDepth::Palette256),
            Color::Indexed(rgb_to_ansi256(c))
        );
        assert_eq!(rgb_to_colour(c, ColourDepth::Ansi16), Color::Green);
        assert_eq!(
            rgb_to_colour(Rgb::new(250, 250, 240), ColourDepth::Ansi16),
            Color::White
        );
    }

    #[test]
    fn frame_to_buffer_copies_glyphs_and_colours_and_clips() {
        let mut f = Frame::new(6, 2);
        f.put_str(0, 0, "@.#", Rgb::new(255, 0, 0), Rgb::new(0, 0, 255));
        f.put(
            5,
            1,
            Cell {
                ch: '\u{1b}',
                ..Cell::default()
            },
        );
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 3));
        draw_frame(&f, &mut buf, ColourDepth::TrueColour);
        let c = &buf[(0, 0)];
        assert_eq!(c.symbol(), "@");
        assert_eq!(c.fg, Color::Rgb(255, 0, 0));
        assert_eq!(c.bg, Color::Rgb(0, 0, 255));
        assert_eq!(buf[(2, 0)].symbol(), "#");
        // Row 2 lies outside the frame: reset.
        assert_eq!(buf[(0, 2)].symbol(), " ");
        assert_eq!(buf[(0, 2)].fg, Color::Reset);

        // A control char never reaches the terminal.
        let mut wide = Buffer::empty(Rect::new(0, 0, 6, 2));
        draw_frame(&f, &mut wide, ColourDepth::Palette256);
        assert_eq!(wide[(5, 1)].symbol(), "?");
        assert_eq!(wide[(0, 0)].fg, Color::Indexed(196));
    }

    /// The rats' game of seed 1, playing at once, saving in a directory of its own (never
    /// the player's saves).
    fn rats_at_once(name: &str) -> Box<dyn App> {
        let dir = std::env::temp_dir().join(format!("alembic-tui-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let host = alembic_games::GAMES
            .iter()
            .find(|g| g.name == "rats")
            .and_then(|g| g.host)
            .unwrap();
        host(&alembic_games::host::HostOptions {
            save: dir.join("rats.save"),
            seed: 1,
            tiles: None,
            replay: None,
            kept: None,
            flush_appends: false,
            cadence: alembic_games::run::Cadence::default(),
        })
        .unwrap()
    }

    #[test]
    fn a_game_through_test_backend() {
        let mut app = rats_at_once("backend");
        let mut frame = Frame::new(100, 30);
        app.render(&mut frame);
        let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
        present_on(&mut term, &frame, ColourDepth::TrueColour).unwrap();
        let buf = term.backend().buffer();
        let text: String = buf.content().iter().map(|c| c.symbol()).collect();
        assert!(text.contains("Turn 0"), "{text}");
    }

    #[test]
    fn small_terminal_shows_enlarge_screen_through_test_backend() {
        let app = rats_at_once("enlarge");
        let mut app = MinSize::new(app, MIN_WIDTH, MIN_HEIGHT).with_noun("terminal");
        // A key while too small does nothing; after growing, the game shows.
        let mut fe = TestFrontend::new(
            40,
            10,
            [
                Input::ch('Q'),
                Input::Resize {
                    width: 80,
                    height: 24,
                },
                Input::ch('Q'),
                Input::key(Key::Esc),
                Input::ch('S'),
            ],
        );
        run(&mut fe, &mut app).unwrap();
        let small = &fe.frames()[0];
        let mut term = Terminal::new(TestBackend::new(40, 10)).unwrap();
        present_on(&mut term, small, ColourDepth::Palette256).unwrap();
        let lines: Vec<String> = (0..10)
            .map(|y| {
                (0..40)
                    .map(|x| term.backend().buffer()[(x, y)].symbol().to_string())
                    .collect()
            })
            .collect();
        let all = lines.join("\n");
        assert!(all.contains("Please enlarge the terminal"), "{all}");
        assert!(all.contains("to at least 80x24"), "{all}");
        assert!(all.contains("(now 40x10)"), "{all}");
        assert!(fe.frames()[1].contains_text("Please enlarge"));
        assert!(fe.frames()[2].contains_text("Turn 0"));
        assert!(
            fe.frames()[3].contains_text("Quit this game?"),
            "{}",
            fe.frames()[3].to_text()
        );
    }
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
