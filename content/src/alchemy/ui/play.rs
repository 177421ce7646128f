//! The play screen: the messages on top, the map (centred on the hero, scrolling with it,
//! lit by the hero's torch, remembered terrain dimmed) and the status panel; every command
//! key of the game.

use alembic::{Loc, LocBox, Rgb, ThingId};
use alembic_ui::{
    Cell, ColourDepth, Confirm, Frame, Input, ItemList, Key, ListEntry, MessageLogScreen,
    MouseButton, MouseKind, Rect, Screen, TextScreen, Tile, TileSupport, Transition, fill,
    plain_key, put_clipped, wrap_text,
};

use super::colours::{self, PALETTE};
pub use super::keymap::help_lines;
use super::keymap::{Action, action_of};
use super::prompts::{ActionMenu, CountPrompt, DirectionPrompt, EndScreen, LookScreen, MorePrompt};
use super::travel::{Goal, Journey};
use super::{AlchemyCtx, Tone, tone_colour};
use crate::alchemy::props::{IS_DOOR, IS_LAB, IS_OPEN, IS_WORKBENCH};
use crate::alchemy::rules::items::apparatus_near;
use crate::alchemy::rules::world::{TileTable, items_at, level_box, scenery_at};
use crate::alchemy::text::a_name;
use crate::alchemy::view::{
    self, CellView, InventoryEntry, ItemKind, cell_tile, cell_view, hero_id, light_map, status,
    visible,
};
use crate::alchemy::{Command, summary};

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

/// The play screen's layout in `area`: messages on top (3 rows, fewer when short), the status
/// as a side panel when there is room (else 2 lines at the bottom), the map in the rest.
#[must_use]
pub fn layout(area: Rect) -> Layout {
    let msg_rows = match area.height {
        30.. => 3,
        12.. => 2,
        _ => 1,
    };
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

/// The first column or row shown along one axis: the whole level centred when it fits,
/// else the focus (the hero) centred, as DCSS keeps the player in the middle of the view;
/// past the level's edge is unexplored black.
fn axis_origin(min: i32, len: i32, focus: i32, view: i32) -> i32 {
    // Saturating: a hostile save can put the hero at the edge of i32.
    if view >= len {
        min.saturating_sub(view.saturating_sub(len) / 2)
    } else {
        focus.saturating_sub(view / 2)
    }
}

/// How map locations land on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapView {
    /// The viewport.
    pub rect: Rect,
    /// The location in the viewport's top-left cell.
    pub origin: Loc,
    /// The level shown.
    pub level: LocBox,
    /// Frame cells per map cell across: 1, or 2 for tiles two cells wide.
    pub cell_w: u16,
}

impl MapView {
    /// The viewport of `rect` centred on `focus`, clamped to the level on each axis, with
    /// each map cell `cell_w` frame cells wide (at least 1).
    #[must_use]
    pub fn centred(rect: Rect, level: LocBox, focus: Loc, cell_w: u16) -> Self {
        let cell_w = cell_w.max(1);
        let cols = i32::from(rect.width / cell_w);
        let ox = axis_origin(level.min.x, level.width(), focus.x, cols);
        let oy = axis_origin(level.min.y, level.height(), focus.y, i32::from(rect.height));
        MapView {
            rect,
            origin: Loc::new(ox, oy, level.min.z),
            level,
            cell_w,
        }
    }

    /// The (leftmost) frame cell showing `l`, if it is in view.
    #[must_use]
    pub fn screen_of(&self, l: Loc) -> Option<(i32, i32)> {
        if l.z != self.origin.z {
            return None;
        }
        let sx = l.x - self.origin.x;
        let sy = l.y - self.origin.y;
        let cols = i32::from(self.rect.width / self.cell_w);
        if sx < 0 || sy < 0 || sx >= cols || sy >= i32::from(self.rect.height) {
            return None;
        }
        Some((
            i32::from(self.rect.x) + sx * i32::from(self.cell_w),
            i32::from(self.rect.y) + sy,
        ))
    }

    /// Whether `l` is shown.
    #[must_use]
    pub fn shows(&self, l: Loc) -> bool {
        self.screen_of(l).is_some()
    }

    /// Change every frame cell showing `l` with `f` (highlights, cursors).
    pub fn paint(&self, frame: &mut Frame, l: Loc, f: impl Fn(Cell) -> Cell) {
        if let Some((x, y)) = self.screen_of(l) {
            for dx in 0..i32::from(self.cell_w) {
                if let Some(&c) = frame.get(x + dx, y) {
                    frame.put(x + dx, y, f(c));
                }
            }
        }
    }

    /// The level location shown at frame cell (`x`, `y`), if that cell is on the map.
    #[must_use]
    pub fn loc_at(&self, x: u16, y: u16) -> Option<Loc> {
        let r = self.rect;
        if x < r.x || y < r.y || x >= r.x + r.width || y >= r.y + r.height {
            return None;
        }
        let l = Loc::new(
            self.origin.x + i32::from((x - r.x) / self.cell_w),
            self.origin.y + i32::from(y - r.y),
            self.origin.z,
        );
        (self.level.contains(l) && self.shows(l)).then_some(l)
    }
}

/// How the map is drawn on a frontend with `support`: letters, or tiles one or two cells
/// wide (only when the player has tiles on).
#[must_use]
pub fn tile_mode(ctx: &AlchemyCtx, support: TileSupport) -> TileSupport {
    if ctx.tiles() {
        support
    } else {
        TileSupport::None
    }
}

/// The look text of the hovered cell, on the map's bottom row, and the cell outlined.
fn draw_hover(game: &alembic::Game, frame: &mut Frame, view: &MapView, l: Loc) {
    let Ok(info) = view::look_at(game, l) else {
        return;
    };
    view.paint(frame, l, |c| Cell {
        bg: colours::CURSOR_BG,
        ..c
    });
    let r = view.rect;
    let y = r.y + r.height.saturating_sub(1);
    let text = format!(" {} ", info.text);
    fill(frame, Rect::new(r.x, y, r.width, 1), blank(PALETTE.bg));
    put_clipped(frame, r, r.x, y, &text, PALETTE.text, PALETTE.bg);
}

/// The map viewport for `ctx` in `area` on a frontend with `tiles` support: centred on the
/// hero, or on the look cursor when the cursor has left the hero-centred view. `None`
/// without a game.
#[must_use]
pub fn map_view(ctx: &AlchemyCtx, area: Rect, tiles: TileSupport) -> Option<MapView> {
    let game = ctx.game()?;
    let at = game.location(hero_id(game).ok()?).ok()?;
    let rect = layout(area).map;
    let level = level_box(at.z);
    let w = if tile_mode(ctx, tiles) == TileSupport::Double {
        2
    } else {
        1
    };
    let v = MapView::centred(rect, level, at, w);
    match ctx.cursor() {
        Some(c) if c.z == at.z && !v.shows(c) => Some(MapView::centred(rect, level, c, w)),
        _ => Some(v),
    }
}

// ---------------------------------------------------------------------------------------------
// Colours

/// Raise a light so the far edge of the torch stays readable: `floor` of full brightness
/// always, the engine's light on top.
fn lift(light: Rgb, floor: f32) -> Rgb {
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
fn memory_glyph(c: Rgb, bg: Rgb) -> Rgb {
    let r = remembered(c);
    let lift = |v: u8, b: u8| v.max(b).saturating_add(48).min(230);
    Rgb::new(lift(r.r, bg.r), lift(r.g, bg.g), lift(r.b, bg.b))
}

/// Remembered, not seen: dim and cooled towards blue-grey.
fn remembered(c: Rgb) -> Rgb {
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

fn blank(bg: Rgb) -> Cell {
    Cell {
        ch: ' ',
        fg: PALETTE.text,
        bg,
    }
}

/// Draw the map of `ctx`'s game into `view`.
///
/// # Errors
/// An engine error reading the game (a bug); the caller shows it.
pub fn draw_map(ctx: &AlchemyCtx, frame: &mut Frame, view: &MapView) -> Result<(), alembic::Error> {
    let Some(game) = ctx.game() else {
        return Ok(());
    };
    let hero = hero_id(game)?;
    let seen = visible(game)?;
    let light = light_map(game)?;
    let tiles = tile_mode(ctx, frame.tiles());
    let memory = memory_colours(frame.colour_depth());
    let table = TileTable::new(game);
    let r = view.rect;
    let cols = i32::from(r.width / view.cell_w);
    for sy in 0..i32::from(r.height) {
        for sx in 0..cols {
            let l = Loc::new(view.origin.x + sx, view.origin.y + sy, view.origin.z);
            if !view.level.contains(l) {
                continue;
            }
            let Some(CellView { glyph, visible, .. }) = cell_view(game, &seen, l)? else {
                continue;
            };
            // Solid rock is a blank glyph on a near-black tile: give it a stone-coloured
            // face so cave walls read as walls.
            let rock = glyph.ch == ' ';
            let base_bg = if rock { colours::ROCK_BG } else { glyph.bg };
            let cell = if visible {
                let lit = light.get(l);
                let on_top = view::top_thing(game, l);
                let fg = match on_top {
                    Some(t) if t == hero => colours::HERO,
                    Some(_) => glyph.fg.modulate(lift(lit, 0.55)),
                    None => glyph.fg.modulate(lift(lit, 0.30)),
                };
                // Torchlit floor is warm and brighter than remembered floor.
                // Walls stand out brighter than the floor, as in Brogue.
                let floor = if table.blocks(game, l) {
                    LIT_WALL
                } else {
                    LIT_FLOOR
                };
                let base = Rgb::new(
                    base_bg.r.max(floor.r),
                    base_bg.g.max(floor.g),
                    base_bg.b.max(floor.b),
                );
                Cell {
                    ch: glyph.ch,
                    fg,
                    bg: base.modulate(lift(lit, 0.45)),
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
            let x = i32::from(r.x) + sx * i32::from(view.cell_w);
            let y = i32::from(r.y) + sy;
            match tiles {
                TileSupport::None => frame.put(x, y, cell),
                TileSupport::Single => {
                    let ch = cell_tile(game, &seen, l)?.map_or(cell.ch, Tile::to_char);
                    frame.put(x, y, Cell { ch, ..cell });
                }
                TileSupport::Double => {
                    // Anything without a picture keeps its letter, centred on the pair.
                    let tile = cell_tile(game, &seen, l)?.unwrap_or(Tile::Glyph(cell.ch));
                    for (dx, ch) in tile.to_pair().into_iter().enumerate() {
                        frame.put(x + dx as i32, y, Cell { ch, ..cell });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Draw the newest messages into `area`, newest at the bottom: lines from the latest command
/// bright, older ones faded, long messages wrapped.
pub fn draw_messages(ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
    if area.is_empty() {
        return;
    }
    let rows = usize::from(area.height);
    let width = usize::from(area.width.saturating_sub(1)).max(1);
    let log = ctx.log();
    let fresh_from = log.len().saturating_sub(ctx.fresh());
    // (text, colour), newest last.
    let mut lines: Vec<(String, Rgb)> = Vec::new();
    let mut hidden_fresh = 0;
    for (i, line) in log.iter().enumerate().rev() {
        let fresh = i >= fresh_from;
        let fg = if fresh {
            tone_colour(line.tone)
        } else {
            tone_colour(line.tone).scale(0.55)
        };
        let wrapped = wrap_text(&line.shown(), width);
        for w in wrapped.into_iter().rev() {
            if lines.len() < rows {
                lines.push((w, fg));
            } else if fresh {
                hidden_fresh += 1;
            }
        }
        if lines.len() >= rows && !fresh {
            break;
        }
    }
    lines.reverse();
    let top = area.y + (rows - lines.len()) as u16;
    for (i, (text, fg)) in lines.iter().enumerate() {
        put_clipped(frame, area, area.x, top + i as u16, text, *fg, PALETTE.bg);
    }
    if hidden_fresh > 0 {
        let more = format!(" +{hidden_fresh} more (m) ");
        let x = area.right().saturating_sub(more.chars().count() as u16);
        put_clipped(frame, area, x, area.y, &more, PALETTE.bg, colours::NOTE);
    }
}

/// A status panel writer: one line after another, clipped to the panel.
struct Lines<'a> {
    frame: &'a mut Frame,
    area: Rect,
    y: u16,
}

impl Lines<'_> {
    fn room(&self) -> bool {
        self.y < self.area.bottom()
    }

    /// Write spans on the current line and move down.
    fn line(&mut self, spans: &[(&str, Rgb)]) {
        if self.room() {
            let mut x = self.area.x + 1;
            for (text, fg) in spans {
                put_clipped(
                    self.frame,
                    self.area,
                    x,
                    self.y,
                    text,
                    *fg,
                    colours::PANEL_BG,
                );
                x = x.saturating_add(text.chars().count() as u16);
            }
        }
        self.y = self.y.saturating_add(1);
    }

    /// Write wrapped text (indented by `indent`).
    fn wrapped(&mut self, text: &str, fg: Rgb, indent: usize) {
        let width = usize::from(self.area.width.saturating_sub(2)).saturating_sub(indent);
        for l in wrap_text(text, width.max(1)) {
            let s = format!("{}{l}", " ".repeat(indent));
            self.line(&[(&s, fg)]);
        }
    }
}

/// What the hero stands on or beside, for the status panel: stairs, apparatus, items.
fn here_notes(ctx: &AlchemyCtx) -> Result<Vec<String>, alembic::Error> {
    let Some(game) = ctx.game() else {
        return Ok(Vec::new());
    };
    let at = game.location(hero_id(game)?)?;
    let mut out = Vec::new();
    if let Some(s) = scenery_at(game, at) {
        let name = a_name(game, s)?;
        let hint = if game.is(s, &crate::alchemy::props::IS_EXIT) {
            " (< with the Stone to win)"
        } else if game.is(s, &crate::alchemy::props::IS_STAIRS_DOWN) {
            " (> to descend)"
        } else if game.is(s, &crate::alchemy::props::IS_STAIRS_UP) {
            " (< to climb)"
        } else {
            ""
        };
        out.push(format!("Here: {name}{hint}"));
    }
    let items = items_at(game, at);
    if !items.is_empty() {
        let list = crate::alchemy::command::list_items(game, &items)?;
        out.push(format!("Here: {list} (g to pick up)"));
    }
    if apparatus_near(game, at, &IS_WORKBENCH) {
        out.push("A workbench is at hand (c to craft).".to_string());
    }
    if apparatus_near(game, at, &IS_LAB) {
        out.push("An analysis lab is at hand (a to analyse).".to_string());
    }
    Ok(out)
}

/// Draw the status panel (side layout).
fn draw_side_status(ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) -> Result<(), alembic::Error> {
    let Some(game) = ctx.game() else {
        return Ok(());
    };
    let st = status(game)?;
    let here = here_notes(ctx)?;
    fill(frame, area, blank(colours::PANEL_BG));
    let (l, v) = (colours::LABEL, colours::VALUE);
    let hp_fg = health_colour(st.hp, st.hp_max);
    let mut w = Lines {
        frame,
        area,
        y: area.y,
    };
    w.line(&[
        ("Depth ", l),
        (&format!("{}/{}", st.depth, st.levels), v),
        ("  Turn ", l),
        (&st.turn.to_string(), v),
    ]);
    w.line(&[("HP ", l), (&format!("{}/{}", st.hp, st.hp_max), hp_fg)]);
    // A bar of the panel's width.
    let bar_w = usize::from(area.width.saturating_sub(2));
    let full = if st.hp_max > 0 {
        (usize::try_from(st.hp.max(0))
            .unwrap_or(0)
            .saturating_mul(bar_w))
        .div_ceil(usize::try_from(st.hp_max).unwrap_or(1))
        .min(bar_w)
    } else {
        0
    };
    let filled = "█".repeat(full);
    let empty = "░".repeat(bar_w - full);
    w.line(&[(&filled, hp_fg), (&empty, colours::LABEL.scale(0.6))]);
    for pair in st.stats.chunks(2) {
        let mut spans: Vec<(String, Rgb)> = Vec::new();
        for (i, (code, value)) in pair.iter().enumerate() {
            let pad = if i == 0 { "" } else { "     " };
            spans.push((format!("{pad}{code} "), l));
            spans.push((format!("{value:>3}"), v));
        }
        let refs: Vec<(&str, Rgb)> = spans.iter().map(|(s, c)| (s.as_str(), *c)).collect();
        w.line(&refs);
    }
    w.line(&[
        ("Armour ", l),
        (&st.armour.to_string(), v),
        ("  Speed ", l),
        (&st.speed.to_string(), v),
    ]);
    w.wrapped(&format!("Attack: {}", st.attack), l, 0);
    if st.has_stone {
        w.line(&[("You carry the Stone!", colours::HERO)]);
    }
    w.line(&[]);
    if st.effects.is_empty() {
        w.line(&[("No effects", colours::LABEL.scale(0.8))]);
    } else {
        w.line(&[("Effects", l)]);
        for (name, turns) in &st.effects {
            w.wrapped(&format!("{name} ({turns})"), colours::EFFECT, 1);
        }
    }
    if !here.is_empty() {
        w.line(&[]);
        for h in &here {
            w.wrapped(h, PALETTE.text, 0);
        }
    }
    // Key hints pinned to the bottom, when they do not overwrite anything.
    let hints = [
        "? help  i inventory",
        "x look  m messages",
        "S save  Q quit",
    ];
    let top = area.bottom().saturating_sub(hints.len() as u16);
    if w.y < top {
        for (i, h) in hints.iter().enumerate() {
            put_clipped(
                w.frame,
                area,
                area.x + 1,
                top + i as u16,
                h,
                PALETTE.dim,
                colours::PANEL_BG,
            );
        }
    }
    Ok(())
}

/// Draw the two status lines (narrow layout).
fn draw_bottom_status(
    ctx: &AlchemyCtx,
    frame: &mut Frame,
    area: Rect,
) -> Result<(), alembic::Error> {
    let Some(game) = ctx.game() else {
        return Ok(());
    };
    let st = status(game)?;
    fill(frame, area, blank(colours::PANEL_BG));
    let mut w = Lines {
        frame,
        area,
        y: area.y,
    };
    let hp_fg = health_colour(st.hp, st.hp_max);
    w.line(&[
        ("Depth ", colours::LABEL),
        (&format!("{}/{} ", st.depth, st.levels), colours::VALUE),
        ("HP ", colours::LABEL),
        (&format!("{}/{} ", st.hp, st.hp_max), hp_fg),
        (
            &format!("AC {} Spd {} T {}", st.armour, st.speed, st.turn),
            colours::VALUE,
        ),
    ]);
    let mut second: String = st.stats.iter().map(|(c, v)| format!("{c}{v} ")).collect();
    for (n, t) in &st.effects {
        second.push_str(&format!("{n}({t}) "));
    }
    w.line(&[(&second, colours::VALUE)]);
    Ok(())
}

/// Draw the whole play screen for `ctx` into `area` of `frame`.
pub fn draw_play(ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
    fill(frame, area, blank(PALETTE.bg));
    let lay = layout(area);
    draw_messages(ctx, frame, lay.msgs);
    let mut result = match map_view(ctx, area, frame.tiles()) {
        Some(v) => draw_map(ctx, frame, &v),
        None => Ok(()),
    };
    if result.is_ok() {
        result = if lay.side {
            draw_side_status(ctx, frame, lay.status)
        } else {
            draw_bottom_status(ctx, frame, lay.status)
        };
    }
    if let Err(e) = result {
        put_clipped(
            frame,
            lay.map,
            lay.map.x,
            lay.map.y,
            &format!("internal error: {e}"),
            colours::ERROR,
            PALETTE.bg,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Commands

/// What can be done with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemAction {
    /// Drink.
    Quaff,
    /// Eat.
    Eat,
    /// Drop.
    Drop,
    /// Throw (then target).
    Throw,
    /// Wield or wear; take off when already in use.
    Wield,
    /// Analyse at a lab.
    Analyse,
}

impl ItemAction {
    fn title(self) -> &'static str {
        match self {
            ItemAction::Quaff => "Quaff which potion?",
            ItemAction::Eat => "Eat what?",
            ItemAction::Drop => "Drop what? (what you wear or wield comes off first: w)",
            ItemAction::Throw => "Throw what? (what you wear or wield comes off first: w)",
            ItemAction::Wield => "Wield or wear what? (again to take off)",
            ItemAction::Analyse => "Analyse what?",
        }
    }

    fn none(self) -> &'static str {
        match self {
            ItemAction::Quaff => "You have no potions to drink.",
            ItemAction::Eat => "You have nothing to eat.",
            ItemAction::Drop => "You are carrying nothing.",
            ItemAction::Throw => "You have nothing to throw.",
            ItemAction::Wield => "You have nothing to wield or wear.",
            ItemAction::Analyse => "You have nothing to analyse: only potions and ingredients.",
        }
    }

    fn fits(self, e: &InventoryEntry) -> bool {
        match self {
            ItemAction::Quaff => e.kind == ItemKind::Potion,
            ItemAction::Eat => matches!(e.kind, ItemKind::Food | ItemKind::Ingredient),
            // What is worn or wielded must come off first (w), as in DCSS.
            ItemAction::Drop | ItemAction::Throw => !e.wielded,
            ItemAction::Wield => matches!(e.kind, ItemKind::Weapon | ItemKind::Armour),
            ItemAction::Analyse => matches!(e.kind, ItemKind::Potion | ItemKind::Ingredient),
        }
    }

    /// The key that does this (the same as on the play screen).
    fn key(self) -> char {
        match self {
            ItemAction::Quaff => 'q',
            ItemAction::Eat => 'e',
            ItemAction::Drop => 'd',
            ItemAction::Throw => 't',
            ItemAction::Wield => 'w',
            ItemAction::Analyse => 'a',
        }
    }

    fn label(self, e: &InventoryEntry) -> &'static str {
        match self {
            ItemAction::Quaff => "quaff",
            ItemAction::Eat => "eat",
            ItemAction::Drop => "drop",
            ItemAction::Throw => "throw",
            ItemAction::Wield => match (e.wielded, e.kind) {
                (true, ItemKind::Weapon) => "put away",
                (true, _) => "take off",
                (false, ItemKind::Weapon) => "wield",
                (false, _) => "wear",
            },
            ItemAction::Analyse => "analyse (beside an analysis lab)",
        }
    }

    const ALL: [ItemAction; 6] = [
        ItemAction::Quaff,
        ItemAction::Eat,
        ItemAction::Wield,
        ItemAction::Throw,
        ItemAction::Analyse,
        ItemAction::Drop,
    ];
}

/// What the play screen hears back from the screens it asks, each with what it needs to
/// remember meanwhile (`None`, `false`: the player backed out).
#[derive(Clone, Debug)]
pub enum PlayReply {
    /// An item for an action: the ids behind each list entry (and whether it is in use), and
    /// the entry chosen.
    Item(ItemAction, Vec<(ThingId, bool)>, Option<usize>),
    /// An inventory entry, to show its actions.
    Inventory(Vec<InventoryEntry>, Option<usize>),
    /// An action for an inventory entry.
    InventoryAction(InventoryEntry, Vec<ItemAction>, Option<usize>),
    /// Where to throw this item.
    Throw(ThingId, Option<Loc>),
    /// How many of this stack to drop.
    DropSome(ThingId, Option<usize>),
    /// A recipe to craft.
    Craft(Vec<crate::alchemy::kinds::RecipeId>, Option<usize>),
    /// One of the items here to pick up.
    PickUp(Vec<ThingId>, Option<usize>),
    /// The direction to open or close a door.
    Door(Option<alembic::Dir>),
    /// The place to travel to.
    Travel(Option<Loc>),
    /// Quit without saving?
    Quit(bool),
    /// Analyse (and so use up) this item?
    Analyse(ThingId, bool),
    /// The game was saved and the player has read where: quit.
    SavedQuit,
    /// The --More-- after a death was read: on to the end (or the practice rewind).
    DeathRead,
    /// Rewind after a practice death?
    Rewind(bool),
}

/// The play screen.
#[derive(Debug, Default)]
pub struct PlayScreen {
    /// The map cell under the mouse pointer (hover to look).
    hover: Option<Loc>,
    /// The map view as last drawn, so a mouse position maps back to the cell the player saw
    /// there. Render output, written by `render` only.
    drawn: Option<MapView>,
    /// Travel, explore or a run under way: one step per tick, any key stops it.
    journey: Option<Journey>,
}

/// The pause between two steps of travel, explore and running, so the player sees the hero
/// walk (and can stop it with any key).
pub const STEP_DELAY: std::time::Duration = std::time::Duration::from_millis(8);

impl PlayScreen {
    /// Start moving towards `goal`: the first step now (a refusal, such as a monster in
    /// view, is said at once), the rest one per tick.
    fn begin(&mut self, ctx: &mut AlchemyCtx, goal: Goal) -> Transition<AlchemyCtx, Self> {
        let mut journey = Journey::new(goal);
        self.go_on(ctx, &mut journey).unwrap_or_else(|| {
            self.journey = Some(journey);
            Transition::Stay
        })
    }

    /// One step of `journey`: `Some` when it ended (and was reported).
    fn go_on(
        &mut self,
        ctx: &mut AlchemyCtx,
        journey: &mut Journey,
    ) -> Option<Transition<AlchemyCtx, Self>> {
        journey
            .step(ctx, &mut |_, _| {})
            .map(|end| Self::report(ctx, end))
    }

    /// Whether travel, explore or a run is under way.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.journey.is_some()
    }

    /// A play screen for the context's game.
    #[must_use]
    pub fn new() -> Self {
        PlayScreen::default()
    }

    /// The mouse on the play screen: hover looks, a left click travels there (or attacks
    /// next to the hero), the wheel opens the message log.
    fn mouse(
        &mut self,
        ctx: &mut AlchemyCtx,
        kind: MouseKind,
        x: u16,
        y: u16,
    ) -> Transition<AlchemyCtx, Self> {
        let at = self.drawn.and_then(|v| v.loc_at(x, y));
        match kind {
            MouseKind::Move => {
                // Only places the hero knows: hovering the dark says nothing.
                self.hover = at.filter(|l| {
                    ctx.game()
                        .is_some_and(|g| crate::alchemy::rules::memory::explored(g, *l))
                });
                Transition::Stay
            }
            MouseKind::Down(MouseButton::Left) => {
                let Some(target) = at else {
                    return Transition::Stay;
                };
                self.hover = None;
                let Some(hero_at) = ctx.game().and_then(|g| g.location(hero_id(g).ok()?).ok())
                else {
                    return Transition::Stay;
                };
                if hero_at.chebyshev(target) == 1
                    && let Some(d) = hero_at.dir_to(target)
                {
                    return Self::act(ctx, Command::Move(d));
                }
                self.begin(ctx, Goal::Travel(target))
            }
            MouseKind::Down(MouseButton::Right) => {
                self.hover = at;
                Transition::Stay
            }
            MouseKind::ScrollUp => {
                let lines = ctx.log().iter().map(super::LogLine::shown).collect();
                Transition::push(MessageLogScreen::new("Messages", lines))
            }
            _ => Transition::Stay,
        }
    }

    /// Tell the player how a travel, run or exploration ended.
    fn report(ctx: &mut AlchemyCtx, end: super::travel::TravelEnd) -> Transition<AlchemyCtx, Self> {
        use super::travel::TravelEnd;
        match end {
            TravelEnd::GameOver => return end_game(ctx),
            TravelEnd::Interrupted(why) if !why.is_empty() => ctx.note(Tone::Note, why),
            TravelEnd::NoPath => ctx.note(Tone::Note, "You know no way there."),
            _ => {}
        }
        Transition::Stay
    }

    /// Run a command; if it ends the game, swap to the end screen.
    fn act(ctx: &mut AlchemyCtx, cmd: Command) -> Transition<AlchemyCtx, Self> {
        match ctx.act(cmd) {
            Some(true) => end_game(ctx),
            _ => Transition::Stay,
        }
    }

    fn entries(ctx: &mut AlchemyCtx) -> Option<Vec<InventoryEntry>> {
        let game = ctx.game()?;
        match view::inventory_entries(game) {
            Ok(e) => Some(e),
            Err(e) => {
                ctx.note(Tone::Error, format!("internal error: {e}"));
                None
            }
        }
    }

    fn choose_item(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: ItemAction,
    ) -> Transition<AlchemyCtx, Self> {
        let Some(all) = Self::entries(ctx) else {
            return Transition::Stay;
        };
        let fit: Vec<&InventoryEntry> = all.iter().filter(|e| action.fits(e)).collect();
        if fit.is_empty() {
            let in_use = matches!(action, ItemAction::Drop | ItemAction::Throw)
                && all.iter().any(|e| e.wielded);
            if in_use {
                ctx.note(
                    Tone::Note,
                    "You carry only what you wear or wield: take it off or put it away first (w).",
                );
            } else {
                ctx.note(Tone::Note, action.none());
            }
            return Transition::Stay;
        }
        let ids = fit
            .iter()
            .filter_map(|e| e.ids.first().map(|&id| (id, e.wielded)))
            .collect();
        let list = item_list(action.title(), &fit);
        Transition::ask(list, move |i| PlayReply::Item(action, ids, i))
    }

    fn do_item(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: ItemAction,
        id: ThingId,
        in_use: bool,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            ItemAction::Quaff => Self::act(ctx, Command::Quaff(id)),
            ItemAction::Eat => Self::act(ctx, Command::Eat(id)),
            ItemAction::Drop => {
                let n = ctx
                    .game()
                    .map_or(1, |g| crate::alchemy::rules::stack::number(g, id));
                if n > 1 {
                    let prompt = CountPrompt::new("Drop how many?", n.unsigned_abs());
                    Transition::ask(prompt, move |n| PlayReply::DropSome(id, n))
                } else {
                    Self::act(ctx, Command::Drop(id))
                }
            }
            ItemAction::Analyse if !at_lab(ctx) => {
                ctx.note(Tone::Note, NO_LAB);
                Transition::Stay
            }
            ItemAction::Analyse => {
                let name = ctx
                    .game()
                    .and_then(|g| crate::alchemy::text::the_name(g, id).ok())
                    .unwrap_or_else(|| "it".to_owned());
                let prompt = format!(
                    "Analysing {name} uses it up, whether or not you learn what it is. Analyse it?"
                );
                Transition::ask(Confirm::new(prompt), move |yes| PlayReply::Analyse(id, yes))
            }
            ItemAction::Wield if in_use => Self::act(ctx, Command::Unwield(id)),
            ItemAction::Wield => Self::act(ctx, Command::Wield(id)),
            ItemAction::Throw => match LookScreen::target(ctx) {
                Some(screen) => Transition::ask(screen, move |at| PlayReply::Throw(id, at)),
                None => Transition::Stay,
            },
        }
    }

    fn craft(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Stay;
        };
        let recipes = match view::known_recipes(game) {
            Ok(r) => r,
            Err(e) => {
                ctx.note(Tone::Error, format!("internal error: {e}"));
                return Transition::Stay;
            }
        };
        if recipes.is_empty() {
            ctx.note(
                Tone::Note,
                "You know no recipes yet: identify a potion (drink or analyse it) to learn how it is made.",
            );
            return Transition::Stay;
        }
        let bench = recipes.iter().any(|r| r.at_workbench);
        let entries = recipes
            .iter()
            .map(|r| {
                let (tag, fg) = if r.missing.is_empty() {
                    ("[OK]", colours::GOOD)
                } else {
                    ("[ingredients missing]", colours::BAD)
                };
                ListEntry::new(format!("{}: {} {tag}", r.name, r.ingredients.join(", ")))
                    .with_fg(fg)
            })
            .collect();
        let title = if bench {
            "Craft which potion?"
        } else {
            "Recipes (stand beside an alchemy workbench to craft)"
        };
        let names = recipes.into_iter().map(|r| r.potion).collect();
        Transition::ask(
            ItemList::new(title, entries).with_palette(PALETTE),
            move |i| PlayReply::Craft(names, i),
        )
    }

    fn pick_up(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Stay;
        };
        let here = hero_id(game)
            .and_then(|h| game.location(h))
            .map(|at| items_at(game, at))
            .unwrap_or_default();
        if here.len() <= 1 {
            return Self::act(ctx, Command::PickUp(None));
        }
        let entries = here
            .iter()
            .map(|&t| ListEntry::new(a_name(game, t).unwrap_or_else(|_| "something".into())))
            .collect();
        Transition::ask(
            ItemList::new("Pick up what?", entries).with_palette(PALETTE),
            move |i| PlayReply::PickUp(here, i),
        )
    }

    fn inventory(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(all) = Self::entries(ctx) else {
            return Transition::Stay;
        };
        if all.is_empty() {
            ctx.note(Tone::Note, "You are carrying nothing.");
            return Transition::Stay;
        }
        let refs: Vec<&InventoryEntry> = all.iter().collect();
        let list = item_list("Inventory (choose an item for its actions)", &refs);
        Transition::ask(list, move |i| PlayReply::Inventory(all, i))
    }

    fn door(ctx: &mut AlchemyCtx, d: alembic::Dir) -> Transition<AlchemyCtx, Self> {
        let open_door_there = ctx.game().and_then(|g| {
            let at = g.location(hero_id(g).ok()?).ok()? + d;
            g.things_at(at)
                .iter()
                .find(|&&t| g.is(t, &IS_DOOR))
                .map(|&t| g.is(t, &IS_OPEN))
        });
        match open_door_there {
            Some(true) => Self::act(ctx, Command::Close(d)),
            _ => Self::act(ctx, Command::Open(d)),
        }
    }
}

/// An item list over inventory entries, each in its glyph's colour.
fn item_list(title: &str, entries: &[&InventoryEntry]) -> ItemList {
    let rows = entries
        .iter()
        .map(|e| {
            let fg = if e.glyph.fg == Rgb::BLACK {
                PALETTE.text
            } else {
                e.glyph.fg
            };
            let row = ListEntry::new(format!("{} {}", e.glyph.ch, e.name)).with_fg(fg);
            // The item's own pack letter, the same in every list.
            match e.letter {
                Some(c) => row.with_letter(c),
                None => row,
            }
        })
        .collect();
    ItemList::new(title, rows).with_palette(PALETTE)
}

/// What `a` says away from a lab.
const NO_LAB: &str = "You need to stand beside an analysis lab (&) to analyse anything.";

/// Whether an analysis lab is within the hero's reach.
fn at_lab(ctx: &AlchemyCtx) -> bool {
    ctx.game().is_some_and(|g| {
        hero_id(g)
            .and_then(|h| g.location(h))
            .is_ok_and(|at| apparatus_near(g, at, &IS_LAB))
    })
}

/// Whether the hero stands on stairs down (or up).
fn on_stairs(ctx: &AlchemyCtx, down: bool) -> bool {
    use crate::alchemy::props::{IS_STAIRS_DOWN, IS_STAIRS_UP};
    let flag = if down { &IS_STAIRS_DOWN } else { &IS_STAIRS_UP };
    ctx.game().is_some_and(|g| {
        hero_id(g)
            .ok()
            .and_then(|h| g.location(h).ok())
            .is_some_and(|l| g.things_at(l).iter().any(|&t| g.is(t, flag)))
    })
}

/// The game just ended: delete its save (roguelike rules) and show the summary.
fn end_game(ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, PlayScreen> {
    // A practice game offers to rewind a death before it ends.
    let died = ctx
        .game()
        .and_then(|g| summary(g).ok())
        .filter(|s| s.outcome == crate::alchemy::Fate::Died);
    // A death first pauses on the map with the last messages in view: --More--.
    if died.is_some() && ctx.death_pause == super::DeathPause::NotYet {
        ctx.death_pause = super::DeathPause::Showing;
        return Transition::ask(
            MorePrompt::new(vec![("You die...".to_owned(), colours::BAD)]),
            |()| PlayReply::DeathRead,
        );
    }
    if let Some(s) = died
        && ctx.is_practice()
        && !ctx.rewind_declined()
    {
        let cause = if s.cause.is_empty() {
            "dead".to_owned()
        } else {
            s.cause
        };
        return Transition::ask(
            Confirm::new(format!(
                "You were {cause}. Rewind {} moves and play on? (This is a practice game.)",
                super::REWIND_MOVES
            )),
            PlayReply::Rewind,
        );
    }
    ctx.finish_game(false);
    let removed = ctx.remove_save();
    Transition::replace(EndScreen::new(ctx, removed))
}

impl Screen<AlchemyCtx> for PlayScreen {
    type Output = ();
    type Reply = PlayReply;

    fn render(&mut self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        draw_play(ctx, frame, area);
        let view = map_view(ctx, area, frame.tiles());
        self.drawn = view;
        if let (Some(v), Some(l), Some(game)) = (view, self.hover, ctx.game()) {
            draw_hover(game, frame, &v, l);
        }
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Pop(());
        };
        if summary(game).is_ok_and(|s| s.outcome.is_over()) {
            return end_game(ctx);
        }
        // Any key or click stops travel, explore or a run (and does nothing else).
        if self.journey.is_some()
            && matches!(
                input,
                Input::Key { .. }
                    | Input::Mouse {
                        kind: MouseKind::Down(_),
                        ..
                    }
            )
        {
            self.journey = None;
            ctx.note(Tone::Note, "You stop.");
            return Transition::Stay;
        }
        if let Input::Mouse { kind, x, y, .. } = input {
            return self.mouse(ctx, kind, x, y);
        }
        if matches!(input, Input::Key { .. }) {
            self.hover = None;
        }
        let Some((action, dir)) = action_of(&input) else {
            return match plain_key(&input) {
                Some(Key::Char(c)) if !c.is_control() => {
                    ctx.note(Tone::Note, format!("Unknown key '{c}'. Press ? for help."));
                    Transition::Stay
                }
                Some(other) => {
                    ctx.note(
                        Tone::Note,
                        format!("Unknown key {other:?}. Press ? for help."),
                    );
                    Transition::Stay
                }
                None => Transition::Stay,
            };
        };
        self.perform(ctx, action, dir)
    }

    fn on_result(
        &mut self,
        ctx: &mut AlchemyCtx,
        reply: PlayReply,
    ) -> Transition<AlchemyCtx, Self> {
        match reply {
            PlayReply::DeathRead => {
                ctx.death_pause = super::DeathPause::Done;
                end_game(ctx)
            }
            PlayReply::Rewind(true) => {
                for _ in 0..super::REWIND_MOVES {
                    if !ctx.undo() {
                        break;
                    }
                }
                Transition::Stay
            }
            PlayReply::Rewind(false) => {
                ctx.decline_rewind();
                end_game(ctx)
            }
            PlayReply::Item(action, ids, Some(i)) => match ids.get(i) {
                Some(&(id, in_use)) => self.do_item(ctx, action, id, in_use),
                None => Transition::Stay,
            },
            PlayReply::Inventory(all, Some(i)) => {
                let Some(e) = all.get(i).cloned() else {
                    return Transition::Stay;
                };
                let actions: Vec<ItemAction> = ItemAction::ALL
                    .iter()
                    .copied()
                    .filter(|a| a.fits(&e))
                    .collect();
                // The item's description first, then what can be done with it.
                let text = match (ctx.game(), e.ids.first()) {
                    (Some(game), Some(&id)) => match view::describe(game, id) {
                        Ok(d) => d.lines,
                        Err(err) => vec![format!("internal error: {err}")],
                    },
                    _ => Vec::new(),
                };
                let keys = actions
                    .iter()
                    .map(|a| (a.key(), a.label(&e).to_string()))
                    .collect();
                let menu = ActionMenu::new(format!("{} {}", e.glyph.ch, e.name), text, keys);
                Transition::ask(menu, move |i| PlayReply::InventoryAction(e, actions, i))
            }
            PlayReply::InventoryAction(e, actions, Some(i)) => {
                match (actions.get(i), e.ids.first()) {
                    (Some(&a), Some(&id)) => self.do_item(ctx, a, id, e.wielded),
                    _ => Transition::Stay,
                }
            }
            PlayReply::Throw(id, Some(l)) => Self::act(ctx, Command::Throw(id, l)),
            PlayReply::DropSome(id, Some(n)) => Self::act(
                ctx,
                Command::DropSome(id, u32::try_from(n).unwrap_or(u32::MAX)),
            ),
            PlayReply::Craft(names, Some(i)) => match names.get(i) {
                Some(p) => Self::act(ctx, Command::Craft(p.clone())),
                None => Transition::Stay,
            },
            PlayReply::PickUp(ids, Some(i)) => match ids.get(i) {
                Some(&id) => Self::act(ctx, Command::PickUp(Some(id))),
                None => Transition::Stay,
            },
            PlayReply::Door(Some(d)) => Self::door(ctx, d),
            PlayReply::Travel(Some(l)) => self.begin(ctx, Goal::Travel(l)),
            PlayReply::SavedQuit => Transition::Quit,
            PlayReply::Analyse(id, true) => Self::act(ctx, Command::Analyse(id)),
            PlayReply::Quit(true) => {
                // Quitting ends this run of the game: it gets a morgue and a score; the last
                // save, if any, stays as it was.
                ctx.finish_game(true);
                Transition::Quit
            }
            // Backed out.
            PlayReply::Item(_, _, None)
            | PlayReply::Inventory(_, None)
            | PlayReply::InventoryAction(_, _, None)
            | PlayReply::Throw(_, None)
            | PlayReply::DropSome(_, None)
            | PlayReply::Craft(_, None)
            | PlayReply::PickUp(_, None)
            | PlayReply::Door(None)
            | PlayReply::Travel(None)
            | PlayReply::Analyse(_, false)
            | PlayReply::Quit(false) => Transition::Stay,
        }
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.journey.is_some().then_some(STEP_DELAY)
    }

    fn tick(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(mut journey) = self.journey.take() else {
            return Transition::Stay;
        };
        self.go_on(ctx, &mut journey).unwrap_or_else(|| {
            self.journey = Some(journey);
            Transition::Stay
        })
    }

    fn on_quit(&mut self, ctx: &mut AlchemyCtx) {
        // The window is closing: keep the player's progress (unless the game is over).
        ctx.save_on_exit();
    }

    fn name(&self) -> &str {
        "alchemy-play"
    }
}

impl PlayScreen {
    /// Carry out a play action from the keymap: the game's own actions here, the rest
    /// (messages, help, tiles, saving, quitting…) in [`Self::perform_meta`].
    fn perform(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: Action,
        dir: Option<alembic::Dir>,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            Action::Run => match dir {
                Some(d) => self.begin(ctx, Goal::Run(d)),
                None => Transition::Stay,
            },
            Action::Move => match dir {
                Some(d) => Self::act(ctx, Command::Move(d)),
                None => Transition::Stay,
            },
            Action::Wait => Self::act(ctx, Command::Wait),
            Action::TravelTo => match LookScreen::travel(ctx) {
                Some(s) => Transition::ask(s, PlayReply::Travel),
                None => Transition::Stay,
            },
            Action::Fight => match super::travel::fight_step(ctx) {
                Ok(cmd) => Self::act(ctx, cmd),
                Err(why) => {
                    ctx.note(Tone::Note, why);
                    Transition::Stay
                }
            },
            Action::Stairs { down } if !on_stairs(ctx, down) => {
                self.begin(ctx, Goal::Stairs { down })
            }
            Action::Stairs { down: false } => Self::act(ctx, Command::Ascend),
            Action::Stairs { down: true } => Self::act(ctx, Command::Descend),
            Action::PickUp => self.pick_up(ctx),
            // First the lab, then the item: no list to choose from where nothing can be done.
            Action::Analyse if !at_lab(ctx) => {
                ctx.note(Tone::Note, NO_LAB);
                Transition::Stay
            }
            Action::Analyse => self.choose_item(ctx, ItemAction::Analyse),
            Action::Craft => self.craft(ctx),
            Action::Drop => self.choose_item(ctx, ItemAction::Drop),
            Action::Eat => self.choose_item(ctx, ItemAction::Eat),
            Action::Inventory => self.inventory(ctx),
            // `l` is east (vi keys), so look is `x` (as in Crawl) or `;` (as in NetHack).
            Action::Look => match LookScreen::look(ctx) {
                Some(s) => Transition::push(s),
                None => Transition::Stay,
            },
            Action::Explore => self.begin(ctx, Goal::Explore),
            Action::Door => Transition::ask(
                DirectionPrompt::new("Open or close a door: which way?"),
                PlayReply::Door,
            ),
            Action::Quaff => self.choose_item(ctx, ItemAction::Quaff),
            Action::Throw => self.choose_item(ctx, ItemAction::Throw),
            Action::Wield => self.choose_item(ctx, ItemAction::Wield),
            other => self.perform_meta(ctx, other),
        }
    }

    /// The actions about the session rather than the game world.
    fn perform_meta(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: Action,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            Action::Autopickup => {
                let on = ctx.toggle_autopickup();
                ctx.note(
                    Tone::Note,
                    if on {
                        "Explore picks up the items it sees (A to stop)."
                    } else {
                        "Explore leaves items where they lie (A to pick them up)."
                    },
                );
                Transition::Stay
            }
            Action::Messages => {
                let lines = ctx.log().iter().map(super::LogLine::shown).collect();
                Transition::push(MessageLogScreen::new("Messages", lines))
            }
            Action::Wizard => {
                if ctx.is_wizard() {
                    return Transition::push(super::wizard::WizardConsole::new());
                }
                ctx.note(
                    Tone::Note,
                    "Wizard mode is off: start a game with --wizard (it is never scored).",
                );
                Transition::Stay
            }
            Action::Undo => {
                ctx.undo();
                Transition::Stay
            }
            Action::Tiles => {
                match ctx.toggle_tiles() {
                    Some(true) => ctx.note(Tone::Note, "Tiles on (F2 for letters)."),
                    Some(false) => ctx.note(Tone::Note, "Letters on (F2 for tiles)."),
                    None => ctx.note(
                        Tone::Note,
                        "This frontend draws letters only; tiles need alembic-pixels.",
                    ),
                }
                Transition::Stay
            }
            Action::Help => Transition::push(TextScreen::new("Alchemy: help", help_lines(ctx))),
            // Saved: say where before the screen goes (the window's farewell may be unseen).
            Action::Save => match ctx.save_and_leave() {
                Ok(path) => Transition::ask(
                    MorePrompt::new(vec![
                        (
                            format!("Your game was saved to {}.", path.display()),
                            colours::VALUE,
                        ),
                        (
                            "Continue it from the start screen next time.".to_owned(),
                            PALETTE.text,
                        ),
                    ]),
                    |()| PlayReply::SavedQuit,
                ),
                Err(e) => {
                    ctx.note(Tone::Error, e.to_string());
                    Transition::Stay
                }
            },
            Action::Quit => {
                let prompt = if ctx.save_exists() || ctx.save_path().is_some_and(|p| p.is_file()) {
                    "Quit without saving? Your last save stays as it was. (S saves and quits.)"
                } else {
                    "Quit without saving? This game will be lost. (S saves and quits.)"
                };
                Transition::ask(Confirm::new(prompt), PlayReply::Quit)
            }
            _ => Transition::Stay,
        }
    }
}
