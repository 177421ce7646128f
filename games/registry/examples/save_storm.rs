//! A saver for the process-level reliability script (`scripts/reliability.sh`): it is killed
//! with `kill -9` at random moments while saving, and the save must always load.
//!
//! ```text
//! save_storm loop FILE     save two different games to FILE, alternately, until killed
//! save_storm once FILE N   save the game of seed N to FILE once (exit 1 with the error)
//! save_storm check FILE    load FILE; print "ok turn T hash H" or the error (exit 1)
//! save_storm pile FILE N   save a game with N things piled under the hero
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use alembic::Dir;
use alembic_games::alchemy::{Command, Rules, apply, new_game, save};

fn game(rules: &Rules, seed: u64) -> Result<alembic::Game, String> {
    let mut g = new_game(seed, rules).map_err(|e| e.to_string())?;
    for d in [Dir::East, Dir::South, Dir::West] {
        if let Ok(o) = apply(&g, rules, Command::Move(d)) {
            g = o.game;
        }
    }
    Ok(g)
}

fn run(args: &[String]) -> Result<(), String> {
    let rules = Rules::new().map_err(|e| e.to_string())?;
    match args {
        [mode, file] if mode == "loop" => {
            let path = PathBuf::from(file);
            let games = [game(&rules, 1)?, game(&rules, 2)?];
            for g in games.iter().cycle() {
                save::save(g, &path).map_err(|e| e.to_string())?;
            }
            Ok(())
        }
        [mode, file, seed] if mode == "once" => {
            let seed = seed.parse().map_err(|_| format!("not a seed: {seed}"))?;
            save::save(&game(&rules, seed)?, &PathBuf::from(file)).map_err(|e| e.to_string())
        }
        [mode, file, n] if mode == "pile" => {
            let n: usize = n.parse().map_err(|_| format!("not a count: {n}"))?;
            let mut g = game(&rules, 5)?;
            let hero = g
                .var(&alembic_games::alchemy::props::HERO)
                .map_err(|e| e.to_string())?;
            let at = g.things().location(hero).map_err(|e| e.to_string())?;
            for _ in 0..n {
                g.add_thing_mut(at, alembic::Thing::new(alembic::Props::new()))
                    .map_err(|e| e.to_string())?;
            }
            save::save(&g, &PathBuf::from(file)).map_err(|e| e.to_string())
        }
        [mode, file] if mode == "check" => {
            let g = save::load(&PathBuf::from(file), &rules).map_err(|e| e.to_string())?;
            println!("ok turn {} hash {:016x}", g.turn(), g.state_hash());
            Ok(())
        }
        _ => Err("usage: save_storm loop FILE | once FILE SEED | check FILE | pile FILE N".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("save_storm: {e}");
            ExitCode::FAILURE
        }
    }
}
