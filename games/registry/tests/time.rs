//! Time as a value in Alchemy on the shared session: every game is recorded as it is played
//! (through the keys), the recording replays to the same game, a tampered one reports where
//! it diverges, and practice games take moves back exactly.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::Game;
use alembic::replay::Recording;
use alembic::rng::GameRng;
use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
use alembic_games::alchemy::{self, Command, Rules};
use alembic_games::play::{self, Session, Step};
use alembic_games::playback::ReplayOpenError;
use alembic_games::record;
use alembic_session::Ruleset as _;
use alembic_session::console::ConsoleHost as _;
use alembic_ui::{Input, Key, ScreenStack, TestFrontend, run};

type AlchemyUi = ScreenStack<Session<Alchemy>>;

/// How the app starts.
enum Start {
    /// The start screen.
    Menu,
    /// Straight into a new game from this seed.
    New(u64),
    /// Straight into the game saved in this file.
    Load(PathBuf),
}

fn rules() -> Arc<Alchemy> {
    Arc::new(Alchemy::new().expect("rules"))
}

/// Alchemy on the shared session, saving to `save`.
fn app(start: Start, save: &Path, practice: bool) -> AlchemyUi {
    app_in(start, save, practice, false)
}

fn app_in(start: Start, save: &Path, practice: bool, wizard: bool) -> AlchemyUi {
    let fresh = |seed| {
        Session::with_board(rules(), AlchemyBoard::shared(), seed)
            .with_modes(practice, wizard)
            .with_save(save.to_path_buf())
    };
    match start {
        Start::Menu => play::app(fresh(0)),
        Start::New(seed) => play::app_playing(fresh(seed)),
        Start::Load(path) => play::app_playing(
            Session::load_reporting(rules(), AlchemyBoard::shared(), &path, &mut |_, _| {})
                .expect("the save loads"),
        ),
    }
}

/// Every state of the recorded Alchemy game at `path`, checked at every checkpoint (as the
/// session's replay viewer and `alembic-sim --verify` replay it).
fn rebuild(path: &Path) -> Result<Vec<Game>, ReplayOpenError> {
    let rules = rules();
    alembic_games::playback::rebuild(
        path,
        Alchemy::NAME,
        &rules.data(),
        |h| rules.new_game_in_modes(h.seed, &alembic_session::Modes::parse(&h.modes)?),
        |g, c| alembic_session::run::apply_step(&*rules, g, c).map(|(g, _)| g),
    )
}

/// Read an Alchemy recording.
fn read(path: &Path) -> Result<Recording<Step<Command>>, alembic_games::record::RecordError> {
    record::read(path, Alchemy::NAME)
}

/// Keys a player might press: moves in eight directions, waits, stairs, pick up.
fn random_keys(seed: u64, n: usize) -> Vec<Input> {
    let mut rng = GameRng::seed_from(seed);
    let keys = [
        'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', '.', '>', ',', 'l', 'j',
    ];
    (0..n)
        .map(|_| Input::ch(keys[rng.index(keys.len()).unwrap_or(0)]))
        .collect()
}

#[test]
fn a_game_played_through_the_keys_is_recorded_and_replays_to_the_same_state() {
    let dir = tempfile_dir();
    let save = dir.join("alchemy.save");
    let mut a = app(Start::New(22), &save, false);
    let mut keys = random_keys(5, 1500);
    keys.push(Input::key(Key::Char('S')));
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    let played = a.ctx().game().clone();
    let rec_path = record::beside(&save);
    let rec = read(&rec_path).expect("the recording reads back");
    assert_eq!(rec.header.seed, 22);
    assert!(rec.commands().count() > 300, "most keys were commands");
    let states = rebuild(&rec_path).expect("it replays");
    let last = states.last().expect("states");
    assert_eq!(last.state_hash(), played.state_hash());
    assert_eq!(states.len(), rec.commands().count() + 1);

    // Tamper with one command in the middle: the next checkpoint reports the divergence.
    let text = std::fs::read_to_string(&rec_path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let (i, target) = lines
        .iter()
        .enumerate()
        .skip(lines.len() / 2)
        .find(|(_, l)| l.contains("\"Move\":\"East\""))
        .expect("an east move in the second half");
    let tampered_turn: u64 =
        serde_json::from_str::<serde_json::Value>(target).expect("json")["turn"]
            .as_u64()
            .expect("turn");
    let mut changed: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    changed[i] = target.replace("\"East\"", "\"West\"");
    let bad = dir.join("tampered.replay");
    std::fs::write(&bad, changed.join("\n") + "\n").expect("write");
    match rebuild(&bad) {
        Err(ReplayOpenError::Diverged { turn, .. }) => {
            assert!(turn > tampered_turn, "diverges after the tampered command");
            assert!(
                turn <= tampered_turn + record::CHECKPOINT_EVERY as u64 + 1,
                "found at the next checkpoint, not later"
            );
        }
        Err(ReplayOpenError::Refused { turn, .. }) => assert!(turn >= tampered_turn),
        other => panic!("tampering went unnoticed: {other:?}"),
    }
}

#[test]
fn a_continued_game_keeps_recording_and_a_finished_one_keeps_its_record() {
    let dir = tempfile_dir();
    let save = dir.join("alchemy.save");
    let mut a = app(Start::New(4), &save, false);
    let mut keys = random_keys(9, 200);
    keys.push(Input::key(Key::Char('S')));
    let _ = run(&mut TestFrontend::new(100, 30, keys), &mut a);
    // One window per save: the first session ends before the save is continued.
    drop(a);
    // Continue: the recording is this game's, so it goes on.
    let mut b = app(Start::Load(save.clone()), &save, false);
    assert!(b.ctx().recording().is_some(), "the recording resumes");
    let mut keys = random_keys(10, 200);
    keys.push(Input::key(Key::Char('S')));
    let _ = run(&mut TestFrontend::new(100, 30, keys), &mut b);
    let states = rebuild(&record::beside(&save)).expect("replays across the load");
    let last = b.ctx().game().state_hash();
    assert_eq!(states.last().map(Game::state_hash), Some(last));
    drop(b);
    // The game ends (continued once more, then quit: `Q` `y`): its recording is kept in
    // records/, named by seed, and still replays to the same game.
    let mut c = app(Start::Load(save.clone()), &save, false);
    let keys = vec![Input::ch('Q'), Input::ch('y')];
    let _ = run(&mut TestFrontend::new(100, 30, keys), &mut c);
    assert_eq!(c.ctx().game().state_hash(), last, "quitting played nothing");
    let kept: Vec<PathBuf> = std::fs::read_dir(dir.join("records"))
        .expect("records/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "replay"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let kept = kept[0].clone();
    assert!(
        kept.to_string_lossy().contains("seed4"),
        "{}",
        kept.display()
    );
    assert!(!record::beside(&save).exists());
    assert_eq!(
        rebuild(&kept)
            .expect("replays")
            .last()
            .map(Game::state_hash),
        Some(last)
    );
    drop(c);
    std::fs::copy(&kept, record::beside(&save)).expect("copy back");
    // A recording that is not the save's (another game's) is not continued.
    let rules = Rules::new().expect("rules");
    let other = alchemy::new_game(99, &rules).expect("game");
    alchemy::save::save(&other, &save).expect("save");
    let c = app(Start::Load(save.clone()), &save, false);
    assert!(c.ctx().recording().is_none());
}

/// Keys that only step and wait.
fn walk_keys(rng: &mut GameRng) -> Input {
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', '.'];
    Input::ch(keys[rng.index(keys.len()).unwrap_or(0)])
}

/// Walk at random until `n` moves were played; the state after each, the first the state
/// before them.
fn walk(a: &mut AlchemyUi, rng: &mut GameRng, n: usize) -> Vec<u64> {
    let mut hashes = vec![a.ctx().game().state_hash()];
    let mut presses = 0;
    while hashes.len() <= n {
        let _ = a.handle_input(walk_keys(rng));
        presses += 1;
        assert!(presses < 20 * n, "the walk is stuck");
        let g = a.ctx().game();
        assert_eq!(
            a.ctx().rules().status(g),
            alembic_session::Status::Playing,
            "the hero died during the test walk (the seed is chosen so it does not)"
        );
        if g.state_hash() != *hashes.last().expect("a state") {
            hashes.push(g.state_hash());
        }
    }
    hashes
}

#[test]
fn practice_undo_of_500_turns_equals_the_shorter_game() {
    let dir = tempfile_dir();
    let save = dir.join("alchemy.save");
    let mut a = app(Start::New(8), &save, true);
    assert!(a.ctx().modes().practice);
    let mut rng = GameRng::seed_from(77);
    let given = walk(&mut a, &mut rng, 800);
    for _ in 0..500 {
        assert_eq!(a.ctx_mut().undo(1), 1);
    }
    assert_eq!(
        a.ctx().game().state_hash(),
        given[300],
        "undo comes back to the game as it was 300 moves in"
    );
    let more = walk(&mut a, &mut rng, 100);
    let now = a.ctx().game().state_hash();
    assert_eq!(now, more[100]);
    // The recording was rewritten to the shorter game and replays to the same state: the
    // 300 moves kept, then the 100 played after the undo.
    let states = rebuild(&record::beside(&save)).expect("replays");
    assert_eq!(states.len(), 300 + 100 + 1);
    assert_eq!(states[300].state_hash(), given[300]);
    assert_eq!(states.last().map(Game::state_hash), Some(now));
    let rec = read(&record::beside(&save)).expect("read");
    assert!(rec.header.has_mode("practice"));
    // A normal game has no undo.
    let mut b = app(Start::New(8), &dir.join("other.save"), false);
    let before = b.ctx().game().state_hash();
    let _ = run(
        &mut TestFrontend::new(100, 30, vec![Input::ch('.'), Input::ch('U')]),
        &mut b,
    );
    assert_ne!(b.ctx().game().state_hash(), before, "the wait was played");
    let waited = b.ctx().game().state_hash();
    assert_eq!(b.ctx_mut().undo(1), 0);
    assert_eq!(b.ctx().game().state_hash(), waited);
}

#[test]
fn bad_recordings_are_clear_errors() {
    let dir = tempfile_dir();
    let cases: [(&str, &[u8]); 5] = [
        ("empty", b""),
        ("foreign", b"hello world\n"),
        (
            "newer",
            b"{\"format\":\"alembic-replay\",\"version\":99,\"game\":\"alchemy\",\"game_version\":\"9\",\"seed\":1,\"modes\":[]}\n",
        ),
        (
            "corrupt",
            b"{\"format\":\"alembic-replay\",\"version\":1,\"game\":\"alchemy\",\"game_version\":\"0\",\"seed\":1,\"modes\":[]}\n{{{{\n{\"turn\":0,\"hash\":\"00\"}\n",
        ),
        (
            "other game",
            b"{\"format\":\"alembic-replay\",\"version\":1,\"game\":\"caves\",\"game_version\":\"0\",\"seed\":1,\"modes\":[]}\n",
        ),
    ];
    for (name, bytes) in cases {
        let p = dir.join(format!("{}.replay", name.replace(' ', "-")));
        std::fs::write(&p, bytes).expect("write");
        let err = rebuild(&p).expect_err(name);
        let text = err.to_string();
        assert!(!text.is_empty() && !text.contains('\n'), "{name}: {text}");
    }
    assert!(rebuild(&dir.join("missing.replay")).is_err());
    // Through the launcher: a clear error, no window needed.
    let err = alembic_games::launch(&alembic_games::LaunchOptions {
        game: "alchemy".into(),
        replay: Some(dir.join("empty.replay")),
        ..Default::default()
    })
    .err()
    .expect("refused");
    assert!(err.to_string().contains("cannot replay"), "{err}");
}

/// A fresh directory under the system temp dir, unique per test and process.
fn tempfile_dir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "alembic-time-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn morgues_and_the_score_table() {
    use alembic_games::alchemy::morgue;
    use alembic_games::alchemy::ui::ruleset::Alchemy;
    use alembic_session::ruleset::{Ending, GameEnd, Ruleset};
    use alembic_session::scores;
    let dir = tempfile_dir();
    let rules = Rules::new().expect("rules");
    // Forty games that went differently (0, 1, 2… waits): each is its own row.
    let mut games = vec![alchemy::new_game(12, &rules).expect("game")];
    for _ in 0..40 {
        let next = alchemy::apply(
            games.last().expect("a game"),
            &rules,
            alchemy::Command::Wait,
        )
        .expect("wait")
        .game;
        games.push(next);
    }
    let messages: Vec<(u64, String)> = (0..40).map(|i| (i, format!("message {i}"))).collect();
    let rec = dir.join("records").join("x.replay");
    // The morgue is the contract's (`Ruleset::morgue`), written by the session's filing.
    let contract = Alchemy::on(rules.clone()).expect("the contract");
    let quit = Ending::new(false, "quit");
    let end = GameEnd {
        game: &games[0],
        seed: Some(12),
        modes: &alembic_session::Modes::none(),
        quit: true,
        ending: &quit,
        recording: Some(&rec),
        messages: &messages,
        unix_secs: 1_795_392_000,
    };
    let text = contract
        .morgue(&end)
        .expect("Alchemy writes its own morgue");
    let path =
        scores::write_morgue(&dir, "alchemy", Some(12), end.unix_secs, &text).expect("written");
    let text = std::fs::read_to_string(&path).expect("read");
    for needle in [
        "Seed:     12",
        "Mode:     normal",
        "Date:     2026-11-23",
        "Cause:    quit",
        "Turns:    0",
        "message 39",
        "x.replay",
        "Inventory:",
        "Identified potions (0): none",
        "Known recipes (0):",
        "Timeline:",
        "The map of depth 1 as you knew it:",
        "Light:    you were standing in",
    ] {
        assert!(text.contains(needle), "morgue lacks {needle:?}:\n{text}");
    }
    // The hero is on the map (wherever the level put them).
    let map = text
        .split("The map of depth 1 as you knew it:")
        .nth(1)
        .and_then(|rest| rest.split("The last").next())
        .expect("a map");
    assert!(map.contains('@'), "the hero is not on the map:\n{map}");
    assert!(!text.contains("message 9\n"), "only the last 30 messages");
    // The score table Alchemy's games go to (the session's table, in Alchemy's file).
    let file = contract.scores_file();
    assert_eq!(file, morgue::SCORES_FILE);
    let score = |secs: u64| {
        let g = &games[usize::try_from(secs % 40).expect("small")];
        let entry = scores::Score {
            score: contract.summary(g).score,
            seed: Some(12),
            cause: "quit".into(),
            depth: 1,
            turns: g.turn(),
            date: scores::date_of(secs),
            game: Some(scores::game_id("alchemy", Some(12), g)),
        };
        scores::enter(&dir, &file, entry, secs).expect("scored")
    };
    assert_eq!(score(1).rank, Some(1));
    // The same game ending again (a quit game continued and quit again) keeps its one row.
    assert_eq!(score(41).rank, Some(1));
    assert_eq!(morgue::read_scores(&dir).expect("table").len(), 1);
    // Games ending at once (threads of one web server, or several processes) each get
    // their row: the table is read, changed and written under one lock.
    std::thread::scope(|s| {
        for i in 0..12 {
            let score = &score;
            s.spawn(move || score(10 + i));
        }
    });
    let scores_now = morgue::read_scores(&dir).expect("table");
    assert_eq!(scores_now.len(), 13, "one row per game, none overwritten");
    for i in 0..25 {
        score(100 + i);
    }
    let scores_now = morgue::read_scores(&dir).expect("table");
    assert_eq!(scores_now.len(), morgue::TOP);
    assert!(scores_now.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(morgue::score_lines(&scores_now)[0].contains("score"));
    // The start screen shows the table: all of it when the window is tall, the best games
    // and a pointer to `h` at 80x24.
    for (h, all) in [(50, true), (24, false)] {
        let mut menu = app(Start::Menu, &dir.join("alchemy.save"), false);
        let mut fe = TestFrontend::new(80, h, vec![Input::ch('q')]);
        let _ = run(&mut fe, &mut menu);
        let first = &fe.frames()[0];
        assert!(first.contains_text("High scores"), "{}", first.to_text());
        assert!(first.contains_text("how it ended"));
        assert!(first.contains_text("1970-01-01"));
        assert_eq!(first.contains_text(" 20 "), all, "{}", first.to_text());
        assert_eq!(first.contains_text("h shows all"), !all);
    }
    // A damaged table is never overwritten and never stops scoring: it is moved aside,
    // and a new table holds the next game.
    std::fs::write(dir.join(morgue::SCORES_FILE), b"not json").expect("write");
    let scored = score(3);
    assert_eq!(scored.rank, Some(1));
    let aside = scored.set_aside.expect("moved aside");
    assert!(
        aside.ends_with(format!("{}.corrupt-3", morgue::SCORES_FILE)),
        "{}",
        aside.display()
    );
    assert_eq!(std::fs::read(&aside).expect("read"), b"not json");
    assert_eq!(morgue::read_scores(&dir).expect("new table").len(), 1);
}

#[test]
fn the_wizard_console_runs_recorded_commands_in_wizard_games_only() {
    let dir = tempfile_dir();
    let save = dir.join("alchemy.save");
    let mut a = app_in(Start::New(3), &save, false, true);
    assert!(a.ctx().modes().wizard);
    let mut keys = vec![Input::ch('~')];
    keys.extend("depth 3".chars().map(Input::ch));
    keys.push(Input::key(Key::Enter));
    keys.extend("summon gob".chars().map(Input::ch));
    keys.push(Input::key(Key::Tab));
    keys.push(Input::key(Key::Enter));
    keys.extend("frobnicate".chars().map(Input::ch));
    keys.push(Input::key(Key::Enter));
    keys.push(Input::key(Key::Esc));
    keys.push(Input::key(Key::Char('S')));
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    let game = a.ctx().game().clone();
    assert_eq!(alchemy::view::status(&game).expect("status").depth, 3);
    let shown = fe
        .frames()
        .iter()
        .map(alembic_ui::Frame::to_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(shown.contains("frobnicate"), "the unknown command is named");
    // The wizard lines are recorded: the recording replays to the same game.
    let rec = read(&record::beside(&save)).expect("read");
    assert!(rec.header.has_mode("wizard"));
    let lines: Vec<String> = rec
        .commands()
        .filter_map(|(_, c)| match c {
            Step::Wizard { wizard } => Some(wizard.clone()),
            Step::Play(_) => None,
        })
        .collect();
    assert_eq!(lines.len(), 2, "depth 3 and the summon: {lines:?}");
    let states = rebuild(&record::beside(&save)).expect("replays");
    assert_eq!(states.last().map(Game::state_hash), Some(game.state_hash()));
    // A normal game refuses wizard lines, from the console key and from the rules' funnel.
    let mut b = app(Start::New(3), &dir.join("normal.save"), false);
    assert!(!b.ctx().modes().wizard);
    let before = b.ctx().game().state_hash();
    let mut keys = vec![Input::ch('~')];
    keys.extend("depth 3".chars().map(Input::ch));
    keys.push(Input::key(Key::Enter));
    keys.push(Input::key(Key::Esc));
    let _ = run(&mut TestFrontend::new(100, 30, keys), &mut b);
    assert_eq!(
        b.ctx().game().state_hash(),
        before,
        "no wizard line was played"
    );
}

/// A wizard line reaching a normal game another way than the console key (the session's
/// console host, a recording's `{"wizard": …}` line) is refused: a scored game's recording
/// with wizard lines in it must not replay.
#[test]
fn a_normal_game_refuses_wizard_lines_however_they_come() {
    let dir = tempfile_dir();
    let mut b = app(Start::New(3), &dir.join("normal.save"), false);
    let before = b.ctx().game().state_hash();
    assert!(b.ctx_mut().run_line("depth 3").is_err());
    assert_eq!(b.ctx().game().state_hash(), before);
    let rules = rules();
    let g = rules.new_game(3).expect("game");
    let line = Step::Wizard {
        wizard: "heal".into(),
    };
    assert!(alembic_session::run::apply_step(&*rules, &g, &line).is_err());
}

/// Keys that type `line` into the wizard console and run it.
fn wizard_line(line: &str) -> Vec<Input> {
    let mut keys = vec![Input::ch('~')];
    keys.extend(line.chars().map(Input::ch));
    keys.push(Input::key(Key::Enter));
    keys.push(Input::key(Key::Esc));
    keys
}

/// A practice game that a summoned dragon kills: the death asks to rewind, `y` takes the
/// moves back and play goes on; `n` ends the game.
fn practice_death(answer: char) -> (AlchemyUi, TestFrontend) {
    let dir = tempfile_dir();
    let save = dir.join("alchemy.save");
    let mut a = app_in(Start::New(3), &save, true, true);
    let mut keys: Vec<Input> = (0..20).map(|_| Input::ch('.')).collect();
    keys.extend(wizard_line("summon dragon"));
    keys.extend((0..300).map(|_| Input::ch('.')));
    keys.push(Input::ch(answer));
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    (a, fe)
}

#[test]
fn a_practice_death_offers_to_rewind_and_rewinding_plays_on() {
    let (a, fe) = practice_death('y');
    let asked = fe
        .frames()
        .iter()
        .position(|f| f.contains_text("rewind"))
        .expect("the death asked to rewind");
    assert!(fe.frames()[asked].contains_text("practice game"));
    let game = a.ctx().game();
    let status = alchemy::view::status(game).expect("status");
    let summary = alchemy::view::summary(game).expect("summary");
    assert_eq!(
        summary.outcome,
        alchemy::props::Fate::Playing,
        "the rewound hero is alive"
    );
    // The status line's turn when death asked ("Turn 26"), against the turn now.
    let died_at: u64 = fe.frames()[asked]
        .to_text()
        .split(" Turn ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no turn in:\n{}", fe.frames()[asked].to_text()));
    assert!(
        status.turn < died_at && status.turn + play::REWIND as u64 >= died_at,
        "rewound from turn {died_at} to {}",
        status.turn
    );

    let (b, fe) = practice_death('n');
    assert!(fe.frames().iter().any(|f| f.contains_text("rewind")));
    assert!(
        alchemy::view::summary(b.ctx().game())
            .map(|s| s.outcome.is_over())
            .unwrap_or(true),
        "declining ends the game"
    );
}
