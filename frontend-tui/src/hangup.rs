//! Noticing that the terminal is gone.
//!
//! A terminal can vanish without a SIGHUP reaching the game: under `setsid` or `runuser` the
//! process has no controlling terminal, so when the emulator (or tmux window, or ssh session)
//! closes, the kernel only hangs the terminal up, and every read of it then returns
//! end-of-file. crossterm 0.29 reads its input in a loop that retries on end-of-file and on
//! any error but "would block", inside `event::poll`: it never returns, the game spins at
//! 100% CPU for ever, and never looks at its stop flag, so SIGTERM does nothing either.
//!
//! [`HangupWatch`] waits (in `poll`, costing nothing) for the terminal to report a hang-up.
//! Then it swaps the descriptor crossterm reads for an empty non-blocking pipe, so crossterm's
//! read says "would block" and its poll times out, and raises a flag the frontend turns into
//! an error: the app is offered [`alembic_ui::Input::Quit`] (it saves) and the session ends.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::event::{PollFd, PollFlags, poll};
use rustix::pipe::{PipeFlags, pipe_with};

/// A thread watching a terminal for its hang-up; it ends when this is dropped.
#[derive(Debug)]
pub(crate) struct HangupWatch {
    lost: Arc<AtomicBool>,
    /// The write end of a pipe the thread also polls: dropping it wakes the thread to end.
    _quit: OwnedFd,
}

impl HangupWatch {
    /// Watch standard input, the descriptor crossterm reads when it is a terminal; `None`
    /// when it is not one (crossterm then opens `/dev/tty` itself, out of reach).
    ///
    /// # Errors
    /// The descriptor could not be duplicated, the pipe made or the thread started.
    pub(crate) fn stdin() -> io::Result<Option<Self>> {
        let stdin = rustix::stdio::stdin();
        if !rustix::termios::isatty(stdin) {
            return Ok(None);
        }
        let tty = rustix::io::fcntl_dupfd_cloexec(stdin, 3)?;
        Self::start(tty, |empty| rustix::stdio::dup2_stdin(empty)).map(Some)
    }

    /// Watch `tty` (a descriptor of the terminal); once it hangs up, call `replace` with an
    /// empty non-blocking pipe (to put in place of the descriptor the input is read from),
    /// then raise [`HangupWatch::lost`].
    ///
    /// # Errors
    /// The pipe could not be made or the thread started.
    pub(crate) fn start(
        tty: OwnedFd,
        replace: impl FnOnce(&OwnedFd) -> rustix::io::Result<()> + Send + 'static,
    ) -> io::Result<Self> {
        let (quit_reader, quit_writer) = pipe_with(PipeFlags::CLOEXEC)?;
        let lost = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&lost);
        std::thread::Builder::new()
            .name("alembic-tui-hangup".into())
            .spawn(move || {
                if wait_for_hangup(&tty, &quit_reader) {
                    unstick(replace);
                    flag.store(true, Ordering::SeqCst);
                }
            })?;
        Ok(HangupWatch {
            lost,
            _quit: quit_writer,
        })
    }

    /// Whether the terminal has hung up (and its input was replaced).
    pub(crate) fn lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }
}

/// Block until `tty` hangs up (`true`) or `quit` is closed (`false`). No events are asked
/// for: `poll` reports hang-ups and errors whatever was asked.
fn wait_for_hangup(tty: &OwnedFd, quit: &OwnedFd) -> bool {
    loop {
        let mut fds = [
            PollFd::new(tty, PollFlags::empty()),
            PollFd::new(quit, PollFlags::empty()),
        ];
        match poll(&mut fds, None) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            // Cannot watch: leave the terminal to the frontend's own error handling.
            Err(_) => return false,
        }
        if !fds[1].revents().is_empty() {
            return false;
        }
        if fds[0]
            .revents()
            .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL)
        {
            return true;
        }
    }
}

/// Put an empty non-blocking pipe where the input is read from. Its write end is kept open
/// for the life of the process (one descriptor, once per lost terminal), so the pipe never
/// reads end-of-file, which would make crossterm spin again.
fn unstick(replace: impl FnOnce(&OwnedFd) -> rustix::io::Result<()>) {
    if let Ok((reader, writer)) = pipe_with(PipeFlags::NONBLOCK | PipeFlags::CLOEXEC)
        && replace(&reader).is_ok()
    {
        std::mem::forget(writer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    use rustix::fs::{Mode, OFlags, open};
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    /// A pseudo-terminal: (its master, a descriptor of its slave).
    fn pty() -> (OwnedFd, OwnedFd) {
        let master =
            openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).expect("openpt");
        grantpt(&master).expect("grantpt");
        unlockpt(&master).expect("unlockpt");
        let name = ptsname(&master, Vec::new()).expect("ptsname");
        let slave = open(
            name.as_c_str(),
            OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .expect("open the slave");
        (master, slave)
    }

    fn wait_until(what: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if what() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn a_hung_up_terminal_is_reported_and_its_input_replaced() {
        let (master, slave) = pty();
        // What the frontend would read: a second descriptor of the slave.
        let input = rustix::io::dup(&slave).expect("dup");
        // The watcher replaces a third one (by number, as it replaces stdin) with the pipe.
        let target = Arc::new(std::sync::Mutex::new(None::<OwnedFd>));
        let spare = rustix::io::dup(&slave).expect("dup");
        let slot = Arc::clone(&target);
        let watch = HangupWatch::start(slave, move |empty| {
            let mut fd = spare;
            let r = rustix::io::dup2(empty, &mut fd);
            *slot.lock().expect("lock") = Some(fd);
            r
        })
        .expect("start");
        std::thread::sleep(Duration::from_millis(100));
        assert!(!watch.lost(), "a live terminal is not lost");
        // The terminal reads end-of-file once hung up: what crossterm looped on.
        drop(master);
        assert!(wait_until(|| watch.lost()), "the hang-up was not noticed");
        let replaced = target.lock().expect("lock").take().expect("replaced");
        let mut buf = [0u8; 8];
        assert_eq!(
            rustix::io::read(&replaced, &mut buf),
            Err(rustix::io::Errno::AGAIN),
            "the replacement must say 'would block', never end-of-file"
        );
        // The terminal itself still reads end-of-file or fails: the replacement was needed.
        assert!(matches!(rustix::io::read(&input, &mut buf), Ok(0) | Err(_)));
    }

    #[test]
    fn the_watcher_ends_with_the_session() {
        let (master, slave) = pty();
        let called = Arc::new(AtomicBool::new(false));
        let c = Arc::clone(&called);
        let watch = HangupWatch::start(slave, move |_| {
            c.store(true, Ordering::SeqCst);
            Ok(())
        })
        .expect("start");
        let lost = Arc::clone(&watch.lost);
        drop(watch);
        std::thread::sleep(Duration::from_millis(200));
        // A hang-up after the session is nobody's business: the thread has ended.
        drop(master);
        std::thread::sleep(Duration::from_millis(200));
        assert!(!called.load(Ordering::SeqCst));
        assert!(!lost.load(Ordering::SeqCst));
    }
}
