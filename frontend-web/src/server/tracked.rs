//! A game's app as a task of the worker pool ([`Tracked`]): after every input its progress
//! goes to the lobby and its files into the store, and a move is answered only once both
//! its journal's file and the store hold it. Its worker never waits for the store: the
//! move's write goes to the group-commit writer, and the frame that answers it is drawn
//! when the writer says it is committed ([`Event::Committed`]); the game's next command
//! waits in its queue meanwhile.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use alembic_ui::{App, Control, Input};

use super::pool::{Event, Handle, Next, Screen, Task};
use super::{LiveGame, Server};
use crate::frontend::Command;
use crate::games::WebApp;
use crate::protocol::{EndLinks, GameSummary};
use crate::store::group::GroupCommit;
use crate::sync::{Mirror, Written};

/// A game's app, telling its [`LiveGame`] where it is after every input, and mirroring its
/// files into the store before the answer is drawn. A move is answered (its frame drawn)
/// only once its journal line is in the file and the store: while either cannot be written
/// (a full disk, a read-only directory, the database down), the game retries with growing
/// pauses and the player is told why; nothing is answered meanwhile.
pub(super) struct Tracked {
    pub(super) app: WebApp,
    pub(super) game: Arc<LiveGame>,
    pub(super) mirror: Mirror,
    /// The store's writer of moves (many games' in one transaction).
    pub(super) commits: Arc<GroupCommit>,
    /// When the progress was last written to the store.
    pub(super) progress_written: Instant,
    /// Another server holds the game now (this one lost touch with the database for
    /// longer than its lease): the game stops here, writing nothing more.
    pub(super) lost: bool,
    /// Why the last move could not be written, when the game stopped before it was (the
    /// server stopping, the player gone): that move was never answered.
    pub(super) behind: Option<String>,
    /// How the game ended, once it is over and filed: the game stops there, and the page
    /// shows this summary instead of the end screen the terminal draws.
    pub(super) ending: Option<alembic_games::end::EndSummary>,
    /// The server (the game is filed there at its end).
    pub(super) srv: Arc<Server>,
    /// Its commands.
    pub(super) rx: Receiver<Command>,
    /// Its screen.
    pub(super) screen: Screen,
    /// Where its last move is.
    pub(super) phase: Phase,
    /// Its writes failing since, while they do.
    pub(super) retry: Option<Retry>,
    /// Its app panicked.
    pub(super) crashed: bool,
}

/// Where a game's last move is.
#[derive(Debug)]
pub(super) enum Phase {
    /// Answered: the next command may be run.
    Ready,
    /// Its write is with the store's writer; `c`: what the app said to it.
    Writing(Control, Written),
    /// Its write failed; tried again at `at`.
    Held(Control, Instant),
}

/// Writes failing: since when, the next pause, and why.
#[derive(Debug)]
pub(super) struct Retry {
    since: Instant,
    pause: Duration,
    why: String,
}

/// The last part of an error (`cannot access PATH: Permission denied (os error 13)` →
/// `Permission denied (os error 13)`): what the system said, without the server's paths.
fn cause(e: &str) -> &str {
    e.rsplit(": ").next().unwrap_or(e)
}

/// Most often a game's progress (depth, turn) is written for the lobbies of every server.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// First pause between tries to write a game's journal and store; it doubles to
/// [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(100);
/// Longest pause between tries.
const RETRY_MAX: Duration = Duration::from_secs(2);

impl Tracked {
    /// Mirror the files into the store once; `Err`: why it failed (the files keep
    /// everything, and the next call sends it again). Another server holding the game sets
    /// [`Tracked::lost`] and is `Ok`.
    pub(super) fn sync(&mut self) -> Result<(), String> {
        if self.lost {
            return Ok(());
        }
        match self.mirror.sync(&self.commits) {
            Ok(false) => {
                eprintln!(
                    "alembic-web: game {}: another server holds it now; it stops here",
                    self.game.id
                );
                self.lost = true;
                return Ok(());
            }
            Ok(true) => {}
            Err(e) => return Err(e.to_string()),
        }
        self.synced();
        Ok(())
    }

    /// After a write the store committed: the checkpoint the game is at kept, its
    /// progress written for the lobbies (every [`PROGRESS_EVERY`], by the progress writer).
    fn synced(&mut self) {
        // A checkpoint of the state the game is in: kept whole for spectators' looks back.
        // The recorder knows the hash of the version it made the checkpoint of; any other
        // version is hashed here (Θ(world)).
        if let Some((turn, hash)) = self.mirror.take_checkpoint()
            && let Some(g) = self.app.game()
            && g.turn() == turn
            && self.app.checkpointed().unwrap_or_else(|| g.state_hash()) == hash
        {
            self.game.past.keep_at(hash, g);
        }
        if self.progress_written.elapsed() >= PROGRESS_EVERY {
            self.progress_written = Instant::now();
            self.srv.progress.write(&self.game);
        }
    }

    /// Whether the game is over and filed ([`crate::games::WebApp::ending`], kept in
    /// [`Tracked::ending`]): its end is the page's to show, so the game stops before the
    /// end screen is drawn.
    pub(super) fn ended(&mut self) -> bool {
        if self.ending.is_none() {
            self.ending = self.app.ending();
        }
        self.ending.is_some()
    }

    /// Run `f` on the app; a panic marks the game crashed.
    fn guard<T>(&mut self, f: impl FnOnce(&mut WebApp) -> T) -> Option<T> {
        match std::panic::catch_unwind(AssertUnwindSafe(|| f(&mut self.app))) {
            Ok(t) => Some(t),
            Err(_) => {
                self.crashed = true;
                None
            }
        }
    }

    /// Draw the game's frame (answering every move made so far).
    fn present(&mut self) -> bool {
        let Tracked { app, screen, .. } = self;
        if std::panic::catch_unwind(AssertUnwindSafe(|| screen.present(app))).is_err() {
            self.crashed = true;
        }
        !self.crashed
    }

    /// One command from the page.
    fn command(&mut self, cmd: Command, me: &Handle) -> Next {
        let input = self.screen.input(cmd);
        let quit = input == Input::Quit;
        let Some(c) = self.guard(|a| a.handle(input)) else {
            return self.end();
        };
        self.moved(if quit { Control::Quit } else { c }, me)
    }

    /// The app moved on (it said `c`): its progress for the lobby, then its files to the
    /// journal and the store before it is answered.
    fn moved(&mut self, c: Control, me: &Handle) -> Next {
        self.game.state().progress = self.app.progress();
        self.write(c, me)
    }

    /// Try to write the last move: the journal's file first, then the store (through the
    /// writer, answered by [`Event::Committed`]).
    fn write(&mut self, c: Control, me: &Handle) -> Next {
        if self.lost || self.game.taken() {
            self.lost = true;
            return self.written(c);
        }
        if let Some(why) = self.app.journal_behind() {
            return self.failed("its journal", why, c);
        }
        match self.mirror.change() {
            Err(e) => self.failed("the game store", e.to_string(), c),
            Ok(None) => self.written(c),
            Ok(Some((w, done))) => {
                let me = me.clone();
                self.commits.submit(
                    self.mirror.id(),
                    w.restart,
                    w.lines,
                    w.save,
                    Box::new(move |r| me.committed(r)),
                );
                self.phase = Phase::Writing(c, done);
                Next::Wait(None)
            }
        }
    }

    /// The store's writer answered the last move's write.
    fn committed(&mut self, r: crate::store::Result<bool>) -> Next {
        let Phase::Writing(c, done) = std::mem::replace(&mut self.phase, Phase::Ready) else {
            return Next::More;
        };
        match r {
            Ok(true) => {
                self.mirror.written(done);
                self.synced();
                self.written(c)
            }
            Ok(false) => {
                eprintln!(
                    "alembic-web: game {}: another server holds it now; it stops here",
                    self.game.id
                );
                self.lost = true;
                self.written(c)
            }
            Err(e) => self.failed("the game store", e.to_string(), c),
        }
    }

    /// The last move could not be written (`what` failed, saying `why`): the player told
    /// (once), tried again after a growing pause; while the game stops (the server stops,
    /// the player left) it ends unanswered, [`Tracked::behind`] saying why.
    fn failed(&mut self, what: &'static str, err: String, c: Control) -> Next {
        let id = self.game.id;
        let why = format!("{what} cannot be written ({err})");
        match &mut self.retry {
            None => {
                eprintln!(
                    "alembic-web: game {id}: {why}; its moves are not answered until they are written"
                );
                // The player is told the system's words, not the server's paths.
                self.game.hub.notice(
                    &format!(
                        "Your last move is not answered yet: {what} cannot be written ({}). It is kept and answered as soon as it is written; every move you saw answered is safe.",
                        cause(&err)
                    ),
                    true,
                );
                self.game.state().held = true;
                self.retry = Some(Retry {
                    since: Instant::now(),
                    pause: RETRY_FIRST,
                    why,
                });
            }
            Some(r) => {
                r.pause = (r.pause * 2).min(RETRY_MAX);
                r.why = why;
            }
        }
        let pause = self.retry.as_ref().map_or(RETRY_FIRST, |r| r.pause);
        if self.game.state().quitting {
            return self.give_up(c);
        }
        let at = Instant::now() + pause;
        self.phase = Phase::Held(c, at);
        Next::Wait(Some(at))
    }

    /// The game stops with its last move unwritten.
    fn give_up(&mut self, _c: Control) -> Next {
        self.game.state().held = false;
        let why = self.retry.take().map_or_else(String::new, |r| r.why);
        eprintln!(
            "alembic-web: game {}: stopped with its last move unwritten: {why}; it continues from the last move answered",
            self.game.id
        );
        self.behind = Some(why);
        // Its last chance to save (refused while the journal is behind), as when the
        // server stops; the move stays unanswered.
        let _ = self.guard(|a| a.handle(Input::Quit));
        self.end()
    }

    /// The last move is written (or the game was lost): answered, unless the game stops.
    fn written(&mut self, c: Control) -> Next {
        self.phase = Phase::Ready;
        if let Some(r) = self.retry.take() {
            self.game.state().held = false;
            if !self.lost {
                eprintln!(
                    "alembic-web: game {}: written again after {:.1} s; the store holds every move answered",
                    self.game.id,
                    r.since.elapsed().as_secs_f64()
                );
                self.game
                    .hub
                    .notice("Every move is written again: play on.", false);
            }
        }
        if self.lost || self.ended() || c == Control::Quit {
            return self.end();
        }
        if !self.present() {
            return self.end();
        }
        Next::More
    }

    /// When it wants a [`Event::Timer`].
    fn due(&self) -> Option<Instant> {
        match self.phase {
            Phase::Ready => self.screen.tick_at,
            Phase::Writing(..) => None,
            Phase::Held(_, at) => Some(at),
        }
    }

    /// The game ends here: its files into the store, filed, its viewers told.
    pub(super) fn end(&mut self) -> Next {
        let g = Arc::clone(&self.game);
        let why = if self.crashed {
            // Its last chance to save, as when a terminal hangs up.
            let _ = std::panic::catch_unwind(AssertUnwindSafe(|| self.app.handle(Input::Quit)));
            "The game crashed (a bug): it was saved where it could be, and the server goes on."
        } else if self.lost {
            "This game was taken over by another server (this one lost touch with the database): reload the page to continue it there."
        } else if self.behind.is_some() {
            "The game stopped before your last move could be written: it continues from the last move you saw answered."
        } else if g.save.is_file() {
            "Your game was saved; come back to continue it."
        } else {
            "The game is over."
        };
        if let Err(e) = self.sync() {
            eprintln!(
                "alembic-web: game {}: cannot mirror its end into the store ({e})",
                g.id
            );
        }
        let points = self.app.points();
        let kept = self
            .srv
            .game_ended(&g, self.mirror.recording(), points, self.lost);
        let summary = self
            .ending
            .take()
            .filter(|_| !self.lost && self.behind.is_none())
            .map(|e| summary_of(&g, e, points, kept));
        g.hub.end_with(why, summary);
        Next::Done
    }
}

impl Task for Tracked {
    fn run(&mut self, event: Event, me: &Handle) -> Next {
        match event {
            Event::Committed(r) => self.committed(r),
            Event::Wake => {
                if !matches!(self.phase, Phase::Ready) {
                    return Next::Wait(self.due());
                }
                match self.rx.try_recv() {
                    Ok(cmd) => self.command(cmd, me),
                    Err(TryRecvError::Empty) => Next::Wait(self.due()),
                    // Every sender gone (the server dropped the game) is a quit too.
                    Err(TryRecvError::Disconnected) => self.command(Command::Quit, me),
                }
            }
            Event::Timer => match self.phase {
                Phase::Held(c, at) if at <= Instant::now() => {
                    if self.game.state().quitting {
                        return self.give_up(c);
                    }
                    self.phase = Phase::Ready;
                    self.write(c, me)
                }
                Phase::Ready if self.screen.tick_at.is_some_and(|t| t <= Instant::now()) => {
                    self.screen.tick_at = None;
                    let turn = self.game.state().progress.turn;
                    let Some(c) = self.guard(WebApp::tick) else {
                        return self.end();
                    };
                    // A tick that moved the game on (a journey's step) is answered as a
                    // move is.
                    if self.app.progress().turn != turn {
                        self.moved(c, me)
                    } else if c == Control::Quit {
                        self.end()
                    } else if self.present() {
                        Next::Wait(self.due())
                    } else {
                        self.end()
                    }
                }
                _ => Next::Wait(self.due()),
            },
        }
    }
}

/// What the store keeps of a finished game, beside its record (which makes its page).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Kept {
    /// Its morgue file.
    pub(super) morgue: bool,
    /// Its recording (so it replays).
    pub(super) recording: bool,
}

/// The page's summary of game `g`, which ended as `ending` said with `points`; its links
/// only to what the store `kept` (none when its end could not be stored as finished: the
/// pages would not show it).
pub(super) fn summary_of(
    g: &LiveGame,
    ending: alembic_games::end::EndSummary,
    points: Option<i64>,
    kept: Option<Kept>,
) -> GameSummary {
    GameSummary {
        game: g.kind.name().to_owned(),
        id: g.id,
        won: ending.won,
        quit: ending.quit,
        headline: ending.headline,
        cause: ending.cause,
        depth: (ending.depth > 0).then_some(ending.depth),
        turns: ending.turns,
        score: points,
        links: kept.map_or_else(EndLinks::default, |k| {
            EndLinks::of(g.id, k.morgue, k.recording)
        }),
    }
}
