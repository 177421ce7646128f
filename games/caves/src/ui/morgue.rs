//! The Caves' record of a game's end: a morgue file and a row in `caves-scores.json`, filed
//! by [`alembic_session::scores`] as Alchemy's are.

use std::path::Path;

use alembic::Game;

use crate::kinds::Outcome;
use crate::view::{Status, status};
use alembic_session::scores::{self, Score};

/// The Caves' score table in the data directory (Alchemy's is `scores.json`).
pub const SCORES_FILE: &str = "caves-scores.json";
/// Messages in a morgue.
pub const MESSAGES: usize = 30;

/// How a Caves game ended, for the record.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    /// The final game.
    pub game: &'a Game,
    /// The seed.
    pub seed: u64,
    /// The player quit (rather than died or escaped).
    pub quit: bool,
    /// Where the recording went.
    pub recording: Option<&'a Path>,
    /// Seconds since 1970, for names and dates.
    pub unix_secs: u64,
}

/// The score of a game: 1,000 per level reached below the first, 10 per kill, 10,000 for
/// escaping. A game quit at once scores nothing.
#[must_use]
pub fn score_of(s: &Status) -> u64 {
    let won = if s.outcome == Outcome::Won { 10_000 } else { 0 };
    u64::try_from(s.deepest.max(0)).unwrap_or(0) * 1_000
        + u64::try_from(s.kills.max(0)).unwrap_or(0) * 10
        + won
}

fn cause(e: &Ending<'_>, s: &Status) -> String {
    match s.outcome {
        _ if e.quit => "quit".to_owned(),
        Outcome::Won if s.cause.is_empty() => "escaped".to_owned(),
        _ if s.cause.is_empty() => "died".to_owned(),
        _ => s.cause.clone(),
    }
}

/// The morgue text of an ending.
///
/// # Errors
/// The game is not a Caves game (a bug).
pub fn morgue_text(e: &Ending<'_>) -> Result<String, alembic::Error> {
    let s = status(e.game)?;
    let mut lines = vec![
        "Alembic: the Caves, the record of a game".to_owned(),
        String::new(),
        format!("Seed:     {}", e.seed),
        format!("Date:     {}", scores::date_of(e.unix_secs)),
        format!("Cause:    {}", cause(e, &s)),
        format!(
            "Level:    {} of {} (deepest {})",
            s.depth + 1,
            s.levels,
            s.deepest + 1
        ),
        format!("Turns:    {}", s.turn),
        format!("Kills:    {}", s.kills),
        format!("HP:       {}/{}", s.hp, s.max_hp),
        format!("Score:    {}", score_of(&s)),
        String::new(),
        format!("The last {MESSAGES} messages:"),
    ];
    let all: Vec<String> = e.game.messages().map(|m| m.text.to_string()).collect();
    let from = all.len().saturating_sub(MESSAGES);
    lines.extend(all[from..].iter().map(|m| format!("  {m}")));
    lines.push(String::new());
    lines.push(match e.recording {
        Some(p) => format!(
            "Replay:   {} (alembic-tui --game caves --replay FILE)",
            p.display()
        ),
        None => "Replay:   this game was not recorded".to_owned(),
    });
    Ok(lines.join("\n") + "\n")
}

/// Write the morgue of an ending and enter its score (once per game) in `dir`. Returns a
/// sentence for the player saying where the morgue went and the rank.
///
/// # Errors
/// A sentence saying what could not be kept.
pub fn file(dir: &Path, e: &Ending<'_>) -> Result<String, String> {
    let text = morgue_text(e).map_err(|err| format!("The morgue could not be written: {err}"))?;
    let s = status(e.game).map_err(|err| err.to_string())?;
    let path = scores::write_morgue(dir, "caves", Some(e.seed), e.unix_secs, &text)
        .map_err(|err| format!("The morgue could not be written: {err}"))?;
    let entry = Score {
        score: score_of(&s),
        seed: Some(e.seed),
        cause: cause(e, &s),
        depth: s.depth + 1,
        turns: s.turn,
        date: scores::date_of(e.unix_secs),
        game: Some(scores::game_id("caves", Some(e.seed), e.game)),
    };
    let scored = scores::enter(dir, SCORES_FILE, entry, e.unix_secs)
        .map_err(|err| format!("The score could not be kept: {err}"))?;
    Ok(match scored.rank {
        Some(r) => format!(
            "The morgue is {}; the game ranks #{r} in {}.",
            path.display(),
            dir.join(SCORES_FILE).display()
        ),
        None => format!("The morgue is {}.", path.display()),
    })
}
