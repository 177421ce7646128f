//! # Alembic UI
//!
//! The UI toolkit of the Alembic roguelike engine: what a game's screens draw into, what they
//! receive, the contract a frontend implements, a stack of screens and the widgets roguelikes
//! keep rewriting. It depends on the engine (`alembic`); the engine never depends on it.
//!
//! Goals, most important first:
//! 1. **Frontends stay thin.** Shared code draws into a [`Frame`] of [`Cell`]s and reacts to
//!    [`Input`]s; a [`Frontend`] only shows frames and turns native events into inputs. The
//!    same screens run in a terminal, a window and headless tests ([`TestFrontend`]).
//! 2. **Screens compose without knowing each other.** A [`ScreenStack`] holds [`Screen`]s; a
//!    screen pushes another and gets its typed result back, so a reusable item list never
//!    knows who asked for an item.
//! 3. **Widgets keep no hidden state.** Scroll positions and selections live in state values
//!    the caller owns and passes in, as ratatui's `StatefulWidget` does.
//! 4. **Testable without a terminal.** Everything renders to plain data; [`run`] drives any
//!    [`App`] with any [`Frontend`], including a scripted one.
//! 5. **Small.** No layout engine, no styling language: rectangles, boxes, wrapped text.
//!
//! | module | what |
//! |---|---|
//! | [`frame`] | [`Frame`], [`Cell`], [`Tile`]: what a UI draws into |
//! | [`input`] | [`Input`], [`Key`], and reading roguelike keys ([`direction_key`]) |
//! | [`frontend`] | [`Frontend`], [`App`], [`run`], [`TestFrontend`]: the contract with frontends |
//! | [`screen`] | [`Screen`], [`ScreenStack`], [`Transition`]: screens with typed results |
//! | [`draw`] | [`Rect`], [`Palette`], boxes and text |
//! | [`widgets`] | item lists, confirm, text pages, the message log, a targeting cursor, [`MinSize`] |
//!
//! Every name is also at the crate root.
#![warn(missing_docs)]

pub mod draw;
pub mod frame;
pub mod frontend;
pub mod input;
pub mod screen;
pub mod widgets;

pub use alembic::Rgb;
pub use draw::{Palette, Rect, draw_box, fill, put_centred, put_clipped, wrap_text};
pub use frame::{Cell, ColourDepth, Frame, Tile, TileSpan, TileSupport};
pub use frontend::{
    App, Control, EmergencySave, EmergencySaveError, FarewellError, Frontend, SessionError,
    TEST_TICK_LIMIT, TestFrontend, TestFrontendError, run, run_to_end,
};
pub use input::{
    DIRECTION_KEYS, Input, Key, Mods, MouseButton, MouseKind, direction_key, is_cancel, plain_char,
    plain_key, run_key, wheel_key,
};
pub use screen::{
    Emergency, Farewell, Grid, Pushed, Replacement, Screen, ScreenStack, Title, Transition,
};
pub use widgets::{
    CURSOR_JUMP, Confirm, CursorEvent, ItemList, LineEvent, LineInput, ListEntry, MessageLog,
    MessageLogScreen, MinSize, ScrollState, StatefulWidget, TargetCursor, TargetState, TextScreen,
    TextView, draw_item_list, draw_message_log, draw_too_small, fade_for_age, item_letter,
    page_count,
};

/// The README's code blocks, compiled and run as doc tests (the engine cannot: its README
/// example uses this crate).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
