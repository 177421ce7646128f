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

    fn help_lines(&self, game: &Game) -> Vec<String> {
        help_lines(game)
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

/// The goal, first.
const INTRO: &str = "Alchemy: go down to depth 10 of the dungeon's 11 (the panel counts \
     them: Depth 3/11 is depth 3), take the Philosopher's Stone, and climb back out through \
     the exit on depth 1 (stand on the up stairs there and press <). Drink, \
     analyse and brew potions on the way: you start knowing none of them.";

/// The mouse, the lists and the light.
const OUTRO: &[&str] = &[
    "Mouse: point at a cell to look at it; click a seen cell to travel there (it stops when \
     a monster comes into view); the wheel opens the message log.",
    "",
    "Item lists: a letter chooses. An item keeps its letter (a-z, then A-Z) in every list \
     for as long as you carry it.",
    "Look and target cursor (x, t, G): direction keys move it, Tab jumps to the next \
     creature or item, then to the features you remember (stairs, doors, workbench, lab, \
     fountain); Enter picks (a look describes what is there); Esc closes.",
    "",
    "Torchlight: what you see now is lit by your torch; places you remember but cannot \
     see are drawn dim and blue-grey. The game is saved when you press S or close the \
     window; a dead alchemist's save is deleted.",
];

/// How experience and levels work, from the rules' own numbers.
fn experience_help() -> String {
    use alembic_alchemy::rules::progress::{
        DISCOVERY_XP, HP_PER_LEVEL, MAX_LEVEL, SKILL_EVERY, XP_STEP, xp_for,
    };
    let skill: Vec<String> = (2..=MAX_LEVEL)
        .filter(|l| l % SKILL_EVERY == 0)
        .map(|l| l.to_string())
        .collect();
    format!(
        "Experience and levels: each kill is worth half the monster's maximum hit points, \
         each kind of potion or ingredient you identify {DISCOVERY_XP} more. Level 2 needs \
         {} experience in all, level 3 {}, level n from 4 on {XP_STEP} x n x (n - 1), up \
         to level {MAX_LEVEL}. Each \
         level raises your maximum hit points by {HP_PER_LEVEL} (and heals as much); levels \
         {} also raise your skill (to hit, to block, to strike hard) by 1. The side panel \
         shows your level and experience.",
        xp_for(2),
        xp_for(3),
        skill.join(", ")
    )
}

/// Alchemy's lines of the help: the goal, the mouse and lists, experience, and the legend
/// of the map made from `game`'s tile and prototype data.
fn help_lines(game: &Game) -> Vec<String> {
    let mut lines = vec![INTRO.to_owned(), String::new()];
    lines.extend(OUTRO.iter().map(|l| (*l).to_owned()));
    lines.push(String::new());
    lines.push(experience_help());
    if let Ok(sections) = alembic_alchemy::view::legend(game.library()) {
        lines.push(String::new());
        lines.push("On the map (look with x to tell things of one glyph apart)".to_owned());
        for (title, entries) in sections {
            lines.push(format!("  {title}"));
            for e in entries {
                let glyph = if e.glyph == ' ' {
                    "(blank)".to_owned()
                } else {
                    e.glyph.to_string()
                };
                lines.push(format!("    {glyph:<7} {}", e.names.join(", ")));
            }
        }
    }
    lines
}
