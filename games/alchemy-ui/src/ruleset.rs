//! Alchemy's board on the game contract. The rules are [`Alchemy`] in the rules crate
//! (`alembic-rl-alchemy`, re-exported here): its commands, typed events and refusals, its
//! data, save format, wizard commands and bot, which the headless runner (`alembic-sim
//! --game alchemy`) and recordings' verification use with no screen.
//!
//! Alchemy's own screens (this crate's [`ScreenStack`](alembic_ui::ScreenStack) over
//! [`AlchemyCtx`](crate::AlchemyCtx): prompts for items and targets, the inventory, the
//! crafting screens) keep their game in the session's [`Run`](alembic_session::run::Run),
//! as the generic screens do: saves, recordings, practice, the morgue and the scores are the
//! session's, on this contract. [`AlchemyBoard`] draws Alchemy's own board (map and status
//! panel) for the generic screens, such as the session's replay viewer.

use std::sync::Arc;

use alembic::Game;
use alembic_alchemy::Command;
pub use alembic_alchemy::contract::{Alchemy, Happened, random_command};
use alembic_session::Board;
use alembic_session::keymap::{Binding, bind};
use alembic_session::ruleset::View;
use alembic_ui::{Frame, Key, Rect};

/// The keys that play a command on their own; the rest of Alchemy's keys open prompts
/// ([`crate::keymap`]).
const KEYS: &[Binding<Command>] = &[
    bind(
        &[Key::Char('.')],
        ".",
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
    bind(
        &[Key::Char(',')],
        ",",
        Command::PickUp(None),
        "Actions",
        "pick up",
    ),
];

/// Alchemy's board, for the session's screens that show a game of it (the replay viewer):
/// the rules ([`Alchemy`], in the rules crate) drawn by this crate's screens.
#[derive(Clone)]
pub struct AlchemyBoard {
    rules: Arc<Alchemy>,
}

impl AlchemyBoard {
    /// The board of `rules`.
    #[must_use]
    pub fn new(rules: Arc<Alchemy>) -> AlchemyBoard {
        AlchemyBoard { rules }
    }

    /// The board of `rules`, shared as the session holds it.
    #[must_use]
    pub fn shared(rules: &Arc<Alchemy>) -> Arc<dyn Board<Alchemy>> {
        Arc::new(AlchemyBoard::new(rules.clone()))
    }
}

impl Board<Alchemy> for AlchemyBoard {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn draw(&self, game: &Game, frame: &mut Frame, area: Rect, view: &View) {
        // Alchemy's own board (map, light, memory, tiles, the status panel), drawn from a
        // context that only shows `game`: nothing is saved or recorded through it.
        let mut ctx = crate::AlchemyCtx::on(self.rules.clone(), None);
        ctx.tiles = Some(view.tiles);
        ctx.board_only = true;
        ctx.show_replay(game.clone());
        crate::status::draw_play_board(&ctx, frame, area);
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        // The session adds its own message rows.
        Some(crate::map::play_area())
    }
}
