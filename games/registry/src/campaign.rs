//! The reliability campaign's cases, past the checksum: a real save or recording is edited
//! *by structure* (a value in the state replaced, removed, duplicated, swapped; a recording's
//! line changed, dropped, duplicated, cut), then sealed again (the save's checksum, the
//! recording's checkpoints recomputed), so the loader's own checks and the engine's `link`
//! judge it, not the checksum. Raw bytes almost never get past a 64-bit checksum.
//!
//! The bytes that steer an edit come from a fuzzer (the `fuzz/` targets) or from a seeded
//! generator (`examples/campaign.rs`, `scripts/campaign.sh`). Each case ends in a
//! [`Verdict`]; a panic or a hang is the caller's to catch and time.

use std::path::Path;

use alembic::Game;
use alembic::replay::{Entry, Recording};
use serde_json::Value;

use crate::alchemy::{self, Command, RuleError, Rules, save};

/// What one case came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refused with an error: right for a damaged file.
    Refused,
    /// Accepted, and sound: it plays, saves and loads back.
    Accepted,
    /// Accepted, but broken: an engine invariant fails, or a command meets an engine error.
    CorruptAccepted(String),
    /// Accepted, but the game could not be saved back and loaded: it would be lost.
    Lost(String),
}

/// Reads the fuzzer's bytes as small numbers; past the end, zeros.
struct Steer<'a> {
    data: &'a [u8],
    at: usize,
}

impl Steer<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let v = u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()]);
        v as usize % n
    }
}

/// Every node of `v` as a JSON pointer, the root first.
fn pointers(v: &Value, here: &mut String, out: &mut Vec<String>) {
    out.push(here.clone());
    let len = here.len();
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                here.push('/');
                here.push_str(&k.replace('~', "~0").replace('/', "~1"));
                pointers(child, here, out);
                here.truncate(len);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                here.push('/');
                here.push_str(&i.to_string());
                pointers(child, here, out);
                here.truncate(len);
            }
        }
        _ => {}
    }
}

/// Values an edit puts in: the edges of every type.
fn odd_value(s: &mut Steer<'_>) -> Value {
    match s.below(12) {
        0 => Value::from(i64::MAX),
        1 => Value::from(-1),
        2 => Value::from(0),
        3 => Value::from(u64::MAX),
        4 => Value::from(1e300),
        5 => Value::from("x".repeat(s.below(70_000))),
        6 => Value::Null,
        7 => Value::Array(Vec::new()),
        8 => Value::Object(serde_json::Map::new()),
        9 => Value::Bool(s.byte().is_multiple_of(2)),
        10 => Value::from(i64::from(s.byte()) - 128),
        _ => Value::from("\u{0}\u{fffd}"),
    }
}

/// One structural edit of `v`, steered by `s`.
fn edit(v: &mut Value, s: &mut Steer<'_>) {
    let mut all = Vec::new();
    pointers(v, &mut String::new(), &mut all);
    // Never the root itself: a state that is not an object is refused at once, uninteresting.
    let pick = all
        .get(1 + s.below(all.len().saturating_sub(1)))
        .cloned()
        .unwrap_or_default();
    let other = all.get(s.below(all.len())).cloned().unwrap_or_default();
    let op = s.below(5);
    let copy = v.pointer(&other).cloned();
    let (parent, last) = match pick.rsplit_once('/') {
        Some((p, l)) => (p.to_owned(), l.replace("~1", "/").replace("~0", "~")),
        None => return,
    };
    match op {
        // Replace with an odd value.
        0 | 1 => {
            let new = odd_value(s);
            if let Some(t) = v.pointer_mut(&pick) {
                *t = new;
            }
        }
        // Remove it.
        2 => match v.pointer_mut(&parent) {
            Some(Value::Object(m)) => {
                m.remove(&last);
            }
            Some(Value::Array(a)) => {
                if let Ok(i) = last.parse::<usize>()
                    && i < a.len()
                {
                    a.remove(i);
                }
            }
            _ => {}
        },
        // Duplicate it (in an array), else put another node's value there.
        3 => {
            if let Some(Value::Array(a)) = v.pointer_mut(&parent)
                && let Ok(i) = last.parse::<usize>()
                && let Some(x) = a.get(i).cloned()
            {
                a.insert(i, x);
            } else if let (Some(t), Some(c)) = (v.pointer_mut(&pick), copy) {
                *t = c;
            }
        }
        // Another node's value here.
        _ => {
            if let (Some(t), Some(c)) = (v.pointer_mut(&pick), copy) {
                *t = c;
            }
        }
    }
}

/// A save of Alchemy edited by structure from `base` (a real save's text), steered by
/// `data`, and sealed again; `None` when `base` is not an envelope this can edit.
#[must_use]
pub fn mutate_save(base: &str, data: &[u8]) -> Option<String> {
    let mut env: Value = serde_json::from_str(base).ok()?;
    let mut s = Steer { data, at: 0 };
    let edits = 1 + s.below(4);
    for _ in 0..edits {
        // Mostly the state; sometimes the modes.
        if s.below(10) == 0 {
            let modes = match s.below(3) {
                0 => Value::Array(Vec::new()),
                1 => Value::from(vec!["practice"]),
                _ => Value::from(vec!["wizard", "practice"]),
            };
            if let Some(m) = env.get_mut("modes") {
                *m = modes;
            }
        } else if let Some(state) = env.get_mut("state") {
            edit(state, &mut s);
        }
    }
    let text = serde_json::to_string(&env).ok()?;
    save::reseal(&text).ok()
}

/// Load `text` as an Alchemy save and judge what came of it: refused, or accepted and then
/// checked (invariants, seven commands, a save to `scratch` loaded back).
#[must_use]
pub fn check_save(text: &str, rules: &Rules, scratch: &Path) -> Verdict {
    let Ok(game) = save::from_text(text, rules) else {
        return Verdict::Refused;
    };
    if let Err(e) = game.check_invariants() {
        return Verdict::CorruptAccepted(format!("an invariant fails: {e}"));
    }
    let mut g = game;
    for cmd in [
        Command::Wait,
        Command::Move(alembic::Dir::East),
        Command::Move(alembic::Dir::South),
        Command::PickUp(None),
        Command::Descend,
        Command::Move(alembic::Dir::West),
        Command::Wait,
    ] {
        match alchemy::apply(&g, rules, cmd) {
            Ok(o) => g = o.game,
            Err(RuleError::Engine(e)) => {
                return Verdict::CorruptAccepted(format!("a command met an engine error: {e}"));
            }
            Err(_) => {}
        }
    }
    // Loaded, its modes are known ones.
    let modes = alembic_session::Modes::parse(save::modes_of(text)).unwrap_or_default();
    if let Err(e) = save::save_checked(&g, scratch, &modes, rules) {
        // Refusing to write is right when the played game would not load back; the old
        // save is kept then, so nothing is lost.
        return match save::from_text(text, rules) {
            Ok(_) if scratch.is_file() => Verdict::Lost(e.to_string()),
            _ => Verdict::Accepted,
        };
    }
    match save::load(scratch, rules) {
        Ok(back) if back.state_hash() == g.state_hash() => Verdict::Accepted,
        Ok(_) => Verdict::Lost("the save loads back as another game".to_owned()),
        Err(e) => Verdict::Lost(format!("the save does not load back: {e}")),
    }
}

/// A recording of Alchemy edited by structure from `base`, steered by `data`: a command
/// changed, a line dropped, duplicated or swapped, a turn or the header changed, or the file
/// cut; then every checkpoint recomputed by replaying it (up to the first command refused),
/// so the edit reaches the replay's own checks. Returns the file's text.
#[must_use]
pub fn mutate_recording(base: &Recording<Command>, data: &[u8], rules: &Rules) -> String {
    let mut s = Steer { data, at: 0 };
    let mut rec = base.clone();
    let n = rec.entries.len();
    let edits = 1 + s.below(3);
    let mut cut = None;
    for _ in 0..edits {
        let i = s.below(n.max(1));
        match s.below(8) {
            0 => {
                if i < rec.entries.len() {
                    rec.entries.remove(i);
                }
            }
            1 => {
                if let Some(e) = rec.entries.get(i).cloned() {
                    rec.entries.insert(i, e);
                }
            }
            2 => {
                let j = s.below(rec.entries.len().max(1));
                if i < rec.entries.len() && j < rec.entries.len() {
                    rec.entries.swap(i, j);
                }
            }
            3 => {
                let cmd = match s.below(5) {
                    0 => Command::Descend,
                    1 => Command::Ascend,
                    2 => Command::PickUp(None),
                    3 => Command::Move(alembic::Dir::North),
                    _ => Command::Craft("potion of healing".into()),
                };
                if let Some(Entry::Command { command, .. }) = rec.entries.get_mut(i) {
                    *command = cmd;
                }
            }
            4 => {
                let delta = s.below(5) as u64;
                if let Some(Entry::Command { turn, .. }) = rec.entries.get_mut(i) {
                    *turn = turn.saturating_add(delta);
                }
            }
            5 => {
                rec.header.seed = rec.header.seed.wrapping_add(1 + s.below(3) as u64);
            }
            6 => {
                rec.header = rec.header.clone().with_mode("wizard");
            }
            _ => cut = Some(s.below(64) + 1),
        }
    }
    // Seal: recompute the checkpoints by replaying, as far as the commands go.
    let modes = alembic_session::Modes::parse(&rec.header.modes).map_err(alembic::Error::from);
    if let Ok(mut g) = modes.and_then(|m| alchemy::new_game_in_modes(rec.header.seed, rules, &m)) {
        let mut ok = true;
        for e in &mut rec.entries {
            match e {
                Entry::Command { turn, command } if ok => {
                    if g.turn() != *turn {
                        ok = false;
                        continue;
                    }
                    match alchemy::apply(&g, rules, command.clone()) {
                        Ok(o) => g = o.game,
                        Err(_) => ok = false,
                    }
                }
                Entry::Checkpoint { turn, hash } if ok => {
                    *turn = g.turn();
                    *hash = g.state_hash();
                }
                _ => {}
            }
        }
    }
    let text = rec.to_text().unwrap_or_default();
    match cut {
        Some(k) if text.len() > k => {
            let at = text.len() - k;
            let at = (0..=at)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            text[..at].to_owned()
        }
        _ => text,
    }
}

/// Open the recording at `path` every way the game does (verify, the viewer to its end,
/// and as the journal of `save`, the game at its first checkpoint) and judge it.
#[must_use]
pub fn check_recording(path: &Path, save: &Game) -> Verdict {
    use crate::sim::SimGame;
    let verified = crate::sim::ALCHEMY_SIM.verify(path);
    let Ok(rules) = Rules::new() else {
        return Verdict::Refused;
    };
    if let Ok(mut p) = crate::alchemy::ui::replay::open(path, &rules) {
        p.handle(&alembic_ui::Input::key(alembic_ui::Key::End));
        if let Some(g) = p.current()
            && let Err(e) = g.check_invariants()
        {
            return Verdict::CorruptAccepted(format!("a replayed state breaks an invariant: {e}"));
        }
    }
    let step = |g: &Game, c: &Command| alchemy::apply(g, &rules, c.clone()).map(|o| o.game);
    let journal = crate::record::Recorder::<Command>::journal(path, "alchemy", save, step);
    if let Ok(j) = &journal
        && let Err(e) = j.game.check_invariants()
    {
        return Verdict::CorruptAccepted(format!("a journal's game breaks an invariant: {e}"));
    }
    match verified {
        Ok(_) => Verdict::Accepted,
        Err(_) => Verdict::Refused,
    }
}
