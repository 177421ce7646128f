//! Alchemy's keys, in one table: the play screen dispatches through [`action_of`] and the
//! help screen is made from [`KEYMAP`], so a key cannot be listed without working, nor work
//! without being listed (`games/registry/tests/keymap.rs` checks both).

use alembic::Dir;
use alembic_ui::{DIRECTION_KEYS, Input, Key, Tile, direction_key, plain_key, run_key};

use super::AlchemyCtx;
use alembic_alchemy as alchemy;

/// What a key asks the play screen to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Step (or attack, or open a door) one cell: direction keys.
    Move,
    /// Run until something interesting: Shift+direction.
    Run,
    /// Wait a turn.
    Wait,
    /// Rest until healed, a monster comes or something happens.
    Rest,
    /// Search for a few turns.
    Search,
    /// Take the stairs underfoot, or travel to the nearest known ones.
    Stairs {
        /// Down (`>`) or up (`<`).
        down: bool,
    },
    /// Auto-explore.
    Explore,
    /// Travel to a place picked with a cursor.
    TravelTo,
    /// Turn auto-explore's picking up of items on or off.
    Autopickup,
    /// Auto-fight: walk to the nearest monster in view and fight it until it dies, the hero
    /// is badly hurt or another comes into view.
    Fight,
    /// Pick up.
    PickUp,
    /// The inventory.
    Inventory,
    /// Drink a potion.
    Quaff,
    /// Eat.
    Eat,
    /// Throw.
    Throw,
    /// Drop.
    Drop,
    /// Wield or wear (again: take off).
    Wield,
    /// Analyse at a lab.
    Analyse,
    /// Craft at a workbench.
    Craft,
    /// Open or close a door.
    Door,
    /// The look cursor.
    Look,
    /// The message log.
    Messages,
    /// Tiles or letters.
    Tiles,
    /// Take back a move (practice games).
    Undo,
    /// The wizard console (wizard games).
    Wizard,
    /// The help screen.
    Help,
    /// Save and quit.
    Save,
    /// Quit: end the game (scored, never continued).
    Quit,
    /// Nothing (Esc on the map).
    Cancel,
}

/// The help screen's sections, in order.
pub const SECTIONS: [&str; 3] = [MOVING, ITEMS, OTHER];
const MOVING: &str = "Moving";
const ITEMS: &str = "Items";
const OTHER: &str = "Other";

/// One line of Alchemy's keymap.
pub type Binding = alembic_session::keymap::Binding<Action>;
use alembic_session::keymap::bind;
pub use alembic_session::keymap::help_line;

use Key::Char as C;

/// Every key of the play screen.
pub const KEYMAP: &[Binding] = &[
    bind(
        DIRECTION_KEYS,
        "h j k l y u b n",
        Action::Move,
        MOVING,
        "move (vi keys; arrow keys, Home/End/PgUp/PgDn as diagonals, and 1-9 as on a \
         numpad too); walk into a monster to attack it, into a closed door to open it",
    ),
    bind(
        &[C('H'), C('J'), C('K'), C('L'), C('Y'), C('B'), C('N')],
        "H J K L Y B N",
        Action::Run,
        MOVING,
        "run (Shift+arrow too) until something interesting",
    ),
    bind(
        &[C('.'), C('5'), Key::Keypad(5)],
        ".  or  5",
        Action::Wait,
        MOVING,
        "wait a turn",
    ),
    bind(
        &[C('Z'), C('R')],
        "Z  or  R",
        Action::Rest,
        MOVING,
        "rest until your hit points are full, a monster comes into view or something \
         happens (any key stops it)",
    ),
    bind(
        &[C('s')],
        "s",
        Action::Search,
        MOVING,
        "search for 5 turns (stops as resting does)",
    ),
    bind(
        &[C('>')],
        ">",
        Action::Stairs { down: true },
        MOVING,
        "go down the stairs you stand on; elsewhere, travel to the nearest known stairs down",
    ),
    bind(
        &[C('<')],
        "<",
        Action::Stairs { down: false },
        MOVING,
        "climb the stairs you stand on; elsewhere, travel to the nearest known stairs up",
    ),
    bind(
        &[C('o')],
        "o",
        Action::Explore,
        MOVING,
        "explore: walk to the nearest unexplored place until something happens",
    ),
    bind(
        &[C('A')],
        "A",
        Action::Autopickup,
        MOVING,
        "explore picks up the items it sees, or stops doing so (off at first)",
    ),
    bind(
        &[C('G')],
        "G",
        Action::TravelTo,
        MOVING,
        "travel: pick a place you have seen with a cursor (< > jump to known stairs)",
    ),
    bind(
        &[Key::Tab],
        "Tab",
        Action::Fight,
        MOVING,
        "fight: walk to the nearest monster in view and fight it until it dies (stops below half health or when another comes into view)",
    ),
    bind(
        &[C(','), C('g')],
        ",  or  g",
        Action::PickUp,
        ITEMS,
        "pick up (a list when several things lie here)",
    ),
    bind(
        &[C('i')],
        "i",
        Action::Inventory,
        ITEMS,
        "inventory: choose an item to read about it and act on it",
    ),
    bind(
        &[C('q')],
        "q",
        Action::Quaff,
        ITEMS,
        "quaff (drink) a potion",
    ),
    bind(
        &[C('e')],
        "e",
        Action::Eat,
        ITEMS,
        "eat food, a herb or a mushroom",
    ),
    bind(
        &[C('t')],
        "t",
        Action::Throw,
        ITEMS,
        "throw: choose an item, then a target",
    ),
    bind(
        &[C('d')],
        "d",
        Action::Drop,
        ITEMS,
        "drop (take off worn things first)",
    ),
    bind(
        &[C('w')],
        "w",
        Action::Wield,
        ITEMS,
        "wield a weapon or wear armour (again to take it off)",
    ),
    bind(
        &[C('a')],
        "a",
        Action::Analyse,
        ITEMS,
        "analyse a potion or ingredient beside an analysis lab (it is used up)",
    ),
    bind(
        &[C('c')],
        "c",
        Action::Craft,
        ITEMS,
        "craft a potion from a known recipe (beside an alchemy workbench)",
    ),
    bind(
        &[C('C')],
        "C",
        Action::Door,
        OTHER,
        "close or open a door (then a direction)",
    ),
    bind(
        &[C('x'), C(';')],
        "x  or  ;",
        Action::Look,
        OTHER,
        "look around with a cursor (l is a vi key: east)",
    ),
    bind(&[C('m')], "m", Action::Messages, OTHER, "message log"),
    bind(
        &[Key::F(2)],
        "F2",
        Action::Tiles,
        OTHER,
        "tiles or letters on the map (in the window frontend)",
    ),
    bind(
        &[C('U')],
        "U",
        Action::Undo,
        OTHER,
        "take back a move (practice games only: --practice)",
    ),
    bind(
        &[C('~'), C('&')],
        "~  or  &",
        Action::Wizard,
        OTHER,
        "the wizard console (wizard games only: --wizard)",
    ),
    bind(
        &[C('?'), Key::F(1)],
        "?  or  F1",
        Action::Help,
        OTHER,
        "this help",
    ),
    bind(
        &[C('S')],
        "S",
        Action::Save,
        OTHER,
        "save and quit (continue from the start screen next time)",
    ),
    bind(
        &[C('Q')],
        "Q",
        Action::Quit,
        OTHER,
        "quit: the game ends here, scored as it stands (asks first)",
    ),
    bind(
        &[Key::Esc],
        "Esc",
        Action::Cancel,
        OTHER,
        "cancel a list or prompt",
    ),
];

/// What `input` does on the play screen: run keys first (Shift+direction), then the
/// direction keys (with the direction), then the table. `None` for a key the table does not
/// hold: the play screen says so.
#[must_use]
pub fn action_of(input: &Input) -> Option<(Action, Option<Dir>)> {
    if let Some(d) = run_key(input) {
        return Some((Action::Run, Some(d)));
    }
    if let Some(d) = direction_key(input) {
        return Some((Action::Move, Some(d)));
    }
    let key = plain_key(input)?;
    alembic_session::keymap::find(KEYMAP, key)
        .filter(|a| !matches!(a, Action::Move | Action::Run))
        .map(|a| (a, None))
}

/// The goal of the game, before the keys.
const INTRO: &str = "Alchemy: go down to depth 10 of the dungeon's 11 (the panel counts \
     them: Depth 3/11 is depth 3), take the Philosopher's Stone, and climb back out through \
     the exit on depth 1 (stand on the up stairs there and press <). Drink, \
     analyse and brew potions on the way: you start knowing none of them.";

/// What follows the keys.
const OUTRO: &[&str] = &[
    "Mouse: point at a cell to look at it; click a seen cell to travel there (it stops when \
     a monster comes into view); click next to you to move or attack; the wheel opens the \
     message log and scrolls lists.",
    "",
    "Item lists: a-z choose, < > turn pages. An item keeps its letter (a-z, then A-Z) in \
     every list for as long as you carry it.",
    "Look and target cursor: direction keys move it, H J K L Y U B N move it 8, Tab or + \
     jumps to the next creature or item, then to the features you remember (stairs, doors, \
     workbench, lab, fountain), - to the previous; Enter, t or . throws at the cursor; Esc \
     closes.",
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

/// The help screen: the goal, every binding of [`KEYMAP`] by section, the mouse and lists,
/// and the legend of the map made from the game's tile and prototype data.
#[must_use]
pub fn help_lines(ctx: &AlchemyCtx) -> Vec<String> {
    let mut lines = vec![INTRO.to_owned()];
    for section in SECTIONS {
        lines.push(String::new());
        lines.extend(alembic_session::keymap::help_section(KEYMAP, section));
    }
    lines.push(String::new());
    lines.extend(OUTRO.iter().map(|l| (*l).to_owned()));
    lines.push(String::new());
    lines.push(experience_help());
    let base;
    let lib = match ctx.game() {
        Some(g) => Some(g.library()),
        None => {
            base = alchemy::library::base_library().ok();
            base.as_ref()
        }
    };
    if let Some(Ok(sections)) = lib.map(alchemy::view::legend) {
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
    if ctx.tiles() {
        let t = |tile: Tile| tile.to_char();
        lines.push(String::new());
        lines.push("Tiles (F2 switches back to letters)".to_owned());
        lines.push(format!(
            "  {} you    {} potion    {} wall    {} rock    {} pillar    {} moss    {} magma",
            t(Tile::Hero),
            t(Tile::Potion),
            t(Tile::Wall),
            t(Tile::Rock),
            t(Tile::Pillar),
            t(Tile::Moss),
            t(Tile::Lava),
        ));
        lines.push(format!(
            "  monsters by family: {} bat {} bear {} rat {} snake {} undead {} goblin {} orc {} troll {} golem {} dragon",
            t(Tile::Bat),
            t(Tile::Bear),
            t(Tile::Rat),
            t(Tile::Snake),
            t(Tile::Undead),
            t(Tile::Goblin),
            t(Tile::Orc),
            t(Tile::Troll),
            t(Tile::Golem),
            t(Tile::Dragon),
        ));
        lines.push(format!(
            "  items: {} herb {} mushroom {} food {} stone {} weapon {} armour {} amulet",
            t(Tile::Herb),
            t(Tile::Mushroom),
            t(Tile::Food),
            t(Tile::Gem),
            t(Tile::Weapon),
            t(Tile::Armour),
            t(Tile::Amulet),
        ));
        lines.push(format!(
            "  scenery: {} fountain {} gravestone {} candelabra {} rune {} statue {} workbench {} lab {} gate",
            t(Tile::Fountain),
            t(Tile::Gravestone),
            t(Tile::Candelabra),
            t(Tile::Rune),
            t(Tile::Statue),
            t(Tile::Workbench),
            t(Tile::Lab),
            t(Tile::Gate),
        ));
        lines.push(format!(
            "  {} floor    {} closed door    {} open door    {} {} stairs down, up    {} water",
            t(Tile::Floor),
            t(Tile::DoorClosed),
            t(Tile::DoorOpen),
            t(Tile::StairsDown),
            t(Tile::StairsUp),
            t(Tile::Water),
        ));
        lines.push("  Look with x to tell kinds of one picture apart.".to_owned());
    }
    lines
}
