//! Where a frontend gets its game from: pick a game by name, start it new (with a seed) or from
//! a save file, and get back an [`App`] to hand to [`alembic_ui::run`]. Frontends contain no game
//! code; a game registered here shows up in every frontend.

use std::path::PathBuf;

use alembic_session::{LaunchError, LaunchOptions, LibraryCounts};
use alembic_ui::App;

/// The command-line arguments every frontend shares, for `#[command(flatten)]` in a clap
/// parser: which game, and how to start it. `--game` takes the names of [`GAMES`]; a
/// frontend over another table of games swaps the accepted names with [`GameArgs::for_games`].
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
    /// `command` with its `--game` flag taking the names of `table` (the first is the
    /// default): what a frontend running an outside crate's games parses with.
    #[must_use]
    pub fn for_games(command: clap::Command, table: &[GameEntry]) -> clap::Command {
        let names: Vec<&'static str> = table.iter().map(|g| g.name).collect();
        command.mut_arg("game", |a| {
            a.value_parser(clap::builder::PossibleValuesParser::new(names))
        })
    }

    /// The game's name: the one asked for, else [`default_game`].
    #[must_use]
    pub fn game_name(&self) -> String {
        self.game_name_of(GAMES)
    }

    /// The game's name: the one asked for, else the first of `table`.
    #[must_use]
    pub fn game_name_of(&self, table: &[GameEntry]) -> String {
        let first = table.first().map_or_else(default_game, |g| g.name);
        self.game.clone().unwrap_or_else(|| first.to_string())
    }

    /// The launch options these arguments ask for, on a frontend whose tile support is
    /// `tiles` (see [`LaunchOptions::tiles`]).
    #[must_use]
    pub fn launch_options(&self, tiles: Option<bool>) -> LaunchOptions {
        self.launch_options_of(GAMES, tiles)
    }

    /// [`GameArgs::launch_options`] with the games of `table` (the default game is its
    /// first).
    #[must_use]
    pub fn launch_options_of(&self, table: &[GameEntry], tiles: Option<bool>) -> LaunchOptions {
        let name = self.game_name_of(table);
        LaunchOptions {
            game: name.clone(),
            seed: self.seed.as_deref().map(alembic_session::seed_from_text),
            load: self.load.clone(),
            tiles,
            practice: self.practice,
            replay: self.replay.clone(),
            wizard: self.wizard,
            data: alembic_session::gamedata::DataChoice {
                data_dir: self.data.clone(),
                mods: self.mods.clone(),
                mods_folder: alembic_session::save_dir().map(|d| d.join("mods").join(&name)),
            },
        }
    }
}

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
    /// How a server running many games at once (the browser's `alembic-web`) starts it, with
    /// its save where the server keeps saves, and reads its turn, depth and score
    /// ([`crate::host`]); `None` keeps it out of such servers. A game on the session:
    /// `Some(|o| alembic_games::host::host_session(MyRules::new(), o))`.
    pub host: Option<crate::host::HostFn>,
}

/// One line per game of [`GAMES`] (the default first): its name, what it is, what its
/// library holds and what it can do beyond playing: what `--list` prints.
///
/// # Errors
/// A game's library could not be built (a bug in its data).
pub fn list_games() -> Result<Vec<String>, alembic::Error> {
    list_games_of(GAMES)
}

/// [`list_games`] for the games of `table` (an outside crate's own table).
///
/// # Errors
/// As [`list_games`].
pub fn list_games_of(table: &[GameEntry]) -> Result<Vec<String>, alembic::Error> {
    table
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
            .field("host", &self.host.is_some())
            .finish_non_exhaustive()
    }
}

/// Every game, the default first: the one list every frontend, `alembic-sim` and the replay
/// tools read (a constant table, not a registry filled at run time).
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: crate::sim::ALCHEMY.name,
        about: crate::sim::ALCHEMY.about,
        launch: crate::alchemy::ui::launch,
        sim: Some(crate::sim::ALCHEMY.sim),
        library_counts: crate::sim::ALCHEMY.library_counts,
        replay: true,
        host: Some(crate::host::host_alchemy),
    },
    GameEntry {
        name: crate::sim::CAVES.name,
        about: crate::sim::CAVES.about,
        launch: alembic_caves::launch,
        sim: Some(crate::sim::CAVES.sim),
        library_counts: crate::sim::CAVES.library_counts,
        replay: true,
        host: Some(|o| crate::host::host_session(alembic_caves::Caves::new(), o)),
    },
    GameEntry {
        name: crate::sim::RATS.name,
        about: crate::sim::RATS.about,
        launch: launch_rats,
        sim: Some(crate::sim::RATS.sim),
        library_counts: crate::sim::RATS.library_counts,
        replay: true,
        host: Some(|o| crate::host::host_session(alembic_rats::Rats::new(), o)),
    },
];

/// The rats: everything from the session, nothing of their own. Their content is Rust
/// code: a data directory or a mod is refused, not ignored.
fn launch_rats(opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    if opts.data.wants_other_data() {
        return Err(LaunchError::NoMods {
            game: opts.game.clone(),
        });
    }
    let rules = alembic_rats::Rats::new().map_err(|e| LaunchError::Setup {
        game: opts.game.clone(),
        source: Box::new(e),
    })?;
    alembic_session::play::launch(rules, opts)
}

/// The game called `name` in [`GAMES`].
///
/// # Errors
/// [`LaunchError::UnknownGame`], naming the valid games.
pub fn game(name: &str) -> Result<&'static GameEntry, LaunchError> {
    game_of(GAMES, name)
}

/// [`game`] in `table`.
///
/// # Errors
/// As [`game`].
pub fn game_of<'t>(table: &'t [GameEntry], name: &str) -> Result<&'t GameEntry, LaunchError> {
    table
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| LaunchError::UnknownGame {
            name: name.to_string(),
            known: table.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
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
    launch_of(GAMES, opts)
}

/// [`launch`] from the games of `table`: an outside crate's own games run through the same
/// checks (an unknown name, `--replay` for a game without a viewer).
///
/// # Errors
/// As [`launch`].
pub fn launch_of(table: &[GameEntry], opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    let entry = game_of(table, &opts.game)?;
    if opts.replay.is_some() && !entry.replay {
        return Err(LaunchError::NoReplay {
            game: opts.game.clone(),
        });
    }
    (entry.launch)(opts)
}

/// `--list`: print [`list_games`] on stdout, one game a line; the exit status says whether
/// every library could be built (else the error goes to stderr as a `program: …` line).
#[must_use]
pub fn print_games(program: &str) -> std::process::ExitCode {
    print_games_of(GAMES, program)
}

/// [`print_games`] for the games of `table`.
#[must_use]
pub fn print_games_of(table: &[GameEntry], program: &str) -> std::process::ExitCode {
    match list_games_of(table) {
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
        // A game it does not play is refused with the ones it plays.
        let other = crate::sim::find("nethack").err().map(|e| e.to_string());
        assert_eq!(
            other.as_deref(),
            Some("unknown game \"nethack\"; known games: alchemy, caves, rats")
        );
        assert_eq!(default_game(), GAMES[0].name);
    }

    #[test]
    fn replay_is_refused_for_a_game_without_a_viewer() {
        // A table whose rats have no replay viewer (an outside crate's table may say so).
        let rats = *GAMES.iter().find(|g| g.name == "rats").unwrap();
        let table = [GameEntry {
            replay: false,
            ..rats
        }];
        let mut o = opts("rats");
        o.replay = Some(PathBuf::from("x.replay"));
        assert!(matches!(
            launch_of(&table, &o),
            Err(LaunchError::NoReplay { .. })
        ));
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
            lines[1].contains(&format!("{creatures} creatures")),
            "{}",
            lines[1]
        );
        let alchemy = (GAMES[0].library_counts)().unwrap();
        let potions = alchemy.iter().find(|(w, _)| *w == "potions").unwrap().1;
        assert!(potions > 0);
        assert!(
            lines[0].contains(&format!("{potions} potions")),
            "{}",
            lines[0]
        );
        let rats = (GAMES[2].library_counts)().unwrap();
        let prototypes = rats.iter().find(|(w, _)| *w == "prototypes").unwrap().1;
        assert!(
            lines[2].contains(&format!("{prototypes} prototypes")),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn unknown_game_lists_valid_names() {
        let err = launch(&opts("nethack")).err().unwrap();
        assert_eq!(
            err.to_string(),
            "unknown game \"nethack\"; valid games: alchemy, caves, rats"
        );
        assert!(games().contains(&default_game()));
    }

    #[test]
    fn games_without_data_refuse_mods_and_data_directories() {
        for game in ["rats"] {
            for (data_dir, mods) in [
                (None, vec![PathBuf::from("/nonexistent/alembic/mod")]),
                (Some(PathBuf::from("/nonexistent/alembic/data")), vec![]),
            ] {
                let mut o = opts(game);
                o.data.data_dir = data_dir;
                o.data.mods = mods;
                let err = launch(&o).err().map(|e| e.to_string());
                assert_eq!(
                    err.as_deref(),
                    Some(
                        format!(
                            "{game} cannot load mods or a data directory: its content is Rust \
                             code (alchemy and caves can load them); start it without --data \
                             and --mod, with no mods in its mods folder"
                        )
                        .as_str()
                    )
                );
            }
        }
    }

    #[test]
    fn load_errors_are_clear() {
        let mut o = opts("rats");
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
            err.to_string().contains("is not a valid rats save"),
            "{err}"
        );
        // The game's own error is kept, typed, not flattened to a string.
        assert!(matches!(&err, LaunchError::BadSave { .. }), "{err:?}");
        // Devices are refused at once through the bounded reader (no hang, no memory).
        o.load = Some(PathBuf::from("/dev/zero"));
        let err = launch(&o).err().unwrap().to_string();
        assert!(err.contains("is not a regular file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
