//! The `explore` policy: a careful bot that is the soak tester and the balance gauge.
//!
//! Each turn it looks at what the hero sees and, in order:
//! - drinks known potions that make it permanently stronger, and cures for poison;
//! - with monsters in sight, judges the fight by the expected damage of both sides
//!   ([`expected_damage`]); a fight it would win with hit points to spare it takes, killing
//!   the most dangerous monster first; otherwise it throws known harmful potions, drinks
//!   healing, runs for the nearest stairs it can reach first (and takes them, whichever
//!   way they lead), or rolls down the engine's Dijkstra *flee* map; cornered, it drinks
//!   what might help and fights;
//! - with nothing in sight and hurt, it rests (eating, drinking from fountains);
//! - otherwise it picks up what it sees, wears and wields better gear, tries unknown potions
//!   while healthy, explores (nearest-frontier search), takes the stairs down, fetches the Stone
//!   on level −10 and climbs out.
//!
//! It reads only what the hero could know: what is in view, the hero's map memory, and
//! identified item kinds.

use std::cell::Cell;

use alembic::{
    Dir, Game, Library, Loc, LocBox, ThingId, fov::VisibleSet, hook::ON_CONSUME, path::DijkstraMap,
    path::Pathfinder, path::Search, props::ModOp, props::Value, rng::GameRng,
};

use super::command::Command;
use super::dungeon::{blocks_walkers, walkable_tile, walkable_with};
use super::hooks::Behaviour;
use super::kinds::Slot;
use super::props::{
    AG, ARMOUR, ATT_DAMAGE, BLOCK, GIVES_EFFECT, HEAL_AMOUNT, HP_PER_TURN, HPS, HPS_MAX, IS_ARMOUR,
    IS_CREATURE, IS_EXIT, IS_FOOD, IS_HARMFUL, IS_HOSTILE, IS_IMMORTAL, IS_INGREDIENT,
    IS_INVINCIBLE, IS_POISON, IS_POTION, IS_STAIRS_DOWN, IS_STAIRS_UP, IS_STONE, IS_WEAPON,
    IS_WIELDED, SK, SPEED, ST, TG, WIELD_SLOT,
};
use super::rules::combat::expected_damage;
use super::rules::effects::effects_of;
use super::rules::items::{THROW_RANGE, inventory};
use super::rules::memory::{explored_cells, remembered_thing};
use super::rules::world::{
    STONE_LEVEL, TileTable, blocker_at, creature_at, hero, hero_view, items_at, level_box,
    scenery_among, scenery_at, tile_blocks, transparent,
};
use super::text::is_identified;

/// Exploration turns on a level (resting and fighting aside) before heading for known stairs
/// down, below the first levels.
const EXPLORE_BUDGET: u32 = 400;
/// Levels down to this depth are explored completely (they are survivable and hold potions).
const FULL_EXPLORE_DEPTH: i32 = 3;
/// Monsters this close (Chebyshev) and in view count as a threat.
const THREAT_RANGE: u32 = 7;
/// Take a fight whose expected cost is below this share of the current hit points.
const FIGHT_SHARE: f64 = 0.5;
/// Rest below this share of maximum hit points, until this share.
const REST_BELOW: i32 = 65;
const REST_UNTIL: i32 = 95;
/// How long to shun the staircase it fled by (turns).
const SHUN_TURNS: u64 = 300;
/// Most items it carries.
const MAX_ITEMS: usize = 24;

/// What a known potion is good for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// Restores hit points at once.
    Heal,
    /// Restores hit points over time.
    Regen,
    /// Makes the drinker permanently stronger.
    Gain,
    /// Removes poison or harmful effects.
    Cure,
    /// A temporary benefit.
    Buff,
    /// Harms whoever it touches: for throwing.
    Harm,
    /// Anything else (chaos).
    Other,
}

/// A command and why it was chosen.
pub type Choice = (Command, Reason);

/// One tactic: a command and its reason when the tactic has something to do in this
/// situation, else `None` (the next tactic of [`PLAN`] is asked).
pub type TacticFn = fn(&mut Bot, &Game, &Situation) -> Option<Choice>;

/// The bot's tactics, in the order they are asked each turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tactic {
    /// Cure poison, drink permanent gains.
    Remedy,
    /// Heal when low; from a losing fight throw, run, or gamble when cornered.
    Flee,
    /// Strike the most dangerous adjacent monster, or wait for a winnable one.
    Fight,
    /// Nothing in sight and hurt: rest, eat, drink at fountains.
    Rest,
    /// Pick up, drop junk, equip, try potions, fetch items in view.
    Loot,
    /// Fetch the Stone and climb out with it.
    Return,
    /// Leave a level that holds a monster it cannot beat.
    Leave,
    /// Take the stairs down when the level is done.
    Descend,
    /// Walk to the nearest unexplored ground.
    Explore,
    /// Explored and nothing else to do: any stairs.
    MoveOn,
}

/// Every tactic with its function, in the order they are asked.
pub const PLAN: [(Tactic, TacticFn); 10] = [
    (Tactic::Remedy, Bot::remedy),
    (Tactic::Flee, Bot::flee),
    (Tactic::Fight, Bot::fight),
    (Tactic::Rest, Bot::rest),
    (Tactic::Loot, Bot::loot),
    (Tactic::Return, Bot::return_home),
    (Tactic::Leave, Bot::leave),
    (Tactic::Descend, Bot::descend),
    (Tactic::Explore, Bot::explore),
    (Tactic::MoveOn, Bot::move_on),
];

/// Why the bot chose a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// There is no hero (the game is over or broken): it waits.
    NoHero,
    /// Its last command was refused: a random step.
    Refused,
    /// It went back and forth with nothing about: a random step.
    Unstick,
    /// Nothing to do at all: a random step.
    Lost,
    /// Drinking a known cure while poisoned or hurt by an effect.
    Cure,
    /// Drinking a known potion of permanent gain.
    Gain,
    /// Drinking healing, low in a fight.
    Heal,
    /// Throwing a harmful potion at a monster it cannot beat.
    Throw,
    /// Running from a fight it cannot win.
    Escape,
    /// Cornered: drinking a helpful potion.
    CorneredBuff,
    /// Cornered and low: drinking regeneration or an unknown potion.
    CorneredGamble,
    /// Striking an adjacent monster.
    Fight,
    /// Letting a monster it can beat come to it.
    Hold,
    /// Resting: drinking regeneration or healing.
    RestDrink,
    /// Resting: eating.
    RestEat,
    /// Resting: going to a fountain or drinking from it.
    Fountain,
    /// Resting: waiting.
    Rest,
    /// Picking up an item here.
    PickUp,
    /// Dropping junk, the pack nearly full.
    DropJunk,
    /// Wearing or wielding better gear.
    Equip,
    /// Trying an unknown potion while healthy.
    TryPotion,
    /// Walking to an item in view.
    Fetch,
    /// Climbing out with the Stone.
    Climb,
    /// Walking to the Stone.
    ToStone,
    /// Leaving a level with a monster it cannot beat.
    LeaveLevel,
    /// Resting before taking the stairs down.
    RestBeforeStairs,
    /// Going to the stairs down, the level done.
    ToStairsDown,
    /// Exploring.
    Explore,
    /// Taking any stairs, nothing else to do.
    Stairs,
}

impl Reason {
    /// The tactic this reason belongs to (`None` for the reflexes: no hero, refused,
    /// unstick, lost).
    #[must_use]
    pub fn tactic(self) -> Option<Tactic> {
        use Reason as R;
        Some(match self {
            R::NoHero | R::Refused | R::Unstick | R::Lost => return None,
            R::Cure | R::Gain => Tactic::Remedy,
            R::Heal | R::Throw | R::Escape | R::CorneredBuff | R::CorneredGamble => Tactic::Flee,
            R::Fight | R::Hold => Tactic::Fight,
            R::RestDrink | R::RestEat | R::Fountain | R::Rest => Tactic::Rest,
            R::PickUp | R::DropJunk | R::Equip | R::TryPotion | R::Fetch => Tactic::Loot,
            R::Climb | R::ToStone => Tactic::Return,
            R::LeaveLevel => Tactic::Leave,
            R::RestBeforeStairs | R::ToStairsDown => Tactic::Descend,
            R::Explore => Tactic::Explore,
            R::Stairs => Tactic::MoveOn,
        })
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Reason as R;
        f.write_str(match self {
            R::NoHero => "no hero",
            R::Refused => "refused",
            R::Unstick => "unstick",
            R::Lost => "lost",
            R::Cure => "cure",
            R::Gain => "gain",
            R::Heal => "heal",
            R::Throw => "throw",
            R::Escape => "escape",
            R::CorneredBuff => "cornered buff",
            R::CorneredGamble => "cornered gamble",
            R::Fight => "fight",
            R::Hold => "hold",
            R::RestDrink => "rest: drink",
            R::RestEat => "rest: eat",
            R::Fountain => "fountain",
            R::Rest => "rest",
            R::PickUp => "pick up",
            R::DropJunk => "drop junk",
            R::Equip => "equip",
            R::TryPotion => "try potion",
            R::Fetch => "fetch",
            R::Climb => "climb",
            R::ToStone => "to stone",
            R::LeaveLevel => "leave level",
            R::RestBeforeStairs => "rest before stairs",
            R::ToStairsDown => "to stairs down",
            R::Explore => "explore",
            R::Stairs => "stairs",
        })
    }
}

/// What the bot sees and weighs this turn: the hero's health and pack, the monsters in
/// view and whether their fight is winnable, the items in view.
#[derive(Clone, Debug)]
pub struct Situation {
    hero: ThingId,
    at: Loc,
    hp: i32,
    max: i32,
    pct: i32,
    inv: Vec<ThingId>,
    has_stone: bool,
    unknown_potion: Option<ThingId>,
    threats: Vec<Threat>,
    items_seen: Vec<(ThingId, Loc)>,
    winnable: bool,
    /// What each thing of `inv` is good for as a potion ([`potion_use`]), in `inv`'s order.
    uses: Vec<Option<Use>>,
}

impl Situation {
    fn new(
        game: &Game,
        hero: ThingId,
        at: Loc,
        (threats, items_seen): (Vec<Threat>, Vec<(ThingId, Loc)>),
        mut potion: impl FnMut(ThingId) -> Potion,
    ) -> Self {
        let hp = game.query(hero, &HPS).unwrap_or(1);
        let max = game.query(hero, &HPS_MAX).unwrap_or(1).max(1);
        let inv = inventory(game, hero);
        let potions: Vec<Potion> = inv.iter().map(|&t| potion(t)).collect();
        let uses = potions.iter().map(|p| p.good_for).collect();
        let has_stone = inv.iter().any(|&t| game.is(t, &IS_STONE));
        let unknown_potion = inv
            .iter()
            .zip(&potions)
            .find(|(_, p)| p.unknown)
            .map(|(&t, _)| t);
        let winnable =
            threats.is_empty() || fight_cost(game, hero, &threats) < f64::from(hp) * FIGHT_SHARE;
        Situation {
            hero,
            at,
            hp,
            max,
            pct: hp * 100 / max,
            inv,
            has_stone,
            unknown_potion,
            threats,
            items_seen,
            winnable,
            uses,
        }
    }

    /// A carried potion known to be good for `u`.
    fn known(&self, u: Use) -> Option<ThingId> {
        self.carried(u).next()
    }

    /// The carried things known to be good for `u`, in pack order.
    fn carried(&self, u: Use) -> impl Iterator<Item = ThingId> + '_ {
        self.inv
            .iter()
            .zip(&self.uses)
            .filter(move |(_, x)| **x == Some(u))
            .map(|(&t, _)| t)
    }

    /// The threats next to the hero.
    fn adjacent(&self) -> impl Iterator<Item = Threat> + '_ {
        self.threats.iter().copied().filter(|t| t.dist == 1)
    }

    /// Monsters in view and close enough to matter.
    #[must_use]
    pub fn threats(&self) -> usize {
        self.threats.len()
    }

    /// Whether the bot judges the fight against them winnable (true with none in view).
    #[must_use]
    pub fn winnable(&self) -> bool {
        self.winnable
    }
}

/// A monster in sight.
#[derive(Clone, Copy, Debug)]
struct Threat {
    id: ThingId,
    at: Loc,
    dist: u32,
}

/// The bot's memory between turns (the game value holds everything else).
#[derive(Debug)]
pub struct Bot {
    rng: GameRng,
    z: i32,
    explore_turns: u32,
    route: Option<Vec<Loc>>,
    stairs_down: Vec<Loc>,
    stairs_up: Vec<Loc>,
    fountains: Vec<Loc>,
    stone: Option<Loc>,
    refused: u32,
    paths: Pathfinder,
    explored_all: bool,
    resting: bool,
    held: u32,
    ignored: Vec<ThingId>,
    item_goal: Option<(ThingId, Loc, u32)>,
    /// The staircase it fled down or up by: (level it fled from, turn).
    fled: Option<(i32, u64)>,
    /// A staircase to shun until a turn (it leads back to what it fled).
    shun: Option<(Loc, u64)>,
    /// Where it stood lately (to notice going back and forth).
    recent: Vec<Loc>,
    reason: Reason,
    /// It has seen a monster it cannot beat here: leave the level by the nearest stairs.
    leaving: bool,
    /// Turns it escaped by stairs lately.
    stair_escapes: Vec<u64>,
    /// This decision's map of path costs from the hero (see `go_to_any`).
    reach: Option<Reach>,
    /// The walk `go_to_any` last planned, followed while it stays clear (see [`Walk`]).
    walk: Option<Walk>,
    /// What the potions it carries are good for, kept between turns (see [`PotionMemo`]).
    potions: PotionMemo,
}

impl Bot {
    /// A bot whose own random choices come from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Bot {
            rng: GameRng::seed_from(seed.rotate_left(17) ^ 0xB07),
            z: 0,
            explore_turns: 0,
            route: None,
            stairs_down: Vec::new(),
            stairs_up: Vec::new(),
            fountains: Vec::new(),
            stone: None,
            refused: 0,
            paths: Pathfinder::new(),
            explored_all: false,
            resting: false,
            held: 0,
            ignored: Vec::new(),
            item_goal: None,
            fled: None,
            shun: None,
            recent: Vec::new(),
            reason: Reason::NoHero,
            leaving: false,
            stair_escapes: Vec::new(),
            reach: None,
            walk: None,
            potions: PotionMemo::default(),
        }
    }

    /// Why it chose its last command — for reading a game it played.
    #[must_use]
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// What it would see and weigh in `game` now (for trying one tactic alone).
    #[must_use]
    pub fn situation(&self, game: &Game) -> Option<Situation> {
        let h = hero(game).ok()?;
        let at = game.things().location(h).ok()?;
        let mut probe = Bot::new(0);
        probe.ignored.clone_from(&self.ignored);
        let (threats, items) = probe.observe(game, h, at, None);
        Some(Situation::new(game, h, at, (threats, items), |t| {
            Potion::of(game, t)
        }))
    }

    /// Tell the bot its last command was refused (it then tries something random).
    pub fn refused(&mut self) {
        self.refused += 1;
        self.route = None;
        self.walk = None;
        if let Some((i, _, _)) = self.item_goal.take() {
            self.ignored.push(i);
        }
    }

    fn random_move(&mut self) -> Command {
        Command::Move(Dir::COMPASS[self.rng.below(8) as usize])
    }

    /// A new level: forget the old one's stairs and read what the map memory holds of this
    /// one (levels visited before are remembered).
    fn arrive(&mut self, game: &Game, at: Loc) {
        if let Some((from, turn)) = self.fled.take()
            && from != at.z
        {
            // The staircase it arrived by leads back to what it fled.
            self.shun = Some((at, turn + SHUN_TURNS));
        }
        self.z = at.z;
        self.explore_turns = 0;
        self.route = None;
        self.walk = None;
        self.stairs_down.clear();
        self.stairs_up.clear();
        self.fountains.clear();
        self.stone = None;
        self.explored_all = false;
        self.item_goal = None;
        self.resting = false;
        self.leaving = false;
        self.ignored.clear();
        for l in level_box(at.z).iter() {
            if let Some(t) = remembered_thing(game, l) {
                self.note(game, l, t);
            }
        }
    }

    fn note(&mut self, game: &Game, l: Loc, t: ThingId) {
        if game.is(t, &IS_STAIRS_DOWN) && !self.stairs_down.contains(&l) {
            self.stairs_down.push(l);
        }
        if game.is(t, &IS_STAIRS_UP) && !self.stairs_up.contains(&l) {
            self.stairs_up.push(l);
        }
        if game.query(t, &HEAL_AMOUNT).unwrap_or(0) > 0
            && !game.is(t, &super::props::IS_ITEM)
            && !self.fountains.contains(&l)
        {
            self.fountains.push(l);
        }
    }

    /// The next command for `game`: the first of the tactics in [`PLAN`] that has
    /// something to do (after two reflexes: a refused command is followed by a random step
    /// half the time, and going back and forth with nothing about is shaken off).
    pub fn choose(&mut self, game: &Game) -> Command {
        self.choose_seeing(game, None)
    }

    /// [`choose`](Bot::choose) with the hero's field of view of `game` at hand when the
    /// caller has it (from [`Rules::last_hero_view`](crate::Rules::last_hero_view)): the
    /// same command, without working the view out again. `seen` must be the hero's view of
    /// `game` (debug builds check it).
    pub fn choose_seeing(&mut self, game: &Game, seen: Option<VisibleSet>) -> Command {
        let (cmd, reason) = self.decide(game, seen);
        self.reason = reason;
        cmd
    }

    fn decide(&mut self, game: &Game, seen: Option<VisibleSet>) -> Choice {
        // The last decision's map is stale (its memory is kept for this one's).
        if let Some(r) = &mut self.reach {
            r.fresh = false;
        }
        let Ok(h) = hero(game) else {
            return (Command::Wait, Reason::NoHero);
        };
        let Ok(at) = game.things().location(h) else {
            return (Command::Wait, Reason::NoHero);
        };
        if self.refused > 0 {
            self.refused = 0;
            if self.rng.chance(0.5) {
                return (self.random_move(), Reason::Refused);
            }
        }
        if at.z != self.z {
            self.arrive(game, at);
        }
        if self.shun.is_some_and(|(_, until)| game.turn() > until) {
            self.shun = None;
        }
        let (threats, items_seen) = self.observe(game, h, at, seen);
        if let Some(c) = self.unstick(at, &threats) {
            return c;
        }
        let potions = &mut self.potions;
        let s = Situation::new(game, h, at, (threats, items_seen), |t| {
            potions.potion(game, t)
        });
        potions.keep_only(&s.inv);
        PLAN.iter()
            .find_map(|(_, tactic)| tactic(self, game, &s))
            .unwrap_or_else(|| (self.random_move(), Reason::Lost))
    }

    /// What is in view: monsters close enough to matter, and items (stairs, fountains and
    /// the Stone are noted on the way).
    fn observe(
        &mut self,
        game: &Game,
        h: ThingId,
        at: Loc,
        seen: Option<VisibleSet>,
    ) -> (Vec<Threat>, Vec<(ThingId, Loc)>) {
        let mut threats: Vec<Threat> = Vec::new();
        let mut items_seen: Vec<(ThingId, Loc)> = Vec::new();
        debug_assert!(
            seen.is_none() || seen == hero_view(game).ok(),
            "a view handed to the bot must be the hero's view of the game"
        );
        let Some(v) = seen.or_else(|| hero_view(game).ok()) else {
            return (threats, items_seen);
        };
        // The cells come row by row: a view that remembers its last chunk reads most of
        // them without looking the chunk up.
        let cells = game.things().cursor();
        // Monsters in darkness beyond the torch are not seen (`rules::light`).
        let sight = crate::rules::light::Sight::of(game).ok();
        let table = TileTable::new(game);
        for l in v.iter() {
            // The cell's things, read once for every question below.
            let here = cells.things_at(l);
            let scenery = scenery_among(game, here);
            // A fountain seen dry (or gone) is no use any more.
            if self.fountains.contains(&l)
                && scenery.is_none_or(|s| game.query(s, &HEAL_AMOUNT).unwrap_or(0) <= 0)
            {
                self.fountains.retain(|&f| f != l);
            }
            if let Some(s) = scenery {
                self.note(game, l, s);
            }
            for &t in here {
                if game.is(t, &IS_STONE) {
                    self.stone = Some(l);
                }
                if t != h && game.is(t, &IS_CREATURE) && game.is(t, &IS_HOSTILE) {
                    let dist = at.chebyshev(l);
                    if dist <= THREAT_RANGE && sight.is_some_and(|s| s.shows(game, &table, l)) {
                        threats.push(Threat { id: t, at: l, dist });
                    }
                } else if game.is(t, &super::props::IS_ITEM) && !self.ignored.contains(&t) {
                    items_seen.push((t, l));
                }
            }
        }
        (threats, items_seen)
    }

    /// Going back and forth with nothing about: shake it off with a random step.
    fn unstick(&mut self, at: Loc, threats: &[Threat]) -> Option<Choice> {
        if !threats.is_empty() || self.resting {
            self.recent.clear();
            return None;
        }
        self.recent.push(at);
        if self.recent.len() <= 24 {
            return None;
        }
        self.recent.remove(0);
        let mut distinct = self.recent.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() > 3 {
            return None;
        }
        self.recent.clear();
        self.route = None;
        self.walk = None;
        if let Some((i, _, _)) = self.item_goal.take() {
            self.ignored.push(i);
        }
        Some((self.random_move(), Reason::Unstick))
    }

    /// Tactic *remedy*: poison cured (even in a fight: it costs more than a blow), and
    /// permanent gains drunk at once.
    pub fn remedy(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if hurting(game, s.hero)
            && let Some(p) = s.known(Use::Cure)
        {
            return Some((Command::Quaff(p), Reason::Cure));
        }
        if s.adjacent().next().is_none()
            && let Some(p) = s.known(Use::Gain)
        {
            return Some((Command::Quaff(p), Reason::Gain));
        }
        None
    }

    /// Tactic *flee*, with monsters in sight: drink healing when low; from a fight it would
    /// lose, throw harmful potions, run for stairs or down the flee map, and cornered, drink
    /// what might help. Also decides whether the fight is lost (the bot then leaves the level).
    pub fn flee(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if s.threats.is_empty() {
            self.held = 0;
            return None;
        }
        self.resting = false;
        if s.pct < 40
            && let Some(p) = s.known(Use::Heal)
        {
            return Some((Command::Quaff(p), Reason::Heal));
        }
        if s.winnable {
            return None;
        }
        self.leaving = true;
        if let Some(c) = throw_at(game, s) {
            return Some((c, Reason::Throw));
        }
        if let Some(c) = self.escape(game, s.at, &s.threats, s.has_stone) {
            return Some((c, Reason::Escape));
        }
        // Cornered: anything that might help, then fight.
        s.adjacent().next()?;
        if let Some(p) = s
            .carried(Use::Buff)
            .find(|&t| !already_has(game, s.hero, t))
        {
            return Some((Command::Quaff(p), Reason::CorneredBuff));
        }
        if s.pct < 50
            && let Some(p) = s.known(Use::Regen).or(s.unknown_potion)
        {
            return Some((Command::Quaff(p), Reason::CorneredGamble));
        }
        None
    }

    /// Tactic *fight*: strike the most dangerous adjacent monster; with a winnable fight
    /// close, let it come for a few turns (the one who steps in gives the first blow).
    pub fn fight(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if s.threats.is_empty() {
            return None;
        }
        let adjacent: Vec<Threat> = s.adjacent().collect();
        if let Some(target) = best_target(game, s.hero, &adjacent) {
            let c = dir_to(s.at, target.at).map_or(Command::Wait, Command::Move);
            return Some((c, Reason::Fight));
        }
        if s.winnable && self.held < 4 && s.threats.iter().any(|t| t.dist <= 3) {
            self.held += 1;
            return Some((Command::Wait, Reason::Hold));
        }
        None
    }

    /// Tactic *rest*, with nothing in sight: below 65% health rest until 95%, drinking
    /// regeneration or healing when low, eating food, walking to a known fountain.
    pub fn rest(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if !s.threats.is_empty() {
            return None;
        }
        if s.pct < REST_BELOW {
            self.resting = true;
        }
        if s.pct >= REST_UNTIL {
            self.resting = false;
        }
        if !self.resting {
            return None;
        }
        if s.pct < 50
            && let Some(p) = s.known(Use::Regen).or_else(|| s.known(Use::Heal))
        {
            return Some((Command::Quaff(p), Reason::RestDrink));
        }
        let wound = s.max - s.hp;
        if let Some(f) = s.inv.iter().copied().find(|&t| {
            let heal = game.query(t, &HEAL_AMOUNT).unwrap_or(0);
            game.is(t, &IS_FOOD) && heal > 0 && heal <= wound
        }) {
            return Some((Command::Eat(f), Reason::RestEat));
        }
        let fountains = self.fountains.clone();
        if let Some(&f) = fountains.iter().find(|f| f.chebyshev(s.at) == 1) {
            let c = dir_to(s.at, f).map_or(Command::Wait, Command::Move);
            return Some((c, Reason::Fountain));
        }
        if let Some(c) = self.go_to_any(game, s.at, &fountains, &[], 25) {
            return Some((c, Reason::Fountain));
        }
        Some((Command::Wait, Reason::Rest))
    }

    /// Tactic *loot*: the Stone always; drop junk when the pack is nearly full; take what
    /// lies here; wear and wield better gear; try unknown potions while healthy; walk to
    /// items in view.
    pub fn loot(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        let here = items_at(game, s.at);
        if let Some(stone) = here.iter().copied().find(|&t| game.is(t, &IS_STONE)) {
            return Some((Command::PickUp(Some(stone)), Reason::PickUp));
        }
        let full = s.inv.len();
        if full + 2 >= MAX_ITEMS
            && let Some(j) = junk(game, s)
        {
            self.ignored.push(j);
            return Some((Command::Drop(j), Reason::DropJunk));
        }
        if full < MAX_ITEMS
            && let Some(&t) = here.iter().find(|&&t| {
                !self.ignored.contains(&t) && (!game.is(t, &IS_INGREDIENT) || full < MAX_ITEMS / 2)
            })
        {
            self.item_goal = None;
            return Some((Command::PickUp(Some(t)), Reason::PickUp));
        }
        if let Some(c) = self.equip(game, &s.inv) {
            return Some((c, Reason::Equip));
        }
        if s.threats.is_empty()
            && s.pct >= 80
            && let Some(p) = s.unknown_potion
        {
            return Some((Command::Quaff(p), Reason::TryPotion));
        }
        if full < MAX_ITEMS
            && let Some(c) = self.fetch_item(game, s.at, &s.items_seen, &s.threats)
        {
            return Some((c, Reason::Fetch));
        }
        None
    }

    /// Tactic *return*: with the Stone, climb out; on the Stone's level, walk to it.
    pub fn return_home(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if s.has_stone {
            return Some((self.climb(game, s.at), Reason::Climb));
        }
        if s.at.z == STONE_LEVEL
            && let Some(stone) = self.stone
            && let Some(c) = self.go_to_any(game, s.at, &[stone], &s.threats, 400)
        {
            return Some((c, Reason::ToStone));
        }
        None
    }

    /// Tactic *leave*: a monster it cannot beat was seen here, so it takes the nearest
    /// stairs, either way.
    pub fn leave(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        if !self.leaving {
            return None;
        }
        let down = s.at.z > STONE_LEVEL;
        let before = self.fled;
        self.fled = Some((s.at.z, game.turn()));
        if let Some(c) = self.take_stairs(game, s.at, down, &s.threats) {
            return Some((c, Reason::LeaveLevel));
        }
        if let Some(c) = self.take_stairs(game, s.at, !down, &s.threats) {
            return Some((c, Reason::LeaveLevel));
        }
        self.fled = before;
        None
    }

    /// Tactic *descend*: once the level is explored (or, below the first levels, its
    /// exploration budget is spent), rest to 90% and take the stairs down. Counts the
    /// level's exploration turns.
    pub fn descend(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        self.explore_turns += 1;
        let depth = -s.at.z;
        let want_down = s.at.z > STONE_LEVEL
            && (self.explored_all
                || (depth > FULL_EXPLORE_DEPTH && self.explore_turns > EXPLORE_BUDGET));
        if !want_down {
            return None;
        }
        if s.threats.is_empty() && s.pct < 90 {
            return Some((Command::Wait, Reason::RestBeforeStairs));
        }
        self.take_stairs(game, s.at, true, &s.threats)
            .map(|c| (c, Reason::ToStairsDown))
    }

    /// Tactic *explore*: a step towards the nearest unexplored ground.
    pub fn explore(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        self.explore_step(game, s.at).map(|c| (c, Reason::Explore))
    }

    /// Tactic *move on*: explored and nothing else to do, the stairs that lead on (else
    /// any stairs).
    pub fn move_on(&mut self, game: &Game, s: &Situation) -> Option<Choice> {
        let down = s.at.z > STONE_LEVEL;
        if let Some(c) = self.take_stairs(game, s.at, down, &s.threats) {
            return Some((c, Reason::Stairs));
        }
        self.take_stairs(game, s.at, !down, &s.threats)
            .map(|c| (c, Reason::Stairs))
    }

    /// With the Stone: up and out.
    fn climb(&mut self, game: &Game, at: Loc) -> Command {
        if let Some(c) = self.take_stairs(game, at, false, &[]) {
            return c;
        }
        if let Some(c) = self.explore_step(game, at) {
            return c;
        }
        self.random_move()
    }

    /// Go to (or take) known stairs down (`down`) or up, the shunned one last.
    fn take_stairs(
        &mut self,
        game: &Game,
        at: Loc,
        down: bool,
        threats: &[Threat],
    ) -> Option<Command> {
        let list = if down {
            self.stairs_down.clone()
        } else {
            self.stairs_up.clone()
        };
        if list.contains(&at) && self.shun.is_none_or(|(s, _)| s != at) {
            return Some(if down {
                Command::Descend
            } else {
                Command::Ascend
            });
        }
        let preferred: Vec<Loc> = list
            .iter()
            .copied()
            .filter(|&l| self.shun.is_none_or(|(s, _)| s != l))
            .collect();
        if let Some(c) = self.go_to_any(game, at, &preferred, threats, 2000) {
            return Some(c);
        }
        if list.contains(&at) {
            return Some(if down {
                Command::Descend
            } else {
                Command::Ascend
            });
        }
        self.go_to_any(game, at, &list, threats, 2000)
    }

    /// Get away from `threats`: stairs underfoot, stairs it can reach first, or the flee map.
    fn escape(
        &mut self,
        game: &Game,
        at: Loc,
        threats: &[Threat],
        has_stone: bool,
    ) -> Option<Command> {
        let on = scenery_at(game, at);
        let up_ok = |t: ThingId| game.is(t, &IS_STAIRS_UP) && (!game.is(t, &IS_EXIT) || has_stone);
        // Stairs underfoot are the best escape — but not back and forth for ever.
        let turn = game.turn();
        self.stair_escapes.retain(|&t| t + 40 > turn);
        if let Some(s) = on.filter(|_| self.stair_escapes.len() < 2) {
            self.stair_escapes.push(turn);
            if game.is(s, &IS_STAIRS_DOWN) && -at.z < super::rules::world::LEVELS {
                self.fled = Some((at.z, game.turn()));
                return Some(Command::Descend);
            }
            if up_ok(s) {
                self.fled = Some((at.z, game.turn()));
                return Some(Command::Ascend);
            }
        }
        // Stairs it reaches before any threat does.
        let mut stairs: Vec<Loc> = self.stairs_down.clone();
        stairs.extend(
            self.stairs_up
                .iter()
                .copied()
                .filter(|&l| game.things().at(l).iter().any(|&t| up_ok(t))),
        );
        stairs.retain(|&s| self.shun.is_none_or(|(x, _)| x != s));
        stairs.retain(|&s| {
            threats
                .iter()
                .all(|t| t.at.chebyshev(s) > at.chebyshev(s) || (t.dist > 1 && slow(game, t.id)))
        });
        stairs.sort_by_key(|s| at.chebyshev(*s));
        stairs.truncate(3);
        if let Some(c) = self.go_to_any(game, at, &stairs, threats, 30) {
            return Some(c);
        }
        // Roll down the flee map, if that gets it further from the nearest threat.
        let area = level_box(at.z);
        let table = TileTable::new(game);
        let open = CellMemo::new(area, |l| walkable_with(&table, game, l));
        let cost =
            |from: Loc, to: Loc| -> Option<u32> { (open.get(to) && open.get(from)).then_some(1) };
        let goals: Vec<Loc> = threats.iter().map(|t| t.at).collect();
        // The map `DijkstraMap::build(area, &goals, cost)` gives, by the terrain search: a
        // step costs 1 between open cells, straight or diagonal.
        let mut near = DijkstraMap::new(area);
        near.rebuild_terrain(goals, 1, 1, |l| open.get(l).then_some(1));
        // `near.flee(cost)`, by the terrain search too.
        let flee = near.flee_terrain(1, 1, |l| open.get(l).then_some(1));
        let free = |from: Loc, to: Loc| -> Option<u32> {
            if creature_at(game, to).is_some() {
                return None;
            }
            cost(from, to)
        };
        let step = flee.next_step(at, free)?;
        let nearest = |l: Loc| {
            threats
                .iter()
                .map(|t| t.at.chebyshev(l))
                .min()
                .unwrap_or(99)
        };
        (nearest(step) > 1 || nearest(step) > nearest(at))
            .then(|| dir_to(at, step).map(Command::Move))
            .flatten()
    }

    /// Walk to an item in view, a few steps away at most.
    fn fetch_item(
        &mut self,
        game: &Game,
        at: Loc,
        seen: &[(ThingId, Loc)],
        threats: &[Threat],
    ) -> Option<Command> {
        // Keep going for the chosen item even when it drops out of sight (turning back
        // would only bring it into view again); give up on it after a while.
        if let Some((i, l, n)) = self.item_goal {
            let still_there = game.things().location(i).is_ok_and(|x| x == l)
                && matches!(game.things().place(i), Ok(alembic::Place::Map(_)));
            if n > 40 || !still_there {
                self.item_goal = None;
                self.ignored.push(i);
            } else {
                self.item_goal = Some((i, l, n + 1));
            }
        }
        let goal = match self.item_goal {
            Some((i, l, _)) => (i, l),
            None => seen
                .iter()
                .filter(|s| s.1.chebyshev(at) <= 10)
                .min_by_key(|s| s.1.chebyshev(at))
                .copied()?,
        };
        if self.item_goal.is_none() {
            self.item_goal = Some((goal.0, goal.1, 0));
        }
        let c = self.go_to_any(game, at, &[goal.1], threats, 40);
        if c.is_none() {
            self.ignored.push(goal.0);
            self.item_goal = None;
        }
        c
    }

    /// Put on better armour for a slot, or wield a weapon that hits harder.
    fn equip(&self, game: &Game, inv: &[ThingId]) -> Option<Command> {
        let worn: Vec<(Slot, i64)> = inv
            .iter()
            .filter(|&&t| game.is(t, &IS_WIELDED) && game.is(t, &IS_ARMOUR))
            .filter_map(|&t| {
                let s = game.query(t, &WIELD_SLOT).ok()?;
                Some((s, armour_value(game, t)))
            })
            .collect();
        for &t in inv {
            if game.is(t, &IS_ARMOUR) && !game.is(t, &IS_WIELDED) {
                let slot = game.query(t, &WIELD_SLOT).ok()?;
                let v = armour_value(game, t);
                match worn.iter().find(|w| w.0 == slot) {
                    None => return Some(Command::Wield(t)),
                    Some(w) if v > w.1 => return Some(Command::Wield(t)),
                    _ => {}
                }
            }
        }
        let current = inv
            .iter()
            .copied()
            .find(|&t| game.is(t, &IS_WEAPON) && game.is(t, &IS_WIELDED))
            .map_or(0, |t| weapon_damage(game, t));
        inv.iter()
            .copied()
            .filter(|&t| game.is(t, &IS_WEAPON) && !game.is(t, &IS_WIELDED))
            .find(|&t| weapon_damage(game, t) > current)
            .map(Command::Wield)
    }

    /// One step toward the nearest explored cell beside unexplored ones (the engine's
    /// uniform-cost search, which stops at the first such cell instead of mapping the whole
    /// level); the route is kept while its end still borders the unknown.
    fn explore_step(&mut self, game: &Game, at: Loc) -> Option<Command> {
        let area = level_box(at.z);
        let table = TileTable::new(game);
        // What entering each cell costs, worked out once: a search asks about a cell for
        // each of its neighbours.
        let enter = EnterMemo::new(area, |l| {
            walkable_with(&table, game, l)
                .then(|| if creature_at(game, l).is_some() { 5 } else { 1 })
        });
        let pass = |l: Loc| enter.get(l).is_some();
        let explored = explored_cells(game);
        let frontier = |l: Loc| {
            explored(l) && pass(l) && l.neighbours8().any(|n| area.contains(n) && !explored(n))
        };
        if let Some(route) = &self.route
            && let Some(i) = route.iter().position(|&l| l == at)
            && let Some(&next) = route.get(i + 1)
            && route.last().is_some_and(|&end| frontier(end))
            // Open, and nobody there.
            && enter.get(next) == Some(1)
        {
            return dir_to(at, next).map(Command::Move);
        }
        let cost = |from: Loc, to: Loc| -> Option<u32> {
            let c = enter.get(to)?;
            pass(from).then_some(c)
        };
        let found = self
            .paths
            .nearest(at, &Search::new(area), |l| l != at && frontier(l), cost);
        match found {
            Ok(p) if p.first_step().is_some() => {
                self.explored_all = false;
                let step = p.first_step();
                self.route = Some(p.steps);
                step.and_then(|s| dir_to(at, s)).map(Command::Move)
            }
            _ => {
                self.route = None;
                self.explored_all = true;
                None
            }
        }
    }

    /// A step toward the nearest of `targets` (by path cost, keeping away from `threats`),
    /// if one can be reached for at most `limit`. Every such question of one decision reads
    /// one Dijkstra map from the hero ([`Bot::reach_search`]), built no further than the
    /// largest limit asked, so it costs one bounded search a turn however many target lists
    /// are tried, and nothing when every target is farther than `limit` as the crow flies.
    ///
    /// With no threats about, the walk found is kept ([`Walk`]): asked the same question
    /// again from the walk's next cell, it takes the walk's next step without a search for as
    /// long as every cell left on it still costs the least a step can (1: open, nobody
    /// there).
    fn go_to_any(
        &mut self,
        game: &Game,
        at: Loc,
        targets: &[Loc],
        threats: &[Threat],
        limit: u64,
    ) -> Option<Command> {
        // Every step costs at least 1, so a target farther than `limit` in steps is out.
        let mut near: Vec<Loc> = targets
            .iter()
            .copied()
            .filter(|&t| t != at && u64::from(at.chebyshev(t)) <= limit)
            .collect();
        if near.is_empty() {
            return None;
        }
        near.sort_by_key(|t| at.chebyshev(*t));
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        if threats.is_empty()
            && let Some(w) = &mut self.walk
            && w.answers(targets, limit)
        {
            // The walk's cells are asked about once each: no memo needed.
            let costs = ReachCosts::new(game, at, threats, &[]);
            if let Some(next) = w.next(at, limit, &costs) {
                return dir_to(at, next).map(Command::Move);
            }
            self.walk = None;
        }
        let reach = Self::reach_search(&mut self.reach, at, threats);
        let costs = ReachCosts::new(game, at, threats, &reach.costs);
        let cost = |from: Loc, to: Loc| costs.step(from, to);
        let reach = &mut reach.search;
        // The nearest target, ties to the first in `near`, among those whose values are
        // final: every target with a lower value is final too, so it is the nearest overall.
        let nearest = |r: &Settling| {
            near.iter()
                .filter_map(|&t| {
                    r.map
                        .get(t)
                        .filter(|&v| v <= limit && v <= r.settled)
                        .map(|v| (v, t))
                })
                .min_by_key(|&(v, _)| v)
        };
        // A target this decision's search already passed, or else the search goes on until
        // it settles one (and every cell of the same value), or every cell within `limit`.
        let mut found = nearest(reach);
        if found.is_none() && reach.settled < limit {
            let mut sorted = near.clone();
            sorted.sort_unstable();
            reach.settled = reach
                .map
                .settle_until(|l| sorted.binary_search(&l).is_ok(), limit, cost)
                .unwrap_or(limit);
            found = nearest(reach);
        }
        let (_, target) = found?;
        let map = &reach.map;
        // Roll down the map from the target to the hero: the last cell before the hero is
        // the first step. Each step lowers the value by at least 1, and a step only looks
        // at lower values, which are final.
        let mut path = vec![target];
        let mut cur = target;
        for _ in 0..=limit.min(i64::from(u16::MAX)) {
            let next = map.next_step(cur, cost)?;
            if next == at {
                if threats.is_empty() {
                    path.reverse();
                    self.walk = Some(Walk {
                        targets: targets.to_vec(),
                        limit,
                        steps: path,
                    });
                }
                return dir_to(at, cur).map(Command::Move);
            }
            path.push(next);
            cur = next;
        }
        None
    }

    /// This decision's search of path costs to the hero (see [`ReachCosts`]), begun on first
    /// use and begun again only for another position or set of threats; otherwise it goes
    /// on from where the last question stopped it.
    fn reach_search<'r>(slot: &'r mut Option<Reach>, at: Loc, threats: &[Threat]) -> &'r mut Reach {
        let threat_locs: Vec<Loc> = threats.iter().map(|t| t.at).collect();
        let reach = match slot.take() {
            Some(r) if r.fresh && r.at == at && r.threats == threat_locs => r,
            old => {
                let area = level_box(at.z);
                let (mut map, mut costs) = match old {
                    Some(r) if r.search.map.area() == Some(area) => (r.search.map, r.costs),
                    _ => (DijkstraMap::new(area), Vec::new()),
                };
                map.begin_search([at]);
                // Every cell's cost unknown again (the allocation is kept).
                costs.clear();
                costs.resize(usize::try_from(area.volume()).unwrap_or(0), Cell::new(0));
                Reach {
                    fresh: true,
                    at,
                    threats: threat_locs,
                    search: Settling {
                        settled: i64::MIN,
                        map,
                    },
                    costs,
                }
            }
        };
        slot.insert(reach)
    }
}

/// The slot of `l` in `memo`, a memo of `area`'s cells row by row, if `l` lies in `area`.
fn memo_slot<T>(area: LocBox, memo: &[Cell<T>], l: Loc) -> Option<&Cell<T>> {
    if !area.contains(l) {
        return None;
    }
    let w = i64::from(area.width());
    let i = i64::from(l.y - area.min.y) * w + i64::from(l.x - area.min.x);
    usize::try_from(i).ok().and_then(|i| memo.get(i))
}

/// A question about the cells of one level, each cell's answer worked out once (a search
/// asks about a cell once for each of its neighbours, and again for its diagonals' sides).
/// Cells outside the level are asked every time.
struct CellMemo<F> {
    area: LocBox,
    /// Per cell of `area`: 0 not yet asked, 1 no, 2 yes.
    known: Vec<Cell<u8>>,
    ask: F,
}

impl<F: Fn(Loc) -> bool> CellMemo<F> {
    fn new(area: LocBox, ask: F) -> Self {
        let cells = usize::try_from(area.volume()).unwrap_or(0);
        CellMemo {
            area,
            known: vec![Cell::new(0); cells],
            ask,
        }
    }

    fn get(&self, l: Loc) -> bool {
        let slot = memo_slot(self.area, &self.known, l);
        match slot.map(Cell::get) {
            Some(1) => false,
            Some(2) => true,
            _ => {
                let yes = (self.ask)(l);
                if let Some(s) = slot {
                    s.set(1 + u8::from(yes));
                }
                yes
            }
        }
    }
}

/// [`CellMemo`] for a cost: each cell's cost of entering it (`None`: closed), worked out
/// once.
struct EnterMemo<F> {
    area: LocBox,
    /// Per cell of `area`: 0 not yet asked, [`EnterMemo::CLOSED`], else the cost.
    known: Vec<Cell<u8>>,
    ask: F,
}

impl<F: Fn(Loc) -> Option<u8>> EnterMemo<F> {
    const CLOSED: u8 = u8::MAX;

    fn new(area: LocBox, ask: F) -> Self {
        let cells = usize::try_from(area.volume()).unwrap_or(0);
        EnterMemo {
            area,
            known: vec![Cell::new(0); cells],
            ask,
        }
    }

    /// The cost of entering `l`; `ask` must give neither 0 nor [`EnterMemo::CLOSED`].
    fn get(&self, l: Loc) -> Option<u32> {
        let slot = memo_slot(self.area, &self.known, l);
        let c = match slot.map_or(0, Cell::get) {
            0 => {
                let c = (self.ask)(l).unwrap_or(Self::CLOSED);
                debug_assert_ne!(c, 0, "a cost of 0 reads as not yet asked");
                if let Some(s) = slot {
                    s.set(c);
                }
                c
            }
            c => c,
        };
        (c != Self::CLOSED).then_some(u32::from(c))
    }
}

/// A decision's Dijkstra map of path costs to the hero, and what it was built for.
#[derive(Debug)]
struct Reach {
    /// Built during the current decision (the game does not change within one).
    fresh: bool,
    at: Loc,
    threats: Vec<Loc>,
    search: Settling,
    /// The step costs' memo (see [`ReachCosts`]), shared by the decision's questions.
    costs: Vec<Cell<u8>>,
}

/// A walk [`Bot::go_to_any`] planned with no threats about: the question it answers and
/// its cells, from the first step to the target.
///
/// It was a cheapest walk when planned. While every cell left on it costs 1, the least a
/// step can cost, its rest is still as cheap as a walk of that many steps can be, so the
/// bot follows it rather than search the level again each turn. It may miss a walk that
/// became shorter since (a monster that stood in a corridor walked away), as a player
/// keeps to the way they chose. A cell on it that costs more (a monster stepped onto it,
/// a door closed) ends it, and the question searches afresh; so does every question asked
/// with a threat in view, which leaves the walk to be taken up again from a cell of it.
#[derive(Debug)]
struct Walk {
    targets: Vec<Loc>,
    limit: i64,
    steps: Vec<Loc>,
}

impl Walk {
    /// Whether this walk was planned for the question (`targets`, `limit`).
    fn answers(&self, targets: &[Loc], limit: i64) -> bool {
        self.targets == targets && self.limit == limit
    }

    /// The next cell from `at`, when `at` is on the walk with steps left, at most `limit`,
    /// and the walk is still clear: each cell left costs 1, and each diagonal step keeps one
    /// of its sides open (no squeezing between walls).
    fn next(&mut self, at: Loc, limit: i64, costs: &ReachCosts<'_>) -> Option<Loc> {
        let i = self.steps.iter().position(|&l| l == at)?;
        // Forget the cells behind the hero.
        self.steps.drain(..=i);
        let left = i64::try_from(self.steps.len()).ok()?;
        if left == 0 || left > limit {
            return None;
        }
        let mut from = at;
        for &to in &self.steps {
            let side_open = from.x == to.x
                || from.y == to.y
                || costs.enter(Loc::new(to.x, from.y, at.z)).is_some()
                || costs.enter(Loc::new(from.x, to.y, at.z)).is_some();
            if from.chebyshev(to) != 1 || !side_open || costs.enter(to) != Some(1) {
                return None;
            }
            from = to;
        }
        self.steps.first().copied()
    }
}

/// A carried thing as a potion: whether it is one of a kind not yet identified, and what
/// it is known to be good for ([`potion_use`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Potion {
    unknown: bool,
    good_for: Option<Use>,
}

impl Potion {
    fn of(game: &Game, t: ThingId) -> Potion {
        Potion {
            unknown: game.is(t, &IS_POTION) && !is_identified(game, t),
            good_for: potion_use(game, t),
        }
    }
}

/// What carried things are as potions ([`Potion`]), kept between turns rather than worked
/// out again for the whole pack every turn.
///
/// An answer depends on the thing's kind (its prototype: identified or not, and the effect
/// it gives) and on properties Alchemy's rules never change on a thing (what drinking it
/// does). So an answer holds while the library holds the very prototypes it was worked out
/// with (identifying a kind changes them, and clears the memo) and the id still names a thing
/// of the same kind (a game taken back and played again can give an id to another thing).
#[derive(Debug, Default)]
struct PotionMemo {
    library: Option<Library>,
    known: Vec<(ThingId, Box<str>, Potion)>,
}

impl PotionMemo {
    /// [`Potion::of`] `t`, from the memo when it holds.
    fn potion(&mut self, game: &Game, t: ThingId) -> Potion {
        if !self
            .library
            .as_ref()
            .is_some_and(|l| l.same_prototypes(game.library()))
        {
            self.known.clear();
            self.library = Some(game.library().clone());
        }
        let Some(kind) = game.things().get(t).ok().and_then(|x| x.proto()) else {
            return Potion::of(game, t);
        };
        if let Some((_, _, p)) = self
            .known
            .iter()
            .find(|(id, k, _)| *id == t && **k == *kind)
        {
            return *p;
        }
        let p = Potion::of(game, t);
        self.known.push((t, kind.into(), p));
        p
    }

    /// Forget what is no longer carried.
    fn keep_only(&mut self, inv: &[ThingId]) {
        self.known.retain(|(id, _, _)| inv.contains(id));
    }
}

/// A Dijkstra search settled as far as the questions so far needed.
#[derive(Debug)]
struct Settling {
    /// Every cell whose value is at most this has its final value (`i64::MIN` before the
    /// search settled anything).
    settled: i64,
    map: DijkstraMap,
}

/// The step costs of a map whose goal is the hero at `at`, each cell's cost worked out once
/// (a map's build asks about every cell about sixteen times).
///
/// A step from `from` to `to` is charged the cost of walking the other way, from `to` into
/// `from`: 1, 5 when a creature stands there, and 8 more beside a threat. Charging the cell
/// stepped out of makes a map value the cost of the walk from the hero to that cell, and
/// refusing closed cells on either side keeps the no-corner-cutting rule the same both ways.
struct ReachCosts<'a> {
    table: TileTable,
    game: &'a Game,
    at: Loc,
    threats: &'a [Threat],
    area: LocBox,
    /// Per cell of `area`: 0 not yet known, `CLOSED`, else the cost of entering it (kept
    /// by the decision's [`Reach`], whose position and threats these costs are for).
    memo: &'a [Cell<u8>],
}

impl<'a> ReachCosts<'a> {
    const CLOSED: u8 = u8::MAX;

    fn new(game: &'a Game, at: Loc, threats: &'a [Threat], memo: &'a [Cell<u8>]) -> Self {
        ReachCosts {
            table: TileTable::new(game),
            game,
            at,
            threats,
            area: level_box(at.z),
            memo,
        }
    }

    /// The cost of entering `l`, `None` when it is closed.
    fn enter(&self, l: Loc) -> Option<u32> {
        let slot = memo_slot(self.area, self.memo, l);
        let known = slot.map_or(0, Cell::get);
        let c = if known == 0 {
            let c = self.work_out(l);
            if let Some(s) = slot {
                s.set(c);
            }
            c
        } else {
            known
        };
        (c != Self::CLOSED).then_some(u32::from(c))
    }

    fn work_out(&self, l: Loc) -> u8 {
        // `walkable_with` and `creature_at` in one read of the cell's things.
        if !walkable_tile(&self.table, self.game, l) {
            return Self::CLOSED;
        }
        let mut creature = false;
        for &t in self.game.things().at(l) {
            if blocks_walkers(self.game, t) {
                return Self::CLOSED;
            }
            creature |= self.game.is(t, &IS_CREATURE);
        }
        let mut c = if creature { 5 } else { 1 };
        if self.threats.iter().any(|t| t.at.chebyshev(l) <= 1) {
            c += 8;
        }
        c
    }

    /// The map's step cost (see the type's docs).
    fn step(&self, from: Loc, to: Loc) -> Option<u32> {
        if to != self.at {
            self.enter(to)?;
        }
        self.enter(from)
    }
}

/// Whether raising this property helps in a fight (a potion doing so is worth drinking when
/// cornered; a charisma boost is not).
fn helps_in_a_fight(k: &alembic::props::PropKey) -> bool {
    [
        SK.key(),
        ST.key(),
        AG.key(),
        TG.key(),
        SPEED.key(),
        ARMOUR.key(),
        HPS_MAX.key(),
        BLOCK.key(),
    ]
    .contains(&k)
        || k == IS_INVINCIBLE.key()
}

/// Something not worth carrying: a weapon or armour no better than what is in use, a known
/// potion good for nothing here, an ingredient.
fn junk(game: &Game, s: &Situation) -> Option<ThingId> {
    let inv = &s.inv;
    let wielded_damage = inv
        .iter()
        .copied()
        .find(|&t| game.is(t, &IS_WEAPON) && game.is(t, &IS_WIELDED))
        .map_or(0, |t| weapon_damage(game, t));
    let worn = |slot: Slot| -> i64 {
        inv.iter()
            .copied()
            .filter(|&t| game.is(t, &IS_ARMOUR) && game.is(t, &IS_WIELDED))
            .filter(|&t| game.query(t, &WIELD_SLOT).is_ok_and(|s| s == slot))
            .map(|t| armour_value(game, t))
            .max()
            .unwrap_or(-1)
    };
    inv.iter().zip(&s.uses).find_map(|(&t, &u)| {
        let junk = |t| {
            if game.is(t, &IS_WIELDED) || game.is(t, &IS_STONE) {
                return false;
            }
            if game.is(t, &IS_WEAPON) {
                return weapon_damage(game, t) <= wielded_damage;
            }
            if game.is(t, &IS_ARMOUR) {
                return game
                    .query(t, &WIELD_SLOT)
                    .is_ok_and(|s| armour_value(game, t) <= worn(s));
            }
            game.is(t, &IS_INGREDIENT) || u == Some(Use::Other)
        };
        junk(t).then_some(t)
    })
}

/// Throw a known harmful potion at the most dangerous threat in a clear line.
fn throw_at(game: &Game, s: &Situation) -> Option<Command> {
    let p = s.known(Use::Harm)?;
    let target = s
        .threats
        .iter()
        .filter(|t| t.dist <= THROW_RANGE && clear_line(game, s.at, t.at))
        .max_by_key(|t| game.query(t.id, &HPS).unwrap_or(0))?;
    Some(Command::Throw(p, target.at))
}

/// Whether the hero already has the effect potion `p` gives.
fn already_has(game: &Game, h: ThingId, p: ThingId) -> bool {
    let Some(effect) = game.query_opt(p, &GIVES_EFFECT).ok().flatten() else {
        return false;
    };
    effects_of(game, h)
        .into_iter()
        .any(|e| game.things().get(e).ok().and_then(|x| x.proto()) == Some(&*effect))
}

/// Whether `m` is slower than normal speed (the hero outruns it).
fn slow(game: &Game, m: ThingId) -> bool {
    game.query(m, &SPEED).unwrap_or(100) < 100
}

/// Whether the hero suffers poison or another harmful effect that costs hit points.
fn hurting(game: &Game, h: ThingId) -> bool {
    effects_of(game, h).into_iter().any(|e| {
        game.is(e, &IS_POISON)
            || (game.is(e, &IS_HARMFUL) && game.query(e, &HP_PER_TURN).unwrap_or(0) < 0)
    })
}

/// Expected hit points lost killing every threat, in the best order (most damage per turn
/// of fighting first): each deals its expected damage per hero action until it dies.
fn fight_cost(game: &Game, h: ThingId, threats: &[Threat]) -> f64 {
    let hero_speed = f64::from(game.query(h, &SPEED).unwrap_or(100).max(10));
    let mut foes: Vec<(f64, f64)> = threats
        .iter()
        .map(|t| {
            let mine = expected_damage(game, h, t.id).max(0.05);
            let hp = f64::from(game.query(t.id, &HPS).unwrap_or(1).max(1));
            let ttk = if game.is(t.id, &IS_IMMORTAL) {
                1e6
            } else {
                hp / mine
            };
            let speed = f64::from(game.query(t.id, &SPEED).unwrap_or(100).max(10));
            let mut theirs = expected_damage(game, t.id, h) * speed / hero_speed;
            if game
                .query_opt(t.id, &super::props::HIT_EFFECT)
                .ok()
                .flatten()
                .is_some()
            {
                theirs *= 1.3;
            }
            (ttk, theirs)
        })
        .collect();
    foes.sort_by(|a, b| {
        let ra = a.0 / a.1.max(1e-6);
        let rb = b.0 / b.1.max(1e-6);
        ra.total_cmp(&rb)
    });
    let mut time = 0.0;
    let mut cost = 0.0;
    for (ttk, dpt) in foes {
        time += ttk;
        cost += dpt * time;
    }
    cost
}

/// The adjacent threat to hit first: the one that dies soonest for the damage it deals.
fn best_target(game: &Game, h: ThingId, adjacent: &[Threat]) -> Option<Threat> {
    adjacent.iter().copied().min_by(|a, b| {
        let key = |t: &Threat| {
            let mine = expected_damage(game, h, t.id).max(0.05);
            let hp = f64::from(game.query(t.id, &HPS).unwrap_or(1).max(1));
            let theirs = expected_damage(game, t.id, h).max(0.05);
            hp / mine / theirs
        };
        key(a).total_cmp(&key(b))
    })
}

/// What an identified potion is for, from what it does ([`Behaviour`], matched
/// exhaustively); `None` for unidentified items and non-potions.
fn potion_use(game: &Game, t: ThingId) -> Option<Use> {
    if !game.is(t, &IS_POTION) || !is_identified(game, t) {
        return None;
    }
    let behaviour = game
        .query_opt(t, &ON_CONSUME)
        .ok()
        .flatten()
        .and_then(|h| Behaviour::named(h.name()));
    let effect = match behaviour {
        Some(Behaviour::PotionHeal) => return Some(Use::Heal),
        Some(Behaviour::PotionGain | Behaviour::PotionHealthGain | Behaviour::PotionSpeedGain) => {
            return Some(Use::Gain);
        }
        Some(
            Behaviour::PotionCurePoison | Behaviour::PotionCleansing | Behaviour::PotionRestoration,
        ) => return Some(Use::Cure),
        Some(Behaviour::PotionEffect) => game.query_opt(t, &GIVES_EFFECT).ok().flatten(),
        // Chaos, and what no potion does.
        Some(
            Behaviour::PotionChaos
            | Behaviour::EatFood
            | Behaviour::EatMagicMushroom
            | Behaviour::EatIngredient
            | Behaviour::UseFountain
            | Behaviour::DeathTransform,
        )
        | None => None,
    };
    let Some(effect) = effect else {
        return Some(Use::Other);
    };
    let e = game.library().get(&effect).ok()?;
    if e.is(&IS_HARMFUL) {
        Some(Use::Harm)
    } else if e.get(&HP_PER_TURN).unwrap_or(0) > 0 {
        Some(Use::Regen)
    } else if e.modifiers().iter().any(|m| helps_in_a_fight(&m.key)) {
        Some(Use::Buff)
    } else {
        Some(Use::Other)
    }
}

/// The armour a piece adds when worn.
fn armour_value(game: &Game, t: ThingId) -> i64 {
    game.things().get(t).map_or(0, |x| {
        x.modifiers()
            .iter()
            .filter(|m| &m.key == ARMOUR.key())
            .map(|m| match m.op {
                ModOp::Add(v) => v,
                _ => 0,
            })
            .sum()
    })
}

/// The attack damage a weapon sets when wielded.
fn weapon_damage(game: &Game, t: ThingId) -> i64 {
    game.things().get(t).map_or(0, |x| {
        x.modifiers()
            .iter()
            .find_map(|m| match (&m.key, &m.op) {
                (k, ModOp::Set(Value::Int(v))) if k == ATT_DAMAGE.key() => Some(*v),
                _ => None,
            })
            .unwrap_or(0)
    })
}

/// Whether a thrown item would fly from `from` to `to` (nothing opaque or alive between).
fn clear_line(game: &Game, from: Loc, to: Loc) -> bool {
    let line = from.line_to(to);
    line.iter()
        .skip(1)
        .take(line.len().saturating_sub(2))
        .all(|&l| {
            !tile_blocks(game, l)
                && blocker_at(game, l).is_none()
                && transparent(game, l)
                && creature_at(game, l).is_none()
        })
}

fn dir_to(from: Loc, to: Loc) -> Option<Dir> {
    Dir::from_offset(to.x - from.x, to.y - from.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::IS_IDENTIFIED;
    use crate::rulebook::Rules;

    #[test]
    fn the_enter_memo_asks_once_per_cell_of_its_area() {
        let area = LocBox::rect(0, 0, 4, 3, -1);
        let asked = Cell::new(0);
        let memo = EnterMemo::new(area, |l: Loc| {
            asked.set(asked.get() + 1);
            match l.x {
                0 => None,
                1 => Some(5),
                _ => Some(1),
            }
        });
        for _ in 0..3 {
            assert_eq!(memo.get(Loc::new(0, 1, -1)), None);
            assert_eq!(memo.get(Loc::new(1, 1, -1)), Some(5));
            assert_eq!(memo.get(Loc::new(3, 2, -1)), Some(1));
        }
        assert_eq!(asked.get(), 3);
        // Outside the area: asked every time.
        assert_eq!(memo.get(Loc::new(9, 1, -1)), Some(1));
        assert_eq!(memo.get(Loc::new(9, 1, -1)), Some(1));
        assert_eq!(asked.get(), 5);
    }

    #[test]
    fn the_potion_memo_forgets_what_identifying_a_kind_changes() {
        let rules = Rules::new().expect("rules");
        let mut base = crate::new_game(3, &rules).expect("game");
        let h = hero(&base).expect("hero");
        base.library_mut()
            .set_proto_prop_mut("potion of healing", &IS_IDENTIFIED, false)
            .expect("unknown");
        let carrying = |g: &Game, kind: &str| {
            let mut g = g.clone();
            let t = g.library().create(kind).expect("potion");
            let t = g.add_thing_mut(h, t).expect("carried");
            (g, t)
        };
        let (mut game, p) = carrying(&base, "potion of healing");
        let mut memo = PotionMemo::default();
        let unknown = Potion {
            unknown: true,
            good_for: None,
        };
        assert_eq!(memo.potion(&game, p), unknown, "unknown: no use yet");
        assert_eq!(
            memo.potion(&game, p).good_for,
            None,
            "asked again, from the memo"
        );
        game.library_mut()
            .set_proto_prop_mut("potion of healing", &IS_IDENTIFIED, true)
            .expect("identified");
        assert_eq!(potion_use(&game, p), Some(Use::Heal));
        assert_eq!(
            memo.potion(&game, p),
            Potion {
                unknown: false,
                good_for: Some(Use::Heal)
            },
            "the kind became known"
        );

        // One id, two kinds: the same game before the pick-up, played two ways (as after
        // taking moves back), with one library.
        let mut known = base.clone();
        known
            .library_mut()
            .set_proto_prop_mut("potion of healing", &IS_IDENTIFIED, true)
            .expect("identified");
        let (healing, a) = carrying(&known, "potion of healing");
        let (speed, b) = carrying(&known, "potion of speed");
        assert_eq!(a, b);
        let mut memo = PotionMemo::default();
        assert_eq!(memo.potion(&healing, a).good_for, Some(Use::Heal));
        assert_ne!(potion_use(&speed, b), Some(Use::Heal));
        assert_eq!(memo.potion(&speed, b).good_for, potion_use(&speed, b));
        memo.keep_only(&[]);
        assert!(memo.known.is_empty());
    }
}
