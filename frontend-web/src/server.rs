//! The server's state: the games in progress and their owners, the games saved and
//! stopped, connections per address; the game threads; idling out; stopping.
//!
//! One blocking OS thread per game runs [`alembic_ui::run`] with a [`WebFrontend`]; the
//! websocket tasks (tokio) only forward inputs into its channel and frames out of its
//! [`Hub`]. A game's thread costs no CPU while its player thinks (it blocks on the channel),
//! and a panic stays inside it ([`std::panic::catch_unwind`]): that game is offered
//! [`Input::Quit`] to save, its viewers are told, and every other game goes on.

use std::collections::HashMap;
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use alembic_ui::{App, Control, Frame, Input, TileSupport};
use tokio::sync::{oneshot, watch};

use crate::accounts::Csrf;
use crate::frontend::{Command, Hub, WebFrontend};
use crate::games::{self, GameKind, Progress, WebApp};
use crate::store::{AccountId, Store};

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
    /// Offer the `crash` test game (it panics on `!`).
    pub test_games: bool,
    /// Draw tiles as pictures (the page has the atlas); `false`: letters only.
    pub tiles: bool,
    /// The database (`sqlite:PATH` or `postgres://…`); `None`: `sqlite:` the data
    /// directory's [`DB_FILE`].
    pub db: Option<String>,
    /// Mark the session cookie `Secure` (the server is reached over https, through a proxy).
    pub secure_cookies: bool,
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
            test_games: false,
            tiles: true,
            db: None,
            secure_cookies: false,
        }
    }
}

/// A browser's random token (the `alembic_token` cookie): 32 hex digits.
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

    /// A token as a cookie holds it, if well formed.
    #[must_use]
    pub fn parse(s: &str) -> Option<Token> {
        (s.len() == 32
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
    /// Fired to close the player's current connection when another one takes over.
    pub kick: Option<oneshot::Sender<()>>,
    /// Which player connection is the current one (each attach counts one up).
    pub generation: u64,
}

/// Most commands waiting for a game's thread; a page that sends faster than its game plays
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
    /// Its frames.
    pub hub: Arc<Hub>,
    tx: Mutex<SyncSender<Command>>,
    state: Mutex<LiveState>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LiveGame {
    /// Send the game's thread a command (ignored once the game has ended). `false`: its
    /// queue is full ([`INPUT_QUEUE`]), the command was dropped.
    pub fn send(&self, cmd: Command) -> bool {
        !matches!(lock(&self.tx).try_send(cmd), Err(TrySendError::Full(_)))
    }

    /// Send a command, waiting for room in the queue (for [`Server::stop`]).
    fn send_waiting(&self, cmd: Command) {
        let tx = lock(&self.tx).clone();
        let _ = tx.send(cmd);
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

/// A game saved and stopped (its player left or idled out): its owner continues it. Kept in
/// the data directory's [`SAVED_INDEX`], so a restarted server still knows whose it is.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    /// Its id, kept.
    pub id: u64,
    /// Which game (its name).
    pub game: String,
    /// The player's name.
    pub player: String,
    /// The seed it started from (its recording and morgue are named by it).
    pub seed: u64,
}

/// The saved games and their owners, in the data directory.
pub const SAVED_INDEX: &str = "saved-games.json";
/// One line per finished game (JSON), in the data directory.
pub const FINISHED_LOG: &str = "finished-games.jsonl";

/// A finished game, as [`FINISHED_LOG`] keeps it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Finished {
    /// Its id.
    pub id: u64,
    /// Which game.
    pub game: String,
    /// The player's name.
    pub player: String,
    /// Its seed (its recording and morgue are named by it).
    pub seed: u64,
    /// Where it ended.
    pub depth: Option<i32>,
    /// Its last turn.
    pub turn: u64,
    /// When it ended (seconds since 1970).
    pub ended: u64,
}

#[derive(Debug, Default)]
struct Registry {
    live: HashMap<u64, Arc<LiveGame>>,
    /// Owners whose game is being made (outside the lock: making a game takes a while).
    starting: std::collections::HashSet<Token>,
    by_owner: HashMap<Token, u64>,
    saved: HashMap<Token, SavedGame>,
    conns: HashMap<IpAddr, usize>,
    threads: Vec<std::thread::JoinHandle<()>>,
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
}

/// The whole server state, shared by every task.
#[derive(Debug)]
pub struct Server {
    /// The configuration.
    pub config: Config,
    /// Accounts, sessions, log-in failures, game ownership (blocking: call it from
    /// blocking threads).
    pub store: Arc<dyn Store>,
    /// The forms' CSRF tokens.
    pub csrf: Csrf,
    reg: Mutex<Registry>,
    next_id: AtomicU64,
    stopping: watch::Sender<bool>,
    /// Inputs received from players, over all games (for the bytes-per-move figure).
    pub inputs: AtomicU64,
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
    /// No such game kind.
    #[error("unknown game {0:?}")]
    UnknownKind(String),
    /// The server is stopping.
    #[error("the server is stopping")]
    Stopping,
    /// This browser's game is being made by another connection.
    #[error("your game is starting in another tab; try again in a moment")]
    Starting,
    /// The game could not start.
    #[error("the game could not start: {0}")]
    Start(String),
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

/// A game's app, telling its [`LiveGame`] where it is after every input.
struct Tracked {
    app: WebApp,
    game: Arc<LiveGame>,
}

impl App for Tracked {
    fn render(&mut self, frame: &mut Frame) {
        self.app.render(frame);
    }
    fn handle(&mut self, input: Input) -> Control {
        let c = self.app.handle(input);
        self.game.state().progress = self.app.progress();
        c
    }
    fn tick_interval(&self) -> Option<Duration> {
        self.app.tick_interval()
    }
    fn tick(&mut self) -> Control {
        self.app.tick()
    }
    fn title(&self) -> Option<String> {
        self.app.title()
    }
}

/// A private app session (a replay, a spectator's look into the past): its channel and its
/// hub; dropping it stops the thread.
#[derive(Debug)]
pub struct Session {
    /// Its inputs.
    pub tx: SyncSender<Command>,
    /// Its frames.
    pub hub: Arc<Hub>,
}

impl Drop for Session {
    fn drop(&mut self) {
        // Full or not, the thread ends: once this, the only sender, is gone, its frontend
        // reads a quit.
        let _ = self.tx.try_send(Command::Quit);
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
        let url = config
            .db
            .clone()
            .unwrap_or_else(|| format!("sqlite:{}", config.data_dir.join(DB_FILE).display()));
        let store: Arc<dyn Store> = Arc::from(
            crate::store::open(&url).map_err(|e| format!("cannot open the database: {e}"))?,
        );
        let csrf = Csrf::new().map_err(|e| format!("no randomness: {e}"))?;
        let (stopping, _) = watch::channel(false);
        let mut reg = Registry::default();
        // Whose saved games are whose, from the last run.
        if let Ok(bytes) =
            alembic_content::storage::read_bounded(&config.data_dir.join(SAVED_INDEX), 16 << 20)
            && let Ok(list) = serde_json::from_slice::<Vec<(String, SavedGame)>>(&bytes)
        {
            for (t, s) in list {
                if let Some(t) = Token::parse(&t) {
                    reg.saved.insert(t, s);
                }
            }
        }
        // Ids go on from the last run's, so a new game never opens an old game's save.
        let mut next = 1 + reg.saved.values().map(|s| s.id).max().unwrap_or(0);
        if let Ok(rd) = std::fs::read_dir(&config.data_dir) {
            for e in rd.filter_map(Result::ok) {
                let name = e.file_name().to_string_lossy().into_owned();
                if let Some(id) = name
                    .rsplit_once('-')
                    .and_then(|(_, rest)| rest.split('.').next())
                    .and_then(|n| n.parse::<u64>().ok())
                    .filter(|_| name.ends_with(".save") || name.ends_with(".replay"))
                {
                    next = next.max(id + 1);
                }
            }
        }
        Ok(Arc::new(Server {
            config,
            store,
            csrf,
            reg: Mutex::new(reg),
            next_id: AtomicU64::new(next),
            stopping,
            inputs: AtomicU64::new(0),
        }))
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

    /// The player `owner`'s game (or `account`'s, for a game in progress): `id` if given (theirs, live or saved), else their game in
    /// progress, else their saved game (unless `fresh`: a new game replaces it in the
    /// lobby; its save stays on disk), else a new game of `kind` for `player`. Returns the
    /// game, a receiver that fires when another connection takes it over, and this
    /// connection's generation (for [`Server::player_left`]).
    ///
    /// # Errors
    /// [`AttachError`].
    pub fn attach(
        self: &Arc<Self>,
        owner: &Token,
        account: Option<AccountId>,
        id: Option<u64>,
        kind: &str,
        player: &str,
        fresh: bool,
    ) -> Result<(Arc<LiveGame>, oneshot::Receiver<()>, u64), AttachError> {
        if *self.stopping.borrow() {
            return Err(AttachError::Stopping);
        }
        let mut reg = self.reg();
        let live_id = match id {
            Some(id) => match reg.live.get(&id) {
                // The browser that started it, or the account it belongs to.
                Some(g) if g.owner == *owner || (account.is_some() && g.account() == account) => {
                    Some(id)
                }
                Some(_) => return Err(AttachError::NotYours(id)),
                None => {
                    let mine = reg.saved.get(owner).is_some_and(|s| s.id == id);
                    let someones = reg.saved.values().any(|s| s.id == id);
                    if !mine && someones {
                        return Err(AttachError::NotYours(id));
                    }
                    if !mine {
                        return Err(AttachError::Unknown(id));
                    }
                    None
                }
            },
            None => reg.by_owner.get(owner).copied(),
        };
        let game = match live_id.and_then(|id| reg.live.get(&id).cloned()) {
            Some(g) => g,
            None => {
                let saved = reg
                    .saved
                    .get(owner)
                    .filter(|_| !fresh || id.is_some())
                    .and_then(|s| {
                        GameKind::from_name(&s.game, self.config.test_games)
                            .map(|k| (s.id, k, s.player.clone(), Some(s.seed)))
                    });
                let (gid, kind, player, seed) = match saved {
                    Some(s) => s,
                    None => {
                        let k = GameKind::from_name(kind, self.config.test_games)
                            .ok_or_else(|| AttachError::UnknownKind(kind.to_owned()))?;
                        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                        (id, k, player.to_owned(), None)
                    }
                };
                if reg.starting.contains(owner) {
                    return Err(AttachError::Starting);
                }
                let busy = reg.live.len() + reg.starting.len();
                if busy >= self.config.max_games {
                    return Err(AttachError::Full(busy));
                }
                reg.starting.insert(owner.clone());
                // Making the game (a new level, or loading a save) happens with the
                // registry unlocked, so the lobby and the other players never wait for it.
                drop(reg);
                let made = self.spawn_game(gid, kind, owner.clone(), player, seed);
                // A game started logged in is the account's too (a failure to record it
                // leaves it the browser's, as an anonymous game).
                if let (Ok((g, _)), Some(a)) = (&made, account)
                    && self
                        .store
                        .claim_game(gid, a, crate::accounts::now())
                        .unwrap_or(false)
                {
                    *lock(&g.account) = Some(a);
                }
                let mut reg = self.reg();
                reg.starting.remove(owner);
                let (g, thread) = made?;
                reg.threads.retain(|t| !t.is_finished());
                reg.threads.push(thread);
                reg.live.insert(gid, Arc::clone(&g));
                reg.by_owner.insert(owner.clone(), gid);
                if reg.saved.remove(owner).is_some() {
                    self.write_saved(&reg);
                }
                if *self.stopping.borrow() {
                    // Stopping began while it was made: it saves and ends with the others.
                    g.state().quitting = true;
                    g.send(Command::Quit);
                }
                g
            }
        };
        let (kick_tx, kick_rx) = oneshot::channel();
        let generation = {
            let mut st = game.state();
            if let Some(old) = st.kick.replace(kick_tx) {
                let _ = old.send(());
            }
            st.left_at = None;
            st.last_input = Instant::now();
            st.generation += 1;
            st.generation
        };
        Ok((game, kick_rx, generation))
    }

    /// Make game `id` on its own thread; returns once it has started (or failed to).
    fn spawn_game(
        self: &Arc<Self>,
        id: u64,
        kind: GameKind,
        owner: Token,
        player: String,
        seed: Option<u64>,
    ) -> Result<(Arc<LiveGame>, std::thread::JoinHandle<()>), AttachError> {
        let save = games::save_path(&self.config.data_dir, kind, id);
        let seed = seed.unwrap_or_else(|| games::fresh_seed(id));
        let (tx, rx) = std::sync::mpsc::sync_channel(INPUT_QUEUE);
        let hub = Arc::new(Hub::new());
        let game = Arc::new(LiveGame {
            id,
            kind,
            owner: owner.clone(),
            account: Mutex::new(None),
            player,
            save: save.clone(),
            seed,
            hub: Arc::clone(&hub),
            tx: Mutex::new(tx),
            state: Mutex::new(LiveState {
                progress: Progress::default(),
                last_input: Instant::now(),
                left_at: None,
                spectators: 0,
                quitting: false,
                kick: None,
                generation: 0,
            }),
        });
        let (tiles, tiles_opt) = self.tiles();
        // The app is made on its own thread (the games' values need not be `Send`); the
        // thread says whether it started before the player is attached.
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let server = Arc::clone(self);
        let g = Arc::clone(&game);
        let thread = std::thread::Builder::new()
            .name(format!("game-{id}"))
            .spawn(move || {
                let app = match games::start(kind, &save, seed, tiles_opt) {
                    Ok(app) => {
                        let _ = ready_tx.send(Ok(()));
                        app
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                g.state().progress = app.progress();
                let mut fe = WebFrontend::new(rx, DEFAULT_SIZE, Arc::clone(&g.hub)).with_tiles(tiles);
                let mut tracked = Tracked {
                    app,
                    game: Arc::clone(&g),
                };
                let ran =
                    std::panic::catch_unwind(AssertUnwindSafe(|| alembic_ui::run(&mut fe, &mut tracked)));
                let why = match ran {
                    Ok(_) if g.save.is_file() => "Your game was saved; come back to continue it.",
                    Ok(_) => "The game is over.",
                    Err(_) => {
                        // Its last chance to save, as when a terminal hangs up.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            tracked.app.handle(Input::Quit)
                        }));
                        "The game crashed (a bug): it was saved where it could be, and the server goes on."
                    }
                };
                server.game_ended(&g);
                g.hub.end(why);
            })
            .map_err(|e| AttachError::Start(e.to_string()))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok((game, thread)),
            Ok(Err(e)) => Err(AttachError::Start(e)),
            Err(_) => Err(AttachError::Start("the game's thread died".to_owned())),
        }
    }

    fn game_ended(&self, g: &LiveGame) {
        let mut reg = self.reg();
        reg.live.remove(&g.id);
        if reg.by_owner.get(&g.owner) == Some(&g.id) {
            reg.by_owner.remove(&g.owner);
        }
        if g.save.is_file() {
            reg.saved.insert(
                g.owner.clone(),
                SavedGame {
                    id: g.id,
                    game: g.kind.name().to_owned(),
                    player: g.player.clone(),
                    seed: g.seed,
                },
            );
            self.write_saved(&reg);
        } else if g.kind != GameKind::Crash {
            let progress = g.state().progress;
            let line = Finished {
                id: g.id,
                game: g.kind.name().to_owned(),
                player: g.player.clone(),
                seed: g.seed,
                depth: progress.depth,
                turn: progress.turn,
                ended: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
            };
            if let Ok(text) = serde_json::to_string(&line) {
                let _ = alembic_content::storage::append_line(
                    &self.config.data_dir.join(FINISHED_LOG),
                    &text,
                );
            }
        }
    }

    /// Write the saved games' index (best effort: a failure only loses who owns them).
    fn write_saved(&self, reg: &Registry) {
        let list: Vec<(&str, &SavedGame)> =
            reg.saved.iter().map(|(t, s)| (t.as_str(), s)).collect();
        if let Ok(text) = serde_json::to_string(&list) {
            let _ = alembic_content::storage::write_atomic(
                &self.config.data_dir.join(SAVED_INDEX),
                text.as_bytes(),
            );
        }
    }

    /// The finished games, newest first, at most `n`.
    #[must_use]
    pub fn finished(&self, n: usize) -> Vec<Finished> {
        let path = self.config.data_dir.join(FINISHED_LOG);
        let Ok(bytes) = alembic_content::storage::read_bounded(&path, 16 << 20) else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut all: Vec<Finished> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        all.reverse();
        all.truncate(n);
        all
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

    /// Start a private session of `make` (a replay viewer) on its own thread.
    ///
    /// # Errors
    /// What `make` said, or that no thread could be started.
    pub fn session(
        &self,
        size: (u16, u16),
        make: impl FnOnce(Option<bool>) -> Result<WebApp, String> + Send + 'static,
    ) -> Result<Session, String> {
        let (tx, rx) = std::sync::mpsc::sync_channel(INPUT_QUEUE);
        let hub = Arc::new(Hub::new());
        let (tiles, tiles_opt) = self.tiles();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let h = Arc::clone(&hub);
        std::thread::Builder::new()
            .name("session".to_owned())
            .spawn(move || {
                let mut app = match make(tiles_opt) {
                    Ok(a) => {
                        let _ = ready_tx.send(Ok(()));
                        a
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let mut fe = WebFrontend::new(rx, size, Arc::clone(&h)).with_tiles(tiles);
                let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    alembic_ui::run(&mut fe, &mut app)
                }));
                h.end(if ran.is_ok() {
                    "End of the replay."
                } else {
                    "The replay viewer crashed (a bug)."
                });
            })
            .map_err(|e| e.to_string())?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Session { tx, hub }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the viewer's thread died".to_owned()),
        }
    }

    /// Every game in progress, for the lobby (newest first).
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
                }
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        rows
    }

    /// The game `owner` has in progress or saved, if any: (id, game, in progress).
    #[must_use]
    pub fn game_of(&self, owner: &Token) -> Option<(u64, &'static str, bool)> {
        let reg = self.reg();
        if let Some(g) = reg.by_owner.get(owner).and_then(|id| reg.live.get(id)) {
            return Some((g.id, g.kind.name(), true));
        }
        reg.saved
            .get(owner)
            .and_then(|s| GameKind::from_name(&s.game, true).map(|k| (s.id, k.name(), false)))
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

    /// Save and stop every game that idled out or whose player left; returns how many.
    pub fn reap(&self) -> usize {
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        let mut n = 0;
        for g in games {
            let st = g.state();
            let idle = st.last_input.elapsed() >= self.config.idle_timeout;
            let gone = st
                .left_at
                .is_some_and(|t| t.elapsed() >= self.config.leave_grace);
            if (idle || gone) && !st.quitting {
                drop(st);
                // A full queue: try again on the next round.
                if g.send(Command::Quit) {
                    g.state().quitting = true;
                    n += 1;
                }
            }
        }
        n
    }

    /// Stop: no new games; every game saves and its thread ends; returns how many games were
    /// running. Blocks (call it from a blocking thread).
    pub fn stop(&self) -> usize {
        let _ = self.stopping.send(true);
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        for g in &games {
            g.state().quitting = true;
            g.send_waiting(Command::Quit);
        }
        let threads = std::mem::take(&mut self.reg().threads);
        for t in threads {
            let _ = t.join();
        }
        games.len()
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
