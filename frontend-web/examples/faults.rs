//! Fault client for `alembic-web` (used by `scripts/web-kill9.sh`): bots over real websockets
//! that play Alchemy in lock-step while the server is killed, then check that every game
//! comes back at exactly the turn its bot last saw.
//!
//! - `play`: `--bots` bots (100 by default), each with its own fresh random `alembic_token`
//!   cookie, start an Alchemy game on `/ws/play`, then in lock-step send `.` (wait a turn:
//!   it never bumps a wall; but a monster next to the hero is attacked, a move into it, so
//!   fewer heroes die: the server runs with `--no-tiles`, the hero is `@` and monsters are
//!   letters), wait for the frame that shows the next turn (the screen grid is
//!   rebuilt from the frames with `protocol::apply_body`, the turn read from the status
//!   panel's "Turn N"), and note it. A bot stops sending after `--max-keys` keys, or when its
//!   hero dies (the death's `--More--`: that game is excluded, counted as `dead`). Every bot
//!   plays until its connection drops (the server killed), then ends; the phase ends when
//!   every bot has. The state file (`--state`, one JSON) holds for every bot its token, its
//!   game's id, the last turn it saw and the keys acknowledged: it is rewritten every 100 ms
//!   while the bots play, and once more, exact, when they are all done.
//! - `check`: reads the state file, connects every bot with its token to the restarted
//!   server, gets its game back (the saved game the token owns) and reads the turn shown.
//!   Counts: `ok` (exactly the last turn seen), `plus1` (one command further: the key in
//!   flight at the kill was applied, not a loss), `lost` (an earlier turn, another game, or
//!   no game), `ahead` (further than one command: wrong too). A game that comes back ended,
//!   filed under the bot's id on the last turn it saw or one command later (the key in
//!   flight killed the hero, and the bot never saw it), counts as `ok` or `plus1`. Prints
//!   one line; exits 1 when any game is lost or ahead.
//!
//! ```text
//! faults play --url 127.0.0.1:8080 --bots 100 --state /tmp/state.json
//! faults check --url 127.0.0.1:8081 --state /tmp/state.json
//! ```
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use alembic_ui::Frame;
use alembic_web::protocol::{ServerMsg, apply_body, inflate_message};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Args {
    check: bool,
    addr: SocketAddr,
    bots: usize,
    state: PathBuf,
    max_keys: u64,
}

fn args() -> Args {
    let v: Vec<String> = std::env::args().skip(1).collect();
    let check = match v.first().map(String::as_str) {
        Some("play") => false,
        Some("check") => true,
        _ => panic!(
            "usage: faults play|check --url HOST:PORT --state FILE [--bots N] [--max-keys N]"
        ),
    };
    let mut a = Args {
        check,
        addr: "127.0.0.1:8080".parse().unwrap(),
        bots: 100,
        state: PathBuf::from("faults-state.json"),
        max_keys: 400,
    };
    for pair in v[1..].chunks(2) {
        let val = pair.get(1).map(String::as_str).unwrap_or("");
        match pair[0].as_str() {
            "--url" => a.addr = val.parse().expect("--url HOST:PORT"),
            "--bots" => a.bots = val.parse().expect("--bots N"),
            "--state" => a.state = PathBuf::from(val),
            "--max-keys" => a.max_keys = val.parse().expect("--max-keys N"),
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

/// What one bot knows of its game (the state file holds one per bot).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct BotState {
    token: String,
    /// The game's id (the server's hello), 0 before it.
    id: u64,
    /// The last turn shown on its screen, if any was.
    turn: Option<u64>,
    /// The most the turn moved on for one key (so `check` knows what one command more is).
    step: u64,
    /// Keys whose next turn was seen.
    keys: u64,
    /// Its hero died (the death's `--More--`): excluded from the counts.
    dead: bool,
    /// Why it stopped, for the report.
    ended: String,
}

/// The state file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    bots: Vec<BotState>,
}

fn write_state(path: &std::path::Path, bots: &[BotState]) {
    let text = serde_json::to_string_pretty(&StateFile {
        bots: bots.to_vec(),
    })
    .unwrap();
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// A browser token issued by the server at `addr` (from the `Set-Cookie` of `/play`):
/// the server accepts only the tokens it issued.
async fn issued_token(addr: SocketAddr) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET /play HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    let at = text.find("alembic_token=").expect("a token cookie") + "alembic_token=".len();
    text[at..].split(';').next().unwrap().to_owned()
}

fn key(k: &str) -> Message {
    Message::text(format!(
        r#"{{"t":"input","input":{{"Key":{{"key":{k},"mods":{{"shift":false,"ctrl":false,"alt":false}}}}}}}}"#
    ))
}

/// The screen's text, row by row.
fn rows(g: &Frame) -> Vec<String> {
    let w = usize::from(g.width());
    g.cells()
        .chunks(w)
        .map(|r| r.iter().map(|c| c.ch).collect())
        .collect()
}

/// The digits right after `label` in `line`, if any.
fn number_after(line: &str, label: &str) -> Option<u64> {
    let at = line.find(label)? + label.len();
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The turn the screen shows: the side panel's "Turn N", or the bottom line's "… Spd S T N"
/// on a narrow screen.
fn turn_shown(g: &Frame) -> Option<u64> {
    let rows = rows(g);
    rows.iter()
        .find_map(|r| number_after(r, "  Turn "))
        .or_else(|| {
            rows.iter()
                .filter(|r| r.contains(" Spd "))
                .find_map(|r| number_after(r, " T "))
        })
}

/// The vi key that moves the hero (`@`, the server run with `--no-tiles`) into a monster (a
/// letter) next to it, if there is one.
fn foe_next_to_hero(g: &Frame) -> Option<char> {
    let (w, h) = (i32::from(g.width()), i32::from(g.height()));
    let at = |x: i32, y: i32| {
        (x >= 0 && y >= 0 && x < w && y < h).then(|| g.cells()[(y * w + x) as usize].ch)
    };
    let i = g.cells().iter().position(|c| c.ch == '@')? as i32;
    let (x, y) = (i % w, i / w);
    let dirs = [
        ('h', -1, 0),
        ('l', 1, 0),
        ('k', 0, -1),
        ('j', 0, 1),
        ('y', -1, -1),
        ('u', 1, -1),
        ('b', -1, 1),
        ('n', 1, 1),
    ];
    dirs.iter()
        .find(|(_, dx, dy)| at(x + dx, y + dy).is_some_and(|c| c.is_ascii_alphabetic()))
        .map(|(k, _, _)| *k)
}

/// The hero died: the death's `--More--` (the only one waiting a turn can bring) or the end
/// screen ("You died on depth N." / "You were killed by … on depth N.").
fn died(g: &Frame) -> bool {
    rows(g).iter().any(|r| {
        r.contains("--More--")
            || r.contains("You died on depth")
            || (r.contains("You were ") && r.contains(" on depth "))
    })
}

/// One thing read from the server.
enum Got {
    /// A frame, applied to the grid.
    Frame,
    /// A JSON message.
    Text(ServerMsg),
    /// The connection is gone (closed, broken, or silent for the timeout).
    Gone(String),
}

async fn read(ws: &mut Ws, grid: &mut Option<Frame>, wait: Duration) -> Got {
    loop {
        let m = match tokio::time::timeout(wait, ws.next()).await {
            Err(_) => return Got::Gone("timed out".to_owned()),
            Ok(None) => return Got::Gone("closed".to_owned()),
            Ok(Some(Err(e))) => return Got::Gone(e.to_string()),
            Ok(Some(Ok(m))) => m,
        };
        match m {
            Message::Binary(b) => {
                let body = inflate_message(&b);
                if body.and_then(|b| apply_body(grid, &b)).is_none() {
                    return Got::Gone("a malformed frame".to_owned());
                }
                return Got::Frame;
            }
            Message::Text(t) => match serde_json::from_str::<ServerMsg>(&t) {
                Ok(msg) => return Got::Text(msg),
                Err(_) => return Got::Gone(format!("unreadable text {t}")),
            },
            Message::Close(_) => return Got::Gone("closed".to_owned()),
            _ => {}
        }
    }
}

async fn connect(addr: SocketAddr, token: &str) -> Result<Ws, String> {
    let mut req = format!("ws://{addr}/ws/play?game=alchemy&name=fault")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("Cookie", format!("alembic_token={token}").parse().unwrap());
    match tokio::time::timeout(
        Duration::from_secs(60),
        tokio_tungstenite::connect_async(req),
    )
    .await
    {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("connect timed out".to_owned()),
    }
}

/// Read until the hello and a frame showing a turn; the game's id and that turn.
async fn opening(ws: &mut Ws, grid: &mut Option<Frame>) -> Result<(u64, u64), String> {
    let _ = ws
        .send(Message::text(r#"{"t":"resize","w":100,"h":36}"#))
        .await;
    let mut id = None;
    loop {
        match read(ws, grid, Duration::from_secs(30)).await {
            Got::Frame => {
                if let (Some(id), Some(t)) = (id, grid.as_ref().and_then(turn_shown)) {
                    return Ok((id, t));
                }
            }
            Got::Text(ServerMsg::Hello { id: i, .. }) => id = Some(i),
            Got::Text(ServerMsg::Notice { .. }) => {}
            Got::Text(m) => return Err(m.to_json()),
            Got::Gone(why) => return Err(why),
        }
    }
}

/// One bot's entry in the shared table the state file is written from.
struct Entry {
    all: Arc<Mutex<Vec<BotState>>>,
    n: usize,
}

impl Entry {
    fn set(&self, f: impl FnOnce(&mut BotState)) {
        f(&mut self.all.lock().unwrap()[self.n]);
    }
}

/// Count one bot as started (in its game, or failed to be); the last one says so on stdout,
/// which the script waits for before it picks the moment of the kill.
fn started(count: &AtomicUsize, of: usize) {
    if count.fetch_add(1, Ordering::SeqCst) + 1 == of {
        println!("play: every bot has started");
        let _ = std::io::stdout().flush();
    }
}

async fn play_bot(n: usize, a: Arc<Args>, all: Arc<Mutex<Vec<BotState>>>, count: Arc<AtomicUsize>) {
    let token = all.lock().unwrap()[n].token.clone();
    let e = Entry { all, n };
    let set = |f: &dyn Fn(&mut BotState)| e.set(f);
    let mut ws = match connect(a.addr, &token).await {
        Ok(ws) => ws,
        Err(e) => {
            started(&count, a.bots);
            return set(&|b| b.ended = format!("no connection: {e}"));
        }
    };
    let mut grid = None;
    let opened = opening(&mut ws, &mut grid).await;
    started(&count, a.bots);
    let (id, mut turn) = match opened {
        Ok(x) => x,
        Err(e) => return set(&|b| b.ended = format!("no game: {e}")),
    };
    set(&|b| {
        b.id = id;
        b.turn = Some(turn);
    });
    let mut keys = 0;
    let mut stalls = 0;
    while keys < a.max_keys {
        // Wait a turn; but a monster next to the hero is fought (moving into it attacks), so
        // fewer heroes die standing still and drop out of the counts.
        let k = grid.as_ref().and_then(foe_next_to_hero).unwrap_or('.');
        if ws.send(key(&format!(r#"{{"Char":"{k}"}}"#))).await.is_err() {
            return set(&|b| b.ended = "connection dropped (send)".to_owned());
        }
        // Frames until the one that shows the next turn (the key's); the turn is noted at
        // every frame, so whatever the kill cuts off, the last turn seen is kept.
        let before = turn;
        loop {
            match read(&mut ws, &mut grid, Duration::from_secs(3)).await {
                Got::Frame => {
                    let g = grid.as_ref().unwrap();
                    if let Some(t) = turn_shown(g) {
                        turn = t;
                        set(&|b| b.turn = Some(t));
                    }
                    if turn != before {
                        keys += 1;
                        stalls = 0;
                        set(&|b| {
                            b.keys = keys;
                            b.step = b.step.max(turn.saturating_sub(before));
                        });
                    }
                    if died(g) {
                        // The hero died (the death's pause, or the end screen): out of the
                        // counts, but keep the connection until the kill as the others do.
                        set(&|b| b.dead = true);
                        return drain(&mut ws, &mut grid, &e).await;
                    }
                    if turn != before {
                        break;
                    }
                }
                Got::Text(ServerMsg::Ended { msg, .. }) => {
                    set(&|b| b.dead = true);
                    return set(&|b| b.ended = format!("game ended: {msg}"));
                }
                Got::Text(_) => {}
                Got::Gone(why) if why == "timed out" => {
                    // The key did not move the turn on (something on screen took it): try
                    // another; give up on a bot stuck for good.
                    stalls += 1;
                    if stalls >= 5 {
                        set(&|b| b.ended = "stuck: the turn does not move".to_owned());
                        return drain(&mut ws, &mut grid, &e).await;
                    }
                    break;
                }
                Got::Gone(why) => return set(&|b| b.ended = format!("connection dropped: {why}")),
            }
        }
    }
    drain(&mut ws, &mut grid, &e).await;
}

/// Wait (sending nothing) until the connection drops.
async fn drain(ws: &mut Ws, grid: &mut Option<Frame>, e: &Entry) {
    loop {
        if let Got::Gone(why) = read(ws, grid, Duration::from_secs(120)).await {
            return e.set(|b| {
                if b.ended.is_empty() {
                    b.ended = format!("idle, then connection dropped: {why}");
                }
            });
        }
    }
}

fn play(a: Arc<Args>, rt: &tokio::runtime::Runtime) {
    let all = Arc::new(Mutex::new(
        (0..a.bots)
            .map(|_| BotState {
                token: rt.block_on(issued_token(a.addr)),
                ..BotState::default()
            })
            .collect::<Vec<_>>(),
    ));
    rt.block_on(async {
        let writer = {
            let all = Arc::clone(&all);
            let path = a.state.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_millis(100));
                loop {
                    tick.tick().await;
                    let snap = all.lock().unwrap().clone();
                    write_state(&path, &snap);
                }
            })
        };
        let count = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for n in 0..a.bots {
            tasks.push(tokio::spawn(play_bot(
                n,
                Arc::clone(&a),
                Arc::clone(&all),
                Arc::clone(&count),
            )));
            if n % 25 == 24 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        for t in tasks {
            let _ = t.await;
        }
        writer.abort();
    });
    let bots = all.lock().unwrap().clone();
    write_state(&a.state, &bots);
    let playing = bots.iter().filter(|b| b.turn.is_some()).count();
    let keys: u64 = bots.iter().map(|b| b.keys).sum();
    let dead = bots.iter().filter(|b| b.dead).count();
    let capped = bots.iter().filter(|b| b.keys >= a.max_keys).count();
    let max_step = bots.iter().map(|b| b.step).max().unwrap_or(0);
    println!(
        "play: bots={} playing={playing} keys_acknowledged={keys} dead={dead} at_max_keys={capped} max_turns_per_key={max_step}",
        bots.len()
    );
    for b in bots.iter().filter(|b| b.turn.is_none()) {
        println!("play: bot {} never played: {}", b.token, b.ended);
    }
}

/// What `check` found of one bot's game.
#[derive(Debug)]
enum Verdict {
    Ok,
    PlusOne,
    Ahead(String),
    Lost(String),
    Excluded,
}

async fn check_bot(addr: SocketAddr, b: BotState) -> Verdict {
    let Some(seen) = b.turn else {
        return Verdict::Excluded;
    };
    if b.dead {
        return Verdict::Excluded;
    }
    let mut ws = match connect(addr, &b.token).await {
        Ok(ws) => ws,
        Err(e) => return Verdict::Lost(format!("no connection: {e}")),
    };
    let mut grid = None;
    let got = opening(&mut ws, &mut grid).await;
    let _ = ws.close(None).await;
    let one = b.step.max(1);
    let (id, turn) = match got {
        Ok(x) => x,
        Err(e) => return ended_in_flight(&b, seen, one, &e),
    };
    if id != b.id {
        Verdict::Lost(format!("another game: id {id}, not {} (turn {turn})", b.id))
    } else if turn == seen {
        Verdict::Ok
    } else if turn > seen && turn <= seen + one {
        Verdict::PlusOne
    } else if turn > seen {
        Verdict::Ahead(format!("game {id}: turn {turn}, last seen {seen}"))
    } else {
        Verdict::Lost(format!("game {id}: back at turn {turn}, last seen {seen}"))
    }
}

/// The verdict on a game that could not be opened again (`e`, what the server said). The
/// one case that is no loss: the game ended, filed under the bot's game id, on the turn the
/// bot last saw or one command later. The key in flight at the kill was applied and killed
/// the hero, and the bot never saw the death.
fn ended_in_flight(b: &BotState, seen: u64, one: u64, e: &str) -> Verdict {
    if let Ok(ServerMsg::Ended {
        summary: Some(s), ..
    }) = serde_json::from_str::<ServerMsg>(e)
        && s.id == b.id
    {
        if s.turns == seen {
            return Verdict::Ok;
        }
        if s.turns > seen && s.turns <= seen + one {
            return Verdict::PlusOne;
        }
    }
    Verdict::Lost(format!("no game: {e}"))
}

fn check(a: &Args, rt: &tokio::runtime::Runtime) -> bool {
    let text = std::fs::read_to_string(&a.state).expect("the state file");
    let state: StateFile = serde_json::from_str(&text).expect("a state file");
    let keys: u64 = state.bots.iter().map(|b| b.keys).sum();
    let verdicts = rt.block_on(async {
        let mut tasks = Vec::new();
        for (n, b) in state.bots.iter().cloned().enumerate() {
            tasks.push(tokio::spawn(check_bot(a.addr, b)));
            if n % 25 == 24 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let mut v = Vec::new();
        for t in tasks {
            v.push(
                t.await
                    .unwrap_or_else(|e| Verdict::Lost(format!("panicked: {e}"))),
            );
        }
        v
    });
    let count = |f: fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let ok = count(|v| matches!(v, Verdict::Ok));
    let plus1 = count(|v| matches!(v, Verdict::PlusOne));
    let lost = count(|v| matches!(v, Verdict::Lost(_)));
    let ahead = count(|v| matches!(v, Verdict::Ahead(_)));
    let excluded = count(|v| matches!(v, Verdict::Excluded));
    for v in &verdicts {
        match v {
            Verdict::Lost(why) => println!("check: LOST: {why}"),
            Verdict::Ahead(why) => println!("check: AHEAD: {why}"),
            _ => {}
        }
    }
    println!(
        "check: games={} keys_acknowledged={keys} ok={ok} plus1={plus1} lost={lost} ahead={ahead} excluded={excluded}",
        verdicts.len()
    );
    lost == 0 && ahead == 0
}

fn main() {
    let a = Arc::new(args());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    if a.check {
        if !check(&a, &rt) {
            std::process::exit(1);
        }
    } else {
        play(Arc::clone(&a), &rt);
    }
}
