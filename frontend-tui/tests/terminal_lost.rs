//! The terminal vanishes under a running game, with no SIGHUP (issue 57): the binary plays
//! on a pseudo-terminal that is not its controlling terminal (as under `setsid`, the kernel
//! sends no hang-up signal), the pseudo-terminal's master is closed, and the game must save,
//! say so on stderr and exit within a few seconds. crossterm alone read the end-of-file in a
//! loop for ever at 100% CPU.
#![cfg(all(unix, feature = "bin"))]

use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, poll};
use rustix::fs::{Mode, OFlags, open};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{Winsize, tcsetwinsize};

/// A 100×30 pseudo-terminal: (its master, its slave).
fn pty() -> (OwnedFd, OwnedFd) {
    let master =
        openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    // NOCTTY: the slave never becomes anybody's controlling terminal, so closing the
    // master sends no SIGHUP.
    let slave = open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .expect("open the slave");
    let size = Winsize {
        ws_row: 30,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    tcsetwinsize(&master, size).expect("window size");
    (master, slave)
}

/// Read what the game draws into `seen` for up to `millis` ms, or until `done` holds.
fn drain(master: &OwnedFd, seen: &mut Vec<u8>, millis: u64, done: impl Fn(&[u8]) -> bool) {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    while start.elapsed() < Duration::from_millis(millis) && !done(seen) {
        let mut fds = [PollFd::new(master, PollFlags::IN)];
        let ts = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: 20_000_000,
        };
        if poll(&mut fds, Some(&ts)).unwrap_or(0) > 0 {
            match rustix::io::read(master, &mut buf) {
                Ok(n) => seen.extend_from_slice(&buf[..n]),
                Err(_) => return,
            }
        }
    }
}

/// Wait up to `secs` seconds for the child to end.
fn wait_end(child: &mut Child, secs: u64) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn a_vanished_terminal_saves_the_game_and_ends_the_process() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("alembic-tui-lost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let save = dir.join("alembic").join("rats.save");
    let (master, slave) = pty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_alembic-tui"))
        .args(["--game", "rats", "--seed", "5"])
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave.try_clone().expect("clone")))
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start alembic-tui");

    // The title screen, then Enter: a new game (saved at once), then a few moves.
    let mut seen = Vec::new();
    let shows = |text: &'static str| move |s: &[u8]| String::from_utf8_lossy(s).contains(text);
    drain(&master, &mut seen, 10_000, shows("New game"));
    rustix::io::write(&master, b"\r").expect("Enter");
    drain(&master, &mut seen, 10_000, |_| save.exists());
    for key in b"lljjhk" {
        rustix::io::write(&master, &[*key]).expect("a key");
        drain(&master, &mut seen, 200, |_| false);
    }
    assert!(save.exists(), "the game did not start");
    let saved_at_start = std::fs::read(&save).expect("read the save");

    // The terminal goes: its last master closes.
    drop(master);
    let status = wait_end(&mut child, 5);
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let saved_at_end = std::fs::read(&save).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);

    let status = status.expect("still running 5 s after its terminal went (killed)");
    assert!(
        err.contains(&format!("saved to {}", save.display())),
        "stderr: {err}"
    );
    assert!(err.contains("the terminal is gone"), "stderr: {err}");
    assert_eq!(status.code(), Some(1), "stderr: {err}");
    assert_ne!(
        saved_at_start, saved_at_end,
        "the save was not written again as the terminal went"
    );
}
