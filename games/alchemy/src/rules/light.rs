//! Light that matters, as in Brogue CE: darkness hides the hero from monsters, and light
//! shows monsters to the hero.
//!
//! - A cell is **lit** when a light other than the hero's own reaches it: a thing on the map
//!   with a `light_radius` (a candelabra; a monster that glows), whose own field of view
//!   of that radius holds the cell. The hero's torch (the hero's `light_radius`) lights the
//!   way but does not count: it is what the hero sees by, not what gives the hero away.
//! - A monster notices a hero standing in darkness only within `dark_sight` percent of its
//!   aggro range (all of it by default; three quarters for the goblinoids, which hunt by sight); one standing in light within its
//!   whole range ([`notice_range`]).
//! - The hero sees a monster in the field of view when it stands within the torch's radius
//!   or on a lit cell ([`Sight::shows`]): a monster in darkness farther away is not shown,
//!   not "in view", and not announced.
//!
//! Everything here is read from the game value (no clock, no dice): the same game gives the
//! same answers.

use alembic::{Error, Game, Loc, LocBox, ThingId};

use super::world::{TileTable, creature_at, hero, sees_with};
use crate::props::{AGGRO, DARK_SIGHT, IS_HERO, LIGHT_RADIUS};

/// The largest light radius that counts: a longer one shines this far.
pub const MAX_LIGHT_RADIUS: u32 = 12;

/// A light's radius as the rules use it: the data's, between 0 and [`MAX_LIGHT_RADIUS`].
fn radius_of(game: &Game, t: ThingId) -> u32 {
    let r = game.query(t, &LIGHT_RADIUS).unwrap_or(0).max(0);
    u32::try_from(r).unwrap_or(0).min(MAX_LIGHT_RADIUS)
}

/// Whether `l` is within the circle of radius `r` around `from` (the field of view's own
/// circle, `d² ≤ r² + r`).
fn within(from: Loc, l: Loc, r: u32) -> bool {
    let r = u64::from(r);
    from.z == l.z && from.euclidean_sq(l) <= r * r + r
}

/// Whether a light other than the hero's own torch reaches `l`: a thing on the map within
/// [`MAX_LIGHT_RADIUS`] with a light radius whose field of view of that radius holds `l`.
/// Θ(the things in that square + one field of view per light near enough).
#[must_use]
pub fn lit(game: &Game, table: &TileTable, l: Loc) -> bool {
    let r = i32::try_from(MAX_LIGHT_RADIUS).unwrap_or(12);
    let square = LocBox::new(
        Loc::new(l.x.saturating_sub(r), l.y.saturating_sub(r), l.z),
        Loc::new(
            l.x.saturating_add(r + 1),
            l.y.saturating_add(r + 1),
            l.z.saturating_add(1),
        ),
    );
    let lights: Vec<(Loc, u32)> = game
        .things()
        .in_box(square)
        .into_iter()
        .flat_map(|(at, ids)| {
            ids.iter()
                .filter(|&&t| !game.is(t, &IS_HERO))
                .map(move |&t| (at, radius_of(game, t)))
                .collect::<Vec<_>>()
        })
        .filter(|&(at, r)| r > 0 && within(at, l, r))
        .collect();
    lights
        .into_iter()
        .any(|(at, r)| sees_with(game, table, at, l, r))
}

/// The radius of the hero's own torch: the hero's `light_radius` (the data gives it).
#[must_use]
pub fn torch_radius(game: &Game) -> u32 {
    hero(game).map_or(0, |h| radius_of(game, h))
}

/// How far monster `m` notices the hero: its aggro range when the hero stands in light,
/// `dark_sight` percent of it (rounded down) when the hero stands in darkness.
pub fn notice_range(game: &Game, m: ThingId, hero_lit: bool) -> Result<u32, Error> {
    let aggro = u32::try_from(game.query(m, &AGGRO)?.max(0)).unwrap_or(0);
    if hero_lit {
        return Ok(aggro);
    }
    let pct = u32::try_from(game.query(m, &DARK_SIGHT)?.clamp(0, 100)).unwrap_or(50);
    Ok(aggro * pct / 100)
}

/// What the hero can make out of the creatures in the field of view: those within the
/// torch's radius, and those farther away standing in light. Terrain, items and scenery
/// in the field of view are seen whatever the light.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    /// Where the hero stands.
    pub hero_at: Loc,
    /// The radius of the hero's torch.
    pub torch: u32,
}

impl Sight {
    /// The hero's sight in `game` now.
    ///
    /// # Errors
    /// No hero, or a hero not on the map.
    pub fn of(game: &Game) -> Result<Sight, Error> {
        let hero_at = game.things().location(hero(game)?)?;
        Ok(Sight {
            hero_at,
            torch: torch_radius(game),
        })
    }

    /// Whether a creature standing at `l` (in the field of view) is shown to the hero: within
    /// the torch's radius, or on a lit cell ([`lit`]).
    #[must_use]
    pub fn shows(&self, game: &Game, table: &TileTable, l: Loc) -> bool {
        l.z == self.hero_at.z && (within(self.hero_at, l, self.torch) || lit(game, table, l))
    }

    /// Whether the creature at `l`, if any, is hidden from the hero by darkness: it stands
    /// beyond the torch on an unlit cell. The hero is never hidden from themself.
    #[must_use]
    pub fn hides(&self, game: &Game, table: &TileTable, l: Loc) -> bool {
        l != self.hero_at && creature_at(game, l).is_some() && !self.shows(game, table, l)
    }
}

/// Whether the hero can make out creature `t` now: it is in the hero's field of view
/// (`in_view`) and [`Sight::shows`] its cell.
#[must_use]
pub fn hero_makes_out(game: &Game, t: ThingId, in_view: impl Fn(Loc) -> bool) -> bool {
    let (Ok(sight), Ok(at)) = (Sight::of(game), game.things().location(t)) else {
        return false;
    };
    in_view(at) && sight.shows(game, &TileTable::new(game), at)
}
