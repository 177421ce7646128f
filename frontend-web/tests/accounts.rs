//! Accounts through a real server and real HTTP and websocket clients: register, log in,
//! log out, log out everywhere; one error for an unknown name and a wrong password; rate
//! limits; CSRF; SQL injection strings; a name with HTML in it; another account's game;
//! oversized and malformed forms.
#![allow(clippy::unwrap_used)]

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use common::{Client, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One HTTP response.
#[derive(Debug)]
struct Resp {
    status: u16,
    head: String,
    body: String,
}

impl Resp {
    /// The value of the `Set-Cookie` for `name`, if any.
    fn set_cookie(&self, name: &str) -> Option<String> {
        self.head
            .lines()
            .filter_map(|l| {
                l.strip_prefix("set-cookie: ")
                    .or_else(|| l.strip_prefix("Set-Cookie: "))
            })
            .find(|c| c.starts_with(&format!("{name}=")))
            .map(str::to_owned)
    }

    /// The session token a response set.
    fn session(&self) -> Option<String> {
        let c = self.set_cookie("alembic_session")?;
        let v = c.split(';').next()?.split_once('=')?.1.to_owned();
        (!v.is_empty()).then_some(v)
    }
}

/// A browser: its token, its session if logged in, and the address it comes from.
#[derive(Clone, Debug)]
struct Browser {
    token: String,
    session: Option<String>,
    from: Ipv4Addr,
    /// An `X-Forwarded-For` to send, if any.
    forwarded: Option<String>,
}

impl Browser {
    fn new(ts: &TestServer, n: u8) -> Browser {
        Browser {
            token: ts.token(n),
            session: None,
            from: Ipv4Addr::LOCALHOST,
            forwarded: None,
        }
    }

    /// The `X-Forwarded-For` header line, if any.
    fn forwarded(&self) -> String {
        self.forwarded
            .as_ref()
            .map_or_else(String::new, |f| format!("X-Forwarded-For: {f}\r\n"))
    }

    fn cookies(&self) -> String {
        match &self.session {
            Some(s) => format!("alembic_token={}; alembic_session={s}", self.token),
            None => format!("alembic_token={}", self.token),
        }
    }
}

/// Send one raw request from `from` and read the whole response.
async fn raw(addr: SocketAddr, from: Ipv4Addr, req: &[u8]) -> Resp {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::new(IpAddr::V4(from), 0)).unwrap();
    let mut s = sock.connect(addr).await.unwrap();
    s.write_all(req).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Resp {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

async fn get(ts: &TestServer, b: &Browser, path: &str) -> Resp {
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n{}Connection: close\r\n\r\n",
        ts.addr,
        b.cookies(),
        b.forwarded()
    );
    raw(ts.addr, b.from, req.as_bytes()).await
}

async fn post(ts: &TestServer, b: &Browser, path: &str, body: &[u8]) -> Resp {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n{}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        ts.addr,
        b.cookies(),
        b.forwarded(),
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    raw(ts.addr, b.from, &req).await
}

/// `s` form-encoded.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The CSRF token of the forms `b` is shown.
async fn csrf(ts: &TestServer, b: &Browser) -> String {
    let page = get(ts, b, "/login").await;
    assert_eq!(page.status, 200);
    let at = page.body.find("name=csrf value='").unwrap() + "name=csrf value='".len();
    page.body[at..at + 64].to_owned()
}

async fn form(ts: &TestServer, b: &Browser, path: &str, name: &str, password: &str) -> Resp {
    let t = csrf(ts, b).await;
    let body = format!("name={}&password={}&csrf={t}", enc(name), enc(password));
    post(ts, b, path, body.as_bytes()).await
}

/// Register `name` in `b` (which is then logged in).
async fn register(ts: &TestServer, b: &mut Browser, name: &str, password: &str) {
    let r = form(ts, b, "/register", name, password).await;
    assert_eq!(r.status, 303, "{r:?}");
    b.session = Some(r.session().unwrap());
}

async fn who(ts: &TestServer, b: &Browser) -> Option<String> {
    let page = get(ts, b, "/").await;
    assert_eq!(page.status, 200);
    let at = page.body.find("<b id=who>")? + "<b id=who>".len();
    let end = page.body[at..].find("</b>")?;
    Some(page.body[at..at + end].to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_log_in_log_out_and_everywhere() {
    let ts = TestServer::start("acc-basic", |_| {}).await;
    let mut a = Browser::new(&ts, 1);
    assert_eq!(who(&ts, &a).await, None);
    assert!(get(&ts, &a, "/").await.body.contains("Playing anonymously"));
    let r = form(&ts, &a, "/register", "Ann", "correct horse").await;
    assert_eq!(r.status, 303, "{r:?}");
    let cookie = r.set_cookie("alembic_session").unwrap();
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attr), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "{cookie}");
    a.session = r.session();
    assert_eq!(who(&ts, &a).await.as_deref(), Some("Ann"));
    // The password is not stored, only its argon2id hash.
    let acc = ts.server.store.account_by_name("ann").unwrap().unwrap();
    assert!(acc.password_hash.starts_with("$argon2id$"));
    assert!(!acc.password_hash.contains("correct horse"));
    // The name is taken, in any case.
    let mut other = Browser::new(&ts, 9);
    let r = form(&ts, &other, "/register", "ANN", "another password").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("That name is taken."));
    assert!(r.session().is_none());

    // A second browser logs in.
    let mut b = Browser::new(&ts, 2);
    let r = form(&ts, &b, "/login", "ann", "correct horse").await;
    assert_eq!(r.status, 303, "{r:?}");
    b.session = r.session();
    assert_ne!(a.session, b.session);
    assert_eq!(who(&ts, &b).await.as_deref(), Some("Ann"));

    // Log out in the first: that session ends, the second's does not.
    let t = csrf(&ts, &a).await;
    let r = post(&ts, &a, "/logout", format!("csrf={t}").as_bytes()).await;
    assert_eq!(r.status, 303);
    assert!(
        r.set_cookie("alembic_session")
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        who(&ts, &a).await,
        None,
        "the old session cookie no longer works"
    );
    assert_eq!(who(&ts, &b).await.as_deref(), Some("Ann"));

    // Log in again in the first; log out everywhere from the second: both end.
    let r = form(&ts, &a, "/login", "Ann", "correct horse").await;
    a.session = r.session();
    assert_eq!(who(&ts, &a).await.as_deref(), Some("Ann"));
    register(&ts, &mut other, "Olga", "olga's password").await;
    let t = csrf(&ts, &b).await;
    let r = post(
        &ts,
        &b,
        "/logout-everywhere",
        format!("csrf={t}").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 303);
    assert_eq!(who(&ts, &a).await, None);
    assert_eq!(who(&ts, &b).await, None);
    // Another account's session is untouched.
    assert_eq!(who(&ts, &other).await.as_deref(), Some("Olga"));
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_name_and_wrong_password_look_the_same() {
    let ts = TestServer::start("acc-same", |_| {}).await;
    let mut a = Browser::new(&ts, 1);
    register(&ts, &mut a, "Ann", "correct horse").await;
    let b = Browser::new(&ts, 2);
    let unknown = form(&ts, &b, "/login", "Nobody", "correct horse").await;
    let wrong = form(&ts, &b, "/login", "Ann", "wrong horse!").await;
    assert_eq!(unknown.status, 401);
    assert_eq!(wrong.status, unknown.status);
    assert_eq!(wrong.body, unknown.body);
    assert!(unknown.body.contains("Wrong name or password."));
    assert!(unknown.session().is_none() && wrong.session().is_none());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_in_attempts_are_rate_limited_per_name_and_per_address() {
    let ts = TestServer::start("acc-rate", |_| {}).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let mut bob = Browser::new(&ts, 2);
    register(&ts, &mut bob, "Bob", "bob's password").await;

    // Per name: five wrong passwords for Ann from one address...
    let mut x = Browser::new(&ts, 3);
    x.from = Ipv4Addr::new(127, 0, 0, 2);
    for _ in 0..5 {
        assert_eq!(
            form(&ts, &x, "/login", "Ann", "guess guess").await.status,
            401
        );
    }
    // ...and that address is refused even with the right password...
    let r = form(&ts, &x, "/login", "ann", "correct horse").await;
    assert_eq!(r.status, 429, "{r:?}");
    assert!(r.body.contains("Too many attempts"));
    assert!(r.session().is_none());
    // ...but Ann, from her own address, is not locked out by a stranger.
    let mut y = Browser::new(&ts, 4);
    y.from = Ipv4Addr::new(127, 0, 0, 3);
    let r = form(&ts, &y, "/login", "ann", "correct horse").await;
    assert_eq!(r.status, 303, "{r:?}");
    assert!(r.session().is_some());
    // A name under attack is slowed to one try per new address: a second stranger gets one
    // guess, then waits.
    let mut w = Browser::new(&ts, 6);
    w.from = Ipv4Addr::new(127, 0, 0, 5);
    assert_eq!(
        form(&ts, &w, "/login", "Ann", "guess two").await.status,
        401
    );
    assert_eq!(
        form(&ts, &w, "/login", "Ann", "guess three").await.status,
        429
    );
    // Bob, from there, is not.
    assert_eq!(
        form(&ts, &y, "/login", "Bob", "bob's password")
            .await
            .status,
        303
    );

    // Per address: five names tried from one address...
    let mut z = Browser::new(&ts, 5);
    z.from = Ipv4Addr::new(127, 0, 0, 4);
    for n in 0..5 {
        let r = form(&ts, &z, "/login", &format!("nobody{n}"), "guess guess").await;
        assert_eq!(r.status, 401);
    }
    // ...and that address is refused even for Bob's right password.
    assert_eq!(
        form(&ts, &z, "/login", "Bob", "bob's password")
            .await
            .status,
        429
    );
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_without_the_right_csrf_token_change_nothing() {
    let ts = TestServer::start("acc-csrf", |_| {}).await;
    let mut a = Browser::new(&ts, 1);
    register(&ts, &mut a, "Ann", "correct horse").await;
    let b = Browser::new(&ts, 2);
    let bs = csrf(&ts, &b).await;
    let me = Browser::new(&ts, 3);
    let bodies = [
        "name=Eve&password=eve's+password".to_owned(),
        "name=Eve&password=eve's+password&csrf=".to_owned(),
        format!("name=Eve&password=eve's+password&csrf={}", "0".repeat(64)),
        // Another browser's token.
        format!("name=Eve&password=eve's+password&csrf={bs}"),
    ];
    for body in &bodies {
        let r = post(&ts, &me, "/register", body.as_bytes()).await;
        assert_eq!(r.status, 403, "{body}");
        assert!(r.session().is_none());
        let r = post(&ts, &me, "/login", body.as_bytes()).await;
        assert_eq!(r.status, 403, "{body}");
        // Ann's sessions stay.
        let r = post(&ts, &a, "/logout-everywhere", body.as_bytes()).await;
        assert_eq!(r.status, 403);
        let r = post(&ts, &a, "/logout", body.as_bytes()).await;
        assert_eq!(r.status, 403);
    }
    assert!(ts.server.store.account_by_name("Eve").unwrap().is_none());
    assert_eq!(who(&ts, &a).await.as_deref(), Some("Ann"));
    // No browser token at all.
    let body = "name=Eve&password=eve-password";
    let req = format!(
        "POST /register HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        ts.addr,
        body.len()
    );
    assert_eq!(
        raw(ts.addr, Ipv4Addr::LOCALHOST, req.as_bytes())
            .await
            .status,
        403
    );
    assert!(ts.server.store.account_by_name("Eve").unwrap().is_none());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_injection_strings_are_only_text() {
    let ts = TestServer::start("acc-sql", |c| c.registrations_per_hour = 1000).await;
    let mut a = Browser::new(&ts, 1);
    register(&ts, &mut a, "Ann", "correct horse").await;
    let injections = [
        "x'); DROP TABLE accounts;--",
        "' OR '1'='1",
        "\"; DELETE FROM sessions; --",
        "admin'--",
        "1; UPDATE accounts SET password_hash='x'",
    ];
    let b = Browser::new(&ts, 2);
    for (i, s) in injections.iter().enumerate() {
        // As a name: refused at registration (not a name's characters), a plain failure at
        // log-in.
        let r = form(&ts, &b, "/register", s, "a long password").await;
        assert_eq!(r.status, 400, "{s}");
        let mut c = Browser::new(&ts, 10 + u8::try_from(i).unwrap());
        c.from = Ipv4Addr::new(127, 0, 1, u8::try_from(i).unwrap() + 1);
        assert_eq!(
            form(&ts, &c, "/login", s, "correct horse").await.status,
            401,
            "{s}"
        );
        // As a password: a password like any other.
        assert_eq!(form(&ts, &c, "/login", "Ann", s).await.status, 401, "{s}");
        let name = format!("inj{i}");
        let mut d = Browser::new(&ts, 30 + u8::try_from(i).unwrap());
        let password = format!("{s}{s}");
        register(&ts, &mut d, &name, &password).await;
        let mut e = Browser::new(&ts, 50 + u8::try_from(i).unwrap());
        e.from = c.from;
        let r = form(&ts, &e, "/login", &name, &password).await;
        assert_eq!(r.status, 303, "{s}");
        e.session = r.session();
        assert_eq!(who(&ts, &e).await.as_deref(), Some(name.as_str()));
    }
    // Ann, her session and her password are as they were.
    assert_eq!(who(&ts, &a).await.as_deref(), Some("Ann"));
    // (Five wrong passwords for Ann: her name is rate-limited now; check the hash itself.)
    let acc = ts.server.store.account_by_name("Ann").unwrap().unwrap();
    assert!(alembic_web::accounts::verify_password(
        "correct horse",
        &acc.password_hash
    ));
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_html_are_shown_as_text() {
    let ts = TestServer::start("acc-html", |_| {}).await;
    // (Player names are cut to 20 characters.)
    let evil = "<script>x</script>";
    let b = Browser::new(&ts, 1);
    // Not an account name...
    let r = form(&ts, &b, "/register", evil, "a long password").await;
    assert_eq!(r.status, 400);
    assert!(!r.body.contains("<script>alert"), "{}", r.body);
    // ...but a player may call themselves that, and the lobby shows it as text.
    let mut a = Browser::new(&ts, 2);
    register(&ts, &mut a, "Ann", "correct horse").await;
    let path = format!("/ws/play?game=alchemy&name={}", enc(evil));
    let mut c = Client::connect_cookies(ts.addr, &path, Some(&a.cookies())).await;
    c.ready().await;
    let lobby = get(&ts, &a, "/").await;
    assert!(
        lobby.body.contains("&lt;script&gt;x&lt;/script&gt;"),
        "{}",
        lobby.body
    );
    assert!(!lobby.body.contains(evil));
    ts.stop().await;
}

/// A hostile name in every page that shows a name: the lobby (a game in progress, the
/// score table, the finished games), the finished game's page, the player's page, and the
/// account forms that say what was wrong with a name. It is text everywhere: never a tag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_name_is_text_in_every_page_that_shows_names() {
    let ts = TestServer::start("acc-hostile", |_| {}).await;
    // 18 characters: player names keep 20.
    let evil = "'\"><img src=x>&<b";
    let escaped = "&#39;&quot;&gt;&lt;img src=x&gt;&amp;&lt;b";
    let clean = |what: &str, body: &str| {
        assert!(
            !body.contains("<img"),
            "{what}: a tag from the name:\n{body}"
        );
        assert!(!body.contains(evil), "{what}: the name unescaped:\n{body}");
    };
    // The account forms: the name refused, and said back (if at all) as text.
    let b = Browser::new(&ts, 1);
    let r = form(&ts, &b, "/register", evil, "a long password").await;
    assert_eq!(r.status, 400);
    clean("/register", &r.body);
    let r = form(&ts, &b, "/login", evil, "a long password").await;
    clean("/login", &r.body);
    // A player of that name, logged in as Ann: the lobby while the game is in progress.
    let mut ann = Browser::new(&ts, 2);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let (mut a, id) = start_game(&ts, &ann, evil).await;
    let lobby = get(&ts, &ann, "/").await;
    clean("the lobby, in progress", &lobby.body);
    assert!(lobby.body.contains(escaped), "{}", lobby.body);
    // Its end: the score table, the finished games, the game's page, Ann's page.
    quit_and_file(&ts, &mut a, id).await;
    let lobby = get(&ts, &ann, "/").await;
    clean("the lobby, finished", &lobby.body);
    let scores = lobby.body.split("id=scores").nth(1).unwrap();
    let finished = lobby.body.split("id=finished").nth(1).unwrap();
    assert!(
        scores.contains(escaped),
        "not in the scores: {}",
        lobby.body
    );
    assert!(
        finished.contains(escaped),
        "not in the finished games: {}",
        lobby.body
    );
    let page = get(&ts, &ann, &format!("/games/{id}")).await;
    assert_eq!(page.status, 200);
    clean("the game's page", &page.body);
    assert!(page.body.contains(escaped), "{}", page.body);
    let player = get(&ts, &ann, "/players/Ann").await;
    assert_eq!(player.status, 200);
    clean("the player's page", &player.body);
    let delete = get(&ts, &ann, "/delete-account").await;
    assert_eq!(delete.status, 200);
    clean("the delete page", &delete.body);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_account_cannot_play_my_game_and_claiming_works() {
    let ts = TestServer::start("acc-owner", |_| {}).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let mut bob = Browser::new(&ts, 2);
    register(&ts, &mut bob, "Bob", "bob's password").await;
    let (mut c, id) = start_game(&ts, &ann, "Ann").await;
    let ann_id = ts.server.store.account_by_name("ann").unwrap().unwrap().id;
    assert_eq!(ts.server.store.game_owner(id).unwrap(), Some(ann_id));
    let turn = ts.server.rows()[0].turn;
    // Bob, logged in, asking for it as a player: refused, and nothing reaches the game.
    let mut b =
        Client::connect_cookies(ts.addr, &format!("/ws/play?id={id}"), Some(&bob.cookies())).await;
    b.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(b.errors()[0].contains("not yours"), "{:?}", b.errors());
    assert!(b.grid.is_none());
    // Ann, from another browser, logged in: it is hers.
    let mut ann2 = Browser::new(&ts, 3);
    let r = form(&ts, &ann2, "/login", "Ann", "correct horse").await;
    ann2.session = r.session();
    let mut c2 =
        Client::connect_cookies(ts.addr, &format!("/ws/play?id={id}"), Some(&ann2.cookies())).await;
    assert_eq!(c2.ready().await, id);
    c.until(10, "told another tab took over", |c| c.closed)
        .await;
    assert_eq!(ts.server.rows()[0].turn, turn);
    // The same browser without the session (logged out) is a stranger.
    let stranger = Browser::new(&ts, 3);
    let mut s = Client::connect_cookies(
        ts.addr,
        &format!("/ws/play?id={id}"),
        Some(&stranger.cookies()),
    )
    .await;
    s.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(s.errors()[0].contains("not yours"));

    // An anonymous game, claimed by logging in from the same browser.
    let mut anon = Browser::new(&ts, 4);
    let (_g, gid) = start_game(&ts, &anon, "Anon").await;
    assert_eq!(ts.server.store.game_owner(gid).unwrap(), None);
    let r = form(&ts, &anon, "/login", "Bob", "bob's password").await;
    anon.session = r.session();
    let lobby = get(&ts, &anon, "/").await;
    assert!(lobby.body.contains("id=claim"), "{}", lobby.body);
    // Without the CSRF token: refused, not claimed.
    assert_eq!(post(&ts, &anon, "/claim", b"csrf=x").await.status, 403);
    assert_eq!(ts.server.store.game_owner(gid).unwrap(), None);
    let t = csrf(&ts, &anon).await;
    assert_eq!(
        post(&ts, &anon, "/claim", format!("csrf={t}").as_bytes())
            .await
            .status,
        303
    );
    let bob_id = ts.server.store.account_by_name("bob").unwrap().unwrap().id;
    assert_eq!(ts.server.store.game_owner(gid).unwrap(), Some(bob_id));
    assert!(!get(&ts, &anon, "/").await.body.contains("id=claim"));
    // Bob plays it from his first browser; Ann cannot.
    let mut b2 =
        Client::connect_cookies(ts.addr, &format!("/ws/play?id={gid}"), Some(&bob.cookies())).await;
    assert_eq!(b2.ready().await, gid);
    let mut a3 =
        Client::connect_cookies(ts.addr, &format!("/ws/play?id={gid}"), Some(&ann.cookies())).await;
    a3.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(a3.errors()[0].contains("not yours"));
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_and_malformed_forms_are_refused() {
    let ts = TestServer::start("acc-big", |c| c.registrations_per_hour = 1000).await;
    let a = Browser::new(&ts, 1);
    let t = csrf(&ts, &a).await;
    // Over the body limit.
    let big = format!("name=Big&password={}&csrf={t}", "x".repeat(10_000));
    let r = post(&ts, &a, "/register", big.as_bytes()).await;
    assert_eq!(r.status, 413, "{r:?}");
    let r = post(&ts, &a, "/login", big.as_bytes()).await;
    assert_eq!(r.status, 413);
    // Within it, but over the fields' bounds.
    for (name, password) in [
        ("x".repeat(33), "a long password".to_owned()),
        (String::new(), "a long password".to_owned()),
        ("Short".to_owned(), "1234567".to_owned()),
        ("Long".to_owned(), "p".repeat(257)),
        ("é".to_owned(), "a long password".to_owned()),
        ("a b".to_owned(), "a long password".to_owned()),
        ("nul\0".to_owned(), "a long password".to_owned()),
    ] {
        let r = form(&ts, &a, "/register", &name, &password).await;
        assert_eq!(r.status, 400, "{name:?}");
        assert!(r.session().is_none());
    }
    // Long enough but weak: the name itself, one character repeated, a common password.
    // Each is refused with its reason, and no account is made.
    for (password, why) in [
        ("Weakling", "cannot be the account"),
        ("zzzzzzzzzzzz", "one character repeated"),
        ("Password1", "most common"),
        ("12345678", "most common"),
    ] {
        let r = form(&ts, &a, "/register", "Weakling", password).await;
        assert_eq!(r.status, 400, "{password:?}: {r:?}");
        assert!(r.body.contains(why), "{password:?}: {}", r.body);
        assert!(r.session().is_none());
    }
    assert!(
        ts.server
            .store
            .account_by_name("weakling")
            .unwrap()
            .is_none()
    );
    // Malformed bodies: refused as a client error, never a crash.
    for body in [
        &b"%zz%%&&=="[..],
        b"\xff\xfe\xfd",
        b"name=a&name=b&csrf=1&password=2",
    ] {
        let r = post(&ts, &a, "/register", body).await;
        assert!((400..500).contains(&r.status), "{r:?}");
    }
    let r = post(
        &ts,
        &a,
        "/login",
        format!("name=Ann&password={}&csrf={t}", "p".repeat(300)).as_bytes(),
    )
    .await;
    assert_eq!(r.status, 401);
    // Nothing was made, and the server still serves.
    for n in ["Big", "Short", "Long", "a"] {
        assert!(ts.server.store.account_by_name(n).unwrap().is_none(), "{n}");
    }
    assert_eq!(get(&ts, &a, "/").await.status, 200);
    ts.stop().await;
}

/// Wait until `server` runs no game (its players left and their games were saved).
async fn until_no_games(ts: &TestServer) {
    for _ in 0..100 {
        if ts.server.live_count() == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("games still running: {}", ts.server.live_count());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_my_account_takes_my_data_and_nothing_else() {
    let ts = TestServer::start("acc-delete", |c| {
        c.leave_grace = std::time::Duration::from_millis(200);
    })
    .await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let mut bob = Browser::new(&ts, 2);
    register(&ts, &mut bob, "Bob", "bob's password").await;
    let (mut a, ann_game) = start_game(&ts, &ann, "Ann").await;
    a.step(alembic_ui::Input::ch('l')).await;
    let (b, bob_game) = start_game(&ts, &bob, "Bob").await;
    let ann_id = ts.server.store.account_by_name("ann").unwrap().unwrap().id;
    let page = get(&ts, &ann, "/delete-account").await;
    assert_eq!(page.status, 200);
    let t = csrf(&ts, &ann).await;
    // While her game is being played: refused, nothing deleted.
    let r = post(
        &ts,
        &ann,
        "/delete-account",
        format!("csrf={t}&password=correct+horse").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 403, "{r:?}");
    assert!(r.body.contains("being played"), "{}", r.body);
    assert!(ts.server.store.account(ann_id).unwrap().is_some());
    drop(a);
    drop(b);
    until_no_games(&ts).await;
    let save = ts.dir.join(format!("alchemy-{ann_game}.save"));
    assert!(save.is_file());
    assert!(ts.server.store.game_save(ann_game).unwrap().is_some());
    // Without the CSRF token, or with the wrong password: refused, nothing deleted.
    let r = post(
        &ts,
        &ann,
        "/delete-account",
        b"csrf=x&password=correct+horse",
    )
    .await;
    assert_eq!(r.status, 403);
    let r = post(
        &ts,
        &ann,
        "/delete-account",
        format!("csrf={t}&password=wrong+horse").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 403);
    assert!(r.body.contains(accounts_bad_login()), "{}", r.body);
    assert!(ts.server.store.account(ann_id).unwrap().is_some());
    // Bob's password in Ann's session deletes nothing either; Bob's form deletes Bob only.
    let r = post(
        &ts,
        &ann,
        "/delete-account",
        format!("csrf={t}&password=bob%27s+password").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 403);
    // Done right: everything of Ann's goes, Bob's stays.
    let r = post(
        &ts,
        &ann,
        "/delete-account",
        format!("csrf={t}&password=correct+horse").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 303, "{r:?}");
    assert!(ts.server.store.account(ann_id).unwrap().is_none());
    assert!(ts.server.store.game(ann_game).unwrap().is_none());
    assert!(ts.server.store.game_save(ann_game).unwrap().is_none());
    assert!(ts.server.store.recording(ann_game).unwrap().is_empty());
    assert!(!save.exists(), "her save file is gone too");
    assert!(who(&ts, &ann).await.is_none(), "logged out");
    assert_eq!(get(&ts, &ann, "/players/Ann").await.status, 404);
    assert!(ts.server.store.game(bob_game).unwrap().is_some());
    assert!(ts.server.store.game_save(bob_game).unwrap().is_some());
    assert_eq!(get(&ts, &bob, "/players/Bob").await.status, 200);
    // Logged out, the page sends to the log-in page.
    assert_eq!(
        get(&ts, &Browser::new(&ts, 9), "/delete-account")
            .await
            .status,
        303
    );
    ts.stop().await;
}

fn accounts_bad_login() -> &'static str {
    "Wrong name or password."
}

/// `b` starts an Alchemy game as `name` (the name form-encoded); its client and id.
/// Quit game `id` (`Q` `y`), wait for the page's summary and for the store to file the
/// game as finished (at most 5 s).
async fn quit_and_file(ts: &TestServer, a: &mut Client, id: u64) {
    a.step(alembic_ui::Input::ch('Q')).await;
    a.step(alembic_ui::Input::ch('y')).await;
    a.until(10, "the end of the game", |c| c.ended().is_some())
        .await;
    for _ in 0..50 {
        if ts.server.store.game(id).unwrap().unwrap().status
            == alembic_web::store::GameStatus::Finished
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn start_game(ts: &TestServer, b: &Browser, name: &str) -> (Client, u64) {
    let mut c = Client::connect_cookies(
        ts.addr,
        &format!("/ws/play?game=alchemy&name={}", enc(name)),
        Some(&b.cookies()),
    )
    .await;
    let id = c.ready().await;
    (c, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_and_game_pages_show_names_as_text_and_refuse_bad_paths() {
    let ts = TestServer::start("acc-pages", |_| {}).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    // Names are cut to 20 characters: all of this is kept.
    let evil = "<b>'\"&x</b>";
    let (mut a, id) = start_game(&ts, &ann, evil).await;
    // The game ends there: the page shows its summary.
    quit_and_file(&ts, &mut a, id).await;
    let lobby = get(&ts, &ann, "/").await;
    let page = get(&ts, &ann, &format!("/games/{id}")).await;
    let player = get(&ts, &ann, "/players/Ann").await;
    assert_eq!((page.status, player.status), (200, 200));
    for body in [&lobby.body, &page.body, &player.body] {
        assert!(!body.contains("<b>'"), "{body}");
    }
    assert!(
        lobby.body.contains("&lt;b&gt;&#39;&quot;&amp;x&lt;/b&gt;"),
        "{}",
        lobby.body
    );
    assert!(page.body.contains("&lt;b&gt;"), "{}", page.body);
    assert!(
        player.body.contains(&format!("/replay/game-{id}")),
        "{}",
        player.body
    );
    // Paths that are not a game or a player: 404, nothing read.
    for bad in [
        "/games/..%2F..%2Fetc%2Fpasswd",
        "/games/-1",
        "/games/99999999999999999999999",
        "/games/1%27%20OR%20%271%27%3D%271",
        "/morgue/game-..%2F1",
        "/morgue/game-",
        "/records/game-1%2F..",
        "/players/..%2F..%2Fetc",
        "/players/x%27%20OR%20%271",
        "/players/nobody",
    ] {
        let r = get(&ts, &ann, bad).await;
        assert_eq!(r.status, 404, "{bad}: {r:?}");
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_says_what_the_server_holds_and_backup_copies_the_database() {
    let ts = TestServer::start("acc-health", |c| c.server_name = Some("alpha".to_owned())).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let mut a = Client::connect_cookies(
        ts.addr,
        "/ws/play?game=alchemy&name=Ann",
        Some(&ann.cookies()),
    )
    .await;
    a.ready().await;
    let mut w = Client::connect_cookies(
        ts.addr,
        &format!("/ws/watch/{}", a.hello_id().unwrap()),
        None,
    )
    .await;
    w.ready().await;
    let h = get(&ts, &ann, "/health").await;
    assert_eq!(h.status, 200);
    let v: serde_json::Value = serde_json::from_str(&h.body).unwrap();
    assert_eq!(v["status"], "ok");
    assert_eq!(v["server"], "alpha");
    assert_eq!(v["db"], "sqlite");
    assert_eq!(v["games_here"], 1);
    assert_eq!(v["spectators"], 1);
    assert_eq!(v["store"]["accounts"], 1);
    assert_eq!(v["store"]["live"], 1);
    // The game's start went through the server's group commit.
    assert!(v["commits"]["writes"].as_u64().unwrap() >= 1);
    assert!(v["commits"]["transactions"].as_u64().unwrap() >= 1);
    // A backup while the server runs: a database with the same account and game.
    let copy = ts.dir.join("backup.db");
    ts.server.store.backup(&copy).unwrap();
    assert!(
        ts.server.store.backup(&copy).is_err(),
        "never over an existing file"
    );
    let b = alembic_web::store::open(&format!("sqlite:{}", copy.display())).unwrap();
    assert!(b.account_by_name("ann").unwrap().is_some());
    assert_eq!(b.counts(alembic_web::accounts::now()).unwrap().live, 1);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_not_over_cannot_be_read_and_injected_names_are_text() {
    // The recording of a game in progress (or saved) is its owner's: no page serves it and
    // the replay viewer refuses it, whoever asks; once over, it is public (as in DCSS).
    let ts = TestServer::start("acc-private", |_| {}).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let sql = "x'); DROP TABLE web_games;--";
    let (mut a, id) = start_game(&ts, &ann, sql).await;
    a.step(alembic_ui::Input::ch('l')).await;
    for who in [&ann, &Browser::new(&ts, 2)] {
        for path in [
            format!("/records/game-{id}"),
            format!("/morgue/game-{id}"),
            format!("/games/{id}"),
        ] {
            assert_eq!(get(&ts, who, &path).await.status, 404, "{path}");
        }
    }
    let mut r = Client::connect(ts.addr, &format!("/ws/replay/game-{id}"), None).await;
    r.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(r.errors()[0].contains("no recording"), "{:?}", r.errors());
    assert!(r.grid.is_none());
    // The injection string is the player's name, kept and shown as text.
    let g = ts.server.store.game(id).unwrap().unwrap();
    assert_eq!(g.player, lobby_name(sql));
    let lobby = get(&ts, &ann, "/").await;
    assert!(lobby.body.contains("x&#39;); DROP TABLE"), "{}", lobby.body);
    assert_eq!(ts.server.store.counts(0).unwrap().accounts, 1);
    ts.stop().await;
}

/// A player's name as the lobby keeps it (cut to 20 characters).
fn lobby_name(name: &str) -> String {
    alembic_web::lobby::clean_name(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_wrong_passwords_is_counted_before_any_is_checked() {
    let ts = TestServer::start("acc-burst", |c| c.max_sockets_per_ip = 1000).await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    // 300 wrong passwords for Ann, all at once, from one address (its sockets are not
    // capped here: the log-in gate is what is tested).
    let mut x = Browser::new(&ts, 2);
    x.from = Ipv4Addr::new(127, 0, 0, 2);
    let t = csrf(&ts, &x).await;
    let body = format!("name=Ann&password=guess+guess&csrf={t}");
    let mut tasks = Vec::new();
    for _ in 0..300 {
        let (addr, x, body) = (ts.addr, x.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            let req = format!(
                "POST /login HTTP/1.1\r\nHost: {addr}\r\nCookie: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                x.cookies(),
                body.len()
            );
            raw(addr, x.from, req.as_bytes()).await.status
        }));
    }
    let mut checked = 0;
    let mut limited = 0;
    for t in tasks {
        match t.await.unwrap() {
            401 => checked += 1,
            429 => limited += 1,
            other => panic!("status {other}"),
        }
    }
    eprintln!("300 at once: {checked} checked, {limited} refused unchecked");
    assert!(checked <= 5, "{checked} of 300 passwords were checked");
    assert_eq!(checked + limited, 300);
    // The right password from there, within the window: refused as limited.
    let r = form(&ts, &x, "/login", "Ann", "correct horse").await;
    assert_eq!(r.status, 429, "{r:?}");
    // The owner, from another address, logs in.
    let mut home = Browser::new(&ts, 3);
    home.from = Ipv4Addr::new(127, 0, 0, 3);
    let r = form(&ts, &home, "/login", "Ann", "correct horse").await;
    assert_eq!(r.status, 303, "{r:?}");
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_and_delete_account_are_rate_limited() {
    let ts = TestServer::start("acc-reg-limit", |c| c.registrations_per_hour = 3).await;
    let mut b = Browser::new(&ts, 1);
    b.from = Ipv4Addr::new(127, 0, 0, 2);
    for n in 0..3 {
        let r = form(&ts, &b, "/register", &format!("many{n}"), "a long password").await;
        assert_eq!(r.status, 303, "{r:?}");
    }
    let r = form(&ts, &b, "/register", "many3", "a long password").await;
    assert_eq!(r.status, 429, "{r:?}");
    assert!(r.body.contains("Too many registrations"), "{}", r.body);
    assert!(ts.server.store.account_by_name("many3").unwrap().is_none());
    // Another address still registers.
    let mut c = Browser::new(&ts, 2);
    c.from = Ipv4Addr::new(127, 0, 0, 3);
    register(&ts, &mut c, "Cat", "cat's password").await;
    // Deleting the account checks its password under the log-in limits.
    let t = csrf(&ts, &c).await;
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let r = post(
            &ts,
            &c,
            "/delete-account",
            format!("csrf={t}&password=wrong+guess").as_bytes(),
        )
        .await;
        statuses.push(r.status);
    }
    assert_eq!(statuses, [403, 403, 403, 403, 403, 429, 429]);
    assert!(ts.server.store.account_by_name("Cat").unwrap().is_some());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
    let ts = TestServer::start("acc-proxy", |c| {
        c.trusted_proxies = vec![alembic_web::limits::parse_net("127.0.0.2/32").unwrap()];
    })
    .await;
    let mut ann = Browser::new(&ts, 1);
    register(&ts, &mut ann, "Ann", "correct horse").await;
    let mut bob = Browser::new(&ts, 2);
    register(&ts, &mut bob, "Bob", "bob's password").await;
    // Through the trusted proxy, one client's five wrong passwords (on several names)...
    let mut mallory = Browser::new(&ts, 3);
    mallory.from = Ipv4Addr::new(127, 0, 0, 2);
    mallory.forwarded = Some("198.51.100.1, 203.0.113.7".to_owned());
    for n in 0..5 {
        let r = form(
            &ts,
            &mallory,
            "/login",
            &format!("nobody{n}"),
            "guess guess",
        )
        .await;
        assert_eq!(r.status, 401);
    }
    assert_eq!(
        form(&ts, &mallory, "/login", "Bob", "bob's password")
            .await
            .status,
        429
    );
    // ...limit that client only: another behind the same proxy logs in. (The first
    // address in the header is what the client wrote: not believed.)
    let mut carol = Browser::new(&ts, 4);
    carol.from = Ipv4Addr::new(127, 0, 0, 2);
    carol.forwarded = Some("203.0.113.7, 203.0.113.8".to_owned());
    assert_eq!(
        form(&ts, &carol, "/login", "Bob", "bob's password")
            .await
            .status,
        303
    );
    // From a peer that is no trusted proxy the header is ignored: a client cannot pose as
    // many addresses to escape its limit.
    let mut eve = Browser::new(&ts, 5);
    eve.from = Ipv4Addr::new(127, 0, 0, 3);
    for n in 0..5 {
        eve.forwarded = Some(format!("192.0.2.{n}"));
        let r = form(&ts, &eve, "/login", &format!("nobody{n}"), "guess guess").await;
        assert_eq!(r.status, 401);
    }
    eve.forwarded = Some("192.0.2.99".to_owned());
    assert_eq!(
        form(&ts, &eve, "/login", "Ann", "correct horse")
            .await
            .status,
        429
    );
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logging_out_everywhere_closes_the_accounts_game_elsewhere() {
    let ts = TestServer::start("acc-out-everywhere", |_| {}).await;
    // Ann starts a game in her browser...
    let mut home = Browser::new(&ts, 1);
    register(&ts, &mut home, "Ann", "correct horse").await;
    let (mut h, id) = start_game(&ts, &home, "Ann").await;
    h.step(alembic_ui::Input::ch('l')).await;
    drop(h);
    // ...someone logged in as Ann elsewhere plays it...
    let mut other = Browser::new(&ts, 2);
    other.from = Ipv4Addr::new(127, 0, 0, 2);
    let r = form(&ts, &other, "/login", "Ann", "correct horse").await;
    other.session = r.session();
    let mut o = Client::connect_cookies(
        ts.addr,
        &format!("/ws/play?id={id}"),
        Some(&other.cookies()),
    )
    .await;
    assert_eq!(o.ready().await, id);
    o.step(alembic_ui::Input::ch('h')).await;
    // ...Ann logs out everywhere: that connection ends at once, and cannot come back.
    let t = csrf(&ts, &home).await;
    let r = post(
        &ts,
        &home,
        "/logout-everywhere",
        format!("csrf={t}").as_bytes(),
    )
    .await;
    assert_eq!(r.status, 303);
    o.until(5, "the end of the connection", |c| c.ended().is_some())
        .await;
    assert!(
        o.ended().unwrap().contains("logged out everywhere"),
        "{:?}",
        o.ended()
    );
    let mut again = Client::connect_cookies(
        ts.addr,
        &format!("/ws/play?id={id}"),
        Some(&other.cookies()),
    )
    .await;
    again.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        again.errors()[0].contains("not yours"),
        "{:?}",
        again.errors()
    );
    // Ann's own browser still has her game (it started there).
    let mut back = Client::connect_cookies(ts.addr, "/ws/play", Some(&home.cookies())).await;
    assert_eq!(back.ready().await, id);
    ts.stop().await;
}
