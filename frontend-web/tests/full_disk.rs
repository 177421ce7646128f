//! The disk fills up while a game is saved: run by `scripts/web-full-disk.sh`, which mounts a
//! small tmpfs at `ALEMBIC_FULL_DIR` (it needs root; the script says SKIP otherwise). The
//! server's data directory and its SQLite database are on it. With the disk full, saving
//! fails with a clear message and the game plays on; nothing already saved is damaged (the
//! database passes `PRAGMA integrity_check`, the old save still loads); with room again the
//! game saves, and a restarted server continues it at its last turn.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write as _;
use std::time::Duration;

use alembic_ui::Input;
use common::{Client, TestServer, walk};

/// Fill the file system holding `dir` with a file in it; returns the file.
fn fill(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0xA5u8; 64 << 10];
    loop {
        match f.write(&block) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
    let _ = f.flush();
    path
}

fn integrity(db: &std::path::Path) -> String {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a small file system at ALEMBIC_FULL_DIR (scripts/web-full-disk.sh)"]
async fn a_full_disk_while_saving_loses_nothing_saved() {
    let root = std::path::PathBuf::from(
        std::env::var("ALEMBIC_FULL_DIR").expect("ALEMBIC_FULL_DIR: a small mounted file system"),
    );
    let dir = root.join("data");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ts = TestServer::start_in(dir.clone(), |_| {}).await;
    let me = ts.token(1);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Full", Some(&me)).await;
    let id = c.ready().await;
    walk(&mut c, &ts.server, id, 4).await;
    let save = dir.join(format!("alchemy-{id}.save"));
    let saved_turn = ts.server.rows()[0].turn;
    let good = std::fs::read(&save).unwrap();
    // The disk fills; the player saves.
    let filler = fill(&root);
    walk(&mut c, &ts.server, id, saved_turn + 2).await;
    c.step(Input::ch('S')).await;
    c.drain(500).await;
    let said = c.text();
    eprintln!("full disk, saving:\n{said}");
    assert!(
        said.contains("Cannot save") && said.contains("No space left on device"),
        "no clear message:\n{said}"
    );
    assert_eq!(ts.server.live_count(), 1, "the game plays on");
    c.step(Input::key(alembic_ui::Key::Enter)).await;
    // Nothing saved before is damaged.
    assert_eq!(
        std::fs::read(&save).unwrap(),
        good,
        "the old save is intact"
    );
    assert_eq!(integrity(&dir.join("alembic.db")), "ok");
    // Room again: the game plays on and saves.
    std::fs::remove_file(&filler).unwrap();
    let turn = ts.server.rows()[0].turn;
    walk(&mut c, &ts.server, id, turn + 1).await;
    let last = ts.server.rows()[0].turn;
    // The store caught up with the recording, line for line.
    let on_disk: Vec<String> = std::fs::read_to_string(dir.join(format!("alchemy-{id}.replay")))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(ts.server.store.recording(id).unwrap(), on_disk);
    drop(c);
    ts.stop().await;
    assert_eq!(integrity(&dir.join("alembic.db")), "ok");
    // A restarted server continues it at its last turn.
    let ts = TestServer::start_in(dir.clone(), |_| {}).await;
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(ts.server.rows()[0].turn, last);
    drop(c);
    ts.stop().await;
}
