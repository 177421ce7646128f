//! Issue 57's failures on the session every game plays through ([`Run`], the launcher):
//! a death cannot be undone by closing the window at its prompt, a refused second window
//! writes nothing, a lock that cannot be taken refuses the game, and a practice game
//! continued and then taken back still replays from its seed. Alchemy's own screens keep
//! their game in the same [`Run`]; their side is in `journal.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::{Dir, Game};
use alembic_games::rats::{Command, Rats};
use alembic_games::record;
use alembic_games::storage::{SessionLock, StorageError};
use alembic_games::{LaunchError, LaunchOptions};
use alembic_session::run::{Run, Step, read_save};
use alembic_session::{Ruleset, Status};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-final-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small deterministic walk: the `i`-th command of game `salt`.
fn command(i: usize, salt: u64) -> Command {
    let x = (i as u64 + 1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(salt)
        .rotate_left(17);
    match x % 5 {
        0 => Command::Move(Dir::East),
        1 => Command::Move(Dir::South),
        2 => Command::Move(Dir::West),
        3 => Command::Move(Dir::North),
        _ => Command::Wait,
    }
}

/// Play `n` accepted commands of walk `salt` (refused ones are skipped); stops early when
/// the game ends. Whether it ended.
fn play(run: &mut Run<Rats>, n: usize, salt: u64) -> bool {
    let mut done = 0;
    let mut i = 0;
    while done < n && i < 20 * n + 100 {
        i += 1;
        if let Ok(p) = run.play(&Step::Play(command(i, salt))) {
            done += 1;
            if p.over {
                return true;
            }
        }
    }
    false
}

/// A seed and walk whose hero dies (the rats get him), found by trying: deterministic.
fn a_death(rats: &Arc<Rats>) -> (u64, u64) {
    for seed in 1..200 {
        for salt in 0..4 {
            let mut run = Run::new_game(rats.clone(), seed, false, false).unwrap();
            if play(&mut run, 3000, salt) && matches!(run.status(), Status::Over(ref e) if !e.won) {
                return (seed, salt);
            }
        }
    }
    panic!("no walk of the first 200 seeds dies");
}

fn status_of(rats: &Rats, save: &Path) -> Status {
    rats.status(&read_save(rats, save).unwrap().game)
}

fn score_rows(rats: &Rats, dir: &Path) -> usize {
    alembic_games::scores::read_table(dir, &rats.scores_file())
        .unwrap()
        .len()
}

/// Issue 57, 1: "close the terminal at the death prompt, continue twice": the first
/// continue files the game and removes its save, the second finds nothing; one score.
#[test]
fn a_death_cannot_be_undone_by_closing_at_its_prompt() {
    let rats = Arc::new(Rats::new().unwrap());
    let (seed, salt) = a_death(&rats);
    let d = scratch("death");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), seed, false, false).unwrap();
    run.begin(Some(save.clone()));
    assert!(play(&mut run, 3000, salt), "the same walk dies again");
    // What the death prompt leaves on disk: the save is the game over, not the hero alive.
    assert!(
        matches!(status_of(&rats, &save), Status::Over(_)),
        "the save was marked over before any prompt"
    );
    drop(run); // the window closes (or kill -9) at "You die... --More--"

    let (mut first, _) = Run::load(rats.clone(), &save).unwrap();
    assert!(matches!(first.status(), Status::Over(_)));
    let filed = first.finish(false, &[]).unwrap();
    assert!(filed.scored && filed.save_removed, "{filed:?}");
    assert!(!save.exists(), "the save of a dead hero is gone");
    assert_eq!(score_rows(&rats, &d), 1);
    assert!(
        Run::load(rats.clone(), &save).is_err(),
        "nothing is left to continue alive"
    );
    assert_eq!(score_rows(&rats, &d), 1, "never a second score");
}

/// The same through the launcher (`--load SAVE`) and the start screen's continue: the
/// game is filed as it loads, and the first screen says so rather than only offering
/// "Continue (no saved game)".
#[test]
fn a_continue_of_a_game_that_had_ended_says_it_is_filed() {
    let rats = Arc::new(Rats::new().unwrap());
    let (seed, salt) = a_death(&rats);
    let said = "This game had ended before its window closed: it is filed now";
    let dead_save = |name: &str| {
        let d = scratch(name);
        let save = d.join("rats.save");
        let mut run = Run::new_game(rats.clone(), seed, false, false).unwrap();
        run.begin(Some(save.clone()));
        assert!(play(&mut run, 3000, salt));
        (d, save)
    };
    let screen = |app: &mut Box<dyn alembic_ui::App>| {
        let mut f = alembic_ui::Frame::new(100, 40);
        app.render(&mut f);
        f.to_text()
    };
    // --load SAVE
    let (d, save) = dead_save("said-load");
    let mut app = alembic_games::launch(&load_options(&save)).unwrap();
    let text = screen(&mut app);
    assert!(text.contains(said), "{text}");
    assert!(!save.exists());
    assert_eq!(score_rows(&rats, &d), 1);
    // The start screen's continue (c) of the save in the data directory.
    let (d, save) = dead_save("said-menu");
    let session = alembic_session::play::Session::new(rats.clone(), 99).with_save(save.clone());
    let mut app: Box<dyn alembic_ui::App> = Box::new(alembic_session::play::app(session));
    assert!(screen(&mut app).contains("Continue"));
    app.handle(alembic_ui::Input::key(alembic_ui::Key::Char('c')));
    let text = screen(&mut app);
    assert!(text.contains(said), "{text}");
    assert!(!save.exists());
    assert_eq!(score_rows(&rats, &d), 1);
}

/// The same with a save from before the death (as an older build left it): the recording
/// brings the game to its end, the save is refreshed to it, and filing removes it.
#[test]
fn a_save_from_before_the_death_continues_to_the_death_not_past_it() {
    let rats = Arc::new(Rats::new().unwrap());
    let (seed, salt) = a_death(&rats);
    let d = scratch("olddeath");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), seed, false, false).unwrap();
    run.begin(Some(save.clone()));
    let alive = std::fs::read(&save).unwrap();
    assert!(play(&mut run, 3000, salt));
    drop(run);
    std::fs::write(&save, &alive).unwrap();
    assert_eq!(status_of(&rats, &save), Status::Playing);

    let (mut first, continued) = Run::load(rats.clone(), &save).unwrap();
    assert!(continued.replayed > 0);
    assert!(matches!(first.status(), Status::Over(_)));
    assert!(
        matches!(status_of(&rats, &save), Status::Over(_)),
        "the save is refreshed to what the recording brought back"
    );
    let filed = first.finish(false, &[]).unwrap();
    assert!(filed.save_removed, "{filed:?}");
    assert!(Run::load(rats.clone(), &save).is_err());
    assert_eq!(score_rows(&rats, &d), 1);
}

/// The continue brings back what the recording holds after the save and saves it at once,
/// so the next continue after another crash replays only what was played since.
#[test]
fn a_continue_saves_what_the_recording_brought_back() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("refresh");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), 4, false, false).unwrap();
    run.begin(Some(save.clone()));
    play(&mut run, 30, 9);
    let at = (run.game().turn(), run.game().state_hash());
    drop(run); // a crash: the save is still the first one, at turn 0
    assert_eq!(read_save(&*rats, &save).unwrap().game.turn(), 0);
    let (run, continued) = Run::load(rats.clone(), &save).unwrap();
    assert_eq!((run.game().turn(), run.game().state_hash()), at);
    assert_eq!(continued.replayed, 30);
    let saved = read_save(&*rats, &save).unwrap().game;
    assert_eq!((saved.turn(), saved.state_hash()), at);
    drop(run);
    let (_, again) = Run::load(rats.clone(), &save).unwrap();
    assert_eq!(again.replayed, 0, "nothing left to replay");
}

/// The recording at `path` replays from its seed to its end: its final (turn, hash).
fn verify(rats: &Rats, path: &Path) -> Result<(u64, u64), String> {
    let rec = record::read::<Step<Command>>(path, "rats").map_err(|e| e.to_string())?;
    let modes = alembic_session::Modes::parse(&rec.header.modes).map_err(|e| e.to_string())?;
    let start = rats
        .new_game_in_modes(rec.header.seed, &modes)
        .map_err(|e| e.to_string())?;
    let v = rec
        .verify(
            start,
            |g: &Game, c: &Step<Command>| {
                alembic_session::run::apply_step(rats, g, c).map(|(g, _)| g)
            },
            Game::state_hash,
            Game::turn,
        )
        .map_err(|e| e.to_string())?;
    Ok((v.final_turn, v.final_hash))
}

/// Issue 57, 5: a practice game continued and then taken back keeps a recording that
/// replays from turn 0.
#[test]
fn a_practice_undo_after_a_continue_keeps_the_recording_whole() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("practice");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), 6, true, false).unwrap();
    run.begin(Some(save.clone()));
    play(&mut run, 12, 1);
    run.save().unwrap();
    drop(run);
    let (mut run, _) = Run::load(rats.clone(), &save).unwrap();
    let continued_at = run.game().turn();
    play(&mut run, 5, 2);
    assert_eq!(run.undo(3), Ok(3));
    let now = (run.game().turn(), run.game().state_hash());
    assert_eq!(verify(&rats, &record::beside(&save)), Ok(now));
    // Back to the continue (the history starts there): still whole.
    while run.undo(1).is_ok() {}
    assert_eq!(run.game().turn(), continued_at);
    let now = (run.game().turn(), run.game().state_hash());
    assert_eq!(verify(&rats, &record::beside(&save)), Ok(now));
    // And filed, the kept recording replays.
    let filed = run.finish(true, &[]).unwrap();
    let kept = filed.recording.expect("kept");
    assert_eq!(verify(&rats, &kept), Ok(now));
}

fn load_options(save: &Path) -> LaunchOptions {
    LaunchOptions {
        game: "rats".into(),
        load: Some(save.to_path_buf()),
        ..LaunchOptions::default()
    }
}

/// Issue 57, 2: `--load SAVE` of a save open in another window is refused before its
/// journal is read: the save and its recording stay byte for byte.
#[test]
fn a_refused_second_window_writes_nothing() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("refused");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), 8, false, false).unwrap();
    run.begin(Some(save.clone()));
    play(&mut run, 7, 3); // recorded after the save: a continue would replay them
    let first_window = SessionLock::acquire(&save).unwrap();
    let rec = record::beside(&save);
    let before = (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap());
    for _ in 0..3 {
        let err = alembic_games::launch(&load_options(&save))
            .err()
            .expect("refused");
        assert!(
            matches!(err, LaunchError::Busy(StorageError::Locked { .. })),
            "{err}"
        );
    }
    let after = (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap());
    assert!(before == after, "the locked game's files were touched");
    drop(first_window);
    drop(run);
    assert!(alembic_games::launch(&load_options(&save)).is_ok());
}

/// Issue 57, 6: a lock that cannot be made (here: its name is too long for the file
/// system, which even root cannot get past) refuses the game with a sentence; it is never
/// played unlocked.
#[test]
fn a_lock_that_cannot_be_taken_refuses_the_game() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("nolock");
    // 251 bytes: the save fits a name (255), its ".lock" does not.
    let save = d.join(format!("{}.save", "r".repeat(246)));
    // A save made elsewhere, copied there (the name leaves no room for the temporary
    // files of an atomic write either).
    let mut run = Run::new_game(rats.clone(), 2, false, false).unwrap();
    run.begin(Some(d.join("rats.save")));
    play(&mut run, 3, 0);
    run.save().unwrap();
    drop(run);
    std::fs::copy(d.join("rats.save"), &save).unwrap();
    let before = std::fs::read(&save).unwrap();
    let err = alembic_games::launch(&load_options(&save))
        .err()
        .expect("refused");
    assert!(
        matches!(err, LaunchError::Busy(StorageError::CannotLock { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("cannot lock this save"), "{err}");
    assert_eq!(std::fs::read(&save).unwrap(), before);
}

/// A long journal (a crash far past the save) reports its progress while it comes back,
/// and only once: the continue saves it.
#[test]
fn a_long_journal_reports_its_progress_and_is_saved_once_back() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("progress");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), 11, false, false).unwrap();
    run.begin(Some(save.clone()));
    // Waiting is never refused; the autosave is left out by putting the first save back.
    let first = std::fs::read(&save).unwrap();
    let mut n = 0;
    while n < 2_500 && run.play(&Step::Play(Command::Wait)).is_ok_and(|p| !p.over) {
        n += 1;
    }
    assert!(n > 1_000, "{n}");
    drop(run);
    std::fs::write(&save, &first).unwrap();
    let mut seen = Vec::new();
    let (run, continued) = Run::load_reporting(rats.clone(), &save, &mut |done, total| {
        seen.push((done, total))
    })
    .unwrap();
    let total = continued.replayed;
    assert!(total >= n, "{total} {n}");
    let want: Vec<(usize, usize)> = (1..=total / 1000)
        .map(|k| (k * 1000, total))
        .chain(std::iter::once((total, total)))
        .collect();
    assert_eq!(seen, want);
    drop(run);
    let mut again = Vec::new();
    let (_, c) = Run::load_reporting(rats.clone(), &save, &mut |d, t| again.push((d, t))).unwrap();
    assert_eq!(
        (c.replayed, again.len()),
        (0, 0),
        "nothing left to bring back"
    );
}

/// The start screen's continue of a long journal says what it is about to do, drawn
/// before the work starts, and brings the game back at the next tick.
#[test]
fn a_long_continue_from_the_menu_is_announced_first() {
    let rats = Arc::new(Rats::new().unwrap());
    let d = scratch("announced");
    let save = d.join("rats.save");
    let mut run = Run::new_game(rats.clone(), 11, false, false).unwrap();
    run.begin(Some(save.clone()));
    let first = std::fs::read(&save).unwrap();
    let mut n = 0;
    while n < 5_200 && run.play(&Step::Play(Command::Wait)).is_ok_and(|p| !p.over) {
        n += 1;
    }
    assert!(n >= alembic_session::start::LONG_CONTINUE, "{n}");
    let turn = run.game().turn();
    drop(run);
    std::fs::write(&save, &first).unwrap();
    let session = alembic_session::play::Session::new(rats.clone(), 99).with_save(save.clone());
    let mut app: Box<dyn alembic_ui::App> = Box::new(alembic_session::play::app(session));
    app.handle(alembic_ui::Input::key(alembic_ui::Key::Char('c')));
    let mut f = alembic_ui::Frame::new(100, 40);
    app.render(&mut f);
    let said = format!("Bringing back the {n} moves recorded after the save");
    assert!(f.contains_text(&said), "{}", f.to_text());
    assert_eq!(app.tick_interval(), Some(std::time::Duration::ZERO));
    app.tick();
    let mut f = alembic_ui::Frame::new(100, 40);
    app.render(&mut f);
    assert!(f.contains_text(&format!("Turn {turn}")), "{}", f.to_text());
}
