//! Alembic: a roguelike engine whose whole game state is one persistent value.
//!
//! (Crate documentation is completed with the engine core.)
#![warn(missing_docs)]

mod loc;
mod rng;

pub use loc::{Dir, Loc, LocBox};
pub use rng::GameRng;
mod screens;
mod ui;

pub use screens::{
    Confirm, ItemList, ListEntry, MessageLogScreen, MinSize, Palette, Rect, Screen, ScreenStack,
    ScreenValue, TextScreen, Transition, direction_key, draw_box, draw_item_list, draw_message_log,
    draw_too_small, fade_for_age, fill, is_cancel, item_letter, page_count, plain_char, plain_key,
    put_centred, put_clipped, wrap_text,
};
pub use ui::{
    App, Cell, ColourDepth, Control, Frame, Frontend, Input, Key, Mods, Rgb, TestFrontend,
    TestFrontendError, run,
};
