//! Layers: typed values over the world kept beside the terrain: the hero's memory of the
//! map, scent, light, a level's danger map.
//!
//! A [`Layer<T>`] is a key, declared as a constant like a [`Prop`](crate::Prop): its name and
//! the type of its cells. The game stores each layer as a persistent [`Grid`] of 64-bit words
//! and converts through [`LayerValue`], so a layer costs what a grid costs (see [`Grid`]'s
//! costs): a read in a level's box Θ(1) (a few unsigned checks, the level's chunk pointer and
//! the cell), a persistent write a copy of one chunk, that level's chunk pointers and the
//! level list, and a clone Θ(1). Unwritten cells read as the value whose bits are 0 (`false`,
//! `0`, `None`).
//!
//! ```
//! use alembic::{Game, layer::Layer, Loc, library::TileId};
//! const SEEN: Layer<Option<TileId>> = Layer::new("seen");
//! const SCENT: Layer<u32> = Layer::new("scent");
//! let mut g = Game::new(1);
//! let here = Loc::new(3, 4, 0);
//! assert_eq!(g.layers().at(&SEEN, here), None); // never seen
//! g.set_layer_mut(&SEEN, here, Some(TileId(2)));
//! g.set_layer_mut(&SCENT, here, 40);
//! assert_eq!(g.layers().at(&SEEN, here), Some(TileId(2)));
//! let before = g.layers().get(&SCENT); // a Θ(1) snapshot
//! g.set_layer_mut(&SCENT, here, 39);
//! assert_eq!((before.get(here), g.layers().at(&SCENT, here)), (40, 39));
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use rpds::RedBlackTreeMapSync;

use crate::colour::Rgb;
use crate::grid::{Grid, GridView};
use crate::library::TileId;
use crate::loc::{Loc, LocBox};
use crate::thing::ThingId;

/// The layers of a game, to read: [`Game::layers`](crate::Game::layers). A `Copy` view
/// borrowing the game (Θ(1) to make); each method gives its cost.
#[derive(Clone, Copy)]
pub struct Layers<'a> {
    layers: &'a RedBlackTreeMapSync<Arc<str>, Grid<u64>>,
}

impl fmt::Debug for Layers<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl<'a> Layers<'a> {
    pub(crate) fn new(layers: &'a RedBlackTreeMapSync<Arc<str>, Grid<u64>>) -> Self {
        Layers { layers }
    }

    /// A Θ(1) snapshot of `layer` (see [`Layer`]), empty until something is written to it.
    #[must_use]
    pub fn get<T: LayerValue>(&self, layer: &Layer<T>) -> LayerGrid<T> {
        LayerGrid::new(self.layers.get(layer.name()).cloned())
    }

    /// The value of `layer` at `loc` (the zero value where unwritten). Θ(log layers), then
    /// Θ(1) in a level's box (see [`Grid::get`](crate::grid::Grid::get)).
    #[must_use]
    pub fn at<T: LayerValue>(&self, layer: &Layer<T>, loc: Loc) -> T {
        T::from_bits(self.layers.get(layer.name()).map_or(0, |g| *g.get(loc)))
    }

    /// The names of every layer, sorted. Θ(1) to start, Θ(1) a step.
    pub fn names(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.layers.keys().map(|k| &**k)
    }
}

/// A value a layer cell can hold: converted to and from one 64-bit word, where 0 is the value
/// of an unwritten cell.
pub trait LayerValue: Sized {
    /// The word stored.
    fn to_bits(&self) -> u64;
    /// The value of a stored word (any word decodes; ill-formed words give the "empty" value).
    fn from_bits(bits: u64) -> Self;
}

macro_rules! unsigned_layer_value {
    ($($t:ty),*) => {$(
        impl LayerValue for $t {
            fn to_bits(&self) -> u64 {
                u64::from(*self)
            }
            fn from_bits(bits: u64) -> Self {
                <$t>::try_from(bits).unwrap_or(<$t>::MAX)
            }
        }
    )*};
}
unsigned_layer_value!(u8, u16, u32, u64);

impl LayerValue for bool {
    fn to_bits(&self) -> u64 {
        u64::from(*self)
    }
    fn from_bits(bits: u64) -> Self {
        bits != 0
    }
}

impl LayerValue for i32 {
    fn to_bits(&self) -> u64 {
        u64::from(self.cast_unsigned())
    }
    fn from_bits(bits: u64) -> Self {
        (bits as u32).cast_signed()
    }
}

/// `None` is 0, `Some(tile)` is its number plus one (so the void tile is storable).
impl LayerValue for Option<TileId> {
    fn to_bits(&self) -> u64 {
        self.map_or(0, |t| u64::from(t.0) + 1)
    }
    fn from_bits(bits: u64) -> Self {
        match bits {
            0 => None,
            n => u16::try_from(n - 1).ok().map(TileId),
        }
    }
}

/// `None` is 0; thing ids start at 1.
impl LayerValue for Option<ThingId> {
    fn to_bits(&self) -> u64 {
        self.map_or(0, |t| t.0)
    }
    fn from_bits(bits: u64) -> Self {
        (bits != 0).then_some(ThingId(bits))
    }
}

/// A remembered look: `None` is 0, `Some((glyph, colour))` is `1 << 48 | glyph << 24 | rgb`.
impl LayerValue for Option<(char, Rgb)> {
    fn to_bits(&self) -> u64 {
        self.map_or(0, |(ch, c)| {
            (1 << 48)
                | (u64::from(u32::from(ch)) << 24)
                | (u64::from(c.r) << 16)
                | (u64::from(c.g) << 8)
                | u64::from(c.b)
        })
    }
    fn from_bits(v: u64) -> Self {
        if v >> 48 != 1 {
            return None;
        }
        let ch = char::from_u32(u32::try_from((v >> 24) & 0xFF_FFFF).ok()?)?;
        let byte = |s: u32| u8::try_from((v >> s) & 0xFF).unwrap_or(0);
        Some((ch, Rgb::new(byte(16), byte(8), byte(0))))
    }
}

/// The key of a layer: a name and a cell type. Declare keys as constants.
pub struct Layer<T> {
    name: &'static str,
    _t: PhantomData<fn() -> T>,
}

impl<T> Layer<T> {
    /// A layer called `name` (names are unique within a game; prefix them with the game's).
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        Layer {
            name,
            _t: PhantomData,
        }
    }

    /// Its name.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<T> Clone for Layer<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Layer<T> {}

impl<T> fmt::Debug for Layer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layer({})", self.name)
    }
}

/// A snapshot of one layer, read with its type. Θ(1) to take; it does not change when the
/// game it came from changes.
#[derive(Clone)]
pub struct LayerGrid<T> {
    grid: Option<Grid<u64>>,
    _t: PhantomData<fn() -> T>,
}

impl<T: LayerValue> LayerGrid<T> {
    pub(crate) fn new(grid: Option<Grid<u64>>) -> Self {
        LayerGrid {
            grid,
            _t: PhantomData,
        }
    }

    /// The value at `loc`. Θ(1) in a level's box, as [`Grid::get`].
    #[must_use]
    pub fn get(&self, loc: Loc) -> T {
        T::from_bits(self.grid.as_ref().map_or(0, |g| *g.get(loc)))
    }

    /// A reader for many reads near one another: as [`Grid::view`], it remembers the chunk
    /// of its last read. Θ(1) to make.
    ///
    /// ```
    /// use alembic::{Game, Loc, layer::Layer};
    /// const SEEN: Layer<bool> = Layer::new("my.seen");
    /// let mut game = Game::new(1);
    /// game.set_layer_mut(&SEEN, Loc::new(2, 3, 0), true);
    /// let seen = game.layers().get(&SEEN);
    /// let view = seen.view();
    /// assert!(view.get(Loc::new(2, 3, 0)));
    /// assert!(!view.get(Loc::new(3, 3, 0)));
    /// ```
    #[must_use]
    pub fn view(&self) -> LayerView<'_, T> {
        LayerView {
            grid: self
                .grid
                .as_ref()
                .map(|g| g.view(LocBox::rect(0, 0, 0, 0, 0))),
            _t: PhantomData,
        }
    }

    /// Whether nothing was ever written to the layer.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.grid.is_none()
    }

    /// The stored words, for tools that walk the whole layer.
    #[must_use]
    pub fn grid(&self) -> Option<&Grid<u64>> {
        self.grid.as_ref()
    }
}

/// A reader of a [`LayerGrid`] that remembers the chunk of its last read: see
/// [`LayerGrid::view`].
pub struct LayerView<'a, T> {
    grid: Option<GridView<'a, u64>>,
    _t: PhantomData<fn() -> T>,
}

impl<T: LayerValue> LayerView<'_, T> {
    /// The value at `loc`, as [`LayerGrid::get`] gives it. Θ(1), as [`GridView::get`].
    #[must_use]
    #[inline]
    pub fn get(&self, loc: Loc) -> T {
        T::from_bits(self.grid.as_ref().map_or(0, |g| *g.get(loc)))
    }
}

impl<T> fmt::Debug for LayerGrid<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerGrid")
            .field("written", &self.grid.is_some())
            .finish()
    }
}
