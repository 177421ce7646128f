//! The pages: the lobby, the game page (play, watch, replay), a player's games, a
//! finished game, the JSON lobby and numbers, and `/health`.

use std::sync::Arc;

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::accounts;
use crate::lobby;
use crate::web::error::{AppError, AppResult, blocking};
use crate::web::extract::{BrowserOrNew, MaybeAccount, with_cookie};
use crate::web::state::AppState;

/// The page that plays, watches and replays (one page; its script reads the address).
const GAME_HTML: &str = include_str!("../../static/game.html");

/// The lobby (`/`).
pub(crate) async fn lobby_page(
    State(st): State<AppState>,
    BrowserOrNew { token, cookie }: BrowserOrNew,
    MaybeAccount(account): MaybeAccount,
) -> Response {
    let server = Arc::clone(&st.server);
    let html = blocking(move || lobby::page(&server, token.as_ref(), account.as_ref()))
        .await
        .unwrap_or_else(|_| crate::html::Html::literal("<p>the lobby could not be drawn</p>"));
    with_cookie(html.into_response(), cookie)
}

/// The page that plays, watches and replays (`/play`, `/watch/ID`, `/replay/NAME`).
pub(crate) async fn game_page(BrowserOrNew { cookie, .. }: BrowserOrNew) -> Response {
    with_cookie(Html(GAME_HTML).into_response(), cookie)
}

/// The games in progress, as JSON (`/api/games`).
pub(crate) async fn api_games(State(st): State<AppState>) -> Response {
    axum::Json(st.server.rows()).into_response()
}

/// The numbers the load script reads.
#[derive(serde::Serialize)]
struct Stats {
    games: usize,
    frames: u64,
    frame_bytes: u64,
    inputs: u64,
    rss_bytes: Option<u64>,
}

/// The numbers the load script reads (`/api/stats`).
pub(crate) async fn api_stats(State(st): State<AppState>) -> Response {
    let (frames, frame_bytes) = st.server.frames_sent();
    axum::Json(Stats {
        games: st.server.live_count(),
        frames,
        frame_bytes,
        inputs: st.server.inputs.load(std::sync::atomic::Ordering::Relaxed),
        rss_bytes: lobby::rss_bytes(),
    })
    .into_response()
}

/// An account's games (`/players/NAME`).
pub(crate) async fn player_page(
    State(st): State<AppState>,
    UrlPath(name): UrlPath<String>,
) -> AppResult {
    const NONE: AppError = AppError::NotFound("no such player");
    if accounts::check_name(&name).is_err() {
        return Err(NONE);
    }
    let server = Arc::clone(&st.server);
    let page = blocking(move || lobby::player_page(&server, &name)).await;
    Ok(page.ok().flatten().ok_or(NONE)?.into_response())
}

/// A finished game's page (`/games/ID`).
pub(crate) async fn stored_game_page(
    State(st): State<AppState>,
    UrlPath(id): UrlPath<String>,
) -> AppResult {
    let id = lobby::stored_id(&format!("game-{id}")).ok_or(AppError::NotFound("no such game"))?;
    let server = Arc::clone(&st.server);
    let page = blocking(move || lobby::game_page(&server, id)).await;
    let page = page
        .ok()
        .flatten()
        .ok_or(AppError::NotFound("no finished game of that number"))?;
    Ok(page.into_response())
}

/// What `/health` says: for a load balancer (its status code) and an operator.
#[derive(serde::Serialize)]
struct Health {
    /// `ok`, or why not.
    status: String,
    /// This server's name.
    server: String,
    /// `sqlite` or `postgres`.
    db: &'static str,
    /// Games this server runs.
    games_here: usize,
    /// Spectators watching this server's games.
    spectators: usize,
    /// What the store holds (every server's).
    store: Option<crate::store::Counts>,
    /// This server's group commits of moves since it started: transactions, and games'
    /// writes in them.
    commits: Commits,
}

/// This server's group commits ([`crate::store::group::GroupCommit::counts`]).
#[derive(serde::Serialize)]
struct Commits {
    /// Transactions committed.
    transactions: u64,
    /// Games' writes in them.
    writes: u64,
}

/// `/health`: 200 with what the store holds, or 503 with why not.
pub(crate) async fn health(State(st): State<AppState>) -> Response {
    let server = Arc::clone(&st.server);
    let counts = blocking(move || server.store.counts(accounts::now()))
        .await
        .map_err(|_| "the health check failed".to_owned())
        .and_then(|c| c.map_err(|e| format!("the database is unreachable: {e}")));
    let rows = st.server.rows();
    let mut h = Health {
        status: "ok".to_owned(),
        server: st.server.name.clone(),
        db: st.server.store.kind(),
        games_here: rows.len(),
        spectators: rows.iter().map(|r| r.spectators).sum(),
        store: None,
        commits: {
            let (transactions, writes) = st.server.commits.counts();
            Commits {
                transactions,
                writes,
            }
        },
    };
    let code = match counts {
        Ok(c) => {
            h.store = Some(c);
            StatusCode::OK
        }
        Err(why) => {
            h.status = why;
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    (code, axum::Json(h)).into_response()
}
