//! The wire format between the page and the server.
//!
//! **Server → page.** Frames travel as binary websocket messages: one tag byte
//! ([`TAG_FRAME`]) then a raw-deflate stream (what the browser's
//! `DecompressionStream("deflate-raw")` reads) of
//!
//! ```text
//! u16 width, u16 height, u8 full (1: every cell follows; 0: only changed cells)
//! runs: u32 first cell index, u16 count, count × cell
//! cell: u32 char (Unicode scalar, tiles included), u8 fg r g b, u8 bg r g b
//! ```
//!
//! all little-endian, cells row-major. A full frame is one run over every cell; a diff holds
//! only the runs of cells that changed since the previous frame of the same size. Everything
//! else (errors, notices, the end of a game) is a JSON text message [`ServerMsg`].
//!
//! **Page → server.** JSON text messages [`ClientMsg`], at most [`MAX_CLIENT_MESSAGE`]
//! bytes: an [`Input`] in its serde form (keys, the mouse), or a resize.

use alembic_ui::{Cell, Frame, Input};
use serde::{Deserialize, Serialize};

use crate::deflate::Deflater;

/// The first byte of a binary frame message.
pub const TAG_FRAME: u8 = b'F';

/// The largest message the page may send, in bytes; larger ones get an error.
pub const MAX_CLIENT_MESSAGE: usize = 1024;

/// The largest message the websocket layer reads at all (anything bigger closes the
/// connection with code 1009, "message too big"). Messages between this and
/// [`MAX_CLIENT_MESSAGE`] are read and refused with an error, the connection kept.
pub const MAX_WIRE_MESSAGE: usize = 64 * 1024;

/// The smallest and largest grid a player's page may ask for.
pub const MIN_COLS: u16 = 20;
/// See [`MIN_COLS`].
pub const MIN_ROWS: u16 = 8;
/// See [`MIN_COLS`].
pub const MAX_COLS: u16 = 300;
/// See [`MIN_COLS`].
pub const MAX_ROWS: u16 = 120;

/// A message from the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// A key or mouse event, as `alembic_ui` serialises it
    /// (`{"Key":{"key":"Up","mods":{"shift":false,"ctrl":false,"alt":false}}}`).
    Input {
        /// The event. [`Input::Quit`] and [`Input::Resize`] are refused (resizes are
        /// [`ClientMsg::Resize`]).
        input: Input,
    },
    /// The page's grid is now `w × h` cells.
    Resize {
        /// Columns.
        w: u16,
        /// Rows.
        h: u16,
    },
}

/// Why a message from the page was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadMessage {
    /// Longer than [`MAX_CLIENT_MESSAGE`].
    #[error("message too large: {0} bytes (the limit is {MAX_CLIENT_MESSAGE})")]
    TooLarge(usize),
    /// Binary, not JSON text.
    #[error("binary messages are not accepted; send JSON text")]
    Binary,
    /// Not a message this server knows.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// A quit or a resize sent as an input.
    #[error("that input cannot be sent: {0}")]
    Refused(&'static str),
}

/// Parse one text message from the page.
///
/// # Errors
/// [`BadMessage`]: too large, not JSON of a [`ClientMsg`], or an input the page may not send.
///
/// ```
/// use alembic_web::protocol::{ClientMsg, parse_client};
/// use alembic_ui::{Input, Key};
/// let m = parse_client(r#"{"t":"input","input":{"Key":{"key":"Up","mods":{"shift":false,"ctrl":false,"alt":false}}}}"#);
/// assert_eq!(m, Ok(ClientMsg::Input { input: Input::key(Key::Up) }));
/// assert!(parse_client(r#"{"t":"input","input":"Quit"}"#).is_err());
/// assert!(parse_client("{").is_err());
/// ```
pub fn parse_client(text: &str) -> Result<ClientMsg, BadMessage> {
    if text.len() > MAX_CLIENT_MESSAGE {
        return Err(BadMessage::TooLarge(text.len()));
    }
    let msg: ClientMsg =
        serde_json::from_str(text).map_err(|e| BadMessage::Malformed(e.to_string()))?;
    match &msg {
        ClientMsg::Input { input: Input::Quit } => Err(BadMessage::Refused("Quit")),
        ClientMsg::Input {
            input: Input::Resize { .. },
        } => Err(BadMessage::Refused("Resize (send a resize message)")),
        ClientMsg::Resize { w, h }
            if !(MIN_COLS..=MAX_COLS).contains(w) || !(MIN_ROWS..=MAX_ROWS).contains(h) =>
        {
            Err(BadMessage::Malformed(format!(
                "size {w}x{h} is outside {MIN_COLS}x{MIN_ROWS}..={MAX_COLS}x{MAX_ROWS}"
            )))
        }
        _ => Ok(msg),
    }
}

/// A JSON text message to the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ServerMsg {
    /// Something the page did was refused; nothing changed.
    Error {
        /// What and why, for people.
        msg: String,
    },
    /// Which game this connection shows, sent first.
    Hello {
        /// The game's id (for `/watch/ID`).
        id: u64,
        /// The game's name (`alchemy`, `caves`…).
        game: String,
        /// `player`, `spectator` or `replay`.
        role: String,
    },
    /// A notice for the status line (a spectator went back in time, returned to live…).
    Notice {
        /// The text.
        msg: String,
    },
    /// The game ended or was saved; the connection closes after this.
    Ended {
        /// Why, for people.
        msg: String,
        /// How the game ended, when it is over and filed (not when it was saved): the page
        /// shows it with links to what the server kept. Never a path of the server's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<Box<GameSummary>>,
    },
}

/// A finished game's summary, as the page shows it at the game's end: how it ended, where,
/// after how many turns, the score, and links to the game's pages on this server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's name (`alchemy`, `caves`…).
    pub game: String,
    /// The game's id.
    pub id: u64,
    /// Whether it was won.
    pub won: bool,
    /// Whether the player ended it (neither won nor died).
    pub quit: bool,
    /// The end screen's first line ("You were killed by a rat on depth 3.").
    pub headline: String,
    /// How it ended, as the score table says it ("killed by a rat", "quit").
    pub cause: String,
    /// The depth where it ended (`None`: a game without levels).
    pub depth: Option<i32>,
    /// Its turn at the end.
    pub turns: u64,
    /// Its score in the score table (`None`: not scored).
    pub score: Option<i64>,
    /// Where to read more, on this server.
    pub links: EndLinks,
}

/// The pages of a finished game on this server, as paths of this site (`/games/7`): each
/// only when the server kept it, and each as public as the lobby's list of finished games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndLinks {
    /// The game's page (`/games/ID`): who, where, its morgue file.
    pub page: Option<String>,
    /// Its morgue file as text (`/morgue/game-ID`).
    pub morgue: Option<String>,
    /// Its replay in the page (`/replay/game-ID`).
    pub replay: Option<String>,
    /// Its recording as a file (`/records/game-ID`).
    pub recording: Option<String>,
}

impl EndLinks {
    /// The links of finished game `id`: its page, and the morgue file and recording when
    /// the server kept them.
    #[must_use]
    pub fn of(id: u64, morgue: bool, recording: bool) -> Self {
        EndLinks {
            page: Some(format!("/games/{id}")),
            morgue: morgue.then(|| format!("/morgue/game-{id}")),
            replay: recording.then(|| format!("/replay/game-{id}")),
            recording: recording.then(|| format!("/records/game-{id}")),
        }
    }
}

impl ServerMsg {
    /// An [`ServerMsg::Error`].
    #[must_use]
    pub fn error(msg: impl Into<String>) -> Self {
        ServerMsg::Error { msg: msg.into() }
    }

    /// The JSON text.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"t":"error","msg":"?"}"#.to_owned())
    }
}

fn put_cell(out: &mut Vec<u8>, c: &Cell) {
    out.extend_from_slice(&(c.ch as u32).to_le_bytes());
    out.extend_from_slice(&[c.fg.r, c.fg.g, c.fg.b, c.bg.r, c.bg.g, c.bg.b]);
}

/// The uncompressed body of a frame message: every cell of `frame` when `prev` is `None`
/// or of another size, else only the runs of cells that differ from `prev`.
#[must_use]
pub fn frame_body(prev: Option<&Frame>, frame: &Frame) -> Vec<u8> {
    let (w, h) = (frame.width(), frame.height());
    let prev = prev.filter(|p| p.width() == w && p.height() == h);
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.push(u8::from(prev.is_none()));
    let cells = frame.cells();
    let changed = |i: usize| prev.is_none_or(|p| p.cells()[i] != cells[i]);
    let mut i = 0;
    while i < cells.len() {
        if !changed(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < cells.len() && changed(i) && i - start < usize::from(u16::MAX) {
            i += 1;
        }
        out.extend_from_slice(&(start as u32).to_le_bytes());
        out.extend_from_slice(&((i - start) as u16).to_le_bytes());
        for c in &cells[start..i] {
            put_cell(&mut out, c);
        }
    }
    out
}

/// A whole binary frame message: [`TAG_FRAME`] then the deflated [`frame_body`].
#[must_use]
pub fn frame_message(prev: Option<&Frame>, frame: &Frame) -> Vec<u8> {
    FrameEncoder::new().message(prev, frame)
}

/// Makes frame messages with one small raw-deflate encoder (fixed Huffman codes, greedy
/// matches: `deflate.rs`), whose 16 KB table is made once per game and never
/// cleared.
#[derive(Debug, Default)]
pub struct FrameEncoder {
    deflate: Deflater,
}

impl FrameEncoder {
    /// A new encoder.
    #[must_use]
    pub fn new() -> Self {
        FrameEncoder::default()
    }

    /// [`frame_message`] with this encoder's state.
    pub fn message(&mut self, prev: Option<&Frame>, frame: &Frame) -> Vec<u8> {
        let body = frame_body(prev, frame);
        let mut out = Vec::with_capacity(body.len() / 2 + 64);
        out.push(TAG_FRAME);
        self.deflate.compress(&body, &mut out);
        out
    }
}

/// Apply a frame message's body to `grid` (what the page does in JavaScript), for tests and
/// the load client. Returns `None` on a malformed body, including a full frame whose body
/// is too short to hold the cells its header names; cells past the grid are skipped.
#[must_use]
pub fn apply_body(grid: &mut Option<Frame>, body: &[u8]) -> Option<()> {
    let rd16 = |b: &[u8], at: usize| Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]));
    let w = rd16(body, 0)?;
    let h = rd16(body, 2)?;
    let full = *body.get(4)? == 1;
    if full
        || grid
            .as_ref()
            .is_none_or(|g| g.width() != w || g.height() != h)
    {
        if !full {
            return None;
        }
        // A full frame carries every cell (10 bytes each): a header naming more cells than
        // the body holds is refused before the grid is allocated (65535² cells would be GiBs).
        if (body.len() - 5) / 10 < usize::from(w) * usize::from(h) {
            return None;
        }
        *grid = Some(Frame::new(w, h));
    }
    let g = grid.as_mut()?;
    let mut at = 5;
    while at < body.len() {
        let start = u32::from_le_bytes(body.get(at..at + 4)?.try_into().ok()?) as usize;
        let count = usize::from(rd16(body, at + 4)?);
        at += 6;
        for k in 0..count {
            let c = body.get(at..at + 10)?;
            let ch = char::from_u32(u32::from_le_bytes(c[0..4].try_into().ok()?))?;
            at += 10;
            let idx = start + k;
            // Cells past the grid are skipped, as the page does (and a 0-wide grid has none).
            if idx >= usize::from(w) * usize::from(h) {
                continue;
            }
            let (x, y) = (idx % usize::from(w), idx / usize::from(w));
            g.put(
                x as i32,
                y as i32,
                Cell {
                    ch,
                    fg: alembic::Rgb::new(c[4], c[5], c[6]),
                    bg: alembic::Rgb::new(c[7], c[8], c[9]),
                },
            );
        }
    }
    Some(())
}

/// Inflate a binary frame message (tag byte included) into its body.
#[must_use]
pub fn inflate_message(msg: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let (tag, rest) = msg.split_first()?;
    if *tag != TAG_FRAME {
        return None;
    }
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(rest)
        .take(16 << 20)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic::Rgb;

    #[test]
    fn diffs_rebuild_the_frame_and_are_small() {
        let mut a = Frame::new(80, 24);
        a.put_str(0, 0, "hello there", Rgb::WHITE, Rgb::BLACK);
        let mut b = a.clone();
        b.put_str(3, 5, "@", Rgb::new(255, 0, 0), Rgb::BLACK);
        b.put_str(70, 23, "turn 2", Rgb::WHITE, Rgb::new(1, 2, 3));
        let mut grid = None;
        apply_body(
            &mut grid,
            &inflate_message(&frame_message(None, &a)).unwrap(),
        )
        .unwrap();
        assert_eq!(grid.as_ref(), Some(&a));
        let diff = frame_message(Some(&a), &b);
        apply_body(&mut grid, &inflate_message(&diff).unwrap()).unwrap();
        assert_eq!(grid.as_ref(), Some(&b));
        assert_eq!(frame_body(Some(&a), &b).len(), 5 + 2 * 6 + 7 * 10);
        // Unchanged: only the header.
        assert_eq!(frame_body(Some(&b), &b).len(), 5);
        // A diff against another size is a full frame.
        assert_eq!(frame_body(Some(&Frame::new(3, 3)), &b)[4], 1);
    }

    #[test]
    fn one_encoder_makes_many_messages_even_incompressible_ones() {
        let mut enc = FrameEncoder::new();
        let mut grid = None;
        let mut prev: Option<Frame> = None;
        let mut x: u32 = 7;
        for round in 0..4 {
            let mut f = Frame::new(300, 120);
            for y in 0..120 {
                for col in 0..300 {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let ch = char::from_u32(0x21 + x % 0x5000).unwrap_or('?');
                    let c = Rgb::new(x as u8, (x >> 8) as u8, (x >> 16) as u8);
                    f.put(
                        col,
                        y,
                        Cell {
                            ch,
                            fg: c,
                            bg: Rgb::new(round, 0, 0),
                        },
                    );
                }
            }
            let m = enc.message(prev.as_ref(), &f);
            apply_body(&mut grid, &inflate_message(&m).unwrap()).unwrap();
            assert_eq!(grid.as_ref(), Some(&f));
            prev = Some(f);
        }
    }

    #[test]
    fn frames_compress_about_as_well_as_deflate_level_6() {
        // A map-like frame and diffs of a few cells to many: this encoder's messages
        // decode, and are at most a third larger than level 6's (flate2).
        use std::io::Write;
        let level6 = |body: &[u8]| {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
            e.write_all(body).unwrap();
            e.finish().unwrap().len() + 1
        };
        let mut f = Frame::new(100, 36);
        for y in 0..30 {
            let row: String = (0..100)
                .map(|x| if (x * 7 + y * 3) % 11 == 0 { '#' } else { '.' })
                .collect();
            f.put_str(
                0,
                y,
                &row,
                Rgb::new(180, 180, 170),
                Rgb::new(20, 20, (y * 3) as u8),
            );
        }
        f.put_str(
            0,
            33,
            "HP 20/20  Str 12  Depth 3  Turn 1234",
            Rgb::WHITE,
            Rgb::BLACK,
        );
        let (mut ours, mut theirs) = (0, 0);
        let mut enc = FrameEncoder::new();
        let mut grid = None;
        let mut prev: Option<Frame> = None;
        for step in 0..40u16 {
            let mut next = f.clone();
            // The hero walks; a lit area around it changes colour.
            for dy in 0..(step % 9) {
                for dx in 0..12 {
                    next.put_str(
                        10 + step + dx,
                        5 + dy,
                        "·",
                        Rgb::new(250, 230, 200),
                        Rgb::new(60, 50, 40),
                    );
                }
            }
            next.put_str(12 + step, 9, "@", Rgb::WHITE, Rgb::new(60, 50, 40));
            let m = enc.message(prev.as_ref(), &next);
            let body = frame_body(prev.as_ref(), &next);
            apply_body(&mut grid, &inflate_message(&m).unwrap()).unwrap();
            assert_eq!(grid.as_ref(), Some(&next));
            ours += m.len();
            theirs += level6(&body);
            prev = Some(next);
        }
        assert!(
            ours * 3 <= theirs * 4,
            "{ours} bytes against level 6's {theirs}"
        );
    }

    #[test]
    fn a_diff_without_a_grid_is_refused() {
        let a = Frame::new(4, 4);
        let mut b = a.clone();
        b.put_str(0, 0, "x", Rgb::WHITE, Rgb::BLACK);
        let mut grid = None;
        assert_eq!(apply_body(&mut grid, &frame_body(Some(&a), &b)), None);
        assert_eq!(apply_body(&mut grid, &[1, 2]), None);
    }

    /// A full frame's header then one run of `cells` (all 'x'), starting at `start`.
    fn body(w: u16, h: u16, start: u32, cells: u16) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&w.to_le_bytes());
        b.extend_from_slice(&h.to_le_bytes());
        b.push(1);
        b.extend_from_slice(&start.to_le_bytes());
        b.extend_from_slice(&cells.to_le_bytes());
        for _ in 0..cells {
            b.extend_from_slice(&u32::from('x').to_le_bytes());
            b.extend_from_slice(&[1, 2, 3, 4, 5, 6]);
        }
        b
    }

    /// Found by the `web_protocol` fuzz target: a 0-wide frame with a cell divided by zero,
    /// a cell past the grid wrapped around onto (0, 0), and a 5-byte header asked for a
    /// 65535 × 65535 grid (GiBs).
    #[test]
    fn hostile_frame_bodies_are_refused_or_clipped() {
        let mut grid = None;
        assert_eq!(apply_body(&mut grid, &body(0, 3, 0, 1)), Some(()));
        assert_eq!(grid.as_ref().map(|g| g.cells().len()), Some(0));
        let mut grid = None;
        assert_eq!(apply_body(&mut grid, &body(1, 1, u32::MAX, 2)), Some(()));
        assert_eq!(grid, Some(Frame::new(1, 1)));
        let mut grid = None;
        assert_eq!(apply_body(&mut grid, &body(u16::MAX, u16::MAX, 0, 1)), None);
        assert_eq!(grid, None);
        // The cells a full frame names must be in it.
        assert_eq!(apply_body(&mut grid, &body(2, 2, 0, 3)), None);
        assert_eq!(apply_body(&mut grid, &body(2, 2, 0, 4)), Some(()));
    }

    #[test]
    fn client_messages_are_checked() {
        assert!(matches!(
            parse_client(&"x".repeat(MAX_CLIENT_MESSAGE + 1)),
            Err(BadMessage::TooLarge(_))
        ));
        assert!(matches!(
            parse_client(r#"{"t":"resize","w":5000,"h":10}"#),
            Err(BadMessage::Malformed(_))
        ));
        assert_eq!(
            parse_client(r#"{"t":"resize","w":100,"h":30}"#),
            Ok(ClientMsg::Resize { w: 100, h: 30 })
        );
        assert!(matches!(
            parse_client(r#"{"t":"input","input":{"Resize":{"width":1,"height":1}}}"#),
            Err(BadMessage::Refused(_))
        ));
        assert!(matches!(
            parse_client(r#"{"t":"frobnicate"}"#),
            Err(BadMessage::Malformed(_))
        ));
    }
}
