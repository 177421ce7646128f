//! A game's own thread: made ([`Server::spawn_game`]), run under
//! [`alembic_ui::run`] with a [`WebFrontend`] (a panic caught), and ended
//! ([`Server::game_ended`]: saved, or over and filed in the store).

use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alembic_ui::{App, Input};

use super::tracked::Tracked;
use super::{AttachError, DEFAULT_SIZE, INPUT_QUEUE, LiveGame, LiveState, Server, Token};
use crate::frontend::{Hub, WebFrontend};
use crate::games::{self, GameKind, Progress};
use crate::protocol::{EndLinks, GameSummary};
use crate::store::{GameStatus, Score};
use crate::sync::{self, Mirror};

impl Server {
    /// Make game `id` on its own thread; returns once it has started (or failed to).
    pub(super) fn spawn_game(
        self: &Arc<Self>,
        (id, from): (u64, IpAddr),
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
            from,
            // A second early: file times may be rounded down.
            started: std::time::SystemTime::now() - Duration::from_secs(1),
            hub: Arc::clone(&hub),
            past: Arc::default(),
            tx: Mutex::new(tx),
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
        // The app is made on its own thread (the games' values need not be `Send`); the
        // thread says whether it started before the player is attached.
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let server = Arc::clone(self);
        let g = Arc::clone(&game);
        let thread = std::thread::Builder::new()
            .name(format!("game-{id}"))
            .spawn(move || {
                // The files as the store holds them (written by `materialize`, or none):
                // whatever starting writes is sent by the first sync below.
                let mirror = Mirror::new(id, &save);
                let app = match games::start(kind, &save, seed, tiles_opt) {
                    Ok(app) => app,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                g.state().progress = app.progress();
                let mut tracked = Tracked {
                    app,
                    game: Arc::clone(&g),
                    mirror,
                    store: Arc::clone(&server.store),
                    commits: Arc::clone(&server.commits),
                    progress_written: Instant::now(),
                    server: server.name.clone(),
                    lost: false,
                    behind: None,
                    ending: None,
                };
                // What starting wrote (a new game's first save, a journal replayed): moves
                // answered before, or a game its seed makes again; a failure is written by
                // the first move's settle.
                if let Err(e) = tracked.sync() {
                    eprintln!("alembic-web: game {id}: cannot mirror into the store yet ({e})");
                }
                let _ = ready_tx.send(Ok(()));
                let mut fe = WebFrontend::new(rx, DEFAULT_SIZE, Arc::clone(&g.hub)).with_tiles(tiles);
                // A game continued over (its window had closed at its end) is filed as it
                // starts: nothing of it is played or drawn, its summary is shown.
                let ran = if tracked.ended() {
                    Ok(Ok(()))
                } else {
                    std::panic::catch_unwind(AssertUnwindSafe(|| alembic_ui::run(&mut fe, &mut tracked)))
                };
                let why = match ran {
                    Ok(_) if tracked.lost => "This game was taken over by another server (this one lost touch with the database): reload the page to continue it there.",
                    Ok(_) if tracked.behind.is_some() => "The game stopped before your last move could be written: it continues from the last move you saw answered.",
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
                if let Err(e) = tracked.sync() {
                    eprintln!("alembic-web: game {id}: cannot mirror its end into the store ({e})");
                }
                let points = tracked.app.points();
                let kept = server.game_ended(&g, tracked.mirror.recording(), points, tracked.lost);
                let summary = tracked
                    .ending
                    .take()
                    .filter(|_| !tracked.lost && tracked.behind.is_none())
                    .map(|e| summary_of(&g, e, points, kept));
                g.hub.end_with(why, summary);
            })
            .map_err(|e| AttachError::Start(e.to_string()))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok((game, thread)),
            Ok(Err(e)) => Err(AttachError::Start(e)),
            Err(_) => Err(AttachError::Start("the game's thread died".to_owned())),
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

/// What the store keeps of a finished game, beside its record (which makes its page).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Kept {
    /// Its morgue file.
    morgue: bool,
    /// Its recording (so it replays).
    recording: bool,
}

/// The page's summary of game `g`, which ended as `ending` said with `points`; its links
/// only to what the store `kept` (none when its end could not be stored as finished: the
/// pages would not show it).
fn summary_of(
    g: &LiveGame,
    ending: alembic_games::end::EndSummary,
    points: Option<i64>,
    kept: Option<Kept>,
) -> GameSummary {
    GameSummary {
        game: g.kind.name().to_owned(),
        id: g.id,
        won: ending.won,
        quit: ending.quit,
        headline: ending.headline,
        cause: ending.cause,
        depth: (ending.depth > 0).then_some(ending.depth),
        turns: ending.turns,
        score: points,
        links: kept.map_or_else(EndLinks::default, |k| {
            EndLinks::of(g.id, k.morgue, k.recording)
        }),
    }
}
