//! The games' data files through `alembic-sim`: the shipped Caves and Alchemy data check
//! clean, a mod with mistakes gets every one of them with its place, and the schemas list
//! themselves.

use std::path::PathBuf;
use std::process::Command;

fn sim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_alembic-sim"))
}

/// A game's shipped data file (`games/caves/data/caves.toml`…): each game has its own file, so
/// a check names the file, not the directory.
fn shipped(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(game)
        .join("data")
        .join(format!("{game}.toml"))
}

#[test]
fn the_shipped_caves_data_checks_clean() {
    let out = sim()
        .args(["--game", "caves", "--check-data"])
        .arg(shipped("caves"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["prototypes"], 6);
    assert_eq!(report["tiles"], 7);
    // The same hash as the library the game plays with.
    let lib = alembic_caves::library().unwrap();
    assert_eq!(
        report["hash"].as_str(),
        Some(alembic_data::DataHash::of(&lib).to_string().as_str())
    );
}

#[test]
fn a_mod_with_mistakes_gets_every_error_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("alembic-data-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("bad.toml");
    std::fs::write(
        &m,
        "[proto.zombie]\nextend = true\nhp = \"lots\"\n\n[proto.ghoul]\ncopy-from = \"zombi\"\nglyp = \"G\"\n",
    )
    .unwrap();
    let out = sim()
        .args(["--game", "caves", "--check-data"])
        .arg(shipped("caves"))
        .arg(&m)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let f = m.display().to_string();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(
        lines[0].starts_with(&format!("{f}:3:6: \"hp\" takes an integer")),
        "{err}"
    );
    assert_eq!(
        lines[1],
        format!(
            "{f}:6:13: `copy-from` names prototype \"zombi\", which is not defined above this point; did you mean \"zombie\"?"
        )
    );
    assert_eq!(
        lines[2],
        format!("{f}:7:1: unknown key \"glyp\" in prototype \"ghoul\"; did you mean \"glyph\"?")
    );
    assert_eq!(lines[3], "alembic-sim: 3 errors in the caves data");
}

/// Alchemy's shipped data checks clean through the binary, with the hash of the library
/// the game plays with; a mod with a typo in a damage type, a hook and a key gets all three.
#[test]
fn the_shipped_alchemy_data_checks_clean_and_a_bad_mod_does_not() {
    let out = sim()
        .args(["--game", "alchemy", "--check-data"])
        .arg(shipped("alchemy"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    let lib = alembic_alchemy::library::base_library().unwrap();
    assert_eq!(report["prototypes"], lib.len());
    assert_eq!(report["tiles"], 14);
    assert_eq!(
        report["hash"].as_str(),
        Some(alembic_data::DataHash::of(&lib).to_string().as_str())
    );

    let dir = std::env::temp_dir().join(format!("alembic-alchemy-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("bad.toml");
    std::fs::write(
        &m,
        "[proto.\"fire bat\"]\nparent = \"base bat\"\natt_type = \"fyre\"\non_death = \"death_transfrom\"\nhps_mx = 5\nspeeed = 5\n",
    )
    .unwrap();
    let out = sim()
        .args(["--game", "alchemy", "--check-data"])
        .arg(shipped("alchemy"))
        .arg(&m)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let f = m.display().to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "{f}:3:12: \"att_type\" takes one of \"normal\", \"impact\", \"poison\", \"fire\", \"ice\", \"water\", \"lightning\", \"acid\"; found \"fyre\"; did you mean \"fire\"?"
            ),
            format!(
                "{f}:4:12: \"on_death\" names hook \"death_transfrom\", which is not registered; did you mean \"death_transform\"?"
            ),
            format!(
                "{f}:5:1: unknown key \"hps_mx\" in prototype \"fire bat\"; did you mean \"hps_max\"?"
            ),
            // A namespaced key is suggested by its last part.
            format!(
                "{f}:6:1: unknown key \"speeed\" in prototype \"fire bat\"; did you mean \"alembic.speed\"?"
            ),
            "alembic-sim: 4 errors in the alchemy data".to_string(),
        ],
        "{err}"
    );
}

#[test]
fn list_keys_prints_the_schemas_and_the_rats_have_none() {
    let out = sim()
        .args(["--game", "caves", "--list-keys"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let schema = alembic_caves::schema();
    assert_eq!(text.lines().count(), schema.keys().count());
    let hp = text.lines().find(|l| l.starts_with("max_hp ")).unwrap();
    assert!(
        hp.contains("an integer (i32)") && hp.contains("hit points when unhurt"),
        "{hp}"
    );
    let out = sim()
        .args(["--game", "alchemy", "--list-keys"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().count(),
        alembic_alchemy::library::schema().keys().count()
    );
    let att = text.lines().find(|l| l.starts_with("att_type ")).unwrap();
    assert!(
        att.contains("a text (DamageType)") && att.contains("[one of: normal, impact,"),
        "{att}"
    );
    let out = sim()
        .args(["--game", "rats", "--list-keys"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("keeps its content in Rust code"));
}

/// The troll of docs/modding.md's "add a monster in five minutes" loads over the shipped
/// data as the guide says: the zombie's hook and numbers, its own name, glyph and hit points.
#[test]
fn the_modding_guides_troll_loads_as_described() {
    let guide = include_str!("../../../docs/modding.md");
    let start = guide
        .find("   [proto.\"cave troll\"]")
        .expect("the guide's troll");
    let end = start + guide[start..].find("   ```").expect("the end of its block");
    let troll: String = guide[start..end]
        .lines()
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    let caves = alembic_caves::DATA;
    let loaded =
        alembic_caves::load_data([("caves.toml", caves), ("troll.toml", troll.as_str())]).unwrap();
    let t = loaded.library.get("cave troll").unwrap();
    let z = loaded.library.get("zombie").unwrap();
    use alembic_caves::{ATTACK, GLYPH, HP, IS_HOSTILE};
    assert_eq!(
        (t.get(&GLYPH), t.get(&HP), t.get(&ATTACK)),
        (Ok('T'), Ok(30), Ok(12))
    );
    assert!(t.is(&IS_HOSTILE));
    assert_eq!(
        t.get(&alembic::hook::ON_ACTION),
        z.get(&alembic::hook::ON_ACTION)
    );
    assert_eq!(
        t.get(&alembic::schedule::SPEED),
        z.get(&alembic::schedule::SPEED)
    );
}

/// The fire bat of docs/modding.md's "add a monster to Alchemy in five minutes", a mod over
/// the shipped data: a bat (its parent's speed, family and verb) with its own colour,
/// numbers and fiery bite, and the giant bat it overrides changed in that one field.
#[test]
fn the_modding_guides_fire_bat_loads_as_described() {
    let guide = include_str!("../../../docs/modding.md");
    let start = guide
        .find("   [proto.\"fire bat\"]")
        .expect("the guide's fire bat");
    let end = start + guide[start..].find("   ```").expect("the end of its block");
    let bat: String = guide[start..end]
        .lines()
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    use alembic_alchemy::{
        library::{DATA, DATA_FILE, base_library, load as load_data},
        props::{
            ATT_TYPE, ATT_VERB, DamageType, FAMILY, FG, HIT_EFFECT, HPS, HPS_MAX, RES_FIRE, SK,
            SPEED, ST,
        },
    };
    let loaded = load_data([(DATA_FILE, DATA), ("mymod/fire-bat.toml", bat.as_str())]).unwrap();
    let lib = &loaded.library;
    let fire = lib.get("fire bat").unwrap();
    assert_eq!(
        (
            fire.get(&HPS),
            fire.get(&HPS_MAX),
            fire.get(&SK),
            fire.get(&ST)
        ),
        (Ok(9), Ok(9), Ok(4), Ok(5))
    );
    assert_eq!(fire.get(&FG), Ok(alembic::Rgb::new(0xFF, 0x3A, 0x10)));
    assert_eq!(fire.get(&ATT_TYPE), Ok(DamageType::Fire));
    assert_eq!(fire.get(&RES_FIRE), Ok(100));
    assert_eq!(fire.get(&HIT_EFFECT).as_deref(), Ok("burning"));
    assert_eq!(fire.get(&SPEED), Ok(150));
    assert_eq!(fire.get(&FAMILY).as_deref(), Ok("bat"));
    assert_eq!(fire.get(&ATT_VERB).as_deref(), Ok("bite"));
    let shipped = base_library().unwrap();
    let freq = alembic::library::FREQ;
    let (giant, before) = (
        lib.get("giant bat").unwrap(),
        shipped.get("giant bat").unwrap(),
    );
    assert_eq!((giant.get(&freq), before.get(&freq)), (Ok(50), Ok(100)));
    assert_eq!(giant.get(&HPS), before.get(&HPS));
    assert_eq!(lib.len(), shipped.len() + 1);
}

#[test]
fn a_reader_that_goes_away_ends_the_run_without_a_panic() {
    use std::process::Stdio;
    // The pipe's reading end is closed before the game ends: the line cannot be written.
    let mut child = sim()
        .args(["--game", "alchemy", "--seed", "3", "--turns", "300"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!out.status.success());
    assert_eq!(out.status.code(), Some(1), "{stderr}");
}

/// `--check-data` reads its paths as `--data PATH --mod PATH…` do: what a game refuses (an
/// empty data directory, a FIFO, a device) it refuses, at once, with the path; and data that
/// loads but cannot start a game (a mod deleting the hero) is refused too.
#[test]
fn check_data_refuses_what_a_game_refuses() {
    let dir = std::env::temp_dir().join(format!("alembic-check-bounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let no_hero = dir.join("no-hero.toml");
    std::fs::write(&no_hero, "[proto.player]\ndelete = true\n").unwrap();
    let check = |game: &str, paths: &[&std::path::Path]| {
        let out = sim()
            .args(["--game", game, "--check-data"])
            .args(paths)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let empty = dir.join("empty");
    let (code, err) = check("caves", &[&empty]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(&format!(
            "{}:1:1: this data directory holds no .toml file\n",
            empty.display()
        )),
        "{err}"
    );
    let (code, err) = check("caves", &[&shipped("caves"), &empty]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("this mod holds no .toml file"), "{err}");
    let (code, err) = check("caves", &[&shipped("caves"), &no_hero]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "alembic-sim: cannot set the game up: the data loads, but no game can start on it \
         (seed 1): unknown prototype \"player\"\n"
    );
    let (code, err) = check("alchemy", &[std::path::Path::new("/dev/zero")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(
            "/dev/zero:1:1: cannot read: it is a character device, not a regular file\n"
        ),
        "{err}"
    );
    let fifo = dir.join("pipe.toml");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let (code, err) = check("caves", &[&shipped("caves"), &fifo]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.starts_with(&format!(
                "{}:1:1: cannot read: it is a FIFO (named pipe), not a regular file\n",
                fifo.display()
            )),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 57: a mod giving the hero more hit points than a save can hold passed
/// `--check-data` and started a game whose every save was then refused. The schema bounds
/// hit points, so the mod is refused at the value, with its place.
#[test]
fn a_mod_with_more_hit_points_than_a_save_holds_is_refused_at_the_value() {
    let dir = std::env::temp_dir().join(format!("alembic-check-hps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.toml");
    std::fs::write(
        &huge,
        "[proto.you]\nextend = true\nhps_max = 2147483647\nhps = 2147483647\n",
    )
    .unwrap();
    let out = sim()
        .args(["--game", "alchemy", "--check-data"])
        .arg(shipped("alchemy"))
        .arg(&huge)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}:3:11: \"hps_max\" takes an integer from 1 to 1000000; found 2147483647",
            huge.display()
        )),
        "{err}"
    );
    assert!(err.contains(":4:7: \"hps\" takes an integer"), "{err}");
    // The same through modifiers: one that would carry hit points past what the game's
    // integers hold (every read of them an error, no move playable) is refused too.
    let mods = dir.join("mods.toml");
    std::fs::write(
        &mods,
        "[proto.you]\nextend = true\nmodifiers = [\n  { key = \"hps_max\", add = 2147483647 },\n  \
         { key = \"hps\", scale = [2000000, 1] },\n  { key = \"hps\", at-least = -5000000 },\n  \
         { key = \"hps_max\", add = 20 },\n]\n",
    )
    .unwrap();
    let out = sim()
        .args(["--game", "alchemy", "--check-data"])
        .arg(shipped("alchemy"))
        .arg(&mods)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for want in [
        ":4:22: a modifier of \"hps_max\" (an integer from 1 to 1000000) adds 2147483647: at most 999999 either way",
        ":5:18: a modifier of \"hps\" (an integer from -1000000 to 1000000) scales it by 2000000/1: at most 1000 times",
        ":6:18: a modifier of \"hps\" (an integer from -1000000 to 1000000) bounds it at -5000000",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    assert_eq!(
        err.matches("a modifier of").count(),
        3,
        "add = 20 is fine: {err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
