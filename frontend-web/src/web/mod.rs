//! The routes, by resource: the router (`router.rs`), the pages, the files, the account
//! forms, and the websockets that play, watch and replay; what a handler needs of a request
//! comes from the extractors (`extract.rs`), and every error it answers is an
//! [`AppError`] (`error.rs`).

pub mod account;
pub mod error;
pub mod extract;
pub mod files;
pub mod pages;
pub mod play;
pub mod replay;
pub mod router;
pub mod sockets;
pub mod state;
pub mod watch;

pub use account::{AccountForm, CsrfForm, DeleteForm};
pub use error::{AppError, AppResult};
pub use extract::COOKIE;
pub use play::PlayQuery;
pub use router::{CSP, MAX_BODY, router};
pub use sockets::SEND_TIMEOUT;
pub use state::AppState;
