//! The game survives the window's X connection.
//!
//! When the X server goes away (restarted, killed, an `ssh -X` dropped), the next Xlib call
//! fails and Xlib calls its I/O error handler, whose default prints a line and calls
//! `exit()`: no [`alembic_ui::Input::Quit`] ever reaches the app, and nothing would be saved.
//! Xlib ends the process after any handler returns, so the save has to happen inside the
//! handler. [`SaveOnXLoss`] wraps an app: after every input and tick it keeps, in one
//! process-wide slot, the app's [`alembic_ui::App::emergency_save`] (a closure over a cheap
//! clone of the game as it stands, since the game is a persistent value), and it installs an
//! I/O error handler ([`XSetIOErrorHandler`]) that runs that closure, says
//! "X connection lost; game saved to PATH" on stderr and exits with [`EXIT_X_LOST`].
//!
//! This is the crate's only `unsafe` code (the crate denies it everywhere else): installing
//! the handler is a call through Xlib's C interface (`x11-dl`, the binding minifb already
//! loads), and the handler is an `extern "C"` function Xlib calls. Only Xlib (X11) is
//! concerned; where libX11 cannot be loaded nothing is installed and the app runs as before.
//!
//! [`XSetIOErrorHandler`]: https://www.x.org/releases/current/doc/man/man3/XSetErrorHandler.3.xhtml
#![allow(unsafe_code)]

use std::sync::{Mutex, Once};

use alembic_ui::{App, Control, EmergencySave, Frame, Input};

/// The exit status after the X connection was lost (whether or not the game could be
/// saved: stderr says which).
pub const EXIT_X_LOST: i32 = 3;

/// The latest last-resort save of the app in play.
static SLOT: Mutex<Option<EmergencySave>> = Mutex::new(None);

/// Installs the handler once per process.
static INSTALL: Once = Once::new();

/// Keep `save` as the one the handler runs (replacing the one kept before).
fn publish(save: Option<EmergencySave>) {
    let mut slot = SLOT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *slot = save;
}

/// Install the I/O error handler, once; whether libX11 could be loaded for it.
fn install() -> bool {
    let mut ok = false;
    INSTALL.call_once(|| {
        #[cfg(all(unix, not(target_os = "macos")))]
        if let Ok(xlib) = x11_dl::xlib::Xlib::open() {
            // Leaked: libX11 stays loaded for as long as the handler may be called.
            let xlib: &'static x11_dl::xlib::Xlib = Box::leak(Box::new(xlib));
            // SAFETY: `XSetIOErrorHandler` only stores the function pointer in libX11's
            // process-wide state (it reads no display and takes no lock of ours);
            // `on_io_error` has exactly the signature Xlib calls, and the handle it came
            // through is never closed.
            unsafe {
                (xlib.XSetIOErrorHandler)(Some(on_io_error));
            }
            ok = true;
        }
    });
    ok
}

/// Xlib's I/O error handler: save, say so, exit. Never returns (Xlib would exit anyway).
#[cfg(all(unix, not(target_os = "macos")))]
unsafe extern "C" fn on_io_error(_display: *mut x11_dl::xlib::Display) -> std::os::raw::c_int {
    // Called on the thread that made the failing Xlib call, between inputs: the slot is
    // not held then; `try_lock` all the same, rather than wait for ever.
    let save = match SLOT.try_lock() {
        Ok(mut slot) => slot.take(),
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().take(),
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    // A panic must not unwind into C: caught, and said.
    let said = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match save {
        Some(save) => match save() {
            Ok(path) => format!("X connection lost; game saved to {path}"),
            Err(e) => format!("X connection lost; the game could not be saved: {e}"),
        },
        None => "X connection lost; nothing was saved (no game in play, or one whose save would replace another game's)".to_owned(),
    }))
    .unwrap_or_else(|_| "X connection lost; saving the game failed".to_owned());
    eprintln!("alembic-pixels: {said}");
    std::process::exit(EXIT_X_LOST);
}

/// An app whose game is saved if the window's X connection dies (see the module docs):
/// after every input and tick it keeps the app's [`App::emergency_save`] for Xlib's I/O
/// error handler, which [`SaveOnXLoss::new`] installs.
#[derive(Debug)]
pub struct SaveOnXLoss<A>(A);

impl<A: App> SaveOnXLoss<A> {
    /// Wrap `app`, install the handler (once per process) and keep the app's first save.
    #[must_use]
    pub fn new(app: A) -> Self {
        install();
        publish(app.emergency_save());
        SaveOnXLoss(app)
    }

    /// The app, the slot emptied (its game is no longer this session's to save).
    pub fn into_inner(self) -> A {
        publish(None);
        self.0
    }
}

impl<A: App> App for SaveOnXLoss<A> {
    fn render(&mut self, frame: &mut Frame) {
        self.0.render(frame);
    }

    fn handle(&mut self, input: Input) -> Control {
        let c = self.0.handle(input);
        publish(self.0.emergency_save());
        c
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.0.tick_interval()
    }

    fn tick(&mut self) -> Control {
        let c = self.0.tick();
        publish(self.0.emergency_save());
        c
    }

    fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        self.0.farewell()
    }

    fn title(&self) -> Option<String> {
        self.0.title()
    }

    fn preferred_grid(&self) -> Option<(u16, u16)> {
        self.0.preferred_grid()
    }

    fn emergency_save(&self) -> Option<EmergencySave> {
        self.0.emergency_save()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An app that answers every question of [`App`] with something other than the default.
    struct Asks;

    impl App for Asks {
        fn render(&mut self, _frame: &mut Frame) {}
        fn handle(&mut self, _input: Input) -> Control {
            Control::Continue
        }
        fn tick_interval(&self) -> Option<std::time::Duration> {
            Some(std::time::Duration::from_millis(7))
        }
        fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
            Ok(Some("bye".into()))
        }
        fn title(&self) -> Option<String> {
            Some("Asks".into())
        }
        fn preferred_grid(&self) -> Option<(u16, u16)> {
            Some((95, 54))
        }
    }

    #[test]
    fn the_wrapper_passes_on_every_answer_of_the_app() {
        // The window sizes its cells to the app's preferred grid: a wrapper that forgot it
        // left the whole level cut at the edges of the window.
        let app = SaveOnXLoss::new(Asks);
        assert_eq!(app.preferred_grid(), Some((95, 54)));
        assert_eq!(app.title().as_deref(), Some("Asks"));
        assert_eq!(app.farewell(), Ok(Some("bye".into())));
        assert_eq!(
            app.tick_interval(),
            Some(std::time::Duration::from_millis(7))
        );
        assert!(app.into_inner().emergency_save().is_none());
    }
}
