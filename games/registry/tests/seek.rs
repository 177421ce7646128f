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

/// A live game's past, opened again and again as its recording grows: each look parses
/// only the whole lines written since the last (a line still being written waits for the
/// next look), and reaches the states a whole read of the same bytes reaches. A file that
/// no longer continues what was parsed (rewritten in place) is read again whole.
#[test]
fn looks_into_a_growing_recording_parse_each_line_once() {
    use alembic_games::playback::KeptStates;
    let d = scratch("grow");
    let (rec, n) = recording(900, 300);
    let text = rec.to_text().unwrap();
    let path = d.join("live.replay");
    let rules = std::sync::Arc::new(Alchemy::new().unwrap());
    let kept = std::sync::Arc::new(KeptStates::default());
    let look = |path: &std::path::Path| {
        let (r1, r2, r3) = (rules.clone(), rules.clone(), rules.clone());
        Playback::open_kept(
            path,
            "alchemy",
            &rules.data(),
            &kept,
            move |h| r1.new_game(h.seed),
            move |g: &Game, c: &Cmd| apply_step(&*r2, g, c),
        )
        .unwrap()
        .with_states(move |t| r3.load_text(t).map(|s| s.game).map_err(|e| e.to_string()))
    };
    // The file as it grows: cut at a third, in the middle of a line, then at two thirds,
    // then whole.
    let cuts = [
        text.len() / 3,
        text.len() / 3 + 5,
        2 * text.len() / 3,
        text.len(),
    ];
    let mut parsed_before = 0;
    for &cut in &cuts {
        std::fs::write(&path, &text[..cut]).unwrap();
        let whole_lines = text[..cut].rfind('\n').map_or(0, |i| i + 1);
        let mut live = look(&path);
        let parsed = kept.parsed_bytes();
        assert_eq!(
            parsed, whole_lines as u64,
            "after a look at {cut} bytes, {parsed} parsed in all: each whole line once"
        );
        assert!(parsed - parsed_before <= (cut - parsed_before as usize) as u64);
        parsed_before = parsed;
        // What a whole read of the same whole lines shows.
        let same = d.join("same.replay");
        std::fs::write(&same, &text[..whole_lines]).unwrap();
        let mut whole = open(&same, true);
        assert_eq!(live.commands(), whole.commands());
        for k in [Key::End, Key::PageUp, Key::Left, Key::Home, Key::PageDown] {
            key(&mut live, k);
            key(&mut whole, k);
            let (a, b) = (live.current().unwrap(), whole.current().unwrap());
            assert_eq!(live.position(), whole.position());
            assert_eq!((a.turn(), a.state_hash()), (b.turn(), b.state_hash()));
        }
    }
    assert_eq!(look(&path).commands(), n);
    assert_eq!(
        kept.parsed_bytes(),
        text.len() as u64,
        "a look with nothing new parses nothing"
    );
    // Rewritten in place, shorter: read again whole, and right.
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let halved = text[..text.len() / 2].rfind('\n').map_or(0, |i| i + 1);
    let again = look(&path);
    assert_eq!(kept.parsed_bytes(), (text.len() + halved) as u64);
    let half = d.join("half.replay");
    std::fs::write(&half, &text[..halved]).unwrap();
    assert_eq!(again.commands(), open(&half, true).commands());
}
