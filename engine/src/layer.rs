//! Layers: typed values over the world kept beside the terrain: the hero's memory of the
//! map, scent, light, a level's danger map.
//!
//! A [`Layer<T>`] is a key, declared as a constant like a [`Prop`](crate::Prop): its name and
//! the type of its cells. The game converts each value through [`LayerValue`] to a 64-bit
//! word and stores each layer as a persistent [`Grid`] of words: of 16-bit words while every
//! word written to it fits in 16 bits (a remembered tile, a small count: a chunk of 256 cells
//! is then 520 bytes, not 2,056), and of 64-bit words from the first write that does not
//! (converted once, Θ(written cells)). Which width a layer has changes neither what it reads
//! nor the game's equality, state hash or save. So a layer costs what a grid costs (see
//! [`Grid`]'s costs): a read in a level's box Θ(1) (a few unsigned checks, the level's chunk
//! pointer and the cell), a persistent write a copy of one chunk, that level's chunk pointers
//! and the level list, and a clone Θ(1). Unwritten cells read as the value whose bits are 0
//! (`false`, `0`, `None`).
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
use std::hash::{Hash, Hasher};
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
    layers: &'a RedBlackTreeMapSync<Arc<str>, LayerCells>,
}

impl fmt::Debug for Layers<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl<'a> Layers<'a> {
    pub(crate) fn new(layers: &'a RedBlackTreeMapSync<Arc<str>, LayerCells>) -> Self {
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
        T::from_bits(self.layers.get(layer.name()).map_or(0, |g| g.get(loc)))
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
    grid: Option<LayerCells>,
    _t: PhantomData<fn() -> T>,
}

impl<T: LayerValue> LayerGrid<T> {
    pub(crate) fn new(grid: Option<LayerCells>) -> Self {
        LayerGrid {
            grid,
            _t: PhantomData,
        }
    }

    /// The value at `loc`. Θ(1) in a level's box, as [`Grid::get`].
    #[must_use]
    #[inline]
    pub fn get(&self, loc: Loc) -> T {
        // One match over the three states, as the view's: the read's fast path is then the
        // narrow grid's alone.
        T::from_bits(match &self.grid {
            None => 0,
            Some(LayerCells::Narrow(g)) => u64::from(*g.get(loc)),
            Some(LayerCells::Wide(g)) => *g.get(loc),
        })
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
        let any = LocBox::rect(0, 0, 0, 0, 0);
        LayerView {
            grid: match &self.grid {
                None => CellsView::Unwritten,
                Some(LayerCells::Narrow(g)) => CellsView::Narrow(g.view(any)),
                Some(LayerCells::Wide(g)) => CellsView::Wide(g.view(any)),
            },
            _t: PhantomData,
        }
    }

    /// Whether nothing was ever written to the layer.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.grid.is_none()
    }

    /// The stored words as a grid of 64-bit words, for tools that walk the whole layer:
    /// Θ(1) when the layer holds 64-bit words, else a copy, Θ(written cells).
    #[must_use]
    pub fn grid(&self) -> Option<Grid<u64>> {
        self.grid.as_ref().map(LayerCells::to_wide)
    }
}

/// A reader of a [`LayerGrid`] that remembers the chunk of its last read: see
/// [`LayerGrid::view`].
pub struct LayerView<'a, T> {
    grid: CellsView<'a>,
    _t: PhantomData<fn() -> T>,
}

/// A view of a layer's grid, of whichever width it has.
enum CellsView<'a> {
    Unwritten,
    Narrow(GridView<'a, u16>),
    Wide(GridView<'a, u64>),
}

impl<T: LayerValue> LayerView<'_, T> {
    /// The value at `loc`, as [`LayerGrid::get`] gives it. Θ(1), as [`GridView::get`].
    #[must_use]
    #[inline]
    pub fn get(&self, loc: Loc) -> T {
        T::from_bits(match &self.grid {
            CellsView::Unwritten => 0,
            CellsView::Narrow(g) => u64::from(*g.get(loc)),
            CellsView::Wide(g) => *g.get(loc),
        })
    }
}

impl<T> fmt::Debug for LayerGrid<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerGrid")
            .field("written", &self.grid.is_some())
            .finish()
    }
}

/// One layer's cells as the game keeps them: 16-bit words while every word written fits
/// (a chunk is 520 bytes), 64-bit words from the first write that does not (2,056 bytes).
/// Equality, the hash and the saved form are those of the 64-bit grid with the same cells,
/// whichever width holds them.
#[derive(Clone, Debug)]
pub(crate) enum LayerCells {
    /// Every word fits in 16 bits.
    Narrow(Grid<u16>),
    /// Some word written did not.
    Wide(Grid<u64>),
}

impl LayerCells {
    /// A layer holding `word` at `loc` and zero elsewhere.
    pub(crate) fn new(loc: Loc, word: u64) -> Self {
        let mut cells = LayerCells::Narrow(Grid::new(0));
        cells.set_mut(loc, word);
        cells
    }

    /// The word at `loc`. Θ(1) in a level's box, as [`Grid::get`].
    #[inline]
    pub(crate) fn get(&self, loc: Loc) -> u64 {
        match self {
            LayerCells::Narrow(g) => u64::from(*g.get(loc)),
            LayerCells::Wide(g) => *g.get(loc),
        }
    }

    /// Write `word` at `loc`, in place where this value owns the path (as
    /// [`Grid::set_mut`]); a word that does not fit a narrow grid first widens it, Θ(written
    /// cells) once.
    pub(crate) fn set_mut(&mut self, loc: Loc, word: u64) {
        match self {
            LayerCells::Narrow(g) => match u16::try_from(word) {
                Ok(w) => g.set_mut(loc, w),
                Err(_) => {
                    let mut wide = widen(g);
                    wide.set_mut(loc, word);
                    *self = LayerCells::Wide(wide);
                }
            },
            LayerCells::Wide(g) => g.set_mut(loc, word),
        }
    }

    /// The cells as a grid of 64-bit words: Θ(1) when wide, else a copy.
    pub(crate) fn to_wide(&self) -> Grid<u64> {
        match self {
            LayerCells::Narrow(g) => widen(g),
            LayerCells::Wide(g) => g.clone(),
        }
    }

    /// A layer read from a saved grid of words: narrow when every word fits (the default
    /// too), else the grid as it is. Θ(written cells).
    pub(crate) fn from_wide(grid: Grid<u64>) -> Self {
        let fits =
            *grid.default_value() == 0 && grid.iter_set().all(|(_, &w)| u16::try_from(w).is_ok());
        if !fits {
            return LayerCells::Wide(grid);
        }
        let mut narrow = Grid::new(0u16);
        for (loc, &w) in grid.iter_set() {
            narrow.set_mut(loc, u16::try_from(w).unwrap_or(0));
        }
        LayerCells::Narrow(narrow)
    }

    /// As [`Grid::check_invariants`].
    pub(crate) fn check_invariants(&self) -> Result<(), &'static str> {
        match self {
            LayerCells::Narrow(g) => g.check_invariants(),
            LayerCells::Wide(g) => g.check_invariants(),
        }
    }
}

/// `g`'s cells as 64-bit words. Θ(written cells).
fn widen(g: &Grid<u16>) -> Grid<u64> {
    let mut wide = Grid::new(u64::from(*g.default_value()));
    for (loc, &w) in g.iter_set() {
        wide.set_mut(loc, u64::from(w));
    }
    wide
}

impl PartialEq for LayerCells {
    /// Cell-by-cell equality, whatever the widths (two of different widths are compared as
    /// 64-bit words: Θ(written cells)).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (LayerCells::Narrow(a), LayerCells::Narrow(b)) => a == b,
            (LayerCells::Wide(a), LayerCells::Wide(b)) => a == b,
            _ => self.to_wide() == other.to_wide(),
        }
    }
}

impl Hash for LayerCells {
    /// The hash of the 64-bit grid with the same cells: the bytes [`Grid`]'s `Hash` writes
    /// (the default, then each written cell's location and word in canonical order), each
    /// word as a `u64`.
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            LayerCells::Wide(g) => g.hash(state),
            LayerCells::Narrow(g) => {
                u64::from(*g.default_value()).hash(state);
                for (loc, &w) in g.iter_set() {
                    state.write_u64(u64::from(loc.x as u32) | (u64::from(loc.y as u32) << 32));
                    state.write_i32(loc.z);
                    u64::from(w).hash(state);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::StableHasher;

    fn hash_of(h: &impl Hash) -> u64 {
        let mut s = StableHasher::new();
        h.hash(&mut s);
        s.finish()
    }

    /// The same cells written to a layer and to a plain grid of words, in a scattered order
    /// over two levels and a far cell.
    fn cells() -> Vec<(Loc, u64)> {
        let mut out = Vec::new();
        for i in 0..300i32 {
            let loc = Loc::new((i * 37) % 90 - 5, (i * 11) % 40, i % 2);
            out.push((loc, u64::try_from(i % 7).unwrap_or(0) * 1_000));
        }
        out.push((Loc::new(5_000, -3_000, 4), 9));
        out
    }

    #[test]
    fn a_narrow_layer_reads_compares_and_hashes_as_the_grid_of_words() {
        let mut layer = LayerCells::new(Loc::new(0, 0, 0), 0);
        let mut words = Grid::new(0u64);
        for (loc, w) in cells() {
            layer.set_mut(loc, w);
            words.set_mut(loc, w);
        }
        assert!(
            matches!(layer, LayerCells::Narrow(_)),
            "every word fits 16 bits"
        );
        for (loc, w) in cells() {
            assert_eq!(layer.get(loc), w);
        }
        assert_eq!(layer.get(Loc::new(1_000, 1_000, 0)), 0);
        assert_eq!(layer.to_wide(), words);
        assert_eq!(hash_of(&layer), hash_of(&words));
        assert_eq!(hash_of(&layer), hash_of(&LayerCells::Wide(words.clone())));
        assert_eq!(layer, LayerCells::Wide(words.clone()));
        // A cell changed: unequal, and another hash.
        let mut other = layer.clone();
        other.set_mut(Loc::new(3, 3, 0), 12_345);
        assert_ne!(other, layer);
        assert_ne!(hash_of(&other), hash_of(&layer));
        layer.check_invariants().expect("a sound grid");
    }

    #[test]
    fn a_word_past_16_bits_widens_the_layer_and_keeps_every_cell() {
        let mut layer = LayerCells::new(Loc::new(0, 0, 0), 1);
        let mut words = Grid::new(0u64);
        words.set_mut(Loc::new(0, 0, 0), 1);
        for (loc, w) in cells() {
            layer.set_mut(loc, w);
            words.set_mut(loc, w);
        }
        let before = layer.clone();
        let big = Loc::new(7, 8, 1);
        layer.set_mut(big, u64::from(u16::MAX) + 1);
        words.set_mut(big, u64::from(u16::MAX) + 1);
        assert!(matches!(layer, LayerCells::Wide(_)));
        assert!(
            matches!(before, LayerCells::Narrow(_)),
            "the older value is untouched"
        );
        assert_eq!(layer.get(big), 65_536);
        assert_eq!(layer, LayerCells::Wide(words.clone()));
        assert_eq!(hash_of(&layer), hash_of(&words));
        // Written back below 16 bits it stays wide, and still equals (and hashes as) a
        // narrow layer with the same cells.
        layer.set_mut(big, 0);
        let narrow = LayerCells::from_wide(layer.to_wide());
        assert!(matches!(narrow, LayerCells::Narrow(_)));
        assert!(matches!(layer, LayerCells::Wide(_)));
        assert_eq!(layer, narrow);
        assert_eq!(hash_of(&layer), hash_of(&narrow));
        assert_eq!(narrow, before);
    }
}
