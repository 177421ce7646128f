//! What a UI, the bot or a report reads from a Caves game: the player, the outcome, the
//! status line, who stands where, what the player sees and remembers. Read-only.

use std::sync::Arc;

use alembic::{Error, Game, Loc, ThingId, fov::VisibleSet, fov::field_of_view, library::TileId};
use serde::{Deserialize, Serialize};

use crate::geometry::depth_of;
use crate::kinds::Outcome;
use crate::props::{
    CAUSE, DEEPEST, GEMS, HP, IS_HOSTILE, KILLER, KILLS, LEVELS, MAX_HP, NAME, OUTCOME, PLAYER,
    SEEN_LAYER, TRANSPARENT,
};

/// The player's vital signs, for status lines and reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Hit points, never below 0.
    pub hp: i32,
    /// Hit points when unhurt.
    pub max_hp: i32,
    /// Where the player is.
    pub at: Loc,
    /// The level the player is on (0 = the top).
    pub depth: i32,
    /// The deepest level reached.
    pub deepest: i32,
    /// How many levels the world has.
    pub levels: i32,
    /// Turns taken.
    pub turn: u64,
    /// Creatures killed by the player.
    pub kills: i64,
    /// Gems picked up.
    #[serde(default)]
    pub gems: i64,
    /// Playing, won or dead.
    pub outcome: Outcome,
    /// What ended the game, empty while playing.
    pub cause: String,
}

/// The player's id.
///
/// # Errors
/// [`Error::MissingProperty`] for a game that is not a Caves game.
pub fn player(g: &Game) -> Result<ThingId, Error> {
    g.var(&PLAYER)
}

/// How the game stands.
///
/// # Errors
/// A corrupt outcome variable.
pub fn outcome(g: &Game) -> Result<Outcome, Error> {
    g.var(&OUTCOME)
}

/// How the game ended, in English made now (never kept in the game): the escape, or death
/// by the killer kept by name; games saved before 0.3 kept the sentence itself.
fn cause_of(g: &Game) -> Result<String, Error> {
    Ok(match outcome(g)? {
        Outcome::Playing => String::new(),
        Outcome::Won => crate::text::ESCAPE_CAUSE.to_owned(),
        Outcome::Dead => match g.var(&KILLER) {
            Ok(k) => crate::text::death_cause(&k),
            Err(_) => g.var(&CAUSE).map(|c| c.to_string()).unwrap_or_default(),
        },
    })
}

/// The player's vital signs.
///
/// # Errors
/// Engine errors for a game that is not a Caves game.
pub fn status(g: &Game) -> Result<Status, Error> {
    let p = player(g)?;
    let at = g.things().location(p)?;
    Ok(Status {
        hp: g.query(p, &HP)?.max(0),
        max_hp: g.query(p, &MAX_HP)?,
        at,
        depth: depth_of(at.z),
        deepest: g.var(&DEEPEST)?,
        levels: g.var(&LEVELS)?,
        turn: g.turn(),
        kills: g.var(&KILLS)?,
        gems: g.var(&GEMS)?,
        outcome: outcome(g)?,
        cause: cause_of(g)?,
    })
}

/// The creature standing at `l`, if any (in the Caves every thing on the map is a creature).
#[must_use]
pub fn creature_at(g: &Game, l: Loc) -> Option<ThingId> {
    g.things().at(l).first().copied()
}

/// A creature's name ("cave bat"); "something" if it has none.
#[must_use]
pub fn name_of(g: &Game, id: ThingId) -> Arc<str> {
    g.query(id, &NAME)
        .unwrap_or_else(|_| Arc::from("something"))
}

/// Whether the creature hunts the player.
#[must_use]
pub fn is_hostile(g: &Game, id: ThingId) -> bool {
    g.is(id, &IS_HOSTILE)
}

/// Every creature on level `z` (the player included), in id order. Reads the engine's cell
/// index for that level only, so things on other levels cost nothing.
#[must_use]
pub fn creatures_on(g: &Game, z: i32) -> Vec<ThingId> {
    let mut ids: Vec<ThingId> = g
        .things()
        .on_level(z)
        .into_iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    ids.sort_unstable();
    ids
}

pub(crate) fn transparent(g: &Game, l: Loc) -> bool {
    g.tile_def(l).is_ok_and(|d| d.is(&TRANSPARENT))
}

/// How far the player sees.
pub const VIEW_RADIUS: u32 = 9;

/// What the player sees now (symmetric shadowcasting, radius [`VIEW_RADIUS`]).
///
/// # Errors
/// Engine errors for a game that is not a Caves game.
pub fn visible(g: &Game) -> Result<VisibleSet, Error> {
    let at = g.things().location(player(g)?)?;
    Ok(field_of_view(at, VIEW_RADIUS, |l| transparent(g, l)))
}

/// The tile the player remembers at `l`, if they have seen it.
#[must_use]
pub fn remembered(g: &Game, l: Loc) -> Option<TileId> {
    g.layers().at(&SEEN_LAYER, l)
}
