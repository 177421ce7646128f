//! Many steps with one key, as in Brogue CE and DCSS: rest (`Z`), search (`s`), run
//! (Shift+direction), travel to a cell (a click), to the nearest known stairs (`>` and `<`
//! away from stairs), auto-explore (`o`) and auto-fight (`Tab`). One driver for every game: the game answers the
//! questions ([`Walker`]), the driver keeps the count, the limits and the reasons to stop.
//!
//! Every step is a normal command, so a journey is recorded, replayed and undone exactly
//! like keys are. A play screen takes one [`Journey::step`] a tick, so the player sees the
//! hero walk and any key stops it; [`Journey::finish`] takes them all at once (tests, tools).
//!
//! The session's play screen drives it over any [`Ruleset`](crate::Ruleset) (through
//! [`Journeys::route`](crate::Journeys::route), [`Journeys::interrupt`](crate::Journeys::interrupt)
//! and the rest); a game with a play screen of its own implements [`Walker`] for its context
//! and drives the same [`Journey`].
//!
//! ```
//! use alembic::{Dir, Game};
//! use alembic_session::journey::{Auto, End, Journey, Walker};
//!
//! /// A corridor ten steps long: the hero runs east until its end.
//! struct Corridor { game: Game, x: u32 }
//!
//! impl Walker for Corridor {
//!     type Command = Dir;
//!     type Memo = ();
//!     fn game(&self) -> Option<&Game> { Some(&self.game) }
//!     fn next(&mut self, _: Auto, _: bool, _: &mut ()) -> Result<Dir, End> {
//!         if self.x < 10 { Ok(Dir::East) } else { Err(End::Arrived) }
//!     }
//!     fn take(&mut self, _: Dir, _: &mut ()) -> Option<End> {
//!         self.x += 1;
//!         None
//!     }
//! }
//!
//! let mut walk = Corridor { game: Game::new(1), x: 0 };
//! assert_eq!(Journey::new(Auto::Run(Dir::East)).finish(&mut walk), End::Arrived);
//! assert_eq!(walk.x, 10);
//! ```

use alembic::{Dir, Game};

use crate::ruleset::Goal;

/// The turns one search (`s`) takes.
pub const SEARCH_TURNS: usize = 5;
/// The most steps one run, travel or exploration takes before it stops (a safety net: a
/// path is shorter).
pub const MAX_STEPS: usize = 400;
/// The most turns one rest takes.
pub const MAX_REST: usize = 1_000;
/// Auto-fight stops when the hero's hit points fall below this share of their most, in
/// percent (DCSS's default); a hero already below it at the start fights on until they
/// lose any more.
pub const FIGHT_UNTIL_PERCENT: i64 = 50;

/// What a journey does, step after step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Auto {
    /// Wait until rested (`Z`).
    Rest,
    /// Wait [`SEARCH_TURNS`] turns (`s`).
    Search,
    /// Straight on in a direction until something interesting (Shift+direction).
    Run(Dir),
    /// Towards a goal: a cell, the nearest known stairs, the unexplored (`o`).
    Travel(Goal),
    /// Fight the nearest monster in view, stepping to it, until it dies, the hero is badly
    /// hurt or another comes into view (`Tab`, as DCSS's auto-fight, one press a fight).
    Fight,
}

/// Why a journey ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// At the goal.
    Arrived,
    /// Stopped; the sentence says why ("You see a goblin."), or is empty when the game
    /// already said it (a refusal, a message of the step).
    Interrupted(String),
    /// No known way there.
    NoPath,
    /// The game ended on the way.
    GameOver,
}

impl End {
    /// What to tell the player, if anything.
    #[must_use]
    pub fn sentence(&self) -> Option<&str> {
        match self {
            End::Interrupted(why) if !why.is_empty() => Some(why),
            End::NoPath => Some("You know no way there."),
            _ => None,
        }
    }
}

/// Why a journey may not begin ([`Walker::begin`]): its `Display` is the sentence for the
/// player ("Not with a goblin in view.").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct JourneyRefused(pub String);

/// The game's side of a journey: what the next step is, playing it, and whether to stop.
/// `Memo` is what the game remembers during one journey (the sides of a run's way, cells
/// it gave up on); it starts as `Default` with each journey.
pub trait Walker {
    /// A step (a move, an open door, a wait).
    type Command;
    /// What the game remembers during one journey.
    type Memo: Default;

    /// The game now (`None`: there is none, and the journey ends).
    fn game(&self) -> Option<&Game>;

    /// Whether the journey may begin: `Err` says why not ("Not with a goblin in view.").
    /// Default: yes.
    ///
    /// # Errors
    /// [`JourneyRefused`]: the sentence for the player.
    fn begin(&mut self, auto: Auto, memo: &mut Self::Memo) -> Result<(), JourneyRefused> {
        let _ = (auto, memo);
        Ok(())
    }

    /// The next step, or how the journey ends here (`first`: no step taken yet).
    ///
    /// # Errors
    /// How it ends: [`End::Arrived`], [`End::NoPath`], or why it stops.
    fn next(
        &mut self,
        auto: Auto,
        first: bool,
        memo: &mut Self::Memo,
    ) -> Result<Self::Command, End>;

    /// Play the step: `Some` when the journey ends with it (refused, the game over).
    fn take(&mut self, command: Self::Command, memo: &mut Self::Memo) -> Option<End>;

    /// After a step took the game from `before`: whether something stops the journey (a
    /// creature came into view, the hero was hurt, the game said something). Default: no.
    fn interrupt(&mut self, auto: Auto, before: &Game, memo: &mut Self::Memo) -> Option<End> {
        let _ = (auto, before, memo);
        None
    }

    /// Whether a rest is over (healed). Default: never (a rest runs until interrupted or
    /// [`MAX_REST`]).
    fn rested(&self) -> bool {
        false
    }
}

/// One journey under way: what it does, its steps so far and the game's memo.
#[derive(Clone, Debug)]
pub struct Journey<M> {
    auto: Auto,
    started: bool,
    steps: usize,
    memo: M,
}

impl<M: Default> Journey<M> {
    /// A journey doing `auto`, not started.
    #[must_use]
    pub fn new(auto: Auto) -> Self {
        Journey {
            auto,
            started: false,
            steps: 0,
            memo: M::default(),
        }
    }
}

impl<M> Journey<M> {
    /// What it does.
    #[must_use]
    pub fn auto(&self) -> Auto {
        self.auto
    }

    /// The steps taken so far.
    #[must_use]
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// One step: `Some` when the journey is over, with why. Stops at [`MAX_STEPS`] steps
    /// ([`MAX_REST`] for a rest, [`SEARCH_TURNS`] for a search).
    pub fn step<W: Walker<Memo = M>>(&mut self, w: &mut W) -> Option<End> {
        if !self.started {
            self.started = true;
            if let Err(why) = w.begin(self.auto, &mut self.memo) {
                return Some(End::Interrupted(why.0));
            }
        }
        let resting = matches!(self.auto, Auto::Rest | Auto::Search);
        if !resting && self.steps >= MAX_STEPS {
            return Some(End::Interrupted(
                "You stop to get your bearings.".to_owned(),
            ));
        }
        let command = match w.next(self.auto, self.steps == 0, &mut self.memo) {
            Ok(c) => c,
            Err(end) => return Some(end),
        };
        let Some(before) = w.game().cloned() else {
            return Some(End::GameOver);
        };
        self.steps += 1;
        if let Some(end) = w.take(command, &mut self.memo) {
            return Some(end);
        }
        if let Some(end) = w.interrupt(self.auto, &before, &mut self.memo) {
            return Some(end);
        }
        let why = match self.auto {
            Auto::Search if self.steps >= SEARCH_TURNS => {
                format!("You search for {SEARCH_TURNS} turns and find nothing hidden.")
            }
            Auto::Rest if w.rested() => "You feel rested.".to_owned(),
            Auto::Rest if self.steps >= MAX_REST => {
                "You stop resting: it is taking too long.".to_owned()
            }
            _ => return None,
        };
        Some(End::Interrupted(why))
    }

    /// Take every step until the journey ends, as one key press without animation.
    pub fn finish<W: Walker<Memo = M>>(mut self, w: &mut W) -> End {
        loop {
            if let Some(end) = self.step(w) {
                return end;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits that count, and a game that never changes.
    struct Waiting {
        game: Game,
        waited: usize,
        healed_after: Option<usize>,
        refuse: bool,
    }

    impl Walker for Waiting {
        type Command = ();
        type Memo = ();
        fn game(&self) -> Option<&Game> {
            Some(&self.game)
        }
        fn next(&mut self, _: Auto, _: bool, _: &mut ()) -> Result<(), End> {
            Ok(())
        }
        fn take(&mut self, (): (), _: &mut ()) -> Option<End> {
            if self.refuse {
                return Some(End::Interrupted(String::new()));
            }
            self.waited += 1;
            None
        }
        fn rested(&self) -> bool {
            self.healed_after.is_some_and(|n| self.waited >= n)
        }
    }

    impl Default for Waiting {
        fn default() -> Self {
            Waiting {
                game: Game::new(1),
                waited: 0,
                healed_after: None,
                refuse: false,
            }
        }
    }

    #[test]
    fn a_search_takes_its_turns_and_a_rest_ends_when_rested_or_too_long() {
        let mut w = Waiting::default();
        let end = Journey::<()>::new(Auto::Search).finish(&mut w);
        assert_eq!(w.waited, SEARCH_TURNS);
        assert!(end.sentence().is_some_and(|s| s.contains("nothing hidden")));

        let mut w = Waiting {
            healed_after: Some(7),
            ..Waiting::default()
        };
        let end = Journey::<()>::new(Auto::Rest).finish(&mut w);
        assert_eq!((w.waited, end.sentence()), (7, Some("You feel rested.")));

        let mut w = Waiting::default();
        let end = Journey::<()>::new(Auto::Rest).finish(&mut w);
        assert_eq!(w.waited, MAX_REST);
        assert!(end.sentence().is_some_and(|s| s.contains("too long")));
    }

    #[test]
    fn a_run_stops_at_the_step_limit_and_a_refusal_stops_at_once() {
        let mut w = Waiting::default();
        let end = Journey::<()>::new(Auto::Run(Dir::North)).finish(&mut w);
        assert_eq!(w.waited, MAX_STEPS);
        assert!(end.sentence().is_some_and(|s| s.contains("bearings")));

        let mut w = Waiting {
            refuse: true,
            ..Waiting::default()
        };
        let mut j = Journey::<()>::new(Auto::Rest);
        assert_eq!(j.step(&mut w), Some(End::Interrupted(String::new())));
        assert_eq!((w.waited, j.steps()), (0, 1));
    }
}
