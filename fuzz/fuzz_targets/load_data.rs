//! Any text given to the data loader, alone and as a mod over the shipped Caves data: it
//! must return a library or errors whose places lie inside the text; never panic or hang.
//! An accepted text must load again to the same data hash.
#![no_main]

use alembic_content::caves::{DATA, DATA_FILE, load_data};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.matches('\n').count() + 1;
    for sources in [vec![("fuzz.toml", text)], vec![(DATA_FILE, DATA), ("fuzz.toml", text)]] {
        match load_data(sources.iter().copied()) {
            Ok(loaded) => {
                let again = load_data(sources.iter().copied()).map(|l| l.hash());
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
});
