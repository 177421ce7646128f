//! `History`: undo, redo, jumps, branches and thinning, on real games and against a model
//! that keeps every state.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use alembic::{
    Error, Game, Loc, Prop, Props, Thing, ThingId, history::Budget, history::History,
    history::HistoryError,
};
use proptest::prelude::*;

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic-rl`).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

// ----- a tiny game over `Game` -------------------------------------------------------------

const HPS: Prop<i32> = Prop::new("hps");

/// A command of the tiny game: walk east or west, or hurt the hero.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    East,
    West,
    Hurt,
}

fn start() -> (Game, ThingId) {
    let g = Game::new(7);
    let (g, hero) = g
        .add_thing(Loc::new(0, 0, 0), Thing::new(Props::new().with(&HPS, 20)))
        .unwrap();
    (g, hero)
}

/// One turn: the command, a random roll, and the turn counter, so every turn changes the
/// state hash.
#[allow(deprecated)] // the message log, deprecated: English is not state
fn play(hero: ThingId) -> impl FnMut(&Game, &Cmd) -> Result<Game, Error> {
    move |g, c| {
        let mut g = g.clone();
        let at = g.location(hero)?;
        match c {
            Cmd::East => g.move_thing_mut(hero, Loc::new(at.x + 1, at.y, at.z))?,
            Cmd::West => g.move_thing_mut(hero, Loc::new(at.x - 1, at.y, at.z))?,
            Cmd::Hurt => {
                let hp = g.query(hero, &HPS)?;
                g = g.set(hero, &HPS, hp - 1)?;
            }
        }
        let roll = g.rng().below(6);
        g.log_mut(format!("rolled {roll}"));
        g.set_turn_mut(g.turn() + 1);
        Ok(g)
    }
}

fn script(n: usize) -> Vec<Cmd> {
    (0..n)
        .map(|i| match i % 5 {
            0 | 3 => Cmd::East,
            1 => Cmd::Hurt,
            _ => Cmd::West,
        })
        .collect()
}

/// Play `cmds` from the start, keeping the state after each in a history.
fn recorded(cmds: &[Cmd], budget: Budget) -> (History<Game, Cmd>, Vec<u64>) {
    let (g, hero) = start();
    let mut step = play(hero);
    let mut hashes = vec![g.state_hash()];
    let mut h = History::with_budget(g, budget);
    for c in cmds {
        let next = step(h.current(), c).unwrap();
        hashes.push(next.state_hash());
        h.push(*c, next);
    }
    (h, hashes)
}

#[test]
fn undo_and_redo_walk_the_games_back_and_forth() {
    let (mut h, hashes) = recorded(&script(50), Budget::UNLIMITED);
    assert_eq!((h.len(), h.position()), (50, 50));
    for i in (0..50).rev() {
        assert_eq!(h.undo().unwrap().state_hash(), hashes[i]);
    }
    assert!(h.undo().is_none(), "nothing before the start");
    assert_eq!(h.position(), 0);
    for hash in &hashes[1..] {
        assert_eq!(h.redo().unwrap().state_hash(), *hash);
    }
    assert!(h.redo().is_none(), "nothing after the end");
    h.check_invariants().unwrap();
}

#[test]
fn after_500_undos_the_kept_commands_rebuild_the_current_game() {
    let cmds = script(800);
    let (mut h, _) = recorded(&cmds, Budget::UNLIMITED);
    let (_, hero) = start();
    for _ in 0..500 {
        h.undo().unwrap();
    }
    assert_eq!(h.commands(), &cmds[..300]);
    assert_eq!(h.future_commands(), &cmds[300..]);
    // Play on; the future is dropped and the game equals a fresh one played with the
    // shorter command list.
    let mut step = play(hero);
    for c in [Cmd::Hurt, Cmd::East] {
        let next = step(h.current(), &c).unwrap();
        h.push(c, next);
    }
    assert_eq!(h.len(), 302);
    let (fresh, _) = start();
    let replayed = h
        .commands()
        .iter()
        .try_fold(fresh, |g, c| step(&g, c))
        .unwrap();
    assert_eq!(replayed.state_hash(), h.current().state_hash());
    assert!(replayed == *h.current());
}

#[test]
fn a_budget_thins_old_games_and_rebuilds_them_exactly() {
    let cmds = script(300);
    let (mut h, hashes) = recorded(&cmds, Budget::new(20, 16));
    h.check_invariants().unwrap();
    assert!(h.kept_count() <= 20 + 300 / 16 + 1);
    assert!(!h.is_kept(100) && h.is_kept(96) && h.is_kept(290));
    assert!(matches!(
        h.jump_to(100),
        Err(HistoryError::Thinned { index: 100 })
    ));
    let (_, hero) = start();
    let g = h.jump_to_with(100, play(hero)).unwrap();
    assert_eq!(g.state_hash(), hashes[100]);
    // The rebuilt interval makes undo within it free again.
    assert_eq!(h.undo().unwrap().state_hash(), hashes[99]);
    assert_eq!(
        h.undo_with(play(hero)).unwrap().unwrap().state_hash(),
        hashes[98]
    );
    assert_eq!(
        h.redo_with(play(hero)).unwrap().unwrap().state_hash(),
        hashes[99]
    );
    // Every state, kept or not, comes back through `states_with`.
    let all: Vec<u64> = h
        .states_with(play(hero))
        .map(|g| g.unwrap().state_hash())
        .collect();
    assert_eq!(all, hashes);
    h.check_invariants().unwrap();
}

#[test]
fn a_rebuild_the_game_refuses_is_an_error_and_changes_nothing() {
    let (mut h, _) = recorded(&script(40), Budget::new(4, 8));
    let (_, other) = start();
    let wrong_hero = ThingId(other.0 + 100);
    let before = (h.position(), h.current().state_hash());
    let e = h.jump_to_with(10, play(wrong_hero)).unwrap_err();
    assert!(matches!(
        e,
        HistoryError::Rebuild {
            index: 9,
            error: Error::NoSuchThing(_)
        }
    ));
    assert_eq!(
        e.to_string(),
        format!("rebuilding state 9 failed: no thing {wrong_hero} in this game")
    );
    assert_eq!((h.position(), h.current().state_hash()), before);
    h.check_invariants().unwrap();
}

#[test]
fn branches_keep_an_undone_future_and_switch_back_to_it() {
    let (mut h, hashes) = recorded(&script(30), Budget::UNLIMITED);
    let (_, hero) = start();
    let mut step = play(hero);
    for _ in 0..10 {
        h.undo().unwrap();
    }
    assert_eq!(h.branch("first"), Ok(()));
    assert_eq!(h.branch("again"), Err(HistoryError::NothingToBranch));
    assert_eq!(h.len(), 20);
    for _ in 0..5 {
        let next = step(h.current(), &Cmd::Hurt).unwrap();
        h.push(Cmd::Hurt, next);
    }
    let second = h.current().state_hash();
    let info: Vec<_> = h
        .branches()
        .map(|b| (b.name.to_owned(), b.fork, b.len))
        .collect();
    assert_eq!(info, [("first".to_owned(), 20, 10)]);

    assert_eq!(
        h.switch_to_branch("first").unwrap().state_hash(),
        hashes[30]
    );
    assert_eq!((h.len(), h.position()), (30, 30));
    assert_eq!(h.commands(), &script(30)[..]);
    // The two futures traded places: "first" now holds the second try.
    assert_eq!(h.switch_to_branch("first").unwrap().state_hash(), second);
    assert!(matches!(
        h.switch_to_branch("nope"),
        Err(HistoryError::NoSuchBranch(n)) if n == "nope"
    ));
    assert!(h.drop_branch("first") && !h.drop_branch("first"));
    h.check_invariants().unwrap();
}

#[test]
fn out_of_range_jumps_are_refused() {
    let (mut h, _) = recorded(&script(3), Budget::UNLIMITED);
    assert_eq!(
        h.jump_to(4).map(|_| ()),
        Err(HistoryError::OutOfRange { index: 4, len: 3 })
    );
    assert_eq!(h.jump_to(0).unwrap().turn(), 0);
    let items: Vec<(usize, bool, Option<Cmd>)> = h
        .iter()
        .map(|(i, s, c)| (i, s.is_some(), c.copied()))
        .collect();
    assert_eq!(
        items,
        [
            (0, true, None),
            (1, true, Some(Cmd::East)),
            (2, true, Some(Cmd::Hurt)),
            (3, true, Some(Cmd::West))
        ]
    );
}

// ----- against a model that keeps every state ----------------------------------------------

fn step(s: &u64, c: &u64) -> Result<u64, String> {
    Ok(s.wrapping_mul(31).wrapping_add(*c))
}

/// Every state of every line, kept whole.
#[derive(Clone, Debug, Default)]
struct Model {
    states: Vec<u64>,
    cmds: Vec<u64>,
    pos: usize,
    /// name → (fork, states after the fork, commands after the fork)
    branches: BTreeMap<String, (usize, Vec<u64>, Vec<u64>)>,
}

impl Model {
    /// Cut the future after `pos`, re-rooting branches that forked inside it.
    fn cut(&mut self) -> (Vec<u64>, Vec<u64>) {
        let states = self.states.split_off(self.pos + 1);
        let cmds = self.cmds.split_off(self.pos);
        for (fork, bs, bc) in self.branches.values_mut() {
            if *fork > self.pos {
                let n = *fork - self.pos;
                let mut s = states[..n].to_vec();
                s.append(bs);
                let mut c = cmds[..n].to_vec();
                c.append(bc);
                *fork = self.pos;
                *bs = s;
                *bc = c;
            }
        }
        (states, cmds)
    }
}

#[derive(Clone, Debug)]
enum Op {
    Push(u64),
    Undo,
    Redo,
    Jump(usize),
    UndoWith,
    RedoWith,
    JumpWith(usize),
    Branch(u8),
    Switch(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u64..50).prop_map(Op::Push),
        3 => Just(Op::Undo),
        2 => Just(Op::Redo),
        1 => (0usize..40).prop_map(Op::Jump),
        2 => Just(Op::UndoWith),
        1 => Just(Op::RedoWith),
        2 => (0usize..40).prop_map(Op::JumpWith),
        1 => (0u8..3).prop_map(Op::Branch),
        1 => (0u8..3).prop_map(Op::Switch),
    ]
}

fn budget() -> impl Strategy<Value = Budget> {
    prop_oneof![
        1 => Just(Budget::UNLIMITED),
        4 => (0usize..6, 0usize..5).prop_map(|(m, k)| Budget::new(m, k)),
    ]
}

/// Apply `op` to both; on a move the history may refuse (a thinned state), check it was
/// right to and keep the model where it is.
fn apply(h: &mut History<u64, u64>, m: &mut Model, op: &Op) {
    let name = |b: &u8| format!("b{b}");
    match op {
        Op::Push(c) => {
            let next = step(h.current(), c).unwrap();
            h.push(*c, next);
            m.cut();
            m.states.push(next);
            m.cmds.push(*c);
            m.pos += 1;
        }
        Op::Undo | Op::Redo | Op::Jump(_) => {
            let to = match op {
                Op::Undo => m.pos.checked_sub(1),
                Op::Redo => Some(m.pos + 1).filter(|&t| t < m.states.len()),
                Op::Jump(i) => Some(*i),
                _ => unreachable!(),
            };
            let kept = to.is_some_and(|t| h.is_kept(t));
            let got = match op {
                Op::Undo => h.undo().copied().ok_or(()),
                Op::Redo => h.redo().copied().ok_or(()),
                _ => h.jump_to(to.unwrap()).copied().map_err(|_| ()),
            };
            match (to, got) {
                (Some(t), Ok(s)) if t < m.states.len() => {
                    assert!(kept);
                    assert_eq!(s, m.states[t]);
                    m.pos = t;
                }
                (Some(t), Err(())) if t < m.states.len() => assert!(!kept, "refused a kept {t}"),
                (_, got) => assert!(got.is_err(), "moved out of range"),
            }
        }
        Op::UndoWith => match h.undo_with(step).unwrap() {
            Some(s) => {
                m.pos -= 1;
                assert_eq!(*s, m.states[m.pos]);
            }
            None => assert_eq!(m.pos, 0),
        },
        Op::RedoWith => match h.redo_with(step).unwrap() {
            Some(s) => {
                m.pos += 1;
                assert_eq!(*s, m.states[m.pos]);
            }
            None => assert_eq!(m.pos + 1, m.states.len()),
        },
        Op::JumpWith(i) => match h.jump_to_with(*i, step) {
            Ok(s) => {
                assert_eq!(*s, m.states[*i]);
                m.pos = *i;
            }
            Err(e) => {
                assert!(*i >= m.states.len());
                assert_eq!(
                    e,
                    HistoryError::OutOfRange {
                        index: *i,
                        len: m.cmds.len()
                    }
                );
            }
        },
        Op::Branch(b) => {
            let r = h.branch(name(b));
            if m.pos + 1 == m.states.len() {
                assert_eq!(r, Err(HistoryError::NothingToBranch));
            } else if m.branches.contains_key(&name(b)) {
                assert_eq!(r, Err(HistoryError::BranchExists(name(b))));
            } else {
                assert_eq!(r, Ok(()));
                let (s, c) = m.cut();
                m.branches.insert(name(b), (m.pos, s, c));
            }
        }
        Op::Switch(b) => {
            let r = h.switch_to_branch(&name(b)).copied();
            match m.branches.remove(&name(b)) {
                None => assert_eq!(r, Err(HistoryError::NoSuchBranch(name(b)))),
                Some((fork, mut bs, mut bc)) => {
                    m.pos = fork;
                    let (s, c) = m.cut();
                    if !c.is_empty() {
                        m.branches.insert(name(b), (fork, s, c));
                    }
                    m.states.append(&mut bs);
                    m.cmds.append(&mut bc);
                    m.pos = m.cmds.len();
                    assert_eq!(r, Ok(m.states[m.pos]));
                }
            }
        }
    }
}

fn agree(h: &History<u64, u64>, m: &Model) {
    h.check_invariants().unwrap();
    assert_eq!(h.len(), m.cmds.len());
    assert_eq!(h.position(), m.pos);
    assert_eq!(*h.current(), m.states[m.pos]);
    assert_eq!(h.commands(), &m.cmds[..m.pos]);
    assert_eq!(h.future_commands(), &m.cmds[m.pos..]);
    for (i, s, c) in h.iter() {
        if let Some(s) = s {
            assert_eq!(*s, m.states[i], "kept state {i}");
        }
        assert_eq!(c.copied(), i.checked_sub(1).map(|p| m.cmds[p]));
    }
    let all: Vec<u64> = h.states_with(step).map(Result::unwrap).collect();
    assert_eq!(all, m.states);
    let branches: Vec<(String, usize, usize)> = h
        .branches()
        .map(|b| (b.name.to_owned(), b.fork, b.len))
        .collect();
    let want: Vec<(String, usize, usize)> = m
        .branches
        .iter()
        .map(|(n, (f, _, c))| (n.clone(), *f, c.len()))
        .collect();
    assert_eq!(branches, want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    /// Random pushes, undos, redos, jumps, branches and switches under random budgets agree
    /// with a model that keeps every state, step by step; switching to each branch at the end
    /// gives its model states too.
    #[test]
    fn history_agrees_with_a_model_that_keeps_everything(
        budget in budget(),
        ops in prop::collection::vec(op(), 0..120),
    ) {
        let mut h = History::with_budget(1u64, budget);
        let mut m = Model { states: vec![1], ..Model::default() };
        agree(&h, &m);
        for op in &ops {
            apply(&mut h, &mut m, op);
            agree(&h, &m);
        }
        for b in 0..3 {
            apply(&mut h, &mut m, &Op::Switch(b));
            agree(&h, &m);
        }
    }
}

#[test]
fn an_undo_depth_keeps_that_many_whole_games_and_forgets_the_rest() {
    let (g, hero) = start();
    let cmds = script(40);
    let mut h = History::with_undo_depth(g, 5);
    let mut play = play(hero);
    let mut want = Vec::new();
    for c in &cmds {
        let next = play(h.current(), c).unwrap();
        want.push(next.state_hash());
        h.push(*c, next);
        h.check_invariants().unwrap();
    }
    assert_eq!((h.len(), h.position(), h.kept_count()), (5, 5, 6));
    assert_eq!(h.commands(), &cmds[35..]);
    for back in 1..=5 {
        assert_eq!(h.undo().map(Game::state_hash), Some(want[39 - back]));
    }
    assert!(h.undo().is_none(), "the sixth undo was forgotten");
    // A push after undos drops the redo future and stays within the depth.
    let next = play(h.current(), &Cmd::Hurt).unwrap();
    h.push(Cmd::Hurt, next);
    assert_eq!((h.len(), h.position()), (1, 1));
    h.check_invariants().unwrap();
}

#[test]
fn a_change_that_takes_no_turn_survives_thinning_and_rebuilds() {
    const NAME: Prop<i32> = Prop::with_default("renamed", 0);
    let (g, hero) = start();
    let cmds = script(30);
    let mut play = play(hero);
    let mut h = History::with_budget(g, Budget::new(2, 10));
    for (i, c) in cmds.iter().enumerate() {
        let next = play(h.current(), c).unwrap();
        h.push(*c, next);
        if i == 12 {
            // State 13 gets a change outside the commands (no turn taken).
            let renamed = h.current().set(hero, &NAME, 1).unwrap();
            let _old = h.replace_current(renamed);
        }
        h.check_invariants().unwrap();
    }
    assert!(h.is_kept(13), "a state changed in place is never thinned");
    // Rebuilding a thinned state after it starts from it, so the change is still there.
    h.jump_to_with(17, |s, c| play(s, c)).unwrap();
    assert_eq!(h.current().query(hero, &NAME), Ok(1));
    h.jump_to_with(11, |s, c| play(s, c)).unwrap();
    assert_eq!(h.current().query(hero, &NAME), Ok(0));
    h.check_invariants().unwrap();
}
