//! What every handler shares.

use std::sync::Arc;

use crate::server::Server;

/// Shared by every handler.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The server.
    pub server: Arc<Server>,
    /// The tile atlas (PNG).
    pub atlas: Arc<Vec<u8>>,
    /// The password hasher: its threads bound argon2's memory for every log-in,
    /// registration and account deletion this server checks.
    pub hasher: Arc<crate::accounts::Hasher>,
}
