//! A bot that plans, in about 30 lines: the session's `Planner` plays each of the hero's
//! steps three plies ahead on clones of the game, over four sampled futures, and takes the
//! best by a value of the hero's own. The README's guide shows this file.
//!
//! `cargo run --release -p alembic-rl-rats --no-default-features --example plan_bot`

use alembic::path::DijkstraMap;
use alembic::{Dir, Game, Loc, LocBox, Place, Prop, ThingId};
use alembic_rats::{Command, HEIGHT, Rats, WIDTH};
use alembic_session::plan::Planner;
use alembic_session::{Ruleset, Status};

// The rats' keys, by name (a game of your own knows its own).
const HP: Prop<i32> = Prop::with_default("rats.hp", 1);
const KILLS: Prop<i32> = Prop::with_default("rats.kills", 0);
const HERO: Prop<ThingId> = Prop::new("rats.hero");
const CHEESE: Prop<ThingId> = Prop::new("rats.cheese");
const WALK: Prop<bool> = Prop::with_default("rats.walk", false);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Rats::new()?;
    let mut game = rules.new_game(7)?;
    let moves = [Dir::North, Dir::East, Dir::South, Dir::West].map(Command::Move);
    let planner = Planner::new(&rules).depth(3).samples(4).budget(1_500);
    while rules.status(&game) == Status::Playing && game.turn() < 1_000 {
        // Steps to the cheese, or to the way out once the hero carries it.
        let cheese = game.var(&CHEESE)?;
        let goal = match game.things().place(cheese)? {
            Place::Map(l) => l,
            _ => Loc::new(1, 1, 0),
        };
        let floor = |l: Loc| game.tile_def(l).is_ok_and(|t| t.is(&WALK));
        let open = |a: Loc, b: Loc| (a.x == b.x || a.y == b.y) && floor(b);
        let maze = LocBox::rect(0, 0, WIDTH, HEIGHT, 0);
        let steps = DijkstraMap::build(maze, &[goal], |a, b| open(a, b).then_some(1));
        // How good a game is for the hero: alive, hit points, rats killed, the cheese, the
        // steps left; the sooner a win the better (the later a death).
        let value = |g: &Game| match rules.status(g) {
            Status::Over(end) if end.won => 1e6 - g.turn() as f64,
            Status::Over(_) => -1e6 + g.turn() as f64,
            Status::Playing => {
                let Ok(hero) = g.var(&HERO) else { return -1e6 };
                let hp = f64::from(g.query(hero, &HP).unwrap_or(0));
                let kills = f64::from(g.var(&KILLS).unwrap_or(0));
                let carried = matches!(g.things().place(cheese), Ok(Place::In(_)));
                let left = g
                    .things()
                    .location(hero)
                    .ok()
                    .and_then(|l| steps.get(l))
                    .unwrap_or(999);
                5.0 * hp + 4.0 * kills + 50.0 * f64::from(u8::from(carried)) - left as f64
            }
        };
        let plan = planner.seed(game.turn()).plan(&game, &moves, value)?;
        let Some(plan) = plan else { break };
        game = rules
            .apply(&game, &plan.command)
            .map_err(|e| e.to_string())?
            .game;
    }
    println!("turn {}: {:?}", game.turn(), rules.status(&game));
    Ok(())
}
