//! What a server that runs many games at once (the browser frontend, `alembic-web`) needs of
//! a game beyond [`GameEntry::launch`](crate::GameEntry::launch): to put its save and
//! recording where the server keeps them, to start it from a seed the server chose, and to
//! read where the game is (turn, depth, score, ending) for its lobby and score tables.
//!
//! A game gives this through [`GameEntry::host`](crate::GameEntry::host); `None` keeps it out
//! of such servers. A game on the session ([`alembic_session::play`]) needs one line:
//! `host: Some(|o| host_session(MyRules::new(), o))` (see [`host_session`]).

use std::path::PathBuf;
use std::sync::Arc;

use alembic::Game;
use alembic_session::board::Board;
use alembic_session::end::EndSummary;
use alembic_session::play::Session;
use alembic_session::ruleset::Ruleset;
use alembic_ui::{App, ScreenStack};

/// How a server starts a game: where its save goes, the seed of a new game, whether the
/// frontend draws tiles; or a recording to show in the replay viewer instead.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// The game's save file: continued from it when it exists, else a new game saving
    /// there (its recording sits beside it, [`alembic_session::record::beside`]).
    pub save: PathBuf,
    /// The seed of a new game.
    pub seed: u64,
    /// As [`alembic_session::LaunchOptions::tiles`].
    pub tiles: Option<bool>,
    /// Show this recording in the replay viewer instead (nothing is saved).
    pub replay: Option<PathBuf>,
    /// The whole states kept by the process writing that recording (a live game's, for a
    /// look into its past): the viewer seeks from them too.
    pub kept: Option<Arc<alembic_session::playback::KeptStates>>,
    /// Flush the game's recording to the disk at each move (`true` unless the host holds
    /// every move durably elsewhere first: [`alembic_session::run::Run::set_flush_appends`]).
    pub flush_appends: bool,
    /// How often the game is saved and checkpointed
    /// ([`alembic_session::run::Run::set_cadence`]): the default unless the host holds every
    /// move durably elsewhere.
    pub cadence: alembic_session::run::Cadence,
}

/// A running game as a server sees it: an [`App`] whose game, turn, depth, score and ending
/// it can read.
pub trait Hosted: App {
    /// The game in play, if there is one (not on a start screen, not a test game).
    fn game(&self) -> Option<&Game>;

    /// The game's turn (by default the turn of [`Hosted::game`], 0 without one).
    fn turn(&self) -> u64 {
        self.game().map_or(0, Game::turn)
    }

    /// The hero's depth, for the lobby; `None` (the default) when it has none.
    fn depth(&self) -> Option<i32> {
        None
    }

    /// The score as the game's own score table counts it; `None` (the default) when there is
    /// none.
    fn points(&self) -> Option<i64> {
        None
    }

    /// How the game ended, once it is over and filed (save removed, recording and morgue
    /// file kept); `None` (the default) while it goes on.
    fn ending(&self) -> Option<EndSummary> {
        None
    }

    /// Why the game's journal (its recording) is behind, if it is: moves waiting in memory
    /// are written first, now. `None` (the default) when nothing waits.
    fn journal_behind(&mut self) -> Option<String> {
        None
    }

    /// The state hash of [`Hosted::game`] when its recording's last checkpoint is of that
    /// very version, known without hashing the world again; `None` (the default) when it is
    /// not known that way.
    fn checkpointed(&self) -> Option<u64> {
        None
    }
}

/// How [`GameEntry::host`](crate::GameEntry::host) starts a game for a server; `Err` is the
/// game's own message (an unreadable save, a recording that does not replay).
pub type HostFn = fn(&HostOptions) -> Result<Box<dyn Hosted>, String>;

impl<R: Ruleset> Hosted for ScreenStack<Session<R>> {
    fn game(&self) -> Option<&Game> {
        Some(self.ctx().game())
    }
    fn depth(&self) -> Option<i32> {
        Some(self.ctx().rules().summary(self.ctx().game()).depth)
    }
    fn points(&self) -> Option<i64> {
        i64::try_from(self.ctx().rules().summary(self.ctx().game()).score).ok()
    }
    fn ending(&self) -> Option<EndSummary> {
        self.ctx().ending()
    }
    fn journal_behind(&mut self) -> Option<String> {
        self.ctx_mut().journal_behind()
    }
    fn checkpointed(&self) -> Option<u64> {
        self.ctx().checkpointed()
    }
}

/// [`GameEntry::host`](crate::GameEntry::host) for a game on the session: the replay viewer
/// of `opts.replay`, else the game continued from `opts.save` when it exists, else a new one
/// from `opts.seed` saving there; straight into play (the start screen is under the game).
///
/// # Errors
/// `rules` could not be made, the save is unreadable, or the recording does not replay (the
/// game's own message).
pub fn host_session<R, E>(
    rules: Result<R, E>,
    opts: &HostOptions,
) -> Result<Box<dyn Hosted>, String>
where
    R: Ruleset + Board<R> + 'static,
    E: std::fmt::Display,
{
    let rules = Arc::new(rules.map_err(|e| e.to_string())?);
    let board: Arc<dyn Board<R>> = rules.clone();
    host_session_on(rules, board, opts)
}

/// [`host_session`] for rules shown on `board` (a game whose board is another type than its
/// rules, as Alchemy's `AlchemyBoard`).
///
/// # Errors
/// As [`host_session`].
pub fn host_session_on<R: Ruleset>(
    rules: Arc<R>,
    board: Arc<dyn Board<R>>,
    opts: &HostOptions,
) -> Result<Box<dyn Hosted>, String> {
    if let Some(path) = &opts.replay {
        return alembic_session::play::replay_app_kept(rules, board, path, opts.kept.as_ref())
            .map(|s| Box::new(s) as Box<dyn Hosted>)
            .map_err(|e| e.to_string());
    }
    let session = if opts.save.is_file() {
        Session::load_reporting(rules, board, &opts.save, &mut |_, _| {})
            .map_err(|e| e.to_string())?
    } else {
        Session::with_board(rules, board, opts.seed).with_save(opts.save.clone())
    };
    Ok(Box::new(alembic_session::play::app_playing(
        session
            .with_tiles(opts.tiles == Some(true))
            .with_flush_appends(opts.flush_appends)
            .with_cadence(opts.cadence),
    )))
}

/// Alchemy for a server: on the session every game plays on, drawn by its own board.
pub(crate) fn host_alchemy(opts: &HostOptions) -> Result<Box<dyn Hosted>, String> {
    let rules = Arc::new(crate::alchemy::Alchemy::new().map_err(|e| e.to_string())?);
    let board = crate::alchemy::ui::ruleset::AlchemyBoard::shared();
    host_session_on(rules, board, opts)
}
