//! Which data a game plays with: its shipped data (compiled in) or a data directory given
//! with `--data DIR`, then the mods: those in the `mods/GAME/` folder beside the saves, in
//! name order, then each `--mod DIR` in command-line order (later sources override earlier
//! ones, as Cataclysm DDA's mods override the base game).
//!
//! A game played with anything but its shipped data carries its [`DataIdentity`] in its
//! modes (`mod:NAME` for each mod, `data:HASH` for the whole library), which saves and
//! recordings already keep under their checksums. Loading such a save with other data is
//! refused with one sentence saying what differs ([`DataIdentity::check_save`]); a game on
//! the shipped data carries nothing, so its saves and recordings are those of a build
//! without mods.

use std::path::{Path, PathBuf};

use alembic_data::{DataError, DataErrors, DataHash, ErrorKind};

/// Where a game's data comes from, as asked on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataChoice {
    /// Read the game's data from this directory (its `.toml` files, in name order) instead
    /// of the shipped data.
    pub data_dir: Option<PathBuf>,
    /// Mod directories (or single `.toml` files), loaded after the data, in this order.
    pub mods: Vec<PathBuf>,
    /// The folder whose entries (directories or `.toml` files, in name order) are mods
    /// loaded before [`mods`](Self::mods): `mods/GAME/` in the save directory.
    pub mods_folder: Option<PathBuf>,
}

/// The sources a game's library is loaded from, in order, and what they are called.
#[derive(Clone, Debug)]
pub struct DataSources {
    /// `(file name, text)` of each source: the data first, then each mod's files.
    pub files: Vec<(String, String)>,
    /// The mods' names (a directory's or file's name), in load order.
    pub mods: Vec<String>,
    /// The data came from a directory, not from the shipped files.
    pub custom_data: bool,
}

impl DataChoice {
    /// Whether this asks for the shipped data and no mods besides what the mods folder
    /// holds.
    #[must_use]
    pub fn is_plain(&self) -> bool {
        self.data_dir.is_none() && self.mods.is_empty()
    }

    /// Whether anything but the shipped data is asked for: a data directory, a `--mod`, or
    /// a mod in the mods folder.
    #[must_use]
    pub fn wants_other_data(&self) -> bool {
        !self.is_plain()
            || self
                .mods_folder
                .as_deref()
                .is_some_and(|f| !folder_mods(f).is_empty())
    }

    /// Read the sources: the data directory (or `shipped`, a `(file name, text)` pair),
    /// then every mod.
    ///
    /// # Errors
    /// A file or directory that cannot be read, a mod directory holding no `.toml` file,
    /// or a data directory holding none, each with its path.
    pub fn read(&self, shipped: (&str, &str)) -> Result<DataSources, DataErrors> {
        let mut files = Vec::new();
        let mut errors = Vec::new();
        match &self.data_dir {
            Some(dir) => match read_one(dir, "data directory") {
                Ok(f) => files.extend(f),
                Err(e) => errors.extend(e.0),
            },
            None => files.push((shipped.0.to_string(), shipped.1.to_string())),
        }
        let mut mods = Vec::new();
        let mut dirs: Vec<PathBuf> = self
            .mods_folder
            .as_deref()
            .map(folder_mods)
            .unwrap_or_default();
        dirs.extend(self.mods.iter().cloned());
        for dir in dirs {
            match read_one(&dir, "mod") {
                Ok(f) => {
                    files.extend(f);
                    mods.push(mod_name(&dir));
                }
                Err(e) => errors.extend(e.0),
            }
        }
        if errors.is_empty() {
            Ok(DataSources {
                files,
                mods,
                custom_data: self.data_dir.is_some(),
            })
        } else {
            Err(DataErrors(errors))
        }
    }
}

/// The `.toml` files of a directory (or the one file), refusing an empty directory.
fn read_one(path: &Path, what: &str) -> Result<Vec<(String, String)>, DataErrors> {
    let files = alembic_data::read_sources(path)?;
    if files.is_empty() {
        return Err(DataErrors(vec![DataError {
            file: path.display().to_string(),
            line: 1,
            column: 1,
            offset: 0,
            kind: ErrorKind::Invalid,
            key: None,
            message: format!("this {what} holds no .toml file"),
            suggestion: None,
        }]));
    }
    Ok(files)
}

/// The mods of a mods folder: its directories and `.toml` files, in name order (hidden
/// entries skipped). A missing folder holds none.
fn folder_mods(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut mods: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let hidden = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| n.starts_with('.'));
            !hidden && (p.is_dir() || p.extension().is_some_and(|x| x == "toml"))
        })
        .collect();
    mods.sort();
    mods
}

/// A mod's name: its directory's name, or its file's name without `.toml`.
fn mod_name(path: &Path) -> String {
    let p = if path.extension().is_some_and(|x| x == "toml") {
        path.file_stem()
    } else {
        path.file_name()
    };
    p.map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What a game's data was: the mods by name and, when it is not the shipped data alone, the
/// hash of the whole library they make. Kept in a game's modes (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataIdentity {
    /// The mods, in load order.
    pub mods: Vec<String>,
    /// The library's [`DataHash`]; `None` for the shipped data without mods.
    pub hash: Option<DataHash>,
}

/// The mode that names a mod.
const MOD_MODE: &str = "mod:";
/// The mode that holds the data's hash.
const DATA_MODE: &str = "data:";

impl DataIdentity {
    /// The identity of a library loaded from `sources`, whose [`DataHash`] is `hash`.
    #[must_use]
    pub fn of(sources: &DataSources, hash: DataHash) -> Self {
        let custom = sources.custom_data || !sources.mods.is_empty();
        DataIdentity {
            mods: sources.mods.clone(),
            hash: custom.then_some(hash),
        }
    }

    /// The shipped data, no mods.
    #[must_use]
    pub fn shipped() -> Self {
        DataIdentity::default()
    }

    /// Whether this is the shipped data without mods.
    #[must_use]
    pub fn is_shipped(&self) -> bool {
        self.hash.is_none() && self.mods.is_empty()
    }

    /// The modes that carry this identity: none for the shipped data, else `mod:NAME` for
    /// each mod and `data:HASH`.
    #[must_use]
    pub fn to_modes(&self) -> Vec<String> {
        let mut modes: Vec<String> = self.mods.iter().map(|m| format!("{MOD_MODE}{m}")).collect();
        if let Some(h) = self.hash {
            modes.push(format!("{DATA_MODE}{h}"));
        }
        modes
    }

    /// The identity that `modes` carry (modes of other kinds are ignored).
    #[must_use]
    pub fn from_modes<S: AsRef<str>>(modes: impl IntoIterator<Item = S>) -> Self {
        let mut id = DataIdentity::default();
        for m in modes {
            let m = m.as_ref();
            if let Some(name) = m.strip_prefix(MOD_MODE) {
                id.mods.push(name.to_string());
            } else if let Some(h) = m.strip_prefix(DATA_MODE) {
                // An unreadable hash still marks the game as played on other data.
                id.hash = Some(DataHash(u64::from_str_radix(h, 16).unwrap_or(0)));
            }
        }
        id
    }

    /// Whether `mode` is one of the modes that carry a data identity (not a game mode).
    #[must_use]
    pub fn is_data_mode(mode: &str) -> bool {
        mode.starts_with(MOD_MODE) || mode.starts_with(DATA_MODE)
    }

    /// Check that a save (or recording) made with the data `saved` can be played with this
    /// data. The shipped data of another release is accepted (the library's own version
    /// decides); anything else must match exactly.
    ///
    /// # Errors
    /// One sentence saying what differs and how to continue.
    pub fn check_save(&self, saved: &DataIdentity) -> Result<(), OtherData> {
        if saved == self || (saved.is_shipped() && self.is_shipped()) {
            return Ok(());
        }
        // Recordings keep their modes sorted: the hash, not the order of names, tells
        // whether mods in another order make another game.
        let sorted = |m: &[String]| {
            let mut m = m.to_vec();
            m.sort();
            m
        };
        if sorted(&saved.mods) != sorted(&self.mods) {
            return Err(OtherData::Mods {
                saved: saved.mods.clone(),
                ours: self.mods.clone(),
            });
        }
        Err(OtherData::Data {
            saved: saved.hash,
            ours: self.hash,
        })
    }
}

/// Why a save or a recording cannot be played on this data ([`DataIdentity::check_save`]):
/// it was made on other data. Its `Display` is one sentence saying what differs and how to
/// continue.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OtherData {
    /// Other mods.
    #[error(
        "It was made with {} and this game runs with {}: start it with the same mods \
         (--mod DIR, or the mods folder) to continue it.",
        mods_phrase(saved),
        mods_phrase(ours)
    )]
    Mods {
        /// The save's mods.
        saved: Vec<String>,
        /// This game's.
        ours: Vec<String>,
    },
    /// The same mods, but the data changed since.
    #[error(
        "It was made with {} and this game runs with {}: its data files or mods have \
         changed since (start it with the data it was made with to continue it).",
        hash_phrase(*saved),
        hash_phrase(*ours)
    )]
    Data {
        /// The save's data hash (`None`: the shipped data).
        saved: Option<DataHash>,
        /// This game's.
        ours: Option<DataHash>,
    },
}

/// "the shipped data" or "data 00000000000000ab".
fn hash_phrase(h: Option<DataHash>) -> String {
    h.map_or_else(|| "the shipped data".into(), |h| format!("data {h}"))
}

/// "no mods", "the mod \"a\"", "the mods \"a\" and \"b\"", "the mods \"a\", \"b\" and \"c\"".
fn mods_phrase(mods: &[String]) -> String {
    let q: Vec<String> = mods.iter().map(|m| format!("{m:?}")).collect();
    match q.as_slice() {
        [] => "no mods".to_string(),
        [one] => format!("the mod {one}"),
        [rest @ .., last] => format!("the mods {} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(mods: &[&str], hash: Option<u64>) -> DataIdentity {
        DataIdentity {
            mods: mods.iter().map(|m| (*m).to_string()).collect(),
            hash: hash.map(DataHash),
        }
    }

    #[test]
    fn identities_travel_in_modes() {
        let a = id(&["dragons", "more rats"], Some(0xabc));
        let mut modes = vec!["practice".to_string()];
        modes.extend(a.to_modes());
        assert_eq!(DataIdentity::from_modes(&modes), a);
        assert!(id(&[], None).to_modes().is_empty());
        assert!(DataIdentity::is_data_mode("mod:x") && !DataIdentity::is_data_mode("wizard"));
    }

    #[test]
    fn a_save_on_other_data_is_refused_in_one_sentence() {
        let shipped = DataIdentity::shipped();
        let modded = id(&["dragons"], Some(1));
        assert_eq!(shipped.check_save(&shipped), Ok(()));
        assert_eq!(modded.check_save(&modded), Ok(()));
        assert_eq!(
            shipped.check_save(&modded).unwrap_err().to_string(),
            "It was made with the mod \"dragons\" and this game runs with no mods: start it \
             with the same mods (--mod DIR, or the mods folder) to continue it."
        );
        let two = id(&["a", "b"], Some(2));
        assert!(
            modded
                .check_save(&two)
                .unwrap_err()
                .to_string()
                .contains("the mods \"a\" and \"b\"")
        );
        let changed = id(&["dragons"], Some(3));
        let e = modded.check_save(&changed).unwrap_err().to_string();
        assert!(
            e.contains("data 0000000000000003") && e.contains("changed since"),
            "{e}"
        );
    }

    #[test]
    fn sources_read_in_order_and_missing_ones_are_named() {
        let dir = std::env::temp_dir().join(format!("alembic-gamedata-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("folder/b-mod")).unwrap();
        std::fs::create_dir_all(dir.join("folder/.hidden")).unwrap();
        std::fs::write(dir.join("folder/b-mod/x.toml"), "# b").unwrap();
        std::fs::write(dir.join("folder/a-mod.toml"), "# a").unwrap();
        std::fs::write(dir.join("cli.toml"), "# cli").unwrap();
        let choice = DataChoice {
            data_dir: None,
            mods: vec![dir.join("cli.toml")],
            mods_folder: Some(dir.join("folder")),
        };
        let s = choice.read(("base.toml", "# base")).unwrap();
        assert_eq!(s.mods, ["a-mod", "b-mod", "cli"]);
        let texts: Vec<&str> = s.files.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["# base", "# a", "# b", "# cli"]);
        let bad = DataChoice {
            data_dir: Some(dir.join("nowhere")),
            mods: vec![dir.join("folder/.hidden")],
            mods_folder: None,
        };
        let e = bad.read(("base.toml", "")).unwrap_err();
        assert_eq!(e.errors().len(), 2, "{e}");
        assert!(e.to_string().contains("holds no .toml file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
