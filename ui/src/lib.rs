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
#![warn(missing_docs)]

mod frontend;
mod screens;

pub use alembic::Rgb;
pub use frontend::{
    App, Cell, ColourDepth, Control, Frame, Frontend, Input, Key, Mods, MouseButton, MouseKind,
    TEST_TICK_LIMIT, TestFrontend, TestFrontendError, Tile, TileSpan, TileSupport, run,
};
pub use screens::{
    Confirm, DIRECTION_KEYS, Farewell, ItemList, ListEntry, MessageLogScreen, MinSize, Palette,
    Rect, Screen, ScreenStack, ScreenValue, TextScreen, Title, Transition, direction_key, draw_box,
    draw_item_list, draw_message_log, draw_too_small, fade_for_age, fill, is_cancel, item_letter,
    page_count, plain_char, plain_key, put_centred, put_clipped, wheel_key, wrap_text,
};

/// The README's code blocks, compiled and run as doc tests (the engine cannot: its README
/// example uses this crate).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
