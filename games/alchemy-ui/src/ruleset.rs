//! Alchemy's board on the game contract. The rules are [`Alchemy`] in the rules crate
//! (`alembic-rl-alchemy`, re-exported here): its commands, typed events and refusals, its
//! data, save format, wizard commands, questions, journeys and bots, which the headless
//! runner (`alembic-sim --game alchemy`) and recordings' verification use with no screen.
//! [`AlchemyBoard`] is what the session's screens need on top: the keys that play, the keys
//! that ask first, the view's switches, and the drawing of the map and the status panel.

use std::sync::Arc;

use alembic::{Game, Loc};
use alembic_alchemy::Command;
use alembic_alchemy::asks::key;
pub use alembic_alchemy::contract::{Alchemy, Happened, random_command};
use alembic_alchemy::rules::level_box;
use alembic_alchemy::view::hero_id;
use alembic_session::Board;
use alembic_session::keymap::{Binding, bind};
use alembic_session::ruleset::View;
use alembic_ui::{Frame, Key, Rect};

/// The keys that play a command on their own; the keys that ask first are [`ASKS`].
const KEYS: &[Binding<Command>] = &[
    bind(
        &[Key::Char('.'), Key::Char('5'), Key::Keypad(5)],
        ". or 5",
        Command::Wait,
        "Actions",
        "wait a turn",
    ),
    bind(
        &[Key::Char('>')],
        ">",
        Command::Descend,
        "Actions",
        "go down the stairs",
    ),
    bind(
        &[Key::Char('<')],
        "<",
        Command::Ascend,
        "Actions",
        "go up the stairs",
    ),
];

/// The keys that ask the player something first (the session's questions, answered by the
/// rules: [`alembic_alchemy::asks`]).
#[rustfmt::skip]
pub const ASKS: &[Binding<u32>] = &[
    bind(&[Key::Char(','), Key::Char('g')], ", or g", key::PICK_UP, "Items", "pick up (a list when several things lie here)"),
    bind(&[Key::Char('i')], "i", key::INVENTORY, "Items", "inventory: choose an item to read about it and act on it"),
    bind(&[Key::Char('q')], "q", key::QUAFF, "Items", "quaff (drink) a potion"),
    bind(&[Key::Char('e')], "e", key::EAT, "Items", "eat food, a herb or a mushroom"),
    bind(&[Key::Char('t')], "t", key::THROW, "Items", "throw: choose an item, then a target"),
    bind(&[Key::Char('d')], "d", key::DROP, "Items", "drop (take off worn things first)"),
    bind(&[Key::Char('w')], "w", key::WIELD, "Items", "wield a weapon or wear armour (again to take it off)"),
    bind(&[Key::Char('a')], "a", key::ANALYSE, "Items", "analyse a potion or ingredient beside an analysis lab (it is used up)"),
    bind(&[Key::Char('c')], "c", key::CRAFT, "Items", "craft a potion from a known recipe (beside an alchemy workbench)"),
    bind(&[Key::Char('C')], "C", key::DOOR, "Other", "close or open a door (then a direction)"),
    bind(&[Key::Char('x'), Key::Char(';')], "x or ;", key::LOOK, "Other", "look around with a cursor (l is a vi key: east)"),
    bind(&[Key::Char('G')], "G", key::TRAVEL, "Other", "travel: pick a place you have seen with the cursor (Tab: stairs first)"),
];

/// The view's switches: autopickup (read by the rules' journeys, never recorded).
const TOGGLES: &[Binding<u32>] = &[bind(
    &[Key::Char('A')],
    "A",
    alembic_alchemy::journeys::AUTOPICKUP,
    "View",
    "autopickup: explore picks up the items it sees, or stops doing so (off at first)",
)];

/// Alchemy's board: its map (light, memory, tiles) and status panel, drawn for the
/// session's screens from the game alone; the keys that play and the keys that ask.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlchemyBoard;

impl AlchemyBoard {
    /// The board, shared as the session holds it.
    #[must_use]
    pub fn shared() -> Arc<dyn Board<Alchemy>> {
        Arc::new(AlchemyBoard)
    }
}

impl Board<Alchemy> for AlchemyBoard {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn draw(&self, game: &Game, frame: &mut Frame, area: Rect, view: &View) {
        // The play keys' hints in play; none in the replay viewer, whose bar has its own.
        let shown = crate::map::Shown {
            game,
            tiles: view.tiles,
            cursor: None,
            hints: if view.replaying {
                crate::map::Hints::None
            } else {
                crate::map::Hints::Play
            },
        };
        crate::status::draw_play_board(&shown, frame, area);
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        // The session adds its own message rows.
        Some(crate::map::play_area())
    }

    fn asks(&self) -> &'static [Binding<u32>] {
        ASKS
    }

    fn view_toggles(&self) -> &'static [Binding<u32>] {
        TOGGLES
    }

    fn has_tiles(&self) -> bool {
        true
    }

    fn pause_on_death(&self) -> bool {
        true
    }

    /// The map cell at `x`, `y` as [`Board::draw`] lays it out: the hero in the middle of
    /// the map, one column a cell (letters; tiles two columns wide are not mapped).
    fn cell_at(&self, game: &Game, area: Rect, x: u16, y: u16) -> Option<Loc> {
        let at = game.things().location(hero_id(game).ok()?).ok()?;
        let map = crate::map::layout_with(area, 0).map;
        crate::map::MapView::centred(map, level_box(at.z), at, 1).loc_at(x, y)
    }

    fn describe_cell(&self, game: &Game, cell: Loc) -> Option<String> {
        alembic_alchemy::rules::explored(game, cell)
            .then(|| alembic_alchemy::view::look_at(game, cell).ok())
            .flatten()
            .map(|info| info.text)
    }
}
