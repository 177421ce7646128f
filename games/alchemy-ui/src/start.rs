//! The start screen (new game, new game from a seed, continue, help, quit) and the seed
//! prompt.

use std::convert::Infallible;

use alembic::Rgb;
use alembic_ui::{
    Cell, Frame, Input, Key, LineEvent, LineInput, Rect, Screen, TextScreen, Transition, draw_box,
    fill, is_cancel, plain_key, put_centred, put_clipped,
};

use super::colours::{self, PALETTE};
use super::play::{PlayScreen, help_lines};
use super::{AlchemyCtx, seed_from_text};

/// A flask, for the title.
const ART: [&str; 7] = [
    "   ___   ",
    "   | |   ",
    "   | |   ",
    "  /   \\  ",
    " / ~~~ \\ ",
    "( ~ ~ ~ )",
    " `-----' ",
];

/// The score table, or none when it cannot be read (the `h` screen says why).
fn read_scores(ctx: &AlchemyCtx) -> Vec<super::morgue::Score> {
    ctx.data_dir()
        .and_then(|d| super::morgue::read_scores(d).ok())
        .unwrap_or_default()
}

/// A seed from the clock, for "new game".
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 ^ d.as_secs().rotate_left(32))
        .unwrap_or(0x5EED)
}

/// The start screen, at the bottom of the stack: games are played on top of it and come
/// back to it when they end.
#[derive(Debug)]
pub struct StartScreen {
    save_exists: bool,
    note: Option<(String, Rgb)>,
    /// The score table as last read (refreshed whenever a screen above closes).
    scores: Vec<super::morgue::Score>,
}

impl StartScreen {
    /// The start screen for `ctx` (looks whether a saved game waits).
    #[must_use]
    pub fn new(ctx: &AlchemyCtx) -> Self {
        StartScreen {
            save_exists: ctx.save_exists(),
            note: None,
            scores: read_scores(ctx),
        }
    }

    /// The start screen asking whether to replace the saved game with a new one from `seed`
    /// (a new game asked for on the command line while a save exists), and the question to
    /// push over it.
    #[must_use]
    pub fn asking(ctx: &AlchemyCtx, seed: u64) -> (Self, Transition<AlchemyCtx, Self>) {
        let screen = StartScreen::new(ctx);
        (screen, Self::replace_question(Some(seed.to_string())))
    }

    /// Ask whether to replace the saved game with a new one from `seed` (`None`: a random
    /// seed); the answer comes back with the seed.
    fn replace_question(seed: Option<String>) -> Transition<AlchemyCtx, Self> {
        let question = alembic_ui::Confirm::new(alembic_session::slot::REPLACE_QUESTION);
        Transition::ask(question, |yes| StartReply::Replace(seed, yes))
    }

    /// Play the context's game over this screen, which hears when it ends.
    #[must_use]
    pub fn play() -> Transition<AlchemyCtx, Self> {
        Transition::ask(PlayScreen::new(), |()| StartReply::GameOver)
    }

    fn play_new(&mut self, ctx: &mut AlchemyCtx, seed: u64) -> Transition<AlchemyCtx, Self> {
        match ctx.new_game(seed) {
            Ok(()) => {
                self.note = None;
                Self::play()
            }
            Err(e) => {
                self.note = Some((e.to_string(), colours::ERROR));
                Transition::Stay
            }
        }
    }

    /// A new game; when a saved game exists, ask first (saving the new one replaces it).
    fn ask_new(
        &mut self,
        ctx: &mut AlchemyCtx,
        seed: Option<String>,
    ) -> Transition<AlchemyCtx, Self> {
        if ctx.save_exists() {
            return Self::replace_question(seed);
        }
        let seed = seed.map_or_else(clock_seed, |t| seed_from_text(&t));
        self.play_new(ctx, seed)
    }

    fn continue_game(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        self.save_exists = ctx.save_exists();
        let Some(path) = ctx.default_save().map(std::path::Path::to_path_buf) else {
            self.note = Some((
                "There is no save directory (set HOME or XDG_DATA_HOME).".into(),
                colours::NOTE,
            ));
            return Transition::Stay;
        };
        if !self.save_exists {
            self.note = Some(("There is no saved game.".into(), colours::NOTE));
            return Transition::Stay;
        }
        match ctx.load_game(&path) {
            Ok(()) => {
                self.note = None;
                Self::play()
            }
            Err(e) => {
                self.note = Some((format!("Cannot continue: {e}"), colours::ERROR));
                Transition::Stay
            }
        }
    }
}

/// What the start screen hears back from the screens it opens.
#[derive(Debug)]
pub enum StartReply {
    /// The seed typed on the seed prompt (`None`: cancelled).
    Seed(Option<String>),
    /// The answer to "replace the saved game?", with the seed the new game would have
    /// (`None`: a random one).
    Replace(Option<String>, bool),
    /// The game or the replay over the menu ended.
    GameOver,
}

impl StartScreen {
    /// The menu: key, text, and whether it can be chosen now.
    fn menu(&self) -> Vec<(&'static str, String, bool)> {
        vec![
            ("n", "New game".to_string(), true),
            (
                "p",
                "New practice game (U takes moves back; never scored)".to_string(),
                true,
            ),
            ("s", "New game from a seed".to_string(), true),
            (
                "c",
                if self.save_exists {
                    "Continue the saved game".to_string()
                } else {
                    "Continue (no saved game)".to_string()
                },
                self.save_exists,
            ),
            ("h", "High scores".to_string(), true),
            ("?", "Help: keys and how to play".to_string(), true),
            ("q", "Quit".to_string(), true),
        ]
    }
}

impl Screen<AlchemyCtx> for StartScreen {
    type Output = ();
    type Reply = StartReply;

    fn render(&mut self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        fill(frame, area, Cell::blank(PALETTE.text, PALETTE.bg));
        let menu = self.menu();
        // Roomy: art and double spacing; a 25-row window: art, single spacing; less: no art.
        // The score table (heading, column line, at least three games) takes the room it
        // needs first: the art goes before the table does.
        let table_want = if self.scores.is_empty() {
            0
        } else {
            2 + self.scores.len().min(3) as u16
        };
        let menu_h = |art_h: u16, gap: u16| art_h + 4 + menu.len() as u16 * gap + 2;
        let fits = |art_h: u16, gap: u16| menu_h(art_h, gap) + table_want < area.height;
        let art = ART.len() as u16;
        let (art_h, gap) = [(art, 2), (art, 1), (0, 1)]
            .into_iter()
            .find(|&(a, g)| fits(a, g))
            .unwrap_or((0, 1));
        let block_h = menu_h(art_h, gap);
        let table_room = area.height.saturating_sub(block_h + 1);
        let table_rows = if self.scores.is_empty() || table_room < 3 {
            0
        } else {
            (2 + self.scores.len() as u16).min(table_room)
        };
        let block_h = block_h + table_rows;
        let mut y = area.y + area.height.saturating_sub(block_h) / 2;
        y = draw_art(frame, area, y, art_h);
        if art_h > 0 {
            y += 1;
        }
        put_centred(
            frame,
            area,
            y,
            "A  L  C  H  E  M  Y",
            colours::HERO,
            PALETTE.bg,
        );
        put_centred(
            frame,
            area,
            y + 1,
            "Fetch the Philosopher's Stone from depth 10 and climb back out alive.",
            PALETTE.dim,
            PALETTE.bg,
        );
        y += 3;
        let widest = menu
            .iter()
            .map(|(_, t, _)| t.chars().count() + 4)
            .max()
            .unwrap_or(20) as u16;
        let x = area.x + area.width.saturating_sub(widest) / 2;
        for (key, text, enabled) in &menu {
            let (kf, tf) = if *enabled {
                (PALETTE.accent, PALETTE.text)
            } else {
                (PALETTE.dim, PALETTE.dim)
            };
            put_clipped(frame, area, x, y, &format!("{key})"), kf, PALETTE.bg);
            put_clipped(frame, area, x + 4, y, text, tf, PALETTE.bg);
            y += gap;
        }
        if let Some((note, fg)) = &self.note {
            put_centred(frame, area, y, note, *fg, PALETTE.bg);
        }
        if table_rows > 0 {
            draw_scores(frame, area, y, table_rows, &self.scores);
        }
        let footer = match ctx.default_save() {
            Some(p) => format!("Saves go to {}", p.display()),
            None => "No save directory: set HOME or XDG_DATA_HOME to save games.".to_string(),
        };
        put_centred(
            frame,
            area,
            area.bottom().saturating_sub(1),
            &footer,
            PALETTE.dim.scale(0.8),
            PALETTE.bg,
        );
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        match plain_key(&input) {
            Some(Key::Char('n')) => {
                ctx.set_practice(ctx.practice_by_default());
                self.ask_new(ctx, None)
            }
            Some(Key::Char('p')) => {
                ctx.set_practice(true);
                self.ask_new(ctx, None)
            }
            Some(Key::Char('h')) => {
                let lines = match ctx.data_dir().map(super::morgue::read_scores) {
                    Some(Ok(scores)) => super::morgue::score_lines(&scores),
                    Some(Err(e)) => vec![format!("The score table cannot be read: {e}")],
                    None => vec!["There is no data directory (set HOME or XDG_DATA_HOME).".into()],
                };
                Transition::push(TextScreen::new("Alchemy: high scores", lines))
            }
            Some(Key::Char('s')) => Transition::ask(SeedPrompt::default(), StartReply::Seed),
            Some(Key::Char('c')) => self.continue_game(ctx),
            Some(Key::Enter) => {
                if ctx.save_exists() {
                    self.continue_game(ctx)
                } else {
                    self.ask_new(ctx, None)
                }
            }
            Some(Key::Char('?') | Key::F(1)) => {
                Transition::push(TextScreen::new("Alchemy: help", help_lines(ctx)))
            }
            Some(Key::Char('q' | 'Q') | Key::Esc) => Transition::Quit,
            Some(Key::Char(c)) if !c.is_control() => {
                self.note = Some((
                    format!("Unknown key '{c}': press n, p, s, c, h, ? or q."),
                    colours::NOTE,
                ));
                Transition::Stay
            }
            _ => Transition::Stay,
        }
    }

    fn on_result(
        &mut self,
        ctx: &mut AlchemyCtx,
        reply: StartReply,
    ) -> Transition<AlchemyCtx, Self> {
        match reply {
            StartReply::Seed(Some(t)) => self.ask_new(ctx, Some(t)),
            StartReply::Replace(seed, true) => {
                let seed = seed.map_or_else(clock_seed, |t| seed_from_text(&t));
                self.play_new(ctx, seed)
            }
            StartReply::GameOver => {
                // A game ended (the end screen closed) or a replay closed: back to the menu.
                if ctx.game().is_some() {
                    ctx.close_game();
                }
                self.save_exists = ctx.save_exists();
                self.scores = read_scores(ctx);
                Transition::Stay
            }
            StartReply::Seed(None) | StartReply::Replace(_, false) => {
                self.save_exists = ctx.save_exists();
                self.scores = read_scores(ctx);
                Transition::Stay
            }
        }
    }

    fn name(&self) -> &str {
        "alchemy-start"
    }
}

/// Type a seed: digits (or any word, which is hashed). Pops `Some(text)` on Enter, `None`
/// on Esc.
#[derive(Debug)]
pub struct SeedPrompt {
    text: LineInput,
}

impl Default for SeedPrompt {
    fn default() -> Self {
        SeedPrompt {
            text: LineInput::new(30),
        }
    }
}

impl Screen<AlchemyCtx> for SeedPrompt {
    type Output = Option<String>;
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let inside = draw_box(
            frame,
            area.centred(44, 6),
            &PALETTE,
            Some("New game from a seed"),
        );
        if inside.is_empty() {
            return;
        }
        put_clipped(
            frame,
            inside,
            inside.x + 1,
            inside.y,
            "Seed (a number or any word):",
            PALETTE.text,
            PALETTE.bg,
        );
        let shown = format!("> {}_", self.text.text());
        put_clipped(
            frame,
            inside,
            inside.x + 1,
            inside.y + 1,
            &shown,
            PALETTE.accent,
            PALETTE.bg,
        );
        put_centred(
            frame,
            inside,
            inside.y + 3,
            "Enter start   Esc cancel",
            PALETTE.dim,
            PALETTE.bg,
        );
    }

    fn handle(&mut self, _ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        if is_cancel(&input) {
            return Transition::Pop(None);
        }
        match self.text.handle(&input) {
            LineEvent::Enter if !self.text.text().trim().is_empty() => {
                Transition::Pop(Some(self.text.take()))
            }
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "seed-prompt"
    }
}

/// Draw the first `art_h` lines of the title art from row `y`, the liquid coloured;
/// returns the row after it.
fn draw_art(frame: &mut Frame, area: Rect, mut y: u16, art_h: u16) -> u16 {
    let glass = Rgb::new(150, 170, 190);
    let potion = Rgb::new(170, 110, 255);
    for line in ART.iter().take(usize::from(art_h)) {
        let x0 = put_centred(frame, area, y, line, glass, PALETTE.bg);
        // Colour the liquid.
        for (i, ch) in line.chars().enumerate() {
            if ch == '~' {
                frame.put(
                    i32::from(x0) + i as i32,
                    i32::from(y),
                    Cell {
                        ch,
                        fg: potion,
                        bg: PALETTE.bg,
                    },
                );
            }
        }
        y += 1;
    }
    y
}

/// Draw the score table in `table_rows` rows (its heading included) below row `y`.
fn draw_scores(
    frame: &mut Frame,
    area: Rect,
    mut y: u16,
    table_rows: u16,
    scores: &[super::morgue::Score],
) {
    let lines = super::morgue::score_table_lines(scores);
    let shown = usize::from(table_rows - 1);
    let heading = if lines.len() - 1 > shown {
        format!(
            "High scores (top {} of {}; h shows all)",
            shown - 1,
            lines.len() - 1
        )
    } else {
        "High scores".to_string()
    };
    y += 1;
    put_centred(frame, area, y, &heading, PALETTE.accent, PALETTE.bg);
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
    let x = area.x + area.width.saturating_sub(width) / 2;
    for (i, line) in lines.iter().take(shown).enumerate() {
        let fg = if i == 0 { PALETTE.dim } else { PALETTE.text };
        put_clipped(frame, area, x, y + 1 + i as u16, line, fg, PALETTE.bg);
    }
}
