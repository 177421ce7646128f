//! Property tests: random edits of a valid file never panic, and every error they cause
//! has a place inside the edited file; what loads, loads again to the same hash.

use std::sync::Arc;

use alembic::props::Hook;
use alembic::{Prop, Rgb};
use alembic_data::{ErrorKind, Loader, Schema};
use proptest::prelude::*;

const NAME: Prop<Arc<str>> = Prop::new("name");
const GLYPH: Prop<char> = Prop::new("glyph");
const FG: Prop<Rgb> = Prop::with_default("colour", Rgb::new(200, 200, 200));
const HPS: Prop<i32> = Prop::new("hps");
const WALKABLE: Prop<bool> = Prop::with_default("walkable", false);
const WORN: Prop<bool> = Prop::with_default("worn", false);
const DROPS: Prop<Arc<str>> = Prop::new("drops");
const ON_HIT: Prop<Hook> = Prop::new("on_hit");

fn schema() -> Schema {
    Schema::new()
        .with_engine_keys()
        .key(&NAME, "name")
        .key(&GLYPH, "glyph")
        .key(&FG, "colour")
        .key(&HPS, "hit points")
        .key(&WALKABLE, "walkable")
        .key(&WORN, "worn")
        .prototype_ref(&DROPS, "drops")
        .hook(&ON_HIT, "on hit")
}

const VALID: &str = r##"[tile.floor]
walkable = true
glyph = "."
colour = "#968A73"

[proto."base goblinoid"]
alembic.abstract = true
hps = 5
modifiers = [{ key = "hps", add = 2, while = "worn" }]

[proto.goblin]
parent = "base goblinoid"
name = "goblin"
glyph = "g"
colour = [96, 224, 64]
drops = "rat"
on_hit = "bite"

[proto.rat]
name = "rat"
hps = 3
alembic.level = 2

[proto."rat king"]
copy-from = "rat"
hps = 9
"##;

/// Tokens that make the loader's interesting cases: names, reserved fields, brackets,
/// quotes, wrong types.
const TOKENS: [&str; 24] = [
    "[proto.rat]\n",
    "[tile.floor]\n",
    "parent = \"goblin\"\n",
    "parent = \"rat king\"\n",
    "copy-from = \"nobody\"\n",
    "extend = true\n",
    "delete = true\n",
    "hps = \"x\"\n",
    "hps = 99999999999\n",
    "glyph = \"\"\n",
    "colour = \"#GGGGGG\"\n",
    "on_hit = \"bitx\"\n",
    "modifiers = [{ key = \"hps\" }]\n",
    "alembic.level = true\n",
    "\"",
    "[",
    "]",
    "=",
    "\n",
    "é",
    "#",
    "{",
    ".",
    "[proto.\"base goblinoid\"]\nparent = \"goblin\"\n",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Edit::Insert(a, t)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

fn boundary(text: &str, at: usize) -> usize {
    let mut i = at % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, e: &Edit) -> String {
    match *e {
        Edit::Delete(a, n) => {
            let a = boundary(text, a);
            let b = boundary(text, (a + n).min(text.len()));
            let b = b.max(a);
            format!("{}{}", &text[..a], &text[b..])
        }
        Edit::Insert(a, t) => {
            let a = boundary(text, a);
            format!("{}{}{}", &text[..a], TOKENS[t], &text[a..])
        }
        Edit::DuplicateLine(i) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = i % lines.len();
                lines.insert(i, lines[i]);
            }
            lines.join("\n")
        }
        Edit::SwapLines(i, j) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let n = lines.len();
                lines.swap(i % n, j % n);
            }
            lines.join("\n")
        }
    }
}

#[test]
fn the_valid_file_is_valid() {
    let schema = schema();
    let loaded = Loader::new(&schema)
        .hooks(["bite"])
        .source("f.toml", VALID)
        .load();
    assert!(loaded.is_ok(), "{}", loaded.unwrap_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_edits_never_panic_and_errors_are_placed_in_the_file(
        edits in proptest::collection::vec(edit(), 1..6),
        as_mod in any::<bool>(),
    ) {
        let mut text = VALID.to_string();
        for e in &edits {
            text = apply(&text, e);
        }
        let schema = schema();
        let mut loader = Loader::new(&schema).hooks(["bite"]);
        if as_mod {
            loader = loader.source("base.toml", VALID);
        }
        loader = loader.source("edited.toml", &text);
        let lines = text.matches('\n').count() + 1;
        match loader.load() {
            Ok(loaded) => {
                prop_assert_eq!(loader.load().map(|l| l.hash()), Ok(loaded.hash()));
            }
            Err(errors) => {
                prop_assert!(!errors.errors().is_empty());
                let mut last = 0;
                for e in errors.errors() {
                    if e.file == "base.toml" {
                        // Only a reference in the base to what the edited mod deleted.
                        prop_assert!(
                            matches!(e.kind, ErrorKind::UnknownParent | ErrorKind::UnknownPrototype),
                            "{}", e
                        );
                        prop_assert!(e.offset <= VALID.len());
                        continue;
                    }
                    prop_assert_eq!(e.file.as_str(), "edited.toml", "{}", e);
                    prop_assert!(e.line >= 1 && e.line <= lines, "{}: {} lines", e, lines);
                    prop_assert!(e.column >= 1 && e.offset <= text.len(), "{}", e);
                    prop_assert!(e.offset >= last, "errors in file order");
                    last = e.offset;
                    prop_assert!(!e.message.is_empty());
                }
            }
        }
    }

    #[test]
    fn any_text_at_all_never_panics(text in "\\PC{0,200}") {
        let schema = schema();
        let r = Loader::new(&schema).source("any.toml", &text).load();
        if let Err(errors) = r {
            for e in errors.errors() {
                prop_assert!(e.offset <= text.len());
            }
        }
    }
}
