//! The `plan` policy: the explore bot ([`bot`](crate::bot)), except that with a hostile
//! monster in view it chooses the hero's command by search, with the planner the cunning
//! monsters use ([`StepPlanner`]): each candidate (the explorer's own choice, waiting, a
//! step each way, drinking an identified potion, throwing one at the nearest monster) is
//! played out by [`apply`] on reseeded clones of the game, and the best by [`value`] is
//! taken when it beats the explorer's choice on the same futures by [`MARGIN`].
//!
//! Inside its futures no monster plans (the clones have
//! [`FORESIGHT_OFF`] set), so a search never starts another.
//! It weighs only what the hero could know: potions are tried only once identified.
//!
//! Costs: at most [`BUDGET`] nodes (one clone and one [`apply`] each), and [`SAMPLES`]
//! more to weigh the explorer's choice, a turn with a monster in view; the other turns cost
//! what the explore bot costs.

use alembic::{Dir, Game, Loc, ThingId, fov::VisibleSet};
use alembic_session::plan::StepPlanner;

use crate::bot::Bot;
use crate::command::{Command, RuleError, Rules, apply};
use crate::events::is_identified;
use crate::props::{FORESIGHT_OFF, GAME_OVER, HPS, HPS_MAX, IS_CREATURE, IS_HOSTILE};
use crate::rules::world::{hero, hero_view};

/// Monsters this close (Chebyshev) and in view make the bot plan.
pub const THREAT_RANGE: u32 = 7;
/// Sampled futures per candidate.
pub const SAMPLES: u32 = 6;
/// Most nodes a planned turn may cost.
pub const BUDGET: u64 = 120;
/// What the hero's death counts as, in shares of its hit points.
pub const DEATH: f64 = -2.0;
/// How much the bot values its own hit points (a share of its maximum) against the hit
/// points the monsters in view keep (their shares, summed).
pub const SELF_WEIGHT: f64 = 4.0;
/// How much better than the explorer's own choice (in [`value`]'s units, on the same
/// sampled futures) another command must be to replace it: the explorer's tactics (running
/// for the stairs, resting) pay off beyond one turn, which a one-ply search cannot see.
pub const MARGIN: f64 = 0.1;

/// The planning bot: an explorer whose fights are chosen by search.
#[derive(Debug)]
pub struct PlanBot {
    explore: Bot,
    rules: Rules,
    seed: u64,
}

impl PlanBot {
    /// A planning bot whose own random choices come from `seed`, playing by `rules`.
    #[must_use]
    pub fn new(seed: u64, rules: Rules) -> Self {
        PlanBot {
            explore: Bot::new(seed),
            rules,
            seed,
        }
    }

    /// Tell the bot its last command was refused.
    pub fn refused(&mut self) {
        self.explore.refused();
    }

    /// The next command in `game`; `seen` is the hero's view if the caller has it.
    pub fn choose(&mut self, game: &Game, seen: Option<VisibleSet>) -> Command {
        let suggestion = self.explore.choose_seeing(game, seen.clone());
        let Ok(h) = hero(game) else {
            return suggestion;
        };
        let Some(view) = seen.or_else(|| hero_view(game).ok()) else {
            return suggestion;
        };
        let threats = threats(game, h, &view);
        if threats.is_empty() {
            return suggestion;
        }
        let acts = candidates(game, h, &threats, suggestion.clone());
        let rules = &self.rules;
        let step = |g: &Game, c: &Command| {
            let mut g = g.clone();
            g.set_var_mut(&FORESIGHT_OFF, true);
            match apply(&g, rules, c.clone()) {
                Ok(o) => Ok(Some(o.game)),
                Err(RuleError::Engine(e)) => Err(e),
                Err(_) => Ok(None),
            }
        };
        let planner = StepPlanner::new(step)
            .depth(1)
            .samples(SAMPLES)
            .budget(BUDGET)
            .seed(self.seed ^ game.turn().rotate_left(20));
        let value = |g: &Game| value(g, h, &threats);
        let Ok(Some(best)) = planner.plan(game, &acts, value) else {
            return suggestion;
        };
        if best.command == suggestion {
            return suggestion;
        }
        // The explorer's choice on the same futures (the same seed: the same dice).
        let own = planner.plan(game, std::slice::from_ref(&suggestion), value);
        match own {
            Ok(Some(own)) if best.value <= own.value + MARGIN => suggestion,
            _ => best.command,
        }
    }
}

/// The hostile monsters in `view` within [`THREAT_RANGE`] of the hero, not hidden by
/// darkness.
fn threats(game: &Game, h: ThingId, view: &VisibleSet) -> Vec<ThingId> {
    let Ok(at) = game.things().location(h) else {
        return Vec::new();
    };
    let r = i32::try_from(THREAT_RANGE).unwrap_or(7);
    let mut out = Vec::new();
    for y in at.y - r..=at.y + r {
        for x in at.x - r..=at.x + r {
            let l = Loc::new(x, y, at.z);
            if l == at || !view.contains(l) {
                continue;
            }
            for &t in game.things().at(l) {
                if t != h
                    && game.is(t, &IS_CREATURE)
                    && game.is(t, &IS_HOSTILE)
                    && !crate::view::hidden_in_dark(game, l)
                {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// The explorer's choice first, then waiting, the eight steps, and for each identified
/// potion kind carried: drinking it and throwing it at the nearest threat.
fn candidates(game: &Game, h: ThingId, threats: &[ThingId], first: Command) -> Vec<Command> {
    let mut acts = vec![first];
    let mut push = |c: Command| {
        if !acts.contains(&c) {
            acts.push(c);
        }
    };
    push(Command::Wait);
    for d in Dir::COMPASS {
        push(Command::Move(d));
    }
    let at = game.things().location(h).ok();
    let nearest = threats
        .iter()
        .filter_map(|&t| game.things().location(t).ok())
        .min_by_key(|l| at.map_or(0, |a| a.chebyshev(*l)));
    for p in crate::rules::cunning::potion_kinds(game, h, |p| is_identified(game, p)) {
        push(Command::Quaff(p));
        if let Some(l) = nearest {
            push(Command::Throw(p, l));
        }
    }
    acts
}

/// How good `game` is for the hero: [`SELF_WEIGHT`] times the share of its hit points it
/// keeps ([`DEATH`] if dead), less the shares the monsters of `threats` keep (none for
/// those gone).
#[must_use]
pub fn value(game: &Game, h: ThingId, threats: &[ThingId]) -> f64 {
    let share = |t: ThingId| -> f64 {
        let hp = game.query(t, &HPS).unwrap_or(0);
        let max = game.query(t, &HPS_MAX).unwrap_or(1).max(1);
        f64::from(hp.clamp(0, max)) / f64::from(max)
    };
    let dead = game.var(&GAME_OVER).unwrap_or(false) && game.query(h, &HPS).unwrap_or(0) <= 0;
    let mine = if dead { DEATH } else { share(h) };
    let theirs: f64 = threats
        .iter()
        .filter(|&&t| game.things().contains(t))
        .map(|&t| share(t))
        .sum();
    SELF_WEIGHT * mine - theirs
}
