//! Property tests of the actor queue: random scheduling, actions, removals and advances run
//! against a plain `Vec` oracle. After every step the next actor, the queue order and the
//! clock agree, `check_invariants()` passes, and a save round trip keeps the queue.

#![allow(clippy::unwrap_used)]

use alembic::{
    Error, Game, HookCtx, Hooks, Loc, Place, Prop, Props, Thing, ThingId, hook::HookCall,
    hook::ON_ACTION, library::IS_CONTAINER, props::Hook, schedule::Advance,
    schedule::NORMAL_ACTION, schedule::SPEED,
};
use proptest::prelude::*;

fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

const ACTED: Prop<i32> = Prop::with_default("acted", 0);

fn count(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let n = g.query(call.this, &ACTED)?;
    g.set_mut(call.this, &ACTED, n + 1)
}

#[derive(Clone, Debug)]
enum Op {
    Add {
        speed: i32,
        container: bool,
        inside: Option<usize>,
    },
    Schedule(usize, u64),
    Unschedule(usize),
    Acted(usize, u64),
    Remove(usize),
    /// Advance until the n-th issued id is next (or the limit).
    Advance(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (1i32..400, any::<bool>(), prop::option::of(0usize..20))
            .prop_map(|(speed, container, inside)| Op::Add { speed, container, inside }),
        3 => (0usize..20, 0u64..300).prop_map(|(i, d)| Op::Schedule(i, d)),
        1 => (0usize..20).prop_map(Op::Unschedule),
        3 => (0usize..20, 1u64..300).prop_map(|(i, c)| Op::Acted(i, c)),
        1 => (0usize..20).prop_map(Op::Remove),
        2 => (0usize..20, 0usize..30).prop_map(|(i, n)| Op::Advance(i, n)),
    ]
}

/// The oracle: (time, order, id) entries, the clock, the order counter, and each thing's
/// speed, parent and action count.
#[derive(Clone, Debug, Default)]
struct Oracle {
    queue: Vec<(u64, u64, ThingId)>,
    clock: u64,
    seq: u64,
    things: Vec<(ThingId, i32, Option<ThingId>, i32)>,
    /// The queue entry the last advance stopped at: advancing again while it is still the
    /// first entry (that actor has not acted) is refused.
    awaiting: Option<(u64, u64, ThingId)>,
}

impl Oracle {
    fn alive(&self, id: ThingId) -> bool {
        self.things.iter().any(|t| t.0 == id)
    }
    fn speed(&self, id: ThingId) -> u64 {
        self.things
            .iter()
            .find(|t| t.0 == id)
            .map_or(1, |t| t.1.max(1) as u64)
    }
    fn put(&mut self, id: ThingId, at: u64) {
        self.queue.retain(|e| e.2 != id);
        self.queue.push((at, self.seq, id));
        self.seq += 1;
        self.queue.sort();
    }
    fn acted(&mut self, id: ThingId, cost: u64) {
        let delay = (cost * 100 / self.speed(id)).max(1);
        if let Some(e) = self.queue.iter().find(|e| e.2 == id) {
            self.clock = self.clock.max(e.0);
        }
        let at = self.clock + delay;
        self.put(id, at);
    }
    fn remove(&mut self, id: ThingId) {
        let mut gone = vec![id];
        while let Some(x) = gone.pop() {
            self.queue.retain(|e| e.2 != x);
            let children: Vec<ThingId> = self
                .things
                .iter()
                .filter(|t| t.2 == Some(x))
                .map(|t| t.0)
                .collect();
            self.things.retain(|t| t.0 != x);
            gone.extend(children);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(128)))]

    #[test]
    fn schedule_matches_oracle(ops in prop::collection::vec(op(), 1..60)) {
        let hooks = Hooks::new().register("count", count).unwrap();
        let mut ctx = HookCtx::new(&hooks);
        let mut g = Game::new(3);
        let mut o = Oracle::default();
        let mut issued: Vec<ThingId> = Vec::new();
        let pick = |issued: &[ThingId], i: usize| issued.get(i).copied().unwrap_or(ThingId(999_999));
        for op in ops {
            let before = g.clone();
            match op {
                Op::Add { speed, container, inside } => {
                    let props = Props::new()
                        .with(&SPEED, speed)
                        .with(&IS_CONTAINER, container)
                        .with(&ON_ACTION, Hook::new("count"));
                    let parent = inside.map(|i| pick(&issued, i));
                    let place = parent.map_or(Place::Map(Loc::new(0, 0, 0)), Place::In);
                    if let Ok(id) = g.add_thing_mut(place, Thing::new(props)) {
                        issued.push(id);
                        o.things.push((id, speed, parent, 0));
                    }
                }
                Op::Schedule(i, d) => {
                    let id = pick(&issued, i);
                    match g.scheduler().add(id, d) {
                        Ok(()) => { prop_assert!(o.alive(id)); let at = o.clock + d; o.put(id, at); }
                        Err(_) => { prop_assert!(!o.alive(id)); prop_assert!(g == before); }
                    }
                }
                Op::Unschedule(i) => {
                    let id = pick(&issued, i);
                    g.scheduler().remove(id);
                    o.queue.retain(|e| e.2 != id);
                }
                Op::Acted(i, c) => {
                    let id = pick(&issued, i);
                    match g.acted_mut(id, c) {
                        Ok(()) => o.acted(id, c),
                        Err(_) => { prop_assert!(!o.alive(id)); prop_assert!(g == before); }
                    }
                }
                Op::Remove(i) => {
                    let id = pick(&issued, i);
                    if g.remove_thing_mut(id).is_ok() {
                        o.remove(id);
                    }
                }
                Op::Advance(i, limit) => {
                    let target = pick(&issued, i);
                    let got = g.scheduler().advance_until(&mut ctx, limit, |_, id| id == target);
                    if o.awaiting.is_some() && o.awaiting == o.queue.first().copied() {
                        let id = o.awaiting.map(|e| e.2).unwrap();
                        prop_assert_eq!(got, Err(Error::NotActed(id)));
                        prop_assert!(g == before);
                        continue;
                    }
                    let got = got.unwrap();
                    let mut expect = Advance::Limit;
                    let mut acted = 0;
                    loop {
                        let Some(&(at, _, id)) = o.queue.first() else { expect = Advance::Empty; break };
                        o.clock = o.clock.max(at);
                        if id == target { expect = Advance::Stopped(id); break; }
                        if acted == limit { break; }
                        acted += 1;
                        if let Some(t) = o.things.iter_mut().find(|t| t.0 == id) { t.3 += 1; }
                        o.acted(id, NORMAL_ACTION);
                    }
                    o.awaiting = match expect {
                        Advance::Stopped(_) => o.queue.first().copied(),
                        _ => None,
                    };
                    prop_assert_eq!(got, expect);
                }
            }
            g.check_invariants().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let order: Vec<ThingId> = o.queue.iter().map(|e| e.2).collect();
            prop_assert_eq!(g.schedule().actors().collect::<Vec<_>>(), order.clone());
            prop_assert_eq!(g.schedule().next_actor(), order.first().copied());
            prop_assert_eq!(g.schedule().clock(), o.clock);
            for t in &o.things {
                prop_assert_eq!(g.query(t.0, &ACTED), Ok(t.3));
            }
        }
        let json = serde_json::to_string(&g).unwrap();
        let back: Game = serde_json::from_str(&json).unwrap();
        prop_assert!(back == g);
        prop_assert_eq!(back.state_hash(), g.state_hash());
    }
}
