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
}
