//! Group commit of the games' moves ([`GroupCommit`]): every game hands its move's store
//! write (new recording lines, a changed save) to one writer thread, and hears back when it
//! is committed ([`GroupCommit::submit`]: the game's worker does not wait meanwhile);
//! the writer takes every write waiting and commits them in one transaction
//! ([`Store::mirror_many`]). So the store still holds a move before the frame that answers
//! it is drawn, but at 500 games one commit (one `fsync` of SQLite's WAL, one round trip to
//! PostgreSQL) serves every move that arrived while the last one was being written, where
//! each move had a transaction of its own and waited for the others' in turn.
//!
//! A batch the database refuses is written again one game at a time, so one game's bad
//! write (a save too large) fails only that game.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{MirrorWrite, Result, Store, StoreError};

/// Most games' writes in one transaction.
pub const MAX_BATCH: usize = 512;

/// One game's write, and where its answer goes.
struct Job {
    id: u64,
    restart: bool,
    lines: Vec<String>,
    save: Option<Vec<u8>>,
    reply: Reply,
}

/// Where a write's answer goes.
type Reply = Box<dyn FnOnce(Result<bool>) + Send>;

impl Job {
    fn write(&self) -> MirrorWrite<'_> {
        MirrorWrite {
            restart_recording: self.restart,
            lines: &self.lines,
            save: self.save.as_deref(),
        }
    }
}

/// The writer of every game's moves into the store for one server (see the module docs).
/// Dropping it (every clone of its `Arc`) ends its thread once the writes queued are done.
#[derive(Debug)]
pub struct GroupCommit {
    tx: Mutex<Sender<Job>>,
    stats: Arc<Stats>,
}

/// What the writer did.
#[derive(Debug, Default)]
struct Stats {
    commits: AtomicU64,
    writes: AtomicU64,
}

impl GroupCommit {
    /// A writer into `store` as `server` (its thread started here).
    ///
    /// # Errors
    /// No thread could be started.
    pub fn start(store: Arc<dyn Store>, server: String) -> std::io::Result<GroupCommit> {
        let (tx, rx) = mpsc::channel();
        let stats = Arc::new(Stats::default());
        let st = Arc::clone(&stats);
        std::thread::Builder::new()
            .name("store-writer".to_owned())
            .spawn(move || writer(&rx, store.as_ref(), &server, &st))?;
        Ok(GroupCommit {
            tx: Mutex::new(tx),
            stats,
        })
    }

    /// Write game `id`'s change (as [`Store::mirror`]) in the next group's transaction, and
    /// wait until it is committed. Blocking.
    ///
    /// # Errors
    /// As [`Store::mirror`]; [`StoreError::Db`] when the writer has stopped.
    pub fn mirror(
        &self,
        id: u64,
        restart: bool,
        lines: Vec<String>,
        save: Option<Vec<u8>>,
    ) -> Result<bool> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.submit(
            id,
            restart,
            lines,
            save,
            Box::new(move |r| {
                let _ = reply.send(r);
            }),
        );
        answer.recv().map_err(|_| stopped())?
    }

    /// Write game `id`'s change (as [`Store::mirror`]) in the next group's transaction,
    /// without waiting: `reply` is called (on the writer's thread) with what
    /// [`GroupCommit::mirror`] would return, once it is committed or failed.
    pub fn submit(
        &self,
        id: u64,
        restart: bool,
        lines: Vec<String>,
        save: Option<Vec<u8>>,
        reply: Box<dyn FnOnce(Result<bool>) + Send>,
    ) {
        let job = Job {
            id,
            restart,
            lines,
            save,
            reply,
        };
        let sent = self
            .tx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(job);
        if let Err(mpsc::SendError(job)) = sent {
            (job.reply)(Err(stopped()));
        }
    }

    /// Transactions committed, and game writes in them, so far.
    #[must_use]
    pub fn counts(&self) -> (u64, u64) {
        (
            self.stats.commits.load(Ordering::Relaxed),
            self.stats.writes.load(Ordering::Relaxed),
        )
    }
}

fn stopped() -> StoreError {
    StoreError::Db("the store's writer has stopped".to_owned())
}

/// How long the writer waits for more moves before a commit, when the last commit held
/// more than one game's write (moves arrive faster than commits). At 500 games a batch held
/// about two moves, and each commit costs the database (and the server) far more than a
/// line: waiting gathers several times more per commit, for at most this much more latency
/// on a move. A lone game is never kept waiting.
pub const GATHER: Duration = Duration::from_millis(2);

/// The writer's loop: every job waiting, in one transaction, until every sender is gone.
fn writer(rx: &Receiver<Job>, store: &dyn Store, server: &str, stats: &Stats) {
    let mut busy = false;
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        if busy {
            std::thread::sleep(GATHER);
        }
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        busy = batch.len() > 1;
        // One order for the rows' locks (PostgreSQL's `FOR UPDATE`) in every transaction.
        batch.sort_by_key(|j| j.id);
        let now = crate::accounts::now();
        let writes: Vec<(u64, MirrorWrite<'_>)> = batch.iter().map(|j| (j.id, j.write())).collect();
        match store.mirror_many(server, &writes, now) {
            Ok(held) => {
                stats.commits.fetch_add(1, Ordering::Relaxed);
                stats
                    .writes
                    .fetch_add(batch.len() as u64, Ordering::Relaxed);
                drop(writes);
                for (j, h) in batch.into_iter().zip(held) {
                    (j.reply)(Ok(h));
                }
            }
            Err(e) if batch.len() == 1 => {
                drop(writes);
                if let Some(j) = batch.pop() {
                    (j.reply)(Err(e));
                }
            }
            // Refused as a whole: each on its own, so only the games at fault fail.
            Err(_) => {
                drop(writes);
                for j in batch {
                    let r = store.mirror(j.id, server, &j.write(), now);
                    if r.is_ok() {
                        stats.commits.fetch_add(1, Ordering::Relaxed);
                        stats.writes.fetch_add(1, Ordering::Relaxed);
                    }
                    (j.reply)(r);
                }
            }
        }
    }
}
