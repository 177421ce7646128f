//! What a UI receives: [`Input`]s (keys with [`Mods`], resizes, quit requests, the mouse),
//! independent of any terminal or window library, and the helpers every roguelike needs to
//! read them: [`direction_key`] (vi keys, arrows, numpad), [`plain_char`], [`is_cancel`].

use alembic::Dir;
use serde::{Deserialize, Serialize};

/// A key, independent of any terminal or window library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Key {
    /// A printable character (already shifted: `'K'`, `'<'`, `'?'`).
    Char(char),
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Delete.
    Delete,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Insert.
    Insert,
    /// A function key `F1`…`F24`.
    F(u8),
    /// A keypad digit (numpad with Num Lock), for frontends that can tell it apart.
    /// Frontends that cannot send [`Key::Char`] digits instead; UIs treat both alike.
    Keypad(u8),
}

/// Modifier keys held with a key press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mods {
    /// Shift (not reported for [`Key::Char`], whose char is already shifted).
    pub shift: bool,
    /// Control.
    pub ctrl: bool,
    /// Alt / Option / Meta.
    pub alt: bool,
}

impl Mods {
    /// No modifier held.
    pub const NONE: Mods = Mods {
        shift: false,
        ctrl: false,
        alt: false,
    };
}

/// Everything a UI can receive from a frontend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// A key press (or auto-repeat while held). Releases are never reported.
    Key {
        /// Which key.
        key: Key,
        /// Modifiers held.
        mods: Mods,
    },
    /// The drawable area changed to `width × height` cells.
    Resize {
        /// New width in cells.
        width: u16,
        /// New height in cells.
        height: u16,
    },
    /// The user asked to close (window close button, SIGTERM-like request).
    Quit,
    /// A mouse event at cell (`x`, `y`) of the frame (column, row; 0-based).
    ///
    /// Frontends that cannot report the mouse never send it; UIs must stay fully usable
    /// from the keyboard.
    Mouse {
        /// What happened.
        kind: MouseKind,
        /// Column of the cell under the pointer.
        x: u16,
        /// Row of the cell under the pointer.
        y: u16,
        /// Modifiers held.
        mods: Mods,
    },
}

/// What a mouse did, for [`Input::Mouse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseKind {
    /// The pointer moved onto this cell (hover). Frontends report it once per new cell.
    Move,
    /// A button was pressed.
    Down(MouseButton),
    /// A button was released.
    Up(MouseButton),
    /// The wheel turned away from the user (scroll up).
    ScrollUp,
    /// The wheel turned towards the user (scroll down).
    ScrollDown,
}

/// A mouse button, for [`MouseKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseButton {
    /// The primary (usually left) button.
    Left,
    /// The secondary (usually right) button.
    Right,
    /// The middle button (or wheel click).
    Middle,
}

impl Input {
    /// A plain key press with no modifiers.
    #[must_use]
    pub const fn key(key: Key) -> Self {
        Input::Key {
            key,
            mods: Mods::NONE,
        }
    }

    /// A plain character key press.
    #[must_use]
    pub const fn ch(c: char) -> Self {
        Input::key(Key::Char(c))
    }

    /// A mouse event with no modifiers at cell (`x`, `y`).
    #[must_use]
    pub const fn mouse(kind: MouseKind, x: u16, y: u16) -> Self {
        Input::Mouse {
            kind,
            x,
            y,
            mods: Mods::NONE,
        }
    }
}

/// The character of a plain key press (no Ctrl, no Alt), if it is one.
#[must_use]
pub fn plain_char(input: &Input) -> Option<char> {
    match *input {
        Input::Key {
            key: Key::Char(c),
            mods,
        } if !mods.ctrl && !mods.alt => Some(c),
        _ => None,
    }
}

/// The key of a key press with no Ctrl or Alt held, if it is one.
#[must_use]
pub fn plain_key(input: &Input) -> Option<Key> {
    match *input {
        Input::Key { key, mods } if !mods.ctrl && !mods.alt => Some(key),
        _ => None,
    }
}

/// The mouse wheel as the arrow key that scrolls the same way ([`Key::Up`] for
/// [`MouseKind::ScrollUp`], [`Key::Down`] for down), so lists
/// and logs scroll with the wheel through their key handling.
#[must_use]
pub fn wheel_key(input: &Input) -> Option<Key> {
    match *input {
        Input::Mouse {
            kind: crate::MouseKind::ScrollUp,
            ..
        } => Some(Key::Up),
        Input::Mouse {
            kind: crate::MouseKind::ScrollDown,
            ..
        } => Some(Key::Down),
        _ => None,
    }
}

/// Every key [`direction_key`] gives a direction for (without modifiers), for keymaps and
/// help screens that list them.
///
/// ```
/// use alembic_ui::{DIRECTION_KEYS, Input, direction_key};
/// assert!(DIRECTION_KEYS.iter().all(|&k| direction_key(&Input::key(k)).is_some()));
/// ```
pub const DIRECTION_KEYS: &[Key] = &[
    Key::Char('h'),
    Key::Char('j'),
    Key::Char('k'),
    Key::Char('l'),
    Key::Char('y'),
    Key::Char('u'),
    Key::Char('b'),
    Key::Char('n'),
    Key::Left,
    Key::Down,
    Key::Up,
    Key::Right,
    Key::Home,
    Key::PageUp,
    Key::End,
    Key::PageDown,
    Key::Char('1'),
    Key::Char('2'),
    Key::Char('3'),
    Key::Char('4'),
    Key::Char('6'),
    Key::Char('7'),
    Key::Char('8'),
    Key::Char('9'),
    Key::Keypad(1),
    Key::Keypad(2),
    Key::Keypad(3),
    Key::Keypad(4),
    Key::Keypad(6),
    Key::Keypad(7),
    Key::Keypad(8),
    Key::Keypad(9),
];

/// The compass direction a key means by roguelike convention: vi keys `hjklyubn`, arrows,
/// numpad digits (as [`Key::Keypad`] or plain digits) and, for numpads without Num Lock,
/// Home / PageUp / End / PageDown as the diagonals.
#[must_use]
pub fn direction_key(input: &Input) -> Option<Dir> {
    let key = plain_key(input)?;
    let digit = match key {
        Key::Keypad(d) => Some(d),
        Key::Char(c @ '1'..='9') => c.to_digit(10).map(|d| d as u8),
        _ => None,
    };
    if let Some(d) = digit {
        return match d {
            1 => Some(Dir::SouthWest),
            2 => Some(Dir::South),
            3 => Some(Dir::SouthEast),
            4 => Some(Dir::West),
            6 => Some(Dir::East),
            7 => Some(Dir::NorthWest),
            8 => Some(Dir::North),
            9 => Some(Dir::NorthEast),
            _ => None,
        };
    }
    match key {
        Key::Char('h') | Key::Left => Some(Dir::West),
        Key::Char('j') | Key::Down => Some(Dir::South),
        Key::Char('k') | Key::Up => Some(Dir::North),
        Key::Char('l') | Key::Right => Some(Dir::East),
        Key::Char('y') | Key::Home => Some(Dir::NorthWest),
        Key::Char('u') | Key::PageUp => Some(Dir::NorthEast),
        Key::Char('b') | Key::End => Some(Dir::SouthWest),
        Key::Char('n') | Key::PageDown => Some(Dir::SouthEast),
        _ => None,
    }
}

/// The run keys, by roguelike convention: Shift+direction, as the vi keys in capitals
/// (`H J K L Y B N`) or Shift with an arrow. There is no run north-east by letter: Shift+u
/// is `U`, which games keep for taking a move back.
///
/// ```
/// use alembic::Dir;
/// use alembic_ui::{Input, Key, Mods, run_key};
/// assert_eq!(run_key(&Input::ch('L')), Some(Dir::East));
/// let shift = Mods { shift: true, ..Mods::default() };
/// assert_eq!(run_key(&Input::Key { key: Key::Up, mods: shift }), Some(Dir::North));
/// assert_eq!(run_key(&Input::ch('l')), None);
/// assert_eq!(run_key(&Input::ch('U')), None);
/// ```
#[must_use]
pub fn run_key(input: &Input) -> Option<Dir> {
    match *input {
        Input::Key { key, mods } if !mods.ctrl && !mods.alt => match key {
            Key::Char('H') => Some(Dir::West),
            Key::Char('J') => Some(Dir::South),
            Key::Char('K') => Some(Dir::North),
            Key::Char('L') => Some(Dir::East),
            Key::Char('Y') => Some(Dir::NorthWest),
            Key::Char('B') => Some(Dir::SouthWest),
            Key::Char('N') => Some(Dir::SouthEast),
            Key::Left if mods.shift => Some(Dir::West),
            Key::Right if mods.shift => Some(Dir::East),
            Key::Up if mods.shift => Some(Dir::North),
            Key::Down if mods.shift => Some(Dir::South),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the key is Escape (the universal "cancel").
#[must_use]
pub fn is_cancel(input: &Input) -> bool {
    plain_key(input) == Some(Key::Esc)
}

// ---------------------------------------------------------------------------------------------
