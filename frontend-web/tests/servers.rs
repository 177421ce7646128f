//! Two servers on one database (an SQLite file here; `scripts/web-two-servers.sh` runs two
//! processes on PostgreSQL and kills one): a game is held by one server at a time, the
//! other lists it, and once the first lets go the player continues it on the second,
//! whose data directory never saw it, at exactly its last command.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use alembic_web::store::GameStatus;
use common::{Client, TestServer, data_dir, token, walk};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_between_two_servers_sharing_a_database() {
    let db = data_dir("servers-db").join("shared.db");
    let url = format!("sqlite:{}", db.display());
    let config = |name: &'static str| {
        let url = url.clone();
        move |c: &mut alembic_web::Config| {
            c.db = Some(url);
            c.server_name = Some(name.to_owned());
            c.lease = Duration::from_secs(2);
        }
    };
    let a = TestServer::start("servers-a", config("alpha")).await;
    let b = TestServer::start("servers-b", config("beta")).await;
    let me = token(1);
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
    let rec = b.server.store.game(id).unwrap().unwrap();
    assert_eq!((rec.status, rec.server), (GameStatus::Saved, None));
    assert!(!b.dir.join(format!("alchemy-{id}.save")).exists());
    let mut c = Client::connect(b.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    assert_eq!(b.server.rows()[0].turn, turn);
    walk(&mut c, &b.server, id, turn + 3).await;
    let rec = b.server.store.game(id).unwrap().unwrap();
    assert_eq!(rec.server.as_deref(), Some("beta"));
    // Its whole recording came along (header first) and goes on being kept.
    let lines = b.server.store.recording(id).unwrap();
    assert!(lines[0].contains("\"format\":\"alembic-replay\""), "{lines:?}");
    let file = std::fs::read_to_string(b.dir.join(format!("alchemy-{id}.replay"))).unwrap();
    assert_eq!(file.lines().collect::<Vec<_>>(), lines);
    // Another browser cannot take it on either server.
    let mut other = Client::connect(b.addr, &format!("/ws/play?id={id}"), Some(&token(2))).await;
    other.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        other.errors()[0].contains("not yours"),
        "{:?}",
        other.errors()
    );
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_answered_is_in_the_store() {
    // After each key's frame, the store's recording holds that key's command: a server that
    // dies right after drawing loses nothing the player saw.
    let ts = TestServer::start("servers-sync", |_| {}).await;
    let me = token(3);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Sync", Some(&me)).await;
    let id = c.ready().await;
    let file = ts.dir.join(format!("alchemy-{id}.replay"));
    for k in ['l', 'h', 'j', 'k', 'l', 'l'] {
        c.step(alembic_ui::Input::ch(k)).await;
        let on_disk: Vec<String> = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(ts.server.store.recording(id).unwrap(), on_disk);
    }
    assert!(ts.server.store.game_save(id).unwrap().is_some());
    ts.stop().await;
}
