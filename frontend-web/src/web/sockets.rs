//! What the three websockets share: the upgrade's limits, refusing, sending in time,
//! greeting with the current frame, forwarding a hub's messages, reading text, pinging.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use tokio::sync::broadcast::error::RecvError;

use crate::frontend::{Hub, Published, Subscription};
use crate::protocol::{MAX_WIRE_MESSAGE, ServerMsg};
use crate::server::Server;

/// What a page that sends faster than its game plays is told.
pub(crate) const SLOW_DOWN: &str =
    "too many inputs waiting for the game; that one was dropped (slow down)";

/// What a websocket opened by another site's page is told.
pub(crate) const FOREIGN_ORIGIN: &str = "websocket from another site refused";

/// Bytes a websocket reads at a time. Each read first zeroes that much of its buffer
/// (tungstenite), so its default of 128 KiB cost a 128 KiB memset per message read: about
/// 5% of the server's CPU under load. A page's messages are a few dozen bytes; a longer one
/// is still read whole (the buffer grows to the frame's length, up to the limits above).
const READ_BUFFER: usize = 4 * 1024;

pub(crate) fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_WIRE_MESSAGE)
        .max_frame_size(MAX_WIRE_MESSAGE)
        .read_buffer_size(READ_BUFFER)
}

/// Refuse a websocket with a message the client reads, then close.
pub(crate) async fn refuse(mut socket: WebSocket, why: String) {
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

pub(crate) async fn send_json(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    send_in_time(socket, Message::Text(msg.to_json().into())).await
}

/// Say hello (the game's id and kind, and this connection's role) and send the current frame
/// of `hub`; the subscription to follow it, or `None` when the connection is done.
pub(crate) async fn greet(
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
pub(crate) enum Read {
    /// A text message to parse.
    Text(axum::extract::ws::Utf8Bytes),
    /// Nothing to act on (a ping, or a binary message already answered with an error).
    Skip,
    /// The connection is closed or broken.
    Done,
}

/// Sort one received websocket message; a binary one is answered with an error here.
pub(crate) async fn text_of(
    socket: &mut WebSocket,
    msg: Option<Result<Message, axum::Error>>,
) -> Read {
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
pub(crate) fn pinger(server: &Server) -> tokio::time::Interval {
    let period = (server.config.conn_idle_timeout / 3).max(std::time::Duration::from_millis(100));
    let mut i = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    i
}

/// Send `msg`, giving up after [`SEND_TIMEOUT`]. `false`: the connection is done.
pub(crate) async fn send_in_time(socket: &mut WebSocket, msg: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Send a subscription's current frame (or its end). `false`: the connection is done.
pub(crate) async fn send_current(socket: &mut WebSocket, sub: &mut Subscription) -> bool {
    if let Some(f) = sub.current.take()
        && !send_in_time(socket, Message::Binary(f.into())).await
    {
        return false;
    }
    if let Some(end) = sub.ended.take() {
        let _ = send_json(socket, &end.message()).await;
        let _ = socket.send(Message::Close(None)).await;
        return false;
    }
    if let Some(msg) = sub.notice.take() {
        return send_json(socket, &ServerMsg::Notice { msg }).await;
    }
    true
}

/// Forward one published message. `false`: the connection is done.
pub(crate) async fn forward(
    socket: &mut WebSocket,
    p: Result<Published, RecvError>,
    hub: &Hub,
    sub: &mut Subscription,
) -> bool {
    match p {
        Ok(Published::Frame(m)) => {
            send_in_time(socket, Message::Binary(m.as_ref().clone().into())).await
        }
        Ok(Published::Ended(end)) => {
            let _ = send_json(socket, &end.message()).await;
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
