//! The lobby page (games in progress, the score table, finished games with their morgue
//! files and recordings) and the safe serving of those files. Every name that reaches the
//! page is HTML-escaped; files are served only by plain names listed in their directory.

use std::path::{Path, PathBuf};

use crate::html::Html;

use crate::server::{Server, Token};
use crate::store::{Account, GameFilter, GameRecord, GameStatus};

pub use crate::games::{MORGUE_DIR, RECORDS_DIR};
/// How many finished games the lobby lists.
const LISTED: u32 = 40;

pub use crate::html::escape;

/// A player's name as the lobby keeps it: printable, at most 20 characters, `anonymous`
/// when empty.
#[must_use]
pub fn clean_name(name: &str) -> String {
    let n: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(20)
        .collect::<String>()
        .trim()
        .to_owned();
    if n.is_empty() {
        "anonymous".to_owned()
    } else {
        n
    }
}

/// Whether `name` is a plain file name: letters, digits, `.`, `-`, `_`, not starting with a
/// dot, at most 200 bytes.
#[must_use]
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// The file `name` in `data/dir`, if `name` is plain and a regular file of that name is
/// there.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("alembic-web-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("morgue")).unwrap();
/// std::fs::write(dir.join("morgue/a.txt"), "x").unwrap();
/// use alembic_web::lobby::listed_file;
/// assert!(listed_file(&dir, "morgue", "a.txt").is_some());
/// assert!(listed_file(&dir, "morgue", "../morgue/a.txt").is_none());
/// assert!(listed_file(&dir, "morgue", "b.txt").is_none());
/// ```
#[must_use]
pub fn listed_file(data: &Path, dir: &str, name: &str) -> Option<PathBuf> {
    if !plain_name(name) {
        return None;
    }
    let path = data.join(dir).join(name);
    std::fs::symlink_metadata(&path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|_| path)
}

/// The server's resident memory, from `/proc/self/statm` (Linux).
#[must_use]
pub fn rss_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The pages' style sheet.
pub const STYLE: &str = "body{background:#141210;color:#ddd3c0;font:15px/1.4 'DejaVu Sans Mono',monospace;margin:2em}\
a{color:#e8b04a}table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left}\
th{color:#a89a80;border-bottom:1px solid #443c30}h1{color:#e8b04a;font-size:22px}h2{font-size:17px;color:#c8a070}\
pre{background:#1d1a16;padding:8px}input,select,button{font:inherit;background:#2a251f;color:#ddd3c0;border:1px solid #554b3c;padding:3px 6px}";

/// The lobby page for the browser holding `token`, logged in as `account` if it is.
/// Blocking (the store).
#[must_use]
pub fn page(server: &Server, token: Option<&Token>, account: Option<&Account>) -> Html {
    let mut h = Html::new();
    h.raw("<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — lobby</title>")
        .raw("<meta name=viewport content='width=device-width'><style>")
        .raw(STYLE)
        .raw("</style></head><body><h1>Alembic</h1>");
    let csrf = token.map_or_else(String::new, |t| server.csrf.token(t.as_str()));
    let button = |action: &'static str, id: &'static str, label: &'static str| {
        let mut b = Html::new();
        b.raw("<form method=post action=")
            .raw(action)
            .raw(" style=display:inline><input type=hidden name=csrf value='")
            .text(&csrf)
            .raw("'><button id=")
            .raw(id)
            .raw(">")
            .raw(label)
            .raw("</button></form>");
        b
    };
    let mine = token.and_then(|t| server.game_of(t));
    match account {
        Some(a) => {
            h.raw("<p id=account>Logged in as <b id=who>")
                .text(&a.name)
                .raw("</b> — <a id=my-games href='/players/")
                .text(&a.name)
                .raw("'>my games</a> ")
                .html(&button("/logout", "logout", "Log out"))
                .raw(" ")
                .html(&button(
                    "/logout-everywhere",
                    "logout-everywhere",
                    "Log out everywhere",
                ))
                .raw(" <a href=/delete-account>delete my account</a></p>");
            // This browser's game, started before logging in: it can become the account's.
            if let Some((id, game, _)) = mine
                && server.store.game_owner(id).ok().flatten().is_none()
            {
                h.raw("<p>Your ")
                    .text(game)
                    .raw(" game ")
                    .text(id)
                    .raw(" was started without an account: ")
                    .html(&button("/claim", "claim", "Make it this account's"))
                    .raw("</p>");
            }
        }
        None => {
            h.raw("<p id=account>Playing anonymously — <a href=/login>log in</a> or <a href=/register>register</a></p>");
        }
    }
    // The player's own game, and a new one.
    let form = |fresh: bool| {
        let mut f = Html::new();
        f.raw("<form action=/play method=get><label>Name <input name=name maxlength=20 ")
            .raw("placeholder=anonymous></label> <label>Game <select name=game>");
        for k in server.games.playable() {
            f.raw("<option>").text(k.name()).raw("</option>");
        }
        f.raw("</select></label> ");
        if fresh {
            f.raw("<input type=hidden name=new value=1>");
        }
        f.raw("<button id=new>New game</button></form>");
        f
    };
    match mine {
        Some((id, game, true)) => {
            h.raw("<p>Your ")
                .text(game)
                .raw(" game is in progress — <a id=continue href='/play?id=")
                .text(id)
                .raw("'>back to it</a></p>");
        }
        Some((id, game, false)) => {
            h.raw("<p>Your ")
                .text(game)
                .raw(" game is saved — <a id=continue href='/play?id=")
                .text(id)
                .raw("'>continue it</a>, or start another (the save stays on disk):</p>")
                .html(&form(true));
        }
        None => {
            h.html(&form(false));
        }
    }
    h.raw("<h2>Games in progress</h2><table id=games><tr><th>Player<th>Game<th>Depth<th>Turn<th>Idle<th>Spectators<th></tr>");
    for r in server.all_rows() {
        h.raw("<tr><td>")
            .text(&r.player)
            .raw("<td>")
            .text(r.game)
            .raw("<td>")
            .text(depth(r.depth))
            .raw("<td>")
            .text(r.turn)
            .raw("<td>")
            .text(r.idle_secs)
            .raw(if r.connected { "s" } else { "s (away)" })
            .raw("<td>")
            .text(r.spectators)
            .raw("<td>");
        if r.here {
            h.raw("<a href='/watch/").text(r.id).raw("'>watch</a>");
        } else {
            h.raw("on server ").text(&r.server);
        }
        h.raw("</tr>");
    }
    h.raw("</table><h2>Scores</h2><div id=scores>");
    for kind in server.games.playable() {
        h.raw("<h3>").text(kind.name()).raw("</h3>");
        match server.store.top_scores(kind.name(), TOP_SCORES) {
            Ok(rows) if rows.is_empty() => {
                h.raw("<p>No game has ended yet.</p>");
            }
            Ok(rows) => score_table(&mut h, &rows),
            Err(e) => {
                h.raw("<p>The score table cannot be read: ")
                    .text(e)
                    .raw("</p>");
            }
        }
    }
    h.raw("</div><h2>Finished games</h2>");
    finished_table(&mut h, &server.finished(LISTED));
    h.raw("<script src=/lobby.js></script></body></html>");
    h
}

/// A depth as the tables show it (`—`: none).
fn depth(d: Option<i32>) -> String {
    d.map_or_else(|| "—".to_owned(), |d| d.to_string())
}

/// How many rows of each game's score table the lobby shows (DCSS's and Brogue's top 20).
const TOP_SCORES: u32 = 20;

fn score_table(h: &mut Html, rows: &[crate::store::Score]) {
    h.raw("<table class=scores><tr><th>#<th>Points<th>Player<th>Depth<th>Turns<th></tr>");
    for (i, r) in rows.iter().enumerate() {
        h.raw("<tr><td>")
            .text(i + 1)
            .raw("<td>")
            .text(r.points)
            .raw("<td>")
            .text(&r.player)
            .raw("<td>")
            .text(depth(r.depth))
            .raw("<td>")
            .text(r.turn)
            .raw("<td><a href='/games/")
            .text(r.game_id)
            .raw("'>game</a></tr>");
    }
    h.raw("</table>");
}

/// The links of a finished game: its page, its replay, its morgue file.
fn finished_links(h: &mut Html, id: u64) {
    h.raw("<a href='/games/")
        .text(id)
        .raw("'>game</a> · <a href='/replay/game-")
        .text(id)
        .raw("'>replay</a> · <a href='/morgue/game-")
        .text(id)
        .raw("'>morgue</a>");
}

fn finished_table(h: &mut Html, games: &[GameRecord]) {
    h.raw("<table id=finished><tr><th>Player<th>Game<th>Depth<th>Turn<th>Files</tr>");
    for f in games {
        h.raw("<tr><td>")
            .text(&f.player)
            .raw("<td>")
            .text(&f.kind)
            .raw("<td>")
            .text(depth(f.depth))
            .raw("<td>")
            .text(f.turn)
            .raw("<td>");
        finished_links(h, f.id);
        h.raw("</tr>");
    }
    h.raw("</table>");
}

/// A page's head, its title `title`, and the link back to the lobby.
fn head(title: impl std::fmt::Display) -> Html {
    let mut h = Html::new();
    h.raw("<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — ")
        .text(title)
        .raw("</title><meta name=viewport content='width=device-width'><style>")
        .raw(STYLE)
        .raw("</style></head><body><p><a href=/>Lobby</a></p>");
    h
}

/// The public page of the player called `name`: their games, every status, newest first,
/// with the morgue file and replay of each finished one. `None`: no such account.
/// Blocking (the store).
#[must_use]
pub fn player_page(server: &Server, name: &str) -> Option<Html> {
    let account = server.store.account_by_name(name).ok().flatten()?;
    let games = server
        .store
        .games(GameFilter::Account(account.id), 200)
        .unwrap_or_default();
    let mut h = head(&account.name);
    h.raw("<h1 id=player>")
        .text(&account.name)
        .raw("</h1><table id=player-games><tr><th>Game<th>Id<th>Status<th>Depth<th>Turn<th></tr>");
    for g in &games {
        h.raw("<tr><td>")
            .text(&g.kind)
            .raw("<td>")
            .text(g.id)
            .raw("<td>")
            .text(g.status.as_str())
            .raw("<td>")
            .text(depth(g.depth))
            .raw("<td>")
            .text(g.turn)
            .raw("<td>");
        match g.status {
            GameStatus::Finished => finished_links(&mut h, g.id),
            GameStatus::Live | GameStatus::Saved => {}
        }
        h.raw("</tr>");
    }
    h.raw("</table></body></html>");
    Some(h)
}

/// The public page of finished game `id`: who, where it ended, its morgue file (escaped)
/// and a link to its replay. `None`: no such finished game. Blocking (the store).
#[must_use]
pub fn game_page(server: &Server, id: u64) -> Option<Html> {
    let g = server
        .store
        .game(id)
        .ok()
        .flatten()
        .filter(|g| g.status == GameStatus::Finished)?;
    let owner = g
        .account
        .and_then(|a| server.store.account(a).ok().flatten());
    let mut h = head(format_args!("game {id}"));
    h.raw("<h1>")
        .text(&g.kind)
        .raw(" game ")
        .text(id)
        .raw("</h1><p id=summary>Played by ")
        .text(&g.player);
    if let Some(a) = owner {
        h.raw(" (<a href='/players/")
            .text(&a.name)
            .raw("'>")
            .text(&a.name)
            .raw("</a>)");
    }
    h.raw(" — depth ")
        .text(depth(g.depth))
        .raw(", turn ")
        .text(g.turn)
        .raw(". <a href='/replay/game-")
        .text(id)
        .raw("'>Watch the replay</a> · <a href='/records/game-")
        .text(id)
        .raw("'>recording file</a></p>");
    match server.store.morgue(id) {
        Ok(Some(text)) => {
            h.raw("<pre id=morgue>").text(text).raw("</pre>");
        }
        _ => {
            h.raw("<p>No morgue file.</p>");
        }
    }
    h.raw("</body></html>");
    Some(h)
}

/// The game id named by `game-ID` (the lobby's links to stored morgues and recordings).
#[must_use]
pub fn stored_id(name: &str) -> Option<u64> {
    name.strip_prefix("game-")
        .filter(|n| !n.is_empty() && n.len() <= 19 && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_or_refused() {
        for bad in [
            "", "..", "../x", "a/b", ".hidden", "a\\b", "a%2fb", "x\0", "é",
        ] {
            assert!(!plain_name(bad), "{bad:?}");
        }
        assert!(plain_name("alchemy-seed12-1700000000.replay"));
        assert_eq!(clean_name("  "), "anonymous");
        assert_eq!(clean_name("a\u{7}b<"), "ab<");
        assert_eq!(clean_name(&"x".repeat(50)).len(), 20);
    }
}
