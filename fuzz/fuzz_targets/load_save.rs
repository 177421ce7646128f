//! Any bytes given to the Alchemy loader: it must return an error or a game that passes the
//! engine's invariants and plays commands without an engine error; never panic, hang or
//! allocate without bound.
#![no_main]

use std::sync::OnceLock;

use alembic::Dir;
use alembic_games::alchemy::{Command, RuleError, Rules, apply, save};
use libfuzzer_sys::fuzz_target;

/// The rules, built once per fuzzing process: building them reads the shipped data (a
/// 2,560-line TOML file), which would otherwise be most of each run's time.
static RULES: OnceLock<Option<Rules>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(rules) = RULES.get_or_init(|| Rules::new().ok()) else {
        return;
    };
    if let Ok(game) = save::from_text(text, rules) {
        assert!(game.check_invariants().is_ok(), "accepted save breaks an invariant");
        let mut g = game;
        for (i, cmd) in [
            Command::Wait,
            Command::Move(Dir::East),
            Command::Move(Dir::South),
            Command::PickUp(None),
            Command::Descend,
            Command::Move(Dir::West),
            Command::Wait,
        ]
        .into_iter()
        .enumerate()
        {
            match apply(&g, rules, cmd) {
                Ok(o) => g = o.game,
                Err(RuleError::Engine(e)) => panic!("command {i} of an accepted save: {e}"),
                Err(_) => {}
            }
        }
    }
});
