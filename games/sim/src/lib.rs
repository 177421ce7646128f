//! The headless runner: games registered by name, played by a policy without a screen.
//!
//! A game plugs in by implementing [`SimGame`] (for a [`Ruleset`], [`RulesetSim`] does it)
//! and being listed in [`GAMES`]; the `alembic-sim` binary only talks to this trait. The
//! crate builds the games' rules without their boards and the session without its screens:
//! no UI crate is linked (`cargo tree -p alembic-rl-sim -e normal`).
//!
//! ```
//! use alembic_sim::{Policy, SimGame};
//!
//! let (report, recording) = alembic_sim::RATS.sim.record(1, 200, Policy::Explore)?;
//! assert!(report.turns > 0);
//! assert!(recording.lines().count() > 1);
//! # Ok::<(), alembic_sim::SimError>(())
//! ```

#![warn(missing_docs)]

use alembic::{replay::Recording, replay::ReplayHeader};
use serde::Serialize;

use alembic_session::LibraryCounts;
use alembic_session::launch::Cause;
use alembic_session::ruleset::{KeyBot, Rejected, Status};
use alembic_session::run::{Step, apply_step};
use alembic_session::{Modes, Ruleset};

pub use alembic_session::ruleset::Policy;

/// The one-line result of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunReport {
    /// The seed.
    pub seed: u64,
    /// Turns played (accepted hero actions).
    pub turns: u64,
    /// Deepest level reached (1..=11).
    pub deepest: i32,
    /// The depth where the run ended (games with levels; omitted otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    /// Whether the hero held the Philosopher's Stone at the end (Alchemy; omitted otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stone: Option<bool>,
    /// "won", "died" or "playing".
    pub outcome: String,
    /// The cause of death or victory, empty while playing.
    pub cause: String,
    /// Monsters killed.
    pub kills: i64,
    /// The final game value's hash, hex.
    pub hash: String,
}

/// Why a run could not happen.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// No game has that name.
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The registered names.
        known: String,
    },
    /// The engine refused a call: a bug in a game's data or rules.
    #[error(transparent)]
    Engine(#[from] alembic::Error),
    /// A game's rules could not be set up (its data or its registries).
    #[error("cannot set the game up: {0}")]
    Setup(#[source] Cause),
    /// A game broke one of the engine's invariants (a bug).
    #[error("seed {seed}, turn {turn}: broken invariant: {source}")]
    Invariant {
        /// The run's seed.
        seed: u64,
        /// The turn it was found on.
        turn: u64,
        /// What is broken.
        source: alembic::error::InvariantError,
    },
    /// The run's recording could not be written.
    #[error("cannot write the recording: {0}")]
    Recording(#[from] alembic::replay::ReplayError),
    /// A report could not be written as JSON.
    #[error("cannot write the report: {0}")]
    Json(#[from] serde_json::Error),
    /// A report's state hash is not hexadecimal (a bug).
    #[error("bad state hash in a report: {0}")]
    Hash(#[from] std::num::ParseIntError),
    /// The game keeps its content in Rust code: it has no data schema.
    #[error("{name} keeps its content in Rust code: no data to check; games with data: {known}")]
    NoData {
        /// The game asked for.
        name: String,
        /// The games whose content is data.
        known: String,
    },
}

/// The games whose content is data (alembic-data), by name.
pub const DATA_GAMES: [&str; 2] = ["alchemy", "caves"];

/// The data schema of the game called `name`: what `alembic-sim --list-keys` prints.
///
/// # Errors
/// [`SimError::UnknownGame`]; [`SimError::NoData`] for a game whose content is Rust code
/// (the rats).
pub fn data_schema(name: &str) -> Result<alembic_data::Schema, SimError> {
    match name {
        "alchemy" => Ok(alembic_alchemy::library::schema()),
        "caves" => Ok(alembic_caves::schema()),
        _ if GAMES.iter().any(|g| g.name == name) => Err(SimError::NoData {
            name: name.to_string(),
            known: DATA_GAMES.join(", "),
        }),
        _ => Err(SimError::UnknownGame {
            name: name.to_string(),
            known: games().join(", "),
        }),
    }
}

/// What `alembic-sim --check-data` found in data that loads.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DataReport {
    /// The game whose schema checked it.
    pub game: String,
    /// The files read, in order.
    pub sources: Vec<String>,
    /// Prototypes in the loaded library (abstract ones included).
    pub prototypes: usize,
    /// Tiles (the engine's "void" included).
    pub tiles: usize,
    /// The data's [`DataHash`](alembic_data::DataHash), hex.
    pub hash: String,
}

/// The seeds [`check_data`] starts a game from, to see that the data can start one.
pub const CHECK_SEEDS: [u64; 3] = [1, 2, 3];

/// Check the data files at `paths` (each a `.toml` file, or a directory whose `.toml` files
/// are read by name), in order — the base first, then mods — against the game's schema and
/// hooks, then start a new game on them from each of [`CHECK_SEEDS`]: what
/// `alembic-sim --check-data` does.
///
/// The paths are read as a game reads `--data PATH --mod PATH…`, so what a game would
/// refuse is refused here too: a directory holding no `.toml` file, a FIFO, a device, a
/// file over [`MAX_SOURCE_BYTES`](alembic_data::MAX_SOURCE_BYTES). No path at all checks
/// the shipped data.
///
/// # Errors
/// `Err(Err(_))` for a game without data ([`data_schema`]), or [`SimError::Setup`] for data
/// that loads but cannot start a game (a mod deleting the hero, say), or breaks the
/// engine's invariants in a new game; `Err(Ok(errors))` with every error of every file (an
/// unreadable file is one).
#[allow(clippy::type_complexity)]
pub fn check_data(
    game: &str,
    paths: &[std::path::PathBuf],
) -> Result<DataReport, Result<alembic_data::DataErrors, SimError>> {
    use alembic_session::Ruleset;
    use alembic_session::gamedata::DataChoice;
    data_schema(game).map_err(Err)?;
    let choice = DataChoice {
        data_dir: paths.first().cloned(),
        mods: paths.iter().skip(1).cloned().collect(),
        mods_folder: None,
    };
    // `data_schema` let only the games of DATA_GAMES through.
    let shipped = match game {
        "alchemy" => (
            alembic_alchemy::library::DATA_FILE,
            alembic_alchemy::library::DATA,
        ),
        _ => (alembic_caves::DATA_FILE, alembic_caves::DATA),
    };
    let sources = choice.read(shipped).map_err(Ok)?;
    let sources_ref = sources.files.iter().map(|(n, t)| (n.as_str(), t.as_str()));
    let loaded = match game {
        "alchemy" => alembic_alchemy::library::load(sources_ref),
        _ => alembic_caves::load_data(sources_ref),
    }
    .map_err(Ok)?;
    // A game on this data, from each seed, as a player's new game would start.
    for seed in CHECK_SEEDS {
        let started = if game == "alchemy" {
            alembic_alchemy::Rules::on_loaded(&choice, &sources, &loaded)
                .and_then(|rules| alembic_alchemy::new_game(seed, &rules))
        } else {
            let data = alembic_caves::CavesData {
                library: loaded
                    .library
                    .clone()
                    .named(alembic_caves::LIBRARY_NAME, alembic_caves::LIBRARY_VERSION),
                identity: alembic_session::gamedata::DataIdentity::of(&sources, loaded.hash()),
            };
            alembic_caves::Caves::on(std::sync::Arc::new(data))
                .map_err(|e| alembic::Error::Msg(e.to_string().into()))
                .and_then(|rules| rules.new_game(seed))
        };
        let g = started.map_err(|e| {
            let why = format!("the data loads, but no game can start on it (seed {seed}): {e}");
            Err(SimError::Setup(why.into()))
        })?;
        check(&g, seed).map_err(Err)?;
    }
    Ok(DataReport {
        game: game.to_string(),
        sources: sources.files.into_iter().map(|(n, _)| n).collect(),
        prototypes: loaded.library.len(),
        tiles: loaded.library.tiles().count(),
        hash: loaded.hash().to_string(),
    })
}

/// What checking a recording found (`alembic-sim --replay FILE --verify`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The game.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// The final turn.
    pub turns: u64,
    /// Commands replayed.
    pub commands: usize,
    /// Checkpoints that matched.
    pub checkpoints: usize,
    /// The final state's hash, hex.
    pub final_hash: String,
    /// How far it reaches: the end of the game, its save, or neither.
    pub reaches: Reach,
    /// The last line was cut off (a crash or a copy that stopped short); it was ignored.
    pub torn: bool,
    /// Commands after the last checkpoint: replayed, but no state hash vouches for them.
    pub appended: usize,
    /// The version of the game that recorded it.
    pub game_version: String,
    /// Whether that is this build's version (another version may replay differently).
    pub same_version: bool,
    /// The modes in its header (`practice`, `wizard`).
    pub modes: Vec<String>,
    /// Whether its header carries a header hash (which then matched: a header that does not
    /// match is refused before replay). False for a recording older than the header hash,
    /// said in the summary as "no header hash (older format)".
    pub header_hash: bool,
    /// What was seen, as a sentence: "complete: the game ends at turn 812", "ends at turn
    /// 812; last line incomplete"…
    pub summary: String,
    /// Complete: it replays to the end of the game, whole, every command under a
    /// checkpoint, recorded by this version. A divergence is an error instead.
    pub verified: bool,
}

/// How far a recording reaches (see [`VerifyReport::reaches`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reach {
    /// The game ends in it (won, died or quit).
    End,
    /// The save beside it (`NAME.save` for `NAME.replay`) is one of its checkpoints.
    Save,
    /// Neither: it stops before the game's end, and no save beside it is in it.
    Neither,
}

/// What [`verify_report`] needs to know beyond the replay itself.
struct Seen<'a> {
    game: &'a str,
    header: &'a alembic::replay::ReplayHeader,
    torn: bool,
    appended: usize,
    over: bool,
    save_turn: Option<u64>,
}

/// The commands after the last checkpoint of `rec`.
fn appended<C>(rec: &alembic::replay::Recording<C>) -> usize {
    rec.entries
        .iter()
        .rev()
        .take_while(|e| matches!(e, alembic::replay::Entry::Command { .. }))
        .count()
}

/// The turn of the save beside the recording at `path`, when that save loads (with `load`)
/// and is one of the recording's checkpoints.
fn save_in<C>(
    path: &std::path::Path,
    rec: &alembic::replay::Recording<C>,
    load: impl FnOnce(&std::path::Path) -> Option<alembic::Game>,
) -> Option<u64> {
    let save = path.with_extension("save");
    if path.extension().is_none_or(|e| e != "replay") || !save.is_file() {
        return None;
    }
    let g = load(&save)?;
    let want = (g.turn(), g.state_hash());
    rec.entries
        .iter()
        .any(|e| matches!(e, alembic::replay::Entry::Checkpoint { turn, hash } if (*turn, *hash) == want))
        .then_some(want.0)
}

/// Why a recording does not verify.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// Unreadable, not a recording, another game's, or newer.
    #[error("{0}")]
    Read(#[from] alembic_session::record::RecordError),
    /// It does not replay: a divergence (turn and both hashes) or a refused command.
    #[error("{0}")]
    Diverged(alembic::replay::ReplayError),
    /// The game could not be set up: the engine refused its data (a bug).
    #[error("{0}")]
    Game(#[from] alembic::Error),
    /// A game's rules could not be set up (its data or its registries).
    #[error("cannot set the game up: {0}")]
    Setup(#[source] Cause),
}

/// A game the runner can play.
pub trait SimGame {
    /// Its name on the command line.
    fn name(&self) -> &'static str;
    /// Play `turns` commands from `seed` with `policy`.
    fn run(&self, seed: u64, turns: u64, policy: Policy) -> Result<RunReport, SimError>;
    /// [`SimGame::run`], also returning the run's recording (the engine's replay format,
    /// a checkpoint every 100 commands and at the end).
    fn record(
        &self,
        seed: u64,
        turns: u64,
        policy: Policy,
    ) -> Result<(RunReport, String), SimError>;
    /// Replay the recording at `path` from its seed, checking every checkpoint.
    fn verify(&self, path: &std::path::Path) -> Result<VerifyReport, VerifyError>;
}

/// The library counts of the game called `name` ([`Headless::library_counts`]), as one JSON
/// object: what `alembic-sim --library` prints.
///
/// # Errors
/// [`SimError::UnknownGame`]; an engine error building the library (a bug).
pub fn library_json(name: &str) -> Result<serde_json::Value, SimError> {
    let entry = GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| SimError::UnknownGame {
            name: name.to_string(),
            known: games().join(", "),
        })?;
    let counts = (entry.library_counts)()?;
    Ok(serde_json::Value::Object(
        counts
            .into_iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(v)))
            .collect(),
    ))
}

/// Every game the runner knows, in the order of [`GAMES`].
#[must_use]
pub fn registry() -> Vec<&'static dyn SimGame> {
    GAMES.iter().map(|g| g.sim).collect()
}

/// The names of [`GAMES`], in order.
#[must_use]
pub fn games() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// A game the runner plays: its name, one line about it, its runner and its library in
/// numbers. The frontends' table of games (`alembic_games::GAMES`) takes these from here and
/// adds how each game is shown.
#[derive(Clone, Copy)]
pub struct Headless {
    /// The name on command lines (`--game NAME`), in saves and recordings.
    pub name: &'static str,
    /// One line about the game, for `--list`.
    pub about: &'static str,
    /// Its runner.
    pub sim: &'static dyn SimGame,
    /// Its library's prototypes, tiles and the like, counted.
    pub library_counts: fn() -> Result<LibraryCounts, alembic::Error>,
}

impl std::fmt::Debug for Headless {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Headless")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Alchemy, headless.
pub const ALCHEMY: Headless = Headless {
    name: "alchemy",
    about: "fetch the Philosopher's Stone from depth 10 and climb back out",
    sim: &ALCHEMY_SIM,
    library_counts: alchemy_library_counts,
};

/// The Caves, headless.
pub const CAVES: Headless = Headless {
    name: "caves",
    about: "The Caves of Clojure, finished: dig down five cave levels to the way out",
    sim: &CAVES_SIM,
    library_counts: alembic_caves::library_counts,
};

/// The rats, headless.
pub const RATS: Headless = Headless {
    name: "rats",
    about: "rats in a maze: the smallest game on the game contract (games/rats)",
    sim: &RATS_SIM,
    library_counts: rats_library_counts,
};

/// Every game the runner plays, by name.
pub const GAMES: &[Headless] = &[ALCHEMY, CAVES, RATS];

fn alchemy_library_counts() -> Result<LibraryCounts, alembic::Error> {
    let lib = alembic_alchemy::library::base_library()?;
    Ok(alembic_alchemy::library::counts(&lib).pairs())
}

/// The rats' library in numbers.
fn rats_library_counts() -> Result<LibraryCounts, alembic::Error> {
    let rats = alembic_rats::Rats::new()?;
    Ok(vec![
        ("prototypes", rats.library().prototypes().count()),
        ("tiles", rats.library().tiles().count()),
    ])
}

/// The games the runner plays, one a line with what its library holds: what `alembic-sim
/// --list` prints.
///
/// # Errors
/// A game's library could not be built (a bug).
pub fn list_games() -> Result<Vec<String>, alembic::Error> {
    GAMES
        .iter()
        .map(|g| {
            let counts = (g.library_counts)()?;
            let library = counts
                .iter()
                .map(|(what, n)| format!("{n} {what}"))
                .collect::<Vec<_>>()
                .join(", ");
            Ok(format!("{:<8} {}. Library: {library}.", g.name, g.about))
        })
        .collect()
}

/// The game called `name`.
///
/// # Errors
/// [`SimError::UnknownGame`] for a name not in [`GAMES`].
pub fn find(name: &str) -> Result<&'static dyn SimGame, SimError> {
    match GAMES.iter().find(|g| g.name == name) {
        Some(entry) => Ok(entry.sim),
        None => Err(SimError::UnknownGame {
            name: name.to_string(),
            known: games().join(", "),
        }),
    }
}

/// Checkpoints in recordings the runner makes: one every this many commands.
pub const CHECKPOINT_EVERY: usize = 100;

/// Record a run of `game` from `start`: `run` plays it, giving every accepted command (with
/// its turn and the game after it) to the logger it is handed. A checkpoint starts the
/// recording, follows every [`CHECKPOINT_EVERY`] commands and ends it; every
/// [`STATE_EVERY`](alembic_session::record::STATE_EVERY) commands the whole state follows
/// it, as `save` writes it (a state it cannot write is left out).
fn record_run<C: Serialize>(
    game: &str,
    seed: u64,
    start: &alembic::Game,
    save: &dyn Fn(&alembic::Game) -> Option<String>,
    run: impl FnOnce(&mut dyn FnMut(u64, C, &alembic::Game)) -> Result<RunReport, SimError>,
) -> Result<(RunReport, String), SimError> {
    let mut rec: Recording<C> =
        Recording::new(ReplayHeader::new(game, env!("CARGO_PKG_VERSION"), seed));
    rec.push_checkpoint(start.turn(), start.state_hash());
    let mut n = 0usize;
    let report = run(&mut |turn, cmd, g| {
        rec.push_command(turn, cmd);
        n += 1;
        let state = n
            .is_multiple_of(alembic_session::record::STATE_EVERY)
            .then(|| save(g))
            .flatten();
        match state {
            Some(text) => rec.push_state(g.turn(), g.state_hash(), text),
            None if n.is_multiple_of(CHECKPOINT_EVERY) => {
                rec.push_checkpoint(g.turn(), g.state_hash());
            }
            None => {}
        }
    })?;
    let hash = u64::from_str_radix(&report.hash, 16).map_err(SimError::from)?;
    rec.push_checkpoint(report.turns, hash);
    let text = rec.to_text().map_err(SimError::from)?;
    Ok((report, text))
}

fn verify_report<S>(seen: &Seen<'_>, v: &alembic::replay::Verified<S>) -> VerifyReport {
    let this = env!("CARGO_PKG_VERSION");
    let same_version = seen.header.game_version == this;
    let reaches = if seen.over {
        Reach::End
    } else if seen.save_turn.is_some() {
        Reach::Save
    } else {
        Reach::Neither
    };
    let mut summary = match (reaches, seen.save_turn) {
        (Reach::End, _) => format!("the game ends at turn {}", v.final_turn),
        (Reach::Save, Some(t)) if t == v.final_turn => {
            format!("reaches its save and ends there, at turn {t}")
        }
        (_, Some(t)) => format!(
            "reaches its save (turn {t}) and goes on to turn {}",
            v.final_turn
        ),
        _ => format!(
            "ends at turn {}, before the game's end and without its save",
            v.final_turn
        ),
    };
    if seen.torn {
        summary += "; last line incomplete";
    }
    if !seen.header.hash_checked {
        summary += "; no header hash (older format)";
    }
    if seen.appended > 0 {
        summary += &format!(
            "; {} command{} after the last checkpoint",
            seen.appended,
            if seen.appended == 1 { "" } else { "s" }
        );
    }
    if !same_version {
        summary += &format!(
            "; recorded by version {}, this is {this}",
            seen.header.game_version
        );
    }
    let verified = reaches == Reach::End && !seen.torn && seen.appended == 0 && same_version;
    let summary = if verified {
        format!("complete: {summary}")
    } else {
        format!("not complete: {summary}")
    };
    VerifyReport {
        game: seen.game.to_owned(),
        seed: seen.header.seed,
        turns: v.final_turn,
        commands: v.commands,
        checkpoints: v.checkpoints,
        final_hash: format!("{:016x}", v.final_hash),
        reaches,
        torn: seen.torn,
        appended: seen.appended,
        game_version: seen.header.game_version.clone(),
        same_version,
        modes: seen.header.modes.iter().cloned().collect(),
        header_hash: seen.header.hash_checked,
        summary,
        verified,
    }
}

/// Where a run hands each step it played (the turn it was played on, the step, the game after).
type StepLog<'a, R> = dyn FnMut(u64, Step<<R as Ruleset>::Command>, &alembic::Game) + 'a;

/// The headless runner of any [`Ruleset`]: its bot ([`Ruleset::bot`]) or random keys, its
/// recordings written and verified in the session's format ([`Step`]).
pub struct RulesetSim<R: Ruleset> {
    make: fn() -> Result<R, Cause>,
}

impl<R: Ruleset> RulesetSim<R> {
    /// The runner of the rules `make` builds.
    #[must_use]
    pub const fn new(make: fn() -> Result<R, Cause>) -> Self {
        RulesetSim { make }
    }

    /// Play `turns` game turns from `seed` with the game's bot for `policy` (random keys
    /// when it has none), checking the game's invariants at the start, every
    /// `check_every` turns (0: never) and at the end. A refused command takes no time: the
    /// bot is told and tries another, and at most four commands a turn are tried.
    ///
    /// # Errors
    /// [`SimError::Engine`] (a bug in the game) and [`SimError::Invariant`].
    pub fn run_checked(
        &self,
        seed: u64,
        turns: u64,
        policy: Policy,
        check_every: u64,
    ) -> Result<RunReport, SimError> {
        self.play(seed, turns, policy, check_every, &mut |_, _, _| {})
    }

    fn play(
        &self,
        seed: u64,
        turns: u64,
        policy: Policy,
        check_every: u64,
        log: &mut StepLog<'_, R>,
    ) -> Result<RunReport, SimError> {
        let rules = (self.make)().map_err(SimError::Setup)?;
        let mut g = rules.new_game(seed)?;
        check(&g, seed)?;
        let mut bot = rules
            .bot(seed, policy)
            .unwrap_or_else(|| Box::new(KeyBot::new(&rules, seed)));
        let mut attempts = 0u64;
        while g.turn() < turns
            && attempts < turns.saturating_mul(4)
            && rules.status(&g) == Status::Playing
        {
            attempts += 1;
            let Some(cmd) = bot.choose(&g) else { break };
            let turn = g.turn();
            match rules.apply(&g, &cmd) {
                Ok(o) => {
                    g = o.game;
                    log(turn, Step::Play(cmd), &g);
                    if check_every > 0 && g.turn().is_multiple_of(check_every) {
                        check(&g, seed)?;
                    }
                }
                Err(Rejected::Refused(_)) => bot.refused(),
                Err(Rejected::Engine(e)) => return Err(e.into()),
            }
        }
        check(&g, seed)?;
        let (outcome, cause) = match rules.status(&g) {
            Status::Playing => ("playing".to_owned(), String::new()),
            Status::Over(e) => (if e.won { "won" } else { "died" }.to_owned(), e.cause),
        };
        let summary = rules.summary(&g);
        Ok(RunReport {
            seed,
            turns: g.turn(),
            deepest: summary.deepest,
            depth: (summary.depth > 0).then_some(summary.depth),
            stone: None,
            outcome,
            cause,
            kills: summary.kills,
            hash: format!("{:016x}", g.state_hash()),
        })
    }
}

/// The game's invariants, or the run's error naming the seed and turn.
fn check(g: &alembic::Game, seed: u64) -> Result<(), SimError> {
    g.check_invariants().map_err(|source| SimError::Invariant {
        seed,
        turn: g.turn(),
        source,
    })
}

impl<R: Ruleset> SimGame for RulesetSim<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn run(&self, seed: u64, turns: u64, policy: Policy) -> Result<RunReport, SimError> {
        self.play(seed, turns, policy, 0, &mut |_, _, _| {})
    }

    fn record(
        &self,
        seed: u64,
        turns: u64,
        policy: Policy,
    ) -> Result<(RunReport, String), SimError> {
        let rules = (self.make)().map_err(SimError::Setup)?;
        let start = rules.new_game(seed)?;
        let save = |g: &alembic::Game| rules.save_text(g, seed, &Modes::none()).ok();
        record_run(R::NAME, seed, &start, &save, |log| {
            self.play(seed, turns, policy, 0, &mut |t, c, g| log(t, c, g))
        })
    }

    fn verify(&self, path: &std::path::Path) -> Result<VerifyReport, VerifyError> {
        let rules = (self.make)().map_err(VerifyError::Setup)?;
        let rec = alembic_session::record::read::<Step<R::Command>>(path, R::NAME)?;
        let modes = Modes::parse(&rec.header.modes).map_err(alembic::Error::from)?;
        let start = rules.new_game_in_modes(rec.header.seed, &modes)?;
        let v = rec
            .verify(
                start,
                |g, c| apply_step(&rules, g, c).map(|(g, _)| g),
                alembic::Game::state_hash,
                alembic::Game::turn,
            )
            .map_err(VerifyError::Diverged)?;
        let over = rules.status(&v.final_state) != Status::Playing;
        let save_turn = save_in(path, &rec, |p| {
            alembic_session::run::read_save(&rules, p)
                .ok()
                .map(|s| s.game)
        });
        let seen = Seen {
            game: R::NAME,
            header: &rec.header,
            torn: rec.torn,
            appended: appended(&rec),
            over,
            save_turn,
        };
        Ok(verify_report(&seen, &v))
    }
}

/// Alchemy's runner: `random` is its fuzzer ([`random_command`]), `explore` the bot that
/// plays to find the Philosopher's Stone.
pub static ALCHEMY_SIM: RulesetSim<Alchemy> = RulesetSim::new(Alchemy::new);

pub use alembic_alchemy::{Alchemy, random_command};

/// The rats' runner.
pub static RATS_SIM: RulesetSim<alembic_rats::Rats> =
    RulesetSim::new(|| alembic_rats::Rats::new().map_err(Cause::from));

/// The Caves' runner: `random` is their fuzzing wanderer, `explore` the bot that heads down
/// the stairs to the way out.
pub static CAVES_SIM: RulesetSim<alembic_caves::Caves> = RulesetSim::new(alembic_caves::Caves::new);

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
