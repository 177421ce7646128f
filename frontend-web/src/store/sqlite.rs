//! [`SqliteStore`]: the default store, one SQLite file (rusqlite, SQLite bundled: a fresh
//! machine needs nothing installed). WAL mode (readers do not wait for the writer),
//! `busy_timeout` (a writer waits for another rather than failing), foreign keys on; write
//! transactions begin `IMMEDIATE`, so they take the write lock at once and wait for it
//! under the busy timeout instead of failing half-way.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};

use super::{
    Account, AccountId, Counts, GAME_SELECT, GameFilter, GameRecord, GameStatus, Lease,
    MirrorWrite, NewGame, Pool, Result, SCHEMA_VERSION, Score, Store, StoreError, db_id, db_seed,
    from_db_id, from_db_seed, name_key, token_hash,
};

/// The numbered migrations, in order: migration `i + 1` is `MIGRATIONS[i]`.
pub const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    // 1: accounts, sessions, log-in failures.
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created INTEGER NOT NULL,
        expires INTEGER NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);
    CREATE TABLE login_failures (key TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE INDEX login_failures_key ON login_failures(key, at);",
    // 2: games' owners, saves, recordings, morgue files, scores.
    "CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        claimed INTEGER NOT NULL
    );
    CREATE TABLE saves (
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL,
        data BLOB NOT NULL CHECK (length(data) BETWEEN 1 AND 67108864),
        updated INTEGER NOT NULL,
        PRIMARY KEY (account_id, game_id)
    );
    CREATE TABLE recordings (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        line TEXT NOT NULL
    );
    CREATE INDEX recordings_game ON recordings(game_id, seq);
    CREATE TABLE morgues (game_id INTEGER PRIMARY KEY, text TEXT NOT NULL);
    CREATE TABLE scores (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        game_id INTEGER NOT NULL,
        player TEXT NOT NULL,
        account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        points INTEGER NOT NULL,
        depth INTEGER,
        turn INTEGER NOT NULL,
        ended INTEGER NOT NULL
    );
    CREATE INDEX scores_top ON scores(game, points DESC, ended);",
    // 3: every game the servers hold (player, seed, the browser that started it, status,
    // progress, the server holding it and its lease); saves kept per game, anonymous ones
    // too (no server wrote the account-keyed saves of migration 2); shared settings.
    "CREATE TABLE web_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        player TEXT NOT NULL,
        seed INTEGER NOT NULL,
        owner_token TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('live', 'saved', 'finished')),
        depth INTEGER,
        turn INTEGER NOT NULL,
        server TEXT,
        lease_until INTEGER,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE INDEX web_games_owner ON web_games(owner_token, id);
    CREATE INDEX web_games_status ON web_games(status, id);
    DROP TABLE saves;
    CREATE TABLE saves (
        game_id INTEGER PRIMARY KEY,
        data BLOB NOT NULL CHECK (length(data) BETWEEN 1 AND 67108864),
        updated INTEGER NOT NULL
    );
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
];

/// Connections per store.
const POOL: usize = 4;

/// The SQLite store.
#[derive(Debug)]
pub struct SqliteStore {
    pool: Pool<Connection>,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Db(e.to_string())
}

/// How SQLite flushes a commit to the disk (its `synchronous` setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// `FULL` (the default): every commit is flushed (one `fsync` of the WAL) before it
    /// returns, so a committed move survives a crash of the machine.
    #[default]
    Full,
    /// `NORMAL`: commits are not flushed, only checkpoints. A committed move survives the
    /// server's crash (`kill -9`), but the last ones may be lost with the machine's (a power
    /// cut): asked for with `sqlite:PATH?synchronous=normal`.
    Normal,
}

fn connect(path: &Path, sync: Synchronous) -> Result<Connection> {
    let c = Connection::open(path).map_err(db)?;
    c.busy_timeout(Duration::from_secs(10)).map_err(db)?;
    c.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
    if sync == Synchronous::Normal {
        c.pragma_update(None, "synchronous", "NORMAL").map_err(db)?;
    }
    let mode: String = c
        .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
        .map_err(db)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Db(format!(
            "{} cannot use WAL mode (it is in {mode} mode)",
            path.display()
        )));
    }
    Ok(c)
}

/// The schema version of an open database (0: none yet).
fn version(c: &Connection) -> Result<u32> {
    c.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)",
    )
    .map_err(db)?;
    let v: Option<i64> = c
        .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
            r.get(0)
        })
        .map_err(db)?;
    Ok(u32::try_from(v.unwrap_or(0)).unwrap_or(u32::MAX))
}

/// Apply the migrations after the database's version up to `target`, in one transaction.
fn migrate(c: &mut Connection, target: u32) -> Result<()> {
    let tx = c
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(db)?;
    let found = version(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for v in found + 1..=target {
        let sql = MIGRATIONS[v as usize - 1];
        tx.execute_batch(sql)
            .map_err(|e| StoreError::Db(format!("migration {v}: {e}")))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied) VALUES (?1, strftime('%s','now'))",
            [v],
        )
        .map_err(db)?;
    }
    tx.commit().map_err(db)
}

impl SqliteStore {
    /// Open (or make) the database at `path` and bring its schema up to date.
    ///
    /// # Errors
    /// [`StoreError::TooNew`], or it could not be opened or migrated.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        Self::open_with(path, Synchronous::Full)
    }

    /// [`SqliteStore::open`], its commits flushed as `sync` says.
    ///
    /// # Errors
    /// As [`SqliteStore::open`].
    pub fn open_with(path: &Path, sync: Synchronous) -> Result<SqliteStore> {
        let mut first = connect(path, sync)?;
        migrate(&mut first, SCHEMA_VERSION)?;
        let owned = path.to_path_buf();
        Ok(SqliteStore {
            pool: Pool::new(POOL, first, move || connect(&owned, sync), |_| true),
        })
    }

    /// Open the database at `path` migrated only up to `version` (not past
    /// [`SCHEMA_VERSION`]): for the migration tests and for tools. The store's other methods
    /// need the full schema.
    ///
    /// # Errors
    /// As [`SqliteStore::open`].
    pub fn open_at_version(path: &Path, version: u32) -> Result<SqliteStore> {
        let mut first = connect(path, Synchronous::Full)?;
        migrate(&mut first, version.min(SCHEMA_VERSION))?;
        let owned = path.to_path_buf();
        Ok(SqliteStore {
            pool: Pool::new(
                POOL,
                first,
                move || connect(&owned, Synchronous::Full),
                |_| true,
            ),
        })
    }
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        password_hash: r.get(2)?,
        created: r.get(3)?,
    })
}

impl Store for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn schema_version(&self) -> Result<u32> {
        version(&*self.pool.get()?)
    }

    fn create_account(&self, name: &str, password_hash: &str, now: i64) -> Result<AccountId> {
        let c = self.pool.get()?;
        let r = c.execute(
            "INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?1, ?2, ?3, ?4)",
            params![name, name_key(name), password_hash, now],
        );
        match r {
            Ok(_) => Ok(c.last_insert_rowid()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == ErrorCode::ConstraintViolation =>
            {
                Err(StoreError::NameTaken)
            }
            Err(e) => Err(db(e)),
        }
    }

    fn account_by_name(&self, name: &str) -> Result<Option<Account>> {
        self.pool
            .get()?
            .query_row(
                "SELECT id, name, password_hash, created FROM accounts WHERE name_key = ?1",
                [name_key(name)],
                account_row,
            )
            .optional()
            .map_err(db)
    }

    fn account(&self, id: AccountId) -> Result<Option<Account>> {
        self.pool
            .get()?
            .query_row(
                "SELECT id, name, password_hash, created FROM accounts WHERE id = ?1",
                [id],
                account_row,
            )
            .optional()
            .map_err(db)
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
                "INSERT INTO sessions (token_hash, account_id, created, expires) VALUES (?1, ?2, ?3, ?4)",
                params![token_hash(token), account, now, expires],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn session(&self, token: &str, now: i64) -> Result<Option<Account>> {
        self.pool
            .get()?
            .query_row(
                "SELECT a.id, a.name, a.password_hash, a.created FROM sessions s
                 JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = ?1 AND s.expires > ?2",
                params![token_hash(token), now],
                account_row,
            )
            .optional()
            .map_err(db)
    }

    fn revoke_session(&self, token: &str) -> Result<bool> {
        self.pool
            .get()?
            .execute(
                "DELETE FROM sessions WHERE token_hash = ?1",
                [token_hash(token)],
            )
            .map(|n| n > 0)
            .map_err(db)
    }

    fn revoke_all_sessions(&self, account: AccountId) -> Result<u64> {
        self.pool
            .get()?
            .execute("DELETE FROM sessions WHERE account_id = ?1", [account])
            .map(|n| n as u64)
            .map_err(db)
    }

    fn record_login_failure(&self, key: &str, now: i64) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO login_failures (key, at) VALUES (?1, ?2)",
                params![key, now],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn login_failures_since(&self, key: &str, since: i64) -> Result<u64> {
        let n: i64 = self
            .pool
            .get()?
            .query_row(
                "SELECT COUNT(*) FROM login_failures WHERE key = ?1 AND at >= ?2",
                params![key, since],
                |r| r.get(0),
            )
            .map_err(db)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    fn prune_login_failures(&self, before: i64) -> Result<u64> {
        self.pool
            .get()?
            .execute("DELETE FROM login_failures WHERE at < ?1", [before])
            .map(|n| n as u64)
            .map_err(db)
    }

    fn add_score(&self, s: &Score) -> Result<()> {
        let turn = i64::try_from(s.turn).unwrap_or(i64::MAX);
        self.pool
            .get()?
            .execute(
                "INSERT INTO scores (game, game_id, player, account_id, points, depth, turn, ended)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    s.game,
                    db_id(s.game_id)?,
                    s.player,
                    s.account,
                    s.points,
                    s.depth,
                    turn,
                    s.ended
                ],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn top_scores(&self, game: &str, n: u32) -> Result<Vec<Score>> {
        let c = self.pool.get()?;
        let mut st = c
            .prepare(
                "SELECT game, game_id, player, account_id, points, depth, turn, ended FROM scores
                 WHERE game = ?1 ORDER BY points DESC, ended ASC, id ASC LIMIT ?2",
            )
            .map_err(db)?;
        let rows = st
            .query_map(params![game, n], |r| {
                Ok(Score {
                    game: r.get(0)?,
                    game_id: from_db_id(r.get(1)?),
                    player: r.get(2)?,
                    account: r.get(3)?,
                    points: r.get(4)?,
                    depth: r.get(5)?,
                    turn: u64::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
                    ended: r.get(7)?,
                })
            })
            .map_err(db)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(db)
    }

    fn put_morgue(&self, game_id: u64, text: &str) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO morgues (game_id, text) VALUES (?1, ?2)
                 ON CONFLICT (game_id) DO UPDATE SET text = excluded.text",
                params![db_id(game_id)?, text],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn morgue(&self, game_id: u64) -> Result<Option<String>> {
        self.pool
            .get()?
            .query_row(
                "SELECT text FROM morgues WHERE game_id = ?1",
                [db_id(game_id)?],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }

    fn put_save(&self, account: AccountId, game_id: u64, data: &[u8], now: i64) -> Result<()> {
        let gid = db_id(game_id)?;
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let owner = claim_in(&tx, gid, account, now)?;
        if owner != account {
            return Err(StoreError::NotOwner(game_id));
        }
        // The size is checked by the table (CHECK), inside this transaction: a refused save
        // takes the claim above back with it.
        write_save(&tx, gid, data, now)?;
        tx.commit().map_err(db)
    }

    fn save(&self, account: AccountId, game_id: u64) -> Result<Option<Vec<u8>>> {
        self.pool
            .get()?
            .query_row(
                "SELECT s.data FROM saves s JOIN games g ON g.id = s.game_id
                 WHERE g.account_id = ?1 AND s.game_id = ?2",
                params![account, db_id(game_id)?],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }

    fn delete_save(&self, account: AccountId, game_id: u64) -> Result<bool> {
        self.pool
            .get()?
            .execute(
                "DELETE FROM saves WHERE game_id = ?2
                 AND game_id IN (SELECT id FROM games WHERE account_id = ?1)",
                params![account, db_id(game_id)?],
            )
            .map(|n| n > 0)
            .map_err(db)
    }

    fn append_recording(&self, game_id: u64, line: &str) -> Result<()> {
        self.pool
            .get()?
            .execute(
                "INSERT INTO recordings (game_id, line) VALUES (?1, ?2)",
                params![db_id(game_id)?, line],
            )
            .map(|_| ())
            .map_err(db)
    }

    fn recording(&self, game_id: u64) -> Result<Vec<String>> {
        let c = self.pool.get()?;
        let mut st = c
            .prepare("SELECT line FROM recordings WHERE game_id = ?1 ORDER BY seq")
            .map_err(db)?;
        let rows = st.query_map([db_id(game_id)?], |r| r.get(0)).map_err(db)?;
        rows.collect::<rusqlite::Result<Vec<String>>>().map_err(db)
    }

    fn claim_game(&self, game_id: u64, account: AccountId, now: i64) -> Result<bool> {
        let gid = db_id(game_id)?;
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let owner = claim_in(&tx, gid, account, now)?;
        tx.commit().map_err(db)?;
        Ok(owner == account)
    }

    fn game_owner(&self, game_id: u64) -> Result<Option<AccountId>> {
        self.pool
            .get()?
            .query_row(
                "SELECT account_id FROM games WHERE id = ?1",
                [db_id(game_id)?],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }

    fn create_game(&self, g: &NewGame<'_>) -> Result<u64> {
        let c = self.pool.get()?;
        c.execute(
            "INSERT INTO web_games (kind, player, seed, owner_token, status, turn, server,
                                    lease_until, created, updated)
             VALUES (?1, ?2, ?3, ?4, 'live', 0, ?5, ?6, ?7, ?7)",
            params![
                g.kind,
                g.player,
                db_seed(g.seed),
                g.owner_token,
                g.server,
                g.lease_until,
                g.now
            ],
        )
        .map_err(db)?;
        Ok(from_db_id(c.last_insert_rowid()))
    }

    fn game(&self, id: u64) -> Result<Option<GameRecord>> {
        self.pool
            .get()?
            .query_row(
                &format!("{GAME_SELECT} WHERE w.id = ?1"),
                [db_id(id)?],
                game_row,
            )
            .optional()
            .map_err(db)
    }

    fn game_to_continue(
        &self,
        owner_token: &str,
        account: Option<AccountId>,
    ) -> Result<Option<GameRecord>> {
        self.pool
            .get()?
            .query_row(
                &format!(
                    "{GAME_SELECT} WHERE w.status <> 'finished'
                     AND (w.owner_token = ?1 OR (?2 IS NOT NULL AND g.account_id = ?2))
                     ORDER BY w.id DESC LIMIT 1"
                ),
                params![owner_token, account],
                game_row,
            )
            .optional()
            .map_err(db)
    }

    fn games(&self, filter: GameFilter, n: u32) -> Result<Vec<GameRecord>> {
        let c = self.pool.get()?;
        let (cond, arg) = match filter {
            GameFilter::Live(now) => ("w.status = 'live' AND w.lease_until >= ?1", now),
            GameFilter::Finished => ("w.status = 'finished' AND ?1 = ?1", 0),
            GameFilter::Account(a) => ("g.account_id = ?1", a),
        };
        let mut st = c
            .prepare(&format!(
                "{GAME_SELECT} WHERE {cond} ORDER BY w.id DESC LIMIT ?2"
            ))
            .map_err(db)?;
        let rows = st
            .query_map(params![arg, i64::from(n)], game_row)
            .map_err(db)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(db)
    }

    fn set_game(
        &self,
        id: u64,
        server: &str,
        status: GameStatus,
        depth: Option<i32>,
        turn: u64,
        now: i64,
    ) -> Result<bool> {
        let turn = i64::try_from(turn).unwrap_or(i64::MAX);
        let keep_lease = status == GameStatus::Live;
        self.pool
            .get()?
            .execute(
                "UPDATE web_games SET status = ?2, depth = ?3, turn = ?4, updated = ?5,
                    server = CASE WHEN ?6 THEN server END,
                    lease_until = CASE WHEN ?6 THEN lease_until END
                 WHERE id = ?1 AND (server = ?7 OR server IS NULL)",
                params![
                    db_id(id)?,
                    status.as_str(),
                    depth,
                    turn,
                    now,
                    keep_lease,
                    server
                ],
            )
            .map(|n| n > 0)
            .map_err(db)
    }

    fn mirror(&self, id: u64, server: &str, w: &MirrorWrite<'_>, now: i64) -> Result<bool> {
        let gid = db_id(id)?;
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let held = mirror_in(&tx, gid, server, w, now)?;
        tx.commit().map_err(db)?;
        Ok(held)
    }

    fn progress_many(
        &self,
        server: &str,
        rows: &[(u64, Option<i32>, u64)],
        now: i64,
    ) -> Result<Vec<bool>> {
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let mut held = Vec::with_capacity(rows.len());
        {
            let mut st = tx
                .prepare_cached(
                    "UPDATE web_games SET depth = ?2, turn = ?3, updated = ?4
                     WHERE id = ?1 AND status = 'live' AND (server = ?5 OR server IS NULL)",
                )
                .map_err(db)?;
            for &(id, depth, turn) in rows {
                let turn = i64::try_from(turn).unwrap_or(i64::MAX);
                let n = st
                    .execute(params![db_id(id)?, depth, turn, now, server])
                    .map_err(db)?;
                held.push(n > 0);
            }
        }
        tx.commit().map_err(db)?;
        Ok(held)
    }

    fn mirror_many(
        &self,
        server: &str,
        writes: &[(u64, MirrorWrite<'_>)],
        now: i64,
    ) -> Result<Vec<bool>> {
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let mut held = Vec::with_capacity(writes.len());
        for (id, w) in writes {
            held.push(mirror_in(&tx, db_id(*id)?, server, w, now)?);
        }
        tx.commit().map_err(db)?;
        Ok(held)
    }

    fn take_lease(&self, id: u64, server: &str, now: i64, until: i64) -> Result<Lease> {
        let gid = db_id(id)?;
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let row: Option<(String, Option<String>, Option<i64>)> = tx
            .query_row(
                "SELECT status, server, lease_until FROM web_games WHERE id = ?1",
                [gid],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(db)?;
        let lease = match row {
            None => Lease::Gone,
            Some((st, _, _)) if GameStatus::parse(&st) == GameStatus::Finished => Lease::Gone,
            Some((_, Some(other), Some(t))) if other != server && t >= now => Lease::HeldBy(other),
            Some(_) => {
                tx.execute(
                    "UPDATE web_games SET status = 'live', server = ?2, lease_until = ?3,
                        updated = ?4 WHERE id = ?1",
                    params![gid, server, until, now],
                )
                .map_err(db)?;
                Lease::Taken
            }
        };
        tx.commit().map_err(db)?;
        Ok(lease)
    }

    fn renew_leases(&self, server: &str, until: i64) -> Result<u64> {
        self.pool
            .get()?
            .execute(
                "UPDATE web_games SET lease_until = ?2 WHERE server = ?1 AND status = 'live'",
                params![server, until],
            )
            .map(|n| n as u64)
            .map_err(db)
    }

    fn game_save(&self, id: u64) -> Result<Option<Vec<u8>>> {
        self.pool
            .get()?
            .query_row(
                "SELECT data FROM saves WHERE game_id = ?1",
                [db_id(id)?],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }

    fn setting_or_insert(&self, key: &str, value: &str) -> Result<String> {
        let c = self.pool.get()?;
        c.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
            params![key, value],
        )
        .map_err(db)?;
        c.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
            r.get(0)
        })
        .map_err(db)
    }

    fn delete_account(&self, account: AccountId) -> Result<u64> {
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let mine = "SELECT id FROM games WHERE account_id = ?1";
        for table in ["saves", "recordings", "morgues"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE game_id IN ({mine})"),
                [account],
            )
            .map_err(db)?;
        }
        tx.execute("DELETE FROM scores WHERE account_id = ?1", [account])
            .map_err(db)?;
        let n = tx
            .execute(
                &format!("DELETE FROM web_games WHERE id IN ({mine})"),
                [account],
            )
            .map_err(db)?;
        // Sessions and the ownership rows go with the account (ON DELETE CASCADE).
        tx.execute("DELETE FROM accounts WHERE id = ?1", [account])
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(n as u64)
    }

    fn expire_anonymous(&self, before: i64, now: i64) -> Result<u64> {
        let mut c = self.pool.get()?;
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let stale = "SELECT id FROM web_games WHERE status <> 'finished' AND updated < ?1 \
             AND id NOT IN (SELECT id FROM games) \
             AND NOT (status = 'live' AND lease_until IS NOT NULL AND lease_until >= ?2)";
        for table in ["saves", "recordings", "morgues"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE game_id IN ({stale})"),
                [before, now],
            )
            .map_err(db)?;
        }
        let n = tx
            .execute(
                &format!("DELETE FROM web_games WHERE id IN ({stale})"),
                [before, now],
            )
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(n as u64)
    }

    fn counts(&self, now: i64) -> Result<Counts> {
        let c = self.pool.get()?;
        let one = |sql: &str, arg: i64| -> Result<u64> {
            c.query_row(sql, [arg], |r| r.get::<_, i64>(0))
                .map(|n| u64::try_from(n).unwrap_or(0))
                .map_err(db)
        };
        Ok(Counts {
            accounts: one("SELECT COUNT(*) FROM accounts WHERE ?1 = ?1", 0)?,
            live: one(
                "SELECT COUNT(*) FROM web_games WHERE status = 'live' AND lease_until >= ?1",
                now,
            )?,
            saved: one(
                "SELECT COUNT(*) FROM web_games WHERE status = 'saved' OR
                 (status = 'live' AND (lease_until IS NULL OR lease_until < ?1))",
                now,
            )?,
            finished: one(
                "SELECT COUNT(*) FROM web_games WHERE status = 'finished' AND ?1 = ?1",
                0,
            )?,
        })
    }

    fn backup(&self, path: &Path) -> Result<()> {
        if path.exists() {
            return Err(StoreError::Invalid(format!(
                "{} exists already: a backup is written to a new file",
                path.display()
            )));
        }
        let target = path
            .to_str()
            .ok_or_else(|| StoreError::Invalid("the backup's path must be UTF-8".to_owned()))?;
        self.pool
            .get()?
            .execute("VACUUM INTO ?1", [target])
            .map(|_| ())
            .map_err(db)
    }
}

/// Inside `tx`: make game `gid` `account`'s unless it is someone's already, and return
/// its owner (the claim and the check in one transaction).
fn claim_in(
    tx: &rusqlite::Transaction<'_>,
    gid: i64,
    account: AccountId,
    now: i64,
) -> Result<AccountId> {
    tx.execute(
        "INSERT INTO games (id, account_id, claimed) VALUES (?1, ?2, ?3)
         ON CONFLICT (id) DO NOTHING",
        params![gid, account, now],
    )
    .map_err(db)?;
    tx.query_row("SELECT account_id FROM games WHERE id = ?1", [gid], |r| {
        r.get(0)
    })
    .map_err(db)
}

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRecord> {
    Ok(GameRecord {
        id: from_db_id(r.get(0)?),
        kind: r.get(1)?,
        player: r.get(2)?,
        seed: from_db_seed(r.get(3)?),
        owner_token: r.get(4)?,
        account: r.get(5)?,
        status: GameStatus::parse(&r.get::<_, String>(6)?),
        depth: r.get(7)?,
        turn: u64::try_from(r.get::<_, i64>(8)?).unwrap_or(0),
        server: r.get(9)?,
        lease_until: r.get(10)?,
        created: r.get(11)?,
        updated: r.get(12)?,
    })
}

/// [`Store::mirror`]'s work for game `gid` inside transaction `tx`; `false` (nothing
/// written) when `server` does not hold it.
fn mirror_in(
    tx: &rusqlite::Transaction<'_>,
    gid: i64,
    server: &str,
    w: &MirrorWrite<'_>,
    now: i64,
) -> Result<bool> {
    let held: bool = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM web_games WHERE id = ?1 AND server = ?2)")
        .and_then(|mut st| st.query_row(params![gid, server], |r| r.get(0)))
        .map_err(db)?;
    if !held {
        return Ok(false);
    }
    if w.restart_recording {
        tx.execute("DELETE FROM recordings WHERE game_id = ?1", [gid])
            .map_err(db)?;
    }
    {
        let mut st = tx
            .prepare_cached("INSERT INTO recordings (game_id, line) VALUES (?1, ?2)")
            .map_err(db)?;
        for line in w.lines {
            st.execute(params![gid, line]).map_err(db)?;
        }
    }
    if let Some(data) = w.save {
        write_save(tx, gid, data, now)?;
    }
    Ok(true)
}

/// Write game `gid`'s save on `c` (a connection or a transaction); the table's CHECK
/// refuses an empty save or one too large.
fn write_save(c: &Connection, gid: i64, data: &[u8], now: i64) -> Result<()> {
    let w = c.execute(
        "INSERT INTO saves (game_id, data, updated) VALUES (?1, ?2, ?3)
         ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
        params![gid, data, now],
    );
    match w {
        Ok(_) => Ok(()),
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::ConstraintViolation => {
            Err(StoreError::Invalid(format!(
                "a save must be 1 to {} bytes (this one is {})",
                super::MAX_SAVE_BYTES,
                data.len()
            )))
        }
        Err(e) => Err(db(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synchronous_is_full_unless_normal_is_asked_for() {
        let dir = std::env::temp_dir().join(format!("alembic-web-sync-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let path = dir.join("s.db");
        let read = |c: &Connection| -> i64 {
            c.query_row("PRAGMA synchronous", [], |r| r.get(0))
                .unwrap_or(-1)
        };
        let full = connect(&path, Synchronous::Full).map(|c| read(&c));
        let normal = connect(&path, Synchronous::Normal).map(|c| read(&c));
        let _ = std::fs::remove_dir_all(&dir);
        // SQLite's numbers: 2 is FULL, 1 is NORMAL.
        assert_eq!(full.ok(), Some(2));
        assert_eq!(normal.ok(), Some(1));
    }
}
