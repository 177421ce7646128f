//! The account forms: register, log in, log out (here or everywhere), claim an anonymous
//! game, delete the account. Every POST is CSRF-checked by its extractor ([`Csrf`],
//! [`OwnForm`]) before anything is done.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::accounts::{self, Login, SESSION_COOKIE};
use crate::html::Html;
use crate::lobby;
use crate::server::Token;
use crate::web::error::{AppError, AppResult, blocking};
use crate::web::extract::{
    BrowserOrNew, ClientIp, Csrf, CsrfField, LoggedIn, MaybeAccount, OwnForm, SessionCookie,
    with_cookie,
};
use crate::web::state::AppState;

/// What an address that registers too often is told.
const TOO_MANY_REGISTRATIONS: &str =
    "Too many registrations from your address lately: try again in an hour.";

/// The fields of the account forms (all optional: a missing one is an empty one).
#[derive(Debug, Default, Deserialize)]
pub struct AccountForm {
    /// The account's name.
    #[serde(default)]
    pub name: String,
    /// Its password.
    #[serde(default)]
    pub password: String,
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
}

/// Which account page.
#[derive(Clone, Copy, Debug)]
enum AccountPage {
    Login,
    Register,
}

/// The log-in or registration page, with `error` (escaped) if any.
fn account_page(
    st: &AppState,
    browser: Option<&Token>,
    page: AccountPage,
    error: Option<&str>,
) -> Html {
    let csrf = browser.map_or_else(String::new, |t| st.server.csrf.token(t.as_str()));
    let (title, action, button, other, autocomplete) = match page {
        AccountPage::Login => (
            "Log in",
            "/login",
            "Log in",
            "<a href=/register>Register</a> instead",
            "current-password",
        ),
        AccountPage::Register => (
            "Register",
            "/register",
            "Register",
            "<a href=/login>Log in</a> instead",
            "new-password",
        ),
    };
    let mut h = Html::new();
    h.raw("<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — ")
        .raw(title)
        .raw("</title><meta name=viewport content='width=device-width'><style>")
        .raw(lobby::STYLE)
        .raw("</style></head><body><h1>Alembic — ")
        .raw(title)
        .raw("</h1>");
    error_line(&mut h, error);
    if let AccountPage::Register = page {
        h.raw("<p>A name is 1 to ")
            .text(accounts::MAX_NAME)
            .raw(" letters, digits, _ or -; a password ")
            .text(accounts::MIN_PASSWORD)
            .raw(" to ")
            .text(accounts::MAX_PASSWORD)
            .raw(" bytes, not the name, not one character repeated, not one of the most common passwords.</p>");
    }
    h.raw("<form method=post action=")
        .raw(action)
        .raw("><input type=hidden name=csrf value='")
        .text(csrf)
        .raw("'><p><label>Name <input name=name maxlength=")
        .text(accounts::MAX_NAME)
        .raw(" autocomplete=username required></label></p><p><label>Password <input name=password type=password maxlength=")
        .text(accounts::MAX_PASSWORD)
        .raw(" autocomplete=")
        .raw(autocomplete)
        .raw(" required></label></p><p><button>")
        .raw(button)
        .raw("</button></p></form><p>")
        .raw(other)
        .raw(" · <a href=/>the lobby</a></p></body></html>");
    h
}

/// The line that says what went wrong (escaped), if anything did.
fn error_line(h: &mut Html, error: Option<&str>) {
    if let Some(e) = error {
        h.raw("<p id=error role=alert>").text(e).raw("</p>");
    }
}

/// A page response with `status`, no caching, and the browser token's cookie if new.
fn page_response(status: StatusCode, html: Html, cookie: Option<HeaderValue>) -> Response {
    with_cookie((status, html).into_response(), cookie)
}

/// The registration form (`GET /register`).
pub(crate) async fn register_page(
    State(st): State<AppState>,
    BrowserOrNew { token, cookie }: BrowserOrNew,
) -> Response {
    page_response(
        StatusCode::OK,
        account_page(&st, token.as_ref(), AccountPage::Register, None),
        cookie,
    )
}

/// The log-in form (`GET /login`).
pub(crate) async fn login_page(
    State(st): State<AppState>,
    BrowserOrNew { token, cookie }: BrowserOrNew,
) -> Response {
    page_response(
        StatusCode::OK,
        account_page(&st, token.as_ref(), AccountPage::Login, None),
        cookie,
    )
}

/// Go back to the lobby, with `cookie` set.
fn to_lobby(cookie: Option<String>) -> Response {
    let mut resp = (StatusCode::SEE_OTHER, [(header::LOCATION, "/")]).into_response();
    if let Some(v) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        resp.headers_mut().append(header::SET_COOKIE, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

fn session_cookie(st: &AppState, token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{}",
        crate::store::SESSION_SECS,
        if st.server.config.secure_cookies {
            "; Secure"
        } else {
            ""
        }
    )
}

fn session_cookie_cleared(st: &AppState) -> String {
    format!(
        "{SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0{}",
        if st.server.config.secure_cookies {
            "; Secure"
        } else {
            ""
        }
    )
}

/// Register (`POST /register`): limited per address, then the account made and logged in.
pub(crate) async fn register_post(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    Csrf { browser, form }: Csrf<AccountForm>,
) -> AppResult {
    let key = format!("ip:{ip}");
    if !st
        .server
        .registrations
        .try_take(&[(&key, st.server.config.registrations_per_hour)])
    {
        return Ok(page_response(
            StatusCode::TOO_MANY_REQUESTS,
            account_page(
                &st,
                Some(&browser),
                AccountPage::Register,
                Some(TOO_MANY_REGISTRATIONS),
            ),
            None,
        ));
    }
    let store = Arc::clone(&st.server.store);
    let hasher = Arc::clone(&st.hasher);
    let made = blocking(move || {
        accounts::register(
            &hasher,
            store.as_ref(),
            &form.name,
            &form.password,
            accounts::now(),
        )
    })
    .await?;
    Ok(match made {
        Ok((_, session)) => to_lobby(Some(session_cookie(&st, &session))),
        Err(why) => page_response(
            StatusCode::BAD_REQUEST,
            account_page(&st, Some(&browser), AccountPage::Register, Some(&why)),
            None,
        ),
    })
}

/// Log in (`POST /login`): counted before the password is checked.
pub(crate) async fn login_post(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    Csrf { browser, form }: Csrf<AccountForm>,
) -> AppResult {
    let store = Arc::clone(&st.server.store);
    let ip = ip.to_string();
    // Counted before the password is checked: a burst of attempts at once is counted one
    // by one, and the ones over the limit are never checked.
    let Some(ticket) = st.server.logins.enter(&ip, &form.name) else {
        return Ok(page_response(
            StatusCode::TOO_MANY_REQUESTS,
            account_page(
                &st,
                Some(&browser),
                AccountPage::Login,
                Some(accounts::TOO_MANY),
            ),
            None,
        ));
    };
    let hasher = Arc::clone(&st.hasher);
    let tried = blocking(move || {
        accounts::log_in(
            &hasher,
            store.as_ref(),
            &form.name,
            &form.password,
            &ip,
            accounts::now(),
        )
    })
    .await??;
    let (status, why) = match tried {
        Login::Ok(_, session) => {
            ticket.succeeded();
            return Ok(to_lobby(Some(session_cookie(&st, &session))));
        }
        Login::Bad => (StatusCode::UNAUTHORIZED, accounts::BAD_LOGIN),
        Login::Limited => (StatusCode::TOO_MANY_REQUESTS, accounts::TOO_MANY),
    };
    Ok(page_response(
        status,
        account_page(&st, Some(&browser), AccountPage::Login, Some(why)),
        None,
    ))
}

/// The fields of the forms that only carry their CSRF token.
#[derive(Debug, Default, Deserialize)]
pub struct CsrfForm {
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
}

/// Log out (`POST /logout`): this session ends.
pub(crate) async fn logout_post(
    State(st): State<AppState>,
    SessionCookie(session): SessionCookie,
    _: Csrf<CsrfForm>,
) -> AppResult {
    if let Some(token) = session {
        let store = Arc::clone(&st.server.store);
        blocking(move || store.revoke_session(&token)).await??;
    }
    Ok(to_lobby(Some(session_cookie_cleared(&st))))
}

/// Log out everywhere (`POST /logout-everywhere`): every session of the account ends, and
/// its games' connections on this server close.
pub(crate) async fn logout_everywhere_post(
    State(st): State<AppState>,
    MaybeAccount(account): MaybeAccount,
    _: Csrf<CsrfForm>,
) -> AppResult {
    if let Some(account) = account {
        let store = Arc::clone(&st.server.store);
        blocking(move || store.revoke_all_sessions(account.id)).await??;
        // And its games' open connections on this server.
        st.server.end_connections_of(account.id);
    }
    Ok(to_lobby(Some(session_cookie_cleared(&st))))
}

/// Make this browser's anonymous game the account's (`POST /claim`).
pub(crate) async fn claim_post(
    State(st): State<AppState>,
    OwnForm {
        browser, account, ..
    }: OwnForm<CsrfForm>,
) -> AppResult {
    let server = Arc::clone(&st.server);
    match blocking(move || server.claim(&browser, account.id)).await? {
        Ok(_) => Ok(to_lobby(None)),
        Err(crate::store::StoreError::NotOwner(id)) => {
            let mut h = Html::new();
            h.raw("<!doctype html><title>Not claimed</title><p>Game ")
                .text(id)
                .raw(" belongs to another account. <a href=/>Back to the lobby</a></p>");
            Ok((StatusCode::CONFLICT, h).into_response())
        }
        Err(e) => Err(e.into()),
    }
}

/// The form that deletes the account (`GET /delete-account`).
pub(crate) async fn delete_account_page(
    State(st): State<AppState>,
    BrowserOrNew { token, cookie }: BrowserOrNew,
    LoggedIn(account): LoggedIn,
) -> AppResult {
    let token = token.ok_or_else(|| AppError::Store("no browser token".to_owned()))?;
    Ok(with_cookie(
        delete_page(&st, &token, &account.name, None).into_response(),
        cookie,
    ))
}

fn delete_page(st: &AppState, browser: &Token, name: &str, error: Option<&str>) -> Html {
    let csrf = st.server.csrf.token(browser.as_str());
    let mut h = Html::new();
    h.raw("<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — delete my account</title><style>")
        .raw(lobby::STYLE)
        .raw("</style></head><body><h1>Delete the account ")
        .text(name)
        .raw("</h1>");
    error_line(&mut h, error);
    h.raw("<p>This deletes the account, its sessions, and every game of it: saves, recordings, ")
        .raw("morgue files and scores. It cannot be undone.</p>")
        .raw("<form method=post action=/delete-account><input type=hidden name=csrf value='")
        .text(csrf)
        .raw("'><p><label>Password <input name=password type=password maxlength=")
        .text(accounts::MAX_PASSWORD)
        .raw(" autocomplete=current-password required></label></p>")
        .raw("<p><button id=delete>Delete everything</button></p></form><p><a href=/>the lobby</a></p></body></html>");
    h
}

/// The delete form's fields.
#[derive(Debug, Default, Deserialize)]
pub struct DeleteForm {
    /// The CSRF token the form was given.
    #[serde(default)]
    pub csrf: String,
    /// The account's password, asked again.
    #[serde(default)]
    pub password: String,
}

/// Delete the account (`POST /delete-account`): the password asked again, under the
/// log-in's limits; refused while one of its games is played.
pub(crate) async fn delete_account_post(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    OwnForm {
        browser,
        account,
        form,
    }: OwnForm<DeleteForm>,
) -> AppResult {
    // The password is checked under the log-in's limits.
    let Some(ticket) = st.server.logins.enter(&ip.to_string(), &account.name) else {
        return Ok(page_response(
            StatusCode::TOO_MANY_REQUESTS,
            delete_page(&st, &browser, &account.name, Some(accounts::TOO_MANY)),
            None,
        ));
    };
    let server = Arc::clone(&st.server);
    let id = account.id;
    let hash = account.password_hash.clone();
    let hasher = Arc::clone(&st.hasher);
    let done = blocking(move || {
        if form.password.len() > accounts::MAX_PASSWORD || !hasher.verify(&form.password, &hash) {
            return Ok(Err(accounts::BAD_LOGIN.to_owned()));
        }
        server.delete_account(id).map(|r| r.map(|_| ()))
    })
    .await
    .and_then(|r| r.map_err(AppError::from));
    // Only a wrong password counts against the limits.
    if !matches!(&done, Ok(Err(why)) if why == accounts::BAD_LOGIN) {
        ticket.succeeded();
    }
    Ok(match done? {
        Ok(()) => to_lobby(Some(session_cookie_cleared(&st))),
        Err(why) => page_response(
            StatusCode::FORBIDDEN,
            delete_page(&st, &browser, &account.name, Some(&why)),
            None,
        ),
    })
}

impl CsrfField for AccountForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }
}

impl CsrfField for CsrfForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }
}

impl CsrfField for DeleteForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }
}
