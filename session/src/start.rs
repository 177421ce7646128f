//! The start screen every game gets: new game, new practice game, new game from a seed,
//! continue the saved game, the score table (the best games inline, all of them on `h`),
//! help and quit, and the seed prompt.
//!
//! It runs over any screen context that is a [`StartHost`]: the session's
//! [`Session`](crate::play::Session), and a game's own screens (Alchemy's). It sits at the
//! bottom of the stack: games are played on top of it and come back to it when they end.
//! `Enter` and `Space` continue the saved game when one waits, else begin a new one, so a
//! player who just presses a key is playing.

use std::convert::Infallible;
use std::path::Path;

use alembic::Rgb;
use alembic_ui::{
    Cell, Confirm, Frame, Input, Key, LineEvent, LineInput, Palette, Rect, Screen, TextScreen,
    Transition, draw_box, fill, is_cancel, plain_key, put_centred, put_clipped,
};

use crate::scores::{self, Score};
use crate::seed_from_text;
use crate::slot::REPLACE_QUESTION;

/// The heading of a start screen.
#[derive(Clone, Debug)]
pub struct Heading {
    /// The game's name in screen titles ("Alchemy: help").
    pub name: &'static str,
    /// The game's title ("A  L  C  H  E  M  Y").
    pub title: &'static str,
    /// The lines under it: what the game is about.
    pub lines: &'static [&'static str],
    /// A picture above the title, drawn when there is room (may be empty).
    pub art: &'static [&'static str],
    /// The title's colour.
    pub title_colour: Rgb,
    /// The picture's colour, and a character of it drawn in a second colour (a flask's
    /// liquid).
    pub art_colours: (Rgb, Option<(char, Rgb)>),
}

/// Why a new game could not be started ([`StartHost::new_game`]): its `Display` is the
/// sentence the start screen shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NewGameError(pub String);

/// Why the saved game could not be continued ([`StartHost::continue_game`]): its `Display`
/// is the sentence the start screen shows after "Cannot continue: " (unreadable, another
/// game's, open elsewhere, or ended before it was saved).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ContinueError(pub String);

/// What the start screen needs of the screens it opens over.
pub trait StartHost: Sized + 'static {
    /// The heading.
    fn heading(&self) -> Heading;
    /// The colours.
    fn palette(&self) -> Palette {
        Palette::DEFAULT
    }
    /// Where saves go (the footer says so), if anywhere.
    fn save_place(&self) -> Option<&Path>;
    /// Whether a saved game waits there.
    fn save_exists(&self) -> bool {
        self.save_place().is_some_and(Path::is_file)
    }
    /// The score table's file name in the save's directory.
    fn scores_file(&self) -> String;
    /// The help screen's title and lines.
    fn help(&self) -> (String, Vec<String>);
    /// What the next new game will be, under the menu ("seed 7 · practice"); `None` to
    /// say nothing.
    fn next_game(&self) -> Option<String> {
        None
    }
    /// Whether `n` starts practice games (the game was launched with `--practice`).
    fn practice_by_default(&self) -> bool {
        false
    }
    /// Start a new game (from `seed`, or the host's choice: the seed asked for on the
    /// command line, else the clock's), a practice game or not.
    ///
    /// # Errors
    /// [`NewGameError`]: the sentence why not; nothing changed.
    fn new_game(&mut self, seed: Option<u64>, practice: bool) -> Result<(), NewGameError>;
    /// How many moves continuing the saved game will bring back from its recording (after
    /// the save), when that is worth counting: the start screen says so before it
    /// continues a long one ([`LONG_CONTINUE`] moves or more). Default: `None`, say
    /// nothing.
    fn continue_moves(&self) -> Option<usize> {
        None
    }
    /// Continue the saved game.
    ///
    /// # Errors
    /// [`ContinueError`]: the sentence why not (unreadable, another game's, open
    /// elsewhere); nothing changed.
    fn continue_game(&mut self) -> Result<(), ContinueError>;
    /// The game in play ended, or a replay closed: forget it.
    fn close_game(&mut self);
    /// The play screen over the start screen, which hears [`StartReply::GameOver`] when it
    /// closes.
    fn play(&mut self) -> Transition<Self, StartScreen>;
}

pub use crate::launch::LONG_CONTINUE;

/// The score table in `dir`'s `file`, or none when it cannot be read (`h` says why).
fn read_scores<C: StartHost>(host: &C) -> Vec<Score> {
    host.save_place()
        .and_then(Path::parent)
        .and_then(|d| scores::read_table(d, &host.scores_file()).ok())
        .unwrap_or_default()
}

/// The start screen (see the module docs).
#[derive(Debug)]
pub struct StartScreen {
    save_exists: bool,
    note: Option<(String, bool)>,
    /// A long continue announced: it runs at the next tick, once the note is drawn.
    continuing: bool,
    /// The score table as last read (again whenever a screen above closes).
    scores: Vec<Score>,
}

/// What the start screen hears back from the screens it opens.
#[derive(Debug)]
pub enum StartReply {
    /// The seed typed on the seed prompt (`None`: cancelled).
    Seed(Option<String>),
    /// The answer to "replace the saved game?", with the seed and practice of the new game.
    Replace(Option<u64>, bool, bool),
    /// The game or the replay over the start screen ended.
    GameOver,
}

impl StartScreen {
    /// The start screen for `host` (looks whether a saved game waits, reads the scores).
    #[must_use]
    pub fn new<C: StartHost>(host: &C) -> Self {
        StartScreen {
            save_exists: host.save_exists(),
            note: None,
            continuing: false,
            scores: read_scores(host),
        }
    }

    /// This start screen with `note` under its menu (what happened before it showed: a
    /// continued game that had ended and is filed now).
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some((note.into(), false));
        self
    }

    /// The start screen asking whether to replace the saved game with a new one from `seed`
    /// (a new game asked for on the command line while a save exists), and the question to
    /// push over it.
    #[must_use]
    pub fn asking<C: StartHost>(host: &C, seed: Option<u64>) -> (Self, Transition<C, Self>) {
        let practice = host.practice_by_default();
        (
            StartScreen::new(host),
            Self::replace_question(seed, practice),
        )
    }

    /// Ask whether to replace the saved game with a new one; the answer comes back with
    /// what the new game would be.
    fn replace_question<C: StartHost>(seed: Option<u64>, practice: bool) -> Transition<C, Self> {
        Transition::ask(Confirm::new(REPLACE_QUESTION), move |yes| {
            StartReply::Replace(seed, practice, yes)
        })
    }

    fn play_new<C: StartHost>(
        &mut self,
        host: &mut C,
        seed: Option<u64>,
        practice: bool,
    ) -> Transition<C, Self> {
        match host.new_game(seed, practice) {
            Ok(()) => {
                self.note = None;
                host.play()
            }
            Err(e) => {
                self.note = Some((e.to_string(), true));
                Transition::Stay
            }
        }
    }

    /// A new game; when a saved game exists, ask first (saving the new one replaces it).
    fn ask_new<C: StartHost>(
        &mut self,
        host: &mut C,
        seed: Option<u64>,
        practice: bool,
    ) -> Transition<C, Self> {
        if host.save_exists() {
            return Self::replace_question(seed, practice);
        }
        self.play_new(host, seed, practice)
    }

    fn continue_game<C: StartHost>(&mut self, host: &mut C) -> Transition<C, Self> {
        self.save_exists = host.save_exists();
        if host.save_place().is_none() {
            let no_dir = "There is no save directory (set HOME or XDG_DATA_HOME).";
            self.note = Some((no_dir.into(), false));
            return Transition::Stay;
        }
        if !self.save_exists {
            self.note = Some(("There is no saved game.".into(), false));
            return Transition::Stay;
        }
        // A long journal is announced, and brought back at the next tick: the player sees
        // what the wait is for before it starts.
        if let Some(n) = host.continue_moves().filter(|n| *n >= LONG_CONTINUE) {
            self.note = Some((
                format!("Bringing back the {n} moves recorded after the save…"),
                false,
            ));
            self.continuing = true;
            return Transition::Stay;
        }
        self.continue_now(host)
    }

    fn continue_now<C: StartHost>(&mut self, host: &mut C) -> Transition<C, Self> {
        match host.continue_game() {
            Ok(()) => {
                self.note = None;
                host.play()
            }
            Err(e) => {
                // A game that had ended is filed by the attempt: the menu says so at once.
                self.save_exists = host.save_exists();
                self.note = Some((format!("Cannot continue: {e}"), true));
                Transition::Stay
            }
        }
    }

    /// The menu: key, text, and whether it can be chosen now.
    fn menu(&self) -> Vec<(&'static str, &'static str, bool)> {
        vec![
            ("n", "New game", true),
            (
                "p",
                "New practice game (U takes moves back; never scored)",
                true,
            ),
            ("s", "New game from a seed", true),
            (
                "c",
                if self.save_exists {
                    "Continue the saved game"
                } else {
                    "Continue (no saved game)"
                },
                self.save_exists,
            ),
            ("h", "High scores", true),
            ("?", "Help: keys and how to play", true),
            ("q", "Quit", true),
        ]
    }

    fn refresh<C: StartHost>(&mut self, host: &C) {
        self.save_exists = host.save_exists();
        self.scores = read_scores(host);
    }
}

impl<C: StartHost> Screen<C> for StartScreen {
    type Output = ();
    type Reply = StartReply;

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.continuing.then_some(std::time::Duration::ZERO)
    }

    fn tick(&mut self, host: &mut C) -> Transition<C, Self> {
        if std::mem::take(&mut self.continuing) {
            return self.continue_now(host);
        }
        Transition::Stay
    }

    fn render(&mut self, host: &C, frame: &mut Frame, area: Rect) {
        let p = host.palette();
        let heading = host.heading();
        fill(frame, area, Cell::blank(p.text, p.bg));
        let menu = self.menu();
        // Roomy: art and double spacing; a 25-row window: art, single spacing; less: no art.
        // The score table (heading, column line, at least three games) takes the room it
        // needs first: the art goes before the table does.
        let table_want = if self.scores.is_empty() {
            0
        } else {
            2 + self.scores.len().min(3) as u16
        };
        let under = heading.lines.len() as u16;
        let menu_h = |art_h: u16, gap: u16| art_h + 3 + under + menu.len() as u16 * gap + 2;
        let fits = |art_h: u16, gap: u16| menu_h(art_h, gap) + table_want < area.height;
        let art = heading.art.len() as u16;
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
        y = draw_art(frame, area, y, art_h, &heading, p.bg);
        if art_h > 0 {
            y += 1;
        }
        put_centred(frame, area, y, heading.title, heading.title_colour, p.bg);
        for (i, line) in heading.lines.iter().enumerate() {
            put_centred(frame, area, y + 1 + i as u16, line, p.dim, p.bg);
        }
        y += 2 + under;
        let widest = menu
            .iter()
            .map(|(_, t, _)| t.chars().count() + 4)
            .max()
            .unwrap_or(20) as u16;
        let x = area.x + area.width.saturating_sub(widest) / 2;
        for (key, text, enabled) in &menu {
            let (kf, tf) = if *enabled {
                (p.accent, p.text)
            } else {
                (p.dim, p.dim)
            };
            put_clipped(frame, area, x, y, &format!("{key})"), kf, p.bg);
            put_clipped(frame, area, x + 4, y, text, tf, p.bg);
            y += gap;
        }
        if let Some((note, bad)) = &self.note {
            let fg = if *bad {
                Rgb::new(255, 96, 80)
            } else {
                p.accent
            };
            put_centred(frame, area, y, note, fg, p.bg);
        } else if let Some(next) = host.next_game() {
            put_centred(frame, area, y, &next, p.dim, p.bg);
        }
        if table_rows > 0 {
            draw_scores(frame, area, y, table_rows, &self.scores, &p);
        }
        let footer = match host.save_place() {
            Some(place) => format!("Saves go to {}", place.display()),
            None => "No save directory: set HOME or XDG_DATA_HOME to save games.".to_string(),
        };
        let row = area.bottom().saturating_sub(1);
        put_centred(frame, area, row, &footer, p.dim.scale(0.8), p.bg);
    }

    fn handle(&mut self, host: &mut C, input: Input) -> Transition<C, Self> {
        match plain_key(&input) {
            Some(Key::Char('n')) => {
                let practice = host.practice_by_default();
                self.ask_new(host, None, practice)
            }
            Some(Key::Char('p')) => self.ask_new(host, None, true),
            Some(Key::Char('h' | 'H')) => {
                let file = host.scores_file();
                let lines = match host.save_place().and_then(Path::parent) {
                    Some(dir) => match scores::read_table(dir, &file) {
                        Ok(t) => scores::score_lines(&t),
                        Err(e) => vec![format!("The score table cannot be read: {e}")],
                    },
                    None => vec!["There is no data directory (set HOME or XDG_DATA_HOME).".into()],
                };
                let title = format!("{}: high scores", host.heading().name);
                Transition::push(TextScreen::new(title, lines))
            }
            Some(Key::Char('s')) => Transition::ask(SeedPrompt::default(), StartReply::Seed),
            Some(Key::Char('c')) => self.continue_game(host),
            Some(Key::Enter | Key::Char(' ')) => {
                if host.save_exists() {
                    self.continue_game(host)
                } else {
                    let practice = host.practice_by_default();
                    self.play_new(host, None, practice)
                }
            }
            Some(Key::Char('?') | Key::F(1)) => {
                let (title, lines) = host.help();
                Transition::push(TextScreen::new(title, lines))
            }
            Some(Key::Char('q' | 'Q') | Key::Esc) => Transition::Quit,
            Some(Key::Char(c)) if !c.is_control() => {
                let note = format!("Unknown key '{c}': press n, p, s, c, h, ? or q.");
                self.note = Some((note, false));
                Transition::Stay
            }
            _ => Transition::Stay,
        }
    }

    fn on_result(&mut self, host: &mut C, reply: StartReply) -> Transition<C, Self> {
        match reply {
            StartReply::Seed(Some(t)) => {
                let practice = host.practice_by_default();
                self.ask_new(host, Some(seed_from_text(&t)), practice)
            }
            StartReply::Replace(seed, practice, true) => self.play_new(host, seed, practice),
            StartReply::GameOver => {
                // A game ended (the end screen closed) or a replay closed: back to the menu.
                host.close_game();
                self.refresh(host);
                Transition::Stay
            }
            StartReply::Seed(None) | StartReply::Replace(_, _, false) => {
                self.refresh(host);
                Transition::Stay
            }
        }
    }

    fn name(&self) -> &str {
        "start"
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

impl<C: StartHost> Screen<C> for SeedPrompt {
    type Output = Option<String>;
    type Reply = Infallible;

    fn render(&mut self, host: &C, frame: &mut Frame, area: Rect) {
        let p = host.palette();
        let inside = draw_box(frame, area.centred(44, 6), &p, Some("New game from a seed"));
        if inside.is_empty() {
            return;
        }
        let (x, y) = (inside.x + 1, inside.y);
        put_clipped(
            frame,
            inside,
            x,
            y,
            "Seed (a number or any word):",
            p.text,
            p.bg,
        );
        let shown = format!("> {}_", self.text.text());
        put_clipped(frame, inside, x, y + 1, &shown, p.accent, p.bg);
        let keys = "Enter start   Esc cancel";
        put_centred(frame, inside, inside.y + 3, keys, p.dim, p.bg);
    }

    fn handle(&mut self, _: &mut C, input: Input) -> Transition<C, Self> {
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

/// Draw the first `art_h` lines of the heading's picture from row `y`; returns the row
/// after it.
fn draw_art(frame: &mut Frame, area: Rect, mut y: u16, art_h: u16, h: &Heading, bg: Rgb) -> u16 {
    let (colour, second) = h.art_colours;
    for line in h.art.iter().take(usize::from(art_h)) {
        let x0 = put_centred(frame, area, y, line, colour, bg);
        if let Some((mark, fg)) = second {
            for (i, ch) in line.chars().enumerate() {
                if ch == mark {
                    frame.put(i32::from(x0) + i as i32, i32::from(y), Cell { ch, fg, bg });
                }
            }
        }
        y += 1;
    }
    y
}

/// Draw the score table in `table_rows` rows (its heading included) below row `y`.
fn draw_scores(frame: &mut Frame, area: Rect, mut y: u16, rows: u16, s: &[Score], p: &Palette) {
    let lines = scores::score_table_lines(s);
    let shown = usize::from(rows - 1);
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
    put_centred(frame, area, y, &heading, p.accent, p.bg);
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
    let x = area.x + area.width.saturating_sub(width) / 2;
    for (i, line) in lines.iter().take(shown).enumerate() {
        let fg = if i == 0 { p.dim } else { p.text };
        put_clipped(frame, area, x, y + 1 + i as u16, line, fg, p.bg);
    }
}
