//! The outside game in the browser: the real `coins-web` binary (three lines over
//! `alembic_web::run_games`) on a free loopback port, played to its end over a real websocket
//! client, as the page plays it; and a game it does not offer refused by name.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]

#[path = "../../../frontend-web/tests/common/mod.rs"]
mod common;

use std::io::BufRead;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use alembic_ui::Input;
use common::{Client, issued_token};

/// The `coins-web` binary, serving a fresh data directory; stopped with SIGTERM by
/// [`CoinsWeb::stop`], killed if a test fails first.
struct CoinsWeb {
    child: Child,
    addr: SocketAddr,
    dir: std::path::PathBuf,
}

impl CoinsWeb {
    fn start(name: &str) -> CoinsWeb {
        let dir = common::data_dir(&format!("coins-{name}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_coins-web"))
            .args(["--bind", "127.0.0.1:0", "--data-dir"])
            .arg(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "coins-web: serving http://127.0.0.1:PORT/ (server …)"
        let addr = line
            .strip_prefix("coins-web: serving http://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
        CoinsWeb { child, addr, dir }
    }

    /// SIGTERM: every game saved, the server stopped, exit status 0.
    fn stop(mut self) -> String {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let out = std::mem::replace(&mut self.child, Command::new("true").spawn().unwrap())
            .wait_with_output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        let _ = std::fs::remove_dir_all(&self.dir);
        err
    }

    async fn get(&self, path: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(self.addr).await.unwrap();
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl Drop for CoinsWeb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The room on the screen: its top-left corner (the first row of 20 `#`).
fn room(text: &str) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .find_map(|(y, l)| l.find(&"#".repeat(20)).map(|x| (x, y)))
}

/// Where `what` is in the room, in room coordinates.
fn find(text: &str, what: char) -> Vec<(i32, i32)> {
    let Some((x0, y0)) = room(text) else {
        return Vec::new();
    };
    let mut at = Vec::new();
    for (y, line) in text.lines().enumerate().skip(y0).take(10) {
        for (x, c) in line.chars().enumerate().skip(x0).take(20) {
            if c == what {
                at.push(((x - x0) as i32, (y - y0) as i32));
            }
        }
    }
    at
}

/// The `Coins N/5  Turn T` line the coins game draws under its room.
fn status(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.find("Coins ").map(|i| l[i..].trim_end().to_owned()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coins_is_played_to_its_end_in_the_browser_server() {
    let web = CoinsWeb::start("play");
    // The lobby offers coins and nothing else.
    let lobby = web.get("/").await;
    assert!(
        lobby.contains("<select name=game><option>coins</option></select>"),
        "{lobby}"
    );
    let me = issued_token(web.addr).await;
    let mut c = Client::connect(web.addr, "/ws/play?game=coins&name=Finder", Some(&me)).await;
    let id = c.ready().await;
    c.resize(80, 24).await;
    c.until(10, "the coins room", |c| {
        status(&c.text()).is_some() && find(&c.text(), '@').len() == 1
    })
    .await;
    assert_eq!(status(&c.text()).as_deref(), Some("Coins 0/5  Turn 0"));
    assert_eq!(find(&c.text(), '$').len(), 5, "{}", c.text());
    // Walk to the nearest coin, one step a key, until none is left.
    let mut steps = 0;
    while c.ended().is_none() {
        let text = c.text();
        let &[(hx, hy)] = find(&text, '@').as_slice() else {
            panic!("no hero on\n{text}");
        };
        let Some(&(cx, cy)) = find(&text, '$')
            .iter()
            .min_by_key(|(x, y)| (x - hx).abs() + (y - hy).abs())
        else {
            break;
        };
        let key = match (cx - hx, cy - hy) {
            (dx, _) if dx > 0 => 'l',
            (dx, _) if dx < 0 => 'h',
            (_, dy) if dy > 0 => 'j',
            _ => 'k',
        };
        c.step(Input::ch(key)).await;
        steps += 1;
        assert!(steps < 200, "200 steps and coins left:\n{}", c.text());
        // Each step is a turn, shown on the coins game's own line (or the game is won).
        let turn = format!("Turn {steps}");
        let shown = |c: &Client| {
            c.ended().is_some() || status(&c.text()).is_some_and(|l| l.ends_with(&turn))
        };
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while !shown(&c) && std::time::Instant::now() < until {
            c.read_one(Duration::from_millis(100)).await;
        }
        assert!(shown(&c), "{turn} not shown after {key:?}:\n{}", c.text());
    }
    c.until(10, "the end of the game", |c| c.ended().is_some())
        .await;
    let ended = c.ended().unwrap();
    assert!(ended.contains("over"), "{ended}");
    // The lobby filed it: coins' score table has the game.
    let lobby = web.get("/").await;
    assert!(lobby.contains("<h3>coins</h3>"), "{lobby}");
    assert!(lobby.contains("Finder"), "{lobby}");
    assert!(id > 0);
    let err = web.stop();
    assert!(
        err.contains("coins-web: every game saved; stopped"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_the_server_does_not_offer_is_refused_by_name() {
    let web = CoinsWeb::start("unknown");
    let me = issued_token(web.addr).await;
    for (path, name) in [
        ("/ws/play?game=alchemy&name=Wrong", "alchemy"),
        ("/ws/play?game=crash", "crash"),
        ("/ws/play?game=%3Cb%3Ecoins", "<b>coins"),
    ] {
        let mut c = Client::connect(web.addr, path, Some(&me)).await;
        c.until(10, "the refusal", |c| c.closed).await;
        let want = format!("unknown game {name:?}; this server offers coins");
        assert!(
            c.errors().iter().any(|e| e.contains(&want)),
            "{path}: {:?}",
            c.errors()
        );
    }
    // Nothing was started: the lobby lists no game in progress, and coins still starts.
    let lobby = web.get("/").await;
    assert!(!lobby.contains("watch</a>"), "{lobby}");
    let mut c = Client::connect(web.addr, "/ws/play", Some(&me)).await;
    c.ready().await;
    c.until(10, "the coins room", |c| status(&c.text()).is_some())
        .await;
    c.step(Input::ch('.')).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    web.stop();
}
