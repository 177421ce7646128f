//! Reusable widgets and the ready-made screens built on them.
//!
//! Each widget draws into an area of a [`Frame`]; the ones that scroll or
//! select implement [`StatefulWidget`], like ratatui's: the state (scroll position, page,
//! cursor) is a value the caller owns and passes in, and rendering writes back what it
//! learnt (how many rows fit), so key handling can clamp against it. Nothing is hidden in
//! interior mutability. The screens ([`ItemList`], [`Confirm`], [`TextScreen`],
//! [`MessageLogScreen`]) keep that state in their fields and return typed outputs.
//!
//! | file | widget | screen (its output) |
//! |---|---|---|
//! | `item_list.rs` | [`draw_item_list`], lettered pages of 26 | [`ItemList`] (`Option<usize>`) |
//! | `confirm.rs` | a y/n box | [`Confirm`] (`bool`) |
//! | `text.rs` | [`TextView`], wrapped, scrolling | [`TextScreen`] (`()`) |
//! | `message_log.rs` | [`MessageLog`], newest at the bottom, older faded | [`MessageLogScreen`] (`()`) |
//! | `target.rs` | [`TargetCursor`], a cursor over a map with marks to cycle through | — (games wrap it) |
//! | `scroll.rs` | [`ScrollState`], shared by the scrolling widgets | — |
//! | `line_input.rs` | [`LineInput`], a one-line text field's state and key editing | — (prompts wrap it) |
//! | `min_size.rs` | [`draw_too_small`] | [`MinSize`], an [`App`](crate::App) wrapper |

use crate::draw::Rect;
use crate::frame::Frame;

mod confirm;
mod item_list;
mod line_input;
mod message_log;
mod min_size;
mod scroll;
mod target;
mod text;

pub use confirm::Confirm;
pub use item_list::{ItemList, ListEntry, draw_item_list, item_letter, page_count};
pub use line_input::{LineEvent, LineInput};
pub use message_log::{MessageLog, MessageLogScreen, draw_message_log, fade_for_age};
pub use min_size::{MinSize, draw_too_small};
pub use scroll::ScrollState;
pub use target::{CURSOR_JUMP, CursorEvent, TargetCursor, TargetState};
pub use text::{TextScreen, TextView};

/// A widget that draws with state the caller owns, as ratatui's `StatefulWidget`: the
/// state (a scroll position, a cursor) lives in the caller's screen, is passed in on every
/// draw, and the widget may write back what the drawing learnt (how many rows fit).
pub trait StatefulWidget {
    /// The state drawn from and written back to.
    type State;

    /// Draw into `area` of `frame`.
    fn render(self, frame: &mut Frame, area: Rect, state: &mut Self::State);
}
