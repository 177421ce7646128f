//! [`PgStore`]: PostgreSQL, for several servers sharing one database. Uses the `postgres`
//! crate (rust-postgres, synchronous): the [`Store`] trait is synchronous and called from
//! blocking threads, so the blocking client fits it as it is, with no second async API to
//! keep; it is the widely used, well kept driver (tokio-postgres underneath), with no
//! compile-time database or macros as sqlx would bring.

use postgres::error::SqlState;
use postgres::{Client, NoTls};

use super::{
    Account, AccountId, MAX_SAVE_BYTES, Pool, Result, SCHEMA_VERSION, Score, Store, StoreError,
    db_id, from_db_id, name_key, token_hash,
};

/// The numbered migrations, in order: migration `i + 1` is `MIGRATIONS[i]` (the same
/// schema as SQLite's, in PostgreSQL's words).
pub const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    // 1: accounts, sessions, log-in failures.
    "CREATE TABLE accounts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created BIGINT NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created BIGINT NOT NULL,
        expires BIGINT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);
    CREATE TABLE login_failures (key TEXT NOT NULL, at BIGINT NOT NULL);
    CREATE INDEX login_failures_key ON login_failures(key, at);",
    // 2: games' owners, saves, recordings, morgue files, scores.
    "CREATE TABLE games (
        id BIGINT PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        claimed BIGINT NOT NULL
    );
    CREATE TABLE saves (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game_id BIGINT NOT NULL,
        data BYTEA NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 67108864),
        updated BIGINT NOT NULL,
        PRIMARY KEY (account_id, game_id)
    );
    CREATE TABLE recordings (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL,
        line TEXT NOT NULL
    );
    CREATE INDEX recordings_game ON recordings(game_id, seq);
    CREATE TABLE morgues (game_id BIGINT PRIMARY KEY, text TEXT NOT NULL);
    CREATE TABLE scores (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game TEXT NOT NULL,
        game_id BIGINT NOT NULL,
        player TEXT NOT NULL,
        account_id BIGINT REFERENCES accounts(id) ON DELETE SET NULL,
        points BIGINT NOT NULL,
        depth INTEGER,
        turn BIGINT NOT NULL,
        ended BIGINT NOT NULL
    );
    CREATE INDEX scores_top ON scores(game, points DESC, ended);",
];

/// Connections per store.
const POOL: usize = 4;

/// The advisory lock that keeps two servers from migrating one database at once.
const MIGRATION_LOCK: i64 = 0x0061_6c65_6d62_6963;

/// The PostgreSQL store. Call it from blocking threads, never on a thread that drives
/// async tasks (the synchronous client blocks on a runtime of its own); dropping it is safe
/// anywhere.
#[derive(Debug)]
pub struct PgStore {
    pool: Pool<PgConn>,
}

/// A client that closes on a thread of its own when dropped: closing blocks on the client's
/// own runtime, which would panic on a thread that drives async tasks (a server dropped at
/// the end of `#[tokio::main]`).
struct PgConn(Option<Client>);

impl std::ops::Deref for PgConn {
    type Target = Client;
    fn deref(&self) -> &Client {
        self.0.as_ref().unwrap_or_else(|| unreachable!())
    }
}

impl std::ops::DerefMut for PgConn {
    fn deref_mut(&mut self) -> &mut Client {
        self.0.as_mut().unwrap_or_else(|| unreachable!())
    }
}

impl Drop for PgConn {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            let _ = std::thread::Builder::new()
                .name("postgres-close".to_owned())
                .spawn(move || drop(c));
        }
    }
}

fn db(e: postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(d) => StoreError::Db(format!("{}: {}", d.severity(), d.message())),
        None => StoreError::Db(e.to_string()),
    }
}

fn is(e: &postgres::Error, state: &SqlState) -> bool {
    e.code() == Some(state)
}

fn version(c: &mut impl postgres::GenericClient) -> Result<u32> {
    c.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, applied BIGINT NOT NULL)",
    )
    .map_err(db)?;
    let v: Option<i32> = c
        .query_one("SELECT MAX(version) FROM schema_migrations", &[])
        .map_err(db)?
        .get(0);
    Ok(u32::try_from(v.unwrap_or(0)).unwrap_or(u32::MAX))
}

fn migrate(c: &mut Client, target: u32) -> Result<()> {
    let mut tx = c.transaction().map_err(db)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(db)?;
    let found = version(&mut tx)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for v in found + 1..=target {
        tx.batch_execute(MIGRATIONS[v as usize - 1])
            .map_err(|e| StoreError::Db(format!("migration {v}: {}", db(e))))?;
        let vi = i32::try_from(v).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO schema_migrations (version, applied)
             VALUES ($1, EXTRACT(EPOCH FROM now())::BIGINT)",
            &[&vi],
        )
        .map_err(db)?;
    }
    tx.commit().map_err(db)
}

impl PgStore {
    /// Connect to `url` (`postgres://USER@HOST:PORT/DBNAME`, no TLS: a database on this
    /// machine or a private network) and bring the schema up to date.
    ///
    /// # Errors
    /// [`StoreError::TooNew`], or it could not connect or migrate.
    pub fn open(url: &str) -> Result<PgStore> {
        let config: postgres::Config = url
            .parse()
            .map_err(|e: postgres::Error| StoreError::Db(format!("{url:?}: {e}")))?;
        Self::open_config(&config, SCHEMA_VERSION)
    }

    /// Connect with `config` and migrate only up to `version` (not past
    /// [`SCHEMA_VERSION`]): for the migration tests and for tools. The store's other
    /// methods need the full schema.
    ///
    /// # Errors
    /// As [`PgStore::open`].
    pub fn open_config(config: &postgres::Config, version: u32) -> Result<PgStore> {
        let mut first = PgConn(Some(config.connect(NoTls).map_err(db)?));
        migrate(&mut first, version.min(SCHEMA_VERSION))?;
        let config = config.clone();
        Ok(PgStore {
            pool: Pool::new(
                POOL,
                first,
                move || Ok(PgConn(Some(config.connect(NoTls).map_err(db)?))),
                |c| !c.is_closed(),
            ),
        })
    }
}

fn account_row(r: &postgres::Row) -> Account {
    Account {
        id: r.get(0),
        name: r.get(1),
        password_hash: r.get(2),
        created: r.get(3),
    }
}

impl Store for PgStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn schema_version(&self) -> Result<u32> {
        version(&mut **self.pool.get()?)
    }

    fn create_account(&self, name: &str, password_hash: &str, now: i64) -> Result<AccountId> {
        let r = self.pool.get()?.query_one(
            "INSERT INTO accounts (name, name_key, password_hash, created)
             VALUES ($1, $2, $3, $4) RETURNING id",
            &[&name, &name_key(name), &password_hash, &now],
        );
        match r {
            Ok(row) => Ok(row.get(0)),
            Err(e) if is(&e, &SqlState::UNIQUE_VIOLATION) => Err(StoreError::NameTaken),
            Err(e) => Err(db(e)),
        }
    }

    fn account_by_name(&self, name: &str) -> Result<Option<Account>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT id, name, password_hash, created FROM accounts WHERE name_key = $1",
                &[&name_key(name)],
            )
            .map_err(db)?
            .as_ref()
            .map(account_row))
    }

    fn account(&self, id: AccountId) -> Result<Option<Account>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT id, name, password_hash, created FROM accounts WHERE id = $1",
                &[&id],
            )
            .map_err(db)?
            .as_ref()
            .map(account_row))
    }

    fn create_session(
        &self,
        account: AccountId,
        token: &str,
        now: i64,
        expires: i64,
    ) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO sessions (token_hash, account_id, created, expires) VALUES ($1, $2, $3, $4)",
                &[&token_hash(token), &account, &now, &expires],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn session(&self, token: &str, now: i64) -> Result<Option<Account>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT a.id, a.name, a.password_hash, a.created FROM sessions s
                 JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = $1 AND s.expires > $2",
                &[&token_hash(token), &now],
            )
            .map_err(db)?
            .as_ref()
            .map(account_row))
    }

    fn revoke_session(&self, token: &str) -> Result<bool> {
        self.pool
            .get()?
            .execute(
                "DELETE FROM sessions WHERE token_hash = $1",
                &[&token_hash(token)],
            )
            .map(|n| n > 0)
            .map_err(db)
    }

    fn revoke_all_sessions(&self, account: AccountId) -> Result<u64> {
        self.pool
            .get()?
            .execute("DELETE FROM sessions WHERE account_id = $1", &[&account])
            .map_err(db)
    }

    fn record_login_failure(&self, key: &str, now: i64) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO login_failures (key, at) VALUES ($1, $2)",
                &[&key, &now],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn login_failures_since(&self, key: &str, since: i64) -> Result<u64> {
        let n: i64 = self
            .pool
            .get()?
            .query_one(
                "SELECT COUNT(*) FROM login_failures WHERE key = $1 AND at >= $2",
                &[&key, &since],
            )
            .map_err(db)?
            .get(0);
        Ok(u64::try_from(n).unwrap_or(0))
    }

    fn prune_login_failures(&self, before: i64) -> Result<u64> {
        self.pool
            .get()?
            .execute("DELETE FROM login_failures WHERE at < $1", &[&before])
            .map_err(db)
    }

    fn add_score(&self, s: &Score) -> Result<()> {
        let turn = i64::try_from(s.turn).unwrap_or(i64::MAX);
        self.pool
            .get()?
            .execute(
                "INSERT INTO scores (game, game_id, player, account_id, points, depth, turn, ended)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &s.game,
                    &db_id(s.game_id)?,
                    &s.player,
                    &s.account,
                    &s.points,
                    &s.depth,
                    &turn,
                    &s.ended,
                ],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn top_scores(&self, game: &str, n: u32) -> Result<Vec<Score>> {
        let rows = self
            .pool
            .get()?
            .query(
                "SELECT game, game_id, player, account_id, points, depth, turn, ended FROM scores
                 WHERE game = $1 ORDER BY points DESC, ended ASC, id ASC LIMIT $2",
                &[&game, &i64::from(n)],
            )
            .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| Score {
                game: r.get(0),
                game_id: from_db_id(r.get(1)),
                player: r.get(2),
                account: r.get(3),
                points: r.get(4),
                depth: r.get(5),
                turn: u64::try_from(r.get::<_, i64>(6)).unwrap_or(0),
                ended: r.get(7),
            })
            .collect())
    }

    fn put_morgue(&self, game_id: u64, text: &str) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO morgues (game_id, text) VALUES ($1, $2)
                 ON CONFLICT (game_id) DO UPDATE SET text = excluded.text",
                &[&db_id(game_id)?, &text],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn morgue(&self, game_id: u64) -> Result<Option<String>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT text FROM morgues WHERE game_id = $1",
                &[&db_id(game_id)?],
            )
            .map_err(db)?
            .map(|r| r.get(0)))
    }

    fn put_save(&self, account: AccountId, game_id: u64, data: &[u8], now: i64) -> Result<()> {
        let gid = db_id(game_id)?;
        let mut c = self.pool.get()?;
        let mut tx = c.transaction().map_err(db)?;
        let owner = claim_in(&mut tx, gid, account, now)?;
        if owner != account {
            return Err(StoreError::NotOwner(game_id));
        }
        // The size is checked by the table (CHECK), inside this transaction: a refused save
        // takes the claim above back with it.
        let w = tx.execute(
            "INSERT INTO saves (account_id, game_id, data, updated) VALUES ($1, $2, $3, $4)
             ON CONFLICT (account_id, game_id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
            &[&account, &gid, &data, &now],
        );
        match w {
            Ok(_) => tx.commit().map_err(db),
            Err(e) if is(&e, &SqlState::CHECK_VIOLATION) => Err(StoreError::Invalid(format!(
                "a save must be 1 to {MAX_SAVE_BYTES} bytes (this one is {})",
                data.len()
            ))),
            Err(e) => Err(db(e)),
        }
    }

    fn save(&self, account: AccountId, game_id: u64) -> Result<Option<Vec<u8>>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT data FROM saves WHERE account_id = $1 AND game_id = $2",
                &[&account, &db_id(game_id)?],
            )
            .map_err(db)?
            .map(|r| r.get(0)))
    }

    fn delete_save(&self, account: AccountId, game_id: u64) -> Result<bool> {
        self.pool
            .get()?
            .execute(
                "DELETE FROM saves WHERE account_id = $1 AND game_id = $2",
                &[&account, &db_id(game_id)?],
            )
            .map(|n| n > 0)
            .map_err(db)
    }

    fn append_recording(&self, game_id: u64, line: &str) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO recordings (game_id, line) VALUES ($1, $2)",
                &[&db_id(game_id)?, &line],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn recording(&self, game_id: u64) -> Result<Vec<String>> {
        Ok(self
            .pool
            .get()?
            .query(
                "SELECT line FROM recordings WHERE game_id = $1 ORDER BY seq",
                &[&db_id(game_id)?],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn claim_game(&self, game_id: u64, account: AccountId, now: i64) -> Result<bool> {
        let gid = db_id(game_id)?;
        let mut c = self.pool.get()?;
        let mut tx = c.transaction().map_err(db)?;
        let owner = claim_in(&mut tx, gid, account, now)?;
        tx.commit().map_err(db)?;
        Ok(owner == account)
    }

    fn game_owner(&self, game_id: u64) -> Result<Option<AccountId>> {
        Ok(self
            .pool
            .get()?
            .query_opt(
                "SELECT account_id FROM games WHERE id = $1",
                &[&db_id(game_id)?],
            )
            .map_err(db)?
            .map(|r| r.get(0)))
    }
}

/// Inside `tx`: make game `gid` `account`'s unless it is someone's already, and return
/// its owner (the claim and the check in one transaction).
fn claim_in(
    tx: &mut postgres::Transaction<'_>,
    gid: i64,
    account: AccountId,
    now: i64,
) -> Result<AccountId> {
    tx.execute(
        "INSERT INTO games (id, account_id, claimed) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO NOTHING",
        &[&gid, &account, &now],
    )
    .map_err(db)?;
    Ok(tx
        .query_one("SELECT account_id FROM games WHERE id = $1", &[&gid])
        .map_err(db)?
        .get(0))
}
