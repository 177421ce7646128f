//! Wizard mode for Alchemy: the game's commands in the engine's typed
//! [`WizardCommands`] registry.
//!
//! Every command takes the current [`Game`] and gives a **new** one (the old value is
//! untouched) plus lines to show; none takes game time. A console calls
//! [`WizardCommands::run`] with the line typed and swaps in the returned game.
//!
//! ```
//! use alembic_alchemy::{self as alchemy, Rules};
//! let rules = Rules::new()?;
//! let game = alchemy::new_game(3, &rules)?;
//! let cmds = alchemy::wizard::commands(&rules)?;
//! let out = cmds.run(&game, "depth 4")?;
//! assert_eq!(alchemy::view::status(&out.state)?.depth, 4);
//! assert_eq!(alchemy::view::status(&game)?.depth, 1); // the old game is unchanged
//! assert!(cmds.run(&game, "depth 12").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use alembic::{
    Dir, Game, HookCtx, Hooks, Loc, Place, Prop, ThingId, props::PropKey, props::Value,
    wizard::Args, wizard::WizardCommands, wizard::WizardError, wizard::WizardOutcome,
    wizard::WizardSpec,
};

use super::events;
use super::props::{
    DEEPEST, GAME_OVER, HPS, HPS_MAX, IS_EFFECT, IS_GHOST, IS_HARMFUL, IS_HERO, IS_IDENTIFIED,
    IS_IMMORTAL, IS_ITEM, IS_POTION, IS_STAIRS_UP, TIME, UNKNOWN_NAME,
};
use super::rulebook::Rules;
use super::rules::effects::{add_effect, remove_effects};
use super::rules::memory::{remember, remember_cells};
use super::rules::time::{arrive, leave_level};
use super::rules::world::{
    LEVEL_HEIGHT, LEVEL_WIDTH, LEVELS, blocker_at, creature_at, depth_of, hero, hero_view,
    items_at, level_box, scenery_at, tile_blocks, tile_dangerous,
};
use super::text::{a_name, the_name};

type Outcome = Result<WizardOutcome<Game>, WizardError>;

/// Alchemy's wizard commands: `reveal`, `ghost`, `immortal`, `summon NAME`, `depth N`,
/// `identify`, `heal`, `give NAME`, `props [DX DY]`, `wound N`, `hash` and `foresight on|off`
/// (and the built-in `help`).
/// `rules` supplies the hooks that creating things and changing level run.
///
/// # Errors
/// [`WizardError::BadDefinition`] only if a definition here is wrong (a bug).
pub fn commands(rules: &Rules) -> Result<WizardCommands<Game>, WizardError> {
    let (r1, r2, r3) = (rules.clone(), rules.clone(), rules.clone());
    WizardCommands::new()
        .register(
            WizardSpec::new("reveal", "Remember the whole current level, as if seen."),
            reveal,
        )?
        .register(
            WizardSpec::new("ghost", "Toggle walking through walls."),
            |g: &Game, _: &Args| {
                toggle(g, &IS_GHOST, "You can walk through walls", "Walls stop you")
            },
        )?
        .register(
            WizardSpec::new(
                "immortal",
                "Toggle immortality: at 0 hit points you stay at 1.",
            ),
            |g: &Game, _: &Args| toggle(g, &IS_IMMORTAL, "You are immortal", "You are mortal"),
        )?
        .register(
            WizardSpec::new(
                "summon",
                "Create any prototype next to you (effects: on you).",
            )
            .word("name", summonable),
            move |g: &Game, a: &Args| summon(g, r1.hooks(), a),
        )?
        .register(
            WizardSpec::new("depth", "Go to depth N, onto its stairs up.").int(
                "n",
                1,
                i64::from(LEVELS),
            ),
            move |g: &Game, a: &Args| depth(g, r2.hooks(), a),
        )?
        .register(
            WizardSpec::new("identify", "Identify every kind of potion and ingredient."),
            identify,
        )?
        .register(
            WizardSpec::new("heal", "Restore all hit points and end harmful effects."),
            heal,
        )?
        .register(
            WizardSpec::new("give", "Put a new item of any kind into your pack.")
                .word("name", item_names),
            move |g: &Game, a: &Args| give(g, r3.hooks(), a),
        )?
        .register(
            WizardSpec::new(
                "props",
                "Show the properties (modifiers applied) of you, or of what is at DX DY from you.",
            )
            .optional()
            .int("dx", -i64::from(LEVEL_WIDTH), i64::from(LEVEL_WIDTH))
            .int("dy", -i64::from(LEVEL_HEIGHT), i64::from(LEVEL_HEIGHT)),
            props,
        )?
        .register(
            WizardSpec::new(
                "wound",
                "Bring each monster beside you down to N hit points (if it has more).",
            )
            .int("n", 1, 1_000),
            wound,
        )?
        .register(
            WizardSpec::new("hash", "Show the turn, the game time and the state hash."),
            hash,
        )?
        .register(
            WizardSpec::new(
                "foresight",
                "Let the cunning monsters plan (on) or play them by the cheap rules (off).",
            )
            .word("state", |_| vec!["on".to_owned(), "off".to_owned()]),
            foresight,
        )
}

/// `foresight on|off`: the game variable [`FORESIGHT_OFF`](super::props::FORESIGHT_OFF).
fn foresight(g: &Game, a: &Args) -> Outcome {
    let on = match a.word("state")? {
        "on" => true,
        "off" => false,
        other => return Err(WizardError::Refused(format!("on or off, not {other}"))),
    };
    let mut w = g.clone();
    w.set_var_mut(&super::props::FORESIGHT_OFF, !on);
    let said = if on {
        "The cunning monsters plan ahead."
    } else {
        "Every monster plays by the cheap rules."
    };
    Ok(WizardOutcome::new(w).line(said.to_owned()))
}

/// An engine error as a refusal (it means a bug or corrupt data, never a rule).
fn internal(e: impl std::fmt::Display) -> WizardError {
    WizardError::Refused(format!("internal error: {e}"))
}

fn playing(g: &Game) -> Result<(), WizardError> {
    if g.var(&GAME_OVER).unwrap_or(false) {
        return Err(WizardError::Refused("The game is over.".into()));
    }
    Ok(())
}

fn hero_of(g: &Game) -> Result<ThingId, WizardError> {
    hero(g).map_err(internal)
}

/// Every prototype that can be created, sorted; not the hero (there is only one).
fn summonable(g: &Game) -> Vec<String> {
    let lib = g.library();
    let mut v: Vec<String> = lib
        .prototypes()
        .filter(|p| !p.is_abstract() && !p.is(&IS_HERO))
        .map(|p| p.name().to_string())
        .collect();
    v.sort();
    v
}

/// Every item prototype, sorted.
fn item_names(g: &Game) -> Vec<String> {
    let lib = g.library();
    let mut v: Vec<String> = lib
        .prototypes()
        .filter(|p| !p.is_abstract() && p.is(&IS_ITEM))
        .map(|p| p.name().to_string())
        .collect();
    v.sort();
    v
}

fn reveal(g: &Game, _: &Args) -> Outcome {
    let mut w = g.clone();
    let z = w.things().location(hero_of(g)?).map_err(internal)?.z;
    let cells: Vec<Loc> = level_box(z).iter().collect();
    let n = cells.len();
    remember_cells(&mut w, cells);
    Ok(WizardOutcome::new(w).line(format!(
        "You now know all {n} cells of depth {}.",
        depth_of(z)
    )))
}

fn toggle(g: &Game, flag: &Prop<bool>, on: &str, off: &str) -> Outcome {
    let h = hero_of(g)?;
    let now = !g.things().get(h).map_err(internal)?.is(flag);
    let w = g.set(h, flag, now).map_err(internal)?;
    let text = if now { on } else { off };
    Ok(WizardOutcome::new(w).line(format!("{text} ({} {now}).", flag.name())))
}

/// A free cell beside `at` for a new thing: crossable terrain, no creature, nothing blocking.
fn free_beside(g: &Game, at: Loc) -> Option<Loc> {
    at.neighbours8().find(|&l| {
        !tile_blocks(g, l)
            && !tile_dangerous(g, l)
            && creature_at(g, l).is_none()
            && blocker_at(g, l).is_none()
    })
}

fn summon(g: &Game, hooks: &Hooks, a: &Args) -> Outcome {
    playing(g)?;
    let name = a.word("name")?;
    let proto = g.library().get(name).map_err(internal)?;
    let h = hero_of(g)?;
    let mut w = g.clone();
    if proto.is(&IS_EFFECT) {
        let mut ctx = HookCtx::new(hooks);
        add_effect(&mut w, &mut ctx, h, name).map_err(internal)?;
        super::text::record(&mut w, &events::take(&mut ctx));
        return Ok(WizardOutcome::new(w).line(format!("You are now under {name}.")));
    }
    let at = w.things().location(h).map_err(internal)?;
    let Some(spot) = free_beside(&w, at) else {
        return Err(WizardError::Refused("There is no room next to you.".into()));
    };
    let id = w
        .spawn_mut(&mut HookCtx::new(hooks), name, spot)
        .map_err(internal)?;
    let what = a_name(&w, id).map_err(internal)?;
    Ok(WizardOutcome::new(w).line(format!(
        "Summoned {what} at ({}, {}).",
        spot.x - at.x,
        spot.y - at.y
    )))
}

fn give(g: &Game, hooks: &Hooks, a: &Args) -> Outcome {
    playing(g)?;
    let name = a.word("name")?;
    let h = hero_of(g)?;
    let mut w = g.clone();
    let id = w
        .spawn_mut(&mut HookCtx::new(hooks), name, Place::In(h))
        .map_err(internal)?;
    let what = a_name(&w, id).map_err(internal)?;
    Ok(WizardOutcome::new(w).line(format!("You now carry {what}.")))
}

fn depth(g: &Game, hooks: &Hooks, a: &Args) -> Outcome {
    playing(g)?;
    let n = i32::try_from(a.int("n")?).map_err(internal)?;
    let z = -n;
    let h = hero_of(g)?;
    let mut w = g.clone();
    // The level's stairs up (on depth 1, the exit), in id order for determinism.
    let stairs = w
        .things()
        .iter()
        .filter(|t| matches!(t.place(), Some(Place::Map(l)) if l.z == z))
        .filter(|t| t.is(&IS_STAIRS_UP))
        .find_map(|t| match t.place() {
            Some(Place::Map(l)) => Some(l),
            _ => None,
        });
    let Some(dest) = stairs else {
        return Err(WizardError::Refused(format!(
            "Depth {n} has no stairs up to arrive on."
        )));
    };
    let spot = std::iter::once(dest).chain(dest.neighbours8()).find(|&l| {
        (creature_at(&w, l).is_none() || creature_at(&w, l) == Some(h))
            && blocker_at(&w, l).is_none()
            && !tile_blocks(&w, l)
            && !tile_dangerous(&w, l)
    });
    let Some(spot) = spot else {
        return Err(WizardError::Refused(format!(
            "The stairs up on depth {n} are blocked."
        )));
    };
    let from = w.things().location(h).map_err(internal)?.z;
    if from != z {
        leave_level(&mut w, from).map_err(internal)?;
        let mut ctx = HookCtx::new(hooks);
        arrive(&mut w, &mut ctx, z).map_err(internal)?;
        super::text::record(&mut w, &events::take(&mut ctx));
    }
    w.move_thing_mut(h, spot).map_err(internal)?;
    let deepest = w.var(&DEEPEST).unwrap_or(1).max(n);
    w.set_var_mut(&DEEPEST, deepest);
    let view = hero_view(&w).map_err(internal)?;
    remember(&mut w, &view);
    Ok(WizardOutcome::new(w).line(format!("You are on depth {n}, on the stairs up.")))
}

fn identify(g: &Game, _: &Args) -> Outcome {
    let mut w = g.clone();
    let names: Vec<String> = w
        .library()
        .prototypes()
        .filter(|p| !p.is(&IS_IDENTIFIED))
        .filter(|p| p.is(&IS_POTION) || p.get(&UNKNOWN_NAME).is_ok())
        .map(|p| p.name().to_string())
        .collect();
    for n in &names {
        w.library_mut()
            .set_proto_prop_mut(n, &IS_IDENTIFIED, true)
            .map_err(internal)?;
    }
    Ok(WizardOutcome::new(w).line(match names.len() {
        0 => "Everything is already identified.".to_string(),
        1 => "Identified 1 kind.".to_string(),
        k => format!("Identified {k} kinds."),
    }))
}

fn heal(g: &Game, _: &Args) -> Outcome {
    playing(g)?;
    let h = hero_of(g)?;
    let mut w = g.clone();
    let gone = remove_effects(&mut w, h, &IS_HARMFUL).map_err(internal)?;
    let max = w.query(h, &HPS_MAX).map_err(internal)?;
    w.set_mut(h, &HPS, max).map_err(internal)?;
    let mut line = format!("You are at full health ({max} hit points).");
    if gone > 0 {
        let _ = write!(line, " Harmful effects ended: {gone}.");
    }
    Ok(WizardOutcome::new(w).line(line))
}

/// `wound N`: every monster beside the hero with more than N hit points is left with N.
fn wound(g: &Game, a: &Args) -> Outcome {
    playing(g)?;
    let n = i32::try_from(a.int("n")?).map_err(|_| WizardError::Refused("too many".into()))?;
    let h = hero_of(g)?;
    let at = g.things().location(h).map_err(internal)?;
    let mut w = g.clone();
    let mut names = Vec::new();
    for d in Dir::COMPASS {
        let Some(m) = creature_at(&w, at + d) else {
            continue;
        };
        if w.query(m, &HPS).map_err(internal)? > n {
            w.set_mut(m, &HPS, n).map_err(internal)?;
            names.push(the_name(&w, m).map_err(internal)?);
        }
    }
    if names.is_empty() {
        return Err(WizardError::Refused(format!(
            "No monster beside you has more than {n} hit points."
        )));
    }
    Ok(WizardOutcome::new(w).line(format!("Wounded to {n} hit points: {}.", names.join(", "))))
}

fn hash(g: &Game, _: &Args) -> Outcome {
    Ok(WizardOutcome::new(g.clone()).line(format!(
        "Turn {}, time {}, state hash {:016x}.",
        g.turn(),
        g.var(&TIME).unwrap_or(0),
        g.state_hash()
    )))
}

/// What `props` shows at `l`: a creature, else scenery, else the first item, else anything.
fn thing_at(g: &Game, l: Loc) -> Option<ThingId> {
    creature_at(g, l)
        .or_else(|| scenery_at(g, l))
        .or_else(|| items_at(g, l).first().copied())
        .or_else(|| g.things().at(l).first().copied())
}

fn props(g: &Game, a: &Args) -> Outcome {
    let h = hero_of(g)?;
    let at = g.things().location(h).map_err(internal)?;
    // Both offsets or neither.
    let (dx, dy) = match a.opt_int("dx") {
        None => (0, 0),
        Some(x) => (x, a.int("dy")?),
    };
    let (dx, dy) = (
        i32::try_from(dx).map_err(internal)?,
        i32::try_from(dy).map_err(internal)?,
    );
    let l = Loc::new(at.x + dx, at.y + dy, at.z);
    let Some(id) = thing_at(g, l) else {
        return tile_props(g, l);
    };
    let t = g.things().get(id).map_err(internal)?;
    let mut keys: Vec<PropKey> = t.props().iter().map(|(k, _)| k.clone()).collect();
    for &c in t.contents() {
        if let Ok(carried) = g.things().get(c) {
            keys.extend(carried.modifiers().iter().map(|m| m.key.clone()));
        }
    }
    keys.sort_by(|a, b| a.name().cmp(b.name()));
    keys.dedup();
    let name = a_name(g, id).unwrap_or_else(|_| "something".into());
    let kind = t.proto().unwrap_or("no prototype");
    let mut lines = vec![format!(
        "{name} (#{}, {kind}) at ({}, {}, {}):",
        id.0, l.x, l.y, l.z
    )];
    for k in keys {
        let Some(now) = g
            .query_opt(id, &Prop::<Value>::from_key(k.clone()))
            .map_err(internal)?
        else {
            continue;
        };
        let base = t.props().get(&k);
        let mut line = format!("  {k} = {}", show(&now));
        if base != Some(&now) {
            let b = base.map_or_else(|| "none".to_string(), show);
            let _ = write!(line, " (base {b})");
        }
        lines.push(line);
    }
    Ok(WizardOutcome::new(g.clone()).lines(lines))
}

fn tile_props(g: &Game, l: Loc) -> Outcome {
    let def = g
        .tile_def(l)
        .map_err(|_| WizardError::Refused(format!("({}, {}) is off the map.", l.x, l.y)))?;
    let mut lines = vec![format!(
        "Tile {} at ({}, {}, {}), nothing on it:",
        def.name(),
        l.x,
        l.y,
        l.z
    )];
    let mut kv: Vec<(String, String)> = def
        .props()
        .iter()
        .map(|(k, v)| (k.name().to_string(), show(v)))
        .collect();
    kv.sort();
    lines.extend(kv.into_iter().map(|(k, v)| format!("  {k} = {v}")));
    Ok(WizardOutcome::new(g.clone()).lines(lines))
}

/// A value as a person reads it.
fn show(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
        Value::Char(c) => format!("'{c}'"),
        Value::Text(t) => format!("{t:?}"),
        Value::Loc(l) => format!("({}, {}, {})", l.x, l.y, l.z),
        Value::Thing(t) => format!("#{}", t.0),
        Value::Rgb(c) => format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b),
        Value::Hook(h) => format!("hook {}", h.name()),
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_plainly() {
        assert_eq!(show(&Value::Int(3)), "3");
        assert_eq!(show(&Value::Text("rat".into())), "\"rat\"");
        assert_eq!(
            show(&Value::List(
                vec![Value::Bool(true), Value::Char('x')].into()
            )),
            "[true, 'x']"
        );
    }

    #[test]
    fn creatures_are_summonable_but_not_the_hero() -> Result<(), Box<dyn std::error::Error>> {
        let rules = Rules::new()?;
        let g = crate::new_game(1, &rules)?;
        let names = summonable(&g);
        assert!(!names.is_empty());
        assert!(names.windows(2).all(|w| w[0] <= w[1]));
        for n in &names {
            let p = g.library().get(n)?;
            assert!(!p.is(&IS_HERO));
        }
        Ok(())
    }
}
