//! [`PixelsFrontend`]: the [`Frontend`] over a minifb window.

use std::cell::Cell as StdCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

use alembic::{Frame, Frontend, Input};
use minifb::{InputCallback, Key as Mk, Scale, ScaleMode, Window, WindowOptions};

use crate::input::{RawEvent, RepeatTiming, Translator};
use crate::raster::{Face, Layout, render_frame};

/// How the window is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelsOptions {
    /// Window title.
    pub title: String,
    /// Cell shape.
    pub face: Face,
    /// Integer scale 1–4; `None` picks the largest that fits the initial grid on the screen
    /// (X11, Windows, macOS; Wayland does not tell, so 1 there).
    pub scale: Option<u8>,
    /// Initial grid in cells (the window then follows the user's resizing).
    pub cols: u16,
    /// Initial grid rows.
    pub rows: u16,
    /// How often events are pumped while waiting for input.
    pub pump_hz: u32,
    /// Held-key auto-repeat.
    pub repeat: RepeatTiming,
}

impl Default for PixelsOptions {
    fn default() -> Self {
        PixelsOptions {
            title: "Alembic".to_owned(),
            face: Face::default(),
            scale: None,
            cols: 80,
            rows: 50,
            pump_hz: 60,
            repeat: RepeatTiming::default(),
        }
    }
}

/// Errors of the window frontend.
#[derive(Debug, thiserror::Error)]
pub enum PixelsError {
    /// The window could not be opened (no display, no X11/Wayland library…).
    #[error("could not open a window (is there a display? DISPLAY / WAYLAND_DISPLAY): {0}")]
    Open(#[source] minifb::Error),
    /// Showing the pixel buffer failed.
    #[error("could not draw into the window: {0}")]
    Update(#[source] minifb::Error),
}

/// Collects minifb's callbacks, in order, until the frontend drains them.
/// A `Cell<Vec>` (take, push, put back) cannot panic on re-entrance, unlike a `RefCell`.
struct Collector(Rc<StdCell<Vec<RawEvent>>>);

impl Collector {
    fn push(&self, event: RawEvent) {
        let mut events = self.0.take();
        events.push(event);
        self.0.set(events);
    }
}

impl InputCallback for Collector {
    fn add_char(&mut self, uni_char: u32) {
        self.push(RawEvent::Char(uni_char));
    }

    fn set_key_state(&mut self, key: Mk, state: bool) {
        self.push(RawEvent::Key { key, down: state });
    }
}

/// Re-send the whole buffer this often even when nothing changed, so parts of the window
/// uncovered without a compositor (minifb ignores X11 `Expose`) heal quickly.
const REFRESH: Duration = Duration::from_secs(1);

/// A native window showing frames as bitmap glyphs. Knows nothing of any game.
pub struct PixelsFrontend {
    window: Window,
    layout: Layout,
    events: Rc<StdCell<Vec<RawEvent>>>,
    translator: Translator,
    pending: VecDeque<Input>,
    /// The grid reported by [`Frontend::size`].
    grid: (u16, u16),
    /// Window size in pixels at the last pump.
    window_px: (usize, usize),
    buffer: Vec<u32>,
    buffer_px: (usize, usize),
    last_frame: Option<Frame>,
    upload_needed: bool,
    last_upload: Instant,
    tick: Duration,
    next_pump: Instant,
    was_active: bool,
    closed: bool,
    /// Set non-zero by a signal handler: end the session as if the window were closed.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
}

impl std::fmt::Debug for PixelsFrontend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PixelsFrontend")
            .field("layout", &self.layout)
            .field("grid", &self.grid)
            .field("window_px", &self.window_px)
            .finish_non_exhaustive()
    }
}

impl PixelsFrontend {
    /// Deliver [`Input::Quit`] once `stop` holds a non-zero value (set by a signal handler),
    /// as closing the window does: the game saves on the way out.
    #[must_use]
    pub fn with_stop_flag(mut self, stop: std::sync::Arc<std::sync::atomic::AtomicUsize>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Open the window. Fails (never panics) when there is no display.
    pub fn open(opts: &PixelsOptions) -> Result<Self, PixelsError> {
        let cols = opts.cols.max(1);
        let rows = opts.rows.max(1);
        let base = Layout::new(opts.face, 1).buffer_size(cols, rows);
        let window_opts = |scale| WindowOptions {
            resize: true,
            scale,
            scale_mode: ScaleMode::UpperLeft,
            ..WindowOptions::default()
        };
        let (mut window, layout) = match opts.scale {
            Some(s) => {
                let layout = Layout::new(opts.face, s);
                let (w, h) = layout.buffer_size(cols, rows);
                let window = Window::new(&opts.title, w, h, window_opts(Scale::X1))
                    .map_err(PixelsError::Open)?;
                (window, layout)
            }
            None => {
                // minifb's FitScreen sizes the window to the largest integer multiple of the
                // 1× grid that fits the screen; we read that multiple back and draw at it.
                let window =
                    Window::new(&opts.title, base.0, base.1, window_opts(Scale::FitScreen))
                        .map_err(PixelsError::Open)?;
                let fitted = window.get_size().0 / base.0.max(1);
                let scale = u8::try_from(fitted).unwrap_or(u8::MAX);
                (window, Layout::new(opts.face, scale))
            }
        };
        // We pace the pumping ourselves (minifb would otherwise sleep inside `update`).
        window.set_target_fps(0);
        window.set_background_color(0, 0, 0);
        let events = Rc::new(StdCell::new(Vec::new()));
        window.set_input_callback(Box::new(Collector(Rc::clone(&events))));
        let window_px = window.get_size();
        let now = Instant::now();
        Ok(PixelsFrontend {
            grid: layout.grid_for_window(window_px.0, window_px.1),
            window,
            layout,
            events,
            translator: Translator::new(opts.repeat),
            pending: VecDeque::new(),
            window_px,
            buffer: Vec::new(),
            buffer_px: (0, 0),
            last_frame: None,
            upload_needed: false,
            last_upload: now,
            tick: Duration::from_secs(1) / opts.pump_hz.clamp(1, 1000),
            next_pump: now,
            was_active: false,
            closed: false,
            stop: None,
        })
    }

    /// The cell face and scale in use.
    #[must_use]
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Let minifb process window events (sending the buffer if it needs showing), then
    /// translate what arrived.
    fn pump(&mut self, now: Instant) -> Result<(), PixelsError> {
        let stale = now.duration_since(self.last_upload) >= REFRESH;
        let (w, h) = self.buffer_px;
        if (self.upload_needed || stale) && w > 0 && h > 0 {
            self.window
                .update_with_buffer(&self.buffer, w, h)
                .map_err(PixelsError::Update)?;
            self.upload_needed = false;
            self.last_upload = now;
        } else {
            self.window.update();
        }
        self.next_pump = now + self.tick;
        self.collect(now);
        Ok(())
    }

    fn collect(&mut self, now: Instant) {
        for event in self.events.take() {
            self.translator.feed(event, now, &mut self.pending);
        }
        let active = self.window.is_active();
        if self.was_active && !active {
            // Focus left while keys may be held: their releases will not reach us.
            self.translator.release_all();
        }
        self.was_active = active;
        let px = self.window.get_size();
        if px != self.window_px {
            self.window_px = px;
            self.upload_needed = true;
            let grid = self.layout.grid_for_window(px.0, px.1);
            if grid != self.grid {
                self.grid = grid;
                self.pending.push_back(Input::Resize {
                    width: grid.0,
                    height: grid.1,
                });
            }
        }
        if !self.window.is_open() {
            self.closed = true;
        }
    }
}

impl Frontend for PixelsFrontend {
    type Error = PixelsError;

    fn present(&mut self, frame: &Frame) -> Result<(), PixelsError> {
        if self.last_frame.as_ref() != Some(frame) {
            self.buffer_px = render_frame(frame, self.layout, &mut self.buffer);
            match &mut self.last_frame {
                Some(last) => last.clone_from(frame),
                None => self.last_frame = Some(frame.clone()),
            }
            self.upload_needed = true;
        }
        if self.upload_needed {
            // Show it now rather than at the next pump.
            self.pump(Instant::now())?;
        }
        Ok(())
    }

    fn next_input(&mut self, timeout: Option<Duration>) -> Result<Option<Input>, PixelsError> {
        let start = Instant::now();
        // A timeout too large for `Instant` means "forever".
        let deadline = timeout.and_then(|t| start.checked_add(t));
        loop {
            let now = Instant::now();
            if now >= self.next_pump {
                self.pump(now)?;
            }
            if let Some(input) = self.pending.pop_front() {
                return Ok(Some(input));
            }
            if self.closed
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst) != 0)
            {
                return Ok(Some(Input::Quit));
            }
            if let Some(input) = self.translator.poll_repeat(now) {
                return Ok(Some(input));
            }
            if deadline.is_some_and(|d| now >= d) {
                return Ok(None);
            }
            let mut wake = self.next_pump;
            if let Some(d) = deadline {
                wake = wake.min(d);
            }
            if let Some(r) = self.translator.next_repeat() {
                wake = wake.min(r);
            }
            let now = Instant::now();
            if wake > now {
                std::thread::sleep(wake - now);
            }
        }
    }

    fn size(&self) -> Result<(u16, u16), PixelsError> {
        Ok(self.grid)
    }

    fn set_title(&mut self, title: &str) -> Result<(), PixelsError> {
        self.window.set_title(title);
        Ok(())
    }
}
