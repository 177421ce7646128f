//! The Alchemy game UI: every screen a player sees, as a [`ScreenStack`] over an
//! [`AlchemyCtx`]. Pure: it draws into [`alembic_ui::Frame`]s and reacts to [`alembic_ui::Input`]s;
//! the only I/O is the save file, through [`alembic_alchemy::save`].
//!
//! Screens: the start screen (new game, seed, continue, help, quit), [`play`] (map, messages,
//! status, every command key), and the prompts (item lists, crafting, direction, look/target
//! cursor, the end-of-game summary). The public modules are the namespaces tests and tools
//! reach into ([`keymap`], [`travel`], [`morgue`], [`record`], [`replay`]); the other screens
//! are private.
//!
//! ```
//! use alembic_ui::{Input, TestFrontend, run};
//! use alembic_alchemy_ui::{self as ui, Start, UiOptions};
//! let mut app = ui::app(UiOptions { start: Start::New(7), save_path: None, tiles: None, practice: false, wizard: false })?;
//! // A step, then quit: `Q` `y` ends on the summary, and `q` leaves it.
//! let keys = [Input::ch('l'), Input::ch('Q'), Input::ch('y'), Input::ch('q')];
//! let mut fe = TestFrontend::new(100, 30, keys);
//! run(&mut fe, &mut app)?;
//! assert!(fe.frames()[0].contains_text("Depth 1/11"));
//! assert!(fe.last_frame().is_some_and(|f| f.contains_text("You quit.")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod keymap;
mod map;
pub use alembic_alchemy::morgue;
pub use map::{Hints, Shown};
pub mod play;
mod prompts;
pub mod record;
pub mod replay;
pub mod ruleset;
mod start;
mod status;
pub mod travel;

use std::path::{Path, PathBuf};

use std::sync::Arc;

use alembic::{Game, Loc, Rgb};
use alembic_ui::{ScreenStack, Transition};

use alembic_alchemy::save::SaveError;
use alembic_alchemy::{self as alchemy, Command, Rules};
use alembic_session::console::{ConsoleHost, WizardConsole};
use alembic_session::play::Step;
use alembic_session::ruleset::Status;
use alembic_session::run::{Filed, Run, StepRefusal, UndoError};
use alembic_session::start::{StartHost, StartReply, StartScreen};

use alembic_session::Ruleset as _;
use ruleset::{Alchemy, Happened};

/// The name of the save file inside [`alembic_session::save_dir`].
pub const SAVE_FILE: &str = "alchemy.save";

/// How the UI starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start screen (new game, continue, help, quit).
    Menu,
    /// Straight into a new game from this seed.
    New(u64),
    /// Straight into the game saved in this file (saves go back to it).
    Load(PathBuf),
    /// Watch the recording in this file.
    Replay(PathBuf),
}

/// Everything [`app`] needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UiOptions {
    /// Where to begin.
    pub start: Start,
    /// Where `S` saves and "continue" looks (normally `save_dir()/alchemy.save`); `None`
    /// when there is nowhere to save. Ignored for saving by [`Start::Load`], which saves back
    /// to the file it loaded.
    pub save_path: Option<PathBuf>,
    /// Graphical tiles: `None` when the frontend cannot draw them, else whether the map
    /// starts in tiles.
    pub tiles: Option<bool>,
    /// New games are practice games (`--practice`): undo allowed, never scored.
    pub practice: bool,
    /// New games are wizard games (`--wizard`).
    pub wizard: bool,
}

/// Why the UI could not start.
#[derive(Debug, thiserror::Error)]
pub enum UiError {
    /// The rules could not be built (a bug).
    #[error("cannot set up the Alchemy rules: {0}")]
    Rules(alembic::Error),
    /// A new game could not be generated (a bug).
    #[error("cannot create a new game: {0}")]
    NewGame(alembic::Error),
    /// The save file could not be loaded.
    #[error("{0}")]
    Load(#[from] SaveError),
    /// The recording cannot be watched.
    #[error("{0}")]
    Replay(#[from] replay::ReplayOpenError),
    /// The save is open in another window, or its lock cannot be taken safely.
    #[error("{0}")]
    Busy(alembic_session::storage::StorageError),
    /// The data files or mods asked for have mistakes (every one, with its place).
    #[error("{0}")]
    Data(alembic_data::DataErrors),
    /// The save could not be continued (its data, or a check of the session's).
    #[error("{0}")]
    Continue(alembic_session::Cause),
}

/// Why the UI could not save the game.
#[derive(Debug, thiserror::Error)]
pub enum UiSaveError {
    /// No game is in play.
    #[error("There is no game to save.")]
    NoGame,
    /// Neither `HOME` nor `XDG_DATA_HOME` names a data directory.
    #[error("Cannot save: no data directory (set HOME or XDG_DATA_HOME).")]
    NoDataDir,
    /// The save could not be written (the sentence says why; the old save is untouched).
    #[error(transparent)]
    Failed(#[from] alembic_session::run::CannotSave),
}

/// How a log line is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A message from the game.
    Game,
    /// A refusal or a UI note ("You cannot drink that.", "Unknown key").
    Note,
    /// Something going badly wrong (a failed save, an internal error).
    Error,
}

/// One line of the UI's message log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The turn it was said on (an undo drops the lines of the turns it takes back).
    pub turn: u64,
    /// The text.
    pub text: String,
    /// Its colour class.
    pub tone: Tone,
    /// How many times in a row it was said (shown as "(x3)").
    pub repeats: u32,
}

impl LogLine {
    /// The text as shown: with "(xN)" when repeated.
    #[must_use]
    pub fn shown(&self) -> String {
        if self.repeats > 1 {
            format!("{} (x{})", self.text, self.repeats)
        } else {
            self.text.clone()
        }
    }
}

/// Where a death's `--More--` pause stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum DeathPause {
    /// Not shown for this game yet.
    #[default]
    NotYet,
    /// On screen now.
    Showing,
    /// Read: the end screen (or the practice rewind) comes next.
    Done,
}

/// Below this share of maximum HP (a quarter) the game warns "Low HP!".
pub const LOW_HP_PERCENT: i64 = 25;

/// Whether `hp` of `max` is low (below [`LOW_HP_PERCENT`]).
#[must_use]
pub fn low_hp(hp: i32, max: i32) -> bool {
    i64::from(hp) * 100 < i64::from(max.max(1)) * LOW_HP_PERCENT
}

/// Most log lines kept.
const LOG_KEEP: usize = 1000;

/// The shared state of every Alchemy screen: the game in play (a session [`Run`] on the
/// [`Alchemy`] contract: its save slot, recording, practice history and filing are the
/// session's, shared with every game) and this crate's own UI state, such as the toned
/// message log and the look cursor.
pub struct AlchemyCtx {
    alchemy: Arc<Alchemy>,
    /// The game in play, if any.
    run: Option<Run<Alchemy>>,
    /// The seed of the game in play, when known (a continued game without its recording
    /// does not know it).
    seed: Option<u64>,
    /// Where new games save and "continue" looks (the default save).
    default_save: Option<PathBuf>,
    log: Vec<LogLine>,
    /// How many of the newest log lines arrived with the latest command.
    fresh: usize,
    /// The look/target cursor, while one is shown.
    cursor: Option<Loc>,
    /// A planned throw's path, drawn under the target cursor.
    path: Vec<Loc>,
    /// What saving on close said: where the game went, or why it could not be saved.
    exit_note: Option<Result<PathBuf, String>>,
    /// The lock on the save in use, held for the whole session.
    lock: Option<alembic_session::storage::SessionLock>,
    /// Graphical tiles: `None` when the frontend cannot draw them, else whether they are on.
    tiles: Option<bool>,
    /// New games are practice games (undo allowed, never scored).
    practice_new: bool,
    /// New games are wizard games (a console of wizard commands, never scored).
    wizard_new: bool,
    /// What `n` starts: practice games when launched with `--practice`.
    practice_default: bool,
    /// Auto-explore picks up the items it sees (off until the player turns it on with `A`).
    autopickup: bool,
    /// What filing the last finished game kept ([`AlchemyCtx::finish_game`]).
    filed: Option<Filed>,
    /// The game shown is a recording's: nothing is saved or recorded.
    replaying: bool,
    /// The player declined to rewind a practice game after dying.
    rewind_declined: bool,
    /// The `--More--` before the death screen.
    pub(crate) death_pause: DeathPause,
    /// Records of ended games that could not be kept (see [`AlchemyCtx::record_problems`]).
    record_problems: Vec<String>,
    /// Things the player must hear even if the screen closes at once (said again by
    /// [`AlchemyCtx::farewell`]).
    told: Vec<String>,
    /// The creatures travel, explore and rest have already said they see: each is
    /// announced once, not again each time it steps back into view.
    announced: Vec<alembic::ThingId>,
}

impl std::fmt::Debug for AlchemyCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlchemyCtx")
            .field("turn", &self.game().map(Game::turn))
            .field("seed", &self.seed)
            .field("save_path", &self.save_path())
            .field("replaying", &self.replaying)
            .finish_non_exhaustive()
    }
}

pub use alembic_session::slot::AUTOSAVE_EVERY;

/// How much of a practice game is kept whole for `U` (the session's budget: the newest
/// 2,000 values, then one in every 100).
pub const PRACTICE_BUDGET: alembic::history::Budget = alembic_session::run::PRACTICE_BUDGET;

/// How many moves "rewind" takes back when a practice game ends in death (the session's
/// [`REWIND`](alembic_session::end::REWIND), the same in every game).
pub const REWIND_MOVES: usize = alembic_session::end::REWIND;

impl AlchemyCtx {
    /// A context with no game yet, on `rules`.
    #[must_use]
    pub fn new(rules: Rules, save_path: Option<PathBuf>) -> Self {
        AlchemyCtx::on(Arc::new(Alchemy::or_without_wizard(rules)), save_path)
    }

    /// A context with no game yet, on the contract `alchemy`.
    #[must_use]
    pub fn on(alchemy: Arc<Alchemy>, save_path: Option<PathBuf>) -> Self {
        AlchemyCtx {
            alchemy,
            run: None,
            seed: None,
            default_save: save_path,
            log: Vec::new(),
            fresh: 0,
            cursor: None,
            path: Vec::new(),
            exit_note: None,
            lock: None,
            tiles: None,
            practice_new: false,
            wizard_new: false,
            practice_default: false,
            filed: None,
            replaying: false,
            rewind_declined: false,
            autopickup: false,
            death_pause: DeathPause::NotYet,
            record_problems: Vec::new(),
            told: Vec::new(),
            announced: Vec::new(),
        }
    }

    /// Hold `lock` (on the save in use) until this context is dropped.
    pub fn hold_lock(&mut self, lock: alembic_session::storage::SessionLock) {
        self.lock = Some(lock);
    }

    /// One window per save: hold the lock of the save at `path` before playing it (the
    /// lock of the save played before is let go once this one is held). With `make_dir`,
    /// the save's directory (the data directory) is created first.
    ///
    /// # Errors
    /// [`UiError::Busy`] when another window holds it, something that is not a lock file
    /// is where its lock goes, or the lock cannot be made or written (a read-only file or
    /// directory): the game is never played unlocked.
    fn ensure_lock(&mut self, path: &Path, make_dir: bool) -> Result<(), UiError> {
        use alembic_session::storage::{SessionLock, canonical_save};
        if make_dir && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        if let (Some(lock), Ok(c)) = (&self.lock, canonical_save(path))
            && lock.save() == c
        {
            return Ok(());
        }
        match SessionLock::acquire(path) {
            Ok(lock) => {
                self.lock = Some(lock);
                Ok(())
            }
            Err(e) => Err(UiError::Busy(e)),
        }
    }

    /// The game in play, when there is one that is not a recording's.
    fn live(&mut self) -> Option<&mut Run<Alchemy>> {
        if self.replaying {
            return None;
        }
        self.run.as_mut()
    }

    /// Say what went wrong in the run (a recording that stopped, a failed autosave).
    fn show_problems(&mut self) {
        let problems = self
            .run
            .as_mut()
            .map(Run::take_problems)
            .unwrap_or_default();
        for p in problems {
            self.note(Tone::Error, p);
        }
    }

    /// Whether the player saved this game or continued it from a save: quitting keeps the
    /// save then; otherwise the game (only ever saved by itself) is lost on quit.
    #[must_use]
    pub fn player_saved(&self) -> bool {
        self.run.as_ref().is_some_and(Run::player_saved)
    }

    /// Whether the save file is this game's own (see [`alembic_session::slot`]): only then
    /// is it autosaved or removed when the game ends.
    #[must_use]
    pub fn owns_save(&self) -> bool {
        self.run.as_ref().is_some_and(Run::owns_save)
    }

    /// Save to [`AlchemyCtx::save_path`] and leave: the farewell says where the game went.
    ///
    /// # Errors
    /// As [`AlchemyCtx::save`].
    pub fn save_and_leave(&mut self) -> Result<PathBuf, UiSaveError> {
        let path = self.save()?;
        if let Some(run) = self.run.as_mut() {
            run.mark_player_saved();
        }
        self.exit_note = Some(Ok(path.clone()));
        Ok(path)
    }

    /// Save on close (the window closing, Ctrl-C, SIGTERM…) and remember what happened for
    /// [`AlchemyCtx::farewell`]. Does nothing when no game is in play or it is over.
    pub fn save_on_exit(&mut self) {
        let playing = self
            .run
            .as_ref()
            .is_some_and(|r| !r.is_ended() && r.status() == Status::Playing);
        if self.replaying || !playing {
            return;
        }
        let saved = self.save();
        if saved.is_ok()
            && let Some(run) = self.run.as_mut()
        {
            run.mark_player_saved();
        }
        self.exit_note = Some(saved.map_err(|e| e.to_string()));
    }

    /// The grid that shows a whole level with the messages and the side panel
    /// ([`alembic_ui::App::preferred_grid`]): a window sizes its cells to it.
    #[must_use]
    pub fn whole_level(&self) -> Option<(u16, u16)> {
        Some(map::whole_level())
    }

    /// The last-resort save of the game in play (see [`alembic_ui::App::emergency_save`]):
    /// what [`AlchemyCtx::save`] would write, from a clone of the game as it stands. `None`
    /// with no game in play, a replay, a game over, or a game whose save is not its own yet
    /// (a practice, wizard or `--seed` game over another game's save: that save is kept as
    /// it is until the player saves).
    #[must_use]
    pub fn emergency_save(&self) -> Option<alembic_ui::EmergencySave> {
        if self.replaying {
            return None;
        }
        self.run
            .as_ref()?
            .emergency_save()
            .map(alembic_session::record::for_frontend)
    }

    /// The window title: the game and the hero's depth (see [`alembic_ui::App::title`]).
    #[must_use]
    pub fn title(&self) -> Option<String> {
        let depth = self.game().and_then(alchemy::view::hero_depth);
        let turn = self.game().map_or(0, Game::turn);
        Some(match depth {
            Some(d) if self.replaying => format!("Alembic: Alchemy replay, depth {d}, turn {turn}"),
            Some(d) => format!("Alembic: Alchemy, depth {d}"),
            None => "Alembic: Alchemy".to_owned(),
        })
    }

    /// Whether the map is drawn in graphical tiles (only ever on where the frontend draws
    /// them: see [`UiOptions::tiles`]).
    #[must_use]
    pub fn tiles(&self) -> bool {
        self.tiles == Some(true)
    }

    /// Switch between tiles and letters; `None` when this frontend draws letters only.
    pub fn toggle_tiles(&mut self) -> Option<bool> {
        let on = !self.tiles?;
        self.tiles = Some(on);
        Some(on)
    }

    /// What to print once the terminal or window has closed (see [`alembic_ui::App::farewell`]).
    ///
    /// # Errors
    /// The reason the save on close failed (a [`UiSaveError`], as the line the frontend
    /// prints), and what of an ended game could not be kept.
    pub fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        let saved = match &self.exit_note {
            None => None,
            Some(Ok(path)) => Some(format!("Your game was saved to {}.", path.display())),
            Some(Err(e)) => return Err(alembic_ui::FarewellError(self.with_problems(e.clone()))),
        };
        if self.record_problems.is_empty() {
            let lines: Vec<String> = saved.into_iter().chain(self.told.iter().cloned()).collect();
            Ok((!lines.is_empty()).then(|| lines.join(" ")))
        } else {
            Err(alembic_ui::FarewellError(
                self.with_problems(saved.unwrap_or_default()),
            ))
        }
    }

    fn with_problems(&self, first: String) -> String {
        std::iter::once(first)
            .chain(self.record_problems.iter().cloned())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The game contract this context plays.
    #[must_use]
    pub fn contract(&self) -> &Alchemy {
        &self.alchemy
    }

    /// The end screen of the game in play, which is over and filed: the session's
    /// [`EndScreen`](alembic_session::end::EndScreen), with the last messages and what
    /// filing said.
    #[must_use]
    pub fn end_screen(&self) -> Option<alembic_session::end::EndScreen> {
        let game = self.game()?;
        let messages: Vec<String> = self.log.iter().map(LogLine::shown).collect();
        let filed = self.filed.as_ref().map_or(&[][..], |f| &f.lines[..]);
        Some(alembic_session::end::EndScreen::of(
            &*self.alchemy,
            game,
            self.seed,
            &messages,
            filed,
        ))
    }

    /// How the game in play ended, once it is over and filed
    /// ([`Session::ending`](alembic_session::play::Session::ending)'s counterpart); `None`
    /// while it goes on, with no game, and in the replay viewer.
    #[must_use]
    pub fn ending(&self) -> Option<alembic_session::end::EndSummary> {
        let game = self.game()?;
        self.is_filed()
            .then(|| alembic_session::end::EndSummary::of(&*self.alchemy, game))
    }

    /// Why the recording's last moves wait in memory, if they do
    /// ([`Run::journal_behind`]: written first, now).
    pub fn journal_behind(&mut self) -> Option<String> {
        self.run.as_mut().and_then(Run::journal_behind)
    }

    /// The game being played, if any.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.run.as_ref().map(Run::game)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.alchemy.rules()
    }

    /// The seed of the current game, when known.
    #[must_use]
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Where `S` saves the current game.
    #[must_use]
    pub fn save_path(&self) -> Option<&Path> {
        self.run
            .as_ref()
            .and_then(Run::save_path)
            .or(self.default_save.as_deref())
    }

    /// Where "continue" looks for a saved game.
    #[must_use]
    pub fn default_save(&self) -> Option<&Path> {
        self.default_save.as_deref()
    }

    /// The message log, oldest first.
    #[must_use]
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    /// The look or target cursor, while one is shown.
    #[must_use]
    pub fn cursor(&self) -> Option<Loc> {
        self.cursor
    }

    /// Start a new game from `seed`.
    ///
    /// # Errors
    /// An engine error while generating (a bug), or the save's lock is held elsewhere.
    pub fn new_game(&mut self, seed: u64) -> Result<(), UiError> {
        let mut run = Run::new_game(
            self.alchemy.clone(),
            seed,
            self.practice_new,
            self.wizard_new,
        )
        .map_err(UiError::NewGame)?;
        if let Some(save) = self.default_save.clone() {
            self.ensure_lock(&save, true)?;
        }
        self.seed = Some(seed);
        self.filed = None;
        self.replaying = false;
        run.begin(self.default_save.clone());
        let game = run.game().clone();
        self.run = Some(run);
        self.install_new(&game);
        self.show_problems();
        if self.is_practice() {
            self.note(
                Tone::Note,
                "A practice game: U takes back a move. It is never scored.",
            );
        }
        Ok(())
    }

    /// Show `game`, a state of a recording being watched: nothing is saved or recorded
    /// until [`AlchemyCtx::close_game`].
    pub fn show_replay(&mut self, game: Game) {
        self.replaying = true;
        match self.run.as_mut() {
            Some(run) => run.show(game),
            None => self.run = Some(Run::with_game(self.alchemy.clone(), 0, game)),
        }
        self.install(false);
    }

    /// What the board shows of this context: its game, tiles, cursor and key hints.
    #[must_use]
    pub fn shown(&self) -> Option<map::Shown<'_>> {
        Some(map::Shown {
            game: self.game()?,
            tiles: self.tiles(),
            cursor: self.cursor(),
            hints: if self.replaying {
                map::Hints::Watch
            } else {
                map::Hints::Play
            },
        })
    }

    /// Whether the game shown is a recording's.
    #[must_use]
    pub fn is_replaying(&self) -> bool {
        self.replaying
    }

    /// Start new games as practice games (undo allowed, never scored), or not.
    pub fn set_practice(&mut self, on: bool) {
        self.practice_new = on;
    }

    /// Start new games as wizard games, or not.
    pub fn set_wizard(&mut self, on: bool) {
        self.wizard_new = on;
    }

    /// Whether the game in play was filed (it ended, or was continued over): nothing of it
    /// can be taken back then.
    #[must_use]
    pub fn is_filed(&self) -> bool {
        self.filed.is_some()
    }

    /// Whether the player declined to rewind after dying in a practice game.
    #[must_use]
    pub fn rewind_declined(&self) -> bool {
        self.rewind_declined
    }

    /// Record the player's answer to "rewind?" after dying in a practice game.
    pub fn decline_rewind(&mut self) {
        self.rewind_declined = true;
    }

    /// Whether `n` on the start screen starts practice games (`--practice`).
    #[must_use]
    pub fn practice_by_default(&self) -> bool {
        self.practice_default
    }

    /// The modes of the game in play, for saves, recordings and morgues: practice, wizard,
    /// the data (none without a game in play).
    #[must_use]
    pub fn modes(&self) -> alembic_session::Modes {
        self.run.as_ref().map(Run::modes).unwrap_or_default()
    }

    /// Whether the game in play is a wizard game.
    #[must_use]
    pub fn is_wizard(&self) -> bool {
        self.game().is_some_and(alchemy::view::is_wizard_game)
    }

    /// Whether auto-explore picks up the items it sees.
    #[must_use]
    pub fn autopickup(&self) -> bool {
        self.autopickup
    }

    /// Turn auto-explore's picking up on or off; returns the new setting.
    pub fn toggle_autopickup(&mut self) -> bool {
        self.autopickup = !self.autopickup;
        self.autopickup
    }

    /// Whether the game in play is a practice game.
    #[must_use]
    pub fn is_practice(&self) -> bool {
        !self.replaying && self.run.as_ref().is_some_and(Run::is_practice)
    }

    /// The recording of the game in play, if it is being recorded.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.run.as_ref().and_then(Run::recording)
    }

    /// Where the last finished game's recording was kept.
    #[must_use]
    pub fn finished_record(&self) -> Option<&Path> {
        self.filed.as_ref().and_then(|f| f.recording.as_deref())
    }

    /// Take back the last command of a practice game. Returns whether anything was undone.
    pub fn undo(&mut self) -> bool {
        self.undo_moves(1)
    }

    /// Take back up to `n` commands of a practice game (fewer when the game is younger).
    /// Returns whether anything was undone.
    pub fn undo_moves(&mut self, n: usize) -> bool {
        let Some(run) = self.live() else {
            return false;
        };
        let undone = run.undo(n);
        self.show_problems();
        match undone {
            Ok(done) => {
                self.install(true);
                let said = if done == 1 {
                    "You take back a move.".to_owned()
                } else {
                    format!("You take back {done} moves.")
                };
                self.note(Tone::Note, said);
                true
            }
            Err(why) => {
                let tone = match &why {
                    UndoError::Failed(_) => Tone::Error,
                    UndoError::NotPractice | UndoError::Nothing => Tone::Note,
                };
                self.note(tone, why.to_string());
                false
            }
        }
    }

    /// Continue the game saved at `path`; later saves go back to `path`.
    ///
    /// # Errors
    /// The file is missing, unreadable, corrupt, of another game or version.
    pub fn load_game(&mut self, path: &Path) -> Result<(), UiError> {
        self.load_game_reporting(path, &mut |_, _| {})
    }

    /// [`AlchemyCtx::load_game`], telling `report` how far a long journal has been brought
    /// back ([`Run::load_reporting`]).
    ///
    /// # Errors
    /// As [`AlchemyCtx::load_game`].
    pub fn load_game_reporting(
        &mut self,
        path: &Path,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<(), UiError> {
        // The lock first: a refused second window must not replay (and so rewrite) the
        // journal of the game another window plays. A save that is not there is said as
        // such (reading it fails before its recording is touched).
        if let Err(e) = self.ensure_lock(path, false) {
            if !path.is_file() {
                Run::load(self.alchemy.clone(), path).map_err(load_error)?;
            }
            return Err(e);
        }
        let (run, continued) =
            Run::load_reporting(self.alchemy.clone(), path, report).map_err(load_error)?;
        self.seed = run.known_seed();
        self.filed = None;
        self.replaying = false;
        self.rewind_declined = false;
        // The messages are not saved (English is not state): the recording says them
        // again, as the game went up to here (its log and the morgue's timeline).
        let past = if continued.unrecorded.is_none() {
            alembic_session::play::past_messages(&*self.alchemy, &record::beside(path), run.game())
        } else {
            Vec::new()
        };
        self.run = Some(run);
        self.install(false);
        for (turn, text) in past {
            // As play showed them: the same line again from a later move counts up.
            match self.log.last_mut() {
                Some(last) if last.text == text && last.turn != turn => last.repeats += 1,
                _ => self.log.push(LogLine {
                    turn,
                    text,
                    tone: Tone::Game,
                    repeats: 1,
                }),
            }
        }
        self.note(Tone::Note, "Welcome back.");
        for n in continued.notes() {
            self.note(Tone::Note, n);
        }
        // Death is final: a game that is over when continued (its window closed at the
        // death prompt) is filed now, its save removed, whatever the player does next.
        if self
            .run
            .as_ref()
            .is_some_and(|r| r.status() != alembic_session::Status::Playing)
        {
            self.note(
                Tone::Note,
                "This game had ended before its window closed: it is filed now, and its save removed.",
            );
            self.finish_game(false);
        }
        Ok(())
    }

    /// Show a new game, and what the hero reads on entering.
    fn install_new(&mut self, game: &Game) {
        self.install(false);
        for line in alchemy::text::lines(game, &alchemy::Event::Entered) {
            self.push_line(Tone::Game, line);
        }
    }

    /// Show the run's game. The message log is the screens' own (the game value keeps no
    /// English): a game continued or newly begun starts it afresh, and a move taken back
    /// drops the lines of the turns it undid.
    fn install(&mut self, undo: bool) {
        let now = self.game().map_or(0, Game::turn);
        if undo {
            self.log.retain(|l| l.turn <= now);
        } else {
            self.log.clear();
        }
        self.fresh = 0;
        self.cursor = None;
        self.path.clear();
        self.death_pause = DeathPause::NotYet;
        self.announced.clear();
    }

    /// Test or tool use: play `game` at once, unsaved and unrecorded.
    fn install_game(&mut self, game: Game) {
        let seed = self.seed.unwrap_or(0);
        let run = Run::with_game(self.alchemy.clone(), seed, game.clone());
        self.run = Some(run.saving_to(self.default_save.clone()));
        self.install_new(&game);
    }

    /// Whether travel, explore or rest already said it sees the creature `t`.
    #[must_use]
    pub fn is_announced(&self, t: alembic::ThingId) -> bool {
        self.announced.contains(&t)
    }

    /// Remember that the creature `t` was announced (see [`AlchemyCtx::is_announced`]).
    pub fn announce(&mut self, t: alembic::ThingId) {
        if !self.announced.contains(&t) {
            self.announced.push(t);
        }
    }

    /// Forget the current game (back to the start screen).
    pub fn close_game(&mut self) {
        self.replaying = false;
        self.run = None;
        self.seed = None;
        self.cursor = None;
        self.path.clear();
        self.log.clear();
        self.fresh = 0;
    }

    /// Mark every line so far as old: a new command begins.
    fn begin_command(&mut self) {
        self.fresh = 0;
    }

    fn push_line(&mut self, tone: Tone, text: String) {
        // The same refusal again (walking into a wall twice) is not logged again: the line
        // already there is shown as new, with no count to grow.
        if tone == Tone::Note
            && let Some(last) = self.log.last()
            && last.text == text
            && last.tone == tone
        {
            self.fresh = self.fresh.max(1);
            return;
        }
        // The same game message again counts up instead of scrolling.
        if let Some(last) = self.log.last_mut()
            && last.text == text
            && last.tone == tone
            && self.fresh == 0
        {
            last.repeats += 1;
            self.fresh = 1;
            return;
        }
        let turn = self.game().map_or(0, Game::turn);
        self.log.push(LogLine {
            turn,
            text,
            tone,
            repeats: 1,
        });
        self.fresh += 1;
        if self.log.len() > LOG_KEEP {
            let cut = self.log.len() - LOG_KEEP;
            self.log.drain(..cut);
            self.fresh = self.fresh.min(self.log.len());
        }
    }

    /// Tell the player something outside the game's own log (a refusal, a hint); it is new.
    pub fn note(&mut self, tone: Tone, text: impl Into<String>) {
        self.begin_command();
        self.push_line(tone, text.into());
    }

    /// Apply `cmd` through the game's one funnel (the session's [`Run::play`]: recorded,
    /// kept for `U`, autosaved). Accepted: the new game and its messages replace the old;
    /// refused: the reason is noted and nothing else changes (no turn). Returns
    /// `Some(game_over)` when accepted, `None` when refused.
    pub fn act(&mut self, cmd: Command) -> Option<bool> {
        let hp = |g: &Game| alchemy::view::status(g).ok().map(|s| (s.hp, s.hp_max));
        let run = self.live()?;
        let hp_before = hp(run.game());
        match run.play(&Step::Play(cmd)) {
            Ok(played) => {
                self.begin_command();
                let game = self.game().cloned().unwrap_or_else(|| Game::new(0));
                let (mut events, mut replies) = (Vec::new(), Vec::new());
                for h in played.events {
                    match h {
                        Happened::Event(e) => events.push(e),
                        Happened::Reply(r) => replies.push(r),
                    }
                }
                let said = alchemy::text::all_lines(&game, &events);
                for m in said.into_iter().chain(replies) {
                    self.push_line(Tone::Game, m);
                }
                // Once per fall below a quarter of maximum HP (not again until healed above).
                if let (Some((b, bm)), Some((a, am))) = (hp_before, hp(&game))
                    && !low_hp(b, bm)
                    && low_hp(a, am)
                    && a > 0
                {
                    self.push_line(Tone::Error, format!("Low HP! ({a}/{am})"));
                }
                self.show_problems();
                Some(played.over)
            }
            Err(e) => {
                let tone = match e {
                    StepRefusal::Engine(_) => Tone::Error,
                    _ => Tone::Note,
                };
                self.note(tone, e.to_string());
                None
            }
        }
    }

    /// Save the current game to [`AlchemyCtx::save_path`] (creating its directory).
    ///
    /// # Errors
    /// [`UiSaveError`], whose `Display` is a sentence for the player: no game, nowhere to
    /// save, or what the file system said.
    ///
    /// The session's [`Run::save`] marks the recording with a checkpoint of the game first,
    /// then writes the save: at every instant the recording holds a checkpoint equal to the
    /// save on disk, so a crash at any moment leaves a save the recording continues. A
    /// recording held in memory (the save was another game's) is written beside the save
    /// now.
    pub fn save(&mut self) -> Result<PathBuf, UiSaveError> {
        let Some(run) = self.live() else {
            return Err(UiSaveError::NoGame);
        };
        if run.save_path().is_none() {
            return Err(UiSaveError::NoDataDir);
        }
        let saved = run.save().map_err(UiSaveError::Failed);
        self.show_problems();
        saved
    }

    /// Mark the recording with the current game, so a continued game can prove the
    /// recording is its own ([`AlchemyCtx::save`] does this before it writes).
    pub fn checkpoint_record(&mut self) {
        if let Some(run) = self.live() {
            run.checkpoint();
        }
        self.show_problems();
    }

    /// The data directory (where saves, recordings, morgues and scores go).
    #[must_use]
    pub fn data_dir(&self) -> Option<&Path> {
        self.default_save
            .as_deref()
            .or(self.save_path())
            .and_then(Path::parent)
    }

    /// The game ended (died, won, or the player quit): the session files it (its save
    /// removed, its recording kept, its morgue written and its score entered). Problems
    /// are noted, never fatal.
    pub fn finish_game(&mut self, quit: bool) {
        if self.replaying {
            return;
        }
        let messages: Vec<(u64, String)> = self.log.iter().map(|l| (l.turn, l.shown())).collect();
        let Some(filed) = self.run.as_mut().and_then(|r| r.finish(quit, &messages)) else {
            return;
        };
        if let Some(aside) = &filed.set_aside {
            let said = format!(
                "The score table could not be read; it was kept as {} and a new one started.",
                aside.display()
            );
            self.note(Tone::Note, said.clone());
            self.told.push(said);
        }
        for p in &filed.problems {
            self.note(Tone::Error, p.clone());
            self.record_problems.push(p.clone());
        }
        self.filed = Some(filed);
    }

    /// What could not be kept of the games that ended in this session (see
    /// [`AlchemyCtx::farewell`]).
    #[must_use]
    pub fn record_problems(&self) -> &[String] {
        &self.record_problems
    }

    /// Where the last finished game's morgue went, and its rank in the score table.
    #[must_use]
    pub fn finished_morgue(&self) -> Option<(&Path, Option<usize>)> {
        let f = self.filed.as_ref()?;
        Some((f.morgue.as_deref()?, f.rank))
    }

    /// End the game's recording and keep it in `records/` (the session's
    /// [`Run::keep_recording`]). Returns where it went.
    pub fn finish_record(&mut self) -> Option<PathBuf> {
        match self.live()?.keep_recording()? {
            Ok(p) => Some(p),
            Err(e) => {
                self.note(Tone::Error, e.to_string());
                self.record_problems.push(e.to_string());
                None
            }
        }
    }

    /// The wizard console's `reload`: read the data files and mods again from disk and
    /// rebase the game in play on them. Things keep only their differences from their
    /// prototypes, and the game's own changes to the library (its potions' looks and
    /// recipes, what is identified) are kept, so every unchanged thing takes the new
    /// prototype values at once. The recording ends at the reload (kept in `records/`: it
    /// replays with the old data); the game is saved on the new data at once.
    ///
    /// # Errors
    /// One sentence, or every mistake of the data, one a line; then nothing has changed.
    pub fn reload_data(&mut self) -> Result<Vec<String>, String> {
        if self.replaying {
            return Err("A recording cannot reload its data.".into());
        }
        if !self.is_wizard() {
            return Err("Only a wizard game can reload its data (start with --wizard).".into());
        }
        let Some(game) = self.game().cloned() else {
            return Err("There is no game in play.".into());
        };
        let old = self.rules().clone();
        let rules = old.reloaded().map_err(|e| {
            format!("The data was not reloaded; nothing changed. Its mistakes:\n{e}")
        })?;
        let saved = alembic::save::SavedGame::of(&game, old.base_library())
            .map_err(|e| format!("The data was not reloaded: {e}"))?;
        let rebased = saved
            .link(rules.base_library(), rules.hooks())
            .map_err(|e| format!("The data was not reloaded; nothing changed: {e}"))?;
        let alchemy = Alchemy::on(rules.clone())
            .map_err(|e| format!("The data was not reloaded; nothing changed: {e}"))?;
        let changed = changed_prototypes(old.base_library(), rules.base_library());
        let mut lines = vec![match changed.as_slice() {
            [] => "Reloaded the data: no prototype changed.".to_string(),
            [one] => format!("Reloaded the data: {one} changed."),
            many => format!(
                "Reloaded the data: {} prototypes changed ({}).",
                many.len(),
                many.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
        }];
        self.alchemy = Arc::new(alchemy);
        let Some(run) = self.run.as_mut() else {
            return Err("There is no game in play.".into());
        };
        // The recording so far replays on the old data: it ends here, kept like a
        // finished game's.
        match run.rebase(self.alchemy.clone(), rebased) {
            Some(Ok(p)) => lines.push(format!(
                "The recording up to now is kept as {}; the rest of this game is not recorded.",
                p.display()
            )),
            Some(Err(e)) => {
                lines.push("The rest of this game is not recorded.".into());
                self.record_problems.push(e.to_string());
            }
            None => {}
        }
        if run.owns_save() && run.save_path().is_some() {
            match run.save() {
                Ok(p) => lines.push(format!("Saved on the new data to {}.", p.display())),
                Err(e) => lines.push(format!("The game could not be saved: {e}")),
            }
        }
        Ok(lines)
    }

    /// Whether the finished game's save was removed (after death, victory or a quit: the
    /// session removes the game's own save when it files the game). Another game's save (a
    /// new game started over it and never saved) is never touched.
    pub fn remove_save(&self) -> bool {
        match &self.filed {
            Some(f) => f.save_removed,
            None => self.run.as_ref().is_some_and(Run::remove_save),
        }
    }

    /// Whether a saved game waits at the default save path.
    #[must_use]
    pub fn save_exists(&self) -> bool {
        self.default_save.as_deref().is_some_and(Path::is_file)
    }

    pub(crate) fn fresh(&self) -> usize {
        self.fresh
    }
}

/// A save that could not be continued, as [`UiError`] says it.
fn load_error(e: alembic_session::Cause) -> UiError {
    let e = match e.downcast::<alembic_session::savefile::SaveError>() {
        Ok(s) => match *s {
            alembic_session::savefile::SaveError::Storage(st) => {
                return UiError::Load(SaveError::from(st));
            }
            other => return UiError::Continue(Box::new(other)),
        },
        Err(e) => e,
    };
    match e.downcast::<SaveError>() {
        Ok(s) => UiError::Load(*s),
        Err(other) => UiError::Continue(other),
    }
}

/// What Alchemy's wizard console says first.
const CONSOLE_HELLO: &str =
    "Wizard mode. Type help for the commands; Tab completes; reload re-reads the data.";

/// The console's own word (see [`AlchemyCtx::reload_data`]): it reads files, so it is not a
/// command a recording could replay.
const RELOAD: (&str, &str) = (
    "reload",
    "Read the data files and mods again; things take the new values.",
);

impl ConsoleHost for AlchemyCtx {
    fn wizard_commands(&self) -> Option<(&alembic::wizard::WizardCommands<Game>, &Game)> {
        Some((self.alchemy.wizard()?, self.game()?))
    }

    fn run_line(
        &mut self,
        line: &str,
    ) -> Result<(Vec<String>, bool), alembic_session::console::LineRefused> {
        let before = self.log.len();
        let last_repeats = self.log.last().map(|l| l.repeats);
        let over = self.act(Command::Wizard(line.to_owned()));
        // What the line said is the console's: it never stays in the game's message log
        // (a line that repeated the last one is counted back off it).
        let mut new: Vec<String> = Vec::new();
        if let (Some(was), Some(last)) = (last_repeats, self.log.get_mut(before.wrapping_sub(1)))
            && last.repeats > was
        {
            new.push(last.text.clone());
            last.repeats = was;
        }
        new.extend(
            self.log
                .drain(before.min(self.log.len())..)
                .map(|l| l.shown()),
        );
        match over {
            Some(over) => Ok((new, over)),
            None => Err(alembic_session::console::LineRefused(new.join(" "))),
        }
    }

    fn own_words(&self) -> &'static [(&'static str, &'static str)] {
        &[RELOAD]
    }

    fn run_own(&mut self, word: &str) -> Vec<String> {
        if word != RELOAD.0 {
            return vec![format!("Unknown word {word:?}.")];
        }
        match self.reload_data() {
            Ok(lines) => lines,
            Err(e) => vec![e],
        }
    }

    fn palette(&self) -> alembic_ui::Palette {
        colours::PALETTE
    }
}

/// The wizard console over Alchemy's screens (the session's, with `reload`).
pub(crate) fn wizard_console() -> WizardConsole {
    WizardConsole::new(CONSOLE_HELLO)
}

/// The names of the prototypes that differ between two libraries (added, removed or
/// changed), sorted.
fn changed_prototypes(old: &alembic::Library, new: &alembic::Library) -> Vec<String> {
    let mut names: Vec<String> = new
        .prototypes()
        .filter(|p| old.get(p.name()).ok() != Some(*p))
        .chain(old.prototypes().filter(|p| new.get(p.name()).is_err()))
        .map(|p| p.name().to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The Alchemy UI as an app for [`alembic_ui::run`]: the start screen at the bottom of the stack,
/// with the play screen on top when `opts` asks to start or load a game straight away.
///
/// # Errors
/// [`UiError`]: a save that cannot be loaded, or a bug building the game.
pub fn app(opts: UiOptions) -> Result<ScreenStack<AlchemyCtx>, UiError> {
    app_with_rules(opts, Rules::new().map_err(UiError::Rules)?)
}

/// [`app`] under `rules`: the data they were built on (a data directory, mods) is the data
/// every game of the session is played with, saved with and checked against.
///
/// # Errors
/// [`UiError`]: a save or recording made with other data is refused, naming the
/// difference.
pub fn app_with_rules(opts: UiOptions, rules: Rules) -> Result<ScreenStack<AlchemyCtx>, UiError> {
    // Temporary files and copies left by processes that died while saving go first.
    for dir in [opts.save_path.as_deref(), start_file(&opts.start)]
        .into_iter()
        .flatten()
        .filter_map(Path::parent)
    {
        alembic_session::storage::sweep_leftovers(dir);
    }
    let mut ctx = AlchemyCtx::new(rules, opts.save_path);
    ctx.tiles = opts.tiles;
    ctx.practice_new = opts.practice;
    ctx.wizard_new = opts.wizard;
    ctx.practice_default = opts.practice;
    // One window per save: a session that may play the default save (the start screen, a
    // new game) holds its lock from the start, so a second one says so at once.
    if matches!(opts.start, Start::Menu | Start::New(_))
        && let Some(save) = ctx.default_save.clone()
    {
        ctx.ensure_lock(&save, true)?;
    }
    // A new game over an existing save asks first, on the start screen: it would replace the
    // save the first time it is saved (on `S`, or on Ctrl-C and every other way out).
    if let Start::New(seed) = opts.start
        && ctx.save_exists()
    {
        let (start, confirm) = StartScreen::asking(&ctx, Some(seed));
        let stack = ScreenStack::opening(ctx, start, confirm)
            .with_farewell(AlchemyCtx::farewell)
            .with_emergency_save(AlchemyCtx::emergency_save)
            .with_title(AlchemyCtx::title)
            .with_grid(AlchemyCtx::whole_level);
        return Ok(stack);
    }
    if let Start::Replay(path) = &opts.start {
        let playback = replay::open_saying(path, ctx.rules())?;
        let viewer = alembic_session::playback::Viewer::saying(&mut ctx, playback, colours::NOTE);
        let start = StartScreen::new(&ctx);
        let watch = Transition::ask(viewer, |()| StartReply::GameOver);
        let stack = ScreenStack::opening(ctx, start, watch)
            .with_farewell(AlchemyCtx::farewell)
            .with_emergency_save(AlchemyCtx::emergency_save)
            .with_title(AlchemyCtx::title)
            .with_grid(AlchemyCtx::whole_level);
        return Ok(stack);
    }
    let play = match &opts.start {
        Start::Menu => false,
        Start::Replay(_) => false,
        Start::New(seed) => {
            ctx.new_game(*seed)?;
            true
        }
        Start::Load(path) => {
            ctx.load_game_reporting(path, &mut alembic_session::launch::continue_progress)?;
            true
        }
    };
    let start = StartScreen::new(&ctx);
    let first = if play {
        StartHost::play(&mut ctx)
    } else {
        Transition::Stay
    };
    let stack = ScreenStack::opening(ctx, start, first)
        .with_farewell(AlchemyCtx::farewell)
        .with_emergency_save(AlchemyCtx::emergency_save)
        .with_title(AlchemyCtx::title)
        .with_grid(AlchemyCtx::whole_level);
    Ok(stack)
}

/// The file a start loads, if any.
fn start_file(start: &Start) -> Option<&Path> {
    match start {
        Start::Load(p) => Some(p),
        _ => None,
    }
}

/// The Alchemy UI straight into the play screen on `game` (tests, tools, debugging): the
/// start screen sits below it, and saves go to `save_path`.
///
/// # Errors
/// [`UiError::Rules`]: a bug building the rules.
pub fn app_with_game(
    game: Game,
    save_path: Option<PathBuf>,
) -> Result<ScreenStack<AlchemyCtx>, UiError> {
    let rules = Rules::new().map_err(UiError::Rules)?;
    let mut ctx = AlchemyCtx::new(rules, save_path);
    ctx.install_game(game);
    let start = StartScreen::new(&ctx);
    let first = StartHost::play(&mut ctx);
    let stack = ScreenStack::opening(ctx, start, first)
        .with_farewell(AlchemyCtx::farewell)
        .with_emergency_save(AlchemyCtx::emergency_save)
        .with_title(AlchemyCtx::title)
        .with_grid(AlchemyCtx::whole_level);
    Ok(stack)
}

pub use alembic_session::seed_from_text;

/// The colours of the Alchemy UI: a warm, dark palette whose steps stay distinct in the
/// 256-colour fallback.
pub mod colours {
    use alembic::Rgb;
    use alembic_ui::Palette;

    /// The widgets' palette (boxes, lists, help).
    pub const PALETTE: Palette = Palette {
        text: Rgb::new(214, 208, 196),
        dim: Rgb::new(128, 122, 112),
        accent: Rgb::new(255, 196, 92),
        border: Rgb::new(150, 118, 72),
        bg: Rgb::new(0, 0, 0),
    };
    /// The hero, always drawn at full brightness so it never hides in the dark.
    pub const HERO: Rgb = Rgb::new(255, 230, 120);
    /// Game messages.
    pub const MESSAGE: Rgb = Rgb::new(232, 228, 216);
    /// Refusals and notes.
    pub const NOTE: Rgb = Rgb::new(255, 190, 100);
    /// Errors.
    pub const ERROR: Rgb = Rgb::new(255, 96, 80);
    /// Labels in the status panel.
    pub const LABEL: Rgb = Rgb::new(150, 140, 120);
    /// Values in the status panel.
    pub const VALUE: Rgb = Rgb::new(236, 232, 220);
    /// Good health, "\[OK\]".
    pub const GOOD: Rgb = Rgb::new(110, 220, 110);
    /// Hurt.
    pub const FAIR: Rgb = Rgb::new(240, 210, 80);
    /// Badly hurt, "[ingredients missing]".
    pub const BAD: Rgb = Rgb::new(240, 80, 70);
    /// Effects.
    pub const EFFECT: Rgb = Rgb::new(180, 150, 255);
    /// The status panel's background.
    pub const PANEL_BG: Rgb = Rgb::new(18, 16, 22);
    /// The face of solid rock (cave walls), before lighting.
    pub const ROCK_BG: Rgb = Rgb::new(66, 56, 46);
    /// The look cursor.
    pub const CURSOR_BG: Rgb = Rgb::new(230, 180, 70);
    /// A throw's path.
    pub const PATH_BG: Rgb = Rgb::new(70, 52, 20);
    /// A throw's path beyond where it will stop.
    pub const PATH_BLOCKED_BG: Rgb = Rgb::new(60, 22, 22);
}

/// Colour for a line of the log.
#[must_use]
pub fn tone_colour(tone: Tone) -> Rgb {
    match tone {
        Tone::Game => colours::MESSAGE,
        Tone::Note => colours::NOTE,
        Tone::Error => colours::ERROR,
    }
}

/// Start Alchemy for a frontend: `--load FILE` continues that save, `--seed N` starts a new
/// game, neither shows the start screen. Saves go to `save_dir()/alchemy.save`.
///
/// # Errors
/// An unreadable or invalid save file, named and explained, before any terminal or window
/// is touched.
pub fn launch(
    opts: &alembic_session::LaunchOptions,
) -> Result<Box<dyn alembic_ui::App>, alembic_session::LaunchError> {
    let start = match (&opts.replay, &opts.load, opts.seed) {
        (Some(path), _, _) => Start::Replay(path.clone()),
        (None, Some(path), _) => Start::Load(path.clone()),
        (None, None, Some(seed)) => Start::New(seed),
        (None, None, None) => Start::Menu,
    };
    // One window per save: the lock is taken whenever the session switches to a save (see
    // `AlchemyCtx::ensure_lock`), not here.
    let save_path = alembic_session::save_dir().map(|d| d.join(SAVE_FILE));
    let bad = |e: SaveError| alembic_session::LaunchError::BadSave {
        path: opts.load.clone().unwrap_or_default(),
        game: opts.game.clone(),
        source: Box::new(e),
    };
    let rules = rules_for(opts)?;
    let ui = UiOptions {
        start,
        save_path,
        tiles: opts.tiles,
        practice: opts.practice,
        wizard: opts.wizard,
    };
    match app_with_rules(ui, rules) {
        Ok(app) => Ok(Box::new(app)),
        Err(UiError::Busy(e)) => Err(alembic_session::LaunchError::Busy(e)),
        Err(UiError::Load(SaveError::Io { path, source })) => {
            Err(alembic_session::LaunchError::ReadSave { path, source })
        }
        Err(UiError::Load(e)) => Err(bad(e)),
        Err(UiError::Replay(e)) => Err(alembic_session::LaunchError::BadReplay {
            path: opts.replay.clone().unwrap_or_default(),
            source: Box::new(e),
        }),
        Err(e) => Err(alembic_session::LaunchError::Setup {
            game: opts.game.clone(),
            source: Box::new(e),
        }),
    }
}

/// The rules on the data and mods `opts` name, or why not.
fn rules_for(opts: &alembic_session::LaunchOptions) -> Result<Rules, alembic_session::LaunchError> {
    Rules::with_data(&opts.data).map_err(|e| match e {
        alchemy::RulesError::Data(source) => alembic_session::LaunchError::Data {
            game: opts.game.clone(),
            source,
        },
        alchemy::RulesError::Engine(e) => alembic_session::LaunchError::Setup {
            game: opts.game.clone(),
            source: Box::new(e),
        },
    })
}

/// Alchemy on the session every game plays on, straight into play on `game` (tests,
/// tools, debugging): the start screen sits below it, saves go to `save_path`, and the
/// game is a practice game (`U` takes moves back) or a wizard game as the flags say. "Play
/// again" counts on from seed 0.
///
/// # Errors
/// The rules could not be built (a bug in the shipped data).
pub fn session_with_game(
    game: Game,
    save_path: Option<PathBuf>,
    practice: bool,
    wizard: bool,
) -> Result<ScreenStack<alembic_session::play::Session<Alchemy>>, alembic_session::Cause> {
    let rules = Arc::new(Alchemy::new()?);
    let mut session =
        alembic_session::play::Session::with_board(rules, ruleset::AlchemyBoard::shared(), 0)
            .with_modes(practice, wizard)
            .with_game(game);
    if let Some(path) = save_path {
        session = session.with_save(path);
    }
    Ok(alembic_session::play::app_playing(session))
}

/// Start Alchemy as `opts` ask on the session every game plays on
/// ([`alembic_session::play::launch_with`]): its rules answer the session's questions and
/// journeys, and [`ruleset::AlchemyBoard`] draws it.
///
/// # Errors
/// As [`alembic_session::play::launch_with`]; the data asked for could not be read.
pub fn launch_shared(
    opts: &alembic_session::LaunchOptions,
) -> Result<Box<dyn alembic_ui::App>, alembic_session::LaunchError> {
    let rules = rules_for(opts)?;
    let setup = |source: alembic_session::Cause| alembic_session::LaunchError::Setup {
        game: opts.game.clone(),
        source,
    };
    let rules = Arc::new(Alchemy::on(rules).map_err(setup)?);
    let board = ruleset::AlchemyBoard::shared();
    alembic_session::play::launch_with(rules, board, opts)
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
