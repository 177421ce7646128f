//! Reading what 0.1 wrote: the engine's property keys were renamed into the `alembic.`
//! namespace in 0.2 (so a game's own `speed` or `level` can never mean something else to the
//! engine), and saves written before that are renamed on load. Private: the save and game
//! loaders call it; nothing else needs to.

use std::sync::Arc;

use crate::library::{Library, Prototype};
use crate::props::{Modifier, PropKey, PropMap};

/// The key-naming generation a game value is written with: 0 (absent) before 0.2, when the
/// engine's keys had bare names.
pub(crate) const KEY_NAMES: u32 = 2;

use crate::library::LEGACY_KEYS;

/// `key` under its 0.2 name.
pub(crate) fn key(key: &PropKey) -> PropKey {
    LEGACY_KEYS
        .iter()
        .find(|(old, _)| *old == key.name())
        .map_or_else(|| key.clone(), |(_, new)| PropKey::from_static(new))
}

fn renames(k: &PropKey) -> bool {
    LEGACY_KEYS.iter().any(|(old, _)| *old == k.name())
}

/// `map` with its keys under their 0.2 names (the same map when nothing is renamed).
pub(crate) fn map(map: &PropMap) -> PropMap {
    if !map.iter().any(|(k, _)| renames(k)) {
        return map.clone();
    }
    let mut out = PropMap::new();
    for (k, v) in map.iter() {
        out.insert_mut(&key(k), v.clone());
    }
    out
}

/// `m` reading and flagged by keys under their 0.2 names.
pub(crate) fn modifier(m: &Modifier) -> Modifier {
    Modifier {
        key: key(&m.key),
        while_flag: m.while_flag.as_ref().map(key),
        ..m.clone()
    }
}

/// Modifiers under their 0.2 key names.
pub(crate) fn modifiers(mods: &[Modifier]) -> Arc<[Modifier]> {
    mods.iter().map(modifier).collect()
}

/// A prototype under 0.2 key names.
pub(crate) fn prototype(p: &Prototype) -> Prototype {
    Prototype {
        props: map(&p.props),
        mods: modifiers(&p.mods),
        ..p.clone()
    }
}

/// A library as 0.1 wrote it, read as 0.2: keys renamed, and every prototype named
/// `"base …"` flagged abstract, as 0.1 treated it by its name.
pub(crate) fn library(lib: &Library) -> Library {
    let mut out = lib.clone();
    for p in lib.prototypes() {
        let mut q = prototype(p);
        if q.name.starts_with("base ") {
            q.props.insert_mut(
                crate::library::ABSTRACT.key(),
                crate::props::Value::Bool(true),
            );
        }
        if q != *p {
            out.put_proto(Arc::new(q));
        }
    }
    out
}
