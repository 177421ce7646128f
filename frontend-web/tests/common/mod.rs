//! A real server on 127.0.0.1 and a real websocket client (tokio-tungstenite) for the tests.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use alembic_ui::{Frame, Input, Key};
use alembic_web::protocol::{ServerMsg, apply_body, inflate_message};
use alembic_web::{Config, Server};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A server running in this process on a free loopback port.
pub struct TestServer {
    pub addr: SocketAddr,
    pub server: Arc<Server>,
    pub dir: std::path::PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

/// A fresh data directory for `name`.
pub fn data_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-web-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

impl TestServer {
    pub async fn start(name: &str, tweak: impl FnOnce(&mut Config)) -> TestServer {
        Self::start_in(data_dir(name), tweak).await
    }

    /// A server on an existing data directory (a restart).
    pub async fn start_in(dir: std::path::PathBuf, tweak: impl FnOnce(&mut Config)) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        Self::start_on(dir, tweak, listener)
    }

    /// A server whose connections have a kernel send buffer of about `bytes` (accepted
    /// sockets inherit the listener's), so a client that stops reading blocks its sends soon.
    pub async fn start_small_send_buffer(name: &str, bytes: u32) -> TestServer {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.set_send_buffer_size(bytes).unwrap();
        sock.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let listener = sock.listen(128).unwrap();
        Self::start_on(data_dir(name), |_| {}, listener)
    }

    fn start_on(
        dir: std::path::PathBuf,
        tweak: impl FnOnce(&mut Config),
        listener: tokio::net::TcpListener,
    ) -> TestServer {
        let mut config = Config {
            data_dir: dir.clone(),
            test_games: true,
            ..Config::default()
        };
        tweak(&mut config);
        let server = Server::new(config).unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(alembic_web::serve(Arc::clone(&server), listener, async {
            let _ = rx.await;
        }));
        TestServer {
            addr,
            server,
            dir,
            stop: Some(tx),
            task: Some(task),
        }
    }

    /// Stop (every game saves) and wait for the server to end.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(20), t)
                .await
                .expect("the server stops in time")
                .unwrap()
                .unwrap();
        }
    }

    /// The token of browser `n` (the same `n`, the same browser).
    /// (Made as the server makes them, so the same token on a server restarted on the
    /// same database.)
    pub fn token(&self, n: u8) -> String {
        self.server
            .token_from(&format!("{:032x}", 0xabc0_0000_u128 + u128::from(n)))
            .as_str()
            .to_owned()
    }

    /// GET `path` over plain HTTP/1.1; the response's status line, headers and body.
    pub async fn get(&self, path: &str, cookie: Option<&str>) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = TcpStream::connect(self.addr).await.unwrap();
        let cookie = cookie.map_or_else(String::new, |c| format!("Cookie: alembic_token={c}\r\n"));
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\n{cookie}Connection: close\r\n\r\n",
            self.addr
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// A token made up by a client (not issued by any server).
pub fn made_up_token(n: u8) -> String {
    format!("{:064x}", 0xabc0_0000_u128 + u128::from(n))
}

/// A browser token issued by the server at `addr` (from the `Set-Cookie` of `/play`).
pub async fn issued_token(addr: SocketAddr) -> String {
    issued_token_from(addr, std::net::Ipv4Addr::LOCALHOST.into()).await
}

/// A browser token issued by the server at `addr` to a client at `from`.
pub async fn issued_token_from(addr: SocketAddr, from: std::net::IpAddr) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::new(from, 0)).unwrap();
    let mut s = sock.connect(addr).await.unwrap();
    let req = format!("GET /play HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    let at = text.find("alembic_token=").expect("a token cookie") + "alembic_token=".len();
    text[at..].split(';').next().unwrap().to_owned()
}

/// A websocket client that keeps the grid it was sent.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub grid: Option<Frame>,
    pub frames: usize,
    pub frame_bytes: usize,
    pub json: Vec<ServerMsg>,
    /// Every text message as sent (for fields a test reads as plain JSON).
    pub raw: Vec<String>,
    pub closed: bool,
}

impl Client {
    pub async fn connect(addr: SocketAddr, path: &str, cookie: Option<&str>) -> Client {
        let header = cookie.map(|c| format!("alembic_token={c}"));
        Self::connect_cookies(addr, path, header.as_deref()).await
    }

    /// Connect with a whole `Cookie:` header's value (a browser token and a session).
    pub async fn connect_cookies(addr: SocketAddr, path: &str, cookies: Option<&str>) -> Client {
        let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
        if let Some(c) = cookies {
            req.headers_mut().insert("Cookie", c.parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        Client {
            ws,
            grid: None,
            frames: 0,
            frame_bytes: 0,
            json: Vec::new(),
            raw: Vec::new(),
            closed: false,
        }
    }

    /// Connect from the local address `from` (127.0.0.2, …: another client address).
    pub async fn connect_from(
        addr: SocketAddr,
        from: std::net::IpAddr,
        path: &str,
        cookie: Option<&str>,
    ) -> Client {
        let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
        if let Some(c) = cookie {
            req.headers_mut()
                .insert("Cookie", format!("alembic_token={c}").parse().unwrap());
        }
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind(SocketAddr::new(from, 0)).unwrap();
        let stream = sock.connect(addr).await.unwrap();
        let (ws, _) = tokio_tungstenite::client_async(req, MaybeTlsStream::Plain(stream))
            .await
            .unwrap();
        Client {
            ws,
            grid: None,
            frames: 0,
            frame_bytes: 0,
            json: Vec::new(),
            raw: Vec::new(),
            closed: false,
        }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    pub async fn send_input(&mut self, input: Input) {
        let msg = serde_json::json!({"t": "input", "input": input}).to_string();
        self.send_text(&msg).await;
    }

    pub async fn key(&mut self, c: char) {
        self.send_input(Input::ch(c)).await;
    }

    pub async fn named(&mut self, k: Key) {
        self.send_input(Input::key(k)).await;
    }

    pub async fn resize(&mut self, w: u16, h: u16) {
        self.send_text(&format!(r#"{{"t":"resize","w":{w},"h":{h}}}"#))
            .await;
    }

    /// Read one message (false: closed or timed out).
    pub async fn read_one(&mut self, timeout: Duration) -> bool {
        match tokio::time::timeout(timeout, self.ws.next()).await {
            Ok(Some(Ok(Message::Binary(b)))) => {
                self.frames += 1;
                self.frame_bytes += b.len();
                let body = inflate_message(&b).expect("a frame message");
                apply_body(&mut self.grid, &body).expect("a well-formed frame");
                true
            }
            Ok(Some(Ok(Message::Text(t)))) => {
                self.raw.push(t.to_string());
                self.json
                    .push(serde_json::from_str(&t).expect("a server message"));
                true
            }
            Ok(Some(Ok(Message::Close(_)) | Err(_))) | Ok(None) => {
                self.closed = true;
                false
            }
            Ok(Some(Ok(_))) => true,
            Err(_) => false,
        }
    }

    /// Read until `pred` holds (panics after `secs`).
    pub async fn until(&mut self, secs: u64, what: &str, pred: impl Fn(&Client) -> bool) {
        let end = Instant::now() + Duration::from_secs(secs);
        while !pred(self) {
            let left = end.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "timed out waiting for {what}; got {:?}",
                self.json
            );
            if !self.read_one(left).await && self.closed {
                assert!(
                    pred(self),
                    "closed while waiting for {what}; got {:?}",
                    self.json
                );
            }
        }
    }

    /// Read everything that arrives within `ms`.
    pub async fn drain(&mut self, ms: u64) {
        while self.read_one(Duration::from_millis(ms)).await {}
    }

    pub fn text(&self) -> String {
        self.grid.as_ref().map(Frame::to_text).unwrap_or_default()
    }

    pub fn errors(&self) -> Vec<String> {
        self.json
            .iter()
            .filter_map(|m| match m {
                ServerMsg::Error { msg } => Some(msg.clone()),
                _ => None,
            })
            .collect()
    }

    pub fn ended(&self) -> Option<String> {
        self.json.iter().find_map(|m| match m {
            ServerMsg::Ended { msg, .. } => Some(msg.clone()),
            _ => None,
        })
    }

    pub fn hello_id(&self) -> Option<u64> {
        self.json.iter().find_map(|m| match m {
            ServerMsg::Hello { id, .. } => Some(*id),
            _ => None,
        })
    }

    /// Wait for the hello and the first frame.
    pub async fn ready(&mut self) -> u64 {
        self.until(20, "hello and a frame", |c| {
            c.hello_id().is_some() && c.grid.is_some()
        })
        .await;
        self.hello_id().unwrap()
    }

    /// Send a key and wait for the frame it causes.
    pub async fn step(&mut self, input: Input) {
        let n = self.frames;
        self.send_input(input).await;
        self.until(10, "the frame after a key", |c| {
            c.frames > n || c.ended().is_some()
        })
        .await;
    }
}

/// Walk with vi keys until game `id`'s turn reaches `min` (the hero may face walls, so
/// any one key may take no turn); panics after 200 keys.
pub async fn walk(c: &mut Client, server: &Server, id: u64, min: u64) {
    let turn = |server: &Server| {
        server
            .rows()
            .iter()
            .find(|r| r.id == id)
            .map_or(0, |r| r.turn)
    };
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    for i in 0..200 {
        if turn(server) >= min {
            return;
        }
        c.step(Input::ch(keys[(i * 5 + i / 8) % keys.len()])).await;
    }
    panic!("turn {} after 200 keys, wanted {min}", turn(server));
}

/// What the page is told while a move waits for its journal or the store.
pub const HELD: &str = "not answered yet";
/// What it is told once the move is written.
pub const WRITTEN: &str = "written again";

/// The notices the page was sent that contain `what`.
pub fn notices(c: &Client, what: &str) -> Vec<String> {
    c.json
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Notice { msg } if msg.contains(what) => Some(msg.clone()),
            _ => None,
        })
        .collect()
}

/// Send moves until one is held: a notice ([`HELD`]) says why instead of a frame answering
/// it. Returns the notice; panics when 300 moves were all answered.
pub async fn until_held(c: &mut Client) -> String {
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    for i in 0..300 {
        let n = c.frames;
        c.send_input(Input::ch(keys[(i * 5 + i / 8) % keys.len()]))
            .await;
        c.until(10, "a frame or a notice", |c| {
            c.frames > n || !notices(c, HELD).is_empty()
        })
        .await;
        if let Some(msg) = notices(c, HELD).pop() {
            return msg;
        }
    }
    panic!(
        "300 moves answered with nothing written; last screen:\n{}",
        c.text()
    );
}

/// Two servers on the database at `url`: a game started on the first is listed by the
/// second, refused there while the first holds it, and continued there at the same turn,
/// with its whole recording, once the first stops (`tests/servers.rs` on SQLite,
/// `tests/store_pg.rs` on PostgreSQL).
pub async fn two_servers(url: String, tag: &str) {
    let config = |name: &'static str| {
        let url = url.clone();
        move |c: &mut alembic_web::Config| {
            c.db = Some(url);
            c.server_name = Some(name.to_owned());
            c.lease = Duration::from_secs(2);
        }
    };
    let a = TestServer::start(&format!("{tag}-servers-a"), config("alpha")).await;
    let b = TestServer::start(&format!("{tag}-servers-b"), config("beta")).await;
    let me = a.token(1);
    let mut c = Client::connect(a.addr, "/ws/play?game=alchemy&name=Mover", Some(&me)).await;
    let id = c.ready().await;
    walk(&mut c, &a.server, id, 6).await;
    let turn = a.server.rows()[0].turn;
    // Beta lists it, and will not run it while alpha holds it.
    let lobby = b.get("/", Some(&me)).await;
    assert!(lobby.contains("on server alpha"), "{lobby}");
    let mut refused = Client::connect(b.addr, "/ws/play", Some(&me)).await;
    refused
        .until(10, "refused", |c| !c.errors().is_empty())
        .await;
    assert!(
        refused.errors()[0].contains("another server (alpha)"),
        "{:?}",
        refused.errors()
    );
    assert!(refused.grid.is_none());
    assert_eq!(b.server.live_count(), 0);
    // Alpha stops (its games save); the player comes back on beta, where no file of the
    // game ever was: it is written from the store and continues at the same turn.
    drop(c);
    a.stop().await;
    let rec = blocking(&b.server, move |s| s.game(id).unwrap().unwrap()).await;
    assert_eq!(
        (rec.status, rec.server),
        (alembic_web::store::GameStatus::Saved, None)
    );
    assert!(!b.dir.join(format!("alchemy-{id}.save")).exists());
    let mut c = Client::connect(b.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    assert_eq!(b.server.rows()[0].turn, turn);
    walk(&mut c, &b.server, id, turn + 3).await;
    let rec = blocking(&b.server, move |s| s.game(id).unwrap().unwrap()).await;
    assert_eq!(rec.server.as_deref(), Some("beta"));
    // Its whole recording came along (header first) and goes on being kept.
    let lines = blocking(&b.server, move |s| s.recording(id).unwrap()).await;
    assert!(
        lines[0].contains("\"format\":\"alembic-replay\""),
        "{lines:?}"
    );
    let file = std::fs::read_to_string(b.dir.join(format!("alchemy-{id}.replay"))).unwrap();
    assert_eq!(file.lines().collect::<Vec<_>>(), lines);
    // Another browser cannot take it on either server.
    let mut other = Client::connect(b.addr, &format!("/ws/play?id={id}"), Some(&b.token(2))).await;
    other.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        other.errors()[0].contains("not yours"),
        "{:?}",
        other.errors()
    );
    b.stop().await;
}

/// Call `server`'s store off the runtime's threads (the PostgreSQL client blocks).
pub async fn blocking<T: Send + 'static>(
    server: &Arc<Server>,
    f: impl FnOnce(&dyn alembic_web::store::Store) -> T + Send + 'static,
) -> T {
    let s = Arc::clone(server);
    tokio::task::spawn_blocking(move || f(s.store.as_ref()))
        .await
        .unwrap()
}

/// Play `moves` keys of a wandering bot on `c`, its keys drawn from `seed` (in batches of 50
/// with an Esc between: the recording grows fast), stopping early if the hero dies.
///
/// After each batch the page's width changes (80, 81, 80, ...) and the bot waits for a
/// frame of that width: the resize waits in the game's queue behind the keys, so its frame
/// says they were all answered. Without it a busy server (a whole test run, each move
/// waiting for its group commit) fell behind, and the game's queue ([`INPUT_QUEUE`]) was
/// full when a later batch came: its keys were dropped and the game was shorter.
///
/// [`INPUT_QUEUE`]: alembic_web::server::INPUT_QUEUE
pub async fn play_long(c: &mut Client, moves: usize, seed: u32) {
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', 's'];
    let mut x: u32 = seed;
    let mut sent = 0;
    let mut width = 80;
    let over = |c: &Client| c.ended().is_some() || c.text().contains("You die");
    while sent < moves && !over(c) {
        for _ in 0..50 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            c.key(keys[(x >> 16) as usize % keys.len()]).await;
            sent += 1;
        }
        c.named(Key::Esc).await;
        c.named(Key::Esc).await;
        width = if width == 80 { 81 } else { 80 };
        settle(c, width, over).await;
    }
    if width != 80 && !over(c) {
        settle(c, 80, over).await;
    }
}

/// Resize `c` to `width` × 24 and wait for its frame (or for `over`).
async fn settle(c: &mut Client, width: u16, over: impl Fn(&Client) -> bool) {
    c.resize(width, 24).await;
    c.until(30, &format!("a frame {width} wide"), |c| {
        over(c) || c.grid.as_ref().is_some_and(|g| g.width() == width)
    })
    .await;
}
