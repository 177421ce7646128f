//! `alembic-sim --replay FILE --verify` says what it saw: a recording that reaches the end of
//! its game is complete; one cut short, cut mid-line, with commands after its last
//! checkpoint or made by another version is reported as such and is not complete.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use alembic_content::sim::{self, Policy, Reach, VerifyReport};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-verify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn verify(game: &str, path: &Path) -> VerifyReport {
    sim::find(game).unwrap().verify(path).unwrap()
}

/// A Caves game the explore bot plays to its end (seed 1 dies, seed 2 wins, in under 700
/// turns), as text.
fn whole_game() -> String {
    let (report, text) = sim::find("caves")
        .unwrap()
        .record(2, 5000, Policy::Explore)
        .unwrap();
    assert!(report.turns < 5000, "the game ended: {report:?}");
    text
}

#[test]
fn a_whole_game_is_complete() {
    let d = scratch("whole");
    let p = d.join("whole.replay");
    std::fs::write(&p, whole_game()).unwrap();
    let r = verify("caves", &p);
    assert!(r.verified, "{r:?}");
    assert_eq!(r.reaches, Reach::End);
    assert!(
        r.summary.starts_with("complete: the game ends at turn"),
        "{}",
        r.summary
    );
}

#[test]
fn cut_extended_and_relabelled_recordings_are_reported() {
    let d = scratch("cut");
    let text = whole_game();
    let lines: Vec<&str> = text.lines().collect();
    // Cut after a checkpoint in the middle: whole lines, but not the game's end.
    let mid = (lines.len() / 2..lines.len())
        .find(|&i| lines[i].contains("\"hash\""))
        .unwrap();
    let cut = d.join("cut.replay");
    std::fs::write(&cut, lines[..=mid].join("\n") + "\n").unwrap();
    let r = verify("caves", &cut);
    assert!(!r.verified);
    assert_eq!(r.reaches, Reach::Neither);
    assert!(r.summary.contains("before the game's end"), "{}", r.summary);
    // Cut in the middle of a line.
    let torn = d.join("torn.replay");
    let at = text.len() / 2;
    std::fs::write(&torn, &text.as_bytes()[..at]).unwrap();
    let r = verify("caves", &torn);
    assert!(!r.verified && r.torn);
    assert!(r.summary.contains("last line incomplete"), "{}", r.summary);
    // Commands after the last checkpoint (here: a whole game's commands, checkpoints
    // removed from its end).
    let extended = d.join("extended.replay");
    let keep: Vec<&str> = lines[..lines.len() - 1].to_vec();
    std::fs::write(&extended, keep.join("\n") + "\n").unwrap();
    let r = verify("caves", &extended);
    assert!(!r.verified && r.appended > 0, "{r:?}");
    assert!(
        r.summary.contains("after the last checkpoint"),
        "{}",
        r.summary
    );
    // Another game_version.
    let other = d.join("other.replay");
    std::fs::write(
        &other,
        text.replacen("\"game_version\":\"", "\"game_version\":\"9.", 1),
    )
    .unwrap();
    let r = verify("caves", &other);
    assert!(!r.verified && !r.same_version);
    assert!(
        r.summary.contains("recorded by version 9."),
        "{}",
        r.summary
    );
}

#[test]
fn the_recording_of_a_game_in_play_reaches_its_save() {
    use alembic_content::alchemy::Rules;
    use alembic_content::alchemy::ui::{AlchemyCtx, record};
    let d = scratch("save");
    let save = d.join("alchemy.save");
    let mut ctx = AlchemyCtx::new(Rules::new().unwrap(), Some(save.clone()));
    ctx.new_game(5).unwrap();
    for _ in 0..7 {
        ctx.act(alembic_content::alchemy::Command::Wait);
    }
    ctx.save().unwrap();
    ctx.act(alembic_content::alchemy::Command::Wait);
    drop(ctx);
    let r = verify("alchemy", &record::beside(&save));
    assert_eq!(r.reaches, Reach::Save, "{r:?}");
    assert_eq!(r.appended, 1);
    assert!(!r.verified);
    assert!(r.summary.contains("reaches its save"), "{}", r.summary);
}
