//! The storage suite (`store_suite`) against PostgreSQL at `ALEMBIC_PG_URL`. Each test makes
//! its own database there. The tests are ignored by a plain `cargo test` (no PostgreSQL is
//! assumed); `scripts/test.sh` starts one (`scripts/postgres.sh`) and runs them with
//! `--ignored`, or reports them as skipped. Run by hand:
//!
//! ```sh
//! ALEMBIC_PG_URL=$(scripts/postgres.sh start) cargo test -p alembic-web --test store_pg -- --ignored
//! ```
#![allow(clippy::unwrap_used)]

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
