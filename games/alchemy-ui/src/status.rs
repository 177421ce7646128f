//! The play screen's words: the message lines on top, the side and bottom status, and the
//! whole screen drawn from the map and these.

use alembic::Rgb;
use alembic_ui::{Frame, Rect, fill, put_clipped, wrap_text};

use super::colours::{self, PALETTE};
use super::map::{Hints, Layout, Shown, blank, draw_map, health_colour, layout_with, map_view_in};
use alembic_alchemy::{
    self as alchemy,
    rules::items_at,
    view::{Apparatus, apparatus_at_hand, hero_id, status},
};

/// A status panel writer: one line after another, clipped to the panel.
pub(super) struct Lines<'a> {
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
pub(super) fn here_notes(game: &alembic::Game) -> Result<Vec<String>, alembic::Error> {
    let at = game.things().location(hero_id(game)?)?;
    let mut out = Vec::new();
    if let Some((name, hint)) = alchemy::view::scenery_here(game, at)? {
        out.push(format!("Here: {name}{hint}"));
    }
    let items = items_at(game, at);
    if !items.is_empty() {
        let list = alchemy::view::list_items(game, &items)?;
        out.push(format!("Here: {list} (g to pick up)"));
    }
    if apparatus_at_hand(game, at, Apparatus::Workbench) {
        out.push("A workbench is at hand (c to craft).".to_string());
    }
    if apparatus_at_hand(game, at, Apparatus::Lab) {
        out.push("An analysis lab is at hand (a to analyse).".to_string());
    }
    Ok(out)
}

/// Draw the status panel (side layout).
pub(super) fn draw_side_status(
    shown: &Shown<'_>,
    frame: &mut Frame,
    area: Rect,
) -> Result<(), alembic::Error> {
    let game = shown.game;
    let st = status(game)?;
    let here = here_notes(game)?;
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
    let next = st
        .xp_next
        .map_or_else(|| " (top)".to_owned(), |n| format!("/{n}"));
    w.line(&[
        ("Level ", l),
        (&st.level.to_string(), v),
        ("  XP ", l),
        (&format!("{}{next}", st.xp), v),
    ]);
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
    // The goal, in the panel's own count of depth (the help says the same).
    if st.has_stone {
        w.line(&[("You carry the Stone!", colours::HERO)]);
    } else {
        w.line(&[
            ("The Stone: ", l),
            (&format!("depth {}", st.stone_depth), v),
        ]);
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
    // Key hints pinned to the bottom, when they do not overwrite anything: the play keys,
    // or the viewer's during a replay (nothing there saves or quits the game).
    let play = [
        "? help  i inventory",
        "x look  m messages",
        "S save  Q quit",
    ];
    let watch = [
        "space play/pause",
        "\u{2190} \u{2192} step  +/- speed",
        "q leave the replay",
    ];
    let hints = match shown.hints {
        Hints::Play => &play[..],
        Hints::Watch => &watch[..],
        Hints::None => &[][..],
    };
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
pub(super) fn draw_bottom_status(
    shown: &Shown<'_>,
    frame: &mut Frame,
    area: Rect,
) -> Result<(), alembic::Error> {
    let game = shown.game;
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
            &format!(
                "L{} AC {} Spd {} T {}",
                st.level, st.armour, st.speed, st.turn
            ),
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

/// The play screen without its messages (the generic session draws its own above): the
/// map and the status, in `area`.
pub fn draw_play_board(shown: &Shown<'_>, frame: &mut Frame, area: Rect) {
    fill(frame, area, blank(PALETTE.bg));
    draw_board(shown, frame, &layout_with(area, 0));
}

/// The map and the status of `lay`.
fn draw_board(shown: &Shown<'_>, frame: &mut Frame, lay: &Layout) {
    let mut result = match map_view_in(shown, lay.map, frame.tiles()) {
        Some(v) => draw_map(shown, frame, &v),
        None => Ok(()),
    };
    if result.is_ok() {
        result = if lay.side {
            draw_side_status(shown, frame, lay.status)
        } else {
            draw_bottom_status(shown, frame, lay.status)
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
