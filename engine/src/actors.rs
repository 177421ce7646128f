//! The actor queue kept in the game value: the store behind [`schedule`](crate::schedule).
//! It names no game: the scheduler's rules that read things are in `schedule` and `game`.

use imbl::OrdSet;
use serde::{Deserialize, Serialize};

use crate::error::InvariantError;
use crate::id::ThingId;
use crate::runq::RunQueue;
use crate::words::Words;

/// The actor queue: (time, order queued) → actor, and its inverse.
#[derive(Clone, Debug, Default)]
pub(crate) struct ActorQueue {
    pub(crate) clock: u64,
    seq: u64,
    pub(crate) queue: RunQueue,
    /// Which actors are queued (a bit per id).
    pub(crate) slot: Slots,
    /// The levels simulated; `None` when every level is.
    pub(crate) awake: Option<OrdSet<i32>>,
    /// The actor the last advance stopped for, with its queue key then: advancing again before
    /// that actor acted (and so got a new key) is [`Error::NotActed`](crate::Error::NotActed).
    /// A guard, not part of the world: not saved, hashed or compared.
    pub(crate) awaiting: Option<(ThingId, (u64, u64))>,
}

impl PartialEq for ActorQueue {
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
pub(crate) struct Slots {
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
    pub(crate) fn contains(&self, id: ThingId) -> bool {
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

/// The saved form of an [`ActorQueue`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ActorQueueRepr {
    clock: u64,
    seq: u64,
    /// (time, order, actor), in queue order.
    queue: Vec<(u64, u64, ThingId)>,
    /// The awake levels, when not every level is (absent in saves that never set them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    awake: Option<Vec<i32>>,
}

impl ActorQueue {
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty() && self.clock == 0 && self.seq == 0 && self.awake.is_none()
    }

    pub(crate) fn to_repr(&self) -> ActorQueueRepr {
        ActorQueueRepr {
            clock: self.clock,
            seq: self.seq,
            queue: self.queue.iter().map(|((t, s), id)| (t, s, id)).collect(),
            awake: self.awake.as_ref().map(|a| a.iter().copied().collect()),
        }
    }

    pub(crate) fn from_repr(r: ActorQueueRepr) -> ActorQueue {
        let mut s = ActorQueue {
            clock: r.clock,
            seq: r.seq,
            awake: r.awake.map(|a| a.into_iter().collect()),
            ..ActorQueue::default()
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
    pub(crate) fn key_of(&self, id: ThingId) -> Option<(u64, u64)> {
        if !self.slot.contains(id) {
            return None;
        }
        match self.queue.first() {
            Some((k, first)) if first == id => Some(k),
            _ => self.queue.find(id),
        }
    }

    pub(crate) fn put(&mut self, id: ThingId, at: u64) {
        let old = self.key_of(id);
        self.requeue(id, at, old);
    }

    /// `id` acted: the clock moves to the time it was due (if it was queued), and it is
    /// queued `delay` after that: [`put`](ActorQueue::put) after the clock's move, with one
    /// lookup of its key.
    pub(crate) fn acted(&mut self, id: ThingId, delay: u64) {
        let old = self.key_of(id);
        if let Some((at, _)) = old {
            self.clock = self.clock.max(at);
        }
        self.requeue(id, self.clock.saturating_add(delay), old);
    }

    /// Queue `id` at time `at`, moving it from its key `old` if it was queued.
    fn requeue(&mut self, id: ThingId, at: u64, old: Option<(u64, u64)>) {
        let key = (at, self.seq);
        self.seq += 1;
        match old {
            Some(k) => {
                self.queue.remove(k);
            }
            None => {
                self.slot.mark(id, true);
            }
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
    pub(crate) fn remove_where(&mut self, mut out: impl FnMut(ThingId) -> bool) {
        let mut gone = Vec::new();
        self.queue.retain(|_, id| {
            let keep = !out(id);
            if !keep {
                gone.push(id);
            }
            keep
        });
        if gone.len() > self.queue.len() {
            // Most of the queue left (a level put to sleep in a game where every level was
            // awake): the slots of those that stay, marked afresh, rather than a persistent
            // write per actor that left.
            let mut slot = Slots::default();
            for (_, id) in self.queue.iter() {
                slot.mark(id, true);
            }
            self.slot = slot;
        } else {
            for id in gone {
                self.slot.mark(id, false);
            }
        }
    }

    pub(crate) fn first(&self) -> Option<((u64, u64), ThingId)> {
        self.queue.first()
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = ThingId> + '_ {
        self.queue.iter().map(|(_, id)| id)
    }

    /// Check the queue against the game: `exists` says whether an id names a thing, and
    /// `level` gives the level of a thing on the map.
    pub(crate) fn check(
        &self,
        exists: impl Fn(ThingId) -> bool,
        level: impl Fn(ThingId) -> Option<i32>,
    ) -> Result<(), InvariantError> {
        if self.queue.len() != self.slot.len() {
            return Err(InvariantError::Schedule("queue and slots differ in size"));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.queue.len());
        for (k, id) in self.queue.iter() {
            if !self.slot.contains(id) || !seen.insert(id) {
                return Err(InvariantError::Schedule("a queued actor's slot disagrees"));
            }
            if !exists(id) {
                return Err(InvariantError::ScheduledMissing(id));
            }
            if k.1 >= self.seq {
                return Err(InvariantError::Schedule("a slot is newer than the counter"));
            }
            if let (Some(awake), Some(z)) = (&self.awake, level(id))
                && !awake.contains(&z)
            {
                return Err(InvariantError::Schedule(
                    "an actor on a sleeping level is queued",
                ));
            }
        }
        Ok(())
    }
}
