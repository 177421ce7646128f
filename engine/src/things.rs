//! Where things are: the things of a game by id, on the map cells and inside one another,
//! read through [`Game::things`]. A view, not a store: the game value holds the thing
//! records and the cell index; [`Things`] borrows them.
//!
//! Costs: by id Θ(log₈ of the largest id); a cell Θ(1) in a level's box; a box or a level
//! Θ(its chunks of 16 × 16 cells + cells found), never the empty space between.

use crate::error::Error;
use crate::game::{CellView, Game};
use crate::loc::{Loc, LocBox};
use crate::thing::{Place, Thing, ThingId};

/// The things of a game, to read: by id, where each is, and what each cell and container
/// holds ([`Game::things`]). A `Copy` view borrowing the game (Θ(1) to make); each method
/// gives its cost. Changes go through the game ([`Game::add_thing_mut`],
/// [`Game::move_thing_mut`], …), which keeps the id index, the cells and the containers in
/// agreement.
///
/// ```
/// use alembic::prelude::*;
/// let mut game = Game::new(1);
/// let rat = game.add_thing_mut(Loc::new(3, 4, 0), Thing::new(Props::new()))?;
/// assert_eq!(game.things().at(Loc::new(3, 4, 0)), &[rat]);
/// assert_eq!(game.things().location(rat)?, Loc::new(3, 4, 0));
/// assert!(game.things().contains(rat) && game.things().count() == 1);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Things<'a> {
    game: &'a Game,
}

impl std::fmt::Debug for Things<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Things")
            .field("count", &self.count())
            .finish()
    }
}

impl Game {
    /// The things, to read: by id, on the map and in containers ([`Things`]). Θ(1); the
    /// view borrows the game.
    #[must_use]
    #[inline]
    pub fn things(&self) -> Things<'_> {
        Things { game: self }
    }
}

impl<'a> Things<'a> {
    /// The thing with this id, or [`Error::NoSuchThing`]. Θ(log₈ of the largest id).
    #[inline]
    pub fn get(&self, id: ThingId) -> Result<&'a Thing, Error> {
        self.game.thing_ref(id)
    }

    /// Whether the id names a thing in this game. Θ(log₈ of the largest id).
    #[must_use]
    #[inline]
    pub fn contains(&self, id: ThingId) -> bool {
        self.game.has_thing(id)
    }

    /// A hint that the records of `ids` are about to be read, one after another: reads each
    /// once, so that a loop over many things far apart in memory (every creature of a
    /// level) waits for them together, many at a time, instead of one cache miss per thing
    /// in the middle of its work. Changes nothing and answers nothing (an id not in the game
    /// is passed over). Θ(ids · log₈ of the largest id).
    ///
    /// ```
    /// use alembic::prelude::*;
    /// let mut game = Game::new(1);
    /// let ids: Vec<ThingId> = (0..100)
    ///     .map(|x| game.add_thing_mut(Loc::new(x, 0, 0), Thing::new(Props::new())))
    ///     .collect::<Result<_, _>>()?;
    /// game.things().prefetch(&ids);
    /// assert_eq!(game.things().location(ids[7])?, Loc::new(7, 0, 0));
    /// # Ok::<(), alembic::Error>(())
    /// ```
    pub fn prefetch(&self, ids: &[ThingId]) {
        self.game.prefetch_things(ids);
    }

    /// Number of things in the game (contained ones included). Θ(1).
    #[must_use]
    pub fn count(&self) -> usize {
        self.game.count_things()
    }

    /// Every thing, in id order. Θ(1) to start, amortised Θ(1) a step.
    pub fn iter(&self) -> impl Iterator<Item = &'a Thing> + use<'a> {
        self.game.every_thing()
    }

    /// The things on the map at `loc`, in arrival order. Θ(1) in a level's box.
    #[must_use]
    #[inline]
    pub fn at(&self, loc: Loc) -> &'a [ThingId] {
        self.game.cell_things(loc)
    }

    /// A reader of [`at`](Things::at) for many reads near one another (a field of view, a
    /// row of the map): it remembers the chunk of 16 × 16 cells its last read found, so a
    /// read in that chunk again skips the lookup of the chunk. Θ(1) to make; each read
    /// Θ(1), as `at`.
    ///
    /// ```
    /// use alembic::prelude::*;
    /// let mut game = Game::new(1);
    /// let id = game.add_thing_mut(Loc::new(3, 4, 0), Thing::new(Props::new()))?;
    /// let cells = game.things().cursor();
    /// assert_eq!(cells.things_at(Loc::new(3, 4, 0)), &[id]);
    /// assert!(cells.things_at(Loc::new(4, 4, 0)).is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[must_use]
    pub fn cursor(&self) -> CellView<'a> {
        self.game.cell_cursor()
    }

    /// Every map cell of `area` that holds things, with its things (in arrival order), in
    /// (z, y, x) order — what calling [`at`](Things::at) on every cell of the box and
    /// keeping the non-empty answers gives, without visiting empty space. Θ(log levels +
    /// per level of the box: chunks of 16 × 16 cells overlapping it + cells found).
    #[must_use]
    pub fn in_box(&self, area: LocBox) -> Vec<(Loc, &'a [ThingId])> {
        self.game.cells_in_box(area)
    }

    /// Every map cell of level `z` that holds things, with its things (in arrival order), in
    /// (y, x) order. Θ(log levels + that level's chunks + cells found): other levels cost
    /// nothing.
    #[must_use]
    pub fn on_level(&self, z: i32) -> Vec<(Loc, &'a [ThingId])> {
        self.game.cells_on_level(z)
    }

    /// The ids of every thing on the map on level `z` (not the things inside them), chunk
    /// by chunk: the level's chunks of 16 × 16 cells row by row of chunks, each chunk's
    /// cells row by row, each cell's things in arrival order. An order that depends only on
    /// where the things are, not on the history of writes, but not (y, x) order: for a
    /// question that needs no locations ("the creatures on this level"), this skips the
    /// work of [`on_level`](Things::on_level) per occupied cell. Θ(log levels + that
    /// level's chunks + things found).
    ///
    /// ```
    /// use alembic::prelude::*;
    /// let mut game = Game::new(1);
    /// let a = game.add_thing_mut(Loc::new(20, 0, 3), Thing::new(Props::new()))?;
    /// let b = game.add_thing_mut(Loc::new(0, 1, 3), Thing::new(Props::new()))?;
    /// game.add_thing_mut(Loc::new(0, 0, 4), Thing::new(Props::new()))?;
    /// // (0, 1) is in the first chunk, (20, 0) in the next chunk along x.
    /// assert_eq!(game.things().ids_on_level(3), vec![b, a]);
    /// # Ok::<(), Error>(())
    /// ```
    #[must_use]
    pub fn ids_on_level(&self, z: i32) -> Vec<ThingId> {
        self.game.level_ids(z)
    }

    /// The id the next added thing will get (every id in the game is below it; ids are
    /// never reused). Θ(1).
    #[must_use]
    pub fn next_id(&self) -> u64 {
        self.game.next_free_id()
    }

    /// The things directly inside `id`, in arrival order. Θ(log₈ of the largest id).
    pub fn contents(&self, id: ThingId) -> Result<&'a [ThingId], Error> {
        self.game.contents_of(id)
    }

    /// Where `id` is directly: a map location or its container. Θ(log₈ of the largest id).
    pub fn place(&self, id: ThingId) -> Result<Place, Error> {
        self.game.place_of(id)
    }

    /// The map location of `id`, following containers upward (an item in a backpack carried
    /// by a rat is where the rat is). Θ(containers above it · log₈ of the largest id).
    pub fn location(&self, id: ThingId) -> Result<Loc, Error> {
        self.game.location_of(id)
    }

    /// The outermost thing holding `id` (itself when it is on the map). Θ(containers above
    /// it · log₈ of the largest id).
    pub fn outermost(&self, id: ThingId) -> Result<ThingId, Error> {
        self.game.outermost_of(id)
    }
}
