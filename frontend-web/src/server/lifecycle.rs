//! What the server does on a schedule and at its end: idle and abandoned games saved and
//! stopped (leases renewed), log out everywhere's connections ended, old anonymous games
//! expired, and stopping.

use std::sync::Arc;
use std::time::Instant;

use super::{Command, LOGGED_OUT, LiveGame, Server, lock};
use crate::store::AccountId;

impl Server {
    /// Save and stop every game that idled out or whose player left, and renew this
    /// server's hold on its games (every third of [`super::Config::lease`]); returns how many were
    /// stopped. Blocking (the store).
    pub fn reap(&self) -> usize {
        let renew = {
            let mut last = lock(&self.last_renewal);
            let due = last.elapsed() >= self.config.lease / 3;
            if due {
                *last = Instant::now();
            }
            due
        };
        if renew {
            let now = crate::accounts::now();
            if let Err(e) = self.store.renew_leases(&self.name, self.lease_until(now)) {
                eprintln!("alembic-web: cannot renew this server's hold on its games: {e}");
            }
        }
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        let mut n = 0;
        for g in games {
            let st = g.state();
            let idle = st.last_input.elapsed() >= self.config.idle_timeout;
            let gone = st
                .left_at
                .is_some_and(|t| t.elapsed() >= self.config.leave_grace);
            if (idle || gone) && !st.quitting && st.held {
                // Not reading its queue: told by the flag, it stops within a retry pause
                // with its move unanswered.
                drop(st);
                g.state().quitting = true;
                n += 1;
            } else if (idle || gone) && !st.quitting {
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

    /// Close the player connections to `account`'s games on this server (it logged out
    /// everywhere): a page comes back only as their owner by its browser token, or logged in
    /// again. Returns how many were closed.
    pub fn end_connections_of(&self, account: AccountId) -> usize {
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        let mut n = 0;
        for g in games.iter().filter(|g| g.account() == Some(account)) {
            if let Some(kick) = g.state().kick.take()
                && kick.send(LOGGED_OUT).is_ok()
            {
                n += 1;
            }
        }
        n
    }

    /// Delete the anonymous games untouched for [`super::Config::anon_expiry`] (rows, saves,
    /// recordings, morgue files, in the store); returns how many. Blocking (the store).
    pub fn expire_anonymous(&self) -> u64 {
        let Some(age) = self.config.anon_expiry else {
            return 0;
        };
        let now = crate::accounts::now();
        let before = now - i64::try_from(age.as_secs()).unwrap_or(i64::MAX / 2);
        match self.store.expire_anonymous(before, now) {
            Ok(n) => {
                if n > 0 {
                    eprintln!(
                        "alembic-web: {n} anonymous games untouched since before {before} expired"
                    );
                }
                n
            }
            Err(e) => {
                eprintln!("alembic-web: cannot expire old anonymous games: {e}");
                0
            }
        }
    }

    /// Stop: no new games; every game saves and ends; returns how many games were running.
    /// Blocks (call it from a blocking thread).
    pub fn stop(&self) -> usize {
        let _ = self.stopping.send(true);
        let games: Vec<Arc<LiveGame>> = self.reg().live.values().cloned().collect();
        // Every game told first: one holding a move for its journal stops within a retry
        // pause, while its full queue may keep the send below waiting until then.
        for g in &games {
            g.state().quitting = true;
        }
        for g in &games {
            g.send_waiting(Command::Quit);
        }
        // Each game leaves the registry once it is filed ([`Server::game_ended`]); those
        // being made join it, told to stop.
        loop {
            {
                let reg = self.reg();
                if reg.live.is_empty() && reg.starting.is_empty() {
                    break;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        games.len()
    }
}
