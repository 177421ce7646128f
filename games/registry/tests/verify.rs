//! `alembic-sim --replay FILE --verify` says what it saw: a recording that reaches the end of
//! its game is complete; one cut short, cut mid-line, with commands after its last
//! checkpoint or made by another version is reported as such and is not complete.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use alembic_games::sim::{self, Policy, Reach, VerifyReport};

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
    // Another game_version, in a header older than the header hash: reported.
    let other = d.join("other.replay");
    std::fs::write(
        &other,
        without_header_hash(&text).replacen("\"game_version\":\"", "\"game_version\":\"9.", 1),
    )
    .unwrap();
    let r = verify("caves", &other);
    assert!(!r.verified && !r.same_version && !r.header_hash);
    assert!(
        r.summary.contains("recorded by version 9.")
            && r.summary.contains("no header hash (older format)"),
        "{}",
        r.summary
    );
}

/// `text` as a recording older than the header hash wrote it: a version 1 header without
/// `check`.
fn without_header_hash(text: &str) -> String {
    let at = text.find(",\"check\":\"").expect("a header hash");
    format!("{}{}", &text[..at], &text[at + 27..]).replacen("\"version\":2", "\"version\":1", 1)
}

/// Issue 57: deleting the seal of a current recording does not make it an "older format"
/// whose modes can be edited: it is refused.
#[test]
fn a_current_recording_without_its_seal_is_refused() {
    let d = scratch("unsealed");
    let text = whole_game();
    let at = text.find(",\"check\":\"").expect("a header hash");
    let unsealed = format!("{}{}", &text[..at], &text[at + 27..]);
    let relabelled = unsealed.replacen("\"modes\":[]", "\"modes\":[\"practice\"]", 1);
    for (what, edited) in [("unsealed", unsealed), ("relabelled", relabelled)] {
        let p = d.join(format!("{what}.replay"));
        std::fs::write(&p, &edited).unwrap();
        let err = sim::find("caves").unwrap().verify(&p).unwrap_err();
        assert!(
            err.to_string().contains("must carry its header hash"),
            "{what}: {err}"
        );
        assert!(
            alembic_games::record::read::<alembic_games::caves::Command>(&p, "caves").is_err(),
            "{what}"
        );
    }
}

#[test]
fn a_relabelled_mode_seed_or_version_is_refused_by_the_header_hash() {
    let d = scratch("relabel");
    let text = whole_game();
    let whole = d.join("whole.replay");
    std::fs::write(&whole, &text).unwrap();
    let r = verify("caves", &whole);
    assert!(r.header_hash && r.verified, "{r:?}");
    assert!(!r.summary.contains("header hash"), "{}", r.summary);
    for (what, edited) in [
        (
            "mode",
            text.replacen("\"modes\":[]", "\"modes\":[\"practice\"]", 1),
        ),
        ("seed", text.replacen("\"seed\":2,", "\"seed\":3,", 1)),
        (
            "version",
            text.replacen("\"game_version\":\"", "\"game_version\":\"9.", 1),
        ),
    ] {
        assert_ne!(edited, text, "{what}: the edit took");
        let p = d.join(format!("{what}.replay"));
        std::fs::write(&p, &edited).unwrap();
        let err = sim::find("caves").unwrap().verify(&p).unwrap_err();
        let said = err.to_string();
        assert!(
            said.contains("does not match its header hash") && !said.contains('\n'),
            "{what}: {said}"
        );
        // The viewer and the journal read through the same parser: refused there too.
        let opened = alembic_games::record::read::<alembic_games::caves::Command>(&p, "caves");
        assert!(opened.is_err(), "{what}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            edited,
            "{what}: untouched"
        );
    }
}

#[test]
fn the_recording_of_a_game_in_play_reaches_its_save() {
    use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
    use alembic_games::play::{self, Session};
    use alembic_games::record;
    use alembic_ui::Input;
    let d = scratch("save");
    let save = d.join("alchemy.save");
    let rules = std::sync::Arc::new(Alchemy::new().unwrap());
    let session = Session::with_board(rules, AlchemyBoard::shared(), 5).with_save(save.clone());
    let mut app = play::app_playing(session);
    for _ in 0..7 {
        app.handle_input(Input::ch('.'));
    }
    app.ctx_mut().save().unwrap();
    app.handle_input(Input::ch('.'));
    assert_eq!(app.ctx().game().turn(), 8, "eight waits were played");
    drop(app);
    let r = verify("alchemy", &record::beside(&save));
    assert_eq!(r.reaches, Reach::Save, "{r:?}");
    assert_eq!(r.appended, 1);
    assert!(!r.verified);
    assert!(r.summary.contains("reaches its save"), "{}", r.summary);
}

/// The fixture recording of Alchemy that the viewer tests watch.
fn alchemy_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join("alchemy-seed4-3000.replay")
}

/// Every state of the Alchemy recording at `path`, checked at every checkpoint, as the
/// session's replay viewer makes them (`play::replay_app_with`).
fn alchemy_rebuild(path: &Path) -> Vec<alembic::Game> {
    use alembic_games::alchemy::ui::ruleset::Alchemy;
    use alembic_games::ruleset::Ruleset as _;
    let rules = Alchemy::new().unwrap();
    alembic_games::playback::rebuild(
        path,
        Alchemy::NAME,
        &rules.data(),
        |h| rules.new_game_in_modes(h.seed, &alembic_session::Modes::parse(&h.modes)?),
        |g, c| alembic_session::run::apply_step(&rules, g, c).map(|(g, _)| g),
    )
    .unwrap()
}

/// The Alchemy recording at `path` opened for watching, as the session's replay viewer
/// opens it (`play::replay_app_with`).
fn alchemy_open(path: &Path) -> alembic_games::playback::Playback {
    use alembic_games::alchemy::ui::ruleset::Alchemy;
    use alembic_games::ruleset::Ruleset as _;
    let rules = std::sync::Arc::new(Alchemy::new().unwrap());
    let (start, step, restore) = (rules.clone(), rules.clone(), rules.clone());
    alembic_games::playback::Playback::open(
        path,
        Alchemy::NAME,
        &rules.data(),
        move |h| start.new_game_in_modes(h.seed, &alembic_session::Modes::parse(&h.modes)?),
        move |g, c| alembic_session::run::apply_step(&*step, g, c).map(|(g, _)| g),
    )
    .unwrap()
    .with_states(move |text: &str| {
        restore
            .load_text(text)
            .map(|saved| saved.game)
            .map_err(|e| e.to_string())
    })
}

/// The viewer opens a recording without building it, keeps at most the budget's states
/// however far it goes, and shows the same states the full rebuild makes.
#[test]
fn the_viewer_keeps_few_states_and_shows_the_same_game() {
    use alembic_games::playback::VIEW_BUDGET;
    use alembic_ui::{Input, Key};
    let file = alchemy_fixture();
    let all = alchemy_rebuild(&file);
    let mut p = alchemy_open(&file);
    assert_eq!(p.kept_states(), 1, "opening builds nothing");
    assert_eq!(p.commands(), all.len() - 1);
    p.handle(&Input::key(Key::End));
    assert_eq!(p.position(), all.len() - 1);
    let bound = VIEW_BUDGET.max_entries.unwrap() + all.len() / VIEW_BUDGET.keyframe_every + 1;
    assert!(p.kept_states() <= bound, "{} > {bound}", p.kept_states());
    assert!(p.kept_states() < all.len() - 200, "states were thinned");
    // Back to the start, then to states that were thinned: rebuilt, the same game.
    p.handle(&Input::key(Key::Home));
    assert_eq!(p.current().unwrap().state_hash(), all[0].state_hash());
    for _ in 0..7 {
        p.handle(&Input::key(Key::PageDown));
    }
    p.handle(&Input::key(Key::Right));
    let at = p.position();
    assert_eq!(at, 701);
    assert_eq!(p.current().unwrap().state_hash(), all[at].state_hash());
    p.handle(&Input::key(Key::Left));
    assert_eq!(p.current().unwrap().state_hash(), all[700].state_hash());
    assert!(p.stopped().is_none());
}

/// A recording that diverges part way opens, and the viewer stops where it diverges.
#[test]
fn the_viewer_stops_where_a_recording_diverges() {
    use alembic_ui::{Input, Key};
    let file = alchemy_fixture();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = (lines.len() / 2..lines.len())
        .find(|&i| lines[i].contains("\"hash\""))
        .unwrap();
    let i = lines[at].find("\"hash\":\"").unwrap();
    lines[at] = format!("{}\"hash\":\"0123456789abcdef\"}}", &lines[at][..i]);
    let d = scratch("diverge");
    let bad = d.join("bad.replay");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let mut p = alchemy_open(&bad);
    p.handle(&Input::key(Key::End));
    let (stop, why) = p.stopped().unwrap();
    assert!(why.contains("diverges at turn"), "{why}");
    assert!(stop > 0 && stop < p.commands());
    assert_eq!(
        p.position(),
        stop,
        "the viewer waits at the last state that replays"
    );
}
