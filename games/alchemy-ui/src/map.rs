//! The play screen's map: its layout, the viewport that follows the hero, the torchlight and
//! memory palette, tiles, and the hover line.

use alembic::{Loc, Rgb};
use alembic_ui::{Cell, ColourDepth, Frame, Rect, TileSupport};

use super::colours::{self, PALETTE};
use alembic_alchemy::{
    self as alchemy,
    rules::level_box,
    view::{CellView, TileTable, cell_tile, cell_view, hero_id, seen_light_map, visible},
};

// ---------------------------------------------------------------------------------------------
// Layout

/// Where the parts of the play screen go in an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The message lines on top.
    pub msgs: Rect,
    /// The map viewport.
    pub map: Rect,
    /// The status panel (right side) or status lines (bottom, when narrow).
    pub status: Rect,
    /// Whether the status is a side panel.
    pub side: bool,
}

/// Width of the side panel.
const SIDE_W: u16 = 24;

/// The level beside the side panel, without the message rows: what the board of
/// [`crate::ruleset`] needs (the session draws the messages above it).
#[must_use]
pub fn play_area() -> (u16, u16) {
    let level = level_box(0);
    let cells = |n: i32| u16::try_from(n).unwrap_or(u16::MAX);
    (
        cells(level.width()).saturating_add(SIDE_W),
        cells(level.height()),
    )
}

/// The play screen's layout in `area`: `msg_rows` rows of messages on top (none when the
/// session above draws them), the status as a side panel when there is room (else 2 lines
/// at the bottom), the map in the rest.
#[must_use]
pub fn layout_with(area: Rect, msg_rows: u16) -> Layout {
    let (msgs, rest) = area.split_top(msg_rows);
    if area.width >= 64 {
        let map = Rect::new(rest.x, rest.y, rest.width - SIDE_W, rest.height);
        let status = Rect::new(rest.x + rest.width - SIDE_W, rest.y, SIDE_W, rest.height);
        Layout {
            msgs,
            map,
            status,
            side: true,
        }
    } else {
        let (map, status) = rest.split_bottom(2);
        Layout {
            msgs,
            map,
            status,
            side: false,
        }
    }
}

/// How map locations land on screen: the session's map viewport (the hero in the middle,
/// as DCSS keeps the player; tiles one or two cells wide), shared with every game.
pub use alembic_session::mapview::Viewport as MapView;

/// What the board shows: a game, and how (tiles or letters, the look cursor, which key
/// hints). The play screen, the replay viewer and the session's board all draw from one.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    /// The game drawn.
    pub game: &'a alembic::Game,
    /// Tiles rather than letters, where the frontend draws tiles.
    pub tiles: bool,
    /// The look cursor, which the map follows when it leaves the view around the hero.
    pub cursor: Option<Loc>,
    /// The key hints at the foot of the status panel.
    pub hints: Hints,
}

/// Which key hints the status panel ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hints {
    /// None (the screen around the board shows its own).
    None,
    /// The play keys.
    Play,
    /// The replay viewer's keys.
    Watch,
}

impl<'a> Shown<'a> {
    /// `game` in letters, with no cursor and no hints.
    #[must_use]
    pub fn game(game: &'a alembic::Game) -> Self {
        Shown {
            game,
            tiles: false,
            cursor: None,
            hints: Hints::None,
        }
    }
}

/// How the map is drawn on a frontend with `support`: letters, or tiles one or two cells
/// wide (only when the player has tiles on).
#[must_use]
pub fn tile_mode(shown: &Shown<'_>, support: TileSupport) -> TileSupport {
    if shown.tiles {
        support
    } else {
        TileSupport::None
    }
}

/// The map viewport in the map's rectangle `rect` on a frontend with `tiles` support:
/// centred on the hero, or on the look cursor when the cursor has left the hero-centred
/// view. `None` without a hero.
#[must_use]
pub fn map_view_in(shown: &Shown<'_>, rect: Rect, tiles: TileSupport) -> Option<MapView> {
    let game = shown.game;
    let at = game.things().location(hero_id(game).ok()?).ok()?;
    let level = level_box(at.z);
    let w = if tile_mode(shown, tiles) == TileSupport::Double {
        2
    } else {
        1
    };
    let v = MapView::centred(rect, level, at, w);
    match shown.cursor {
        Some(c) if c.z == at.z && !v.shows(c) => Some(MapView::centred(rect, level, c, w)),
        _ => Some(v),
    }
}

// ---------------------------------------------------------------------------------------------
// Colours

/// Raise a light so the far edge of the torch stays readable: `floor` of full brightness
/// always, the engine's light on top.
pub(super) fn lift(light: Rgb, floor: f32) -> Rgb {
    let f = |c: u8| (floor * 255.0 + (1.0 - floor) * f32::from(c)).round() as u8;
    Rgb::new(f(light.r), f(light.g), f(light.b))
}

/// Backgrounds of remembered cells, `(floor, wall)`, for a frontend showing `depth` colours.
///
/// Remembered places are drawn as Brogue draws them: desaturated, cooler and darker than
/// what the torch lights, but clearly visible. The contrast rule (tested at every depth
/// after the terminal's rounding): remembered floor against unexplored black, and
/// remembered wall against remembered floor, each at least 1.5:1 in relative luminance.
/// Sixteen colours cannot show a dark grey, so there memory is grey on black.
#[must_use]
pub fn memory_colours(depth: ColourDepth) -> (Rgb, Rgb) {
    match depth {
        ColourDepth::TrueColour | ColourDepth::Palette256 => {
            (Rgb::new(44, 46, 60), Rgb::new(86, 82, 80))
        }
        ColourDepth::Ansi16 => (Rgb::new(110, 110, 110), Rgb::new(200, 200, 200)),
    }
}

/// The floor's own colour under full torchlight (its tile's background when brighter).
const LIT_FLOOR: Rgb = Rgb::new(62, 56, 46);
/// A wall's or rock's own colour under full torchlight.
const LIT_WALL: Rgb = Rgb::new(124, 110, 94);

/// The colour of a lit wall's glyph (`#`) on its face `bg`: the face darkened, or lifted
/// when the face is dim, whichever contrasts more, so the mark reads at every light (at
/// least 3:1 against the face).
#[must_use]
pub fn wall_mark(bg: Rgb) -> Rgb {
    let d = |v: u8| (u16::from(v) * 3 / 10) as u8;
    let dark = Rgb::new(d(bg.r), d(bg.g), d(bg.b));
    let light = lift(bg, 0.6);
    if contrast(dark, bg) >= contrast(light, bg) {
        dark
    } else {
        light
    }
}

/// A torchlit wall's face at light `lit` (white: full torchlight).
#[must_use]
pub fn lit_wall_face(lit: Rgb) -> Rgb {
    LIT_WALL.modulate(lift(lit, 0.45))
}

/// Relative luminance (WCAG 2) of `c`, 0–1.
#[must_use]
pub fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
}

/// The contrast ratio (WCAG 2) of two colours, at least 1.
#[must_use]
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A remembered glyph on the memory background `bg`: its colour desaturated and cooled, and
/// lifted so it stands out from the background.
pub(super) fn memory_glyph(c: Rgb, bg: Rgb) -> Rgb {
    let r = remembered(c);
    let lift = |v: u8, b: u8| v.max(b).saturating_add(48).min(230);
    Rgb::new(lift(r.r, bg.r), lift(r.g, bg.g), lift(r.b, bg.b))
}

/// Remembered, not seen: dim and cooled towards blue-grey.
pub(super) fn remembered(c: Rgb) -> Rgb {
    let lum = 0.3 * f32::from(c.r) + 0.59 * f32::from(c.g) + 0.11 * f32::from(c.b);
    let mix = |v: u8, k: f32| ((0.5 * f32::from(v) + 0.5 * lum) * k).round().min(255.0) as u8;
    Rgb::new(mix(c.r, 0.40), mix(c.g, 0.44), mix(c.b, 0.58))
}

/// HP colour: green from half up, yellow below half, red below a quarter.
#[must_use]
pub fn health_colour(hp: i32, max: i32) -> Rgb {
    let (hp, max) = (i64::from(hp), i64::from(max.max(1)));
    if hp * 2 >= max {
        colours::GOOD
    } else if hp * 4 >= max {
        colours::FAIR
    } else {
        colours::BAD
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing

pub(super) fn blank(bg: Rgb) -> Cell {
    Cell::blank(PALETTE.text, bg)
}

/// Draw the map of the game `shown` into `view`.
///
/// # Errors
/// An engine error reading the game (a bug); the caller shows it.
pub fn draw_map(
    shown: &Shown<'_>,
    frame: &mut Frame,
    view: &MapView,
) -> Result<(), alembic::Error> {
    let game = shown.game;
    let hero = hero_id(game)?;
    let seen = visible(game)?;
    let light = seen_light_map(game, &seen)?;
    let tiles = tile_mode(shown, frame.tiles());
    let memory = memory_colours(frame.colour_depth());
    let table = TileTable::new(game);
    view.draw_cells(frame, tiles, |l| {
        let Some(CellView { glyph, visible, .. }) = cell_view(game, &seen, l)? else {
            return Ok(None);
        };
        // Solid rock is a blank glyph on a near-black tile: give it a stone-coloured
        // face so cave walls read as walls.
        let rock = glyph.ch == ' ';
        let base_bg = if rock { colours::ROCK_BG } else { glyph.bg };
        let cell = if visible {
            let lit = light.get(l);
            let on_top = alchemy::view::seen_top_thing(game, l);
            let blocks = table.blocks(game, l);
            // Torchlit floor is warm and brighter than remembered floor.
            // Walls stand out brighter than the floor, as in Brogue.
            let floor = if blocks { LIT_WALL } else { LIT_FLOOR };
            let base = Rgb::new(
                base_bg.r.max(floor.r),
                base_bg.g.max(floor.g),
                base_bg.b.max(floor.b),
            );
            let bg = base.modulate(lift(lit, 0.45));
            let fg = match on_top {
                Some(t) if t == hero => colours::HERO,
                // Creatures and items keep their saturated colours even at the torch's edge.
                Some(_) => glyph.fg.modulate(lift(lit, 0.8)),
                // A wall's mark is cut into its lit face, so it reads.
                None if blocks => wall_mark(bg),
                None => glyph.fg.modulate(lift(lit, 0.30)),
            };
            Cell {
                ch: glyph.ch,
                fg,
                bg,
            }
        } else {
            let bg = if table.blocks(game, l) {
                memory.1
            } else {
                memory.0
            };
            Cell {
                ch: glyph.ch,
                fg: memory_glyph(glyph.fg, bg),
                bg,
            }
        };
        // A rock tile needs a lighter face than its background to show its texture.
        let cell = if rock && tiles != TileSupport::None {
            Cell {
                fg: lift(cell.bg, 0.2),
                ..cell
            }
        } else {
            cell
        };
        let tile = match tiles {
            TileSupport::None => None,
            _ => cell_tile(game, &seen, l)?,
        };
        Ok(Some((cell, tile)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_play_area_is_the_level_beside_the_panel() {
        // 71 × 51 cells of level beside the 24-column panel; the session adds the messages,
        // so the board's play area must not count them.
        assert_eq!(play_area(), (95, 51));
    }
}
