//! Private app sessions ([`Session`]): replay viewers of finished games and spectators'
//! looks into a game's past, each a background task of the worker pool, within the
//! viewers' budget: made, stepped and ticked only within
//! [`super::Config::replay_workers`] and after the games' waiting work on their worker.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError};

use alembic_ui::{App, Control, Input};

use super::pool::{Event, Handle, Next, Screen, Task};
use super::{INPUT_QUEUE, Server};
use crate::frontend::{Command, Hub};
use crate::games::WebApp;
use crate::limits::ViewerSlot;

/// A private app session (a replay, a spectator's look into the past): its queue and its
/// hub; dropping it ends the session.
#[derive(Debug)]
pub struct Session {
    tx: SyncSender<Command>,
    worker: Handle,
    /// Its frames.
    pub hub: Arc<Hub>,
    /// Set when it has ended (its place in [`Server::viewers`] given back).
    pub done: Arc<AtomicBool>,
}

impl Session {
    /// Send the session a command. `false`: its queue is full ([`INPUT_QUEUE`]), the
    /// command was dropped.
    pub fn send(&self, cmd: Command) -> bool {
        let sent = self.tx.try_send(cmd);
        if sent.is_ok() {
            self.worker.wake();
        }
        !matches!(sent, Err(TrySendError::Full(_)))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Full or not, it ends: once this, the only sender, is gone, its task reads a quit.
        let _ = self.tx.try_send(Command::Quit);
        self.worker.wake();
    }
}

/// What makes a viewer's app (on its worker, within the viewers' gate).
type MakeApp = Box<dyn FnOnce(Option<bool>) -> Result<WebApp, String> + Send>;

/// How a viewer is made: what makes its app, its tiles, and who waits to hear it started.
type Making = (
    MakeApp,
    Option<bool>,
    std::sync::mpsc::Sender<Result<(), String>>,
);

/// A replay viewer as a background task of the pool, holding its place in
/// [`Server::viewers`] until it ends.
struct Viewer {
    /// Its app, once made (the first thing it does, on its first turn).
    app: Option<WebApp>,
    make: Option<Making>,
    rx: Receiver<Command>,
    screen: Screen,
    done: Arc<AtomicBool>,
    _slot: ViewerSlot,
}

impl Viewer {
    /// It ends: its place given back, its page told.
    fn end(&mut self, crashed: bool) -> Next {
        self.app = None;
        self.done.store(true, Ordering::Release);
        self.screen.hub.end(if crashed {
            "The replay viewer crashed (a bug)."
        } else {
            "End of the replay."
        });
        Next::Done
    }

    /// Draw, unless the app panics; what next.
    fn present(&mut self) -> Next {
        let Viewer { app, screen, .. } = self;
        let Some(app) = app.as_mut() else {
            return Next::Done;
        };
        if std::panic::catch_unwind(AssertUnwindSafe(|| screen.present(app))).is_err() {
            return self.end(true);
        }
        Next::More
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
    }
}

impl Task for Viewer {
    fn background(&self) -> bool {
        true
    }

    fn run(&mut self, event: Event, _me: &Handle) -> Next {
        if let Some((make, tiles, ready)) = self.make.take() {
            return match std::panic::catch_unwind(AssertUnwindSafe(|| make(tiles))) {
                Ok(Ok(app)) => {
                    self.app = Some(app);
                    let _ = ready.send(Ok(()));
                    self.present()
                }
                Ok(Err(e)) => {
                    let _ = ready.send(Err(e));
                    self.done.store(true, Ordering::Release);
                    Next::Done
                }
                Err(_) => {
                    let _ = ready.send(Err("the replay viewer crashed (a bug)".to_owned()));
                    self.done.store(true, Ordering::Release);
                    Next::Done
                }
            };
        }
        let Some(app) = self.app.as_mut() else {
            return Next::Done;
        };
        let input = match event {
            Event::Committed(_) => return Next::Wait(self.screen.tick_at),
            Event::Timer => {
                if self
                    .screen
                    .tick_at
                    .is_none_or(|t| t > std::time::Instant::now())
                {
                    return Next::Wait(self.screen.tick_at);
                }
                self.screen.tick_at = None;
                None
            }
            Event::Wake => match self.rx.try_recv() {
                Ok(cmd) => Some(self.screen.input(cmd)),
                Err(TryRecvError::Empty) => return Next::Wait(self.screen.tick_at),
                Err(TryRecvError::Disconnected) => Some(Input::Quit),
            },
        };
        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| match input {
            Some(Input::Quit) => {
                let _ = app.handle(Input::Quit);
                Control::Quit
            }
            Some(i) => app.handle(i),
            None => app.tick(),
        }));
        match ran {
            Ok(Control::Quit) => self.end(false),
            Ok(_) => self.present(),
            Err(_) => self.end(true),
        }
    }
}

impl Server {
    /// Start a private session of `make` (a replay viewer) on the worker pool: of game
    /// `game`'s past (a spectator's look back), or of a finished game (`None`). It takes a
    /// place in [`Server::viewers`] until it ends, and computes only within
    /// [`super::Config::replay_workers`] (reading the recording included). Blocking: returns
    /// once it is made.
    ///
    /// # Errors
    /// No place is left (a message for the page), or what `make` said.
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
        let done = Arc::new(AtomicBool::new(false));
        let (h, d) = (Arc::clone(&hub), Arc::clone(&done));
        let worker = self.pool.start(Box::new(move |_| {
            Some(Box::new(Viewer {
                app: None,
                make: Some((Box::new(make), tiles_opt, ready_tx)),
                rx,
                screen: Screen::new(h, size, tiles),
                done: d,
                _slot: slot,
            }) as Box<dyn Task>)
        }));
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Session {
                tx,
                worker,
                hub,
                done,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the viewer's worker stopped".to_owned()),
        }
    }
}
