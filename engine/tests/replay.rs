//! The replay format: round trips, every kind of bad input, verified playback of real games
//! with tampering found at the right turn, and random corruption that never panics.

#![allow(clippy::unwrap_used)]

use alembic::{
    Error, Game, Loc, Prop, Props, Thing, ThingId, replay::Entry, replay::MAX_REPLAY_BYTES,
    replay::MAX_REPLAY_LINE, replay::Recording, replay::ReplayError, replay::ReplayHeader,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// The number of cases per property: `quick` in a plain `cargo test`, or `PROPTEST_CASES`
/// when set (the volume run: `PROPTEST_CASES=10000 cargo test --release -p alembic-rl`).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

const HPS: Prop<i32> = Prop::new("hps");

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Walk { dx: i32, dy: i32 },
    Hurt(i32),
    Shout(String),
}

fn start() -> (Game, ThingId) {
    Game::new(99)
        .add_thing(Loc::new(0, 0, 0), Thing::new(Props::new().with(&HPS, 50)))
        .unwrap()
}

#[allow(deprecated)] // the message log, deprecated: English is not state
fn play(hero: ThingId) -> impl FnMut(&Game, &Cmd) -> Result<Game, Error> {
    move |g, c| {
        let mut g = g.clone();
        match c {
            Cmd::Walk { dx, dy } => {
                let at = g.location(hero)?;
                g.move_thing_mut(hero, Loc::new(at.x + dx, at.y + dy, at.z))?;
            }
            Cmd::Hurt(n) => {
                let hp = g.query(hero, &HPS)?;
                g = g.set(hero, &HPS, hp - n)?;
            }
            Cmd::Shout(s) => g.log_mut(s.clone()),
        }
        let roll = g.rng().below(20);
        g.log_mut(format!("rolled {roll}"));
        g.set_turn_mut(g.turn() + 1);
        Ok(g)
    }
}

fn script(n: usize) -> Vec<Cmd> {
    (0..n)
        .map(|i| match i % 4 {
            0 => Cmd::Walk { dx: 1, dy: 0 },
            1 => Cmd::Hurt(1),
            2 => Cmd::Walk { dx: 0, dy: -1 },
            _ => Cmd::Shout(format!("turn \"{i}\" — ünïcode")),
        })
        .collect()
}

/// Record `cmds` the way a game does: one appended line per command, a checkpoint every
/// `every` turns and at the end.
fn record(cmds: &[Cmd], every: u64) -> String {
    let (mut g, hero) = start();
    let mut step = play(hero);
    let mut text = ReplayHeader::new("test", "1.0", 99)
        .with_mode("practice")
        .to_line();
    for c in cmds {
        text += &Entry::command_line(g.turn(), c).unwrap();
        g = step(&g, c).unwrap();
        if g.turn().is_multiple_of(every) {
            text += &Entry::checkpoint_line(g.turn(), g.state_hash());
        }
    }
    text += &Entry::checkpoint_line(g.turn(), g.state_hash());
    text
}

fn verify(text: &str) -> Result<u64, ReplayError> {
    let rec: Recording<Cmd> = Recording::parse(text)?;
    let (g, hero) = start();
    rec.verify(g, play(hero), Game::state_hash, Game::turn)
        .map(|v| v.final_turn)
}

#[test]
fn a_recording_round_trips_and_verifies() {
    let text = record(&script(100), 10);
    let rec: Recording<Cmd> = Recording::parse(&text).unwrap();
    assert_eq!(rec.header.game, "test");
    assert_eq!(rec.header.seed, 99);
    assert!(rec.header.has_mode("practice") && !rec.header.has_mode("wizard"));
    assert!(!rec.torn);
    assert_eq!(rec.commands().count(), 100);
    assert_eq!(
        rec.commands().map(|(_, c)| c.clone()).collect::<Vec<_>>(),
        script(100)
    );
    assert_eq!(rec.to_text().unwrap(), text);
    assert_eq!(Recording::parse_bytes(text.as_bytes()), Ok(rec.clone()));

    let (g, hero) = start();
    let v = rec
        .verify(g, play(hero), Game::state_hash, Game::turn)
        .unwrap();
    assert_eq!((v.commands, v.checkpoints, v.final_turn), (100, 11, 100));
    assert_eq!(v.final_hash, v.final_state.state_hash());
}

#[test]
fn a_tampered_command_diverges_at_the_next_checkpoint() {
    let text = record(&script(100), 10);
    // Turn 42's command hurts 1; make it hurt 5.
    let tampered = text.replacen(
        r#"{"turn":41,"cmd":{"Hurt":1}}"#,
        r#"{"turn":41,"cmd":{"Hurt":5}}"#,
        1,
    );
    assert_ne!(tampered, text);
    let e = verify(&tampered).unwrap_err();
    assert!(
        matches!(e, ReplayError::Diverged { turn: 50, line, expected, actual }
            if line == 1 + 50 + 5 && expected != actual),
        "{e}"
    );
    assert_eq!(e.diverged_at(), Some(50));
    assert!(
        e.to_string()
            .starts_with("line 56: diverged at turn 50: expected state hash ")
    );
}

#[test]
fn a_refused_or_misplaced_command_is_reported_with_its_line() {
    let mut rec: Recording<Cmd> = Recording::new(ReplayHeader::new("test", "1", 1));
    rec.push_command(0, Cmd::Hurt(1));
    rec.push_command(1, Cmd::Walk { dx: 1, dy: 0 });
    let (g, _) = start();
    let wrong = ThingId(1234);
    let e = rec
        .verify(g.clone(), play(wrong), Game::state_hash, Game::turn)
        .unwrap_err();
    assert_eq!(
        e,
        ReplayError::Rejected {
            line: 2,
            turn: 0,
            reason: "no thing #1234 in this game".into()
        }
    );
    let (g, hero) = start();
    rec.push_command(7, Cmd::Hurt(1));
    let e = rec
        .verify(g, play(hero), Game::state_hash, Game::turn)
        .unwrap_err();
    assert_eq!(
        e,
        ReplayError::TurnMismatch {
            line: 4,
            recorded: 7,
            actual: 2
        }
    );
}

#[test]
fn a_cut_off_last_line_ends_the_recording() {
    let text = record(&script(20), 5);
    let whole: Recording<Cmd> = Recording::parse(&text).unwrap();
    // Cut inside the last line: it is dropped and the recording is marked torn.
    let cut = &text[..text.len() - 7];
    let rec: Recording<Cmd> = Recording::parse(cut).unwrap();
    assert!(rec.torn);
    assert_eq!(rec.entries, whole.entries[..whole.entries.len() - 1]);
    // Cut just before the newline: the line is whole and kept.
    let rec: Recording<Cmd> = Recording::parse(&text[..text.len() - 1]).unwrap();
    assert!(!rec.torn);
    assert_eq!(rec, whole);
    // A multi-byte character cut at the very end of the bytes.
    let mut bytes = text.as_bytes().to_vec();
    bytes.extend_from_slice(r#"{"turn":20,"cmd":{"Shout":"é"#.as_bytes());
    bytes.pop();
    let rec = Recording::<Cmd>::parse_bytes(&bytes).unwrap();
    assert!(rec.torn);
    assert_eq!(rec.entries, whole.entries);
}

#[test]
fn every_kind_of_bad_input_is_its_own_error() {
    let good = record(&script(8), 4);
    let header = ReplayHeader::new("test", "1", 1).to_line();
    let check = |text: &str, want: ReplayError| {
        assert_eq!(Recording::<Cmd>::parse(text), Err(want.clone()), "{text:?}");
        assert!(!want.to_string().contains('\n'));
    };
    check("", ReplayError::Empty);
    check(" \n\n", ReplayError::Empty);
    check(
        "hello\nworld\n",
        ReplayError::Foreign {
            reason: "the first line is not JSON".into(),
        },
    );
    let foreign = ReplayError::Foreign {
        reason: "the first line does not name the \"alembic-replay\" format".into(),
    };
    check("{\"format\":1,\"turn\":0}\n", foreign.clone());
    check(&serde_json::to_string(&start().0).unwrap(), foreign);
    check(
        &format!("\n{good}"),
        ReplayError::Foreign {
            reason: "the first line is not JSON".into(),
        },
    );
    check(
        &good.replacen("\"version\":2", "\"version\":3", 1),
        ReplayError::NewerVersion {
            found: 3,
            supported: 2,
        },
    );
    let bad_header = |reason: &str| ReplayError::BadHeader {
        reason: reason.into(),
    };
    check(
        &good.replacen("\"version\":2", "\"version\":0", 1),
        bad_header("no valid format version"),
    );
    check(
        &good.replacen("\"version\":2", "\"version\":\"2\"", 1),
        bad_header("no valid format version"),
    );
    check(
        &header.replacen(",\"seed\":1", "", 1),
        bad_header("missing field `seed`"),
    );
    check(&header[..30], bad_header("the header line is cut off"));
}

#[test]
fn every_kind_of_bad_line_or_file_is_its_own_error() {
    let good = record(&script(8), 4);
    let header = ReplayHeader::new("test", "1", 1).to_line();
    let lines: Vec<&str> = good.lines().collect();
    let check = |text: &str, want: ReplayError| {
        assert_eq!(Recording::<Cmd>::parse(text), Err(want.clone()), "{text:?}");
        assert!(!want.to_string().contains('\n'));
    };
    let corrupt = |line, reason: &str| ReplayError::Corrupt {
        line,
        reason: reason.into(),
    };
    let mut mid = lines.clone();
    mid[3] = "{\"turn\":2,\"cmd\":{\"Fly\":1}}";
    let e = Recording::<Cmd>::parse(&(mid.join("\n") + "\n")).unwrap_err();
    assert!(
        matches!(&e, ReplayError::Corrupt { line: 4, reason } if reason.starts_with("bad command: unknown variant `Fly`")),
        "{e}"
    );
    mid[3] = "";
    check(&(mid.join("\n") + "\n"), corrupt(4, "a blank line"));
    mid[3] = "{\"turn\":1";
    let e = Recording::<Cmd>::parse(&(mid.join("\n") + "\n")).unwrap_err();
    assert!(matches!(e, ReplayError::Corrupt { line: 4, .. }), "{e}");
    // A corrupt last line that was written whole (it ends in a newline) is corrupt, not torn.
    let e = Recording::<Cmd>::parse(&format!("{good}{{\"turn\":9,\"cmd\"\n")).unwrap_err();
    assert!(matches!(e, ReplayError::Corrupt { line: 13, .. }), "{e}");
    check(
        &format!(
            "{header}{{\"turn\":5,\"cmd\":{{\"Hurt\":1}}}}\n{{\"turn\":4,\"cmd\":{{\"Hurt\":1}}}}\n"
        ),
        corrupt(3, "turn 4 goes back from 5"),
    );
    let long = format!(
        "{header}{{\"turn\":0,\"cmd\":{{\"Shout\":\"{}\"}}}}\n",
        "x".repeat(MAX_REPLAY_LINE)
    );
    check(
        &long,
        ReplayError::LineTooLong {
            line: 2,
            len: MAX_REPLAY_LINE + 29,
            max: MAX_REPLAY_LINE,
        },
    );
    let mut bytes = good.clone().into_bytes();
    let at = good.find("Shout").unwrap();
    bytes[at] = 0xff;
    let line = 1 + good[..at].matches('\n').count();
    assert_eq!(
        Recording::<Cmd>::parse_bytes(&bytes),
        Err(ReplayError::NotText { line })
    );
    let huge = vec![0u8; MAX_REPLAY_BYTES + 1];
    assert_eq!(
        Recording::<Cmd>::parse_bytes(&huge),
        Err(ReplayError::TooLarge {
            bytes: MAX_REPLAY_BYTES + 1,
            max: MAX_REPLAY_BYTES
        })
    );
}

#[test]
fn error_messages_read_as_one_line() {
    assert_eq!(
        ReplayError::NewerVersion {
            found: 3,
            supported: 1
        }
        .to_string(),
        "replay format version 3 is newer than this build reads (1)"
    );
    assert_eq!(
        ReplayError::Diverged {
            line: 9,
            turn: 40,
            expected: 1,
            actual: 0xabc
        }
        .to_string(),
        "line 9: diverged at turn 40: expected state hash 0000000000000001, got 0000000000000abc"
    );
}

/// A change to a valid file's bytes.
#[derive(Clone, Debug)]
enum Damage {
    Truncate(usize),
    Flip(usize, u8),
    Insert(usize, u8),
    Remove(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Damage::Flip(i, b)),
        (
            any::<usize>(),
            prop::sample::select(b"{}[]\",:\n\r0-9e\\ \xc3\xa9".to_vec())
        )
            .prop_map(|(i, b)| Damage::Insert(i, b)),
        any::<usize>().prop_map(Damage::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    /// Truncating, flipping, inserting and removing bytes of a valid recording never
    /// panics: parsing gives a recording or an error, and playing what parses gives a
    /// result or an error.
    #[test]
    fn corrupt_recordings_never_panic(damages in prop::collection::vec(damage(), 1..6)) {
        let mut bytes = record(&script(12), 3).into_bytes();
        for d in damages {
            let n = bytes.len().max(1);
            match d {
                Damage::Truncate(i) => bytes.truncate(i % n),
                Damage::Flip(i, b) => if let Some(x) = bytes.get_mut(i % n) { *x ^= b.max(1) },
                Damage::Insert(i, b) => bytes.insert((i % n).min(bytes.len()), b),
                Damage::Remove(i) => { if !bytes.is_empty() { bytes.remove(i % n); } }
            }
        }
        if let Ok(rec) = Recording::<Cmd>::parse_bytes(&bytes) {
            let (g, hero) = start();
            let _ = rec.verify(g, play(hero), Game::state_hash, Game::turn);
            let _ = rec.to_text();
        }
    }
}

#[test]
fn the_header_hash_refuses_an_edited_header_and_older_headers_still_read() {
    let text = record(&script(8), 4);
    let rec: Recording<Cmd> = Recording::parse(&text).unwrap();
    assert!(rec.header.hash_checked);
    for edited in [
        text.replacen("\"modes\":[\"practice\"]", "\"modes\":[]", 1),
        text.replacen(
            "\"modes\":[\"practice\"]",
            "\"modes\":[\"practice\",\"wizard\"]",
            1,
        ),
        text.replacen("\"seed\":99", "\"seed\":98", 1),
        text.replacen("\"game_version\":\"1.0\"", "\"game_version\":\"1.1\"", 1),
        text.replacen("\"game\":\"test\"", "\"game\":\"tess\"", 1),
    ] {
        assert_ne!(edited, text);
        match Recording::<Cmd>::parse(&edited) {
            Err(e @ ReplayError::HeaderHash { .. }) => {
                assert!(!e.to_string().contains('\n'), "{e}");
            }
            other => panic!("an edited header was not refused: {other:?}"),
        }
    }
    // The seal deleted from a current (version 2) header: refused, not read as older.
    let at = text.find(",\"check\":\"").unwrap();
    let unsealed = format!("{}{}", &text[..at], &text[at + 27..]);
    match Recording::<Cmd>::parse(&unsealed) {
        Err(e @ ReplayError::BadHeader { .. }) => {
            assert!(e.to_string().contains("must carry its header hash"), "{e}");
        }
        other => panic!("a version 2 header without its seal was read: {other:?}"),
    }
    // A header written before the header hash (version 1): read, and marked so.
    let old = unsealed.replacen("\"version\":2", "\"version\":1", 1);
    let rec: Recording<Cmd> = Recording::parse(&old).unwrap();
    assert!(!rec.header.hash_checked);
    assert_eq!(rec.header.seed, 99);
    assert_eq!(verify(&old), verify(&text));
}
