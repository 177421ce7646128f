//! A spectator's websocket (`/ws/watch/ID`): the game live, and a private look into its
//! past (a replay viewer of its recording, within the viewers' budget).

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path as UrlPath, State};
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use crate::frontend::{Command, Published, Subscription};
use crate::games;
use crate::lobby;
use crate::protocol::{ClientMsg, ServerMsg, parse_client};
use crate::server::{DEFAULT_SIZE, LiveGame, Server, Session};
use crate::web::error::blocking;
use crate::web::extract::{Place, SameOrigin};
use crate::web::sockets::{
    FOREIGN_ORIGIN, Read, SLOW_DOWN, forward, greet, pinger, refuse, send_current, send_in_time,
    send_json, text_of, upgrade,
};
use crate::web::state::AppState;

/// What a spectator is told who asks for the past while their last look back still works.
const PAST_BUSY: &str = "still closing your last look into the past; try again in a moment";

/// A spectator's websocket (`/ws/watch/ID`).
pub(crate) async fn ws_watch(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    Place(place): Place,
    SameOrigin(origin_ok): SameOrigin,
    UrlPath(id): UrlPath<String>,
) -> Response {
    upgrade(ws).on_upgrade(move |socket| async move {
        let server = st.server;
        let _guard = match place {
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
                        if let Some((s, _)) = &past { let _ = s.send(Command::Resize(w, h)); }
                        None
                    }
                    Ok(ClientMsg::Input { input }) => match &past {
                        Some(_) if live_key(&input) => {
                            last_done = past.take().map(|(s, _)| Arc::clone(&s.done));
                            sub = game.hub.subscribe();
                            if !send_current(&mut socket, &mut sub).await { return; }
                            Some(ServerMsg::Notice { msg: "Live.".to_owned() })
                        }
                        Some((s, _)) => (!s.send(Command::Input(input))).then(|| ServerMsg::error(SLOW_DOWN)),
                        None if past_key(&input) && last_done.as_ref().is_some_and(|d| !d.load(std::sync::atomic::Ordering::Acquire)) => {
                            Some(ServerMsg::error(PAST_BUSY))
                        }
                        None if past_key(&input) => {
                            match open_past(server, game, size).await {
                                Ok(mut p) => {
                                    let _ = p.0.send(Command::Input(alembic_ui::Input::key(alembic_ui::Key::End)));
                                    let _ = p.0.send(Command::Input(input));
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
    let kept = Arc::clone(&game.past);
    let session = blocking(move || {
        s.session(Some(id), size, move |tiles| {
            // Seeking from the whole states the game kept at its checkpoints: a step back
            // replays at most the commands since the nearest one, not the game.
            games::replay_kept(kind, &recording, tiles, Some(kept))
        })
    })
    .await
    .map_err(|e| e.to_string())??;
    let sub = session.hub.subscribe();
    Ok((session, sub))
}
