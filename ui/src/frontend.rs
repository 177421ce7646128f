//! The render/input contract between shared UI code and the frontends.
//!
//! Shared code (a game's screens) draws into a [`Frame`] and reacts to [`Input`]s. A
//! [`Frontend`] only presents frames and turns its native key events into inputs; it knows
//! nothing of any game. [`run`] drives any [`App`] with any [`Frontend`].
//!
//! Modelled on ratatui's `Backend`: few required methods, an associated error type, optional
//! capabilities with defaults, and a headless [`TestFrontend`] beside the trait.

use std::collections::VecDeque;
use std::time::Duration;

use crate::frame::{ColourDepth, Frame, TileSupport};
use crate::input::Input;

/// What a frontend must do: show frames, deliver inputs, report its size.
///
/// Implementations live in their own crates (`alembic-tui`, `alembic-pixels`); the engine and
/// the games never name a terminal or window library. A frontend that prints each frame as
/// text and plays a list of keys:
///
/// ```
/// use std::time::Duration;
/// use alembic_ui::{App, Control, Frame, Frontend, Input, Rgb, run};
///
/// struct Printer {
///     keys: Vec<Input>,
///     printed: Vec<String>,
/// }
///
/// impl Frontend for Printer {
///     type Error = std::io::Error;
///
///     fn present(&mut self, frame: &Frame) -> Result<(), Self::Error> {
///         self.printed.push(frame.to_text());
///         Ok(())
///     }
///
///     fn next_input(&mut self, _timeout: Option<Duration>) -> Result<Option<Input>, Self::Error> {
///         // No key left: the player closed the window.
///         Ok(Some(if self.keys.is_empty() { Input::Quit } else { self.keys.remove(0) }))
///     }
///
///     fn size(&self) -> Result<(u16, u16), Self::Error> {
///         Ok((12, 1))
///     }
/// }
///
/// struct Echo(char);
/// impl App for Echo {
///     fn render(&mut self, frame: &mut Frame) {
///         frame.put_str(0, 0, &format!("last key {}", self.0), Rgb::WHITE, Rgb::BLACK);
///     }
///     fn handle(&mut self, input: Input) -> Control {
///         if let Input::Key { key: alembic_ui::Key::Char(c), .. } = input {
///             self.0 = c;
///         }
///         Control::Continue
///     }
/// }
///
/// let mut printer = Printer { keys: vec![Input::ch('a'), Input::ch('b')], printed: Vec::new() };
/// run(&mut printer, &mut Echo(' '))?;
/// assert_eq!(printer.printed, ["last key    ", "last key a  ", "last key b  "]);
/// # Ok::<(), std::io::Error>(())
/// ```
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

    /// Whether and how this frontend draws [`Tile`](crate::Tile)s as pictures. Default: letters only.
    fn tile_support(&self) -> TileSupport {
        TileSupport::None
    }

    /// The app would like `cols × rows` cells on screen at once ([`App::preferred_grid`]);
    /// a frontend that chooses its own cell size (a window) may resize its cells so they fit,
    /// changing what [`Frontend::size`] reports. Default: ignored (a terminal's cells are the
    /// terminal's).
    fn set_preferred_grid(&mut self, _cols: u16, _rows: u16) -> Result<(), Self::Error> {
        Ok(())
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

/// Shared UI code driven by [`run`]: draws frames and reacts to inputs. A [`ScreenStack`]
/// is one; a small app can be written directly:
///
/// ```
/// use alembic_ui::{App, Control, Frame, Input, Key, Rgb, TestFrontend, run};
///
/// /// A number that Up and Down change; Esc quits.
/// struct Dial(i32);
///
/// impl App for Dial {
///     fn render(&mut self, frame: &mut Frame) {
///         frame.put_str(0, 0, &format!("dial {}", self.0), Rgb::WHITE, Rgb::BLACK);
///     }
///
///     fn handle(&mut self, input: Input) -> Control {
///         match input {
///             Input::Key { key: Key::Up, .. } => self.0 += 1,
///             Input::Key { key: Key::Down, .. } => self.0 -= 1,
///             Input::Key { key: Key::Esc, .. } | Input::Quit => return Control::Quit,
///             _ => {}
///         }
///         Control::Continue
///     }
///
///     fn title(&self) -> Option<String> {
///         Some(format!("Dial at {}", self.0))
///     }
/// }
///
/// let keys = [Key::Up, Key::Up, Key::Down, Key::Esc].map(Input::key);
/// let mut fe = TestFrontend::new(10, 1, keys);
/// let mut dial = Dial(0);
/// run(&mut fe, &mut dial)?;
/// assert_eq!(dial.0, 1);
/// assert_eq!(fe.titles().last().map(String::as_str), Some("Dial at 1"));
/// # Ok::<(), alembic_ui::TestFrontendError>(())
/// ```
///
/// [`ScreenStack`]: crate::ScreenStack
pub trait App {
    /// Draw the current screen into `frame` (already sized to the frontend). Takes `&mut
    /// self` so widgets can record what they need from the drawing (how many rows fit), as
    /// ratatui's stateful widgets do, instead of hiding it in cells.
    fn render(&mut self, frame: &mut Frame);

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
    /// was saved; `Err` when something failed on the way out, such as a save on close —
    /// frontends print it to stderr and exit non-zero. Default: nothing to say.
    ///
    /// # Errors
    /// [`FarewellError`]: what failed on the way out, the sentence to print.
    fn farewell(&self) -> Result<Option<String>, FarewellError> {
        Ok(None)
    }

    /// The window or terminal title for the current screen (such as the game and the depth);
    /// [`run`] passes it to [`Frontend::set_title`] whenever it changes. Default: `None`,
    /// leaving the title alone.
    fn title(&self) -> Option<String> {
        None
    }

    /// The grid `(columns, rows)` this app would like to show at once, such as a whole
    /// level beside its panels; [`run`] passes it to [`Frontend::set_preferred_grid`]
    /// whenever it changes. A window sizes its cells so the grid fits (as Brogue CE shows the
    /// whole dungeon); a terminal cannot and ignores it. Apps must still draw at any size.
    /// Default: `None`, no wish.
    fn preferred_grid(&self) -> Option<(u16, u16)> {
        None
    }

    /// A last-resort save of the game as it stands now, for a frontend that can lose its
    /// connection where no [`Input::Quit`] can be delivered any more (Xlib ends the process
    /// from inside its I/O error handler when the X connection dies). The closure owns
    /// what it needs (a clone of the game, which is a persistent value, and where to write
    /// it), so the frontend can keep the latest one after each input and call it from
    /// anywhere. It answers where the game went, or why it could not be saved. Default
    /// `None`: nothing worth saving (no game in play, a replay, a game over).
    fn emergency_save(&self) -> Option<EmergencySave> {
        None
    }
}

/// What [`App::emergency_save`] hands a frontend: writes the game as it stood and answers
/// where it went (`Ok(path)`) or why it could not be written ([`EmergencySaveError`]).
pub type EmergencySave = Box<dyn FnOnce() -> Result<String, EmergencySaveError> + Send>;

/// What failed on the way out of a session ([`App::farewell`]): a save on close, or what
/// of an ended game could not be kept. Its `Display` is the sentence a frontend prints to
/// stderr (after `program: error: `) before it exits with a failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FarewellError(pub String);

/// Why a last-resort save ([`EmergencySave`]) could not be written. Its `Display` is the
/// sentence a frontend prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EmergencySaveError(pub String);

/// A boxed app is an app, so wrappers such as [`MinSize`](crate::MinSize) take what a launcher returns.
impl<A: App + ?Sized> App for Box<A> {
    fn render(&mut self, frame: &mut Frame) {
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

    fn farewell(&self) -> Result<Option<String>, FarewellError> {
        (**self).farewell()
    }

    fn title(&self) -> Option<String> {
        (**self).title()
    }

    fn preferred_grid(&self) -> Option<(u16, u16)> {
        (**self).preferred_grid()
    }

    fn emergency_save(&self) -> Option<EmergencySave> {
        (**self).emergency_save()
    }
}

// ---------------------------------------------------------------------------------------------

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

/// Play `app` to its end with `frontend` ([`run`]) and return the app's output: what
/// `output` makes of the app once the session is over (a `ScreenStack`'s context with
/// `ScreenStack::into_ctx`, a game's [`App::farewell`], `()`). The app is consumed; the
/// frontend's own cleanup (a terminal restored, a window closed) is its `Drop`, which runs on
/// return and on unwinding panic alike.
///
/// # Errors
/// [`SessionError`]: the frontend failed; the app's output is inside all the same (the app
/// was offered [`Input::Quit`] first, so it could save).
///
/// ```
/// use alembic_ui::{App, Control, Frame, Input, Key, TestFrontend, run_to_end};
///
/// struct Count(u32);
/// impl App for Count {
///     fn render(&mut self, _frame: &mut Frame) {}
///     fn handle(&mut self, input: Input) -> Control {
///         self.0 += 1;
///         if input == Input::key(Key::Esc) { Control::Quit } else { Control::Continue }
///     }
/// }
/// let mut fe = TestFrontend::new(10, 1, [Input::ch('a'), Input::key(Key::Esc)]);
/// assert_eq!(run_to_end(&mut fe, Count(0), |c| c.0)?, 2);
/// // A frontend that fails (here the script runs out) still hands back the output.
/// let mut fe = TestFrontend::new(10, 1, [Input::ch('a')]);
/// let err = run_to_end(&mut fe, Count(0), |c| c.0).unwrap_err();
/// assert_eq!(err.output, 2); // 'a', then the Quit offered when the frontend failed
/// # Ok::<(), alembic_ui::SessionError<u32, alembic_ui::TestFrontendError>>(())
/// ```
pub fn run_to_end<F: Frontend, A: App, T>(
    frontend: &mut F,
    mut app: A,
    output: impl FnOnce(A) -> T,
) -> Result<T, SessionError<T, F::Error>> {
    match run(frontend, &mut app) {
        Ok(()) => Ok(output(app)),
        Err(error) => Err(SessionError {
            error,
            output: output(app),
        }),
    }
}

/// A session that ended because its frontend failed ([`run_to_end`]): the frontend's error,
/// and the app's output all the same.
#[derive(Debug)]
pub struct SessionError<T, E> {
    /// What the frontend said.
    pub error: E,
    /// The app's output (it was offered [`Input::Quit`] before the session ended).
    pub output: T,
}

impl<T, E: std::fmt::Display> std::fmt::Display for SessionError<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl<T: std::fmt::Debug, E: std::error::Error + 'static> std::error::Error for SessionError<T, E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

fn run_until_error<F: Frontend, A: App + ?Sized>(
    frontend: &mut F,
    app: &mut A,
) -> Result<(), F::Error> {
    let mut shown_title: Option<String> = None;
    let mut shown_grid: Option<(u16, u16)> = None;
    loop {
        let grid = app.preferred_grid();
        if grid != shown_grid {
            if let Some((cols, rows)) = grid {
                frontend.set_preferred_grid(cols, rows)?;
            }
            shown_grid = grid;
        }
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
///     fn render(&mut self, f: &mut Frame) {
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

    /// Pretend to draw [`Tile`](crate::Tile)s as pictures.
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
    use alembic::Rgb;

    #[test]
    fn run_passes_tile_support_and_titles_to_the_frontend() {
        struct Titled(u32);
        impl App for Titled {
            fn render(&mut self, f: &mut Frame) {
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
    fn test_frontend_resizes_and_reports_exhaustion() {
        struct Echo;
        impl App for Echo {
            fn render(&mut self, f: &mut Frame) {
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
            fn render(&mut self, _frame: &mut Frame) {}
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
