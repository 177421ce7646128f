//! Clicks shorter than one pump of the event loop, on X11.
//!
//! minifb reports buttons as a state polled at each pump: a press and its release that both
//! arrive between two pumps (a quick tap, about 20 ms or less) leave the state as it was, and
//! the click is lost. A second, pure-Rust X connection (as for [`crate::fullscreen`]) listens to
//! XInput 2's raw button events on the root window, which any number of clients may select and
//! which carry no position: [`ClickWatch::take`] says which buttons went down and up since it
//! was last asked, and the window turns a tap that minifb missed into a click at the pointer.

use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::Event;
use x11rb::protocol::xinput::{self, ConnectionExt as _, EventMask, XIEventMask};
use x11rb::rust_connection::RustConnection;

/// XInput's "every master device" id.
const ALL_MASTER_DEVICES: u16 = 1;

/// Raw button events from a second X connection.
pub(crate) struct ClickWatch {
    conn: RustConnection,
}

/// Presses and releases per button (1 left, 2 middle, 3 right) since the last
/// [`ClickWatch::take`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Taps {
    /// Presses seen, for buttons 1–3.
    pub pressed: [u32; 3],
    /// Releases seen, for buttons 1–3.
    pub released: [u32; 3],
}

impl ClickWatch {
    /// Connect for `window`'s display; `None` when it is not X11 or the server has no
    /// XInput 2 (the window then keeps minifb's polling alone).
    pub(crate) fn connect(window: &minifb::Window) -> Option<Self> {
        let handle = window.window_handle().ok()?;
        if !matches!(
            handle.as_raw(),
            RawWindowHandle::Xlib(_) | RawWindowHandle::Xcb(_)
        ) {
            return None;
        }
        let (conn, screen) = x11rb::connect(None).ok()?;
        conn.extension_information(xinput::X11_EXTENSION_NAME)
            .ok()??;
        let version = conn.xinput_xi_query_version(2, 2).ok()?.reply().ok()?;
        if version.major_version < 2 {
            return None;
        }
        let root = conn.setup().roots.get(screen)?.root;
        let mask = EventMask {
            deviceid: ALL_MASTER_DEVICES,
            mask: vec![XIEventMask::RAW_BUTTON_PRESS | XIEventMask::RAW_BUTTON_RELEASE],
        };
        conn.xinput_xi_select_events(root, &[mask])
            .ok()?
            .check()
            .ok()?;
        Some(ClickWatch { conn })
    }

    /// The presses and releases since the last call (never blocks). A broken connection
    /// reports nothing.
    pub(crate) fn take(&mut self) -> Taps {
        let mut taps = Taps::default();
        while let Ok(Some(event)) = self.conn.poll_for_event() {
            let (button, down) = match event {
                Event::XinputRawButtonPress(e) => (e.detail, true),
                Event::XinputRawButtonRelease(e) => (e.detail, false),
                _ => continue,
            };
            let Some(i) = (button as usize).checked_sub(1).filter(|i| *i < 3) else {
                continue;
            };
            if down {
                taps.pressed[i] += 1;
            } else {
                taps.released[i] += 1;
            }
        }
        taps
    }
}

/// Whether button `i` was tapped (pressed and released) between two polls that both saw it
/// up: a click minifb's polled state could not show.
pub(crate) fn missed_click(taps: &Taps, i: usize, was_down: bool, is_down: bool) -> bool {
    !was_down && !is_down && taps.pressed[i] > 0 && taps.released[i] > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tap_between_polls_is_a_missed_click_and_nothing_else_is() {
        let tap = Taps {
            pressed: [1, 0, 0],
            released: [1, 0, 0],
        };
        assert!(missed_click(&tap, 0, false, false));
        // minifb saw the press (or the button is held): not missed.
        assert!(!missed_click(&tap, 0, false, true));
        assert!(!missed_click(&tap, 0, true, false));
        // Another button, or a press still held: nothing.
        assert!(!missed_click(&tap, 2, false, false));
        let held = Taps {
            pressed: [1, 0, 0],
            released: [0, 0, 0],
        };
        assert!(!missed_click(&held, 0, false, false));
    }
}
