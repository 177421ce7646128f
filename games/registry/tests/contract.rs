//! Alchemy on the game contract: the generic runner, the session's save functions and its
//! replay viewer run Alchemy through `Ruleset` as they run the Caves and the rats.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;

use alembic_games::alchemy::ui::ruleset::AlchemyBoard;
use alembic_games::sim::{ALCHEMY_SIM, Alchemy, Policy, SimGame};
use alembic_session::play::{self, Step};
use alembic_session::{Board, Ruleset, Status};
use alembic_ui::{Frame, Input, Key, Rect, TestFrontend, run};

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-contract-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn alchemy_plays_saves_and_describes_through_the_contract() {
    let rules = Alchemy::new().unwrap();
    let g = rules.new_game(4).unwrap();
    assert_eq!(rules.status(&g), Status::Playing);
    // A refusal is the game's typed refusal, never an engine error.
    let up = rules.apply(&g, &alembic_games::alchemy::Command::Ascend);
    assert!(
        matches!(up, Err(alembic_session::Rejected::Refused(_))),
        "{up:?}"
    );
    // The game's bot plays a while: the English comes from the typed events.
    let mut g = g;
    let mut said = Vec::new();
    let mut bot = rules.bot(4, Policy::Explore).unwrap();
    while g.turn() < 300 {
        let c = bot.choose(&g).unwrap();
        match rules.apply(&g, &c) {
            Ok(o) => {
                said.extend(o.events.iter().filter_map(|e| rules.describe(&o.game, e)));
                g = o.game;
            }
            Err(_) => bot.refused(),
        }
    }
    assert!(g.turn() > 0 && !said.is_empty(), "{said:?}");
    // The save is Alchemy's own format, read back to the same world.
    let path = temp_dir("save").join("alchemy.save");
    let modes = alembic_session::Modes {
        practice: true,
        ..Default::default()
    };
    play::write_save(&rules, &g, 4, &modes, &path).unwrap();
    let back = play::read_save(&rules, &path).unwrap();
    assert_eq!(back.game.state_hash(), g.state_hash());
    assert_eq!(back.modes, modes);
    // The summary feeds the score table and the morgue.
    let s = rules.summary(&g);
    assert!(
        s.depth >= 1 && s.deepest >= s.depth && !s.lines.is_empty(),
        "{s:?}"
    );
    // And the contract's drawing shows the level and the status line.
    let mut frame = Frame::new(100, 30);
    AlchemyBoard.draw(
        &g,
        &mut frame,
        Rect::new(0, 0, 100, 30),
        &Default::default(),
    );
    assert!(frame.contains_text("Depth "), "{}", frame.to_text());
    assert!(frame.contains_text("@"), "{}", frame.to_text());
    // The play keys' hints at the foot of the panel in play; none in the replay viewer,
    // whose bar has its own.
    assert!(frame.contains_text("S save  Q quit"), "{}", frame.to_text());
    let mut watched = Frame::new(100, 30);
    let replaying = alembic_session::View {
        replaying: true,
        ..Default::default()
    };
    AlchemyBoard.draw(&g, &mut watched, Rect::new(0, 0, 100, 30), &replaying);
    assert!(watched.contains_text("Depth "), "{}", watched.to_text());
    assert!(
        !watched.contains_text("S save  Q quit"),
        "{}",
        watched.to_text()
    );
}

#[test]
fn an_alchemy_bot_run_records_and_verifies_through_the_generic_runner() {
    let (report, text) = ALCHEMY_SIM.record(3, 300, Policy::Explore).unwrap();
    assert_eq!(report.turns, 300, "{report:?}");
    let path = temp_dir("run").join("run.jsonl");
    std::fs::write(&path, &text).unwrap();
    let v = ALCHEMY_SIM.verify(&path).unwrap();
    // Not complete (the game goes on), but every checkpoint holds up to the last state.
    assert_eq!(
        (v.turns, v.final_hash.as_str()),
        (300, report.hash.as_str()),
        "{v:?}"
    );
    // The session's replay viewer reads the same recording: End shows the last state.
    let rules = Arc::new(Alchemy::new().unwrap());
    let board = AlchemyBoard::shared();
    let mut app = play::replay_app_with(rules, board, &path).unwrap();
    let keys = [Input::key(Key::End), Input::key(Key::Esc), Input::ch('q')];
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut app);
    let last = fe.frames().iter().rev().find(|f| f.contains_text("Depth "));
    assert!(
        last.is_some_and(|f| f.contains_text("Turn 300")),
        "no frame shows turn 300"
    );
    // A recording whose steps are wizard lines is read as such (the session's format).
    let step: Step<alembic_games::alchemy::Command> =
        serde_json::from_str(r#"{"wizard":"reveal"}"#).unwrap();
    assert!(matches!(step, Step::Wizard { .. }));
}

/// Issue 52: typed modes read and write the text every earlier version wrote. The fixtures
/// are a practice wizard game of the Caves and of the rats, saved by the code before
/// `Modes` (its `Vec<String>` modes): each loads with the same typed modes, and saved
/// again it is the same file, byte for byte, under the same checksum.
#[test]
fn saves_with_modes_from_before_typed_modes_load_and_save_the_same() {
    use alembic_games::caves::Caves;
    use alembic_games::rats::Rats;
    use alembic_session::Modes;

    fn same<R: Ruleset>(rules: &R, text: &str) {
        let saved = rules.load_text(text).unwrap();
        let wanted = Modes {
            practice: true,
            wizard: true,
            ..Modes::none()
        };
        assert_eq!(saved.modes, wanted, "{}", R::NAME);
        let again = rules
            .save_text(&saved.game, saved.seed.unwrap_or(52), &saved.modes)
            .unwrap();
        assert_eq!(again, text, "{}: saved again, the same file", R::NAME);
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let caves_text = std::fs::read_to_string(dir.join("caves-practice-wizard.save")).unwrap();
    let rats_text = std::fs::read_to_string(dir.join("rats-practice-wizard.save")).unwrap();
    let caves = Caves::new().unwrap();
    same(&caves, &caves_text);
    same(&Rats::new().unwrap(), &rats_text);

    // The Caves' checksum is the session's, over the modes' strings and the state's bytes.
    #[derive(serde::Deserialize)]
    struct Env<'a> {
        checksum: u64,
        #[serde(borrow)]
        state: &'a serde_json::value::RawValue,
    }
    let env: Env<'_> = serde_json::from_str(&caves_text).unwrap();
    let modes = caves.load_text(&caves_text).unwrap().modes;
    assert_eq!(
        alembic_session::storage::modes_checksum(
            modes.to_strings().iter().map(String::as_str),
            env.state.get()
        ),
        env.checksum
    );

    // A mode this version does not know, sealed under a right checksum, is refused with
    // a sentence that names it: never dropped in silence.
    let odd = alembic_session::storage::modes_checksum(["practice", "godmode"], env.state.get());
    let edited = caves_text
        .replacen(
            "\"modes\":[\"practice\",\"wizard\"]",
            "\"modes\":[\"practice\",\"godmode\"]",
            1,
        )
        .replacen(&env.checksum.to_string(), &odd.to_string(), 1);
    let err = caves.load_text(&edited).unwrap_err().to_string();
    assert!(err.contains("unknown mode \"godmode\""), "{err}");
}
