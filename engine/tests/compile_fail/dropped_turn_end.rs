// Dropping what a turn ended with hides a game over or a runaway bound.
#![deny(unused_must_use)]

use alembic::schedule::NORMAL_ACTION;
use alembic::{Game, HookCtx, Hooks, Loc, Props, Thing};

fn main() -> Result<(), alembic::Error> {
    let hooks = Hooks::new();
    let mut ctx = HookCtx::new(&hooks);
    let mut g = Game::new(1);
    let hero = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new()))?;
    g.end_turn_mut(&mut ctx, hero, NORMAL_ACTION, 100, |_| false)?;
    g.scheduler().advance_until(&mut ctx, 100, |_, id| id == hero)?;
    Ok(())
}
