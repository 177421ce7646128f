//! The storage suite, written once over `&dyn Store` and run against every backend
//! (`tests/store.rs`: SQLite; `tests/store_pg.rs`: PostgreSQL).
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::collections::HashSet;
use std::sync::Arc;

use alembic_web::store::group::GroupCommit;
use alembic_web::store::{
    GameFilter, GameStatus, Lease, MAX_SAVE_BYTES, MirrorWrite, NewGame, SCHEMA_VERSION, Score,
    Store, StoreError,
};

/// A backend under test: fresh databases by name, reopened, or left at an older version.
pub trait Backend {
    /// A new, empty database called `name`, opened (all migrations applied).
    fn fresh(name: &str) -> Box<dyn Store>;
    /// A new, empty database called `name`, migrated only to `version`.
    fn fresh_at(name: &str, version: u32) -> Box<dyn Store>;
    /// Open database `name` again (its migrations apply).
    fn reopen(name: &str) -> Result<Box<dyn Store>, StoreError>;
    /// Mark database `name` as migrated to `version` (as a newer program would).
    fn mark_version(name: &str, version: u32);
}

/// Strings that break SQL built by pasting text.
pub const INJECTIONS: [&str; 6] = [
    "x'); DROP TABLE accounts;--",
    "' OR '1'='1",
    "\"; DELETE FROM sessions; --",
    "a\\'b",
    "Robert'); DROP TABLE saves; --",
    "1; UPDATE accounts SET password_hash='x'",
];

pub fn migrations_from_empty<B: Backend>() {
    let s = B::fresh("mig_empty");
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
    drop(s);
    // Opening again changes nothing.
    let s = B::reopen("mig_empty").unwrap();
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
    s.create_account("a", "h", 1).unwrap();
}

pub fn migrations_from_previous<B: Backend>() {
    let s = B::fresh_at("mig_prev", SCHEMA_VERSION - 1);
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION - 1);
    // The previous version's tables are there; the last migration's are not yet (its saves
    // table is the older one, keyed by account).
    let id = s.create_account("Old", "hash", 1).unwrap();
    assert!(s.put_save(id, 1, b"x", 1).is_err());
    assert!(s.create_game(&new_game("k", "srv", 1)).is_err());
    drop(s);
    let s = B::reopen("mig_prev").unwrap();
    assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(s.account_by_name("old").unwrap().unwrap().id, id);
    s.put_save(id, 1, b"x", 2).unwrap();
    assert_eq!(s.save(id, 1).unwrap().unwrap(), b"x");
}

pub fn newer_database_refused<B: Backend>() {
    let s = B::fresh("mig_newer");
    drop(s);
    B::mark_version("mig_newer", SCHEMA_VERSION + 7);
    match B::reopen("mig_newer") {
        Err(e @ StoreError::TooNew { found, known }) => {
            assert_eq!((found, known), (SCHEMA_VERSION + 7, SCHEMA_VERSION));
            let msg = e.to_string();
            assert!(msg.contains("newer"), "{msg}");
        }
        other => panic!("a newer database must be refused, got {other:?}"),
    }
}

pub fn accounts<B: Backend>() {
    let s = B::fresh("accounts");
    let ann = s.create_account("Ann", "$argon2id$ann", 10).unwrap();
    let bob = s.create_account("bob", "$argon2id$bob", 11).unwrap();
    assert_ne!(ann, bob);
    for taken in ["ann", "ANN", "Ann"] {
        assert!(matches!(
            s.create_account(taken, "h", 12),
            Err(StoreError::NameTaken)
        ));
    }
    let a = s.account_by_name("aNN").unwrap().unwrap();
    assert_eq!(
        (a.id, a.name.as_str(), a.password_hash.as_str(), a.created),
        (ann, "Ann", "$argon2id$ann", 10)
    );
    assert_eq!(s.account(bob).unwrap().unwrap().name, "bob");
    assert!(s.account_by_name("carol").unwrap().is_none());
    assert!(s.account(bob + 1000).unwrap().is_none());
    // Injection strings are names like any other, and break nothing.
    for (i, name) in INJECTIONS.iter().enumerate() {
        let id = s.create_account(name, &format!("h{i}"), 20).unwrap();
        assert_eq!(s.account_by_name(name).unwrap().unwrap().id, id);
        assert!(s.account_by_name(&format!("{name}x")).unwrap().is_none());
    }
    assert_eq!(
        s.account(ann).unwrap().unwrap().password_hash,
        "$argon2id$ann"
    );
    assert_eq!(
        s.account(bob).unwrap().unwrap().password_hash,
        "$argon2id$bob"
    );
}

pub fn sessions<B: Backend>() {
    let s = B::fresh("sessions");
    let ann = s.create_account("ann", "h", 0).unwrap();
    let bob = s.create_account("bob", "h", 0).unwrap();
    s.create_session(ann, "tok-a1", 100, 200).unwrap();
    s.create_session(ann, "tok-a2", 100, 200).unwrap();
    s.create_session(bob, "tok-b1", 100, 200).unwrap();
    assert_eq!(s.session("tok-a1", 150).unwrap().unwrap().id, ann);
    assert_eq!(s.session("tok-b1", 199).unwrap().unwrap().id, bob);
    // Expired at `expires`.
    assert!(s.session("tok-a1", 200).unwrap().is_none());
    assert!(s.session("tok-zz", 150).unwrap().is_none());
    assert!(s.session("' OR '1'='1", 150).unwrap().is_none());
    // One out.
    assert!(s.revoke_session("tok-a1").unwrap());
    assert!(!s.revoke_session("tok-a1").unwrap());
    assert!(s.session("tok-a1", 150).unwrap().is_none());
    assert!(s.session("tok-a2", 150).unwrap().is_some());
    // Everywhere: Ann's all go, Bob's stays.
    s.create_session(ann, "tok-a3", 100, 200).unwrap();
    assert_eq!(s.revoke_all_sessions(ann).unwrap(), 2);
    assert!(s.session("tok-a2", 150).unwrap().is_none());
    assert!(s.session("tok-a3", 150).unwrap().is_none());
    assert_eq!(s.session("tok-b1", 150).unwrap().unwrap().id, bob);
    // A session for no account is refused.
    assert!(s.create_session(bob + 1000, "tok-x", 100, 200).is_err());
}

pub fn login_failures<B: Backend>() {
    let s = B::fresh("login_failures");
    for t in [10, 20, 30] {
        s.record_login_failure("name:ann", t).unwrap();
    }
    s.record_login_failure("ip:127.0.0.1", 25).unwrap();
    assert_eq!(s.login_failures_since("name:ann", 0).unwrap(), 3);
    assert_eq!(s.login_failures_since("name:ann", 20).unwrap(), 2);
    assert_eq!(s.login_failures_since("name:ann", 31).unwrap(), 0);
    assert_eq!(s.login_failures_since("ip:127.0.0.1", 0).unwrap(), 1);
    assert_eq!(s.login_failures_since("name:bob", 0).unwrap(), 0);
    assert_eq!(s.prune_login_failures(21).unwrap(), 2);
    assert_eq!(s.login_failures_since("name:ann", 0).unwrap(), 1);
}

fn score(game: &str, id: u64, points: i64, ended: i64) -> Score {
    Score {
        game: game.to_owned(),
        game_id: id,
        player: format!("p{id}"),
        account: None,
        points,
        depth: Some(2),
        turn: id.saturating_add(100),
        ended,
    }
}

pub fn scores<B: Backend>() {
    let s = B::fresh("scores");
    let ann = s.create_account("ann", "h", 0).unwrap();
    let mut with_account = score("alchemy", 1, 50, 5);
    with_account.account = Some(ann);
    with_account.depth = None;
    s.add_score(&with_account).unwrap();
    s.add_score(&score("alchemy", 2, 70, 6)).unwrap();
    s.add_score(&score("alchemy", 3, 50, 4)).unwrap();
    s.add_score(&score("caves", 4, 999, 1)).unwrap();
    s.add_score(&score("alchemy", 5, 10, 1)).unwrap();
    let top = s.top_scores("alchemy", 3).unwrap();
    let ids: Vec<u64> = top.iter().map(|r| r.game_id).collect();
    assert_eq!(ids, [2, 3, 1], "points, then the earlier");
    assert_eq!(top[2], with_account);
    assert_eq!(s.top_scores("alchemy", 100).unwrap().len(), 4);
    assert_eq!(
        s.top_scores("caves", 100).unwrap(),
        [score("caves", 4, 999, 1)]
    );
    assert!(s.top_scores("' OR '1'='1", 100).unwrap().is_empty());
    assert!(s.add_score(&score("alchemy", u64::MAX, 1, 1)).is_err());
}

pub fn morgues<B: Backend>() {
    let s = B::fresh("morgues");
    assert!(s.morgue(7).unwrap().is_none());
    s.put_morgue(7, "Ann died on D3.\n<script>x</script>\n")
        .unwrap();
    assert_eq!(
        s.morgue(7).unwrap().unwrap(),
        "Ann died on D3.\n<script>x</script>\n"
    );
    s.put_morgue(7, "again").unwrap();
    assert_eq!(s.morgue(7).unwrap().unwrap(), "again");
    assert!(s.morgue(8).unwrap().is_none());
}

pub fn saves<B: Backend>() {
    let s = B::fresh("saves");
    let ann = s.create_account("ann", "h", 0).unwrap();
    let bob = s.create_account("bob", "h", 0).unwrap();
    s.put_save(ann, 1, b"first", 1).unwrap();
    assert_eq!(s.game_owner(1).unwrap(), Some(ann));
    s.put_save(ann, 1, b"second", 2).unwrap();
    assert_eq!(s.save(ann, 1).unwrap().unwrap(), b"second");
    // Bob can neither write, read nor delete Ann's.
    assert!(matches!(
        s.put_save(bob, 1, b"bob's", 3),
        Err(StoreError::NotOwner(1))
    ));
    assert!(s.save(bob, 1).unwrap().is_none());
    assert!(!s.delete_save(bob, 1).unwrap());
    assert_eq!(s.save(ann, 1).unwrap().unwrap(), b"second");
    // Every byte survives.
    let bytes: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    s.put_save(bob, 2, &bytes, 4).unwrap();
    assert_eq!(s.save(bob, 2).unwrap().unwrap(), bytes);
    assert!(s.delete_save(ann, 1).unwrap());
    assert!(s.save(ann, 1).unwrap().is_none());
    assert!(!s.delete_save(ann, 1).unwrap());
}

pub fn save_all_or_nothing<B: Backend>() {
    let s = B::fresh("save_atomic");
    let ann = s.create_account("ann", "h", 0).unwrap();
    // The claim of game 5 is written first, then the save is refused by the table: the
    // transaction takes the claim back.
    assert!(matches!(
        s.put_save(ann, 5, b"", 1),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.game_owner(5).unwrap(), None);
    let big = vec![7u8; MAX_SAVE_BYTES + 1];
    assert!(matches!(
        s.put_save(ann, 6, &big, 1),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.game_owner(6).unwrap(), None);
    // A refused save leaves the last good one as it was.
    s.put_save(ann, 7, b"good", 1).unwrap();
    assert!(s.put_save(ann, 7, b"", 2).is_err());
    assert_eq!(s.save(ann, 7).unwrap().unwrap(), b"good");
    // A save for no account: nothing written.
    assert!(s.put_save(ann + 1000, 8, b"x", 1).is_err());
    assert_eq!(s.game_owner(8).unwrap(), None);
}

pub fn recordings_concurrent<B: Backend>() {
    let s: Arc<dyn Store> = Arc::from(B::fresh("recordings"));
    assert!(s.recording(1).unwrap().is_empty());
    const THREADS: usize = 8;
    const LINES: usize = 100;
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                for i in 0..LINES {
                    s.append_recording(1, &format!("{{\"t\":{t},\"i\":{i}}}"))
                        .unwrap();
                }
            })
        })
        .collect();
    s.append_recording(2, "other game").unwrap();
    for h in handles {
        h.join().unwrap();
    }
    let lines = s.recording(1).unwrap();
    assert_eq!(lines.len(), THREADS * LINES);
    let set: HashSet<&String> = lines.iter().collect();
    assert_eq!(set.len(), THREADS * LINES, "no line twice");
    // Each writer's lines in the order it wrote them.
    for t in 0..THREADS {
        let mine: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("{{\"t\":{t},")))
            .collect();
        let want: Vec<String> = (0..LINES)
            .map(|i| format!("{{\"t\":{t},\"i\":{i}}}"))
            .collect();
        assert_eq!(mine, want.iter().collect::<Vec<_>>());
    }
    assert_eq!(s.recording(2).unwrap(), ["other game"]);
}

pub fn ownership<B: Backend>() {
    let s = B::fresh("ownership");
    let ann = s.create_account("ann", "h", 0).unwrap();
    let bob = s.create_account("bob", "h", 0).unwrap();
    assert_eq!(s.game_owner(3).unwrap(), None);
    assert!(s.claim_game(3, ann, 1).unwrap());
    assert!(
        s.claim_game(3, ann, 2).unwrap(),
        "claiming your own again is fine"
    );
    assert!(!s.claim_game(3, bob, 3).unwrap());
    assert_eq!(s.game_owner(3).unwrap(), Some(ann));
    assert!(s.claim_game(4, bob, 3).unwrap());
    assert_eq!(s.game_owner(4).unwrap(), Some(bob));
    assert!(s.claim_game(u64::MAX, bob, 3).is_err());
}

fn new_game<'a>(owner: &'a str, server: &'a str, now: i64) -> NewGame<'a> {
    NewGame {
        kind: "alchemy",
        player: "Ann <b>",
        seed: u64::MAX - 3,
        owner_token: owner,
        server,
        now,
        lease_until: now + 10,
    }
}

pub fn progress_many_only_where_held<B: Backend>() {
    let s = B::fresh("progress");
    let a = s.create_game(&new_game("tok-a", "one", 100)).unwrap();
    let b = s.create_game(&new_game("tok-b", "one", 101)).unwrap();
    assert_eq!(s.take_lease(b, "two", 200, 210).unwrap(), Lease::Taken);
    let held = s
        .progress_many("one", &[(a, Some(4), 40), (b, Some(5), 50)], 205)
        .unwrap();
    assert_eq!(held, [true, false]);
    let ga = s.game(a).unwrap().unwrap();
    assert_eq!(
        (ga.depth, ga.turn, ga.updated, ga.status),
        (Some(4), 40, 205, GameStatus::Live)
    );
    // Its hold is kept; the other server's game is not touched.
    assert_eq!(
        (ga.server.as_deref(), ga.lease_until),
        (Some("one"), Some(110))
    );
    let gb = s.game(b).unwrap().unwrap();
    assert_eq!((gb.turn, gb.server.as_deref()), (0, Some("two")));
    // A late progress write never brings back a game that ended meanwhile (the lobby's
    // writer runs beside the game's end): it stays finished, its turn as it ended.
    assert!(
        s.set_game(a, "one", GameStatus::Finished, Some(4), 41, 206)
            .unwrap()
    );
    let held = s.progress_many("one", &[(a, Some(4), 40)], 207).unwrap();
    assert_eq!(held, [false]);
    let ga = s.game(a).unwrap().unwrap();
    assert_eq!((ga.status, ga.turn), (GameStatus::Finished, 41));
}

pub fn games_and_leases<B: Backend>() {
    let s = B::fresh("games");
    let a = s.create_game(&new_game("tok-a", "one", 100)).unwrap();
    let b = s.create_game(&new_game("tok-b", "one", 101)).unwrap();
    assert_ne!(a, b);
    let g = s.game(a).unwrap().unwrap();
    assert_eq!(
        (g.kind.as_str(), g.player.as_str(), g.seed, g.status),
        ("alchemy", "Ann <b>", u64::MAX - 3, GameStatus::Live)
    );
    assert_eq!(
        (g.server.as_deref(), g.lease_until),
        (Some("one"), Some(110))
    );
    assert!(s.game(b + 100).unwrap().is_none());
    // Another server cannot take it while the lease runs, and can once it has run out.
    assert_eq!(
        s.take_lease(a, "two", 105, 115).unwrap(),
        Lease::HeldBy("one".to_owned())
    );
    assert_eq!(s.take_lease(a, "one", 105, 120).unwrap(), Lease::Taken);
    assert_eq!(s.renew_leases("one", 130).unwrap(), 2);
    assert_eq!(s.game(a).unwrap().unwrap().lease_until, Some(130));
    assert_eq!(s.take_lease(a, "two", 131, 141).unwrap(), Lease::Taken);
    assert_eq!(s.game(a).unwrap().unwrap().server.as_deref(), Some("two"));
    assert_eq!(
        s.renew_leases("one", 150).unwrap(),
        1,
        "only b is one's now"
    );
    assert_eq!(s.take_lease(b + 100, "two", 131, 141).unwrap(), Lease::Gone);
    // Live lists only running leases; saving gives the lease up; finished games are listed
    // apart and never leased again.
    let live: Vec<u64> = s
        .games(GameFilter::Live(140), 10)
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(live, [b, a]);
    // Only the server holding a game records it.
    assert!(
        !s.set_game(a, "one", GameStatus::Saved, Some(3), 77, 142)
            .unwrap()
    );
    assert!(
        s.set_game(a, "two", GameStatus::Saved, Some(3), 77, 142)
            .unwrap()
    );
    let g = s.game(a).unwrap().unwrap();
    assert_eq!(
        (g.status, g.depth, g.turn, g.server),
        (GameStatus::Saved, Some(3), 77, None)
    );
    assert_eq!(s.take_lease(a, "one", 143, 153).unwrap(), Lease::Taken);
    assert!(
        s.set_game(b, "one", GameStatus::Finished, None, 9, 144)
            .unwrap()
    );
    assert_eq!(s.take_lease(b, "one", 145, 155).unwrap(), Lease::Gone);
    let done: Vec<u64> = s
        .games(GameFilter::Finished, 10)
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(done, [b]);
    let c = s.counts(146).unwrap();
    assert_eq!((c.live, c.saved, c.finished), (1, 0, 1));
    assert_eq!(
        s.counts(1000).unwrap().saved,
        1,
        "a lapsed lease counts as saved"
    );
}

pub fn game_to_continue<B: Backend>() {
    let s = B::fresh("continue");
    let ann = s.create_account("ann", "h", 0).unwrap();
    assert!(s.game_to_continue("tok", Some(ann)).unwrap().is_none());
    let old = s.create_game(&new_game("tok", "one", 1)).unwrap();
    let new = s.create_game(&new_game("tok", "one", 2)).unwrap();
    assert_eq!(s.game_to_continue("tok", None).unwrap().unwrap().id, new);
    assert!(
        s.set_game(new, "one", GameStatus::Finished, None, 1, 3)
            .unwrap()
    );
    assert_eq!(s.game_to_continue("tok", None).unwrap().unwrap().id, old);
    // An account's game is found from another browser; another browser's is not.
    assert!(s.game_to_continue("other", Some(ann)).unwrap().is_none());
    assert!(s.claim_game(old, ann, 4).unwrap());
    assert_eq!(
        s.game_to_continue("other", Some(ann)).unwrap().unwrap().id,
        old
    );
    assert_eq!(s.game(old).unwrap().unwrap().account, Some(ann));
    assert!(s.game_to_continue("other", None).unwrap().is_none());
    let mine: Vec<u64> = s
        .games(GameFilter::Account(ann), 10)
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(mine, [old]);
    for bad in INJECTIONS {
        assert!(s.game_to_continue(bad, None).unwrap().is_none());
    }
}

fn save(data: &[u8]) -> MirrorWrite<'_> {
    MirrorWrite {
        save: Some(data),
        ..MirrorWrite::default()
    }
}

pub fn game_saves<B: Backend>() {
    let s = B::fresh("game_saves");
    let id = s.create_game(&new_game("tok", "one", 1)).unwrap();
    assert!(s.game_save(id).unwrap().is_none());
    assert!(s.mirror(id, "one", &save(b"one"), 2).unwrap());
    assert!(s.mirror(id, "one", &save(b"two"), 3).unwrap());
    assert_eq!(s.game_save(id).unwrap().unwrap(), b"two");
    assert!(matches!(
        s.mirror(id, "one", &save(b""), 4),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.game_save(id).unwrap().unwrap(), b"two");
    let lines = |l: &[&str]| l.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    let ab = lines(&["a", "b"]);
    let w = MirrorWrite {
        lines: &ab,
        ..MirrorWrite::default()
    };
    assert!(s.mirror(id, "one", &w, 5).unwrap());
    assert_eq!(s.recording(id).unwrap(), ab);
    // Written again from its start.
    let c = lines(&["c"]);
    let again = MirrorWrite {
        restart_recording: true,
        lines: &c,
        save: Some(b"three"),
    };
    assert!(s.mirror(id, "one", &again, 6).unwrap());
    assert_eq!(s.recording(id).unwrap(), c);
    // A server that does not hold the game writes nothing, all of it.
    let x = lines(&["x"]);
    let other = MirrorWrite {
        restart_recording: true,
        lines: &x,
        save: Some(b"other's"),
    };
    assert!(!s.mirror(id, "two", &other, 7).unwrap());
    assert_eq!(s.recording(id).unwrap(), c);
    assert_eq!(s.game_save(id).unwrap().unwrap(), b"three");
    // Once "two" takes it (the lease of "one" run out), "one" is fenced off.
    assert_eq!(s.take_lease(id, "two", 100, 110).unwrap(), Lease::Taken);
    assert!(!s.mirror(id, "one", &w, 101).unwrap());
    assert!(s.mirror(id, "two", &w, 101).unwrap());
    assert_eq!(s.recording(id).unwrap(), lines(&["c", "a", "b"]));
}

pub fn settings_shared<B: Backend>() {
    let s = B::fresh("settings");
    assert_eq!(s.setting_or_insert("csrf", "first").unwrap(), "first");
    assert_eq!(s.setting_or_insert("csrf", "second").unwrap(), "first");
    assert_eq!(
        s.setting_or_insert("other", INJECTIONS[0]).unwrap(),
        INJECTIONS[0]
    );
}

pub fn delete_account_everything<B: Backend>() {
    let s = B::fresh("delete_account");
    let ann = s.create_account("ann", "h", 0).unwrap();
    let bob = s.create_account("bob", "h", 0).unwrap();
    s.create_session(ann, "ann-token", 0, 100).unwrap();
    let mut ids = Vec::new();
    for (who, tok) in [(ann, "a"), (bob, "b")] {
        let id = s.create_game(&new_game(tok, "one", 1)).unwrap();
        assert!(s.claim_game(id, who, 1).unwrap());
        assert!(s.mirror(id, "one", &save(b"save"), 1).unwrap());
        s.append_recording(id, "line").unwrap();
        s.put_morgue(id, "morgue").unwrap();
        s.add_score(&Score {
            account: Some(who),
            ..score("alchemy", id, 10, 1)
        })
        .unwrap();
        ids.push(id);
    }
    assert_eq!(s.delete_account(ann).unwrap(), 1);
    assert!(s.account(ann).unwrap().is_none());
    assert!(s.session("ann-token", 1).unwrap().is_none());
    assert!(s.game(ids[0]).unwrap().is_none());
    assert!(s.game_save(ids[0]).unwrap().is_none());
    assert!(s.recording(ids[0]).unwrap().is_empty());
    assert!(s.morgue(ids[0]).unwrap().is_none());
    let top = s.top_scores("alchemy", 10).unwrap();
    assert_eq!(top.iter().map(|t| t.game_id).collect::<Vec<_>>(), [ids[1]]);
    // Bob's are untouched.
    assert!(s.game(ids[1]).unwrap().is_some());
    assert_eq!(s.game_save(ids[1]).unwrap().unwrap(), b"save");
    assert_eq!(s.recording(ids[1]).unwrap(), ["line"]);
    assert_eq!(s.counts(0).unwrap().accounts, 1);
}

pub fn expire_anonymous_games<B: Backend>() {
    let s = B::fresh("expire");
    let ann = s.create_account("ann", "hash", 1).unwrap();
    // Anonymous, saved long ago, with a recording and a save: it goes.
    let old = s.create_game(&new_game("tok-a", "one", 100)).unwrap();
    let lines = vec!["one".to_owned(), "two".to_owned()];
    let w = MirrorWrite {
        lines: &lines,
        save: Some(b"saved"),
        ..MirrorWrite::default()
    };
    assert!(s.mirror(old, "one", &w, 100).unwrap());
    assert!(
        s.set_game(old, "one", GameStatus::Saved, None, 3, 100)
            .unwrap()
    );
    // Anonymous but recent; an account's; finished; held by a server now: they stay.
    let recent = s.create_game(&new_game("tok-b", "one", 100)).unwrap();
    assert!(
        s.set_game(recent, "one", GameStatus::Saved, None, 3, 250)
            .unwrap()
    );
    let claimed = s.create_game(&new_game("tok-c", "one", 100)).unwrap();
    assert!(s.claim_game(claimed, ann, 100).unwrap());
    assert!(
        s.set_game(claimed, "one", GameStatus::Saved, None, 3, 100)
            .unwrap()
    );
    let done = s.create_game(&new_game("tok-d", "one", 100)).unwrap();
    assert!(
        s.set_game(done, "one", GameStatus::Finished, None, 3, 100)
            .unwrap()
    );
    let held = s
        .create_game(&NewGame {
            lease_until: 1000,
            ..new_game("tok-e", "one", 100)
        })
        .unwrap();
    assert_eq!(s.expire_anonymous(200, 300).unwrap(), 1);
    assert!(s.game(old).unwrap().is_none());
    assert!(s.recording(old).unwrap().is_empty());
    assert!(s.game_save(old).unwrap().is_none());
    for id in [recent, claimed, done, held] {
        assert!(s.game(id).unwrap().is_some(), "game {id} was expired");
    }
    assert_eq!(s.expire_anonymous(200, 300).unwrap(), 0);
}

/// Several games' writes in one transaction: each fenced by its own hold, all or nothing.
pub fn mirror_many_in_one_transaction<B: Backend>() {
    let s = B::fresh("mirror_many");
    let a = s.create_game(&new_game("tok-a", "one", 1)).unwrap();
    let b = s.create_game(&new_game("tok-b", "one", 2)).unwrap();
    let c = s.create_game(&new_game("tok-c", "two", 3)).unwrap();
    let l = |x: &str| vec![x.to_owned()];
    let (b1, c1) = (l("b1"), l("c1"));
    let a1: Vec<String> = ["a1", "a1b", "a1c", "a1d"].map(str::to_owned).into();
    let w = |lines| MirrorWrite {
        restart_recording: false,
        lines,
        save: None,
    };
    let held = s
        .mirror_many("one", &[(a, w(&a1)), (b, w(&b1)), (c, w(&c1))], 5)
        .unwrap();
    // Game c is another server's: nothing of it written.
    assert_eq!(held, [true, true, false]);
    assert_eq!(s.recording(a).unwrap(), a1);
    assert_eq!(s.recording(b).unwrap(), b1);
    assert!(s.recording(c).unwrap().is_empty());
    // One write the database refuses (an empty save): none of the batch is written.
    let a2 = l("a2");
    let bad = MirrorWrite {
        restart_recording: false,
        lines: &b1,
        save: Some(b""),
    };
    assert!(matches!(
        s.mirror_many("one", &[(a, w(&a2)), (b, bad)], 6),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(s.recording(a).unwrap(), a1);
    assert_eq!(s.recording(b).unwrap(), b1);
}

/// The server's writer of moves ([`GroupCommit`]): 8 games written from 8 threads at once,
/// each waiting for its commit, each game's lines stored whole and in order; a game held by
/// another server is told so; one refused write fails only its own game.
pub fn group_commit_writer<B: Backend>() {
    let s: Arc<dyn Store> = Arc::from(B::fresh("group_commit"));
    let ids: Vec<u64> = (0..8)
        .map(|i| {
            s.create_game(&new_game(&format!("tok-{i}"), "one", i))
                .unwrap()
        })
        .collect();
    let other = s.create_game(&new_game("tok-x", "two", 9)).unwrap();
    let gc = Arc::new(GroupCommit::start(Arc::clone(&s), "one".to_owned()).unwrap());
    let threads: Vec<_> = ids
        .iter()
        .map(|&id| {
            let gc = Arc::clone(&gc);
            std::thread::spawn(move || {
                for k in 0..50 {
                    assert!(
                        gc.mirror(id, false, vec![format!("{id}:{k}")], None)
                            .unwrap()
                    );
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for &id in &ids {
        let want: Vec<String> = (0..50).map(|k| format!("{id}:{k}")).collect();
        assert_eq!(s.recording(id).unwrap(), want);
    }
    let (commits, writes) = gc.counts();
    eprintln!("{writes} writes in {commits} transactions");
    assert_eq!(writes, 400);
    assert!(commits <= writes);
    assert!(!gc.mirror(other, false, vec!["x".to_owned()], None).unwrap());
    assert!(s.recording(other).unwrap().is_empty());
    // A refused write (an empty save) fails its own game, and the next write goes on.
    assert!(matches!(
        gc.mirror(ids[0], false, vec!["bad".to_owned()], Some(Vec::new())),
        Err(StoreError::Invalid(_))
    ));
    assert!(
        gc.mirror(ids[1], false, vec!["on".to_owned()], None)
            .unwrap()
    );
    assert_eq!(s.recording(ids[0]).unwrap().len(), 50);
    assert_eq!(s.recording(ids[1]).unwrap().len(), 51);
}

/// One `#[test]` per suite function for backend `$b`, each with the attributes given.
#[macro_export]
macro_rules! store_suite {
    ($b:ty $(, #[$m:meta])*) => {
        $crate::store_suite!(@each $b; [$(#[$m])*]; migrations_from_empty migrations_from_previous
            newer_database_refused accounts sessions login_failures scores morgues saves
            save_all_or_nothing recordings_concurrent ownership progress_many_only_where_held games_and_leases game_to_continue
            game_saves settings_shared delete_account_everything expire_anonymous_games
            mirror_many_in_one_transaction group_commit_writer);
    };
    (@each $b:ty; $attrs:tt; $($name:ident)*) => {
        $( $crate::store_suite!(@one $b; $name; $attrs); )*
    };
    (@one $b:ty; $name:ident; [$(#[$m:meta])*]) => {
        #[test]
        $(#[$m])*
        fn $name() {
            store_suite::$name::<$b>();
        }
    };
}
