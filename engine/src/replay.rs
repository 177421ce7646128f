//! The command log and replay format every game shares: a header line, then one line per
//! command or state-hash checkpoint, each JSON, so a game appends a line per command and a
//! crash loses nothing. The engine only produces and parses text; games do the I/O.
//!
//! ```text
//! {"format":"alembic-replay","version":2,"game":"alchemy","game_version":"0.1.0","seed":42,"modes":["practice"],"check":"<header hash, 16 hex digits>"}
//! {"turn":0,"cmd":{"Move":"North"}}
//! {"turn":1,"cmd":"Rest"}
//! {"turn":2,"hash":"9f86d081884c7d65"}
//! {"turn":2,"state":"<the game's save text>"}
//! ```
//!
//! A **state line** (`Entry::State`) holds a whole state as the game's own save text, right
//! after a checkpoint of the same turn: a viewer seeks from it instead of replaying every
//! command before it. The engine never reads the text; a reader that ignores state lines
//! plays the same game. State lines may be up to [`MAX_STATE_LINE`] long.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The name in every replay's header line.
pub const REPLAY_FORMAT: &str = "alembic-replay";

/// The version of the replay format this build writes and reads; a newer one is refused
/// with [`ReplayError::NewerVersion`]. Version 2 is version 1 with the header hash
/// (`"check"`) required: a version 2 header without it is refused, so deleting the seal
/// cannot pass an edited header off as an older recording. Version 1 headers still read,
/// with or without it.
pub const REPLAY_VERSION: u32 = 2;

/// The longest line [`Recording::parse`] accepts, in bytes (64 KiB), but for state lines.
pub const MAX_REPLAY_LINE: usize = 64 * 1024;

/// The longest state line ([`Entry::State`]) [`Recording::parse`] accepts, in bytes
/// (16 MiB).
pub const MAX_STATE_LINE: usize = 16 << 20;

/// The most entries (commands and checkpoints) [`Recording::parse`] accepts (4,194,304).
pub const MAX_REPLAY_ENTRIES: usize = 1 << 22;

/// The largest text [`Recording::parse`] accepts, in bytes (256 MiB).
pub const MAX_REPLAY_BYTES: usize = 256 << 20;

/// The first line of a replay: what game, which version of it, and how it started.
///
/// The line ends with `"check"`, the header hash: 16 hex digits of a [`StableHasher`] over
/// every other field (format, format version, game, game version, seed, modes) as written.
/// A header whose fields were edited after it was written (a relabelled mode, seed or
/// version) no longer matches it and is refused with [`ReplayError::HeaderHash`]. A
/// version 1 header without `"check"` (an older recording) is read as it is, with
/// [`ReplayHeader::hash_checked`] false; a version 2 header without it is refused.
///
/// ```
/// use alembic::replay::ReplayHeader;
/// let h = ReplayHeader::new("alchemy", "0.1.0", 42).with_mode("practice");
/// let line = h.to_line();
/// assert!(line.starts_with(
///     "{\"format\":\"alembic-replay\",\"version\":2,\"game\":\"alchemy\",\
///      \"game_version\":\"0.1.0\",\"seed\":42,\"modes\":[\"practice\"],\"check\":\""
/// ));
/// assert!(h.has_mode("practice"));
/// ```
///
/// [`StableHasher`]: crate::hash::StableHasher
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ReplayHeader {
    /// The game's name, as its launcher knows it.
    pub game: String,
    /// The game's version; a game decides which versions it can play back.
    pub game_version: String,
    /// The seed the game was started from.
    pub seed: u64,
    /// Flags the game was played under, such as `"practice"` or `"wizard"`.
    pub modes: BTreeSet<String>,
    /// Whether the line read carried a header hash (it matched, or it would have been
    /// refused); false for a recording older than the header hash, and for a header made
    /// here (its line gets one when written).
    pub hash_checked: bool,
}

/// The header line as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderRepr {
    format: String,
    version: u32,
    game: String,
    game_version: String,
    seed: u64,
    #[serde(default)]
    modes: BTreeSet<String>,
    /// The header hash over the fields above (see [`ReplayHeader`]); absent before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check: Option<String>,
}

impl HeaderRepr {
    /// The header hash: a stable hash of the line without `check`. Θ(size).
    fn hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let bare = HeaderRepr {
            check: None,
            format: self.format.clone(),
            version: self.version,
            game: self.game.clone(),
            game_version: self.game_version.clone(),
            seed: self.seed,
            modes: self.modes.clone(),
        };
        let mut h = crate::hash::StableHasher::new();
        serde_json::to_string(&bare)
            .unwrap_or_default()
            .hash(&mut h);
        h.finish()
    }
}

impl ReplayHeader {
    /// A header with no modes.
    #[must_use]
    pub fn new(game: impl Into<String>, game_version: impl Into<String>, seed: u64) -> Self {
        ReplayHeader {
            game: game.into(),
            game_version: game_version.into(),
            seed,
            modes: BTreeSet::new(),
            hash_checked: false,
        }
    }

    /// This header with `mode` set.
    #[must_use]
    pub fn with_mode(mut self, mode: impl Into<String>) -> Self {
        self.modes.insert(mode.into());
        self
    }

    /// Whether `mode` is set.
    #[must_use]
    pub fn has_mode(&self, mode: &str) -> bool {
        self.modes.contains(mode)
    }

    /// The header line with its header hash, ending in a newline. Θ(size).
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut repr = HeaderRepr {
            format: REPLAY_FORMAT.to_owned(),
            version: REPLAY_VERSION,
            game: self.game.clone(),
            game_version: self.game_version.clone(),
            seed: self.seed,
            modes: self.modes.clone(),
            check: None,
        };
        repr.check = Some(format!("{:016x}", repr.hash()));
        // Strings, integers and a set of strings always encode.
        let mut line = serde_json::to_string(&repr).unwrap_or_default();
        line.push('\n');
        line
    }

    /// Parse the first line (without its newline).
    fn parse(line: &str, complete: bool) -> Result<Self, ReplayError> {
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) if line.contains(REPLAY_FORMAT) => {
                return Err(ReplayError::BadHeader {
                    reason: if complete {
                        e.to_string()
                    } else {
                        "the header line is cut off".to_owned()
                    },
                });
            }
            Err(_) => {
                return Err(ReplayError::Foreign {
                    reason: "the first line is not JSON".to_owned(),
                });
            }
        };
        if value.get("format").and_then(Value::as_str) != Some(REPLAY_FORMAT) {
            return Err(ReplayError::Foreign {
                reason: format!("the first line does not name the {REPLAY_FORMAT:?} format"),
            });
        }
        match value.get("version").and_then(Value::as_u64) {
            Some(v) if v > u64::from(REPLAY_VERSION) => {
                return Err(ReplayError::NewerVersion {
                    found: v,
                    supported: REPLAY_VERSION,
                });
            }
            Some(v) if v >= 1 => {}
            _ => {
                return Err(ReplayError::BadHeader {
                    reason: "no valid format version".to_owned(),
                });
            }
        }
        let r = HeaderRepr::deserialize(&value).map_err(|e| ReplayError::BadHeader {
            reason: e.to_string(),
        })?;
        let hash_checked = match &r.check {
            None if r.version >= 2 => {
                return Err(ReplayError::BadHeader {
                    reason: format!(
                        "a version {} header must carry its header hash (\"check\"), and this one has none",
                        r.version
                    ),
                });
            }
            None => false,
            Some(found) => {
                let computed = format!("{:016x}", r.hash());
                if *found != computed {
                    return Err(ReplayError::HeaderHash {
                        found: found.clone(),
                        computed,
                    });
                }
                true
            }
        };
        Ok(ReplayHeader {
            game: r.game,
            game_version: r.game_version,
            seed: r.seed,
            modes: r.modes,
            hash_checked,
        })
    }
}

/// One line after the header: a command and the turn it was given on, a checkpoint, or a
/// whole state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Entry<C> {
    /// A command given when the game's turn was `turn`.
    Command {
        /// The game's turn when the command was given.
        turn: u64,
        /// The command.
        command: C,
    },
    /// The game's state hash at `turn`, after every command before this line.
    Checkpoint {
        /// The game's turn.
        turn: u64,
        /// Its state hash (written as 16 hex digits).
        hash: u64,
    },
    /// The whole state at `turn`, as the game's own save text: written right after a
    /// [`Entry::Checkpoint`] of the same turn, which vouches for it (a reader that restores
    /// the text checks its state hash against that checkpoint). Replaying ignores it.
    State {
        /// The game's turn.
        turn: u64,
        /// The game's save text (opaque to the engine).
        state: String,
    },
}

/// A command line as written.
#[derive(Serialize)]
struct CommandRepr<'a, C> {
    turn: u64,
    cmd: &'a C,
}

impl<C> Entry<C> {
    /// The turn the line was written on.
    #[must_use]
    pub fn turn(&self) -> u64 {
        match self {
            Entry::Command { turn, .. }
            | Entry::Checkpoint { turn, .. }
            | Entry::State { turn, .. } => *turn,
        }
    }

    /// The turn and hash of a checkpoint; `None` for other lines. Θ(1).
    #[must_use]
    pub fn checkpoint(&self) -> Option<(u64, u64)> {
        match self {
            Entry::Checkpoint { turn, hash } => Some((*turn, *hash)),
            _ => None,
        }
    }
}

impl<C: Serialize> Entry<C> {
    /// The line for this entry, ending in a newline: append it to the file as it is.
    /// Θ(size of the command).
    ///
    /// # Errors
    /// [`ReplayError::Encode`] if serde_json cannot encode the command (e.g. a map with
    /// non-string keys).
    pub fn to_line(&self) -> Result<String, ReplayError> {
        match self {
            Entry::Command { turn, command } => Self::command_line(*turn, command),
            Entry::Checkpoint { turn, hash } => Ok(Entry::<()>::checkpoint_line(*turn, *hash)),
            Entry::State { turn, state } => Ok(Entry::<()>::state_line(*turn, state)),
        }
    }

    /// The line for `command` given on `turn`, ending in a newline, without building an
    /// [`Entry`]. Θ(size of the command).
    ///
    /// # Errors
    /// [`ReplayError::Encode`] if serde_json cannot encode the command.
    pub fn command_line(turn: u64, command: &C) -> Result<String, ReplayError> {
        let mut line = serde_json::to_string(&CommandRepr { turn, cmd: command }).map_err(|e| {
            ReplayError::Encode {
                reason: e.to_string(),
            }
        })?;
        line.push('\n');
        Ok(line)
    }
}

impl Entry<()> {
    /// The line for a checkpoint, ending in a newline (it does not depend on the command
    /// type). Θ(1).
    ///
    /// ```
    /// use alembic::replay::Entry;
    /// assert_eq!(Entry::checkpoint_line(7, 255), "{\"turn\":7,\"hash\":\"00000000000000ff\"}\n");
    /// ```
    #[must_use]
    pub fn checkpoint_line(turn: u64, hash: u64) -> String {
        format!("{{\"turn\":{turn},\"hash\":\"{hash:016x}\"}}\n")
    }

    /// The line for a state at `turn` (the game's save text, escaped as a JSON string),
    /// ending in a newline. Write it right after a checkpoint of the same turn.
    /// Θ(size of the text).
    ///
    /// ```
    /// use alembic::replay::Entry;
    /// assert_eq!(Entry::state_line(7, "{\"a\":1}"), "{\"turn\":7,\"state\":\"{\\\"a\\\":1}\"}\n");
    /// ```
    #[must_use]
    pub fn state_line(turn: u64, state: &str) -> String {
        let quoted = serde_json::Value::from(state).to_string();
        format!("{{\"turn\":{turn},\"state\":{quoted}}}\n")
    }
}

impl<C: DeserializeOwned> Entry<C> {
    /// Parse an entry line (without its newline); the reason on failure.
    fn parse(line: &str) -> Result<Self, String> {
        let map: Map<String, Value> = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let turn = map
            .get("turn")
            .and_then(Value::as_u64)
            .ok_or("no unsigned integer `turn`")?;
        if let (Some(state), 2) = (map.get("state"), map.len()) {
            let state = state.as_str().ok_or("the `state` is not a string")?;
            return Ok(Entry::State {
                turn,
                state: state.to_owned(),
            });
        }
        match (map.get("cmd"), map.get("hash"), map.len()) {
            (Some(cmd), None, 2) => {
                let command = C::deserialize(cmd).map_err(|e| format!("bad command: {e}"))?;
                Ok(Entry::Command { turn, command })
            }
            (None, Some(hash), 2) => {
                let hash = hash
                    .as_str()
                    .filter(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .ok_or("the checkpoint `hash` is not 16 hex digits")?;
                Ok(Entry::Checkpoint { turn, hash })
            }
            _ => Err("a line holds `turn` and exactly one of `cmd`, `hash` or `state`".to_owned()),
        }
    }
}

/// Why a replay was refused, or how its playback went wrong. Line numbers count from 1 (the
/// header).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// Nothing but whitespace.
    #[error("the replay is empty")]
    Empty,
    /// More than [`MAX_REPLAY_BYTES`].
    #[error("the replay is {bytes} bytes, more than the {max} accepted")]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// A line longer than [`MAX_REPLAY_LINE`].
    #[error("line {line} is {len} bytes, more than the {max} accepted")]
    LineTooLong {
        /// The line.
        line: usize,
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// More than [`MAX_REPLAY_ENTRIES`] entries.
    #[error("line {line}: more than {max} entries")]
    TooManyEntries {
        /// The first line over the limit.
        line: usize,
        /// The limit.
        max: usize,
    },
    /// Not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// The line.
        line: usize,
    },
    /// The first line is not a replay header: some other file.
    #[error("not an alembic replay: {reason}")]
    Foreign {
        /// What was wrong with the first line.
        reason: String,
    },
    /// Written by a newer build, in a format version this one cannot read.
    #[error("replay format version {found} is newer than this build reads ({supported})")]
    NewerVersion {
        /// The file's version.
        found: u64,
        /// The version this build reads.
        supported: u32,
    },
    /// The first line names the format but is malformed.
    #[error("line 1: bad replay header: {reason}")]
    BadHeader {
        /// What is wrong.
        reason: String,
    },
    /// The header's fields (seed, modes, game, version) do not match its header hash: they
    /// were edited after the recording was written.
    #[error(
        "line 1: the header does not match its header hash (it says {found}, its fields give {computed}): its seed, modes or version were changed after it was recorded"
    )]
    HeaderHash {
        /// The hash the header holds.
        found: String,
        /// The hash of its fields.
        computed: String,
    },
    /// A malformed entry line (one ending in a newline; a cut-off last line is not an error).
    #[error("line {line} is corrupt: {reason}")]
    Corrupt {
        /// The line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A command serde_json could not encode.
    #[error("cannot encode a command: {reason}")]
    Encode {
        /// serde_json's reason.
        reason: String,
    },
    /// During playback, the game refused a recorded command.
    #[error("line {line}: the game refused the command of turn {turn}: {reason}")]
    Rejected {
        /// The command's line.
        line: usize,
        /// Its recorded turn.
        turn: u64,
        /// The game's reason.
        reason: String,
    },
    /// During playback, the game's turn differs from the one recorded on a line.
    #[error("line {line}: diverged: recorded at turn {recorded}, but the game is at turn {actual}")]
    TurnMismatch {
        /// The line.
        line: usize,
        /// The turn recorded.
        recorded: u64,
        /// The game's turn.
        actual: u64,
    },
    /// During playback, a checkpoint's state hash differs from the game's.
    #[error(
        "line {line}: diverged at turn {turn}: expected state hash {expected:016x}, got {actual:016x}"
    )]
    Diverged {
        /// The checkpoint's line.
        line: usize,
        /// The checkpoint's turn.
        turn: u64,
        /// The recorded hash.
        expected: u64,
        /// The game's hash.
        actual: u64,
    },
}

impl ReplayError {
    /// The recorded turn at which playback diverged, for [`ReplayError::Diverged`] and
    /// [`ReplayError::TurnMismatch`].
    #[must_use]
    pub fn diverged_at(&self) -> Option<u64> {
        match self {
            ReplayError::Diverged { turn, .. } => Some(*turn),
            ReplayError::TurnMismatch { recorded, .. } => Some(*recorded),
            _ => None,
        }
    }
}

/// A whole replay: the header and the entries in order.
///
/// # Format
/// UTF-8 text, one JSON object per line, each line ending in `\n`:
/// - line 1, the header: `{"format":"alembic-replay","version":2,"game":…,
///   "game_version":…,"seed":…,"modes":[…]}` ([`ReplayHeader::to_line`]);
/// - then per command `{"turn":T,"cmd":…}` with the command as serde_json writes it
///   ([`Entry::command_line`]), and per checkpoint `{"turn":T,"hash":"<16 hex digits>"}`
///   ([`Entry::checkpoint_line`]), and after a checkpoint perhaps the whole state at its
///   turn, `{"turn":T,"state":"<save text>"}` ([`Entry::state_line`]). Turns never
///   decrease.
///
/// # Parsing rules
/// - A **cut-off last line** — one with no final newline that does not parse, as a crash in
///   the middle of an append leaves — is the end of the recording: it is dropped and
///   [`Recording::torn`] is set. A last line without a newline that does parse is kept.
/// - Any other bad line is a distinct [`ReplayError`] naming its line: [`Empty`],
///   [`Foreign`] (the first line is not our header), [`NewerVersion`], [`BadHeader`],
///   [`HeaderHash`] (the header's fields were edited after it was written),
///   [`Corrupt`] (including blank lines and turns that go backwards), [`NotText`].
/// - Bounds: at most [`MAX_REPLAY_BYTES`] in all, [`MAX_REPLAY_LINE`] per line
///   ([`MAX_STATE_LINE`] for a state line) and
///   [`MAX_REPLAY_ENTRIES`] entries; serde_json's own nesting limit bounds recursion.
///   Parsing never panics and is Θ(size).
///
/// [`Empty`]: ReplayError::Empty
/// [`Foreign`]: ReplayError::Foreign
/// [`NewerVersion`]: ReplayError::NewerVersion
/// [`BadHeader`]: ReplayError::BadHeader
/// [`HeaderHash`]: ReplayError::HeaderHash
/// [`Corrupt`]: ReplayError::Corrupt
/// [`NotText`]: ReplayError::NotText
///
/// ```
/// use alembic::{replay::Entry, replay::Recording, replay::ReplayError, replay::ReplayHeader};
/// let mut text = ReplayHeader::new("counter", "1", 7).to_line();
/// text += &Entry::command_line(0, &5u64)?;
/// text += &Entry::checkpoint_line(1, 12);
/// let rec: Recording<u64> = Recording::parse(&text)?;
/// let step = |s: &(u64, u64), c: &u64| -> Result<(u64, u64), String> { Ok((s.0 + c, s.1 + 1)) };
/// let done = rec.verify((7, 0), step, |s| s.0, |s| s.1)?;
/// assert_eq!((done.commands, done.checkpoints, done.final_hash), (1, 1, 12));
/// # Ok::<(), ReplayError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording<C> {
    /// The header.
    pub header: ReplayHeader,
    /// The commands and checkpoints, in order; entry `i` is on line `i + 2`.
    pub entries: Vec<Entry<C>>,
    /// Whether [`parse`](Recording::parse) dropped a cut-off last line.
    pub torn: bool,
}

/// What a successful [`Recording::verify`] played through.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verified<S> {
    /// Commands applied.
    pub commands: usize,
    /// Checkpoints that matched.
    pub checkpoints: usize,
    /// The final state's turn.
    pub final_turn: u64,
    /// The final state's hash.
    pub final_hash: u64,
    /// The final state.
    pub final_state: S,
}

impl<C> Recording<C> {
    /// A recording with no entries.
    #[must_use]
    pub fn new(header: ReplayHeader) -> Self {
        Recording {
            header,
            entries: Vec::new(),
            torn: false,
        }
    }

    /// Append a command given on `turn`. Θ(1) amortised.
    pub fn push_command(&mut self, turn: u64, command: C) {
        self.entries.push(Entry::Command { turn, command });
    }

    /// Append a checkpoint. Θ(1) amortised.
    pub fn push_checkpoint(&mut self, turn: u64, hash: u64) {
        self.entries.push(Entry::Checkpoint { turn, hash });
    }

    /// Append a checkpoint of the state whose hash is `hash`, then the state itself (the
    /// game's save text): a viewer can seek from it. Θ(1) amortised.
    pub fn push_state(&mut self, turn: u64, hash: u64, state: String) {
        self.entries.push(Entry::Checkpoint { turn, hash });
        self.entries.push(Entry::State { turn, state });
    }

    /// The commands with their turns, in order. Θ(1) per item.
    pub fn commands(&self) -> impl Iterator<Item = (u64, &C)> + '_ {
        self.entries.iter().filter_map(|e| match e {
            Entry::Command { turn, command } => Some((*turn, command)),
            _ => None,
        })
    }

    /// The turn of the last entry (0 when there is none). Θ(1).
    #[must_use]
    pub fn last_turn(&self) -> u64 {
        self.entries.last().map_or(0, Entry::turn)
    }

    /// Play the recording from `initial`, applying each command with `step` and checking
    /// each checkpoint against `hash`, and each line's turn against `turn`. Θ(entries) calls.
    ///
    /// # Errors
    /// The first problem met, with its line: [`ReplayError::TurnMismatch`] when the game is
    /// not at the turn a line was recorded on, [`ReplayError::Diverged`] when a checkpoint's
    /// hash differs (turn and both hashes), [`ReplayError::Rejected`] when `step` refuses a
    /// command.
    pub fn verify<S, E: fmt::Display>(
        &self,
        initial: S,
        mut step: impl FnMut(&S, &C) -> Result<S, E>,
        hash: impl Fn(&S) -> u64,
        turn: impl Fn(&S) -> u64,
    ) -> Result<Verified<S>, ReplayError> {
        let mut state = initial;
        let (mut commands, mut checkpoints) = (0, 0);
        // The game must be at the turn each line was written on.
        let at_turn = |state: &S, line: usize, recorded: u64| {
            let actual = turn(state);
            (actual == recorded)
                .then_some(())
                .ok_or(ReplayError::TurnMismatch {
                    line,
                    recorded,
                    actual,
                })
        };
        for (i, entry) in self.entries.iter().enumerate() {
            let line = i + 2;
            match entry {
                Entry::Command { turn: t, command } => {
                    at_turn(&state, line, *t)?;
                    state = step(&state, command).map_err(|e| ReplayError::Rejected {
                        line,
                        turn: *t,
                        reason: e.to_string(),
                    })?;
                    commands += 1;
                }
                Entry::Checkpoint { turn: t, hash: h } => {
                    let actual = hash(&state);
                    if actual != *h {
                        return Err(ReplayError::Diverged {
                            line,
                            turn: *t,
                            expected: *h,
                            actual,
                        });
                    }
                    at_turn(&state, line, *t)?;
                    checkpoints += 1;
                }
                Entry::State { turn: t, .. } => at_turn(&state, line, *t)?,
            }
        }
        Ok(Verified {
            commands,
            checkpoints,
            final_turn: turn(&state),
            final_hash: hash(&state),
            final_state: state,
        })
    }
}

impl<C: Serialize> Recording<C> {
    /// The whole file: the header line and one line per entry. Θ(size).
    ///
    /// # Errors
    /// [`ReplayError::Encode`] if a command cannot be encoded.
    pub fn to_text(&self) -> Result<String, ReplayError> {
        let mut text = self.header.to_line();
        for e in &self.entries {
            text.push_str(&e.to_line()?);
        }
        Ok(text)
    }
}

impl<C: DeserializeOwned> Recording<C> {
    /// Parse a replay's bytes: [`parse`](Recording::parse) after checking they are UTF-8.
    /// A multi-byte character cut off at the very end counts as a cut-off last line.
    ///
    /// # Errors
    /// [`ReplayError::NotText`], or any error of [`parse`](Recording::parse).
    pub fn parse_bytes(bytes: &[u8]) -> Result<Self, ReplayError> {
        if bytes.len() > MAX_REPLAY_BYTES {
            return Err(ReplayError::TooLarge {
                bytes: bytes.len(),
                max: MAX_REPLAY_BYTES,
            });
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Self::parse(text),
            Err(e) => {
                let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
                let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
                let text = std::str::from_utf8(valid).map_err(|_| ReplayError::NotText { line })?;
                if e.error_len().is_some() || text.is_empty() {
                    return Err(ReplayError::NotText { line });
                }
                let mut rec = Self::parse(text)?;
                if !text.ends_with('\n') && !rec.torn {
                    // The cut-off line parsed without its last character: drop it.
                    rec.entries.pop();
                }
                rec.torn = true;
                Ok(rec)
            }
        }
    }

    /// Parse a replay (see the rules on [`Recording`]). Θ(size).
    ///
    /// # Errors
    /// A [`ReplayError`] naming what is wrong and on which line.
    pub fn parse(text: &str) -> Result<Self, ReplayError> {
        if text.len() > MAX_REPLAY_BYTES {
            return Err(ReplayError::TooLarge {
                bytes: text.len(),
                max: MAX_REPLAY_BYTES,
            });
        }
        if text.trim().is_empty() {
            return Err(ReplayError::Empty);
        }
        let mut pieces = text.split_inclusive('\n').enumerate().map(|(i, piece)| {
            let complete = piece.ends_with('\n');
            let body = piece.strip_suffix('\n').unwrap_or(piece);
            let body = body.strip_suffix('\r').unwrap_or(body);
            (i + 1, body, complete)
        });
        let Some((_, first, complete)) = pieces.next() else {
            return Err(ReplayError::Empty);
        };
        check_length(1, first)?;
        let mut rec = Recording::new(ReplayHeader::parse(first, complete)?);
        for (line, body, complete) in pieces {
            // A state line may be longer; any other line is held to the shorter bound.
            if body.len() > MAX_STATE_LINE || !body.contains("\"state\":") {
                check_length(line, body)?;
            }
            if rec.entries.len() >= MAX_REPLAY_ENTRIES {
                return Err(ReplayError::TooManyEntries {
                    line,
                    max: MAX_REPLAY_ENTRIES,
                });
            }
            let entry = if body.trim().is_empty() {
                Err("a blank line".to_owned())
            } else {
                Entry::parse(body)
            };
            match entry {
                Ok(e) if !matches!(e, Entry::State { .. }) && body.len() > MAX_REPLAY_LINE => {
                    check_length(line, body)?;
                }
                Ok(e) => {
                    let previous = rec.last_turn();
                    if e.turn() < previous {
                        return Err(ReplayError::Corrupt {
                            line,
                            reason: format!("turn {} goes back from {previous}", e.turn()),
                        });
                    }
                    rec.entries.push(e);
                }
                Err(_) if !complete => rec.torn = true,
                Err(reason) => return Err(ReplayError::Corrupt { line, reason }),
            }
        }
        Ok(rec)
    }
}

/// Refuse a line over [`MAX_REPLAY_LINE`].
fn check_length(line: usize, body: &str) -> Result<(), ReplayError> {
    if body.len() > MAX_REPLAY_LINE {
        return Err(ReplayError::LineTooLong {
            line,
            len: body.len(),
            max: MAX_REPLAY_LINE,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_lines_parse_back() {
        let line = Entry::command_line(3, &vec![1u8, 2]).unwrap();
        assert_eq!(line, "{\"turn\":3,\"cmd\":[1,2]}\n");
        assert_eq!(
            Entry::<Vec<u8>>::parse(line.trim_end()),
            Ok(Entry::Command {
                turn: 3,
                command: vec![1, 2]
            })
        );
        let cp = Entry::checkpoint_line(9, u64::MAX);
        assert_eq!(
            Entry::<u8>::parse(cp.trim_end()),
            Ok(Entry::Checkpoint {
                turn: 9,
                hash: u64::MAX
            })
        );
    }

    #[test]
    fn lines_with_both_or_neither_or_extra_fields_are_refused() {
        for bad in [
            r#"{"turn":1}"#,
            r#"{"turn":1,"cmd":2,"hash":"0000000000000001"}"#,
            r#"{"turn":1,"cmd":2,"x":0}"#,
            r#"{"turn":-1,"cmd":2}"#,
            r#"{"turn":1,"hash":"01"}"#,
            r#"{"turn":1,"hash":"+000000000000001"}"#,
            r#"[1,2]"#,
        ] {
            assert!(Entry::<u8>::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn state_lines_parse_back_and_replay_ignores_them() {
        let text = "{\"save\":[1,\"two\\n\"]}";
        let line = Entry::state_line(4, text);
        assert_eq!(
            Entry::<u8>::parse(line.trim_end()),
            Ok(Entry::State {
                turn: 4,
                state: text.to_owned()
            })
        );
        for bad in [
            r#"{"turn":1,"state":7}"#,
            r#"{"turn":1,"state":"x","hash":"0000000000000001"}"#,
        ] {
            assert!(Entry::<u8>::parse(bad).is_err(), "{bad}");
        }
        // A recording with a state after its checkpoint plays as one without it.
        let mut rec: Recording<u64> = Recording::new(ReplayHeader::new("counter", "1", 0));
        rec.push_command(0, 3);
        rec.push_state(1, 3, "three".to_owned());
        rec.push_command(1, 2);
        let back: Recording<u64> = Recording::parse(&rec.to_text().unwrap()).unwrap();
        assert_eq!(back.entries, rec.entries);
        let step = |s: &(u64, u64), c: &u64| Ok::<_, String>((s.0 + c, s.1 + 1));
        let done = back.verify((0, 0), step, |s| s.0, |s| s.1).unwrap();
        assert_eq!(
            (done.commands, done.checkpoints, done.final_hash),
            (2, 1, 5)
        );
        // A state line claiming another turn than the game's is refused.
        let mut wrong = rec.clone();
        wrong.entries[2] = Entry::State {
            turn: 2,
            state: String::new(),
        };
        assert!(matches!(
            wrong.verify((0, 0), step, |s| s.0, |s| s.1),
            Err(ReplayError::TurnMismatch { line: 4, .. })
        ));
    }

    #[test]
    fn only_state_lines_may_be_long() {
        let header = ReplayHeader::new("counter", "1", 0).to_line();
        let long = "x".repeat(MAX_REPLAY_LINE + 1);
        let state = format!("{header}{}", Entry::state_line(0, &long));
        let rec = Recording::<String>::parse(&state).unwrap();
        assert!(matches!(&rec.entries[0], Entry::State { state, .. } if *state == long));
        let command = format!("{header}{}", Entry::command_line(0, &long).unwrap());
        assert!(matches!(
            Recording::<String>::parse(&command),
            Err(ReplayError::LineTooLong { line: 2, .. })
        ));
        // A command that merely contains the word is no state line.
        let sneaky = format!("\"state\":{long}");
        let command = format!("{header}{}", Entry::command_line(0, &sneaky).unwrap());
        assert!(matches!(
            Recording::<String>::parse(&command),
            Err(ReplayError::LineTooLong { line: 2, .. })
        ));
        let huge = format!(
            "{header}{}",
            Entry::state_line(0, &"y".repeat(MAX_STATE_LINE))
        );
        assert!(matches!(
            Recording::<String>::parse(&huge),
            Err(ReplayError::LineTooLong { line: 2, .. })
        ));
    }

    #[test]
    fn a_non_ascii_header_is_not_foreign() {
        let h = ReplayHeader::new("caves", "é", 1);
        let rec = Recording::<u8>::parse(&h.to_line()).unwrap();
        // Read back, the same header, its hash checked.
        let mut want = h;
        want.hash_checked = true;
        assert_eq!(rec.header, want);
    }
}
