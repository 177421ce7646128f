//! The server driven through a real websocket client on 127.0.0.1: bad input, other
//! people's games, connection limits, panics, reloads, leaving, and a whole game by bot.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use alembic_ui::{Input, Key, MouseButton, MouseKind};
use common::{Client, TestServer};
use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_messages_get_an_error_and_change_nothing() {
    let ts = TestServer::start("bad", |_| {}).await;
    let me = ts.token(1);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Bad", Some(&me)).await;
    c.ready().await;
    c.resize(90, 30).await;
    c.until(10, "the resized frame", |c| {
        c.grid.as_ref().is_some_and(|g| g.width() == 90)
    })
    .await;
    c.drain(200).await;
    let screen = c.text();
    let frames = c.frames;
    let turn = ts.server.rows()[0].turn;
    let bad = [
        "x".repeat(5000),
        "{".to_owned(),
        "null".to_owned(),
        r#"{"t":"input","input":"Quit"}"#.to_owned(),
        r#"{"t":"input","input":{"Resize":{"width":5,"height":5}}}"#.to_owned(),
        r#"{"t":"resize","w":1,"h":100000}"#.to_owned(),
        r#"{"t":"input","input":{"Key":{"key":"Nope","mods":{}}}}"#.to_owned(),
        r#"{"t":"input","input":{"Key":{"key":"Up","mods":{"shift":false,"ctrl":false,"alt":false}},"extra":1}}"#.to_owned(),
    ];
    for b in &bad {
        c.send_text(b).await;
    }
    c.ws.send(tokio_tungstenite::tungstenite::Message::binary(vec![
        1, 2, 3,
    ]))
    .await
    .unwrap();
    use futures_util::SinkExt;
    c.until(10, "an error for each", |c| {
        c.errors().len() == bad.len() + 1
    })
    .await;
    let errors = c.errors();
    assert!(errors[0].contains("too large"), "{errors:?}");
    assert!(errors[1].contains("malformed"), "{errors:?}");
    assert!(errors[3].contains("cannot be sent"), "{errors:?}");
    assert!(errors.last().unwrap().contains("binary"), "{errors:?}");
    c.drain(300).await;
    // Nothing changed: no frame, same screen, same turn, the game still in progress.
    assert_eq!(c.frames, frames);
    assert_eq!(c.text(), screen);
    assert_eq!(ts.server.rows()[0].turn, turn);
    assert_eq!(ts.server.live_count(), 1);
    // And the connection still plays.
    c.step(Input::ch('s')).await;
    c.step(Input::key(Key::Down)).await;
    assert!(!c.closed);
    // A message larger than the wire limit closes only that connection.
    let mut huge = Client::connect(ts.addr, "/ws/watch/1", None).await;
    huge.ready().await;
    huge.send_text(&"y".repeat(200_000)).await;
    huge.until(10, "the close", |c| c.closed).await;
    c.step(Input::key(Key::Up)).await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_games_are_refused_clearly() {
    let ts = TestServer::start("unknown", |_| {}).await;
    for (path, want) in [
        ("/ws/watch/424242", "no game 424242"),
        ("/ws/watch/%3Cscript%3E", "no game &lt;script&gt;"),
        ("/ws/play?id=424242", "no game 424242"),
        ("/ws/play?game=nethack", "unknown game"),
        ("/ws/replay/..%2F..%2Fetc%2Fpasswd", "no recording"),
        ("/ws/replay/alchemy-seed1-1.replay", "no recording"),
    ] {
        let mut c = Client::connect(ts.addr, path, Some(&ts.token(2))).await;
        c.until(10, "the refusal", |c| c.closed).await;
        let errors = c.errors();
        assert!(
            errors.iter().any(|e| e.contains(want)),
            "{path}: {errors:?}"
        );
    }
    // Without a token there is no game to play.
    let mut c = Client::connect(ts.addr, "/ws/play", None).await;
    c.until(10, "the refusal", |c| c.closed).await;
    assert!(c.errors()[0].contains("no player token"));
    assert_eq!(ts.server.live_count(), 0);
    // Files are served only by plain listed names.
    std::fs::create_dir_all(ts.dir.join("morgue")).unwrap();
    std::fs::write(ts.dir.join("morgue/alchemy-seed1-1.txt"), "<b>dead</b>").unwrap();
    std::fs::write(ts.dir.join("secret.txt"), "secret").unwrap();
    let ok = ts.get("/morgue/alchemy-seed1-1.txt", None).await;
    assert!(ok.starts_with("HTTP/1.1 200") && ok.contains("text/plain") && ok.contains("nosniff"));
    for bad in [
        "/morgue/..%2Fsecret.txt",
        "/morgue/%2E%2E%2Fsecret.txt",
        "/morgue/.x",
        "/records/..%2Fsecret.txt",
    ] {
        let r = ts.get(bad, None).await;
        assert!(r.starts_with("HTTP/1.1 404"), "{bad}: {r}");
        assert!(!r.contains("secret\n") && !r.ends_with("secret"), "{bad}");
    }
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_but_the_owner_can_send_input_to_a_game() {
    let ts = TestServer::start("owner", |_| {}).await;
    let mut a = Client::connect(
        ts.addr,
        "/ws/play?game=alchemy&name=%3Cb%3EAda",
        Some(&ts.token(3)),
    )
    .await;
    let id = a.ready().await;
    a.drain(300).await;
    let frames = ts.server.live(id).unwrap().hub.sent().0;
    let turn = ts.server.rows()[0].turn;
    // Another browser asking for that game as a player.
    let mut b = Client::connect(ts.addr, &format!("/ws/play?id={id}"), Some(&ts.token(4))).await;
    b.until(10, "the refusal", |c| c.closed).await;
    assert!(b.errors()[0].contains("not yours"), "{:?}", b.errors());
    // The same browser as a spectator: it sees the game, and every key is refused.
    let mut s = Client::connect(ts.addr, &format!("/ws/watch/{id}"), Some(&ts.token(4))).await;
    s.ready().await;
    assert_eq!(s.text(), a.text());
    for input in [
        Input::ch('j'),
        Input::key(Key::Down),
        Input::ch('Q'),
        Input::mouse(MouseKind::Down(MouseButton::Left), 3, 3),
    ] {
        s.send_input(input).await;
    }
    s.until(10, "four refusals", |c| c.errors().len() == 4)
        .await;
    assert!(
        s.errors()
            .iter()
            .all(|e| e.contains("spectators cannot send input"))
    );
    s.drain(300).await;
    assert_eq!(
        ts.server.live(id).unwrap().hub.sent().0,
        frames,
        "the game drew nothing"
    );
    assert_eq!(ts.server.rows()[0].turn, turn);
    // The lobby escapes the player's name.
    let lobby = ts.get("/", None).await;
    assert!(lobby.contains("&lt;b&gt;Ada") && !lobby.contains("<b>Ada"));
    assert_eq!(ts.server.rows()[0].spectators, 1);
    // The owner plays on; the spectator follows live.
    a.step(Input::ch('l')).await;
    a.step(Input::ch('l')).await;
    a.drain(200).await;
    s.until(10, "the spectator catching up", |c| c.text() == a.text())
        .await;
    // Looking back through the past does not touch the game either.
    let sent = ts.server.live(id).unwrap().hub.sent().0;
    s.named(Key::Left).await;
    s.until(10, "the past", |c| c.text().contains("REPLAY"))
        .await;
    s.named(Key::Left).await;
    s.named(Key::Home).await;
    s.drain(300).await;
    assert_eq!(ts.server.live(id).unwrap().hub.sent().0, sent);
    s.named(Key::Esc).await;
    s.until(10, "back to live", |c| c.text() == a.text()).await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_connections_from_one_address_are_refused() {
    let ts = TestServer::start("conns", |c| c.max_conns_per_ip = 3).await;
    let mut a = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&ts.token(5))).await;
    let id = a.ready().await;
    let mut w1 = Client::connect(ts.addr, &format!("/ws/watch/{id}"), None).await;
    w1.ready().await;
    let mut w2 = Client::connect(ts.addr, &format!("/ws/watch/{id}"), None).await;
    w2.ready().await;
    let mut w3 = Client::connect(ts.addr, &format!("/ws/watch/{id}"), None).await;
    w3.until(10, "the refusal", |c| c.closed).await;
    assert!(w3.errors()[0].contains("too many connections"));
    // The others go on; a place freed is a place again.
    a.step(Input::ch('h')).await;
    w1.until(10, "w1 live", |c| c.text() == a.text()).await;
    drop(w2);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut w4 = Client::connect(ts.addr, &format!("/ws/watch/{id}"), None).await;
    w4.ready().await;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_ends_only_its_own_game() {
    let ts = TestServer::start("panic", |_| {}).await;
    let mut crash = Client::connect(ts.addr, "/ws/play?game=crash", Some(&ts.token(6))).await;
    crash.ready().await;
    let mut other = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&ts.token(7))).await;
    other.ready().await;
    crash.step(Input::ch('a')).await;
    assert!(crash.text().contains("crash test: a"));
    crash.key('!').await;
    crash.until(10, "the end", |c| c.ended().is_some()).await;
    assert!(crash.ended().unwrap().contains("crashed"));
    // The server and the other game go on.
    other.step(Input::ch('l')).await;
    other.step(Input::ch('h')).await;
    assert_eq!(ts.server.live_count(), 1);
    let lobby = ts.get("/", None).await;
    assert!(lobby.starts_with("HTTP/1.1 200"));
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_a_reload_and_is_saved_when_its_player_leaves() {
    let ts = TestServer::start("leave", |c| c.leave_grace = Duration::from_millis(700)).await;
    let me = ts.token(8);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&me)).await;
    let id = c.ready().await;
    common::walk(&mut c, &ts.server, id, 3).await;
    c.drain(200).await;
    // A reload: the same game, the same screen.
    let screen = c.text();
    drop(c);
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    c.drain(200).await;
    assert_eq!(c.text(), screen);
    // A second tab takes the game over; the first is told.
    let mut tab = Client::connect(ts.addr, &format!("/ws/play?id={id}"), Some(&me)).await;
    tab.ready().await;
    c.until(10, "the takeover", |c| c.ended().is_some()).await;
    assert!(c.ended().unwrap().contains("another tab"));
    // The old tab closing does not count as the player leaving: the new tab plays on
    // well past the grace.
    drop(c);
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        tab.step(Input::ch('k')).await;
    }
    assert_eq!(
        ts.server.live_count(),
        1,
        "the game was stopped under its player"
    );
    assert!(tab.ended().is_none());
    tab.drain(200).await;
    let turn = ts.server.rows()[0].turn;
    // The player leaves: after the grace the game is saved and stopped.
    drop(tab);
    let save = ts.dir.join(format!("alchemy-{id}.save"));
    let t0 = std::time::Instant::now();
    while ts.server.live_count() > 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the game was not stopped"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(save.is_file(), "no save at {}", save.display());
    // Coming back continues it, from the save.
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    c.drain(200).await;
    assert_eq!(ts.server.rows()[0].turn, turn);
    let screen = c.text();
    // A restart: the server saves it; the next server knows it is this browser's.
    let dir = ts.dir.clone();
    ts.stop().await;
    c.until(10, "the goodbye", |c| c.ended().is_some()).await;
    let ts = TestServer::start_in(dir, |_| {}).await;
    let mut other = Client::connect(ts.addr, "/ws/play", Some(&ts.token(10))).await;
    assert!(other.ready().await > id, "a new game reused an old id");
    let mut stranger =
        Client::connect(ts.addr, &format!("/ws/play?id={id}"), Some(&ts.token(11))).await;
    stranger.until(10, "the refusal", |c| c.closed).await;
    assert!(stranger.errors()[0].contains("not yours"));
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    c.drain(300).await;
    assert_eq!(
        ts.server.rows().iter().find(|r| r.id == id).unwrap().turn,
        turn
    );
    assert_eq!(c.text(), screen);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_progress_is_found_by_a_server_restarted_after_it_died() {
    // A server killed (`kill -9`) saves nothing as it goes: the store must still say whose
    // game in progress is whose, and a server restarted on the data directory is the same
    // server (scripts/web-kill9.sh kills a real one).
    let ts = TestServer::start("index", |_| {}).await;
    let me = ts.token(12);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&me)).await;
    let id = c.ready().await;
    common::walk(&mut c, &ts.server, id, 3).await;
    // What a restarted server reads, with this one still running (as if it had died).
    let after = alembic_web::Server::new(ts.server.config.clone()).unwrap();
    assert_eq!(after.name, ts.server.name);
    let mine = alembic_web::server::Token::parse(&me).unwrap();
    assert_eq!(after.game_of(&mine), Some((id, "alchemy", false)));
    let stranger = alembic_web::server::Token::parse(&ts.token(13)).unwrap();
    assert_eq!(after.game_of(&stranger), None);
    drop(after);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_whole_game_and_its_recording_replays() {
    let ts = TestServer::start("bot", |_| {}).await;
    let me = ts.token(9);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Bot", Some(&me)).await;
    let id = c.ready().await;
    c.resize(100, 36).await;
    // A wandering bot: vi keys, Esc to close any prompt, until its
    // hero dies or it has played 300 moves; then it quits (the game ends: morgue, score).
    let keys = ['h', 'j', 'k', 'l', 'y', 'u', 'b', 'n'];
    let mut x: u32 = 12345;
    let mut moves = 0;
    while c.ended().is_none() && moves < 300 && !c.text().contains("You die") {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let k = keys[(x >> 16) as usize % keys.len()];
        c.step(Input::ch(k)).await;
        if moves % 25 == 0 {
            c.step(Input::key(Key::Esc)).await;
        }
        moves += 1;
    }
    let turn = ts.server.rows().first().map_or(0, |r| r.turn);
    eprintln!(
        "bot: {moves} moves, turn {turn}, {} frames, {} bytes, ended {:?}",
        c.frames,
        c.frame_bytes,
        c.ended()
    );
    assert!(
        turn >= 50 || c.ended().is_some(),
        "the bot got nowhere (turn {turn})"
    );
    let bytes_per_move = c.frame_bytes / c.frames.max(1);
    assert!(bytes_per_move < 2048, "{bytes_per_move} bytes per frame");
    if c.ended().is_none() {
        c.step(Input::ch('Q')).await;
        c.step(Input::ch('y')).await;
    }
    // The game is over (or back at the start screen, which quits on q).
    for _ in 0..3 {
        if c.ended().is_some() {
            break;
        }
        c.drain(300).await;
        if c.ended().is_none() {
            c.step(Input::ch('q')).await;
        }
    }
    c.until(10, "the end of the game", |c| c.ended().is_some())
        .await;
    eprintln!("bot: game over: {:?}; screen:\n{}", c.ended(), c.text());
    assert_eq!(ts.server.live_count(), 0);
    // The lobby lists its recording and morgue; the recording replays with steps.
    let lobby = ts.get("/", Some(&me)).await;
    let name = lobby
        .split("/replay/")
        .nth(1)
        .and_then(|s| s.split('\'').next())
        .expect("a recording in the lobby")
        .to_owned();
    // Kept in the store: the recording, the morgue file and the score, by game id.
    assert_eq!(name, format!("game-{id}"));
    assert!(
        lobby.contains(&format!("/morgue/game-{id}")),
        "no morgue listed"
    );
    let body = |r: String| r.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap();
    let morgue = body(ts.get(&format!("/morgue/game-{id}"), None).await);
    assert!(
        morgue.starts_with("Alembic: Alchemy, the record of a game"),
        "{morgue}"
    );
    assert_eq!(ts.server.store.morgue(id).unwrap().unwrap(), morgue);
    let file = body(ts.get(&format!("/records/game-{id}"), None).await);
    assert_eq!(
        file.lines().collect::<Vec<_>>(),
        ts.server.store.recording(id).unwrap()
    );
    assert!(file.lines().count() > 10, "{file}");
    let scores = ts.server.store.top_scores("alchemy", 20).unwrap();
    assert_eq!(
        scores.iter().filter(|s| s.game_id == id).count(),
        1,
        "{scores:?}"
    );
    let page = ts.get(&format!("/games/{id}"), None).await;
    assert!(page.contains("id=morgue"), "{page}");
    assert!(
        lobby.contains("<td>Bot<td>alchemy"),
        "the finished game is not listed"
    );
    assert!(lobby.contains("id=scores"), "no score table");
    let mut r = Client::connect(ts.addr, &format!("/ws/replay/{name}"), None).await;
    r.ready().await;
    r.drain(300).await;
    assert!(r.text().contains("REPLAY"), "{}", r.text());
    r.step(Input::key(Key::End)).await;
    r.drain(200).await;
    let at_end = r.text();
    r.step(Input::key(Key::Left)).await;
    r.drain(200).await;
    assert_ne!(r.text(), at_end, "stepping back changed nothing");
    r.step(Input::key(Key::Right)).await;
    r.drain(200).await;
    assert_eq!(r.text(), at_end);
    let _ = id;
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_saves_every_game_and_closes_cleanly() {
    use std::io::BufRead;
    let dir = common::data_dir("sigterm");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_alembic-web"))
        .args(["--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: std::net::SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    let mut players = Vec::new();
    for n in 0..3 {
        let game = if n == 1 { "caves" } else { "alchemy" };
        let mut c = Client::connect(
            addr,
            &format!("/ws/play?game={game}"),
            Some(&common::issued_token(addr).await),
        )
        .await;
        let id = c.ready().await;
        if game == "alchemy" {
            c.step(Input::ch('l')).await;
            c.step(Input::ch('j')).await;
        }
        players.push((c, id, game));
    }
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    for (c, _, _) in &mut players {
        c.until(15, "the goodbye", |c| c.ended().is_some()).await;
        c.until(5, "the close", |c| c.closed).await;
    }
    let t0 = std::time::Instant::now();
    let exit = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(15),
            "the server did not exit"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(exit.success(), "{exit:?}");
    for (_, id, game) in &players {
        if *game == "alchemy" {
            assert!(
                dir.join(format!("alchemy-{id}.save")).is_file(),
                "game {id} not saved"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_a_foreign_origin_and_an_idle_player_are_handled() {
    let ts = TestServer::start("limits", |c| {
        c.max_games = 1;
        c.idle_timeout = Duration::from_millis(1500);
    })
    .await;
    let mut a = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&ts.token(30))).await;
    let id = a.ready().await;
    // The server is full: a second player is told so; the first plays on.
    let mut b = Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&ts.token(31))).await;
    b.until(10, "the refusal", |c| c.closed).await;
    assert!(b.errors()[0].contains("server is full"), "{:?}", b.errors());
    a.step(Input::ch('l')).await;
    // A websocket opened by another site's page is refused.
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{}/ws/play", ts.addr),
    )
    .unwrap();
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    req.headers_mut().insert(
        "Cookie",
        format!("alembic_token={}", ts.token(30)).parse().unwrap(),
    );
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
        evil.errors()[0].contains("another site"),
        "{:?}",
        evil.errors()
    );
    assert!(a.ended().is_none(), "the foreign page took the game over");
    // The player stops sending: after the idle timeout the game is saved and stopped.
    a.until(10, "the idle end", |c| c.ended().is_some()).await;
    assert!(a.ended().unwrap().contains("saved"), "{:?}", a.ended());
    assert_eq!(ts.server.live_count(), 0);
    assert!(ts.dir.join(format!("alchemy-{id}.save")).is_file());
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_caves_play_save_and_continue_in_the_browser_too() {
    let ts = TestServer::start("caves", |c| c.leave_grace = Duration::from_millis(500)).await;
    let me = ts.token(40);
    let mut c = Client::connect(ts.addr, "/ws/play?game=caves&name=Digger", Some(&me)).await;
    let id = c.ready().await;
    c.step(Input::key(Key::Enter)).await;
    common::walk(&mut c, &ts.server, id, 3).await;
    c.drain(200).await;
    assert!(c.text().contains('@'), "{}", c.text());
    let turn = ts.server.rows()[0].turn;
    assert_eq!(ts.server.rows()[0].game, "caves");
    drop(c);
    let t0 = std::time::Instant::now();
    while ts.server.live_count() > 0 {
        assert!(t0.elapsed() < Duration::from_secs(10), "not stopped");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ts.dir.join(format!("caves-{id}.save")).is_file());
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    c.drain(200).await;
    assert_eq!(ts.server.rows()[0].turn, turn);
    // The Caves open a loaded game at their title screen, as in the terminal; a key goes on.
    c.step(Input::key(Key::Enter)).await;
    c.drain(200).await;
    assert!(c.text().contains('@'), "{}", c.text());
    assert_eq!(ts.server.rows()[0].turn, turn);
    ts.stop().await;
}

/// The third game, written only against the game contract, plays in the browser with no
/// code of its own for it: started, played, saved on leaving and continued, and scored in the
/// lobby's table when it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rats_play_save_and_continue_in_the_browser_too() {
    let ts = TestServer::start("rats", |c| c.leave_grace = Duration::from_millis(500)).await;
    let me = ts.token(41);
    let mut c = Client::connect(ts.addr, "/ws/play?game=rats&name=Squeak", Some(&me)).await;
    let id = c.ready().await;
    c.step(Input::key(Key::Enter)).await;
    assert!(c.text().contains("HP 10/10"), "{}", c.text());
    for _ in 0..3 {
        c.step(Input::ch('.')).await;
    }
    c.drain(200).await;
    assert_eq!(ts.server.rows()[0].game, "rats");
    assert_eq!(ts.server.rows()[0].turn, 3);
    drop(c);
    let t0 = std::time::Instant::now();
    while ts.server.live_count() > 0 {
        assert!(t0.elapsed() < Duration::from_secs(10), "not stopped");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ts.dir.join(format!("rats-{id}.save")).is_file());
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    c.drain(200).await;
    assert_eq!(ts.server.rows()[0].turn, 3, "continued where it was left");
    c.step(Input::key(Key::Enter)).await;
    c.step(Input::ch('.')).await;
    c.drain(200).await;
    assert_eq!(ts.server.rows()[0].turn, 4);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_floods_its_game_is_told_to_slow_down() {
    let ts = TestServer::start("flood", |_| {}).await;
    let mut c = Client::connect(ts.addr, "/ws/play?game=crash", Some(&ts.token(50))).await;
    c.ready().await;
    // A slow turn, then far more keys than the queue holds.
    c.key('~').await;
    for _ in 0..(alembic_web::server::INPUT_QUEUE * 3) {
        c.key('x').await;
    }
    c.until(10, "a slow-down error", |c| {
        c.errors().iter().any(|e| e.contains("slow down"))
    })
    .await;
    c.drain(500).await;
    // The game caught up and plays on; the server is fine.
    c.step(Input::ch('z')).await;
    assert!(c.text().contains('z'));
    assert_eq!(ts.server.live_count(), 1);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tabs_opening_at_once_make_one_game() {
    let ts = TestServer::start("twotabs", |_| {}).await;
    let me = ts.token(60);
    let addr = ts.addr;
    let open = |me: String| async move {
        let mut c = Client::connect(addr, "/ws/play?game=alchemy", Some(&me)).await;
        c.until(20, "a game or a refusal", |c| {
            c.hello_id().is_some() || c.closed
        })
        .await;
        c
    };
    let (a, b) = tokio::join!(open(me.clone()), open(me.clone()));
    let ids: Vec<u64> = [&a, &b].iter().filter_map(|c| c.hello_id()).collect();
    assert!(!ids.is_empty());
    assert!(
        ids.iter().all(|i| *i == ids[0]),
        "two games for one browser: {ids:?}"
    );
    for c in [&a, &b] {
        if c.hello_id().is_none() {
            assert!(c.errors()[0].contains("starting"), "{:?}", c.errors());
        }
    }
    assert_eq!(ts.server.live_count(), 1);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_stops_reading_is_cut_off_without_slowing_the_player() {
    // A spectator with a tiny receive buffer stops reading; the player redraws the whole
    // screen again and again (the help page on and off, at the largest grid). The player's
    // keys are answered as fast as ever, and the server cuts the spectator off once a frame
    // has waited SEND_TIMEOUT for it.
    let ts = TestServer::start_small_send_buffer("slow", 4096).await;
    let me = ts.token(21);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Fast", Some(&me)).await;
    let id = c.ready().await;
    c.resize(300, 120).await;
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(2048).unwrap();
    let stream = sock.connect(ts.addr).await.unwrap();
    let req = format!("ws://{}/ws/watch/{id}", ts.addr)
        .into_client_request()
        .unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(req, stream).await.unwrap();
    // Its first frame, then it reads nothing more.
    let first = tokio::time::timeout(Duration::from_secs(10), slow.next()).await;
    assert!(matches!(first, Ok(Some(Ok(_)))), "{first:?}");
    for _ in 0..50 {
        if ts.server.rows()[0].spectators == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ts.server.rows()[0].spectators, 1);
    let mut worst = Duration::ZERO;
    for i in 0..150 {
        let t = std::time::Instant::now();
        c.step(Input::ch(if i % 2 == 0 { '?' } else { 'x' })).await;
        c.step(Input::key(Key::Esc)).await;
        worst = worst.max(t.elapsed());
    }
    eprintln!(
        "slowest help toggle: {worst:?}, frames {} ({} bytes)",
        c.frames, c.frame_bytes
    );
    assert!(
        worst < Duration::from_secs(2),
        "the player waited {worst:?}"
    );
    // Cut off: the server no longer counts it.
    let cut = std::time::Instant::now();
    while ts.server.rows()[0].spectators > 0 {
        assert!(
            cut.elapsed() < alembic_web::web::SEND_TIMEOUT + Duration::from_secs(15),
            "the stuck spectator was never cut off"
        );
        // Keep the game drawing, so a frame waits for the stuck spectator.
        c.step(Input::ch('?')).await;
        c.step(Input::key(Key::Esc)).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!("cut off {:?} after the last toggle", cut.elapsed());
    drop(slow);
    ts.stop().await;
}

/// The end of a game in the page: the page (and a spectator's) is sent the game's summary
/// (how it ended, its depth, turns and score) with links to its pages on this server, and
/// the links work; no frame or message names a file of the server's, as the terminal's end
/// screen does (it says where the recording and the morgue file went).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_end_in_the_page_is_a_summary_with_links_not_server_paths() {
    let ts = TestServer::start("end-summary", |c| {
        c.leave_grace = Duration::from_millis(500);
    })
    .await;
    let dir = ts.dir.to_string_lossy().into_owned();
    let paths = [dir.as_str(), "/tmp/", "records/", "morgue/", ".replay"];
    for (n, game) in [(50_u8, "rats"), (51, "alchemy")] {
        let me = ts.token(n);
        let path = format!("/ws/play?game={game}&name=Ender");
        let mut c = Client::connect(ts.addr, &path, Some(&me)).await;
        let id = c.ready().await;
        common::walk(&mut c, &ts.server, id, 3).await;
        let turn = ts.server.rows().iter().find(|r| r.id == id).unwrap().turn;
        let mut watcher =
            Client::connect(ts.addr, &format!("/ws/watch/{id}"), Some(&ts.token(n + 10))).await;
        watcher.ready().await;
        c.step(Input::ch('Q')).await;
        c.step(Input::ch('y')).await;
        // The end: the page's summary, or (before) the terminal's end screen, drawn.
        c.until(10, "the end of the game", |c| {
            c.ended().is_some() || c.text().contains("G A M E")
        })
        .await;
        let screen = c.text();
        for p in paths {
            assert!(
                !screen.contains(p),
                "{game}: the page shows {p:?}:\n{screen}"
            );
        }
        c.until(10, "the end of the game", |c| c.ended().is_some())
            .await;
        let raw = c
            .raw
            .iter()
            .find(|m| m.contains(r#""t":"ended""#))
            .unwrap()
            .clone();
        let end: serde_json::Value = serde_json::from_str(&raw).unwrap();
        // Nothing but the links names a place, and they are this site's pages.
        let mut said = end.clone();
        if let Some(s) = said.get_mut("summary").and_then(|s| s.as_object_mut()) {
            s.remove("links");
        }
        let said = said.to_string();
        for p in paths {
            assert!(!said.contains(p), "{game}: the end names {p:?}: {raw}");
        }
        let s = &end["summary"];
        assert!(s.is_object(), "{game}: no summary in the end: {raw}");
        assert_eq!(s["id"].as_u64(), Some(id), "{raw}");
        assert_eq!(s["game"].as_str(), Some(game), "{raw}");
        assert_eq!(s["quit"].as_bool(), Some(true), "{raw}");
        assert_eq!(s["cause"].as_str(), Some("quit"), "{raw}");
        assert_eq!(s["headline"].as_str(), Some("You quit."), "{raw}");
        assert!(s["turns"].as_u64().unwrap() >= turn, "{raw}");
        // Its depth and turns as the store filed them, its score as the score table has it.
        let rec = common::blocking(&ts.server, move |st| st.game(id).unwrap().unwrap()).await;
        assert_eq!(rec.status, alembic_web::store::GameStatus::Finished);
        assert_eq!(s["turns"].as_u64(), Some(rec.turn), "{raw}");
        assert_eq!(
            s["depth"].as_i64(),
            rec.depth.map(i64::from).filter(|d| *d > 0),
            "{raw}"
        );
        let g = game.to_owned();
        let scores = common::blocking(&ts.server, move |st| st.top_scores(&g, 100).unwrap()).await;
        let points = scores.iter().find(|r| r.game_id == id).map(|r| r.points);
        assert!(points.is_some(), "{game}: not scored");
        assert_eq!(s["score"].as_i64(), points, "{raw}");
        // The links, each a path of this site, each working.
        let link = |k: &str| {
            let l = s["links"][k]
                .as_str()
                .unwrap_or_else(|| panic!("no {k} link: {raw}"));
            let plain = [
                "/games/",
                "/morgue/game-",
                "/replay/game-",
                "/records/game-",
            ]
            .iter()
            .any(|p| l.strip_prefix(p) == Some(&id.to_string()));
            assert!(plain, "{k}: {l}");
            l.to_owned()
        };
        let body = |r: String| {
            assert!(r.starts_with("HTTP/1.1 200"), "{r}");
            r.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap()
        };
        let page = body(ts.get(&link("page"), None).await);
        assert!(page.contains(&format!("game {id}")), "{page}");
        let morgue = body(ts.get(&link("morgue"), None).await);
        assert_eq!(ts.server.store.morgue(id).unwrap().unwrap(), morgue);
        let recording = body(ts.get(&link("recording"), None).await);
        assert!(recording.contains("alembic-replay"), "{recording}");
        let replay = link("replay");
        body(ts.get(&replay, None).await);
        let name = replay.strip_prefix("/replay/").unwrap();
        let mut r = Client::connect(ts.addr, &format!("/ws/replay/{name}"), Some(&me)).await;
        r.ready().await;
        assert!(
            r.json.iter().any(|m| matches!(
                m,
                alembic_web::protocol::ServerMsg::Hello { role, .. } if role == "replay"
            )),
            "{:?}",
            r.json
        );
        assert!(r.errors().is_empty(), "{:?}", r.errors());
        // The spectator is shown the same end.
        watcher
            .until(10, "the spectator's end", |c| c.ended().is_some())
            .await;
        let seen = watcher
            .raw
            .iter()
            .find(|m| m.contains(r#""t":"ended""#))
            .unwrap();
        let seen: serde_json::Value = serde_json::from_str(seen).unwrap();
        assert_eq!(seen["summary"], end["summary"]);
    }
    // A game that is saved, not over, has no summary and no links.
    let me = ts.token(52);
    let mut c = Client::connect(ts.addr, "/ws/play?game=rats&name=Leaver", Some(&me)).await;
    let id = c.ready().await;
    common::walk(&mut c, &ts.server, id, 2).await;
    let mut watcher =
        Client::connect(ts.addr, &format!("/ws/watch/{id}"), Some(&ts.token(62))).await;
    watcher.ready().await;
    drop(c);
    watcher
        .until(20, "the saved game's end", |c| c.ended().is_some())
        .await;
    let seen = watcher
        .raw
        .iter()
        .find(|m| m.contains(r#""t":"ended""#))
        .unwrap();
    assert!(
        seen.contains("saved") && !seen.contains("summary"),
        "{seen}"
    );
    assert!(
        ts.get(&format!("/morgue/game-{id}"), None)
            .await
            .starts_with("HTTP/1.1 404")
    );
    ts.stop().await;
}
