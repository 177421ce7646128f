//! Turn order: an energy/speed scheduler inside the game value, after rot.js's Speed
//! scheduler.
//!
//! Every actor waits in one queue ordered by the time it next acts, then by when it was
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
//! [`Game::acted_mut`] followed by [`Game::advance_until_mut`], for games that need the two
//! halves apart. A game whose creatures share one rule (its monster AI) rather than a hook
//! each runs the same loop with [`Game::take_turns_mut`] and that rule: every game's
//! monsters take their turns through the scheduler, never through a loop of the game's own.
//!
//! The scheduler refuses to be misused silently:
//! - advancing while the actor it last stopped for has not acted since is an error
//!   ([`Error::NotActed`]), not an instant return that skips the world's turn;
//! - both ways of advancing return a `#[must_use]` result ([`Advance`], [`TurnEnd`]), so a
//!   bound reached cannot be dropped without a warning;
//! - [`Game::spawn_mut`] queues a thing that takes turns ([`Game::takes_turns`]: flagged
//!   [`ACTS`] or with an [`ON_ACTION`] hook) to act at once.
//!
//! **Sleeping levels.** A game with many levels simulates only the ones around the player:
//! after [`Game::set_awake_levels_mut`], only actors on the awake levels are queued. A thing
//! that takes turns and moves onto an awake level is queued; one that moves to a sleeping
//! level leaves the queue; and [`Game::end_turn_mut`] wakes the level its actor ended its
//! turn on (the player took the stairs) and puts the one it left to sleep. No game writes
//! its own "wake the level". A game that never calls it keeps every level awake.
//!
//! Costs: [`Game::next_actor`] Θ(1); the acting actor's reschedule Θ(log actors / 32 + 32)
//! (usually Θ(1): it leaves the front and joins the back); scheduling an actor not queued
//! Θ(log actors + log₈ of the largest id); rescheduling or removing an actor other than
//! the next Θ(actors) (its entry is found by a walk of the queue); all persistent (older
//! values keep their queues).
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
use serde::{Deserialize, Serialize};

use crate::error::{Error, InvariantError};
use crate::game::Game;
use crate::hook::{HookCall, HookCtx, ON_ACTION};
use crate::props::Prop;
use crate::runq::RunQueue;
use crate::thing::{Place, ThingId};
use crate::words::Words;

/// How fast a thing acts (100 = normal, 200 = twice as often, 50 = half as often). Read with
/// modifiers applied, so a potion of speed works. Values below 1 count as 1.
pub const SPEED: Prop<i32> = Prop::with_default("alembic.speed", 100);

/// The cost of one ordinary action, in ticks at normal speed.
pub const NORMAL_ACTION: u64 = 100;

/// A thing flagged `ACTS` takes turns (as does a thing with an [`ON_ACTION`] hook): spawning
/// it queues it, and so does waking its level. See [`Game::takes_turns`].
pub const ACTS: Prop<bool> = Prop::with_default("alembic.acts", false);

/// The actor queue: (time, order queued) → actor, and its inverse.
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    clock: u64,
    seq: u64,
    queue: RunQueue,
    /// Which actors are queued (a bit per id).
    slot: Slots,
    /// The levels simulated; `None` when every level is.
    awake: Option<OrdSet<i32>>,
    /// The actor the last advance stopped for, with its queue key then: advancing again
    /// before that actor acted (and so got a new key) is [`Error::NotActed`]. A guard, not
    /// part of the world: not saved, hashed or compared.
    awaiting: Option<(ThingId, (u64, u64))>,
}

impl PartialEq for Schedule {
    fn eq(&self, o: &Self) -> bool {
        self.clock == o.clock && self.seq == o.seq && self.queue == o.queue && self.awake == o.awake
    }
}

/// Which actors are queued: one bit per id in a dense persistent array of 64-bit words
/// (8-way nodes; a read is a few array indexes), with an ordered set for the ids beyond it
/// (from 2³⁰, which only a game that made a billion things has). Only joining and leaving
/// the queue write it, not a reschedule: an actor's key is found in the queue itself (the
/// acting actor's is the first), so a turn in which every actor acts once keeps no copy of
/// it.
#[derive(Clone)]
struct Slots {
    low: Words<u64, 8>,
    high: OrdSet<ThingId>,
    len: usize,
}

impl Default for Slots {
    fn default() -> Self {
        Slots {
            low: Words::new(0),
            high: OrdSet::new(),
            len: 0,
        }
    }
}

impl std::fmt::Debug for Slots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let low = self.low.written().into_iter().flat_map(|(w, bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| ThingId(w * 64 + b))
        });
        f.debug_set()
            .entries(low.chain(self.high.iter().copied()))
            .finish()
    }
}

impl Slots {
    /// Whether `id` is queued.
    #[inline]
    fn contains(&self, id: ThingId) -> bool {
        match self.low.get(id.0 >> 6) {
            Some(w) => w >> (id.0 & 63) & 1 == 1,
            None => self.high.contains(&id),
        }
    }

    /// Mark `id` queued or not; whether that changed anything.
    fn mark(&mut self, id: ThingId, queued: bool) -> bool {
        if self.contains(id) == queued {
            return false;
        }
        match self.low.get(id.0 >> 6) {
            Some(w) => self.low.set(id.0 >> 6, w ^ (1 << (id.0 & 63))),
            None if queued => {
                self.high.insert(id);
            }
            None => {
                self.high.remove(&id);
            }
        }
        if queued {
            self.len += 1;
        } else {
            self.len -= 1;
        }
        true
    }

    /// How many actors are queued.
    fn len(&self) -> usize {
        self.len
    }
}

/// The saved form of a [`Schedule`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ScheduleRepr {
    clock: u64,
    seq: u64,
    /// (time, order, actor), in queue order.
    queue: Vec<(u64, u64, ThingId)>,
    /// The awake levels, when not every level is (absent in saves that never set them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    awake: Option<Vec<i32>>,
}

impl Schedule {
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty() && self.clock == 0 && self.seq == 0 && self.awake.is_none()
    }

    pub(crate) fn to_repr(&self) -> ScheduleRepr {
        ScheduleRepr {
            clock: self.clock,
            seq: self.seq,
            queue: self.queue.iter().map(|((t, s), id)| (t, s, id)).collect(),
            awake: self.awake.as_ref().map(|a| a.iter().copied().collect()),
        }
    }

    pub(crate) fn from_repr(r: ScheduleRepr) -> Schedule {
        let mut s = Schedule {
            clock: r.clock,
            seq: r.seq,
            awake: r.awake.map(|a| a.into_iter().collect()),
            ..Schedule::default()
        };
        for (t, o, id) in r.queue {
            s.queue.insert((t, o), id);
            s.slot.mark(id, true);
        }
        s
    }

    pub(crate) fn hash_into<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        self.clock.hash(state);
        self.seq.hash(state);
        for (k, id) in self.queue.iter() {
            k.hash(state);
            id.hash(state);
        }
        // Hashed only when set, so games without sleeping levels keep their hashes.
        if let Some(awake) = &self.awake {
            awake.len().hash(state);
            for z in awake {
                z.hash(state);
            }
        }
    }

    /// `id`'s key, if it is queued: Θ(1) for the first actor (the one acting, in every
    /// turn's loop), otherwise a walk of the queue, Θ(actors).
    fn key_of(&self, id: ThingId) -> Option<(u64, u64)> {
        if !self.slot.contains(id) {
            return None;
        }
        match self.queue.first() {
            Some((k, first)) if first == id => Some(k),
            _ => self.queue.find(id),
        }
    }

    fn put(&mut self, id: ThingId, at: u64) {
        let key = (at, self.seq);
        self.seq += 1;
        if let Some(old) = self.key_of(id) {
            self.queue.remove(old);
        } else {
            self.slot.mark(id, true);
        }
        self.queue.insert(key, id);
    }

    pub(crate) fn remove(&mut self, id: ThingId) {
        if let Some(key) = self.key_of(id) {
            self.queue.remove(key);
            self.slot.mark(id, false);
        }
    }

    /// Take every queued actor for which `out` holds out of the queue, in one pass.
    fn remove_where(&mut self, mut out: impl FnMut(ThingId) -> bool) {
        let mut gone = Vec::new();
        self.queue.retain(|_, id| {
            let keep = !out(id);
            if !keep {
                gone.push(id);
            }
            keep
        });
        for id in gone {
            self.slot.mark(id, false);
        }
    }

    fn first(&self) -> Option<((u64, u64), ThingId)> {
        self.queue.first()
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = ThingId> + '_ {
        self.queue.iter().map(|(_, id)| id)
    }

    pub(crate) fn check(&self, game: &Game) -> Result<(), InvariantError> {
        if self.queue.len() != self.slot.len() {
            return Err(InvariantError::Schedule("queue and slots differ in size"));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.queue.len());
        for (k, id) in self.queue.iter() {
            if !self.slot.contains(id) || !seen.insert(id) {
                return Err(InvariantError::Schedule("a queued actor's slot disagrees"));
            }
            if !game.contains(id) {
                return Err(InvariantError::ScheduledMissing(id));
            }
            if k.1 >= self.seq {
                return Err(InvariantError::Schedule("a slot is newer than the counter"));
            }
            if let (Some(awake), Ok(Place::Map(l))) = (&self.awake, game.place(id))
                && !awake.contains(&l.z)
            {
                return Err(InvariantError::Schedule(
                    "an actor on a sleeping level is queued",
                ));
            }
        }
        Ok(())
    }
}

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

/// How [`Game::advance_until_mut`] stopped.
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

impl Game {
    /// The scheduler's clock: the time of the action last begun, in ticks.
    #[must_use]
    pub fn clock(&self) -> u64 {
        self.turnly.schedule.clock
    }

    /// Put `id` in the actor queue to act `delay` ticks from now (moving it if it was
    /// queued). Θ(log actors).
    pub fn schedule_mut(&mut self, id: ThingId, delay: u64) -> Result<(), Error> {
        self.get_thing(id)?;
        let at = self.turnly.schedule.clock.saturating_add(delay);
        Arc::make_mut(&mut self.turnly).schedule.put(id, at);
        Ok(())
    }

    /// Take `id` out of the actor queue (nothing happens if it was not queued).
    pub fn unschedule_mut(&mut self, id: ThingId) {
        Arc::make_mut(&mut self.turnly).schedule.remove(id);
    }

    /// Whether `id` is in the actor queue.
    #[must_use]
    pub fn is_scheduled(&self, id: ThingId) -> bool {
        self.turnly.schedule.slot.contains(id)
    }

    /// Every queued actor, in the order they will act.
    pub fn actors(&self) -> impl Iterator<Item = ThingId> + '_ {
        self.turnly.schedule.ids()
    }

    /// The actor that acts next, if any. Θ(log actors).
    #[must_use]
    pub fn next_actor(&self) -> Option<ThingId> {
        self.turnly.schedule.first().map(|(_, id)| id)
    }

    /// How many ticks an action of `cost` takes `id` at its current [`SPEED`] (modifiers
    /// applied): `cost · 100 / speed`, at least 1.
    pub fn action_delay(&self, id: ThingId, cost: u64) -> Result<u64, Error> {
        let speed = u64::try_from(self.query(id, &SPEED)?.max(1)).unwrap_or(1);
        Ok((cost.saturating_mul(100) / speed).max(1))
    }

    /// Record that `id` took an action of `cost` (e.g. [`NORMAL_ACTION`]): the clock moves to
    /// the time `id` was due, and `id` is queued again after [`Game::action_delay`].
    pub fn acted_mut(&mut self, id: ThingId, cost: u64) -> Result<(), Error> {
        let delay = self.action_delay(id, cost)?;
        if let Some((at, _)) = self.turnly.schedule.key_of(id) {
            let s = &mut Arc::make_mut(&mut self.turnly).schedule;
            s.clock = s.clock.max(at);
        }
        self.schedule_mut(id, delay)
    }

    /// Whether `id` takes turns: flagged [`ACTS`] or with an [`ON_ACTION`] hook. Such a thing
    /// is queued when spawned ([`Game::spawn_mut`]) and when its level wakes.
    #[must_use]
    pub fn takes_turns(&self, id: ThingId) -> bool {
        self.query(id, &ACTS).unwrap_or(false)
            || self.query_opt(id, &ON_ACTION).ok().flatten().is_some()
    }

    /// The awake levels, ascending; `None` when every level is awake (the default).
    #[must_use]
    pub fn awake_levels(&self) -> Option<Vec<i32>> {
        self.turnly
            .schedule
            .awake
            .as_ref()
            .map(|a| a.iter().copied().collect())
    }

    /// Simulate only `levels`: queued actors elsewhere leave the queue (they sleep), and the
    /// things on these levels that [take turns](Game::takes_turns) and are not queued are
    /// queued to act now, in id order. From then on, a thing that takes turns is queued when
    /// it moves onto an awake level and leaves the queue when it moves to a sleeping one, and
    /// [`Game::end_turn_mut`] wakes its actor's level. Θ(queued actors + things on `levels`).
    ///
    /// ```
    /// use alembic::hook::ON_ACTION;
    /// use alembic::props::Hook;
    /// use alembic::{Game, Loc, Thing, Props};
    /// let mut g = Game::new(1);
    /// let bat = |g: &mut Game, z| g.add_thing_mut(Loc::new(0, 0, z), Thing::new(Props::new().with(&ON_ACTION, Hook::new("flap"))));
    /// let (up, down) = (bat(&mut g, 0)?, bat(&mut g, 1)?);
    /// g.set_awake_levels_mut([0])?;
    /// assert_eq!(g.actors().collect::<Vec<_>>(), [up]);
    /// g.move_thing_mut(up, Loc::new(0, 0, 1))?; // it flew down to a sleeping level
    /// assert!(!g.is_scheduled(up) && !g.is_scheduled(down));
    /// # Ok::<(), alembic::Error>(())
    /// ```
    pub fn set_awake_levels_mut(
        &mut self,
        levels: impl IntoIterator<Item = i32>,
    ) -> Result<(), Error> {
        let awake: OrdSet<i32> = levels.into_iter().collect();
        let asleep: std::collections::HashSet<ThingId> = self
            .actors()
            .filter(|&id| matches!(self.place(id), Ok(Place::Map(l)) if !awake.contains(&l.z)))
            .collect();
        if !asleep.is_empty() {
            Arc::make_mut(&mut self.turnly)
                .schedule
                .remove_where(|id| asleep.contains(&id));
        }
        for &z in &awake {
            let mut here: Vec<ThingId> = self
                .things_on_level(z)
                .into_iter()
                .flat_map(|(_, ids)| ids.iter().copied())
                .collect();
            here.sort_unstable();
            for id in here {
                if !self.is_scheduled(id) && self.takes_turns(id) {
                    self.schedule_mut(id, 0)?;
                }
            }
        }
        Arc::make_mut(&mut self.turnly).schedule.awake = Some(awake);
        Ok(())
    }

    /// Keep the queue true to the awake levels after `id` was put at `to` (by a move).
    pub(crate) fn placed_mut(&mut self, id: ThingId, to: Place) -> Result<(), Error> {
        let (Some(awake), Place::Map(l)) = (&self.turnly.schedule.awake, to) else {
            return Ok(());
        };
        if !awake.contains(&l.z) {
            Arc::make_mut(&mut self.turnly).schedule.remove(id);
        } else if !self.is_scheduled(id) && self.takes_turns(id) {
            self.schedule_mut(id, 0)?;
        }
        Ok(())
    }

    /// The common turn in one call: `actor` took an action of `cost`; the world runs until
    /// it is `actor`'s turn again, or `over(game)` holds, or `max_actions` other actions were
    /// taken. Returns which ([`TurnEnd`]).
    ///
    /// If levels sleep ([`Game::set_awake_levels_mut`]) and `actor` ended its action on a
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
    ///     let hero = g.things_at(Loc::new(0, 0, 0))[0];
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
        if let (Some(awake), Place::Map(l)) = (&work.turnly.schedule.awake, work.place(actor)?)
            && !awake.contains(&l.z)
        {
            work.set_awake_levels_mut([l.z])?;
        }
        if !work.is_scheduled(actor) {
            work.schedule_mut(actor, 0)?;
        }
        work.acted_mut(actor, cost)?;
        work.set_turn_mut(work.turn().saturating_add(1));
        let end = if over(&work) {
            TurnEnd::Over
        } else {
            let advance = work.advance_until_mut(ctx, max_actions, |g, id| {
                id == actor || !g.contains(actor) || over(g)
            })?;
            if !work.contains(actor) {
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

    /// Let queued actors act, in order, until `stop(game, next)` holds for the next one, the
    /// queue is empty, or `max_actions` actions were taken.
    ///
    /// Each actor runs its [`ON_ACTION`] hook (if it has one) with `ctx`. If the hook did
    /// not queue the actor itself (with [`Game::acted_mut`] or [`Game::schedule_mut`], say
    /// for a slow action) and the actor still exists, it is queued again after one
    /// [`NORMAL_ACTION`]. All or nothing: if a hook fails, the game is as it was.
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
    ///     g.schedule_mut(id, 0)?;
    /// }
    /// let mut ctx = HookCtx::new(&hooks);
    /// for _ in 0..4 {
    ///     assert_eq!(g.advance_until_mut(&mut ctx, 100, |_, id| id == hero)?, Advance::Stopped(hero));
    ///     g.acted_mut(hero, NORMAL_ACTION)?; // the hero's command
    /// }
    /// // Before the hero's fourth action (at tick 300), the fast one acted at ticks 0, 50, …, 250
    /// // and the slow one at 0 and 200.
    /// assert_eq!((g.query(fast, &MOVES)?, g.query(slow, &MOVES)?), (6, 2));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// [`ON_ACTION`]: crate::hook::ON_ACTION
    pub fn advance_until_mut(
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
            |g, ctx, id| {
                g.run_hook_mut(ctx, &ON_ACTION, HookCall::on(id))
                    .map(|_| ())
            },
        )
    }

    /// Let queued actors act, in order, each through the game's own actor rule `act`, until
    /// `stop(game, next)` holds for the next one, the queue is empty, or `max_actions`
    /// actions were taken: [`Game::advance_until_mut`] for a game whose creatures share one
    /// rule (say its monster AI) rather than a hook each.
    ///
    /// `act(game, ctx, actor)` plays the actor's action and reports it with
    /// [`Game::acted_mut`] (or [`Game::schedule_mut`] for a delay of its own); the clock
    /// moves to an actor's time when its action is reported, so it stays "the time of the
    /// action last begun". An actor the rule did not queue again, and that still exists, is
    /// queued after one [`NORMAL_ACTION`], as with hooks. All or nothing: if `act` fails,
    /// the game is as it was. Θ(log actors) per action besides the rule's own cost.
    ///
    /// # Errors
    /// [`Error::NotActed`], as for [`Game::advance_until_mut`]; the rule's own error.
    ///
    /// ```
    /// use alembic::schedule::{Advance, NORMAL_ACTION, SPEED};
    /// use alembic::{Error, Game, HookCtx, Hooks, Loc, Prop, Props, Thing};
    /// const MOVES: Prop<i32> = Prop::with_default("moves", 0);
    /// let mut g = Game::new(1);
    /// let hero = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
    /// let rat = g.add_thing_mut(Loc::new(1, 0, 0), Thing::new(Props::new().with(&SPEED, 200)))?;
    /// g.schedule_mut(hero, 0)?;
    /// g.schedule_mut(rat, 0)?;
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
    ///     assert_eq!(g.take_turns_mut(&mut ctx, 100, |_, id| id == hero, &mut rule)?, Advance::Stopped(hero));
    /// }
    /// // At twice the hero's speed the rat acted at ticks 0, 50, …, 250.
    /// assert_eq!(g.query(rat, &MOVES)?, 6);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn take_turns_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        max_actions: usize,
        stop: impl FnMut(&Game, ThingId) -> bool,
        act: impl FnMut(&mut Game, &mut HookCtx<'_>, ThingId) -> Result<(), Error>,
    ) -> Result<Advance, Error> {
        self.run_actors(ctx, max_actions, stop, Clock::WhenActed, act)
    }

    /// The one loop behind [`Game::advance_until_mut`] and [`Game::take_turns_mut`].
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
            && self.turnly.schedule.queue.get(key) == Some(id)
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
            // The actor's entry is still there: its rule did not reschedule it.
            if work.contains(id) && work.turnly.schedule.queue.get(key) == Some(id) {
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

    #[test]
    fn a_game_with_a_schedule_is_send_and_sync() {
        fn check<T: Send + Sync>(_: &T) {}
        let mut g = Game::new(1);
        let id = g
            .add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))
            .expect("add");
        g.schedule_mut(id, 5).expect("schedule");
        check(&g);
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
            g.schedule_mut(id, (k as u64 * 7919) % 101)
                .expect("schedule");
        }
        let before = g.clone();
        for round in 0..5u64 {
            for (k, &id) in ids.iter().enumerate() {
                g.schedule_mut(id, (k as u64 * 31 + round) % 97)
                    .expect("reschedule");
            }
        }
        g.remove_thing_mut(ids[3]).expect("remove");
        assert_eq!(g.turnly.schedule.queue.len(), ids.len() - 1);
        g.check_invariants().expect("invariants");
        before.check_invariants().expect("old value's invariants");
        assert_eq!(before.turnly.schedule.queue.len(), ids.len());
        // The queue is in (time, order queued) order, and each actor is in it once.
        let order: Vec<(u64, u64)> = g.turnly.schedule.queue.iter().map(|(k, _)| k).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
    }
}
