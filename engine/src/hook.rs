//! Hooks: the named Rust functions that give prototypes behaviour, the registry that holds
//! them, and the context a running hook receives.
//!
//! A game value only *names* its hooks (a [`Hook`] property), so it stays plain, saveable
//! data. The functions live in a [`Hooks`] registry that the caller owns and passes in; a
//! running hook gets a [`HookCtx`]: that registry (so it can spawn things or fire another
//! hook) and a typed scratch store for data worth sharing between hooks in one turn, such as
//! one Dijkstra map for every rat. Nothing here is global.
//!
//! Costs: registering and looking up a hook is Θ(log hooks); a scratch lookup is one hash of a
//! `TypeId`.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use crate::error::Error;
use crate::game::Game;
use crate::library::collect_hooks;
use crate::loc::Loc;
use crate::props::{Hook, Prop};
use crate::thing::{Place, ThingId};

pub use crate::keys::{ON_ACTION, ON_CONSUME, ON_CREATE, ON_DEATH, ON_HIT, ON_TICK, ON_USE};

/// What a hook is told when it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct HookCall {
    /// The thing whose hook runs.
    pub this: ThingId,
    /// Who caused it (the drinker, the attacker…), if anyone.
    pub actor: Option<ThingId>,
    /// Who it is aimed at, if anyone.
    pub target: Option<ThingId>,
    /// Where it happens, if relevant.
    pub loc: Option<Loc>,
    /// A number for the hook (damage dealt, time elapsed…).
    pub amount: i64,
}

impl HookCall {
    /// A call about `this` with nothing else set.
    #[must_use]
    pub fn on(this: ThingId) -> Self {
        HookCall {
            this,
            actor: None,
            target: None,
            loc: None,
            amount: 0,
        }
    }
}

/// A hook: a plain Rust function that changes the game it is given. The game passed in is
/// the caller's working copy; if the hook fails, the caller discards that copy, so nothing
/// changes.
pub type HookFn = fn(&mut Game, &mut HookCtx<'_>, &HookCall) -> Result<(), Error>;

/// The registry of hook functions by name. It lives beside the game value (functions are not
/// data); the game value names hooks, so it stays saveable and comparable.
///
/// ```
/// use alembic::{Error, Game, hook::HookCall, HookCtx, Hooks};
/// // What a hook says goes into its context's scratch, for the caller to word and show.
/// fn shout(_: &mut Game, ctx: &mut HookCtx<'_>, _: &HookCall) -> Result<(), Error> {
///     ctx.scratch::<Vec<&'static str>>().push("Boo!");
///     Ok(())
/// }
/// let hooks = Hooks::new().register("shout", shout).unwrap();
/// assert!(hooks.get("shout").is_ok());
/// assert!(hooks.get("whisper").is_err());
/// ```
#[derive(Clone, Default)]
pub struct Hooks {
    map: BTreeMap<Arc<str>, HookFn>,
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.map.keys()).finish()
    }
}

impl Hooks {
    /// No hooks.
    #[must_use]
    pub fn new() -> Self {
        Hooks::default()
    }

    /// This registry plus `f` under `name`.
    pub fn register(mut self, name: &str, f: HookFn) -> Result<Self, Error> {
        if self.map.contains_key(name) {
            return Err(Error::DuplicateHook(Arc::from(name)));
        }
        self.map.insert(Arc::from(name), f);
        Ok(self)
    }

    /// The function called `name`.
    pub fn get(&self, name: &str) -> Result<HookFn, Error> {
        self.map
            .get(name)
            .copied()
            .ok_or_else(|| Error::UnknownHook(Arc::from(name)))
    }

    /// Check that every hook named anywhere in `game` (its library, its things and its
    /// variables) is registered here. Θ(prototypes + things · properties).
    ///
    /// ```
    /// use alembic::{Game, Hooks, Library, Props, hook::ON_CREATE, props::Hook};
    /// let lib = Library::new().proclaim("egg", None, Props::new().with(&ON_CREATE, Hook::new("hatch")))?;
    /// let game = Game::new(1).with_library(lib);
    /// assert!(Hooks::new().check(&game).is_err());
    /// # Ok::<(), alembic::Error>(())
    /// ```
    pub fn check(&self, game: &Game) -> Result<(), Error> {
        let mut names = Vec::new();
        game.library().hook_names(&mut names);
        for t in game.things().iter() {
            collect_hooks(&t.props, &mut names);
        }
        collect_hooks(&game.turnly.vars, &mut names);
        for h in names {
            self.get(h.name())?;
        }
        Ok(())
    }

    /// Every registered name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(|k| &**k)
    }
}

/// What a running hook receives besides the game: the registry it was found in, and a typed
/// scratch store.
///
/// Make one context per turn (or call [`HookCtx::clear_scratch`] when a turn begins) and pass
/// it down to every hook that turn runs. The scratch store holds at most one value per type,
/// created on first use with `Default`; hooks use it to share work such as a Dijkstra map
/// towards the hero. It is never saved: keep in it only what can be rebuilt from the game, so
/// the game stays deterministic whatever the store holds.
///
/// ```
/// use alembic::hook::{HookCall, ON_CREATE};
/// use alembic::props::Hook;
/// use alembic::{Dir, Error, Game, HookCtx, Hooks, Library, Loc, Props};
///
/// /// How many things were created this turn: shared between hook calls.
/// #[derive(Default)]
/// struct Created(u32);
///
/// fn on_create(g: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
///     ctx.scratch::<Created>().0 += 1;
///     if ctx.scratch::<Created>().0 == 1 {
///         // A hook can reach the registry: the first rat brings a friend.
///         let at = g.things().location(call.this)?;
///         ctx.spawn(g, "rat", at + Dir::East)?;
///     }
///     Ok(())
/// }
///
/// let hooks = Hooks::new().register("rat born", on_create)?;
/// let lib = Library::new().proclaim("rat", None, Props::new().with(&ON_CREATE, Hook::new("rat born")))?;
/// let mut g = Game::new(1).with_library(lib);
/// let mut ctx = HookCtx::new(&hooks);
/// g.spawn_mut(&mut ctx, "rat", Loc::new(0, 0, 0))?;
/// assert_eq!(g.things().count(), 2);
/// assert_eq!(ctx.scratch::<Created>().0, 2);
/// # Ok::<(), Error>(())
/// ```
pub struct HookCtx<'h> {
    hooks: &'h Hooks,
    scratch: HashMap<TypeId, Box<dyn Any>>,
}

impl fmt::Debug for HookCtx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HookCtx")
            .field("hooks", self.hooks)
            .field("scratch_entries", &self.scratch.len())
            .finish()
    }
}

impl<'h> HookCtx<'h> {
    /// A context over `hooks` with an empty scratch store.
    #[must_use]
    pub fn new(hooks: &'h Hooks) -> Self {
        HookCtx {
            hooks,
            scratch: HashMap::new(),
        }
    }

    /// The registry.
    #[must_use]
    pub fn hooks(&self) -> &'h Hooks {
        self.hooks
    }

    /// The scratch value of type `T`, made with `T::default()` on first use. Θ(1).
    pub fn scratch<T: Any + Default>(&mut self) -> &mut T {
        let slot = self
            .scratch
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()));
        if !slot.is::<T>() {
            *slot = Box::new(T::default());
        }
        match slot.downcast_mut::<T>() {
            Some(t) => t,
            // The slot keyed by `TypeId::of::<T>()` holds a `T`: it was checked just above.
            None => unreachable!("scratch slot of the wrong type"),
        }
    }

    /// The scratch value of type `T`, if one was made.
    #[must_use]
    pub fn scratch_ref<T: Any>(&self) -> Option<&T> {
        self.scratch
            .get(&TypeId::of::<T>())
            .and_then(|b| b.downcast_ref())
    }

    /// Forget every scratch value (call when a new turn begins).
    pub fn clear_scratch(&mut self) {
        self.scratch.clear();
    }

    /// Run the hook named by `call.this`'s property `event` on `game`, if it has one, with
    /// this context; returns whether a hook ran. All or nothing: if the hook fails, `game`
    /// is as it was. One [`Game::query_opt`], one registry lookup, one Θ(1) clone of the
    /// game, and the hook.
    pub fn run(
        &mut self,
        game: &mut Game,
        event: &Prop<Hook>,
        call: HookCall,
    ) -> Result<bool, Error> {
        let Some(hook) = game.query_opt(call.this, event)? else {
            return Ok(false);
        };
        let f = self.hooks().get(hook.name())?;
        let mut work = game.clone();
        f(&mut work, self, &call)?;
        *game = work;
        Ok(true)
    }

    /// Create a thing from prototype `name` at `place` and run its creation hook:
    /// [`Game::spawn_mut`] with this context.
    pub fn spawn(
        &mut self,
        game: &mut Game,
        name: &str,
        place: impl Into<Place>,
    ) -> Result<ThingId, Error> {
        game.spawn_mut(self, name, place)
    }
}
