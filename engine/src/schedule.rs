//! Turn order: an energy/speed scheduler inside the game value, after rot.js's Speed
//! scheduler.
//!
//! Every actor waits in a queue ordered by the time it next acts, then by when it was
//! queued. A thing of [`SPEED`] `s` that takes an action costing `c` acts again `c · 100 / s`
//! ticks later: at speed 200 it acts twice for every action at speed 100, at 50 half as often.
//! [`NORMAL_ACTION`] (100) is the cost of one ordinary action.
//!
//! The queue lives in the [`Game`], so it is deterministic, undone by undo, replayed, and
//! saved. Removing a thing takes it (and everything inside it) out of the queue, and
//! [`Game::check_invariants`] checks that the queue names only things that exist.
//!
//! The usual loop is one call: the player's command ends with [`Game::end_turn_mut`], which
//! records that the player acted and lets every other actor take its turn (its [`ON_ACTION`]
//! hook) until the player is next or the game is over, and says which ([`TurnEnd`]). It is
//! [`Game::acted_mut`] followed by [`Scheduler::advance_until`], for games that need the two
//! halves apart. A game whose creatures share one rule (its monster AI) rather than a hook each
//! runs the same loop with [`Scheduler::take_turns`] and that rule: every game's monsters take
//! their turns through the scheduler, never through a loop of the game's own.
//!
//! The scheduler refuses to be misused silently:
//! - advancing while the actor it last stopped for has not acted since is an error
//!   ([`Error::NotActed`]), not an instant return that skips the world's turn;
//! - both ways of advancing return a `#[must_use]` result ([`Advance`], [`TurnEnd`]), so a
//!   bound reached cannot be dropped without a warning;
//! - [`Game::spawn_mut`] queues a thing that takes turns ([`Schedule::takes_turns`]: flagged
//!   [`ACTS`] or with an [`ON_ACTION`] hook) to act at once.
//!
//! **Sleeping levels.** A game with many levels simulates only the ones around the player:
//! after [`Scheduler::set_awake_levels`], only actors on the awake levels are queued. A thing
//! that takes turns and moves onto an awake level is queued; one that moves to a sleeping level
//! leaves the queue; and [`Game::end_turn_mut`] wakes the level its actor ended its turn on
//! (the player took the stairs) and puts the one it left to sleep. No game writes its own "wake
//! the level". A game that never calls it keeps every level awake.
//!
//! The queue keeps one lane per level (and one for actors inside containers), each in key
//! order: putting a level to sleep drops its lane whole, whatever the number of its actors,
//! and the next actor is the least first entry of the lanes. A game in play has one or two
//! lanes (the awake level, and carried actors if any); a game that keeps every level awake
//! has one a level with actors. An actor that changes level, or goes into a container or
//! out of one, changes lane with its key kept.
//!
//! Costs (L lanes): [`Schedule::next_actor`] Θ(L); the acting actor's reschedule Θ(L + log
//! actors / 32 + 32) (usually Θ(L): it leaves the front of its lane and joins the back);
//! scheduling an actor not queued Θ(L + log actors + log₈ of the largest id); rescheduling or
//! removing an actor other than the next, or moving a queued actor to another lane, Θ(actors)
//! (its entry is found by a walk of the lanes); all persistent (older values keep their
//! queues).
//!
//! The queue is a list of blocks of at most 32 entries in key order (`runq`), not a
//! B+tree: every action takes the first entry and puts one after the rest, which for a
//! block list is moving the first block's start on and appending to the last block. With
//! 10,000 rats on the hero's level the `imbl` B+tree's inserts and removals were about a
//! quarter of a turn. Which actors are queued is a bit per id in a dense persistent array,
//! written only when an actor joins or leaves the queue: an array of each actor's key,
//! written on every action, kept about 1.1 KB per bot turn in a history.
//!
//! [`ON_ACTION`]: crate::hook::ON_ACTION

use std::sync::Arc;

use imbl::OrdSet;

use crate::actors::Lane;
use crate::error::Error;
use crate::game::Game;
use crate::hook::{HookCall, HookCtx, ON_ACTION};
use crate::thing::{Place, ThingId};

/// The cost of one ordinary action, in ticks at normal speed.
pub const NORMAL_ACTION: u64 = 100;

pub use crate::keys::{ACTS, SPEED};

/// How [`Game::end_turn_mut`] ended: what the caller does next depends on it, so it is
/// `#[must_use]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "the turn may have ended the game or hit the action bound"]
#[non_exhaustive]
pub enum TurnEnd {
    /// The actor is next again: its next command can be played.
    Ready,
    /// The game's `over` test held (checked after the actor's action and after every other
    /// actor's); actors due after that have not acted.
    Over,
    /// The actor is no longer in the game (it died during the others' turns).
    Gone,
    /// The action bound was reached before the actor was next (a runaway speed, a bug), or
    /// a hook took the actor out of the queue.
    Limit,
}

/// How [`Scheduler::advance_until`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "the advance may have stopped at its bound rather than at the actor asked for"]
pub enum Advance {
    /// The next actor is this one, for which the predicate held; it has not acted.
    Stopped(ThingId),
    /// No actor is queued.
    Empty,
    /// The action limit was reached first; the next actor is still to act.
    Limit,
}

/// The actor queue of a game, to read: [`Game::schedule`]. A `Copy` view borrowing the game
/// (Θ(1) to make); each method gives its cost.
///
/// ```
/// use alembic::{Game, Loc, Props, Thing};
/// let mut g = Game::new(1);
/// let rat = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
/// g.scheduler().add(rat, 5)?;
/// assert_eq!(g.schedule().next_actor(), Some(rat));
/// assert!(g.schedule().is_scheduled(rat));
/// # Ok::<(), alembic::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Schedule<'a> {
    game: &'a Game,
}

impl std::fmt::Debug for Schedule<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schedule")
            .field("clock", &self.clock())
            .field("actors", &self.actors().count())
            .finish()
    }
}

impl<'a> Schedule<'a> {
    /// The scheduler's clock: the time of the action last begun, in ticks. Θ(1).
    #[must_use]
    pub fn clock(&self) -> u64 {
        self.game.turnly.schedule.clock
    }

    /// Whether `id` is in the actor queue. Θ(1) (a bit in a dense array).
    #[must_use]
    pub fn is_scheduled(&self, id: ThingId) -> bool {
        self.game.turnly.schedule.slot.contains(id)
    }

    /// Every queued actor, in the order they will act: the lanes merged, Θ(lanes) to start
    /// and a step.
    pub fn actors(&self) -> impl Iterator<Item = ThingId> + use<'a> {
        self.game.turnly.schedule.ids()
    }

    /// The actor that acts next, if any. Θ(lanes): one a level with actors, one or two in a
    /// game whose other levels sleep.
    #[must_use]
    pub fn next_actor(&self) -> Option<ThingId> {
        self.game.turnly.schedule.first().map(|(_, id)| id)
    }

    /// How many ticks an action of `cost` takes `id` at its current [`SPEED`] (modifiers
    /// applied): `cost · 100 / speed`, at least 1. One [`Game::query`].
    pub fn action_delay(&self, id: ThingId, cost: u64) -> Result<u64, Error> {
        let speed = u64::try_from(self.game.query(id, &SPEED)?.max(1)).unwrap_or(1);
        Ok((cost.saturating_mul(100) / speed).max(1))
    }

    /// Whether `id` takes turns: flagged [`ACTS`] or with an [`ON_ACTION`] hook. Such a thing
    /// is queued when spawned ([`Game::spawn_mut`]) and when its level wakes. Two
    /// [`Game::query`]s.
    #[must_use]
    pub fn takes_turns(&self, id: ThingId) -> bool {
        self.game.acts(id)
    }

    /// The awake levels, ascending; `None` when every level is awake (the default).
    /// Θ(awake levels).
    #[must_use]
    pub fn awake_levels(&self) -> Option<Vec<i32>> {
        self.game
            .turnly
            .schedule
            .awake
            .as_ref()
            .map(|a| a.iter().copied().collect())
    }
}

/// The actor queue of a game, to change: queue an actor or take it out, choose the awake
/// levels, run the other actors ([`Game::scheduler`]). Each method changes the game the view
/// borrows, in place; older game values are untouched. The usual turn needs none of it:
/// [`Game::end_turn_mut`] is the whole loop.
///
/// ```
/// use alembic::{Game, Loc, Props, Thing};
/// let mut g = Game::new(1);
/// let rat = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
/// g.scheduler().add(rat, 5)?;
/// assert_eq!(g.schedule().next_actor(), Some(rat));
/// g.scheduler().remove(rat);
/// assert_eq!(g.schedule().next_actor(), None);
/// # Ok::<(), alembic::Error>(())
/// ```
pub struct Scheduler<'a> {
    game: &'a mut Game,
}

impl std::fmt::Debug for Scheduler<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.game.schedule().fmt(f)
    }
}

impl Scheduler<'_> {
    /// Put `id` in the actor queue to act `delay` ticks from now (moving it if it was
    /// queued). Θ(log actors) (a move of an actor other than the next: Θ(actors)).
    pub fn add(&mut self, id: ThingId, delay: u64) -> Result<(), Error> {
        self.game.queue_mut(id, delay)
    }

    /// Take `id` out of the actor queue (nothing happens if it was not queued). Θ(1) for the
    /// next actor, otherwise Θ(actors).
    pub fn remove(&mut self, id: ThingId) {
        if let Ok(place) = self.game.things().place(id) {
            Arc::make_mut(&mut self.game.turnly)
                .schedule
                .remove(id, Lane::of(place));
        }
    }

    /// Simulate only `levels`: queued actors elsewhere leave the queue (they sleep), and the
    /// things on these levels that [take turns](crate::schedule::Schedule::takes_turns) and are
    /// not queued are queued to act now, in id order. From then on, a thing that takes turns is
    /// queued when it moves onto an awake level and leaves the queue when it moves to a
    /// sleeping one, and [`Game::end_turn_mut`] wakes its actor's level. Θ(lanes + things on
    /// the awake levels) plus a bit per actor that leaves (or, when more leave than stay, per
    /// actor that stays): a sleeping level's lane is dropped whole.
    ///
    /// ```
    /// use alembic::hook::ON_ACTION;
    /// use alembic::props::Hook;
    /// use alembic::{Game, Loc, Thing, Props};
    /// let mut g = Game::new(1);
    /// let bat = |g: &mut Game, z| g.add_thing_mut(Loc::new(0, 0, z), Thing::new(Props::new().with(&ON_ACTION, Hook::new("flap"))));
    /// let (up, down) = (bat(&mut g, 0)?, bat(&mut g, 1)?);
    /// g.scheduler().set_awake_levels([0])?;
    /// assert_eq!(g.schedule().actors().collect::<Vec<_>>(), [up]);
    /// g.move_thing_mut(up, Loc::new(0, 0, 1))?; // it flew down to a sleeping level
    /// assert!(!g.schedule().is_scheduled(up) && !g.schedule().is_scheduled(down));
    /// # Ok::<(), alembic::Error>(())
    /// ```
    pub fn set_awake_levels(&mut self, levels: impl IntoIterator<Item = i32>) -> Result<(), Error> {
        self.game.set_awake_levels_impl(levels)
    }

    /// Let queued actors act, in order, until `stop(game, next)` holds for the next one, the
    /// queue is empty, or `max_actions` actions were taken.
    ///
    /// Each actor runs its [`ON_ACTION`] hook (if it has one) with `ctx`. If the hook did not
    /// queue the actor itself (with [`Game::acted_mut`] or [`Scheduler::add`], say for a slow
    /// action) and the actor still exists, it is queued again after one [`NORMAL_ACTION`]. All
    /// or nothing: if a hook fails, the game is as it was.
    ///
    /// # Errors
    /// [`Error::NotActed`] when the actor this call would start with is the one the last
    /// advance stopped for, and it has not acted (been queued again) since; the caller forgot
    /// [`Game::acted_mut`]. A hook's own error.
    ///
    /// ```
    /// use alembic::hook::{HookCall, ON_ACTION};
    /// use alembic::props::Hook;
    /// use alembic::schedule::{Advance, NORMAL_ACTION, SPEED};
    /// use alembic::{Error, Game, HookCtx, Hooks, Loc, Prop, Props, Thing};
    /// const MOVES: Prop<i32> = Prop::with_default("moves", 0);
    /// fn act(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    ///     let n = g.query(call.this, &MOVES)?;
    ///     g.set_mut(call.this, &MOVES, n + 1)
    /// }
    /// let hooks = Hooks::new().register("act", act)?;
    /// let monster = |speed| Thing::new(Props::new().with(&SPEED, speed).with(&ON_ACTION, Hook::new("act")));
    /// let mut g = Game::new(1);
    /// let hero = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
    /// let fast = g.add_thing_mut(Loc::new(1, 0, 0), monster(200))?;
    /// let slow = g.add_thing_mut(Loc::new(2, 0, 0), monster(50))?;
    /// for id in [hero, fast, slow] {
    ///     g.scheduler().add(id, 0)?;
    /// }
    /// let mut ctx = HookCtx::new(&hooks);
    /// for _ in 0..4 {
    ///     assert_eq!(g.scheduler().advance_until(&mut ctx, 100, |_, id| id == hero)?, Advance::Stopped(hero));
    ///     g.acted_mut(hero, NORMAL_ACTION)?; // the hero's command
    /// }
    /// // Before the hero's fourth action (at tick 300), the fast one acted at ticks 0, 50, …, 250
    /// // and the slow one at 0 and 200.
    /// assert_eq!((g.query(fast, &MOVES)?, g.query(slow, &MOVES)?), (6, 2));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// [`ON_ACTION`]: crate::hook::ON_ACTION
    pub fn advance_until(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
    ) -> Result<Advance, Error> {
        self.game.advance_until_impl(ctx, max_actions, stop)
    }

    /// Let queued actors act, in order, each through the game's own actor rule `act`, until
    /// `stop(game, next)` holds for the next one, the queue is empty, or `max_actions` actions
    /// were taken: [`Scheduler::advance_until`] for a game whose creatures share one rule (say
    /// its monster AI) rather than a hook each.
    ///
    /// `act(game, ctx, actor)` plays the actor's action and reports it with [`Game::acted_mut`]
    /// (or [`Scheduler::add`] for a delay of its own); the clock moves to an actor's time when
    /// its action is reported, so it stays "the time of the action last begun". An actor the
    /// rule did not queue again, and that still exists, is queued after one [`NORMAL_ACTION`],
    /// as with hooks. All or nothing: if `act` fails, the game is as it was. Θ(log actors) per
    /// action besides the rule's own cost.
    ///
    /// # Errors
    /// [`Error::NotActed`], as for [`Scheduler::advance_until`]; the rule's own error.
    ///
    /// ```
    /// use alembic::schedule::{Advance, NORMAL_ACTION, SPEED};
    /// use alembic::{Error, Game, HookCtx, Hooks, Loc, Prop, Props, Thing};
    /// const MOVES: Prop<i32> = Prop::with_default("moves", 0);
    /// let mut g = Game::new(1);
    /// let hero = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
    /// let rat = g.add_thing_mut(Loc::new(1, 0, 0), Thing::new(Props::new().with(&SPEED, 200)))?;
    /// g.scheduler().add(hero, 0)?;
    /// g.scheduler().add(rat, 0)?;
    /// let hooks = Hooks::new();
    /// let mut ctx = HookCtx::new(&hooks);
    /// // One rule for every monster: count the move, then report an ordinary action.
    /// let mut rule = |g: &mut Game, _: &mut HookCtx<'_>, id| {
    ///     let n = g.query(id, &MOVES)?;
    ///     g.set_mut(id, &MOVES, n + 1)?;
    ///     g.acted_mut(id, NORMAL_ACTION)
    /// };
    /// for _ in 0..3 {
    ///     g.acted_mut(hero, NORMAL_ACTION)?; // the hero's command
    ///     assert_eq!(g.scheduler().take_turns(&mut ctx, 100, |_, id| id == hero, &mut rule)?, Advance::Stopped(hero));
    /// }
    /// // At twice the hero's speed the rat acted at ticks 0, 50, …, 250.
    /// assert_eq!(g.query(rat, &MOVES)?, 6);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn take_turns(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
        act: impl FnMut(&mut Game, &mut HookCtx<'_>, ThingId) -> Result<(), Error>,
    ) -> Result<Advance, Error> {
        self.game.take_turns_impl(ctx, max_actions, stop, act)
    }
}

impl Game {
    /// The actor queue, to read: its clock, who is queued and who acts next
    /// ([`Schedule`]). Θ(1); the view borrows the game.
    #[must_use]
    pub fn schedule(&self) -> Schedule<'_> {
        Schedule { game: self }
    }

    /// The actor queue, to change ([`Scheduler`]). Θ(1); the view borrows the game mutably
    /// (like `HashMap::entry`, its methods change the game it holds).
    pub fn scheduler(&mut self) -> Scheduler<'_> {
        Scheduler { game: self }
    }

    /// Record that `id` took an action of `cost` (e.g. [`NORMAL_ACTION`]): the clock moves to
    /// the time `id` was due, and `id` is queued again after [`Schedule::action_delay`].
    pub fn acted_mut(&mut self, id: ThingId, cost: u64) -> Result<(), Error> {
        // The delay's read of `id` fails for a thing that does not exist, as `add` would.
        let delay = self.schedule().action_delay(id, cost)?;
        // The lane of its place, to find or queue it in: not read for the first actor (the
        // one acting, in every turn's loop), whose entry is found without it.
        let lane = match self.turnly.schedule.first() {
            Some((_, first)) if first == id => None,
            _ => Some(Lane::of(self.things().place(id)?)),
        };
        Arc::make_mut(&mut self.turnly)
            .schedule
            .acted(id, delay, lane);
        Ok(())
    }

    /// [`Scheduler`]'s method of this name, without `_impl`.
    pub(crate) fn set_awake_levels_impl(
        &mut self,
        levels: impl IntoIterator<Item = i32>,
    ) -> Result<(), Error> {
        let awake: OrdSet<i32> = levels.into_iter().collect();
        // The queued actors on the map on a level not awake sleep: their lanes are dropped.
        Arc::make_mut(&mut self.turnly)
            .schedule
            .sleep_all_but(&awake);
        for &z in &awake {
            let mut here: Vec<ThingId> = self
                .things()
                .on_level(z)
                .into_iter()
                .flat_map(|(_, ids)| ids.iter().copied())
                .collect();
            here.sort_unstable();
            for id in here {
                if !self.schedule().is_scheduled(id) && self.acts(id) {
                    self.scheduler().add(id, 0)?;
                }
            }
        }
        Arc::make_mut(&mut self.turnly).schedule.awake = Some(awake);
        Ok(())
    }

    /// The common turn in one call: `actor` took an action of `cost`; the world runs until
    /// it is `actor`'s turn again, or `over(game)` holds, or `max_actions` other actions were
    /// taken. Returns which ([`TurnEnd`]).
    ///
    /// If levels sleep ([`Scheduler::set_awake_levels`]) and `actor` ended its action on a
    /// sleeping level (it took the stairs), that level wakes and the others sleep first. An
    /// actor not in the queue is queued. The turn counter ([`Game::turn`]) moves on with the
    /// scheduler's clock: one call is one turn, counted as soon as the actor has acted (so
    /// the other actors' hooks see the new turn), and a game that ends its turns here never
    /// keeps a counter of its own beside the clock. All or nothing: if a hook fails, the
    /// game is as it was.
    ///
    /// ```
    /// use alembic::hook::{HookCall, ON_ACTION};
    /// use alembic::props::Hook;
    /// use alembic::schedule::{NORMAL_ACTION, TurnEnd};
    /// use alembic::{Error, Game, HookCtx, Hooks, Loc, Place, Prop, Props, Library};
    /// const HP: Prop<i32> = Prop::with_default("hp", 3);
    /// // The rat bites whoever stands at the origin.
    /// fn bite(g: &mut Game, _: &mut HookCtx<'_>, _: &HookCall) -> Result<(), Error> {
    ///     let hero = g.things().at(Loc::new(0, 0, 0))[0];
    ///     let hp = g.query(hero, &HP)?;
    ///     g.set_mut(hero, &HP, hp - 1)
    /// }
    /// let hooks = Hooks::new().register("bite", bite)?;
    /// let lib = Library::new()
    ///     .proclaim("hero", None, Props::new())?
    ///     .proclaim("rat", None, Props::new().with(&ON_ACTION, Hook::new("bite")))?;
    /// let mut g = Game::new(1).with_library(lib);
    /// let mut ctx = HookCtx::new(&hooks);
    /// let hero = g.spawn_mut(&mut ctx, "hero", Place::Map(Loc::new(0, 0, 0)))?;
    /// g.spawn_mut(&mut ctx, "rat", Place::Map(Loc::new(1, 0, 0)))?; // queued: it takes turns
    /// let dead = |g: &Game| g.query(hero, &HP).is_ok_and(|hp| hp <= 0);
    /// assert_eq!(g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, dead)?, TurnEnd::Ready);
    /// assert_eq!(g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, dead)?, TurnEnd::Ready);
    /// assert_eq!(g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, dead)?, TurnEnd::Over);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn end_turn_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        actor: ThingId,
        cost: u64,
        max_actions: usize,
        mut over: impl FnMut(&Game) -> bool,
    ) -> Result<TurnEnd, Error> {
        let mut work = self.clone();
        if let (Some(awake), Place::Map(l)) =
            (&work.turnly.schedule.awake, work.things().place(actor)?)
            && !awake.contains(&l.z)
        {
            work.scheduler().set_awake_levels([l.z])?;
        }
        if !work.schedule().is_scheduled(actor) {
            work.scheduler().add(actor, 0)?;
        }
        work.acted_mut(actor, cost)?;
        work.set_turn_mut(work.turn().saturating_add(1));
        let end = if over(&work) {
            TurnEnd::Over
        } else {
            let advance = work.scheduler().advance_until(ctx, max_actions, |g, id| {
                id == actor || !g.things().contains(actor) || over(g)
            })?;
            if !work.things().contains(actor) {
                TurnEnd::Gone
            } else if over(&work) {
                TurnEnd::Over
            } else if advance == Advance::Stopped(actor) {
                TurnEnd::Ready
            } else {
                TurnEnd::Limit
            }
        };
        *self = work;
        Ok(end)
    }

    /// [`Scheduler`]'s method of this name, without `_impl`.
    pub(crate) fn advance_until_impl(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
    ) -> Result<Advance, Error> {
        self.run_actors(
            ctx,
            max_actions,
            stop,
            Clock::BeforeEachActor,
            |g, ctx, id| ctx.run(&mut *g, &ON_ACTION, HookCall::on(id)).map(|_| ()),
        )
    }

    /// [`Scheduler`]'s method of this name, without `_impl`.
    pub(crate) fn take_turns_impl(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
        act: impl FnMut(&mut Game, &mut HookCtx<'_>, ThingId) -> Result<(), Error>,
    ) -> Result<Advance, Error> {
        self.run_actors(ctx, max_actions, stop, Clock::WhenActed, act)
    }

    /// The one loop behind [`Scheduler::advance_until`] and [`Scheduler::take_turns`].
    fn run_actors(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        mut stop: impl FnMut(&Game, ThingId) -> bool,
        clock: Clock,
        mut act: impl FnMut(&mut Game, &mut HookCtx<'_>, ThingId) -> Result<(), Error>,
    ) -> Result<Advance, Error> {
        if let (Some((id, key)), Some((first, _))) =
            (self.turnly.schedule.awaiting, self.turnly.schedule.first())
            && first == key
            && self.turnly.schedule.holds(key, id)
        {
            return Err(Error::NotActed(id));
        }
        let mut work = self.clone();
        let mut outcome = Advance::Limit;
        for _ in 0..max_actions {
            let Some((key, id)) = work.turnly.schedule.first() else {
                outcome = Advance::Empty;
                break;
            };
            if clock == Clock::BeforeEachActor {
                let s = &mut Arc::make_mut(&mut work.turnly).schedule;
                s.clock = s.clock.max(key.0);
            }
            if stop(&work, id) {
                outcome = Advance::Stopped(id);
                break;
            }
            act(&mut work, ctx, id)?;
            // The actor's entry is still there: its rule did not reschedule it. (The queue
            // first: once the actor is queued again its old key is below the first, Θ(1).)
            if work.turnly.schedule.holds(key, id) && work.things().contains(id) {
                work.acted_mut(id, NORMAL_ACTION)?;
            }
        }
        if outcome == Advance::Limit {
            match work.turnly.schedule.first() {
                None => outcome = Advance::Empty,
                Some(((at, _), id)) => {
                    if clock == Clock::BeforeEachActor {
                        let s = &mut Arc::make_mut(&mut work.turnly).schedule;
                        s.clock = s.clock.max(at);
                    }
                    if stop(&work, id) {
                        outcome = Advance::Stopped(id);
                    }
                }
            }
        }
        Arc::make_mut(&mut work.turnly).schedule.awaiting = match outcome {
            Advance::Stopped(id) => work.turnly.schedule.key_of(id).map(|key| (id, key)),
            _ => None,
        };
        *self = work;
        Ok(outcome)
    }
}

/// When [`Game::run_actors`] moves the clock to an actor's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    /// Before the actor's hook runs (and before `stop` sees the actor).
    BeforeEachActor,
    /// When the actor's rule reports its action ([`Game::acted_mut`]).
    WhenActed,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Loc, Props, Thing};

    /// The queue's entries whose actor stays queued when only level 1 is awake: those on
    /// level 1 and those off the map.
    fn staying_awake_on_1(g: &Game) -> Vec<((u64, u64), ThingId)> {
        g.turnly
            .schedule
            .entries()
            .filter(|&(_, id)| !matches!(g.things().place(id), Ok(Place::Map(l)) if l.z != 1))
            .collect()
    }

    #[test]
    fn a_game_with_a_schedule_is_send_and_sync() {
        fn check<T: Send + Sync>(_: &T) {}
        let mut g = Game::new(1);
        let id = g
            .add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))
            .expect("add");
        g.scheduler().add(id, 5).expect("schedule");
        check(&g);
    }

    /// Putting levels to sleep in one pass (the ids of the sleeping levels from the cell
    /// index, one filter of the queue) leaves the queue a walk of the actors with their
    /// places would: the actors on the map off the awake levels leave it, those on them and
    /// those inside a container stay, keys and order kept, slots and queue agreeing, and
    /// the older value unchanged.
    #[test]
    fn levels_put_to_sleep_at_once_leave_the_queue_a_walk_would() {
        let mut g = Game::new(1);
        let mut ids = Vec::new();
        for i in 0..300 {
            let at = Loc::new(i % 20, i / 20, i % 3);
            let id = g.add_thing_mut(at, Thing::new(Props::new())).expect("add");
            g.scheduler()
                .add(id, (i as u64 * 7919) % 101)
                .expect("schedule");
            ids.push(id);
        }
        // An actor inside a container on a sleeping level (not on the map): it stays.
        let bag = g
            .add_thing_mut(
                Loc::new(0, 0, 2),
                Thing::new(Props::new().with(&crate::library::IS_CONTAINER, true)),
            )
            .expect("add a bag");
        let inside = g
            .add_thing_mut(Place::In(bag), Thing::new(Props::new()))
            .expect("add inside");
        g.scheduler().add(inside, 3).expect("schedule");
        let before = g.clone();
        let want = staying_awake_on_1(&g);
        g.scheduler().set_awake_levels([1]).expect("sleep");
        assert_eq!(g.turnly.schedule.entries().collect::<Vec<_>>(), want);
        assert!(g.schedule().is_scheduled(inside));
        assert!(want.len() < ids.len() / 2, "most of the queue left");
        g.check_invariants().expect("slots and queue agree");
        assert_eq!(before.turnly.schedule.len(), ids.len() + 1);
        before.check_invariants().expect("the older value");
    }

    /// Actors moving between levels, into containers and out, and containers moving with
    /// actors inside, keep their keys, and each stays in its lane (checked by
    /// `check_invariants`), through reschedules, removals and a save round trip; putting
    /// levels to sleep afterwards keeps exactly the actors a walk of their places keeps.
    #[test]
    fn actors_keep_their_keys_and_lanes_through_moves() {
        let mut g = Game::new(1);
        let bag_props = || Props::new().with(&crate::library::IS_CONTAINER, true);
        let bags: Vec<ThingId> = (0..3)
            .map(|z| {
                g.add_thing_mut(Loc::new(50, 50, z), Thing::new(bag_props()))
                    .expect("bag")
            })
            .collect();
        let mut ids = Vec::new();
        for i in 0..60 {
            let id = g
                .add_thing_mut(Loc::new(i % 10, i / 10, i % 3), Thing::new(Props::new()))
                .expect("add");
            g.scheduler()
                .add(id, (i as u64 * 37) % 23)
                .expect("schedule");
            ids.push(id);
        }
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for step in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let id = ids[(x % ids.len() as u64) as usize];
            let z = ((x >> 8) % 3) as i32;
            let key = g.turnly.schedule.key_of(id);
            match (x >> 16) % 8 {
                0 | 1 => {
                    let to = Loc::new(((x >> 24) % 30) as i32, ((x >> 32) % 30) as i32, z);
                    g.move_thing_mut(id, to).expect("move");
                    assert_eq!(g.turnly.schedule.key_of(id), key, "a move keeps the key");
                }
                2 => {
                    g.move_thing_mut(id, Place::In(bags[z as usize]))
                        .expect("into a bag");
                    assert_eq!(g.turnly.schedule.key_of(id), key, "so does a bag");
                }
                3 => {
                    let bag = bags[(x >> 40) as usize % bags.len()];
                    let inside: Vec<(ThingId, Option<(u64, u64)>)> = g
                        .things()
                        .contents(bag)
                        .expect("bag")
                        .iter()
                        .map(|&c| (c, g.turnly.schedule.key_of(c)))
                        .collect();
                    g.move_thing_mut(bag, Loc::new(40, 40, z))
                        .expect("move a bag");
                    for (c, k) in inside {
                        assert_eq!(g.turnly.schedule.key_of(c), k, "carried along");
                    }
                }
                4 => g.scheduler().add(id, (x >> 20) % 50).expect("reschedule"),
                5 => g.scheduler().remove(id),
                6 => {
                    if let Some(next) = g.schedule().next_actor() {
                        g.acted_mut(next, NORMAL_ACTION).expect("acted");
                    }
                }
                _ => {
                    let json = serde_json::to_string(&g).expect("save");
                    let back: Game = serde_json::from_str(&json).expect("load");
                    assert!(back == g, "a round trip keeps the queue");
                    assert_eq!(back.state_hash(), g.state_hash());
                    g = back;
                }
            }
            if step % 50 == 0 {
                g.check_invariants().expect("lanes and slots agree");
            }
        }
        g.check_invariants().expect("lanes and slots agree");
        let before = g.clone();
        let want = staying_awake_on_1(&g);
        g.scheduler().set_awake_levels([1]).expect("sleep");
        let kept: Vec<((u64, u64), ThingId)> = g
            .turnly
            .schedule
            .entries()
            .filter(|(k, _)| want.iter().any(|(w, _)| w == k))
            .collect();
        assert_eq!(kept, want, "the actors that stay keep their keys");
        // Any other entry is an actor of the awake level that was not queued (a removed one
        // woken again), none from a sleeping level.
        for (k, id) in g.turnly.schedule.entries() {
            if !want.iter().any(|(w, _)| *w == k) {
                assert!(matches!(g.things().place(id), Ok(Place::Map(l)) if l.z == 1));
                assert!(!before.schedule().is_scheduled(id), "{id:?} was queued");
            }
        }
        g.check_invariants().expect("after the sleep");
        before.check_invariants().expect("the older value");
    }

    #[test]
    fn rescheduling_keeps_one_entry_per_actor_and_old_values() {
        let mut g = Game::new(1);
        let ids: Vec<ThingId> = (0..200)
            .map(|i| {
                g.add_thing_mut(Loc::new(i, 0, 0), Thing::new(Props::new()))
                    .expect("add")
            })
            .collect();
        for (k, &id) in ids.iter().enumerate() {
            g.scheduler()
                .add(id, (k as u64 * 7919) % 101)
                .expect("schedule");
        }
        let before = g.clone();
        for round in 0..5u64 {
            for (k, &id) in ids.iter().enumerate() {
                g.scheduler()
                    .add(id, (k as u64 * 31 + round) % 97)
                    .expect("reschedule");
            }
        }
        g.remove_thing_mut(ids[3]).expect("remove");
        assert_eq!(g.turnly.schedule.len(), ids.len() - 1);
        g.check_invariants().expect("invariants");
        before.check_invariants().expect("old value's invariants");
        assert_eq!(before.turnly.schedule.len(), ids.len());
        // The queue is in (time, order queued) order, and each actor is in it once.
        let order: Vec<(u64, u64)> = g.turnly.schedule.entries().map(|(k, _)| k).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
    }
}
