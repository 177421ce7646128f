//! Saves past the checksum: the fuzzer's bytes steer structure-aware edits of a real Alchemy
//! save (a value replaced, removed, duplicated or swapped; the modes changed), which is then
//! resealed with a fresh checksum, so the validator and the engine's `link` judge it (raw
//! bytes almost never pass the 64-bit checksum: see `load_save`). A panic, a hang, an
//! accepted save that breaks an invariant or meets an engine error, or one that cannot be
//! saved back and loaded is a finding (`alembic_games::campaign::check_save`).
#![no_main]

use alembic_games::alchemy::{self, Rules, save};
use alembic_games::campaign::{self, Verdict};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(rules) = Rules::new() else {
        return;
    };
    // The base save: a new game a few steps in (the same every run).
    let Ok(mut g) = alchemy::new_game(3, &rules) else {
        return;
    };
    for d in [alembic::Dir::East, alembic::Dir::South, alembic::Dir::West] {
        if let Ok(o) = alchemy::apply(&g, &rules, alchemy::Command::Move(d)) {
            g = o.game;
        }
    }
    let Ok(base) = save::to_text(&g) else {
        return;
    };
    let Some(text) = campaign::mutate_save(&base, data) else {
        return;
    };
    let scratch = std::env::temp_dir().join(format!("alembic-fuzz-{}.save", std::process::id()));
    match campaign::check_save(&text, &rules, &scratch) {
        Verdict::Refused | Verdict::Accepted => {}
        other => panic!("{other:?}"),
    }
});
