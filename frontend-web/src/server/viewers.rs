//! Private app sessions ([`Session`]): replay viewers of finished games and spectators'
//! looks into a game's past, each on its own thread, within the viewers' budget.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::SyncSender;
use std::time::Duration;

use alembic_ui::{App, Control, Frame, Input};

use super::{INPUT_QUEUE, Server};
use crate::frontend::{Command, Hub, WebFrontend};
use crate::games::WebApp;
use crate::limits::{ViewerSlot, WorkGate};

/// A private app session (a replay, a spectator's look into the past): its channel and its
/// hub; dropping it stops the thread.
#[derive(Debug)]
pub struct Session {
    /// Its inputs.
    pub tx: SyncSender<Command>,
    /// Its frames.
    pub hub: Arc<Hub>,
    /// Set when its thread has ended (its place in [`Server::viewers`] given back).
    pub done: Arc<std::sync::atomic::AtomicBool>,
}

/// A replay viewer's app, doing its work only within [`super::Config::replay_workers`], and
/// holding its place in [`Server::viewers`] until its thread ends.
struct Gated {
    app: WebApp,
    gate: Arc<WorkGate>,
    _slot: ViewerSlot,
}

impl App for Gated {
    fn render(&mut self, frame: &mut Frame) {
        self.app.render(frame);
    }
    fn handle(&mut self, input: Input) -> Control {
        let _work = self.gate.enter();
        self.app.handle(input)
    }
    fn tick_interval(&self) -> Option<Duration> {
        self.app.tick_interval()
    }
    fn tick(&mut self) -> Control {
        let _work = self.gate.enter();
        self.app.tick()
    }
    fn title(&self) -> Option<String> {
        self.app.title()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Full or not, the thread ends: once this, the only sender, is gone, its frontend
        // reads a quit.
        let _ = self.tx.try_send(Command::Quit);
    }
}

impl Server {
    /// Start a private session of `make` (a replay viewer) on its own thread: of game
    /// `game`'s past (a spectator's look back), or of a finished game (`None`). It takes a
    /// place in [`Server::viewers`] until its thread ends, and computes only within
    /// [`super::Config::replay_workers`] (reading the recording included). Blocking.
    ///
    /// # Errors
    /// No place is left (a message for the page), what `make` said, or that no thread could
    /// be started.
    pub fn session(
        &self,
        game: Option<u64>,
        size: (u16, u16),
        make: impl FnOnce(Option<bool>) -> Result<WebApp, String> + Send + 'static,
    ) -> Result<Session, String> {
        let slot = self.viewers.reserve(game)?;
        let (tx, rx) = std::sync::mpsc::sync_channel(INPUT_QUEUE);
        let hub = Arc::new(Hub::new());
        let (tiles, tiles_opt) = self.tiles();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let h = Arc::clone(&hub);
        let gate = Arc::clone(&self.replay_work);
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let d = Arc::clone(&done);
        std::thread::Builder::new()
            .name("session".to_owned())
            .spawn(move || {
                let made = {
                    let _work = gate.enter();
                    make(tiles_opt)
                };
                let mut app = match made {
                    Ok(a) => {
                        let _ = ready_tx.send(Ok(()));
                        Gated {
                            app: a,
                            gate,
                            _slot: slot,
                        }
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        d.store(true, Ordering::Release);
                        return;
                    }
                };
                let mut fe = WebFrontend::new(rx, size, Arc::clone(&h)).with_tiles(tiles);
                let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    alembic_ui::run(&mut fe, &mut app)
                }));
                drop(app);
                d.store(true, Ordering::Release);
                h.end(if ran.is_ok() {
                    "End of the replay."
                } else {
                    "The replay viewer crashed (a bug)."
                });
            })
            .map_err(|e| e.to_string())?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Session { tx, hub, done }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the viewer's thread died".to_owned()),
        }
    }
}
