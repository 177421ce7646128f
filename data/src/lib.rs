//! Roguelike content as data: TOML files read into an [`alembic::Library`].
//!
//! A game declares its property keys once in a [`Schema`] (type and a line of
//! documentation each); a [`Loader`] reads sources in order — the game's base data, then
//! each mod — and returns a new library, or every mistake of every source with
//! `file:line:column` and a "did you mean" where a near name exists. Bad data never panics
//! and changes nothing.
//!
//! The format (the full rules, with examples, are in `docs/modding.md`):
//!
//! ```toml
//! [tile.floor]
//! walkable = true
//! glyph = "."
//! colour = "#968A73"
//!
//! [proto."base goblinoid"]
//! alembic.abstract = true     # engine keys are dotted: alembic.level, alembic.freq …
//! hps = 5
//!
//! [proto.goblin]
//! parent = "base goblinoid"   # inherits every property and modifier
//! hps = 8
//! modifiers = [{ key = "attack", add = 2, while = "wielded" }]
//!
//! # In a mod, loaded after the base:
//! [proto.goblin]
//! extend = true               # change only the fields named here
//! hps = 9
//!
//! [proto."goblin chief"]
//! copy-from = "goblin"        # a new prototype starting as a copy
//!
//! [proto.kobold]
//! delete = true
//! ```
//!
//! Why TOML: it is the Rust ecosystem's format for hand-written files (`Cargo.toml`), it has
//! comments, and its tables (`[proto.goblin]`) read as one entry each, with no braces to
//! balance. Every key and value keeps its place in the file, so errors point at it.
//!
//! ```
//! use alembic::Prop;
//! use alembic_data::{ErrorKind, Loader, Schema};
//! const HPS: Prop<i32> = Prop::new("hps");
//! let schema = Schema::new().key(&HPS, "hit points at full health");
//! let bad = "[proto.rat]\nhps = \"many\"\n\n[proto.bat]\nparent = \"rta\"\n";
//! let errors = Loader::new(&schema).source("bad.toml", bad).load().unwrap_err();
//! let kinds: Vec<_> = errors.errors().iter().map(|e| (e.kind, e.line, e.column)).collect();
//! assert_eq!(kinds, [(ErrorKind::WrongType, 2, 1), (ErrorKind::UnknownParent, 5, 1)]);
//! assert!(errors.to_string().ends_with("did you mean \"rat\"?"));
//! ```

#![warn(missing_docs)]

mod error;
mod hash;
mod load;
mod schema;

pub use error::{DataError, DataErrors, ErrorKind};
pub use hash::DataHash;
pub use load::{Loaded, Loader, RESERVED};
pub use schema::{KeyInfo, Schema};

/// Load every `.toml` file of `dir`, sorted by name, as one source each (the loader's own
/// order rules then apply). A path to one file loads that file.
///
/// # Errors
/// A file that cannot be read is reported as a [`DataError`] of kind [`ErrorKind::Invalid`]
/// at line 1, column 1 of that path.
pub fn read_sources(path: &std::path::Path) -> Result<Vec<(String, String)>, DataErrors> {
    let io = |p: &std::path::Path, e: std::io::Error| {
        DataErrors(vec![DataError {
            file: p.display().to_string(),
            line: 1,
            column: 1,
            offset: 0,
            kind: ErrorKind::Invalid,
            key: None,
            message: format!("cannot read: {e}"),
            suggestion: None,
        }])
    };
    let mut files = Vec::new();
    if path.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| io(path, e))?;
        for entry in entries {
            let p = entry.map_err(|e| io(path, e))?.path();
            if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
        files.sort();
    } else {
        files.push(path.to_path_buf());
    }
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).map_err(|e| io(&p, e))?;
            Ok((p.display().to_string(), text))
        })
        .collect()
}
