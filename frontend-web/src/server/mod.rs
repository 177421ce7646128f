//! The server's state: the games in progress and their owners, the games saved and
//! stopped, connections per address; the game threads; idling out; stopping.
//!
//! A fixed pool of worker threads ([`Config::workers`], one per core by default) runs every
//! game and replay viewer: each is a task on one worker, run one event at a time (a command
//! from its page, its store write committed, a tick). The websocket tasks (tokio) only
//! forward inputs into a game's queue and frames out of its [`Hub`]. A game costs no CPU
//! while its player thinks (nothing is queued), its worker never waits for the store (the
//! group-commit writer answers), and a panic stays inside it ([`std::panic::catch_unwind`]):
//! that game is offered [`alembic_ui::Input::Quit`] to save, its viewers are told, and every
//! other game goes on.

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use alembic_ui::TileSupport;
use tokio::sync::{oneshot, watch};

use crate::accounts::Csrf;
use crate::frontend::{Command, Hub};
use crate::games::{self, GameKind, Progress};
use crate::limits::{ViewerBudget, WorkGate};
use crate::store::{
    AccountId, GameFilter, GameRecord, GameStatus, Lease, NewGame, Store, StoreError, token_hash,
};
use crate::sync;

mod config;
mod game;
mod lifecycle;
mod pool;
mod tracked;
mod viewers;

use config::default_name;
pub use config::{ANON_EXPIRY, CACHE_DIR, Config, DB_FILE, NAME_FILE};
pub use viewers::Session;

/// A browser's token (the `alembic_token` cookie): 64 hex digits, 32 random and 32 of a
/// keyed hash of them ([`Server::issue_token`]; only those are accepted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Token(String);

impl Token {
    /// A new random token.
    ///
    /// # Errors
    /// The OS has no randomness to give.
    pub fn random() -> Result<Token, getrandom::Error> {
        let mut b = [0u8; 16];
        getrandom::fill(&mut b)?;
        Ok(Token(b.iter().map(|x| format!("{x:02x}")).collect()))
    }

    /// A token as a cookie holds it, if well formed (whether this server issued it is
    /// [`Server::token_ok`]).
    #[must_use]
    pub fn parse(s: &str) -> Option<Token> {
        (s.len() == 64
            && s.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()))
        .then(|| Token(s.to_owned()))
    }

    /// The hex text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What changes while a game runs, for the lobby and the reaper.
#[derive(Debug)]
pub struct LiveState {
    /// Depth and turn.
    pub progress: Progress,
    /// When the player last sent anything.
    pub last_input: Instant,
    /// When the player's page went away, if it is away.
    pub left_at: Option<Instant>,
    /// Spectators watching.
    pub spectators: usize,
    /// Told to save and stop already.
    pub quitting: bool,
    /// Holding a move its journal or the store cannot take yet (not reading its queue).
    pub held: bool,
    /// Fired to close the player's current connection, saying why (another one took over,
    /// the account logged out everywhere).
    pub kick: Option<oneshot::Sender<&'static str>>,
    /// Which player connection is the current one (each attach counts one up).
    pub generation: u64,
}

/// What a player's connection is told when another connection takes its game over.
pub const OTHER_TAB: &str = "This game was opened in another tab or window.";
/// What a player's connection is told when its account logs out everywhere.
pub const LOGGED_OUT: &str =
    "Your account logged out everywhere: this connection to its game is closed.";

/// Most games in progress started (or continued) from one address, by default.
pub const MAX_GAMES_PER_IP: usize = 8;

/// Most commands waiting for a game's worker; a page that sends faster than its game plays
/// is told to slow down rather than queueing without bound.
pub const INPUT_QUEUE: usize = 128;

/// A game in progress.
#[derive(Debug)]
pub struct LiveGame {
    /// Its id (the lobby's and `/watch/ID`'s).
    pub id: u64,
    /// Which game.
    pub kind: GameKind,
    /// The browser it belongs to.
    pub owner: Token,
    /// The account it belongs to, if it was started logged in or has been claimed.
    account: Mutex<Option<AccountId>>,
    /// The name the player gave.
    pub player: String,
    /// Its save file (the recording sits beside it).
    pub save: PathBuf,
    /// The seed it started from.
    pub seed: u64,
    /// The address that started (or continued) it here.
    pub from: IpAddr,
    /// When this server started (or continued) it.
    pub started: std::time::SystemTime,
    /// Its frames.
    pub hub: Arc<Hub>,
    /// Whole states of it at its recording's checkpoints, kept as it is played: a
    /// spectator's look into its past seeks from the nearest one.
    pub past: Arc<alembic_games::playback::KeptStates>,
    tx: Mutex<SyncSender<Command>>,
    /// Its task on the worker pool (set once it is started there).
    worker: Mutex<Option<pool::Handle>>,
    /// Another server holds it now (its progress could not be written): it stops at its
    /// next move.
    taken: std::sync::atomic::AtomicBool,
    state: Mutex<LiveState>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LiveGame {
    /// Send the game a command (ignored once the game has ended). `false`: its
    /// queue is full ([`INPUT_QUEUE`]), the command was dropped.
    pub fn send(&self, cmd: Command) -> bool {
        let sent = lock(&self.tx).try_send(cmd);
        if sent.is_ok() {
            self.wake();
        }
        !matches!(sent, Err(TrySendError::Full(_)))
    }

    /// Tell its worker a command waits.
    fn wake(&self) {
        if let Some(w) = lock(&self.worker).as_ref() {
            w.wake();
        }
    }

    /// Send a command, waiting for room in the queue (for [`Server::stop`]).
    fn send_waiting(&self, cmd: Command) {
        let tx = lock(&self.tx).clone();
        let _ = tx.send(cmd);
        self.wake();
    }

    /// Whether another server took it over (as its progress writer heard).
    fn taken(&self) -> bool {
        self.taken.load(Ordering::Relaxed)
    }

    /// The changing state.
    pub fn state(&self) -> MutexGuard<'_, LiveState> {
        lock(&self.state)
    }

    /// The account it belongs to, if any.
    #[must_use]
    pub fn account(&self) -> Option<AccountId> {
        *lock(&self.account)
    }
}

#[derive(Debug, Default)]
struct Registry {
    live: HashMap<u64, Arc<LiveGame>>,
    /// Owners whose game is being made (outside the lock: making a game takes a while).
    starting: std::collections::HashSet<Token>,
    by_owner: HashMap<Token, u64>,
    conns: HashMap<IpAddr, usize>,
    /// Games in progress and being made, by the address that started them.
    games_by_ip: HashMap<IpAddr, usize>,
}

/// One lobby row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameRow {
    /// Id.
    pub id: u64,
    /// Game name.
    pub game: &'static str,
    /// Player name.
    pub player: String,
    /// Depth, if in a game.
    pub depth: Option<i32>,
    /// Turn.
    pub turn: u64,
    /// Seconds since the player's last input.
    pub idle_secs: u64,
    /// Spectators.
    pub spectators: usize,
    /// Whether the player's page is connected.
    pub connected: bool,
    /// The server running it (this one, or another on the same database).
    pub server: String,
    /// Whether this server runs it (it can be watched here).
    pub here: bool,
}

/// The whole server state, shared by every task.
#[derive(Debug)]
pub struct Server {
    /// The configuration.
    pub config: Config,
    /// Accounts, sessions, log-in failures, game ownership (blocking: call it from
    /// blocking threads).
    pub store: Arc<dyn Store>,
    /// The games' moves into [`Server::store`], many games' in one transaction.
    pub commits: Arc<crate::store::group::GroupCommit>,
    /// The forms' CSRF tokens.
    pub csrf: Csrf,
    /// This server's name among those sharing the database.
    pub name: String,
    /// The games it offers ([`Config::games`], checked).
    pub games: games::Games,
    reg: Mutex<Registry>,
    last_renewal: Mutex<Instant>,
    stopping: watch::Sender<bool>,
    /// Inputs received from players, over all games (for the bytes-per-move figure).
    pub inputs: AtomicU64,
    /// Replay viewers' places.
    pub viewers: Arc<ViewerBudget>,
    /// The workers running the games and viewers.
    pool: pool::Pool,
    /// The games' progress into the store, for the lobbies.
    progress: game::ProgressWriter,
    /// Password checks (log-in, delete-account), counted before they are made.
    pub logins: crate::accounts::LoginGate,
    /// Registrations tried, per address, in the last hour.
    pub registrations: crate::limits::Window,
}

/// Why a player could not be given a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttachError {
    /// No game has that id.
    #[error("there is no game {0}")]
    Unknown(u64),
    /// Someone else's game.
    #[error("game {0} is not yours; you can watch it at /watch/{0}")]
    NotYours(u64),
    /// Too many games.
    #[error("the server is full ({0} games in progress); try again later")]
    Full(usize),
    /// Too many games from the player's address.
    #[error(
        "too many games in progress from your address ({0}); finish or leave one (it is saved a minute after), then try again"
    )]
    FullForAddress(usize),
    /// No such game on this server: the name asked for, and the games it offers.
    #[error("unknown game {0:?}; this server offers {1}")]
    UnknownKind(String, String),
    /// The server is stopping.
    #[error("the server is stopping")]
    Stopping,
    /// This browser's game is being made by another connection.
    #[error("your game is starting in another tab; try again in a moment")]
    Starting,
    /// The game could not start.
    #[error("the game could not start: {0}")]
    Start(String),
    /// Another server holds the game (it is being played there, or that server stopped
    /// within the lease and its hold has not run out yet).
    #[error(
        "game {0} is running on another server ({1}); if that server stopped, it can be continued here within a minute"
    )]
    Elsewhere(u64, String),
    /// The database cannot be reached.
    #[error("the game store is unavailable ({0}); your games are safe: try again in a minute")]
    Store(String),
}

impl From<StoreError> for AttachError {
    fn from(e: StoreError) -> Self {
        AttachError::Store(e.to_string())
    }
}

/// Holds one connection's place in its address's count; gives it back when dropped.
#[derive(Debug)]
pub struct ConnGuard {
    server: Arc<Server>,
    ip: IpAddr,
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut reg = self.server.reg();
        if let Some(n) = reg.conns.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                reg.conns.remove(&self.ip);
            }
        }
    }
}

/// The initial grid before the page says its size.
pub const DEFAULT_SIZE: (u16, u16) = (100, 36);

impl Server {
    /// A server with `config`, its database opened (and migrated); nothing runs until
    /// games start.
    ///
    /// # Errors
    /// The database could not be opened (a message for the operator).
    pub fn new(config: Config) -> Result<Arc<Server>, String> {
        config
            .games
            .check()
            .map_err(|e| format!("cannot offer these games: {e}"))?;
        let games = config.games.clone();
        let url = config
            .db
            .clone()
            .unwrap_or_else(|| format!("sqlite:{}", config.data_dir.join(DB_FILE).display()));
        let store: Arc<dyn Store> = Arc::from(
            crate::store::open(&url).map_err(|e| format!("cannot open the database: {e}"))?,
        );
        // One CSRF secret for every server on the database: a form shown by one is accepted
        // by another.
        let fresh = Csrf::new().map_err(|e| format!("no randomness: {e}"))?;
        // On a thread of its own: this may be called on a thread that drives async tasks
        // (inside `#[tokio::main]`), where the PostgreSQL client must not block.
        let secret = std::thread::scope(|sc| {
            sc.spawn(|| store.setting_or_insert("csrf_secret", &fresh.secret_hex()))
                .join()
                .unwrap_or_else(|_| Err(StoreError::Db("reading the settings panicked".to_owned())))
        })
        .map_err(|e| format!("cannot read the database: {e}"))?;
        let csrf = Csrf::from_hex(&secret)
            .ok_or_else(|| "the database's csrf_secret setting is damaged".to_owned())?;
        let name = match &config.server_name {
            Some(n) => n.clone(),
            None => default_name(&config.data_dir)?,
        };
        let (stopping, _) = watch::channel(false);
        let commits = Arc::new(
            crate::store::group::GroupCommit::start(Arc::clone(&store), name.clone())
                .map_err(|e| format!("cannot start the store's writer: {e}"))?,
        );
        let replay_work = Arc::new(WorkGate::new(config.replay_workers));
        let workers = match config.workers {
            0 => std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            n => n,
        };
        let pool = pool::Pool::new(workers, replay_work)
            .map_err(|e| format!("cannot start the workers: {e}"))?;
        let progress = game::ProgressWriter::start(Arc::clone(&store), name.clone())
            .map_err(|e| format!("cannot start the progress writer: {e}"))?;
        Ok(Arc::new(Server {
            pool,
            progress,
            commits,
            store,
            csrf,
            name,
            games,
            reg: Mutex::new(Registry::default()),
            last_renewal: Mutex::new(Instant::now()),
            stopping,
            inputs: AtomicU64::new(0),
            viewers: Arc::new(ViewerBudget::new(
                config.max_viewers,
                config.max_viewers_per_game,
            )),
            logins: crate::accounts::LoginGate::default(),
            registrations: crate::limits::Window::new(Duration::from_secs(3600)),
            config,
        }))
    }

    fn lease_until(&self, now: i64) -> i64 {
        now + i64::try_from(self.config.lease.as_secs().max(1)).unwrap_or(i64::MAX / 2)
    }

    fn reg(&self) -> MutexGuard<'_, Registry> {
        lock(&self.reg)
    }

    fn tiles(&self) -> (TileSupport, Option<bool>) {
        if self.config.tiles {
            (TileSupport::Double, Some(false))
        } else {
            (TileSupport::None, None)
        }
    }

    /// Whether the server is stopping, and a receiver that says when it starts to.
    #[must_use]
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// A new browser token, issued by this server ([`Server::token_ok`] accepts it here
    /// and on every server sharing the database).
    ///
    /// # Errors
    /// The OS has no randomness to give.
    pub fn issue_token(&self) -> Result<Token, getrandom::Error> {
        let random = Token::random()?;
        Ok(self.token_from(&random.as_str()[..32]))
    }

    /// The token this server issues for `random` (32 hex digits): for tests and tools that
    /// need a browser's token again.
    #[must_use]
    pub fn token_from(&self, random: &str) -> Token {
        Token(self.csrf.browser_token(random))
    }

    /// Whether `t` is a token this server (or one sharing its database) issued.
    #[must_use]
    pub fn token_ok(&self, t: &Token) -> bool {
        self.csrf.browser_token_ok(t.as_str())
    }

    /// Whether `ip` is one of [`Config::trusted_proxies`].
    #[must_use]
    pub fn trusted_proxy(&self, ip: IpAddr) -> bool {
        self.config
            .trusted_proxies
            .iter()
            .any(|(net, len)| crate::limits::in_net(ip, *net, *len))
    }

    /// Count a new connection from `ip`.
    ///
    /// # Errors
    /// A message for the client when `ip` already has [`Config::max_conns_per_ip`].
    pub fn connect(self: &Arc<Self>, ip: IpAddr) -> Result<ConnGuard, String> {
        let mut reg = self.reg();
        let n = reg.conns.entry(ip).or_insert(0);
        if *n >= self.config.max_conns_per_ip {
            return Err(format!(
                "too many connections from your address ({} at once); close some tabs",
                self.config.max_conns_per_ip
            ));
        }
        *n += 1;
        Ok(ConnGuard {
            server: Arc::clone(self),
            ip,
        })
    }

    /// The game in progress `id`.
    #[must_use]
    pub fn live(&self, id: u64) -> Option<Arc<LiveGame>> {
        self.reg().live.get(&id).cloned()
    }

    /// The player `owner`'s game (or `account`'s), asked from address `from`: `id` if given
    /// (theirs, live or saved, on this server or, its hold run out, another's), else their
    /// game in progress here, else their newest game not finished in the store (unless
    /// `fresh`: a new game; the other stays saved), else a new game of `kind` for `player`
    /// (at most [`Config::max_games_per_ip`] in progress from `from`). Returns the game, a receiver
    /// that fires when another connection takes it over, and this connection's generation
    /// (for [`Server::player_left`]). Blocking (the store).
    ///
    /// # Errors
    /// [`AttachError`].
    pub fn attach(
        self: &Arc<Self>,
        (from, owner): (IpAddr, &Token),
        account: Option<AccountId>,
        id: Option<u64>,
        kind: &str,
        player: &str,
        fresh: bool,
    ) -> Result<(Arc<LiveGame>, oneshot::Receiver<&'static str>, u64), AttachError> {
        if *self.stopping.borrow() {
            return Err(AttachError::Stopping);
        }
        let mine =
            |g: &LiveGame| g.owner == *owner || (account.is_some() && g.account() == account);
        // A game this server runs: attach at once.
        let here = {
            let reg = self.reg();
            match id {
                Some(id) => match reg.live.get(&id) {
                    Some(g) if mine(g) => Some(Arc::clone(g)),
                    Some(_) => return Err(AttachError::NotYours(id)),
                    None => None,
                },
                None => reg
                    .by_owner
                    .get(owner)
                    .and_then(|id| reg.live.get(id))
                    .cloned(),
            }
        };
        let game = match here {
            Some(g) => g,
            None => {
                let owner_hash = token_hash(owner.as_str());
                // Which stored game, if any.
                let stored = match id {
                    Some(id) => {
                        let rec = self
                            .store
                            .game(id)?
                            .filter(|r| r.status != GameStatus::Finished)
                            .ok_or(AttachError::Unknown(id))?;
                        if rec.owner_token != owner_hash
                            && !(account.is_some() && rec.account == account)
                        {
                            return Err(AttachError::NotYours(id));
                        }
                        Some(rec)
                    }
                    None if fresh => None,
                    None => self.store.game_to_continue(&owner_hash, account)?,
                };
                // The account's game may run here, started from another browser.
                if let Some(g) = stored.as_ref().and_then(|r| self.live(r.id)) {
                    g
                } else {
                    self.start_game(from, owner, account, stored, kind, player)?
                }
            }
        };
        let (kick_tx, kick_rx) = oneshot::channel();
        let generation = {
            let mut st = game.state();
            if let Some(old) = st.kick.replace(kick_tx) {
                let _ = old.send(OTHER_TAB);
            }
            st.left_at = None;
            st.last_input = Instant::now();
            st.generation += 1;
            st.generation
        };
        Ok((game, kick_rx, generation))
    }

    /// Continue `stored` (its hold taken, its files written from the store) or start a new
    /// game, on the worker pool, and register it.
    fn start_game(
        self: &Arc<Self>,
        from: IpAddr,
        owner: &Token,
        account: Option<AccountId>,
        stored: Option<GameRecord>,
        kind: &str,
        player: &str,
    ) -> Result<Arc<LiveGame>, AttachError> {
        {
            let mut reg = self.reg();
            if reg.starting.contains(owner) {
                return Err(AttachError::Starting);
            }
            let busy = reg.live.len() + reg.starting.len();
            if busy >= self.config.max_games {
                return Err(AttachError::Full(busy));
            }
            let mine = reg.games_by_ip.entry(from).or_insert(0);
            if *mine >= self.config.max_games_per_ip {
                return Err(AttachError::FullForAddress(*mine));
            }
            *mine += 1;
            reg.starting.insert(owner.clone());
        }
        // Making the game (the store, a new level, loading a save) happens with the registry
        // unlocked, so the lobby and the other players never wait for it.
        let made = self.make_game(from, owner, account, stored, kind, player);
        let mut reg = self.reg();
        reg.starting.remove(owner);
        if made.is_err() {
            Self::ungame(&mut reg, from);
        }
        let g = made?;
        reg.live.insert(g.id, Arc::clone(&g));
        reg.by_owner.insert(owner.clone(), g.id);
        if *self.stopping.borrow() {
            // Stopping began while it was made: it saves and ends with the others.
            g.state().quitting = true;
            g.send(Command::Quit);
        }
        Ok(g)
    }

    /// One game fewer from `from`.
    fn ungame(reg: &mut Registry, from: IpAddr) {
        if let Some(n) = reg.games_by_ip.get_mut(&from) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                reg.games_by_ip.remove(&from);
            }
        }
    }

    fn make_game(
        self: &Arc<Self>,
        from: IpAddr,
        owner: &Token,
        account: Option<AccountId>,
        stored: Option<GameRecord>,
        kind: &str,
        player: &str,
    ) -> Result<Arc<LiveGame>, AttachError> {
        let now = crate::accounts::now();
        let until = self.lease_until(now);
        match stored {
            Some(rec) => {
                let kind = self
                    .games
                    .from_name(&rec.kind, self.config.test_games)
                    .ok_or_else(|| {
                        AttachError::UnknownKind(rec.kind.clone(), self.games.names())
                    })?;
                match self.store.take_lease(rec.id, &self.name, now, until)? {
                    Lease::Taken => {}
                    Lease::HeldBy(other) => return Err(AttachError::Elsewhere(rec.id, other)),
                    Lease::Gone => return Err(AttachError::Unknown(rec.id)),
                }
                let save = games::save_path(&self.config.data_dir, kind, rec.id);
                let spawned = sync::materialize(self.store.as_ref(), rec.id, &save)
                    .map_err(AttachError::Start)
                    .and_then(|()| {
                        self.spawn_game(
                            (rec.id, from),
                            kind,
                            owner.clone(),
                            rec.player,
                            Some(rec.seed),
                        )
                    });
                let g = match spawned {
                    Ok(x) => x,
                    Err(e) => {
                        // Not started: give the hold back, the game stays saved.
                        let _ = self.store.set_game(
                            rec.id,
                            &self.name,
                            GameStatus::Saved,
                            rec.depth,
                            rec.turn,
                            now,
                        );
                        return Err(e);
                    }
                };
                if let Some(a) = rec.account {
                    *lock(&g.account) = Some(a);
                }
                Ok(g)
            }
            None => {
                let k = self
                    .games
                    .from_name(kind, self.config.test_games)
                    .ok_or_else(|| AttachError::UnknownKind(kind.to_owned(), self.games.names()))?;
                let seed = games::fresh_seed(now.unsigned_abs());
                let owner_hash = token_hash(owner.as_str());
                let id = self.store.create_game(&NewGame {
                    kind: k.name(),
                    player,
                    seed,
                    owner_token: &owner_hash,
                    server: &self.name,
                    now,
                    lease_until: until,
                })?;
                // Files of that name from an earlier database or run are not this game's.
                let save = games::save_path(&self.config.data_dir, k, id);
                sync::materialize(self.store.as_ref(), id, &save).map_err(AttachError::Start)?;
                let made =
                    self.spawn_game((id, from), k, owner.clone(), player.to_owned(), Some(seed));
                let g = match made {
                    Ok(x) => x,
                    Err(e) => {
                        let _ =
                            self.store
                                .set_game(id, &self.name, GameStatus::Finished, None, 0, now);
                        return Err(e);
                    }
                };
                // A game started logged in is the account's too (a failure to record it
                // leaves it the browser's, as an anonymous game).
                if let Some(a) = account
                    && self.store.claim_game(id, a, now).unwrap_or(false)
                {
                    *lock(&g.account) = Some(a);
                }
                Ok(g)
            }
        }
    }

    /// The finished games, newest first, at most `n`. Blocking (the store).
    #[must_use]
    pub fn finished(&self, n: u32) -> Vec<GameRecord> {
        self.store
            .games(GameFilter::Finished, n)
            .unwrap_or_default()
    }

    /// The player's connection of `generation` went away; if no newer one took over, the
    /// game waits [`Config::leave_grace`] for its player.
    pub fn player_left(&self, g: &LiveGame, generation: u64) {
        let mut st = g.state();
        if st.generation == generation {
            st.left_at = Some(Instant::now());
        }
    }

    /// Pass one input from a player to its game (and reset its idle clock). `false`: the
    /// game's queue is full and the input was dropped.
    pub fn player_input(&self, g: &LiveGame, cmd: Command) -> bool {
        self.inputs.fetch_add(1, Ordering::Relaxed);
        g.state().last_input = Instant::now();
        g.send(cmd)
    }

    /// Every game in progress on this server (newest first).
    #[must_use]
    pub fn rows(&self) -> Vec<GameRow> {
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        let mut rows: Vec<GameRow> = games
            .iter()
            .map(|g| {
                let st = g.state();
                GameRow {
                    id: g.id,
                    game: g.kind.name(),
                    player: g.player.clone(),
                    depth: st.progress.depth,
                    turn: st.progress.turn,
                    idle_secs: st.last_input.elapsed().as_secs(),
                    spectators: st.spectators,
                    connected: st.left_at.is_none(),
                    server: self.name.clone(),
                    here: true,
                }
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        rows
    }

    /// Every game in progress on every server sharing the database, for the lobby (newest
    /// first): this server's as [`Server::rows`], the others' as the store last heard.
    /// Blocking (the store).
    #[must_use]
    pub fn all_rows(&self) -> Vec<GameRow> {
        let mut rows = self.rows();
        let now = crate::accounts::now();
        let others = self
            .store
            .games(GameFilter::Live(now), 500)
            .unwrap_or_default();
        for r in others {
            if rows.iter().any(|x| x.id == r.id) || r.server.as_deref() == Some(&self.name) {
                continue;
            }
            let Some(kind) = self.games.from_name(&r.kind, true) else {
                continue;
            };
            rows.push(GameRow {
                id: r.id,
                game: kind.name(),
                player: r.player,
                depth: r.depth,
                turn: r.turn,
                idle_secs: u64::try_from(now - r.updated).unwrap_or(0),
                spectators: 0,
                connected: true,
                server: r.server.unwrap_or_default(),
                here: false,
            });
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        rows
    }

    /// The game `owner` has in progress here or not finished in the store, if any: (id,
    /// game, in progress here). Blocking (the store).
    #[must_use]
    pub fn game_of(&self, owner: &Token) -> Option<(u64, &'static str, bool)> {
        {
            let reg = self.reg();
            if let Some(g) = reg.by_owner.get(owner).and_then(|id| reg.live.get(id)) {
                return Some((g.id, g.kind.name(), true));
            }
        }
        let rec = self
            .store
            .game_to_continue(&token_hash(owner.as_str()), None)
            .ok()
            .flatten()?;
        self.games
            .from_name(&rec.kind, true)
            .map(|k| (rec.id, k.name(), false))
    }

    /// Claim the game this browser (`owner`) started anonymously, live or saved, for
    /// `account`: from now on the account may play it from any browser. Blocking (the store).
    /// `Ok(None)`: the browser has no game.
    ///
    /// # Errors
    /// [`crate::store::StoreError::NotOwner`] when another account has it already, or the
    /// store failed.
    pub fn claim(
        &self,
        owner: &Token,
        account: AccountId,
    ) -> Result<Option<u64>, crate::store::StoreError> {
        let Some((id, _, _)) = self.game_of(owner) else {
            return Ok(None);
        };
        if !self.store.claim_game(id, account, crate::accounts::now())? {
            return Err(crate::store::StoreError::NotOwner(id));
        }
        if let Some(g) = self.live(id) {
            *lock(&g.account) = Some(account);
        }
        Ok(Some(id))
    }

    /// The recording of finished game `id`, written from the store into the data
    /// directory's `cache/` for the replay viewer, and which game it is. `None`: no such
    /// finished game, or no recording. Blocking (the store).
    #[must_use]
    pub fn stored_recording(&self, id: u64) -> Option<(PathBuf, GameKind)> {
        let g = self
            .store
            .game(id)
            .ok()
            .flatten()
            .filter(|g| g.status == GameStatus::Finished)?;
        let kind = self.games.from_name(&g.kind, false)?;
        let lines = self.store.recording(id).ok()?;
        if lines.is_empty() {
            return None;
        }
        let dir = self.config.data_dir.join(CACHE_DIR);
        std::fs::create_dir_all(&dir).ok()?;
        let path = dir.join(format!("{}-game{id}.replay", kind.name()));
        let mut text = lines.join("\n");
        text.push('\n');
        alembic_games::storage::write_atomic(&path, text.as_bytes()).ok()?;
        Some((path, kind))
    }

    /// Delete `account` and all its games' data, in the store and this server's files.
    /// `Ok(Err(why))`: refused, because one of its games is being played (it is saved when
    /// its player leaves; then it can go). Blocking (the store).
    ///
    /// # Errors
    /// The store failed (nothing was deleted).
    pub fn delete_account(&self, account: AccountId) -> Result<Result<u64, String>, StoreError> {
        let now = crate::accounts::now();
        let games = self.store.games(GameFilter::Account(account), 100_000)?;
        if let Some(g) = games
            .iter()
            .find(|g| g.status == GameStatus::Live && g.lease_until.is_some_and(|t| t >= now))
        {
            return Ok(Err(format!(
                "Your {} game {} is being played: leave it first (it is saved), then delete.",
                g.kind, g.id
            )));
        }
        let n = self.store.delete_account(account)?;
        for g in &games {
            if let Some(kind) = self.games.from_name(&g.kind, true) {
                let save = games::save_path(&self.config.data_dir, kind, g.id);
                let _ = std::fs::remove_file(alembic_games::record::beside(&save));
                let _ = std::fs::remove_file(&save);
                let _ = std::fs::remove_file(self.config.data_dir.join(CACHE_DIR).join(format!(
                    "{}-game{}.replay",
                    kind.name(),
                    g.id
                )));
            }
        }
        Ok(Ok(n))
    }

    /// Games in progress.
    #[must_use]
    pub fn live_count(&self) -> usize {
        self.reg().live.len()
    }

    /// Frames and bytes sent by every game in progress (compressed, counted once per game
    /// however many watch).
    #[must_use]
    pub fn frames_sent(&self) -> (u64, u64) {
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        games.iter().fold((0, 0), |(f, b), g| {
            let (gf, gb) = g.hub.sent();
            (f + gf, b + gb)
        })
    }
}
