//! The Caves' keys, in one table: the play screen dispatches through [`action_of`] and the
//! help screen is made from [`KEYMAP`] (see [`alembic_session::keymap`]).

use alembic::Dir;
use alembic_ui::{DIRECTION_KEYS, Input, Key, direction_key, plain_key};

use alembic_session::keymap::bind;
pub use alembic_session::keymap::help_line;

/// What a key asks the Caves' play screen to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Step, dig or attack one cell: direction keys.
    Move,
    /// Wait a turn.
    Wait,
    /// Rest until healed, a creature comes into view or something happens.
    Rest,
    /// Search for a few turns.
    Search,
    /// Take the stairs down (or the way out).
    Descend,
    /// Take the stairs up.
    Ascend,
    /// Show or hide the flood-fill regions.
    Regions,
    /// The message log.
    Messages,
    /// The help screen.
    Help,
    /// Save and quit.
    Save,
    /// Quit: end the game (asks first; scored, never continued).
    Quit,
}

/// One line of the Caves' keymap.
pub type Binding = alembic_session::keymap::Binding<Action>;

const KEYS: &str = "Keys";

/// Every key of the Caves' play screen.
pub const KEYMAP: &[Binding] = &[
    bind(
        DIRECTION_KEYS,
        "h j k l y u b n",
        Action::Move,
        KEYS,
        "move (arrow keys and 1-9 as on a numpad too); walking into rock digs it out (one \
         turn), into a creature attacks it",
    ),
    bind(
        &[Key::Char('.'), Key::Char('5'), Key::Keypad(5)],
        ".  or  5",
        Action::Wait,
        KEYS,
        "wait a turn",
    ),
    bind(
        &[Key::Char('Z')],
        "Z",
        Action::Rest,
        KEYS,
        "rest until your hit points are full, a creature comes into view or something \
         happens (any key stops it)",
    ),
    bind(
        &[Key::Char('s')],
        "s",
        Action::Search,
        KEYS,
        "search for 5 turns (stops as resting does)",
    ),
    bind(
        &[Key::Char('>')],
        ">",
        Action::Descend,
        KEYS,
        "go down the stairs; on the bottom level the golden > is the way out",
    ),
    bind(
        &[Key::Char('<')],
        "<",
        Action::Ascend,
        KEYS,
        "go up the stairs",
    ),
    bind(
        &[Key::Char('R')],
        "R",
        Action::Regions,
        KEYS,
        "show the connected areas (the engine's flood fill) as numbers",
    ),
    bind(
        &[Key::Char('m')],
        "m",
        Action::Messages,
        KEYS,
        "message log",
    ),
    bind(&[Key::Char('?')], "?", Action::Help, KEYS, "this help"),
    bind(
        &[Key::Char('S')],
        "S",
        Action::Save,
        KEYS,
        "save and quit (continue it next time)",
    ),
    bind(
        &[Key::Char('Q')],
        "Q",
        Action::Quit,
        KEYS,
        "quit: the game ends here, scored as it stands (asks y/n first)",
    ),
];

/// What `input` does on the play screen (with the direction for [`Action::Move`]); `None`
/// for a key the table does not hold.
#[must_use]
pub fn action_of(input: &Input) -> Option<(Action, Option<Dir>)> {
    if let Some(d) = direction_key(input) {
        return Some((Action::Move, Some(d)));
    }
    alembic_session::keymap::find(KEYMAP, plain_key(input)?)
        .filter(|a| *a != Action::Move)
        .map(|a| (a, None))
}

/// The help screen: the goal, the keys from [`KEYMAP`], and the creatures.
#[must_use]
pub fn help_lines() -> Vec<String> {
    let mut lines = vec![
        "The Caves: find the way out at the bottom of the caves.".to_owned(),
        String::new(),
    ];
    lines.extend(alembic_session::keymap::help_section(KEYMAP, KEYS));
    lines.extend(
        [
            "",
            "Creatures:",
            "  @  you (40 hp)",
            "  F  lichen: grows slowly, stings whoever touches it",
            "  v  bunny: harmless, hops about",
            "  ~  silverfish: harmless, swims through rock",
            "  b  cave bat: erratic, flies at you, bites",
            "  Z  zombie: slow, follows you, claws hard",
            "",
            "You heal one hit point every ten turns. Damage is 1 + rand(attack - defence).",
        ]
        .map(str::to_owned),
    );
    lines
}
