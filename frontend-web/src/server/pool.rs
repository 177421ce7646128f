//! The worker threads that run every game and every replay viewer ([`Pool`]): a fixed
//! number of them (about the number of cores, [`super::Config::workers`]), each owning the
//! tasks it was given (their apps are not `Send`, so a task stays on the worker that made
//! it). A task's work comes in as events (a command queued, its store write committed, a
//! timer: a tick, a retry), run one at a time per task and in order; a task never blocks
//! its worker waiting for the store: its move is handed to the group-commit writer and
//! the task goes on when the writer says it is committed ([`Event::Committed`]).
//!
//! Background tasks (the viewers) run only when no game's event waits on their worker, and
//! only within the replay viewers' [`WorkGate`]: a spectator looking back costs the players
//! no more than one worker's slice at a time.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::limits::WorkGate;

/// What a task is told to do.
#[derive(Debug)]
pub(super) enum Event {
    /// A command may be waiting in its queue.
    Wake,
    /// Its write to the store was committed (`Ok(true)`), refused because another server
    /// holds the game (`Ok(false)`), or failed.
    Committed(crate::store::Result<bool>),
    /// The time it asked for has come (a tick, a retry).
    Timer,
}

/// What a task wants after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// Nothing until an event; a [`Event::Timer`] at the time given, if any.
    Wait(Option<Instant>),
    /// More may be queued: a [`Event::Wake`] again, after the other tasks' waiting events.
    More,
    /// It has ended: the worker drops it.
    Done,
}

/// Work a worker runs: a game, or a viewer.
pub(super) trait Task {
    /// Do what `event` asks; `me` reaches this task again (for the store's answer).
    fn run(&mut self, event: Event, me: &Handle) -> Next;

    /// Whether it is background work (a viewer): run after the games' events, within the
    /// viewers' gate.
    fn background(&self) -> bool {
        false
    }
}

/// What makes a task on its worker: `None` when it could not start (it said why to whoever
/// waits for it).
pub(super) type Make = Box<dyn FnOnce(&Handle) -> Option<Box<dyn Task>> + Send>;

enum Msg {
    Start(u64, Make),
    Event(u64, Event),
    Stop,
}

/// A way to reach one task on its worker (cheap to clone, `Send`).
#[derive(Clone)]
pub(super) struct Handle {
    tx: Sender<Msg>,
    key: u64,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle").field("key", &self.key).finish()
    }
}

impl Handle {
    /// Tell the task a command may be waiting. `false`: its worker has stopped.
    pub(super) fn wake(&self) -> bool {
        self.tx.send(Msg::Event(self.key, Event::Wake)).is_ok()
    }

    /// Tell the task its store write came back with `r`.
    pub(super) fn committed(&self, r: crate::store::Result<bool>) {
        let _ = self.tx.send(Msg::Event(self.key, Event::Committed(r)));
    }
}

struct Worker {
    tx: Sender<Msg>,
    /// Tasks it runs now.
    tasks: Arc<AtomicUsize>,
}

/// The worker threads (see the module docs). Dropping it stops them (their tasks dropped).
pub(super) struct Pool {
    workers: Vec<Worker>,
    next_key: AtomicU64,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("workers", &self.workers.len())
            .finish_non_exhaustive()
    }
}

impl Pool {
    /// `n` workers (at least 1); background work only within `gate`.
    ///
    /// # Errors
    /// A thread could not be started.
    pub(super) fn new(n: usize, gate: Arc<WorkGate>) -> std::io::Result<Pool> {
        let mut workers = Vec::new();
        for i in 0..n.max(1) {
            let (tx, rx) = std::sync::mpsc::channel();
            let tasks = Arc::new(AtomicUsize::new(0));
            let t = Arc::clone(&tasks);
            let g = Arc::clone(&gate);
            let me = tx.clone();
            std::thread::Builder::new()
                .name(format!("worker-{i}"))
                .spawn(move || work(&rx, &me, &t, &g))?;
            workers.push(Worker { tx, tasks });
        }
        Ok(Pool {
            workers,
            next_key: AtomicU64::new(1),
        })
    }

    /// Make a task with `make` on the worker running the fewest; its handle.
    pub(super) fn start(&self, make: Make) -> Handle {
        let w = self
            .workers
            .iter()
            .min_by_key(|w| w.tasks.load(Ordering::Relaxed))
            .unwrap_or_else(|| unreachable!("a pool has a worker"));
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        w.tasks.fetch_add(1, Ordering::Relaxed);
        // A worker that stopped drops `make` unrun: whoever waits for it hears nothing.
        let _ = w.tx.send(Msg::Start(key, make));
        Handle {
            tx: w.tx.clone(),
            key,
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for w in &self.workers {
            let _ = w.tx.send(Msg::Stop);
        }
    }
}

/// How often a worker looks again whether the viewers' gate is free, when a viewer waits.
const GATE_POLL: Duration = Duration::from_millis(2);

struct Slot {
    task: Box<dyn Task>,
    handle: Handle,
    due: Option<Instant>,
    background: bool,
}

/// A worker's loop: take every message waiting, run one event (a game's first), again.
fn work(rx: &Receiver<Msg>, me: &Sender<Msg>, load: &AtomicUsize, gate: &WorkGate) {
    let mut slots: HashMap<u64, Slot> = HashMap::new();
    let mut games: VecDeque<(u64, Event)> = VecDeque::new();
    let mut viewers: VecDeque<(u64, Event)> = VecDeque::new();
    loop {
        // Block only when nothing is runnable now.
        let runnable = !games.is_empty() || (!viewers.is_empty() && gate.busy() < gate.max());
        let first = if runnable {
            rx.try_recv().ok()
        } else {
            let now = Instant::now();
            let due = slots.values().filter_map(|s| s.due).min();
            let mut wait = due.map(|d| d.saturating_duration_since(now));
            if !viewers.is_empty() {
                wait = Some(wait.map_or(GATE_POLL, |w| w.min(GATE_POLL)));
            }
            match wait {
                Some(w) => match rx.recv_timeout(w) {
                    Ok(m) => Some(m),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                },
                None => match rx.recv() {
                    Ok(m) => Some(m),
                    Err(_) => return,
                },
            }
        };
        let mut next = first;
        while let Some(m) = next {
            match m {
                Msg::Stop => return,
                Msg::Start(key, make) => {
                    let handle = Handle {
                        tx: me.clone(),
                        key,
                    };
                    match std::panic::catch_unwind(AssertUnwindSafe(|| make(&handle))) {
                        Ok(Some(task)) => {
                            let background = task.background();
                            slots.insert(
                                key,
                                Slot {
                                    task,
                                    handle,
                                    due: None,
                                    background,
                                },
                            );
                            // Its first look at its queue (commands sent while it started).
                            if background {
                                viewers.push_back((key, Event::Wake));
                            } else {
                                games.push_back((key, Event::Wake));
                            }
                        }
                        _ => {
                            load.fetch_sub(1, Ordering::Relaxed);
                        }
                    }
                }
                Msg::Event(key, ev) => match slots.get(&key) {
                    Some(s) if s.background => viewers.push_back((key, ev)),
                    // A move the store now holds is answered before new commands are
                    // started: its player has waited longest.
                    Some(_) if matches!(ev, Event::Committed(_)) => games.push_front((key, ev)),
                    Some(_) => games.push_back((key, ev)),
                    None => {}
                },
            }
            next = rx.try_recv().ok();
        }
        // Timers come due.
        let now = Instant::now();
        for (key, s) in &mut slots {
            if s.due.is_some_and(|d| d <= now) {
                s.due = None;
                if s.background {
                    viewers.push_back((*key, Event::Timer));
                } else {
                    games.push_back((*key, Event::Timer));
                }
            }
        }
        if let Some((key, ev)) = games.pop_front() {
            run(&mut slots, key, ev, &mut games, load);
        } else if !viewers.is_empty()
            && let Some(_work) = gate.try_enter()
            && let Some((key, ev)) = viewers.pop_front()
        {
            run(&mut slots, key, ev, &mut viewers, load);
        }
    }
}

/// Run task `key`'s `ev`; `queue`: where its [`Next::More`] goes.
fn run(
    slots: &mut HashMap<u64, Slot>,
    key: u64,
    ev: Event,
    queue: &mut VecDeque<(u64, Event)>,
    load: &AtomicUsize,
) {
    let Some(s) = slots.get_mut(&key) else {
        return;
    };
    let handle = s.handle.clone();
    // A task catches its app's panics itself; one that escapes ends only that task.
    let next = std::panic::catch_unwind(AssertUnwindSafe(|| s.task.run(ev, &handle)))
        .unwrap_or(Next::Done);
    match next {
        Next::Wait(due) => s.due = due,
        Next::More => {
            s.due = None;
            queue.push_back((key, Event::Wake));
        }
        Next::Done => {
            slots.remove(&key);
            load.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// A task's screen: its hub, its size, and when its app asked to be ticked next.
#[derive(Debug)]
pub(super) struct Screen {
    /// Where its frames go.
    pub(super) hub: Arc<crate::frontend::Hub>,
    /// Its size in cells, as the page said.
    pub(super) size: (u16, u16),
    tiles: alembic_ui::TileSupport,
    /// When its app's tick is due (it asked for one, and no input came).
    pub(super) tick_at: Option<Instant>,
}

impl Screen {
    /// A screen of `size` publishing to `hub`, drawing tiles as `tiles` says.
    pub(super) fn new(
        hub: Arc<crate::frontend::Hub>,
        size: (u16, u16),
        tiles: alembic_ui::TileSupport,
    ) -> Screen {
        Screen {
            hub,
            size,
            tiles,
            tick_at: None,
        }
    }

    /// Draw `app` and publish the frame (as [`alembic_ui::run`] does each round); its next
    /// tick is due its tick interval from now.
    pub(super) fn present(&mut self, app: &mut dyn alembic_ui::App) {
        let mut frame = alembic_ui::Frame::new(self.size.0, self.size.1);
        frame.set_tiles(self.tiles);
        frame.set_colour_depth(alembic_ui::ColourDepth::TrueColour);
        app.render(&mut frame);
        self.hub.publish(&frame);
        self.tick_at = app.tick_interval().map(|d| Instant::now() + d);
    }

    /// The input a command is (a resize resizes the screen too).
    pub(super) fn input(&mut self, cmd: crate::frontend::Command) -> alembic_ui::Input {
        use crate::frontend::Command;
        match cmd {
            Command::Input(i) => i,
            Command::Resize(w, h) => {
                self.size = (w, h);
                alembic_ui::Input::Resize {
                    width: w,
                    height: h,
                }
            }
            Command::Quit => alembic_ui::Input::Quit,
        }
    }
}
