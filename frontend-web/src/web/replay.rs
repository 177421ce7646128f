//! A recording's websocket (`/ws/replay/NAME`): the replay viewer of a finished game's
//! recording (the store's, or a file listed in `records/`).

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path as UrlPath, State};
use axum::response::Response;

use crate::frontend::Command;
use crate::games::{self, GameKind};
use crate::lobby;
use crate::protocol::{ClientMsg, ServerMsg, parse_client};
use crate::server::{DEFAULT_SIZE, Server, Session};
use crate::web::error::blocking;
use crate::web::extract::{Place, SameOrigin};
use crate::web::sockets::{
    FOREIGN_ORIGIN, Read, SLOW_DOWN, forward, greet, pinger, refuse, send_in_time, send_json,
    text_of, upgrade,
};
use crate::web::state::AppState;

/// A recording's websocket (`/ws/replay/NAME`).
pub(crate) async fn ws_replay(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    Place(place): Place,
    SameOrigin(origin_ok): SameOrigin,
    UrlPath(name): UrlPath<String>,
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
        let found = match lobby::stored_id(&name) {
            Some(id) => {
                let s = Arc::clone(&server);
                blocking(move || s.stored_recording(id))
                    .await
                    .ok()
                    .flatten()
                    .map(|(p, k)| (Some(p), Some(k)))
                    .unwrap_or((None, None))
            }
            None => (
                lobby::listed_file(&server.config.data_dir, lobby::RECORDS_DIR, &name),
                server.games.of_recording(&name),
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
        let session = blocking(move || {
            s.session(None, DEFAULT_SIZE, move |tiles| {
                games::replay(kind, &path, tiles)
            })
            .map_err(|e| format!("cannot replay: {e}"))
        })
        .await
        .unwrap_or_else(|_| Err("cannot replay".to_owned()));
        let session = match session {
            Ok(s) => s,
            Err(e) => return refuse(socket, e).await,
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
                        if !session.send(Command::Input(input)) && !send_json(&mut socket, &ServerMsg::error(SLOW_DOWN)).await { return; }
                    }
                    Ok(ClientMsg::Resize { w, h }) => { let _ = session.send(Command::Resize(w, h)); }
                    Err(e) => if !send_json(&mut socket, &ServerMsg::error(e.to_string())).await { return; },
                }
            }
            p = sub.rx.recv() => {
                if !forward(&mut socket, p, &session.hub, &mut sub).await { return; }
            }
            _ = stopping.changed() => {
                let _ = send_json(&mut socket, &ServerMsg::Ended { msg: "The server is stopping.".to_owned(), summary: None }).await;
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
        }
    }
}
