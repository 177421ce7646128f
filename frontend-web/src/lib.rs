//! `alembic-web`: play Alembic in the browser. A server runs the games and serves the page;
//! the page draws each game's cells on a canvas and sends keys and the mouse back over a
//! websocket. Anyone can watch any game live, step back through its past and return to
//! live; any recording plays back in the browser.
//!
//! Each game runs through the same [`alembic_ui::Frontend`] / [`alembic_ui::App`] contract
//! as the terminal and the window: [`frontend::WebFrontend`] is its frontend, on one
//! blocking thread per game, so the game code does not know it is on the web.
//!
//! Built on [axum](https://docs.rs/axum) and tokio: axum is the tokio project's own web
//! framework, well kept and widely used, built on hyper and the tower middleware ecosystem,
//! with websockets (tungstenite) behind its `ws` feature — one dependency tree for the pages,
//! the JSON lobby and the sockets.
//!
//! - [`accounts`]: names, passwords (argon2id), sessions, CSRF tokens, log-in rate limits.
//! - [`protocol`]: the wire format (deflated diffs of cells; JSON inputs).
//! - [`frontend`]: [`frontend::WebFrontend`] and the [`frontend::Hub`] that fans frames out.
//! - [`games`]: which games (a table of [`alembic_games::GameEntry`], any crate's) and how
//!   they start (new, saved, replay).
//! - [`run_games`]: the `alembic-web` command line over any table of games.
//! - [`limits`]: bounds on replay viewers and their work, attempts per key in a window.
//! - [`server`]: games in progress, owners, idling out, stopping.
//! - [`web`]: the routes by resource (pages, files, account, play, watch, replay), their
//!   extractors and one error type, [`web::AppError`].
//! - [`lobby`]: the lobby page and safe file serving.
//! - [`html`]: [`html::Html`], HTML escaped by construction, which every page is built with.
//! - [`atlas`]: the tile pictures as a PNG.
//! - [`sync`]: a game's save and recording files mirrored into the store after every
//!   command, and written back from it when a game is continued (on any server).
//! - [`store`]: accounts, sessions, saves, recordings, morgue files and scores in SQLite or
//!   PostgreSQL, behind one trait.

pub mod accounts;
pub mod atlas;
mod deflate;
pub mod frontend;
pub mod games;
pub mod html;
pub mod limits;
mod listen;
pub mod lobby;
pub mod protocol;
mod run;
pub mod server;
pub mod store;
pub mod sync;
pub mod web;

use std::future::Future;
use std::sync::Arc;

pub use run::run_games;
pub use server::{Config, Server};

/// Serve `server` on `listener` until `shutdown` completes; then every game saves and its
/// thread ends, every connection is told and closed, and this returns.
///
/// # Errors
/// The listener failed, or the tile atlas could not be made.
pub async fn serve(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (png, _) = atlas::atlas_png().map_err(std::io::Error::other)?;
    let state = web::AppState {
        server: Arc::clone(&server),
        atlas: Arc::new(png),
        hasher: Arc::new(accounts::Hasher::new()),
    };
    let app = web::router(state);
    // Idle games and games whose player left are saved and stopped.
    let reaper = {
        let server = Arc::clone(&server);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(500));
            let mut expired = tokio::time::Instant::now();
            loop {
                tick.tick().await;
                let s = Arc::clone(&server);
                let _ = tokio::task::spawn_blocking(move || s.reap()).await;
                // Abandoned anonymous games go from the store on a schedule.
                if expired.elapsed() >= server.config.expire_every {
                    expired = tokio::time::Instant::now();
                    let s = Arc::clone(&server);
                    let _ = tokio::task::spawn_blocking(move || s.expire_anonymous()).await;
                }
            }
        })
    };
    let stopped = {
        let server = Arc::clone(&server);
        async move {
            shutdown.await;
            let s = Arc::clone(&server);
            let _ = tokio::task::spawn_blocking(move || s.stop()).await;
            // Let the connections send their last message and close.
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        }
    };
    // Upgraded websockets are not waited for by the graceful shutdown; they were told.
    let result = listen::run(Arc::clone(&server), listener, app, stopped).await;
    reaper.abort();
    result
}
