//! The lobby page (games in progress, the score table, finished games with their morgue
//! files and recordings) and the safe serving of those files. Every name that reaches the
//! page is HTML-escaped; files are served only by plain names listed in their directory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::server::{Server, Token};
use crate::store::{Account, GameFilter, GameRecord, GameStatus};

pub use crate::games::{MORGUE_DIR, RECORDS_DIR};
/// How many finished games the lobby lists.
const LISTED: u32 = 40;

/// `text` with `& < > " '` escaped, for HTML text and attribute values.
///
/// ```
/// assert_eq!(alembic_web::lobby::escape("<a href='x'>&\""), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
/// ```
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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
pub fn page(server: &Server, token: Option<&Token>, account: Option<&Account>) -> String {
    let mut h = String::with_capacity(8192);
    let _ = write!(
        h,
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — lobby</title>\
         <meta name=viewport content='width=device-width'><style>{STYLE}</style></head><body>\
         <h1>Alembic</h1>"
    );
    let csrf = token.map_or_else(String::new, |t| server.csrf.token(t.as_str()));
    let button = |action: &str, id: &str, label: &str| {
        format!(
            "<form method=post action={action} style=display:inline><input type=hidden name=csrf value='{csrf}'><button id={id}>{label}</button></form>"
        )
    };
    let mine = token.and_then(|t| server.game_of(t));
    match account {
        Some(a) => {
            let _ = write!(
                h,
                "<p id=account>Logged in as <b id=who>{}</b> — <a id=my-games href='/players/{}'>my games</a> {} {} <a href=/delete-account>delete my account</a></p>",
                escape(&a.name),
                escape(&a.name),
                button("/logout", "logout", "Log out"),
                button("/logout-everywhere", "logout-everywhere", "Log out everywhere")
            );
            // This browser's game, started before logging in: it can become the account's.
            if let Some((id, game, _)) = mine
                && server.store.game_owner(id).ok().flatten().is_none()
            {
                let _ = write!(
                    h,
                    "<p>Your {game} game {id} was started without an account: {}</p>",
                    button("/claim", "claim", "Make it this account's")
                );
            }
        }
        None => h.push_str(
            "<p id=account>Playing anonymously — <a href=/login>log in</a> or <a href=/register>register</a></p>",
        ),
    }
    // The player's own game, and a new one.
    let options: String = crate::games::GameKind::PLAYABLE
        .iter()
        .map(|k| format!("<option>{}</option>", k.name()))
        .collect();
    let form = |fresh: bool| {
        format!(
            "<form action=/play method=get><label>Name <input name=name maxlength=20 \
             placeholder=anonymous></label> <label>Game <select name=game>{options}</select></label> \
             {}<button id=new>New game</button></form>",
            if fresh {
                "<input type=hidden name=new value=1>"
            } else {
                ""
            }
        )
    };
    match mine {
        Some((id, game, true)) => {
            let _ = write!(
                h,
                "<p>Your {game} game is in progress — <a id=continue href='/play?id={id}'>back to it</a></p>"
            );
        }
        Some((id, game, false)) => {
            let _ = write!(
                h,
                "<p>Your {game} game is saved — <a id=continue href='/play?id={id}'>continue it</a>, or start another (the save stays on disk):</p>{}",
                form(true)
            );
        }
        None => h.push_str(&form(false)),
    }
    h.push_str("<h2>Games in progress</h2><table id=games><tr><th>Player<th>Game<th>Depth<th>Turn<th>Idle<th>Spectators<th></tr>");
    for r in server.all_rows() {
        let watch = if r.here {
            format!("<a href='/watch/{}'>watch</a>", r.id)
        } else {
            format!("on server {}", escape(&r.server))
        };
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}s{}<td>{}<td>{watch}</tr>",
            escape(&r.player),
            r.game,
            r.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            r.turn,
            r.idle_secs,
            if r.connected { "" } else { " (away)" },
            r.spectators,
        );
    }
    h.push_str("</table>");
    h.push_str("<h2>Scores</h2><div id=scores>");
    for kind in crate::games::GameKind::PLAYABLE {
        let _ = write!(h, "<h3>{}</h3>", kind.name());
        match server.store.top_scores(kind.name(), TOP_SCORES) {
            Ok(rows) if rows.is_empty() => h.push_str("<p>No game has ended yet.</p>"),
            Ok(rows) => score_table(&mut h, &rows),
            Err(e) => {
                let _ = write!(
                    h,
                    "<p>The score table cannot be read: {}</p>",
                    escape(&e.to_string())
                );
            }
        }
    }
    h.push_str("</div><h2>Finished games</h2>");
    finished_table(&mut h, &server.finished(LISTED));
    h.push_str("<script src=/lobby.js></script></body></html>");
    h
}

/// How many rows of each game's score table the lobby shows (DCSS's and Brogue's top 20).
const TOP_SCORES: u32 = 20;

fn score_table(h: &mut String, rows: &[crate::store::Score]) {
    h.push_str("<table class=scores><tr><th>#<th>Points<th>Player<th>Depth<th>Turns<th></tr>");
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}<td><a href='/games/{}'>game</a></tr>",
            i + 1,
            r.points,
            escape(&r.player),
            r.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            r.turn,
            r.game_id
        );
    }
    h.push_str("</table>");
}

/// The links of a finished game: its page, its replay, its morgue file.
fn finished_links(id: u64) -> String {
    format!(
        "<a href='/games/{id}'>game</a> · <a href='/replay/game-{id}'>replay</a> · <a href='/morgue/game-{id}'>morgue</a>"
    )
}

fn finished_table(h: &mut String, games: &[GameRecord]) {
    h.push_str("<table id=finished><tr><th>Player<th>Game<th>Depth<th>Turn<th>Files</tr>");
    for f in games {
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}</tr>",
            escape(&f.player),
            escape(&f.kind),
            f.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            f.turn,
            finished_links(f.id)
        );
    }
    h.push_str("</table>");
}

fn head(h: &mut String, title: &str) {
    let _ = write!(
        h,
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Alembic — {}</title>\
         <meta name=viewport content='width=device-width'><style>{STYLE}</style></head><body>\
         <p><a href=/>Lobby</a></p>",
        escape(title)
    );
}

/// The public page of the player called `name`: their games, every status, newest first,
/// with the morgue file and replay of each finished one. `None`: no such account.
/// Blocking (the store).
#[must_use]
pub fn player_page(server: &Server, name: &str) -> Option<String> {
    let account = server.store.account_by_name(name).ok().flatten()?;
    let games = server
        .store
        .games(GameFilter::Account(account.id), 200)
        .unwrap_or_default();
    let mut h = String::with_capacity(4096);
    head(&mut h, &account.name);
    let _ = write!(
        h,
        "<h1 id=player>{}</h1><table id=player-games><tr><th>Game<th>Id<th>Status<th>Depth<th>Turn<th></tr>",
        escape(&account.name)
    );
    for g in &games {
        let links = match g.status {
            GameStatus::Finished => finished_links(g.id),
            GameStatus::Live | GameStatus::Saved => String::new(),
        };
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}<td>{links}</tr>",
            escape(&g.kind),
            g.id,
            g.status.as_str(),
            g.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            g.turn,
        );
    }
    h.push_str("</table></body></html>");
    Some(h)
}

/// The public page of finished game `id`: who, where it ended, its morgue file (escaped)
/// and a link to its replay. `None`: no such finished game. Blocking (the store).
#[must_use]
pub fn game_page(server: &Server, id: u64) -> Option<String> {
    let g = server
        .store
        .game(id)
        .ok()
        .flatten()
        .filter(|g| g.status == GameStatus::Finished)?;
    let owner = g
        .account
        .and_then(|a| server.store.account(a).ok().flatten());
    let mut h = String::with_capacity(8192);
    head(&mut h, &format!("game {id}"));
    let _ = write!(
        h,
        "<h1>{} game {id}</h1><p id=summary>Played by {}{} — depth {}, turn {}. <a href='/replay/game-{id}'>Watch the replay</a> · <a href='/records/game-{id}'>recording file</a></p>",
        escape(&g.kind),
        escape(&g.player),
        owner.map_or_else(String::new, |a| format!(
            " (<a href='/players/{}'>{}</a>)",
            escape(&a.name),
            escape(&a.name)
        )),
        g.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
        g.turn
    );
    match server.store.morgue(id) {
        Ok(Some(text)) => {
            let _ = write!(h, "<pre id=morgue>{}</pre>", escape(&text));
        }
        _ => h.push_str("<p>No morgue file.</p>"),
    }
    h.push_str("</body></html>");
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
