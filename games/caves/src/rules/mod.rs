//! The rules: events and who hears them, sight and memory, and the parts in their own
//! files: combat, time (the engine's scheduler) and the creatures' behaviour hooks. The
//! player's commands enter through [`crate::command`].

pub(crate) mod combat;
mod creatures;
pub(crate) mod time;

use alembic::{Error, Game, HookCtx, Loc, LocBox, ThingId};

use crate::events::Event;
use crate::geometry::walkable;
use crate::props::{RECEIVER, SEEN_LAYER};
use crate::view::visible;

pub(crate) use creatures::{
    bat_turn, bunny_turn, lichen_sting, lichen_turn, silverfish_turn, zombie_turn,
};

pub use crate::view::VIEW_RADIUS;
/// Messages reach everyone within this many cells (king's moves) on the same level.
pub const HEARING: i32 = 7;
/// The player heals one hit point every this many turns.
pub const REGEN_EVERY: u64 = 10;
/// Lichens grow with probability 1 in this, per turn.
pub const LICHEN_GROWTH_ODDS: u64 = 100;
/// Each turn, with probability 1 in this, a new hunter comes out of the dark on the
/// player's level (out of sight, up to [`MAX_HUNTERS`] plus one per level of depth):
/// lingering is dangerous.
pub const REINFORCE_ODDS: u64 = 30;
/// Hunters allowed on the top level before reinforcements stop.
pub const MAX_HUNTERS: usize = 4;

/// The events of one command, gathered in the hook context's scratch store (so hooks add to
/// them too).
#[derive(Default)]
pub(crate) struct Heard(pub(crate) Vec<Event>);

/// Deliver `event` to `who` if it receives messages: the event becomes one of the
/// command's, and the player's message log is made from it outside the game value (its
/// English is never part of the game: see [`text`](crate::text)).
pub(crate) fn tell(g: &mut Game, ctx: &mut HookCtx<'_>, who: ThingId, event: Event) {
    if g.is(who, &RECEIVER) {
        ctx.scratch::<Heard>().0.push(event);
    }
}

/// Tell `event` to everyone within [`HEARING`] of `at` on its level.
pub(crate) fn say_near(g: &mut Game, ctx: &mut HookCtx<'_>, at: Loc, event: &Event) {
    let area = LocBox::new(
        Loc::new(at.x - HEARING, at.y - HEARING, at.z),
        Loc::new(at.x + HEARING + 1, at.y + HEARING + 1, at.z + 1),
    );
    let mut hearers = Vec::new();
    for l in area.iter() {
        hearers.extend(g.things().at(l).iter().copied());
    }
    for who in hearers {
        tell(g, ctx, who, event.clone());
    }
}

/// `l` if a creature can stand there and none does, else the nearest such cell within 3.
pub(crate) fn nearest_free(g: &Game, l: Loc) -> Option<Loc> {
    (0..=3).find_map(|r: i32| {
        LocBox::new(
            Loc::new(l.x - r, l.y - r, l.z),
            Loc::new(l.x + r + 1, l.y + r + 1, l.z + 1),
        )
        .iter()
        .find(|&c| {
            c.chebyshev(l) == r.unsigned_abs() && walkable(g, c) && g.things().at(c).is_empty()
        })
    })
}

/// Write what the player sees into their memory of the map (a layer of the game value).
pub(crate) fn remember_view(g: &mut Game) -> Result<(), Error> {
    let seen = visible(g)?;
    for l in seen.iter() {
        let t = g.tile(l);
        g.set_layer_mut(&SEEN_LAYER, l, Some(t));
    }
    Ok(())
}
