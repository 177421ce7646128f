//! Stacks, as in the original (`:number`, `stack-thing`): look-alike items are one thing
//! with a count ([`NUMBER`]). They merge when they come together (picked up, brewed,
//! dropped on a pile of their like) and split when part of them leaves (one potion drunk or
//! thrown, some dropped). So a pack of 12 herbs is one thing, and a save stays small.
//!
//! Weapons, armour and the Stone never stack: each is used on its own.

use alembic::{Error, Game, Place, ThingId};

use crate::props::{INV_LETTER, IS_ARMOUR, IS_ITEM, IS_STONE, IS_WEAPON, IS_WIELDED, NUMBER};

/// How many items `id` stands for (at least 1).
#[must_use]
pub fn number(game: &Game, id: ThingId) -> i32 {
    game.query(id, &NUMBER).unwrap_or(1).max(1)
}

/// Whether items of this kind stack at all.
#[must_use]
pub fn stackable(game: &Game, id: ThingId) -> bool {
    game.is(id, &IS_ITEM)
        && !game.is(id, &IS_WEAPON)
        && !game.is(id, &IS_ARMOUR)
        && !game.is(id, &IS_STONE)
}

/// Whether `a` and `b` are look-alikes that make one stack: both stackable, of one
/// prototype, and equal in every property but their count, pack letter and wield flag.
#[must_use]
pub fn stacks_with(game: &Game, a: ThingId, b: ThingId) -> bool {
    if a == b || !stackable(game, a) || !stackable(game, b) {
        return false;
    }
    let (Ok(ta), Ok(tb)) = (game.things().get(a), game.things().get(b)) else {
        return false;
    };
    if ta.proto() != tb.proto() || ta.modifiers() != tb.modifiers() {
        return false;
    }
    let (number, letter, wielded) = (NUMBER, INV_LETTER, IS_WIELDED);
    let ignored = [number.key(), letter.key(), wielded.key()];
    let own = |t: &alembic::Thing| {
        t.props()
            .iter()
            .filter(|(k, _)| !ignored.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>()
    };
    own(ta) == own(tb)
}

/// The things sharing `id`'s place (a holder's contents or a map cell), `id` excluded.
fn neighbours(game: &Game, id: ThingId) -> Result<Vec<ThingId>, Error> {
    let others: Vec<ThingId> = match game.things().place(id)? {
        Place::In(holder) => game.things().contents(holder)?.to_vec(),
        Place::Map(at) => game.things().at(at).to_vec(),
    };
    Ok(others.into_iter().filter(|&t| t != id).collect())
}

/// Merge `id` into a look-alike stack in the same place, if there is one: that stack's
/// count grows by `id`'s and `id` is removed. Returns the stack `id` now belongs to.
pub fn merge(game: &mut Game, id: ThingId) -> Result<ThingId, Error> {
    let Some(into) = neighbours(game, id)?
        .into_iter()
        .find(|&t| stacks_with(game, t, id))
    else {
        return Ok(id);
    };
    let total = number(game, into).saturating_add(number(game, id));
    game.set_mut(into, &NUMBER, total)?;
    game.remove_thing_mut(id)?;
    Ok(into)
}

/// Take `n` items off the stack `id`, as a new thing in the same place (the rest stay in
/// `id`). Taking all of them (or more) takes `id` itself. Returns the part taken.
pub fn split(game: &mut Game, id: ThingId, n: i32) -> Result<ThingId, Error> {
    let have = number(game, id);
    if n >= have {
        return Ok(id);
    }
    let n = n.max(1);
    let t = game.things().get(id)?.clone();
    let place = t.place().ok_or(Error::NoSuchThing(id))?;
    let mut part = match t.proto() {
        Some(p) => game.library().create(p)?,
        None => alembic::Thing::new(alembic::Props::new()),
    };
    for (k, v) in t.props().iter() {
        part.set_raw_mut(k, v.clone());
    }
    part.set_modifiers_mut(t.modifiers().to_vec());
    part.set_mut(&NUMBER, n);
    game.set_mut(id, &NUMBER, have - n)?;
    game.add_thing_mut(place, part)
}
