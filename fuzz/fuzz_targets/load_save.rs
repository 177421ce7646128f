//! Any bytes given to the Alchemy loader: it must return an error or a game that passes the
//! engine's invariants and plays commands without an engine error; never panic, hang or
//! allocate without bound.
#![no_main]

use alembic::Dir;
use alembic_content::alchemy::{Command, RuleError, Rules, apply, save};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = Rules::new() else {
        return;
    };
    if let Ok(game) = save::from_text(text, &rules) {
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
            match apply(&g, &rules, cmd) {
                Ok(o) => g = o.game,
                Err(RuleError::Engine(e)) => panic!("command {i} of an accepted save: {e}"),
                Err(_) => {}
            }
        }
    }
});
