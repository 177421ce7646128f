//! Which games the server runs and how it starts them: the games of `alembic-games` that
//! keep a save and a recording (Alchemy, Caves), each started new, from its save, or as the
//! replay viewer of a recording — with every save, recording, morgue and score of the server
//! in one directory, so the lobby finds them all.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use alembic_games::alchemy::ui::{AlchemyCtx, Start, UiOptions};
use alembic_games::caves::Caves;
use alembic_games::play::Session;
use alembic_games::rats::Rats;
use alembic_games::ruleset::Ruleset;
use alembic_ui::{App, Control, Frame, Input, ScreenStack};

/// Where the games write morgue files, under the data directory.
pub const MORGUE_DIR: &str = "morgue";
/// Where finished games' recordings go, under the data directory.
pub const RECORDS_DIR: &str = "records";

/// A game the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Alchemy (`alembic_games::alchemy`).
    Alchemy,
    /// The Caves (`alembic_games::caves`).
    Caves,
    /// Rats in a maze (`alembic_games::rats`).
    Rats,
    /// A test game that panics on `!` (only with `--test-games`).
    Crash,
}

impl GameKind {
    /// The games a player can start (the test game aside).
    pub const PLAYABLE: [GameKind; 3] = [GameKind::Alchemy, GameKind::Caves, GameKind::Rats];

    /// Its name, as `alembic-games` spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Alchemy => "alchemy",
            GameKind::Caves => "caves",
            GameKind::Rats => "rats",
            GameKind::Crash => "crash",
        }
    }

    /// The game called `name`; the test game only when `test_games`.
    #[must_use]
    pub fn from_name(name: &str, test_games: bool) -> Option<GameKind> {
        match name {
            "alchemy" => Some(GameKind::Alchemy),
            "caves" => Some(GameKind::Caves),
            "rats" => Some(GameKind::Rats),
            "crash" if test_games => Some(GameKind::Crash),
            _ => None,
        }
    }

    /// The game whose recording is in the file called `name` (recordings are named
    /// `GAME-seed…`).
    #[must_use]
    pub fn of_recording(name: &str) -> Option<GameKind> {
        Self::PLAYABLE
            .into_iter()
            .find(|k| name.starts_with(&format!("{}-", k.name())))
    }
}

/// A running game, with what the lobby shows of it.
pub enum WebApp {
    /// Alchemy's screens.
    Alchemy(Box<ScreenStack<AlchemyCtx>>),
    /// The Caves, in the session every ruleset gets.
    Caves(Box<ScreenStack<Session<Caves>>>),
    /// The rats, likewise.
    Rats(Box<ScreenStack<Session<Rats>>>),
    /// The test game.
    Crash(CrashApp),
}

/// Where the lobby says a game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The hero's depth, if in a game.
    pub depth: Option<i32>,
    /// The game's turn.
    pub turn: u64,
}

impl WebApp {
    /// Where the game is now.
    #[must_use]
    pub fn progress(&self) -> Progress {
        match self {
            WebApp::Alchemy(s) => s.ctx().game().map_or_else(Progress::default, |g| Progress {
                depth: alembic_games::alchemy::view::status(g)
                    .ok()
                    .map(|s| s.depth),
                turn: g.turn(),
            }),
            WebApp::Caves(s) => session_progress(s.ctx()),
            WebApp::Rats(s) => session_progress(s.ctx()),
            WebApp::Crash(c) => Progress {
                depth: None,
                turn: c.0.len() as u64,
            },
        }
    }

    /// The game in play, if there is one (not on a start screen).
    #[must_use]
    pub fn game(&self) -> Option<&alembic::Game> {
        match self {
            WebApp::Alchemy(s) => s.ctx().game(),
            WebApp::Caves(s) => Some(s.ctx().game()),
            WebApp::Rats(s) => Some(s.ctx().game()),
            WebApp::Crash(_) => None,
        }
    }

    /// The game's score as its own score table counts it (Alchemy's and the Caves'), or
    /// `None` when it has none (no game, the test game).
    #[must_use]
    pub fn points(&self) -> Option<i64> {
        let points = match self {
            WebApp::Alchemy(s) => {
                let g = s.ctx().game()?;
                alembic_games::alchemy::ui::morgue::score_of(
                    &alembic_games::alchemy::view::summary(g).ok()?,
                )
            }
            WebApp::Caves(s) => s.ctx().rules().summary(s.ctx().game()).score,
            WebApp::Rats(s) => s.ctx().rules().summary(s.ctx().game()).score,
            WebApp::Crash(_) => return None,
        };
        i64::try_from(points).ok()
    }

    /// How the game ended, once it is over and filed (its save removed, its recording and
    /// morgue file kept): the page shows this, with links, instead of the end screen the
    /// terminal draws (which names the server's files). `None` while it goes on.
    #[must_use]
    pub fn ending(&self) -> Option<alembic_games::end::EndSummary> {
        match self {
            WebApp::Alchemy(s) => s.ctx().ending(),
            WebApp::Caves(s) => s.ctx().ending(),
            WebApp::Rats(s) => s.ctx().ending(),
            WebApp::Crash(_) => None,
        }
    }

    /// Why the game's journal (its recording) is behind, if it is: moves wait in memory
    /// because the file could not be written. They are written first, now; `None` when
    /// nothing waits (or the game keeps no journal).
    pub fn journal_behind(&mut self) -> Option<String> {
        match self {
            WebApp::Alchemy(s) => s.ctx_mut().journal_behind(),
            WebApp::Caves(s) => s.ctx_mut().journal_behind(),
            WebApp::Rats(s) => s.ctx_mut().journal_behind(),
            WebApp::Crash(_) => None,
        }
    }

    fn inner(&mut self) -> &mut dyn App {
        match self {
            WebApp::Alchemy(s) => s.as_mut(),
            WebApp::Caves(s) => s.as_mut(),
            WebApp::Rats(s) => s.as_mut(),
            WebApp::Crash(c) => c,
        }
    }

    fn inner_ref(&self) -> &dyn App {
        match self {
            WebApp::Alchemy(s) => s.as_ref(),
            WebApp::Caves(s) => s.as_ref(),
            WebApp::Rats(s) => s.as_ref(),
            WebApp::Crash(c) => c,
        }
    }
}

impl App for WebApp {
    fn render(&mut self, frame: &mut Frame) {
        self.inner().render(frame);
    }
    fn handle(&mut self, input: Input) -> Control {
        self.inner().handle(input)
    }
    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.inner_ref().tick_interval()
    }
    fn tick(&mut self) -> Control {
        self.inner().tick()
    }
    fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        self.inner_ref().farewell()
    }
    fn title(&self) -> Option<String> {
        self.inner_ref().title()
    }
}

/// The test game: echoes keys; `!` panics (to test that a panic ends only its game), `~`
/// takes 300 ms (a slow turn, to fill its input queue), `Q` quits.
#[derive(Debug, Default)]
pub struct CrashApp(String);

impl App for CrashApp {
    fn render(&mut self, frame: &mut Frame) {
        frame.put_str(
            0,
            0,
            &format!(
                "crash test: {}",
                // The last 40 keys (a long run would not fit).
                self.0
                    .chars()
                    .skip(self.0.chars().count().saturating_sub(40))
                    .collect::<String>()
            ),
            alembic::Rgb::WHITE,
            alembic::Rgb::BLACK,
        );
    }
    fn handle(&mut self, input: Input) -> Control {
        match alembic_ui::plain_char(&input) {
            Some('!') => panic!("the crash test game panics on '!', as asked"),
            Some('~') => std::thread::sleep(std::time::Duration::from_millis(300)),
            Some('Q') => return Control::Quit,
            Some(c) => self.0.push(c),
            None => {}
        }
        if input == Input::Quit {
            Control::Quit
        } else {
            Control::Continue
        }
    }
}

/// Why a game could not start.
pub type StartError = String;

/// The save file of game `id` of `kind` in `dir` (its recording sits beside it).
#[must_use]
pub fn save_path(dir: &Path, kind: GameKind, id: u64) -> PathBuf {
    dir.join(format!("{}-{id}.save", kind.name()))
}

/// Start `kind` in `dir`: from its save at `save` when that exists, else new from `seed`
/// (saving to `save`). `tiles` as in [`alembic_games::LaunchOptions::tiles`].
///
/// # Errors
/// The save is unreadable or the game could not be set up (the game's own message).
pub fn start(
    kind: GameKind,
    save: &Path,
    seed: u64,
    tiles: Option<bool>,
) -> Result<WebApp, StartError> {
    let exists = save.is_file();
    match kind {
        GameKind::Alchemy => {
            let start = if exists {
                Start::Load(save.to_path_buf())
            } else {
                Start::New(seed)
            };
            alembic_games::alchemy::ui::app(UiOptions {
                start,
                save_path: Some(save.to_path_buf()),
                tiles,
                practice: false,
                wizard: false,
            })
            .map(|s| WebApp::Alchemy(Box::new(s)))
            .map_err(|e| e.to_string())
        }
        GameKind::Caves => {
            let rules = Caves::new().map_err(|e| e.to_string())?;
            session(rules, save, seed, tiles).map(|s| WebApp::Caves(Box::new(s)))
        }
        GameKind::Rats => {
            let rules = Rats::new().map_err(|e| e.to_string())?;
            session(rules, save, seed, tiles).map(|s| WebApp::Rats(Box::new(s)))
        }
        GameKind::Crash => Ok(WebApp::Crash(CrashApp::default())),
    }
}

/// The replay viewer of the recording at `path`, of `kind`: it saves nothing.
///
/// # Errors
/// The recording cannot be read or does not replay (the game's own message).
pub fn replay(kind: GameKind, path: &Path, tiles: Option<bool>) -> Result<WebApp, StartError> {
    match kind {
        GameKind::Alchemy => alembic_games::alchemy::ui::app(UiOptions {
            start: Start::Replay(path.to_path_buf()),
            save_path: None,
            tiles,
            practice: false,
            wizard: false,
        })
        .map(|s| WebApp::Alchemy(Box::new(s)))
        .map_err(|e| e.to_string()),
        GameKind::Caves => {
            let rules = Arc::new(Caves::new().map_err(|e| e.to_string())?);
            alembic_games::play::replay_app(rules, path)
                .map(|s| WebApp::Caves(Box::new(s)))
                .map_err(|e| e.to_string())
        }
        GameKind::Rats => {
            let rules = Arc::new(Rats::new().map_err(|e| e.to_string())?);
            alembic_games::play::replay_app(rules, path)
                .map(|s| WebApp::Rats(Box::new(s)))
                .map_err(|e| e.to_string())
        }
        GameKind::Crash => Err("the crash test game has no recordings".to_owned()),
    }
}

/// Where a session's game is, for the lobby.
fn session_progress<R: Ruleset>(s: &Session<R>) -> Progress {
    let g = s.game();
    Progress {
        depth: Some(s.rules().summary(g).depth),
        turn: g.turn(),
    }
}

/// A session of `rules`: continued from `save` when it exists, else new from `seed`.
fn session<R: Ruleset + alembic_games::board::Board<R>>(
    rules: R,
    save: &Path,
    seed: u64,
    tiles: Option<bool>,
) -> Result<ScreenStack<Session<R>>, StartError> {
    let rules = Arc::new(rules);
    let s = if save.is_file() {
        Session::load(rules, save).map_err(|e| e.to_string())?
    } else {
        Session::new(rules, seed).with_save(save.to_path_buf())
    };
    // Straight into the game: the page has no menu before it (the start screen is under
    // the game, where its end leads).
    Ok(alembic_games::play::app_playing(
        s.with_tiles(tiles == Some(true)),
    ))
}

/// A seed from the clock and a counter.
#[must_use]
pub fn fresh_seed(salt: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(17)
}
