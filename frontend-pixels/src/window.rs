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

/// What the cell size is chosen from, besides the window's size ([`choose_layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitWish {
    /// The font.
    pub font: Font,
    /// A fixed integer scale for the bitmap fonts.
    pub fixed_scale: Option<u8>,
    /// Whether the map is drawn in tiles.
    pub tiles: bool,
    /// The grid kept on screen at least (80×24).
    pub min_grid: (u16, u16),
    /// The app's preferred grid ([`Frontend::set_preferred_grid`]): a whole level beside its
    /// panel, under its messages.
    pub want_grid: Option<(u16, u16)>,
    /// The size in cells of the frames' map area ([`Frame::map_area`]), once one was seen.
    pub map: Option<(u16, u16)>,
}

/// The layout and the grid for a `window` of `(width, height)` pixels: with Noto and a
/// preferred grid, the largest [`Layout::text_and_map`] that shows the whole grid (the
/// level in square cells first, then the panel and messages as text beside and above it,
/// in letters and in tiles alike); else, or on a window too small for it (rows under
/// [`Layout::MIN_CELL`]'s height), the largest preset that shows `min_grid`, and the map
/// follows the hero. The grid is the preferred one when it fits, else as many cells as
/// the window holds.
#[must_use]
pub fn choose_layout(wish: &FitWish, window: (usize, usize)) -> (Layout, (u16, u16)) {
    let (w, h) = window;
    let (min_c, min_r) = wish.min_grid;
    if let Some(s) = wish.fixed_scale {
        let l = Layout::scaled(wish.font, s);
        return (l, l.grid_for_window(w, h));
    }
    let Some((c, r)) = wish.want_grid else {
        let l = Layout::fit(wish.font, w, h, min_c, min_r);
        return (l, l.grid_for_window(w, h));
    };
    let want = (c.max(min_c), r.max(min_r));
    if let Some(l) = Layout::fit_level(wish.font, w, h, want, wish.map) {
        return (l, want);
    }
    // The bitmap fonts, or too small a window for the whole level.
    let l = Layout::fit_grid(wish.font, w, h, want.0, want.1);
    // With tiles, cells square enough for one-cell tiles.
    let l = if wish.tiles { l.squarer() } else { l };
    let (cols, rows) = l.grid_for_window(w, h);
    (l, (cols.min(want.0), rows.min(want.1)))
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
    /// The size in cells of the last map area a frame showed ([`Frame::map_area`]), kept
    /// while screens without a map come and go, so the cells do not change under them.
    map_seen: Option<(u16, u16)>,
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
            map_seen: None,
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
        let (layout, grid) = choose_layout(
            &FitWish {
                font: self.font,
                fixed_scale: self.fixed_scale,
                tiles: self.tiles,
                min_grid: self.min_grid,
                want_grid: self.want_grid,
                map: self.map_seen,
            },
            self.window_px,
        );
        self.raster.set_layout(layout);
        self.grid = grid;
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
        let map = frame.map_area().map(|m| (m.width, m.height));
        if map.is_some() && map != self.map_seen {
            // The first map, or a map of another size: the level first, then the text.
            self.map_seen = map;
            let old = self.grid;
            self.fit();
            self.last_frame = None;
            if self.grid != old {
                self.pending.push_back(Input::Resize {
                    width: self.grid.0,
                    height: self.grid.1,
                });
            }
        }
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
        // The map's cells: square beside narrower text once a whole level fits.
        let (w, h) = self.raster.layout().map_cell_px();
        match self.tiles {
            false => TileSupport::None,
            // Tall cells: two side by side make a square tile.
            true if 2 * h >= 3 * w => TileSupport::Double,
            true => TileSupport::Single,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Alchemy's wish: the whole 71 × 51 level beside its 24-column panel, under three rows
    /// of messages.
    fn alchemy(tiles: bool, map: Option<(u16, u16)>) -> FitWish {
        FitWish {
            font: Font::Noto,
            fixed_scale: None,
            tiles,
            min_grid: (80, 24),
            want_grid: Some((95, 54)),
            map,
        }
    }

    /// Window sizes from 1280 × 720 up.
    const WINDOWS: [(usize, usize); 10] = [
        (1280, 720),
        (1280, 800),
        (1366, 768),
        (1440, 900),
        (1600, 900),
        (1680, 1050),
        (1920, 1080),
        (1920, 1200),
        (2560, 1440),
        (3840, 2160),
    ];

    #[test]
    fn the_whole_level_and_its_panel_fit_every_window_from_1280_by_720() {
        for (w, h) in WINDOWS {
            for tiles in [false, true] {
                let (l, grid) = choose_layout(&alchemy(tiles, Some((71, 51))), (w, h));
                assert_eq!(grid, (95, 54), "{w}x{h} tiles {tiles}: the whole grid");
                let (mw, mh) = l.map_cell_px();
                let (tw, th) = l.cell_px();
                assert_eq!(mw, mh, "{w}x{h}: map cells are square");
                assert_eq!(th, mh, "{w}x{h}: one row height");
                assert!(tw < mw, "{w}x{h}: text ({tw}) narrower than the map ({mw})");
                // The level, then the panel beside it; the messages above.
                let (gw, gh) = l.grid_px(95, 54, 71);
                assert!(gw <= w && gh <= h, "{w}x{h}: {gw}x{gh} does not fit");
                assert_eq!(gw, 71 * mw + 24 * tw);
                // The largest: rows one pixel taller no longer fit.
                let bigger = Layout::text_and_map(mh as u16 + 1);
                let (bw, bh) = bigger.grid_px(95, 54, 71);
                assert!(
                    bw > w || bh > h,
                    "{w}x{h}: {mh} px rows are not the largest"
                );
                // Square cells take one-cell tiles.
                assert!(2 * mh < 3 * mw);
            }
        }
    }

    #[test]
    fn the_measured_cells_at_720p_800p_and_1080p() {
        let cells = |w, h| {
            let (l, _) = choose_layout(&alchemy(true, Some((71, 51))), (w, h));
            (l.map_cell_px(), l.cell_px())
        };
        assert_eq!(cells(1280, 720), ((13, 13), (7, 13)));
        assert_eq!(cells(1280, 800), ((14, 14), (7, 14)));
        assert_eq!(cells(1920, 1080), ((20, 20), (9, 20)));
    }

    #[test]
    fn a_level_too_wide_for_square_cells_gets_narrower_ones() {
        // The Caves: a 120 × 50 level and its status line, no side panel, under 3 message
        // rows: 120 × 54 cells, the map 120 × 51.
        let caves = FitWish {
            want_grid: Some((120, 54)),
            ..alchemy(true, Some((120, 51)))
        };
        let (l, grid) = choose_layout(&caves, (1280, 800));
        assert_eq!(grid, (120, 54));
        assert_eq!(l.map_cell_px(), (10, 14));
        assert_eq!(l.cell_px(), (7, 14));
        assert!(l.grid_px(120, 54, 120).0 <= 1280);
        let (l, _) = choose_layout(&caves, (1920, 1080));
        // As wide as 1920 allows, the rows as tall as 1080 allows.
        assert_eq!(l.map_cell_px(), (16, 20));
        for (w, h) in WINDOWS {
            let (l, grid) = choose_layout(&caves, (w, h));
            assert_eq!(grid, (120, 54), "{w}x{h}");
            let (gw, gh) = l.grid_px(120, 54, 120);
            assert!(gw <= w && gh <= h, "{w}x{h}");
            let (mw, mh) = l.map_cell_px();
            assert!(2 * mh < 3 * mw, "{w}x{h}: {mw}x{mh} takes one tile a cell");
        }
    }

    #[test]
    fn before_any_map_every_cell_is_text_and_the_grid_still_fits() {
        for (w, h) in WINDOWS {
            let (l, grid) = choose_layout(&alchemy(false, None), (w, h));
            assert_eq!(grid, (95, 54));
            let (gw, gh) = l.grid_px(95, 54, 0);
            assert!(gw <= w && gh <= h, "{w}x{h}");
        }
    }

    #[test]
    fn a_small_window_or_a_bitmap_font_keeps_the_presets() {
        // 54 rows of 12 pixels do not fit 600: 80 × 24 cells, the map follows the hero.
        let (l, grid) = choose_layout(&alchemy(false, Some((71, 51))), (800, 600));
        assert!(!l.splits_map());
        assert!(grid.0 >= 80 && grid.1 >= 24 && grid.1 < 54, "{grid:?}");
        let bitmap = FitWish {
            font: Font::Bitmap8x8,
            ..alchemy(false, Some((71, 51)))
        };
        let (l, _) = choose_layout(&bitmap, (1920, 1080));
        assert!(!l.splits_map());
        // Without a wish: 80 × 24 at least, the cells as large as that allows.
        let none = FitWish {
            want_grid: None,
            ..alchemy(false, None)
        };
        let (l, grid) = choose_layout(&none, (1280, 800));
        assert_eq!(l, Layout::fit(Font::Noto, 1280, 800, 80, 24));
        assert!(grid.0 >= 80 && grid.1 >= 24);
    }
}
