//! Flag indexes: the things whose flag is set, kept up to date by every change.
//!
//! A game registers the flags it asks about every turn ("creature", "hostile") with
//! [`Game::index_flag_mut`]; from then on [`Indexes::things_with`] (read through
//! [`Game::indexes`]) answers from a persistent set instead of scanning every thing. The
//! indexes live in the game value, so undo, replays and saves carry them, and
//! [`Game::check_invariants`] rebuilds each one and compares.
//!
//! An index reads a thing's *own* flag (its stored property, as [`Thing`](crate::Thing)'s
//! `is` does): modifiers from carried things are not applied, because they change without
//! the thing changing.
//!
//! Costs: [`Indexes::things_with`] is Θ(answers); each add, remove, update or `set` of an
//! indexed flag costs Θ(indexed flags · log answers) more; other writes cost one comparison.

use std::sync::Arc;

use crate::game::Game;
use crate::index::flagged;
use crate::props::Prop;
use crate::thing::{Place, ThingId};

/// The flag indexes of a game, to read: [`Game::indexes`]. A `Copy` view borrowing the game
/// (Θ(1) to make); each method gives its cost.
#[derive(Clone, Copy)]
pub struct Indexes<'a> {
    game: &'a Game,
}

impl std::fmt::Debug for Indexes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.game.rare.indexes.keys())
            .finish()
    }
}

impl Indexes<'_> {
    /// Whether `flag` is indexed.
    #[must_use]
    pub fn is_indexed(&self, flag: &Prop<bool>) -> bool {
        self.game.rare.indexes.contains(flag.key())
    }

    /// The ids of the things whose own flag `flag` is set (modifiers not applied), in id
    /// order. Θ(answers) when `flag` is indexed; otherwise a scan of every thing.
    #[must_use]
    pub fn things_with(&self, flag: &Prop<bool>) -> Vec<ThingId> {
        match self.game.rare.indexes.get(flag.key()) {
            Some(set) => set.iter().copied().collect(),
            None => self
                .game
                .things()
                .iter()
                .filter(|t| flagged(t, flag.key()))
                .filter_map(|t| t.core.id)
                .collect(),
        }
    }

    /// The things on the map on level `z` whose own flag `flag` is set, in id order: the
    /// per-level question most games ask ("the creatures on this level"). Θ(answers on every
    /// level) when `flag` is indexed; otherwise a scan of the things on level `z`.
    ///
    /// ```
    /// use alembic::{Game, Loc, Prop, Props, Thing};
    /// const CREATURE: Prop<bool> = Prop::with_default("creature", false);
    /// let mut g = Game::new(1);
    /// g.index_flag_mut(&CREATURE);
    /// let rat = |z| Thing::new(Props::new().with(&CREATURE, true));
    /// let up = g.add_thing_mut(Loc::new(0, 0, 0), rat(0))?;
    /// let down = g.add_thing_mut(Loc::new(0, 0, 1), rat(1))?;
    /// assert_eq!(g.indexes().things_with_on_level(&CREATURE, 1), vec![down]);
    /// # Ok::<(), alembic::Error>(())
    /// ```
    #[must_use]
    pub fn things_with_on_level(&self, flag: &Prop<bool>, z: i32) -> Vec<ThingId> {
        let on_level =
            |id: &ThingId| matches!(self.game.things().place(*id), Ok(Place::Map(l)) if l.z == z);
        match self.game.rare.indexes.get(flag.key()) {
            Some(set) => set.iter().copied().filter(on_level).collect(),
            None => {
                let mut ids: Vec<ThingId> = self
                    .game
                    .things()
                    .on_level(z)
                    .into_iter()
                    .flat_map(|(_, ids)| ids.iter().copied())
                    .filter(|&id| {
                        self.game
                            .things()
                            .get(id)
                            .is_ok_and(|t| flagged(t, flag.key()))
                    })
                    .collect();
                ids.sort_unstable();
                ids
            }
        }
    }
}

impl Game {
    /// The flag indexes, to read: which flags are indexed and the things with a flag
    /// ([`Indexes`]). Θ(1); the view borrows the game.
    #[must_use]
    pub fn indexes(&self) -> Indexes<'_> {
        Indexes { game: self }
    }

    /// Keep an index of the things whose own flag `flag` is set, so that
    /// [`Indexes::things_with`] answers in Θ(answers). Indexing a flag twice changes nothing.
    /// Θ(things) once; then each change to a thing costs Θ(log answers) per indexed flag.
    ///
    /// ```
    /// use alembic::{Game, Loc, Prop, Props, Thing};
    /// const CREATURE: Prop<bool> = Prop::with_default("creature", false);
    /// let mut g = Game::new(1);
    /// g.index_flag_mut(&CREATURE);
    /// let rat = g.add_thing_mut(Loc::new(0, 0, 0), Thing::new(Props::new().with(&CREATURE, true)))?;
    /// let rock = g.add_thing_mut(Loc::new(1, 0, 0), Thing::new(Props::new()))?;
    /// assert_eq!(g.indexes().things_with(&CREATURE), vec![rat]);
    /// g.set_mut(rock, &CREATURE, true)?; // a rock comes alive
    /// assert_eq!(g.indexes().things_with(&CREATURE), vec![rat, rock]);
    /// g.remove_thing_mut(rat)?;
    /// assert_eq!(g.indexes().things_with(&CREATURE), vec![rock]);
    /// g.check_invariants()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_flag_mut(&mut self, flag: &Prop<bool>) {
        if self.rare.indexes.contains(flag.key()) {
            return;
        }
        let mut indexes = self.rare.indexes.clone();
        indexes.build(flag.key().clone(), self.things().iter());
        Arc::make_mut(&mut self.rare).indexes = indexes;
    }

    /// A game that also indexes `flag` (see [`Game::index_flag_mut`]).
    pub fn index_flag(&self, flag: &Prop<bool>) -> Game {
        let mut g = self.clone();
        g.index_flag_mut(flag);
        g
    }
}
