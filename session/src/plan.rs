//! Foresight: choose a command by playing it out on clones of the game, under the game's
//! own rules.
//!
//! A [`Game`] is a persistent value, so trying a command costs a clone (a few pointers)
//! and one [`Ruleset::apply`]; the other actors move inside `apply`, by the game's own
//! rules. [`Planner::plan`] tries each candidate command, then the actor's best reply to
//! what happened, to a depth, and scores the games it reaches with a value function from
//! the actor's point of view. Randomness is handled by sampling futures: each sample
//! starts from a clone whose generator is reseeded from the planner's seed and the sample's
//! index, never from the real game's next draw, so the planner is not clairvoyant (a game
//! that differs only in its generator's state gets the same plan), and the same inputs give
//! the same plan, bit for bit.
//!
//! Within one sampled future the search is a plain maximum over the actor's commands
//! (determinised search: at its deeper plies it knows that sample's dice, as every
//! determinised search does); the samples are averaged at the root. Every candidate sees
//! the same sampled dice for the same sample index (common random numbers), so two
//! candidates are compared on the same futures.
//!
//! Time is the value function's to weigh: a value that does not count it makes a win now
//! and a win next turn worth the same, and the planner takes the first of equals (count
//! [`Game::turn`] in the value to prefer the sooner).
//!
//! Costs: one node is one clone, one `apply` and, at a leaf, one call of the value
//! function; a refused command counts as a node (its `apply` was paid). A search to depth
//! `d` over `n` candidates with `s` samples spends at most `s × (n + n² + … + nᵈ)` nodes,
//! fewer where commands are refused or the game ends. The planner deepens one ply at a
//! time (depth 1 with every sample, then depth 2, …) and answers from the deepest depth it
//! finished within the budget, so the budget bounds the work whatever the position:
//! [`Plan::nodes`] ≤ the budget, always. Memory: one game value per ply of the current
//! line (persistent values share all but what a command changed).
//!
//! ```
//! use alembic::Game;
//! use alembic_session::plan::Planner;
//! # use alembic::{Hooks, Library, Prop};
//! # use alembic_session::ruleset::{Outcome, Rejected, Ruleset, Status};
//! # const X: Prop<i32> = Prop::with_default("x", 0);
//! # /// A walk along a line; the cheese is at 3.
//! # struct Line(Library);
//! # impl Ruleset for Line {
//! #     const NAME: &'static str = "line";
//! #     const TITLE: &'static str = "LINE";
//! #     type Command = i32;
//! #     type Event = ();
//! #     type Refusal = &'static str;
//! #     fn library(&self) -> &Library { &self.0 }
//! #     fn hooks(&self) -> Hooks { Hooks::new() }
//! #     fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> { Ok(Game::new(seed)) }
//! #     fn apply(&self, g: &Game, step: &i32) -> Result<Outcome<()>, Rejected<&'static str>> {
//! #         let x = g.var(&X)? + step;
//! #         if x < 0 { return Err(Rejected::Refused("a wall")); }
//! #         let mut g = g.clone();
//! #         g.set_var_mut(&X, x);
//! #         Ok(Outcome { game: g, events: vec![] })
//! #     }
//! #     fn describe(&self, _: &Game, _: &()) -> Option<String> { None }
//! #     fn status(&self, _: &Game) -> Status { Status::Playing }
//! # }
//! // `Line`: a walk along a line (commands -1 and +1); the cheese lies at x = 3.
//! let rules = Line(Library::new());
//! let game = rules.new_game(1)?;
//! let near_cheese = |g: &Game| -f64::from((g.var(&X).unwrap_or(0) - 3).abs());
//! let plan = Planner::new(&rules)
//!     .depth(2) // two of the actor's commands
//!     .samples(4) // four sampled futures per candidate
//!     .budget(100) // at most 100 nodes
//!     .seed(7)
//!     .plan(&game, &[-1, 1], near_cheese)?
//!     .expect("a command was accepted");
//! assert_eq!(plan.command, 1);
//! assert_eq!(plan.value, -1.0); // two steps towards the cheese: one step left to go
//! assert!(plan.nodes <= 100);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alembic::Game;
use alembic::rng::GameRng;

use crate::ruleset::{Rejected, Ruleset, Status};

/// A planner over the rules `R`: how deep, how many sampled futures, how many nodes at most
/// and from which seed. Building one costs nothing; [`Planner::plan`] does the work.
///
/// For an actor whose moves are not the rules' commands (a monster inside a game's world
/// step), [`StepPlanner`] runs the same search over any step function.
#[derive(Debug)]
pub struct Planner<'r, R> {
    rules: &'r R,
    settings: Settings,
}

impl<R> Clone for Planner<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Planner<'_, R> {}

/// How a search is bounded and seeded: shared by [`Planner`] and [`StepPlanner`].
#[derive(Clone, Copy, Debug)]
struct Settings {
    depth: u32,
    samples: u32,
    budget: u64,
    seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: 2,
            samples: 4,
            budget: 1_000,
            seed: 0,
        }
    }
}

/// What [`Planner::plan`] chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan<C> {
    /// The best candidate (the first of the best, in the candidates' order, on a tie).
    pub command: C,
    /// Its expected value: the mean over the sampled futures (those where the rules
    /// accepted it) of the best value the actor reaches from it.
    pub value: f64,
    /// The depth the answer comes from (the deepest the budget paid for with every
    /// sample; 1 when even that was cut short, then from the samples finished).
    pub depth: u32,
    /// Nodes spent, shallower passes and a pass cut short included; never more than the
    /// budget.
    pub nodes: u64,
}

/// Why a plan could not be made: the rules hit an engine error (a bug in the game's rules
/// or data, never a refusal: refused commands are skipped).
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The rules answered [`Rejected::Engine`] for a command (or a step function failed).
    #[error("the rules failed while planning: {0}")]
    Engine(#[from] alembic::Error),
}

/// Why a search stopped before its end.
enum Stop {
    /// The budget ran out in the middle of a pass.
    Budget,
    /// The rules failed.
    Engine(alembic::Error),
}

/// The builder methods both planners share.
macro_rules! settings_methods {
    () => {
        /// Look `plies` of the actor's own commands ahead (at least 1; 0 is taken as 1).
        #[must_use]
        pub fn depth(mut self, plies: u32) -> Self {
            self.settings.depth = plies.max(1);
            self
        }

        /// Average over `n` sampled futures per candidate (at least 1; 0 is taken as 1).
        #[must_use]
        pub fn samples(mut self, n: u32) -> Self {
            self.settings.samples = n.max(1);
            self
        }

        /// Spend at most `nodes` nodes (clone + step + evaluate) on a plan.
        #[must_use]
        pub fn budget(mut self, nodes: u64) -> Self {
            self.settings.budget = nodes;
            self
        }

        /// Sample futures from `seed`: the same seed and the same inputs, the same plan.
        #[must_use]
        pub fn seed(mut self, seed: u64) -> Self {
            self.settings.seed = seed;
            self
        }
    };
}

impl<'r, R: Ruleset> Planner<'r, R> {
    /// A planner over `rules`: depth 2, 4 samples, a budget of 1,000 nodes, seed 0.
    #[must_use]
    pub fn new(rules: &'r R) -> Self {
        Planner {
            rules,
            settings: Settings::default(),
        }
    }

    settings_methods!();

    /// The best of `candidates` in `game` by `value` (the actor's point of view: higher is
    /// better; NaN counts as the worst), trying the same candidates at every ply. `None`
    /// when every candidate is refused, or the budget cannot pay for one sample of them
    /// (fewer nodes than candidates).
    ///
    /// Cost: at most the budget in nodes (the module doc); each node is a clone, an
    /// [`Ruleset::apply`] and, at the leaves, a call of `value`.
    ///
    /// # Errors
    /// [`PlanError::Engine`] when `apply` answers [`Rejected::Engine`].
    pub fn plan(
        &self,
        game: &Game,
        candidates: &[R::Command],
        value: impl Fn(&Game) -> f64,
    ) -> Result<Option<Plan<R::Command>>, PlanError> {
        let step = |g: &Game, c: &R::Command| match self.rules.apply(g, c) {
            Ok(out) => {
                let over = matches!(self.rules.status(&out.game), Status::Over(_));
                Ok(Some((out.game, over)))
            }
            Err(Rejected::Refused(_)) => Ok(None),
            Err(Rejected::Engine(e)) => Err(e),
        };
        search(&self.settings, game, candidates, &value, &step)
    }
}

/// A planner over any step function: `step(game, action)` plays the actor's `action` and
/// everything that follows until the actor may act again (the other actors by the game's
/// own, cheap rules), answering the game it reaches, `Ok(None)` when `action` is refused
/// there (a wall, a finished game, a dead actor), or an engine error. The search, its
/// sampled futures, its budget and its costs are [`Planner`]'s (the module doc), with a
/// call of `step` where `Planner` calls `apply`; a game the step refuses every candidate
/// in is a leaf.
///
/// ```
/// use alembic::{Game, Prop};
/// use alembic_session::plan::StepPlanner;
/// const X: Prop<i32> = Prop::with_default("x", 0);
/// // A walk along a line that stops at 0; the cheese lies at x = 3.
/// let walk = |g: &Game, d: &i32| -> Result<Option<Game>, alembic::Error> {
///     let x = g.var(&X)? + d;
///     if x < 0 {
///         return Ok(None); // refused
///     }
///     let mut g = g.clone();
///     g.set_var_mut(&X, x);
///     Ok(Some(g))
/// };
/// let near = |g: &Game| -f64::from((g.var(&X).unwrap_or(0) - 3).abs());
/// let plan = StepPlanner::new(walk).depth(3).samples(1).budget(50);
/// let plan = plan.plan(&Game::new(1), &[-1, 1], near)?.expect("a step was accepted");
/// assert_eq!((plan.command, plan.value), (1, 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StepPlanner<F> {
    step: F,
    settings: Settings,
}

impl<F> StepPlanner<F> {
    /// A planner over `step`: depth 2, 4 samples, a budget of 1,000 nodes, seed 0.
    #[must_use]
    pub fn new(step: F) -> Self {
        StepPlanner {
            step,
            settings: Settings::default(),
        }
    }

    settings_methods!();

    /// The best of `candidates` in `game` by `value`, as [`Planner::plan`], each node a
    /// clone, a call of the step function and, at the leaves, a call of `value`.
    ///
    /// # Errors
    /// [`PlanError::Engine`] when the step function fails.
    pub fn plan<A: Clone>(
        &self,
        game: &Game,
        candidates: &[A],
        value: impl Fn(&Game) -> f64,
    ) -> Result<Option<Plan<A>>, PlanError>
    where
        F: Fn(&Game, &A) -> Result<Option<Game>, alembic::Error>,
    {
        let step = |g: &Game, a: &A| Ok((self.step)(g, a)?.map(|g| (g, false)));
        search(&self.settings, game, candidates, &value, &step)
    }
}

/// A step: the game an action leads to and whether the game is over there, `None` when the
/// action is refused.
type Stepped = Result<Option<(Game, bool)>, alembic::Error>;

/// The search both planners run (the module doc).
fn search<A: Clone>(
    settings: &Settings,
    game: &Game,
    candidates: &[A],
    value: &impl Fn(&Game) -> f64,
    step: &impl Fn(&Game, &A) -> Stepped,
) -> Result<Option<Plan<A>>, PlanError> {
    let value = |g: &Game| {
        let v = value(g);
        if v.is_nan() { f64::NEG_INFINITY } else { v }
    };
    let search = Search {
        budget: settings.budget,
        candidates,
        value: &value,
        step,
    };
    let mut nodes = 0u64;
    let mut best: Option<(usize, f64, u32)> = None;
    for depth in 1..=settings.depth {
        // Per candidate: the sum of its values and the samples that accepted it.
        let mut totals = vec![(0.0, 0u32); candidates.len()];
        let mut done = 0u32;
        let mut full = true;
        'samples: for sample in 0..settings.samples {
            let root = future(settings.seed, game, sample);
            let mut these = vec![None; candidates.len()];
            for (i, c) in candidates.iter().enumerate() {
                match search.down(&root, c, depth, &mut nodes) {
                    Ok(v) => these[i] = v,
                    Err(Stop::Budget) => {
                        full = false;
                        break 'samples;
                    }
                    Err(Stop::Engine(e)) => return Err(PlanError::Engine(e)),
                }
            }
            for (i, v) in these.into_iter().enumerate() {
                if let Some(v) = v {
                    totals[i].0 += v;
                    totals[i].1 += 1;
                }
            }
            done += 1;
        }
        if done > 0 && (full || best.is_none()) {
            let mut pick: Option<(usize, f64)> = None;
            for (i, &(sum, n)) in totals.iter().enumerate() {
                let mean = sum / f64::from(n.max(1));
                if n > 0 && pick.is_none_or(|(_, b)| mean > b) {
                    pick = Some((i, mean));
                }
            }
            match pick {
                Some((i, v)) => best = Some((i, v, depth)),
                None => return Ok(None), // every candidate refused
            }
        }
        if !full {
            break;
        }
    }
    Ok(best.map(|(i, value, depth)| Plan {
        command: candidates[i].clone(),
        value,
        depth,
        nodes,
    }))
}

/// The game of sampled future `sample`: a clone whose generator is seeded from the
/// planner's seed and the sample's index alone.
fn future(seed: u64, game: &Game, sample: u32) -> Game {
    let mut g = game.clone();
    *g.rng() = GameRng::seed_from(mix(seed ^ mix(u64::from(sample) + 1)));
    g
}

/// One search's fixed parts.
struct Search<'a, A, V, S> {
    budget: u64,
    candidates: &'a [A],
    value: &'a V,
    step: &'a S,
}

impl<A, V: Fn(&Game) -> f64, S: Fn(&Game, &A) -> Stepped> Search<'_, A, V, S> {
    /// The best value the actor reaches within `depth` plies from `game` starting with
    /// `command`: `None` when `command` is refused.
    fn down(
        &self,
        game: &Game,
        command: &A,
        depth: u32,
        nodes: &mut u64,
    ) -> Result<Option<f64>, Stop> {
        if *nodes >= self.budget {
            return Err(Stop::Budget);
        }
        *nodes += 1;
        let next = match (self.step)(game, command) {
            Ok(Some((next, over))) => {
                if depth <= 1 || over {
                    return Ok(Some((self.value)(&next)));
                }
                next
            }
            Ok(None) => return Ok(None),
            Err(e) => return Err(Stop::Engine(e)),
        };
        let mut best: Option<f64> = None;
        for c in self.candidates {
            if let Some(v) = self.down(&next, c, depth - 1, nodes)? {
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        // Nothing the actor may do next: the game as the command left it.
        Ok(Some(best.unwrap_or_else(|| (self.value)(&next))))
    }
}

/// SplitMix64's finaliser: a sample's seed from the planner's.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::ruleset::{Ending, Outcome};
    use alembic::{Hooks, Library, Prop};

    const X: Prop<i32> = Prop::with_default("walk.x", 0);
    const HP: Prop<i32> = Prop::with_default("walk.hp", 10);
    const CHEESE: Prop<i32> = Prop::with_default("walk.cheese", 100);
    const TRAP: Prop<i32> = Prop::with_default("walk.trap", 100);

    /// A walk on the line -5..=5: the cheese wins, a trap bites for 3 one time in two.
    struct Walk(Library);

    #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    enum Step {
        Left,
        Right,
        Stay,
        Bug,
    }

    impl Ruleset for Walk {
        const NAME: &'static str = "walk";
        const TITLE: &'static str = "WALK";
        type Command = Step;
        type Event = ();
        type Refusal = &'static str;

        fn library(&self) -> &Library {
            &self.0
        }
        fn hooks(&self) -> Hooks {
            Hooks::new()
        }
        fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
            Ok(Game::new(seed))
        }
        fn apply(&self, g: &Game, s: &Step) -> Result<Outcome<()>, Rejected<&'static str>> {
            let x = g.var(&X)?
                + match s {
                    Step::Left => -1,
                    Step::Right => 1,
                    Step::Stay => 0,
                    Step::Bug => return Err(alembic::Error::msg("a bug").into()),
                };
            if x.abs() > 5 {
                return Err(Rejected::Refused("a wall"));
            }
            let mut g = g.clone();
            g.set_var_mut(&X, x);
            if x == g.var(&TRAP)? && g.rng().one_in(1, 2) {
                g.set_var_mut(&HP, g.var(&HP)? - 3);
            }
            g.set_turn_mut(g.turn() + 1);
            Ok(Outcome {
                game: g,
                events: vec![],
            })
        }
        fn describe(&self, _: &Game, _: &()) -> Option<String> {
            None
        }
        fn status(&self, g: &Game) -> Status {
            if g.var(&HP).unwrap_or(0) <= 0 {
                Status::Over(Ending::new(false, "trapped"))
            } else if g.var(&X).ok() == g.var(&CHEESE).ok() {
                Status::Over(Ending::new(true, "fed"))
            } else {
                Status::Playing
            }
        }
    }

    fn walk() -> Walk {
        Walk(Library::new())
    }

    fn at(x: i32, cheese: i32, trap: i32) -> Game {
        let mut g = Game::new(1);
        g.set_var_mut(&X, x);
        g.set_var_mut(&CHEESE, cheese);
        g.set_var_mut(&TRAP, trap);
        g
    }

    fn won(g: &Game) -> f64 {
        f64::from(u8::from(g.var(&X).ok() == g.var(&CHEESE).ok()))
    }

    fn hp(g: &Game) -> f64 {
        f64::from(g.var(&HP).unwrap())
    }

    const ALL: [Step; 3] = [Step::Left, Step::Stay, Step::Right];

    #[test]
    fn takes_the_cheese_one_step_away_rather_than_walking_away() {
        let rules = walk();
        // The sooner the better (a win now and a win next turn would be worth the same).
        let soon = |g: &Game| 0.01 * g.turn() as f64;
        let near = |g: &Game| 100.0 * won(g) - f64::from((g.var(&X).unwrap() - 1).abs()) - soon(g);
        let plan = Planner::new(&rules)
            .plan(&at(0, 1, 100), &ALL, near)
            .unwrap()
            .unwrap();
        assert_eq!(plan.command, Step::Right);
        assert_eq!(plan.value, 99.99);
    }

    #[test]
    fn avoids_a_move_whose_sampled_futures_lose_hp() {
        let rules = walk();
        for seed in 0..20 {
            let planner = Planner::new(&rules).depth(1).samples(8).seed(seed);
            // Right first: on a tie it would be chosen.
            let plan = planner
                .plan(&at(0, 100, 1), &[Step::Right, Step::Left], hp)
                .unwrap()
                .unwrap();
            assert_eq!(plan.command, Step::Left, "seed {seed}");
            assert_eq!(plan.value, 10.0);
            let trap = planner.plan(&at(0, 100, 1), &[Step::Right], hp).unwrap();
            let trap = trap.unwrap().value;
            assert!(trap < 10.0, "some sampled futures bite: {trap}");
        }
    }

    #[test]
    fn looks_as_many_plies_ahead_as_asked() {
        let rules = walk();
        let g = at(0, 2, 100);
        let one = Planner::new(&rules).depth(1).plan(&g, &ALL, won).unwrap();
        // One ply sees no cheese: a tie, and the first candidate.
        assert_eq!(one.map(|p| (p.command, p.value)), Some((Step::Left, 0.0)));
        let two = Planner::new(&rules).depth(2).plan(&g, &ALL, won).unwrap();
        let two = two.unwrap();
        assert_eq!((two.command, two.value, two.depth), (Step::Right, 1.0, 2));
    }

    #[test]
    fn same_seed_same_plan() {
        let rules = walk();
        let g = at(0, 3, 1);
        let value = |g: &Game| hp(g) + 5.0 * won(g) - f64::from(g.var(&X).unwrap().abs());
        let planner = Planner::new(&rules).depth(3).samples(6).budget(500).seed(9);
        let a = planner.plan(&g, &ALL, value).unwrap().unwrap();
        let b = planner.plan(&g.clone(), &ALL, value).unwrap().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.value.to_bits(), b.value.to_bits());
    }

    #[test]
    fn never_spends_more_than_the_budget() {
        let rules = walk();
        let g = at(0, 4, 1);
        let value = |g: &Game| hp(g) + won(g);
        for budget in 0..400 {
            let plan = Planner::new(&rules)
                .depth(4)
                .samples(3)
                .budget(budget)
                .plan(&g, &ALL, value)
                .unwrap();
            match plan {
                Some(p) => {
                    assert!(
                        p.nodes <= budget,
                        "{} nodes on a budget of {budget}",
                        p.nodes
                    );
                    assert!(p.depth >= 1 && p.depth <= 4);
                }
                None => assert!(budget < ALL.len() as u64, "no plan on {budget}"),
            }
        }
        // A budget that pays for every pass goes the whole depth.
        let deep = Planner::new(&rules).depth(4).samples(3).budget(100_000);
        let p = deep.plan(&g, &ALL, value).unwrap().unwrap();
        assert_eq!(p.depth, 4);
        assert!(p.nodes <= 3 * (3 + 9 + 27 + 81) * 4);
    }

    /// A game that differs only in its generator's state gets the same plan: the futures
    /// are sampled from the planner's seed, never from the real game's next draw. The real
    /// next draw does decide what stepping on the trap does (checked first), so a planner
    /// that peeked would rate the trap differently in the two games.
    #[test]
    fn the_real_generator_does_not_change_the_plan() {
        let rules = walk();
        let g = at(0, 100, 1);
        let reseeded = |s: u64| {
            let mut g = g.clone();
            *g.rng() = GameRng::seed_from(s);
            g
        };
        let real = |g: &Game| hp(&rules.apply(g, &Step::Right).unwrap().game);
        let bites: Vec<u64> = (0..64).filter(|&s| real(&reseeded(s)) < 10.0).collect();
        let spares: Vec<u64> = (0..64).filter(|&s| real(&reseeded(s)) == 10.0).collect();
        assert!(!bites.is_empty() && !spares.is_empty());
        let planner = Planner::new(&rules).depth(2).samples(5).seed(3);
        let plan = |g: &Game| planner.plan(g, &[Step::Right, Step::Stay], hp).unwrap();
        let expected = plan(&g);
        for s in bites.iter().chain(&spares) {
            assert_eq!(plan(&reseeded(*s)), expected, "real generator seeded {s}");
        }
        // And the sampled futures do differ among themselves: the trap's value is a mean of
        // bitten and spared futures, neither 7 nor 10.
        let trap = planner.plan(&g, &[Step::Right], hp).unwrap().unwrap();
        assert!(trap.value > 7.0 && trap.value < 10.0, "{}", trap.value);
    }

    #[test]
    fn refused_commands_are_skipped_and_engine_errors_propagate() {
        let rules = walk();
        let g = at(5, 0, 100);
        let left = |g: &Game| -f64::from(g.var(&X).unwrap());
        let p = Planner::new(&rules).plan(&g, &[Step::Right, Step::Stay], left);
        assert_eq!(p.unwrap().unwrap().command, Step::Stay);
        let none = Planner::new(&rules).plan(&g, &[Step::Right], left).unwrap();
        assert_eq!(none, None, "every candidate refused");
        let bug = Planner::new(&rules).plan(&g, &[Step::Stay, Step::Bug], left);
        assert!(matches!(bug, Err(PlanError::Engine(_))));
    }
}
