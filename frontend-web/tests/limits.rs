//! Limits that hold in public (issue 53), through a real server and real clients bound to
//! other loopback addresses (127.0.0.2, …): games per address, server-issued tokens only,
//! abandoned anonymous games expiring.
#![allow(clippy::unwrap_used)]

mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use common::{Client, TestServer, issued_token_from, made_up_token};

fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_games_from_one_address_hits_its_cap_and_expires() {
    const CAP: usize = 4;
    let ts = TestServer::start("lim-flood", |c| {
        c.max_games_per_ip = CAP;
        c.leave_grace = Duration::from_millis(500);
        c.anon_expiry = Some(Duration::from_secs(1));
        c.expire_every = Duration::from_millis(300);
    })
    .await;
    // A token the client made up is no token: no game for it.
    let mut fake = Client::connect_from(
        ts.addr,
        ip(2),
        "/ws/play?game=crash",
        Some(&made_up_token(1)),
    )
    .await;
    fake.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        fake.errors()[0].contains("no player token"),
        "{:?}",
        fake.errors()
    );
    assert_eq!(ts.server.live_count(), 0);

    // One address asks for twelve games, each with a fresh token the server issued.
    let mut flood = Vec::new();
    let mut refused = 0;
    for _ in 0..12 {
        let t = issued_token_from(ts.addr, ip(2)).await;
        let mut c = Client::connect_from(ts.addr, ip(2), "/ws/play?game=alchemy", Some(&t)).await;
        c.until(10, "a game or a refusal", |c| {
            c.hello_id().is_some() || !c.errors().is_empty()
        })
        .await;
        if let Some(e) = c.errors().first() {
            assert!(
                e.contains("too many games in progress from your address"),
                "{e}"
            );
            refused += 1;
        } else {
            flood.push(c);
        }
    }
    assert_eq!((flood.len(), refused), (CAP, 12 - CAP));
    // Another address still starts a game.
    let t = issued_token_from(ts.addr, ip(3)).await;
    let mut other = Client::connect_from(ts.addr, ip(3), "/ws/play?game=alchemy", Some(&t)).await;
    let other_id = other.ready().await;

    // The flood leaves: its games are saved, then, untouched, deleted from the store.
    let ids: Vec<u64> = flood.iter().map(|c| c.hello_id().unwrap()).collect();
    drop(flood);
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let left = common::blocking(&ts.server, {
            let ids = ids.clone();
            move |s| {
                ids.iter()
                    .filter(|id| s.game(**id).unwrap().is_some())
                    .count()
            }
        })
        .await;
        if left == 0 {
            break;
        }
        assert!(
            Instant::now() < end,
            "{left} abandoned games still in the store"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The game being played is not touched, and the address may start games again.
    let kept = common::blocking(&ts.server, move |s| s.game(other_id).unwrap()).await;
    assert!(kept.is_some());
    other.step(alembic_ui::Input::ch('x')).await;
    let t = issued_token_from(ts.addr, ip(2)).await;
    let mut again = Client::connect_from(ts.addr, ip(2), "/ws/play?game=alchemy", Some(&t)).await;
    again.ready().await;
    ts.stop().await;
}

/// A socket from `from` that sent `bytes` (a request never finished).
async fn half_open(ts: &TestServer, from: IpAddr, bytes: &[u8]) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(std::net::SocketAddr::new(from, 0)).unwrap();
    let mut s = sock.connect(ts.addr).await.unwrap();
    let _ = s.write_all(bytes).await;
    s
}

/// Whether the server closes `s` within `within` (reading whatever it sends first).
async fn closed_within(s: &mut tokio::net::TcpStream, within: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let end = tokio::time::Instant::now() + within;
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(end, s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

/// GET /health from `from`: the status, or `None` if the connection was refused or closed.
async fn health_from(ts: &TestServer, from: IpAddr) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(std::net::SocketAddr::new(from, 0)).unwrap();
    let mut s = sock.connect(ts.addr).await.ok()?;
    let req = format!(
        "GET /health HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        ts.addr
    );
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .ok()?
        .ok()?;
    String::from_utf8_lossy(&out)
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_and_idle_connections_are_bounded_and_closed() {
    let ts = TestServer::start("lim-slow", |c| {
        c.max_connections = 40;
        c.max_sockets_per_ip = 15;
        c.header_timeout = Duration::from_secs(1);
        c.body_timeout = Duration::from_secs(1);
        c.conn_idle_timeout = Duration::from_secs(2);
    })
    .await;
    let partial = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    // 100 half-sent requests from one address: a normal client is served at once.
    let mut slow = Vec::new();
    for _ in 0..100 {
        slow.push(half_open(&ts, ip(2), partial).await);
    }
    let t = Instant::now();
    assert_eq!(health_from(&ts, ip(1)).await, Some(200));
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // The half-sent requests are dropped once their headers are late.
    for s in &mut slow {
        assert!(
            closed_within(s, Duration::from_secs(4)).await,
            "a half-open socket stayed open"
        );
    }
    // Half-sent requests from three addresses fill the whole cap: a normal client is
    // served as soon as the header timeout frees places.
    let mut slow = Vec::new();
    for a in 3..6 {
        for _ in 0..15 {
            slow.push(half_open(&ts, ip(a), partial).await);
        }
    }
    let t = Instant::now();
    loop {
        if health_from(&ts, ip(1)).await == Some(200) {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(5), "never served");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("served {:?} after the cap filled", t.elapsed());
    drop(slow);
    // A kept-alive connection that sends nothing more is closed.
    let mut idle = half_open(
        &ts,
        ip(6),
        format!("GET /health HTTP/1.1\r\nHost: {}\r\n\r\n", ts.addr).as_bytes(),
    )
    .await;
    assert!(closed_within(&mut idle, Duration::from_secs(5)).await);
    // A body sent too slowly: 408.
    let mut body = half_open(
        &ts,
        ip(7),
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=a",
    )
    .await;
    {
        use tokio::io::AsyncReadExt;
        let mut out = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), body.read_to_end(&mut out)).await;
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
    }
    // A websocket whose client answers the pings stays open past the idle timeout; one
    // whose client stopped reading (and so answering) is closed.
    let t1 = issued_token_from(ts.addr, ip(8)).await;
    let mut alive = Client::connect_from(ts.addr, ip(8), "/ws/play?game=crash", Some(&t1)).await;
    let id = alive.ready().await;
    let mut silent = Client::connect_from(ts.addr, ip(8), &format!("/ws/watch/{id}"), None).await;
    silent.ready().await;
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        alive.read_one(until - Instant::now()).await;
    }
    assert!(!alive.closed);
    alive.step(alembic_ui::Input::ch('z')).await;
    assert!(alive.text().contains('z'));
    // The silent one read nothing for 4 s: its socket was closed (what is buffered aside).
    silent.drain(500).await;
    assert!(
        silent.closed,
        "a websocket that answered no ping stayed open"
    );
    ts.stop().await;
}

/// The value of header `name` in a raw response, lower-cased name.
fn header<'a>(resp: &'a str, name: &str) -> Option<&'a str> {
    resp.split("\r\n\r\n").next()?.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then_some(v.trim())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_send_security_headers_and_hold_no_inline_script() {
    let ts = TestServer::start("lim-headers", |_| {}).await;
    for path in [
        "/",
        "/play",
        "/watch/1",
        "/replay/game-1",
        "/login",
        "/register",
        "/game.js",
        "/lobby.js",
    ] {
        let r = ts.get(path, None).await;
        assert!(r.starts_with("HTTP/1.1 200"), "{path}: {r}");
        let csp = header(&r, "content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        let script_src = csp
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .unwrap_or_else(|| panic!("{path}: no script-src in {csp}"));
        assert_eq!(script_src, "script-src 'self'", "{path}");
        assert_eq!(header(&r, "x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(
            header(&r, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(header(&r, "referrer-policy"), Some("same-origin"), "{path}");
        // The CSP allows no inline script: the pages have none (nor handlers in attributes).
        let body = r.split_once("\r\n\r\n").unwrap().1.to_ascii_lowercase();
        if path.ends_with(".js") {
            continue;
        }
        for (at, _) in body.match_indices("<script") {
            let tag = &body[at..at + body[at..].find('>').unwrap()];
            assert!(tag.contains("src="), "{path}: an inline script: {tag}");
        }
        for attr in [
            " onclick=",
            " onload=",
            " onsubmit=",
            " onchange=",
            "javascript:",
        ] {
            assert!(!body.contains(attr), "{path}: {attr}");
        }
    }
    // The lobby's script is served.
    let js = ts.get("/lobby.js", None).await;
    assert!(js.contains("location.reload"), "{js}");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_websocket_refuses_another_sites_page() {
    let ts = TestServer::start("lim-origin", |_| {}).await;
    let me = ts.token(1);
    let mut player = Client::connect(ts.addr, "/ws/play?game=crash", Some(&me)).await;
    let id = player.ready().await;
    for path in [
        "/ws/play".to_owned(),
        format!("/ws/watch/{id}"),
        "/ws/replay/game-1".to_owned(),
    ] {
        let mut req =
            tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
                format!("ws://{}{path}", ts.addr),
            )
            .unwrap();
        req.headers_mut()
            .insert("Origin", "http://evil.example".parse().unwrap());
        req.headers_mut()
            .insert("Cookie", format!("alembic_token={me}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut evil = Client {
            ws,
            grid: None,
            frames: 0,
            frame_bytes: 0,
            json: Vec::new(),
            raw: Vec::new(),
            closed: false,
        };
        evil.until(10, "the refusal", |c| c.closed).await;
        assert!(
            evil.errors()
                .first()
                .is_some_and(|e| e.contains("another site")),
            "{path}: {:?}",
            evil.errors()
        );
        assert!(evil.grid.is_none(), "{path}: a frame was sent");
    }
    assert!(player.ended().is_none());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_cookie_is_lax_and_secure_when_asked() {
    for secure in [false, true] {
        let ts = TestServer::start("lim-cookie", |c| c.secure_cookies = secure).await;
        let r = ts.get("/", None).await;
        let cookie = r
            .lines()
            .find(|l| {
                l.to_ascii_lowercase()
                    .starts_with("set-cookie: alembic_token=")
            })
            .unwrap_or_else(|| panic!("no token cookie: {r}"));
        // Lax: sent when a link on another site brings the player back, so an anonymous
        // player keeps their game.
        assert!(cookie.contains("SameSite=Lax"), "{cookie}");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert_eq!(cookie.contains("; Secure"), secure, "{cookie}");
        ts.stop().await;
    }
}

/// GET / with the Host header `host` (a raw request, as a browser on another site's page
/// would send after a DNS rebinding): the status.
async fn status_for_host(ts: &TestServer, host: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(ts.addr).await.unwrap();
    let req = format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&out)
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Issue 53: with `--allowed-host`, a request for any other name is refused (421), the
/// server's own names (with or without the port, in any case) are served; without it,
/// every name is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_allowed_hosts_are_served() {
    let ts = TestServer::start("allowed-hosts", |c| {
        c.allowed_hosts = vec!["games.example.org".into(), "127.0.0.1:8080".into()];
    })
    .await;
    assert_eq!(status_for_host(&ts, "games.example.org").await, 200);
    assert_eq!(status_for_host(&ts, "GAMES.example.org:443").await, 200);
    assert_eq!(status_for_host(&ts, "127.0.0.1:8080").await, 200);
    assert_eq!(status_for_host(&ts, "evil.example").await, 421);
    assert_eq!(
        status_for_host(&ts, "games.example.org.evil.example").await,
        421
    );
    assert_eq!(status_for_host(&ts, "127.0.0.1:9999").await, 421);
    ts.stop().await;
    let open = TestServer::start("any-host", |_| {}).await;
    assert_eq!(status_for_host(&open, "evil.example").await, 200);
    open.stop().await;
}
