//! Watching a recorded game, for every game: [`rebuild`] turns a recording into every state
//! it passed through (checking each checkpoint on the way), and [`Playback`] is the
//! viewer's controls over a recording — play and pause, step back and forth, speed, jumps —
//! with the status bar that says "REPLAY turn N/M".
//!
//! The viewer is bounded: [`Playback::open`] reads and parses the file, refuses more than
//! [`MAX_VIEW_COMMANDS`] commands before any work, checks the checkpoints before the first
//! command, and builds nothing else. States are made as the viewer reaches them (checking
//! each command's turn and each checkpoint on the way: a divergence stops the viewer there,
//! said in the bar) and kept in an engine [`History`] under [`VIEW_BUDGET`]: the newest
//! 2,000 states whole, then one in every 100; the ones between are rebuilt from the commands
//! when the viewer steps back to them. Memory is so bounded by 2,000 + commands / 100 states
//! (each sharing structure with its neighbours), whatever the recording's length.
//!
//! **Seeking.** A recording holds a whole state every
//! [`STATE_EVERY`](crate::record::STATE_EVERY) commands (the game's save text after a
//! checkpoint). Given a way to read them ([`Playback::with_states`]), a jump goes to the
//! last such state before its target and replays at most that many commands from it:
//! `End` on a 100,000-command game replays under 10,000, where it replayed them all. A
//! state is used only when, read back, its turn and state hash are the checkpoint's before
//! it; the commands before it are then not replayed, so a divergence there is found by
//! `--verify` (or by stepping through), not by a jump over it.
//!
//! **A live game's past.** A process that writes a recording can keep whole states at its
//! checkpoints ([`KeptStates`]); a look into the game's past ([`Playback::open_kept`])
//! seeks from them, and keeps its parse there too, so the next look parses only the lines
//! written since.
//!
//! A game's replay screen owns a [`Playback`], draws its own play view of
//! [`Playback::current`], and draws [`Playback::draw_bar`] over its top row.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use alembic::history::{Budget, History};
use alembic::replay::{Entry, MAX_REPLAY_ENTRIES, Recording, ReplayError, ReplayHeader};
use alembic::{Game, Rgb};
use alembic_ui::{Cell, Frame, Input, Key, Rect, fill, put_clipped, wheel_key};
use serde::de::DeserializeOwned;

use crate::gamedata::DataIdentity;
use crate::record::{self, RecordError};

/// Why a recording cannot be watched.
#[derive(Debug, thiserror::Error)]
pub enum ReplayOpenError {
    /// Unreadable, not a recording, another game's, or from a newer version.
    #[error(transparent)]
    Read(#[from] RecordError),
    /// The game could not be rebuilt (a bug).
    #[error("cannot rebuild the game: {0}")]
    Engine(alembic::Error),
    /// The recording was played on other data (other mods, changed data files): the
    /// sentence says what differs.
    #[error(transparent)]
    OtherData(crate::gamedata::OtherData),
    /// A command the game refuses: the recording is not of this game as this version plays it.
    #[error(
        "the recording does not replay: the command on line {line} (turn {turn}) is refused: {reason}"
    )]
    Refused {
        /// The line in the file.
        line: usize,
        /// The turn it was given on.
        turn: u64,
        /// Why the game refused it.
        reason: String,
    },
    /// Another reason the recording does not replay (a line given on the wrong turn).
    #[error("the recording does not replay: {0}")]
    Replay(ReplayError),
    /// More commands than the viewer takes ([`MAX_VIEW_COMMANDS`]), refused before any work.
    #[error("the recording holds {commands} commands; the viewer takes at most {max}")]
    TooLong {
        /// Commands in the file.
        commands: usize,
        /// [`MAX_VIEW_COMMANDS`].
        max: usize,
    },
    /// A checkpoint that does not match.
    #[error(
        "the recording diverges at turn {turn} (line {line}): it says state {expected:016x}, the game is in state {actual:016x}"
    )]
    Diverged {
        /// The line in the file.
        line: usize,
        /// The turn of the checkpoint.
        turn: u64,
        /// The hash the file holds.
        expected: u64,
        /// The hash the replayed game has.
        actual: u64,
    },
}

/// Every state of the recording of `game_name` in `path`, first to last, checked against
/// every checkpoint: `start` makes the first state from the header (seed and modes), `step`
/// applies one command. Θ(commands) steps; the states share their structure, so keeping
/// them all costs only what each command changed.
///
/// # Errors
/// [`ReplayOpenError`].
pub fn rebuild<C: DeserializeOwned, E: fmt::Display>(
    path: &Path,
    game_name: &'static str,
    data: &DataIdentity,
    start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
    mut step: impl FnMut(&Game, &C) -> Result<Game, E>,
) -> Result<Vec<Game>, ReplayOpenError> {
    let rec = record::read::<C>(path, game_name)?;
    let first = {
        // Played on other data, it would be another game: refuse, saying how.
        data.check_save(&DataIdentity::from_modes(&rec.header.modes))
            .map_err(ReplayOpenError::OtherData)?;
        start(&rec.header).map_err(ReplayOpenError::Engine)?
    };
    let mut states = vec![first.clone()];
    // The engine's own verification, keeping every state it steps through.
    let keep = |game: &Game, command: &C| {
        let next = step(game, command)?;
        states.push(next.clone());
        Ok::<Game, E>(next)
    };
    match rec.verify(first, keep, Game::state_hash, Game::turn) {
        Ok(_) => Ok(states),
        Err(ReplayError::Rejected { line, turn, reason }) => {
            Err(ReplayOpenError::Refused { line, turn, reason })
        }
        Err(ReplayError::Diverged {
            line,
            turn,
            expected,
            actual,
        }) => Err(ReplayOpenError::Diverged {
            line,
            turn,
            expected,
            actual,
        }),
        Err(other) => Err(ReplayOpenError::Replay(other)),
    }
}

/// Most commands a recording may hold to be watched: a million (about 40 times a long game).
pub const MAX_VIEW_COMMANDS: usize = 1_000_000;

/// How many states the viewer keeps whole (see the module docs).
pub const VIEW_BUDGET: Budget = Budget::new(2_000, 100);

/// Applies command `i` of the recording to a state, checking its turn and the checkpoints
/// after it; the error is a sentence.
/// Makes the state after command `i` from the state before it, with what the step said.
type Stepper = Box<dyn FnMut(&Game, usize) -> Result<(Game, Vec<String>), String>>;

/// Reads a state line's text back into a game (see [`Playback::with_states`]).
type Restorer = Box<dyn Fn(&str) -> Option<Game>>;

/// A whole state to seek from: the state's index (commands before it), and the turn and
/// hash of the checkpoint that vouches for it, with the state itself.
type Seed = (usize, u64, u64, Whole);

/// A whole state a viewer can seek from.
enum Whole {
    /// In the recording: the game's save text of it, read back by [`Playback::with_states`]
    /// (shared with the parse a live game keeps, [`Playback::open_kept`]).
    Text(std::sync::Arc<str>),
    /// Kept in memory by the process that writes the recording ([`KeptStates`]).
    Game(Box<Game>),
}

/// Most whole states a [`KeptStates`] holds: past it, every second one of the older half
/// is dropped, so the newest states stay one checkpoint apart and older ones thin out.
pub const MAX_KEPT_STATES: usize = 256;

/// Whole states of a game in play, kept in memory by the process that writes its recording
/// (a web server's live game), at checkpoints of that recording: a viewer of the recording
/// opened with them ([`Playback::with_kept`]) seeks from the nearest of them at or before where it goes,
/// so a step into the game's past replays at most the commands from that checkpoint
/// ([`CHECKPOINT_EVERY`](crate::record::CHECKPOINT_EVERY) apart for the newest
/// [`MAX_KEPT_STATES`] / 2) instead of the game from its start. A state is used only where
/// the recording holds a checkpoint of its turn and state hash. The states share their
/// structure with the game and each other, so each costs what changed since the last.
/// It also counts the commands such viewers replayed ([`KeptStates::steps`]).
#[derive(Debug, Default)]
pub struct KeptStates {
    states: std::sync::Mutex<Vec<(u64, u64, Game)>>,
    steps: std::sync::atomic::AtomicU64,
    /// The recording as the last look parsed it ([`Playback::open_kept`]).
    parsed: ParseCache,
    parsed_bytes: std::sync::atomic::AtomicU64,
}

impl KeptStates {
    /// Keep `game`, whose turn and state hash a checkpoint of the recording names.
    pub fn keep(&self, game: &Game) {
        self.keep_at(game.state_hash(), game);
    }

    /// Keep `game`, whose state hash the caller already knows to be `hash` (a recorder's
    /// checkpoint of this very version: [`crate::run::Run::checkpointed`]), at a checkpoint
    /// of the recording. A wrong `hash` keeps a state no checkpoint names: viewers never
    /// use it. Θ(1) but for thinning the kept states.
    pub fn keep_at(&self, hash: u64, game: &Game) {
        let key = (game.turn(), hash);
        let mut v = self
            .states
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if v.last().is_some_and(|(t, h, _)| (*t, *h) == key) {
            return;
        }
        v.push((key.0, key.1, game.clone()));
        if v.len() > MAX_KEPT_STATES {
            let half = v.len() / 2;
            let mut i = 0;
            v.retain(|_| {
                i += 1;
                i > half || i % 2 == 0
            });
        }
    }

    /// How many states are kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.states
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Whether none is.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Commands replayed so far by the viewers opened with these states.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Bytes of the recording parsed so far by the looks opened with these states
    /// ([`Playback::open_kept`]): each line once, however many looks.
    #[must_use]
    pub fn parsed_bytes(&self) -> u64 {
        self.parsed_bytes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The states by checkpoint (turn, state hash).
    fn snapshot(&self) -> std::collections::HashMap<(u64, u64), Game> {
        self.states
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(t, h, g)| ((*t, *h), g.clone()))
            .collect()
    }
}

/// The parse of a live game's recording that looks into its past share
/// ([`Playback::open_kept`]): a `Parsed<C>` of the game's command type.
#[derive(Default)]
struct ParseCache(std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>);

impl fmt::Debug for ParseCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ParseCache")
    }
}

/// Items per chunk of a [`Chunks`].
const CHUNK: usize = 1024;

/// A list kept in shared chunks of at most [`CHUNK`] items: a clone costs Θ(chunks), and
/// a push goes into the last chunk when nothing else holds it (else it starts a new one),
/// so the items never need to be cloned.
struct Chunks<T> {
    chunks: Vec<std::sync::Arc<Vec<T>>>,
    /// The index of each chunk's first item.
    starts: Vec<usize>,
    len: usize,
}

impl<T> Default for Chunks<T> {
    fn default() -> Self {
        Chunks {
            chunks: Vec::new(),
            starts: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Clone for Chunks<T> {
    fn clone(&self) -> Self {
        Chunks {
            chunks: self.chunks.clone(),
            starts: self.starts.clone(),
            len: self.len,
        }
    }
}

impl<T> Chunks<T> {
    fn push(&mut self, item: T) {
        if let Some(last) = self.chunks.last_mut()
            && last.len() < CHUNK
            && let Some(items) = std::sync::Arc::get_mut(last)
        {
            items.push(item);
        } else {
            self.starts.push(self.len);
            self.chunks.push(std::sync::Arc::new(vec![item]));
        }
        self.len += 1;
    }

    /// Item `i`. Θ(log chunks).
    fn get(&self, i: usize) -> Option<&T> {
        let k = self.starts.partition_point(|&s| s <= i).checked_sub(1)?;
        self.chunks.get(k)?.get(i - self.starts.get(k)?)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A checkpoint written after command `at - 1`: the commands before it, its line in the
/// file, its turn and state hash.
type AtCheck = (usize, usize, u64, u64);

/// What parsing a recording made, for a [`Playback`]: its first state, its commands, the
/// whole states it holds and its checkpoints. A live game keeps one
/// ([`Playback::open_kept`]) and adds the lines written since to it.
struct Parsed<C> {
    /// The header line as read, its newline included: a file that begins otherwise is
    /// another recording.
    header: Vec<u8>,
    /// The bytes of the file parsed (the end of its last whole line).
    bytes: u64,
    /// The entries parsed (the lines after the header).
    entries: usize,
    /// The state before the first command, made from the header.
    first: Game,
    /// Each command with the turn it was given on.
    cmds: Chunks<(u64, C)>,
    /// The whole states (save texts) past the start: the commands before each, and the
    /// turn and hash of the checkpoint that vouches for it.
    seeds: Vec<(usize, u64, u64, std::sync::Arc<str>)>,
    /// The checkpoints past the first command, in order.
    checks: Vec<AtCheck>,
    /// The last entry's checkpoint, if it was one.
    last_check: Option<(u64, u64)>,
    /// The last entry's turn.
    last_turn: u64,
}

impl<C> Clone for Parsed<C> {
    fn clone(&self) -> Self {
        Parsed {
            header: self.header.clone(),
            bytes: self.bytes,
            entries: self.entries,
            first: self.first.clone(),
            cmds: self.cmds.clone(),
            seeds: self.seeds.clone(),
            checks: self.checks.clone(),
            last_check: self.last_check,
            last_turn: self.last_turn,
        }
    }
}

impl<C: DeserializeOwned> Parsed<C> {
    /// Read and parse the recording of `game_name` at `path` (bounded), and make its first
    /// state with `start`; with `whole_lines`, a last line without its newline (still
    /// being written) is left out. Θ(file).
    fn read(
        path: &Path,
        game_name: &'static str,
        data: &DataIdentity,
        start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
        whole_lines: bool,
    ) -> Result<Self, ReplayOpenError> {
        let bytes = crate::storage::read_bounded(path, record::MAX_RECORDING_BYTES)
            .map_err(RecordError::from)?;
        let end = if whole_lines {
            bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
        } else {
            bytes.len()
        };
        let body = bytes.get(..end).unwrap_or_default();
        let rec = record::parse::<C>(path, body, game_name)?;
        // Played on other data, it would be another game: refuse, saying how.
        data.check_save(&DataIdentity::from_modes(&rec.header.modes))
            .map_err(ReplayOpenError::OtherData)?;
        let first = start(&rec.header).map_err(ReplayOpenError::Engine)?;
        let header_len = body.iter().position(|&b| b == b'\n').map_or(end, |i| i + 1);
        let mut parsed = Parsed {
            header: body.get(..header_len).unwrap_or_default().to_vec(),
            bytes: end as u64,
            entries: 0,
            first,
            cmds: Chunks::default(),
            seeds: Vec::new(),
            checks: Vec::new(),
            last_check: None,
            last_turn: 0,
        };
        parsed.absorb(rec.entries)?;
        Ok(parsed)
    }

    /// This parse with the whole lines written to `path` since it, counted in `parsed`;
    /// `None` when the file no longer continues it (shorter, another header, a line that
    /// does not parse or goes back in turns, over a limit): it is then read again whole.
    /// Θ(new lines).
    fn continued(
        self: Box<Self>,
        path: &Path,
        parsed: &std::sync::atomic::AtomicU64,
    ) -> Option<Self> {
        use std::io::{Read, Seek, SeekFrom};
        let mut p = *self;
        let mut file = std::fs::File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        if len < p.bytes || len > record::MAX_RECORDING_BYTES {
            return None;
        }
        let mut head = vec![0; p.header.len()];
        file.read_exact(&mut head).ok()?;
        if head != p.header {
            return None;
        }
        file.seek(SeekFrom::Start(p.bytes)).ok()?;
        let mut tail = Vec::new();
        file.take(len - p.bytes).read_to_end(&mut tail).ok()?;
        let end = tail.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if end == 0 {
            return Some(p);
        }
        // The header again, so the new lines parse by the same rules as a whole file.
        let mut text = p.header.clone();
        text.extend_from_slice(tail.get(..end)?);
        let rec = Recording::<C>::parse_bytes(&text).ok()?;
        let goes_back = rec.entries.first().is_some_and(|e| e.turn() < p.last_turn);
        if rec.torn || goes_back || p.entries + rec.entries.len() > MAX_REPLAY_ENTRIES {
            return None;
        }
        parsed.fetch_add(end as u64, std::sync::atomic::Ordering::Relaxed);
        p.absorb(rec.entries).ok()?;
        p.bytes += end as u64;
        Some(p)
    }

    /// Add the entries after those parsed. Θ(entries).
    fn absorb(&mut self, entries: Vec<Entry<C>>) -> Result<(), ReplayOpenError> {
        for entry in entries {
            self.entries += 1;
            // The header is line 1.
            let line = self.entries + 1;
            let check = entry.checkpoint();
            self.last_turn = entry.turn();
            match entry {
                Entry::Command { turn, command } => self.cmds.push((turn, command)),
                // A state vouched for by the checkpoint just before it, past the start.
                Entry::State { turn, state } => {
                    if let Some((t, h)) = self.last_check.filter(|(t, _)| *t == turn)
                        && !self.cmds.is_empty()
                    {
                        self.seeds.push((self.cmds.len(), t, h, state.into()));
                    }
                }
                Entry::Checkpoint { turn, hash } if self.cmds.is_empty() => {
                    let first = (self.first.turn(), self.first.state_hash());
                    if first != (turn, hash) {
                        return Err(ReplayOpenError::Diverged {
                            line,
                            turn,
                            expected: hash,
                            actual: first.1,
                        });
                    }
                }
                Entry::Checkpoint { turn, hash } => {
                    self.checks.push((self.cmds.len(), line, turn, hash));
                }
                _ => {}
            }
            self.last_check = check;
        }
        Ok(())
    }
}

/// Playback speeds, slowest first: the wait between two commands.
const SPEEDS_MS: [u64; 6] = [800, 400, 200, 100, 40, 10];

/// What a key did to a [`Playback`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Another state is shown now: draw [`Playback::current`].
    Moved,
    /// Nothing to redraw but the bar (paused, speed changed, an unknown key).
    Stayed,
    /// The viewer wants to close.
    Quit,
}

/// The replay viewer's controls over a recorded game (see the module docs).
pub struct Playback {
    /// The states made so far from state `base`, thinned under [`VIEW_BUDGET`]; the
    /// command of each is its index in the recording.
    history: History<Game, usize>,
    /// The index in the recording of the history's first state.
    base: usize,
    /// The recording's first state (state 0).
    first: Game,
    /// The recording's whole states, by index, and how to read them (none: every jump
    /// replays from the states made).
    seeds: Vec<Seed>,
    /// Each checkpoint past the start: the commands before it, its turn and state hash
    /// (where a state kept elsewhere may seed, [`Playback::with_kept`]).
    checkpoints: Vec<(usize, u64, u64)>,
    /// The states kept by the process writing the recording, which count the commands
    /// this playback replays ([`KeptStates::steps`]).
    kept: Option<std::sync::Arc<KeptStates>>,
    restore: Option<Restorer>,
    step: Stepper,
    /// Commands in the recording.
    total: usize,
    /// The turn of the recording's last line.
    last_turn: u64,
    /// Where the recording stopped replaying, and why.
    stop: Option<(usize, String)>,
    /// What the step into each state said, by the state's index (at most [`SAID_KEEP`]
    /// states'; then it starts afresh). Filled by a stepper of [`Playback::open_saying`].
    said: std::collections::HashMap<usize, Vec<String>>,
    playing: bool,
    speed: usize,
}

impl fmt::Debug for Playback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Playback")
            .field("at", &self.position())
            .field("made", &self.history.len())
            .field("kept", &self.history.kept_count())
            .field("total", &self.total)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

impl Playback {
    /// Controls over `states` already made (from [`rebuild`]), paused at the first.
    #[must_use]
    pub fn new(states: Vec<Game>) -> Self {
        let mut it = states.into_iter();
        let first = it.next().unwrap_or_else(|| Game::new(0));
        let mut history = History::new(first);
        for (i, s) in it.enumerate() {
            history.push(i, s);
        }
        let total = history.len();
        let last_turn = history.current().turn();
        let _ = history.jump_to(0);
        Playback {
            first: history.current().clone(),
            history,
            base: 0,
            seeds: Vec::new(),
            checkpoints: Vec::new(),
            kept: None,
            restore: None,
            step: Box::new(|_, _| Err("every state is already made".to_owned())),
            total,
            last_turn,
            stop: None,
            said: std::collections::HashMap::new(),
            playing: false,
            speed: 2,
        }
    }

    /// Open the recording of `game_name` at `path` for watching, paused at its start: read
    /// (bounded), parse, refuse more than [`MAX_VIEW_COMMANDS`] commands, make the first
    /// state with `start` and check the checkpoints before the first command. Nothing else
    /// is built: `step` applies each command when the viewer reaches it. Θ(file) to parse,
    /// under a second for 100,000 commands.
    ///
    /// # Errors
    /// [`ReplayOpenError`]: unreadable, another game's, too long, or its start diverges
    /// (edited seed or modes).
    pub fn open<C: DeserializeOwned + 'static, E: fmt::Display>(
        path: &Path,
        game_name: &'static str,
        data: &DataIdentity,
        start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
        mut step: impl FnMut(&Game, &C) -> Result<Game, E> + 'static,
    ) -> Result<Self, ReplayOpenError> {
        Self::open_saying(path, game_name, data, start, move |g: &Game, c: &C| {
            step(g, c).map(|g| (g, Vec::new()))
        })
    }

    /// [`Playback::open`], with a `step` that also says what happened (the game's English
    /// of its events): the viewer keeps those lines by the state's index
    /// ([`Playback::said`]), so no state is hashed to find them. Θ(1) a step on top of
    /// `step` itself.
    ///
    /// # Errors
    /// As [`Playback::open`].
    pub fn open_saying<C: DeserializeOwned + 'static, E: fmt::Display>(
        path: &Path,
        game_name: &'static str,
        data: &DataIdentity,
        start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
        step: impl FnMut(&Game, &C) -> Result<(Game, Vec<String>), E> + 'static,
    ) -> Result<Self, ReplayOpenError> {
        let parsed = Parsed::read(path, game_name, data, start, false)?;
        Self::from_parsed(parsed, step)
    }

    /// [`Playback::open_saying`] of the recording of a game in play, with the whole states
    /// the process writing it keeps ([`Playback::with_kept`] applied), and its parse kept
    /// there too: the next look parses only the lines written since this one (and the
    /// recording's start is not made again). A line still being written (no newline yet)
    /// is left for the next look. Θ(lines since the last look) to parse, plus Θ(commands /
    /// 1,024 + checkpoints) to share what was parsed before; nothing is replayed until the
    /// viewer moves, and then at most the commands since the nearest kept state.
    ///
    /// # Errors
    /// As [`Playback::open`] (a recording that no longer continues the one parsed before,
    /// such as a file rewritten in place, is read again whole).
    pub fn open_kept<C: DeserializeOwned + Send + Sync + 'static, E: fmt::Display>(
        path: &Path,
        game_name: &'static str,
        data: &DataIdentity,
        kept: &std::sync::Arc<KeptStates>,
        start: impl FnOnce(&ReplayHeader) -> Result<Game, alembic::Error>,
        step: impl FnMut(&Game, &C) -> Result<(Game, Vec<String>), E> + 'static,
    ) -> Result<Self, ReplayOpenError> {
        let parsed = {
            let mut cache = kept
                .parsed
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let before = cache
                .take()
                .and_then(|p| p.downcast::<Parsed<C>>().ok())
                .and_then(|p| p.continued(path, &kept.parsed_bytes));
            let parsed = match before {
                Some(p) => p,
                None => {
                    let p = Parsed::read(path, game_name, data, start, true)?;
                    kept.parsed_bytes
                        .fetch_add(p.bytes, std::sync::atomic::Ordering::Relaxed);
                    p
                }
            };
            *cache = Some(Box::new(parsed.clone()));
            parsed
        };
        Ok(Self::from_parsed(parsed, step)?.with_kept(kept))
    }

    /// The controls over what a parse made, stepping with `step`.
    fn from_parsed<C: 'static, E: fmt::Display>(
        parsed: Parsed<C>,
        mut step: impl FnMut(&Game, &C) -> Result<(Game, Vec<String>), E> + 'static,
    ) -> Result<Self, ReplayOpenError> {
        let commands = parsed.cmds.len();
        if commands > MAX_VIEW_COMMANDS {
            return Err(ReplayOpenError::TooLong {
                commands,
                max: MAX_VIEW_COMMANDS,
            });
        }
        let Parsed {
            first,
            cmds,
            seeds,
            checks,
            last_turn,
            ..
        } = parsed;
        let checkpoints = checks.iter().map(|&(at, _, t, h)| (at, t, h)).collect();
        let seeds = seeds
            .into_iter()
            .map(|(at, t, h, text)| (at, t, h, Whole::Text(text)))
            .collect();
        let stepper: Stepper = Box::new(move |game: &Game, i: usize| {
            let Some((turn, command)) = cmds.get(i) else {
                return Err("the recording ends here".to_owned());
            };
            if game.turn() != *turn {
                return Err(format!(
                    "the command of turn {turn} comes at turn {}",
                    game.turn()
                ));
            }
            let (next, said) = step(game, command)
                .map_err(|e| format!("the command of turn {turn} is refused: {e}"))?;
            // The checkpoints written after command `i`, before the next one.
            let from = checks.partition_point(|c| c.0 <= i);
            for &(_, line, t, h) in checks[from..].iter().take_while(|c| c.0 == i + 1) {
                if (next.turn(), next.state_hash()) != (t, h) {
                    return Err(format!(
                        "the recording diverges at turn {t} (line {line}): it says state {h:016x}, the game is in state {:016x}",
                        next.state_hash()
                    ));
                }
            }
            Ok((next, said))
        });
        Ok(Playback {
            history: History::with_budget(first.clone(), VIEW_BUDGET),
            base: 0,
            first,
            seeds,
            checkpoints,
            kept: None,
            restore: None,
            step: stepper,
            total: commands,
            last_turn,
            stop: None,
            said: std::collections::HashMap::new(),
            playing: false,
            speed: 2,
        })
    }

    /// This playback, seeking from the recording's whole states
    /// ([`STATE_EVERY`](crate::record::STATE_EVERY) commands apart), read back with
    /// `restore` (the game's save text to a game; the game's `load_text`). Without it, a
    /// jump replays every command from the states already made.
    #[must_use]
    pub fn with_states<E>(mut self, restore: impl Fn(&str) -> Result<Game, E> + 'static) -> Self {
        // Why a state did not read back does not matter here: the one before is tried.
        self.restore = Some(Box::new(move |text| restore(text).ok()));
        self
    }

    /// This playback, seeking also from the whole states `kept` by the process that writes
    /// the recording (a live game's, [`KeptStates`]) where the recording has a checkpoint
    /// of the same turn and state hash; the commands it replays are counted there.
    #[must_use]
    pub fn with_kept(mut self, kept: &std::sync::Arc<KeptStates>) -> Self {
        let mut by = kept.snapshot();
        for &(at, turn, hash) in &self.checkpoints {
            if let Some(g) = by.remove(&(turn, hash)) {
                self.seeds.push((at, turn, hash, Whole::Game(Box::new(g))));
            }
        }
        // Seeking looks for the last seed at or before where it goes.
        self.seeds.sort_by_key(|seed| seed.0);
        self.kept = Some(std::sync::Arc::clone(kept));
        self
    }

    /// How many whole states the recording holds to seek from.
    #[must_use]
    pub fn seek_states(&self) -> usize {
        self.seeds.len()
    }

    /// The state shown.
    #[must_use]
    pub fn current(&self) -> Option<&Game> {
        Some(self.history.current())
    }

    /// The index of the state shown (0 = before the first command).
    #[must_use]
    pub fn position(&self) -> usize {
        self.base + self.history.position()
    }

    /// How many commands the recording holds.
    #[must_use]
    pub fn commands(&self) -> usize {
        self.total
    }

    /// How many states are kept whole now (bounded by [`VIEW_BUDGET`]).
    #[must_use]
    pub fn kept_states(&self) -> usize {
        self.history.kept_count()
    }

    /// What the step into the state shown said (empty at the start, for a playback opened
    /// with [`Playback::open`], and for a state whose lines were not kept).
    #[must_use]
    pub fn said(&self) -> &[String] {
        self.said
            .get(&self.position())
            .map_or(&[][..], Vec::as_slice)
    }

    /// Where the recording stopped replaying (the move it could not make) and why.
    #[must_use]
    pub fn stopped(&self) -> Option<(usize, &str)> {
        self.stop.as_ref().map(|(i, why)| (*i, why.as_str()))
    }

    /// Whether it is playing (not paused).
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// The furthest move the viewer can reach.
    fn limit(&self) -> usize {
        self.stop.as_ref().map_or(self.total, |(i, _)| *i)
    }

    /// Start the history again from the best state to reach `to`: the last whole state at
    /// or before it that reads back as its checkpoint says, or the first. Only when that is
    /// nearer than what is made: `to` before the history's first state, or a whole state
    /// past the last state made.
    fn reseed(&mut self, to: usize) {
        if self.restore.is_none() && self.seeds.is_empty() {
            return;
        }
        let made = self.base + self.history.len();
        loop {
            let best = self
                .seeds
                .iter()
                .enumerate()
                .rev()
                .find(|(_, seed)| seed.0 <= to);
            let at = best.map_or(0, |(_, seed)| seed.0);
            if to >= self.base && at <= made {
                return;
            }
            let game = match best {
                None => self.first.clone(),
                Some((_, (_, _, _, Whole::Game(g)))) => (**g).clone(),
                Some((k, (_, turn, hash, Whole::Text(text)))) => {
                    match self.restore.as_ref().and_then(|restore| restore(text)) {
                        Some(g) if (g.turn(), g.state_hash()) == (*turn, *hash) => g,
                        // Not the state its checkpoint says: never used; try the one before.
                        _ => {
                            self.seeds.remove(k);
                            continue;
                        }
                    }
                }
            };
            self.history = History::with_budget(game, VIEW_BUDGET);
            self.base = at;
            return;
        }
    }

    fn go(&mut self, to: usize) -> Control {
        let from = self.position();
        let to = to.min(self.limit());
        self.reseed(to);
        let base = self.base;
        let step = &mut self.step;
        let said = &mut self.said;
        let kept = self.kept.as_deref();
        // The state after command `i` is state `i + 1`: keep what its step said.
        let mut keep = |i: usize, lines: Vec<String>| {
            if said.len() >= SAID_KEEP {
                said.clear();
            }
            if !lines.is_empty() {
                said.insert(i + 1, lines);
            }
        };
        let mut made = |g: &Game, i: &usize| {
            if let Some(k) = kept {
                k.steps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            step(g, *i).map(|(next, lines)| {
                keep(*i, lines);
                next
            })
        };
        // Make the states not made yet, from the last one made (indices in the history
        // count from `base`; the commands are the recording's).
        let to = to - base;
        if to > self.history.len() {
            let end = self.history.len();
            if let Err(e) = self.history.jump_to_with(end, &mut made) {
                self.stop = Some((base + end, e.to_string()));
            }
            while self.stop.is_none() && self.history.len() < to {
                let i = base + self.history.len();
                match made(self.history.current(), &i) {
                    Ok(next) => self.history.push(i, next),
                    Err(why) => self.stop = Some((i, why)),
                }
            }
        }
        let to = to.min(self.history.len());
        if let Err(e) = self.history.jump_to_with(to, &mut made) {
            self.stop = Some((base + to, e.to_string()));
        }
        if self.position() >= self.limit() {
            self.playing = false;
        }
        if self.position() == from {
            Control::Stayed
        } else {
            Control::Moved
        }
    }

    /// A key: space plays and pauses, ←/→ (h/l, `,`/`.`, the wheel) step, PgUp/PgDn jump
    /// 100, `+`/`-` change speed, Home/End (`g`/`G`) jump to the ends, `q`/Esc quit.
    pub fn handle(&mut self, input: &Input) -> Control {
        let key = match input {
            Input::Key { key, .. } => Some(*key),
            _ => wheel_key(input).map(|k| if k == Key::Up { Key::Left } else { Key::Right }),
        };
        let Some(key) = key else {
            return Control::Stayed;
        };
        match key {
            Key::Char(' ') => {
                self.playing = !self.playing && self.position() < self.limit();
                Control::Stayed
            }
            Key::Right | Key::Char('l' | '.') => {
                self.playing = false;
                self.go(self.position() + 1)
            }
            Key::Left | Key::Char('h' | ',') => {
                self.playing = false;
                self.go(self.position().saturating_sub(1))
            }
            Key::PageDown => self.go(self.position() + 100),
            Key::PageUp => self.go(self.position().saturating_sub(100)),
            Key::Char('+' | '=') => {
                self.speed = (self.speed + 1).min(SPEEDS_MS.len() - 1);
                Control::Stayed
            }
            Key::Char('-') => {
                self.speed = self.speed.saturating_sub(1);
                Control::Stayed
            }
            Key::Home | Key::Char('g') => self.go(0),
            Key::End | Key::Char('G') => self.go(usize::MAX),
            Key::Char('q' | 'Q') | Key::Esc => Control::Quit,
            _ => Control::Stayed,
        }
    }

    /// How long until the next [`Playback::tick`] while playing; `None` when paused.
    #[must_use]
    pub fn tick_interval(&self) -> Option<Duration> {
        self.playing
            .then(|| Duration::from_millis(SPEEDS_MS[self.speed]))
    }

    /// One step of playing: the next state, if playing.
    pub fn tick(&mut self) -> Control {
        if self.playing {
            self.go(self.position() + 1)
        } else {
            Control::Stayed
        }
    }

    /// The status bar over the top row of `area`: "REPLAY turn N/M move i/n", paused or
    /// playing and how fast, and the keys.
    pub fn draw_bar(&self, frame: &mut Frame, area: Rect, bg: Rgb) {
        let turn = self.current().map_or(0, Game::turn);
        let last = self.last_turn;
        let state = if let Some((i, why)) = &self.stop {
            format!("stopped at move {i}: {why}")
        } else if self.playing {
            format!("playing, {} ms a move", SPEEDS_MS[self.speed])
        } else {
            "paused".to_owned()
        };
        let status = format!(
            " REPLAY  turn {turn}/{last}  move {}/{}  {state}",
            self.position(),
            self.commands()
        );
        let keys = "   space play/pause  \u{2190}\u{2192} step  +/- speed  Home/End  q quit ";
        // One row when it fits, else the keys on a second row: never cut.
        let width = usize::from(area.width);
        let rows: Vec<String> = if status.chars().count() + keys.chars().count() <= width {
            vec![format!("{status}{keys}")]
        } else {
            vec![status, keys.trim_start().to_owned()]
                .into_iter()
                .flat_map(|r| alembic_ui::wrap_text(&r, width))
                .collect()
        };
        for (i, line) in rows.iter().enumerate() {
            let y = area.y.saturating_add(i as u16);
            if y >= area.bottom() {
                break;
            }
            let bar = Rect::new(area.x, y, area.width, 1);
            fill(frame, bar, Cell::blank(Rgb::BLACK, bg));
            put_clipped(frame, bar, area.x, y, line, Rgb::BLACK, bg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(n: u64) -> Vec<Game> {
        let mut g = Game::new(1);
        let mut out = vec![g.clone()];
        for _ in 0..n {
            g.set_turn_mut(g.turn() + 1);
            out.push(g.clone());
        }
        out
    }

    #[test]
    fn keys_step_jump_and_stop_at_the_ends() {
        let mut p = Playback::new(states(5));
        assert_eq!(p.handle(&Input::key(Key::Left)), Control::Stayed);
        assert_eq!(p.handle(&Input::key(Key::Right)), Control::Moved);
        assert_eq!(p.position(), 1);
        assert_eq!(p.handle(&Input::key(Key::End)), Control::Moved);
        assert_eq!(p.current().map(Game::turn), Some(5));
        assert_eq!(p.handle(&Input::key(Key::Right)), Control::Stayed);
        assert_eq!(p.handle(&Input::ch('g')), Control::Moved);
        assert_eq!(p.position(), 0);
        assert_eq!(p.handle(&Input::ch('q')), Control::Quit);
    }

    #[test]
    fn playing_ticks_forward_and_pauses_at_the_end() {
        let mut p = Playback::new(states(2));
        assert_eq!(p.tick_interval(), None);
        p.handle(&Input::ch(' '));
        assert!(p.is_playing());
        assert!(p.tick_interval().is_some());
        assert_eq!(p.tick(), Control::Moved);
        assert_eq!(p.tick(), Control::Moved);
        assert!(!p.is_playing(), "the last state pauses");
        assert_eq!(p.tick(), Control::Stayed);
    }
}

// ----- the viewer ----------------------------------------------------------------------------

/// Lines said by the steps into recorded states, by state hash: a viewer shows the same
/// lines for a state however it came to it (the game value keeps no English). Filled by the
/// stepper [`Playback::open`] runs ([`say_into`]).
pub type Said = std::rc::Rc<std::cell::RefCell<std::collections::HashMap<u64, Vec<String>>>>;

/// States whose lines a viewer keeps at most (then it starts afresh; a state stepped into
/// again says its lines again).
pub const SAID_KEEP: usize = 100_000;

/// Keep `lines`, what the step into `game` said, in `said` ([`Said`]).
pub fn say_into(said: &Said, game: &Game, lines: Vec<String>) {
    let mut said = said.borrow_mut();
    if said.len() >= SAID_KEEP {
        said.clear();
    }
    said.insert(game.state_hash(), lines);
}

/// What a replay viewer shows recorded states on: the session of a ruleset, or a game's
/// own screens' context.
pub trait Watch {
    /// Show `game`, a recorded state, with the lines the step into it said.
    fn show_state(&mut self, game: &Game, said: &[String]);
    /// Draw the state shown into `area` (the viewer draws its bar over it).
    fn draw_state(&self, frame: &mut Frame, area: Rect);
    /// The player left the viewer: `true` ends the app, `false` goes back to the screen
    /// under the viewer (a start screen).
    fn leave_replay(&mut self) -> bool;
}

/// The replay viewer, for any [`Watch`]: the states of a [`Playback`] shown one by one,
/// with play, pause, step back and forth, speed and jumps.
#[derive(Debug)]
pub struct Viewer {
    playback: Playback,
    said: Said,
    bar: Rgb,
}

impl Viewer {
    /// A viewer over `playback`, whose stepper keeps what each step said in `said`; its
    /// bar drawn on `bar`. Shows the first state on `ctx`.
    pub fn new(ctx: &mut impl Watch, playback: Playback, said: Said, bar: Rgb) -> Self {
        let v = Viewer {
            playback,
            said,
            bar,
        };
        v.show(ctx);
        v
    }

    /// The viewer's controls (how many states it keeps, where it stopped).
    #[must_use]
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    /// A viewer over `playback`, opened with [`Playback::open_saying`] (its lines kept by
    /// the playback itself); its bar drawn on `bar`. Shows the first state on `ctx`.
    pub fn saying(ctx: &mut impl Watch, playback: Playback, bar: Rgb) -> Self {
        Viewer::new(ctx, playback, Said::default(), bar)
    }

    fn show(&self, ctx: &mut impl Watch) {
        if let Some(g) = self.playback.current() {
            let kept = self.playback.said();
            if kept.is_empty() && !self.said.borrow().is_empty() {
                // A stepper of [`Playback::open`] that says into a [`Said`].
                let lines = self.said.borrow().get(&g.state_hash()).cloned();
                ctx.show_state(g, &lines.unwrap_or_default());
            } else {
                ctx.show_state(g, kept);
            }
        }
    }

    fn follow<C: Watch>(&self, ctx: &mut C, control: Control) -> alembic_ui::Transition<C, Self> {
        match control {
            Control::Moved => {
                self.show(ctx);
                alembic_ui::Transition::Stay
            }
            Control::Stayed => alembic_ui::Transition::Stay,
            Control::Quit if ctx.leave_replay() => alembic_ui::Transition::Quit,
            Control::Quit => alembic_ui::Transition::Pop(()),
        }
    }
}

impl<C: Watch> alembic_ui::Screen<C> for Viewer {
    type Output = ();
    type Reply = std::convert::Infallible;

    fn render(&mut self, ctx: &C, frame: &mut Frame, area: Rect) {
        ctx.draw_state(frame, area);
        self.playback.draw_bar(frame, area, self.bar);
    }

    fn handle(&mut self, ctx: &mut C, input: Input) -> alembic_ui::Transition<C, Self> {
        let control = self.playback.handle(&input);
        self.follow(ctx, control)
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.playback.tick_interval()
    }

    fn tick(&mut self, ctx: &mut C) -> alembic_ui::Transition<C, Self> {
        let control = self.playback.tick();
        self.follow(ctx, control)
    }

    fn on_quit(&mut self, ctx: &mut C) {
        // Nothing to save: a replay never writes.
        let _ = ctx.leave_replay();
    }

    fn name(&self) -> &str {
        "replay"
    }
}
