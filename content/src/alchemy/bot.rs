//! The `explore` policy: a simple bot that explores with Dijkstra maps, fights what is next
//! to it, rests when hurt, drinks unknown potions when healthy, picks things up, wears
//! armour, takes the stairs down, fetches the Stone and climbs out. It is the soak tester
//! and the balance gauge, not a strong player.

use alembic::{DijkstraMap, Dir, Game, GameRng, Loc, Pathfinder, Search, ThingId, explore_targets};

use super::command::Command;
use super::dungeon::walkable_with;
use super::props::{
    ATT_DAMAGE, HPS, HPS_MAX, IS_ARMOUR, IS_HOSTILE, IS_POTION, IS_STAIRS_DOWN, IS_STAIRS_UP,
    IS_STONE, IS_WEAPON, IS_WIELDED, WIELD_SLOT,
};
use super::rules::items::inventory;
use super::rules::memory::explored;
use super::rules::world::{STONE_LEVEL, TileTable, creature_at, hero, hero_view, level_box};
use super::text::is_identified;

/// Turns the bot explores a level before heading for known stairs down.
const LEVEL_BUDGET: u32 = 250;

/// The bot's memory between turns (the game value holds everything else).
#[derive(Debug)]
pub struct Bot {
    rng: GameRng,
    z: i32,
    turns_here: u32,
    explore: Option<DijkstraMap>,
    built_at: u64,
    stairs_down: Vec<Loc>,
    stairs_up: Vec<Loc>,
    stone: Option<Loc>,
    refused: u32,
    paths: Pathfinder,
    explored_all: bool,
}

impl Bot {
    /// A bot whose own random choices come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Bot {
            rng: GameRng::seed_from(seed.rotate_left(17) ^ 0xB07),
            z: 0,
            turns_here: 0,
            explore: None,
            built_at: 0,
            stairs_down: Vec::new(),
            stairs_up: Vec::new(),
            stone: None,
            refused: 0,
            paths: Pathfinder::new(),
            explored_all: false,
        }
    }

    /// Tell the bot its last command was refused (it then tries something random).
    pub fn refused(&mut self) {
        self.refused += 1;
        self.explore = None;
    }

    fn random_move(&mut self) -> Command {
        Command::Move(Dir::COMPASS[self.rng.below(8) as usize])
    }

    /// The next command for `game`.
    pub fn choose(&mut self, game: &Game) -> Command {
        let Ok(h) = hero(game) else {
            return Command::Wait;
        };
        let Ok(at) = game.location(h) else {
            return Command::Wait;
        };
        if self.refused > 0 {
            self.refused = 0;
            if self.rng.chance(0.5) {
                return self.random_move();
            }
        }
        if at.z != self.z {
            self.z = at.z;
            self.turns_here = 0;
            self.explore = None;
            self.stairs_down.clear();
            self.stairs_up.clear();
            self.stone = None;
            self.explored_all = false;
        }
        self.turns_here += 1;
        let view = hero_view(game).ok();
        let mut monsters_seen = false;
        if let Some(v) = &view {
            for l in v.iter() {
                for &t in game.things_at(l) {
                    if game.is(t, &IS_STAIRS_DOWN) && !self.stairs_down.contains(&l) {
                        self.stairs_down.push(l);
                    }
                    if game.is(t, &IS_STAIRS_UP) && !self.stairs_up.contains(&l) {
                        self.stairs_up.push(l);
                    }
                    if game.is(t, &IS_STONE) {
                        self.stone = Some(l);
                    }
                    if t != h && game.is(t, &IS_HOSTILE) && game.is(t, &super::props::IS_CREATURE) {
                        monsters_seen = true;
                    }
                }
            }
        }
        // Fight what is next to us.
        for d in Dir::COMPASS {
            if let Some(c) = creature_at(game, at + d)
                && c != h
                && game.is(c, &IS_HOSTILE)
            {
                return Command::Move(d);
            }
        }
        let hp = game.query(h, &HPS).unwrap_or(1);
        let max = game.query(h, &HPS_MAX).unwrap_or(1).max(1);
        let inv = inventory(game, h);
        // Badly hurt: a known healing potion, else a gamble on an unknown one.
        if hp * 100 / max < 35 {
            let heal = inv.iter().copied().find(|&t| {
                game.is(t, &IS_POTION)
                    && is_identified(game, t)
                    && game
                        .get_thing(t)
                        .ok()
                        .and_then(|x| x.proto())
                        .is_some_and(|p| p.contains("healing"))
            });
            let gamble = inv
                .iter()
                .copied()
                .find(|&t| game.is(t, &IS_POTION) && !is_identified(game, t));
            if let Some(p) = heal.or(gamble) {
                return Command::Quaff(p);
            }
        }
        if hp * 100 / max < 60 && !monsters_seen {
            return Command::Wait;
        }
        // Take what lies here.
        let here_items = super::rules::world::items_at(game, at);
        if !here_items.is_empty() && inv.len() < 22 {
            return Command::PickUp(None);
        }
        if let Some(c) = self.equip(game, &inv) {
            return c;
        }
        // Healthy: find out what unknown potions do.
        if hp * 100 / max > 70
            && let Some(p) = inv
                .iter()
                .copied()
                .find(|&t| game.is(t, &IS_POTION) && !is_identified(game, t))
        {
            return Command::Quaff(p);
        }
        let has_stone = inv.iter().any(|&t| game.is(t, &IS_STONE));
        if has_stone {
            if self.stairs_up.contains(&at) {
                return Command::Ascend;
            }
            if let Some(c) = self.go_to_any(game, h, at, &self.stairs_up.clone()) {
                return c;
            }
        } else {
            if at.z == STONE_LEVEL
                && let Some(s) = self.stone
                && let Some(c) = self.go_to_any(game, h, at, &[s])
            {
                return c;
            }
            let want_down =
                at.z > STONE_LEVEL && (self.turns_here > LEVEL_BUDGET || self.explored_all);
            if want_down {
                if self.stairs_down.contains(&at) {
                    return Command::Descend;
                }
                if let Some(c) = self.go_to_any(game, h, at, &self.stairs_down.clone()) {
                    return c;
                }
            }
        }
        if let Some(c) = self.explore_step(game, at) {
            return c;
        }
        // Level explored and nothing to do: head for whatever stairs are known.
        let targets: Vec<Loc> = if has_stone || at.z <= STONE_LEVEL {
            self.stairs_up.clone()
        } else {
            self.stairs_down.clone()
        };
        if targets.contains(&at) {
            return if has_stone || at.z <= STONE_LEVEL {
                Command::Ascend
            } else {
                Command::Descend
            };
        }
        if let Some(c) = self.go_to_any(game, h, at, &targets) {
            return c;
        }
        self.random_move()
    }

    /// Put on armour for an empty slot, or a weapon that hits harder.
    fn equip(&self, game: &Game, inv: &[ThingId]) -> Option<Command> {
        let worn_slots: Vec<String> = inv
            .iter()
            .filter(|&&t| game.is(t, &IS_WIELDED))
            .filter_map(|&t| game.query(t, &WIELD_SLOT).ok().map(|s| s.to_string()))
            .collect();
        for &t in inv {
            if game.is(t, &IS_ARMOUR) && !game.is(t, &IS_WIELDED) {
                let slot = game.query(t, &WIELD_SLOT).ok()?.to_string();
                if !worn_slots.contains(&slot) {
                    return Some(Command::Wield(t));
                }
            }
        }
        let damage = |t: ThingId| -> i64 {
            game.get_thing(t)
                .ok()
                .and_then(|x| {
                    x.modifiers().iter().find_map(|m| match (&m.key, &m.op) {
                        (k, alembic::ModOp::Set(alembic::Value::Int(v)))
                            if k == ATT_DAMAGE.key() =>
                        {
                            Some(*v)
                        }
                        _ => None,
                    })
                })
                .unwrap_or(0)
        };
        let current = inv
            .iter()
            .copied()
            .find(|&t| game.is(t, &IS_WEAPON) && game.is(t, &IS_WIELDED))
            .map_or(0, damage);
        inv.iter()
            .copied()
            .filter(|&t| game.is(t, &IS_WEAPON) && !game.is(t, &IS_WIELDED))
            .find(|&t| damage(t) > current)
            .map(Command::Wield)
    }

    /// One step down the exploration Dijkstra map (rebuilt when stale).
    fn explore_step(&mut self, game: &Game, at: Loc) -> Option<Command> {
        let area = level_box(at.z);
        let stale = self.explore.is_none() || game.turn() >= self.built_at + 25;
        if !stale && let Some(map) = &self.explore {
            let table = TileTable::new(game);
            let cost = |from: Loc, to: Loc| -> Option<u32> {
                (walkable_with(&table, game, to) && walkable_with(&table, game, from)).then_some(1)
            };
            if let Some(step) = map.next_step(at, cost) {
                return dir_to(at, step).map(Command::Move);
            }
        }
        // Snapshot walkability and memory once: the searches below ask about each cell
        // many times.
        let w = area.width();
        let index = |l: Loc| -> Option<usize> {
            area.contains(l)
                .then(|| ((l.y - area.min.y) * w + (l.x - area.min.x)) as usize)
        };
        let cells: Vec<Loc> = area.iter().collect();
        let table = TileTable::new(game);
        let pass: Vec<bool> = cells
            .iter()
            .map(|&l| walkable_with(&table, game, l))
            .collect();
        let seen: Vec<bool> = cells.iter().map(|&l| explored(game, l)).collect();
        let at_ix =
            |v: &Vec<bool>, l: Loc| index(l).and_then(|i| v.get(i).copied()).unwrap_or(false);
        let goals = explore_targets(area, |l| at_ix(&seen, l), |l| at_ix(&pass, l));
        if goals.is_empty() {
            self.explore = None;
            self.explored_all = true;
            return None;
        }
        self.explored_all = false;
        let cost = |from: Loc, to: Loc| -> Option<u32> {
            (at_ix(&pass, to) && at_ix(&pass, from)).then_some(1)
        };
        let map = DijkstraMap::build(area, &goals, cost);
        self.built_at = game.turn();
        let step = map.next_step(at, cost);
        self.explore = Some(map);
        step.and_then(|s| dir_to(at, s)).map(Command::Move)
    }

    /// A step toward the nearest of `targets` by A*.
    fn go_to_any(&mut self, game: &Game, _h: ThingId, at: Loc, targets: &[Loc]) -> Option<Command> {
        let table = TileTable::new(game);
        let cost = |_: Loc, to: Loc| -> Option<u32> {
            if !walkable_with(&table, game, to) {
                return None;
            }
            Some(if creature_at(game, to).is_some() {
                5
            } else {
                1
            })
        };
        let search = Search::new(level_box(at.z));
        let mut best: Option<(u64, Loc)> = None;
        let mut sorted = targets.to_vec();
        sorted.sort_by_key(|t| at.chebyshev(*t));
        for &t in sorted.iter().take(3) {
            if let Ok(p) = self.paths.astar(at, t, &search, cost)
                && let Some(s) = p.first_step()
                && best.is_none_or(|(c, _)| p.cost < c)
            {
                best = Some((p.cost, s));
            }
        }
        best.and_then(|(_, s)| dir_to(at, s)).map(Command::Move)
    }
}

fn dir_to(from: Loc, to: Loc) -> Option<Dir> {
    Dir::from_offset(to.x - from.x, to.y - from.y)
}
