//! The storage suite (`store_suite`) against PostgreSQL at `ALEMBIC_PG_URL`. Each test makes
//! its own database there. The tests are ignored by a plain `cargo test` (no PostgreSQL is
//! assumed); `scripts/test.sh` starts one (`scripts/postgres.sh`) and runs them with
//! `--ignored`, or reports them as skipped. Run by hand:
//!
//! ```sh
//! ALEMBIC_PG_URL=$(scripts/postgres.sh start) cargo test -p alembic-web --test store_pg -- --ignored
//! ```
#![allow(clippy::unwrap_used)]

mod common;
mod store_suite;

use alembic_web::store::postgres::PgStore;
use alembic_web::store::{SCHEMA_VERSION, Store, StoreError};

struct Postgres;

fn admin() -> postgres::Config {
    let url = std::env::var("ALEMBIC_PG_URL")
        .expect("ALEMBIC_PG_URL must name a PostgreSQL database (scripts/postgres.sh start)");
    url.parse().unwrap()
}

fn db_name(name: &str) -> String {
    format!("alembic_test_{name}_{}", std::process::id())
}

fn config(name: &str) -> postgres::Config {
    let mut c = admin();
    c.dbname(&db_name(name));
    c
}

impl store_suite::Backend for Postgres {
    fn fresh(name: &str) -> Box<dyn Store> {
        Self::fresh_at(name, SCHEMA_VERSION)
    }
    fn fresh_at(name: &str, version: u32) -> Box<dyn Store> {
        let mut c = admin().connect(postgres::NoTls).unwrap();
        let db = db_name(name);
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
            .unwrap();
        c.batch_execute(&format!("CREATE DATABASE {db}")).unwrap();
        Box::new(PgStore::open_config(&config(name), version).unwrap())
    }
    fn reopen(name: &str) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(PgStore::open_config(
            &config(name),
            SCHEMA_VERSION,
        )?))
    }
    fn mark_version(name: &str, version: u32) {
        let mut c = config(name).connect(postgres::NoTls).unwrap();
        let v = i32::try_from(version).unwrap();
        c.execute(
            "INSERT INTO schema_migrations (version, applied) VALUES ($1, 0)",
            &[&v],
        )
        .unwrap();
    }
}

store_suite!(Postgres, #[ignore = "needs PostgreSQL: ALEMBIC_PG_URL=... cargo test --test store_pg -- --ignored (scripts/test.sh does)"]);

#[test]
#[ignore = "needs PostgreSQL: ALEMBIC_PG_URL"]
fn open_by_url() {
    let url = std::env::var("ALEMBIC_PG_URL").unwrap();
    let s = alembic_web::store::open(&url).unwrap();
    assert_eq!(s.kind(), "postgres");
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
}

#[test]
#[ignore = "needs PostgreSQL: ALEMBIC_PG_URL"]
fn the_server_keeps_its_accounts_in_postgres() {
    use alembic_web::accounts::{self, Login};
    let url = fresh_url("server");
    let dir = std::env::temp_dir().join(format!("alembic-pg-server-{}", std::process::id()));
    let server = alembic_web::Server::new(alembic_web::Config {
        data_dir: dir,
        db: Some(url),
        ..alembic_web::Config::default()
    })
    .unwrap();
    let store = server.store.as_ref();
    let hasher = accounts::Hasher::new();
    assert_eq!(store.kind(), "postgres");
    let (ann, session) = accounts::register(&hasher, store, "Ann", "correct horse", 100).unwrap();
    assert_eq!(store.session(&session, 101).unwrap().unwrap().id, ann.id);
    assert!(accounts::register(&hasher, store, "ANN", "another password", 100).is_err());
    // One answer for a wrong password and an unknown name; then the rate limit.
    for name in ["Ann", "nobody", "Ann", "nobody", "Ann"] {
        assert!(matches!(
            accounts::log_in(&hasher, store, name, "wrong password", "10.0.0.1", 200).unwrap(),
            Login::Bad
        ));
    }
    assert!(matches!(
        accounts::log_in(&hasher, store, "Ann", "correct horse", "10.0.0.1", 201).unwrap(),
        Login::Limited
    ));
    // Another address: Ann's name had only 3 failures.
    match accounts::log_in(&hasher, store, "ann", "correct horse", "10.0.0.2", 202).unwrap() {
        Login::Ok(a, s) => {
            assert_eq!(a.id, ann.id);
            assert_eq!(store.revoke_all_sessions(ann.id).unwrap(), 2);
            assert!(store.session(&s, 203).unwrap().is_none());
        }
        other => panic!("{other:?}"),
    }
    // A minute later the address may try again.
    assert!(matches!(
        accounts::log_in(&hasher, store, "Ann", "correct horse", "10.0.0.1", 262).unwrap(),
        Login::Ok(..)
    ));
}

/// A fresh, migrated database called `name`, as a `--db` URL.
fn fresh_url(name: &str) -> String {
    use store_suite::Backend;
    drop(Postgres::fresh(name));
    let c = config(name);
    format!(
        "postgres://{}@{}:{}/{}",
        c.get_user().unwrap(),
        match &c.get_hosts()[0] {
            postgres::config::Host::Tcp(h) => h.clone(),
            #[allow(unreachable_patterns)]
            _ => panic!("ALEMBIC_PG_URL must name a TCP host"),
        },
        c.get_ports()[0],
        c.get_dbname().unwrap()
    )
}

/// The server made, used and dropped inside the tokio runtime, as `main` and the tests do:
/// the synchronous client must neither connect nor close on a runtime thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ALEMBIC_PG_URL"]
async fn a_server_on_postgres_lives_inside_the_runtime() {
    // (The test's own setup connects too: off the runtime's threads.)
    let url = tokio::task::spawn_blocking(|| fresh_url("runtime"))
        .await
        .unwrap();
    let ts = common::TestServer::start("pg-runtime", |c| c.db = Some(url)).await;
    assert_eq!(ts.server.store.kind(), "postgres");
    let me = ts.token(1);
    let mut c = common::Client::connect(ts.addr, "/ws/play?game=alchemy&name=Pg", Some(&me)).await;
    let id = c.ready().await;
    // A session cookie makes the lobby ask the store (an unknown session: logged out).
    let cookie = format!("{me}; alembic_session={}", "ab".repeat(32));
    let page = ts.get("/", Some(&cookie)).await;
    assert!(page.contains("Playing anonymously"), "{page}");
    let s = std::sync::Arc::clone(&ts.server);
    let owner = tokio::task::spawn_blocking(move || s.store.game_owner(id))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(owner, None);
    ts.stop().await;
}

/// Two servers sharing one PostgreSQL database hand a game over (see `common::two_servers`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ALEMBIC_PG_URL"]
async fn two_servers_on_postgres_hand_a_game_over() {
    let url = tokio::task::spawn_blocking(|| fresh_url("two_servers"))
        .await
        .unwrap();
    common::two_servers(url, "pg").await;
}

/// Run `scripts/postgres.sh ACTION` (the cluster the tests use).
fn cluster(action: &str) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ok = std::process::Command::new("bash")
        .arg(root.join("scripts/postgres.sh"))
        .arg(action)
        .status()
        .unwrap()
        .success();
    assert!(ok, "postgres.sh {action} failed");
}

/// The database goes down while a game is played, and comes back: the player's move is
/// held, not answered, with a notice saying why (a move answered is a move the store
/// holds), a new player and `/health` are told clearly, and once the database is back the
/// move is answered and the store holds exactly the game's files: no line lost, none twice. It stops the shared cluster, so `scripts/test.sh` runs it alone, after
/// the others (`--exact`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: ALEMBIC_PG_URL, and stops it; run alone"]
async fn the_database_goes_down_and_comes_back() {
    let url = tokio::task::spawn_blocking(|| fresh_url("down"))
        .await
        .unwrap();
    let ts = common::TestServer::start("pg-down", |c| c.db = Some(url)).await;
    let me = ts.token(1);
    let mut c =
        common::Client::connect(ts.addr, "/ws/play?game=alchemy&name=Down", Some(&me)).await;
    let id = c.ready().await;
    common::walk(&mut c, &ts.server, id, 3).await;
    tokio::task::spawn_blocking(|| cluster("pause"))
        .await
        .unwrap();
    // The next move is held, and the page told why.
    let said = common::until_held(&mut c).await;
    assert!(said.contains("the game store cannot be written"), "{said}");
    // Told clearly: the health check, and a new player.
    let health = ts.get("/health", None).await;
    assert!(health.starts_with("HTTP/1.1 503"), "{health}");
    assert!(health.contains("the database is unreachable"), "{health}");
    let mut other =
        common::Client::connect(ts.addr, "/ws/play?game=alchemy", Some(&ts.token(2))).await;
    other.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        other.errors()[0].contains("the game store is unavailable"),
        "{:?}",
        other.errors()
    );
    tokio::task::spawn_blocking(|| cluster("resume"))
        .await
        .unwrap();
    // Back: the held move is written and answered.
    let n = c.frames;
    c.until(30, "the held move answered", |c| {
        c.frames > n && !common::notices(c, common::WRITTEN).is_empty()
    })
    .await;
    let now = ts.server.rows()[0].turn;
    common::walk(&mut c, &ts.server, id, now + 2).await;
    let file = ts.dir.join(format!("alchemy-{id}.replay"));
    let on_disk: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let stored = common::blocking(&ts.server, move |s| s.recording(id).unwrap()).await;
    assert_eq!(stored, on_disk);
    assert!(ts.get("/health", None).await.starts_with("HTTP/1.1 200"));
    // Leaving saves it; the store holds that very save.
    drop(c);
    let dir = ts.dir.clone();
    let server = std::sync::Arc::clone(&ts.server);
    ts.stop().await;
    let local = std::fs::read(dir.join(format!("alchemy-{id}.save"))).unwrap();
    let stored = common::blocking(&server, move |s| s.game_save(id).unwrap()).await;
    assert_eq!(stored.as_deref(), Some(local.as_slice()));
}
