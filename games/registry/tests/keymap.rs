//! The keymap and the help screen come from one table, for both games: every key the help
//! lists works, and every key that works is listed.

use alembic_games::alchemy::ui::keymap::{self, KEYMAP, action_of};
use alembic_games::alchemy::ui::{self as alchemy_ui, Start, UiOptions};
use alembic_games::alchemy::{self, Rules};
use alembic_games::{caves, play};
use alembic_ui::{Input, Key, TestFrontend, run};

/// The frames of a fresh Alchemy game (seed 5) after `key`.
fn alchemy_after(key: Key) -> TestFrontend {
    let g = alchemy::new_game(5, &Rules::new().expect("rules")).expect("game");
    let mut app = alchemy_ui::app_with_game(g, None).expect("app");
    let mut fe = TestFrontend::new(100, 30, vec![Input::key(key)]);
    let _ = run(&mut fe, &mut app);
    fe
}

fn shown(fe: &TestFrontend) -> String {
    fe.frames()
        .iter()
        .map(alembic_ui::Frame::to_text)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_alchemy_key_in_the_table_is_in_help_and_works() {
    let app = alchemy_ui::app(UiOptions {
        start: Start::Menu,
        save_path: None,
        tiles: None,
        practice: false,
        wizard: false,
    })
    .expect("app");
    let help = keymap::help_lines(app.ctx());
    for b in KEYMAP {
        assert!(
            help.contains(&keymap::help_line(b)),
            "{:?} is not in the help",
            b.action
        );
        for &key in b.keys {
            let fe = alchemy_after(key);
            let text = shown(&fe);
            assert!(
                !text.contains("Unknown key"),
                "{key:?} ({:?}) is listed but unknown:\n{text}",
                b.action
            );
            assert_eq!(
                action_of(&Input::key(key)).map(|(a, _)| a),
                Some(b.action),
                "{key:?} does something other than its help line says"
            );
        }
    }
}

#[test]
fn every_alchemy_key_that_works_is_in_the_table() {
    let listed = |k: Key| KEYMAP.iter().any(|b| b.keys.contains(&k));
    let mut unknown = 0;
    for c in (' '..='~').chain(['£', 'é']) {
        let key = Key::Char(c);
        if listed(key) {
            continue;
        }
        assert_eq!(
            action_of(&Input::key(key)),
            None,
            "{c:?} works but is not listed"
        );
        let text = shown(&alchemy_after(key));
        assert!(
            text.contains("Unknown key"),
            "{c:?} is not listed, yet the game does not call it unknown"
        );
        unknown += 1;
    }
    for key in [Key::Enter, Key::Backspace, Key::Delete, Key::F(5)] {
        assert!(!listed(key));
        assert!(
            shown(&alchemy_after(key)).contains("Unknown key"),
            "{key:?}"
        );
        unknown += 1;
    }
    assert!(unknown > 30, "most keys are free: {unknown}");
}

/// The frames of a fresh Caves game (seed 5) after `key`, past the title screen.
fn caves_after(key: Key) -> TestFrontend {
    let rules = std::sync::Arc::new(caves::Caves::new().expect("rules"));
    let mut app = play::app(play::Session::new(rules, 5));
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch(' '), Input::key(key)]);
    let _ = run(&mut fe, &mut app);
    fe
}

/// Every key the Caves' session lists (its keymap, its view toggle, the session's own keys,
/// the direction keys) is in the help and does something.
#[test]
fn every_caves_key_in_the_table_is_in_help_and_works() {
    use alembic_games::board::Board;
    let rules = caves::Caves::new().expect("rules");
    let help = play::help_lines(&rules);
    let lines = rules.keymap().iter().map(alembic_games::keymap::help_line);
    let toggle_lines = rules
        .view_toggles()
        .iter()
        .map(alembic_games::keymap::help_line);
    for line in lines.chain(toggle_lines) {
        assert!(help.contains(&line), "{line:?} is not in the help");
    }
    let keys = rules.keymap().iter().flat_map(|b| b.keys.iter());
    let toggles = rules.view_toggles().iter().flat_map(|b| b.keys.iter());
    for &key in keys.chain(toggles).chain(alembic_ui::DIRECTION_KEYS) {
        assert!(play::is_bound(&rules, key), "{key:?}");
        let text = shown(&caves_after(key));
        assert!(
            !text.contains("Unknown key"),
            "{key:?} is listed but unknown:\n{text}"
        );
    }
}

#[test]
fn every_caves_key_that_works_is_in_the_table() {
    let rules = caves::Caves::new().expect("rules");
    let mut unknown = 0;
    for c in ' '..='~' {
        let key = Key::Char(c);
        if play::is_bound(&rules, key) {
            continue;
        }
        let text = shown(&caves_after(key));
        assert!(text.contains("Unknown key"), "{c:?} is not called unknown");
        unknown += 1;
    }
    assert!(unknown > 30, "most keys are free: {unknown}");
}
