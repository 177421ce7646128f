//! Accounts: names and passwords, argon2id hashing, log-in sessions, CSRF tokens, log-in
//! rate limits. The pages and routes are in [`crate::web`]; storage is a [`Store`].
//!
//! - **Names**: 1 to [`MAX_NAME`] characters of `A-Z a-z 0-9 _ -`, unique whatever their
//!   case. **Passwords**: [`MIN_PASSWORD`] to [`MAX_PASSWORD`] bytes, not the account's name,
//!   not one character repeated, not one of [`COMMON_PASSWORDS`]; hashed with argon2id
//!   (the `argon2` crate's defaults: 19 MiB, 2 passes, a random 16-byte salt per hash,
//!   stored as a PHC string); the password itself is never stored.
//! - **Sessions**: a random 256-bit token in the `alembic_session` cookie (`HttpOnly;
//!   SameSite=Strict; Path=/`, and `Secure` with `--secure-cookies`); the store keeps only
//!   its SHA-256. Log out ends one; log out everywhere ends every session of the account.
//! - **CSRF**: every form carries a token bound to the browser's own random token (the
//!   `alembic_token` cookie) by a keyed hash with a secret made at server start; every POST
//!   is checked, before anything else happens.
//! - **Rate limits** ([`LoginGate`]): [`MAX_FAILURES`] password checks per address in
//!   [`FAILURE_WINDOW`] seconds, counted before the check (a concurrent burst cannot slip
//!   past); per name, [`MAX_FAILURES`] from addresses that failed on it, and one try from
//!   each other address (its owner is slowed, never locked out, by strangers).
//! - **One error** for an unknown name and a wrong password, and the same work for both
//!   (an unknown name is checked against a dummy hash), so the log-in page does not tell
//!   which names exist.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use crate::store::{Account, Store, StoreError};

/// Longest name, in characters.
pub const MAX_NAME: usize = 32;
/// Shortest password, in bytes.
pub const MIN_PASSWORD: usize = 8;
/// Longest password, in bytes.
pub const MAX_PASSWORD: usize = 256;
/// Failed log-ins allowed per name and per address within [`FAILURE_WINDOW`].
pub const MAX_FAILURES: u64 = 5;
/// The rate limit's window, in seconds.
pub const FAILURE_WINDOW: i64 = 60;
/// The cookie holding a log-in session's token.
pub const SESSION_COOKIE: &str = "alembic_session";

/// The one message for an unknown name and a wrong password.
pub const BAD_LOGIN: &str = "Wrong name or password.";
/// What a rate-limited log-in is told.
pub const TOO_MANY: &str = "Too many attempts: wait a minute and try again.";

/// Seconds since 1970.
#[must_use]
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Why a name or password is refused at registration, if it is.
///
/// ```
/// use alembic_web::accounts::check_name;
/// assert!(check_name("Ann_2-b").is_ok());
/// assert!(check_name("").is_err());
/// assert!(check_name("<script>").is_err());
/// assert!(check_name(&"a".repeat(33)).is_err());
/// ```
///
/// # Errors
/// A message for the page.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(format!("A name is 1 to {MAX_NAME} characters."));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err("A name may hold only letters A-Z a-z, digits, _ and -.".to_owned());
    }
    Ok(())
}

/// Passwords refused whatever their length: the most common ones of at least
/// [`MIN_PASSWORD`] bytes in published lists of leaked passwords (compared without case), as
/// NIST SP 800-63B asks of a verifier.
pub const COMMON_PASSWORDS: &[&str] = &[
    "password",
    "password1",
    "password12",
    "password123",
    "passw0rd",
    "12345678",
    "123456789",
    "1234567890",
    "11111111",
    "00000000",
    "87654321",
    "qwertyui",
    "qwerty123",
    "qwertyuiop",
    "1q2w3e4r",
    "1qaz2wsx",
    "zaq12wsx",
    "asdfghjkl",
    "abc12345",
    "abcd1234",
    "iloveyou",
    "sunshine",
    "football",
    "baseball",
    "princess",
    "superman",
    "welcome1",
    "letmein1",
    "trustno1",
    "dragon123",
    "monkey123",
    "whatever",
    "starwars",
    "computer",
    "michelle",
    "jennifer",
    "corvette",
    "mustang1",
    "shadow12",
    "master12",
];

/// Why a password is refused at registration for the account `name`, if it is: its
/// length, the name itself, one character repeated, or one of [`COMMON_PASSWORDS`].
///
/// # Errors
/// A message for the page.
pub fn check_password(name: &str, password: &str) -> Result<(), String> {
    if password.len() < MIN_PASSWORD || password.len() > MAX_PASSWORD {
        return Err(format!(
            "A password is {MIN_PASSWORD} to {MAX_PASSWORD} bytes."
        ));
    }
    let lower = password.to_lowercase();
    if lower == name.to_lowercase() {
        return Err("A password cannot be the account's name.".to_owned());
    }
    let mut chars = password.chars();
    if let Some(first) = chars.next()
        && chars.all(|c| c == first)
    {
        return Err("A password cannot be one character repeated.".to_owned());
    }
    if COMMON_PASSWORDS.contains(&lower.as_str()) {
        return Err(
            "That password is one of the most common ones, tried first by anyone guessing: \
             choose another."
                .to_owned(),
        );
    }
    Ok(())
}

/// `password`'s argon2id hash (PHC string, random salt), computed on the calling thread.
/// The server hashes on its [`Hasher`]'s threads instead, so that a burst of log-ins
/// cannot take argon2's memory many times over.
///
/// # Errors
/// No randomness for the salt, or the hasher failed.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h: PasswordHash| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches `hash` (a PHC string; a malformed one matches nothing),
/// checked on the calling thread (see [`hash_password`]).
#[must_use]
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// Threads that compute password hashes (each hash takes argon2's 19 MiB for tens of
/// milliseconds). Every hash is computed on one of them, so a burst of registrations or
/// log-ins waits its turn instead of taking memory without bound. Hashed on the callers'
/// own (blocking-pool) threads, 50 registrations at once left the server 900 MB larger and
/// 250 left it 3.6 GB larger: glibc keeps freed 19 MiB blocks in each thread's arena once
/// its mmap threshold has risen past them. On two threads the server grows by about 270 MB
/// over its first registrations and then stays there (measured over 60 in a row).
pub const HASHING_THREADS: usize = 2;

type HashJob = Box<dyn FnOnce() + Send>;

/// The server's password hasher: [`HASHING_THREADS`] threads that every hash and check
/// waits its turn for, and the hash that unknown names are checked against (so that they
/// cost what a real check costs). One per served [`crate::Server`], held in
/// [`crate::web::AppState`]; its threads end when it is dropped.
pub struct Hasher {
    queue: Option<std::sync::Mutex<std::sync::mpsc::Sender<HashJob>>>,
    dummy: String,
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hasher")
            .field("threads", &self.queue.is_some())
            .finish_non_exhaustive()
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl Hasher {
    /// Start the hashing threads and compute the dummy hash (one argon2 hash, tens of
    /// milliseconds). If no thread can be started, every hash fails and every check says
    /// no, so nobody logs in without a real check.
    #[must_use]
    pub fn new() -> Self {
        let (tx, rx) = std::sync::mpsc::channel::<HashJob>();
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        let mut started = 0;
        for i in 0..HASHING_THREADS {
            let rx = std::sync::Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("password-hash-{i}"))
                .spawn(move || {
                    loop {
                        let next = rx
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv();
                        match next {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            started += usize::from(spawned.is_ok());
        }
        let mut hasher = Self {
            queue: (started > 0).then(|| std::sync::Mutex::new(tx)),
            dummy: String::new(),
        };
        hasher.dummy = hasher.hash("no one's password, ever").unwrap_or_default();
        hasher
    }

    /// Run `job` on one of the threads and wait for its answer (`None`: no thread).
    fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let sent = self.queue.as_ref()?.lock().ok()?.send(Box::new(move || {
            let _ = tx.send(job());
        }));
        sent.ok()?;
        rx.recv().ok()
    }

    /// [`hash_password`] on a hashing thread.
    ///
    /// # Errors
    /// No thread to hash on, no randomness for the salt, or the hasher failed.
    pub fn hash(&self, password: &str) -> Result<String, String> {
        let password = password.to_owned();
        self.run(move || hash_password(&password))
            .unwrap_or_else(|| Err("no thread to hash the password on".to_owned()))
    }

    /// [`verify_password`] on a hashing thread (false when there is no thread).
    #[must_use]
    pub fn verify(&self, password: &str, hash: &str) -> bool {
        let (password, hash) = (password.to_owned(), hash.to_owned());
        self.run(move || verify_password(&password, &hash))
            .unwrap_or(false)
    }

    /// The same work as [`Hasher::verify`] against a hash of no one's password: for a
    /// name with no account, so that the time does not tell.
    pub fn verify_nobody(&self, password: &str) {
        let _ = self.verify(password, &self.dummy);
    }
}

/// A random token of `bytes` bytes, in hex.
///
/// # Errors
/// The OS has no randomness to give.
pub fn random_hex(bytes: usize) -> Result<String, getrandom::Error> {
    let mut b = vec![0u8; bytes];
    getrandom::fill(&mut b)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Whether `s` is a session token's form (64 lowercase hex digits).
#[must_use]
pub fn session_token_ok(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// `a == b` in time that does not depend on where they differ.
#[must_use]
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Makes and checks CSRF tokens: `SHA-256(secret ‖ browser token)`, so a page from another
/// site, which can neither read the browser's `HttpOnly` token nor the secret, cannot forge
/// one.
#[derive(Clone)]
pub struct Csrf {
    secret: [u8; 32],
}

impl std::fmt::Debug for Csrf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Csrf(..)")
    }
}

impl Csrf {
    /// A new secret.
    ///
    /// # Errors
    /// The OS has no randomness to give.
    pub fn new() -> Result<Csrf, getrandom::Error> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)?;
        Ok(Csrf { secret })
    }

    /// The secret in hex (to share it through the store).
    #[must_use]
    pub fn secret_hex(&self) -> String {
        self.secret.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The keeper of the secret written by [`Csrf::secret_hex`]; `None` if `hex` is not 64
    /// hex digits.
    #[must_use]
    pub fn from_hex(hex: &str) -> Option<Csrf> {
        if hex.len() != 64 || !hex.is_ascii() {
            return None;
        }
        let mut secret = [0u8; 32];
        for (i, b) in secret.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Csrf { secret })
    }

    /// The token for forms shown to the browser holding `browser`.
    #[must_use]
    pub fn token(&self, browser: &str) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(b"alembic-csrf\0");
        h.update(self.secret);
        h.update(browser.as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A browser token (the `alembic_token` cookie) this server issues: `random` (32 hex
    /// digits) followed by 32 hex digits of a keyed hash of it, so a token the client made
    /// up is told from one the server (or another sharing its database) gave.
    #[must_use]
    pub fn browser_token(&self, random: &str) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(b"alembic-browser\0");
        h.update(self.secret);
        h.update(random.as_bytes());
        let tag: String = h.finalize()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{random}{tag}")
    }

    /// Whether `token` is one [`Csrf::browser_token`] issued.
    #[must_use]
    pub fn browser_token_ok(&self, token: &str) -> bool {
        token.len() == 64 && token.is_ascii() && same(&self.browser_token(&token[..32]), token)
    }

    /// Whether `sent` is the token of `browser`.
    #[must_use]
    pub fn check(&self, browser: &str, sent: &str) -> bool {
        same(&self.token(browser), sent)
    }
}

/// Password checks let through, counted in memory *before* the check (one lock: a burst
/// of concurrent attempts is counted one by one), for log-ins and deleting an account:
///
/// - per address: [`MAX_FAILURES`] attempts in [`FAILURE_WINDOW`], whatever the names;
/// - per name: [`MAX_FAILURES`] attempts in the window from addresses that have already
///   failed on it; an address that has not gets one attempt even so (the owner's path: a
///   name under attack is slowed to one try per address, never walled off).
///
/// An attempt that succeeds is given back. The store's failures, counted after, add the
/// per-address bound across the servers sharing a database.
#[derive(Debug)]
pub struct LoginGate {
    window: crate::limits::Window,
}

/// A password check let through by [`LoginGate::enter`]; [`Ticket::succeeded`] gives its
/// counts back.
#[derive(Debug)]
pub struct Ticket<'a> {
    gate: &'a LoginGate,
    keys: Vec<String>,
}

impl Ticket<'_> {
    /// The check succeeded: it does not count against the limits.
    pub fn succeeded(self) {
        let keys: Vec<&str> = self.keys.iter().map(String::as_str).collect();
        self.gate.window.give_back(&keys);
    }
}

impl Default for LoginGate {
    fn default() -> Self {
        LoginGate {
            window: crate::limits::Window::new(std::time::Duration::from_secs(
                FAILURE_WINDOW.unsigned_abs(),
            )),
        }
    }
}

impl LoginGate {
    /// Let one password check of `name` from `addr` through, counting it; `None`: limited.
    #[must_use]
    pub fn enter(&self, addr: &str, name: &str) -> Option<Ticket<'_>> {
        let max = usize::try_from(MAX_FAILURES).unwrap_or(usize::MAX);
        let name = crate::store::name_key(name);
        let addr_key = format!("ip:{addr}");
        let pair_key = format!("pair:{addr}:{name}");
        let name_key = format!("name:{name}");
        let keys = self.window.try_take_by(|count| {
            // An address that has not tried this name lately passes the name's bound once.
            let name_limit = if count(&pair_key) == 0 {
                usize::MAX
            } else {
                max
            };
            vec![
                (addr_key, max),
                (pair_key.clone(), max),
                (name_key, name_limit),
            ]
        })?;
        Some(Ticket { gate: self, keys })
    }
}

/// How a log-in went.
#[derive(Debug)]
pub enum Login {
    /// In: the account and its new session token.
    Ok(Account, String),
    /// Unknown name or wrong password ([`BAD_LOGIN`]).
    Bad,
    /// Too many failures lately ([`TOO_MANY`]).
    Limited,
}

/// Try to log in as `name` with `password` from `addr` at `now`: checks the rate limits,
/// the password, counts a failure or starts a session. Blocking (argon2 and the store).
///
/// # Errors
/// The store failed, or no session token could be made.
pub fn log_in(
    hasher: &Hasher,
    store: &dyn Store,
    name: &str,
    password: &str,
    addr: &str,
    now: i64,
) -> Result<Login, StoreError> {
    // Per address and name, per address: a stranger's failures on a name never lock its
    // owner out from another address (the per-name bound is [`LoginGate`]'s).
    let name_key = format!("addrname:{addr}:{}", crate::store::name_key(name));
    let addr_key = format!("addr:{addr}");
    let since = now - FAILURE_WINDOW;
    // Old failures are forgotten now and then (every log-in is cheap enough).
    store.prune_login_failures(now - 10 * FAILURE_WINDOW)?;
    if store.login_failures_since(&addr_key, since)? >= MAX_FAILURES {
        return Ok(Login::Limited);
    }
    let account = if name.len() > 4 * MAX_NAME || password.len() > MAX_PASSWORD {
        None
    } else {
        store.account_by_name(name)?
    };
    let ok = match &account {
        Some(a) => hasher.verify(password, &a.password_hash),
        None => {
            hasher.verify_nobody(password);
            false
        }
    };
    match account {
        Some(a) if ok => {
            let token = random_hex(32).map_err(|e| StoreError::Db(e.to_string()))?;
            store.create_session(a.id, &token, now, now + crate::store::SESSION_SECS)?;
            Ok(Login::Ok(a, token))
        }
        _ => {
            store.record_login_failure(&name_key, now)?;
            store.record_login_failure(&addr_key, now)?;
            Ok(Login::Bad)
        }
    }
}

/// Register `name` with `password` and start a session: the account and its session token.
/// Blocking (argon2 and the store).
///
/// # Errors
/// A message for the page: the name or password is refused, the name is taken, or the
/// store failed.
pub fn register(
    hasher: &Hasher,
    store: &dyn Store,
    name: &str,
    password: &str,
    now: i64,
) -> Result<(Account, String), String> {
    check_name(name)?;
    check_password(name, password)?;
    let hash = hasher.hash(password)?;
    let id = store
        .create_account(name, &hash, now)
        .map_err(|e| match e {
            StoreError::NameTaken => "That name is taken.".to_owned(),
            e => format!("The account could not be made: {e}"),
        })?;
    let token = random_hex(32).map_err(|e| e.to_string())?;
    store
        .create_session(id, &token, now, now + crate::store::SESSION_SECS)
        .map_err(|e| format!("The session could not be started: {e}"))?;
    let account = Account {
        id,
        name: name.to_owned(),
        password_hash: hash,
        created: now,
    };
    Ok((account, token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_salted_and_verify() {
        let a = hash_password("correct horse").unwrap();
        let b = hash_password("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "a salt per hash");
        assert!(!a.contains("correct horse"));
        assert!(verify_password("correct horse", &a));
        assert!(verify_password("correct horse", &b));
        assert!(!verify_password("correct horsf", &a));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(!verify_password("", ""));
    }

    #[test]
    fn a_hasher_hashes_on_its_own_threads_and_ends_them_when_dropped() {
        let hasher = Hasher::new();
        let on_pool = hasher.hash("correct horse").unwrap();
        assert!(verify_password("correct horse", &on_pool));
        assert!(hasher.verify("correct horse", &on_pool));
        assert!(!hasher.verify("correct horsf", &on_pool));
        assert!(
            !hasher.dummy.is_empty(),
            "unknown names are checked against a real hash"
        );
        let threads = |name: &str| {
            std::fs::read_dir("/proc/self/task")
                .map(|tasks| {
                    tasks
                        .flatten()
                        .filter(|t| {
                            std::fs::read_to_string(t.path().join("comm"))
                                .is_ok_and(|c| c.trim() == name)
                        })
                        .count()
                })
                .unwrap_or(0)
        };
        let before = threads("password-hash-0");
        assert!(before >= 1, "the pool's threads are running");
        drop(hasher);
        // Dropping the hasher closes its queue; its threads see that and return.
        let mut after = before;
        for _ in 0..200 {
            after = threads("password-hash-0");
            if after < before {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(after < before, "the dropped hasher's threads ended");
    }

    #[test]
    fn passwords_and_tokens() {
        assert!(check_password("ann", "1234567").is_err());
        assert!(check_password("ann", "12345679").is_ok());
        assert!(check_password("ann", &"xy".repeat(128)).is_ok());
        assert!(check_password("ann", &"xy".repeat(128).replacen('x', "xx", 1)).is_err());
        // Weak passwords of a good length are refused, each with its reason.
        let weak = |p: &str| check_password("Annabelle", p).unwrap_err();
        assert!(weak("annabelle").contains("name"));
        assert!(weak("xxxxxxxxxx").contains("one character"));
        assert!(weak("12345678").contains("most common"));
        assert!(weak("PassWord1").contains("most common"));
        assert!(check_password("Annabelle", "annabelle's own").is_ok());
        let t = random_hex(32).unwrap();
        assert!(session_token_ok(&t));
        assert!(!session_token_ok(&t.to_uppercase()));
        assert!(!session_token_ok(&t[1..]));
        assert_ne!(t, random_hex(32).unwrap());
    }

    #[test]
    fn csrf_tokens_are_per_browser_and_per_secret() {
        let c = Csrf::new().unwrap();
        let t = c.token("browser-a");
        assert!(c.check("browser-a", &t));
        assert!(!c.check("browser-b", &t));
        assert!(!c.check("browser-a", ""));
        assert!(!c.check("browser-a", &t[..63]));
        assert!(!Csrf::new().unwrap().check("browser-a", &t));
    }
}
