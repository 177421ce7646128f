//! The Caves' headless player: the policies of [`SimPolicy`] as one small bot that
//! the Caves' ruleset offers as its bot ([`Caves`](crate::Caves)'s `Ruleset::bot`), which
//! `alembic-sim` and the soak tests play.

use alembic::{Dir, Error, Game, Loc, path::Pathfinder, path::Search, rng::GameRng};
use serde::{Deserialize, Serialize};

use super::command::Command;
use super::geometry::{is_inner, level_box, walkable};
use super::props::{DIGGABLE, EXIT, STAIRS};
use super::view::{creature_at, creatures_on, is_hostile, player, status};

/// How the simulated player chooses commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub(crate) enum SimPolicy {
    /// Random steps (walking, digging, attacking whatever is there), fighting back when a
    /// hunter is beside it, taking stairs now and then: a fuzzer.
    Wander,
    /// A bot that heads for the stairs down (digging where that is shorter) and then for the
    /// way out, fighting what stands in its way.
    Descend,
}

/// The explore bot rests below this percentage of full health...
const REST_BELOW: i32 = 60;
/// ...when no hunter is this close (cells).
const REST_SAFE: u32 = 8;

/// The simulated player: its own RNG (never the game's, so watching doesn't change the game)
/// and, for [`SimPolicy::Descend`], the route it is following.
pub(crate) struct Bot {
    rng: GameRng,
    route: Vec<Loc>,
    finder: Pathfinder,
}

impl Bot {
    pub(crate) fn new(seed: u64) -> Self {
        Bot {
            rng: GameRng::seed_from(seed ^ 0xB07_CA7E5),
            route: Vec::new(),
            finder: Pathfinder::new(),
        }
    }

    pub(crate) fn choose(&mut self, g: &Game, policy: SimPolicy) -> Result<Command, Error> {
        let here = g.things().location(player(g)?)?;
        // Anyone hunting us and beside us gets hit first.
        for d in Dir::COMPASS {
            if creature_at(g, here + d).is_some_and(|c| is_hostile(g, c)) {
                return Ok(Command::Move(d));
            }
        }
        match policy {
            SimPolicy::Wander => Ok(self.wander(g, here)),
            SimPolicy::Descend if Self::should_rest(g, here)? => Ok(Command::Wait),
            SimPolicy::Descend => self.descend(g, here),
        }
    }

    fn wander(&mut self, g: &Game, here: Loc) -> Command {
        let stairs = g.tile_def(here).map_or(0, |d| d.get(&STAIRS).unwrap_or(0));
        if stairs != 0 && self.rng.one_in(1, 3) {
            return if stairs > 0 {
                Command::Descend
            } else {
                Command::Ascend
            };
        }
        match self.rng.below(10) {
            0 => Command::Wait,
            _ => {
                let i = self.rng.below(8) as usize;
                Command::Move(Dir::COMPASS[i % 8])
            }
        }
    }

    /// Rest (wait and heal) when below [`REST_BELOW`] of full health and no hunter is
    /// within [`REST_SAFE`] cells, as a careful player would.
    fn should_rest(g: &Game, here: Loc) -> Result<bool, Error> {
        let me = status(g)?;
        if me.hp * 100 >= me.max_hp * REST_BELOW {
            return Ok(false);
        }
        let threatened = creatures_on(g, here.z)
            .into_iter()
            .filter(|&c| is_hostile(g, c))
            .filter_map(|c| g.things().location(c).ok())
            .any(|l| l.chebyshev(here) <= REST_SAFE);
        Ok(!threatened)
    }

    fn descend(&mut self, g: &Game, here: Loc) -> Result<Command, Error> {
        let def = g.tile_def(here)?;
        if def.get(&STAIRS)? > 0 || def.is(&EXIT) {
            self.route.clear();
            return Ok(Command::Descend);
        }
        // Drop the steps already taken; re-plan when off the route or at its end.
        if let Some(i) = self.route.iter().position(|&l| l == here) {
            self.route.drain(..=i);
        } else {
            self.route.clear();
        }
        if self.route.is_empty() {
            self.route = self.plan(g, here);
        }
        match self.route.first().and_then(|&next| here.dir_to(next)) {
            Some(d) => Ok(Command::Move(d)),
            None => Ok(Command::Move(Dir::COMPASS[self.rng.below(8) as usize % 8])),
        }
    }

    /// The cheapest way to the nearest stairs down (or the way out), digging allowed at a
    /// price; creatures count as passable (the bot fights through them).
    fn plan(&mut self, g: &Game, here: Loc) -> Vec<Loc> {
        let Ok(levels) = g.var(&super::props::LEVELS) else {
            return Vec::new();
        };
        let goal = |l: Loc| {
            g.tile_def(l)
                .is_ok_and(|d| d.get(&STAIRS).unwrap_or(0) > 0 || d.is(&EXIT))
        };
        let cost = |_: Loc, to: Loc| {
            if walkable(g, to) {
                Some(if creature_at(g, to).is_some() { 3 } else { 1 })
            } else if is_inner(to, levels) && g.tile_def(to).is_ok_and(|d| d.is(&DIGGABLE)) {
                Some(4)
            } else {
                None
            }
        };
        let search = Search::new(level_box(here.z));
        match self.finder.nearest(here, &search, goal, cost) {
            Ok(path) => path.steps.into_iter().skip(1).collect(),
            Err(_) => Vec::new(),
        }
    }
}
