//! Two servers on one database (an SQLite file here; `scripts/web-two-servers.sh` runs two
//! processes on PostgreSQL and kills one): a game is held by one server at a time, the
//! other lists it, and once the first lets go the player continues it on the second,
//! whose data directory never saw it, at exactly its last command.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Client, TestServer, data_dir, token};

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
