//! The player's websocket (`/ws/play`): which game (the browser's, the account's, or a
//! new one), then its frames out and the player's keys in.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Deserialize;

use crate::frontend::Command;
use crate::lobby;
use crate::protocol::{ClientMsg, ServerMsg, parse_client};
use crate::server::{LiveGame, Server};
use crate::web::error::blocking;
use crate::web::extract::{Browser, ClientIp, MaybeAccount, Place, SameOrigin};
use crate::web::sockets::{
    FOREIGN_ORIGIN, Read, SLOW_DOWN, forward, greet, pinger, refuse, send_in_time, send_json,
    text_of, upgrade,
};
use crate::web::state::AppState;

/// `/ws/play`'s query.
#[derive(Debug, Default, Deserialize)]
pub struct PlayQuery {
    /// The game to start when the browser has none (`alchemy`, `caves`; the server's first
    /// game when not given).
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

/// The player's websocket (`/ws/play`).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ws_play(
    ws: WebSocketUpgrade,
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    Place(place): Place,
    SameOrigin(origin_ok): SameOrigin,
    Browser(token): Browser,
    MaybeAccount(account): MaybeAccount,
    Query(q): Query<PlayQuery>,
) -> Response {
    let account = account.map(|a| a.id);
    upgrade(ws).on_upgrade(move |socket| async move {
        let server = st.server;
        let _guard = match place {
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
        // No game named: the server's first.
        let kind = q.game.unwrap_or_else(|| {
            server
                .games
                .playable()
                .next()
                .map_or_else(String::new, |k| k.name().to_owned())
        });
        let name = lobby::clean_name(q.name.as_deref().unwrap_or(""));
        let s = Arc::clone(&server);
        let fresh = q.new == Some(1);
        let attached = blocking(move || {
            s.attach((ip, &token), account, q.id, &kind, &name, fresh)
                .map_err(|e| e.to_string())
        })
        .await
        .unwrap_or_else(|_| Err("the game could not start".to_owned()));
        let (game, kicked, generation) = match attached {
            Ok(x) => x,
            Err(e) => return refuse(socket, e).await,
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
                let _ = send_json(&mut socket, &ServerMsg::Ended { msg: why.to_owned(), summary: None }).await;
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
        }
    }
}
