//! A game on the worker pool: made ([`Server::spawn_game`]: started on a worker, where it
//! stays, as a [`Tracked`] task), and ended ([`Server::game_ended`]: saved, or over and
//! filed in the store); the progress writer, which keeps the lobbies' depth and turn.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::pool::{Screen, Task};
use super::tracked::{Kept, Phase, Tracked};
use super::{AttachError, DEFAULT_SIZE, INPUT_QUEUE, LiveGame, LiveState, Server, Token};
use crate::frontend::Hub;
use crate::games::{self, GameKind, Progress};
use crate::store::{GameStatus, Score, Store};
use crate::sync::{self, Mirror};

impl Server {
    /// Make game `id` on a worker of the pool; returns once it has started (or failed to).
    /// Blocking.
    pub(super) fn spawn_game(
        self: &Arc<Self>,
        (id, from): (u64, IpAddr),
        kind: GameKind,
        owner: Token,
        player: String,
        seed: Option<u64>,
    ) -> Result<Arc<LiveGame>, AttachError> {
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
            from,
            // A second early: file times may be rounded down.
            started: std::time::SystemTime::now() - Duration::from_secs(1),
            hub: Arc::clone(&hub),
            past: Arc::default(),
            tx: Mutex::new(tx),
            worker: Mutex::new(None),
            taken: std::sync::atomic::AtomicBool::new(false),
            state: Mutex::new(LiveState {
                progress: Progress::default(),
                last_input: Instant::now(),
                left_at: None,
                spectators: 0,
                quitting: false,
                held: false,
                kick: None,
                generation: 0,
            }),
        });
        let (tiles, tiles_opt) = self.tiles();
        // The app is made on its worker (the games' values are not `Send`: a game stays on
        // the worker that made it); the worker says whether it started before the player
        // is attached.
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let server = Arc::clone(self);
        let g = Arc::clone(&game);
        let handle = self.pool.start(Box::new(move |_me| {
            // The files as the store holds them (written by `materialize`, or none):
            // whatever starting writes is sent by the first sync below.
            let mirror = Mirror::new(id, &save);
            let app = match games::start(kind, &save, seed, tiles_opt) {
                Ok(app) => app,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return None;
                }
            };
            g.state().progress = app.progress();
            let mut tracked = Tracked {
                app,
                game: Arc::clone(&g),
                mirror,
                commits: Arc::clone(&server.commits),
                progress_written: Instant::now(),
                lost: false,
                behind: None,
                ending: None,
                srv: Arc::clone(&server),
                rx,
                screen: Screen::new(Arc::clone(&g.hub), DEFAULT_SIZE, tiles),
                phase: Phase::Ready,
                retry: None,
                crashed: false,
            };
            // What starting wrote (a new game's first save, a journal replayed): moves
            // answered before, or a game its seed makes again; a failure is written by
            // the first move's write.
            if let Err(e) = tracked.sync() {
                eprintln!("alembic-web: game {id}: cannot mirror into the store yet ({e})");
            }
            let _ = ready_tx.send(Ok(()));
            // A game continued over (its window had closed at its end) is filed as it
            // starts: nothing of it is played or drawn, its summary is shown.
            if tracked.ended() {
                tracked.end();
                return None;
            }
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                tracked.screen.present(&mut tracked.app);
            }))
            .is_err()
            {
                tracked.crashed = true;
                tracked.end();
                return None;
            }
            Some(Box::new(tracked) as Box<dyn Task>)
        }));
        *super::lock(&game.worker) = Some(handle);
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(game),
            Ok(Err(e)) => Err(AttachError::Start(e)),
            Err(_) => Err(AttachError::Start("the game's worker died".to_owned())),
        }
    }

    /// Game `g` ended on this server: saved (its hold given back), or over (its morgue
    /// file, final recording and score into the store); `lost`: another server holds it
    /// now, and nothing is written. `points`: its score, if it has one. What the store
    /// keeps of it, once it is stored as finished; `None` otherwise.
    pub(super) fn game_ended(
        &self,
        g: &LiveGame,
        recording: &std::path::Path,
        points: Option<i64>,
        lost: bool,
    ) -> Option<Kept> {
        {
            let mut reg = self.reg();
            if reg.live.remove(&g.id).is_some() {
                Self::ungame(&mut reg, g.from);
            }
            if reg.by_owner.get(&g.owner) == Some(&g.id) {
                reg.by_owner.remove(&g.owner);
            }
        }
        if lost {
            return None;
        }
        let me = self.name.as_str();
        let now = crate::accounts::now();
        let progress = g.state().progress;
        let store = self.store.as_ref();
        if g.save.is_file() {
            if let Err(e) = store.set_game(
                g.id,
                me,
                GameStatus::Saved,
                progress.depth,
                progress.turn,
                now,
            ) {
                eprintln!("alembic-web: game {}: cannot record it saved: {e}", g.id);
            }
            return None;
        }
        if g.kind == GameKind::CRASH {
            let _ = store.set_game(g.id, me, GameStatus::Finished, None, progress.turn, now);
            return None;
        }
        let data = &self.config.data_dir;
        let prefix = format!("{}-seed{}-", g.kind.name(), g.seed);
        let result = (|| -> Result<Kept, String> {
            let mut kept = Kept::default();
            if let Some(path) =
                sync::newest_named(&data.join(games::MORGUE_DIR), &prefix, g.started)
            {
                let text = alembic_games::storage::read_bounded(&path, 8 << 20)
                    .map_err(|e| e.to_string())?;
                store
                    .put_morgue(g.id, &String::from_utf8_lossy(&text))
                    .map_err(|e| e.to_string())?;
                kept.morgue = true;
            }
            // The recording, closed and moved to `records/`: the store's copy becomes it.
            if !recording.is_file()
                && let Some(path) =
                    sync::newest_named(&data.join(games::RECORDS_DIR), &prefix, g.started)
            {
                let text = alembic_games::storage::read_bounded(&path, 64 << 20)
                    .map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(&text);
                let have = store.recording(g.id).map_err(|e| e.to_string())?;
                if have.iter().map(String::as_str).ne(text.lines()) {
                    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
                    let w = crate::store::MirrorWrite {
                        restart_recording: true,
                        lines: &lines,
                        save: None,
                    };
                    if !store.mirror(g.id, me, &w, now).map_err(|e| e.to_string())? {
                        return Err("another server holds it now".to_owned());
                    }
                }
                kept.recording = !text.is_empty();
            } else {
                kept.recording = !store.recording(g.id).map_err(|e| e.to_string())?.is_empty();
            }
            if let Some(points) = points {
                store
                    .add_score(&Score {
                        game: g.kind.name().to_owned(),
                        game_id: g.id,
                        player: g.player.clone(),
                        account: g.account(),
                        points,
                        depth: progress.depth,
                        turn: progress.turn,
                        ended: now,
                    })
                    .map_err(|e| e.to_string())?;
            }
            match store.set_game(
                g.id,
                me,
                GameStatus::Finished,
                progress.depth,
                progress.turn,
                now,
            ) {
                Ok(true) => Ok(kept),
                Ok(false) => Err("another server holds it now".to_owned()),
                Err(e) => Err(e.to_string()),
            }
        })();
        result
            .map_err(|e| {
                eprintln!(
                    "alembic-web: game {}: its end could not be stored: {e}",
                    g.id
                );
            })
            .ok()
    }
}

/// Writes the games' progress (depth, turn) for every server's lobby, off the workers:
/// each game asks at most every few seconds, and the latest of each due is written, all in
/// one transaction ([`Store::progress_many`]).
#[derive(Debug)]
pub(super) struct ProgressWriter {
    tx: Mutex<Sender<Arc<LiveGame>>>,
}

impl ProgressWriter {
    /// A writer into `store` as server `name` (its thread started here).
    ///
    /// # Errors
    /// No thread could be started.
    pub(super) fn start(store: Arc<dyn Store>, name: String) -> std::io::Result<ProgressWriter> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("progress-writer".to_owned())
            .spawn(move || write_progress(&rx, store.as_ref(), &name))?;
        Ok(ProgressWriter { tx: Mutex::new(tx) })
    }

    /// Write `g`'s progress soon.
    pub(super) fn write(&self, g: &Arc<LiveGame>) {
        let _ = super::lock(&self.tx).send(Arc::clone(g));
    }
}

/// How long the progress writer gathers games before writing them: the lobby may be this
/// much later, and at 500 games one statement serves a few hundred games, where each had one
/// of its own.
const PROGRESS_GATHER: Duration = Duration::from_millis(500);

fn write_progress(rx: &Receiver<Arc<LiveGame>>, store: &dyn Store, name: &str) {
    while let Ok(first) = rx.recv() {
        let mut due: HashMap<u64, Arc<LiveGame>> = HashMap::new();
        due.insert(first.id, first);
        std::thread::sleep(PROGRESS_GATHER);
        while let Ok(g) = rx.try_recv() {
            due.insert(g.id, g);
        }
        let now = crate::accounts::now();
        let games: Vec<&Arc<LiveGame>> = due.values().collect();
        let rows: Vec<(u64, Option<i32>, u64)> = games
            .iter()
            .map(|g| {
                let p = g.state().progress;
                (g.id, p.depth, p.turn)
            })
            .collect();
        // One transaction for every game due (one flush of SQLite's journal, not one per
        // game, each holding the database from the moves' group commits).
        if let Ok(held) = store.progress_many(name, &rows, now) {
            for (g, h) in games.iter().zip(held) {
                if !h {
                    // Another server holds it now: the game stops at its next move.
                    g.taken.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}
