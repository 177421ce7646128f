//! A hash of loaded data that does not depend on the build, the platform or the order of
//! insertion: what a save can record to say which data it was played with.

use std::fmt;

use alembic::Library;
use serde::Serialize;

/// A stable 64-bit hash of a library's prototypes and tiles (FNV-1a over a canonical JSON
/// form: prototypes by name, properties by key name, tiles by number). The library's
/// [`LibraryId`](alembic::library::LibraryId) is not part of it.
///
/// ```
/// use alembic::{Library, Prop, Props};
/// use alembic_data::DataHash;
/// const HPS: Prop<i32> = Prop::new("hps");
/// let a = Library::new().proclaim("rat", None, Props::new().with(&HPS, 3))?;
/// let b = Library::new().proclaim("rat", None, Props::new().with(&HPS, 4))?;
/// assert_ne!(DataHash::of(&a), DataHash::of(&b));
/// assert_eq!(DataHash::of(&a), DataHash::of(&a.clone().named("rats", 2)));
/// # Ok::<(), alembic::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct DataHash(pub u64);

impl fmt::Display for DataHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

#[derive(Serialize)]
struct Canon<'a> {
    protos: Vec<CanonProto<'a>>,
    tiles: Vec<(&'a str, Vec<(&'a str, &'a alembic::props::Value)>)>,
}

#[derive(Serialize)]
struct CanonProto<'a> {
    name: &'a str,
    parent: Option<&'a str>,
    props: Vec<(&'a str, &'a alembic::props::Value)>,
    modifiers: &'a [alembic::props::Modifier],
}

fn sorted(map: &alembic::props::PropMap) -> Vec<(&str, &alembic::props::Value)> {
    let mut v: Vec<_> = map.iter().map(|(k, v)| (k.name(), v)).collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

impl DataHash {
    /// The hash of `lib`'s prototypes and tiles.
    #[must_use]
    pub fn of(lib: &Library) -> Self {
        let mut protos: Vec<CanonProto<'_>> = lib
            .prototypes()
            .map(|p| CanonProto {
                name: p.name(),
                parent: p.parent(),
                props: sorted(p.props()),
                modifiers: p.modifiers(),
            })
            .collect();
        protos.sort_by(|a, b| a.name.cmp(b.name));
        let tiles = lib
            .tiles()
            .map(|(_, t)| (t.name(), sorted(t.props())))
            .collect();
        let canon = Canon { protos, tiles };
        // Serialising plain data to a Vec cannot fail; an empty text would still hash.
        let bytes = serde_json::to_vec(&canon).unwrap_or_default();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        DataHash(h)
    }
}
