//! The replay viewer seeks from the whole states a recording holds: a jump starts from the
//! last state before it (read back and checked against its checkpoint) and replays only the
//! commands after it; a state that does not read back as its checkpoint says is never used.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use alembic::Game;
use alembic::replay::{Entry, Recording};
use alembic_games::alchemy::ui::ruleset::Alchemy;
use alembic_games::play::{Step, apply_step};
use alembic_games::playback::Playback;
use alembic_games::sim::{self, Policy};
use alembic_session::Ruleset;
use alembic_ui::{Input, Key};

type Cmd = Step<<Alchemy as Ruleset>::Command>;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-seek-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A recording of `turns` Alchemy turns (seed 6, random keys) with a whole state after every
/// `every`-th command, written as the recorder writes them (`Recording::push_state`).
fn recording(turns: u64, every: usize) -> (Recording<Cmd>, usize) {
    let (_, text) = sim::find("alchemy")
        .unwrap()
        .record(6, turns, Policy::Random)
        .unwrap();
    let plain: Recording<Cmd> = Recording::parse(&text).unwrap();
    let rules = Alchemy::new().unwrap();
    let mut game = rules.new_game(6).unwrap();
    let mut rec = Recording::new(plain.header.clone());
    let mut n = 0;
    for e in plain.entries {
        match e {
            Entry::Command { turn, command } => {
                game = apply_step(&rules, &game, &command).unwrap().0;
                rec.push_command(turn, command);
                n += 1;
                if n % every == 0 {
                    let text = rules
                        .save_text(&game, 6, &alembic_session::Modes::none())
                        .unwrap();
                    rec.push_state(game.turn(), game.state_hash(), text);
                }
            }
            other => rec.entries.push(other),
        }
    }
    (rec, n)
}

fn open(path: &std::path::Path, seeking: bool) -> Playback {
    let rules = std::sync::Arc::new(Alchemy::new().unwrap());
    let (r1, r2, r3) = (rules.clone(), rules.clone(), rules.clone());
    let p = Playback::open(
        path,
        "alchemy",
        &rules.data(),
        move |h| r1.new_game(h.seed),
        move |g: &Game, c: &Cmd| apply_step(&*r2, g, c).map(|(g, _)| g),
    )
    .unwrap();
    if seeking {
        p.with_states(move |t| r3.load_text(t).map(|s| s.game).map_err(|e| e.to_string()))
    } else {
        p
    }
}

fn key(p: &mut Playback, k: Key) {
    p.handle(&Input::key(k));
}

#[test]
fn jumps_start_from_the_last_state_and_land_where_replaying_lands() {
    let d = scratch("jump");
    let (rec, n) = recording(1_200, 250);
    let path = d.join("a.replay");
    std::fs::write(&path, rec.to_text().unwrap()).unwrap();
    let mut slow = open(&path, false);
    let mut fast = open(&path, true);
    assert_eq!(fast.seek_states(), n / 250);
    key(&mut slow, Key::End);
    key(&mut fast, Key::End);
    assert_eq!(fast.position(), n);
    let (a, b) = (slow.current().unwrap(), fast.current().unwrap());
    assert_eq!((a.turn(), a.state_hash()), (b.turn(), b.state_hash()));
    // From the last state on, not from the start: only what follows it was made.
    assert!(fast.kept_states() <= n - (n / 250) * 250 + 1, "{fast:?}");
    // Back across a state, then home, then forward: the same states as stepping.
    for k in [Key::PageUp, Key::Left, Key::PageUp, Key::PageUp, Key::Left] {
        key(&mut slow, k);
        key(&mut fast, k);
        let (a, b) = (slow.current().unwrap(), fast.current().unwrap());
        assert_eq!(slow.position(), fast.position());
        assert_eq!((a.turn(), a.state_hash()), (b.turn(), b.state_hash()));
    }
    key(&mut fast, Key::Home);
    assert_eq!(fast.position(), 0);
    key(&mut fast, Key::PageDown);
    key(&mut slow, Key::Home);
    key(&mut slow, Key::PageDown);
    let (a, b) = (slow.current().unwrap(), fast.current().unwrap());
    assert_eq!((a.turn(), a.state_hash()), (b.turn(), b.state_hash()));
}

#[test]
fn a_state_that_is_not_its_checkpoint_is_never_used() {
    let d = scratch("edited");
    let (mut rec, n) = recording(600, 200);
    // The last state swapped for the first: it reads back, but is not the state its
    // checkpoint vouches for.
    let states: Vec<usize> = (0..rec.entries.len())
        .filter(|&i| matches!(rec.entries[i], Entry::State { .. }))
        .collect();
    let (first, last) = (states[0], *states.last().unwrap());
    rec.entries[last] = rec.entries[first].clone();
    let at = rec.entries[last - 1].turn();
    if let Entry::State { turn, .. } = &mut rec.entries[last] {
        *turn = at;
    }
    let path = d.join("b.replay");
    std::fs::write(&path, rec.to_text().unwrap()).unwrap();
    let mut slow = open(&path, false);
    let mut fast = open(&path, true);
    key(&mut slow, Key::End);
    key(&mut fast, Key::End);
    assert_eq!(fast.position(), n);
    let (a, b) = (slow.current().unwrap(), fast.current().unwrap());
    assert_eq!((a.turn(), a.state_hash()), (b.turn(), b.state_hash()));
    assert_eq!(
        fast.seek_states(),
        states.len() - 1,
        "the bad state is dropped"
    );
}
