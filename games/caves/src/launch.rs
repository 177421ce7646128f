//! Launching the Caves: the data and mods a launch names, the rules on them, and the
//! session that plays them.

use std::sync::Arc;

use alembic_session::{LaunchError, LaunchOptions};

use crate::{Caves, CavesData};

/// The Caves as `opts` ask: a recording to watch, a save to continue, or a new game, on the
/// shipped data or the data directory and mods `opts` name. Everything but the rules is the
/// session's ([`alembic_session::play::launch`]).
///
/// # Errors
/// [`LaunchError`]: data with mistakes, a bad save or recording, a save open elsewhere.
pub fn launch(opts: &LaunchOptions) -> Result<Box<dyn alembic_ui::App>, LaunchError> {
    let data = CavesData::from_choice(&opts.data).map_err(|source| LaunchError::Data {
        game: opts.game.clone(),
        source,
    })?;
    let rules = Caves::on(Arc::new(data)).map_err(|source| LaunchError::Setup {
        game: opts.game.clone(),
        source,
    })?;
    alembic_session::play::launch(rules, opts)
}
