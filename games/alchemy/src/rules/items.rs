//! The hero's dealings with items: picking up, dropping, drinking, eating, throwing,
//! wielding, analysing and crafting. Each checks its rule first and refuses with a plain
//! [`RuleError`] (which costs no time) before changing anything.

use std::collections::BTreeMap;
use std::sync::Arc;

use alembic::{
    Error, Game, HookCtx, Loc, Place, ThingId, hook::HookCall, hook::ON_CONSUME, props::Value,
};

use super::ai::ACTION;
use super::combat::{self, Source};
use super::stack::{self, number};
use super::world::{blocker_at, creature_at, items_at, tile_blocks};
use crate::error::{Refusal, RuleError, refuse};
use crate::events::{Event, Learned, Noun, emit, is_identified};
use crate::kinds::{DamageType, Slot};
use crate::props::{
    CR, IN, INV_LETTER, IS_ARMOUR, IS_FOOD, IS_IDENTIFIED, IS_INGREDIENT, IS_ITEM, IS_LAB,
    IS_POTION, IS_VIEW_BLOCKING, IS_WEAPON, IS_WIELDED, IS_WORKBENCH, NUMBER, RECIPE, WIELD_SLOT,
};
use crate::text::{base_name, count_name};

/// How far things can be thrown.
pub const THROW_RANGE: u32 = 10;

/// Whether `item` is in `holder`'s inventory.
#[must_use]
pub fn carries(game: &Game, holder: ThingId, item: ThingId) -> bool {
    matches!(game.things().place(item), Ok(Place::In(h)) if h == holder) && game.is(item, &IS_ITEM)
}

/// Items `holder` carries, in order.
#[must_use]
pub fn inventory(game: &Game, holder: ThingId) -> Vec<ThingId> {
    game.things()
        .contents(holder)
        .map(|c| {
            c.iter()
                .copied()
                .filter(|&t| game.is(t, &IS_ITEM))
                .collect()
        })
        .unwrap_or_default()
}

/// The letters a pack uses, in the order they are given out: `a`–`z`, then `A`–`Z`.
pub const PACK_LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Whether `c` is one of [`PACK_LETTERS`]: two range checks, where searching the string
/// compared up to 52 characters (checked for every carried item every turn).
#[must_use]
pub fn is_pack_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
}

/// The items `holder` carries in groups that look alike (one inventory line each), in order
/// of arrival. Items in use are never grouped.
pub fn pack_groups(game: &Game, holder: ThingId) -> Result<Vec<Vec<ThingId>>, Error> {
    let mut groups: Vec<(String, bool, Vec<ThingId>)> = Vec::new();
    for t in inventory(game, holder) {
        let base = base_name(game, t)?;
        let wielded = game.is(t, &IS_WIELDED);
        match groups
            .iter_mut()
            .find(|(b, w, _)| !wielded && !*w && *b == base)
        {
            Some((_, _, ids)) => ids.push(t),
            None => groups.push((base, wielded, vec![t])),
        }
    }
    Ok(groups.into_iter().map(|(_, _, ids)| ids).collect())
}

/// Give every item `holder` carries its pack letter: a group of look-alikes shares the
/// letter its earliest lettered item has (unless an earlier group holds that letter); a
/// group without one takes the first free letter. Letters already given never change while
/// their group stays together, so an item keeps its letter across lists and turns. With
/// all 52 letters in use, a newcomer has none (lists then show it without a letter).
pub fn assign_letters(game: &mut Game, holder: ThingId) -> Result<(), Error> {
    let groups = pack_groups(game, holder)?;
    let valid = is_pack_letter;
    let mut used: Vec<char> = Vec::new();
    let mut chosen: Vec<Option<char>> = Vec::with_capacity(groups.len());
    for ids in &groups {
        let mine = ids
            .iter()
            .filter_map(|&t| game.query_opt(t, &INV_LETTER).ok().flatten())
            .find(|&c| valid(c) && !used.contains(&c));
        if let Some(c) = mine {
            used.push(c);
        }
        chosen.push(mine);
    }
    for (ids, letter) in groups.iter().zip(chosen) {
        let letter = match letter {
            Some(c) => Some(c),
            None => {
                let free = PACK_LETTERS.chars().find(|c| !used.contains(c));
                if let Some(c) = free {
                    used.push(c);
                }
                free
            }
        };
        for &t in ids {
            let now = game.query_opt(t, &INV_LETTER).ok().flatten();
            match letter {
                Some(c) if now != Some(c) => game.set_mut(t, &INV_LETTER, c)?,
                None if now.is_some() => clear_letter(game, t)?,
                _ => {}
            }
        }
    }
    Ok(())
}

/// Whether `after`, a game that `before` became, can keep `before`'s pack letters for
/// `holder` as they are: [`assign_letters`] would change nothing in it.
///
/// That holds when `before`'s letters are as [`assign_letters`] leaves them (every game
/// the rules return is: [`new_game`](crate::new_game), a command, a wizard line) and
/// nothing the letters are derived from changed. Of the first, this checks only that every
/// carried item has a letter: a game edited by hand so that its pack groups differently
/// while every item keeps a letter (a kind identified straight in the library) keeps those
/// letters until its pack next changes. Of the second, it checks: the same contents
/// in the same order, each item's record the very same (pointer-equal, so its props,
/// modifiers and flags are unchanged; a carried thing that is an item in neither game, such
/// as an effect, may change) and each item's prototype the very same in the
/// library (identification writes the prototype; when no prototype changed at all, one
/// pointer comparison says so for every item). This costs a comparison of pointers per
/// carried item, where [`assign_letters`] names and groups the whole pack. `false` whenever
/// anything may have changed, or for a holder that is gone from either game.
#[must_use]
pub fn letters_unchanged(before: &Game, after: &Game, holder: ThingId) -> bool {
    let (Ok(was), Ok(now)) = (
        before.things().contents(holder),
        after.things().contents(holder),
    ) else {
        return false;
    };
    if was != now {
        return false;
    }
    let same_library = before.library().same_prototypes(after.library());
    was.iter().all(|&t| {
        let (Ok(old), Ok(new)) = (before.things().get(t), after.things().get(t)) else {
            return false;
        };
        let item = before.is(t, &IS_ITEM);
        if !std::ptr::eq(old, new) {
            // A thing that is an item in neither game (an effect whose duration ticks every
            // turn) has no letter and is in no group: its changes leave the letters alone.
            return !item && !after.is(t, &IS_ITEM);
        }
        if !item {
            return true;
        }
        // The letter as the record stores it (`assign_letters` writes it there; no modifier
        // touches it), read from the record at hand rather than asked of the game again.
        let lettered = matches!(
            old.props().get(INV_LETTER.key()),
            Some(&Value::Char(c)) if is_pack_letter(c)
        );
        let same_kind = same_library
            || old.proto().is_none_or(|p| {
                match (before.library().get(p), after.library().get(p)) {
                    (Ok(a), Ok(b)) => std::ptr::eq(a, b),
                    (Err(_), Err(_)) => true,
                    _ => false,
                }
            });
        lettered && same_kind
    })
}

/// Take away an item's pack letter (it left the pack).
pub fn clear_letter(game: &mut Game, item: ThingId) -> Result<(), Error> {
    let t = game.things().get(item)?;
    if t.props().get(INV_LETTER.key()).is_none() {
        return Ok(());
    }
    let mut t = t.clone();
    t.remove_prop_mut(INV_LETTER.key());
    game.update_thing_mut(t)
}

/// Mark the kind of `item` identified — for every item of that kind, in this game.
pub fn identify(game: &mut Game, item: ThingId) -> Result<(), Error> {
    let proto = game.things().get(item)?.proto().map(Arc::<str>::from);
    if let Some(p) = proto {
        let known = game.library().get(&p).is_ok_and(|k| k.is(&IS_IDENTIFIED));
        game.library_mut()
            .set_proto_prop_mut(&p, &IS_IDENTIFIED, true)?;
        // A discovery is worth experience, once per kind.
        if !known {
            super::progress::gain(game, super::progress::DISCOVERY_XP);
        }
    }
    Ok(())
}

fn need_carried(game: &Game, hero: ThingId, item: ThingId) -> Result<(), RuleError> {
    if !game.things().contains(item) || !carries(game, hero, item) {
        return refuse(Refusal::NotCarried);
    }
    Ok(())
}

/// Pick up `item`, or (`None`) the topmost item here together with every other item here
/// that looks the same — a pile of 3 strange herbs comes up in one go. What comes up merges
/// into a stack of its like in the pack (see [`stack`]).
pub fn pick_up(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: Option<ThingId>,
) -> Result<i32, RuleError> {
    let at = game.things().location(hero)?;
    let here = items_at(game, at);
    let taken: Vec<ThingId> = match item {
        Some(i) if here.contains(&i) => vec![i],
        Some(_) => return refuse(Refusal::NotHere),
        None => match here.last() {
            Some(&top) => {
                let look = base_name(game, top)?;
                let mut pile = Vec::new();
                for &t in &here {
                    if base_name(game, t)? == look {
                        pile.push(t);
                    }
                }
                pile
            }
            None => return refuse(Refusal::NothingHere),
        },
    };
    let Some(&first) = taken.first() else {
        return refuse(Refusal::NothingHere);
    };
    let look = Noun::of(game, first);
    let mut count = 0;
    for &t in &taken {
        count += number(game, t);
        game.move_thing_mut(t, Place::In(hero))?;
        stack::merge(game, t)?;
    }
    let items = look.counted(u32::try_from(count).unwrap_or(1));
    emit(game, ctx, Event::PickedUp { who: hero, items });
    Ok(ACTION)
}

/// Drop a carried item (unwielding it first): `count` of a stack (`None`: all of it). What
/// lands on a pile of its like joins it.
pub fn drop(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
    count: Option<u32>,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    let n = match count {
        Some(0) => return refuse(Refusal::DropNothing),
        Some(c) => i32::try_from(c).unwrap_or(i32::MAX),
        None => number(game, item),
    };
    let at = game.things().location(hero)?;
    let item = stack::split(game, item, n)?;
    game.set_mut(item, &IS_WIELDED, false)?;
    clear_letter(game, item)?;
    game.move_thing_mut(item, Place::Map(at))?;
    let dropped = Noun::of(game, item);
    stack::merge(game, item)?;
    emit(
        game,
        ctx,
        Event::Dropped {
            who: hero,
            item: dropped,
        },
    );
    Ok(ACTION / 2)
}

/// Drink a carried potion: its effect happens, then its kind is known.
pub fn quaff(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    if !game.is(item, &IS_POTION) {
        return refuse(Refusal::NotDrinkable);
    }
    let item = stack::split(game, item, 1)?;
    let known = is_identified(game, item);
    let potion = Noun::of(game, item);
    emit(game, ctx, Event::Drank { who: hero, potion });
    consume(game, ctx, hero, item, hero)?;
    if !known {
        identify(game, item)?;
        let item = Noun::of(game, item);
        emit(
            game,
            ctx,
            Event::Identified {
                item,
                how: Learned::Drinking,
            },
        );
    }
    game.remove_thing_mut(item)?;
    Ok(ACTION)
}

/// Eat carried food or an ingredient.
pub fn eat(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    if !(game.is(item, &IS_FOOD) || game.is(item, &IS_INGREDIENT)) {
        return refuse(Refusal::NotEdible);
    }
    let item = stack::split(game, item, 1)?;
    let food = Noun::of(game, item);
    emit(game, ctx, Event::Ate { who: hero, food });
    consume(game, ctx, hero, item, hero)?;
    game.remove_thing_mut(item)?;
    Ok(ACTION)
}

/// Run `item`'s consume hook on `target`.
pub fn consume(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    actor: ThingId,
    item: ThingId,
    target: ThingId,
) -> Result<(), Error> {
    ctx.run(
        &mut *game,
        &ON_CONSUME,
        HookCall {
            actor: Some(actor),
            target: Some(target),
            ..HookCall::on(item)
        },
    )?;
    Ok(())
}

/// Throw a carried item at `target` along a line of fire: walls and closed doors stop it,
/// the first creature on the line is hit. A potion shatters and splashes its effect on the
/// creature it hits; anything else lands where it stops.
pub fn throw(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
    target: Loc,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    let from = game.things().location(hero)?;
    if target.z != from.z || target == from {
        return refuse(Refusal::NoTarget);
    }
    if from.chebyshev(target) > THROW_RANGE {
        return refuse(Refusal::TooFar);
    }
    let item = stack::split(game, item, 1)?;
    let name = Noun::of(game, item);
    emit(
        game,
        ctx,
        Event::Threw {
            who: hero,
            item: name,
            at: target,
        },
    );
    fly(game, ctx, hero, item, target)?;
    Ok(ACTION)
}

/// The flight of `item` (one thing, no longer in a stack), thrown by `thrower` from where it
/// stands at `target` ([`throw`]'s rule, for the hero and for monsters alike): walls and
/// closed doors stop it, the first creature on the line is hit; a potion shatters and
/// splashes that creature.
pub(crate) fn fly(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    thrower: ThingId,
    item: ThingId,
    target: Loc,
) -> Result<(), Error> {
    let from = game.things().location(thrower)?;
    let name = Noun::of(game, item);
    game.set_mut(item, &IS_WIELDED, false)?;
    clear_letter(game, item)?;
    let potion = game.is(item, &IS_POTION);
    let mut last = from;
    let mut hit: Option<ThingId> = None;
    let mut wall = false;
    for l in from.line_to(target).into_iter().skip(1) {
        let blocked = tile_blocks(game, l)
            || blocker_at(game, l).is_some()
            || game
                .things()
                .at(l)
                .iter()
                .any(|&t| game.is(t, &IS_VIEW_BLOCKING));
        if blocked {
            wall = true;
            break;
        }
        if let Some(c) = creature_at(game, l) {
            hit = Some(c);
            last = l;
            break;
        }
        last = l;
    }
    match (hit, potion) {
        (Some(c), true) => {
            let over = Some(Noun::of(game, c));
            emit(
                game,
                ctx,
                Event::Shattered {
                    item: name,
                    over,
                    wall,
                },
            );
            let who = Noun::of(game, c);
            let before = crate::events::pending_len(ctx);
            consume(game, ctx, thrower, item, c)?;
            if game.things().contains(item) {
                game.remove_thing_mut(item)?;
            }
            // Say what it did: the damage (which no line says), or that it did nothing seen.
            let since = crate::events::pending_since(ctx, before);
            let damage: i32 = since
                .iter()
                .filter_map(|e| match e {
                    Event::Damaged { who, amount, .. } if *who == c => Some(*amount),
                    _ => None,
                })
                .sum();
            let silent = since.iter().all(|e| crate::text::lines(game, e).is_empty());
            if damage > 0 || silent {
                emit(
                    game,
                    ctx,
                    Event::Splashed {
                        who,
                        damage,
                        silent,
                    },
                );
            }
        }
        (Some(c), false) => {
            let target = Noun::of(game, c);
            emit(game, ctx, Event::ThrownHit { item: name, target });
            game.move_thing_mut(item, Place::Map(last))?;
            stack::merge(game, item)?;
            let dmg = game.rng().range(1, 3) as i32;
            combat::damage(
                game,
                ctx,
                c,
                dmg,
                DamageType::Impact,
                Source::Creature(thrower),
            )?;
        }
        (None, true) => {
            emit(
                game,
                ctx,
                Event::Shattered {
                    item: name,
                    over: None,
                    wall,
                },
            );
            game.remove_thing_mut(item)?;
        }
        (None, false) => {
            game.move_thing_mut(item, Place::Map(last))?;
            if wall {
                emit(game, ctx, Event::Bounced { item: name });
            }
            stack::merge(game, item)?;
        }
    }
    Ok(())
}

fn slot_of(game: &Game, item: ThingId) -> Result<Slot, Error> {
    game.query(item, &WIELD_SLOT)
}

/// Wield a weapon or put on armour; whatever was in the slot comes off.
pub fn wield(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    if !(game.is(item, &IS_WEAPON) || game.is(item, &IS_ARMOUR)) {
        return refuse(Refusal::NotWieldable);
    }
    if game.is(item, &IS_WIELDED) {
        return refuse(Refusal::AlreadyUsing);
    }
    let slot = slot_of(game, item)?;
    let mut replaced = None;
    for other in inventory(game, hero) {
        if other != item && game.is(other, &IS_WIELDED) && slot_of(game, other).ok() == Some(slot) {
            game.set_mut(other, &IS_WIELDED, false)?;
            replaced = Some(Noun::of(game, other));
        }
    }
    game.set_mut(item, &IS_WIELDED, true)?;
    let weapon = game.is(item, &IS_WEAPON);
    let item = Noun::of(game, item);
    emit(
        game,
        ctx,
        Event::Wielded {
            item,
            replaced,
            weapon,
        },
    );
    Ok(ACTION)
}

/// Stop wielding or wearing an item.
pub fn unwield(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    if !game.is(item, &IS_WIELDED) {
        return refuse(Refusal::NotUsing);
    }
    game.set_mut(item, &IS_WIELDED, false)?;
    let weapon = game.is(item, &IS_WEAPON);
    let item = Noun::of(game, item);
    emit(game, ctx, Event::Unwielded { item, weapon });
    Ok(ACTION)
}

/// Whether an apparatus with `flag` stands next to (or under) `at`.
#[must_use]
pub fn apparatus_near(game: &Game, at: Loc, flag: &alembic::Prop<bool>) -> bool {
    std::iter::once(at)
        .chain(at.neighbours8())
        .any(|l| game.things().at(l).iter().any(|&t| game.is(t, flag)))
}

/// Analyse a carried potion or ingredient at an analysis lab: the item is used up and, on
/// an intelligence check, its kind becomes known.
pub fn analyse(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    item: ThingId,
) -> Result<i32, RuleError> {
    need_carried(game, hero, item)?;
    let at = game.things().location(hero)?;
    if !apparatus_near(game, at, &IS_LAB) {
        return refuse(Refusal::NeedLab);
    }
    if !(game.is(item, &IS_POTION) || game.is(item, &IS_INGREDIENT)) {
        return refuse(Refusal::NotAnalysable);
    }
    if is_identified(game, item) {
        return refuse(Refusal::AlreadyKnown);
    }
    let item = stack::split(game, item, 1)?;
    let name = Noun::of(game, item);
    let int = game.query(hero, &IN)?;
    let roll = game.rng().range(1, 20) as i32;
    let learned = if roll <= int + 6 {
        identify(game, item)?;
        Some(Noun::of(game, item))
    } else {
        None
    };
    game.remove_thing_mut(item)?;
    emit(
        game,
        ctx,
        Event::Analysed {
            item: name,
            learned,
        },
    );
    Ok(ACTION * 2)
}

/// A recipe: the ingredient kinds and how many of each.
#[must_use]
pub fn recipe_of(game: &Game, potion_proto: &str) -> Option<BTreeMap<Arc<str>, usize>> {
    let p = game.library().get(potion_proto).ok()?;
    let list = p.get(&RECIPE).ok()?;
    let mut need: BTreeMap<Arc<str>, usize> = BTreeMap::new();
    for v in list.iter() {
        if let Value::Text(t) = v {
            *need.entry(t.clone()).or_default() += 1;
        }
    }
    Some(need)
}

/// For each ingredient kind of the recipe, the identified carried stacks that would be used
/// and how many of each. `Err` lists what is missing.
pub fn gather(
    game: &Game,
    hero: ThingId,
    potion_proto: &str,
) -> Result<Vec<(ThingId, i32)>, Vec<String>> {
    let Some(need) = recipe_of(game, potion_proto) else {
        return Err(vec!["a recipe".to_string()]);
    };
    let inv = inventory(game, hero);
    let mut used = Vec::new();
    let mut missing = Vec::new();
    for (kind, n) in need {
        let mut wanted = i32::try_from(n).unwrap_or(i32::MAX);
        for t in inv.iter().copied().filter(|&t| {
            game.things().get(t).ok().and_then(|x| x.proto()) == Some(&*kind)
                && is_identified(game, t)
        }) {
            if wanted == 0 {
                break;
            }
            let take = number(game, t).min(wanted);
            wanted -= take;
            used.push((t, take));
        }
        if wanted > 0 {
            missing.push(count_name(usize::try_from(wanted).unwrap_or(n), &kind));
        }
    }
    if missing.is_empty() {
        Ok(used)
    } else {
        Err(missing)
    }
}

/// Craft a potion of a known kind at an alchemy workbench from one set of carried,
/// identified ingredients. Yield: 1 + (CR − 5) / 3 potions (at least 1); exactly one
/// ingredient set is used whatever the yield.
pub fn craft(
    game: &mut Game,
    ctx: &mut HookCtx<'_>,
    hero: ThingId,
    potion_proto: &str,
) -> Result<i32, RuleError> {
    let at = game.things().location(hero)?;
    let Ok(proto) = game.library().get(potion_proto) else {
        return refuse(Refusal::NoSuchPotion);
    };
    if !proto.is(&IS_POTION) || proto.is_abstract() {
        return refuse(Refusal::NoSuchPotion);
    }
    if !proto.is(&IS_IDENTIFIED) {
        return refuse(Refusal::UnknownRecipe);
    }
    if !apparatus_near(game, at, &IS_WORKBENCH) {
        return refuse(Refusal::NeedWorkbench);
    }
    let Ok(used) = gather(game, hero, potion_proto) else {
        return refuse(Refusal::MissingIngredients);
    };
    for (t, take) in used {
        let part = stack::split(game, t, take)?;
        game.remove_thing_mut(part)?;
    }
    let cr = game.query(hero, &CR)?;
    let n = (1 + (cr - 5).max(0) / 3).max(1);
    let p = game.library().create(potion_proto)?;
    let brewed = game.add_thing_mut(hero, p)?;
    game.set_mut(brewed, &NUMBER, n)?;
    stack::merge(game, brewed)?;
    emit(
        game,
        ctx,
        Event::Crafted {
            potion: Arc::from(potion_proto),
            count: u32::try_from(n).unwrap_or(1),
        },
    );
    Ok(ACTION * 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_letter_is_exactly_one_of_the_pack_letters() {
        let mut letters = 0;
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            assert_eq!(is_pack_letter(c), PACK_LETTERS.contains(c), "{c:?}");
            letters += usize::from(is_pack_letter(c));
        }
        assert_eq!(letters, PACK_LETTERS.chars().count());
    }
}
