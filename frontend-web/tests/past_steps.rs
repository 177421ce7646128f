//! A spectator's look into a game's past costs at most the commands from the nearest
//! whole state the server keeps, not a replay of the game from its start: the live game
//! keeps its state whole at every checkpoint of its recording
//! (`alembic_web::games::WEB_CADENCE.checkpoint_every` commands apart), and the replay viewer of
//! its past seeks from those. Counted with the commands the viewers replay
//! (`KeptStates::steps`). Before, opening the past on a 600-key game replayed every
//! command (the recording's own whole states are 10,000 commands apart).
//!
//! In a file of its own: it starts viewer threads, which `tests/past.rs` counts.
#![allow(clippy::unwrap_used)]

mod common;

use alembic_ui::Key;
use alembic_web::games::WEB_CADENCE;
use alembic_web::server::LiveGame;
use common::{Client, TestServer, play_long};
use std::sync::Arc;

/// The replay bar's "move I/N" on the screen, if shown.
fn position(text: &str) -> Option<(usize, usize)> {
    let at = text.find(" move ")? + " move ".len();
    let rest = &text[at..];
    let (i, rest) = rest.split_once('/')?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((i.trim().parse().ok()?, n.parse().ok()?))
}

/// Send `key` and wait until the bar shows move `want`.
async fn to_move(c: &mut Client, key: Key, want: usize) {
    c.named(key).await;
    c.until(30, &format!("move {want}"), |c| {
        position(&c.text()).is_some_and(|(i, _)| i == want)
    })
    .await;
}

/// Esc out of the past, and wait for the live game.
async fn to_live(c: &mut Client) {
    c.named(Key::Esc).await;
    c.until(30, "live", |c| position(&c.text()).is_none()).await;
}

/// From the live game, ← until the past shows a step back from its end: that position.
async fn back_from_live(c: &mut Client) -> (usize, usize) {
    loop {
        c.named(Key::Left).await;
        c.drain(200).await;
        if let Some(p) = position(&c.text())
            && p.0 + 1 == p.1
        {
            return p;
        }
    }
}

/// A live game with at least three whole states kept (two checkpoints past its start) and
/// a recording of at least 12,000 bytes (the first look parses more than 10,000), played
/// by the wandering bot in rounds until it has both. The server draws each game's
/// seed from the clock, so how many of the bot's keys become commands (a bump into a wall
/// is none) differs from run to run: a fixed number of keys kept two states in some runs.
/// A game whose hero dies first is left for a new one (at most four).
async fn long_game(ts: &TestServer, me: &str) -> (Client, u64, Arc<LiveGame>) {
    for attempt in 0..4u32 {
        let mut player =
            Client::connect(ts.addr, "/ws/play?game=alchemy&name=Long", Some(me)).await;
        let id = player.ready().await;
        player.resize(80, 24).await;
        let game = ts.server.live(id).unwrap();
        let mut round = 0;
        let recording = ts.dir.join(format!("alchemy-{id}.replay"));
        let short = || std::fs::metadata(&recording).map_or(true, |m| m.len() < 12_000);
        while (game.past.len() < 3 || short()) && player.ended().is_none() && round < 30 {
            play_long(&mut player, 100, 777 + 31 * attempt + round).await;
            round += 1;
        }
        let over = player.ended().is_some() || player.text().contains("You die");
        if !over && game.past.len() >= 3 && !short() {
            return (player, id, game);
        }
        eprintln!(
            "game {id}: {} states kept after {round} rounds; over: {over}",
            game.past.len()
        );
    }
    panic!("no game of four kept three whole states");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_step_into_the_past_replays_at_most_a_checkpoints_distance() {
    let ts = TestServer::start("past-steps", |_| {}).await;
    let me = ts.token(1);
    let (mut player, id, game) = long_game(&ts, &me).await;
    let kept = game.past.len();
    let every = WEB_CADENCE.checkpoint_every;
    let bound = every as u64;

    let mut spec = Client::connect(ts.addr, &format!("/ws/watch/{id}"), None).await;
    spec.ready().await;
    spec.resize(80, 24).await;
    // The first ← opens the past at the live end and steps back one.
    let before = game.past.steps();
    let parsed_before = game.past.parsed_bytes();
    spec.named(Key::Left).await;
    // (Its first frame is its start; then the end, and one step back.)
    spec.until(30, "the past, a step from its end", |c| {
        position(&c.text()).is_some_and(|(i, n)| i + 1 == n)
    })
    .await;
    let (at, total) = position(&spec.text()).unwrap();
    // Long enough that the walk back below crosses a checkpoint (three kept states are
    // two checkpoints of the recording, whose turns are not its commands: 280 commands
    // held them in one run).
    assert!(
        total > every + 8,
        "a short game: {total} commands (checkpoints {every} apart)"
    );
    assert_eq!(at, total - 1);
    let opened = game.past.steps() - before;
    let first_parse = game.past.parsed_bytes() - parsed_before;
    assert!(
        first_parse > 10_000,
        "the first look parsed {first_parse} bytes"
    );
    eprintln!("{total} commands, {kept} states kept; opening the past replayed {opened}");
    assert!(
        opened <= bound,
        "opening the past replayed {opened} commands of {total} (bound {bound})"
    );

    // ← one at a time, back past a checkpoint: each costs at most the distance to the
    // state it seeks from.
    let mut most = 0;
    let mut all = 0;
    for want in (at.saturating_sub(every + 7)..at).rev() {
        let s = game.past.steps();
        to_move(&mut spec, Key::Left, want).await;
        let d = game.past.steps() - s;
        most = most.max(d);
        all += d;
    }
    eprintln!("each ←: at most {most} commands replayed, {all} in all");
    assert!(most <= bound, "one ← replayed {most} commands");
    // And forward again, one command a step.
    let (here, _) = position(&spec.text()).unwrap();
    let s = game.past.steps();
    to_move(&mut spec, Key::Right, here + 1).await;
    assert!(game.past.steps() - s <= 1);

    // Back to live and into the past again: opened from a kept state again.
    to_live(&mut spec).await;
    let s = game.past.steps();
    let p = game.past.parsed_bytes();
    let (_, total2) = back_from_live(&mut spec).await;
    let again = game.past.steps() - s;
    assert!(
        again <= bound,
        "opening the past again replayed {again} commands"
    );
    assert!(total2 >= total);
    // Nothing was played since: the recording is not parsed again.
    let reparsed = game.past.parsed_bytes() - p;
    assert!(
        reparsed * 10 < first_parse,
        "opening the past again parsed {reparsed} bytes (the first look: {first_parse})"
    );

    // The player goes on; the next look parses only the lines written since.
    to_live(&mut spec).await;
    play_long(&mut player, 50, 778).await;
    let p = game.past.parsed_bytes();
    let (_, total3) = back_from_live(&mut spec).await;
    let added = game.past.parsed_bytes() - p;
    eprintln!(
        "the first look parsed {first_parse} bytes; again with nothing new, {reparsed}; after {} more commands, {added}",
        total3 - total2
    );
    assert!(total3 > total2, "the player's new moves are in the past");
    assert!(
        added > 0 && added * 5 < first_parse,
        "after {} new commands the look parsed {added} bytes (the first look: {first_parse})",
        total3 - total2
    );
    ts.stop().await;
}
