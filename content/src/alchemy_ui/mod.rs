//! The Alchemy game UI: every screen a player sees, as a [`ScreenStack`] over an
//! [`AlchemyCtx`]. Pure: it draws into [`alembic::Frame`]s and reacts to [`alembic::Input`]s;
//! the only I/O is the save file, through [`crate::alchemy::save`].
//!
//! Screens: [`start`] (new game, seed, continue, help, quit), [`play`] (map, messages,
//! status, every command key), and the prompts in [`prompts`] (item lists, crafting,
//! direction, look/target cursor, the end-of-game summary).
//!
//! ```
//! use alembic::{Input, TestFrontend, run};
//! use alembic_content::alchemy_ui::{self, Start, UiOptions};
//! let mut app = alchemy_ui::app(UiOptions { start: Start::New(7), save_path: None })?;
//! let mut fe = TestFrontend::new(100, 30, [Input::ch('l'), Input::ch('Q'), Input::ch('y')]);
//! run(&mut fe, &mut app)?;
//! assert!(fe.frames()[0].contains_text("Depth 1/11"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod play;
pub mod prompts;
pub mod start;

use std::path::{Path, PathBuf};

use alembic::{Game, Loc, Rgb, ScreenStack};

use crate::alchemy::save::{self, SaveError};
use crate::alchemy::{self, Command, Outcome, RuleError, Rules};

/// The name of the save file inside [`crate::save_dir`].
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

/// Most log lines kept.
const LOG_KEEP: usize = 1000;

/// The shared state of every Alchemy screen: the game (when one is being played), the
/// rules, the save file and UI state such as the look cursor.
#[derive(Debug)]
pub struct AlchemyCtx {
    rules: Rules,
    game: Option<Game>,
    seed: Option<u64>,
    /// Where `S` writes.
    save_path: Option<PathBuf>,
    /// Where "continue" looks (the default save).
    default_save: Option<PathBuf>,
    log: Vec<LogLine>,
    /// How many of the newest log lines arrived with the latest command.
    fresh: usize,
    /// The look/target cursor, while one is shown.
    cursor: Option<Loc>,
    /// A planned throw's path, drawn under the target cursor.
    path: Vec<Loc>,
    /// The game was already over when loaded: its file is kept, not deleted as a finished
    /// game's save is.
    loaded_finished: bool,
    /// What saving on close said: where the game went, or why it could not be saved.
    exit_note: Option<Result<String, String>>,
    /// The lock on the save in use, held for the whole session.
    lock: Option<crate::storage::SessionLock>,
}

impl AlchemyCtx {
    /// A context with no game yet.
    #[must_use]
    pub fn new(rules: Rules, save_path: Option<PathBuf>) -> Self {
        AlchemyCtx {
            rules,
            game: None,
            seed: None,
            save_path: save_path.clone(),
            default_save: save_path,
            log: Vec::new(),
            fresh: 0,
            cursor: None,
            path: Vec::new(),
            loaded_finished: false,
            exit_note: None,
            lock: None,
        }
    }

    /// Hold `lock` (on the save in use) until this context is dropped.
    pub fn hold_lock(&mut self, lock: crate::storage::SessionLock) {
        self.lock = Some(lock);
    }

    /// Save to [`AlchemyCtx::save_path`] and leave: the farewell says where the game went.
    ///
    /// # Errors
    /// As [`AlchemyCtx::save`].
    pub fn save_and_leave(&mut self) -> Result<PathBuf, String> {
        let path = self.save()?;
        self.exit_note = Some(Ok(format!("Your game was saved to {}.", path.display())));
        Ok(path)
    }

    /// Save on close (the window closing, Ctrl-C, SIGTERM…) and remember what happened for
    /// [`AlchemyCtx::farewell`]. Does nothing when no game is in play or it is over.
    pub fn save_on_exit(&mut self) {
        let playing = self
            .game()
            .and_then(|g| alchemy::summary(g).ok())
            .is_some_and(|s| s.outcome == "playing");
        if playing {
            self.exit_note = Some(
                self.save()
                    .map(|p| format!("Your game was saved to {}.", p.display())),
            );
        }
    }

    /// What to print once the terminal or window has closed (see [`alembic::App::farewell`]).
    ///
    /// # Errors
    /// The reason the save on close failed.
    pub fn farewell(&self) -> Result<Option<String>, String> {
        match &self.exit_note {
            None => Ok(None),
            Some(Ok(line)) => Ok(Some(line.clone())),
            Some(Err(e)) => Err(e.clone()),
        }
    }

    /// The game being played, if any.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seed of the current game, when it was started here.
    #[must_use]
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Where `S` saves the current game.
    #[must_use]
    pub fn save_path(&self) -> Option<&Path> {
        self.save_path.as_deref()
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
    /// An engine error while generating (a bug).
    pub fn new_game(&mut self, seed: u64) -> Result<(), UiError> {
        let game = alchemy::new_game(seed, &self.rules).map_err(UiError::NewGame)?;
        self.seed = Some(seed);
        self.save_path = self.default_save.clone();
        self.install(game);
        Ok(())
    }

    /// Continue the game saved at `path`; later saves go back to `path`.
    ///
    /// # Errors
    /// The file is missing, unreadable, corrupt, of another game or version.
    pub fn load_game(&mut self, path: &Path) -> Result<(), UiError> {
        let game = save::load(path, self.rules.hooks())?;
        self.seed = None;
        self.save_path = Some(path.to_path_buf());
        self.install(game);
        self.note(Tone::Note, "Welcome back.");
        Ok(())
    }

    fn install(&mut self, game: Game) {
        self.loaded_finished = alchemy::summary(&game).is_ok_and(|s| s.outcome != "playing");
        self.log = alchemy::view::recent_messages(&game, 200)
            .into_iter()
            .map(|text| LogLine {
                text,
                tone: Tone::Game,
                repeats: 1,
            })
            .collect();
        self.fresh = self.log.len().min(1);
        self.cursor = None;
        self.path.clear();
        self.game = Some(game);
    }

    /// Forget the current game (back to the start screen).
    pub fn close_game(&mut self) {
        self.game = None;
        self.seed = None;
        self.cursor = None;
        self.path.clear();
        self.log.clear();
        self.fresh = 0;
        self.save_path = self.default_save.clone();
    }

    /// Mark every line so far as old: a new command begins.
    fn begin_command(&mut self) {
        self.fresh = 0;
    }

    fn push_line(&mut self, tone: Tone, text: String) {
        // The same line again (walking into a wall twice) counts up instead of scrolling.
        if let Some(last) = self.log.last_mut()
            && last.text == text
            && last.tone == tone
            && self.fresh == 0
        {
            last.repeats += 1;
            self.fresh = 1;
            return;
        }
        self.log.push(LogLine {
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

    /// Apply `cmd` through the game's one funnel. Accepted: the new game and its messages
    /// replace the old; refused: the reason is noted and nothing else changes (no turn).
    /// Returns `Some(game_over)` when accepted, `None` when refused.
    pub fn act(&mut self, cmd: Command) -> Option<bool> {
        let game = self.game.as_ref()?;
        match alchemy::apply(game, &self.rules, cmd) {
            Ok(out) => {
                self.begin_command();
                for m in &out.messages {
                    self.push_line(Tone::Game, m.clone());
                }
                let Outcome { game, over, .. } = out;
                self.game = Some(game);
                Some(over)
            }
            Err(e) => {
                let tone = match e {
                    RuleError::Engine(_) => Tone::Error,
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
    /// A sentence for the player: no game, nowhere to save, or what the file system said.
    pub fn save(&self) -> Result<PathBuf, String> {
        let Some(game) = &self.game else {
            return Err("There is no game to save.".to_string());
        };
        let Some(path) = &self.save_path else {
            return Err("Cannot save: no data directory (set HOME or XDG_DATA_HOME).".to_string());
        };
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("Cannot save: cannot create {}: {e}", dir.display()))?;
        }
        save::save(game, path).map_err(|e| format!("Cannot save: {e}"))?;
        Ok(path.clone())
    }

    /// Remove the save file of the current game (after death or victory). Returns whether a
    /// file was removed.
    pub fn remove_save(&self) -> bool {
        if self.loaded_finished {
            return false;
        }
        match &self.save_path {
            Some(p) if p.is_file() => std::fs::remove_file(p).is_ok(),
            _ => false,
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

/// The Alchemy UI as an app for [`alembic::run`]: the start screen at the bottom of the stack,
/// with the play screen on top when `opts` asks to start or load a game straight away.
///
/// # Errors
/// [`UiError`]: a save that cannot be loaded, or a bug building the game.
pub fn app(opts: UiOptions) -> Result<ScreenStack<AlchemyCtx>, UiError> {
    let rules = Rules::new().map_err(UiError::Rules)?;
    let mut ctx = AlchemyCtx::new(rules, opts.save_path);
    // A new game over an existing save asks first, on the start screen: it would replace the
    // save the first time it is saved (on `S`, or on Ctrl-C and every other way out).
    if let Start::New(seed) = opts.start
        && ctx.save_exists()
    {
        let (start, confirm) = start::StartScreen::asking(&ctx, seed);
        let mut stack = ScreenStack::new(ctx, start).with_farewell(AlchemyCtx::farewell);
        stack.push(confirm);
        return Ok(stack);
    }
    let play = match &opts.start {
        Start::Menu => false,
        Start::New(seed) => {
            ctx.new_game(*seed)?;
            true
        }
        Start::Load(path) => {
            ctx.load_game(path)?;
            true
        }
    };
    let start = start::StartScreen::new(&ctx);
    let mut stack = ScreenStack::new(ctx, start).with_farewell(AlchemyCtx::farewell);
    if play {
        stack.push(play::PlayScreen::new());
    }
    Ok(stack)
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
    ctx.install(game);
    let start = start::StartScreen::new(&ctx);
    let mut stack = ScreenStack::new(ctx, start).with_farewell(AlchemyCtx::farewell);
    stack.push(play::PlayScreen::new());
    Ok(stack)
}

/// A seed from text: a number as given, anything else hashed (so "banana" is a seed too).
#[must_use]
pub fn seed_from_text(text: &str) -> u64 {
    let t = text.trim();
    t.parse::<u64>().unwrap_or_else(|_| {
        // FNV-1a: stable across runs and platforms.
        t.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    })
}

/// The colours of the Alchemy UI: a warm, dark palette whose steps stay distinct in the
/// 256-colour fallback.
pub mod colours {
    use alembic::{Palette, Rgb};

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
pub fn launch(opts: &crate::LaunchOptions) -> Result<Box<dyn alembic::App>, crate::LaunchError> {
    let start = match (&opts.load, opts.seed) {
        (Some(path), _) => Start::Load(path.clone()),
        (None, Some(seed)) => Start::New(seed),
        (None, None) => Start::Menu,
    };
    let save_path = crate::save_dir().map(|d| d.join(SAVE_FILE));
    // One window per save: lock the file this session will write before anything else.
    let lock = match opts.load.as_ref().or(save_path.as_ref()) {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            match crate::storage::SessionLock::acquire(path) {
                Ok(lock) => Some(lock),
                Err(e @ crate::storage::StorageError::Locked { .. }) => {
                    return Err(crate::LaunchError::Busy(e));
                }
                // Nowhere to write a lock (read-only directory): play on; saving will say so.
                Err(_) => None,
            }
        }
        None => None,
    };
    let bad = |reason: String| crate::LaunchError::BadSave {
        path: opts.load.clone().unwrap_or_default(),
        game: opts.game.clone(),
        reason,
    };
    match app(UiOptions { start, save_path }) {
        Ok(mut app) => {
            if let Some(lock) = lock {
                app.ctx_mut().hold_lock(lock);
            }
            Ok(Box::new(app))
        }
        Err(UiError::Load(SaveError::Io { path, source })) => {
            Err(crate::LaunchError::ReadSave { path, source })
        }
        Err(UiError::Load(e)) => Err(bad(e.to_string())),
        Err(e) => Err(crate::LaunchError::Setup {
            game: opts.game.clone(),
            reason: e.to_string(),
        }),
    }
}
