//! Fullscreen for the window (`F11`, `Alt+Enter`), where it can be had.
//!
//! minifb 0.29 has no fullscreen, maximise or screen-size call, and this crate keeps
//! `unsafe` to its X-loss handler (`xlost.rs`), so on X11 a second connection to the X
//! server (pure Rust, `x11rb`) does it:
//!
//! - with a window manager that supports EWMH (`_NET_SUPPORTING_WM_CHECK` set and
//!   `_NET_WM_STATE_FULLSCREEN` in `_NET_SUPPORTED`), the window manager is asked to toggle
//!   `_NET_WM_STATE_FULLSCREEN`: a real fullscreen window without decorations;
//! - with none (a bare X server such as Xvfb), the window is moved to the top-left corner and
//!   resized to the whole screen, and put back where it was on the next toggle.
//!
//! Either way minifb sees the new size and the frontend refits its cells to it. Under Wayland
//! (and on macOS and Windows) there is no fullscreen: [`Fullscreen::connect`] says so and the
//! keys do nothing.

use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt, EventMask, StackMode,
};
use x11rb::rust_connection::RustConnection;

/// Why fullscreen is not available.
#[derive(Debug, thiserror::Error)]
pub enum FullscreenError {
    /// The window is not an X11 window (Wayland, or no handle).
    #[error("fullscreen needs an X11 window (this one is not)")]
    NotX11,
    /// Talking to the X server failed.
    #[error("X11: {0}")]
    X11(String),
}

fn x11<E: std::fmt::Display>(e: E) -> FullscreenError {
    FullscreenError::X11(e.to_string())
}

/// How a toggle is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    /// Ask the window manager (EWMH `_NET_WM_STATE` toggle).
    Ewmh { state: u32, fullscreen: u32 },
    /// No window manager: resize to the screen and back ourselves.
    Resize,
}

/// A connection to the X server that toggles one window's fullscreen state.
pub struct Fullscreen {
    conn: RustConnection,
    root: u32,
    window: u32,
    screen_px: (u16, u16),
    method: Method,
    /// With [`Method::Resize`]: where the window was before it filled the screen.
    saved: Option<(i16, i16, u16, u16)>,
}

impl std::fmt::Debug for Fullscreen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fullscreen")
            .field("window", &self.window)
            .field("method", &self.method)
            .field("saved", &self.saved)
            .finish_non_exhaustive()
    }
}

impl Fullscreen {
    /// Connect for `window` (a minifb window). Fails on anything but X11.
    pub fn connect(window: &impl HasWindowHandle) -> Result<Self, FullscreenError> {
        let handle = window
            .window_handle()
            .map_err(|_| FullscreenError::NotX11)?;
        let id = match handle.as_raw() {
            RawWindowHandle::Xlib(h) => {
                u32::try_from(h.window).map_err(|_| FullscreenError::NotX11)?
            }
            RawWindowHandle::Xcb(h) => h.window.get(),
            _ => return Err(FullscreenError::NotX11),
        };
        let (conn, screen) = x11rb::connect(None).map_err(x11)?;
        let (root, screen_px) = {
            let s = conn
                .setup()
                .roots
                .get(screen)
                .ok_or_else(|| FullscreenError::X11(format!("no screen {screen}")))?;
            (s.root, (s.width_in_pixels, s.height_in_pixels))
        };
        let method = ewmh(&conn, root)?.map_or(Method::Resize, |(state, fullscreen)| {
            Method::Ewmh { state, fullscreen }
        });
        Ok(Fullscreen {
            conn,
            root,
            window: id,
            screen_px,
            method,
            saved: None,
        })
    }

    /// Whether a window manager does it (`true`) or the window is resized to the screen.
    #[must_use]
    pub fn uses_window_manager(&self) -> bool {
        matches!(self.method, Method::Ewmh { .. })
    }

    /// Switch fullscreen on or off.
    pub fn toggle(&mut self) -> Result<(), FullscreenError> {
        match self.method {
            Method::Ewmh { state, fullscreen } => {
                // _NET_WM_STATE_TOGGLE = 2; source indication 1 = a normal application.
                let event =
                    ClientMessageEvent::new(32, self.window, state, [2, fullscreen, 0, 1, 0]);
                self.conn
                    .send_event(
                        false,
                        self.root,
                        EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
                        event,
                    )
                    .map_err(x11)?;
            }
            Method::Resize => {
                let aux = match self.saved.take() {
                    Some((x, y, w, h)) => ConfigureWindowAux::new()
                        .x(i32::from(x))
                        .y(i32::from(y))
                        .width(u32::from(w))
                        .height(u32::from(h)),
                    None => {
                        let g = self
                            .conn
                            .get_geometry(self.window)
                            .map_err(x11)?
                            .reply()
                            .map_err(x11)?;
                        self.saved = Some((g.x, g.y, g.width, g.height));
                        ConfigureWindowAux::new()
                            .x(0)
                            .y(0)
                            .width(u32::from(self.screen_px.0))
                            .height(u32::from(self.screen_px.1))
                            .stack_mode(StackMode::ABOVE)
                    }
                };
                self.conn.configure_window(self.window, &aux).map_err(x11)?;
            }
        }
        self.conn.flush().map_err(x11)?;
        Ok(())
    }
}

/// The `_NET_WM_STATE` and `_NET_WM_STATE_FULLSCREEN` atoms, if an EWMH window manager that
/// supports fullscreen is running.
fn ewmh(conn: &RustConnection, root: u32) -> Result<Option<(u32, u32)>, FullscreenError> {
    let atom = |name: &[u8]| -> Result<u32, FullscreenError> {
        Ok(conn
            .intern_atom(false, name)
            .map_err(x11)?
            .reply()
            .map_err(x11)?
            .atom)
    };
    let check = atom(b"_NET_SUPPORTING_WM_CHECK")?;
    let wm = conn
        .get_property(false, root, check, AtomEnum::WINDOW, 0, 1)
        .map_err(x11)?
        .reply()
        .map_err(x11)?;
    if wm.value32().and_then(|mut v| v.next()).unwrap_or(0) == 0 {
        return Ok(None);
    }
    let supported = atom(b"_NET_SUPPORTED")?;
    let state = atom(b"_NET_WM_STATE")?;
    let fullscreen = atom(b"_NET_WM_STATE_FULLSCREEN")?;
    let list = conn
        .get_property(false, root, supported, AtomEnum::ATOM, 0, 4096)
        .map_err(x11)?
        .reply()
        .map_err(x11)?;
    let has = list
        .value32()
        .is_some_and(|mut atoms| atoms.any(|a| a == fullscreen));
    Ok(has.then_some((state, fullscreen)))
}
