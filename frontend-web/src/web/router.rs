//! Every route, by resource: the pages (`pages.rs`), the files (`files.rs`), the account
//! forms (`account.rs`), and the websockets that play (`play.rs`), watch (`watch.rs`) and
//! replay (`replay.rs`); with the body limit and the security headers on every response.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use axum::routing::{get, post};

use crate::web::state::AppState;
use crate::web::{account, files, pages, play, replay, watch};

/// The Content-Security-Policy of every page (files served as text have a stricter one):
/// scripts, images and websockets from this server only, no inline script, forms posted
/// here only, never framed.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(pages::lobby_page))
        .route("/play", get(pages::game_page))
        .route("/watch/{id}", get(pages::game_page))
        .route("/replay/{name}", get(pages::game_page))
        .route("/game.js", get(files::script))
        .route("/lobby.js", get(files::lobby_script))
        .route("/tiles.png", get(files::atlas))
        .route("/api/games", get(pages::api_games))
        .route("/api/stats", get(pages::api_stats))
        .route("/morgue/{name}", get(files::morgue_file))
        .route("/records/{name}", get(files::record_file))
        .route("/ws/play", get(play::ws_play))
        .route("/ws/watch/{id}", get(watch::ws_watch))
        .route("/ws/replay/{name}", get(replay::ws_replay))
        .route(
            "/register",
            get(account::register_page).post(account::register_post),
        )
        .route("/login", get(account::login_page).post(account::login_post))
        .route("/logout", post(account::logout_post))
        .route("/logout-everywhere", post(account::logout_everywhere_post))
        .route("/claim", post(account::claim_post))
        .route("/players/{name}", get(pages::player_page))
        .route("/games/{id}", get(pages::stored_game_page))
        .route("/health", get(pages::health))
        .route(
            "/delete-account",
            get(account::delete_account_page).post(account::delete_account_post),
        )
        // Every request body is small: the forms' fields are bounded far below this.
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            allowed_host,
        ))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// Whether `host` (a `Host` header's value) is one of `allowed` (each a name, or a name with
/// its port), without regard to case; any host when `allowed` is empty.
#[must_use]
pub fn host_allowed(allowed: &[String], host: Option<&str>) -> bool {
    if allowed.is_empty() {
        return true;
    }
    let Some(host) = host.map(str::to_ascii_lowercase) else {
        return false;
    };
    // "name:port" or "[v6]:port": the name is everything before the last colon that follows
    // the closing bracket, if any.
    let name = match host.rfind(':') {
        Some(i) if !host[i..].contains(']') => &host[..i],
        _ => host.as_str(),
    };
    allowed
        .iter()
        .map(|a| a.to_ascii_lowercase())
        .any(|a| a == host || a == name)
}

/// Refuse (421 Misdirected Request) a request for a host this server does not answer to
/// ([`crate::Config::allowed_hosts`]).
async fn allowed_host(
    axum::extract::State(st): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use axum::response::IntoResponse;
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if host_allowed(&st.server.config.allowed_hosts, host) {
        next.run(req).await
    } else {
        (
            axum::http::StatusCode::MISDIRECTED_REQUEST,
            "This server does not answer to that name.\n",
        )
            .into_response()
    }
}

/// Largest request body (a form), in bytes; more is refused with 413.
pub const MAX_BODY: usize = 4096;

/// The headers every response carries: not framed, not sniffed, no referrer to other
/// sites, and [`CSP`] unless the response has its own.
async fn security_headers(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    resp
}
