//! The record of every game's end, as DCSS keeps it: a plain-text morgue file per game and a
//! high-score table.
//!
//! A morgue is written at death, victory and quit into `morgue/` in the data directory:
//! seed, mode, cause, depth, turns, kills, stats, equipment, inventory, the last 30 messages
//! and where the recording is. The score table (`scores.json`, top [`TOP`], written
//! atomically) lists normal games only: practice games are never scored.

use std::path::{Path, PathBuf};

use alembic::Game;
use serde::{Deserialize, Serialize};

use crate::alchemy::{self, view};
use crate::storage::{self, StorageError};

/// Entries kept in the score table.
pub const TOP: usize = 20;
/// Messages in a morgue.
pub const MESSAGES: usize = 30;
/// The score table's file name in the data directory.
pub const SCORES_FILE: &str = "scores.json";
/// Largest score table read (it holds [`TOP`] short entries).
const MAX_SCORES_BYTES: u64 = 1 << 20;

/// How a game ended, for the record.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    /// The final game.
    pub game: &'a Game,
    /// The seed, when known.
    pub seed: Option<u64>,
    /// Modes such as `practice`.
    pub modes: &'a [&'a str],
    /// The player quit (rather than died or won).
    pub quit: bool,
    /// Where the recording is.
    pub recording: Option<&'a Path>,
    /// The latest messages, oldest first.
    pub messages: &'a [String],
    /// Seconds since 1970, for names and dates.
    pub unix_secs: u64,
}

/// One line of the score table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// The score: 1,000 per deepest depth, 10 per kill, 25,000 for escaping with the Stone.
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
}

/// The score of a game (see [`Score::score`]).
#[must_use]
pub fn score_of(s: &alchemy::Summary) -> u64 {
    let won = if s.outcome == alchemy::Fate::Won {
        25_000
    } else {
        0
    };
    u64::try_from(s.deepest.max(0)).unwrap_or(0) * 1_000
        + u64::try_from(s.kills.max(0)).unwrap_or(0) * 10
        + won
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

/// The cause line of an ending.
fn cause(e: &Ending<'_>, s: &alchemy::Summary) -> String {
    if e.quit {
        "quit".to_owned()
    } else if s.cause.is_empty() {
        s.outcome.to_string()
    } else {
        s.cause.clone()
    }
}

/// The morgue text of an ending.
///
/// # Errors
/// An engine error reading the game (a bug).
pub fn morgue_text(e: &Ending<'_>) -> Result<String, alembic::Error> {
    let s = alchemy::summary(e.game)?;
    let st = view::status(e.game)?;
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line("Alembic: Alchemy, the record of a game".to_owned());
    line(String::new());
    line(format!(
        "Seed:     {}",
        e.seed
            .map_or_else(|| "unknown".to_owned(), |s| s.to_string())
    ));
    line(format!(
        "Mode:     {}",
        if e.modes.is_empty() {
            "normal".to_owned()
        } else {
            e.modes.join(", ")
        }
    ));
    line(format!("Date:     {}", date_of(e.unix_secs)));
    line(format!("Cause:    {}", cause(e, &s)));
    line(format!("Depth:    {} (deepest {})", s.depth, s.deepest));
    line(format!("Turns:    {}", s.turns));
    line(format!("Kills:    {}", s.kills));
    if !e.modes.contains(&"practice") {
        line(format!("Score:    {}", score_of(&s)));
    }
    line(String::new());
    line(format!(
        "HP {}/{}  Armour {}  Speed {}",
        st.hp, st.hp_max, st.armour, st.speed
    ));
    line(
        st.stats
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join("  "),
    );
    line(format!("Attack: {}", st.attack));
    line(String::new());
    let items = view::inventory_entries(e.game)?;
    line("Equipment:".to_owned());
    for i in items.iter().filter(|i| i.wielded) {
        line(format!("  {}", i.name));
    }
    line("Inventory:".to_owned());
    for i in items.iter().filter(|i| !i.wielded) {
        line(format!("  {}", i.name));
    }
    line(String::new());
    line(format!("The last {MESSAGES} messages:"));
    let from = e.messages.len().saturating_sub(MESSAGES);
    for m in &e.messages[from..] {
        line(format!("  {m}"));
    }
    line(String::new());
    line(match e.recording {
        Some(p) => format!("Replay:   {} (alembic-tui --replay FILE)", p.display()),
        None => "Replay:   this game was not recorded".to_owned(),
    });
    Ok(out)
}

/// Write the morgue of an ending into `dir/morgue/`. Returns its path.
///
/// # Errors
/// The file could not be written, or the game could not be read (a bug).
pub fn write_morgue(dir: &Path, e: &Ending<'_>) -> Result<PathBuf, String> {
    let text = morgue_text(e).map_err(|err| err.to_string())?;
    let morgue = dir.join("morgue");
    std::fs::create_dir_all(&morgue)
        .map_err(|err| format!("cannot create {}: {err}", morgue.display()))?;
    let name = format!(
        "alchemy-{}-{}.txt",
        e.seed
            .map_or_else(|| "unknown".to_owned(), |s| format!("seed{s}")),
        e.unix_secs
    );
    let path = morgue.join(name);
    storage::write_atomic(&path, text.as_bytes()).map_err(|err| err.to_string())?;
    Ok(path)
}

/// The score table in `dir` (empty when there is none yet).
///
/// # Errors
/// The file exists but cannot be read or is not a score table.
pub fn read_scores(dir: &Path) -> Result<Vec<Score>, String> {
    let path = dir.join(SCORES_FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Vec::new());
    }
    let bytes = storage::read_bounded(&path, MAX_SCORES_BYTES).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: not a score table: {e}", path.display()))
}

/// What entering an ending into the score table did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scored {
    /// Its rank (1-based), if it made the table (never for practice or wizard games).
    pub rank: Option<usize>,
    /// Where an unreadable table was moved aside before a new one was started.
    pub set_aside: Option<PathBuf>,
}

/// Enter an ending into the table in `dir` (normal games only).
///
/// A table that cannot be read as one (corrupt, empty, too large, of the wrong type, not a
/// file) is never overwritten and never stops scoring: it is moved aside to
/// `scores.json.corrupt-<unix time>` and a new table is started; [`Scored::set_aside`] says
/// where it went, for the player.
///
/// # Errors
/// The table could not be moved aside or written (a read-only directory, a full disk).
pub fn record_score(dir: &Path, e: &Ending<'_>) -> Result<Scored, String> {
    if !e.modes.is_empty() {
        return Ok(Scored::default());
    }
    let s = alchemy::summary(e.game).map_err(|err| err.to_string())?;
    let table = dir.join(SCORES_FILE);
    std::fs::create_dir_all(dir).map_err(|err| err.to_string())?;
    // Read, add and write under one lock: two games ending at once both get their row.
    let _held = storage::lock_exclusive(&storage::sibling(&table, ".lock"))
        .map_err(|err: StorageError| err.to_string())?;
    let (mut scores, set_aside) = match read_scores(dir) {
        Ok(scores) => (scores, None),
        Err(why) => {
            let aside = storage::sibling(&table, &format!(".corrupt-{}", e.unix_secs));
            std::fs::rename(&table, &aside).map_err(|err| {
                format!(
                    "{why}; it could not be moved aside to {}: {err}",
                    aside.display()
                )
            })?;
            (Vec::new(), Some(aside))
        }
    };
    let entry = Score {
        score: score_of(&s),
        seed: e.seed,
        cause: cause(e, &s),
        depth: s.depth,
        turns: s.turns,
        date: date_of(e.unix_secs),
    };
    scores.push(entry.clone());
    // Stable: an equal score keeps the older entry first.
    scores.sort_by_key(|s| std::cmp::Reverse(s.score));
    scores.truncate(TOP);
    let rank = scores.iter().position(|x| *x == entry).map(|i| i + 1);
    let text = serde_json::to_string_pretty(&scores).map_err(|err| err.to_string())?;
    storage::write_atomic(&table, text.as_bytes()).map_err(|err: StorageError| err.to_string())?;
    Ok(Scored { rank, set_aside })
}

/// The score table in a narrow form for the start screen: a column line, then one line per
/// game (rank, score, depth, seed, how it ended, date), at most 79 columns wide.
#[must_use]
pub fn score_table_lines(scores: &[Score]) -> Vec<String> {
    const CAUSE: usize = 28;
    let mut out = vec![format!(
        "{:>3} {:>7} {:>5} {:<20} {:<CAUSE$} {:<10}",
        "#", "score", "depth", "seed", "how it ended", "date"
    )];
    for (i, s) in scores.iter().enumerate() {
        let mut cause: String = s.cause.chars().take(CAUSE).collect();
        if s.cause.chars().count() > CAUSE {
            cause.pop();
            cause.push('…');
        }
        out.push(format!(
            "{:>3} {:>7} {:>5} {:<20} {:<CAUSE$} {:<10}",
            i + 1,
            s.score,
            s.depth,
            s.seed.map_or_else(|| "?".to_owned(), |x| x.to_string()),
            cause,
            s.date
        ));
    }
    out
}

/// The score table as lines for a text screen.
#[must_use]
pub fn score_lines(scores: &[Score]) -> Vec<String> {
    if scores.is_empty() {
        return vec!["No games have ended yet. (Practice games are never scored.)".to_owned()];
    }
    let mut out = vec![format!(
        "{:>3}  {:>7}  {:<12}  {:>5}  {:>6}  {:<10}  {}",
        "#", "score", "seed", "depth", "turns", "date", "how it ended"
    )];
    for (i, s) in scores.iter().enumerate() {
        out.push(format!(
            "{:>3}  {:>7}  {:<12}  {:>5}  {:>6}  {:<10}  {}",
            i + 1,
            s.score,
            s.seed.map_or_else(|| "?".to_owned(), |x| x.to_string()),
            s.depth,
            s.turns,
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
}
