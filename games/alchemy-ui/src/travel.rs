//! Alchemy's answers to the session's journeys ([`alembic_session::journey`]): travel to a
//! remembered cell (a mouse click or `G`), to the nearest known stairs (`>` and `<` away
//! from stairs), auto-explore (`o`, picking up what is in view with autopickup on), running
//! (Shift+direction), resting (`Z`/`R`) and searching (`s`). The session's [`Journey`]
//! drives them, one step a tick, as it does for every game; this module is the
//! [`Walker`] that says where the next step goes and what stops it. Each stops as soon as anything worth a look happens: a monster comes
//! into view (each is announced once), the hero is hurt, the game says something; none
//! starts with a threatening hostile in view. A hostile that cannot reach the hero, or one
//! already announced that has not noticed the hero, is no threat (see [`is_threat`]). The
//! play screen takes one step per tick, so the hero is seen walking and any key stops it.
//!
//! Every step is a normal [`Command`], so travel is recorded, replayed and undone exactly
//! like keys are. Paths only cross cells the hero has seen; closed doors on the way are
//! opened.

use alembic::{Dir, Game, Loc, ThingId, fov::VisibleSet, path::Pathfinder, path::Search};

use alembic_session::Goal;
pub use alembic_session::journey::{Auto, End as TravelEnd, MAX_STEPS, SEARCH_TURNS};
use alembic_session::journey::{End, JourneyRefused, Walker};

use super::AlchemyCtx;
use alembic_alchemy::Command;
use alembic_alchemy::{
    self as alchemy,
    rules::{creature_at, explored, items_at, level_box},
    view::{Stairs, TileTable, hero_id, is_creature, is_hostile, visible},
};

/// A journey of Alchemy's: the session's driver with Alchemy's [`Memo`].
pub type Journey = alembic_session::journey::Journey<Memo>;

/// The creatures the hero sees, other than the hero: in the field of view and not hidden by
/// darkness ([`alchemy::view::makes_out`]).
fn monsters_in_view(ctx: &AlchemyCtx) -> Vec<ThingId> {
    let Some(game) = ctx.game() else {
        return Vec::new();
    };
    let (Ok(hero), Ok(seen)) = (hero_id(game), visible(game)) else {
        return Vec::new();
    };
    let mut out: Vec<ThingId> = seen
        .iter()
        .flat_map(|l| game.things().at(l).iter().copied())
        .filter(|&t| t != hero && is_creature(game, t))
        .filter(|&t| alchemy::view::makes_out(game, &seen, t))
        .collect();
    out.sort_unstable();
    out
}

/// The hostile creatures the hero sees.
fn hostiles_in_view(ctx: &AlchemyCtx) -> Vec<ThingId> {
    let Some(game) = ctx.game() else {
        return Vec::new();
    };
    monsters_in_view(ctx)
        .into_iter()
        .filter(|&t| is_hostile(game, t))
        .collect()
}

/// Whether the creature `t` would find its way to the hero ([`alchemy::rules::finds_way`]:
/// walls part them, deep water and magma unless `t` flies, doors and gates unless it opens
/// them, and a detour longer than its own search).
#[must_use]
pub fn can_reach(game: &Game, t: ThingId) -> bool {
    let Some(at) = hero_id(game)
        .ok()
        .and_then(|h| game.things().location(h).ok())
    else {
        return false;
    };
    // The monster's own search: a way it would not take (a gate it cannot open, a detour
    // past its search) is no way, so it never holds up explore while it stays put.
    alchemy::rules::finds_way(game, t, at)
}

/// Whether the hostile `t` is a threat that stops travel once it has been announced: it has
/// noticed the hero and can reach them (as DCSS's "There are monsters nearby!").
#[must_use]
pub fn is_threat(game: &Game, t: ThingId) -> bool {
    is_hostile(game, t) && alchemy::view::has_noticed(game, t) && can_reach(game, t)
}

/// The hostiles in view that travel, explore and rest do not start or go on with: threats
/// ([`is_threat`]), and those not announced yet that could reach the hero.
fn blocking_hostiles(ctx: &AlchemyCtx) -> Vec<ThingId> {
    let Some(game) = ctx.game() else {
        return Vec::new();
    };
    hostiles_in_view(ctx)
        .into_iter()
        .filter(|&t| is_threat(game, t) || (!ctx.is_announced(t) && can_reach(game, t)))
        .collect()
}

/// Capitalised, for the start of a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// "a goblin", for messages.
fn a_name(ctx: &AlchemyCtx, id: ThingId) -> String {
    ctx.game()
        .and_then(|g| alchemy::text::a_name(g, id).ok())
        .unwrap_or_else(|| "something".to_owned())
}

/// Where the hero is.
fn hero_at(ctx: &AlchemyCtx) -> Option<Loc> {
    let game = ctx.game()?;
    game.things().location(hero_id(game).ok()?).ok()
}

/// The cost of stepping onto `to` for travel: seen, walkable ground (closed doors allowed);
/// `None` where travel never goes (unseen, walls, danger, blocking things, creatures in
/// view: travel goes round them or stops). A creature out of sight is not known to be
/// there: it blocks nothing (travel stops if it is met), so a remembered place is never
/// "no way there" because of a monster the hero cannot see.
fn travel_cost(game: &Game, table: &TileTable, seen: Option<&VisibleSet>, to: Loc) -> Option<u32> {
    if creature_at(game, to).is_some()
        && seen.is_some_and(|v| v.contains(to))
        && !alchemy::view::hidden_in_dark(game, to)
    {
        return None;
    }
    ground_cost(game, table, to)
}

/// [`travel_cost`] as if no creature stood anywhere.
fn ground_cost(game: &alembic::Game, table: &TileTable, to: Loc) -> Option<u32> {
    if !explored(game, to) || table.blocks(game, to) || table.dangerous(game, to) {
        return None;
    }
    let door = alchemy::view::door_at(game, to).is_some();
    if alchemy::view::blocking_thing_at(game, to) {
        return None;
    }
    Some(1 + u32::from(door))
}

/// The first step of the cheapest known path from the hero to the nearest cell for which
/// `goal` holds.
fn step_towards(ctx: &AlchemyCtx, goal: impl Fn(Loc) -> bool) -> Option<(Loc, Dir)> {
    let game = ctx.game()?;
    let at = hero_at(ctx)?;
    let table = TileTable::new(game);
    let seen = visible(game).ok();
    let cost = |_: Loc, to: Loc| travel_cost(game, &table, seen.as_ref(), to);
    let path = Pathfinder::new()
        .nearest(
            at,
            &Search::new(level_box(at.z)),
            |l| l != at && goal(l),
            cost,
        )
        .ok()?;
    let step = path.first_step()?;
    Some((step, at.dir_to(step)?))
}

/// What travel pays to cross a never-seen cell in a gap of the map: one the torch never lit
/// between seen ground (at least two seen, walkable neighbours), as the dark cell of a
/// stream between two remembered banks. Dearer than a detour over seen ground; the hero
/// sees the cell before stepping on it, and the path is planned again each step.
const GAP_COST: u32 = 8;

fn gap_cost(game: &Game, table: &TileTable, to: Loc) -> Option<u32> {
    if explored(game, to) {
        return None;
    }
    let known = to
        .neighbours8()
        .filter(|&n| ground_cost(game, table, n).is_some())
        .count();
    (known >= 2).then_some(GAP_COST)
}

/// The next move from the hero towards `target` over seen ground (and the gaps in it: see
/// [`GAP_COST`]), or `None`.
fn next_step(ctx: &AlchemyCtx, target: Loc) -> Option<(Loc, Dir)> {
    let game = ctx.game()?;
    let at = hero_at(ctx)?;
    if at.z != target.z {
        return None;
    }
    let table = TileTable::new(game);
    let seen = visible(game).ok();
    let cost = |_: Loc, to: Loc| {
        travel_cost(game, &table, seen.as_ref(), to).or_else(|| gap_cost(game, &table, to))
    };
    let path = alembic::path::astar(at, target, &Search::new(level_box(at.z)), cost).ok()?;
    let step = path.first_step()?;
    Some((step, at.dir_to(step)?))
}

/// What Alchemy remembers during one journey.
#[derive(Clone, Debug, Default)]
pub struct Memo {
    /// Running: moved at least once.
    moved: bool,
    /// Running: the open sides of the way at the last step.
    last_sides: Option<(bool, bool)>,
    /// Exploring with autopickup: cells whose items could not be picked up.
    skipped: Vec<Loc>,
    /// The step under way: the hero's hit points and the log's length before it.
    hp: i32,
    log_len: usize,
    /// The step under way opens a door (its message does not stop the journey).
    door: bool,
    /// The step under way is a pick-up (nothing it says stops exploring).
    picking_up: bool,
    /// Fighting: the monster fought, and the hit points below which the hero stops.
    foe: Option<ThingId>,
    floor: i32,
    /// Fighting: turns waited in a row for a foe that can come but cannot be walked to.
    waited: usize,
}

/// The turns auto-fight waits in a row for a foe that can reach the hero but that the hero
/// has no known way to (a bat beyond unexplored ground, a monster across water), before it
/// says the foe keeps its distance.
pub const FOE_WAITS: usize = 10;

/// Alchemy's answers: never a step while a hostile that could reach the hero is in view,
/// each creature announced once, closed doors on the way opened, items in view picked up
/// when exploring with autopickup on.
impl Walker for AlchemyCtx {
    type Command = Command;
    type Memo = Memo;

    fn game(&self) -> Option<&Game> {
        AlchemyCtx::game(self)
    }

    fn begin(&mut self, auto: Auto, memo: &mut Memo) -> Result<(), JourneyRefused> {
        if auto == Auto::Fight {
            return begin_fight(self, memo).map_err(JourneyRefused);
        }
        if auto == Auto::Rest
            && let Some(game) = self.game()
            && let Ok(hero) = hero_id(game)
            && alchemy::view::hit_points(game, hero)
                >= alchemy::view::status(game).ok().map(|s| s.hp_max)
        {
            return Err(JourneyRefused(
                "You are not hurt: nothing to rest for (s searches, . waits a turn).".to_owned(),
            ));
        }
        let foe = blocking_hostiles(self).first().copied();
        // What is in view now, the player sees: not announced again.
        for t in monsters_in_view(self) {
            self.announce(t);
        }
        if let Some(foe) = foe
            && !arrived(self, auto, memo)
        {
            return Err(JourneyRefused(format!(
                "Not with {} in view.",
                a_name(self, foe)
            )));
        }
        if let Auto::Run(dir) = auto {
            memo.last_sides = hero_at(self).and_then(|l| run_sides(self, dir, l));
        }
        Ok(())
    }

    fn next(&mut self, auto: Auto, _: bool, memo: &mut Memo) -> Result<Command, End> {
        let game = self.game().ok_or(End::GameOver)?;
        let hero = hero_id(game).map_err(|_| End::GameOver)?;
        memo.hp = alchemy::view::hit_points(game, hero).unwrap_or(0);
        memo.log_len = self.log().len();
        memo.door = false;
        memo.picking_up = false;
        if matches!(auto, Auto::Rest | Auto::Search) {
            return Ok(Command::Wait);
        }
        if auto == Auto::Fight {
            return next_blow(self, memo);
        }
        if auto == Auto::Travel(Goal::Explore)
            && hero_at(self).is_some_and(|at| wanted(self, memo, at))
        {
            memo.picking_up = true;
            return Ok(Command::PickUp(None));
        }
        if arrived(self, auto, memo) {
            return Err(End::Arrived);
        }
        let Some((step, dir)) = next_step_of(self, auto, memo) else {
            return Err(stuck(self, auto));
        };
        let game = self.game().ok_or(End::GameOver)?;
        if creature_at(game, step).is_some() {
            // Never attack by travelling: stop beside it.
            return Err(End::Interrupted("Something is in the way.".to_owned()));
        }
        memo.door = alchemy::view::closed_door_at(game, step);
        Ok(if memo.door {
            Command::Open(dir)
        } else {
            Command::Move(dir)
        })
    }

    fn take(&mut self, command: Command, memo: &mut Memo) -> Option<End> {
        match self.act(command) {
            Some(true) => Some(End::GameOver),
            Some(false) => None,
            None if memo.picking_up => {
                memo.skipped.extend(hero_at(self));
                None
            }
            None => Some(End::Interrupted("You stop.".to_owned())),
        }
    }

    fn interrupt(&mut self, auto: Auto, _: &Game, memo: &mut Memo) -> Option<End> {
        if memo.picking_up {
            return None;
        }
        if auto == Auto::Fight {
            return fight_interrupted(self, memo);
        }
        let end = after_move(self, auto, memo)?;
        // Stepping onto an item to pick up says so: exploring goes on to pick it up.
        let to_pick_up = auto == Auto::Travel(Goal::Explore)
            && end == End::Interrupted(String::new())
            && hero_at(self).is_some_and(|at| wanted(self, memo, at));
        (!to_pick_up).then_some(end)
    }

    fn rested(&self) -> bool {
        self.game().is_some_and(|game| {
            hero_id(game).is_ok_and(|hero| {
                alchemy::view::hit_points(game, hero)
                    >= alchemy::view::status(game).ok().map(|s| s.hp_max)
            })
        })
    }
}

/// What stops a journey after a move or a turn of rest: a creature newly in view (each
/// announced once), a threat, the hero hurt, or (except for the door asked for) anything
/// the game said.
fn after_move(ctx: &mut AlchemyCtx, auto: Auto, memo: &Memo) -> Option<End> {
    let now = monsters_in_view(ctx);
    let new = now.iter().copied().find(|&t| !ctx.is_announced(t));
    for &t in &now {
        ctx.announce(t);
    }
    if let Some(new) = new {
        let said = if matches!(auto, Auto::Rest | Auto::Search) {
            format!("{} comes into view.", capitalised(&a_name(ctx, new)))
        } else {
            format!("You see {}.", a_name(ctx, new))
        };
        return Some(End::Interrupted(said));
    }
    if let Some(&foe) = blocking_hostiles(ctx).first() {
        return Some(End::Interrupted(format!(
            "{} is after you.",
            capitalised(&a_name(ctx, foe))
        )));
    }
    let hurt = ctx.game().is_some_and(|g| {
        hero_id(g)
            .ok()
            .and_then(|h| alchemy::view::hit_points(g, h))
            .is_some_and(|h| h < memo.hp)
    });
    if hurt {
        return Some(End::Interrupted("You are hurt!".to_owned()));
    }
    // Walking over items the hero was told of before ("You see a dagger.") says so again,
    // but is no reason to stop: each pile stops a journey once.
    if stepped_on_known_items(ctx, memo) {
        return None;
    }
    // Anything the game said (other than opening the door we asked for) stops it.
    (!memo.door && ctx.log().len() > memo.log_len).then(|| End::Interrupted(String::new()))
}

/// Whether all the step said is "You see …" of items the hero was told of on an earlier
/// step (marking the items where the hero stands as told of, for the next time).
fn stepped_on_known_items(ctx: &mut AlchemyCtx, memo: &Memo) -> bool {
    let (Some(game), Some(at)) = (ctx.game(), hero_at(ctx)) else {
        return false;
    };
    let items = alchemy::rules::items_at(game, at);
    if items.is_empty() {
        return false;
    }
    let nouns = items
        .iter()
        .map(|&i| alchemy::events::Noun::of(game, i))
        .collect();
    let seen = alchemy::text::lines(game, &alchemy::Event::Noticed { items: nouns });
    let said: Vec<&str> = ctx
        .log()
        .get(memo.log_len..)
        .unwrap_or_default()
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    let only_seen = !said.is_empty() && said == seen;
    let known = items.iter().all(|&i| ctx.is_announced(i));
    for &i in &items {
        ctx.announce(i);
    }
    known && only_seen
}

/// Whether the journey is at its end where the hero stands.
fn arrived(ctx: &AlchemyCtx, auto: Auto, memo: &Memo) -> bool {
    match auto {
        Auto::Travel(Goal::Cell(target)) => hero_at(ctx) == Some(target),
        Auto::Travel(Goal::Stairs { down }) => {
            hero_at(ctx).is_some_and(|l| is_known_stairs(ctx, l, down))
        }
        Auto::Travel(Goal::Explore) => hero_at(ctx).is_some_and(|at| wanted(ctx, memo, at)),
        _ => false,
    }
}

/// The next step, or `None`: nowhere (more) to go.
fn next_step_of(ctx: &AlchemyCtx, auto: Auto, memo: &mut Memo) -> Option<(Loc, Dir)> {
    match auto {
        Auto::Travel(Goal::Cell(target)) => next_step(ctx, target),
        Auto::Travel(Goal::Stairs { down }) => step_towards(ctx, |l| is_known_stairs(ctx, l, down)),
        Auto::Travel(Goal::Explore) => {
            step_towards(ctx, |l| frontier(ctx, l) || wanted(ctx, memo, l))
        }
        Auto::Run(dir) => {
            let at = hero_at(ctx)?;
            let to = at + dir;
            let g = ctx.game()?;
            let table = TileTable::new(g);
            if table.blocks(g, to) || alchemy::view::door_at(g, to).is_some() {
                return None;
            }
            let hero = hero_id(g).ok();
            let now = run_sides(ctx, dir, at);
            let interesting = memo.moved
                && (now != memo.last_sides || g.things().at(at).iter().any(|&t| Some(t) != hero));
            memo.moved = true;
            memo.last_sides = now;
            (!interesting).then_some((to, dir))
        }
        _ => None,
    }
}

/// How it ends when there is nowhere to go.
fn stuck(ctx: &AlchemyCtx, auto: Auto) -> End {
    match auto {
        Auto::Travel(Goal::Cell(_)) => End::NoPath,
        Auto::Travel(Goal::Explore) => explore_finished(ctx),
        Auto::Fight => End::Arrived,
        Auto::Travel(Goal::Stairs { down }) => {
            let what = if down { "down" } else { "up" };
            let known = hero_at(ctx).is_some_and(|at| {
                level_box(at.z)
                    .iter()
                    .any(|l| is_known_stairs(ctx, l, down))
            });
            End::Interrupted(if known {
                format!("Something is in the way of the stairs {what}.")
            } else {
                format!("You know of no stairs {what} on this level.")
            })
        }
        _ => End::Interrupted(String::new()),
    }
}

/// With autopickup on, items in view are places to go too (except where picking up was
/// refused during this journey).
fn wanted(ctx: &AlchemyCtx, memo: &Memo, l: Loc) -> bool {
    ctx.autopickup()
        && !memo.skipped.contains(&l)
        && ctx
            .game()
            .is_some_and(|g| !items_at(g, l).is_empty() && visible(g).is_ok_and(|v| v.contains(l)))
}

/// A walker that shows `observe` the game and the cell about to be stepped onto before
/// every step (for tests and tools that check each step).
struct Observed<'a> {
    ctx: &'a mut AlchemyCtx,
    observe: &'a mut dyn FnMut(&Game, Loc),
}

impl Walker for Observed<'_> {
    type Command = Command;
    type Memo = Memo;
    fn game(&self) -> Option<&Game> {
        self.ctx.game()
    }
    fn begin(&mut self, auto: Auto, memo: &mut Memo) -> Result<(), JourneyRefused> {
        self.ctx.begin(auto, memo)
    }
    fn next(&mut self, auto: Auto, first: bool, memo: &mut Memo) -> Result<Command, End> {
        self.ctx.next(auto, first, memo)
    }
    fn take(&mut self, command: Command, memo: &mut Memo) -> Option<End> {
        if let (Command::Move(d) | Command::Open(d), Some(at), Some(game)) =
            (&command, hero_at(self.ctx), self.ctx.game())
        {
            (self.observe)(game, at + *d);
        }
        self.ctx.take(command, memo)
    }
    fn interrupt(&mut self, auto: Auto, before: &Game, memo: &mut Memo) -> Option<End> {
        self.ctx.interrupt(auto, before, memo)
    }
    fn rested(&self) -> bool {
        self.ctx.rested()
    }
}

/// A seen cell that borders unexplored space.
fn frontier(ctx: &AlchemyCtx, l: Loc) -> bool {
    ctx.game().is_some_and(|g| {
        explored(g, l)
            && l.neighbours8()
                .any(|n| level_box(l.z).contains(n) && !explored(g, n))
    })
}

/// Stairs down (or up) the hero has seen at `l`.
fn is_known_stairs(ctx: &AlchemyCtx, l: Loc, down: bool) -> bool {
    ctx.game()
        .is_some_and(|g| alchemy::view::known_stairs_at(g, l, Stairs::down(down)))
}

/// Running: whether the cells at either side of the way at `at` are open; `None` for
/// diagonals.
fn run_sides(ctx: &AlchemyCtx, dir: Dir, at: Loc) -> Option<(bool, bool)> {
    let d = dir.offset();
    if d.x != 0 && d.y != 0 {
        return None;
    }
    let g = ctx.game()?;
    let table = TileTable::new(g);
    let open = |l: Loc| !table.blocks(g, l);
    Some((
        open(Loc::new(at.x - d.y, at.y + d.x, at.z)),
        open(Loc::new(at.x + d.y, at.y - d.x, at.z)),
    ))
}

/// Walk towards `target` until arrival or interruption. Each step is one command.
pub fn travel(ctx: &mut AlchemyCtx, target: Loc) -> TravelEnd {
    Journey::new(Auto::Travel(Goal::Cell(target))).finish(ctx)
}

/// Auto-explore (`o`): walk to the nearest seen, reachable cell that borders unexplored
/// space, again and again, until the level is explored or something happens. With
/// autopickup on, also walk to the items in view and pick them up.
pub fn explore(ctx: &mut AlchemyCtx) -> TravelEnd {
    explore_observed(ctx, &mut |_, _| {})
}

/// [`explore`], calling `observe` with the game and the cell about to be stepped onto before
/// every step (for tests and tools that check each step).
pub fn explore_observed(
    ctx: &mut AlchemyCtx,
    observe: &mut dyn FnMut(&alembic::Game, Loc),
) -> TravelEnd {
    Journey::new(Auto::Travel(Goal::Explore)).finish(&mut Observed { ctx, observe })
}

/// Nowhere left to explore: done, unless a creature stands between the hero and the rest.
fn explore_finished(ctx: &AlchemyCtx) -> TravelEnd {
    let blocked = ctx.game().is_some_and(|g| {
        let Some(at) = hero_at(ctx) else {
            return false;
        };
        let table = TileTable::new(g);
        let cost = |_: Loc, to: Loc| ground_cost(g, &table, to);
        Pathfinder::new()
            .nearest(
                at,
                &Search::new(level_box(at.z)),
                |l| l != at && frontier(ctx, l),
                cost,
            )
            .is_ok()
    });
    TravelEnd::Interrupted(if blocked {
        "Something is in the way.".to_owned()
    } else {
        "Done exploring.".to_owned()
    })
}

/// Travel to the nearest known stairs, down or up; `Arrived` when standing on them.
pub fn to_stairs(ctx: &mut AlchemyCtx, down: bool) -> TravelEnd {
    Journey::new(Auto::Travel(Goal::Stairs { down })).finish(ctx)
}

/// Run (Shift+direction): keep moving `dir` until something interesting, as in DCSS: the
/// way ahead blocked, a door ahead, an item underfoot, an opening appearing or closing at
/// either side (a junction, a doorway, the end of a room's wall), a monster, a message.
pub fn run(ctx: &mut AlchemyCtx, dir: Dir) -> TravelEnd {
    Journey::new(Auto::Run(dir)).finish(ctx)
}

/// Auto-fight stops when the hero's hit points fall below this share of their maximum, in
/// percent (DCSS's default is 50); at the start, a hero already below it fights on until
/// they fall further.
pub const FIGHT_UNTIL_PERCENT: i32 = 50;

/// Auto-fight (`Tab`, [`Auto::Fight`]) to the end of the fight: steps to the nearest hostile
/// in view and strikes it until it dies, the hero is badly hurt
/// ([`FIGHT_UNTIL_PERCENT`]) or another creature comes into view.
pub fn fight(ctx: &mut AlchemyCtx) -> TravelEnd {
    Journey::new(Auto::Fight).finish(ctx)
}

/// A fight's start: the nearest hostile in view, and the hit points it stops below.
fn begin_fight(ctx: &mut AlchemyCtx, memo: &mut Memo) -> Result<(), String> {
    let foe = nearest_foe(ctx).ok_or_else(|| "No monster in view.".to_owned())?;
    for t in monsters_in_view(ctx) {
        ctx.announce(t);
    }
    let game = ctx.game().ok_or_else(|| "There is no game.".to_owned())?;
    let st = alchemy::view::status(game).map_err(|e| e.to_string())?;
    let half = st.hp_max * FIGHT_UNTIL_PERCENT / 100;
    // Already below it: fight on, but stop at any further loss.
    memo.floor = if st.hp < half { st.hp } else { half };
    memo.foe = Some(foe);
    Ok(())
}

/// The next blow or step of a fight; `Arrived` once the foe is gone.
fn next_blow(ctx: &mut AlchemyCtx, memo: &mut Memo) -> Result<Command, End> {
    let Some(foe) = memo.foe else {
        return Err(End::Arrived);
    };
    let alive = ctx.game().is_some_and(|g| g.things().location(foe).is_ok());
    if !alive {
        return Err(End::Arrived);
    }
    if !hostiles_in_view(ctx).contains(&foe) {
        return Err(End::Interrupted(format!(
            "{} is out of sight.",
            capitalised(&a_name(ctx, foe))
        )));
    }
    match fight_step_at(ctx, foe) {
        Ok((cmd, _)) => {
            memo.waited = 0;
            Ok(cmd)
        }
        // It can come, but there is no known way to it: let it come, as a player would
        // (`Tab` used to answer "You see no way to …" while explore answered "Not with … in
        // view.", and play froze).
        Err(_) if ctx.game().is_some_and(|g| can_reach(g, foe)) && memo.waited < FOE_WAITS => {
            memo.waited += 1;
            Ok(Command::Wait)
        }
        Err(_) if memo.waited >= FOE_WAITS => Err(End::Interrupted(format!(
            "{} keeps its distance.",
            capitalised(&a_name(ctx, foe))
        ))),
        Err(why) => Err(End::Interrupted(why)),
    }
}

/// What stops a fight after a blow: another creature in view, or the hero badly hurt.
fn fight_interrupted(ctx: &mut AlchemyCtx, memo: &Memo) -> Option<End> {
    let now = monsters_in_view(ctx);
    let new = now
        .iter()
        .copied()
        .find(|&t| Some(t) != memo.foe && !ctx.is_announced(t));
    for &t in &now {
        ctx.announce(t);
    }
    if let Some(new) = new {
        return Some(End::Interrupted(format!("You see {}.", a_name(ctx, new))));
    }
    let hp = ctx.game().and_then(|g| alchemy::view::status(g).ok())?.hp;
    (hp < memo.floor).then(|| {
        End::Interrupted("You are badly hurt: the fight is yours to go on with.".to_owned())
    })
}

/// Auto-fight (Tab, as in DCSS): the command that attacks the nearest hostile creature in
/// view when it stands next to the hero, or steps towards it over seen ground, with what to
/// say for a step ("You move towards the goblin.": a step alone says nothing in the game).
///
/// # Errors
/// The reason, for the message line, when there is nothing to fight or no way to it.
pub fn fight_step(ctx: &AlchemyCtx) -> Result<(Command, Option<String>), String> {
    let foe = nearest_foe(ctx).ok_or_else(|| "No monster in view.".to_owned())?;
    fight_step_at(ctx, foe)
}

/// The nearest hostile creature in view on the hero's level (ties: the topmost, then the
/// leftmost).
fn nearest_foe(ctx: &AlchemyCtx) -> Option<ThingId> {
    let (game, at) = (ctx.game()?, hero_at(ctx)?);
    let mut foes: Vec<(u32, Loc, ThingId)> = hostiles_in_view(ctx)
        .into_iter()
        .filter_map(|f| game.things().location(f).ok().map(|l| (l, f)))
        .filter(|(l, _)| l.z == at.z)
        .map(|(l, f)| (at.chebyshev(l), l, f))
        .collect();
    foes.sort_unstable_by_key(|&(d, l, _)| (d, l.y, l.x));
    foes.first().map(|&(_, _, f)| f)
}

/// [`fight_step`] against `foe`.
fn fight_step_at(ctx: &AlchemyCtx, foe: ThingId) -> Result<(Command, Option<String>), String> {
    let (Some(game), Some(at)) = (ctx.game(), hero_at(ctx)) else {
        return Err("There is no game.".to_owned());
    };
    let target = game
        .things()
        .location(foe)
        .map_err(|_| "No monster in view.".to_owned())?;
    let distance = at.chebyshev(target);
    if distance == 1
        && let Some(d) = at.dir_to(target)
    {
        return Ok((Command::Move(d), None));
    }
    let table = TileTable::new(game);
    let seen = visible(game).ok();
    // The target's own cell is the goal: other creatures are gone round.
    let cost = |_: Loc, to: Loc| {
        if to == target {
            Some(1)
        } else {
            travel_cost(game, &table, seen.as_ref(), to)
        }
    };
    let no_way = || format!("You see no way to {}.", a_name(ctx, foe));
    let path = alembic::path::astar(at, target, &Search::new(level_box(at.z)), cost)
        .map_err(|_| no_way())?;
    let said = format!("You move towards {}.", a_name(ctx, foe));
    path.first_step()
        .and_then(|s| at.dir_to(s))
        .map(|d| (Command::Move(d), Some(said)))
        .ok_or_else(no_way)
}
