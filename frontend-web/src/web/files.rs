//! The files: the page's scripts, the tile atlas, morgue files and recordings (finished
//! games' from the store, and plain names listed in the data directory: no path
//! traversal).

use std::sync::Arc;

use axum::extract::{Path as UrlPath, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::lobby;
use crate::web::error::{AppError, AppResult, blocking};
use crate::web::state::AppState;

/// The page's script.
const GAME_JS: &str = include_str!("../../static/game.js");

/// The lobby's script (it reloads the lobby): no page has an inline script, so the
/// Content-Security-Policy allows scripts from this server's files only.
const LOBBY_JS: &str = include_str!("../../static/lobby.js");

/// The lobby's script (`/lobby.js`).
pub(crate) async fn lobby_script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        LOBBY_JS,
    )
        .into_response()
}

/// The page's script (`/game.js`).
pub(crate) async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        GAME_JS,
    )
        .into_response()
}

/// The tile pictures (`/tiles.png`).
pub(crate) async fn atlas(State(st): State<AppState>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        st.atlas.as_ref().clone(),
    )
        .into_response()
}

/// What a file that is not there answers.
const NO_FILE: AppError = AppError::NotFound("no such file");

/// A morgue file (`/morgue/game-ID` from the store, or a name in `morgue/`).
pub(crate) async fn morgue_file(
    State(st): State<AppState>,
    UrlPath(name): UrlPath<String>,
) -> AppResult {
    if let Some(id) = lobby::stored_id(&name) {
        let store = Arc::clone(&st.server.store);
        let text = blocking(move || store.morgue(id)).await??.ok_or(NO_FILE)?;
        return Ok(plain_text(text.into_bytes()));
    }
    serve_listed(&st, lobby::MORGUE_DIR, &name).await
}

/// A recording (`/records/game-ID` of a finished game from the store, or a name in
/// `records/`).
pub(crate) async fn record_file(
    State(st): State<AppState>,
    UrlPath(name): UrlPath<String>,
) -> AppResult {
    if let Some(id) = lobby::stored_id(&name) {
        let store = Arc::clone(&st.server.store);
        let text = blocking(move || finished_recording(store.as_ref(), id))
            .await??
            .ok_or(NO_FILE)?;
        return Ok(plain_text(text.into_bytes()));
    }
    serve_listed(&st, lobby::RECORDS_DIR, &name).await
}

/// The recording of finished game `id` as a file's text; `None`: no such finished game (a
/// game in progress is not shown: its recording would tell what its player has not seen
/// played out yet to anyone).
fn finished_recording(
    store: &dyn crate::store::Store,
    id: u64,
) -> crate::store::Result<Option<String>> {
    let done = store
        .game(id)?
        .is_some_and(|g| g.status == crate::store::GameStatus::Finished);
    if !done {
        return Ok(None);
    }
    let lines = store.recording(id)?;
    if lines.is_empty() {
        return Ok(None);
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(Some(text))
}

/// `bytes` as text, never run or framed.
fn plain_text(bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, "default-src 'none'"),
        ],
        bytes,
    )
        .into_response()
}

/// Serve `name` from the data directory's `dir`, as text, only if it is a plain name
/// listed there (no path, no dot file): no path traversal, whatever the name holds.
async fn serve_listed(st: &AppState, dir: &str, name: &str) -> AppResult {
    let path = lobby::listed_file(&st.server.config.data_dir, dir, name).ok_or(NO_FILE)?;
    let read = blocking(move || alembic_games::storage::read_bounded(&path, 8 << 20)).await;
    // A file that cannot be read is no file, whatever the reason.
    let bytes = read.ok().and_then(Result::ok).ok_or(NO_FILE)?;
    Ok(plain_text(bytes))
}
