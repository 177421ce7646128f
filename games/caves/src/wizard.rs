//! Wizard mode for the Caves: the same engine registry ([`WizardCommands`]) that Alchemy
//! uses, with the Caves' own commands.

use alembic::{
    Game, HookCtx, Loc, wizard::Args, wizard::WizardCommands, wizard::WizardError,
    wizard::WizardOutcome, wizard::WizardSpec,
};

use super::geometry::{depth_of, level_box, z_of};
use super::hooks::hooks;
use super::kinds::Outcome;
use super::props::{DEEPEST, HP, IS_HERO, LEVELS, MAX_HP, SEEN_LAYER, STAIRS, WALKABLE};
use super::rules::{nearest_free, remember_view};
use super::view::{outcome, player};

type Result<T> = std::result::Result<T, WizardError>;
type Done = Result<WizardOutcome<Game>>;

/// The deepest level `depth N` accepts; games with fewer levels refuse the rest.
const MAX_LEVELS: i64 = 99;

/// The Caves' wizard commands: `hash`, `heal`, `reveal`, `depth N` (levels counted from 1,
/// as the status line does) and `summon NAME` (and the built-in `help`).
///
/// ```
/// use alembic_caves as caves;
/// let g = caves::new_game(1)?;
/// let cmds = caves::wizard_commands()?;
/// let out = cmds.run(&g, "depth 3")?;
/// assert_eq!(caves::status(&out.state)?.depth, 2); // 0-based in the status
/// assert!(cmds.run(&g, "depth 0").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`WizardError::BadDefinition`] only if a definition here is wrong (a bug).
pub fn wizard_commands() -> Result<WizardCommands<Game>> {
    WizardCommands::new()
        .register(
            WizardSpec::new("hash", "Show the turn and the state hash."),
            hash,
        )?
        .register(WizardSpec::new("heal", "Restore all hit points."), heal)?
        .register(
            WizardSpec::new("reveal", "Remember the whole current level, as if seen."),
            reveal,
        )?
        .register(
            WizardSpec::new("depth", "Go to level N, onto its stairs up.").int("n", 1, MAX_LEVELS),
            depth,
        )?
        .register(
            WizardSpec::new("summon", "Create a creature next to you.").word("name", creatures),
            summon,
        )
}

fn internal(e: impl std::fmt::Display) -> WizardError {
    WizardError::Refused(format!("internal error: {e}"))
}

fn playing(g: &Game) -> Result<()> {
    match outcome(g).map_err(internal)? {
        Outcome::Playing => Ok(()),
        _ => Err(WizardError::Refused("The game is over.".into())),
    }
}

fn hash(g: &Game, _: &Args) -> Done {
    Ok(WizardOutcome::new(g.clone()).line(format!(
        "Turn {}, state hash {:016x}.",
        g.turn(),
        g.state_hash()
    )))
}

fn heal(g: &Game, _: &Args) -> Done {
    playing(g)?;
    let p = player(g).map_err(internal)?;
    let max = g.query(p, &MAX_HP).map_err(internal)?;
    let w = g.set(p, &HP, max).map_err(internal)?;
    Ok(WizardOutcome::new(w).line(format!("You are at full health ({max} hp).")))
}

fn reveal(g: &Game, _: &Args) -> Done {
    let p = player(g).map_err(internal)?;
    let z = g.things().location(p).map_err(internal)?.z;
    let mut w = g.clone();
    for l in level_box(z).iter() {
        let t = w.tile(l);
        w.set_layer_mut(&SEEN_LAYER, l, Some(t));
    }
    Ok(WizardOutcome::new(w).line(format!("You now know all of level {}.", depth_of(z) + 1)))
}

/// Where `depth` puts the player on level `z`: the stairs up, else stairs down, else any
/// walkable cell (scanning in a fixed order).
fn arrival(g: &Game, z: i32) -> Option<Loc> {
    let stairs = |dir: i32| {
        level_box(z).iter().find(|&l| {
            g.tile_def(l)
                .is_ok_and(|d| d.get(&STAIRS).is_ok_and(|s| s == dir))
        })
    };
    let walkable = || {
        level_box(z)
            .iter()
            .find(|&l| g.tile_def(l).is_ok_and(|d| d.is(&WALKABLE)))
    };
    stairs(-1).or_else(|| stairs(1)).or_else(walkable)
}

fn depth(g: &Game, a: &Args) -> Done {
    playing(g)?;
    let n = i32::try_from(a.int("n")?).map_err(internal)?;
    let levels = g.var(&LEVELS).map_err(internal)?;
    if n > levels {
        return Err(WizardError::Refused(format!(
            "These caves have only {levels} levels."
        )));
    }
    let z = z_of(n - 1);
    let p = player(g).map_err(internal)?;
    let target = arrival(g, z).ok_or_else(|| internal("a level with no floor"))?;
    let mut w = g.clone();
    // The player's own cell counts as free if already there.
    let here = w.things().location(p).map_err(internal)?;
    let spot = if here == target {
        Some(here)
    } else {
        nearest_free(&w, target)
    };
    let Some(spot) = spot else {
        return Err(WizardError::Refused(format!(
            "The way onto level {n} is blocked."
        )));
    };
    w.move_thing_mut(p, spot).map_err(internal)?;
    let deepest = w.var(&DEEPEST).map_err(internal)?.max(n - 1);
    w.set_var_mut(&DEEPEST, deepest);
    remember_view(&mut w).map_err(internal)?;
    Ok(WizardOutcome::new(w).line(format!("You are on level {n} of {levels}.")))
}

/// Every creature prototype but the player's, sorted.
fn creatures(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .library()
        .prototypes()
        .filter(|p| !p.is_abstract() && !p.is(&IS_HERO))
        .map(|p| p.name().to_string())
        .collect();
    v.sort();
    v
}

fn summon(g: &Game, a: &Args) -> Done {
    playing(g)?;
    let name = a.word("name")?;
    let p = player(g).map_err(internal)?;
    let at = g.things().location(p).map_err(internal)?;
    let Some(spot) = nearest_free(g, at) else {
        return Err(WizardError::Refused("There is no room near you.".into()));
    };
    let mut w = g.clone();
    w.spawn_mut(&mut HookCtx::new(&hooks().map_err(internal)?), name, spot)
        .map_err(internal)?;
    Ok(WizardOutcome::new(w).line(format!(
        "Summoned a {name} at ({}, {}).",
        spot.x - at.x,
        spot.y - at.y
    )))
}
