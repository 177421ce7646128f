//! The record of every game's end, as DCSS keeps it: a plain-text morgue file per game and a
//! high-score table.
//!
//! A morgue is written at death, victory and quit into `morgue/` in the data directory, as
//! DCSS writes one: seed, mode, cause, depth, turns, kills, the light the hero stood in,
//! stats, equipment, inventory, the identified potions and known recipes, a timeline by
//! depth (the turn each depth was reached, the potions learned, the monsters killed), the
//! map of the last level as the hero knew it, the last 30 messages and where the recording is. The score table (`scores.json`,
//! top [`TOP`], written atomically, one row per game) lists normal games only: practice
//! games are never scored. The filing is the session's, shared with every game
//! ([`alembic_session::run::Run::finish`]): this module gives it Alchemy's text through the
//! contract ([`crate::contract::Alchemy`]'s `morgue` and `scores_file`).

use std::path::Path;

use alembic::Game;

use crate as alchemy;

pub use alembic_session::scores::{Score, Scored, TOP, date_of, score_lines, score_table_lines};

/// Messages in a morgue.
pub const MESSAGES: usize = 30;
/// The score table's file name in the data directory.
pub const SCORES_FILE: &str = "scores.json";

/// How a game ended, for the record.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    /// The final game.
    pub game: &'a Game,
    /// The seed, when known.
    pub seed: Option<u64>,
    /// Its modes (practice, wizard, data).
    pub modes: &'a alembic_session::Modes,
    /// The player quit (rather than died or won).
    pub quit: bool,
    /// Where the recording is.
    pub recording: Option<&'a Path>,
    /// The latest messages, oldest first.
    pub messages: &'a [String],
    /// The game's own lines with the turn each was said on, oldest first (the timeline is
    /// made from them: the game value keeps no English).
    pub said: &'a [(u64, String)],
    /// Seconds since 1970, for names and dates.
    pub unix_secs: u64,
}

/// The score of a game: 1,000 for each depth reached below the first, 10 per kill, 25,000
/// for escaping with the Stone. A game quit at once scores what it achieved: nothing.
#[must_use]
pub fn score_of(s: &alchemy::view::Summary) -> u64 {
    let won = if s.outcome == alchemy::props::Fate::Won {
        25_000
    } else {
        0
    };
    u64::try_from((s.deepest - 1).max(0)).unwrap_or(0) * 1_000
        + u64::try_from(s.kills.max(0)).unwrap_or(0) * 10
        + won
}

/// The cause line of an ending.
fn cause(e: &Ending<'_>, s: &alchemy::view::Summary) -> String {
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
    let s = alchemy::view::summary(e.game)?;
    let st = alchemy::view::status(e.game)?;
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
            e.modes.to_string()
        }
    ));
    line(format!("Date:     {}", date_of(e.unix_secs)));
    line(format!("Cause:    {}", cause(e, &s)));
    line(format!("Depth:    {} (deepest {})", s.depth, s.deepest));
    line(format!("Turns:    {}", s.turns));
    line(format!("Kills:    {}", s.kills));
    line(format!("Level:    {} ({} experience)", st.level, st.xp));
    line(format!(
        "Light:    {}",
        if alchemy::view::hero_in_light(e.game) {
            "you were standing in the light, seen from afar"
        } else {
            "you were standing in darkness, hidden from those that hunt by sight"
        }
    ));
    if !e.modes.practice {
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
    let items = alchemy::view::inventory_entries(e.game)?;
    line("Equipment:".to_owned());
    for i in items.iter().filter(|i| i.wielded) {
        line(format!("  {}", i.name));
    }
    line("Inventory:".to_owned());
    for i in items.iter().filter(|i| !i.wielded) {
        line(format!("  {}", i.name));
    }
    line(String::new());
    let potions = alchemy::view::identified_potions(e.game);
    line(format!(
        "Identified potions ({}): {}",
        potions.len(),
        if potions.is_empty() {
            "none".to_owned()
        } else {
            potions.join(", ")
        }
    ));
    let recipes = alchemy::view::known_recipes(e.game)?;
    line(format!("Known recipes ({}):", recipes.len()));
    for r in &recipes {
        line(format!("  {}: {}", r.name, r.ingredients.join(", ")));
    }
    line(String::new());
    let messages = e.said;
    let kept_from = messages.first().map_or(0, |m| m.0);
    line(if kept_from > 1 {
        format!("Timeline (from turn {kept_from}, the oldest message kept):")
    } else {
        "Timeline:".to_owned()
    });
    for (turn, depth, text) in timeline(messages) {
        line(format!("  turn {turn:>6}  depth {depth:>2}  {text}"));
    }
    line(String::new());
    line(format!("The map of depth {} as you knew it:", s.depth));
    for row in alchemy::view::level_map_text(e.game)? {
        line(format!("  {row}"));
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

/// The notable lines of a game's messages, each with its turn and the depth it happened on:
/// arriving on each depth, potions identified and analysed, brews, deaths of monsters and
/// levels gained. The depth starts at 1 and follows "You descend…"/"You climb up…".
#[must_use]
pub fn timeline(messages: &[(u64, String)]) -> Vec<(u64, i32, String)> {
    const NOTABLE: [&str; 8] = [
        "You enter the dungeon",
        "It was ",
        "It tastes bitter",
        "You analyse",
        "You brew",
        "You reach level",
        "You climb out",
        "You were ",
    ];
    let mut depth = 1;
    let mut out = Vec::new();
    for (turn, text) in messages {
        let moved = ["You descend to depth ", "You climb up to depth "]
            .iter()
            .find_map(|p| text.strip_prefix(p))
            .and_then(|rest| rest.trim_end_matches('.').parse::<i32>().ok());
        if let Some(d) = moved {
            depth = d;
            out.push((*turn, depth, text.clone()));
        } else if NOTABLE.iter().any(|p| text.starts_with(p)) || text.ends_with(" dies.") {
            out.push((*turn, depth, text.clone()));
        }
    }
    out
}

/// The score table in `dir` (empty when there is none yet).
///
/// # Errors
/// The file exists but cannot be read or is not a score table.
pub fn read_scores(dir: &Path) -> Result<Vec<Score>, alembic_session::scores::ScoresError> {
    alembic_session::scores::read_table(dir, SCORES_FILE)
}

#[cfg(test)]
mod tests {
    use super::timeline;

    #[test]
    fn the_timeline_follows_the_depths() {
        let said = |t: u64, s: &str| (t, s.to_owned());
        let messages = [
            said(
                0,
                "You enter the dungeon. Somewhere below lies the Philosopher's Stone.",
            ),
            said(3, "You pick up a dagger."),
            said(40, "The rat dies."),
            said(120, "You descend to depth 2."),
            said(130, "It was a potion of healing."),
            said(200, "You climb up to depth 1."),
        ];
        let t = timeline(&messages);
        let depths: Vec<(u64, i32)> = t.iter().map(|(turn, d, _)| (*turn, *d)).collect();
        assert_eq!(depths, [(0, 1), (40, 1), (120, 2), (130, 2), (200, 1)]);
    }
}
