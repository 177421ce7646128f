//! Storage behind one interface, [`Store`]: accounts, sessions, log-in failures (for rate
//! limits), scores, morgue files, saves, recordings and which account owns which game.
//!
//! Two implementations share the trait and one test suite (`tests/store.rs`):
//!
//! - [`sqlite::SqliteStore`] (the default, `sqlite:PATH`): embedded, nothing to install
//!   (rusqlite's `bundled` SQLite), WAL mode, a busy timeout, foreign keys on.
//! - [`postgres::PgStore`] (`postgres://…`): several servers sharing one database.
//!
//! The trait is synchronous: the server calls it from blocking threads
//! (`tokio::task::spawn_blocking`), as it already does for files. It must not be called on
//! a thread that drives async tasks (the PostgreSQL client blocks on a runtime of its own);
//! [`open`] and dropping a store are safe anywhere. Each implementation keeps a
//! small pool of connections ([`Pool`]), so concurrent callers do not queue behind one.
//!
//! **Migrations.** A `schema_migrations` table holds the version of every numbered migration
//! applied. Opening a store applies the missing ones in order, in one transaction (so a
//! failure leaves the database as it was); a database newer than this program is refused
//! with [`StoreError::TooNew`]. On PostgreSQL a transaction-scoped advisory lock keeps two
//! servers from migrating at once.
//!
//! Times are seconds since 1970 passed in by the caller, so expiry is testable.

pub mod group;
pub mod postgres;
pub mod sqlite;

use std::sync::{Condvar, Mutex, MutexGuard};

/// The schema version this program writes and reads (the number of migrations).
pub const SCHEMA_VERSION: u32 = 3;

/// Largest save blob, in bytes (the databases refuse more, inside the transaction).
pub const MAX_SAVE_BYTES: usize = 64 << 20;

/// How long a log-in session lasts, in seconds (30 days).
pub const SESSION_SECS: i64 = 30 * 24 * 3600;

/// An account's id.
pub type AccountId = i64;

/// An account as stored: never the password, only its hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// The name as registered (its case kept).
    pub name: String,
    /// The password's hash (a PHC string: `$argon2id$…`).
    pub password_hash: String,
    /// When it was made.
    pub created: i64,
}

/// One row of the score table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Which game (`alchemy`, `caves`).
    pub game: String,
    /// The game's id.
    pub game_id: u64,
    /// The player's name as shown.
    pub player: String,
    /// The account that played it, if logged in.
    pub account: Option<AccountId>,
    /// Points (higher is better).
    pub points: i64,
    /// Where it ended.
    pub depth: Option<i32>,
    /// Its last turn.
    pub turn: u64,
    /// When it ended.
    pub ended: i64,
}

/// Where a game is in its life, as the store keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Being played on a server (which holds its lease).
    Live,
    /// Saved and stopped: its player can continue it, on any server.
    Saved,
    /// Over (won, died or quit without a save): its morgue file and recording stay.
    Finished,
}

impl GameStatus {
    /// Its name in the database.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Saved => "saved",
            GameStatus::Finished => "finished",
        }
    }

    /// The status called `s` (anything unknown reads as finished: never played again).
    #[must_use]
    pub fn parse(s: &str) -> GameStatus {
        match s {
            "live" => GameStatus::Live,
            "saved" => GameStatus::Saved,
            _ => GameStatus::Finished,
        }
    }
}

/// A game as the store keeps it: what the lobby, the per-player pages and a server taking
/// it over need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Its id (made by the database, so unique across servers).
    pub id: u64,
    /// Which game (`alchemy`, `caves`).
    pub kind: String,
    /// The player's name as shown.
    pub player: String,
    /// The seed it started from.
    pub seed: u64,
    /// The browser that started it: its token's hash ([`token_hash`]).
    pub owner_token: String,
    /// The account it belongs to, if any (started logged in, or claimed).
    pub account: Option<AccountId>,
    /// Where it is in its life.
    pub status: GameStatus,
    /// The hero's depth, when known.
    pub depth: Option<i32>,
    /// Its turn.
    pub turn: u64,
    /// The server holding it (while [`GameStatus::Live`] and its lease runs).
    pub server: Option<String>,
    /// Until when that server's lease runs (seconds since 1970).
    pub lease_until: Option<i64>,
    /// When it started.
    pub created: i64,
    /// When it last changed.
    pub updated: i64,
}

/// A new game's row.
#[derive(Clone, Copy, Debug)]
pub struct NewGame<'a> {
    /// Which game.
    pub kind: &'a str,
    /// The player's name.
    pub player: &'a str,
    /// Its seed.
    pub seed: u64,
    /// The browser's token hash ([`token_hash`]).
    pub owner_token: &'a str,
    /// The server that will run it (it holds the lease from the start).
    pub server: &'a str,
    /// Now, and until when the lease runs.
    pub now: i64,
    /// The lease's end.
    pub lease_until: i64,
}

/// What commands changed in a game's files ([`Store::mirror`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct MirrorWrite<'a> {
    /// The recording was written again from its start: its stored lines go first.
    pub restart_recording: bool,
    /// Recording lines to append, in order.
    pub lines: &'a [String],
    /// The save, when it changed.
    pub save: Option<&'a [u8]>,
}

impl MirrorWrite<'_> {
    /// Whether there is nothing to write.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.restart_recording && self.lines.is_empty() && self.save.is_none()
    }
}

/// Which games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFilter {
    /// Being played (a lease running at this time), on any server.
    Live(i64),
    /// Finished, newest first.
    Finished,
    /// An account's, every status, newest first.
    Account(AccountId),
}

/// Whether a server got a game's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lease {
    /// This server holds it now.
    Taken,
    /// Another server's lease runs still.
    HeldBy(String),
    /// There is no such game, or it is finished.
    Gone,
}

/// What the store holds, for the health endpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Accounts.
    pub accounts: u64,
    /// Games being played (on any server).
    pub live: u64,
    /// Games saved and stopped.
    pub saved: u64,
    /// Games over.
    pub finished: u64,
}

/// What went wrong in a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An account of that name (in any case) exists.
    #[error("that name is taken")]
    NameTaken,
    /// The game belongs to another account.
    #[error("game {0} belongs to another account")]
    NotOwner(u64),
    /// The database was made by a newer program.
    #[error(
        "the database's schema is version {found}, newer than this program's {known}: \
         run a newer alembic-web, or another database"
    )]
    TooNew {
        /// The database's version.
        found: u32,
        /// This program's ([`SCHEMA_VERSION`]).
        known: u32,
    },
    /// A value the database cannot hold (an id past `i64::MAX`, a save too large).
    #[error("{0}")]
    Invalid(String),
    /// The `--db` address is not one this program knows.
    #[error("unknown database address {0:?}: use sqlite:PATH or postgres://USER@HOST:PORT/DBNAME")]
    BadUrl(String),
    /// Not something this database does (a backup of PostgreSQL: use `pg_dump`).
    #[error("{0}")]
    Unsupported(String),
    /// The database said no.
    #[error("database: {0}")]
    Db(String),
}

/// A store's result.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Storage for accounts, sessions, log-in failures, scores, morgue files, saves,
/// recordings and game ownership. Every method is one transaction; all are safe to call
/// from many threads at once.
pub trait Store: Send + Sync + std::fmt::Debug {
    /// `"sqlite"` or `"postgres"`.
    fn kind(&self) -> &'static str;

    /// The schema version of the database (after the migrations at open: [`SCHEMA_VERSION`]).
    ///
    /// # Errors
    /// The database could not be read.
    fn schema_version(&self) -> Result<u32>;

    /// Make an account. Names are unique whatever their case (`Ann` and `ann` are one).
    ///
    /// # Errors
    /// [`StoreError::NameTaken`], or the database failed.
    fn create_account(&self, name: &str, password_hash: &str, now: i64) -> Result<AccountId>;

    /// The account called `name` (in any case).
    ///
    /// # Errors
    /// The database failed.
    fn account_by_name(&self, name: &str) -> Result<Option<Account>>;

    /// The account `id`.
    ///
    /// # Errors
    /// The database failed.
    fn account(&self, id: AccountId) -> Result<Option<Account>>;

    /// Start a session for `account` under `token` (only its hash is stored), until `expires`.
    ///
    /// # Errors
    /// The database failed (or the account does not exist).
    fn create_session(&self, account: AccountId, token: &str, now: i64, expires: i64)
    -> Result<()>;

    /// The account whose session `token` is, if it has not expired by `now`.
    ///
    /// # Errors
    /// The database failed.
    fn session(&self, token: &str, now: i64) -> Result<Option<Account>>;

    /// End the session `token`; whether there was one.
    ///
    /// # Errors
    /// The database failed.
    fn revoke_session(&self, token: &str) -> Result<bool>;

    /// End every session of `account` ("log out everywhere"); how many there were.
    ///
    /// # Errors
    /// The database failed.
    fn revoke_all_sessions(&self, account: AccountId) -> Result<u64>;

    /// Count a failed log-in for `key` (a name, an address) at `now`.
    ///
    /// # Errors
    /// The database failed.
    fn record_login_failure(&self, key: &str, now: i64) -> Result<()>;

    /// Failed log-ins for `key` at or after `since`.
    ///
    /// # Errors
    /// The database failed.
    fn login_failures_since(&self, key: &str, since: i64) -> Result<u64>;

    /// Forget failed log-ins older than `before` (of every key).
    ///
    /// # Errors
    /// The database failed.
    fn prune_login_failures(&self, before: i64) -> Result<u64>;

    /// Add a row to the score table.
    ///
    /// # Errors
    /// The database failed.
    fn add_score(&self, score: &Score) -> Result<()>;

    /// The best `n` scores of `game`, best first (ties: the earlier first).
    ///
    /// # Errors
    /// The database failed.
    fn top_scores(&self, game: &str, n: u32) -> Result<Vec<Score>>;

    /// Keep the morgue file of finished game `game_id` (replacing any).
    ///
    /// # Errors
    /// The database failed.
    fn put_morgue(&self, game_id: u64, text: &str) -> Result<()>;

    /// The morgue file of game `game_id`.
    ///
    /// # Errors
    /// The database failed.
    fn morgue(&self, game_id: u64) -> Result<Option<String>>;

    /// Write `account`'s save of game `game_id`, in one transaction: the game becomes the
    /// account's if it was no one's, and the save replaces the old one; all of it or none.
    ///
    /// # Errors
    /// [`StoreError::NotOwner`] when the game is another account's; [`StoreError::Invalid`]
    /// for an empty save or one over [`MAX_SAVE_BYTES`] (nothing is written then either).
    fn put_save(&self, account: AccountId, game_id: u64, data: &[u8], now: i64) -> Result<()>;

    /// `account`'s save of game `game_id`.
    ///
    /// # Errors
    /// The database failed.
    fn save(&self, account: AccountId, game_id: u64) -> Result<Option<Vec<u8>>>;

    /// Delete `account`'s save of game `game_id`; whether there was one.
    ///
    /// # Errors
    /// The database failed.
    fn delete_save(&self, account: AccountId, game_id: u64) -> Result<bool>;

    /// Append one line (one command) to game `game_id`'s recording.
    ///
    /// # Errors
    /// The database failed.
    fn append_recording(&self, game_id: u64, line: &str) -> Result<()>;

    /// Game `game_id`'s recording, its lines in the order appended.
    ///
    /// # Errors
    /// The database failed.
    fn recording(&self, game_id: u64) -> Result<Vec<String>>;

    /// Make game `game_id` `account`'s if it is no one's; whether it is `account`'s now.
    ///
    /// # Errors
    /// The database failed.
    fn claim_game(&self, game_id: u64, account: AccountId, now: i64) -> Result<bool>;

    /// The account that owns game `game_id`.
    ///
    /// # Errors
    /// The database failed.
    fn game_owner(&self, game_id: u64) -> Result<Option<AccountId>>;

    /// Make a game's row, held by `g.server`; its id (unique across every server on this
    /// database).
    ///
    /// # Errors
    /// The database failed.
    fn create_game(&self, g: &NewGame<'_>) -> Result<u64>;

    /// Game `id`'s row.
    ///
    /// # Errors
    /// The database failed.
    fn game(&self, id: u64) -> Result<Option<GameRecord>>;

    /// The newest game not finished that the browser `owner_token` started or, when
    /// given, `account` owns: the game a player continues.
    ///
    /// # Errors
    /// The database failed.
    fn game_to_continue(
        &self,
        owner_token: &str,
        account: Option<AccountId>,
    ) -> Result<Option<GameRecord>>;

    /// Games by `filter`, at most `n`, newest first.
    ///
    /// # Errors
    /// The database failed.
    fn games(&self, filter: GameFilter, n: u32) -> Result<Vec<GameRecord>>;

    /// Record game `id`'s status and progress at `now`, as `server`, which must hold the
    /// game (or no server may); finishing or saving it also gives up its lease. Whether it
    /// was written: `false` when another server holds the game now.
    ///
    /// # Errors
    /// The database failed.
    fn set_game(
        &self,
        id: u64,
        server: &str,
        status: GameStatus,
        depth: Option<i32>,
        turn: u64,
        now: i64,
    ) -> Result<bool>;

    /// The progress (depth, turn) of several live games, as `server`, in one transaction
    /// where the backend can: for each, whether it was written (`false`: another server
    /// holds it now, or it is no longer live: a late write never brings back a game that
    /// ended or was saved meanwhile). The default is one [`Store::set_game`] each, for a
    /// backend with no such guard; SQLite and PostgreSQL have their own.
    ///
    /// # Errors
    /// The database failed.
    fn progress_many(
        &self,
        server: &str,
        rows: &[(u64, Option<i32>, u64)],
        now: i64,
    ) -> Result<Vec<bool>> {
        rows.iter()
            .map(|&(id, depth, turn)| self.set_game(id, server, GameStatus::Live, depth, turn, now))
            .collect()
    }

    /// Write what commands changed in game `id`'s files, as `server`, in one transaction and
    /// only while `server` holds the game (the check and the writes in one transaction, so
    /// a server that lost its lease, cut off from the database past it, cannot write over
    /// the server that took the game). Whether it was written: `false` when another server
    /// holds the game, and then nothing was.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for an empty save or one over [`MAX_SAVE_BYTES`] (nothing is
    /// written), or the database failed.
    fn mirror(&self, id: u64, server: &str, w: &MirrorWrite<'_>, now: i64) -> Result<bool>;

    /// [`Store::mirror`] for several games at once, in one transaction (a group commit:
    /// one commit, and one flush to disk, for many games' moves): for each, whether
    /// `server` still holds it (nothing is written for one it does not hold). All or
    /// nothing: on an error nothing is written. The default is one [`Store::mirror`] each
    /// (not one transaction).
    ///
    /// # Errors
    /// As [`Store::mirror`], for any of them.
    fn mirror_many(
        &self,
        server: &str,
        writes: &[(u64, MirrorWrite<'_>)],
        now: i64,
    ) -> Result<Vec<bool>> {
        writes
            .iter()
            .map(|(id, w)| self.mirror(*id, server, w, now))
            .collect()
    }

    /// Take game `id` for `server` until `until`, if no other server's lease runs at `now`
    /// (one transaction: two servers never both get it). The game becomes live.
    ///
    /// # Errors
    /// The database failed.
    fn take_lease(&self, id: u64, server: &str, now: i64, until: i64) -> Result<Lease>;

    /// Extend every lease `server` holds on live games to `until`; how many.
    ///
    /// # Errors
    /// The database failed.
    fn renew_leases(&self, server: &str, until: i64) -> Result<u64>;

    /// Game `id`'s save.
    ///
    /// # Errors
    /// The database failed.
    fn game_save(&self, id: u64) -> Result<Option<Vec<u8>>>;

    /// The setting `key`; when there is none yet, `value` is stored and returned (the
    /// first server on a database chooses, the others read it: a shared secret).
    ///
    /// # Errors
    /// The database failed.
    fn setting_or_insert(&self, key: &str, value: &str) -> Result<String>;

    /// Delete `account` and everything of it: its sessions, its games (their rows, saves,
    /// recordings, morgue files) and its scores. How many games went.
    ///
    /// # Errors
    /// The database failed (then nothing was deleted).
    fn delete_account(&self, account: AccountId) -> Result<u64>;

    /// How many accounts and games (live at `now`, saved, finished) there are.
    ///
    /// # Errors
    /// The database failed.
    fn counts(&self, now: i64) -> Result<Counts>;

    /// Delete every anonymous game (no account owns it) not finished whose row was last
    /// written before `before` and that no server holds at `now`, with its save,
    /// recording and morgue file; returns how many games went.
    ///
    /// # Errors
    /// The database failed (nothing was deleted).
    fn expire_anonymous(&self, before: i64, now: i64) -> Result<u64>;

    /// Copy the whole database to the new file `path`, consistent while in use (SQLite's
    /// `VACUUM INTO`).
    ///
    /// # Errors
    /// [`StoreError::Unsupported`] on PostgreSQL (use `pg_dump`), or the copy failed.
    fn backup(&self, path: &std::path::Path) -> Result<()>;
}

/// Open the store at `url`: `sqlite:PATH` (made if missing; `sqlite:PATH?synchronous=normal`
/// for commits not flushed to the disk one by one: [`sqlite::Synchronous::Normal`]) or
/// `postgres://…` / `postgresql://…`; migrations are applied.
///
/// # Errors
/// [`StoreError::BadUrl`], [`StoreError::TooNew`], or the database could not be opened.
pub fn open(url: &str) -> Result<Box<dyn Store>> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        let (path, sync) = match path.strip_suffix("?synchronous=normal") {
            Some(p) => (p, sqlite::Synchronous::Normal),
            None => (path, sqlite::Synchronous::Full),
        };
        if path.is_empty() {
            return Err(StoreError::BadUrl(url.to_owned()));
        }
        Ok(Box::new(sqlite::SqliteStore::open_with(
            std::path::Path::new(path),
            sync,
        )?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        // The synchronous client runs its own small tokio runtime, which must not start on
        // a thread that drives async tasks: connecting happens on a thread of its own, so
        // opening is safe from anywhere (a server made inside `#[tokio::main]`, a test).
        let opened = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("postgres-open".to_owned())
                .spawn_scoped(s, || postgres::PgStore::open(url))
                .map_err(|e| StoreError::Db(e.to_string()))?
                .join()
                .map_err(|_| StoreError::Db("opening the database panicked".to_owned()))?
        })?;
        Ok(Box::new(opened))
    } else {
        Err(StoreError::BadUrl(url.to_owned()))
    }
}

/// The stored form of a session token: its SHA-256 in hex, so a copy of the database does
/// not hold live sessions.
#[must_use]
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(token.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A name's unique key: lower case (names are ASCII, see the accounts' rules).
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// A game id as the databases hold it (`i64`).
///
/// # Errors
/// [`StoreError::Invalid`] past `i64::MAX`.
pub fn db_id(id: u64) -> Result<i64> {
    i64::try_from(id).map_err(|_| StoreError::Invalid(format!("game id {id} is too large")))
}

/// The columns of a [`GameRecord`] (the same SQL in both dialects), with its account from
/// the ownership table.
const GAME_SELECT: &str = "SELECT w.id, w.kind, w.player, w.seed, w.owner_token, g.account_id,
    w.status, w.depth, w.turn, w.server, w.lease_until, w.created, w.updated
    FROM web_games w LEFT JOIN games g ON g.id = w.id";

/// A seed as the databases hold it (the same 64 bits as an `i64`).
#[must_use]
pub fn db_seed(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

/// A seed back from the database.
#[must_use]
pub fn from_db_seed(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

/// A game id back from the database.
fn from_db_id(id: i64) -> u64 {
    u64::try_from(id).unwrap_or(0)
}

/// A small pool of connections: at most `max` made (on demand), each lent to one caller at
/// a time and returned when its [`Lent`] is dropped.
pub struct Pool<C> {
    idle: Mutex<(Vec<C>, usize)>,
    freed: Condvar,
    max: usize,
    make: Box<dyn Fn() -> Result<C> + Send + Sync>,
    healthy: fn(&mut C) -> bool,
}

impl<C> std::fmt::Debug for Pool<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("max", &self.max).finish()
    }
}

impl<C> Pool<C> {
    /// A pool of at most `max` connections made by `make`; a connection that is not
    /// `healthy` when given back is dropped (another is made when needed).
    pub fn new(
        max: usize,
        first: C,
        make: impl Fn() -> Result<C> + Send + Sync + 'static,
        healthy: fn(&mut C) -> bool,
    ) -> Pool<C> {
        Pool {
            idle: Mutex::new((vec![first], 1)),
            freed: Condvar::new(),
            max: max.max(1),
            make: Box::new(make),
            healthy,
        }
    }

    fn lock(&self) -> MutexGuard<'_, (Vec<C>, usize)> {
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A connection, waiting for one if all `max` are lent.
    ///
    /// # Errors
    /// A new connection could not be made.
    pub fn get(&self) -> Result<Lent<'_, C>> {
        let mut g = self.lock();
        loop {
            if let Some(c) = g.0.pop() {
                return Ok(Lent {
                    pool: self,
                    conn: Some(c),
                });
            }
            if g.1 < self.max {
                g.1 += 1;
                drop(g);
                return match (self.make)() {
                    Ok(c) => Ok(Lent {
                        pool: self,
                        conn: Some(c),
                    }),
                    Err(e) => {
                        self.lock().1 -= 1;
                        self.freed.notify_one();
                        Err(e)
                    }
                };
            }
            g = self
                .freed
                .wait(g)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// A connection lent by a [`Pool`].
pub struct Lent<'a, C> {
    pool: &'a Pool<C>,
    conn: Option<C>,
}

impl<C> std::ops::Deref for Lent<'_, C> {
    type Target = C;
    fn deref(&self) -> &C {
        self.conn.as_ref().unwrap_or_else(|| unreachable!())
    }
}

impl<C> std::ops::DerefMut for Lent<'_, C> {
    fn deref_mut(&mut self) -> &mut C {
        self.conn.as_mut().unwrap_or_else(|| unreachable!())
    }
}

impl<C> Drop for Lent<'_, C> {
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let ok = (self.pool.healthy)(&mut c);
            let mut g = self.pool.lock();
            if ok {
                g.0.push(c);
            } else {
                g.1 -= 1;
            }
            drop(g);
            self.pool.freed.notify_one();
        }
    }
}
