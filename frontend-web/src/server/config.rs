//! How the server runs: [`Config`], the command line's flags, and their defaults.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::{MAX_GAMES_PER_IP, Token};

/// How the server runs (the command line's flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// Where saves, recordings, morgues and scores go.
    pub data_dir: PathBuf,
    /// Most games in progress at once.
    pub max_games: usize,
    /// A game whose player sends nothing for this long is saved and stopped.
    pub idle_timeout: Duration,
    /// A game whose player's page is gone for this long is saved and stopped (a reload or a
    /// dropped connection comes back well within it).
    pub leave_grace: Duration,
    /// Most websocket connections from one address at once.
    pub max_conns_per_ip: usize,
    /// The games it offers: `Games::of(table)`, the entries of a table of games that have a
    /// [`host`](alembic_games::GameEntry::host), in its order. [`alembic_games::GAMES`]'s by
    /// default; an outside crate's own table runs the same way ([`crate::run_games`]).
    pub games: crate::games::Games,
    /// Offer the `crash` test game (it panics on `!`).
    pub test_games: bool,
    /// Draw tiles as pictures (the page has the atlas); `false`: letters only.
    pub tiles: bool,
    /// The database (`sqlite:PATH` or `postgres://…`); `None`: `sqlite:` the data
    /// directory's [`DB_FILE`].
    pub db: Option<String>,
    /// Mark the session cookie `Secure` (the server is reached over https, through a proxy).
    pub secure_cookies: bool,
    /// This server's name among the servers sharing a database (`None`: a random one).
    pub server_name: Option<String>,
    /// How long a server's hold on a game lasts without being renewed: when a server dies,
    /// another may take its games over this long after its last renewal.
    pub lease: Duration,
    /// Replay viewers (spectators looking into a game's past, finished games replayed) at
    /// once, in all; more are refused with a message.
    pub max_viewers: usize,
    /// Spectators looking into one game's past at once.
    pub max_viewers_per_game: usize,
    /// Replay viewers computing at once (stepping, jumping, loading): the others wait their
    /// turn, so replays never take more than this many cores from the games.
    pub replay_workers: usize,
    /// Worker threads running the games and the replay viewers (`0`: one per core): every
    /// game's commands, ticks and store answers run on them, one at a time per game.
    pub workers: usize,
    /// Most games in progress started (or continued) from one address.
    pub max_games_per_ip: usize,
    /// An anonymous game (no account) not finished and untouched this long is deleted,
    /// with its save and recording; `None`: kept for ever.
    pub anon_expiry: Option<Duration>,
    /// How often the expired anonymous games are looked for.
    pub expire_every: Duration,
    /// Registrations tried from one address in an hour.
    pub registrations_per_hour: usize,
    /// Most connections open at once (pages and websockets); more are closed at once.
    pub max_connections: usize,
    /// Most connections open at once from one address (a trusted proxy's aside).
    pub max_sockets_per_ip: usize,
    /// A request's headers must all arrive within this.
    pub header_timeout: Duration,
    /// A request must be answered within this (its body sent slowly: 408).
    pub body_timeout: Duration,
    /// A connection from which nothing arrives for this long is closed (websockets are
    /// pinged every third of it; browsers answer).
    pub conn_idle_timeout: Duration,
    /// The reverse proxies whose `X-Forwarded-For` is believed: addresses with a prefix
    /// length (`10.0.0.0/8`, `127.0.0.1/32`).
    pub trusted_proxies: Vec<(IpAddr, u8)>,
    /// The names this server answers to (`games.example.org`, or with a port); empty: any.
    /// A request whose `Host` names another is refused (421), so a page on another site
    /// cannot reach this server through a name it controls (DNS rebinding).
    pub allowed_hosts: Vec<String>,
}

/// How long an anonymous game not finished is kept untouched by default: a week.
pub const ANON_EXPIRY: Duration = Duration::from_secs(7 * 24 * 3600);

/// Where stored recordings are written for the replay viewer, in the data directory.
pub const CACHE_DIR: &str = "cache";

/// The file in the data directory holding the server's default name.
pub const NAME_FILE: &str = "server-name";

/// The name of the server on `data_dir` when none is given: made once at random and kept in
/// the data directory, so a server restarted there (after a crash, `kill -9`) is the same
/// server and takes its games back at once, without waiting for their leases to run out.
pub(super) fn default_name(data_dir: &std::path::Path) -> Result<String, String> {
    let path = data_dir.join(NAME_FILE);
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    if let Ok(bytes) = alembic_games::storage::read_bounded(&path, 64) {
        let n = String::from_utf8_lossy(&bytes).trim().to_owned();
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Ok(n);
        }
    }
    let n: String = Token::random()
        .map_err(|e| format!("no randomness: {e}"))?
        .as_str()
        .chars()
        .take(8)
        .collect();
    alembic_games::storage::write_atomic(&path, n.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(n)
}

/// The default database's file, in the data directory.
pub const DB_FILE: &str = "alembic.db";

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("alembic-web-data"),
            max_games: 1000,
            idle_timeout: Duration::from_secs(30 * 60),
            leave_grace: Duration::from_secs(60),
            max_conns_per_ip: 32,
            games: crate::games::Games::default(),
            test_games: false,
            tiles: true,
            db: None,
            secure_cookies: false,
            server_name: None,
            lease: Duration::from_secs(15),
            max_viewers: 32,
            max_viewers_per_game: 4,
            replay_workers: 1,
            workers: 0,
            max_games_per_ip: MAX_GAMES_PER_IP,
            anon_expiry: Some(ANON_EXPIRY),
            expire_every: Duration::from_secs(600),
            registrations_per_hour: 10,
            max_connections: 4000,
            max_sockets_per_ip: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            conn_idle_timeout: Duration::from_secs(120),
            trusted_proxies: Vec::new(),
            allowed_hosts: Vec::new(),
        }
    }
}
