//! What a UI draws into: a [`Frame`] of [`Cell`]s (a glyph and two colours each), the
//! [`Tile`] pictures graphical frontends can draw instead of letters, and what the frontend
//! showing the frame can do ([`TileSupport`], [`ColourDepth`]). Plain data, no I/O: a frame
//! costs Θ(cells) to make and to clone.

use alembic::Rgb;
use serde::{Deserialize, Serialize};

/// One character cell of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// The glyph drawn.
    pub ch: char,
    /// Glyph colour.
    pub fg: Rgb,
    /// Cell background.
    pub bg: Rgb,
}

impl Cell {
    /// A space in these colours: what clearing an area or filling a bar draws.
    ///
    /// ```
    /// use alembic::Rgb;
    /// use alembic_ui::Cell;
    /// let c = Cell::blank(Rgb::WHITE, Rgb::BLACK);
    /// assert_eq!((c.ch, c.bg), (' ', Rgb::BLACK));
    /// ```
    #[must_use]
    pub const fn blank(fg: Rgb, bg: Rgb) -> Self {
        Cell { ch: ' ', fg, bg }
    }
}

impl Default for Cell {
    fn default() -> Self {
        Cell::blank(Rgb::new(200, 200, 200), Rgb::BLACK)
    }
}

/// A picture a graphical frontend can draw instead of a letter, as tileset consoles
/// (libtcod, bracket-lib) do. Each tile travels in [`Cell::ch`] as a Private Use Area
/// character ([`Tile::to_char`]) and is tinted by the cell's colours, so frames stay plain
/// data and a tile takes light and memory dimming exactly as a letter does.
///
/// Only send tiles when [`Frame::tiles`] says the frontend draws them; a terminal would show
/// the raw code point. [`Tile::Creature`] keeps the creature's letter (drawn on a token), so
/// switching to tiles never hides which creature it is.
///
/// Where cells are about twice as tall as wide ([`TileSupport::Double`]), one tile spans two
/// cells side by side ([`TileSpan::Left`] and [`TileSpan::Right`]) so it is about square;
/// [`Tile::Glyph`] then centres an ordinary letter across the pair.
///
/// ```
/// use alembic_ui::{Tile, TileSpan};
/// let c = Tile::Creature('g').to_char();
/// assert_eq!(Tile::decode(c), Some((Tile::Creature('g'), TileSpan::Whole)));
/// assert_eq!(Tile::decode('g'), None);
/// let [l, r] = Tile::Wall.to_pair();
/// assert_eq!(Tile::decode(l), Some((Tile::Wall, TileSpan::Left)));
/// assert_eq!(Tile::decode(r), Some((Tile::Wall, TileSpan::Right)));
/// assert_eq!(Tile::decode(Tile::Glyph('≈').to_char_in(TileSpan::Right)), Some((Tile::Glyph('≈'), TileSpan::Right)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Tile {
    /// A built wall.
    Wall,
    /// Natural rock.
    Rock,
    /// Floor.
    Floor,
    /// A closed door.
    DoorClosed,
    /// An open door.
    DoorOpen,
    /// Stairs down.
    StairsDown,
    /// Stairs up.
    StairsUp,
    /// Water.
    Water,
    /// A potion or flask.
    Potion,
    /// The player's hero.
    Hero,
    /// A creature: its letter on a round token (printable ASCII; anything else shows `?`).
    Creature(char),
    /// A bat (creatures by family, as Brogue CE draws them: one picture a family).
    Bat,
    /// A bear or another big beast.
    Bear,
    /// A rat or another small vermin.
    Rat,
    /// A snake, wyrm or other serpent.
    Snake,
    /// The undead: a skull.
    Undead,
    /// A goblin or another small humanoid.
    Goblin,
    /// An orc or another tusked warrior.
    Orc,
    /// A troll or another giant.
    Troll,
    /// A golem or another construct.
    Golem,
    /// A dragon.
    Dragon,
    /// A fungus, lichen or mould.
    Fungus,
    /// A rabbit or another small, harmless animal.
    Rabbit,
    /// An insect or another many-legged crawler.
    Insect,
    /// A herb or leaf (an ingredient).
    Herb,
    /// A mushroom.
    Mushroom,
    /// Food.
    Food,
    /// A gem or a precious stone.
    Gem,
    /// A weapon.
    Weapon,
    /// Armour.
    Armour,
    /// An amulet, ring or other jewellery.
    Amulet,
    /// A fountain.
    Fountain,
    /// A gravestone.
    Gravestone,
    /// A candelabra or another light.
    Candelabra,
    /// A rune or sign on the floor.
    Rune,
    /// A statue.
    Statue,
    /// A workbench or table.
    Workbench,
    /// An alchemist's apparatus: an alembic.
    Lab,
    /// Bars or a gate.
    Gate,
    /// Moss or grass on the floor.
    Moss,
    /// A pillar.
    Pillar,
    /// Lava or magma.
    Lava,
    /// An ordinary character drawn as a tile: centred across a two-cell span. Characters from
    /// U+4000 on show `?`.
    Glyph(char),
}

/// Which part of a tile a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileSpan {
    /// The whole tile in one cell.
    Whole,
    /// The left half of a tile two cells wide.
    Left,
    /// The right half of a tile two cells wide.
    Right,
}

/// Whether and how a frontend draws [`Tile`]s ([`Frontend::tile_support`](crate::Frontend::tile_support)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileSupport {
    /// Letters only (terminals).
    #[default]
    None,
    /// Tiles one cell wide (square-ish cells).
    Single,
    /// Tiles two cells wide (cells about twice as tall as wide), sent as
    /// [`Tile::to_pair`].
    Double,
}

/// Tiles live in Supplementary Private Use Area-B: `TILE_BASE + span × SPAN_STRIDE + payload`.
const TILE_BASE: u32 = 0x10_0000;
const SPAN_STRIDE: u32 = 0x5000;
/// Payload offsets: plain tiles at 0, creature tokens at `TOKEN + letter`, glyphs at
/// `GLYPH + char`.
const TOKEN: u32 = 0x100;
const GLYPH: u32 = 0x1000;
const GLYPH_LIMIT: u32 = SPAN_STRIDE - GLYPH;
/// Every tile that carries no character, in code order.
const PLAIN_TILES: [Tile; 41] = [
    Tile::Wall,
    Tile::Rock,
    Tile::Floor,
    Tile::DoorClosed,
    Tile::DoorOpen,
    Tile::StairsDown,
    Tile::StairsUp,
    Tile::Water,
    Tile::Potion,
    Tile::Hero,
    Tile::Bat,
    Tile::Bear,
    Tile::Rat,
    Tile::Snake,
    Tile::Undead,
    Tile::Goblin,
    Tile::Orc,
    Tile::Troll,
    Tile::Golem,
    Tile::Dragon,
    Tile::Fungus,
    Tile::Rabbit,
    Tile::Insect,
    Tile::Herb,
    Tile::Mushroom,
    Tile::Food,
    Tile::Gem,
    Tile::Weapon,
    Tile::Armour,
    Tile::Amulet,
    Tile::Fountain,
    Tile::Gravestone,
    Tile::Candelabra,
    Tile::Rune,
    Tile::Statue,
    Tile::Workbench,
    Tile::Lab,
    Tile::Gate,
    Tile::Moss,
    Tile::Pillar,
    Tile::Lava,
];

impl Tile {
    /// Every tile that carries no character ([`Tile::Creature`] and [`Tile::Glyph`] aside),
    /// for legends and tests.
    pub const PLAIN: [Tile; 41] = PLAIN_TILES;

    /// The character carrying the whole tile in one [`Cell`].
    #[must_use]
    pub fn to_char(self) -> char {
        self.to_char_in(TileSpan::Whole)
    }

    /// The two characters carrying a tile two cells wide, left then right.
    #[must_use]
    pub fn to_pair(self) -> [char; 2] {
        [
            self.to_char_in(TileSpan::Left),
            self.to_char_in(TileSpan::Right),
        ]
    }

    /// The character carrying `span` of this tile.
    #[must_use]
    pub fn to_char_in(self, span: TileSpan) -> char {
        let payload = match self {
            Tile::Creature(c) if c.is_ascii_graphic() => TOKEN + c as u32,
            Tile::Creature(_) => TOKEN + u32::from(b'?'),
            Tile::Glyph(c) if (c as u32) < GLYPH_LIMIT => GLYPH + c as u32,
            Tile::Glyph(_) => GLYPH + u32::from(b'?'),
            // Every plain tile is in the table; the position is its code.
            plain => PLAIN_TILES.iter().position(|t| *t == plain).unwrap_or(0) as u32,
        };
        let span = match span {
            TileSpan::Whole => 0,
            TileSpan::Left => 1,
            TileSpan::Right => 2,
        };
        char::from_u32(TILE_BASE + span * SPAN_STRIDE + payload)
            .unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// The tile and span a character carries, if it is a tile.
    #[must_use]
    pub fn decode(c: char) -> Option<(Tile, TileSpan)> {
        let code = (c as u32).checked_sub(TILE_BASE)?;
        let span = match code / SPAN_STRIDE {
            0 => TileSpan::Whole,
            1 => TileSpan::Left,
            2 => TileSpan::Right,
            _ => return None,
        };
        let payload = code % SPAN_STRIDE;
        let tile = if payload >= GLYPH {
            Tile::Glyph(char::from_u32(payload - GLYPH)?)
        } else if payload >= TOKEN {
            let letter = char::from_u32(payload - TOKEN)?;
            if !letter.is_ascii_graphic() {
                return None;
            }
            Tile::Creature(letter)
        } else {
            *PLAIN_TILES.get(payload as usize)?
        };
        Some((tile, span))
    }
}

/// A `width × height` grid of cells, row-major, produced by shared UI code.
///
/// Writes outside the frame are ignored (never a panic). Clone: Θ(cells).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    width: u16,
    height: u16,
    cells: Vec<Cell>,
    tiles: TileSupport,
    depth: ColourDepth,
    /// The cells that show a map, if any ([`Frame::set_map_area`]).
    map: Option<crate::Rect>,
    /// Per cell, row-major: whether it still shows the map (empty without a map area).
    on_map: Vec<bool>,
}

impl Frame {
    /// A blank frame of the given size.
    #[must_use]
    pub fn new(width: u16, height: u16) -> Self {
        Frame {
            width,
            height,
            cells: vec![Cell::default(); usize::from(width) * usize::from(height)],
            tiles: TileSupport::None,
            depth: ColourDepth::TrueColour,
            map: None,
            on_map: Vec::new(),
        }
    }

    /// Say that the cells of `area` (clipped to the frame) show a map: a level's cells, one
    /// per location. A window may draw them square, as tiles are, and the other cells as
    /// text, narrower (a terminal draws every cell alike and ignores it). The session's map
    /// viewport (`alembic_session::mapview::Viewport`) sets it when it draws; [`Frame::clear`]
    /// forgets it, and so does an empty `area`.
    ///
    /// Every cell of `area` shows the map until something else is written over it with
    /// [`Frame::put`] (a dialog box, a line of text): [`Frame::shows_map`] then says no, and
    /// a window draws that cell as text. [`Frame::put_map`] writes a map cell.
    pub fn set_map_area(&mut self, area: crate::Rect) {
        let x = area.x.min(self.width);
        let y = area.y.min(self.height);
        let w = area.width.min(self.width - x);
        let h = area.height.min(self.height - y);
        self.map = (w > 0 && h > 0).then(|| crate::Rect::new(x, y, w, h));
        self.on_map.clear();
        if self.map.is_some() {
            self.on_map.resize(self.cells.len(), false);
            let fw = usize::from(self.width);
            for row in usize::from(y)..usize::from(y + h) {
                let start = row * fw + usize::from(x);
                self.on_map[start..start + usize::from(w)].fill(true);
            }
        }
    }

    /// Whether cell (`x`, `y`) shows the map: inside the map area ([`Frame::set_map_area`])
    /// and not written over since with [`Frame::put`].
    #[must_use]
    pub fn shows_map(&self, x: impl Into<i32>, y: impl Into<i32>) -> bool {
        self.index(x.into(), y.into())
            .and_then(|i| self.on_map.get(i).copied())
            .unwrap_or(false)
    }

    /// Overwrite one cell of the map: as [`Frame::put`], but the cell goes on showing the map
    /// when it is inside the map area.
    pub fn put_map(&mut self, x: impl Into<i32>, y: impl Into<i32>, cell: Cell) {
        let (x, y) = (x.into(), y.into());
        let inside = self.map.is_some_and(|m| {
            let (x, y) = (u16::try_from(x), u16::try_from(y));
            matches!((x, y), (Ok(x), Ok(y)) if m.contains(x, y))
        });
        self.put(x, y, cell);
        if inside && let Some(i) = self.index(x, y) {
            self.on_map[i] = true;
        }
    }

    /// The cells that show a map ([`Frame::set_map_area`]), or `None`.
    #[must_use]
    pub fn map_area(&self) -> Option<crate::Rect> {
        self.map
    }

    /// How many colours the frontend showing this frame has ([`Frontend::colour_depth`](crate::Frontend::colour_depth)), so
    /// UIs can pick palettes that stay distinct after the frontend rounds colours.
    #[must_use]
    pub fn colour_depth(&self) -> ColourDepth {
        self.depth
    }

    /// Say how many colours will be shown ([`run`](crate::run) sets it from the frontend).
    pub fn set_colour_depth(&mut self, depth: ColourDepth) {
        self.depth = depth;
    }

    /// Whether and how the frontend showing this frame draws [`Tile`]s
    /// ([`Frontend::tile_support`](crate::Frontend::tile_support)). With [`TileSupport::None`], UIs draw letters only.
    #[must_use]
    pub fn tiles(&self) -> TileSupport {
        self.tiles
    }

    /// Say how [`Tile`]s will be drawn ([`run`](crate::run) sets it from the frontend).
    pub fn set_tiles(&mut self, tiles: TileSupport) {
        self.tiles = tiles;
    }

    /// Width in cells.
    #[must_use]
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in cells.
    #[must_use]
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Every cell, row-major.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return None;
        }
        Some(y as usize * usize::from(self.width) + x as usize)
    }

    /// The cell at (`x`, `y`), if inside. Coordinates are `i32` (negative ones are outside,
    /// which makes clipping free) and take a [`Rect`](crate::Rect)'s `u16`s as they are.
    #[must_use]
    pub fn get(&self, x: impl Into<i32>, y: impl Into<i32>) -> Option<&Cell> {
        self.index(x.into(), y.into()).map(|i| &self.cells[i])
    }

    /// Overwrite one cell; ignored outside the frame. A cell of the map area no longer shows
    /// the map ([`Frame::shows_map`]; [`Frame::put_map`] keeps it on the map).
    pub fn put(&mut self, x: impl Into<i32>, y: impl Into<i32>, cell: Cell) {
        if let Some(i) = self.index(x.into(), y.into()) {
            self.cells[i] = cell;
            if let Some(m) = self.on_map.get_mut(i) {
                *m = false;
            }
        }
    }

    /// Write `text` from (`x`, `y`) rightwards with the given colours, clipped to the frame.
    /// Returns the x after the last character written.
    ///
    /// ```
    /// use alembic_ui::{Frame, Rect, Rgb};
    /// let mut frame = Frame::new(20, 3);
    /// let area = Rect { x: 2, y: 1, width: 10, height: 1 };
    /// // A rect's `u16` corner goes straight in; so do `i32` sums that may be negative.
    /// let end = frame.put_str(area.x, area.y, "hello", Rgb::WHITE, Rgb::BLACK);
    /// frame.put_str(end - 9, 0, "clipped", Rgb::WHITE, Rgb::BLACK);
    /// assert_eq!(frame.row_text(1).trim(), "hello");
    /// assert_eq!(frame.row_text(0).trim_end(), "ipped");
    /// ```
    pub fn put_str(
        &mut self,
        x: impl Into<i32>,
        y: impl Into<i32>,
        text: &str,
        fg: Rgb,
        bg: Rgb,
    ) -> i32 {
        let (x, y) = (x.into(), y.into());
        let mut cx = x;
        for ch in text.chars() {
            self.put(cx, y, Cell { ch, fg, bg });
            cx = cx.saturating_add(1);
        }
        cx
    }

    /// Fill every cell with `cell`, and forget the map area (the map was painted over).
    pub fn clear(&mut self, cell: Cell) {
        self.cells.fill(cell);
        self.map = None;
        self.on_map.clear();
    }

    /// The text of row `y` (glyphs only), for tests and logs.
    #[must_use]
    pub fn row_text(&self, y: u16) -> String {
        if y >= self.height {
            return String::new();
        }
        let w = usize::from(self.width);
        let start = usize::from(y) * w;
        self.cells[start..start + w].iter().map(|c| c.ch).collect()
    }

    /// The whole frame as text, one line per row (trailing spaces kept).
    #[must_use]
    pub fn to_text(&self) -> String {
        (0..self.height)
            .map(|y| self.row_text(y))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether any row contains `needle`.
    #[must_use]
    pub fn contains_text(&self, needle: &str) -> bool {
        (0..self.height).any(|y| self.row_text(y).contains(needle))
    }
}

/// How many colours a frontend can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourDepth {
    /// 24-bit colour.
    TrueColour,
    /// The xterm 256-colour palette.
    Palette256,
    /// The 16 basic ANSI colours.
    Ansi16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_area_is_clipped_and_forgotten_by_clear() {
        use crate::Rect;
        let mut f = Frame::new(10, 6);
        assert_eq!(f.map_area(), None);
        f.set_map_area(Rect::new(2, 1, 20, 20));
        assert_eq!(f.map_area(), Some(Rect::new(2, 1, 8, 5)));
        assert!(f.shows_map(2, 1) && f.shows_map(9, 5));
        assert!(!f.shows_map(1, 1) && !f.shows_map(2, 0) && !f.shows_map(10, 5));
        // Text written over the map is no longer the map; a map cell written back is.
        f.put_str(3, 2, "ab", crate::Rgb::WHITE, crate::Rgb::BLACK);
        assert!(!f.shows_map(3, 2) && !f.shows_map(4, 2) && f.shows_map(5, 2));
        f.put_map(3, 2, Cell::default());
        assert!(f.shows_map(3, 2));
        f.put_map(0, 0, Cell::default());
        assert!(!f.shows_map(0, 0), "outside the map area");
        f.clear(Cell::default());
        assert_eq!(f.map_area(), None);
        f.set_map_area(Rect::new(12, 0, 3, 3));
        assert_eq!(f.map_area(), None, "outside the frame");
    }

    #[test]
    fn every_tile_and_span_round_trips_and_plain_text_is_not_a_tile() {
        let mut tiles: Vec<Tile> = PLAIN_TILES.to_vec();
        tiles.extend((b'!'..=b'~').map(|b| Tile::Creature(char::from(b))));
        tiles.extend(['a', '%', '≈', '♣', '─', '·', 'é'].map(Tile::Glyph));
        let mut seen = std::collections::HashSet::new();
        for t in tiles {
            for span in [TileSpan::Whole, TileSpan::Left, TileSpan::Right] {
                let c = t.to_char_in(span);
                assert!(seen.insert(c), "{t:?} {span:?} shares a code");
                assert_eq!(Tile::decode(c), Some((t, span)));
            }
        }
        // Out of range letters become '?', never a wrong tile.
        assert_eq!(
            Tile::decode(Tile::Creature('é').to_char()),
            Some((Tile::Creature('?'), TileSpan::Whole))
        );
        assert_eq!(
            Tile::decode(Tile::Glyph('漢').to_char()),
            Some((Tile::Glyph('?'), TileSpan::Whole))
        );
        for c in [
            'a',
            '@',
            ' ',
            '\u{E000}',
            '\u{F0000}',
            '\u{10FFFD}',
            char::MAX,
        ] {
            assert_eq!(Tile::decode(c), None, "{c:?}");
        }
    }

    #[test]
    fn frame_writes_clip() {
        let mut f = Frame::new(4, 2);
        f.put_str(2, 0, "abc", Rgb::WHITE, Rgb::BLACK);
        f.put(-1, 0, Cell::default());
        f.put(0, 9, Cell::default());
        assert_eq!(f.row_text(0), "  ab");
        assert_eq!(f.row_text(5), "");
        assert!(f.get(4, 0).is_none());
    }
}
