//! Alchemy's wizard commands on real games: each keeps the game consistent, leaves the old
//! value alone, and bad input gets a clear error.

use alembic::{Dir, Game, HookCtx, Loc, Place, wizard::WizardCommands, wizard::WizardError};
use alembic_games::alchemy::{
    self, Command, Event, Rules,
    events::{Cause, take as take_events},
    props::{
        DamageType, GAME_OVER, HPS, HPS_MAX, IS_CREATURE, IS_IDENTIFIED, IS_POTION, IS_STAIRS_UP,
    },
    rules::{
        Source, creature_at, damage, explored, hero, inventory, level_box, tile_blocks,
        tile_dangerous,
    },
    view::status,
    wizard::commands as wizard_commands,
};

type R = Result<(), Box<dyn std::error::Error>>;

fn setup(seed: u64) -> Result<(Rules, Game, WizardCommands<Game>), Box<dyn std::error::Error>> {
    let rules = Rules::new()?;
    let game = alchemy::new_game(seed, &rules)?;
    let cmds = wizard_commands(&rules)?;
    Ok((rules, game, cmds))
}

/// Run `line`, check the result is consistent and the input untouched.
fn run(
    cmds: &WizardCommands<Game>,
    g: &Game,
    line: &str,
) -> Result<(Game, Vec<String>), Box<dyn std::error::Error>> {
    let before = g.state_hash();
    let out = cmds.run(g, line)?;
    assert_eq!(g.state_hash(), before, "{line}: the old game changed");
    out.state.check_invariants()?;
    assert!(!out.lines.is_empty(), "{line}: says nothing");
    Ok((out.state, out.lines))
}

fn hero_at(g: &Game) -> Result<Loc, alembic::Error> {
    g.things().location(hero(g)?)
}

#[test]
fn every_command_keeps_the_game_consistent() -> R {
    let (rules, mut g, cmds) = setup(3)?;
    for line in [
        "help",
        "hash",
        "reveal",
        "ghost",
        "ghost",
        "immortal",
        "summon rat",
        "give potion of healing",
        "identify",
        "heal",
        "props",
        "props 1 0",
        "depth 5",
        "summon rat",
        "depth 1",
        "depth 11",
        "immortal",
    ] {
        let (next, lines) = run(&cmds, &g, line)?;
        assert!(lines.iter().all(|l| !l.contains('\n')));
        // The game plays on after every command.
        let played = alchemy::apply(&next, &rules, Command::Wait).map_err(|e| e.to_string())?;
        played.game.check_invariants()?;
        g = next;
    }
    Ok(())
}

#[test]
fn wizard_commands_take_no_time() -> R {
    let (_, g, cmds) = setup(4)?;
    for line in [
        "reveal",
        "summon rat",
        "give potion of healing",
        "depth 3",
        "heal",
    ] {
        let (next, _) = run(&cmds, &g, line)?;
        assert_eq!(next.turn(), g.turn(), "{line}");
    }
    Ok(())
}

#[test]
fn hash_reports_turn_and_state_hash() -> R {
    let (_, g, cmds) = setup(5)?;
    let (_, lines) = run(&cmds, &g, "hash")?;
    assert_eq!(
        lines,
        [format!(
            "Turn {}, time 0, state hash {:016x}.",
            g.turn(),
            g.state_hash()
        )]
    );
    Ok(())
}

#[test]
fn reveal_remembers_the_whole_level() -> R {
    let (_, g, cmds) = setup(6)?;
    let z = hero_at(&g)?.z;
    let all = level_box(z).iter().count();
    let known = |g: &Game| level_box(z).iter().filter(|&l| explored(g, l)).count();
    assert!(known(&g) < all);
    let (next, _) = run(&cmds, &g, "reveal")?;
    assert_eq!(known(&next), all);
    assert!(known(&g) < all);
    // Other levels stay unknown.
    assert_eq!(
        level_box(z - 1)
            .iter()
            .filter(|&l| explored(&next, l))
            .count(),
        0
    );
    Ok(())
}

/// A direction from the hero into a wall inside the level, if there is one.
fn wall_beside(g: &Game) -> Result<Option<Dir>, alembic::Error> {
    let at = hero_at(g)?;
    Ok(Dir::COMPASS.into_iter().find(|&d| {
        let to = at + d;
        tile_blocks(g, to) && level_box(at.z).contains(to)
    }))
}

#[test]
fn ghosts_walk_through_walls() -> R {
    let (rules, _, cmds) = setup(7)?;
    // Find a game where the hero starts beside a wall (most do).
    let mut found = None;
    for seed in 7..40 {
        let g = alchemy::new_game(seed, &rules)?;
        if let Some(d) = wall_beside(&g)? {
            found = Some((g, d));
            break;
        }
    }
    let (g, d) = found.ok_or("no start beside a wall")?;
    let at = hero_at(&g)?;
    assert!(alchemy::apply(&g, &rules, Command::Move(d)).is_err());

    let (ghost, lines) = run(&cmds, &g, "ghost")?;
    assert!(lines[0].contains("walk through walls"), "{lines:?}");
    let moved = alchemy::apply(&ghost, &rules, Command::Move(d)).map_err(|e| e.to_string())?;
    moved.game.check_invariants()?;
    assert_eq!(hero_at(&moved.game)?, at + d);
    assert!(tile_blocks(&moved.game, at + d));
    // Waiting inside the wall is fine, and stepping back out too.
    let waited = alchemy::apply(&moved.game, &rules, Command::Wait).map_err(|e| e.to_string())?;
    let (solid, _) = run(&cmds, &waited.game, "ghost")?;
    let back =
        alchemy::apply(&solid, &rules, Command::Move(d.opposite())).map_err(|e| e.to_string())?;
    assert_eq!(hero_at(&back.game)?, at);
    // Solid again: the wall stops the hero.
    assert!(alchemy::apply(&back.game, &rules, Command::Move(d)).is_err());
    Ok(())
}

#[test]
fn ghosts_never_leave_the_level() -> R {
    let (rules, g, cmds) = setup(8)?;
    let (mut g, _) = run(&cmds, &g, "ghost")?;
    let b = level_box(hero_at(&g)?.z);
    // Walk west until refused: the hero stays inside the level's rectangle.
    for _ in 0..80 {
        match alchemy::apply(&g, &rules, Command::Move(Dir::West)) {
            Ok(o) => g = o.game,
            Err(_) => break,
        }
        if g.var(&GAME_OVER).unwrap_or(false) {
            break;
        }
    }
    assert!(b.contains(hero_at(&g)?));
    g.check_invariants()?;
    Ok(())
}

#[test]
fn immortal_heroes_survive_deadly_damage() -> R {
    let (rules, g, cmds) = setup(9)?;
    let h = hero(&g)?;
    let mut mortal = g.clone();
    damage(
        &mut mortal,
        &mut HookCtx::new(rules.hooks()),
        h,
        10_000,
        DamageType::Normal,
        Source::Cause(Cause::Potion),
    )?;
    assert!(mortal.var(&GAME_OVER)?);

    let (imm, _) = run(&cmds, &g, "immortal")?;
    let mut hit = imm.clone();
    let mut ctx = HookCtx::new(rules.hooks());
    damage(
        &mut hit,
        &mut ctx,
        h,
        10_000,
        DamageType::Normal,
        Source::Cause(Cause::Potion),
    )?;
    assert!(!hit.var(&GAME_OVER).unwrap_or(false));
    assert_eq!(hit.query(h, &HPS)?, 1);
    assert!(
        take_events(&mut ctx)
            .iter()
            .any(|(_, e)| matches!(e, Event::RefusedToDie { who, .. } if who.id == h))
    );
    hit.check_invariants()?;
    // Toggled off, the hero is mortal again.
    let (again, _) = run(&cmds, &hit, "immortal")?;
    let mut dead = again.clone();
    damage(
        &mut dead,
        &mut HookCtx::new(rules.hooks()),
        h,
        10_000,
        DamageType::Normal,
        Source::Cause(Cause::Potion),
    )?;
    assert!(dead.var(&GAME_OVER)?);
    Ok(())
}

#[test]
fn summon_puts_a_creature_beside_the_hero() -> R {
    let (_, g, cmds) = setup(10)?;
    let at = hero_at(&g)?;
    let (next, _) = run(&cmds, &g, "summon rat")?;
    let around = |g: &Game| {
        at.neighbours8()
            .filter_map(|l| creature_at(g, l))
            .collect::<Vec<_>>()
    };
    let new: Vec<_> = around(&next)
        .into_iter()
        .filter(|c| !around(&g).contains(c))
        .collect();
    assert_eq!(new.len(), 1);
    let rats = new;
    assert_eq!(next.things().get(rats[0])?.proto(), Some("rat"));
    assert!(next.is(rats[0], &IS_CREATURE));
    Ok(())
}

#[test]
fn unknown_names_fail_with_suggestions() -> R {
    let (_, g, cmds) = setup(11)?;
    let Err(WizardError::UnknownWord {
        word, suggestions, ..
    }) = cmds.run(&g, "summon ratt")
    else {
        panic!("summon ratt should fail");
    };
    assert_eq!(word, "ratt");
    assert!(suggestions.contains(&"rat".to_string()), "{suggestions:?}");
    let Err(e) = cmds.run(&g, "give potion of heling") else {
        panic!("give of an unknown item should fail");
    };
    let text = e.to_string();
    assert!(text.contains("potion of healing"), "{text}");
    assert!(!text.contains('\n'));
    // A creature is not an item.
    assert!(matches!(
        cmds.run(&g, "give rat"),
        Err(WizardError::UnknownWord { .. })
    ));
    // No second hero.
    assert!(matches!(
        cmds.run(&g, "summon hero"),
        Err(WizardError::UnknownWord { .. })
    ));
    Ok(())
}

#[test]
fn unknown_commands_and_bad_arguments_get_one_clear_line() -> R {
    let (_, g, cmds) = setup(12)?;
    let cases = [
        ("depth 12", "N must be 1 to 11, not 12."),
        ("depth x", "N must be a number, not \"x\"."),
        ("depth", "depth: missing N. Usage: depth N(1..11)"),
        (
            "teleport",
            "Unknown command \"teleport\". Type \"help\" for a list.",
        ),
        (
            "sumon rat",
            "Unknown command \"sumon\". Did you mean \"summon\"?",
        ),
        ("hash 3", "hash: unexpected \"3\". Usage: hash"),
        (
            "props 1",
            "props: missing DY. Usage: props [DX(-71..71)] [DY(-51..51)]",
        ),
        ("", "Type a command; \"help\" lists them."),
    ];
    for (line, want) in cases {
        let got = cmds.run(&g, line).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(got, Err(want.to_string()), "{line}");
    }
    Ok(())
}

#[test]
fn give_puts_an_item_in_the_pack() -> R {
    let (_, g, cmds) = setup(13)?;
    let h = hero(&g)?;
    let n = inventory(&g, h).len();
    let (next, lines) = run(&cmds, &g, "give Potion of Healing")?;
    let inv = inventory(&next, h);
    assert_eq!(inv.len(), n + 1);
    assert!(lines[0].starts_with("You now carry"), "{lines:?}");
    let newest = inv
        .iter()
        .copied()
        .find(|i| !inventory(&g, h).contains(i))
        .ok_or("no new item")?;
    assert_eq!(next.things().place(newest)?, Place::In(h));
    assert_eq!(
        next.things().get(newest)?.proto(),
        Some("potion of healing")
    );
    Ok(())
}

#[test]
fn depth_moves_the_hero_onto_the_stairs_up() -> R {
    let (rules, g, cmds) = setup(14)?;
    for n in [1, 2, 6, 11, 3] {
        let (next, _) = run(&cmds, &g, &format!("depth {n}"))?;
        assert_eq!(status(&next)?.depth, n);
        let at = hero_at(&next)?;
        let on_stairs = std::iter::once(at).chain(at.neighbours8()).any(|l| {
            next.things()
                .at(l)
                .iter()
                .any(|&t| next.is(t, &IS_STAIRS_UP))
        });
        assert!(on_stairs, "depth {n}: not by the stairs up");
        assert!(!tile_blocks(&next, at) && !tile_dangerous(&next, at));
        // The stairs work from there.
        if next
            .things()
            .at(at)
            .iter()
            .any(|&t| next.is(t, &IS_STAIRS_UP))
            && n > 1
        {
            let up = alchemy::apply(&next, &rules, Command::Ascend).map_err(|e| e.to_string())?;
            assert_eq!(status(&up.game)?.depth, n - 1);
        }
    }
    Ok(())
}

#[test]
fn identify_heal_and_props() -> R {
    let (_, g, cmds) = setup(15)?;
    let (known, _) = run(&cmds, &g, "identify")?;
    for p in known.library().prototypes().filter(|p| p.is(&IS_POTION)) {
        assert!(p.is(&IS_IDENTIFIED), "{}", p.name());
    }
    assert!(
        g.library()
            .prototypes()
            .any(|p| p.is(&IS_POTION) && !p.is(&IS_IDENTIFIED))
    );
    let (_, lines) = run(&cmds, &known, "identify")?;
    assert_eq!(lines, ["Everything is already identified."]);

    let h = hero(&g)?;
    let hurt = g.set(h, &HPS, 1)?;
    let (healed, _) = run(&cmds, &hurt, "heal")?;
    assert_eq!(healed.query(h, &HPS)?, healed.query(h, &HPS_MAX)?);

    let (_, lines) = run(&cmds, &g, "props")?;
    assert!(lines[0].contains(&format!("#{}", h.0)), "{lines:?}");
    let hps = g.query(h, &HPS)?;
    assert!(
        lines.iter().any(|l| l == &format!("  hps = {hps}")),
        "{lines:?}"
    );
    assert_eq!(run(&cmds, &g, "props 0 0")?.1, lines);

    // A modifier shows both values: a worn amulet of life raises the maximum.
    let (rules, _, _) = setup(15)?;
    let (armed, _) = run(&cmds, &g, "give amulet of life")?;
    let amulet = inventory(&armed, h)
        .into_iter()
        .find(|&i| {
            armed
                .things()
                .get(i)
                .is_ok_and(|t| t.proto() == Some("amulet of life"))
        })
        .ok_or("no amulet")?;
    let worn = alchemy::apply(&armed, &rules, Command::Wield(amulet)).map_err(|e| e.to_string())?;
    let base = worn.game.things().get(h)?.get(&HPS_MAX)?;
    let (_, lines) = run(&cmds, &worn.game, "props")?;
    let want = format!("  hps_max = {} (base {base})", base + 10);
    assert!(lines.contains(&want), "{want} not in {lines:?}");
    // Offsets look at other cells: a bare wall shows its tile.
    let at = hero_at(&g)?;
    if let Some(d) = wall_beside(&g)? {
        let to = at + d;
        if g.things().at(to).is_empty() {
            let (_, lines) = run(&cmds, &g, &format!("props {} {}", to.x - at.x, to.y - at.y))?;
            assert!(lines[0].starts_with("Tile "), "{lines:?}");
        }
    }
    Ok(())
}

#[test]
fn completion_lists_prototype_names_by_prefix() -> R {
    let (_, g, cmds) = setup(16)?;
    let potions = cmds.complete(&g, "summon potion of");
    assert!(potions.len() > 3, "{potions:?}");
    assert!(potions.iter().all(|c| c.starts_with("summon potion of")));
    assert!(potions.contains(&"summon potion of healing".to_string()));
    assert!(
        cmds.complete(&g, "summon ra")
            .contains(&"summon rat".to_string())
    );
    let items = cmds.complete(&g, "give ");
    assert!(items.contains(&"give potion of healing".to_string()));
    assert!(!items.contains(&"give rat".to_string()));
    assert_eq!(cmds.complete(&g, "su"), ["summon "]);
    assert_eq!(cmds.complete(&g, "i"), ["identify", "immortal"]);
    assert!(cmds.complete(&g, "depth ").is_empty());
    // Every completion of a full name runs.
    for c in cmds.complete(&g, "summon ") {
        let _ = run(&cmds, &g, &c)?;
    }
    Ok(())
}

// ----- the Caves: the same registry, another game -------------------------------------------

#[test]
fn caves_register_into_the_same_command_set() -> R {
    use alembic_games::caves;
    let g = caves::new_game(21)?;
    let cmds = caves::wizard_commands()?;
    let names = cmds.names();
    for n in ["hash", "heal", "reveal", "depth", "summon", "help"] {
        assert!(names.contains(&n.to_string()), "{n}");
    }
    let p = caves::player(&g)?;

    let (_, lines) = run(&cmds, &g, "hash")?;
    assert_eq!(
        lines,
        [format!("Turn 0, state hash {:016x}.", g.state_hash())]
    );

    let hurt = g.set(p, &caves::HP, 3)?;
    let (healed, _) = run(&cmds, &hurt, "heal")?;
    assert_eq!(
        healed.query(p, &caves::HP)?,
        healed.query(p, &caves::MAX_HP)?
    );

    let z = g.things().location(p)?.z;
    let (seen, _) = run(&cmds, &g, "reveal")?;
    assert!(
        caves::level_box(z)
            .iter()
            .all(|l| caves::remembered(&seen, l).is_some())
    );
    assert!(
        caves::level_box(z)
            .iter()
            .any(|l| caves::remembered(&g, l).is_none())
    );

    for n in [3, 5, 1] {
        let (deep, _) = run(&cmds, &g, &format!("depth {n}"))?;
        assert_eq!(caves::status(&deep)?.depth, n - 1);
        // The game plays on from there.
        let next = caves::act(&deep, caves::Command::Wait)?;
        next.check_invariants()?;
    }
    assert_eq!(
        cmds.run(&g, "depth 6")
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("These caves have only 5 levels.".to_string())
    );
    assert!(matches!(
        cmds.run(&g, "depth x"),
        Err(WizardError::BadNumber { .. })
    ));

    let (more, _) = run(&cmds, &g, "summon zombie")?;
    assert_eq!(more.things().count(), g.things().count() + 1);
    let Err(WizardError::UnknownWord { suggestions, .. }) = cmds.run(&g, "summon zombi") else {
        panic!("summon zombi should fail");
    };
    assert_eq!(suggestions, ["zombie"]);
    assert!(matches!(
        cmds.run(&g, "summon player"),
        Err(WizardError::UnknownWord { .. })
    ));
    assert_eq!(cmds.complete(&g, "summon b"), ["summon bunny"]);
    Ok(())
}

/// The number of cases: `quick`, or `PROPTEST_CASES` when set.
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

/// Random lines against the real command set: never a panic, every error one line, every
/// accepted command a consistent game.
#[test]
fn random_lines_never_panic() -> R {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let (_, g, cmds) = setup(17)?;
    let word = prop_oneof![
        Just("summon".to_string()),
        Just("give".to_string()),
        Just("depth".to_string()),
        Just("props".to_string()),
        Just("ghost".to_string()),
        Just("potion".to_string()),
        Just("of".to_string()),
        Just("rat".to_string()),
        "-?[0-9]{1,20}",
        "\\PC{0,10}",
    ];
    let line = prop::collection::vec(word, 0..5).prop_map(|w| w.join(" "));
    let mut runner = TestRunner::new(Config::with_cases(cases(128)));
    runner
        .run(&line, |l| {
            match cmds.run(&g, &l) {
                Ok(out) => out
                    .state
                    .check_invariants()
                    .map_err(|e| TestCaseError::fail(format!("{l:?}: {e}")))?,
                Err(e) => prop_assert!(!e.to_string().contains('\n'), "{l:?}"),
            }
            let _ = cmds.complete(&g, &l);
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    Ok(())
}
