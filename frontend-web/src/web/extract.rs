//! What a handler needs of a request, read here once (axum extractors) instead of each
//! handler parsing the headers by hand: the browser's token ([`Browser`], [`BrowserOrNew`]),
//! the account logged in ([`MaybeAccount`], [`LoggedIn`]), forms whose CSRF token is this
//! browser's ([`Csrf`], [`OwnForm`]), the client's address ([`ClientIp`]: the listener's,
//! which a trusted proxy's `X-Forwarded-For` already decided), its place among its
//! address's websockets ([`Place`]) and whether a websocket comes from this site
//! ([`SameOrigin`]).

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::rejection::ExtensionRejection;
use axum::extract::{ConnectInfo, Form, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::accounts::{self, SESSION_COOKIE};
use crate::server::{ConnGuard, Token};
use crate::store::Account;
use crate::web::error::{AppError, blocking};
use crate::web::state::AppState;

/// The cookie holding a browser's [`Token`].
pub const COOKIE: &str = "alembic_token";

/// The value of cookie `name`, if the request has one.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The browser's token, if its cookie holds one this server issued (a token the client
/// made up is no token).
fn token_of(st: &AppState, headers: &HeaderMap) -> Option<Token> {
    cookie(headers, COOKIE)
        .and_then(Token::parse)
        .filter(|t| st.server.token_ok(t))
}

/// The session token in the request's cookie, if well formed.
fn session_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .filter(|t| accounts::session_token_ok(t))
        .map(str::to_owned)
}

/// The account logged in with these headers' session cookie (a store failure counts as
/// logged out).
async fn account_of(st: &AppState, headers: &HeaderMap) -> Option<Account> {
    let token = session_token(headers)?;
    let store = Arc::clone(&st.server.store);
    blocking(move || store.session(&token, accounts::now()))
        .await
        .ok()?
        .ok()?
}

/// The browser's token, if its cookie holds one this server issued.
#[derive(Debug)]
pub struct Browser(pub Option<Token>);

impl FromRequestParts<AppState> for Browser {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Infallible> {
        Ok(Browser(token_of(st, &parts.headers)))
    }
}

/// The browser's token, issued now when it has none (or one this server did not issue):
/// then `cookie` is the `Set-Cookie` to send ([`with_cookie`]). `token` is `None` only when
/// no random token could be made.
#[derive(Debug)]
pub struct BrowserOrNew {
    /// The token.
    pub token: Option<Token>,
    /// Its cookie, when it is new.
    pub cookie: Option<HeaderValue>,
}

impl FromRequestParts<AppState> for BrowserOrNew {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Infallible> {
        if let Some(t) = token_of(st, &parts.headers) {
            return Ok(BrowserOrNew {
                token: Some(t),
                cookie: None,
            });
        }
        Ok(match st.server.issue_token() {
            Ok(t) => {
                // Lax: a link from another site keeps the anonymous player's game (a
                // Strict cookie is not sent on that navigation, so a new token would be
                // issued). Every form is CSRF-checked, and a websocket's Origin, whatever
                // the cookie.
                let cookie = format!(
                    "{COOKIE}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000{}",
                    t.as_str(),
                    if st.server.config.secure_cookies {
                        "; Secure"
                    } else {
                        ""
                    }
                );
                BrowserOrNew {
                    token: Some(t),
                    cookie: HeaderValue::from_str(&cookie).ok(),
                }
            }
            Err(_) => BrowserOrNew {
                token: None,
                cookie: None,
            },
        })
    }
}

/// `resp`, not to be cached, with the browser token's `cookie` if it is new.
pub fn with_cookie(mut resp: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        resp.headers_mut().insert(header::SET_COOKIE, c);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// The session token of the request's cookie, if well formed (log out).
#[derive(Debug)]
pub struct SessionCookie(pub Option<String>);

impl FromRequestParts<AppState> for SessionCookie {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Infallible> {
        Ok(SessionCookie(session_token(&parts.headers)))
    }
}

/// The account logged in with the request's session cookie, if any (a store failure
/// counts as logged out).
#[derive(Debug)]
pub struct MaybeAccount(pub Option<Account>);

impl FromRequestParts<AppState> for MaybeAccount {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Infallible> {
        Ok(MaybeAccount(account_of(st, &parts.headers).await))
    }
}

/// The account logged in; without one the request is sent to `/login`
/// ([`AppError::LogIn`]).
#[derive(Debug)]
pub struct LoggedIn(pub Account);

impl FromRequestParts<AppState> for LoggedIn {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, AppError> {
        account_of(st, &parts.headers)
            .await
            .map(LoggedIn)
            .ok_or(AppError::LogIn)
    }
}

/// The client's address: the peer's, or the client a trusted proxy names (decided by the
/// listener, `src/listen.rs`).
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ExtensionRejection;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Self::Rejection> {
        // Set by the listener on every connection; without it, axum's own refusal (500).
        let ConnectInfo(addr) = ConnectInfo::<SocketAddr>::from_request_parts(parts, st).await?;
        Ok(ClientIp(addr.ip()))
    }
}

/// A websocket's place among its address's connections (`--max-conns-per-ip`), taken
/// now and given back when dropped; or why none is left, for the socket to be told.
#[derive(Debug)]
pub struct Place(pub Result<ConnGuard, String>);

impl FromRequestParts<AppState> for Place {
    type Rejection = ExtensionRejection;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Self::Rejection> {
        let ClientIp(ip) = ClientIp::from_request_parts(parts, st).await?;
        Ok(Place(st.server.connect(ip)))
    }
}

/// Whether a websocket comes from a page of this site: its `Origin` (when it has one)
/// names the request's own host.
#[derive(Clone, Copy, Debug)]
pub struct SameOrigin(pub bool);

impl FromRequestParts<AppState> for SameOrigin {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Infallible> {
        let headers = &parts.headers;
        let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
            return Ok(SameOrigin(true));
        };
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        Ok(SameOrigin(origin.split_once("://").is_some_and(
            |(_, rest)| rest.trim_end_matches('/') == host,
        )))
    }
}

/// A form that carries a CSRF token.
pub trait CsrfField {
    /// The CSRF token the form was given.
    fn csrf(&self) -> &str;
}

/// A posted form whose CSRF token is this browser's (and the browser's token); otherwise
/// [`AppError::Csrf`], nothing done. A malformed or oversized form is refused first, as
/// axum's `Form` refuses it.
#[derive(Debug)]
pub struct Csrf<F> {
    /// The browser that was given the form.
    pub browser: Token,
    /// Its fields.
    pub form: F,
}

/// Read the browser's token from `req`'s headers, parse its form, then check the form's
/// CSRF token: the headers, the browser and the form.
async fn checked_form<F>(req: Request, st: &AppState) -> Result<(HeaderMap, Token, F), Response>
where
    F: CsrfField + DeserializeOwned + Send,
{
    let headers = req.headers().clone();
    let browser = token_of(st, &headers);
    let Form(form) = Form::<F>::from_request(req, &())
        .await
        .map_err(IntoResponse::into_response)?;
    let Some(browser) = browser.filter(|t| st.server.csrf.check(t.as_str(), form.csrf())) else {
        return Err(AppError::Csrf.into_response());
    };
    Ok((headers, browser, form))
}

impl<F> FromRequest<AppState> for Csrf<F>
where
    F: CsrfField + DeserializeOwned + Send,
{
    type Rejection = Response;

    async fn from_request(req: Request, st: &AppState) -> Result<Self, Response> {
        let (_, browser, form) = checked_form(req, st).await?;
        Ok(Csrf { browser, form })
    }
}

/// A logged-in account's posted form: the CSRF token checked first ([`Csrf`]), then the
/// session (to `/login` without one).
#[derive(Debug)]
pub struct OwnForm<F> {
    /// The browser that was given the form.
    pub browser: Token,
    /// The account logged in.
    pub account: Account,
    /// Its fields.
    pub form: F,
}

impl<F> FromRequest<AppState> for OwnForm<F>
where
    F: CsrfField + DeserializeOwned + Send,
{
    type Rejection = Response;

    async fn from_request(req: Request, st: &AppState) -> Result<Self, Response> {
        let (headers, browser, form) = checked_form(req, st).await?;
        let Some(account) = account_of(st, &headers).await else {
            return Err(AppError::LogIn.into_response());
        };
        Ok(OwnForm {
            browser,
            account,
            form,
        })
    }
}
