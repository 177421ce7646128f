//! Alchemy's answers to the session's journeys ([`Journeys`]): travel to a remembered cell
//! (a click), to the nearest known stairs (`>` and `<` away from stairs), explore (`o`),
//! rest (`Z`) and search (`s`), and auto-fight (`Tab`). The session drives them one step a
//! tick, as it does for every game; this module says where the next step goes and what
//! stops a journey.
//!
//! Paths cross only ground the hero has seen (and the dark gaps between seen ground, at a
//! price), go round the creatures in view, and open closed doors by stepping into them. A
//! journey stops when a creature comes into view, when a hostile that has noticed the hero
//! and can reach them is in view (the threat rule of DCSS's "There are monsters nearby!"),
//! and when the hero is hurt; the session also stops it when a step says anything.

use std::collections::HashSet;

use alembic::path::{Pathfinder, Search};
use alembic::{Dir, Game, Loc, ThingId, fov::VisibleSet};
use alembic_session::Ruleset;
use alembic_session::ruleset::{Foe, Goal, Journeys, RestRefused, View};

use crate::contract::Alchemy;
use crate::props::HPS_MAX;
use crate::rules::{creature_at, explored, finds_way, items_at, level_box};
use crate::view::{self, Stairs, TileTable, hero_id, is_creature, is_hostile, visible};
use crate::{Command, text};

/// The bit of the view toggles that turns autopickup on (the board's `A`): explore goes to
/// the items it sees and picks them up. Off at first, as Alchemy's own screen had it.
pub const AUTOPICKUP: u32 = 0;

/// Whether autopickup is on in `view`.
fn autopickup(view: &View) -> bool {
    view.toggles & (1 << AUTOPICKUP) != 0
}

/// What travel pays to cross a never-seen cell in a gap of the map: one the torch never lit
/// between seen ground (at least two seen, walkable neighbours). Dearer than a detour over
/// seen ground; the path is planned again each step.
const GAP_COST: u32 = 8;

fn hero_at(g: &Game) -> Option<Loc> {
    g.things().location(hero_id(g).ok()?).ok()
}

/// The creatures the hero makes out in `seen`, other than the hero.
fn creatures_in(g: &Game, seen: &VisibleSet) -> Vec<ThingId> {
    let hero = hero_id(g).ok();
    let mut out: Vec<ThingId> = seen
        .iter()
        .flat_map(|l| g.things().at(l).iter().copied())
        .filter(|&t| Some(t) != hero && is_creature(g, t))
        .filter(|&t| view::makes_out(g, seen, t))
        .collect();
    out.sort_unstable();
    out
}

/// The creatures the hero sees.
fn in_view(g: &Game) -> Vec<ThingId> {
    visible(g).map(|v| creatures_in(g, &v)).unwrap_or_default()
}

/// Whether the hostile `t` threatens the hero: it has noticed them and would find its way
/// to them.
fn is_threat(g: &Game, t: ThingId) -> bool {
    is_hostile(g, t) && view::has_noticed(g, t) && hero_at(g).is_some_and(|at| finds_way(g, t, at))
}

/// "A goblin", for the start of a sentence.
fn a_name(g: &Game, t: ThingId) -> String {
    let name = text::a_name(g, t).unwrap_or_else(|_| "something".to_owned());
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Seen, walkable ground (closed doors cost one more); `None` where travel never goes.
fn ground_cost(g: &Game, table: &TileTable, to: Loc) -> Option<u32> {
    if !explored(g, to) || table.blocks(g, to) || table.dangerous(g, to) {
        return None;
    }
    if view::blocking_thing_at(g, to) {
        return None;
    }
    Some(1 + u32::from(view::door_at(g, to).is_some()))
}

/// [`ground_cost`], with the creatures in view in the way.
fn travel_cost(g: &Game, table: &TileTable, seen: Option<&VisibleSet>, to: Loc) -> Option<u32> {
    if creature_at(g, to).is_some()
        && seen.is_some_and(|v| v.contains(to))
        && !view::hidden_in_dark(g, to)
    {
        return None;
    }
    ground_cost(g, table, to)
}

/// A never-seen cell between seen ground.
fn gap_cost(g: &Game, table: &TileTable, to: Loc) -> Option<u32> {
    if explored(g, to) {
        return None;
    }
    let known = to
        .neighbours8()
        .filter(|&n| ground_cost(g, table, n).is_some())
        .count();
    (known >= 2).then_some(GAP_COST)
}

/// The first step of the cheapest known path to the nearest cell where `goal` holds.
fn step_towards(g: &Game, goal: impl Fn(Loc) -> bool) -> Option<Dir> {
    let at = hero_at(g)?;
    let table = TileTable::new(g);
    let seen = visible(g).ok();
    let cost = |_: Loc, to: Loc| travel_cost(g, &table, seen.as_ref(), to);
    let path = Pathfinder::new()
        .nearest(
            at,
            &Search::new(level_box(at.z)),
            |l| l != at && goal(l),
            cost,
        )
        .ok()?;
    at.dir_to(path.first_step()?)
}

/// The first step towards `target` over seen ground and the gaps in it.
fn step_to(g: &Game, target: Loc, through_creatures: bool) -> Option<Dir> {
    let at = hero_at(g)?;
    if at.z != target.z || at == target {
        return None;
    }
    let table = TileTable::new(g);
    let seen = visible(g).ok();
    let cost = |_: Loc, to: Loc| {
        if through_creatures && to == target {
            return Some(1);
        }
        travel_cost(g, &table, seen.as_ref(), to).or_else(|| gap_cost(g, &table, to))
    };
    let path = alembic::path::astar(at, target, &Search::new(level_box(at.z)), cost).ok()?;
    at.dir_to(path.first_step()?)
}

/// A seen cell bordering unexplored space.
fn frontier(g: &Game, l: Loc) -> bool {
    explored(g, l)
        && l.neighbours8()
            .any(|n| level_box(l.z).contains(n) && !explored(g, n))
}

/// The hero's hit points and their most (read directly: the session asks before and after
/// every command, and the whole status, with its attack summary and effects, cost 3.6% of a
/// busy web server's CPU).
fn hit_points(g: &Game) -> Option<(i32, i32)> {
    let h = hero_id(g).ok()?;
    Some((view::hit_points(g, h)?, g.query(h, &HPS_MAX).ok()?))
}

impl Journeys<Command> for Alchemy {
    fn route(&self, g: &Game, goal: Goal) -> Option<Dir> {
        match goal {
            Goal::Cell(target) => step_to(g, target, false),
            Goal::Stairs { down } => {
                step_towards(g, |l| view::known_stairs_at(g, l, Stairs::down(down)))
            }
            Goal::Explore => step_towards(g, |l| frontier(g, l)),
        }
    }

    fn route_in(&self, g: &Game, goal: Goal, view: &View) -> Option<Dir> {
        if goal != Goal::Explore || !autopickup(view) {
            return self.route(g, goal);
        }
        let seen = visible(g).ok();
        let wanted =
            |l: Loc| seen.as_ref().is_some_and(|v| v.contains(l)) && !items_at(g, l).is_empty();
        step_towards(g, |l| frontier(g, l) || wanted(l))
    }

    fn explore_here(&self, g: &Game, view: &View) -> Option<Command> {
        let at = hero_at(g)?;
        let pick = Command::PickUp(None);
        (autopickup(view) && !items_at(g, at).is_empty() && self.apply(g, &pick).is_ok())
            .then_some(pick)
    }

    fn wait(&self) -> Option<Command> {
        Some(Command::Wait)
    }

    fn rested(&self, g: &Game) -> bool {
        hit_points(g).is_none_or(|(hp, max)| hp >= max)
    }

    fn may_rest(&self, g: &Game, search: bool) -> Result<(), RestRefused> {
        self.may_go(g)?;
        if !search && self.rested(g) {
            return Err(RestRefused(
                "You are not hurt: nothing to rest for (s searches, . waits a turn).".into(),
            ));
        }
        Ok(())
    }

    /// Not with a threat in view (as DCSS's "There are monsters nearby!").
    fn may_go(&self, g: &Game) -> Result<(), RestRefused> {
        match in_view(g).into_iter().find(|&t| is_threat(g, t)) {
            Some(t) => {
                let name = text::a_name(g, t).unwrap_or_else(|_| "something".to_owned());
                Err(RestRefused(format!("Not with {name} in view.")))
            }
            None => Ok(()),
        }
    }

    fn fights(&self) -> bool {
        true
    }

    fn foes(&self, g: &Game) -> Vec<Foe> {
        let Some(at) = hero_at(g) else {
            return Vec::new();
        };
        let mut foes: Vec<(u32, Foe)> = in_view(g)
            .into_iter()
            .filter(|&t| is_hostile(g, t))
            .filter_map(|t| {
                let there = g.things().location(t).ok()?;
                let step = if at.chebyshev(there) == 1 {
                    at.dir_to(there)?
                } else {
                    step_to(g, there, true)?
                };
                let name = text::a_name(g, t).unwrap_or_else(|_| "something".to_owned());
                Some((at.chebyshev(there), Foe { id: t, name, step }))
            })
            .collect();
        foes.sort_by_key(|(d, f)| (*d, f.id));
        foes.into_iter().map(|(_, f)| f).collect()
    }

    fn health(&self, g: &Game) -> Option<(i64, i64)> {
        hit_points(g).map(|(hp, max)| (i64::from(hp), i64::from(max)))
    }

    fn place(&self, g: &Game) -> Option<Loc> {
        hero_at(g)
    }

    /// Opening a door on the way: the hero stands where they stood, and a door beside
    /// them that was closed is open.
    fn says_nothing_new(&self, before: &Game, after: &Game) -> bool {
        let (Some(was), Some(at)) = (hero_at(before), hero_at(after)) else {
            return false;
        };
        was == at
            && at.neighbours8().any(|l| {
                view::door_at(before, l) == Some(view::DoorState::Closed)
                    && view::door_at(after, l) == Some(view::DoorState::Open)
            })
    }

    fn interrupt(&self, before: &Game, after: &Game) -> Option<String> {
        self.interrupt_told(before, after, &mut HashSet::new())
    }

    /// A creature that comes into view is announced once in a game (`told`); seen again
    /// later, it stops a journey only when it is after the hero.
    fn interrupt_told(
        &self,
        before: &Game,
        after: &Game,
        told: &mut HashSet<ThingId>,
    ) -> Option<String> {
        let was = in_view(before);
        let now = in_view(after);
        if let Some(&new) = now.iter().find(|t| !was.contains(t) && !told.contains(t)) {
            told.insert(new);
            return Some(format!("{} comes into view.", a_name(after, new)));
        }
        if let Some(&t) = now.iter().find(|&&t| is_threat(after, t)) {
            return Some(format!("{} is after you.", a_name(after, t)));
        }
        match (hit_points(before), hit_points(after)) {
            (Some((b, _)), Some((a, _))) if a < b => Some("You are hurt!".into()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// A creature that comes into view stops a journey once in a game: after the session
    /// has been told of it, seeing it come again says nothing of its coming.
    #[test]
    fn a_creature_is_announced_once_a_game() {
        let rules = Alchemy::new().unwrap();
        let before = rules.new_game(5).unwrap();
        let at = hero_at(&before).unwrap();
        let seen = visible(&before).unwrap();
        // A creature of the hero's level out of view, brought beside the hero.
        let foe = level_box(at.z)
            .iter()
            .filter(|&l| !seen.contains(l))
            .find_map(|l| creature_at(&before, l))
            .expect("a creature out of view");
        let beside = at
            .neighbours8()
            .find(|&l| finds_way(&before, foe, l) && creature_at(&before, l).is_none())
            .expect("room beside the hero");
        let mut after = before.clone();
        after.move_thing_mut(foe, beside).unwrap();
        assert!(
            in_view(&after).contains(&foe),
            "the creature is in view now"
        );
        let mut told = HashSet::new();
        let first = rules.interrupt_told(&before, &after, &mut told);
        assert!(
            first
                .as_deref()
                .is_some_and(|w| w.ends_with("comes into view.")),
            "{first:?}"
        );
        assert!(told.contains(&foe));
        let again = rules.interrupt_told(&before, &after, &mut told);
        assert!(
            !again
                .as_deref()
                .is_some_and(|w| w.ends_with("comes into view.")),
            "{again:?}"
        );
        // With no memory (a bot, a test), every coming is told.
        assert_eq!(rules.interrupt(&before, &after), first);
    }
}
