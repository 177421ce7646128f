use std::path::Path;

use alembic_session::{LaunchError, LaunchOptions};

/// The Caves: a recording to watch, a save to continue, or a new game.
pub fn launch(opts: &LaunchOptions) -> Result<Box<dyn alembic_ui::App>, LaunchError> {
    let data =
        std::sync::Arc::new(crate::CavesData::from_choice(&opts.data).map_err(|source| {
            LaunchError::Data {
                game: opts.game.clone(),
                source,
            }
        })?);
    if let Some(path) = &opts.replay {
        let app = crate::replay_app_on(path, &data).map_err(|e| LaunchError::BadReplay {
            path: path.clone(),
            source: Box::new(e),
        })?;
        return Ok(Box::new(app));
    }
    let save_path = alembic_session::save_dir().map(|d| d.join(crate::save::SAVE_FILE));
    // Temporary files and copies left by processes that died while saving go first.
    if let Some(dir) = save_path.as_deref().and_then(Path::parent) {
        alembic_session::storage::sweep_leftovers(dir);
    }
    let ui = match &opts.load {
        Some(path) => crate::CavesUi::load_on(path, data).map_err(|e| match e {
            crate::save::CavesSaveError::Storage(alembic_session::storage::StorageError::Io {
                path,
                source,
            }) => LaunchError::ReadSave { path, source },
            other => LaunchError::BadSave {
                path: path.clone(),
                game: opts.game.clone(),
                source: Box::new(other),
            },
        })?,
        None => {
            let ui =
                crate::CavesUi::new_on(opts.seed.unwrap_or_else(alembic_session::clock_seed), data);
            match save_path {
                Some(p) => ui.with_save(p),
                None => ui,
            }
        }
    };
    // One window per save: the lock of the save this session writes, on its canonical path.
    let mut ui = ui;
    if let Some(path) = ui.save_path().map(Path::to_path_buf) {
        if opts.load.is_none()
            && let Some(dir) = path.parent()
        {
            let _ = std::fs::create_dir_all(dir);
        }
        match alembic_session::storage::SessionLock::acquire(&path) {
            Ok(lock) => ui.hold_lock(lock),
            Err(
                e @ (alembic_session::storage::StorageError::Locked { .. }
                | alembic_session::storage::StorageError::BadLock { .. }),
            ) => return Err(LaunchError::Busy(e)),
            // Nowhere to write a lock (a read-only directory): play on; saving will say so.
            Err(_) => {}
        }
    }
    Ok(Box::new(crate::app_with(
        ui.with_tiles(opts.tiles == Some(true)),
    )))
}
