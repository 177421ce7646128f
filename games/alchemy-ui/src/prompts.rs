//! The smaller Alchemy screens: the item action menu, the direction prompt, the look and
//! target cursor, and the end-of-game summary.

use std::convert::Infallible;

use alembic::{Dir, Loc, Rgb};
use alembic_ui::{
    CursorEvent, Frame, Input, Key, LineEvent, LineInput, Rect, Screen, StatefulWidget,
    TargetCursor, TargetState, TextScreen, Transition, direction_key, draw_box, is_cancel,
    plain_key, put_centred, put_clipped, wrap_text,
};

use super::colours::{self, PALETTE};
use super::map::map_view;
use super::{AlchemyCtx, Tone};
use alembic_alchemy::{
    self as alchemy,
    rules::level_box,
    view::{
        Stairs, THROW_RANGE, capitalise, describe, hero_id, is_creature, is_hero, is_hostile,
        look_at, visible,
    },
};

// ---------------------------------------------------------------------------------------------
// Action menu

/// A small box: a description, then actions chosen by their own key letter ("q) quaff").
/// Pops `Some(index)` of the action, or `None` on Esc.
#[derive(Clone, Debug)]
pub struct ActionMenu {
    title: String,
    text: Vec<String>,
    /// (key, label)
    actions: Vec<(char, String)>,
}

impl ActionMenu {
    /// A menu titled `title` explaining `text` and offering `actions` as (key, label).
    #[must_use]
    pub fn new(title: impl Into<String>, text: Vec<String>, actions: Vec<(char, String)>) -> Self {
        ActionMenu {
            title: title.into(),
            text,
            actions,
        }
    }
}

impl Screen<AlchemyCtx> for ActionMenu {
    type Output = Option<usize>;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let inner_w = 56.min(usize::from(area.width.saturating_sub(4))).max(1);
        let mut lines: Vec<(String, Rgb)> = Vec::new();
        for t in &self.text {
            for l in wrap_text(t, inner_w) {
                lines.push((l, PALETTE.text));
            }
        }
        lines.push((String::new(), PALETTE.text));
        for (k, label) in &self.actions {
            lines.push((format!("{k}) {label}"), PALETTE.accent));
        }
        lines.push((String::new(), PALETTE.text));
        lines.push(("Esc cancel".to_string(), PALETTE.dim));
        let w = lines
            .iter()
            .map(|(l, _)| l.chars().count())
            .chain([self.title.chars().count() + 4])
            .max()
            .unwrap_or(10)
            + 4;
        let h = lines.len() + 2;
        let inside = draw_box(
            frame,
            area.centred(w as u16, h as u16),
            &PALETTE,
            Some(&self.title),
        );
        put_lines(frame, inside, &lines);
    }

    fn handle(&mut self, _ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        if is_cancel(&input) {
            return Transition::Pop(None);
        }
        if let Some(Key::Char(c)) = plain_key(&input)
            && let Some(i) = self.actions.iter().position(|(k, _)| *k == c)
        {
            return Transition::Pop(Some(i));
        }
        Transition::Stay
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "action-menu"
    }
}

// ---------------------------------------------------------------------------------------------
// --More--

/// A pause, as in DCSS: a few lines and `--More--` in a box over the screen; any key pops.
#[derive(Clone, Debug)]
pub struct MorePrompt {
    lines: Vec<(String, Rgb)>,
}

impl MorePrompt {
    /// Show `lines` (each in its colour) above `--More--`.
    #[must_use]
    pub fn new(lines: Vec<(String, Rgb)>) -> Self {
        MorePrompt { lines }
    }
}

impl Screen<AlchemyCtx> for MorePrompt {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let inner_w = 60.min(usize::from(area.width.saturating_sub(4))).max(1);
        let mut lines: Vec<(String, Rgb)> = Vec::new();
        for (t, fg) in &self.lines {
            for l in wrap_text(t, inner_w) {
                lines.push((l, *fg));
            }
        }
        lines.push(("--More-- (any key)".to_owned(), PALETTE.accent));
        let w = lines
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(10)
            + 4;
        let h = lines.len() + 2;
        let inside = draw_box(frame, area.centred(w as u16, h as u16), &PALETTE, None);
        put_lines(frame, inside, &lines);
    }

    fn handle(&mut self, _ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        match input {
            Input::Key { .. }
            | Input::Mouse {
                kind: alembic_ui::MouseKind::Down(_),
                ..
            } => Transition::Pop(()),
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "more"
    }
}

// ---------------------------------------------------------------------------------------------
// Direction prompt

/// "Which way?": pops `Some(direction)` for a direction key, `None` for Esc; other keys are
/// ignored.
#[derive(Clone, Debug)]
pub struct DirectionPrompt {
    prompt: String,
}

impl DirectionPrompt {
    /// Ask `prompt`.
    #[must_use]
    pub fn new(prompt: impl Into<String>) -> Self {
        DirectionPrompt {
            prompt: prompt.into(),
        }
    }
}

impl Screen<AlchemyCtx> for DirectionPrompt {
    type Output = Option<Dir>;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let hint = "h j k l y u b n, arrows or numpad; Esc cancels";
        let w = self.prompt.chars().count().max(hint.chars().count()) + 4;
        let inside = draw_box(frame, area.centred(w as u16, 4), &PALETTE, None);
        put_centred(
            frame,
            inside,
            inside.y,
            &self.prompt,
            PALETTE.accent,
            PALETTE.bg,
        );
        put_centred(frame, inside, inside.y + 1, hint, PALETTE.dim, PALETTE.bg);
    }

    fn handle(&mut self, _ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        if is_cancel(&input) {
            return Transition::Pop(None);
        }
        match direction_key(&input) {
            Some(d) => Transition::Pop(Some(d)),
            None => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "direction"
    }
}

/// "How many?" for part of a stack: digits type a number (1 up to the stack's size), Enter
/// takes it (all of them when nothing was typed), Backspace takes a digit back, Esc cancels.
/// Pops `Some(count)`, or `None` when cancelled.
#[derive(Clone, Debug)]
pub struct CountPrompt {
    prompt: String,
    max: u32,
    typed: LineInput,
}

impl CountPrompt {
    /// Ask `prompt` for a count from 1 to `max`.
    #[must_use]
    pub fn new(prompt: impl Into<String>, max: u32) -> Self {
        CountPrompt {
            prompt: prompt.into(),
            max: max.max(1),
            typed: LineInput::digits(6),
        }
    }

    /// The count Enter would take now: what was typed (capped at the stack), else all.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.typed
            .text()
            .parse::<u32>()
            .map_or(self.max, |n| n.clamp(1, self.max))
    }
}

impl Screen<AlchemyCtx> for CountPrompt {
    type Output = Option<usize>;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let line = format!("{} (1-{}): {}_", self.prompt, self.max, self.typed.text());
        let hint = "digits, then Enter (Enter alone: all); Esc cancels";
        let w = line.chars().count().max(hint.chars().count()) + 4;
        let inside = draw_box(frame, area.centred(w as u16, 4), &PALETTE, None);
        put_centred(frame, inside, inside.y, &line, PALETTE.accent, PALETTE.bg);
        put_centred(frame, inside, inside.y + 1, hint, PALETTE.dim, PALETTE.bg);
    }

    fn handle(&mut self, _ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        if is_cancel(&input) {
            return Transition::Pop(None);
        }
        match self.typed.handle(&input) {
            LineEvent::Enter => Transition::Pop(Some(self.count() as usize)),
            LineEvent::Edited | LineEvent::Ignored => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "count"
    }
}

// ---------------------------------------------------------------------------------------------
// Look and target cursor

/// Look around, pick a throw target, or pick where to travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Look,
    Target,
    Travel,
}

/// A cursor over the map describing what is under it (the toolkit's [`TargetState`] and
/// [`TargetCursor`]). In target mode it starts on the nearest visible monster, shows the
/// throw's path, and pops `Some(place)` on Enter, `t` or `.`; in look mode Enter or Esc
/// closes it (`None`).
#[derive(Clone, Debug)]
pub struct LookScreen {
    mode: Mode,
    hero: Loc,
    /// The cursor; its marks are the interesting visible places (creatures first, then the
    /// rest), nearest first.
    target: TargetState,
}

impl LookScreen {
    fn open(ctx: &mut AlchemyCtx, mode: Mode) -> Option<Self> {
        let game = ctx.game()?;
        let hero_thing = hero_id(game).ok()?;
        let hero = game.things().location(hero_thing).ok()?;
        let seen = visible(game).ok()?;
        // Ranks: what each mode is most likely after comes first (foes to look at and throw
        // at; places to go to when travelling).
        let travel = mode == Mode::Travel;
        let mut marks: Vec<(u8, u64, Loc)> = seen
            .iter()
            .filter(|&l| l != hero)
            .filter_map(|l| {
                let mut things = game.things().at(l).to_vec();
                // A creature hidden by darkness is no mark.
                if alchemy::view::hidden_in_dark(game, l) {
                    things.retain(|&t| !is_creature(game, t));
                }
                if things.is_empty() {
                    return None;
                }
                let foe = things
                    .iter()
                    .any(|&t| is_creature(game, t) && is_hostile(game, t));
                let creature = things.iter().any(|&t| is_creature(game, t));
                let rank = match (travel, foe, creature) {
                    (false, true, _) => 0,
                    (false, false, true) => 1,
                    (false, false, false) | (true, _, false) => 2,
                    (true, _, true) => 4,
                };
                Some((rank, hero.euclidean_sq(l), l))
            })
            .collect();
        // The features remembered out of sight: stairs, doors, workbenches, labs, fountains.
        marks.extend(
            level_box(hero.z)
                .iter()
                .filter(|&l| !seen.contains(l) && alchemy::rules::explored(game, l))
                .filter(|&l| alchemy::view::remembered_thing(game, l).is_some())
                .map(|l| (3, hero.euclidean_sq(l), l)),
        );
        marks.sort_by_key(|&(r, d, l)| (r, d, l.y, l.x));
        let marks: Vec<Loc> = marks.into_iter().map(|(_, _, l)| l).collect();
        let start = match mode {
            Mode::Target => marks
                .iter()
                .copied()
                .find(|&l| hero.chebyshev(l) <= THROW_RANGE)
                .unwrap_or(hero),
            Mode::Look | Mode::Travel => hero,
        };
        let mut target = TargetState::new(start, level_box(hero.z)).with_marks(marks);
        if mode == Mode::Target {
            target = target.with_line_from(hero);
        }
        let s = LookScreen { mode, hero, target };
        s.sync(ctx);
        Some(s)
    }

    /// A look cursor at the hero (sets the context's cursor). `None` without a game.
    pub fn look(ctx: &mut AlchemyCtx) -> Option<Self> {
        Self::open(ctx, Mode::Look)
    }

    /// A target cursor at the nearest monster in range (or the hero).
    pub fn target(ctx: &mut AlchemyCtx) -> Option<Self> {
        Self::open(ctx, Mode::Target)
    }

    /// A travel cursor at the hero (`G`, as in DCSS): Enter or `.` picks the place, `<` and
    /// `>` jump to the nearest known stairs. Pops `Some(place)`.
    pub fn travel(ctx: &mut AlchemyCtx) -> Option<Self> {
        Self::open(ctx, Mode::Travel)
    }

    /// The nearest cell the hero knows of that holds stairs down (or up).
    fn known_stairs(&self, ctx: &AlchemyCtx, down: bool) -> Option<Loc> {
        let game = ctx.game()?;
        level_box(self.hero.z)
            .iter()
            .filter(|&l| alchemy::view::known_stairs_at(game, l, Stairs::down(down)))
            .min_by_key(|&l| (self.hero.chebyshev(l), l.y, l.x))
    }

    /// Show the cursor and the throw's path (the map view follows the cursor).
    fn sync(&self, ctx: &mut AlchemyCtx) {
        ctx.cursor = Some(self.target.cursor());
        ctx.path = self.target.line();
    }

    fn set_cursor(&mut self, ctx: &mut AlchemyCtx, l: Loc) {
        self.target.set_cursor(l);
        self.sync(ctx);
    }

    /// Where a throw from the hero at `target` would stop short: the first wall, closed door
    /// or blocking thing on the way (`None`: the path is clear).
    fn blocked_at(ctx: &AlchemyCtx, target: Loc) -> Option<Loc> {
        let game = ctx.game()?;
        ctx.path
            .iter()
            .copied()
            .take_while(|&l| l != target)
            .find(|&l| alchemy::view::stops_throw(game, l))
    }

    fn close(ctx: &mut AlchemyCtx, value: Option<Loc>) -> Transition<AlchemyCtx, Self> {
        ctx.cursor = None;
        ctx.path.clear();
        Transition::Pop(value)
    }

    fn describe(&self, ctx: &AlchemyCtx, at: Loc) -> Vec<(String, Rgb)> {
        let Some(game) = ctx.game() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match look_at(game, at) {
            Ok(info) => {
                let fg = if info.visible {
                    PALETTE.text
                } else {
                    PALETTE.dim
                };
                out.push((info.text, fg));
                // The full description of the thing on top (the hero aside).
                if let Some(&t) = info.things.iter().find(|&&t| !is_hero(game, t)) {
                    match describe(game, t) {
                        Ok(d) => out.extend(d.lines.into_iter().map(|l| (l, colours::VALUE))),
                        Err(e) => out.push((format!("internal error: {e}"), colours::ERROR)),
                    }
                }
            }
            Err(e) => out.push((format!("internal error: {e}"), colours::ERROR)),
        }
        let hint = match self.mode {
            Mode::Look => {
                "Move: direction keys (HJKL... by 8). Tab/+ next, - previous: monsters, items, then the features you remember. v or Enter: describe everything here. Esc closes."
            }
            Mode::Target => {
                "Throw at: Enter, t or .   Move: direction keys, Tab/+ next, - previous (monsters first).   Esc cancels."
            }
            Mode::Travel => {
                "Travel here: Enter or .   < > the nearest known stairs.   Tab/+ next, - previous: items and remembered features (stairs, doors, workbench, lab, fountain).   Move: direction keys (HJKL... by 8).   Esc cancels."
            }
        };
        if self.mode == Mode::Target {
            let d = self.hero.chebyshev(at);
            if at == self.hero {
                out.push((
                    "Pick a target: you cannot throw at yourself.".into(),
                    colours::NOTE,
                ));
            } else if d > THROW_RANGE {
                out.push((
                    format!("Too far: {} (you can throw {THROW_RANGE}).", steps(d)),
                    colours::BAD,
                ));
            } else if Self::blocked_at(ctx, at).is_some() {
                out.push((
                    format!(
                        "{} away, but something is in the way: the throw stops short.",
                        steps(d)
                    ),
                    colours::NOTE,
                ));
            } else {
                out.push((format!("{} away, in range.", steps(d)), colours::GOOD));
            }
        }
        out.push((hint.to_string(), PALETTE.dim));
        out
    }
}

impl LookScreen {
    /// A page describing every thing seen at `at` (the hero aside); `None` when there is
    /// nothing to describe.
    fn details(ctx: &AlchemyCtx, at: Loc) -> Option<TextScreen> {
        let game = ctx.game()?;
        let info = look_at(game, at).ok()?;
        let mut lines: Vec<String> = Vec::new();
        let mut title = None;
        for &t in info.things.iter().filter(|&&t| !is_hero(game, t)) {
            let d = describe(game, t).ok()?;
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(capitalise(&d.title));
            lines.extend(d.lines.into_iter().map(|l| format!("  {l}")));
            title.get_or_insert(d.title);
        }
        let title = capitalise(&title?);
        Some(TextScreen::new(title, lines))
    }
}

fn steps(n: u32) -> String {
    if n == 1 {
        "1 step".to_string()
    } else {
        format!("{n} steps")
    }
}

impl Screen<AlchemyCtx> for LookScreen {
    type Output = Option<Loc>;
    type Reply = Infallible;

    fn render(&mut self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let view = ctx
            .shown()
            .and_then(|shown| map_view(&shown, area, frame.tiles()));
        let (Some(view), Some(cursor)) = (view, ctx.cursor()) else {
            return;
        };
        // The path up to where the throw stops, then beyond it in a dimmer colour.
        let to_screen = |l| view.screen_of(l);
        let highlight = TargetCursor {
            to_screen: &to_screen,
            cell_width: view.cell_w,
            stop: Self::blocked_at(ctx, cursor),
            cursor_bg: colours::CURSOR_BG,
            line_bg: colours::PATH_BG,
            beyond_bg: colours::PATH_BLOCKED_BG,
        };
        highlight.render(frame, view.rect, &mut self.target);
        let cursor_y = view.screen_of(cursor).map(|(_, y)| y);
        // The description in a box along the map's bottom (its top, if the cursor is there).
        let map = view.rect;
        let width = usize::from(map.width.saturating_sub(4)).max(1);
        let lines: Vec<(String, Rgb)> = self
            .describe(ctx, cursor)
            .into_iter()
            .flat_map(|(t, fg)| wrap_text(&t, width).into_iter().map(move |l| (l, fg)))
            .collect();
        let h = (lines.len() as u16 + 2).min(map.height);
        let bottom = Rect::new(map.x, map.bottom().saturating_sub(h), map.width, h);
        let top = Rect::new(map.x, map.y, map.width, h);
        let boxed = match cursor_y {
            Some(y) if y >= i32::from(bottom.y) => top,
            _ => bottom,
        };
        let title = match self.mode {
            Mode::Look => "Look",
            Mode::Target => "Throw at",
            Mode::Travel => "Travel to",
        };
        let inside = draw_box(frame, boxed, &PALETTE, Some(title));
        put_lines(frame, inside, &lines);
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        let Some(cursor) = ctx.cursor() else {
            return Self::close(ctx, None);
        };
        match (self.mode, self.target.handle(&input)) {
            (_, CursorEvent::Moved) => {
                self.sync(ctx);
                Transition::Stay
            }
            (_, CursorEvent::NoMarks) => {
                ctx.note(Tone::Note, "Nothing of interest in sight.");
                Transition::Stay
            }
            (_, CursorEvent::Cancelled) => Self::close(ctx, None),
            (_, CursorEvent::Ignored) => Transition::Stay,
            (Mode::Target | Mode::Travel, CursorEvent::Picked(l)) => Self::close(ctx, Some(l)),
            (Mode::Target, CursorEvent::Other(Key::Char('t'))) => Self::close(ctx, Some(cursor)),
            (Mode::Travel, CursorEvent::Other(Key::Char(c @ ('<' | '>')))) => {
                match self.known_stairs(ctx, c == '>') {
                    Some(l) => self.set_cursor(ctx, l),
                    None => ctx.note(Tone::Note, "You know of no such stairs on this level."),
                }
                Transition::Stay
            }
            // Enter (not `.`) or `v` describes everything here.
            (Mode::Look, CursorEvent::Picked(_) | CursorEvent::Other(Key::Char('v'))) => {
                let enter = plain_key(&input) == Some(Key::Enter);
                if !enter && plain_key(&input) != Some(Key::Char('v')) {
                    return Transition::Stay;
                }
                match Self::details(ctx, cursor) {
                    Some(screen) => Transition::push(screen),
                    None if enter => Self::close(ctx, None),
                    None => Transition::Stay,
                }
            }
            (Mode::Look, CursorEvent::Other(Key::Char('x' | ';' | 'q' | ' '))) => {
                Self::close(ctx, None)
            }
            (_, CursorEvent::Other(_)) => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        match self.mode {
            Mode::Look => "look",
            Mode::Target => "target",
            Mode::Travel => "travel",
        }
    }
}

/// Coloured lines inside a box, one per row from its top, indented by one cell and clipped.
fn put_lines(frame: &mut Frame, inside: Rect, lines: &[(String, Rgb)]) {
    for (i, (l, fg)) in lines.iter().enumerate() {
        put_clipped(
            frame,
            inside,
            inside.x + 1,
            inside.y + i as u16,
            l,
            *fg,
            PALETTE.bg,
        );
    }
}
