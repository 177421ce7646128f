//! The keymap and the help screen come from one table, for both games: every key the help
//! lists works, and every key that works is listed.

use alembic_games::alchemy::ui::ruleset::AlchemyBoard;
use alembic_games::alchemy::ui::{self as alchemy_ui};
use alembic_games::alchemy::{self, Rules};
use alembic_games::board::Board as _;
use alembic_games::keymap::help_line;
use alembic_games::{caves, play};
use alembic_session::start::StartHost as _;
use alembic_ui::{Input, Key, TestFrontend, run};

/// The frames of a fresh Alchemy game (seed 5) on the shared session after `key`.
fn alchemy_after(key: Key) -> TestFrontend {
    let g = alchemy::new_game(5, &Rules::new().expect("rules")).expect("game");
    let mut app = alchemy_ui::session_with_game(g, None, false, false).expect("app");
    let mut fe = TestFrontend::new(100, 30, vec![Input::key(key)]);
    let _ = run(&mut fe, &mut app);
    fe
}

/// The lines of Alchemy's help screen (`?`) on the shared session.
fn alchemy_help() -> Vec<String> {
    let g = alchemy::new_game(5, &Rules::new().expect("rules")).expect("game");
    let app = alchemy_ui::session_with_game(g, None, false, false).expect("app");
    app.ctx().help().1
}

/// The keys the session offers Alchemy beside its board's (each checked against the help).
const SESSION_KEYS: &[(&str, &[Key])] = &[
    ("Z", &[Key::Char('Z')]),
    ("s", &[Key::Char('s')]),
    ("o", &[Key::Char('o')]),
    ("Tab", &[Key::Tab]),
    ("S", &[Key::Char('S')]),
    ("Q", &[Key::Char('Q')]),
    ("U", &[Key::Char('U')]),
    ("~ &", &[Key::Char('~'), Key::Char('&')]),
    ("?", &[Key::Char('?')]),
    ("P m", &[Key::Char('P'), Key::Char('m')]),
    ("F2", &[Key::F(2)]),
    (
        "Shift+dir",
        &[
            Key::Char('H'),
            Key::Char('J'),
            Key::Char('K'),
            Key::Char('L'),
            Key::Char('Y'),
            Key::Char('U'),
            Key::Char('B'),
            Key::Char('N'),
        ],
    ),
];

/// Whether the help lists `key`: a key of Alchemy's board (its keymap, its questions, its
/// view switches), a direction key, or one of the session's own keys.
fn alchemy_lists(key: Key) -> bool {
    let b = AlchemyBoard;
    b.keymap().iter().any(|b| b.keys.contains(&key))
        || b.asks().iter().any(|b| b.keys.contains(&key))
        || b.view_toggles().iter().any(|b| b.keys.contains(&key))
        || alembic_ui::DIRECTION_KEYS.contains(&key)
        || SESSION_KEYS.iter().any(|(_, keys)| keys.contains(&key))
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
    let help = alchemy_help();
    let b = AlchemyBoard;
    let lines = b
        .keymap()
        .iter()
        .map(help_line)
        .chain(b.asks().iter().map(help_line))
        .chain(b.view_toggles().iter().map(help_line));
    for line in lines {
        assert!(help.contains(&line), "{line:?} is not in the help");
    }
    for (shown_as, _) in SESSION_KEYS {
        assert!(
            help.iter()
                .any(|l| l.trim_start().starts_with(&format!("{shown_as} "))),
            "the session's {shown_as:?} is not in the help:\n{}",
            help.join("\n")
        );
    }
    let keys = b.keymap().iter().flat_map(|b| b.keys.iter());
    let asks = b.asks().iter().flat_map(|b| b.keys.iter());
    let toggles = b.view_toggles().iter().flat_map(|b| b.keys.iter());
    let own = SESSION_KEYS.iter().flat_map(|(_, k)| k.iter());
    for &key in keys
        .chain(asks)
        .chain(toggles)
        .chain(own)
        .chain(alembic_ui::DIRECTION_KEYS)
    {
        let text = shown(&alchemy_after(key));
        assert!(
            !text.contains("Unknown key"),
            "{key:?} is listed but unknown:\n{text}"
        );
    }
}

#[test]
fn every_alchemy_key_that_works_is_in_the_table() {
    let mut unknown = 0;
    for c in (' '..='~').chain(['£', 'é']) {
        let key = Key::Char(c);
        if alchemy_lists(key) {
            continue;
        }
        let text = shown(&alchemy_after(key));
        assert!(
            text.contains("Unknown key"),
            "{c:?} is not listed, yet the game does not call it unknown"
        );
        unknown += 1;
    }
    // Keys that are not characters are not listed, and do nothing (the session says
    // nothing of them): the game is where it was, on the same screen.
    for key in [Key::Enter, Key::Backspace, Key::Delete, Key::F(5)] {
        assert!(!alchemy_lists(key));
        let fe = alchemy_after(key);
        let (first, last) = (fe.frames().first().unwrap(), fe.last_frame().unwrap());
        assert!(fe.frames().len() > 1, "{key:?} was not pressed");
        assert_eq!(first.to_text(), last.to_text(), "{key:?} did something");
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
