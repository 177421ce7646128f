//! The games run on the server's fixed pool of workers ([`alembic_web::Config::workers`]),
//! not on a thread each: at 500 games, a thread per game spent 30% of the server's time
//! switching between them. Twelve games played at once on two workers: every key answered,
//! in order, and not one thread more with twelve games than with one.
//!
//! In a file of its own: it counts the process's threads from `/proc/self/task`, which
//! other tests in the same process would disturb.
#![allow(clippy::unwrap_used)]

mod common;

use alembic_ui::Input;
use common::{Client, TestServer};

/// Threads of this process, but tokio's (its blocking pool grows and shrinks with the
/// connections' store calls).
fn server_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| !c.starts_with("tokio-"))
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_share_a_fixed_pool_of_workers() {
    const GAMES: u8 = 12;
    let ts = TestServer::start("pool", |c| {
        c.workers = 2;
        c.max_games_per_ip = 100;
    })
    .await;
    let mut players = Vec::new();
    let mut before = 0;
    for n in 0..GAMES {
        let mut c = Client::connect(ts.addr, "/ws/play?game=crash", Some(&ts.token(n + 1))).await;
        c.ready().await;
        players.push(c);
        if n == 0 {
            // With one game up (the server's lazily started threads started).
            before = server_threads();
        }
    }
    assert_eq!(ts.server.live_count(), usize::from(GAMES));
    let during = server_threads();
    // Every game answers every key, in order, while all are live.
    for round in ['a', 'b', 'c'] {
        for c in &mut players {
            c.key(round).await;
        }
        for c in &mut players {
            let want = format!("crash test: {}{round}", "abc".split(round).next().unwrap());
            c.until(10, "the key echoed", |c| c.text().contains(&want))
                .await;
        }
    }
    players[0].step(Input::ch('d')).await;
    assert!(players[0].text().contains("crash test: abcd"));
    eprintln!("threads: {before} with one game, {during} with {GAMES}");
    assert!(
        during <= before,
        "{during} threads with {GAMES} games live, {before} with one"
    );
    ts.stop().await;
}
