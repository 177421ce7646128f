//! Recordings past their checkpoints: the fuzzer's bytes steer structure-aware edits of a
//! real Alchemy recording (a command changed, a line dropped, duplicated or swapped, a turn
//! or the header changed, the file cut), whose checkpoints are then recomputed by replaying
//! it, so the replay's own checks judge it. Each is verified, watched to its end in the
//! bounded viewer and continued as a save's journal; a panic, a hang or a replayed state
//! that breaks an invariant is a finding (`alembic_games::campaign::check_recording`).
#![no_main]

use alembic::replay::Recording;
use alembic_games::alchemy::{self, Command, Rules};
use alembic_games::campaign::{self, Verdict};
use alembic_games::sim::{self, Policy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(rules) = Rules::new() else {
        return;
    };
    let Ok(game) = sim::find("alchemy") else {
        return;
    };
    let Ok((_, text)) = game.record(3, 200, Policy::Explore) else {
        return;
    };
    let Ok(base) = Recording::<Command>::parse(&text) else {
        return;
    };
    let Ok(start) = alchemy::new_game(3, &rules) else {
        return;
    };
    let edited = campaign::mutate_recording(&base, data, &rules);
    let path = std::env::temp_dir().join(format!("alembic-fuzz-{}.replay", std::process::id()));
    if std::fs::write(&path, edited).is_err() {
        return;
    }
    match campaign::check_recording(&path, &start) {
        Verdict::Refused | Verdict::Accepted => {}
        other => panic!("{other:?}"),
    }
});
