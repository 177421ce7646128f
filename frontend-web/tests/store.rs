//! The storage suite (`store_suite`) against SQLite, and SQLite's own settings.
#![allow(clippy::unwrap_used)]

mod store_suite;

use std::path::PathBuf;

use alembic_web::store::sqlite::SqliteStore;
use alembic_web::store::{Store, StoreError};

struct Sqlite;

fn path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("alembic-store-{name}-{}.db", std::process::id()))
}

impl store_suite::Backend for Sqlite {
    fn fresh(name: &str) -> Box<dyn Store> {
        Self::fresh_at(name, alembic_web::store::SCHEMA_VERSION)
    }
    fn fresh_at(name: &str, version: u32) -> Box<dyn Store> {
        let p = path(name);
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
        }
        Box::new(SqliteStore::open_at_version(&p, version).unwrap())
    }
    fn reopen(name: &str) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(SqliteStore::open(&path(name))?))
    }
    fn mark_version(name: &str, version: u32) {
        let c = rusqlite::Connection::open(path(name)).unwrap();
        c.execute(
            "INSERT INTO schema_migrations (version, applied) VALUES (?1, 0)",
            [version],
        )
        .unwrap();
    }
}

store_suite!(Sqlite);

#[test]
fn sqlite_is_in_wal_mode_with_foreign_keys() {
    use store_suite::Backend;
    drop(Sqlite::fresh("wal"));
    let c = rusqlite::Connection::open(path("wal")).unwrap();
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode.to_lowercase(), "wal");
}

#[test]
fn open_by_url() {
    let p = path("url");
    let _ = std::fs::remove_file(&p);
    let s = alembic_web::store::open(&format!("sqlite:{}", p.display())).unwrap();
    assert_eq!(s.kind(), "sqlite");
    for bad in ["", "sqlite:", "mysql://x", "/tmp/x.db", "http://x"] {
        assert!(
            matches!(alembic_web::store::open(bad), Err(StoreError::BadUrl(_))),
            "{bad}"
        );
    }
}

#[test]
fn synchronous_normal_is_asked_for_in_the_url_and_names_no_file() {
    let p = path("sync-normal");
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
    }
    let s =
        alembic_web::store::open(&format!("sqlite:{}?synchronous=normal", p.display())).unwrap();
    s.create_account("ann", "h", 0).unwrap();
    drop(s);
    // The database is the file the path names, not one called "…?synchronous=normal".
    assert!(p.is_file());
    assert!(!PathBuf::from(format!("{}?synchronous=normal", p.display())).exists());
    let again = SqliteStore::open(&p).unwrap();
    assert!(again.account_by_name("ann").unwrap().is_some());
}
