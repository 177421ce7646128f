//! Alchemy's board on the session every game plays on ([`alembic_session`]): its map with
//! torchlight, memory and tiles, its status panel, the keys that play a command and the keys
//! that ask first ([`ruleset::AlchemyBoard`]). The rules, the questions they answer (which
//! item, which direction, where to throw) and their journeys (travel, explore, rest,
//! auto-fight) are the rules crate's (`alembic-rl-alchemy`); the start screen, saves,
//! recordings and their viewer, practice, the wizard console, the morgue and the scores are
//! the session's, as for every game. Pure: it draws into [`alembic_ui::Frame`]s.
//!
//! ```
//! use alembic_ui::{Input, TestFrontend, run};
//! let game = alembic_alchemy::new_game(7, &alembic_alchemy::Rules::new()?)?;
//! let mut app = alembic_alchemy_ui::session_with_game(game, None, false, false)?;
//! // A step, then quit: `Q` `y` ends on the summary.
//! let keys = [Input::ch('l'), Input::ch('Q'), Input::ch('y')];
//! let mut fe = TestFrontend::new(100, 30, keys);
//! let _ = run(&mut fe, &mut app);
//! assert!(fe.frames()[0].contains_text("Depth 1/11"));
//! assert!(fe.last_frame().is_some_and(|f| f.contains_text("G A M E   O V E R")));
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

mod map;
pub use alembic_alchemy::morgue;
pub use map::{Hints, Shown, contrast, lit_wall_face, memory_colours, wall_mark};
pub mod record;
pub mod replay;
pub mod ruleset;
mod status;

use std::path::PathBuf;
use std::sync::Arc;

use alembic::Game;
use alembic_alchemy::{self as alchemy, Rules};
use alembic_ui::ScreenStack;

use ruleset::Alchemy;

/// The name of the save file inside [`alembic_session::save_dir`].
pub const SAVE_FILE: &str = "alchemy.save";

pub use alembic_session::seed_from_text;

/// The colours of the Alchemy UI: a warm, dark palette whose steps stay distinct in the
/// 256-colour fallback.
pub mod colours {
    use alembic::Rgb;
    use alembic_ui::Palette;

    /// The widgets' palette (boxes, lists, help).
    pub const PALETTE: Palette = Palette {
        text: Rgb::new(214, 208, 196),
        dim: Rgb::new(128, 122, 112),
        accent: Rgb::new(255, 196, 92),
        border: Rgb::new(150, 118, 72),
        bg: Rgb::new(0, 0, 0),
    };
    /// The hero, always drawn at full brightness so it never hides in the dark.
    pub const HERO: Rgb = Rgb::new(255, 230, 120);
    /// Game messages.
    pub const MESSAGE: Rgb = Rgb::new(232, 228, 216);
    /// Refusals and notes.
    pub const NOTE: Rgb = Rgb::new(255, 190, 100);
    /// Errors.
    pub const ERROR: Rgb = Rgb::new(255, 96, 80);
    /// Labels in the status panel.
    pub const LABEL: Rgb = Rgb::new(150, 140, 120);
    /// Values in the status panel.
    pub const VALUE: Rgb = Rgb::new(236, 232, 220);
    /// Good health, "\[OK\]".
    pub const GOOD: Rgb = Rgb::new(110, 220, 110);
    /// Hurt.
    pub const FAIR: Rgb = Rgb::new(240, 210, 80);
    /// Badly hurt, "[ingredients missing]".
    pub const BAD: Rgb = Rgb::new(240, 80, 70);
    /// Effects.
    pub const EFFECT: Rgb = Rgb::new(180, 150, 255);
    /// The status panel's background.
    pub const PANEL_BG: Rgb = Rgb::new(18, 16, 22);
    /// The face of solid rock (cave walls), before lighting.
    pub const ROCK_BG: Rgb = Rgb::new(66, 56, 46);
    /// The look cursor.
    pub const CURSOR_BG: Rgb = Rgb::new(230, 180, 70);
    /// A throw's path.
    pub const PATH_BG: Rgb = Rgb::new(70, 52, 20);
    /// A throw's path beyond where it will stop.
    pub const PATH_BLOCKED_BG: Rgb = Rgb::new(60, 22, 22);
}

fn rules_for(opts: &alembic_session::LaunchOptions) -> Result<Rules, alembic_session::LaunchError> {
    Rules::with_data(&opts.data).map_err(|e| match e {
        alchemy::RulesError::Data(source) => alembic_session::LaunchError::Data {
            game: opts.game.clone(),
            source,
        },
        alchemy::RulesError::Engine(e) => alembic_session::LaunchError::Setup {
            game: opts.game.clone(),
            source: Box::new(e),
        },
    })
}

/// Alchemy on the session every game plays on, straight into play on `game` (tests,
/// tools, debugging): the start screen sits below it, saves go to `save_path`, and the
/// game is a practice game (`U` takes moves back) or a wizard game as the flags say. "Play
/// again" counts on from seed 0.
///
/// # Errors
/// The rules could not be built (a bug in the shipped data).
pub fn session_with_game(
    game: Game,
    save_path: Option<PathBuf>,
    practice: bool,
    wizard: bool,
) -> Result<ScreenStack<alembic_session::play::Session<Alchemy>>, alembic_session::Cause> {
    let rules = Arc::new(Alchemy::new()?);
    let mut session =
        alembic_session::play::Session::with_board(rules, ruleset::AlchemyBoard::shared(), 0)
            .with_modes(practice, wizard)
            .with_game(game);
    if let Some(path) = save_path {
        session = session.with_save(path);
    }
    Ok(alembic_session::play::app_playing(session))
}

/// Start Alchemy as `opts` ask on the session every game plays on
/// ([`alembic_session::play::launch_with`]): its rules answer the session's questions and
/// journeys, and [`ruleset::AlchemyBoard`] draws it.
///
/// # Errors
/// As [`alembic_session::play::launch_with`]; the data asked for could not be read.
pub fn launch(
    opts: &alembic_session::LaunchOptions,
) -> Result<Box<dyn alembic_ui::App>, alembic_session::LaunchError> {
    let rules = rules_for(opts)?;
    let setup = |source: alembic_session::Cause| alembic_session::LaunchError::Setup {
        game: opts.game.clone(),
        source,
    };
    let rules = Arc::new(Alchemy::on(rules).map_err(setup)?);
    let board = ruleset::AlchemyBoard::shared();
    alembic_session::play::launch_with(rules, board, opts)
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
