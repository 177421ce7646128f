//! The board: how a game's rules ([`Ruleset`]) are shown and played in a frontend — its
//! keys, its drawing, the pointer and the view toggles. The rules stay headless (the runner,
//! bots and tests need no screen); the session's play screen ([`crate::play`]) asks the
//! board.
//!
//! A small game is its own board (`impl Board<MyGame> for MyGame`, as the rats are); a game
//! whose screens live in another crate gives the session a board of its own type
//! ([`crate::play::launch_with`]).
//!
//! ```
//! use alembic::{Game, Hooks, Library, Rgb};
//! use alembic_session::board::Board;
//! use alembic_session::keymap::{Binding, bind};
//! use alembic_session::ruleset::{Outcome, Rejected, Ruleset, Status, View};
//! use alembic_ui::{Frame, Key, Rect};
//!
//! struct Count { library: Library }
//! #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
//! enum Cmd { Up }
//! impl Ruleset for Count {
//!     const NAME: &'static str = "count";
//!     const TITLE: &'static str = "C O U N T";
//!     type Command = Cmd;
//!     type Event = u64;
//!     type Refusal = String;
//!     fn library(&self) -> &Library { &self.library }
//!     fn hooks(&self) -> Hooks { Hooks::new() }
//!     fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
//!         Ok(Game::new(seed).with_library(self.library.clone()))
//!     }
//!     fn apply(&self, game: &Game, _: &Cmd) -> Result<Outcome<u64>, Rejected<String>> {
//!         let mut g = game.clone();
//!         g.set_turn_mut(g.turn() + 1);
//!         Ok(Outcome { events: vec![g.turn()], game: g })
//!     }
//!     fn describe(&self, _: &Game, n: &u64) -> Option<String> { Some(format!("{n}!")) }
//!     fn status(&self, _: &Game) -> Status { Status::Playing }
//! }
//!
//! const KEYS: &[Binding<Cmd>] = &[bind(&[Key::Char('+')], "+", Cmd::Up, "Play", "count")];
//!
//! impl Board<Count> for Count {
//!     fn keymap(&self) -> &'static [Binding<Cmd>] { KEYS }
//!     fn draw(&self, game: &Game, frame: &mut Frame, area: Rect, _: &View) {
//!         frame.put_str(area.x, area.y, &game.turn().to_string(), Rgb::WHITE, Rgb::BLACK);
//!     }
//! }
//!
//! let count = Count { library: Library::new() };
//! let mut frame = Frame::new(8, 1);
//! let game = count.apply(&count.new_game(1)?, &Cmd::Up).map_err(|e| e.to_string())?.game;
//! count.draw(&game, &mut frame, Rect::new(0, 0, 8, 1), &View::default());
//! assert_eq!(frame.row_text(0).trim(), "1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alembic::{Game, Loc};
use alembic_ui::{Frame, Rect};

use crate::keymap::Binding;
use crate::ruleset::{Ruleset, View};

/// How the rules `R` are shown and played: what the session's play screen asks of a game
/// beyond its rules. Two methods are required (the keys and the drawing); the pointer and
/// the view toggles are optional (a game without them has no hover line and no toggles).
pub trait Board<R: Ruleset>: Send + Sync + 'static {
    /// The game's keys; the session keeps `S` (save and leave), `Q` (quit), `U` (undo in
    /// practice), `~` (wizard console), `?` (help) and `P` (messages) for itself, and `Z`,
    /// `s` and `o` for games that answer [`Ruleset::journeys`].
    fn keymap(&self) -> &'static [Binding<R::Command>];
    /// Draw the game's play area (map and status) into `area`; the session draws the
    /// messages above it.
    fn draw(&self, game: &Game, frame: &mut Frame, area: Rect, view: &View);
    /// The grid that shows the whole play area, for a window that sizes its cells to fit
    /// (the session adds its message rows). Default: no wish.
    fn play_area(&self) -> Option<(u16, u16)> {
        None
    }
    /// The cell drawn at column `x`, row `y` of `area` by [`Board::draw`], for the mouse.
    /// Default: none (the pointer does nothing).
    fn cell_at(&self, game: &Game, area: Rect, x: u16, y: u16) -> Option<Loc> {
        let _ = (game, area, x, y);
        None
    }
    /// What the player knows of `cell`, for the hover line. Default: nothing.
    fn describe_cell(&self, game: &Game, cell: Loc) -> Option<String> {
        let _ = (game, cell);
        None
    }
    /// The game's own lines at the end of the help (`?`): its goal, what the map's glyphs
    /// mean, how its rules count; `game` is the game in play (its library names the
    /// glyphs). Default: none.
    fn help_lines(&self, game: &Game) -> Vec<String> {
        let _ = game;
        Vec::new()
    }
    /// Keys that switch parts of the view on and off (not the game: nothing is recorded),
    /// each binding's action its bit in [`View::toggles`]. Default: none.
    fn view_toggles(&self) -> &'static [Binding<u32>] {
        &[]
    }
    /// The keys that ask the player something before a command (which item, where to
    /// throw…), each binding's action the id [`crate::ask::Questions::ask`] is given. The
    /// session offers them (keys and help lines) only to rules that answer
    /// [`Ruleset::questions`]. Default: none.
    fn asks(&self) -> &'static [Binding<u32>] {
        &[]
    }
    /// Whether [`Board::draw`] draws pictures when [`View::tiles`] is on: the session then
    /// offers `F2` to switch between tiles and letters. Default: no.
    fn has_tiles(&self) -> bool {
        false
    }
    /// Whether a death pauses on the map (`You die... --More--`, any key goes on) before
    /// the end screen or the practice rewind, as DCSS and Alchemy do. Default: no.
    fn pause_on_death(&self) -> bool {
        false
    }
}
