//! The web frontend proper: a game's inputs come from a queue the websocket tasks write into
//! ([`Command`]); each frame it presents is diffed against the last one, deflated once, and
//! published through a [`Hub`] to the player and every spectator. The server's workers
//! drive the games round by round as [`alembic_ui::run`] does (draw, wait for an input,
//! handle it), a game's round at a time; [`WebFrontend`] is that loop's
//! [`alembic_ui::Frontend`] over the same queue and hub, for an app run on a thread of
//! its own.
//!
//! The game code cannot tell it is on the web: it is driven exactly as in the terminal and
//! the window.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use alembic_ui::{Frame, Frontend, Input, TileSupport};
use tokio::sync::broadcast;

use crate::protocol::{FrameEncoder, GameSummary, ServerMsg};

/// What the websocket side sends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// An input from the player's page.
    Input(Input),
    /// The player's page now shows `w × h` cells.
    Resize(u16, u16),
    /// Save and stop (the player left or idled out, or the server is stopping).
    Quit,
}

/// What a hub publishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Published {
    /// A binary frame message ([`crate::protocol::frame_message`]).
    Frame(Arc<Vec<u8>>),
    /// The game is over (or saved and stopped): why, and how it ended.
    Ended(End),
    /// A notice for the player's status line (the game waits for its journal, and is
    /// answering again).
    Notice(String),
}

/// A game's end as its hub publishes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// Why, for people ("The game is over.", "Your game was saved…").
    pub msg: String,
    /// How the game ended, when it is over and filed.
    pub summary: Option<Box<GameSummary>>,
}

impl End {
    /// The message that tells a page.
    #[must_use]
    pub fn message(self) -> ServerMsg {
        ServerMsg::Ended {
            msg: self.msg,
            summary: self.summary,
        }
    }
}

/// How many published messages a slow viewer may fall behind before it is sent a whole
/// frame again instead.
const BACKLOG: usize = 64;

/// Fan-out of one game's frames: the last frame (so a newcomer gets it whole) and a
/// broadcast of every message after it. Publishing and subscribing hold one lock, so a
/// subscriber's whole frame and the diffs it then receives always follow on.
#[derive(Debug)]
pub struct Hub {
    inner: Mutex<HubInner>,
}

#[derive(Debug)]
struct HubInner {
    last: Option<Frame>,
    ended: Option<End>,
    /// The notice standing (sent again to whoever subscribes), if any.
    notice: Option<String>,
    tx: broadcast::Sender<Published>,
    encoder: FrameEncoder,
    /// Frames published, and their bytes.
    frames: u64,
    bytes: u64,
}

/// What [`Hub::subscribe`] returns: the current frame whole (if any), the end (if over) and
/// the stream of what follows.
#[derive(Debug)]
pub struct Subscription {
    /// The current frame as a full frame message.
    pub current: Option<Vec<u8>>,
    /// How the game already ended, if it has.
    pub ended: Option<End>,
    /// The notice standing, if any (sent after the frame).
    pub notice: Option<String>,
    /// Everything published from now on.
    pub rx: broadcast::Receiver<Published>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub::new()
    }
}

impl Hub {
    /// An empty hub (no frame yet).
    #[must_use]
    pub fn new() -> Self {
        let (tx, _) = broadcast::channel(BACKLOG);
        Hub {
            inner: Mutex::new(HubInner {
                last: None,
                ended: None,
                notice: None,
                tx,
                encoder: FrameEncoder::new(),
                frames: 0,
                bytes: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HubInner> {
        // A panicking game thread cannot leave the hub half-updated (each field is
        // assigned whole), so a poisoned lock is still good.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Publish `frame` as a diff against the last one.
    pub fn publish(&self, frame: &Frame) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let msg = inner.encoder.message(inner.last.as_ref(), frame);
        inner.frames += 1;
        inner.bytes += msg.len() as u64;
        let _ = inner.tx.send(Published::Frame(Arc::new(msg)));
        match &mut inner.last {
            Some(last) if last.width() == frame.width() && last.height() == frame.height() => {
                last.clone_from(frame);
            }
            slot => *slot = Some(frame.clone()),
        }
    }

    /// Say the game is over; every subscriber is told `why`.
    pub fn end(&self, why: &str) {
        self.end_with(why, None);
    }

    /// Say the game is over, `why` and how (its `summary`, when it ended and was filed).
    pub fn end_with(&self, why: &str, summary: Option<GameSummary>) {
        let end = End {
            msg: why.to_owned(),
            summary: summary.map(Box::new),
        };
        let mut inner = self.lock();
        inner.ended = Some(end.clone());
        let _ = inner.tx.send(Published::Ended(end));
    }

    /// Tell every subscriber `msg` now; `standing`: newcomers are told it too, until the
    /// next notice.
    pub fn notice(&self, msg: &str, standing: bool) {
        let mut inner = self.lock();
        inner.notice = standing.then(|| msg.to_owned());
        let _ = inner.tx.send(Published::Notice(msg.to_owned()));
    }

    /// Start receiving: the current frame whole, then every message after it.
    #[must_use]
    pub fn subscribe(&self) -> Subscription {
        let mut guard = self.lock();
        let inner = &mut *guard;
        Subscription {
            current: inner.last.as_ref().map(|f| inner.encoder.message(None, f)),
            ended: inner.ended.clone(),
            notice: inner.notice.clone(),
            rx: inner.tx.subscribe(),
        }
    }

    /// How many connections receive this hub's messages.
    #[must_use]
    pub fn receivers(&self) -> usize {
        self.lock().tx.receiver_count()
    }

    /// Frames published so far and their total bytes (compressed, as sent).
    #[must_use]
    pub fn sent(&self) -> (u64, u64) {
        let inner = self.lock();
        (inner.frames, inner.bytes)
    }
}

/// A [`Frontend`] whose screen is a [`Hub`] and whose keyboard is a channel.
#[derive(Debug)]
pub struct WebFrontend {
    rx: Receiver<Command>,
    size: (u16, u16),
    hub: Arc<Hub>,
    tiles: TileSupport,
}

impl WebFrontend {
    /// A frontend of `size` cells reading `rx` and publishing to `hub`.
    #[must_use]
    pub fn new(rx: Receiver<Command>, size: (u16, u16), hub: Arc<Hub>) -> Self {
        WebFrontend {
            rx,
            size,
            hub,
            tiles: TileSupport::None,
        }
    }

    /// Draw [`alembic_ui::Tile`]s as pictures (the page has the tile atlas).
    #[must_use]
    pub fn with_tiles(mut self, tiles: TileSupport) -> Self {
        self.tiles = tiles;
        self
    }
}

/// The web frontend cannot fail: a vanished page is a [`Command::Quit`] (or no command at
/// all), not an error.
#[derive(Debug, thiserror::Error)]
#[error("the web frontend cannot fail")]
pub struct Never;

impl Frontend for WebFrontend {
    type Error = Never;

    fn present(&mut self, frame: &Frame) -> Result<(), Never> {
        self.hub.publish(frame);
        Ok(())
    }

    fn next_input(&mut self, timeout: Option<Duration>) -> Result<Option<Input>, Never> {
        let cmd = match timeout {
            None => self.rx.recv().ok(),
            Some(t) => match self.rx.recv_timeout(t) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        Ok(Some(match cmd {
            Some(Command::Input(i)) => i,
            Some(Command::Resize(w, h)) => {
                self.size = (w, h);
                Input::Resize {
                    width: w,
                    height: h,
                }
            }
            // Every sender gone (the server dropped the game) is a quit too: the game saves.
            Some(Command::Quit) | None => Input::Quit,
        }))
    }

    fn size(&self) -> Result<(u16, u16), Never> {
        Ok(self.size)
    }

    fn tile_support(&self) -> TileSupport {
        self.tiles
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic::Rgb;
    use alembic_ui::{App, Control, Key};

    struct Echo(String);
    impl App for Echo {
        fn render(&mut self, f: &mut Frame) {
            f.put_str(0, 0, &self.0, Rgb::WHITE, Rgb::BLACK);
        }
        fn handle(&mut self, i: Input) -> Control {
            if let Input::Key {
                key: Key::Char(c), ..
            } = i
            {
                self.0.push(c);
            }
            if i == Input::Quit {
                self.0.push_str(" saved");
            }
            Control::Continue
        }
    }

    #[test]
    fn a_game_runs_through_the_channel_and_publishes_each_frame() {
        let (tx, rx) = std::sync::mpsc::sync_channel(8);
        let hub = Arc::new(Hub::new());
        let mut sub = hub.subscribe();
        assert!(sub.current.is_none());
        let mut fe = WebFrontend::new(rx, (20, 2), Arc::clone(&hub));
        for c in ['a', 'b'] {
            tx.send(Command::Input(Input::ch(c))).unwrap();
        }
        tx.send(Command::Resize(30, 3)).unwrap();
        tx.send(Command::Quit).unwrap();
        let mut app = Echo(String::new());
        alembic_ui::run(&mut fe, &mut app).unwrap();
        assert_eq!(app.0, "ab saved");
        let mut grid = None;
        let mut n = 0;
        while let Ok(Published::Frame(m)) = sub.rx.try_recv() {
            let body = crate::protocol::inflate_message(&m).unwrap();
            crate::protocol::apply_body(&mut grid, &body).unwrap();
            n += 1;
        }
        assert_eq!(n, 4);
        let g = grid.unwrap();
        assert_eq!((g.width(), g.height()), (30, 3));
        assert!(g.contains_text("ab"));
        // A newcomer gets the last frame whole.
        assert!(hub.subscribe().current.is_some());
        assert_eq!(hub.sent().0, 4);
    }
}
