//! Which games the server runs and how it starts them: the entries of its table of games
//! ([`Config::games`](crate::Config::games), by default [`alembic_games::GAMES`]'s) that a
//! server can host, each started new, from its save, or as the replay viewer of a recording — with every save, recording, morgue and score of the server
//! in one directory, so the lobby finds them all.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic_games::GameEntry;
use alembic_games::host::{HostFn, HostOptions, Hosted};
use alembic_games::run::Cadence;
use alembic_ui::{App, Control, Frame, Input};

/// Where the games write morgue files, under the data directory.
pub const MORGUE_DIR: &str = "morgue";

/// How often a web game is saved and checkpointed: its store holds every move, so a save
/// only bounds what a continue replays, and a checkpoint how far a look into the game's
/// past replays. Each checkpoint hashes the whole game (about 2.4 ms of CPU under load,
/// 9% of the server's CPU at one every 50 moves); each save writes the game and loads it
/// back (about 20 ms). A continue replays at most 500 moves (random moves replay at
/// about 10,000 a second), a look back at most 200.
pub const WEB_CADENCE: Cadence = Cadence {
    autosave_every: 500,
    checkpoint_every: 200,
};
/// Where finished games' recordings go, under the data directory.
pub const RECORDS_DIR: &str = "records";

/// A game the server offers: what it keeps of an entry of its table of games (an
/// [`alembic_games::GameEntry`] with a [`host`](alembic_games::GameEntry::host)): its name,
/// whether it replays, and how it starts; or the `crash` test game. Two are the same game
/// when they have the same name.
#[derive(Clone, Copy)]
pub struct GameKind {
    name: &'static str,
    replay: bool,
    host: HostFn,
}

impl PartialEq for GameKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for GameKind {}

impl std::hash::Hash for GameKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl std::fmt::Debug for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("GameKind").field(&self.name).finish()
    }
}

impl GameKind {
    /// The test game that panics on `!` (offered only with `--test-games`).
    pub const CRASH: GameKind = GameKind {
        name: "crash",
        replay: false,
        host: host_crash,
    };

    /// The entry's game, if a server can run it (it has a
    /// [`host`](alembic_games::GameEntry::host)).
    #[must_use]
    pub fn of(entry: &GameEntry) -> Option<GameKind> {
        Some(GameKind {
            name: entry.name,
            replay: entry.replay,
            host: entry.host?,
        })
    }

    /// Its name, as its table spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Whether its recordings replay.
    #[must_use]
    pub fn replays(self) -> bool {
        self.replay
    }
}

/// The games a server offers: the entries of a table of games that have a
/// [`host`](alembic_games::GameEntry::host), in its order (the others are left out); and
/// the `crash` test game when asked for.
#[derive(Clone, Debug)]
pub struct Games {
    kinds: Arc<[GameKind]>,
}

impl Default for Games {
    /// The registry's games, [`alembic_games::GAMES`].
    fn default() -> Self {
        Games::of(alembic_games::GAMES)
    }
}

impl Games {
    /// The games of `table` a server can run ([`Games::check`] says whether it can run them).
    #[must_use]
    pub fn of(table: &[GameEntry]) -> Games {
        Games {
            kinds: table.iter().filter_map(GameKind::of).collect(),
        }
    }

    /// Whether a server can offer these games.
    ///
    /// # Errors
    /// None of them can be run by a server (no entry has a `host`), or a name is empty,
    /// repeated, `crash` (the test game's), or not lowercase letters, digits and `_` (the
    /// names go into file names and URLs).
    pub fn check(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for k in self.playable() {
            let name = k.name();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                return Err(format!(
                    "game name {name:?} is not lowercase letters, digits and _"
                ));
            }
            if name == GameKind::CRASH.name {
                return Err(format!("game name {name:?} is the test game's"));
            }
            if !seen.insert(name) {
                return Err(format!("game name {name:?} is in the table twice"));
            }
        }
        if seen.is_empty() {
            return Err("no game in the table can run on a server (none has a `host`)".to_owned());
        }
        Ok(())
    }

    /// The games a player can start (the test game aside), in table order.
    pub fn playable(&self) -> impl Iterator<Item = GameKind> + '_ {
        self.kinds.iter().copied()
    }

    /// The names of [`Games::playable`], joined by `, `: what an error about an unknown game
    /// lists.
    #[must_use]
    pub fn names(&self) -> String {
        self.playable()
            .map(GameKind::name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The game called `name`; the test game only when `test_games`.
    #[must_use]
    pub fn from_name(&self, name: &str, test_games: bool) -> Option<GameKind> {
        self.playable()
            .find(|k| k.name() == name)
            .or_else(|| (test_games && name == GameKind::CRASH.name).then_some(GameKind::CRASH))
    }

    /// The game whose recording is in the file called `name` (recordings are named
    /// `GAME-seed…`), if it replays.
    #[must_use]
    pub fn of_recording(&self, name: &str) -> Option<GameKind> {
        self.playable()
            .filter(|k| k.replays())
            .find(|k| name.starts_with(&format!("{}-", k.name())))
    }
}

/// A running game, with what the lobby shows of it: whatever its entry's
/// [`host`](alembic_games::GameEntry::host) started, read through
/// [`alembic_games::host::Hosted`].
pub struct WebApp(Box<dyn Hosted>);

/// Where the lobby says a game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The hero's depth, if in a game (and the game has depths).
    pub depth: Option<i32>,
    /// The game's turn.
    pub turn: u64,
}

impl WebApp {
    /// Where the game is now.
    #[must_use]
    pub fn progress(&self) -> Progress {
        Progress {
            depth: self.0.depth(),
            turn: self.0.turn(),
        }
    }

    /// The game in play, if there is one (not on a start screen).
    #[must_use]
    pub fn game(&self) -> Option<&alembic::Game> {
        self.0.game()
    }

    /// The game's state hash when its recording's last checkpoint is of the game as it is
    /// now ([`alembic_games::host::Hosted::checkpointed`]); `None` when not known that way.
    #[must_use]
    pub fn checkpointed(&self) -> Option<u64> {
        self.0.checkpointed()
    }

    /// The game's score as its own score table counts it, or `None` when it has none (no
    /// game, the test game).
    #[must_use]
    pub fn points(&self) -> Option<i64> {
        self.0.points()
    }

    /// How the game ended, once it is over and filed (its save removed, its recording and
    /// morgue file kept): the page shows this, with links, instead of the end screen the
    /// terminal draws (which names the server's files). `None` while it goes on.
    #[must_use]
    pub fn ending(&self) -> Option<alembic_games::end::EndSummary> {
        self.0.ending()
    }

    /// Why the game's journal (its recording) is behind, if it is: moves wait in memory
    /// because the file could not be written. They are written first, now; `None` when
    /// nothing waits (or the game keeps no journal).
    pub fn journal_behind(&mut self) -> Option<String> {
        self.0.journal_behind()
    }
}

impl App for WebApp {
    fn render(&mut self, frame: &mut Frame) {
        self.0.render(frame);
    }
    fn handle(&mut self, input: Input) -> Control {
        self.0.handle(input)
    }
    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.0.tick_interval()
    }
    fn tick(&mut self) -> Control {
        self.0.tick()
    }
    fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        self.0.farewell()
    }
    fn title(&self) -> Option<String> {
        self.0.title()
    }
}

/// The test game, as a server starts it.
fn host_crash(o: &HostOptions) -> Result<Box<dyn Hosted>, String> {
    if o.replay.is_some() {
        return Err("the crash test game has no recordings".to_owned());
    }
    Ok(Box::new(CrashApp::default()))
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

impl Hosted for CrashApp {
    fn game(&self) -> Option<&alembic::Game> {
        None
    }
    fn turn(&self) -> u64 {
        self.0.len() as u64
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
    host(
        kind,
        &HostOptions {
            save: save.to_path_buf(),
            seed,
            tiles,
            replay: None,
            kept: None,
            // The store is the durable copy of every game: each move is committed there
            // (and flushed) before it is answered, and a game's files are written again
            // from it before the game continues. So the recording's appends need no flush
            // of their own (one `fdatasync` per move per game; a `kill -9` loses nothing
            // without it).
            flush_appends: false,
            // For the same reason a save only bounds the moves a continue replays (a
            // few hundred moves replay in tens of ms), while writing one, checked by
            // loading it back, costs about 20 ms of CPU on the game's worker: every
            // 100 moves that was about 40% of a move's CPU under load.
            cadence: WEB_CADENCE,
        },
    )
}

/// The replay viewer of the recording at `path`, of `kind`: it saves nothing.
///
/// # Errors
/// The recording cannot be read or does not replay (the game's own message).
pub fn replay(kind: GameKind, path: &Path, tiles: Option<bool>) -> Result<WebApp, StartError> {
    replay_kept(kind, path, tiles, None)
}

/// [`replay`] of a live game's recording, seeking also from the whole states the game
/// keeps (`kept`): a look into its past replays at most the commands since the nearest.
///
/// # Errors
/// As [`replay`].
pub fn replay_kept(
    kind: GameKind,
    path: &Path,
    tiles: Option<bool>,
    kept: Option<Arc<alembic_games::playback::KeptStates>>,
) -> Result<WebApp, StartError> {
    if !kind.replays() && kind != GameKind::CRASH {
        return Err(format!("{} has no replay viewer", kind.name()));
    }
    host(
        kind,
        &HostOptions {
            save: PathBuf::new(),
            seed: 0,
            tiles,
            replay: Some(path.to_path_buf()),
            kept,
            flush_appends: true,
            cadence: Cadence::default(),
        },
    )
}

fn host(kind: GameKind, opts: &HostOptions) -> Result<WebApp, StartError> {
    (kind.host)(opts).map(WebApp)
}

/// A seed from the clock and a counter.
#[must_use]
pub fn fresh_seed(salt: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &'static str, host: Option<HostFn>) -> GameEntry {
        GameEntry {
            name,
            about: "a test entry",
            launch: |_| Ok(Box::new(CrashApp::default())),
            sim: None,
            library_counts: || Ok(Vec::new()),
            replay: true,
            host,
        }
    }

    #[test]
    fn the_registry_offers_its_hosted_games_in_order() {
        let games = Games::default();
        assert_eq!(games.check(), Ok(()));
        assert_eq!(games.names(), "alchemy, caves, rats");
        assert_eq!(games.from_name("crash", false), None);
        assert_eq!(games.from_name("crash", true), Some(GameKind::CRASH));
        assert_eq!(games.from_name("nethack", true), None);
        let caves = games.from_name("caves", false).map(GameKind::name);
        assert_eq!(caves, Some("caves"));
        let of = |f: &str| games.of_recording(f).map(GameKind::name);
        assert_eq!(of("rats-seed3-1700000000.replay"), Some("rats"));
        assert_eq!(of("ratsx-seed3.replay"), None);
        assert_eq!(of("crash-seed3.replay"), None);
    }

    #[test]
    fn a_table_the_server_cannot_offer_is_refused_with_its_reason() {
        let host: Option<HostFn> = Some(|_| Ok(Box::new(CrashApp::default())));
        let table = |names: &[&'static str]| -> Vec<GameEntry> {
            names.iter().map(|n| entry(n, host)).collect()
        };
        let check = |t: Vec<GameEntry>| Games::of(&t).check();
        assert_eq!(check(table(&["mine", "other_2"])), Ok(()));
        for (names, why) in [
            (&["a", "a"][..], "in the table twice"),
            (&["crash"][..], "the test game's"),
            (&["My Game"][..], "not lowercase"),
            (&["../x"][..], "not lowercase"),
            (&[""][..], "not lowercase"),
            (&[][..], "none has a `host`"),
        ] {
            let err = check(table(names)).unwrap_err();
            assert!(err.contains(why), "{names:?}: {err}");
        }
        let no_host = check(vec![entry("mine", None)]).unwrap_err();
        assert!(no_host.contains("none has a `host`"), "{no_host}");
    }

    #[test]
    fn the_test_game_starts_and_counts_its_keys_but_has_no_recordings() {
        let mut app = start(GameKind::CRASH, Path::new("/nonexistent/x.save"), 1, None).unwrap();
        app.handle(Input::ch('a'));
        app.handle(Input::ch('b'));
        assert_eq!(
            app.progress(),
            Progress {
                depth: None,
                turn: 2
            }
        );
        assert!(app.game().is_none() && app.points().is_none());
        let err = replay(GameKind::CRASH, Path::new("/nonexistent/x.replay"), None).err();
        assert_eq!(
            err.as_deref(),
            Some("the crash test game has no recordings")
        );
    }
}
