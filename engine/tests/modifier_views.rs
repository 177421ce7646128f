//! The modifiers a holder's contents apply to it are kept as a derived view in the holder.
//! These property tests run random attach / detach / move / remove / flag / update / set
//! sequences and compare every `query` and `query_opt` with an oracle that recomputes the
//! result from scratch through the public API (each carrier's modifiers, its flags, priority
//! then carrier order), with `check_invariants()` (which rebuilds every view and compares)
//! after each step.

#![allow(clippy::unwrap_used)]

use alembic::{
    Game, Loc, Place, Prop, Props, Thing, ThingId,
    library::IS_CONTAINER,
    props::{ModOp, Modifier, PropKey, Value},
};
use proptest::prelude::*;

fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

const ST: Prop<i32> = Prop::with_default("st", 10);
const DX: Prop<i64> = Prop::new("dx");
/// Two flags that switch modifiers.
const WORN: Prop<bool> = Prop::with_default("worn", false);
const LIT: Prop<bool> = Prop::with_default("lit", false);

fn keys() -> [PropKey; 2] {
    [ST.key().clone(), DX.key().clone()]
}

#[derive(Clone, Debug)]
struct ModSpec {
    key: usize,
    op: u8,
    amount: i64,
    priority: i32,
    flag: u8,
}

impl ModSpec {
    fn build(&self) -> Modifier {
        let key = &keys()[self.key % 2];
        let op = match self.op % 5 {
            0 => ModOp::Add(self.amount),
            1 => ModOp::Scale {
                num: self.amount,
                den: (self.amount % 3) - 1,
            },
            2 => ModOp::AtLeast(self.amount),
            3 => ModOp::AtMost(self.amount),
            _ => ModOp::Set(Value::Int(self.amount)),
        };
        let m = Modifier::raw(key, op).priority(self.priority);
        match self.flag % 3 {
            0 => m,
            1 => m.while_flag(&WORN),
            _ => m.while_flag(&LIT),
        }
    }
}

fn arb_mod() -> impl Strategy<Value = ModSpec> {
    (0..2usize, 0..5u8, -20..20i64, -2..3i32, 0..3u8).prop_map(
        |(key, op, amount, priority, flag)| ModSpec {
            key,
            op,
            amount,
            priority,
            flag,
        },
    )
}

#[derive(Clone, Debug)]
enum Action {
    /// A new carrier (or plain item) inside the n-th thing, or on the map.
    Add {
        into: Option<usize>,
        mods: Vec<ModSpec>,
        worn: bool,
        container: bool,
    },
    Move {
        thing: usize,
        into: Option<usize>,
    },
    Remove(usize),
    /// Set a flag that may switch modifiers.
    Flag {
        thing: usize,
        lit: bool,
        on: bool,
    },
    /// Replace a thing's modifiers (and flip its worn flag) through `update_thing`.
    Update {
        thing: usize,
        mods: Vec<ModSpec>,
        worn: bool,
    },
    /// Write a base property the modifiers change.
    Set {
        thing: usize,
        st: i32,
    },
}

fn arb_action() -> impl Strategy<Value = Action> {
    let mods = || prop::collection::vec(arb_mod(), 0..4);
    prop_oneof![
        4 => (prop::option::of(0..12usize), mods(), any::<bool>(), any::<bool>()).prop_map(
            |(into, mods, worn, container)| Action::Add { into, mods, worn, container }
        ),
        2 => (0..12usize, prop::option::of(0..12usize))
            .prop_map(|(thing, into)| Action::Move { thing, into }),
        1 => (0..12usize).prop_map(Action::Remove),
        3 => (0..12usize, any::<bool>(), any::<bool>())
            .prop_map(|(thing, lit, on)| Action::Flag { thing, lit, on }),
        2 => (0..12usize, mods(), any::<bool>())
            .prop_map(|(thing, mods, worn)| Action::Update { thing, mods, worn }),
        1 => (0..12usize, -5..30i32).prop_map(|(thing, st)| Action::Set { thing, st }),
    ]
}

/// What a modifier does, written out again from its documented meaning.
fn apply(op: &ModOp, v: Option<Value>) -> Option<Value> {
    let int = match &v {
        Some(Value::Int(i)) => Some(*i),
        None => Some(0),
        _ => None,
    };
    match (op, int) {
        (ModOp::Set(x), _) => Some(x.clone()),
        (ModOp::Add(n), Some(i)) => Some(Value::Int(i.saturating_add(*n))),
        (ModOp::Scale { num, den }, Some(i)) if *den != 0 => {
            let r = i128::from(i) * i128::from(*num) / i128::from(*den);
            Some(Value::Int(
                i64::try_from(r.clamp(i128::from(i64::MIN), i128::from(i64::MAX))).unwrap(),
            ))
        }
        (ModOp::AtLeast(n), Some(i)) => Some(Value::Int(i.max(*n))),
        (ModOp::AtMost(n), Some(i)) => Some(Value::Int(i.min(*n))),
        _ => v,
    }
}

/// `key` on `id` recomputed from scratch: its base value (or `default`), then every active
/// modifier of the things inside it, in priority order, then carrier order.
fn oracle(g: &Game, id: ThingId, key: &PropKey, default: Option<Value>) -> Option<Value> {
    let t = g.things().get(id).unwrap();
    let mut found = Vec::new();
    for &c in t.contents() {
        let carrier = g.things().get(c).unwrap();
        for m in carrier.modifiers() {
            let on = match &m.while_flag {
                None => true,
                Some(f) => carrier.props().get(f) == Some(&Value::Bool(true)),
            };
            if &m.key == key && on {
                found.push(m.clone());
            }
        }
    }
    found.sort_by_key(|m| m.priority); // stable
    let mut v = t.props().get(key).cloned().or(default);
    for m in &found {
        v = apply(&m.op, v);
    }
    v
}

fn nth(ids: &[ThingId], n: usize) -> Option<ThingId> {
    if ids.is_empty() {
        None
    } else {
        ids.get(n % ids.len()).copied()
    }
}

fn run(actions: &[Action]) {
    let mut g = Game::new(3);
    let mut ids: Vec<ThingId> = Vec::new();
    for _ in 0..2 {
        let holder = Thing::new(Props::new().with(&IS_CONTAINER, true).with(&ST, 12));
        ids.push(g.add_thing_mut(Loc::new(0, 0, 0), holder).unwrap());
    }
    let mut versions = Vec::new();
    for (step, a) in actions.iter().enumerate() {
        let before = g.clone();
        let place = |into: &Option<usize>, ids: &[ThingId]| -> Place {
            match into.and_then(|n| nth(ids, n)) {
                Some(c) => Place::In(c),
                None => Place::Map(Loc::new(1, 0, 0)),
            }
        };
        let result = match a {
            Action::Add {
                into,
                mods,
                worn,
                container,
            } => {
                let t = Thing::new(
                    mods.iter()
                        .fold(Props::new(), |p, m| p.modifier(m.build()))
                        .with(&WORN, *worn)
                        .with(&IS_CONTAINER, *container),
                );
                g.add_thing_mut(place(into, &ids), t).map(|id| ids.push(id))
            }
            Action::Move { thing, into } => match nth(&ids, *thing) {
                Some(id) => g.move_thing_mut(id, place(into, &ids)),
                None => Ok(()),
            },
            Action::Remove(n) => match nth(&ids, *n) {
                Some(id) => g.remove_thing_mut(id).map(|_| {
                    ids.retain(|x| g.things().contains(*x));
                }),
                None => Ok(()),
            },
            Action::Flag { thing, lit, on } => match nth(&ids, *thing) {
                Some(id) if *lit => g.set_mut(id, &LIT, *on),
                Some(id) => g.set_mut(id, &WORN, *on),
                None => Ok(()),
            },
            Action::Update { thing, mods, worn } => match nth(&ids, *thing) {
                Some(id) => {
                    let mut t = g.things().get(id).unwrap().clone();
                    t.set_modifiers_mut(mods.iter().map(ModSpec::build).collect());
                    t.set_mut(&WORN, *worn);
                    g.update_thing_mut(t)
                }
                None => Ok(()),
            },
            Action::Set { thing, st } => match nth(&ids, *thing) {
                Some(id) => g.set_mut(id, &ST, *st),
                None => Ok(()),
            },
        };
        if result.is_err() {
            assert_eq!(g, before, "step {step}: a refused {a:?} changed the game");
        }
        g.check_invariants()
            .unwrap_or_else(|e| panic!("step {step} ({a:?}): {e}"));
        for &id in &ids {
            let st = oracle(&g, id, ST.key(), Some(Value::Int(10)));
            match &st {
                Some(Value::Int(i)) if i32::try_from(*i).is_ok() => {
                    let queried = g.query(id, &ST).map(|v| Value::Int(i64::from(v)));
                    assert_eq!(queried.ok(), st, "step {step}: st of {id}");
                }
                // Outside i32 (a scaled value): the typed read refuses, never truncates.
                _ => assert!(g.query(id, &ST).is_err(), "step {step}: st of {id}"),
            }
            let dx = oracle(&g, id, DX.key(), None);
            assert_eq!(
                g.query_opt(id, &DX).unwrap(),
                dx.map(|v| match v {
                    Value::Int(i) => i,
                    _ => unreachable!(),
                }),
                "step {step}: dx of {id}"
            );
        }
        versions.push((g.clone(), g.state_hash()));
    }
    // Every earlier value is unchanged, and a save round trip rebuilds the same views.
    for (v, h) in &versions {
        assert_eq!(v.state_hash(), *h);
        v.check_invariants().unwrap();
    }
    let saved = serde_json::to_string(&g).unwrap();
    let loaded: Game = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded.state_hash(), g.state_hash());
    for &id in &ids {
        assert_eq!(loaded.query_opt(id, &DX), g.query_opt(id, &DX));
        assert_eq!(
            loaded.query_opt(id, &Prop::<Value>::from_key(ST.key().clone())),
            g.query_opt(id, &Prop::<Value>::from_key(ST.key().clone()))
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn holder_views_match_a_fresh_computation(
        actions in prop::collection::vec(arb_action(), 1..60)
    ) {
        run(&actions);
    }
}

/// A ring's modifier switches with its own flag, and the holder's view follows.
#[test]
fn a_flag_on_the_carrier_switches_its_modifier() {
    let mut g = Game::new(1);
    let hero = g
        .add_thing_mut(
            Loc::new(0, 0, 0),
            Thing::new(Props::new().with(&IS_CONTAINER, true)),
        )
        .unwrap();
    let ring = Thing::new(Props::new().modifier(Modifier::add(&ST, 2).while_flag(&WORN)));
    let ring = g.add_thing_mut(hero, ring).unwrap();
    assert_eq!(g.query(hero, &ST), Ok(10));
    let worn = g.set(ring, &WORN, true).unwrap();
    worn.check_invariants().unwrap();
    assert_eq!(worn.query(hero, &ST), Ok(12));
    assert_eq!(g.query(hero, &ST), Ok(10)); // the older value is untouched
    let mut cursed = worn.things().get(ring).unwrap().clone();
    cursed.set_modifiers_mut(vec![Modifier::add(&ST, -3).while_flag(&WORN)]);
    let cursed = worn.update_thing(cursed).unwrap();
    cursed.check_invariants().unwrap();
    assert_eq!(cursed.query(hero, &ST), Ok(7));
}
