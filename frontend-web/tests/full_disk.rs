//! A game whose journal or store cannot be written holds the move instead of answering it
//! (issue 53): the player is told why, the frame that answers the move comes only once the
//! recording's line is in the file and in the store, and the store then equals the file
//! line for line, so a crash at any moment (`kill -9`, in `scripts/web-full-disk.sh`) loses
//! no move a player saw answered.
//!
//! - `a_journal_in_the_way_holds_the_move` runs everywhere: a directory put where the
//!   recording is makes every write of it fail.
//! - `a_full_disk_holds_the_move_until_written` needs a small tmpfs at `ALEMBIC_FULL_DIR`
//!   (the script mounts one; it needs root). The server's data directory and its SQLite
//!   database are on it; with the disk full, a save fails with a clear message, nothing
//!   already saved is damaged (`PRAGMA integrity_check`, the old save), and a restarted
//!   server continues at the last turn.
//! - `a_read_only_data_directory_holds_the_move_until_written` needs `ALEMBIC_RO_DIR` and a
//!   user that is not root (root writes whatever the modes say): the script runs it as
//!   `nobody`.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write as _;
use std::time::Duration;

use alembic_ui::Input;
use common::{Client, HELD, TestServer, WRITTEN, notices, until_held, walk};

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

/// A held move stays unanswered (no frame) while nothing can be written.
async fn stays_held(c: &mut Client) {
    let n = c.frames;
    c.drain(1500).await;
    assert_eq!(c.frames, n, "a frame answered a move that is not written");
}

/// Once writing works again: the held move answered, the page told, and the store's
/// recording equal to the file's line for line.
async fn answered_and_stored(
    c: &mut Client,
    ts: &TestServer,
    id: u64,
    recording: &std::path::Path,
) {
    let n = c.frames;
    c.until(20, "the held move answered", |c| {
        c.frames > n && !notices(c, WRITTEN).is_empty()
    })
    .await;
    assert!(c.ended().is_none(), "the game plays on");
    let on_disk: Vec<String> = std::fs::read_to_string(recording)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        ts.server.store.recording(id).unwrap(),
        on_disk,
        "the store holds every line of the recording"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_journal_in_the_way_holds_the_move() {
    let ts = TestServer::start("journal-in-the-way", |_| {}).await;
    let me = ts.token(1);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Held", Some(&me)).await;
    let id = c.ready().await;
    walk(&mut c, &ts.server, id, 3).await;
    let recording = ts.dir.join(format!("alchemy-{id}.replay"));
    let aside = ts.dir.join("aside.replay");
    // A directory where the recording was: every write of it fails.
    std::fs::rename(&recording, &aside).unwrap();
    std::fs::create_dir(&recording).unwrap();
    let said = until_held(&mut c).await;
    eprintln!("held: {said}");
    assert!(said.contains("journal cannot be written"), "{said}");
    stays_held(&mut c).await;
    assert!(
        ts.server.store.recording(id).unwrap().len() > 2,
        "the store kept what it had"
    );
    // The file is back: the move's line is written, stored, and then answered.
    std::fs::remove_dir(&recording).unwrap();
    std::fs::rename(&aside, &recording).unwrap();
    answered_and_stored(&mut c, &ts, id, &recording).await;
    let turn = ts.server.rows()[0].turn;
    walk(&mut c, &ts.server, id, turn + 2).await;
    answered_and_stored_now(&ts, id, &recording);
    drop(c);
    ts.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_game_whose_player_left_stops_at_the_last_move_answered() {
    let ts = TestServer::start("held-and-left", |c| {
        c.leave_grace = Duration::from_secs(1);
    })
    .await;
    let me = ts.token(1);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=Gone", Some(&me)).await;
    let id = c.ready().await;
    walk(&mut c, &ts.server, id, 3).await;
    let turn = ts.server.rows()[0].turn;
    let recording = ts.dir.join(format!("alchemy-{id}.replay"));
    let aside = ts.dir.join("aside.replay");
    std::fs::rename(&recording, &aside).unwrap();
    std::fs::create_dir(&recording).unwrap();
    until_held(&mut c).await;
    // Keys pile up behind the held move until its queue is full (the rest are refused).
    for _ in 0..alembic_web::server::INPUT_QUEUE + 8 {
        c.key('.').await;
    }
    c.until(10, "the queue full", |c| !c.errors().is_empty())
        .await;
    // The turn of the last move answered: the held one's line is in no file and no store.
    let answered = ts.server.store.recording(id).unwrap();
    drop(c);
    // The page is gone: the reaper stops the held game after the grace, unanswered.
    let end = std::time::Instant::now() + Duration::from_secs(15);
    while ts.server.live_count() > 0 {
        assert!(
            std::time::Instant::now() < end,
            "the held game never stopped"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ts.server.store.recording(id).unwrap(), answered);
    // Continued: from the store, at the last move the player saw answered.
    std::fs::remove_dir(&recording).unwrap();
    std::fs::rename(&aside, &recording).unwrap();
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    let on_disk: Vec<String> = std::fs::read_to_string(&recording)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(
        on_disk.starts_with(&answered),
        "continued from what the store holds"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(ts.server.rows()[0].turn, turn, "at the last move answered");
    drop(c);
    ts.stop().await;
}

/// The store's recording equals the file's, line for line.
fn answered_and_stored_now(ts: &TestServer, id: u64, recording: &std::path::Path) {
    let on_disk: Vec<String> = std::fs::read_to_string(recording)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(ts.server.store.recording(id).unwrap(), on_disk);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a small file system at ALEMBIC_FULL_DIR (scripts/web-full-disk.sh)"]
async fn a_full_disk_holds_the_move_until_written() {
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
    let recording = dir.join(format!("alchemy-{id}.replay"));
    let good = std::fs::read(&save).unwrap();
    // The disk fills; the player saves, then plays on until a move cannot be written.
    let filler = fill(&root);
    let n = c.frames;
    c.send_input(Input::ch('S')).await;
    c.until(10, "a frame or a notice", |c| {
        c.frames > n || !notices(c, HELD).is_empty()
    })
    .await;
    let said = match notices(&c, HELD).pop() {
        Some(held) => held,
        None => {
            c.drain(300).await;
            let screen = c.text();
            assert!(
                screen.contains("Cannot save"),
                "no clear message:\n{screen}"
            );
            c.step(Input::key(alembic_ui::Key::Enter)).await;
            until_held(&mut c).await
        }
    };
    eprintln!("full disk: {said}");
    // Whichever is written first says so: the journal's file or SQLite.
    assert!(
        said.contains("No space left on device") || said.contains("disk is full"),
        "{said}"
    );
    stays_held(&mut c).await;
    // Nothing saved before is damaged.
    assert_eq!(
        std::fs::read(&save).unwrap(),
        good,
        "the old save is intact"
    );
    assert_eq!(integrity(&dir.join("alembic.db")), "ok");
    // Room again: the move is written, then answered; the game plays on.
    std::fs::remove_file(&filler).unwrap();
    answered_and_stored(&mut c, &ts, id, &recording).await;
    let turn = ts.server.rows()[0].turn;
    walk(&mut c, &ts.server, id, turn + 1).await;
    let last = ts.server.rows()[0].turn;
    answered_and_stored_now(&ts, id, &recording);
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

/// Set `dir` and every file in it to `mode` (directories keep their search bit).
fn chmod_all(dir: &std::path::Path, writable: bool) {
    use std::os::unix::fs::PermissionsExt as _;
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            chmod_all(&p, writable);
        } else {
            let mode = if writable { 0o644 } else { 0o444 };
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    }
    let mode = if writable { 0o755 } else { 0o555 };
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs ALEMBIC_RO_DIR and a user other than root (scripts/web-full-disk.sh)"]
async fn a_read_only_data_directory_holds_the_move_until_written() {
    let root = std::path::PathBuf::from(
        std::env::var("ALEMBIC_RO_DIR").expect("ALEMBIC_RO_DIR: a directory of this user's"),
    );
    // Root writes whatever the modes say, and this test is about the modes.
    {
        use std::os::unix::fs::PermissionsExt as _;
        let probe = root.join("probe");
        std::fs::write(&probe, b"").unwrap();
        std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o444)).unwrap();
        let writable = std::fs::OpenOptions::new()
            .append(true)
            .open(&probe)
            .is_ok();
        std::fs::remove_file(&probe).unwrap();
        assert!(!writable, "run as a user other than root");
    }
    let dir = root.join("data");
    if dir.exists() {
        chmod_all(&dir, true);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    // The database elsewhere: what fails is the game's journal alone.
    let db = format!("sqlite:{}", root.join("alembic.db").display());
    let _ = std::fs::remove_file(root.join("alembic.db"));
    let ts = TestServer::start_in(dir.clone(), |c| c.db = Some(db.clone())).await;
    let me = ts.token(1);
    let mut c = Client::connect(ts.addr, "/ws/play?game=alchemy&name=ReadOnly", Some(&me)).await;
    let id = c.ready().await;
    walk(&mut c, &ts.server, id, 4).await;
    let recording = dir.join(format!("alchemy-{id}.replay"));
    chmod_all(&dir, false);
    let said = until_held(&mut c).await;
    eprintln!("read-only: {said}");
    assert!(said.contains("Permission denied"), "{said}");
    stays_held(&mut c).await;
    chmod_all(&dir, true);
    answered_and_stored(&mut c, &ts, id, &recording).await;
    let turn = ts.server.rows()[0].turn;
    walk(&mut c, &ts.server, id, turn + 1).await;
    let last = ts.server.rows()[0].turn;
    answered_and_stored_now(&ts, id, &recording);
    drop(c);
    ts.stop().await;
    let ts = TestServer::start_in(dir.clone(), |c| c.db = Some(db.clone())).await;
    let mut c = Client::connect(ts.addr, "/ws/play", Some(&me)).await;
    assert_eq!(c.ready().await, id);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(ts.server.rows()[0].turn, last);
    drop(c);
    ts.stop().await;
}
