//! The routes: pages, files, the JSON lobby, and the three websockets (play, watch, replay).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path as UrlPath, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::{self, Login, SESSION_COOKIE};
use crate::frontend::{Command, Hub, Published, Subscription};
use crate::games::{self, GameKind};
use crate::lobby;
use crate::protocol::{ClientMsg, MAX_WIRE_MESSAGE, ServerMsg, parse_client};
use crate::server::{DEFAULT_SIZE, LiveGame, Server, Session, Token};
use crate::store::Account;

/// The page that plays, watches and replays (one page; its script reads the address).
const GAME_HTML: &str = include_str!("../static/game.html");
/// The page's script.
const GAME_JS: &str = include_str!("../static/game.js");
/// The lobby's script (it reloads the lobby): no page has an inline script, so the
/// Content-Security-Policy allows scripts from this server's files only.
const LOBBY_JS: &str = include_str!("../static/lobby.js");
/// The Content-Security-Policy of every page (files served as text have a stricter one):
/// scripts, images and websockets from this server only, no inline script, forms posted
/// here only, never framed.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/// What a page that sends faster than its game plays is told.
const SLOW_DOWN: &str = "too many inputs waiting for the game; that one was dropped (slow down)";
/// What a websocket opened by another site's page is told.
const FOREIGN_ORIGIN: &str = "websocket from another site refused";
/// What a spectator is told who asks for the past while their last look back still works.
const PAST_BUSY: &str = "still closing your last look into the past; try again in a moment";
/// What an address that registers too often is told.
const TOO_MANY_REGISTRATIONS: &str =
    "Too many registrations from your address lately: try again in an hour.";
/// The cookie holding a browser's [`Token`].
pub const COOKIE: &str = "alembic_token";

/// Shared by every handler.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The server.
    pub server: Arc<Server>,
    /// The tile atlas (PNG).
    pub atlas: Arc<Vec<u8>>,
}

/// Every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(lobby_page))
        .route("/play", get(game_page))
        .route("/watch/{id}", get(game_page))
        .route("/replay/{name}", get(game_page))
        .route("/game.js", get(script))
        .route("/lobby.js", get(lobby_script))
        .route("/tiles.png", get(atlas))
        .route("/api/games", get(api_games))
        .route("/api/stats", get(api_stats))
        .route("/morgue/{name}", get(morgue_file))
        .route("/records/{name}", get(record_file))
        .route("/ws/play", get(ws_play))
        .route("/ws/watch/{id}", get(ws_watch))
        .route("/ws/replay/{name}", get(ws_replay))
        .route("/register", get(register_page).post(register_post))
        .route("/login", get(login_page).post(login_post))
        .route("/logout", post(logout_post))
        .route("/logout-everywhere", post(logout_everywhere_post))
        .route("/claim", post(claim_post))
        .route("/players/{name}", get(player_page))
        .route("/games/{id}", get(stored_game_page))
        .route("/health", get(health))
        .route(
            "/delete-account",
            get(delete_account_page).post(delete_account_post),
        )
        // Every request body is small: the forms' fields are bounded far below this.
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// Largest request body (a form), in bytes; more is refused with 413.
pub const MAX_BODY: usize = 4096;

/// The value of cookie `name`, if the request has one.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The browser's token, if its cookie holds one this server issued (a token the client
/// made up is no token).
fn token_of(st: &AppState, headers: &HeaderMap) -> Option<Token> {
    cookie(headers, COOKIE)
        .and_then(Token::parse)
        .filter(|t| st.server.token_ok(t))
}

/// The session token in the request's cookie, if well formed.
fn session_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .filter(|t| accounts::session_token_ok(t))
        .map(str::to_owned)
}

/// The account logged in with this request's session cookie (a store failure counts as
/// logged out).
async fn account_of(st: &AppState, headers: &HeaderMap) -> Option<Account> {
    let token = session_token(headers)?;
    let store = Arc::clone(&st.server.store);
    tokio::task::spawn_blocking(move || store.session(&token, accounts::now()))
        .await
        .ok()?
        .ok()?
}

/// The browser's token, and the `Set-Cookie` to send when it has none yet.
fn token_or_new(st: &AppState, headers: &HeaderMap) -> (Option<Token>, Option<HeaderValue>) {
    if let Some(t) = token_of(st, headers) {
        return (Some(t), None);
    }
    match st.server.issue_token() {
        Ok(t) => {
            // Lax: a link from another site keeps the anonymous player's game (a Strict
            // cookie is not sent on that navigation, so a new token would be issued).
            // Every form is CSRF-checked, and a websocket's Origin, whatever the cookie.
            let cookie = format!(
                "{COOKIE}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000{}",
                t.as_str(),
                if st.server.config.secure_cookies {
                    "; Secure"
                } else {
                    ""
                }
            );
            let v = HeaderValue::from_str(&cookie).ok();
            (Some(t), v)
        }
        Err(_) => (None, None),
    }
}

fn with_cookie(mut resp: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        resp.headers_mut().insert(header::SET_COOKIE, c);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

async fn lobby_page(State(st): State<AppState>, headers: HeaderMap) -> Response {
    let (token, cookie) = token_or_new(&st, &headers);
    let account = account_of(&st, &headers).await;
    let server = Arc::clone(&st.server);
    let html =
        tokio::task::spawn_blocking(move || lobby::page(&server, token.as_ref(), account.as_ref()))
            .await
            .unwrap_or_else(|_| "<p>the lobby could not be drawn</p>".to_owned());
    with_cookie(Html(html).into_response(), cookie)
}

async fn game_page(State(st): State<AppState>, headers: HeaderMap) -> Response {
    let (_, cookie) = token_or_new(&st, &headers);
    with_cookie(Html(GAME_HTML).into_response(), cookie)
}

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

async fn lobby_script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        LOBBY_JS,
    )
        .into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        GAME_JS,
    )
        .into_response()
}

async fn atlas(State(st): State<AppState>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        st.atlas.as_ref().clone(),
    )
        .into_response()
}

async fn api_games(State(st): State<AppState>) -> Response {
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

async fn api_stats(State(st): State<AppState>) -> Response {
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

async fn morgue_file(State(st): State<AppState>, UrlPath(name): UrlPath<String>) -> Response {
    if let Some(id) = lobby::stored_id(&name) {
        let store = Arc::clone(&st.server.store);
        let text = tokio::task::spawn_blocking(move || store.morgue(id)).await;
        return match text {
            Ok(Ok(Some(t))) => plain_text(t.into_bytes()),
            Ok(Ok(None)) => (StatusCode::NOT_FOUND, "no such file").into_response(),
            _ => store_failed(),
        };
    }
    serve_listed(&st, lobby::MORGUE_DIR, &name, "text/plain; charset=utf-8").await
}

async fn record_file(State(st): State<AppState>, UrlPath(name): UrlPath<String>) -> Response {
    if let Some(id) = lobby::stored_id(&name) {
        let store = Arc::clone(&st.server.store);
        let lines =
            tokio::task::spawn_blocking(move || finished_recording(store.as_ref(), id)).await;
        return match lines {
            Ok(Ok(Some(text))) => plain_text(text.into_bytes()),
            Ok(Ok(None)) => (StatusCode::NOT_FOUND, "no such file").into_response(),
            _ => store_failed(),
        };
    }
    serve_listed(&st, lobby::RECORDS_DIR, &name, "text/plain; charset=utf-8").await
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

async fn player_page(State(st): State<AppState>, UrlPath(name): UrlPath<String>) -> Response {
    if accounts::check_name(&name).is_err() {
        return (StatusCode::NOT_FOUND, "no such player").into_response();
    }
    let server = Arc::clone(&st.server);
    match tokio::task::spawn_blocking(move || lobby::player_page(&server, &name)).await {
        Ok(Some(h)) => Html(h).into_response(),
        _ => (StatusCode::NOT_FOUND, "no such player").into_response(),
    }
}

async fn stored_game_page(State(st): State<AppState>, UrlPath(id): UrlPath<String>) -> Response {
    let Some(id) = lobby::stored_id(&format!("game-{id}")) else {
        return (StatusCode::NOT_FOUND, "no such game").into_response();
    };
    let server = Arc::clone(&st.server);
    match tokio::task::spawn_blocking(move || lobby::game_page(&server, id)).await {
        Ok(Some(h)) => Html(h).into_response(),
        _ => (StatusCode::NOT_FOUND, "no finished game of that number").into_response(),
    }
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
}

async fn health(State(st): State<AppState>) -> Response {
    let server = Arc::clone(&st.server);
    let counts = tokio::task::spawn_blocking(move || server.store.counts(accounts::now())).await;
    let rows = st.server.rows();
    let mut h = Health {
        status: "ok".to_owned(),
        server: st.server.name.clone(),
        db: st.server.store.kind(),
        games_here: rows.len(),
        spectators: rows.iter().map(|r| r.spectators).sum(),
        store: None,
    };
    let code = match counts {
        Ok(Ok(c)) => {
            h.store = Some(c);
            StatusCode::OK
        }
        Ok(Err(e)) => {
            h.status = format!("the database is unreachable: {e}");
            StatusCode::SERVICE_UNAVAILABLE
        }
        Err(_) => {
            h.status = "the health check failed".to_owned();
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    (code, axum::Json(h)).into_response()
}

async fn delete_account_page(State(st): State<AppState>, headers: HeaderMap) -> Response {
    let (token, cookie) = token_or_new(&st, &headers);
    let Some(account) = account_of(&st, &headers).await else {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/login")]).into_response();
    };
    let Some(token) = token else {
        return store_failed();
    };
    with_cookie(
        Html(delete_page(&st, &token, &account.name, None)).into_response(),
        cookie,
    )
}

fn delete_page(st: &AppState, browser: &Token, name: &str, error: Option<&str>) -> String {
    let csrf = st.server.csrf.token(browser.as_str());
    let error = error.map_or_else(String::new, |e| {
        format!("<p id=error role=alert>{}</p>", lobby::escape(e))
    });
    format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — delete my account</title>\
         <style>{}</style></head><body><h1>Delete the account {}</h1>{error}\
         <p>This deletes the account, its sessions, and every game of it: saves, recordings, \
         morgue files and scores. It cannot be undone.</p>\
         <form method=post action=/delete-account><input type=hidden name=csrf value='{csrf}'>\
         <p><label>Password <input name=password type=password maxlength={} autocomplete=current-password required></label></p>\
         <p><button id=delete>Delete everything</button></p></form><p><a href=/>the lobby</a></p></body></html>",
        lobby::STYLE,
        lobby::escape(name),
        accounts::MAX_PASSWORD
    )
}

/// The delete form's fields.
#[derive(Debug, Default, Deserialize)]
pub struct DeleteForm {
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
    /// The account's password, asked again.
    #[serde(default)]
    pub password: String,
}

async fn delete_account_post(
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<DeleteForm>,
) -> Response {
    let (browser, account) = match form_of_account(&st, &headers, &form.csrf).await {
        Ok(x) => x,
        Err(refused) => return refused,
    };
    // The password is checked under the log-in's limits.
    let Some(ticket) = st
        .server
        .logins
        .enter(&addr.ip().to_string(), &account.name)
    else {
        return page_response(
            StatusCode::TOO_MANY_REQUESTS,
            delete_page(&st, &browser, &account.name, Some(accounts::TOO_MANY)),
            None,
        );
    };
    let server = Arc::clone(&st.server);
    let id = account.id;
    let hash = account.password_hash.clone();
    let done = tokio::task::spawn_blocking(move || {
        if form.password.len() > accounts::MAX_PASSWORD
            || !accounts::verify_password(&form.password, &hash)
        {
            return Ok(Err(accounts::BAD_LOGIN.to_owned()));
        }
        server.delete_account(id).map(|r| r.map(|_| ()))
    })
    .await;
    if !matches!(&done, Ok(Ok(Err(why))) if why == accounts::BAD_LOGIN) {
        ticket.succeeded();
    }
    match done {
        Ok(Ok(Ok(()))) => to_lobby(Some(session_cookie_cleared(&st))),
        Ok(Ok(Err(why))) => page_response(
            StatusCode::FORBIDDEN,
            delete_page(&st, &browser, &account.name, Some(&why)),
            None,
        ),
        _ => store_failed(),
    }
}

/// Serve `name` from the data directory's `dir` only if it is a plain name listed there
/// (no path, no dot file): no path traversal, whatever the name holds.
async fn serve_listed(st: &AppState, dir: &str, name: &str, mime: &'static str) -> Response {
    let Some(path) = lobby::listed_file(&st.server.config.data_dir, dir, name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let read =
        tokio::task::spawn_blocking(move || alembic_games::storage::read_bounded(&path, 8 << 20))
            .await;
    match read {
        Ok(Ok(bytes)) => (
            [
                (header::CONTENT_TYPE, mime),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (header::CONTENT_SECURITY_POLICY, "default-src 'none'"),
            ],
            bytes,
        )
            .into_response(),
        _ => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// `/ws/play`'s query.
#[derive(Debug, Default, Deserialize)]
pub struct PlayQuery {
    /// The game to start when the browser has none (`alchemy`, `caves`).
    #[serde(default)]
    pub game: Option<String>,
    /// The player's name for a new game.
    #[serde(default)]
    pub name: Option<String>,
    /// A game of theirs to continue.
    #[serde(default)]
    pub id: Option<u64>,
    /// Start a new game even though a saved one waits (`new=1`).
    #[serde(default)]
    pub new: Option<u8>,
}

/// A websocket from another site (its `Origin` names another host) is refused.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest.trim_end_matches('/') == host)
}

fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_WIRE_MESSAGE)
        .max_frame_size(MAX_WIRE_MESSAGE)
}

/// Refuse a websocket with a message the client reads, then close.
async fn refuse(mut socket: WebSocket, why: String) {
    let _ = socket
        .send(Message::Text(
            ServerMsg::error(why.clone()).to_json().into(),
        ))
        .await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1008,
            reason: why.chars().take(100).collect::<String>().into(),
        })))
        .await;
}

async fn send_json(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    send_in_time(socket, Message::Text(msg.to_json().into())).await
}

async fn ws_play(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(q): Query<PlayQuery>,
) -> Response {
    let token = token_of(&st, &headers);
    let origin_ok = same_origin(&headers);
    let account = account_of(&st, &headers).await.map(|a| a.id);
    upgrade(ws).on_upgrade(move |socket| async move {
        let server = st.server;
        let _guard = match server.connect(addr.ip()) {
            Ok(g) => g,
            Err(e) => return refuse(socket, e).await,
        };
        if !origin_ok {
            return refuse(socket, FOREIGN_ORIGIN.to_owned()).await;
        }
        let Some(token) = token else {
            return refuse(
                socket,
                "no player token: open the lobby (/) first so your browser gets one".to_owned(),
            )
            .await;
        };
        let kind = q.game.unwrap_or_else(|| "alchemy".to_owned());
        let name = lobby::clean_name(q.name.as_deref().unwrap_or(""));
        let s = Arc::clone(&server);
        let fresh = q.new == Some(1);
        let attached = tokio::task::spawn_blocking(move || {
            s.attach((addr.ip(), &token), account, q.id, &kind, &name, fresh)
        })
        .await;
        let (game, kicked, generation) = match attached {
            Ok(Ok(x)) => x,
            Ok(Err(e)) => return refuse(socket, e.to_string()).await,
            Err(_) => return refuse(socket, "the game could not start".to_owned()).await,
        };
        play_loop(socket, &server, &game, kicked).await;
        server.player_left(&game, generation);
    })
}

async fn play_loop(
    mut socket: WebSocket,
    server: &Arc<Server>,
    game: &Arc<LiveGame>,
    mut kicked: tokio::sync::oneshot::Receiver<&'static str>,
) {
    let Some(mut sub) = greet(&mut socket, game.id, game.kind.name(), "player", &game.hub).await
    else {
        return;
    };
    let mut ping = pinger(server);
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if !send_in_time(&mut socket, Message::Ping(Default::default())).await { return; }
            }
            msg = socket.recv() => {
                let text = match text_of(&mut socket, msg).await {
                    Read::Text(t) => t,
                    Read::Skip => continue,
                    Read::Done => return,
                };
                let queued = match parse_client(&text) {
                    Ok(ClientMsg::Input { input }) => server.player_input(game, Command::Input(input)),
                    Ok(ClientMsg::Resize { w, h }) => server.player_input(game, Command::Resize(w, h)),
                    Err(e) => {
                        if !send_json(&mut socket, &ServerMsg::error(e.to_string())).await { return; }
                        true
                    }
                };
                if !queued && !send_json(&mut socket, &ServerMsg::error(SLOW_DOWN)).await {
                    return;
                }
            }
            p = sub.rx.recv() => {
                if !forward(&mut socket, p, &game.hub, &mut sub).await { return; }
            }
            why = &mut kicked => {
                let why = why.unwrap_or(crate::server::OTHER_TAB);
                let _ = send_json(&mut socket, &ServerMsg::Ended { msg: why.to_owned() }).await;
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
        }
    }
}

/// Say hello (the game's id and kind, and this connection's role) and send the current frame
/// of `hub`; the subscription to follow it, or `None` when the connection is done.
async fn greet(
    socket: &mut WebSocket,
    id: u64,
    game: &str,
    role: &str,
    hub: &Hub,
) -> Option<Subscription> {
    let hello = ServerMsg::Hello {
        id,
        game: game.to_owned(),
        role: role.to_owned(),
    };
    if !send_json(socket, &hello).await {
        return None;
    }
    let mut sub = hub.subscribe();
    send_current(socket, &mut sub).await.then_some(sub)
}

/// What one websocket message is to a loop that reads text.
enum Read {
    /// A text message to parse.
    Text(axum::extract::ws::Utf8Bytes),
    /// Nothing to act on (a ping, or a binary message already answered with an error).
    Skip,
    /// The connection is closed or broken.
    Done,
}

/// Sort one received websocket message; a binary one is answered with an error here.
async fn text_of(socket: &mut WebSocket, msg: Option<Result<Message, axum::Error>>) -> Read {
    match msg {
        Some(Ok(Message::Text(t))) => Read::Text(t),
        Some(Ok(Message::Binary(_))) => {
            let e = ServerMsg::error(crate::protocol::BadMessage::Binary.to_string());
            if send_json(socket, &e).await {
                Read::Skip
            } else {
                Read::Done
            }
        }
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Read::Skip,
        Some(Ok(Message::Close(_)) | Err(_)) | None => Read::Done,
    }
}

/// Longest a client may take to accept one message before it is cut off: a page that
/// stops reading (or reads slower than its game plays) holds its own connection only, never
/// the game or its other viewers (frames are fanned out without waiting for anyone), and
/// not for long.
pub const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Pings every third of the idle timeout: a browser answers them by itself, so a
/// websocket stays open while its page is there, however long its player thinks.
fn pinger(server: &Server) -> tokio::time::Interval {
    let period = (server.config.conn_idle_timeout / 3).max(std::time::Duration::from_millis(100));
    let mut i = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    i
}

/// Send `msg`, giving up after [`SEND_TIMEOUT`]. `false`: the connection is done.
async fn send_in_time(socket: &mut WebSocket, msg: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Send a subscription's current frame (or its end). `false`: the connection is done.
async fn send_current(socket: &mut WebSocket, sub: &mut Subscription) -> bool {
    if let Some(f) = sub.current.take()
        && !send_in_time(socket, Message::Binary(f.into())).await
    {
        return false;
    }
    if let Some(why) = sub.ended.take() {
        let _ = send_json(socket, &ServerMsg::Ended { msg: why }).await;
        let _ = socket.send(Message::Close(None)).await;
        return false;
    }
    if let Some(msg) = sub.notice.take() {
        return send_json(socket, &ServerMsg::Notice { msg }).await;
    }
    true
}

/// Forward one published message. `false`: the connection is done.
async fn forward(
    socket: &mut WebSocket,
    p: Result<Published, RecvError>,
    hub: &Hub,
    sub: &mut Subscription,
) -> bool {
    match p {
        Ok(Published::Frame(m)) => {
            send_in_time(socket, Message::Binary(m.as_ref().clone().into())).await
        }
        Ok(Published::Ended(why)) => {
            let _ = send_json(socket, &ServerMsg::Ended { msg: why }).await;
            let _ = socket.send(Message::Close(None)).await;
            false
        }
        Ok(Published::Notice(msg)) => send_json(socket, &ServerMsg::Notice { msg }).await,
        // Fell behind: start again from a whole frame.
        Err(RecvError::Lagged(_)) => {
            *sub = hub.subscribe();
            send_current(socket, sub).await
        }
        Err(RecvError::Closed) => false,
    }
}

async fn ws_watch(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let origin_ok = same_origin(&headers);
    upgrade(ws).on_upgrade(move |socket| async move {
        let server = st.server;
        let _guard = match server.connect(addr.ip()) {
            Ok(g) => g,
            Err(e) => return refuse(socket, e).await,
        };
        if !origin_ok {
            return refuse(socket, FOREIGN_ORIGIN.to_owned()).await;
        }
        let Some(game) = id.parse::<u64>().ok().and_then(|id| server.live(id)) else {
            return refuse(
                socket,
                format!("there is no game {} in progress", lobby::escape(&id)),
            )
            .await;
        };
        game.state().spectators += 1;
        watch_loop(socket, &server, &game).await;
        let mut st = game.state();
        st.spectators = st.spectators.saturating_sub(1);
    })
}

/// Keys that take a spectator into the game's past (the replay viewer's keys).
fn past_key(input: &alembic_ui::Input) -> bool {
    use alembic_ui::Key;
    matches!(
        alembic_ui::plain_key(input),
        Some(
            Key::Left
                | Key::Right
                | Key::Home
                | Key::PageUp
                | Key::PageDown
                | Key::Char(' ' | '<' | '>' | ',' | '.')
        )
    )
}

/// Keys that bring a spectator back to the live game.
fn live_key(input: &alembic_ui::Input) -> bool {
    use alembic_ui::Key;
    matches!(
        alembic_ui::plain_key(input),
        Some(Key::Esc | Key::Char('q' | 'L'))
    )
}

async fn watch_loop(mut socket: WebSocket, server: &Arc<Server>, game: &Arc<LiveGame>) {
    let Some(mut sub) = greet(
        &mut socket,
        game.id,
        game.kind.name(),
        "spectator",
        &game.hub,
    )
    .await
    else {
        return;
    };
    // Looking into the past: a replay viewer of the game's recording so far, private to
    // this spectator (the player's game is not touched).
    let mut past: Option<(Session, Subscription)> = None;
    // The last look back's thread, until it has ended: one at a time per connection, so
    // a page that opens and closes the past fast waits for its last one to finish.
    let mut last_done: Option<Arc<std::sync::atomic::AtomicBool>> = None;
    let mut size = DEFAULT_SIZE;
    let mut ping = pinger(server);
    loop {
        let live = past.is_none();
        tokio::select! {
            _ = ping.tick() => {
                if !send_in_time(&mut socket, Message::Ping(Default::default())).await { return; }
            }
            msg = socket.recv() => {
                let text = match text_of(&mut socket, msg).await {
                    Read::Text(t) => t,
                    Read::Skip => continue,
                    Read::Done => return,
                };
                let reply = match parse_client(&text) {
                    Err(e) => Some(ServerMsg::error(e.to_string())),
                    Ok(ClientMsg::Resize { w, h }) => {
                        size = (w, h);
                        if let Some((s, _)) = &past { let _ = s.tx.try_send(Command::Resize(w, h)); }
                        None
                    }
                    Ok(ClientMsg::Input { input }) => match &past {
                        Some(_) if live_key(&input) => {
                            last_done = past.take().map(|(s, _)| Arc::clone(&s.done));
                            sub = game.hub.subscribe();
                            if !send_current(&mut socket, &mut sub).await { return; }
                            Some(ServerMsg::Notice { msg: "Live.".to_owned() })
                        }
                        Some((s, _)) => s.tx.try_send(Command::Input(input)).err().map(|_| ServerMsg::error(SLOW_DOWN)),
                        None if past_key(&input) && last_done.as_ref().is_some_and(|d| !d.load(std::sync::atomic::Ordering::Acquire)) => {
                            Some(ServerMsg::error(PAST_BUSY))
                        }
                        None if past_key(&input) => {
                            match open_past(server, game, size).await {
                                Ok(mut p) => {
                                    let _ = p.0.tx.try_send(Command::Input(alembic_ui::Input::key(alembic_ui::Key::End)));
                                    let _ = p.0.tx.try_send(Command::Input(input));
                                    if !send_current(&mut socket, &mut p.1).await { return; }
                                    past = Some(p);
                                    Some(ServerMsg::Notice { msg: "The past: ← → step, Home End jump, space plays; Esc or L: back to live.".to_owned() })
                                }
                                Err(e) => Some(ServerMsg::error(format!("cannot look back: {e}"))),
                            }
                        }
                        None => Some(ServerMsg::error("you are watching: spectators cannot send input to this game (← or Home look back through it)")),
                    },
                };
                if let Some(r) = reply
                    && !send_json(&mut socket, &r).await { return; }
            }
            p = sub.rx.recv(), if live => {
                if !forward(&mut socket, p, &game.hub, &mut sub).await { return; }
            }
            p = async {
                match past.as_mut() {
                    Some((_, s)) => s.rx.recv().await,
                    None => std::future::pending().await,
                }
            } => {
                let ended = matches!(p, Ok(Published::Ended(_)) | Err(RecvError::Closed));
                if ended {
                    last_done = past.take().map(|(s, _)| Arc::clone(&s.done));
                    sub = game.hub.subscribe();
                    if !send_current(&mut socket, &mut sub).await { return; }
                    if !send_json(&mut socket, &ServerMsg::Notice { msg: "Live.".to_owned() }).await { return; }
                } else if let Some((s, ps)) = past.as_mut() {
                    let hub = Arc::clone(&s.hub);
                    if !forward(&mut socket, p, &hub, ps).await { return; }
                }
            }
        }
    }
}

async fn open_past(
    server: &Arc<Server>,
    game: &Arc<LiveGame>,
    size: (u16, u16),
) -> Result<(Session, Subscription), String> {
    let recording = alembic_games::record::beside(&game.save);
    if !recording.is_file() {
        return Err("nothing is recorded yet".to_owned());
    }
    let kind = game.kind;
    let id = game.id;
    let s = Arc::clone(server);
    let session = tokio::task::spawn_blocking(move || {
        s.session(Some(id), size, move |tiles| {
            games::replay(kind, &recording, tiles)
        })
    })
    .await
    .map_err(|e| e.to_string())??;
    let sub = session.hub.subscribe();
    Ok((session, sub))
}

async fn ws_replay(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    UrlPath(name): UrlPath<String>,
) -> Response {
    let origin_ok = same_origin(&headers);
    upgrade(ws).on_upgrade(move |socket| async move {
        let server = st.server;
        let _guard = match server.connect(addr.ip()) {
            Ok(g) => g,
            Err(e) => return refuse(socket, e).await,
        };
        if !origin_ok {
            return refuse(socket, FOREIGN_ORIGIN.to_owned()).await;
        }
        let found = match lobby::stored_id(&name) {
            Some(id) => {
                let s = Arc::clone(&server);
                tokio::task::spawn_blocking(move || s.stored_recording(id))
                    .await
                    .ok()
                    .flatten()
                    .map(|(p, k)| (Some(p), Some(k)))
                    .unwrap_or((None, None))
            }
            None => (
                lobby::listed_file(&server.config.data_dir, lobby::RECORDS_DIR, &name),
                GameKind::of_recording(&name),
            ),
        };
        let (Some(path), Some(kind)) = found else {
            return refuse(
                socket,
                format!("there is no recording {}", lobby::escape(&name)),
            )
            .await;
        };
        let s = Arc::clone(&server);
        let session = tokio::task::spawn_blocking(move || {
            s.session(None, DEFAULT_SIZE, move |tiles| {
                games::replay(kind, &path, tiles)
            })
        })
        .await;
        let session = match session {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return refuse(socket, format!("cannot replay: {e}")).await,
            Err(_) => return refuse(socket, "cannot replay".to_owned()).await,
        };
        replay_loop(socket, &session, kind, &server).await;
    })
}

async fn replay_loop(mut socket: WebSocket, session: &Session, kind: GameKind, server: &Server) {
    let mut stopping = server.stopping();
    let Some(mut sub) = greet(&mut socket, 0, kind.name(), "replay", &session.hub).await else {
        return;
    };
    let mut ping = pinger(server);
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if !send_in_time(&mut socket, Message::Ping(Default::default())).await { return; }
            }
            msg = socket.recv() => {
                let text = match text_of(&mut socket, msg).await {
                    Read::Text(t) => t,
                    Read::Skip => continue,
                    Read::Done => return,
                };
                match parse_client(&text) {
                    Ok(ClientMsg::Input { input }) => {
                        if session.tx.try_send(Command::Input(input)).is_err() && !send_json(&mut socket, &ServerMsg::error(SLOW_DOWN)).await { return; }
                    }
                    Ok(ClientMsg::Resize { w, h }) => { let _ = session.tx.try_send(Command::Resize(w, h)); }
                    Err(e) => if !send_json(&mut socket, &ServerMsg::error(e.to_string())).await { return; },
                }
            }
            p = sub.rx.recv() => {
                if !forward(&mut socket, p, &session.hub, &mut sub).await { return; }
            }
            _ = stopping.changed() => {
                let _ = send_json(&mut socket, &ServerMsg::Ended { msg: "The server is stopping.".to_owned() }).await;
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
        }
    }
}

/// The fields of the account forms (all optional: a missing one is an empty one).
#[derive(Debug, Default, Deserialize)]
pub struct AccountForm {
    /// The account's name.
    #[serde(default)]
    pub name: String,
    /// Its password.
    #[serde(default)]
    pub password: String,
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
}

/// Which account page.
#[derive(Clone, Copy, Debug)]
enum AccountPage {
    Login,
    Register,
}

/// The log-in or registration page, with `error` (escaped) if any.
fn account_page(
    st: &AppState,
    browser: Option<&Token>,
    page: AccountPage,
    error: Option<&str>,
) -> String {
    let csrf = browser.map_or_else(String::new, |t| st.server.csrf.token(t.as_str()));
    let (title, action, button, other) = match page {
        AccountPage::Login => (
            "Log in",
            "/login",
            "Log in",
            "<a href=/register>Register</a> instead",
        ),
        AccountPage::Register => (
            "Register",
            "/register",
            "Register",
            "<a href=/login>Log in</a> instead",
        ),
    };
    let error = error.map_or_else(String::new, |e| {
        format!("<p id=error role=alert>{}</p>", lobby::escape(e))
    });
    let rules = match page {
        AccountPage::Register => format!(
            "<p>A name is 1 to {} letters, digits, _ or -; a password {} to {} bytes.</p>",
            accounts::MAX_NAME,
            accounts::MIN_PASSWORD,
            accounts::MAX_PASSWORD
        ),
        AccountPage::Login => String::new(),
    };
    format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — {title}</title>\
         <meta name=viewport content='width=device-width'><style>{}</style></head><body>\
         <h1>Alembic — {title}</h1>{error}{rules}\
         <form method=post action={action}><input type=hidden name=csrf value='{csrf}'>\
         <p><label>Name <input name=name maxlength={} autocomplete=username required></label></p>\
         <p><label>Password <input name=password type=password maxlength={} autocomplete={} required></label></p>\
         <p><button>{button}</button></p></form><p>{other} · <a href=/>the lobby</a></p></body></html>",
        lobby::STYLE,
        accounts::MAX_NAME,
        accounts::MAX_PASSWORD,
        match page {
            AccountPage::Login => "current-password",
            AccountPage::Register => "new-password",
        },
    )
}

/// A page response with `status`, no caching, and the browser token's cookie if new.
fn page_response(status: StatusCode, html: String, cookie: Option<HeaderValue>) -> Response {
    with_cookie((status, Html(html)).into_response(), cookie)
}

async fn register_page(State(st): State<AppState>, headers: HeaderMap) -> Response {
    let (token, cookie) = token_or_new(&st, &headers);
    page_response(
        StatusCode::OK,
        account_page(&st, token.as_ref(), AccountPage::Register, None),
        cookie,
    )
}

async fn login_page(State(st): State<AppState>, headers: HeaderMap) -> Response {
    let (token, cookie) = token_or_new(&st, &headers);
    page_response(
        StatusCode::OK,
        account_page(&st, token.as_ref(), AccountPage::Login, None),
        cookie,
    )
}

/// The refusal of a form without the right CSRF token: nothing was done.
fn csrf_refused() -> Response {
    (
        StatusCode::FORBIDDEN,
        [(header::CACHE_CONTROL, "no-store")],
        Html("<!doctype html><title>Refused</title><p>This form is out of date or came from another site, so nothing was done. <a href=/>Back to the lobby</a>, reload and try again.</p>"),
    )
        .into_response()
}

/// The browser's token if `sent` is its CSRF token.
fn csrf_ok(st: &AppState, headers: &HeaderMap, sent: &str) -> Option<Token> {
    let t = token_of(st, headers)?;
    st.server.csrf.check(t.as_str(), sent).then_some(t)
}

/// Go back to the lobby, with `cookie` set.
fn to_lobby(cookie: Option<String>) -> Response {
    let mut resp = (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    if let Some(v) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        resp.headers_mut().append(header::SET_COOKIE, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

fn session_cookie(st: &AppState, token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{}",
        crate::store::SESSION_SECS,
        if st.server.config.secure_cookies {
            "; Secure"
        } else {
            ""
        }
    )
}

fn session_cookie_cleared(st: &AppState) -> String {
    format!(
        "{SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0{}",
        if st.server.config.secure_cookies {
            "; Secure"
        } else {
            ""
        }
    )
}

fn store_failed() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "the accounts database failed; try again later",
    )
        .into_response()
}

async fn register_post(
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<AccountForm>,
) -> Response {
    let Some(browser) = csrf_ok(&st, &headers, &form.csrf) else {
        return csrf_refused();
    };
    let key = format!("ip:{}", addr.ip());
    if !st
        .server
        .registrations
        .try_take(&[(&key, st.server.config.registrations_per_hour)])
    {
        return page_response(
            StatusCode::TOO_MANY_REQUESTS,
            account_page(
                &st,
                Some(&browser),
                AccountPage::Register,
                Some(TOO_MANY_REGISTRATIONS),
            ),
            None,
        );
    }
    let store = Arc::clone(&st.server.store);
    let made = tokio::task::spawn_blocking(move || {
        accounts::register(store.as_ref(), &form.name, &form.password, accounts::now())
    })
    .await;
    match made {
        Ok(Ok((_, session))) => to_lobby(Some(session_cookie(&st, &session))),
        Ok(Err(why)) => page_response(
            StatusCode::BAD_REQUEST,
            account_page(&st, Some(&browser), AccountPage::Register, Some(&why)),
            None,
        ),
        Err(_) => store_failed(),
    }
}

async fn login_post(
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<AccountForm>,
) -> Response {
    let Some(browser) = csrf_ok(&st, &headers, &form.csrf) else {
        return csrf_refused();
    };
    let store = Arc::clone(&st.server.store);
    let ip = addr.ip().to_string();
    // Counted before the password is checked: a burst of attempts at once is counted one
    // by one, and the ones over the limit are never checked.
    let Some(ticket) = st.server.logins.enter(&ip, &form.name) else {
        return page_response(
            StatusCode::TOO_MANY_REQUESTS,
            account_page(
                &st,
                Some(&browser),
                AccountPage::Login,
                Some(accounts::TOO_MANY),
            ),
            None,
        );
    };
    let tried = tokio::task::spawn_blocking(move || {
        accounts::log_in(
            store.as_ref(),
            &form.name,
            &form.password,
            &ip,
            accounts::now(),
        )
    })
    .await;
    let (status, why) = match tried {
        Ok(Ok(Login::Ok(_, session))) => {
            ticket.succeeded();
            return to_lobby(Some(session_cookie(&st, &session)));
        }
        Ok(Ok(Login::Bad)) => (StatusCode::UNAUTHORIZED, accounts::BAD_LOGIN),
        Ok(Ok(Login::Limited)) => (StatusCode::TOO_MANY_REQUESTS, accounts::TOO_MANY),
        Ok(Err(_)) | Err(_) => return store_failed(),
    };
    page_response(
        status,
        account_page(&st, Some(&browser), AccountPage::Login, Some(why)),
        None,
    )
}

/// The fields of the forms that only carry their CSRF token.
#[derive(Debug, Default, Deserialize)]
pub struct CsrfForm {
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
}

async fn logout_post(
    State(st): State<AppState>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<CsrfForm>,
) -> Response {
    if csrf_ok(&st, &headers, &form.csrf).is_none() {
        return csrf_refused();
    }
    if let Some(token) = session_token(&headers) {
        let store = Arc::clone(&st.server.store);
        match tokio::task::spawn_blocking(move || store.revoke_session(&token)).await {
            Ok(Ok(_)) => {}
            _ => return store_failed(),
        }
    }
    to_lobby(Some(session_cookie_cleared(&st)))
}

async fn logout_everywhere_post(
    State(st): State<AppState>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<CsrfForm>,
) -> Response {
    if csrf_ok(&st, &headers, &form.csrf).is_none() {
        return csrf_refused();
    }
    if let Some(account) = account_of(&st, &headers).await {
        let store = Arc::clone(&st.server.store);
        match tokio::task::spawn_blocking(move || store.revoke_all_sessions(account.id)).await {
            Ok(Ok(_)) => {}
            _ => return store_failed(),
        }
        // And its games' open connections on this server.
        st.server.end_connections_of(account.id);
    }
    to_lobby(Some(session_cookie_cleared(&st)))
}

/// A logged-in account's form: its browser and account when the CSRF token is right and a
/// session is open; otherwise the answer to send (403, or to the log-in page).
async fn form_of_account(
    st: &AppState,
    headers: &HeaderMap,
    csrf: &str,
) -> Result<(Token, Account), Response> {
    let Some(browser) = csrf_ok(st, headers, csrf) else {
        return Err(csrf_refused());
    };
    let Some(account) = account_of(st, headers).await else {
        return Err((StatusCode::SEE_OTHER, [(header::LOCATION, "/login")]).into_response());
    };
    Ok((browser, account))
}

async fn claim_post(
    State(st): State<AppState>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<CsrfForm>,
) -> Response {
    let (browser, account) = match form_of_account(&st, &headers, &form.csrf).await {
        Ok(x) => x,
        Err(refused) => return refused,
    };
    let server = Arc::clone(&st.server);
    match tokio::task::spawn_blocking(move || server.claim(&browser, account.id)).await {
        Ok(Ok(_)) => to_lobby(None),
        Ok(Err(crate::store::StoreError::NotOwner(id))) => (
            StatusCode::CONFLICT,
            Html(format!("<!doctype html><title>Not claimed</title><p>Game {id} belongs to another account. <a href=/>Back to the lobby</a></p>")),
        )
            .into_response(),
        _ => store_failed(),
    }
}
