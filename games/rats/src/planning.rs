//! A bot that plans: the session's [`Planner`] over the rats' own rules, scoring the games
//! it reaches by whether the hero lives, its hit points, the cheese, the rats it killed and
//! the way left to go.

use alembic::path::DijkstraMap;
use alembic::{Dir, Game, Loc};
use alembic_session::plan::Planner;
use alembic_session::ruleset::{Bot, Ending};
use alembic_session::{Ruleset, Status};

use crate::{CHEESE, Command, HP, KILLS, MAZE, Rats, walk};

/// The hero's commands the planner tries at every ply: the four steps and a wait.
const CANDIDATES: [Command; 5] = [
    Command::Move(Dir::North),
    Command::Move(Dir::East),
    Command::Move(Dir::South),
    Command::Move(Dir::West),
    Command::Wait,
];

/// The way out.
const EXIT: Loc = Loc::new(1, 1, 0);
/// What one hit point is worth, in steps of the way left to go.
const HP_WEIGHT: f64 = 5.0;
/// What carrying the cheese is worth, in steps.
const CHEESE_WEIGHT: f64 = 20.0;
/// What a dead rat is worth, in steps: a rat in the way has to be fought some time, and
/// without this a search a few plies deep backs away from it for ever (backing away costs
/// nothing within its horizon; the bites come later).
const KILL_WEIGHT: f64 = 4.0;
/// A win (less a step a turn) or a death (more a step a turn: later is better).
const END_WEIGHT: f64 = 1_000_000.0;

/// A bot for the rats that plans each command with [`Planner`]: it plays every step and the
/// wait a few plies ahead on clones of the game (the rats move inside [`Rats::apply`], by
/// their own rules), over sampled futures, and takes the best by [`PlanningBot::value`].
///
/// Cost per command: at most the budget in nodes (default 1,500: 3 plies, 4 samples),
/// each a clone and one [`Rats::apply`], and two distance maps of the maze (779 cells).
///
/// ```
/// use alembic_rats::{PlanningBot, Rats};
/// use alembic_session::{Ruleset, Status, ruleset::Bot};
///
/// let rats = Rats::new()?;
/// let mut game = rats.new_game(3)?;
/// let mut bot = PlanningBot::new(&rats, 3).budget(300);
/// for _ in 0..5 {
///     let command = bot.choose(&game).expect("a command");
///     game = rats.apply(&game, &command).map_err(|e| e.to_string())?.game;
/// }
/// assert_eq!(game.turn(), 5);
/// assert_eq!(rats.status(&game), Status::Playing);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PlanningBot<'r> {
    rules: &'r Rats,
    seed: u64,
    depth: u32,
    samples: u32,
    budget: u64,
    /// Steps to the way out, from every floor cell (rebuilt for each command: each seed
    /// has its own maze, and one bot may play several games).
    to_exit: DijkstraMap,
    /// Steps to the cheese, from every floor cell, and where the cheese lay (`None` once
    /// it is carried).
    to_cheese: DijkstraMap,
    cheese: Option<Loc>,
    /// The planner's last error (a bug in the rules), kept for the caller to read.
    error: Option<String>,
}

impl<'r> PlanningBot<'r> {
    /// A planning bot for `rules`, sampling futures from `seed`: 3 plies, 4 samples, a budget
    /// of 1,500 nodes a command.
    #[must_use]
    pub fn new(rules: &'r Rats, seed: u64) -> Self {
        PlanningBot {
            rules,
            seed,
            depth: 3,
            samples: 4,
            budget: 1_500,
            to_exit: DijkstraMap::new(MAZE),
            to_cheese: DijkstraMap::new(MAZE),
            cheese: None,
            error: None,
        }
    }

    /// Look `plies` of the hero's commands ahead.
    #[must_use]
    pub fn depth(mut self, plies: u32) -> Self {
        self.depth = plies;
        self
    }

    /// Average over `n` sampled futures.
    #[must_use]
    pub fn samples(mut self, n: u32) -> Self {
        self.samples = n;
        self
    }

    /// Spend at most `nodes` nodes a command.
    #[must_use]
    pub fn budget(mut self, nodes: u64) -> Self {
        self.budget = nodes;
        self
    }

    /// The last planning error (the rules failed: a bug), if any; the bot then has nothing
    /// to do.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// How good `game` is for the hero: a win is worth a million (less a step a turn), a
    /// death minus a million (more a step a turn: later is better); otherwise, in steps,
    /// 5 a hit point, 20 for carrying the cheese and 4 a rat killed, less the steps left to
    /// go (to the cheese and from there to the way out, or to the way out once it is
    /// carried). Call it after [`Bot::choose`], which builds the maze's distance maps.
    #[must_use]
    pub fn value(&self, game: &Game) -> f64 {
        let turn = game.turn() as f64;
        match self.rules.status(game) {
            Status::Over(Ending { won: true, .. }) => return END_WEIGHT - turn,
            Status::Over(_) => return -END_WEIGHT + turn,
            Status::Playing => {}
        }
        let Ok((hero, at)) = Rats::hero(game) else {
            return -END_WEIGHT;
        };
        let hp = f64::from(game.query(hero, &HP).unwrap_or(0));
        let far = |map: &DijkstraMap, l: Loc| map.get(l).map_or(1_000.0, |d| d as f64);
        let (carried, left) = if Rats::carried(game) {
            (1.0, far(&self.to_exit, at))
        } else {
            match self.cheese {
                Some(c) => (0.0, far(&self.to_cheese, at) + far(&self.to_exit, c)),
                None => (0.0, 1_000.0),
            }
        };
        let kills = f64::from(game.var(&KILLS).unwrap_or(0));
        HP_WEIGHT * hp + CHEESE_WEIGHT * carried + KILL_WEIGHT * kills - left
    }
}

impl Bot<Command> for PlanningBot<'_> {
    fn choose(&mut self, game: &Game) -> Option<Command> {
        let step = |a: Loc, b: Loc| ((a.x == b.x || a.y == b.y) && walk(game, b)).then_some(1);
        self.to_exit.rebuild([EXIT], step);
        self.cheese = None;
        if !Rats::carried(game) {
            let cheese = game.things().location(game.var(&CHEESE).ok()?).ok()?;
            self.to_cheese.rebuild([cheese], step);
            self.cheese = Some(cheese);
        }
        let seed = self.seed ^ game.turn().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let planner = Planner::new(self.rules)
            .depth(self.depth)
            .samples(self.samples)
            .budget(self.budget)
            .seed(seed);
        match planner.plan(game, &CANDIDATES, |g| self.value(g)) {
            Ok(plan) => plan.map(|p| p.command),
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::ALIVE;
    use alembic_session::ruleset::Policy;

    /// Seed 1's maze with the hero at `hero` and only the rats at `rats`.
    fn position(rules: &Rats, hero: impl Fn(&Game, &DijkstraMap) -> Loc) -> (Game, Loc) {
        let mut g = rules.new_game(1).unwrap();
        let (me, _) = Rats::hero(&g).unwrap();
        for id in g.things().ids_on_level(0) {
            if id != me && g.is(id, &ALIVE) {
                g.remove_thing_mut(id).unwrap();
            }
        }
        let cheese = g.things().location(g.var(&CHEESE).unwrap()).unwrap();
        let step = |a: Loc, b: Loc| ((a.x == b.x || a.y == b.y) && walk(&g, b)).then_some(1);
        let map = DijkstraMap::build(MAZE, &[cheese], step);
        let at = hero(&g, &map);
        g.move_thing_mut(me, at).unwrap();
        (g, cheese)
    }

    fn open_neighbours(g: &Game, l: Loc) -> Vec<Loc> {
        l.neighbours4().filter(|&n| walk(g, n)).collect()
    }

    #[test]
    fn takes_the_cheese_one_step_away() {
        let rules = Rats::new().unwrap();
        let (g, cheese) = position(&rules, |g, _| {
            let c = g.things().location(g.var(&CHEESE).unwrap()).unwrap();
            open_neighbours(g, c)[0]
        });
        let mut bot = PlanningBot::new(&rules, 1);
        let at = Rats::hero(&g).unwrap().1;
        assert_eq!(bot.choose(&g), at.dir_to(cheese).map(Command::Move));
    }

    /// In a corridor on the way to the cheese with a rat right behind, the chase bot turns
    /// to bite it (and is bitten in the futures where the rat lives); the planner walks
    /// on, where no sampled future loses a hit point (a rat following a hero who keeps
    /// walking never catches up).
    #[test]
    fn walks_on_rather_than_fight_a_rat_behind() {
        let rules = Rats::new().unwrap();
        let corridor = |g: &Game, map: &DijkstraMap| {
            MAZE.iter()
                .filter(|&l| walk(g, l) && map.get(l).is_some_and(|d| d > 5))
                .find(|&l| open_neighbours(g, l).len() == 2)
                .unwrap()
        };
        let (mut g, cheese) = position(&rules, corridor);
        let at = Rats::hero(&g).unwrap().1;
        let step = |a: Loc, b: Loc| ((a.x == b.x || a.y == b.y) && walk(&g, b)).then_some(1);
        let map = DijkstraMap::build(MAZE, &[cheese], step);
        let d = map.get(at).unwrap();
        let ahead = open_neighbours(&g, at)
            .into_iter()
            .find(|&n| map.get(n) == Some(d - 1));
        let behind = open_neighbours(&g, at)
            .into_iter()
            .find(|&n| map.get(n) == Some(d + 1));
        let (ahead, behind) = (ahead.unwrap(), behind.unwrap());
        let mut ctx = alembic::HookCtx::new(&rules.hooks);
        g.spawn_mut(&mut ctx, "rat", behind).unwrap();

        let mut chase = rules.bot(1, Policy::Explore).unwrap();
        assert_eq!(chase.choose(&g), at.dir_to(behind).map(Command::Move));
        let mut bot = PlanningBot::new(&rules, 1);
        let step_on = at.dir_to(ahead).map(Command::Move);
        assert_eq!(bot.choose(&g), step_on);
        // Walking on costs nothing in any future; biting the rat costs hit points in some.
        let hp = |g: &Game| f64::from(g.query(Rats::hero(g).unwrap().0, &HP).unwrap());
        let planner = Planner::new(&rules).depth(1).samples(16);
        let on = planner.plan(&g, &[step_on.unwrap()], hp).unwrap().unwrap();
        let bite = at.dir_to(behind).map(Command::Move).unwrap();
        let fight = planner.plan(&g, &[bite], hp).unwrap().unwrap();
        assert_eq!(on.value, 10.0);
        assert!(fight.value < 10.0, "{}", fight.value);
    }

    /// The bot reads the maze, not the dice: the same position with the real generator in
    /// another state gets the same command (the rats' next bites are drawn from it).
    #[test]
    fn the_real_generator_does_not_change_the_choice() {
        let rules = Rats::new().unwrap();
        let mut g = rules.new_game(2).unwrap();
        let mut chase = rules.bot(2, Policy::Explore).unwrap();
        for _ in 0..60 {
            let c = chase.choose(&g).unwrap();
            if let Ok(o) = rules.apply(&g, &c) {
                g = o.game;
            }
        }
        let mut bot = PlanningBot::new(&rules, 2).budget(400);
        let expected = bot.choose(&g);
        for s in 0..8 {
            let mut other = g.clone();
            *other.rng() = alembic::rng::GameRng::seed_from(1000 + s);
            assert_ne!(other.state_hash(), g.state_hash());
            assert_eq!(bot.choose(&other), expected, "real generator seeded {s}");
        }
    }

    #[test]
    fn same_seed_same_commands() {
        let rules = Rats::new().unwrap();
        let play = || {
            let mut g = rules.new_game(4).unwrap();
            let mut bot = PlanningBot::new(&rules, 4).budget(200);
            let mut out = Vec::new();
            for _ in 0..30 {
                let c = bot.choose(&g).unwrap();
                g = rules.apply(&g, &c).unwrap().game;
                out.push(c);
            }
            (out, g.state_hash())
        };
        assert_eq!(play(), play());
    }
}
