//! Alchemy on the session's start screen ([`alembic_session::start`]): its heading (the
//! flask), its colours, its help and score file, and how it starts and continues games.

use std::path::Path;

use alembic::Rgb;
use alembic_session::start::{
    ContinueError, Heading, NewGameError, StartHost, StartReply, StartScreen,
};
use alembic_ui::{Palette, Transition};

use super::colours::{self, PALETTE};
use super::play::PlayScreen;
use super::{AlchemyCtx, keymap, morgue};

/// A flask, for the title.
const ART: &[&str] = &[
    "   ___   ",
    "   | |   ",
    "   | |   ",
    "  /   \\  ",
    " / ~~~ \\ ",
    "( ~ ~ ~ )",
    " `-----' ",
];

impl StartHost for AlchemyCtx {
    fn heading(&self) -> Heading {
        Heading {
            name: "Alchemy",
            title: "A  L  C  H  E  M  Y",
            lines: &["Fetch the Philosopher's Stone from depth 10 and climb back out alive."],
            art: ART,
            title_colour: colours::HERO,
            art_colours: (
                Rgb::new(150, 170, 190),
                Some(('~', Rgb::new(170, 110, 255))),
            ),
        }
    }

    fn palette(&self) -> Palette {
        PALETTE
    }

    fn save_place(&self) -> Option<&Path> {
        self.default_save()
    }

    fn scores_file(&self) -> String {
        morgue::SCORES_FILE.to_owned()
    }

    fn help(&self) -> (String, Vec<String>) {
        ("Alchemy: help".to_owned(), keymap::help_lines(self))
    }

    fn practice_by_default(&self) -> bool {
        AlchemyCtx::practice_by_default(self)
    }

    fn new_game(&mut self, seed: Option<u64>, practice: bool) -> Result<(), NewGameError> {
        self.set_practice(practice);
        let seed = seed.unwrap_or_else(alembic_session::clock_seed);
        AlchemyCtx::new_game(self, seed).map_err(|e| NewGameError(e.to_string()))
    }

    fn continue_moves(&self) -> Option<usize> {
        let path = self.default_save()?;
        let rules = &*self.alchemy;
        let save = || {
            alembic_session::run::read_save(rules, path)
                .ok()
                .map(|s| s.game)
        };
        alembic_session::record::moves_after::<
            alembic_session::run::Step<
                <crate::ruleset::Alchemy as alembic_session::Ruleset>::Command,
            >,
        >(
            &alembic_session::record::beside(path),
            crate::record::GAME_NAME,
            save,
        )
    }

    fn continue_game(&mut self) -> Result<(), ContinueError> {
        let Some(path) = self.default_save().map(Path::to_path_buf) else {
            return Err(ContinueError("there is no save directory".into()));
        };
        self.load_game(&path)
            .map_err(|e| ContinueError(e.to_string()))
    }

    fn close_game(&mut self) {
        if self.game().is_some() {
            AlchemyCtx::close_game(self);
        }
    }

    fn play(&mut self) -> Transition<Self, StartScreen> {
        Transition::ask(PlayScreen::new(), |()| StartReply::GameOver)
    }
}
