//! The lobby page (games in progress, the score table, finished games with their morgue
//! files and recordings) and the safe serving of those files. Every name that reaches the
//! page is HTML-escaped; files are served only by plain names listed in their directory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::server::{Server, Token};
use crate::store::Account;

/// Where Alchemy writes morgue files, under the data directory.
pub const MORGUE_DIR: &str = "morgue";
/// Where finished games' recordings go, under the data directory.
pub const RECORDS_DIR: &str = "records";
/// How many finished files the lobby lists.
const LISTED: usize = 40;

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

/// The plain-named files of `data/dir`, newest first, at most `LISTED`.
fn newest(data: &Path, dir: &str) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(data.join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, String)> = rd
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let meta = e.metadata().ok()?;
            (plain_name(&name) && meta.is_file())
                .then(|| (meta.modified().unwrap_or(std::time::UNIX_EPOCH), name))
        })
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    files.truncate(LISTED);
    files.into_iter().map(|(_, n)| n).collect()
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
                "<p id=account>Logged in as <b id=who>{}</b> {} {}</p>",
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
    for r in server.rows() {
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}s{}<td>{}<td><a href='/watch/{}'>watch</a></tr>",
            escape(&r.player),
            r.game,
            r.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            r.turn,
            r.idle_secs,
            if r.connected { "" } else { " (away)" },
            r.spectators,
            r.id
        );
    }
    h.push_str("</table>");
    let data = &server.config.data_dir;
    h.push_str("<h2>Scores</h2>");
    match alembic_content::alchemy::ui::morgue::read_scores(data) {
        Ok(scores) if !scores.is_empty() => {
            let lines = alembic_content::alchemy::ui::morgue::score_table_lines(&scores);
            let _ = write!(h, "<pre id=scores>{}</pre>", escape(&lines.join("\n")));
        }
        Ok(_) => h.push_str("<p>No Alchemy game has ended yet.</p>"),
        Err(e) => {
            let _ = write!(h, "<p>The score table cannot be read: {}</p>", escape(&e));
        }
    }
    h.push_str("<h2>Finished games</h2><table id=finished><tr><th>Player<th>Game<th>Depth<th>Turn<th>Files</tr>");
    let records = newest(data, RECORDS_DIR);
    let morgues = newest(data, MORGUE_DIR);
    for f in server.finished(LISTED) {
        let tag = format!("-seed{}-", f.seed);
        let mut links = Vec::new();
        if let Some(r) = records.iter().find(|n| n.contains(&tag)) {
            let r = escape(r);
            links.push(format!("<a href='/replay/{r}'>replay</a>"));
        }
        if let Some(m) = morgues.iter().find(|n| n.contains(&tag)) {
            let m = escape(m);
            links.push(format!("<a href='/morgue/{m}'>morgue</a>"));
        }
        let _ = write!(
            h,
            "<tr><td>{}<td>{}<td>{}<td>{}<td>{}</tr>",
            escape(&f.player),
            escape(&f.game),
            f.depth.map_or_else(|| "—".to_owned(), |d| d.to_string()),
            f.turn,
            links.join(" · ")
        );
    }
    h.push_str("</table><h2>Recordings</h2><table id=records>");
    for name in records {
        let n = escape(&name);
        let _ = write!(
            h,
            "<tr><td>{n}<td><a href='/replay/{n}'>replay</a> · <a href='/records/{n}'>file</a></tr>"
        );
    }
    h.push_str("</table><h2>Morgue files</h2><ul id=morgues>");
    for name in morgues {
        let n = escape(&name);
        let _ = write!(h, "<li><a href='/morgue/{n}'>{n}</a></li>");
    }
    h.push_str(
        "</ul><script>setTimeout(()=>{if(!document.activeElement||document.activeElement.tagName!=='INPUT')location.reload()},5000)</script></body></html>",
    );
    h
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
