#![allow(clippy::unwrap_used)]
//! `--load SAVE` continues the game straight away (as its help says), and a game whose board
//! is not its rules' type is hosted on the session for a server (`host_session_on`).

use std::path::PathBuf;
use std::sync::Arc;

use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
use alembic_games::host::{HostOptions, host_session_on};
use alembic_games::rats::Rats;
use alembic_session::LaunchOptions;
use alembic_session::run::{Cadence, Run};
use alembic_ui::Frame;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-launching-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn load_continues_the_saved_game_at_once() {
    let d = scratch("load");
    let save = d.join("rats.save");
    let rats = Arc::new(Rats::new().unwrap());
    let mut run = Run::new_game(rats.clone(), 3, false, false).unwrap();
    run.begin(Some(save.clone()));
    let wait = alembic_rats::Command::Wait;
    for _ in 0..2 {
        run.play(&alembic_session::play::Step::Play(wait)).unwrap();
    }
    run.save().unwrap();
    drop(run);
    let mut app = alembic_games::launch(&LaunchOptions {
        game: "rats".into(),
        load: Some(save.clone()),
        ..LaunchOptions::default()
    })
    .unwrap();
    let mut f = Frame::new(100, 30);
    app.render(&mut f);
    assert!(f.contains_text("Welcome back."), "{}", f.to_text());
    assert!(
        !f.contains_text("Continue the saved game"),
        "{}",
        f.to_text()
    );
}

#[test]
fn alchemy_is_hosted_on_the_session_with_its_own_board() {
    let d = scratch("host");
    let rules = Arc::new(Alchemy::new().unwrap());
    let board = AlchemyBoard::shared();
    let opts = HostOptions {
        save: d.join("alchemy.save"),
        seed: 11,
        tiles: None,
        replay: None,
        kept: None,
        flush_appends: true,
        cadence: Cadence::default(),
    };
    let mut hosted = host_session_on(rules, board, &opts).unwrap();
    assert_eq!(hosted.turn(), 0);
    assert_eq!(hosted.depth(), Some(1));
    let mut f = Frame::new(120, 56);
    hosted.render(&mut f);
    assert!(f.contains_text("Depth 1/11"), "{}", f.to_text());
    assert!(f.contains_text("You enter the dungeon."), "{}", f.to_text());
}

#[test]
fn a_host_sets_how_often_its_games_autosave_and_a_continue_keeps_it() {
    let d = scratch("every");
    let save = d.join("rats.save");
    let rats = Arc::new(Rats::new().unwrap());
    let wait = alembic_session::play::Step::Play(alembic_rats::Command::Wait);
    // The save file's own turn (a continue would also replay the recording after it).
    let turn_saved = |save: &PathBuf| {
        alembic_session::run::read_save(&*rats, save)
            .unwrap()
            .game
            .turn()
    };
    // Seed 7, every 10 commands: the first autosave 7 commands early, at the third.
    let every_10 = Cadence {
        autosave_every: 10,
        ..Cadence::default()
    };
    let mut run = Run::new_game(rats.clone(), 7, false, false).unwrap();
    run.set_cadence(every_10);
    run.begin(Some(save.clone()));
    assert_eq!(turn_saved(&save), 0, "a new game is saved at once");
    for _ in 0..2 {
        run.play(&wait).unwrap();
    }
    assert_eq!(turn_saved(&save), 0);
    run.play(&wait).unwrap();
    let first = run.game().turn();
    assert_eq!(
        turn_saved(&save),
        first,
        "the first autosave, 3 commands in"
    );
    for _ in 0..9 {
        run.play(&wait).unwrap();
    }
    assert_eq!(turn_saved(&save), first);
    run.play(&wait).unwrap();
    assert_eq!(turn_saved(&save), run.game().turn(), "then every 10");
    drop(run);
    // Continued, it autosaves at the host's interval too (set after loading, as hosts do).
    let (mut run, _) = Run::load(rats.clone(), &save).unwrap();
    run.set_cadence(every_10);
    assert_eq!(run.cadence(), every_10);
    let at = run.game().turn();
    let mut n = 0;
    while turn_saved(&save) == at {
        run.play(&wait).unwrap();
        n += 1;
        assert!(n <= 10, "no autosave within 10 commands");
    }
}
