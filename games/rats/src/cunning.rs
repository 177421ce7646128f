//! A monster that plans, in about 30 lines: in a game of [`Rats::cunning`](crate::Rats::cunning)
//! a rat within five steps of the hero tries each of its moves on clones of the game with
//! the session's [`StepPlanner`]: its move, the hero's answer (bite it when beside it, else
//! come closer) and every other rat's next turn, all by the rats' own rules, on eight
//! sampled futures (each clone reseeded by the planner, never the real game's next draw).
//! It takes the move whose futures leave the hero the fewest hit points (its own count for
//! little: a rat's life is cheap in a pack).
//! The README's guide shows [`rat_turn`].

use alembic::hook::HookCall;
use alembic::{Dir, Error, Game, HookCtx, Prop, ThingId};
use alembic_session::plan::{PlanError, StepPlanner};

use crate::{ALIVE, HERO, HP, hero_bites, open, plain_rat_turn, rat_bites};

/// Set inside a rat's futures: there every rat plays by the plain rules.
const FUTURE: Prop<bool> = Prop::with_default("rats.future", false);

/// A cunning rat's turn: within five steps of the hero it plans, elsewhere (and inside
/// another rat's futures) it plays by the plain rules.
pub(crate) fn rat_turn(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let (me, hero) = (call.this, g.var(&HERO)?);
    let (at, hat) = (g.things().location(me)?, g.things().location(hero)?);
    if g.var(&FUTURE).unwrap_or(false) || at.manhattan(hat) > 5 {
        return plain_rat_turn(g, me);
    }
    let moves = [
        None,
        Some(Dir::North),
        Some(Dir::East),
        Some(Dir::South),
        Some(Dir::West),
    ];
    // One future: my move, the hero's answer, then every other rat's next turn.
    let future = |g: &Game, mv: &Option<Dir>| -> Result<Option<Game>, Error> {
        let mut g = g.clone();
        g.set_var_mut(&FUTURE, true);
        if !rat_moves(&mut g, me, *mv)? {
            return Ok(None); // a wall or another rat: not a move
        }
        hero_answers(&mut g, hero, me)?;
        for rat in g.things().ids_on_level(0) {
            if rat != me && rat != hero && g.is(rat, &ALIVE) {
                plain_rat_turn(&mut g, rat)?;
            }
        }
        Ok(Some(g))
    };
    // What a future is worth to me: my share of my 3 hit points (dead: -0.5) less each hit
    // point the hero keeps. A rat's life is cheap in a pack.
    let value = |g: &Game| {
        let mine = g.query(me, &HP).map_or(-0.5, |hp| f64::from(hp) / 3.0);
        mine - f64::from(g.query(hero, &HP).unwrap_or(0))
    };
    let seed = g.turn() ^ me.0.rotate_left(32);
    let planner = StepPlanner::new(future)
        .depth(1)
        .samples(8)
        .budget(40)
        .seed(seed);
    let best = match planner.plan(g, &moves, value) {
        Ok(plan) => plan.and_then(|p| p.command),
        Err(PlanError::Engine(e)) => return Err(e),
    };
    rat_moves(g, me, best).map(|_| ())
}

/// A rat's move by the rules: bite the hero when `mv` leads to them, step into an open
/// cell, or (`None`) stay. `false` when the way is shut.
fn rat_moves(g: &mut Game, rat: ThingId, mv: Option<Dir>) -> Result<bool, Error> {
    let Some(d) = mv else { return Ok(true) };
    let (to, hero) = (g.things().location(rat)? + d, g.var(&HERO)?);
    if g.things().location(hero)? == to {
        rat_bites(g, hero)?;
    } else if open(g, to) {
        g.move_thing_mut(rat, to)?;
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// The hero inside a rat's future, as a plain fighter: it bites one of the rats beside it
/// (by the rules' own bite; which one is the future's draw), else steps to the open cell
/// nearest `rat`.
fn hero_answers(g: &mut Game, hero: ThingId, rat: ThingId) -> Result<(), Error> {
    let (at, rat_at) = (g.things().location(hero)?, g.things().location(rat)?);
    let beside: Vec<ThingId> = at
        .neighbours4()
        .flat_map(|l| g.things().at(l).to_vec())
        .filter(|&t| g.is(t, &ALIVE))
        .collect();
    if !beside.is_empty() {
        let pick = beside[g.rng().below(beside.len() as u64) as usize];
        return hero_bites(g, pick).map(|_| ());
    }
    let step = at
        .neighbours4()
        .filter(|&l| open(g, l))
        .min_by_key(|l| l.manhattan(rat_at));
    if let Some(l) = step.filter(|l| l.manhattan(rat_at) < at.manhattan(rat_at)) {
        g.move_thing_mut(hero, l)?;
    }
    Ok(())
}
