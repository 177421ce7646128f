//! Alchemy's screens read the game only through `view`, `command` and `events` (issue 16).
//!
//! Reads every source file of `games/alchemy/src/ui/` and fails if one names a game module
//! other than the allowed ones (`props::`, `rules::`, `text::`, `kinds::`...), or if
//! `prompts.rs` imports `play.rs` (which imports it: the circle of issue 16).

use std::collections::BTreeSet;
use std::error::Error;
use std::path::PathBuf;

/// The game modules (and `alchemy/mod.rs` re-exports written in lower case) the UI may name
/// after `alchemy::`. `save` is the save file the UI writes and reads; `wizard` the wizard
/// console's command registry; `ui` the UI itself.
const ALLOWED: &[&str] = &[
    "self",
    "view",
    "command",
    "events",
    "save",
    "wizard",
    "ui",
    // Re-exports of `alchemy/mod.rs`.
    "apply",
    "new_game",
    "new_game_in_modes",
    "summary",
];

/// The game's own modules that the UI must never name, not even as a bare path root (after a
/// `use crate::alchemy::props;`, `props::IS_DOOR`).
const FORBIDDEN_ROOTS: &[&str] = &[
    "props", "rules", "text", "kinds", "library", "dungeon", "hooks", "bot", "error",
];

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The items of a `{ ... }` group starting just after its `{`, split at top-level commas.
fn group_items(rest: &str) -> Vec<&str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&rest[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&rest[start..]);
    items
}

/// The first path segment of `s` (after whitespace).
fn first_segment(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    &s[..end]
}

/// Every name in `source` that breaks the rule, as `"line N: what"`.
fn violations(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let line_no = n + 1;
        // Names after `alchemy::` or `crate::` (the UI is a module of the `alembic-alchemy`
        // crate), single or grouped.
        for root in ["alchemy::", "crate::"] {
            let mut from = 0;
            while let Some(i) = line[from..].find(root) {
                let at = from + i + root.len();
                from = at;
                let rest = &line[at..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group_items(group).into_iter().map(first_segment).collect(),
                    None => vec![first_segment(rest)],
                };
                for name in names {
                    let lower = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
                    if lower && !ALLOWED.contains(&name) {
                        out.push(format!("line {line_no}: {root}{name}"));
                    }
                }
            }
        }
        // Game modules used as a path root.
        for m in FORBIDDEN_ROOTS {
            let pat = format!("{m}::");
            let mut from = 0;
            while let Some(i) = line[from..].find(&pat) {
                let at = from + i;
                from = at + pat.len();
                let before = line[..at].chars().next_back();
                if !before.is_some_and(|c| is_ident(c) || c == ':') {
                    out.push(format!("line {line_no}: {m}::"));
                }
            }
        }
        if line.contains("super::super") {
            out.push(format!("line {line_no}: super::super"));
        }
    }
    out
}

fn ui_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../alchemy/src/ui")
}

#[test]
fn the_checker_catches_each_kind_of_breach() {
    let bad = [
        "use crate::alchemy::props::{IS_DOOR, IS_OPEN};",
        "use crate::alchemy::{Command, rules::world::level_box};",
        "use crate::alchemy::{view::{self, a_name}, text};",
        "    let n = crate::alchemy::rules::stack::number(g, id);",
        "    let s = alchemy::text::all_lines(g, e);",
        "    let x = props::IS_DOOR;",
        "    let b = crate::alchemy::library::base_library();",
        "use super::super::kinds::RecipeId;",
        "use crate::props::{IS_DOOR, IS_OPEN};",
        "use crate::{Command, rules::world::level_box};",
    ];
    for line in bad {
        assert!(!violations(line).is_empty(), "not caught: {line}");
    }
    let good = [
        "use crate::view::{self, DoorState, a_name};",
        "use alembic_alchemy::{self as alchemy, Command, Outcome, RuleError, Rules};",
        "use crate::command::Command;",
        "use crate::save::{self, SaveError};",
        "    alchemy::apply(game, rules, cmd)",
        "use alembic_ui::text::wrap;",
        "    let x = view::THROW_RANGE;",
        "use crate::{self as alchemy, Command, Outcome, RuleError, Rules};",
        "use crate::view::{self, Apparatus};",
    ];
    for line in good {
        assert_eq!(
            violations(line),
            Vec::<String>::new(),
            "wrongly caught: {line}"
        );
    }
}

#[test]
fn alchemy_ui_reads_the_game_only_through_view_command_and_events() -> Result<(), Box<dyn Error>> {
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(ui_dir())? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "rs") {
            files.insert(path);
        }
    }
    // The directory really was read (a wrong path would pass vacuously).
    for must in ["play.rs", "prompts.rs", "map.rs", "travel.rs", "status.rs"] {
        assert!(
            files.iter().any(|p| p.ends_with(must)),
            "{must} not found in {}",
            ui_dir().display()
        );
    }
    let mut found = Vec::new();
    for path in &files {
        let source = std::fs::read_to_string(path)?;
        for v in violations(&source) {
            found.push(format!("{}: {v}", path.display()));
        }
    }
    assert!(
        found.is_empty(),
        "the UI names game modules other than view, command and events:\n{}",
        found.join("\n")
    );
    Ok(())
}

#[test]
fn prompts_does_not_import_play() -> Result<(), Box<dyn Error>> {
    let prompts = std::fs::read_to_string(ui_dir().join("prompts.rs"))?;
    let play = std::fs::read_to_string(ui_dir().join("play.rs"))?;
    // play.rs shows prompts; prompts.rs must not reach back into play.rs.
    assert!(
        play.contains("super::prompts::"),
        "play.rs no longer uses prompts.rs"
    );
    assert!(
        !prompts.contains("super::play"),
        "prompts.rs imports play.rs, which imports it"
    );
    Ok(())
}
