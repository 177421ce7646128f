//! Any text given to the data loader, alone and as a mod over the shipped data, against
//! each game's schema (the Caves' and Alchemy's): it must return a library or errors whose
//! places lie inside the text; never panic or hang. An accepted text must load again to the
//! same data hash.
#![no_main]

use alembic_games::{alchemy, caves};
use alembic_data::{DataErrors, Loaded};
use libfuzzer_sys::fuzz_target;

type Load = fn(Vec<(&str, &str)>) -> Result<Loaded, DataErrors>;

fn caves_load(sources: Vec<(&str, &str)>) -> Result<Loaded, DataErrors> {
    caves::load_data(sources)
}

fn alchemy_load(sources: Vec<(&str, &str)>) -> Result<Loaded, DataErrors> {
    alchemy::library::load(sources)
}

fn check(load: Load, sources: Vec<(&str, &str)>, text: &str) {
    let lines = text.matches('\n').count() + 1;
    match load(sources.clone()) {
        Ok(loaded) => {
            let again = load(sources).map(|l| l.hash());
            assert_eq!(again, Ok(loaded.hash()), "the same data loads to the same hash");
        }
        Err(errors) => {
            assert!(!errors.errors().is_empty(), "an error without a message");
            for e in errors.errors() {
                // A mistake in the input is reported in the input, not in the shipped
                // data (which loads clean) and not past its end.
                assert_eq!(e.file, "fuzz.toml", "{e}");
                assert!(e.line >= 1 && e.line <= lines, "{e}: {lines} lines");
                assert!(e.column >= 1 && e.offset <= text.len(), "{e}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let games: [(Load, &str, &str); 2] = [
        (caves_load, caves::DATA_FILE, caves::DATA),
        (alchemy_load, alchemy::library::DATA_FILE, alchemy::library::DATA),
    ];
    for (load, file, base) in games {
        check(load, vec![("fuzz.toml", text)], text);
        // A text without the words "proto" and "tile" (nearly always one that defines
        // nothing) would only repeat, over the shipped data, what it gave alone: spare it
        // Alchemy's load of its whole data (milliseconds, where the rest takes micro-).
        if file == caves::DATA_FILE || text.contains("proto") || text.contains("tile") {
            check(load, vec![(file, base), ("fuzz.toml", text)], text);
        }
    }
});
