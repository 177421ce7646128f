//! Spawning: a thing made from its prototype, queued if it takes turns, and told it was
//! made (its [`ON_CREATE`] hook). Above the game value, the hooks and the scheduler, which
//! it uses all three.

use crate::error::Error;
use crate::game::Game;
use crate::hook::{HookCall, HookCtx, Hooks, ON_CREATE};
use crate::props::Value;
use crate::thing::{Place, ThingId};

impl Game {
    /// Create a thing from prototype `name`, add it at `place`, and run its [`ON_CREATE`] hook
    /// if it has one. A thing that [takes turns](crate::schedule::Schedule::takes_turns),
    /// spawned on the map on an awake level, is queued to act now, after the actors already due
    /// now (a monster placed by level generation is ready when play starts; one spawned during
    /// the world's turn acts in that turn); the raw [`Game::add_thing_mut`] queues nothing. All
    /// or nothing: if the hook fails, nothing changes.
    pub fn spawn_mut(
        &mut self,
        ctx: &mut HookCtx<'_>,
        name: &str,
        place: impl Into<Place>,
    ) -> Result<ThingId, Error> {
        let thing = self.library().create(name)?;
        let mut work = self.clone();
        let id = work.add_thing_mut(place, thing)?;
        if let Place::Map(l) = work.things().place(id)?
            && work.schedule().takes_turns(id)
            && work
                .schedule()
                .awake_levels()
                .is_none_or(|a| a.contains(&l.z))
        {
            work.scheduler().add(id, 0)?;
        }
        ctx.run(&mut work, &ON_CREATE, HookCall::on(id))?;
        *self = work;
        Ok(id)
    }

    /// [`Game::spawn_mut`] for a game without hooks, or a prototype that names no
    /// [`ON_CREATE`] hook: no registry or context needed.
    ///
    /// ```
    /// use alembic::prelude::*;
    /// let lib = Library::new().proclaim("rat", None, Props::new())?;
    /// let mut game = Game::new(7).with_library(lib);
    /// let rat = game.spawn_plain_mut("rat", Loc::new(1, 2, 0))?;
    /// assert_eq!(game.location(rat)?, Loc::new(1, 2, 0));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Game::spawn_mut`]; [`Error::UnknownHook`] when the prototype names an
    /// [`ON_CREATE`] hook, which only [`Game::spawn_mut`] can run. Nothing changes then.
    pub fn spawn_plain_mut(
        &mut self,
        name: &str,
        place: impl Into<Place>,
    ) -> Result<ThingId, Error> {
        if let Some(Value::Hook(hook)) = self.library().get(name)?.props().get(ON_CREATE.key()) {
            return Err(Error::UnknownHook(hook.name().into()));
        }
        self.spawn_mut(&mut HookCtx::new(&Hooks::new()), name, place)
    }
}
