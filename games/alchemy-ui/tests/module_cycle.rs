//! `prompts.rs` must not import `play.rs`, which imports it (the circle of issue 16).
//!
//! The rest of issue 16's rule, that the screens read the game only through its public face,
//! is the compiler's now: they are another crate than the game.

use std::error::Error;
use std::path::PathBuf;

fn src(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(file)
}

#[test]
fn prompts_does_not_import_play() -> Result<(), Box<dyn Error>> {
    let prompts = std::fs::read_to_string(src("prompts.rs"))?;
    let play = std::fs::read_to_string(src("play.rs"))?;
    // play.rs shows prompts; prompts.rs must not reach back into play.rs.
    assert!(
        play.contains("super::prompts::"),
        "play.rs no longer uses prompts.rs"
    );
    assert!(
        !prompts.contains("super::play") && !prompts.contains("crate::play"),
        "prompts.rs imports play.rs, which imports it"
    );
    Ok(())
}
