//! The recording as the save's journal, the autosave, one window per save, and slots: a
//! crash loses no command, two windows never play one save, and a practice, wizard or
//! seeded game touches nothing of the real game until it is saved. Alchemy plays on the
//! shared session (`alembic_session::play`), driven by its keys; one window per save is the
//! launcher's (`--load`, and a new game in the default save). Process-level checks
//! (`kill -9` during play, two real windows) are in `scripts/crash-journal.sh` and
//! `scripts/reliability.sh`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::{Dir, Game};
use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
use alembic_games::alchemy::{Command, Rules, new_game};
use alembic_games::play::{self, Session, Step};
use alembic_games::record;
use alembic_games::slot::AUTOSAVE_EVERY;
use alembic_games::storage::{self, StorageError};
use alembic_games::{LaunchError, LaunchOptions};
use alembic_session::Ruleset as _;
use alembic_session::run::apply_step_quietly;
use alembic_ui::{App as _, Frame, Input, Key, ScreenStack};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn rules() -> Arc<Alchemy> {
    Arc::new(Alchemy::new().unwrap())
}

/// Alchemy on the shared session, and every line its message rows showed (the messages,
/// and the notices: what continuing said, refusals, problems), as the player read them.
struct Ui {
    app: ScreenStack<Session<Alchemy>>,
    said: Vec<String>,
}

impl Ui {
    /// A new game from `seed`, saving to `save`, begun at once (as `--seed` begins it).
    fn new_game(save: &Path, seed: u64, practice: bool, wizard: bool) -> Ui {
        let session = Session::with_board(rules(), AlchemyBoard::shared(), seed)
            .with_modes(practice, wizard)
            .with_save(save.to_path_buf());
        Ui::over(play::app_playing(session))
    }

    /// The game saved at `path`, continued.
    fn load(path: &Path) -> Ui {
        Ui::over(play::app_playing(
            Session::load_reporting(rules(), AlchemyBoard::shared(), path, &mut |_, _| {}).unwrap(),
        ))
    }

    fn over(app: ScreenStack<Session<Alchemy>>) -> Ui {
        let mut ui = Ui {
            app,
            said: Vec::new(),
        };
        ui.read();
        ui
    }

    /// Read the message rows.
    fn read(&mut self) {
        let mut f = Frame::new(400, 40);
        self.app.render(&mut f);
        for line in f.to_text().lines().take(3) {
            let line = line.trim();
            let recent = self.said.iter().rev().take(3).any(|l| l == line);
            if !line.is_empty() && !recent {
                self.said.push(line.to_owned());
            }
        }
    }

    /// Press `key`, let what it started run to its end, and read what it said.
    fn press(&mut self, key: Input) {
        let _ = self.app.handle_input(key);
        let mut ticks = 0;
        while self.app.tick_interval().is_some() && ticks < 5_000 {
            let _ = self.app.tick();
            ticks += 1;
        }
        self.read();
    }

    /// Quit the game (`Q`, `y`): it is filed as an ended game.
    fn quit(&mut self) {
        self.press(Input::ch('Q'));
        self.press(Input::ch('y'));
    }

    fn game(&self) -> &Game {
        self.app.ctx().game()
    }

    fn session(&mut self) -> &mut Session<Alchemy> {
        self.app.ctx_mut()
    }
}

/// `n` accepted commands: steps about, waiting where a step is refused.
fn play(ui: &mut Ui, n: usize, salt: usize) {
    let dirs = [Dir::East, Dir::South, Dir::West, Dir::North];
    let key = |d: Dir| match d {
        Dir::East => 'l',
        Dir::South => 'j',
        Dir::West => 'h',
        _ => 'k',
    };
    let mut done = 0;
    let mut i = salt;
    while done < n {
        i += 1;
        let c = if i.is_multiple_of(3) {
            '.'
        } else {
            key(dirs[(i / 3 + i) % 4])
        };
        let before = ui.game().state_hash();
        ui.press(Input::ch(c));
        if ui.game().state_hash() == before {
            ui.press(Input::ch('.'));
        }
        assert_eq!(
            ui.app.names().last().copied(),
            Some("play"),
            "{c:?} left the play screen"
        );
        assert_ne!(
            ui.game().state_hash(),
            before,
            "{c:?} then . played nothing"
        );
        done += 1;
        // An ended game takes no more commands: fail here rather than loop for ever.
        assert_eq!(
            ui.app.ctx().rules().status(ui.game()),
            alembic_session::Status::Playing,
            "the game ended after {done} commands: play a longer one"
        );
    }
}

fn state(ui: &Ui) -> (u64, u64) {
    let g = ui.game();
    (g.turn(), g.state_hash())
}

fn log_text(ui: &Ui) -> String {
    ui.said.join("\n")
}

/// The recording at `path` verifies from its seed to its end; its final (turn, hash).
fn verify(path: &Path) -> (u64, u64, usize) {
    let rec = record::read::<Step<Command>>(path, Alchemy::NAME).unwrap();
    assert!(!rec.torn, "the recording ends with a whole line");
    let rules = rules();
    let modes = alembic_session::Modes::parse(&rec.header.modes).unwrap();
    let start = rules.new_game_in_modes(rec.header.seed, &modes).unwrap();
    let v = rec
        .verify(
            start,
            |g: &Game, c| apply_step_quietly(&*rules, g, c),
            Game::state_hash,
            Game::turn,
        )
        .unwrap();
    (v.final_turn, v.final_hash, v.commands)
}

/// Run the test `name` again in a child process whose `XDG_DATA_HOME` is `dir` (the
/// launcher's default save is in `save_dir()`, which only the environment names): `true` in
/// the child, which then runs the test's body; in the parent, `false` once the child passed.
fn in_child(name: &str, dir: &Path) -> bool {
    const CHILD: &str = "ALEMBIC_JOURNAL_CHILD";
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env("XDG_DATA_HOME", dir)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 passed"), "the child ran the test: {said}");
    false
}

/// `--load path`, through the launcher (which takes the save's lock first).
fn launch_load(path: &Path) -> Result<Box<dyn alembic_ui::App>, LaunchError> {
    alembic_games::launch(&LaunchOptions {
        game: "alchemy".into(),
        load: Some(path.to_path_buf()),
        ..Default::default()
    })
}

/// A window playing the save at `path`: continued with the save's lock held, as the
/// launcher continues it (`launch_load`), with its game readable.
fn window(path: &Path) -> Ui {
    let lock = storage::SessionLock::acquire(path).unwrap();
    let mut ui = Ui::load(path);
    ui.session().hold_lock(lock);
    ui
}

#[test]
fn a_crash_after_saving_loses_no_command() {
    let d = scratch("crash");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 11, false, false);
    play(&mut a, 20, 0);
    a.session().save().unwrap();
    play(&mut a, 37, 5);
    let before_crash = state(&a);
    // `kill -9`: nothing more is written (no save on exit).
    drop(a);
    let mut b = Ui::load(&save);
    assert_eq!(state(&b), before_crash, "{}", log_text(&b));
    assert!(
        log_text(&b).contains("brought back 37 moves"),
        "{}",
        log_text(&b)
    );
    // The recording goes on, and verifies to the end.
    play(&mut b, 5, 9);
    let now = state(&b);
    drop(b);
    let (turn, hash, _) = verify(&record::beside(&save));
    assert_eq!((turn, hash), now);
}

#[test]
fn a_crash_before_the_first_save_loses_nothing() {
    let d = scratch("nosave");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 10, false, false);
    play(&mut a, 25, 1);
    let before = state(&a);
    drop(a);
    let b = Ui::load(&save);
    assert_eq!(state(&b), before);
}

#[test]
fn a_line_cut_off_by_a_crash_is_dropped_and_the_rest_kept() {
    let d = scratch("torn");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 12, false, false);
    play(&mut a, 10, 0);
    a.session().save().unwrap();
    play(&mut a, 8, 3);
    let before = state(&a);
    drop(a);
    let rec = record::beside(&save);
    let mut f = std::fs::OpenOptions::new().append(true).open(&rec).unwrap();
    std::io::Write::write_all(&mut f, b"{\"turn\":99,\"cmd\":{\"Mo").unwrap();
    drop(f);
    let b = Ui::load(&save);
    assert_eq!(state(&b), before);
    assert!(log_text(&b).contains("cut off"), "{}", log_text(&b));
    drop(b);
    assert_eq!(verify(&rec).0, before.0);
}

#[test]
fn a_recording_that_does_not_reach_the_save_is_said_and_the_save_plays_on() {
    let d = scratch("nomatch");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 13, false, false);
    play(&mut a, 10, 0);
    a.session().save().unwrap();
    let saved = state(&a);
    drop(a);
    // Another game's recording where this one's should be.
    let other = d.join("other.save");
    let mut o = Ui::new_game(&other, 99, false, false);
    play(&mut o, 4, 0);
    drop(o);
    let rec = record::beside(&save);
    std::fs::copy(record::beside(&other), &rec).unwrap();
    let before = std::fs::read(&rec).unwrap();
    let b = Ui::load(&save);
    assert_eq!(state(&b), saved);
    let text = log_text(&b);
    assert!(
        text.contains("does not reach this save") && text.contains("you play on from the save"),
        "{text}"
    );
    assert!(b.app.ctx().recording().is_none());
    // The recording that did not match is left as it was.
    assert_eq!(std::fs::read(&rec).unwrap(), before);
}

#[test]
fn the_game_saves_itself_every_so_often() {
    let d = scratch("autosave");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 14, false, false);
    let hooks = Rules::new().unwrap();
    let saved = || {
        let g = alembic_games::alchemy::save::load(&save, &hooks).unwrap();
        (g.turn(), g.state_hash())
    };
    // A new game is saved at once...
    let start = state(&a);
    assert_eq!(saved(), start);
    // ...then first after AUTOSAVE_EVERY commands less the seed's stagger (14), so games
    // started together do not all save on the same move...
    let first = AUTOSAVE_EVERY - 14;
    play(&mut a, first - 1, 0);
    assert_eq!(saved(), start);
    play(&mut a, 1, 7);
    let first_save = state(&a);
    assert_eq!(saved(), first_save, "saved after {first} commands");
    // ...and again every AUTOSAVE_EVERY commands.
    play(&mut a, AUTOSAVE_EVERY - 1, 0);
    assert_eq!(saved(), first_save);
    play(&mut a, 1, 7);
    let at_save = state(&a);
    assert_eq!(
        saved(),
        at_save,
        "saved after {AUTOSAVE_EVERY} more commands"
    );
    play(&mut a, 3, 1);
    let last = state(&a);
    drop(a);
    let loaded = alembic_games::alchemy::save::load(&save, &Rules::new().unwrap()).unwrap();
    assert_eq!((loaded.turn(), loaded.state_hash()), at_save);
    let b = Ui::load(&save);
    assert_eq!(state(&b), last);
}

#[test]
fn a_second_window_cannot_continue_a_save_in_play() {
    let d = scratch("twowindows");
    if !in_child("a_second_window_cannot_continue_a_save_in_play", &d) {
        return;
    }
    // The default save, where a new game saves.
    let save = alembic_games::save_dir().unwrap().join("alchemy.save");
    std::fs::create_dir_all(save.parent().unwrap()).unwrap();
    let mut a = Ui::new_game(&save, 15, false, false);
    play(&mut a, 3, 0);
    a.session().save().unwrap();
    drop(a);
    let mut a = window(&save);
    play(&mut a, 3, 1);
    // The second window continues the same save.
    let err = launch_load(&save).err().unwrap();
    assert!(matches!(
        err,
        LaunchError::Busy(StorageError::Locked { .. })
    ));
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("pid {}", std::process::id())),
        "{msg}"
    );
    // A new game would save there too: refused the same way.
    let new = alembic_games::launch(&LaunchOptions {
        game: "alchemy".into(),
        seed: Some(3),
        ..Default::default()
    });
    assert!(matches!(new, Err(LaunchError::Busy(_))));
    // A symbolic link to the save is the same save.
    let link = d.join("link.save");
    std::os::unix::fs::symlink(&save, &link).unwrap();
    assert!(matches!(
        launch_load(&link),
        Err(LaunchError::Busy(StorageError::Locked { .. }))
    ));
    drop(a);
    launch_load(&save).unwrap();
}

/// Issue 57, 2: a refused `--load` (or continue) of a save open in another window reads
/// and writes nothing: the recording the first window appends to stays byte for byte.
#[test]
fn a_refused_second_window_leaves_the_recording_alone() {
    let d = scratch("refusedrec");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 17, false, false);
    play(&mut a, 4, 0);
    a.session().save().unwrap();
    drop(a);
    let mut a = window(&save);
    play(&mut a, 6, 1); // after the save: a continue would replay these and checkpoint them
    let rec = record::beside(&save);
    let before = (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap());
    for _ in 0..5 {
        assert!(matches!(
            launch_load(&save),
            Err(LaunchError::Busy(StorageError::Locked { .. }))
        ));
    }
    let after = (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap());
    assert!(
        before == after,
        "the refused window wrote to the game in play"
    );
    play(&mut a, 2, 2);
    let last = state(&a);
    drop(a);
    let b = Ui::load(&save);
    assert_eq!(state(&b), last, "{}", log_text(&b));
}

/// Issue 57, 6: a lock that cannot be made refuses the game, with a sentence; it never
/// plays unlocked. (The lock's name is too long for the file system: even root cannot get
/// past that, where a root-owned file would not stop a test run as root.)
#[test]
fn a_lock_that_cannot_be_made_refuses_the_game() {
    let d = scratch("nolock");
    let save = d.join(format!("{}.save", "a".repeat(246)));
    let rules = Rules::new().unwrap();
    // Written under a short name (the temporary file beside a long one would be too long
    // too), then given the long one.
    let short = d.join("short.save");
    alembic_games::alchemy::save::save(&new_game(5, &rules).unwrap(), &short).unwrap();
    std::fs::rename(&short, &save).unwrap();
    let before = std::fs::read(&save).unwrap();
    let err = launch_load(&save).err().unwrap();
    assert!(
        matches!(err, LaunchError::Busy(StorageError::CannotLock { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("cannot lock this save"), "{err}");
    assert_eq!(
        std::fs::read(&save).unwrap(),
        before,
        "nothing was played or saved"
    );
    assert!(!record::beside(&save).exists(), "nothing was recorded");
}

#[test]
fn a_symlink_or_directory_at_the_lock_path_is_refused_and_left_alone() {
    let d = scratch("badlock");
    let save = d.join("alchemy.save");
    let precious = d.join("precious");
    std::fs::write(&precious, "keep me").unwrap();
    let lock = storage::sibling(&save, ".lock");
    std::os::unix::fs::symlink(&precious, &lock).unwrap();
    let err = storage::SessionLock::acquire(&save).unwrap_err();
    assert!(
        err.to_string()
            .contains("is a symbolic link, not a lock file"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    // A dangling link does not create its target either.
    std::fs::remove_file(&lock).unwrap();
    let nowhere = d.join("nowhere");
    std::os::unix::fs::symlink(&nowhere, &lock).unwrap();
    assert!(storage::SessionLock::acquire(&save).is_err());
    assert!(!nowhere.exists());
    // A directory.
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let err = storage::SessionLock::acquire(&save).unwrap_err();
    assert!(err.to_string().contains("is a directory"), "{err}");
    // And through the game: continuing the save says so instead of playing unlocked.
    let rules = Rules::new().unwrap();
    alembic_games::alchemy::save::save(&new_game(1, &rules).unwrap(), &save).unwrap();
    assert!(matches!(
        launch_load(&save),
        Err(LaunchError::Busy(StorageError::BadLock { .. }))
    ));
}

#[test]
fn a_stale_lock_of_a_dead_process_is_taken_over() {
    let d = scratch("stale");
    let save = d.join("alchemy.save");
    std::fs::write(storage::sibling(&save, ".lock"), "999999999").unwrap();
    let lock = storage::SessionLock::acquire(&save).unwrap();
    assert_eq!(
        std::fs::read_to_string(lock.path()).unwrap(),
        std::process::id().to_string()
    );
}

#[test]
fn locking_never_creates_anything_beside_a_device_or_in_a_missing_directory() {
    assert!(storage::SessionLock::acquire(Path::new("/dev/zero")).is_err());
    assert!(!Path::new("/dev/zero.lock").exists());
    let d = scratch("missing");
    let missing = d.join("missing").join("dir").join("z.save");
    assert!(storage::SessionLock::acquire(&missing).is_err());
    assert!(launch_load(&missing).is_err());
    assert!(!d.join("missing").exists());
}

/// The real game: saved, with its recording, and both files' bytes.
fn real_game(d: &Path) -> (PathBuf, Vec<u8>, Vec<u8>) {
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 21, false, false);
    play(&mut a, 12, 0);
    a.session().save().unwrap();
    drop(a);
    let s = std::fs::read(&save).unwrap();
    let r = std::fs::read(record::beside(&save)).unwrap();
    (save, s, r)
}

/// Issue 57: a version 3 save kept its modes outside its checksum, so a practice save
/// could be relabelled a normal (scored) game. Continued beside its recording (whose header
/// is sealed), it is a practice game again, and saved again under the current seal.
#[test]
fn a_relabelled_version_3_practice_save_is_practice_again() {
    let d = scratch("v3modes");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 33, true, false);
    play(&mut a, 6, 0);
    a.session().save().unwrap();
    drop(a);
    let mut env: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert!(
        env["modes"].to_string().contains("practice"),
        "{}",
        env["modes"]
    );
    env["version"] = 3.into();
    env["modes"] = serde_json::json!([]);
    let v3 = alembic_games::alchemy::save::reseal(&env.to_string()).unwrap();
    std::fs::write(&save, &v3).unwrap();
    let b = Ui::load(&save);
    assert!(b.app.ctx().modes().practice, "{}", log_text(&b));
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(again["version"], 4, "saved again under the current seal");
    assert!(again["modes"].to_string().contains("practice"));
}

#[test]
fn a_practice_wizard_or_seeded_game_leaves_the_real_game_alone_until_saved() {
    for mode in ["practice", "wizard", "seed"] {
        let d = scratch(&format!("slots-{mode}"));
        let (save, s, r) = real_game(&d);
        let mut b = Ui::new_game(&save, 76, mode == "practice", mode == "wizard");
        // Long enough for an autosave, then given up (quit) and finished.
        play(&mut b, AUTOSAVE_EVERY + 10, 2);
        b.quit();
        drop(b);
        assert_eq!(std::fs::read(&save).unwrap(), s, "{mode}: the save");
        assert_eq!(
            std::fs::read(record::beside(&save)).unwrap(),
            r,
            "{mode}: the recording"
        );
        // Its own record went to records/, not over the real one.
        let kept = std::fs::read_dir(d.join("records")).unwrap().count();
        assert_eq!(kept, 1, "{mode}");
    }
}

#[test]
fn saving_the_new_game_replaces_the_real_one_with_its_recording() {
    let d = scratch("slots-save");
    let (save, s, _) = real_game(&d);
    let mut b = Ui::new_game(&save, 78, true, false);
    play(&mut b, 6, 1);
    b.session().save().unwrap();
    let now = state(&b);
    drop(b);
    assert_ne!(std::fs::read(&save).unwrap(), s);
    let (turn, hash, commands) = verify(&record::beside(&save));
    assert_eq!((turn, hash), now);
    assert_eq!(commands, 6);
}

#[test]
fn a_practice_save_relabelled_as_a_normal_game_is_refused() {
    let d = scratch("modes");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 31, true, false);
    play(&mut a, 3, 0);
    a.session().save().unwrap();
    drop(a);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("\"modes\":[\"practice\"]"), "{text}");
    let rules = Rules::new().unwrap();
    assert!(alembic_games::alchemy::save::from_text(&text, &rules).is_ok());
    let edited = text.replace("\"modes\":[\"practice\"]", "\"modes\":[]");
    let err = alembic_games::alchemy::save::from_text(&edited, &rules).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
}

/// The Caves too: moves made after the save come back from the recording.
#[test]
fn a_caves_crash_after_saving_loses_no_command() {
    use alembic_games::caves::{self, Caves};
    use alembic_games::play::{self, Session};
    use alembic_ui::{App, Input, TestFrontend, run};
    let rules = std::sync::Arc::new(Caves::new().unwrap());
    let load = |p: &std::path::Path| Session::load(rules.clone(), p).unwrap();
    let d = scratch("caves");
    let save = d.join(caves::save::SAVE_FILE);
    let mut app = play::app(Session::new(rules.clone(), 6).with_save(save.clone()));
    let mut keys = vec![Input::ch(' ')];
    keys.extend("llllljjj".chars().map(Input::ch));
    keys.push(Input::ch('S'));
    run(&mut TestFrontend::new(100, 30, keys), &mut app).unwrap();
    let saved = app.ctx().game().turn();
    drop(app);
    // Continue, play on, and crash: nothing saved after these moves.
    let mut app = play::app(load(&save));
    for k in " hhh...".chars() {
        app.handle(Input::ch(k));
    }
    let played = app.ctx().game().clone();
    assert!(played.turn() > saved, "played on after the save");
    drop(app);
    let back = load(&save);
    assert_eq!(back.game().state_hash(), played.state_hash());
    drop(back);
    // One window per save in the Caves too.
    let opts = alembic_games::LaunchOptions {
        game: "caves".into(),
        load: Some(save.clone()),
        ..Default::default()
    };
    let first = alembic_games::launch(&opts).unwrap();
    let second = alembic_games::launch(&opts).err().unwrap().to_string();
    assert!(
        second.contains(&format!(
            "already open in another window (pid {})",
            std::process::id()
        )),
        "{second}"
    );
    drop(first);
    assert!(alembic_games::launch(&opts).is_ok());
}

/// Write only what loads: a game the loader would refuse (a 64 KB message) is not written,
/// and the save there is kept as it was.
#[test]
#[allow(deprecated)] // the message log, deprecated: English is not state
fn a_save_that_would_not_load_back_is_not_written() {
    use alembic_games::alchemy::save;
    let d = scratch("checked");
    let path = d.join("alchemy.save");
    let rules = Rules::new().unwrap();
    let good = new_game(3, &rules).unwrap();
    save::save_checked(&good, &path, &alembic_session::Modes::none(), &rules).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    bad.log_mut("x".repeat(64 * 1024));
    let err = save::save_checked(&bad, &path, &alembic_session::Modes::none(), &rules).unwrap_err();
    assert!(err.to_string().contains("would not load back"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(
        !d.read_dir()
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
    );
}

/// A morgue that cannot be written is said on screen, and in the farewell as an error (the
/// frontend prints it on stderr and exits non-zero).
#[test]
fn a_record_that_cannot_be_kept_is_said_and_fails_the_exit() {
    let d = scratch("morgue");
    let save = d.join("alchemy.save");
    // A file where the morgue directory goes.
    std::fs::write(d.join("morgue"), "in the way").unwrap();
    let mut a = Ui::new_game(&save, 41, false, false);
    play(&mut a, 3, 0);
    // Quit: the end screen says what was filed, and what could not be.
    let _ = a.app.handle_input(Input::ch('Q'));
    let mut fe = alembic_ui::TestFrontend::new(100, 30, [Input::ch('y')]);
    let _ = alembic_ui::run(&mut fe, &mut a.app);
    let said = fe.last_frame().unwrap().to_text();
    assert!(said.contains("morgue could not be kept"), "{said}");
    let farewell = a.app.ctx().farewell().unwrap_err();
    assert!(
        farewell.0.contains("morgue could not be kept"),
        "{farewell}"
    );
    assert_eq!(a.app.ctx().record_problems().len(), 1);
}

/// The same for the session's games (Caves, rats): a morgue that cannot be kept is said on
/// leaving and fails the exit, with the same status as Alchemy's (the frontends' exit status
/// is `report_session_end`'s answer to the app's farewell).
#[test]
fn a_record_that_cannot_be_kept_fails_the_exit_in_every_game() {
    use alembic_games::caves::Caves;
    use alembic_games::rats::Rats;
    use alembic_session::Ruleset;
    use alembic_session::play::{self, Session};
    use alembic_ui::{Input, TestFrontend};
    use std::sync::Arc;

    fn quit_at_once<R: Ruleset + alembic_session::Board<R>>(
        rules: R,
        dir: &Path,
    ) -> Result<Option<String>, alembic_ui::FarewellError> {
        let save = dir.join(format!("{}.save", R::NAME));
        let session = Session::new(Arc::new(rules), 7).with_save(save);
        let mut app = play::app(session);
        let keys = [Input::ch(' '), Input::ch('Q'), Input::ch('y')];
        let mut fe = TestFrontend::new(100, 30, keys);
        let _ = alembic_ui::run(&mut fe, &mut app);
        app.into_ctx().farewell()
    }

    let alchemy = {
        let d = scratch("morgue-exit-alchemy");
        std::fs::write(d.join("morgue"), "in the way").unwrap();
        let mut a = Ui::new_game(&d.join("alchemy.save"), 41, false, false);
        a.quit();
        a.app.into_ctx().farewell()
    };
    let caves = {
        let d = scratch("morgue-exit-caves");
        std::fs::write(d.join("morgue"), "in the way").unwrap();
        quit_at_once(Caves::new().unwrap(), &d)
    };
    let rats = {
        let d = scratch("morgue-exit-rats");
        std::fs::write(d.join("morgue"), "in the way").unwrap();
        quit_at_once(Rats::new().unwrap(), &d)
    };
    for (game, farewell) in [("alchemy", &alchemy), ("caves", &caves), ("rats", &rats)] {
        let said = match farewell {
            Err(e) => e.to_string(),
            Ok(line) => panic!("{game}: the exit would succeed, saying {line:?}"),
        };
        assert!(said.contains("morgue could not be kept"), "{game}: {said}");
        assert_eq!(
            said.matches("morgue could not be kept").count(),
            1,
            "{game}, said once: {said}"
        );
        assert!(
            !alembic_games::report_session_end(game, farewell.clone(), Ok::<(), String>(())),
            "{game}: the exit status is a failure"
        );
    }
    // Without the obstacle, the same quit exits well.
    let d = scratch("morgue-exit-fine");
    assert!(quit_at_once(Rats::new().unwrap(), &d).is_ok());
}

/// A practice undo rewrites the recording; a crash after it still finds the save in it.
#[test]
fn a_crash_after_a_practice_undo_loses_nothing() {
    let d = scratch("undo");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 51, true, false);
    // Past an autosave, then back before it.
    play(&mut a, AUTOSAVE_EVERY + 5, 0);
    for _ in 0..10 {
        assert_eq!(a.session().undo(1), 1);
    }
    play(&mut a, 4, 3);
    let before = state(&a);
    drop(a);
    let b = Ui::load(&save);
    assert_eq!(state(&b), before, "{}", log_text(&b));
    assert!(b.app.ctx().recording().is_some());
}

/// The Caves write only what loads too: a game the loader refuses (here: no player) is not
/// written, and the save there is kept.
#[test]
fn a_caves_save_that_would_not_load_back_is_not_written() {
    use alembic_games::caves;
    let d = scratch("caves-checked");
    let path = d.join(caves::save::SAVE_FILE);
    let good = caves::new_game(4).unwrap();
    caves::save::save(&good, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let empty = Game::new(4);
    assert!(caves::save::save(&empty, &path).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// The last-resort save (what a frontend runs when its X connection dies) writes the game as
/// it stands, marks the recording with it, and the continued game is that game with nothing
/// brought back from the journal; a practice game over a real save has none (the real save
/// stays as it is).
#[test]
fn the_emergency_save_is_the_game_as_it_stands_and_spares_another_save() {
    let d = scratch("emergency");
    let save = d.join("alchemy.save");
    let mut c = Ui::new_game(&save, 9, false, false);
    play(&mut c, 37, 0);
    let game = c.game().clone();
    assert!(game.turn() > 0);
    let run = c
        .app
        .ctx()
        .emergency_save()
        .expect("a game in play has one");
    drop(c);
    assert_eq!(run().unwrap(), save.display().to_string());
    let rules = Rules::new().unwrap();
    let loaded = alembic_games::alchemy::save::load(&save, &rules).unwrap();
    assert_eq!(
        (loaded.turn(), loaded.state_hash()),
        (game.turn(), game.state_hash())
    );
    let back = Ui::load(&save);
    assert_eq!(back.game().state_hash(), game.state_hash());
    let said = &back.said;
    assert!(
        !said
            .iter()
            .any(|l| l.contains("brought back") || l.contains("cannot go on")),
        "{said:?}"
    );
    drop(back);
    // A practice game over that save: nothing to write in its place.
    let before = std::fs::read(&save).unwrap();
    let mut p = Ui::new_game(&save, 10, true, false);
    play(&mut p, 5, 1);
    assert!(p.app.ctx().emergency_save().is_none());
    drop(p);
    assert_eq!(std::fs::read(&save).unwrap(), before);
}

/// The one morgue file written in `dir`, and the value of its "Seed:" line.
fn morgue_seed(dir: &Path) -> (String, String) {
    let morgues: Vec<PathBuf> = std::fs::read_dir(dir.join("morgue"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(morgues.len(), 1, "{morgues:?}");
    let text = std::fs::read_to_string(&morgues[0]).unwrap();
    let seed = text
        .lines()
        .find_map(|l| l.strip_prefix("Seed:"))
        .unwrap_or_else(|| panic!("no seed line in {text}"))
        .trim()
        .to_owned();
    (text, seed)
}

/// The seeds of the score table's entries in `dir/file`.
fn score_seeds(dir: &Path, file: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entries = v
        .as_array()
        .or_else(|| v["scores"].as_array())
        .cloned()
        .unwrap_or_default();
    entries.iter().map(|e| e["seed"].clone()).collect()
}

/// An Alchemy game continued from a copy of its save in another directory (without the
/// recording, which alone knows its seed: Alchemy's saves do not keep it) files a morgue
/// and a score that say the seed is unknown, never "0"; continued beside its recording, the
/// seed is the game's.
#[test]
fn a_game_continued_without_its_recording_never_says_seed_0() {
    let d = scratch("seed");
    let (home, away) = (d.join("home"), d.join("away"));
    std::fs::create_dir_all(&away).unwrap();
    let save = home.join("alchemy.save");
    let mut a = Ui::new_game(&save, 4242, false, false);
    play(&mut a, 5, 0);
    a.session().save().unwrap();
    drop(a);
    std::fs::copy(&save, away.join("alchemy.save")).unwrap();

    let mut b = Ui::load(&away.join("alchemy.save"));
    b.quit();
    let (text, seed) = morgue_seed(&away);
    assert!(seed.starts_with("unknown"), "{text}");
    assert_eq!(score_seeds(&away, "scores.json"), [serde_json::Value::Null]);

    let mut c = Ui::load(&save);
    assert_eq!(c.app.ctx().seed(), 4242);
    c.quit();
    assert_eq!(morgue_seed(&home).1, "4242");
}

/// The same for the session's games: a Caves game continued from a copy of its save
/// elsewhere files the seed its save keeps (in the game value), never 0.
#[test]
fn a_caves_game_continued_without_its_recording_keeps_its_seed() {
    use alembic_games::caves::Caves;
    use alembic_session::Journeys;
    use alembic_session::run::{Run, Step};
    use std::sync::Arc;
    let d = scratch("caves-seed");
    let (home, away) = (d.join("home"), d.join("away"));
    std::fs::create_dir_all(&away).unwrap();
    let save = home.join("caves.save");
    let caves = Arc::new(Caves::new().unwrap());
    let mut run = Run::new_game(caves.clone(), 4343, false, false).unwrap();
    run.begin(Some(save.clone()));
    run.play(&Step::Play(caves.wait().unwrap())).unwrap();
    run.save().unwrap();
    drop(run);
    std::fs::copy(&save, away.join("caves.save")).unwrap();
    let (mut run, continued) = Run::load(caves, &away.join("caves.save")).unwrap();
    assert!(
        continued.unrecorded.is_some(),
        "no recording beside the copy"
    );
    run.finish(true, &[]).unwrap();
    let (text, seed) = morgue_seed(&away);
    assert_eq!(seed, "4343", "{text}");
}

/// Issue 54, 8: a continued game keeps its message history (the `m` log and the morgue's
/// timeline): the recording says the messages again, up to the save.
#[test]
fn a_continued_game_keeps_its_messages() {
    let d = scratch("messages");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 5, false, false);
    // Explore and fight, as a player would: the log holds the game's own lines.
    for i in 0..40 {
        let key = if i % 3 == 2 {
            Input::key(Key::Tab)
        } else {
            Input::ch('o')
        };
        a.press(key);
        if a.app.names().last().copied() != Some("play") {
            a.press(Input::key(Key::Esc));
        }
    }
    assert_eq!(
        a.app.ctx().rules().status(a.game()),
        alembic_session::Status::Playing
    );
    // What the commands said (the line on entering is said by the new game, not a move).
    let mut lines: Vec<String> = a.app.ctx().messages().map(str::to_owned).collect();
    assert!(lines[0].starts_with("You enter the dungeon."), "{lines:?}");
    lines.remove(0);
    assert!(lines.len() >= 4, "{lines:?}");
    a.session().save().unwrap();
    drop(a);
    let b = Ui::load(&save);
    let back: Vec<String> = b.app.ctx().messages().map(str::to_owned).collect();
    assert_eq!(back, lines);
    assert!(log_text(&b).contains("Welcome back."), "{}", log_text(&b));
}

#[test]
fn a_recording_that_cannot_be_written_waits_and_no_save_outruns_it() {
    let d = scratch("behind");
    let save = d.join("alchemy.save");
    let mut a = Ui::new_game(&save, 15, false, false);
    play(&mut a, 5, 0);
    assert!(a.session().journal_behind().is_none());
    // A directory where the recording is: every write of it fails (as on a full disk or
    // in a read-only directory). The game plays on; its lines wait in memory.
    let rec = alembic_games::record::beside(&save);
    let aside = d.join("aside.replay");
    std::fs::rename(&rec, &aside).unwrap();
    std::fs::create_dir(&rec).unwrap();
    play(&mut a, 4, 3);
    let why = a
        .session()
        .journal_behind()
        .expect("the recording is behind");
    assert!(why.contains("Is a directory"), "{why}");
    assert!(
        log_text(&a).contains("The recording cannot be written"),
        "the player is told once:\n{}",
        log_text(&a)
    );
    // A save the recording does not reach is refused; the old one stays.
    let before = std::fs::read(&save).unwrap();
    let refused = a.session().save().unwrap_err().to_string();
    assert!(
        refused.contains("the recording cannot be written"),
        "{refused}"
    );
    assert_eq!(std::fs::read(&save).unwrap(), before);
    // The file back: every waiting line is written, whole, in order.
    std::fs::remove_dir(&rec).unwrap();
    std::fs::rename(&aside, &rec).unwrap();
    assert!(a.session().journal_behind().is_none());
    let (turn, hash, _) = verify(&rec);
    assert_eq!((turn, hash), state(&a), "the recording reaches the game");
    a.session().save().unwrap();
    let last = state(&a);
    drop(a);
    let b = Ui::load(&save);
    assert_eq!(state(&b), last);
}
