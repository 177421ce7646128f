//! Two servers on one database (an SQLite file here; `scripts/web-two-servers.sh` runs two
//! processes on PostgreSQL and kills one): a game is held by one server at a time, the
//! other lists it, and once the first lets go the player continues it on the second,
//! whose data directory never saw it, at exactly its last command.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestServer, data_dir};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_between_two_servers_sharing_a_database() {
    let db = data_dir("servers-db").join("shared.db");
    common::two_servers(format!("sqlite:{}", db.display()), "sqlite").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_answered_is_in_the_store() {
    // After each key's frame, the store's recording holds that key's command: a server that
    // dies right after drawing loses nothing the player saw.
    let ts = TestServer::start("servers-sync", |_| {}).await;
    let me = ts.token(3);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_lost_its_lease_writes_nothing_more() {
    // Server alpha is cut off from the database past its lease (simulated: beta takes the
    // game as if alpha's lease had run out): alpha's next command finds the game is not its
    // own any more, writes nothing, and stops the game with a clear message; the player
    // continues on beta at the last turn the store holds.
    let db = data_dir("fence-db").join("shared.db");
    let url = format!("sqlite:{}", db.display());
    let config = |name: &'static str| {
        let url = url.clone();
        move |c: &mut alembic_web::Config| {
            c.db = Some(url);
            c.server_name = Some(name.to_owned());
        }
    };
    let a = TestServer::start("fence-a", config("alpha")).await;
    let b = TestServer::start("fence-b", config("beta")).await;
    let me = a.token(5);
    let mut c = Client::connect(a.addr, "/ws/play?game=alchemy&name=Fenced", Some(&me)).await;
    let id = c.ready().await;
    common::walk(&mut c, &a.server, id, 4).await;
    let turn = a.server.rows()[0].turn;
    let lines = b.server.store.recording(id).unwrap();
    let later = alembic_web::accounts::now() + 10_000;
    assert_eq!(
        b.server
            .store
            .take_lease(id, "beta", later, later + 60)
            .unwrap(),
        alembic_web::store::Lease::Taken
    );
    // Alpha's player moves: the game stops there, and the store is as beta took it.
    for k in ['h', 'l', 'j', 'k'] {
        if c.ended().is_some() {
            break;
        }
        c.step(alembic_ui::Input::ch(k)).await;
    }
    c.until(10, "the game stopped on alpha", |c| c.ended().is_some())
        .await;
    assert!(
        c.ended().unwrap().contains("taken over by another server"),
        "{:?}",
        c.ended()
    );
    assert_eq!(b.server.store.recording(id).unwrap(), lines);
    let rec = b.server.store.game(id).unwrap().unwrap();
    assert_eq!(rec.server.as_deref(), Some("beta"));
    // On beta, the game goes on from what the store holds.
    let mut c2 = Client::connect(b.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c2.ready().await, id);
    assert_eq!(b.server.rows()[0].turn, turn);
    a.stop().await;
    b.stop().await;
}
