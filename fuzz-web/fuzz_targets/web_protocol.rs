//! Any bytes given to both ends of the web server's wire format (`alembic_web::protocol`).
//!
//! The page's side, as the server reads it: a websocket text message (valid UTF-8, at most
//! `MAX_WIRE_MESSAGE` bytes, else the websocket layer closes the connection first) goes to
//! `parse_client`. A message over `MAX_CLIENT_MESSAGE` must be refused as too large; an
//! accepted one must keep its documented promises (a resize within `MIN_COLS..=MAX_COLS` ×
//! `MIN_ROWS..=MAX_ROWS`, never a quit or a resize sent as an input) and parse again to
//! itself once written back; a refusal must make an error message that the page can read.
//!
//! The server's side, as the page (and the load client) reads it: the bytes as a binary frame
//! message for `inflate_message` (bounded output), and as a body for `apply_body` on no grid
//! and on a grid of another frame. An accepted body leaves a grid of the size it names, which
//! the server's encoder sends again and the decoder rebuilds to the same grid. Never panic,
//! hang or allocate without bound.
#![no_main]

use alembic_ui::{Frame, Input};
use alembic_web::protocol::{
    BadMessage, ClientMsg, MAX_CLIENT_MESSAGE, MAX_COLS, MAX_ROWS, MAX_WIRE_MESSAGE, MIN_COLS,
    MIN_ROWS, ServerMsg, TAG_FRAME, apply_body, frame_message, inflate_message, parse_client,
};
use libfuzzer_sys::fuzz_target;

/// `inflate_message`'s bound on a body (16 MiB).
const MAX_BODY: usize = 16 << 20;

fn client(data: &[u8]) {
    // Text messages are UTF-8 (tungstenite closes the connection on any other) and the
    // websocket layer reads at most MAX_WIRE_MESSAGE bytes.
    if data.len() > MAX_WIRE_MESSAGE {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = parse_client(text);
    if text.len() > MAX_CLIENT_MESSAGE {
        assert_eq!(parsed, Err(BadMessage::TooLarge(text.len())));
    }
    match parsed {
        Ok(msg) => {
            match msg {
                ClientMsg::Resize { w, h } => {
                    assert!((MIN_COLS..=MAX_COLS).contains(&w), "accepted width {w}");
                    assert!((MIN_ROWS..=MAX_ROWS).contains(&h), "accepted height {h}");
                }
                ClientMsg::Input { input } => {
                    assert!(
                        !matches!(input, Input::Quit | Input::Resize { .. }),
                        "accepted input {input:?}"
                    );
                }
            }
            let again = serde_json::to_string(&msg).expect("a message writes as JSON");
            assert_eq!(parse_client(&again), Ok(msg), "written back as {again}");
        }
        Err(e) => {
            // What the server answers: JSON the page reads back to the same error.
            let reply = ServerMsg::error(e.to_string());
            let back: ServerMsg = serde_json::from_str(&reply.to_json()).expect("reply is JSON");
            assert_eq!(back, reply);
        }
    }
}

fn header(body: &[u8]) -> Option<(u16, u16)> {
    let w = u16::from_le_bytes([*body.first()?, *body.get(1)?]);
    let h = u16::from_le_bytes([*body.get(2)?, *body.get(3)?]);
    Some((w, h))
}

/// Apply `body` to `grid`; an accepted body leaves a grid of the size it names, which goes
/// through the encoder and the decoder unchanged.
fn apply(grid: &mut Option<Frame>, body: &[u8]) {
    if apply_body(grid, body).is_none() {
        return;
    }
    let g = grid.as_ref().expect("an accepted body leaves a grid");
    let (w, h) = header(body).expect("an accepted body has a header");
    assert_eq!((g.width(), g.height()), (w, h), "grid of another size");
    let mut again = None;
    let body = inflate_message(&frame_message(None, g)).expect("the encoder's message inflates");
    apply_body(&mut again, &body).expect("the encoder's body applies");
    assert_eq!(
        again.as_ref(),
        Some(g),
        "the grid did not survive the encoder"
    );
}

fn server(data: &[u8]) {
    let inflated = if data.first() == Some(&TAG_FRAME) {
        inflate_message(data)
    } else {
        None
    };
    if let Some(b) = &inflated {
        assert!(b.len() <= MAX_BODY, "inflated to {} bytes", b.len());
    }
    for body in [Some(data), inflated.as_deref()].into_iter().flatten() {
        apply(&mut None, body);
        // A diff needs a grid of its size: one from a real frame.
        let mut grid = header(body).map(|(w, h)| Frame::new(w.min(MAX_COLS), h.min(MAX_ROWS)));
        apply(&mut grid, body);
    }
}

fuzz_target!(|data: &[u8]| {
    client(data);
    server(data);
});
