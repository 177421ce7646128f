//! Mods and data directories: a game remembers the data it was played with, a save made
//! with other data is refused in one sentence and left untouched, and the wizard's
//! `reload` rebases a running game on edited data.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use alembic_games::alchemy::save::{self, SaveError};
use alembic_games::alchemy::{Rules, RulesError, new_game};
use alembic_games::gamedata::DataChoice;
use alembic_games::{LaunchError, LaunchOptions, launch};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-mods-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A directory holding `files` (name, text).
fn dir_with(root: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = root.join(name);
    std::fs::create_dir_all(&d).unwrap();
    for (f, text) in files {
        std::fs::write(d.join(f), text).unwrap();
    }
    d
}

/// A copy of the shipped data in `root/data`.
fn shipped_copy(root: &Path) -> PathBuf {
    let d = root.join("data");
    std::fs::create_dir_all(&d).unwrap();
    for (name, text) in alembic_games::alchemy::library::data_files() {
        let file = Path::new(name).file_name().unwrap();
        std::fs::write(d.join(file), text).unwrap();
    }
    d
}

const DRAGON_MOD: &str = r##"
[proto."cave drake"]
copy-from = "giant bat"
name = "cave drake"
glyph = "D"
fg = "#30C0FF"
hps = 33
hps_max = 33
"##;

#[test]
fn a_save_made_with_a_mod_is_refused_without_it_and_left_untouched() {
    let root = temp_dir("refuse");
    let drakes = dir_with(&root, "drakes", &[("drakes.toml", DRAGON_MOD)]);
    let modded = Rules::with_data(&DataChoice {
        mods: vec![drakes.clone()],
        ..DataChoice::default()
    })
    .unwrap();
    assert_eq!(modded.data_identity().mods, ["drakes"]);
    assert!(modded.base_library().get("cave drake").is_ok());
    let game = new_game(3, &modded).unwrap();
    let path = root.join("alchemy.save");
    save::save_checked(&game, &path, &alembic_session::Modes::none(), &modded).unwrap();
    let bytes = std::fs::read(&path).unwrap();

    // With the mod it loads; without it, one sentence says what differs.
    assert_eq!(save::load(&path, &modded).unwrap(), game);
    let plain = Rules::new().unwrap();
    match save::load(&path, &plain) {
        Err(SaveError::OtherData(other)) => assert_eq!(
            other.to_string(),
            "It was made with the mod \"drakes\" and this game runs with no mods: start it \
             with the same mods (--mod DIR, or the mods folder) to continue it."
        ),
        other => panic!("expected OtherData, got {other:?}"),
    }
    // The same through the launcher, as a player would meet it.
    let opts = LaunchOptions {
        game: "alchemy".into(),
        load: Some(path.clone()),
        ..LaunchOptions::default()
    };
    match launch(&opts) {
        Err(e @ LaunchError::BadSave { .. }) => {
            let said = e.to_string();
            assert!(said.contains("the mod \"drakes\""), "{said}");
            assert_eq!(said.lines().count(), 1, "{said}");
        }
        Err(e) => panic!("expected BadSave, got {e}"),
        Ok(_) => panic!("a save made with a mod loaded without it"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the save was changed");

    // A changed mod (same name, other data) is refused too, naming the change.
    std::fs::write(drakes.join("drakes.toml"), DRAGON_MOD.replace("33", "34")).unwrap();
    let changed = Rules::with_data(&DataChoice {
        mods: vec![drakes],
        ..DataChoice::default()
    })
    .unwrap();
    match save::load(&path, &changed) {
        Err(SaveError::OtherData(s)) => {
            assert!(s.to_string().contains("changed since"), "{s}");
        }
        other => panic!("expected OtherData, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_plain_game_carries_no_data_modes_and_loads_as_before() {
    let rules = Rules::new().unwrap();
    let game = new_game(4, &rules).unwrap();
    let text = save::to_text_with_modes(
        &game,
        &alembic_session::Modes {
            practice: true,
            ..Default::default()
        },
        &rules,
    )
    .unwrap();
    assert_eq!(save::modes_of(&text), ["practice"]);
    // A copy of the shipped data in a directory is other data (it may differ at any time):
    // its games say so, and the shipped game refuses them.
    let root = temp_dir("copy");
    let copy = Rules::with_data(&DataChoice {
        data_dir: Some(shipped_copy(&root)),
        ..DataChoice::default()
    })
    .unwrap();
    let from_copy = save::to_text_with_modes(
        &new_game(4, &copy).unwrap(),
        &alembic_session::Modes::none(),
        &copy,
    )
    .unwrap();
    assert!(save::modes_of(&from_copy)[0].starts_with("data:"));
    assert!(matches!(
        save::from_text(&from_copy, &rules),
        Err(SaveError::OtherData(_))
    ));
    assert!(save::from_text(&from_copy, &copy).is_ok());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_mod_with_mistakes_reports_each_with_its_place_and_starts_nothing() {
    let root = temp_dir("bad");
    let bad = dir_with(
        &root,
        "bad",
        &[(
            "bad.toml",
            "[proto.\"cave drake\"]\ncopy-from = \"giant bta\"\nhsp = 3\n\n[proto.rat]\nextend = true\nhps = \"many\"\n",
        )],
    );
    let choice = DataChoice {
        mods: vec![bad],
        ..DataChoice::default()
    };
    match Rules::with_data(&choice) {
        Err(RulesError::Data(e)) => {
            assert_eq!(e.errors().len(), 3, "{e}");
            for err in e.errors() {
                assert!(err.file.ends_with("bad.toml") && err.line > 0 && err.column > 0);
            }
        }
        other => panic!("expected data errors, got {other:?}"),
    }
    let opts = LaunchOptions {
        game: "alchemy".into(),
        seed: Some(1),
        data: choice,
        ..LaunchOptions::default()
    };
    match launch(&opts) {
        Err(e @ LaunchError::Data { .. }) => {
            let said = e.to_string();
            assert!(said.contains("bad.toml:2:"), "{said}");
            assert!(said.contains("did you mean \"giant bat\""), "{said}");
        }
        Err(e) => panic!("expected data errors, got {e}"),
        Ok(_) => panic!("a game started on data with mistakes"),
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_caves_play_and_save_with_their_mods() {
    use alembic_games::caves::{self, CavesData};
    let root = temp_dir("caves");
    let tough = dir_with(
        &root,
        "tough-zombies",
        &[(
            "z.toml",
            "[proto.zombie]\nextend = true\nhp = 30\nmax_hp = 30\n",
        )],
    );
    let choice = DataChoice {
        mods: vec![tough],
        ..DataChoice::default()
    };
    let data = CavesData::from_choice(&choice).unwrap();
    assert_eq!(data.identity.mods, ["tough-zombies"]);
    let z = data.library.get("zombie").unwrap();
    assert_eq!(z.get(&caves::HP), Ok(30));
    let game = caves::new_game_on(9, &data.library).unwrap();
    let path = root.join("caves.save");
    caves::save::save_on(&game, &path, &data).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(caves::save::load_on(&path, &data).unwrap(), game);
    match caves::save::load(&path) {
        Err(caves::save::CavesSaveError::OtherData(s)) => {
            assert!(s.to_string().contains("the mod \"tough-zombies\""), "{s}");
        }
        other => panic!("expected OtherData, got {other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // The shipped game's saves are what they were: version 2, no modes.
    let plain = caves::save::to_text(&caves::new_game(9).unwrap()).unwrap();
    assert!(plain.contains("\"version\":2") && !plain.contains("modes"));
    let _ = std::fs::remove_dir_all(&root);
}

/// `text` with the first `from` after `[proto.goblin]` replaced by `to`.
fn in_goblin(text: &str, from: &str, to: &str) -> String {
    let at = text.find("[proto.goblin]\n").expect("the goblin's table");
    let (head, tail) = text.split_at(at);
    assert!(tail.contains(from));
    format!("{head}{}", tail.replacen(from, to, 1))
}

#[test]
fn reload_moves_a_running_game_onto_edited_data() {
    use alembic_games::alchemy::props::{APPEARANCE, HPS, IS_POTION};
    use alembic_games::alchemy::ui::ruleset::{Alchemy, AlchemyBoard};
    use alembic_games::play::{self, Session};
    use alembic_session::console::ConsoleHost as _;
    use std::sync::Arc;
    type Ctx = Session<Alchemy>;
    let root = temp_dir("reload");
    let data_dir = shipped_copy(&root);
    let rules = Rules::with_data(&DataChoice {
        data_dir: Some(data_dir.clone()),
        ..DataChoice::default()
    })
    .unwrap();
    let rules = Arc::new(Alchemy::on(rules).unwrap());
    let session = Session::with_board(rules, AlchemyBoard::shared(), 11).with_modes(false, true);
    let mut app = play::app_playing(session);
    let ctx = app.ctx_mut();
    ctx.run_line("summon goblin").unwrap();
    let goblins = |ctx: &Ctx| -> Vec<(alembic::ThingId, i32)> {
        let g = ctx.game();
        g.things()
            .iter()
            .filter(|t| t.proto() == Some("goblin"))
            .filter_map(|t| t.id())
            .map(|id| (id, g.query(id, &HPS).unwrap()))
            .collect()
    };
    // The dungeon's goblins and the one summoned, none hurt yet.
    let before = goblins(ctx);
    assert!(
        before.len() > 1 && before.iter().all(|&(_, hp)| hp == 8),
        "{before:?}"
    );
    let looks = |ctx: &Ctx| -> Vec<String> {
        let lib = ctx.game().library();
        lib.prototypes()
            .filter(|p| p.is(&IS_POTION) && !p.is_abstract())
            .map(|p| {
                p.get(&APPEARANCE)
                    .map(|a| a.to_string())
                    .unwrap_or_default()
            })
            .collect()
    };
    let potion_looks = looks(ctx);
    let file = std::fs::read_dir(&data_dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&file).unwrap();

    // A mistake: reload lists it and changes nothing.
    std::fs::write(&file, in_goblin(&text, "hps = 8\n", "hps = \"eight\"\n")).unwrap();
    let hash = ctx.game().state_hash();
    let e = ctx.run_own("reload").join("\n");
    assert!(e.contains("nothing changed") && e.contains(":"), "{e}");
    assert_eq!(ctx.game().state_hash(), hash);

    // The goblin's hit points edited: the goblin on the map has the new value at once.
    std::fs::write(
        &file,
        in_goblin(&text, "hps = 8\nhps_max = 8\n", "hps = 77\nhps_max = 77\n"),
    )
    .unwrap();
    let said = ctx.run_own("reload");
    assert!(said[0].contains("goblin"), "{said:?}");
    let after = goblins(ctx);
    let expected: Vec<_> = before.iter().map(|&(id, _)| (id, 77)).collect();
    assert_eq!(after, expected);
    // The game's own library changes (its potions' looks) are kept.
    assert_eq!(looks(ctx), potion_looks);
    ctx.game().check_invariants().unwrap();
    // A plain game (not a wizard game) cannot reload.
    let plain = Session::with_board(
        Arc::new(Alchemy::new().unwrap()),
        AlchemyBoard::shared(),
        11,
    );
    let mut plain = play::app_playing(plain);
    let said = plain.ctx_mut().run_own("reload").join("\n");
    assert!(said.contains("wizard"), "{said}");
    let _ = std::fs::remove_dir_all(&root);
}
