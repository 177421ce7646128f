//! The actor queue kept in the game value: the store behind [`schedule`](crate::schedule).
//! It names no game: the scheduler's rules that read things are in `schedule` and `game`.

use imbl::OrdSet;
use serde::{Deserialize, Serialize};

use crate::error::InvariantError;
use crate::id::ThingId;
use crate::runq::{Key, RunQueue};
use crate::words::Words;

/// Which lane of the queue an actor waits in: the level of the map it stands on, or
/// [`Lane::Off`] for an actor inside a container (a carried actor never sleeps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Lane {
    /// On the map, on this level.
    Level(i32),
    /// Inside a container.
    Off,
}

impl Lane {
    /// The lane of an actor at `place`.
    #[inline]
    pub(crate) fn of(place: crate::Place) -> Lane {
        match place {
            crate::Place::Map(l) => Lane::Level(l.z),
            crate::Place::In(_) => Lane::Off,
        }
    }
}

/// The actor queue: (time, order queued) → actor, one lane per level (and one for carried
/// actors), and which actors are queued.
///
/// The lanes make a level's sleep Θ(1) in its actors: its lane is dropped whole. The next
/// actor is the least first key of the lanes (a game in play has one or two: the hero's
/// level, and carried actors if any).
#[derive(Clone, Debug, Default)]
pub(crate) struct ActorQueue {
    pub(crate) clock: u64,
    seq: u64,
    /// The lanes, by lane; none is empty.
    lanes: Vec<(Lane, RunQueue)>,
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
        self.clock == o.clock
            && self.seq == o.seq
            && self.len() == o.len()
            && self.entries().eq(o.entries())
            && self.awake == o.awake
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
        self.lanes.is_empty() && self.clock == 0 && self.seq == 0 && self.awake.is_none()
    }

    /// How many actors are queued.
    pub(crate) fn len(&self) -> usize {
        self.lanes.iter().map(|(_, q)| q.len()).sum()
    }

    /// Every entry in key order: the lanes merged, Θ(lanes) a step.
    pub(crate) fn entries(&self) -> Merged<'_> {
        Merged {
            heads: self
                .lanes
                .iter()
                .map(|(_, q)| {
                    let mut it = Box::new(q.iter()) as LaneEntries<'_>;
                    let head = it.next();
                    (head, it)
                })
                .collect(),
        }
    }

    pub(crate) fn to_repr(&self) -> ActorQueueRepr {
        ActorQueueRepr {
            clock: self.clock,
            seq: self.seq,
            queue: self.entries().map(|((t, s), id)| (t, s, id)).collect(),
            awake: self.awake.as_ref().map(|a| a.iter().copied().collect()),
        }
    }

    /// The queue saved as `r`, every actor in [`Lane::Off`] until the game it belongs to
    /// puts each in its lane ([`ActorQueue::relane`]).
    pub(crate) fn from_repr(r: ActorQueueRepr) -> ActorQueue {
        let mut s = ActorQueue {
            clock: r.clock,
            seq: r.seq,
            awake: r.awake.map(|a| a.into_iter().collect()),
            ..ActorQueue::default()
        };
        for (t, o, id) in r.queue {
            let i = s.lane_index(Lane::Off);
            s.lanes[i].1.insert((t, o), id);
            s.slot.mark(id, true);
        }
        s
    }

    /// Every actor put in the lane `lane` gives it, keys kept. Θ(actors).
    pub(crate) fn relane(&mut self, lane: impl Fn(ThingId) -> Lane) {
        let entries: Vec<(Key, ThingId)> = self.entries().collect();
        self.lanes.clear();
        for (k, id) in entries {
            let i = self.lane_index(lane(id));
            self.lanes[i].1.insert(k, id);
        }
    }

    pub(crate) fn hash_into<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        self.clock.hash(state);
        self.seq.hash(state);
        for (k, id) in self.entries() {
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

    /// The index of `lane` in the lanes, made (empty) if it has none: a caller puts an
    /// entry in it at once.
    fn lane_index(&mut self, lane: Lane) -> usize {
        match self.lanes.binary_search_by_key(&lane, |(l, _)| *l) {
            Ok(i) => i,
            Err(i) => {
                self.lanes.insert(i, (lane, RunQueue::default()));
                i
            }
        }
    }

    /// Drop lane `i` if it is empty.
    fn prune(&mut self, i: usize) {
        if self.lanes.get(i).is_some_and(|(_, q)| q.is_empty()) {
            self.lanes.remove(i);
        }
    }

    /// The first entry and its lane's index: the least of the lanes' first keys. Θ(lanes).
    #[inline]
    fn first_in(&self) -> Option<((u64, u64), ThingId, usize)> {
        let mut best: Option<((u64, u64), ThingId, usize)> = None;
        for (i, (_, q)) in self.lanes.iter().enumerate() {
            if let Some((k, id)) = q.first()
                && best.is_none_or(|(b, _, _)| k < b)
            {
                best = Some((k, id, i));
            }
        }
        best
    }

    /// `id`'s key and lane index, if it is queued: Θ(lanes) for the first actor (the one
    /// acting, in every turn's loop), otherwise a walk of `lane` (the lane of its place,
    /// when the caller knows it) or of every lane, Θ(actors).
    fn locate(&self, id: ThingId, lane: Option<Lane>) -> Option<((u64, u64), usize)> {
        if !self.slot.contains(id) {
            return None;
        }
        if let Some((k, first, i)) = self.first_in()
            && first == id
        {
            return Some((k, i));
        }
        match lane {
            Some(l) => {
                let i = self.lanes.binary_search_by_key(&l, |(x, _)| *x).ok()?;
                self.lanes[i].1.find(id).map(|k| (k, i))
            }
            None => self
                .lanes
                .iter()
                .enumerate()
                .find_map(|(i, (_, q))| q.find(id).map(|k| (k, i))),
        }
    }

    /// `id`'s key, if it is queued: Θ(lanes) for the first actor, otherwise Θ(actors).
    pub(crate) fn key_of(&self, id: ThingId) -> Option<(u64, u64)> {
        self.locate(id, None).map(|(k, _)| k)
    }

    /// Whether the entry under `key` is `id`'s: Θ(lanes) when `key` is below every lane's
    /// first (an actor queued again since), else a search of each lane.
    pub(crate) fn holds(&self, key: (u64, u64), id: ThingId) -> bool {
        self.lanes.iter().any(|(_, q)| q.get(key) == Some(id))
    }

    /// Queue `id`, whose place is in `lane`, at time `at` (moving it if it was queued).
    pub(crate) fn put(&mut self, id: ThingId, at: u64, lane: Lane) {
        let old = self.locate(id, Some(lane));
        self.requeue(id, at, old, Some(lane));
    }

    /// `id` acted: the clock moves to the time it was due (if it was queued), and it is
    /// queued `delay` after that: [`put`](ActorQueue::put) after the clock's move, with one
    /// lookup of its key.
    /// `lane` is the lane of `id`'s place; `None` only when `id` is the first actor.
    pub(crate) fn acted(&mut self, id: ThingId, delay: u64, lane: Option<Lane>) {
        let old = self.locate(id, lane);
        if let Some(((at, _), _)) = old {
            self.clock = self.clock.max(at);
        }
        self.requeue(id, self.clock.saturating_add(delay), old, lane);
    }

    /// Queue `id` at time `at`, moving it within its lane from its key `old` if it was
    /// queued, else in `lane` (known whenever `id` is not queued).
    fn requeue(
        &mut self,
        id: ThingId,
        at: u64,
        old: Option<((u64, u64), usize)>,
        lane: Option<Lane>,
    ) {
        let key = (at, self.seq);
        self.seq += 1;
        let i = match old {
            Some((k, i)) => {
                self.lanes[i].1.remove(k);
                i
            }
            None => {
                self.slot.mark(id, true);
                self.lane_index(lane.unwrap_or(Lane::Off))
            }
        };
        self.lanes[i].1.insert(key, id);
    }

    /// Take `id`, whose place is in `lane`, out of the queue (nothing happens if it is not
    /// queued).
    pub(crate) fn remove(&mut self, id: ThingId, lane: Lane) {
        if let Some((key, i)) = self.locate(id, Some(lane)) {
            self.lanes[i].1.remove(key);
            self.prune(i);
            self.slot.mark(id, false);
        }
    }

    /// `id`, queued, moved from lane `from` to lane `to`: its entry follows, key kept.
    /// Nothing happens when it is not queued. Θ(actors of its lane) to find its entry
    /// (Θ(1) for the first).
    pub(crate) fn change_lane(&mut self, id: ThingId, from: Lane, to: Lane) {
        if from == to || !self.slot.contains(id) {
            return;
        }
        let Some((key, i)) = self.locate(id, Some(from)) else {
            return;
        };
        self.lanes[i].1.remove(key);
        self.prune(i);
        let j = self.lane_index(to);
        self.lanes[j].1.insert(key, id);
    }

    /// Only the levels in `awake` (and carried actors) stay queued: every other level's
    /// lane is dropped whole. Θ(lanes) plus the queued-actor bits of those that leave, or,
    /// when more leave than stay, of those that stay (marked afresh).
    pub(crate) fn sleep_all_but(&mut self, awake: &OrdSet<i32>) {
        let (stay, gone): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.lanes)
                .into_iter()
                .partition(|(l, _)| match l {
                    Lane::Level(z) => awake.contains(z),
                    Lane::Off => true,
                });
        self.lanes = stay;
        let left: usize = gone.iter().map(|(_, q)| q.len()).sum();
        if left == 0 {
            return;
        }
        if left > self.len() {
            let mut slot = Slots::default();
            for (_, id) in self.lanes.iter().flat_map(|(_, q)| q.iter()) {
                slot.mark(id, true);
            }
            self.slot = slot;
        } else {
            for (_, id) in gone.iter().flat_map(|(_, q)| q.iter()) {
                self.slot.mark(id, false);
            }
        }
    }

    pub(crate) fn first(&self) -> Option<((u64, u64), ThingId)> {
        self.first_in().map(|(k, id, _)| (k, id))
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = ThingId> + '_ {
        self.entries().map(|(_, id)| id)
    }

    /// Check the queue against the game: `exists` says whether an id names a thing, and
    /// `level` gives the level of a thing on the map (`None` inside a container).
    pub(crate) fn check(
        &self,
        exists: impl Fn(ThingId) -> bool,
        level: impl Fn(ThingId) -> Option<i32>,
    ) -> Result<(), InvariantError> {
        if self.len() != self.slot.len() {
            return Err(InvariantError::Schedule("queue and slots differ in size"));
        }
        if self.lanes.windows(2).any(|w| w[0].0 >= w[1].0)
            || self.lanes.iter().any(|(_, q)| q.is_empty())
        {
            return Err(InvariantError::Schedule(
                "the lanes are out of order or one is empty",
            ));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.len());
        for (lane, q) in &self.lanes {
            for (k, id) in q.iter() {
                if !self.slot.contains(id) || !seen.insert(id) {
                    return Err(InvariantError::Schedule("a queued actor's slot disagrees"));
                }
                if !exists(id) {
                    return Err(InvariantError::ScheduledMissing(id));
                }
                if k.1 >= self.seq {
                    return Err(InvariantError::Schedule("a slot is newer than the counter"));
                }
                let z = level(id);
                if *lane != z.map_or(Lane::Off, Lane::Level) {
                    return Err(InvariantError::Schedule(
                        "a queued actor is in another's lane",
                    ));
                }
                if let (Some(awake), Some(z)) = (&self.awake, z)
                    && !awake.contains(&z)
                {
                    return Err(InvariantError::Schedule(
                        "an actor on a sleeping level is queued",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// One lane's entries in key order.
type LaneEntries<'a> = Box<dyn Iterator<Item = (Key, ThingId)> + 'a>;

/// The lanes' entries merged in key order ([`ActorQueue::entries`]).
pub(crate) struct Merged<'a> {
    /// Each lane's next entry and the rest of it.
    heads: Vec<(Option<(Key, ThingId)>, LaneEntries<'a>)>,
}

impl Iterator for Merged<'_> {
    type Item = (Key, ThingId);

    fn next(&mut self) -> Option<(Key, ThingId)> {
        let i = self
            .heads
            .iter()
            .enumerate()
            .filter_map(|(i, (h, _))| h.map(|(k, _)| (k, i)))
            .min()?
            .1;
        let (head, rest) = &mut self.heads[i];
        let out = *head;
        *head = rest.next();
        out
    }
}
