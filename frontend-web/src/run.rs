//! The command line of the `alembic-web` binary, for any table of games: [`run_games`].

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use alembic_games::GameEntry;
use clap::{CommandFactory, FromArgMatches};

use crate::games::Games;
use crate::{Config, Server};

/// Play Alembic in the browser: a server that runs the games and serves the page.
#[derive(clap::Parser, Debug)]
#[command(name = "alembic-web", version, about)]
struct Args {
    /// Address to listen on. The default serves this machine only; use 0.0.0.0:8080 to
    /// serve others.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Where saves, recordings, morgue files and scores go (created if missing).
    #[arg(long, value_name = "DIR", default_value = "alembic-web-data")]
    data_dir: PathBuf,
    /// Most games in progress at once.
    #[arg(long, default_value_t = 1000)]
    max_games: usize,
    /// Seconds without input after which a game is saved and stopped.
    #[arg(long, value_name = "SECS", default_value_t = 1800)]
    idle_timeout: u64,
    /// Seconds a game waits for its player's page to come back before it is saved and
    /// stopped.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    leave_grace: u64,
    /// Most websocket connections from one address at once.
    #[arg(long, default_value_t = 32)]
    max_conns_per_ip: usize,
    /// Replay viewers at once (spectators looking into a game's past, finished games
    /// replayed); more are refused with a message.
    #[arg(long, default_value_t = 32)]
    max_viewers: usize,
    /// Spectators looking into one game's past at once.
    #[arg(long, default_value_t = 4)]
    max_viewers_per_game: usize,
    /// Replay viewers computing at once (the others wait their turn): the cores replays
    /// may take from the games.
    #[arg(long, default_value_t = 1)]
    replay_workers: usize,
    /// Worker threads running the games and replay viewers (0: one per core).
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// Most games in progress started (or continued) from one address.
    #[arg(long, default_value_t = crate::server::MAX_GAMES_PER_IP)]
    max_games_per_ip: usize,
    /// Days an anonymous game (no account) not finished is kept untouched before it is
    /// deleted with its save and recording (0: kept for ever).
    #[arg(long, value_name = "DAYS", default_value_t = 7)]
    anon_expiry_days: u64,
    /// Registrations tried from one address in an hour; more are refused (429).
    #[arg(long, default_value_t = 10)]
    registrations_per_hour: usize,
    /// Most connections open at once (pages and websockets; keep it under `ulimit -n`).
    #[arg(long, default_value_t = 4000)]
    max_connections: usize,
    /// Most connections open at once from one address (trusted proxies aside).
    #[arg(long, default_value_t = 64)]
    max_sockets_per_ip: usize,
    /// Seconds a request's headers may take to arrive.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: u64,
    /// Seconds a request may take to arrive and be answered (a slow body: 408).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    body_timeout: u64,
    /// Seconds a connection may send nothing before it is closed (websockets are pinged
    /// every third of it).
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(3..))]
    conn_idle_timeout: u64,
    /// A reverse proxy (ADDR or ADDR/LEN; repeatable) whose `X-Forwarded-For` gives the
    /// client's address; from any other peer the header is ignored.
    #[arg(long, value_name = "ADDR[/LEN]", value_parser = crate::limits::parse_net)]
    trusted_proxy: Vec<(std::net::IpAddr, u8)>,
    /// A name this server answers to (repeatable; `games.example.org` or with its port):
    /// a request whose Host header names another is refused with 421. Unset: any.
    #[arg(long, value_name = "HOST")]
    allowed_host: Vec<String>,
    /// Letters only: do not offer the tile pictures.
    #[arg(long)]
    no_tiles: bool,
    /// The database for accounts, sessions and game ownership: `sqlite:PATH` (the default
    /// is `sqlite:DATA_DIR/alembic.db`) or `postgres://USER@HOST:PORT/DBNAME`.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// Mark the session cookie `Secure`: for a server reached over https (through a proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// This server's name among several sharing one PostgreSQL database (shown in the
    /// lobby; default: made at random once and kept in the data directory's `server-name`).
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// Seconds a server's hold on a game lasts unrenewed: when a server dies, the others may
    /// continue its games this long after.
    #[arg(long, value_name = "SECS", default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=3600))]
    lease_secs: u64,
    /// Copy the SQLite database (the `--db` or the data directory's) to the new file FILE,
    /// consistent even while a server uses it, and exit. PostgreSQL: use `pg_dump`.
    #[arg(long, value_name = "FILE")]
    backup: Option<PathBuf>,
    /// Offer the `crash` test game (panics on `!`), for the tests.
    #[arg(long, hide = true)]
    test_games: bool,
}

async fn stop_signal(program: &str) {
    let term = async {
        #[cfg(unix)]
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
            return;
        }
        std::future::pending::<()>().await;
    };
    tokio::select! {
        _ = term => eprintln!("{program}: SIGTERM: saving every game"),
        _ = tokio::signal::ctrl_c() => eprintln!("{program}: interrupted: saving every game"),
    }
}

/// Run the browser server over the games of `table` (those with a
/// [`host`](alembic_games::GameEntry::host)), with the command line of `alembic-web` (`--help`,
/// `--bind`, `--data-dir`, the database and the limits): parse it, serve until SIGTERM or
/// Ctrl-C, save every game and return the exit status. `program` names the binary in its
/// help and its messages. The `alembic-web` binary is this over [`alembic_games::GAMES`]; an
/// outside crate's own game runs in the browser in three lines:
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     alembic_web::run_games("my-game-web", alembic_games::GAMES) // or a table of your own
/// }
/// ```
#[must_use]
pub fn run_games(program: &'static str, table: &[GameEntry]) -> ExitCode {
    let games = Games::of(table);
    let command = Args::command()
        .name(program)
        .bin_name(program)
        .after_help(format!("Games: {}.", games.names()));
    let args = match Args::from_arg_matches(&command.get_matches()) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    if let Err(e) = games.check() {
        eprintln!("{program}: error: cannot offer these games: {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = std::fs::create_dir_all(&args.data_dir) {
        eprintln!(
            "{program}: error: cannot create {}: {e}",
            args.data_dir.display()
        );
        return ExitCode::FAILURE;
    }
    let data_dir = std::fs::canonicalize(&args.data_dir).unwrap_or(args.data_dir);
    let config = Config {
        data_dir,
        games,
        max_games: args.max_games,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        leave_grace: Duration::from_secs(args.leave_grace),
        max_conns_per_ip: args.max_conns_per_ip,
        test_games: args.test_games,
        tiles: !args.no_tiles,
        db: args.db,
        secure_cookies: args.secure_cookies,
        server_name: args.server_name,
        lease: Duration::from_secs(args.lease_secs),
        max_viewers: args.max_viewers,
        max_viewers_per_game: args.max_viewers_per_game,
        replay_workers: args.replay_workers,
        workers: args.workers,
        max_games_per_ip: args.max_games_per_ip,
        anon_expiry: (args.anon_expiry_days > 0)
            .then(|| Duration::from_secs(args.anon_expiry_days * 24 * 3600)),
        expire_every: Duration::from_secs(600),
        registrations_per_hour: args.registrations_per_hour,
        max_connections: args.max_connections,
        max_sockets_per_ip: args.max_sockets_per_ip,
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        conn_idle_timeout: Duration::from_secs(args.conn_idle_timeout),
        trusted_proxies: args.trusted_proxy,
        allowed_hosts: args.allowed_host,
    };
    if let Some(to) = &args.backup {
        let url = config.db.clone().unwrap_or_else(|| {
            format!(
                "sqlite:{}",
                config.data_dir.join(crate::server::DB_FILE).display()
            )
        });
        let done = crate::store::open(&url).and_then(|s| s.backup(to));
        return match done {
            Ok(()) => {
                println!("{program}: backed up {url} to {}", to.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{program}: error: cannot back up: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{program}: error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    rt.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(args.bind).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{program}: error: cannot listen on {}: {e}", args.bind);
                return ExitCode::FAILURE;
            }
        };
        let addr = listener.local_addr().unwrap_or(args.bind);
        let server = match Server::new(config) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{program}: error: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "{program}: serving http://{addr}/ (server {}, data in {}, database {})",
            server.name,
            server.config.data_dir.display(),
            server.store.kind()
        );
        match crate::serve(server, listener, stop_signal(program)).await {
            Ok(()) => {
                eprintln!("{program}: every game saved; stopped");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{program}: error: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
