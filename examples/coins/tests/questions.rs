#![allow(clippy::unwrap_used)]
//! The session's questions, played as a player would through the play screen: a lettered
//! list, a number, a y/n, a direction, the targeting cursor with its path, a line of text.
//! Each reply ends up in a command, and the recording replays to the same final hash.

use std::path::PathBuf;
use std::sync::Arc;

use alembic::{Game, Loc};
use alembic_example_coins::{Coins, Command, Metal};
use alembic_session::play::{self, Session, Step};
use alembic_session::record;
use alembic_session::run::apply_step_quietly;
use alembic_session::{Board, Ruleset, View};
use alembic_ui::{Frame, Input, Key, Rect, TestFrontend, TestFrontendError, run};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-coins-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Play `keys` on a new game from `seed`; the frames and the session after them.
fn play(d: &std::path::Path, seed: u64, keys: Vec<Input>) -> (TestFrontend, Session<Coins>) {
    let session =
        Session::new(Arc::new(Coins::new().unwrap()), seed).with_save(d.join("coins.save"));
    let mut app = play::app_playing(session);
    let mut fe = TestFrontend::new(80, 24, keys);
    match run(&mut fe, &mut app) {
        Ok(()) | Err(TestFrontendError::ScriptExhausted { .. }) => {}
    }
    (fe, app.into_ctx())
}

fn keys(s: &str) -> Vec<Input> {
    s.chars().map(Input::ch).collect()
}

/// The board as text.
fn board(g: &Game) -> String {
    let rules = Coins::new().unwrap();
    let mut frame = Frame::new(48, 14);
    rules.draw(g, &mut frame, Rect::new(0, 0, 48, 14), &View::default());
    frame.to_text()
}

/// The coin the hero reaches first from (1,1) walking east then south with nothing else on
/// the way (the westmost, then northmost), its metal's initial, and the keys that walk there.
fn first_coin(seed: u64) -> (Loc, char, String) {
    let rules = Coins::new().unwrap();
    let g = rules.new_game(seed).unwrap();
    let mut coins = Vec::new();
    for y in 1..9 {
        for x in 1..19 {
            let l = Loc::new(x, y, 0);
            let said = rules.describe_cell(&g, l).unwrap();
            if let Some(metal) = said.strip_prefix("A ").and_then(|m| m.split(' ').next()) {
                coins.push((l, metal.chars().next().unwrap()));
            }
        }
    }
    let &(l, m) = coins.iter().min_by_key(|(l, _)| (l.x, l.y)).unwrap();
    let mut keys = "l".repeat(usize::try_from(l.x - 1).unwrap());
    keys.push_str(&"j".repeat(usize::try_from(l.y - 1).unwrap()));
    (l, m, keys)
}

#[test]
fn an_empty_purse_and_esc_take_no_turn() {
    let d = dir("empty");
    let mut k = keys("d");
    k.push(Input::ch('f'));
    k.push(Input::key(Key::Esc));
    let (fe, s) = play(&d, 3, k);
    assert_eq!(s.game().turn(), 0);
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("Your purse is empty."))
    );
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("Flick a coin in which direction?"))
    );
    assert!(fe.last_frame().unwrap().contains_text("Okay, then."));
}

#[test]
fn the_help_lists_the_keys_that_ask() {
    let d = dir("help");
    let (fe, _) = play(&d, 3, keys("?"));
    let help = fe.last_frame().unwrap().to_text();
    for line in [
        "drop coins (which, how many)",
        "throw a coin (which, where)",
        "write in the dust",
    ] {
        assert!(help.contains(line), "{help}");
    }
    // The coins draw no tiles: F2 is neither offered nor bound.
    assert!(!help.contains("F2"), "{help}");
    assert!(!play::is_bound(&Coins::new().unwrap(), Key::F(2)));
    assert!(play::is_bound(&Coins::new().unwrap(), Key::Char('t')));
}

#[test]
fn every_question_answered_through_the_play_screen_and_replayed_exactly() {
    let d = dir("all");
    let seed = 3;
    let (_, metal, walk) = first_coin(seed);
    // Walk onto the first coin, then:
    // - throw it (`t`, then its metal's letter) at the cursor's first mark, the nearest
    //   coin on the floor, with Enter;
    // - write "hello" in the dust (`E`);
    // - flick north, where no coin lies (refused, no turn).
    let mut k = keys(&walk);
    let walked = k.len() as u64;
    k.push(Input::ch('t'));
    k.push(Input::ch(metal));
    let aim = k.len();
    k.push(Input::key(Key::Enter));
    k.extend(keys("Ehello"));
    k.push(Input::key(Key::Enter));
    k.extend(keys("fk"));
    k.push(Input::ch('S'));
    let (fe, s) = play(&d, seed, k);
    let frames = fe.frames();
    // The targeting cursor: the prompt, and the path from the hero drawn on the map.
    let target = &frames[aim];
    assert!(target.contains_text(" coin where?"), "{}", target.to_text());
    let path_bg = play::TARGET_PATH_BG;
    let painted = (0..80)
        .flat_map(|x| (0..24).map(move |y| (x, y)))
        .filter(|&(x, y)| target.get(x, y).is_some_and(|c| c.bg == path_bg))
        .count();
    assert!(painted > 0, "no path drawn:\n{}", target.to_text());
    let all = frames
        .iter()
        .map(Frame::to_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains(" coin (1 of 5)."), "{all}");
    assert!(all.contains(" coin lands"), "{all}");
    assert!(all.contains("Written here: \"hello\""), "{all}");
    assert!(all.contains("There is no coin there to flick."), "{all}");
    // Walk + throw + write: the refused flick took no turn.
    assert_eq!(s.game().turn(), walked + 2);
    // The recording holds the replies inside the commands, and replays to the same hash.
    let rec = record::read::<Step<Command>>(&d.join("coins.replay"), "coins").unwrap();
    let commands: Vec<_> = rec.commands().map(|(_, c)| c.clone()).collect();
    assert!(
        commands.contains(&Step::Play(Command::Write("hello".into()))),
        "{commands:?}"
    );
    assert!(
        commands
            .iter()
            .any(|c| matches!(c, Step::Play(Command::Throw(..)))),
        "{commands:?}"
    );
    let rules = Coins::new().unwrap();
    let verified = rec
        .verify(
            rules.new_game(rec.header.seed).unwrap(),
            |g: &Game, c| apply_step_quietly(&rules, g, c),
            Game::state_hash,
            Game::turn,
        )
        .unwrap();
    assert_eq!(verified.final_hash, s.game().state_hash());
}

#[test]
fn drop_asks_which_how_many_and_before_the_last_coin() {
    let d = dir("drop");
    let seed = 3;
    let (_, metal, walk) = first_coin(seed);
    let mut k = keys(&walk);
    let walked = k.len() as u64;
    // One coin: `d` and its letter ask y/n before the last coin; `n` keeps it.
    k.extend([Input::ch('d'), Input::ch(metal), Input::ch('n')]);
    // Then `y` drops it.
    k.extend([Input::ch('d'), Input::ch(metal), Input::ch('y')]);
    let (fe, s) = play(&d, seed, k);
    let all = fe
        .frames()
        .iter()
        .map(Frame::to_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("Drop which coins?"), "{all}");
    assert!(all.contains(&format!("{metal}) 1 ")), "{all}");
    assert!(all.contains(" coin - worth "), "{all}");
    assert!(all.contains("Drop your last coin, the "), "{all}");
    assert!(all.contains("(y/n)"), "{all}");
    assert!(all.contains("You keep your coins."), "{all}");
    assert!(all.contains("You drop a "), "{all}");
    assert_eq!(s.game().turn(), walked + 1, "only the drop took a turn");
}

#[test]
fn a_number_out_of_range_is_asked_again() {
    let d = dir("number");
    let rules = Coins::new().unwrap();
    let seed = 3;
    let mut g = rules.new_game(seed).unwrap();
    // Sweep the room row by row until four coins are in the purse (five would win).
    let mut east = true;
    'sweep: for _ in 1..9 {
        for _ in 1..18 {
            let dir = if east {
                alembic::Dir::East
            } else {
                alembic::Dir::West
            };
            g = rules.apply(&g, &Command::Move(dir)).unwrap().game;
            if board(&g).contains("Coins 4/5") {
                break 'sweep;
            }
        }
        east = !east;
        g = rules
            .apply(&g, &Command::Move(alembic::Dir::South))
            .unwrap()
            .game;
        if board(&g).contains("Coins 4/5") {
            break;
        }
    }
    let text = board(&g);
    assert!(text.contains("Coins 4/5"), "{text}");
    // Five coins of three metals (two, two and one): four taken leave a metal with two.
    let (name, letter) = [("copper", 'c'), ("silver", 's')]
        .into_iter()
        .find(|(n, _)| text.contains(&format!("2 {n}")))
        .unwrap();
    let metal = if name == "copper" {
        Metal::Copper
    } else {
        Metal::Silver
    };
    assert!(
        rules.apply(&g, &Command::Drop(metal, 3)).is_err(),
        "only two"
    );
    let session = Session::new(Arc::new(Coins::new().unwrap()), seed)
        .with_game(g)
        .with_save(d.join("coins.save"));
    let mut app = play::app_playing(session);
    let mut k = vec![Input::ch('d'), Input::ch(letter), Input::ch('9')];
    k.push(Input::key(Key::Enter));
    k.push(Input::ch('2'));
    k.push(Input::key(Key::Enter));
    let mut fe = TestFrontend::new(80, 24, k);
    let _ = run(&mut fe, &mut app);
    let all = fe
        .frames()
        .iter()
        .map(Frame::to_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        all.contains(&format!("Drop how many {name} coins? (1-2)")),
        "{all}"
    );
    assert!(all.contains("Type a number from 1 to 2."), "{all}");
    assert!(all.contains(&format!("You drop 2 {name} coins.")), "{all}");
}
