//! The Alchemy UI, headless: Alchemy on the shared session (`alembic_session::play`, with
//! `AlchemyBoard`), scripted keys through the engine's `TestFrontend` (or straight into the
//! screen stack), asserting on the text of the frames and on the game behind them. Saves go
//! to a per-test temporary directory, never the real home.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
use alembic_games::alchemy::{
    Rules, new_game,
    props::HPS,
    rules::add_effect,
    save,
    view::{ItemKind, hero_id, inventory_entries, status},
};
use alembic_games::play::{self, Session};
use alembic_games::{LaunchOptions, launch};
use alembic_ui::{App, Control, Frame, Input, Key, ScreenStack, TestFrontend, run};

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

type AlchemyUi = ScreenStack<Session<Alchemy>>;

/// How the app starts.
enum Start {
    /// The start screen.
    Menu,
    /// Straight into a new game from this seed (`--seed`).
    New(u64),
    /// Straight into the game saved in this file (`--load`).
    Load(PathBuf),
}

/// Alchemy on the shared session, saving to `save`.
fn app(start: Start, save: &Path) -> AlchemyUi {
    let rules = Arc::new(Alchemy::new().unwrap());
    let fresh = |seed| {
        Session::with_board(rules.clone(), AlchemyBoard::shared(), seed)
            .with_save(save.to_path_buf())
    };
    match start {
        Start::Menu => play::app(fresh(0)),
        Start::New(seed) => play::app_playing(fresh(seed)),
        Start::Load(path) => play::app_playing(
            Session::load_reporting(rules.clone(), AlchemyBoard::shared(), &path, &mut |_, _| {})
                .unwrap(),
        ),
    }
}

fn keys(s: &str) -> Vec<Input> {
    s.chars().map(Input::ch).collect()
}

fn esc() -> Input {
    Input::key(Key::Esc)
}

fn render(app: &mut AlchemyUi, w: u16, h: u16) -> Frame {
    let mut f = Frame::new(w, h);
    app.render(&mut f);
    f
}

fn turn(app: &AlchemyUi) -> u64 {
    app.ctx().game().turn()
}

fn hash(app: &AlchemyUi) -> u64 {
    app.ctx().game().state_hash()
}

/// Walk, inventory, quaff, read the message, help, look, save and quit; then "continue"
/// restores exactly the saved game.
#[test]
fn play_save_quit_and_continue() {
    let dir = temp_dir("continue");
    let save_path = dir.join("alchemy.save");
    let mut a = app(Start::New(42), &save_path);
    assert_eq!(a.names(), vec!["start", "play"]);

    // The letter of the first potion in the quaff list.
    let game = a.ctx().game();
    let potions: Vec<_> = inventory_entries(game)
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == ItemKind::Potion)
        .collect();
    assert!(!potions.is_empty(), "the hero starts with a potion");

    let mut script = vec![
        Input::key(Key::Down),
        Input::key(Key::Keypad(5)), // wait
        Input::ch('.'),             // wait
        Input::ch('i'),             // inventory
        esc(),
        Input::ch('q'),                        // quaff list
        Input::ch(potions[0].letter.unwrap()), // the first potion, by its own letter
        Input::ch('?'),                        // help
        esc(),
        Input::ch('x'), // look
        Input::key(Key::Tab),
        esc(),
    ];
    script.extend(keys("S ")); // save, then read where it went
    let mut fe = TestFrontend::new(100, 30, script);
    run(&mut fe, &mut a).unwrap();
    let f = fe.frames();
    assert!(f[0].contains_text("@"));
    assert!(f[0].contains_text("Depth 1/11"));
    assert!(f[0].contains_text("HP "));
    assert!(f[0].contains_text("You enter the dungeon."));
    assert!(f[4].contains_text("Inventory"), "{}", f[4].to_text());
    assert!(f[4].contains_text(&potions[0].name));
    assert!(f[6].contains_text("Quaff which potion?"));
    assert!(
        f[7].contains_text("You drink"),
        "the quaff message shows on the play screen:\n{}",
        f[7].to_text()
    );
    assert!(f[8].contains_text("wait a turn"), "help lists the keys");
    assert!(f[10].contains_text("Look"));
    assert!(f[10].contains_text("You are standing here."));
    assert!(a.ctx().game().turn() >= 3);

    // S saved the game and ended the app; the game in the context is the one saved.
    assert!(save_path.is_file());
    let saved_hash = hash(&a);
    let saved_turn = turn(&a);
    // One window per save: the first session has ended.
    drop(a);

    // Next start: the menu offers "continue", which restores the same game.
    let mut b = app(Start::Menu, &save_path);
    let menu = render(&mut b, 100, 30);
    assert!(
        menu.contains_text("Continue the saved game"),
        "{}",
        menu.to_text()
    );
    assert_eq!(b.handle(Input::ch('c')), Control::Continue);
    assert_eq!(b.names(), vec!["start", "play"]);
    assert_eq!(hash(&b), saved_hash);
    assert_eq!(turn(&b), saved_turn);
    assert!(render(&mut b, 100, 30).contains_text("Welcome back."));
    drop(b);

    // Through the launcher too (what the frontends call).
    let mut c = launch(&LaunchOptions {
        game: "alchemy".into(),
        seed: None,
        load: Some(save_path.clone()),
        tiles: None,
        practice: false,
        replay: None,
        wizard: false,
        data: Default::default(),
    })
    .unwrap();
    let mut fc = Frame::new(100, 30);
    c.render(&mut fc);
    assert!(fc.contains_text("Depth 1/11"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An unknown key and an impossible action cost no turn and say why.
#[test]
fn invalid_keys_and_refusals_cost_no_turn() {
    // Seed 9: no stairs down and no monster in view at the start.
    let dir = temp_dir("invalid");
    let mut a = app(Start::New(9), &dir.join("alchemy.save"));
    let (t0, h0) = (turn(&a), hash(&a));
    a.handle(Input::ch('V'));
    assert!(render(&mut a, 100, 30).contains_text("Unknown key 'V'. Press ? for help."));
    // Away from stairs, > travels to the nearest known stairs down: none are known yet, so
    // the rules' refusal stands.
    a.handle(Input::ch('>'));
    let f = render(&mut a, 100, 30);
    assert!(
        f.contains_text("There are no stairs down here."),
        "{}",
        f.to_text()
    );
    let logged = a.ctx().messages().count();
    a.handle(Input::ch('>'));
    let f = render(&mut a, 100, 30);
    assert!(
        f.contains_text("There are no stairs down here.") && !f.contains_text("(x2)"),
        "a repeated refusal is shown once, not counted"
    );
    assert_eq!(a.ctx().messages().count(), logged, "and not logged again");
    a.handle(Input::ch('e'));
    a.handle(esc());
    a.handle(Input::ch('c'));
    a.handle(esc());
    a.handle(Input::ch('C'));
    a.handle(Input::ch('h'));
    assert_eq!((turn(&a), hash(&a)), (t0, h0), "nothing happened");
    // And a real step does take a turn somewhere among the eight directions.
    for k in "hjklyubn".chars() {
        a.handle(Input::ch(k));
    }
    assert!(turn(&a) > t0);
}

/// Every screen survives any frame size, tiny ones included, and the layout follows it.
#[test]
fn resizes_relayout_without_panic() {
    let dir = temp_dir("resize");
    let mut a = app(Start::New(3), &dir.join("alchemy.save"));
    let sizes = [
        (0, 0),
        (1, 1),
        (2, 9),
        (10, 5),
        (40, 12),
        (63, 20),
        (64, 11),
        (80, 24),
        (120, 40),
        (250, 80),
    ];
    // Each screen in turn: play, inventory, action menu, look, direction, help, log, craft.
    let openers: Vec<Vec<Input>> = vec![
        vec![],
        vec![Input::ch('i')],
        vec![Input::ch('i'), Input::ch('a')],
        vec![Input::ch('x')],
        vec![Input::ch('t'), Input::ch('a')],
        vec![Input::ch('C')],
        vec![Input::ch('?')],
        vec![Input::ch('m')],
        vec![Input::ch('Q')],
    ];
    for open in openers {
        for i in &open {
            a.handle(*i);
        }
        for &(w, h) in &sizes {
            a.handle(Input::Resize {
                width: w,
                height: h,
            });
            let f = render(&mut a, w, h);
            if w >= 80 && h >= 24 {
                // Dialogs may cover the hero (a box); the play screen never does, nor a
                // question that points on the map (its cursor may stand on the hero).
                let shown = if a.len() == 2 {
                    f.contains_text("@")
                } else {
                    f.contains_text("─") || f.contains_text("@")
                };
                assert!(shown, "{:?} at {w}x{h}:\n{}", a.names(), f.to_text());
            }
        }
        for _ in 0..3 {
            a.handle(esc());
        }
        assert_eq!(a.names(), vec!["start", "play"]);
    }
    // The narrow layout puts the status at the bottom.
    let f = render(&mut a, 50, 20);
    assert!(f.row_text(18).contains("Depth 1/11"), "{}", f.to_text());
    // The start screen at odd sizes too.
    let mut b = app(Start::Menu, &dir.join("none.save"));
    for &(w, h) in &sizes {
        let _ = render(&mut b, w, h);
    }
}

/// The TestFrontend drives resizes through `run` as a real frontend would.
#[test]
fn resize_events_through_the_run_loop() {
    let dir = temp_dir("resize-run");
    let mut a = app(Start::New(5), &dir.join("alchemy.save"));
    let script = vec![
        Input::Resize {
            width: 120,
            height: 40,
        },
        Input::Resize {
            width: 30,
            height: 8,
        },
        Input::Resize {
            width: 80,
            height: 24,
        },
        Input::ch('Q'),
        Input::ch('n'),
        Input::ch('Q'),
        Input::ch('y'),
        Input::ch('q'),
    ];
    let mut fe = TestFrontend::new(100, 30, script);
    run(&mut fe, &mut a).unwrap();
    let f = fe.frames();
    // Quitting ends on the summary, as a death does; `q` leaves it.
    let summary = &f[f.len() - 1];
    assert!(
        summary.contains_text("G A M E   O V E R"),
        "{}",
        summary.to_text()
    );
    assert!(summary.contains_text("You quit."), "{}", summary.to_text());
    assert!(
        summary.contains_text("Seed:     5"),
        "{}",
        summary.to_text()
    );
    assert_eq!((f[1].width(), f[1].height()), (120, 40));
    assert_eq!(f[1].row_text(3).chars().count(), 120);
    assert!(f[1].contains_text("Depth 1/11"));
    // The goal in the panel's own count of depth (issue 54: the help said "depth 10" and
    // the panel "Depth 1/11", with nothing tying them).
    assert!(
        f[1].contains_text("The Stone: depth 10"),
        "{}",
        f[1].to_text()
    );
    assert!(f[3].contains_text("Depth 1/11"));
    assert!(f[4].contains_text("Quit this game?"));
    assert!(!f[5].contains_text("Quit this game?"));
    assert!(!dir.join("alchemy.save").exists(), "Q quits without saving");
}

/// Death: the end screen shows the summary, the save is deleted, Enter goes back to the menu.
#[test]
fn death_screen_summarises_and_deletes_the_save() {
    let dir = temp_dir("death");
    let save_path = dir.join("alchemy.save");
    let rules = Rules::new().unwrap();
    let mut g = new_game(11, &rules).unwrap();
    let hero = hero_id(&g).unwrap();
    g.set_mut(hero, &HPS, 1).unwrap();
    add_effect(
        &mut g,
        &mut alembic::HookCtx::new(rules.hooks()),
        hero,
        "deadly poisoned",
    )
    .unwrap();
    save::save(&g, &save_path).unwrap();

    let mut a = app(Start::Load(save_path.clone()), &save_path);
    a.handle(Input::ch('.'));
    // First a --More-- over the map, with the fatal messages still in view; any key goes on.
    assert_eq!(a.names(), vec!["start", "play", "more"]);
    let f = render(&mut a, 100, 30);
    assert!(f.contains_text("--More--"), "{}", f.to_text());
    assert!(f.contains_text("You die..."));
    a.handle(Input::ch('x'));
    assert_eq!(a.names(), vec!["start", "play", "death"]);
    let f = render(&mut a, 100, 30);
    let text = f.to_text();
    assert!(text.contains("You died"), "{text}");
    assert!(text.contains("You were killed by being deadly poisoned on depth 1."));
    assert!(text.contains("Turns:    1"), "{text}");
    assert!(text.contains("Kills:    0"));
    assert!(text.contains("Your save file has been deleted"));
    assert!(!save_path.exists());
    a.handle(Input::key(Key::Enter));
    assert_eq!(a.names(), vec!["start"]);
    let menu = render(&mut a, 100, 30);
    assert!(menu.contains_text("Continue (no saved game)"));
    // Tiny frames on the end screen too.
    let _ = render(&mut a, 3, 2);
}

/// Closing the window saves; the start screen's seed prompt starts a reproducible game.
#[test]
fn window_close_saves_and_seed_prompt_is_reproducible() {
    let dir = temp_dir("close");
    let save_path = dir.join("sub").join("alchemy.save");
    let mut a = app(Start::Menu, &save_path);
    for i in keys("s12") {
        a.handle(i);
    }
    assert!(render(&mut a, 100, 30).contains_text("> 12_"));
    a.handle(Input::key(Key::Backspace));
    a.handle(Input::ch('3'));
    a.handle(Input::key(Key::Enter));
    assert_eq!(a.names(), vec!["start", "play"]);
    assert_eq!(a.ctx().seed(), 13);
    let direct = app(Start::New(13), &dir.join("other.save"));
    assert_eq!(hash(&a), hash(&direct));
    a.handle(Input::ch('l'));
    let h = hash(&a);
    assert_eq!(a.handle(Input::Quit), Control::Quit);
    let back = save::load(&save_path, &Rules::new().unwrap()).unwrap();
    assert_eq!(back.state_hash(), h);
}

/// A save that cannot be written is reported and the game goes on.
#[test]
fn failed_save_reports_and_does_not_quit() {
    const CHILD: &str = "ALEMBIC_UI_BADSAVE_CHILD";
    let dir = temp_dir("badsave");
    // The directory for the save is a file: not even its lock can be made, so the game is
    // refused with a sentence (it is never played unlocked). The launcher's save is in
    // `save_dir()`, which only the environment names: a child process says where.
    if std::env::var_os(CHILD).is_some() {
        let refused = launch(&LaunchOptions {
            game: "alchemy".into(),
            seed: Some(9),
            ..Default::default()
        })
        .err()
        .expect("refused")
        .to_string();
        assert!(refused.contains("cannot lock this save"), "{refused}");
        return;
    }
    let blocker = dir.join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "failed_save_reports_and_does_not_quit",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env("XDG_DATA_HOME", &blocker)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.contains("1 passed"), "{said}");
    // A save whose temporary file's name is too long for the file system (its lock's is
    // not): every save fails, and the game goes on.
    let save = dir.join(format!("{}.save", "a".repeat(235)));
    let mut a = app(Start::New(9), &save);
    assert_eq!(a.handle(Input::ch('S')), Control::Continue);
    let f = render(&mut a, 100, 30);
    assert!(f.contains_text("Cannot save: "), "{}", f.to_text());
    assert_eq!(a.names(), vec!["start", "play"]);
}

/// A sentence longer than the screen is wide (a failed save naming a long path) is shown
/// whole, its end included, as Alchemy's own screen wrapped it.
#[test]
fn a_long_sentence_is_shown_to_its_end() {
    let dir = temp_dir("longsentence");
    let save = dir.join(format!("{}.save", "a".repeat(235)));
    let mut a = app(Start::New(9), &save);
    assert_eq!(a.handle(Input::ch('S')), Control::Continue);
    let f = render(&mut a, 100, 30);
    assert!(f.contains_text("Cannot save: "), "{}", f.to_text());
    assert!(f.contains_text("was."), "{}", f.to_text());
}

/// Alchemy is the default game and is listed first.
#[test]
fn alchemy_is_the_default_game() {
    assert_eq!(alembic_games::default_game(), "alchemy");
    assert_eq!(alembic_games::games().first(), Some(&"alchemy"));
    let err = launch(&LaunchOptions {
        game: "alchemy".into(),
        seed: None,
        load: Some("/nonexistent/alchemy.save".into()),
        tiles: None,
        practice: false,
        replay: None,
        wizard: false,
        data: Default::default(),
    })
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.starts_with("cannot read save file /nonexistent/alchemy.save"),
        "{err}"
    );
    let dir = temp_dir("garbage");
    let bad = dir.join("bad.save");
    std::fs::write(&bad, "{not json").unwrap();
    let err = launch(&LaunchOptions {
        game: "alchemy".into(),
        seed: None,
        load: Some(bad),
        tiles: None,
        practice: false,
        replay: None,
        wizard: false,
        data: Default::default(),
    })
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("is not a valid alchemy save"), "{err}");
}

/// The keys that make the UI send `cmd`, as a player would type them; `None` for commands
/// the keys cannot express exactly (a throw's target cursor, "pick up the topmost" among
/// several items).
fn keys_for(app: &AlchemyUi, cmd: &alembic_games::alchemy::Command) -> Option<Vec<Input>> {
    use alembic::Dir;
    use alembic_games::alchemy::Command;
    use alembic_games::alchemy::rules::items_at;
    let game = app.ctx().game();
    // Every list letters an item by its own pack letter.
    let letter_of = |kinds: &[ItemKind], id| {
        inventory_entries(game)
            .unwrap()
            .iter()
            .filter(|e| kinds.is_empty() || kinds.contains(&e.kind))
            .find(|e| e.ids.first() == Some(&id))
            .and_then(|e| e.letter)
            .map(Input::ch)
    };
    let with =
        |key: char, kinds: &[ItemKind], id| letter_of(kinds, id).map(|l| vec![Input::ch(key), l]);
    let dir_key = |d: Dir| match d {
        Dir::West => Some('h'),
        Dir::South => Some('j'),
        Dir::North => Some('k'),
        Dir::East => Some('l'),
        Dir::NorthWest => Some('y'),
        Dir::NorthEast => Some('u'),
        Dir::SouthWest => Some('b'),
        Dir::SouthEast => Some('n'),
        _ => None,
    };
    let here = hero_id(game)
        .and_then(|h| game.things().location(h))
        .map(|at| items_at(game, at))
        .unwrap();
    match cmd {
        Command::Move(d) => dir_key(*d).map(|c| vec![Input::ch(c)]),
        Command::Wait => Some(vec![Input::ch('.')]),
        Command::Ascend => Some(vec![Input::ch('<')]),
        Command::Descend => Some(vec![Input::ch('>')]),
        Command::PickUp(None) if here.len() <= 1 => Some(vec![Input::ch('g')]),
        Command::PickUp(Some(id)) if here.len() <= 1 && here.contains(id) => {
            Some(vec![Input::ch('g')])
        }
        Command::PickUp(Some(id)) => here
            .iter()
            .position(|t| t == id)
            .map(|i| vec![Input::ch('g'), Input::ch(char::from(b'a' + i as u8))]),
        Command::Quaff(id) => with('q', &[ItemKind::Potion], *id),
        Command::Eat(id) => with('e', &[ItemKind::Food, ItemKind::Ingredient], *id),
        Command::Drop(id) => with('d', &[], *id),
        Command::Analyse(id) => {
            with('a', &[ItemKind::Potion, ItemKind::Ingredient], *id).map(|mut k| {
                k.push(Input::ch('y')); // yes, use it up
                k
            })
        }
        Command::Wield(id) | Command::Unwield(id) => {
            with('w', &[ItemKind::Weapon, ItemKind::Armour], *id)
        }
        Command::Open(d) | Command::Close(d) => {
            dir_key(*d).map(|c| vec![Input::ch('C'), Input::ch(c)])
        }
        _ => None,
    }
}

/// The explore bot plays through the keys: each command it picks, typed as keys, changes the
/// game exactly as the command applied directly would (or, refused, not at all); every frame
/// renders and nothing panics.
#[test]
fn bot_plays_through_the_keys() {
    use alembic_games::alchemy::apply;
    use alembic_games::alchemy::bot::Bot;
    let dir = temp_dir("bot");
    let mut deepest = 1;
    let mut typed = 0;
    let rules = Rules::new().unwrap();
    for seed in [1_u64, 2] {
        // A new game saves itself at once: each seed gets its own data directory, so the
        // second does not stop at "replace the saved game?".
        let mut a = app(
            Start::New(seed),
            &dir.join(format!("{seed}")).join("alchemy.save"),
        );
        let mut bot = Bot::new(seed);
        for step in 0..400 {
            if a.names() != vec!["start", "play"] {
                break; // the game ended
            }
            let before = a.ctx().game().clone();
            let cmd = bot.choose(&before);
            let expected = apply(&before, &rules, cmd.clone());
            match keys_for(&a, &cmd) {
                Some(keys) => {
                    typed += 1;
                    for k in keys {
                        a.handle(k);
                    }
                    let now = a.ctx().game();
                    let want = expected.as_ref().map_or(&before, |o| &o.game);
                    assert!(now == want, "seed {seed} step {step}: {cmd:?}");
                    if expected.is_err() {
                        bot.refused();
                    }
                }
                None => {
                    // The session plays only what keys say: a command the keys cannot
                    // express exactly is refused to the bot, which chooses again.
                    bot.refused();
                }
            }
            assert!(a.len() <= 2, "a list was left open: {:?}", a.names());
            let playing = a.names() == vec!["start", "play"];
            let (w, h) = if step % 2 == 0 { (100, 30) } else { (64, 20) };
            let f = render(&mut a, w, h);
            if playing {
                assert!(
                    f.contains_text("@"),
                    "seed {seed} step {step}\n{}",
                    f.to_text()
                );
            }
            deepest = deepest.max(status(a.ctx().game()).unwrap().depth);
        }
        println!("seed {seed}:\n{}", render(&mut a, 120, 40).to_text());
    }
    println!("deepest: {deepest}, commands typed: {typed}");
    assert!(typed > 400, "most commands went through the keys");
}

/// Victory: climbing out with the Stone shows the victory screen with the summary.
#[test]
fn victory_screen() {
    let dir = temp_dir("victory");
    let save_path = dir.join("alchemy.save");
    let rules = Rules::new().unwrap();
    let mut g = new_game(12, &rules).unwrap();
    let hero = hero_id(&g).unwrap();
    let stone = g.library().create("the Philosopher's Stone").unwrap();
    g.add_thing_mut(hero, stone).unwrap();
    save::save(&g, &save_path).unwrap();
    let mut a = app(Start::Load(save_path.clone()), &save_path);
    assert!(render(&mut a, 100, 30).contains_text("You carry the Stone!"));
    a.handle(Input::ch('<'));
    assert_eq!(a.names(), vec!["start", "play", "victory"]);
    let text = render(&mut a, 100, 30).to_text();
    assert!(
        text.contains("You won!") && text.contains("V I C T O R Y"),
        "{text}"
    );
    assert!(text.contains("You climbed out of the dungeon with the Philosopher's Stone!"));
    assert!(text.contains("Turns: ") && text.contains("Kills:    0"));
    assert!(!save_path.exists(), "a finished game leaves no save");
    assert_eq!(a.handle(Input::ch('q')), Control::Quit);
}

/// A new game over a saved one asks first; "n" keeps the menu, "y" starts it.
#[test]
fn new_game_over_a_save_asks_first() {
    let dir = temp_dir("overwrite");
    let save_path = dir.join("alchemy.save");
    let rules = Rules::new().unwrap();
    save::save(&new_game(1, &rules).unwrap(), &save_path).unwrap();
    let mut a = app(Start::Menu, &save_path);
    a.handle(Input::ch('n'));
    assert!(render(&mut a, 100, 30).contains_text("Start a new game?"));
    a.handle(Input::ch('n'));
    assert_eq!(a.names(), vec!["start"]);
    for i in keys("s77") {
        a.handle(i);
    }
    a.handle(Input::key(Key::Enter));
    assert_eq!(a.names(), vec!["start", "confirm"]);
    a.handle(Input::ch('y'));
    assert_eq!(a.names(), vec!["start", "play"]);
    assert_eq!(a.ctx().seed(), 77);
}
