//! Limits that hold in public (issue 53), through a real server and real clients bound to
//! other loopback addresses (127.0.0.2, …): games per address, server-issued tokens only,
//! abandoned anonymous games expiring.
#![allow(clippy::unwrap_used)]

mod common;

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use common::{Client, TestServer, issued_token_from, made_up_token};

fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_games_from_one_address_hits_its_cap_and_expires() {
    const CAP: usize = 4;
    let ts = TestServer::start("lim-flood", |c| {
        c.max_games_per_ip = CAP;
        c.leave_grace = Duration::from_millis(500);
        c.anon_expiry = Some(Duration::from_secs(1));
        c.expire_every = Duration::from_millis(300);
    })
    .await;
    // A token the client made up is no token: no game for it.
    let mut fake = Client::connect_from(
        ts.addr,
        ip(2),
        "/ws/play?game=crash",
        Some(&made_up_token(1)),
    )
    .await;
    fake.until(10, "refused", |c| !c.errors().is_empty()).await;
    assert!(
        fake.errors()[0].contains("no player token"),
        "{:?}",
        fake.errors()
    );
    assert_eq!(ts.server.live_count(), 0);

    // One address asks for twelve games, each with a fresh token the server issued.
    let mut flood = Vec::new();
    let mut refused = 0;
    for _ in 0..12 {
        let t = issued_token_from(ts.addr, ip(2)).await;
        let mut c = Client::connect_from(ts.addr, ip(2), "/ws/play?game=alchemy", Some(&t)).await;
        c.until(10, "a game or a refusal", |c| {
            c.hello_id().is_some() || !c.errors().is_empty()
        })
        .await;
        if let Some(e) = c.errors().first() {
            assert!(
                e.contains("too many games in progress from your address"),
                "{e}"
            );
            refused += 1;
        } else {
            flood.push(c);
        }
    }
    assert_eq!((flood.len(), refused), (CAP, 12 - CAP));
    // Another address still starts a game.
    let t = issued_token_from(ts.addr, ip(3)).await;
    let mut other = Client::connect_from(ts.addr, ip(3), "/ws/play?game=alchemy", Some(&t)).await;
    let other_id = other.ready().await;

    // The flood leaves: its games are saved, then, untouched, deleted from the store.
    let ids: Vec<u64> = flood.iter().map(|c| c.hello_id().unwrap()).collect();
    drop(flood);
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let left = common::blocking(&ts.server, {
            let ids = ids.clone();
            move |s| {
                ids.iter()
                    .filter(|id| s.game(**id).unwrap().is_some())
                    .count()
            }
        })
        .await;
        if left == 0 {
            break;
        }
        assert!(
            Instant::now() < end,
            "{left} abandoned games still in the store"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The game being played is not touched, and the address may start games again.
    let kept = common::blocking(&ts.server, move |s| s.game(other_id).unwrap()).await;
    assert!(kept.is_some());
    other.step(alembic_ui::Input::ch('x')).await;
    let t = issued_token_from(ts.addr, ip(2)).await;
    let mut again = Client::connect_from(ts.addr, ip(2), "/ws/play?game=alchemy", Some(&t)).await;
    again.ready().await;
    ts.stop().await;
}
