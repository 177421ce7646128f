//! Save and load: round trips, atomic writes, and clear errors for bad files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic_games::alchemy::save::{self, SaveError};
use alembic_games::alchemy::{Command, Rules, apply, new_game};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-save-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn round_trip_is_exact() {
    let rules = Rules::new().unwrap();
    let mut g = new_game(5, &rules).unwrap();
    for _ in 0..20 {
        if let Ok(o) = apply(&g, &rules, Command::Wait) {
            g = o.game;
        }
    }
    let text = save::to_text(&g).unwrap();
    let back = save::from_text(&text, &rules).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.state_hash(), g.state_hash());
    // The loaded game plays on identically.
    let a = apply(&g, &rules, Command::Wait).unwrap().game;
    let b = apply(&back, &rules, Command::Wait).unwrap().game;
    assert_eq!(a.state_hash(), b.state_hash());
}

#[test]
fn saving_replaces_the_file_atomically() {
    let rules = Rules::new().unwrap();
    let g = new_game(6, &rules).unwrap();
    let dir = temp_dir("atomic");
    let path = dir.join("game.json");
    save::save(&g, &path).unwrap();
    let g2 = apply(&g, &rules, Command::Wait).unwrap().game;
    save::save(&g2, &path).unwrap();
    assert!(!path.with_extension("tmp").exists());
    assert_eq!(save::load(&path, &rules).unwrap(), g2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_files_are_clear_errors() {
    let rules = Rules::new().unwrap();
    let g = new_game(7, &rules).unwrap();
    let text = save::to_text(&g).unwrap();
    // Truncated.
    let cut = &text[..text.len() / 2];
    assert!(matches!(
        save::from_text(cut, &rules),
        Err(SaveError::Corrupt(_))
    ));
    // Garbage.
    assert!(matches!(
        save::from_text("not json", &rules),
        Err(SaveError::Corrupt(_))
    ));
    assert!(matches!(
        save::from_text("", &rules),
        Err(SaveError::Corrupt(_))
    ));
    // Another version.
    let other = text.replacen("\"version\":4", "\"version\":99", 1);
    match save::from_text(&other, &rules) {
        Err(e @ SaveError::WrongVersion { found: 99 }) => {
            assert_eq!(
                e.to_string(),
                "this save has version 99; this build reads versions 1 to 4"
            );
        }
        other => panic!("{other:?}"),
    }
    // Another game.
    let other = text.replacen("\"game\":\"alchemy\"", "\"game\":\"caves\"", 1);
    assert!(
        matches!(save::from_text(&other, &rules), Err(SaveError::WrongGame(g)) if g == "caves")
    );
    // An unknown hook name, in a whole-game save (version 2), which names every hook.
    // (Resealed with a fresh checksum: a save from a build with more behaviour.)
    let whole = serde_json::to_string(&save::Envelope::of(&g)).unwrap();
    let other = reseal(&whole.replace("\"potion_heal\"", "\"potion_explode\""));
    assert_ne!(other, whole);
    match save::from_text(&other, &rules) {
        Err(SaveError::UnknownHook(m)) => assert!(m.contains("potion_explode"), "{m}"),
        other => panic!("{other:?}"),
    }
    // A missing file.
    let missing = std::env::temp_dir().join("alembic-no-such-save.json");
    assert!(matches!(
        save::load(&missing, &rules),
        Err(SaveError::Io { .. })
    ));
    // Every truncation point of a small prefix is an error, never a panic.
    for n in (0..text.len()).step_by(text.len() / 50 + 1) {
        if !text.is_char_boundary(n) {
            continue;
        }
        assert!(save::from_text(&text[..n], &rules).is_err());
    }
}

/// The save text with its checksum recomputed for its (edited) state.
fn reseal(text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let state: alembic::Game = serde_json::from_value(v["state"].clone()).unwrap();
    v["checksum"] = serde_json::json!(state.state_hash());
    serde_json::to_string(&v).unwrap()
}

#[test]
fn an_edited_save_fails_its_checksum() {
    let rules = Rules::new().unwrap();
    let g = new_game(7, &rules).unwrap();
    let text = save::to_text(&g).unwrap();
    let edited = text.replacen("\"turn\":0", "\"turn\":5", 1);
    assert_ne!(edited, text);
    match save::from_text(&edited, &rules) {
        Err(e @ SaveError::Checksum { .. }) => assert!(e.to_string().contains("checksum")),
        other => panic!("{other:?}"),
    }
}

/// Typed commands keep the recording format: a recipe is written as the potion's name, as
/// when `Craft` held a string, and a stack drop names its count.
#[test]
fn typed_commands_keep_the_recording_format() {
    use alembic_games::alchemy::Command;
    let craft = Command::Craft("potion of healing".into());
    let text = serde_json::to_string(&craft).unwrap();
    assert_eq!(text, r#"{"Craft":"potion of healing"}"#);
    let back: Command = serde_json::from_str(&text).unwrap();
    assert_eq!(back, craft);
    let old: Command = serde_json::from_str(r#"{"Drop":7}"#).unwrap();
    assert!(matches!(old, Command::Drop(_)));
}

#[test]
fn saves_name_the_library_and_keep_what_play_changed() {
    let rules = Rules::new().unwrap();
    let mut g = new_game(11, &rules).unwrap();
    for _ in 0..30 {
        g = apply(&g, &rules, Command::Wait).unwrap().game;
    }
    let text = save::to_text(&g).unwrap();
    // This game's potion appearances and recipes were chosen at random: the save keeps
    // them, and the game comes back equal.
    assert_eq!(save::from_text(&text, &rules).unwrap(), g);
    // The library is referred to, not copied: the whole-game form is more than twice as big.
    let whole = serde_json::to_string(&save::Envelope::of(&g)).unwrap();
    assert!(
        text.len() * 2 < whole.len(),
        "{} bytes by reference, {} whole",
        text.len(),
        whole.len()
    );
    assert!(text.contains("\"name\":\"alchemy\""));
    // A save in the previous format (version 2, the whole game) still loads.
    assert_eq!(save::from_text(&whole, &rules).unwrap(), g);
    // One changed byte inside the state is caught by the checksum.
    let at = text.find("\"turn\":").unwrap() + 7;
    let mut bytes = text.clone().into_bytes();
    bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    let tampered = String::from_utf8(bytes).unwrap();
    assert!(matches!(
        save::from_text(&tampered, &rules),
        Err(SaveError::Checksum { .. })
    ));
}

/// A save of an older version (2: the whole game, its library copied in) links, but is held
/// to this build's library on load: a thing whose property is another kind than the
/// library declares, a prototype that disagrees, a thing of a prototype the library lacks.
/// Each is refused with a sentence, and the file is left as it was.
#[test]
fn a_legacy_save_that_disagrees_with_the_library_is_refused() {
    use alembic::props::Value;
    let rules = Rules::new().unwrap();
    let g = new_game(12, &rules).unwrap();
    let dir = temp_dir("legacy-library");
    let legacy =
        |g: &alembic::Game| reseal(&serde_json::to_string(&save::Envelope::of(g)).unwrap());
    // The unchanged game, saved the old way, loads.
    assert_eq!(save::from_text(&legacy(&g), &rules).unwrap(), g);
    // A thing (not the hero) holding an integer its prototype declares, as text.
    let (thing, proto, key) = g
        .things()
        .iter()
        .filter(|t| t.proto().is_some_and(|p| p != "hero"))
        .find_map(|t| {
            let proto = t.proto()?;
            let declared = g.library().get(proto).ok()?;
            let key = declared
                .props()
                .iter()
                // One of Alchemy's own (the engine already checks its own keys' kinds).
                .find(|(k, v)| matches!(v, Value::Int(_)) && !k.name().starts_with("alembic."))?
                .0
                .clone();
            Some((t.clone(), proto.to_owned(), key))
        })
        .expect("a thing with an integer property");
    let mut bad_thing = g.clone();
    let mut t = thing.clone();
    t.set_raw_mut(&key, Value::Text("many".into()));
    bad_thing.update_thing_mut(t).unwrap();
    // A prototype of the save's library holding that property as text.
    let mut bad_proto = g.clone();
    let text_key: &'static str = Box::leak(key.name().to_owned().into_boxed_str());
    bad_proto
        .library_mut()
        .set_proto_prop_mut(
            &proto,
            &alembic::Prop::<std::sync::Arc<str>>::new(text_key),
            "many".into(),
        )
        .unwrap();
    let cases = [
        (
            "a thing's property",
            legacy(&bad_thing),
            format!("holds `{}` as a text", key.name()),
        ),
        (
            "a prototype's property",
            legacy(&bad_proto),
            format!("the prototype {proto:?} holds"),
        ),
        (
            "a prototype the library lacks",
            legacy(&g).replace(&format!("\"{proto}\""), &format!("\"{proto} (retired)\"")),
            "which the library does not have".to_owned(),
        ),
    ];
    for (what, text, said) in cases {
        let text = reseal(&text);
        let path = dir.join("legacy.save");
        std::fs::write(&path, &text).unwrap();
        match save::load(&path, &rules) {
            Err(e @ SaveError::Invalid(_)) => {
                let m = e.to_string();
                assert!(
                    m.contains("disagrees with this build's library") && m.contains(&said),
                    "{what}: {m}"
                );
                assert!(!m.contains('\n'), "{what}: {m}");
            }
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "{what}: untouched"
        );
    }
}
