//! One error type for the routes, [`AppError`]: what a request could not get, answered as
//! its status and a short text or page. The store's errors and a blocking task that did
//! not finish convert into it (`?`), so a handler's work off the async runtime reads as
//! one `blocking(..).await?` instead of a match on `Ok(Ok(..))`.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;

/// Why a request is answered with an error.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The store failed, or the blocking task that asked it did not finish (503).
    #[error("the store failed: {0}")]
    Store(String),
    /// A form without this browser's CSRF token (403): nothing was done.
    #[error("a form without its CSRF token")]
    Csrf,
    /// A page for logged-in accounts, asked without a session: to `/login` (303).
    #[error("not logged in")]
    LogIn,
    /// Nothing there (404), with what to say.
    #[error("{0}")]
    NotFound(&'static str),
}

/// What a handler returns.
pub type AppResult<T = Response> = Result<T, AppError>;

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        AppError::Store(e.to_string())
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(e: tokio::task::JoinError) -> Self {
        AppError::Store(format!("the task failed: {e}"))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match self {
            AppError::Store(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "the accounts database failed; try again later",
            )
                .into_response(),
            AppError::Csrf => (
                StatusCode::FORBIDDEN,
                [(header::CACHE_CONTROL, "no-store")],
                crate::html::Html::literal(
                    "<!doctype html><title>Refused</title><p>This form is out of date or came from another site, so nothing was done. <a href=/>Back to the lobby</a>, reload and try again.</p>",
                ),
            )
                .into_response(),
            AppError::LogIn => {
                (StatusCode::SEE_OTHER, [(header::LOCATION, "/login")]).into_response()
            }
            AppError::NotFound(what) => (StatusCode::NOT_FOUND, what).into_response(),
        }
    }
}

/// Run `f` on a blocking thread (the store and the files are synchronous); its answer, or
/// [`AppError::Store`] when the task did not finish.
///
/// # Errors
/// The task panicked or was cancelled.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    Ok(tokio::task::spawn_blocking(f).await?)
}
