//! Where a frontend gets its game from: pick a game by name, start it new (with a seed) or from
//! a save file, and get back an [`App`] to hand to [`alembic_ui::run`]. Frontends contain no game
//! code; a game registered here shows up in every frontend.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use alembic_ui::App;

use crate::demo::{self, DemoWorld};

/// What the player asked for on the command line (shared by every frontend).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchOptions {
    /// The game's name, one of [`games`].
    pub game: String,
    /// Seed for a new game; `None` picks one from the clock.
    pub seed: Option<u64>,
    /// Continue from this save file instead of starting anew.
    pub load: Option<PathBuf>,
    /// Graphical tiles: `None` when the frontend cannot draw them (a terminal), else whether
    /// the map starts in tiles (`--tiles`); the player toggles them in game.
    pub tiles: Option<bool>,
    /// New games are practice games (`--practice`): undo with `U`, marked in the save and
    /// the recording, never scored.
    pub practice: bool,
    /// Watch this recording instead of playing.
    pub replay: Option<PathBuf>,
    /// New games are wizard games (`--wizard`): a console of wizard commands; marked in the
    /// save and the recording, never scored.
    pub wizard: bool,
    /// The data to play with: the shipped data or a data directory, and the mods.
    pub data: crate::gamedata::DataChoice,
}

/// The command-line arguments every frontend shares, for `#[command(flatten)]` in a clap
/// parser: which game, and how to start it.
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct GameArgs {
    /// Which game to play.
    #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(games()))]
    pub game: Option<String>,
    /// Seed for a new game: a number, or any word (as on the start screen); random when
    /// omitted. With a saved game waiting, the start screen asks before replacing it.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<String>,
    /// Continue the game saved in FILE.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Start new games as practice games: `U` takes back a move; marked in the save and the
    /// recording, never scored.
    #[arg(long)]
    pub practice: bool,
    /// Start new games in wizard mode: `~` opens a console of wizard commands (see the whole
    /// level, walk through walls, summon, go to any depth…); marked in the save and the
    /// recording, never scored.
    #[arg(long)]
    pub wizard: bool,
    /// Watch the recording in FILE (every game is recorded in the data directory's
    /// `records/`): space plays or pauses, arrows step back and forth, + and - change the
    /// speed, Home and End jump, q leaves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["load", "seed"])]
    pub replay: Option<PathBuf>,
    /// List the games (what each is, its library in numbers, whether it replays) and exit.
    #[arg(long)]
    pub list: bool,
    /// Play with the data files in DIR (its `.toml` files, in name order) instead of the
    /// game's shipped data: copy the shipped data there to change it (docs/modding.md).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Load the mod in DIR (its `.toml` files, in name order, or one `.toml` file) after the
    /// game's data; repeat for several, applied in order. Mods in the `mods/GAME/` folder of
    /// the save directory load before these. A save remembers its mods.
    #[arg(long = "mod", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
}

impl GameArgs {
    /// The game's name: the one asked for, else [`default_game`].
    #[must_use]
    pub fn game_name(&self) -> String {
        self.game
            .clone()
            .unwrap_or_else(|| default_game().to_string())
    }

    /// The launch options these arguments ask for, on a frontend whose tile support is
    /// `tiles` (see [`LaunchOptions::tiles`]).
    #[must_use]
    pub fn launch_options(&self, tiles: Option<bool>) -> LaunchOptions {
        LaunchOptions {
            game: self.game_name(),
            seed: self.seed.as_deref().map(crate::alchemy::ui::seed_from_text),
            load: self.load.clone(),
            tiles,
            practice: self.practice,
            replay: self.replay.clone(),
            wizard: self.wizard,
            data: crate::gamedata::DataChoice {
                data_dir: self.data.clone(),
                mods: self.mods.clone(),
                mods_folder: save_dir().map(|d| d.join("mods").join(self.game_name())),
            },
        }
    }
}

/// Why a game could not be started.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// No game has that name.
    #[error("unknown game {name:?}; valid games: {}", games().join(", "))]
    UnknownGame {
        /// The name asked for.
        name: String,
    },
    /// The save file could not be read.
    #[error("cannot read save file {}: {source}", path.display())]
    ReadSave {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The save file was read but is not a valid save of this game.
    #[error("{} is not a valid {game} save: {source}", path.display())]
    BadSave {
        /// The file.
        path: PathBuf,
        /// The game that tried to load it.
        game: String,
        /// What is wrong with it: the game's own save error (such as
        /// [`crate::caves::save::CavesSaveError`]), to downcast.
        source: Cause,
    },
    /// The save is open in another window (its lock is held).
    #[error("{0}")]
    Busy(crate::storage::StorageError),
    /// The recording cannot be watched (unreadable, another game's, newer, or it diverges).
    #[error("cannot replay {}: {source}", path.display())]
    BadReplay {
        /// The file.
        path: PathBuf,
        /// What is wrong with it: the game's own error, to downcast.
        source: Cause,
    },
    /// This game has no replay viewer.
    #[error(
        "{game} has no replay viewer yet (alembic-sim --replay FILE --verify checks its recordings)"
    )]
    NoReplay {
        /// The game asked for.
        game: String,
    },
    /// This game cannot play with other data yet (`--data`, `--mod` or the mods folder).
    #[error(
        "{game} cannot load mods or a data directory yet (only alchemy can); \
         alembic-sim --check-data checks its data"
    )]
    NoMods {
        /// The game asked for.
        game: String,
    },
    /// The data files or mods have mistakes: every one, with `file:line:column`.
    #[error("cannot start {game}: its data has mistakes:\n{source}")]
    Data {
        /// The game.
        game: String,
        /// Every mistake.
        source: alembic_data::DataErrors,
    },
    /// The game could not be set up (a bug in its data or rules).
    #[error("cannot start {game}: {source}")]
    Setup {
        /// The game.
        game: String,
        /// What went wrong: the game's own error, to downcast.
        source: Cause,
    },
}

/// The game's own error inside a [`LaunchError`]: typed (downcast it with
/// `downcast_ref`), shown by its `Display`.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// One game, as every frontend, `alembic-sim` and the replay tools see it: the one table
/// of games is [`GAMES`].
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// Its name on every command line (`--game NAME`).
    pub name: &'static str,
    /// One line about it, for help texts.
    pub about: &'static str,
    /// Start it in a frontend (new, from a save, or watching a recording).
    pub launch: fn(&LaunchOptions) -> Result<Box<dyn App>, LaunchError>,
    /// Its headless runner for `alembic-sim` (play, record, verify, library counts); `None`
    /// for a game that has none.
    pub sim: Option<&'static dyn crate::sim::SimGame>,
    /// Its library in numbers (prototypes by kind, tiles…), for `--list` and
    /// `alembic-sim --library`.
    pub library_counts: fn() -> Result<LibraryCounts, alembic::Error>,
    /// Whether `--replay` can show its recordings.
    pub replay: bool,
}

/// A game's library in numbers: `(what, how many)` in the game's own order.
pub type LibraryCounts = Vec<(&'static str, usize)>;

/// The demo has no library of prototypes: one hard-coded room.
fn demo_library_counts() -> Result<LibraryCounts, alembic::Error> {
    Ok(Vec::new())
}

/// The Caves' library in numbers.
fn caves_library_counts() -> Result<LibraryCounts, alembic::Error> {
    crate::caves::library_counts()
}

/// Alchemy's base library in numbers.
fn alchemy_library_counts() -> Result<LibraryCounts, alembic::Error> {
    let lib = crate::alchemy::base_library()?;
    Ok(crate::alchemy::counts(&lib).pairs())
}

/// One line per game of [`GAMES`] (the default first): its name, what it is, what its
/// library holds and what it can do beyond playing: what `--list` prints.
///
/// # Errors
/// A game's library could not be built (a bug in its data).
pub fn list_games() -> Result<Vec<String>, alembic::Error> {
    GAMES
        .iter()
        .map(|g| {
            let counts = (g.library_counts)()?;
            let library = if counts.is_empty() {
                "none".to_string()
            } else {
                counts
                    .iter()
                    .map(|(what, n)| format!("{n} {what}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut can = Vec::new();
            if g.sim.is_some() {
                can.push("alembic-sim");
            }
            if g.replay {
                can.push("--replay");
            }
            let can = if can.is_empty() {
                String::new()
            } else {
                format!(" [{}]", can.join(", "))
            };
            Ok(format!(
                "{:<8} {}. Library: {library}.{can}",
                g.name, g.about
            ))
        })
        .collect()
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry")
            .field("name", &self.name)
            .field("sim", &self.sim.is_some())
            .field("replay", &self.replay)
            .finish_non_exhaustive()
    }
}

/// Every game, the default first: the one list every frontend, `alembic-sim` and the replay
/// tools read (a constant table, not a registry filled at run time).
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "alchemy",
        about: "fetch the Philosopher's Stone from depth 10 and climb back out",
        launch: crate::alchemy::ui::launch,
        sim: Some(&crate::sim::AlchemySim),
        library_counts: alchemy_library_counts,
        replay: true,
    },
    GameEntry {
        name: "demo",
        about: "one room of the frontend contract: walk about, nothing more",
        launch: launch_demo,
        sim: None,
        library_counts: demo_library_counts,
        replay: false,
    },
    GameEntry {
        name: "caves",
        about: "The Caves of Clojure, finished: dig down five cave levels to the way out",
        launch: launch_caves,
        sim: Some(&crate::sim::CavesSim),
        library_counts: caves_library_counts,
        replay: true,
    },
];

/// The game called `name` in [`GAMES`].
///
/// # Errors
/// [`LaunchError::UnknownGame`], naming the valid games.
pub fn game(name: &str) -> Result<&'static GameEntry, LaunchError> {
    GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| LaunchError::UnknownGame {
            name: name.to_string(),
        })
}

/// The names of the games that can be launched, the default first (from [`GAMES`]).
#[must_use]
pub fn games() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The default game's name (the first of [`GAMES`]).
#[must_use]
pub fn default_game() -> &'static str {
    GAMES.first().map_or("alchemy", |g| g.name)
}

/// Start the game `opts` names: from the save file if one is given, else new from the seed.
///
/// # Errors
/// [`LaunchError`]: an unknown game, an unreadable or invalid save file. Nothing touches the
/// terminal or window, so a frontend can print the error and exit before setting itself up.
pub fn launch(opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    let entry = game(&opts.game)?;
    if opts.replay.is_some() && !entry.replay {
        return Err(LaunchError::NoReplay {
            game: opts.game.clone(),
        });
    }
    (entry.launch)(opts)
}

/// The demo: a fresh room, or one from a save.
fn launch_demo(opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    if opts.data.wants_other_data() {
        return Err(LaunchError::NoMods {
            game: opts.game.clone(),
        });
    }
    let world = match &opts.load {
        Some(path) => {
            let text = read_save(path, &opts.game)?;
            DemoWorld::from_save_text(&text).map_err(|e| LaunchError::BadSave {
                path: path.clone(),
                game: opts.game.clone(),
                source: Box::new(e),
            })?
        }
        None => DemoWorld::new(opts.seed.unwrap_or_else(clock_seed)),
    };
    Ok(Box::new(demo::app(world)))
}

/// The Caves: a recording to watch, a save to continue, or a new game.
fn launch_caves(opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    let data = std::sync::Arc::new(crate::caves::CavesData::from_choice(&opts.data).map_err(
        |source| LaunchError::Data {
            game: opts.game.clone(),
            source,
        },
    )?);
    if let Some(path) = &opts.replay {
        let app = crate::caves::replay_app_on(path, &data).map_err(|e| LaunchError::BadReplay {
            path: path.clone(),
            source: Box::new(e),
        })?;
        return Ok(Box::new(app));
    }
    let save_path = crate::save_dir().map(|d| d.join(crate::caves::save::SAVE_FILE));
    // Temporary files and copies left by processes that died while saving go first.
    if let Some(dir) = save_path.as_deref().and_then(Path::parent) {
        crate::storage::sweep_leftovers(dir);
    }
    let ui = match &opts.load {
        Some(path) => crate::caves::CavesUi::load_on(path, data).map_err(|e| match e {
            crate::caves::save::CavesSaveError::Storage(crate::storage::StorageError::Io {
                path,
                source,
            }) => LaunchError::ReadSave { path, source },
            other => LaunchError::BadSave {
                path: path.clone(),
                game: opts.game.clone(),
                source: Box::new(other),
            },
        })?,
        None => {
            let ui = crate::caves::CavesUi::new_on(opts.seed.unwrap_or_else(clock_seed), data);
            match save_path {
                Some(p) => ui.with_save(p),
                None => ui,
            }
        }
    };
    // One window per save: the lock of the save this session writes, on its canonical path.
    let mut ui = ui;
    if let Some(path) = ui.save_path().map(Path::to_path_buf) {
        if opts.load.is_none()
            && let Some(dir) = path.parent()
        {
            let _ = std::fs::create_dir_all(dir);
        }
        match crate::storage::SessionLock::acquire(&path) {
            Ok(lock) => ui.hold_lock(lock),
            Err(
                e @ (crate::storage::StorageError::Locked { .. }
                | crate::storage::StorageError::BadLock { .. }),
            ) => return Err(LaunchError::Busy(e)),
            // Nowhere to write a lock (a read-only directory): play on; saving will say so.
            Err(_) => {}
        }
    }
    Ok(Box::new(crate::caves::app_with(
        ui.with_tiles(opts.tiles == Some(true)),
    )))
}

fn read_save(path: &Path, game: &str) -> Result<String, LaunchError> {
    // The bounded reader: a FIFO or a device is refused at once, a huge file is not read.
    let bytes = crate::storage::read_bounded(path, crate::storage::MAX_FILE_BYTES).map_err(
        |e| match e {
            crate::storage::StorageError::Io { path, source } => {
                LaunchError::ReadSave { path, source }
            }
            other => LaunchError::BadSave {
                path: path.to_path_buf(),
                game: game.to_string(),
                source: Box::new(other),
            },
        },
    )?;
    String::from_utf8(bytes).map_err(|e| LaunchError::BadSave {
        path: path.to_path_buf(),
        game: game.to_string(),
        source: Box::new(e.utf8_error()),
    })
}

/// A seed from the clock, for games started without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 ^ d.as_secs().rotate_left(32))
        .unwrap_or(0x5EED)
}

/// The directory for save files: `$XDG_DATA_HOME/alembic`, else `$HOME/.local/share/alembic`;
/// `None` when neither variable is usable. (Not created here.)
#[must_use]
pub fn save_dir() -> Option<PathBuf> {
    save_dir_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// [`save_dir`] from given values of `XDG_DATA_HOME` and `HOME`. Per the XDG spec an empty or
/// relative `XDG_DATA_HOME` is ignored.
#[must_use]
pub fn save_dir_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let usable = |v: Option<OsString>| {
        v.map(PathBuf::from)
            .filter(|p| !p.as_os_str().is_empty() && p.is_absolute())
    };
    if let Some(xdg) = usable(xdg_data_home) {
        return Some(xdg.join("alembic"));
    }
    usable(home).map(|h| h.join(".local").join("share").join("alembic"))
}

/// `--list`: print [`list_games`] on stdout, one game a line; the exit status says whether
/// every library could be built (else the error goes to stderr as a `program: …` line).
#[must_use]
pub fn print_games(program: &str) -> std::process::ExitCode {
    match list_games() {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{program}: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Print how a session ended, for a frontend once its terminal or window is gone: the app's
/// farewell (where the game was saved, or why saving failed), then the frontend's own error,
/// each as a `program: …` line on stderr. Returns whether all went well (exit status 0).
pub fn report_session_end<E: std::fmt::Display>(
    program: &str,
    farewell: Result<Option<String>, String>,
    run: Result<(), E>,
) -> bool {
    let mut ok = true;
    match farewell {
        Ok(Some(line)) => eprintln!("{program}: {line}"),
        Ok(None) => {}
        Err(e) => {
            eprintln!("{program}: error: {e}");
            ok = false;
        }
    }
    if let Err(e) = run {
        eprintln!("{program}: error: {e}");
        ok = false;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(game: &str) -> LaunchOptions {
        LaunchOptions {
            game: game.to_string(),
            seed: Some(1),
            load: None,
            tiles: None,
            practice: false,
            replay: None,
            wizard: false,
            data: Default::default(),
        }
    }

    #[test]
    fn one_table_serves_launch_sim_and_replay() {
        // Every game launches from the table, with a seed. (Alchemy takes the lock of the
        // real save file on launch, so its own tests launch it with a save path of theirs.)
        for g in GAMES.iter().filter(|g| g.name != "alchemy") {
            assert!(launch(&opts(g.name)).is_ok(), "{} launches", g.name);
        }
        // The runner knows exactly the games with a sim, under the same names.
        let runners: Vec<&str> = crate::sim::registry().iter().map(|s| s.name()).collect();
        let with_sim: Vec<&str> = GAMES
            .iter()
            .filter(|g| g.sim.is_some())
            .map(|g| g.name)
            .collect();
        assert_eq!(runners, with_sim);
        // A game without a runner says so; an unknown one lists the valid names.
        let demo = crate::sim::find("demo").err().map(|e| e.to_string());
        assert_eq!(
            demo.as_deref(),
            Some(
                "demo has no headless runner (it plays only in a frontend); headless games: alchemy, caves"
            )
        );
        assert!(crate::sim::find("nethack").is_err());
        // --replay is refused for a game whose entry has no viewer.
        let mut o = opts("demo");
        o.replay = Some(PathBuf::from("x.replay"));
        assert!(matches!(launch(&o), Err(LaunchError::NoReplay { .. })));
        assert_eq!(default_game(), GAMES[0].name);
    }

    #[test]
    fn the_list_counts_each_games_library() {
        let lines = list_games().unwrap();
        assert_eq!(lines.len(), GAMES.len());
        for (line, g) in lines.iter().zip(GAMES) {
            assert!(line.starts_with(g.name), "{line}");
            assert!(line.contains(g.about), "{line}");
        }
        // Counts come from each game's library, not a table of numbers.
        let caves = crate::caves::library().unwrap();
        let creatures = caves.prototypes().count();
        assert!(
            lines[2].contains(&format!("{creatures} creatures")),
            "{}",
            lines[2]
        );
        let alchemy = (GAMES[0].library_counts)().unwrap();
        let potions = alchemy.iter().find(|(w, _)| *w == "potions").unwrap().1;
        assert!(potions > 0);
        assert!(
            lines[0].contains(&format!("{potions} potions")),
            "{}",
            lines[0]
        );
        assert!(lines[1].contains("Library: none."), "{}", lines[1]);
    }

    #[test]
    fn unknown_game_lists_valid_names() {
        let err = launch(&opts("nethack")).err().unwrap();
        assert_eq!(
            err.to_string(),
            "unknown game \"nethack\"; valid games: alchemy, demo, caves"
        );
        assert!(games().contains(&default_game()));
    }

    #[test]
    fn demo_launches_and_renders() {
        let mut app = launch(&opts("demo")).unwrap();
        let mut f = alembic_ui::Frame::new(80, 24);
        app.render(&mut f);
        assert!(f.contains_text("@"));
        assert!(f.contains_text("Seed 1"));
    }

    #[test]
    fn load_errors_are_clear() {
        let mut o = opts("demo");
        o.load = Some(PathBuf::from("/nonexistent/alembic/save"));
        let err = launch(&o).err().unwrap().to_string();
        assert!(
            err.starts_with("cannot read save file /nonexistent/alembic/save:"),
            "{err}"
        );

        let dir = std::env::temp_dir().join(format!("alembic-launch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.save");
        std::fs::write(&bad, "garbage").unwrap();
        o.load = Some(bad.clone());
        let err = launch(&o).err().unwrap();
        assert!(
            err.to_string().contains("is not a valid demo save"),
            "{err}"
        );
        // The game's own error is kept, typed, not flattened to a string.
        let LaunchError::BadSave { source, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(
            source.downcast_ref::<crate::demo::DemoSaveError>(),
            Some(&crate::demo::DemoSaveError::NoHeader)
        );

        let good = dir.join("good.save");
        std::fs::write(&good, DemoWorld::new(5).save_text()).unwrap();
        o.load = Some(good);
        let mut app = launch(&o).unwrap();
        let mut f = alembic_ui::Frame::new(80, 24);
        app.render(&mut f);
        assert!(f.contains_text("Welcome back."));
        // Devices are refused at once through the bounded reader (no hang, no memory).
        o.load = Some(PathBuf::from("/dev/zero"));
        let err = launch(&o).err().unwrap().to_string();
        assert!(err.contains("is not a regular file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn save_dir_respects_xdg_then_home() {
        let d = save_dir_from(Some("/x/data".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/x/data/alembic")));
        let d = save_dir_from(Some("relative".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/home/a/.local/share/alembic")));
        let d = save_dir_from(Some("".into()), Some("/home/a".into()));
        assert_eq!(d, Some(PathBuf::from("/home/a/.local/share/alembic")));
        assert_eq!(save_dir_from(None, None), None);
    }
}
