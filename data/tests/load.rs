//! The loader against hand-written sources: the format, the mod rules and every kind of
//! error, with its place.

use std::sync::Arc;

use alembic::library::{ABSTRACT, LEVEL};
use alembic::props::{Hook, ModOp};
use alembic::{Prop, Rgb};
use alembic_data::{DataErrors, ErrorKind, Loaded, Loader, Schema};

const NAME: Prop<Arc<str>> = Prop::new("name");
const GLYPH: Prop<char> = Prop::new("glyph");
const FG: Prop<Rgb> = Prop::with_default("colour", Rgb::new(200, 200, 200));
const HPS: Prop<i32> = Prop::new("hps");
const ATTACK: Prop<i32> = Prop::with_default("attack", 1);
const WEIGHT: Prop<f64> = Prop::with_default("weight", 1.0);
const WALKABLE: Prop<bool> = Prop::with_default("walkable", false);
const WORN: Prop<bool> = Prop::with_default("worn", false);
const DROPS: Prop<Arc<str>> = Prop::new("drops");
const TAGS: Prop<Arc<[alembic::props::Value]>> = Prop::new("tags");
const ON_HIT: Prop<Hook> = Prop::new("on_hit");

fn schema() -> Schema {
    Schema::new()
        .with_engine_keys()
        .key(&NAME, "what it is called")
        .key(&GLYPH, "the character drawn for it")
        .key(&FG, "its colour")
        .key(&HPS, "hit points at full health")
        .key(&ATTACK, "attack value")
        .key(&WEIGHT, "weight in kilograms")
        .key(&WALKABLE, "creatures can stand here")
        .key(&WORN, "being worn")
        .key(&TAGS, "free-form tags")
        .prototype_ref(&DROPS, "what it leaves when it dies")
        .hook(&ON_HIT, "runs when it hits")
}

fn load(sources: &[(&str, &str)]) -> Result<Loaded, DataErrors> {
    let schema = schema();
    let mut l = Loader::new(&schema).hooks(["bite", "sting"]);
    for (n, t) in sources {
        l = l.source(n, t);
    }
    l.load()
}

fn errors(sources: &[(&str, &str)]) -> Vec<String> {
    match load(sources) {
        Ok(_) => Vec::new(),
        Err(e) => e.errors().iter().map(ToString::to_string).collect(),
    }
}

const BASE: &str = r##"
[tile.floor]
walkable = true
glyph = "."
colour = "#968A73"

[tile.wall]
glyph = "#"
colour = [165, 140, 105]

[proto."base goblinoid"]
alembic.abstract = true
hps = 5
attack = 2
modifiers = [{ key = "attack", add = 2, priority = 1, while = "worn" }]

[proto.goblin]
parent = "base goblinoid"
name = "goblin"
glyph = "g"
colour = "#60E040"
hps = 8
weight = 40
alembic.level = 2
on_hit = "bite"
drops = "rat"
tags = ["green", 3, [true]]

[proto.rat]
name = "rat"
hps = 3
"##;

#[test]
fn a_base_file_gives_its_prototypes_and_tiles() {
    let lib = load(&[("base.toml", BASE)]).unwrap().library;
    let floor = lib.tile(lib.tile_id("floor").unwrap()).unwrap();
    assert_eq!(
        lib.tile_id("floor").unwrap().0,
        1,
        "tiles numbered in file order"
    );
    assert_eq!(lib.tile_id("wall").unwrap().0, 2);
    assert!(floor.is(&WALKABLE));
    assert_eq!(floor.get(&FG), Ok(Rgb::new(0x96, 0x8A, 0x73)));
    let wall = lib.tile(lib.tile_id("wall").unwrap()).unwrap();
    assert_eq!(wall.get(&FG), Ok(Rgb::new(165, 140, 105)));
    assert!(lib.get("base goblinoid").unwrap().is_abstract());
    let g = lib.get("goblin").unwrap();
    assert!(!g.is_abstract(), "abstract is not inherited");
    assert_eq!(g.get(&HPS), Ok(8));
    assert_eq!(g.get(&ATTACK), Ok(2), "inherited");
    assert_eq!(g.get(&WEIGHT), Ok(40.0), "an integer is a fine number");
    assert_eq!(g.get(&LEVEL), Ok(2));
    assert_eq!(g.get(&GLYPH), Ok('g'));
    assert_eq!(g.get(&ON_HIT), Ok(Hook::new("bite")));
    assert_eq!(g.get(&TAGS).unwrap().len(), 3);
    assert_eq!(g.parent(), Some("base goblinoid"));
    let m = &g.modifiers()[0];
    assert_eq!(
        (m.key.name(), &m.op, m.priority),
        ("attack", &ModOp::Add(2), 1)
    );
    assert_eq!(m.while_flag.as_ref().map(|k| k.name()), Some("worn"));
}

#[test]
fn mods_extend_copy_and_delete_in_order() {
    let m = r##"
[proto.goblin]
extend = true
hps = 9

[proto."goblin chief"]
copy-from = "goblin"
name = "goblin chief"

[proto."fat goblinoid"]
copy-from = "base goblinoid"

[tile.floor]
extend = true
glyph = ","

[tile.moss]
copy-from = "floor"
colour = "#00FF00"
"##;
    let lib = load(&[("base.toml", BASE), ("mod.toml", m)])
        .unwrap()
        .library;
    let g = lib.get("goblin").unwrap();
    assert_eq!(g.get(&HPS), Ok(9), "extended");
    assert_eq!(g.get(&GLYPH), Ok('g'), "fields it does not name are kept");
    let chief = lib.get("goblin chief").unwrap();
    assert_eq!(chief.get(&HPS), Ok(9), "copied after the extend above it");
    assert_eq!(chief.get(&GLYPH), Ok('g'));
    assert_eq!(chief.get(&NAME).unwrap().as_ref(), "goblin chief");
    assert_eq!(
        chief.parent(),
        Some("base goblinoid"),
        "the parent is copied"
    );
    assert_eq!(chief.modifiers().len(), 1, "inherited modifiers");
    assert!(
        !lib.get("fat goblinoid").unwrap().is(&ABSTRACT),
        "abstract is not copied"
    );
    let floor = lib.tile(lib.tile_id("floor").unwrap()).unwrap();
    assert_eq!((floor.get(&GLYPH), floor.is(&WALKABLE)), (Ok(','), true));
    assert_eq!(
        lib.tile_id("moss").unwrap().0,
        3,
        "a new tile comes after the base's"
    );
    let moss = lib.tile(lib.tile_id("moss").unwrap()).unwrap();
    assert_eq!((moss.get(&GLYPH), moss.is(&WALKABLE)), (Ok(','), true));

    let gone = load(&[
        ("base.toml", BASE),
        (
            "m.toml",
            "[proto.rat]\ndelete = true\n[proto.goblin]\nextend = true\ndrops = \"goblin\"\n",
        ),
    ])
    .unwrap()
    .library;
    assert!(!gone.contains("rat"));
    assert_eq!(gone.len(), 2);
}

#[test]
fn deleting_a_parent_or_a_referred_prototype_is_reported_where_it_is_used() {
    let e = errors(&[
        ("base.toml", BASE),
        (
            "m.toml",
            "[proto.\"base goblinoid\"]\ndelete = true\n[proto.rat]\ndelete = true\n",
        ),
    ]);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e[0].starts_with("base.toml:18:10: prototype \"goblin\" derives from \"base goblinoid\", which no source defines, deleted at m.toml:1:8"), "{e:#?}");
    assert!(
        e[1].starts_with("base.toml:26:9: \"drops\" names prototype \"rat\""),
        "{e:#?}"
    );
}

#[test]
fn the_mod_rules_refuse_what_they_do_not_allow() {
    let e = errors(&[
        ("base.toml", BASE),
        (
            "m.toml",
            "[proto.rat]\nhps = 4\n\n[proto.gobln]\nextend = true\n\n[proto.bat]\ncopy-from = \"rta\"\n\n[proto.goblin]\ndelete = true\nhps = 2\n\n[tile.wall]\ndelete = true\n\n[tile.floor]\nparent = \"wall\"\nextend = true\n",
        ),
    ]);
    assert_eq!(
        e,
        [
            "m.toml:1:8: prototype \"rat\" is already defined at base.toml:29:8; to change some of its fields, add `extend = true`",
            "m.toml:4:8: `extend` names prototype \"gobln\", which is not defined above this point; did you mean \"goblin\"?",
            "m.toml:8:13: `copy-from` names prototype \"rta\", which is not defined above this point; did you mean \"rat\"?",
            "m.toml:12:1: a `delete = true` table says nothing else, but this one sets \"hps\"",
            "m.toml:14:7: tile \"wall\" cannot be deleted: maps refer to tiles by number; change it with `extend = true` instead",
            "m.toml:18:10: tiles have no parent: use `copy-from` to start from another tile",
        ]
    );
}

#[test]
fn cycles_are_found_and_reported_once() {
    let e = load(&[(
        "c.toml",
        "[proto.a]\nparent = \"b\"\n[proto.b]\nparent = \"c\"\n[proto.c]\nparent = \"a\"\n[proto.d]\nparent = \"a\"\n",
    )])
    .unwrap_err();
    assert_eq!(e.errors().len(), 1, "{e}");
    assert_eq!(e.errors()[0].kind, ErrorKind::Cycle);
    assert_eq!(
        e.to_string(),
        "c.toml:2:10: prototype \"a\" derives from itself: \"a\" → \"b\" → \"c\" → \"a\""
    );
}

/// Issue 27's bar: different mistakes in one file (six kinds here), one message each, all at
/// once, each with its line and column.
#[test]
fn six_mistakes_in_one_file_give_six_messages_with_places() {
    let text = r#"[proto.goblin]
name = "goblin"
hsp = 8
glyph = "gg"

[proto.orc]
parent = "goblinn"
on_hit = "bitte"
drops = "ratt"

[proto.rat]
hps = 2

[proto.rat]
hps = 3
"#;
    let e = load(&[("monsters.toml", text)]).unwrap_err();
    let got: Vec<String> = e.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "monsters.toml:3:1: unknown key \"hsp\" in prototype \"goblin\"; did you mean \"hps\"?",
            "monsters.toml:4:9: \"glyph\" takes a character (char): write a text of one character, e.g. \"g\"; found the text \"gg\"",
            "monsters.toml:7:10: prototype \"orc\" derives from \"goblinn\", which no source defines; did you mean \"goblin\"?",
            "monsters.toml:8:10: \"on_hit\" names hook \"bitte\", which is not registered; did you mean \"bite\"?",
            "monsters.toml:9:9: \"drops\" names prototype \"ratt\", which no source defines; did you mean \"rat\"?",
            "monsters.toml:14:8: duplicate key \"rat\": a name is defined once per file (a later file changes an earlier one's entry with `extend = true`)",
        ]
    );
    let kinds: Vec<ErrorKind> = e.errors().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::UnknownKey,
            ErrorKind::WrongType,
            ErrorKind::UnknownParent,
            ErrorKind::UnknownHook,
            ErrorKind::UnknownPrototype,
            ErrorKind::Duplicate,
        ]
    );
}

#[test]
fn syntax_errors_have_places_and_other_files_are_still_checked() {
    let e = load(&[
        ("a.toml", "[proto.rat]\nhps = = 3\n"),
        ("b.toml", "[proto.bat]\nhsp = 1\n"),
    ])
    .unwrap_err();
    let e = e.errors();
    assert_eq!(e.len(), 3, "{e:#?}");
    assert_eq!(
        (e[0].file.as_str(), e[0].kind, e[0].line, e[0].column),
        ("a.toml", ErrorKind::Syntax, 2, 7)
    );
    assert_eq!(
        (e[1].file.as_str(), e[1].kind),
        ("a.toml", ErrorKind::Syntax)
    );
    assert_eq!(
        (e[2].file.as_str(), e[2].kind, e[2].line),
        ("b.toml", ErrorKind::UnknownKey, 2)
    );
}

#[test]
fn wrong_types_and_ranges_are_refused() {
    let e = errors(&[(
        "t.toml",
        "[proto.x]\nhps = 3000000000\nattack = 1.5\ncolour = \"#12345\"\nwalkable = 1\nweight = \"heavy\"\n[section.y]\n",
    )]);
    assert_eq!(e.len(), 6, "{e:#?}");
    assert!(
        e[0].starts_with("t.toml:2:7: \"hps\" takes an integer (i32)"),
        "{e:#?}"
    );
    assert!(
        e[1].starts_with("t.toml:3:10: \"attack\" takes an integer"),
        "{e:#?}"
    );
    assert!(
        e[2].starts_with("t.toml:4:10: \"colour\" takes a colour (Rgb)"),
        "{e:#?}"
    );
    assert!(
        e[3].starts_with("t.toml:5:12: \"walkable\" takes a flag"),
        "{e:#?}"
    );
    assert!(
        e[4].starts_with("t.toml:6:10: \"weight\" takes a decimal number (f64)"),
        "{e:#?}"
    );
    assert!(
        e[5].starts_with("t.toml:7:2: unknown section \"section\""),
        "{e:#?}"
    );
}

#[test]
fn modifier_mistakes_are_reported() {
    let e = errors(&[(
        "m.toml",
        "[proto.x]\nmodifiers = [{ key = \"atack\", add = 1 }, { key = \"hps\" }, { key = \"hps\", scale = [1], while = \"hps\" }, { key = \"hps\", ad = 1 }]\n",
    )]);
    assert_eq!(e.len(), 5, "{e:#?}");
    assert!(
        e[0].starts_with(
            "m.toml:2:22: modifier of unknown key \"atack\"; did you mean \"attack\"?"
        ),
        "{e:#?}"
    );
    assert!(e[1].contains("needs exactly one of add"), "{e:#?}");
    assert!(
        e[2].contains("\"scale\" takes [numerator, denominator]"),
        "{e:#?}"
    );
    assert!(e[3].contains("needs exactly one of add"), "{e:#?}");
    assert!(
        e[4].starts_with("m.toml:2:119: unknown modifier field \"ad\"; did you mean \"add\"?"),
        "{e:#?}"
    );
}

#[test]
fn the_hash_follows_the_data_and_nothing_else() {
    let a = load(&[("base.toml", BASE)]).unwrap().hash();
    let again = load(&[("other-name.toml", BASE)]).unwrap().hash();
    assert_eq!(a, again);
    let changed = load(&[
        ("base.toml", BASE),
        ("m.toml", "[proto.rat]\nextend = true\nhps = 4\n"),
    ])
    .unwrap()
    .hash();
    assert_ne!(a, changed);
    let same = load(&[
        ("base.toml", BASE),
        ("m.toml", "[proto.rat]\nextend = true\nhps = 3\n"),
    ])
    .unwrap()
    .hash();
    assert_eq!(a, same, "a mod that changes nothing keeps the hash");
}

#[test]
fn the_schema_describes_itself() {
    let s = schema();
    let d = s.describe();
    assert!(d.contains("hps"), "{d}");
    let line = d.lines().find(|l| l.starts_with("attack ")).unwrap();
    assert!(
        line.contains("an integer (i32)")
            && line.contains("attack value")
            && line.contains("[default 1]"),
        "{line}"
    );
    assert!(
        d.lines()
            .any(|l| l.starts_with("drops ") && l.contains("[names a prototype]")),
        "{d}"
    );
    assert!(s.get("alembic.level").is_some());
}
