//! The record of every game's end shared by the games, as DCSS keeps it: a plain-text morgue
//! file per game in `morgue/` and a high-score table (top [`TOP`], written atomically under a
//! lock) in the data directory.
//!
//! A game builds its own morgue text and [`Score`]; this module files them. Each row carries
//! the game's identity ([`game_id`]): a game entered twice (a quit game continued and quit
//! again) keeps its one row.

use std::path::{Path, PathBuf};

use alembic::Game;
use serde::{Deserialize, Serialize};

use crate::storage::{self, StorageError};

/// Entries kept in a score table.
pub const TOP: usize = 20;
/// Largest score table read (it holds [`TOP`] short entries).
const MAX_SCORES_BYTES: u64 = 1 << 20;
/// How long a game that ends waits for another game holding the score table's lock; then
/// it is "not scored", with the reason, rather than a quit that never finishes.
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// One line of a score table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// The score (each game says how it counts).
    pub score: u64,
    /// The seed.
    pub seed: Option<u64>,
    /// How it ended ("killed by a goblin", "escaped with the Philosopher's Stone", "quit").
    pub cause: String,
    /// Depth at the end.
    pub depth: i32,
    /// Turns taken.
    pub turns: u64,
    /// The date, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The game's identity ([`game_id`]); tables written before 0.3 have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// What entering a score did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scored {
    /// Its rank (1-based), if it made the table (never for practice or wizard games).
    pub rank: Option<usize>,
    /// Where an unreadable table was moved aside before a new one was started.
    pub set_aside: Option<PathBuf>,
}

/// The identity of a game as it ended: its name, seed, turn and state hash. The same seed
/// played with the same commands is the same game (the engine is deterministic), so the
/// same ending entered twice is one game, and two games that went differently are two.
#[must_use]
pub fn game_id(game_name: &str, seed: Option<u64>, game: &Game) -> String {
    format!(
        "{game_name}-{}-t{}-{:016x}",
        seed.map_or_else(|| "unknown".to_owned(), |s| s.to_string()),
        game.turn(),
        game.state_hash()
    )
}

/// `YYYY-MM-DD` of a Unix time (UTC), by the civil-from-days algorithm.
#[must_use]
pub fn date_of(unix_secs: u64) -> String {
    let days = i64::try_from(unix_secs / 86_400).unwrap_or(0);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Why a morgue file or the score table could not be read or written. Its `Display` is the
/// sentence for the player.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScoresError {
    /// A directory could not be made.
    #[error("cannot create {}: {source}", dir.display())]
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file could not be read, written or locked.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The score table is not one (corrupt, or of another program).
    #[error("{}: not a score table: {source}", path.display())]
    NotATable {
        /// The table.
        path: PathBuf,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// A table that could not be read could not be moved aside either.
    #[error("{why}; it could not be moved aside to {}: {source}", aside.display())]
    SetAside {
        /// Why it could not be read.
        why: Box<ScoresError>,
        /// Where it was to go.
        aside: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The table could not be made into JSON (a bug).
    #[error("the score table could not be written as JSON: {0}")]
    Json(serde_json::Error),
}

/// Write a morgue `text` into `dir/morgue/` as `<game_name>-seed<N>-<unix secs>.txt`.
/// Returns its path.
///
/// # Errors
/// The directory or file could not be written.
pub fn write_morgue(
    dir: &Path,
    game_name: &str,
    seed: Option<u64>,
    unix_secs: u64,
    text: &str,
) -> Result<PathBuf, ScoresError> {
    let morgue = dir.join("morgue");
    std::fs::create_dir_all(&morgue).map_err(|source| ScoresError::CreateDir {
        dir: morgue.clone(),
        source,
    })?;
    let name = format!(
        "{game_name}-{}-{unix_secs}.txt",
        seed.map_or_else(|| "unknown".to_owned(), |s| format!("seed{s}"))
    );
    let path = morgue.join(name);
    storage::write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

/// The score table `file` in `dir` (empty when there is none yet).
///
/// # Errors
/// The file exists but cannot be read or is not a score table.
pub fn read_table(dir: &Path, file: &str) -> Result<Vec<Score>, ScoresError> {
    let path = dir.join(file);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Vec::new());
    }
    let bytes = storage::read_bounded(&path, MAX_SCORES_BYTES)?;
    serde_json::from_slice(&bytes).map_err(|source| ScoresError::NotATable { path, source })
}

/// Enter `entry` into the table `file` in `dir`, once per game: a row with the same
/// [`Score::game`] already there is kept as it is (its rank is returned).
///
/// A table that cannot be read as one (corrupt, empty, too large, of the wrong type, not a
/// file) is never overwritten and never stops scoring: it is moved aside to
/// `<file>.corrupt-<unix_secs>` and a new table is started; [`Scored::set_aside`] says
/// where it went, for the player.
///
/// # Errors
/// The table could not be moved aside or written (a read-only directory, a full disk), or
/// another game held its lock for longer than [`LOCK_WAIT`].
pub fn enter(dir: &Path, file: &str, entry: Score, unix_secs: u64) -> Result<Scored, ScoresError> {
    let table = dir.join(file);
    std::fs::create_dir_all(dir).map_err(|source| ScoresError::CreateDir {
        dir: dir.to_path_buf(),
        source,
    })?;
    // Read, add and write under one lock: two games ending at once both get their row.
    let _held = storage::lock_exclusive_within(&storage::sibling(&table, ".lock"), LOCK_WAIT)?;
    let (mut scores, set_aside) = match read_table(dir, file) {
        Ok(scores) => (scores, None),
        Err(why) => {
            let aside = storage::sibling(&table, &format!(".corrupt-{unix_secs}"));
            if let Err(source) = std::fs::rename(&table, &aside) {
                return Err(ScoresError::SetAside {
                    why: Box::new(why),
                    aside,
                    source,
                });
            }
            (Vec::new(), Some(aside))
        }
    };
    if let Some(id) = &entry.game
        && let Some(i) = scores.iter().position(|s| s.game.as_ref() == Some(id))
    {
        return Ok(Scored {
            rank: Some(i + 1),
            set_aside,
        });
    }
    scores.push(entry.clone());
    // Stable: an equal score keeps the older entry first.
    scores.sort_by_key(|s| std::cmp::Reverse(s.score));
    scores.truncate(TOP);
    let rank = scores.iter().position(|x| *x == entry).map(|i| i + 1);
    let text = serde_json::to_string_pretty(&scores).map_err(ScoresError::Json)?;
    storage::write_atomic(&table, text.as_bytes())?;
    Ok(Scored { rank, set_aside })
}

fn seed_text(s: &Score) -> String {
    s.seed.map_or_else(|| "?".to_owned(), |x| x.to_string())
}

/// The width of the seed column: the longest seed, at least `min`.
fn seed_width(scores: &[Score], min: usize) -> usize {
    scores
        .iter()
        .map(|s| seed_text(s).chars().count())
        .max()
        .unwrap_or(0)
        .max(min)
}

/// The score table in a narrow form for the start screen: a column line, then one line per
/// game (rank, score, depth, seed, date, how it ended: the columns of [`score_lines`] in
/// the same order, without the turns), at most 79 columns wide while seeds are short (a
/// long seed widens its column and shortens the cause, never misaligning).
#[must_use]
pub fn score_table_lines(scores: &[Score]) -> Vec<String> {
    let seed_w = seed_width(scores, 4);
    // 3 + 7 + 5 + seed + 10 + cause and five spaces make 79 with the seed at 20.
    let cause_w = 48usize.saturating_sub(seed_w).max(12);
    let mut out = vec![
        format!(
            "{:>3} {:>7} {:>5} {:<seed_w$} {:<10} {}",
            "#", "score", "depth", "seed", "date", "how it ended"
        )
        .trim_end()
        .to_owned(),
    ];
    for (i, s) in scores.iter().enumerate() {
        let mut cause: String = s.cause.chars().take(cause_w).collect();
        if s.cause.chars().count() > cause_w {
            cause.pop();
            cause.push('…');
        }
        out.push(format!(
            "{:>3} {:>7} {:>5} {:<seed_w$} {:<10} {}",
            i + 1,
            s.score,
            s.depth,
            seed_text(s),
            s.date,
            cause
        ));
    }
    out
}

/// The score table as lines for a text screen (the `h` page): columns as wide as their
/// widest entry.
#[must_use]
pub fn score_lines(scores: &[Score]) -> Vec<String> {
    if scores.is_empty() {
        return vec!["No games have ended yet. (Practice games are never scored.)".to_owned()];
    }
    let seed_w = seed_width(scores, 4);
    let score_w = scores
        .iter()
        .map(|s| s.score.to_string().len())
        .max()
        .unwrap_or(0)
        .max(5);
    let turns_w = scores
        .iter()
        .map(|s| s.turns.to_string().len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = vec![format!(
        "{:>3}  {:>score_w$}  {:>5}  {:>turns_w$}  {:<seed_w$}  {:<10}  {}",
        "#", "score", "depth", "turns", "seed", "date", "how it ended"
    )];
    for (i, s) in scores.iter().enumerate() {
        out.push(format!(
            "{:>3}  {:>score_w$}  {:>5}  {:>turns_w$}  {:<seed_w$}  {:<10}  {}",
            i + 1,
            s.score,
            s.depth,
            s.turns,
            seed_text(s),
            s.date,
            s.cause
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400), "2000-02-29");
        assert_eq!(date_of(1_795_392_000), "2026-11-23");
    }

    fn row(seed: u64, cause: &str) -> Score {
        Score {
            score: 1234,
            seed: Some(seed),
            cause: cause.to_owned(),
            depth: 3,
            turns: 456,
            date: "2026-11-25".to_owned(),
            game: None,
        }
    }

    #[test]
    fn long_seeds_keep_the_columns_aligned() {
        let scores = [row(5, "quit"), row(u64::MAX, "killed by a goblin")];
        for lines in [score_lines(&scores), score_table_lines(&scores)] {
            let col = |l: &str, word: &str| l.find(word).expect(word);
            // The date column starts at the same place on every line.
            let at: Vec<usize> = lines[1..].iter().map(|l| col(l, "2026")).collect();
            assert!(at.windows(2).all(|w| w[0] == w[1]), "{lines:#?}");
            assert_eq!(col(&lines[0], "date"), at[0], "{lines:#?}");
        }
    }

    #[test]
    fn both_tables_have_their_columns_in_one_order() {
        let scores = [row(5, "quit")];
        let order = |header: &str| -> Vec<&'static str> {
            let mut cols: Vec<(usize, &'static str)> =
                ["score", "depth", "turns", "seed", "date", "how it ended"]
                    .into_iter()
                    .filter_map(|c| header.find(c).map(|at| (at, c)))
                    .collect();
            cols.sort_unstable();
            cols.into_iter().map(|(_, c)| c).collect()
        };
        let full = order(&score_lines(&scores)[0]);
        let narrow = order(&score_table_lines(&scores)[0]);
        assert_eq!(
            full,
            ["score", "depth", "turns", "seed", "date", "how it ended"]
        );
        let without_turns: Vec<&str> = full.into_iter().filter(|c| *c != "turns").collect();
        assert_eq!(narrow, without_turns);
    }

    #[test]
    fn a_held_score_lock_is_waited_for_a_bounded_time() {
        let dir = std::env::temp_dir().join(format!("alembic-scorelock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let table = dir.join("scores.json");
        let held = storage::lock_exclusive(&storage::sibling(&table, ".lock")).unwrap();
        // Another holder (here a thread of this process: file locks belong to the open
        // file, so a second open of the lock file waits as another process would).
        let (d, t0) = (dir.clone(), std::time::Instant::now());
        let waiter = std::thread::spawn(move || enter(&d, "scores.json", row(1, "quit"), 0));
        let err = waiter.join().unwrap().unwrap_err();
        assert!(matches!(err, ScoresError::Storage(_)), "{err:?}");
        assert!(
            err.to_string().contains("still locked by another game"),
            "{err}"
        );
        assert!(t0.elapsed() >= LOCK_WAIT, "it waited before giving up");
        assert!(!table.exists(), "nothing was written");
        drop(held);
        assert_eq!(
            enter(&dir, "scores.json", row(1, "quit"), 0).unwrap().rank,
            Some(1)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
