//! Bounds on the work strangers can make the server do: replay viewers (a spectator's look
//! into a game's past, a finished game's replay) and the work they run, log-in,
//! registration and delete-account attempts, and games per address.
//!
//! Everything here is counted in memory, under one lock per counter, so a burst of
//! concurrent requests is counted one by one *before* any of them does its work (the
//! store's log-in failures are still written, for the other servers on the database).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A counting semaphore for blocking threads: at most `n` holders of a [`Work`] at once;
/// the others wait their turn (in no particular order).
#[derive(Debug)]
pub struct WorkGate {
    max: usize,
    busy: Mutex<usize>,
    freed: Condvar,
}

/// One unit of [`WorkGate`]'s budget, given back when dropped.
#[derive(Debug)]
pub struct Work<'a>(&'a WorkGate);

impl WorkGate {
    /// A gate letting `max` (at least 1) through at once.
    #[must_use]
    pub fn new(max: usize) -> WorkGate {
        WorkGate {
            max: max.max(1),
            busy: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// Wait for a unit of the budget. Blocking.
    pub fn enter(&self) -> Work<'_> {
        let mut busy = lock(&self.busy);
        while *busy >= self.max {
            busy = self
                .freed
                .wait(busy)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *busy += 1;
        Work(self)
    }

    /// A unit of the budget if one is free now; `None` without waiting.
    #[must_use]
    pub fn try_enter(&self) -> Option<Work<'_>> {
        let mut busy = lock(&self.busy);
        if *busy >= self.max {
            return None;
        }
        *busy += 1;
        Some(Work(self))
    }

    /// Units in all.
    #[must_use]
    pub fn max(&self) -> usize {
        self.max
    }

    /// Units in use now.
    #[must_use]
    pub fn busy(&self) -> usize {
        *lock(&self.busy)
    }
}

impl Drop for Work<'_> {
    fn drop(&mut self) {
        *lock(&self.0.busy) -= 1;
        self.0.freed.notify_one();
    }
}

/// How many replay viewers may exist at once: in all, and looking into one game's past.
/// A viewer's place is held until it has ended (not merely until its page left),
/// so a page that opens and closes viewers fast cannot stack up viewers still working.
#[derive(Debug)]
pub struct ViewerBudget {
    max_total: usize,
    max_per_game: usize,
    counts: Mutex<(usize, HashMap<u64, usize>)>,
}

/// A replay viewer's place in the [`ViewerBudget`], given back when dropped.
#[derive(Debug)]
pub struct ViewerSlot {
    budget: Arc<ViewerBudget>,
    game: Option<u64>,
}

impl ViewerBudget {
    /// `max_total` viewers in all, `max_per_game` into one game's past.
    #[must_use]
    pub fn new(max_total: usize, max_per_game: usize) -> ViewerBudget {
        ViewerBudget {
            max_total,
            max_per_game,
            counts: Mutex::new((0, HashMap::new())),
        }
    }

    /// A place for a viewer (of game `game`'s past, or of a finished game: `None`).
    ///
    /// # Errors
    /// A message for the page when the budget is spent.
    pub fn reserve(self: &Arc<Self>, game: Option<u64>) -> Result<ViewerSlot, String> {
        let mut c = lock(&self.counts);
        if c.0 >= self.max_total {
            return Err(format!(
                "the server is busy replaying for others ({} viewers at once); try again in a moment",
                self.max_total
            ));
        }
        if let Some(id) = game {
            let n = c.1.entry(id).or_insert(0);
            if *n >= self.max_per_game {
                return Err(format!(
                    "{} spectators are looking into this game's past already; try again in a moment",
                    self.max_per_game
                ));
            }
            *n += 1;
        }
        c.0 += 1;
        Ok(ViewerSlot {
            budget: Arc::clone(self),
            game,
        })
    }

    /// Viewers now.
    #[must_use]
    pub fn in_use(&self) -> usize {
        lock(&self.counts).0
    }
}

impl Drop for ViewerSlot {
    fn drop(&mut self) {
        let mut c = lock(&self.budget.counts);
        c.0 = c.0.saturating_sub(1);
        if let Some(id) = self.game
            && let Some(n) = c.1.get_mut(&id)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.1.remove(&id);
            }
        }
    }
}

/// Events per key in a sliding window, counted under one lock: [`Window::try_take`] checks
/// and counts in one step, so concurrent callers cannot all slip under the limit.
#[derive(Debug)]
pub struct Window {
    span: Duration,
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Window {
    /// Events are remembered for `span`.
    #[must_use]
    pub fn new(span: Duration) -> Window {
        Window {
            span,
            events: Mutex::new(HashMap::new()),
        }
    }

    fn prune(&self, map: &mut HashMap<String, VecDeque<Instant>>, now: Instant) {
        let span = self.span;
        if map.len() > 10_000 {
            map.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < span));
        }
        for q in map.values_mut() {
            while q.front().is_some_and(|t| now.duration_since(*t) >= span) {
                q.pop_front();
            }
        }
    }

    /// Events of `key` in the window now.
    #[must_use]
    pub fn count(&self, key: &str) -> usize {
        let now = Instant::now();
        let map = lock(&self.events);
        map.get(key).map_or(0, |q| {
            q.iter()
                .filter(|t| now.duration_since(**t) < self.span)
                .count()
        })
    }

    /// Count one event for every key of `keys` if each `(key, limit)` is under its limit;
    /// `false` (nothing counted) when one is not.
    pub fn try_take(&self, keys: &[(&str, usize)]) -> bool {
        self.try_take_by(|_| keys.iter().map(|(k, l)| ((*k).to_owned(), *l)).collect())
            .is_some()
    }

    /// As [`Window::try_take`], with the keys and limits chosen by `plan` from the counts
    /// now (it is given a function from a key to its count), under the same lock: the
    /// keys counted, or `None`.
    pub fn try_take_by(
        &self,
        plan: impl FnOnce(&dyn Fn(&str) -> usize) -> Vec<(String, usize)>,
    ) -> Option<Vec<String>> {
        let now = Instant::now();
        let mut map = lock(&self.events);
        if map.len() > 10_000 {
            self.prune(&mut map, now);
        }
        let span = self.span;
        let keys = {
            let snapshot = &*map;
            let live = |k: &str| {
                snapshot.get(k).map_or(0, |q| {
                    q.iter().filter(|t| now.duration_since(**t) < span).count()
                })
            };
            let keys = plan(&live);
            if keys.iter().any(|(k, limit)| live(k) >= *limit) {
                return None;
            }
            keys
        };
        for (k, _) in &keys {
            let q = map.entry(k.clone()).or_default();
            while q.front().is_some_and(|t| now.duration_since(*t) >= span) {
                q.pop_front();
            }
            q.push_back(now);
        }
        Some(keys.into_iter().map(|(k, _)| k).collect())
    }

    /// Forget one event of each of `keys` (the newest): an attempt that succeeded.
    pub fn give_back(&self, keys: &[&str]) {
        let mut map = lock(&self.events);
        for k in keys {
            if let Some(q) = map.get_mut(*k) {
                q.pop_back();
                if q.is_empty() {
                    map.remove(*k);
                }
            }
        }
    }
}

/// Whether `ip` is in the network `net`/`len` (an IPv4-mapped IPv6 address counts as its
/// IPv4 address).
#[must_use]
pub fn in_net(ip: std::net::IpAddr, net: std::net::IpAddr, len: u8) -> bool {
    use std::net::IpAddr;
    let canon = |a: IpAddr| match a {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(a, IpAddr::V4),
        v4 => v4,
    };
    match (canon(ip), canon(net)) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let len = u32::from(len.min(32));
            let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let len = u32::from(len.min(128));
            let mask = if len == 0 {
                0
            } else {
                u128::MAX << (128 - len)
            };
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

/// An address or network as `--trusted-proxy` takes it: `ADDR` or `ADDR/LEN`.
///
/// # Errors
/// A message for the command line.
pub fn parse_net(s: &str) -> Result<(std::net::IpAddr, u8), String> {
    let (addr, len) = match s.split_once('/') {
        Some((a, l)) => (a, Some(l)),
        None => (s, None),
    };
    let ip: std::net::IpAddr = addr
        .parse()
        .map_err(|_| format!("{s:?} is not an address or ADDR/LEN"))?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    let len = match len {
        Some(l) => l
            .parse::<u8>()
            .ok()
            .filter(|l| *l <= max)
            .ok_or_else(|| format!("{s:?}: the prefix length is 0 to {max}"))?,
        None => max,
    };
    Ok((ip, len))
}

#[cfg(test)]
mod tests {
    #[test]
    fn networks_match_their_addresses_only() {
        let (n, l) = super::parse_net("10.1.0.0/16").unwrap();
        assert!(super::in_net("10.1.200.3".parse().unwrap(), n, l));
        assert!(!super::in_net("10.2.0.1".parse().unwrap(), n, l));
        assert!(super::in_net("::ffff:10.1.0.9".parse().unwrap(), n, l));
        let (n, l) = super::parse_net("127.0.0.1").unwrap();
        assert!(!super::in_net("127.0.0.2".parse().unwrap(), n, l));
        assert!(super::parse_net("1.2.3.4/33").is_err());
        assert!(super::parse_net("nonsense").is_err());
    }

    use super::*;

    #[test]
    fn a_window_counts_and_refuses_in_one_step() {
        let w = Window::new(Duration::from_secs(60));
        assert!(w.try_take(&[("a", 2), ("b", 3)]));
        assert!(w.try_take(&[("a", 2), ("b", 3)]));
        assert!(!w.try_take(&[("a", 2), ("b", 3)]));
        assert_eq!(w.count("b"), 2);
        w.give_back(&["a"]);
        assert!(w.try_take(&[("a", 2)]));
    }

    #[test]
    fn viewer_places_are_bounded_and_given_back() {
        let b = Arc::new(ViewerBudget::new(3, 2));
        let x = b.reserve(Some(1)).unwrap();
        let _y = b.reserve(Some(1)).unwrap();
        assert!(b.reserve(Some(1)).is_err());
        let _z = b.reserve(None).unwrap();
        assert!(b.reserve(Some(2)).is_err());
        drop(x);
        assert!(b.reserve(Some(1)).is_ok());
    }
}
