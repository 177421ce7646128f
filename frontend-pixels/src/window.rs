//! [`PixelsFrontend`]: the [`Frontend`] over a minifb window.

use std::cell::Cell as StdCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

use alembic_ui::{Frame, Frontend, Input, MouseButton, MouseKind, Tile, TileSupport};
use minifb::{
    InputCallback, Key as Mk, MouseButton as Mb, MouseMode, Scale, ScaleMode, Window, WindowOptions,
};

use crate::input::{RawEvent, RepeatTiming, Translator, is_fullscreen_toggle};
use crate::raster::{Font, Layout, Placement, Rasterizer};

/// How the window is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelsOptions {
    /// Window title.
    pub title: String,
    /// The font.
    pub font: Font,
    /// A fixed integer scale for the bitmap fonts (1–6). `None`, and always for Noto: the
    /// largest size that shows at least `min_cols × min_rows` cells, chosen again whenever
    /// the window is resized.
    pub scale: Option<u8>,
    /// The grid the automatic size keeps on screen at least (80×24, like a terminal).
    pub min_cols: u16,
    /// Rows kept on screen at least.
    pub min_rows: u16,
    /// Draw [`Tile`] glyphs as pictures ([`Frontend::tile_support`]).
    pub tiles: bool,
    /// How often events are pumped while waiting for input.
    pub pump_hz: u32,
    /// Held-key auto-repeat.
    pub repeat: RepeatTiming,
}

impl Default for PixelsOptions {
    fn default() -> Self {
        PixelsOptions {
            title: "Alembic".to_owned(),
            font: Font::default(),
            scale: None,
            min_cols: 80,
            min_rows: 24,
            tiles: true,
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

/// After this long without any event, events are pumped at [`IDLE_TICK`] instead of the
/// configured rate, so a window nobody touches costs almost no CPU.
const IDLE_AFTER: Duration = Duration::from_secs(2);
/// The pump interval while idle.
const IDLE_TICK: Duration = Duration::from_millis(50);

/// The window size the window opens at on a screen large enough (before minifb fits it to
/// the screen by integer steps): 640×400 doubled, 1280×800.
const BASE_PX: (usize, usize) = (640, 400);

/// A native window showing frames as anti-aliased text (or bitmap glyphs) and tiles. Knows
/// nothing of any game.
pub struct PixelsFrontend {
    window: Window,
    raster: Rasterizer,
    /// The font, and a fixed bitmap scale if one was asked for.
    font: Font,
    fixed_scale: Option<u8>,
    min_grid: (u16, u16),
    /// The app's preferred grid ([`Frontend::set_preferred_grid`]), if it said one.
    want_grid: Option<(u16, u16)>,
    tiles: bool,
    events: Rc<StdCell<Vec<RawEvent>>>,
    translator: Translator,
    pending: VecDeque<Input>,
    /// The grid reported by [`Frontend::size`].
    grid: (u16, u16),
    /// Window size in pixels at the last pump.
    window_px: (usize, usize),
    buffer: Vec<u32>,
    placement: Placement,
    last_frame: Option<Frame>,
    upload_needed: bool,
    last_upload: Instant,
    last_event: Instant,
    tick: Duration,
    next_pump: Instant,
    was_active: bool,
    closed: bool,
    /// The cell under the pointer at the last pump, and the buttons held.
    mouse_cell: Option<(u16, u16)>,
    buttons: [bool; 3],
    /// Set non-zero by a signal handler: end the session as if the window were closed.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    /// The X11 fullscreen toggle, connected at the first `F11` (`None` before, or where
    /// there is none: then the keys do nothing).
    #[cfg(all(unix, not(target_os = "macos")))]
    fullscreen: Option<crate::fullscreen::Fullscreen>,
    /// Whether connecting for fullscreen was tried already.
    fullscreen_tried: bool,
    /// Raw button events, for taps shorter than a pump (X11 with XInput 2; `None` elsewhere).
    #[cfg(all(unix, not(target_os = "macos")))]
    clicks: Option<crate::clicks::ClickWatch>,
}

impl std::fmt::Debug for PixelsFrontend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PixelsFrontend")
            .field("layout", &self.raster.layout())
            .field("grid", &self.grid)
            .field("window_px", &self.window_px)
            .finish_non_exhaustive()
    }
}

/// The window icon: the potion tile, 32×32, as X11's `_NET_WM_ICON` wants it (width, height,
/// then ARGB pixels, one per `u64`).
fn icon_pixels() -> Vec<u64> {
    let (w, h) = (32usize, 32usize);
    let mask = crate::tiles::mask(Tile::Potion, w, h, &|_| Vec::new());
    let (fg, bg) = (0x00FF_9A3Cu64, 0x0020_1830u64);
    let mut out = vec![w as u64, h as u64];
    out.extend(mask.iter().map(|a| {
        let a = u64::from(*a);
        if a == 0 {
            0xFF00_0000 | bg
        } else {
            let mix =
                |sh: u32| ((((bg >> sh) & 0xFF) * (255 - a) + ((fg >> sh) & 0xFF) * a) / 255) << sh;
            0xFF00_0000 | mix(16) | mix(8) | mix(0)
        }
    }));
    out
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
        let window_opts = WindowOptions {
            resize: true,
            // minifb's FitScreen sizes the window to the largest integer multiple of the base
            // size that fits the screen; we then draw at the window's real pixel size.
            scale: Scale::FitScreen,
            scale_mode: ScaleMode::UpperLeft,
            ..WindowOptions::default()
        };
        let mut window = Window::new(&opts.title, BASE_PX.0, BASE_PX.1, window_opts)
            .map_err(PixelsError::Open)?;
        // We pace the pumping ourselves (minifb would otherwise sleep inside `update`).
        window.set_target_fps(0);
        window.set_background_color(0, 0, 0);
        let icon = icon_pixels();
        if let Ok(icon) = minifb::Icon::try_from(icon.as_slice()) {
            window.set_icon(icon);
        }
        let events = Rc::new(StdCell::new(Vec::new()));
        window.set_input_callback(Box::new(Collector(Rc::clone(&events))));
        let window_px = window.get_size();
        let now = Instant::now();
        let mut frontend = PixelsFrontend {
            grid: (0, 0),
            window,
            raster: Rasterizer::new(Layout::new(opts.font, 0)),
            font: opts.font,
            fixed_scale: opts.scale.filter(|_| opts.font != Font::Noto),
            min_grid: (opts.min_cols.max(1), opts.min_rows.max(1)),
            want_grid: None,
            tiles: opts.tiles,
            events,
            translator: Translator::new(opts.repeat),
            pending: VecDeque::new(),
            window_px,
            buffer: Vec::new(),
            placement: Placement::default(),
            last_frame: None,
            upload_needed: false,
            last_upload: now,
            last_event: now,
            tick: Duration::from_secs(1) / opts.pump_hz.clamp(1, 1000),
            next_pump: now,
            was_active: false,
            closed: false,
            mouse_cell: None,
            buttons: [false; 3],
            stop: None,
            #[cfg(all(unix, not(target_os = "macos")))]
            fullscreen: None,
            fullscreen_tried: false,
            #[cfg(all(unix, not(target_os = "macos")))]
            clicks: None,
        };
        #[cfg(all(unix, not(target_os = "macos")))]
        {
            frontend.clicks = crate::clicks::ClickWatch::connect(&frontend.window);
        }
        frontend.fit();
        Ok(frontend)
    }

    /// The font and cell size in use.
    #[must_use]
    pub fn layout(&self) -> Layout {
        self.raster.layout()
    }

    /// `F11` / `Alt+Enter`: fullscreen on or off where it can be had (X11, see
    /// [`crate::fullscreen`]); elsewhere nothing happens. Quiet either way: a failure only
    /// means the key does nothing from then on.
    fn toggle_fullscreen(&mut self) {
        if !self.fullscreen_tried {
            self.fullscreen_tried = true;
            #[cfg(all(unix, not(target_os = "macos")))]
            {
                self.fullscreen = crate::fullscreen::Fullscreen::connect(&self.window).ok();
            }
        }
        #[cfg(all(unix, not(target_os = "macos")))]
        if let Some(f) = &mut self.fullscreen
            && f.toggle().is_err()
        {
            self.fullscreen = None;
        }
    }

    /// Choose the cell size for the current window size, and the grid.
    fn fit(&mut self) {
        let (w, h) = self.window_px;
        let layout = match self.fixed_scale {
            Some(s) => Layout::scaled(self.font, s),
            None => match self.want_grid {
                // The app's grid (a whole level), in the largest cells that show it.
                Some((c, r)) => {
                    let l = Layout::fit_grid(
                        self.font,
                        w,
                        h,
                        c.max(self.min_grid.0),
                        r.max(self.min_grid.1),
                    );
                    // With tiles, cells square enough for one-cell tiles, so the level
                    // still fits in pictures.
                    if self.tiles { l.squarer() } else { l }
                }
                None => Layout::fit(self.font, w, h, self.min_grid.0, self.min_grid.1),
            },
        };
        self.raster.set_layout(layout);
        let (cols, rows) = layout.grid_for_window(w, h);
        // Cells sized for the app's grid: show that grid (centred, margins black) rather
        // than stretch the app's panels apart with spare columns.
        self.grid = match (self.want_grid, self.fixed_scale) {
            (Some((c, r)), None) => (
                cols.min(c.max(self.min_grid.0)),
                rows.min(r.max(self.min_grid.1)),
            ),
            _ => (cols, rows),
        };
    }

    /// Draw the last frame again at the current window size.
    fn redraw(&mut self) {
        if let Some(frame) = &self.last_frame {
            self.placement = self
                .raster
                .render(frame, &mut self.buffer, Some(self.window_px));
            self.upload_needed = true;
        }
    }

    /// Let minifb process window events (sending the buffer if it needs showing), then
    /// translate what arrived.
    fn pump(&mut self, now: Instant) -> Result<(), PixelsError> {
        let stale = now.duration_since(self.last_upload) >= REFRESH;
        let Placement { width, height, .. } = self.placement;
        if (self.upload_needed || stale) && width > 0 && height > 0 {
            self.window
                .update_with_buffer(&self.buffer, width, height)
                .map_err(PixelsError::Update)?;
            self.upload_needed = false;
            self.last_upload = now;
        } else {
            self.window.update();
        }
        let idle = now.duration_since(self.last_event) >= IDLE_AFTER;
        self.next_pump = now
            + if idle {
                IDLE_TICK.max(self.tick)
            } else {
                self.tick
            };
        self.collect(now);
        Ok(())
    }

    fn collect(&mut self, now: Instant) {
        let before = self.pending.len();
        for event in self.events.take() {
            self.translator.feed(event, now, &mut self.pending);
        }
        let active = self.window.is_active();
        if self.was_active && !active {
            // Focus left while keys may be held: their releases will not reach us.
            self.translator.release_all();
        }
        self.was_active = active;
        self.collect_mouse();
        let px = self.window.get_size();
        if px != self.window_px {
            self.window_px = px;
            let old = self.grid;
            self.fit();
            self.redraw();
            if self.grid != old {
                self.pending.push_back(Input::Resize {
                    width: self.grid.0,
                    height: self.grid.1,
                });
            }
        }
        if !self.window.is_open() {
            self.closed = true;
        }
        if self.pending.len() != before {
            self.last_event = now;
        }
    }

    /// Hover, buttons and the wheel, as [`Input::Mouse`] on the cell under the pointer.
    fn collect_mouse(&mut self) {
        let mods = self.translator.mods();
        let cell = self
            .window
            .get_unscaled_mouse_pos(MouseMode::Discard)
            .and_then(|(x, y)| self.placement.cell_at(x, y));
        let mouse = |kind, (x, y): (u16, u16)| Input::Mouse { kind, x, y, mods };
        if let Some(at) = cell
            && self.mouse_cell != Some(at)
        {
            self.pending.push_back(mouse(MouseKind::Move, at));
        }
        self.mouse_cell = cell;
        #[cfg(all(unix, not(target_os = "macos")))]
        let taps = self.clicks.as_mut().map(crate::clicks::ClickWatch::take);
        for (i, (mb, button)) in [
            (Mb::Left, MouseButton::Left),
            (Mb::Right, MouseButton::Right),
            (Mb::Middle, MouseButton::Middle),
        ]
        .into_iter()
        .enumerate()
        {
            let down = self.window.get_mouse_down(mb);
            // A tap that began and ended between two pumps: minifb's state never changed.
            #[cfg(all(unix, not(target_os = "macos")))]
            if let (Some(t), Some(at)) = (&taps, cell)
                && self.window.is_active()
                && crate::clicks::missed_click(t, i, self.buttons[i], down)
            {
                self.pending.push_back(mouse(MouseKind::Down(button), at));
                self.pending.push_back(mouse(MouseKind::Up(button), at));
            }
            if down != self.buttons[i] {
                self.buttons[i] = down;
                if let Some(at) = cell {
                    let kind = if down {
                        MouseKind::Down(button)
                    } else {
                        MouseKind::Up(button)
                    };
                    self.pending.push_back(mouse(kind, at));
                }
            }
        }
        if let (Some((_, dy)), Some(at)) = (self.window.get_scroll_wheel(), cell) {
            if dy > 0.0 {
                self.pending.push_back(mouse(MouseKind::ScrollUp, at));
            } else if dy < 0.0 {
                self.pending.push_back(mouse(MouseKind::ScrollDown, at));
            }
        }
    }
}

impl Frontend for PixelsFrontend {
    type Error = PixelsError;

    fn present(&mut self, frame: &Frame) -> Result<(), PixelsError> {
        if self.last_frame.as_ref() != Some(frame) {
            match &mut self.last_frame {
                Some(last) => last.clone_from(frame),
                None => self.last_frame = Some(frame.clone()),
            }
            self.redraw();
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
                if is_fullscreen_toggle(&input) {
                    self.toggle_fullscreen();
                    continue;
                }
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
                self.last_event = now;
                // A held F11 toggles once.
                if !is_fullscreen_toggle(&input) {
                    return Ok(Some(input));
                }
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

    fn set_preferred_grid(&mut self, cols: u16, rows: u16) -> Result<(), PixelsError> {
        let want = Some((cols, rows));
        if want != self.want_grid {
            self.want_grid = want;
            self.fit();
            self.redraw();
        }
        Ok(())
    }

    fn tile_support(&self) -> TileSupport {
        let (w, h) = self.raster.layout().cell_px();
        match self.tiles {
            false => TileSupport::None,
            // Tall cells: two side by side make a square tile.
            true if 2 * h >= 3 * w => TileSupport::Double,
            true => TileSupport::Single,
        }
    }
}
