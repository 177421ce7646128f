//! A game's app on its thread, [`Tracked`]: after every input its progress goes to the
//! lobby and its files into the store, and a move is answered only once both its journal's
//! file and the store hold it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use alembic_ui::{App, Control, Frame, Input};

use super::LiveGame;
use crate::games::WebApp;
use crate::store::group::GroupCommit;
use crate::store::{GameStatus, Store};
use crate::sync::Mirror;

/// A game's app, telling its [`LiveGame`] where it is after every input, and mirroring its
/// files into the store before the answer is drawn. A move is answered (its frame drawn)
/// only once its journal line is in the file and the store: while either cannot be written
/// (a full disk, a read-only directory, the database down), the game thread retries and the
/// player is told why; nothing is answered meanwhile (see [`Tracked::settle`]).
pub(super) struct Tracked {
    pub(super) app: WebApp,
    pub(super) game: Arc<LiveGame>,
    pub(super) mirror: Mirror,
    pub(super) store: Arc<dyn Store>,
    /// The store's writer of moves (many games' in one transaction).
    pub(super) commits: Arc<GroupCommit>,
    /// When the progress was last written to the store.
    pub(super) progress_written: Instant,
    /// This server's name (it writes to the store only while it holds the game).
    pub(super) server: String,
    /// Another server holds the game now (this one lost touch with the database for
    /// longer than its lease): the game stops here, writing nothing more.
    pub(super) lost: bool,
    /// Why the last move could not be written, when the game stopped before it was (the
    /// server stopping, the player gone): that move was never answered.
    pub(super) behind: Option<String>,
    /// How the game ended, once it is over and filed: the game stops there, and the page
    /// shows this summary instead of the end screen the terminal draws.
    pub(super) ending: Option<alembic_games::end::EndSummary>,
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
        let now = crate::accounts::now();
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
        // A checkpoint of the state the game is in: kept whole for spectators' looks back.
        if let Some((turn, hash)) = self.mirror.take_checkpoint()
            && let Some(g) = self.app.game()
            && g.turn() == turn
            && g.state_hash() == hash
        {
            self.game.past.keep(g);
        }
        if self.progress_written.elapsed() >= PROGRESS_EVERY {
            let p = self.game.state().progress;
            match self.store.set_game(
                self.game.id,
                &self.server,
                GameStatus::Live,
                p.depth,
                p.turn,
                now,
            ) {
                Ok(true) => self.progress_written = Instant::now(),
                Ok(false) => self.lost = true,
                Err(_) => {}
            }
        }
        Ok(())
    }

    /// Why the last move is not yet both in the journal's file and in the store, after one
    /// more try to write it there (what failed, and the error); `None` once it is.
    fn unwritten(&mut self) -> Option<(&'static str, String)> {
        if self.lost {
            return None;
        }
        if let Some(why) = self.app.journal_behind() {
            return Some(("its journal", why));
        }
        self.sync().err().map(|e| ("the game store", e))
    }

    /// Return only once the store holds every move made (so the frame drawn next answers
    /// nothing the store lacks): retried with growing pauses while the journal's file or
    /// the store cannot be written, the player told why (a standing notice) and the log
    /// told once; then told it is written again. `false`: the game is stopping (the server
    /// stops, the player left) before it could be written; [`Tracked::behind`] says why,
    /// and the move must not be answered.
    fn settle(&mut self) -> bool {
        let Some((what, first)) = self.unwritten() else {
            return true;
        };
        let id = self.game.id;
        let since = Instant::now();
        eprintln!(
            "alembic-web: game {id}: {what} cannot be written ({first}); its moves are not answered until they are written"
        );
        // The player is told the system's words, not the server's paths.
        self.game.hub.notice(
            &format!(
                "Your last move is not answered yet: {what} cannot be written ({}). It is kept and answered as soon as it is written; every move you saw answered is safe.",
                cause(&first)
            ),
            true,
        );
        let mut why = format!("{what} cannot be written ({first})");
        self.game.state().held = true;
        let mut pause = RETRY_FIRST;
        loop {
            if self.game.state().quitting {
                self.game.state().held = false;
                eprintln!(
                    "alembic-web: game {id}: stopped with its last move unwritten: {why}; it continues from the last move answered"
                );
                self.behind = Some(why);
                return false;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(RETRY_MAX);
            match self.unwritten() {
                Some((what, e)) => why = format!("{what} cannot be written ({e})"),
                None => break,
            }
        }
        self.game.state().held = false;
        if !self.lost {
            eprintln!(
                "alembic-web: game {id}: written again after {:.1} s; the store holds every move answered",
                since.elapsed().as_secs_f64()
            );
            self.game
                .hub
                .notice("Every move is written again: play on.", false);
        }
        true
    }

    /// After the app moved on: its progress for the lobby, then [`Tracked::settle`]; `c`,
    /// or [`Control::Quit`] when the game must stop here: it was lost, or it is over and
    /// filed ([`Tracked::ended`]).
    fn after(&mut self, c: Control) -> Control {
        self.game.state().progress = self.app.progress();
        if !self.settle() {
            // Its last chance to save (refused while the journal is behind), as when the
            // server stops; the move stays unanswered.
            let _ = self.app.handle(Input::Quit);
            return Control::Quit;
        }
        if self.lost || self.ended() {
            Control::Quit
        } else {
            c
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
}

impl App for Tracked {
    fn render(&mut self, frame: &mut Frame) {
        self.app.render(frame);
    }
    fn handle(&mut self, input: Input) -> Control {
        let c = self.app.handle(input);
        self.after(c)
    }
    fn tick_interval(&self) -> Option<Duration> {
        self.app.tick_interval()
    }
    fn tick(&mut self) -> Control {
        let turn = self.game.state().progress.turn;
        let c = self.app.tick();
        // A tick that moved the game on (a journey's step) is answered as a move is.
        if self.app.progress().turn == turn {
            c
        } else {
            self.after(c)
        }
    }
    fn title(&self) -> Option<String> {
        self.app.title()
    }
}
