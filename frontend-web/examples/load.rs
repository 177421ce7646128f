//! Load client for `alembic-web` (not a test): N bots on loopback, each playing its own
//! Alchemy game, each sending a move key every `--interval-ms` (200 by default, at a random
//! phase), measuring the time from each key to the first frame after it and the bytes of
//! frames per key. Prints one line of figures; `scripts/load-web.sh` runs it against a fresh
//! release server for several N and adds the server's memory.
//!
//! With `--accounts 1`, each bot first registers an account (`loadbotN-PID`, through the
//! real forms: the log-in page's CSRF token, `POST /register`) and plays logged in, so the
//! accounts, their sessions and their games' ownership are in every request's path.
//!
//! With `--server-pid PID` (the server's process on this machine), it also reports
//! `server_ticks_playing`: the server's CPU time (user + system, in clock ticks) from the
//! moment every bot is in its game to the end, so the registrations and game starts
//! before it are not counted against the moves.
//!
//! With `--timeline 1`, it also prints to stderr, for each second of the run, the keys
//! sent in it and their p50, p99 and slowest answer: where a slow p99 came from.
//!
//! ```text
//! cargo run --release -p alembic-web --example load -- --url 127.0.0.1:8080 --clients 100 --seconds 20
//! ```
#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

struct Args {
    addr: SocketAddr,
    clients: usize,
    seconds: u64,
    interval_ms: u64,
    accounts: bool,
    timeline: bool,
    /// The server's process, whose CPU time over the moves is reported (`--server-pid`).
    server_pid: Option<u32>,
    /// When the run started (the seconds of `--timeline` count from it).
    start: Instant,
}

fn args() -> Args {
    let mut a = Args {
        addr: "127.0.0.1:8080".parse().unwrap(),
        clients: 10,
        seconds: 20,
        interval_ms: 200,
        accounts: false,
        timeline: false,
        server_pid: None,
        start: Instant::now(),
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let val = pair.get(1).map(String::as_str).unwrap_or("");
        match pair[0].as_str() {
            "--url" => a.addr = val.parse().expect("--url HOST:PORT"),
            "--clients" => a.clients = val.parse().expect("--clients N"),
            "--seconds" => a.seconds = val.parse().expect("--seconds S"),
            "--interval-ms" => a.interval_ms = val.parse().expect("--interval-ms MS"),
            "--accounts" => a.accounts = val == "1",
            "--timeline" => a.timeline = val == "1",
            "--server-pid" => a.server_pid = Some(val.parse().expect("--server-pid PID")),
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

#[derive(Default)]
struct Totals {
    keys: AtomicU64,
    frame_bytes: AtomicU64,
    failures: AtomicU64,
    /// The server's CPU time (user + system, clock ticks) when every bot was in its game.
    ticks_playing: AtomicU64,
}

/// User + system CPU time of process `pid`, in clock ticks (`/proc/PID/stat`).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count fields after its ')'.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

/// Wait until every bot is in its game; the last one in notes the server's CPU time.
async fn warmed(warm: &tokio::sync::Barrier, a: &Args, totals: &Totals) {
    if warm.wait().await.is_leader()
        && let Some(t) = a.server_pid.and_then(cpu_ticks)
    {
        totals.ticks_playing.store(t, Ordering::Relaxed);
    }
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

async fn bot(
    n: usize,
    a: Arc<Args>,
    totals: Arc<Totals>,
    warm: Arc<tokio::sync::Barrier>,
) -> Vec<(u32, u32)> {
    // (second of the run the key was sent in, µs to its frame)
    let mut lat = Vec::new();
    let mut req = format!("ws://{}/ws/play?game=alchemy&name=bot{n}", a.addr)
        .into_client_request()
        .unwrap();
    let token = issued_token(a.addr).await;
    let mut cookie = format!("alembic_token={token}");
    if a.accounts {
        match register(
            a.addr,
            &cookie,
            &format!("loadbot{n}-{}", std::process::id()),
        )
        .await
        {
            Some(session) => cookie = format!("{cookie}; alembic_session={session}"),
            None => {
                totals.failures.fetch_add(1, Ordering::Relaxed);
                warmed(&warm, &a, &totals).await;
                return lat;
            }
        }
    }
    req.headers_mut().insert("Cookie", cookie.parse().unwrap());
    let ws = tokio::time::timeout(
        Duration::from_secs(60),
        tokio_tungstenite::connect_async(req),
    )
    .await;
    let Ok(Ok((mut ws, _))) = ws else {
        totals.failures.fetch_add(1, Ordering::Relaxed);
        warmed(&warm, &a, &totals).await;
        return lat;
    };
    let _ = ws
        .send(Message::text(r#"{"t":"resize","w":80,"h":24}"#))
        .await;
    // Wait for the first frames, then for every bot to be in its game.
    let _ = tokio::time::timeout(Duration::from_secs(30), async {
        let mut frames = 0;
        while let Some(Ok(m)) = ws.next().await {
            if m.is_binary() {
                frames += 1;
                if frames >= 2 {
                    break;
                }
            }
        }
    })
    .await;
    warmed(&warm, &a, &totals).await;
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    let mut x = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let end = Instant::now() + Duration::from_secs(a.seconds);
    // A random phase, so the keys do not all arrive at once.
    tokio::time::sleep(Duration::from_millis(x % a.interval_ms)).await;
    let mut tick = tokio::time::interval(Duration::from_millis(a.interval_ms));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while Instant::now() < end {
        tick.tick().await;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = keys[(x % keys.len() as u64) as usize];
        let input = format!(
            r#"{{"t":"input","input":{{"Key":{{"key":{{"Char":"{k}"}},"mods":{{"shift":false,"ctrl":false,"alt":false}}}}}}}}"#
        );
        let sent = Instant::now();
        if ws.send(Message::text(input)).await.is_err() {
            totals.failures.fetch_add(1, Ordering::Relaxed);
            break;
        }
        totals.keys.fetch_add(1, Ordering::Relaxed);
        // The frame this key caused (frames come in order; any text is a notice).
        let got = tokio::time::timeout(Duration::from_secs(5), async {
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Binary(b) = m {
                    return Some(b.len());
                }
            }
            None
        })
        .await;
        match got {
            Ok(Some(len)) => {
                let second = sent.duration_since(a.start).as_secs() as u32;
                lat.push((second, sent.elapsed().as_micros() as u32));
                totals.frame_bytes.fetch_add(len as u64, Ordering::Relaxed);
            }
            _ => {
                totals.failures.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
    }
    let _ = ws.close(None).await;
    lat
}

/// One HTTP/1.1 request over a fresh connection; the whole response as text.
async fn http(addr: SocketAddr, req: String) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut out))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Register `name` through the forms with the browser's `cookie`; its session token.
async fn register(addr: SocketAddr, cookie: &str, name: &str) -> Option<String> {
    let page = http(
        addr,
        format!("GET /register HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"),
    )
    .await?;
    let at = page.find("name=csrf value='")? + "name=csrf value='".len();
    let csrf = page.get(at..at + 64)?;
    let body = format!("name={name}&password=load-test-password&csrf={csrf}");
    let resp = http(
        addr,
        format!(
            "POST /register HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await?;
    let at = resp.find("alembic_session=")? + "alembic_session=".len();
    let end = resp[at..].find(';')?;
    Some(resp[at..at + end].to_owned())
}

fn main() {
    let a = Arc::new(args());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let totals = Arc::new(Totals::default());
        let warm = Arc::new(tokio::sync::Barrier::new(a.clients));
        let mut tasks = Vec::new();
        for n in 0..a.clients {
            tasks.push(tokio::spawn(bot(
                n,
                Arc::clone(&a),
                Arc::clone(&totals),
                Arc::clone(&warm),
            )));
            // Connect at a steady pace rather than all at once.
            if n % 25 == 24 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let mut timed: Vec<(u32, u32)> = Vec::new();
        for t in tasks {
            timed.extend(t.await.unwrap_or_default());
        }
        let pct = |all: &[u32], p: f64| {
            all.get(((all.len() as f64 * p).ceil() as usize).saturating_sub(1))
                .map_or(f64::NAN, |&us| f64::from(us) / 1000.0)
        };
        if a.timeline {
            timed.sort_unstable();
            for run in timed.chunk_by(|x, y| x.0 == y.0) {
                let mut v: Vec<u32> = run.iter().map(|&(_, us)| us).collect();
                v.sort_unstable();
                eprintln!(
                    "second={} keys={} p50_ms={:.1} p99_ms={:.1} max_ms={:.1}",
                    run[0].0,
                    v.len(),
                    pct(&v, 0.5),
                    pct(&v, 0.99),
                    pct(&v, 1.0)
                );
            }
        }
        let mut all: Vec<u32> = timed.iter().map(|&(_, us)| us).collect();
        all.sort_unstable();
        let pct = |p: f64| pct(&all, p);
        let keys = totals.keys.load(Ordering::Relaxed);
        let bytes = totals.frame_bytes.load(Ordering::Relaxed);
        // The server's CPU over the moves: from every bot in its game to the end.
        let playing = a.server_pid.and_then(cpu_ticks).map_or(0, |t| {
            t.saturating_sub(totals.ticks_playing.load(Ordering::Relaxed))
        });
        println!(
            "clients={} keys={} answered={} failures={} p50_ms={:.1} p99_ms={:.1} max_ms={:.1} bytes_per_move={:.0} server_ticks_playing={playing}",
            a.clients,
            keys,
            all.len(),
            totals.failures.load(Ordering::Relaxed),
            pct(0.50),
            pct(0.99),
            pct(1.0),
            if all.is_empty() { f64::NAN } else { bytes as f64 / all.len() as f64 },
        );
    });
}
