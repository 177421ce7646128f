//! Reliability: every finding of the save/load test campaign, as a test. Process-level cases
//! (two windows on one save, signals, `kill -9` during saves) are in
//! `scripts/reliability.sh`.
//!
//! The mutation suite's volume is set by `PROPTEST_CASES` (quick by default; the documented
//! long run is `PROPTEST_CASES=2000 cargo test --release -p alembic-rl-games --test reliability`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use alembic::{Dir, Game, Loc, Place, Prop, Thing};
use alembic_games::alchemy::save::{self, SaveError};
use alembic_games::alchemy::ui as alchemy_ui;
use alembic_games::alchemy::{
    Command, RuleError, Rules, apply, new_game,
    props::{HERO, HPS, HPS_MAX, MSG_COUNT, REGEN_ACC, TIME},
};
use alembic_games::storage::{self, StorageError};
use alembic_ui::TestFrontend;
use proptest::prelude::*;

fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-rel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A real game a few turns in.
fn real_game(seed: u64) -> (Game, Rules) {
    let rules = Rules::new().unwrap();
    let mut g = new_game(seed, &rules).unwrap();
    for d in [Dir::East, Dir::South, Dir::West, Dir::North, Dir::East] {
        if let Ok(o) = apply(&g, &rules, Command::Move(d)) {
            g = o.game;
        }
    }
    (g, rules)
}

/// Save text of `game` in the whole-game form (version 2, which this build still reads), so
/// that tests can edit any part of the state and re-seal it with `crafted`.
fn sealed(game: &Game) -> String {
    serde_json::to_string(&save::Envelope::of(game)).unwrap()
}

/// The save text with its JSON edited by `f` and its checksum recomputed (a crafted save,
/// not a corrupt one: it must be refused by validation, not by the checksum).
fn crafted(text: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    // As whole-value saves were sealed: the state hash as written, its log included.
    if let Ok(hash) = alembic::save::written_state_hash(&v["state"].to_string()) {
        v["checksum"] = serde_json::json!(hash);
    }
    serde_json::to_string(&v).unwrap()
}

/// Play `n` commands drawn from `seed`; every one must be accepted or refused by a rule,
/// never fail with an engine error.
fn plays(game: &Game, rules: &Rules, n: usize, seed: u64) -> Result<(), String> {
    let mut g = game.clone();
    let mut x = seed | 1;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cmd = match x % 12 {
            0..=7 => Command::Move(Dir::ALL[(x >> 8) as usize % Dir::ALL.len()]),
            8 => Command::Wait,
            9 => Command::PickUp(None),
            10 => Command::Descend,
            _ => Command::Ascend,
        };
        match apply(&g, rules, cmd.clone()) {
            Ok(o) => g = o.game,
            Err(RuleError::Engine(e)) => return Err(format!("command {i} ({cmd:?}): {e}")),
            Err(_) => {}
        }
    }
    Ok(())
}

// ----- 1. two games on one save -----------------------------------------------------------

#[test]
fn concurrent_savers_never_tear_the_save() {
    let dir = scratch("concurrent");
    let path = dir.join("alchemy.save");
    let (a, _) = real_game(1);
    let (b, rules) = real_game(2);
    save::save(&a, &path).unwrap();
    std::thread::scope(|s| {
        for g in [&a, &b] {
            let path = &path;
            s.spawn(move || {
                for _ in 0..15 {
                    save::save(g, path).unwrap();
                }
            });
        }
        // A reader meanwhile always finds a whole save.
        for _ in 0..30 {
            let got = save::load(&path, &rules).unwrap();
            assert!(got == a || got == b);
        }
    });
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        left,
        vec!["alchemy.save".to_string()],
        "no temp or .bak left"
    );
}

#[test]
fn a_second_session_on_one_save_is_refused() {
    let dir = scratch("lock");
    let path = dir.join("alchemy.save");
    let _first = storage::SessionLock::acquire(&path).unwrap();
    match storage::SessionLock::acquire(&path) {
        Err(e @ StorageError::Locked { .. }) => {
            assert!(
                e.to_string()
                    .starts_with("this game is already open in another window")
            );
        }
        other => panic!("{other:?}"),
    }
}

// ----- 2. loads that could hang ------------------------------------------------------------

#[test]
fn devices_and_fifos_are_refused_without_blocking() {
    let rules = Rules::new().unwrap();
    for dev in ["/dev/zero", "/dev/urandom"] {
        let r = save::load(Path::new(dev), &rules);
        assert!(
            matches!(r, Err(SaveError::Storage(StorageError::NotAFile { .. }))),
            "{r:?}"
        );
    }
    let dir = scratch("fifo");
    let fifo = dir.join("save.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let t = Instant::now();
        let r = save::load(&fifo, &rules);
        assert!(
            matches!(r, Err(SaveError::Storage(StorageError::NotAFile { .. }))),
            "{r:?}"
        );
        assert!(t.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn oversized_files_are_refused() {
    let dir = scratch("big");
    let p = dir.join("alchemy.save");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(save::MAX_SAVE_BYTES + 1).unwrap(); // sparse: costs no disk
    let rules = Rules::new().unwrap();
    let r = save::load(&p, &rules);
    assert!(
        matches!(r, Err(SaveError::Storage(StorageError::TooLarge { .. }))),
        "{r:?}"
    );
}

#[test]
fn an_all_zero_rng_is_refused() {
    let (g, rules) = real_game(3);
    let text = crafted(&sealed(&g), |v| {
        v["state"]["rng"] = serde_json::json!({"s": [0, 0, 0, 0]})
    });
    let r = save::from_text(&text, &rules);
    match r {
        Err(SaveError::Corrupt(m)) => assert!(m.contains("all zeros"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
#[allow(deprecated)] // the message log, deprecated: English is not state
fn a_huge_log_message_is_refused_quickly() {
    // Games keep no English since 0.3, but a save from before holds its message log.
    let (mut g, rules) = real_game(4);
    g.log_mut("You enter the dungeon.");
    let big = "x".repeat(20 * 1024 * 1024);
    let text = crafted(&sealed(&g), |v| {
        v["state"]["log"][0]["text"] = serde_json::json!(big);
    });
    let t = Instant::now();
    let r = save::from_text(&text, &rules);
    assert!(
        matches!(r, Err(SaveError::Invalid(ref m)) if m.contains("message")),
        "{r:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(30));
}

#[test]
fn long_unbroken_words_wrap_in_linear_time() {
    // The old wrap copied the rest of the word for every line: a 2 MB word took minutes.
    let word = "y".repeat(2_000_000);
    let lines = alembic_ui::wrap_text(&word, 60);
    assert_eq!(lines.len(), 2_000_000_usize.div_ceil(60));
    assert!(lines.iter().all(|l| l.chars().count() <= 60));
}

#[test]
fn a_hundred_thousand_things_in_one_cell_load_and_play() {
    let (mut g, rules) = real_game(5);
    let hero = g.var(&HERO).unwrap();
    let at = g.things().location(hero).unwrap();
    let pebble = Thing::new(alembic::Props::new());
    for _ in 0..100_000 {
        g.add_thing_mut(at, pebble.clone()).unwrap();
    }
    let text = sealed(&g);
    let back = save::from_text(&text, &rules).unwrap();
    assert!(back == g);
    plays(&back, &rules, 5, 9).unwrap();
    // And the play screen draws it.
    let mut app = alchemy_ui::session_with_game(back, None, false, false).unwrap();
    let mut fe = TestFrontend::new(
        100,
        30,
        [alembic_ui::Input::ch('.'), alembic_ui::Input::Quit],
    );
    alembic_ui::run(&mut fe, &mut app).unwrap();
}

// ----- 3. valid games that saved into unloadable files -----------------------------------

#[test]
fn non_finite_floats_and_big_cells_round_trip_exactly() {
    let (mut g, rules) = real_game(6);
    let hero = g.var(&HERO).unwrap();
    let odd: Prop<f64> = Prop::new("odd");
    g.set_mut(hero, &odd, f64::NAN).unwrap();
    g.set_var_mut(&Prop::<f64>::new("infinite"), f64::INFINITY);
    let at = g.things().location(hero).unwrap();
    for _ in 0..10_000 {
        g.add_thing_mut(at, Thing::new(alembic::Props::new()))
            .unwrap();
    }
    let back = save::from_text(&sealed(&g), &rules).unwrap();
    assert!(back == g, "load(save(g)) == g");
    assert!(back.query(hero, &odd).unwrap().is_nan());
}

// ----- 4. accepted but broken ----------------------------------------------------------------

#[test]
fn any_edit_of_the_state_is_caught_by_the_checksum() {
    let (g, rules) = real_game(7);
    let text = sealed(&g);
    let edited = text.replacen("\"turn\":", "\"turn\":1", 1);
    assert!(matches!(
        save::from_text(&edited, &rules),
        Err(SaveError::Checksum { .. } | SaveError::Corrupt(_))
    ));
}

#[test]
fn ids_near_the_top_are_refused_on_load() {
    let (g, rules) = real_game(8);
    let text = crafted(&sealed(&g), |v| {
        v["state"]["next_id"] = serde_json::json!(u64::MAX)
    });
    assert!(matches!(
        save::from_text(&text, &rules),
        Err(SaveError::Invalid(_))
    ));
}

// ----- 6. hostile numbers ----------------------------------------------------------------------

#[test]
fn out_of_range_numbers_are_refused_on_load() {
    let (g, rules) = real_game(9);
    let hero = g.var(&HERO).unwrap();
    let cases: Vec<Game> = vec![
        g.set(hero, &HPS, i32::MIN).unwrap(),
        g.set(hero, &HPS, i32::MAX).unwrap(),
        g.set(hero, &HPS_MAX, i32::MAX).unwrap(),
        {
            let mut x = g.clone();
            x.set_var_mut(&TIME, i64::MAX);
            x
        },
        {
            let mut x = g.clone();
            x.set_var_mut(&REGEN_ACC, i64::MAX);
            x
        },
        {
            let mut x = g.clone();
            x.set_var_mut(&MSG_COUNT, i64::MAX);
            x
        },
        {
            let mut x = g.clone();
            x.set_turn_mut(u64::MAX);
            x
        },
    ];
    for (i, bad) in cases.iter().enumerate() {
        let r = save::from_text(&sealed(bad), &rules);
        assert!(matches!(r, Err(SaveError::Invalid(_))), "case {i}: {r:?}");
    }
}

#[test]
fn extreme_numbers_in_memory_never_panic() {
    // Debug builds panic on overflow: these ran into it in rules/time.rs, world.rs and the UI.
    let (g, rules) = real_game(10);
    let hero = g.var(&HERO).unwrap();
    let mut games = vec![
        g.set(hero, &HPS, i32::MAX).unwrap(),
        g.set(hero, &HPS, i32::MIN + 1).unwrap(),
    ];
    for key in [&TIME, &REGEN_ACC, &MSG_COUNT] {
        let mut x = g.clone();
        x.set_var_mut(key, i64::MAX);
        games.push(x);
    }
    // (The turn at u64::MAX: its own test below.)
    for (i, game) in games.iter().enumerate() {
        for cmd in [Command::Wait, Command::Move(Dir::East), Command::Wait] {
            match apply(game, &rules, cmd) {
                Ok(_) | Err(RuleError::Refused(_) | RuleError::GameOver) => {}
                Err(e) => panic!("case {i}: {e}"),
            }
        }
        let mut app = alchemy_ui::session_with_game(game.clone(), None, false, false).unwrap();
        let mut fe = TestFrontend::new(100, 30, [alembic_ui::Input::Quit]);
        alembic_ui::run(&mut fe, &mut app).unwrap();
    }
    // The hero at the edge of the coordinate space: the map view must not overflow.
    let mut far = g.clone();
    far.move_thing_mut(hero, Place::Map(Loc::new(i32::MAX, i32::MIN, -1)))
        .unwrap();
    let mut app = alchemy_ui::session_with_game(far, None, false, false).unwrap();
    let mut fe = TestFrontend::new(100, 30, [alembic_ui::Input::Quit]);
    alembic_ui::run(&mut fe, &mut app).unwrap();
}

/// The turn counter at its top: the rules and the play screen never overflow on it.
#[test]
fn the_last_turn_never_panics() {
    let (g, rules) = real_game(10);
    let mut x = g.clone();
    x.set_turn_mut(u64::MAX);
    for cmd in [Command::Wait, Command::Move(Dir::East), Command::Wait] {
        match apply(&x, &rules, cmd) {
            Ok(_) | Err(RuleError::Refused(_) | RuleError::GameOver) => {}
            Err(e) => panic!("{e}"),
        }
    }
    let mut app = alchemy_ui::session_with_game(x, None, false, false).unwrap();
    let mut fe = TestFrontend::new(100, 30, [alembic_ui::Input::Quit]);
    alembic_ui::run(&mut fe, &mut app).unwrap();
}

// ----- 8. saves that load but cannot be played ----------------------------------------------

#[test]
fn unplayable_saves_are_refused() {
    let (g, rules) = real_game(11);
    let hero = g.var(&HERO).unwrap();
    let text = sealed(&g);
    let door = g
        .things()
        .iter()
        .filter_map(alembic::Thing::id)
        .find(|&id| id != hero)
        .unwrap();
    let edits: Vec<(&str, String)> = vec![
        (
            "dangling hero",
            crafted(&text, |v| {
                set_var(v, "hero", serde_json::json!({"Thing": 999_999}))
            }),
        ),
        ("missing hero", crafted(&text, |v| remove_var(v, "hero"))),
        (
            "hero is not a creature",
            crafted(&text, |v| {
                set_var(v, "hero", serde_json::json!({"Thing": door.0}))
            }),
        ),
        (
            "empty library",
            crafted(&text, |v| {
                v["state"]["library"]["protos"] = serde_json::json!([]);
            }),
        ),
    ];
    for (what, t) in edits {
        let r = save::from_text(&t, &rules);
        assert!(r.is_err(), "{what} was accepted");
    }
    // Hit points stored as text.
    let hps_text = g
        .set(
            hero,
            &Prop::<std::sync::Arc<str>>::new("hps"),
            "lots".into(),
        )
        .unwrap();
    assert!(matches!(
        save::from_text(&sealed(&hps_text), &rules),
        Err(SaveError::Invalid(_))
    ));
}

fn set_var(v: &mut serde_json::Value, name: &str, value: serde_json::Value) {
    let vars = &mut v["state"]["vars"];
    let s = serde_json::to_string(vars).unwrap();
    assert!(s.contains(name), "no var {name} in {s}");
    replace_entry(vars, name, Some(value));
}

fn remove_var(v: &mut serde_json::Value, name: &str) {
    replace_entry(&mut v["state"]["vars"], name, None);
}

/// Vars are a property map; its JSON is a list of `[key, value]` pairs or a map.
fn replace_entry(vars: &mut serde_json::Value, name: &str, value: Option<serde_json::Value>) {
    match vars {
        serde_json::Value::Object(m) => {
            for (_, inner) in m.iter_mut() {
                replace_entry(inner, name, value.clone());
            }
            if m.contains_key(name) {
                match value {
                    Some(v) => {
                        m.insert(name.to_string(), v);
                    }
                    None => {
                        m.remove(name);
                    }
                }
            }
        }
        serde_json::Value::Array(a) => {
            let is_entry =
                |e: &serde_json::Value| e.as_array().is_some_and(|p| p.len() == 2 && p[0] == name);
            if let Some(i) = a.iter().position(is_entry) {
                match value {
                    Some(v) => a[i][1] = v,
                    None => {
                        a.remove(i);
                    }
                }
            } else {
                for e in a.iter_mut() {
                    replace_entry(e, name, value.clone());
                }
            }
        }
        _ => {}
    }
}

/// Death is final (issue 57): a save of a game that is over, continued, is filed once and
/// removed, so it can never be continued again.
#[test]
fn loading_a_finished_game_files_it_and_removes_its_file() {
    let (mut g, rules) = real_game(12);
    let hero = g.var(&HERO).unwrap();
    g.set_mut(hero, &HPS, 1).unwrap();
    // Die: let every rule have its way until the game is over.
    let over = alembic_games::alchemy::rules::damage(
        &mut g,
        &mut alembic::HookCtx::new(rules.hooks()),
        hero,
        1000,
        alembic_games::alchemy::props::DamageType::Normal,
        alembic_games::alchemy::rules::Source::Cause(alembic_games::alchemy::events::Cause::Potion),
    );
    assert!(over.is_ok(), "{over:?}");
    assert!(g.var(&alembic_games::alchemy::props::GAME_OVER).unwrap());
    let dir = scratch("finished");
    let path = dir.join("backup.save");
    save::save(&g, &path).unwrap();
    // Continued as `--load` continues it.
    let mut app = alembic_games::launch(&alembic_games::LaunchOptions {
        game: "alchemy".into(),
        load: Some(path.clone()),
        ..Default::default()
    })
    .unwrap();
    let mut fe = TestFrontend::new(
        100,
        30,
        [alembic_ui::Input::ch('.'), alembic_ui::Input::Quit],
    );
    alembic_ui::run(&mut fe, &mut *app).unwrap();
    assert!(
        !path.is_file(),
        "the save of a finished game is removed once it is filed"
    );
    assert!(
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("morgue")),
        "and it was filed"
    );
}

// ----- the mutation suite: real saves, mutated ------------------------------------------------

/// How a save's bytes are mutated.
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    FlipBit(usize, u8),
    Digit(usize, u8),
    /// Change a number in the state and reseal the checksum (a structured edit).
    Number(usize, i64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<usize>(), 0u8..10).prop_map(|(i, d)| Mutation::Digit(i, d)),
        (
            any::<usize>(),
            prop_oneof![
                Just(0i64),
                Just(-1),
                Just(i64::MAX),
                Just(i64::MIN),
                -1000i64..1000
            ]
        )
            .prop_map(|(i, n)| Mutation::Number(i, n)),
    ]
}

fn mutate(text: &str, m: &Mutation) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    match *m {
        Mutation::Truncate(i) => b.truncate(i % (b.len() + 1)),
        Mutation::FlipBit(i, bit) => {
            let i = i % b.len();
            b[i] ^= 1 << bit;
        }
        Mutation::Digit(i, d) => {
            let digits: Vec<usize> = (0..b.len()).filter(|&k| b[k].is_ascii_digit()).collect();
            b[digits[i % digits.len()]] = b'0' + d;
        }
        Mutation::Number(i, n) => {
            let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
            let mut count = 0usize;
            edit_nth_number(&mut v["state"], i, n, &mut count);
            if let Ok(state) = serde_json::from_value::<Game>(v["state"].clone()) {
                v["checksum"] = serde_json::json!(state.state_hash());
            }
            b = serde_json::to_vec(&v).unwrap();
        }
    }
    b
}

/// Replace the (target mod total)-th number in the JSON tree.
fn edit_nth_number(v: &mut serde_json::Value, target: usize, n: i64, count: &mut usize) {
    fn total(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Number(_) => 1,
            serde_json::Value::Array(a) => a.iter().map(total).sum(),
            serde_json::Value::Object(m) => m.values().map(total).sum(),
            _ => 0,
        }
    }
    let all = total(v).max(1);
    let target = target % all;
    fn walk(v: &mut serde_json::Value, target: usize, n: i64, count: &mut usize) {
        match v {
            serde_json::Value::Number(_) => {
                if *count == target {
                    *v = serde_json::json!(n);
                }
                *count += 1;
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, target, n, count)),
            serde_json::Value::Object(m) => m.values_mut().for_each(|x| walk(x, target, n, count)),
            _ => {}
        }
    }
    walk(v, target, n, count);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    /// A mutated real save is refused with an error, or it is a game that passes every check
    /// and plays 100 commands without an engine error. Never a panic or a hang.
    #[test]
    fn mutated_saves_are_refused_or_playable(m in mutation(), seed in 0u64..3, play in any::<u64>()) {
        let (g, rules) = real_game(100 + seed);
        let text = sealed(&g);
        let bytes = mutate(&text, &m);
        let Ok(s) = String::from_utf8(bytes) else { return Ok(()) };
        if let Ok(loaded) = save::from_text(&s, &rules) {
            prop_assert!(loaded.check_invariants().is_ok());
            prop_assert_eq!(plays(&loaded, &rules, 100, play), Ok(()));
        }
    }
}

// ----- a new game never replaces a save without asking ---------------------------------------

/// Set in the child process [`a_seeded_start_over_a_save_asks_and_no_keeps_the_save`] runs
/// itself in, with `XDG_DATA_HOME` naming its scratch directory: the launcher saves in
/// `save_dir()`, which only the environment names.
const CHILD: &str = "ALEMBIC_RELIABILITY_SEEDED_CHILD";

#[test]
fn a_seeded_start_over_a_save_asks_and_no_keeps_the_save() {
    if std::env::var_os(CHILD).is_none() {
        let dir = scratch("replace");
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_seeded_start_over_a_save_asks_and_no_keeps_the_save",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .env("XDG_DATA_HOME", &dir)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{said}");
        assert!(said.contains("1 passed"), "the child ran the test: {said}");
        return;
    }
    use alembic_ui::App as _;
    let path = alembic_games::save_dir().unwrap().join("alchemy.save");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let (g, _) = real_game(13);
    save::save(&g, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    // A game in play shows its status panel; the question does not.
    let in_play = |app: &mut Box<dyn alembic_ui::App>| {
        let mut f = alembic_ui::Frame::new(100, 30);
        app.render(&mut f);
        f.contains_text("Depth 1/11")
    };
    for (answer, starts) in [('n', false), ('y', true)] {
        // `--seed 9`: a new game asked for by seed, over the waiting save.
        let mut app = alembic_games::launch(&alembic_games::LaunchOptions {
            game: "alchemy".into(),
            seed: Some(9),
            ..Default::default()
        })
        .unwrap();
        assert!(!in_play(&mut app), "no game before the answer");
        let _ = app.handle(alembic_ui::Input::ch(answer));
        assert_eq!(in_play(&mut app), starts, "answer {answer}");
        // The frontend then closes (Ctrl-C, window closed): with 'n' nothing is written.
        if !starts {
            let _ = app.handle(alembic_ui::Input::Quit);
            assert_eq!(
                std::fs::read(&path).unwrap(),
                before,
                "the save was replaced"
            );
        }
    }
}
