//! Where the session's play screen puts its parts: the messages on top, the game's drawing
//! below, shared by the play screen and the screens drawn over it.

use alembic::Rgb;
use alembic_ui::Rect;

/// Rows of messages above the play area.
pub(crate) const MESSAGE_ROWS: u16 = 3;

/// The background of the path a targeting question draws from the thrower to the cursor
/// (amber, as Alchemy's own cursor drew it: it reads over lit floor and memory alike).
pub const TARGET_PATH_BG: Rgb = Rgb::new(120, 88, 24);

/// The background of that path past the first place a throw stops at (a wall, a closed
/// door): dim red.
pub const TARGET_BEYOND_BG: Rgb = Rgb::new(90, 30, 30);

/// Where the game's drawing goes in a frame of `area`: below the messages.
pub(crate) fn play_area(area: Rect) -> Rect {
    area.split_top(MESSAGE_ROWS).1
}

/// Where the messages go in a frame of `area`: above the game's drawing.
pub(crate) fn message_area(area: Rect) -> Rect {
    area.split_top(MESSAGE_ROWS).0
}
