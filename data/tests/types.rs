//! Every kind of value a game's data writes (what Alchemy's data needs: characters,
//! colours, decimal numbers, integers, texts, lists, hooks, enums stored by name and
//! modifiers that set them), each read right and refused with its place when wrong.

use std::sync::Arc;

use alembic::props::{Hook, ModOp, PropType, Value, ValueKind};
use alembic::{Prop, Rgb};
use alembic_data::{DataError, ErrorKind, Loaded, Loader, Schema};

/// A game's enum stored by name, as Alchemy's damage types are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    Fire,
    Ice,
}

impl Element {
    const ALL: [Element; 2] = [Element::Fire, Element::Ice];
    fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Ice => "ice",
        }
    }
}

impl PropType for Element {
    const KIND: ValueKind = ValueKind::Text;
    fn into_value(self) -> Value {
        Value::Text(Arc::from(self.name()))
    }
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Text(t) => Element::ALL.into_iter().find(|e| e.name() == &**t),
            _ => None,
        }
    }
}

const GLYPH: Prop<char> = Prop::new("glyph");
const FG: Prop<Rgb> = Prop::new("fg");
const CHANCE: Prop<f64> = Prop::with_default("chance", 0.0);
const HPS: Prop<i32> = Prop::new("hps");
const VERB: Prop<Arc<str>> = Prop::new("verb");
const TAGS: Prop<Arc<[Value]>> = Prop::new("tags");
const ON_USE: Prop<Hook> = Prop::new("on_use");
const ELEMENT: Prop<Element> = Prop::new("element");
const SOIL: Prop<Arc<str>> = Prop::new("soil");
const EFFECT: Prop<Arc<str>> = Prop::new("effect");
const WIELDED: Prop<bool> = Prop::with_default("wielded", false);

fn schema() -> Schema {
    let elements = Element::ALL.map(Element::name);
    Schema::new()
        .with_engine_keys()
        .key(&GLYPH, "drawn as")
        .key(&FG, "drawn in")
        .key(&CHANCE, "a probability")
        .key(&HPS, "hit points")
        .key(&VERB, "its verb")
        .key(&TAGS, "free-form tags")
        .hook(&ON_USE, "when used")
        .one_of(&ELEMENT, "what it burns with", &elements)
        .one_of(&SOIL, "where it grows", &["clay", "loam", "sand"])
        .prototype_ref(&EFFECT, "the effect it gives")
        .key(&WIELDED, "in hand")
}

fn load(text: &str) -> Result<Loaded, Vec<DataError>> {
    let schema = schema();
    Loader::new(&schema)
        .hooks(["drink", "eat"])
        .source("t.toml", text)
        .load()
        .map_err(|e| e.errors().to_vec())
}

/// The one error `text` gives: (kind, line, column, message with its suggestion).
fn one_error(text: &str) -> (ErrorKind, usize, usize, String) {
    let e = load(text).expect_err("an error");
    assert_eq!(e.len(), 1, "{e:#?}");
    (e[0].kind, e[0].line, e[0].column, e[0].to_string())
}

#[test]
fn characters_are_one_character_of_any_script() {
    let l = load("[proto.pool]\nglyph = \"≈\"\n[proto.rock]\nglyph = \" \"\n").unwrap();
    assert_eq!(l.library.get("pool").unwrap().get(&GLYPH), Ok('≈'));
    assert_eq!(l.library.get("rock").unwrap().get(&GLYPH), Ok(' '));
    for bad in ["\"gg\"", "\"\"", "7", "\"\\u0067\\u0067\""] {
        let text = format!("[proto.x]\nglyph = {bad}\n");
        let (kind, line, col, _) = one_error(&text);
        // At the value, after `glyph = `.
        assert_eq!((kind, line, col), (ErrorKind::WrongType, 2, 9), "{bad}");
    }
    let (kind, line, col, msg) = one_error("[proto.x]\nglyph = \"gg\"\n");
    assert_eq!((kind, line, col), (ErrorKind::WrongType, 2, 9));
    assert!(
        msg.contains("write a text of one character, e.g. \"g\"; found the text \"gg\""),
        "{msg}"
    );
}

#[test]
fn colours_are_hex_or_three_bytes() {
    let l = load("[proto.a]\nfg = \"#FF6000\"\n[proto.b]\nfg = [255, 96, 0]\n").unwrap();
    let a = l.library.get("a").unwrap().get(&FG);
    assert_eq!(a, Ok(Rgb::new(255, 96, 0)));
    assert_eq!(l.library.get("b").unwrap().get(&FG), a);
    for bad in ["\"red\"", "\"#FF600\"", "[256, 0, 0]", "[1, 2]", "16711680"] {
        let (kind, line, _, msg) = one_error(&format!("[proto.x]\nfg = {bad}\n"));
        assert_eq!((kind, line), (ErrorKind::WrongType, 2), "{bad}");
        assert!(msg.contains("write \"#RRGGBB\" or [r, g, b]"), "{msg}");
    }
}

#[test]
fn decimal_numbers_are_exact_and_integers_widen() {
    let l = load("[proto.a]\nchance = 0.15\n[proto.b]\nchance = 1\n[proto.c]\nchance = 1e-3\n")
        .unwrap();
    let get = |n: &str| l.library.get(n).unwrap().get(&CHANCE).unwrap();
    assert_eq!(get("a").to_bits(), 0.15f64.to_bits());
    assert_eq!(get("b").to_bits(), 1.0f64.to_bits());
    assert_eq!(get("c").to_bits(), 0.001f64.to_bits());
    let (kind, _, _, msg) = one_error("[proto.x]\nchance = true\n");
    assert_eq!(kind, ErrorKind::WrongType);
    assert!(msg.contains("write a number; found true"), "{msg}");
}

#[test]
fn integers_texts_lists_and_hooks_refuse_each_other() {
    let l = load("[proto.a]\nhps = -3\nverb = \"bite\"\ntags = [\"a\", \"b\"]\non_use = \"eat\"\n")
        .unwrap();
    let a = l.library.get("a").unwrap();
    assert_eq!(a.get(&HPS), Ok(-3));
    assert_eq!(a.get(&VERB).as_deref(), Ok("bite"));
    let tags: Vec<Value> = a.get(&TAGS).unwrap().to_vec();
    assert_eq!(
        tags,
        [Value::Text(Arc::from("a")), Value::Text(Arc::from("b"))]
    );
    assert_eq!(a.get(&ON_USE), Ok(Hook::new("eat")));
    let cases = [
        ("hps = \"3\"", "\"hps\" takes an integer (i32)"),
        ("verb = 3", "\"verb\" takes a text"),
        ("tags = \"a\"", "\"tags\" takes a list"),
        ("on_use = 3", "\"on_use\" takes a hook"),
    ];
    for (line, want) in cases {
        let (kind, l, c, msg) = one_error(&format!("[proto.x]\n{line}\n"));
        // At the value: one column past `= `.
        let at = line.find("= ").unwrap() + 3;
        assert_eq!((kind, l, c), (ErrorKind::WrongType, 2, at), "{line}");
        assert!(msg.contains(want), "{line}: {msg}");
    }
    let (kind, _, _, msg) = one_error("[proto.x]\non_use = \"drnk\"\n");
    assert_eq!(kind, ErrorKind::UnknownHook);
    assert!(msg.ends_with("did you mean \"drink\"?"), "{msg}");
}

#[test]
fn enums_take_one_of_their_names_with_a_suggestion() {
    let l = load("[proto.imp]\nelement = \"ice\"\nsoil = \"loam\"\n").unwrap();
    let imp = l.library.get("imp").unwrap();
    assert_eq!(imp.get(&ELEMENT), Ok(Element::Ice));
    assert_eq!(imp.get(&SOIL).as_deref(), Ok("loam"));
    let (kind, line, col, msg) = one_error("[proto.imp]\nelement = \"fyre\"\n");
    assert_eq!((kind, line, col), (ErrorKind::UnknownValue, 2, 11));
    assert_eq!(
        msg,
        "t.toml:2:11: \"element\" takes one of \"fire\", \"ice\"; found \"fyre\"; did you mean \"fire\"?"
    );
    // Far from every name: no suggestion, the list says what to write.
    let (_, _, _, msg) = one_error("[proto.imp]\nsoil = \"gravel\"\n");
    assert_eq!(
        msg,
        "t.toml:2:8: \"soil\" takes one of \"clay\", \"loam\", \"sand\"; found \"gravel\""
    );
    // Not a text at all: the wrong type.
    let (kind, _, _, _) = one_error("[proto.imp]\nelement = 2\n");
    assert_eq!(kind, ErrorKind::WrongType);
    let described = schema().describe();
    let line = described
        .lines()
        .find(|l| l.starts_with("element "))
        .unwrap();
    assert!(
        line.contains("a text (Element)") && line.ends_with("[one of: fire, ice]"),
        "{line}"
    );
    assert_eq!(
        schema().get("soil").unwrap().choices.as_deref(),
        Some(&["clay".to_string(), "loam".to_string(), "sand".to_string()][..])
    );
    assert_eq!(schema().get("verb").unwrap().choices, None);
}

#[test]
fn modifiers_set_values_of_every_kind_checked_like_fields() {
    let text = r#"
[proto.ember]
alembic.abstract = true

[proto."flaming sword"]
modifiers = [
  { key = "element", set = "fire", while = "wielded" },
  { key = "chance", set = 0.3, while = "wielded" },
  { key = "verb", set = "slash", priority = 5 },
  { key = "wielded", set = true },
  { key = "effect", set = "ember" },
  { key = "hps", scale = [2, 3], priority = 10 },
]
"#;
    let l = load(text).unwrap();
    let mods = l.library.get("flaming sword").unwrap().modifiers().to_vec();
    let ops: Vec<(&str, &ModOp, i32, Option<&str>)> = mods
        .iter()
        .map(|m| {
            (
                m.key.name(),
                &m.op,
                m.priority,
                m.while_flag.as_ref().map(|w| w.name()),
            )
        })
        .collect();
    assert_eq!(
        ops,
        [
            (
                "element",
                &ModOp::Set(Value::Text(Arc::from("fire"))),
                0,
                Some("wielded")
            ),
            ("chance", &ModOp::Set(Value::Float(0.3)), 0, Some("wielded")),
            (
                "verb",
                &ModOp::Set(Value::Text(Arc::from("slash"))),
                5,
                None
            ),
            ("wielded", &ModOp::Set(Value::Bool(true)), 0, None),
            (
                "effect",
                &ModOp::Set(Value::Text(Arc::from("ember"))),
                0,
                None
            ),
            ("hps", &ModOp::Scale { num: 2, den: 3 }, 10, None),
        ]
    );
    let bad = r#"[proto.x]
modifiers = [
  { key = "element", set = "frost" },
  { key = "chance", set = "high" },
  { key = "effect", set = "embr" },
]
[proto.ember]
"#;
    let e = load(bad).unwrap_err();
    let got: Vec<(ErrorKind, usize, String)> =
        e.iter().map(|e| (e.kind, e.line, e.to_string())).collect();
    assert_eq!(got.len(), 3, "{got:#?}");
    assert_eq!((got[0].0, got[0].1), (ErrorKind::UnknownValue, 3));
    assert!(got[0].2.contains("found \"frost\""), "{got:#?}");
    assert_eq!((got[1].0, got[1].1), (ErrorKind::WrongType, 4));
    // A modifier that sets a key naming a prototype is checked like a field, at its place.
    assert_eq!(
        (got[2].0, got[2].1, got[2].2.as_str()),
        (
            ErrorKind::UnknownPrototype,
            5,
            "t.toml:5:3: \"effect\" names prototype \"embr\", which no source defines; did you mean \"ember\"?"
        )
    );
}
